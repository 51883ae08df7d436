package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/heavy"
)

// tmuxTerm is a detached tmux session on a private server, running the test
// binary as the discover command on a real terminal.
type tmuxTerm struct {
	t      *testing.T
	sock   string
	rcFile string
}

func startTmux(t *testing.T, w, h int, args ...string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required in CI for the terminal view test")
		}
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	tt := &tmuxTerm{t: t, sock: filepath.Join(dir, "tmux.sock"), rcFile: filepath.Join(dir, "rc")}
	// The pane outlives the program so its last screen can be read; the exit
	// code goes to a file because the pane cannot report it.
	cmdline := shellQuote(os.Args[0])
	for _, a := range args {
		cmdline += " " + shellQuote(a)
	}
	cmdline += "; echo $? > " + shellQuote(tt.rcFile) + "; sleep 600"
	tt.tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h),
		"-e", "DISCOVER_TEST_AS_CLI=1", "-e", "XDG_CACHE_HOME="+os.Getenv("XDG_CACHE_HOME"), "-e", "TERM=xterm-256color",
		cmdline)
	t.Cleanup(func() { exec.Command("tmux", "-S", tt.sock, "kill-server").Run() })
	return tt
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (tt *tmuxTerm) tmux(args ...string) string {
	tt.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tt.sock}, args...)...).CombinedOutput()
	if err != nil {
		tt.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is what the pane shows now, wrapped lines joined so that a line
// wider than the pane shows as one long line.
func (tt *tmuxTerm) screen() string { return tt.tmux("capture-pane", "-p", "-J", "-t", "t") }

// waitFor polls the screen until ok accepts it.
func (tt *tmuxTerm) waitFor(what string, ok func(string) bool) string {
	tt.t.Helper()
	limit := time.Now().Add(90 * time.Second)
	if heavy.Race {
		limit = time.Now().Add(5 * time.Minute)
	}
	var s string
	for time.Now().Before(limit) {
		if s = tt.screen(); ok(s) {
			return s
		}
		time.Sleep(100 * time.Millisecond)
	}
	tt.t.Fatalf("the screen never showed %s:\n%s", what, s)
	return ""
}

// exitCode waits for the program to end.
func (tt *tmuxTerm) exitCode() string {
	tt.t.Helper()
	var rc string
	tt.waitFor("the program's end", func(string) bool {
		b, err := os.ReadFile(tt.rcFile)
		rc = strings.TrimSpace(string(b))
		return err == nil && rc != ""
	})
	return rc
}

func containsAll(s string, want ...string) bool {
	for _, w := range want {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

func checkWidth(t *testing.T, screen string, w int) {
	t.Helper()
	for i, l := range strings.Split(screen, "\n") {
		if n := len([]rune(strings.TrimRight(l, " "))); n > w {
			t.Errorf("line %d is %d wide on a %d-wide terminal: %q", i+1, n, w, l)
		}
	}
}

// TestTerminalViewStopsWithQ runs discover on the demo in an 80×24 tmux pane
// with the default --progress auto, checks the view while the experts work,
// resizes the pane, then presses q: the run is interrupted as SIGINT
// interrupts it in plain mode (stopsLikeCtrlC).
func TestTerminalViewStopsWithQ(t *testing.T) {
	out := t.TempDir()
	tt := startTmux(t, 80, 24, "--demo", "--out", out, "--parallel", "1")
	s := tt.waitFor("experts at work", func(s string) bool {
		return containsAll(s, "iteration 1", "confidence", "coverage", "statistical", "profile ")
	})
	t.Logf("80×24 while running:\n%s", s)
	if !containsAll(s, "structural", "░", "q or ctrl+c", "elapsed") {
		t.Errorf("the view lacks its bars, experts or help:\n%s", s)
	}
	checkWidth(t, s, 80)

	tt.tmux("resize-window", "-t", "t", "-x", "60", "-y", "20")
	s = tt.waitFor("the view redrawn for 60 columns", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "coverage") {
				// 60 columns leave room for a 28-cell bar.
				return strings.Count(l, "█")+strings.Count(l, "░") < 40
			}
		}
		return false
	})
	t.Logf("60×20 after the resize:\n%s", s)
	checkWidth(t, s, 60)

	stopsLikeCtrlC(t, tt, out, "q")
}

