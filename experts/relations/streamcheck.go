package relations

// Streamed inclusion checks (issue 20). The exact check of a candidate
// (inclusionSQL) groups the child column's rows by value and looks each
// value up in the parent: on SQLite a sort of the whole child table, once
// per candidate column, so that a fact table with ten references was read
// and sorted ten times, most of the inference's time on a warehouse. On an
// engine that streams rows to the client (experts.Streamer: SQLite) the
// groups of all of a large table's integer candidate columns are instead
// counted from one read of those columns, and the parent's keys from one
// read of its key; the figures are the check's own (the same SQL would
// give the same five numbers), and the check's SQL stays in the evidence
// as the statement that measures them.
//
// Only where the figures cannot differ: integer columns on both sides (a
// value of another type, which the engine's comparison would convert,
// sends the pair back to SQL), a parent read whole whose key holds each
// value once, and bounded sizes: a child column with at most
// maxGroupValues distinct values, a parent with at most maxParentKeys
// rows, at most maxHeldGroups groups held at a time.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/discover-db/discover/experts"
	"golang.org/x/sync/singleflight"
)

// streamCheckMinRows: smaller child tables are checked by SQL, whose sort
// of a few thousand rows costs less than a read to the client. A variable
// for the tests, which compare both ways on the same tables.
var streamCheckMinRows int64 = 100_000

const (
	// maxGroupValues bounds the distinct values of a child column counted
	// in the client (its profile's count); more are grouped by the engine.
	maxGroupValues = 1_000_000
	// maxParentKeys bounds the rows of a parent whose keys are read.
	maxParentKeys = 2_000_000
)

// maxHeldGroups bounds the groups held at once, all tables together, and
// those the reads under way may bring: a new table's read lets the
// others' go first, and waits for reads under way. A variable for the
// tests.
var maxHeldGroups int64 = 4_000_000

// groupReads counts the child tables' reads under way, and the most there
// were, for the tests.
var groupReads workerCount

// streamedColumns counts the columns streamed reads read (a child table's
// read counts each of its columns), for the tests.
var streamedColumns atomic.Int64

// groups counts one column's non-NULL values.
type groups struct {
	counts map[int64]int64
	other  bool // a value that is no integer: the engine must compare it
}

// streamChecks holds the groups read so far, by table and column, and the
// parents' key sets. Several child tables are checked at once, each by
// one worker (checkCandidates): mu guards the maps, not the reads, and a
// parent's keys asked for while they are being read wait for that read.
type streamChecks struct {
	env    *experts.Env
	want   map[string]map[string]int64 // child table → columns its candidates check → distinct values; set before the checks
	mu     sync.Mutex
	read   map[string]map[string]*groups // child table → column → groups
	keys   map[string]map[int64]struct{} // parent table.column → its values; nil: not usable
	held   int                           // groups held
	flying int64                         // groups the reads under way may bring, at most
	landed *sync.Cond                    // a read ended: flying went down
	reads  int                           // streamed reads of child tables and parents
	failed map[string]bool               // tables whose read failed: SQL checks them
	active map[string]int                // child tables being checked, whose groups stay
	flight singleflight.Group            // parents' key reads
	kept   map[string]keptFigures        // by candidate key: what skipKept looked up (its table's worker only)
	keptMu sync.Mutex                    // kept
}

func newStreamChecks(env *experts.Env) *streamChecks {
	sc := &streamChecks{env: env, want: map[string]map[string]int64{}, read: map[string]map[string]*groups{},
		keys: map[string]map[int64]struct{}{}, failed: map[string]bool{}, active: map[string]int{}, kept: map[string]keptFigures{}}
	sc.landed = sync.NewCond(&sc.mu)
	return sc
}

// plan notes the child columns of cands that a streamed check could take,
// so that a table's first check reads them all.
func (sc *streamChecks) plan(cands []Candidate) {
	if sc == nil || !sc.env.CanStream() {
		return
	}
	for _, c := range cands {
		if !groupable(c) {
			continue
		}
		if sc.want[c.Child.Table] == nil {
			sc.want[c.Child.Table] = map[string]int64{}
		}
		sc.want[c.Child.Table][c.Child.Name] = *c.Child.Profile.DistinctCount
	}
}

