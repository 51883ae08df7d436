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
// Each engine package implements it (warehouse/sqlite/dialect.go, …), most
// by embedding Standard for what is written alike everywhere; Source.Dialect
// returns it. Experts ask it for fragments and for Capabilities, never for
// the engine's name, which is for messages and reports only.
//
// Arguments named expr are SQL expressions, already quoted (a QuoteIdent
// result or an expression built from one); arguments named from are FROM
// items (a QuoteTable result, or a Sample). Results are fragments to splice
// into a statement: nothing here runs or checks SQL, the guard does.
type Dialect interface {
	// Name is the engine's name ("sqlite", "postgres", "mysql", "duckdb",
	// "trino"), for messages and reports.
	Name() string
	// Grammar is what the SQL guard knows of the engine's SQL (its lexer,
	// its read-only statements, its dangerous functions), declared in the
	// engine's package; never nil.
	Grammar() *Grammar
	// Capabilities says what the engine can do beyond the fragments.
	Capabilities() Capabilities
	// NameRules says how the engine resolves the names a statement
	// writes (case, default schema, pseudo columns, table functions), for
	// checking a statement's names before it runs.
	NameRules() NameRules

	// QuoteIdent quotes one identifier, doubling the quote character
	// inside it.
	QuoteIdent(name string) string
	// QuoteTable quotes a table name, schema-qualified when Schema is set.
	QuoteTable(t TableName) string
	// Literal quotes s as a string literal the engine reads back as
	// exactly s, and whose end the engine's Grammar finds where the
	// engine does: a value from the data may hold quotes, backslashes and
	// anything else.
	Literal(s string) string
	// TypedLiteral is a literal of v, a value of a column of declared type
	// typ written as the engine writes it in text (a profile's least or
	// greatest value), that the column compares with as it is: a string
	// literal where the engine casts one to the column's type, a literal
	// of the type where it does not (Trino's DATE '…').
	TypedLiteral(typ, v string) string

	// CastText renders expr as a string, so that every value reaches Go as
	// text whatever the driver would make of the declared type.
	CastText(expr string) string
	// Numeric renders expr as a floating-point value, or NULL where the
	// value is not a number. Floating point also keeps AVG(x*x) from
	// overflowing integer arithmetic. Engines without a cast that turns
	// what does not parse into NULL (PostgreSQL, MySQL) want it applied to
	// numeric columns only.
	Numeric(expr string) string
	// CountDistinct counts the distinct non-null values of expr. With
	// approx, an engine that has a sketch-based estimate uses it and
	// estimate is true; the others count exactly, which costs a sort or a
	// hash of the column.
	CountDistinct(expr string, approx bool) (sql string, estimate bool)
	// HLLRegisters is a whole statement that builds a HyperLogLog sketch
	// of the non-null values of expr in from, inside the engine, and
	// returns only its register histogram: rows (r, n), n registers
	// holding the value r, for r ≥ 1 (empty registers are the rest of the
	// 2^p). typ is expr's declared type as the engine lists it ("" when
	// not known), for a hash of the type's own. ok is false on engines
	// that need no such statement.
	HLLRegisters(from, expr, typ string, p int) (sql string, ok bool)
	// Quantiles renders one aggregate per fraction in ps (0.5 is the
	// median) over the non-null values of expr, interpolating between
	// neighbours. frags is nil where the engine has no percentile
	// aggregate: the caller runs RankedValues instead.
	Quantiles(expr string, ps []float64) (frags []string, estimate bool)
	// ApproxQuantiles is Quantiles from the engine's sketch where it has
	// one, for inputs too large to sort cheaply, with estimate true; else
	// the result of Quantiles. Pass a DOUBLE expression (Numeric) to keep
	// fractions.
	ApproxQuantiles(expr string, ps []float64) (frags []string, estimate bool)
	// RankedValues is the quantile fallback for engines without a
	// percentile aggregate (see Standard.RankedValues).
	RankedValues(from, expr string, ps []float64) string
	// TextLength counts the characters of a string expression.
	TextLength(expr string) string
	// Blank renders a condition that holds for a string expression that is
	// empty or holds nothing but what TRIM removes.
	Blank(expr string) string
	// FoldedIn renders a condition that holds when LOWER(TRIM(expr)) is
	// one of values, for a string expression.
	FoldedIn(expr string, values []string) string
	// DatePart extracts part from expr, a date or timestamp column, or
	// text holding one. It panics on a part outside the TimePart
	// constants: that is a bug in the caller, not a property of the data.
	DatePart(part TimePart, expr string) string
	// Chronological renders a timestamp expression as a value that
	// compares in time order.
	Chronological(expr string) string
	// Limit is the clause that keeps the first n rows.
	Limit(n int64) string
	// Lookup is a correlated search of from (quoted) as alias that is 1
	// when some row meets cond and NULL when none does: one search of an
	// index on cond's column per outer row, never a read of the whole
	// table.
	Lookup(from, alias, cond string) string

	// Sample is a FROM item, aliased SampleAlias, that yields about rows
	// randomly chosen rows of base table t, which has totalRows rows (an
	// estimate will do). When totalRows ≤ rows the item is the whole
	// table; when totalRows is unknown (≤ 0) it is the first rows rows,
	// bounded but not random.
	Sample(t TableName, rows, totalRows int64) string
	// SampleFrom is Sample for any FROM item (a quoted view, a
	// parenthesized subquery with its alias).
	SampleFrom(from string, rows, totalRows int64) string
	// SampleBlocks is a FROM item, aliased SampleAlias, of about rows rows
	// of base table t sampled by whole storage blocks, so that only the
	// kept blocks are read. ok is false on engines without such sampling
	// and when totalRows ≤ rows.
	SampleBlocks(t TableName, rows, totalRows int64) (from string, ok bool)
	// IntKeys lists the integer keys t's rows can be looked up by, in the
	// order to try them with KeyBounds (only one holds); empty on engines
	// without key lookups and for views.
	IntKeys(t Table) []IntKey
	// KeyBounds is a statement returning one row (lo, hi), the least and
	// the greatest value of key k of t, read from the two ends of its
	// b-tree; no row where k is not t's b-tree key. ok is false on engines
	// without key lookups.
	KeyBounds(t TableName, k IntKey) (sql string, ok bool)
	// RowidProbe is a statement whose one value n counts the rows of t in
	// windows of keys between lo and hi (the KeyBounds of t), and covered
	// is the number of keys the windows span (see KeyProbe, RowidEstimate).
	RowidProbe(t TableName, key string, lo, hi int64) (sql string, covered int64, ok bool)
	// SampleRowids is Sample for a table whose integer key runs from lo to
	// hi (KeyBounds): a FROM item, aliased SampleAlias, of about rows rows
	// of t's totalRows, found by key lookups instead of a scan. ok is
	// false (use Sample) on engines without key lookups and where
	// RowidDraws is.
	SampleRowids(t TableName, key string, rows, totalRows, lo, hi int64) (from string, ok bool)
}

