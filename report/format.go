package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/textcut"
)

// Helpers shared by the Markdown and HTML renderers, so that both show a
// figure the same way.

const unknown = "—"

// cellLimit keeps one long free-text min/max or top value from pushing a
// columns table off the screen; report.json keeps the full value.
const cellLimit = 40

func optText(s *string) string {
	if s == nil {
		return unknown
	}
	return shownValue(*s)
}

// shownValue writes a value so that a reader sees it: an empty string, and
// one with spaces at either end, are quoted, since a cell or a list shows
// them as nothing ("(e.g. )") or loses the spaces.
func shownValue(v string) string {
	if v == "" || strings.TrimSpace(v) != v {
		return strconv.Quote(v)
	}
	return v
}

// examplesText is " (e.g. a, b)" for an anomaly's examples, each shown as
// shownValue does; nothing when there are none, or when the description
// already quotes its one example (all 69 values are "0").
func examplesText(a Anomaly) string {
	if len(a.Examples) == 0 || len(a.Examples) == 1 && strings.Contains(a.Description, strconv.Quote(a.Examples[0])) {
		return ""
	}
	shown := make([]string, len(a.Examples))
	for i, e := range a.Examples {
		shown[i] = shownValue(e)
	}
	return " (e.g. " + strings.Join(shown, ", ") + ")"
}

func rowsText(t Table) string {
	if t.RowCount == nil {
		return "unknown"
	}
	if t.RowCountIsLowerBound {
		return "more than " + catalog.Thousands(max(*t.RowCount-1, 0))
	}
	if t.RowCountIsEstimate {
		return "~" + catalog.Thousands(*t.RowCount)
	}
	return catalog.Thousands(*t.RowCount)
}

// nullPct shows one decimal: a column that is 0.3% null is worth telling
// apart from one that has no nulls at all.
func nullPct(f *float64) string {
	if f == nil {
		return unknown
	}
	return strconv.FormatFloat(*f*100, 'f', 1, 64) + "%"
}

func distinctText(c Column) string {
	if c.DistinctCount == nil {
		return unknown
	}
	if c.DistinctIsEstimate {
		return "~" + catalog.Thousands(*c.DistinctCount)
	}
	return catalog.Thousands(*c.DistinctCount)
}

