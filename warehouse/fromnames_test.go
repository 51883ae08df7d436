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
