package trino

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	trinodrv "github.com/trinodb/trino-go-client/trino"

	"github.com/discover-db/discover/internal/guardcorpus"
	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/warehouse"
)

// TestGuardCorpus runs both corpora through Guard, and through Query on
// the fake coordinator: every hostile statement is refused and never
// reaches the cluster, every harmless one passes and does.
func TestGuardCorpus(t *testing.T) {
	harmless, hostile := guardcorpus.Read(t, "harmless.sql"), guardcorpus.Read(t, "hostile.sql")
	if len(harmless) < 100 || len(hostile) < 300 {
		t.Fatalf("corpus too small: %d harmless, %d hostile", len(harmless), len(hostile))
	}
	f := newFakeCoordinator(t)
	for _, e := range harmless {
		f.fixtures[normalize(e.SQL)] = fakeResult{cols: []fakeCol{{name: "x", typ: "bigint"}}, rows: []string{"[1]"}}
	}
	f.start()
	s := openFake(t, f, "/hive")
	ctx := context.Background()

	for _, e := range harmless {
		if err := s.Guard(ctx, e.SQL); err != nil {
			t.Errorf("harmless %s refused: %v", e, err)
			continue
		}
		if _, err := s.Query(ctx, e.SQL, warehouse.QueryOptions{}); err != nil {
			t.Errorf("harmless %s: Query = %v", e, err)
		}
		if _, ok := f.statement(normalize(e.SQL)); !ok {
			t.Errorf("harmless %s never reached the cluster", e)
		}
	}

	before := len(f.statements())
	oldAccepted, accepted := 0, 0
	for _, e := range hostile {
		err := s.Guard(ctx, e.SQL)
		if err == nil {
			accepted++
		}
		if !errors.Is(err, warehouse.ErrRejected) || !strings.HasPrefix(err.Error(), "guard: ") {
			t.Errorf("hostile %s: Guard = %v; want a refusal", e, err)
		}
		if _, err := s.Query(ctx, e.SQL, warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("hostile %s: Query = %v; want a refusal", e, err)
		}
		if Grammar.Check(e.SQL) == nil {
			oldAccepted++
		}
	}
	if after := f.statements(); len(after) != before {
		t.Errorf("the cluster received %d hostile statements: %q", len(after)-before, after[before:])
	}
	t.Logf("old guard accepted %d of %d hostile", oldAccepted, len(hostile))
	t.Logf("new guard accepted %d of %d hostile; %d of %d harmless pass", accepted, len(hostile), len(harmless), len(harmless))
}

// TestGuardExperts: the statements discover's experts sent to Trino during
// a full test run, and the statements of this package's golden files,
// pass.
func TestGuardExperts(t *testing.T) {
	var stmts []string
	f, err := os.Open(filepath.Join("testdata", "guard", "experts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		var q string
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, q)
	}
	goldens, _ := filepath.Glob(filepath.Join("testdata", "*.golden"))
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if !isTxControl(line) {
				stmts = append(stmts, line)
			}
		}
	}
	if len(stmts) < 30 {
		t.Fatalf("only %d statements", len(stmts))
	}
	// Not experts' statements: test cases of the old lexical guard
	// (warehouse/guard_test.go) that the recording also caught.
	notExpert := map[string]string{
		"SELECT `a``b`": "Trino refuses backquoted names",
	}
	// The table comments Tables reads from the system catalog, whose
	// tables the guard keeps from SQL it did not write: an introspection
	// statement the source runs itself, never through Guard.
	const introspection = "SELECT schema_name, table_name, comment FROM system.metadata.table_comments "
	s := &Source{catalog: "hive"}
	for _, q := range stmts {
		err := s.Guard(context.Background(), q)
		_, excused := notExpert[q]
		if strings.HasPrefix(q, introspection) {
			notExpert[q], excused = "the system catalog is not for users' SQL", true
		}
		switch {
		case err != nil && !excused:
			t.Errorf("refused: %v\n%s", err, q)
		case err == nil && excused:
			t.Errorf("accepted, but %s: %s", notExpert[q], q)
		}
	}
	t.Logf("%d expert and golden statements pass", len(stmts))
}

