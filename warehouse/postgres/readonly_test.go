package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/discover-db/discover/warehouse"
)

// dbStats are the counters of pg_stat_database that move when anything
// commits or writes, xact_rollback, which proves our sessions were counted
// at all, and sessions: each new connection commits one transaction of the
// server's own (InitPostgres reads the catalogs in one), which is no
// commit of ours.
type dbStats struct {
	commits, inserted, updated, deleted, rollbacks, sessions int64
}

// settledStats waits until no session is connected to the database and
// its counters have stopped moving: a backend flushes its statistics as it
// exits, a moment after the client has gone. An autovacuum worker is a
// session too, so one visiting the database is waited out.
func settledStats(t *testing.T, admin *pgx.Conn, name string) dbStats {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(15 * time.Second)
	var prev dbStats
	settled := false
	for {
		var sessions int
		var cur dbStats
		if err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = $1`, name).Scan(&sessions); err != nil {
			t.Fatal(err)
		}
		if err := admin.QueryRow(ctx, `SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, xact_rollback, sessions
			FROM pg_stat_database WHERE datname = $1`, name).
			Scan(&cur.commits, &cur.inserted, &cur.updated, &cur.deleted, &cur.rollbacks, &cur.sessions); err != nil {
			t.Fatal(err)
		}
		if sessions == 0 && settled && cur == prev {
			return cur
		}
		prev, settled = cur, sessions == 0
		if time.Now().After(deadline) {
			t.Fatalf("statistics of %s did not settle: %d sessions, %+v", name, sessions, cur)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func countObjects(t *testing.T, dsn string) int64 {
	t.Helper()
	c := connect(t, dsn)
	defer c.Close(context.Background())
	var n int64
	if err := c.QueryRow(context.Background(), `SELECT count(*) FROM pg_class`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDatabaseUnchanged is the promise of the whole tool: a discovery
// commits nothing and writes no row, even when asked to.
//
// The counters are per database, and autovacuum's visits (about one a
// minute) commit transactions there too. VACUUM ANALYZE first leaves it
// nothing to write; a visit that still falls inside the window is waited
// out by running the discovery again: a commit of ours would show every time.
func TestDatabaseUnchanged(t *testing.T) {
	t.Parallel()
	db := newDB(t, fixture...)
	db.exec(t, `VACUUM ANALYZE`)
	objects := countObjects(t, db.dsn)
	var moves []string
	for attempt := 0; attempt < 3; attempt++ {
		before := settledStats(t, db.admin, db.name)
		discover(t, db.dsn)
		after := settledStats(t, db.admin, db.name)
		if after.rollbacks <= before.rollbacks || after.sessions <= before.sessions {
			t.Fatalf("no session or transaction of ours was counted (%+v → %+v): the check would prove nothing", before, after)
		}
		startups := after.sessions - before.sessions
		after.commits -= startups
		after.rollbacks, after.sessions = before.rollbacks, before.sessions
		if after == before {
			moves = nil
			break
		}
		moves = append(moves, fmt.Sprintf("%+v → %+v (commits less %d session starts)", before, after, startups))
		t.Logf("attempt %d: %s", attempt, moves[len(moves)-1])
	}
	if moves != nil {
		t.Errorf("pg_stat_database moved on every attempt; want no commit and no row written:\n%s", strings.Join(moves, "\n"))
	}
	if n := countObjects(t, db.dsn); n != objects {
		t.Errorf("pg_class holds %d objects, %d before", n, objects)
	}
}

// discover does what a discovery does with a Source, and tries to write.
func discover(t *testing.T, dsn string) {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if _, err := s.RowCount(ctx, tb.Name); err != nil {
			t.Error(err)
		}
		if _, _, err := s.EstimateRows(ctx, tb.Name); err != nil {
			t.Error(err)
		}
		if _, err := s.Query(ctx, "SELECT * FROM "+s.QuoteTable(tb.Name), warehouse.QueryOptions{MaxRows: 5}); err != nil {
			t.Error(err)
		}
	}
	if _, err := s.Skipped(ctx); err != nil {
		t.Error(err)
	}
	for _, w := range writes {
		if _, err := s.Query(ctx, w, warehouse.QueryOptions{}); err == nil {
			t.Errorf("%s: no error", w)
		}
	}
	for _, w := range serverRefuses {
		if _, err := s.query(ctx, w, warehouse.QueryOptions{}); err == nil {
			t.Errorf("%s (unguarded): no error", w)
		}
	}
}

// A role that may read only some tables sees only those; the others are
// reported as skipped, with why.
func TestSelectOnlyRole(t *testing.T) {
	t.Parallel()
	db := newDB(t, fixture...)
	db.exec(t, `CREATE SCHEMA hidden`, `CREATE TABLE hidden.secret (a int)`)
	const password = "reader-Pa55word"
	role := db.role(t, password, func(r string) []string {
		return []string{
			`GRANT CONNECT ON DATABASE ` + QuoteIdent(db.name) + ` TO ` + r,
			`GRANT USAGE ON SCHEMA sales TO ` + r,
			`GRANT SELECT ON customer, sales.orders, sales.big_orders, hidden.secret TO ` + r,
		}
	})
	s := open(t, withUser(t, db.dsn, role, password))
	ctx := context.Background()

	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name.String())
	}
	if want := []string{"customer", "sales.big_orders", "sales.orders"}; !slices.Equal(names, want) {
		t.Errorf("tables = %q, want %q", names, want)
	}

	skipped, err := s.Skipped(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, sk := range skipped {
		got[sk.Table.String()] = sk.Reason
	}
	want := map[string]string{"hidden.secret": "no USAGE privilege on schema hidden"}
	for _, name := range []string{"CamelCase", "Order Items", "order_totals", "sales.event_notes", "sales.events",
		"sales.pending", "sales.shipment_line", `say "hi"`, "select", "types"} {
		want[name] = "no SELECT privilege"
	}
	if len(got) != len(want) {
		t.Errorf("skipped = %q\nwant      %q", got, want)
	}
	for name, reason := range want {
		if got[name] != reason {
			t.Errorf("skipped[%s] = %q, want %q", name, got[name], reason)
		}
	}

	if n, err := s.RowCount(ctx, tn("sales", "orders")); err != nil || n != 2 {
		t.Errorf("RowCount(sales.orders) = %d, %v", n, err)
	}
	_, err = s.Query(ctx, `SELECT * FROM types`, warehouse.QueryOptions{})
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "42501" || errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("reading a table without privilege: %v; want SQLSTATE 42501, not a guard refusal", err)
	}
}
