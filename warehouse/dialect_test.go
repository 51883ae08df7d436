package warehouse_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
	"github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/connect"
)

var update = flag.Bool("update", false, "rewrite testdata/dialect/*.golden from the builders")

// dialectNames are every engine's: a new engine's golden file is missing
// until -update writes it.
var dialectNames = func() []string {
	var names []string
	for _, d := range connect.Dialects() {
		names = append(names, d.Name())
	}
	return names
}()

func mustDialect(t *testing.T, name string) warehouse.Dialect {
	t.Helper()
	d, err := connect.DialectFor(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// goldenCalls is the fixed list of builder calls rendered for every dialect,
// one "name: SQL" line each. Add calls at the end so that diffs stay small.
var goldenCalls = []struct {
	name string
	call func(d warehouse.Dialect) string
}{
	{"name", func(d warehouse.Dialect) string { return d.Name() }},
	{"quote_ident", func(d warehouse.Dialect) string { return d.QuoteIdent("order") }},
	{"quote_ident_quotes", func(d warehouse.Dialect) string { return d.QuoteIdent("we\"ird `name`") }},
	{"quote_table", func(d warehouse.Dialect) string { return d.QuoteTable(warehouse.TableName{Name: "orders"}) }},
	{"quote_table_schema", func(d warehouse.Dialect) string {
		return d.QuoteTable(warehouse.TableName{Schema: "sales", Name: "orders"})
	}},
	{"quote_table_catalog", func(d warehouse.Dialect) string {
		return d.QuoteTable(warehouse.TableName{Schema: "hive.sales", Name: "orders"})
	}},
	{"literal", func(d warehouse.Dialect) string { return d.Literal(`it's C:\temp\ ab\' \n`) }},
	{"typed_literal", func(d warehouse.Dialect) string {
		return strings.Join([]string{d.TypedLiteral("date", "2024-01-31"), d.TypedLiteral("timestamp(3)", "2024-01-31 10:00:00.5"),
			d.TypedLiteral("timestamp(3) with time zone", "2024-01-31 10:00:00 UTC"), d.TypedLiteral("time(3)", "10:00:00"),
			d.TypedLiteral("varchar(20)", "it's")}, ", ")
	}},
	{"cast_text", func(d warehouse.Dialect) string { return d.CastText(d.QuoteIdent("c")) }},
	{"numeric", func(d warehouse.Dialect) string { return d.Numeric(d.QuoteIdent("c")) }},
	{"count_distinct", func(d warehouse.Dialect) string { return withEstimate(d.CountDistinct(d.QuoteIdent("c"), false)) }},
	{"count_distinct_approx", func(d warehouse.Dialect) string { return withEstimate(d.CountDistinct(d.QuoteIdent("c"), true)) }},
	{"quantiles", func(d warehouse.Dialect) string {
		frags, est := d.Quantiles(d.Numeric(d.QuoteIdent("c")), []float64{0.25, 0.5, 0.75, 0.95})
		if frags == nil {
			return "(no aggregate: QuantileByOffset)"
		}
		return withEstimate(strings.Join(frags, ", "), est)
	}},
	{"ranked_values", func(d warehouse.Dialect) string {
		return d.RankedValues(d.QuoteTable(warehouse.TableName{Name: "orders"}), d.QuoteIdent("c"), []float64{0.5, 0, 1})
	}},
	{"text_length", func(d warehouse.Dialect) string { return d.TextLength(d.QuoteIdent("c")) }},
	{"date_part_year", func(d warehouse.Dialect) string { return d.DatePart(warehouse.PartYear, d.QuoteIdent("at")) }},
	{"date_part_month", func(d warehouse.Dialect) string { return d.DatePart(warehouse.PartMonth, d.QuoteIdent("at")) }},
	{"date_part_dow", func(d warehouse.Dialect) string { return d.DatePart(warehouse.PartDOW, d.QuoteIdent("at")) }},
	{"date_part_hour", func(d warehouse.Dialect) string { return d.DatePart(warehouse.PartHour, d.QuoteIdent("at")) }},
	{"date_part_date", func(d warehouse.Dialect) string { return d.DatePart(warehouse.PartDate, d.QuoteIdent("at")) }},
	{"limit", func(d warehouse.Dialect) string { return d.Limit(200) }},
	{"sample", func(d warehouse.Dialect) string {
		return d.Sample(warehouse.TableName{Name: "orders"}, 1000, 30000)
	}},
	{"sample_within_ten", func(d warehouse.Dialect) string {
		return d.Sample(warehouse.TableName{Name: "orders"}, 1000, 10000)
	}},
	{"sample_large", func(d warehouse.Dialect) string {
		return d.Sample(warehouse.TableName{Schema: "sales", Name: "events"}, 1000, 2_000_000_000)
	}},
	{"sample_catalog", func(d warehouse.Dialect) string {
		return d.Sample(warehouse.TableName{Schema: "hive.sales", Name: "events"}, 500, 1_000_000)
	}},
	{"sample_whole_table", func(d warehouse.Dialect) string {
		return d.Sample(warehouse.TableName{Name: "orders"}, 1000, 800)
	}},
	{"sample_unknown_total", func(d warehouse.Dialect) string {
		return d.Sample(warehouse.TableName{Name: "orders"}, 1000, 0)
	}},
	{"sample_from_view", func(d warehouse.Dialect) string {
		return d.SampleFrom(d.QuoteTable(warehouse.TableName{Name: "orders_v"}), 1000, 30000)
	}},
	{"sample_profile", func(d warehouse.Dialect) string {
		// How an expert uses a sample: columns unqualified or as s.col.
		c := d.QuoteIdent("amount")
		dc, _ := d.CountDistinct(c, true)
		return "SELECT COUNT(*), " + dc + ", AVG(" + d.Numeric("s."+c) + ") FROM " +
			d.Sample(warehouse.TableName{Name: "orders"}, 1000, 30000)
	}},
	{"quantile_one", func(d warehouse.Dialect) string {
		frags, est := d.Quantiles(d.QuoteIdent("c"), []float64{0.5})
		if frags == nil {
			return "(no aggregate: QuantileByOffset)"
		}
		return withEstimate(strings.Join(frags, ", "), est)
	}},
	{"blank", func(d warehouse.Dialect) string { return d.Blank(d.CastText(d.QuoteIdent("c"))) }},
	{"folded_in", func(d warehouse.Dialect) string {
		return d.FoldedIn(d.CastText(d.QuoteIdent("c")), []string{"n/a", "it's", "unknown", "?", "0000-00-00 00:00:00"})
	}},
	{"folded_in_not_lower_ascii", func(d warehouse.Dialect) string {
		return d.FoldedIn(d.QuoteIdent("c"), []string{"n/a", "Ünknown"})
	}},
	{"approx_quantiles", func(d warehouse.Dialect) string {
		frags, est := d.ApproxQuantiles(d.Numeric(d.QuoteIdent("c")), []float64{0.25, 0.5, 0.75, 0.95})
		if frags == nil {
			return "(no aggregate: QuantileByOffset)"
		}
		return withEstimate(strings.Join(frags, ", "), est)
	}},
	{"hll_registers", func(d warehouse.Dialect) string {
		sql, ok := d.HLLRegisters(d.QuoteTable(warehouse.TableName{Name: "orders"}), d.QuoteIdent("c"), "character varying(20)", 16)
		if !ok {
			return "(none: counted otherwise)"
		}
		return sql
	}},
	{"hll_registers_bigint", func(d warehouse.Dialect) string {
		sql, ok := d.HLLRegisters(d.QuoteTable(warehouse.TableName{Name: "orders"}), d.QuoteIdent("c"), "bigint", 16)
		if !ok {
			return "(none: counted otherwise)"
		}
		return sql
	}},
	{"hll_registers_numeric", func(d warehouse.Dialect) string {
		sql, ok := d.HLLRegisters(d.QuoteTable(warehouse.TableName{Name: "orders"}), d.QuoteIdent("c"), "numeric(12,2)", 16)
		if !ok {
			return "(none: counted otherwise)"
		}
		return sql
	}},
}

func withEstimate(sql string, estimate bool) string {
	if estimate {
		return sql + " [estimate]"
	}
	return sql
}

// TestDialectGolden renders every builder call for every dialect and
// compares the result with testdata/dialect/<dialect>.golden byte for byte.
// Trino and DuckDB cannot run here: these files are their only check, so a
// change to them deserves a careful read. go test ./warehouse -run Dialect
// -update rewrites them.
func TestDialectGolden(t *testing.T) {
	for _, name := range dialectNames {
		t.Run(name, func(t *testing.T) {
			d := mustDialect(t, name)
			var b strings.Builder
			for _, c := range goldenCalls {
				fmt.Fprintf(&b, "%s: %s\n", c.name, c.call(d))
			}
			path := filepath.Join("testdata", "dialect", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./warehouse -run Dialect -update)", err)
			}
			if got := b.String(); got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := 0; i < max(len(gl), len(wl)); i++ {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Errorf("%s:%d\n got %s\nwant %s", path, i+1, g, w)
					}
				}
			}
		})
	}
}

