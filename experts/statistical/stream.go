package statistical

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/semaphore"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/stablehash"
	"github.com/discover-db/discover/warehouse"
)

// The streaming profile is the statistical pass for sources that are a
// Streamer (SQLite in process, PostgreSQL over its connection), where the
// engine's own aggregates cost a sort or a B-tree per COUNT(DISTINCT), per
// GROUP BY and per ORDER BY … OFFSET — thirty scans' worth for a dozen
// columns — while reading every row once costs one scan. One SELECT of the
// columns is read to the end and every figure the aggregate, frequent-value,
// detail and anomaly queries would have returned is computed here, with the
// engine's semantics: SQLite's (dynamic types' storage classes, its
// COUNT(DISTINCT) equality, its reading of dates held as text) unless the
// dialect has its own (engineValues).
//
// Memory is bounded by the rows read (at most --sample-rows on a sampled
// table), never by the values' sizes: each column keeps at most exactCap
// distinct values with their counts; beyond that, one 64-bit hash per row;
// measures keep their numbers, 8 bytes a row. A pass reads every column (up
// to maxColumnsPerQuery) and holds what its columns keep, as they find it,
// within maxStreamCells (passMem): a column that would take more is given up
// for the pass and read again by the next one. Each pass over a sample drawn
// by a filter (a keyed or a random() sample) scans the whole table, and one
// over a sample drawn by key lookups makes them again: a table whose columns
// fit is read once (at star scale 1, the sampled fact tables of 21 and 31
// columns took two and three passes of 15 columns each).

// maxStreamCells bounds the 8-byte cells one pass keeps (128 MiB): the
// hash logs and the distinct values counted exactly, the measures' numbers
// aside (streamWeight counts those). A variable for the tests of wide
// tables on small ones.
var maxStreamCells int64 = 16 << 20

const (
	// exactCap is how many distinct values a column counts exactly, with
	// the values themselves, before it keeps hashes instead.
	exactCap = 1 << 16
	// exampleCap bounds the candidate examples kept per anomaly.
	exampleCap = 256
)

// streamBudget bounds, across every table profiled at once, the bytes the
// streamed profiles keep a row: 8 for a column's hash log while its pass
// reads, 16 for a measure (its numbers, and their sorted copy) until its
// table is done. Profiles that would exceed it together wait for one
// another; a table that alone exceeds it takes the whole budget, and a
// small one takes none (streamQueueWeight). With the
// process's soft memory limit (cmd/discover), it keeps the heap of a run
// over a warehouse's largest tables under the bound the README documents.
const streamBudget = 320 << 20

// streamQueueWeight: profiles that hold less than this (a table of some
// 100,000 rows) take no share of the budget; the --parallel tasks of a run
// bound how many run at once.
const streamQueueWeight = streamBudget / 16

// streamMemory is the budget's semaphore, shared by every run of the
// process.
var streamMemory = semaphore.NewWeighted(streamBudget)

// streamWeight is what a streamed profile of expected rows, perPass
// columns a pass, of specs holds at most: one pass's hash logs and every
// measure's numbers.
func streamWeight(specs []colSpec, perPass int, expected int64) int64 {
	measures := 0
	for _, c := range specs {
		if c.Measure {
			measures++
		}
	}
	return min(streamBudget, max(expected, 1)*int64(8*min(perPass, len(specs))+16*measures))
}

// hashSeed is fixed for the process: hashes are compared only within a pass.
var hashSeed = maphash.MakeSeed()

// exSet counts candidate example values, up to exampleCap of them.
type exSet map[string]int64

func (e *exSet) add(v string) {
	if *e == nil {
		*e = exSet{}
	}
	if _, ok := (*e)[v]; ok || len(*e) < exampleCap {
		(*e)[v]++
	}
}

// values lists the examples with their counts, in no order.
func (e exSet) values() []valueCount {
	vs := make([]valueCount, 0, len(e))
	for v, n := range e {
		vs = append(vs, valueCount{v, n})
	}
	return vs
}

// engineValues is a source whose values, as Stream hands them over, read
// otherwise than SQLite's (the streaming profile's default semantics): the
// streamed figures take the engine's text of a value and its reading of a
// date, so that they are the ones its own aggregates would give.
type engineValues interface {
	// ValueText is CAST(v AS TEXT), for a value of a column of the
	// declared type typ, where it differs from SQLite's; false leaves it
	// to castText.
	ValueText(v any, typ string) (string, bool)
	// ValueTime reads a date-typed value as the engine's calendar
	// functions do.
	ValueTime(v any) (time.Time, bool)
	// NumberText is the text the engine hands over for MIN or MAX of a
	// column of the declared type typ holding the number v, where that is
	// text (an exact numeric's); false when it is the number itself.
	NumberText(v any, typ string) (string, bool)
	// Quantile is the engine's quantile p of sorted (Dialect.Quantiles).
	Quantile(sorted []float64, p float64) float64
}

