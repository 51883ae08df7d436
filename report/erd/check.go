package erd

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Check reads an SVG diagram and lists what makes it illegible: an edge
// whose path crosses a box other than the two it joins, and two text
// labels whose boxes overlap. It reads any SVG whose boxes are groups with
// "node" in their class (Graphviz's, and the hand-laid diagram this package
// replaced) and whose edges are groups with "edge" in theirs holding a
// path of M and C commands. Text extents are estimated from the font size
// and the number of characters, a little generously for Verdana, so that a
// label that merely touches another is not reported.
func Check(svg []byte) ([]string, error) {
	nodes, edges, texts, err := parseSVG(svg)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, e := range edges {
		if len(e.points) < 2 {
			continue
		}
		a := nearest(nodes, e.points[0])
		b := nearest(nodes, e.points[len(e.points)-1])
		for i, n := range nodes {
			if i == a || i == b {
				continue
			}
			inner := n.box.shrink(2)
			for _, p := range e.points {
				if inner.contains(p) {
					problems = append(problems, fmt.Sprintf("edge %s passes through box %s at (%.0f, %.0f)", e.name, n.name, p.x, p.y))
					break
				}
			}
		}
	}
	for i := range texts {
		for j := i + 1; j < len(texts); j++ {
			if texts[i].owner == texts[j].owner && texts[i].owner != "" && texts[i].owner[0] == 'n' {
				// Within a box Graphviz's table layout places the texts by
				// its own font metrics; an estimate would only add noise.
				continue
			}
			a, b := texts[i].box.shrink(0.5), texts[j].box.shrink(0.5)
			if a.overlaps(b) {
				problems = append(problems, fmt.Sprintf("labels %q and %q overlap", texts[i].text, texts[j].text))
			}
		}
	}
	return problems, nil
}

type point struct{ x, y float64 }

type box struct{ x0, y0, x1, y1 float64 }

func (b box) contains(p point) bool {
	return p.x > b.x0 && p.x < b.x1 && p.y > b.y0 && p.y < b.y1
}

func (b box) overlaps(o box) bool {
	return b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1
}

func (b box) shrink(d float64) box { return box{b.x0 + d, b.y0 + d, b.x1 - d, b.y1 - d} }

func (b box) distance(p point) float64 {
	dx := math.Max(0, math.Max(b.x0-p.x, p.x-b.x1))
	dy := math.Max(0, math.Max(b.y0-p.y, p.y-b.y1))
	return math.Hypot(dx, dy)
}

func (b *box) add(p point) {
	b.x0, b.y0 = math.Min(b.x0, p.x), math.Min(b.y0, p.y)
	b.x1, b.y1 = math.Max(b.x1, p.x), math.Max(b.y1, p.y)
}

type svgNode struct {
	name string
	box  box
}

type svgEdge struct {
	name   string
	points []point // sampled along the path
}

type svgText struct {
	text  string
	owner string // the node or edge it belongs to: "n3", "e7"
	box   box
}

// nearest is the node whose box is closest to p: an edge's end.
func nearest(nodes []svgNode, p point) int {
	best, dist := -1, math.Inf(1)
	for i, n := range nodes {
		if d := n.box.distance(p); d < dist {
			best, dist = i, d
		}
	}
	return best
}

func parseSVG(svg []byte) ([]svgNode, []svgEdge, []svgText, error) {
	var (
		nodes []svgNode
		edges []svgEdge
		texts []svgText
		stack []string // the class of each open <g>, "" for others
	)
	in := func(kind string) bool { return slices.Contains(stack, kind) }
	owner := func() string {
		switch {
		case in("edge"):
			return fmt.Sprintf("e%d", len(edges))
		case in("node"):
			return fmt.Sprintf("n%d", len(nodes))
		}
		return ""
	}
	empty := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	d := xml.NewDecoder(bytes.NewReader(svg))
	d.Strict = true
	var title string
	var pendingText *svgText
	var textAttrs map[string]string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("erd: svg is not well-formed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			attrs := map[string]string{}
			for _, a := range t.Attr {
				attrs[a.Name.Local] = a.Value
			}
			switch t.Name.Local {
			case "g":
				class := attrs["class"]
				kind := ""
				switch {
				case hasClass(class, "node") || hasClass(class, "er-node"):
					kind = "node"
					nodes = append(nodes, svgNode{name: fmt.Sprint(len(nodes) + 1), box: empty})
				case hasClass(class, "edge") || hasClass(class, "er-edge"):
					kind = "edge"
					edges = append(edges, svgEdge{name: fmt.Sprint(len(edges) + 1)})
				}
				stack = append(stack, kind)
			case "title":
				title = ""
			case "polygon", "rect", "ellipse":
				if in("node") && !in("edge") {
					n := &nodes[len(nodes)-1]
					for _, p := range shapePoints(t.Name.Local, attrs) {
						n.box.add(p)
					}
				}
			case "path":
				if in("edge") {
					e := &edges[len(edges)-1]
					e.points = append(e.points, pathPoints(attrs["d"])...)
				}
			case "text":
				pendingText = &svgText{owner: owner()}
				textAttrs = attrs
				if _, ok := attrs["text-anchor"]; !ok {
					// The hand-laid diagram set these in the page's CSS.
					attrs["text-anchor"] = "middle"
					switch {
					case attrs["class"] == "er-sub":
						attrs["font-size"] = "11"
					case in("edge"):
						attrs["font-size"] = "10"
					}
				}
			}
		case xml.CharData:
			if pendingText != nil {
				pendingText.text += string(t)
			} else {
				title += string(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "g":
				stack = stack[:len(stack)-1]
			case "title":
				// The first title of a group names it.
				if len(stack) > 0 && stack[len(stack)-1] == "node" && nodes[len(nodes)-1].name == fmt.Sprint(len(nodes)) {
					nodes[len(nodes)-1].name = strings.TrimSpace(title)
				} else if len(stack) > 0 && stack[len(stack)-1] == "edge" && edges[len(edges)-1].name == fmt.Sprint(len(edges)) {
					edges[len(edges)-1].name = strings.TrimSpace(title)
				}
			case "text":
				if pendingText != nil && strings.TrimSpace(pendingText.text) != "" {
					pendingText.box = textBox(pendingText.text, textAttrs)
					texts = append(texts, *pendingText)
				}
				pendingText = nil
			}
		}
	}
	return nodes, edges, texts, nil
}

