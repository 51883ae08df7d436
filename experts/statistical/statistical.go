// Package statistical is the expert that profiles every column: null
// fractions, distinct counts, ranges, means and spreads, frequent values, and
// the data-quality findings that follow from them. It pushes the work to the
// engine: one aggregate query per table (chunked for wide tables) and one
// query for frequent values.
package statistical

import (
	"context"
	"errors"
	"fmt"
	"sort"
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
// table; other experts read it to stop waiting for that table's profiles.
func FailedKey(table string) string { return "profile_failed:" + table }

// Expert profiles tables. It remembers failed attempts so that a table which
// cannot be profiled does not keep the expert unsatisfied forever.
type Expert struct {
	mu       sync.Mutex
	attempts map[string]int
}

var _ experts.Expert = (*Expert)(nil)

// New returns a statistical expert.
func New() *Expert { return &Expert{attempts: map[string]int{}} }

// Name implements experts.Expert.
func (x *Expert) Name() string { return Name }

// Plan returns one task per table or view not yet profiled in this run.
func (x *Expert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	done, err := runKeys(ctx, env, catalog.KindTableStats)
	if err != nil {
		return nil, fmt.Errorf("statistical plan: %w", err)
	}
	failed, err := runKeys(ctx, env, catalog.KindUncertainty)
	if err != nil {
		return nil, fmt.Errorf("statistical plan: %w", err)
	}
	sizes, exact, err := rowCounts(ctx, env)
	if err != nil {
		return nil, fmt.Errorf("statistical plan: %w", err)
	}
	var todo []warehouse.Table
	for _, t := range env.Tables {
		name := t.Name.String()
		if len(t.Columns) == 0 || done[name] || failed[FailedKey(name)] {
			continue
		}
		x.mu.Lock()
		n := x.attempts[name]
		x.mu.Unlock()
		if n >= maxAttempts {
			continue
		}
		todo = append(todo, t)
	}
	// Small tables first: their findings arrive early and unblock the
	// semantic expert while the big ones are still being scanned.
	sort.SliceStable(todo, func(i, j int) bool {
		return sizes[todo[i].Name.String()] < sizes[todo[j].Name.String()]
	})
	tasks := make([]experts.Task, 0, len(todo))
	for _, t := range todo {
		var known *int64
		if n, ok := exact[t.Name.String()]; ok {
			known = &n
		}
		tasks = append(tasks, experts.Task{
			Expert: Name,
			Name:   "profile " + t.Name.String(),
			Run: func(ctx context.Context) error {
				err := profileTable(ctx, env, t, known)
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
	x.mu.Lock()
	x.attempts[table]++
	n := x.attempts[table]
	x.mu.Unlock()
	if n < maxAttempts || ctx.Err() != nil {
		return
	}
	doc := catalog.UncertaintyDoc{Description: fmt.Sprintf("%s could not be profiled after %d attempts: %v", table, n, err)}
	// The task's own error is what the orchestrator reports; a failure to
	// record the uncertainty adds nothing the user can act on.
	_ = env.SaveDoc(ctx, Name, catalog.KindUncertainty, FailedKey(table), doc, 1.0, []string{err.Error()}, table)
}

// runKeys returns the keys of this run's entries of a kind.
func runKeys(ctx context.Context, env *experts.Env, kind string) (map[string]bool, error) {
	entries, err := env.RunEntries(ctx, kind)
	if err != nil {
		return nil, err
	}
	keys := make(map[string]bool, len(entries))
	for _, e := range entries {
		keys[e.Key] = true
	}
	return keys, nil
}

// rowCounts returns the row counts the structural expert recorded this run:
// all of them, estimates included, for ordering the plan, and the exact ones,
// which alone are trusted to decide sampling.
func rowCounts(ctx context.Context, env *experts.Env) (sizes, exact map[string]int64, err error) {
	entries, err := env.RunEntries(ctx, catalog.KindTable)
	if err != nil {
		return nil, nil, err
	}
	sizes, exact = map[string]int64{}, map[string]int64{}
	for _, e := range entries {
		var doc catalog.TableDoc
		if err := e.Decode(&doc); err != nil || doc.RowCount == nil {
			continue
		}
		sizes[e.Key] = *doc.RowCount
		if !doc.RowCountIsEstimate {
			exact[e.Key] = *doc.RowCount
		}
	}
	return sizes, exact, nil
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
}

// profiler carries one table's profiling pass.
type profiler struct {
	env     *experts.Env
	table   warehouse.Table
	name    string // table name as in keys and documents
	d       warehouse.Dialect
	from    string
	sampled bool
	rows    int64
	haveRow bool
	queries int
}

// fatal reports whether an error ends the table's pass rather than being
// worked around one column at a time: a spent budget, a cancelled run or a
// timeout would only repeat on the narrower queries.
func fatal(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) || errors.Is(err, context.DeadlineExceeded)
}

// profileTable profiles every column of t and saves the profiles, the
// quality insights and the table's stats, in that order: the stats entry
// marks the table done, so a pass killed half way is redone.
func profileTable(ctx context.Context, env *experts.Env, t warehouse.Table, knownRows *int64) error {
	start := time.Now()
	d, err := warehouse.DialectFor(env.Source.Dialect())
	if err != nil {
		return fmt.Errorf("profile %s: %w", t.Name, err)
	}
	p := &profiler{
		env:   env,
		table: t,
		name:  t.Name.String(),
		d:     d,
		from:  d.QuoteTable(t.Name),
	}
	if n := env.Options.SampleRows; n > 0 {
		rows, err := p.rowHint(ctx, knownRows, n)
		if err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
		if rows > n {
			p.sampled = true
			p.from = firstRows(p.d, p.from, n)
		}
	}

	stats := make([]*colStats, len(t.Columns))
	specs := make([]colSpec, len(t.Columns))
	for i, c := range t.Columns {
		specs[i] = colSpec{Index: i, Name: c.Name, Numeric: isNumericType(c.Type) && !isBoolType(c.Type),
			Blob: isBlobType(c.Type), Bool: isBoolType(c.Type)}
		stats[i] = &colStats{spec: specs[i]}
	}
	var uncertain []string // columns whose profile is partial
	for _, chunk := range chunks(specs, maxColumnsPerQuery) {
		bad, err := p.aggregate(ctx, chunk, stats)
		if err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
		uncertain = append(uncertain, bad...)
	}
	if !p.haveRow {
		return fmt.Errorf("profile %s: no aggregate query succeeded", p.name)
	}
	uncertain = append(uncertain, p.topValues(ctx, stats)...)

	profiles := make([]catalog.ProfileDoc, len(stats))
	for i, s := range stats {
		profiles[i] = p.profileDoc(s)
		if err := env.SaveDoc(ctx, Name, catalog.KindProfile, p.name+"."+s.spec.Name, profiles[i],
			p.confidence(), s.evidence, p.name); err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
	}
	for _, in := range qualityInsights(p.name, p.rows, p.sampled, profiles) {
		if err := env.SaveDoc(ctx, Name, catalog.KindInsight, in.key, in.doc, p.confidence(), in.evidence,
			"quality", p.name); err != nil {
			return fmt.Errorf("profile %s: %w", p.name, err)
		}
	}
	stats0 := catalog.TableStatsDoc{Table: p.name, Rows: p.rows, Sampled: p.sampled, Queries: p.queries,
		Duration: time.Since(start).Round(time.Millisecond).String()}
	ev := []string{fmt.Sprintf("COUNT(*)=%d on %s", p.rows, p.name)}
	if p.sampled {
		ev[0] = fmt.Sprintf("COUNT(*)=%d on a sample of %s (first %d rows)", p.rows, p.name, env.Options.SampleRows)
	}
	if len(uncertain) > 0 {
		ev = append(ev, fmt.Sprintf("partial profiles: %v", uncertain))
	}
	if err := env.SaveDoc(ctx, Name, catalog.KindTableStats, p.name, stats0, p.confidence(), ev, p.name); err != nil {
		return fmt.Errorf("profile %s: %w", p.name, err)
	}
	return nil
}

// rowHint is the table's size for the sampling decision: the structural
// expert's exact count when there is one, else a count that stops at n+1
// rows, so that deciding to sample a huge table costs no full scan.
func (p *profiler) rowHint(ctx context.Context, known *int64, n int64) (int64, error) {
	if known != nil {
		return *known, nil
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
	return c, nil
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
	if fatal(ctx, err) {
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
		if err2 != nil && fatal(ctx, err2) {
			return nil, err2
		}
		if err2 == nil {
			p.uncertain(ctx, col, fmt.Sprintf("only the null fraction of %s could be computed: %v", col, err), err)
			return []string{col}, nil
		}
	}
	p.uncertain(ctx, col, fmt.Sprintf("%s could not be profiled: %v", col, err), err)
	return []string{col}, nil
}

// uncertain records a column-level gap in the profile.
func (p *profiler) uncertain(ctx context.Context, col, desc string, err error) {
	_ = p.env.SaveDoc(ctx, Name, catalog.KindUncertainty, "profile:"+col,
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
		if p.sampled {
			ev += fmt.Sprintf(" on a sample of %s (first %d rows)", p.name, p.env.Options.SampleRows)
		} else {
			ev += " on " + p.name
		}
		s.evidence = []string{ev}
	}
	return nil
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
		if wantsTopValues(s, p.rows) {
			want = append(want, s.spec)
		}
	}
	size := maxColumnsPerQuery
	if m := p.env.Options.MaxRows; m > 0 && m/topK < size {
		size = max(1, m/topK)
	}
	var bad []string
	for _, chunk := range chunks(want, size) {
		err := p.runTopValues(ctx, chunk, stats)
		if err == nil {
			continue
		}
		if len(chunk) == 1 || fatal(ctx, err) {
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
		DistinctIsEstimate: p.sampled,
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
	doc.Min, doc.Max = s.min, s.max
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