// colAcc accumulates one column over a pass.
type colAcc struct {
	spec   colSpec
	dateOK bool         // the declared type is a date or timestamp
	typ    string       // the declared type
	engine engineValues // nil: SQLite's semantics

	nonNull            int64
	tNum, tText, tBlob int64

	// Numbers (storage classes integer and real).
	nv         int64
	ints       int64 // values of storage class integer
	sum, sumSq ksum
	nums       []float64 // measures: one per row, NaN where the row has no number
	minNum     any
	maxNum     any
	minNumF    float64
	maxNumF    float64
	minText    string
	maxText    string
	haveText   bool
	minBlob    []byte
	maxBlob    []byte
	haveBlob   bool
	negatives  int64
	badAges    int64
	zeros      int64
	lenMin     int64
	lenMax     int64
	lenSum     int64
	lenN       int64
	spaces     int64
	empties    int64
	placeholds int64
	epochs     int64

	// Distinct values: exact while they fit, hashes after.
	idx      hashIndex
	ents     []valueCount // distinct values in the order first seen
	overflow bool
	log      []uint64 // after an overflow, one hash a row; dropped by finish
	expect   int64    // the rows the pass expects: the log's size
	// What finish reads off the sorted log before dropping it (after an
	// overflow): distinct hashes, hashes held by one row, and hashes held
	// by several that are no blank or placeholder value.
	logDistinct, logSingletons, logDups int64
	sample                              []string        // after an overflow: the first patternSample distinct values
	missing                             map[uint64]bool // hashes of blank and placeholder values

	// Calendar, decided at the first non-null value.
	calDecided bool
	cal        *calendar
	future     int64
	futureEx   exSet

	exText, exNum, exBlob exSet
	numExFrom             int64 // numbers seen before exNum started
	exEmpty, exPlace      exSet
	exEpoch               exSet
	exNeg, exAge          exSet

	sorted []float64 // the numbers in order, after finish

	// What the column holds of its pass's memory (passMem), in 8-byte
	// cells; nil mem: nothing is counted (a pass of one column, tests).
	mem      *passMem
	held     int64
	reserved bool // never dropped (passMem)
	dropped  bool // given up for this pass: read again by the next
}

// passMem is what a pass may still hold, in 8-byte cells. A pass reads
// every column at once, but which columns will give up their exact counts
// for a hash a row is known only as they do: each column takes cells as its
// distinct values and its hash log grow, and one that finds none left is
// dropped from the pass (its values are then skipped) and read by the next,
// so that a pass holds no more than maxStreamCells whatever its width.
// Reserved columns are never dropped: a pass's first, so that each pass
// keeps one, and the measures of the first pass, up to perPass of them
// (within the bound: perPass columns' logs fit it), whose numbers the
// correlations read row by row, from one pass.
type passMem struct{ left int64 }

// entryCells is what one distinct value counted exactly costs: its entry
// (text and count, 24 bytes), its slots in the hash index (12 bytes each,
// at most half full) and the text's bytes.
func entryCells(v string) int64 { return int64(48+len(v)+7) / 8 }

// take charges n cells to the column, false when the pass has not so many
// left: the column is then dropped. A reserved column is never dropped:
// what it takes leaves less for the others.
func (a *colAcc) take(n int64) bool {
	if a.mem == nil {
		return true
	}
	if n > a.mem.left && !a.reserved {
		a.drop()
		return false
	}
	a.mem.left -= n
	a.held += n
	return true
}

// drop gives the column up for the pass and returns its cells.
func (a *colAcc) drop() {
	a.mem.left += a.held
	a.held = 0
	a.dropped = true
	a.idx, a.ents, a.log, a.nums, a.sample, a.missing = hashIndex{}, nil, nil, nil, nil, nil
}

// canStream decides whether the table is profiled by streaming and how many
// columns' hash logs a pass may hold: the source must stream, and one
// column of the rows to read must fit maxStreamCells.
func (p *profiler) canStream(expectedRows int64) (perPass int, ok bool) {
	if !p.env.CanStream() || expectedRows > maxStreamCells {
		return 0, false
	}
	return int(max(1, min(int64(maxColumnsPerQuery), maxStreamCells/max(expectedRows, 1)))), true
}

