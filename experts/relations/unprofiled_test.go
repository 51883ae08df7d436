package relations_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// TestInferFromUnprofiledChild: the profiling of a table was given up (a
// timeout, a read error), so its columns have no profile. Its references
// are still proposed by their names and decided by the exact check: a
// table the profiles could not see does not lose its references too
// (issue 17's warehouse lost 13 that way). shipment.order_id references
// sales_order.id; shipment.carrier_code, named like no key, references
// nothing. shipment.consignment is named like no key either, and holds
// invoice ids 500001..500300: the values propose it, read through a
// profile of shipment's first rows (the profile that failed had none to
// give).
func TestInferFromUnprofiledChild(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unprofiled.db")
	stmts := []string{
		`CREATE TABLE sales_order (id INTEGER PRIMARY KEY, placed TEXT)`,
		`CREATE TABLE shipment (id INTEGER PRIMARY KEY, order_id INTEGER, carrier_code TEXT, consignment INTEGER)`,
		`CREATE TABLE invoice (id INTEGER PRIMARY KEY, total REAL)`,
	}
	for i := 1; i <= 300; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO invoice VALUES (%d, %d.25)`, 500000+i, i))
	}
	for i := 1; i <= 200; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO sales_order VALUES (%d, '2026-01-%02d')`, i, 1+i%28))
	}
	for i := 1; i <= 500; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO shipment VALUES (%d, %d, 'c%d', %d)`, i, 1+(i*7)%200, i%4, 500001+(i*13)%300))
	}
	es := inferUnprofiled(t, path, stmts, "shipment", 4)
	var keys []string
	for _, e := range es {
		keys = append(keys, e.Key)
	}
	sort.Strings(keys)
	if want := "shipment(consignment)->invoice(id) shipment(order_id)->sales_order(id)"; strings.Join(keys, " ") != want {
		t.Fatalf("relationships %q, want %s", keys, want)
	}
	for _, e := range es {
		ev := strings.Join(e.Evidence, "; ")
		if !strings.Contains(ev, "checked: 0 of 500 non-NULL references have no parent") || e.Confidence < relations.AcceptScore {
			t.Errorf("%s: confidence %.2f, evidence %s", e.Key, e.Confidence, ev)
		}
		if e.Key == "shipment(consignment)->invoice(id)" && !strings.Contains(ev, "proposed by its values") {
			t.Errorf("%s: evidence %s, want it proposed by its values", e.Key, ev)
		}
	}
}

// inferUnprofiled builds a SQLite database of stmts, runs the structural
// expert on every table and the statistical one on all but failed (whose
// profiling is then recorded as given up), expects profiles profiles, and
// returns the relationships the relations expert infers.
func inferUnprofiled(t *testing.T, path string, stmts []string, failed string, profiles int) []catalog.Entry {
	t.Helper()
	expertstest.SQLite(t, path, stmts...)
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cat := expertstest.Catalog(t)
	tables := expertstest.Tables(t, src)
	var profiled []warehouse.Table
	for _, tb := range tables {
		if tb.Name.Name != failed {
			profiled = append(profiled, tb)
		}
	}
	var q atomic.Int64
	opts := experts.Options{SampleRows: 1_000_000, IgnoreDeclaredFKs: true}
	for it := 1; it <= 3; it++ {
		expertstest.RunTasks(t, ctx, experts.NewEnv(src, cat, "r", it, 1, tables, opts, &q), structural.New())
		expertstest.RunTasks(t, ctx, experts.NewEnv(src, cat, "r", it, 1, profiled, opts, &q), statistical.New())
	}
	env := experts.NewEnv(src, cat, "r", 4, 1, tables, opts, &q)
	if err := catalog.Uncertainties.Save(ctx, env.For(statistical.Name), statistical.FailedKey(failed),
		catalog.UncertaintyDoc{Description: "profiling " + failed + " failed: timed out"}, 1.0, []string{"timed out"}, failed); err != nil {
		t.Fatal(err)
	}
	if p, err := cat.List(ctx, catalog.Filter{Kind: catalog.KindProfile, RunID: "r"}); err != nil || len(p) != profiles {
		t.Fatalf("%d profiles (%v), want %d", len(p), err, profiles)
	}
	expertstest.RunTasks(t, ctx, env, relations.New())
	es, err := cat.List(ctx, catalog.Filter{Kind: catalog.KindRelationship, RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestFallbackReadsNothingIntoNulls: the first 10,000 rows of an
// unprofiled table, all the sample fallback.go reads, hold no order_id;
// the rows after them do. A sample of NULLs proves nothing of the rest:
// the reference is still proposed by its name and confirmed by the exact
// check, not pruned as an empty column.
func TestFallbackReadsNothingIntoNulls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "late.db")
	stmts := []string{
		`CREATE TABLE sales_order (id INTEGER PRIMARY KEY, placed TEXT)`,
		`CREATE TABLE backorder (id INTEGER PRIMARY KEY, order_id INTEGER)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO sales_order SELECT i, '2026-01-01' FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
		 INSERT INTO backorder SELECT i, CASE WHEN i > 10000 THEN 1 + i % 200 END FROM n`,
	}
	es := inferUnprofiled(t, path, stmts, "backorder", 2)
	var keys []string
	for _, e := range es {
		keys = append(keys, e.Key)
	}
	if strings.Join(keys, " ") != "backorder(order_id)->sales_order(id)" {
		t.Fatalf("relationships %q, want backorder(order_id)->sales_order(id)", keys)
	}
}
