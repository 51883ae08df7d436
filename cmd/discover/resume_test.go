package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/hypotheses"
)

// killAfterEnv makes a CLI child (DISCOVER_TEST_AS_CLI=1) kill itself with
// SIGKILL right after its k-th committed catalog write: a crash at an exact,
// repeatable point, mid-task as often as between tasks. Only the test binary
// reads it; the discover binary has no such switch.
const killAfterEnv = "DISCOVER_TEST_KILL_AFTER_WRITES"

func init() {
	if os.Getenv("DISCOVER_TEST_AS_CLI") != "1" {
		return
	}
	k, err := strconv.ParseInt(os.Getenv(killAfterEnv), 10, 64)
	if err != nil || k < 1 {
		return
	}
	var n atomic.Int64
	catalog.AfterWrite = func(string, string) {
		if n.Add(1) == k {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // never return into the run: the signal is on its way
		}
	}
}

// taskLine matches the plain progress lines of a task starting or done
// (orchestrator.PlainWriter with -v).
var taskLine = regexp.MustCompile(`^\d\d:\d\d:\d\d   (\S+)\s+(start|done ) (.+)$`)

// taskLog is what a run's -v plain progress says about its tasks.
type taskLog struct {
	started, done map[string]bool // "expert: task"
	lastIteration string          // the last "iteration N phase P" line, or "finishing" after the last iteration
}

func parseTasks(log string) taskLog {
	tl := taskLog{started: map[string]bool{}, done: map[string]bool{}}
	for _, line := range strings.Split(log, "\n") {
		if m := taskLine.FindStringSubmatch(line); m != nil {
			task := m[3]
			if m[2] == "done " {
				if i := strings.LastIndex(task, " ("); i >= 0 {
					task = task[:i]
				}
				tl.done[m[1]+": "+task] = true
			} else {
				tl.started[m[1]+": "+task] = true
			}
			continue
		}
		if i := strings.Index(line, " iteration "); i >= 0 {
			rest := line[i+1:]
			switch {
			case strings.Contains(rest, " phase "):
				tl.lastIteration = rest[:strings.Index(rest, ":")]
			case strings.Contains(rest, " done: "):
				tl.lastIteration = rest[:strings.Index(rest, ":")] + " (finishing)"
			}
		}
	}
	return tl
}

// comparable is the part of a report that must not depend on whether the
// run was interrupted: what the database is (tables with their columns'
// statistics, relationships) and what was concluded from it. Run ids,
// times, query counts and timings inside evidence are left out.
type comparable struct {
	Tables        any `json:"tables"`
	Relationships any `json:"relationships"`
	Patterns      any `json:"patterns"`
	Domain        any `json:"domain"`
}

func reportFindings(t *testing.T, dir string) (comparable, map[string]any) {
	t.Helper()
	raw, _ := readReport(t, dir)
	b, _ := json.Marshal(raw)
	var c comparable
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c, raw
}

