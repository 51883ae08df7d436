package trino

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"

	_ "github.com/trinodb/trino-go-client/trino" // the "trino" driver, for the fixtures
)

// The tests run their bodies twice: against the fake coordinator, whose
// recordings show what a cluster cannot (the statements sent, their
// headers, a 401, TLS, a refused transaction), and against the cluster
// .ci/start-trino starts, which is right wherever the two differ. The
// cluster's catalog hive is the memory connector holding the fake's
// fixture (fixtureTables), built once per test binary; its file-based
// access control lets alice see hive.sales.secret_margins but not read it.

// clusterAddr is the host:port of the test cluster from DISCOVER_TEST_TRINO,
// failing in CI (where .ci/run starts it) and skipping the test elsewhere.
func clusterAddr(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv("DISCOVER_TEST_TRINO")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DISCOVER_TEST_TRINO not set: .ci/run starts the cluster")
		}
		t.Skip(`DISCOVER_TEST_TRINO not set: run eval "$(.ci/start-trino)" first`)
	}
	u, err := url.Parse(dsn)
	if err != nil || u.Host == "" {
		t.Fatalf("DISCOVER_TEST_TRINO %q: want trino://user@host:port/catalog", dsn)
	}
	return u.Host
}

// clusterAdmin is a plain client connection as admin, who may write: the
// fixtures are test setup, not the product.
func clusterAdmin(t testing.TB, catalog, schema string) *sql.DB {
	t.Helper()
	dsn := "http://admin@" + clusterAddr(t) + "?catalog=" + catalog
	if schema != "" {
		dsn += "&schema=" + schema
	}
	db, err := sql.Open("trino", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func execAll(ctx context.Context, db *sql.DB, stmts ...string) error {
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, describe(err))
		}
	}
	return nil
}

var (
	hiveOnce sync.Once
	hiveErr  error
)

// clusterHive builds the cluster's catalog hive from fixtureTables, once
// per test binary, and returns the cluster's address.
func clusterHive(t testing.TB) string {
	t.Helper()
	addr := clusterAddr(t)
	hiveOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		hiveErr = buildHive(ctx, addr)
	})
	if hiveErr != nil {
		t.Fatalf("building the cluster's catalog hive: %v", hiveErr)
	}
	return addr
}

