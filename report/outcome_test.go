package report

import (
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
)

// TestOutcomeInReport: an outcome entry gives report.json its outcome, a
// row for each table never read (marked, with the reason), and the
// summary's first sentences; a complete outcome adds no sentence.
func TestOutcomeInReport(t *testing.T) {
	rows := int64(10)
	table := catalog.TableDoc{Name: "a", Kind: "table", RowCount: &rows,
		Columns: []catalog.ColumnDoc{{Name: "id", DataType: "INTEGER", Position: 1}}}
	oc := catalog.OutcomeDoc{Status: catalog.OutcomeIncomplete, Tables: 3, Unseen: []catalog.Unseen{
		{What: catalog.UnseenTable, Table: "b", Reason: "database disk image is malformed (11)"},
		{What: catalog.UnseenTable, Table: "v", Kind: "view", Reason: "the view does not compile: no such function: LCASE (1)"},
		{What: catalog.UnseenTest, Task: "test of a(b_id)->b(id)", Reason: "database disk image is malformed (11)"},
	}}
	run := catalog.Run{ID: "r", Dialect: "sqlite", Database: "x", StartedAt: time.Unix(0, 0)}
	r := Build(Input{Run: run, Entries: []catalog.Entry{
		entry(t, catalog.KindTable, "a", table, 1, "structural"),
		entry(t, catalog.KindOutcome, "outcome", oc, 1, "orchestrator"),
	}})
	if r.Outcome == nil || r.Outcome.Status != "incomplete" || r.Outcome.Tables != 3 || len(r.Outcome.Unseen) != 3 {
		t.Fatalf("outcome %+v", r.Outcome)
	}
	var got []string
	for _, tb := range r.Tables {
		s := tb.Name + ":" + tb.Kind
		if tb.Unread != nil {
			s += ":" + tb.Unread.What + ":" + tb.Unread.Reason
		}
		got = append(got, s)
	}
	want := "a:table | b:table:table:database disk image is malformed (11) | v:view:table:the view does not compile: no such function: LCASE (1)"
	if strings.Join(got, " | ") != want {
		t.Errorf("tables\n got %s\nwant %s", strings.Join(got, " | "), want)
	}
	wantSummary := "This discovery is incomplete. 2 of 3 tables and views could not be read: " +
		"b (database disk image is malformed (11)); v (the view does not compile: no such function: LCASE (1)). " +
		"1 planned test or task was given up or not run: test of a(b_id)->b(id) (database disk image is malformed (11)). "
	if !strings.HasPrefix(r.Summary, wantSummary) {
		t.Errorf("summary\n got %s\nwant it to begin %s", r.Summary, wantSummary)
	}
	if err := Validate(mustJSON(t, r)); err != nil {
		t.Errorf("report.json with an outcome does not validate: %v", err)
	}

	oc.Status, oc.Unseen = catalog.OutcomeComplete, nil
	r = Build(Input{Run: run, Entries: []catalog.Entry{
		entry(t, catalog.KindTable, "a", table, 1, "structural"),
		entry(t, catalog.KindOutcome, "outcome", oc, 1, "orchestrator"),
	}})
	if r.Outcome == nil || r.Outcome.Status != "complete" || len(r.Tables) != 1 || strings.Contains(r.Summary, "incomplete") {
		t.Errorf("complete: outcome %+v, %d tables, summary %s", r.Outcome, len(r.Tables), r.Summary)
	}
}

// TestDiffUnread: a table the new run could not read is "could not be
// read", not removed; its relationships are not removed either; none of
// it is drift by default, and --fail-on unread makes it drift.
func TestDiffUnread(t *testing.T) {
	rows := int64(5)
	old := &Report{Tables: []Table{
		{Name: "a", Kind: "table", RowCount: &rows, Columns: []Column{{Name: "id", DataType: "INTEGER"}}},
		{Name: "b", Kind: "table", RowCount: &rows, Columns: []Column{{Name: "id", DataType: "INTEGER"}}},
	}, Relationships: []Relationship{{FromTable: "a", FromColumns: []string{"b_id"}, ToTable: "b", ToColumns: []string{"id"}, Source: "inferred"}}}
	new := &Report{Tables: []Table{
		old.Tables[0],
		{Name: "b", Kind: "table", Columns: []Column{}, Unread: &Unread{What: "table", Reason: "database disk image is malformed (11)"}},
	}}
	d := Diff(old, new, DefaultDiffOptions())
	var msgs []string
	for _, c := range d.Changes {
		msgs = append(msgs, c.Category+" "+c.Kind+" "+c.Message)
	}
	want := "unread unread relationship a(b_id)->b(id) not checked: one of its tables could not be read | " +
		"unread unread table b could not be read (database disk image is malformed (11)): not compared"
	if strings.Join(msgs, " | ") != want || d.Drift {
		t.Errorf("changes (drift %v)\n got %s\nwant %s", d.Drift, strings.Join(msgs, " | "), want)
	}
	opts := DefaultDiffOptions()
	opts.FailOn = append(opts.FailOn, CategoryUnread)
	if !Diff(old, new, opts).Drift {
		t.Error("--fail-on unread: no drift")
	}
	// Read again: said, not compared, no table "added".
	back := Diff(new, old, DefaultDiffOptions())
	if len(back.Changes) != 1 || back.Changes[0].Category != CategoryUnread || !strings.Contains(back.Changes[0].Message, "could be read again") || back.Drift {
		t.Errorf("read again: %+v", back.Changes)
	}
}

func mustJSON(t *testing.T, r *Report) []byte {
	t.Helper()
	var b strings.Builder
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	return []byte(b.String())
}
