package report

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/textcut"
)

// The HTML report's pictures are inline SVG written here as text: no
// library, no script and nothing fetched, so the page stays one file that
// opens offline. Every data value that reaches an SVG goes through esc,
// because names and values come from the database under discovery.

func esc(s string) string { return template.HTMLEscapeString(s) }

// f1 writes a coordinate with at most one decimal: enough for a screen and
// the same bytes on every platform, so the page stays deterministic.
func f1(v float64) string {
	s := strconv.FormatFloat(math.Round(v*10)/10, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0")
}

// Histogram pictures are this many pixels.
const (
	histW = 120
	histH = 30
)

// histogramSVG draws an equi-depth histogram on a value axis: each bucket
// spans its bounds and its height is its density (values per unit), so a
// skewed column looks skewed. A bucket between equal bounds (one value
// repeated) is drawn as a thin spike whose width is floored, and so is its
// density, or it would dwarf everything else.
func histogramSVG(h *Histogram) template.HTML {
	if h == nil || len(h.Bounds) < 2 {
		return ""
	}
	n := len(h.Bounds) - 1
	counts := h.Counts
	approx := len(counts) == 0
	if approx {
		// The engine gave the bounds only: by construction each bucket holds
		// about the same number of values.
		counts = make([]int64, n)
		for i := range counts {
			counts[i] = 1
		}
	}
	lo, hi := h.Bounds[0], h.Bounds[n]
	span := hi - lo
	minSpan := span / 40
	if span <= 0 {
		minSpan, span = 1, 0
	}
	const minW = 2.0
	x := func(v float64) float64 {
		if span == 0 {
			return 0
		}
		return (v - lo) / span * (histW - minW)
	}
	dens := make([]float64, n)
	top := 0.0
	var total int64
	for i := range n {
		total += counts[i]
		dens[i] = float64(counts[i]) / math.Max(h.Bounds[i+1]-h.Bounds[i], minSpan)
		top = math.Max(top, dens[i])
	}
	if top == 0 {
		return ""
	}
	var b strings.Builder
	what := "values"
	if approx {
		what = "about a tenth of the values"
	}
	title := fmt.Sprintf("histogram of %s: %s .. %s", what, numLabel(lo), numLabel(hi))
	if h.Estimate {
		title += " (estimated from a sample)"
	}
	fmt.Fprintf(&b, `<svg class="hist" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s"><title>%s</title>`,
		histW, histH, histW, histH, esc(title), esc(title))
	fmt.Fprintf(&b, `<line class="axis" x1="0" y1="%d" x2="%d" y2="%d"/>`, histH-1, histW, histH-1)
	for i := range n {
		if counts[i] == 0 {
			continue
		}
		x0, x1 := x(h.Bounds[i]), x(h.Bounds[i+1])+minW
		height := math.Max(1, dens[i]/top*(histH-3))
		open := "("
		if i == 0 {
			open = "["
		}
		label := fmt.Sprintf("%s%s, %s]: %s", open, numLabel(h.Bounds[i]), numLabel(h.Bounds[i+1]), catalog.Thousands(counts[i]))
		if approx {
			label = fmt.Sprintf("%s%s, %s]: about %s", open, numLabel(h.Bounds[i]), numLabel(h.Bounds[i+1]), percent(1/float64(n)))
		} else if total > 0 {
			label += " (" + percent(float64(counts[i])/float64(total)) + ")"
		}
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s"><title>%s</title></rect>`,
			f1(x0), f1(histH-1-height), f1(x1-x0), f1(height), esc(label))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// numLabel writes a bound compactly: integers as integers, others with
// three significant digits.
func numLabel(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// topBars draws a column's most frequent values as bars whose width is the
// value's share of the rows. HTML rather than SVG: the values are text a
// reader wants to select and copy.
func topBars(vs []ValueCount, limit int) template.HTML {
	if len(vs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<div class="tops">`)
	for i, v := range vs {
		if i == limit {
			fmt.Fprintf(&b, `<div class="tv-more">and %d more</div>`, len(vs)-limit)
			break
		}
		w := math.Max(0.5, fraction(v.Fraction)*100)
		fmt.Fprintf(&b, `<div class="tv" title="%s: %s rows (%s)"><span class="tv-bar" style="width:%s%%"></span><span class="tv-v">%s</span><span class="tv-n">%s</span></div>`,
			esc(v.Value), catalog.Thousands(v.Count), esc(percent(v.Fraction)), f1(w), esc(textcut.Runes(v.Value, 24)), catalog.Thousands(v.Count))
	}
	b.WriteString(`</div>`)
	return template.HTML(b.String())
}
