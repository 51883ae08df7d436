package sqlite

import (
	"context"
	"sync"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// Experts share one Source from several goroutines.
func TestConcurrentUse(t *testing.T) {
	s := open(t, build(t, "shop.db"))
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				if _, err := s.Tables(ctx); err != nil {
					t.Error(err)
				}
				if _, err := s.RowCount(ctx, warehouse.TableName{Name: "order items"}); err != nil {
					t.Error(err)
				}
				if _, err := s.Query(ctx, "SELECT * FROM orders", warehouse.QueryOptions{}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}
