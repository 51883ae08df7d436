package load

import (
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" driver

	"github.com/discover-db/discover/internal/demo"
	"github.com/discover-db/discover/warehouse"
	engine "github.com/discover-db/discover/warehouse/duckdb"
)

// The DuckDB target needs no server, so these tests always run. They read
// the copy back through discover's own DuckDB engine, read-only, which
// checks the engine as much as the copy.

func openEngine(t *testing.T, dsn string) *engine.Source {
	t.Helper()
	src, err := engine.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

func engineTables(t *testing.T, src *engine.Source) map[string]warehouse.Table {
	t.Helper()
	tables, err := src.Tables(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]warehouse.Table{}
	for _, tb := range tables {
		if tb.Name.Schema != "" {
			t.Errorf("%s: not in the main schema", tb.Name)
		}
		out[tb.Name.Name] = tb
	}
	if skipped, err := src.Skipped(t.Context()); err != nil || len(skipped) > 0 {
		t.Errorf("skipped %v, %v", skipped, err)
	}
	return out
}

// engineRows runs q through the engine's guarded Query, values as text
// (NULL as "").
func engineRows(t *testing.T, src *engine.Source, q string) [][]string {
	t.Helper()
	res, err := src.Query(t.Context(), q, warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, r := range res.Rows {
		row := make([]string, len(r))
		for i, v := range r {
			if v != nil {
				row[i] = fmt.Sprint(v)
			}
		}
		out = append(out, row)
	}
	return out
}

func engineFloats(t *testing.T, src *engine.Source, q string) []float64 {
	t.Helper()
	rows := engineRows(t, src, q)
	if len(rows) != 1 {
		t.Fatalf("%s: %d rows", q, len(rows))
	}
	out := make([]float64, len(rows[0]))
	for i, v := range rows[0] {
		if v == "" {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("%s: column %d: %v", q, i, err)
		}
		out[i] = f
	}
	return out
}

// duckType is the DuckDB type the copy gives a column of the demo by its
// declared SQLite type (every demo value fits its declared type).
func duckType(decl string) string {
	switch aff := affinity(decl); {
	case aff == "INTEGER":
		return "BIGINT"
	case aff == "TEXT":
		return "VARCHAR"
	case aff == "REAL":
		return "DOUBLE"
	case aff == "NUMERIC" && isDecimalType(decl):
		return "DECIMAL(14,2)"
	}
	return "?" + decl
}

func TestCopyDemoDuckDB(t *testing.T) {
	t.Parallel()
	path := sharedDemo(t)
	startExpectations(path)
	ctx := t.Context()
	dir := t.TempDir()
	dsn, drop, err := CreateDatabase(ctx, duckdb, dir, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if want := "duckdb://" + filepath.ToSlash(filepath.Join(dir, "demo.duckdb")); dsn != want {
		t.Errorf("DSN %s, want %s", dsn, want)
	}
	t.Cleanup(func() {
		if err := drop(); err != nil {
			t.Error(err)
		}
	})

	start := time.Now()
	if err := Copy(ctx, path, duckdb, dsn); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	want := awaitExpectations(t)
	t.Logf("duckdb: copied %d tables, %d rows in %v (SQLite checksums took %v alongside)",
		len(demo.Facts.Tables), want.rows, took.Round(time.Millisecond), want.took.Round(time.Millisecond))

	// Checkpointed and closed: the file alone, no write-ahead log.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"demo.duckdb"}) {
		t.Errorf("folder holds %v, want the database file alone", names)
	}

	src := openEngine(t, dsn)
	byName := engineTables(t, src)
	var tables, views []string
	for name, tb := range byName {
		if tb.Kind == "view" {
			views = append(views, name)
		} else {
			tables = append(tables, name)
		}
	}
	slices.Sort(tables)
	slices.Sort(views)
	if want := slices.Sorted(slices.Values(demo.Facts.Tables)); !slices.Equal(tables, want) {
		t.Errorf("tables %v, want %v", tables, want)
	}
	if want := slices.Sorted(slices.Values(demo.Facts.Views)); !slices.Equal(views, want) {
		t.Errorf("views %v, want %v", views, want)
	}

	withPK := 0
	var uniques, fks, indexes []string
	for name, tb := range byName {
		if len(tb.PrimaryKey) > 0 {
			withPK++
		}
		for _, u := range tb.Uniques {
			uniques = append(uniques, name+"("+strings.Join(u, ",")+")")
		}
		for _, fk := range tb.ForeignKeys {
			for i, c := range fk.Columns {
				fks = append(fks, fmt.Sprintf("%s.%s→%s.%s", name, c, fk.RefTable.Name, fk.RefColumns[i]))
			}
		}
		for _, x := range tb.Indexes {
			indexes = append(indexes, x.Name)
		}
	}
	for table, want := range demo.Facts.PrimaryKeys {
		if got := byName[table].PrimaryKey; !slices.Equal(got, want) {
			t.Errorf("%s: primary key %v, want %v", table, got, want)
		}
	}
	if withPK != len(demo.Facts.PrimaryKeys) {
		t.Errorf("primary keys on %d tables, want %d", withPK, len(demo.Facts.PrimaryKeys))
	}
	var wantUniques []string
	for _, c := range demo.Facts.UniqueColumns {
		wantUniques = append(wantUniques, c.Table+"("+c.Column+")")
	}
	slices.Sort(uniques)
	slices.Sort(wantUniques)
	if !slices.Equal(uniques, wantUniques) {
		t.Errorf("unique constraints %v, want %v", uniques, wantUniques)
	}
	var wantFKs []string
	for _, r := range demo.Facts.DeclaredFKs {
		wantFKs = append(wantFKs, fmt.Sprintf("%s.%s→%s.%s", r.Table, r.Column, r.RefTable, r.RefColumn))
	}
	slices.Sort(fks)
	slices.Sort(wantFKs)
	if !slices.Equal(fks, wantFKs) {
		t.Errorf("foreign keys\n got %v\nwant %v", fks, wantFKs)
	}
	slices.Sort(indexes)
	if want := slices.Sorted(slices.Values(demo.Facts.Indexes)); !slices.Equal(indexes, want) {
		t.Errorf("indexes %v, want %v", indexes, want)
	}

	// Columns: the same names in the same order, NOT NULL as SQLite
	// declares it (key columns always), types as the mapping says.
	for table, cols := range want.columns {
		tb := byName[table]
		if len(tb.Columns) != len(cols) {
			t.Errorf("%s: %d columns, want %d", table, len(tb.Columns), len(cols))
			continue
		}
		for i, c := range tb.Columns {
			if c.Name != cols[i][0] {
				t.Errorf("%s: column %d is %s, want %s", table, i+1, c.Name, cols[i][0])
			}
			if tb.Kind == "view" {
				continue
			}
			if notNull := want.notNull[table+"."+c.Name]; c.Nullable == notNull {
				t.Errorf("%s.%s nullable %v, want %v", table, c.Name, c.Nullable, !notNull)
			}
			if w := duckType(cols[i][1]); c.Type != w {
				t.Errorf("%s.%s is %s, want %s (SQLite %s)", table, c.Name, c.Type, w, cols[i][1])
			}
		}
	}
	for table, c := range map[string]string{"products.price": "DECIMAL(14,2)", "payments.amount": "DECIMAL(14,2)", "product_suppliers.cost_price": "DOUBLE", "categories.parent_category_id": "BIGINT", "customers.email": "VARCHAR"} {
		tb, col, _ := strings.Cut(table, ".")
		if i := slices.IndexFunc(byName[tb].Columns, func(x warehouse.Column) bool { return x.Name == col }); i < 0 || byName[tb].Columns[i].Type != c {
			t.Errorf("%s is not %s", table, c)
		}
	}

	for _, table := range demo.Facts.Tables {
		n, err := src.RowCount(ctx, warehouse.TableName{Name: table})
		if err != nil {
			t.Fatal(err)
		}
		if float64(n) != want.checksums[table][0] {
			t.Errorf("%s: %d rows, want %v", table, n, want.checksums[table][0])
		}
		if exact, ok := demo.Facts.RowCounts[table]; ok && n != int64(exact) {
			t.Errorf("%s: %d rows, fact sheet says %d", table, n, exact)
		}
	}
	for table, sums := range want.checksums {
		if got := engineFloats(t, src, checksumQuery(want.columns[table], duckdb, table)); !slices.EqualFunc(got, sums, near) {
			t.Errorf("%s: checksum %v, want %v", table, got, sums)
		}
	}
}

// oddSchemaDuckDB is oddSchema without the orphan under a declared key,
// which DuckDB cannot hold (TestCopyDuckDBRefuses has it).
var oddSchemaDuckDB = strings.Replace(oddSchema, "(2, 99)", "(2, NULL)", 1)

func TestCopyOddDatabaseDuckDB(t *testing.T) {
	t.Parallel()
	if oddSchemaDuckDB == oddSchema {
		t.Fatal("the orphan of oddSchema moved; update oddSchemaDuckDB")
	}
	path := oddDatabase(t, oddSchemaDuckDB)
	out := filepath.Join(t.TempDir(), "odd.duckdb")
	// A plain path works as well as a duckdb:// DSN.
	if err := Copy(t.Context(), path, duckdb, out); err != nil {
		t.Fatal(err)
	}

	func() {
		src := openEngine(t, out)
		defer src.Close()
		byName := engineTables(t, src)
		odd := byName["Odd Name"]
		types := map[string]string{}
		for _, c := range odd.Columns {
			types[c.Name] = c.Type
		}
		want := map[string]string{
			"id": "BIGINT", "a": "BIGINT", "b": "VARCHAR", "born": "VARCHAR", "money": "DECIMAL(14,2)", "ratio": "DOUBLE",
			"flag": "BIGINT", "mixed": "VARCHAR", "anything": "DOUBLE", "payload": "BLOB", "code": "VARCHAR", "note": "VARCHAR",
		}
		if !maps.Equal(types, want) {
			t.Errorf("types %v, want %v", types, want)
		}

		got := engineRows(t, src, `SELECT id, a, b, born, money, ratio, flag, mixed, anything, lower(hex(payload)), code, note FROM "Odd Name" ORDER BY id`)
		wantRows := [][]string{
			{"1", "1", "p", "2024-01-31", "19.99", "1.234", "1", "5", "2.5", "00ff", "k1", "n"},
			{"2", "2", "q", "2023-12-01", "5.00", "0.5", "0", "five", "3", "", "k2", ""},
			{"3", "", "", "", "", "", "1", "", "", "", "k2 ", "a"},
			{"4", "", "", "", "", "", "1", "", "", "", "K1", "a"},
		}
		if !slices.EqualFunc(got, wantRows, slices.Equal) {
			t.Errorf("rows\n got %q\nwant %q", got, wantRows)
		}

		var fks []string
		for name, tb := range byName {
			for _, fk := range tb.ForeignKeys {
				for i, c := range fk.Columns {
					fks = append(fks, fmt.Sprintf("%s.%s→%s.%s", name, c, fk.RefTable.Name, fk.RefColumns[i]))
				}
			}
		}
		slices.Sort(fks)
		if want := []string{"Odd Name.a→parent.a", "Odd Name.b→parent.b", "child.odd_id→Odd Name.id"}; !slices.Equal(fks, want) {
			t.Errorf("foreign keys %v, want %v", fks, want)
		}
		if !slices.EqualFunc(odd.Uniques, [][]string{{"code"}, {"money", "ratio"}}, slices.Equal) {
			t.Errorf("uniques %v", odd.Uniques)
		}
		if len(odd.Indexes) != 1 || odd.Indexes[0].Name != "odd_money_ratio" || !odd.Indexes[0].Unique {
			t.Errorf("indexes %+v", odd.Indexes)
		}
		if byName["v1"].Kind != "view" || byName["v2"].Kind != "view" {
			t.Errorf("views v1, v2 missing: %v", byName)
		}
		if got := engineRows(t, src, `SELECT ident, code FROM v2 ORDER BY ident`); len(got) != 4 || got[3][1] != "K1" {
			t.Errorf("v2 reads %q", got)
		}
	}()

	// Literal defaults survive; the expression default does not. This
	// writes, so it opens the file itself once the engine is done with it.
	db, err := sql.Open("duckdb", out)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`INSERT INTO "Odd Name" (id) VALUES (10)`); err != nil {
		t.Fatal(err)
	}
	if got := queryRows(t, db, `SELECT flag, code, note FROM "Odd Name" WHERE id = 10`); !slices.Equal(got[0], []string{"1", "x'y", ""}) {
		t.Errorf("defaults %q", got[0])
	}
	// The key has no action: deleting a referenced row fails.
	if _, err := db.Exec(`DELETE FROM "Odd Name" WHERE id = 1`); err == nil {
		t.Error("deleting a referenced row succeeded")
	}
}

// TestCopyDuckDBSelfReference loads a hierarchy whose rows SQLite holds
// children first, which DuckDB takes only parents first.
func TestCopyDuckDBSelfReference(t *testing.T) {
	t.Parallel()
	path := oddDatabase(t, `
		CREATE TABLE node (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES node(id), name TEXT);
		INSERT INTO node VALUES (1, 2, 'a'), (2, 3, 'b'), (3, 4, 'c'), (4, 5, 'd'), (5, 6, 'e'), (6, NULL, 'root'), (7, 6, 'f');
		CREATE TABLE pair (a INTEGER, b INTEGER, up_a INTEGER, up_b INTEGER, PRIMARY KEY (a, b), FOREIGN KEY (up_a, up_b) REFERENCES pair);
		INSERT INTO pair VALUES (1, 1, 2, 2), (2, 2, 3, 3), (3, 3, NULL, NULL), (4, 4, 3, NULL);
		CREATE TABLE leaf (id INTEGER PRIMARY KEY, node_id INTEGER REFERENCES node(id));
		INSERT INTO leaf VALUES (1, 1);`)
	dsn := "duckdb://" + filepath.Join(t.TempDir(), "self.duckdb")
	if err := Copy(t.Context(), path, duckdb, dsn); err != nil {
		t.Fatal(err)
	}
	src := openEngine(t, dsn)
	for table, want := range map[string]int64{"node": 7, "pair": 4, "leaf": 1} {
		if n, err := src.RowCount(t.Context(), warehouse.TableName{Name: table}); err != nil || n != want {
			t.Errorf("%s: %d rows (%v), want %d", table, n, err, want)
		}
	}
	if got := engineRows(t, src, `SELECT string_agg(name, ',' ORDER BY id) FROM node`); got[0][0] != "a,b,c,d,e,root,f" {
		t.Errorf("node names %q", got)
	}
	byName := engineTables(t, src)
	if fks := byName["node"].ForeignKeys; len(fks) != 1 || fks[0].RefTable.Name != "node" {
		t.Errorf("node's foreign keys %+v", fks)
	}
}

// TestCopyDuckDBRefuses covers what DuckDB cannot hold: each copy fails
// with an error that says why, and leaves no file behind.
func TestCopyDuckDBRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, schema, want string }{
		{"orphan", oddSchema, `rows of "child"`},
		{"cycle", `
			CREATE TABLE t (id INTEGER PRIMARY KEY, up INTEGER REFERENCES t(id));
			INSERT INTO t VALUES (1, 2), (2, 1), (3, NULL);`, "2 rows reference each other in a cycle"},
		{"itself", `
			CREATE TABLE t (id INTEGER PRIMARY KEY, up INTEGER REFERENCES t(id));
			INSERT INTO t VALUES (1, NULL), (2, 2);`, "references itself"},
		{"self orphan", `
			CREATE TABLE t (id INTEGER PRIMARY KEY, up INTEGER REFERENCES t(id));
			INSERT INTO t VALUES (1, NULL), (2, 9);`, "(up) = (9) → t (id): no such row"},
		{"view", `
			CREATE TABLE t (x TEXT);
			INSERT INTO t VALUES ('2024-01-01');
			CREATE VIEW fine AS SELECT x FROM t;
			CREATE VIEW julian_days AS SELECT julianday(x) AS j FROM t;`, `view "julian_days"`},
		{"table cycle", `
			CREATE TABLE a (id INTEGER PRIMARY KEY, b_id INTEGER REFERENCES b(id));
			CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a(id));`, "cycle of foreign keys between tables"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := oddDatabase(t, c.schema)
			dir := t.TempDir()
			err := Copy(t.Context(), path, duckdb, filepath.Join(dir, "x.duckdb"))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Copy = %v, want an error with %q", err, c.want)
			}
			t.Log(err)
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("left %v behind", entries)
			}
		})
	}
}