// TestDialectPassesGuard checks that statements built from every builder
// are ones the guard lets through: the experts' queries go through it too.
func TestDialectPassesGuard(t *testing.T) {
	for _, name := range dialectNames {
		d := mustDialect(t, name)
		orders := warehouse.TableName{Schema: "hive.sales", Name: "orders"}
		c := d.QuoteIdent("c")
		sel := []string{d.CastText(c), d.Numeric(c), d.TextLength(c),
			"COUNT(CASE WHEN " + d.Blank(c) + " THEN 1 END)", "COUNT(CASE WHEN " + d.FoldedIn(c, []string{"n/a", "?"}) + " THEN 1 END)"}
		for _, approx := range []bool{false, true} {
			dc, _ := d.CountDistinct(c, approx)
			sel = append(sel, dc)
		}
		qs, _ := d.Quantiles(d.Numeric(c), []float64{0.5, 0.95})
		sel = append(sel, qs...)
		qs, _ = d.ApproxQuantiles(d.Numeric(c), []float64{0.5, 0.95})
		sel = append(sel, qs...)
		for _, p := range allParts {
			sel = append(sel, d.DatePart(p, c))
		}
		stmts := []string{
			"SELECT " + strings.Join(sel, ", ") + " FROM " + d.Sample(orders, 1000, 30000),
			"SELECT COUNT(*) FROM " + d.Sample(orders, 1000, 2_000_000_000),
			"SELECT COUNT(*) FROM " + d.Sample(orders, 1000, 0),
			"SELECT COUNT(*) FROM " + d.SampleFrom("(SELECT * FROM "+d.QuoteTable(orders)+") o", 1000, 30000),
			d.RankedValues(d.QuoteTable(orders), c, []float64{0.25, 0.5}),
			"SELECT " + c + " FROM " + d.QuoteTable(orders) + " " + d.Limit(5),
		}
		for _, q := range stmts {
			if err := d.Grammar().Check(q); err != nil {
				t.Errorf("%s: %v\n%s", name, err, q)
			}
		}
	}
}

