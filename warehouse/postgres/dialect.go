package postgres

import (
	"fmt"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Dialect is PostgreSQL's warehouse.Dialect: percentile aggregates,
// seeded TABLESAMPLE (rows, or whole pages for large tables), and a
// HyperLogLog sketch built in the server (extended hash functions). It has no
// TRY_CAST: text that does not parse fails a cast.
type Dialect struct{ warehouse.Standard }

var _ warehouse.Dialect = Dialect{}
var _ warehouse.Explainer = Dialect{}

// What the experts work around on PostgreSQL, which their comments say as
// a capability. Quoted names keep their case: "Users" and users are two
// tables, and one table may hold columns "Name" and name. There is no MIN
// or MAX over booleans. The percentiles of one statement share a sort. A
// view's row estimate is the planner's EXPLAIN guess, which the experts do
// not take. The planner may join a child to a large parent by hashing the
// whole parent, so the inclusion check looks each child value up by key.
// A block sample holds rows in runs of storage neighbours: 64 blocks of
// dates a few days apart made a uniform week look 2.6× busier on Saturdays
// than on Thursdays. ANALYZE's n_distinct is the Duj1 estimator that
// experts/statistical scales sampled distinct counts by.

// Name is "postgres".
func (Dialect) Name() string { return "postgres" }

// Capabilities: distinct counts of a table read whole are scaled up from
// HLLRegisters. A union of branches over a sample draws it once: at star
// scale 1, the frequent values of mail_sale's 18 columns took 8.6 s with
// each branch sampling the table and 5.5 s with one shared sample, the
// same rows (REPEATABLE) and the same result.
func (Dialect) Capabilities() warehouse.Capabilities {
	return warehouse.Capabilities{WholeDistinct: warehouse.DistinctScaled, SharedSample: true}
}

// NameRules: an unquoted name folds to lower case and a quoted one keeps
// its case; a bare name reads public; and a set-returning function's one
// unnamed column takes its alias's name.
func (Dialect) NameRules() warehouse.NameRules {
	return warehouse.NameRules{
		Compare:              warehouse.CompareFoldUnquoted,
		DefaultSchema:        "public",
		TableFunctions:       tableFunctionColumns,
		AliasNamesLoneColumn: true,
	}
}

// tableFunctionColumns are the output columns of the set-returning
// functions analysts use; a function named in its one column names it
// after its alias (NameRules).
var tableFunctionColumns = map[string][]string{
	"json_each": {"key", "value"}, "jsonb_each": {"key", "value"},
	"json_each_text": {"key", "value"}, "jsonb_each_text": {"key", "value"},
	"json_array_elements": {"value"}, "jsonb_array_elements": {"value"},
	"json_array_elements_text": {"value"}, "jsonb_array_elements_text": {"value"},
	"generate_series": {"generate_series"}, "unnest": {"unnest"},
	"regexp_split_to_table": {"regexp_split_to_table"},
}

// escapeString writes a value inside E'…', where a backslash is an escape
// whatever standard_conforming_strings says.
var escapeString = strings.NewReplacer(`\`, `\\`, `'`, `''`)

// Literal doubles the quote, which every session reads back exactly
// (standard_conforming_strings is pinned on, so a backslash in '…' is an
// ordinary character). A value holding a backslash is written E'…' with
// the backslash doubled instead: the lexical guard cannot know the
// setting (Grammar.SettingsVary) and refuses the plain literals of ab\'
// and C:\temp\, which end elsewhere where backslashes escape, while E'…'
// ends at the same place under either setting and reads as the value on
// any server.
func (Dialect) Literal(s string) string {
	if !strings.Contains(s, `\`) {
		return warehouse.Literal(s)
	}
	return "E'" + escapeString.Replace(s) + "'"
}

// TypedLiteral is Literal(v): PostgreSQL casts a string literal to the
// type of the column it is compared with.
func (d Dialect) TypedLiteral(typ, v string) string { return d.Literal(v) }

// FoldedIn is Standard's with PostgreSQL's literals.
func (d Dialect) FoldedIn(expr string, values []string) string {
	return warehouse.FoldedInWith(d.Literal, expr, values)
}

// CastText casts to TEXT.
func (Dialect) CastText(expr string) string { return "CAST(" + expr + " AS TEXT)" }

// Numeric casts to DOUBLE PRECISION; apply it to numeric columns only, as
// text that does not parse fails the query.
func (Dialect) Numeric(expr string) string { return "CAST(" + expr + " AS DOUBLE PRECISION)" }

// CountDistinct counts exactly: PostgreSQL has no sketch aggregate.
func (Dialect) CountDistinct(expr string, approx bool) (string, bool) {
	return "COUNT(DISTINCT " + expr + ")", false
}

// HLLRegisters builds the sketch in the server (PostgreSQL 11 and later,
// whose extended hash functions take a seed): there it takes half the time
// of COUNT(DISTINCT), which sorts every column. Each value is hashed to 64
// bits; the top p bits pick its register, and r is the count of leading
// zeros in the other 64−p bits, plus one. A register's maximum r is the r
// of its least remainder, so the engine keeps MIN(remainder) per register
// and computes r on the 2^p survivors only, not on every row.
//
// Numbers are hashed by their type's own function (hashValue), which is
// cheaper than their text and agrees with their equality; other values by
// their text.
func (Dialect) HLLRegisters(from, expr, typ string, p int) (string, bool) {
	if p < 4 || p > 24 {
		return "", false
	}
	q := 64 - p
	return fmt.Sprintf("SELECT %d - length(ltrim(CAST(CAST(w AS bit(%d)) AS text), '0')) AS r, COUNT(*) AS n FROM "+
		"(SELECT (h >> %d) & %d AS b, MIN(h & %d) AS w FROM "+
		"(SELECT %s AS h FROM %s WHERE %s IS NOT NULL) hh GROUP BY 1) reg GROUP BY 1",
		q+1, q, q, 1<<p-1, int64(1)<<q-1, hashValue(expr, typ), from, expr), true
}

// hashValue is a 64-bit hash of expr under its type's equality, as
// COUNT(DISTINCT) counts: integers of every width by hashint8extended (2
// and 2::bigint are one value), floating point by hashfloat8extended (0
// and -0 are one value, which their texts are not), numeric by
// hash_numeric_extended (1.0 and 1.00 are one value). hashint8extended
// folds a bigint's halves into 32 bits before hashing (so that it agrees
// with hashint4 for joins), which would make values beyond the 32-bit
// range collide: the hash of the high half is XORed in, so that distinct
// numbers stay distinct. Reading the text of a number costs more than
// hashing it: a sketch of 27 number columns of a 4.3M-row table took 24 s
// by their text and 19 s so. Any other type is hashed by its text, which
// every type has.
func hashValue(expr, typ string) string {
	t := strings.ToLower(strings.TrimSpace(typ))
	if i := strings.IndexByte(t, '('); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	switch t {
	case "smallint", "integer", "bigint", "int2", "int4", "int8", "smallserial", "serial", "bigserial":
		n := "CAST(" + expr + " AS BIGINT)"
		return "hashint8extended(" + n + ", 0) # hashint4extended(CAST(" + n + " >> 32 AS INTEGER), 1)"
	case "real", "double precision", "float4", "float8":
		return "hashfloat8extended(CAST(" + expr + " AS DOUBLE PRECISION), 0)"
	case "numeric", "decimal":
		return "hash_numeric_extended(" + expr + ", 0)"
	}
	return "hashtextextended(CAST(" + expr + " AS TEXT), 0)"
}

// Quantiles: percentile_cont, exact.
func (Dialect) Quantiles(expr string, ps []float64) ([]string, bool) {
	if len(ps) == 1 {
		return warehouse.QuantileFrags("percentile_cont(%[2]s) WITHIN GROUP (ORDER BY %[1]s)", expr, ps), false
	}
	// Every fragment is one element of the same aggregate over the array
	// of all fractions: PostgreSQL computes identical aggregates of a
	// statement once, so a column is sorted once for all its fractions,
	// where one aggregate per fraction sorts it once each (10 columns of
	// 860,000 rows, 13 fractions: 1.7 s rather than 3.4 s).
	return warehouse.QuantileElements("percentile_cont(ARRAY[%[2]s]::float8[]) WITHIN GROUP (ORDER BY %[1]s)", "(%s)[%d]", expr, ps), false
}

// ApproxQuantiles: no sketch; Quantiles.
func (d Dialect) ApproxQuantiles(expr string, ps []float64) ([]string, bool) {
	return d.Quantiles(expr, ps)
}

// TextLength: char_length counts characters.
func (Dialect) TextLength(expr string) string { return "char_length(" + expr + ")" }

// DatePart casts to TIMESTAMP first, so text columns work as well as typed
// ones; text that does not parse fails the query (no TRY_CAST).
func (Dialect) DatePart(part warehouse.TimePart, expr string) string {
	ts := "CAST(" + expr + " AS TIMESTAMP)"
	switch part {
	case warehouse.PartYear, warehouse.PartMonth, warehouse.PartHour, warehouse.PartDOW:
		// EXTRACT returns numeric since PostgreSQL 14, which drivers hand over as text.
		return "CAST(EXTRACT(" + strings.ToUpper(string(part)) + " FROM " + ts + ") AS INTEGER)"
	case warehouse.PartDate:
		// Formatted rather than cast to DATE: a DATE's text follows
		// DateStyle and drivers turn it into time.Time.
		return "to_char(" + ts + ", 'YYYY-MM-DD')"
	}
	panic(warehouse.UnknownPart(part))
}

// Sample is TABLESAMPLE BERNOULLI (pct) REPEATABLE (seed), or SYSTEM (pct)
// from BlockSampleRows up. PostgreSQL samples only tables and materialized
// views: for a view, or any other FROM item, use SampleFrom.
func (d Dialect) Sample(t warehouse.TableName, rows, totalRows int64) string {
	table := d.QuoteTable(t)
	rows = max(rows, 0)
	if totalRows <= 0 || totalRows <= rows {
		return d.SampleFrom(table, rows, totalRows)
	}
	method := "BERNOULLI"
	if totalRows >= warehouse.BlockSampleRows {
		method = "SYSTEM"
	}
	return fmt.Sprintf("%s %s TABLESAMPLE %s (%s) REPEATABLE (%d)", table, warehouse.SampleAlias, method,
		warehouse.Decimal(100*warehouse.Fraction(rows, totalRows)), warehouse.SampleSeed)
}

// SampleFrom keeps each row with probability rows/totalRows by random().
// PostgreSQL before 16 requires a subquery's alias.
func (d Dialect) SampleFrom(from string, rows, totalRows int64) string {
	return warehouse.FilterSample(d, from, rows, totalRows, func(f float64) string {
		return "random() < " + warehouse.Decimal(f)
	})
}

// SampleBlocks is TABLESAMPLE SYSTEM (pct) REPEATABLE (seed): whole pages.
func (d Dialect) SampleBlocks(t warehouse.TableName, rows, totalRows int64) (string, bool) {
	pct, ok := warehouse.BlockPercent(rows, totalRows)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s %s TABLESAMPLE SYSTEM (%s) REPEATABLE (%d)", d.QuoteTable(t), warehouse.SampleAlias, pct, warehouse.SampleSeed), true
}

// Explain is EXPLAIN: one "QUERY PLAN" row per line of the plan.
func (Dialect) Explain(sql string) string { return "EXPLAIN " + sql }

// Plan flattens the plan's rows.
func (Dialect) Plan(res *warehouse.Result) string { return warehouse.PlanText(res) }

// PlanScan reads the plan's node names.
func (Dialect) PlanScan(plan, table string) warehouse.PlanScan {
	p, t := warehouse.PlanWords(plan, table)
	switch {
	case strings.Contains(p, "index scan") || strings.Contains(p, "index only scan") || strings.Contains(p, "bitmap index scan"):
		return warehouse.ScanIndexed
	case strings.Contains(p, "seq scan on "+t) || strings.Contains(p, "seq scan on"):
		return warehouse.ScanFull
	}
	return warehouse.ScanUnknown
}
