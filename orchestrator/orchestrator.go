// Package orchestrator runs the discovery loop: assess → plan → execute →
// synthesize → collaborate → reflect, round after round, until the run is
// confident, has covered the database, stops learning, or runs out of
// iterations or time. Its state is saved in the catalog every iteration.
package orchestrator

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/model"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/querycache"
	"github.com/discover-db/discover/redact"
	"github.com/discover-db/discover/warehouse"
)

// Stop reasons, as report.json's run.stop_reason.
const (
	StopConfidence  = "confidence"
	StopCoverage    = "coverage"
	StopDiminishing = "diminishing_returns"
	StopMaxIter     = "max_iterations"
	StopDeadline    = "deadline"
	StopConsensus   = "consensus"
)

// Config bounds a run.
type Config struct {
	MaxIterations    int
	TargetConfidence float64
	TargetCoverage   float64
	Parallel         int
	Include, Exclude []string // globs on table names
	Options          experts.Options
	// MaxTaskFailures is how often one task may fail before it is given up.
	MaxTaskFailures int
	// LLMPaths is how many SQL formulations the model gives per hypothesis,
	// voted on (1 = no voting). Used only with Orchestrator.Model.
	LLMPaths int
	// AllowPrivileged runs the model's SQL even when the connection's role
	// could do more than read (--allow-privileged).
	AllowPrivileged bool
	// Full sends every statement again (--full): the results of statements
	// over tables that did not change since the last run (querycache) are
	// kept for the next run but not served.
	Full bool
}

// Orchestrator runs experts over a source, writing into a catalog.
type Orchestrator struct {
	Source  warehouse.Source
	Catalog *catalog.Catalog
	Experts []experts.Expert
	Config  Config
	// Events receives progress; nil discards it. Sends block, so the
	// consumer must keep reading until Run returns.
	Events chan<- Event
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Model, when set, brings the model's expert into the run
	// (experts/model: hypotheses tested through llm.Controller, notes, the
	// narrative) and ranks each round's tasks. Nil runs on rules and data
	// alone.
	Model *llm.Client
	// Listed is the source's inventory when the caller listed it just
	// before the run (to take what the run rests on: package incremental),
	// so that it is not listed twice; nil: Run lists it.
	Listed []warehouse.Table

	usageBase catalog.LLMUsage    // model use of earlier attempts of a resumed run
	guard     *redact.Guard       // keeps personal values out of the catalog file while the run goes on; nil with --show-pii
	tables    []warehouse.Table   // what the run set out to read, listed at its start
	skipped   []warehouse.Skipped // what the source left out at the start
	model     finisher            // the model's expert, when there is a model
	lastEnv   *experts.Env        // the last round's environment, for finish
	cache     *querycache.Cache   // kept statement results; nil when the run has no basis
	cachedAt  int64               // statements served from it by earlier attempts of a resumed run
}

// finisher is an expert with steps it still owes when the run ends
// before their round came (the model's: experts/model).
type finisher interface {
	experts.Expert
	Finish(ctx context.Context, env *experts.Env) error
}

// experts is the run's expert list: the configured ones, and the model's
// when there is one.
func (o *Orchestrator) experts(paths int) []experts.Expert {
	if o.Model == nil {
		return o.Experts
	}
	if o.model == nil {
		o.model = model.New(o.Model, paths, &warehouse.Door{Source: o.Source, AllowPrivileged: o.Config.AllowPrivileged})
	}
	return append(append([]experts.Expert{}, o.Experts...), o.model)
}

// llmUsage is the model use to record: what earlier attempts of a resumed
// run spent (base) plus this attempt's.
func (o *Orchestrator) llmUsage(base catalog.LLMUsage) catalog.LLMUsage {
	if o.Model == nil {
		return base
	}
	calls, tokens := o.Model.Usage()
	return catalog.LLMUsage{Provider: o.Model.Provider(), Model: o.Model.Model(), Calls: base.Calls + calls, Tokens: base.Tokens + tokens}
}

func (o *Orchestrator) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o *Orchestrator) emit(e Event) {
	if o.Events == nil {
		return
	}
	e.Time = o.now()
	o.Events <- e
}