func hasClass(class, want string) bool {
	return slices.Contains(strings.Fields(class), want)
}

func num(s string) float64 {
	v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v
}

func shapePoints(kind string, attrs map[string]string) []point {
	if kind == "ellipse" {
		x, y, rx, ry := num(attrs["cx"]), num(attrs["cy"]), num(attrs["rx"]), num(attrs["ry"])
		return []point{{x - rx, y - ry}, {x + rx, y + ry}}
	}
	if kind == "rect" {
		x, y, w, h := num(attrs["x"]), num(attrs["y"]), num(attrs["width"]), num(attrs["height"])
		return []point{{x, y}, {x + w, y + h}}
	}
	var ps []point
	for _, pair := range strings.Fields(attrs["points"]) {
		xs, ys, ok := strings.Cut(pair, ",")
		if ok {
			ps = append(ps, point{num(xs), num(ys)})
		}
	}
	return ps
}

var pathToken = regexp.MustCompile(`[MmCcLl]|-?[0-9]*\.?[0-9]+(?:e-?[0-9]+)?`)

// pathPoints samples a path of absolute M, L and C commands (what Graphviz
// and the hand-laid diagram write) at 24 points per curve.
func pathPoints(d string) []point {
	var (
		out  []point
		cmd  string
		nums []float64
		cur  point
	)
	flush := func() {
		switch cmd {
		case "M", "L":
			for i := 0; i+1 < len(nums); i += 2 {
				p := point{nums[i], nums[i+1]}
				if cmd == "L" {
					out = append(out, line(cur, p)...)
				} else {
					out = append(out, p)
				}
				cur = p
			}
		case "C":
			for i := 0; i+5 < len(nums); i += 6 {
				p1, p2, p3 := point{nums[i], nums[i+1]}, point{nums[i+2], nums[i+3]}, point{nums[i+4], nums[i+5]}
				for k := 1; k <= 24; k++ {
					t := float64(k) / 24
					out = append(out, cubic(t, cur, p1, p2, p3))
				}
				cur = p3
			}
		}
		nums = nums[:0]
	}
	for _, tok := range pathToken.FindAllString(d, -1) {
		if r, _ := utf8.DecodeRuneInString(tok); strings.ContainsRune("MmCcLl", r) {
			flush()
			cmd = strings.ToUpper(tok)
			continue
		}
		nums = append(nums, num(tok))
	}
	flush()
	return out
}

func line(a, b point) []point {
	var out []point
	for k := 1; k <= 24; k++ {
		t := float64(k) / 24
		out = append(out, point{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t})
	}
	return out
}

func cubic(t float64, p0, p1, p2, p3 point) point {
	u := 1 - t
	f := func(a, b, c, d float64) float64 { return u*u*u*a + 3*u*u*t*b + 3*u*t*t*c + t*t*t*d }
	return point{f(p0.x, p1.x, p2.x, p3.x), f(p0.y, p1.y, p2.y, p3.y)}
}

// textBox estimates a text's box from its anchor, font size and length:
// Verdana's average advance is about 0.6 of the size; the box spans from
// the ascent (0.8) above the baseline to the descent (0.2) below it.
func textBox(s string, attrs map[string]string) box {
	size := 12.0 // the page's CSS for the hand-laid diagram
	if v, ok := attrs["font-size"]; ok {
		size = num(strings.TrimSuffix(v, "px"))
	}
	x, y := num(attrs["x"]), num(attrs["y"])
	w := 0.6 * size * float64(utf8.RuneCountInString(strings.TrimRight(s, " ")))
	switch attrs["text-anchor"] {
	case "middle":
		x -= w / 2
	case "end":
		x -= w
	}
	return box{x, y - 0.8*size, x + w, y + 0.2*size}
}
