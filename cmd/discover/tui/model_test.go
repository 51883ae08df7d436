package tui

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/discover-db/discover/orchestrator"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func at(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

func testModel(stop func()) *model {
	return newModel(Options{
		Start: t0, Deadline: t0.Add(30 * time.Minute),
		TargetConfidence: 0.95, TargetCoverage: 0.9,
		Experts: []string{"structural", "statistical", "semantic", "query"},
		Stop:    stop,
	}, func() time.Time { return t0 })
}

func feed(m *model, events ...orchestrator.Event) {
	for _, e := range events {
		m.Update(eventMsg(e))
	}
}

// aRun is the start of a run: one finished iteration and a second under way.
func aRun() []orchestrator.Event {
	ev := []orchestrator.Event{
		{Time: at(0), Kind: orchestrator.EventRunStart, RunID: "r1", Message: `sqlite database "shop", 3 of 3 tables and views`},
		{Time: at(0), Kind: orchestrator.EventIterationStart, Iteration: 1, Phase: 1, Tasks: 9},
		{Time: at(0), Kind: orchestrator.EventStep, Iteration: 1, Phase: 1, Step: "execute", Tasks: 9},
	}
	for i, tb := range []string{"orders", "customers", "products"} {
		ev = append(ev,
			orchestrator.Event{Time: at(i), Kind: orchestrator.EventTaskStart, Iteration: 1, Expert: "structural", Task: "inventory " + tb},
			orchestrator.Event{Time: at(i), Kind: orchestrator.EventTaskDone, Iteration: 1, Expert: "structural", Task: "inventory " + tb, Elapsed: 3 * time.Millisecond},
		)
	}
	ev = append(ev,
		orchestrator.Event{Time: at(4), Kind: orchestrator.EventTaskStart, Iteration: 1, Expert: "statistical", Task: "profile orders"},
		orchestrator.Event{Time: at(5), Kind: orchestrator.EventTaskFailed, Iteration: 1, Expert: "statistical", Task: "profile orders", Err: "no such\ncolumn: x"},
		orchestrator.Event{Time: at(6), Kind: orchestrator.EventIterationDone, Iteration: 1, Phase: 1, NewInsights: 3, Confidence: 0.5, Coverage: 0.25, Queries: 17},
		orchestrator.Event{Time: at(7), Kind: orchestrator.EventIterationStart, Iteration: 2, Phase: 2, Tasks: 4},
		orchestrator.Event{Time: at(7), Kind: orchestrator.EventStep, Iteration: 2, Phase: 2, Step: "execute", Tasks: 4},
		orchestrator.Event{Time: at(8), Kind: orchestrator.EventTaskStart, Iteration: 2, Expert: "statistical", Task: "profile customers"},
		orchestrator.Event{Time: at(9), Kind: orchestrator.EventTaskStart, Iteration: 2, Expert: "statistical", Task: "profile products"},
		orchestrator.Event{Time: at(10), Kind: orchestrator.EventTaskStart, Iteration: 2, Expert: "semantic", Task: "semantics orders"},
	)
	return ev
}

// checkFits fails when the view would not fit a w×h terminal: every line at
// most w cells, and at most h-1 lines (the cursor rests on the last line).
func checkFits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h-1 {
		t.Errorf("%d lines for a %d-line terminal:\n%s", len(lines), h, view)
	}
	for i, l := range lines {
		if lw := lipgloss.Width(l); lw > w {
			t.Errorf("line %d is %d cells wide, terminal %d: %q", i+1, lw, w, l)
		}
	}
}

