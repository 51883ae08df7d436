package main

// Issue 16, end to end: SQL discover did not write reaches the database
// through three doors — MCP run_query, `ask`, and a model's hypotheses in a
// discovery. Each engine's hostile corpus is sent through all three, on a
// connection with every privilege (PostgreSQL's superuser with dblink
// installed, MariaDB's root under ANSI_QUOTES) with --allow-privileged (the
// allow-list alone holds) and without (the connection is refused). Nothing
// may change on the server, and a secret file the server can read must not
// reach any output, report, catalog or prompt.

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discover-db/discover/experts/model"
	"github.com/discover-db/discover/internal/guardcorpus"
	"github.com/discover-db/discover/internal/load"
	"github.com/discover-db/discover/internal/myscratch"
	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/llm/llmtest"
	"github.com/discover-db/discover/report"
)

// doorTarget is one engine's database under attack.
type doorTarget struct {
	dsn     string   // a connection with every privilege
	hostile []string // statements every door must refuse
	secret  string   // the content of a file the server can read
	// state is everything the statements must leave as it was.
	state func(t *testing.T) string
	// unreadable are the fixture's views the engine itself cannot read
	// (they do not compile): a discovery names each of them as not read,
	// and is incomplete (exit 4).
	unreadable []string
}

// doorMode is how the doors meet a target's connection.
type doorMode int

const (
	// privilegedAllowed: a privileged role and --allow-privileged; the
	// guard must refuse each statement itself.
	privilegedAllowed doorMode = iota
	// privilegedRefused: a privileged role without the flag; every door
	// refuses the connection before the guard is asked.
	privilegedRefused
	// noRoles: an engine without roles (SQLite, DuckDB); the guard is all
	// there is.
	noRoles
)

