package trino

import (
	"context"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	trinodrv "github.com/trinodb/trino-go-client/trino"

	"github.com/discover-db/discover/warehouse"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the statements the engine sends")

func openFake(t testing.TB, f *fakeCoordinator, path string) *Source {
	t.Helper()
	s, err := Open(context.Background(), "trino://alice@"+f.addr()+path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// checkGolden compares the statements the fake received with
// testdata/name.golden, one per line; -update rewrites the file.
func checkGolden(t *testing.T, name string, statements []string) {
	t.Helper()
	got := strings.Join(statements, "\n") + "\n"
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./warehouse/trino -update)", err)
	}
	if got != string(want) {
		t.Errorf("statements sent differ from %s (run go test ./warehouse/trino -update to accept):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

func cols(specs ...string) []warehouse.Column {
	out := []warehouse.Column{}
	for i, s := range specs {
		nullable := !strings.HasSuffix(s, " not null")
		s = strings.TrimSuffix(s, " not null")
		name, typ, _ := strings.Cut(s, " ")
		out = append(out, warehouse.Column{Name: name, Type: typ, Nullable: nullable, Position: i + 1})
	}
	return out
}

func table(schema, name, kind string, c []warehouse.Column) warehouse.Table {
	return warehouse.Table{
		Name: warehouse.TableName{Schema: schema, Name: name}, Kind: kind, Columns: c,
		PrimaryKey: []string{}, ForeignKeys: []warehouse.ForeignKey{}, Uniques: [][]string{}, Indexes: []warehouse.Index{},
	}
}

func salesTables(schema string) []warehouse.Table {
	customers := table(schema, "customers", "table", cols("customer_id bigint not null", "name varchar", "email varchar(255)", "created_at timestamp(3)"))
	customers.Comment = "Everyone who 'bought',\nonce"
	customers.Columns[2].Comment = `as "typed"`
	// SHOW CREATE TABLE names the table in full whatever the DSN names,
	// with the comments as string literals (a quote doubled, the line
	// break kept).
	customers.CreateStatement = "CREATE TABLE hive.sales.customers (\n   customer_id bigint NOT NULL,\n   name varchar,\n" +
		"   email varchar(255) COMMENT 'as \"typed\"',\n   created_at timestamp(3)\n)\nCOMMENT 'Everyone who ''bought'',\nonce'"
	orders := table(schema, "orders", "table", cols("order_id bigint not null", "customer_id bigint", "amount decimal(10,2)",
		"status varchar", "ordered_on date", "tags array(varchar)"))
	orders.CreateStatement = "CREATE TABLE hive.sales.orders (\n   order_id bigint NOT NULL,\n   customer_id bigint,\n" +
		"   amount decimal(10, 2),\n   status varchar,\n   ordered_on date,\n   tags array(varchar)\n)"
	totals := table(schema, "order_totals", "view", cols("customer_id bigint", "total decimal(38,2)"))
	totals.Definition = orderTotalsStored
	// hr.employees is read in the catalog's terms: named with its schema
	// even when the DSN names sales.
	totals.Reads = []warehouse.TableName{{Schema: "hr", Name: "employees"}, {Schema: schema, Name: "customers"}, {Schema: schema, Name: "orders"}}
	if schema == "" {
		totals.Reads = []warehouse.TableName{{Name: "customers"}, {Name: "orders"}, {Schema: "hr", Name: "employees"}}
	}
	return []warehouse.Table{
		customers,
		totals,
		orders,
	}
}

func TestTablesCatalog(t *testing.T) {
	onBoth(t, nil, func(t *testing.T, tg target) {
		s := tg.open(t, "/hive")
		if s.Dialect().Name() != "trino" || s.Database() != "hive" {
			t.Errorf("Dialect, Database = %q, %q", s.Dialect().Name(), s.Database())
		}
		got, err := s.Tables(context.Background())
		if err != nil {
			t.Fatalf("Tables: %v", err)
		}
		employees := table("hr", "employees", "table", cols("emp_id integer not null", "full_name varchar", "salary double", "active boolean", "manager_id integer"))
		employees.CreateStatement = "CREATE TABLE hive.hr.employees (\n   emp_id integer NOT NULL,\n   full_name varchar,\n" +
			"   salary double,\n   active boolean,\n   manager_id integer\n)"
		want := append([]warehouse.Table{employees}, salesTables("sales")...)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Tables:\n got %+v\nwant %+v", got, want)
		}
		var names []string
		for _, tb := range got {
			names = append(names, tb.Name.String())
		}
		if strings.Join(names, " ") != "hr.employees sales.customers sales.order_totals sales.orders" {
			t.Errorf("report names = %v", names)
		}

		skipped, err := s.Skipped(context.Background())
		if err != nil {
			t.Fatalf("Skipped: %v", err)
		}
		wantSkipped := []warehouse.Skipped{
			{Table: warehouse.TableName{Schema: "hr", Name: "stale_view"},
				Reason: "cannot be read: INVALID_VIEW: line 1:15: Failed analyzing stored view 'hive.hr.stale_view': line 3:3: Table 'hive.hr.old_staff' does not exist"},
			{Table: warehouse.TableName{Schema: "sales", Name: "secret_margins"},
				Reason: "no SELECT privilege: Access Denied: Cannot select from table hive.sales.secret_margins"},
		}
		if !reflect.DeepEqual(skipped, wantSkipped) {
			t.Errorf("Skipped:\n got %+v\nwant %+v", skipped, wantSkipped)
		}

		f := tg.fake
		if f == nil {
			return
		}
		// Skipped reuses what Tables found: no statement after Tables'.
		checkGolden(t, "tables_catalog", f.statements())
		f.assertReadOnly(t)

		req, _ := f.statement("SELECT 1")
		for h, v := range map[string]string{
			"X-Trino-User": "alice", "X-Trino-Catalog": "hive", "X-Trino-Schema": "",
			"X-Trino-Source": "discover", "X-Trino-Time-Zone": "UTC",
		} {
			if got := req.Header.Get(h); got != v {
				t.Errorf("header %s = %q, want %q", h, got, v)
			}
		}
	})
}

func TestTablesSchema(t *testing.T) {
	onBoth(t, nil, func(t *testing.T, tg target) {
		s := tg.open(t, "/hive/sales")
		if s.Database() != "hive.sales" {
			t.Errorf("Database = %q", s.Database())
		}
		got, err := s.Tables(context.Background())
		if err != nil {
			t.Fatalf("Tables: %v", err)
		}
		if want := salesTables(""); !reflect.DeepEqual(got, want) {
			t.Errorf("Tables:\n got %+v\nwant %+v", got, want)
		}
		if got[0].Name.String() != "customers" || s.QuoteTable(got[0].Name) != `"customers"` {
			t.Errorf("name %q quoted %s", got[0].Name, s.QuoteTable(got[0].Name))
		}
		skipped, err := s.Skipped(context.Background())
		if err != nil {
			t.Fatalf("Skipped: %v", err)
		}
		if len(skipped) != 1 || skipped[0].Table != (warehouse.TableName{Name: "secret_margins"}) ||
			!strings.HasPrefix(skipped[0].Reason, "no SELECT privilege") {
			t.Errorf("Skipped = %+v", skipped)
		}
		f := tg.fake
		if f == nil {
			return
		}
		checkGolden(t, "tables_schema", f.statements())
		f.assertReadOnly(t)
		if req, _ := f.statement("SELECT 1"); req.Header.Get("X-Trino-Schema") != "sales" {
			t.Errorf("X-Trino-Schema = %q", req.Header.Get("X-Trino-Schema"))
		}
	})
}

// Skipped on its own lists the tables without reading any columns.
func TestSkippedBeforeTables(t *testing.T) {
	onBoth(t, nil, func(t *testing.T, tg target) {
		s := tg.open(t, "/hive/sales")
		skipped, err := s.Skipped(context.Background())
		if err != nil {
			t.Fatalf("Skipped: %v", err)
		}
		if len(skipped) != 1 || skipped[0].Table.Name != "secret_margins" {
			t.Errorf("Skipped = %+v", skipped)
		}
		if tg.fake == nil {
			return
		}
		for _, q := range tg.fake.statements() {
			if strings.Contains(q, "information_schema.columns") {
				t.Errorf("Skipped read columns: %s", q)
			}
		}
	})
}

func TestClientDSN(t *testing.T) {
	for dsn, want := range map[string]string{
		"trino://alice@example.com:8080/hive":                        "http://alice@example.com:8080?catalog=hive&source=discover&timezone=UTC",
		"trino://alice@example.com/hive/sales":                       "http://alice@example.com:8080?catalog=hive&schema=sales&source=discover&timezone=UTC",
		"trinos://alice:p%40ss@example.com/hive":                     "https://alice:p%40ss@example.com:443?catalog=hive&source=discover&timezone=UTC",
		"trino://alice@example.com:8443/hive?secure=true&source=etl": "https://alice@example.com:8443?catalog=hive&source=etl&timezone=UTC",
		"trinos://alice@[::1]:8443/hive?secure=false":                "https://alice@[::1]:8443?catalog=hive&source=discover&timezone=UTC",
		"trino://alice@example.com/hive?clientTags=a,b":              "http://alice@example.com:8080?catalog=hive&clientTags=a%2Cb&source=discover&timezone=UTC",
	} {
		c, err := parseDSN(dsn)
		if err != nil {
			t.Errorf("parseDSN(%q): %v", dsn, err)
			continue
		}
		if got := c.clientDSN(); got != want {
			t.Errorf("clientDSN(%q) =\n %s\nwant %s", dsn, got, want)
		}
	}
}

func TestOpenUnauthorized(t *testing.T) {
	f := newFakeCoordinator(t)
	f.auth = func(r *http.Request) bool { return false }
	f.start()
	_, err := Open(context.Background(), "trino://alice@"+f.addr()+"/hive")
	if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), "authentication failed (401 Unauthorized)") {
		t.Fatalf("err = %v, want bad input naming the 401", err)
	}
}

// trustFake writes the TLS fake's certificate to a file for SSLCertPath.
func trustFake(t *testing.T, f *fakeCoordinator) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: f.srv.Certificate().Raw})
	if err := os.WriteFile(path, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenPasswordOverTLS(t *testing.T) {
	f := newFakeCoordinator(t)
	f.auth = func(r *http.Request) bool {
		user, pass, ok := r.BasicAuth()
		return ok && user == "alice" && pass == "s3cr:et@x"
	}
	f.startTLS()
	cert := trustFake(t, f)

	s, err := Open(context.Background(), "trinos://alice:s3cr%3Aet%40x@"+f.addr()+"/hive/sales?SSLCertPath="+cert)
	if err != nil {
		t.Fatalf("Open with the right password: %v", err)
	}
	s.Close()

	_, err = Open(context.Background(), "trinos://alice:wrong-pw@"+f.addr()+"/hive?SSLCertPath="+cert)
	if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), "authentication failed") {
		t.Fatalf("err = %v, want bad input", err)
	}
	if strings.Contains(err.Error(), "wrong-pw") {
		t.Errorf("message holds the password: %v", err)
	}

	// Without the certificate the handshake fails, and says so.
	_, err = Open(context.Background(), "trinos://alice:s3cr%3Aet%40x@"+f.addr()+"/hive")
	if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), "TLS") || strings.Contains(err.Error(), "s3cr") {
		t.Fatalf("err = %v, want bad input about TLS", err)
	}
}

func TestOpenUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	start := time.Now()
	_, err = Open(context.Background(), "trino://alice@"+addr+"/hive")
	if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), "cannot connect") {
		t.Fatalf("err = %v, want bad input", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s to give up on a closed port", d)
	}
}

func TestOpenUnknownCatalogOrSchema(t *testing.T) {
	onBoth(t, nil, func(t *testing.T, tg target) {
		_, err := Open(context.Background(), "trino://alice@"+tg.addr+"/nope")
		if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), "Catalog 'nope' not found") {
			t.Errorf("unknown catalog: err = %v", err)
		}
		_, err = Open(context.Background(), "trino://alice@"+tg.addr+"/hive/nope")
		if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), `schema "nope" not found`) {
			t.Errorf("unknown schema: err = %v", err)
		}
	})
}

// allTypesSQL selects one column of each type Trino sends, first with
// values, then all NULL.
const allTypesSQL = `SELECT * FROM (VALUES
	(BIGINT '9007199254740993', 42, SMALLINT '7', TINYINT '-3', DOUBLE '3.5', REAL '1.25', true,
	 CAST('héllo <b>&' AS varchar), CAST('ab' AS char(3)), DECIMAL '12345678.90', DATE '2024-02-29',
	 TIMESTAMP '2024-02-29 13:45:00.120', TIMESTAMP '2024-02-29 13:45:00.123456 UTC',
	 TIMESTAMP '2024-02-29 13:45:00.000 +01:00', TIMESTAMP '2024-02-29 13:45:00 Europe/Paris', TIME '13:45:00.500',
	 CAST(ARRAY['a', 'b'] AS array(varchar)), CAST(MAP(ARRAY['y', 'x'], ARRAY[2, 1]) AS map(varchar, bigint)),
	 CAST(ROW(1, 'one') AS row(id bigint, label varchar)), json_parse('{"k":[1,2]}'), X'010203',
	 CAST('12151fd2-7586-11e9-8f9e-2a86e4085a59' AS uuid),
	 ARRAY[CAST(ROW(TIMESTAMP '2024-01-02 03:04:05.000', nan()) AS row(at timestamp(3), score double))]),
	(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	 NULL, NULL, NULL, NULL, NULL))
	AS t(big, int, small, tiny, dbl, rl, flag, txt, code, amount, day, at, at_utc, at_off, at_zone, clock,
	 tags, counts, pair, doc, bin, id, nested)`

