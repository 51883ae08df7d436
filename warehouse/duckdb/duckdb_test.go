package duckdb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
)

// fixture is the schema of the test database: every shape Tables must get
// right, names that need quoting, and one row of every type Query converts.
func fixture(side string) []string {
	return []string{
		`CREATE TABLE customer (id INTEGER PRIMARY KEY, email VARCHAR NOT NULL UNIQUE, name VARCHAR)`,
		`CREATE INDEX cust_name ON customer (name)`,
		`CREATE UNIQUE INDEX cust_name_email ON customer (name, email)`,
		`CREATE INDEX cust_expr ON customer ((lower(email)), name)`,
		`CREATE TABLE "order items" (order_id INTEGER, line INTEGER, sku VARCHAR, qty INTEGER, PRIMARY KEY (order_id, line))`,
		`CREATE TABLE shipment_line (ship_id INTEGER, order_id INTEGER, line INTEGER,
			FOREIGN KEY (order_id, line) REFERENCES "order items" (order_id, line))`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer (id),
			amount DECIMAL(10,2), placed DATE, paid TIMESTAMP, ref UUID, tags VARCHAR[],
			addr STRUCT(city VARCHAR, zip INTEGER), photo BLOB, big HUGEINT, huge HUGEINT,
			ratio FLOAT, score DOUBLE, small TINYINT, ubig UBIGINT, ok BOOLEAN,
			attrs MAP(VARCHAR, INTEGER), tz TIMESTAMPTZ, dur INTERVAL, clock TIME, doc JSON)`,
		`CREATE TABLE "select" ("from" VARCHAR, "where" INTEGER, UNIQUE ("from", "where"))`,
		`CREATE TABLE "say ""hi""" (k VARCHAR PRIMARY KEY, "Mixed Case" INTEGER)`,
		`CREATE SCHEMA sales`,
		`CREATE TABLE sales.region (id INTEGER PRIMARY KEY, name VARCHAR)`,
		`CREATE TABLE sales.rep (id INTEGER, region_id INTEGER REFERENCES sales.region (id))`,
		`CREATE VIEW "big orders" AS SELECT o.id, c.email FROM orders AS o JOIN customer AS c ON c.id = o.customer_id WHERE o.amount > 10`,
		// A view over a file outside the database: with file access off it
		// cannot read, so Tables leaves it out and Skipped says why.
		`CREATE VIEW ext AS SELECT * FROM read_csv_auto(` + quoteString(side) + `)`,
		`INSERT INTO customer VALUES (1, 'a@x.org', 'Ann'), (2, 'b@x.org', 'Bob'), (3, 'c@x.org', NULL)`,
		`INSERT INTO "order items" VALUES (10, 1, 'S1', 2), (10, 2, 'S2', 1), (11, 1, 'S1', 5)`,
		`INSERT INTO shipment_line VALUES (1, 10, 1), (1, 10, 2)`,
		`INSERT INTO orders VALUES
			(10, 1, 12.50, DATE '2024-01-31', TIMESTAMP '2024-01-31 10:11:12', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
			 ['x', NULL, 'y'], {'city': 'Oslo', 'zip': 150}, '\x00\xFF\x10'::BLOB,
			 42, 170141183460469231731687303715884105727, 1.1, 2.5, -3, 18446744073709551615, true,
			 MAP {'a': 1, 'b': 2}, TIMESTAMPTZ '2024-01-31 10:11:12.5+00', INTERVAL '1 year 2 months 3 days 04:05:06',
			 TIME '13:14:15', '{"k": [1, 2]}'),
			(11, 2, 5.00, 'infinity', NULL, NULL, [], NULL, NULL, NULL, NULL, NULL, 'NaN', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
		`INSERT INTO "select" VALUES ('a', 1), ('b', 2)`,
		`INSERT INTO "say ""hi""" VALUES ('x', 1)`,
		`INSERT INTO sales.region VALUES (1, 'North')`,
		`INSERT INTO sales.rep VALUES (1, 1), (2, NULL)`,
	}
}

