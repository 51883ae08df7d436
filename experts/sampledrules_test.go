package experts_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/internal/scancheck"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// TestRulesTakeTheProfileOfTheSameSample: a table far larger than
// --sample-rows is read through the same rowid sample by the profile and
// by the rules expert. The claims about single columns the profile's
// figures settle (no NULL in a column that allows NULL, no number below 0)
// are judged on those figures, and their aggregate is not sent again (on a
// table larger than the page cache each read of the sample is a lookup
// per row); the figures are those the aggregate returns when run. A claim
// the profile cannot settle (how many values are negative, of a column
// whose least value is) is still tested by its statement.
func TestRulesTakeTheProfileOfTheSameSample(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lines.db")
	expertstest.SQLite(t, path,
		`CREATE TABLE sale_lines (id INTEGER PRIMARY KEY, qty INTEGER, unit_price REAL, refund_amount REAL, note TEXT)`,
		`WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 60000)
			INSERT INTO sale_lines SELECT i, 1 + i % 9, 2.5 + (i * 7) % 400, CASE WHEN i % 97 = 0 THEN -5 ELSE (i * 13) % 50 END,
				CASE WHEN i % 3 = 0 THEN NULL ELSE 'n' || i END FROM r`,
	)
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	rec := &scancheck.Recorder{Source: src}
	cat, run, _ := discoverN(t, scancheck.Streaming{Recorder: rec}, 5_000)

	hs, err := cat.List(ctx, catalog.Filter{Kind: catalog.KindHypothesis, RunID: run.ID})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]catalog.HypothesisDoc{}
	evidence := map[string]string{}
	for _, e := range hs {
		var h catalog.HypothesisDoc
		if e.Decode(&h) != nil || !strings.HasPrefix(h.ID, "rule-") {
			continue
		}
		got[h.Subject+" "+claimKind(h.Statement)] = h
		evidence[h.Subject+" "+claimKind(h.Statement)] = strings.Join(e.Evidence, "; ")
	}
	const note = "/* counted by the profile of the same sample */ "
	for _, key := range []string{"sale_lines.qty never_null", "sale_lines.unit_price never_null", "sale_lines.unit_price non_negative"} {
		h, ok := got[key]
		if !ok {
			t.Errorf("%s: not proposed (rule hypotheses: %v)", key, keys(got))
			continue
		}
		ev := evidence[key]
		if h.Status != "confirmed" || !strings.HasPrefix(h.TestSQL, note) || !strings.Contains(ev, "counted by the profile of sale_lines, which read the same") ||
			!strings.Contains(ev, "on a sample of 5,000 rows of sale_lines") {
			t.Errorf("%s: %s by %.120q, evidence %q: want confirmed on the profile's figures of the sample", key, h.Status, h.TestSQL, ev)
			continue
		}
		// The figures are the statement's, run.
		res, err := src.Query(ctx, strings.TrimPrefix(h.TestSQL, note), warehouse.QueryOptions{})
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		row := hypotheses.FirstRow(res)
		n, _ := row.Int("row_count")
		if want := catalog.Thousands(n) + " rows"; !strings.Contains(ev, want) {
			t.Errorf("%s: evidence %q, but the statement counts %d rows", key, ev, n)
		}
	}
	// The negative refunds are counted by the statement.
	if h, ok := got["sale_lines.refund_amount non_negative"]; !ok {
		t.Errorf("refund_amount non_negative: not proposed")
	} else if h.Status != "refuted" || strings.HasPrefix(h.TestSQL, note) || !strings.Contains(evidence["sale_lines.refund_amount non_negative"], "negative values among") {
		t.Errorf("refund_amount non_negative: %s by %.120q, evidence %q: want refuted by its statement", h.Status, h.TestSQL, evidence["sale_lines.refund_amount non_negative"])
	}
	for _, s := range rec.SQL() {
		if strings.Contains(s, "AS c_qty_non_null") || strings.Contains(s, "AS c_unit_price_non_null") {
			t.Errorf("a claim the profile settled was counted again: %.300s", s)
		}
	}
}

// claimKind names a column claim by its statement's words.
func claimKind(statement string) string {
	switch {
	case strings.Contains(statement, "is never NULL"):
		return "never_null"
	case strings.Contains(statement, "is never negative"):
		return "non_negative"
	case strings.Contains(statement, "unique in practice"):
		return "unique"
	}
	return "other"
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