// streamColumn is the expression a pass reads column c by.
func (p *profiler) streamColumn(c colSpec) string {
	q := p.d.QuoteIdent(c.Name)
	if _, own := p.d.(engineValues); !own && isDateType(p.table.Columns[c.Index].Type) {
		// The driver turns the text of DATE, DATETIME and TIMESTAMP
		// columns into times and back, not always into the same text;
		// a no-op unary plus hides the declared type from it.
		return "+" + q
	}
	return q
}

// streamProfile reads the columns of specs in passes and fills stats: each
// pass reads the columns no earlier pass kept, and keeps those that fit its
// memory (passMem), at least its first.
func (p *profiler) streamProfile(ctx context.Context, specs []colSpec, stats []*colStats, perPass int, expected int64, now time.Time) error {
	today := civil{now.UTC().Year(), int(now.UTC().Month()), now.UTC().Day()}
	// The measures first, so that a wide table's measures share a pass: a
	// random sample draws other rows in each pass, and the correlations
	// and rank correlations are computed from the numbers of one pass
	// (passKept), else by one more aggregate over the table, which on a
	// table read whole for its sample cost most of its profile.
	specs = slices.Clone(specs)
	slices.SortStableFunc(specs, func(a, b colSpec) int {
		switch {
		case a.Measure == b.Measure:
			return 0
		case a.Measure:
			return -1
		}
		return 1
	})
	engine, _ := p.d.(engineValues)
	// The rows expected, a little more for a random draw's spread: the
	// per-row slices take their size once, not by growing, which would
	// keep up to twice the rows' memory.
	expect := max(1024, expected+expected/50)
	for first := true; len(specs) > 0; first = false {
		chunk := specs[:min(len(specs), maxColumnsPerQuery)]
		mem := &passMem{left: max(maxStreamCells, int64(perPass)*expect)}
		accs := make([]*colAcc, len(chunk))
		cols := make([]string, len(chunk))
		for i, c := range chunk {
			accs[i] = &colAcc{spec: c, lenMin: math.MaxInt64, expect: expect,
				dateOK: isDateType(p.table.Columns[c.Index].Type), typ: p.table.Columns[c.Index].Type, engine: engine}
			if c.Measure {
				accs[i].nums = make([]float64, 0, expect)
			}
			if len(chunk) > 1 {
				accs[i].mem = mem
			}
			// The pass's first column always, so that each pass keeps
			// one; and the measures a pass of perPass columns would
			// have read first, which share it for the correlations.
			accs[i].reserved = i == 0 || first && c.Measure && i < perPass
			cols[i] = p.streamColumn(c)
		}
		q := "SELECT " + strings.Join(cols, ", ") + " FROM " + p.from
		p.queries++
		rows, err := p.pipeline(ctx, q, accs, today)
		if err != nil {
			return err
		}
		p.rows, p.haveRow = rows, true
		var kept []*colAcc
		var again []colSpec
		for _, a := range accs {
			if a.dropped {
				again = append(again, a.spec)
			} else {
				kept = append(kept, a)
			}
		}
		specs = append(again, specs[len(chunk):]...)
		// A few goroutines finish the columns, each with one sort buffer.
		var wg sync.WaitGroup
		next := make(chan *colAcc)
		for range min(runtime.GOMAXPROCS(0), len(kept)) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var scratch []uint64
				for a := range next {
					a.finish(&scratch)
				}
			}()
		}
		for _, a := range kept {
			next <- a
		}
		close(next)
		wg.Wait()
		for _, a := range kept {
			p.fill(stats[a.spec.Index], a)
		}
	}
	return nil
}

// batchRows is how many rows the reader hands the accumulator at a time.
const batchRows = 1024

// pipeline streams q into accs and returns the rows read. The engine reads
// on one goroutine and the accumulators count on another, in batches, so a
// pass costs about the longer of the two rather than their sum.
func (p *profiler) pipeline(ctx context.Context, q string, accs []*colAcc, today civil) (int64, error) {
	w := len(accs)
	type batch struct {
		vals []any
		n    int
	}
	full := make(chan *batch, 4)
	free := make(chan *batch, 4)
	for range 4 {
		free <- &batch{vals: make([]any, batchRows*w)}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := range full {
			// Column by column: each column's accumulator (its hash
			// index, its type switch) stays in the caches for a batch,
			// where row by row every column's evicted the others'
			// (12% less of the accumulators' CPU on 20 columns of
			// 200,000 numbers of 5 to 2⁴⁰ values, best of five). The
			// columns are counted apart, so the order changes no
			// figure; it changes only which columns a full pass drops
			// (passMem) first.
			for i, a := range accs {
				for r := range b.n {
					a.add(b.vals[r*w+i], today)
				}
			}
			clear(b.vals[:b.n*w]) // let the values go
			free <- b
		}
	}()
	var rows int64
	cur := <-free
	err := p.env.Stream(ctx, q, func(row []any) error {
		rows++
		copy(cur.vals[cur.n*w:], row)
		cur.n++
		if cur.n == batchRows {
			full <- cur
			cur = <-free
			cur.n = 0
		}
		return nil
	})
	if cur.n > 0 {
		full <- cur
	}
	close(full)
	<-done
	return rows, err
}

