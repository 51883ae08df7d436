package mysql

import (
	"reflect"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// TestResultSources: the MySQL driver does not pass on a result column's
// original table and column, so a result's sources are read from the
// query's text as MySQL's lexer reads it: backticks, double-quoted
// strings, # comments.
func TestResultSources(t *testing.T) {
	q := "SELECT `p`.`last_name` AS `x`, \"literal\" AS y, CONCAT(p.first_name, ' ', p.last_name) z # who\nFROM `hr`.`people` AS p"
	got := warehouse.ResultSources(Grammar, q, &warehouse.Result{Columns: []string{"x", "y", "z"}})
	want := [][]string{{"people.last_name"}, nil, {"people.first_name", "people.last_name"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
