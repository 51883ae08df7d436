package report

import (
	"context"
	"regexp"
	"time"

	"fmt"
	"github.com/discover-db/discover/internal/star"
	"github.com/discover-db/discover/report/erd"
	"strings"
	"testing"
)

// schemaOf builds a report from a compact description: each table with its
// columns, the first column its key; each reference "child.col>parent.col
// source".
func schemaOf(name string, tables map[string][]string, refs []string) *Report {
	rows := int64(1000)
	r := &Report{SchemaVersion: 1, Database: Database{Dialect: "sqlite", Name: name},
		Run: Run{ID: "r", StartedAt: "2025-03-01T09:00:00Z", LLM: LLM{Provider: "none"}}}
	var names []string
	for n := range tables {
		names = append(names, n)
	}
	sortStrings(names)
	for _, n := range names {
		t := Table{Name: n, Kind: "table", RowCount: &rows, PrimaryKey: []string{tables[n][0]}}
		for i, c := range tables[n] {
			typ := "INTEGER"
			if i > 0 && !strings.HasSuffix(c, "_id") {
				typ = "TEXT"
			}
			t.Columns = append(t.Columns, Column{Name: c, DataType: typ, Nullable: i > 0})
		}
		r.Tables = append(r.Tables, t)
	}
	one, many := "one_to_one", "one_to_many"
	for _, ref := range refs {
		f := strings.Fields(ref)
		from, to, _ := strings.Cut(f[0], ">")
		ft, fc, _ := strings.Cut(from, ".")
		tt, tc, _ := strings.Cut(to, ".")
		rel := Relationship{FromTable: ft, FromColumns: []string{fc}, ToTable: tt, ToColumns: []string{tc},
			Source: f[1], Confidence: 1, Cardinality: &many}
		if f[1] != "declared" {
			rel.Confidence = 0.87
		}
		if fc == tables[ft][0] {
			rel.Cardinality = &one
		}
		r.Relationships = append(r.Relationships, rel)
	}
	return r
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

// shop16 is a 16-table shop like the demo database and a few more tables:
// a self reference, a hub (orders), declared, inferred and user edges.
func shop16() *Report {
	return schemaOf("shop", map[string][]string{
		"categories":        {"id", "name", "parent_id"},
		"suppliers":         {"id", "name", "country"},
		"products":          {"id", "name", "category_id", "price"},
		"product_suppliers": {"product_id", "supplier_id", "cost"},
		"customers":         {"id", "name", "email", "created_at"},
		"addresses":         {"id", "customer_id", "street", "city"},
		"orders":            {"id", "customer_id", "address_id", "coupon_id", "status", "ordered_at"},
		"order_items":       {"id", "order_id", "product_id", "quantity", "price"},
		"payments":          {"id", "order_id", "amount", "method"},
		"shipments":         {"id", "order_id", "carrier_id", "warehouse_id", "shipped_at"},
		"reviews":           {"id", "product_id", "customer_id", "rating", "body"},
		"inventory":         {"id", "product_id", "warehouse_id", "quantity"},
		"warehouses":        {"id", "name", "city"},
		"carriers":          {"id", "name"},
		"coupons":           {"id", "code", "discount"},
		"returns":           {"id", "order_item_id", "reason", "refund_payment_id"},
	}, []string{
		"categories.parent_id>categories.id inferred",
		"products.category_id>categories.id declared",
		"product_suppliers.product_id>products.id declared",
		"product_suppliers.supplier_id>suppliers.id declared",
		"addresses.customer_id>customers.id declared",
		"orders.customer_id>customers.id declared",
		"orders.address_id>addresses.id inferred",
		"orders.coupon_id>coupons.id user",
		"order_items.order_id>orders.id declared",
		"order_items.product_id>products.id declared",
		"payments.order_id>orders.id declared",
		"shipments.order_id>orders.id declared",
		"shipments.carrier_id>carriers.id inferred",
		"shipments.warehouse_id>warehouses.id inferred",
		"reviews.product_id>products.id declared",
		"reviews.customer_id>customers.id inferred",
		"inventory.product_id>products.id declared",
		"inventory.warehouse_id>warehouses.id inferred",
		"returns.order_item_id>order_items.id declared",
		"returns.refund_payment_id>payments.id inferred",
	})
}

// starSchema is internal/star's retail warehouse as a report: 24 tables,
// six facts with composite keys, role-named references (a mail sale's
// bill and ship shopper), wide facts whose lists are cut.
func starSchema() *Report {
	rows := int64(1000)
	r := &Report{SchemaVersion: 1, Database: Database{Dialect: "sqlite", Name: "star"},
		Run: Run{ID: "r", StartedAt: "2025-03-01T09:00:00Z", LLM: LLM{Provider: "none"}}}
	col := regexp.MustCompile(`(?m)^\t(\w+) ([A-Z]+(?:\([0-9, ]+\))?)(.*)$`)
	pk := regexp.MustCompile(`PRIMARY KEY \(([^)]*)\)`)
	for _, st := range star.Tables(0.01) {
		name := strings.Fields(st.DDL)[2]
		t := Table{Name: name, Kind: "table", RowCount: &rows}
		for _, m := range col.FindAllStringSubmatch(st.DDL, -1) {
			if m[1] == "PRIMARY" {
				continue
			}
			t.Columns = append(t.Columns, Column{Name: m[1], DataType: m[2], Nullable: !strings.Contains(m[3], "NOT NULL")})
			if strings.Contains(m[3], "PRIMARY KEY") {
				t.PrimaryKey = []string{m[1]}
			}
		}
		if m := pk.FindStringSubmatch(st.DDL); m != nil {
			t.PrimaryKey = strings.Split(strings.ReplaceAll(m[1], " ", ""), ",")
		}
		r.Tables = append(r.Tables, t)
	}
	for i, ref := range star.Refs() {
		src := "inferred"
		if i%4 == 0 {
			src = "declared"
		}
		r.Relationships = append(r.Relationships, Relationship{FromTable: ref.Child, FromColumns: ref.ChildCols,
			ToTable: ref.Parent, ToColumns: ref.ParentCols, Source: src, Confidence: 0.95})
	}
	return r
}

// invented100 is a 100-table schema: four stars (a fact and its
// dimensions), a chain of 12 tables, self references, and a hub that 20
// tables reference.
func invented100() *Report {
	tables := map[string][]string{}
	var refs []string
	add := func(name string, cols ...string) { tables[name] = append([]string{"id"}, cols...) }
	for s := range 4 {
		fact := fmt.Sprintf("fact_%d", s)
		var cols []string
		for d := range 8 {
			dim := fmt.Sprintf("dim_%d_%d", s, d)
			add(dim, "code", "label", "valid_from")
			cols = append(cols, dim+"_id")
			src := "inferred"
			if d%3 == 0 {
				src = "declared"
			}
			refs = append(refs, fmt.Sprintf("%s.%s_id>%s.id %s", fact, dim, dim, src))
		}
		add(fact, append(cols, "amount", "quantity")...)
	}
	for k := range 12 {
		name := fmt.Sprintf("step_%02d", k)
		if k == 0 {
			add(name, "label")
			continue
		}
		prev := fmt.Sprintf("step_%02d", k-1)
		add(name, prev+"_id", "label")
		refs = append(refs, fmt.Sprintf("%s.%s_id>%s.id declared", name, prev, prev))
	}
	add("accounts", "name", "parent_id", "owner_id")
	refs = append(refs, "accounts.parent_id>accounts.id inferred")
	for k := range 20 {
		name := fmt.Sprintf("audit_%02d", k)
		add(name, "account_id", "event", "at")
		src := "declared"
		if k%4 == 1 {
			src = "user"
		}
		refs = append(refs, fmt.Sprintf("%s.account_id>accounts.id %s", name, src))
	}
	for k := range 15 {
		name := fmt.Sprintf("node_%02d", k)
		add(name, "parent_id", "label")
		refs = append(refs, fmt.Sprintf("%s.parent_id>%s.id inferred", name, name))
	}
	add("employees", "manager_id", "name")
	refs = append(refs, "employees.manager_id>employees.id declared", "accounts.owner_id>employees.id inferred")
	for len(tables) < 100 {
		add(fmt.Sprintf("lookup_%02d", len(tables)), "label")
	}
	return schemaOf("invented", tables, refs)
}

// TestDiagramGeometry is issue 22's test of legibility: no edge crosses a
// box other than the two it joins, no two labels overlap. The hand-laid
// layout this replaced failed it: on shop16, 5 edges through other boxes
// and 2 labels over table names; on invented100, 173 problems.
func TestDiagramGeometry(t *testing.T) {
	for _, r := range []*Report{shop16(), starSchema(), invented100()} {
		dg := newDiagrams(r)
		check := func(what string, dia erd.Diagram) {
			svg, err := dg.render(erd.DOT(dia))
			if err != nil {
				t.Fatal(err)
			}
			problems, err := erd.Check(svg)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Errorf("%s, %s: %s", r.Database.Name, what, p)
			}
		}
		start := time.Now()
		check("schema", dg.schema())
		n := 1
		if dg.neighbourhoods() {
			// Every table's neighbourhood, and the whole schema with its
			// columns, which the report does not draw at this size but
			// Graphviz keeps legible too.
			for _, name := range dg.conn {
				dia, _ := dg.around(name)
				check(name, dia)
				n++
			}
			check("schema with columns", dg.diagram("all", dg.conn, "", true, true))
			n++
		}
		t.Logf("%s: %d connected tables, %d diagrams checked in %s", r.Database.Name, len(dg.conn), n, time.Since(start).Round(time.Millisecond))
	}
}

