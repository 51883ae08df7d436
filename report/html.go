package report

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/textcut"
)

//go:embed templates/report.html.tmpl
var htmlSource string

// html/template escapes by context, which matters here: table names, top
// values and descriptions are untrusted data from the database under
// discovery, and the report is opened in a browser.
var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":          percent,
	"pctp":         func(f *float64) string { return percent(*f) },
	"nullPct":      nullPct,
	"rows":         rowsText,
	"distinct":     distinctText,
	"opt":          optText,
	"num":          numText,
	"yesNo":        yesNo,
	"semantic":     semanticText,
	"pk":           primaryKeyText,
	"cols":         columnsText,
	"ref":          endText,
	"labels":       labelsText,
	"tablekind":    tableKindText,
	"card":         cardinalityText,
	"top":          func(vs []ValueCount) string { return topValuesText(vs, 5) },
	"stop":         stopText,
	"llm":          llmText,
	"join":         strings.Join,
	"examples":     func(a Anomaly) string { return strings.TrimSpace(examplesText(a)) },
	"lower":        strings.ToLower,
	"short":        func(s string) string { return textcut.Runes(s, cellLimit) },
	"thousands":    catalog.Thousands,
	"thousandsInt": func(n int) string { return catalog.Thousands(int64(n)) },
	"count":        func(n int64, one, many string) string { return plural64(n, one, many) },
	"kind":         kindText,
	"inc":          func(i int) int { return i + 1 },
	"structure":    structureLine,
	"dflt":         defaultText,
	"generated":    generatedText,
	"trigger":      triggerText,
	"big":          func(n int) bool { return n > bigList },
}).Parse(htmlSource))

type htmlView struct {
	*Report
	Title  string
	Tables []htmlTable // shadows Report.Tables with what the page needs
	Ranked []Insight   // the key insights, in rank order
	// ModelDomain is the model's reading of the domain, shown beside the
	// experts' domain and marked as the model's; nil without one.
	ModelDomain *Insight
	Quality     []listItem
	Privacy     []listItem
	PrivacyNote string
	// Open says whether table sections start expanded: on a small
	// database a reader wants everything visible, on a large one a page of
	// collapsed sections is what stays readable.
	Open bool
	// Diagram is the whole database's ER diagram, laid out by Graphviz:
	// with columns up to diagramLimit connected tables, an Overview of
	// boxes up to overviewLimit (each table's section then has its
	// neighbourhood too), empty beyond or when no table has a relationship.
	Diagram    template.HTML
	Overview   bool
	Connected  int // tables with at least one relationship
	Isolated   []htmlTable
	Verdicts   []verdictCount
	Rows       int64
	NumColumns int
}

type htmlTable struct {
	Table
	ID       string
	Outgoing []Relationship
	Incoming []Relationship
	Search   string        // what the search box matches: the table's and its columns' names
	Diagram  template.HTML // the neighbourhood diagram, when the page has no whole diagram
	More     int           // neighbours left out of Diagram
	Cols     []htmlColumn
	// Struct says which optional column facts the grid shows; Constraints
	// and ReadLinks are the declared structure beyond keys, as the pages
	// in tables/ word it.
	Struct      columnStructure
	Constraints []string
	ReadLinks   []htmlLink
	// Parents and Children: some column references another table, some
	// is referenced, so the grid shows those columns.
	Parents, Children bool
}

// htmlLink is a table a view reads, or one a column references or is
// referenced by: a link to its section when the page has one (ID), its
// name alone otherwise.
type htmlLink struct {
	Name, ID string
}

type htmlColumn struct {
	Column
	Key bool // part of the primary key
	Ref bool // part of an outgoing reference
	// Parents and Children are the references leaving from the column and
	// arriving at it, linked to their tables' sections (columnLinks).
	Parents, Children []htmlLink
	EnumID            string // the enumerated types' section, when the column holds one listed there
	Hist              template.HTML
	Tops              template.HTML
	Anomaly           bool
}

type verdictCount struct {
	Status string
	N      int
}

// openLimit is the most tables whose sections start expanded.
const openLimit = 30

// bigList is the length beyond which a list section starts collapsed.
const bigList = 50

