package sqlite

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// TestEstimateRows: a rowid table is sized from its rowids without a scan,
// exactly when its rowids span a few thousand, and a WITHOUT ROWID table
// with an INTEGER primary key from its keys alike; another WITHOUT ROWID
// table (a text key, or an INTEGER key holding text) from sqlite_stat1
// when ANALYZE ran, else not at all (the caller counts). The same before
// the tables are listed (each statement checks how the table is stored)
// and after (the listing says, schemaNames.stored).
func TestEstimateRows(t *testing.T) {
	path := build(t, "est.db",
		`CREATE TABLE big (id INTEGER PRIMARY KEY, v)`,
		`INSERT INTO big WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 300000) SELECT i, i % 7 FROM r`,
		`DELETE FROM big WHERE id % 3 = 0 OR id BETWEEN 100001 AND 150000`, // 166,667 rows left
		`CREATE TABLE small (rowid TEXT, x)`,                               // hides one spelling of the rowid
		`INSERT INTO small VALUES ('a', 1), ('b', 2), ('c', 3)`,
		`CREATE TABLE empty (a)`,
		`CREATE TABLE kv (k INTEGER PRIMARY KEY, v) WITHOUT ROWID`,
		`INSERT INTO kv SELECT id, v FROM big WHERE id < 5000`,
		`CREATE TABLE kv2 (k TEXT PRIMARY KEY) WITHOUT ROWID`,
		`CREATE TABLE wbig (k INTEGER PRIMARY KEY, v) WITHOUT ROWID`,
		`INSERT INTO wbig WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 40000) SELECT 3 * i, i % 7 FROM r`,
		`CREATE TABLE ktext (k TEXT PRIMARY KEY, v) WITHOUT ROWID`,
		`INSERT INTO ktext SELECT 'k' || id, v FROM big WHERE id < 3000`,
		`CREATE TABLE kmixed (k INTEGER PRIMARY KEY, v) WITHOUT ROWID`,
		`INSERT INTO kmixed SELECT id, v FROM big WHERE id < 3000`,
		`INSERT INTO kmixed VALUES ('top', 1)`,
		`CREATE VIEW bigv AS SELECT * FROM big`,
		`CREATE TABLE ipk (id INT PRIMARY KEY, v)`, // a rowid table keyed by its rowid, not by id
		`INSERT INTO ipk SELECT id + 1000000, v FROM big WHERE id < 2000`,
		`CREATE VIRTUAL TABLE docs USING fts5(body)`,
		`INSERT INTO docs SELECT 'row ' || id FROM big WHERE id < 100`,
		`ANALYZE kv`,
		`ANALYZE ktext`,
	)
	s := open(t, path)
	ctx := context.Background()
	var want int64
	if err := s.db.QueryRow("SELECT count(*) FROM big").Scan(&want); err != nil {
		t.Fatal(err)
	}
	for _, listed := range []bool{false, true} {
		if listed {
			if _, err := s.Tables(ctx); err != nil {
				t.Fatal(err)
			}
			if s.stored(warehouse.TableName{Name: "KV"}) == nil {
				t.Fatal("the listing does not say how kv is stored")
			}
		}
		t.Run(fmt.Sprintf("listed=%v", listed), func(t *testing.T) { estimateEach(t, s, want) })
	}
}

func estimateEach(t *testing.T, s *Source, want int64) {
	ctx := context.Background()
	for _, c := range []struct {
		table string
		want  int64
		exact bool
		tol   float64
	}{
		{"big", want, false, 0.05},
		{"small", 3, true, 0},
		{"empty", 0, true, 0},
		// Keys from 1 to 4,999: counted by key range, exactly; ANALYZE's
		// count (the same here) is not needed.
		{"kv", 3333, true, 0},
		{"wbig", 40000, false, 0.05}, // keys 3 to 120,000: by key windows, as big by rowid
		{"ktext", 2000, false, 0},    // ANALYZE's count
		{"ipk", 1333, true, 0},       // by rowid, which runs from 1 to 1,333
	} {
		n, exact, err := s.EstimateRows(ctx, warehouse.TableName{Name: c.table})
		t.Logf("%s: %d rows (exact %v), true %d", c.table, n, exact, c.want)
		if err != nil || exact != c.exact || math.Abs(float64(n-c.want)) > c.tol*float64(c.want) {
			t.Errorf("%s: %d (exact %v, %v), want %d (exact %v) within %v", c.table, n, exact, err, c.want, c.exact, c.tol)
		}
	}
	for _, name := range []string{"kv2", "kmixed", "bigv", "ghost", "docs", "docs_data"} {
		if n, _, err := s.EstimateRows(ctx, warehouse.TableName{Name: name}); err == nil {
			t.Errorf("%s: estimate %d, want an error", name, n)
		}
	}
}