func TestDialectFor(t *testing.T) {
	for _, name := range append(dialectNames, "sqlite3", "PostgreSQL", "mariadb") {
		if _, err := connect.DialectFor(name); err != nil {
			t.Errorf("DialectFor(%q): %v", name, err)
		}
	}
	if d := mustDialect(t, "mariadb"); d.Name() != "mysql" {
		t.Errorf("mariadb speaks %q", d.Name())
	}
	for _, name := range []string{"", "oracle", "sqlite4"} {
		if _, err := connect.DialectFor(name); !errors.Is(err, warehouse.ErrBadInput) {
			t.Errorf("DialectFor(%q) = %v, want ErrBadInput", name, err)
		}
	}
}

func TestQuantileOffset(t *testing.T) {
	cases := []struct {
		p    float64
		n    int64
		want int64
	}{
		{0.5, 101, 50}, {0.25, 101, 25}, {0.95, 101, 95}, {0, 10, 0}, {1, 10, 9},
		{0.5, 10, 5}, {0.5, 1, 0}, {0.5, 0, 0}, {-1, 10, 0}, {2, 10, 9},
	}
	for _, c := range cases {
		if got := warehouse.QuantileOffset(c.p, c.n); got != c.want {
			t.Errorf("QuantileOffset(%v, %d) = %d, want %d", c.p, c.n, got, c.want)
		}
	}
}

