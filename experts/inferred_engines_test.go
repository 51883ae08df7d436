package experts_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/advice"
	"github.com/discover-db/discover/experts/query"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/experts/rules"
	"github.com/discover-db/discover/experts/semantic"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/duckdb"
	"github.com/discover-db/discover/warehouse/mysql"
	"github.com/discover-db/discover/warehouse/postgres"
)

// A reference to a key of two columns, declared nowhere, on each server
// engine: pick_task(aisle, bay) → shelf_slot(aisle, bay), 900 picks over
// 60 of the 240 slots. Inference proposes it from the names, its check of
// the tuples passes the engine's guard (no statement of the experts is
// refused) and confirms it, and the query expert's test of the saved
// reference agrees. The same for pick_task.picker → staff.badge (badges
// from 70001), named like no key: proposed by its values, whose count of
// the key's values below the picker's passes the guard too. And for
// pick_task(lot_no, site_no) → lot_stock(lot_no, site_no), a key no
// constraint declares, whose uniqueness check passes it as well. Then
// pick_task.picker again, with pick_task left unprofiled.
const (
	compositeRef  = "pick_task(aisle,bay)->shelf_slot(aisle,bay)"
	valueRef      = "pick_task(picker)->staff(badge)"
	undeclaredRef = "pick_task(lot_no,site_no)->lot_stock(lot_no,site_no)"
)

func compositeStatements() []string {
	return []string{
		"CREATE TABLE shelf_slot (aisle INTEGER NOT NULL, bay INTEGER NOT NULL, width_cm INTEGER, PRIMARY KEY (aisle, bay))",
		"CREATE TABLE staff (badge INTEGER PRIMARY KEY, name VARCHAR(20))",
		"CREATE TABLE lot_stock (lot_no INTEGER, site_no INTEGER, units INTEGER)",
		"INSERT INTO lot_stock SELECT x.g, y.g, x.g + y.g FROM (SELECT g FROM " + series(1, 30) + ") x, (SELECT g FROM " + series(1, 4) + ") y",
		"CREATE TABLE pick_task (task_id INTEGER PRIMARY KEY, aisle INTEGER, bay INTEGER, qty INTEGER, picker INTEGER, lot_no INTEGER, site_no INTEGER)",
		"INSERT INTO staff SELECT 70000 + g, CONCAT('picker ', g) FROM " + series(1, 40),
		"INSERT INTO shelf_slot SELECT x.g, y.g, 40 + y.g FROM (SELECT g FROM " + series(1, 12) + ") x, (SELECT g FROM " + series(1, 20) + ") y",
		"INSERT INTO pick_task SELECT g, 1 + (g * 7) % 12, 1 + (g * 11) % 20, 1 + g % 5, 70001 + g % 40, 1 + g % 30, 1 + g % 4 FROM " + series(1, 900),
	}
}

func TestCompositeReferencePostgres(t *testing.T) {
	server := pgscratch.Server(t)
	dsn, _, admin := pgscratch.Database(t, server, "composite")
	exec(t, admin, compositeStatements()...)
	exec(t, admin, "ANALYZE")
	src, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	checkComposite(t, src)
	checkUnprofiled(t, src)
}

func TestCompositeReferenceMySQL(t *testing.T) {
	dsn, admin := mysqlScratch(t, mysqlServer(t), "composite")
	exec(t, admin, compositeStatements()...)
	exec(t, admin, "ANALYZE TABLE shelf_slot, pick_task")
	src, err := mysql.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	checkComposite(t, src)
	checkUnprofiled(t, src)
}

func TestCompositeReferenceDuckDB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "composite.duckdb")
	w, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	exec(t, w, compositeStatements()...)
	w.Close()
	src, err := duckdb.Open(context.Background(), "duckdb://"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	checkComposite(t, src)
	checkUnprofiled(t, src)
}

