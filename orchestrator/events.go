package orchestrator

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Event kinds, in the order a run emits them.
const (
	EventRunStart       = "run_start"
	EventIterationStart = "iteration_start"
	EventStep           = "step" // assess, plan, execute, synthesize, collaborate, reflect
	EventTaskStart      = "task_start"
	EventTaskDone       = "task_done"
	EventTaskFailed     = "task_failed"
	EventIterationDone  = "iteration_done"
	EventRunDone        = "run_done"
)

// Event is one step of progress. The terminal view and the plain log writer
// consume the same events.
type Event struct {
	Time      time.Time
	Kind      string
	RunID     string
	Iteration int
	Phase     int
	Step      string
	Expert    string
	Task      string
	Tasks     int // tasks planned (iteration_start/step plan)
	Elapsed   time.Duration
	Err       string
	// Attempt is which try of the task failed (task_failed), of
	// MaxAttempts before the run gives the task up; 0 when not counted.
	Attempt     int
	MaxAttempts int
	Confidence  float64
	Coverage    float64
	NewInsights int
	Queries     int64
	ModelCalls  int64 // model requests so far (iteration_done, run_done)
	// Findings counts the run's findings by kind so far (iteration_done).
	Findings   map[string]int
	StopReason string
	Message    string
}

// PlainWriter renders events as one line each, for logs and CI. Verbose
// adds task starts and steps; quiet keeps only failures and the end.
type PlainWriter struct {
	W       io.Writer
	Verbose bool
	Quiet   bool
}

// Consume writes every event from ch until it is closed.
func (p PlainWriter) Consume(ch <-chan Event) {
	for e := range ch {
		if line := p.Line(e); line != "" {
			fmt.Fprintln(p.W, line)
		}
	}
}

// Line renders one event, or "" when the event is not shown at this level.
func (p PlainWriter) Line(e Event) string {
	ts := e.Time.Format("15:04:05")
	switch e.Kind {
	case EventRunStart:
		if p.Quiet {
			return ""
		}
		return fmt.Sprintf("%s run %s started: %s", ts, e.RunID, e.Message)
	case EventIterationStart:
		if p.Quiet {
			return ""
		}
		return fmt.Sprintf("%s iteration %d phase %d: %d tasks planned", ts, e.Iteration, e.Phase, e.Tasks)
	case EventStep:
		if !p.Verbose {
			return ""
		}
		return fmt.Sprintf("%s iteration %d %s %s", ts, e.Iteration, e.Step, e.Message)
	case EventTaskStart:
		if !p.Verbose {
			return ""
		}
		return fmt.Sprintf("%s   %-11s start %s", ts, e.Expert, e.Task)
	case EventTaskDone:
		if p.Quiet {
			return ""
		}
		return fmt.Sprintf("%s   %-11s done  %s (%s)", ts, e.Expert, e.Task, round(e.Elapsed))
	case EventTaskFailed:
		// Quiet keeps the failures that stand: a try that will be
		// retried is not one yet (the summary counts those never retried).
		if p.Quiet && !e.GivenUp() {
			return ""
		}
		return fmt.Sprintf("%s   %-11s FAIL  %s: %s", ts, e.Expert, e.Task, e.Failure())
	case EventIterationDone:
		if p.Quiet {
			return ""
		}
		return fmt.Sprintf("%s iteration %d done: %d new findings, confidence %.2f, coverage %.2f, %d queries",
			ts, e.Iteration, e.NewInsights, e.Confidence, e.Coverage, e.Queries)
	case EventRunDone:
		return fmt.Sprintf("%s run %s stopped (%s) after %d iterations: confidence %.2f, coverage %.2f, %d queries",
			ts, e.RunID, e.StopReason, e.Iteration, e.Confidence, e.Coverage, e.Queries)
	}
	return ""
}

// GivenUp says whether a task_failed event is the task's last try: the
// run will not retry it.
func (e Event) GivenUp() bool { return e.MaxAttempts == 0 || e.Attempt >= e.MaxAttempts }

// Failure is a task_failed event's error on one line, without the task's
// name where the error repeats it, and, when the run retries tasks, which
// try this was and what follows.
func (e Event) Failure() string {
	msg := oneLine(strings.TrimPrefix(e.Err, e.Task+": "))
	if e.MaxAttempts > 1 {
		next := "to be retried"
		if e.GivenUp() {
			next = "given up"
		}
		msg += fmt.Sprintf(" (try %d of %d, %s)", e.Attempt, e.MaxAttempts, next)
	}
	return msg
}

func round(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(100 * time.Microsecond)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