var allTypesCols = []fakeCol{
	{name: "big", typ: "bigint"}, {name: "int", typ: "integer"}, {name: "small", typ: "smallint"},
	{name: "tiny", typ: "tinyint"}, {name: "dbl", typ: "double"}, {name: "rl", typ: "real"},
	{name: "flag", typ: "boolean"}, {name: "txt", typ: "varchar"}, {name: "code", typ: "char(3)"},
	{name: "amount", typ: "decimal(10,2)"}, {name: "day", typ: "date"}, {name: "at", typ: "timestamp(3)"},
	{name: "at_utc", typ: "timestamp(6) with time zone"}, {name: "at_off", typ: "timestamp(3) with time zone"},
	{name: "at_zone", typ: "timestamp(0) with time zone"},
	{name: "clock", typ: "time(3)"}, {name: "tags", typ: "array(varchar)"},
	{name: "counts", typ: "map(varchar,bigint)"}, {name: "pair", typ: "row(id bigint,label varchar)"},
	{name: "doc", typ: "json"}, {name: "bin", typ: "varbinary"}, {name: "id", typ: "uuid"},
	{name: "nested", typ: "array(row(at timestamp(3),score double))"},
}

func TestQueryValues(t *testing.T) {
	fixture := func(f *fakeCoordinator) {
		f.fixtures[normalize(allTypesSQL)] = fakeResult{cols: allTypesCols, rows: []string{
			`[9007199254740993, 42, 7, -3, 3.5, 1.25, true, "héllo <b>&", "ab ", "12345678.90", "2024-02-29",
			  "2024-02-29 13:45:00.120", "2024-02-29 13:45:00.123456 UTC", "2024-02-29 13:45:00.000 +01:00",
			  "2024-02-29 13:45:00 Europe/Paris", "13:45:00.500",
			  ["a", "b"], {"y": 2, "x": 1}, [1, "one"], "{\"k\":[1,2]}", "AQID",
			  "12151fd2-7586-11e9-8f9e-2a86e4085a59", [["2024-01-02 03:04:05.000", "NaN"]]]`,
			`[null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null]`,
		}}
	}
	onBoth(t, fixture, func(t *testing.T, tg target) {
		s := tg.open(t, "/hive")
		res, err := s.Query(context.Background(), allTypesSQL, warehouse.QueryOptions{})
		if err != nil {
			t.Fatalf("Query: %v", err)
		}
		var names []string
		for _, c := range allTypesCols {
			names = append(names, c.name)
		}
		if !reflect.DeepEqual(res.Columns, names) {
			t.Errorf("Columns = %v", res.Columns)
		}
		want := [][]any{{
			int64(9007199254740993), int64(42), int64(7), int64(-3), 3.5, 1.25, true, "héllo <b>&", "ab ", "12345678.90",
			"2024-02-29", "2024-02-29 13:45:00.12", "2024-02-29 13:45:00.123456 UTC", "2024-02-29 13:45:00 +01:00",
			"2024-02-29 13:45:00 Europe/Paris",
			"13:45:00.5", `["a","b"]`, `{"x":1,"y":2}`, `{"id":1,"label":"one"}`, `{"k":[1,2]}`, []byte{1, 2, 3},
			"12151fd2-7586-11e9-8f9e-2a86e4085a59", `[{"at":"2024-01-02 03:04:05","score":"NaN"}]`,
		}, make([]any, len(allTypesCols))}
		if len(res.Rows) != 2 {
			t.Fatalf("Rows = %v", res.Rows)
		}
		for r := range want {
			for i := range want[r] {
				if !reflect.DeepEqual(res.Rows[r][i], want[r][i]) {
					t.Errorf("row %d %s = %#v, want %#v", r, names[i], res.Rows[r][i], want[r][i])
				}
			}
		}
		if res.Truncated || res.Elapsed <= 0 {
			t.Errorf("Truncated %v, Elapsed %v", res.Truncated, res.Elapsed)
		}
		if f := tg.fake; f != nil {
			req, _ := f.statement(normalize(allTypesSQL))
			if got := req.Header.Get("X-Trino-Session"); got != "query_max_run_time=61s" {
				t.Errorf("X-Trino-Session = %q, want the default timeout plus a second", got)
			}
			f.assertReadOnly(t)
		}
	})
}

