package warehouse

import (
	"cmp"
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

// BlockSampleRows is the table size from which PostgreSQL, Trino and DuckDB
// sample blocks (SYSTEM) rather than rows (BERNOULLI, a reservoir). A row
// sample reads every page, which beyond ~10M rows (a GB or more) costs more
// than a profile is worth; SYSTEM reads only the chosen blocks, at the
// price of rows that come in block-sized clusters (and, on DuckDB, of a
// sample that its threads draw differently from run to run). Engines with
// no block sample (SQLite, MySQL) have a table this large profiled on rows
// drawn by its integer key, or else on its first rows: their random
// filters read every row.
const BlockSampleRows = 10_000_000

// sampleSeed seeds the samples of engines that take a seed.
const sampleSeed = 42

// Sample is a FROM item, aliased s, that yields about rows randomly chosen
// rows of base table t, which has totalRows rows (an estimate will do):
//
//   - PostgreSQL: t s TABLESAMPLE BERNOULLI (pct) REPEATABLE (seed), or SYSTEM (pct) from
//     BlockSampleRows up;
//   - Trino: t s TABLESAMPLE BERNOULLI (pct), or SYSTEM (pct) from
//     BlockSampleRows up;
//   - DuckDB: USING SAMPLE reservoir(n ROWS) REPEATABLE (seed): exactly
//     rows rows, the same in every run; from BlockSampleRows up, whole
//     vectors (SampleBlocks);
//   - MySQL: a subquery keeping rows where RAND(seed) < rows/totalRows,
//     which reads every row: a table keyed by one integer column is better
//     sampled by SampleRowids;
//   - SQLite: a subquery keeping rows whose low 32 bits of random() fall
//     under rows/totalRows·2³². One scan, no sort: ORDER BY random() LIMIT n
//     would be exact but sorts a key per row. A rowid table is better
//     sampled by SampleRowids, which reads no more than the sample.
//
// The size varies from run to run (binomially) except on DuckDB and on
// PostgreSQL tables, whose samples are seeded (but DuckDB's from
// BlockSampleRows up, which its threads draw differently in each run). When
// totalRows ≤ rows the item is the whole table; when totalRows is unknown
// (≤ 0) it is the first rows rows, bounded but not random.
//
// PostgreSQL samples only tables and materialized views: for a view, or any
// other FROM item, use SampleFrom.
func (d Dialect) Sample(t TableName, rows, totalRows int64) string {
	if d.name == "duckdb" && totalRows >= BlockSampleRows {
		if blocks, ok := d.SampleBlocks(t, rows, totalRows); ok {
			return blocks
		}
	}
	table := d.QuoteTable(t)
	rows = max(rows, 0)
	tablesample := d.name == "postgres" || d.name == "trino"
	if !tablesample || totalRows <= 0 || totalRows <= rows {
		return d.SampleFrom(table, rows, totalRows)
	}
	method := "BERNOULLI"
	if totalRows >= BlockSampleRows {
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
		// Seeded, the reservoir keeps the same rows in every statement
		// and every run, whatever the threads (measured on 20M rows and
		// 4 threads; unseeded, each run kept others). It reads the
		// columns a statement uses whole: a scan's time, about.
		return fmt.Sprintf("(SELECT * FROM %s USING SAMPLE reservoir(%d ROWS) REPEATABLE (%d)) %s", from, rows, sampleSeed, SampleAlias)
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

// SampleBlocks is a FROM item, aliased s, of about rows rows of base table
// t (totalRows rows; an estimate will do) sampled by whole storage blocks,
// so that only the kept blocks are read, where Sample's row sampling reads
// every one (issue 9):
//
//   - PostgreSQL: t s TABLESAMPLE SYSTEM (pct) REPEATABLE (seed), whole pages;
//   - Trino: t s TABLESAMPLE SYSTEM (pct), whole splits as the connector allows;
//   - DuckDB: USING SAMPLE pct PERCENT (system, seed), whole vectors of 2,048 rows,
//     from BlockSampleRows rows up only: its threads draw the vectors
//     differently in each run, seed or not, so that the figures of two runs
//     on the same data differ, and 10 draws of 0.1% of 20M rows put the mean
//     of a uniform key anywhere from 60% to 138% of the truth (vectors are
//     runs of neighbours). Below that Sample's seeded reservoir, which reads
//     the table's columns in about the time of one scan, is worth its cost.
//
// Rows come in clusters of a block each, a price worth paying where the
// table is far larger than the sample. ok is false on SQLite and MySQL,
// which have no such sampling (SampleRowids is their way), and when
// totalRows ≤ rows.
func (d Dialect) SampleBlocks(t TableName, rows, totalRows int64) (from string, ok bool) {
	if totalRows <= 0 || totalRows <= max(rows, 0) {
		return "", false
	}
	pct := decimal(100 * fraction(max(rows, 1), totalRows))
	table := d.QuoteTable(t)
	switch d.name {
	case "postgres":
		return fmt.Sprintf("%s %s TABLESAMPLE SYSTEM (%s) REPEATABLE (%d)", table, SampleAlias, pct, sampleSeed), true
	case "trino":
		return fmt.Sprintf("%s %s TABLESAMPLE SYSTEM (%s)", table, SampleAlias, pct), true
	case "duckdb":
		if totalRows < BlockSampleRows {
			return "", false
		}
		return fmt.Sprintf("(SELECT * FROM %s USING SAMPLE %s PERCENT (system, %d)) %s", table, pct, sampleSeed, SampleAlias), true
	}
	return "", false
}

func fraction(rows, total int64) float64 { return float64(rows) / float64(total) }

// decimal renders f with six significant digits and no exponent, which every
// engine parses as a numeric literal and a reader can check by eye.
func decimal(f float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 6, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// SQLite has no TABLESAMPLE, and its random() filter (SampleFrom) reads
// the whole table to keep a few rows. A rowid table, though, finds a row by
// its rowid in O(log n), and a WITHOUT ROWID table whose primary key is one
// INTEGER column finds a row by that key as cheaply: the helpers below size
// a table and draw a sample from the ends of the b-tree and from lookups by
// its integer key (IntKey), so that a table far larger than the sample is
// never read whole (issue 9). Views, virtual tables and WITHOUT ROWID
// tables keyed otherwise keep the scanning forms.
//
// MySQL and MariaDB have no TABLESAMPLE either, and their RAND() filter
// reads every row too. InnoDB, though, clusters a table's rows in the
// b-tree of its primary key: a table whose primary key is one integer
// column is sized and drawn from by that key as a SQLite rowid table is
// (IntKeys, KeyBounds, RowidProbe, SampleRowids). Other tables (no primary
// key, a composite or non-integer one, views) keep the scanning forms.

// rowidNames are SQLite's three spellings of a table's row id. A column of
// the same name hides the spelling (but for an INTEGER PRIMARY KEY named
// so, which is the row id).
var rowidNames = []string{"rowid", "_rowid_", "oid"}

// RowidName returns a spelling of SQLite's row id that no column of the
// table hides, or false when its columns take all three.
func RowidName(columns []Column) (string, bool) {
	for _, r := range rowidNames {
		if !slices.ContainsFunc(columns, func(c Column) bool { return strings.EqualFold(c.Name, r) }) {
			return r, true
		}
	}
	return "", false
}

// IntKey is the integer key of a SQLite table's b-tree: the rowid of a
// rowid table, or the primary-key column of a WITHOUT ROWID table whose key
// is that one column of INTEGER affinity. Either finds a row by a b-tree
// search, and the ends of the tree are its least and greatest key.
type IntKey struct {
	// Name is the key as a statement writes it after "alias.": a spelling
	// of rowid (RowidName), or the quoted column. It is the rowid argument
	// of RowidProbe and SampleRowids.
	Name string
	// Column is the WITHOUT ROWID table's key column, "" for the rowid.
	Column string
}

// Rowid reports whether k is a rowid table's rowid.
func (k IntKey) Rowid() bool { return k.Column == "" }

// String names the key for evidence: "rowid", or "integer key id".
func (k IntKey) String() string {
	if k.Rowid() {
		return "rowid"
	}
	return "integer key " + k.Column
}

// IntKeys lists the integer keys SQLite table t may be keyed by, in the
// order to try them with KeyBounds (only one holds): a spelling of rowid no
// column hides, then, when t's primary key is one column whose declared
// type contains "INT" (INTEGER affinity), that column, for a WITHOUT ROWID
// table. On MySQL and MariaDB it is the primary key of a base table when
// that is one column of an integer type (mysqlIntType). Empty on other
// engines and for views.
func (d Dialect) IntKeys(t Table) []IntKey {
	if d.name == "mysql" && t.Kind == "table" && len(t.PrimaryKey) == 1 {
		for _, c := range t.Columns {
			if c.Name == t.PrimaryKey[0] && mysqlIntType(c.Type) {
				return []IntKey{{Name: d.QuoteIdent(c.Name), Column: c.Name}}
			}
		}
		return nil
	}
	if d.name != "sqlite" || t.Kind != "table" {
		return nil
	}
	var keys []IntKey
	if r, ok := RowidName(t.Columns); ok {
		keys = append(keys, IntKey{Name: r})
	}
	if len(t.PrimaryKey) == 1 {
		for _, c := range t.Columns {
			if c.Name == t.PrimaryKey[0] && strings.Contains(strings.ToUpper(c.Type), "INT") {
				keys = append(keys, IntKey{Name: d.QuoteIdent(c.Name), Column: c.Name})
				break
			}
		}
	}
	return keys
}

// mysqlIntType reports whether a MySQL column type, as information_schema's
// COLUMN_TYPE spells it ("int(10) unsigned", "bigint", "tinyint(1)"), is
// an integer type. The base name is matched whole: a substring "int" would
// take POINT, and a BIT, DECIMAL or YEAR key is no integer one (a lookup by
// an integer would not find, or would convert, its values).
func mysqlIntType(typ string) bool {
	base := strings.ToLower(strings.TrimSpace(typ))
	if i := strings.IndexAny(base, "( "); i >= 0 {
		base = base[:i]
	}
	switch base {
	case "tinyint", "smallint", "mediumint", "int", "integer", "bigint":
		return true
	}
	return false
}

// RowidBounds is a statement returning one row (lo, hi), the least and the
// greatest rowid of t, read from the two ends of its b-tree: two searches,
// no scan (one SELECT holding both min() and max() would scan). It returns
// no row for what is not an ordinary rowid table (a virtual table), and a
// WITHOUT ROWID table fails it with "no such column"; lo and hi are NULL on
// an empty table. rowid is a RowidName result. ok is false on engines other
// than SQLite.
func (d Dialect) RowidBounds(t TableName, rowid string) (sql string, ok bool) {
	return d.KeyBounds(t, IntKey{Name: rowid})
}

// KeyBounds is RowidBounds for any IntKey of t: for a key column, the
// statement returns a row only for a WITHOUT ROWID table (its b-tree is
// keyed by the primary key), and none for a rowid table, whose b-tree is
// keyed by rowid. SQLite stores what does not convert to an integer as it
// is even in an INTEGER column, and orders numbers before text and blobs:
// the bounds are integers (KeyRange) only when no key is text or a blob.
//
// On MySQL and MariaDB the statement reads the two ends of the primary
// key's index, two b-tree descents ("Select tables optimized away" in
// EXPLAIN), and returns one row, NULLs for an empty table.
func (d Dialect) KeyBounds(t TableName, k IntKey) (sql string, ok bool) {
	if d.name == "mysql" && !k.Rowid() {
		return fmt.Sprintf("SELECT (SELECT MIN(t.%[1]s) FROM %[2]s AS t) AS lo, (SELECT MAX(t.%[1]s) FROM %[2]s AS t) AS hi",
			k.Name, d.QuoteTable(t)), true
	}
	if d.name != "sqlite" {
		return "", false
	}
	wr := 0
	if !k.Rowid() {
		wr = 1
	}
	table := d.QuoteTable(t)
	// Qualified: a bare rowid that t lacks would resolve to the rowid of
	// pragma_table_list (and make the statement an aggregate).
	return fmt.Sprintf("SELECT (SELECT min(t.%[1]s) FROM %[2]s AS t) AS lo, (SELECT max(t.%[1]s) FROM %[2]s AS t) AS hi "+
		"FROM pragma_table_list WHERE schema = %[3]s AND name = %[4]s AND type = 'table' AND wr = %[5]d",
		k.Name, table, literal(cmp.Or(t.Schema, "main")), literal(t.Name), wr), true
}

// KeyRange reads the row a KeyBounds statement returned: the least and
// greatest key, and whether the table has rows. ok is false when the row
// is not two integers or two NULLs: a key column holding a real, text or
// a blob at one end, which lookups by integer would not find, or a key
// beyond int64 (a BIGINT UNSIGNED above 2⁶³−1).
//
// An integer may come as int64, as uint64, or as the decimal text of one:
// the MySQL source hands over a BIGINT UNSIGNED above int64 as text, and
// a driver may hand over an unsigned one as uint64. Text is parsed
// strictly (no sign but '-', no spaces, no fraction). On SQLite that
// admits nothing new: INTEGER affinity stores text that reads as an
// integer as an integer, so text at an end never parses. A []byte is a
// SQLite blob, no integer, and stays refused.
func KeyRange(row []any) (lo, hi int64, rows, ok bool) {
	if len(row) != 2 {
		return 0, 0, false, false
	}
	if row[0] == nil && row[1] == nil {
		return 0, 0, false, true
	}
	lo, okLo := keyInt(row[0])
	hi, okHi := keyInt(row[1])
	if !okLo || !okHi {
		return 0, 0, false, false
	}
	return lo, hi, true, true
}

// keyInt is one end of a KeyRange row as an int64.
func keyInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case uint64:
		if x > math.MaxInt64 {
			return 0, false
		}
		return int64(x), true
	case string:
		if x == "" || x[0] == '+' {
			return 0, false
		}
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// FindIntKey finds the integer key of t's b-tree and its range: it runs
// the KeyBounds of each of t's IntKeys in turn through query, which returns
// the statement's one row, nil for no row or for a failure to work around
// (a WITHOUT ROWID table fails the rowid's statement), or an error that
// ends the search (a spent budget, a cancelled run). found is false when no
// key holds; rows is false for an empty table (lo and hi are then 0).
//
// A key column's values between two integer ends may still hold reals
// (1.5): the probe counts them, the lookups by integer never draw them.
func (d Dialect) FindIntKey(t Table, query func(sql string) ([]any, error)) (k IntKey, lo, hi int64, rows, found bool, err error) {
	for _, k := range d.IntKeys(t) {
		q, ok := d.KeyBounds(t.Name, k)
		if !ok {
			continue
		}
		row, err := query(q)
		if err != nil {
			return IntKey{}, 0, 0, false, false, err
		}
		if row == nil {
			continue
		}
		if lo, hi, rows, ok := KeyRange(row); ok {
			return k, lo, hi, rows, true, nil
		}
	}
	return IntKey{}, 0, 0, false, false, nil
}

// Rowid probes: the rows of rowidProbeWindows windows of rowidProbeWidth
// rowids each, one window at a seeded place in each of as many equal
// stretches of [lo, hi], estimate the share of rowids in use. At most
// 8,192 rows are read, by rowid range; the density's relative standard
// error is about 1.1% where rowids are used evenly, more where deletions
// left gaps in runs.
const (
	rowidProbeWindows = 64
	rowidProbeWidth   = 128
)

// RowidProbe is a statement whose one value n counts the rows of t in
// windows of rowids between lo and hi (the RowidBounds of t), and covered
// is the number of rowids the windows span: the table holds about
// n·(hi−lo+1)/covered rows, exactly n when covered is the whole span (a
// span of at most 8,192 rowids is counted whole). See RowidEstimate.
// rowid may be any IntKey's Name: a WITHOUT ROWID table is probed by its
// integer key alike, and so is a MySQL table by its primary key (a range
// read of its clustered index per window), which sizes it better than
// InnoDB's statistics, off by tens of percent.
func (d Dialect) RowidProbe(t TableName, rowid string, lo, hi int64) (sql string, covered int64, ok bool) {
	span, fits := rowidSpan(lo, hi)
	if !d.drawsBy(rowid) || !fits {
		return "", 0, false
	}
	table := d.QuoteTable(t)
	if span <= rowidProbeWindows*rowidProbeWidth {
		return fmt.Sprintf("SELECT count(*) AS n FROM %s AS t WHERE t.%s BETWEEN %d AND %d", table, rowid, lo, hi), span, true
	}
	g := newSplitMix(sampleKey(d, t) ^ 0x5bd1e995)
	stretch := span / rowidProbeWindows
	branches := make([]string, 0, rowidProbeWindows)
	for i := int64(0); i < rowidProbeWindows; i++ {
		start := lo + i*stretch
		a := start + int64(g.next()%uint64(stretch-rowidProbeWidth+1))
		branches = append(branches, fmt.Sprintf("SELECT 1 AS one FROM %s AS t WHERE t.%s BETWEEN %d AND %d",
			table, rowid, a, a+rowidProbeWidth-1))
	}
	return "SELECT count(*) AS n FROM (" + strings.Join(branches, " UNION ALL ") + ") w",
		rowidProbeWindows * rowidProbeWidth, true
}

// drawsBy reports whether the engine can look rows up by key, an IntKey's
// Name: on SQLite any (a rowid or a key column), on MySQL only a quoted
// column, what IntKeys gives there. MySQL has no rowid: a SQLite spelling
// of it would name no column.
func (d Dialect) drawsBy(key string) bool {
	switch d.name {
	case "sqlite":
		return true
	case "mysql":
		return strings.HasPrefix(key, "`")
	}
	return false
}

// RowidEstimate is the row count a RowidProbe's n implies, and whether it
// is exact (the probe covered every rowid).
func RowidEstimate(lo, hi, covered, n int64) (rows int64, exact bool) {
	span, fits := rowidSpan(lo, hi)
	if !fits || covered <= 0 {
		return 0, false
	}
	if covered >= span {
		return n, true
	}
	return int64(math.Round(float64(n) * float64(span) / float64(covered))), false
}

// maxRowidSpan bounds the rowid ranges drawn from: 2⁴⁰ keeps the modulo
// of a 62-bit draw unbiased to one part in four million.
const maxRowidSpan = 1 << 40

// rowidSpan is hi−lo+1, false when it is empty, overflows or exceeds
// maxRowidSpan.
func rowidSpan(lo, hi int64) (int64, bool) {
	if hi < lo || hi-lo < 0 || hi-lo >= maxRowidSpan {
		return 0, false
	}
	return hi - lo + 1, true
}

// RowidDraws is the number of rowids SampleRowids draws between lo and hi
// for a sample of rows rows of a table of totalRows: enough for
// 1.2·rows + 4·√rows + 20 hits at the table's density, allowing for rowids
// drawn twice. ok is false when the table is within that many rows, or
// the span of rowids is empty or beyond 2⁴⁰. Callers weigh it against a
// scan of totalRows rows: a draw (a generated number, a sort entry and a
// b-tree search, mostly to a page not in cache) costs some 25 times a row
// of a scan on SQLite.
func RowidDraws(rows, totalRows, lo, hi int64) (draws int64, ok bool) {
	span, fits := rowidSpan(lo, hi)
	if !fits || rows <= 0 || totalRows <= rows {
		return 0, false
	}
	total := min(totalRows, span) // no more rows than rowids
	target := 1.2*float64(rows) + 4*math.Sqrt(float64(rows)) + 20
	if target >= float64(total) {
		return 0, false
	}
	// k draws among span rowids hit span·(1−e^(−k/span)) distinct ones,
	// a total/span share of which hold a row.
	return int64(math.Ceil(-float64(span) * math.Log1p(-target/float64(total)))), true
}

// SampleRowids is Sample for a SQLite rowid table whose rowids run from lo
// to hi (RowidBounds): a FROM item, aliased s, of about rows rows of t's
// totalRows, found by rowid lookups instead of a scan. A recursive CTE
// draws RowidDraws rowids uniformly between lo and hi from two
// multiplicative congruential generators (L'Ecuyer's, combined to 62 bits)
// seeded by the table's name; rowids drawn twice count once, rowids no row
// holds find nothing, and the first rows rows found in the order of the
// draws are kept, a uniform sample without replacement. The sample holds
// rows rows unless totalRows overstates the table.
//
// The seed makes every statement of a profile read the same rows, and
// every run on unchanged data, as PostgreSQL's REPEATABLE does. ok is false
// (use Sample) on other engines and where RowidDraws is. rowid may be any
// IntKey's Name: a WITHOUT ROWID table is drawn from by its integer key
// alike (FindIntKey gives lo and hi), and a MySQL table by its primary key
// (mysqlSampleKeys).
func (d Dialect) SampleRowids(t TableName, rowid string, rows, totalRows, lo, hi int64) (from string, ok bool) {
	draws, ok := RowidDraws(rows, totalRows, lo, hi)
	if d.name == "mysql" && ok && d.drawsBy(rowid) {
		return d.mysqlSampleKeys(t, rowid, rows, draws, lo, hi), true
	}
	if d.name != "sqlite" || !ok {
		return "", false
	}
	span, _ := rowidSpan(lo, hi)
	g := newSplitMix(sampleKey(d, t))
	x := 1 + int64(g.next()%(lecuyerM1-1))
	y := 1 + int64(g.next()%(lecuyerM2-1))
	return fmt.Sprintf("(SELECT b.* FROM (WITH RECURSIVE r(i, x, y) AS (SELECT 0, %d, %d UNION ALL "+
		"SELECT i + 1, x * %d %% %d, y * %d %% %d FROM r WHERE i < %d) "+
		"SELECT min(i) AS i, %d + (x * 2147483648 + y) %% %d AS v FROM r GROUP BY 2) d "+
		"CROSS JOIN %s AS b ON b.%s = d.v ORDER BY d.i %s) %s",
		x, y, lecuyerA1, lecuyerM1, lecuyerA2, lecuyerM2, draws-1,
		lo, span, d.QuoteTable(t), rowid, d.Limit(rows), SampleAlias), true
}

// mysqlSampleKeys is SampleRowids on MySQL and MariaDB: the draws are the
// numbers 0 … draws−1, each hashed to a key between lo and hi; keys drawn
// twice count once (the least draw number is kept), and the table is
// joined by its primary key to what was drawn, in the order of the draws:
//
//	(SELECT b.* FROM (SELECT MIN(n) AS i, lo + CAST(CONV(SUBSTRING(SHA1(CONCAT('seed:', n)), 1, 15), 16, 10) AS SIGNED) % span AS v
//	 FROM (SELECT d0.x + 10 * d1.x + … AS n FROM (SELECT 0 AS x UNION ALL … SELECT 9) d0, … WHERE … < draws) g GROUP BY v) d
//	 JOIN t AS b ON b.k = d.v ORDER BY d.i LIMIT rows) s
//
// The numbers come from tables of ten digits, one per decimal place of
// draws−1 (the leading one cut at its digit), not from a recursive CTE as
// on SQLite: MySQL 5.7 and MariaDB before 10.2 have no CTE, MySQL 8 stops
// a recursion at cte_max_recursion_depth (1,000) and MariaDB at
// max_recursive_iterations, so a generator of one number per step fails
// there; the digit tables run on every version, so no server needs
// telling apart, at little cost: 37,500 numbers in 20 ms on MariaDB 10.11
// (a CTE of 0…999 joined to itself: 13 ms), of some 250 ms for the whole
// sample of 10,000 rows of 1M.
//
// Each number n is hashed, not generated in sequence, so the draws do not
// depend on the order the engine produces the numbers in: the first 60
// bits of SHA1('seed:n'), seed the table's sampleKey, are an exact BIGINT
// (CONV gives their decimal text, CAST reads it as an integer: no DOUBLE
// on the way), taken modulo the span (at most 2⁴⁰, so unbiased to one
// part in a million). The arithmetic is signed, so a negative lo works.
// SHA1 rather than MD5: FIPS mode can disable MD5, and SHA1 took half
// MD5's time on MariaDB 10.11 (37,500 numbers hashed in 45 ms, not 85).
//
// The derived table d is materialized (it groups); MariaDB then reads the
// table by eq_ref on its primary key in draw order, and stops once rows
// rows are found (ANALYZE: 29,432 lookups for 10,000 rows of a table of
// 1M using one key in three, 37,494 draws). The digit tables are joined
// by commas under a WHERE, not by CROSS JOIN, which the grounding of a
// model's SQL refuses as a row explosion: a statement built on the sample
// passes it.
func (d Dialect) mysqlSampleKeys(t TableName, key string, rows, draws, lo, hi int64) string {
	span, _ := rowidSpan(lo, hi)
	places := len(strconv.FormatInt(draws-1, 10))
	var terms, digits []string
	unit := int64(1)
	for p := range places {
		top := int64(9)
		if p == places-1 {
			top = (draws - 1) / unit
		}
		alias := "d" + strconv.Itoa(p)
		digits = append(digits, digitTable(top)+" "+alias)
		if p == 0 {
			terms = append(terms, alias+".x")
		} else {
			terms = append(terms, fmt.Sprintf("%d * %s.x", unit, alias))
		}
		unit *= 10
	}
	n := strings.Join(terms, " + ")
	return fmt.Sprintf("(SELECT b.* FROM (SELECT MIN(n) AS i, %d + CAST(CONV(SUBSTRING(SHA1(CONCAT('%d:', n)), 1, 15), 16, 10) AS SIGNED) %% %d AS v "+
		"FROM (SELECT %s AS n FROM %s WHERE %s < %d) g GROUP BY v) d "+
		"JOIN %s AS b ON b.%s = d.v ORDER BY d.i %s) %s",
		lo, sampleKey(d, t), span, n, strings.Join(digits, ", "), n, draws,
		d.QuoteTable(t), key, d.Limit(rows), SampleAlias)
}

// digitTable is a derived table of one column x holding 0 … top.
func digitTable(top int64) string {
	var b strings.Builder
	b.WriteString("(SELECT 0 AS x")
	for v := int64(1); v <= top; v++ {
		fmt.Fprintf(&b, " UNION ALL SELECT %d", v)
	}
	b.WriteByte(')')
	return b.String()
}

// The two generators of L'Ecuyer's combined generator (CACM 31:6, 1988):
// their products stay below 2⁴⁷, within SQLite's integers.
const (
	lecuyerM1, lecuyerA1 = 2147483563, 40014
	lecuyerM2, lecuyerA2 = 2147483399, 40692
)

// sampleKey seeds the draws of a table's sample and probes: FNV-1a of its
// quoted name, mixed with sampleSeed.
func sampleKey(d Dialect, t TableName) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range []byte(d.QuoteTable(t)) {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h ^ sampleSeed
}

// splitMix is SplitMix64, a small generator whose sequence depends on its
// seed alone, so the SQL built from it is the same in every run.
type splitMix struct{ s uint64 }

func newSplitMix(seed uint64) *splitMix { return &splitMix{s: seed} }

func (g *splitMix) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
