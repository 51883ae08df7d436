// Package experts defines what an expert is and the environment it works in.
// Each expert lives in a subfolder; experts never call each other, they read
// and write the catalog.
package experts

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

// Expert plans work from what the catalog holds. An expert that returns no
// tasks is satisfied for this iteration.
type Expert interface {
	Name() string
	Plan(ctx context.Context, env *Env) ([]Task, error)
}

// Task is one unit of an expert's work, run concurrently with others.
type Task struct {
	Expert string
	Name   string // short, for progress lines: "profile orders"
	// Table is the one table or view the task reads, when there is one:
	// a task given up on then names what the run could not see.
	Table string
	// Reaches is the table milestone this task reaches for Table, if any:
	// when the task is given up, the milestone counts as reached for the
	// table, so that no expert waits for it.
	Reaches *TableMilestone
	Run     func(ctx context.Context) error
}

// Options are the bounds and settings experts honour.
type Options struct {
	SampleRows   int64         // tables with more rows are profiled on a sample
	QueryTimeout time.Duration // per query
	MaxRows      int           // row cap per query
	MaxQueries   int64         // 0 = unbounded
	// Relations are references the user declared in discover.yaml, which
	// the data may not show; they are reported with source "user".
	Relations []UserRelation
	// Comments are the team's descriptions of tables and columns in
	// discover.yaml (comments:), shown as theirs beside the database's.
	Comments []UserComment
	// IgnoreDeclaredFKs makes discovery infer relationships as if the
	// schema declared none, so inference can be measured against the
	// declarations (cmd/relbench).
	IgnoreDeclaredFKs bool
	// Parallel is how many statements one task may have running at once
	// (the run's --parallel; 0 or 1: one at a time).
	Parallel int
	// ShowPII keeps the values of personal-data columns as they are
	// (--show-pii). Otherwise an expert that writes such a value into a
	// finding (a probe's literal) writes its mask, and a finished run
	// masks the rest (package redact).
	ShowPII bool
	// LLMAllowPII lets the values of personal-data columns into model
	// prompts (--llm-allow-pii); otherwise a prompt carries their names
	// and statistics only.
	LLMAllowPII bool
}

// UserRelation is a reference from the configuration file.
type UserRelation struct {
	FromTable   string // as the report names tables: bare or schema.table
	FromColumns []string
	ToTable     string
	ToColumns   []string
	Line        int // the line of discover.yaml that gives it, for messages
}

// UserComment is a description from the configuration file's comments:.
type UserComment struct {
	// Key names a table or view (bare or schema.table) or one of its
	// columns (table.column), as the report names them.
	Key  string
	Text string
	Line int // the line of discover.yaml that gives it, for messages
}

// ErrQueryBudget is returned when the run's query budget is spent.
var ErrQueryBudget = errors.New("query budget spent")

// Env is what an expert sees in one iteration. It is shared by the tasks of
// all experts in the iteration and safe for concurrent use.
type Env struct {
	// source is reached only through the methods below, each counted
	// against the run's query budget and bounded by the per-query timeout.
	source    warehouse.Source
	Catalog   *catalog.Catalog
	RunID     string
	Iteration int
	Phase     int
	Tables    []warehouse.Table // the inventory, after --include/--exclude
	Options   Options

	expert string // whose findings Save records (For)
	// failures counts the failed attempts of each task of the run so far
	// ("expert/task"), as the orchestrator keeps them in the run's saved
	// state: a resumed run remembers them. Read-only here.
	failures map[string]int
	// gaveUp holds, per table milestone (its Key), the tables whose task
	// declaring it the run has given up on (WithGivenUp).
	gaveUp   map[string]map[string]bool
	queries  *atomic.Int64
	findings *atomic.Int64 // entries saved this iteration that were new or changed
	scopes   *scopeCache   // how each table is read (sample.go)
	marks    *roundMarks   // the round milestones settled so far (milestone.go)
	cache    ResultCache   // results of statements over unchanged tables; nil: none
	byName   *tableNames   // Tables by name, built once (Table)
}

// tableNames indexes an Env's Tables by name, built on first use and shared
// by the Envs For and WithCache derive.
type tableNames struct {
	once sync.Once
	m    map[string]warehouse.Table
}

