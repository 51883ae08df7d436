package warehouse_test

import (
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// TestPlanScan: each engine's Explainer reads from its own plan's words
// whether a table is read in full or through an index (the query expert's
// index advice drops a candidate whose plan already uses one).
func TestPlanScan(t *testing.T) {
	cases := []struct {
		dialect, plan string
		want          warehouse.PlanScan
	}{
		{"sqlite", "SCAN support_tickets", warehouse.ScanFull},
		{"sqlite", "SEARCH support_tickets USING INDEX ix_sub (subscriber_id=?)", warehouse.ScanIndexed},
		{"sqlite", "SCAN support_tickets USING COVERING INDEX ix_sub", warehouse.ScanIndexed},
		{"postgres", "Seq Scan on support_tickets (cost=0.00..35.50 rows=10 width=4)", warehouse.ScanFull},
		{"postgres", "Index Scan using ix_sub on support_tickets (cost=0.28..8.29 rows=1 width=4)", warehouse.ScanIndexed},
		{"mysql", "select_type=SIMPLE table=support_tickets type=ALL rows=1500", warehouse.ScanFull},
		{"mysql", "select_type=SIMPLE table=support_tickets type=ref key=ix_sub rows=2", warehouse.ScanIndexed},
		{"duckdb", "┌───────────┐ │ SEQ_SCAN │", warehouse.ScanFull},
		{"trino", "Fragment 0 [SOURCE]", warehouse.ScanUnknown},
	}
	for _, c := range cases {
		ex, ok := mustDialect(t, c.dialect).(warehouse.Explainer)
		if !ok {
			t.Errorf("%s: no Explainer", c.dialect)
			continue
		}
		if got := ex.PlanScan(c.plan, "support_tickets"); got != c.want {
			t.Errorf("%s %q: %v, want %v", c.dialect, c.plan, got, c.want)
		}
	}
}

// TestExplain: SQLite shows a plan with EXPLAIN QUERY PLAN (its EXPLAIN
// lists bytecode), the others with EXPLAIN.
func TestExplain(t *testing.T) {
	for _, name := range dialectNames {
		ex, ok := mustDialect(t, name).(warehouse.Explainer)
		if !ok {
			t.Fatalf("%s: no Explainer", name)
		}
		want := "EXPLAIN SELECT 1"
		if name == "sqlite" {
			want = "EXPLAIN QUERY PLAN SELECT 1"
		}
		if got := ex.Explain("SELECT 1"); got != want {
			t.Errorf("%s: Explain = %q, want %q", name, got, want)
		}
	}
}
