package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/discover-db/discover/internal/guardcorpus"
	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/warehouse"
)

// guardDB is a scratch database holding guardFixture and the extensions
// an attacker would reach for, opened as the superuser.
type guardDB struct {
	dsn, name string
	admin     *sql.DB
}

func newGuardDB(t *testing.T) *guardDB {
	t.Helper()
	server := pgscratch.Server(t)
	dsn, name, admin := pgscratch.Database(t, server, "discover_guard")
	ctx := context.Background()
	var available []string
	rows, err := admin.QueryContext(ctx, `SELECT name FROM pg_available_extensions
		WHERE name IN ('dblink', 'adminpack', 'pageinspect', 'tablefunc', 'xml2')`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		available = append(available, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(available, "dblink") {
		t.Fatal("the test server has no dblink extension (postgresql-contrib)")
	}
	for _, ext := range available {
		if _, err := admin.ExecContext(ctx, "CREATE EXTENSION "+QuoteIdent(ext)); err != nil {
			t.Fatalf("CREATE EXTENSION %s: %v", ext, err)
		}
	}
	t.Logf("extensions installed: %s", strings.Join(available, ", "))
	for _, stmt := range guardFixture {
		if _, err := admin.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	return &guardDB{dsn: dsn, name: name, admin: admin}
}

// serverState is what a hostile statement could change on the server, as
// far as a test can see it.
type serverState struct {
	Dump           string   // sha256 of pg_dump of the database, data included
	Slots          []string // replication slots, server-wide
	StatsReset     string   // pg_stat_database.stats_reset of the database
	ArchiverReset  string
	BgwriterReset  string
	AdvisoryLocks  int      // held in the database
	DataDir        []string // the data directory's top level
	ReplSlotDir    []string // pg_replslot
	LargeObjects   int
	PwnedFiles     []string // files hostile statements name, if they exist
	PwnedRelations []string // relations hostile statements would create
}

func (db *guardDB) state(t *testing.T) serverState {
	t.Helper()
	ctx := context.Background()
	var st serverState
	st.Dump = pgscratch.DumpSum(t, db.dsn)
	st.Slots = db.strings(t, `SELECT slot_name::text FROM pg_replication_slots ORDER BY 1`)
	one := func(q string, args ...any) string {
		var s sql.NullString
		if err := db.admin.QueryRowContext(ctx, q, args...).Scan(&s); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return s.String
	}
	st.StatsReset = one(`SELECT stats_reset::text FROM pg_stat_database WHERE datname = $1`, db.name)
	st.ArchiverReset = one(`SELECT stats_reset::text FROM pg_stat_archiver`)
	st.BgwriterReset = one(`SELECT stats_reset::text FROM pg_stat_bgwriter`)
	if err := db.admin.QueryRowContext(ctx, `SELECT count(*) FROM pg_locks
		WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = $1)`, db.name).
		Scan(&st.AdvisoryLocks); err != nil {
		t.Fatal(err)
	}
	st.DataDir = db.strings(t, `SELECT f FROM pg_ls_dir('.') f ORDER BY 1`)
	st.ReplSlotDir = db.strings(t, `SELECT f FROM pg_ls_dir('pg_replslot') f ORDER BY 1`)
	if err := db.admin.QueryRowContext(ctx, `SELECT count(*) FROM pg_largeobject_metadata`).Scan(&st.LargeObjects); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"/tmp/discover_pwned", "/tmp/discover_pwned.csv"} {
		if _, err := os.Stat(f); err == nil {
			st.PwnedFiles = append(st.PwnedFiles, f)
		}
	}
	st.PwnedRelations = db.strings(t, `SELECT relname::text FROM pg_class WHERE relname LIKE 'pwned%' ORDER BY 1`)
	return st
}

func (db *guardDB) strings(t *testing.T, q string, args ...any) []string {
	t.Helper()
	rows, err := db.admin.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGuardEndToEnd runs the corpora through Source.Query on the real
// server, connected as the superuser with dblink, adminpack, pageinspect,
// tablefunc and xml2 installed: every harmless statement runs, every
// hostile one is refused by the guard, and nothing the test can observe
// changes. Then it bypasses the guard for a few hostile statements to show
// that the same observations catch the harm they do.
func TestGuardEndToEnd(t *testing.T) {
	db := newGuardDB(t)
	ctx := context.Background()
	s := open(t, db.dsn)

	// What the guard learned of the database is what the unit tests assume.
	if _, err := s.Tables(ctx); err != nil {
		t.Fatal(err)
	}
	cat := s.catalog.Load()
	for _, r := range fixedRelations {
		if !cat.rels.Has(r.Schema, r.Name) {
			t.Errorf("catalog lacks %s", r)
		}
	}
	if cat.rels.Len() != len(fixedRelations) {
		t.Errorf("catalog holds %d relations, want %d", cat.rels.Len(), len(fixedRelations))
	}
	var bare []string
	for n := range cat.bare {
		bare = append(bare, n)
	}
	slices.Sort(bare)
	if want := slices.Sorted(slices.Values(fixedBare)); !slices.Equal(bare, want) {
		t.Errorf("bare names = %q, want %q", bare, want)
	}
	for _, f := range []string{"audit", "trim_scale", "vol_pair", "dblink_exec", "dblink"} {
		if !cat.volatileFuncs[f] {
			t.Errorf("volatile function %s outside pg_catalog not seen", f)
		}
	}
	if !cat.volatileOps["##"] {
		t.Error("volatile operator ## outside pg_catalog not seen")
	}

	for _, e := range guardcorpus.Read(t, "harmless.sql") {
		if _, err := s.Query(ctx, e.SQL, warehouse.QueryOptions{MaxRows: 50, Timeout: 30 * time.Second}); err != nil {
			t.Errorf("harmless %s: %v", e, err)
		}
	}

	// A second session that a hostile statement could terminate or notify.
	victim := connect(t, db.dsn)
	var victimPID int
	if err := victim.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&victimPID); err != nil {
		t.Fatal(err)
	}
	mustExec(t, victim, `LISTEN discover`)

	before := db.state(t)
	hostile := guardcorpus.Read(t, "hostile.sql")
	for _, e := range hostile {
		_, err := s.Query(ctx, e.SQL, warehouse.QueryOptions{Timeout: 10 * time.Second})
		if !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), "guard: ") {
			t.Errorf("hostile %s: %v; want a guard refusal", e, err)
		}
	}
	after := db.state(t)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("the server changed under %d hostile statements:\nbefore %+v\nafter  %+v", len(hostile), before, after)
	}
	var pid int
	if err := victim.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil || pid != victimPID {
		t.Errorf("the other session: pid %d, %v; want %d still connected", pid, err, victimPID)
	}
	wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	n, err := victim.WaitForNotification(wctx)
	cancel()
	if err == nil {
		t.Errorf("the other session was notified: %+v", n)
	}
	for setting, want := range map[string]string{"default_transaction_read_only": "on", "standard_conforming_strings": "on", "search_path": `"$user", public`} {
		res, err := s.Query(ctx, "SHOW "+setting, warehouse.QueryOptions{})
		if err != nil || len(res.Rows) != 1 || res.Rows[0][0] != want {
			t.Errorf("SHOW %s after the hostile run = %v, %v; want %q", setting, res, err, want)
		}
	}
	t.Logf("%d hostile statements refused; pg_dump %s…, slots %v, stats_reset %q, advisory locks %d, %d files in the data directory: unchanged",
		len(hostile), before.Dump[:12], before.Slots, before.StatsReset, before.AdvisoryLocks, len(before.DataDir))

	t.Run("unguarded", func(t *testing.T) { harmWithoutGuard(t, db, before) })
}

