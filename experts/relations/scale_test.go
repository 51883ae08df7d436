package relations_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// BenchmarkInferScale is issue 5's scale check: a discovery run, declared
// foreign keys ignored, over a generated schema of DISCOVER_BENCH_TABLES
// tables (default 500: ~5,000 columns, 600 true references; see
// scalegen_test.go), with the relationship phase's time, its candidates,
// pruned candidates and exact checks, and precision and recall against the
// truth as metrics:
//
//	go test ./experts/relations -run '^$' -bench InferScale -benchtime 1x
//	DISCOVER_BENCH_TABLES=1000 go test ./experts/relations -run '^$' -bench InferScale -benchtime 1x
//
// The run has the structural, relations and statistical experts, which is all
// inference needs; DISCOVER_BENCH_EXPERTS=all adds the semantic and query
// experts as a full `discover --ignore-declared-fks` run has them, and
// DISCOVER_BENCH_VERBOSE=1 lists every false positive and negative. The
// database is built once per size and kept in the temporary directory.
func BenchmarkInferScale(b *testing.B) {
	n := 500
	if s := os.Getenv("DISCOVER_BENCH_TABLES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			b.Fatalf("DISCOVER_BENCH_TABLES=%q: want a positive number", s)
		}
		n = v
	}
	start := time.Now()
	path, truth, err := scaleFile(n)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d tables, %d columns, %d true references (%d named in no way the rules know); database ready in %s: %s",
		n, truth.columns, len(truth.truth), truth.unnamed, time.Since(start).Round(time.Millisecond), path)
	all := os.Getenv("DISCOVER_BENCH_EXPERTS") == "all"
	b.ResetTimer()
	var res scaleResult
	for b.Loop() {
		res = runScale(b, path, truth, all)
	}
	b.StopTimer()
	b.ReportMetric(res.infer.Seconds(), "infer-s")
	b.ReportMetric(res.run.Seconds(), "run-s")
	b.ReportMetric(float64(res.stats.Candidates), "candidates")
	b.ReportMetric(float64(res.stats.Pruned), "pruned")
	b.ReportMetric(float64(res.stats.Checks), "checks")
	b.ReportMetric(float64(res.stats.Dominated), "dominated")
	b.ReportMetric(float64(res.stats.Sketched), "sketched")
	b.ReportMetric(float64(res.stats.Checks)/float64(truth.columns), "checks/column")
	b.ReportMetric(res.precision, "precision")
	b.ReportMetric(res.recall, "recall")
	b.Logf("relationship phase %s of a %s run (%s): %s", res.infer.Round(time.Millisecond), res.run.Round(time.Millisecond), res.stop, res.stats.Detail)
	b.Logf("inferred %d: %d true, %d false %v; %d of %d true references missed (precision %.3f, recall %.3f)",
		res.tp+res.fp, res.tp, res.fp, res.fpWhy, res.fn, len(truth.truth), res.precision, res.recall)
	for i, s := range res.examples {
		if i < 10 {
			b.Log(s)
		}
		if os.Getenv("DISCOVER_BENCH_VERBOSE") != "" {
			fmt.Fprintln(os.Stderr, s) // benchmark logs are cut short
		}
	}
}

type scaleResult struct {
	infer, run        time.Duration
	stop              string
	stats             relations.InferStats
	tp, fp, fn        int
	fpWhy             map[string]int // false positives by kind
	precision, recall float64
	examples          []string // a few false positives and negatives
}