func TestViewShowsTheRun(t *testing.T) {
	m := testModel(nil)
	v := m.View()
	for _, want := range []string{"iteration", "waiting", "confidence", "coverage", "–", "structural", "query", "q or ctrl+c"} {
		if !strings.Contains(v, want) {
			t.Errorf("empty view lacks %q:\n%s", want, v)
		}
	}
	// No figure has been reported yet: the bars must not claim a zero.
	if strings.Contains(v, "0.00") || strings.Contains(v, "█") {
		t.Errorf("the view invents figures before any iteration ended:\n%s", v)
	}

	feed(m, aRun()...)
	v = m.View()
	t.Logf("80×24:\n%s", v)
	for _, want := range []string{
		"run r1", `sqlite database "shop"`,
		"iteration 2 · phase 2 · execute · 4 tasks planned",
		"0.50 / target 0.95", "0.25 / target 0.90",
		"queries 17 (to iteration 1)", "elapsed 0m10s of 30m00s",
		"statistical      0     1  2s   +1 more profile customers",
		"semantic         0     0  0s   semantics orders",
		"structural       3     0  idle",
		"tasks done inventory 3",
		"done    3ms inventory products",
		"FAIL profile orders: no such column: x",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	// Half of a bar is filled for a confidence of 0.50.
	for _, l := range strings.Split(v, "\n") {
		if strings.HasPrefix(l, "confidence") {
			full, empty := strings.Count(l, "█"), strings.Count(l, "░")
			if full == 0 || full-empty > 1 || empty-full > 1 {
				t.Errorf("confidence 0.50 drawn as %d full, %d empty: %q", full, empty, l)
			}
		}
	}
	checkFits(t, v, 80, 24)
}

func TestLatestScrolls(t *testing.T) {
	m := testModel(nil)
	feed(m, aRun()...)
	for i := 0; i < 20; i++ {
		task := fmt.Sprintf("test key t%02d", i)
		feed(m, orchestrator.Event{Time: at(20 + i), Kind: orchestrator.EventTaskStart, Expert: "query", Task: task},
			orchestrator.Event{Time: at(20 + i), Kind: orchestrator.EventTaskDone, Expert: "query", Task: task, Elapsed: time.Millisecond})
	}
	v := m.View()
	if strings.Contains(v, "key t13\n") || !strings.Contains(v, "key t14\n") || !strings.Contains(v, "key t19\n") {
		t.Errorf("want the last 6 finished tasks (t14..t19):\n%s", v)
	}
	if !strings.Contains(v, "query           20     0  idle") || !strings.Contains(v, "test 20 · inventory 3") {
		t.Errorf("counts:\n%s", v)
	}
	// Kinds that do not fit are left out whole.
	for i := 0; i < 12; i++ {
		kind := fmt.Sprintf("kind%02d", i)
		feed(m, orchestrator.Event{Time: at(50), Kind: orchestrator.EventTaskDone, Expert: "query", Task: kind + " x"})
	}
	kinds := lineStarting(m.View(), "tasks done")
	if !strings.Contains(kinds, "· kind00 1") || !strings.HasSuffix(kinds, " …") || strings.Contains(kinds, "kind11") {
		t.Errorf("kinds line: %q", kinds)
	}
	checkFits(t, v, 80, 24)
}

func TestViewFollowsTheWindowSize(t *testing.T) {
	m := testModel(nil)
	feed(m, aRun()...)
	// Long names must be cut, not wrapped.
	feed(m, orchestrator.Event{Time: at(11), Kind: orchestrator.EventTaskStart, Expert: "query",
		Task: "test relationship " + strings.Repeat("very_long_table_name.", 8)})
	for _, size := range [][2]int{{80, 24}, {40, 12}, {120, 40}, {20, 5}, {60, 24}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		v := m.View()
		checkFits(t, v, size[0], size[1])
		if !strings.Contains(v, "q or ctrl") {
			t.Errorf("%dx%d: the footer was cut:\n%s", size[0], size[1], v)
		}
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	wide := m.View()
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 24})
	narrow := m.View()
	if barLen(wide) <= barLen(narrow) {
		t.Errorf("bars do not grow with the width: %d at 120, %d at 60", barLen(wide), barLen(narrow))
	}
	// A tall terminal shows more of the latest tasks.
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 40})
	if !strings.Contains(m.View(), "inventory customers") {
		t.Errorf("80×40 shows no more history:\n%s", m.View())
	}
}

