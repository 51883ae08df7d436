package relations_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/discover-db/discover/internal/expertstest"
)

// TestInferLearnsActorNames: an invented workshop where every table says
// who changed a row last (changed_by) and one name names no table. The
// jobs' values, thirty mechanics among the staff, confirm the name against
// the staff; the tools and sites were each changed by the first member of
// staff only, a value any table numbered from 1 holds, and are linked to
// the staff because their column is spelled as the jobs' is. A column of
// another name with the same one value (a site's region) is linked to
// nothing.
func TestInferLearnsActorNames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "workshop.db")
	stmts := []string{
		`CREATE TABLE staff (staff_no INTEGER PRIMARY KEY, full_name TEXT, changed_by INTEGER)`,
		`CREATE TABLE tools (tool_id INTEGER PRIMARY KEY, label TEXT, changed_by INTEGER)`,
		`CREATE TABLE sites (site_id INTEGER PRIMARY KEY, city TEXT, region INTEGER, changed_by INTEGER)`,
		`CREATE TABLE jobs (job_id INTEGER PRIMARY KEY, tool_id INTEGER, site_id INTEGER, hours INTEGER, changed_by INTEGER)`,
	}
	for s := 1; s <= 400; s++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO staff VALUES (%d, 'mechanic %d', 1)`, s, s))
	}
	for i := 1; i <= 40; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO tools VALUES (%d, 'tool %d', 1)`, i, i))
	}
	for i := 1; i <= 12; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO sites VALUES (%d, 'city %d', 1, 1)`, i, i))
	}
	for j := 1; j <= 2000; j++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO jobs VALUES (%d, %d, %d, %d, %d)`, j, 1+(j*7)%40, 1+(j*5)%12, 1+j%9, 1+(j*13)%300))
	}
	expertstest.SQLite(t, path, stmts...)
	keys, _ := inferredKeys(t, runInference(t, path))
	wantKeys(t, keys, []string{
		"jobs(changed_by)->staff(staff_no)",
		"jobs(site_id)->sites(site_id)",
		"jobs(tool_id)->tools(tool_id)",
		"sites(changed_by)->staff(staff_no)",
		"staff(changed_by)->staff(staff_no)",
		"tools(changed_by)->staff(staff_no)",
	})
}

// TestInferActorsAreTheFirstPeople: an invented lake (nothing declared)
// whose tickets say who closed them: fifteen agents, the first fifteen of
// 2,000 people (staff are entered before the customers who follow). Values
// all in the low end of a key's range are a small number's, not a
// reference's, except in a column naming who did something: those are the
// few people who act, and the first.
func TestInferActorsAreTheFirstPeople(t *testing.T) {
	path := filepath.Join(t.TempDir(), "helpdesk.db")
	stmts := []string{
		`CREATE TABLE people (person_id INTEGER, full_name TEXT)`,
		`CREATE TABLE tickets (ticket_id INTEGER, person_id INTEGER, closed_by INTEGER, priority INTEGER)`,
	}
	for p := 1; p <= 2000; p++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO people VALUES (%d, 'person %d')`, p, p))
	}
	for i := 1; i <= 3000; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO tickets VALUES (%d, %d, %d, %d)`, i, 16+(i*37)%1985, 1+(i*7)%15, 1+i%5))
	}
	expertstest.SQLite(t, path, stmts...)
	keys, _ := inferredKeys(t, runInference(t, path))
	wantKeys(t, keys, []string{"tickets(closed_by)->people(person_id)", "tickets(person_id)->people(person_id)"})
}