// groupable reports whether a candidate's columns are integers on both
// sides and the child's distinct values are few enough to count.
func groupable(c Candidate) bool {
	if typeClass(c.Child.Type) != "integer" || typeClass(c.Parent.Type) != "integer" {
		return false
	}
	p := c.Child.Profile
	return p != nil && p.DistinctCount != nil && *p.DistinctCount <= maxGroupValues
}

// inclusion measures c's check from streamed reads, when it can; ok is
// false when the SQL must measure it.
func (sc *streamChecks) inclusion(ctx context.Context, c Candidate, cs, ps experts.Scope) (in Inclusion, ok bool, err error) {
	if sc == nil {
		return in, false, nil
	}
	sc.mu.Lock()
	failed := sc.failed[c.Child.Table]
	sc.mu.Unlock()
	if failed || !sc.streamable(c, cs, ps) {
		return in, false, nil
	}
	keys, err := sc.parentKeys(ctx, c, ps)
	if err != nil || keys == nil {
		return in, false, err
	}
	g, err := sc.groupsOf(ctx, c, cs)
	if err != nil || g == nil || g.other {
		return in, false, err
	}
	for v, n := range g.counts {
		in.ChildDistinct++
		in.NonNull += n
		if _, hit := keys[v]; hit {
			in.MaxChildren = max(in.MaxChildren, n)
		} else {
			in.OrphanDistinct++
			in.OrphanRows += n
		}
	}
	in.Sample = cs.Evidence()
	return in, true, nil
}

// streamable reports whether c's check would be measured from streamed
// reads: a column planned for its table's read, a child table large
// enough, a parent read whole with keys few enough.
func (sc *streamChecks) streamable(c Candidate, cs, ps experts.Scope) bool {
	return sc.counted(c.Child, cs) && !ps.Sampled && ps.Rows >= 0 && ps.Rows <= maxParentKeys
}

// counted reports whether a child column's values are counted by its
// table's streamed read: a column planned for it (plan: only on an engine
// that streams) of a table large enough.
func (sc *streamChecks) counted(c Column, cs experts.Scope) bool {
	_, wanted := sc.want[c.Table][c.Name]
	return wanted && cs.Rows >= streamCheckMinRows
}

// columnGroups returns the groups of a child column its table's streamed
// read counts (or has counted), for the column's sketch: nil when the
// read does not count it (counted), when a value is no integer, or when
// the read failed.
func (sc *streamChecks) columnGroups(ctx context.Context, c Column, cs experts.Scope) (*groups, error) {
	if sc == nil || !sc.counted(c, cs) {
		return nil, nil
	}
	sc.mu.Lock()
	failed := sc.failed[c.Table]
	sc.mu.Unlock()
	if failed {
		return nil, nil
	}
	g, err := sc.groupsOf(ctx, Candidate{Child: c}, cs)
	if err != nil || g == nil || g.counts == nil {
		return nil, err
	}
	return g, nil
}

