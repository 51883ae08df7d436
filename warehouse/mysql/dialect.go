package mysql

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/discover-db/discover/warehouse"
)

// Dialect is the warehouse.Dialect of MySQL and MariaDB: backtick
// identifiers, no TABLESAMPLE, no percentile aggregate and no sketch, but
// InnoDB clusters a table's rows in the b-tree of its primary key, so a
// table keyed by one integer column is sized and drawn from by that key.
type Dialect struct{ warehouse.Standard }

var _ warehouse.Dialect = Dialect{}
var _ warehouse.Explainer = Dialect{}

// What the experts work around on MySQL and MariaDB, which their comments
// say as a capability. TINYINT(1) is how a boolean is declared. A date that
// could not be read may be stored as the zero date 0000-00-00, which is no
// date. Table names follow lower_case_table_names: at 0 (Linux's default)
// "Users" and users are two tables; on a case-insensitive file system a
// foreign key may name its parent in another case. MariaDB computes a
// derived table around the RAND() filter whole. A key drawn for
// SampleRowids costs some 30 rows of the RAND(seed) filter's scan: on
// MariaDB 10.11 (InnoDB, 1M rows of four columns in the buffer pool) a
// draw, hashed, grouped, sorted and looked up by primary key, took 6–9 µs
// (12,400 draws in 70–120 ms, 37,500 in 220–350 ms), and a row of the
// RAND(42) filter's scan 0.2–0.3 µs (230–290 ms for the 1M), within the
// noise of SQLite's 25 (experts/statistical's rowidDrawCost).

// Name is "mysql", for MariaDB too.
func (Dialect) Name() string { return "mysql" }

// Capabilities: a random filter for a sample, and exact distinct counts of
// a table read whole. MySQL has no sketch, and hashing every value into one
// (HLLRegisters' shape with MD5) took 3.9 s a column on 1M rows of MariaDB
// 10.11, where COUNT(DISTINCT) took 0.7 s.
func (Dialect) Capabilities() warehouse.Capabilities {
	return warehouse.Capabilities{FilterSample: true, WholeDistinct: warehouse.DistinctExact}
}

// NameRules: a table name is matched exactly first, in another case only
// when that means one table (table names are file names, compared exactly
// under lower_case_table_names = 0, Linux's default); columns compare in
// any case.
func (Dialect) NameRules() warehouse.NameRules {
	return warehouse.NameRules{ExactTableFirst: true}
}

// QuoteIdent quotes with backticks, doubling those inside: "…" is a string
// unless ANSI_QUOTES is on, backticks work whatever the sql_mode.
func (Dialect) QuoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// QuoteTable quotes a table name; the DSN's database (Schema "") is left
// out, so the statement works wherever the connection's default is.
func (d Dialect) QuoteTable(t warehouse.TableName) string {
	return warehouse.QuoteQualified(d.QuoteIdent, t, false)
}

