package experts

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/stablehash"
	"github.com/discover-db/discover/warehouse"
)

// Issue 9: a table far larger than --sample-rows is never read whole, by
// any expert. The statistical expert profiles it on a sample; every other
// statement an expert runs against it (a rule's aggregate, an orphan test,
// an inclusion check, a sketch of its values) reads it through its Scope:
// the table itself when it is within WholeScanFactor samples, else a
// bounded sample of SampleRows rows, and says so in its evidence.
//
// The sample reads no more than it keeps: on engines with key lookups rows
// drawn by an integer key (Dialect.IntKeys, SampleRowids), on engines with
// a block sample whole blocks (Dialect.SampleBlocks, on some only from
// warehouse.BlockSampleRows); elsewhere (views, tables without an integer
// key on an engine without a block sample) the first SampleRows rows the
// engine returns, which bound the read but are no random sample. An
// engine with a seeded reservoir (Capabilities.Reservoir) is the exception
// below BlockSampleRows: its block samples differ from run to run, so the
// reservoir draws them, reading the columns a statement uses whole
// (columnar, about one scan's time). The rows drawn by key and the
// reservoir are samples of rows drawn one by one (Scope.Random).

// IndexMinRows is the table size below which an index buys nothing a
// scan of a few pages does not: no expert advises one for a smaller table
// (a reviewer's rule that every reference be indexed is lint's, whatever
// the size).
const IndexMinRows = 1_000

// WholeScanFactor bounds the tables any expert reads whole: at most this
// many times --sample-rows (the statistical expert's wholeScanFactor). The
// engines' dialects read it as warehouse.WholeReadFactor (Trino's sample
// turns into a LIMIT beyond it).
const WholeScanFactor = warehouse.WholeReadFactor

// CountLimit is how far a table nothing sizes is counted (a count that
// stops past it, Env.CountUpTo): WholeScanFactor samples, beyond which it
// is read only through a sample. On an engine whose sample of such a table
// is a LIMIT (LimitSample: Trino), one sample: each split read at once
// reads about the LIMIT's rows before the query ends, so a count to ten
// samples would itself read more than ten (on tpch.sf10, 10,000,001 rows
// of lineitem, and it outlasted the query timeout). A table counted past
// it is taken as larger than ten samples, its size unknown.
func CountLimit(d warehouse.Dialect, sampleRows int64) int64 {
	if d.Capabilities().LimitSample {
		return sampleRows
	}
	return WholeScanFactor * sampleRows
}

// SampleDiscount scales the confidence of a verdict drawn from a sample
// that no row it saw settles: a rule never broken in a sample is weaker
// than one never broken in the table. A violation seen in a sample is one
// in the table, and keeps its confidence.
const SampleDiscount = hypotheses.SampleDiscount

// Scope is how an expert's statements read one table: whole, or through a
// bounded sample when the table holds more than WholeScanFactor samples.
type Scope struct {
	Table warehouse.Table
	// Rows is the table's size as the run knows it: the structural
	// expert's count or estimate, the source's estimate, or a count that
	// stops above WholeScanFactor samples; -1 when unknown.
	Rows     int64
	Estimate bool // Rows is an estimate (or a lower bound)
	// Sampled: statements read Target rows of the table, not all of them.
	Sampled bool
	Target  int64
	// Random: the sample's rows are drawn at random one by one (by a
	// row id or an integer key). A sample of whole blocks holds its
	// rows in runs of neighbours in storage, often neighbours in time,
	// and the first rows the engine returns may be the table's oldest:
	// both bound what is read and show every violation they hold, but
	// neither is a picture of how the rows spread (over the week, say).
	Random bool
	// How says how the sample is drawn, for evidence.
	How string

	quoted string // the table, quoted
	from   string // the sample's FROM item, aliased warehouse.SampleAlias
	more   bool   // Rows is a bound the table exceeds (a count that stopped)
}

