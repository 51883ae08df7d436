// Package statistical is the expert that profiles every column: null
// fractions, distinct counts, ranges, means and spreads, frequent values, and
// the data-quality findings that follow from them. It pushes the work to the
// engine: one aggregate query per table (chunked for wide tables) and one
// query for frequent values.
package statistical

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// Name is the expert's name in tasks and catalog entries.
const Name = "statistical"

const (
	// maxColumnsPerQuery bounds the width of one aggregate query; engines
	// limit the number of result columns and long statements parse slowly.
	maxColumnsPerQuery = 50
	// topValuesMaxDistinct and topValuesMaxRatio decide which columns get
	// frequent values: few distinct values, absolutely or relative to rows.
	topValuesMaxDistinct = 50
	topValuesMaxRatio    = 0.05
	// maxAttempts is how many failed profiling tasks a table gets before the
	// expert gives up on it and records an uncertainty instead.
	maxAttempts = 2

	exactConfidence   = 1.0
	sampledConfidence = 0.8
)

// FailedKey is the uncertainty key recorded when the expert gives up on a
// table: the give-up of experts.Profiled, which the experts that wait for
// a table's profiles ask after (Env.TablesReached), not this key.
func FailedKey(table string) string { return experts.Profiled.GaveUpKey(table) }

// Expert profiles tables. A table whose profile failed maxAttempts times
// (the orchestrator's count, Env.Failures, which a resumed run keeps) is
// not planned again: an uncertainty says why it has no profile.
type Expert struct {
	mu    sync.Mutex
	first map[string]bool // tables given a first pass (firstpass.go)
}

var _ experts.Expert = (*Expert)(nil)

// New returns a statistical expert.
func New() *Expert { return &Expert{} }

// Name implements experts.Expert.
func (x *Expert) Name() string { return Name }

// Plan returns one task per table or view not yet profiled in this run.
func (x *Expert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	done, err := env.RunKeys(ctx, catalog.KindTableStats)
	if err != nil {
		return nil, fmt.Errorf("statistical plan: %w", err)
	}
	failed, err := env.RunKeys(ctx, catalog.KindUncertainty)
	if err != nil {
		return nil, fmt.Errorf("statistical plan: %w", err)
	}
	sizes, exact, lower, err := rowCounts(ctx, env)
	if err != nil {
		return nil, fmt.Errorf("statistical plan: %w", err)
	}
	var todo []warehouse.Table
	for _, t := range env.Tables {
		name := t.Name.String()
		if len(t.Columns) == 0 || done[name] || failed[FailedKey(name)] {
			continue
		}
		if env.Failures(profileTask(name)) >= maxAttempts {
			continue
		}
		todo = append(todo, t)
	}
	// Small tables first: their findings arrive early and unblock the
	// semantic expert while the big ones are still being scanned.
	sort.SliceStable(todo, func(i, j int) bool {
		return sizes[todo[i].Name.String()] < sizes[todo[j].Name.String()]
	})
	first, err := x.firstPasses(ctx, env, todo, sizes)
	if err != nil {
		return nil, fmt.Errorf("statistical plan: %w", err)
	}
	tasks := make([]experts.Task, 0, len(todo))
	for _, t := range todo {
		if task, ok := first[t.Name.String()]; ok {
			tasks = append(tasks, task) // profiled from the next plan on
			continue
		}
		var hint rowHint
		if n, ok := exact[t.Name.String()]; ok {
			hint.exact = &n
		}
		if n, ok := sizes[t.Name.String()]; ok {
			hint.estimate = &n
			hint.lower = lower[t.Name.String()]
		}
		tasks = append(tasks, experts.Task{
			Expert:  Name,
			Name:    profileTask(t.Name.String()),
			Table:   t.Name.String(),
			Reaches: &experts.Profiled,
			Run: func(ctx context.Context) error {
				err := profileRetrying(ctx, env, t, hint)
				if err != nil {
					x.failed(ctx, env, t.Name.String(), err)
				}
				return err
			},
		})
	}
	return tasks, nil
}

// failed counts a failed attempt and, on the last one, records why the table
// has no profile.
func (x *Expert) failed(ctx context.Context, env *experts.Env, table string, err error) {
	n := env.Failures(profileTask(table)) + 1 // this one
	if n < maxAttempts || ctx.Err() != nil {
		return
	}
	doc := catalog.UncertaintyDoc{Description: fmt.Sprintf("%s could not be profiled after %d attempts: %v", table, n, err)}
	// The task's own error is what the orchestrator reports; a failure to
	// record the uncertainty adds nothing the user can act on.
	_ = catalog.Uncertainties.Save(ctx, env, FailedKey(table), doc, 1.0, []string{err.Error()}, table)
}

// profileTask is the name of the task that profiles table.
func profileTask(table string) string { return "profile " + table }

// rowCounts returns the row counts the structural expert recorded this run:
// all of them, estimates and lower bounds included, for ordering the plan,
// the exact ones, which alone are trusted to decide sampling, and which
// are lower bounds (a count that stopped: catalog.TableDoc).
func rowCounts(ctx context.Context, env *experts.Env) (sizes, exact map[string]int64, lower map[string]bool, err error) {
	entries, err := env.RunEntries(ctx, catalog.KindTable)
	if err != nil {
		return nil, nil, nil, err
	}
	sizes, exact, lower = map[string]int64{}, map[string]int64{}, map[string]bool{}
	for _, e := range entries {
		var doc catalog.TableDoc
		if err := e.Decode(&doc); err != nil || doc.RowCount == nil {
			continue
		}
		sizes[e.Key] = *doc.RowCount
		if !doc.RowCountIsEstimate {
			exact[e.Key] = *doc.RowCount
		}
		if doc.RowCountIsLowerBound {
			lower[e.Key] = true
		}
	}
	return sizes, exact, lower, nil
}