// TestGuardMessages pins what a refusal says.
func TestGuardMessages(t *testing.T) {
	s := &Source{catalog: "hive"}
	for q, want := range map[string]string{
		`SELECT * FROM TABLE(exclude_columns(input => TABLE(t), columns => DESCRIPTOR(a)))`: "TABLE(…) table functions are not allowed",
		`SELECT * FROM TABLE(system.query(query => 'x'))`:                                   "function query is not allowed (runs arbitrary SQL)",
		`SELECT "Query2"('x')`:                                          "function Query2 is not on the list of side-effect-free functions",
		`SELECT fail('x')`:                                              "function fail is not on the list",
		`SELECT hive.default.f(1)`:                                      "function hive.default.f (a catalog's routine) is not on the list",
		`SELECT * FROM system.runtime.queries`:                          "system.runtime.queries is not allowed",
		`SELECT * FROM "SYSTEM".runtime.nodes`:                          `"SYSTEM".runtime.nodes is not allowed`,
		`WITH FUNCTION f() RETURNS bigint RETURN 1 SELECT 1`:            "WITH FUNCTION (an inline routine) is not allowed",
		`SELECT CAST(1 AS decimal(abs(1), 2))`:                          "abs(…) is not a type",
		`SELECT * FROM (VALUES 1) AS t (a, (b))`:                        "( is not allowed in a column list",
		"SELECT `abs`(1)":                                               "backquotes are not allowed",
		`CALL system.flush_metadata_cache()`:                            "CALL is not allowed",
		`SELECT 1; SELECT 2`:                                            "only one statement is allowed",
		"SELECT " + strings.Repeat("(", 300) + strings.Repeat(")", 300): "brackets nested deeper than 200",
	} {
		err := s.Guard(context.Background(), q)
		if !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), want) {
			t.Errorf("Guard(%.60q) = %v; want a refusal saying %q", q, err, want)
		}
	}
	for _, c := range []string{"system", "SYSTEM", "jmx"} {
		err := (&Source{catalog: c}).Guard(context.Background(), "SELECT 1")
		if !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), "holds the cluster's own state") {
			t.Errorf("on catalog %s: Guard = %v", c, err)
		}
	}
}

// guardLimits are the statements TestGuardLimits and BenchmarkBarGuardLimits
// give the guard: a 10 MB statement and 100,000-deep nesting. Each must
// end in a refusal.
func guardLimits() map[string]string {
	return map[string]string{
		"10 MB":               "SELECT '" + strings.Repeat("x", 10<<20) + "'",
		"100,000 parentheses": "SELECT " + strings.Repeat("(", 100_000) + "1" + strings.Repeat(")", 100_000),
		"100,000 brackets":    "SELECT " + strings.Repeat("ARRAY[", 100_000) + "1" + strings.Repeat("]", 100_000),
		"100,000 subqueries":  strings.Repeat("SELECT * FROM (", 100_000) + "SELECT 1" + strings.Repeat(")", 100_000),
		"3 MB, then a call":   "SELECT '" + strings.Repeat("x", 3<<20) + "', fail('x')",
		"100,000 calls deep":  "SELECT " + strings.Repeat("abs(", 100_000) + "1" + strings.Repeat(")", 100_000),
	}
}

// TestGuardLimits: the statements of guardLimits end in a refusal (how
// quickly is BenchmarkBarGuardLimits's bar; the test only logs it).
func TestGuardLimits(t *testing.T) {
	s := &Source{catalog: "hive"}
	for name, q := range guardLimits() {
		start := time.Now()
		err := s.Guard(context.Background(), q)
		if !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("%s: Guard = %.200v; want a refusal", name, err)
		}
		t.Logf("%s: refused in %s", name, time.Since(start).Round(time.Millisecond))
	}
}

