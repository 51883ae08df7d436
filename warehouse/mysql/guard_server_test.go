package mysql

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/discover-db/discover/internal/guardcorpus"
	"github.com/discover-db/discover/internal/myscratch"
	"github.com/discover-db/discover/warehouse"
)

// guardFixture is a scratch database with the tables of the unit tests'
// inventory (testTables), a stored function and a sequence, so that the
// corpora mean on the server what they mean in the unit tests. The
// statements are in testdata/guard/fixture.sql (cmd/discover's test of
// the untrusted doors builds the same database); "seq" only on MariaDB.
func guardFixture(t *testing.T, admin *sql.DB) string {
	t.Helper()
	db := createDB(t, admin, "dg_")
	entries, err := guardcorpus.Load(filepath.Join("testdata", "guard", "fixture.sql"))
	if err != nil {
		t.Fatal(err)
	}
	var version string
	if err := admin.QueryRow("SELECT VERSION()").Scan(&version); err != nil {
		t.Fatal(err)
	}
	mariadb := strings.Contains(strings.ToLower(version), "mariadb")
	// One connection, so that USE holds for every statement. Single
	// quotes only in the file: the test server's global sql_mode has
	// ANSI_QUOTES, and this connection does not pin its own.
	conn, err := admin.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range append([]string{"USE " + QuoteIdent(db)}, guardcorpus.SQL(entries)...) {
		if strings.HasPrefix(q, "CREATE SEQUENCE") && !mariadb {
			continue
		}
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return db
}

// dumpSum is a checksum of the dump of db (myscratch.DumpSum).
func dumpSum(t *testing.T, db string) string {
	t.Helper()
	cfg := adminConfig(t)
	return myscratch.DumpSum(t, cfg.Addr, cfg.User, cfg.Passwd, db)
}

// secretFile writes a file the server can read, holding a fresh token.
func secretFile(t *testing.T) (path, token string) {
	t.Helper()
	b := make([]byte, 12)
	rand.Read(b)
	token = "discover-secret-" + hex.EncodeToString(b)
	path = "/tmp/discover_guard_secret_" + hex.EncodeToString(b[:4])
	if err := os.WriteFile(path, []byte(token+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(path) })
	return path, token
}

// outfiles are the files the hostile corpus asks the server to write.
var outfileTarget = regexp.MustCompile(`(?i)(?:OUTFILE|DUMPFILE|general_log_file\s*=)\s*'([^']+)'`)

func globals(t *testing.T, admin *sql.DB) string {
	t.Helper()
	var v string
	err := admin.QueryRow(`SELECT CONCAT_WS('|', @@global.sql_mode, @@global.general_log, @@global.read_only,
		@@global.max_connections, @@global.character_set_server)`).Scan(&v)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestGuardHostileOnServer sends every hostile statement, and the same
// attacks aimed at this run's own file, lock and bystander session,
// through Source.Query as root on the test server (whose global sql_mode
// has ANSI_QUOTES): each is refused by the guard, and afterwards the
// database dumps the same, no file was written, no lock is held, the
// bystander session lives and no error carries a file's content.
func TestGuardHostileOnServer(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := guardFixture(t, admin)
	secret, token := secretFile(t)
	ctx := context.Background()

	bystander, err := admin.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer bystander.Close()
	var bid int64
	if err := bystander.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&bid); err != nil {
		t.Fatal(err)
	}

	hostile := entries(t, "hostile.sql")
	hexSecret := hex.EncodeToString([]byte(secret))
	hostile = append(hostile,
		fmt.Sprintf("SELECT LOAD_FILE('%s')", secret),
		fmt.Sprintf(`SELECT "LOAD_FILE"('%s')`, secret),
		fmt.Sprintf("SELECT `LOAD_FILE`('%s')", secret),
		fmt.Sprintf("SELECT /*!LOAD_FILE('%s')*/", secret),
		fmt.Sprintf("SELECT 1 /*M!, LOAD_FILE('%s')*/", secret),
		fmt.Sprintf("SELECT LOAD_FILE(0x%s)", hexSecret),
		fmt.Sprintf("SELECT LOAD_FILE(X'%s')", hexSecret),
		fmt.Sprintf("SELECT * FROM customers WHERE name = LOAD_FILE('%s')", secret),
		fmt.Sprintf("SELECT CAST(LOAD_FILE('%s') AS SIGNED)", secret),
		fmt.Sprintf("SELECT EXTRACTVALUE(1, CONCAT(0x7e, LOAD_FILE('%s')))", secret),
		fmt.Sprintf("KILL %d", bid),
		fmt.Sprintf("KILL QUERY %d", bid),
		fmt.Sprintf("KILL CONNECTION %d", bid),
		fmt.Sprintf("DO GET_LOCK('discover_guard_%d', 0)", bid),
		fmt.Sprintf("SELECT GET_LOCK('discover_guard_%d', 0)", bid),
	)
	var targets []string
	for _, q := range hostile {
		for _, m := range outfileTarget.FindAllStringSubmatch(q, -1) {
			targets = append(targets, m[1])
		}
	}
	for _, f := range targets {
		os.Remove(f) // a leftover of an earlier run would pass for a write
	}

	before, globalsBefore := dumpSum(t, db), globals(t, admin)
	s := open(t, rootDSN(t, db))
	if _, err := s.Tables(ctx); err != nil {
		t.Fatal(err)
	}
	passwd, _ := os.ReadFile("/etc/passwd")
	firstLine, _, _ := strings.Cut(string(passwd), "\n")
	for _, q := range hostile {
		res, err := s.Query(ctx, q, warehouse.QueryOptions{})
		switch {
		case err == nil:
			t.Errorf("ran %q: %v", q, res.Rows)
			continue
		case !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), "guard: "):
			t.Errorf("%q: %v, want the guard's refusal", q, err)
		}
		if strings.Contains(err.Error(), token) || firstLine != "" && strings.Contains(err.Error(), firstLine) {
			t.Errorf("%q: the error carries a file's content: %v", q, err)
		}
	}

	if after := dumpSum(t, db); after != before {
		t.Error("the database's dump changed")
	}
	if g := globals(t, admin); g != globalsBefore {
		t.Errorf("global settings changed: %s, were %s", g, globalsBefore)
	}
	for _, f := range targets {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was written", f)
			os.Remove(f)
		}
	}
	var holder sql.NullInt64
	err = admin.QueryRow(fmt.Sprintf("SELECT COALESCE(IS_USED_LOCK('discover_guard'), IS_USED_LOCK('discover_guard_%d'))", bid)).Scan(&holder)
	if err != nil || holder.Valid {
		t.Errorf("a lock is held by connection %v (%v)", holder, err)
	}
	var id int64
	if err := bystander.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil || id != bid {
		t.Errorf("the bystander session: %d, %v; want %d alive", id, err, bid)
	}
	t.Logf("%d hostile statements refused on %s", len(hostile), db)
}

