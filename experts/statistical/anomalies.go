package statistical

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

const (
	// fenceK is the width of the outlier fences in interquartile ranges:
	// Tukey's "far out", so that the long right tail every amount or
	// duration has is not mistaken for errors.
	fenceK = 3.0
	// maxOutlierFraction: when more values than this lie beyond the fences
	// they are a heavy tail or a second population, not a few bad values.
	maxOutlierFraction = 0.01
	// gapIQRs is the empty stretch, in interquartile ranges, that must
	// separate outliers from the values inside the fences.
	gapIQRs = 2.0
	// outlierMinValues and outlierMinDistinct keep outlier checks off
	// columns too small or too discrete for quartiles to mean much.
	outlierMinValues   = 30
	outlierMinDistinct = 5
	// uniqueByNameRatio and uniqueRatio decide which columns look unique:
	// by name with at least this share of distinct values, or by the share
	// alone for identifier-like text (no spaces).
	uniqueByNameRatio = 0.9
	uniqueRatio       = 0.98
	// uniqueMinValues: below this, one repeat already breaks the ratio.
	uniqueMinValues = 100
	// maxNegativeShare: a column mostly negative follows a sign convention
	// (credits, refunds); a few negatives in it are the anomaly.
	maxNegativeShare = 0.5
)

// valueCount is a value with its rows, as the follow-up queries return it.
type valueCount struct {
	v string
	n int64
}

// anomaly is an odd thing found in a column, with the SQL predicate that
// selects its rows when its examples still have to be fetched.
type anomaly struct {
	kind     string
	count    int64
	desc     string
	examples []string
	cond     string
	orderBy  string
}

// kindRank orders a column's anomalies: the whole column first, then
// storage, then values.
var kindRank = map[string]int{"all_null": 0, "constant": 1, "mixed_types": 2, "empty_string": 3,
	"placeholder": 4, "duplicate": 5, "negative_value": 6, "out_of_range": 7, "future_date": 8, "outlier": 9}

// readChecks reads the aggregates checks added for column c.
func (p *profiler) readChecks(s *colStats, c colSpec, get func(string) any) {
	geti := func(agg string) int64 { n, _ := toInt(get(alias(c.Index, agg))); return n }
	s.numeric, s.quant, s.lenMin, s.lenMax, s.lenAvg = nil, nil, nil, nil, nil
	if c.Measure {
		if n, ok := toInt(get(alias(c.Index, "nv"))); ok {
			s.numeric = &n
		}
	}
	if c.Quantiles {
		qs := make([]float64, len(aggregatePoints))
		all := true
		for i := range qs {
			v, ok := toFloat(get(alias(c.Index, fmt.Sprintf("q%d", i))))
			qs[i], all = v, all && ok
		}
		lo, ok1 := toFloat(get(alias(c.Index, "mn")))
		hi, ok2 := toFloat(get(alias(c.Index, "mx")))
		if all {
			s.quant = qs[:len(quantilePoints)]
			if ok1 && ok2 {
				// The engine gives bounds, not counts: each bucket holds
				// about a tenth of the values, ties aside.
				s.hist = &catalog.Histogram{Bounds: append(append([]float64{lo}, qs[len(quantilePoints):]...), hi)}
			}
		}
	}
	s.negatives = geti("ng")
	s.zeros = geti("zr")
	s.badAges = geti("ag")
	if c.Text {
		if v, ok := toInt(get(alias(c.Index, "l0"))); ok {
			s.lenMin = &v
		}
		if v, ok := toFloat(get(alias(c.Index, "l1"))); ok {
			s.lenAvg = &v
		}
		if v, ok := toInt(get(alias(c.Index, "l2"))); ok {
			s.lenMax = &v
		}
	}
	s.spaces = geti("sp")
	s.empties, s.placeholder, s.epochs = geti("es"), geti("ph"), geti("ep")
	s.tText, s.tBlob = geti("tt"), geti("tb")
	s.tNum = max(0, s.nonNull-s.tText-s.tBlob)
}

// of names the rows a count is out of, saying when they are a sample.
func (p *profiler) of(n int64) string {
	if p.sampled {
		return fmt.Sprintf("%s in %s of %s rows", catalog.Thousands(n), p.sampleNoun(), catalog.Thousands(p.rows))
	}
	return catalog.Thousands(n)
}