// BenchmarkDiagrams measures what the report's diagrams cost to lay out
// (no cache): the whole schema and, above diagramLimit, every connected
// table's neighbourhood, as WriteHTML and WriteDocs draw them.
func BenchmarkDiagrams(b *testing.B) {
	for _, c := range []struct {
		name string
		r    *Report
	}{{"16", shop16()}, {"100", invented100()}, {"400", bigReport(400, 480)}, {"1000", bigReport(1000, 1200)}} {
		b.Run(c.name, func(b *testing.B) {
			dg := newDiagrams(c.r)
			dg.render = func(dot []byte) ([]byte, error) { return erd.Render(context.Background(), dot) }
			for b.Loop() {
				if dg.hasOverview() {
					if _, err := dg.render(erd.DOT(dg.schema())); err != nil {
						b.Fatal(err)
					}
				}
				if dg.neighbourhoods() {
					for _, n := range dg.conn {
						dia, _ := dg.around(n)
						if _, err := dg.render(erd.DOT(dia)); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		})
	}
}

// Beyond neighbourhoodBudget connected tables, the busiest get their
// diagram: the total Graphviz time stays bounded.
func TestNeighbourhoodBudget(t *testing.T) {
	r := bigReport(5000, 6000)
	dg := newDiagrams(r)
	if len(dg.conn) <= neighbourhoodBudget {
		t.Fatalf("only %d connected tables", len(dg.conn))
	}
	if len(dg.drawn) != neighbourhoodBudget {
		t.Errorf("%d neighbourhoods drawn, budget %d", len(dg.drawn), neighbourhoodBudget)
	}
	for _, hub := range []string{"t0000", "t0010", "t0090"} {
		if !dg.drawn[hub] {
			t.Errorf("hub %s has no neighbourhood", hub)
		}
	}
	if dg.hasOverview() {
		t.Error("an overview of 5,000 tables")
	}
}

// A wide table's box lists 20 columns, its key and reference columns
// always, in the table's order, and says how many it leaves out.
func TestWideTableIsCut(t *testing.T) {
	cols := []string{"id"}
	for i := 1; i < 60; i++ {
		cols = append(cols, fmt.Sprintf("c%02d", i))
	}
	cols[45] = "late_ref_id"
	r := schemaOf("wide", map[string][]string{"wide": cols, "other": {"id", "wide_id"}}, []string{
		"wide.late_ref_id>other.id declared", "other.wide_id>wide.id inferred",
	})
	dg := newDiagrams(r)
	got, more := dg.columns(r.Tables[1], true)
	if len(got) != columnLimit || more != 40 {
		t.Fatalf("%d columns shown, %d more; want %d and 40", len(got), more, columnLimit)
	}
	if got[0].Name != "id" || !got[0].PK || got[len(got)-1].Name != "late_ref_id" || !got[len(got)-1].FK || got[18].Name != "c18" {
		t.Errorf("columns shown: %+v", got)
	}
	dia := dg.schema()
	dot := string(erd.DOT(dia))
	if !strings.Contains(dot, "… 40 more columns") {
		t.Errorf("the box does not say what it cut:\n%s", dot)
	}
	// In a neighbourhood, the keys and reference columns only.
	around, _ := dg.around("wide")
	for _, tb := range around.Tables {
		if tb.Name == "wide" && (len(tb.Columns) != 2 || tb.More != 58) {
			t.Errorf("wide's box in its neighbourhood: %+v", tb)
		}
	}
}
