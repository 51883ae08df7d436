package warehouse_test

// The guard's cases name the engine they are written for; the grammar comes
// from that engine's package, found by name through connect as the command
// line finds it (warehouse cannot import connect: connect imports it).

import (
	"errors"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/connect"
)

// grammarFor is the grammar of the engine called name, or nil for a name no
// engine goes by ("oracle", ""), which gets the generic lexer and must pass
// every engine's rules.
func grammarFor(name string) *warehouse.Grammar {
	d, err := connect.DialectFor(name)
	if err != nil {
		return nil
	}
	return d.Grammar()
}

type guardCase struct {
	name    string
	dialect string
	sql     string
	ok      bool // must pass
}

var guardCases = []guardCase{
	// Allowed: plain queries.
	{"select columns with keyword-like names", "sqlite", "SELECT created_at, last_updated FROM t", true},
	{"lowercase select", "sqlite", "select id, name from t where id = 1", true},
	{"string containing a statement", "sqlite", "SELECT 'x''; DROP TABLE x' AS s", true},
	{"quoted identifier delete", "postgres", `SELECT "delete" FROM t`, true},
	{"bracket identifier update", "sqlite", "SELECT [update] FROM t", true},
	{"backtick identifier select", "mysql", "SELECT `select` FROM `t`", true},
	{"replace function", "sqlite", "SELECT replace(name,'a','b') FROM t", true},
	{"replace function postgres", "postgres", "SELECT REPLACE (name, 'a', 'b') FROM t", true},
	{"mysql insert string function", "mysql", "SELECT INSERT('Quadratic', 3, 4, 'What')", true},
	{"mysql truncate numeric function", "mysql", "SELECT TRUNCATE(1.223, 1)", true},
	{"left right format functions", "postgres", "SELECT left(a, 2), right(a, 2), format('%s', a) FROM t", true},
	{"trailing semicolon", "sqlite", "SELECT 1;", true},
	{"trailing semicolon and comment", "sqlite", "SELECT 1; -- trailing comment", true},
	{"trailing semicolon and block comment", "postgres", "SELECT 1;\n/* done */\n", true},
	{"leading block comment", "sqlite", "/* leading comment */ SELECT 1", true},
	{"leading line comment", "sqlite", "-- hello\nSELECT 1", true},
	{"mysql hash comment", "mysql", "# hello\nSELECT 1", true},
	{"mysql optimizer hint", "mysql", "SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM t", true},
	{"with", "sqlite", "WITH a AS (SELECT 1) SELECT * FROM a", true},
	{"with recursive", "sqlite", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r WHERE n<5) SELECT * FROM r", true},
	{"with materialized and search clause", "postgres", "WITH RECURSIVE t(id, p) AS MATERIALIZED (SELECT 1, 0) SEARCH DEPTH FIRST BY id SET ord SELECT * FROM t ORDER BY ord", true},
	{"with parenthesized main query", "postgres", "WITH a AS (SELECT 1 AS x) (SELECT x FROM a)", true},
	{"values", "sqlite", "VALUES (1),(2)", true},
	{"table postgres", "postgres", "TABLE orders", true},
	{"parenthesized union", "postgres", "(SELECT 1) UNION ALL (SELECT 2)", true},
	{"explain query plan", "sqlite", "EXPLAIN QUERY PLAN SELECT * FROM t", true},
	{"explain analyze select", "postgres", "EXPLAIN ANALYZE SELECT * FROM t", true},
	{"explain with options", "postgres", "EXPLAIN (ANALYZE, COSTS OFF, FORMAT JSON) SELECT 1", true},
	{"explain format json mysql", "mysql", "EXPLAIN FORMAT=JSON SELECT * FROM t", true},
	{"explain trino type", "trino", "EXPLAIN (TYPE DISTRIBUTED) SELECT * FROM t", true},
	{"dollar quoted string", "postgres", "SELECT $$; DROP TABLE x$$", true},
	{"tagged dollar quoted string", "postgres", "SELECT $fn$ it's; DELETE $$ $fn$ AS s", true},
	{"escape string with backslash quote", "postgres", `SELECT E'it\'s; DROP TABLE t' AS s`, true},
	{"mysql backslashes that read the same either way", "mysql", `SELECT 'C:\\temp', 'a\nb' FROM t WHERE a LIKE 'x\_%'`, true},
	{"mysql double quoted string", "mysql", `SELECT "x""; DELETE FROM t" AS s`, true},
	{"nested comment postgres", "postgres", "/* outer /* inner; DROP TABLE t */ still comment */ SELECT 1", true},
	{"filter clause", "postgres", "SELECT count(*) FILTER (WHERE x > 0) FROM t", true},
	{"order by desc limit", "sqlite", "SELECT * FROM t ORDER BY updated_at DESC LIMIT 5", true},
	{"left join anti join", "postgres", `SELECT * FROM "orders" o LEFT JOIN "customers" c ON o.customer_id = c.id WHERE c.id IS NULL`, true},
	{"like pattern with keywords", "sqlite", "SELECT 1 FROM t WHERE note LIKE '%insert into%'", true},
	{"qualified keyword column", "postgres", "SELECT t.delete, t.update FROM t", true},
	{"character set in cast", "mysql", "SELECT CAST(name AS CHAR CHARACTER SET utf8mb4), CONVERT(name USING utf8mb4) FROM t", true},
	{"charset in convert", "mysql", "SELECT CONVERT(name, CHAR CHARSET latin1) FROM t", true},
	{"substring for", "postgres", "SELECT substring(name FROM 1 FOR 3) FROM t", true},
	{"parameters", "postgres", "SELECT * FROM t WHERE id = $1 AND x::text = $2", true},
	{"sqlite parameters", "sqlite", "SELECT * FROM t WHERE a = ? AND b = ?2 AND c = :name AND d = @v AND e = $w", true},
	{"dangerous name as a column", "mysql", "SELECT sleep, benchmark FROM t", true},
	{"pg functions that only read", "postgres", "SELECT current_setting('search_path'), pg_table_size('t'), currval('s')", true},
	{"tablesample system", "postgres", "SELECT * FROM t TABLESAMPLE SYSTEM (10)", true},
	{"duckdb sample system", "duckdb", "SELECT * FROM t USING SAMPLE system(10%)", true},
	{"duckdb read_text", "duckdb", "SELECT * FROM read_text('notes/*.txt')", true},
	{"duckdb from first", "duckdb", "FROM t SELECT a LIMIT 3", true},
	{"show tables mysql", "mysql", "SHOW TABLES", true},
	{"show create table mysql", "mysql", "SHOW CREATE TABLE t", true},
	{"describe mysql", "mysql", "DESCRIBE t", true},
	{"desc qualified mysql", "mysql", "DESC shop.`orders`", true},
	{"describe duckdb query", "duckdb", "DESCRIBE SELECT * FROM t", true},
	{"show columns trino", "trino", "SHOW COLUMNS FROM hive.sales.orders", true},
	{"pragma table_info", "sqlite", "PRAGMA table_info(x)", true},
	{"pragma foreign_key_list quoted", "sqlite", `PRAGMA foreign_key_list("t")`, true},
	{"pragma schema index_list", "sqlite", "PRAGMA schema.index_list(t)", true},
	{"pragma bare read", "sqlite", "PRAGMA user_version", true},
	{"duckdb summarize", "duckdb", "SUMMARIZE t", true},
	{"mysql table statement", "mysql", "TABLE t ORDER BY a LIMIT 3", true},
	{"mysql explain of a table", "mysql", "EXPLAIN orders", true},
	{"unknown dialect plain select", "oracle", "SELECT a FROM t WHERE b = 'x'", true},
	{"dialect alias postgresql", "PostgreSQL", "SELECT 1", true},
	{"non-ascii identifiers", "postgres", "SELECT größe FROM maße", true},

	// Rejected: statement kinds.
	{"insert", "sqlite", "INSERT INTO t VALUES (1)", false},
	{"insert mysql without into", "mysql", "INSERT t VALUES (1)", false},
	{"replace into", "mysql", "REPLACE INTO t VALUES (1)", false},
	{"update", "sqlite", "UPDATE t SET a = 1", false},
	{"delete", "postgres", "DELETE FROM t", false},
	{"upsert", "sqlite", "UPSERT INTO t VALUES (1)", false},
	{"merge", "postgres", "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", false},
	{"create temp table as", "sqlite", "CREATE TEMP TABLE x AS SELECT 1", false},
	{"drop", "postgres", "DROP TABLE t", false},
	{"alter", "mysql", "ALTER TABLE t ADD COLUMN b INT", false},
	{"truncate", "postgres", "TRUNCATE t", false},
	{"rename", "mysql", "RENAME TABLE a TO b", false},
	{"grant", "postgres", "GRANT SELECT ON t TO bob", false},
	{"revoke", "postgres", "REVOKE SELECT ON t FROM bob", false},
	{"attach", "sqlite", "ATTACH DATABASE 'x.db' AS x", false},
	{"detach", "sqlite", "DETACH DATABASE x", false},
	{"vacuum", "sqlite", "VACUUM", false},
	{"vacuum into", "sqlite", "VACUUM INTO '/tmp/x.db'", false},
	{"reindex", "sqlite", "REINDEX t", false},
	{"analyze", "postgres", "ANALYZE t", false},
	{"copy to file", "postgres", "COPY t TO '/tmp/x'", false},
	{"copy duckdb", "duckdb", "COPY t TO 'out.parquet' (FORMAT PARQUET)", false},
	{"call", "postgres", "CALL do_things()", false},
	{"exec", "unknown", "EXEC sp_who", false},
	{"execute", "postgres", "EXECUTE stmt(1)", false},
	{"do block", "postgres", "DO $$BEGIN DELETE FROM t; END$$", false},
	{"lock table", "postgres", "LOCK TABLE t", false},
	{"unlock tables", "mysql", "UNLOCK TABLES", false},
	{"set", "postgres", "SET search_path TO x", false},
	{"reset", "postgres", "RESET ALL", false},
	{"begin", "sqlite", "BEGIN", false},
	{"commit", "postgres", "COMMIT", false},
	{"rollback", "postgres", "ROLLBACK", false},
	{"savepoint", "sqlite", "SAVEPOINT a", false},
	{"release", "sqlite", "RELEASE a", false},
	{"start transaction", "mysql", "START TRANSACTION", false},
	{"load duckdb", "duckdb", "LOAD httpfs", false},
	{"install duckdb", "duckdb", "INSTALL httpfs", false},
	{"show in sqlite", "sqlite", "SHOW TABLES", false},
	{"table in sqlite", "sqlite", "TABLE t", false},
	{"describe in postgres", "postgres", "DESCRIBE t", false},
	{"pragma in postgres", "postgres", "PRAGMA table_info(t)", false},

	// Rejected: writes hidden in a read.
	{"select into", "postgres", "SELECT * INTO newt FROM t", false},
	{"select into outfile", "mysql", "SELECT a INTO OUTFILE '/tmp/x' FROM t", false},
	{"select into dumpfile", "mysql", "SELECT a FROM t INTO DUMPFILE '/tmp/x'", false},
	{"select into variable", "mysql", "SELECT a INTO @v FROM t", false},
	{"for update", "postgres", "SELECT * FROM t FOR UPDATE", false},
	{"for share", "postgres", "SELECT * FROM t FOR SHARE", false},
	{"for no key update", "postgres", "SELECT * FROM t FOR NO KEY UPDATE", false},
	{"for key share", "postgres", "SELECT * FROM t FOR KEY SHARE", false},
	{"lock in share mode", "mysql", "SELECT 1 FROM t LOCK IN SHARE MODE", false},
	{"data-modifying cte", "postgres", "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", false},
	{"data-modifying cte insert", "postgres", "WITH d AS (INSERT INTO t VALUES (1) RETURNING id) SELECT * FROM d", false},
	{"with then insert", "postgres", "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", false},
	{"with then update", "mysql", "WITH x AS (SELECT 1) UPDATE t SET a = 1", false},
	{"explain delete", "postgres", "EXPLAIN DELETE FROM t", false},
	{"explain analyze delete", "postgres", "EXPLAIN ANALYZE DELETE FROM t", false},
	{"explain options delete", "postgres", "EXPLAIN (ANALYZE) DELETE FROM t", false},
	{"explain query plan insert", "sqlite", "EXPLAIN QUERY PLAN INSERT INTO t VALUES (1)", false},
	{"desc analyze delete mysql", "mysql", "DESC ANALYZE DELETE FROM t", false},
	{"explain nothing", "postgres", "EXPLAIN ANALYZE", false},
	{"explain two option groups", "postgres", "EXPLAIN (ANALYZE) (DELETE FROM t) SELECT 1", false},
	{"explain analyze parenthesized delete", "postgres", "EXPLAIN ANALYZE (DELETE FROM t)", false},
	{"lowercase data-modifying cte", "postgres", "with d as (update t set a = 1 returning *) select * from d", false},
	{"for update in subquery", "postgres", "SELECT * FROM (SELECT * FROM t FOR UPDATE) s", false},
	{"duckdb pragma", "duckdb", "PRAGMA threads=1", false},
	{"trino use", "trino", "USE hive.sales", false},

	// Rejected: more than one statement, or one hidden in comments.
	{"second statement", "sqlite", "SELECT 1; DROP TABLE t", false},
	{"two selects", "sqlite", "SELECT 1;SELECT 2", false},
	{"double semicolon", "sqlite", "SELECT 1;;", false},
	{"delete after block comment", "sqlite", "/* x */ DELETE FROM t", false},
	{"drop after line comment", "sqlite", "-- x\nDROP TABLE t", false},
	{"semicolon in comment then update", "sqlite", "SELECT 1 /* ; */ ; UPDATE t SET a=1", false},
	{"mysql executable comment", "mysql", "/*! DROP TABLE t */ SELECT 1", false},
	{"mysql versioned executable comment", "mysql", "SELECT 1 /*!50000 ; DROP TABLE t */", false},
	{"mysql dash without space is not a comment", "mysql", "SELECT 1 --x; DROP TABLE t", false},
	{"sqlite comments do not nest", "sqlite", "/* a /* b */ DROP TABLE t; */ SELECT 1", false},
	{"statement after escaped quote", "postgres", `SELECT 'a\'; DROP TABLE t; --'`, false},
	{"mysql backslash quote depends on sql_mode", "mysql", `SELECT 'it\'s; DROP TABLE t; -- ' AS s`, false},
	{"postgres backslash quote depends on settings", "postgres", `SELECT 'a\' || 'b'`, false},
	{"mysql double quotes depend on ansi_quotes", "mysql", `SELECT "a\"; DROP TABLE t; -- " AS s`, false},

	// Rejected: PRAGMA writes.
	{"pragma assignment", "sqlite", "PRAGMA x = 1", false},
	{"pragma query_only off", "sqlite", "PRAGMA query_only = 0", false},
	{"pragma writable_schema on", "sqlite", "PRAGMA writable_schema=ON", false},
	{"pragma writable_schema call", "sqlite", "PRAGMA writable_schema(1)", false},
	{"pragma user_version call", "sqlite", "PRAGMA user_version(5)", false},
	{"pragma journal_mode", "sqlite", "PRAGMA journal_mode", false},
	{"pragma wal_checkpoint", "sqlite", "PRAGMA main.wal_checkpoint(TRUNCATE)", false},
	{"pragma optimize", "sqlite", "PRAGMA optimize", false},
	{"pragma setting in call form", "sqlite", "PRAGMA foreign_keys(ON)", false},

	// Rejected: dangerous functions.
	{"load_extension", "sqlite", "SELECT load_extension('x')", false},
	{"writefile", "sqlite", "SELECT writefile('/tmp/x', 'data')", false},
	{"pg_read_file", "postgres", "SELECT pg_read_file('/etc/passwd')", false},
	{"pg_read_file schema-qualified", "postgres", "SELECT pg_catalog.pg_read_file('/etc/passwd')", false},
	{"pg_sleep quoted name", "postgres", `SELECT "pg_sleep"(10)`, false},
	{"pg_sleep", "postgres", "SELECT pg_sleep(10)", false},
	{"pg_sleep with comment before paren", "postgres", "SELECT PG_SLEEP /* z */ (10)", false},
	{"nextval", "postgres", "SELECT nextval('s')", false},
	{"set_config", "postgres", "SELECT set_config('search_path', 'x', false)", false},
	{"advisory lock", "postgres", "SELECT pg_try_advisory_xact_lock(1)", false},
	{"dblink in from", "postgres", "SELECT * FROM dblink('host=x', 'DELETE FROM t') AS r(a int)", false},
	{"mysql sleep", "mysql", "SELECT sleep(10)", false},
	{"mysql load_file", "mysql", "SELECT load_file('/etc/passwd')", false},
	{"duckdb getenv", "duckdb", "SELECT getenv('HOME')", false},
	{"sqlite quoted function name", "sqlite", `SELECT "load_extension"('x')`, false},
	{"mysql backtick function name", "mysql", "SELECT `sleep`(1)", false},
	{"mysql benchmark in subquery", "mysql", "SELECT * FROM t WHERE id = (SELECT benchmark(1000000, md5('x')))", false},
	{"trino query table function", "trino", "SELECT * FROM TABLE(system.query(query => 'DELETE FROM t'))", false},

	// Spark SQL: backslash escapes in '…' and "…" (both strings), backticks,
	// nested comments; SHOW, DESCRIBE and TABLE read.
	{"spark backtick delete", "spark", "SELECT `delete` FROM `t`", true},
	{"spark double-quoted string", "spark", `SELECT "x; DROP TABLE t" AS s`, true},
	{"spark escaped quote hides nothing", "spark", `SELECT 'it\'s; DROP TABLE t' AS s`, true},
	{"spark escaped quote in double quotes", "spark", `SELECT "a\"; DROP TABLE t" AS s`, true},
	{"spark nested comment", "spark", "SELECT 1 /* a /* b */ DROP TABLE t */", true},
	{"spark show tables", "spark", "SHOW TABLES IN sales", true},
	{"spark describe extended", "spark", "DESCRIBE TABLE EXTENDED sales.orders", true},
	{"spark table statement", "spark", "TABLE sales.orders", true},
	{"spark insert overwrite directory", "spark", "INSERT OVERWRITE DIRECTORY '/tmp/x' SELECT * FROM t", false},
	{"spark cte insert", "spark", "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", false},
	{"spark from-first insert", "spark", "FROM t INSERT INTO u SELECT *", false},
	{"spark cache table", "spark", "CACHE TABLE t", false},
	{"spark set", "spark", "SET spark.sql.ansi.enabled=false", false},
	{"spark add jar", "spark", "ADD JAR /tmp/x.jar", false},
	{"spark reflect", "spark", "SELECT reflect('java.lang.System', 'exit', 0)", false},
	{"spark java_method", "spark", "SELECT JAVA_METHOD('java.lang.System', 'exit', 0)", false},
	{"spark execute immediate", "spark", "EXECUTE IMMEDIATE 'DROP TABLE t'", false},
	{"spark nested comment left open", "spark", "SELECT 1 /* a /* b */ DROP TABLE t", false},
	{"pg_notify", "postgres", "SELECT pg_notify('c', 'x')", false},
	{"unknown dialect gets every list", "", "SELECT pg_sleep(1)", false},

	// Rejected: malformed input.
	{"unterminated string", "sqlite", "SELECT 'unterminated", false},
	{"unterminated quoted identifier", "postgres", `SELECT "abc FROM t`, false},
	{"unterminated block comment", "sqlite", "SELECT 1 /* open", false},
	{"unterminated dollar quote", "postgres", "SELECT $a$ open", false},
	{"unterminated bracket", "sqlite", "SELECT [abc FROM t", false},
	{"empty", "sqlite", "", false},
	{"whitespace only", "sqlite", "  \n\t ", false},
	{"semicolon only", "sqlite", ";", false},
	{"comment only", "postgres", "-- nothing here", false},
	{"nul byte", "sqlite", "SELECT 1\x00; DROP TABLE t", false},
	{"starts with punctuation", "sqlite", "* FROM t", false},
}

