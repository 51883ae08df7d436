package statistical

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

const (
	// calendarMinRows is the fewest dated rows worth a weekday or hour
	// profile: about a hundred per weekday, so that chance moves a day's
	// share by a few percent at most.
	calendarMinRows = 700
	// seasonMinMonths is how many complete months a seasonal profile needs:
	// every calendar month at least once.
	seasonMinMonths = 12
	// peakRatio, quietRatio: how far from the mean a month, weekday or hour
	// must be to count as a pattern rather than noise.
	peakRatio   = 1.5
	weekdayLow  = 0.8
	weekdayHigh = 1.25
	// workWeekShare: Monday–Friday hold 5/7 (71%) of an even week; this
	// much is a working-week rhythm.
	workWeekShare = 0.85
	hourLowRatio  = 0.5
	maxPeakMonths = 3
	// minZ is how many Poisson standard deviations a bucket must lie from
	// the mean, so that small tables do not produce patterns by chance.
	minZ = 4.0
	// maxEmptyMonths is the share of months without rows above which a
	// calendar has gaps rather than seasons.
	maxEmptyMonths = 0.1
	// calendarMinSpan is the shortest span worth a week or hour profile.
	calendarMinSpan = 28 * 24 * time.Hour
)

// calendar counts a date column's rows per month, weekday and hour.
type calendar struct {
	months map[int]int64 // year*100+month
	dow    [7]int64
	hour   [24]int64
}

// isDateColumn decides whether a column holds dates: by its declared type,
// or because its least and greatest values read as ISO-8601 dates.
func isDateColumn(s *colStats, declared string) bool {
	if !s.ok || s.spec.CountOnly || s.spec.Blob || s.spec.Bool || s.nonNull == 0 {
		return false
	}
	if isDateType(declared) {
		return true
	}
	if s.min == nil || s.max == nil {
		return false
	}
	_, ok1 := parseDate(*s.min)
	_, ok2 := parseDate(*s.max)
	return ok1 && ok2
}

// calendarBranches count the rows per month, weekday and hour of a date
// column: three GROUP BYs in the table's detail query.
func (p *profiler) calendarBranches(s *colStats) []branch {
	q := p.d.QuoteIdent(s.spec.Name)
	k := s.spec.Index
	ym := "(" + p.d.DatePart(warehouse.PartYear, q) + ") * 100 + (" + p.d.DatePart(warehouse.PartMonth, q) + ")"
	return []branch{
		groupBranch(p.d, p.from, k, codeMonth, ym),
		groupBranch(p.d, p.from, k, codeDOW, p.d.DatePart(warehouse.PartDOW, q)),
		groupBranch(p.d, p.from, k, codeHour, p.d.DatePart(warehouse.PartHour, q)),
	}
}

func (c *calendar) add(r branchRow) {
	switch r.a {
	case codeMonth:
		c.months[r.b] += r.n
	case codeDOW:
		if r.b >= 0 && r.b < 7 {
			c.dow[r.b] += r.n
		}
	case codeHour:
		if r.b >= 0 && r.b < 24 {
			c.hour[r.b] += r.n
		}
	}
}

// temporalInsight describes the clear patterns of a date column's
// calendar: a seasonal peak, a lopsided week, busy and dead hours. Span and
// freshness go into the evidence. It returns false when nothing is clear.
func (p *profiler) temporalInsight(s *colStats, now time.Time) (insight, bool) {
	cal := s.cal
	if cal == nil {
		return insight{}, false
	}
	col := p.name + "." + s.spec.Name
	var total int64
	for _, n := range cal.dow {
		total += n
	}
	var parts, ev []string
	var first, last time.Time
	var haveSpan bool
	if s.min != nil && s.max != nil {
		var ok1, ok2 bool
		first, ok1 = parseDate(*s.min)
		last, ok2 = parseDate(*s.max)
		haveSpan = ok1 && ok2
	}
	if d, e, ok := seasonality(cal.months, first, last, haveSpan); ok {
		parts = append(parts, d)
		ev = append(ev, e)
	}
	if d, e, ok := trend(cal.months, first, last, haveSpan); ok {
		parts = append(parts, d)
		ev = append(ev, e)
	}
	if d, e, ok := gaps(cal.months, first, last, haveSpan); ok {
		parts = append(parts, d)
		ev = append(ev, e)
	}
	// A week profile needs several of each weekday, and an hour profile
	// values spread over more than a day or two (bulk loads stamp every row
	// with the same minute).
	if total >= calendarMinRows && haveSpan && last.Sub(first) >= calendarMinSpan {
		if d, e, ok := weekdays(cal.dow, first, last); ok {
			parts = append(parts, d)
			ev = append(ev, e)
		}
		if d, e, ok := hours(cal.hour, total); ok {
			parts = append(parts, d)
			ev = append(ev, e)
		}
	}
	if len(parts) == 0 {
		return insight{}, false
	}
	on := "on " + p.name
	if p.sampled {
		on = fmt.Sprintf("on %s of %s rows of %s", p.sampleNoun(), catalog.Thousands(p.rows), p.name)
	}
	ev = append([]string{fmt.Sprintf("COUNT(*) GROUP BY year-month, weekday and hour of %s: %s dated rows %s",
		p.d.QuoteIdent(s.spec.Name), catalog.Thousands(total), on)}, ev...)
	if haveSpan {
		// Not "N days before this run": evidence is shown in report.md,
		// which must read the same on another day if the data is the same.
		ev = append(ev, fmt.Sprintf("span %s .. %s (%d days)", *s.min, *s.max, int(last.Sub(first).Hours()/24)))
	}
	return insight{
		key: "temporal:" + col,
		doc: catalog.InsightDoc{Kind: "temporal", Tables: []string{p.name}, Columns: []string{col},
			Description: col + ": " + strings.Join(parts, "; ")},
		evidence: ev,
	}, true
}