// valueAnomalies finds what the aggregate already counted: storage classes,
// missing values in disguise, implausible numbers. Their examples come with
// the anomaly query.
func (p *profiler) valueAnomalies(s *colStats) {
	if !s.ok || s.spec.CountOnly {
		return
	}
	c := s.spec
	q := p.d.QuoteIdent(c.Name)
	v := p.d.Numeric(q)
	if c.Types {
		type class struct {
			n          int64
			name, cond string
		}
		classes := []class{{s.tNum, "numbers", "typeof(" + q + ") IN ('integer','real')"},
			{s.tText, "text values", "typeof(" + q + ") = 'text'"}, {s.tBlob, "blobs", "typeof(" + q + ") = 'blob'"}}
		major := slices.MaxFunc(classes, func(a, b class) int { return cmp.Compare(a.n, b.n) })
		var minor []string
		var conds []string
		var n int64
		for _, cl := range classes {
			if cl.n > 0 && cl.name != major.name {
				minor = append(minor, fmt.Sprintf("%s %s", catalog.Thousands(cl.n), cl.name))
				conds = append(conds, cl.cond)
				n += cl.n
			}
		}
		if n > 0 {
			s.anoms = append(s.anoms, &anomaly{kind: "mixed_types", count: n,
				desc: fmt.Sprintf("%s among %s %s: values stored as another type than the rest",
					strings.Join(minor, " and "), catalog.Thousands(major.n), major.name),
				cond: strings.Join(conds, " OR ")})
		}
	}
	nulls := p.rows - s.nonNull
	if c.Missing && c.Text && s.empties > 0 && nulls > 0 {
		s.anoms = append(s.anoms, &anomaly{kind: "empty_string", count: s.empties,
			desc: fmt.Sprintf("%s empty strings beside %s NULLs: two ways of saying a value is missing",
				p.of(s.empties), catalog.Thousands(nulls)),
			cond: emptyCond(p.d, q)})
	}
	if n, cond := s.placeholder, placeholderCond(p.d, q); c.Missing && (n > 0 || epochStandsOut(s)) {
		if epochStandsOut(s) {
			n += s.epochs
			cond = "(" + cond + ") OR (" + epochCond(p.d, q) + ")"
		}
		s.anoms = append(s.anoms, &anomaly{kind: "placeholder", count: n,
			desc: fmt.Sprintf("%s values are placeholders (such as N/A, unknown, 1970-01-01) standing in for a missing value",
				p.of(n)),
			cond: cond})
	}
	numeric := derefInt(s.numeric)
	if c.NonNeg && s.negatives > 0 && float64(s.negatives) <= maxNegativeShare*float64(numeric) {
		s.anoms = append(s.anoms, &anomaly{kind: "negative_value", count: s.negatives,
			desc:    fmt.Sprintf("%s values are negative, though the name says a quantity, price or amount", p.of(s.negatives)),
			cond:    v + " < 0",
			orderBy: "MIN(" + v + "), 4"})
	}
	if c.Age && s.badAges > 0 {
		s.anoms = append(s.anoms, &anomaly{kind: "out_of_range", count: s.badAges,
			desc:    fmt.Sprintf("%s ages lie outside 0..130 years", p.of(s.badAges)),
			cond:    ageCond(v),
			orderBy: "MAX(ABS(" + v + ")) DESC, 4"})
	}
}

// epochFactor: the Unix epoch is a placeholder when it holds this many
// times the rows of an average value of its column (and at least
// epochMinRows), not when it is one birthday among thousands.
const (
	epochFactor  = 10
	epochMinRows = 3
)

func epochStandsOut(s *colStats) bool {
	if s.epochs < epochMinRows || s.distinct == nil || *s.distinct == 0 {
		return false
	}
	return float64(s.epochs) >= epochFactor*float64(s.nonNull)/float64(*s.distinct)
}

