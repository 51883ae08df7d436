package structural

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

// tbl builds a table; each column is "name" or "name TYPE".
func tbl(name string, pk []string, cols ...string) catalog.TableDoc {
	d := catalog.TableDoc{Name: name, Kind: "table", PrimaryKey: pk}
	for i, c := range cols {
		n, typ, _ := strings.Cut(c, " ")
		d.Columns = append(d.Columns, catalog.ColumnDoc{Name: n, DataType: typ, Position: i + 1})
	}
	return d
}

func view(name string, cols ...string) catalog.TableDoc {
	d := tbl(name, nil, cols...)
	d.Kind = "view"
	return d
}

// rel is a declared one-column reference to the parent's id.
func rel(from, col, to string) catalog.RelationshipDoc {
	return catalog.RelationshipDoc{FromTable: from, FromColumns: []string{col}, ToTable: to, ToColumns: []string{"id"}, Source: "declared"}
}

func withCard(r catalog.RelationshipDoc, card, source string) catalog.RelationshipDoc {
	r.Cardinality, r.Source = card, source
	return r
}

func kinds(ps []Pattern) string {
	s := []string{}
	for _, p := range ps {
		s = append(s, fmt.Sprintf("%s%v", p.Doc.Kind, p.Doc.Tables))
	}
	return fmt.Sprint(s)
}

func tables(ts ...catalog.TableDoc) map[string]catalog.TableDoc {
	m := map[string]catalog.TableDoc{}
	for _, t := range ts {
		m[t.Name] = t
	}
	return m
}

// Fixtures shared by the cases: a sales fact and its dimensions.
var (
	dates   = tbl("dates", []string{"id"}, "id INTEGER", "day TEXT")
	stores  = tbl("stores", []string{"id"}, "id INTEGER", "name TEXT", "region_id INTEGER")
	items   = tbl("items", []string{"id"}, "id INTEGER", "name TEXT")
	regions = tbl("regions", []string{"id"}, "id INTEGER", "name TEXT")
	sales   = tbl("sales", []string{"id"}, "id INTEGER", "date_id INTEGER", "store_id INTEGER", "item_id INTEGER",
		"amount NUMERIC(10,2)", "quantity INTEGER")
	salesRels = []catalog.RelationshipDoc{rel("sales", "date_id", "dates"), rel("sales", "store_id", "stores"), rel("sales", "item_id", "items")}
	// A fact-shaped table with nothing to measure: keys, a flag, a time, a code, text.
	visits = tbl("sales", []string{"id"}, "id INTEGER", "date_id INTEGER", "store_id INTEGER", "item_id INTEGER",
		"is_returned INTEGER", "created_at BIGINT", "receipt_no INTEGER", "promo_code INTEGER", "note TEXT", "total")
	// A fact keyed by its references.
	salesByKey = tbl("sales", []string{"date_id", "store_id", "item_id"}, "date_id INTEGER", "store_id INTEGER", "item_id INTEGER", "amount REAL")
)