// build writes the fixture with its own writable connection, closed
// before the test opens the file read-only.
func build(t testing.TB, name string) string {
	t.Helper()
	dir := t.TempDir()
	side := filepath.Join(t.TempDir(), "side.csv")
	if err := os.WriteFile(side, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	exec(t, path, fixture(side)...)
	return path
}

// exec runs statements on a writable DuckDB at path ("" for in memory).
func exec(t testing.TB, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func open(t testing.TB, dsn string) *Source {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func tbl(schema, name, kind string) warehouse.Table {
	return warehouse.Table{
		Name: warehouse.TableName{Schema: schema, Name: name}, Kind: kind,
		Columns: []warehouse.Column{}, PrimaryKey: []string{}, ForeignKeys: []warehouse.ForeignKey{},
		Uniques: [][]string{}, Indexes: []warehouse.Index{},
	}
}

func cols(spec ...string) []warehouse.Column {
	var out []warehouse.Column
	for i, s := range spec {
		name, typ, _ := strings.Cut(s, ":")
		nullable := !strings.HasSuffix(typ, "!")
		out = append(out, warehouse.Column{Name: name, Type: strings.TrimSuffix(typ, "!"), Nullable: nullable, Position: i + 1})
	}
	return out
}

func TestTablesFixture(t *testing.T) {
	s := open(t, "duckdb://"+build(t, "shop.duckdb"))
	if s.Dialect().Name() != "duckdb" || s.Database() != "shop" {
		t.Errorf("Dialect, Database = %q, %q", s.Dialect().Name(), s.Database())
	}
	tables, err := s.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}

	customer := tbl("", "customer", "table")
	customer.Columns = cols("id:INTEGER!", "email:VARCHAR!", "name:VARCHAR")
	customer.PrimaryKey, customer.PrimaryKeyName = []string{"id"}, "customer_id_pkey"
	customer.Uniques = [][]string{{"email"}, {"name", "email"}}
	customer.Indexes = []warehouse.Index{
		{Name: "cust_expr", Columns: []string{"(lower(email))", "name"},
			Definition: `CREATE INDEX cust_expr ON customer((lower(email)), "name")`},
		{Name: "cust_name", Columns: []string{"name"}, Definition: `CREATE INDEX cust_name ON customer("name")`},
		{Name: "cust_name_email", Columns: []string{"name", "email"}, Unique: true,
			Definition: `CREATE UNIQUE INDEX cust_name_email ON customer("name", email)`},
	}
	items := tbl("", "order items", "table")
	items.Columns = cols("order_id:INTEGER!", "line:INTEGER!", "sku:VARCHAR", "qty:INTEGER")
	items.PrimaryKey, items.PrimaryKeyName = []string{"order_id", "line"}, "order items_order_id_line_pkey"
	ship := tbl("", "shipment_line", "table")
	ship.Columns = cols("ship_id:INTEGER", "order_id:INTEGER", "line:INTEGER")
	ship.ForeignKeys = []warehouse.ForeignKey{{
		Name: "shipment_line_order_id_line_order_id_line_fkey", Columns: []string{"order_id", "line"},
		RefTable: warehouse.TableName{Name: "order items"}, RefColumns: []string{"order_id", "line"},
		OnDelete: "NO ACTION", OnUpdate: "NO ACTION",
	}}
	orders := tbl("", "orders", "table")
	orders.Columns = cols("id:INTEGER!", "customer_id:INTEGER", "amount:DECIMAL(10,2)", "placed:DATE", "paid:TIMESTAMP",
		"ref:UUID", "tags:VARCHAR[]", "addr:STRUCT(city VARCHAR, zip INTEGER)", "photo:BLOB", "big:HUGEINT", "huge:HUGEINT",
		"ratio:FLOAT", "score:DOUBLE", "small:TINYINT", "ubig:UBIGINT", "ok:BOOLEAN", "attrs:MAP(VARCHAR, INTEGER)",
		"tz:TIMESTAMP WITH TIME ZONE", "dur:INTERVAL", "clock:TIME", "doc:JSON")
	orders.PrimaryKey, orders.PrimaryKeyName = []string{"id"}, "orders_id_pkey"
	orders.ForeignKeys = []warehouse.ForeignKey{{
		Name: "orders_customer_id_id_fkey", Columns: []string{"customer_id"},
		RefTable: warehouse.TableName{Name: "customer"}, RefColumns: []string{"id"},
		OnDelete: "NO ACTION", OnUpdate: "NO ACTION",
	}}
	sel := tbl("", "select", "table")
	sel.Columns = cols("from:VARCHAR", "where:INTEGER")
	sel.Uniques = [][]string{{"from", "where"}}
	hi := tbl("", `say "hi"`, "table")
	hi.Columns = cols("k:VARCHAR!", "Mixed Case:INTEGER")
	hi.PrimaryKey, hi.PrimaryKeyName = []string{"k"}, `say "hi"_k_pkey`
	view := tbl("", "big orders", "view")
	view.Columns = cols("id:INTEGER", "email:VARCHAR")
	view.Definition = "SELECT o.id, c.email FROM orders AS o INNER JOIN customer AS c ON ((c.id = o.customer_id)) WHERE (o.amount > 10)"
	view.Reads = []warehouse.TableName{{Name: "customer"}, {Name: "orders"}}
	region := tbl("sales", "region", "table")
	region.Columns = cols("id:INTEGER!", "name:VARCHAR")
	region.PrimaryKey, region.PrimaryKeyName = []string{"id"}, "region_id_pkey"
	rep := tbl("sales", "rep", "table")
	rep.Columns = cols("id:INTEGER", "region_id:INTEGER")
	rep.ForeignKeys = []warehouse.ForeignKey{{
		Name: "rep_region_id_id_fkey", Columns: []string{"region_id"},
		RefTable: warehouse.TableName{Schema: "sales", Name: "region"}, RefColumns: []string{"id"},
		OnDelete: "NO ACTION", OnUpdate: "NO ACTION",
	}}

	want := []warehouse.Table{view, customer, items, orders, hi, sel, ship, region, rep}
	if len(tables) != len(want) {
		var names []string
		for _, tb := range tables {
			names = append(names, tb.Name.String())
		}
		t.Fatalf("tables = %q", names)
	}
	for i := range want {
		// A table's CREATE TABLE is DuckDB's own text, asserted whole in
		// TestTablesStructure; here, that each table has its own and a
		// view none.
		create := tables[i].CreateStatement
		if prefix := "CREATE TABLE "; (want[i].Kind == "table") != strings.HasPrefix(create, prefix) ||
			want[i].Kind == "table" && !strings.Contains(create, want[i].Columns[0].Name) {
			t.Errorf("table %d: CreateStatement %q", i, create)
		}
		tables[i].CreateStatement = ""
		if !reflect.DeepEqual(tables[i], want[i]) {
			t.Errorf("table %d:\n got %+v\nwant %+v", i, tables[i], want[i])
		}
	}

	skipped, err := s.Skipped(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Table.Name != "ext" || !strings.Contains(skipped[0].Reason, "disabled by configuration") {
		t.Errorf("skipped = %+v; want the view over an outside file", skipped)
	}
}

func TestRowCountAndEstimate(t *testing.T) {
	s := open(t, build(t, "shop.duckdb"))
	ctx := context.Background()
	for name, n := range map[warehouse.TableName]int64{
		{Name: "order items"}: 3, {Name: "select"}: 2, {Name: `say "hi"`}: 1,
		{Name: "big orders"}: 1, {Schema: "sales", Name: "rep"}: 2, {Name: "orders"}: 2,
	} {
		got, err := s.RowCount(ctx, name)
		if err != nil || got != n {
			t.Errorf("RowCount(%s) = %d, %v; want %d", name, got, err, n)
		}
		res, err := s.Query(ctx, "SELECT * FROM "+s.QuoteTable(name), warehouse.QueryOptions{})
		if err != nil || int64(len(res.Rows)) != n {
			t.Errorf("Query(%s): %v", name, err)
		}
	}
	if n, exact, err := s.EstimateRows(ctx, warehouse.TableName{Name: "customer"}); err != nil || n != 3 || exact {
		t.Errorf("EstimateRows(customer) = %d, %v, %v", n, exact, err)
	}
	if n, _, err := s.EstimateRows(ctx, warehouse.TableName{Schema: "sales", Name: "rep"}); err != nil || n != 2 {
		t.Errorf("EstimateRows(sales.rep) = %d, %v", n, err)
	}
	if _, _, err := s.EstimateRows(ctx, warehouse.TableName{Name: "big orders"}); err == nil {
		t.Error("EstimateRows of a view should send the caller to RowCount")
	}
	if _, err := s.RowCount(ctx, warehouse.TableName{Name: "nope"}); err == nil {
		t.Error("RowCount of a missing table succeeded")
	}
	if q := s.QuoteIdent(`say "hi"`); q != `"say ""hi"""` {
		t.Errorf("QuoteIdent = %s", q)
	}
	if q := s.QuoteTable(warehouse.TableName{Schema: "sales", Name: "a.b"}); q != `"sales"."a.b"` {
		t.Errorf("QuoteTable = %s", q)
	}
}

func TestQueryValues(t *testing.T) {
	s := open(t, build(t, "shop.duckdb"))
	res, err := s.Query(context.Background(), `SELECT * EXCLUDE (customer_id) FROM orders ORDER BY id`, warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]any{
		"id":     {int64(10), int64(11)},
		"amount": {"12.50", "5.00"},
		"placed": {"2024-01-31", "infinity"},
		"paid":   {"2024-01-31 10:11:12", nil},
		"ref":    {"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", nil},
		"tags":   {`["x",null,"y"]`, `[]`},
		"addr":   {`{"city":"Oslo","zip":150}`, nil},
		"photo":  {[]byte{0, 0xff, 0x10}, nil},
		"big":    {int64(42), nil},
		"huge":   {"170141183460469231731687303715884105727", nil},
		"ratio":  {1.1, nil},
		"score":  {2.5, "NaN"},
		"small":  {int64(-3), nil},
		"ubig":   {"18446744073709551615", nil},
		"ok":     {true, nil},
		"attrs":  {`{"a":1,"b":2}`, nil},
		"tz":     {"2024-01-31 10:11:12.5+00", nil},
		"dur":    {"1 year 2 months 3 days 04:05:06", nil},
		"clock":  {"13:14:15", nil},
		"doc":    {`{"k":[1,2]}`, nil},
	}
	if len(res.Columns) != len(want) {
		t.Errorf("columns = %q", res.Columns)
	}
	for i, c := range res.Columns {
		w, ok := want[c]
		if !ok {
			t.Errorf("unexpected column %q", c)
			continue
		}
		for r := range 2 {
			if got := res.Rows[r][i]; !reflect.DeepEqual(got, w[r]) {
				t.Errorf("%s row %d = %#v (%T); want %#v", c, r, got, got, w[r])
			}
		}
	}
	if res.Elapsed <= 0 {
		t.Error("Elapsed not set")
	}

	res, err = s.Query(context.Background(), `SELECT 1::UTINYINT AS a, -2::BIGINT AS b, 3::UHUGEINT AS c,
		-123.456::DECIMAL(38,3) AS d, 0.05::DECIMAL(4,2) AS e, INTERVAL 90 MINUTE AS f, INTERVAL '-1 day' AS g,
		'-infinity'::TIMESTAMP AS h, [DATE '2024-01-02'] AS i, 'x'::ENUM('x', 'y') AS j,
		union_value(n := 7) AS k, [1, 2]::INTEGER[2] AS l, TIMESTAMP_NS '2024-01-02 03:04:05.123456789' AS m,
		TIMETZ '01:02:03+05:30' AS n, '101'::BIT AS o, 'NaN'::FLOAT AS p, 'inf'::DOUBLE AS q, '-inf'::DOUBLE AS r,
		{'b': [{'x': 1.5::DECIMAL(3,1)}], 'a': NULL} AS s, MAP {1: 'one'} AS u`,
		warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantRow := []any{int64(1), int64(-2), int64(3), "-123.456", "0.05", "01:30:00", "-1 day", "-infinity",
		`["2024-01-02"]`, "x", "7", "[1,2]", "2024-01-02 03:04:05.123456789",
		"01:02:03+05:30", "101", "NaN", "Infinity", "-Infinity", `{"a":null,"b":[{"x":1.5}]}`, `{"1":"one"}`}
	if !reflect.DeepEqual(res.Rows[0], wantRow) {
		t.Errorf("row = %#v\nwant  %#v", res.Rows[0], wantRow)
	}
}

// writes are statements that would change the file or touch others.
func writes(dir string) []string {
	return []string{
		`INSERT INTO customer VALUES (9, 'z@x.org', 'Zed')`,
		`UPDATE customer SET name = 'x'`,
		`DELETE FROM "order items"`,
		`CREATE TABLE t2 (a INTEGER)`,
		`CREATE TEMP TABLE t3 (a INTEGER)`,
		`DROP TABLE customer`,
		`ALTER TABLE customer ADD COLUMN z INTEGER`,
		`CREATE INDEX i2 ON customer (name)`,
		`CHECKPOINT`,
		`VACUUM`,
		`ATTACH '` + filepath.Join(dir, "attached.duckdb") + `' AS a2`,
		`COPY customer TO '` + filepath.Join(dir, "out.csv") + `'`,
		`COPY (SELECT 1) TO '` + filepath.Join(dir, "out2.parquet") + `' (FORMAT parquet)`,
		`EXPORT DATABASE '` + filepath.Join(dir, "export") + `'`,
		`INSTALL spatial`,
		`LOAD spatial`,
		`SET enable_external_access = true`,
		`SET lock_configuration = false`,
		`RESET lock_configuration`,
		`PRAGMA enable_checkpoint_on_shutdown`,
		`BEGIN TRANSACTION`,
		`WITH x AS (SELECT 1) INSERT INTO customer SELECT 8, 'y@x.org', 'Y' FROM x`,
		`CREATE SEQUENCE s1`,
		`SELECT nextval('s1')`,
	}
}

// TestFileUnchanged is the promise of the whole tool: discovery leaves the
// database file byte-for-byte as it found it and creates nothing beside it.
func TestFileUnchanged(t *testing.T) {
	path := build(t, "shop.duckdb")
	dir := filepath.Dir(path)
	before, files := digest(t, path), listDir(t, dir)

	s, err := Open(context.Background(), "duckdb://"+path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if _, err := s.RowCount(ctx, tb.Name); err != nil {
			t.Error(err)
		}
		if _, err := s.Query(ctx, "SELECT * FROM "+s.QuoteTable(tb.Name), warehouse.QueryOptions{MaxRows: 5}); err != nil {
			t.Error(err)
		}
	}
	if _, err := s.Query(ctx, "SUMMARIZE customer", warehouse.QueryOptions{}); err != nil {
		t.Error(err)
	}
	for _, w := range writes(dir) {
		if _, err := s.Query(ctx, w, warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("Query(%q) = %v; want ErrRejected", w, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if digest(t, path) != before {
		t.Error("the database file changed")
	}
	if after := listDir(t, dir); !slices.Equal(after, files) {
		t.Errorf("files beside the database: %v; before %v", after, files)
	}
	if !slices.Equal(files, []string{"shop.duckdb"}) {
		t.Errorf("fixture left %v", files)
	}
}

// TestReadOnlyBelowGuard proves the engine's own layer: run is Query
// without the guard, and still nothing writes.
func TestReadOnlyBelowGuard(t *testing.T) {
	path := build(t, "shop.duckdb")
	dir := filepath.Dir(path)
	before := digest(t, path)
	s := open(t, path)
	ctx := context.Background()

	for _, w := range []string{
		`INSERT INTO customer VALUES (9, 'z@x.org', 'Zed')`,
		`UPDATE customer SET name = 'x'`,
		`DROP TABLE shipment_line`,
		`CREATE TABLE t2 (a INTEGER)`,
		`COPY customer TO '` + filepath.Join(dir, "out.csv") + `'`,
		`ATTACH '` + filepath.Join(dir, "attached.duckdb") + `' AS a2`,
		`EXPORT DATABASE '` + filepath.Join(dir, "export") + `'`,
		`SELECT * FROM read_text('/etc/hostname')`,
		`SET enable_external_access = true`,
		`SET GLOBAL lock_configuration = false`,
		`SET temp_directory = '` + dir + `'`,
	} {
		_, err := s.run(ctx, w, warehouse.QueryOptions{})
		if !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("run(%q) = %v; want a refusal by the engine (ErrRejected)", w, err)
		} else {
			t.Logf("refused below the guard: %v", err)
		}
	}
	// Two statements DuckDB accepts on a read-only file, harmless to it but
	// refused by the guard: CHECKPOINT (a no-op) and a temporary table (in
	// memory, gone with the connection).
	for _, q := range []string{"CHECKPOINT", "CREATE TEMP TABLE t3 (a INTEGER)"} {
		_, err := s.run(ctx, q, warehouse.QueryOptions{})
		t.Logf("below the guard, %s: err = %v", q, err)
		if _, err := s.Query(ctx, q, warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("Query(%q) = %v; want ErrRejected", q, err)
		}
	}
	if n, err := s.RowCount(ctx, warehouse.TableName{Name: "customer"}); err != nil || n != 3 {
		t.Errorf("customer rows after the write attempts = %d, %v", n, err)
	}
	s.Close()
	if digest(t, path) != before {
		t.Error("the database file changed")
	}
	if got := listDir(t, dir); !slices.Equal(got, []string{"shop.duckdb"}) {
		t.Errorf("files beside the database: %v", got)
	}
}

// TestParserCheck covers what DuckDB's parser decides in the guard: the
// statement kinds it reads as SELECTs pass, every other kind is refused.
// (PIVOT, refused here before the guard parsed with DuckDB's grammar, is a
// SELECT over a PIVOT reference and passes: issue 16.)
func TestParserCheck(t *testing.T) {
	s := open(t, build(t, "shop.duckdb"))
	ctx := context.Background()
	for _, q := range []string{
		`SELECT 1`, `FROM customer`, `WITH x AS (SELECT 1 AS a) SELECT * FROM x`, `VALUES (1), (2)`,
		`DESCRIBE customer`, `SHOW TABLES`, `SUMMARIZE customer`, `EXPLAIN SELECT * FROM customer`,
		`EXPLAIN ANALYZE SELECT count(*) FROM orders`, `SELECT 'it''s; DROP TABLE x'`,
		`PIVOT customer ON name`, `PIVOT customer ON name IN ('Ann', 'Bob') USING count(*)`,
	} {
		if err := s.Guard(ctx, q); err != nil {
			t.Errorf("Guard(%q) = %v", q, err)
		}
		if _, err := s.Query(ctx, q, warehouse.QueryOptions{}); err != nil {
			t.Errorf("Query(%q) = %v", q, err)
		}
	}
	for _, q := range []string{
		`INSERT INTO customer VALUES (9, 'z', 'z')`, `SELECT 1; SELECT 2`, `EXPLAIN INSERT INTO customer VALUES (9, 'z', 'z')`,
		`COPY customer TO 'x.csv'`, `ATTACH 'x.duckdb'`, `SET threads = 1`,
	} {
		if err := s.Guard(ctx, q); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("Guard(%q) = %v; want ErrRejected", q, err)
		}
	}
	// Not DuckDB syntax at all: refused as a parse error.
	if err := s.Guard(ctx, `WITH d AS (DELETE FROM customer RETURNING *) SELECT * FROM d`); err == nil {
		t.Error("Guard accepted a DELETE in a CTE")
	}
	// A syntax error is the caller's to fix, not a refusal.
	_, err := s.Query(ctx, "SELECT FROM WHERE", warehouse.QueryOptions{})
	if err == nil || errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), "syntax error") {
		t.Errorf("syntax error: %v", err)
	}
}

// TestLeftoverWAL: a file whose writer stopped without a checkpoint keeps
// committed rows in its .wal; a reader must see them and leave both files
// as they are.
func TestLeftoverWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.duckdb")
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		"CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1)", "CHECKPOINT",
		"PRAGMA disable_checkpoint_on_shutdown", "SET checkpoint_threshold = '1TB'", "INSERT INTO t VALUES (2), (3)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	db.Close()
	dir := filepath.Dir(path)
	files := listDir(t, dir)
	if !slices.Equal(files, []string{"w.duckdb", "w.duckdb.wal"}) {
		t.Fatalf("fixture left %v", files)
	}
	before, beforeWAL := digest(t, path), digest(t, path+".wal")
	s := open(t, path)
	if n, err := s.RowCount(context.Background(), warehouse.TableName{Name: "t"}); err != nil || n != 3 {
		t.Errorf("RowCount = %d, %v; want the 3 rows, 2 of them in the WAL", n, err)
	}
	s.Close()
	if digest(t, path) != before || digest(t, path+".wal") != beforeWAL {
		t.Error("the database or its WAL changed")
	}
	if got := listDir(t, dir); !slices.Equal(got, files) {
		t.Errorf("files: %v", got)
	}
}

func TestTwoSourcesOneFile(t *testing.T) {
	path := build(t, "shop.duckdb")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	a := open(t, path)
	b := open(t, path)
	ctx := context.Background()
	var spillA, spillB string
	a.db.QueryRowContext(ctx, "SELECT current_setting('temp_directory')").Scan(&spillA)
	b.db.QueryRowContext(ctx, "SELECT current_setting('temp_directory')").Scan(&spillB)
	if spillA != spillB || filepath.Dir(spillA) != tmp {
		t.Errorf("spill folders %q, %q; want one, in %s", spillA, spillB, tmp)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(spillA); err != nil {
		t.Errorf("the spill folder went with the first source: %v", err)
	}
	// DuckDB shares one instance per file: closing a must not take b's
	// instance or its spill folder away.
	if n, err := b.RowCount(ctx, warehouse.TableName{Name: "customer"}); err != nil || n != 3 {
		t.Errorf("RowCount after closing the other source = %d, %v", n, err)
	}
	if _, err := b.run(ctx, "INSERT INTO customer VALUES (9, 'z', 'z')", warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("second source writable: %v", err)
	}
	b.Close()
	if got := listDir(t, tmp); len(got) != 0 {
		t.Errorf("left in the temp folder: %v", got)
	}
}

func TestAwkwardPath(t *testing.T) {
	src := build(t, "x.duckdb")
	dir := filepath.Join(t.TempDir(), "dir with space#1")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "my shop#?access_mode=READ_WRITE%zz.duckdb")
	data, _ := os.ReadFile(src)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	before := digest(t, path)
	s := open(t, "duckdb://"+path)
	if n, err := s.RowCount(context.Background(), warehouse.TableName{Name: "customer"}); err != nil || n != 3 {
		t.Errorf("RowCount = %d, %v", n, err)
	}
	if _, err := s.run(context.Background(), "CREATE TABLE z (a INTEGER)", warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("write through an awkward path: %v", err)
	}
	s.Close()
	if digest(t, path) != before {
		t.Error("the database file changed")
	}
	if got := listDir(t, dir); len(got) != 1 {
		t.Errorf("files in %s: %v", dir, got)
	}
}

func TestOpenBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	text := write("notes.duckdb", []byte("hello, this is not a database at all\n"))
	empty := write("empty.duckdb", nil)
	sqliteFile := write("shop.db", append([]byte("SQLite format 3\x00"), make([]byte, 100)...))
	corrupt := write("corrupt.duckdb", append([]byte("\x00\x00\x00\x00\x00\x00\x00\x00DUCK"), make([]byte, 5000)...))
	emptyDir := filepath.Join(dir, "empty")
	os.Mkdir(emptyDir, 0o755)
	noData := filepath.Join(dir, "nodata")
	os.Mkdir(noData, 0o755)
	os.WriteFile(filepath.Join(noData, "readme.md"), []byte("# hi"), 0o644)
	os.WriteFile(filepath.Join(noData, "_hidden.csv"), []byte("a\n1\n"), 0o644)
	badData := filepath.Join(dir, "bad")
	os.Mkdir(badData, 0o755)
	os.WriteFile(filepath.Join(badData, "x.parquet"), []byte("not parquet"), 0o644)
	missing := filepath.Join(dir, "shop.duckdb")

	for _, c := range []struct{ dsn, msg string }{
		{"duckdb://" + missing, "no such file"},
		{"duckdb://" + text, "not a DuckDB database"},
		{text, "not a DuckDB database"},
		{"duckdb://" + empty, "is empty"},
		{"duckdb://" + sqliteFile, "use sqlite://"},
		{"duckdb://" + corrupt, "not a usable DuckDB database"},
		{"duckdb://" + emptyDir, "no Parquet, CSV or JSON files"},
		{"duckdb://" + noData, "no Parquet, CSV or JSON files"},
		{"duckdb://" + badData, "no readable data files"},
		{"duckdb://" + filepath.Join(dir, "*.parquet"), "no Parquet, CSV or JSON files match"},
		{"duckdb://" + filepath.Join(dir, "nope", "*.csv"), "no such folder"},
		{"duckdb://", "empty path"},
	} {
		s, err := Open(context.Background(), c.dsn)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", c.dsn)
			continue
		}
		if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Open(%q) = %v; want ErrBadInput mentioning %q", c.dsn, err, c.msg)
		}
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Error("Open created the missing file")
	}
	if _, err := Open(context.Background(), "duckdb://x.duckdb"); err == nil || err.Error() != "duckdb: open x.duckdb: no such file" {
		t.Errorf("message = %v", err)
	}
	if got := listDir(t, dir); len(got) != 7 {
		t.Errorf("Open left files behind: %v", got)
	}
}