// colStats is what the queries returned for one column.
type colStats struct {
	spec     colSpec
	ok       bool // the aggregate query succeeded for this column
	nonNull  int64
	distinct *int64
	min, max *string
	mean, sq *float64
	top      []catalog.ValueCount
	evidence []string

	// Filled by the checks the spec asks for.
	numeric              *int64 // numeric values (Measure)
	quant                []float64
	lenMin, lenMax       *int64
	lenAvg               *float64
	spaces               int64
	empties, placeholder int64
	epochs               int64 // values that are the Unix epoch as a date
	negatives, badAges   int64
	zeros                int64 // numeric values equal to 0 (Measure)
	hist                 *catalog.Histogram
	patterns             []catalog.ValuePattern
	tNum, tText, tBlob   int64

	date      bool         // holds dates or timestamps
	cal       *calendar    // rows per month, weekday and hour
	dupCount  *int64       // values held by more than one row
	dupValues []valueCount // the most repeated of them
	anoms     []*anomaly   // in the order they are reported
	fences    *fences      // outlier fences, when the column has them

	distinctExact bool // distinct counts the whole table exactly, though the rest is sampled

	acc     *colAcc // the streaming pass's figures (stream.go), nil for the SQL path
	dupDone bool    // dupCount and dupValues are known without the detail query
}

// profiler carries one table's profiling pass.
type profiler struct {
	lastErr error // the last column's failure, for a profile that got nothing
	env     *experts.Env
	table   warehouse.Table
	name    string // table name as in keys and documents
	d       warehouse.Dialect
	from    string
	sampled bool
	total   int64 // the table's rows, when sampled
	counted int64 // the table's rows as the sampling decision saw them
	// estimated: total is an estimate (the structural expert's, or the
	// rowid probe's), not a count.
	estimated bool
	// lower: total is a lower bound, a count that stopped past
	// wholeScanFactor samples (the table holds more than total−1 rows),
	// and firstRows: the sample is then the first rows the engine returns
	// (a LIMIT), as no keep-fraction can be had from a bound.
	lower, firstRows bool
	rid              rowids // the integer key's range where lookups by key work (rowid.go)
	byRowid          bool   // the sample is drawn by lookups by that key
	// keyed: the sample keeps the rows whose integer key hashes into a
	// share (keyedSampler): the same rows in each statement, in key order.
	keyed warehouse.IntKey
	// rowidEvidence says how the rowid probe estimated the rows.
	rowidEvidence string
	rows          int64
	haveRow       bool
	queries       int
	// attempt is the sample this pass asks for (retry.go): --sample-rows,
	// or a smaller one after a timeout.
	attempt *attempt
}

// rowHint is what the structural expert recorded about a table's size.
type rowHint struct {
	exact, estimate *int64
	lower           bool // estimate is a lower bound: a count that stopped
}

// keyedSampler is a dialect that samples a table by a hash of its integer
// key (SQLite): the same rows in every statement, in key order.
type keyedSampler interface {
	KeyedSample(t warehouse.TableName, key string, rows, totalRows int64) (string, bool)
}