// TableSampler is a Dialect whose sample of a base table depends on the
// table's columns (DuckDB keeps the rows whose row id hashes under the
// share, unless a column hides the row id). SampleTable returns a FROM item
// as Sample's, how it is drawn, and false where Sample is to be used.
type TableSampler interface {
	SampleTable(t Table, rows, totalRows int64) (from, how string, ok bool)
}

// SampleTable is t's sample as the dialect draws it best: TableSampler's
// where it has one, else Sample's.
func SampleTable(d Dialect, t Table, rows, totalRows int64) string {
	if ts, ok := d.(TableSampler); ok {
		if from, _, ok := ts.SampleTable(t, rows, totalRows); ok {
			return from
		}
	}
	return d.Sample(t.Name, rows, totalRows)
}

// Capabilities are what an engine can do that changes how an expert goes
// about a table. What a Dialect method can answer itself (a quantile
// aggregate, a HyperLogLog statement, a block sample, key lookups) it
// answers with its ok or nil result.
type Capabilities struct {
	// DynamicTypes: any column may hold a value of any storage class,
	// whatever its declared type, and text compares with a number by the
	// column's affinity ('5' = 5, '1' = 1.0) (SQLite). Numeric then checks
	// each value's class, a comparison of differently typed columns needs
	// no cast (a cast to text would lose 1 = 1.0), and a column may mix
	// storage classes.
	DynamicTypes bool
	// FilterSample: Sample keeps rows by a random filter over all of them,
	// reading every row, having no table or block sample (SQLite, MySQL).
	FilterSample bool
	// Reservoir: below BlockSampleRows, Sample is a seeded reservoir over
	// the whole table, the same rows in every run, for about one scan of
	// the columns a statement reads (DuckDB).
	Reservoir bool
	// WholeDistinct is how the distinct values of a table read whole are
	// counted.
	WholeDistinct DistinctMethod
	// SharedSample: a statement whose branches each read the same sample
	// costs less when it draws the sample once (WITH … AS MATERIALIZED)
	// than when each branch draws it from the table again (PostgreSQL,
	// whose row sample reads every page of the table).
	SharedSample bool
	// LimitSample: the engine has no sample of a base table that reads
	// less than all of it on every connector (Trino: BERNOULLI reads every
	// row, SYSTEM keeps or drops whole splits and keeps none at all of a
	// table that has few), so a table too large to be read whole (more
	// than WholeReadFactor samples) is read through its first rows, a
	// LIMIT, which stops the scan: no random sample, and said so. Each
	// read of them is a scan of its own (a subquery a statement names
	// twice is computed twice), so a statement reads them once: one
	// branch per statement, not a union of branches over them.
	LimitSample bool
	// NoIndexes: the engine has no CREATE INDEX (Trino, Spark SQL: the
	// connector's or the files' layout decides what a read skips), so no
	// index is advised.
	NoIndexes bool
	// NoKeys: the engine declares no primary or foreign keys (Trino, Spark
	// SQL), so a key the data shows can only be documented and kept by
	// whatever writes the data; advice to declare one cannot be followed.
	NoKeys bool
}