// add takes one value of the column.
func (a *colAcc) add(v any, today civil) {
	if a.dropped {
		return
	}
	if v == nil {
		if a.nums != nil {
			a.nums = append(a.nums, math.NaN())
		}
		return
	}
	a.nonNull++
	var h uint64
	var text string // the value as CAST(v AS TEXT) gives it, for strings
	isText := false
	switch x := v.(type) {
	case int64:
		a.ints++
		a.number(float64(x), v)
		h = stablehash.Number(float64(x), x)
	case float64:
		a.number(x, v)
		h = stablehash.Number(x, 0)
	case string:
		a.tText++
		text, isText = x, true
		h = maphash.String(hashSeed, x)
		if !a.haveText || x < a.minText {
			a.minText = x
		}
		if !a.haveText || x > a.maxText {
			a.maxText = x
		}
		a.haveText = true
		if a.spec.Types {
			a.exText.add(x)
		}
	case []byte:
		a.tBlob++
		h = maphash.Bytes(hashSeed, x) ^ 0x9e3779b97f4a7c15
		if !a.haveBlob || string(x) < string(a.minBlob) {
			a.minBlob = slices.Clone(x)
		}
		if !a.haveBlob || string(x) > string(a.maxBlob) {
			a.maxBlob = slices.Clone(x)
		}
		a.haveBlob = true
		if a.spec.Types {
			a.exBlob.add(string(x))
		}
		text, isText = string(x), true
	default:
		s, _ := render(v)
		a.tText++
		text, isText = s, true
		h = maphash.String(hashSeed, s)
	}
	if h == 0 {
		// The hash index keeps 0 as 1 (its empty slot), and the log takes
		// the index's keys when the column overflows: the same here, or a
		// value hashing to 0 (the number 0 does) counts twice after that.
		h = 1
	}
	if a.nums != nil {
		switch x := v.(type) {
		case int64:
			a.nums = append(a.nums, float64(x))
		case float64:
			a.nums = append(a.nums, x)
		default:
			a.nums = append(a.nums, math.NaN())
		}
	}
	if !isText && (a.spec.Text || a.spec.Missing) {
		text, _ = render(v)
	}
	if a.spec.Types && !isText && a.tText+a.tBlob > 0 {
		// Numbers are examples only when they are the odd ones out, which
		// the first value of another class makes possible; rendering every
		// number of a numeric column would cost more than the rest.
		if a.exNum == nil {
			a.numExFrom = a.tNum - 1
		}
		a.exNum.add(a.castText(v))
	}
	if a.spec.Text {
		n := int64(utf8.RuneCountInString(text))
		if _, blob := v.([]byte); blob {
			n = int64(len(text))
		}
		a.lenMin, a.lenMax = min(a.lenMin, n), max(a.lenMax, n)
		a.lenSum += n
		a.lenN++
		if strings.IndexByte(text, ' ') >= 0 {
			a.spaces++
		}
	}
	if a.spec.Missing {
		missing := false
		if strings.Trim(text, " ") == "" {
			a.empties++
			a.exEmpty.add(text)
			missing = true
		}
		if isPlaceholder(text) {
			a.placeholds++
			a.exPlace.add(text)
			missing = true
		} else if isEpoch(text) {
			a.epochs++
			a.exEpoch.add(text)
		}
		if missing {
			if a.missing == nil {
				a.missing = map[uint64]bool{}
			}
			a.missing[h] = true
		}
	}
	a.distinct(h, v)
	if !a.calDecided {
		a.calDecided = true
		if a.dateOK || isText && looksDate(text) {
			a.cal = &calendar{months: map[int]int64{}}
		}
	}
	if a.cal != nil {
		if t, ok := a.time(v); ok {
			a.cal.months[t.year*100+t.month]++
			a.cal.dow[t.dow()]++
			a.cal.hour[t.hour]++
			if t.civil.after(today) {
				a.future++
				a.futureEx.add(a.castText(v))
			}
		}
	}
}

// castText is CAST(v AS TEXT) on the column's engine.
func (a *colAcc) castText(v any) string {
	if a.engine != nil {
		if s, ok := a.engine.ValueText(v, a.typ); ok {
			return s
		}
	}
	return castText(v)
}