// seasonality looks for calendar months that hold far more rows than the
// rest. Only complete months count, and each calendar month is averaged
// over its occurrences, so that a span of 14 months does not make two
// months look busy.
func seasonality(months map[int]int64, first, last time.Time, haveSpan bool) (string, string, bool) {
	yms, ok := completeMonths(months, first, last, haveSpan)
	if !ok {
		return "", "", false
	}
	var sum [13]float64
	var occ [13]float64
	full, empty := len(yms), 0
	for _, ym := range yms {
		m := ym % 100
		sum[m] += float64(months[ym])
		occ[m]++
		if months[ym] == 0 {
			empty++
		}
	}
	// Months without rows inside the span mean gaps or stray dates (a
	// year 2099 typed by mistake), not a season.
	if full < seasonMinMonths || float64(empty) > maxEmptyMonths*float64(full) {
		return "", "", false
	}
	var avg [13]float64
	var all float64
	for m := 1; m <= 12; m++ {
		avg[m] = sum[m] / occ[m]
		all += avg[m]
	}
	mean := all / 12
	if mean <= 0 {
		return "", "", false
	}
	var peaks []int
	for m := 1; m <= 12; m++ {
		z := (avg[m] - mean) / math.Sqrt(mean/occ[m])
		if avg[m] >= peakRatio*mean && z >= minZ {
			peaks = append(peaks, m)
		}
	}
	if len(peaks) == 0 || len(peaks) > maxPeakMonths {
		return "", "", false
	}
	var share float64
	names := make([]string, len(peaks))
	for i, m := range peaks {
		share += avg[m] / all
		names[i] = time.Month(m).String()
	}
	ratio := share / (float64(len(peaks)) / 12)
	verb := "hold"
	if len(peaks) == 1 {
		verb = "holds"
	}
	desc := fmt.Sprintf("%s %s %s%% of rows (%.1f× the monthly mean)", joinAnd(names), verb, pct0(share), ratio)
	var shares []string
	for m := 1; m <= 12; m++ {
		shares = append(shares, fmt.Sprintf("%s %s%%", time.Month(m).String()[:3], pct(avg[m]/all)))
	}
	return desc, fmt.Sprintf("monthly shares over %d complete months: %s", full, strings.Join(shares, ", ")), true
}

