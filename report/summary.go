package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/discover-db/discover/catalog"
)

// Summarize writes the report's one-paragraph summary. Every sentence is
// computed from a figure already in the report, so the summary can never
// claim more than the catalog holds, and the same report gives the same words.
func Summarize(r *Report) string {
	s := OutcomeSentences(r.Outcome)
	s = append(s, inventorySentences(r)...)
	s = append(s, relationshipSentence(r))
	s = append(s, domainSentence(r))
	if k := keyFindingSentence(r); k != "" {
		s = append(s, k)
	}
	s = append(s, qualitySentence(r))
	if h := hypothesisSentence(r); h != "" {
		s = append(s, h)
	}
	if rec := recommendationSentence(r); rec != "" {
		s = append(s, rec)
	}
	s = append(s, runSentence(r))
	return strings.Join(s, " ")
}

func databasePhrase(d Database) string {
	var b strings.Builder
	b.WriteString("the ")
	if d.Dialect != "" {
		b.WriteString(d.Dialect + " ")
	}
	b.WriteString("database")
	if d.Name != "" {
		b.WriteString(" " + strconv.Quote(d.Name))
	}
	return b.String()
}

func inventorySentences(r *Report) []string {
	var tables, views []Table
	for _, t := range r.Tables {
		if t.Kind == "view" {
			views = append(views, t)
		} else {
			tables = append(tables, t)
		}
	}
	db := databasePhrase(r.Database)
	if len(tables)+len(views) == 0 {
		return []string{fmt.Sprintf("No tables or views of %s are recorded in the catalog.", db)}
	}
	out := []string{fmt.Sprintf("%s has %s and %s.", capitalize(db), plural(len(tables), "table", "tables"), plural(len(views), "view", "views"))}

	var total int64
	var counted []Table
	estimated, lower := false, false
	for _, t := range tables {
		if t.RowCount == nil {
			continue
		}
		total += *t.RowCount
		counted = append(counted, t)
		estimated = estimated || (t.RowCountIsEstimate && !t.RowCountIsLowerBound)
		lower = lower || t.RowCountIsLowerBound
	}
	switch {
	case len(counted) == 0 && len(tables) > 0:
		out = append(out, "No table has a known row count.")
	case len(counted) > 0:
		subject := "The tables hold"
		if len(tables) == 1 {
			subject = "The table holds"
		}
		if len(counted) < len(tables) {
			subject = fmt.Sprintf("The %s with a known row count hold", plural(len(counted), "table", "tables"))
			if len(counted) == 1 {
				subject = "The 1 table with a known row count holds"
			}
		}
		est := ""
		switch {
		case lower:
			// A count that stopped is a floor: so is the total.
			subject += " at least"
			est = " (some counts stopped early, some are estimates)"
			if !estimated {
				est = " (some counts stopped early)"
			}
		case estimated:
			est = " (some counts are estimates)"
		}
		out = append(out, fmt.Sprintf("%s %s in total%s.", subject, plural64(total, "row", "rows"), est))
	}

	if len(counted) >= 2 {
		slices.SortStableFunc(counted, func(a, b Table) int {
			return cmp.Or(cmp.Compare(*b.RowCount, *a.RowCount), cmp.Compare(a.Name, b.Name))
		})
		n := min(3, len(counted))
		parts := make([]string, n)
		for i, t := range counted[:n] {
			size := plural64(*t.RowCount, "row", "rows")
			if t.RowCountIsLowerBound {
				size = "more than " + plural64(max(*t.RowCount-1, 0), "row", "rows")
			}
			parts[i] = fmt.Sprintf("%s (%s)", t.Name, size)
		}
		out = append(out, fmt.Sprintf("The largest are %s.", catalog.JoinAnd(parts)))
	}
	return out
}

func relationshipSentence(r *Report) string {
	if len(r.Relationships) == 0 {
		return "No relationships between tables were found."
	}
	by := map[string]int{}
	for _, rel := range r.Relationships {
		by[rel.Source]++
	}
	parts := []string{fmt.Sprintf("%d declared", by["declared"]), fmt.Sprintf("%d inferred from the data", by["inferred"])}
	if by["user"] > 0 {
		parts = append(parts, fmt.Sprintf("%d given in the configuration", by["user"]))
	}
	verb := "were"
	if len(r.Relationships) == 1 {
		verb = "was"
	}
	return fmt.Sprintf("%s %s found: %s.", capitalize(plural(len(r.Relationships), "relationship", "relationships")), verb, catalog.JoinAnd(parts))
}

func domainSentence(r *Report) string {
	if r.Domain.Label == nil {
		return "The business domain was not determined."
	}
	return fmt.Sprintf("The data looks like the %s domain (confidence %s).", *r.Domain.Label, percent(r.Domain.Confidence))
}