// TestResumeAfterKills (issue 9, "Resume"): a real discover process is
// killed with SIGKILL right after its k-th catalog write, then --resume
// finishes the run. The kill points cover the whole run: landmarks found in
// an uninterrupted run's sequence of writes (early; in the middle of an
// inventory, a profile, a classification and a relationship test; between
// the iterations; while the run finishes; once it is marked finished but
// before the report is written), at --parallel 1 where that
// sequence is repeatable, and points drawn at random at --parallel 4 (two
// in the normal suite, ten with DISCOVER_LONG_TESTS=1; the seed is logged
// and DISCOVER_RESUME_SEED=N replays it). Each resumed run
//   - starts no task the killed process had reported done: finished work is
//     not redone;
//   - ends with a report whose tables (with every column's statistics),
//     relationships, patterns and domain equal the uninterrupted run's.
//
// Tasks the killed process had started but --resume did not run again, and
// tasks --resume ran that the uninterrupted run did not need, are logged.
func TestResumeAfterKills(t *testing.T) {
	dataset := "sakila/sakila.db"
	if raceEnabled {
		// A sakila run takes ~30 s under the race detector; chinook's a
		// quarter of that.
		dataset = "chinook/Chinook_Sqlite.sqlite"
	}
	db := copyDataset(t, dataset)
	args := []string{"--db", db, "--progress", "plain", "-v", "--format", "json"}

	// The uninterrupted run, recording its catalog writes in order. No test
	// of this package runs in parallel with another, so the hook is ours.
	var mu sync.Mutex
	var writes []string // "kind key"
	catalog.AfterWrite = func(kind, key string) {
		mu.Lock()
		writes = append(writes, kind+" "+key)
		mu.Unlock()
	}
	base := t.TempDir()
	res := run(t, append(args, "--out", base, "--parallel", "1")...)
	catalog.AfterWrite = nil
	if res.code != 0 {
		t.Fatalf("uninterrupted run: exit %d\n%s", res.code, res.stderr)
	}
	want, _ := reportFindings(t, base)
	baseTasks := parseTasks(res.stderr)
	total := int64(len(writes))
	if total < 100 || len(baseTasks.started) < 20 || len(baseTasks.done) != len(baseTasks.started) {
		t.Fatalf("uninterrupted run: %d catalog writes, %d tasks started, %d done", total, len(baseTasks.started), len(baseTasks.done))
	}

	type point struct {
		what     string
		k        int64 // kill right after the k-th write (1-based)
		parallel int
	}
	kindAt := func(i int) string { return strings.SplitN(writes[i], " ", 2)[0] }
	// fromTable is the referencing table of a relationship write.
	fromTable := func(i int) string {
		key := strings.SplitN(writes[i], " ", 2)[1]
		return key[:strings.IndexByte(key, '(')]
	}
	firstState := len(writes) // the end of the first iteration
	for i := 1; i < len(writes); i++ {
		if kindAt(i) == catalog.WriteRun {
			firstState = i
			break
		}
	}
	landmark := func(what string, match func(i int) bool) point {
		for i := 1; i < len(writes)-1; i++ {
			if match(i) {
				return point{what + " (" + writes[i] + ")", int64(i + 1), 1}
			}
		}
		t.Fatalf("no write in the uninterrupted run is %s", what)
		return point{}
	}
	points := []point{
		{"early", 3, 1},
		landmark("an inventory, between two of its table's declared keys", func(i int) bool {
			if kindAt(i) != catalog.KindRelationship || i > firstState {
				return false
			}
			for j := i + 1; j < len(writes) && j <= i+3; j++ {
				if kindAt(j) == catalog.KindRelationship && fromTable(j) == fromTable(i) {
					return true
				}
			}
			return false
		}),
		landmark("a profile, after its first column", func(i int) bool { return kindAt(i) == catalog.KindProfile }),
		landmark("between iterations", func(i int) bool { return kindAt(i) == catalog.WriteRun }),
		landmark("a classification, after its first column", func(i int) bool { return kindAt(i) == catalog.KindSemantic }),
		landmark("a relationship test, after its verdict", func(i int) bool {
			return kindAt(i) == catalog.KindHypothesis && kindAt(i+1) == catalog.KindRelationship
		}),
		// The inference writes each reference it keeps as a pair, its
		// ledger entry and the relationship: killed between the two, the
		// resumed run must not leave the query expert's test and the
		// redone inference racing to write the relationship.
		landmark("the inference, between the two writes of its first kept reference", func(i int) bool {
			if i <= firstState {
				return false
			}
			pair := [2]string{writes[i], writes[i+1]}
			for _, w := range [][2]string{pair, {pair[1], pair[0]}} {
				rel, hyp := strings.CutPrefix(w[0], catalog.KindRelationship+" ")
				h, isHyp := strings.CutPrefix(w[1], catalog.KindHypothesis+" ")
				if hyp && isHyp && h == hypotheses.ID("ref", rel) {
					return true
				}
			}
			return false
		}),
		{"finishing (" + writes[total-2] + ")", total - 1, 1},
		// The last write marks the run finished; the process dies before
		// it writes the report, which --resume must still produce.
		{"after the run was marked finished, before the report", total, 1},
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("DISCOVER_RESUME_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	rng := rand.New(rand.NewPCG(seed, 9))
	random := 2
	if os.Getenv("DISCOVER_LONG_TESTS") == "1" {
		random = 10
	}
	for range random {
		points = append(points, point{"at random", 2 + rng.Int64N(total-3), 4})
	}
	if raceEnabled {
		// Each run is ~10x slower under the race detector: keep a kill in
		// the middle of a task and one between the iterations.
		points = []point{points[1], points[3]}
	}
	t.Logf("the uninterrupted run made %d catalog writes and ran %d tasks; random points from seed %d (DISCOVER_RESUME_SEED replays them)",
		total, len(baseTasks.started), seed)

	for _, p := range points {
		t.Run(fmt.Sprintf("kill_after_write_%d", p.k), func(t *testing.T) {
			out := t.TempDir()
			killed := killedRun(t, p.k, append(args, "--out", out, "--parallel", strconv.Itoa(p.parallel)))
			t.Logf("killed %s after write %d of %d, at %q, with %d tasks done", p.what, p.k, total, killed.lastIteration, len(killed.done))

			catPath := filepath.Join(out, "catalog.db")
			checkIntegrity(t, catPath)
			ctx := context.Background()
			cat, err := catalog.Open(ctx, catPath)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := cat.LatestRun(ctx, false)
			cat.Close()
			if err != nil {
				t.Fatalf("the killed run is not recorded: %v", err)
			}
			if p.k < total && rec.FinishedAt != nil {
				t.Fatalf("the run killed after write %d of %d is recorded as finished", p.k, total)
			}

			res := run(t, append(args, "--out", out, "--resume")...)
			if res.code != 0 {
				if p.k == total {
					t.Fatalf("the run was killed after its last catalog write (marked finished) and before its report: "+
						"--resume must write the report, but exits %d: %s", res.code, res.stderr)
				}
				t.Fatalf("--resume: exit %d\n%s", res.code, res.stderr)
			}
			resumed := parseTasks(res.stderr)
			var redone, extra, dropped []string
			for task := range resumed.started {
				if killed.done[task] {
					redone = append(redone, task)
				}
				if !baseTasks.started[task] {
					extra = append(extra, task)
				}
			}
			for task := range killed.started {
				if !killed.done[task] && !resumed.done[task] {
					dropped = append(dropped, task)
				}
			}
			sort.Strings(redone)
			sort.Strings(extra)
			sort.Strings(dropped)
			if len(redone) > 0 {
				t.Errorf("--resume redid %d tasks the killed process had finished: %s", len(redone), strings.Join(redone, "; "))
			}
			if len(extra) > 0 {
				t.Logf("--resume ran %d tasks the uninterrupted run did not: %s", len(extra), strings.Join(extra, "; "))
			}
			if len(dropped) > 0 {
				t.Logf("%d tasks cut short by the kill were not run again (the planner took them for done): %s", len(dropped), strings.Join(dropped, "; "))
			}

			got, raw := reportFindings(t, out)
			if id := raw["run"].(map[string]any)["id"]; id != rec.ID {
				t.Errorf("report of run %v, want the resumed run %s", id, rec.ID)
			}
			compareFindings(t, want, got)
		})
	}
}

// killedRun runs the CLI as a child that kills itself after its k-th
// catalog write, and returns what its progress said it had done.
func killedRun(t *testing.T, k int64, args []string) taskLog {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DISCOVER_TEST_AS_CLI=1", fmt.Sprintf("%s=%d", killAfterEnv, k))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	sc := bufio.NewScanner(stderr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
	}
	err = cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed after write %d: %v\n%s", k, err, log.String())
	}
	return parseTasks(log.String())
}

