package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfilingFlags: --cpuprofile and --trace write, for a whole demo
// discovery, a CPU profile in pprof's format (gzip-compressed protobuf
// whose string table names the run's own functions) and an execution
// trace (its header names the Go version that wrote it); report.json's
// run.costs has every expert that ran with its tasks and time, and the
// slowest task runs. A file that cannot be created is exit 2 before
// anything runs.
func TestWhereTheTimeGoes(t *testing.T) {
	dir := t.TempDir()
	cpu, tr := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "run.trace")
	res := run(t, "--demo", "--out", filepath.Join(dir, "out"), "-q", "--format", "json", "--cpuprofile", cpu, "--trace", tr)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	_, r := readReport(t, filepath.Join(dir, "out"))
	if r.Run.Costs == nil || len(r.Run.Costs.Slowest) == 0 {
		t.Fatalf("report.json: run.costs %+v, want experts and slowest tasks", r.Run.Costs)
	}
	byExpert := map[string]int{}
	total := 0.0
	for _, e := range r.Run.Costs.Experts {
		byExpert[e.Expert] = e.Tasks
		total += e.Seconds
	}
	for _, x := range []string{"structural", "statistical", "relations", "semantic", "query"} {
		if byExpert[x] < 1 {
			t.Errorf("run.costs: %s ran %d tasks; experts %+v", x, byExpert[x], r.Run.Costs.Experts)
		}
	}
	if s := r.Run.Costs.Slowest[0]; s.Seconds <= 0 || s.Seconds > total {
		t.Errorf("slowest task %+v: not within the experts' %.3f s", s, total)
	}
	b, err := os.ReadFile(cpu)
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the CPU profile is not pprof's gzip: %v", err)
	}
	raw, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("github.com/discover-db/discover/orchestrator")) {
		t.Errorf("the CPU profile (%d bytes) names none of the orchestrator's functions", len(raw))
	}
	tb, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(tb, []byte("go 1.")) || !bytes.Contains(tb[:16], []byte("trace")) || len(tb) < 10_000 {
		t.Errorf("the trace (%d bytes) does not start as a Go execution trace: %q", len(tb), tb[:min(16, len(tb))])
	}

	missing := filepath.Join(dir, "no", "such", "folder", "cpu.pprof")
	for _, flag := range []string{"--cpuprofile", "--trace"} {
		res := run(t, "--demo", "--out", filepath.Join(dir, "out2"), "-q", flag, missing)
		if res.code != 2 || !strings.Contains(res.stderr, flag+": ") {
			t.Errorf("%s in a missing folder: exit %d, stderr %q; want exit 2 naming the flag", flag, res.code, res.stderr)
		}
	}
}
