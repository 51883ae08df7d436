package sqlite

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Dialect is SQLite's warehouse.Dialect. Any column may hold any storage
// class; there is no TABLESAMPLE, no percentile aggregate and no sketch,
// but a rowid table (and a WITHOUT ROWID table keyed by one INTEGER
// column) finds a row by its key in O(log n), which sizes and samples a
// table without reading it whole.
type Dialect struct{ warehouse.Standard }

var _ warehouse.Dialect = Dialect{}
var _ warehouse.Explainer = Dialect{}

// What the experts work around on SQLite, which their comments say as a
// capability. Names compare without case, and a foreign key keeps its
// parent's name as the declaration wrote it. The source is a Streamer, and
// the streaming profile (experts/statistical/stream.go, streamtime.go)
// computes its figures with SQLite's semantics in Go: storage classes (a
// number stored in a TEXT column becomes text), COUNT(DISTINCT) equality,
// strftime's reading of dates (in UTC; 2023-02-30 is March 2), CAST(real
// AS TEXT)'s 15 or 17 significant digits, SUM and AVG's Neumaier
// compensation, 1e999 stored as an infinity, and a no-op unary plus that
// hides a DATE column's declared type from the driver. A rowid drawn for
// SampleRowids costs some 25 rows of SampleFrom's scan: on 4M narrow rows
// (TestSQLiteSampleNoFullScan) 12,600 draws took 90–140 ms and the scan
// 0.3 µs a row (experts/statistical's rowidDrawCost).

// Name is "sqlite".
func (Dialect) Name() string { return "sqlite" }

// Capabilities: dynamic types, and a random filter for a sample.
func (Dialect) Capabilities() warehouse.Capabilities {
	return warehouse.Capabilities{DynamicTypes: true, FilterSample: true, WholeDistinct: warehouse.DistinctScaled}
}

// NameRules: names compare in any case; a bare name reads main; every
// rowid table answers to its row id's spellings; a double-quoted name that
// names nothing is a string literal; and the pragma functions whose
// argument is a table must be given one.
func (Dialect) NameRules() warehouse.NameRules {
	return warehouse.NameRules{
		DefaultSchema:           "main",
		PseudoColumns:           rowidNames,
		TableFunctions:          tableFunctionColumns,
		TableNameArgs:           pragmaTableArg,
		QuotedMissReadsAsString: true,
	}
}

// tableFunctionColumns are the output columns of the table-valued
// functions analysts use.
var tableFunctionColumns = map[string][]string{
	"pragma_table_info":       {"cid", "name", "type", "notnull", "dflt_value", "pk"},
	"pragma_table_xinfo":      {"cid", "name", "type", "notnull", "dflt_value", "pk", "hidden"},
	"pragma_index_list":       {"seq", "name", "unique", "origin", "partial"},
	"pragma_index_info":       {"seqno", "cid", "name"},
	"pragma_index_xinfo":      {"seqno", "cid", "name", "desc", "coll", "key"},
	"pragma_foreign_key_list": {"id", "seq", "table", "from", "to", "on_update", "on_delete", "match"},
	"pragma_table_list":       {"schema", "name", "type", "ncol", "wr", "strict"},
	"json_each":               jsonEachColumns,
	"json_tree":               jsonEachColumns,
	"generate_series":         {"value", "start", "stop", "step"},
}

var jsonEachColumns = []string{"key", "value", "type", "atom", "id", "parent", "fullkey", "path", "json", "root"}

// pragmaTableArg are the pragma functions whose argument is a table.
var pragmaTableArg = map[string]bool{
	"pragma_table_info": true, "pragma_table_xinfo": true, "pragma_foreign_key_list": true, "pragma_index_list": true,
}

// CastText casts to TEXT.
func (Dialect) CastText(expr string) string { return "CAST(" + expr + " AS TEXT)" }

// Numeric checks the storage class per value, since any column may hold
// text: text is NULL, never 0.
func (Dialect) Numeric(expr string) string {
	return "CASE WHEN typeof(" + expr + ") IN ('integer','real') THEN CAST(" + expr + " AS REAL) END"
}

// NumbersOnly is expr where it holds a number, NULL elsewhere, in the
// number's own class: what Numeric selects, without its cast. SQLite sorts
// every number below every text and blob, and the empty text is the least; a
// column of numeric affinity leaves the literal text, as it does any text
// that is no number. One comparison per value, where Numeric's storage
// class test and cast cost the rules' whole-table aggregate twice its
// time (shop_sale of the star at scale 1, 8.6M rows: 14.1 s against 7.3 s
// in the sqlite3 shell).
func (Dialect) NumbersOnly(expr string) string {
	return "CASE WHEN " + expr + " < '' THEN " + expr + " END"
}

