package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// TestFirstRowsWhileAnotherScanRuns: the first rows of a table, which a
// profile reads under a LIMIT, are the table's first rows even while
// another session is halfway through a scan of it. With the server's
// synchronized scans (on by default, for tables over a quarter of
// shared_buffers), a new scan would start where that one is, and a report
// would differ from run to run.
func TestFirstRowsWhileAnotherScanRuns(t *testing.T) {
	ctx := context.Background()
	db := newDB(t,
		// About 45 MB: above a quarter of the default 128 MB of shared_buffers.
		`CREATE TABLE big AS SELECT i, repeat('x', 40) AS pad FROM generate_series(1, 600000) AS i`,
		`ANALYZE big`)
	other := connect(t, db.dsn)
	defer other.Close(ctx)
	mustExec(t, other, `BEGIN`, `DECLARE c CURSOR FOR SELECT i FROM big`, `MOVE 300000 FROM c`)
	var at int64
	if err := other.QueryRow(ctx, `FETCH 1 FROM c`).Scan(&at); err != nil || at < 300000 {
		t.Fatalf("the other scan is at %d (%v)", at, err)
	}
	src, err := Open(ctx, db.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	res, err := src.Query(ctx, `SELECT i FROM big LIMIT 5`, warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows); got != "[[1] [2] [3] [4] [5]]" {
		t.Fatalf("the first 5 rows of big while another scan is at row %d: %s", at, got)
	}
}
