package mysql

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	mysqldrv "github.com/go-sql-driver/mysql"

	"github.com/discover-db/discover/warehouse"
)

func col(name, typ string, nullable bool, pos int) warehouse.Column {
	return warehouse.Column{Name: name, Type: typ, Nullable: nullable, Position: pos}
}

// cols builds columns from "name type" pairs; a trailing " null" marks a
// nullable one. Names may hold spaces only before the last two fields.
func cols(specs ...string) []warehouse.Column {
	out := []warehouse.Column{}
	for i, s := range specs {
		nullable := strings.HasSuffix(s, " null")
		s = strings.TrimSuffix(s, " null")
		name, typ, _ := strings.Cut(s, " ")
		out = append(out, col(name, typ, nullable, i+1))
	}
	return out
}

func table(name, kind string, c []warehouse.Column) warehouse.Table {
	return warehouse.Table{
		Name: warehouse.TableName{Name: name}, Kind: kind, Columns: c,
		PrimaryKey: []string{}, ForeignKeys: []warehouse.ForeignKey{}, Uniques: [][]string{}, Indexes: []warehouse.Index{},
	}
}

// mysqlSpelling turns MariaDB's COLUMN_TYPE into MySQL 8's, which drops
// integer display widths (but keeps tinyint(1)) and has a real JSON type.
func mysqlSpelling(typ, name string) string {
	if name == "j" && typ == "longtext" {
		return "json"
	}
	if typ == "tinyint(1)" {
		return typ
	}
	return regexp.MustCompile(`^(tinyint|smallint|mediumint|int|bigint|year)\(\d+\)`).ReplaceAllString(typ, "$1")
}

func wantTables(s *Source, ref string) []warehouse.Table {
	bigOrders := table("big orders", "view", cols("ship_id int(11)", "sku varchar(20) null", "qty int(11) null"))
	// The definition as MariaDB keeps it; MySQL 8 brackets each comparison.
	bigOrders.Definition = "select `s`.`ship_id` AS `ship_id`,`i`.`sku` AS `sku`,`i`.`qty` AS `qty` from (`" + s.name +
		"`.`shipment_line` `s` join `" + s.name + "`.`order items` `i` on(`i`.`order_id` = `s`.`order_id` and `i`.`line` = `s`.`line`))"
	if !s.MariaDB() {
		bigOrders.Definition = "select `s`.`ship_id` AS `ship_id`,`i`.`sku` AS `sku`,`i`.`qty` AS `qty` from (`" + s.name +
			"`.`shipment_line` `s` join `" + s.name + "`.`order items` `i` on(((`i`.`order_id` = `s`.`order_id`) and (`i`.`line` = `s`.`line`))))"
	}
	bigOrders.Reads = []warehouse.TableName{{Name: "order items"}, {Name: "shipment_line"}}
	// A foreign key that declares no action: InnoDB's NO ACTION is
	// RESTRICT, and MariaDB (like MySQL 5.7) says so; MySQL 8 says NO ACTION.
	noAction := "RESTRICT"
	if !s.MariaDB() {
		noAction = "NO ACTION"
	}

	customer := table("customer", "table", cols("id int(11)", "email varchar(100)", "name varchar(50) null"))
	customer.PrimaryKey, customer.PrimaryKeyName = []string{"id"}, "PRIMARY"
	customer.Uniques = [][]string{{"email"}}
	customer.Indexes = []warehouse.Index{
		{Name: "cust_email", Columns: []string{"email"}, Unique: true},
		{Name: "cust_name", Columns: []string{"name"}},
	}

	naive := table("naïve", "table", cols("clé varchar(10)", "valeur double null", "region_id int(11) null", "cust_id int(11) null"))
	naive.PrimaryKey, naive.PrimaryKeyName = []string{"clé"}, "PRIMARY"
	naive.ForeignKeys = []warehouse.ForeignKey{
		{Name: "naive_cust", Columns: []string{"cust_id"}, RefTable: warehouse.TableName{Name: "customer"}, RefColumns: []string{"id"},
			OnDelete: noAction, OnUpdate: noAction},
		{Name: "naive_region", Columns: []string{"region_id"}, RefTable: warehouse.TableName{Schema: ref, Name: "region"}, RefColumns: []string{"id"},
			OnDelete: noAction, OnUpdate: noAction},
	}
	naive.Indexes = []warehouse.Index{
		{Name: "naive_cust", Columns: []string{"cust_id"}},
		{Name: "naive_region", Columns: []string{"region_id"}},
	}

	items := table("order items", "table", cols("line int(11)", "order_id int(11)", "sku varchar(20) null", "qty int(11) null"))
	items.PrimaryKey, items.PrimaryKeyName = []string{"order_id", "line"}, "PRIMARY"

	sel := table("select", "table", cols("from varchar(10) null", "where int(11) null"))
	sel.Uniques = [][]string{{"from", "where"}}
	sel.Indexes = []warehouse.Index{{Name: "from where", Columns: []string{"from", "where"}, Unique: true}}

	ship := table("shipment_line", "table", cols("ship_id int(11)", "order_id int(11) null", "line int(11) null"))
	ship.ForeignKeys = []warehouse.ForeignKey{{Name: "ship_item", Columns: []string{"order_id", "line"},
		RefTable: warehouse.TableName{Name: "order items"}, RefColumns: []string{"order_id", "line"},
		OnDelete: noAction, OnUpdate: noAction}}
	ship.Indexes = []warehouse.Index{{Name: "ship_item", Columns: []string{"order_id", "line"}}}

	types := table("types", "table", cols("id int(11)", "i int(11) null", "big bigint(20) unsigned null",
		"amount decimal(10,2) null", "dbl double null", "flt float null", "vc varchar(20) null", "txt text null",
		"en enum('a','b') null", "st set('x','y') null", "flag tinyint(1) null", "d date null", "dt datetime null",
		"ts timestamp null", "j longtext null", "bl blob null", "bt bit(1) null", "yr year(4) null", "tm time null",
		"vb varbinary(8) null"))
	types.PrimaryKey, types.PrimaryKeyName = []string{"id"}, "PRIMARY"
	if s.MariaDB() {
		// MariaDB's JSON is longtext with a check of its own.
		types.Checks = []warehouse.Check{{Name: "j", Expression: "json_valid(`j`)"}}
	}

	weird := table("we`ird", "table", cols("k`ey int(11)", "v varchar(5) null"))
	weird.PrimaryKey, weird.PrimaryKeyName = []string{"k`ey"}, "PRIMARY"

	out := []warehouse.Table{bigOrders, customer, naive, items, sel, ship, types, weird}
	if !s.MariaDB() {
		for _, t := range out {
			for i := range t.Columns {
				t.Columns[i].Type = mysqlSpelling(t.Columns[i].Type, t.Columns[i].Name)
			}
		}
	}
	return out
}

