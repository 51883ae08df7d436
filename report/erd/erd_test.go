package erd

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/goccy/go-graphviz"
)

func sample() Diagram {
	return Diagram{Title: "shop", Legend: true, Tables: []Table{
		{Name: "customers", Note: "1,000 rows", URL: "#table-1", Columns: []Column{{Name: "id", Type: "INTEGER", PK: true}, {Name: "name", Type: "TEXT"}}},
		{Name: "orders", Note: "5,000 rows", Focus: true, Columns: []Column{{Name: "id", Type: "INTEGER", PK: true}, {Name: "customer_id", Type: "INTEGER", FK: true}, {Name: "parent_id", Type: "INTEGER", FK: true}}, More: 3},
	}, Edges: []Edge{
		{From: "orders", FromColumns: []string{"customer_id"}, To: "customers", ToColumns: []string{"id"}, Source: "declared", Cardinality: "one_to_many"},
		{From: "orders", FromColumns: []string{"parent_id"}, To: "orders", ToColumns: []string{"id"}, Source: "inferred", Label: "87%", Optional: true},
	}}
}

func renderT(t *testing.T, d Diagram) []byte {
	t.Helper()
	svg, err := SVG(context.Background(), DOT(d))
	if err != nil {
		t.Fatalf("%v\n%s", err, DOT(d))
	}
	return svg
}

func TestDOTDrawsSourcesAndCardinality(t *testing.T) {
	dot := string(DOT(sample()))
	for _, want := range []string{
		// child column's port to parent column's port
		`t2:c2 -> t1:c1 [class="er-edge er-declared", color="#424a53", fontcolor="#424a53", style=solid, arrowtail=crowodot, arrowhead=teetee`,
		// a self reference, inferred and dashed, its child column nullable
		`t2:c3 -> t2:c1 [class="er-edge er-inferred", color="#bc4c00", fontcolor="#bc4c00", style=dashed, arrowtail=crowodot, arrowhead=teeodot, label="87%"`,
		`<td port="c2" align="left"><font color="#0969da" point-size="8">FK </font>customer_id`,
		`… 3 more columns`,
		`legend [class="er-legend"`,
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %s:\n%s", want, dot)
		}
	}
	for _, c := range []struct {
		card     string
		optional bool
		tail     string
		head     string
	}{
		{"one_to_many", false, "crowodot", "teetee"},
		{"", false, "crowodot", "teetee"},
		{"one_to_one", false, "teeodot", "teetee"},
		{"one_to_one", true, "teeodot", "teeodot"},
		{"many_to_many", true, "crowodot", "crowodot"},
	} {
		if tail, head := arrows(c.card, c.optional); tail != c.tail || head != c.head {
			t.Errorf("%s (optional %v): %s/%s, want %s/%s", c.card, c.optional, tail, head, c.tail, c.head)
		}
	}
	user := sample()
	user.Edges[0].Source = "user"
	if !strings.Contains(string(DOT(user)), `class="er-edge er-user", color="#8250df", fontcolor="#8250df", style=dotted`) {
		t.Error("a user reference is not dotted")
	}
}

func TestSVGIsDeterministic(t *testing.T) {
	a := renderT(t, sample())
	clear(cache) // lay it out again, not from the cache
	b := renderT(t, sample())
	if !bytes.Equal(a, b) {
		t.Error("two renders of one diagram differ")
	}
	for _, gone := range []string{"<?xml", "<!DOCTYPE", "<!--", "&#45;", "<title>t1</title>", "graphviz version"} {
		if bytes.Contains(a, []byte(gone)) {
			t.Errorf("svg holds %q", gone)
		}
	}
	if !bytes.HasPrefix(a, []byte("<svg ")) {
		t.Errorf("svg starts %q", a[:20])
	}
}

// hostile are names a database may hold: DOT's and HTML's syntax, escapes
// Graphviz reads in strings (\N, \l), control characters, invalid UTF-8,
// bidirectional overrides and zero-width characters.
var hostile = []string{
	`a"b`, `<b>bold</b>`, `x&amp;y`, `}; digraph x {`, "line\nbreak", `back\slash\N\l`, `]];node [label=x`,
	"tab\there", "\x00nul", "bad\xffutf8", `<script>alert(1)</script>`, "-->", "", "  ", `'single'`, "\u2028sep",
	strings.Repeat("long", 500), `port:c1`, `t1`, "evil\u202egnp.exe", "zero\u200bwidth\u2066iso\u2069",
}