// numbersSQL is 25 rows, 0 to 24.
const numbersSQL = `SELECT n FROM UNNEST(sequence(0, 24)) AS t(n)`

func TestQueryMaxRows(t *testing.T) {
	fixture := func(f *fakeCoordinator) {
		f.pageSize = 4 // several pages, as a real coordinator sends them
		var rows []string
		for i := range 25 {
			rows = append(rows, fmt.Sprintf("[%d]", i))
		}
		f.fixtures[numbersSQL] = fakeResult{cols: []fakeCol{{name: "n", typ: "bigint"}}, rows: rows}
	}
	onBoth(t, fixture, func(t *testing.T, tg target) {
		s := tg.open(t, "/hive")
		for _, c := range []struct {
			max       int
			rows      int
			truncated bool
		}{{10, 10, true}, {25, 25, false}, {0, 25, false}, {24, 24, true}} {
			res, err := s.Query(context.Background(), numbersSQL, warehouse.QueryOptions{MaxRows: c.max})
			if err != nil {
				t.Fatalf("MaxRows %d: %v", c.max, err)
			}
			if len(res.Rows) != c.rows || res.Truncated != c.truncated {
				t.Errorf("MaxRows %d: %d rows, truncated %v; want %d, %v", c.max, len(res.Rows), res.Truncated, c.rows, c.truncated)
			}
			for i, r := range res.Rows {
				if r[0] != int64(i) {
					t.Fatalf("MaxRows %d: row %d = %v", c.max, i, r)
				}
			}
		}
		f := tg.fake
		if f == nil {
			return
		}
		// The first, truncated query left pages unread: the client cancelled
		// them rather than leave the cluster working.
		req, _ := f.statement(numbersSQL)
		if !f.cancelled(req.QueryID) {
			t.Errorf("no DELETE for the truncated query %s", req.QueryID)
		}
		f.assertReadOnly(t)
	})
}