// weekdays describes a lopsided week: days without rows, or a quietest or
// busiest day far from what its share of the calendar predicts. Each day
// is weighed by how often it occurs between first and last, so that a span
// of five weeks and two days does not favour two weekdays.
func weekdays(dow [7]int64, first, last time.Time) (string, string, bool) {
	var occ [7]float64
	var days float64
	for d := truncDay(first); !d.After(last); d = d.AddDate(0, 0, 1) {
		occ[d.Weekday()]++
		days++
	}
	var total int64
	for _, n := range dow {
		total += n
	}
	if total == 0 || days == 0 {
		return "", "", false
	}
	expected := func(d int) float64 { return float64(total) * occ[d] / days }
	ratio := func(d int) float64 { return float64(dow[d]) / expected(d) }
	var empty []string
	lo, hi := 0, 0
	var rates float64
	for d := range 7 {
		if occ[d] == 0 {
			return "", "", false
		}
		if dow[d] == 0 {
			empty = append(empty, time.Weekday(d).String())
		}
		if ratio(d) < ratio(lo) {
			lo = d
		}
		if ratio(d) > ratio(hi) {
			hi = d
		}
		rates += float64(dow[d]) / occ[d]
	}
	share := func(d int) float64 { return float64(dow[d]) / occ[d] / rates }
	var shares []string
	for d := range 7 {
		shares = append(shares, fmt.Sprintf("%s %s%%", time.Weekday(d).String()[:3], pct(share(d))))
	}
	ev := fmt.Sprintf("weekday shares, weighed by their days in the span: %s", strings.Join(shares, ", "))
	if len(empty) > 0 && len(empty) < 7 {
		return fmt.Sprintf("no rows fall on %s", joinOr(empty)), ev, true
	}
	z := func(d int) float64 { return math.Abs(float64(dow[d])-expected(d)) / math.Sqrt(expected(d)) }
	// A working week: Monday to Friday far above their 5/7 of the days,
	// the weekend far below — the one sentence an analyst wants.
	work := share(1) + share(2) + share(3) + share(4) + share(5)
	weekendRows := float64(dow[0] + dow[6])
	weekendExp := expected(0) + expected(6)
	if work >= workWeekShare && weekendExp > 0 && (weekendExp-weekendRows)/math.Sqrt(weekendExp) >= minZ {
		return fmt.Sprintf("Monday–Friday hold %s%% of rows (Saturday %s%%, Sunday %s%%), %s the busiest day",
			pct0(work), pct(share(6)), pct(share(0)), time.Weekday(hi)), ev, true
	}
	low := ratio(lo) <= weekdayLow && z(lo) >= minZ
	high := ratio(hi) >= weekdayHigh && z(hi) >= minZ
	if !low && !high {
		return "", "", false
	}
	return fmt.Sprintf("%s is the quietest day (%s%%), %s the busiest (%s%%)",
		time.Weekday(lo), pct0(share(lo)), time.Weekday(hi), pct0(share(hi))), ev, true
}

func truncDay(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
}

// hours describes the busiest and quietest hour of a timestamp column when
// they stand out; columns of bare dates (every row at midnight) have none.
func hours(hour [24]int64, total int64) (string, string, bool) {
	if hour[0] == total {
		return "", "", false
	}
	mean := float64(total) / 24
	lo, hi := 0, 0
	for h := range 24 {
		if hour[h] < hour[lo] {
			lo = h
		}
		if hour[h] > hour[hi] {
			hi = h
		}
	}
	sd := math.Sqrt(mean)
	high := float64(hour[hi]) >= peakRatio*mean && (float64(hour[hi])-mean)/sd >= minZ
	low := float64(hour[lo]) <= hourLowRatio*mean && (mean-float64(hour[lo]))/sd >= minZ
	if !high && !low {
		return "", "", false
	}
	var shares []string
	for h := range 24 {
		shares = append(shares, fmt.Sprintf("%02d h %s%%", h, pct(float64(hour[h])/float64(total))))
	}
	share := func(h int) string { return pct(float64(hour[h]) / float64(total)) }
	if from, to, ok := quietStretch(hour); ok {
		return fmt.Sprintf("the busiest hour is %02d:00–%02d:00 (%s%%); no rows between %02d:00 and %02d:00",
				hi, (hi+1)%24, share(hi), from, to),
			"hourly shares: " + strings.Join(shares, ", "), true
	}
	return fmt.Sprintf("the busiest hour is %02d:00–%02d:00 (%s%%), the quietest %02d:00–%02d:00 (%s%%)",
			hi, (hi+1)%24, share(hi), lo, (lo+1)%24, share(lo)),
		"hourly shares: " + strings.Join(shares, ", "), true
}

