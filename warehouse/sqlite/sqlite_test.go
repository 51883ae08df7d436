package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// fixture is the schema of the test database: every shape Tables must get
// right, with names that need quoting.
var fixture = []string{
	`CREATE TABLE customer (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT)`,
	`CREATE INDEX cust_name ON customer (lower(name), name DESC)`,
	`CREATE UNIQUE INDEX cust_name_u ON customer (name) WHERE name IS NOT NULL`,
	`CREATE TABLE "order items" (order_id INTEGER NOT NULL, line INTEGER NOT NULL, sku TEXT, qty INTEGER,
		PRIMARY KEY (order_id, line))`,
	// Parent spelled in another case, columns omitted: resolved to the key.
	`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES CUSTOMER,
		placed DATE, paid DATETIME, photo BLOB, memo TEXT)`,
	`CREATE TABLE shipment_line (ship_id INTEGER, order_id INTEGER, line INTEGER,
		FOREIGN KEY (order_id, line) REFERENCES "order items" (order_id, line))`,
	`CREATE TABLE line_ref (a INTEGER, b INTEGER, c TEXT REFERENCES ghost,
		FOREIGN KEY (a, b) REFERENCES "ORDER ITEMS")`,
	`CREATE TABLE "select" ("from" TEXT, "where" INTEGER, UNIQUE ("from", "where"))`,
	`CREATE UNIQUE INDEX "sel where" ON "select" ("where")`,
	`CREATE TABLE "naïve" ("clé" TEXT PRIMARY KEY, valeur REAL) WITHOUT ROWID`,
	`CREATE TABLE "say ""hi""" (k TEXT PRIMARY KEY, v)`,
	`CREATE TABLE gen (a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL, c INTEGER AS (a + 1) STORED)`,
	`CREATE VIRTUAL TABLE docs USING fts5(body)`,
	`CREATE VIEW "big orders" AS SELECT o.id, c.email FROM orders AS o JOIN customer AS c ON c.id = o.customer_id`,
	// Views that fail on every read (written for another engine, or left
	// behind by a dropped table) are not listed.
	`CREATE VIEW broken AS SELECT * FROM ghost`,
	`CREATE VIEW "mysql view" AS SELECT group_concat(DISTINCT a, ';') FROM gen`,
	`INSERT INTO customer VALUES (1, 'a@x.org', 'Ann'), (2, 'b@x.org', 'Bob'), (3, 'c@x.org', NULL)`,
	`INSERT INTO "order items" VALUES (10, 1, 'S1', 2), (10, 2, 'S2', 1), (11, 1, 'S1', 5)`,
	`INSERT INTO orders VALUES (10, 1, '2024-01-31', '2024-01-31 10:11:12', x'00ff10', CAST('héllo' AS BLOB)),
		(11, 2, '2024-02-01', '2024-02-01T08:00:00', NULL, 'plain')`,
	`INSERT INTO "select" VALUES ('a', 1), ('b', 2)`,
	`INSERT INTO "naïve" VALUES ('k', 1.5)`,
	`INSERT INTO "say ""hi""" VALUES ('x', 1)`,
	`INSERT INTO gen (a) VALUES (1), (2)`,
	`INSERT INTO docs VALUES ('hello world')`,
}