// harmWithoutGuard sends hostile statements past the guard (Source.query)
// to show that the observations of TestGuardEndToEnd see the harm: each
// of these does it even inside discover's READ ONLY transaction, which is
// always rolled back. The last few are held back by that transaction.
func harmWithoutGuard(t *testing.T, db *guardDB, before serverState) {
	ctx := context.Background()
	s, err := Open(ctx, db.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run := func(q string) *warehouse.Result {
		t.Helper()
		if err := s.Guard(ctx, q); !errors.Is(err, warehouse.ErrRejected) {
			t.Fatalf("%s: the guard lets it through (%v)", q, err)
		}
		res, err := s.query(ctx, q, warehouse.QueryOptions{Timeout: 30 * time.Second})
		if err != nil {
			t.Fatalf("%s (unguarded): %v", q, err)
		}
		return res
	}
	cell := func(res *warehouse.Result) string { return fmt.Sprint(res.Rows[0][0]) }

	// Server files and whole databases come back to the client.
	if v := cell(run(`SELECT pg_read_file('PG_VERSION')`)); strings.TrimSpace(v) == "" {
		t.Errorf("pg_read_file returned %q", v)
	}
	if res := run(`SELECT pg_ls_dir('.')`); !slices.ContainsFunc(res.Rows, func(r []any) bool { return r[0] == "PG_VERSION" }) {
		t.Errorf("pg_ls_dir did not list PG_VERSION: %v", res.Rows)
	}
	if v := cell(run(`SELECT database_to_xml(true, false, '')`)); !strings.Contains(v, "ann@example.com") {
		t.Errorf("database_to_xml did not return the data: %.200s", v)
	}
	if v := cell(run(`SELECT query_to_xml('SELECT pg_read_file(''PG_VERSION'') AS f', true, false, '')`)); !strings.Contains(v, "<f>") {
		t.Errorf("query_to_xml did not run its query: %.200s", v)
	}
	if res := run(`SELECT rolpassword IS NULL FROM pg_authid LIMIT 1`); len(res.Rows) != 1 {
		t.Errorf("pg_authid: %v", res.Rows)
	}
	// lo_import is not stopped by READ ONLY: it reads the server file into
	// a large object, which only the rollback takes away.
	if v := cell(run(`SELECT lo_import('PG_VERSION')`)); v == "" || v == "0" {
		t.Errorf("lo_import returned %q", v)
	}

	// A second, writable connection through dblink changes the database.
	cfg, err := pgconn.ParseConfig(db.dsn)
	if err != nil {
		t.Fatal(err)
	}
	conninfo := fmt.Sprintf("host=%s port=%d user=%s dbname=%s", cfg.Host, cfg.Port, cfg.User, cfg.Database)
	if cfg.Password != "" {
		conninfo += " password=" + cfg.Password
	}
	run(`SELECT dblink_exec('` + conninfo + `', 'CREATE TABLE pwned_by_dblink (a int)')`)
	// … and runs a command on the database host.
	program := "/tmp/" + uniqueName("discover_pwned_program_")
	defer os.Remove(program)
	// The program reads what COPY writes to it: a program that exits
	// without reading leaves the server writing to a closed pipe, an error
	// ("could not close pipe to external command: Broken pipe") or not,
	// depending on which side runs first.
	run(`SELECT dblink_exec('` + conninfo + `', 'COPY (SELECT 1) TO PROGRAM ''touch ` + program + `; cat >/dev/null''')`)
	if _, err := os.Stat(program); err != nil {
		t.Errorf("COPY TO PROGRAM through dblink: %v", err)
	}
	// adminpack writes a file into the data directory.
	if _, found := slices.BinarySearch(before.DataDir, "discover_pwned"); !found {
		defer db.admin.ExecContext(ctx, `SELECT pg_file_unlink('discover_pwned')`)
		run(`SELECT pg_file_write('discover_pwned', 'x', false)`)
	}

	// Statistics are reset, a replication slot and an advisory lock outlive
	// the transaction, WAL is written.
	run(`SELECT pg_stat_reset()`)
	slot := uniqueName("discover_guard_slot_")
	run(`SELECT pg_create_physical_replication_slot('` + slot + `')`)
	defer db.admin.ExecContext(ctx, `SELECT pg_drop_replication_slot($1)`, slot)
	run(`SELECT pg_advisory_lock(4242)`)
	if lsn := cell(run(`SELECT pg_logical_emit_message(false, 'discover', 'pwned')`)); !strings.Contains(lsn, "/") {
		t.Errorf("pg_logical_emit_message returned %q, not a WAL position", lsn)
	}

	// Another session is terminated.
	victim := connect(t, db.dsn)
	var pid int
	if err := victim.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	run(fmt.Sprintf(`SELECT pg_terminate_backend(%d)`, pid))
	deadline := time.Now().Add(5 * time.Second)
	for victim.Ping(ctx) == nil && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if victim.Ping(ctx) == nil {
		t.Error("pg_terminate_backend: the other session survived")
	}

	harmed := db.state(t)
	for what, changed := range map[string]bool{
		"pg_dump (a table created through dblink)":   harmed.Dump != before.Dump,
		"pg_stat_database.stats_reset":               harmed.StatsReset != before.StatsReset,
		"replication slots":                          !reflect.DeepEqual(harmed.Slots, before.Slots),
		"advisory locks":                             harmed.AdvisoryLocks > before.AdvisoryLocks,
		"relations named pwned":                      !reflect.DeepEqual(harmed.PwnedRelations, before.PwnedRelations),
		"the data directory (a file from adminpack)": !reflect.DeepEqual(harmed.DataDir, before.DataDir),
	} {
		if !changed {
			t.Errorf("without the guard, %s did not change: the guarded run proves nothing about it", what)
		}
	}
	t.Logf("without the guard: pg_dump %s… → %s…, stats_reset %q → %q, slots %v → %v, advisory locks %d → %d",
		before.Dump[:12], harmed.Dump[:12], before.StatsReset, harmed.StatsReset, before.Slots, harmed.Slots,
		before.AdvisoryLocks, harmed.AdvisoryLocks)

	// These the read-only transaction stops on its own (SQLSTATE 25006).
	for _, q := range []string{
		`SELECT nextval('orders_id_seq')`,
		`SELECT setval('orders_id_seq', 42)`,
		`WITH d AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM d`,
	} {
		if err := s.Guard(ctx, q); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("%s: the guard lets it through (%v)", q, err)
		}
		_, err := s.query(ctx, q, warehouse.QueryOptions{})
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "25006" && pgErr.Code != "0A000" {
			t.Errorf("%s (unguarded): %v; want the read-only transaction to refuse it", q, err)
		}
	}
	// A setting changed for the session is undone by the rollback.
	run(`SELECT set_config('default_transaction_read_only', 'off', false)`)
	conns := make([]*pgxpool.Conn, 0, 4)
	for range 4 {
		c, err := s.pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var ro string
		if err := c.QueryRow(ctx, `SHOW default_transaction_read_only`).Scan(&ro); err != nil || ro != "on" {
			t.Errorf("default_transaction_read_only after set_config = %q, %v", ro, err)
		}
	}
	for _, c := range conns {
		c.Release()
	}
}

