// Package relations is the expert for references nobody declared: it infers
// them from the data (names, profiles, value samples) and confirms each with
// one exact inclusion query (infer.go).
//
// It reads from the catalog, this run's entries only: the profile entries
// the statistical expert writes, once every base table has reached
// experts.Profiled (InferReady), and it waits for every table to reach
// experts.Inventoried too, so that once experts.ReferencesInferred is
// reached every reference, declared or inferred, is in the catalog. The declared foreign keys and the
// references of discover.yaml it takes from the inventory (Env.Tables) and
// the options, not from the catalog: those stand, and are not inferred again.
//
// It writes: relationship entries (source "inferred", tagged "inferred" and
// "tested"); hypothesis entries, the ledger of its checks, confirmed or
// refuted, under the id the query expert gives the orphan test of the same
// relationship, so that it is not tested twice; an uncertainty
// "ambiguous_reference:<table>.<column>" for a column that may reference two
// keys; a quality insight "quality:orphans:<relationship>" for an inferred
// reference with orphans; and, last, the progress entry of milestone
// experts.ReferencesInferred, whose document is InferStats.
package relations

import (
	"context"
	"fmt"

	"github.com/discover-db/discover/experts"
)

// Name is the expert's name in the catalog and in progress events.
const Name = "relations"

// Expert is the relations expert.
type Expert struct{}

var _ experts.Expert = (*Expert)(nil)

// New returns the relations expert.
func New() *Expert { return &Expert{} }

// Name implements experts.Expert.
func (*Expert) Name() string { return Name }

// Plan plans the one inference of the run, once the inventory and the
// profiles are in: inference runs once, on complete facts.
func (x *Expert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	inferred, err := env.Reached(ctx, experts.ReferencesInferred)
	if err != nil || inferred {
		return nil, wrapPlan(err)
	}
	// The advice waits for experts.ReferencesInferred to count every
	// reference, the declared ones included, so inference does not finish
	// before every table's are recorded.
	ready, err := env.AllReached(ctx, experts.Inventoried)
	if err != nil || !ready {
		return nil, wrapPlan(err)
	}
	ready, err = InferReady(ctx, env)
	if err != nil || !ready {
		return nil, wrapPlan(err)
	}
	return []experts.Task{{Expert: Name, Name: "infer relationships",
		Run: func(ctx context.Context) error { return inferRelationships(ctx, env) }}}, nil
}

func wrapPlan(err error) error {
	if err != nil {
		return fmt.Errorf("relations: plan: %w", err)
	}
	return nil
}
