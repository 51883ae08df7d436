package warehouse_test

import (
	"encoding/json"
	"testing"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/connect"
)

// FromNames finds the names a query reads, not its columns, aliases,
// subqueries or table functions.
func TestFromNames(t *testing.T) {
	d, err := connect.DialectFor("duckdb")
	if err != nil {
		t.Fatal(err)
	}
	got, err := warehouse.FromNames(d.Grammar(),
		`SELECT a.x, (SELECT max(y) FROM s.b) FROM a AS t JOIN "Q ""x""" ON a.x = 1, c
		LEFT JOIN read_csv('f.csv') r ON true, (SELECT 1 FROM d) WHERE x IN (SELECT z FROM e, f) UNION SELECT 1 FROM g.h.i`)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"s", "b"}, {"a"}, {`Q "x"`}, {"c"}, {"d"}, {"e"}, {"f"}, {"g", "h", "i"}}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("FromNames = %s, want %s", g, w)
	}
}

// Trino keeps a view's query reformatted, its joins in parentheses: the
// names inside a join group are read, a subquery's on its own.
func TestFromNamesJoinGroups(t *testing.T) {
	d, err := connect.DialectFor("trino")
	if err != nil {
		t.Fatal(err)
	}
	got, err := warehouse.FromNames(d.Grammar(), "SELECT\n  o.customer_id\n, sum(o.amount) total\nFROM\n  (orders o\n"+
		"INNER JOIN hive.Sales.\"customers\" c ON (c.customer_id = o.customer_id))\nWHERE (o.status IN (SELECT status\nFROM\n  hr.employees\n))\n"+
		"GROUP BY o.customer_id\n UNION SELECT 1 FROM ((a JOIN b ON (a.x = b.x)) JOIN (SELECT 1 FROM c) s ON true), (VALUES 1) v(x)")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"orders"}, {"hive", "Sales", "customers"}, {"hr", "employees"}, {"a"}, {"b"}, {"c"}}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("FromNames = %s, want %s", g, w)
	}
}