// numberOut is the least or greatest number as the engine's MIN and MAX
// hand it over.
func (a *colAcc) numberOut(v any) any {
	if a.engine != nil {
		if s, ok := a.engine.NumberText(v, a.typ); ok {
			return s
		}
	}
	return v
}

// quantile is the engine's quantile p of the sorted numbers: SQLite's
// nearest rank (warehouse.QuantileOffset) unless the engine has its own.
func (a *colAcc) quantile(p float64) float64 {
	if a.engine != nil {
		return a.engine.Quantile(a.sorted, p)
	}
	return a.sorted[warehouse.QuantileOffset(p, int64(len(a.sorted)))]
}

// time reads a value as the column's engine reads a date.
func (a *colAcc) time(v any) (stamp, bool) {
	if a.engine == nil {
		return sqliteTime(v)
	}
	t, ok := a.engine.ValueTime(v)
	if !ok {
		return stamp{}, false
	}
	return fromTime(t), true
}

// number takes a value of storage class integer or real.
func (a *colAcc) number(f float64, v any) {
	a.tNum++
	a.nv++
	a.sum.add(f)
	a.sumSq.add(f * f)
	if a.minNum == nil || f < a.minNumF {
		a.minNum, a.minNumF = v, f
	}
	if a.maxNum == nil || f > a.maxNumF {
		a.maxNum, a.maxNumF = v, f
	}
	if f == 0 {
		a.zeros++
	}
	if a.spec.NonNeg && f < 0 {
		a.negatives++
		a.exNeg.add(a.castText(v))
	}
	if a.spec.Age && (f < 0 || f > 130) {
		a.badAges++
		a.exAge.add(a.castText(v))
	}
}

// ksum adds floating-point numbers with Neumaier's compensation, as the
// streaming engine's SUM and AVG do, so that a long column's mean is as
// exact as the engine's.
type ksum struct{ s, c float64 }

func (k *ksum) add(x float64) {
	t := k.s + x
	if math.Abs(k.s) >= math.Abs(x) {
		k.c += (k.s - t) + x
	} else {
		k.c += (x - t) + k.s
	}
	k.s = t
}

func (k ksum) value() float64 { return k.s + k.c }

// numText writes a number of the sorted values as CAST would: an integral
// one as an integer when the column stores integers, else as a real.
func (a *colAcc) numText(f float64) string {
	if a.ints > 0 && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10)
	}
	return a.castText(f)
}

// distinct counts the value exactly while the column has at most exactCap
// distinct values, then switches to one hash per row.
func (a *colAcc) distinct(h uint64, v any) {
	if a.overflow {
		a.log = append(a.log, h)
		return
	}
	if i, ok := a.idx.get(h); ok {
		a.ents[i].n++
		return
	}
	if len(a.ents) == exactCap {
		size := max(a.expect, 2*a.nonNull)
		// The log replaces the entries, whose cells it takes over.
		if !a.take(size - a.held) {
			return
		}
		a.overflow = true
		// The first distinct values stay as a sample of the column's shapes.
		for _, e := range a.ents[:patternSample] {
			a.sample = append(a.sample, e.v)
		}
		a.log = make([]uint64, 0, size)
		a.idx.each(func(hh uint64, i int32) {
			for range a.ents[i].n {
				a.log = append(a.log, hh)
			}
		})
		a.log = append(a.log, h)
		a.idx, a.ents = hashIndex{}, nil
		return
	}
	s := a.castText(v)
	if !a.take(entryCells(s)) {
		return
	}
	a.idx.put(h, int32(len(a.ents)))
	a.ents = append(a.ents, valueCount{s, 1})
}

// hashIndex maps value hashes to entry indexes: open addressing with linear
// probing over hashes that are already well mixed, several times faster
// than a Go map on the one lookup every value costs. Hash 0 marks an empty
// slot, so a value hashing to 0 is stored as 1 (a 2⁻⁶⁴ coincidence).
type hashIndex struct {
	keys []uint64
	vals []int32
	n    int
}

func (t *hashIndex) get(h uint64) (int32, bool) {
	if h == 0 {
		h = 1
	}
	if len(t.keys) == 0 {
		return 0, false
	}
	mask := uint64(len(t.keys) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case h:
			return t.vals[i], true
		case 0:
			return 0, false
		}
	}
}

func (t *hashIndex) put(h uint64, v int32) {
	if h == 0 {
		h = 1
	}
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := uint64(len(t.keys) - 1)
	i := h & mask
	for t.keys[i] != 0 && t.keys[i] != h {
		i = (i + 1) & mask
	}
	if t.keys[i] == 0 {
		t.n++
	}
	t.keys[i], t.vals[i] = h, v
}