// columnAnomalies are the findings about the whole column, known from the
// aggregate alone. Tiny tables are left out: a constant column of three
// rows says nothing.
func (p *profiler) columnAnomalies(s *colStats) {
	if !s.ok || p.rows < qualityMinRows {
		return
	}
	if s.nonNull == 0 {
		s.anoms = append(s.anoms, &anomaly{kind: "all_null", count: p.rows,
			desc: fmt.Sprintf("every one of %s rows is NULL", p.of(p.rows)), examples: []string{}})
		return
	}
	if s.distinct != nil && *s.distinct == 1 {
		var ex []string
		switch {
		case s.min != nil:
			ex = []string{*s.min}
		case len(s.top) > 0:
			ex = []string{s.top[0].Value}
		}
		desc := fmt.Sprintf("all %s non-null values are the same", p.of(s.nonNull))
		if len(ex) == 1 {
			desc = fmt.Sprintf("all %s non-null values are %s", p.of(s.nonNull), strconv.Quote(ex[0]))
		}
		s.anoms = append(s.anoms, &anomaly{kind: "constant", count: s.nonNull, desc: desc, examples: ex})
	}
}

// looksUnique reports whether a column's values should all differ, while
// they do not quite: by its name, or because nearly every value of an
// identifier-like text column is distinct. Declared unique columns cannot
// hold duplicates and are not checked.
func (p *profiler) looksUnique(s *colStats) bool {
	if !s.ok || s.spec.CountOnly || s.spec.Blob || s.spec.Bool || s.date || s.distinct == nil ||
		s.nonNull < qualityMinRows || *s.distinct >= s.nonNull || p.declaredUnique(s.spec.Name) {
		return false
	}
	ratio := float64(*s.distinct) / float64(s.nonNull)
	if uniqueByName(s.spec.Name) && ratio >= uniqueByNameRatio {
		return true
	}
	return s.spec.Text && s.spaces == 0 && !sharedByNature(s.spec.Name) && s.nonNull >= uniqueMinValues && ratio >= uniqueRatio
}

func (p *profiler) declaredUnique(col string) bool {
	if len(p.table.PrimaryKey) == 1 && p.table.PrimaryKey[0] == col {
		return true
	}
	for _, u := range p.table.Uniques {
		if len(u) == 1 && u[0] == col {
			return true
		}
	}
	return false
}

// dupBranches count a column's repeated values and fetch the most repeated.
// Blank values and placeholders are missing values, already reported as
// such, and not duplicates.
func (p *profiler) dupBranches(s *colStats) []branch {
	q := p.d.QuoteIdent(s.spec.Name)
	k := s.spec.Index
	where := q + " IS NOT NULL"
	if s.spec.Missing {
		where += " AND NOT (" + emptyCond(p.d, q) + ") AND NOT (" + placeholderCond(p.d, q) + ")"
	}
	return []branch{
		{col: k, sql: fmt.Sprintf("SELECT %d AS k, %d AS a, 0 AS b, %s AS v, COUNT(*) AS n FROM (SELECT %s FROM %s WHERE %s GROUP BY %s HAVING COUNT(*) > 1) d",
			k, codeDupCount, nullText(p.d), q, p.from, where, q)},
		{col: k, sql: fmt.Sprintf("SELECT %d AS k, %d AS a, 0 AS b, %s AS v, COUNT(*) AS n FROM %s WHERE %s GROUP BY %s HAVING COUNT(*) > 1 ORDER BY 5 DESC, 4 %s",
			k, codeDupValue, p.d.CastText(q), p.from, where, q, p.d.Limit(maxExamples))},
	}
}

// dupAnomaly turns the duplicate counts into a finding.
func (p *profiler) dupAnomaly(s *colStats) {
	if s.dupCount == nil || *s.dupCount == 0 {
		return
	}
	var ex []string
	var rows int64
	for _, vc := range s.dupValues {
		ex = append(ex, vc.v)
		rows += vc.n
	}
	why := "its name says each row has its own"
	if !uniqueByName(s.spec.Name) {
		why = fmt.Sprintf("%s of %s values are distinct", catalog.Thousands(derefInt(s.distinct)), catalog.Thousands(s.nonNull))
	}
	desc := fmt.Sprintf("%s values are held by more than one row, in a column that looks unique (%s)",
		p.of(*s.dupCount), why)
	if *s.dupCount == 1 && len(s.dupValues) == 1 {
		desc = fmt.Sprintf("1 value is held by %d rows, in a column that looks unique (%s)", rows, why)
		if p.sampled {
			desc += fmt.Sprintf(", in %s of %s rows", p.sampleNoun(), catalog.Thousands(p.rows))
		}
	}
	s.anoms = append(s.anoms, &anomaly{kind: "duplicate", count: *s.dupCount, desc: desc, examples: ex})
}

