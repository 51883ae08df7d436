package spark

import (
	"fmt"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Dialect is Spark SQL's warehouse.Dialect: backticked names, TRY_CAST,
// exact percentile and sketch percentile_approx, TABLESAMPLE.
type Dialect struct{ warehouse.Standard }

var _ warehouse.Dialect = Dialect{}

// Name is "spark".
func (Dialect) Name() string { return "spark" }

// Capabilities: distinct counts of a table read whole are exact.
// approx_count_distinct is HyperLogLog++ without its sparse form, so it
// misses even on small columns.
func (Dialect) Capabilities() warehouse.Capabilities {
	return warehouse.Capabilities{WholeDistinct: warehouse.DistinctExact, NoIndexes: true, NoKeys: true}
}

// NameRules: names compare in any case (spark.sql.caseSensitive is off
// unless someone turned it on).
func (Dialect) NameRules() warehouse.NameRules { return warehouse.NameRules{} }

// QuoteIdent quotes with backticks, doubling embedded ones.
func (Dialect) QuoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// QuoteTable quotes `database`.`table`, or `table` alone in the session's
// database; a Schema of "catalog.database" is quoted part by part.
func (d Dialect) QuoteTable(t warehouse.TableName) string {
	return warehouse.QuoteQualified(d.QuoteIdent, t, true)
}

// literalEscapes writes a backslash and a quote with a backslash before
// each: Spark reads a backslash in a string as an escape (every session
// pins spark.sql.parser.escapedStringLiterals off, and the guard's lexer
// reads it so, Grammar.BackslashEscapes), so that doubling the quote alone
// lets a value ending in a backslash end its literal early. A quote is
// written \' rather than doubled: the backslash escape is the one Spark's
// lexer has always had (Spark 4.3 also reads a doubled quote as one; older
// servers were not tried). A NUL, which the guard refuses as a raw byte
// (warehouse.Precheck), is written as the unicode escape \u0000: Spark's
// \0 would read the digits after it as an octal escape.
var literalEscapes = strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\x00", `\u0000`)

// Literal quotes s with its backslashes and quotes escaped; every other
// character, newlines and all, stands for itself inside '…'.
func (Dialect) Literal(s string) string { return "'" + literalEscapes.Replace(s) + "'" }

// TypedLiteral is Literal(v): Spark casts a string literal to the type of
// the column it is compared with (ANSI mode is off in every session).
func (d Dialect) TypedLiteral(typ, v string) string { return d.Literal(v) }

// FoldedIn is Standard's with Spark's literals.
func (d Dialect) FoldedIn(expr string, values []string) string {
	return warehouse.FoldedInWith(d.Literal, expr, values)
}

// CastText: Spark's text type is STRING.
func (Dialect) CastText(expr string) string { return "CAST(" + expr + " AS STRING)" }

// Numeric: TRY_CAST turns what does not parse into NULL.
func (Dialect) Numeric(expr string) string { return "TRY_CAST(" + expr + " AS DOUBLE)" }

// CountDistinct with approx is approx_count_distinct (HyperLogLog++) at a
// 1% relative standard deviation, the least Spark's default register count
// allows without a precision above its limit.
func (Dialect) CountDistinct(expr string, approx bool) (string, bool) {
	if approx {
		return "approx_count_distinct(" + expr + ", 0.01)", true
	}
	// size(collect_set(…)) rather than COUNT(DISTINCT …): Spark plans
	// several COUNT(DISTINCT) of one aggregate, as the profile writes them,
	// by expanding every row once per distinct column before two
	// shuffles, which took over 60 s for the demo's 35,000 orders on two
	// cores; a set per column is one pass. The set holds every distinct
	// value, which a profile bounds: a table read whole is below
	// --sample-rows.
	return "size(collect_set(" + expr + "))", false
}

// Quantiles is percentile, exact and interpolating between neighbours as
// percentile_cont does.
func (Dialect) Quantiles(expr string, ps []float64) ([]string, bool) {
	return warehouse.QuantileFrags("percentile(%[1]s, %[2]s)", expr, ps), false
}

// ApproxQuantiles is percentile_approx at accuracy 10000 (a relative
// error of 1/10000 in rank).
func (Dialect) ApproxQuantiles(expr string, ps []float64) ([]string, bool) {
	return warehouse.QuantileFrags("percentile_approx(%[1]s, %[2]s, 10000)", expr, ps), true
}

// TextLength: char_length counts characters.
func (Dialect) TextLength(expr string) string { return "char_length(" + expr + ")" }

// DatePart: TRY_CAST to TIMESTAMP first, so text columns work as well as
// typed ones, and what does not parse is NULL. dayofweek counts from
// 1 = Sunday.
func (Dialect) DatePart(part warehouse.TimePart, expr string) string {
	ts := "TRY_CAST(" + expr + " AS TIMESTAMP)"
	switch part {
	case warehouse.PartDOW:
		return "(dayofweek(" + ts + ") - 1)"
	case warehouse.PartYear, warehouse.PartMonth, warehouse.PartHour:
		return "EXTRACT(" + strings.ToUpper(string(part)) + " FROM " + ts + ")"
	case warehouse.PartDate:
		return "date_format(" + ts + ", 'yyyy-MM-dd')"
	}
	panic(warehouse.UnknownPart(part))
}

// Sample is TABLESAMPLE (pct PERCENT) REPEATABLE (seed): each row kept
// with the fraction's probability, the same rows in every run of the same
// files.
func (d Dialect) Sample(t warehouse.TableName, rows, totalRows int64) string {
	table := d.QuoteTable(t)
	rows = max(rows, 0)
	if totalRows <= 0 || totalRows <= rows {
		return d.SampleFrom(table, rows, totalRows)
	}
	return fmt.Sprintf("%s TABLESAMPLE (%s PERCENT) REPEATABLE (%d) %s", table,
		warehouse.Decimal(100*warehouse.Fraction(rows, totalRows)), warehouse.SampleKey(d, t)%(1<<31), warehouse.SampleAlias)
}

// SampleFrom keeps each row with probability rows/totalRows by rand().
func (d Dialect) SampleFrom(from string, rows, totalRows int64) string {
	return warehouse.FilterSample(d, from, rows, totalRows, func(f float64) string {
		return "rand() < " + warehouse.Decimal(f)
	})
}

var _ warehouse.Explainer = Dialect{}

// Explain is EXPLAIN, which Spark answers with its physical plan without
// running the statement.
func (Dialect) Explain(sql string) string { return "EXPLAIN " + sql }

// Plan flattens the plan's rows.
func (Dialect) Plan(res *warehouse.Result) string { return warehouse.PlanText(res) }

// PlanScan does not read Spark's plans: Spark has no indexes, and whether
// a FileScan prunes partitions or files depends on the layout.
func (Dialect) PlanScan(plan, table string) warehouse.PlanScan { return warehouse.ScanUnknown }