// Table returns the table of the inventory the report names name (bare or
// schema.table, as TableName.String writes it). A task that needs one or
// two tables asks here: a map built per task of 10,000 tables cost more
// than the task's statements.
func (e *Env) Table(name string) (warehouse.Table, bool) {
	e.byName.once.Do(func() {
		e.byName.m = make(map[string]warehouse.Table, len(e.Tables))
		for _, t := range e.Tables {
			e.byName.m[t.Name.String()] = t
		}
	})
	t, ok := e.byName.m[name]
	return t, ok
}

// ResultCache answers the experts' own statements over tables that did not
// change since a run that sent them, and keeps what is sent for the next
// run (package querycache). Lookup returns the kept answer (a result, or
// the timeout the statement met under at least timeout), or the key to
// keep this one under ("" when it may not be kept); Keep keeps a result or
// the statement's own timeout.
type ResultCache interface {
	Lookup(ctx context.Context, sql string, maxRows int, timeout time.Duration) (res *warehouse.Result, key string, hit bool, err error)
	// LookupFigures is Lookup for figures discover counted itself in
	// place of a statement (Kept), keyed by discover's build too.
	LookupFigures(ctx context.Context, what string) (res *warehouse.Result, key string, hit bool, err error)
	Keep(ctx context.Context, key string, res *warehouse.Result, err error, timeout time.Duration)
}

// WithCache returns this environment answering statements from c first.
func (e *Env) WithCache(c ResultCache) *Env {
	b := *e
	b.cache = c
	return &b
}

// NewEnv builds an environment; queries counts the run's queries across iterations.
func NewEnv(src warehouse.Source, cat *catalog.Catalog, runID string, iteration, phase int,
	tables []warehouse.Table, opts Options, queries *atomic.Int64) *Env {
	return &Env{source: src, Catalog: cat, RunID: runID, Iteration: iteration, Phase: phase,
		Tables: tables, Options: opts, queries: queries, findings: new(atomic.Int64),
		scopes: &scopeCache{m: map[string]Scope{}}, marks: &roundMarks{m: map[string]bool{}}, byName: &tableNames{}}
}

// NewFindings is the number of new or changed entries saved through this Env.
func (e *Env) NewFindings() int64 { return e.findings.Load() }

// Queries is the run's query count so far.
func (e *Env) Queries() int64 { return e.queries.Load() }

// spend counts one query against the run's budget, or refuses it (and
// does not count it) when the budget is spent.
func (e *Env) spend() error {
	if n := e.queries.Add(1); e.Options.MaxQueries > 0 && n > e.Options.MaxQueries {
		e.queries.Add(-1) // refused, not run
		return ErrQueryBudget
	}
	return nil
}

// Query runs one guarded statement against the source, counted against the budget.
func (e *Env) Query(ctx context.Context, sql string) (*warehouse.Result, error) {
	var key string
	if e.cache != nil {
		// A kept answer is no query to the database: it spends no budget.
		res, k, hit, err := e.cache.Lookup(ctx, sql, e.Options.MaxRows, e.queryTimeout())
		if hit {
			return res, err
		}
		key = k
	}
	if err := e.spend(); err != nil {
		return nil, err
	}
	res, err := e.source.Query(ctx, sql, warehouse.QueryOptions{Timeout: e.Options.QueryTimeout, MaxRows: e.Options.MaxRows})
	noteOwnRefusal(e.RunID, sql, err)
	e.keep(ctx, key, res, err)
	return res, err
}

// Kept returns the figures a run of the same discover build kept for what
// (a statement, under a comment naming how else discover measured it:
// "/* streamed check */ SELECT …"), when the tables it names did not
// change since; key is
// where to keep them when they are measured now (KeepFigures; "" when they
// may not be kept: no cache, or a statement over no table with a signal).
// It sends nothing: the caller measures the figures its own way, a
// streamed read standing for the statement, which the statement cache
// (Query's) cannot answer.
func (e *Env) Kept(ctx context.Context, what string) (res *warehouse.Result, key string, hit bool) {
	if e.cache == nil {
		return nil, "", false
	}
	res, key, hit, err := e.cache.LookupFigures(ctx, what)
	if err != nil || res == nil {
		return nil, key, false
	}
	return res, key, hit
}