// profileTable profiles every column of t and saves the profiles, the
// insights and the table's stats, in that order: the stats entry marks the
// table done, so a pass killed half way is redone.
//
// Queries per table: a bounded count when the structural expert left no
// exact one; the aggregate (one per 50 columns); frequent values; then, only
// when some column needs them, one detail query (quantiles where the engine
// has no percentile aggregate, calendars of date columns, duplicates of
// columns that look unique), one anomaly query (outlier counts and every
// anomaly's examples) and one correlation query.
//
// a is the sample to ask for, filled with what the pass learns of the
// table's size; after a timeout (a.retry) the pass reads no more than the
// sample, whatever the engine, even at the price of a random draw.
func profileTable(ctx context.Context, env *experts.Env, t warehouse.Table, hint rowHint, a *attempt) error {
	start := time.Now()
	d := env.Dialect()
	p := &profiler{
		env:     env,
		table:   t,
		name:    t.Name.String(),
		d:       d,
		from:    d.QuoteTable(t.Name),
		attempt: a,
	}
	if n := a.target; n > 0 {
		rows, err := p.tableRows(ctx, hint, n)
		if err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
		p.counted = rows
		// Where the engine's random sample reads every row anyway
		// (LimitSample: Trino's BERNOULLI), a table that may be read
		// whole is: the same rows for the same cost, and every figure
		// from them (each statement would draw its sample anew, and a
		// key column show NULLs and duplicates between two draws).
		whole := !p.lower && (rows <= n || d.Capabilities().LimitSample && rows <= wholeScanFactor*n)
		a.rows, a.decided, a.whole = rows, true, whole
		if !whole {
			p.sampled, p.total = true, rows
			var from string
			var byRowid bool
			if !p.lower {
				from, byRowid, err = p.rowidSample(ctx, n, rows)
			}
			blocks, hasBlocks := d.SampleBlocks(t.Name, n, rows)
			switch {
			case p.lower:
				// More than wholeScanFactor samples, how many more not
				// known: a random() filter's keep-fraction would be too
				// large by as much. The first n rows bound the read.
				p.from, p.firstRows = fmt.Sprintf("(SELECT * FROM %s %s) %s", p.from, d.Limit(n), warehouse.SampleAlias), true
			case err != nil:
				return fmt.Errorf("profile %s: %w", p.name, err)
			case byRowid:
				p.from, p.byRowid = from, true
			case a.retry() && t.Stored() && hasBlocks:
				// A row sample (BERNOULLI) reads every page of the table
				// whose profile timed out; whole blocks read a share.
				p.from = blocks
			case a.retry() && (!t.Stored() || filterSample(d) && len(a.retried) > 1):
				// A random filter over a view computes all of it. Over a
				// table it reads every row, but at a fraction of the
				// cost of profiling each: the first retry keeps it for a
				// random sample; when that timed out too, the first n
				// rows bound the read.
				p.from, p.firstRows = fmt.Sprintf("(SELECT * FROM %s %s) %s", p.from, d.Limit(n), warehouse.SampleAlias), true
			case !t.Stored():
				// A view, or a foreign table (no pages to sample:
				// TABLESAMPLE refuses it), is filtered as it is read.
				p.from = d.SampleFrom(p.from, n, rows)
			case rows > wholeScanFactor*n && d.Capabilities().LimitSample:
				// No sample of the engine reads less than the whole
				// table on every connector (Trino): beyond what may be
				// read whole, the first n rows bound the read.
				p.from, p.firstRows = fmt.Sprintf("(SELECT * FROM %s %s) %s", p.from, d.Limit(n), warehouse.SampleAlias), true
			case rows >= warehouse.BlockSampleRows && filterSample(d):
				// The engine's random filter reads every row, in each
				// statement of the profile: from the size at which the
				// other engines sample blocks, the first n rows bound
				// the read instead (issue 9: a 100M-row table is never
				// read whole).
				p.from, p.firstRows = fmt.Sprintf("(SELECT * FROM %s %s) %s", p.from, d.Limit(n), warehouse.SampleAlias), true
			default:
				p.from = warehouse.SampleTable(d, t, n, rows)
				// A table keyed by an integer (its rowid, found to work) is
				// sampled by a hash of its key instead.
				if ks, ok := d.(keyedSampler); ok && !p.lower {
					r, err := p.rowidBounds(ctx)
					if err != nil {
						return fmt.Errorf("profile %s: %w", p.name, err)
					}
					if r.ok {
						if from, ok := ks.KeyedSample(t.Name, r.key.Name, n, rows); ok {
							p.from, p.keyed = from, r.key
						}
					}
				}
			}
		}
	}

	stats := make([]*colStats, len(t.Columns))
	specs := make([]colSpec, len(t.Columns))
	for i, c := range t.Columns {
		specs[i] = p.spec(i, c)
		stats[i] = &colStats{spec: specs[i]}
	}
	now := time.Now()
	var uncertain []string // columns whose profile is partial
	expected, err := p.expectedRows(ctx, hint)
	if err != nil {
		return fmt.Errorf("profile %s: %w", p.name, err)
	}
	if perPass, ok := p.canStream(expected); ok {
		// Held until the table's profile is saved: its measures' numbers
		// stay until then. A small table's profile does not queue: the
		// semaphore serves its waiters in order, and a small one behind a
		// large one would wait for memory it does not need.
		if w := streamWeight(specs, perPass, expected); w >= streamQueueWeight {
			if err := streamMemory.Acquire(ctx, w); err != nil {
				return fmt.Errorf("profile %s: %w", p.name, err)
			}
			defer streamMemory.Release(w)
		}
		if err := p.streamProfile(ctx, specs, stats, perPass, expected, now); err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
	} else {
		for _, chunk := range chunks(specs, maxColumnsPerQuery) {
			bad, err := p.aggregate(ctx, chunk, stats)
			if err != nil {
				return fmt.Errorf("profile %s: %w", p.name, err)
			}
			uncertain = append(uncertain, bad...)
		}
		if !p.haveRow {
			if p.lastErr != nil {
				// The reason the run's outcome gives is the database's.
				return fmt.Errorf("profile %s: no aggregate query succeeded: %w", p.name, p.lastErr)
			}
			return fmt.Errorf("profile %s: no aggregate query succeeded", p.name)
		}
		uncertain = append(uncertain, p.approxDistinct(ctx, stats)...)
	}
	for _, s := range stats {
		dropNonFinite(s)
	}
	uncertain = append(uncertain, p.topValues(ctx, stats)...)
	// After the frequent values, which compare distinct counts with the
	// sample's rows.
	uncertain = append(uncertain, p.scaleUp(ctx, stats)...)

	for i, s := range stats {
		s.date = isDateColumn(s, t.Columns[i].Type)
		if !s.date {
			s.cal = nil
		}
		p.columnAnomalies(s)
		p.valueAnomalies(s)
		p.streamExamples(s)
	}
	uncertain = append(uncertain, p.valuePatterns(ctx, stats)...)
	// A view repeats its tables' data: its deep passes would re-evaluate
	// the view once per query (an aggregate view costs seconds each) to
	// report what the tables' profiles already say.
	deep := t.Kind != "view"
	var corr []insight
	if deep {
		for _, s := range stats {
			p.streamDetail(s)
		}
		bad, err := p.detail(ctx, stats)
		if err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
		uncertain = append(uncertain, bad...)
		for _, s := range stats {
			p.dupAnomaly(s)
		}
		if err := p.anomalyQuery(ctx, stats, now); err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
		if corr, err = p.correlations(ctx, stats); err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
	}

	// The profiles and insights commit together; the stats entry, which
	// marks the table done, after them.
	batch := env.Batch()
	profiles := make([]catalog.ProfileDoc, len(stats))
	for i, s := range stats {
		profiles[i] = p.profileDoc(s)
		if err := catalog.Profiles.Save(ctx, batch, p.name+"."+s.spec.Name, profiles[i],
			p.confidence(), s.evidence, p.name); err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
	}
	found := qualityInsights(p.name, p.rows, p.sampled, profiles)
	for _, s := range stats {
		// The first rows the engine returns say nothing of how the
		// table's rows spread over time: often the oldest.
		if !deep || p.firstRows {
			break
		}
		if in, ok := p.temporalInsight(s, now); ok {
			found = append(found, in)
		}
	}
	if deep {
		found = append(found, p.distributionInsights(stats)...)
	}
	found = append(found, corr...)
	for _, in := range found {
		if err := catalog.Insights.Save(ctx, batch, in.key, in.doc, p.confidence(), in.evidence,
			in.doc.Kind, p.name); err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
	}
	if err := batch.Flush(ctx); err != nil {
		return fmt.Errorf("profile %s: %w", p.name, err)
	}
	stats0 := catalog.TableStatsDoc{Table: p.name, Rows: p.rows, Sampled: p.sampled, Queries: p.queries,
		Duration: time.Since(start).Round(time.Millisecond).String(), KeyCandidates: p.keyCandidates(stats)}
	ev := []string{fmt.Sprintf("COUNT(*)=%d on %s", p.rows, p.name)}
	if p.sampled {
		stats0.Sample = experts.SampleID(p.from)
		ev[0] = fmt.Sprintf("COUNT(*)=%d on %s", p.rows, p.sampleText())
	}
	if p.rowidEvidence != "" {
		ev = append(ev, p.rowidEvidence)
	}
	if len(uncertain) > 0 {
		ev = append(ev, fmt.Sprintf("partial profiles: %v", uncertain))
	}
	if p.attempt.retry() {
		ev = append(ev, fmt.Sprintf("retried with a sample of %d rows as the target after the profile timed out %s", p.attempt.target, triedText(p.attempt.retried)))
		// Before the stats entry, which marks the table done.
		if err := p.retriedUncertainty(ctx); err != nil {
			return err
		}
	}
	if err := catalog.TableStats.Save(ctx, env, p.name, stats0, p.confidence(), ev, p.name); err != nil {
		return fmt.Errorf("profile %s: %w", p.name, err)
	}
	return nil
}

