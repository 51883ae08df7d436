package structural_test

import (
	"reflect"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/warehouse"
)

// TableDoc carries the declared structure beyond keys into the catalog,
// every field as the engine gave it.
func TestTableDocCarriesStructure(t *testing.T) {
	def := "'new'"
	doc := structural.TableDoc(warehouse.Table{
		Name: warehouse.TableName{Schema: "sales", Name: "orders"}, Kind: "table",
		Columns: []warehouse.Column{
			{Name: "id", Type: "int", Position: 1, Identity: "always", Comment: "the order's number"},
			{Name: "status", Type: "text", Position: 2, Default: &def},
			{Name: "total", Type: "numeric", Nullable: true, Position: 3, Generated: "qty * price", GeneratedStored: true},
		},
		PrimaryKey: []string{"id"}, PrimaryKeyName: "orders_pkey", Comment: "one row per order",
		Indexes: []warehouse.Index{{Name: "open", Columns: []string{"lower(status)"}, Predicate: "status <> 'shipped'", Definition: "CREATE INDEX open …"}},
		Checks:  []warehouse.Check{{Name: "qty_ok", Expression: "qty > 0"}},
		Triggers: []warehouse.Trigger{{Name: "touch", Timing: "BEFORE", Events: []string{"INSERT", "UPDATE"},
			Definition: "CREATE TRIGGER touch …"}},
	})
	want := catalog.TableDoc{
		Name: "sales.orders", Kind: "table", PrimaryKey: []string{"id"}, PrimaryKeySource: "declared",
		Columns: []catalog.ColumnDoc{
			{Name: "id", DataType: "int", Position: 1, Identity: "always", Comment: "the order's number"},
			{Name: "status", DataType: "text", Position: 2, Default: &def},
			{Name: "total", DataType: "numeric", Nullable: true, Position: 3, Generated: "qty * price", GeneratedStored: true},
		},
		Uniques:        [][]string{},
		Indexes:        []catalog.IndexDoc{{Name: "open", Columns: []string{"lower(status)"}, Predicate: "status <> 'shipped'", Definition: "CREATE INDEX open …"}},
		PrimaryKeyName: "orders_pkey", Comment: "one row per order",
		Checks:   []catalog.CheckDoc{{Name: "qty_ok", Expression: "qty > 0"}},
		Triggers: []catalog.TriggerDoc{{Name: "touch", Timing: "BEFORE", Events: []string{"INSERT", "UPDATE"}, Definition: "CREATE TRIGGER touch …"}},
	}
	if !reflect.DeepEqual(doc, want) {
		t.Errorf("TableDoc =\n%+v\nwant\n%+v", doc, want)
	}

	view := structural.TableDoc(warehouse.Table{Name: warehouse.TableName{Name: "open_orders"}, Kind: "view",
		Definition: "SELECT …", Reads: []warehouse.TableName{{Schema: "sales", Name: "orders"}, {Name: "shop"}}})
	if view.Definition != "SELECT …" || !reflect.DeepEqual(view.Reads, []string{"sales.orders", "shop"}) {
		t.Errorf("view: definition %q, reads %q", view.Definition, view.Reads)
	}
}

// A comment's key names a table (bare or schema.table) or, after its last
// dot, a column of one; names resolve as configured relations do.
func TestResolveComment(t *testing.T) {
	idx := naming.NewTableIndex([]warehouse.Table{
		{Name: warehouse.TableName{Schema: "sales", Name: "orders"}, Columns: []warehouse.Column{{Name: "Status"}}},
		{Name: warehouse.TableName{Name: "shop"}, Columns: []warehouse.Column{{Name: "name"}}},
	})
	for _, c := range []struct {
		key, table, column string
		ok                 bool
	}{
		{"shop", "shop", "", true},
		{"SHOP", "shop", "", true},
		{"sales.orders", "sales.orders", "", true},
		{"sales.orders.status", "sales.orders", "Status", true},
		{"shop.name", "shop", "name", true},
		{"shop.ghost", "", "", false},
		{"ghost", "", "", false},
		{"orders.status", "", "", false}, // the table is sales.orders
		{".name", "", "", false},
	} {
		tb, col, ok := structural.ResolveComment(idx, c.key)
		if ok != c.ok || ok && (tb.Name.String() != c.table || col != c.column) {
			t.Errorf("ResolveComment(%q) = %s, %q, %v; want %s, %q, %v", c.key, tb.Name, col, ok, c.table, c.column, c.ok)
		}
	}
}
