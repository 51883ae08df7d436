package report

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"html/template"
	"regexp"
	"slices"
	"strconv"

	"github.com/discover-db/discover/report/erd"
)

// The entity-relationship diagrams, laid out by Graphviz (package erd).
// The same diagrams go inline into report.html and as SVG files into
// tables/, so they are built here once from the report and rendered once
// (erd caches by DOT text).

// diagramLimit is the most connected tables drawn in one diagram with
// their columns. The 16-table shop of the tests is about 1,100 points
// square, internal/star's 24 tables and 100 references 1,400 by 4,200:
// a picture read at full size, scrolled down. At 40 tables it is several
// screens to follow one reference, so beyond it the schema is drawn as an
// overview of boxes and each table gets its neighbourhood.
const diagramLimit = 40

// overviewLimit is the most tables the overview draws. Graphviz lays 1,000
// boxes out in under a second, but a picture of more than a few hundred
// boxes is a texture, not a map; beyond it the neighbourhoods stand alone.
const overviewLimit = 400

// columnLimit is the most columns a box lists; the key and reference
// columns are always listed, so every edge has its row.
const columnLimit = 20

// neighbourhoodBudget is the most neighbourhood diagrams a report draws.
// Each costs Graphviz about 3 ms (BenchmarkDiagrams: 1,000 of them in
// 2.5 to 3 s), so 2,000 bound the report step to about 6 s whatever the schema's
// size (HTML and tables/ share them through erd's cache); beyond, the
// tables with the most references get theirs and the others list their
// keys only.
const neighbourhoodBudget = 2000

// neighbourhoodDistance is how many references away from a table its
// neighbourhood reaches; neighbourhoodLimit caps the tables drawn there
// (the most confident references first) so a hub table stays legible.
const (
	neighbourhoodDistance = 1
	neighbourhoodLimit    = 16
)

// diagrams builds a report's diagrams.
type diagrams struct {
	r      *Report
	index  map[string]int // table name -> position in r.Tables
	conn   []string       // tables with a relationship, in name order
	keyed  map[string]map[string]bool
	drawn  map[string]bool // the tables whose neighbourhood is drawn
	adj    links
	fks    map[string]map[string]bool // table -> its columns that reference
	render func([]byte) ([]byte, error)
}

func newDiagrams(r *Report) *diagrams {
	d := &diagrams{r: r, index: map[string]int{}, keyed: map[string]map[string]bool{}, adj: adjacency(r.Relationships),
		fks: map[string]map[string]bool{}}
	tables := map[string]htmlTable{}
	for i, t := range r.Tables {
		d.index[t.Name] = i
		tables[t.Name] = htmlTable{Table: t}
	}
	d.conn = connected(tables, r.Relationships)
	// The columns an edge starts or ends at: listed in every box.
	mark := func(table string, cols []string) {
		if d.keyed[table] == nil {
			d.keyed[table] = map[string]bool{}
		}
		for _, c := range cols {
			d.keyed[table][c] = true
		}
	}
	for _, rel := range r.Relationships {
		mark(rel.FromTable, rel.FromColumns)
		mark(rel.ToTable, rel.ToColumns)
		if d.fks[rel.FromTable] == nil {
			d.fks[rel.FromTable] = map[string]bool{}
		}
		for _, c := range rel.FromColumns {
			d.fks[rel.FromTable][c] = true
		}
	}
	d.render = func(dot []byte) ([]byte, error) { return erd.SVG(context.Background(), dot) }
	d.drawn = map[string]bool{}
	degree := map[string]int{}
	for _, rel := range r.Relationships {
		degree[rel.FromTable]++
		degree[rel.ToTable]++
	}
	busiest := slices.Clone(d.conn)
	slices.SortStableFunc(busiest, func(a, b string) int { return cmp.Compare(degree[b], degree[a]) })
	for _, n := range busiest[:min(len(busiest), neighbourhoodBudget)] {
		d.drawn[n] = true
	}
	return d
}

// detailed says whether the whole schema is drawn with columns.
func (d *diagrams) detailed() bool { return len(d.conn) <= diagramLimit }

// hasOverview says whether there is a whole-schema picture at all.
func (d *diagrams) hasOverview() bool { return len(d.conn) > 0 && len(d.conn) <= overviewLimit }

// neighbourhoods says whether each connected table gets its own diagram.
func (d *diagrams) neighbourhoods() bool { return len(d.conn) > diagramLimit }

// schema is the whole-schema diagram: every connected table with its
// columns up to diagramLimit of them, boxes without columns beyond.
func (d *diagrams) schema() erd.Diagram {
	title := fmt.Sprintf("Entity-relationship diagram: %d tables", len(d.conn))
	dia := d.diagram(title, d.conn, "", d.detailed(), true)
	dia.Pack = !d.detailed()
	return dia
}

// around is table's neighbourhood diagram and how many neighbours it
// leaves out.
func (d *diagrams) around(table string) (erd.Diagram, int) {
	names, more := d.adj.around(table, neighbourhoodDistance, neighbourhoodLimit)
	title := fmt.Sprintf("Entity-relationship diagram: %d tables around %s", len(names), table)
	return d.diagram(title, names, table, true, false), more
}

