// Package tui is discover's terminal view: a bubbletea program that draws the
// orchestrator's progress events. It is the second consumer of the events the
// plain log writer reads, so it shows only what those events say.
package tui

import (
	"context"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/discover-db/discover/orchestrator"
)

// Options configure the view. Everything except Output is optional.
type Options struct {
	// Output is the terminal the view is drawn on (discover's stderr).
	Output io.Writer
	// Input is where keys come from; nil means no keyboard (the view then
	// only watches, and ^C reaches the process as a signal).
	Input io.Reader
	// Start and Deadline bound the run (--timeout); a zero Deadline hides it.
	Start, Deadline time.Time
	// Targets are the stop thresholds, shown beside the bars when set.
	TargetConfidence, TargetCoverage float64
	// MaxQueries and MaxModelCalls are the run's budgets, shown beside
	// what is used when set (0: no budget, or no model).
	MaxQueries, MaxModelCalls int64
	// Experts fixes the order of the expert lines; experts seen in events
	// but not listed are added after them.
	Experts []string
	// Stop is called once when the user presses q or Ctrl-C, and must
	// interrupt the run as ^C does in plain mode: the run is left
	// unfinished for --resume. It must not block: the view keeps drawing
	// events until the channel is closed.
	Stop func()
}

type (
	eventMsg     orchestrator.Event
	closedMsg    struct{}
	interruptMsg struct{}
	tickMsg      time.Time
)

// Run draws events until the channel is closed, then prints the final view
// where the terminal's history keeps it. It always reads events to the end, even if the terminal
// fails, because the orchestrator blocks on a full channel. ctx ending (a
// signal) is shown as an interruption; it does not end the view by itself.
func Run(ctx context.Context, events <-chan orchestrator.Event, opts Options) error {
	m := newModel(opts, time.Now)
	popts := []tea.ProgramOption{
		tea.WithOutput(opts.Output),
		// The alternate screen repaints whole on a resize; an inline view
		// leaves pieces of older, wider frames behind.
		tea.WithAltScreen(),
		// discover's own signal handling decides what ^C from outside means.
		tea.WithoutSignalHandler(),
		tea.WithInput(opts.Input),
	}
	p := tea.NewProgram(m, popts...)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		interrupted := ctx.Done()
		for {
			select {
			case e, ok := <-events:
				if !ok {
					p.Send(closedMsg{})
					return
				}
				// Send returns at once when the program has ended, so this
				// loop keeps draining whatever happens to the terminal.
				p.Send(eventMsg(e))
			case <-interrupted:
				interrupted = nil
				p.Send(interruptMsg{})
			}
		}
	}()
	final, err := p.Run()
	<-drained
	if err != nil {
		return err
	}
	_, err = io.WriteString(opts.Output, final.View()+"\n")
	return err
}
