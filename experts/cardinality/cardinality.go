// Package cardinality measures how many child rows each parent row of a
// relationship has, judges the claim that it is one-to-many, and says it
// in plain words. The query expert runs the measure as a test of its own;
// the relations expert judges it on the figures of the inclusion check it
// has already run (one statement instead of two over the same tables),
// under the same hypothesis id, so the measure is recorded once either way.
package cardinality

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

// ID is the ledger id of the cardinality test of the relationship whose
// key (catalog.RelationshipDoc.Key) is key.
func ID(key string) string { return hypotheses.ID("card", key) }

// Hypothesis builds the cardinality test of r reading the child and the
// parent through their scopes (issue 9). A parent far larger than the
// sample is read through its sample, whose rows' children are all
// counted: the figures are those of the sampled parents. A child far
// larger than the sample is counted on its sample, which shows some of
// each parent's children: a parent seen with two proves the claim, but
// none seen with two does not refute it, and how many children the
// parents have is not measured. ok is false when the tables or columns
// are unknown.
func Hypothesis(d warehouse.Dialect, r catalog.RelationshipDoc, cs, ps experts.Scope) (hypotheses.Hypothesis, bool) {
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
	w := wordsOf(parent, child)
	h := hypotheses.Hypothesis{
		ID:      ID(key),
		Subject: experts.CardinalitySubject + key,
		Statement: fmt.Sprintf("%s → %s is one-to-many: %s can have many %s (%s.%s → %s.%s).",
			r.ToTable, r.FromTable, naming.Article(w.one), w.many, r.FromTable, joinCols(r.FromColumns), r.ToTable, joinCols(r.ToColumns)),
		Expected: fmt.Sprintf("some %s with more than one %s", w.one, w.kid),
		Prior:    0.7,
	}
	if cs.Sampled {
		h.SQL = fmt.Sprintf("SELECT COUNT(*) AS with_children, MAX(k.n) AS max_children, SUM(k.n) AS child_rows "+
			"FROM (SELECT %s, COUNT(*) AS n FROM %s WHERE %s GROUP BY %s) k",
			strings.Join(sel, ", "), cs.From("c"), strings.Join(notNull, " AND "), strings.Join(group, ", "))
		h.Sample = cs.Evidence()
		h.Judge = w.judgeSampled
		return h, true
	}
	h.SQL = fmt.Sprintf("SELECT COUNT(*) AS parent_rows, COUNT(k.n) AS with_children, MAX(k.n) AS max_children, "+
		"SUM(k.n) AS child_rows FROM %s LEFT JOIN (SELECT %s, COUNT(*) AS n FROM %s WHERE %s GROUP BY %s) k ON %s",
		ps.From("p"), strings.Join(sel, ", "), cs.From("c"), strings.Join(notNull, " AND "),
		strings.Join(group, ", "), strings.Join(on, " AND "))
	h.Sample = ps.Evidence()
	h.Judge = w.judge
	return h, true
}

// Measured is the outcome of h judged on figures another statement
// measured, sql, rather than on h's own query: the relations expert's
// inclusion check, which counts the child's rows per value it finds in
// the parent. f.Parents is the parent's row count; how says where the
// figures come from, in the evidence.
func Measured(h hypotheses.Hypothesis, sql string, f Figures, how string) hypotheses.Outcome {
	h.SQL = sql
	out := hypotheses.Judged(h, f.row())
	if how != "" {
		out.Verdict.Evidence = append(out.Verdict.Evidence, how)
	}
	return out
}

// Figures are a cardinality test's counts: the parent's rows, those with
// at least one child, the most children of one parent, and the child rows
// that have a parent.
type Figures struct {
	Parents, WithChildren, Max, Children int64
}

func figuresOf(row hypotheses.Row) Figures {
	var f Figures
	f.Parents, _ = row.Int("parent_rows")
	f.WithChildren, _ = row.Int("with_children")
	f.Max, _ = row.Int("max_children")
	f.Children, _ = row.Int("child_rows")
	return f
}

func (f Figures) row() hypotheses.Row {
	return hypotheses.Row{"parent_rows": f.Parents, "with_children": f.WithChildren, "max_children": f.Max, "child_rows": f.Children}
}

func (f Figures) none() int64 { return f.Parents - f.WithChildren }

// words are the nouns a relationship's sentences name its tables by.
type words struct {
	one, many, kid, parents string
}

func wordsOf(parent, child warehouse.Table) words {
	return words{one: naming.Noun(parent.Name.Name, false), many: naming.Noun(child.Name.Name, true),
		kid: naming.Noun(child.Name.Name, false), parents: naming.Noun(parent.Name.Name, true)}
}