// build writes the fixture with its own writable connection, closed before
// the test opens the file read-only.
func build(t testing.TB, name string, stmts ...string) string {
	t.Helper()
	if len(stmts) == 0 {
		stmts = fixture
	}
	path := filepath.Join(t.TempDir(), name)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// One transaction keeps the build fast; leading PRAGMAs (journal_mode)
	// cannot run inside one.
	i := 0
	for i < len(stmts) && strings.HasPrefix(stmts[i], "PRAGMA") {
		i++
	}
	stmts = slices.Concat(stmts[:i], []string{"BEGIN"}, stmts[i:], []string{"COMMIT"})
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func open(t testing.TB, path string) *Source {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func tableMap(t *testing.T, s *Source) map[string]warehouse.Table {
	t.Helper()
	tables, err := s.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]warehouse.Table{}
	for _, tb := range tables {
		if tb.Name.Schema != "" {
			t.Errorf("%s: schema %q, want \"\" for main", tb.Name.Name, tb.Name.Schema)
		}
		m[tb.Name.Name] = tb
	}
	return m
}

func TestTablesFixture(t *testing.T) {
	s := open(t, build(t, "shop.db"))
	if s.Dialect().Name() != "sqlite" || s.Database() != "shop" {
		t.Errorf("Dialect, Database = %q, %q", s.Dialect().Name(), s.Database())
	}
	tables, err := s.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name.Name)
	}
	want := []string{"big orders", "customer", "docs", "gen", "line_ref", "naïve", "order items", "orders", `say "hi"`, "select", "shipment_line"}
	if !slices.Equal(names, want) {
		t.Fatalf("tables = %q\nwant     %q", names, want)
	}
	skipped, err := s.Skipped(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var sk []string
	for _, x := range skipped {
		sk = append(sk, x.Table.Name+": "+x.Reason)
	}
	if len(sk) != 2 || !strings.HasPrefix(sk[0], "broken: the view does not compile: ") {
		t.Errorf("skipped = %q, want the two broken views with their reason", sk)
	}
	m := tableMap(t, s)

	cust := m["customer"]
	eq(t, "customer pk", cust.PrimaryKey, []string{"id"})
	if cust.Columns[0].Nullable {
		t.Error("customer.id is an INTEGER PRIMARY KEY and cannot be NULL")
	}
	if !cust.Columns[2].Nullable || cust.Columns[1].Nullable {
		t.Errorf("customer nullability: %+v", cust.Columns)
	}
	if c := cust.Columns[1]; c.Name != "email" || c.Type != "TEXT" || c.Position != 2 {
		t.Errorf("customer column 2 = %+v", c)
	}
	// The partial unique index is no key; the UNIQUE constraint is.
	eqs(t, "customer uniques", cust.Uniques, [][]string{{"email"}})
	if len(cust.Indexes) != 2 {
		t.Fatalf("customer indexes = %+v", cust.Indexes)
	}
	eq(t, "expression index", cust.Indexes[0].Columns, []string{"lower(name)", "name"})
	if cust.Indexes[0].Name != "cust_name" || cust.Indexes[0].Unique {
		t.Errorf("index 0 = %+v", cust.Indexes[0])
	}
	if x := cust.Indexes[1]; x.Name != "cust_name_u" || !x.Unique || !slices.Equal(x.Columns, []string{"name"}) {
		t.Errorf("index 1 = %+v", x)
	}

	items := m["order items"]
	eq(t, "composite pk", items.PrimaryKey, []string{"order_id", "line"})
	if len(items.Indexes) != 0 || len(items.Uniques) != 0 {
		t.Errorf("order items: the PK's autoindex is neither an index nor a unique: %+v %+v", items.Indexes, items.Uniques)
	}

	orders := m["orders"]
	fkEq(t, "orders", orders.ForeignKeys, []warehouse.ForeignKey{
		{Columns: []string{"customer_id"}, RefTable: warehouse.TableName{Name: "customer"}, RefColumns: []string{"id"}},
	})
	fkEq(t, "shipment_line", m["shipment_line"].ForeignKeys, []warehouse.ForeignKey{
		{Columns: []string{"order_id", "line"}, RefTable: warehouse.TableName{Name: "order items"}, RefColumns: []string{"order_id", "line"}},
	})
	fkEq(t, "line_ref", m["line_ref"].ForeignKeys, []warehouse.ForeignKey{
		{Columns: []string{"c"}, RefTable: warehouse.TableName{Name: "ghost"}, RefColumns: []string{}},
		{Columns: []string{"a", "b"}, RefTable: warehouse.TableName{Name: "order items"}, RefColumns: []string{"order_id", "line"}},
	})

	sel := m["select"]
	eqs(t, "select uniques", sel.Uniques, [][]string{{"from", "where"}, {"where"}})
	if len(sel.Indexes) != 1 || sel.Indexes[0].Name != "sel where" || !sel.Indexes[0].Unique {
		t.Errorf("select indexes = %+v (the UNIQUE constraint's autoindex is not listed)", sel.Indexes)
	}

	naive := m["naïve"]
	eq(t, "without rowid pk", naive.PrimaryKey, []string{"clé"})
	if naive.Columns[0].Nullable {
		t.Error("a WITHOUT ROWID key cannot be NULL")
	}
	if hi := m[`say "hi"`]; !hi.Columns[0].Nullable || hi.Columns[1].Type != "" {
		t.Errorf(`say "hi": a TEXT key of a rowid table may hold NULL; v has no type: %+v`, hi.Columns)
	}

	var gen []string
	for _, c := range m["gen"].Columns {
		gen = append(gen, c.Name)
	}
	eq(t, "generated columns kept", gen, []string{"a", "b", "c"})

	docs := m["docs"]
	if docs.Kind != "table" || len(docs.Columns) != 1 || docs.Columns[0].Name != "body" {
		t.Errorf("fts5 table: hidden columns must be skipped: %+v", docs)
	}

	view := m["big orders"]
	if view.Kind != "view" || len(view.Columns) != 2 || view.Columns[1].Name != "email" {
		t.Errorf("view = %+v", view)
	}
	for _, tb := range tables {
		if tb.Columns == nil || tb.PrimaryKey == nil || tb.ForeignKeys == nil || tb.Uniques == nil || tb.Indexes == nil {
			t.Errorf("%s: nil slices serialise as null: %+v", tb.Name, tb)
		}
	}
}