// completeMonths lists the year-months between the first and last complete
// month of a calendar, empty ones included. An edge month is complete only
// when the data starts on its first day or ends on its last; without the
// span, both edges are dropped.
func completeMonths(months map[int]int64, first, last time.Time, haveSpan bool) ([]int, bool) {
	if len(months) == 0 {
		return nil, false
	}
	keys := make([]int, 0, len(months))
	for k := range months {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	start, end := keys[0], keys[len(keys)-1]
	if !haveSpan || first.Day() != 1 {
		start = nextMonth(start)
	}
	if !haveSpan || last.AddDate(0, 0, 1).Day() != 1 {
		end = prevMonth(end)
	}
	var out []int
	for ym := start; ym <= end; ym = nextMonth(ym) {
		if m := ym % 100; m < 1 || m > 12 || len(out) > 12*1000 {
			return nil, false
		}
		out = append(out, ym)
	}
	return out, true
}

const (
	// trendMinMonths is the fewest complete months a trend is read from.
	trendMinMonths = 6
	// trendRatio: the fitted line must end this many times above (or
	// below, inverted) where it starts; trendMinR2 is how much of the
	// monthly variation the line must explain.
	trendRatio = 1.5
	trendMinR2 = 0.5
	// maxGapShare: more empty months than this are sparse data, not gaps;
	// gapMinMean is the monthly mean from which one empty month is odd.
	maxGapShare = 0.25
	gapMinMean  = 30
)

// trend fits a line through the rows per complete month and reports
// growth or decline that the line explains well.
func trend(months map[int]int64, first, last time.Time, haveSpan bool) (string, string, bool) {
	yms, ok := completeMonths(months, first, last, haveSpan)
	if !ok || len(yms) < trendMinMonths {
		return "", "", false
	}
	n := float64(len(yms))
	var st, sy, stt, sty, syy float64
	for i, ym := range yms {
		t, y := float64(i), float64(months[ym])
		st += t
		sy += y
		stt += t * t
		sty += t * y
		syy += y * y
	}
	vt, vy := stt-st*st/n, syy-sy*sy/n
	if vt <= 0 || vy <= 0 {
		return "", "", false
	}
	b := (sty - st*sy/n) / vt
	a := sy/n - b*st/n
	r2 := (sty - st*sy/n) * (sty - st*sy/n) / (vt * vy)
	from, to := a, a+b*(n-1)
	if r2 < trendMinR2 || from <= 0 || to <= 0 {
		return "", "", false
	}
	ratio := to / from
	verb := "grew"
	switch {
	case ratio >= trendRatio:
	case ratio <= 1/trendRatio:
		verb = "fell"
	default:
		return "", "", false
	}
	desc := fmt.Sprintf("rows per month %s from about %s to %s over %d months", verb,
		catalog.Thousands(int64(math.Round(from))), catalog.Thousands(int64(math.Round(to))), len(yms))
	ev := fmt.Sprintf("least-squares line through the rows of %d complete months %s..%s: %.1f → %.1f a month (R²=%.2f)",
		len(yms), ymText(yms[0]), ymText(yms[len(yms)-1]), from, to, r2)
	return desc, ev, true
}

// gaps names the complete months without rows inside a span whose other
// months are busy: a feed that stopped, an archive with a hole.
func gaps(months map[int]int64, first, last time.Time, haveSpan bool) (string, string, bool) {
	yms, ok := completeMonths(months, first, last, haveSpan)
	if !ok || len(yms) < trendMinMonths {
		return "", "", false
	}
	var empty []int
	var total int64
	for _, ym := range yms {
		if months[ym] == 0 {
			empty = append(empty, ym)
		}
		total += months[ym]
	}
	busy := len(yms) - len(empty)
	if len(empty) == 0 || float64(len(empty)) > maxGapShare*float64(len(yms)) || busy == 0 ||
		float64(total)/float64(busy) < gapMinMean {
		return "", "", false
	}
	// Runs of consecutive empty months.
	var runs []string
	for i := 0; i < len(empty); {
		j := i
		for j+1 < len(empty) && empty[j+1] == nextMonth(empty[j]) {
			j++
		}
		if i == j {
			runs = append(runs, ymText(empty[i]))
		} else {
			runs = append(runs, ymText(empty[i])+" to "+ymText(empty[j]))
		}
		i = j + 1
	}
	desc := "no rows in " + joinAnd(runs)
	ev := fmt.Sprintf("%d of %d complete months without rows; the others average %.0f rows", len(empty), len(yms),
		float64(total)/float64(busy))
	return desc, ev, true
}

func ymText(ym int) string { return fmt.Sprintf("%04d-%02d", ym/100, ym%100) }

// quietStretch finds the longest run of hours without rows, around
// midnight too, when it spans at least minQuietHours: from is its first
// hour, to the hour after its last.
func quietStretch(hour [24]int64) (from, to int, ok bool) {
	best, bestFrom := 0, 0
	for start := range 24 {
		if hour[start] != 0 || hour[(start+23)%24] == 0 {
			continue // not the start of a run
		}
		n := 0
		for n < 24 && hour[(start+n)%24] == 0 {
			n++
		}
		if n > best {
			best, bestFrom = n, start
		}
	}
	if best < minQuietHours {
		return 0, 0, false
	}
	return bestFrom, (bestFrom + best) % 24, true
}

// minQuietHours is the shortest run of empty hours worth naming.
const minQuietHours = 3

func nextMonth(ym int) int {
	if ym%100 >= 12 {
		return (ym/100+1)*100 + 1
	}
	return ym + 1
}

func prevMonth(ym int) int {
	if ym%100 <= 1 {
		return (ym/100-1)*100 + 12
	}
	return ym - 1
}

// pct0 renders a fraction as a whole percentage.
func pct0(f float64) string { return fmt.Sprintf("%.0f", f*100) }

func joinAnd(xs []string) string { return joinWith(xs, "and") }
func joinOr(xs []string) string  { return joinWith(xs, "or") }

func joinWith(xs []string, word string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " " + word + " " + xs[len(xs)-1]
}
