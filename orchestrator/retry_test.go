package orchestrator

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
)

// attempts records when each attempt of a task started and ended.
type attempts struct {
	mu         sync.Mutex
	start, end []time.Time
}

func (a *attempts) begin() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.start = append(a.start, time.Now())
	return len(a.start)
}

func (a *attempts) done() {
	a.mu.Lock()
	a.end = append(a.end, time.Now())
	a.mu.Unlock()
}

func (a *attempts) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.start)
}

// gaps are the pauses between the end of each attempt and the start of
// the next.
func (a *attempts) gaps() []time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []time.Duration
	for i := 1; i < len(a.start); i++ {
		out = append(out, a.start[i].Sub(a.end[i-1]))
	}
	return out
}

// flaky is an expert with one task, "fake/flaky", that fails its first
// fails attempts (every one when fails < 0) and then succeeds; it is
// planned until it succeeds.
func flaky(a *attempts, fails int) *fakeExpert {
	var mu sync.Mutex
	ok := false
	return &fakeExpert{name: "fake", plan: func(context.Context, *experts.Env) []experts.Task {
		mu.Lock()
		defer mu.Unlock()
		if ok {
			return nil
		}
		return []experts.Task{{Expert: "fake", Name: "flaky", Run: func(context.Context) error {
			n := a.begin()
			defer a.done()
			if fails < 0 || n <= fails {
				return errors.New("boom")
			}
			mu.Lock()
			ok = true
			mu.Unlock()
			return nil
		}}}
	}}
}

func givenUp(t *testing.T, cat *catalog.Catalog) bool {
	t.Helper()
	_, err := cat.Get(context.Background(), catalog.KindUncertainty, "failed:fake:flaky")
	return err == nil
}

func TestRetryBackoff(t *testing.T) {
	for n, want := range map[int]time.Duration{1: 250 * time.Millisecond, 2: time.Second, 3: 3 * time.Second, 4: 3 * time.Second, 40: 3 * time.Second} {
		if got := retryBackoff(n); got != want {
			t.Errorf("retryBackoff(%d) = %s, want %s", n, got, want)
		}
	}
}

// TestFailedTaskIsRetriedAfterAPause: a task that fails once runs again in
// the next round, not at once but after the backoff, and then succeeds; its
// failure is in the saved state, and nothing is given up.
func TestFailedTaskIsRetriedAfterAPause(t *testing.T) {
	var a attempts
	run, cat, evs := runWith(t, cfg(), flaky(&a, 1))
	if a.count() != 2 {
		t.Fatalf("the task ran %d times, want 2", a.count())
	}
	if gap := a.gaps()[0]; gap < retryBackoff(1) {
		t.Errorf("the retry started %s after the failure, before the %s backoff", gap, retryBackoff(1))
	} else {
		t.Logf("retried %s after the failure", gap)
	}
	if givenUp(t, cat) {
		t.Error("a task that succeeded on its retry was given up")
	}
	if s := state(t, cat, run.ID); s.Failures["fake/flaky"] != 1 {
		t.Errorf("saved failures %v, want fake/flaky: 1", s.Failures)
	}
	failed, done := 0, 0
	for _, e := range evs {
		switch {
		case e.Kind == EventTaskFailed && e.Task == "flaky":
			failed++
		case e.Kind == EventTaskDone && e.Task == "flaky":
			done++
		}
	}
	if failed != 1 || done != 1 {
		t.Errorf("%d failed and %d done events, want 1 and 1", failed, done)
	}
}

// TestTaskGivenUpAfterMaxFailures: a task that keeps failing runs
// MaxTaskFailures times, each retry after a longer pause, and is then given
// up with an uncertainty.
func TestTaskGivenUpAfterMaxFailures(t *testing.T) {
	var a attempts
	c := cfg()
	c.MaxTaskFailures = 3
	run, cat, _ := runWith(t, c, flaky(&a, -1))
	if a.count() != 3 {
		t.Fatalf("the task ran %d times, want 3 (MaxTaskFailures)", a.count())
	}
	for i, gap := range a.gaps() {
		if want := retryBackoff(i + 1); gap < want {
			t.Errorf("retry %d started %s after the failure, before the %s backoff", i+1, gap, want)
		}
	}
	if !givenUp(t, cat) {
		t.Error("no uncertainty for the task given up")
	}
	if s := state(t, cat, run.ID); s.Failures["fake/flaky"] != 3 {
		t.Errorf("saved failures %v, want fake/flaky: 3", s.Failures)
	}
}

// TestFailuresSurviveResume: a run interrupted after its task failed once
// saves the failure; resumed, the task gets only the one attempt it had
// left (after the backoff), and is then given up. A state without failures
// (a catalog written before they were saved) loads as none.
func TestFailuresSurviveResume(t *testing.T) {
	cat, run := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var a attempts
	x := flaky(&a, -1)
	ch := make(chan Event)
	go func() {
		for e := range ch {
			if e.Kind == EventTaskFailed {
				cancel() // ^C right after the first failure
			}
		}
	}()
	o := &Orchestrator{Source: &fakeSource{tables: oneTable()}, Catalog: cat, Experts: []experts.Expert{x}, Config: cfg(), Events: ch}
	_, err := o.Run(ctx, run)
	close(ch)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first attempt: err %v, want context.Canceled", err)
	}
	if a.count() != 1 || givenUp(t, cat) {
		t.Fatalf("first attempt: %d runs, given up %v", a.count(), givenUp(t, cat))
	}
	if s := state(t, cat, run.ID); s.Failures["fake/flaky"] != 1 {
		t.Fatalf("saved failures %v, want fake/flaky: 1", s.Failures)
	}

	// Resumed as --resume does: the newest unfinished run, state and all.
	resumed, err := cat.LatestRun(context.Background(), true)
	if err != nil || resumed.ID != run.ID {
		t.Fatalf("no unfinished run to resume: %v", err)
	}
	start := time.Now()
	got, _, _ := runOn(t, context.Background(), cat, resumed, cfg(), x)
	if a.count() != 2 {
		t.Fatalf("the task ran %d times over both attempts, want 2 (MaxTaskFailures): the resumed run forgot its failure", a.count())
	}
	if wait := a.start[1].Sub(start); wait < retryBackoff(1) {
		t.Errorf("the resumed run retried the task after %s, before the %s backoff", wait, retryBackoff(1))
	}
	if !givenUp(t, cat) {
		t.Error("no uncertainty for the task given up after the resume")
	}
	if s := state(t, cat, got.ID); s.Failures["fake/flaky"] != 2 {
		t.Errorf("saved failures %v, want fake/flaky: 2", s.Failures)
	}

	// An old state, without failures.
	cat2, run2 := setup(t)
	run2.State = []byte(`{"iteration":1,"phase":1,"queries":3,"contributions":{},"new_insights":[1]}`)
	var b attempts
	runOn(t, context.Background(), cat2, run2, cfg(), flaky(&b, -1))
	if b.count() != 2 {
		t.Errorf("resumed from a state without failures, the task ran %d times, want 2", b.count())
	}
}
