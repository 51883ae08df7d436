package keys

import (
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

// TestKeyTestFallsBackToPair: a bridge whose references each repeat is
// tested for the two together, and only when their distinct counts can
// cover its rows; the test's ID names the columns, so the expert that
// waits for it finds the one the query expert saved.
func TestKeyTestFallsBackToPair(t *testing.T) {
	i64 := func(n int64) *int64 { return &n }
	f := func(v float64) *float64 { return &v }
	bridge := warehouse.Table{Name: warehouse.TableName{Name: "enrolment"}, Kind: "table", Columns: []warehouse.Column{
		{Name: "student_id", Position: 1}, {Name: "course_id", Position: 2}, {Name: "grade", Position: 3},
	}}
	profiles := []catalog.ProfileDoc{
		{Table: "enrolment", Column: "student_id", Rows: 20, DistinctCount: i64(5), NullFraction: f(0)},
		{Table: "enrolment", Column: "course_id", Rows: 20, DistinctCount: i64(4), NullFraction: f(0)},
		{Table: "enrolment", Column: "grade", Rows: 20, DistinctCount: i64(20), NullFraction: f(0)},
	}
	cols, ok := KeyTest(bridge, profiles)
	if !ok || len(cols) != 2 || cols[0] != "student_id" || cols[1] != "course_id" {
		t.Fatalf("KeyTest = %v %v, want [student_id course_id]", cols, ok)
	}
	if KeyTestID(bridge, cols) == KeyTestID(bridge, cols[:1]) {
		t.Fatal("the pair's test and one column's share an ID")
	}
	profiles[1].DistinctCount = i64(3) // 5×3 pairs cannot tell 20 rows apart
	if cols, ok := KeyTest(bridge, profiles); ok {
		t.Fatalf("KeyTest = %v, want none", cols)
	}
}
