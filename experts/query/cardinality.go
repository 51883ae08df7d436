package query

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
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
func CardinalityHypothesis(src warehouse.Source, tables map[string]warehouse.Table, r catalog.RelationshipDoc) (hypotheses.Hypothesis, bool) {
	child, parent := tables[strings.ToLower(r.FromTable)], tables[strings.ToLower(r.ToTable)]
	if child.Name.Name == "" || parent.Name.Name == "" || len(r.FromColumns) != len(r.ToColumns) || len(r.FromColumns) == 0 {
		return hypotheses.Hypothesis{}, false
	}
	key := fmt.Sprintf("%s(%s)->%s(%s)", r.FromTable, strings.Join(r.FromColumns, ","), r.ToTable, strings.Join(r.ToColumns, ","))
	var sel, notNull, group, on []string
	for i := range r.FromColumns {
		c := "c." + src.QuoteIdent(r.FromColumns[i])
		alias := fmt.Sprintf("r%d", i+1)
		sel = append(sel, c+" AS "+alias)
		notNull = append(notNull, c+" IS NOT NULL")
		group = append(group, c)
		on = append(on, "k."+alias+" = p."+src.QuoteIdent(r.ToColumns[i]))
	}
	sql := fmt.Sprintf("SELECT COUNT(*) AS parent_rows, COUNT(k.n) AS with_children, MAX(k.n) AS max_children, "+
		"SUM(k.n) AS child_rows FROM %s p LEFT JOIN (SELECT %s, COUNT(*) AS n FROM %s c WHERE %s GROUP BY %s) k ON %s",
		src.QuoteTable(parent.Name), strings.Join(sel, ", "), src.QuoteTable(child.Name), strings.Join(notNull, " AND "),
		strings.Join(group, ", "), strings.Join(on, " AND "))
	one, many := noun(parent.Name.Name, false), noun(child.Name.Name, true)
	return hypotheses.Hypothesis{
		ID:      hypotheses.ID("card", key),
		Subject: cardinalitySubject + key,
		Statement: fmt.Sprintf("%s → %s is one-to-many: %s can have many %s (%s.%s → %s.%s).",
			r.ToTable, r.FromTable, article(one), many, r.FromTable, joinCols(r.FromColumns), r.ToTable, joinCols(r.ToColumns)),
		SQL:      sql,
		Expected: fmt.Sprintf("some %s with more than one %s", one, noun(child.Name.Name, false)),
		Prior:    0.7,
		Judge: func(row hypotheses.Row) hypotheses.Verdict {
			f := cardinalityFigures(row)
			ev := f.evidence(one, many, noun(parent.Name.Name, true))
			switch {
			case f.parents == 0 || f.withChildren == 0:
				return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.5, Evidence: ev}
			case f.max > 1:
				return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev}
			}
			return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.95,
				Evidence: append(ev, fmt.Sprintf("no %s has more than one %s: one-to-one", one, noun(child.Name.Name, false)))}
		},
	}, true
}

// cardinalitySubject prefixes the subject of a cardinality test: the
// relationship's key alone is the subject of its orphan test, which the
// orchestrator reads as the relationship being tested.
const cardinalitySubject = "cardinality of "

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
	out, err := test(ctx, env, h)
	if err != nil {
		return err
	}
	if err := hypotheses.Save(ctx, env, Name, out, "relationship", "cardinality"); err != nil {
		return err
	}
	if out.Doc.Status != hypotheses.Confirmed && out.Doc.Status != hypotheses.Refuted {
		return nil
	}
	f := cardinalityFigures(out.Row)
	tables := tableIndex(env.Tables)
	parent, child := tables[strings.ToLower(r.ToTable)], tables[strings.ToLower(r.FromTable)]
	one, many, parents := noun(parent.Name.Name, false), noun(child.Name.Name, true), noun(parent.Name.Name, true)
	ins := catalog.InsightDoc{Kind: "relationship", Tables: []string{r.ToTable, r.FromTable},
		Columns:     append(qualify(r.FromTable, r.FromColumns), qualify(r.ToTable, r.ToColumns)...),
		Description: f.sentence(one, many, noun(child.Name.Name, false), parents)}
	return env.SaveDoc(ctx, Name, catalog.KindInsight, "relationship:"+strings.TrimPrefix(h.Subject, cardinalitySubject), ins, 0.95,
		append([]string{"hypothesis " + h.ID}, out.Verdict.Evidence...), "relationship")
}

// noun renders a table name as prose, singular or plural: usage_records →
// "usage record" / "usage records", OrderDetails → "order detail".
func noun(table string, plural bool) string {
	words := experts.Words(table)
	if len(words) == 0 {
		return table
	}
	last := singular(words[len(words)-1])
	if plural {
		last = pluralOf(last)
	}
	words[len(words)-1] = last
	return strings.Join(words, " ")
}

func singular(w string) string {
	switch {
	case len(w) < 4 || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is") ||
		w == "data" || w == "news" || w == "series" || w == "media":
		return w
	case w == "people":
		return "person"
	case w == "children":
		return "child"
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

func pluralOf(w string) string {
	switch {
	case w == "person":
		return "people"
	case w == "child":
		return "children"
	case w == "data" || w == "media" || w == "news" || w == "series":
		return w
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "sh"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "x"):
		return w + "es"
	}
	return w + "s"
}

// article puts "a" or "an" before a noun, by its first letter.
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