// numText shows two decimals for ordinary magnitudes (a mean of 100000.5
// must not read as 100000) and three significant digits for small ones.
func numText(f *float64) string {
	if f == nil {
		return unknown
	}
	v := *f
	if v != 0 && math.Abs(v) < 1 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func semanticText(c Column) string {
	if c.SemanticType == nil {
		return unknown
	}
	if c.SemanticConfidence == nil {
		return *c.SemanticType
	}
	return *c.SemanticType + " (" + percent(*c.SemanticConfidence) + ")"
}

func primaryKeyText(t Table) string {
	if len(t.PrimaryKey) == 0 {
		return "none"
	}
	s := strings.Join(t.PrimaryKey, ", ")
	if t.PrimaryKeySource != nil {
		s += " (" + *t.PrimaryKeySource + ")"
	}
	return s
}

func columnsText(cols []string) string { return "(" + strings.Join(cols, ", ") + ")" }

func endText(table string, cols []string) string { return table + " " + columnsText(cols) }

func cardinalityText(c *string) string {
	if c == nil {
		return unknown
	}
	return strings.ReplaceAll(*c, "_", "-")
}

func topValuesText(vs []ValueCount, n int) string {
	if len(vs) == 0 {
		return unknown
	}
	// Values each seen once (a unique column's) are no top values: a list
	// of the first few says nothing about the column.
	if !slices.ContainsFunc(vs, func(v ValueCount) bool { return v.Count > 1 }) {
		return "each value once"
	}
	parts := make([]string, 0, n)
	for i, v := range vs {
		if i == n {
			parts = append(parts, "…")
			break
		}
		// Counts, not percentages: a rare value would round to "0%".
		parts = append(parts, textcut.Runes(shownValue(v.Value), 24)+" ("+catalog.Thousands(v.Count)+")")
	}
	return strings.Join(parts, ", ")
}

func stopText(s *string) string {
	if s == nil {
		return "not finished"
	}
	return strings.ReplaceAll(*s, "_", " ")
}

func llmText(l LLM) string {
	if l.Provider == "none" {
		return "none"
	}
	s := l.Provider
	if l.Model != "" {
		s += " " + l.Model
	}
	return s + ", " + plural64(l.Calls, "call", "calls") + ", " + plural64(l.Tokens, "token", "tokens")
}

// tableRefs splits the relationships touching a table into those it makes
// (its foreign keys) and those made to it.
func tableRefs(rels []Relationship, table string) (out, in []Relationship) {
	for _, r := range rels {
		if r.FromTable == table {
			out = append(out, r)
		}
		if r.ToTable == table {
			in = append(in, r)
		}
	}
	return out, in
}

func title(r *Report) string {
	if r.Database.Name == "" {
		return "Discovery report"
	}
	return "Discovery report: " + r.Database.Name
}

// insightRank orders insight kinds in a briefing: what the business does
// (rules, relationships), then how the data moves (trends, time), then how
// it is shaped. Kinds not listed come last, in key order.
var insightRank = map[string]int{"business_rule": 0, "relationship": 1, "trend": 2, "temporal": 3,
	"correlation": 4, "distribution": 5}

// rankedInsights are the insights a briefing lists as key insights: all
// but the data-quality ones (which have their own section), ranked by
// kind, then by confidence. The input order breaks ties.
func rankedInsights(is []Insight) []Insight {
	var out []Insight
	for _, in := range is {
		if in.Kind != "quality" {
			out = append(out, in)
		}
	}
	rank := func(k string) int {
		if r, ok := insightRank[k]; ok {
			return r
		}
		return len(insightRank)
	}
	slices.SortStableFunc(out, func(a, b Insight) int {
		return cmp.Or(cmp.Compare(rank(a.Kind), rank(b.Kind)), cmp.Compare(b.Confidence, a.Confidence))
	})
	return out
}

// Insight kinds a model wrote (the orchestrator's model expert): prose
// marked as the model's reading, never a finding. The report shows them
// as they are described; the deterministic summary never leads with one.
const (
	InsightModelDomain = "model_domain"
	modelKindPrefix    = "model_" // model_note, model_rule, model_domain, model_collaboration
)

// modelDomain is the model's reading of the domain, if it wrote one.
func modelDomain(is []Insight) *Insight {
	for i := range is {
		if is[i].Kind == InsightModelDomain {
			return &is[i]
		}
	}
	return nil
}

// modelWritten says whether an insight is a model's prose.
func modelWritten(in Insight) bool { return strings.HasPrefix(in.Kind, modelKindPrefix) }

// kindText writes a kind for prose: business_rule → business rule.
func kindText(k string) string { return strings.ReplaceAll(k, "_", " ") }

// privacyItems lists the columns that hold personal data, in table and
// column order: the category, the confidence and the evidence.
func privacyItems(r *Report) []listItem {
	var out []listItem
	for _, t := range r.Tables {
		for _, c := range t.Columns {
			if c.PII == nil {
				continue
			}
			s := fmt.Sprintf("%s (%s)", kindText(c.PII.Category), percent(c.PII.Confidence))
			if len(c.PII.Evidence) > 0 {
				s += ": " + strings.Join(c.PII.Evidence, "; ")
			}
			out = append(out, listItem{Subject: t.Name + "." + c.Name, Text: s})
		}
	}
	return out
}

// privacyNote says whether the personal-data columns' values are masked,
// "" when the run did not record it (a catalog written before masking).
func privacyNote(r *Report) string {
	switch {
	case r.Privacy == nil || r.Privacy.Columns == 0:
		return ""
	case r.Privacy.ValuesMasked:
		return "Their values are masked here and in the catalog; counts, fractions, lengths and shapes are exact. Run with --show-pii to see them."
	}
	return "Their values are shown as they are: this run was asked to (--show-pii)."
}

// listItem is one line of a list of findings: what it is about (a column,
// tables) and what is said of it (what is wrong, which personal data).
type listItem struct {
	Subject string
	Text    string
}

// qualityItems gathers the data-quality findings: each column's anomalies,
// in table and column order, then the data-quality insights.
func qualityItems(r *Report) []listItem {
	var out []listItem
	for _, t := range r.Tables {
		for _, c := range t.Columns {
			for _, a := range c.Anomalies {
				s := fmt.Sprintf("%s, %s", kindText(a.Kind), plural64(a.Count, "row", "rows"))
				if a.Description != "" {
					s += ": " + a.Description
				}
				s += examplesText(a)
				out = append(out, listItem{Subject: t.Name + "." + c.Name, Text: s})
			}
		}
	}
	// A column a business rule sets only in some states is NULL in the
	// others by design: its NULLs are no defect, and the briefing says so.
	ruled := map[string]bool{}
	for _, in := range r.Insights {
		if in.Kind == "business_rule" && strings.Contains(in.Description, "set only when") {
			for _, c := range in.Columns[min(1, len(in.Columns)):] {
				ruled[c] = true
			}
		}
	}
	for _, in := range r.Insights {
		if in.Kind != "quality" {
			continue
		}
		subject := strings.Join(in.Columns, ", ")
		if subject == "" {
			subject = strings.Join(in.Tables, ", ")
		}
		text := in.Description
		if len(in.Columns) == 1 && ruled[in.Columns[0]] && strings.Contains(text, "NULL") {
			text = strings.TrimSuffix(text, ".") + "; expected: a lifecycle rule sets it only in some states (see Insights)"
		}
		out = append(out, listItem{Subject: subject, Text: text})
	}
	return out
}

// structureLine says what a table is in one line: its entity and the
// entity's description, which carries the row count, or else its size.
func structureLine(t Table) string {
	name := t.Name
	if t.Kind == "view" {
		name += " (view)"
	}
	line := fmt.Sprintf("%s: %s rows", name, rowsText(t))
	if t.Entity != nil && t.Entity.Description != "" {
		line = fmt.Sprintf("%s: %s, %s", name, t.Entity.Type, lowerFirst(t.Entity.Description))
	}
	if t.Unread != nil {
		// A view has no section of its own in report.md: its line says it.
		line += "; " + lowerFirst(unreadFact(t))
	}
	return line
}
