package experts

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

// TestTableMilestones: a table reaches a milestone when its work is in the
// catalog or was given up — by the orchestrator, for a task that declared
// the milestone, or by the expert under the milestone's own key — and
// nothing else (a provisional profile, another milestone's give-up, an
// earlier run's entries) counts.
func TestTableMilestones(t *testing.T) {
	ctx := context.Background()
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	col := func(n string) warehouse.Column { return warehouse.Column{Name: n} }
	tables := []warehouse.Table{
		{Name: warehouse.TableName{Name: "a"}, Kind: "table", Columns: []warehouse.Column{col("x"), col("y")}},
		{Name: warehouse.TableName{Schema: "s", Name: "b"}, Kind: "table", Columns: []warehouse.Column{col("x")}},
		{Name: warehouse.TableName{Name: "c"}, Kind: "view", Columns: []warehouse.Column{col("x")}},
		{Name: warehouse.TableName{Name: "empty"}, Kind: "table"},
	}
	var q atomic.Int64
	env := NewEnv(nil, cat, "run1", 1, 1, tables, Options{}, &q).For("x")
	old := NewEnv(nil, cat, "run0", 1, 1, tables, Options{}, &q).For("x")
	reached := func(env *Env, m TableMilestone) map[string]bool {
		t.Helper()
		r, err := env.TablesReached(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := reached(env, Profiled); len(r) != 1 || !r["empty"] {
		t.Fatalf("before any profile: %v, want only the table without columns", r)
	}
	prof := func(env *Env, table, column string, provisional bool) {
		t.Helper()
		if err := catalog.Profiles.Save(ctx, env, table+"."+column, catalog.ProfileDoc{Table: table, Column: column, Provisional: provisional}, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	prof(env, "a", "x", false)
	prof(env, "a", "y", true) // planner estimates: not yet profiled
	prof(old, "s.b", "x", false)
	prof(env, "c", "x", false)
	if r := reached(env, Profiled); len(r) != 2 || !r["c"] || !r["empty"] {
		t.Fatalf("profiles of a (one provisional), c, and s.b in an earlier run: %v, want c and empty", r)
	}
	prof(env, "a", "y", false)
	// The statistical expert gives s.b up itself.
	if err := catalog.Uncertainties.Save(ctx, env, Profiled.GaveUpKey("s.b"), catalog.UncertaintyDoc{Description: "gave up"}, 1, nil); err != nil {
		t.Fatal(err)
	}
	if all, err := env.AllReached(ctx, Profiled); err != nil || !all {
		t.Fatalf("every table profiled or given up: %v %v", all, err)
	}
	if up, _ := env.GaveUp(ctx, Profiled, "s.b"); !up {
		t.Fatal("the expert's own give-up of s.b not seen")
	}
	if up, _ := env.GaveUp(ctx, Profiled, "a"); up {
		t.Fatal("a, profiled, counted as given up")
	}

	if err := catalog.Tables.Save(ctx, env, "a", catalog.TableDoc{Name: "a", Kind: "table"}, 1, nil); err != nil {
		t.Fatal(err)
	}
	if all, _ := env.AllReached(ctx, Inventoried); all {
		t.Fatal("one table inventoried counted as all")
	}
	// The orchestrator gave up the inventory of s.b, c and empty, and a
	// profile task of a, whose milestone is another.
	given := map[string]catalog.GivenUp{
		"structural/inventory s.b": {Expert: "structural", Task: "inventory s.b", Table: "s.b", Milestone: Inventoried.Key()},
		"structural/inventory c":   {Expert: "structural", Task: "inventory c", Table: "c", Milestone: Inventoried.Key()},
		"statistical/profile a":    {Expert: "statistical", Task: "profile a", Table: "a", Milestone: Profiled.Key()},
	}
	genv := env.WithGivenUp(given)
	if r := reached(genv, Inventoried); len(r) != 3 || !r["a"] || !r["s.b"] || !r["c"] {
		t.Fatalf("inventoried with give-ups: %v", r)
	}
	if up, _ := genv.GaveUp(ctx, Inventoried, "a"); up {
		t.Fatal("a profile give-up counted as an inventory give-up")
	}
	given["structural/inventory empty"] = catalog.GivenUp{Expert: "structural", Task: "inventory empty", Table: "empty", Milestone: Inventoried.Key()}
	if all, _ := env.WithGivenUp(given).AllReached(ctx, Inventoried); !all {
		t.Fatal("every table inventoried or given up, not all reached")
	}
	if Inventoried.GaveUpKey("a") != "" {
		t.Fatal("only the orchestrator gives an inventory up")
	}
}
