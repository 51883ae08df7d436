package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestHTMLDiagramDrawsEdgesBySource(t *testing.T) {
	page := string(htmlOf(t, Build(realistic(t))))
	er := regexp.MustCompile(`(?s)<svg class="er".*?</svg>`).FindString(page)
	if er == "" {
		t.Fatal("no ER diagram")
	}
	for what, want := range map[string]int{
		`class="edge er-edge er-declared"`: 1, // shipments -> vehicles
		`class="edge er-edge er-inferred"`: 1, // active_shipments -> shipments
		`class="node er-node"`:             3,
		`>93%</text>`:                      1,
		`>70%</text>`:                      1,
		`xlink:href="#table-2"`:            1, // a box links to its table's section
	} {
		if got := strings.Count(er, what); got != want {
			t.Errorf("diagram has %d × %s, want %d", got, what, want)
		}
	}
	// Left to right, referencing before referenced: vehicles (referenced)
	// is drawn right of shipments, which is right of active_shipments.
	x := func(name string) float64 {
		m := regexp.MustCompile(`xlink:title="` + name + `">\n<polygon [^>]*points="([0-9.-]+),`).FindStringSubmatch(er)
		if m == nil {
			t.Fatalf("no box for %s", name)
		}
		var v float64
		fmt.Sscan(m[1], &v)
		return v
	}
	if !(x("vehicles") > x("shipments") && x("shipments") > x("active_shipments")) {
		t.Errorf("ranks: vehicles %v, shipments %v, active_shipments %v", x("vehicles"), x("shipments"), x("active_shipments"))
	}
}

func TestHTMLColumnsHaveHistogramsAndTopBars(t *testing.T) {
	page := string(htmlOf(t, Build(realistic(t))))
	hist := regexp.MustCompile(`(?s)<svg class="hist".*?</svg>`).FindAllString(page, -1)
	if len(hist) != 1 {
		t.Fatalf("%d histograms, want 1 (shipments.cost)", len(hist))
	}
	if n := strings.Count(hist[0], "<rect "); n != 5 {
		t.Errorf("histogram of 5 buckets draws %d bars", n)
	}
	if !strings.Contains(hist[0], "<title>[-5, 20]: 40,000 (20%)</title>") || !strings.Contains(hist[0], "estimated from a sample") {
		t.Errorf("histogram tooltips: %s", hist[0])
	}
	// Taller bars for denser buckets: [-5,20] holds as many values as
	// (140,1890.5] in a far narrower span.
	heights := regexp.MustCompile(`height="([0-9.]+)"><title>`).FindAllStringSubmatch(hist[0], -1)
	var first, last float64
	if len(heights) == 5 {
		fmt.Sscan(heights[0][1], &first)
		fmt.Sscan(heights[4][1], &last)
	}
	if len(heights) != 5 || first <= 5*last {
		t.Errorf("bar heights %v: the dense first bucket must stand far above the sparse last", heights)
	}
	if !strings.Contains(page, `<span class="tv-bar" style="width:45%"></span><span class="tv-v">delivered</span><span class="tv-n">90,367</span>`) {
		t.Error("no top-value bar for shipments.status = delivered")
	}
	if !strings.Contains(page, `<span class="verdict confirmed">confirmed</span>`) || !strings.Contains(page, `<span class="verdict proposed">proposed</span>`) {
		t.Error("hypothesis verdicts are not shown")
	}
}

func TestHistogramSVGEdgeCases(t *testing.T) {
	for name, h := range map[string]*Histogram{
		"bounds only":     {Bounds: []float64{0, 1, 2, 3}, Counts: []int64{}},
		"one value":       {Bounds: []float64{7, 7, 7}, Counts: []int64{5, 0}},
		"ties":            {Bounds: []float64{0, 0, 0, 1, 1}, Counts: []int64{10, 0, 5, 0}},
		"negative range":  {Bounds: []float64{-1e9, -5, 3e9}, Counts: []int64{1, 1}},
		"all zero counts": {Bounds: []float64{0, 1}, Counts: []int64{0}},
	} {
		s := string(histogramSVG(h))
		if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") || strings.Contains(s, `height="-`) || strings.Contains(s, `width="-`) {
			t.Errorf("%s: %s", name, s)
		}
		if name != "all zero counts" && !strings.Contains(s, "<rect ") {
			t.Errorf("%s: no bar drawn: %s", name, s)
		}
	}
}

