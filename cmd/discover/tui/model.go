package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/discover-db/discover/orchestrator"
)

// Until the terminal reports its size, assume the smallest common one.
const (
	defaultWidth  = 80
	defaultHeight = 24
	maxLatest     = 12 // finished tasks kept for the scrolling list
	wantLatest    = 6  // shown when the terminal is no taller than 24 lines
)

var (
	titleStyle = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("12"))
	labelStyle = lipgloss.NewStyle().Bold(true)
	dimStyle   = lipgloss.NewStyle().Faint(true)
	barStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("10"))
	emptyStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("8"))
	doneStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("10"))
	failStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("9")).Bold(true)
	warnStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("11")).Bold(true)
)

type running struct {
	task  string
	since time.Time
}

type model struct {
	opts          Options
	now           func() time.Time
	clock         time.Time // last tick; drives the elapsed figures
	width, height int

	runID, runMsg     string
	iteration, phase  int
	step              string
	planned           int
	measured          bool // an iteration_done has reported the figures
	confidence, cover float64
	queries           int64
	queriesAt         int // the iteration whose end reported queries
	modelCalls        int64
	findings          map[string]int // the run's findings by kind, at the last iteration's end

	experts        []string
	running        map[string][]running
	done, failed   map[string]int
	kinds          map[string]int // tasks done, by the first word of the task
	latest         []orchestrator.Event
	stopRequested  bool
	interrupted    bool
	end            *orchestrator.Event
	endedAt        time.Time
	startFromEvent bool
}

func newModel(opts Options, now func() time.Time) *model {
	m := &model{
		opts: opts, now: now, clock: now(),
		width: defaultWidth, height: defaultHeight,
		running: map[string][]running{}, done: map[string]int{}, failed: map[string]int{}, kinds: map[string]int{},
	}
	if m.opts.Start.IsZero() {
		m.opts.Start = m.clock
		m.startFromEvent = true
	}
	for _, x := range opts.Experts {
		m.addExpert(x)
	}
	return m
}

func (m *model) addExpert(name string) {
	for _, x := range m.experts {
		if x == name {
			return
		}
	}
	m.experts = append(m.experts, name)
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

func (m *model) Init() tea.Cmd { return tick() }

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyMsg:
		switch msg.String() {
		case "q", "ctrl+c":
			if !m.stopRequested && m.end == nil {
				m.stopRequested = true
				if m.opts.Stop != nil {
					m.opts.Stop()
				}
			}
		}
	case tickMsg:
		m.clock = time.Time(msg)
		if m.end == nil {
			return m, tick()
		}
	case interruptMsg:
		m.interrupted = true
	case eventMsg:
		m.apply(orchestrator.Event(msg))
	case closedMsg:
		return m, tea.Quit
	}
	return m, nil
}

func (m *model) apply(e orchestrator.Event) {
	if !e.Time.IsZero() && e.Time.After(m.clock) {
		m.clock = e.Time
	}
	if e.Expert != "" {
		m.addExpert(e.Expert)
	}
	switch e.Kind {
	case orchestrator.EventRunStart:
		m.runID, m.runMsg = e.RunID, e.Message
		if m.startFromEvent && !e.Time.IsZero() {
			m.opts.Start = e.Time
		}
		m.iteration = e.Iteration
		if e.Iteration > 0 {
			// Resumed: the earlier attempts' queries are the run's too.
			m.queries, m.queriesAt = e.Queries, e.Iteration
		}
	case orchestrator.EventIterationStart:
		m.iteration, m.phase, m.planned, m.step = e.Iteration, e.Phase, e.Tasks, "plan"
	case orchestrator.EventStep:
		m.iteration, m.step = e.Iteration, e.Step
		if e.Phase > 0 {
			m.phase = e.Phase
		}
		if e.Step == "execute" && e.Tasks > 0 {
			m.planned = e.Tasks // tasks that became ready during the round join it
		}
	case orchestrator.EventTaskStart:
		m.running[e.Expert] = append(m.running[e.Expert], running{e.Task, e.Time})
	case orchestrator.EventTaskDone, orchestrator.EventTaskFailed:
		m.finishTask(e)
	case orchestrator.EventIterationDone:
		m.iteration, m.phase, m.step = e.Iteration, e.Phase, "reflect"
		m.measured, m.confidence, m.cover = true, e.Confidence, e.Coverage
		m.queries, m.queriesAt, m.modelCalls = e.Queries, e.Iteration, e.ModelCalls
		if e.Findings != nil {
			m.findings = e.Findings
		}
	case orchestrator.EventRunDone:
		ev := e
		m.end = &ev
		m.endedAt = m.clock
		m.iteration, m.phase, m.step = e.Iteration, e.Phase, ""
		m.measured, m.confidence, m.cover = true, e.Confidence, e.Coverage
		m.queries, m.queriesAt, m.modelCalls = e.Queries, e.Iteration, e.ModelCalls
		// Whatever was still marked running did not report back: the run is over.
		m.running = map[string][]running{}
	}
}