// FuzzTrinoGuard: whatever the guard accepts calls only listed functions,
// names no TABLE(…) and nothing of the system catalog. The check tokenizes
// on its own (Grammar.Tokenize) and collects call names with rules of
// its own, written apart from the guard's. Seeded with both corpora and
// the experts' statements.
func FuzzTrinoGuard(f *testing.F) {
	for _, name := range []string{"harmless.sql", "hostile.sql"} {
		for _, e := range guardcorpus.Read(f, name) {
			f.Add(e.SQL)
		}
	}
	for _, q := range guardcorpus.ReadStatements(f, "experts.jsonl") {
		f.Add(q)
	}
	s := &Source{catalog: "hive"}
	f.Fuzz(func(t *testing.T, q string) {
		if s.Guard(context.Background(), q) != nil {
			return
		}
		toks, err := Grammar.Tokenize(q)
		if err != nil {
			t.Fatalf("accepted %q, which does not tokenize: %v", q, err)
		}
		for _, p := range independentProblems(toks) {
			t.Errorf("accepted %q, but %s", q, p)
		}
	})
}

// notCalls are the words the independent check lets stand before "(":
// Trino's reserved words that open a parenthesis, the contextual ones, and
// type names.
var notCalls = map[string]bool{
	"and": true, "or": true, "not": true, "in": true, "exists": true, "values": true, "select": true,
	"from": true, "where": true, "having": true, "on": true, "using": true, "join": true, "by": true,
	"when": true, "then": true, "else": true, "case": true, "as": true, "between": true, "like": true,
	"escape": true, "is": true, "distinct": true, "union": true, "intersect": true, "except": true,
	"for": true, "with": true, "lateral": true, "cube": true, "rollup": true, "explain": true,
	"over": true, "filter": true, "group": true, "sets": true, "bernoulli": true, "system": true,
	"all": true, "any": true, "some": true,
}

// independentProblems re-reads the tokens of an accepted statement.
func independentProblems(toks []warehouse.Token) []string {
	var out []string
	word := func(i int) string {
		if i < 0 || i >= len(toks) || toks[i].Kind != warehouse.TokenWord {
			return ""
		}
		return strings.ToLower(toks[i].Text)
	}
	punct := func(i int) string {
		if i < 0 || i >= len(toks) || toks[i].Kind != warehouse.TokenPunct {
			return ""
		}
		return toks[i].Text
	}
	ident := func(i int) bool {
		return i >= 0 && i < len(toks) && (toks[i].Kind == warehouse.TokenWord || toks[i].Kind == warehouse.TokenQuotedIdent)
	}
	closing := func(i int) int { // the ")" matching the "(" at i
		d := 0
		for j := i; j < len(toks); j++ {
			switch punct(j) {
			case "(":
				d++
			case ")":
				if d--; d == 0 {
					return j
				}
			}
		}
		return len(toks)
	}
	skipUntil := -1 // inside a type's parameters or a column list
	for i := range toks {
		if word(i) == "table" && punct(i+1) == "(" {
			out = append(out, "it calls a table function")
		}
		if ident(i) && punct(i+1) == "." && ident(i+2) {
			if q := strings.ToLower(toks[i].Ident()); q == "system" || q == "jmx" {
				out = append(out, "it names "+q+"."+toks[i+2].Ident())
			}
		}
		if i <= skipUntil || !ident(i) || punct(i+1) != "(" {
			continue
		}
		name := strings.ToLower(toks[i].Ident())
		if toks[i].Kind == warehouse.TokenWord && notCalls[name] {
			continue
		}
		prevWord, prevPunct := word(i-1), punct(i-1)
		end := closing(i + 1)
		typeOrColumns := prevWord == "as" || prevWord == "returning" || prevPunct == ")" ||
			i > 0 && toks[i-1].Kind == warehouse.TokenQuotedIdent ||
			word(end+1) == "as" && punct(end+2) == "("
		if typeOrColumns {
			for j := i + 2; j < end; j++ {
				if k := toks[j].Kind; k == warehouse.TokenString || k == warehouse.TokenParam ||
					k == warehouse.TokenPunct && toks[j].Text != "," && toks[j].Text != "(" && toks[j].Text != ")" {
					out = append(out, "a type or column list holds "+toks[j].Text)
				}
			}
			skipUntil = end
			continue
		}
		if prevPunct == "." {
			out = append(out, "it calls the qualified "+name)
		} else if !allowedFunctions[name] {
			out = append(out, "it calls "+name)
		}
	}
	return out
}

