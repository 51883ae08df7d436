package structural_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
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
// exactly. A WITHOUT ROWID table keyed by an INTEGER is estimated from
// its keys alike. What nothing estimates (a view, a WITHOUT ROWID table
// keyed by text) is counted up to ten samples plus one: exactly within,
// and beyond as a lower bound, "more than 10,000".
func TestSQLiteRowCounts(t *testing.T) {
	path := sqliteFile(t,
		`CREATE TABLE big (id INTEGER PRIMARY KEY, v)`,
		`INSERT INTO big WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 200000) SELECT i, i % 7 FROM r`,
		`DELETE FROM big WHERE id % 4 = 0`,
		`CREATE TABLE mid (v)`,
		`INSERT INTO mid SELECT v FROM big WHERE id < 12000`,
		`CREATE TABLE small (v)`,
		`INSERT INTO small VALUES (1), (2)`,
		`CREATE TABLE wbig (k INTEGER PRIMARY KEY, v) WITHOUT ROWID`,
		`INSERT INTO wbig WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 30000) SELECT 3 * i, i % 7 FROM r`,
		`CREATE TABLE wtext (k TEXT PRIMARY KEY, v) WITHOUT ROWID`,
		`INSERT INTO wtext SELECT 'k' || id, v FROM big WHERE id < 20000`,
		`CREATE VIEW bigv AS SELECT * FROM big`,
		`CREATE VIEW midv AS SELECT * FROM mid`,
	)
	c := &counting{}
	cat := inventoried(t, path, func(src *sqlite.Source) warehouse.Source { c.Source = src; return c })
	ctx := context.Background()
	for _, w := range []struct {
		table    string
		rows     int64
		estimate bool
		lower    bool
	}{
		{"big", 150000, true, false}, {"mid", 9000, false, false}, {"small", 2, false, false},
		{"wbig", 30000, true, false}, {"midv", 9000, false, false},
		{"bigv", 10001, true, true}, {"wtext", 10001, true, true}, // 14,999 rows
	} {
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
		if w.lower {
			tol = 0
		}
		if doc.RowCountIsEstimate != w.estimate || doc.RowCountIsLowerBound != w.lower ||
			math.Abs(float64(*doc.RowCount-w.rows)) > tol*float64(w.rows) {
			t.Errorf("%s: %d rows (estimate %v, lower bound %v), want %d (estimate %v, lower bound %v)", w.table,
				*doc.RowCount, doc.RowCountIsEstimate, doc.RowCountIsLowerBound, w.rows, w.estimate, w.lower)
		}
		if ev := strings.Join(e.Evidence, ";"); w.lower && !strings.Contains(ev, "more than 10,000 rows: the count stopped at 10,001") {
			t.Errorf("%s: evidence %q does not say where the count stopped", w.table, e.Evidence)
		}
	}
	// mid's estimate is within ten samples: counted. small's rowids span
	// two: counted exactly by the estimate's probe. big and wbig are never
	// counted, the views and wtext only up to 10,001 rows.
	if len(c.counted) != 1 || c.counted[0] != "mid" {
		t.Errorf("exact counts of %v, want of mid only", c.counted)
	}
}