// KeepFigures keeps res under key (from Kept) for the next run.
func (e *Env) KeepFigures(ctx context.Context, key string, res *warehouse.Result) {
	e.keep(ctx, key, res, nil)
}

// queryTimeout is the per-query timeout statements run under; 0 is the
// source's own default, under which no timeout is kept.
func (e *Env) queryTimeout() time.Duration { return e.Options.QueryTimeout }

// keep hands a statement's answer to the cache: a result, or a timeout
// of its own — not one of the run's deadline or a cancellation, which say
// nothing of the statement.
func (e *Env) keep(ctx context.Context, key string, res *warehouse.Result, err error) {
	if key == "" || ctx.Err() != nil || err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return
	}
	e.cache.Keep(ctx, key, res, err, e.queryTimeout())
}

// The experts' own statements pass the same allow-list as untrusted SQL. One
// the guard refuses is a bug (an expert needs a function, clause or name
// the engine's list lacks), which the run survives as a failed task;
// ownRefusals keeps them per run so that tests can require there be none.
var ownRefusals = struct {
	sync.Mutex
	byRun map[string][]string
}{byRun: map[string][]string{}}

func noteOwnRefusal(runID, sql string, err error) {
	if !errors.Is(err, warehouse.ErrRejected) || errors.Is(err, warehouse.ErrDatabaseRefused) {
		return
	}
	ownRefusals.Lock()
	defer ownRefusals.Unlock()
	if len(ownRefusals.byRun[runID]) < 20 {
		ownRefusals.byRun[runID] = append(ownRefusals.byRun[runID], fmt.Sprintf("%.300s: %v", sql, err))
	}
}

// OwnRefusals returns the experts' statements of run runID that the guard
// refused in this process, with the reasons (at most 20).
func OwnRefusals(runID string) []string {
	ownRefusals.Lock()
	defer ownRefusals.Unlock()
	return append([]string(nil), ownRefusals.byRun[runID]...)
}

// QueryUntrusted runs SQL discover did not write (a model's) through door,
// counted against the run's budget like Query.
func (e *Env) QueryUntrusted(ctx context.Context, door *warehouse.Door, sql string) (*warehouse.Result, error) {
	if err := e.spend(); err != nil {
		return nil, err
	}
	return door.Query(ctx, sql, warehouse.QueryOptions{Timeout: e.Options.QueryTimeout, MaxRows: e.Options.MaxRows})
}

// Streamer is a source that can hand a query's rows over one at a time,
// where reading every row costs less than the engine's own aggregates over
// them: an in-process engine (SQLite), or a server whose samples its
// aggregates read whole again for every statement (PostgreSQL). The
// streaming profile (experts/statistical) computes its figures with that
// engine's semantics.
type Streamer interface {
	Stream(ctx context.Context, sql string, opts warehouse.QueryOptions, fn func(row []any) error) error
}

// ErrNoStream is returned by Stream when the source cannot stream.
var ErrNoStream = errors.New("source cannot stream rows")

// CanStream reports whether Stream will work on this source.
func (e *Env) CanStream() bool {
	_, ok := e.source.(Streamer)
	return ok
}

// Stream runs one guarded statement and hands its rows to fn one at a time,
// counted against the budget like Query, with the per-query timeout but no
// row cap: the caller bounds its memory. The row slice is reused.
func (e *Env) Stream(ctx context.Context, sql string, fn func(row []any) error) error {
	st, ok := e.source.(Streamer)
	if !ok {
		return ErrNoStream
	}
	if err := e.spend(); err != nil {
		return err
	}
	err := st.Stream(ctx, sql, warehouse.QueryOptions{Timeout: e.Options.QueryTimeout}, fn)
	noteOwnRefusal(e.RunID, sql, err)
	return err
}

// Database is the source's short human name for the database.
func (e *Env) Database() string { return e.source.Database() }

// Door is a door on the source for SQL discover did not write (a model's):
// it checks the connection's privileges and bounds results in bytes, and
// admits no privileged connection. Run its statements with QueryUntrusted,
// which counts them against the budget.
func (e *Env) Door() *warehouse.Door { return &warehouse.Door{Source: e.source} }

