package duckdb

import (
	"context"
	"database/sql"
	"sync"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// TestOutOfMemoryRetriedAlone: statements that each need most of DuckDB's
// memory limit fail when they run side by side; each that ran out of
// memory is run once more alone, and all of them return their rows.
func TestOutOfMemoryRetriedAlone(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(8)
	if _, err := db.Exec("SET memory_limit = '160MB'"); err != nil {
		t.Fatal(err)
	}
	s := &Source{db: db, name: "duckdb"}
	// A list aggregate holds every value and cannot spill: about 100 MB.
	const q = "SELECT len(list(i)) AS n FROM range(5000000) t(i)"
	ctx := context.Background()

	// Alone, it fits.
	res, err := s.Run(ctx, q, warehouse.Limits{MaxRows: 10})
	if err != nil {
		t.Fatalf("alone: %v", err)
	}
	if n := res.Rows[0][0]; n != int64(5000000) {
		t.Fatalf("alone: %v (%T), want 5000000", n, n)
	}

	// Side by side, without the retry, some run out of memory: the
	// condition the retry is for.
	var mu sync.Mutex
	var oom int
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.query(ctx, q, 10)
			mu.Lock()
			defer mu.Unlock()
			if outOfMemory(err) {
				oom++
			} else if err != nil {
				t.Errorf("side by side: %v", err)
			}
		}()
	}
	wg.Wait()
	if oom == 0 {
		t.Fatal("four statements side by side all fitted in 160MB: the test shows nothing")
	}

	// Through Run, every one returns its rows.
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.Run(ctx, q, warehouse.Limits{MaxRows: 10})
			if err != nil {
				t.Errorf("through Run: %v", err)
				return
			}
			if n := res.Rows[0][0]; n != int64(5000000) {
				t.Errorf("through Run: %v, want 5000000", n)
			}
		}()
	}
	wg.Wait()
}