// notOnCluster are the harmless statements the cluster's catalog hive
// cannot run (whole, or by their start when the key ends in …), with the
// error it gives: the guard admits
// them rightly (they read, and nothing else), but Trino or the fixture has
// not what they need.
var notOnCluster = map[string]string{
	"SELECT * FROM sales.orders NATURAL JOIN…":             "NOT_SUPPORTED", // Trino has no NATURAL JOIN
	"SELECT count(*) FILTER (WHERE status = 'paid') OVER…": "NOT_SUPPORTED", // nor FILTER on a window function
	"SHOW TABLES":                         "MISSING_SCHEMA_NAME", // the DSN names no schema
	`SELECT CAST("c" AS VARCHAR)…`:        "COLUMN_NOT_FOUND",    // an expert's statement, on a column c
	`SELECT rn, v, cnt FROM (SELECT "c"…`: "COLUMN_NOT_FOUND",
	`SELECT "orders$partitions".*…`:       "TABLE_NOT_FOUND", // Hive's metadata table; the memory connector has none
}

// TestGuardCorpusCluster runs the harmless corpus on the cluster's catalog
// hive: every statement the guard admits runs, but those of notOnCluster,
// which fail as it says.
func TestGuardCorpusCluster(t *testing.T) {
	if heavy.Race {
		t.Skip("the corpus runs on the cluster in the non-race pass of .ci/run: the race pass would only wait on it again")
	}
	s := target{addr: clusterHive(t)}.open(t, "/hive")
	ctx := context.Background()
	for _, e := range guardcorpus.Read(t, "harmless.sql") {
		_, err := s.Query(ctx, e.SQL, warehouse.QueryOptions{MaxRows: 10})
		want := ""
		for start, name := range notOnCluster {
			if e.SQL == start || strings.HasSuffix(start, "…") && strings.HasPrefix(e.SQL, strings.TrimSuffix(start, "…")) {
				want = name
			}
		}
		var te *trinodrv.ErrTrino
		switch {
		case want == "" && err != nil:
			t.Errorf("harmless %s: %v", e, err)
		case want != "" && (!errors.As(err, &te) || te.ErrorName != want):
			t.Errorf("harmless %s: err = %v, want %s", e, err, want)
		}
	}
}

// TestGuardShowCreate: the statement Tables sends for each table's CREATE
// TABLE passes the guard for any name, including quotes, a schema and
// words the grammar reserves, while SHOW CREATE over the cluster's own
// catalogs, a second statement, or anything that is not a name is
// refused.
func TestGuardShowCreate(t *testing.T) {
	s := &Source{catalog: "hive", schema: "sales"}
	for _, name := range []warehouse.TableName{
		{Name: "orders"}, {Name: `say "hi"`}, {Name: "select"}, {Name: "order items"},
		{Schema: "hr", Name: "employees"}, {Schema: "Odd Schema", Name: "t;DROP TABLE x"},
	} {
		q := s.showCreateSQL(name)
		if err := s.Guard(context.Background(), q); err != nil {
			t.Errorf("%s refused: %v", q, err)
		}
	}
	for _, q := range []string{
		`SHOW CREATE TABLE system.runtime.queries`,
		`SHOW CREATE TABLE "system".runtime.nodes`,
		`SHOW CREATE TABLE jmx.current."java.lang:type=runtime"`,
		`SHOW CREATE TABLE hive.system.sync_partition_metadata`,
		`SHOW CREATE TABLE "orders"; DROP TABLE "orders"`,
		`SHOW CREATE TABLE "orders" AS SELECT 1`,
		`SHOW CREATE TABLE TABLE(system.query(query => 'DROP TABLE x'))`,
		`SHOW CREATE`,
	} {
		if err := s.Guard(context.Background(), q); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("%s: Guard = %v; want a refusal", q, err)
		}
	}
	if err := (&Source{catalog: "system"}).Guard(context.Background(), s.showCreateSQL(warehouse.TableName{Name: "queries"})); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("SHOW CREATE TABLE in the system catalog: Guard = %v; want a refusal", err)
	}
}