// Dialect is the source's SQL dialect: its quoting, the fragments that
// differ between engines, and what the engine can do (Capabilities).
func (e *Env) Dialect() warehouse.Dialect { return e.source.Dialect() }

// CanEstimateRows reports whether the source has a cheap row estimate
// (warehouse.RowEstimator).
func (e *Env) CanEstimateRows() bool {
	_, ok := e.source.(warehouse.RowEstimator)
	return ok
}

// EstimateRows is the source's cheap estimate of a table's rows (exact when
// the engine knows the count), counted against the budget and bounded by
// the per-query timeout like every statement. ok is false when the source
// has no estimate.
func (e *Env) EstimateRows(ctx context.Context, t warehouse.TableName) (n int64, exact, ok bool, err error) {
	est, ok := e.source.(warehouse.RowEstimator)
	if !ok {
		return 0, false, false, nil
	}
	if err := e.spend(); err != nil {
		return 0, false, true, err
	}
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	n, exact, err = est.EstimateRows(ctx, t)
	return n, exact, true, err
}

// ColumnStats are the planner's per-column estimates of a table
// (warehouse.ColumnStatser), counted against the budget and bounded by the
// per-query timeout. ok is false when the source keeps none.
func (e *Env) ColumnStats(ctx context.Context, t warehouse.TableName) (stats []warehouse.ColumnStat, ok bool, err error) {
	cs, ok := e.source.(warehouse.ColumnStatser)
	if !ok {
		return nil, false, nil
	}
	if err := e.spend(); err != nil {
		return nil, true, err
	}
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	stats, err = cs.ColumnStats(ctx, t)
	return stats, true, err
}

// CanListObjects reports whether the source lists its database's
// enumerated types and routines (warehouse.ObjectLister).
func (e *Env) CanListObjects() bool {
	_, ok := e.source.(warehouse.ObjectLister)
	return ok
}

// Objects are the database's enumerated types and routines
// (warehouse.ObjectLister), counted against the budget and bounded by the
// per-query timeout like every statement. ok is false when the source
// lists none.
func (e *Env) Objects(ctx context.Context) (objects warehouse.Objects, ok bool, err error) {
	ol, ok := e.source.(warehouse.ObjectLister)
	if !ok {
		return warehouse.Objects{}, false, nil
	}
	if err := e.spend(); err != nil {
		return warehouse.Objects{}, true, err
	}
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	objects, err = ol.Objects(ctx)
	return objects, true, err
}

// CanColumnStats reports whether the source keeps planner statistics.
func (e *Env) CanColumnStats() bool {
	_, ok := e.source.(warehouse.ColumnStatser)
	return ok
}

// bounded applies the per-query timeout to ctx.
func (e *Env) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if e.Options.QueryTimeout > 0 {
		return context.WithTimeout(ctx, e.Options.QueryTimeout)
	}
	return ctx, func() {}
}

// RowCount counts a table's rows exactly, counted against the budget.
func (e *Env) RowCount(ctx context.Context, t warehouse.TableName) (int64, error) {
	var key string
	if e.cache != nil {
		// Kept as a statement of its own (the comment keeps it apart from a
		// statement of the same text, which may be bounded otherwise).
		res, k, hit, err := e.cache.Lookup(ctx, "/* RowCount */ SELECT count(*) FROM "+e.source.QuoteTable(t), 1, e.queryTimeout())
		if hit && err != nil {
			return 0, err
		}
		if hit && len(res.Rows) == 1 && len(res.Rows[0]) == 1 {
			if n, ok := res.Rows[0][0].(int64); ok {
				return n, nil
			}
		}
		key = k
	}
	if err := e.spend(); err != nil {
		return 0, err
	}
	bctx, cancel := e.bounded(ctx)
	defer cancel()
	n, err := e.source.RowCount(bctx, t)
	var res *warehouse.Result
	if err == nil {
		res = &warehouse.Result{Columns: []string{"count"}, Rows: [][]any{{n}}}
	}
	e.keep(ctx, key, res, err)
	return n, err
}

// For returns this environment bound to expert: what it saves is recorded
// as that expert's. The orchestrator binds each expert's environment
// before it plans, so no expert names itself at every save.
func (e *Env) For(expert string) *Env {
	b := *e
	b.expert = expert
	return &b
}