func TestHostileNamesStayText(t *testing.T) {
	var d Diagram
	d.Title = `title "with" <quotes> & \N`
	for i, n := range hostile {
		d.Tables = append(d.Tables, Table{Name: n, Note: n, URL: n, Columns: []Column{{Name: n, Type: n, PK: true}, {Name: "x" + n, Type: n, FK: true}}})
		if i > 0 {
			d.Edges = append(d.Edges, Edge{From: n, FromColumns: []string{"x" + n}, To: hostile[i-1], ToColumns: []string{hostile[i-1]},
				Source: "inferred", Label: n, Tooltip: n})
		}
	}
	svg := renderT(t, d)
	// Well-formed, and no element but Graphviz's own.
	allowed := map[string]bool{"svg": true, "g": true, "title": true, "polygon": true, "text": true, "path": true,
		"polyline": true, "ellipse": true, "a": true}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	texts := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("svg is not XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if !allowed[se.Name.Local] {
				t.Errorf("injected element <%s>", se.Name.Local)
			}
			if se.Name.Local == "text" {
				texts++
			}
		}
	}
	if bytes.Contains(svg, []byte("<script")) || bytes.Contains(svg, []byte("<b>")) {
		t.Error("a name's markup reached the svg")
	}
	// A reader sees a bidirectional override or a zero-width character,
	// as on the pages; the svg never carries one to obey.
	for _, r := range []string{"\u202e", "\u200b", "\u2066", "\u2069"} {
		if bytes.Contains(svg, []byte(r)) {
			t.Errorf("svg holds %U", []rune(r)[0])
		}
	}
	for _, want := range []string{"a&quot;b", "&lt;b&gt;bold&lt;/b&gt;", `line\nbreak`, "x&amp;amp;y", `back\slash\N\l`,
		`evil\u202egnp.exe`, `zero\u200bwidth\u2066iso\u2069`, `bad\xffutf8`} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("svg lacks %s", want)
		}
	}
	if n := bytes.Count(svg, []byte(`class="edge er-edge`)); n != len(hostile)-1 {
		t.Errorf("%d edges drawn, want %d", n, len(hostile)-1)
	}
}

func TestCheckFindsCrossingsAndOverlaps(t *testing.T) {
	// Three boxes in a row; an edge from the first to the third straight
	// through the second; two labels on one spot.
	svg := `<svg xmlns="http://www.w3.org/2000/svg"><g class="graph">
<g class="node"><title>a</title><polygon points="0,0 0,20 40,20 40,0 0,0"/></g>
<g class="node"><title>b</title><polygon points="100,0 100,20 140,20 140,0 100,0"/></g>
<g class="node"><title>c</title><polygon points="200,0 200,20 240,20 240,0 200,0"/></g>
<g class="edge"><title>a-&gt;c</title><path d="M40,10C80,10 160,10 200,10"/>
<text text-anchor="middle" x="70" y="40" font-size="10">label one</text></g>
<g class="edge"><title>a-&gt;b</title><path d="M40,5C60,5 80,5 100,5"/>
<text text-anchor="middle" x="72" y="42" font-size="10">label two</text></g>
</g></svg>`
	problems, err := Check([]byte(svg))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`edge a->c passes through box b`, `labels "label one" and "label two" overlap`}
	if len(problems) != len(want) {
		t.Fatalf("problems %q, want %q", problems, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %q, want %q", problems[i], w)
		}
	}
	// It reads Graphviz's picture: two tables and the legend, two edges,
	// each with a path.
	nodes, edges, texts, err := parseSVG(renderT(t, sample()))
	if err != nil || len(nodes) != 3 || len(edges) != 2 || len(texts) < 20 {
		t.Errorf("graphviz svg read as %d nodes, %d edges, %d texts (%v)", len(nodes), len(edges), len(texts), err)
	}
	for _, e := range edges {
		if len(e.points) < 24 {
			t.Errorf("edge %s sampled at %d points", e.name, len(e.points))
		}
	}
	if p, err := Check(renderT(t, sample())); err != nil || len(p) != 0 {
		t.Errorf("sample: %v %q", err, p)
	}
	if _, err := Check([]byte("<svg><g>")); err == nil {
		t.Error("a broken svg passes")
	}
}

// TestDOTParses: every DOT written, hostile or not, is one Graphviz reads.
func TestDOTParses(t *testing.T) {
	for _, d := range []Diagram{sample(), {Title: "empty"}} {
		g, err := graphviz.ParseBytes(DOT(d))
		if err != nil {
			t.Fatalf("%s: %v", d.Title, err)
		}
		g.Close()
	}
}