func qualitySentence(r *Report) string {
	anomalies, columns := 0, 0
	for _, t := range r.Tables {
		for _, c := range t.Columns {
			if len(c.Anomalies) > 0 {
				columns++
				anomalies += len(c.Anomalies)
			}
		}
	}
	quality := 0
	for _, in := range r.Insights {
		if in.Kind == "quality" {
			quality++
		}
	}
	if anomalies+quality == 0 {
		return "No data-quality findings were recorded."
	}
	var parts []string
	if anomalies > 0 {
		parts = append(parts, fmt.Sprintf("%s in %s", plural(anomalies, "anomaly", "anomalies"), plural(columns, "column", "columns")))
	}
	if quality > 0 {
		parts = append(parts, plural(quality, "data-quality insight", "data-quality insights"))
	}
	return fmt.Sprintf("Data quality: %s recorded.", catalog.JoinAnd(parts))
}

func hypothesisSentence(r *Report) string {
	if len(r.Hypotheses) == 0 {
		return ""
	}
	by := map[string]int{}
	for _, h := range r.Hypotheses {
		by[h.Status]++
	}
	var parts []string
	known := 0
	for _, s := range []string{"confirmed", "refuted", "inconclusive", "proposed"} {
		if n := by[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
			known += n
		}
	}
	if rest := len(r.Hypotheses) - known; rest > 0 {
		parts = append(parts, fmt.Sprintf("%d with another status", rest))
	}
	return fmt.Sprintf("%s: %s.", capitalize(plural(len(r.Hypotheses), "hypothesis", "hypotheses")), catalog.JoinAnd(parts))
}

// keyFindingSentence names the insight that ranks first, and how many
// business rules the data was found to follow.
func keyFindingSentence(r *Report) string {
	// The summary is the program's: a model's reading is not its key finding.
	ranked := slices.DeleteFunc(rankedInsights(r.Insights), modelWritten)
	if len(ranked) == 0 {
		return ""
	}
	rules := 0
	for _, in := range ranked {
		if in.Kind == "business_rule" {
			rules++
		}
	}
	first := strings.TrimSuffix(strings.TrimSpace(ranked[0].Description), ".")
	if rules > 0 {
		return fmt.Sprintf("The data follows %s, first among them: %s.", plural(rules, "business rule", "business rules"), first)
	}
	return fmt.Sprintf("The key finding: %s.", first)
}

func recommendationSentence(r *Report) string {
	if len(r.Recommendations) == 0 {
		return ""
	}
	validated := 0
	for _, rec := range r.Recommendations {
		if rec.Validated {
			validated++
		}
	}
	return fmt.Sprintf("%s on how to query it, %d validated against the engine.",
		capitalize(plural(len(r.Recommendations), "recommendation", "recommendations")), validated)
}

var stopPhrases = map[string]string{
	"confidence":          "because overall confidence reached its target",
	"coverage":            "because coverage reached its target",
	"diminishing_returns": "because new iterations had stopped adding findings",
	"max_iterations":      "at its iteration limit",
	"deadline":            "at its deadline",
	"consensus":           "because the experts agreed they had nothing left to do",
}

func runSentence(r *Report) string {
	run := r.Run
	figures := fmt.Sprintf("with confidence %s and coverage %s after %s", percent(run.Confidence), percent(run.Coverage), plural64(run.Queries, "query", "queries"))
	if run.CachedQueries > 0 {
		figures += fmt.Sprintf(" (and %s answered by the last run's results over tables that had not changed)", plural64(run.CachedQueries, "statement", "statements"))
	}
	iters := plural(run.Iterations, "iteration", "iterations")
	if run.FinishedAt == nil {
		return fmt.Sprintf("The run has not finished: %s so far, %s.", iters, figures)
	}
	if run.StopReason == nil {
		return fmt.Sprintf("The run finished after %s, %s.", iters, figures)
	}
	why, ok := stopPhrases[*run.StopReason]
	if !ok {
		why = fmt.Sprintf("(stop reason %q)", *run.StopReason)
	}
	if run.Reused != nil {
		// Its figures are the earlier run's; its own queries read no data.
		return fmt.Sprintf("Nothing these findings rest on had changed since run %s, so they are that run's, taken from the catalog without reading the data again: it stopped after %s %s, with confidence %s and coverage %s.",
			run.Reused.FromRun, iters, why, percent(run.Confidence), percent(run.Coverage))
	}
	return fmt.Sprintf("The run stopped after %s %s, %s.", iters, why, figures)
}

func plural(n int, one, many string) string { return plural64(int64(n), one, many) }

func plural64(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return catalog.Thousands(n) + " " + many
}

// percent rounds a fraction to a whole percentage; finer precision would
// suggest an accuracy the confidence scores do not have.
func percent(f float64) string {
	return strconv.Itoa(int(math.Round(f*100))) + "%"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
