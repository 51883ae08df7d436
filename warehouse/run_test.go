package warehouse

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// fakeEngine records what Query asked of it.
type fakeEngine struct {
	admitErr error
	admitSaw time.Duration // the deadline Admit saw, from its start
	ran      bool
	lim      Limits
	runErr   error
	block    bool // Run waits for its context
	res      *Result
	defaults Limits
}

func (f *fakeEngine) Dialect() Dialect { return testDialect{} }
func (f *fakeEngine) Limits() Limits   { return f.defaults }
func (f *fakeEngine) Admit(ctx context.Context, _ string) error {
	if d, ok := ctx.Deadline(); ok {
		f.admitSaw = time.Until(d)
	}
	return f.admitErr
}
func (f *fakeEngine) Run(ctx context.Context, _ string, lim Limits) (*Result, error) {
	f.ran, f.lim = true, lim
	if f.block {
		<-ctx.Done()
		return nil, errors.New("interrupted")
	}
	return f.res, f.runErr
}

// testDialect names the engine; nothing else of it is asked.
type testDialect struct{ Dialect }

func (testDialect) Name() string { return "fake" }

func TestQueryWrapper(t *testing.T) {
	ctx := context.Background()
	def := Limits{Timeout: time.Minute, MaxRows: 100, Grace: time.Second}

	// The defaults fill what the options leave zero; the deadline is the
	// timeout plus the grace, and it is already running when Admit asks.
	f := &fakeEngine{defaults: def, res: &Result{Rows: [][]any{{"a long value"}}}}
	res, err := Query(ctx, f, "SELECT 1", QueryOptions{MaxRows: 7})
	if err != nil || !f.ran || f.lim.Timeout != time.Minute || f.lim.MaxRows != 7 || f.lim.Grace != time.Second {
		t.Fatalf("res %v err %v ran %v limits %+v", res, err, f.ran, f.lim)
	}
	if f.admitSaw <= time.Minute || f.admitSaw > time.Minute+time.Second {
		t.Errorf("Admit saw a deadline %s away; want the timeout plus the grace", f.admitSaw)
	}
	if res.BytesTruncated || res.Rows[0][0] != "a long value" {
		t.Errorf("cut without being asked: %v", res.Rows)
	}

	// A refusal is named for the engine, and nothing runs.
	f = &fakeEngine{defaults: def, admitErr: Rejectf("no")}
	if _, err := Query(ctx, f, "DELETE", QueryOptions{}); !errors.Is(err, ErrRejected) || f.ran || !strings.HasPrefix(err.Error(), "fake: query: ") {
		t.Errorf("refusal: err %v, ran %v", err, f.ran)
	}

	// The deadline, as context.DeadlineExceeded, saying after how long.
	f = &fakeEngine{defaults: def, block: true}
	_, err = Query(ctx, f, "SELECT slow", QueryOptions{Timeout: 20 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "fake: query: timed out after 20ms") {
		t.Errorf("timeout: %v", err)
	}

	// The caller's cancellation is the caller's, not a timeout.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	f = &fakeEngine{defaults: def, block: true}
	if _, err := Query(cctx, f, "SELECT 1", QueryOptions{}); !errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled: %v", err)
	}

	// Byte bounds, when asked for.
	f = &fakeEngine{defaults: def, res: &Result{Rows: [][]any{{"a long value"}}}}
	res, err = Query(ctx, f, "SELECT 1", QueryOptions{MaxValueBytes: 4})
	if err != nil || !res.BytesTruncated || res.Rows[0][0] != "a lo… [cut: 12 bytes]" {
		t.Errorf("byte bound: %v, %v", res, err)
	}

	// An engine's own error keeps its chain under the prefix.
	base := errors.New("boom")
	f = &fakeEngine{defaults: def, runErr: base}
	if _, err := Query(ctx, f, "SELECT 1", QueryOptions{}); !errors.Is(err, base) || err.Error() != "fake: query: boom" {
		t.Errorf("engine error: %v", err)
	}
}
