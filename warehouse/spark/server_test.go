package spark

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/guardcorpus"
	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/internal/hs2"
	"github.com/discover-db/discover/internal/literaltest"
	"github.com/discover-db/discover/warehouse"
)

// The tests below run on the Spark Thrift Server .ci/start-spark starts
// (DISCOVER_TEST_SPARK): in CI they fail without it, elsewhere they skip.

func serverDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("DISCOVER_TEST_SPARK")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DISCOVER_TEST_SPARK not set: .ci/run starts the server")
		}
		t.Skip(`DISCOVER_TEST_SPARK not set: run eval "$(.ci/start-servers)" first`)
	}
	return dsn
}

// fixtureDB is the database the corpora name (guardfix), made anew once
// per test binary from testdata/guard/fixture.sql.
const fixtureDB = "guardfix"

var fixture struct {
	once sync.Once
	dsn  string
	err  error
}

// fixtureDSN makes the fixture's database and returns a DSN for it.
func fixtureDSN(t *testing.T) string {
	t.Helper()
	server := serverDSN(t)
	fixture.once.Do(func() {
		c, err := parseDSN(server)
		if err != nil {
			fixture.err = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cn, err := hs2.Dial(ctx, &c.Config, pins)
		if err != nil {
			fixture.err = err
			return
		}
		defer cn.Close()
		stmts := []string{"DROP DATABASE IF EXISTS " + fixtureDB + " CASCADE", "CREATE DATABASE " + fixtureDB, "USE " + fixtureDB}
		entries, err := guardcorpus.Load("testdata/guard/fixture.sql")
		if err != nil {
			fixture.err = err
			return
		}
		for _, e := range entries {
			stmts = append(stmts, e.SQL)
		}
		for _, q := range stmts {
			if _, err := cn.Exec(ctx, q, 0); err != nil {
				fixture.err = fmt.Errorf("%s: %w", q, err)
				return
			}
		}
		fixture.dsn = strings.TrimSuffix(server[:strings.LastIndex(server, "/")], "/") + "/" + fixtureDB
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
	return fixture.dsn
}

func openFixture(t *testing.T) *Source {
	t.Helper()
	s, err := Open(context.Background(), fixtureDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestServerStructure: the tables, views and columns the protocol's
// catalog calls list, a view's query and what it reads, a table comment.
func TestServerStructure(t *testing.T) {
	s := openFixture(t)
	ctx := context.Background()
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	byName := map[string]warehouse.Table{}
	for _, tb := range tables {
		got = append(got, tb.Name.String()+":"+tb.Kind)
		byName[tb.Name.Name] = tb
	}
	if want := "customers:table events:table order_totals:view orders:table"; strings.Join(got, " ") != want {
		t.Fatalf("tables %q, want %q", strings.Join(got, " "), want)
	}
	var cols []string
	for _, c := range byName["orders"].Columns {
		cols = append(cols, fmt.Sprintf("%d %s %s %v", c.Position, c.Name, c.Type, c.Nullable))
	}
	// Spark drops the NOT NULL of a data source table (USING parquet)
	// when it makes the table, so every column here reads as nullable:
	// not checked here, TestServerNullability is about it.
	if want := "1 id BIGINT,2 customer_id BIGINT,3 amount DECIMAL(10,2),4 status STRING,5 ordered_at TIMESTAMP"; !strings.HasPrefix(strings.Join(cols, ","), "1 id BIGINT") ||
		strings.Join(stripNullable(cols), ",") != want {
		t.Errorf("orders columns %q, want %q", cols, want)
	}
	if c := byName["customers"].Comment; c != "people who order" {
		t.Errorf("customers comment %q", c)
	}
	ev := byName["events"].Columns
	if len(ev) != 3 || ev[2].Name != "day" {
		t.Errorf("events columns %+v: want the partition column day last", ev)
	}
	v := byName["order_totals"]
	if !strings.Contains(v.Definition, "sum(amount)") || len(v.Reads) != 1 || v.Reads[0].Name != "orders" {
		t.Errorf("view definition %q, reads %v", v.Definition, v.Reads)
	}
	// Each table's CREATE TABLE as SHOW CREATE TABLE writes it (without
	// the NOT NULL Spark dropped, with the partitioning and the comment);
	// the view keeps its query instead.
	for name, want := range map[string]string{
		"orders": "CREATE TABLE spark_catalog.guardfix.orders (\n  id BIGINT,\n  customer_id BIGINT,\n  amount DECIMAL(10,2),\n" +
			"  status STRING COLLATE UTF8_BINARY,\n  ordered_at TIMESTAMP)\nUSING parquet",
		"customers": "CREATE TABLE spark_catalog.guardfix.customers (\n  id BIGINT,\n  name STRING COLLATE UTF8_BINARY,\n" +
			"  email STRING COLLATE UTF8_BINARY)\nUSING parquet\nCOMMENT 'people who order'",
		"events": "CREATE TABLE spark_catalog.guardfix.events (\n  id BIGINT,\n  kind STRING COLLATE UTF8_BINARY,\n" +
			"  day STRING COLLATE UTF8_BINARY)\nUSING parquet\nPARTITIONED BY (day)",
		"order_totals": "",
	} {
		if got := byName[name].CreateStatement; got != want {
			t.Errorf("%s CreateStatement:\n%s\nwant\n%s", name, got, want)
		}
	}
	if n, err := s.RowCount(ctx, warehouse.TableName{Name: "orders"}); err != nil || n != 4 {
		t.Errorf("RowCount(orders) = %d, %v", n, err)
	}
	if s.Database() != fixtureDB || s.Dialect().Name() != "spark" {
		t.Errorf("Database %q, dialect %q", s.Database(), s.Dialect().Name())
	}
}

func stripNullable(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c[:strings.LastIndex(c, " ")]
	}
	return out
}

// TestServerPartitioned: a Hive-style partitioned table (a folder per
// day=…) is listed, counted and read like any other, its partitions
// pruned by a filter on the partition column.
func TestServerPartitioned(t *testing.T) {
	s := openFixture(t)
	ctx := context.Background()
	if n, err := s.RowCount(ctx, warehouse.TableName{Name: "events"}); err != nil || n != 5 {
		t.Fatalf("RowCount(events) = %d, %v", n, err)
	}
	res, err := s.Query(ctx, "SHOW PARTITIONS events", warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows); got != "[[day=2024-01-01] [day=2024-01-02] [day=2024-01-03]]" {
		t.Errorf("partitions %s", got)
	}
	res, err = s.Query(ctx, "SELECT day, count(*) AS n FROM events GROUP BY day ORDER BY day", warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows); got != "[[2024-01-01 2] [2024-01-02 1] [2024-01-03 2]]" {
		t.Errorf("rows by day %s", got)
	}
	res, err = s.Query(ctx, "EXPLAIN SELECT * FROM events WHERE day = '2024-01-03'", warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if plan := warehouse.PlanText(res); !strings.Contains(plan, "PartitionFilters: [isnotnull(day") {
		t.Errorf("the plan prunes no partition: %s", plan)
	}
}

// TestServerHarmlessCorpus: every statement of the harmless corpus passes
// the guard and runs on the server.
func TestServerHarmlessCorpus(t *testing.T) {
	if heavy.Race {
		t.Skip("the corpus runs on the server in the non-race pass of .ci/run")
	}
	s := openFixture(t)
	ctx := context.Background()
	for _, e := range guardcorpus.Read(t, "harmless.sql") {
		if _, err := s.Query(ctx, e.SQL, warehouse.QueryOptions{MaxRows: 10}); err != nil {
			t.Errorf("harmless %s: %v", e, err)
		}
	}
}

// TestServerWritesRefused: Spark has no read-only transaction, so the
// guard is the only line. Every hostile statement is refused through
// Query and through the door of untrusted SQL, and the database is as it
// was; the same server runs a write that nothing refuses (Run, below the
// guard), so that the refusals are the guard's and nothing else's.
func TestServerWritesRefused(t *testing.T) {
	s := openFixture(t)
	ctx := context.Background()
	before := inventory(t, s)
	door := &warehouse.Door{Source: s}
	for _, e := range guardcorpus.Read(t, "hostile.sql") {
		if _, err := s.Query(ctx, e.SQL, warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("hostile %s: Query = %v; want a refusal", e, err)
		}
		if _, err := door.Query(ctx, e.SQL, warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("hostile %s: the door's Query = %v; want a refusal", e, err)
		}
	}
	if after := inventory(t, s); after != before {
		t.Errorf("the database changed:\n before %s\n after  %s", before, after)
	}

	// Below the guard, nothing stops a write.
	if _, err := s.Run(ctx, "CREATE TABLE written_past_the_guard AS SELECT 1 AS x", s.Limits()); err != nil {
		t.Fatalf("Spark refused a write below the guard (%v): then it has a read-only line after all", err)
	}
	if _, err := s.Run(ctx, "DROP TABLE written_past_the_guard", s.Limits()); err != nil {
		t.Fatal(err)
	}
	if after := inventory(t, s); after != before {
		t.Errorf("the database changed:\n before %s\n after  %s", before, after)
	}
}

// inventory is what the server holds, to compare before and after.
func inventory(t *testing.T, s *Source) string {
	t.Helper()
	ctx := context.Background()
	var parts []string
	for _, q := range []string{"SHOW DATABASES", "SHOW TABLES IN " + fixtureDB, "SHOW PARTITIONS events",
		"SELECT count(*), sum(amount) FROM orders", "SELECT count(*) FROM customers", "SELECT count(*) FROM events",
		"SHOW FUNCTIONS LIKE 'evil*'", "SHOW TBLPROPERTIES orders"} {
		res, err := s.Query(ctx, q, warehouse.QueryOptions{MaxRows: 1000})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		parts = append(parts, fmt.Sprint(res.Rows))
	}
	return strings.Join(parts, " | ")
}

// TestServerTimeout: a statement past its timeout ends as
// context.DeadlineExceeded at once, is cancelled on the server, and the
// session it ran on serves the next statement.
func TestServerTimeout(t *testing.T) {
	s := openFixture(t)
	ctx := context.Background()
	slow := slowStatement
	start := time.Now()
	_, err := s.Query(ctx, slow, warehouse.QueryOptions{Timeout: 2 * time.Second})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow statement: %v; want a timeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the timeout of 2 s took %s", d)
	}
	// The cancelled job no longer holds the cores: a statement that reads
	// a table answers promptly.
	start = time.Now()
	res, err := s.Query(ctx, "SELECT count(*) FROM orders", warehouse.QueryOptions{Timeout: 30 * time.Second})
	if err != nil || fmt.Sprint(res.Rows) != "[[4]]" {
		t.Fatalf("after the timeout: %v, %v", res, err)
	}
	t.Logf("the next statement took %s", time.Since(start))

	// The caller's cancellation ends a statement too.
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(time.Second, cancel)
	if _, err := s.Query(cctx, slow, warehouse.QueryOptions{Timeout: time.Minute}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled statement: %v; want context.Canceled", err)
	}
}

// TestServerBadInput: an unknown database, a port nobody listens on and a
// server that does not speak HiveServer2 are one line of bad input.
func TestServerBadInput(t *testing.T) {
	server := serverDSN(t)
	base := server[:strings.LastIndex(server, "/")]
	cases := []struct{ dsn, want string }{
		{base + "/no_such_db", `database "no_such_db"`},
		{"spark://127.0.0.1:1/default", "spark: open 127.0.0.1:1: cannot connect"},
		// The test server wants SASL: raw Thrift gets the connection closed.
		{base + "/default?auth=NOSASL", "not a HiveServer2 server, or it closed the connection"},
	}
	for _, c := range cases {
		_, err := Open(context.Background(), c.dsn)
		if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line of bad input with %q", c.dsn, err, c.want)
		}
	}
}

// hostileValues are values a column may hold that a literal must carry
// whole: Spark reads a backslash in a string as an escape; control
// characters, and a NUL (which the guard refuses raw) before digits that
// an octal escape would take.
var hostileValues = []string{
	`C:\temp\`, `ab\'`, `\`, `\\`, `'`, `''`, `it's`, `\'; SELECT 1 --`,
	"line one\nline two", "cr\rlf\r\n", "tab\there", `\n\t\u0041\%\_\0`, `\\'\\''`,
	"Zürich — 東京 🙂", `"double" and ` + "`back`", `/* not a comment */ -- nor this`,
	"", " ", `%_*?`,
	"bell\a", "\x01", "esc\x1b[0m", "del\x7f", "nul\x00byte", "ctrl-z\x1a", "\x00", "\x00" + "123",
}

// TestServerLiteralRoundTrip: the dialect's literal of each hostile value,
// sent through the guard, comes back from Spark as exactly the value, as
// one column (a literal that ended early would leave the rest of it as
// SQL), and inside a larger statement too.
func TestServerLiteralRoundTrip(t *testing.T) {
	s := openFixture(t)
	d := s.Dialect()
	literaltest.Each(t, s, hostileValues, false)
	// All of them at once, compared on the server, and FoldedIn over them.
	var lits, folded []string
	for _, v := range hostileValues {
		lits = append(lits, d.Literal(v))
		folded = append(folded, strings.ToLower(strings.Trim(v, " "))) // Spark's TRIM drops spaces only
	}
	q := "SELECT count(*) AS n, count(CASE WHEN " + d.FoldedIn("v", folded) + " THEN 1 END) AS folded FROM (SELECT explode(array(" +
		strings.Join(lits, ", ") + ")) AS v) x WHERE v IN (" + strings.Join(lits, ", ") + ")"
	literaltest.AllAtOnce(t, s, q, len(hostileValues), false)
}

// TestServerNullability: a column declared NOT NULL reads as not nullable
// where Spark's catalog keeps the declaration (a Hive-format table, STORED
// AS PARQUET: GetColumns says NULLABLE 0), and as nullable where Spark
// drops it when the table is made (a data source table, USING parquet:
// Spark's own DESCRIBE … AS JSON says nullable, and it stores a NULL in
// the column without complaint), so that nullable is what Spark holds,
// not what the CREATE TABLE said.
func TestServerNullability(t *testing.T) {
	server := serverDSN(t)
	c, err := parseDSN(server)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db := fmt.Sprintf("nullfix_%d", time.Now().UnixNano())
	cn, err := hs2.Dial(ctx, &c.Config, pins)
	if err != nil {
		t.Fatal(err)
	}
	defer cn.Close()
	t.Cleanup(func() { cn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+db+" CASCADE", 0) })
	for _, q := range []string{
		"CREATE DATABASE " + db,
		"CREATE TABLE " + db + ".hive_nn (id BIGINT NOT NULL, note STRING) STORED AS PARQUET",
		"CREATE TABLE " + db + ".source_nn (id BIGINT NOT NULL, note STRING) USING parquet",
	} {
		if _, err := cn.Exec(ctx, q, 0); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s, err := Open(ctx, server[:strings.LastIndex(server, "/")]+"/"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tb := range tables {
		for _, col := range tb.Columns {
			got = append(got, fmt.Sprintf("%s.%s nullable=%v", tb.Name.Name, col.Name, col.Nullable))
		}
	}
	want := "hive_nn.id nullable=false hive_nn.note nullable=true source_nn.id nullable=true source_nn.note nullable=true"
	if strings.Join(got, " ") != want {
		t.Errorf("columns %q, want %q", strings.Join(got, " "), want)
	}
	// What Spark itself holds of the data source table: no NOT NULL.
	res, err := cn.Exec(ctx, "DESCRIBE TABLE EXTENDED "+db+".source_nn AS JSON", 10)
	if err != nil {
		t.Fatal(err)
	}
	if js := fmt.Sprint(res.Rows); !strings.Contains(js, `{"name":"id","type":{"name":"bigint"},"nullable":true}`) {
		t.Errorf("Spark's own description of source_nn: %s; want id nullable", js)
	}
	if _, err := cn.Exec(ctx, "INSERT INTO "+db+".source_nn VALUES (NULL, 'x')", 0); err != nil {
		t.Errorf("Spark refused a NULL in source_nn.id (%v): then it keeps the NOT NULL somewhere", err)
	}
}
