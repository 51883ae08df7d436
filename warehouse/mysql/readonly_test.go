package mysql

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// TestServerRefusesWrites goes around the guard (run is Query minus Check)
// to show that the server itself refuses every write: the read-only
// transaction refuses DML, and the read-only session refuses DDL, which
// would otherwise commit the transaction implicitly and run outside it.
func TestServerRefusesWrites(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db, ref, _ := fixture(t, admin)
	s := open(t, rootDSN(t, db))
	// One connection, so a statement that changed the session would be seen
	// by the next one.
	s.db.SetMaxOpenConns(1)
	ctx := context.Background()
	writes := []string{
		"INSERT INTO customer VALUES (9, 'z@x.org', 'Zed')",
		"INSERT INTO " + QuoteIdent(ref) + ".region VALUES (9, 'west')",
		"UPDATE customer SET name = 'x'",
		"DELETE FROM `order items`",
		"REPLACE INTO customer VALUES (1, 'a@x.org', 'Zed')",
		"INSERT INTO customer SELECT id + 10, CONCAT(email, 'x'), name FROM customer",
		"UPDATE `naïve` AS n JOIN customer AS c ON c.id = n.cust_id SET c.name = 'joined'",
		"CREATE TABLE t2 (a INT)",
		"CREATE TABLE t3 AS SELECT * FROM customer",
		"CREATE TEMPORARY TABLE t4 (a INT)",
		"DROP TABLE shipment_line",
		"TRUNCATE TABLE shipment_line",
		"ALTER TABLE customer ADD COLUMN z INT",
		"CREATE INDEX i2 ON customer (name)",
		"RENAME TABLE customer TO client",
		"CREATE VIEW v2 AS SELECT 1",
		"DROP VIEW `big orders`",
		"CREATE DATABASE " + QuoteIdent(db+"_x"),
	}
	for _, w := range writes {
		_, err := s.run(ctx, w, warehouse.QueryOptions{})
		if err == nil {
			t.Errorf("%s: the server accepted it", w)
			continue
		}
		if code := serverCode(err); code != erReadOnlyTx {
			t.Errorf("%s: err = %v, want error %d (read-only transaction)", w, err, erReadOnlyTx)
		}
		if !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("%s: err = %v, want ErrRejected", w, err)
		}
	}

	// A statement that turns the session writable (only possible around the
	// guard) is undone before the next operation.
	if _, err := s.run(ctx, "SET SESSION TRANSACTION READ WRITE", warehouse.QueryOptions{}); err != nil {
		t.Logf("SET SESSION TRANSACTION READ WRITE inside the transaction: %v", err)
	}
	if _, err := s.run(ctx, "CREATE TABLE sneaky (a INT)", warehouse.QueryOptions{}); serverCode(err) != erReadOnlyTx {
		t.Errorf("DDL after SET SESSION TRANSACTION READ WRITE: err = %v, want %d", err, erReadOnlyTx)
	}

	var n int
	if err := admin.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", db).Scan(&n); err != nil || n != 9 {
		t.Errorf("tables and views in %s: %d, %v; want the fixture's 9", db, n, err)
	}
	if err := admin.QueryRow("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", db+"_x").Scan(&n); err != nil || n != 0 {
		t.Errorf("CREATE DATABASE went through: %d, %v", n, err)
	}
	var name sql.NullString
	if err := admin.QueryRow("SELECT name FROM " + QuoteIdent(db) + ".customer WHERE id = 1").Scan(&name); err != nil || name.String != "Ann" {
		t.Errorf("customer 1 name = %v, %v", name, err)
	}
	for table, want := range map[string]int{"customer": 3, "order items": 3, "shipment_line": 4} {
		if err := admin.QueryRow("SELECT COUNT(*) FROM " + QuoteIdent(db) + "." + QuoteIdent(table)).Scan(&n); err != nil || n != want {
			t.Errorf("%s: %d rows, %v; want %d", table, n, err, want)
		}
	}
}

// createReader creates a user (for every host a loopback client may be
// seen as) with SELECT on customer only and INSERT on `order items`, so
// information_schema shows it the latter but it may not read it.
func createReader(t *testing.T, admin *sql.DB, db string) (user, password string) {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	user, password = "r_"+hex.EncodeToString(b), "x"
	for _, host := range []string{"%", "localhost", "127.0.0.1"} {
		u := "'" + user + "'@'" + host + "'"
		exec(t, admin,
			"CREATE USER "+u+" IDENTIFIED BY '"+password+"'",
			"GRANT SELECT ON "+QuoteIdent(db)+".customer TO "+u,
			"GRANT INSERT ON "+QuoteIdent(db)+".`order items` TO "+u)
		t.Cleanup(func() {
			if _, err := admin.Exec("DROP USER IF EXISTS " + u); err != nil {
				t.Errorf("drop user %s: %v", u, err)
			}
		})
	}
	return user, password
}