func barLen(v string) int {
	l := lineStarting(v, "coverage")
	return strings.Count(l, "█") + strings.Count(l, "░")
}

func lineStarting(v, prefix string) string {
	for _, l := range strings.Split(v, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// TestQuitKeysStopOnce: q and Ctrl+C interrupt the run as ^C does in plain
// mode, once; the view then says the run is kept for --resume, whatever
// stop reason the last event gives (a run cancelled while it measured ends
// with "deadline", and discover still leaves it unfinished).
func TestQuitKeysStopOnce(t *testing.T) {
	for _, key := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("q")}, {Type: tea.KeyCtrlC}} {
		for _, reason := range []string{"interrupted", orchestrator.StopDeadline} {
			stops := 0
			m := testModel(func() { stops++ })
			feed(m, aRun()...)
			_, cmd := m.Update(key)
			m.Update(key)
			if stops != 1 || cmd != nil {
				t.Fatalf("%s: Stop called %d times, cmd %v; want once and the view kept", key, stops, cmd)
			}
			if v := m.View(); !strings.Contains(v, "interrupted: saving the run for --resume") {
				t.Errorf("%s: view does not say the run is kept for --resume:\n%s", key, v)
			}
			feed(m, orchestrator.Event{Time: at(12), Kind: orchestrator.EventRunDone, RunID: "r1", Iteration: 2, Phase: 2,
				StopReason: reason, Confidence: 0.6, Coverage: 0.4, Queries: 30})
			v := m.View()
			for _, want := range []string{"stopped: interrupted after 2 iterations; --resume continues", "0.60 / target", "0.40 / target",
				"queries 30 ·", "elapsed 0m12s of 30m00s"} {
				if !strings.Contains(v, want) {
					t.Errorf("%s, run_done %q: final view lacks %q:\n%s", key, reason, want, v)
				}
			}
			if strings.Contains(v, "deadline") {
				t.Errorf("%s, run_done %q: an interrupted run shown as stopped by its deadline:\n%s", key, reason, v)
			}
			// Nothing is running once the run is over, whatever did not report back.
			if strings.Contains(v, "+1 more") || strings.Contains(v, "semantics orders") {
				t.Errorf("tasks still shown running after run_done:\n%s", v)
			}
			if lines := strings.Split(v, "\n"); !strings.HasPrefix(lines[len(lines)-1], "stopped:") {
				t.Errorf("the stop line is not last:\n%s", v)
			}
			checkFits(t, v, 80, 24)
			if _, cmd := m.Update(closedMsg{}); cmd == nil {
				t.Error("the closed channel does not end the program")
			}
			m.Update(key)
			if stops != 1 {
				t.Errorf("%s after the end called Stop", key)
			}
		}
	}
}

// TestSignalShownAsInterruption: ^C from outside the view (a signal, when
// the view has no keyboard) is shown like q, without calling Stop.
func TestSignalShownAsInterruption(t *testing.T) {
	stops := 0
	m := testModel(func() { stops++ })
	feed(m, aRun()...)
	m.Update(interruptMsg{})
	if v := m.View(); !strings.Contains(v, "interrupted: saving the run for --resume") || stops != 0 {
		t.Errorf("after a signal (Stop called %d times):\n%s", stops, v)
	}
	feed(m, orchestrator.Event{Time: at(12), Kind: orchestrator.EventRunDone, RunID: "r1", Iteration: 1, StopReason: "interrupted"})
	if v := m.View(); !strings.Contains(v, "stopped: interrupted after 1 iteration; --resume continues") {
		t.Errorf("final view after a signal:\n%s", v)
	}
}

