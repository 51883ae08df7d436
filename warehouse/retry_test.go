package warehouse

import (
	"context"
	"errors"
	"testing"
	"time"
)

var errPassing = errors.New("passing")

func isPassing(err error) bool { return errors.Is(err, errPassing) }

func TestRetry(t *testing.T) {
	ctx := context.Background()
	backoff := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}

	// A passing failure is retried after each pause, then given up.
	var retried []error
	attempts := 0
	start := time.Now()
	err := Retry(ctx, backoff, isPassing, func(err error) { retried = append(retried, err) }, func() error {
		attempts++
		return errPassing
	})
	if !errors.Is(err, errPassing) || attempts != 3 || len(retried) != 2 {
		t.Errorf("always failing: %v after %d attempts, %d retries", err, attempts, len(retried))
	}
	if took := time.Since(start); took < 30*time.Millisecond {
		t.Errorf("three attempts in %s, before the pauses (30ms)", took)
	}

	// Success on the second attempt.
	attempts = 0
	err = Retry(ctx, backoff, isPassing, nil, func() error {
		if attempts++; attempts == 1 {
			return errPassing
		}
		return nil
	})
	if err != nil || attempts != 2 {
		t.Errorf("failing once: %v after %d attempts", err, attempts)
	}

	// Any other failure ends it at once; so does a nil backoff.
	other := errors.New("other")
	attempts = 0
	if err := Retry(ctx, backoff, isPassing, nil, func() error { attempts++; return other }); err != other || attempts != 1 {
		t.Errorf("other failure: %v after %d attempts", err, attempts)
	}
	attempts = 0
	if err := Retry(ctx, nil, isPassing, nil, func() error { attempts++; return errPassing }); err != errPassing || attempts != 1 {
		t.Errorf("no backoff: %v after %d attempts", err, attempts)
	}

	// A pause that would outlast the deadline is not taken: Retry returns
	// the failure while the context is still live, instead of waiting for
	// the deadline. The deadline is far off, so that no machine is slow
	// enough to reach it before Retry returns.
	dctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	attempts = 0
	err = Retry(dctx, []time.Duration{2 * time.Minute}, isPassing, func(error) { t.Error("retried past the deadline") }, func() error {
		attempts++
		return errPassing
	})
	if err != errPassing || attempts != 1 || dctx.Err() != nil {
		t.Errorf("pause past the deadline: %v after %d attempts, context %v", err, attempts, dctx.Err())
	}
}

func TestJitter(t *testing.T) {
	for range 100 {
		if d := Jitter(time.Second); d < time.Second || d > time.Second+time.Second/4 {
			t.Fatalf("Jitter(1s) = %s", d)
		}
	}
}