func TestRowCountAndQueryOddNames(t *testing.T) {
	s := open(t, build(t, "shop.db"))
	ctx := context.Background()
	want := map[string]int64{"order items": 3, "select": 2, "naïve": 1, `say "hi"`: 1, "big orders": 2, "docs": 1, "gen": 2}
	for name, n := range want {
		got, err := s.RowCount(ctx, warehouse.TableName{Name: name})
		if err != nil || got != n {
			t.Errorf("RowCount(%q) = %d, %v; want %d", name, got, err, n)
		}
		res, err := s.Query(ctx, "SELECT * FROM "+s.QuoteTable(warehouse.TableName{Name: name}), warehouse.QueryOptions{})
		if err != nil || int64(len(res.Rows)) != n {
			t.Errorf("Query(%q): %v", name, err)
		}
	}
	if q := s.QuoteIdent(`say "hi"`); q != `"say ""hi"""` {
		t.Errorf("QuoteIdent = %s", q)
	}
	if q := s.QuoteTable(warehouse.TableName{Schema: "main", Name: "a.b"}); q != `"main"."a.b"` {
		t.Errorf("QuoteTable = %s", q)
	}
	if _, err := s.RowCount(ctx, warehouse.TableName{Name: "nope"}); err == nil {
		t.Error("RowCount of a missing table succeeded")
	}
}

func TestQueryValues(t *testing.T) {
	s := open(t, build(t, "shop.db"))
	res, err := s.Query(context.Background(),
		"SELECT id, placed, paid, photo, memo, 1.5 AS f, NULL AS n FROM orders ORDER BY id", warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "columns", res.Columns, []string{"id", "placed", "paid", "photo", "memo", "f", "n"})
	r := res.Rows[0]
	if r[0] != int64(10) || r[5] != 1.5 || r[6] != nil {
		t.Errorf("scalars = %#v", r)
	}
	// modernc hands DATE/DATETIME text over as time.Time; it must come back as text.
	if r[1] != "2024-01-31" || r[2] != "2024-01-31 10:11:12" || res.Rows[1][2] != "2024-02-01 08:00:00" {
		t.Errorf("dates = %#v %#v %#v", r[1], r[2], res.Rows[1][2])
	}
	if b, ok := r[3].([]byte); !ok || string(b) != "\x00\xff\x10" {
		t.Errorf("blob = %#v", r[3])
	}
	if r[4] != "héllo" || res.Rows[1][4] != "plain" || res.Rows[1][3] != nil {
		t.Errorf("UTF-8 bytes in a TEXT column must be a string: %#v", res.Rows)
	}
	res, err = s.Query(context.Background(), "SELECT CAST('abc' AS BLOB) AS b, photo FROM orders WHERE id = 10", warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0][0] != "abc" {
		t.Errorf("an untyped expression with UTF-8 bytes = %#v", res.Rows[0][0])
	}
	if res.Elapsed <= 0 {
		t.Error("Elapsed not set")
	}
}

const countTo = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %d) SELECT x FROM c"

func TestOpenBadInput(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("hello, this is not a database at all\n"), 0o644)
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	short := filepath.Join(dir, "short.db")
	os.WriteFile(short, []byte("SQLite"), 0o644)
	corrupt := filepath.Join(dir, "corrupt.db")
	os.WriteFile(corrupt, append([]byte(header), make([]byte, 200)...), 0o644)
	missing := filepath.Join(dir, "shop.db")

	for _, c := range []struct{ path, msg string }{
		{missing, "no such file"},
		{text, "is not a SQLite database"},
		{empty, "is empty"},
		{short, "is not a SQLite database"},
		{corrupt, "not a usable SQLite database"},
		{dir, "is a directory"},
		{"", "empty path"},
	} {
		s, err := Open(context.Background(), c.path)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", c.path)
			continue
		}
		if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Open(%q) = %v; want ErrBadInput mentioning %q", c.path, err, c.msg)
		}
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Error("Open created the missing file")
	}
	if _, err := Open(context.Background(), "shop.db"); err == nil || err.Error() != "sqlite: open shop.db: no such file" {
		t.Errorf("message = %v", err)
	}
}

func TestOpenAwkwardPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dir with space#1")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := build(t, "x.db")
	path := filepath.Join(dir, "my shop?&mode=rw%20#.db")
	data, _ := os.ReadFile(src)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	if s.Database() != "my shop?&mode=rw%20#" {
		t.Errorf("Database = %q", s.Database())
	}
	if n, err := s.RowCount(context.Background(), warehouse.TableName{Name: "customer"}); err != nil || n != 3 {
		t.Errorf("RowCount = %d, %v", n, err)
	}
	// The URI must stay read-only whatever the path says.
	if _, err := s.db.Exec("CREATE TABLE z (a)"); err == nil {
		t.Error("write through an awkward path succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files in %s: %v", dir, entries)
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

func eq(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %q; want %q", what, got, want)
	}
}

func eqs(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	if !slices.EqualFunc(got, want, func(a, b []string) bool { return slices.Equal(a, b) }) {
		t.Errorf("%s = %q; want %q", what, got, want)
	}
}

func fkEq(t *testing.T, what string, got, want []warehouse.ForeignKey) {
	t.Helper()
	same := slices.EqualFunc(got, want, func(a, b warehouse.ForeignKey) bool {
		return a.RefTable == b.RefTable && slices.Equal(a.Columns, b.Columns) && slices.Equal(a.RefColumns, b.RefColumns) &&
			a.RefColumns != nil
	})
	if !same {
		t.Errorf("%s foreign keys = %+v; want %+v", what, got, want)
	}
}