// A timeout cancels the query: the fake sees the DELETE, the cluster lists
// the query as failed, cancelled by its user.
func TestQueryTimeout(t *testing.T) {
	// Its own alias makes the statement easy to find among the cluster's.
	q := fmt.Sprintf(`SELECT count(*) AS timeout_%d FROM UNNEST(sequence(1, 10000)) AS a(x)
		CROSS JOIN UNNEST(sequence(1, 10000)) AS b(y) CROSS JOIN UNNEST(sequence(1, 10000)) AS c(z)`, time.Now().UnixNano())
	fixture := func(f *fakeCoordinator) { f.fixtures[normalize(q)] = fakeResult{hang: true} }
	onBoth(t, fixture, func(t *testing.T, tg target) {
		s := tg.open(t, "/hive")
		start := time.Now()
		_, err := s.Query(context.Background(), q, warehouse.QueryOptions{Timeout: 100 * time.Millisecond})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("took %s", d)
		}
		if f := tg.fake; f != nil {
			req, ok := f.statement(normalize(q))
			if !ok {
				t.Fatal("the fake never saw the query")
			}
			if !f.cancelled(req.QueryID) {
				t.Errorf("no DELETE /v1/query/%s after the timeout", req.QueryID)
			}
			if got := req.Header.Get("X-Trino-Session"); got != "query_max_run_time=2s" {
				t.Errorf("X-Trino-Session = %q", got)
			}
		} else {
			assertCancelled(t, q)
		}
		// The source stays usable.
		if _, err := s.Query(context.Background(), "SELECT 1", warehouse.QueryOptions{}); err != nil {
			t.Errorf("after a timeout: %v", err)
		}
	})
}