// literalEscapes: every session runs in pinnedSQLMode, which leaves
// MySQL's backslash escapes on (NO_BACKSLASH_ESCAPES is not in it), so a
// backslash is written \\ (else 'C:\temp\' never ends and '\\' reads as
// one backslash). A quote is doubled rather than written \': then every
// backslash in the literal starts a pair whose second byte is no quote,
// and the literal ends at the same place whether backslash escapes are
// read or not, which is what the lexical guard asks of an engine whose
// settings vary (Grammar.SettingsVary). NUL, backspace and Ctrl-Z, which
// the guard refuses as raw bytes in a statement, are written as MySQL's
// escapes for them (\0, \b, \Z).
var literalEscapes = strings.NewReplacer(`\`, `\\`, `'`, `''`, "\x00", `\0`, "\x1a", `\Z`, "\b", `\b`)

// Literal quotes s as the pinned session reads it back. A value the
// quoted form cannot carry past the guard, which refuses invalid UTF-8
// and control characters MySQL has no escape for (plainText), is written
// as its bytes in hexadecimal: `_utf8mb4 X'…'` for text, a string of the
// connection's character set as a quoted literal is (compared under the
// column's collation alike), and a plain `X'…'`, a binary string, for
// bytes that are no UTF-8 (what a BINARY or BLOB column holds).
func (Dialect) Literal(s string) string {
	if !utf8.ValidString(s) {
		return "X'" + hex.EncodeToString([]byte(s)) + "'"
	}
	if strings.IndexFunc(s, unescaped) >= 0 {
		return "_utf8mb4 X'" + hex.EncodeToString([]byte(s)) + "'"
	}
	return "'" + literalEscapes.Replace(s) + "'"
}

// unescaped: a control character the guard refuses in a statement
// (refusedControl) and literalEscapes does not write as an escape.
func unescaped(r rune) bool {
	switch r {
	case 0, '\b', 0x1a:
		return false
	}
	return r < 0x80 && refusedControl(byte(r))
}

// TypedLiteral is Literal(v): MySQL casts a string literal to the type of
// the column it is compared with.
func (d Dialect) TypedLiteral(typ, v string) string { return d.Literal(v) }

// FoldedIn is Standard's with MySQL's literals.
func (d Dialect) FoldedIn(expr string, values []string) string {
	return warehouse.FoldedInWith(d.Literal, expr, values)
}

// CastText: MySQL casts only to CHAR.
func (Dialect) CastText(expr string) string { return "CAST(" + expr + " AS CHAR)" }

// Numeric casts to DOUBLE; apply it to numeric columns only, as text that
// does not parse reads as 0 with a warning.
func (Dialect) Numeric(expr string) string { return "CAST(" + expr + " AS DOUBLE)" }

// CountDistinct counts exactly: no sketch.
func (Dialect) CountDistinct(expr string, approx bool) (string, bool) {
	return "COUNT(DISTINCT " + expr + ")", false
}

// Quantiles: no percentile aggregate; the caller runs RankedValues
// (window functions: MySQL 8, MariaDB 10.2).
func (Dialect) Quantiles(expr string, ps []float64) ([]string, bool) { return nil, false }

// ApproxQuantiles: no sketch either.
func (d Dialect) ApproxQuantiles(expr string, ps []float64) ([]string, bool) {
	return d.Quantiles(expr, ps)
}

// TextLength: LENGTH counts bytes, CHAR_LENGTH characters.
func (Dialect) TextLength(expr string) string { return "CHAR_LENGTH(" + expr + ")" }

// DatePart casts to DATETIME first, so text columns work as well as typed
// ones; what does not parse is NULL.
func (Dialect) DatePart(part warehouse.TimePart, expr string) string {
	ts := "CAST(" + expr + " AS DATETIME)"
	switch part {
	case warehouse.PartDOW:
		return "(DAYOFWEEK(" + ts + ") - 1)" // 1 = Sunday
	case warehouse.PartYear, warehouse.PartMonth, warehouse.PartHour:
		return strings.ToUpper(string(part)) + "(" + ts + ")"
	case warehouse.PartDate:
		return "DATE_FORMAT(" + ts + ", '%Y-%m-%d')"
	}
	panic(warehouse.UnknownPart(part))
}

// Sample is SampleFrom over the table: no TABLESAMPLE. A table keyed by one
// integer column is better sampled by SampleRowids.
func (d Dialect) Sample(t warehouse.TableName, rows, totalRows int64) string {
	return d.SampleFrom(d.QuoteTable(t), rows, totalRows)
}

// SampleFrom keeps rows where RAND(seed) < rows/totalRows, which reads
// every row. MySQL requires a subquery's alias.
func (d Dialect) SampleFrom(from string, rows, totalRows int64) string {
	return warehouse.FilterSample(d, from, rows, totalRows, func(f float64) string {
		// A constant seed restarts RAND's sequence in every statement: the
		// queries of a profile keep the same rows when they read the table
		// in the same order.
		return fmt.Sprintf("RAND(%d) < %s", warehouse.SampleSeed, warehouse.Decimal(f))
	})
}

// IntKeys is the primary key of a base table when that is one column of an
// integer type (intType).
func (d Dialect) IntKeys(t warehouse.Table) []warehouse.IntKey {
	if t.Kind != "table" || len(t.PrimaryKey) != 1 {
		return nil
	}
	for _, c := range t.Columns {
		if c.Name == t.PrimaryKey[0] && intType(c.Type) {
			return []warehouse.IntKey{{Name: d.QuoteIdent(c.Name), Column: c.Name}}
		}
	}
	return nil
}

// intType reports whether a MySQL column type, as information_schema's
// COLUMN_TYPE spells it ("int(10) unsigned", "bigint", "tinyint(1)"), is
// an integer type. The base name is matched whole: a substring "int" would
// take POINT, and a BIT, DECIMAL or YEAR key is no integer one (a lookup by
// an integer would not find, or would convert, its values).
func intType(typ string) bool {
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

// KeyBounds reads the two ends of the primary key's index, two b-tree
// descents ("Select tables optimized away" in EXPLAIN), and returns one
// row, NULLs for an empty table. MySQL has no rowid.
func (d Dialect) KeyBounds(t warehouse.TableName, k warehouse.IntKey) (string, bool) {
	if k.Rowid() {
		return "", false
	}
	return fmt.Sprintf("SELECT (SELECT MIN(t.%[1]s) FROM %[2]s AS t) AS lo, (SELECT MAX(t.%[1]s) FROM %[2]s AS t) AS hi",
		k.Name, d.QuoteTable(t)), true
}

// drawsBy reports whether key is a quoted column, what IntKeys gives:
// MySQL has no rowid, and a SQLite spelling of it would name no column.
func drawsBy(key string) bool { return strings.HasPrefix(key, "`") }

// RowidProbe counts windows of the primary key (warehouse.KeyProbe), a
// range read of its clustered index per window, which sizes the table
// better than InnoDB's statistics, off by tens of percent.
func (d Dialect) RowidProbe(t warehouse.TableName, key string, lo, hi int64) (string, int64, bool) {
	if !drawsBy(key) {
		return "", 0, false
	}
	return warehouse.KeyProbe(d, t, key, lo, hi)
}

// SampleRowids draws rows by the primary key (sampleKeys), where
// warehouse.RowidDraws allows.
func (d Dialect) SampleRowids(t warehouse.TableName, key string, rows, totalRows, lo, hi int64) (string, bool) {
	draws, ok := warehouse.RowidDraws(rows, totalRows, lo, hi)
	if !ok || !drawsBy(key) {
		return "", false
	}
	return d.sampleKeys(t, key, rows, draws, lo, hi), true
}

// sampleKeys is SampleRowids: the draws are the numbers 0 … draws−1, each
// hashed to a key between lo and hi; keys drawn twice count once (the
// least draw number is kept), and the table is joined by its primary key
// to what was drawn, in the order of the draws:
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
// bits of SHA1('seed:n'), seed the table's SampleKey, are an exact BIGINT
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
func (d Dialect) sampleKeys(t warehouse.TableName, key string, rows, draws, lo, hi int64) string {
	span, _ := warehouse.KeySpan(lo, hi)
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
		lo, warehouse.SampleKey(d, t), span, n, strings.Join(digits, ", "), n, draws,
		d.QuoteTable(t), key, d.Limit(rows), warehouse.SampleAlias)
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

// Explain is EXPLAIN, a table of one row per table read.
func (Dialect) Explain(sql string) string { return "EXPLAIN " + sql }

// Plan flattens the table: every named cell, as name=value.
func (Dialect) Plan(res *warehouse.Result) string { return warehouse.PlanText(res) }

// PlanScan reads the access type and key columns.
func (Dialect) PlanScan(plan, table string) warehouse.PlanScan {
	p, _ := warehouse.PlanWords(plan, table)
	switch {
	case strings.Contains(p, "type=all"):
		return warehouse.ScanFull
	case strings.Contains(p, "key="):
		return warehouse.ScanIndexed
	}
	return warehouse.ScanUnknown
}
