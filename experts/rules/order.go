package rules

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts/semantic"
	"github.com/discover-db/discover/hypotheses"
)

// Orderings: the timestamps of one row often record stages of one process
// (ordered_at, shipped_at, delivered_at; opened_on, closed_on), and the
// business rule is that no stage comes before the one it follows. The
// table's event timestamps are put in the order most rows keep them, and
// each neighbouring pair is claimed and tested with one aggregate for the
// table: a confirmed run of links is one rule (ordered_at ≤ shipped_at ≤
// delivered_at); a link broken by a few rows is a data-quality finding.

const (
	// maxOrderLinks bounds the links tested per table, maxOrderStamps the
	// timestamps ordered (their pairs share one query).
	maxOrderLinks  = 6
	maxOrderStamps = 8
	// orderQualityShare is the share of rows that may break an order for
	// the break to read as bad rows rather than as no rule.
	orderQualityShare = 0.05
)

// orderLink claims that column first never comes after column then.
type orderLink struct {
	first, then string
	alias       string
}

// orderLinks returns the neighbouring pairs of the table's event
// timestamps (dates and timestamps, no birth dates) in the order most rows
// keep them: one aggregate counts, for every pair, the rows where each
// comes first, and a column is placed by how many others it mostly
// precedes. Least values would do, but one bad row moves a least value.
func (r *ruler) orderLinks(ctx context.Context) ([]orderLink, error) {
	var stamps []string
	for _, c := range r.t.Columns {
		v, p := r.types[c.Name], r.profiles[c.Name]
		if (v != semantic.TypeTimestamp && v != semantic.TypeDate) || p == nil || p.NullFraction == nil {
			continue
		}
		if semantic.NamedLikeBirthDate(c.Name) {
			continue
		}
		if float64(p.Rows)*(1-*p.NullFraction) < ruleMinRows {
			continue
		}
		stamps = append(stamps, c.Name)
	}
	if len(stamps) < 2 {
		return nil, nil
	}
	stamps = stamps[:min(len(stamps), maxOrderStamps)]
	var sel []string
	for i := range stamps {
		for j := i + 1; j < len(stamps); j++ {
			a, b := r.at(stamps[i]), r.at(stamps[j])
			sel = append(sel, fmt.Sprintf("COUNT(CASE WHEN %s < %s THEN 1 END) AS p%d_%d", a, b, i, j),
				fmt.Sprintf("COUNT(CASE WHEN %s > %s THEN 1 END) AS p%d_%d", a, b, j, i))
		}
	}
	res, err := r.env.Query(ctx, fmt.Sprintf("SELECT %s FROM %s", strings.Join(sel, ", "), r.from()))
	if err != nil {
		if fatal(ctx, err) {
			return nil, err
		}
		return nil, nil // no order to claim; nothing is lost but the claims
	}
	if len(res.Rows) != 1 {
		return nil, nil
	}
	first := map[[2]int]int64{} // rows where stamps[i] comes before stamps[j]
	for k, c := range res.Columns {
		var i, j int
		if _, err := fmt.Sscanf(strings.ToLower(c), "p%d_%d", &i, &j); err == nil {
			n, _ := hypotheses.Row{"n": res.Rows[0][k]}.Int("n")
			first[[2]int{i, j}] = n
		}
	}
	wins := make([]int, len(stamps))
	for i := range stamps {
		for j := range stamps {
			if i != j && first[[2]int{i, j}] > first[[2]int{j, i}] {
				wins[i]++
			}
		}
	}
	order := make([]int, len(stamps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return wins[b] - wins[a] })
	var links []orderLink
	for k := 1; k < len(order) && len(links) < maxOrderLinks; k++ {
		a, b := order[k-1], order[k]
		if first[[2]int{a, b}] == 0 {
			continue // never seen in this order: no stage follows the other
		}
		links = append(links, orderLink{first: stamps[a], then: stamps[b], alias: fmt.Sprintf("o%d", k)})
	}
	return links, nil
}

// at is a timestamp column as the engine compares it (Dialect.Chronological).
func (r *ruler) at(col string) string { return r.d.Chronological(r.q(col)) }

