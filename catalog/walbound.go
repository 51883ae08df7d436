package catalog

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"
)

// The write-ahead log is started over only when a write finds no reader
// still reading from it. Readers that never pause — an MCP server and
// `ask` polling while a discovery writes, or many of them — always hold
// some snapshot in the log, so SQLite's automatic checkpoints copy pages
// back but never rewind: the log grows for as long as the reads go on
// (TestCatalogUnderLoad's sixteen readers and sixteen writers made it 5 GB
// in a minute, and filled the disk). Every walCheckEvery writes the writer
// looks at the log's size, and past walLimit runs a RESTART checkpoint:
// it copies the log back, waits (busy_timeout) for the readers still in it
// to finish their statement — new ones read the database file meanwhile —
// and the next write starts the log over, truncated to
// walTruncateTo (journal_size_limit).
const (
	walLimit      = 64 << 20
	walTruncateTo = 16 << 20
	walCheckEvery = 64
	walWait       = 200 * time.Millisecond
)

// logBound is the log's size bookkeeping of one catalog handle.
type logBound struct {
	wal    string // the log's path
	writes atomic.Int64
}

// boundLog runs after each successful write. A checkpoint that cannot
// finish (readers past the busy timeout, another process's write) is
// tried again walCheckEvery writes later; its failure loses nothing, so it
// is not the write's.
func (c *Catalog) boundLog(ctx context.Context) {
	if c.log.writes.Add(1)%walCheckEvery != 0 {
		return
	}
	fi, err := os.Stat(c.log.wal)
	if err != nil || fi.Size() <= walLimit {
		return
	}
	// On the writer's one connection, held for the three statements: the
	// checkpoint waits for readers only briefly, since every writer of the
	// file waits behind it (their busy_timeout is the catalog's, 10 s).
	conn, err := c.writer.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA busy_timeout = %d`, walWait.Milliseconds())); err != nil {
		return
	}
	var busy, frames, copied int64
	_ = conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(RESTART)`).Scan(&busy, &frames, &copied)
	_, _ = conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA busy_timeout = %d`, busyTimeout.Milliseconds()))
}
