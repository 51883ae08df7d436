// Package retrytest holds what the server engines' tests of retried
// statements share: a record of the failures a source retried, and a
// statement run in the background while the test breaks its connection.
package retrytest

import (
	"sync"
	"time"

	"github.com/discover-db/discover/warehouse"
)

// Recorder records the failures a source retried; its Add is the source's
// onRetry hook, called from the goroutine that runs the statement.
type Recorder struct {
	mu   sync.Mutex
	errs []error
}

// Add records one retried failure.
func (r *Recorder) Add(err error) {
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.mu.Unlock()
}

// List returns the failures retried so far.
func (r *Recorder) List() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]error(nil), r.errs...)
}

// Reset forgets the failures recorded so far.
func (r *Recorder) Reset() {
	r.mu.Lock()
	r.errs = nil
	r.mu.Unlock()
}

// Background starts query in a goroutine, for the test to break its
// connection while it runs. wait waits for the query's result and returns
// it with how long the query took from its start.
func Background(query func() (*warehouse.Result, error)) (wait func() (*warehouse.Result, time.Duration, error)) {
	type result struct {
		res *warehouse.Result
		err error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		res, err := query()
		done <- result{res, err}
	}()
	return func() (*warehouse.Result, time.Duration, error) {
		got := <-done
		return got.res, time.Since(start), got.err
	}
}