// WholeReadFactor is how many samples a table may hold and still be read
// whole by one statement (experts.WholeScanFactor, which is this): a larger
// one is only ever read through its sample.
const WholeReadFactor = 10

// DistinctMethod is how an engine counts the distinct values of a table
// that is read whole.
type DistinctMethod int

const (
	// DistinctScaled: the sample's counts are scaled up by a HyperLogLog
	// sketch built outside the aggregate (streamed by the caller, or
	// HLLRegisters): COUNT(DISTINCT) sorts every column.
	DistinctScaled DistinctMethod = iota
	// DistinctExact: COUNT(DISTINCT) over the whole table costs less than
	// hashing every value into a sketch.
	DistinctExact
	// DistinctApprox: the engine's own sketch (CountDistinct with approx).
	DistinctApprox
)

// Explainer is implemented by the dialects of engines that show a
// statement's plan and can tell from it how a table is read.
type Explainer interface {
	// Explain is the statement that shows sql's plan.
	Explain(sql string) string
	// Plan reads an Explain result as one line of text.
	Plan(res *Result) string
	// PlanScan tells from a Plan whether table is read in full or through
	// an index, in the engine's words.
	PlanScan(plan, table string) PlanScan
}

// PlanScan is how a plan reads a table.
type PlanScan int

const (
	ScanUnknown PlanScan = iota // the plan does not say
	ScanFull                    // every row
	ScanIndexed                 // through an index
)

// PlanText flattens an EXPLAIN result: every text cell, and for tabular
// plans (MySQL) every named cell, in order.
func PlanText(res *Result) string {
	var parts []string
	for _, row := range res.Rows {
		var cells []string
		for i, v := range row {
			if v == nil {
				continue
			}
			s := strings.Join(strings.Fields(fmt.Sprint(v)), " ")
			if s == "" {
				continue
			}
			name := ""
			if i < len(res.Columns) {
				name = strings.ToLower(res.Columns[i])
			}
			switch name {
			case "detail", "query plan", "explain_value", "plan":
				cells = append(cells, s)
			case "id", "parent", "notused", "explain_key", "select_id":
			default:
				cells = append(cells, name+"="+s)
			}
		}
		if len(cells) > 0 {
			parts = append(parts, strings.Join(cells, " "))
		}
	}
	return strings.Join(parts, "; ")
}