// Run drives the loop for run, which must already be recorded in the
// catalog (StartRun), possibly with the state of an interrupted attempt to
// resume. It returns the run as finished. When ctx's deadline passes, the
// run stops with reason "deadline" and Run returns no error: what was found
// is in the catalog.
func (o *Orchestrator) Run(ctx context.Context, run catalog.Run) (catalog.Run, error) {
	cfg := o.Config
	if cfg.Parallel < 1 {
		cfg.Parallel = 1
	}
	if cfg.Options.Parallel < 1 {
		cfg.Options.Parallel = cfg.Parallel
	}
	if cfg.MaxIterations < 1 {
		cfg.MaxIterations = 50
	}
	if cfg.MaxTaskFailures < 1 {
		cfg.MaxTaskFailures = 2
	}
	state := catalog.LoopState{Contributions: map[string]int{}}
	if len(run.State) > 0 && string(run.State) != "null" {
		if err := json.Unmarshal(run.State, &state); err != nil {
			return run, fmt.Errorf("orchestrator: resume %s: bad state: %w", run.ID, err)
		}
		if state.Contributions == nil {
			state.Contributions = map[string]int{}
		}
	}
	if !cfg.Options.ShowPII {
		// From the first write on, no personal value reaches the file
		// (redact.Guard): a run killed at any point leaves none there.
		g, err := redact.NewGuard(ctx, o.Catalog, run.ID)
		if err != nil {
			return run, fmt.Errorf("orchestrator: %w", err)
		}
		o.guard = g
		o.Catalog.SetGuard(g)
		defer o.Catalog.SetGuard(nil)
	}
	var queries atomic.Int64
	queries.Store(state.Queries)
	llmBase := state.LLM
	if o.Model != nil && llmBase.Provider != o.Model.Provider() {
		llmBase = catalog.LLMUsage{} // resumed with another model (or none before): count afresh
	}
	xs := o.experts(cfg.LLMPaths)
	o.usageBase = llmBase
	if len(run.Basis) > 0 {
		// What the run rests on (package incremental) says which kept
		// results still hold: those of statements over unchanged tables.
		var basis catalog.RunBasis
		if err := json.Unmarshal(run.Basis, &basis); err != nil {
			return run, fmt.Errorf("orchestrator: run %s: bad basis: %w", run.ID, err)
		}
		o.cache = querycache.New(o.Catalog, run.ID, o.Source.Dialect().Grammar(), run.DSN, &basis, !cfg.Full)
		o.cachedAt = state.Cached
	}

	all := o.Listed
	if all == nil {
		var err error
		if all, err = o.Source.Tables(ctx); err != nil {
			return o.finish(run, state, &queries, stopOnError(ctx), err)
		}
	}
	tables, err := Filter(all, cfg.Include, cfg.Exclude)
	if err != nil {
		return run, err
	}
	o.tables = tables
	if err := o.recordSkipped(ctx, run.ID, state.Iteration); err != nil {
		return o.finish(run, state, &queries, stopOnError(ctx), err)
	}
	if err := o.recordConnection(ctx, run.ID, state.Iteration); err != nil {
		return o.finish(run, state, &queries, stopOnError(ctx), err)
	}
	o.emit(Event{Kind: EventRunStart, RunID: run.ID, Iteration: state.Iteration, Queries: state.Queries,
		Message: fmt.Sprintf("%s database %q, %d of %d tables and views%s%s", run.Dialect, run.Database, len(tables), len(all), resumedAt(state), o.lostTables())})

	// Failures are part of the saved state: a resumed run remembers them.
	if state.Failures == nil {
		state.Failures = map[string]int{}
	}
	failures := state.Failures
	if state.GivenUp == nil {
		state.GivenUp = map[string]catalog.GivenUp{}
	}
	givenUp := state.GivenUp
	// failedAt holds when each task whose last attempt failed did so; the
	// failures of an earlier attempt of the run count from now.
	failedAt := map[string]time.Time{}
	for k := range failures {
		failedAt[k] = time.Now()
	}
	// ran holds the tasks run so far. When the targets are met (pending),
	// the loop goes on only for tasks it has not run yet, at most
	// settleRounds times: the follow-ups of the last round's findings (a
	// relationship inferred in the last round still gets its cardinality
	// tested and its sentence written), not another pass over the same work.
	ran := map[string]bool{}
	pending, settled := "", 0
	stop := ""
	for stop == "" {
		if ctx.Err() != nil {
			stop = StopDeadline
			break
		}
		if state.Iteration >= cfg.MaxIterations {
			stop = cmp.Or(pending, StopMaxIter)
			break
		}

		// assess
		m, err := Measure(ctx, o.Catalog, run.ID, tables, xs)
		if err != nil {
			return o.finish(run, state, &queries, stopOnError(ctx), err)
		}
		// Counted from here; a round stopped before any task ran is taken
		// back (below): run.iterations counts rounds that ran a task.
		state.Iteration++
		it := state.Iteration
		state.Phase = m.Phase
		o.emit(Event{Kind: EventStep, Step: "assess", Iteration: it, Phase: m.Phase,
			Message: fmt.Sprintf("coverage %.2f confidence %.2f", m.Coverage, m.Confidence)})

		// plan
		// The experts see the failures as of the round's start (a copy:
		// tasks count new ones while others read).
		env := experts.NewEnv(o.Source, o.Catalog, run.ID, it, m.Phase, tables, cfg.Options, &queries).
			WithFailures(maps.Clone(failures)).WithGivenUp(givenUp)
		if o.cache != nil {
			env = env.WithCache(o.cache)
		}
		o.lastEnv = env
		var tasks []experts.Task
		var satisfied []string
		for _, x := range xs {
			ts, err := x.Plan(ctx, env.For(x.Name()))
			if err != nil {
				if ctx.Err() != nil {
					break
				}
				state.Iteration-- // nothing ran: this round does not count
				return o.finish(run, state, &queries, stopOnError(ctx), fmt.Errorf("plan %s: %w", x.Name(), err))
			}
			kept := ts[:0]
			for _, t := range ts {
				if failures[taskKey(t)] < cfg.MaxTaskFailures {
					kept = append(kept, t)
				}
			}
			if len(kept) == 0 {
				satisfied = append(satisfied, x.Name())
			}
			tasks = append(tasks, kept...)
		}
		state.Satisfied = satisfied
		if ctx.Err() != nil {
			state.Iteration-- // stopped before any task ran: this round does not count
			stop = StopDeadline
			break
		}
		if pending != "" {
			tasks = slices.DeleteFunc(tasks, func(t experts.Task) bool { return ran[t.Expert+"\x00"+t.Name] })
			if len(tasks) == 0 {
				state.Iteration-- // nothing new to run: this round does not count
				stop = pending
				break
			}
		}
		for _, t := range tasks {
			ran[t.Expert+"\x00"+t.Name] = true
		}
		o.emit(Event{Kind: EventIterationStart, Iteration: it, Phase: m.Phase, Tasks: len(tasks)})
		if len(tasks) == 0 {
			state.Iteration-- // nothing ran: this round does not count
			stop = StopConsensus
			break
		}

		// The model's ranking, fused with the experts' order (nothing without a model).
		tasks = o.rankTasks(ctx, env.For(model.Name), m, tasks, cfg.Parallel)

		// execute
		o.emit(Event{Kind: EventStep, Step: "execute", Iteration: it, Phase: m.Phase, Tasks: len(tasks)})
		var mu sync.Mutex
		var probing sync.Mutex
		// A lost catalog write stops the round at once: nothing after it
		// could be recorded (catalog.ErrWriteFailed); so does a database
		// that stopped answering (ErrDatabaseLost).
		ectx, stopRound := context.WithCancelCause(ctx)
		g, gctx := errgroup.WithContext(ectx)
		g.SetLimit(cfg.Parallel)
		// checkpoint saves the state mid-round, as each task starts and
		// ends, with the queries sent so far: a process killed before the
		// round's end still leaves the round counted (it ran a task) and its
		// queries, which a resumed attempt adds to. Under mu, which guards
		// the maps the tasks update, so a later count is never overwritten
		// by an earlier one. A failed write is the round end's to report (it
		// saves again), or the catalog's (WriteErr), which stops the round.
		var started atomic.Bool
		checkpoint := func() {
			mu.Lock()
			defer mu.Unlock()
			s := state
			s.Queries, s.LLM = queries.Load(), o.llmUsage(llmBase)
			_ = o.save(ctx, &run, s)
		}
		// Tasks of pipelined experts that become ready while the round runs
		// start in it as slots free (pipelined, below): each task's end
		// wakes the loop after the first dispatch.
		var outstanding atomic.Int64
		finished := make(chan struct{}, 1)
		runOne := func(t experts.Task) error {
			if gctx.Err() != nil {
				return nil
			}
			mu.Lock()
			n := failures[taskKey(t)]
			last, failed := failedAt[taskKey(t)]
			mu.Unlock()
			if failed && !retryPause(gctx, n, last) {
				return nil // the deadline came during the pause
			}
			o.emit(Event{Kind: EventTaskStart, Iteration: it, Phase: m.Phase, Expert: t.Expert, Task: t.Name})
			started.Store(true)
			checkpoint()
			defer checkpoint()
			start := o.now()
			err := runTask(gctx, t)
			el := o.now().Sub(start)
			mu.Lock()
			if state.Costs == nil {
				state.Costs = &catalog.RunCosts{}
			}
			state.Costs.Add(t.Expert, t.Name, el.Seconds(), err != nil && gctx.Err() == nil)
			mu.Unlock()
			if werr := o.Catalog.WriteErr(); werr != nil {
				stopRound(werr)
				return nil
			}
			if err != nil {
				if gctx.Err() != nil {
					return nil // the deadline, not the task, is at fault
				}
				// A table that cannot be read, or a database that is gone?
				probing.Lock()
				lost := o.reachable(gctx, cfg.Options.QueryTimeout)
				probing.Unlock()
				if lost != nil {
					stopRound(lost)
					return nil
				}
				mu.Lock()
				failures[taskKey(t)]++
				n := failures[taskKey(t)]
				failedAt[taskKey(t)] = time.Now()
				mu.Unlock()
				o.emit(Event{Kind: EventTaskFailed, Iteration: it, Phase: m.Phase, Expert: t.Expert, Task: t.Name, Elapsed: el, Err: err.Error(),
					Attempt: n, MaxAttempts: cfg.MaxTaskFailures})
				if n >= cfg.MaxTaskFailures {
					mu.Lock()
					g := catalog.GivenUp{Expert: t.Expert, Task: t.Name, Table: t.Table, Error: err.Error()}
					if t.Reaches != nil {
						g.Milestone = t.Reaches.Key()
					}
					givenUp[taskKey(t)] = g
					mu.Unlock()
					o.giveUp(env, t, err)
				}
				return nil
			}
			if failed {
				mu.Lock()
				delete(failedAt, taskKey(t))
				mu.Unlock()
			}
			o.emit(Event{Kind: EventTaskDone, Iteration: it, Phase: m.Phase, Expert: t.Expert, Task: t.Name, Elapsed: el})
			return nil
		}
		dispatch := func(t experts.Task) {
			outstanding.Add(1)
			g.Go(func() error {
				defer func() {
					outstanding.Add(-1)
					select {
					case finished <- struct{}{}:
					default: // a wake-up is pending already
					}
				}()
				return runOne(t)
			})
		}
		for _, t := range tasks {
			dispatch(t)
		}
		planned := len(tasks)
		if pipe := pipelined(xs); len(pipe) > 0 {
			// Each task's end may make a pipelined expert's task ready. Idle
			// is read before planning: a task that ends after it wakes the
			// loop again, so the last end is always planned after.
			for gctx.Err() == nil {
				select {
				case <-finished:
				case <-gctx.Done():
					continue
				}
				idle := outstanding.Load() == 0
				var more []experts.Task
				for _, x := range pipe {
					ts, err := x.Plan(gctx, env.For(x.Name()))
					if err != nil {
						break // the next round's planning meets it, and says so
					}
					for _, t := range ts {
						mu.Lock()
						failedOut := failures[taskKey(t)] >= cfg.MaxTaskFailures
						mu.Unlock()
						if key := t.Expert + "\x00" + t.Name; !ran[key] && !failedOut {
							ran[key] = true
							more = append(more, t)
						}
					}
				}
				if len(more) > 0 {
					planned += len(more)
					o.emit(Event{Kind: EventStep, Step: "execute", Iteration: it, Phase: m.Phase, Tasks: planned,
						Message: fmt.Sprintf("%d more tasks ready during the round", len(more))})
				}
				for _, t := range more {
					dispatch(t)
				}
				if idle && len(more) == 0 {
					break
				}
			}
		}
		_ = g.Wait() // tasks report their own failures
		cause := context.Cause(ectx)
		stopRound(nil)
		if werr := o.Catalog.WriteErr(); werr != nil {
			return o.finish(run, state, &queries, "", werr)
		}
		if errors.Is(cause, ErrDatabaseLost) && ctx.Err() == nil {
			return o.finish(run, state, &queries, "", cause)
		}
		if !started.Load() && ctx.Err() != nil {
			state.Iteration-- // stopped before any task ran: this round does not count
			stop = StopDeadline
			break
		}

		// synthesize, collaborate: cross-check what different experts wrote
		newFindings := int(env.NewFindings())
		if ctx.Err() == nil {
			n, err := collaborate(ctx, env)
			if err != nil && ctx.Err() == nil {
				return o.finish(run, state, &queries, stopOnError(ctx), err)
			}
			newFindings += n
			o.emit(Event{Kind: EventStep, Step: "collaborate", Iteration: it, Message: fmt.Sprintf("%d cross-expert findings", n)})
		}
		state.NewInsights = append(state.NewInsights, newFindings)
		// Counted even past the deadline: the record and the view end true.
		kinds, err := o.tally(context.WithoutCancel(ctx), run.ID, &state)
		if err != nil {
			return o.finish(run, state, &queries, stopOnError(ctx), err)
		}

		// reflect
		mctx := ctx
		if ctx.Err() != nil {
			mctx = context.WithoutCancel(ctx)
		}
		m, err = Measure(mctx, o.Catalog, run.ID, tables, xs)
		if err != nil {
			return o.finish(run, state, &queries, stopOnError(ctx), err)
		}
		state.Phase, state.Confidence, state.Coverage = m.Phase, m.Confidence, m.Coverage
		state.Queries = queries.Load()
		state.LLM = o.llmUsage(llmBase)
		o.emit(Event{Kind: EventIterationDone, Iteration: it, Phase: m.Phase, NewInsights: newFindings,
			Confidence: m.Confidence, Coverage: m.Coverage, Queries: state.Queries, ModelCalls: state.LLM.Calls,
			Findings: kinds})
		stop = reflect(ctx, cfg, state)
		if stop == "" && budgetSpent(cfg, state.Queries) {
			// A spent query budget ends the run like its deadline: every
			// further task would fail on its first query.
			stop = StopDeadline
			recordBudget(mctx, env, cfg.Options.MaxQueries)
		}
		if (stop == StopConfidence || stop == StopCoverage) && settled < settleRounds {
			pending, stop = stop, ""
			settled++
		}
		if err := o.save(mctx, &run, state); err != nil {
			return run, err
		}
	}
	if stop == StopDeadline && errors.Is(ctx.Err(), context.Canceled) {
		// Cancelled (the user pressed ^C), not out of time: leave the run
		// unfinished so --resume continues it.
		s := state
		s.Queries = queries.Load()
		s.LLM = o.llmUsage(llmBase)
		if err := o.save(context.WithoutCancel(ctx), &run, s); err != nil {
			return run, err
		}
		o.emit(Event{Kind: EventRunDone, RunID: run.ID, Iteration: s.Iteration, Phase: s.Phase, StopReason: "interrupted",
			Confidence: s.Confidence, Coverage: s.Coverage, Queries: s.Queries, ModelCalls: s.LLM.Calls})
		return run, fmt.Errorf("orchestrator: run %s interrupted: %w", run.ID, ctx.Err())
	}
	return o.finish(run, state, &queries, stop, nil)
}

