package statistical_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/warehouse"
)

// Issue 17: a table whose profile timed out is profiled again on a smaller
// sample before it is given up.

// slowView builds a database holding one view, slow, over a recursive CTE
// counting to 10^9: reading it whole never ends, and reading its first
// rows ends at once (SQLite computes only the rows a LIMIT takes). Its
// columns are x = 1, 2, 3, … and bucket = x % 7.
func slowView(t *testing.T, extra ...string) string {
	path := filepath.Join(t.TempDir(), "slow.db")
	build(t, path, append([]string{`CREATE VIEW slow AS
		WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
		SELECT x, x % 7 AS bucket FROM c`}, extra...)...)
	return path
}

// timeoutErr is the error the SQLite source returns when --query-timeout
// ends a statement.
func timeoutErr() error {
	return fmt.Errorf("sqlite: query: timed out after 1s: %w", context.DeadlineExceeded)
}

// scripted wraps a source: each statement is recorded, and act, when set,
// may answer it instead of the database (an error), or cancel the run.
type scripted struct {
	warehouse.Source
	mu  sync.Mutex
	sql []string
	act func(q string) error
}

func (s *scripted) Query(ctx context.Context, q string, o warehouse.QueryOptions) (*warehouse.Result, error) {
	s.mu.Lock()
	s.sql = append(s.sql, q)
	act := s.act
	s.mu.Unlock()
	if act != nil {
		if err := act(q); err != nil {
			return nil, err
		}
	}
	return s.Source.Query(ctx, q, o)
}

func (s *scripted) statements() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.sql...)
}

// checkSlowProfile checks the profile of the slow view taken on a sample of
// n rows (its first rows, x = 1..n) after the samples of timedOut rows timed
// out: exact figures of those n rows, marked sampled, and the uncertainty
// saying why the sample is smaller than asked for.
func checkSlowProfile(t *testing.T, h *harness, n int64, timedOut string) {
	t.Helper()
	ctx := context.Background()
	var ts catalog.TableStatsDoc
	e, err := h.cat.Get(ctx, catalog.KindTableStats, "slow")
	if err != nil {
		t.Fatalf("no table stats for slow: %v", err)
	}
	if err := e.Decode(&ts); err != nil {
		t.Fatal(err)
	}
	if !ts.Sampled || ts.Rows != n || e.Confidence != 0.8 {
		t.Errorf("slow stats: %+v, confidence %v; want a sample of %d rows", ts, e.Confidence, n)
	}
	if !strings.Contains(strings.Join(e.Evidence, "\n"), fmt.Sprintf("the first %d rows of slow", n)) ||
		!strings.Contains(strings.Join(e.Evidence, "\n"), "after the profile timed out "+timedOut) {
		t.Errorf("slow stats evidence %q", e.Evidence)
	}

	x, e := h.profile(t, "slow.x")
	if !x.Sampled || x.Rows != n || !x.DistinctIsEstimate || x.Provisional || e.Confidence != 0.8 {
		t.Errorf("slow.x: %+v, confidence %v", x, e.Confidence)
	}
	if x.NullFraction == nil || *x.NullFraction != 0 || x.DistinctCount == nil || *x.DistinctCount != n ||
		x.Min == nil || *x.Min != "1" || x.Max == nil || *x.Max != fmt.Sprint(n) {
		t.Errorf("slow.x figures: null %v distinct %v min %v max %v; want 0, %d, 1, %d",
			deref(x.NullFraction), derefInt(x.DistinctCount), x.Min, x.Max, n, n)
	}
	if x.Mean == nil || !near(*x.Mean, float64(n+1)/2) {
		t.Errorf("slow.x mean %v, want %v", deref(x.Mean), float64(n+1)/2)
	}
	b, _ := h.profile(t, "slow.bucket")
	if !b.Sampled || b.Rows != n || b.DistinctCount == nil || *b.DistinctCount != 7 || len(b.TopValues) != 7 {
		t.Fatalf("slow.bucket: %+v", b)
	}
	// x % 7 over 1..n: residues 1..n%7 once more than the others.
	for _, v := range b.TopValues {
		var r int64
		fmt.Sscan(v.Value, &r)
		want := n / 7
		if r >= 1 && r <= n%7 {
			want++
		}
		if v.Count != want {
			t.Errorf("slow.bucket value %s: %d rows, want %d", v.Value, v.Count, want)
		}
	}

	u, err := h.cat.Get(ctx, catalog.KindUncertainty, statistical.RetriedKey("slow"))
	if err != nil {
		t.Fatalf("no uncertainty says slow was retried: %v", err)
	}
	var doc catalog.UncertaintyDoc
	if err := u.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("slow was profiled on a sample of %s rows after its profile timed out %s", catalog.Thousands(n), timedOut)
	if !strings.HasPrefix(doc.Description, want) {
		t.Errorf("uncertainty %q, want it to start %q", doc.Description, want)
	}
	if gone, _ := h.env.Has(ctx, catalog.KindUncertainty, statistical.FailedKey("slow")); gone {
		t.Error("slow was given up although a smaller sample profiled it")
	}
}