func TestPatterns(t *testing.T) {
	snowRels := append(append([]catalog.RelationshipDoc{}, salesRels...), rel("stores", "region_id", "regions"))
	cases := []struct {
		name   string
		tables map[string]catalog.TableDoc
		rels   []catalog.RelationshipDoc
		want   string
		conf   []float64 // per pattern, when checked
	}{
		// Stars and snowflakes.
		{"star: three dimensions and measures", tables(sales, dates, stores, items), salesRels,
			"[star_schema[sales dates items stores]]", []float64{0.7}},
		{"three references but no measures: no star", tables(visits, dates, stores, items), salesRels,
			"[]", nil},
		{"two dimensions and measures: no star", tables(sales, dates, stores, items), salesRels[:2],
			"[isolated_tables[items]]", nil},
		{"fact keyed by its references is still a star", tables(salesByKey, dates, stores, items), salesRels,
			"[star_schema[sales dates items stores]]", []float64{0.7}},
		{"keyed by three references, no measures: a bridge", tables(tbl("sales", []string{"date_id", "store_id", "item_id"}, "date_id INTEGER", "store_id INTEGER", "item_id INTEGER"), dates, stores, items), salesRels,
			"[bridge_table[sales dates items stores]]", []float64{0.9}},
		{"snowflake: a dimension references a dimension", tables(sales, dates, stores, items, regions), snowRels,
			"[snowflake[sales dates items stores regions]]", []float64{0.7}},
		{"snowflake shape without measures: none", tables(visits, dates, stores, items, regions), snowRels,
			"[]", nil},
		{"a fact referenced by two tables is no star", tables(sales, dates, stores, items, tbl("refunds", []string{"id"}, "id", "sale_id"), tbl("audits", []string{"id"}, "id", "sale_id")),
			append(append([]catalog.RelationshipDoc{}, salesRels...), rel("refunds", "sale_id", "sales"), rel("audits", "sale_id", "sales")),
			"[]", nil},

		// Hierarchies.
		{"hierarchy: self-reference", tables(tbl("categories", []string{"id"}, "id", "parent_id", "name"), tbl("products", []string{"id"}, "id", "category_id")),
			[]catalog.RelationshipDoc{rel("categories", "parent_id", "categories"), rel("products", "category_id", "categories")},
			"[hierarchy[categories]]", []float64{0.9}},
		{"a parent_id column without a reference is no hierarchy", tables(tbl("categories", []string{"id"}, "id", "parent_id"), tbl("products", []string{"id"}, "id", "category_id")),
			[]catalog.RelationshipDoc{rel("products", "category_id", "categories")},
			"[]", nil},

		// Bridges.
		{"bridge: two references form the key", tables(tbl("product_supplier", []string{"product_id", "supplier_id"}, "product_id", "supplier_id", "since"), tbl("products", []string{"id"}, "id"), tbl("suppliers", []string{"id"}, "id")),
			[]catalog.RelationshipDoc{rel("product_supplier", "product_id", "products"), rel("product_supplier", "supplier_id", "suppliers")},
			"[bridge_table[product_supplier products suppliers]]", []float64{0.9}},
		{"bridge: surrogate key, nothing else", tables(tbl("post_tags", []string{"id"}, "id", "post_id", "tag_id"), tbl("posts", []string{"id"}, "id"), tbl("tags", []string{"id"}, "id")),
			[]catalog.RelationshipDoc{rel("post_tags", "post_id", "posts"), rel("post_tags", "tag_id", "tags")},
			"[bridge_table[post_tags posts tags]]", []float64{0.7}},
		{"a surrogate-keyed table others reference is an entity, not a bridge", tables(
			tbl("inventory", []string{"id"}, "id", "film_id", "store_id"), tbl("films", []string{"id"}, "id"), tbl("stores", []string{"id"}, "id"),
			tbl("rentals", []string{"id"}, "id", "inventory_id", "rented_at")),
			[]catalog.RelationshipDoc{rel("inventory", "film_id", "films"), rel("inventory", "store_id", "stores"), rel("rentals", "inventory_id", "inventory")},
			"[]", nil},
		{"a reference that is one-to-one pairs nothing: no bridge", tables(
			tbl("settings", []string{"id"}, "id", "currency_id", "country_id"), tbl("currencies", []string{"id"}, "id"), tbl("countries", []string{"id"}, "id")),
			[]catalog.RelationshipDoc{withCard(rel("settings", "currency_id", "currencies"), "one_to_one", "declared"), rel("settings", "country_id", "countries")},
			"[one_to_one_extension[currencies settings]]", nil},
		{"a bridge keyed by its references stays one when referenced", tables(
			tbl("enrolments", []string{"student_id", "course_id"}, "student_id", "course_id"), tbl("students", []string{"id"}, "id"), tbl("courses", []string{"id"}, "id"),
			tbl("grades", []string{"id"}, "id", "student_id", "course_id", "grade")),
			[]catalog.RelationshipDoc{rel("enrolments", "student_id", "students"), rel("enrolments", "course_id", "courses"),
				{FromTable: "grades", FromColumns: []string{"student_id", "course_id"}, ToTable: "enrolments", ToColumns: []string{"student_id", "course_id"}, Source: "declared"}},
			"[bridge_table[enrolments courses students]]", []float64{0.9}},
		{"order lines with payload are no bridge", tables(tbl("order_items", []string{"id"}, "id", "order_id", "product_id", "quantity INTEGER", "price NUMERIC"), tbl("orders", []string{"id"}, "id"), tbl("products", []string{"id"}, "id")),
			[]catalog.RelationshipDoc{rel("order_items", "order_id", "orders"), rel("order_items", "product_id", "products")},
			"[]", nil},

		// One-to-one extensions.
		{"extension: primary key references primary key", tables(tbl("employees", []string{"id"}, "id", "name"), tbl("employee_details", []string{"employee_id"}, "employee_id", "bio")),
			[]catalog.RelationshipDoc{rel("employee_details", "employee_id", "employees")},
			"[one_to_one_extension[employees employee_details]]", []float64{0.9}},
		{"several extensions of one base, base first", tables(tbl("parties", []string{"id"}, "id"), tbl("people", []string{"party_id"}, "party_id", "name"), tbl("companies", []string{"party_id"}, "party_id", "vat")),
			[]catalog.RelationshipDoc{rel("people", "party_id", "parties"), rel("companies", "party_id", "parties")},
			"[one_to_one_extension[parties companies people]]", []float64{0.9}},
		{"composite key references composite key", tables(
			tbl("order_lines", []string{"order_id", "line"}, "order_id", "line", "qty"),
			tbl("line_notes", []string{"order_id", "line"}, "order_id", "line", "note")),
			[]catalog.RelationshipDoc{{FromTable: "line_notes", FromColumns: []string{"line", "order_id"}, ToTable: "order_lines", ToColumns: []string{"line", "order_id"}, Source: "user"}},
			"[one_to_one_extension[order_lines line_notes]]", []float64{0.9}},
		{"extension: one-to-one reference beside its own key", tables(tbl("orders", []string{"id"}, "id"), tbl("payments", []string{"id"}, "id", "order_id", "amount NUMERIC")),
			[]catalog.RelationshipDoc{withCard(rel("payments", "order_id", "orders"), "one_to_one", "inferred")},
			"[one_to_one_extension[orders payments]]", []float64{0.6}},
		{"one-to-many reference: no extension", tables(tbl("orders", []string{"id"}, "id"), tbl("payments", []string{"id"}, "id", "order_id")),
			[]catalog.RelationshipDoc{withCard(rel("payments", "order_id", "orders"), "one_to_many", "inferred")},
			"[]", nil},
		{"part of a composite key: no extension", tables(tbl("orders", []string{"id"}, "id"), tbl("order_lines", []string{"order_id", "line"}, "order_id", "line")),
			[]catalog.RelationshipDoc{rel("order_lines", "order_id", "orders")},
			"[]", nil},
		{"primary key referencing a column that is not the key", tables(tbl("employees", []string{"id"}, "id", "badge"), tbl("badges", []string{"badge"}, "badge")),
			[]catalog.RelationshipDoc{{FromTable: "badges", FromColumns: []string{"badge"}, ToTable: "employees", ToColumns: []string{"badge"}, Source: "inferred"}},
			"[]", nil},

		// Isolated tables.
		{"isolated: referenced by nobody, referencing nobody", tables(tbl("a", []string{"id"}, "id", "b_id"), tbl("b", []string{"id"}, "id"), tbl("audit_log", nil, "at", "what"), view("v_report", "x")),
			[]catalog.RelationshipDoc{rel("a", "b_id", "b")},
			"[isolated_tables[audit_log]]", []float64{0.7}},
		{"a self-reference joins no other table", tables(tbl("a", []string{"id"}, "id", "b_id"), tbl("b", []string{"id"}, "id"), tbl("staff", []string{"id"}, "id", "boss_id")),
			[]catalog.RelationshipDoc{rel("a", "b_id", "b"), rel("staff", "boss_id", "staff")},
			"[hierarchy[staff] isolated_tables[staff]]", []float64{0.9, 0.7}},
		{"referenced only by a view is not isolated", tables(tbl("b", []string{"id"}, "id"), view("v", "b_id"), tbl("c", []string{"id"}, "id")),
			[]catalog.RelationshipDoc{{FromTable: "v", FromColumns: []string{"b_id"}, ToTable: "b", ToColumns: []string{"id"}, Source: "inferred"}},
			"[isolated_tables[c]]", nil},
		{"no relationships at all: every table listed", tables(tbl("zeta", nil, "x"), tbl("alpha", nil, "y"), view("v", "x")), nil,
			"[isolated_tables[alpha zeta]]", nil},
		{"a one-table database says nothing", tables(tbl("only", []string{"id"}, "id"), view("v", "id")), nil,
			"[]", nil},
		{"one plain reference is no pattern", tables(tbl("a", []string{"id"}, "id", "b_id"), tbl("b", []string{"id"}, "id")),
			[]catalog.RelationshipDoc{rel("a", "b_id", "b")},
			"[]", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Patterns(c.tables, c.rels)
			if k := kinds(got); k != c.want {
				t.Fatalf("patterns\n got %s\nwant %s", k, c.want)
			}
			for i, p := range got {
				if c.conf != nil && p.Confidence != c.conf[i] {
					t.Errorf("%s confidence %v, want %v", p.Doc.Kind, p.Confidence, c.conf[i])
				}
				if p.Doc.Description == "" || len(p.Evidence) == 0 {
					t.Errorf("%s: description %q, evidence %q", p.Doc.Kind, p.Doc.Description, p.Evidence)
				}
			}
		})
	}
}