func TestDatePartPanicsOnUnknownPart(t *testing.T) {
	for _, name := range dialectNames {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: DatePart(\"week\") did not panic", name)
				}
			}()
			mustDialect(t, name).DatePart("week", "x")
		}()
	}
}

// ---------------------------------------------------------------------------
// The builders' SQL run for real: SQLite always, PostgreSQL and MySQL when
// their test servers are configured (in CI they must be).

// engineFixture is what differs in building the test tables on one engine.
type engineFixture struct {
	d         warehouse.Dialect
	conn      *sql.Conn
	schema    string // qualifies the tables, to exercise QuoteTable with a schema
	temp      string // "TEMPORARY " where the tables are the session's own
	intType   string
	textType  string
	timeType  string
	hasView   bool // a view may be built over the test tables
	badIsNull bool // DatePart of text that is no date is NULL rather than an error
}

func TestDialectSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "dialect.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &engineFixture{d: mustDialect(t, "sqlite"), conn: pin(t, db), intType: "INTEGER", textType: "TEXT",
		timeType: "TEXT", hasView: true, badIsNull: true}
	runFigures(t, f)

	// What only SQLite stores: text in a numeric column, and dates as text
	// in several ISO-8601 spellings or as Unix seconds.
	ctx := context.Background()
	d := f.d
	mixed := d.QuoteTable(warehouse.TableName{Name: "mixed"})
	mustExec(t, f.conn, "CREATE TABLE "+mixed+" (v)", "INSERT INTO "+mixed+" VALUES (1), (2), ('oops'), (3.5), ('4')")
	var avg float64
	var n int64
	if err := f.conn.QueryRowContext(ctx, "SELECT AVG("+d.Numeric("v")+"), COUNT("+d.Numeric("v")+") FROM "+mixed).Scan(&avg, &n); err != nil {
		t.Fatal(err)
	}
	if n != 3 || math.Abs(avg-6.5/3) > 1e-12 {
		t.Errorf("Numeric over 1, 2, 'oops', 3.5, '4': avg %v of %d values, want 6.5/3 of 3", avg, n)
	}
	for _, lit := range []string{"'2024-01-07T10:30:00Z'", "'2024-01-07T10:30:00.123'", "1704623400"} {
		checkParts(t, f, "SELECT %s", lit, sunday)
	}
	checkParts(t, f, "SELECT %s", "'2024-01-07'", datePartsRow{2024, 1, 0, 0, "2024-01-07"})
}

func TestDialectPostgres(t *testing.T) {
	dsn := serverDSN(t, "DISCOVER_TEST_POSTGRES")
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// Temporary tables live in the session's own schema, which pg_temp names.
	runFigures(t, &engineFixture{d: mustDialect(t, "postgres"), conn: pin(t, db), schema: "pg_temp", temp: "TEMPORARY ",
		intType: "INTEGER", textType: "TEXT", timeType: "TIMESTAMP", hasView: true})
}

func TestDialectMySQL(t *testing.T) {
	raw := serverDSN(t, "DISCOVER_TEST_MYSQL")
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("DISCOVER_TEST_MYSQL: %v", err)
	}
	cfg := mysql.NewConfig()
	cfg.User = u.User.Username()
	cfg.Passwd, _ = u.User.Password()
	cfg.Net, cfg.Addr = "tcp", u.Host
	cfg.DBName = strings.TrimPrefix(u.Path, "/")
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// MySQL builds no view over a temporary table; SampleFrom is checked on
	// a subquery instead. The column's character set is explicit so that
	// CHAR_LENGTH and LENGTH differ on 'héllo' whatever the server default.
	runFigures(t, &engineFixture{d: mustDialect(t, "mysql"), conn: pin(t, db), schema: cfg.DBName, temp: "TEMPORARY ",
		intType: "INT", textType: "VARCHAR(64) CHARACTER SET utf8mb4", timeType: "DATETIME", badIsNull: true})
}