// fences are the bounds outside which a value is an outlier.
type fences struct {
	lo, hi float64
	q1, q3 float64
	log    bool // computed on the logarithm of the values
}

// outlierFences computes Tukey's far-out fences from the quartiles, on the
// scale where the quartiles are the more symmetric: a log scale for amounts
// and durations that spread by factors (whose ordinary right tail linear
// fences would cut), a linear one for the rest (whose small values a log
// scale would cut). Columns without spread get none: when half the values
// are equal, every other value would look odd.
func (p *profiler) outlierFences(s *colStats) *fences {
	c := s.spec
	if !c.Measure || s.date || len(s.quant) != len(quantilePoints) || derefInt(s.numeric) < outlierMinValues ||
		s.distinct == nil || *s.distinct < outlierMinDistinct {
		return nil
	}
	q1, q2, q3 := s.quant[0], s.quant[1], s.quant[2]
	if !(q3 > q1) {
		return nil
	}
	lo := math.Inf(-1)
	if s.min != nil {
		if v, err := strconv.ParseFloat(*s.min, 64); err == nil {
			lo = v
		}
	}
	if lo > 0 && q1 > 0 && math.Abs(bowley(math.Log(q1), math.Log(q2), math.Log(q3))) < math.Abs(bowley(q1, q2, q3)) {
		r := math.Pow(q3/q1, fenceK)
		return &fences{lo: q1 / r, hi: q3 * r, q1: q1, q3: q3, log: true}
	}
	iqr := q3 - q1
	return &fences{lo: q1 - fenceK*iqr, hi: q3 + fenceK*iqr, q1: q1, q3: q3}
}

// bowley is the quartile skewness: 0 for a symmetric spread, up to ±1.
func bowley(q1, q2, q3 float64) float64 {
	if q3 <= q1 {
		return 0
	}
	return ((q3 - q2) - (q2 - q1)) / (q3 - q1)
}

// apart reports whether an outlier lies at least gapIQRs interquartile
// ranges (on the fences' scale) beyond the nearest value inside the fences.
// Errors such as cents written into a dollars column stand apart from the
// rest; values that merely continue the tail, or the next step of a
// discrete scale (a quantity of 6 after 5, a price of 11.99 after 10.99),
// do not.
func (f *fences) apart(outlier, inside float64) bool {
	if f.log {
		a, b := math.Min(outlier, inside), math.Max(outlier, inside)
		return a > 0 && math.Log(b/a) >= gapIQRs*math.Log(f.q3/f.q1)
	}
	return math.Abs(outlier-inside) >= gapIQRs*(f.q3-f.q1)
}

// outlierBranches count the values beyond each fence and fetch the nearest
// ones on both sides of it, plus the most extreme values as examples.
func (p *profiler) outlierBranches(s *colStats) []branch {
	v := p.d.Numeric(p.d.QuoteIdent(s.spec.Name))
	k, f := s.spec.Index, s.fences
	lo, hi := literal(f.lo), literal(f.hi)
	inside := fmt.Sprintf("%s >= %s AND %s <= %s", v, lo, v, hi)
	return []branch{
		aggBranch(p.d, p.from, k, codeAbove, "MIN", v, v+" > "+hi),
		aggBranch(p.d, p.from, k, codeBelow, "MAX", v, v+" < "+lo),
		aggBranch(p.d, p.from, k, codeInsideMax, "MAX", v, inside),
		aggBranch(p.d, p.from, k, codeInsideMin, "MIN", v, inside),
		examplesBranch(p.d, p.from, k, codeOutlier, p.d.QuoteIdent(s.spec.Name),
			fmt.Sprintf("%s < %s OR %s > %s", v, lo, v, hi),
			fmt.Sprintf("MAX(ABS(%s - %s)) DESC, 4", v, literal(s.quant[1]))),
	}
}

