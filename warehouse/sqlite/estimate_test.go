package sqlite

import (
	"context"
	"math"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// TestEstimateRows: a rowid table is sized from its rowids without a scan,
// exactly when its rowids span a few thousand; a WITHOUT ROWID table from
// sqlite_stat1 when ANALYZE ran, else not at all (the caller counts).
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
		`CREATE VIEW bigv AS SELECT * FROM big`,
		`ANALYZE kv`,
	)
	s := open(t, path)
	ctx := context.Background()
	var want int64
	if err := s.db.QueryRow("SELECT count(*) FROM big").Scan(&want); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		table string
		want  int64
		exact bool
		tol   float64
	}{
		{"big", want, false, 0.05},
		{"small", 3, true, 0},
		{"empty", 0, true, 0},
		{"kv", 3333, false, 0}, // ANALYZE's count
	} {
		n, exact, err := s.EstimateRows(ctx, warehouse.TableName{Name: c.table})
		t.Logf("%s: %d rows (exact %v), true %d", c.table, n, exact, c.want)
		if err != nil || exact != c.exact || math.Abs(float64(n-c.want)) > c.tol*float64(c.want) {
			t.Errorf("%s: %d (exact %v, %v), want %d (exact %v) within %v", c.table, n, exact, err, c.want, c.exact, c.tol)
		}
	}
	for _, name := range []string{"kv2", "bigv", "ghost"} {
		if n, _, err := s.EstimateRows(ctx, warehouse.TableName{Name: name}); err == nil {
			t.Errorf("%s: estimate %d, want an error", name, n)
		}
	}
}