// TestDialectDuckDB runs the figures on an in-memory DuckDB, and checks
// that the fast forms of Blank and FoldedIn agree with TRIM and LOWER, which
// they replace, on every Unicode character.
func TestDialectDuckDB(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &engineFixture{d: mustDialect(t, "duckdb"), conn: pin(t, db), schema: "main", intType: "INTEGER",
		textType: "VARCHAR", timeType: "TIMESTAMP", hasView: true, badIsNull: true}
	runFigures(t, f)

	d := f.d
	placeholders := []string{"n/a", "null", "-", "none", "unknown", "?", "1970-01-01", "0000-00-00",
		"1970-01-01 00:00:00", "0000-00-00 00:00:00", "it's"}
	lits := make([]string, len(placeholders))
	for i, p := range placeholders {
		lits[i] = "'" + strings.ReplaceAll(p, "'", "''") + "'"
	}
	// Each template is a string with # standing for the character c: c
	// alone, doubled, as padding, and in the place of each letter of a
	// placeholder, where LOWER might fold it into the letter.
	templates := []string{"#", "##", "# ", " #", "#null#", "un#nown", "unkno#n", "#/a", "n/#", "nu#l", "no#e",
		"#one", "i#'s", "#t's", "it'#", " #-#", "#?", "1970-01-01#00:00:00", "NULL#", "#N/A"}
	tmpl := make([]string, len(templates))
	for i, s := range templates {
		tmpl[i] = "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	// Every code point of the BMP but the surrogates, which are no
	// characters, in every template; beyond the BMP, where no character is
	// a space or folds to ASCII, in the first five.
	q := `SELECT COUNT(*),
		COUNT(*) FILTER (WHERE (` + d.Blank("s") + `) IS DISTINCT FROM (TRIM(s) = '')),
		COUNT(*) FILTER (WHERE (` + d.FoldedIn("s", placeholders) + `) IS DISTINCT FROM (LOWER(TRIM(s)) IN (` + strings.Join(lits, ", ") + `))),
		COUNT(*) FILTER (WHERE ` + d.Blank("s") + `),
		COUNT(*) FILTER (WHERE ` + d.FoldedIn("s", placeholders) + `)
		FROM (SELECT replace(t, '#', chr(cp::INTEGER)) AS s
			FROM (SELECT * FROM range(0, 55296) r(cp) UNION ALL SELECT * FROM range(57344, 65536) r(cp)) c,
			(SELECT unnest([` + strings.Join(tmpl, ", ") + `]) AS t) t
			UNION ALL SELECT replace(t, '#', chr(cp::INTEGER)) AS s
			FROM range(65536, 1114112) c(cp), (SELECT unnest([` + strings.Join(tmpl[:5], ", ") + `]) AS t) t
			UNION ALL SELECT NULL)`
	var n, blankDiff, foldDiff, blank, fold int64
	if err := f.conn.QueryRowContext(context.Background(), q).Scan(&n, &blankDiff, &foldDiff, &blank, &fold); err != nil {
		t.Fatal(err)
	}
	if blankDiff != 0 || foldDiff != 0 {
		t.Errorf("over %d strings, Blank differs from TRIM(s) = '' on %d, FoldedIn from LOWER(TRIM(s)) IN (…) on %d", n, blankDiff, foldDiff)
	}
	// The check must have met the cases it is about: the 17 Zs characters
	// alone, doubled and padded (4 each, the space counted once per form),
	// and the placeholders spelt with them, upper case, U+0130 and U+212A.
	if blank < 17*4 || fold < 100 {
		t.Errorf("only %d blank and %d placeholder strings among %d: the check proves little", blank, fold, n)
	}
}

// serverDSN returns the server's DSN from env, skipping the test when it is
// unset, except in CI, where every engine must be tested.
func serverDSN(t *testing.T, env string) string {
	t.Helper()
	dsn := os.Getenv(env)
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set (CI runs every engine: eval \"$(.ci/start-servers)\")", env)
		}
		t.Skipf("%s is not set", env)
	}
	return dsn
}

// pin holds one connection for the whole test: temporary tables belong to
// the session that made them.
func pin(t *testing.T, db *sql.DB) *sql.Conn {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func mustExec(t *testing.T, conn *sql.Conn, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := conn.ExecContext(context.Background(), s); err != nil {
			t.Fatalf("%.200s: %v", s, err)
		}
	}
}