// outlierFigures are what the outlier branches returned for one column.
type outlierFigures struct {
	above, below                             int64
	minAbove, maxBelow, insideMax, insideMin *float64
}

func (o *outlierFigures) add(r branchRow) {
	var f *float64
	if r.vOK {
		if x, err := strconv.ParseFloat(r.v, 64); err == nil {
			f = &x
		}
	}
	switch r.a {
	case codeAbove:
		o.above, o.minAbove = r.n, f
	case codeBelow:
		o.below, o.maxBelow = r.n, f
	case codeInsideMax:
		o.insideMax = f
	case codeInsideMin:
		o.insideMin = f
	}
}

// literal renders a number as a SQL literal without an exponent.
func literal(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// outlierAnomaly turns the values beyond the fences into a finding: the
// sides whose values stand apart from the rest, unless they are too many to
// be errors.
func (p *profiler) outlierAnomaly(s *colStats, o outlierFigures, ex []valueCount) {
	f := s.fences
	if f == nil {
		return
	}
	high := o.above > 0 && o.minAbove != nil && o.insideMax != nil && f.apart(*o.minAbove, *o.insideMax)
	low := o.below > 0 && o.maxBelow != nil && o.insideMin != nil && f.apart(*o.maxBelow, *o.insideMin)
	var count int64
	if high {
		count += o.above
	}
	if low {
		count += o.below
	}
	nv := derefInt(s.numeric)
	if count == 0 || float64(count) > math.Max(1, maxOutlierFraction*float64(nv)) {
		return
	}
	var examples []string
	for _, e := range ex {
		x, err := strconv.ParseFloat(e.v, 64)
		if err == nil && (high && x > f.hi || low && x < f.lo) {
			examples = append(examples, e.v)
		}
	}
	scale, side := "linear", "outside"
	if f.log {
		scale = "log"
	}
	switch {
	case high && !low:
		side = "far above the rest, beyond"
	case low && !high:
		side = "far below the rest, beyond"
	}
	s.anoms = append(s.anoms, &anomaly{kind: "outlier", count: count, examples: examples,
		desc: fmt.Sprintf("%s of %s values lie %s the fences %s..%s (%g interquartile ranges from the quartiles %s and %s, %s scale; median %s)",
			catalog.Thousands(count), p.of(nv), side, fmtNum(f.lo), fmtNum(f.hi), fenceK, fmtNum(f.q1), fmtNum(f.q3), scale, fmtNum(s.quant[1]))})
}

// futureAnomaly records dates after today in a column whose name does not
// announce plans or deadlines.
func (p *profiler) futureAnomaly(s *colStats, count int64, ex []valueCount, today string) {
	if count == 0 {
		return
	}
	var examples []string
	for _, e := range ex {
		examples = append(examples, e.v)
	}
	s.anoms = append(s.anoms, &anomaly{kind: "future_date", count: count, examples: examples,
		desc: fmt.Sprintf("%s values are dates after today (%s)", p.of(count), today)})
}

// mayHoldFuture reports whether the calendar of a date column reaches the
// current month, which is when counting future dates is worth a scan.
func mayHoldFuture(s *colStats, now time.Time) bool {
	if s.cal == nil || futureByName(s.spec.Name) {
		return false
	}
	cur := now.Year()*100 + int(now.Month())
	for ym := range s.cal.months {
		if ym >= cur {
			return true
		}
	}
	return false
}

// anomalyQuery fetches, in one statement, the examples of the anomalies the
// aggregate counted, and counts and examples of outliers and future dates.
func (p *profiler) anomalyQuery(ctx context.Context, stats []*colStats, now time.Time) error {
	today := now.UTC().Format("2006-01-02")
	type found struct {
		out                 outlierFigures
		future              int64
		outlierEx, futureEx []valueCount
		gotFuture           bool
	}
	res := map[int]*found{}
	get := func(k int) *found {
		if res[k] == nil {
			res[k] = &found{}
		}
		return res[k]
	}
	var bs []branch
	for _, s := range stats {
		q := p.d.QuoteIdent(s.spec.Name)
		k := s.spec.Index
		for i, a := range s.anoms {
			if a.cond == "" {
				continue
			}
			bs = append(bs, examplesBranch(p.d, p.from, k, codeExamples+i, q, a.cond, cmp.Or(a.orderBy, "5 DESC, 4")))
		}
		if s.fences = p.outlierFences(s); s.fences != nil {
			if s.acc != nil && len(s.acc.sorted) > 0 {
				f := get(k)
				f.out, f.outlierEx = s.acc.streamOutliers(s.fences, s.quant[1])
			} else {
				bs = append(bs, p.outlierBranches(s)...)
			}
		}
		if br, ok := p.histogramCounts(s); ok {
			bs = append(bs, br)
		}
		if mayHoldFuture(s, now) {
			if s.acc != nil && s.acc.cal != nil {
				f := get(k)
				f.future, f.futureEx = s.acc.streamFuture()
				f.gotFuture = true
				continue
			}
			cond := p.d.DatePart(warehouse.PartDate, q) + " > " + p.d.Literal(today)
			bs = append(bs, countBranch(p.d, p.from, k, codeFutureCount, cond),
				examplesBranch(p.d, p.from, k, codeFuture, q, cond, "4 DESC"))
		}
	}
	byIndex := map[int]*colStats{}
	for _, s := range stats {
		byIndex[s.spec.Index] = s
	}
	bad, err := p.runBranches(ctx, bs, func(r branchRow) {
		s := byIndex[r.k]
		if s == nil {
			return
		}
		f := get(r.k)
		switch {
		case r.a == codeAbove || r.a == codeBelow || r.a == codeInsideMax || r.a == codeInsideMin:
			f.out.add(r)
		case r.a == codeOutlier && r.vOK:
			f.outlierEx = append(f.outlierEx, valueCount{r.v, r.n})
		case r.a == codeFutureCount:
			f.future, f.gotFuture = r.n, true
		case r.a == codeHistogram:
			if h := s.hist; h != nil && r.b >= 0 && r.b < len(h.Bounds)-1 {
				if len(h.Counts) == 0 {
					h.Counts = make([]int64, len(h.Bounds)-1)
				}
				h.Counts[r.b] += r.n
			}
		case r.a == codeFuture && r.vOK:
			f.futureEx = append(f.futureEx, valueCount{r.v, r.n})
		case r.a >= codeExamples && r.a-codeExamples < len(s.anoms) && r.vOK:
			a := s.anoms[r.a-codeExamples]
			if len(a.examples) < maxExamples && !slices.Contains(a.examples, r.v) {
				a.examples = append(a.examples, r.v)
			}
		}
	})
	if err != nil {
		return err
	}
	for k, e := range bad {
		col := p.name + "." + byIndex[k].spec.Name
		p.uncertain(ctx, col, fmt.Sprintf("anomaly examples of %s could not be fetched: %v", col, e), e)
	}
	for _, s := range stats {
		f := res[s.spec.Index]
		if f == nil {
			continue
		}
		p.outlierAnomaly(s, f.out, f.outlierEx)
		if f.gotFuture {
			p.futureAnomaly(s, f.future, f.futureEx, today)
		}
	}
	return nil
}

// anomalies renders a column's findings for its profile, in a stable order.
func (s *colStats) anomalies() []catalog.Anomaly {
	as := slices.Clone(s.anoms)
	slices.SortStableFunc(as, func(a, b *anomaly) int { return kindRank[a.kind] - kindRank[b.kind] })
	out := make([]catalog.Anomaly, 0, len(as))
	for _, a := range as {
		ex := a.examples
		if ex == nil {
			ex = []string{}
		}
		out = append(out, catalog.Anomaly{Kind: a.kind, Description: a.desc, Count: a.count, Examples: ex})
	}
	return out
}

// fmtNum renders a figure for a description: at most four significant
// digits after the point, no exponent for everyday magnitudes.
func fmtNum(f float64) string {
	if math.Abs(f) >= 1000 {
		return catalog.Thousands(int64(math.Round(f)))
	}
	return strconv.FormatFloat(f, 'g', 4, 64)
}
