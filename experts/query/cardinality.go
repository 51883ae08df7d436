package query

import (
	"context"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/cardinality"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/warehouse"
)

// priorOf is how sure a relationship's source makes one of its claims
// before the data is asked.
func priorOf(r catalog.RelationshipDoc) float64 {
	switch r.Source {
	case "declared":
		return 0.9
	case "user":
		return 0.8
	}
	return 0.7
}

// CardinalityHypothesis measures how many child rows each parent row of a
// relationship has, to test that it is one-to-many: some parent has more
// than one child. ok is false when the tables or columns are unknown.
func CardinalityHypothesis(d warehouse.Dialect, tables map[string]warehouse.Table, r catalog.RelationshipDoc) (hypotheses.Hypothesis, bool) {
	child, parent := tables[r.FromTable], tables[r.ToTable]
	return cardinality.Hypothesis(d, r, experts.Whole(d, child), experts.Whole(d, parent))
}

// measureCardinality runs the cardinality test, reading each table
// through its scope, records it, and says the relationship in plain words
// as an insight.
func measureCardinality(ctx context.Context, env *experts.Env, r catalog.RelationshipDoc) error {
	cs, ps, err := scopes(ctx, env, r)
	if err != nil {
		return err
	}
	h, ok := cardinality.Hypothesis(env.Dialect(), r, cs, ps)
	if !ok {
		return nil
	}
	out, err := test(ctx, env, h)
	if err != nil {
		return err
	}
	return cardinality.Record(ctx, env, r, out, cs, ps)
}
