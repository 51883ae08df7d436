package statistical

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// boundedCountSQL counts the rows of table, stopping at limit.
func boundedCountSQL(d warehouse.Dialect, table string, limit int64) string {
	return fmt.Sprintf("SELECT COUNT(*) AS n FROM (SELECT 1 AS one FROM %s %s) c", table, d.Limit(limit))
}

// colSpec is one column's part in a profile query.
type colSpec struct {
	Index     int // position in the table, used for the aliases
	Name      string
	Numeric   bool
	Blob      bool
	Bool      bool // MIN and MAX are skipped: an engine may have none for booleans
	CountOnly bool // fallback after the full aggregate failed on this column

	// The checks below are off unless profileTable turns them on.
	Text      bool // text lengths, values with spaces
	Missing   bool // empty strings and placeholders
	Types     bool // storage classes (DynamicTypes), which may differ row by row
	Measure   bool // a numeric quantity, not a key: counts its numeric values
	Quantiles bool // percentiles in the aggregate (engines that have them)
	NonNeg    bool // negative values are implausible
	Age       bool // values outside 0..130 are implausible

	// ApproxQuantiles, with Quantiles, takes the percentiles from the
	// engine's sketch where it has one (Dialect.ApproxQuantiles): for large
	// tables, where an exact percentile keeps and sorts every value.
	ApproxQuantiles bool
}

// quantilePoints are the fractions a profile's Quantiles hold, in order.
var quantilePoints = []float64{0.25, 0.5, 0.75, 0.95}

// decilePoints are the inner bounds of a histogram of histogramBuckets
// equi-depth buckets; the least and greatest values close it.
var decilePoints = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}

// aggregatePoints are the fractions the aggregate asks the engine's
// percentile function for, in one call where the engine shares the work
// (a list of fractions, or one sort for several aggregates): the
// quantiles, then the deciles. Aliases q0… follow this order.
var aggregatePoints = append(slices.Clone(quantilePoints), decilePoints...)

// placeholders are the values people type when they have none, and the
// zero date an engine may store for a date it could not read, which is no
// date at all.
var placeholders = []string{"n/a", "null", "-", "none", "unknown", "?", "0000-00-00", "0000-00-00 00:00:00"}

// epochPlaceholders are the zero of Unix time: a placeholder when it stands
// out from the other values (epochStandsOut), a real date otherwise — some
// people were born on 1 January 1970.
var epochPlaceholders = []string{"1970-01-01", "1970-01-01 00:00:00"}

// epochCond is true for the Unix epoch written as a date: a plain
// comparison, since dates have no case and rarely blanks, and a regular
// expression per value (what FoldedIn may be) would cost as much again as
// the placeholder check.
func epochCond(d warehouse.Dialect, q string) string {
	lits := make([]string, len(epochPlaceholders))
	for i, e := range epochPlaceholders {
		lits[i] = d.Literal(e)
	}
	return d.CastText(q) + " IN (" + strings.Join(lits, ", ") + ")"
}

// placeholderCond is true for values that stand in for a missing one:
// LOWER(TRIM(value)) is one of placeholders.
func placeholderCond(d warehouse.Dialect, q string) string {
	return d.FoldedIn(d.CastText(q), placeholders)
}

// emptyCond is true for strings with nothing but blanks: TRIM(value) is
// the empty string.
func emptyCond(d warehouse.Dialect, q string) string { return d.Blank(d.CastText(q)) }

// countIf counts the rows where cond holds.
func countIf(cond string) string { return "SUM(CASE WHEN " + cond + " THEN 1 ELSE 0 END)" }

// ageCond is true for ages no person has.
func ageCond(v string) string { return v + " < 0 OR " + v + " > 130" }

// alias names the aggregate agg of column i. Positional aliases avoid any
// trouble with odd column names, case folding and alias length limits.
func alias(i int, agg string) string { return fmt.Sprintf("c%d_%s", i, agg) }

// profileSQL builds one aggregate query over from (a quoted table or a sample
// subquery) computing, per column, the non-null count, distinct count, min and
// max, and for numeric columns the mean and mean of squares, plus COUNT(*).
func profileSQL(d warehouse.Dialect, from string, cols []colSpec) string {
	var b strings.Builder
	b.WriteString("SELECT COUNT(*) AS n")
	for _, c := range cols {
		q := d.QuoteIdent(c.Name)
		fmt.Fprintf(&b, ", COUNT(%s) AS %s", q, alias(c.Index, "nn"))
		if c.CountOnly {
			continue
		}
		if !c.Blob {
			// The dialect's exact count: COUNT(DISTINCT) everywhere but on
			// Spark, which expands every row once per COUNT(DISTINCT) of
			// the statement.
			dc, _ := d.CountDistinct(q, false)
			fmt.Fprintf(&b, ", %s AS %s", dc, alias(c.Index, "dc"))
		}
		if !c.Blob && !c.Bool {
			fmt.Fprintf(&b, ", MIN(%s) AS %s, MAX(%s) AS %s", q, alias(c.Index, "mn"), q, alias(c.Index, "mx"))
		}
		if c.Numeric {
			v := d.Numeric(q)
			fmt.Fprintf(&b, ", AVG(%s) AS %s, AVG((%s) * (%s)) AS %s", v, alias(c.Index, "av"), v, v, alias(c.Index, "sq"))
		}
		checks(&b, d, c)
	}
	b.WriteString(" FROM ")
	b.WriteString(from)
	return b.String()
}

