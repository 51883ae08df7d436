package duckdb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// lake writes two Parquet files and one CSV with a scratch in-memory
// DuckDB, as a user's export would look.
func lake(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "shop_lake")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exec(t, "",
		`COPY (SELECT range::INTEGER AS id, 'c' || range AS name FROM range(1, 4)) TO `+quoteString(filepath.Join(dir, "customers.parquet"))+` (FORMAT parquet)`,
		`COPY (SELECT range AS id, range % 3 + 1 AS customer_id, (range * 1.5)::DECIMAL(8,2) AS amount
			FROM range(10, 14)) TO `+quoteString(filepath.Join(dir, "orders.parquet"))+` (FORMAT parquet)`,
		`COPY (SELECT * FROM (VALUES ('N', 'North', DATE '2024-01-02'), ('S', 'South', DATE '2024-02-03')) AS v(code, name, opened))
			TO `+quoteString(filepath.Join(dir, "Regions 2024.csv"))+` (HEADER)`,
	)
	return dir
}

func TestFolder(t *testing.T) {
	dir := lake(t)
	before := map[string][32]byte{}
	for _, f := range listDir(t, dir) {
		before[f] = digest(t, filepath.Join(dir, f))
	}
	s := open(t, "duckdb://"+dir)
	ctx := context.Background()
	if s.Dialect().Name() != "duckdb" || s.Database() != "shop_lake" {
		t.Errorf("Dialect, Database = %q, %q", s.Dialect().Name(), s.Database())
	}
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	customers := tbl("", "customers", "table")
	customers.Columns = cols("id:INTEGER", "name:VARCHAR")
	orders := tbl("", "orders", "table")
	orders.Columns = cols("id:BIGINT", "customer_id:BIGINT", "amount:DECIMAL(8,2)")
	regions := tbl("", "regions_2024", "table")
	regions.Columns = cols("code:VARCHAR", "name:VARCHAR", "opened:DATE")
	want := []warehouse.Table{customers, orders, regions}
	if !reflect.DeepEqual(tables, want) {
		t.Errorf("tables:\n got %+v\nwant %+v", tables, want)
	}
	for name, n := range map[string]int64{"customers": 3, "orders": 4, "regions_2024": 2} {
		if got, err := s.RowCount(ctx, warehouse.TableName{Name: name}); err != nil || got != n {
			t.Errorf("RowCount(%s) = %d, %v; want %d", name, got, err, n)
		}
	}
	res, err := s.Query(ctx, `SELECT c.name, sum(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer_id
		GROUP BY ALL ORDER BY 1`, warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 3 || res.Rows[0][0] != "c1" || res.Rows[0][1] != "18.00" {
		t.Errorf("join = %v", res.Rows)
	}
	if _, _, err := s.EstimateRows(ctx, warehouse.TableName{Name: "orders"}); err == nil {
		t.Error("EstimateRows of a view should send the caller to RowCount")
	}

	// Below the checks, DuckDB may open the exposed files and nothing else.
	outside := filepath.Join(t.TempDir(), "outside.csv")
	os.WriteFile(outside, []byte("a\n1\n"), 0o644)
	for _, q := range []string{
		`SELECT * FROM read_csv(` + quoteString(outside) + `)`,
		`SELECT * FROM read_parquet(` + quoteString(filepath.Join(dir, "*.parquet")) + `)`,
		`SELECT * FROM glob(` + quoteString(dir+"/*") + `)`,
		`COPY (SELECT 1) TO ` + quoteString(filepath.Join(dir, "new.csv")),
		`ATTACH ` + quoteString(filepath.Join(dir, "new.duckdb")),
		`SET enable_external_access = true`,
		`SET allowed_paths = ['/']`,
	} {
		if _, err := s.run(ctx, q, warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("run(%q) = %v; want a refusal by the engine", q, err)
		}
	}
	// Overwriting an exposed file is the one write DuckDB would allow; the
	// guard is what stops it.
	copyOver := `COPY (SELECT 1 AS x) TO ` + quoteString(filepath.Join(dir, "orders.parquet")) + ` (FORMAT parquet)`
	if _, err := s.Query(ctx, copyOver, warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("Query(COPY over a data file) = %v", err)
	}
	if err := s.Guard(ctx, copyOver); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("Guard(COPY over a data file) = %v", err)
	}
	s.Close()
	after := listDir(t, dir)
	if len(after) != len(before) {
		t.Errorf("files in the folder: %v", after)
	}
	for f, d := range before {
		if digest(t, filepath.Join(dir, f)) != d {
			t.Errorf("%s changed", f)
		}
	}
}

func TestGlobAndSingleFile(t *testing.T) {
	dir := lake(t)
	s := open(t, "duckdb://"+filepath.Join(dir, "*.parquet"))
	tables, err := s.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name.Name)
	}
	if !slices.Equal(names, []string{"customers", "orders"}) || s.Database() != "shop_lake" {
		t.Errorf("glob: tables %q, database %q", names, s.Database())
	}

	one := open(t, "duckdb://"+filepath.Join(dir, "Regions 2024.csv"))
	if n, err := one.RowCount(context.Background(), warehouse.TableName{Name: "regions_2024"}); err != nil || n != 2 {
		t.Errorf("single file: RowCount = %d, %v", n, err)
	}
	if one.Database() != "Regions 2024" {
		t.Errorf("single file: Database = %q", one.Database())
	}
}