// CountDistinct counts exactly: SQLite has no sketch (the caller streams
// the values into one).
func (Dialect) CountDistinct(expr string, approx bool) (string, bool) {
	return "COUNT(DISTINCT " + expr + ")", false
}

// Quantiles: no percentile aggregate; the caller runs RankedValues.
func (Dialect) Quantiles(expr string, ps []float64) ([]string, bool) { return nil, false }

// ApproxQuantiles: no sketch either.
func (d Dialect) ApproxQuantiles(expr string, ps []float64) ([]string, bool) {
	return d.Quantiles(expr, ps)
}

// TextLength: length counts the characters of text (and bytes of a blob).
func (Dialect) TextLength(expr string) string { return "length(" + expr + ")" }

// DatePart: SQLite has no date type. Its strftime reads ISO-8601 text
// ('2024-01-07', '2024-01-07 10:30:00', '2024-01-07T10:30:00Z'), and with
// 'auto' (SQLite 3.42, which the modernc driver bundles) also numbers, as
// Unix seconds or Julian day numbers by magnitude: the two ways SQLite's
// documentation stores dates as numbers. Values that are no date are NULL.
func (Dialect) DatePart(part warehouse.TimePart, expr string) string {
	format, integer := map[warehouse.TimePart]string{
		warehouse.PartYear: "%Y", warehouse.PartMonth: "%m", warehouse.PartDOW: "%w",
		warehouse.PartHour: "%H", warehouse.PartDate: "%Y-%m-%d",
	}[part], part != warehouse.PartDate
	if format == "" {
		panic(warehouse.UnknownPart(part))
	}
	s := "strftime('" + format + "', " + expr + ", 'auto')"
	if integer {
		// strftime returns text; integers compare and group as numbers.
		s = "CAST(" + s + " AS INTEGER)"
	}
	return s
}

// Chronological: text, Julian days or epochs; julianday reads what
// strftime reads, so ISO texts with and without a time compare right.
func (Dialect) Chronological(expr string) string { return "julianday(" + expr + ")" }

// Sample is SampleFrom over the table: SQLite has no TABLESAMPLE. A rowid
// table is better sampled by SampleRowids, which reads no more than the
// sample.
func (d Dialect) Sample(t warehouse.TableName, rows, totalRows int64) string {
	return d.SampleFrom(d.QuoteTable(t), rows, totalRows)
}

// SampleFrom keeps rows whose low 32 bits of random() fall under
// rows/totalRows·2³². One scan, no sort: ORDER BY random() LIMIT n would be
// exact but sorts a key per row. The size varies from run to run
// (binomially).
func (d Dialect) SampleFrom(from string, rows, totalRows int64) string {
	return warehouse.FilterSample(d, from, rows, totalRows, func(f float64) string {
		// random() is uniform over all 64-bit integers; abs(random()) would
		// fail on the one value without a positive counterpart.
		k := max(1, int64(math.Round(f*(1<<32))))
		return fmt.Sprintf("(random() & 4294967295) < %d", k)
	})
}

// Keyed samples hash an integer key k to h = ((k mod P)·A + seed) mod P,
// P the prime 2³¹−1 and A about P/φ, whose products stay within 64 bits:
// consecutive keys land far apart, evenly over 0..P−1.
const (
	keyedP = 2147483647
	keyedA = 1327217885
)

// KeyedSample keeps the rows of t whose integer key (an IntKey's Name)
// hashes under rows/totalRows of the range, in key order: one scan, as the
// random filter, but the same rows in every statement and every run, so
// that a profile's passes see one sample and a report stays the same on
// unchanged data. false when there is nothing to sample.
func (d Dialect) KeyedSample(t warehouse.TableName, key string, rows, totalRows int64) (string, bool) {
	if totalRows <= 0 || rows >= totalRows {
		return "", false
	}
	seed := int64(warehouse.SampleKey(d, t) % keyedP)
	keep := max(1, int64(math.Round(warehouse.Fraction(max(rows, 0), totalRows)*keyedP)))
	k := "k." + key
	return fmt.Sprintf("(SELECT k.* FROM %s AS k WHERE ((%s %% %d + %d) %% %d * %d + %d) %% %d < %d ORDER BY %s) %s",
		d.QuoteTable(t), k, keyedP, keyedP, keyedP, keyedA, seed, keyedP, keep, k, warehouse.SampleAlias), true
}