// PlanWords lower-cases plan and table, and drops table's schema: plans
// name tables bare.
func PlanWords(plan, table string) (string, string) {
	t := strings.ToLower(table)
	if i := strings.LastIndex(t, "."); i >= 0 {
		t = t[i+1:]
	}
	return strings.ToLower(plan), t
}

// Standard is what every engine here writes alike: ANSI double-quoted
// identifiers, LIMIT, TRIM and LOWER, window functions, and no sketch, block
// sample or key lookup. Engines embed it and write the rest themselves, so
// that nothing an engine must decide falls to a default.
type Standard struct{}

// QuoteIdent quotes one identifier in double quotes, doubling those inside.
func (Standard) QuoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// QuoteTable quotes a table name, schema-qualified when Schema is set; the
// Schema is one identifier, dots and all.
func (s Standard) QuoteTable(t TableName) string { return QuoteQualified(s.QuoteIdent, t, false) }

// QuoteQualified quotes t with quote, schema-qualified when Schema is set.
// With split, each dot-separated part of Schema is quoted on its own
// (Trino's "catalog.schema"); otherwise Schema is one identifier.
func QuoteQualified(quote func(string) string, t TableName, split bool) string {
	if t.Schema == "" {
		return quote(t.Name)
	}
	parts := []string{t.Schema}
	if split {
		parts = strings.Split(t.Schema, ".")
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(quote(p))
		b.WriteByte('.')
	}
	b.WriteString(quote(t.Name))
	return b.String()
}

// Literal doubles the quote (the package's Literal), which is exact where
// a backslash in '…' is an ordinary character. MySQL and Spark, whose
// sessions read backslash escapes, write their own, and so does
// PostgreSQL, whose lexical guard cannot know standard_conforming_strings.
func (Standard) Literal(s string) string { return Literal(s) }

// TypedLiteral is Literal(v): most engines cast a string literal to the
// type of the column it is compared with. It quotes with the package's
// Literal, not the engine's: an engine that writes its own Literal
// overrides TypedLiteral and FoldedIn (FoldedInWith) to use it, as every
// engine here does.
func (Standard) TypedLiteral(typ, v string) string { return Literal(v) }

// Limit is the clause that keeps the first n rows. All five engines spell it
// LIMIT n (Trino also knows FETCH FIRST, but LIMIT is shorter).
func (Standard) Limit(n int64) string {
	if n < 0 {
		n = 0
	}
	return "LIMIT " + strconv.FormatInt(n, 10)
}

// Blank renders a condition that holds for a string expression that is
// empty or holds nothing but what TRIM removes: TRIM(expr) is the empty
// string.
func (Standard) Blank(expr string) string { return "TRIM(" + expr + ") = ''" }

// FoldedIn renders LOWER(TRIM(expr)) IN (values).
func (Standard) FoldedIn(expr string, values []string) string {
	return FoldedInWith(Literal, expr, values)
}

// FoldedInWith is Standard's FoldedIn with values quoted by literal, for
// an engine that writes its own literals.
func FoldedInWith(literal func(string) string, expr string, values []string) string {
	lits := make([]string, len(values))
	for i, v := range values {
		lits[i] = literal(v)
	}
	return "LOWER(TRIM(" + expr + ")) IN (" + strings.Join(lits, ", ") + ")"
}

// Chronological is expr itself: a date or timestamp type compares in time
// order.
func (Standard) Chronological(expr string) string { return expr }

// Lookup is a scalar subquery rather than EXISTS: PostgreSQL may run an
// EXISTS in the select list as a hash of the whole inner table.
func (s Standard) Lookup(from, alias, cond string) string {
	return fmt.Sprintf("(SELECT 1 FROM %s %s WHERE %s %s)", from, alias, cond, s.Limit(1))
}

// HLLRegisters: no such statement; the caller counts otherwise.
func (Standard) HLLRegisters(from, expr, typ string, p int) (string, bool) { return "", false }

