package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/scale"
	"github.com/discover-db/discover/report"
)

// BenchmarkScale is issue 9's scale benchmark: a default discovery of a
// generated SQLite warehouse (internal/scale) of 100, 300 and 1,000 tables,
// 10,000 rows per table on average (10M rows at 1,000 tables), each run as
// a separate discover process so that its wall time, CPU time and peak
// resident memory (the kernel's maxrss, as /usr/bin/time -v reports it)
// are its own. It prints a table and the cost per table at each size.
// Target: 1,000 tables in under 10 minutes with under 1 GiB at peak.
//
// It is not part of the normal suite (benchmarks run only with -bench):
//
//	DISCOVER_BENCH_TABLES=100,300,1000 go test ./cmd/discover -run '^$' -bench Scale -benchtime 1x -timeout 2h
//
// DISCOVER_BENCH_TABLES lists the sizes (default 100,300);
// DISCOVER_BENCH_ROWS is the average rows per table (default 10,000; issue
// 20's big catalog is 1,000: DISCOVER_BENCH_TABLES=1000,3000,10000
// DISCOVER_BENCH_ROWS=1000); DISCOVER_BENCH_DIR keeps the generated files
// between runs (default $TMPDIR/discover-scale; 1,000 tables of 10,000 rows
// take about 0.6 GB).
func BenchmarkScale(b *testing.B) {
	sizes := []int{100, 300}
	if s := os.Getenv("DISCOVER_BENCH_TABLES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				b.Fatalf("DISCOVER_BENCH_TABLES=%q: want sizes like 100,300,1000", s)
			}
			sizes = append(sizes, n)
		}
	}
	rows := scale.RowsPerTable
	if s := os.Getenv("DISCOVER_BENCH_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 10 {
			b.Fatalf("DISCOVER_BENCH_ROWS=%q: want an average of rows per table like 1000", s)
		}
		rows = n
	}
	dir := os.Getenv("DISCOVER_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "discover-scale")
	}
	var results []scaleResult
	for _, n := range sizes {
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			start := time.Now()
			path, err := scale.Ensure(context.Background(), dir, n, int64(rows))
			if err != nil {
				b.Fatal(err)
			}
			b.Logf("database %s ready in %s", path, time.Since(start).Round(time.Second))
			b.ResetTimer()
			var r scaleResult
			for range b.N {
				r = measureDiscovery(b, path)
			}
			b.StopTimer()
			r.tables = n
			if r.reportedTables != n {
				b.Errorf("the report lists %d tables of %d", r.reportedTables, n)
			}
			b.ReportMetric(r.wall.Seconds(), "wall-s")
			b.ReportMetric(float64(r.peakRSS)/(1<<20), "peak-MiB")
			b.ReportMetric(r.cpu.Seconds(), "cpu-s")
			results = append(results, r)
		})
	}
	if len(results) == 0 {
		return
	}
	var out strings.Builder
	fmt.Fprintf(&out, "\n%7s %11s %9s %9s %9s %10s %12s %8s %8s %s\n",
		"tables", "rows", "wall", "cpu", "peak MiB", "wall/table", "wall/M rows", "queries", "coverage", "stop")
	for _, r := range results {
		fmt.Fprintf(&out, "%7d %11d %9s %9s %9.0f %10s %12s %8d %8.2f %s\n",
			r.tables, r.rows, r.wall.Round(100*time.Millisecond), r.cpu.Round(100*time.Millisecond),
			float64(r.peakRSS)/(1<<20), (r.wall / time.Duration(r.tables)).Round(time.Millisecond),
			(time.Duration(float64(r.wall) / (float64(r.rows) / 1e6))).Round(10*time.Millisecond),
			r.queries, r.coverage, r.stop)
	}
	first, last := results[0], results[len(results)-1]
	if last.tables > first.tables {
		growth := float64(last.tables) / float64(first.tables)
		fmt.Fprintf(&out, "%.1fx the tables cost %.2fx the wall time and %.2fx the CPU time (linear: %.1fx)\n",
			growth, last.wall.Seconds()/first.wall.Seconds(), last.cpu.Seconds()/first.cpu.Seconds(), growth)
	}
	b.Log(out.String())
	fmt.Print(out.String())
}

type scaleResult struct {
	tables         int
	rows           int64
	wall, cpu      time.Duration
	peakRSS        int64 // bytes
	queries        int64
	coverage       float64
	stop           string
	reportedTables int
	report         report.Report
	incomplete     string // the end of the log of a run that exited incomplete
}

// measureDiscovery runs a default discovery of the database at path as a
// child process and measures it.
func measureDiscovery(b *testing.B, path string) scaleResult {
	b.Helper()
	return measure(b, path, false)
}

// measure is measureDiscovery; incompleteOK takes a run that exits
// incomplete (exitIncomplete: it could not read or test everything) as a
// result, with its reasons in incomplete, instead of a fatal error.
func measure(b *testing.B, path string, incompleteOK bool) scaleResult {
	b.Helper()
	return measureIn(b, path, b.TempDir(), incompleteOK)
}

// measureIn is measure with the output folder, and so the catalog, given:
// a second run into it may reuse the first's findings.
func measureIn(b *testing.B, path, out string, incompleteOK bool) scaleResult {
	b.Helper()
	cmd := exec.Command(os.Args[0], "--db", path, "--out", out, "--format", "json", "--progress", "plain")
	peakFile := filepath.Join(b.TempDir(), "peak")
	cmd.Env = append(os.Environ(), "DISCOVER_TEST_AS_CLI=1", "DISCOVER_TEST_PEAK_FILE="+peakFile)
	logf, err := os.Create(filepath.Join(out, "progress.log"))
	if err != nil {
		b.Fatal(err)
	}
	defer logf.Close()
	cmd.Stderr = logf
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	incomplete := ""
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == exitIncomplete && incompleteOK {
		log, _ := os.ReadFile(logf.Name())
		incomplete, err = tail(strings.TrimSpace(string(log)), 600), nil
	}
	if err != nil {
		log, _ := os.ReadFile(logf.Name())
		b.Fatalf("discovery of %s: %v\n%s", path, err, tail(string(log), 4000))
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		b.Fatal("no resource usage for the child process")
	}
	raw, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		b.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		b.Fatal(err)
	}
	// The child's own figure: wait4's counts the parent's memory at the
	// child's start too (writePeak).
	peak := ru.Maxrss
	if raw, err := os.ReadFile(peakFile); err == nil {
		if kb, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			peak = kb
		}
	} else {
		b.Logf("the child reported no peak (%v): the kernel's figure, which counts the parent's memory too", err)
	}
	r := scaleResult{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		peakRSS: peak * 1024, queries: rep.Run.Queries, coverage: rep.Run.Coverage, reportedTables: len(rep.Tables), report: rep, incomplete: incomplete}
	if rep.Run.StopReason != nil {
		r.stop = *rep.Run.StopReason
	}
	for _, t := range rep.Tables {
		if t.RowCount != nil {
			r.rows += *t.RowCount
		}
	}
	if len(rep.Uncertainties) > 0 {
		b.Logf("%s: %d uncertainties, the first: %s", filepath.Base(path), len(rep.Uncertainties), rep.Uncertainties[0])
	}
	return r
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
