package statistical_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/postgres"
)

// withStats wraps a Source and offers planner statistics from a function.
type withStats struct {
	warehouse.Source
	stats func(t warehouse.TableName) ([]warehouse.ColumnStat, error)
}

func (w withStats) ColumnStats(_ context.Context, t warehouse.TableName) ([]warehouse.ColumnStat, error) {
	return w.stats(t)
}

func ptr[T any](v T) *T { return &v }

func TestFirstPass(t *testing.T) {
	var calls atomic.Int64
	stats := func(tn warehouse.TableName) ([]warehouse.ColumnStat, error) {
		calls.Add(1)
		if tn.Name != "orders" {
			return nil, fmt.Errorf("stats of %s asked for", tn)
		}
		return []warehouse.ColumnStat{
			{Column: "id", NullFraction: ptr(0.0), Distinct: ptr(int64(100))},
			{Column: "status", NullFraction: ptr(0.0), Distinct: ptr(int64(4)),
				TopValues: []warehouse.ValueFraction{{Value: "new", Fraction: 0.26}, {Value: "paid", Fraction: 0.25},
					{Value: "shipped", Fraction: 0.25}, {Value: "void", Fraction: 0.24}}},
			{Column: "not_a_column", NullFraction: ptr(1.0)},
		}, nil
	}
	h := setup(t, fixture(t), experts.Options{SampleRows: 50}, func(s warehouse.Source) warehouse.Source {
		return withStats{Source: s, stats: stats}
	})
	ctx := context.Background()
	// The structural expert's counts: orders is above SampleRows, people not.
	for name, n := range map[string]int64{"orders": 100, "people": 40} {
		if err := catalog.Tables.Save(ctx, h.env.For("structural"), name, catalog.TableDoc{Name: name, Kind: "table", RowCount: ptr(n)}, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	x := statistical.New()
	tasks, err := x.Plan(ctx, h.env.For(x.Name()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var first *experts.Task
	for i, task := range tasks {
		names = append(names, task.Name)
		if task.Name == "first pass orders" {
			first = &tasks[i]
		}
	}
	got := strings.Join(names, ", ")
	if first == nil || strings.Contains(got, "profile orders") || !strings.Contains(got, "profile people") ||
		strings.Count(got, "first pass") != 1 {
		t.Fatalf("tasks: %s", got)
	}
	if err := first.Run(ctx); err != nil {
		t.Fatal(err)
	}
	p, e := h.profile(t, "orders.status")
	want := `[{new 26 0.26} {paid 25 0.25} {shipped 25 0.25} {void 24 0.24}]`
	if p.Rows != 100 || !p.Sampled || !p.DistinctIsEstimate || !p.Provisional || *p.DistinctCount != 4 || *p.NullFraction != 0 ||
		fmt.Sprint(p.TopValues) != want {
		t.Errorf("provisional status: %+v", p)
	}
	if e.Confidence != 0.6 || len(e.Evidence) != 1 || e.Evidence[0] != "pg_stats estimate (planner statistics, last ANALYZE)" {
		t.Errorf("provisional entry: conf %v evidence %q", e.Confidence, e.Evidence)
	}
	if p, _ := h.profile(t, "orders.id"); !p.DistinctIsEstimate || *p.DistinctCount != 100 {
		t.Errorf("provisional id: %+v", p)
	}
	for _, k := range []string{"orders.amount", "orders.not_a_column"} {
		if _, err := h.cat.Get(ctx, catalog.KindProfile, k); err == nil {
			t.Errorf("%s: profile without statistics", k)
		}
	}
	if ok, _ := h.env.Has(ctx, catalog.KindTableStats, "orders"); ok {
		t.Error("the first pass marked orders as profiled")
	}

	// The real profile follows and replaces the estimates.
	if errs := h.runAll(t, x); len(errs) > 0 {
		t.Fatal(errs)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d ColumnStats calls", n)
	}
	p, e = h.profile(t, "orders.status")
	if e.Confidence == 0.6 || p.Provisional || p.Rows == 100 && !p.Sampled || len(e.Evidence) == 0 || strings.HasPrefix(e.Evidence[0], "pg_stats") ||
		*p.DistinctCount != 4 {
		t.Errorf("status after the profile: %+v conf %v evidence %q", p, e.Confidence, e.Evidence)
	}
	if ok, _ := h.env.Has(ctx, catalog.KindTableStats, "orders"); !ok {
		t.Error("orders never profiled")
	}
}

// TestFirstPassWithoutStats: a source without planner statistics (SQLite)
// gets no first pass, however big its tables.
func TestFirstPassWithoutStats(t *testing.T) {
	h := setup(t, fixture(t), experts.Options{SampleRows: 10}, nil)
	ctx := context.Background()
	if err := catalog.Tables.Save(ctx, h.env.For("structural"), "orders", catalog.TableDoc{Name: "orders", Kind: "table", RowCount: ptr(int64(100))}, 1, nil); err != nil {
		t.Fatal(err)
	}
	tasks, err := statistical.New().Plan(ctx, h.env.For(statistical.Name))
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if strings.HasPrefix(task.Name, "first pass") {
			t.Errorf("task %s", task.Name)
		}
	}
}

// TestFirstPassPostgres: a PostgreSQL table above SampleRows gets its first
// pass from pg_stats, sized by the source's estimate in the first iteration.
func TestFirstPassPostgres(t *testing.T) {
	dsn := pgscratch.Server(t)
	ctx := context.Background()
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	table := fmt.Sprintf("stat_first_%d", time.Now().UnixNano())
	for _, s := range []string{
		`CREATE TABLE ` + table + ` (id int, kind text)`,
		`INSERT INTO ` + table + ` SELECT i, CASE WHEN i <= 150 THEN 'a' ELSE 'b' END FROM generate_series(1, 200) i`,
		`ANALYZE ` + table,
	} {
		if _, err := admin.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	t.Cleanup(func() { admin.ExecContext(context.Background(), "DROP TABLE "+table) })
	src, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	h := serverHarness(t, src, table, experts.Options{SampleRows: 20})
	env, cat := h.env, h.cat
	tasks, err := statistical.New().Plan(ctx, env.For(statistical.Name))
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].Name != "first pass "+table {
		t.Fatalf("tasks %+v", tasks)
	}
	if err := tasks[0].Run(ctx); err != nil {
		t.Fatal(err)
	}
	e, err := cat.Get(ctx, catalog.KindProfile, table+".kind")
	if err != nil {
		t.Fatal(err)
	}
	var p catalog.ProfileDoc
	e.Decode(&p)
	if e.Confidence != 0.6 || p.Rows != 200 || !p.DistinctIsEstimate || p.DistinctCount == nil || *p.DistinctCount != 2 ||
		fmt.Sprint(p.TopValues) != "[{a 150 0.75} {b 50 0.25}]" {
		t.Errorf("provisional kind: %+v conf %v", p, e.Confidence)
	}
}
