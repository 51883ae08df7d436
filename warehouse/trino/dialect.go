package trino

import (
	"fmt"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Dialect is Trino's warehouse.Dialect: tables addressed as
// catalog.schema.table, TRY_CAST, sketch aggregates (approx_distinct,
// approx_percentile) and TABLESAMPLE.
type Dialect struct{ warehouse.Standard }

var _ warehouse.Dialect = Dialect{}
var _ warehouse.Explainer = Dialect{}

// Name is "trino".
func (Dialect) Name() string { return "trino" }

// Capabilities: distinct counts of a table read whole come from
// approx_distinct, and a table too large to be read whole is read through
// its first rows (LimitSample; see Sample).
func (Dialect) Capabilities() warehouse.Capabilities {
	return warehouse.Capabilities{WholeDistinct: warehouse.DistinctApprox, LimitSample: true, NoIndexes: true, NoKeys: true}
}

// NameRules: names compare in any case.
func (Dialect) NameRules() warehouse.NameRules { return warehouse.NameRules{} }

// QuoteTable: a Schema may be "catalog.schema", and each dot-separated part
// is quoted on its own.
func (d Dialect) QuoteTable(t warehouse.TableName) string {
	return warehouse.QuoteQualified(d.QuoteIdent, t, true)
}

// CastText: Trino has no TEXT type.
func (Dialect) CastText(expr string) string { return "CAST(" + expr + " AS VARCHAR)" }

// Numeric: TRY_CAST turns what does not parse into NULL.
func (Dialect) Numeric(expr string) string { return "TRY_CAST(" + expr + " AS DOUBLE)" }

// CountDistinct with approx is approx_distinct (HyperLogLog).
func (Dialect) CountDistinct(expr string, approx bool) (string, bool) {
	if approx {
		// Trino's default standard error is 2.3%; its least, 0.40625%
		// (2¹⁶ registers), keeps estimates within 2% at five errors.
		return "approx_distinct(" + expr + ", 0.0040625)", true
	}
	return "COUNT(DISTINCT " + expr + ")", false
}

// Quantiles is approx_percentile, a t-digest: estimates.
func (Dialect) Quantiles(expr string, ps []float64) ([]string, bool) {
	return warehouse.QuantileFrags("approx_percentile(%[1]s, %[2]s)", expr, ps), true
}

// ApproxQuantiles is Quantiles, already a sketch.
func (d Dialect) ApproxQuantiles(expr string, ps []float64) ([]string, bool) {
	return d.Quantiles(expr, ps)
}

// TextLength: length counts characters.
func (Dialect) TextLength(expr string) string { return "length(" + expr + ")" }

// DatePart: TRY_CAST to TIMESTAMP first, so text columns work as well as
// typed ones, and what does not parse is NULL.
func (Dialect) DatePart(part warehouse.TimePart, expr string) string {
	ts := "TRY_CAST(" + expr + " AS TIMESTAMP)"
	switch part {
	case warehouse.PartDOW:
		return "(EXTRACT(DOW FROM " + ts + ") % 7)" // ISO: 1 = Monday … 7 = Sunday
	case warehouse.PartYear, warehouse.PartMonth, warehouse.PartHour:
		return "EXTRACT(" + strings.ToUpper(string(part)) + " FROM " + ts + ")"
	case warehouse.PartDate:
		return "date_format(" + ts + ", '%Y-%m-%d')"
	}
	panic(warehouse.UnknownPart(part))
}

// TypedLiteral writes a value of a date or time column as a literal of
// its type (DATE '…', TIMESTAMP '…' with its zone if it has one, TIME
// '…'): Trino compares such a column with a string literal not at all
// (TYPE_MISMATCH: Cannot apply operator: date = varchar(10)). A value of
// any other type is a string literal (Literal).
func (d Dialect) TypedLiteral(typ, v string) string {
	t := strings.ToLower(strings.TrimSpace(typ))
	switch {
	case strings.HasPrefix(t, "date"):
		return "DATE " + warehouse.Literal(v)
	case strings.HasPrefix(t, "timestamp"):
		return "TIMESTAMP " + warehouse.Literal(v)
	case strings.HasPrefix(t, "time"):
		return "TIME " + warehouse.Literal(v)
	}
	return d.Literal(v)
}

// Lookup keeps EXISTS: Trino decorrelates correlated subqueries into joins
// anyway.
func (Dialect) Lookup(from, alias, cond string) string {
	return fmt.Sprintf("CASE WHEN EXISTS (SELECT 1 FROM %s %s WHERE %s) THEN 1 END", from, alias, cond)
}

// Sample is TABLESAMPLE BERNOULLI (pct) for a table of at most
// warehouse.WholeReadFactor samples, and its first rows (a LIMIT) beyond.
//
// Trino has no sample that reads only what it keeps on every connector,
// as measured on Trino 476 (docs/engines.md): BERNOULLI reads every row
// of the table (its physical input is the whole table), which a table of
// at most WholeReadFactor samples may cost. SYSTEM keeps or drops whole
// splits, so on a connector with few of them (tpch: two for a table of
// any size) it returns nothing most of the time and the whole table
// otherwise. A LIMIT ends the scan once the rows are in: each split read
// at once reads about rows rows (their partial limits) plus a page, about
// twice rows on the test cluster. It is no random sample, and the experts
// say so (Capabilities.LimitSample). Unseeded: BERNOULLI's rows vary from
// run to run, and the first rows from statement to statement.
func (d Dialect) Sample(t warehouse.TableName, rows, totalRows int64) string {
	table := d.QuoteTable(t)
	rows = max(rows, 0)
	switch {
	case totalRows <= 0 || totalRows <= rows:
		return d.SampleFrom(table, rows, totalRows)
	case totalRows > warehouse.WholeReadFactor*rows:
		return fmt.Sprintf("(SELECT * FROM %s %s) %s", table, d.Limit(rows), warehouse.SampleAlias)
	}
	return fmt.Sprintf("%s %s TABLESAMPLE BERNOULLI (%s)", table, warehouse.SampleAlias,
		warehouse.Decimal(100*warehouse.Fraction(rows, totalRows)))
}

// SampleFrom keeps each row with probability rows/totalRows by rand().
func (d Dialect) SampleFrom(from string, rows, totalRows int64) string {
	return warehouse.FilterSample(d, from, rows, totalRows, func(f float64) string {
		return "rand() < " + warehouse.Decimal(f)
	})
}

// SampleBlocks: none. TABLESAMPLE SYSTEM drops whole splits at random, and
// a connector with few splits has it return no row at all (tpch.sf1.orders,
// two splits: SYSTEM (10) returned 0 rows in 3 runs of 3) or the whole
// table; the experts read such a table's first rows instead (Sample).
func (Dialect) SampleBlocks(t warehouse.TableName, rows, totalRows int64) (string, bool) {
	return "", false
}

// Explain is EXPLAIN; its distributed plan names fragments, not how a
// table is read.
func (Dialect) Explain(sql string) string { return "EXPLAIN " + sql }

// Plan flattens the plan's rows.
func (Dialect) Plan(res *warehouse.Result) string { return warehouse.PlanText(res) }

// PlanScan does not read Trino's plans.
func (Dialect) PlanScan(plan, table string) warehouse.PlanScan { return warehouse.ScanUnknown }

// Literal is warehouse.Literal; a NUL, which Trino's varchar may hold, is
// written chr(0) (warehouse.LiteralJoined). TypedLiteral and FoldedIn
// write their values with it.
func (Dialect) Literal(s string) string { return warehouse.LiteralJoined(s, "chr(0)") }

// FoldedIn is Standard's with Trino's literals.
func (d Dialect) FoldedIn(expr string, values []string) string {
	return warehouse.FoldedInWith(d.Literal, expr, values)
}