// approxQuantileRows: from this many rows, engines with a quantile sketch
// (Dialect.ApproxQuantiles) use it; below, exact quantiles cost
// milliseconds.
const approxQuantileRows = 100_000

// keyMinCompleteness is the share of rows an undeclared key candidate
// must have a value in.
const keyMinCompleteness = 0.9

// keyCandidates lists the declared single-column keys and the columns
// whose every value is distinct, with their completeness and uniqueness.
// A sample proves no uniqueness, so on one only declared keys are listed.
func (p *profiler) keyCandidates(stats []*colStats) []catalog.KeyCandidate {
	var out []catalog.KeyCandidate
	for _, s := range stats {
		if !s.ok || s.distinct == nil || s.spec.Blob || p.rows == 0 {
			continue
		}
		declared := p.declaredUnique(s.spec.Name)
		// Measures can be distinct by chance (prices, scores); sparse
		// columns identify too few rows to be keys.
		unique := s.nonNull > 0 && *s.distinct == s.nonNull && !p.sampled && !s.spec.Measure &&
			float64(s.nonNull) >= keyMinCompleteness*float64(p.rows)
		if !declared && !unique || s.date {
			continue
		}
		kc := catalog.KeyCandidate{Column: s.spec.Name, Declared: declared,
			Completeness: float64(s.nonNull) / float64(p.rows), Estimate: p.sampled}
		if s.nonNull > 0 {
			// On a sample the distinct count is the table's estimate
			// (scaleUp): against the table's estimated non-NULL values,
			// not the sample's, or a key reads as more than unique.
			nonNull := float64(s.nonNull)
			if p.sampled && p.total > p.rows && p.rows > 0 {
				nonNull *= float64(p.total) / float64(p.rows)
			}
			kc.Uniqueness = min(1, float64(*s.distinct)/nonNull)
		}
		out = append(out, kc)
	}
	return out
}

// sampleNoun names the sample figures come from, as prose: "a random
// sample", or a keyed sample's "a sample hashed on rowid".
func (p *profiler) sampleNoun() string {
	if p.keyed.Name != "" {
		return "a sample hashed on " + p.keyed.String()
	}
	return "a random sample"
}