func (m *model) finishTask(e orchestrator.Event) {
	rs := m.running[e.Expert]
	for i, r := range rs {
		if r.task == e.Task {
			m.running[e.Expert] = append(rs[:i:i], rs[i+1:]...)
			break
		}
	}
	if e.Kind == orchestrator.EventTaskDone {
		m.done[e.Expert]++
		m.kinds[taskKind(e.Task)]++
	} else {
		m.failed[e.Expert]++
	}
	m.latest = append(m.latest, e)
	if len(m.latest) > maxLatest {
		m.latest = m.latest[len(m.latest)-maxLatest:]
	}
}

// taskKind groups tasks by what they do ("inventory orders" → "inventory"):
// the events name tasks, not the findings they write.
func taskKind(task string) string {
	if i := strings.IndexByte(task, ' '); i > 0 {
		return task[:i]
	}
	return task
}

// View draws at most height-1 lines of at most width cells each; what does
// not fit is cut, never wrapped, so the layout holds at any size.
func (m *model) View() string {
	w, h := m.width, m.height
	if w < 20 {
		w = 20
	}
	if h < 4 {
		h = 4
	}
	var top []string
	add := func(s string) { top = append(top, s) }

	title := titleStyle.Render("discover")
	if m.runID != "" {
		title += dimStyle.Render(" run " + m.runID)
	}
	add(title)
	if m.runMsg != "" {
		add(dimStyle.Render(m.runMsg))
	}
	add(m.iterationLine())
	add(m.bar("confidence", m.confidence, m.opts.TargetConfidence, w))
	add(m.bar("coverage", m.cover, m.opts.TargetCoverage, w))
	add(m.budgetLine())
	add("")
	add(labelStyle.Render(fmt.Sprintf("%-12s %5s %5s  %s", "expert", "done", "fail", "now")))
	for _, x := range m.experts {
		add(m.expertLine(x, w))
	}
	if k := m.kindsLine(w); k != "" {
		add(k)
	}

	const reserve = 3 // the footer, the blank line above it, the cursor's line
	room := h - reserve - len(top)
	var latest []string
	if room >= 3 && len(m.latest) > 0 {
		n := room - 2 // a blank line and the heading
		if h <= defaultHeight && n > wantLatest {
			n = wantLatest
		}
		if n > len(m.latest) {
			n = len(m.latest)
		}
		latest = append(latest, "", labelStyle.Render("latest"))
		for _, e := range m.latest[len(m.latest)-n:] {
			latest = append(latest, m.latestLine(e))
		}
	}
	lines := append(top, latest...)
	if len(lines) > h-reserve {
		lines = lines[:h-reserve]
	}
	lines = append(lines, "", m.footer())
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}

func (m *model) iterationLine() string {
	if m.iteration == 0 && m.end == nil {
		return labelStyle.Render("iteration") + " – waiting for the first round"
	}
	s := labelStyle.Render(fmt.Sprintf("iteration %d", m.iteration))
	if m.phase > 0 {
		s += fmt.Sprintf(" · phase %d", m.phase)
	}
	if m.step != "" {
		s += " · " + m.step
	}
	if m.planned > 0 {
		s += fmt.Sprintf(" · %d tasks planned", m.planned)
	}
	return s
}

// bar draws a ratio. Before the first iteration ends no figure exists, and
// the bar says so rather than showing a zero.
func (m *model) bar(label string, v, target float64, w int) string {
	figure := "  –  "
	if m.measured {
		figure = fmt.Sprintf("%.2f", v)
	}
	suffix := " " + figure
	if target > 0 {
		suffix += fmt.Sprintf(" / target %.2f", target)
	}
	n := w - 12 - len(suffix)
	if n > 50 {
		n = 50
	}
	if n < 5 {
		n = 5
	}
	full := 0
	if m.measured {
		full = int(v*float64(n) + 0.5)
		full = max(0, min(n, full))
	}
	return labelStyle.Render(fmt.Sprintf("%-11s ", label)) +
		barStyle.Render(strings.Repeat("█", full)) + emptyStyle.Render(strings.Repeat("░", n-full)) + suffix
}