func (d *diagrams) diagram(title string, names []string, focus string, columns, legend bool) erd.Diagram {
	names = slices.Clone(names)
	slices.Sort(names)
	in := map[string]bool{}
	for _, n := range names {
		in[n] = true
	}
	dia := erd.Diagram{Title: title, Legend: legend}
	for _, n := range names {
		i, ok := d.index[n]
		if !ok {
			dia.Tables = append(dia.Tables, erd.Table{Name: n})
			continue
		}
		t := d.r.Tables[i]
		et := erd.Table{Name: t.Name, Note: rowsText(t) + " rows", URL: "#" + tableID(i), Focus: n == focus}
		if t.Kind == "view" {
			et.Note = "view"
		}
		if columns {
			// A neighbourhood sits beside its table's list of columns, so
			// its boxes show only the columns references use and the keys.
			et.Columns, et.More = d.columns(t, focus == "")
		}
		dia.Tables = append(dia.Tables, et)
	}
	for _, rel := range d.r.Relationships {
		if !in[rel.FromTable] || !in[rel.ToTable] {
			continue
		}
		e := erd.Edge{From: rel.FromTable, FromColumns: rel.FromColumns, To: rel.ToTable, ToColumns: rel.ToColumns,
			Source: rel.Source, Optional: d.optional(rel)}
		if rel.Cardinality != nil {
			e.Cardinality = *rel.Cardinality
		}
		e.Tooltip = fmt.Sprintf("%s → %s: %s, confidence %s", endText(rel.FromTable, rel.FromColumns),
			endText(rel.ToTable, rel.ToColumns), rel.Source, percent(rel.Confidence))
		if rel.Cardinality != nil {
			e.Tooltip += ", " + cardinalityText(rel.Cardinality)
		}
		// An uncertain reference carries its confidence, except in the
		// overview, where labels would crowd; a certain one needs none.
		// The overview has no cardinality labels either: its crow's feet
		// say it, and the packing that keeps it compact drops edge labels
		// (on invented100, 17 of 81 kept; xlabel, headlabel and taillabel
		// none), while unpacked it is 3.3 times as tall (1,842 × 4,345 pt
		// against 2,036 × 1,326).
		if percent(rel.Confidence) != "100%" && columns {
			e.Label = percent(rel.Confidence)
		}
		dia.Edges = append(dia.Edges, e)
	}
	return dia
}

// columns lists a table's columns for its box: all of them up to
// columnLimit, the key and reference columns first in priority but in the
// table's order; in a neighbourhood (all false) only those.
func (d *diagrams) columns(t Table, all bool) ([]erd.Column, int) {
	fk := d.fks[t.Name]
	keep := map[string]bool{}
	n := 0
	for _, c := range t.Columns {
		if slices.Contains(t.PrimaryKey, c.Name) || d.keyed[t.Name][c.Name] {
			keep[c.Name] = true
			n++
		}
	}
	if all {
		for _, c := range t.Columns {
			if n >= columnLimit {
				break
			}
			if !keep[c.Name] {
				keep[c.Name] = true
				n++
			}
		}
	}
	var out []erd.Column
	for _, c := range t.Columns {
		if keep[c.Name] {
			out = append(out, erd.Column{Name: c.Name, Type: c.DataType, PK: slices.Contains(t.PrimaryKey, c.Name), FK: fk[c.Name]})
		}
	}
	return out, len(t.Columns) - len(out)
}

// optional says whether a child may have no parent: one of its columns
// allows NULL.
func (d *diagrams) optional(rel Relationship) bool {
	i, ok := d.index[rel.FromTable]
	if !ok {
		return false
	}
	for _, c := range d.r.Tables[i].Columns {
		if c.Nullable && slices.Contains(rel.FromColumns, c.Name) {
			return true
		}
	}
	return false
}

// tableID is the HTML page's id of the i-th table's section: by position,
// not by name, since names may hold any character and differ only in case.
func tableID(i int) string { return "table-" + strconv.Itoa(i+1) }

// inline renders dia for the HTML page: ids prefixed so that several
// diagrams on the page stay apart, the class the page's CSS styles.
func (d *diagrams) inline(dia erd.Diagram, prefix string) (template.HTML, error) {
	svg, err := d.render(erd.DOT(dia))
	if err != nil {
		return "", fmt.Errorf("report: diagram %q: %w", dia.Title, err)
	}
	svg = erd.PrefixIDs(svg, prefix)
	// The HTML parser knows SVG's and xlink's namespaces; without their
	// URIs the page names no address at all.
	svg = bytes.Replace(svg, []byte(` xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"`), nil, 1)
	svg = bytes.Replace(svg, []byte("<svg "), []byte(`<svg class="er" role="img" aria-label="`+template.HTMLEscapeString(dia.Title)+`" `), 1)
	return template.HTML(svg), nil
}

var sectionLink = regexp.MustCompile(`xlink:href="#table-(\d+)"`)

// file renders dia for tables/: a box links to its table's page instead of
// the HTML page's section, and the file starts with the marker that tells
// WriteDocs its own files from a person's.
func (d *diagrams) file(dia erd.Diagram, files map[string]string) ([]byte, error) {
	svg, err := d.render(erd.DOT(dia))
	if err != nil {
		return nil, fmt.Errorf("report: diagram %q: %w", dia.Title, err)
	}
	svg = sectionLink.ReplaceAllFunc(svg, func(m []byte) []byte {
		i, _ := strconv.Atoi(string(sectionLink.FindSubmatch(m)[1]))
		if i < 1 || i > len(d.r.Tables) {
			return m
		}
		// Page names hold letters, digits, '.', '-' and '_' only: nothing
		// to escape in an attribute.
		return []byte(`xlink:href="` + files[d.r.Tables[i-1].Name] + `"`)
	})
	return append([]byte(docsMarker+"\n"), svg...), nil
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

// links are each table's neighbours, most confident first: built once per
// report, since a report of 1,000 tables asks for 1,000 neighbourhoods.
type links map[string][]link

type link struct {
	to   string
	conf float64
}

func adjacency(rels []Relationship) links {
	adj := links{}
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
	return adj
}

// around lists table and the tables within distance references of it,
// nearest and most confident first, at most limit of them (table
// included); more says how many were left out.
func (adj links) around(table string, distance, limit int) (names []string, more int) {
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
