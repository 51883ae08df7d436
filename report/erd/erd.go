// Package erd writes entity-relationship diagrams as Graphviz DOT and lays
// them out with Graphviz itself (go-graphviz: Graphviz compiled to
// WebAssembly, so nothing is installed on the machine).
//
// A hand-written layout drew edges behind other tables' boxes and labels
// over each other from 16 tables on (issue 22); dot's layered layout routes
// edges around boxes and places edge labels as nodes of their own, so
// neither happens. The package knows nothing of reports: report builds a
// Diagram from its model and decides which tables go in it.
package erd

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/discover-db/discover/internal/shown"
	"github.com/discover-db/discover/internal/textcut"
)

// Column is one row of a table's box.
type Column struct {
	Name string
	Type string
	PK   bool // part of the primary key
	FK   bool // part of a reference to another table
}

// Table is one box. With no Columns it is drawn as a name and a note only
// (the overview of a large schema); More says how many columns were cut.
type Table struct {
	Name    string
	Note    string // second header line: "1,234 rows", "view"
	URL     string // where clicking the box goes; "" for none
	Focus   bool   // the table a neighbourhood diagram is about
	Columns []Column
	More    int
}

// Edge is one reference, drawn from the child's columns to the parent's.
type Edge struct {
	From        string
	FromColumns []string
	To          string
	ToColumns   []string
	Source      string // declared, inferred or user
	Cardinality string // one_to_many, one_to_one, many_to_many or "" (unknown)
	Optional    bool   // a child column may be NULL: a child needs no parent
	Label       string // drawn on the edge; "" for none
	Tooltip     string
}

// Diagram is what one picture shows.
type Diagram struct {
	Title  string
	Tables []Table
	Edges  []Edge
	Legend bool
	Pack   bool // lay unconnected parts out side by side; drops edge labels
}

// Limits of what a box shows, so that a 5,000-character name or a table of
// 400 columns still makes a box a reader can take in.
const (
	nameLimit = 48
	typeLimit = 20
	noteLimit = 40
)

// Colours and line styles by source; the HTML page's legend uses the same.
var styles = map[string]struct{ colour, style string }{
	"declared": {"#424a53", "solid"},
	"inferred": {"#bc4c00", "dashed"},
	"user":     {"#8250df", "dotted"},
}

// SourceOf is the drawing class of a relationship's source: declared,
// user, or inferred for anything else (a future source draws as found in
// the data rather than as declared).
func SourceOf(s string) string {
	if s == "declared" || s == "user" {
		return s
	}
	return "inferred"
}

