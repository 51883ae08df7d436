package relations

import (
	"context"
	"fmt"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/warehouse"
)

// dropIdentities drops the self references in which every row names
// itself: a warehouse's alternate key numbered as its surrogate key
// (DimPromotion.PromotionAlternateKey = PromotionKey on every row) holds
// values that are all among the keys, by construction and not by
// reference. One statement per kept self reference, through the table's
// scope, counts the rows whose value is another row's; none is no
// hierarchy. It returns what it kept and, by candidate key, why each
// dropped one is no relationship.
func dropIdentities(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, kept []Scored) ([]Scored, map[string]string, error) {
	why := map[string]string{}
	out := kept[:0:0]
	d := env.Dialect()
	for _, s := range kept {
		t, ok := tables[s.Child.Table]
		if s.Child.Table != s.Parent.Table || !ok {
			out = append(out, s)
			continue
		}
		scope, err := env.Scope(ctx, t)
		if err != nil {
			if experts.Fatal(ctx, err) {
				return nil, nil, fmt.Errorf("self reference %s.%s: %w", s.Child.Table, s.Child.Name, err)
			}
			out = append(out, s)
			continue
		}
		c, k := "t."+d.QuoteIdent(s.Child.Name), "t."+d.QuoteIdent(s.Parent.Name)
		res, err := env.Query(ctx, fmt.Sprintf("SELECT COUNT(%s) AS named, COUNT(CASE WHEN %s <> %s THEN 1 END) AS other FROM %s",
			c, c, k, scope.From("t")))
		if err != nil {
			if experts.Fatal(ctx, err) {
				return nil, nil, fmt.Errorf("self reference %s.%s: %w", s.Child.Table, s.Child.Name, err)
			}
			out = append(out, s) // unchecked: the reference stands as scored
			continue
		}
		row := hypotheses.FirstRow(res)
		named, ok1 := row.Int("named")
		other, ok2 := row.Int("other")
		if ok1 && ok2 && named > 0 && other == 0 {
			why[s.Key()] = fmt.Sprintf("not a relationship: on each of the %d rows with a value, %s equals the row's own %s",
				named, s.Child.Name, s.Parent.Name)
			if ev := scope.Evidence(); ev != "" {
				why[s.Key()] += " (" + ev + ")"
			}
			continue
		}
		out = append(out, s)
	}
	return out, why, nil
}