// rowidNames are SQLite's three spellings of a table's row id. A column of
// the same name hides the spelling (but for an INTEGER PRIMARY KEY named
// so, which is the row id).
var rowidNames = []string{"rowid", "_rowid_", "oid"}

// RowidName returns a spelling of SQLite's row id that no column of the
// table hides, or false when its columns take all three.
func RowidName(columns []warehouse.Column) (string, bool) {
	for _, r := range rowidNames {
		if !slices.ContainsFunc(columns, func(c warehouse.Column) bool { return strings.EqualFold(c.Name, r) }) {
			return r, true
		}
	}
	return "", false
}

// IntKeys lists the integer keys table t may be keyed by, in the order to
// try them with KeyBounds (only one holds): a spelling of rowid no column
// hides, then, when t's primary key is one column whose declared type
// contains "INT" (INTEGER affinity), that column, for a WITHOUT ROWID
// table. Empty for views.
func (d Dialect) IntKeys(t warehouse.Table) []warehouse.IntKey {
	if t.Kind != "table" {
		return nil
	}
	var keys []warehouse.IntKey
	if r, ok := RowidName(t.Columns); ok {
		keys = append(keys, warehouse.IntKey{Name: r})
	}
	if len(t.PrimaryKey) == 1 {
		for _, c := range t.Columns {
			if c.Name == t.PrimaryKey[0] && strings.Contains(strings.ToUpper(c.Type), "INT") {
				keys = append(keys, warehouse.IntKey{Name: d.QuoteIdent(c.Name), Column: c.Name})
				break
			}
		}
	}
	return keys
}

// KeyBounds is a statement returning one row (lo, hi), the least and the
// greatest key k of t, read from the two ends of its b-tree: two searches,
// no scan (one SELECT holding both min() and max() would scan). For the
// rowid it returns no row for what is not an ordinary rowid table (a
// virtual table), and a WITHOUT ROWID table fails it with "no such
// column"; for a key column it returns a row only for a WITHOUT ROWID table
// (its b-tree is keyed by the primary key). lo and hi are NULL on an empty
// table. SQLite stores what does not convert to an integer as it is even in
// an INTEGER column, and orders numbers before text and blobs: the bounds
// are integers (KeyRange) only when no key is text or a blob.
func (d Dialect) KeyBounds(t warehouse.TableName, k warehouse.IntKey) (string, bool) {
	wr := 0
	if !k.Rowid() {
		wr = 1
	}
	// Qualified (keyBounds): a bare rowid that t lacks would resolve to the
	// rowid of pragma_table_list (and make the statement an aggregate).
	return fmt.Sprintf("%s FROM pragma_table_list(%s) WHERE schema = %s AND type = 'table' AND wr = %d",
		keyBounds(d.QuoteTable(t), k.Name), warehouse.Literal(t.Name), warehouse.Literal(cmp.Or(t.Schema, "main")), wr), true
}

// keyBounds selects the least and the greatest key k of the quoted table,
// each by one search of its b-tree, k qualified by the table's alias.
func keyBounds(table, k string) string {
	return fmt.Sprintf("SELECT (SELECT min(t.%[1]s) FROM %[2]s AS t) AS lo, (SELECT max(t.%[1]s) FROM %[2]s AS t) AS hi", k, table)
}

// RowidProbe counts windows of rowids (or of a WITHOUT ROWID table's
// integer key): warehouse.KeyProbe.
func (d Dialect) RowidProbe(t warehouse.TableName, key string, lo, hi int64) (string, int64, bool) {
	return warehouse.KeyProbe(d, t, key, lo, hi)
}

// The two generators of L'Ecuyer's combined generator (CACM 31:6, 1988):
// their products stay below 2⁴⁷, within SQLite's integers.
const (
	lecuyerM1, lecuyerA1 = 2147483563, 40014
	lecuyerM2, lecuyerA2 = 2147483399, 40692
)

