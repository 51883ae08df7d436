package query_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/query"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// TestBridgeManyToMany: a bridge table is many-to-many only when both
// sides have rows with more than one partner. Enrolments link students and
// courses both ways; desk_assignments give each employee one desk, so that
// bridge is refuted: a one-to-many in disguise.
func TestBridgeManyToMany(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bridges.db")
	stmts := []string{
		`CREATE TABLE students (id INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE courses (id INTEGER PRIMARY KEY, title TEXT)`,
		`CREATE TABLE enrolments (student_id INTEGER NOT NULL REFERENCES students(id), course_id INTEGER NOT NULL REFERENCES courses(id),
			PRIMARY KEY (student_id, course_id))`,
		`CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE desks (id INTEGER PRIMARY KEY, floor INTEGER)`,
		`CREATE TABLE desk_assignments (employee_id INTEGER NOT NULL REFERENCES employees(id), desk_id INTEGER NOT NULL REFERENCES desks(id),
			PRIMARY KEY (employee_id, desk_id))`,
	}
	for i := 1; i <= 40; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO students VALUES (%d, 's%d')`, i, i),
			fmt.Sprintf(`INSERT INTO employees VALUES (%d, 'e%d')`, i, i),
			fmt.Sprintf(`INSERT INTO desk_assignments VALUES (%d, %d)`, i, 1+i%10))
		for k := 0; k < 1+i%3; k++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO enrolments VALUES (%d, %d)`, i, 1+(i+k*7)%12))
		}
	}
	for i := 1; i <= 12; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO courses VALUES (%d, 'c%d')`, i, i))
	}
	for i := 1; i <= 10; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO desks VALUES (%d, %d)`, i, i%3))
	}
	expertstest.SQLite(t, path, stmts...)
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat := expertstest.Catalog(t)
	h := &harness{src: src, cat: cat}
	xs := []experts.Expert{structural.New(), relations.New(), statistical.New(), query.New()}
	for i := 0; i < 6 && len(h.round(t, xs...)) > 0; i++ {
	}
	es, err := cat.Kind(ctx, catalog.KindHypothesis, "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range es {
		var d catalog.HypothesisDoc
		if err := e.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(d.Statement, "many-to-many") {
			got[strings.Fields(d.Statement)[0]] = d.Status
		}
	}
	if fmt.Sprint(got) != "map[desk_assignments:refuted enrolments:confirmed]" {
		t.Fatalf("many-to-many claims %v, want enrolments confirmed and desk_assignments refuted", got)
	}
	m2m, err := cat.Kind(ctx, catalog.KindInsight, "relationship:m2m:")
	if err != nil || len(m2m) != 1 {
		t.Fatalf("many-to-many insights %v (%v), want the enrolments one", m2m, err)
	}
	var ins catalog.InsightDoc
	m2m[0].Decode(&ins)
	// Each student takes one to three courses.
	if d := ins.Description; !strings.Contains(d, "many courses (at most 3)") || !strings.Contains(d, "many students") ||
		!strings.HasSuffix(d, "many-to-many.") {
		t.Errorf("insight: %s", ins.Description)
	}
}
