package sqlite

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
)

// TestStreamTimeoutBetweenRows: the per-query timeout ends a stream whose
// rows are flowing, not only one that has not handed over its first row
// (the driver interrupts a statement only until then): the callback
// dwells past the timeout on the first row of a count to 10^9, and the
// stream ends with the timeout within checkEvery rows.
func TestStreamTimeoutBetweenRows(t *testing.T) {
	s := open(t, build(t, "shop.db"))
	timeout := 100 * time.Millisecond
	first, after := true, 0
	err := s.Stream(context.Background(), fmt.Sprintf(countTo, 1_000_000_000), warehouse.QueryOptions{Timeout: timeout},
		func([]any) error {
			if first {
				first = false
				time.Sleep(3 * timeout) // the timeout passes while the rows flow
				return nil
			}
			after++
			if after > 10*checkEvery {
				return errors.New("the stream went on past its timeout")
			}
			return nil
		})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("stream past its timeout: %v, want a timeout", err)
	}
	if after > checkEvery {
		t.Errorf("%d rows handed over after the timeout, want at most %d", after, checkEvery)
	}
	// The interrupted stream leaves the pool usable.
	if res, err := s.Query(context.Background(), "SELECT count(*) FROM orders", warehouse.QueryOptions{}); err != nil || res.Rows[0][0] != int64(2) {
		t.Errorf("query after the stream: %v %v", res, err)
	}
}