func (t *hashIndex) grow() {
	old, oldVals := t.keys, t.vals
	t.keys = make([]uint64, max(64, 2*len(old)))
	t.vals = make([]int32, len(t.keys))
	t.n = 0
	for i, k := range old {
		if k != 0 {
			t.put(k, oldVals[i])
		}
	}
}

func (t *hashIndex) each(fn func(h uint64, v int32)) {
	for i, k := range t.keys {
		if k != 0 {
			fn(k, t.vals[i])
		}
	}
}

// finish sorts what needs sorting, and reads the counts of the hash log
// off it, which it then drops: a column's log is the largest thing a pass
// keeps (8 bytes a row), and kept until its table's profile ends it would
// multiply the pass's memory by the passes of a wide table. scratch is a
// buffer for the sort, shared by the columns one goroutine finishes.
func (a *colAcc) finish(scratch *[]uint64) {
	if a.overflow {
		if cap(*scratch) < len(a.log) {
			*scratch = make([]uint64, len(a.log))
		}
		radixSort(a.log, (*scratch)[:len(a.log)])
		for i := range a.log {
			first := i == 0 || a.log[i] != a.log[i-1]
			last := i+1 == len(a.log) || a.log[i+1] != a.log[i]
			if first {
				a.logDistinct++
			}
			if first && last {
				a.logSingletons++
			}
			if first && !last && !a.missing[a.log[i]] {
				a.logDups++
			}
		}
		a.log = nil
	}
	if a.nums != nil {
		a.sorted = make([]float64, 0, a.nv)
		for _, f := range a.nums {
			if !math.IsNaN(f) {
				a.sorted = append(a.sorted, f)
			}
		}
		slices.Sort(a.sorted)
	}
}

// distinctCount and dups are COUNT(DISTINCT) and the values held by more
// than one row (blank and placeholder values left out).
func (a *colAcc) distinctCount() int64 {
	if !a.overflow {
		return int64(len(a.ents))
	}
	return a.logDistinct
}

func (a *colAcc) dups() (count int64, values []valueCount, known bool) {
	if a.overflow {
		return a.logDups, nil, a.logDups == 0
	}
	var vs []valueCount
	for _, e := range a.ents {
		if e.n > 1 && !(a.spec.Missing && (strings.Trim(e.v, " ") == "" || isPlaceholder(e.v))) {
			vs = append(vs, valueCount{e.v, e.n})
		}
	}
	count = int64(len(vs))
	slices.SortFunc(vs, byFrequency)
	return count, vs[:min(len(vs), maxExamples)], true
}

// byFrequency orders values as the frequent-values and examples queries
// do: most rows first, ties in text order.
func byFrequency(x, y valueCount) int {
	return cmp.Or(cmp.Compare(y.n, x.n), strings.Compare(x.v, y.v))
}

// top returns the frequent values topLimit keeps, most frequent first,
// ties in text order, as the frequent-values query orders them.
func (a *colAcc) top() []valueCount {
	es := slices.Clone(a.ents)
	slices.SortFunc(es, byFrequency)
	return es[:min(len(es), topLimit(int64(len(es))))]
}