// resumedAt says where a resumed run continues from: the counts of its
// earlier attempts, which this one adds to.
func resumedAt(s catalog.LoopState) string {
	if s.Iteration == 0 && s.Queries == 0 {
		return ""
	}
	return fmt.Sprintf("; resumed after iteration %d, %d queries so far", s.Iteration, s.Queries)
}

// lostTables says which tables a resumed run profiles again because what
// its killed process sealed of them can no longer be read (its sealing key
// is gone: redact.Sweep removed it, or the cache was cleared), "" when
// none: the user is told rather than left to wonder at the redone work.
func (o *Orchestrator) lostTables() string {
	if o.guard == nil {
		return ""
	}
	lost := o.guard.Lost()
	if len(lost) == 0 {
		return ""
	}
	const show = 5
	names := strings.Join(lost[:min(show, len(lost))], ", ")
	if len(lost) > show {
		names += fmt.Sprintf(" and %d more", len(lost)-show)
	}
	return fmt.Sprintf("; the sealing key of the earlier attempt is gone, so what it sealed is unreadable: %d tables profiled again (%s)", len(lost), names)
}

// taskKey names a task in LoopState.Failures.
func taskKey(t experts.Task) string { return t.Expert + "/" + t.Name }

// retryPause waits before a task that failed n times runs again:
// 250 ms, 1 s, then 3 s (retryBackoff), counted from its last failure, time for a
// passing problem of the database to pass (a round that took longer leaves
// nothing to wait). It reports false when ctx ended first.
func retryPause(ctx context.Context, n int, failed time.Time) bool {
	pause := retryBackoff(n) - time.Since(failed)
	if pause <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(pause)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// retryBackoff is the pause before the attempt that follows n failures:
// the pauses a statement is retried after (warehouse.RetryBackoff), the
// last one from then on.
func retryBackoff(n int) time.Duration {
	b := warehouse.RetryBackoff
	return b[min(max(n, 1), len(b))-1]
}

// runTask runs a task, turning a panic into an error so one bad table
// cannot take the run down.
func runTask(ctx context.Context, t experts.Task) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return t.Run(ctx)
}