// Whole is the scope of a table read whole, without asking anything: what
// the experts used before issue 9, and what a table within the bound gets.
func Whole(d warehouse.Dialect, t warehouse.Table) Scope {
	return Scope{Table: t, Rows: -1, quoted: d.QuoteTable(t.Name)}
}

// From is the FROM item a statement reads the table by, with alias (none
// when empty): the quoted table itself, or the sample, wrapped in a
// subquery when the alias is not warehouse.SampleAlias.
func (s Scope) From(alias string) string {
	if !s.Sampled {
		if alias == "" {
			return s.quoted
		}
		return s.quoted + " " + alias
	}
	if alias == "" || alias == warehouse.SampleAlias {
		return s.from
	}
	return "(SELECT * FROM " + s.from + ") " + alias
}

// ID names the rows the scope reads: SampleID of its sample's FROM item,
// "" for a table read whole.
func (s Scope) ID() string {
	if !s.Sampled {
		return ""
	}
	return SampleID(s.from)
}

// SampleID names a sample by its FROM item: two statements that read a
// table through the same item read the same rows (each engine's samples
// are seeded, the same in every statement and run).
func SampleID(from string) string { return fmt.Sprintf("%016x", stablehash.Hash64(from)) }

// Quoted is the table's quoted name, for a lookup by key into it (which
// reads only the rows it finds).
func (s Scope) Quoted() string { return s.quoted }

// Evidence says which rows a statement read: "" for the whole table, else
// "on a sample of 10,000 rows of events (about 4,000,000 rows; drawn by
// rowid)".
func (s Scope) Evidence() string {
	if !s.Sampled {
		return ""
	}
	return fmt.Sprintf("on a sample of %s rows of %s (%s rows; %s)",
		catalog.Thousands(s.Target), s.Table.Name.String(), s.Size(), s.How)
}

// Size is the table's row count in words: "4,000,000", "about
// 4,000,000", "more than 1,000".
func (s Scope) Size() string {
	switch {
	case s.more:
		return "more than " + catalog.Thousands(s.Rows-1)
	case s.Estimate:
		return "about " + catalog.Thousands(s.Rows)
	}
	return catalog.Thousands(s.Rows)
}

// Counted reports whether Rows is the table's exact row count: neither
// unknown, an estimate nor a bound.
func (s Scope) Counted() bool { return s.Rows >= 0 && !s.Estimate && !s.more }

// Confidence discounts c when the figures come from a sample.
func (s Scope) Confidence(c float64) float64 {
	if !s.Sampled {
		return c
	}
	return Discount(c)
}

// Discount is c scaled by SampleDiscount, to two decimals.
func Discount(c float64) float64 { return hypotheses.Discount(c) }

// JoinEvidence joins the sample phrases of scopes (those that are sampled)
// into one: "" when every table is read whole.
func JoinEvidence(scopes ...Scope) string {
	var parts []string
	for _, s := range scopes {
		if e := s.Evidence(); e != "" {
			parts = append(parts, e)
		}
	}
	return strings.Join(parts, "; ")
}

// LeadsIndex reports whether some declared index of t (its primary key, a
// unique constraint or an index) starts with col: a lookup by col reads
// only the rows it finds.
func LeadsIndex(t warehouse.Table, col string) bool {
	if len(t.PrimaryKey) > 0 && strings.EqualFold(t.PrimaryKey[0], col) {
		return true
	}
	for _, u := range t.Uniques {
		if len(u) > 0 && strings.EqualFold(u[0], col) {
			return true
		}
	}
	for _, ix := range t.Indexes {
		if len(ix.Columns) > 0 && strings.EqualFold(ix.Columns[0], col) {
			return true
		}
	}
	return false
}

// scopeCache keeps each table's scope for the iteration: its size and, on
// an engine with key lookups, its key range are asked once.
type scopeCache struct {
	mu sync.Mutex
	m  map[string]Scope
}

