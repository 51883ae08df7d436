package report

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Helpers shared by the Markdown and HTML renderers, so that both show a
// figure the same way.

const unknown = "—"

// cellLimit keeps one long free-text min/max or top value from pushing a
// columns table off the screen; report.json keeps the full value.
const cellLimit = 40

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func optText(s *string) string {
	if s == nil {
		return unknown
	}
	return *s
}

func rowsText(t Table) string {
	if t.RowCount == nil {
		return "unknown"
	}
	if t.RowCountIsEstimate {
		return "~" + thousands(*t.RowCount)
	}
	return thousands(*t.RowCount)
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
		return "~" + thousands(*c.DistinctCount)
	}
	return thousands(*c.DistinctCount)
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
	parts := make([]string, 0, n)
	for i, v := range vs {
		if i == n {
			parts = append(parts, "…")
			break
		}
		// Counts, not percentages: a rare value would round to "0%".
		parts = append(parts, truncate(v.Value, 24)+" ("+thousands(v.Count)+")")
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