// TestGuardBypassDoesHarm proves that TestGuardHostileOnServer can fail:
// some of the statements it sends, run past the guard (Source.run keeps
// the read-only session and transaction), read a file, hold a lock and
// write a file. And a session in the server's default mode (ANSI_QUOTES)
// runs "LOAD_FILE"(…), which the pinned session reads as a string.
func TestGuardBypassDoesHarm(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := guardFixture(t, admin)
	secret, token := secretFile(t)
	ctx := context.Background()
	s := open(t, rootDSN(t, db))

	for _, q := range []string{
		fmt.Sprintf("SELECT LOAD_FILE('%s')", secret),
		fmt.Sprintf("SELECT LOAD_FILE(0x%s)", hex.EncodeToString([]byte(secret))),
		fmt.Sprintf("SELECT 1 /*M!, LOAD_FILE('%s')*/", secret),
	} {
		res, err := s.run(ctx, q, warehouse.QueryOptions{})
		if err != nil || !strings.Contains(rowsText(res), token) {
			t.Errorf("bypassed %q: %v, %v; want the file's content", q, res, err)
		}
		if s.Guard(ctx, q) == nil {
			t.Errorf("the guard accepts %q", q)
		}
	}

	// In the server's default mode "…" names a function.
	var got sql.NullString
	if err := admin.QueryRow(fmt.Sprintf(`SELECT "LOAD_FILE"('%s')`, secret)).Scan(&got); err != nil || !strings.Contains(got.String, token) {
		t.Errorf("ANSI_QUOTES session: %v, %v; want the file's content (is the server's global sql_mode without ANSI_QUOTES?)", got, err)
	}
	if _, err := s.run(ctx, fmt.Sprintf(`SELECT "LOAD_FILE"('%s')`, secret), warehouse.QueryOptions{}); err == nil || strings.Contains(err.Error(), token) {
		t.Errorf(`pinned session ran "LOAD_FILE"(…): %v`, err)
	}

	lock := "discover_guard_bypass_" + db
	if _, err := s.run(ctx, fmt.Sprintf("SELECT GET_LOCK('%s', 0)", lock), warehouse.QueryOptions{}); err != nil {
		t.Fatal(err)
	}
	var holder sql.NullInt64
	if err := admin.QueryRow(fmt.Sprintf("SELECT IS_USED_LOCK('%s')", lock)).Scan(&holder); err != nil || !holder.Valid {
		t.Errorf("GET_LOCK past the guard holds no lock: %v, %v", holder, err)
	} else {
		admin.Exec(fmt.Sprintf("KILL CONNECTION %d", holder.Int64))
	}

	out := "/tmp/discover_guard_bypass_" + db
	os.Remove(out)
	if _, err := s.run(ctx, fmt.Sprintf("SELECT 'x' INTO OUTFILE '%s'", out), warehouse.QueryOptions{}); err != nil {
		t.Errorf("INTO OUTFILE past the guard: %v", err)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("INTO OUTFILE past the guard wrote nothing: %v", err)
	}
	os.Remove(out)
}

