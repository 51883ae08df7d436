package sqlite

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
)

// TestStream: rows come one at a time with SQLite's storage classes (a
// blob stays bytes even when they are valid UTF-8), date text as stored,
// and no row cap; the guard, the timeout and the callback's error apply.
func TestStream(t *testing.T) {
	s := open(t, build(t, "shop.db"))
	ctx := context.Background()
	var rows [][]any
	err := s.Stream(ctx, "SELECT id, placed, +paid, photo, memo, CAST('abc' AS BLOB), NULL FROM orders ORDER BY id",
		warehouse.QueryOptions{}, func(row []any) error {
			rows = append(rows, append([]any(nil), row...))
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r[0] != int64(10) || r[1] != "2024-01-31" || r[2] != "2024-01-31 10:11:12" || r[6] != nil {
		t.Errorf("row %#v", r)
	}
	if b, ok := r[3].([]byte); !ok || string(b) != "\x00\xff\x10" {
		t.Errorf("blob = %#v", r[3])
	}
	// memo's UTF-8 was stored as a blob (typeof 'blob'), which Query turns
	// into text for a TEXT column; a stream keeps the storage class.
	if b, ok := r[4].([]byte); !ok || string(b) != "héllo" {
		t.Errorf("memo = %#v, want the blob's bytes", r[4])
	}
	if b, ok := r[5].([]byte); !ok || string(b) != "abc" {
		t.Errorf("a blob of UTF-8 bytes = %#v, want the bytes", r[5])
	}

	var n int
	if err := s.Stream(ctx, fmt.Sprintf(countTo, DefaultMaxRows+5), warehouse.QueryOptions{}, func([]any) error { n++; return nil }); err != nil || n != DefaultMaxRows+5 {
		t.Errorf("uncapped stream: %d rows, %v", n, err)
	}

	stop := errors.New("enough")
	n = 0
	err = s.Stream(ctx, fmt.Sprintf(countTo, 1000), warehouse.QueryOptions{}, func([]any) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("callback error: %v after %d rows", err, n)
	}

	if err := s.Stream(ctx, "DELETE FROM orders", warehouse.QueryOptions{}, func([]any) error { return nil }); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("a write: %v, want ErrRejected", err)
	}

	start := time.Now()
	err = s.Stream(ctx, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
		warehouse.QueryOptions{Timeout: 50 * time.Millisecond}, func([]any) error { return nil })
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("timeout: %v after %s", err, time.Since(start))
	}
	// Neither the stopped nor the interrupted statement poisons the pool.
	if res, err := s.Query(ctx, "SELECT count(*) FROM orders", warehouse.QueryOptions{}); err != nil || res.Rows[0][0] != int64(2) {
		t.Errorf("query after streams: %v %v", res, err)
	}
}
