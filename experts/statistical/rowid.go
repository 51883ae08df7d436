package statistical

import (
	"github.com/discover-db/discover/experts"

	"context"
	"fmt"

	"github.com/discover-db/discover/warehouse"
)

// An engine without a table sample (Capabilities.FilterSample) samples by
// a random filter (Dialect.Sample, SampleFrom) that reads every row of the
// table in every statement of the profile, so a 100M-row table was read
// whole a dozen times (issue 9). A table whose b-tree is keyed by an
// integer (warehouse.IntKey, which each engine's IntKeys lists: a row id,
// or a primary key of one integer column the rows are clustered by) is
// instead sized from its keys and sampled by lookups by key
// (warehouse.FindIntKey, RowidProbe, SampleRowids): no statement reads it
// whole.
//
// What has no such key keeps the scanning forms, and is still read whole
// by every statement of its profile when it is larger than the sample:
// views, virtual tables, and tables the engine keys otherwise (no primary
// key, a composite one, one of another type, columns that hide every
// spelling of a row id): the random filter reads every row to keep a few.

// rowids is what the profiler learned of a table's integer key.
type rowids struct {
	done   bool // asked already
	ok     bool // a table keyed by an integer, with rows
	key    warehouse.IntKey
	lo, hi int64
}

// rowidBounds returns the least and greatest key of the table, asked of
// the engine once per profile (two b-tree searches; a WITHOUT ROWID table
// fails the rowid's statement first). ok is false for what is not a
// table keyed by an integer, with rows. Only a spent budget, a
// cancelled run or a timeout is an error: anything else means "no key".
func (p *profiler) rowidBounds(ctx context.Context) (rowids, error) {
	if p.rid.done {
		return p.rid, nil
	}
	p.rid.done = true
	k, lo, hi, rows, found, err := p.env.FindIntKey(ctx, p.d, p.table, func() { p.queries++ })
	if err != nil {
		return p.rid, err
	}
	if found && rows {
		p.rid = rowids{done: true, ok: true, key: k, lo: lo, hi: hi}
	}
	return p.rid, nil
}

// rowidRows estimates the table's rows from the keys in use in windows
// spread over its key range (Dialect.RowidProbe): a few thousand rows
// read by key, in place of the full count a table of unknown size
// would otherwise get. ok is false where there are no keys to go by.
func (p *profiler) rowidRows(ctx context.Context) (n int64, exact, ok bool, err error) {
	r, err := p.rowidBounds(ctx)
	if err != nil || !r.ok {
		return 0, false, false, err
	}
	q, covered, ok := p.d.RowidProbe(p.table.Name, r.key.Name, r.lo, r.hi)
	if !ok {
		return 0, false, false, nil
	}
	p.queries++
	res, err := p.env.Query(ctx, q)
	switch {
	case err != nil && experts.Fatal(ctx, err):
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
		what := "rowids"
		if !r.key.Rowid() {
			what = "values of its integer key " + r.key.Column
		}
		p.rowidEvidence = fmt.Sprintf("%s holds about %d rows: %d of %d %s in use in windows spread between %s %d and %d",
			p.name, n, found, covered, what, r.key, r.lo, r.hi)
	}
	return n, exact, true, nil
}

// rowidDrawCost is what one rowid drawn for a sample costs against one row
// of the random filter's scan: a generated number, a sort entry and a
// b-tree search to a page mostly not in cache. Measured on both engines
// with key lookups (their dialect.go gives the figures): 25 on an
// in-process engine's 4M narrow rows, some 30 on a server's 1M rows in its
// buffer pool, within each other's noise, so one constant serves both.
const rowidDrawCost = 25

// rowidSample is the FROM item of a sample of about rows of the table's
// total rows drawn by lookups by its integer key (Dialect.SampleRowids),
// or false where the random filter's scan (Dialect.Sample, SampleFrom)
// is to be used:
// a table with no integer key to draw from; a table within
// wholeScanFactor samples (which may be read whole) where the draws cost
// more than the scan; and a larger table whose keys are so sparse that
// the draws outnumber a quarter of its rows.
func (p *profiler) rowidSample(ctx context.Context, rows, total int64) (string, bool, error) {
	if len(p.d.IntKeys(p.table)) == 0 {
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
	from, ok := p.d.SampleRowids(p.table.Name, r.key.Name, rows, total, r.lo, r.hi)
	return from, ok, nil
}

// subsample is the FROM item of k rows of the profile's sample, at
// random, for a statement that reads no more than k of its rows: on a
// sample drawn by key, a sample of k rows of the same draws (its rows are
// the first k of the profile's in the order drawn, which come out in
// key order); elsewhere the profile's sample itself, whose first rows
// the statement reads.
func (p *profiler) subsample(k int64) string {
	if p.byRowid && p.rid.ok {
		if from, ok := p.d.SampleRowids(p.table.Name, p.rid.key.Name, k, p.total, p.rid.lo, p.rid.hi); ok {
			return from
		}
	}
	return p.from
}
