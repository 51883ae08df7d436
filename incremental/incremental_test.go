package incremental

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

func basis(tables map[string]string) *catalog.RunBasis {
	return &catalog.RunBasis{Build: "b1", Settings: "s1", Tables: tables}
}

// shared is the basis of a database file whose signal is file, with
// content signals (nil: none taken).
func shared(file string, content map[string]string) *catalog.RunBasis {
	b := basis(map[string]string{"customers": file, "orders": file})
	b.Shared, b.Content = true, content
	return b
}

// TestCompare: a run is reused only when the build, the settings and every
// table's signal are the same, and every table has one; each difference
// is named. Where both runs have content signals, they decide instead.
func TestCompare(t *testing.T) {
	prev := basis(map[string]string{"orders": "o1", "customers": "c1"})
	for _, tc := range []struct {
		name string
		prev *catalog.RunBasis
		cur  *catalog.RunBasis
		want string
	}{
		{"same", prev, basis(map[string]string{"customers": "c1", "orders": "o1"}), ""},
		{"no basis", nil, basis(map[string]string{"orders": "o1"}), "recorded no change signals"},
		{"build", prev, &catalog.RunBasis{Build: "b2", Settings: "s1", Tables: prev.Tables}, "another build"},
		{"settings", prev, &catalog.RunBasis{Build: "b1", Settings: "s2", Tables: prev.Tables}, "settings differ"},
		{"changed", prev, basis(map[string]string{"customers": "c1", "orders": "o2"}), "orders may have changed"},
		{"new", prev, basis(map[string]string{"customers": "c1", "orders": "o1", "items": "i1"}), "items is new"},
		{"gone", prev, basis(map[string]string{"customers": "c1"}), "orders is gone"},
		{"unsigned", prev, basis(map[string]string{"customers": "c1", "orders": ""}), "no change signal for orders"},
		{"unsigned before", basis(map[string]string{"customers": "c1", "orders": ""}), basis(map[string]string{"customers": "c1", "orders": ""}), "no change signal for orders"},
		// A database file: one signal for every table, and content signals
		// where a re-run took them.
		{"file", shared("f1", nil), shared("f2", nil), "the database file may have changed"},
		{"file, content once", shared("f1", nil), shared("f2", map[string]string{"customers": "c1", "orders": "o1"}), "the database file may have changed"},
		{"file touched", shared("f1", map[string]string{"customers": "c1", "orders": "o1"}), shared("f2", map[string]string{"customers": "c1", "orders": "o1"}), ""},
		{"one table written", shared("f1", map[string]string{"customers": "c1", "orders": "o1"}), shared("f2", map[string]string{"customers": "c1", "orders": "o2"}), "orders may have changed"},
		{"two tables written", shared("f1", map[string]string{"customers": "c1", "orders": "o1"}), shared("f2", map[string]string{"customers": "c2", "orders": "o2"}), "2 tables may have changed since the last run: customers, orders"},
		{"unsigned content", shared("f1", map[string]string{"customers": "c1", "orders": "o1"}), shared("f2", map[string]string{"customers": "c1", "orders": ""}), "no change signal for orders"},
		{"objects", &catalog.RunBasis{Build: "b1", Settings: "s1", Tables: prev.Tables, Objects: "x1"},
			&catalog.RunBasis{Build: "b1", Settings: "s1", Tables: prev.Tables, Objects: "x2"}, "enumerated types or routines changed"},
		{"same objects", &catalog.RunBasis{Build: "b1", Settings: "s1", Tables: prev.Tables, Objects: "x1"},
			&catalog.RunBasis{Build: "b1", Settings: "s1", Tables: prev.Tables, Objects: "x1"}, ""},
	} {
		got := Compare(tc.prev, tc.cur)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: Compare = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTakeSeesWritesAndStructure: on SQLite, the basis changes with a
// write to any table (the file changed) and with an ALTER, and is the
// same when nothing was done, for the tables given only.
func TestTakeSeesWritesAndStructure(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)`)
	exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER)`)
	exec(`INSERT INTO customers VALUES (1, 'a'), (2, 'b')`)
	take := func() *catalog.RunBasis {
		t.Helper()
		src, err := sqlite.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		tables, err := src.Tables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Take(ctx, src, tables, "b", "s")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := take()
	if len(first.Tables) != 2 || first.Tables["orders"] == "" || first.Tables["customers"] == "" || !first.Shared {
		t.Fatalf("basis %+v: want a signal for both tables, shared (the file's)", first)
	}
	if why := Compare(first, take()); why != "" {
		t.Fatalf("nothing was done, yet: %s", why)
	}
	// File times have a resolution; make sure a write lands on another tick.
	time.Sleep(20 * time.Millisecond)
	exec(`UPDATE customers SET name = 'c' WHERE id = 2`)
	second := take()
	if why := Compare(first, second); !strings.Contains(why, "may have changed") {
		t.Fatalf("after an UPDATE: Compare = %q", why)
	}
	time.Sleep(20 * time.Millisecond)
	exec(`ALTER TABLE orders ADD COLUMN note TEXT`)
	if why := Compare(second, take()); !strings.Contains(why, "may have changed") {
		t.Fatalf("after an ALTER: Compare = %q", why)
	}
}

// unsigned is a source without change signals (as Trino's is).
type unsigned struct{ warehouse.Source }

// TestTakeWithoutSignals: a source that gives none leaves every table
// unsigned, and such a basis is never reused.
func TestTakeWithoutSignals(t *testing.T) {
	tables := []warehouse.Table{{Name: warehouse.TableName{Name: "orders"}}}
	b, err := Take(context.Background(), unsigned{}, tables, "b", "s")
	if err != nil {
		t.Fatal(err)
	}
	if b.Tables["orders"] != "" {
		t.Fatalf("signal %q from a source that gives none", b.Tables["orders"])
	}
	if why := Compare(b, b); !strings.Contains(why, "no change signal for orders") {
		t.Fatalf("Compare = %q", why)
	}
}

// listing is a source that lists enum types and routines, and no signals.
type listing struct {
	warehouse.Source
	objects warehouse.Objects
}

func (l listing) Objects(context.Context) (warehouse.Objects, error) { return l.objects, nil }

// TestTakeSeesObjects: a routine created since, or an enum's label added,
// changes the basis; the same listing does not.
func TestTakeSeesObjects(t *testing.T) {
	ctx := context.Background()
	objects := warehouse.Objects{Enums: []warehouse.Enum{{Name: warehouse.TableName{Name: "status"}, Labels: []string{"new"}}}}
	take := func(o warehouse.Objects) *catalog.RunBasis {
		t.Helper()
		b, err := Take(ctx, listing{objects: o}, nil, "b", "s")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := take(objects)
	if first.Objects == "" {
		t.Fatal("no hash of the objects")
	}
	if b := take(objects); b.Objects != first.Objects {
		t.Error("the same objects hash apart")
	}
	more := objects
	more.Routines = []warehouse.Routine{{Name: warehouse.TableName{Name: "f"}, Kind: "function"}}
	if b := take(more); b.Objects == first.Objects {
		t.Error("a routine created: same hash")
	}
	label := warehouse.Objects{Enums: []warehouse.Enum{{Name: warehouse.TableName{Name: "status"}, Labels: []string{"new", "paid"}}}}
	if b := take(label); b.Objects == first.Objects {
		t.Error("a label added: same hash")
	}
	if b := take(warehouse.Objects{}); b.Objects == first.Objects {
		t.Error("every object dropped: same hash")
	}
}

// TestReuseAdoptsAndFinishes: Reuse moves the earlier run's entries to the
// new run, finishes it with the earlier stop reason and figures, its own
// (zero) query count, and the reuse recorded; Previous finds the earlier
// run only while its outcome is complete and its entries are its own.
func TestReuseAdoptsAndFinishes(t *testing.T) {
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	b := basis(map[string]string{"orders": "o1"})
	state, _ := json.Marshal(catalog.LoopState{Iteration: 3, Confidence: 0.9, Coverage: 1, Queries: 120})
	raw, _ := json.Marshal(b)
	done := time.Now().UTC()
	first := catalog.Run{ID: "r1", DSN: "shop.db", StartedAt: done.Add(-time.Minute), State: state, Basis: raw}
	if err := cat.StartRun(ctx, first); err != nil {
		t.Fatal(err)
	}
	save := func(kind, key, run string, doc any) {
		t.Helper()
		d, _ := json.Marshal(doc)
		if err := cat.Save(ctx, catalog.Entry{Kind: kind, Key: key, Document: d, Confidence: 1, RunID: run}); err != nil {
			t.Fatal(err)
		}
	}
	save(catalog.KindTable, "orders", "r1", catalog.TableDoc{Name: "orders"})
	save(catalog.KindOutcome, catalog.KindOutcome, "r1", catalog.OutcomeDoc{Status: catalog.OutcomeIncomplete})
	first.FinishedAt, first.StopReason = &done, "coverage"
	if err := cat.UpdateRun(ctx, first); err != nil {
		t.Fatal(err)
	}
	if _, why, err := Previous(ctx, cat, "shop.db", b); err != nil || !strings.Contains(why, "incomplete") {
		t.Fatalf("an incomplete run: Previous = %q, %v", why, err)
	}
	save(catalog.KindOutcome, catalog.KindOutcome, "r1", catalog.OutcomeDoc{Status: catalog.OutcomeComplete})
	if _, why, err := Previous(ctx, cat, "other.db", b); err != nil || !strings.Contains(why, "was of shop.db") {
		t.Fatalf("another database: Previous = %q, %v", why, err)
	}
	prev, why, err := Previous(ctx, cat, "shop.db", b)
	if err != nil || why != "" || prev.ID != "r1" {
		t.Fatalf("Previous = %q, %q, %v", prev.ID, why, err)
	}

	second := catalog.Run{ID: "r2", DSN: "shop.db", StartedAt: done, Basis: raw}
	if err := cat.StartRun(ctx, second); err != nil {
		t.Fatal(err)
	}
	got, err := Reuse(ctx, cat, prev, second, b, done.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if got.FinishedAt == nil || got.StopReason != "coverage" {
		t.Fatalf("reused run: finished %v, stop %q", got.FinishedAt, got.StopReason)
	}
	var st catalog.LoopState
	if err := json.Unmarshal(got.State, &st); err != nil {
		t.Fatal(err)
	}
	if st.Iteration != 3 || st.Confidence != 0.9 || st.Queries != 0 || st.Reused == nil ||
		st.Reused.FromRun != "r1" || st.Reused.Entries != 2 || st.Reused.Tables != 1 {
		t.Fatalf("reused state %+v (reused %+v)", st, st.Reused)
	}
	if again, err := cat.GetRun(ctx, "r2"); err != nil || string(again.Basis) != string(raw) {
		t.Fatalf("the reused run's basis: %s, %v", again.Basis, err)
	}
	entries, err := cat.List(ctx, catalog.Filter{RunID: "r2"})
	if err != nil || len(entries) != 2 {
		t.Fatalf("run r2 has %d entries (%v), want the 2 of r1", len(entries), err)
	}
	if old, err := cat.List(ctx, catalog.Filter{RunID: "r1"}); err != nil || len(old) != 0 {
		t.Fatalf("run r1 still has %d entries (%v)", len(old), err)
	}
	// The full-text index, which the adoption did not rewrite, still finds
	// the entry, now the new run's.
	found, err := cat.Search(ctx, "orders", 10)
	if err != nil || len(found) != 1 || found[0].RunID != "r2" || found[0].Kind != catalog.KindTable {
		t.Fatalf("search orders: %+v, %v", found, err)
	}
}

// TestUnchangedProfilesAdopted: a run in full after one table changed
// finds the last run's tables whose content signals are the same
// (Unchanged), of those the ones whose profile finished without a doubt
// (statistical.Reusable), and takes their profiles, table figures and
// insights (AdoptTables), by the table each entry's last tag names; the
// changed table's, and other experts' findings, stay the last run's until
// made anew. No tables are unchanged on other settings, or where the
// tables share one signal and a run has no content signals.
func TestUnchangedProfilesAdopted(t *testing.T) {
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	prevBasis := shared("f1", map[string]string{"customers": "c1", "orders": "o1", "items": "i1", "correlation": "x1"})
	raw, _ := json.Marshal(prevBasis)
	done := time.Now().UTC()
	r1 := catalog.Run{ID: "r1", DSN: "shop.db", StartedAt: done.Add(-time.Minute), FinishedAt: &done, Basis: raw}
	if err := cat.StartRun(ctx, r1); err != nil {
		t.Fatal(err)
	}
	if err := cat.UpdateRun(ctx, r1); err != nil {
		t.Fatal(err)
	}
	save := func(expert, kind, key string, tags ...string) {
		t.Helper()
		if err := cat.Save(ctx, catalog.Entry{Kind: kind, Key: key, Document: []byte(`{}`), Confidence: 1, RunID: "r1", Expert: expert, Tags: tags}); err != nil {
			t.Fatal(err)
		}
	}
	for _, table := range []string{"customers", "orders", "items", "correlation"} {
		save(statistical.Name, catalog.KindProfile, table+".id", table)
		save(statistical.Name, catalog.KindTableStats, table, table)
	}
	save(statistical.Name, catalog.KindInsight, "correlation:orders.a~b", "correlation", "orders")
	save(statistical.Name, catalog.KindUncertainty, statistical.RetriedKey("items"), "items")
	save("relations", catalog.KindRelationship, "orders(customer_id)->customers(id)", "inferred", "customers")

	cur := shared("f2", map[string]string{"customers": "c1", "orders": "o2", "items": "i1", "correlation": "x1"})
	for _, tc := range []struct {
		name string
		cur  *catalog.RunBasis
	}{
		{"other settings", &catalog.RunBasis{Build: "b1", Settings: "s2", Tables: cur.Tables, Shared: true, Content: cur.Content}},
		{"no content signals", shared("f2", nil)},
	} {
		if last, same, err := Unchanged(ctx, cat, "shop.db", tc.cur); err != nil || last.ID != "" || len(same) != 0 {
			t.Errorf("%s: Unchanged = %q, %v, %v", tc.name, last.ID, same, err)
		}
	}
	last, same, err := Unchanged(ctx, cat, "shop.db", cur)
	if err != nil || last.ID != "r1" || strings.Join(same, " ") != "correlation customers items" {
		t.Fatalf("Unchanged = %q, %v, %v", last.ID, same, err)
	}
	reusable, err := statistical.Reusable(ctx, cat, "r1", same)
	if err != nil || strings.Join(reusable, " ") != "correlation customers" {
		t.Fatalf("Reusable = %v, %v (items was retried on a sample)", reusable, err)
	}
	r2 := catalog.Run{ID: "r2", DSN: "shop.db", StartedAt: done}
	if err := cat.StartRun(ctx, r2); err != nil {
		t.Fatal(err)
	}
	n, err := cat.AdoptTables(ctx, "r1", "r2", statistical.Name, reusable)
	if err != nil || n != 4 {
		t.Fatalf("AdoptTables moved %d entries (%v), want the profiles and table figures of 2 tables", n, err)
	}
	for _, tc := range []struct{ kind, key, run string }{
		{catalog.KindProfile, "customers.id", "r2"},
		{catalog.KindTableStats, "correlation", "r2"},
		{catalog.KindProfile, "orders.id", "r1"},
		{catalog.KindInsight, "correlation:orders.a~b", "r1"},
		{catalog.KindProfile, "items.id", "r1"},
		{catalog.KindRelationship, "orders(customer_id)->customers(id)", "r1"},
	} {
		en, err := cat.Get(ctx, tc.kind, tc.key)
		if err != nil || en.RunID != tc.run {
			t.Errorf("%s %s: run %q (%v), want %s", tc.kind, tc.key, en.RunID, err, tc.run)
		}
	}
}