// sampleText names the sample the figures come from, for evidence. Each
// query draws its own sample (but where the engine seeds it, on a sample
// drawn by an integer key, and on one hashed on it), so the size is that
// of the aggregate's.
func (p *profiler) sampleText() string {
	if p.firstRows {
		size := fmt.Sprintf("%s holds more than %d rows: the count stopped there", p.name, p.total-1)
		switch {
		case p.lower:
		case p.attempt.retry():
			about := ""
			if p.estimated {
				about = "about "
			}
			size = fmt.Sprintf("%s holds %s%d rows, every one of which a random sample reads, as the profile that timed out did",
				p.name, about, p.total)
		case p.d.Capabilities().LimitSample:
			about := ""
			if p.estimated {
				about = "about "
			}
			size = fmt.Sprintf("%s holds %s%d rows, more than %d samples, and %s has no random sample that reads fewer than every row",
				p.name, about, p.total, wholeScanFactor, p.d.Name())
		default:
			size = fmt.Sprintf("%s holds about %d rows, more than %s samples at random without reading every row, having no integer key to draw rows by",
				p.name, p.total, p.d.Name())
		}
		return fmt.Sprintf("the first %d rows of %s as the engine returns them, not a random sample (%s; target %d)",
			p.rows, p.name, size, p.attempt.target)
	}
	how, about := "a random sample", ""
	switch {
	case p.byRowid:
		how = "a random sample drawn by " + p.rid.key.String()
	case p.keyed.Name != "":
		how = "a sample of the rows whose " + p.keyed.String() + " hashes into a fixed share (the same rows in every run)"
	}
	if p.estimated {
		about = "about "
	}
	return fmt.Sprintf("%s of %s (%d of %s%d rows, target %d)", how, p.name, p.rows, about, p.total, p.attempt.target)
}

// spec decides which statistics and checks a column gets, from its declared
// type and name alone: the aggregate runs before any value is seen.
func (p *profiler) spec(i int, c warehouse.Column) colSpec {
	dynamic := p.d.Capabilities().DynamicTypes
	s := colSpec{Index: i, Name: c.Name, Numeric: isNumericType(c.Type) && !isBoolType(c.Type),
		Blob: isBlobType(c.Type), Bool: isBoolType(c.Type)}
	if s.Blob || s.Bool {
		return s
	}
	s.Text = isTextType(c.Type)
	// Placeholders hide in text and in dates. On an engine with dynamic
	// types a column of another type that holds text shows up as mixed
	// storage classes instead, whose examples show the placeholders;
	// untyped columns get both checks.
	untyped := dynamic && strings.TrimSpace(c.Type) == ""
	s.Missing = s.Text || isDateType(c.Type) || untyped
	// Dynamic types convert numbers stored in a text column to text, so
	// only columns of other types can mix storage classes.
	s.Types = dynamic && !s.Text
	pk := len(p.table.PrimaryKey) == 1 && p.table.PrimaryKey[0] == c.Name
	s.Measure = s.Numeric && !pk && !keyLike(c.Name) && !isDateType(c.Type)
	if s.Measure {
		frags, _ := p.d.Quantiles("x", quantilePoints)
		s.Quantiles = frags != nil
		// Sorting every value of a large table costs more than the rest of
		// its aggregate; a sketch's quantiles are marked as estimates.
		n := p.counted
		if p.sampled {
			n = p.attempt.target
		}
		s.ApproxQuantiles = s.Quantiles && n > approxQuantileRows
		s.NonNeg = nonNegativeByName(c.Name)
		s.Age = ageByName(c.Name)
	}
	return s
}

// maxValueRunes bounds the values a profile quotes (least, greatest,
// frequent): a 200 KB text would otherwise be copied into every report.
const maxValueRunes = 200

// clipText cuts a value to maxValueRunes characters, marking the cut.
func clipText(v string) string {
	if len(v) <= maxValueRunes {
		return v
	}
	n := 0
	for i := range v {
		if n == maxValueRunes {
			return v[:i] + "…"
		}
		n++
	}
	return v
}

func clip(v *string) *string {
	if v == nil {
		return nil
	}
	c := clipText(*v)
	return &c
}

// dropNonFinite leaves out the figures an infinity spoils: an engine may
// store 1e999 as a real infinity, and the mean, spread, quantiles or
// histogram it makes infinite or NaN mean nothing (and have no JSON form).
func dropNonFinite(s *colStats) {
	bad := func(f float64) bool { return math.IsInf(f, 0) || math.IsNaN(f) }
	dropped := false
	if s.mean != nil && bad(*s.mean) || s.sq != nil && bad(*s.sq) {
		s.mean, s.sq, dropped = nil, nil, true
	}
	if slices.ContainsFunc(s.quant, bad) {
		s.quant, dropped = nil, true
	}
	if s.hist != nil && slices.ContainsFunc(s.hist.Bounds, bad) {
		s.hist, dropped = nil, true
	}
	if dropped {
		s.evidence = append(s.evidence, "the values include infinities: mean, spread, quantiles and histogram left out")
	}
}

// expectedRows bounds the rows a profiling pass reads: the sample's size,
// else the table's, counted when nobody has.
func (p *profiler) expectedRows(ctx context.Context, hint rowHint) (int64, error) {
	switch {
	case p.sampled:
		// A sample keeps each row with a probability: allow for chance.
		n := p.attempt.target
		return n + n/10 + 100, nil
	case p.counted > 0:
		return p.counted, nil
	case hint.exact != nil:
		return *hint.exact, nil
	case hint.estimate != nil:
		return *hint.estimate, nil
	}
	if !p.env.CanStream() {
		return 0, nil // only the streaming pass needs to know
	}
	p.queries++
	return p.env.RowCount(ctx, p.table.Name)
}