func TestQueryRejectedNeverSent(t *testing.T) {
	onBoth(t, nil, func(t *testing.T, tg target) {
		s := tg.open(t, "/hive")
		var before int
		if tg.fake != nil {
			before = len(tg.fake.statements())
		}
		for _, q := range []string{
			`INSERT INTO "sales"."orders" VALUES (1, 1, 1.00, 'new', DATE '2024-01-01', ARRAY[])`,
			`CREATE TABLE "sales"."copy" AS SELECT * FROM "sales"."orders"`,
			`SELECT 1; DROP TABLE "sales"."orders"`,
			`DELETE FROM "sales"."orders"`,
			`CALL system.sync_partition_metadata('sales', 'orders', 'FULL')`,
		} {
			_, err := s.Query(context.Background(), q, warehouse.QueryOptions{})
			if !errors.Is(err, warehouse.ErrRejected) {
				t.Errorf("%s: err = %v, want ErrRejected", q, err)
			}
		}
		if tg.fake == nil {
			if n, err := s.RowCount(context.Background(), warehouse.TableName{Schema: "sales", Name: "orders"}); err != nil || n != 5 {
				t.Errorf("sales.orders after the refused writes: %d rows, %v; want 5", n, err)
			}
			return
		}
		if after := tg.fake.statements(); len(after) != before {
			t.Errorf("the cluster received rejected statements: %q", after[before:])
		}
		for _, q := range tg.fake.statements() {
			if u := strings.ToUpper(q); strings.Contains(u, "INSERT") || strings.Contains(u, "CREATE") {
				t.Errorf("the cluster received %q", q)
			}
		}
	})
}

// A write the guard cannot see (a connector that writes on read, say) meets
// the read-only transaction; the cluster's refusal is a rejection too.
func TestQueryReadOnlyViolation(t *testing.T) {
	f := newFakeCoordinator(t)
	const q = `SELECT * FROM "sales"."tripwire"`
	f.fixtures[q] = errResult("READ_ONLY_VIOLATION", "USER_ERROR", "Cannot execute write in a read-only transaction")
	f.start()
	s := openFake(t, f, "/hive")
	_, err := s.Query(context.Background(), q, warehouse.QueryOptions{})
	if !errors.Is(err, warehouse.ErrRejected) {
		t.Fatalf("err = %v, want ErrRejected", err)
	}
	if _, ok := f.statement(q); !ok {
		t.Error("the guard refused it: this test needs the cluster's refusal")
	}
}

func TestQueryServerError(t *testing.T) {
	const q = `SELECT nope FROM "sales"."orders"`
	fixture := func(f *fakeCoordinator) {
		f.fixtures[q] = errResult("COLUMN_NOT_FOUND", "USER_ERROR", "line 1:8: Column 'nope' cannot be resolved")
	}
	onBoth(t, fixture, func(t *testing.T, tg target) {
		s := tg.open(t, "/hive")
		_, err := s.Query(context.Background(), q, warehouse.QueryOptions{})
		want := "trino: query: COLUMN_NOT_FOUND: line 1:8: Column 'nope' cannot be resolved"
		if err == nil || err.Error() != want {
			t.Fatalf("err = %v, want %q", err, want)
		}
		var te *trinodrv.ErrTrino
		if !errors.As(err, &te) || te.ErrorName != "COLUMN_NOT_FOUND" {
			t.Errorf("errors.As ErrTrino: %v", te)
		}
		if errors.Is(err, warehouse.ErrRejected) || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("misclassified: %v", err)
		}
		// The failed statement aborted its transaction; the next one gets a
		// fresh transaction and works.
		if _, err := s.Query(context.Background(), "SELECT 1", warehouse.QueryOptions{}); err != nil {
			t.Errorf("after a failure: %v", err)
		}
		if tg.fake != nil {
			tg.fake.assertReadOnly(t)
		}
	})
}