// Scope returns how statements read t (see Scope). Only a spent budget, a
// cancelled run or a timeout is an error; a table whose size or rowids
// cannot be had is read whole when nothing says it is large, and by its
// first rows when something does.
func (e *Env) Scope(ctx context.Context, t warehouse.Table) (Scope, error) {
	key := t.Name.String()
	if e.scopes != nil {
		e.scopes.mu.Lock()
		s, ok := e.scopes.m[key]
		e.scopes.mu.Unlock()
		if ok {
			return s, nil
		}
	}
	s, err := e.scope(ctx, t)
	if err != nil {
		return s, err
	}
	if e.scopes != nil {
		e.scopes.mu.Lock()
		e.scopes.m[key] = s
		e.scopes.mu.Unlock()
	}
	return s, nil
}

// Fatal reports an error that ends the work rather than being worked
// around (a table read another way, a column at a time): a spent budget,
// a cancelled run, a timeout would only repeat on the next statement.
func Fatal(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, ErrQueryBudget) || errors.Is(err, context.DeadlineExceeded)
}

func (e *Env) scope(ctx context.Context, t warehouse.Table) (Scope, error) {
	s := Whole(e.Dialect(), t)
	n := e.Options.SampleRows
	if n <= 0 {
		return s, nil
	}
	rows, estimate, more, err := e.tableSize(ctx, t, CountLimit(e.Dialect(), n))
	switch {
	case err != nil && Fatal(ctx, err):
		return s, err
	case err != nil:
		return s, nil // the statements will meet the same trouble
	}
	s.Rows, s.Estimate, s.more = rows, estimate, more
	if rows <= WholeScanFactor*n && !more {
		return s, nil
	}
	s.Sampled, s.Target = true, n
	from, how, random, err := e.SampleOf(ctx, t, n, rows)
	if err != nil {
		return Whole(e.Dialect(), t), err
	}
	s.from, s.How, s.Random = from, how, random
	return s, nil
}

// tableSize is t's row count: the structural expert's of this run, else
// the source's estimate, else a count that stops at limit+1 rows (more:
// the table holds more than limit rows, how many more is not known).
func (e *Env) tableSize(ctx context.Context, t warehouse.Table, limit int64) (rows int64, estimate, more bool, err error) {
	if en, err := e.Catalog.Get(ctx, catalog.KindTable, t.Name.String()); err == nil && en.RunID == e.RunID {
		var doc catalog.TableDoc
		if en.Decode(&doc) == nil && doc.RowCount != nil {
			return *doc.RowCount, doc.RowCountIsEstimate, doc.RowCountIsLowerBound, nil
		}
	}
	if n, exact, ok, err := e.EstimateRows(ctx, t.Name); ok {
		if err == nil {
			return n, !exact, false, nil
		} else if Fatal(ctx, err) {
			return 0, false, false, err
		}
	}
	c, more, err := e.CountUpTo(ctx, t.Name, limit)
	return c, more, more, err
}

// CountUpTo counts t's rows, but stops after limit+1: the count is exact
// when more is false, and when more is true the table holds more than
// limit rows (n is limit+1), how many more is not known. It reads at most
// limit+1 rows, so a huge table or a view over one costs no full scan.
func (e *Env) CountUpTo(ctx context.Context, t warehouse.TableName, limit int64) (n int64, more bool, err error) {
	d := e.Dialect()
	res, err := e.Query(ctx, fmt.Sprintf("SELECT COUNT(*) AS n FROM (SELECT 1 AS one FROM %s %s) b",
		d.QuoteTable(t), d.Limit(limit+1)))
	if err != nil {
		return 0, false, err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return 0, false, fmt.Errorf("count of %s returned no count", t)
	}
	c, err := strconv.ParseInt(fmt.Sprint(res.Rows[0][0]), 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("count of %s returned %v", t, res.Rows[0][0])
	}
	return c, c > limit, nil
}