type datePartsRow struct {
	year, month, dow, hour int64
	date                   string
}

var (
	sunday   = datePartsRow{2024, 1, 0, 10, "2024-01-07"}  // 2024-01-07 10:30:00
	saturday = datePartsRow{2023, 12, 6, 23, "2023-12-30"} // 2023-12-30 23:59:59
)

var allParts = []warehouse.TimePart{warehouse.PartYear, warehouse.PartMonth, warehouse.PartDOW, warehouse.PartHour, warehouse.PartDate}

// checkParts runs query, a format whose %s is replaced by the five DatePart
// fragments of expr, and compares its one row with want.
func checkParts(t *testing.T, f *engineFixture, query, expr string, want datePartsRow) {
	t.Helper()
	sel := make([]string, len(allParts))
	for i, p := range allParts {
		sel[i] = f.d.DatePart(p, expr)
	}
	q := fmt.Sprintf(query, strings.Join(sel, ", "))
	var got datePartsRow
	if err := f.conn.QueryRowContext(context.Background(), q).Scan(&got.year, &got.month, &got.dow, &got.hour, &got.date); err != nil {
		t.Errorf("%s: %v", q, err)
		return
	}
	if got != want {
		t.Errorf("DatePart of %s = %+v, want %+v", expr, got, want)
	}
}