// TestTimedOutProfileRetried: the profile of a view too slow to count to
// ten samples of 1,000,000 rows times out on --query-timeout, and the same
// task profiles it again on a sample of 100,000 rows (or, should that time
// out too on a slow machine, of 10,000): no task fails, and the profile
// holds the figures of the smaller sample and says so.
func TestTimedOutProfileRetried(t *testing.T) { paths(t, testTimedOutProfileRetried) }

func testTimedOutProfileRetried(t *testing.T, wrap func(warehouse.Source) warehouse.Source, streamed bool) {
	// The first attempt counts up to 10M rows of the view (SQLite computes
	// some 1M a second): it times out whatever the machine. A retry reads
	// 100,001 rows at most per statement.
	timeout := time.Second
	if heavy.Race {
		timeout = 5 * time.Second
	}
	h := setup(t, slowView(t), experts.Options{SampleRows: 1_000_000, QueryTimeout: timeout}, wrap)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatalf("the profile failed instead of being retried on a smaller sample: %v", errs)
	}
	var ts catalog.TableStatsDoc
	e, err := h.cat.Get(context.Background(), catalog.KindTableStats, "slow")
	if err != nil {
		t.Fatal(err)
	}
	_ = e.Decode(&ts)
	switch ts.Rows {
	case 100_000:
		checkSlowProfile(t, h, 100_000, "on a sample of 1,000,000 rows")
	case 10_000:
		t.Logf("the sample of 100,000 rows timed out too (a slow machine)")
		checkSlowProfile(t, h, 10_000, "on samples of 1,000,000 and 100,000 rows")
	default:
		t.Fatalf("slow profiled on %d rows, want a retry's sample of 100,000 or 10,000: %+v", ts.Rows, ts)
	}
}

// TestRetryResumes: the sizes that timed out are kept in the catalog, so a
// resumed run (a new expert, with nothing in memory) starts at the next
// smaller sample rather than waiting out the timeout again. With
// --sample-rows 100,000 the first attempt's timeout is injected and the
// run is cancelled during the retry on 10,000 rows, as ^C would; the
// resumed run asks nothing of 100,000 rows and profiles the view on
// 10,000.
func TestRetryResumes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	src := &scripted{}
	src.act = func(q string) error {
		switch {
		case strings.Contains(q, "LIMIT 100001"):
			return timeoutErr() // the first attempt's count
		case strings.Contains(q, "LIMIT 10001"):
			cancel() // ^C during the retry
			return fmt.Errorf("sqlite: query: %w", context.Canceled)
		}
		return nil
	}
	h := setup(t, slowView(t), experts.Options{SampleRows: 100_000, QueryTimeout: time.Minute},
		func(s warehouse.Source) warehouse.Source { src.Source = s; return src })
	tasks, err := statistical.New().Plan(ctx, h.env.For(statistical.Name))
	if err != nil || len(tasks) != 1 {
		t.Fatalf("plan: %d tasks, %v", len(tasks), err)
	}
	if err := tasks[0].Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted profile: %v", err)
	}
	if ok, _ := h.env.Has(context.Background(), catalog.KindTableStats, "slow"); ok {
		t.Fatal("the interrupted profile marked slow done")
	}

	// A gap in a column's profile an attempt recorded before it timed out
	// (a frequent-values query that timed out first, say): the retry that
	// profiles the column removes it. Another table's stays.
	for _, key := range []string{"profile:slow.bucket", "profile:other.c"} {
		if err := catalog.Uncertainties.Save(context.Background(), h.env.For(statistical.Name), key,
			catalog.UncertaintyDoc{Description: "frequent values could not be computed: timed out"}, 1, nil); err != nil {
			t.Fatal(err)
		}
	}

	// --resume: a new expert; the database answers in full.
	src.mu.Lock()
	src.act, src.sql = nil, nil
	src.mu.Unlock()
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	stmts := src.statements()
	if len(stmts) == 0 || !strings.Contains(stmts[0], "LIMIT 10001") {
		t.Errorf("the resumed profile did not start on the smaller sample: first statement %q", stmts[:min(1, len(stmts))])
	}
	for _, q := range stmts {
		if strings.Contains(q, "LIMIT 100001") || strings.Contains(q, "LIMIT 1000001") {
			t.Errorf("the resumed profile asked again for the sample that timed out: %.200s", q)
		}
	}
	checkSlowProfile(t, h, 10_000, "on a sample of 100,000 rows")
	if gap, _ := h.env.Has(context.Background(), catalog.KindUncertainty, "profile:slow.bucket"); gap {
		t.Error("the retried profile left the gap of the attempt that timed out")
	}
	if gap, _ := h.env.Has(context.Background(), catalog.KindUncertainty, "profile:other.c"); !gap {
		t.Error("the retry removed another table's gap")
	}
}