// TestTerminalViewStopsWithCtrlC: Ctrl+C in the terminal view, a key and not
// a signal on its raw terminal, interrupts the run as q does.
func TestTerminalViewStopsWithCtrlC(t *testing.T) {
	out := t.TempDir()
	tt := startTmux(t, 80, 24, "--demo", "--out", out, "--parallel", "1")
	tt.waitFor("experts at work", func(s string) bool { return containsAll(s, "iteration 1", "statistical", "profile ") })
	stopsLikeCtrlC(t, tt, out, "C-c")
}

// stopsLikeCtrlC presses key in the terminal view of a demo run into out
// and checks the run stops as SIGINT stops it in plain mode: exit 130, the
// same hint, no report, an unfinished run in the catalog; then --resume
// (plain mode) finishes it with the findings of an uninterrupted run, and
// counts the rounds and queries of both attempts. Under the race detector,
// where each run is ~10x slower, the resume is left to
// TestResumeCountsEveryAttempt.
func stopsLikeCtrlC(t *testing.T, tt *tmuxTerm, out, key string) {
	t.Helper()
	tt.tmux("send-keys", "-t", "t", key)
	if rc := tt.exitCode(); rc != strconv.Itoa(exitSignal) {
		t.Fatalf("exit code %s after %s, want %d\n%s", rc, key, exitSignal, tt.screen())
	}
	s := tt.tmux("capture-pane", "-p", "-J", "-t", "t", "-S", "-")
	t.Logf("after %s:\n%s", key, s)
	catPath := filepath.Join(out, "catalog.db")
	hint := fmt.Sprintf("discover: interrupted; the catalog %s keeps what was found: continue with --resume", catPath)
	if !containsAll(s, "stopped: interrupted after", hint) || strings.Contains(s, "deadline") {
		t.Errorf("the screen does not show the interruption and the hint %q:\n%s", hint, s)
	}
	if _, err := os.Stat(filepath.Join(out, "report.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an interrupted run wrote its report (%v)", err)
	}
	rec, saved := savedCounts(t, catPath)
	if saved.Iteration < 1 || saved.Queries == 0 {
		t.Fatalf("the interrupted run saved %d iterations and %d queries", saved.Iteration, saved.Queries)
	}
	if heavy.Race {
		// The run stays unfinished: its sealing key goes with the test, as
		// a test that leaves a run unfinished on purpose removes it
		// (cachetest); left, the next test's run swept it and said so
		// (TestTerminalViewToTheEnd's screen, too wide).
		forgetKeys(t, catPath)
		return
	}
	resumeAndCheckCounts(t, out, rec, saved, uninterruptedDemo(t))
}

// TestTerminalViewToTheEnd lets a run on the demo finish by itself under
// --progress tui and checks the last screen states why it stopped.
func TestTerminalViewToTheEnd(t *testing.T) {
	out := t.TempDir()
	// Four of the demo's tables: a whole run, finished by itself, in a
	// quarter of the time (a minute less under the race detector).
	tt := startTmux(t, 80, 24, "--demo", "--out", out, "--progress", "tui", "--format", "json",
		"--include", "orders", "--include", "customers", "--include", "order_items", "--include", "products")
	if rc := tt.exitCode(); rc != "0" {
		t.Fatalf("exit code %s\n%s", rc, tt.screen())
	}
	_, r := readReport(t, out)
	s := tt.tmux("capture-pane", "-p", "-J", "-t", "t", "-S", "-")
	t.Logf("the end:\n%s", s)
	if r.Run.StopReason == nil || !strings.Contains(s, "stopped: "+*r.Run.StopReason+" after") || strings.Contains(s, "interrupted") {
		t.Errorf("the screen does not show the report's stop reason %v:\n%s", r.Run.StopReason, s)
	}
	if !containsAll(s, "structural", "statistical", "semantic", "query", "latest", "found hypothesis") {
		t.Errorf("final view:\n%s", s)
	}
	checkWidth(t, s, 80)
}