// DOT writes d as a Graphviz digraph. It is a pure function of d: tables
// and edges are written in the order given (the caller sorts), node and
// port names are positions, never names, so no name from a database can
// reach DOT's syntax except inside an escaped string or label.
func DOT(d Diagram) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "digraph %s {\n", quote(d.Title))
	// Left to right: a table's columns are rows, and an edge leaves its
	// column's row at the side and enters the referenced column's row.
	b.WriteString("  graph [rankdir=LR, nodesep=0.3, ranksep=0.9, fontname=\"Verdana\", fontsize=10, bgcolor=\"white\", pad=0.2];\n")
	b.WriteString("  node [shape=plain, fontname=\"Verdana\", fontsize=10];\n")
	b.WriteString("  edge [fontname=\"Verdana\", fontsize=9, dir=both, arrowsize=0.8, penwidth=1.2];\n")
	if d.Pack {
		// The parts of a schema that share no reference are laid out side
		// by side, not in one tall column. Graphviz's packing loses edge
		// labels, so only a diagram without them packs.
		b.WriteString("  graph [pack=true, packmode=\"graph\"];\n")
	}
	ids := map[string]string{}
	ports := map[string]map[string]string{}
	for i, t := range d.Tables {
		id := fmt.Sprintf("t%d", i+1)
		ids[t.Name] = id
		ports[t.Name] = map[string]string{}
		for k, c := range t.Columns {
			ports[t.Name][c.Name] = fmt.Sprintf("c%d", k+1)
		}
		attrs := []string{"label=<" + tableLabel(t) + ">", "tooltip=" + quote(t.Name)}
		if t.URL != "" {
			attrs = append(attrs, "URL="+quote(t.URL))
		}
		class := "er-node"
		if t.Focus {
			class += " er-focus"
		}
		attrs = append(attrs, "class="+quote(class))
		fmt.Fprintf(&b, "  %s [%s];\n", id, strings.Join(attrs, ", "))
	}
	for _, e := range d.Edges {
		from, ok1 := ids[e.From]
		to, ok2 := ids[e.To]
		if !ok1 || !ok2 {
			continue
		}
		// An edge starts at the child's first column and ends at the
		// parent's; a column not drawn (a box without columns) leaves the
		// edge at the box.
		tail, head := from, to
		if len(e.FromColumns) > 0 {
			if p, ok := ports[e.From][e.FromColumns[0]]; ok {
				tail += ":" + p
			}
		}
		if len(e.ToColumns) > 0 {
			if p, ok := ports[e.To][e.ToColumns[0]]; ok {
				head += ":" + p
			}
		}
		src := SourceOf(e.Source)
		st := styles[src]
		tailArrow, headArrow := arrows(e.Cardinality, e.Optional)
		attrs := []string{
			"class=" + quote("er-edge er-"+src),
			"color=" + quote(st.colour), "fontcolor=" + quote(st.colour), "style=" + st.style,
			"arrowtail=" + tailArrow, "arrowhead=" + headArrow,
		}
		if e.Label != "" {
			attrs = append(attrs, "label="+quote(clean(e.Label, nameLimit)))
		}
		if e.Tooltip != "" {
			attrs = append(attrs, "tooltip="+quote(e.Tooltip))
		}
		fmt.Fprintf(&b, "  %s -> %s [%s];\n", tail, head, strings.Join(attrs, ", "))
	}
	if d.Legend {
		b.WriteString(legend)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// arrows gives the crow's-foot ends of a reference: at the child's end how
// many children a parent has (crow: many, tee: at most one; odot: possibly
// none), at the parent's end how many parents a child has (tee tee: exactly
// one; tee odot: one or none, when the child's column may be NULL).
// Graphviz draws the first shape of a name nearest the node.
func arrows(cardinality string, optional bool) (tail, head string) {
	tail, head = "crowodot", "teetee"
	switch cardinality {
	case "one_to_one":
		tail = "teeodot"
	case "many_to_many":
		head = "crowodot"
	}
	if optional && cardinality != "many_to_many" {
		head = "teeodot"
	}
	return tail, head
}

// legend is a box of text, not sample edges: Graphviz's packing (the
// overview) drops edge labels, and a box stays small.
const legend = `  legend [class="er-legend", label=<<table border="1" cellborder="0" cellspacing="0" cellpadding="2" color="#d0d7de" bgcolor="white">` +
	`<tr><td align="left"><b>Legend</b></td></tr>` +
	`<tr><td align="left"><font color="#424a53">───── declared</font></td></tr>` +
	`<tr><td align="left"><font color="#bc4c00">- - - - inferred from the data</font></td></tr>` +
	`<tr><td align="left"><font color="#8250df">· · · · · given by the user</font></td></tr>` +
	`<tr><td align="left">from the referencing column to the referenced one</td></tr>` +
	`<tr><td align="left">crow's foot: many · bar: one · circle: or none</td></tr>` +
	`</table>>];
`

// tableLabel is a table's box as a Graphviz HTML-like label: a header with
// the name and note, then one row per column, each row a port.
func tableLabel(t Table) string {
	var b strings.Builder
	b.WriteString(`<table border="1" cellborder="0" cellspacing="0" cellpadding="3" color="#8c959f"`)
	if t.Focus {
		b.WriteString(` bgcolor="#ddf4ff"`)
	} else {
		b.WriteString(` bgcolor="white"`)
	}
	b.WriteString(`>`)
	fmt.Fprintf(&b, `<tr><td bgcolor="#eaeef2"><b>%s</b></td></tr>`, html(t.Name, nameLimit))
	if t.Note != "" {
		fmt.Fprintf(&b, `<tr><td><font color="#57606a" point-size="9">%s</font></td></tr>`, html(t.Note, noteLimit))
	}
	for k, c := range t.Columns {
		var keys []string
		if c.PK {
			keys = append(keys, "PK")
		}
		if c.FK {
			keys = append(keys, "FK")
		}
		fmt.Fprintf(&b, `<tr><td port="c%d" align="left">`, k+1)
		if len(keys) > 0 {
			fmt.Fprintf(&b, `<font color="#0969da" point-size="8">%s </font>`, strings.Join(keys, " "))
		}
		if c.PK {
			fmt.Fprintf(&b, `<u>%s</u>`, html(c.Name, nameLimit))
		} else {
			b.WriteString(html(c.Name, nameLimit))
		}
		if c.Type != "" {
			fmt.Fprintf(&b, ` <font color="#57606a" point-size="9">%s</font>`, html(c.Type, typeLimit))
		}
		b.WriteString(`</td></tr>`)
	}
	if t.More > 0 {
		fmt.Fprintf(&b, `<tr><td align="left"><font color="#57606a" point-size="9">… %d more %s</font></td></tr>`, t.More, plural(t.More, "column", "columns"))
	}
	b.WriteString(`</table>`)
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// clean makes a name from a database fit for a label: valid UTF-8, control
// and invisible characters shown as the pages show them (shown.Controls: a
// newline would start a line of the label, other controls are not XML, a
// bidirectional override would reorder what follows it), cut to limit
// runes. An empty name would make an empty row, so it is shown as
// "(empty)".
func clean(s string, limit int) string {
	s = shown.Controls(s, "")
	if s == "" {
		return "(empty)"
	}
	return textcut.Runes(s, limit)
}

// html escapes text for a Graphviz HTML-like label, where &, < and > are
// markup and a quote could end an attribute.
func html(s string, limit int) string { return htmlEscaper.Replace(clean(s, limit)) }

var (
	htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")
	dotEscaper  = strings.NewReplacer(`\`, `\\`, `"`, `\"`)
)

// quote writes s as a DOT double-quoted string. Graphviz reads escapes in
// such strings (\N is the node's name, \l a line break, \" a quote), so a
// backslash is doubled and a quote escaped; controls are already shown.
// The name is cut long, not to nameLimit: a tooltip may hold a full name.
func quote(s string) string {
	s = clean(s, 1000)
	return `"` + dotEscaper.Replace(s) + `"`
}
