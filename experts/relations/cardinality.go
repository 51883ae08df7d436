package relations

import (
	"context"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/cardinality"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/warehouse"
)

// saveCardinality records how many children each parent of the accepted
// reference d has, from the figures of its inclusion check (in, by the
// statement sql), under the id the query expert measures it by: the check
// has already grouped the child's rows by value and found each value in
// the parent, which is all the measure needs, so the query expert does
// not read the same tables again for it. The parent's row count must be
// exact in this run (the structural expert's count); otherwise, or for a
// parent read through a sample, the query expert measures it as before.
func saveCardinality(ctx context.Context, env *experts.Env, d catalog.RelationshipDoc, in Inclusion, sql string) error {
	if sql == "" || in.NonNull == 0 {
		return nil
	}
	var child, parent warehouse.Table
	for _, t := range env.Tables {
		switch t.Name.String() {
		case d.FromTable:
			child = t
		case d.ToTable:
			parent = t
		}
	}
	if child.Name.Name == "" || parent.Name.Name == "" {
		return nil
	}
	cs, err := env.Scope(ctx, child)
	if err != nil {
		return err
	}
	ps, err := env.Scope(ctx, parent)
	if err != nil {
		return err
	}
	if ps.Sampled || !ps.Counted() {
		return nil
	}
	h, ok := cardinality.Hypothesis(env.Dialect(), d, cs, ps)
	if !ok {
		return nil
	}
	f := cardinality.Figures{Parents: ps.Rows, WithChildren: in.ChildDistinct - in.OrphanDistinct,
		Max: in.MaxChildren, Children: in.NonNull - in.OrphanRows}
	out := cardinality.Measured(h, sql, f, "measured by the inclusion check of hypothesis "+hypotheses.ID("ref", d.Key())+
		" and the row count of "+d.ToTable)
	return cardinality.Record(ctx, env, d, out, cs, ps)
}

// checkSQL is the statement of a check, from its evidence: "" when it was
// not checked.
func checkSQL(evidence []string) string {
	sql := ""
	for _, e := range evidence {
		if s, ok := strings.CutPrefix(e, "check: "); ok {
			sql = s
		}
	}
	return sql
}