// runScale discovers the database at path as a run does with
// --ignore-declared-fks and scores the inferred relationships.
func runScale(b testing.TB, path string, truth *scaleDB, all bool) scaleResult {
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	cat, err := catalog.Open(ctx, filepath.Join(b.TempDir(), "catalog.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer cat.Close()
	run := catalog.Run{ID: "scale", DSN: path, Dialect: src.Dialect().Name(), Database: src.Database(), StartedAt: time.Now().UTC()}
	if err := cat.StartRun(ctx, run); err != nil {
		b.Fatal(err)
	}
	xs := []experts.Expert{structural.New(), relations.New(), statistical.New()}
	if all {
		xs = append(xs, semantic.New(), rules.New(), query.New(), advice.New())
	}
	events := make(chan orchestrator.Event, 64)
	res := scaleResult{fpWhy: map[string]int{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range events {
			if e.Kind == orchestrator.EventTaskDone && e.Expert == relations.Name && e.Task == "infer relationships" {
				res.infer = e.Elapsed
			}
		}
	}()
	orc := &orchestrator.Orchestrator{Source: src, Catalog: cat, Experts: xs, Events: events,
		Config: orchestrator.Config{MaxIterations: 50, TargetConfidence: 0.95, TargetCoverage: 0.95, Parallel: 4,
			Options: experts.Options{SampleRows: 1_000_000, QueryTimeout: time.Minute, IgnoreDeclaredFKs: true}}}
	start := time.Now()
	run, err = orc.Run(ctx, run)
	res.run = time.Since(start)
	close(events)
	<-done
	if err != nil {
		b.Fatal(err)
	}
	res.stop = run.StopReason
	e, err := cat.Get(ctx, catalog.KindProgress, "structural:infer")
	if err != nil {
		b.Fatalf("no inference in the run: %v", err)
	}
	if err := e.Decode(&res.stats); err != nil {
		b.Fatal(err)
	}
	rels, err := cat.List(ctx, catalog.Filter{Kind: catalog.KindRelationship, RunID: run.ID})
	if err != nil {
		b.Fatal(err)
	}
	verbose := os.Getenv("DISCOVER_BENCH_VERBOSE") != ""
	want := map[string]bool{}
	refCol := map[string]bool{} // child columns of true references
	keyCol := map[string]bool{} // the tables' own keys
	for _, k := range truth.truth {
		want[strings.ToLower(k)] = true
		refCol[strings.ToLower(k[:strings.Index(k, ")")])] = true
	}
	for _, t := range truth.tables {
		keyCol[strings.ToLower(t.name+"("+t.key.name)] = true
	}
	got := map[string]bool{}
	for _, e := range rels {
		k := strings.ToLower(e.Key)
		got[k] = true
		if want[k] {
			res.tp++
			continue
		}
		res.fp++
		// why: a reference sent to a namesake of its target, a table's own
		// key read as a reference to a namesake (a 1:1 extension by
		// name), or a column that references nothing
		col := k[:strings.Index(k, ")")]
		why := "no reference"
		switch {
		case refCol[col]:
			why = "wrong target"
		case keyCol[col]:
			why = "own key"
		}
		res.fpWhy[why]++
		if verbose || len(res.examples) < 10 {
			res.examples = append(res.examples, fmt.Sprintf("FP %s [%s] (%.2f; %s)", e.Key, why, e.Confidence, strings.Join(e.Evidence, "; ")))
		}
	}
	nfn := 0
	for _, k := range truth.truth {
		if !got[strings.ToLower(k)] {
			res.fn++
			if nfn++; verbose || nfn <= 10 {
				res.examples = append(res.examples, "FN "+k)
			}
		}
	}
	res.precision, res.recall = 1, 1
	if res.tp+res.fp > 0 {
		res.precision = float64(res.tp) / float64(res.tp+res.fp)
	}
	if len(truth.truth) > 0 {
		res.recall = float64(res.tp) / float64(len(truth.truth))
	}
	return res
}

// A small scale database discovered in the ordinary test run: inference
// finds the references, and its evidence adds up.
func TestInferScaleSmall(t *testing.T) {
	if heavy.Short() {
		t.Skip("builds and discovers a 60-table database")
	}
	s := genScale(60)
	path := filepath.Join(t.TempDir(), "scale.db")
	if err := s.write(path); err != nil {
		t.Fatal(err)
	}
	res := runScale(t, path, s, false)
	st := res.stats
	t.Logf("%s; precision %.3f, recall %.3f; %v", st.Detail, res.precision, res.recall, res.examples)
	if st.Candidates != st.Declared+st.Pruned+st.Dominated+st.Checks {
		t.Errorf("%d candidates are not %d declared + %d pruned + %d dominated + %d checked", st.Candidates, st.Declared, st.Pruned, st.Dominated, st.Checks)
	}
	if st.Checks == 0 || st.Pruned == 0 || st.Sketched == 0 {
		t.Errorf("nothing pruned, sketched or checked: %s", st.Detail)
	}
	if res.precision < 0.95 || res.recall < 0.9 {
		t.Errorf("precision %.3f, recall %.3f on %d true references", res.precision, res.recall, len(s.truth))
	}
}
