package statistical

import (
	"context"
	"fmt"

	"github.com/discover-db/discover/warehouse"
)

// SQLite has no TABLESAMPLE: its random() filter (Dialect.SampleFrom)
// reads every row of the table in every statement of the profile, so a
// 100M-row table was read whole a dozen times (issue 9). A rowid table is
// instead sized from its rowids and sampled by rowid lookups
// (Dialect.RowidBounds, RowidProbe, SampleRowids): no statement reads it
// whole. Views, virtual tables, WITHOUT ROWID tables and tables whose
// columns hide every spelling of rowid keep the scanning forms.

// rowids is what the profiler learned of a SQLite table's rowids.
type rowids struct {
	done   bool // asked already
	ok     bool // a rowid table with rows
	name   string
	lo, hi int64
}

// rowidBounds returns the least and greatest rowid of the table, asked of
// the engine once per profile (two b-tree searches). ok is false for what
// is not a SQLite rowid table with rows. Only a spent budget, a cancelled
// run or a timeout is an error: anything else means "no rowids".
func (p *profiler) rowidBounds(ctx context.Context) (rowids, error) {
	if p.rid.done {
		return p.rid, nil
	}
	p.rid.done = true
	if p.table.Kind != "table" {
		return p.rid, nil
	}
	name, ok := warehouse.RowidName(p.table.Columns)
	if !ok {
		return p.rid, nil
	}
	q, ok := p.d.RowidBounds(p.table.Name, name)
	if !ok {
		return p.rid, nil
	}
	p.queries++
	res, err := p.env.Query(ctx, q)
	switch {
	case err != nil && fatal(ctx, err):
		return p.rid, err
	case err != nil || len(res.Rows) != 1 || len(res.Rows[0]) != 2:
		return p.rid, nil // WITHOUT ROWID (no such column), virtual (no row)
	}
	lo, okLo := toInt(res.Rows[0][0])
	hi, okHi := toInt(res.Rows[0][1])
	if okLo && okHi {
		p.rid = rowids{done: true, ok: true, name: name, lo: lo, hi: hi}
	}
	return p.rid, nil
}

// rowidRows estimates the table's rows from the rowids in use in windows
// spread over its rowid range (Dialect.RowidProbe): a few thousand rows
// read by rowid, in place of the full count a table of unknown size
// would otherwise get. ok is false where there are no rowids to go by.
func (p *profiler) rowidRows(ctx context.Context) (n int64, exact, ok bool, err error) {
	r, err := p.rowidBounds(ctx)
	if err != nil || !r.ok {
		return 0, false, false, err
	}
	q, covered, ok := p.d.RowidProbe(p.table.Name, r.name, r.lo, r.hi)
	if !ok {
		return 0, false, false, nil
	}
	p.queries++
	res, err := p.env.Query(ctx, q)
	switch {
	case err != nil && fatal(ctx, err):
		return 0, false, false, err
	case err != nil || len(res.Rows) != 1 || len(res.Rows[0]) != 1:
		return 0, false, false, nil
	}
	found, isInt := toInt(res.Rows[0][0])
	if !isInt {
		return 0, false, false, nil
	}
	n, exact = warehouse.RowidEstimate(r.lo, r.hi, covered, found)
	if !exact {
		p.rowidEvidence = fmt.Sprintf("%s holds about %d rows: %d of %d rowids in use in windows spread between rowid %d and %d",
			p.name, n, found, covered, r.lo, r.hi)
	}
	return n, exact, true, nil
}

// rowidDrawCost is what one rowid drawn for a sample costs against one row
// of the random() filter's scan: a generated number, a sort entry and a
// b-tree search to a page mostly not in cache. Measured on 4M narrow rows
// (TestSQLiteSampleNoFullScan): 12,600 draws in 90–140 ms, the scan
// 0.3 µs a row.
const rowidDrawCost = 25

// rowidSample is the FROM item of a sample of about rows of the table's
// total rows drawn by rowid lookups (Dialect.SampleRowids), or false where
// the random() filter's scan of SampleFrom is to be used: a table with no
// rowids to draw from; a table within wholeScanFactor samples (which may
// be read whole) where the draws cost more than the scan; and a larger
// table whose rowids are so sparse that the draws outnumber a quarter of
// its rows.
func (p *profiler) rowidSample(ctx context.Context, rows, total int64) (string, bool, error) {
	if p.d.Name() != "sqlite" {
		return "", false, nil
	}
	r, err := p.rowidBounds(ctx)
	if err != nil || !r.ok {
		return "", false, err
	}
	draws, ok := warehouse.RowidDraws(rows, total, r.lo, r.hi)
	switch {
	case !ok:
		return "", false, nil
	case total > wholeScanFactor*rows:
		ok = draws <= total/4
	default:
		ok = draws*rowidDrawCost <= total
	}
	if !ok {
		return "", false, nil
	}
	from, ok := p.d.SampleRowids(p.table.Name, r.name, rows, total, r.lo, r.hi)
	return from, ok, nil
}