// findingKinds are the findings a person watching the run counts.
var findingKinds = []string{catalog.KindRelationship, catalog.KindPattern, catalog.KindInsight,
	catalog.KindHypothesis, catalog.KindRecommendation, catalog.KindUncertainty}

// budgetSpent reports whether the run has used its query budget.
func budgetSpent(cfg Config, queries int64) bool {
	return cfg.Options.MaxQueries > 0 && queries >= cfg.Options.MaxQueries
}

// recordBudget says in the report why the run stopped short.
func recordBudget(ctx context.Context, env *experts.Env, budget int64) {
	doc := catalog.UncertaintyDoc{Description: fmt.Sprintf(
		"The run stopped when its budget of %d queries (--max-queries) was spent: what it had not examined by then is listed with the other gaps.", budget)}
	_ = catalog.Uncertainties.Save(ctx, env.For("orchestrator"), "budget:queries", doc, 1.0, []string{fmt.Sprintf("%d queries sent", budget)})
}

// settleRounds bounds the rounds run after the confidence or coverage
// target is met, for tasks not run before.
const settleRounds = 3

// reflect applies the stop criteria, in CONTRACT's order of precedence.
func reflect(ctx context.Context, cfg Config, s catalog.LoopState) string {
	switch {
	case ctx.Err() != nil:
		return StopDeadline
	case s.Confidence >= cfg.TargetConfidence:
		return StopConfidence
	case s.Coverage >= cfg.TargetCoverage:
		return StopCoverage
	case diminishing(s.NewInsights):
		return StopDiminishing
	case s.Iteration >= cfg.MaxIterations:
		return StopMaxIter
	}
	return ""
}