func TestCopyDuckDBNeedsANewFile(t *testing.T) {
	t.Parallel()
	path := oddDatabase(t, `CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);`)
	dir := t.TempDir()
	dsn, drop, err := CreateDatabase(t.Context(), duckdb, "duckdb://"+dir, "x")
	if err != nil {
		t.Fatal(err)
	}
	if err := Copy(t.Context(), path, duckdb, dsn); err != nil {
		t.Fatal(err)
	}
	if _, _, err := CreateDatabase(t.Context(), duckdb, dir, "x"); err == nil {
		t.Error("CreateDatabase accepted an existing file")
	}
	err = Copy(t.Context(), path, duckdb, dsn)
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second Copy = %v, want an error that the file exists", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.duckdb")); err != nil {
		t.Errorf("the refused copy touched the existing file: %v", err)
	}
	if err := drop(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("drop left %v", entries)
	}
}

func TestAnyValueBareColumns(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{
			"SELECT o.id AS order_id, o.customer_id, o.status, COUNT(oi.id) AS item_count FROM orders o JOIN order_items oi ON oi.order_id = o.id GROUP BY o.id",
			`SELECT o.id AS order_id, ANY_VALUE(o.customer_id) AS "customer_id", ANY_VALUE(o.status) AS "status", COUNT(oi.id) AS item_count FROM orders o JOIN order_items oi ON oi.order_id = o.id GROUP BY o.id`,
		},
		{"SELECT a, COUNT(*) FROM t GROUP BY a", "SELECT a, COUNT(*) FROM t GROUP BY a"},
		{`SELECT t.a AS x, b, "c" d FROM t GROUP BY x HAVING COUNT(*) > 1`, `SELECT t.a AS x, ANY_VALUE(b) AS "b", ANY_VALUE("c") d FROM t GROUP BY x HAVING COUNT(*) > 1`},
		{"SELECT DISTINCT a, b FROM t GROUP BY 1", `SELECT DISTINCT a, ANY_VALUE(b) AS "b" FROM t GROUP BY 1`},
		{"SELECT u.a, t.a FROM t JOIN u USING (k) GROUP BY t.a", `SELECT ANY_VALUE(u.a) AS "a", t.a FROM t JOIN u USING (k) GROUP BY t.a`},
		{"SELECT a, (SELECT max(x) FROM u GROUP BY y) AS m, 1, NULL FROM t GROUP BY a", "SELECT a, (SELECT max(x) FROM u GROUP BY y) AS m, 1, NULL FROM t GROUP BY a"},
		{"SELECT a, b FROM t", "SELECT a, b FROM t"},
		{"SELECT a, b FROM t GROUP BY a UNION SELECT c, d FROM u GROUP BY c", "SELECT a, b FROM t GROUP BY a UNION SELECT c, d FROM u GROUP BY c"},
	} {
		if got := anyValueBareColumns(c.in); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}
