package statistical_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/scancheck"
	"github.com/discover-db/discover/warehouse"
)

// TestNoKeyHugeTableFirstRows: a SQLite table with no integer key to draw
// rows by (WITHOUT ROWID, keyed by text), which ANALYZE says holds 20M
// rows, is profiled on its first rows, never through the random() filter
// that reads every row in each statement, and its evidence says the rows
// are no random sample. Said to hold 5M rows, below the size from which
// the engines that can sample blocks do, it keeps the random filter: a
// random sample is worth a scan there.
func TestNoKeyHugeTableFirstRows(t *testing.T) {
	for _, c := range []struct {
		claimed   int64
		firstRows bool
	}{{20_000_000, true}, {5_000_000, false}} {
		t.Run(fmt.Sprint(c.claimed), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "codes.db")
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{
				`CREATE TABLE codes (code TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID`,
				`INSERT INTO codes WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 30000)
					SELECT printf('c%06d', i), i % 100 FROM r`,
				`ANALYZE`,
				// What ANALYZE would record of a table of that size.
				fmt.Sprintf(`UPDATE sqlite_stat1 SET stat = '%d 1' WHERE tbl = 'codes'`, c.claimed),
			} {
				if _, err := db.Exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			db.Close()

			rec := &scancheck.Recorder{}
			h := setup(t, path, experts.Options{SampleRows: 1000}, func(s warehouse.Source) warehouse.Source {
				rec.Source = s
				return rec
			})
			inventory(t, h)
			if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
				t.Fatal(errs)
			}
			var filtered, limited int
			for _, q := range rec.On(`"codes"`) {
				if strings.Contains(q.SQL, "random()") {
					filtered++
				}
				if strings.Contains(q.SQL, `FROM "codes" LIMIT 1000)`) {
					limited++
				}
			}
			p, e := h.profile(t, "codes.v")
			ev := strings.Join(e.Evidence, " ")
			t.Logf("%d statements through random(), %d on the first rows; evidence %s", filtered, limited, ev)
			if c.firstRows {
				if filtered > 0 || limited == 0 {
					t.Errorf("%d statements read codes through the random() filter, %d its first rows: want none and some", filtered, limited)
				}
				if !strings.Contains(ev, "the first 1000 rows of codes as the engine returns them, not a random sample") ||
					!strings.Contains(ev, "holds about 20000000 rows") {
					t.Errorf("evidence does not say the rows are the first ones: %s", ev)
				}
				// v holds 100 values, all of them in the first rows:
				// nothing to scale up from rows that are no sample.
				if p.DistinctCount == nil || *p.DistinctCount != 100 {
					t.Errorf("distinct count %v, want the 100 seen: scaled up from the first rows", p.DistinctCount)
				}
			} else if filtered == 0 || limited > 0 {
				t.Errorf("%d statements through the random() filter, %d on the first rows: want a random sample", filtered, limited)
			}
		})
	}
}