func TestGuardCheck(t *testing.T) {
	if len(guardCases) < 70 {
		t.Fatalf("only %d cases", len(guardCases))
	}
	seen := map[string]bool{}
	for _, c := range guardCases {
		if seen[c.name] {
			t.Fatalf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			err := grammarFor(c.dialect).Check(c.sql)
			switch {
			case c.ok && err != nil:
				t.Errorf("Check(%q, %q) = %v, want nil", c.dialect, c.sql, err)
			case !c.ok && err == nil:
				t.Errorf("Check(%q, %q) = nil, want rejection", c.dialect, c.sql)
			case !c.ok && !errors.Is(err, warehouse.ErrRejected):
				t.Errorf("Check(%q, %q) = %v, want an error wrapping ErrRejected", c.dialect, c.sql, err)
			}
		})
	}
}

// The reason is part of the contract: the controller shows it to the model.
func TestGuardReasons(t *testing.T) {
	for _, c := range []struct{ dialect, sql, want string }{
		{"postgres", "DELETE FROM t", "guard: DELETE is not allowed: statement rejected by the read-only guard"},
		{"sqlite", "SELECT 1; SELECT 2", "only one statement"},
		{"postgres", "SELECT * FROM t FOR UPDATE", "locking clause FOR UPDATE"},
		{"postgres", "SELECT * FROM t FOR NO KEY UPDATE NOWAIT", "locking clause FOR NO KEY UPDATE is"},
		{"postgres", "SELECT * INTO x FROM t", "INTO"},
		{"sqlite", "PRAGMA query_only = 0", "PRAGMA assignment"},
		{"postgres", "SELECT pg_sleep(1)", "function pg_sleep"},
		{"sqlite", "SELECT 'x", "unterminated string literal at offset 7"},
		{"mysql", "/*! DROP TABLE t */", "executable comment"},
		{"sqlite", "", "empty statement"},
	} {
		err := grammarFor(c.dialect).Check(c.sql)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%q, %q) = %v, want it to mention %q", c.dialect, c.sql, err, c.want)
		}
	}
}

