package duckdb

import (
	"context"
	"database/sql/driver"
	"fmt"
	"sync/atomic"
	"time"

	duck "github.com/duckdb/duckdb-go/v2"
)

// A statement cut short by its context can leave its query behind in the
// connection: the driver creates DuckDB's pending result (which schedules
// the query's tasks) and then, seeing the context done, destroys it
// without running it. DuckDB cleans a connection's last query up only when
// the next statement on it starts, and that clean-up runs the tasks left,
// the whole query: a join meant to time out in 10 ms ran for minutes
// inside the next statement's Prepare (the conformance suite's Concurrent
// check hung the CI so, on DuckDB 1.5.6 with duckdb-go v2.10506.0;
// v2.20000.0 keeps the same short cut). Closing the connection does the
// same clean-up. Only an interruption stops it, so after a cut statement
// the connection settles: a trivial statement runs on it under a short
// deadline, whose interruption stops whatever the clean-up works off, until
// one completes. A connection that does not settle is not pooled again.

// settling wraps DuckDB's connector so that its connections settle.
type settling struct {
	*duck.Connector
}

// settled and retired count, for tests, the cut statements after which a
// connection settled, and the connections given up.
var settled, retired atomic.Int64

func (c settling) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	conn, ok := dc.(*duck.Conn)
	if !ok {
		dc.Close()
		return nil, fmt.Errorf("duckdb: driver connection %T", dc)
	}
	return &settlingConn{Conn: conn}, nil
}

// settlingConn is a driver connection that settles after a statement whose
// context ended before it completed. Its other methods are DuckDB's own.
type settlingConn struct {
	*duck.Conn
	bad bool
}

func (c *settlingConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	rows, err := c.Conn.QueryContext(ctx, q, args)
	c.after(ctx, err)
	return rows, err
}

func (c *settlingConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	res, err := c.Conn.ExecContext(ctx, q, args)
	c.after(ctx, err)
	return res, err
}

// after settles the connection when its statement failed with its context
// done: a statement that completed left nothing behind.
func (c *settlingConn) after(ctx context.Context, err error) {
	if err == nil || ctx.Err() == nil {
		return
	}
	for wait := 10 * time.Millisecond; wait <= time.Second; wait *= 2 {
		sctx, cancel := context.WithTimeout(context.Background(), wait)
		rows, err := c.Conn.QueryContext(sctx, "SELECT 1", nil)
		cancel()
		if err == nil {
			rows.Close()
			settled.Add(1)
			return
		}
	}
	c.bad = true
}

// IsValid tells database/sql whether the connection may go back to the
// pool.
func (c *settlingConn) IsValid() bool { return !c.bad }

// ResetSession keeps a connection that did not settle out of a Conn
// handed out again.
func (c *settlingConn) ResetSession(context.Context) error {
	if c.bad {
		return driver.ErrBadConn
	}
	return nil
}

// Close closes a connection that did not settle in the background: it may
// work off the query left behind for as long as that takes, and nothing
// should wait for it.
func (c *settlingConn) Close() error {
	if !c.bad {
		return c.Conn.Close()
	}
	retired.Add(1)
	go c.Conn.Close()
	return nil
}
