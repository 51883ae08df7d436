package warehouse

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Dialect renders the SQL fragments that differ between engines, so that an
// expert builds one query shape for SQLite on a laptop and Trino on a cluster
// (ARCHITECTURE.md, principle 4). Everything else the experts emit is SQL all
// five engines share: SELECT, COUNT, MIN, MAX, AVG, GROUP BY, UNION ALL,
// subqueries with an alias.
//
// Arguments named expr are SQL expressions, already quoted (a QuoteIdent
// result or an expression built from one); arguments named from are FROM
// items (a QuoteTable result, or a Sample). Results are fragments to splice
// into a statement: nothing here runs or checks SQL, the guard does.
//
// Build one with DialectFor: the zero Dialect names no engine.
type Dialect struct{ name string }

// DialectFor returns the dialect of an engine: "sqlite", "postgres", "mysql"
// (MariaDB too), "duckdb" or "trino", as Source.Dialect names them. An
// unknown name is an error wrapping ErrBadInput.
func DialectFor(name string) (Dialect, error) {
	d, ok := lookupDialect(name)
	if !ok {
		return Dialect{}, fmt.Errorf("warehouse: unknown SQL dialect %q (want sqlite, postgres, mysql, duckdb or trino): %w", name, ErrBadInput)
	}
	return Dialect{name: d.name}, nil
}

// Name is the engine's name as DialectFor takes it.
func (d Dialect) Name() string { return d.name }