func TestRunEndedOnItsOwn(t *testing.T) {
	m := testModel(nil)
	feed(m, aRun()...)
	feed(m, orchestrator.Event{Time: at(12), Kind: orchestrator.EventRunDone, RunID: "r1", Iteration: 2,
		StopReason: orchestrator.StopCoverage, Confidence: 0.97, Coverage: 1, Queries: 40})
	v := m.View()
	if !strings.Contains(v, "stopped: coverage after 2 iterations") || strings.Contains(v, "interrupted") || strings.Contains(v, "--resume") {
		t.Errorf("final view:\n%s", v)
	}
}

// Run draws on any writer and reads every event to the end, so the
// orchestrator never blocks on the channel.
func TestRunDrainsEvents(t *testing.T) {
	var out bytes.Buffer
	events := make(chan orchestrator.Event) // unbuffered: each send waits for Run
	errc := make(chan error, 1)
	go func() { errc <- Run(context.Background(), events, Options{Output: &out}) }()
	for _, e := range aRun() {
		events <- e
	}
	events <- orchestrator.Event{Time: at(12), Kind: orchestrator.EventRunDone, RunID: "r1", Iteration: 2, StopReason: "coverage"}
	close(events)
	select {
	case err := <-errc:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the channel closed")
	}
	if !strings.Contains(out.String(), "stopped: coverage after 2 iterations") {
		t.Errorf("the final view was not drawn:\n%q", out.String())
	}
}

// TestViewShowsBudgets: with a query budget and a model, the view shows
// what is used against each.
func TestViewShowsBudgets(t *testing.T) {
	m := newModel(Options{Start: t0, Deadline: t0.Add(30 * time.Minute), MaxQueries: 500, MaxModelCalls: 40,
		Experts: []string{"structural", "statistical", "semantic", "query", "llm"}}, func() time.Time { return t0 })
	if v := m.View(); !strings.Contains(v, "queries – of 500 · model calls 0 of 40") {
		t.Errorf("budgets missing before any figure:\n%s", v)
	}
	feed(m, orchestrator.Event{Time: at(5), Kind: orchestrator.EventIterationDone, Iteration: 1, Phase: 1,
		Confidence: 0.4, Coverage: 0.5, Queries: 129, ModelCalls: 3})
	if v := m.View(); !strings.Contains(v, "queries 129 of 500 (to iteration 1) · model calls 3 of 40") {
		t.Errorf("budgets after an iteration:\n%s", v)
	}
}

// TestViewCountsFindingsByKind: once an iteration has counted the run's
// findings, the view lists them by kind, most first.
func TestViewCountsFindingsByKind(t *testing.T) {
	m := testModel(nil)
	feed(m, aRun()...)
	if v := m.View(); !strings.Contains(v, "tasks done") {
		t.Fatalf("before any count the view shows tasks by kind:\n%s", v)
	}
	feed(m, orchestrator.Event{Time: at(12), Kind: orchestrator.EventIterationDone, Iteration: 2, Phase: 2, Queries: 40,
		Findings: map[string]int{"hypothesis": 66, "insight": 37, "relationship": 14, "pattern": 3}})
	if v := m.View(); !strings.Contains(v, "found hypothesis 66 · insight 37 · relationship 14 · pattern 3") {
		t.Errorf("findings by kind missing:\n%s", v)
	}
}

// TestResumedRunShowsEarlierQueries: a resumed run's queries include its
// earlier attempts', shown from the start as the figure to date.
func TestResumedRunShowsEarlierQueries(t *testing.T) {
	m := testModel(nil)
	feed(m, orchestrator.Event{Time: at(0), Kind: orchestrator.EventRunStart, RunID: "r1", Iteration: 2, Queries: 57,
		Message: `sqlite database "shop", 3 of 3 tables and views; resumed after iteration 2, 57 queries so far`})
	if v := m.View(); !strings.Contains(v, "queries 57 (to iteration 2)") || !strings.Contains(v, "resumed after iteration 2") {
		t.Errorf("resumed run:\n%s", v)
	}
}