func buildHive(ctx context.Context, addr string) error {
	admin := func(schema string) (*sql.DB, error) {
		return sql.Open("trino", "http://admin@"+addr+"?catalog=hive&schema="+schema)
	}
	db, err := admin("information_schema")
	if err != nil {
		return err
	}
	defer db.Close()
	// Start from nothing: a cluster left running keeps the last run's tables.
	var drops []string
	rows, err := db.QueryContext(ctx, "SELECT table_schema, table_name, table_type FROM hive.information_schema.tables WHERE table_schema <> 'information_schema'")
	if err != nil {
		return describe(err)
	}
	for rows.Next() {
		var schema, name, kind string
		if err := rows.Scan(&schema, &name, &kind); err != nil {
			return err
		}
		what := "TABLE"
		if kind == "VIEW" {
			what = "VIEW"
		}
		drops = append(drops, fmt.Sprintf("DROP %s hive.%s.%s", what, dialect.QuoteIdent(schema), dialect.QuoteIdent(name)))
	}
	if err := rows.Err(); err != nil {
		return describe(err)
	}
	rows.Close()
	if err := execAll(ctx, db, drops...); err != nil {
		return err
	}

	tables := fixtureTables()
	var views []*fakeTable
	for _, s := range []string{"sales", "hr"} {
		if err := execAll(ctx, db, "CREATE SCHEMA IF NOT EXISTS hive."+s); err != nil {
			return err
		}
	}
	for _, ft := range tables {
		if ft.kind == "VIEW" {
			views = append(views, ft)
			continue
		}
		name := "hive." + ft.schema + "." + dialect.QuoteIdent(ft.name)
		var defs, vals []string
		for _, c := range ft.cols {
			d := dialect.QuoteIdent(c.name) + " " + c.typ
			if c.notNull {
				d += " NOT NULL"
			}
			defs = append(defs, d)
			vals = append(vals, valueOf(c.typ))
		}
		stmts := []string{"CREATE TABLE " + name + " (" + strings.Join(defs, ", ") + ")"}
		if ft.count > 0 {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO %s SELECT %s FROM UNNEST(sequence(1, %d)) AS s(x)", name, strings.Join(vals, ", "), ft.count))
		}
		if ft.comment != "" {
			stmts = append(stmts, "COMMENT ON TABLE "+name+" IS "+quoteString(ft.comment))
		}
		for col, cm := range ft.colComments {
			stmts = append(stmts, "COMMENT ON COLUMN "+name+"."+dialect.QuoteIdent(col)+" IS "+quoteString(cm))
		}
		if err := execAll(ctx, db, stmts...); err != nil {
			return err
		}
	}
	// A view keeps the session's schema for its bare names: each is made
	// in its own schema. The invalid one is made over a table then dropped.
	for _, v := range views {
		vdb, err := admin(v.schema)
		if err != nil {
			return err
		}
		stmts := []string{"CREATE VIEW " + dialect.QuoteIdent(v.name) + " AS " + v.def}
		if v.invalid {
			stmts = []string{"CREATE TABLE old_staff (emp_id integer)", stmts[0], "DROP TABLE old_staff"}
		}
		err = execAll(ctx, vdb, stmts...)
		vdb.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// valueOf is a value of typ made from the row number x.
func valueOf(typ string) string {
	switch {
	case typ == "bigint" || typ == "integer" || typ == "double" || strings.HasPrefix(typ, "decimal"):
		return "CAST(x AS " + typ + ")"
	case strings.HasPrefix(typ, "varchar"):
		return "CAST('v' || CAST(x AS varchar) AS " + typ + ")"
	case typ == "date":
		return "DATE '2024-01-01' + x * INTERVAL '1' DAY"
	case strings.HasPrefix(typ, "timestamp"):
		return "CAST(TIMESTAMP '2024-01-01 00:00:00' + x * INTERVAL '1' HOUR AS " + typ + ")"
	case typ == "boolean":
		return "x % 2 = 0"
	case typ == "array(varchar)":
		return "ARRAY['t' || CAST(x AS varchar)]"
	}
	panic("cluster fixture: no value for type " + typ)
}

// target is where a test body runs.
type target struct {
	addr string
	fake *fakeCoordinator // nil on the cluster
}

func (tg target) open(t testing.TB, path string) *Source {
	t.Helper()
	return tg.openAs(t, "alice", path)
}

// openAs opens the source as user: on the cluster, alice may read all but
// hive.sales.secret_margins (and memory's salaries tables), bob not the
// system catalog's table comments either.
func (tg target) openAs(t testing.TB, user, path string) *Source {
	t.Helper()
	s, err := Open(context.Background(), "trino://"+user+"@"+tg.addr+path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// onBoth runs body against a fresh fake coordinator (given its fixtures by
// setup, which may be nil) and against the cluster's catalog hive.
func onBoth(t *testing.T, setup func(f *fakeCoordinator), body func(t *testing.T, tg target)) {
	t.Helper()
	t.Run("fake", func(t *testing.T) {
		f := newFakeCoordinator(t)
		if setup != nil {
			setup(f)
		}
		f.start()
		body(t, target{addr: f.addr(), fake: f})
	})
	t.Run("cluster", func(t *testing.T) {
		body(t, target{addr: clusterHive(t)})
	})
}

// clusterQueries lists alice's queries whose text contains marker, by id,
// with their state and error code, as system.runtime.queries shows them to
// admin (who sees everyone's).
func clusterQueries(t *testing.T, marker string) map[string]string {
	t.Helper()
	db := clusterAdmin(t, "system", "runtime")
	rows, err := db.QueryContext(context.Background(), "SELECT query_id, state, coalesce(error_code, '') FROM system.runtime.queries "+
		"WHERE \"user\" = 'alice' AND strpos(query, "+quoteString(marker)+") > 0")
	if err != nil {
		t.Fatalf("system.runtime.queries: %v", describe(err))
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, state, code string
		if err := rows.Scan(&id, &state, &code); err != nil {
			t.Fatal(err)
		}
		out[id] = strings.TrimSuffix(state+" "+code, " ")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// assertCancelled checks that the cluster ran q once and that it ended as
// a query its user cancelled: the client's DELETE, not the cluster's own
// time limit, nor still running. The cancel is asynchronous: it is given
// a few seconds to land.
func assertCancelled(t *testing.T, q string) {
	t.Helper()
	var got map[string]string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		got = clusterQueries(t, q)
		if len(got) == 1 {
			for _, state := range got {
				if state == "FAILED USER_CANCELED" {
					return
				}
			}
		}
	}
	t.Errorf("system.runtime.queries for the timed-out query: %v; want one, FAILED USER_CANCELED", got)
}

// The read-only transaction holds on its own: writes sent through Run,
// past the guard, on the source's own connection and transaction, are
// refused by the cluster (READ_ONLY_VIOLATION), whatever the door and the
// catalog, and change nothing. DELETE and UPDATE are not among them: the
// memory connector cannot do them at all (NOT_SUPPORTED).
func TestClusterRefusesWrites(t *testing.T) {
	addr := clusterHive(t)
	s := target{addr: addr}.open(t, "/hive/sales")
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO orders (order_id) VALUES (99)`,
		`CREATE TABLE copy AS SELECT * FROM orders`,
		`CREATE TABLE empty_copy (x bigint)`,
		`DROP TABLE customers`,
		`ALTER TABLE orders ADD COLUMN extra bigint`,
		`COMMENT ON TABLE orders IS 'changed'`,
		`CREATE VIEW v AS SELECT 1 AS x`,
		`DROP VIEW order_totals`,
		`CREATE SCHEMA hive.intruder`,
		`CREATE TABLE memory.default.intruder AS SELECT 1 AS x`,
		`TRUNCATE TABLE orders`,
	} {
		if s.Admit(ctx, q) == nil {
			t.Errorf("the guard admits %s: this test needs one it refuses", q)
		}
		_, err := s.Run(ctx, q, s.Limits())
		if !errors.Is(err, warehouse.ErrDatabaseRefused) {
			t.Errorf("%s: err = %v, want the cluster's refusal (ErrDatabaseRefused)", q, err)
		}
	}
	admin := clusterAdmin(t, "hive", "sales")
	var rows, tables int64
	if err := admin.QueryRowContext(ctx, "SELECT count(*) FROM orders").Scan(&rows); err != nil || rows != 5 {
		t.Errorf("hive.sales.orders holds %d rows (%v), want 5", rows, err)
	}
	if err := admin.QueryRowContext(ctx, "SELECT count(*) FROM hive.information_schema.tables WHERE table_schema = 'sales'").Scan(&tables); err != nil || tables != 4 {
		t.Errorf("hive.sales holds %d tables and views (%v), want 4", tables, err)
	}
	var intruders int64
	if err := admin.QueryRowContext(ctx, "SELECT count(*) FROM memory.information_schema.tables WHERE table_name = 'intruder'").Scan(&intruders); err != nil || intruders != 0 {
		t.Errorf("memory holds %d tables named intruder (%v), want none", intruders, err)
	}
	var schemas int64
	if err := admin.QueryRowContext(ctx, "SELECT count(*) FROM hive.information_schema.schemata WHERE schema_name = 'intruder'").Scan(&schemas); err != nil || schemas != 0 {
		t.Errorf("hive holds %d schemas named intruder (%v), want none", schemas, err)
	}
}

// query_max_run_time, sent with each statement, is the cluster's own
// limit: a statement whose client never cancels still ends, and the
// cluster's EXCEEDED_TIME_LIMIT reads as a timeout.
func TestClusterMaxRunTime(t *testing.T) {
	addr := clusterHive(t)
	s := target{addr: addr}.open(t, "/hive")
	q := fmt.Sprintf("SELECT count(*) AS max_run_time_%d FROM UNNEST(sequence(1, 10000)) AS a(x) "+
		"CROSS JOIN UNNEST(sequence(1, 10000)) AS b(y) CROSS JOIN UNNEST(sequence(1, 10000)) AS c(z)", time.Now().UnixNano())
	start := time.Now()
	// No deadline on the context: only the session property can stop it.
	rows, err := s.db.QueryContext(context.Background(), q, sql.Named(sessionHeader, "query_max_run_time=2s"))
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	err = runErr(2*time.Second, err)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timed out on the cluster") {
		t.Fatalf("err = %v, want the cluster's time limit", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the 2 s limit ended the query after %s", d)
	}
	got := clusterQueries(t, q)
	if len(got) != 1 {
		t.Fatalf("system.runtime.queries: %v", got)
	}
	for _, state := range got {
		if state != "FAILED EXCEEDED_TIME_LIMIT" {
			t.Errorf("state %q, want FAILED EXCEEDED_TIME_LIMIT", state)
		}
	}
}

// dropSchema drops a schema of the memory catalog and what it holds: the
// connector keeps its tables in the worker's heap.
func dropSchema(t testing.TB, admin *sql.DB, schema string) {
	ctx := context.Background()
	rows, err := admin.QueryContext(ctx, "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = "+quoteString(schema))
	if err != nil {
		t.Errorf("drop schema %s: %v", schema, describe(err))
		return
	}
	var drops []string
	for rows.Next() {
		var name, kind string
		if err := rows.Scan(&name, &kind); err != nil {
			t.Error(err)
		}
		what := "TABLE "
		if kind == "VIEW" {
			what = "VIEW "
		}
		// Views first: a table a view reads may not go before it.
		if kind == "VIEW" {
			drops = append([]string{"DROP " + what + dialect.QuoteIdent(name)}, drops...)
		} else {
			drops = append(drops, "DROP "+what+dialect.QuoteIdent(name))
		}
	}
	rows.Close()
	if err := execAll(ctx, admin, append(drops, "DROP SCHEMA "+dialect.QuoteIdent(schema))...); err != nil {
		t.Errorf("drop schema %s: %v", schema, err)
	}
}

// The read-only transaction on a second connector: the built-in tpch
// generator takes START TRANSACTION READ ONLY, lists its tables and
// counts them, and keeps row counts in its statistics, which discover
// takes as exact on this connector (exactCounts) and not on the memory
// connector, whose name the catalog hive hides.
func TestClusterTPCH(t *testing.T) {
	s := target{addr: clusterHive(t)}.open(t, "/tpch/tiny")
	ctx := context.Background()
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatalf("Tables: %v", err)
	}
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name.String())
	}
	if got := strings.Join(names, " "); got != "customer lineitem nation orders part partsupp region supplier" {
		t.Errorf("tables = %s", got)
	}
	nation := warehouse.TableName{Name: "nation"}
	if n, err := s.RowCount(ctx, nation); err != nil || n != 25 {
		t.Errorf("RowCount(nation) = %d, %v; want 25", n, err)
	}
	if n, exact, err := s.EstimateRows(ctx, warehouse.TableName{Name: "orders"}); err != nil || n != 15000 || !exact {
		t.Errorf("EstimateRows(orders) = %d, %v, %v; want 15000, exact", n, exact, err)
	}
	if n, exact, err := s.EstimateRows(ctx, warehouse.TableName{Schema: "hive.sales", Name: "orders"}); err != nil || n != 5 || exact {
		t.Errorf("EstimateRows(hive.sales.orders), a memory connector's = %d, %v, %v; want 5, not exact", n, exact, err)
	}
	// tpch lists sf1, sf100, … among its schemas but generates any sfN
	// and lists its tables: sf10 opens, a schema of no tables does not.
	// It keeps statistics only for tiny and sf1: none for sf10.
	sf10 := target{addr: clusterAddr(t)}.open(t, "/tpch/sf10")
	if n, _, err := sf10.EstimateRows(ctx, warehouse.TableName{Name: "orders"}); err == nil || !strings.Contains(err.Error(), "keeps no row count") {
		t.Errorf("tpch/sf10: EstimateRows(orders) = %d, %v; want no row count", n, err)
	}
	if _, err := Open(ctx, "trino://alice@"+clusterAddr(t)+"/tpch/sf10x"); !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), `schema "sf10x" not found`) {
		t.Errorf("tpch/sf10x: err = %v, want schema not found", err)
	}
	// tpch writes nothing (NOT_SUPPORTED comes before the transaction's
	// check); a copy of it into another catalog meets the transaction.
	if _, err := s.Run(ctx, "CREATE TABLE memory.default.tpch_copy AS SELECT * FROM nation", s.Limits()); !errors.Is(err, warehouse.ErrDatabaseRefused) {
		t.Errorf("a copy of tpch into memory: err = %v, want ErrDatabaseRefused", err)
	}
}