// rowsText is a result's values as text, []byte included.
func rowsText(res *warehouse.Result) string {
	var b strings.Builder
	for _, row := range res.Rows {
		for _, v := range row {
			if raw, ok := v.([]byte); ok {
				v = string(raw)
			}
			fmt.Fprintln(&b, v)
		}
	}
	return b.String()
}

// TestGuardHarmlessOnServer runs the harmless corpus through Query on the
// server: the guard, with the inventory Tables listed, accepts every one.
// The server may still refuse what MariaDB lacks (TABLE t, LATERAL…).
func TestGuardHarmlessOnServer(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := guardFixture(t, admin)
	s := open(t, rootDSN(t, db))
	ctx := context.Background()
	serverErrors := 0
	for _, q := range entries(t, "harmless.sql") {
		// The corpus calls the database shop.
		q = strings.ReplaceAll(strings.ReplaceAll(q, "`shop`.", QuoteIdent(db)+"."), "shop.", QuoteIdent(db)+".")
		_, err := s.Query(ctx, q, warehouse.QueryOptions{})
		if errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("refused %q: %v", q, err)
		} else if err != nil {
			serverErrors++
			t.Logf("the server refused %q: %v", q, err)
		}
	}
	t.Logf("%d harmless statements the server could not run", serverErrors)
}