// diminishing: fewer than 2 new insights in each of the last 3 iterations.
func diminishing(perIteration []int) bool {
	if len(perIteration) < 3 {
		return false
	}
	for _, n := range perIteration[len(perIteration)-3:] {
		if n >= 2 {
			return false
		}
	}
	return true
}

func stopOnError(ctx context.Context) string {
	if ctx.Err() != nil {
		return StopDeadline
	}
	return ""
}

func (o *Orchestrator) save(ctx context.Context, run *catalog.Run, s catalog.LoopState) error {
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("orchestrator: save state: %w", err)
	}
	run.State = b
	if err := o.Catalog.UpdateRun(ctx, *run); err != nil {
		return fmt.Errorf("orchestrator: save state: %w", err)
	}
	return nil
}

// finish records how the run ended. A failed run (runErr set) is saved
// unfinished, so --resume can pick it up.
func (o *Orchestrator) finish(run catalog.Run, s catalog.LoopState, queries *atomic.Int64, stop string, runErr error) (catalog.Run, error) {
	ctx := context.Background() // the run's context may be past its deadline; the record must still be written
	s.Queries = queries.Load()
	if o.cache != nil {
		s.Cached = o.cachedAt + o.cache.Hits()
	}
	if o.Model != nil {
		s.LLM = o.llmUsage(o.usageBase)
	}
	if runErr != nil && stop == "" {
		_ = o.save(ctx, &run, s)
		return run, runErr
	}
	if o.model != nil && o.lastEnv != nil && stop != "" && stop != StopDeadline {
		// Past a deadline the user's --timeout comes first; otherwise the
		// narrative is written now if its round never came.
		if err := o.model.Finish(ctx, o.lastEnv.For(o.model.Name())); err == nil {
			s.LLM = o.llmUsage(o.usageBase)
		}
	}
	if stop != "" {
		o.recordGaps(ctx, run.ID, s.Iteration)
		oc, err := o.outcome(ctx, run.ID, s, stop)
		if err == nil {
			err = o.recordOutcome(ctx, run.ID, s.Iteration, oc)
		}
		if err != nil {
			_ = o.save(ctx, &run, s)
			return run, fmt.Errorf("orchestrator: outcome: %w", err)
		}
	}
	if m, err := o.measureAll(ctx, run.ID); err == nil {
		s.Confidence, s.Coverage, s.Phase = m.Confidence, m.Coverage, m.Phase
	}
	if stop != "" {
		// The next run on the same data sends what this one sent or was
		// served: the rest of the kept results can go.
		if err := o.cache.Prune(ctx); err != nil {
			_ = o.save(ctx, &run, s)
			return run, fmt.Errorf("orchestrator: %w", err)
		}
		// The values of personal-data columns are masked before the run is
		// marked finished (package redact): a finished run's catalog, and
		// every report written from it, holds none of them. What the guard
		// held back (the sealed profiles of columns never judged, the kept
		// results) is written first, so that the last pass sees it.
		if o.guard != nil {
			if err := o.guard.Finish(ctx); err != nil {
				_ = o.save(ctx, &run, s)
				return run, fmt.Errorf("orchestrator: %w", err)
			}
		}
		if _, err := redact.Catalog(ctx, o.Catalog, run.ID, o.Config.Options.ShowPII); err != nil {
			_ = o.save(ctx, &run, s)
			return run, fmt.Errorf("orchestrator: %w", err)
		}
	}
	now := o.now().UTC()
	run.FinishedAt = &now
	run.StopReason = stop
	if err := o.save(ctx, &run, s); err != nil {
		return run, err
	}
	if o.guard != nil && stop != "" {
		// Finished: nothing sealed is left for the key to open.
		if err := o.guard.Forget(); err != nil {
			return run, fmt.Errorf("orchestrator: %w", err)
		}
	}
	o.emit(Event{Kind: EventRunDone, RunID: run.ID, Iteration: s.Iteration, Phase: s.Phase, StopReason: stop,
		Confidence: s.Confidence, Coverage: s.Coverage, Queries: s.Queries, ModelCalls: s.LLM.Calls})
	return run, nil
}