// groupsOf returns the groups of c's child column, reading its table's
// wanted columns not read yet in one statement.
//
// Only the worker checking the table calls it for that table, so no two
// reads of one table run at once.
func (sc *streamChecks) groupsOf(ctx context.Context, c Candidate, cs experts.Scope) (*groups, error) {
	table := c.Child.Table
	sc.mu.Lock()
	if g := sc.read[table][c.Child.Name]; g != nil {
		sc.mu.Unlock()
		return g, nil
	}
	var cols []string
	var more int64
	for col, distinct := range sc.want[table] {
		if sc.read[table][col] == nil {
			cols = append(cols, col)
			more += distinct
		}
	}
	slices.Sort(cols)
	// Let the groups of tables no worker is checking go when this read
	// could pass the bound; while it still could, with other reads under
	// way, wait for them (one read alone always goes: its table needs it).
	for {
		if int64(sc.held)+sc.flying+more > maxHeldGroups {
			for t := range sc.read {
				if t != table && sc.active[t] == 0 {
					for _, g := range sc.read[t] {
						sc.held -= len(g.counts)
					}
					delete(sc.read, t)
				}
			}
		}
		if sc.flying == 0 || int64(sc.held)+sc.flying+more <= maxHeldGroups {
			break
		}
		sc.landed.Wait()
	}
	sc.flying += more
	sc.reads++
	sc.mu.Unlock()
	defer func() {
		sc.mu.Lock()
		sc.flying -= more
		sc.landed.Broadcast()
		sc.mu.Unlock()
	}()
	d := sc.env.Dialect()
	exprs := make([]string, len(cols))
	for i, col := range cols {
		exprs[i] = "c." + d.QuoteIdent(col)
	}
	read := make([]*groups, len(cols))
	for i := range read {
		read[i] = &groups{counts: map[int64]int64{}}
	}
	q := fmt.Sprintf("SELECT %s FROM %s", strings.Join(exprs, ", "), cs.From("c"))
	streamedColumns.Add(int64(len(cols)))
	groupReads.begin()
	defer groupReads.end()
	err := sc.env.Stream(ctx, q, func(row []any) error {
		for i, v := range row {
			if v == nil || read[i].other {
				continue
			}
			if x, ok := integer(v); ok {
				read[i].counts[x]++
			} else {
				read[i].other = true
			}
		}
		return nil
	})
	if err != nil {
		if experts.Fatal(ctx, err) {
			return nil, err
		}
		sc.mu.Lock()
		sc.failed[table] = true // the SQL checks meet or settle the same trouble
		sc.mu.Unlock()
		return nil, nil
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.read[table] == nil {
		sc.read[table] = map[string]*groups{}
	}
	for i, col := range cols {
		if read[i].other {
			read[i].counts = nil
		}
		sc.read[table][col] = read[i]
		sc.held += len(read[i].counts)
	}
	return sc.read[table][c.Child.Name], nil
}

// parentKeys returns the set of the parent's key values, read once; nil
// when a value is no integer or one repeats (the check's join would then
// count a group once per match).
func (sc *streamChecks) parentKeys(ctx context.Context, c Candidate, ps experts.Scope) (map[int64]struct{}, error) {
	k := c.Parent.qualified()
	sc.mu.Lock()
	keys, done := sc.keys[k]
	sc.mu.Unlock()
	if done {
		return keys, nil
	}
	v, err, _ := sc.flight.Do(k, func() (any, error) { return sc.readKeys(ctx, c, ps) })
	if err != nil {
		return nil, err
	}
	return v.(map[int64]struct{}), nil
}

// readKeys reads a parent's key values for parentKeys.
func (sc *streamChecks) readKeys(ctx context.Context, c Candidate, ps experts.Scope) (map[int64]struct{}, error) {
	k := c.Parent.qualified()
	d := sc.env.Dialect()
	col := "p." + d.QuoteIdent(c.Parent.Name)
	keys := make(map[int64]struct{}, max(ps.Rows, 0))
	usable := true
	sc.mu.Lock()
	sc.reads++
	sc.mu.Unlock()
	streamedColumns.Add(1)
	err := sc.env.Stream(ctx, fmt.Sprintf("SELECT %s FROM %s WHERE %s IS NOT NULL", col, ps.From("p"), col), func(row []any) error {
		if !usable {
			return nil
		}
		x, ok := integer(row[0])
		if _, dup := keys[x]; !ok || dup {
			usable = false
			return nil
		}
		keys[x] = struct{}{}
		return nil
	})
	if err != nil {
		if experts.Fatal(ctx, err) {
			return nil, err
		}
		usable = false
	}
	if !usable {
		keys = nil
	}
	sc.mu.Lock()
	sc.keys[k] = keys
	sc.mu.Unlock()
	return keys, nil
}

// integer is v as an int64 when the driver returned an integer type.
func integer(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int16:
		return int64(x), true
	case int8:
		return int64(x), true
	case int:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint8:
		return int64(x), true
	}
	return 0, false
}

// begin marks a child table as being checked, so that its groups are not
// let go to make room for another's; end unmarks it.
func (sc *streamChecks) begin(table string) {
	if sc == nil {
		return
	}
	sc.mu.Lock()
	sc.active[table]++
	sc.mu.Unlock()
}

func (sc *streamChecks) end(table string) {
	if sc == nil {
		return
	}
	sc.mu.Lock()
	sc.active[table]--
	sc.mu.Unlock()
}
