package relations

// Columns whose profile failed (a timeout on a table too big for the
// query limit, a read error) would otherwise reach inference with nothing
// but their names: no range to prune by, no sketch, and no proposal by
// their values. Each such table is read once more through its first
// fallbackRows rows, which every engine stops reading after, and its
// columns get a profile of that sample: least and greatest value,
// distinct count, NULL fraction. It is marked sampled and its distinct
// count an estimate, so that it prunes only by what a sample proves (a
// value outside the key's range is an orphan) and never makes the column
// a key; the column's sketch is read from the same rows.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/warehouse"
)

// fallbackRows bounds the sample a column without a profile is read by:
// its table's first rows, as many as a sketch query returns.
const fallbackRows = sketchQueryRows

// fallbackProfiles gives the integer and text columns of cols that have
// no profile one from their table's first fallbackRows rows, one query per
// table, and reports how many it gave. A table whose sample cannot be read
// keeps its columns unprofiled: the names and the exact checks still
// decide for them, as before.
func fallbackProfiles(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, cols []Column) (int, error) {
	byTable := map[string][]int{}
	var order []string
	for i, c := range cols {
		if c.Profile != nil {
			continue
		}
		if cl := typeClass(c.Type); cl != "integer" && cl != "text" {
			continue
		}
		if _, ok := byTable[c.Table]; !ok {
			order = append(order, c.Table)
		}
		byTable[c.Table] = append(byTable[c.Table], i)
	}
	d := env.Dialect()
	given := 0
	for _, name := range order {
		idx := byTable[name]
		inner := make([]string, len(idx))
		figures := []string{"COUNT(*) AS n"}
		for k, i := range idx {
			q := d.QuoteIdent(cols[i].Name)
			inner[k] = q
			// The dialect's exact count: COUNT(DISTINCT) everywhere but on
			// Spark, which expands every row once per COUNT(DISTINCT) of
			// the statement, and this one holds one per column.
			dc, _ := d.CountDistinct(q, false)
			figures = append(figures, fmt.Sprintf("COUNT(%s) AS n%d, %s AS d%d, MIN(%s) AS lo%d, MAX(%s) AS hi%d", q, k, dc, k, q, k, q, k))
		}
		sql := fmt.Sprintf("SELECT %s FROM (SELECT %s FROM %s %s) fallback",
			strings.Join(figures, ", "), strings.Join(inner, ", "), d.QuoteTable(tables[name].Name), d.Limit(fallbackRows))
		res, err := env.Query(ctx, sql)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) {
				return given, fmt.Errorf("sample profile %s: %w", name, err)
			}
			continue
		}
		row := hypotheses.FirstRow(res)
		rows, ok := row.Int("n")
		if !ok || rows == 0 {
			continue
		}
		for k, i := range idx {
			p := sampleProfile(row, k, rows, cols[i])
			if p == nil {
				continue
			}
			cols[i].Profile = p
			cols[i].fallback = true
			given++
		}
	}
	return given, nil
}

// sampleProfile is column k's profile from fallbackProfiles' row of
// figures, nil when the figures are not there.
func sampleProfile(row hypotheses.Row, k int, rows int64, c Column) *catalog.ProfileDoc {
	nonNull, ok1 := row.Int(fmt.Sprintf("n%d", k))
	distinct, ok2 := row.Int(fmt.Sprintf("d%d", k))
	if !ok1 || !ok2 || nonNull == 0 {
		// NULL in every row read proves nothing of the rows not read: the
		// column stays unprofiled, and its names and the exact check decide.
		return nil
	}
	nulls := float64(rows-nonNull) / float64(rows)
	p := &catalog.ProfileDoc{Table: c.Table, Column: c.Name, Rows: rows, DistinctCount: &distinct,
		DistinctIsEstimate: true, NullFraction: &nulls, Sampled: true}
	loKey, hiKey := fmt.Sprintf("lo%d", k), fmt.Sprintf("hi%d", k)
	ls, ln, lNum, lok := canonical(row[loKey])
	hs, hn, hNum, hok := canonical(row[hiKey])
	switch {
	case !lok || !hok: // values not sketched (times, decimals)
	case lNum && hNum:
		// Not the mean, which the sample query does not compute: a mean
		// is how a profile says it saw numbers, all inference reads of it.
		mid := (ln + hn) / 2
		p.Min, p.Max, p.Mean = &ls, &hs, &mid
	default:
		// Text as the engine holds it: canonical folds case, a range must not.
		lt, _ := row.Text(loKey)
		ht, _ := row.Text(hiKey)
		p.Min, p.Max = &lt, &ht
	}
	return p
}