func TestTokenize(t *testing.T) {
	sql := "SELECT o.\"Order Id\", `x`, 'it''s', 1.5e3, $1 -- c\nFROM s.t /* c */ WHERE a::int >= ?;"
	toks, err := grammarFor("generic").Tokenize(sql)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind warehouse.TokenKind
		text string
	}{
		{warehouse.TokenWord, "SELECT"}, {warehouse.TokenWord, "o"}, {warehouse.TokenPunct, "."}, {warehouse.TokenQuotedIdent, `"Order Id"`},
		{warehouse.TokenPunct, ","}, {warehouse.TokenQuotedIdent, "`x`"}, {warehouse.TokenPunct, ","}, {warehouse.TokenString, "'it''s'"},
		{warehouse.TokenPunct, ","}, {warehouse.TokenNumber, "1.5e3"}, {warehouse.TokenPunct, ","}, {warehouse.TokenParam, "$1"},
		{warehouse.TokenWord, "FROM"}, {warehouse.TokenWord, "s"}, {warehouse.TokenPunct, "."}, {warehouse.TokenWord, "t"},
		{warehouse.TokenWord, "WHERE"}, {warehouse.TokenWord, "a"}, {warehouse.TokenPunct, "::"}, {warehouse.TokenWord, "int"},
		{warehouse.TokenPunct, ">="}, {warehouse.TokenParam, "?"}, {warehouse.TokenPunct, ";"},
	}
	if len(toks) != len(want) {
		t.Fatalf("got %d tokens %v, want %d", len(toks), toks, len(want))
	}
	for i, w := range want {
		if toks[i].Kind != w.kind || toks[i].Text != w.text {
			t.Errorf("token %d = %v %q, want %v %q", i, toks[i].Kind, toks[i].Text, w.kind, w.text)
		}
		if sql[toks[i].Pos:toks[i].Pos+len(toks[i].Text)] != toks[i].Text {
			t.Errorf("token %d: Pos %d does not locate %q", i, toks[i].Pos, toks[i].Text)
		}
	}
	if got := toks[3].Ident(); got != "Order Id" {
		t.Errorf("Ident() = %q, want %q", got, "Order Id")
	}
}

