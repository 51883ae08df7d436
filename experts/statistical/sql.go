package statistical

import (
	"fmt"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// firstRows is the FROM item that limits profiling to the first n rows: a
// sample every engine reads without a scan, whose size is exact, so that
// the figures of a sampled table are those of exactly n rows.
// TODO(issue 4): d.Sample for a random spread, once sampled figures are read
// as estimates of a sample whose size varies.
func firstRows(d warehouse.Dialect, from string, n int64) string {
	return fmt.Sprintf("(SELECT * FROM %s %s) %s", from, d.Limit(n), warehouse.SampleAlias)
}

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
	Bool      bool // MIN and MAX are skipped: PostgreSQL has none for booleans
	CountOnly bool // fallback after the full aggregate failed on this column
}

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
			fmt.Fprintf(&b, ", COUNT(DISTINCT %s) AS %s", q, alias(c.Index, "dc"))
		}
		if !c.Blob && !c.Bool {
			fmt.Fprintf(&b, ", MIN(%s) AS %s, MAX(%s) AS %s", q, alias(c.Index, "mn"), q, alias(c.Index, "mx"))
		}
		if c.Numeric {
			v := d.Numeric(q)
			fmt.Fprintf(&b, ", AVG(%s) AS %s, AVG((%s) * (%s)) AS %s", v, alias(c.Index, "av"), v, v, alias(c.Index, "sq"))
		}
	}
	b.WriteString(" FROM ")
	b.WriteString(from)
	return b.String()
}

// topK is how many frequent values a profile keeps.
const topK = 10

// topValuesSQL builds one UNION ALL query returning, for each column, its
// topK most frequent non-null values as (k, v, n): column index, value as
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
			c.Index, d.CastText(q), from, q, q, d.Limit(topK), i)
	}
	return b.String()
}

// chunks splits cols into groups of at most size.
func chunks(cols []colSpec, size int) [][]colSpec {
	if size < 1 {
		size = 1
	}
	var out [][]colSpec
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
// counts: SQLite columns without one often hold numbers, and the per-value
// check in warehouse.Dialect.Numeric keeps text out of the averages.
func isNumericType(t string) bool {
	u := strings.ToUpper(strings.TrimSpace(t))
	if u == "" {
		return true
	}
	// INTERVAL and POINT contain INT but are not numbers.
	if strings.Contains(u, "INTERVAL") || strings.Contains(u, "POINT") {
		return false
	}
	for _, s := range []string{"INT", "REAL", "NUM", "DEC", "FLOA", "DOUB"} {
		if strings.Contains(u, s) {
			return true
		}
	}
	return false
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
