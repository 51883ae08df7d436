package postgres

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/discover-db/discover/warehouse"
)

func TestQueryValues(t *testing.T) {
	t.Parallel()
	s := open(t, newDB(t, fixture...).dsn)
	res, err := s.Query(context.Background(), `SELECT * FROM types ORDER BY i NULLS LAST`, warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []string{"i", "b", "n", "t", "v", "ok", "d", "ts", "u", "j", "raw", "arr", "r", "f"}
	if !reflect.DeepEqual(res.Columns, wantCols) {
		t.Errorf("columns = %q", res.Columns)
	}
	want := [][]any{
		{int64(1), int64(9000000000), "12.50", "héllo", "v", true, "2024-01-31", "2024-01-31 08:11:12.5+00",
			"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", `{"a": null, "b": [1, 2]}`, []byte{0x00, 0xff, 0x10}, "{1,2,3}",
			1.1, 2.25},
		make([]any, 14),
	}
	if len(res.Rows) != 2 || res.Truncated {
		t.Fatalf("rows = %v, truncated %v", res.Rows, res.Truncated)
	}
	for r := range want {
		for c := range want[r] {
			if got := res.Rows[r][c]; !reflect.DeepEqual(got, want[r][c]) {
				t.Errorf("row %d %s = %#v (%T), want %#v (%T)", r, wantCols[c], got, got, want[r][c], want[r][c])
			}
		}
	}

	res, err = s.Query(context.Background(), `SELECT 'NaN'::float8, '-Infinity'::float4, 'infinity'::timestamp,
		'1 day 02:03:04'::interval, 255::oid, 1::int2, '12:30'::time, 'x'::"char"`, warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantRow := []any{"NaN", "-Infinity", "infinity", "1 day 02:03:04", int64(255), int64(1), "12:30:00", "x"}
	if !reflect.DeepEqual(res.Rows[0], wantRow) {
		t.Errorf("odd values = %#v, want %#v", res.Rows[0], wantRow)
	}
}

func TestQueryShapes(t *testing.T) {
	t.Parallel()
	s := open(t, newDB(t, fixture...).dsn)
	ctx := context.Background()
	for q, want := range map[string][][]any{
		`SELECT "MixedCol", after FROM "CamelCase" ORDER BY 1;`: {{int64(1), "one"}, {int64(2), "two"}},
		`(SELECT 1) UNION ALL (SELECT 2) -- trailing comment`:   {{int64(1)}, {int64(2)}},
		`VALUES (1, 'a')`:    {{int64(1), "a"}},
		`TABLE "say ""hi"""`: {{"x", int64(1)}},
		`WITH x AS (SELECT count(*) AS n FROM sales.events) SELECT n FROM x`: {{int64(3)}},
		`SELECT count(*) FROM sales.events_2024`:                             {{int64(2)}},
		`SELECT * FROM "select" WHERE "where" = 99`:                          {},
	} {
		res, err := s.Query(ctx, q, warehouse.QueryOptions{})
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if !reflect.DeepEqual(res.Rows, append([][]any{}, want...)) {
			t.Errorf("%s = %#v, want %#v", q, res.Rows, want)
		}
	}
	res, err := s.Query(ctx, `EXPLAIN SELECT * FROM customer`, warehouse.QueryOptions{})
	if err != nil || len(res.Rows) == 0 || res.Columns[0] != "QUERY PLAN" {
		t.Errorf("EXPLAIN = %+v, %v", res, err)
	}
}

// endless runs until a timeout stops it; the guard refuses pg_sleep.
const endless = `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r`

// writes are refused by the guard before they reach the server.
var writes = []string{
	`INSERT INTO customer VALUES (9, 'z@x.org', 'Zed')`,
	`UPDATE customer SET name = 'x'`,
	`DELETE FROM "Order Items"`,
	`CREATE TABLE t2 (a int)`,
	`DROP TABLE customer`,
	`TRUNCATE customer`,
	`WITH d AS (DELETE FROM customer RETURNING *) SELECT * FROM d`,
	`SELECT * FROM customer FOR UPDATE`,
	`SELECT * INTO copy FROM customer`,
	`COPY customer TO STDOUT`,
	`SET default_transaction_read_only = off`,
	`BEGIN READ WRITE`,
	`SELECT 1; DELETE FROM customer`,
	`SELECT pg_sleep(1)`,
}

// serverRefuses are writes that fail at the server when the guard is
// bypassed: the first six with SQLSTATE 25006, the others earlier.
var serverRefuses = []string{
	`INSERT INTO customer VALUES (9, 'z@x.org', 'Zed')`,
	`UPDATE customer SET name = 'x'`,
	`DELETE FROM "Order Items"`,
	`CREATE TABLE t2 (a int)`,
	`DROP TABLE "select"`,
	`TRUNCATE customer`,
	`WITH d AS (DELETE FROM customer RETURNING *) SELECT * FROM d`,
	`SELECT * INTO copy FROM customer`,
	`SELECT 1; DELETE FROM customer`,
}

// TestServerRejectsWrites bypasses the guard: the read-only transaction
// refuses writes by itself.
func TestServerRejectsWrites(t *testing.T) {
	t.Parallel()
	db := newDB(t, fixture...)
	s := open(t, db.dsn)
	ctx := context.Background()
	for _, w := range serverRefuses[:6] {
		_, err := s.query(ctx, w, warehouse.QueryOptions{})
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "25006" {
			t.Errorf("%s: err = %v, want SQLSTATE 25006 read_only_sql_transaction", w, err)
		}
		if !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("%s: a write the server refused should match ErrRejected: %v", w, err)
		}
		// Labelled as the database's refusal, not the guard's.
		if !errors.Is(err, warehouse.ErrDatabaseRefused) || strings.Contains(err.Error(), "guard:") {
			t.Errorf("%s: not labelled as the database's refusal: %v", w, err)
		}
	}
	// A guard refusal is not the database's.
	if _, err := s.Query(ctx, serverRefuses[0], warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) || errors.Is(err, warehouse.ErrDatabaseRefused) {
		t.Errorf("the guard's refusal: %v", err)
	}
	// A query that writes cannot even be a subquery (nor, before, a
	// cursor), and the extended protocol refuses two statements at once.
	for _, w := range serverRefuses[6:] {
		if _, err := s.query(ctx, w, warehouse.QueryOptions{}); err == nil {
			t.Errorf("%s ran", w)
		}
	}
	// Outside our transactions, the connection's default still holds.
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ro string
	if err := conn.QueryRow(ctx, `SHOW default_transaction_read_only`).Scan(&ro); err != nil || ro != "on" {
		t.Errorf("default_transaction_read_only = %q, %v", ro, err)
	}
	_, err = conn.Exec(ctx, `INSERT INTO customer VALUES (9, 'z@x.org', 'Zed')`)
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "25006" {
		t.Errorf("INSERT on a bare pooled connection: %v, want SQLSTATE 25006", err)
	}
	conn.Release()

	res, err := s.Query(ctx, `SELECT count(*) FROM customer WHERE name IS DISTINCT FROM 'x'`, warehouse.QueryOptions{})
	if err != nil || res.Rows[0][0] != int64(3) {
		t.Errorf("customer changed: %v, %v", res, err)
	}
}

// The DSN cannot switch read-only off, whether as a startup parameter in
// another case or as a -c option.
func TestDSNCannotUndoReadOnly(t *testing.T) {
	t.Parallel()
	db := newDB(t, fixture...)
	for _, extra := range []string{
		"&Default_Transaction_Read_Only=off",
		"&options=-c%20default_transaction_read_only%3Doff",
	} {
		s := open(t, db.dsn+extra)
		conn, err := s.pool.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var ro string
		err = conn.QueryRow(context.Background(), `SHOW default_transaction_read_only`).Scan(&ro)
		conn.Release()
		if err != nil || ro != "on" {
			t.Errorf("%s: default_transaction_read_only = %q, %v", extra, ro, err)
		}
	}
}

func TestRowCount(t *testing.T) {
	t.Parallel()
	s := open(t, newDB(t, fixture...).dsn)
	ctx := context.Background()
	for name, want := range map[warehouse.TableName]int64{
		tn("", "customer"):           3,
		tn("", "Order Items"):        3,
		tn("", `say "hi"`):           1,
		tn("", "CamelCase"):          2,
		tn("", "order_totals"):       2,
		tn("sales", "events"):        3,
		tn("sales", "big_orders"):    2,
		tn("sales", "event_notes"):   1,
		tn("sales", "orders"):        2,
		tn("", "select"):             2,
		tn("sales", "shipment_line"): 2,
	} {
		if n, err := s.RowCount(ctx, name); err != nil || n != want {
			t.Errorf("RowCount(%s) = %d, %v; want %d", name, n, err, want)
		}
	}
	if _, err := s.RowCount(ctx, tn("", "nope")); err == nil {
		t.Error("RowCount of a missing table succeeded")
	}
}

func TestEstimateRows(t *testing.T) {
	t.Parallel()
	db := newDB(t, fixture...)
	s := open(t, db.dsn)
	ctx := context.Background()
	type est struct {
		n     int64
		exact bool
	}
	check := func(when string, want map[warehouse.TableName]est) {
		t.Helper()
		for name, w := range want {
			n, exact, err := s.EstimateRows(ctx, name)
			if err != nil || n != w.n || exact != w.exact {
				t.Errorf("%s: EstimateRows(%s) = %d, %v, %v; want %d, %v", when, name, n, exact, err, w.n, w.exact)
			}
		}
	}
	// Never analyzed: reltuples is -1, and small tables are counted.
	// REFRESH MATERIALIZED VIEW counts the rows it writes.
	check("before ANALYZE", map[warehouse.TableName]est{
		tn("", "customer"):     {3, true},
		tn("sales", "events"):  {3, true},
		tn("", "order_totals"): {2, false},
		tn("", "types"):        {2, true},
	})
	db.exec(t, `ANALYZE`)
	check("after ANALYZE", map[warehouse.TableName]est{
		tn("", "customer"):     {3, false},
		tn("sales", "events"):  {3, false}, // the sum over its partitions
		tn("", "order_totals"): {2, false},
		tn("", "types"):        {2, false},
	})
	if _, exact, err := s.EstimateRows(ctx, tn("sales", "big_orders")); err != nil || exact {
		t.Errorf("a view's estimate: exact %v, %v", exact, err)
	}
	if _, _, err := s.EstimateRows(ctx, tn("", "nope")); err == nil {
		t.Error("EstimateRows of a missing table succeeded")
	}
}

// TestQueryOrigins: asked for them, a result names the table column each
// of its columns is read from, through a column alias, a table alias, a
// subquery and the row cap's wrapping; a computed column names none (the
// query's text says what it reads); not asked, nothing is looked up.
func TestQueryOrigins(t *testing.T) {
	t.Parallel()
	s := open(t, newDB(t,
		`CREATE SCHEMA hr`,
		`CREATE TABLE hr.people (id int PRIMARY KEY, last_name text, email text)`,
		`INSERT INTO hr.people VALUES (1, 'Okafor', 'o@example.org')`).dsn)
	ctx := context.Background()
	q := `SELECT x, p2 AS y, id * 2 AS twice FROM (SELECT p.last_name AS x, p.email AS p2, p.id FROM hr.people p) s`
	res, err := s.Query(ctx, q, warehouse.QueryOptions{Origins: true, MaxRows: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []warehouse.ColumnOrigin{
		{Table: warehouse.TableName{Schema: "hr", Name: "people"}, Column: "last_name"},
		{Table: warehouse.TableName{Schema: "hr", Name: "people"}, Column: "email"},
		{},
	}
	if !reflect.DeepEqual(res.Origins, want) {
		t.Errorf("origins %+v, want %+v", res.Origins, want)
	}
	if got := warehouse.ResultSources(s.Dialect().Grammar(), q, res); !reflect.DeepEqual(got, [][]string{{"people.last_name"}, {"people.email"}, {"people.id"}}) {
		t.Errorf("sources %q", got)
	}
	res, err = s.Query(ctx, q, warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Origins != nil {
		t.Errorf("origins not asked for: %+v", res.Origins)
	}
}
