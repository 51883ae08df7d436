package main

import (
	"database/sql"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/report"
)

type declaredFK struct {
	child, fcols, parent, tcols, status string
	orphans, nonNull                    int64
}

func readTSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	r.LazyQuotes = true
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows[1:]
}

// TestAllDatasets runs the whole discovery on every SQLite database in
// shared/datasets and checks the report against the ground truth: every
// declared FK (FK_CHECK.tsv) reported as declared, with the orphan fraction
// the data shows; the declared primary keys; exact row counts; the
// outcome (complete, exit 0, unless views of the file do not compile in
// SQLite itself, as two of sakila's do: then incomplete, exit 4, naming
// exactly those); and the database file unchanged. -short, and the race
// detector (which makes the pure-Go SQLite ~20x slower; .ci/run also runs
// this test without it), keep only the three named databases.
func TestAllDatasets(t *testing.T) {
	root := findDatasets(t)
	fks := map[string][]declaredFK{}
	for _, row := range readTSV(t, filepath.Join(root, "FK_CHECK.tsv")) {
		o, _ := strconv.ParseInt(row[6], 10, 64)
		n, _ := strconv.ParseInt(row[7], 10, 64)
		fks[row[0]] = append(fks[row[0]], declaredFK{row[1], row[2], row[3], row[4], row[5], o, n})
	}
	manifest := readTSV(t, filepath.Join(root, "MANIFEST.tsv"))
	if len(manifest) < 150 {
		t.Fatalf("MANIFEST.tsv lists %d databases", len(manifest))
	}
	for _, m := range manifest {
		name, rel := m[0], m[1]
		if heavy.Reduced() && strings.HasPrefix(name, "spider/") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(root, rel)
			before := sha(t, path)
			out := t.TempDir()
			res := run(t, "--db", path, "--out", out, "--format", "json", "--progress", "none", "-q")
			broken := brokenViews(t, path)
			if want := completeOr(broken); res.code != want {
				t.Fatalf("exit %d, want %d (views that do not compile: %q): %s", res.code, want, broken, res.stderr)
			}
			if sha(t, path) != before {
				t.Fatal("the database file changed")
			}
			if _, err := os.Stat(path + "-wal"); err == nil {
				t.Fatal("a -wal file appeared beside the database")
			}
			_, r := readReport(t, out)
			checkUnreadViews(t, r, broken)
			checkFKs(t, r, fks[name])
			checkKeysAndCounts(t, path, r)
		})
	}
}

// brokenViews lists the views of the SQLite file at path that SQLite
// itself cannot read: a SELECT from them does not compile.
func brokenViews(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_schema WHERE type = 'view' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var views []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		views = append(views, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	var broken []string
	for _, v := range views {
		r, err := db.Query(`SELECT * FROM "` + strings.ReplaceAll(v, `"`, `""`) + `" LIMIT 0`)
		if err != nil {
			broken = append(broken, v)
			continue
		}
		r.Close()
	}
	return broken
}

func fkKey(child, fcols, parent, tcols string) string {
	return strings.ToLower(child + "(" + fcols + ")->" + parent + "(" + tcols + ")")
}

func checkFKs(t *testing.T, r report.Report, want []declaredFK) {
	t.Helper()
	got := map[string]report.Relationship{}
	for _, rel := range r.Relationships {
		if rel.Source == "declared" {
			got[fkKey(rel.FromTable, strings.Join(rel.FromColumns, ","), rel.ToTable, strings.Join(rel.ToColumns, ","))] = rel
		}
	}
	distinct := map[string]bool{} // a schema may declare the same FK twice; it is one relationship
	for _, fk := range want {
		k := fkKey(fk.child, fk.fcols, fk.parent, fk.tcols)
		distinct[k] = true
		rel, ok := got[k]
		if !ok {
			t.Errorf("declared FK %s not reported as declared", k)
			continue
		}
		switch fk.status {
		case "HOLDS", "ORPHANS":
			wantFrac := float64(fk.orphans) / float64(fk.nonNull)
			if rel.OrphanFraction == nil || math.Abs(*rel.OrphanFraction-wantFrac) > 1e-9 {
				t.Errorf("%s: orphan fraction %v, want %d/%d", k, deref(rel.OrphanFraction), fk.orphans, fk.nonNull)
			}
			if fk.status == "HOLDS" && rel.Confidence != 1 {
				t.Errorf("%s holds in the data but has confidence %v", k, rel.Confidence)
			}
			if fk.status == "ORPHANS" && rel.Confidence >= 0.9 {
				t.Errorf("%s has orphans but confidence %v", k, rel.Confidence)
			}
		case "EMPTY", "BROKEN":
			if rel.OrphanFraction != nil {
				t.Errorf("%s (%s) cannot be checked, yet orphan fraction %v", k, fk.status, *rel.OrphanFraction)
			}
		}
	}
	if len(got) != len(distinct) {
		t.Errorf("%d declared relationships reported, FK_CHECK.tsv has %d", len(got), len(distinct))
	}
}

func deref(f *float64) string {
	if f == nil {
		return "null"
	}
	return fmt.Sprint(*f)
}

func checkKeysAndCounts(t *testing.T, path string, r report.Report) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tb := range r.Tables {
		if tb.Kind != "table" {
			continue
		}
		var n int64
		if err := db.QueryRow(`SELECT count(*) FROM "` + strings.ReplaceAll(tb.Name, `"`, `""`) + `"`).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", tb.Name, err)
		}
		if tb.RowCount == nil || *tb.RowCount != n || tb.RowCountIsEstimate {
			t.Errorf("%s: row count %v (estimate %v), want exactly %d", tb.Name, tb.RowCount, tb.RowCountIsEstimate, n)
		}
		rows, err := db.Query(`SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk`, tb.Name)
		if err != nil {
			t.Fatal(err)
		}
		var pk []string
		for rows.Next() {
			var c string
			rows.Scan(&c)
			pk = append(pk, c)
		}
		rows.Close()
		if len(pk) > 0 {
			if strings.Join(tb.PrimaryKey, ",") != strings.Join(pk, ",") || tb.PrimaryKeySource == nil || *tb.PrimaryKeySource != "declared" {
				t.Errorf("%s: primary key %v (%v), want declared %v", tb.Name, tb.PrimaryKey, tb.PrimaryKeySource, pk)
			}
		} else if len(tb.PrimaryKey) > 0 && (tb.PrimaryKeySource == nil || *tb.PrimaryKeySource != "inferred") {
			t.Errorf("%s declares no key but reports %v as %v", tb.Name, tb.PrimaryKey, tb.PrimaryKeySource)
		}
	}
}