func (m *model) budgetLine() string {
	q := "queries –"
	of := ""
	if m.opts.MaxQueries > 0 {
		of = fmt.Sprintf(" of %d", m.opts.MaxQueries)
	}
	switch {
	case m.end != nil:
		q = fmt.Sprintf("queries %d%s", m.queries, of)
	case m.queriesAt > 0:
		q = fmt.Sprintf("queries %d%s (to iteration %d)", m.queries, of, m.queriesAt)
	case of != "":
		q = "queries –" + of
	}
	if m.opts.MaxModelCalls > 0 {
		q += fmt.Sprintf(" · model calls %d of %d", m.modelCalls, m.opts.MaxModelCalls)
	}
	at := m.clock
	if m.end != nil {
		at = m.endedAt
	}
	el := "elapsed " + clock(at.Sub(m.opts.Start))
	if !m.opts.Deadline.IsZero() {
		el += " of " + clock(m.opts.Deadline.Sub(m.opts.Start))
		if m.end == nil && !m.opts.Deadline.After(at) {
			el = warnStyle.Render(el + " (deadline passed)")
		}
	}
	return q + " · " + el
}

func (m *model) expertLine(x string, w int) string {
	now := dimStyle.Render("idle")
	switch rs := m.running[x]; {
	case len(rs) > 0:
		r := rs[0]
		// The figures first: a long task name is what gets cut.
		now = fmt.Sprintf("%-4s", m.clock.Sub(r.since).Round(time.Second))
		if len(rs) > 1 {
			now += fmt.Sprintf(" +%d more", len(rs)-1)
		}
		now += " " + r.task
	case m.end != nil:
		now = dimStyle.Render("–")
	}
	fail := fmt.Sprintf("%5d", m.failed[x])
	if m.failed[x] > 0 {
		fail = failStyle.Render(fail)
	}
	return fmt.Sprintf("%-12s %5d %s  %s", x, m.done[x], fail, now)
}

// kindsLine lists as many whole kinds as fit, most frequent first: the
// findings by kind once an iteration has counted them, the tasks done by
// kind before.
func (m *model) kindsLine(w int) string {
	counts, label := m.kinds, "tasks done"
	if len(m.findings) > 0 {
		counts, label = m.findings, "found"
	}
	if len(counts) == 0 {
		return ""
	}
	names := make([]string, 0, len(counts))
	for k := range counts {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	s := labelStyle.Render(label)
	for i, k := range names {
		part := fmt.Sprintf(" %s %d", k, counts[k])
		if i > 0 {
			part = " ·" + part
		}
		if lipgloss.Width(s+part) > w-2 {
			return s + " …"
		}
		s += part
	}
	return s
}

func (m *model) latestLine(e orchestrator.Event) string {
	ts := e.Time.Format("15:04:05")
	if e.Kind == orchestrator.EventTaskFailed {
		return fmt.Sprintf("%s %-11s %s %s: %s", ts, e.Expert, failStyle.Render("FAIL"), e.Task, e.Failure())
	}
	return fmt.Sprintf("%s %-11s %s %s %s", ts, e.Expert, doneStyle.Render("done"), dimStyle.Render(fmt.Sprintf("%6s", short(e.Elapsed))), e.Task)
}

func (m *model) footer() string {
	if e := m.end; e != nil {
		// The figures are in the lines above, updated from this same event.
		rounds := "iterations"
		if e.Iteration == 1 {
			rounds = "iteration"
		}
		if m.interrupted || m.stopRequested {
			// Whatever the last event says, an interrupted run is left
			// unfinished (discover checks the same context the view saw end).
			return warnStyle.Render(fmt.Sprintf("stopped: interrupted after %d %s; --resume continues", e.Iteration, rounds))
		}
		return labelStyle.Render(fmt.Sprintf("stopped: %s after %d %s", e.StopReason, e.Iteration, rounds))
	}
	if m.interrupted || m.stopRequested {
		return warnStyle.Render("interrupted: saving the run for --resume…")
	}
	return dimStyle.Render("q or ctrl+c: stop, to continue later with --resume")
}

// clock formats a duration to the second: the view refreshes once a second.
func clock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	d = d.Round(time.Second)
	if d >= time.Hour {
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

func short(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}