// SampleOf is a FROM item, aliased warehouse.SampleAlias, of about rows
// rows of t, which holds total rows, that reads no more than it keeps (a
// block sample reads whole blocks; a seeded reservoir, the exception,
// reads the columns a statement uses whole), with how it is drawn and
// whether it is random: on a table keyed by an integer (Dialect.IntKeys:
// a row id, or an integer primary key) rows drawn by that key ("drawn by
// rowid", "drawn by integer key id"), where Dialect.SampleBlocks has a
// form whole blocks, with Capabilities.Reservoir below BlockSampleRows
// the seeded reservoir, and otherwise the first rows rows the engine
// returns; random is true for rows drawn one by one
// (Scope.Random). Only a spent budget, a cancelled run or a timeout is an
// error.
func (e *Env) SampleOf(ctx context.Context, t warehouse.Table, rows, total int64) (from, how string, random bool, err error) {
	d := e.Dialect()
	quoted := d.QuoteTable(t.Name)
	first := func() (string, string, bool, error) {
		return fmt.Sprintf("(SELECT * FROM %s %s) %s", quoted, d.Limit(rows), warehouse.SampleAlias),
			"its first rows as the engine returns them, not a random sample", false, nil
	}
	if !t.Stored() {
		return first()
	}
	if len(d.IntKeys(t)) > 0 {
		f, how, ok, err := e.rowidSample(ctx, d, t, rows, total)
		switch {
		case err != nil:
			return "", "", false, err
		case ok:
			return f, how, true, nil
		}
		return first()
	}
	if f, ok := d.SampleBlocks(t.Name, rows, total); ok {
		return f, "whole blocks drawn at random (TABLESAMPLE SYSTEM)", false, nil
	}
	if ts, ok := d.(warehouse.TableSampler); ok {
		if f, how, ok := ts.SampleTable(t, rows, total); ok {
			return f, how, true, nil
		}
	}
	if d.Capabilities().Reservoir {
		// Below the size the engine samples blocks from: its seeded
		// reservoir, the same rows in every run, for about one scan of
		// the columns a statement reads.
		return d.Sample(t.Name, rows, total), "drawn at random by a seeded reservoir over the whole table", true, nil
	}
	return first()
}

// FindIntKey finds t's integer key and its least and greatest values
// (warehouse.FindIntKey), asking through the run's query path; sent, when
// set, is called for each statement. A statement that fails for a reason
// Fatal does not name means "no such key", not an error.
func (e *Env) FindIntKey(ctx context.Context, d warehouse.Dialect, t warehouse.Table, sent func()) (k warehouse.IntKey, lo, hi int64, rows, found bool, err error) {
	return warehouse.FindIntKey(d, t, func(q string) ([]any, error) {
		if sent != nil {
			sent()
		}
		res, err := e.Query(ctx, q)
		switch {
		case err != nil && Fatal(ctx, err):
			return nil, err
		case err != nil || len(res.Rows) != 1:
			return nil, nil // WITHOUT ROWID (no such column), virtual (no row)
		}
		return res.Rows[0], nil
	})
}

// rowidSample draws a table's sample by lookups by its integer key
// (warehouse.IntKey: a row id, or a primary key of one integer column
// that keys the table's b-tree), when it has one and
// its keys are not so sparse that the draws outnumber a quarter of its
// rows. how names the key.
func (e *Env) rowidSample(ctx context.Context, d warehouse.Dialect, t warehouse.Table, rows, total int64) (from, how string, ok bool, err error) {
	k, lo, hi, some, found, err := e.FindIntKey(ctx, d, t, nil)
	if err != nil || !found || !some {
		return "", "", false, err
	}
	draws, ok := warehouse.RowidDraws(rows, total, lo, hi)
	if !ok || draws > total/4 {
		return "", "", false, nil
	}
	from, ok = d.SampleRowids(t.Name, k.Name, rows, total, lo, hi)
	return from, "drawn by " + k.String(), ok, nil
}