// compareFindings reports every difference between two reports' findings,
// by table, column and relationship, rather than one unreadable blob.
func compareFindings(t *testing.T, want, got comparable) {
	t.Helper()
	index := func(v any, key func(map[string]any) string) map[string]any {
		m := map[string]any{}
		list, _ := v.([]any)
		for _, x := range list {
			o := x.(map[string]any)
			m[key(o)] = o
		}
		return m
	}
	tableKey := func(o map[string]any) string { return fmt.Sprint(o["name"]) }
	relKey := func(o map[string]any) string {
		return fmt.Sprint(o["from_table"], o["from_columns"], "->", o["to_table"], o["to_columns"])
	}
	diff := func(what string, w, g map[string]any) {
		for k, wv := range w {
			gv, ok := g[k]
			switch {
			case !ok:
				t.Errorf("%s %s: missing after resume", what, k)
			case !reflect.DeepEqual(wv, gv):
				wb, _ := json.Marshal(wv)
				gb, _ := json.Marshal(gv)
				t.Errorf("%s %s differs:\nuninterrupted %s\nresumed       %s", what, k, wb, gb)
			}
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				t.Errorf("%s %s: only after resume", what, k)
			}
		}
	}
	diff("table", index(want.Tables, tableKey), index(got.Tables, tableKey))
	diff("relationship", index(want.Relationships, relKey), index(got.Relationships, relKey))
	if !reflect.DeepEqual(want.Patterns, got.Patterns) {
		t.Errorf("patterns differ:\nuninterrupted %v\nresumed       %v", want.Patterns, got.Patterns)
	}
	if !reflect.DeepEqual(want.Domain, got.Domain) {
		t.Errorf("domain differs:\nuninterrupted %v\nresumed       %v", want.Domain, got.Domain)
	}
}