// attackDoors sends every hostile statement through the three doors and
// checks that nothing ran and nothing leaked.
func attackDoors(t *testing.T, tg doorTarget, mode doorMode) {
	before := tg.state(t)
	var flags []string
	if mode == privilegedAllowed {
		flags = []string{"--allow-privileged"}
	}
	allow := mode != privilegedRefused
	var seen strings.Builder // every output, for the secret's check
	var dirs []string

	t.Run("mcp", func(t *testing.T) {
		lines := []string{`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`}
		for i, q := range tg.hostile {
			lines = append(lines, call(i+1, "run_query", map[string]any{"sql": q}))
		}
		byID, res := mcpSession(t, append([]string{"--db", tg.dsn, "--query-timeout", "5s"}, flags...), lines...)
		seen.WriteString(res.stdout + res.stderr)
		stages := map[string]int{}
		for i, q := range tg.hostile {
			m, ok := byID[fmt.Sprint(i+1)]
			if !ok {
				t.Fatalf("no answer to %q", q)
			}
			text, isErr := toolText(t, m)
			stage, _, _ := strings.Cut(text, ":")
			stages[stage]++
			want := "refused (connection)"
			if allow {
				want = "refused (guard)"
			}
			// A statement the guard could not even read as one statement
			// of the engine's grammar is refused there too.
			if !isErr || stage != want && !(allow && stage == "refused (grounding)") {
				t.Errorf("run_query %q: %s", q, clipText(text, 300))
			}
		}
		t.Logf("run_query answers by stage: %v", stages)
	})

	t.Run("ask", func(t *testing.T) {
		srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Reply {
			return answer(tg.hostile[n%len(tg.hostile)])
		})
		defer srv.Close()
		for round := 0; len(srv.Requests()) < len(tg.hostile) && round < len(tg.hostile); round++ {
			res := run(t, append([]string{"ask", "How many orders are there?", "--db", tg.dsn, "--llm", "openai",
				"--llm-model", "scripted", "--llm-base-url", srv.URL + "/v1", "--llm-paths", "8", "--llm-max-calls", "64",
				"--query-timeout", "5s"}, flags...)...)
			seen.WriteString(res.stdout + res.stderr)
			switch {
			case !allow:
				if res.code != exitUsage || !strings.Contains(res.stderr, "can do more than read") {
					t.Fatalf("ask on a privileged connection: exit %d\n%s", res.code, res.stderr)
				}
				if n := len(srv.Requests()); n != 0 {
					t.Fatalf("the model was asked %d times though its SQL could not run", n)
				}
				return
			case res.code != exitFailed || !strings.Contains(res.stderr, "no query passed the controller"):
				t.Fatalf("ask answered a hostile model: exit %d\n%s\n%s", res.code, res.stdout, clipText(res.stderr, 2000))
			}
		}
		for _, r := range srv.Requests() {
			seen.WriteString(r.Body)
		}
		if len(srv.Requests()) < len(tg.hostile) {
			t.Errorf("%d of %d hostile statements were proposed", len(srv.Requests()), len(tg.hostile))
		}
	})

	t.Run("discovery", func(t *testing.T) {
		out := t.TempDir()
		dirs = append(dirs, out)
		// Each hypothesis' own query, its formulations and its repairs all
		// come from the corpus, in turn (formulations are asked for 4 at
		// a time, so the handler runs concurrently).
		var next atomic.Int64
		pick := func() string { return tg.hostile[int(next.Add(1)-1)%len(tg.hostile)] }
		var hs []any
		for range 5 { // the most a model may propose at once
			hs = append(hs, map[string]any{"statement": "Orders are never negative.", "table": "orders", "expected": "0", "test_sql": pick()})
		}
		srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Reply {
			if rep, ok := quietJoins(req); ok {
				return rep
			}
			switch req.Tool {
			case "propose_hypotheses":
				return llmtest.Reply{Tool: req.Tool, Args: map[string]any{"hypotheses": hs}}
			case "write_test_sql", "revise_sql":
				return llmtest.Reply{Tool: req.Tool, Args: map[string]any{"sql": pick()}}
			case "describe_tables":
				return llmtest.Reply{Tool: req.Tool, Args: map[string]any{"tables": []any{}}}
			case "write_summary":
				return llmtest.Reply{Tool: req.Tool, Args: map[string]any{"summary": "A shop."}}
			}
			return llmtest.Reply{Status: 400, Raw: `{}`}
		})
		defer srv.Close()
		t.Setenv("OPENAI_API_KEY", llmCanary)
		res := run(t, append([]string{"--db", tg.dsn, "--out", out, "--progress", "plain", "--timeout", "120s", "--query-timeout", "5s",
			"--llm", "openai", "--llm-model", "scripted", "--llm-base-url", srv.URL + "/v1", "--llm-paths", "3", "--llm-max-calls", "200"},
			flags...)...)
		seen.WriteString(res.stdout + res.stderr)
		for _, r := range srv.Requests() {
			seen.WriteString(r.Body)
		}
		if want := completeOr(tg.unreadable); res.code != want {
			t.Fatalf("exit %d, want %d\n%s", res.code, want, clipText(res.stderr, 3000))
		}
		_, r := readReport(t, out)
		checkUnreadViews(t, r, tg.unreadable)
		for _, h := range r.Hypotheses {
			if h.Expert == model.Name {
				t.Errorf("a hostile hypothesis reached the ledger: %+v", h)
			}
		}
		c := r.Database.Connection
		named := slices.ContainsFunc(r.Uncertainties, func(u string) bool { return strings.Contains(u, "can do more than read") })
		switch {
		case c == nil:
			t.Fatal("report.json has no database.connection")
		case mode == noRoles && (c.Checked || c.Privileged || c.UntrustedSQL != "allowed" || named):
			t.Errorf("report.json database.connection = %+v (named among uncertainties: %v)", c, named)
		case mode != noRoles && (!c.Checked || !c.Privileged || len(c.Privileges) == 0 || !named):
			t.Errorf("report.json database.connection = %+v; named among uncertainties: %v", c, named)
		case mode == privilegedAllowed && c.UntrustedSQL != "allowed (--allow-privileged)",
			mode == privilegedRefused && c.UntrustedSQL != "refused":
			t.Errorf("untrusted_sql = %q", c.UntrustedSQL)
		}
		proposed := slices.ContainsFunc(srv.Requests(), func(r llmtest.Request) bool { return r.Tool == "propose_hypotheses" })
		if allow {
			if !proposed || next.Load() < 5 {
				var tools []string
				for _, r := range srv.Requests() {
					tools = append(tools, r.Tool)
				}
				t.Errorf("the model was not asked for hypotheses (%d statements proposed; asked %q)\n%s", next.Load(), tools, clipText(res.stderr, 4000))
			}
			refusals := catalogKind(t, out, model.KindRefusal)
			for _, e := range refusals {
				var d model.RefusalDoc
				e.Decode(&d)
				if d.Stage != "guard" && d.Stage != "grounding" {
					t.Errorf("a hostile statement got past the guard to stage %s: %s (%s)", d.Stage, d.SQL, d.Reason)
				}
			}
			if len(refusals) == 0 {
				var calls []string
				for _, e := range catalogKind(t, out, model.KindLLMCall) {
					calls = append(calls, string(e.Document))
				}
				t.Errorf("no refusal recorded; uncertainties %q; calls %s", r.Uncertainties, clipText(strings.Join(calls, "\n"), 6000))
			}
		} else {
			if proposed {
				t.Error("the model was asked for hypotheses its SQL could not test")
			}
		}
	})

	if after := tg.state(t); after != before {
		t.Errorf("the server's state changed:\nbefore %s\nafter  %s", before, after)
	}
	text := seen.String()
	for _, d := range dirs {
		filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				b, _ := os.ReadFile(p)
				text += string(b)
			}
			return nil
		})
	}
	if strings.Contains(text, tg.secret) {
		i := strings.Index(text, tg.secret)
		t.Errorf("the server file's secret reached an output: …%s…", text[max(0, i-200):min(len(text), i+100)])
	}
}

