package main

import (
	"sort"
	"strings"
	"testing"

	"github.com/discover-db/discover/report"
)

// uniqueSchema has columns the rules expert asks to be unique in
// practice, several in one table, so that its one aggregate counts the
// distinct values of each; one of them holds a value twice.
const uniqueSchema = `
CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT, code TEXT, login TEXT, phone TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 80)
INSERT INTO accounts SELECT i, 'user' || i || '@example.com',
	CASE WHEN i = 80 THEN 'AC-0001' ELSE printf('AC-%04d', i) END,
	'login_' || i, printf('+44 20 7946 %04d', i)
FROM n;
`

// TestSparkRulesDistinct: on Spark the rules expert counts distinct values
// with the dialect's exact count, not COUNT(DISTINCT) (Spark expands every
// row once per COUNT(DISTINCT) of a statement), and its verdicts and
// figures are SQLite's for the same rows.
func TestSparkRulesDistinct(t *testing.T) {
	want, got := sparkBesideSQLite(t, uniqueSchema, "rules")
	unique := func(r report.Report) (map[string]report.Hypothesis, []string) {
		m := map[string]report.Hypothesis{}
		var ids []string
		for _, h := range r.Hypotheses {
			if h.Expert == "rules" && strings.Contains(h.Statement, "is unique in practice") {
				m[h.ID] = h
				ids = append(ids, h.ID)
			}
		}
		sort.Strings(ids)
		return m, ids
	}
	wm, wids := unique(want)
	gm, gids := unique(got)
	if len(wids) < 2 {
		t.Fatalf("SQLite: %d unique claims (%v), want several in one statement", len(wids), wids)
	}
	if strings.Join(gids, " ") != strings.Join(wids, " ") {
		t.Fatalf("unique claims on Spark %v, on SQLite %v", gids, wids)
	}
	if !strings.Contains(strings.ToUpper(wm[wids[0]].TestSQL), "COUNT(DISTINCT") {
		t.Errorf("SQLite's statement counts otherwise than by COUNT(DISTINCT): %s", wm[wids[0]].TestSQL)
	}
	refuted := 0
	for _, id := range gids {
		g, w := gm[id], wm[id]
		if strings.Contains(strings.ToUpper(strings.Join(strings.Fields(g.TestSQL), "")), "COUNT(DISTINCT") {
			t.Errorf("%s: Spark was sent COUNT(DISTINCT): %s", id, g.TestSQL)
		}
		if !strings.Contains(g.TestSQL, "size(collect_set(") {
			t.Errorf("%s: not the dialect's exact count: %s", id, g.TestSQL)
		}
		if g.Status != w.Status || strings.Join(g.Evidence, " | ") != strings.Join(w.Evidence, " | ") {
			t.Errorf("%s: on Spark %s %q, on SQLite %s %q", id, g.Status, g.Evidence, w.Status, w.Evidence)
		}
		if g.Status == "refuted" {
			refuted++
		}
	}
	if refuted != 1 {
		t.Errorf("%d unique claims refuted on Spark, want 1 (accounts.code holds AC-0001 twice)", refuted)
	}
}