// TestSessionPinnedForTheGuard: whatever the DSN says, the session lexes
// strings as the guard's parser does (standard_conforming_strings on, so
// 'a\' is a complete string) in UTF-8.
func TestSessionPinnedForTheGuard(t *testing.T) {
	t.Parallel()
	db := newDB(t)
	for _, extra := range []string{
		"&standard_conforming_strings=off",
		"&options=-c%20standard_conforming_strings%3Doff",
		"&client_encoding=SJIS",
		"&Standard_Conforming_Strings=off",
	} {
		s := open(t, db.dsn+extra)
		ctx := context.Background()
		for setting, want := range map[string]string{"standard_conforming_strings": "on", "client_encoding": "UTF8"} {
			res, err := s.Query(ctx, "SHOW "+setting, warehouse.QueryOptions{})
			if err != nil || res.Rows[0][0] != want {
				t.Errorf("%s: SHOW %s = %v, %v; want %s", extra, setting, res, err, want)
			}
		}
		res, err := s.Query(ctx, `SELECT 'a\' AS s, 'C:\temp' LIKE 'C:\\%' ESCAPE '\' AS m`, warehouse.QueryOptions{})
		if err != nil || res.Rows[0][0] != `a\` || res.Rows[0][1] != true {
			t.Errorf("%s: backslashes in standard strings: %v, %v", extra, res, err)
		}
	}
}

// TestAllowListsOnServer checks the lists against the server's catalog:
// every function is a pg_catalog function (or one of a newer PostgreSQL
// than the server), none is VOLATILE but those that only read the clock
// or draw a random number, and every type, operator and setting exists.
func TestAllowListsOnServer(t *testing.T) {
	t.Parallel()
	c := connect(t, serverDSN(t))
	ctx := context.Background()
	var major int
	if err := c.QueryRow(ctx, `SELECT current_setting('server_version_num')::int / 10000`).Scan(&major); err != nil {
		t.Fatal(err)
	}
	// newer are the listed functions added after PostgreSQL 15, by version.
	newer := map[string]int{
		"any_value": 16, "array_sample": 16, "array_shuffle": 16, "date_add": 16, "date_subtract": 16,
		"erf": 16, "erfc": 16, "random_normal": 16, "system_user": 16, "to_bin": 16, "to_oct": 16,
		"json_agg_strict": 16, "json_object_agg_strict": 16, "json_object_agg_unique": 16,
		"json_object_agg_unique_strict": 16, "jsonb_agg_strict": 16, "jsonb_object_agg_strict": 16,
		"jsonb_object_agg_unique": 16, "jsonb_object_agg_unique_strict": 16,
		"jsonb_populate_record_valid": 17, "uuid_extract_timestamp": 17, "uuid_extract_version": 17,
	}
	volatileOK := nameSet(`random random_normal clock_timestamp timeofday gen_random_uuid array_shuffle array_sample`)
	funcs := slices.Sorted(maps.Keys(allowedFunctions))
	rows, err := c.Query(ctx, `SELECT n, bool_or(p.provolatile = 'v') FILTER (WHERE p.oid IS NOT NULL), count(p.oid)
		FROM unnest($1::text[]) n
		LEFT JOIN pg_catalog.pg_proc p ON p.proname = n AND p.pronamespace = 'pg_catalog'::regnamespace
		GROUP BY n`, funcs)
	if err != nil {
		t.Fatal(err)
	}
	var name string
	var volatile *bool
	var overloads int
	_, err = pgx.ForEachRow(rows, []any{&name, &volatile, &overloads}, func() error {
		switch {
		case overloads == 0 && (newer[name] == 0 || newer[name] <= major):
			t.Errorf("allowed function %s is not a pg_catalog function of PostgreSQL %d", name, major)
		case volatile != nil && *volatile && !volatileOK[name]:
			t.Errorf("allowed function %s is VOLATILE", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Structural: nothing named like the families that reach files,
	// sessions, locks, sequences or other SQL is on the list.
	for _, f := range funcs {
		for _, bad := range []string{"pg_read", "pg_ls", "lo_", "dblink", "xml", "advisory", "sleep", "setval",
			"nextval", "currval", "txid", "xact", "_to_xml", "ts_stat", "ts_rewrite", "set_config", "current_setting",
			"pg_stat", "backup", "replication", "wal", "brin_", "gin_", "terminate", "cancel", "notify", "crosstab"} {
			if strings.Contains(f, bad) {
				t.Errorf("allowed function %s looks like %s…", f, bad)
			}
		}
	}
	t.Logf("%d allowed functions checked against PostgreSQL %d", len(funcs), major)

	for _, q := range []struct {
		what string
		sql  string
		list []string
	}{
		{"type", `SELECT n FROM unnest($1::text[]) n WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_type
			WHERE typname = n AND typnamespace = 'pg_catalog'::regnamespace)`, slices.Sorted(maps.Keys(allowedTypes))},
		{"operator", `SELECT n FROM unnest($1::text[]) n WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_operator
			WHERE oprname = n AND oprnamespace = 'pg_catalog'::regnamespace)`, slices.Sorted(maps.Keys(builtinOperators))},
		{"setting", `SELECT n FROM unnest($1::text[]) n WHERE current_setting(n, true) IS NULL`, slices.Sorted(maps.Keys(showableSettings))},
		{"TABLESAMPLE method", `SELECT n FROM unnest($1::text[]) n WHERE to_regprocedure('pg_catalog.' || n || '(internal)') IS NULL`, slices.Sorted(maps.Keys(tableSampleMethods))},
	} {
		rows, err := c.Query(ctx, q.sql, q.list)
		if err != nil {
			t.Fatal(err)
		}
		missing, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		if len(missing) > 0 {
			t.Errorf("allowed %ss the server does not have: %v", q.what, missing)
		}
	}
}