// completeOr is the exit code of a discovery of a database whose views
// unreadable cannot be read: 0 when there is none, else 4 (incomplete).
func completeOr(unreadable []string) int {
	if len(unreadable) == 0 {
		return 0
	}
	return exitIncomplete
}

// checkUnreadViews checks that report.json's outcome names exactly the
// views unreadable as not read, each because it does not compile, and is
// complete when there is none.
func checkUnreadViews(t *testing.T, r report.Report, unreadable []string) {
	t.Helper()
	if r.Outcome == nil {
		t.Fatal("report.json has no outcome")
	}
	if len(unreadable) == 0 {
		if r.Outcome.Status != "complete" || len(r.Outcome.Unseen) != 0 {
			t.Errorf("outcome %+v, want complete", r.Outcome)
		}
		return
	}
	var got []string
	for _, u := range r.Outcome.Unseen {
		got = append(got, u.Table)
		if u.What != "table" || u.Kind != "view" || !strings.Contains(u.Reason, "does not compile") {
			t.Errorf("unseen %+v, want a view that does not compile", u)
		}
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(unreadable))
	if r.Outcome.Status != "incomplete" || !slices.Equal(got, want) {
		t.Errorf("outcome %s, not read: %q; want incomplete, not read: %q", r.Outcome.Status, got, want)
	}
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// secretFile writes a file every local server account can read, holding a
// fresh canary, and returns its path and the canary.
func secretFile(t *testing.T) (path, canary string) {
	t.Helper()
	b := make([]byte, 8)
	rand.Read(b)
	canary = "secret-canary-" + hex.EncodeToString(b)
	path = filepath.Join(os.TempDir(), "discover-secret-"+hex.EncodeToString(b))
	if err := os.WriteFile(path, []byte(canary+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(path) })
	return path, canary
}

// targets returns the paths under /tmp that the corpus' statements would
// write, which must not exist after the attack.
var tmpPath = regexp.MustCompile(`/tmp/[A-Za-z0-9_.-]+`)

func writtenPaths(stmts []string) []string {
	var out []string
	for _, s := range stmts {
		out = append(out, tmpPath.FindAllString(s, -1)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// TestUntrustedDoorsPostgresSuperuser: PostgreSQL as its superuser, with
// dblink, adminpack and pageinspect installed.
func TestUntrustedDoorsPostgresSuperuser(t *testing.T) {
	dsn, name, admin, _ := scratchPostgres(t, "doors", "unused")
	fixture, err := guardcorpus.Load("../../warehouse/postgres/testdata/guard/fixture.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range append([]string{"CREATE EXTENSION dblink", "CREATE EXTENSION adminpack", "CREATE EXTENSION pageinspect"},
		guardcorpus.SQL(fixture)...) {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	entries, err := guardcorpus.Load("../../warehouse/postgres/testdata/guard/hostile.sql")
	if err != nil {
		t.Fatal(err)
	}
	hostile := guardcorpus.SQL(entries)
	secret, canary := secretFile(t)
	u, _ := url.Parse(dsn)
	conninfo := fmt.Sprintf("host=%s port=%s dbname=%s user=postgres", u.Hostname(), u.Port(), name)
	// The secret, by every route the issue names: a denied function spelled
	// another way, SQL hidden in a string, a second connection, an error.
	hostile = append(hostile,
		fmt.Sprintf(`SELECT pg_read_file('%s') AS violations`, secret),
		fmt.Sprintf(`SELECT U&"pg_read_file"('%s') AS violations`, secret),
		fmt.Sprintf(`SELECT U&"\0070g_read_file"('%s') AS violations`, secret),
		fmt.Sprintf(`SELECT CAST(pg_read_file('%s') AS int) AS violations`, secret),
		fmt.Sprintf(`SELECT COUNT(*) AS violations FROM orders WHERE note = pg_read_file('%s')`, secret),
		fmt.Sprintf(`SELECT * FROM dblink('%s', 'SELECT pg_read_file(''%s'')') AS t(violations text)`, conninfo, secret),
		fmt.Sprintf(`SELECT dblink_exec('%s', 'CREATE TABLE pwned_doors (x text)') AS violations`, conninfo),
		fmt.Sprintf(`SELECT query_to_xml('SELECT pg_read_file(''%s'') AS x', true, true, '') AS violations`, secret),
		fmt.Sprintf(`SELECT ts_stat('SELECT to_tsvector(pg_read_file(''%s''))') AS violations`, secret),
		fmt.Sprintf(`SELECT length(pg_read_binary_file('%s')) AS violations`, secret),
		fmt.Sprintf(`SELECT lo_import('%s') AS violations`, secret),
	)
	paths := writtenPaths(hostile)
	witness, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer witness.Close()
	witness.SetMaxOpenConns(1)
	var witnessPID int
	if err := witness.QueryRow("SELECT pg_backend_pid()").Scan(&witnessPID); err != nil {
		t.Fatal(err)
	}
	state := func(t *testing.T) string {
		t.Helper()
		var pid int
		if err := witness.QueryRow("SELECT pg_backend_pid()").Scan(&pid); err != nil || pid != witnessPID {
			t.Errorf("another session was touched: pid %d (was %d), %v", pid, witnessPID, err)
		}
		var s string
		// Tests of other packages run beside this one on the same server
		// and make their own databases, roles, a replication slot and an
		// advisory lock (warehouse/postgres's guard test, bypassing the
		// guard on purpose): what is server-wide is counted by the names
		// the hostile statements use, the rest in this database.
		err := admin.QueryRow(`SELECT format('slots %s; stats_reset %s/%s/%s; advisory %s; large objects %s; roles %s; databases %s; pwned %s',
				(SELECT count(*) FROM pg_replication_slots WHERE slot_name NOT LIKE 'discover_guard_slot_%'),
				(SELECT stats_reset FROM pg_stat_database WHERE datname = current_database()),
				(SELECT stats_reset FROM pg_stat_archiver), (SELECT stats_reset FROM pg_stat_bgwriter),
				(SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'
					AND database = (SELECT oid FROM pg_database WHERE datname = current_database())),
				(SELECT count(*) FROM pg_largeobject_metadata),
				(SELECT count(*) FROM pg_roles WHERE rolname LIKE 'pwned%'),
				(SELECT count(*) FROM pg_database WHERE datname LIKE 'pwned%'),
				(SELECT count(*) FROM pg_class WHERE relname LIKE 'pwned%'))`).Scan(&s)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%s; dump %s; files %q", s, pgscratch.DumpSum(t, dsn), existing(paths))
	}
	tg := doorTarget{dsn: dsn, hostile: hostile, secret: canary, state: state}
	t.Run("allow-list alone", func(t *testing.T) { attackDoors(t, tg, privilegedAllowed) })
	t.Run("privileged connection refused", func(t *testing.T) { attackDoors(t, tg, privilegedRefused) })
}

// TestUntrustedDoorsMariaDBRoot: MariaDB as root (FILE, SUPER, PROCESS,
// every write), with ANSI_QUOTES in the server's global sql_mode, so that
// "LOAD_FILE"(…) would be a call to a server that did not pin its session.
func TestUntrustedDoorsMariaDBRoot(t *testing.T) {
	ctx := context.Background()
	server := serverDSN(t, "DISCOVER_TEST_MYSQL")
	name := fmt.Sprintf("doors_%d", time.Now().UnixNano())
	dsn, drop, err := load.CreateDatabase(ctx, "mysql", server, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { drop() })
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pass, _ := u.User.Password()
	admin, err := sql.Open("mysql", fmt.Sprintf("%s:%s@tcp(%s)/%s", u.User.Username(), pass, u.Host, name))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	admin.SetMaxOpenConns(1) // one session: the fixture's statements share it
	var mode string
	if err := admin.QueryRow("SELECT @@GLOBAL.sql_mode").Scan(&mode); err != nil || !strings.Contains(mode, "ANSI_QUOTES") {
		t.Fatalf("the test server's global sql_mode is %q (%v); .ci/start-servers gives it ANSI_QUOTES", mode, err)
	}
	fixture, err := guardcorpus.Load("../../warehouse/mysql/testdata/guard/fixture.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range guardcorpus.SQL(fixture) {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	entries, err := guardcorpus.Load("../../warehouse/mysql/testdata/guard/hostile.sql")
	if err != nil {
		t.Fatal(err)
	}
	hostile := guardcorpus.SQL(entries)
	secret, canary := secretFile(t)
	out := "/tmp/discover_doors_" + strings.TrimPrefix(canary, "secret-canary-")
	hostile = append(hostile,
		fmt.Sprintf(`SELECT LOAD_FILE('%s') AS violations`, secret),
		fmt.Sprintf(`SELECT "LOAD_FILE"('%s') AS violations`, secret),
		fmt.Sprintf(`SELECT /*!LOAD_FILE('%s') AS */ violations FROM orders`, secret),
		fmt.Sprintf(`SELECT /*M!LOAD_FILE('%s') AS */ violations FROM orders`, secret),
		fmt.Sprintf(`SELECT LOAD_FILE(0x%x) AS violations`, secret),
		fmt.Sprintf(`SELECT CAST(LOAD_FILE('%s') AS SIGNED) AS violations`, secret),
		fmt.Sprintf(`SELECT COUNT(*) AS violations FROM orders WHERE note = LOAD_FILE('%s')`, secret),
		fmt.Sprintf(`SELECT COUNT(*) AS violations FROM orders INTO OUTFILE '%s'`, out),
		`SELECT GET_LOCK('discover_doors', 0) AS violations`,
		`SELECT COUNT(*) AS violations FROM information_schema.PROCESSLIST`,
	)
	paths := append(writtenPaths(hostile), out)
	witness, err := sql.Open("mysql", fmt.Sprintf("%s:%s@tcp(%s)/%s", u.User.Username(), pass, u.Host, name))
	if err != nil {
		t.Fatal(err)
	}
	defer witness.Close()
	witness.SetMaxOpenConns(1)
	var witnessID int64
	if err := witness.QueryRow("SELECT CONNECTION_ID()").Scan(&witnessID); err != nil {
		t.Fatal(err)
	}
	state := func(t *testing.T) string {
		t.Helper()
		var id int64
		if err := witness.QueryRow("SELECT CONNECTION_ID()").Scan(&id); err != nil || id != witnessID {
			t.Errorf("another session was touched: connection %d (was %d), %v", id, witnessID, err)
		}
		var s string
		err := admin.QueryRow(`SELECT CONCAT_WS('|', @@global.sql_mode, @@global.general_log, @@global.read_only,
			@@global.max_connections, @@global.character_set_server, COALESCE(IS_USED_LOCK('discover_doors'), IS_USED_LOCK('discover_guard'), IS_USED_LOCK('x'), 'no lock'),
			(SELECT COUNT(*) FROM mysql.user))`).Scan(&s)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%s; dump %s; files %q", s, myscratch.DumpSum(t, u.Host, u.User.Username(), pass, name), existing(paths))
	}
	tg := doorTarget{dsn: dsn, hostile: hostile, secret: canary, state: state}
	t.Run("allow-list alone", func(t *testing.T) { attackDoors(t, tg, privilegedAllowed) })
	t.Run("privileged connection refused", func(t *testing.T) { attackDoors(t, tg, privilegedRefused) })
}

// buildFile runs a fixture's statements in a new database file of driver.
func buildFile(t *testing.T, driver, path string, stmts []string) {
	t.Helper()
	db, err := sql.Open(driver, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// folderState is every file below dir with its checksum.
func folderState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() {
			fmt.Fprintf(&b, "%s %x; ", strings.TrimPrefix(p, dir), sha(t, p))
		}
		return nil
	})
	return b.String()
}

// TestUntrustedDoorsSQLite: a SQLite file whose views call load_extension
// and read sqlite_dbpage, with an FTS5 table and AUTOINCREMENT.
func TestUntrustedDoorsSQLite(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "shop.db")
	fixture, err := guardcorpus.Load("../../warehouse/sqlite/testdata/guard/fixture.sql")
	if err != nil {
		t.Fatal(err)
	}
	buildFile(t, "sqlite", db, guardcorpus.SQL(fixture))
	entries, err := guardcorpus.Load("../../warehouse/sqlite/testdata/guard/hostile.sql")
	if err != nil {
		t.Fatal(err)
	}
	hostile := guardcorpus.SQL(entries)
	secret, canary := secretFile(t)
	attached := filepath.Join(dir, "attached.db")
	hostile = append(hostile,
		fmt.Sprintf(`SELECT readfile('%s') AS violations`, secret),
		fmt.Sprintf(`ATTACH DATABASE '%s' AS a`, attached),
		fmt.Sprintf(`SELECT COUNT(*) AS violations FROM orders; ATTACH DATABASE '%s' AS a`, attached),
		fmt.Sprintf(`VACUUM INTO '%s'`, attached),
		fmt.Sprintf(`SELECT load_extension('%s') AS violations`, secret),
	)
	paths := writtenPaths(hostile)
	tg := doorTarget{dsn: db, hostile: hostile, secret: canary, state: func(t *testing.T) string {
		return fmt.Sprintf("%s files %q", folderState(t, dir), existing(paths))
	}, unreadable: []string{"broken", "evil_fn", "evil_pages", "mysql view"}}
	attackDoors(t, tg, noRoles)
}

// TestUntrustedDoorsDuckDB: a DuckDB file with a sequence and macros, and
// the same tables as a CSV folder, beside a secret file DuckDB could read.
func TestUntrustedDoorsDuckDB(t *testing.T) {
	root := t.TempDir()
	file, folder, private, out := filepath.Join(root, "db", "shop.duckdb"), filepath.Join(root, "lake"),
		filepath.Join(root, "private"), filepath.Join(root, "out")
	for _, d := range []string{filepath.Dir(file), folder, private, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_, canary := secretFile(t)
	secret := filepath.Join(private, "secret.csv")
	if err := os.WriteFile(secret, []byte("secret\n"+canary+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fixture, err := guardcorpus.Load("../../warehouse/duckdb/testdata/guard/fixture.sql")
	if err != nil {
		t.Fatal(err)
	}
	stmts := guardcorpus.SQL(fixture)
	for _, tb := range []string{"customer", "orders", "order_items", "events"} {
		stmts = append(stmts, fmt.Sprintf("COPY %s TO '%s' (HEADER)", tb, filepath.Join(folder, tb+".csv")))
	}
	buildFile(t, "duckdb", file, stmts)
	entries, err := guardcorpus.Load("../../warehouse/duckdb/testdata/guard/hostile.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []struct{ name, dsn, data, dir string }{
		{"file", "duckdb://" + file, file, filepath.Dir(file)},
		{"folder", "duckdb://" + folder, filepath.Join(folder, "orders.csv"), folder},
	} {
		t.Run(src.name, func(t *testing.T) {
			fill := strings.NewReplacer("{{SECRET}}", secret, "{{SECRET_DIR}}", private, "{{OUT}}", out,
				"{{DATA}}", src.data, "{{DIR}}", src.dir)
			var hostile []string
			for _, q := range guardcorpus.SQL(entries) {
				hostile = append(hostile, fill.Replace(q))
			}
			hostile = append(hostile,
				fmt.Sprintf(`SELECT COUNT(*) AS violations FROM read_csv('%s')`, secret),
				fmt.Sprintf(`SELECT COUNT(*) AS violations FROM '%s'`, secret),
				fmt.Sprintf(`SELECT content AS violations FROM read_text('%s')`, secret),
				fmt.Sprintf(`COPY orders TO '%s'`, filepath.Join(out, "x.csv")),
			)
			tg := doorTarget{dsn: src.dsn, hostile: hostile, secret: canary, state: func(t *testing.T) string {
				return folderState(t, root)
			}}
			attackDoors(t, tg, noRoles)
		})
	}
}