func TestTokenizeDialects(t *testing.T) {
	for _, c := range []struct {
		dialect, sql string
		kinds        []warehouse.TokenKind
	}{
		{"mysql", `SELECT "a\"b", @@version, @v`, []warehouse.TokenKind{warehouse.TokenWord, warehouse.TokenString, warehouse.TokenPunct, warehouse.TokenParam, warehouse.TokenPunct, warehouse.TokenParam}},
		{"sqlite", "SELECT [a b], x'00ff'", []warehouse.TokenKind{warehouse.TokenWord, warehouse.TokenQuotedIdent, warehouse.TokenPunct, warehouse.TokenString}},
		{"postgres", "SELECT E'a\\'b', $q$x$q$, U&'d'", []warehouse.TokenKind{warehouse.TokenWord, warehouse.TokenString, warehouse.TokenPunct, warehouse.TokenString, warehouse.TokenPunct, warehouse.TokenWord, warehouse.TokenPunct, warehouse.TokenString}},
		{"trino", "SELECT `a`", []warehouse.TokenKind{warehouse.TokenWord, warehouse.TokenPunct, warehouse.TokenWord, warehouse.TokenPunct}},
	} {
		toks, err := grammarFor(c.dialect).Tokenize(c.sql)
		if err != nil {
			t.Errorf("Tokenize(%q, %q): %v", c.dialect, c.sql, err)
			continue
		}
		var got []warehouse.TokenKind
		for _, tok := range toks {
			got = append(got, tok.Kind)
		}
		if len(got) != len(c.kinds) {
			t.Errorf("Tokenize(%q, %q) = %v, want kinds %v", c.dialect, c.sql, toks, c.kinds)
			continue
		}
		for i := range got {
			if got[i] != c.kinds[i] {
				t.Errorf("Tokenize(%q, %q) token %d = %v %q, want %v", c.dialect, c.sql, i, got[i], toks[i].Text, c.kinds[i])
			}
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, c := range guardCases {
		f.Add(c.dialect, c.sql)
	}
	for _, s := range []string{
		"SELECT 1; -- x\n; DROP", "SELECT $a$ $b$ $a$", "SELECT E'\\", "/* /* */", "SELECT `a``b`",
		"PRAGMA a.b(c)", "EXPLAIN (", "WITH a AS (", "SELECT 0x", "SELECT 1e+", "SELECT @@", "SELECT ?",
	} {
		for _, d := range connect.Dialects() {
			f.Add(d.Name(), s)
		}
	}
	f.Fuzz(func(t *testing.T, dialect, sql string) {
		g := grammarFor(dialect)
		err := g.Check(sql)
		if err != nil {
			if !errors.Is(err, warehouse.ErrRejected) {
				t.Fatalf("Check(%q, %q) = %v, not ErrRejected", dialect, sql, err)
			}
			return
		}
		// An accepted statement closes every string and comment it opens,
		// so a statement appended after ";" is visible and must be refused.
		for _, tail := range []string{"\n;DROP TABLE t", "\n; SELECT 1", "\n;;"} {
			if g.Check(sql+tail) == nil {
				t.Fatalf("Check(%q, %q) accepted a second statement", dialect, sql+tail)
			}
		}
		if g == nil {
			return
		}
		toks, err := g.Tokenize(sql)
		if err != nil {
			t.Fatalf("Check accepted %q but Tokenize failed: %v", sql, err)
		}
		for i, tok := range toks {
			if sql[tok.Pos:tok.Pos+len(tok.Text)] != tok.Text {
				t.Fatalf("token %d %q: bad Pos %d", i, tok.Text, tok.Pos)
			}
			if tok.Kind == warehouse.TokenPunct && tok.Text == ";" && i != len(toks)-1 {
				t.Fatalf("Check accepted %q with a statement after ';'", sql)
			}
		}
	})
}