func (o *Orchestrator) measureAll(ctx context.Context, runID string) (Metrics, error) {
	all, err := o.Source.Tables(ctx)
	if err != nil {
		return Metrics{}, err
	}
	tables, err := Filter(all, o.Config.Include, o.Config.Exclude)
	if err != nil {
		return Metrics{}, err
	}
	return Measure(ctx, o.Catalog, runID, tables, o.experts(o.Config.LLMPaths))
}

// recordGaps writes what the run did not get to as uncertainties, so the
// report says what is missing rather than implying it is complete.
func (o *Orchestrator) recordGaps(ctx context.Context, runID string, iteration int) {
	m, err := o.measureAll(ctx, runID)
	if err != nil || len(m.Pending) == 0 {
		return
	}
	const show = 8
	desc := fmt.Sprintf("The run stopped before finishing %d of %d units of work: %s", len(m.Pending), m.Units,
		strings.Join(head(m.Pending, show), "; "))
	if len(m.Pending) > show {
		desc += fmt.Sprintf("; and %d more", len(m.Pending)-show)
	}
	e, err := catalog.NewEntry(catalog.KindUncertainty, "orchestrator:unfinished", catalog.UncertaintyDoc{Description: desc})
	if err != nil {
		return
	}
	e.Expert, e.RunID, e.Iteration, e.Confidence = "orchestrator", runID, iteration, 1.0
	e.Evidence = []string{fmt.Sprintf("coverage %.2f", m.Coverage)}
	_ = o.Catalog.Save(ctx, e)
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// recordConnection saves what the connection's role could do beyond
// reading and, when it could, names it among the uncertainties with what
// became of the model's SQL: a reader of the report must know that the run
// held superuser rights, even though discover itself only read.
func (o *Orchestrator) recordConnection(ctx context.Context, runID string, iteration int) error {
	doc := catalog.ConnectionDoc{Privileges: []string{}, UntrustedSQL: "none"}
	door := &warehouse.Door{Source: o.Source, AllowPrivileged: o.Config.AllowPrivileged}
	if _, ok := o.Source.(warehouse.PrivilegeReporter); ok {
		p, err := door.Privileges(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			doc.Error = err.Error()
		} else {
			doc.Checked, doc.Role, doc.Privileged = true, p.Role, p.Privileged()
			doc.Privileges = append(doc.Privileges, p.Risky...)
		}
	}
	if o.Model != nil {
		switch err := door.Admit(ctx); {
		case err != nil:
			doc.UntrustedSQL = "refused"
		case o.Config.AllowPrivileged && (doc.Privileged || doc.Error != ""):
			doc.UntrustedSQL = "allowed (--allow-privileged)"
		default:
			doc.UntrustedSQL = "allowed"
		}
	}
	save := func(kind, key string, v any, evidence []string) error {
		e, err := catalog.NewEntry(kind, key, v)
		if err != nil {
			return err
		}
		e.Expert, e.RunID, e.Iteration, e.Confidence, e.Evidence = "orchestrator", runID, iteration, 1.0, evidence
		return o.Catalog.Save(ctx, e)
	}
	if err := save(catalog.KindConnection, "connection", doc, []string{"asked of the database at the start of the run"}); err != nil {
		return fmt.Errorf("orchestrator: connection: %w", err)
	}
	if c, ok := o.Source.(warehouse.Cautioner); ok {
		for i, caveat := range c.Caveats() {
			if err := save(catalog.KindUncertainty, fmt.Sprintf("connection:caveat:%d", i), catalog.UncertaintyDoc{Description: caveat},
				[]string{"said by the " + o.Source.Dialect().Name() + " engine"}); err != nil {
				return fmt.Errorf("orchestrator: connection: %w", err)
			}
		}
	}
	if !doc.Privileged && doc.Error == "" {
		return nil
	}
	who := "The connection"
	if doc.Role != "" {
		who = fmt.Sprintf("The connection's role %q", doc.Role)
	}
	var desc string
	if doc.Error != "" {
		desc = "The connection's privileges could not be checked (" + doc.Error + ")."
	} else {
		desc = fmt.Sprintf("%s can do more than read: %s. discover's own SQL only read (read-only transactions and the allow-list guard).",
			who, strings.Join(doc.Privileges, "; "))
	}
	switch doc.UntrustedSQL {
	case "refused":
		desc += " The model's SQL was not run; connect as a role that can only read, or pass --allow-privileged."
	case "allowed (--allow-privileged)":
		desc += " The model's SQL ran because of --allow-privileged, with the allow-list guard alone in front of it."
	}
	if err := save(catalog.KindUncertainty, "connection:privileged", catalog.UncertaintyDoc{Description: desc}, doc.Privileges); err != nil {
		return fmt.Errorf("orchestrator: connection: %w", err)
	}
	return nil
}

// recordSkipped lists the tables the source left out (no privilege, broken
// views) as uncertainties: the report must say what it could not read.
func (o *Orchestrator) recordSkipped(ctx context.Context, runID string, iteration int) error {
	sr, ok := o.Source.(warehouse.SkipReporter)
	if !ok {
		return nil
	}
	skipped, err := sr.Skipped(ctx)
	if err != nil {
		return fmt.Errorf("orchestrator: skipped tables: %w", err)
	}
	o.skipped = skipped
	for _, sk := range skipped {
		e, err := catalog.NewEntry(catalog.KindUncertainty, "skipped:"+sk.Table.String(),
			catalog.UncertaintyDoc{Description: fmt.Sprintf("%s was not examined: %s.", sk.Table, sk.Reason)})
		if err != nil {
			return err
		}
		e.Expert, e.RunID, e.Iteration, e.Confidence = "orchestrator", runID, iteration, 1.0
		e.Evidence = []string{sk.Reason}
		e.Tags = []string{"skipped"}
		if err := o.Catalog.Save(ctx, e); err != nil {
			return fmt.Errorf("orchestrator: skipped tables: %w", err)
		}
	}
	return nil
}

// giveUp records a task that kept failing as an uncertainty.
func (o *Orchestrator) giveUp(env *experts.Env, t experts.Task, err error) {
	doc := catalog.UncertaintyDoc{Description: fmt.Sprintf("%s expert gave up on %q after repeated failures: %v", t.Expert, t.Name, err)}
	_ = catalog.Uncertainties.Save(context.Background(), env.For("orchestrator"), experts.GaveUpKey(t.Expert, t.Name), doc, 1.0,
		[]string{err.Error()})
}

// tally counts this run's findings once: per expert into the loop state,
// and per kind of findingKinds for the progress view.
func (o *Orchestrator) tally(ctx context.Context, runID string, s *catalog.LoopState) (map[string]int, error) {
	entries, err := o.Catalog.Briefs(ctx, catalog.Filter{RunID: runID})
	if err != nil {
		return nil, fmt.Errorf("orchestrator: contributions: %w", err)
	}
	c, kinds := map[string]int{}, map[string]int{}
	for _, k := range findingKinds {
		kinds[k] = 0
	}
	for _, e := range entries {
		if e.Kind == catalog.KindProgress {
			continue
		}
		c[e.Expert]++
		if _, ok := kinds[e.Kind]; ok {
			kinds[e.Kind]++
		}
	}
	s.Contributions = c
	return kinds, nil
}

// Filter keeps the tables matching any include glob (all when none) and no
// exclude glob. Globs match the report's table name, case-insensitively.
func Filter(tables []warehouse.Table, include, exclude []string) ([]warehouse.Table, error) {
	for _, g := range append(append([]string{}, include...), exclude...) {
		if _, err := path.Match(strings.ToLower(g), ""); err != nil {
			return nil, fmt.Errorf("%w: bad table glob %q: %v", warehouse.ErrBadInput, g, err)
		}
	}
	match := func(globs []string, name string) bool {
		for _, g := range globs {
			if ok, _ := path.Match(strings.ToLower(g), strings.ToLower(name)); ok {
				return true
			}
		}
		return false
	}
	var out []warehouse.Table
	for _, t := range tables {
		n := t.Name.String()
		if len(include) > 0 && !match(include, n) {
			continue
		}
		if match(exclude, n) {
			continue
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name.String() < out[j].Name.String() })
	return out, nil
}

// Pipelined is an expert whose tasks may start in the round in which they
// become ready, as soon as another task of the round ends, instead of
// waiting for the next round: its readiness reads findings only (no round
// milestone, which a later plan in the same round could settle
// differently), and what its tasks find does not depend on when they start.
// A round whose long task leaves cores idle (the inference of references)
// then runs them meanwhile.
type Pipelined interface {
	experts.Expert
	Pipelined() bool
}

// pipelined returns the experts of xs that are Pipelined, in order.
func pipelined(xs []experts.Expert) []experts.Expert {
	var out []experts.Expert
	for _, x := range xs {
		if p, ok := x.(Pipelined); ok && p.Pipelined() {
			out = append(out, x)
		}
	}
	return out
}
