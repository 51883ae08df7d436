package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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
	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/redact"
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
	if heavy.Race {
		// A sakila run takes ~30 s under the race detector; chinook's a
		// quarter of that.
		dataset = "chinook/Chinook_Sqlite.sqlite"
	}
	db := copyDataset(t, dataset)
	// Sakila's two views that do not compile would make every run
	// incomplete (exit 4): this test is about what a resumed run finds.
	args := []string{"--db", db, "--progress", "plain", "-v", "--format", "json",
		"--exclude", "actor_info", "--exclude", "nicer_but_slower_film_list"}

	// The uninterrupted run, recording its catalog writes in order.
	base := t.TempDir()
	recorded := recordWrites(t, filepath.Join(base, "catalog.db"))
	res := run(t, append(args, "--out", base, "--parallel", "1")...)
	ws := recorded()
	if res.code != 0 {
		t.Fatalf("uninterrupted run: exit %d\n%s", res.code, res.stderr)
	}
	writes := make([]string, len(ws)) // "kind key"
	for i, w := range ws {
		writes[i] = w.kind + " " + w.key
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
	firstState := roundEnd(ws, 1) // the end of the first iteration
	if firstState < 0 {
		t.Fatal("the uninterrupted run never saved the end of its first iteration")
	}
	landmark := func(what string, match func(i int) bool) point {
		for i := 1; i < len(writes)-1; i++ {
			if match(i) {
				return point{what + " (" + writes[i] + ")", int64(i + 1), 1}
			}
		}
		for i, w := range writes {
			t.Logf("%d %s", i, w)
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
		landmark("between iterations", func(i int) bool { return i == firstState }),
		landmark("a classification, after its first column", func(i int) bool { return kindAt(i) == catalog.KindSemantic }),
		// The query expert's test writes the relationship with its
		// verdict first, then the ledger entry: killed between the two.
		landmark("a relationship test, after its verdict", func(i int) bool {
			rel, ok := strings.CutPrefix(writes[i], catalog.KindRelationship+" ")
			return ok && i > firstState && writes[i+1] == catalog.KindHypothesis+" "+hypotheses.ID("ref", rel)
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
	if heavy.Long() {
		random = 10
	}
	for range random {
		points = append(points, point{"at random", 2 + rng.Int64N(total-3), 4})
	}
	if heavy.Race {
		// Each run is ~10x slower under the race detector: keep a kill in
		// the middle of a task and one between the iterations.
		points = []point{points[1], points[3]}
	}
	t.Logf("the uninterrupted run made %d catalog writes and ran %d tasks; random points from seed %d (DISCOVER_RESUME_SEED replays them)",
		total, len(baseTasks.started), seed)

	for _, p := range points {
		t.Run(fmt.Sprintf("kill_after_write_%d", p.k), func(t *testing.T) {
			out := t.TempDir()
			killed, _ := killedRun(t, p.k, append(args, "--out", out, "--parallel", strconv.Itoa(p.parallel)))
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
// catalog write, and returns what its progress said it had done, and the
// progress itself.
func killedRun(t *testing.T, k int64, args []string) (taskLog, string) {
	t.Helper()
	forgetKeysAtCleanup(t, args)
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
	return parseTasks(log.String()), log.String()
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

// write is one committed catalog write: its kind and key and, for a write
// of the run record (catalog.WriteRun), the loop state it saved.
type write struct {
	kind, key string
	state     catalog.LoopState
}

// recordWrites records the catalog writes of the in-process runs, in order,
// until the function it returns is called, which returns them. The run
// record's state is read back from catPath after each of its writes. No
// test of this package runs in parallel with another, so the hook is ours.
func recordWrites(t *testing.T, catPath string) func() []write {
	t.Helper()
	var mu sync.Mutex
	var writes []write
	var db *sql.DB
	catalog.AfterWrite = func(kind, key string) {
		mu.Lock()
		defer mu.Unlock()
		w := write{kind: kind, key: key}
		if kind == catalog.WriteRun {
			if db == nil {
				var err error
				if db, err = sql.Open("sqlite", "file:"+catPath+"?mode=ro"); err != nil {
					t.Errorf("read the run's state: %v", err)
				}
			}
			var state sql.NullString
			if err := db.QueryRow(`SELECT state FROM runs WHERE id = ?`, key).Scan(&state); err != nil {
				t.Errorf("read the run's state after write %d: %v", len(writes)+1, err)
			} else if state.Valid && state.String != "null" {
				if err := json.Unmarshal([]byte(state.String), &w.state); err != nil {
					t.Errorf("run state after write %d: %v", len(writes)+1, err)
				}
			}
		}
		writes = append(writes, w)
	}
	return func() []write {
		catalog.AfterWrite = nil
		mu.Lock()
		defer mu.Unlock()
		if db != nil {
			db.Close()
		}
		return writes
	}
}

// roundEnd is the index of the write that saved the end of iteration it:
// the last write of the run record at that iteration (the round's tasks
// save it as they start and end, the round's end once more, and the next
// round's first task at the next iteration). -1 when there is none.
func roundEnd(ws []write, it int) int {
	end := -1
	for i, w := range ws {
		if w.kind == catalog.WriteRun && w.state.Iteration == it {
			end = i
		}
	}
	return end
}

// demoBaseline is an uninterrupted run of the demo at --parallel 1, made
// once for the tests that interrupt one: its findings, its hypotheses and
// its catalog writes in order.
type demoBaseline struct {
	findings   comparable
	hypotheses []any
	writes     []write
}

var demoBase struct {
	sync.Mutex
	run *demoBaseline
}

func uninterruptedDemo(t *testing.T) *demoBaseline {
	t.Helper()
	demoBase.Lock()
	defer demoBase.Unlock()
	if demoBase.run != nil {
		return demoBase.run
	}
	out := t.TempDir()
	recorded := recordWrites(t, filepath.Join(out, "catalog.db"))
	res := run(t, "--demo", "--out", out, "--parallel", "1", "--progress", "plain", "--format", "json")
	ws := recorded()
	if res.code != 0 {
		t.Fatalf("uninterrupted demo run: exit %d\n%s", res.code, res.stderr)
	}
	findings, raw := reportFindings(t, out)
	hyps, _ := raw["hypotheses"].([]any)
	if roundEnd(ws, 2) < 0 || len(hyps) == 0 {
		t.Fatalf("the uninterrupted demo run ended before its second iteration, or found no hypothesis:\n%s", res.stderr)
	}
	demoBase.run = &demoBaseline{findings: findings, hypotheses: hyps, writes: ws}
	return demoBase.run
}

// compareHypotheses reports every hypothesis that differs between two
// reports, by id.
func compareHypotheses(t *testing.T, want, got []any) {
	t.Helper()
	index := func(list []any) map[string]string {
		m := map[string]string{}
		for _, h := range list {
			b, _ := json.Marshal(h)
			m[fmt.Sprint(h.(map[string]any)["id"])] = string(b)
		}
		return m
	}
	w, g := index(want), index(got)
	for id, wh := range w {
		if gh, ok := g[id]; !ok {
			t.Errorf("hypothesis %s: missing after resume", id)
		} else if gh != wh {
			t.Errorf("hypothesis %s differs:\nuninterrupted %s\nresumed       %s", id, wh, gh)
		}
	}
	for id := range g {
		if _, ok := w[id]; !ok {
			t.Errorf("hypothesis %s: only after resume", id)
		}
	}
}

// Plain progress lines that carry the run's counts.
var (
	resumedLine   = regexp.MustCompile(`^\d\d:\d\d:\d\d run \S+ started: .*; resumed after iteration (\d+), (\d+) queries so far$`)
	roundDoneLine = regexp.MustCompile(`^\d\d:\d\d:\d\d iteration (\d+) done: `)
	stoppedLine   = regexp.MustCompile(`^\d\d:\d\d:\d\d run \S+ stopped \((\S+)\) after (\d+) iterations: .*, (\d+) queries$`)
)

// attemptCounts is what one attempt's plain progress says about the run's
// counts; every figure is the run's, earlier attempts included.
type attemptCounts struct {
	resumed                bool
	fromRound              int    // "resumed after iteration N": the rounds of earlier attempts
	fromQueries            int64  // and their queries
	rounds                 []int  // the iterations this attempt ended, in order
	stop                   string // the stop reason, "" when the process was killed
	stopRounds             int
	stopQueries            int64
	tasksAfterLastRoundEnd int // tasks done after the last "iteration N done"
}

func parseCounts(t *testing.T, log string) attemptCounts {
	t.Helper()
	var c attemptCounts
	num := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return n
	}
	for _, line := range strings.Split(log, "\n") {
		if m := resumedLine.FindStringSubmatch(line); m != nil {
			c.resumed, c.fromRound, c.fromQueries = true, int(num(m[1])), num(m[2])
		} else if m := roundDoneLine.FindStringSubmatch(line); m != nil {
			c.rounds = append(c.rounds, int(num(m[1])))
			c.tasksAfterLastRoundEnd = 0
		} else if m := stoppedLine.FindStringSubmatch(line); m != nil {
			c.stop, c.stopRounds, c.stopQueries = m[1], int(num(m[2])), num(m[3])
		} else if m := taskLine.FindStringSubmatch(line); m != nil && m[2] == "done " {
			c.tasksAfterLastRoundEnd++
		}
	}
	return c
}

// savedCounts reads the run's iteration and query counts from its catalog,
// between two attempts, and checks the run is left for --resume.
func savedCounts(t *testing.T, catPath string) (catalog.Run, catalog.LoopState) {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.Open(ctx, catPath)
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	rec, err := cat.LatestRun(ctx, true)
	if err != nil {
		t.Fatalf("no unfinished run to resume in %s: %v", catPath, err)
	}
	var s catalog.LoopState
	if len(rec.State) > 0 {
		if err := json.Unmarshal(rec.State, &s); err != nil {
			t.Fatalf("the run's saved state: %v", err)
		}
	}
	return rec, s
}

// resumeAndCheckCounts resumes the unfinished run in out, whose earlier
// attempts the catalog says ran iterations rounds with queries queries,
// and checks that the report counts the rounds and queries of every
// attempt and has the findings of an uninterrupted run.
func resumeAndCheckCounts(t *testing.T, out string, rec catalog.Run, before catalog.LoopState, want *demoBaseline) {
	t.Helper()
	res := run(t, "--demo", "--out", out, "--parallel", "1", "--progress", "plain", "--format", "json", "--resume")
	if res.code != 0 {
		t.Fatalf("--resume: exit %d\n%s", res.code, res.stderr)
	}
	c := parseCounts(t, res.stderr)
	if !c.resumed || c.fromRound != before.Iteration || c.fromQueries != before.Queries {
		t.Fatalf("the resumed attempt did not start from the saved %d iterations and %d queries:\n%s",
			before.Iteration, before.Queries, res.stderr)
	}
	if len(c.rounds) == 0 || c.rounds[0] != before.Iteration+1 || c.stopQueries <= c.fromQueries {
		t.Fatalf("the resumed attempt ran no round of its own after iteration %d, or sent no query:\n%s", before.Iteration, res.stderr)
	}
	own := c.stopQueries - c.fromQueries // the resumed attempt's queries
	got, raw := reportFindings(t, out)
	_, r := readReport(t, out)
	if r.Run.ID != rec.ID || r.Run.FinishedAt == nil {
		t.Fatalf("report of run %s, finished %v; want the resumed run %s, finished", r.Run.ID, r.Run.FinishedAt, rec.ID)
	}
	if wantIt := before.Iteration + len(c.rounds); r.Run.Iterations != wantIt || c.stopRounds != wantIt {
		t.Errorf("run.iterations %d (the last line says %d); want %d: %d before the resume and %d of the resumed attempt",
			r.Run.Iterations, c.stopRounds, wantIt, before.Iteration, len(c.rounds))
	}
	if wantQ := before.Queries + own; r.Run.Queries != wantQ {
		t.Errorf("run.queries %d; want %d: %d before the resume and %d of the resumed attempt", r.Run.Queries, wantQ, before.Queries, own)
	}
	compareFindings(t, want.findings, got)
	hyps, _ := raw["hypotheses"].([]any)
	compareHypotheses(t, want.hypotheses, hyps)
}

// TestResumeCountsEveryAttempt (issue 17): run.iterations and run.queries
// of a resumed run add up every attempt's, the interrupted or killed ones
// included as far as their catalog knows them: a round cut short counts
// when it ran a task, and the queries of the tasks it finished count.
//   - SIGINT in the second round: the interrupted attempt's last line gives
//     its rounds and queries, the catalog keeps exactly those, and --resume
//     adds its own;
//   - SIGKILL right after a task of the second round that sent queries
//     saved its progress: the catalog keeps the partial round and its
//     queries, more than the first round's end (the figures the
//     uninterrupted run had saved at that same write);
//   - SIGKILL right after the first round's end: the second round, never
//     begun, does not count.
func TestResumeCountsEveryAttempt(t *testing.T) {
	base := uninterruptedDemo(t)
	args := []string{"--demo", "--progress", "plain", "-v", "--format", "json", "--parallel", "1"}

	// Each run is ~10x slower under the race detector: there, only the kill
	// in the middle of a round, the case whose counts were lost.
	if !heavy.Race {
		t.Run("sigint", func(t *testing.T) {
			out := t.TempDir()
			log, code := interruptedRun(t, append(args, "--out", out), func(c attemptCounts) bool {
				// A task of the second round has finished.
				return len(c.rounds) == 1 && c.tasksAfterLastRoundEnd > 0
			})
			if code != exitSignal {
				t.Fatalf("exit %d after SIGINT, want %d\n%s", code, exitSignal, log)
			}
			first := parseCounts(t, log)
			rec, saved := savedCounts(t, filepath.Join(out, "catalog.db"))
			if first.stop != "interrupted" || first.stopRounds < 2 || saved.Iteration != first.stopRounds || saved.Queries != first.stopQueries {
				t.Fatalf("the catalog keeps %d iterations and %d queries; the interrupted attempt said %q after %d iterations and %d queries\n%s",
					saved.Iteration, saved.Queries, first.stop, first.stopRounds, first.stopQueries, log)
			}
			resumeAndCheckCounts(t, out, rec, saved, base)
		})
	}

	// Kill points in the uninterrupted run's writes (repeatable at --parallel 1).
	ws := base.writes
	end1, end2 := roundEnd(ws, 1), roundEnd(ws, 2)
	mid2 := -1 // a write of the run record before round 2's end, with more queries than round 1's
	for i := end1 + 1; end1 >= 0 && i < end2 && mid2 < 0; i++ {
		if ws[i].kind == catalog.WriteRun && ws[i].state.Iteration == 2 && ws[i].state.Queries > ws[end1].state.Queries {
			mid2 = i
		}
	}
	if end1 < 0 || mid2 < 0 {
		t.Fatalf("no kill point: round 1 ends at write %d, round 2 at write %d, and before its end no write saved round 2's queries", end1+1, end2+1)
	}
	for _, p := range []struct {
		name  string
		at    int // kill right after writes[at]
		round int // the rounds the killed attempt ran, as its catalog must say
	}{
		{"kill_in_round_2", mid2, 2},
		{"kill_after_round_1", end1, 1},
	} {
		if heavy.Race && p.at != mid2 {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			out := t.TempDir()
			// The killed process's last progress lines may not have reached
			// its stderr: the figures to expect are the uninterrupted run's
			// at the same write.
			_, log := killedRun(t, int64(p.at+1), append(args, "--out", out))
			rec, saved := savedCounts(t, filepath.Join(out, "catalog.db"))
			want := ws[p.at].state
			if saved.Iteration != p.round || saved.Iteration != want.Iteration || saved.Queries != want.Queries {
				t.Fatalf("killed after write %d: the catalog keeps %d iterations and %d queries, want %d and %d (the uninterrupted run's at that write)\n%s",
					p.at+1, saved.Iteration, saved.Queries, p.round, want.Queries, log)
			}
			resumeAndCheckCounts(t, out, rec, saved, base)
		})
	}
}

// interruptedRun runs the CLI as a child, sends it SIGINT once its progress
// so far satisfies ready, and returns its whole progress and exit code.
func interruptedRun(t *testing.T, args []string, ready func(attemptCounts) bool) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DISCOVER_TEST_AS_CLI=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	sent := false
	sc := bufio.NewScanner(stderr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if !sent && ready(parseCounts(t, log.String())) {
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			sent = true
		}
	}
	cmd.Wait()
	if !sent {
		t.Fatalf("the run ended before it could be interrupted:\n%s", log.String())
	}
	return log.String(), cmd.ProcessState.ExitCode()
}

// forgetKeysAtCleanup removes, when t ends, the sealing keys left of the
// runs of the catalog that args name (--catalog, or --out's catalog.db):
// a test that leaves a run unfinished on purpose (a kill it does not
// resume) leaves no key behind in the suite's cache (cachetest).
func forgetKeysAtCleanup(t *testing.T, args []string) {
	t.Helper()
	var out, cat string
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--out":
			out = args[i+1]
		case "--catalog":
			cat = args[i+1]
		}
	}
	if cat == "" {
		cat = filepath.Join(out, "catalog.db")
	}
	t.Cleanup(func() { forgetKeys(t, cat) })
}

// forgetKeys removes the sealing keys of the runs of the catalog at path,
// with the values and records beside them, as the user's clearing the
// cache or redact.Sweep would, and says how many keys it removed. Each key
// is found by the record beside it (package redact), which names its
// catalog.
func forgetKeys(t *testing.T, path string) int {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	records, _ := filepath.Glob(filepath.Join(redact.KeyDir(), "*.run"))
	n := 0
	for _, r := range records {
		b, err := os.ReadFile(r)
		var rec struct{ Catalog string }
		if err != nil || json.Unmarshal(b, &rec) != nil || rec.Catalog != abs {
			continue
		}
		key := strings.TrimSuffix(r, ".run")
		if _, err := os.Stat(key); err == nil {
			n++
		}
		for _, p := range []string{key + ".values", key, r} {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Error(err)
			}
		}
	}
	return n
}