// checks adds the aggregates behind the anomaly checks and the extra
// statistics a column's spec asks for.
func checks(b *strings.Builder, d warehouse.Dialect, c colSpec) {
	q := d.QuoteIdent(c.Name)
	v := d.Numeric(q)
	if c.Measure {
		fmt.Fprintf(b, ", COUNT(%s) AS %s, %s AS %s", v, alias(c.Index, "nv"), countIf(v+" = 0"), alias(c.Index, "zr"))
	}
	if c.Quantiles {
		quantiles := d.Quantiles
		if c.ApproxQuantiles {
			quantiles = d.ApproxQuantiles
		}
		if frags, _ := quantiles(v, aggregatePoints); frags != nil {
			for i, f := range frags {
				fmt.Fprintf(b, ", %s AS %s", f, alias(c.Index, fmt.Sprintf("q%d", i)))
			}
		}
	}
	if c.NonNeg {
		fmt.Fprintf(b, ", %s AS %s", countIf(v+" < 0"), alias(c.Index, "ng"))
	}
	if c.Age {
		fmt.Fprintf(b, ", %s AS %s", countIf(ageCond(v)), alias(c.Index, "ag"))
	}
	if c.Text {
		l := d.TextLength(d.CastText(q))
		fmt.Fprintf(b, ", MIN(%s) AS %s, AVG(%s) AS %s, MAX(%s) AS %s, %s AS %s",
			l, alias(c.Index, "l0"), l, alias(c.Index, "l1"), l, alias(c.Index, "l2"),
			countIf(d.CastText(q)+" LIKE '% %'"), alias(c.Index, "sp"))
	}
	if c.Missing {
		fmt.Fprintf(b, ", %s AS %s, %s AS %s, %s AS %s", countIf(emptyCond(d, q)), alias(c.Index, "es"),
			countIf(placeholderCond(d, q)), alias(c.Index, "ph"), countIf(epochCond(d, q)), alias(c.Index, "ep"))
	}
	if c.Types {
		// Numbers are the rest of the non-null values.
		fmt.Fprintf(b, ", %s AS %s, %s AS %s",
			countIf("typeof("+q+") = 'text'"), alias(c.Index, "tt"),
			countIf("typeof("+q+") = 'blob'"), alias(c.Index, "tb"))
	}
}

// topK is how many frequent values a profile keeps of a column with more
// than topValuesMaxDistinct values; a code list keeps all (topLimit).
const topK = 10

// topValuesSQL builds one UNION ALL query returning, for each column, its
// topValuesMaxDistinct most frequent non-null values (runTopValues keeps
// topLimit of them) as (k, v, n): column index, value as
// text, count. Each branch is wrapped in a subquery so that its ORDER BY and
// LIMIT are legal on every engine.
func topValuesSQL(d warehouse.Dialect, from string, cols []colSpec) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		q := d.QuoteIdent(c.Name)
		fmt.Fprintf(&b, "SELECT k, v, n FROM (SELECT %d AS k, %s AS v, COUNT(*) AS n FROM %s WHERE %s IS NOT NULL GROUP BY %s ORDER BY 3 DESC, 2 %s) t%d",
			c.Index, d.CastText(q), from, q, q, d.Limit(topValuesMaxDistinct), i)
	}
	return b.String()
}

// chunks splits cols into groups of at most size.
func chunks[T any](cols []T, size int) [][]T {
	if size < 1 {
		size = 1
	}
	var out [][]T
	for len(cols) > size {
		out = append(out, cols[:size])
		cols = cols[size:]
	}
	if len(cols) > 0 {
		out = append(out, cols)
	}
	return out
}

// isNumericType reports whether a declared type holds numbers. An empty type
// counts: on an engine with dynamic types columns without one often hold
// numbers, and the per-value check in warehouse.Dialect.Numeric keeps text
// out of the averages.
func isNumericType(t string) bool {
	return strings.TrimSpace(t) == "" || warehouse.NumericType(t)
}

// isBoolType reports whether a declared type is a boolean.
func isBoolType(t string) bool {
	u := strings.ToUpper(t)
	return strings.HasPrefix(u, "BOOL") || u == "BIT"
}

// isBlobType reports whether a declared type holds binary data, for which
// MIN, MAX, DISTINCT and top values mean nothing.
func isBlobType(t string) bool {
	u := strings.ToUpper(t)
	for _, s := range []string{"BLOB", "BYTEA", "BINARY", "IMAGE"} {
		if strings.Contains(u, s) {
			return true
		}
	}
	return false
}
