package structural_test

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// counting is a SQLite source that counts its exact row counts (full
// scans) and keeps its row estimate.
type counting struct {
	*sqlite.Source
	counted []string
}

func (c *counting) RowCount(ctx context.Context, t warehouse.TableName) (int64, error) {
	c.counted = append(c.counted, t.Name)
	return c.Source.RowCount(ctx, t)
}

// TestSQLiteRowCounts: the inventory counts a SQLite table exactly while
// the rowid estimate keeps it within ten samples, and records the estimate,
// marked as one, for a larger table, which it does not read whole (issue
// 9). A table whose rowids span a few thousand is counted by rowid range,
// exactly.
func TestSQLiteRowCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE big (id INTEGER PRIMARY KEY, v)`,
		`INSERT INTO big WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 200000) SELECT i, i % 7 FROM r`,
		`DELETE FROM big WHERE id % 4 = 0`,
		`CREATE TABLE mid (v)`,
		`INSERT INTO mid SELECT v FROM big WHERE id < 12000`,
		`CREATE TABLE small (v)`,
		`INSERT INTO small VALUES (1), (2)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	tables, err := src.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := &counting{Source: src}
	env := experts.NewEnv(c, cat, "run1", 1, 1, tables, experts.Options{SampleRows: 1000}, new(atomic.Int64))
	tasks, err := structural.New().Plan(ctx, env)
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if err := task.Run(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []struct {
		table    string
		rows     int64
		estimate bool
	}{{"big", 150000, true}, {"mid", 9000, false}, {"small", 2, false}} {
		e, err := cat.Get(ctx, catalog.KindTable, w.table)
		if err != nil {
			t.Fatal(err)
		}
		var doc catalog.TableDoc
		if err := e.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		if doc.RowCount == nil {
			t.Fatalf("%s: no row count", w.table)
		}
		t.Logf("%s: %d rows (estimate %v): %q", w.table, *doc.RowCount, doc.RowCountIsEstimate, e.Evidence)
		tol := 0.0
		if w.estimate {
			tol = 0.05
		}
		if doc.RowCountIsEstimate != w.estimate || math.Abs(float64(*doc.RowCount-w.rows)) > tol*float64(w.rows) {
			t.Errorf("%s: %d rows (estimate %v), want %d (estimate %v)", w.table, *doc.RowCount, doc.RowCountIsEstimate, w.rows, w.estimate)
		}
	}
	// mid's estimate is within ten samples: counted. small's rowids span
	// two: counted exactly by the estimate's probe. big is never counted.
	if len(c.counted) != 1 || c.counted[0] != "mid" {
		t.Errorf("exact counts of %v, want of mid only", c.counted)
	}
}