// tableRows is the table's size for the sampling decision and the base of
// the sampling fraction: the structural expert's exact count when there is
// one; else a count that stops at n+1 rows, so that a small table costs no
// full scan; and for a table above n, the structural expert's estimate or,
// on a table keyed by an integer (Dialect.IntKeys), the key probe's
// (rowidRows) when it exceeds wholeScanFactor samples, else an exact count;
// failing those, the source's estimate as the structural expert takes it. A
// view, and what nothing estimates, is counted up to wholeScanFactor samples
// plus one: beyond, the count is a lower bound (p.lower), and no base for a
// sampling fraction. A retry after a timeout (retry.go) counts nothing
// whole: it takes the estimates as they are, and the count at n+1 as a lower
// bound.
func (p *profiler) tableRows(ctx context.Context, hint rowHint, n int64) (int64, error) {
	if hint.exact != nil {
		return *hint.exact, nil
	}
	if p.d.Capabilities().LimitSample && p.table.Kind != "view" {
		// The structural expert's count may not be in yet (the first
		// round), and the bounded count reads no column, which a Trino
		// connector may answer with pages of a whole split (tpch: 750,000
		// rows for LIMIT 100001): a count the source knows exactly is
		// asked for first.
		if rows, exact, ok, err := p.env.EstimateRows(ctx, p.table.Name); err == nil && ok && exact {
			return rows, nil
		} else if err != nil && experts.Fatal(ctx, err) {
			return 0, err
		}
	}
	p.queries++
	res, err := p.env.Query(ctx, boundedCountSQL(p.d, p.from, n+1))
	if err != nil {
		return 0, err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return 0, fmt.Errorf("count query returned no count")
	}
	c, ok := toInt(res.Rows[0][0])
	if !ok {
		return 0, fmt.Errorf("count query returned %v", res.Rows[0][0])
	}
	if c <= n {
		return c, nil
	}
	if !p.table.Stored() {
		// A view's size (and a foreign table's) is at best the planner's guess (an EXPLAIN's
		// estimate), and any random filter over a view computes all of
		// it: a guess too low would have a view over a 100M-row table
		// computed whole in every statement of the profile. The bounded
		// count reads at most wholeScanFactor samples of it.
		if hint.lower && hint.estimate != nil && *hint.estimate > wholeScanFactor*n {
			p.lower, p.estimated = true, true // the structural expert's count stopped there
			return *hint.estimate, nil
		}
		if p.attempt.retry() {
			return p.beyond(c), nil
		}
		return p.countUpTo(ctx, n)
	}
	if hint.estimate != nil && *hint.estimate > n && !hint.lower {
		p.estimated = true
		return *hint.estimate, nil
	}
	// A table keyed by an integer (Dialect.IntKeys) is sized from its keys;
	// counted only when within wholeScanFactor samples, which may be read
	// whole.
	est, exact, ok, err := p.rowidRows(ctx)
	if err != nil {
		return 0, err
	}
	if ok && (exact || est > wholeScanFactor*n || p.attempt.retry()) {
		p.estimated = !exact
		return est, nil
	}
	p.rowidEvidence = ""
	if ok {
		p.queries++
		return p.env.RowCount(ctx, p.table.Name)
	}
	if hint.lower && *hint.estimate > wholeScanFactor*n {
		// The structural expert's count stopped past wholeScanFactor
		// samples.
		p.lower, p.estimated = true, true
		return *hint.estimate, nil
	}
	// As the structural expert sizes it (a profile planned before its
	// count): the source's estimate when exact or beyond wholeScanFactor
	// samples, an exact count when within.
	if est, exact, isEst, err := p.env.EstimateRows(ctx, p.table.Name); isEst {
		switch {
		case err != nil && experts.Fatal(ctx, err):
			return 0, err
		case err == nil && (exact || est > wholeScanFactor*n || p.attempt.retry()):
			p.estimated = !exact
			return est, nil
		case err == nil:
			p.queries++
			return p.env.RowCount(ctx, p.table.Name)
		}
	}
	// Nothing sizes it (a table without an integer key on an engine
	// without estimates): a count that stops past wholeScanFactor
	// samples, exact within; where the count stops at one sample
	// (experts.CountLimit), the bounded count above was that count.
	if p.attempt.retry() || experts.CountLimit(p.d, n) <= n {
		return p.beyond(c), nil
	}
	return p.countUpTo(ctx, n)
}

// beyond sizes a table a retry profiles (retry.go) by the count that
// stopped at c = n+1 rows, a lower bound: counting on, to wholeScanFactor
// samples, reads ten samples of a table whose one sample timed out.
func (p *profiler) beyond(c int64) int64 {
	p.lower, p.estimated = true, true
	return c
}

// countUpTo counts the table up to wholeScanFactor samples plus one: exact
// within, a lower bound beyond (p.lower).
func (p *profiler) countUpTo(ctx context.Context, n int64) (int64, error) {
	p.queries++
	c, more, err := p.env.CountUpTo(ctx, p.table.Name, experts.CountLimit(p.d, n))
	if err != nil {
		return 0, err
	}
	p.lower, p.estimated = more, more
	return c, nil
}

// filterSample reports whether d's Sample of a table keeps rows by a
// random filter over all of them, having no block sample.
func filterSample(d warehouse.Dialect) bool { return d.Capabilities().FilterSample }

