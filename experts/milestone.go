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