func TestRowCountAndEstimate(t *testing.T) {
	onBoth(t, nil, func(t *testing.T, tg target) {
		ctx := context.Background()
		s := tg.open(t, "/hive")
		orders := warehouse.TableName{Schema: "sales", Name: "orders"}
		if n, err := s.RowCount(ctx, orders); err != nil || n != 5 {
			t.Errorf("RowCount = %d, %v", n, err)
		}
		employees := warehouse.TableName{Schema: "hr", Name: "employees"}
		if tg.fake != nil {
			// The fake's catalog is Hive's: statistics that may be stale, or none.
			if n, exact, err := s.EstimateRows(ctx, orders); err != nil || n != 998 || exact {
				t.Errorf("EstimateRows = %d, %v, %v; want 998, false", n, exact, err)
			}
			if _, _, err := s.EstimateRows(ctx, employees); err == nil || !strings.Contains(err.Error(), "no row count") {
				t.Errorf("EstimateRows without statistics: err = %v", err)
			}
		} else {
			// The memory connector keeps every table's row count; still an
			// estimate as far as discover knows.
			if n, exact, err := s.EstimateRows(ctx, orders); err != nil || n != 5 || exact {
				t.Errorf("EstimateRows = %d, %v, %v; want 5, false", n, exact, err)
			}
			if n, _, err := s.EstimateRows(ctx, employees); err != nil || n != 4 {
				t.Errorf("EstimateRows of hr.employees = %d, %v; want 4", n, err)
			}
		}
		_, err := s.RowCount(ctx, warehouse.TableName{Schema: "sales", Name: "secret_margins"})
		if err == nil || !strings.Contains(err.Error(), "trino: count rows of sales.secret_margins: PERMISSION_DENIED") {
			t.Errorf("RowCount of a denied table: err = %v", err)
		}

		// With a schema in the DSN, a bare name is the session schema's.
		s2 := tg.open(t, "/hive/sales")
		if n, err := s2.RowCount(ctx, warehouse.TableName{Name: "customers"}); err != nil || n != 3 {
			t.Errorf("RowCount in the session schema = %d, %v", n, err)
		}
		if f := tg.fake; f != nil {
			for _, q := range []string{`SELECT count(*) FROM "sales"."orders"`, `SHOW STATS FOR "sales"."orders"`, `SELECT count(*) FROM "customers"`} {
				if _, ok := f.statement(q); !ok {
					t.Errorf("the fake never saw %s", q)
				}
			}
			f.assertReadOnly(t)
		}
	})
}

// Where START TRANSACTION is refused, Open says how to go on without it.
func TestOpenTransactionRefused(t *testing.T) {
	f := newFakeCoordinator(t)
	f.refuseTx = true
	f.start()
	_, err := Open(context.Background(), "trino://alice@"+f.addr()+"/hive")
	if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), "?read_only_transaction=false") ||
		!strings.Contains(err.Error(), "NOT_SUPPORTED: Transactions are not supported here") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Open(context.Background(), "trino://alice@"+f.addr()+"/hive?read_only_transaction=false"); err != nil {
		t.Fatalf("without transactions: %v", err)
	}
}

// The client's own messages may quote the DSN; none reaches the user with
// the password in it, and the error keeps its class.
func TestScrub(t *testing.T) {
	c := &dsnConfig{password: "hunter2"}
	err := c.scrub(fmt.Errorf("trino: open: %w", badInputf("invalid DSN https://alice:hunter2@h:1\nnext line")))
	if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "\n") || !errors.Is(err, warehouse.ErrBadInput) {
		t.Errorf("scrub = %q", err)
	}
	err = c.scrub(fmt.Errorf("post https://alice:hunter2@h:1: %w", context.DeadlineExceeded))
	if strings.Contains(err.Error(), "hunter2") || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("scrub = %q", err)
	}
	plain := errors.New("no secret here")
	if c.scrub(plain) != plain {
		t.Error("scrub rewrote an error without the password")
	}
}

