package registry_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/registry"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// The worked example of docs/ARCHITECTURE.md ("Adding an expert"): a fifth
// expert, in its own package there, here in this test. It declares its
// kind, says which units of work are its, plans one task per table it has
// not done yet and writes through its bound environment.

// Naming is the naming convention of a table's columns.
type Naming struct {
	Table      string `json:"table"`
	Convention string `json:"convention"` // snake_case, camelCase, PascalCase, mixed
}

// KindNaming is the example expert's own kind, declared with its type.
var KindNaming = catalog.Define[Naming]("naming")

type namingExpert struct{}

func (namingExpert) Name() string { return "naming" }

// Coverage: one unit per table, so a run is not complete before each
// table's convention is known.
func (namingExpert) Coverage(tables []warehouse.Table) []experts.Unit {
	var out []experts.Unit
	for _, t := range tables {
		n := t.Name.String()
		out = append(out, experts.Unit{Kind: KindNaming.Name(), Key: n, Phase: experts.PhaseMeaning,
			What: "naming convention of " + n, Table: n})
	}
	return out
}

func (namingExpert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	var tasks []experts.Task
	for _, t := range env.Tables {
		n := t.Name.String()
		if done, err := env.Has(ctx, KindNaming.Name(), n); err != nil || done {
			if err != nil {
				return nil, err
			}
			continue
		}
		tasks = append(tasks, experts.Task{Expert: "naming", Name: "naming " + n, Table: n, Run: func(ctx context.Context) error {
			doc := Naming{Table: n, Convention: convention(t.Columns)}
			return KindNaming.Save(ctx, env, n, doc, 1.0, []string{"column names of " + n})
		}})
	}
	return tasks, nil
}

func convention(cols []warehouse.Column) string {
	seen := map[string]bool{}
	for _, c := range cols {
		switch {
		case strings.Contains(c.Name, "_") || strings.ToLower(c.Name) == c.Name:
			seen["snake_case"] = true
		case unicode.IsUpper(rune(c.Name[0])):
			seen["PascalCase"] = true
		default:
			seen["camelCase"] = true
		}
	}
	if len(seen) != 1 {
		return "mixed"
	}
	for k := range seen {
		return k
	}
	return "mixed"
}

func TestAFifthExpert(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "shop.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, full_name TEXT)`,
		`CREATE TABLE Orders (OrderId INTEGER PRIMARY KEY, CustomerId INTEGER REFERENCES customers(customer_id))`,
		`INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace')`,
		`INSERT INTO Orders VALUES (10, 1), (11, 2), (12, 1)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	src, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat, err := catalog.Open(ctx, filepath.Join(dir, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	run := catalog.Run{ID: "fifth", DSN: dbPath, Dialect: "sqlite", Database: "shop", StartedAt: time.Now().UTC()}
	if err := cat.StartRun(ctx, run); err != nil {
		t.Fatal(err)
	}

	// Registering is one line: the registry's list, or here an append to it.
	xs := append(registry.New(), namingExpert{})
	o := &orchestrator.Orchestrator{Source: src, Catalog: cat, Experts: xs,
		Config: orchestrator.Config{MaxIterations: 10, TargetConfidence: 0.95, TargetCoverage: 0.95, Parallel: 1}}
	run, err = o.Run(ctx, run)
	if err != nil {
		t.Fatal(err)
	}

	// It wrote its kind, under its name, for every table.
	got, err := cat.List(ctx, catalog.Filter{Kind: "naming", RunID: run.ID})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"customers": "snake_case", "Orders": "PascalCase"}
	if len(got) != len(want) {
		t.Fatalf("naming entries: %+v", got)
	}
	for _, e := range got {
		doc, err := KindNaming.Decode(e)
		if err != nil || e.Expert != "naming" || doc.Convention != want[e.Key] {
			t.Fatalf("entry %s by %s: %+v %v", e.Key, e.Expert, doc, err)
		}
	}
	if !slices.Contains(catalog.Kinds(), "naming") {
		t.Fatalf("declared kinds %v lack naming", catalog.Kinds())
	}

	// Its units count toward coverage: two more than the registered experts'.
	tables, err := src.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	with, err := orchestrator.Measure(ctx, cat, run.ID, tables, xs)
	if err != nil {
		t.Fatal(err)
	}
	without, err := orchestrator.Measure(ctx, cat, run.ID, tables, registry.New())
	if err != nil {
		t.Fatal(err)
	}
	if with.Units != without.Units+2 || with.Covered != without.Covered+2 {
		t.Fatalf("with the fifth expert %d/%d units, without %d/%d", with.Covered, with.Units, without.Covered, without.Units)
	}
	// Before it ran, its units were pending.
	fresh := catalog.Run{ID: "fresh", DSN: dbPath, Dialect: "sqlite", Database: "shop", StartedAt: time.Now().UTC()}
	if err := cat.StartRun(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	m, err := orchestrator.Measure(ctx, cat, fresh.ID, tables, xs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.Pending, "naming convention of Orders") {
		t.Fatalf("pending before the run: %v", m.Pending)
	}

	// A document of the wrong type for its kind fails at once.
	if _, err := catalog.NewEntry("naming", "customers", catalog.InsightDoc{}); err == nil {
		t.Fatal("an InsightDoc saved as a naming document")
	}
}