// WithFailures returns this environment with the run's failed attempts per
// task ("expert/task"), as of the round's start. The orchestrator owns the
// count, and saves it with the run's state.
func (e *Env) WithFailures(failures map[string]int) *Env {
	b := *e
	b.failures = failures
	return &b
}

// Failures is how often the bound expert's task named task has failed in
// this run (earlier attempts of a resumed run included) before this round.
func (e *Env) Failures(task string) int { return e.failures[e.expert+"/"+task] }

// Expert is the name of the expert this environment is bound to.
func (e *Env) Expert() string { return e.expert }

// Save records a finding of the bound expert, stamping run and iteration.
// A finding whose document, confidence and evidence equal the stored ones
// of this run is not counted as new. Build entries through a catalog.Kind
// (catalog.Profiles.Save(ctx, env, ...)), which checks the document's type.
func (e *Env) Save(ctx context.Context, en catalog.Entry) error {
	if e.expert == "" {
		return fmt.Errorf("save %s %s: the environment is not bound to an expert (Env.For)", en.Kind, en.Key)
	}
	en = e.bind(en)
	// Nothing learned (the same run's same entry) writes nothing and counts
	// as no finding.
	changed, err := e.Catalog.SaveChanged(ctx, en)
	if err != nil {
		return fmt.Errorf("save %s %s: %w", en.Kind, en.Key, err)
	}
	if !changed {
		return nil
	}
	e.findings.Add(1)
	return nil
}

// bind makes en this expert's finding in this run and iteration.
func (e *Env) bind(en catalog.Entry) catalog.Entry {
	en.Expert, en.RunID, en.Iteration = e.expert, e.RunID, e.Iteration
	return en
}

// SaveAll is Save for several entries, committed together: the outcomes
// of one step (the hypotheses one query tested) cost one commit, not one
// each. All are saved or none.
func (e *Env) SaveAll(ctx context.Context, ens []catalog.Entry) error {
	if len(ens) == 0 {
		return nil
	}
	if e.expert == "" {
		return fmt.Errorf("save %d entries: the environment is not bound to an expert (Env.For)", len(ens))
	}
	bound := make([]catalog.Entry, len(ens))
	for i, en := range ens {
		bound[i] = e.bind(en)
	}
	changed, err := e.Catalog.SaveAllChanged(ctx, bound)
	if err != nil {
		return fmt.Errorf("save %d entries: %w", len(ens), err)
	}
	for _, c := range changed {
		if c {
			e.findings.Add(1)
		}
	}
	return nil
}

// Batch collects entries for one SaveAll: it is a catalog.Saver, so the
// kinds' Save functions build entries into it; nothing is written before
// Flush. A step saves its results through a batch when it reads none of
// them back before flushing.
type Batch struct {
	env     *Env
	entries []catalog.Entry
}

// Batch starts an empty batch of this environment's saves.
func (e *Env) Batch() *Batch { return &Batch{env: e} }

// Save adds en to the batch.
func (b *Batch) Save(_ context.Context, en catalog.Entry) error {
	b.entries = append(b.entries, en)
	return nil
}

// Flush saves the batch's entries together and empties it.
func (b *Batch) Flush(ctx context.Context) error {
	err := b.env.SaveAll(ctx, b.entries)
	b.entries = nil
	return err
}

// RunEntries returns this run's entries of a kind.
func (e *Env) RunEntries(ctx context.Context, kind string) ([]catalog.Entry, error) {
	return e.Catalog.List(ctx, catalog.Filter{Kind: kind, RunID: e.RunID})
}

// RunKeys returns the keys of this run's entries of a kind.
func (e *Env) RunKeys(ctx context.Context, kind string) (map[string]bool, error) {
	entries, err := e.RunEntries(ctx, kind)
	if err != nil {
		return nil, err
	}
	keys := make(map[string]bool, len(entries))
	for _, en := range entries {
		keys[en.Key] = true
	}
	return keys, nil
}

// Has reports whether this run already holds an entry of kind and key.
func (e *Env) Has(ctx context.Context, kind, key string) (bool, error) {
	en, err := e.Catalog.Get(ctx, kind, key)
	if errors.Is(err, catalog.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return en.RunID == e.RunID, nil
}