// TestPatternsTogether runs every kind on one schema and checks the order
// (kind, then tables) and that the relationships' order does not matter.
func TestPatternsTogether(t *testing.T) {
	ts := tables(sales, dates, stores, items, regions,
		tbl("categories", []string{"id"}, "id", "name", "parent_id"),
		tbl("products", []string{"id"}, "id", "name", "category_id"),
		tbl("suppliers", []string{"id"}, "id", "name"),
		tbl("product_supplier", []string{"product_id", "supplier_id"}, "product_id", "supplier_id", "since"),
		tbl("tags", []string{"id"}, "id"),
		tbl("post_tags", []string{"id"}, "id", "post_id", "tag_id"),
		tbl("posts", []string{"id"}, "id", "body"),
		tbl("product_details", []string{"product_id"}, "product_id", "description"),
		tbl("settings", nil, "name", "value"),
		tbl("migrations", []string{"id"}, "id"),
	)
	rels := []catalog.RelationshipDoc{
		rel("categories", "parent_id", "categories"),
		rel("products", "category_id", "categories"),
		rel("product_supplier", "product_id", "products"),
		rel("product_supplier", "supplier_id", "suppliers"),
		rel("post_tags", "post_id", "posts"),
		rel("post_tags", "tag_id", "tags"),
		rel("sales", "date_id", "dates"),
		rel("sales", "store_id", "stores"),
		rel("sales", "item_id", "items"),
		rel("stores", "region_id", "regions"),
		rel("product_details", "product_id", "products"),
	}
	got := Patterns(ts, rels)
	want := "[bridge_table[post_tags posts tags] bridge_table[product_supplier products suppliers] hierarchy[categories] " +
		"isolated_tables[migrations settings] one_to_one_extension[products product_details] snowflake[sales dates items stores regions]]"
	if k := kinds(got); k != want {
		t.Fatalf("patterns\n got %s\nwant %s", k, want)
	}
	// Reversed and with a duplicate, the relationships give the same patterns.
	rev := []catalog.RelationshipDoc{rels[0]}
	for i := len(rels) - 1; i >= 0; i-- {
		rev = append(rev, rels[i])
	}
	if again := Patterns(ts, rev); !reflect.DeepEqual(again, got) {
		t.Errorf("order changed the patterns:\n%s\n%s", kinds(again), kinds(got))
	}
}