// scanPerBranch: the profile reads its table's first rows on an engine
// where each branch of a union reads them again (LimitSample), a scan
// each, so that a union of k branches reads k samples of the table: one
// branch per statement then (Trino: a union of 8 frequent-value branches
// over LIMIT 10000 of tpch.sf1.lineitem read 2.2M rows).
func (p *profiler) scanPerBranch() bool {
	return p.firstRows && p.d.Capabilities().LimitSample
}

func (p *profiler) confidence() float64 {
	if p.sampled {
		return sampledConfidence
	}
	return exactConfidence
}

// aggregate runs the profile query for one chunk of columns. When the query
// fails for a reason other than the budget or the clock, the chunk is retried
// column by column, and a column that still fails is retried with COUNT only,
// so one column of an unsupported type costs its own statistics, not the
// table's. It returns the columns left with partial profiles.
func (p *profiler) aggregate(ctx context.Context, chunk []colSpec, stats []*colStats) ([]string, error) {
	err := p.runAggregate(ctx, chunk, stats)
	if err == nil {
		return nil, nil
	}
	if experts.Fatal(ctx, err) {
		return nil, err
	}
	if len(chunk) > 1 {
		var bad []string
		for _, c := range chunk {
			b, err := p.aggregate(ctx, []colSpec{c}, stats)
			if err != nil {
				return nil, err
			}
			bad = append(bad, b...)
		}
		return bad, nil
	}
	c := chunk[0]
	col := p.name + "." + c.Name
	if !c.CountOnly {
		min := c
		min.CountOnly = true
		err2 := p.runAggregate(ctx, []colSpec{min}, stats)
		if err2 != nil && experts.Fatal(ctx, err2) {
			return nil, err2
		}
		if err2 == nil {
			p.uncertain(ctx, col, fmt.Sprintf("only the null fraction of %s could be computed: %v", col, err), err)
			return []string{col}, nil
		}
	}
	p.uncertain(ctx, col, fmt.Sprintf("%s could not be profiled: %v", col, err), err)
	p.lastErr = err
	return []string{col}, nil
}

// gapKey is the uncertainty key of a gap in column col's profile
// ("table.column").
func gapKey(col string) string { return "profile:" + col }

// uncertain records a column-level gap in the profile.
func (p *profiler) uncertain(ctx context.Context, col, desc string, err error) {
	_ = catalog.Uncertainties.Save(ctx, p.env, gapKey(col),
		catalog.UncertaintyDoc{Description: desc}, 1.0, []string{err.Error()}, p.name)
}

func (p *profiler) runAggregate(ctx context.Context, chunk []colSpec, stats []*colStats) error {
	p.queries++
	res, err := p.env.Query(ctx, profileSQL(p.d, p.from, chunk))
	if err != nil {
		return err
	}
	if len(res.Rows) != 1 {
		return fmt.Errorf("aggregate query returned %d rows", len(res.Rows))
	}
	row := res.Rows[0]
	idx := make(map[string]int, len(res.Columns))
	for i, c := range res.Columns {
		idx[c] = i
	}
	get := func(name string) any {
		if i, ok := idx[name]; ok && i < len(row) {
			return row[i]
		}
		return nil
	}
	n, ok := toInt(get("n"))
	if !ok {
		return fmt.Errorf("aggregate query returned no COUNT(*)")
	}
	p.rows, p.haveRow = n, true
	qt := p.d.QuoteIdent
	for _, c := range chunk {
		s := stats[c.Index]
		s.spec = c
		s.ok = true
		s.nonNull, _ = toInt(get(alias(c.Index, "nn")))
		ev := fmt.Sprintf("COUNT(*)=%d, COUNT(%s)=%d", n, qt(c.Name), s.nonNull)
		if v, ok := toInt(get(alias(c.Index, "dc"))); ok && !c.CountOnly && !c.Blob {
			s.distinct = &v
			ev += fmt.Sprintf(", COUNT(DISTINCT %s)=%d", qt(c.Name), v)
		}
		if v, ok := render(get(alias(c.Index, "mn"))); ok {
			s.min = &v
		}
		if v, ok := render(get(alias(c.Index, "mx"))); ok {
			s.max = &v
		}
		if v, ok := toFloat(get(alias(c.Index, "av"))); ok {
			s.mean = &v
			ev += fmt.Sprintf(", AVG(%s)=%s", qt(c.Name), fmtFloat(v))
		}
		if v, ok := toFloat(get(alias(c.Index, "sq"))); ok {
			s.sq = &v
		}
		p.readChecks(s, c, get)
		if p.sampled {
			ev += " on " + p.sampleText()
		} else {
			ev += " on " + p.name
		}
		s.evidence = []string{ev}
	}
	return nil
}

// topLimit is how many frequent values a column with distinct values
// keeps: every one of a code list (up to topValuesMaxDistinct), so that an
// enum's values are all in the profile, else the topK most frequent.
func topLimit(distinct int64) int {
	if distinct <= topValuesMaxDistinct {
		return topValuesMaxDistinct
	}
	return topK
}

