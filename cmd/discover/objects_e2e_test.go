package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/report"
)

// TestPostgresObjectsEndToEnd: a PostgreSQL database that declares what
// tbls shows beyond tables (issue 22: enum types, functions and
// procedures) comes out with them in report.json, the index of tables/ and
// the HTML; the columns that hold an enum name it, and each column's grid
// row says what it references and what references it. An extension's
// functions (citext's) are not the database's users' and are left out.
func TestPostgresObjectsEndToEnd(t *testing.T) {
	server := pgscratch.Server(t)
	dsn, _, admin := pgscratch.Database(t, server, "objects")
	for _, q := range []string{
		`CREATE EXTENSION citext`,
		`CREATE TYPE order_status AS ENUM ('new', 'paid', 'shipped')`,
		`COMMENT ON TYPE order_status IS 'where an order is'`,
		`CREATE TABLE customer (id int PRIMARY KEY, email citext NOT NULL)`,
		`CREATE TABLE orders (id int PRIMARY KEY, customer_id int NOT NULL REFERENCES customer,
			status order_status NOT NULL DEFAULT 'new')`,
		`CREATE FUNCTION order_total(order_id int, discount numeric DEFAULT 0) RETURNS numeric
			LANGUAGE sql STABLE AS $$SELECT 100 - discount$$`,
		`COMMENT ON FUNCTION order_total(int, numeric) IS 'what an order costs'`,
		`CREATE PROCEDURE close_orders(since date) LANGUAGE sql AS $$UPDATE orders SET status = 'shipped'$$`,
		`INSERT INTO customer SELECT i, 'c' || i || '@example.com' FROM generate_series(1, 50) i`,
		`INSERT INTO orders SELECT i, 1 + i % 50, (ARRAY['new', 'paid', 'shipped'])[1 + i % 3]::order_status FROM generate_series(1, 300) i`,
		`ANALYZE`,
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// The counters a re-run compares reach the shared statistics a moment
	// after the writes.
	pgscratch.Settled(func() int64 {
		var n int64
		if err := admin.QueryRow(`SELECT coalesce(sum(n_tup_ins), 0) FROM pg_stat_user_tables`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	})
	out := t.TempDir()
	discover := func() result {
		t.Helper()
		res := run(t, "--db", dsn, "--out", out, "--format", "json,md,html", "--max-iterations", "10")
		if res.code != 0 {
			t.Fatalf("exit %d: %s", res.code, res.stderr)
		}
		return res
	}
	discover()
	_, r := readReport(t, out) // validates against report/schema.json
	wantEnums := []report.Enum{{Name: "order_status", Labels: []string{"new", "paid", "shipped"}, Columns: []string{"orders.status"},
		Comment: "where an order is"}}
	if !reflect.DeepEqual(r.Enums, wantEnums) {
		t.Errorf("enums = %+v, want %+v", r.Enums, wantEnums)
	}
	wantRoutines := []report.Routine{
		{Name: "close_orders", Kind: "procedure", Arguments: "IN since date", Language: "sql"},
		{Name: "order_total", Kind: "function", Arguments: "order_id integer, discount numeric DEFAULT 0", Returns: "numeric",
			Language: "sql", Comment: "what an order costs"},
	}
	if !reflect.DeepEqual(r.Routines, wantRoutines) {
		t.Errorf("routines = %+v, want %+v", r.Routines, wantRoutines)
	}

	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	index := read("tables/README.md")
	for _, want := range []string{
		"| order_status | 'new', 'paid', 'shipped' | [orders](orders.md) (status) | where an order is |\n",
		"| close_orders | procedure | IN since date |  | sql |  |\n",
		"| order_total | function | order_id integer, discount numeric DEFAULT 0 | numeric | sql | what an order costs |\n",
	} {
		if !strings.Contains(index, want) {
			t.Errorf("tables/README.md lacks %q:\n%s", want, index)
		}
	}
	if want := "| status | [order_status](README.md#enumerated-types) | no | 'new'::order_status |  |"; !strings.Contains(read("tables/orders.md"), want) {
		t.Errorf("tables/orders.md lacks %q:\n%s", want, read("tables/orders.md"))
	}
	if want := "| id | integer | no | [orders](orders.md) (customer_id) |"; !strings.Contains(read("tables/customer.md"), want) {
		t.Errorf("tables/customer.md lacks %q:\n%s", want, read("tables/customer.md"))
	}
	html := read("report.html")
	for _, want := range []string{`<h3 id="enums">Enumerated types</h3>`, `<h3 id="routines">Routines</h3>`,
		`<td><code>order_total</code></td><td>function</td>`} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %s", want)
		}
	}

	// MCP's describe_table names a column's enumerated type and gives its
	// labels, which an agent writing a WHERE clause needs.
	resp, mres := mcpSession(t, []string{"--db", dsn, "--catalog", filepath.Join(out, "catalog.db")},
		call(1, "describe_table", map[string]any{"table": "orders"}))
	if mres.code != 0 {
		t.Fatalf("mcp: exit %d\n%s", mres.code, mres.stderr)
	}
	text, isErr := toolText(t, resp["1"])
	var described struct {
		Columns []struct {
			Name string `json:"name"`
			Enum string `json:"enum"`
		} `json:"columns"`
		Enums []struct {
			Name   string   `json:"name"`
			Labels []string `json:"labels"`
		} `json:"enums"`
	}
	if err := json.Unmarshal([]byte(text), &described); err != nil || isErr {
		t.Fatalf("describe_table: %v %s", err, text)
	}
	statusEnum := ""
	for _, c := range described.Columns {
		if c.Name == "status" {
			statusEnum = c.Enum
		}
	}
	if statusEnum != "order_status" || len(described.Enums) != 1 || described.Enums[0].Name != "order_status" ||
		strings.Join(described.Enums[0].Labels, ",") != "new,paid,shipped" {
		t.Errorf("describe_table orders: status's enum %q, enums %+v; want order_status and its three labels", statusEnum, described.Enums)
	}

	// A routine is a finding no table's change signal covers: a re-run
	// after one is created runs in full and lists it; before, it reuses.
	if res := discover(); !strings.Contains(res.stderr, "nothing changed since run") {
		t.Fatalf("a re-run on the unchanged database does not reuse:\n%s", res.stderr)
	}
	if _, err := admin.Exec(`CREATE FUNCTION open_orders() RETURNS bigint LANGUAGE sql AS $$SELECT count(*) FROM orders WHERE status = 'new'$$`); err != nil {
		t.Fatal(err)
	}
	if res := discover(); !strings.Contains(res.stderr, "running in full: the database's enumerated types or routines changed") {
		t.Fatalf("a re-run after CREATE FUNCTION does not say why it runs in full:\n%s", res.stderr)
	}
	if _, r := readReport(t, out); len(r.Routines) != 3 || r.Routines[2].Name != "order_total" || r.Routines[1].Name != "open_orders" {
		t.Errorf("routines after CREATE FUNCTION = %+v", r.Routines)
	}
}