// TestLakeLayout runs the folder rules on a small lake: a partitioned
// table folder, a JSON lines file, files to ignore, a name collision, and
// one unreadable file that is skipped rather than fatal.
func TestLakeLayout(t *testing.T) {
	root := filepath.Join(t.TempDir(), "lake")
	for _, d := range []string{"events/year=2024/month=1", "events/year=2025/month=2", ".git", "_delta_log", "orders", "audit"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	q := func(p string) string { return quoteString(filepath.Join(root, p)) }
	exec(t, "",
		`COPY (SELECT 1 AS id, 'a' AS kind) TO `+q("events/year=2024/month=1/part-0.parquet")+` (FORMAT parquet)`,
		`COPY (SELECT 2 AS id, 'b' AS kind, 9.5 AS extra) TO `+q("events/year=2025/month=2/part-0.parquet")+` (FORMAT parquet)`,
		`COPY (SELECT 3 AS id, 'c' AS kind) TO `+q("events/year=2025/month=2/part-1.parquet")+` (FORMAT parquet)`,
		`COPY (SELECT range AS id FROM range(5)) TO `+q("orders.parquet")+` (FORMAT parquet)`,
		`COPY (SELECT range AS id FROM range(7)) TO `+q("orders/2024.parquet")+` (FORMAT parquet)`,
		`COPY (SELECT 'x' AS msg, 1 AS level UNION ALL SELECT 'y', 2) TO `+q("logs.jsonl")+` (FORMAT json)`,
		`COPY (SELECT 'login' AS action) TO `+q("audit/a.json")+` (FORMAT json)`,
		`COPY (SELECT 'logout' AS action, 'ann' AS who) TO `+q("audit/b.ndjson")+` (FORMAT json)`,
	)
	os.WriteFile(filepath.Join(root, "_SUCCESS"), nil, 0o644)
	os.WriteFile(filepath.Join(root, ".git", "x.csv"), []byte("a\n1\n"), 0o644)
	os.WriteFile(filepath.Join(root, "_delta_log", "0.json"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(root, "README.md"), []byte("# lake"), 0o644)
	os.WriteFile(filepath.Join(root, "broken.parquet"), []byte("not parquet at all"), 0o644)

	s := open(t, root)
	ctx := context.Background()
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, tb := range tables {
		for _, c := range tb.Columns {
			got[tb.Name.Name] = append(got[tb.Name.Name], c.Name+" "+c.Type)
		}
	}
	want := map[string][]string{
		"events":         {"id INTEGER", "kind VARCHAR", "extra DECIMAL(2,1)", "month BIGINT", "year BIGINT"},
		"logs":           {"msg VARCHAR", "level BIGINT"},
		"audit":          {"action VARCHAR", "who VARCHAR"},
		"orders":         {"id BIGINT"},
		"orders_parquet": {"id BIGINT"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("views:\n got %v\nwant %v", got, want)
	}
	for name, n := range map[string]int64{"events": 3, "logs": 2, "audit": 2, "orders": 5, "orders_parquet": 7} {
		if c, err := s.RowCount(ctx, warehouse.TableName{Name: name}); err != nil || c != n {
			t.Errorf("RowCount(%s) = %d, %v; want %d", name, c, err, n)
		}
	}
	skipped, err := s.Skipped(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Table.Name != "broken" || !strings.Contains(skipped[0].Reason, "could not be read") {
		t.Errorf("skipped = %+v", skipped)
	}
}

func TestPlan(t *testing.T) {
	root := "/data/lake"
	files := []string{
		"/data/lake/Orders.csv",
		"/data/lake/orders.parquet",
		"/data/lake/2024 sales.csv.gz",
		"/data/lake/events/a.json",
		"/data/lake/events/b.jsonl",
		"/data/lake/events/c.csv",
		"/data/lake/year=2024/x.parquet",
		"/data/lake/year=2025/y.parquet",
		"/data/lake/region=eu/clicks/p0.parquet",
		"/data/lake/region=us/clicks/p0.parquet",
		"/data/lake/deep/a/b/c.parquet",
	}
	got := map[string]string{}
	for _, v := range plan(root, files) {
		got[v.name] = strings.Join([]string{v.format, strings.Join(v.files, ","), boolText(v.hive)}, " | ")
	}
	want := map[string]string{
		"orders":         "csv | /data/lake/Orders.csv | false",
		"orders_parquet": "parquet | /data/lake/orders.parquet | false",
		"t_2024_sales":   "csv | /data/lake/2024 sales.csv.gz | false",
		"lake":           "parquet | /data/lake/year=2024/x.parquet,/data/lake/year=2025/y.parquet | true",
		"clicks":         "parquet | /data/lake/region=eu/clicks/p0.parquet,/data/lake/region=us/clicks/p0.parquet | true",
		"deep":           "parquet | /data/lake/deep/a/b/c.parquet | false",
		"events_csv":     "csv | /data/lake/events/c.csv | false",
		"events_json":    "json | /data/lake/events/a.json,/data/lake/events/b.jsonl | false",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan:\n got %v\nwant %v", got, want)
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestMatchGlob(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		ok            bool
	}{
		{"*.parquet", "a.parquet", true},
		{"*.parquet", "x/a.parquet", false},
		{"**/*.parquet", "a.parquet", true},
		{"**/*.parquet", "x/y/a.parquet", true},
		{"x/**", "x/y/a.csv", true},
		{"sales_20[0-9][0-9].csv", "sales_2024.csv", true},
		{"sales_?.csv", "sales_10.csv", false},
	} {
		if got := matchGlob(strings.Split(c.pattern, "/"), strings.Split(c.path, "/")); got != c.ok {
			t.Errorf("matchGlob(%q, %q) = %v", c.pattern, c.path, got)
		}
	}
}