// TestRetryGivesUpAtFloor: a view no read of which ever ends (its first
// row waits for the whole aggregate) times out on samples of 1,000,000, 100,000 and
// 10,000 rows, and the task fails with the timeout, naming them; a smaller
// sample than 10,000 rows is not tried. The orchestrator's next attempt,
// or a resumed run's, fails at once without a statement: the catalog
// remembers every size timed out.
func TestRetryGivesUpAtFloor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stuck.db")
	build(t, path, `CREATE VIEW stuck AS
		WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
		SELECT x % 7 AS bucket, COUNT(*) AS n FROM c GROUP BY 1`)
	src := &scripted{}
	h := setup(t, path, experts.Options{SampleRows: 1_000_000, QueryTimeout: 200 * time.Millisecond},
		func(s warehouse.Source) warehouse.Source { src.Source = s; return src })
	ctx := context.Background()
	tasks, err := statistical.New().Plan(ctx, h.env.For(statistical.Name))
	if err != nil || len(tasks) != 1 {
		t.Fatalf("plan: %d tasks, %v", len(tasks), err)
	}
	err = tasks[0].Run(ctx)
	if !errors.Is(err, context.DeadlineExceeded) ||
		!strings.Contains(err.Error(), "timed out on samples of 1,000,000, 100,000 and 10,000 rows") {
		t.Fatalf("error %v, want the timeout naming the three samples", err)
	}
	var counts []string
	for _, q := range src.statements() {
		if strings.HasPrefix(q, "SELECT COUNT(*) AS n FROM (SELECT 1 AS one FROM") {
			counts = append(counts, q[strings.LastIndex(q, "LIMIT"):])
		}
	}
	if want := []string{"LIMIT 1000001) c", "LIMIT 100001) c", "LIMIT 10001) c"}; strings.Join(counts, "|") != strings.Join(want, "|") {
		t.Errorf("the attempts counted %q, want %q: one sample each, ten times smaller, none under 10,000 rows", counts, want)
	}

	// The next attempt, by a new expert (as after --resume).
	before := h.queries.Load()
	tasks, err = statistical.New().Plan(ctx, h.env.For(statistical.Name))
	if err != nil || len(tasks) != 1 {
		t.Fatalf("plan: %d tasks, %v", len(tasks), err)
	}
	err = tasks[0].Run(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no smaller sample of at least 10,000 rows is left") {
		t.Errorf("second attempt: %v", err)
	}
	if n := h.queries.Load() - before; n != 0 {
		t.Errorf("the second attempt ran %d statements against a view that timed out down to the smallest sample", n)
	}
	if ok, _ := h.env.Has(ctx, catalog.KindProfile, "stuck.bucket"); ok {
		t.Error("stuck has a profile")
	}
}

// TestNoRetryBelowFloor: with --sample-rows 50,000 a tenth is under the
// 10,000 rows a retry takes at least, so the profile that timed out is not
// retried on a smaller sample: the task fails with the engine's timeout,
// and the orchestrator's next attempt profiles the view as before (its
// statements run, and time out again).
func TestNoRetryBelowFloor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stuck.db")
	build(t, path, `CREATE VIEW stuck AS
		WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
		SELECT x % 7 AS bucket, COUNT(*) AS n FROM c GROUP BY 1`)
	src := &scripted{}
	h := setup(t, path, experts.Options{SampleRows: 50_000, QueryTimeout: 200 * time.Millisecond},
		func(s warehouse.Source) warehouse.Source { src.Source = s; return src })
	ctx := context.Background()
	for attempt := 1; attempt <= 2; attempt++ {
		tasks, err := statistical.New().Plan(ctx, h.env.For(statistical.Name))
		if err != nil || len(tasks) != 1 {
			t.Fatalf("plan: %d tasks, %v", len(tasks), err)
		}
		before := len(src.statements())
		err = tasks[0].Run(ctx)
		if !errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "sample") {
			t.Errorf("attempt %d: %v, want the engine's timeout alone", attempt, err)
		}
		stmts := src.statements()[before:]
		if len(stmts) != 1 || !strings.Contains(stmts[0], "LIMIT 50001") {
			t.Errorf("attempt %d ran %q, want the count of the sample asked for, once", attempt, stmts)
		}
	}
}
