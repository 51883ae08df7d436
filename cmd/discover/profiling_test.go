package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// TestProfilingFlags: --cpuprofile, --trace and --memprofile write, for a
// whole demo discovery, a CPU profile in pprof's format (gzip-compressed
// protobuf whose string table names the run's own functions), an
// execution trace (its header names the Go version that wrote it) and a
// heap profile (pprof's, with in-use figures and discover's functions); report.json's
// run.costs has every expert that ran with its tasks and time, and the
// slowest task runs. A file that cannot be created is exit 2 before
// anything runs.
func TestWhereTheTimeGoes(t *testing.T) {
	dir := t.TempDir()
	cpu, tr, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "run.trace"), filepath.Join(dir, "mem.pprof")
	res := run(t, "--demo", "--out", filepath.Join(dir, "out"), "-q", "--format", "json", "--cpuprofile", cpu, "--trace", tr, "--memprofile", mem)
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
	for _, f := range []struct{ what, path, names string }{
		{"CPU", cpu, "github.com/discover-db/discover/orchestrator"},
		{"heap", mem, "inuse_space"},
	} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("the %s profile is not pprof's gzip: %v", f.what, err)
		}
		raw, err := io.ReadAll(z)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(raw, []byte(f.names)) || !bytes.Contains(raw, []byte("github.com/discover-db/discover/")) {
			t.Errorf("the %s profile (%d bytes) names no %s or none of discover's functions", f.what, len(raw), f.names)
		}
	}
	tb, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(tb, []byte("go 1.")) || !bytes.Contains(tb[:16], []byte("trace")) || len(tb) < 10_000 {
		t.Errorf("the trace (%d bytes) does not start as a Go execution trace: %q", len(tb), tb[:min(16, len(tb))])
	}

	missing := filepath.Join(dir, "no", "such", "folder", "cpu.pprof")
	for _, flag := range []string{"--cpuprofile", "--trace", "--memprofile"} {
		res := run(t, "--demo", "--out", filepath.Join(dir, "out2"), "-q", flag, missing)
		if res.code != 2 || !strings.Contains(res.stderr, flag+": ") {
			t.Errorf("%s in a missing folder: exit %d, stderr %q; want exit 2 naming the flag", flag, res.code, res.stderr)
		}
	}
}

// The heap profile is the peak's: memory held for a while and then let go
// is in use in the profile kept at the end, where a profile taken at the
// end no longer has it in use.
func TestMemProfileKeepsThePeak(t *testing.T) {
	p := watchPeak(time.Hour) // taken by hand below
	big := holdBig()
	runtime.GC()
	p.take()
	runtime.KeepAlive(big)
	big = nil
	runtime.GC()
	runtime.GC() // the runtime publishes a collection's frees one collection later
	p.stop()
	var now bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&now, 0); err != nil {
		t.Fatal(err)
	}
	if got := inUse(t, p.profile(), "holdBig"); got < 256<<20 {
		t.Errorf("the kept profile has %d bytes of holdBig in use, want its 256 MiB held at the peak", got)
	}
	if got := inUse(t, now.Bytes(), "holdBig"); got != 0 {
		t.Errorf("a profile taken at the end has %d bytes of holdBig in use: the test shows nothing", got)
	}
}

// inUse sums a heap profile's in-use bytes allocated in function fn.
func inUse(t *testing.T, raw []byte, fn string) int64 {
	t.Helper()
	prof, err := profile.ParseData(raw)
	if err != nil {
		t.Fatal(err)
	}
	idx := -1
	for i, st := range prof.SampleType {
		if st.Type == "inuse_space" {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatalf("no inuse_space in the heap profile: %v", prof.SampleType)
	}
	var n int64
	for _, s := range prof.Sample {
		if len(s.Location) > 0 && len(s.Location[0].Line) > 0 && strings.HasSuffix(s.Location[0].Line[0].Function.Name, "."+fn) {
			n += s.Value[idx]
		}
	}
	return n
}

//go:noinline
func holdBig() []byte {
	b := make([]byte, 256<<20)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}