// SampleBlocks: no block sample.
func (Standard) SampleBlocks(t TableName, rows, totalRows int64) (string, bool) { return "", false }

// IntKeys: no key lookups.
func (Standard) IntKeys(t Table) []IntKey { return nil }

// KeyBounds: no key lookups.
func (Standard) KeyBounds(t TableName, k IntKey) (string, bool) { return "", false }

// RowidProbe: no key lookups.
func (Standard) RowidProbe(t TableName, key string, lo, hi int64) (string, int64, bool) {
	return "", 0, false
}

// SampleRowids: no key lookups.
func (Standard) SampleRowids(t TableName, key string, rows, totalRows, lo, hi int64) (string, bool) {
	return "", false
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
func (Standard) RankedValues(from, expr string, ps []float64) string {
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

// QuantileFrags renders pattern, whose %[1]s is expr and %[2]s a fraction,
// once per fraction.
func QuantileFrags(pattern, expr string, ps []float64) []string {
	frags := make([]string, len(ps))
	for i, p := range ps {
		frags[i] = fmt.Sprintf(pattern, expr, strconv.FormatFloat(p, 'g', -1, 64))
	}
	return frags
}

// QuantileElements renders one aggregate over the list of all the
// fractions ps (pattern as QuantileFrags's, %[2]s being the fractions
// separated by commas) and each fragment as one element of it (elem
// formats the aggregate and a 1-based index). Engines that compute an
// aggregate written several times in a statement once (DuckDB,
// PostgreSQL) then gather and sort the values once for every fraction.
func QuantileElements(pattern, elem, expr string, ps []float64) []string {
	list := make([]string, len(ps))
	for i, p := range ps {
		list[i] = strconv.FormatFloat(p, 'g', -1, 64)
	}
	agg := fmt.Sprintf(pattern, expr, strings.Join(list, ", "))
	frags := make([]string, len(ps))
	for i := range ps {
		frags[i] = fmt.Sprintf(elem, agg, i+1)
	}
	return frags
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

// Literal quotes a string literal by doubling the quote, which is how
// SQLite, PostgreSQL (standard_conforming_strings), DuckDB and Trino read
// it. An engine whose strings take backslash escapes writes its own
// (Dialect.Literal).
func Literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// LiteralJoined is Literal for an engine whose text may hold a NUL, which
// every guard refuses as a raw byte in a statement (Precheck): a value
// with one is written as its parts joined by nul, the engine's expression
// for the character (SQLite's char(0), DuckDB's and Trino's chr(0)), in
// parentheses, so that it stands wherever the literal would.
func LiteralJoined(s, nul string) string {
	if !strings.Contains(s, "\x00") {
		return Literal(s)
	}
	parts := strings.Split(s, "\x00")
	for i, p := range parts {
		parts[i] = Literal(p)
	}
	return "(" + strings.Join(parts, " || "+nul+" || ") + ")"
}

// TimePart names a part of a date or timestamp for DatePart.
type TimePart string

const (
	PartYear  TimePart = "year"  // integer, e.g. 2024
	PartMonth TimePart = "month" // integer, 1 = January
	PartDOW   TimePart = "dow"   // integer day of week, 0 = Sunday … 6 = Saturday
	PartHour  TimePart = "hour"  // integer, 0 … 23
	PartDate  TimePart = "date"  // text 'YYYY-MM-DD', the same on every engine and driver
)

// UnknownPart is DatePart's panic on a part outside the TimePart constants.
func UnknownPart(part TimePart) string {
	return fmt.Sprintf("warehouse: DatePart: unknown part %q", part)
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

// SampleSeed seeds the samples of engines that take a seed. The same seed
// draws the same rows in every query of a profile and in every run on
// unchanged data: figures agree with each other, and reports diff cleanly.
const SampleSeed = 42

// FilterSample is SampleFrom for engines that keep each row with
// probability rows/totalRows by a random function: keep renders the
// condition for that fraction. When totalRows is unknown (≤ 0) the item is
// the first rows rows of from, and when totalRows ≤ rows it is from whole.
func FilterSample(d Dialect, from string, rows, totalRows int64, keep func(fraction float64) string) string {
	rows = max(rows, 0)
	switch {
	case totalRows <= 0:
		return fmt.Sprintf("(SELECT * FROM %s %s) %s", from, d.Limit(rows), SampleAlias)
	case totalRows <= rows:
		return from + " " + SampleAlias
	}
	return fmt.Sprintf("(SELECT * FROM %s WHERE %s) %s", from, keep(Fraction(rows, totalRows)), SampleAlias)
}

// BlockPercent is the percentage of a table's blocks to sample for about
// rows of its totalRows rows, false when totalRows is unknown or within
// rows.
func BlockPercent(rows, totalRows int64) (pct string, ok bool) {
	if totalRows <= 0 || totalRows <= max(rows, 0) {
		return "", false
	}
	return Decimal(100 * Fraction(max(rows, 1), totalRows)), true
}

// Fraction is rows/total as a float.
func Fraction(rows, total int64) float64 { return float64(rows) / float64(total) }

// Decimal renders f with six significant digits and no exponent, which every
// engine parses as a numeric literal and a reader can check by eye.
func Decimal(f float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 6, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// Key lookups. SQLite has no TABLESAMPLE, and its random() filter
// (SampleFrom) reads the whole table to keep a few rows. A rowid table,
// though, finds a row by its rowid in O(log n), and a WITHOUT ROWID table
// whose primary key is one INTEGER column finds a row by that key as
// cheaply: the helpers below size a table and draw a sample from the ends
// of the b-tree and from lookups by its integer key (IntKey), so that a
// table far larger than the sample is never read whole (issue 9). Views,
// virtual tables and WITHOUT ROWID tables keyed otherwise keep the scanning
// forms.
//
// MySQL and MariaDB have no TABLESAMPLE either, and their RAND() filter
// reads every row too. InnoDB, though, clusters a table's rows in the
// b-tree of its primary key: a table whose primary key is one integer
// column is sized and drawn from by that key as a SQLite rowid table is
// (IntKeys, KeyBounds, RowidProbe, SampleRowids). Other tables (no primary
// key, a composite or non-integer one, views) keep the scanning forms.

// IntKey is the integer key of a table's b-tree: the rowid of a SQLite
// rowid table, or a primary-key column of one integer column (a SQLite
// WITHOUT ROWID table, a MySQL table). Either finds a row by a b-tree
// search, and the ends of the tree are its least and greatest key.
type IntKey struct {
	// Name is the key as a statement writes it after "alias.": a spelling
	// of rowid, or the quoted column. It is the key argument of
	// RowidProbe and SampleRowids.
	Name string
	// Column is the key column, "" for the rowid.
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

// RowidBounds is d's KeyBounds for a rowid spelling: a statement returning
// one row (lo, hi), the least and the greatest rowid of t, read from the
// two ends of its b-tree. ok is false on engines without rowids.
func RowidBounds(d Dialect, t TableName, rowid string) (sql string, ok bool) {
	return d.KeyBounds(t, IntKey{Name: rowid})
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
// d's KeyBounds of each of t's IntKeys in turn through query, which returns
// the statement's one row, nil for no row or for a failure to work around
// (a WITHOUT ROWID table fails the rowid's statement), or an error that
// ends the search (a spent budget, a cancelled run). found is false when no
// key holds; rows is false for an empty table (lo and hi are then 0).
//
// A key column's values between two integer ends may still hold reals
// (1.5): the probe counts them, the lookups by integer never draw them.
func FindIntKey(d Dialect, t Table, query func(sql string) ([]any, error)) (k IntKey, lo, hi int64, rows, found bool, err error) {
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

// KeyProbe is RowidProbe for engines with key lookups: a statement whose
// one value n counts the rows of t in windows of keys between lo and hi
// (the KeyBounds of t), and covered is the number of keys the windows span:
// the table holds about n·(hi−lo+1)/covered rows, exactly n when covered is
// the whole span (a span of at most 8,192 keys is counted whole). See
// RowidEstimate. key may be any IntKey's Name: a SQLite WITHOUT ROWID table
// is probed by its integer key alike, and so is a MySQL table by its
// primary key (a range read of its clustered index per window), which
// sizes it better than InnoDB's statistics, off by tens of percent.
func KeyProbe(d Dialect, t TableName, key string, lo, hi int64) (sql string, covered int64, ok bool) {
	span, fits := KeySpan(lo, hi)
	if !fits {
		return "", 0, false
	}
	table := d.QuoteTable(t)
	if span <= rowidProbeWindows*rowidProbeWidth {
		return fmt.Sprintf("SELECT count(*) AS n FROM %s AS t WHERE t.%s BETWEEN %d AND %d", table, key, lo, hi), span, true
	}
	g := NewSplitMix(SampleKey(d, t) ^ 0x5bd1e995)
	stretch := span / rowidProbeWindows
	branches := make([]string, 0, rowidProbeWindows)
	for i := int64(0); i < rowidProbeWindows; i++ {
		start := lo + i*stretch
		a := start + int64(g.Next()%uint64(stretch-rowidProbeWidth+1))
		branches = append(branches, fmt.Sprintf("SELECT 1 AS one FROM %s AS t WHERE t.%s BETWEEN %d AND %d",
			table, key, a, a+rowidProbeWidth-1))
	}
	return "SELECT count(*) AS n FROM (" + strings.Join(branches, " UNION ALL ") + ") w",
		rowidProbeWindows * rowidProbeWidth, true
}

// RowidEstimate is the row count a RowidProbe's n implies, and whether it
// is exact (the probe covered every rowid).
func RowidEstimate(lo, hi, covered, n int64) (rows int64, exact bool) {
	span, fits := KeySpan(lo, hi)
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

// KeySpan is hi−lo+1, false when it is empty, overflows or exceeds 2⁴⁰.
func KeySpan(lo, hi int64) (int64, bool) {
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
	span, fits := KeySpan(lo, hi)
	if !fits || rows <= 0 || totalRows <= rows {
		return 0, false
	}
	total := min(totalRows, span) // no more rows than rowids
	target := 1.2*float64(rows) + 4*math.Sqrt(float64(rows)) + 20
	if target >= float64(total) {
		return 0, false
	}
	return drawsFor(target, span, total), true
}

// drawsFor is how many keys to draw between lo and hi, span of them, for
// target hits among total rows: k draws among span keys hit
// span·(1−e^(−k/span)) distinct ones, a total/span share of which hold a
// row.
func drawsFor(target float64, span, total int64) int64 {
	return int64(math.Ceil(-float64(span) * math.Log1p(-target/float64(total))))
}

// RowidPicks is the number of keys SQLite's SampleRowids draws between lo
// and hi for a sample of rows rows of a table of totalRows in which every
// key of the span holds a row: enough for rows + 4·√rows + 20 distinct
// keys, allowing for keys drawn twice, of which the first rows distinct
// ones (in the order of the draws) are the sample. ok is false where
// RowidDraws is, or when the keys kept would be most of the span.
func RowidPicks(rows, totalRows, lo, hi int64) (draws int64, ok bool) {
	if _, ok := RowidDraws(rows, totalRows, lo, hi); !ok {
		return 0, false
	}
	span, _ := KeySpan(lo, hi)
	target := float64(rows) + 4*math.Sqrt(float64(rows)) + 20
	if target >= 0.9*float64(span) {
		return 0, false
	}
	return drawsFor(target, span, span), true
}

// SampleKey seeds the draws of a table's sample and probes: FNV-1a of its
// quoted name, mixed with SampleSeed.
func SampleKey(d Dialect, t TableName) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range []byte(d.QuoteTable(t)) {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h ^ SampleSeed
}

// SplitMix is SplitMix64, a small generator whose sequence depends on its
// seed alone, so the SQL built from it is the same in every run.
type SplitMix struct{ s uint64 }

// NewSplitMix starts a generator at seed.
func NewSplitMix(seed uint64) *SplitMix { return &SplitMix{s: seed} }

// Next is the generator's next value.
func (g *SplitMix) Next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
