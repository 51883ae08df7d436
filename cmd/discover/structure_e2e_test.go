package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/report"
)

// structureDB builds a shop whose schema declares the structure beyond
// keys (issue 22): defaults, a check, a generated column, AUTOINCREMENT, a
// named foreign key with actions, a partial index, a trigger and a view.
// status's default and the check on qty are the caller's, so two copies
// can differ in them alone.
func structureDB(t *testing.T, statusDefault, qtyCheck string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	stmts := []string{
		`CREATE TABLE customers (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL)`,
		`CREATE TABLE orders (
			id INTEGER PRIMARY KEY,
			customer_id INTEGER NOT NULL CONSTRAINT fk_orders_customer REFERENCES customers (id) ON DELETE CASCADE,
			status TEXT NOT NULL DEFAULT ` + statusDefault + `,
			qty INTEGER NOT NULL DEFAULT 1 CHECK (` + qtyCheck + `),
			price REAL NOT NULL,
			total REAL GENERATED ALWAYS AS (qty * price) STORED)`,
		`CREATE INDEX orders_open ON orders (customer_id) WHERE status <> 'shipped'`,
		`CREATE TRIGGER orders_shipped AFTER UPDATE OF status ON orders BEGIN SELECT 1; END`,
		`CREATE VIEW open_orders AS SELECT o.id, c.name FROM orders AS o JOIN customers AS c ON c.id = o.customer_id WHERE o.status <> 'shipped'`,
	}
	for i := 1; i <= 20; i++ {
		stmts = append(stmts, "INSERT INTO customers (name) VALUES ('c"+itoa(i)+"')")
	}
	statuses := []string{"new", "paid", "shipped"}
	for i := 1; i <= 60; i++ {
		stmts = append(stmts, "INSERT INTO orders (id, customer_id, status, qty, price) VALUES ("+
			itoa(i)+", "+itoa(1+i%20)+", '"+statuses[i%3]+"', "+itoa(1+i%4)+", 2.5)")
	}
	expertstest.SQLite(t, path, stmts...)
	return path
}

const structureConfig = `
format: [json, md, html]
max_iterations: 10
comments:
  orders: "One row per customer order, written by the shop."
  orders.status: "Lifecycle: new → paid → shipped."
  open_orders: Orders not shipped yet.
`