// wantsTopValues decides which columns get frequent values: those with few
// distinct values. Unique columns are left out: ten values seen once each
// say nothing about the column.
func wantsTopValues(s *colStats, rows int64) bool {
	if !s.ok || s.spec.Blob || s.spec.CountOnly || s.distinct == nil || *s.distinct == 0 {
		return false
	}
	d := *s.distinct
	if d == s.nonNull && d > topK {
		return false
	}
	return d <= topValuesMaxDistinct || float64(d) <= topValuesMaxRatio*float64(rows)
}

// topValues fills the frequent values of the eligible columns: one UNION ALL
// query per chunk, retried column by column when it fails. Top values are an
// extra: failures are recorded as uncertainties, never fail the table.
func (p *profiler) topValues(ctx context.Context, stats []*colStats) []string {
	var want []colSpec
	for _, s := range stats {
		// A pass that counted every distinct value has them already.
		if wantsTopValues(s, p.rows) && (s.acc == nil || s.acc.overflow) {
			want = append(want, s.spec)
		}
	}
	size := maxColumnsPerQuery
	if m := p.env.Options.MaxRows; m > 0 && m/topValuesMaxDistinct < size {
		size = max(1, m/topValuesMaxDistinct)
	}
	if p.scanPerBranch() {
		size = 1
	}
	var bad []string
	for _, chunk := range chunks(want, size) {
		err := p.runTopValues(ctx, chunk, stats)
		if err == nil {
			continue
		}
		if len(chunk) == 1 || experts.Fatal(ctx, err) {
			for _, c := range chunk {
				col := p.name + "." + c.Name
				p.uncertain(ctx, col, fmt.Sprintf("frequent values of %s could not be computed: %v", col, err), err)
				bad = append(bad, col)
			}
			continue
		}
		for _, c := range chunk {
			if err := p.runTopValues(ctx, []colSpec{c}, stats); err != nil {
				col := p.name + "." + c.Name
				p.uncertain(ctx, col, fmt.Sprintf("frequent values of %s could not be computed: %v", col, err), err)
				bad = append(bad, col)
			}
		}
	}
	return bad
}

func (p *profiler) runTopValues(ctx context.Context, chunk []colSpec, stats []*colStats) error {
	p.queries++
	res, err := p.env.Query(ctx, topValuesSQL(p.d, p.from, chunk))
	if err != nil {
		return err
	}
	if res.Truncated {
		return fmt.Errorf("frequent values query was truncated at %d rows", len(res.Rows))
	}
	top := map[int][]catalog.ValueCount{}
	for _, r := range res.Rows {
		if len(r) < 3 {
			continue
		}
		k, ok1 := toInt(r[0])
		v, ok2 := render(r[1])
		n, ok3 := toInt(r[2])
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		vc := catalog.ValueCount{Value: v, Count: n}
		if p.rows > 0 {
			vc.Fraction = float64(n) / float64(p.rows)
		}
		top[int(k)] = append(top[int(k)], vc)
	}
	for _, c := range chunk {
		s := stats[c.Index]
		s.top = top[c.Index]
		if n := topLimit(derefInt(s.distinct)); len(s.top) > n {
			s.top = s.top[:n]
		}
		if len(s.top) > 0 {
			s.evidence = append(s.evidence, fmt.Sprintf("COUNT(*) GROUP BY %s, top %d of %d values on %s",
				p.d.QuoteIdent(c.Name), len(s.top), derefInt(s.distinct), p.name))
		}
	}
	return nil
}

func (p *profiler) profileDoc(s *colStats) catalog.ProfileDoc {
	doc := catalog.ProfileDoc{
		Table:              p.name,
		Column:             s.spec.Name,
		Rows:               p.rows,
		Sampled:            p.sampled,
		DistinctIsEstimate: p.sampled && !s.distinctExact,
		TopValues:          s.top,
		Anomalies:          []catalog.Anomaly{},
	}
	if doc.TopValues == nil {
		doc.TopValues = []catalog.ValueCount{}
	}
	if !s.ok {
		return doc
	}
	if p.rows > 0 {
		f := 1 - float64(s.nonNull)/float64(p.rows)
		doc.NullFraction = &f
	}
	doc.DistinctCount = s.distinct
	doc.Min, doc.Max = clip(s.min), clip(s.max)
	for i := range doc.TopValues {
		doc.TopValues[i].Value = clipText(doc.TopValues[i].Value)
	}
	doc.Anomalies = s.anomalies()
	if len(s.quant) == len(quantilePoints) {
		qf := p.d.Quantiles
		if s.spec.ApproxQuantiles {
			qf = p.d.ApproxQuantiles
		}
		_, est := qf("x", quantilePoints)
		doc.Quantiles = &catalog.Quantiles{P25: s.quant[0], P50: s.quant[1], P75: s.quant[2], P95: s.quant[3],
			Estimate: est || p.sampled}
	}
	doc.ValuePatterns = s.patterns
	if s.hist != nil {
		h := *s.hist
		h.Estimate = p.sampled || doc.Quantiles != nil && doc.Quantiles.Estimate
		if h.Counts == nil {
			h.Counts = []int64{}
		}
		doc.Histogram = &h
	}
	if s.lenMin != nil && s.lenMax != nil && s.lenAvg != nil {
		doc.TextLength = &catalog.TextLength{Min: *s.lenMin, Avg: *s.lenAvg, Max: *s.lenMax}
	}
	if s.mean != nil {
		doc.Mean = s.mean
		if s.sq != nil {
			sd := stddev(*s.mean, *s.sq)
			doc.Stddev = &sd
		}
	}
	return doc
}

func derefInt(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
