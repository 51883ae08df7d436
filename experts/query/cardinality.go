package query

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/naming"
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
	return cardinalityHypothesis(d, r, experts.Whole(d, child), experts.Whole(d, parent))
}

// cardinalityHypothesis is CardinalityHypothesis reading each table
// through its scope (issue 9). A parent far larger than the sample is
// read through its sample, whose rows' children are all counted: the
// figures are those of the sampled parents. A child far larger than the
// sample is counted on its sample, which shows some of each parent's
// children: a parent seen with two proves the claim, but none seen with
// two does not refute it, and how many children the parents have is not
// measured.
func cardinalityHypothesis(d warehouse.Dialect, r catalog.RelationshipDoc, cs, ps experts.Scope) (hypotheses.Hypothesis, bool) {
	child, parent := cs.Table, ps.Table
	if child.Name.Name == "" || parent.Name.Name == "" || len(r.FromColumns) != len(r.ToColumns) || len(r.FromColumns) == 0 {
		return hypotheses.Hypothesis{}, false
	}
	key := r.Key()
	var sel, notNull, group, on []string
	for i := range r.FromColumns {
		c := "c." + d.QuoteIdent(r.FromColumns[i])
		alias := fmt.Sprintf("r%d", i+1)
		sel = append(sel, c+" AS "+alias)
		notNull = append(notNull, c+" IS NOT NULL")
		group = append(group, c)
		on = append(on, "k."+alias+" = p."+d.QuoteIdent(r.ToColumns[i]))
	}
	one, many, kid := naming.Noun(parent.Name.Name, false), naming.Noun(child.Name.Name, true), naming.Noun(child.Name.Name, false)
	parents := naming.Noun(parent.Name.Name, true)
	h := hypotheses.Hypothesis{
		ID:      hypotheses.ID("card", key),
		Subject: cardinalitySubject + key,
		Statement: fmt.Sprintf("%s → %s is one-to-many: %s can have many %s (%s.%s → %s.%s).",
			r.ToTable, r.FromTable, article(one), many, r.FromTable, joinCols(r.FromColumns), r.ToTable, joinCols(r.ToColumns)),
		Expected: fmt.Sprintf("some %s with more than one %s", one, kid),
		Prior:    0.7,
	}
	if cs.Sampled {
		return sampledCardinality(h, cs, sel, notNull, group, one, many, kid, parents), true
	}
	h.SQL = fmt.Sprintf("SELECT COUNT(*) AS parent_rows, COUNT(k.n) AS with_children, MAX(k.n) AS max_children, "+
		"SUM(k.n) AS child_rows FROM %s LEFT JOIN (SELECT %s, COUNT(*) AS n FROM %s WHERE %s GROUP BY %s) k ON %s",
		ps.From("p"), strings.Join(sel, ", "), cs.From("c"), strings.Join(notNull, " AND "),
		strings.Join(group, ", "), strings.Join(on, " AND "))
	h.Sample = ps.Evidence()
	h.Judge = func(row hypotheses.Row) hypotheses.Verdict {
		f := cardinalityFigures(row)
		ev := f.evidence(one, many, parents)
		switch {
		case f.parents == 0 || f.withChildren == 0:
			return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.5, Evidence: ev}
		case f.max > 1:
			return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev, Observed: true}
		}
		return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.95,
			Evidence: append(ev, fmt.Sprintf("no %s has more than one %s: one-to-one", one, kid))}
	}
	return h, true
}

// sampledCardinality completes h, the cardinality test, on a sample of a
// child far larger than the sample: the children it holds per parent,
// without the parent table (whose rows without children the sample cannot
// tell).
func sampledCardinality(h hypotheses.Hypothesis, cs experts.Scope, sel, notNull, group []string, one, many, kid, parents string) hypotheses.Hypothesis {
	h.SQL = fmt.Sprintf("SELECT COUNT(*) AS with_children, MAX(k.n) AS max_children, SUM(k.n) AS child_rows "+
		"FROM (SELECT %s, COUNT(*) AS n FROM %s WHERE %s GROUP BY %s) k",
		strings.Join(sel, ", "), cs.From("c"), strings.Join(notNull, " AND "), strings.Join(group, ", "))
	h.Sample = cs.Evidence()
	h.Judge = func(row hypotheses.Row) hypotheses.Verdict {
		f := cardinalityFigures(row)
		ev := []string{f.sampledEvidence(one, many, parents)}
		switch {
		case f.withChildren == 0:
			return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.5, Evidence: ev}
		case f.max > 1:
			return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev, Observed: true}
		}
		// Each parent's children may all be in the table but one in
		// the sample: no parent seen twice settles nothing.
		return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.5,
			Evidence: append(ev, fmt.Sprintf("no %s has more than one %s in the sample, which cannot tell one-to-one from one-to-many", one, kid))}
	}
	return h
}