func TestSelectOnlyUser(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db, ref, _ := fixture(t, admin)
	user, password := createReader(t, admin, db)
	s := open(t, dsnFor(t, db, user, password))
	ctx := context.Background()

	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkCreateStatements(t, tables)
	want := wantTables(s, ref)[1] // customer, whole
	if len(tables) != 1 || !reflect.DeepEqual(tables[0], want) {
		t.Errorf("tables = %+v\nwant only %+v", tables, want)
	}
	skipped, err := s.Skipped(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantSkipped := []warehouse.Skipped{{Table: warehouse.TableName{Name: "order items"}, Reason: noSelect}}
	if !reflect.DeepEqual(skipped, wantSkipped) {
		t.Errorf("Skipped = %+v, want %+v", skipped, wantSkipped)
	}
	if n, err := s.RowCount(ctx, warehouse.TableName{Name: "customer"}); err != nil || n != 3 {
		t.Errorf("RowCount(customer) = %d, %v", n, err)
	}
	// The guard refuses a table Tables left out; the server refuses it too.
	if _, err := s.Query(ctx, "SELECT * FROM `order items`", warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("guard on a table without SELECT: err = %v", err)
	}
	if _, err := s.run(ctx, "SELECT * FROM `order items`", warehouse.QueryOptions{}); serverCode(err) != erTableAccessDenied {
		t.Errorf("reading a table without SELECT: err = %v", err)
	}
	// The user may INSERT there; the read-only session still says no.
	if _, err := s.run(ctx, "INSERT INTO `order items` VALUES (3, 10, 'S3', 1)", warehouse.QueryOptions{}); serverCode(err) != erReadOnlyTx {
		t.Errorf("INSERT with INSERT privilege: err = %v, want %d", err, erReadOnlyTx)
	}

	// A database the user has no privilege on at all is refused at Open.
	_, err = Open(ctx, dsnFor(t, ref, user, password))
	if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), "access denied for user '"+user+"'") {
		t.Errorf("Open on a forbidden database: %v", err)
	}
}

type status map[string]int64

// globalStatus reads the server's statement counters for writes.
func globalStatus(t *testing.T, admin *sql.DB) status {
	t.Helper()
	rows, err := admin.Query(`SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_insert', 'Com_insert_select',
		'Com_update', 'Com_update_multi', 'Com_delete', 'Com_delete_multi', 'Com_replace', 'Com_replace_select',
		'Com_truncate', 'Com_load')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	st := status{}
	for rows.Next() {
		var name string
		var v int64
		if err := rows.Scan(&name, &v); err != nil {
			t.Fatal(err)
		}
		st[name] = v
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return st
}

func (a status) minus(b status) status {
	d := status{}
	for k, v := range a {
		if v != b[k] {
			d[k] = v - b[k]
		}
	}
	return d
}

// checksums is CHECKSUM TABLE of every base table of the databases.
func checksums(t *testing.T, admin *sql.DB, dbs ...string) map[string]int64 {
	t.Helper()
	sums := map[string]int64{}
	for _, db := range dbs {
		rows, err := admin.Query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'", db)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			names = append(names, n)
		}
		rows.Close()
		for _, n := range names {
			full := QuoteIdent(db) + "." + QuoteIdent(n)
			var table string
			var sum sql.NullInt64
			if err := admin.QueryRow("CHECKSUM TABLE "+full+" EXTENDED").Scan(&table, &sum); err != nil || !sum.Valid {
				t.Fatalf("CHECKSUM TABLE %s: %v %v", full, sum, err)
			}
			sums[full] = sum.Int64
		}
	}
	return sums
}

// TestDataUnchanged is the promise of the whole tool: a discovery's every
// call leaves the data as it found it, and the server counts no write
// statement but the fixture's own. It does not run in parallel with this
// package's other tests, whose fixtures would move the global counters;
// other clients of a shared server can, so a window in which one wrote is
// measured again (a write of ours would show in every window). The session
// counters of the source's one connection are exact regardless.
func TestDataUnchanged(t *testing.T) {
	admin := adminDB(t, "")
	st0 := globalStatus(t, admin)
	db, ref, inserts := fixture(t, admin)
	if d := globalStatus(t, admin).minus(st0); d["Com_insert"] < int64(inserts) {
		t.Fatalf("the fixture's %d inserts counted as %v: the counters do not measure what this test needs", inserts, d)
	}
	before := checksums(t, admin, db, ref)

	for attempt := 1; ; attempt++ {
		st1 := globalStatus(t, admin)
		discover(t, rootDSN(t, db), ref)
		d := globalStatus(t, admin).minus(st1)
		if len(d) == 0 {
			break
		}
		if attempt == 5 {
			t.Errorf("write statements counted during each of %d discoveries, the last: %v", attempt, d)
			break
		}
		t.Logf("attempt %d: %v written during the discovery, by another client or by us; again", attempt, d)
	}
	if after := checksums(t, admin, db, ref); !reflect.DeepEqual(before, after) {
		t.Errorf("checksums changed:\nbefore %v\nafter  %v", before, after)
	}
}

// discover makes every call a discovery makes, on one connection, and
// checks that connection's own write counters.
func discover(t *testing.T, dsn, ref string) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.db.SetMaxOpenConns(1)
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Skipped(ctx); err != nil {
		t.Fatal(err)
	}
	names := []warehouse.TableName{{Schema: ref, Name: "region"}}
	for _, tb := range tables {
		names = append(names, tb.Name)
	}
	for _, name := range names {
		if _, err := s.RowCount(ctx, name); err != nil {
			t.Error(err)
		}
		s.EstimateRows(ctx, name)
		for _, max := range []int{0, 2} {
			if _, err := s.Query(ctx, "SELECT * FROM "+s.QuoteTable(name), warehouse.QueryOptions{MaxRows: max}); err != nil {
				t.Error(err)
			}
		}
	}
	res, err := s.Query(ctx, `SHOW SESSION STATUS WHERE Variable_name IN ('Com_insert', 'Com_update', 'Com_delete',
		'Com_replace', 'Com_truncate', 'Com_insert_select', 'Com_update_multi', 'Com_delete_multi')`, warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 8 {
		t.Errorf("session status: %v", res.Rows)
	}
	for _, row := range res.Rows {
		if row[1] != "0" {
			t.Errorf("session status %v = %v, want 0", row[0], row[1])
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
