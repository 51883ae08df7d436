package experts

import (
	"context"
	"fmt"
	"sync"

	"github.com/discover-db/discover/catalog"
)

// Milestone is a piece of one expert's work that another expert waits for
// before it runs a step (its readiness). Milestones are declared here, in
// the experts' shared vocabulary, so that no expert reads another's
// bookkeeping: the expert that does the work records the milestone, the one
// that waits asks Env.Reached.
//
// Most milestones, once reached, hold for the rest of the run: the expert
// records them as a progress entry. A round milestone holds for one round
// only (the work it stands for can come back): the expert settles it while
// it plans (Env.Settle), and an expert planned after it in the same round,
// by the registry's order, sees it.
type Milestone struct {
	key   string
	what  string
	round bool
}

// ReferencesInferred: the inference of undeclared references is done for
// this run (the relations expert; its progress entry holds the inference's
// figures, relations.InferStats), after every table's inventory, so every
// reference, declared or inferred, is in the catalog. The advice expert
// counts references and the structural expert's patterns are found over
// them, so both wait for this. The key keeps the spelling it had when the
// structural expert inferred references, so that a catalog of an earlier
// run resumes without inferring them again.
var ReferencesInferred = Milestone{key: "structural:infer", what: "references inferred"}

// ClaimsTested: the query expert plans no test this round, so every
// relationship's orphan test and cardinality, every key it proposes and
// every bridge it measures are in the catalog. A round milestone: a
// relationship found later brings new tests. The advice expert reads those
// figures, so it waits for this (or two runs of the same data would advise
// differently, by which task finished first).
var ClaimsTested = Milestone{key: "query:claims-tested", what: "claims tested", round: true}

// Key is the progress entry that records the milestone.
func (m Milestone) Key() string { return m.key }

func (m Milestone) String() string { return m.what }

// Reached reports whether this run has recorded milestone m, or, for a
// round milestone, whether it was settled in this round.
func (e *Env) Reached(ctx context.Context, m Milestone) (bool, error) {
	if m.round {
		return e.marks.has(m.key), nil
	}
	return e.Has(ctx, catalog.KindProgress, m.key)
}

// Settle records that round milestone m holds for this round. A milestone
// that holds for the run is recorded by its progress entry instead, with
// the figures of the work it marks, so settling one is an error.
func (e *Env) Settle(m Milestone) error {
	if !m.round {
		return fmt.Errorf("settle %s: not a round milestone; save its progress entry %s", m.what, m.key)
	}
	e.marks.set(m.key)
	return nil
}

// roundMarks are the round milestones settled in one round, shared by the
// environments every expert is bound to in it (Env.For).
type roundMarks struct {
	mu sync.Mutex
	m  map[string]bool
}

func (r *roundMarks) has(key string) bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[key]
}

func (r *roundMarks) set(key string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[key] = true
}

// TableMilestone is work an expert does table by table that others wait
// for: every table's inventory, every table's profiles. A table has reached
// it when the work is in the catalog, or when it was given up (by the
// orchestrator, for a task that declares the milestone in Task.Reaches, or
// by the expert itself, under GaveUpKey), so that a waiting expert never
// waits for a table the run will not finish.
type TableMilestone struct {
	key  string
	what string
	// done lists the tables whose work is in this run's catalog.
	done func(ctx context.Context, e *Env) (map[string]bool, error)
	// gaveUp, when set, prefixes the uncertainty key under which the
	// expert records giving a table up itself (GaveUpKey).
	gaveUp string
}

// Inventoried: the table's structure is recorded (the structural expert's
// table entry).
var Inventoried = TableMilestone{key: "inventoried", what: "table inventoried",
	done: func(ctx context.Context, e *Env) (map[string]bool, error) {
		return e.RunKeys(ctx, catalog.KindTable)
	}}

// Profiled: every column of the table has a measured profile (the
// statistical expert's; a provisional one, from the planner's estimates,
// is replaced soon and does not count). A table without columns has
// nothing to profile. The key spelling of the expert's own give-up is the
// one earlier runs recorded, so that a resumed catalog keeps it.
var Profiled = TableMilestone{key: "profiled", what: "table profiled", gaveUp: "profile_failed:",
	done: func(ctx context.Context, e *Env) (map[string]bool, error) {
		entries, err := e.RunEntries(ctx, catalog.KindProfile)
		if err != nil {
			return nil, err
		}
		measured := make(map[string]bool, len(entries))
		for _, en := range entries {
			var p catalog.ProfileDoc
			if en.Decode(&p) == nil && !p.Provisional {
				measured[en.Key] = true
			}
		}
		out := map[string]bool{}
	tables:
		for _, t := range e.Tables {
			n := t.Name.String()
			for _, c := range t.Columns {
				if !measured[n+"."+c.Name] {
					continue tables
				}
			}
			out[n] = true
		}
		return out, nil
	}}

// Key names the milestone in the run's saved state (catalog.GivenUp).
func (m TableMilestone) Key() string { return m.key }

func (m TableMilestone) String() string { return m.what }

// GaveUpKey is the uncertainty key under which the expert that does the
// work records giving table up itself; "" for a milestone only the
// orchestrator gives up.
func (m TableMilestone) GaveUpKey(table string) string {
	if m.gaveUp == "" {
		return ""
	}
	return m.gaveUp + table
}

// TablesReached returns the tables of the inventory that reached m in this
// run: done, or given up.
func (e *Env) TablesReached(ctx context.Context, m TableMilestone) (map[string]bool, error) {
	out, err := m.done(ctx, e)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.what, err)
	}
	for t := range e.gaveUp[m.key] {
		out[t] = true
	}
	if m.gaveUp != "" {
		gaps, err := e.RunKeys(ctx, catalog.KindUncertainty)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.what, err)
		}
		for _, t := range e.Tables {
			if n := t.Name.String(); gaps[m.GaveUpKey(n)] {
				out[n] = true
			}
		}
	}
	return out, nil
}

// AllReached reports whether every table of the inventory reached m.
func (e *Env) AllReached(ctx context.Context, m TableMilestone) (bool, error) {
	r, err := e.TablesReached(ctx, m)
	if err != nil {
		return false, err
	}
	for _, t := range e.Tables {
		if !r[t.Name.String()] {
			return false, nil
		}
	}
	return true, nil
}

// GaveUp reports whether the work of milestone m on table was given up in
// this run: by the orchestrator (a task that declared m in Task.Reaches
// failed too often) or by the expert itself (GaveUpKey).
func (e *Env) GaveUp(ctx context.Context, m TableMilestone, table string) (bool, error) {
	if e.gaveUp[m.key][table] {
		return true, nil
	}
	if m.gaveUp == "" {
		return false, nil
	}
	return e.Has(ctx, catalog.KindUncertainty, m.GaveUpKey(table))
}

// WithGivenUp returns this environment with the tasks the run has given up
// on so far (the orchestrator's saved state), so that the table milestones
// those tasks declared count as reached for their tables.
func (e *Env) WithGivenUp(given map[string]catalog.GivenUp) *Env {
	b := *e
	b.gaveUp = map[string]map[string]bool{}
	for _, g := range given {
		if g.Milestone == "" || g.Table == "" {
			continue
		}
		if b.gaveUp[g.Milestone] == nil {
			b.gaveUp[g.Milestone] = map[string]bool{}
		}
		b.gaveUp[g.Milestone][g.Table] = true
	}
	return &b
}

// GaveUpKey is the uncertainty key under which the orchestrator records
// giving up an expert's task: an expert that must not plan the task again
// asks for its own.
func GaveUpKey(expert, task string) string { return "failed:" + expert + ":" + task }