// checkCreateStatements checks that each table has its SHOW CREATE TABLE
// (asserted whole in TestTablesStructure), without the AUTO_INCREMENT
// counter, and each view none, and takes them out of tables so that the
// rest compares with the fixture's declared structure.
func checkCreateStatements(t *testing.T, tables []warehouse.Table) {
	t.Helper()
	for i, tb := range tables {
		create := tb.CreateStatement
		if (tb.Kind == "table") != strings.HasPrefix(create, "CREATE TABLE "+QuoteIdent(tb.Name.Name)+" (") ||
			strings.Contains(create, "AUTO_INCREMENT=") {
			t.Errorf("%s: CreateStatement %q", tb.Name, create)
		}
		tables[i].CreateStatement = ""
	}
}

func TestTablesFixture(t *testing.T) {
	t.Parallel()
	db, ref, _ := fixture(t, adminDB(t, ""))
	s := open(t, rootDSN(t, db))
	if s.Dialect().Name() != "mysql" || s.Database() != db {
		t.Errorf("Dialect, Database = %q, %q", s.Dialect().Name(), s.Database())
	}
	got, err := s.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkCreateStatements(t, got)
	want := wantTables(s, ref)
	if len(got) != len(want) {
		var names []string
		for _, tb := range got {
			names = append(names, tb.Name.Name)
		}
		t.Fatalf("tables = %q, want %d", names, len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			g, _ := json.Marshal(got[i])
			w, _ := json.Marshal(want[i])
			t.Errorf("table %d:\n got %s\nwant %s", i, g, w)
		}
	}

	skipped, err := s.Skipped(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Table != (warehouse.TableName{Name: "broken"}) ||
		!strings.HasPrefix(skipped[0].Reason, "the view does not compile: ") {
		t.Errorf("Skipped = %+v, want the broken view", skipped)
	}
}

func TestRowCountAndEstimate(t *testing.T) {
	t.Parallel()
	db, ref, _ := fixture(t, adminDB(t, ""))
	s := open(t, rootDSN(t, db))
	ctx := context.Background()
	want := map[string]int64{"customer": 3, "order items": 3, "shipment_line": 4, "select": 2, "naïve": 1,
		"we`ird": 1, "types": 3, "big orders": 3}
	for name, n := range want {
		got, err := s.RowCount(ctx, warehouse.TableName{Name: name})
		if err != nil || got != n {
			t.Errorf("RowCount(%q) = %d, %v; want %d", name, got, err, n)
		}
	}
	if n, err := s.RowCount(ctx, warehouse.TableName{Schema: ref, Name: "region"}); err != nil || n != 2 {
		t.Errorf("RowCount(ref.region) = %d, %v", n, err)
	}
	if _, err := s.RowCount(ctx, warehouse.TableName{Name: "broken"}); err == nil {
		t.Error("RowCount of a broken view succeeded")
	}

	n, exact, err := s.EstimateRows(ctx, warehouse.TableName{Name: "customer"})
	if err != nil || exact || n < 0 || n > 100 {
		t.Errorf("EstimateRows(customer) = %d, %v, %v; want a small estimate", n, exact, err)
	}
	if _, _, err := s.EstimateRows(ctx, warehouse.TableName{Schema: ref, Name: "region"}); err != nil {
		t.Errorf("EstimateRows(ref.region): %v", err)
	}
	if _, _, err := s.EstimateRows(ctx, warehouse.TableName{Name: "big orders"}); err == nil {
		t.Error("EstimateRows of a view should send the caller to RowCount")
	}
	if _, _, err := s.EstimateRows(ctx, warehouse.TableName{Name: "nope"}); err == nil {
		t.Error("EstimateRows of a missing table succeeded")
	}
}

func TestQueryValues(t *testing.T) {
	t.Parallel()
	db, _, _ := fixture(t, adminDB(t, ""))
	s := open(t, rootDSN(t, db))
	res, err := s.Query(context.Background(), "SELECT * FROM types ORDER BY id", warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Truncated || len(res.Rows) != 3 || res.Elapsed <= 0 {
		t.Fatalf("result: %d rows, truncated %v, elapsed %v", len(res.Rows), res.Truncated, res.Elapsed)
	}
	wantCols := []string{"id", "i", "big", "amount", "dbl", "flt", "vc", "txt", "en", "st", "flag",
		"d", "dt", "ts", "j", "bl", "bt", "yr", "tm", "vb"}
	if !reflect.DeepEqual(res.Columns, wantCols) {
		t.Errorf("columns = %q", res.Columns)
	}
	want := [][]any{
		{int64(1), int64(-7), "18446744073709551615", "12345.67", 3.5, 1.1, "héllo", "long text", "b", "x,y", int64(1),
			"2024-01-31", "2024-01-31 10:11:12", "2024-02-01 08:00:00", `{"a": 1}`, []byte{0, 0xff, 0x10}, int64(1), int64(2024), "12:34:56", []byte{1, 2}},
		{int64(2), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		{int64(3), int64(0), int64(42), "-0.50", -1e300, 0.0, "", "", "a", "", int64(0),
			"0000-00-00", "2024-02-29 23:59:59", nil, "[]", []byte{}, int64(0), int64(1999), "-838:59:59", []byte{}},
	}
	if !s.MariaDB() {
		// MySQL stores JSON in a binary form and prints it normalised.
		want[0][14] = `{"a": 1}`
	}
	for r := range want {
		for c := range want[r] {
			g, w := res.Rows[r][c], want[r][c]
			if !reflect.DeepEqual(g, w) {
				t.Errorf("row %d %s = %#v (%T), want %#v (%T)", r+1, res.Columns[c], g, g, w, w)
			}
		}
	}

	// Expressions: the driver's type names decide, not the table's.
	res, err = s.Query(context.Background(),
		"SELECT 1 + 1 AS n, 2.50 * 2 AS d, CAST(1 AS DOUBLE) / 4 AS f, NULL AS z, `k``ey`, 'x' AS s, CAST('é' AS BINARY) AS b FROM `we``ird`",
		warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantRow := []any{int64(2), "5.00", 0.25, nil, int64(1), "x", []byte("é")}
	if !reflect.DeepEqual(res.Rows[0], wantRow) {
		t.Errorf("expressions = %#v, want %#v", res.Rows[0], wantRow)
	}
	if res.Columns[4] != "k`ey" {
		t.Errorf("column name = %q", res.Columns[4])
	}
}

func TestQueryEveryTableByQuotedName(t *testing.T) {
	t.Parallel()
	db, _, _ := fixture(t, adminDB(t, ""))
	s := open(t, rootDSN(t, db))
	ctx := context.Background()
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		n, err := s.RowCount(ctx, tb.Name)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Query(ctx, "SELECT * FROM "+s.QuoteTable(tb.Name), warehouse.QueryOptions{})
		if err != nil {
			t.Errorf("%s: %v", tb.Name, err)
			continue
		}
		if int64(len(res.Rows)) != n || len(res.Columns) != len(tb.Columns) {
			t.Errorf("%s: %d rows × %d columns, want %d × %d", tb.Name, len(res.Rows), len(res.Columns), n, len(tb.Columns))
		}
	}
}

func TestMaxRows(t *testing.T) {
	t.Parallel()
	db, _, _ := fixture(t, adminDB(t, ""))
	s := open(t, rootDSN(t, db))
	ctx := context.Background()
	for _, c := range []struct {
		sql       string
		max, rows int
		truncated bool
	}{
		{"SELECT * FROM customer ORDER BY id", 2, 2, true},
		{"SELECT * FROM customer ORDER BY id", 3, 3, false},
		{"SELECT * FROM customer ORDER BY id", 4, 3, false},
		{"SELECT * FROM customer ORDER BY id LIMIT 1000", 1, 1, true},
		{"SELECT id FROM customer UNION ALL SELECT id FROM customer", 5, 5, true},
	} {
		res, err := s.Query(ctx, c.sql, warehouse.QueryOptions{MaxRows: c.max})
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if len(res.Rows) != c.rows || res.Truncated != c.truncated {
			t.Errorf("%s max %d: %d rows, truncated %v; want %d, %v", c.sql, c.max, len(res.Rows), res.Truncated, c.rows, c.truncated)
		}
	}
	res, err := s.Query(ctx, "SELECT * FROM customer ORDER BY id", warehouse.QueryOptions{MaxRows: 2})
	if err != nil || res.Rows[1][1] != "b@x.org" {
		t.Errorf("rows kept in order: %v %v", res, err)
	}

	// A statement whose own LIMIT outruns the cap streams far more rows than
	// the cap; the rest is stopped on the server, not drained (how fast is
	// BenchmarkBarTruncateLongStream's bar; the test only logs it).
	start := time.Now()
	q, opts := longStream()
	res, err = s.Query(ctx, q, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 10 || !res.Truncated {
		t.Errorf("big LIMIT: %d rows, truncated %v", len(res.Rows), res.Truncated)
	}
	t.Logf("truncating a long stream took %s", time.Since(start).Round(time.Millisecond))
}

// longStream is the statement TestMaxRows and BenchmarkBarTruncateLongStream
// cap: its own LIMIT outruns the cap of 10 rows by far.
func longStream() (string, warehouse.QueryOptions) {
	return digits + `SELECT a.x FROM d a, d b, d c, d e, d f, d g, d h, d i LIMIT 100000000`,
		warehouse.QueryOptions{MaxRows: 10, Timeout: 30 * time.Second}
}

// TestSessionSettingsDoNotLeak checks that a Query's row cap and statement
// limit, set on its connection, do not follow the connection back to the
// pool into the next operation.
func TestSessionSettingsDoNotLeak(t *testing.T) {
	t.Parallel()
	db, _, _ := fixture(t, adminDB(t, ""))
	s := open(t, rootDSN(t, db))
	s.db.SetMaxOpenConns(1)
	ctx := context.Background()
	res, err := s.Query(ctx, "SELECT * FROM customer", warehouse.QueryOptions{MaxRows: 1, Timeout: 300 * time.Millisecond})
	if err != nil || !res.Truncated {
		t.Fatalf("%v %v", res, err)
	}
	if n, err := s.RowCount(ctx, warehouse.TableName{Name: "customer"}); err != nil || n != 3 {
		t.Errorf("RowCount after a capped query = %d, %v", n, err)
	}
	tables, err := s.Tables(ctx)
	if err != nil || len(tables) != 8 {
		t.Errorf("Tables after a capped query: %d, %v", len(tables), err)
	}
	res, err = s.Query(ctx, "SELECT @@SESSION.sql_select_limit AS l", warehouse.QueryOptions{MaxRows: 100})
	if err != nil || res.Rows[0][0] != int64(101) {
		t.Errorf("sql_select_limit for MaxRows 100 = %v, %v", res, err)
	}
}

// digits is a ten-row CTE whose cross joins make a statement as long or as
// slow as a test needs, from SELECT alone: the guard refuses the system
// schema (information_schema.COLLATIONS) these tests once joined.
const digits = `WITH d AS (SELECT 0 AS x UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
	UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) `

func TestTimeout(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := createDB(t, admin, "dt_")
	s := open(t, rootDSN(t, db))
	ctx := context.Background()
	slow := digits + `SELECT COUNT(*) FROM d a, d b, d c, d e, d f, d g, d h, d i, d j, d k`
	start := time.Now()
	_, err := s.Query(ctx, slow, warehouse.QueryOptions{Timeout: 200 * time.Millisecond})
	elapsed := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if !strings.Contains(err.Error(), "timed out after 200ms") {
		t.Errorf("err = %v", err)
	}
	// The server's limit fires, not the context backstop a second later.
	if elapsed > 200*time.Millisecond+backstop {
		t.Errorf("timed out after %s", elapsed)
	}
	var me *mysqldrv.MySQLError
	if s.limitVar != "" && (!errors.As(err, &me) || (me.Number != erStatementTimeout && me.Number != erQueryTimeout)) {
		t.Errorf("err = %v, want the server's statement timeout", err)
	}
	// The connection is usable afterwards, with the limit lifted.
	if _, err := s.Query(ctx, "SELECT 1", warehouse.QueryOptions{}); err != nil {
		t.Error(err)
	}

	// Recursive CTE counting to 1e8: the brief's other slow shape (MariaDB;
	// MySQL stops recursion at cte_max_recursion_depth first). MariaDB would
	// stop at max_recursive_iterations (1000) and return a wrong count with
	// a mere warning, had Open not lifted it.
	if s.MariaDB() {
		res, err := s.Query(ctx, `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5000)
			SELECT COUNT(*) FROM c`, warehouse.QueryOptions{})
		if err != nil || res.Rows[0][0] != int64(5000) {
			t.Errorf("recursive CTE to 5000: %v, %v", res, err)
		}
		_, err = s.Query(ctx, `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 100000000)
			SELECT COUNT(*) FROM c`, warehouse.QueryOptions{Timeout: 200 * time.Millisecond})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("recursive CTE: err = %v", err)
		}
	}

	// A caller's deadline shorter than the query's own timeout wins, and
	// the statement is stopped on the server too.
	cctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
	defer cancel()
	if _, err := s.Query(cctx, slow, warehouse.QueryOptions{Timeout: time.Minute}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("caller deadline: err = %v", err)
	}
	waitIdle(t, admin, db, "caller deadline")
}

// TestCancelKillsOnServer: when the caller gives up, the statement must stop
// on the server too; the driver only closes its socket, which the server
// does not notice while it computes.
func TestCancelKillsOnServer(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := createDB(t, admin, "dt_")
	exec(t, admin, "CREATE VIEW "+QuoteIdent(db)+`.slow AS SELECT a.ID FROM information_schema.COLLATIONS a,
		information_schema.COLLATIONS b, information_schema.COLLATIONS c, information_schema.COLLATIONS d`)
	s := open(t, rootDSN(t, db))
	waitStopped := func(what string) { t.Helper(); waitIdle(t, admin, db, what) }

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	_, err := s.Query(ctx, "SELECT COUNT(*) FROM slow", warehouse.QueryOptions{Timeout: time.Minute})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Query: err = %v, want Canceled", err)
	}
	waitStopped("Query")

	// RowCount has no statement limit of its own: the kill is all that
	// stops it.
	ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := s.RowCount(ctx, warehouse.TableName{Name: "slow"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RowCount: err = %v, want DeadlineExceeded", err)
	}
	waitStopped("RowCount")

	if _, err := s.Query(context.Background(), "SELECT 1", warehouse.QueryOptions{}); err != nil {
		t.Error(err)
	}
}

// unguarded is the source without its allow-list: what reaches the
// server's own read-only layers when the guard lets a statement through.
type unguarded struct{ *Source }

func (unguarded) Admit(context.Context, string) error { return nil }

// run is Query without the guard.
func (s *Source) run(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	return warehouse.Query(ctx, unguarded{s}, q, opts)
}