func TestStructureEndToEnd(t *testing.T) {
	db := structureDB(t, "'new'", "qty > 0")
	cfg := writeConfig(t, structureConfig)
	out := t.TempDir()
	if res := run(t, "--db", db, "--out", out, "--config", cfg, "-q"); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	_, r := readReport(t, out)
	tables := map[string]report.Table{}
	for _, tb := range r.Tables {
		tables[tb.Name] = tb
	}

	orders := tables["orders"]
	if orders.UserComment != "One row per customer order, written by the shop." || orders.Comment != "" {
		t.Errorf("orders comments: database %q, team %q", orders.Comment, orders.UserComment)
	}
	if want := []report.Check{{Expression: "qty > 0"}}; !reflect.DeepEqual(orders.Checks, want) {
		t.Errorf("orders checks = %+v, want %+v", orders.Checks, want)
	}
	wantTrigger := []report.Trigger{{Name: "orders_shipped", Timing: "AFTER", Events: []string{"UPDATE"},
		Definition: `CREATE TRIGGER orders_shipped AFTER UPDATE OF status ON orders BEGIN SELECT 1; END`}}
	if !reflect.DeepEqual(orders.Triggers, wantTrigger) {
		t.Errorf("orders triggers = %+v, want %+v", orders.Triggers, wantTrigger)
	}
	wantIndex := []report.Index{{Name: "orders_open", Columns: []string{"customer_id"}, Predicate: "status <> 'shipped'",
		Definition: `CREATE INDEX orders_open ON orders (customer_id) WHERE status <> 'shipped'`}}
	if !reflect.DeepEqual(orders.Indexes, wantIndex) {
		t.Errorf("orders indexes = %+v, want %+v", orders.Indexes, wantIndex)
	}
	cols := map[string]report.Column{}
	for _, c := range orders.Columns {
		cols[c.Name] = c
	}
	if c := cols["status"]; c.Default == nil || *c.Default != "'new'" || c.UserComment != "Lifecycle: new → paid → shipped." {
		t.Errorf("orders.status: default %v, team's comment %q", c.Default, c.UserComment)
	}
	if c := cols["qty"]; c.Default == nil || *c.Default != "1" {
		t.Errorf("orders.qty default %v, want 1", c.Default)
	}
	if c := cols["total"]; c.Generated != "qty * price" || !c.GeneratedStored || c.Default != nil {
		t.Errorf("orders.total: generated %q stored %v default %v", c.Generated, c.GeneratedStored, c.Default)
	}
	if c := cols["id"]; c.Identity != "" {
		t.Errorf("orders.id is an INTEGER PRIMARY KEY without AUTOINCREMENT: identity %q", c.Identity)
	}
	if c := tables["customers"].Columns[0]; c.Name != "id" || c.Identity != "auto_increment" {
		t.Errorf("customers.id = %+v, want identity auto_increment", c)
	}
	var fk *report.Relationship
	for i, rel := range r.Relationships {
		if rel.FromTable == "orders" && rel.ToTable == "customers" && rel.Source == "declared" {
			fk = &r.Relationships[i]
		}
	}
	if fk == nil || fk.ConstraintName != "fk_orders_customer" || fk.OnDelete != "CASCADE" || fk.OnUpdate != "NO ACTION" {
		t.Errorf("orders → customers = %+v, want fk_orders_customer ON DELETE CASCADE ON UPDATE NO ACTION", fk)
	}
	view := tables["open_orders"]
	if view.Definition != `SELECT o.id, c.name FROM orders AS o JOIN customers AS c ON c.id = o.customer_id WHERE o.status <> 'shipped'` ||
		!reflect.DeepEqual(view.Reads, []string{"customers", "orders"}) || view.UserComment != "Orders not shipped yet." {
		t.Errorf("open_orders: definition %q, reads %q, team's comment %q", view.Definition, view.Reads, view.UserComment)
	}

	page, err := os.ReadFile(filepath.Join(out, "tables", "orders.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- Description (the team's, discover.yaml): One row per customer order, written by the shop.\n",
		"| Column | Type | Nullable | Default | Generated | References | Null % |",
		"| customer_id | INTEGER | no |  |  | [customers](customers.md) (id) | 0.0% |",
		"| status | TEXT | no | 'new' |  |  | 0.0% |",
		"| total | REAL | yes |  | stored: qty \\* price |  |",
		"Lifecycle: new → paid → shipped. |\n",
		"## Constraints\n\n- Foreign key fk_orders_customer (customer_id) → customers (id), ON DELETE CASCADE, ON UPDATE NO ACTION\n- Check: qty \\> 0\n",
		"- orders_open (customer_id), where status \\<\\> 'shipped'\n",
		"## Triggers\n\n- orders_shipped: AFTER UPDATE\n\n```sql\nCREATE TRIGGER orders_shipped AFTER UPDATE OF status ON orders BEGIN SELECT 1; END\n```\n",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("tables/orders.md lacks %q:\n%s", want, page)
		}
	}
	viewPage, err := os.ReadFile(filepath.Join(out, "tables", "open_orders.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "## Definition\n\n```sql\nSELECT o.id, c.name FROM orders AS o JOIN customers AS c ON c.id = o.customer_id WHERE o.status <> 'shipped'\n```\n\nReads: [customers](customers.md), [orders](orders.md)\n"; !strings.Contains(string(viewPage), want) {
		t.Errorf("tables/open_orders.md lacks %q:\n%s", want, viewPage)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	// report.md stays short: a table's descriptions in one line, no
	// column's.
	if n := strings.Count(string(md), "Description (the team's, discover.yaml): One row per customer order, written by the shop."); n != 1 {
		t.Errorf("report.md has the orders table's description %d times, want once", n)
	}
	if strings.Contains(string(md), "Lifecycle") {
		t.Error("report.md holds a column's description; its table's page has those")
	}
	page, err = os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h5>Triggers</h5>", "<li>Check: qty &gt; 0</li>", `<dd class="comment">One row per customer order, written by the shop.</dd>`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}

	// MCP's describe_table: the engine's structure and the team's words.
	resp, mres := mcpSession(t, []string{"--db", db, "--catalog", filepath.Join(out, "catalog.db")},
		call(1, "describe_table", map[string]any{"table": "orders"}))
	if mres.code != 0 {
		t.Fatalf("mcp: exit %d\n%s", mres.code, mres.stderr)
	}
	text, isErr := toolText(t, resp["1"])
	var described struct {
		Checks   []map[string]any `json:"checks"`
		Triggers []map[string]any `json:"triggers"`
		Indexes  []map[string]any `json:"indexes"`
		Findings []struct {
			Kind     string         `json:"kind"`
			Document map[string]any `json:"document"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(text), &described); err != nil || isErr {
		t.Fatalf("describe_table: %v %s", err, text)
	}
	team := ""
	for _, f := range described.Findings {
		if f.Kind == "table" {
			team, _ = f.Document["user_comment"].(string)
		}
	}
	if len(described.Checks) != 1 || described.Checks[0]["expression"] != "qty > 0" || len(described.Triggers) != 1 ||
		len(described.Indexes) != 1 || described.Indexes[0]["predicate"] != "status <> 'shipped'" ||
		team != "One row per customer order, written by the shop." {
		t.Errorf("describe_table orders lacks the declared structure or the team's description:\n%.2000s", text)
	}

	// A default and a check changed, nothing else: schema drift naming both.
	changed := structureDB(t, "'paid'", "qty >= 1")
	out2 := t.TempDir()
	if res := run(t, "--db", changed, "--out", out2, "--config", cfg, "-q"); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	res := run(t, "diff", filepath.Join(out, "report.json"), filepath.Join(out2, "report.json"))
	want := "drift: 3 changes\n\nschema:\n" +
		"  + orders check added: qty >= 1\n" +
		"  - orders check removed (was qty > 0)\n" +
		"  ~ orders.status default changed from \"'new'\" to \"'paid'\"\n"
	if res.code != exitDrift || res.stdout != want {
		t.Errorf("diff: exit %d\n%s\nwant exit 3 and\n%s%s", res.code, res.stdout, want, res.stderr)
	}

	// The team's description edited: listed, no drift.
	cfg2 := writeConfig(t, strings.Replace(structureConfig, "Orders not shipped yet.", "Orders to ship.", 1))
	out3 := t.TempDir()
	if res := run(t, "--db", db, "--out", out3, "--config", cfg2, "-q"); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	res = run(t, "diff", "--json", filepath.Join(out, "report.json"), filepath.Join(out3, "report.json"))
	var d report.DiffResult
	if err := json.Unmarshal([]byte(res.stdout), &d); err != nil || res.code != 0 || d.Drift || len(d.Changes) != 1 ||
		d.Changes[0].Category != report.CategoryDescriptions || d.Changes[0].Object != "open_orders" {
		t.Errorf("a description edited: exit %d, %v\n%s", res.code, err, res.stdout)
	}
	// A re-run into the same catalog with the description edited does not
	// take the last run's table entries, which hold the old one.
	if res := run(t, "--db", db, "--out", out, "--config", cfg2, "-q"); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	_, again := readReport(t, out)
	for _, tb := range again.Tables {
		if tb.Name == "open_orders" && tb.UserComment != "Orders to ship." {
			t.Errorf("re-run with an edited description: %q, want %q", tb.UserComment, "Orders to ship.")
		}
	}
	if again.Run.Reused != nil {
		t.Errorf("a re-run with other descriptions reused run %s", again.Run.Reused.FromRun)
	}
}

// comments: naming nothing, or not a description, is exit 2 with the
// file's line, as relations: are.
func TestConfigCommentsErrors(t *testing.T) {
	db := smallDB(t)
	cases := []struct{ body, want string }{
		{"comments:\n  shipments: a\n  ghost: b\n", `:3: comments: no table, view or column "ghost" in the database`},
		{"comments:\n  ghost.x: b\n", `:2: comments: no table "ghost" in the database`},
		{"comments:\n  shipments.wieght: a\n", `:2: comments: no column "wieght" in shipments (it has: id, cust_ref, weight)`},
		{"comments:\n  - shipments: a\n", `:2: comments: want a description per table or table.column (orders: "One row per order."), got a list`},
		{"comments:\n  shipments: [a, b]\n", ":2: comments: shipments: want a description in words, got a list"},
		{"comments:\n  shipments:\n", ":2: comments: shipments: want a description in words, got nothing"},
		{"comments:\n  shipments: a\n  shipments: b\n", ":3: comments: shipments: given twice (first on line 2)"},
	}
	for _, c := range cases {
		cfg := writeConfig(t, c.body)
		res := run(t, "--db", db, "--out", t.TempDir(), "--config", cfg)
		if want := "discover: " + cfg + c.want + "\n"; res.code != 2 || res.stderr != want {
			t.Errorf("config %q: exit %d, stderr %q, want exit 2 and %q", c.body, res.code, res.stderr, want)
		}
	}
}
