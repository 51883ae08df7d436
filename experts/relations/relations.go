// Package relations is the expert for references nobody declared: it infers
// them from the data (names, profiles, value samples) and confirms each with
// one exact inclusion query (infer.go).
//
// It reads from the catalog, this run's entries only: the profile entries
// the statistical expert writes (it waits until every column of every table
// has a measured one, or its table's profiling was given up: InferReady),
// and the table entries the structural expert writes, which it waits for
// too, so that once experts.ReferencesInferred is reached every reference,
// declared or inferred, is in the catalog. The declared foreign keys and the
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

	"github.com/discover-db/discover/catalog"
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
	ready, err := inventoried(ctx, env)
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

// inventoryExpert and inventoryTask name the structural expert's inventory
// of a table as the orchestrator records giving it up
// ("failed:<expert>:<task>"): a table whose inventory was given up is not
// waited for, or inference would wait forever.
const (
	inventoryExpert = "structural"
	inventoryTask   = "inventory "
)

// inventoried reports whether every table of the inventory has its table
// entry in this run, or its inventory was given up. The query expert's
// advice waits for experts.ReferencesInferred to count every reference, the
// declared ones included, so inference does not finish before they are
// recorded.
func inventoried(ctx context.Context, env *experts.Env) (bool, error) {
	for _, t := range env.Tables {
		name := t.Name.String()
		done, err := env.Has(ctx, catalog.KindTable, name)
		if err != nil {
			return false, err
		}
		if done {
			continue
		}
		gaveUp, err := env.Has(ctx, catalog.KindUncertainty, "failed:"+inventoryExpert+":"+inventoryTask+name)
		if err != nil {
			return false, err
		}
		if !gaveUp {
			return false, nil
		}
	}
	return true, nil
}
