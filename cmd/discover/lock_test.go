package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/internal/runlock"
)

// TestSecondRunRefused: a run into an --out another run is writing to
// exits 2 naming the first (pid, start time), --resume too, and the first
// then finishes as if alone: the figures of an undisturbed run, not the
// doubled iterations and queries of two runs sharing a catalog.
func TestSecondRunRefused(t *testing.T) {
	if heavy.Race {
		t.Skip("three demo runs, about 5 minutes under the race detector: the plain pass of .ci/run runs it, and internal/runlock's own tests run under -race")
	}
	ref := t.TempDir()
	if res := run(t, "--demo", "--out", ref, "--progress", "none", "--parallel", "1"); res.code != 0 {
		t.Fatalf("reference run: exit %d\n%s", res.code, res.stderr)
	}
	_, want := readReport(t, ref)

	out := t.TempDir()
	catalogPath := filepath.Join(out, "catalog.db")
	c := startCLI(t, "--demo", "--out", out, "--progress", "plain", "-v", "--parallel", "1")
	c.waitLine(t, " started: ")
	// Frozen, the first run holds the catalog for as long as the test needs.
	resume := c.stop(t)
	pid := c.cmd.Process.Pid
	info, err := runlock.Read(catalogPath + ".lock")
	if err != nil {
		t.Fatalf("the first run's lock file: %v", err)
	}
	if info.PID != pid {
		t.Errorf("the lock file names pid %d, want the first run's %d", info.PID, pid)
	}

	holder := fmt.Sprintf("another discover run (pid %d, started %s on ", pid, info.Started.Format(time.RFC3339))
	for _, args := range [][]string{
		{"--demo", "--out", out, "--progress", "plain"},
		{"--demo", "--out", out, "--resume"},
	} {
		res := run(t, args...)
		if res.code != exitUsage {
			t.Errorf("%q while another run writes: exit %d, want %d\nstderr:\n%s", args, res.code, exitUsage, res.stderr)
		}
		for _, want := range []string{"--out " + out + ": ", holder, "is writing to " + catalogPath,
			"wait for it to finish or give another --out"} {
			if !strings.Contains(res.stderr, want) {
				t.Errorf("%q: stderr does not say %q:\n%s", args, want, res.stderr)
			}
		}
	}
	if again, err := runlock.Read(catalogPath + ".lock"); err != nil || again.PID != pid {
		t.Errorf("after the refused runs the lock file says %+v, %v; want the first run's pid %d", again, err, pid)
	}

	resume()
	if code, log := c.wait(t); code != 0 {
		t.Fatalf("the first run: exit %d\n%s", code, log)
	}
	_, got := readReport(t, out)
	for _, f := range []struct {
		what      string
		got, want int64
	}{
		{"tables", int64(len(got.Tables)), int64(len(want.Tables))},
		{"relationships", int64(len(got.Relationships)), int64(len(want.Relationships))},
		{"hypotheses", int64(len(got.Hypotheses)), int64(len(want.Hypotheses))},
		{"run.iterations", int64(got.Run.Iterations), int64(want.Run.Iterations)},
		{"run.queries", got.Run.Queries, want.Run.Queries},
	} {
		if f.got != f.want {
			t.Errorf("the first run's report has %d %s, an undisturbed run's %d", f.got, f.what, f.want)
		}
	}
	if len(want.Tables) != 13 {
		t.Errorf("the demo run has %d tables, want 13", len(want.Tables))
	}
	if _, err := os.Lstat(catalogPath + ".lock"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the lock file is left after the run: %v", err)
	}
}

// TestStaleLockTakenOver: a lock file of a process that has ended holds no
// lock, and does not stop a run.
func TestStaleLockTakenOver(t *testing.T) {
	if heavy.Race {
		t.Skip("a whole demo run, over a minute under the race detector: the plain pass of .ci/run runs it")
	}
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	lock := filepath.Join(out, "catalog.db.lock")
	stale := fmt.Sprintf(`{"pid":%d,"started":"2020-01-02T03:04:05Z","host":"gone","command":["discover","--demo","--out",%q]}`,
		dead.Process.Pid, out)
	if err := os.WriteFile(lock, []byte(stale+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := run(t, "--demo", "--out", out, "--progress", "none")
	if res.code != 0 {
		t.Fatalf("a run beside a stale lock file: exit %d\nstderr:\n%s", res.code, res.stderr)
	}
	if _, r := readReport(t, out); len(r.Tables) != 13 {
		t.Errorf("the report has %d tables, want the demo's 13", len(r.Tables))
	}
	if _, err := os.Lstat(lock); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the taken-over lock file is left after the run: %v", err)
	}
}

// TestLockFileNotAFile: a symbolic link where the lock file goes is bad
// input, refused before anything is opened or written.
func TestLockFileNotAFile(t *testing.T) {
	out := t.TempDir()
	target := filepath.Join(t.TempDir(), "elsewhere")
	lock := filepath.Join(out, "catalog.db.lock")
	if err := os.Symlink(target, lock); err != nil {
		t.Fatal(err)
	}
	res := run(t, "--demo", "--out", out, "--progress", "none")
	if res.code != exitUsage {
		t.Errorf("a symbolic link as lock file: exit %d, want %d\nstderr:\n%s", res.code, exitUsage, res.stderr)
	}
	if !strings.Contains(res.stderr, lock) || !strings.Contains(res.stderr, "symbolic link") {
		t.Errorf("stderr does not name %s as a symbolic link:\n%s", lock, res.stderr)
	}
	for _, p := range []string{target, filepath.Join(out, "catalog.db")} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s was created: %v", p, err)
		}
	}
}