// fill moves a column's figures into its stats.
func (p *profiler) fill(s *colStats, a *colAcc) {
	c := a.spec
	s.spec, s.ok, s.acc = c, true, a
	s.nonNull = a.nonNull
	if !c.Blob {
		d := a.distinctCount()
		s.distinct = &d
	}
	if !c.Blob && !c.Bool {
		var lo, hi any
		switch {
		case a.minNum != nil:
			lo = a.numberOut(a.minNum)
		case a.haveText:
			lo = a.minText
		case a.haveBlob:
			lo = a.minBlob
		}
		switch {
		case a.haveBlob:
			hi = a.maxBlob
		case a.haveText:
			hi = a.maxText
		case a.maxNum != nil:
			hi = a.numberOut(a.maxNum)
		}
		if v, ok := render(lo); ok {
			s.min = &v
		}
		if v, ok := render(hi); ok {
			s.max = &v
		}
	}
	if c.Numeric && a.nv > 0 {
		m, sq := a.sum.value()/float64(a.nv), a.sumSq.value()/float64(a.nv)
		s.mean, s.sq = &m, &sq
	}
	if c.Measure {
		nv := a.nv
		s.numeric = &nv
		if len(a.sorted) > 0 {
			s.quant = make([]float64, len(quantilePoints))
			for i, pt := range quantilePoints {
				s.quant[i] = a.quantile(pt)
			}
			s.hist = equiDepth(a.sorted, histogramBuckets, a.quantile)
		}
	}
	s.negatives, s.badAges = a.negatives, a.badAges
	if c.Measure {
		s.zeros = a.zeros
	}
	if c.Text && a.lenN > 0 {
		lo, hi, avg := a.lenMin, a.lenMax, float64(a.lenSum)/float64(a.lenN)
		s.lenMin, s.lenMax, s.lenAvg = &lo, &hi, &avg
	}
	s.spaces, s.empties, s.placeholder, s.epochs = a.spaces, a.empties, a.placeholds, a.epochs
	if c.Types {
		s.tNum, s.tText, s.tBlob = a.tNum, a.tText, a.tBlob
	}
	if !a.overflow && !c.Blob && wantsTopValues(s, p.rows) {
		for _, e := range a.top() {
			vc := catalog.ValueCount{Value: e.v, Count: e.n}
			if p.rows > 0 {
				vc.Fraction = float64(e.n) / float64(p.rows)
			}
			s.top = append(s.top, vc)
		}
	}
	s.cal = a.cal
	ev := fmt.Sprintf("one pass on %s: %d non-null", p.passOf(), a.nonNull)
	if s.distinct != nil {
		how := "counted exactly"
		if a.overflow {
			how = "counted by 64-bit hashes of every value"
		}
		ev += fmt.Sprintf(", %d distinct (%s)", *s.distinct, how)
	}
	if s.mean != nil {
		ev += ", mean " + fmtFloat(*s.mean)
	}
	s.evidence = []string{ev}
	if len(s.top) > 0 {
		s.evidence = append(s.evidence, fmt.Sprintf("top %d of %d values counted in the same pass", len(s.top), derefInt(s.distinct)))
	}
}

// passOf names the rows a pass read.
func (p *profiler) passOf() string {
	if p.sampled {
		return p.sampleText()
	}
	return fmt.Sprintf("the %d rows of %s", p.rows, p.name)
}

// streamDetail sets what the detail query would have: the duplicates of
// columns that look unique, when the pass knows them.
func (p *profiler) streamDetail(s *colStats) {
	a := s.acc
	if a == nil || !p.looksUnique(s) {
		return
	}
	n, vs, known := a.dups()
	if !known {
		return // repeated values among hashes: the detail query names them
	}
	s.dupCount, s.dupValues, s.dupDone = &n, vs, true
}

// streamExamples gives the anomalies found so far their examples from the
// pass, in the order the examples query would have returned them.
func (p *profiler) streamExamples(s *colStats) {
	a := s.acc
	if a == nil {
		return
	}
	byCount := func(e exSet) []string {
		vs := e.values()
		slices.SortFunc(vs, byFrequency)
		return firstValues(vs)
	}
	byNumber := func(e exSet, key func(float64) float64) []string {
		vs := e.values()
		k := func(v string) float64 { f, _ := toFloat(v); return key(f) }
		slices.SortFunc(vs, func(x, y valueCount) int { return cmp.Or(cmp.Compare(k(x.v), k(y.v)), strings.Compare(x.v, y.v)) })
		return firstValues(vs)
	}
	for _, an := range s.anoms {
		if an.cond == "" {
			continue
		}
		switch an.kind {
		case "mixed_types":
			all := exSet{}
			major := max(a.tNum, a.tText, a.tBlob)
			if a.tNum != major && a.numExFrom > 0 {
				continue // numbers came before examples were kept: the query fetches them
			}
			for _, cl := range []struct {
				n int64
				e exSet
			}{{a.tNum, a.exNum}, {a.tText, a.exText}, {a.tBlob, a.exBlob}} {
				if cl.n == major {
					continue // the major class
				}
				for v, n := range cl.e {
					all[v] += n
				}
			}
			an.examples = byCount(all)
		case "empty_string":
			an.examples = byCount(a.exEmpty)
		case "placeholder":
			all := exSet{}
			for v, n := range a.exPlace {
				all[v] += n
			}
			if an.count > a.placeholds { // the epoch stood out
				for v, n := range a.exEpoch {
					all[v] += n
				}
			}
			an.examples = byCount(all)
		case "negative_value":
			an.examples = byNumber(a.exNeg, func(f float64) float64 { return f })
		case "out_of_range":
			an.examples = byNumber(a.exAge, func(f float64) float64 { return -math.Abs(f) })
		default:
			continue
		}
		an.cond = ""
	}
}

func firstValues(vs []valueCount) []string {
	out := []string{}
	for _, v := range vs[:min(len(vs), maxExamples)] {
		out = append(out, v.v)
	}
	return out
}

