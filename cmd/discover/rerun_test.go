package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/demo"
	"github.com/discover-db/discover/internal/load"
	"github.com/discover-db/discover/report"
)

// TestRerunReusesUnchangedDatabase: a second run into the same catalog on
// a database nothing changed in takes the first run's findings without a
// query through the experts: the same report.json but for the run and its
// sentence, the same report.md and tables/, the reuse said on stderr and in
// run.reused. A write to one table, other settings, and --full each make
// the next run a full one, and the first two say why.
func TestRerunReusesUnchangedDatabase(t *testing.T) {
	path := demoCopy(t)
	out := t.TempDir()
	discover := func(extra ...string) (result, map[string]any, []byte) {
		t.Helper()
		args := append([]string{"--db", path, "--out", out, "--progress", "none"}, extra...)
		res := run(t, args...)
		if res.code != 0 {
			t.Fatalf("%v: exit %d\n%s", extra, res.code, res.stderr)
		}
		raw, _ := readReport(t, out)
		md, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		return res, raw, md
	}
	runOf := func(raw map[string]any) map[string]any { return raw["run"].(map[string]any) }
	findings := func(raw map[string]any) string {
		t.Helper()
		c := map[string]any{}
		for k, v := range raw {
			if k != "run" && k != "summary" {
				c[k] = v
			}
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	start := time.Now()
	res1, raw1, md1 := discover()
	full := time.Since(start)
	docs1 := readTree(t, filepath.Join(out, "tables"))
	id1 := runOf(raw1)["id"].(string)
	if runOf(raw1)["reused"] != nil || runOf(raw1)["queries"].(float64) < 50 {
		t.Fatalf("first run: %v", runOf(raw1))
	}
	if strings.Contains(res1.stderr, "nothing changed") {
		t.Fatalf("first run claims a reuse:\n%s", res1.stderr)
	}

	start = time.Now()
	res2, raw2, md2 := discover()
	reused := time.Since(start)
	t.Logf("first run %s, the re-run on the unchanged file %s (%.1f%%)", full, reused, 100*reused.Seconds()/full.Seconds())
	r2 := runOf(raw2)
	if !strings.Contains(res2.stderr, "nothing changed since run "+id1) {
		t.Fatalf("the re-run does not say it reused %s:\n%s", id1, res2.stderr)
	}
	ru, _ := r2["reused"].(map[string]any)
	if ru == nil || ru["from_run"] != id1 || ru["tables"].(float64) != 13 || ru["entries"].(float64) < 300 || r2["queries"].(float64) != 0 {
		t.Fatalf("re-run: %v", r2)
	}
	if r2["iterations"] != runOf(raw1)["iterations"] || r2["stop_reason"] != runOf(raw1)["stop_reason"] {
		t.Fatalf("re-run's loop figures %v, the first run's %v", r2, runOf(raw1))
	}
	if findings(raw1) != findings(raw2) {
		t.Fatal("the re-run's findings differ from the first run's")
	}
	if !strings.Contains(raw2["summary"].(string), "Nothing these findings rest on had changed since run "+id1) {
		t.Fatalf("summary: %s", raw2["summary"])
	}
	if string(md1) != string(md2) {
		t.Fatal("report.md differs after a reuse")
	}
	if docs2 := readTree(t, filepath.Join(out, "tables")); !maps.Equal(docs1, docs2) {
		t.Fatal("tables/ differs after a reuse")
	}

	// Other settings: in full, and said.
	res3, raw3, _ := discover("--sample-rows", "5000")
	if runOf(raw3)["reused"] != nil || !strings.Contains(res3.stderr, "running in full: the settings differ") {
		t.Fatalf("with another --sample-rows: reused %v\n%s", runOf(raw3)["reused"], res3.stderr)
	}
	// The same settings as that run: reused again.
	if res, raw, _ := discover("--sample-rows", "5000"); runOf(raw)["reused"] == nil {
		t.Fatalf("the same settings twice: not reused\n%s", res.stderr)
	}
	// --full: in full.
	if res, raw, _ := discover("--sample-rows", "5000", "--full"); runOf(raw)["reused"] != nil || runOf(raw)["queries"].(float64) < 50 {
		t.Fatalf("--full reused: %v\n%s", runOf(raw), res.stderr)
	}

	// One row changed: in full, with the change found.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE customers SET email = 'changed@example.com' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	res4, raw4, _ := discover("--sample-rows", "5000")
	if runOf(raw4)["reused"] != nil || !strings.Contains(res4.stderr, "may have changed since the last run") {
		t.Fatalf("after an UPDATE: reused %v\n%s", runOf(raw4)["reused"], res4.stderr)
	}
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// demoParquet writes the demo's tables as a folder of Parquet files, one a
// table, as a lake would hold them.
func demoParquet(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	src, err := demo.Ensure(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "demo.duckdb")
	if err := load.Copy(ctx, src, "duckdb", file); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "shop")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT table_name FROM duckdb_tables() ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	rows.Close()
	for _, n := range names {
		if _, err := db.Exec(`COPY "` + n + `" TO '` + filepath.Join(dir, n+".parquet") + `' (FORMAT parquet)`); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRerunRedoesOnlyTheChangedTable: in a folder of Parquet files, where
// each file has its own change signal, rewriting one table's file makes
// the next run a full one in which only the statements that name that
// table are sent again; the others are answered by the results the last
// run kept. Its findings are those of a --full run into a fresh catalog.
func TestRerunRedoesOnlyTheChangedTable(t *testing.T) {
	dir := demoParquet(t)
	out := t.TempDir()
	discover := func(out string, extra ...string) (result, report.Report) {
		t.Helper()
		res := run(t, append([]string{"--db", "duckdb://" + dir, "--out", out, "--format", "json", "--progress", "none"}, extra...)...)
		if res.code != 0 {
			t.Fatalf("exit %d\n%s", res.code, res.stderr)
		}
		_, r := readReport(t, out)
		return res, r
	}
	_, first := discover(out)
	if first.Run.CachedQueries != 0 || first.Run.Queries < 50 {
		t.Fatalf("first run: %d queries, %d cached", first.Run.Queries, first.Run.CachedQueries)
	}

	// One review's rating changes; the file is written anew.
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "reviews.parquet")
	for _, q := range []string{
		`COPY (SELECT * REPLACE (CASE WHEN id = (SELECT min(id) FROM '` + file + `') THEN 6 - rating ELSE rating END AS rating) FROM '` + file + `') TO '` + file + `.new' (FORMAT parquet)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	if err := os.Rename(file+".new", file); err != nil {
		t.Fatal(err)
	}

	redoneOnly(t, discover, out, first, first)
}

// TestRerunOfDatabaseFileRedoesOnlyTheChangedTable: a SQLite or DuckDB
// database file has one change signal for all its tables, so a write
// anywhere made every table new to a re-run. A re-run that reads the data
// takes each table's content signal (a digest of its pages; DuckDB's
// row count and hash of its rows) instead: a file touched without a write
// is then reused, and a write to one table redoes that table only, with
// the findings of a full run on the same data.
func TestRerunOfDatabaseFileRedoesOnlyTheChangedTable(t *testing.T) {
	for _, engine := range []string{"sqlite", "duckdb"} {
		t.Run(engine, func(t *testing.T) {
			path := demoCopy(t)
			dsn := path
			if engine == "duckdb" {
				dsn = filepath.Join(t.TempDir(), "shop.duckdb")
				if err := load.Copy(context.Background(), path, "duckdb", dsn); err != nil {
					t.Fatal(err)
				}
				// DuckDB sums a view's floats on several threads, in no
				// fixed order: two profiles of order_totals (a sum per
				// order) differ in their last digits, whichever run
				// makes them. Kept as a table, its rows are fixed, and
				// the comparison below is of what the re-run takes and
				// redoes, not of that noise.
				db, err := sql.Open("duckdb", dsn)
				if err != nil {
					t.Fatal(err)
				}
				for _, q := range []string{`CREATE TABLE order_totals_rows AS SELECT * FROM order_totals`, `DROP VIEW order_totals`,
					`ALTER TABLE order_totals_rows RENAME TO order_totals`} {
					if _, err := db.Exec(q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
				if err := db.Close(); err != nil {
					t.Fatal(err)
				}
				path = dsn
			}
			rerunsOfFile(t, engine, path)
		})
	}
}

func rerunsOfFile(t *testing.T, engine, path string) {
	out := t.TempDir()
	discover := func(out string, extra ...string) (result, report.Report) {
		t.Helper()
		res := run(t, append([]string{"--db", path, "--out", out, "--format", "json", "--progress", "none"}, extra...)...)
		if res.code != 0 {
			t.Fatalf("exit %d\n%s", res.code, res.stderr)
		}
		_, r := readReport(t, out)
		return res, r
	}
	touch := func() {
		t.Helper()
		later := time.Now().Add(time.Duration(len(out)) * time.Second)
		if err := os.Chtimes(path, later, later); err != nil {
			t.Fatal(err)
		}
	}
	_, first := discover(out)

	// The file touched: the first run took no content signals, so this
	// one cannot tell, and runs in full; it takes them.
	touch()
	res, second := discover(out)
	if second.Run.Reused != nil || !strings.Contains(res.stderr, "running in full: the database file may have changed since the last run") {
		t.Fatalf("the touched file's first re-run: reused %v\n%s", second.Run.Reused, res.stderr)
	}
	// Touched again: every table's content is the same as that run's.
	time.Sleep(10 * time.Millisecond)
	touch()
	res, third := discover(out)
	if third.Run.Reused == nil || third.Run.Reused.FromRun != second.Run.ID || third.Run.Queries != 0 {
		t.Fatalf("the file touched, no table written: reused %v, %d queries\n%s", third.Run.Reused, third.Run.Queries, res.stderr)
	}

	// One review's rating changes.
	db, err := sql.Open(engine, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE reviews SET rating = 6 - rating WHERE id = (SELECT min(id) FROM reviews)`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	redoneOnly(t, discover, out, first, third)
}

// redoneOnly runs discover into out after one review's rating changed, and
// checks that the run says reviews changed, profiles reviews (and a view
// over it) only and takes the other profiles from the last run, sends a
// third of a full run's statements at most, answers the others from kept
// results, and finds what a full run into a fresh catalog finds (which is
// not what the first run found).
func redoneOnly(t *testing.T, discover func(out string, extra ...string) (result, report.Report), out string, first, last report.Report) {
	t.Helper()
	tables := len(first.Tables)
	res, again := discover(out)
	if !strings.Contains(res.stderr, "running in full: reviews may have changed since the last run") {
		t.Fatalf("stderr does not say reviews changed:\n%s", res.stderr)
	}
	// Only the changed table is profiled again: the others' profiles are
	// the last run's (the view over reviews too is profiled anew).
	profiled := -1
	if again.Run.Costs != nil {
		for _, e := range again.Run.Costs.Experts {
			if e.Expert == statistical.Name {
				profiled = e.Tasks
			}
		}
	}
	if want := "the profiles of " + strconv.Itoa(tables-profiled) + " unchanged tables are taken from run " + last.Run.ID; profiled < 1 || profiled > 2 || !strings.Contains(res.stderr, want) {
		t.Errorf("after reviews changed: %d profile tasks; stderr wants %q:\n%s", profiled, want, res.stderr)
	}
	_, fresh := discover(t.TempDir(), "--full")
	t.Logf("first run %d queries; after reviews changed %d sent and %d answered by kept results; a fresh full run %d",
		first.Run.Queries, again.Run.Queries, again.Run.CachedQueries, fresh.Run.Queries)
	if again.Run.Reused != nil || again.Run.CachedQueries == 0 || again.Run.Queries*3 > fresh.Run.Queries {
		t.Errorf("after one table changed: %d queries sent, %d answered by kept results (a full run sends %d)",
			again.Run.Queries, again.Run.CachedQueries, fresh.Run.Queries)
	}
	if findingsOf(t, first) == findingsOf(t, fresh) {
		t.Fatal("the changed rating shows in no finding: the comparison below would prove nothing")
	}
	if findingsOf(t, again) != findingsOf(t, fresh) {
		t.Error("the re-run's findings differ from a full run's on the same data")
	}
}

// demoCopy is a copy of the demo database that a test may write to.
func demoCopy(t *testing.T) string {
	t.Helper()
	src, err := demo.Ensure(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "shop.db")
	if err := copyFile(src, path); err != nil {
		t.Fatal(err)
	}
	return path
}
