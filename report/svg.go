package report

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
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

// The entity-relationship diagram.

// diagramLimit is the most tables drawn in the whole-database diagram.
// Beyond it the picture is unreadable (and slow to lay out by eye), so the
// page draws each table's neighbourhood in its own section instead, as tbls
// does with its distance setting.
const diagramLimit = 50

// neighbourhoodDistance is how many references away from a table its
// section's diagram reaches; neighbourhoodLimit caps the tables drawn there
// (the most confident references first) so a hub table stays legible.
const (
	neighbourhoodDistance = 1
	neighbourhoodLimit    = 16
)

type erNode struct {
	name       string
	href       string // the table's section, "" when it is not in the report
	sub        string // second line: rows, or "view"
	layer, row int
	x, y, w    float64
	focus      bool
}

const (
	erNodeH = 36.0
	erHGap  = 48.0
	erVGap  = 64.0
	erPad   = 16.0
	erRow   = 6 // nodes per row before a layer wraps
)

// erDiagram draws the tables named in names (every one of them, in any
// order) and the relationships among them. Parents (referenced tables) sit
// above the tables that reference them; declared, inferred and user-given
// references are drawn differently and labelled with their confidence.
// prefix keeps the marker ids of several diagrams on one page apart.
func erDiagram(prefix string, names []string, focus string, tables map[string]htmlTable, rels []Relationship) template.HTML {
	if len(names) == 0 {
		return ""
	}
	names = slices.Clone(names)
	slices.Sort(names)
	idx := map[string]int{}
	nodes := make([]*erNode, len(names))
	for i, n := range names {
		idx[n] = i
		nd := &erNode{name: n, focus: n == focus}
		if t, ok := tables[n]; ok {
			nd.href = "#" + t.ID
			nd.sub = rowsText(t.Table) + " rows"
			if t.Kind == "view" {
				nd.sub = "view"
			}
		}
		nodes[i] = nd
	}
	type edge struct {
		rel      Relationship
		from, to int
	}
	var edges []edge
	for _, r := range rels {
		f, ok1 := idx[r.FromTable]
		t, ok2 := idx[r.ToTable]
		if ok1 && ok2 {
			edges = append(edges, edge{r, f, t})
		}
	}
	parents := make([][]int, len(nodes))
	children := make([][]int, len(nodes))
	for _, e := range edges {
		if e.from != e.to {
			parents[e.from] = append(parents[e.from], e.to)
			children[e.to] = append(children[e.to], e.from)
		}
	}

	// Layer: a table sits one below the lowest table it references. A
	// reference that closes a cycle is ignored for layering only.
	const unset, visiting = -1, -2
	layer := make([]int, len(nodes))
	for i := range layer {
		layer[i] = unset
	}
	var visit func(i int) int
	visit = func(i int) int {
		switch layer[i] {
		case visiting:
			return -1
		case unset:
		default:
			return layer[i]
		}
		layer[i] = visiting
		l := 0
		for _, p := range parents[i] {
			if pl := visit(p); pl >= 0 {
				l = max(l, pl+1)
			}
		}
		layer[i] = l
		return l
	}
	for i := range nodes {
		visit(i)
	}
	depth := slices.Max(layer) + 1
	layers := make([][]int, depth)
	for i, l := range layer {
		nodes[i].layer = l
		layers[l] = append(layers[l], i)
	}

	// Order each layer by the mean position of its neighbours in the layer
	// swept from (the barycentre heuristic), to uncross edges; ties keep
	// name order, so the same schema always gives the same picture.
	pos := make([]float64, len(nodes))
	setPos := func() {
		for _, l := range layers {
			for k, i := range l {
				pos[i] = float64(k)
			}
		}
	}
	setPos()
	sweep := func(l []int, nbrs [][]int) {
		bary := map[int]float64{}
		for _, i := range l {
			if len(nbrs[i]) == 0 {
				bary[i] = pos[i]
				continue
			}
			s := 0.0
			for _, j := range nbrs[i] {
				s += pos[j]
			}
			bary[i] = s / float64(len(nbrs[i]))
		}
		slices.SortStableFunc(l, func(a, b int) int { return cmp.Compare(bary[a], bary[b]) })
		for k, i := range l {
			pos[i] = float64(k)
		}
	}
	for range 2 {
		for d := 1; d < depth; d++ {
			sweep(layers[d], parents)
		}
		for d := depth - 2; d >= 0; d-- {
			sweep(layers[d], children)
		}
	}

	// Rows: a wide layer wraps, so the picture grows down, not sideways.
	var rows [][]int
	for _, l := range layers {
		for len(l) > erRow {
			rows = append(rows, l[:erRow])
			l = l[erRow:]
		}
		rows = append(rows, l)
	}
	width := 0.0
	rowW := make([]float64, len(rows))
	for r, row := range rows {
		for k, i := range row {
			nd := nodes[i]
			nd.row = r
			nd.w = math.Max(96, 7.2*float64(max(len([]rune(textcut.Runes(nd.name, 32))), len(nd.sub)))+20)
			if k > 0 {
				rowW[r] += erHGap
			}
			rowW[r] += nd.w
		}
		width = math.Max(width, rowW[r])
	}
	for r, row := range rows {
		x := erPad + (width-rowW[r])/2
		for _, i := range row {
			nd := nodes[i]
			nd.x, nd.y = x, erPad+float64(r)*(erNodeH+erVGap)
			x += nd.w + erHGap
		}
	}
	W := width + 2*erPad + 40 // room on the right for self-references
	H := 2*erPad + float64(len(rows))*erNodeH + float64(len(rows)-1)*erVGap

	var b strings.Builder
	label := fmt.Sprintf("Entity-relationship diagram: %d tables, %d references", len(nodes), len(edges))
	fmt.Fprintf(&b, `<svg class="er" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s"><title>%s</title>`,
		f1(W), f1(H), f1(W), f1(H), esc(label), esc(label))
	b.WriteString("<defs>")
	for _, src := range []string{"declared", "inferred", "user"} {
		fmt.Fprintf(&b, `<marker id="%s-arrow-%s" class="er-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>`,
			prefix, src, src)
	}
	b.WriteString("</defs>")

	// Edges first, so boxes are drawn over their ends. Each edge leaves and
	// enters a box at its own port, spread along the side it uses and
	// ordered by where the other end lies, so edges into a hub fan out
	// instead of meeting in one point.
	type port struct {
		edge  int
		start bool    // the child's end
		other float64 // x of the other end's box centre
	}
	const top, bottom = 0, 1
	sides := map[[2]int][]port{} // (node, side) -> ports
	side := func(e edge) (child, parent int) {
		c, p := nodes[e.from], nodes[e.to]
		switch {
		case c.row > p.row:
			return top, bottom
		case c.row < p.row:
			return bottom, top
		}
		return top, top
	}
	for k, e := range edges {
		if e.from == e.to {
			continue
		}
		cs, ps := side(e)
		c, p := nodes[e.from], nodes[e.to]
		sides[[2]int{e.from, cs}] = append(sides[[2]int{e.from, cs}], port{k, true, p.x + p.w/2})
		sides[[2]int{e.to, ps}] = append(sides[[2]int{e.to, ps}], port{k, false, c.x + c.w/2})
	}
	startX := make([]float64, len(edges))
	endX := make([]float64, len(edges))
	for key, ps := range sides {
		slices.SortStableFunc(ps, func(a, b port) int { return cmp.Or(cmp.Compare(a.other, b.other), cmp.Compare(a.edge, b.edge)) })
		nd := nodes[key[0]]
		for k, pt := range ps {
			x := nd.x + nd.w*float64(k+1)/float64(len(ps)+1)
			if pt.start {
				startX[pt.edge] = x
			} else {
				endX[pt.edge] = x
			}
		}
	}
	loops := map[int]int{}
	for k, e := range edges {
		c, p := nodes[e.from], nodes[e.to]
		var sx, sy, c1x, c1y, c2x, c2y, ex, ey float64
		switch {
		case e.from == e.to:
			off := float64(loops[e.from]) * 10
			loops[e.from]++
			sx, sy = c.x+c.w, c.y+erNodeH*0.3
			ex, ey = c.x+c.w, c.y+erNodeH*0.7
			c1x, c1y = sx+34+off, sy-22
			c2x, c2y = ex+34+off, ey+22
		case c.row > p.row:
			sx, sy = startX[k], c.y
			ex, ey = endX[k], p.y+erNodeH
			d := (sy - ey) / 2
			c1x, c1y, c2x, c2y = sx, sy-d, ex, ey+d
		case c.row < p.row:
			sx, sy = startX[k], c.y+erNodeH
			ex, ey = endX[k], p.y
			d := (ey - sy) / 2
			c1x, c1y, c2x, c2y = sx, sy+d, ex, ey-d
		default: // same row: arc above it
			sx, sy = startX[k], c.y
			ex, ey = endX[k], p.y
			c1x, c1y, c2x, c2y = sx, sy-erVGap*0.6, ex, ey-erVGap*0.6
		}
		src := e.rel.Source
		if src != "declared" && src != "user" {
			src = "inferred"
		}
		conf := percent(e.rel.Confidence)
		title := fmt.Sprintf("%s → %s: %s, confidence %s", endText(e.rel.FromTable, e.rel.FromColumns),
			endText(e.rel.ToTable, e.rel.ToColumns), e.rel.Source, conf)
		if e.rel.Cardinality != nil {
			title += ", " + cardinalityText(e.rel.Cardinality)
		}
		// The label sits a third of the way from the referencing table, so
		// it reads as that table's reference even where edges cross.
		mx, my := bezier(1.0/3, sx, c1x, c2x, ex), bezier(1.0/3, sy, c1y, c2y, ey)
		if e.from == e.to {
			mx, my = sx+30, c.y+erNodeH/2
		}
		fmt.Fprintf(&b, `<g class="er-edge er-%s"><title>%s</title><path d="M%s,%s C%s,%s %s,%s %s,%s" marker-end="url(#%s-arrow-%s)"/><text x="%s" y="%s">%s</text></g>`,
			src, esc(title), f1(sx), f1(sy), f1(c1x), f1(c1y), f1(c2x), f1(c2y), f1(ex), f1(ey), prefix, src,
			f1(mx), f1(my+4), esc(conf))
	}
	for _, nd := range nodes {
		class := "er-node"
		if nd.focus {
			class += " er-focus"
		}
		open, end := "", ""
		if nd.href != "" {
			open, end = fmt.Sprintf(`<a href="%s">`, esc(nd.href)), "</a>"
		}
		fmt.Fprintf(&b, `%s<g class="%s"><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" rx="4"/><text class="er-name" x="%s" y="%s">%s</text><text class="er-sub" x="%s" y="%s">%s</text></g>%s`,
			open, class, esc(nd.name), f1(nd.x), f1(nd.y), f1(nd.w), f1(erNodeH),
			f1(nd.x+nd.w/2), f1(nd.y+15), esc(textcut.Runes(nd.name, 32)),
			f1(nd.x+nd.w/2), f1(nd.y+29), esc(nd.sub), end)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// bezier is a cubic Bézier coordinate at t.
func bezier(t, p0, p1, p2, p3 float64) float64 {
	u := 1 - t
	return u*u*u*p0 + 3*u*u*t*p1 + 3*u*t*t*p2 + t*t*t*p3
}

// connected lists the tables that take part in at least one relationship
// with a table of the report, in name order.
func connected(tables map[string]htmlTable, rels []Relationship) []string {
	seen := map[string]bool{}
	for _, r := range rels {
		_, a := tables[r.FromTable]
		_, b := tables[r.ToTable]
		if a && b {
			seen[r.FromTable], seen[r.ToTable] = true, true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// neighbourhood lists table and the tables within distance references of
// it, nearest and most confident first, at most limit of them (table
// included); more says how many were left out.
func neighbourhood(table string, distance, limit int, rels []Relationship) (names []string, more int) {
	type link struct {
		to   string
		conf float64
	}
	adj := map[string][]link{}
	for _, r := range rels {
		if r.FromTable == r.ToTable {
			continue
		}
		adj[r.FromTable] = append(adj[r.FromTable], link{r.ToTable, r.Confidence})
		adj[r.ToTable] = append(adj[r.ToTable], link{r.FromTable, r.Confidence})
	}
	for _, ls := range adj {
		slices.SortStableFunc(ls, func(a, b link) int { return cmp.Or(cmp.Compare(b.conf, a.conf), cmp.Compare(a.to, b.to)) })
	}
	seen := map[string]bool{table: true}
	names = []string{table}
	front := []string{table}
	for d := 0; d < distance && len(front) > 0; d++ {
		var next []string
		for _, n := range front {
			for _, l := range adj[n] {
				if seen[l.to] {
					continue
				}
				seen[l.to] = true
				if len(names) < limit {
					names = append(names, l.to)
					next = append(next, l.to)
				} else {
					more++
				}
			}
		}
		front = next
	}
	return names, more
}