func (w words) judge(row hypotheses.Row) hypotheses.Verdict {
	f := figuresOf(row)
	ev := f.evidence(w)
	switch {
	case f.Parents == 0 || f.WithChildren == 0:
		return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.5, Evidence: ev}
	case f.Max > 1:
		return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev, Observed: true}
	}
	return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.95,
		Evidence: append(ev, fmt.Sprintf("no %s has more than one %s: one-to-one", w.one, w.kid))}
}

// judgeSampled judges the figures of a sample of the children, without
// the parent table (whose rows without children the sample cannot tell).
func (w words) judgeSampled(row hypotheses.Row) hypotheses.Verdict {
	f := figuresOf(row)
	ev := []string{fmt.Sprintf("the sample's %s %s belong to %s %s, up to %s to one %s",
		catalog.Thousands(f.Children), w.many, catalog.Thousands(f.WithChildren), w.parents, catalog.Thousands(f.Max), w.one)}
	switch {
	case f.WithChildren == 0:
		return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.5, Evidence: ev}
	case f.Max > 1:
		return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev, Observed: true}
	}
	// Each parent's children may all be in the table but one in the
	// sample: no parent seen twice settles nothing.
	return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.5,
		Evidence: append(ev, fmt.Sprintf("no %s has more than one %s in the sample, which cannot tell one-to-one from one-to-many", w.one, w.kid))}
}

func (f Figures) evidence(w words) []string {
	ev := []string{fmt.Sprintf("%s %s, %s with at least one of the %s %s, %s with none",
		catalog.Thousands(f.Parents), w.parents, catalog.Thousands(f.WithChildren), catalog.Thousands(f.Children), w.many, catalog.Thousands(f.none()))}
	if f.WithChildren > 0 {
		ev = append(ev, fmt.Sprintf("%.1f %s per %s that has any, at most %s",
			float64(f.Children)/float64(f.WithChildren), w.many, w.one, catalog.Thousands(f.Max)))
	}
	return ev
}

// Sentence says the relationship in plain words: "A customer has many
// orders (3.2 on average among those with any, at most 40); 12% of
// customers have none."
func (f Figures) Sentence(one, many, child, parents string) string {
	var s string
	if f.Max > 1 {
		s = fmt.Sprintf("%s has many %s (%.1f on average among those with any, at most %s)",
			naming.Article(one), many, float64(f.Children)/float64(f.WithChildren), catalog.Thousands(f.Max))
	} else {
		s = fmt.Sprintf("%s has at most one %s", naming.Article(one), child)
	}
	pct := int(math.Round(100 * float64(f.none()) / float64(f.Parents)))
	switch {
	case f.none() == 0:
		s += fmt.Sprintf("; every %s has at least one.", one)
	case pct == 0 && f.none() == 1:
		s += fmt.Sprintf("; one %s has none.", one)
	case pct == 0:
		s += fmt.Sprintf("; %s %s have none.", catalog.Thousands(f.none()), parents)
	default:
		s += fmt.Sprintf("; %d%% of %s have none.", pct, parents)
	}
	return capitalize(s)
}

// Record saves the outcome of r's cardinality test, out, read through the
// scopes cs and ps: when it settles the claim, the relationship in plain
// words as an insight, then the hypothesis, which marks the cardinality
// measured (the query expert's plan looks for it): saved last, so a kill
// in between measures it again.
func Record(ctx context.Context, env *experts.Env, r catalog.RelationshipDoc, out hypotheses.Outcome, cs, ps experts.Scope) error {
	save := func() error { return hypotheses.Save(ctx, env, out, "relationship", "cardinality") }
	if out.Doc.Status != hypotheses.Confirmed && out.Doc.Status != hypotheses.Refuted {
		return save()
	}
	f := figuresOf(out.Row)
	w := wordsOf(ps.Table, cs.Table)
	desc := f.Sentence(w.one, w.many, w.kid, w.parents)
	ev := append([]string{"hypothesis " + out.Doc.ID}, out.Verdict.Evidence...)
	conf := 0.95
	switch {
	case cs.Sampled:
		// Only that some parent has several children: how many, and how
		// many have none, a sample of the children does not measure.
		desc = fmt.Sprintf("%s has many %s (up to %s seen among a sample of %s %s; %s).",
			capitalize(naming.Article(w.one)), w.many, catalog.Thousands(f.Max), catalog.Thousands(f.Children), w.many, cs.Evidence())
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
	if err := catalog.Insights.Save(ctx, env, "relationship:"+r.Key(), ins, conf, ev, "relationship"); err != nil {
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

func joinCols(cols []string) string {
	if len(cols) == 1 {
		return cols[0]
	}
	return "(" + strings.Join(cols, ", ") + ")"
}

func qualify(table string, cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = table + "." + c
	}
	return out
}