func TestNeighbourhoodDistance(t *testing.T) {
	rel := func(a, b string, c float64) Relationship {
		return Relationship{FromTable: a, FromColumns: []string{"x"}, ToTable: b, ToColumns: []string{"id"}, Confidence: c}
	}
	rels := []Relationship{rel("b", "a", 1), rel("c", "b", 0.5), rel("d", "c", 1), rel("b", "b", 1), rel("e", "b", 0.9)}
	got, more := adjacency(rels).around("b", 1, 16)
	if want := []string{"b", "a", "e", "c"}; !slices.Equal(got, want) || more != 0 {
		t.Errorf("distance 1: %v (+%d), want %v: the nearest, most confident first", got, more, want)
	}
	if got, _ := adjacency(rels).around("b", 2, 16); !slices.Contains(got, "d") {
		t.Errorf("distance 2 misses d: %v", got)
	}
	if got, more := adjacency(rels).around("b", 1, 2); len(got) != 2 || more != 2 {
		t.Errorf("limit 2: %v (+%d)", got, more)
	}
}

func TestERDiagramSurvivesCyclesAndSelfReferences(t *testing.T) {
	r := schemaOf("cycle", map[string][]string{"a": {"id", "b_id", "parent"}, "b": {"id", "a_id"}}, []string{
		"a.b_id>b.id declared", "b.a_id>a.id user", "a.parent>a.id inferred",
	})
	dg := newDiagrams(r)
	dia, _ := dg.around("a")
	s, err := dg.inline(dia, "x")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(s), `class="edge er-edge`); n != 3 {
		t.Errorf("%d edges drawn, want 3:\n%s", n, s)
	}
	if !strings.Contains(string(s), "er-edge er-user") || !strings.Contains(string(s), `class="node er-node er-focus"`) || strings.Contains(string(s), "NaN") {
		t.Errorf("user edge, focus or coordinates wrong:\n%s", s)
	}
}

// bigReport has n tables and refs references, every tenth table a hub.
func bigReport(n, refs int) *Report {
	rows := int64(100)
	r := &Report{SchemaVersion: 1, Database: Database{Dialect: "sqlite", Name: "big"},
		Run: Run{ID: "r", StartedAt: "2025-03-01T09:00:00Z", LLM: LLM{Provider: "none"}}}
	for i := range n {
		r.Tables = append(r.Tables, Table{Name: fmt.Sprintf("t%04d", i), Kind: "table", RowCount: &rows,
			Columns: []Column{{Name: "id", DataType: "INTEGER"}}})
	}
	for k := range refs {
		to := (k * 13) % n
		if k%3 == 0 {
			to = (k % 10) * 10 // ten hubs, each referenced 40 times
		}
		r.Relationships = append(r.Relationships, Relationship{FromTable: r.Tables[(k*7+3)%n].Name, FromColumns: []string{fmt.Sprint("r", k)},
			ToTable: r.Tables[to].Name, ToColumns: []string{"id"}, Source: "inferred", Confidence: 0.9})
	}
	return r
}

func TestHTMLLargeDatabaseDrawsNeighbourhoods(t *testing.T) {
	r := bigReport(1000, 1200)
	page := string(htmlOf(t, r))
	t.Logf("1,000 tables, 1,200 references: %d bytes", len(page))
	if strings.Contains(page, `<div class="diagram"><svg class="er" width`) && strings.Contains(page, `aria-label="Entity-relationship diagram: 1000 tables`) {
		t.Error("a whole-database diagram of 1,000 tables")
	}
	if !strings.Contains(page, "too many for one readable picture") {
		t.Error("the page does not say why there is no whole diagram")
	}
	if strings.Contains(page, `<details class="tbl-d" open>`) {
		t.Error("sections start expanded at 1,000 tables")
	}
	if !strings.Contains(page, `<details class="list"><summary>1200 relationships</summary>`) {
		t.Error("the relationship list is not collapsed")
	}
	diagrams := regexp.MustCompile(`aria-label="Entity-relationship diagram: (\d+) tables`).FindAllStringSubmatch(page, -1)
	if len(diagrams) < 900 {
		t.Errorf("%d neighbourhood diagrams for 1,000 tables", len(diagrams))
	}
	for _, d := range diagrams {
		var n int
		fmt.Sscan(d[1], &n)
		if n > neighbourhoodLimit {
			t.Fatalf("a neighbourhood of %d tables, limit %d", n, neighbourhoodLimit)
		}
	}
	if !strings.Contains(page, "more related tables are not drawn") {
		t.Error("a hub's neighbourhood is cut without saying so")
	}
	if len(page) > 20<<20 {
		t.Errorf("page of %d bytes", len(page))
	}
}
