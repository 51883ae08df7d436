package sqlite

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// A keyed sample keeps about the share of rows asked for, spread over the
// whole key range (negative keys too), in key order, and the same rows in
// every statement: two reads of it are one sample.
func TestKeyedSample(t *testing.T) {
	path := build(t, "keyed.db",
		`CREATE TABLE ev (id INTEGER PRIMARY KEY, v INTEGER)`,
		`INSERT INTO ev WITH RECURSIVE r(i) AS (SELECT -50000 UNION ALL SELECT i + 1 FROM r WHERE i < 49999) SELECT i, i % 7 FROM r`)
	s := open(t, path)
	ctx := context.Background()
	from, ok := Dialect{}.KeyedSample(warehouse.TableName{Name: "ev"}, "id", 10_000, 100_000)
	if !ok {
		t.Fatal("no keyed sample of 10,000 of 100,000 rows")
	}
	if _, ok := (Dialect{}).KeyedSample(warehouse.TableName{Name: "ev"}, "id", 100_000, 100_000); ok {
		t.Error("a sample of the whole table")
	}
	read := func() (ids []int64) {
		err := s.Stream(ctx, "SELECT id FROM "+from, warehouse.QueryOptions{}, func(row []any) error {
			ids = append(ids, row[0].(int64))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	a, b := read(), read()
	if math.Abs(float64(len(a))-10_000) > 200 {
		t.Errorf("%d rows kept, want about 10,000", len(a))
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("two reads of the sample kept other rows")
	}
	// In key order, and spread: every tenth of the key range holds about
	// a tenth of the sample.
	var tenths [10]int
	for i, id := range a {
		if i > 0 && id <= a[i-1] {
			t.Fatalf("row %d: key %d after %d: not in key order", i, id, a[i-1])
		}
		tenths[(id+50000)/10000]++
	}
	for i, n := range tenths {
		if n < 900 || n > 1100 {
			t.Errorf("keys %d..%d: %d rows of the sample, want about 1,000", -50000+i*10000, -50000+i*10000+9999, n)
		}
	}
	// The guard lets the statement through (one SELECT, harmless functions).
	if _, err := s.Query(ctx, "SELECT COUNT(*) FROM "+from, warehouse.QueryOptions{}); err != nil {
		t.Errorf("the sample's statement is refused: %v", err)
	}
}
