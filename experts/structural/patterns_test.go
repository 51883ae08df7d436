package structural

import (
	"fmt"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

func tbl(name string, pk []string, cols ...string) catalog.TableDoc {
	d := catalog.TableDoc{Name: name, Kind: "table", PrimaryKey: pk}
	for i, c := range cols {
		d.Columns = append(d.Columns, catalog.ColumnDoc{Name: c, Position: i + 1})
	}
	return d
}

func rel(from, col, to string) catalog.RelationshipDoc {
	return catalog.RelationshipDoc{FromTable: from, FromColumns: []string{col}, ToTable: to, ToColumns: []string{"id"}, Source: "declared"}
}

func kinds(ps []Pattern) string {
	var s []string
	for _, p := range ps {
		s = append(s, fmt.Sprintf("%s%v", p.Doc.Kind, p.Doc.Tables))
	}
	return fmt.Sprint(s)
}

func TestPatterns(t *testing.T) {
	tables := map[string]catalog.TableDoc{
		"categories":       tbl("categories", []string{"id"}, "id", "name", "parent_id"),
		"products":         tbl("products", []string{"id"}, "id", "name", "category_id"),
		"suppliers":        tbl("suppliers", []string{"id"}, "id", "name"),
		"product_supplier": tbl("product_supplier", []string{"product_id", "supplier_id"}, "product_id", "supplier_id", "since"),
		"tags":             tbl("tags", []string{"id"}, "id"),
		"post_tags":        tbl("post_tags", []string{"id"}, "id", "post_id", "tag_id"),
		"posts":            tbl("posts", []string{"id"}, "id", "body"),
		"sales":            tbl("sales", []string{"id"}, "id", "date_id", "store_id", "item_id", "amount"),
		"dates":            tbl("dates", []string{"id"}, "id"),
		"stores":           tbl("stores", []string{"id"}, "id", "region_id"),
		"items":            tbl("items", []string{"id"}, "id"),
		"regions":          tbl("regions", []string{"id"}, "id"),
	}
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
	}
	got := kinds(Patterns(tables, rels))
	want := "[hierarchy[categories] bridge_table[post_tags posts tags] bridge_table[product_supplier products suppliers] snowflake[sales dates stores items]]"
	if got != want {
		t.Fatalf("patterns\n got %s\nwant %s", got, want)
	}
	// Without the region, the stores dimension no longer branches: a plain star.
	got = kinds(Patterns(tables, rels[:len(rels)-1]))
	if want := "star_schema[sales dates stores items]"; !containsSub(got, want) {
		t.Fatalf("want %s in %s", want, got)
	}
	// Bridge confidence is higher when the key is made of the references.
	for _, p := range Patterns(tables, rels) {
		if p.Doc.Kind != "bridge_table" {
			continue
		}
		want := 0.7
		if p.Doc.Tables[0] == "product_supplier" {
			want = 0.9
		}
		if p.Confidence != want {
			t.Errorf("%v confidence %v, want %v", p.Doc.Tables, p.Confidence, want)
		}
	}
}

func containsSub(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestPatternsNone(t *testing.T) {
	tables := map[string]catalog.TableDoc{"a": tbl("a", []string{"id"}, "id", "b_id"), "b": tbl("b", []string{"id"}, "id")}
	if got := Patterns(tables, []catalog.RelationshipDoc{rel("a", "b_id", "b")}); len(got) != 0 {
		t.Fatalf("one plain reference is no pattern: %s", kinds(got))
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