// TestPatternWords checks the descriptions and evidence name what decided.
func TestPatternWords(t *testing.T) {
	find := func(ps []Pattern, kind string) Pattern {
		for _, p := range ps {
			if p.Doc.Kind == kind {
				return p
			}
		}
		t.Fatalf("no %s in %s", kind, kinds(ps))
		return Pattern{}
	}
	star := find(Patterns(tables(sales, dates, stores, items), salesRels), KindStar)
	for _, want := range []string{"numeric measures: sales.amount (NUMERIC(10,2)), sales.quantity (INTEGER)", "declared relationship sales(store_id) → stores(id)"} {
		if !slices.Contains(star.Evidence, want) {
			t.Errorf("star evidence %q lacks %q", star.Evidence, want)
		}
	}
	snow := find(Patterns(tables(sales, dates, stores, items, regions), append(append([]catalog.RelationshipDoc{}, salesRels...), rel("stores", "region_id", "regions"))), KindSnowflake)
	if !strings.Contains(snow.Doc.Description, "stores references regions") || !slices.Contains(snow.Evidence, "declared relationship stores(region_id) → regions(id)") {
		t.Errorf("snowflake %q %q", snow.Doc.Description, snow.Evidence)
	}
	ext := find(Patterns(tables(tbl("employees", []string{"id"}, "id"), tbl("employee_details", []string{"employee_id"}, "employee_id")),
		[]catalog.RelationshipDoc{rel("employee_details", "employee_id", "employees")}), KindExtension)
	if want := "employee_details extends employees one to one: its primary key employee_id references employees.id"; !strings.Contains(ext.Doc.Description, want) {
		t.Errorf("extension description %q lacks %q", ext.Doc.Description, want)
	}
	iso := find(Patterns(tables(tbl("a", nil, "x"), tbl("b", nil, "x"), tbl("c", nil, "b_id")),
		[]catalog.RelationshipDoc{rel("c", "b_id", "b")}), KindIsolated)
	if want := "1 of 3 tables has no relationship with any other table: a."; iso.Doc.Description != want {
		t.Errorf("isolated description %q, want %q", iso.Doc.Description, want)
	}
}