// SampleRowids is Sample for a rowid table whose rowids run from lo to hi
// (RowidBounds): a FROM item, aliased s, of rows rows of t's totalRows,
// found by rowid lookups instead of a scan. A recursive CTE draws rowids
// uniformly between lo and hi from two multiplicative congruential
// generators (L'Ecuyer's, combined to 62 bits) seeded by the table's name;
// rowids drawn twice count once, and the first rows rowids drawn that hold
// a row are kept, a uniform sample without replacement. The sample holds
// rows rows unless totalRows overstates the table.
//
// The rows kept are looked up in ascending order of rowid, and come out in
// that order: looking them up in the order drawn, and sorting the rows
// found back into it, took twice as long for a million rows of a 25 GB
// file (16.6 s against 6.0 s), most of it in the lookups' random reads
// and the sort of whole rows. Where every rowid of the span holds a row
// (totalRows says so: a table never deleted from), the first rows rowids
// drawn are the sample (warehouse.RowidPicks); elsewhere a first pass
// looks the drawn rowids up, in order, to keep the first rows that hold a
// row, and a second reads those rows (9 to 12 s for the same million
// rows: the second pass finds its pages in the cache). The kept rowids are
// put in order by a GROUP BY, which SQLite cannot leave out as it may an
// ORDER BY in a subquery. A statement that wants fewer rows than the
// sample, at random, asks for a smaller sample of the same table: the
// same draws, so its rows are the first of this one's in the order drawn.
//
// The seed makes every statement of a profile read the same rows, and
// every run on unchanged data, as PostgreSQL's REPEATABLE does. ok is false
// (use Sample) where RowidDraws is. key may be any IntKey's Name: a WITHOUT
// ROWID table is drawn from by its integer key alike (FindIntKey gives lo
// and hi).
func (d Dialect) SampleRowids(t warehouse.TableName, key string, rows, totalRows, lo, hi int64) (string, bool) {
	draws, ok := warehouse.RowidDraws(rows, totalRows, lo, hi)
	if !ok {
		return "", false
	}
	span, _ := warehouse.KeySpan(lo, hi)
	g := warehouse.NewSplitMix(warehouse.SampleKey(d, t))
	x := 1 + int64(g.Next()%(lecuyerM1-1))
	y := 1 + int64(g.Next()%(lecuyerM2-1))
	drawn := func(draws int64) string {
		return fmt.Sprintf("(WITH RECURSIVE r(i, x, y) AS (SELECT 0, %d, %d UNION ALL "+
			"SELECT i + 1, x * %d %% %d, y * %d %% %d FROM r WHERE i < %d) "+
			"SELECT min(i) AS i, %d + (x * 2147483648 + y) %% %d AS v FROM r GROUP BY 2)",
			x, y, lecuyerA1, lecuyerM1, lecuyerA2, lecuyerM2, draws-1, lo, span)
	}
	table := d.QuoteTable(t)
	if picks, ok := warehouse.RowidPicks(rows, totalRows, lo, hi); ok && totalRows >= span {
		return fmt.Sprintf("(SELECT b.* FROM (SELECT v FROM (SELECT i, v FROM %s ORDER BY i %s) GROUP BY v) d "+
			"CROSS JOIN %s AS b ON b.%s = d.v) %s",
			drawn(picks), d.Limit(rows), table, key, warehouse.SampleAlias), true
	}
	return fmt.Sprintf("(SELECT b.* FROM (SELECT v FROM (SELECT d.i, d.v FROM %s d CROSS JOIN %s AS e ON e.%s = d.v ORDER BY d.i %s) GROUP BY v) k "+
		"CROSS JOIN %s AS b ON b.%s = k.v) %s",
		drawn(draws), table, key, d.Limit(rows), table, key, warehouse.SampleAlias), true
}

// Explain is EXPLAIN QUERY PLAN: its detail column reads "SCAN t",
// "SEARCH t USING INDEX …".
func (Dialect) Explain(sql string) string { return "EXPLAIN QUERY PLAN " + sql }

// Plan flattens the plan's rows.
func (Dialect) Plan(res *warehouse.Result) string { return warehouse.PlanText(res) }

// PlanScan reads SQLite's SCAN and SEARCH lines.
func (Dialect) PlanScan(plan, table string) warehouse.PlanScan {
	p, t := warehouse.PlanWords(plan, table)
	switch {
	case strings.Contains(p, "search "+t+" using"), strings.Contains(p, "scan "+t+" using covering index"),
		strings.Contains(p, "scan "+t+" using index"):
		return warehouse.ScanIndexed
	case strings.Contains(p, "scan "+t):
		return warehouse.ScanFull
	}
	return warehouse.ScanUnknown
}

// Literal is warehouse.Literal; a NUL, which SQLite text may hold, is
// written char(0) (warehouse.LiteralJoined). TypedLiteral and FoldedIn
// write their values with it.
func (Dialect) Literal(s string) string { return warehouse.LiteralJoined(s, "char(0)") }

// TypedLiteral is Literal(v): SQLite compares a string with any column.
func (d Dialect) TypedLiteral(typ, v string) string { return d.Literal(v) }

// FoldedIn is Standard's with SQLite's literals.
func (d Dialect) FoldedIn(expr string, values []string) string {
	return warehouse.FoldedInWith(d.Literal, expr, values)
}