// histogramBuckets is how many buckets an equi-depth histogram has.
const histogramBuckets = 10

// equiDepth cuts sorted values into buckets of about equal counts: bounds
// at the quantiles i/buckets (the engine's: quantile), counts by binary
// search, so ties are counted where they fall.
func equiDepth(xs []float64, buckets int, quantile func(p float64) float64) *catalog.Histogram {
	n := int64(len(xs))
	if n == 0 {
		return nil
	}
	h := &catalog.Histogram{Bounds: make([]float64, buckets+1), Counts: make([]int64, buckets)}
	for i := range buckets + 1 {
		h.Bounds[i] = quantile(float64(i) / float64(buckets))
	}
	prev := 0 // values counted so far
	for i := range buckets {
		// Values ≤ the upper bound.
		upto, _ := slices.BinarySearchFunc(xs, h.Bounds[i+1], func(x, t float64) int {
			if x > t {
				return 1
			}
			return -1
		})
		h.Counts[i] = int64(upto - prev)
		prev = upto
	}
	return h
}

// streamOutliers computes the outlier figures and examples from the sorted
// numbers.
func (a *colAcc) streamOutliers(f *fences, median float64) (outlierFigures, []valueCount) {
	var o outlierFigures
	xs := a.sorted
	// First index above hi, last index below lo.
	up, _ := slices.BinarySearchFunc(xs, f.hi, func(x, t float64) int {
		if x > t {
			return 1
		}
		return -1
	})
	down, _ := slices.BinarySearchFunc(xs, f.lo, func(x, t float64) int {
		if x >= t {
			return 1
		}
		return -1
	})
	o.above = int64(len(xs) - up)
	o.below = int64(down)
	if up < len(xs) {
		v := xs[up]
		o.minAbove = &v
	}
	if down > 0 {
		v := xs[down-1]
		o.maxBelow = &v
	}
	if up > down {
		lo, hi := xs[down], xs[up-1]
		o.insideMin, o.insideMax = &lo, &hi
	}
	var ex []valueCount
	group := func(from, to int) {
		for i := from; i < to; {
			j := i
			for j < to && xs[j] == xs[i] {
				j++
			}
			ex = append(ex, valueCount{a.numText(xs[i]), int64(j - i)})
			i = j
		}
	}
	group(0, down)
	group(up, len(xs))
	dist := func(v string) float64 { x, _ := toFloat(v); return math.Abs(x - median) }
	slices.SortFunc(ex, func(x, y valueCount) int { return cmp.Or(cmp.Compare(dist(y.v), dist(x.v)), strings.Compare(x.v, y.v)) })
	return o, ex[:min(len(ex), maxExamples)]
}

// streamFuture is the future-date count and examples, latest first.
func (a *colAcc) streamFuture() (int64, []valueCount) {
	vs := a.futureEx.values()
	slices.SortFunc(vs, func(x, y valueCount) int { return strings.Compare(y.v, x.v) })
	return a.future, vs[:min(len(vs), maxExamples)]
}

// isPlaceholder is placeholderCond: LOWER(TRIM(v)) among placeholders;
// isEpoch is epochCond, an exact match.
func isPlaceholder(s string) bool { return foldedIn(s, placeholders) }
func isEpoch(s string) bool       { return slices.Contains(epochPlaceholders, s) }

func foldedIn(s string, list []string) bool {
	if len(s) > 64 {
		return false
	}
	t := strings.Trim(s, " ")
	if len(t) > maxPlaceholderLen {
		return false
	}
	for _, p := range list {
		if len(p) == len(t) && strings.EqualFold(p, t) {
			return true
		}
	}
	return false
}

// maxPlaceholderLen is the length of the longest placeholder.
var maxPlaceholderLen = func() int {
	n := 0
	for _, p := range append(slices.Clone(placeholders), epochPlaceholders...) {
		n = max(n, len(p))
	}
	return n
}()

// radixSort sorts xs in place, eight bits at a time, skipping the bytes all
// values share.
func radixSort(xs, buf []uint64) {
	if len(xs) < 256 {
		slices.Sort(xs)
		return
	}
	src, dst := xs, buf
	for shift := uint(0); shift < 64; shift += 8 {
		var count [256]int
		for _, x := range src {
			count[(x>>shift)&0xff]++
		}
		if count[(src[0]>>shift)&0xff] == len(src) {
			continue
		}
		pos := 0
		for i, c := range count {
			count[i] = pos
			pos += c
		}
		for _, x := range src {
			b := (x >> shift) & 0xff
			dst[count[b]] = x
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &xs[0] {
		copy(xs, src)
	}
}