func TestMeasureColumns(t *testing.T) {
	for typ, want := range map[string]bool{
		"INTEGER": true, "NUMERIC(10,2)": true, "decimal(38, 0)": true, "DOUBLE PRECISION": true, "float8": true,
		"Int64": true, "HUGEINT": true, "REAL": true, "money": true, "BIGINT UNSIGNED": true,
		"TEXT": false, "": false, "INTERVAL": false, "POINT": false, "BOOLEAN": false, "tinyint(1)": false,
		"TIMESTAMP": false, "SERIAL": false, "VARCHAR(10)": false,
	} {
		if got := numericType(typ); got != want {
			t.Errorf("numericType(%q) = %v, want %v", typ, got, want)
		}
	}
	for name, want := range map[string]bool{
		"amount": false, "unit_price": false, "quantity": false, "num_items": false, "lead_time_days": false, "weightGrams": false,
		"id": true, "customer_id": true, "CustomerID": true, "date_key": true, "zip_code": true, "order_no": true,
		"is_active": true, "has_gift": true, "created_at": true, "fiscal_year": true, "deleted_flag": true,
		"ss_item_sk": true, "hk_customer": true, "country_cd": true, "line_nr": true, "skill_level": false,
	} {
		if got := notMeasureName(name); got != want {
			t.Errorf("notMeasureName(%q) = %v, want %v", name, got, want)
		}
	}
	fact := tbl("f", []string{"id"}, "id INTEGER", "d_id INTEGER", "qty INTEGER", "price REAL", "label TEXT")
	got := measureColumns(fact, map[string]bool{"d_id": true})
	if len(got) != 2 || got[0].Name != "qty" || got[1].Name != "price" {
		t.Errorf("measures %v, want qty and price", got)
	}
}

func TestCardinality(t *testing.T) {
	child := warehouse.Table{PrimaryKey: []string{"id"}, Uniques: [][]string{{"passport_id"}, {"a", "b"}}}
	cases := map[string]string{
		"id": "one_to_one", "passport_id": "one_to_one", "customer_id": "one_to_many",
	}
	for col, want := range cases {
		if got := Cardinality(child, []string{col}); got != want {
			t.Errorf("%s: %s, want %s", col, got, want)
		}
	}
	if got := Cardinality(child, []string{"B", "a"}); got != "one_to_one" {
		t.Errorf("composite unique in another order: %s", got)
	}
	if got := Cardinality(child, []string{"a"}); got != "one_to_many" {
		t.Errorf("part of a composite unique: %s", got)
	}
}

func TestIndexed(t *testing.T) {
	tb := warehouse.Table{PrimaryKey: []string{"order_id", "line"},
		Indexes: []warehouse.Index{{Name: "ix", Columns: []string{"product_id", "created_at"}}}}
	for cols, want := range map[string]bool{"order_id": true, "product_id": true, "created_at": false, "line": false} {
		if got := indexed(tb, []string{cols}); got != want {
			t.Errorf("indexed(%s) = %v, want %v", cols, got, want)
		}
	}
}