// orderings tests the table's order links and states what holds.
func (r *ruler) orderings(ctx context.Context) error {
	links, err := r.orderLinks(ctx)
	if err != nil || len(links) == 0 {
		return err
	}
	sel := make([]string, 0, 2*len(links))
	for _, l := range links {
		a, b := r.at(l.first), r.at(l.then)
		sel = append(sel,
			fmt.Sprintf("COUNT(CASE WHEN %s IS NOT NULL AND %s IS NOT NULL THEN 1 END) AS %s_both", a, b, l.alias),
			fmt.Sprintf("COUNT(CASE WHEN %s > %s THEN 1 END) AS %s_after", a, b, l.alias))
	}
	sql := fmt.Sprintf("SELECT %s FROM %s", strings.Join(sel, ", "), r.from())
	hs := make([]hypotheses.Hypothesis, len(links))
	for i, l := range links {
		hs[i] = r.orderHypothesis(l, sql)
	}
	outs, err := r.testShared(ctx, hs, "order")
	if err != nil {
		return err
	}
	return r.orderInsights(ctx, links, outs)
}

func (r *ruler) orderHypothesis(l orderLink, sql string) hypotheses.Hypothesis {
	first, then := r.col(l.first), r.col(l.then)
	return hypotheses.Hypothesis{
		ID:        hypotheses.ID("rule", "order", r.name, l.first+"<="+l.then),
		Subject:   first,
		SQL:       sql,
		Prior:     0.5,
		Sample:    r.scope.Evidence(),
		Statement: fmt.Sprintf("In %s, %s never comes after %s in a row that has both.", r.name, l.first, l.then),
		Expected:  fmt.Sprintf("0 rows with %s later than %s", l.first, l.then),
		Judge: func(row hypotheses.Row) hypotheses.Verdict {
			both, _ := row.Int(l.alias + "_both")
			after, _ := row.Int(l.alias + "_after")
			ev := []string{fmt.Sprintf("%s rows have both %s and %s; in %s of them %s is later",
				catalog.Thousands(both), first, then, catalog.Thousands(after), l.first)}
			switch {
			case both < ruleMinRows:
				return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.3, Evidence: ev}
			case after == 0:
				return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev}
			case float64(after) <= orderQualityShare*float64(both):
				ev = append(ev, "so few that they read as bad rows, not as no rule")
			}
			return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.95, Evidence: ev, Observed: true}
		},
	}
}

// orderInsights states each run of confirmed links as one business rule,
// and each link broken by a few rows as a data-quality insight.
func (r *ruler) orderInsights(ctx context.Context, links []orderLink, outs []hypotheses.Outcome) error {
	var chain []string
	var ids []string
	flush := func() error {
		defer func() { chain, ids = nil, nil }()
		if len(chain) < 2 {
			return nil
		}
		cols := make([]string, len(chain))
		for i, c := range chain {
			cols[i] = r.col(c)
		}
		ins := catalog.InsightDoc{Kind: "business_rule", Tables: []string{r.name}, Columns: cols,
			Description: fmt.Sprintf("In %s, %s in every row where they are set: the timestamps record the stages in order%s.",
				r.name, strings.Join(chain, " ≤ "), r.note())}
		return catalog.Insights.Save(ctx, r.env, "business_rule:order:"+r.name+"."+chain[0], ins, r.scope.Confidence(0.95),
			withSample([]string{"hypotheses " + strings.Join(ids, ", ")}, r.scope.Evidence()), "business_rule")
	}
	for i, l := range links {
		o := outs[i]
		if o.Doc.Status != hypotheses.Confirmed {
			if err := flush(); err != nil {
				return err
			}
			if err := r.orderQuality(ctx, l, o); err != nil {
				return err
			}
			continue
		}
		if len(chain) == 0 {
			chain = append(chain, l.first)
		}
		chain = append(chain, l.then)
		ids = append(ids, o.Doc.ID)
	}
	return flush()
}

// orderQuality reports a link broken by only a few rows.
func (r *ruler) orderQuality(ctx context.Context, l orderLink, o hypotheses.Outcome) error {
	if o.Doc.Status != hypotheses.Refuted || !slices.ContainsFunc(o.Verdict.Evidence, func(e string) bool {
		return strings.HasPrefix(e, "so few")
	}) {
		return nil
	}
	ins := catalog.InsightDoc{Kind: "quality", Tables: []string{r.name}, Columns: []string{r.col(l.first), r.col(l.then)},
		Description: fmt.Sprintf("In %s, %s comes after %s in a few rows, where every other row keeps them in order: %s%s.",
			r.name, l.first, l.then, o.Verdict.Evidence[0], r.note())}
	return catalog.Insights.Save(ctx, r.env, "quality:order:"+r.name+"."+l.first+"."+l.then, ins, 0.9,
		withSample([]string{"hypothesis " + o.Doc.ID}, r.scope.Evidence()), "quality")
}
