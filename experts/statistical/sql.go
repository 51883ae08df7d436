package statistical

import (
	"fmt"
	"strings"
)

// dialect holds the few SQL fragments that differ between engines. Everything
// else the builders emit is plain SQL-92 aggregate syntax every engine shares.
type dialect struct {
	name  string
	quote func(string) string
}

// numeric renders expr as a floating-point value, or NULL when the stored
// value is not a number. SQLite columns may hold text in any column, so the
// storage class is checked per value; typed engines only need the cast, which
// also keeps AVG(x*x) from overflowing integer arithmetic.
func (d dialect) numeric(expr string) string {
	switch d.name {
	case "sqlite":
		return "CASE WHEN typeof(" + expr + ") IN ('integer','real') THEN CAST(" + expr + " AS REAL) END"
	case "mysql":
		return "CAST(" + expr + " AS DOUBLE)"
	default:
		return "CAST(" + expr + " AS DOUBLE PRECISION)"
	}
}

// text renders expr as a string so that every value reaches Go as text,
// whatever the driver would make of the declared type.
func (d dialect) text(expr string) string {
	switch d.name {
	case "sqlite", "postgres", "duckdb":
		return "CAST(" + expr + " AS TEXT)"
	case "mysql":
		return "CAST(" + expr + " AS CHAR)"
	default:
		return "CAST(" + expr + " AS VARCHAR)"
	}
}

// sample is the FROM item that limits profiling to the first n rows. The
// alias is required by PostgreSQL and harmless elsewhere.
// TODO(issue 4): TABLESAMPLE where the engine has it, for a spread sample.
func (d dialect) sample(table string, n int64) string {
	return fmt.Sprintf("(SELECT * FROM %s LIMIT %d) s", table, n)
}

// boundedCountSQL counts the rows of table, stopping at limit.
func boundedCountSQL(table string, limit int64) string {
	return fmt.Sprintf("SELECT COUNT(*) AS n FROM (SELECT 1 AS one FROM %s LIMIT %d) c", table, limit)
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
func profileSQL(d dialect, from string, cols []colSpec) string {
	var b strings.Builder
	b.WriteString("SELECT COUNT(*) AS n")
	for _, c := range cols {
		q := d.quote(c.Name)
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
			v := d.numeric(q)
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
func topValuesSQL(d dialect, from string, cols []colSpec) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		q := d.quote(c.Name)
		fmt.Fprintf(&b, "SELECT k, v, n FROM (SELECT %d AS k, %s AS v, COUNT(*) AS n FROM %s WHERE %s IS NOT NULL GROUP BY %s ORDER BY 3 DESC, 2 LIMIT %d) t%d",
			c.Index, d.text(q), from, q, q, topK, i)
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
// check in dialect.numeric keeps text out of the averages.
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