// read_only_transaction=false leaves the guard as the only layer: no
// transaction statements are sent.
func TestWithoutReadOnlyTransaction(t *testing.T) {
	onBoth(t, nil, func(t *testing.T, tg target) {
		s := tg.open(t, "/hive/sales?read_only_transaction=false")
		if _, err := s.Tables(context.Background()); err != nil {
			t.Fatalf("Tables: %v", err)
		}
		if _, err := s.Query(context.Background(), "SELECT 1", warehouse.QueryOptions{}); err != nil {
			t.Fatalf("Query: %v", err)
		}
		if tg.fake != nil {
			for _, q := range tg.fake.statements() {
				if isTxControl(q) {
					t.Errorf("sent %q", q)
				}
			}
		}
		if _, err := s.Query(context.Background(), "DROP TABLE x", warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("guard: err = %v", err)
		}
	})
}

// Experts query in parallel; each query gets its own connection and
// transaction.
func TestConcurrentQueries(t *testing.T) {
	onBoth(t, nil, func(t *testing.T, tg target) {
		s := tg.open(t, "/hive")
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for range 16 {
			wg.Go(func() {
				res, err := s.Query(context.Background(), "SELECT 1", warehouse.QueryOptions{})
				if err == nil && (len(res.Rows) != 1 || res.Rows[0][0] != int64(1)) {
					err = fmt.Errorf("rows %v", res.Rows)
				}
				if err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if tg.fake != nil {
			tg.fake.assertReadOnly(t)
		}
	})
}

func TestQuote(t *testing.T) {
	s := &Source{}
	for _, c := range []struct {
		t    warehouse.TableName
		want string
	}{
		{warehouse.TableName{Name: "orders"}, `"orders"`},
		{warehouse.TableName{Schema: "sales", Name: "orders"}, `"sales"."orders"`},
		{warehouse.TableName{Schema: "hive.sales", Name: `we"ird`}, `"hive"."sales"."we""ird"`},
	} {
		if got := s.QuoteTable(c.t); got != c.want {
			t.Errorf("QuoteTable(%v) = %s, want %s", c.t, got, c.want)
		}
	}
	if got := s.QuoteIdent(`a"b`); got != `"a""b"` {
		t.Errorf("QuoteIdent = %s", got)
	}
}

// A DSN whose "@" is missing puts the password where a port would be; the
// URL parser's complaint quotes it, and Open must not pass that on.
func TestMalformedDSNHidesThePassword(t *testing.T) {
	for _, dsn := range []string{"trinos://me:S3cretPw/hive", "trino://me:S3cretPw"} {
		_, err := Open(context.Background(), dsn)
		if err == nil || strings.Contains(err.Error(), "S3cretPw") {
			t.Errorf("Open(%q): %v", warehouse.Redact(dsn), err)
		}
	}
}

// Credentials go only to the DSN's server: a redirect to another port of
// the same host (where Go would still send Basic auth) is refused, one
// within the origin followed.
func TestRedirectsStayOnTheOrigin(t *testing.T) {
	req := func(u string) *http.Request {
		r, err := http.NewRequest("GET", u, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := []*http.Request{req("https://coord:8443/v1/statement")}
	for _, c := range []struct {
		to string
		ok bool
	}{
		{"https://coord:8443/v1/statement/queued/1", true},
		{"https://coord:9443/v1/statement", false},
		{"http://coord:8443/v1/statement", false},
		{"https://evil:8443/v1/statement", false},
	} {
		if err := sameOrigin(req(c.to), first); (err == nil) != c.ok {
			t.Errorf("redirect to %s: %v, want allowed %v", c.to, err, c.ok)
		}
	}
	conf, _, err := (&dsnConfig{}).clientConfig()
	if err != nil {
		t.Fatal(err)
	}
	if conf.HTTPClient.CheckRedirect == nil {
		t.Error("the client follows redirects anywhere")
	}
}