func digest(t testing.TB, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func listDir(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestQueryCapInStatement: the row cap goes into the statement, so it
// must keep what the statement says: duplicate column names, order, a
// trailing semicolon or comment, and the truncation flag at exactly the cap.
func TestQueryCapInStatement(t *testing.T) {
	s := open(t, build(t, "shop.duckdb"))
	ctx := context.Background()
	for _, tc := range []struct {
		q     string
		max   int
		cols  []string
		rows  [][]any
		trunc bool
	}{
		{"SELECT 1 AS a, 2 AS a, 3 AS A, 4 AS a_1", 5, []string{"a", "a", "A", "a_1"}, [][]any{{int64(1), int64(2), int64(3), int64(4)}}, false},
		{"SELECT range AS x FROM range(10) ORDER BY x DESC;", 3, []string{"x"}, [][]any{{int64(9)}, {int64(8)}, {int64(7)}}, true},
		{"SELECT range AS x FROM range(3) -- the last line is a comment", 3, []string{"x"}, [][]any{{int64(0)}, {int64(1)}, {int64(2)}}, false},
		{"FROM range(4) ; ;", 3, []string{"range"}, [][]any{{int64(0)}, {int64(1)}, {int64(2)}}, true},
		{"(SELECT 1 AS n) UNION ALL (SELECT 2)", 1, []string{"n"}, [][]any{{int64(1)}}, true},
		{"DESCRIBE SELECT 1 AS n", 5, []string{"column_name", "column_type", "null", "key", "default", "extra"}, [][]any{{"n", "INTEGER", "YES", nil, nil, nil}}, false},
	} {
		res, err := s.Query(ctx, tc.q, warehouse.QueryOptions{MaxRows: tc.max})
		if err != nil {
			t.Errorf("%q: %v", tc.q, err)
			continue
		}
		if !slices.Equal(res.Columns, tc.cols) {
			t.Errorf("%q: columns %q, want %q", tc.q, res.Columns, tc.cols)
		}
		if fmt.Sprint(res.Rows) != fmt.Sprint(tc.rows) || res.Truncated != tc.trunc {
			t.Errorf("%q: rows %v truncated %v, want %v truncated %v", tc.q, res.Rows, res.Truncated, tc.rows, tc.trunc)
		}
	}
}

// unguarded is the source without its allow-list: what reaches DuckDB's
// own read-only layers when the guard lets a statement through.
type unguarded struct{ *Source }

func (unguarded) Admit(context.Context, string) error { return nil }

// run is Query without the guard.
func (s *Source) run(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	return warehouse.Query(ctx, unguarded{s}, q, opts)
}

// DuckDB's own memory is bounded (MemoryLimit), not left at 80% of the
// machine's, and no statement can raise it.
func TestMemoryLimit(t *testing.T) {
	s := open(t, build(t, "shop.duckdb"))
	ctx := context.Background()
	var limit string
	if err := s.db.QueryRowContext(ctx, "SELECT current_setting('memory_limit')").Scan(&limit); err != nil {
		t.Fatal(err)
	}
	var n float64
	var unit string
	if _, err := fmt.Sscanf(limit, "%f %s", &n, &unit); err != nil || unit != "MiB" || n*(1<<20) > 512e6 {
		t.Errorf("memory_limit %q, want at most 512MB", limit)
	}
	if _, err := s.run(ctx, "SET GLOBAL memory_limit = '8GB'", warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("the memory limit could be raised: %v", err)
	}
}

// TestSampleTableByRowHash: a base table's sample keeps the rows whose
// row id hashes under the share: about the rows asked for, the same rows
// in every statement (so that a profile's passes agree), spread over the
// whole table rather than in runs, through the guard, at BlockSampleRows
// and above too (no whole vectors, which draw other rows in each run). A
// table with a column named rowid and a view are sampled otherwise; a
// folder's data files from BlockSampleRows up by whole vectors.
func TestSampleTableByRowHash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.duckdb")
	exec(t, path,
		`CREATE TABLE reading (n BIGINT, v DOUBLE)`,
		`INSERT INTO reading SELECT i, i * 0.5 FROM range(200000) r(i)`,
		`CREATE TABLE hidden (rowid BIGINT, v DOUBLE)`,
		`CREATE VIEW reading_v AS SELECT * FROM reading`)
	s := open(t, path)
	ctx := context.Background()
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]warehouse.Table{}
	for _, tb := range tables {
		byName[tb.Name.Name] = tb
	}
	d, ok := s.Dialect().(warehouse.TableSampler)
	if !ok {
		t.Fatal("DuckDB's dialect samples no table")
	}
	from, how, ok := d.SampleTable(byName["reading"], 20000, 200000)
	if !ok || !strings.Contains(how, "hash") {
		t.Fatalf("SampleTable(reading) = %q, %q, %v", from, how, ok)
	}
	q := "SELECT COUNT(*) AS n, SUM(n) AS s, MIN(n) AS lo, MAX(n) AS hi, COUNT(DISTINCT n // 2048) AS vectors FROM " + from
	first, err := s.Query(ctx, q, warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Query(ctx, q, warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(first.Rows) != fmt.Sprint(again.Rows) {
		t.Errorf("two statements drew two samples: %v, %v", first.Rows, again.Rows)
	}
	if _, how, ok := d.SampleTable(byName["reading"], 20000, warehouse.BlockSampleRows); !ok || !strings.Contains(how, "hash") {
		t.Errorf("SampleTable(reading) at BlockSampleRows rows: %q, %v; want the hash of row ids", how, ok)
	}
	if from, ok := s.Dialect().SampleBlocks(byName["reading"].Name, 20000, warehouse.BlockSampleRows); ok {
		t.Errorf("a database table is sampled by whole vectors at BlockSampleRows rows: %q", from)
	}
	row := first.Rows[0]
	n, _ := row[0].(int64)
	if n < 19000 || n > 21000 {
		t.Errorf("kept %d rows, want about 20,000", n)
	}
	// Drawn row by row: every 2,048-row vector of the table contributes,
	// and the mean of n is near the table's (99,999.5).
	if v, _ := row[4].(int64); v != 98 {
		t.Errorf("rows from %d of the table's 98 vectors", v)
	}
	sum, err := strconv.ParseFloat(fmt.Sprint(row[1]), 64)
	if err != nil || n == 0 || sum/float64(n) < 97000 || sum/float64(n) > 103000 {
		t.Errorf("sum of the sample's n %v (%v) over %d rows, the table's mean 99,999.5", row[1], err, n)
	}
	for _, c := range []struct {
		t           warehouse.Table
		rows, total int64
	}{
		{byName["hidden"], 10, 1000},
		{byName["reading_v"], 20000, 200000},
		{byName["reading"], 300000, 200000},
	} {
		if from, _, ok := d.SampleTable(c.t, c.rows, c.total); ok {
			t.Errorf("SampleTable(%s, %d of %d) = %q, want Sample's", c.t.Name, c.rows, c.total, from)
		}
	}
	// A folder's data files are tables to the user and views to DuckDB,
	// with no row ids: their rows are hashed whole, and the sample runs.
	dir := t.TempDir()
	exec(t, "", `COPY (SELECT range AS n FROM range(50000)) TO `+quoteString(filepath.Join(dir, "events.parquet"))+` (FORMAT parquet)`)
	fs := open(t, "duckdb://"+dir)
	ft, err := fs.Tables(ctx)
	if err != nil || len(ft) != 1 {
		t.Fatalf("folder tables %v, %v", ft, err)
	}
	if _, how, ok := fs.Dialect().(warehouse.TableSampler).SampleTable(ft[0], 5000, 50000); !ok || !strings.Contains(how, "values") {
		t.Errorf("a folder's sample is %q, %v", how, ok)
	}
	res, err := fs.Query(ctx, "SELECT COUNT(*) AS n FROM "+warehouse.SampleTable(fs.Dialect(), ft[0], 5000, 50000), warehouse.QueryOptions{})
	if err != nil {
		t.Fatalf("a folder's sample: %v", err)
	}
	if n, _ := res.Rows[0][0].(int64); n < 4000 || n > 6000 {
		t.Errorf("a folder's sample kept %v rows, want about 5,000", res.Rows[0][0])
	}
	if _, _, ok := fs.Dialect().(warehouse.TableSampler).SampleTable(ft[0], 5000, warehouse.BlockSampleRows); ok {
		t.Error("a folder's data files at BlockSampleRows rows are hashed whole, every column read")
	}
	if _, ok := fs.Dialect().SampleBlocks(ft[0].Name, 5000, warehouse.BlockSampleRows); !ok {
		t.Error("a folder's data files at BlockSampleRows rows are not sampled by whole vectors")
	}
}

// flipCtx is a context whose Err reports nothing for its first n calls
// and Canceled from then on, closing Done then: a deadline that passes at
// a chosen step of a statement, the steps counted by the driver's checks.
type flipCtx struct {
	context.Context
	n, calls atomic.Int64
	once     sync.Once
	done     chan struct{}
}

func (c *flipCtx) Err() error {
	if c.calls.Add(1) > c.n.Load() {
		c.once.Do(func() { close(c.done) })
		return context.Canceled
	}
	return nil
}

func (c *flipCtx) Done() <-chan struct{} { return c.done }

// TestCutStatementSettles: a statement whose context ends between the
// driver's creating DuckDB's pending result and running it leaves its
// query in the connection, which the next statement on it used to run in
// full before its own (see settle.go). Each step of a slow statement at
// which the context can end is tried, on one connection, until the
// statement completes; after each cut the next statement takes a fraction
// of the slow one's time, and the connection is still locked down.
func TestCutStatementSettles(t *testing.T) {
	for _, dsn := range []string{build(t, "shop.duckdb"), lake(t)} {
		s := open(t, dsn)
		ctx := context.Background()
		conn, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		const slow = "SELECT count(*) FROM range(20000) AS a, range(20000) AS b WHERE a.range + b.range = 7"
		start := time.Now()
		if _, err := conn.ExecContext(ctx, slow); err != nil {
			t.Fatal(err)
		}
		whole := time.Since(start)
		cuts, before := 0, settled.Load()
		for k := int64(0); ; k++ {
			fc := &flipCtx{Context: ctx, done: make(chan struct{})}
			fc.n.Store(k)
			_, err := conn.ExecContext(fc, slow)
			if err == nil {
				break
			}
			if !errors.Is(err, context.Canceled) || k > 50 {
				t.Fatalf("%s: cut at step %d: %v", dsn, k, err)
			}
			cuts++
			start := time.Now()
			var external bool
			err = conn.QueryRowContext(ctx, "SELECT current_setting('enable_external_access')").Scan(&external)
			if err != nil || external {
				t.Fatalf("%s: after a cut at step %d: external access %v, %v", dsn, k, external, err)
			}
			if d := time.Since(start); d > whole/4 {
				t.Errorf("%s: the statement after a cut at step %d took %v; the slow one alone %v", dsn, k, d, whole)
			}
		}
		conn.Close()
		t.Logf("%s: the slow statement alone %v, cut at %d steps", dsn, whole, cuts)
		if cuts < 3 {
			t.Errorf("%s: the statement was cut at %d steps only", dsn, cuts)
		}
		if n := retired.Load(); n != 0 {
			t.Errorf("%s: %d connections given up", dsn, n)
		}
		if n := settled.Load() - before; n != int64(cuts) {
			t.Errorf("%s: the connection settled %d times after %d cuts", dsn, n, cuts)
		}
	}
}
