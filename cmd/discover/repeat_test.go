package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunsRepeatWithInferredKeys: four discoveries of the same SQLite
// database, whose tables declare no keys and no references, report the same
// tables, relationships, hypotheses, insights and recommendations. Within a
// round the experts' tasks run side by side: a table's description, its
// column rules and the query advice read the keys, orphan figures and
// cardinalities other tasks of the same round measure, and used to read
// them or not by which task finished first.
func TestRunsRepeatWithInferredKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "company.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{
		`CREATE TABLE department (id INTEGER, name TEXT, manager_id INTEGER)`,
		`CREATE TABLE employee (id INTEGER, name TEXT, department_id INTEGER, salary INTEGER)`,
		`CREATE TABLE project (id INTEGER, name TEXT, department_id INTEGER)`,
		`CREATE TABLE works_on (employee_id INTEGER, project_id INTEGER, hours REAL)`,
		`CREATE TABLE dept_locations (department_id INTEGER, location TEXT)`,
	}
	for d := 1; d <= 6; d++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO department VALUES (%d, 'dept %d', %d)`, d, d, 1000+d))
		for l := 1; l <= 1+d%3; l++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO dept_locations VALUES (%d, 'city %d')`, d, l))
		}
	}
	for e := 1; e <= 40; e++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO employee VALUES (%d, 'name %d', %d, %d)`, 1000+e, e, 1+e%6, 30000+e*750))
	}
	for p := 1; p <= 10; p++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO project VALUES (%d, 'project %d', %d)`, p, p, 1+p%6))
	}
	for e := 1; e <= 40; e++ {
		for k := 0; k < 2; k++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO works_on VALUES (%d, %d, %g)`, 1000+e, 1+(e+k*3)%10, float64(5+e%20)))
		}
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	var first string
	for i := range 4 {
		out := t.TempDir()
		res := run(t, "--db", path, "--out", out, "--format", "json", "--progress", "none", "-q")
		if res.code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+1, res.code, res.stderr)
		}
		_, r := readReport(t, out)
		b, err := json.MarshalIndent(struct {
			Tables, Relationships, Hypotheses, Insights, Recommendations any
		}{r.Tables, r.Relationships, r.Hypotheses, r.Insights, r.Recommendations}, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = string(b)
			inferred := 0
			for _, tb := range r.Tables {
				if len(tb.PrimaryKey) > 0 {
					inferred++
				}
			}
			if inferred < 3 || len(r.Relationships) < 3 || len(r.Recommendations) == 0 {
				t.Fatalf("%d inferred keys, %d relationships, %d recommendations: the test needs keys and references to infer",
					inferred, len(r.Relationships), len(r.Recommendations))
			}
			continue
		}
		if got := string(b); got != first {
			a, c := strings.Split(first, "\n"), strings.Split(got, "\n")
			for j := range min(len(a), len(c)) {
				if a[j] != c[j] {
					t.Fatalf("run %d's report differs from the first at line %d:\n  %s\n  %s", i+1, j+1, a[j], c[j])
				}
			}
			t.Fatalf("run %d's report differs from the first in length", i+1)
		}
	}
}
