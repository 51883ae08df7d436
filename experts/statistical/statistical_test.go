package statistical_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"

	_ "modernc.org/sqlite"
)

// build creates a SQLite database at path from statements.
func build(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// fixture is a small shop: people with known figures, orders for sampling,
// an empty table, a view and a table too wide for one query.
func fixture(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "shop.db")
	stmts := []string{
		`CREATE TABLE people (id INTEGER PRIMARY KEY, balance REAL, tier TEXT, note TEXT, source TEXT,
			photo BLOB, misc, born DATE, "odd ""name""" TEXT)`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, person_id INTEGER, amount NUMERIC, status TEXT)`,
		`CREATE TABLE empty_things (id INTEGER PRIMARY KEY, label TEXT)`,
		`CREATE VIEW rich AS SELECT id, balance FROM people WHERE balance > 300`,
	}
	tiers := []string{"gold", "silver", "bronze"}
	for i := 1; i <= 40; i++ {
		note := "NULL"
		if i%4 == 0 {
			note = fmt.Sprintf("'note %d'", i)
		}
		misc := fmt.Sprintf("%d", i)
		if i%10 == 0 {
			misc = "'text'" // SQLite lets an untyped column mix numbers and text
		}
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO people VALUES (%d, %d.0, '%s', %s, 'web', x'0102', %s, '1990-01-%02d', 'v%d')`,
			i, i*10, tiers[i%3], note, misc, i%28+1, i%2))
	}
	statuses := []string{"new", "paid", "shipped", "void"}
	for i := 1; i <= 100; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO orders VALUES (%d, %d, %d.5, '%s')`, i, i%40+1, i, statuses[i%4]))
	}
	var cols []string
	for i := 0; i < 60; i++ {
		cols = append(cols, fmt.Sprintf("c%d INTEGER", i))
	}
	stmts = append(stmts, "CREATE TABLE wide ("+strings.Join(cols, ", ")+")")
	for r := 0; r < 3; r++ {
		var vals []string
		for i := 0; i < 60; i++ {
			vals = append(vals, fmt.Sprint(i*r))
		}
		stmts = append(stmts, "INSERT INTO wide VALUES ("+strings.Join(vals, ", ")+")")
	}
	build(t, path, stmts...)
	return path
}

// failing wraps a Source and fails the queries a predicate picks.
type failing struct {
	warehouse.Source
	fail func(sql string) bool
}

func (f failing) Query(ctx context.Context, q string, o warehouse.QueryOptions) (*warehouse.Result, error) {
	if f.fail != nil && f.fail(q) {
		return nil, errors.New("injected failure")
	}
	return f.Source.Query(ctx, q, o)
}

type harness struct {
	env     *experts.Env
	cat     *catalog.Catalog
	queries *atomic.Int64
}

func setup(t testing.TB, dbPath string, opts experts.Options, wrap func(warehouse.Source) warehouse.Source) *harness {
	t.Helper()
	ctx := context.Background()
	src, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	tables, err := src.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var s warehouse.Source = src
	if wrap != nil {
		s = wrap(src)
	}
	q := new(atomic.Int64)
	return &harness{env: experts.NewEnv(s, cat, "run1", 1, 1, tables, opts, q), cat: cat, queries: q}
}

// runAll plans and runs every task until the expert is satisfied.
func (h *harness) runAll(t testing.TB, x experts.Expert) []error {
	t.Helper()
	var errs []error
	// The orchestrator's count of failed attempts per task, as it hands
	// it to the experts each round.
	failures := map[string]int{}
	for round := 0; round < 5; round++ {
		tasks, err := x.Plan(context.Background(), h.env.For(x.Name()).WithFailures(maps.Clone(failures)))
		if err != nil {
			t.Fatal(err)
		}
		if len(tasks) == 0 {
			return errs
		}
		// Tasks run concurrently, as the orchestrator runs them.
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, task := range tasks {
			if task.Expert != statistical.Name || task.Name == "" {
				t.Errorf("task %+v", task)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := task.Run(context.Background()); err != nil {
					mu.Lock()
					errs = append(errs, err)
					failures[task.Expert+"/"+task.Name]++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
	}
	t.Fatal("expert never satisfied")
	return nil
}

func (h *harness) profile(t testing.TB, key string) (catalog.ProfileDoc, catalog.Entry) {
	t.Helper()
	e, err := h.cat.Get(context.Background(), catalog.KindProfile, key)
	if err != nil {
		t.Fatalf("profile %s: %v", key, err)
	}
	var p catalog.ProfileDoc
	if err := e.Decode(&p); err != nil {
		t.Fatal(err)
	}
	return p, e
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// noStream hides the SQLite source's Stream method, so that the expert
// takes the SQL path every other engine takes.
type noStream struct{ warehouse.Source }

// paths runs a test on both of the expert's paths over SQLite: the
// streaming pass and the SQL aggregates. Their figures must agree; what
// differs (queries, evidence) the test asks through streamed.
func paths(t *testing.T, test func(t *testing.T, wrap func(warehouse.Source) warehouse.Source, streamed bool)) {
	t.Run("stream", func(t *testing.T) { test(t, nil, true) })
	t.Run("sql", func(t *testing.T) {
		test(t, func(s warehouse.Source) warehouse.Source { return noStream{s} }, false)
	})
}

// pick returns a when streamed, else b.
func pick[T any](streamed bool, a, b T) T {
	if streamed {
		return a
	}
	return b
}

func TestProfiles(t *testing.T) { paths(t, testProfiles) }

func testProfiles(t *testing.T, wrap func(warehouse.Source) warehouse.Source, streamed bool) {
	h := setup(t, fixture(t), experts.Options{SampleRows: 1_000_000}, wrap)
	x := statistical.New()
	ctx := context.Background()
	tasks, err := x.Plan(ctx, h.env.For(x.Name()))
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 5 { // empty_things, orders, people, rich, wide
		t.Fatalf("%d tasks", len(tasks))
	}
	if errs := h.runAll(t, x); len(errs) > 0 {
		t.Fatal(errs)
	}
	if tasks, _ := x.Plan(ctx, h.env.For(x.Name())); len(tasks) != 0 {
		t.Fatalf("second plan: %d tasks", len(tasks))
	}

	p, e := h.profile(t, "people.balance")
	if p.Rows != 40 || p.Sampled || *p.NullFraction != 0 || *p.DistinctCount != 40 || *p.Min != "10" && *p.Min != "10.0" {
		t.Errorf("balance: %+v min=%s", p, *p.Min)
	}
	// 10, 20, …, 400: mean 205, population stddev 10·√((40²−1)/12).
	if !near(*p.Mean, 205) || !near(*p.Stddev, 10*math.Sqrt((1600-1)/12.0)) {
		t.Errorf("balance mean %v stddev %v", *p.Mean, *p.Stddev)
	}
	if e.Confidence != 1 || e.Expert != statistical.Name || len(e.Evidence) == 0 ||
		!strings.HasPrefix(e.Evidence[0], pick(streamed, "one pass on the 40 rows of people: 40 non-null, 40 distinct (counted exactly), mean 205",
			`COUNT(*)=40, COUNT("balance")=40, COUNT(DISTINCT "balance")=40`)) {
		t.Errorf("balance entry: conf %v evidence %q", e.Confidence, e.Evidence)
	}
	if len(p.TopValues) != 0 {
		t.Errorf("unique column got top values: %v", p.TopValues)
	}

	p, _ = h.profile(t, "people.tier")
	// i%3 over 1..40: silver 14, bronze 13, gold 13; ties by value.
	want := []catalog.ValueCount{{Value: "silver", Count: 14, Fraction: 14.0 / 40}, {Value: "bronze", Count: 13, Fraction: 13.0 / 40}, {Value: "gold", Count: 13, Fraction: 13.0 / 40}}
	if fmt.Sprint(p.TopValues) != fmt.Sprint(want) || *p.DistinctCount != 3 || p.Mean != nil || *p.Min != "bronze" || *p.Max != "silver" {
		t.Errorf("tier: %+v", p)
	}

	p, _ = h.profile(t, "people.note")
	if !near(*p.NullFraction, 0.75) || *p.DistinctCount != 10 {
		t.Errorf("note: %+v", p)
	}
	p, _ = h.profile(t, "people.photo")
	if p.DistinctCount != nil || p.Min != nil || len(p.TopValues) != 0 || *p.NullFraction != 0 {
		t.Errorf("blob: %+v", p)
	}
	// Untyped column mixing numbers and text: the text stays out of the mean.
	p, _ = h.profile(t, "people.misc")
	if *p.DistinctCount != 37 || p.Mean == nil {
		t.Errorf("misc: %+v", p)
	} else {
		sum, n := 0.0, 0.0
		for i := 1; i <= 40; i++ {
			if i%10 != 0 {
				sum += float64(i)
				n++
			}
		}
		if !near(*p.Mean, sum/n) {
			t.Errorf("misc mean %v, want %v", *p.Mean, sum/n)
		}
	}
	p, _ = h.profile(t, "people.born")
	if p.Mean != nil || *p.Min != "1990-01-01" || *p.Max != "1990-01-28" {
		t.Errorf("born: %+v min %s max %s", p, *p.Min, *p.Max)
	}
	p, _ = h.profile(t, `people.odd "name"`)
	if *p.DistinctCount != 2 || len(p.TopValues) != 2 || p.TopValues[0].Count != 20 {
		t.Errorf("odd name: %+v", p)
	}
	p, _ = h.profile(t, "orders.amount")
	if !near(*p.Mean, 51) || *p.Min != "1.5" || *p.Max != "100.5" {
		t.Errorf("amount: %+v", p)
	}
	p, _ = h.profile(t, "rich.balance")
	if p.Rows != 10 || *p.Min != "310" && *p.Min != "310.0" {
		t.Errorf("view: %+v", p)
	}
	p, _ = h.profile(t, "empty_things.label")
	if p.Rows != 0 || p.NullFraction != nil || *p.DistinctCount != 0 {
		t.Errorf("empty: %+v", p)
	}
	p, _ = h.profile(t, "wide.c59")
	if *p.Max != "118" || !near(*p.Mean, 59) {
		t.Errorf("wide: %+v", p)
	}

	// Table stats: a bounded count for the sampling decision, one aggregate
	// query per 50 columns, and as many for frequent values, since every
	// column of wide has few values; then one detail query per 200 of its
	// branches: 4 quantiles for each of the 60 measures, and one pass for
	// every histogram's bucket counts. The streaming pass reads at most 50
	// columns at a time and needs nothing else.
	var ts catalog.TableStatsDoc
	e, err = h.cat.Get(ctx, catalog.KindTableStats, "wide")
	if err != nil || e.Decode(&ts) != nil {
		t.Fatal(err)
	}
	if ts.Rows != 3 || ts.Sampled || ts.Queries != pick(streamed, 3, 8) || ts.Duration == "" {
		t.Errorf("wide stats: %+v", ts)
	}
	// people: count, aggregate, frequent values, detail (quantiles of
	// balance and misc, calendar of born), the fences' figures in one pass
	// and the anomaly examples (the text in misc), correlations and their
	// rank sample; or the count and one pass.
	e, _ = h.cat.Get(ctx, catalog.KindTableStats, "people")
	if e.Decode(&ts); ts.Queries != pick(streamed, 2, 8) || ts.Rows != 40 {
		t.Errorf("people stats: %+v", ts)
	}
	// The declared key; note is unique but in a quarter of the rows only,
	// balance unique but a measure.
	if want := []catalog.KeyCandidate{{Column: "id", Declared: true, Completeness: 1, Uniqueness: 1}}; !slices.Equal(ts.KeyCandidates, want) {
		t.Errorf("people key candidates %+v, want %+v", ts.KeyCandidates, want)
	}
	p, _ = h.profile(t, "people.misc")
	if len(p.Anomalies) != 1 || p.Anomalies[0].Kind != "mixed_types" || p.Anomalies[0].Count != 4 ||
		fmt.Sprint(p.Anomalies[0].Examples) != "[text]" {
		t.Errorf("misc anomalies: %+v", p.Anomalies)
	}

	insights, err := h.env.RunEntries(ctx, catalog.KindInsight)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range insights {
		var d catalog.InsightDoc
		e.Decode(&d)
		got[e.Key] = d.Description
	}
	wantInsights := map[string]string{
		// misc is i where balance is 10·i, except in its text rows.
		"correlation:people.balance~people.misc": "people.balance and people.misc are strongly positively correlated (Pearson r = 1.00 over 36 rows)",
		"quality:null_heavy:people.note":         "people.note is NULL in 75.0% of 40 rows",
		"quality:empty_table:empty_things":       "empty_things is empty",
	}
	for k, v := range wantInsights {
		if got[k] != v {
			t.Errorf("insight %s = %q, want %q", k, got[k], v)
		}
	}
	// wide has only 3 rows: too few for quality findings. people.source
	// is constant: its profile's anomaly says so, and no insight repeats it.
	for k := range got {
		if _, ok := wantInsights[k]; !ok {
			t.Errorf("unexpected insight %s: %s", k, got[k])
		}
	}
	if p, _ := h.profile(t, "people.source"); len(p.Anomalies) == 0 || p.Anomalies[0].Kind != "constant" ||
		p.Anomalies[0].Description != `all 40 non-null values are "web"` {
		t.Errorf("people.source anomalies: %+v", p.Anomalies)
	}
	if n := h.queries.Load(); n != pick[int64](streamed, 12, 27) {
		// people 8, orders 6 (outlier checks on amount: the fences' figures,
		// then the examples), empty_things 2,
		// rich 3 (a view: count, aggregate, top values — no deep passes),
		// wide 8; streamed, a count and a pass each, wide two passes.
		t.Errorf("queries: %d", n)
	}
}

// TestSampling checks that a table above the limit is profiled on a random
// sample of about the limit's size, its figures marked as estimates.
func TestSampling(t *testing.T) { paths(t, testSampling) }

func testSampling(t *testing.T, wrap func(warehouse.Source) warehouse.Source, streamed bool) {
	h := setup(t, fixture(t), experts.Options{SampleRows: 50}, wrap)
	// The structural expert's exact count spares the count query and gives
	// the sampling fraction: 50 of 100 rows.
	n := int64(100)
	if err := catalog.Tables.Save(context.Background(), h.env.For("structural"), "orders",
		catalog.TableDoc{Name: "orders", Kind: "table", RowCount: &n}, 1, nil); err != nil {
		t.Fatal(err)
	}
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	// Each row is kept when its rowid hashes into half the range: about
	// 50 of the 100 rows, spread evenly.
	inSample := func(n int64) bool { return n >= 40 && n <= 60 }
	p, e := h.profile(t, "orders.status")
	if !p.Sampled || !p.DistinctIsEstimate || !inSample(p.Rows) || e.Confidence != 0.8 {
		t.Errorf("orders.status: %+v conf %v", p, e.Confidence)
	}
	if !strings.Contains(e.Evidence[0], fmt.Sprintf("on a sample of the rows whose rowid hashes into a fixed share (the same rows in every run) of orders (%d of 100 rows, target 50)", p.Rows)) {
		t.Errorf("evidence %q", e.Evidence)
	}
	// Every statement reads the same rows, so the frequent values add up
	// to the sample's size, counted by a pass or by queries.
	var sum int64
	for _, v := range p.TopValues {
		sum += v.Count
	}
	if sum != p.Rows {
		t.Errorf("top values of the sample add up to %d, the sample holds %d rows", sum, p.Rows)
	}
	p, _ = h.profile(t, "orders.amount")
	if p.Quantiles != nil && !p.Quantiles.Estimate {
		t.Errorf("sampled quantiles must be estimates: %+v", p.Quantiles)
	}
	p, e = h.profile(t, "people.tier")
	if p.Sampled || e.Confidence != 1 {
		t.Errorf("people is under the limit: %+v", p)
	}
	var ts catalog.TableStatsDoc
	e, _ = h.cat.Get(context.Background(), catalog.KindTableStats, "orders")
	if e.Decode(&ts); !ts.Sampled || !inSample(ts.Rows) || ts.Queries < pick(streamed, 1, 2) || e.Confidence != 0.8 ||
		!strings.Contains(e.Evidence[0], "hashes into a fixed share") {
		t.Errorf("orders stats: %+v %q", ts, e.Evidence)
	}
	// The declared key, read on a sample, is unique, and no more.
	for _, kc := range ts.KeyCandidates {
		if kc.Column == "id" && (kc.Uniqueness < 0.9 || kc.Uniqueness > 1 || !kc.Estimate) {
			t.Errorf("orders.id: uniqueness %v (estimate %v), want about 1 and an estimate", kc.Uniqueness, kc.Estimate)
		}
	}
}

// TestDegrades checks that a column whose queries fail costs only that
// column: the table is still profiled and the gap recorded.
func TestDegrades(t *testing.T) {
	wrap := func(s warehouse.Source) warehouse.Source {
		return failing{Source: s, fail: func(q string) bool {
			return strings.Contains(q, `GROUP BY "tier"`) || strings.Contains(q, `COUNT(DISTINCT "note")`)
		}}
	}
	h := setup(t, fixture(t), experts.Options{SampleRows: 1_000_000}, wrap)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	ctx := context.Background()
	p, _ := h.profile(t, "people.tier")
	if len(p.TopValues) != 0 || *p.DistinctCount != 3 {
		t.Errorf("tier: %+v", p)
	}
	p, _ = h.profile(t, "orders.status")
	if len(p.TopValues) != 4 {
		t.Errorf("other tables keep their top values: %+v", p)
	}
	p, _ = h.profile(t, "people.note")
	if p.NullFraction == nil || !near(*p.NullFraction, 0.75) || p.DistinctCount != nil {
		t.Errorf("note falls back to COUNT only: %+v", p)
	}
	p, _ = h.profile(t, "people.balance")
	if *p.DistinctCount != 40 {
		t.Errorf("balance: %+v", p)
	}
	for _, k := range []string{"profile:people.tier", "profile:people.note"} {
		if ok, err := h.env.Has(ctx, catalog.KindUncertainty, k); err != nil || !ok {
			t.Errorf("uncertainty %s missing", k)
		}
	}
}

// TestGivesUp checks that a table that cannot be profiled stops being
// planned after its attempts, leaving an uncertainty behind.
func TestGivesUp(t *testing.T) {
	wrap := func(s warehouse.Source) warehouse.Source {
		return failing{Source: s, fail: func(q string) bool { return strings.Contains(q, `FROM "orders"`) }}
	}
	h := setup(t, fixture(t), experts.Options{SampleRows: 1_000_000}, wrap)
	errs := h.runAll(t, statistical.New())
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "profile orders: ") {
		t.Fatalf("errors: %v", errs)
	}
	if ok, _ := h.env.Has(context.Background(), catalog.KindUncertainty, statistical.FailedKey("orders")); !ok {
		t.Error("no uncertainty for the abandoned table")
	}
	if ok, _ := h.env.Has(context.Background(), catalog.KindTableStats, "people"); !ok {
		t.Error("other tables must still be profiled")
	}
}

// findDataset walks up from the working directory to shared/datasets.
func findDataset(t *testing.T, rel string) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "datasets", rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skipf("%s not found above the working directory", rel)
		}
		dir = parent
	}
}

// TestChinook checks figures verified with the sqlite3 CLI.
func TestChinook(t *testing.T) {
	path := findDataset(t, filepath.Join("chinook", "Chinook_Sqlite.sqlite"))
	h := setup(t, path, experts.Options{SampleRows: 1_000_000}, nil)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	p, _ := h.profile(t, "Invoice.Total")
	// SELECT count(*), min(Total), max(Total), avg(Total),
	//        avg(Total*Total)-avg(Total)*avg(Total) FROM Invoice
	if p.Rows != 412 || *p.Min != "0.99" || *p.Max != "25.86" || math.Abs(*p.Mean-5.65194174757282) > 1e-9 ||
		math.Abs(*p.Stddev-math.Sqrt(22.4634035111697)) > 1e-6 {
		t.Errorf("Invoice.Total: %+v", p)
	}
	p, _ = h.profile(t, "Invoice.BillingCountry")
	if *p.DistinctCount != 24 || p.TopValues[0] != (catalog.ValueCount{Value: "USA", Count: 91, Fraction: 91.0 / 412}) ||
		p.TopValues[1].Value != "Canada" || p.TopValues[1].Count != 56 {
		t.Errorf("Invoice.BillingCountry: %+v", p)
	}
	p, _ = h.profile(t, "Invoice.BillingState")
	if !near(*p.NullFraction, 1-210.0/412) {
		t.Errorf("Invoice.BillingState: %+v", p)
	}
	p, _ = h.profile(t, "Track.Composer")
	if *p.DistinctCount != 853 || !near(*p.NullFraction, 1-2526.0/3503) {
		t.Errorf("Track.Composer: %+v", p)
	}
	p, _ = h.profile(t, "Track.MediaTypeId")
	if len(p.TopValues) != 5 || p.TopValues[0].Value != "1" || p.TopValues[0].Count != 3034 {
		t.Errorf("Track.MediaTypeId: %+v", p.TopValues)
	}
	ctx := context.Background()
	if p, _ := h.profile(t, "InvoiceLine.Quantity"); len(p.Anomalies) == 0 || p.Anomalies[0].Kind != "constant" {
		t.Errorf("InvoiceLine.Quantity anomalies: %+v", p.Anomalies)
	}
	for _, k := range []string{"quality:null_heavy:Customer.Fax", "quality:null_heavy:Customer.Company"} {
		if ok, _ := h.env.Has(ctx, catalog.KindInsight, k); !ok {
			t.Errorf("missing insight %s", k)
		}
	}
	if ok, _ := h.env.Has(ctx, catalog.KindInsight, "quality:null_heavy:Customer.State"); ok {
		t.Error("Customer.State is 49% NULL, under the threshold")
	}
	stats, _ := h.env.RunEntries(ctx, catalog.KindTableStats)
	if len(stats) != 11 {
		t.Errorf("%d table stats", len(stats))
	}
	t.Logf("chinook: %d queries for 11 tables", h.queries.Load())
}

// TestGivesUpAfterResume: the failed attempts are the orchestrator's count,
// which a resumed run restores from its saved state, so a table that failed
// its attempts before the run was interrupted is not planned again.
func TestGivesUpAfterResume(t *testing.T) {
	h := setup(t, fixture(t), experts.Options{SampleRows: 1_000_000}, nil)
	plan := func(failures map[string]int) map[string]bool {
		tasks, err := statistical.New().Plan(context.Background(), h.env.For(statistical.Name).WithFailures(failures))
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		for _, task := range tasks {
			names[task.Name] = true
		}
		return names
	}
	if got := plan(nil); !got["profile orders"] {
		t.Fatalf("a fresh run does not plan orders: %v", got)
	}
	if got := plan(map[string]int{"statistical/profile orders": 1}); !got["profile orders"] {
		t.Fatalf("one failed attempt gave up on orders: %v", got)
	}
	got := plan(map[string]int{"statistical/profile orders": 2})
	if got["profile orders"] || !got["profile people"] {
		t.Fatalf("after two failed attempts (restored state): %v", got)
	}
}