// WriteHTML writes r as one self-contained page: inline CSS, SVG and a
// small inline script (the search box and expanding sections; the page reads
// fine without it), nothing fetched from a network, so it can be mailed,
// archived or opened offline as a single file.
func WriteHTML(w io.Writer, r *Report) error {
	v := htmlView{Report: r, Title: title(r), Ranked: rankedInsights(r.Insights), ModelDomain: modelDomain(r.Insights), Quality: qualityItems(r), Privacy: privacyItems(r), PrivacyNote: privacyNote(r),
		Open: len(r.Tables) <= openLimit}
	byName := map[string]htmlTable{}
	ids := map[string]string{}
	for i, t := range r.Tables {
		ids[t.Name] = tableID(i)
	}
	enums := map[string]bool{}
	for _, e := range r.Enums {
		enums[e.Name] = true
	}
	htmlLinks := func(ls []columnLink) []htmlLink {
		var out []htmlLink
		for _, l := range ls[:min(len(ls), columnLinksLimit)] {
			out = append(out, htmlLink{Name: l.text(), ID: ids[l.Table]})
		}
		if more := moreLinks(ls); more != "" {
			out = append(out, htmlLink{Name: more})
		}
		return out
	}
	for i, t := range r.Tables {
		out, in := tableRefs(r.Relationships, t.Name)
		parents, children := columnLinks(r.Relationships, t.Name)
		// Ids by position, not by name: names may hold any character and two
		// names may differ only in case.
		ht := htmlTable{Table: t, ID: tableID(i), Outgoing: out, Incoming: in}
		search := []string{strings.ToLower(t.Name)}
		refCols := map[string]bool{}
		for _, rel := range out {
			for _, c := range rel.FromColumns {
				refCols[c] = true
			}
		}
		for _, c := range t.Columns {
			search = append(search, strings.ToLower(c.Name))
			ht.Cols = append(ht.Cols, htmlColumn{
				Column:   c,
				Key:      slices.Contains(t.PrimaryKey, c.Name),
				Ref:      refCols[c.Name],
				Parents:  htmlLinks(parents[c.Name]),
				Children: htmlLinks(children[c.Name]),
				Hist:     histogramSVG(shownHistogram(c)),
				Tops:     topBars(c.TopValues, 5),
				Anomaly:  len(c.Anomalies) > 0,
			})
			if enums[c.Enum] {
				ht.Cols[len(ht.Cols)-1].EnumID = "enums"
			}
		}
		ht.Parents, ht.Children = len(parents) > 0, len(children) > 0
		ht.Search = strings.Join(search, " ")
		ht.Struct, ht.Constraints = columnStructureOf(t), constraintItems(t, out)
		if t.RowCount != nil && t.Kind != "view" {
			v.Rows += *t.RowCount // a view repeats its tables' rows
		}
		v.NumColumns += len(t.Columns)
		v.Tables = append(v.Tables, ht)
		byName[t.Name] = ht
	}
	for i, t := range v.Tables {
		for _, name := range t.Table.Reads {
			v.Tables[i].ReadLinks = append(v.Tables[i].ReadLinks, htmlLink{Name: name, ID: byName[name].ID})
		}
	}
	dg := newDiagrams(r)
	v.Connected = len(dg.conn)
	isConn := map[string]bool{}
	for _, n := range dg.conn {
		isConn[n] = true
	}
	for _, t := range v.Tables {
		if !isConn[t.Name] {
			v.Isolated = append(v.Isolated, t)
		}
	}
	if dg.hasOverview() {
		svg, err := dg.inline(dg.schema(), "er")
		if err != nil {
			return err
		}
		v.Diagram, v.Overview = svg, !dg.detailed()
	}
	if dg.neighbourhoods() {
		for i, t := range v.Tables {
			if !dg.drawn[t.Name] {
				continue
			}
			dia, more := dg.around(t.Name)
			svg, err := dg.inline(dia, t.ID)
			if err != nil {
				return err
			}
			v.Tables[i].Diagram, v.Tables[i].More = svg, more
		}
	}
	counts := map[string]int{}
	for _, h := range r.Hypotheses {
		counts[h.Status]++
	}
	for _, s := range []string{"confirmed", "refuted", "inconclusive", "proposed"} {
		if counts[s] > 0 {
			v.Verdicts = append(v.Verdicts, verdictCount{s, counts[s]})
		}
	}

	// Streamed, not rendered into a buffer first: the page of 10,000
	// tables is over 100 MB. After an error w may hold part of the page;
	// the command writes it to a temporary file it renames only when whole.
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := htmlTemplate.Execute(bw, v); err != nil {
		return fmt.Errorf("report: cannot render html: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: cannot write html: %w", err)
	}
	return nil
}

// shownHistogram is the histogram worth drawing for a column: none when its
// top values already list every distinct value (a flag or a small code),
// since their bars say the same thing more plainly.
func shownHistogram(c Column) *Histogram {
	if c.Histogram == nil {
		return nil
	}
	if c.DistinctCount != nil && len(c.TopValues) > 0 && *c.DistinctCount <= int64(len(c.TopValues)) {
		return nil
	}
	return c.Histogram
}