// TestGuardFunctionsAreBuiltins: every function of the server's lists is a
// built-in there. A name that is not is resolved as a stored function of
// the current database (error 1305, or 1630 when a built-in of that name
// needs its "(" at once), whose body could do anything.
func TestGuardFunctionsAreBuiltins(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := createDB(t, admin, "dg_")
	s := open(t, rootDSN(t, db))
	ctx := context.Background()
	names := union(flavourFuncs(s.MariaDB()), aggregateFuncs, windowFuncs)
	notBuiltin := func(err error) bool { code := serverCode(err); return code == 1305 || code == 1630 }
	for name := range names {
		if parserNames[name] {
			continue // not a server's name: INSERT(…), CHAR(…), literals
		}
		if _, err := s.run(ctx, "SELECT "+name+"()", warehouse.QueryOptions{}); notBuiltin(err) {
			t.Errorf("%s is not a built-in function of this server: %v", name, err)
		}
	}
	for name := range noGapNeeded {
		if _, err := s.run(ctx, "SELECT "+name+" ()", warehouse.QueryOptions{}); notBuiltin(err) {
			t.Errorf("%s (…) with a space is not the built-in on this server: %v", name, err)
		}
	}
	// The rule is not idle: spaced or quoted, these are stored functions.
	for _, q := range []string{"SELECT COUNT (1)", "SELECT `substring`('a', 1)", "SELECT NOW ()"} {
		if _, err := s.run(ctx, q, warehouse.QueryOptions{}); !notBuiltin(err) {
			t.Errorf("%s: %v, want the server to look for a stored function", q, err)
		}
	}
	t.Logf("%d function names checked on the server", len(names))
}

// TestSessionModeIsPinned: whatever the server's global sql_mode
// (ANSI_QUOTES on the test server) and the DSN's parameters, every pooled
// session runs in pinnedSQLMode with utf8mb4 as its client character set.
func TestSessionModeIsPinned(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := createDB(t, admin, "dg_")
	var global string
	if err := admin.QueryRow("SELECT @@GLOBAL.sql_mode").Scan(&global); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("CI") == "true" && !strings.Contains(global, "ANSI_QUOTES") {
		t.Errorf("the CI server's global sql_mode %q lacks ANSI_QUOTES (.ci/start-servers sets it)", global)
	}
	dsn := rootDSN(t, db) + "?sql_mode=" + url.QueryEscape("'ANSI_QUOTES,PIPES_AS_CONCAT'") + "&character_set_client=gbk"
	s := open(t, dsn)
	if s.lowerCaseTableNames < 0 || s.lowerCaseTableNames > 2 {
		t.Errorf("lower_case_table_names = %d", s.lowerCaseTableNames)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.Query(ctx, "SELECT @@SESSION.sql_mode AS m, @@SESSION.character_set_client AS c", warehouse.QueryOptions{})
			if err != nil {
				t.Error(err)
				return
			}
			if m := fmt.Sprint(res.Rows[0][0]); !sameModes(m, pinnedSQLMode) || res.Rows[0][1] != "utf8mb4" {
				t.Errorf("session sql_mode %q, character set %v", m, res.Rows[0][1])
			}
		}()
	}
	wg.Wait()
	if !sameModes("b,a,a", "A,B") || sameModes("A", "A,ANSI_QUOTES") {
		t.Error("sameModes")
	}
}

// TestGuardCaseOfNames: with lower_case_table_names = 0 (the Linux
// default) `Users` and `users` are two tables, and the guard keeps them
// apart; with 1 or 2 it folds, as the server does.
func TestGuardCaseOfNames(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := guardFixture(t, admin)
	s := open(t, rootDSN(t, db))
	ctx := context.Background()
	if _, err := s.Query(ctx, "SELECT * FROM `Users`", warehouse.QueryOptions{}); err != nil {
		t.Error(err)
	}
	_, err := s.Query(ctx, "SELECT * FROM users", warehouse.QueryOptions{})
	if s.lowerCaseTableNames == 0 && !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("users with case-sensitive names: %v, want a refusal", err)
	}
	if s.lowerCaseTableNames != 0 && err != nil {
		t.Errorf("users with folded names: %v", err)
	}
	// The inventory follows Tables: a table created later is read once
	// Tables has listed it.
	exec(t, admin, "CREATE TABLE "+QuoteIdent(db)+".later (a INT)")
	if _, err := s.Query(ctx, "SELECT * FROM later", warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("a table Tables has not listed: %v", err)
	}
	if _, err := s.Tables(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Query(ctx, "SELECT * FROM later", warehouse.QueryOptions{}); err != nil {
		t.Errorf("after Tables: %v", err)
	}
}
