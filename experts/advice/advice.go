// Package advice is the expert that advises how to query the database well:
// indexes for references and frequent lookups that lack one, a join order
// for the main relationships, a sampling strategy for large tables,
// partitioning for large time-ordered ones, and example queries for the
// main entities. Each piece of advice is validated through the guard before
// it is reported: its query (or, for an index, the query the index would
// serve) is EXPLAINed, the plan read by the engine (warehouse.Explainer),
// and, when it is cheap, run with a LIMIT. What fails validation, or what
// the plan shows is not needed, is dropped. Index advice other experts left
// unvalidated (the structural expert's, for declared references) is
// validated the same way and kept, tagged "reviewed".
//
// It advises once per run, when it is ready: milestone
// experts.ReferencesInferred is reached (or the inference has not come
// after recsWaitRounds rounds), every table has reached experts.Profiled,
// and the query expert plans no test this round (round
// milestone experts.ClaimsTested; from round recsMaxRound it no longer
// waits for that).
//
// It reads the inventory (Env.Tables) and, from the catalog, this run's
// entries: tables (row counts, declared or inferred keys), profiles,
// relationships, the cardinality hypotheses (experts.CardinalitySubject),
// other experts' index recommendations, and its own progress entry.
//
// It writes recommendation entries (kind recommendation, tagged with their
// kind and "validated" when validated): "index:<table>(<column>)",
// "join_order:<relationship>", "sampling:<table>", "partitioning:<table>",
// "example:<table>" and "example:<table>:<column>", and others' "index:..."
// entries saved again with their validation; then its progress entry
// query:recommendations, which marks the advice done.
package advice

import (
	"context"
	"fmt"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// Name is the expert's name in the catalog and in progress events.
const Name = "advice"

// Expert is the advice expert.
type Expert struct{}

var _ experts.Expert = (*Expert)(nil)

// New returns the advice expert.
func New() *Expert { return &Expert{} }

// Name implements experts.Expert.
func (*Expert) Name() string { return Name }

// recsWaitRounds is how many rounds the advice waits for the inference,
// and recsMaxRound the round from which it no longer waits for the query
// expert's tests (should one keep failing).
const (
	recsWaitRounds = 4
	recsMaxRound   = 8
)

// Plan returns the recommendations task once the expert is ready (see the
// package's doc), until it has run.
func (*Expert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	if len(env.Tables) == 0 {
		return nil, nil
	}
	// The advice reads the orphan figures, cardinalities, inferred keys
	// and bridges the query expert measures: planned beside its tests, it
	// would see them or not by which task finished first, and two runs of
	// the same data would advise differently.
	tested, err := env.Reached(ctx, experts.ClaimsTested)
	if err != nil {
		return nil, fmt.Errorf("advice: plan: %w", err)
	}
	if !tested && env.Iteration < recsMaxRound {
		return nil, nil
	}
	done, err := env.Has(ctx, catalog.KindProgress, recsStep)
	if err != nil || done {
		return nil, err
	}
	// The advice counts references and indexes them: it waits for the
	// inference, which runs in the round the profiles complete, or the
	// same data would get different advice depending on which task
	// finished first. A run whose inference never comes (it failed) gets
	// its advice after a few rounds anyway.
	inferred, err := env.Reached(ctx, experts.ReferencesInferred)
	if err != nil {
		return nil, fmt.Errorf("advice: plan: %w", err)
	}
	if !inferred && env.Iteration < recsWaitRounds {
		return nil, nil
	}
	profiled, err := env.AllReached(ctx, experts.Profiled)
	if err != nil {
		return nil, fmt.Errorf("advice: plan: %w", err)
	}
	if !profiled {
		return nil, nil
	}
	return []experts.Task{{Expert: Name, Name: "recommendations", Run: func(ctx context.Context) error {
		return recommend(ctx, env)
	}}}, nil
}

// tableIndex maps each table's name, as the source spells it, to the
// table: relationships name tables so, and names differing only in case
// are two tables where the engine says so.
func tableIndex(ts []warehouse.Table) map[string]warehouse.Table {
	m := map[string]warehouse.Table{}
	for _, t := range ts {
		m[t.Name.String()] = t
	}
	return m
}