func checkComposite(t *testing.T, src warehouse.Source) {
	t.Helper()
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	run := catalog.Run{ID: "composite-" + src.Dialect().Name(), Dialect: src.Dialect().Name(), Database: src.Database(), StartedAt: time.Now().UTC()}
	if err := cat.StartRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	orc := &orchestrator.Orchestrator{
		Source: src, Catalog: cat,
		Experts: []experts.Expert{structural.New(), relations.New(), statistical.New(), semantic.New(), rules.New(), query.New(), advice.New()},
		Config: orchestrator.Config{MaxIterations: 20, TargetConfidence: 0.95, TargetCoverage: 0.95, Parallel: 2,
			Options: experts.Options{SampleRows: 1_000_000, QueryTimeout: time.Minute}},
	}
	if _, err := orc.Run(ctx, run); err != nil {
		t.Fatalf("discovery: %v", err)
	}
	for _, why := range experts.OwnRefusals(run.ID) {
		t.Errorf("the guard refused the experts' own statement: %s", why)
	}
	for _, ref := range []string{compositeRef, valueRef, undeclaredRef} {
		e, err := cat.Get(ctx, catalog.KindRelationship, ref)
		if err != nil {
			es, _ := cat.List(ctx, catalog.Filter{Kind: catalog.KindRelationship, RunID: run.ID})
			var keys []string
			for _, e := range es {
				keys = append(keys, e.Key)
			}
			t.Errorf("%s not inferred (%v); relationships: %q", ref, err, keys)
			continue
		}
		var r catalog.RelationshipDoc
		if err := e.Decode(&r); err != nil {
			t.Fatal(err)
		}
		if r.Source != "inferred" || r.OrphanFraction == nil || *r.OrphanFraction != 0 {
			t.Errorf("%s: %+v", ref, r)
		}
		h, err := cat.Get(ctx, catalog.KindHypothesis, hypotheses.ID("ref", ref))
		if err != nil {
			t.Errorf("no test of %s: %v", ref, err)
			continue
		}
		var hd catalog.HypothesisDoc
		if err := h.Decode(&hd); err != nil {
			t.Fatal(err)
		}
		if hd.Status != hypotheses.Confirmed {
			t.Errorf("the test of %s: %s, want confirmed; evidence %q", ref, hd.Status, h.Evidence)
		}
		t.Logf("%s: confidence %.2f; %q", ref, e.Confidence, e.Evidence)
	}
}

// checkUnprofiled runs inference after a profiling that left pick_task
// out (as a timeout would): pick_task.picker, named like no key, must
// still be proposed by its values, through the profile of pick_task's
// first rows that inference reads instead (relations/fallback.go), with
// no statement of it refused by the engine's guard.
func checkUnprofiled(t *testing.T, src warehouse.Source) {
	t.Helper()
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	runID := "unprofiled-" + src.Dialect().Name()
	tables := expertstest.Tables(t, src)
	var profiled []warehouse.Table
	for _, tb := range tables {
		if tb.Name.Name != "pick_task" {
			profiled = append(profiled, tb)
		}
	}
	var q atomic.Int64
	opts := experts.Options{SampleRows: 1_000_000, QueryTimeout: time.Minute, IgnoreDeclaredFKs: true}
	for it := 1; it <= 3; it++ {
		expertstest.RunTasks(t, ctx, experts.NewEnv(src, cat, runID, it, 1, tables, opts, &q), structural.New())
		expertstest.RunTasks(t, ctx, experts.NewEnv(src, cat, runID, it, 1, profiled, opts, &q), statistical.New())
	}
	env := experts.NewEnv(src, cat, runID, 4, 1, tables, opts, &q)
	if err := catalog.Uncertainties.Save(ctx, env.For(statistical.Name), statistical.FailedKey("pick_task"),
		catalog.UncertaintyDoc{Description: "profiling pick_task failed: timed out"}, 1.0, []string{"timed out"}, "pick_task"); err != nil {
		t.Fatal(err)
	}
	expertstest.RunTasks(t, ctx, env, relations.New())
	for _, why := range experts.OwnRefusals(runID) {
		t.Errorf("the guard refused the experts' own statement: %s", why)
	}
	e, err := cat.Get(ctx, catalog.KindRelationship, valueRef)
	if err != nil {
		es, _ := cat.List(ctx, catalog.Filter{Kind: catalog.KindRelationship, RunID: runID})
		var keys []string
		for _, e := range es {
			keys = append(keys, e.Key)
		}
		t.Fatalf("%s not inferred without pick_task's profile (%v); relationships: %q", valueRef, err, keys)
	}
	ev := strings.Join(e.Evidence, "; ")
	if !strings.Contains(ev, "proposed by its values") || !strings.Contains(ev, "0 of 900 non-NULL references have no parent") {
		t.Errorf("%s: evidence %s", valueRef, ev)
	}
}
