package warehouse

import (
	"reflect"
	"testing"
)

// TestResultSources: a result's columns traced to the table columns they
// read, through aliases of columns and tables, expressions, subqueries,
// common table expressions and set operations; what the text does not
// trace has no source; the engine's own origins come first.
func TestResultSources(t *testing.T) {
	for _, c := range []struct {
		sql  string
		cols []string
		want [][]string
	}{
		{"SELECT last_name AS x FROM people", []string{"x"}, [][]string{{"people.last_name"}}},
		{"SELECT p.last_name x, id FROM public.people AS p", []string{"x", "id"}, [][]string{{"people.last_name"}, {"people.id"}}},
		{`SELECT "P"."Email" AS "c" FROM "People" "P"`, []string{"c"}, [][]string{{"people.email"}}},
		{"SELECT upper(first_name) || ' ' || last_name AS who, count(*) AS n FROM people GROUP BY 1",
			[]string{"who", "n"}, [][]string{{"people.first_name", "people.last_name"}, nil}},
		{"SELECT o.id, c.email AS contact FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.total > 3",
			[]string{"id", "contact"}, [][]string{{"orders.id"}, {"customers.email"}}},
		{"SELECT y FROM (SELECT last_name AS y FROM people) AS s", []string{"y"}, [][]string{{"people.last_name"}}},
		{"WITH p (a) AS (SELECT last_name FROM people) SELECT a AS z FROM p", []string{"z"}, [][]string{{"people.last_name"}}},
		{"WITH p AS (SELECT last_name AS ln FROM people) SELECT q.ln AS z FROM p q", []string{"z"}, [][]string{{"people.last_name"}}},
		{"SELECT CAST(phone AS varchar(20)) AS t FROM people", []string{"t"}, [][]string{{"people.phone"}}},
		{"SELECT name AS a FROM people UNION ALL SELECT title FROM books", []string{"a"}, [][]string{{"people.name", "books.title"}}},
		{"SELECT *, last_name AS x FROM people", []string{"id", "last_name", "x"}, [][]string{nil, nil, {"people.last_name"}}},
		{"SELECT 1 AS one", []string{"one"}, [][]string{nil}},
		{"not a query", []string{"a"}, [][]string{nil}},
	} {
		got := ResultSources(nil, c.sql, &Result{Columns: c.cols})
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.sql, got, c.want)
		}
	}
	res := &Result{Columns: []string{"x"}, Origins: []ColumnOrigin{{Table: TableName{Schema: "hr", Name: "Staff"}, Column: "surname"}}}
	if got := ResultSources(nil, "SELECT whatever AS x FROM v", res); !reflect.DeepEqual(got, [][]string{{"staff.surname"}}) {
		t.Errorf("the engine's origins: %q", got)
	}
}
