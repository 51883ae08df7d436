package warehouse

import (
	"context"
	"math/rand/v2"
	"time"
)

// RetryBackoff is the pause before each further attempt of a statement
// that failed for a passing reason (a dropped connection, a server out of
// connection slots, a deadlock): four attempts in all, over about four
// seconds, long enough for a dropped connection to be replaced or a server
// to come back from a restart. The server engines share it.
var RetryBackoff = []time.Duration{250 * time.Millisecond, time.Second, 3 * time.Second}

// Retry runs op, and again after each pause of backoff (with jitter) while
// it fails with an error transient accepts and ctx lasts; onRetry, when
// set, is told of each failure that is retried. It is meant for reads,
// which are harmless to run twice.
//
// Retries never stretch an operation past its bound: a context that ends
// during a pause ends the retries, and a pause that would outlast ctx's
// deadline is not taken at all. Either way the last failure is returned.
func Retry(ctx context.Context, backoff []time.Duration, transient func(error) bool, onRetry func(error), op func() error) error {
	for attempt := 0; ; attempt++ {
		err := op()
		if err == nil || attempt >= len(backoff) || ctx.Err() != nil || !transient(err) {
			return err
		}
		pause := Jitter(backoff[attempt])
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) <= pause {
			return err
		}
		if onRetry != nil {
			onRetry(err)
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// Jitter spreads retries by up to a quarter of d, so that the experts'
// tasks whose connections dropped together do not come back together.
func Jitter(d time.Duration) time.Duration {
	return d + time.Duration(rand.Int64N(int64(d)/4+1))
}
