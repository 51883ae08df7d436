package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
)

// TestLowerBoundRowCount: a view whose count stopped at 100,001 rows is
// reported as holding more than 100,000 rows, never as about 100,001: the
// JSON says so in row_count_is_lower_bound (and validates against the
// schema), the Markdown and HTML say "more than", and the summary's total
// is a floor. Tables counted to the end carry no such field.
func TestLowerBoundRowCount(t *testing.T) {
	in := realistic(t)
	in.Entries = append(in.Entries,
		entry(t, catalog.KindTable, "feed", catalog.TableDoc{
			Name: "feed", Kind: "table", RowCount: ptr[int64](100001), RowCountIsEstimate: true, RowCountIsLowerBound: true,
			Columns: []catalog.ColumnDoc{{Name: "payload", DataType: "TEXT", Nullable: true, Position: 1}},
		}, 0.5, "structural"))
	r := Build(in)
	js := jsonOf(t, r)
	if err := Validate(js); err != nil {
		t.Fatalf("report.json does not validate: %v", err)
	}
	if got := strings.Count(string(js), `"row_count_is_lower_bound": true`); got != 1 {
		t.Errorf("row_count_is_lower_bound appears %d times, want once (feed only):\n%s", got, js)
	}
	var feed *Table
	for i := range r.Tables {
		if r.Tables[i].Name == "feed" {
			feed = &r.Tables[i]
		}
	}
	if feed == nil || !feed.RowCountIsLowerBound || *feed.RowCount != 100001 {
		t.Fatalf("feed = %+v: want a lower bound of 100,001", feed)
	}
	md := string(mdOf(t, r))
	if !strings.Contains(md, "more than 100,000") || strings.Contains(md, "~100,001") {
		t.Errorf("Markdown does not say the count stopped:\n%s", md)
	}
	html := htmlOf(t, r)
	if !bytes.Contains(html, []byte("more than 100,000")) || bytes.Contains(html, []byte("~100,001")) {
		t.Errorf("HTML does not say the count stopped")
	}
	for _, want := range []string{
		"The tables hold at least 300,451 rows in total (some counts stopped early, some are estimates).",
		"The largest are shipments (200,000 rows), feed (more than 100,000 rows) and vehicles (450 rows).",
	} {
		if !strings.Contains(r.Summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.Summary)
		}
	}
}