// runFigures builds small tables with known figures and checks what the
// builders compute on them; the same body runs on every engine.
func runFigures(t *testing.T, f *engineFixture) {
	ctx := context.Background()
	d := f.d
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	prefix := "dialect_" + hex.EncodeToString(rnd[:]) + "_"
	table := func(name string) string {
		return d.QuoteTable(warehouse.TableName{Schema: f.schema, Name: prefix + name})
	}
	nums, words, times, big, view := table("nums"), table("words"), table("times"), table("big"), table("big_v")
	v := d.QuoteIdent("odd `\" v") // both quote characters, doubled or not by dialect
	t.Cleanup(func() {
		if f.hasView {
			_, _ = f.conn.ExecContext(ctx, "DROP VIEW IF EXISTS "+view)
		}
		for _, tb := range []string{nums, words, times, big} {
			_, _ = f.conn.ExecContext(ctx, "DROP "+f.temp+"TABLE IF EXISTS "+tb)
		}
	})

	values := func(n int, row func(i int) string) string {
		rows := make([]string, n)
		for i := range rows {
			rows[i] = "(" + row(i) + ")"
		}
		return strings.Join(rows, ", ")
	}
	mustExec(t, f.conn,
		"CREATE "+f.temp+"TABLE "+nums+" (id "+f.intType+", "+v+" "+f.intType+")",
		// 1…101 and a NULL: the quantiles fall on whole ranks.
		"INSERT INTO "+nums+" VALUES (0, NULL), "+values(101, func(i int) string { return fmt.Sprintf("%d, %d", i+1, i+1) }),
		"CREATE "+f.temp+"TABLE "+words+" (w "+f.textType+")",
		"INSERT INTO "+words+" VALUES ('héllo'), ('a'), ('a'), ('b'), (NULL)",
		"CREATE "+f.temp+"TABLE "+times+" (ts "+f.timeType+", txt "+f.textType+")",
		"INSERT INTO "+times+" VALUES ('2024-01-07 10:30:00', '2024-01-07 10:30:00'), ('2023-12-30 23:59:59', '2023-12-30T23:59:59')",
		"CREATE "+f.temp+"TABLE "+big+" (i "+f.intType+")",
		"INSERT INTO "+big+" VALUES "+values(10000, func(i int) string { return fmt.Sprint(i + 1) }),
	)
	if f.hasView {
		mustExec(t, f.conn, "CREATE "+f.temp+"VIEW "+view+" AS SELECT * FROM "+big)
	}

	scan := func(q string, dest ...any) bool {
		t.Helper()
		if err := f.conn.QueryRowContext(ctx, q).Scan(dest...); err != nil {
			t.Errorf("%s: %v", q, err)
			return false
		}
		return true
	}

	t.Run("numeric", func(t *testing.T) {
		var avg float64
		var text string
		if scan("SELECT AVG("+d.Numeric(v)+") FROM "+nums, &avg) && avg != 51 {
			t.Errorf("AVG(Numeric) = %v, want 51", avg)
		}
		if scan("SELECT "+d.CastText(v)+" FROM "+nums+" WHERE "+v+" = 7", &text) && text != "7" {
			t.Errorf("CastText(7) = %q", text)
		}
	})

	t.Run("count_distinct", func(t *testing.T) {
		for _, approx := range []bool{false, true} {
			dv, est := d.CountDistinct(v, approx)
			dw, _ := d.CountDistinct("w", approx)
			var nv, nw int64
			// A sketch may miss by a little (DuckDB's counts 100 here);
			// an exact count may not.
			if scan("SELECT "+dv+" FROM "+nums, &nv) && (nv != 101 && !est || est && (nv < 96 || nv > 106)) {
				t.Errorf("CountDistinct(approx %v) over nums = %d, want 101", approx, nv)
			}
			if scan("SELECT "+dw+" FROM "+words, &nw) && nw != 3 {
				t.Errorf("CountDistinct(approx %v) over words = %d, want 3", approx, nw)
			}
		}
	})

	t.Run("quantiles", func(t *testing.T) {
		ps := []float64{0.25, 0.5, 0.75, 0.95}
		want := []float64{26, 51, 76, 96}
		expr := d.Numeric(v)
		if frags, _ := d.Quantiles(expr, ps); frags != nil {
			got := make([]float64, len(frags))
			dest := make([]any, len(frags))
			for i := range got {
				dest[i] = &got[i]
			}
			if scan("SELECT "+strings.Join(frags, ", ")+" FROM "+nums, dest...) {
				for i := range got {
					if got[i] != want[i] {
						t.Errorf("Quantiles p%v = %v, want %v", ps[i]*100, got[i], want[i])
					}
				}
			}
		} else if d.Name() == "postgres" {
			t.Error("postgres has percentile_cont")
		}
		// A sketch lands near the exact figures (DuckDB's t-digest within a
		// rank here); without one, ApproxQuantiles is Quantiles.
		exact, _ := d.Quantiles(expr, ps)
		if frags, est := d.ApproxQuantiles(expr, ps); len(frags) != len(exact) {
			t.Errorf("ApproxQuantiles gave %d fragments, Quantiles %d", len(frags), len(exact))
		} else if frags != nil {
			got := make([]float64, len(frags))
			dest := make([]any, len(frags))
			for i := range got {
				dest[i] = &got[i]
			}
			if scan("SELECT "+strings.Join(frags, ", ")+" FROM "+nums, dest...) {
				for i := range got {
					if off := math.Abs(got[i] - want[i]); off > 0 && !est || off > 1 {
						t.Errorf("ApproxQuantiles p%v = %v, want %v (estimate %v)", ps[i]*100, got[i], want[i], est)
					}
				}
			}
		}
		// The fallback runs on every engine, and agrees with percentile_cont
		// where the rank is whole.
		rows, err := f.conn.QueryContext(ctx, d.RankedValues(nums, expr, ps))
		if err != nil {
			t.Fatalf("RankedValues: %v", err)
		}
		at := map[int64]float64{}
		var n int64
		for rows.Next() {
			var rn int64
			var v float64
			if err := rows.Scan(&rn, &v, &n); err != nil {
				t.Fatalf("RankedValues: %v", err)
			}
			at[rn] = v
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("RankedValues: %v", err)
		}
		rows.Close()
		if len(at) > 3*len(ps) {
			t.Errorf("RankedValues returned %d rows for %d fractions", len(at), len(ps))
		}
		for i, p := range ps {
			got, ok := at[warehouse.QuantileOffset(p, n)]
			if !ok || got != want[i] {
				t.Errorf("RankedValues p%v = %v (present %v) of %d, want %v", p*100, got, ok, n, want[i])
			}
		}
	})

	t.Run("blank_and_folded", func(t *testing.T) {
		m := table("marks")
		t.Cleanup(func() { _, _ = f.conn.ExecContext(ctx, "DROP "+f.temp+"TABLE IF EXISTS "+m) })
		mustExec(t, f.conn, "CREATE "+f.temp+"TABLE "+m+" (m "+f.textType+")",
			"INSERT INTO "+m+" VALUES (''), ('   '), ('x'), (' x '), (' N/A '), ('Null'), ('nulls'), ('n /a'), (' ? '), ('it''s'), (NULL)")
		var blank, folded int64
		q := "SELECT COUNT(CASE WHEN " + d.Blank("m") + " THEN 1 END), COUNT(CASE WHEN " +
			d.FoldedIn("m", []string{"n/a", "null", "?", "it's"}) + " THEN 1 END) FROM " + m
		if scan(q, &blank, &folded) && (blank != 2 || folded != 4) {
			t.Errorf("Blank %d, want 2 ('' and '   '); FoldedIn %d, want 4 (' N/A ', 'Null', ' ? ', 'it''s')", blank, folded)
		}
	})

	t.Run("text_length", func(t *testing.T) {
		var n int64
		if scan("SELECT "+d.TextLength("w")+" FROM "+words+" WHERE w LIKE 'h%'", &n) && n != 5 {
			t.Errorf("TextLength('héllo') = %d, want 5 characters", n)
		}
	})

	t.Run("date_part", func(t *testing.T) {
		for _, col := range []string{"ts", "txt"} {
			checkParts(t, f, "SELECT %s FROM "+times+" WHERE ts > '2024-01-01'", col, sunday)
			checkParts(t, f, "SELECT %s FROM "+times+" WHERE ts < '2024-01-01'", col, saturday)
		}
		if f.badIsNull {
			var y sql.NullInt64
			if scan("SELECT "+d.DatePart(warehouse.PartYear, "'not a date'"), &y) && y.Valid {
				t.Errorf("DatePart of 'not a date' = %v, want NULL", y.Int64)
			}
		}
	})

	t.Run("limit", func(t *testing.T) {
		var n int64
		if scan("SELECT COUNT(*) FROM (SELECT i FROM "+big+" ORDER BY i "+d.Limit(3)+") x", &n) && n != 3 {
			t.Errorf("Limit(3) kept %d rows", n)
		}
	})

	t.Run("sample", func(t *testing.T) {
		bigName := warehouse.TableName{Schema: f.schema, Name: prefix + "big"}
		// 1000 of 10000 rows: binomial, σ = 30; ±300 never fails by chance.
		around := func(what, from string) {
			var n, lo int64
			if scan("SELECT COUNT(*), MIN(s.i) FROM "+from, &n, &lo) && (n < 700 || n > 1300 || lo < 1) {
				t.Errorf("%s: %d rows (min i %d), want about 1000: %s", what, n, lo, from)
			}
		}
		around("Sample", d.Sample(bigName, 1000, 10000))
		around("SampleFrom subquery", d.SampleFrom("(SELECT * FROM "+big+") b", 1000, 10000))
		if f.hasView {
			around("SampleFrom view", d.SampleFrom(view, 1000, 10000))
		}
		exact := func(what, from string, want int64) {
			var n int64
			if scan("SELECT COUNT(*) FROM "+from, &n) && n != want {
				t.Errorf("%s: %d rows, want %d: %s", what, n, want, from)
			}
		}
		// A seeded sample draws the same rows every time.
		if d.Name() == "postgres" || d.Name() == "mysql" {
			var a, b, sa, sb int64
			q := "SELECT COUNT(*), SUM(s.i) FROM " + d.Sample(bigName, 1000, 10000)
			if scan(q, &a, &sa) && scan(q, &b, &sb) && (a != b || sa != sb) {
				t.Errorf("seeded sample differs between queries: %d rows (sum %d), then %d (sum %d)", a, sa, b, sb)
			}
		}
		exact("whole table", d.Sample(bigName, 20000, 10000), 10000)
		exact("unknown total", d.Sample(bigName, 1000, 0), 1000)
		// Told the table is huge, PostgreSQL samples pages: only check it runs.
		var n int64
		if scan("SELECT COUNT(*) FROM "+d.Sample(bigName, 1000, 20_000_000), &n) && n > 10000 {
			t.Errorf("huge sample: %d rows", n)
		}
	})
}
