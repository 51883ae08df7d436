package warehouse

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Engine is what an engine package implements for Query: its allow-list
// and its way to run a statement the allow-list admitted. Query applies
// everything else, the same for every engine, so that no engine can run a
// statement unguarded or unbounded by forgetting a step: each engine's
// Source.Query is Query(ctx, s, sql, opts).
type Engine interface {
	Dialect() Dialect
	// Admit is the allow-list: nil when the statement may run, an error
	// wrapping ErrRejected when it may not, and the engine's own error when
	// it cannot tell (a statement that does not parse or compile, a lost
	// connection). ctx carries the statement's deadline: admitting counts
	// toward its time.
	Admit(ctx context.Context, sql string) error
	// Run runs an admitted statement, bounded by lim (every field
	// resolved), reading at most lim.MaxRows rows and one more to tell
	// whether there were more (Result.Truncated). ctx ends lim.Grace after
	// lim.Timeout. Its error is without the engine's "<engine>: query: "
	// prefix, which Query adds; a statement the server stopped for its
	// time wraps context.DeadlineExceeded, and one the database's own
	// read-only protection refused wraps ErrDatabaseRefused.
	Run(ctx context.Context, sql string, lim Limits) (*Result, error)
	// Limits are the engine's defaults for what QueryOptions leaves zero.
	Limits() Limits
}

// StreamEngine is an Engine that can also hand rows over one at a time
// (Stream), without a row cap.
type StreamEngine interface {
	Engine
	// RunStream is Run for Stream: rows go to fn as they are read, and an
	// error of fn's comes back as is.
	RunStream(ctx context.Context, sql string, lim Limits, fn func(row []any) error) error
}

// Limits bound one statement.
type Limits struct {
	Timeout time.Duration
	MaxRows int
	// Grace is how much longer than Timeout the client waits: an engine
	// whose server enforces Timeout itself (and says so) gives the server
	// the time to, the client's deadline being the backstop.
	Grace time.Duration
	// MaxValueBytes and MaxResultBytes cut the result's values (BoundBytes);
	// 0 cuts nothing.
	MaxValueBytes, MaxResultBytes int
	// Origins: name each result column's table column where the engine
	// can (QueryOptions.Origins).
	Origins bool
}

// resolve fills what opts leaves zero from the engine's defaults.
func resolve(opts QueryOptions, def Limits) Limits {
	lim := def
	if opts.Timeout > 0 {
		lim.Timeout = opts.Timeout
	}
	if opts.MaxRows > 0 {
		lim.MaxRows = opts.MaxRows
	}
	lim.MaxValueBytes, lim.MaxResultBytes = opts.MaxValueBytes, opts.MaxResultBytes
	lim.Origins = opts.Origins
	return lim
}

// Query runs one statement on e: the deadline first, then the allow-list
// under it, then the statement, bounded in time, rows and (when opts asks)
// bytes. A timeout is reported as context.DeadlineExceeded, saying after
// how long; the caller's own cancellation as the caller's context error.
func Query(ctx context.Context, e Engine, sql string, opts QueryOptions) (*Result, error) {
	lim := resolve(opts, e.Limits())
	qctx, cancel := context.WithTimeout(ctx, lim.Timeout+lim.Grace)
	defer cancel()
	name := e.Dialect().Name()
	if err := e.Admit(qctx, sql); err != nil {
		return nil, runErr(name, "query", ctx, qctx, lim.Timeout, err)
	}
	start := time.Now()
	res, err := e.Run(qctx, sql, lim)
	if err != nil {
		return nil, runErr(name, "query", ctx, qctx, lim.Timeout, err)
	}
	res.Elapsed = time.Since(start)
	if lim.MaxValueBytes > 0 || lim.MaxResultBytes > 0 {
		BoundBytes(res, lim.MaxValueBytes, lim.MaxResultBytes)
	}
	return res, nil
}

// Stream is Query for a StreamEngine, handing rows to fn one at a time;
// an error of fn's comes back as is.
func Stream(ctx context.Context, e StreamEngine, sql string, opts QueryOptions, fn func(row []any) error) error {
	lim := resolve(opts, e.Limits())
	qctx, cancel := context.WithTimeout(ctx, lim.Timeout+lim.Grace)
	defer cancel()
	name := e.Dialect().Name()
	if err := e.Admit(qctx, sql); err != nil {
		return runErr(name, "stream", ctx, qctx, lim.Timeout, err)
	}
	var fnErr error
	err := e.RunStream(qctx, sql, lim, func(row []any) error {
		fnErr = fn(row)
		return fnErr
	})
	switch {
	case err == nil:
		return nil
	case fnErr != nil && errors.Is(err, fnErr):
		return fnErr
	}
	return runErr(name, "query", ctx, qctx, lim.Timeout, err)
}

// runErr names the engine and the operation, and what ended a statement
// early: the caller's context, or the deadline.
func runErr(engine, op string, parent, qctx context.Context, timeout time.Duration, err error) error {
	switch {
	case parent.Err() != nil:
		if errors.Is(err, parent.Err()) {
			return fmt.Errorf("%s: %s: %w", engine, op, err)
		}
		return fmt.Errorf("%s: %s: %w (%w)", engine, op, parent.Err(), err)
	case errors.Is(err, ErrRejected):
		return fmt.Errorf("%s: %s: %w", engine, op, err)
	case qctx.Err() != nil:
		return fmt.Errorf("%s: %s: timed out after %s: %w", engine, op, timeout, context.DeadlineExceeded)
	}
	return fmt.Errorf("%s: %s: %w", engine, op, err)
}
