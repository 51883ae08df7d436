package llm

import (
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/connect"
)

// dialectFor is the engine's dialect, as the command line finds it by name.
func dialectFor(t *testing.T, name string) warehouse.Dialect {
	t.Helper()
	d, err := connect.DialectFor(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// groundCase is one statement and what grounding must say of it: nil
// refusal (accepted) or an error containing refuse.
type groundCase struct {
	sql    string
	refuse string // "" accepted
}

func groundAll(t *testing.T, dialect string, tables []warehouse.Table, cases []groundCase) {
	t.Helper()
	c := &Controller{Dialect: dialectFor(t, dialect), Tables: tables}
	for _, tc := range cases {
		err := c.Ground(tc.sql)
		switch {
		case tc.refuse == "" && err != nil:
			t.Errorf("%s: refused a right statement: %v\n  %s", dialect, err, tc.sql)
		case tc.refuse != "" && err == nil:
			t.Errorf("%s: accepted, want a refusal containing %q\n  %s", dialect, tc.refuse, tc.sql)
		case tc.refuse != "" && !strings.Contains(err.Error(), tc.refuse):
			t.Errorf("%s: refused with %q, want %q\n  %s", dialect, err, tc.refuse, tc.sql)
		}
	}
}

// Statements every engine reads alike: recursive CTEs with column lists,
// implicit and keyword-named aliases, derived tables, USING joins. Each is
// accepted when right, and a wrong name in it still refused.
var commonGround = []groundCase{
	// WITH RECURSIVE: the CTE's name and its column list.
	{`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT COUNT(*) AS violations FROM r`, ""},
	{`WITH RECURSIVE chain(id, depth) AS (SELECT customer_id, 0 FROM customers UNION ALL
	  SELECT o.customer_id, c.depth + 1 FROM orders o JOIN chain c ON o.customer_id = c.id WHERE c.depth < 3)
	  SELECT MAX(depth) AS deepest FROM chain`, ""},
	{`WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10), s AS (SELECT n FROM r) SELECT n FROM s`, ""},
	{`WITH t(k, cnt) AS (SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id) SELECT k FROM t WHERE cnt > 1`, ""},
	{`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT m FROM r`, `"m"`},
	{`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT COUNT(*) FROM q`, `no table "q"`},
	{`WITH t(k) AS (SELECT weight FROM orders) SELECT k FROM t`, `"weight"`},
	// Implicit aliases (no AS), used later in the statement.
	{`SELECT COUNT(*) n FROM orders ORDER BY n`, ""},
	{`SELECT status s, COUNT(*) n FROM orders GROUP BY status ORDER BY n DESC`, ""},
	{`SELECT o.status st, o.total t2 FROM orders o ORDER BY st, t2`, ""},
	{`SELECT CASE WHEN total > 0 THEN 1 ELSE 0 END pos FROM orders ORDER BY pos`, ""},
	{`SELECT COUNT(*) n FROM orders ORDER BY nn`, `"nn"`},
	{`SELECT status s FROM orders WHERE weight > 0`, `"weight"`},
	{`SELECT status, weight FROM orders`, `"weight"`},
	{`SELECT weight FROM orders`, `"weight"`},
	// Derived tables and their aliases.
	{`SELECT d.total FROM (SELECT SUM(total) AS total FROM orders) d`, ""},
	{`SELECT d.n FROM (SELECT COUNT(*) n FROM orders) AS d WHERE d.n > 0`, ""},
	{`SELECT n FROM (SELECT customer_id, COUNT(*) n FROM orders GROUP BY customer_id) per WHERE n > 1`, ""},
	{`SELECT COUNT(*) FROM (SELECT order_id FROM orders WHERE weight > 0) d`, `"weight"`},
	{`SELECT x.order_id FROM (SELECT order_id FROM orders) d`, `"x" is not a table or alias`},
	// USING joins.
	{`SELECT customer_id, COUNT(*) AS n FROM orders JOIN customers USING (customer_id) GROUP BY customer_id`, ""},
	{`SELECT COUNT(*) AS n FROM orders LEFT JOIN customers USING (customer_id) WHERE name IS NULL`, ""},
	{`SELECT COUNT(*) AS n FROM orders o JOIN order_lines l USING (order_id) JOIN customers c USING (customer_id)`, ""},
	{`SELECT COUNT(*) AS n FROM orders JOIN customers USING (weight)`, `"weight"`},
}

// Aliases named like keywords, quoted as the engine quotes identifiers.
func keywordAliases(q func(string) string) []groundCase {
	return []groundCase{
		{`SELECT status AS ` + q("select") + ` FROM orders ORDER BY ` + q("select"), ""},
		{`SELECT COUNT(*) AS ` + q("from") + `, MAX(total) AS ` + q("order") + ` FROM orders`, ""},
		{`SELECT COUNT(*) ` + q("order") + ` FROM orders ORDER BY ` + q("order"), ""},
		{`SELECT COUNT(*) ` + q("group") + `, status FROM orders GROUP BY status ORDER BY ` + q("group") + ` DESC`, ""},
		{`SELECT status AS ` + q("select") + ` FROM orders ORDER BY ` + q("selct"), `selct`},
	}
}

func ansi(s string) string     { return `"` + s + `"` }
func backtick(s string) string { return "`" + s + "`" }

func groundTables() []warehouse.Table {
	t := shopTables()
	col := func(names ...string) []warehouse.Column {
		var out []warehouse.Column
		for i, n := range names {
			out = append(out, warehouse.Column{Name: n, Position: i + 1})
		}
		return out
	}
	return append(t, warehouse.Table{Name: warehouse.TableName{Name: "order_lines"}, Kind: "table", Columns: col("order_id", "product", "qty")})
}

func TestGroundSQLite(t *testing.T) {
	cases := append(append([]groundCase{}, commonGround...), keywordAliases(ansi)...)
	cases = append(cases, keywordAliases(backtick)...)
	cases = append(cases, []groundCase{
		// The read-only pragma functions, with their own columns; the table
		// named in the argument must exist.
		{`SELECT name FROM pragma_table_info('orders')`, ""},
		{`SELECT name, type, pk FROM pragma_table_info('Order Lines') WHERE pk > 0 ORDER BY cid`, ""},
		{`SELECT p.name, p."notnull", p.dflt_value FROM pragma_table_info('orders') AS p`, ""},
		{`SELECT name, hidden FROM pragma_table_xinfo('orders')`, ""},
		{`SELECT "table", "from", "to", on_delete FROM pragma_foreign_key_list('orders')`, ""},
		{`SELECT name, "unique", origin FROM pragma_index_list('orders')`, ""},
		{`SELECT seqno, name FROM pragma_index_info('sqlite_autoindex_orders_1')`, ""},
		{`SELECT COUNT(*) AS n FROM orders o WHERE EXISTS (SELECT 1 FROM pragma_table_info('orders') p WHERE p.name = 'status')`, ""},
		{`SELECT nam FROM pragma_table_info('orders')`, `"nam"`},
		{`SELECT p.nam FROM pragma_table_info('orders') p`, `"nam"`},
		{`SELECT name FROM pragma_table_info('shipments')`, `"shipments"`},
		{`SELECT key, value FROM json_each('[1, 2]')`, ""},
		{`SELECT j.value FROM orders o, json_each(o.status) j WHERE j.type = 'text'`, ""},
		// SQLite compares names case-insensitively, quoted or not.
		{`SELECT STATUS FROM ORDERS`, ""},
		{`SELECT "Status" FROM "Orders"`, ""},
	}...)
	groundAll(t, "sqlite", groundTables(), cases)
}

func TestGroundDuckDB(t *testing.T) {
	cases := append(append([]groundCase{}, commonGround...), keywordAliases(ansi)...)
	cases = append(cases, []groundCase{
		{`SELECT x.a FROM (SELECT order_id, status FROM orders) AS x(a, b)`, ""},
		{`SELECT x.c FROM (SELECT order_id, status FROM orders) AS x(a, b)`, `"c"`},
		// FROM first.
		{`FROM orders SELECT status, COUNT(*) AS n GROUP BY status`, ""},
		{`FROM orders`, ""},
		{`FROM orders o SELECT o.status WHERE o.total > 0`, ""},
		{`FROM orders SELECT weight`, `"weight"`},
		{`FROM shipments SELECT 1`, `no table "shipments"`},
		// PIVOT / UNPIVOT, both forms: the outputs are named by data (PIVOT)
		// or by the statement (UNPIVOT's NAME and VALUE); the inputs must exist.
		{`PIVOT orders ON status USING COUNT(*)`, ""},
		{`PIVOT orders ON status USING SUM(total) GROUP BY customer_id`, ""},
		{`PIVOT orders ON status USING SUM(total) AS total_sum, COUNT(*) AS cnt GROUP BY customer_id ORDER BY customer_id`, ""},
		{`SELECT * FROM (PIVOT orders ON status USING COUNT(*)) p`, ""},
		{`WITH p AS (PIVOT orders ON status USING COUNT(*) GROUP BY customer_id) SELECT p.customer_id, p.shipped FROM p`, ""},
		// Outside a PIVOT whose outputs the data names, a bare name may be
		// one; with IN ( … ) the values name them, and others are refused.
		{`SELECT shipped FROM (PIVOT orders ON status USING COUNT(*)) p`, ""},
		{`SELECT shipped, "open" FROM (PIVOT orders ON status IN ('shipped', 'open') USING COUNT(*)) p`, ""},
		{`SELECT lost FROM (PIVOT orders ON status IN ('shipped', 'open') USING COUNT(*)) p`, `"lost"`},
		{`PIVOT shipments ON status USING COUNT(*)`, `no table "shipments"`},
		{`PIVOT orders ON weight USING COUNT(*)`, `"weight"`},
		{`PIVOT orders ON status USING SUM(weight)`, `"weight"`},
		{`UNPIVOT orders ON total, shipped_at INTO NAME field VALUE val`, ""},
		{`SELECT field, COUNT(*) AS n FROM (UNPIVOT orders ON total INTO NAME field VALUE val) GROUP BY field ORDER BY n`, ""},
		{`UNPIVOT orders ON COLUMNS(* EXCLUDE (order_id, customer_id)) INTO NAME field VALUE val`, ""},
		{`UNPIVOT orders ON weight INTO NAME field VALUE val`, `"weight"`},
		{`SELECT fld FROM (UNPIVOT orders ON total INTO NAME field VALUE val)`, `"fld"`},
		{`SELECT * FROM orders PIVOT (SUM(total) FOR status IN ('open', 'shipped') GROUP BY customer_id)`, ""},
		{`SELECT * FROM orders UNPIVOT (val FOR field IN (total, order_id))`, ""},
		{`SELECT field, val FROM orders UNPIVOT (val FOR field IN (total, order_id)) u`, ""},
		{`SELECT * FROM orders UNPIVOT (val FOR field IN (total, weight))`, `"weight"`},
		// DuckDB compares names case-insensitively, quoted or not.
		{`SELECT STATUS FROM "ORDERS"`, ""},
		// LATERAL joins.
		{`SELECT c.name, l.n FROM customers c, LATERAL (SELECT COUNT(*) AS n FROM orders o WHERE o.customer_id = c.customer_id) AS l`, ""},
	}...)
	groundAll(t, "duckdb", groundTables(), cases)
}

// caseTables are PostgreSQL's (and MariaDB's) tables whose names differ
// only in case: "Users" and users are two tables.
func caseTables() []warehouse.Table {
	col := func(names ...string) []warehouse.Column {
		var out []warehouse.Column
		for i, n := range names {
			out = append(out, warehouse.Column{Name: n, Position: i + 1})
		}
		return out
	}
	return append(groundTables(),
		warehouse.Table{Name: warehouse.TableName{Name: "Users"}, Kind: "table", Columns: col("id", "Name", "user_id")},
		warehouse.Table{Name: warehouse.TableName{Name: "users"}, Kind: "table", Columns: col("id", "email")},
	)
}

func TestGroundPostgres(t *testing.T) {
	cases := append(append([]groundCase{}, commonGround...), keywordAliases(ansi)...)
	cases = append(cases, []groundCase{
		{`SELECT x.a FROM (SELECT order_id, status FROM orders) AS x(a, b)`, ""},
		// LATERAL joins: comma, CROSS JOIN and LEFT JOIN … ON true.
		{`SELECT c.name, l.n FROM customers c CROSS JOIN LATERAL (SELECT COUNT(*) AS n FROM orders o WHERE o.customer_id = c.customer_id) l`, ""},
		{`SELECT c.name, l.n FROM customers c, LATERAL (SELECT COUNT(*) AS n FROM orders o WHERE o.customer_id = c.customer_id) AS l`, ""},
		{`SELECT c.name, l.latest FROM customers c LEFT JOIN LATERAL (SELECT MAX(shipped_at) AS latest FROM orders o WHERE o.customer_id = c.customer_id) l ON true`, ""},
		{`SELECT c.name, l.n FROM customers c CROSS JOIN LATERAL (SELECT COUNT(*) AS n FROM orders o WHERE o.weight > 0) l`, `"weight"`},
		{`SELECT COUNT(*) FROM orders CROSS JOIN customers`, `CROSS JOIN`},
		// Set-returning functions and their column aliases.
		{`SELECT g FROM generate_series(1, 3) AS g`, ""},
		{`SELECT g.g FROM generate_series(1, 3) g`, ""},
		{`SELECT g.h FROM generate_series(1, 3) g`, `"h"`},
		{`SELECT e.value FROM orders o, LATERAL jsonb_array_elements(o.status::jsonb) AS e`, ""},
		{`SELECT e.val FROM orders o, LATERAL jsonb_array_elements(o.status::jsonb) AS e`, `"val"`},
		{`SELECT t.x FROM unnest(ARRAY[1, 2]) AS t(x)`, ""},
		{`SELECT e.value FROM orders o, LATERAL jsonb_array_elements(o.status::jsonb) AS e(value)`, ""},
		// Names as PostgreSQL resolves them: unquoted folded to lower case,
		// quoted exactly. "Users" and users are two tables.
		{`SELECT "Name", user_id FROM "Users"`, ""},
		{`SELECT email FROM users`, ""},
		{`SELECT EMAIL FROM USERS`, ""},
		{`SELECT u.email FROM Users u`, ""},
		{`SELECT "Users".id FROM "Users"`, ""},
		{`SELECT COUNT(*) AS n FROM "Users" a JOIN users b ON a.user_id = b.id`, ""},
		{`SELECT email FROM "Users"`, `"email"`},
		{`SELECT u.email FROM "Users" u`, `"email"`},
		{`SELECT "Name" FROM users`, `"Name"`},
		{`SELECT Name FROM "Users"`, `"Name"`},
		{`SELECT Users.id FROM "Users"`, `"Users" is not a table or alias`},
		{`SELECT id FROM "USERS"`, `no table "USERS"`},
		{`SELECT "Status" FROM orders`, `"Status"`},
		{`SELECT u.Email FROM users u`, ""},
	}...)
	groundAll(t, "postgres", caseTables(), cases)
}

func TestGroundMySQL(t *testing.T) {
	cases := append(append([]groundCase{}, commonGround...), keywordAliases(backtick)...)
	cases = append(cases, []groundCase{
		// Table names are compared as the server does with
		// lower_case_table_names = 0 (Linux): exactly, and in another case
		// only when that is the one table meant; column names in any case.
		{"SELECT `Name`, user_id FROM `Users`", ""},
		{`SELECT Name FROM Users`, ""},
		{`SELECT EMAIL FROM users`, ""},
		{`SELECT email FROM Users`, `"email"`},
		{`SELECT id FROM USERS`, `"USERS"`},
		{`SELECT STATUS FROM ORDERS`, ""},
	}...)
	groundAll(t, "mysql", caseTables(), cases)
}

func TestGroundTrino(t *testing.T) {
	cases := append(append([]groundCase{}, commonGround...), keywordAliases(ansi)...)
	cases = append(cases, []groundCase{
		{`SELECT x.a FROM (SELECT order_id, status FROM orders) AS x(a, b)`, ""},
		{`SELECT c.name, l.n FROM customers c CROSS JOIN LATERAL (SELECT COUNT(*) AS n FROM orders o WHERE o.customer_id = c.customer_id) l`, ""},
		{`SELECT t.x FROM UNNEST(ARRAY[1, 2]) AS t(x)`, ""},
		{`SELECT STATUS FROM "ORDERS"`, ""},
	}...)
	groundAll(t, "trino", groundTables(), cases)
}