// QuoteIdent quotes one identifier, doubling the quote character inside it:
// `…` for MySQL, whose "…" is a string unless ANSI_QUOTES is on, "…" for the
// others.
func (d Dialect) QuoteIdent(name string) string {
	if d.name == "mysql" {
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// QuoteTable quotes a table name, schema-qualified when Schema is set. Trino
// addresses tables as catalog.schema.table, so its Schema may be
// "catalog.schema" and each dot-separated part is quoted on its own; the
// other engines take Schema as one identifier, dots and all.
func (d Dialect) QuoteTable(t TableName) string {
	if t.Schema == "" {
		return d.QuoteIdent(t.Name)
	}
	parts := []string{t.Schema}
	if d.name == "trino" {
		parts = strings.Split(t.Schema, ".")
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(d.QuoteIdent(p))
		b.WriteByte('.')
	}
	b.WriteString(d.QuoteIdent(t.Name))
	return b.String()
}

// CastText renders expr as a string, so that every value reaches Go as text
// whatever the driver would make of the declared type. MySQL casts only to
// CHAR; Trino has no TEXT type.
func (d Dialect) CastText(expr string) string {
	switch d.name {
	case "sqlite", "postgres", "duckdb":
		return "CAST(" + expr + " AS TEXT)"
	case "mysql":
		return "CAST(" + expr + " AS CHAR)"
	default: // trino
		return "CAST(" + expr + " AS VARCHAR)"
	}
}

// Numeric renders expr as a floating-point value, or NULL where the value is
// not a number. Floating point also keeps AVG(x*x) from overflowing integer
// arithmetic.
//
// Any SQLite column may hold text, so there the storage class is checked per
// value and text is NULL, never 0. DuckDB and Trino have TRY_CAST, which
// turns what does not parse into NULL. PostgreSQL and MySQL have no such
// cast: apply it to numeric columns only (PostgreSQL fails on text that does
// not parse, MySQL reads it as 0 with a warning).
func (d Dialect) Numeric(expr string) string {
	switch d.name {
	case "sqlite":
		return "CASE WHEN typeof(" + expr + ") IN ('integer','real') THEN CAST(" + expr + " AS REAL) END"
	case "mysql":
		return "CAST(" + expr + " AS DOUBLE)"
	case "duckdb", "trino":
		return "TRY_CAST(" + expr + " AS DOUBLE)"
	default: // postgres
		return "CAST(" + expr + " AS DOUBLE PRECISION)"
	}
}

// CountDistinct counts the distinct non-null values of expr. With approx, an
// engine that has a sketch-based estimate (DuckDB approx_count_distinct,
// Trino approx_distinct, both HyperLogLog) uses it and estimate is true; the
// others count exactly, which costs a sort or a hash of the column.
func (d Dialect) CountDistinct(expr string, approx bool) (sql string, estimate bool) {
	if approx {
		switch d.name {
		case "duckdb":
			return "approx_count_distinct(" + expr + ")", true
		case "trino":
			// Trino's default standard error is 2.3%; its least, 0.40625%
			// (2¹⁶ registers), keeps estimates within 2% at five errors.
			return "approx_distinct(" + expr + ", 0.0040625)", true
		}
	}
	return "COUNT(DISTINCT " + expr + ")", false
}

// HLLRegisters is a whole statement that builds a HyperLogLog sketch of
// the non-null values of expr in from, inside the engine, and returns only
// its register histogram: rows (r, n), n registers holding the value r,
// for r ≥ 1 (empty registers are the rest of the 2^p). Each value is hashed
// to 64 bits; the top p bits pick its register, and r is the count of
// leading zeros in the other 64−p bits, plus one. A register's maximum r is
// the r of its least remainder, so the engine keeps MIN(remainder) per
// register and computes r on the 2^p survivors only, not on every row.
// ok is false on engines that need no such statement: SQLite (the caller
// streams the values), DuckDB and MySQL (whose exact COUNT(DISTINCT) costs
// less than hashing every value there) and Trino (approx_distinct). Only
// PostgreSQL 11 and later (hashtextextended) build it here; there it takes
// half the time of COUNT(DISTINCT), which sorts every column.
func (d Dialect) HLLRegisters(from, expr string, p int) (sql string, ok bool) {
	if d.name != "postgres" || p < 4 || p > 24 {
		return "", false
	}
	q := 64 - p
	return fmt.Sprintf("SELECT %d - length(ltrim(CAST(CAST(w AS bit(%d)) AS text), '0')) AS r, COUNT(*) AS n FROM "+
		"(SELECT (h >> %d) & %d AS b, MIN(h & %d) AS w FROM "+
		"(SELECT hashtextextended(CAST(%s AS TEXT), 0) AS h FROM %s WHERE %s IS NOT NULL) hh GROUP BY 1) reg GROUP BY 1",
		q+1, q, q, 1<<p-1, int64(1)<<q-1, expr, from, expr), true
}

// Quantiles renders one aggregate per fraction in ps (0.5 is the median)
// over the non-null values of expr, interpolating between neighbours:
// PostgreSQL percentile_cont, DuckDB quantile_cont, Trino approx_percentile
// (a t-digest, so estimate is true). SQLite and MySQL have no percentile
// aggregate: frags is nil, and the caller runs RankedValues instead.
//
// On DuckDB every fragment is one element of the same quantile_cont over
// the list of all fractions: DuckDB binds identical aggregates once, so the
// values are gathered and sorted once for all of them, where one aggregate
// per fraction gathers and sorts them once each (twice the time: 0.28 s
// rather than 0.14 s for four fractions of three columns over 1M rows).
func (d Dialect) Quantiles(expr string, ps []float64) (frags []string, estimate bool) {
	switch d.name {
	case "postgres":
		return quantileFrags("percentile_cont(%[2]s) WITHIN GROUP (ORDER BY %[1]s)", expr, ps), false
	case "duckdb":
		return duckQuantiles("quantile_cont", expr, ps), false
	case "trino":
		return quantileFrags("approx_percentile(%[1]s, %[2]s)", expr, ps), true
	}
	return nil, false
}

// ApproxQuantiles is Quantiles from the engine's sketch where it has one,
// for inputs too large to sort cheaply, with estimate true: DuckDB
// approx_quantile (a t-digest, which keeps a few hundred centroids where
// quantile_cont keeps and sorts every value; it takes 0.12 s off the
// 0.75 s profile aggregate of the 1M-row speed benchmark, and is not exact
// even on ten values) and Trino approx_percentile. The other engines have
// no sketch, and the result is that of Quantiles. The sketch's type is its
// input's: pass a DOUBLE expression (Numeric) to keep fractions.
func (d Dialect) ApproxQuantiles(expr string, ps []float64) (frags []string, estimate bool) {
	if d.name == "duckdb" {
		return duckQuantiles("approx_quantile", expr, ps), true
	}
	return d.Quantiles(expr, ps)
}

// quantileFrags renders pattern, whose %[1]s is expr and %[2]s a fraction,
// once per fraction.
func quantileFrags(pattern, expr string, ps []float64) []string {
	frags := make([]string, len(ps))
	for i, p := range ps {
		frags[i] = fmt.Sprintf(pattern, expr, strconv.FormatFloat(p, 'g', -1, 64))
	}
	return frags
}

// duckQuantiles renders DuckDB's quantile aggregate fn over the list of all
// fractions, one element per fragment: DuckDB binds identical aggregates
// once, so the values are gathered and sorted (or sketched) once for all
// fractions.
func duckQuantiles(fn, expr string, ps []float64) []string {
	if len(ps) == 1 {
		return quantileFrags(fn+"(%[1]s, %[2]s)", expr, ps)
	}
	list := make([]string, len(ps))
	for i, p := range ps {
		list[i] = strconv.FormatFloat(p, 'g', -1, 64)
	}
	agg := fn + "(" + expr + ", [" + strings.Join(list, ", ") + "])"
	frags := make([]string, len(ps))
	for i := range ps {
		frags[i] = fmt.Sprintf("%s[%d]", agg, i+1)
	}
	return frags
}

// RankedValues is a whole statement returning rows (rn, v, cnt): the
// values v of expr at 0-based ranks rn among its cnt non-null values in
// ascending order, at and around the rank of each fraction in ps (one
// either side, so that the caller picks QuantileOffset(p, cnt) whatever the
// engine's arithmetic made of p·(cnt−1)). It is the quantile fallback for
// engines without a percentile aggregate: one sort for every fraction,
// where an ORDER BY … OFFSET per fraction sorted once each, and the rank
// and count come from the same rows, which matters where every query draws
// its own sample (SQLite). Window functions: SQLite 3.25, MySQL 8,
// MariaDB 10.2 and every other engine here.
func (d Dialect) RankedValues(from, expr string, ps []float64) string {
	var near []string
	for _, p := range ps {
		at := strconv.FormatFloat(math.Max(0, math.Min(1, p)), 'f', -1, 64) + " * (cnt - 1)"
		near = append(near, "rn BETWEEN "+at+" - 1 AND "+at+" + 1")
	}
	slices.Sort(near)
	near = slices.Compact(near)
	if len(near) == 0 {
		near = []string{"1 = 0"}
	}
	return fmt.Sprintf("SELECT rn, v, cnt FROM (SELECT %s AS v, ROW_NUMBER() OVER (ORDER BY %s) - 1 AS rn, COUNT(*) OVER () AS cnt FROM %s WHERE %s IS NOT NULL) rk WHERE %s",
		expr, expr, from, expr, strings.Join(near, " OR "))
}

// QuantileOffset is the 0-based position of quantile p among n sorted values:
// the nearest rank to the position percentile_cont interpolates at, so both
// agree exactly when p*(n-1) is a whole number.
func QuantileOffset(p float64, n int64) int64 {
	if n <= 0 {
		return 0
	}
	p = math.Max(0, math.Min(1, p))
	return int64(math.Round(p * float64(n-1)))
}

// TextLength counts the characters of a string expression. MySQL's LENGTH
// counts bytes, hence CHAR_LENGTH there; SQLite's length counts characters
// of text (and bytes of a blob).
func (d Dialect) TextLength(expr string) string {
	switch d.name {
	case "mysql":
		return "CHAR_LENGTH(" + expr + ")"
	case "postgres":
		return "char_length(" + expr + ")"
	default: // sqlite, duckdb, trino
		return "length(" + expr + ")"
	}
}

// Blank renders a condition that holds for a string expression that is
// empty or holds nothing but what TRIM removes: TRIM(expr) is the empty
// string.
//
// DuckDB's TRIM removes the Unicode space separators (category Zs: the
// space, U+00A0, U+3000 and 14 others), and copies every string it reads.
// There only strings that can start with one are trimmed: the empty string
// and those whose first byte is below '!' or non-ASCII (every Zs character
// but the space is). Any other string keeps its first character, so it is
// not blank; ruling that out costs a comparison, not a copy (3x faster).
// NULL stays NULL, as with TRIM.
func (d Dialect) Blank(expr string) string {
	if d.name == "duckdb" {
		return "(CASE WHEN " + expr + " >= '!' AND " + expr + " < chr(128) THEN false ELSE TRIM(" + expr + ") = '' END)"
	}
	return "TRIM(" + expr + ") = ''"
}

// FoldedIn renders a condition that holds when LOWER(TRIM(expr)) is one of
// values, for a string expression: LOWER(TRIM(expr)) IN (values).
//
// On DuckDB, when every value is lower-case ASCII, it is one regular
// expression instead (regexp_full_match), twice as fast: LOWER and TRIM
// copy every string, and IN compares the copy with each value in turn. The
// expression spells out what the two functions do there: TRIM removes the
// Zs characters (\p{Zs}), and LOWER maps to an ASCII letter its upper case
// and, for i and k, U+0130 and the Kelvin sign U+212A, the only other
// characters it folds into ASCII. RE2's (?i) would not do: it folds U+017F
// into s, which LOWER keeps.
func (d Dialect) FoldedIn(expr string, values []string) string {
	if d.name == "duckdb" {
		if re, ok := foldedRegexp(values); ok {
			return "regexp_full_match(" + expr + ", " + literal(re) + ")"
		}
	}
	lits := make([]string, len(values))
	for i, v := range values {
		lits[i] = literal(v)
	}
	return "LOWER(TRIM(" + expr + ")) IN (" + strings.Join(lits, ", ") + ")"
}

// foldedRegexp is the RE2 expression FoldedIn uses on DuckDB, or false
// when a value is not lower-case ASCII.
func foldedRegexp(values []string) (string, bool) {
	if len(values) == 0 {
		return "", false
	}
	var b strings.Builder
	b.WriteString(`\p{Zs}*(`)
	for i, v := range values {
		if i > 0 {
			b.WriteByte('|')
		}
		for _, c := range []byte(v) {
			switch {
			case c >= 0x80 || c < ' ' || c >= 'A' && c <= 'Z':
				return "", false
			case c >= 'a' && c <= 'z':
				b.WriteByte('[')
				b.WriteByte(c)
				b.WriteByte(c - 'a' + 'A')
				switch c {
				case 'i':
					b.WriteString(`\x{130}`)
				case 'k':
					b.WriteString(`\x{212A}`)
				}
				b.WriteByte(']')
			case strings.IndexByte(`\.+*?()|[]{}^$`, c) >= 0:
				b.WriteByte('\\')
				b.WriteByte(c)
			default:
				b.WriteByte(c)
			}
		}
	}
	b.WriteString(`)\p{Zs}*`)
	return b.String(), true
}

// literal quotes a string literal; every engine doubles the quote.
func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// TimePart names a part of a date or timestamp for DatePart.
type TimePart string

const (
	PartYear  TimePart = "year"  // integer, e.g. 2024
	PartMonth TimePart = "month" // integer, 1 = January
	PartDOW   TimePart = "dow"   // integer day of week, 0 = Sunday … 6 = Saturday
	PartHour  TimePart = "hour"  // integer, 0 … 23
	PartDate  TimePart = "date"  // text 'YYYY-MM-DD', the same on every engine and driver
)

// DatePart extracts part from expr, a date or timestamp column, or text
// holding one. Values that are no date are NULL, except on PostgreSQL, which
// has no TRY_CAST: there text that does not parse fails the query.
//
// Every engine first turns expr into a timestamp (PostgreSQL CAST AS
// TIMESTAMP, MySQL CAST AS DATETIME, DuckDB and Trino TRY_CAST AS TIMESTAMP),
// so text columns work as well as typed ones. SQLite has no date type: its
// strftime reads ISO-8601 text ('2024-01-07', '2024-01-07 10:30:00',
// '2024-01-07T10:30:00Z'), and with 'auto' (SQLite 3.42, which the modernc
// driver bundles) also numbers, as Unix seconds or Julian day numbers by
// magnitude: the two ways SQLite's documentation stores dates as numbers.
//
// It panics on a part outside the TimePart constants: that is a bug in the
// caller, not a property of the data.
func (d Dialect) DatePart(part TimePart, expr string) string {
	if d.name == "sqlite" {
		format, integer := map[TimePart]string{
			PartYear: "%Y", PartMonth: "%m", PartDOW: "%w", PartHour: "%H", PartDate: "%Y-%m-%d",
		}[part], part != PartDate
		if format == "" {
			panic(fmt.Sprintf("warehouse: DatePart: unknown part %q", part))
		}
		s := "strftime('" + format + "', " + expr + ", 'auto')"
		if integer {
			// strftime returns text; integers compare and group as numbers.
			s = "CAST(" + s + " AS INTEGER)"
		}
		return s
	}
	var ts string
	switch d.name {
	case "postgres":
		ts = "CAST(" + expr + " AS TIMESTAMP)"
	case "mysql":
		ts = "CAST(" + expr + " AS DATETIME)"
	default: // duckdb, trino
		ts = "TRY_CAST(" + expr + " AS TIMESTAMP)"
	}
	switch part {
	case PartYear, PartMonth, PartHour, PartDOW:
		field := strings.ToUpper(string(part))
		switch d.name {
		case "mysql":
			if part == PartDOW {
				return "(DAYOFWEEK(" + ts + ") - 1)" // 1 = Sunday
			}
			return field + "(" + ts + ")"
		case "trino":
			if part == PartDOW {
				return "(EXTRACT(DOW FROM " + ts + ") % 7)" // ISO: 1 = Monday … 7 = Sunday
			}
			return "EXTRACT(" + field + " FROM " + ts + ")"
		case "postgres":
			// EXTRACT returns numeric since PostgreSQL 14, which drivers hand over as text.
			return "CAST(EXTRACT(" + field + " FROM " + ts + ") AS INTEGER)"
		default: // duckdb: DOW is already 0 = Sunday
			return "EXTRACT(" + field + " FROM " + ts + ")"
		}
	case PartDate:
		// Formatted rather than cast to DATE: a DATE's text follows
		// PostgreSQL's DateStyle and drivers turn it into time.Time.
		switch d.name {
		case "postgres":
			return "to_char(" + ts + ", 'YYYY-MM-DD')"
		case "mysql":
			return "DATE_FORMAT(" + ts + ", '%Y-%m-%d')"
		case "trino":
			return "date_format(" + ts + ", '%Y-%m-%d')"
		default: // duckdb
			return "strftime(" + ts + ", '%Y-%m-%d')"
		}
	}
	panic(fmt.Sprintf("warehouse: DatePart: unknown part %q", part))
}

// Limit is the clause that keeps the first n rows. All five engines spell it
// LIMIT n (Trino also knows FETCH FIRST, but LIMIT is shorter).
func (d Dialect) Limit(n int64) string {
	if n < 0 {
		n = 0
	}
	return "LIMIT " + strconv.FormatInt(n, 10)
}

// SampleAlias is the alias every Sample and SampleFrom result carries, so a
// statement reads SELECT … FROM <sample> and refers to columns unqualified or
// as s.col.
const SampleAlias = "s"

// pgSystemSampleRows is the table size from which PostgreSQL samples pages
// (SYSTEM) rather than rows (BERNOULLI). BERNOULLI reads every page, which
// beyond ~10M rows (a GB or more) costs more than a profile is worth; SYSTEM
// reads only the chosen pages, at the price of rows that come in page-sized
// clusters.
const pgSystemSampleRows = 10_000_000

// sampleSeed seeds the samples of engines that take a seed.
const sampleSeed = 42

// Sample is a FROM item, aliased s, that yields about rows randomly chosen
// rows of base table t, which has totalRows rows (an estimate will do):
//
//   - PostgreSQL: t s TABLESAMPLE BERNOULLI (pct) REPEATABLE (seed), or SYSTEM (pct) from
//     pgSystemSampleRows up;
//   - Trino: t s TABLESAMPLE BERNOULLI (pct);
//   - DuckDB: USING SAMPLE n ROWS, a reservoir: exactly rows rows, and
//     totalRows is not needed;
//   - MySQL: a subquery keeping rows where RAND(seed) < rows/totalRows;
//   - SQLite: a subquery keeping rows whose low 32 bits of random() fall
//     under rows/totalRows·2³². One scan, no sort: ORDER BY random() LIMIT n
//     would be exact but sorts a key per row.
//
// The size varies from run to run (binomially) except on DuckDB and on
// PostgreSQL tables, whose samples are seeded. When
// totalRows ≤ rows the item is the whole table; when totalRows is unknown
// (≤ 0) it is the first rows rows, bounded but not random.
//
// PostgreSQL samples only tables and materialized views: for a view, or any
// other FROM item, use SampleFrom.
func (d Dialect) Sample(t TableName, rows, totalRows int64) string {
	table := d.QuoteTable(t)
	rows = max(rows, 0)
	tablesample := d.name == "postgres" || d.name == "trino"
	if !tablesample || totalRows <= 0 || totalRows <= rows {
		return d.SampleFrom(table, rows, totalRows)
	}
	method := "BERNOULLI"
	if d.name == "postgres" && totalRows >= pgSystemSampleRows {
		method = "SYSTEM"
	}
	sample := fmt.Sprintf("%s %s TABLESAMPLE %s (%s)", table, SampleAlias, method, decimal(100*fraction(rows, totalRows)))
	if d.name == "postgres" {
		// The same seed draws the same rows in every query of a profile
		// and in every run on unchanged data: figures agree with each
		// other, and reports diff cleanly.
		sample += fmt.Sprintf(" REPEATABLE (%d)", sampleSeed)
	}
	return sample
}

// SampleFrom is Sample for any FROM item (a quoted view, a parenthesized
// subquery with its alias, which PostgreSQL before 16 and MySQL require):
// each row is kept with probability rows/totalRows by the
// engine's random function, except on DuckDB, whose reservoir takes any
// input.
func (d Dialect) SampleFrom(from string, rows, totalRows int64) string {
	rows = max(rows, 0)
	switch {
	case d.name == "duckdb" && (totalRows <= 0 || totalRows > rows):
		return fmt.Sprintf("(SELECT * FROM %s USING SAMPLE %d ROWS) %s", from, rows, SampleAlias)
	case totalRows <= 0:
		return fmt.Sprintf("(SELECT * FROM %s %s) %s", from, d.Limit(rows), SampleAlias)
	case totalRows <= rows:
		return from + " " + SampleAlias
	}
	f := fraction(rows, totalRows)
	var keep string
	switch d.name {
	case "sqlite":
		// random() is uniform over all 64-bit integers; abs(random()) would
		// fail on the one value without a positive counterpart.
		k := max(1, int64(math.Round(f*(1<<32))))
		keep = fmt.Sprintf("(random() & 4294967295) < %d", k)
	case "mysql":
		// A constant seed restarts RAND's sequence in every statement: the
		// queries of a profile keep the same rows when they read the table
		// in the same order.
		keep = fmt.Sprintf("RAND(%d) < %s", sampleSeed, decimal(f))
	case "trino":
		keep = "rand() < " + decimal(f)
	default: // postgres
		keep = "random() < " + decimal(f)
	}
	return fmt.Sprintf("(SELECT * FROM %s WHERE %s) %s", from, keep, SampleAlias)
}

func fraction(rows, total int64) float64 { return float64(rows) / float64(total) }

// decimal renders f with six significant digits and no exponent, which every
// engine parses as a numeric literal and a reader can check by eye.
func decimal(f float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 6, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}