// sampledEvidence says what a sample of the children shows.
func (f figures) sampledEvidence(one, many, parents string) string {
	return fmt.Sprintf("the sample's %s %s belong to %s %s, up to %s to one %s",
		catalog.Thousands(f.children), many, catalog.Thousands(f.withChildren), parents, catalog.Thousands(f.max), one)
}

// cardinalitySubject prefixes the subject of a cardinality test: the
// relationship's key alone is the subject of its orphan test, which the
// orchestrator reads as the relationship being tested.
const cardinalitySubject = experts.CardinalitySubject

// figures are a cardinality test's counts.
type figures struct {
	parents, withChildren, max, children int64
}

func cardinalityFigures(row hypotheses.Row) figures {
	var f figures
	f.parents, _ = row.Int("parent_rows")
	f.withChildren, _ = row.Int("with_children")
	f.max, _ = row.Int("max_children")
	f.children, _ = row.Int("child_rows")
	return f
}

func (f figures) none() int64 { return f.parents - f.withChildren }

func (f figures) evidence(one, many, parents string) []string {
	ev := []string{fmt.Sprintf("%s %s, %s with at least one of the %s %s, %s with none",
		catalog.Thousands(f.parents), parents, catalog.Thousands(f.withChildren), catalog.Thousands(f.children), many, catalog.Thousands(f.none()))}
	if f.withChildren > 0 {
		ev = append(ev, fmt.Sprintf("%.1f %s per %s that has any, at most %s",
			float64(f.children)/float64(f.withChildren), many, one, catalog.Thousands(f.max)))
	}
	return ev
}

// sentence says the relationship in plain words: "A customer has many
// orders (3.2 on average among those with any, at most 40); 12% of
// customers have none."
func (f figures) sentence(one, many, child, parents string) string {
	var s string
	if f.max > 1 {
		s = fmt.Sprintf("%s has many %s (%.1f on average among those with any, at most %s)",
			article(one), many, float64(f.children)/float64(f.withChildren), catalog.Thousands(f.max))
	} else {
		s = fmt.Sprintf("%s has at most one %s", article(one), child)
	}
	pct := int(math.Round(100 * float64(f.none()) / float64(f.parents)))
	switch {
	case f.none() == 0:
		s += fmt.Sprintf("; every %s has at least one.", one)
	case pct == 0:
		s += fmt.Sprintf("; %s %s have none.", catalog.Thousands(f.none()), parents)
	default:
		s += fmt.Sprintf("; %d%% of %s have none.", pct, parents)
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// measureCardinality runs the cardinality test, records it, and says the
// relationship in plain words as an insight.
func measureCardinality(ctx context.Context, env *experts.Env, r catalog.RelationshipDoc, h hypotheses.Hypothesis) error {
	cs, ps, err := scopes(ctx, env, r)
	if err != nil {
		return err
	}
	if cs.Sampled || ps.Sampled {
		if sh, ok := cardinalityHypothesis(env.Dialect(), r, cs, ps); ok {
			sh.ID = h.ID
			h = sh
		}
	}
	out, err := test(ctx, env, h)
	if err != nil {
		return err
	}
	// The hypothesis marks the cardinality measured (Plan looks for it):
	// saved after the sentence, so a kill in between measures it again.
	save := func() error { return hypotheses.Save(ctx, env, out, "relationship", "cardinality") }
	if out.Doc.Status != hypotheses.Confirmed && out.Doc.Status != hypotheses.Refuted {
		return save()
	}
	f := cardinalityFigures(out.Row)
	tables := tableIndex(env.Tables)
	parent, child := tables[r.ToTable], tables[r.FromTable]
	one, many, parents := naming.Noun(parent.Name.Name, false), naming.Noun(child.Name.Name, true), naming.Noun(parent.Name.Name, true)
	desc := f.sentence(one, many, naming.Noun(child.Name.Name, false), parents)
	ev := append([]string{"hypothesis " + h.ID}, out.Verdict.Evidence...)
	conf := 0.95
	switch {
	case cs.Sampled:
		// Only that some parent has several children: how many, and how
		// many have none, a sample of the children does not measure.
		desc = fmt.Sprintf("%s has many %s (up to %s seen among a sample of %s %s; %s).",
			capitalize(article(one)), many, catalog.Thousands(f.max), catalog.Thousands(f.children), many, cs.Evidence())
	case ps.Sampled:
		desc = strings.TrimSuffix(desc, ".") + " (" + ps.Evidence() + ")."
		conf = experts.Discount(conf)
	}
	if out.Sample != "" {
		ev = append(ev, "tested "+out.Sample)
	}
	ins := catalog.InsightDoc{Kind: "relationship", Tables: []string{r.ToTable, r.FromTable},
		Columns:     append(qualify(r.FromTable, r.FromColumns), qualify(r.ToTable, r.ToColumns)...),
		Description: desc}
	if err := catalog.Insights.Save(ctx, env, "relationship:"+strings.TrimPrefix(h.Subject, cardinalitySubject), ins, conf,
		ev, "relationship"); err != nil {
		return err
	}
	return save()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// article puts "a" or "an" before a noun, by its first letter.
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
