package naming

import (
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// A name is the table spelled so; in another case only the one table it
// can mean; two tables differing only in case are both kept, and a name
// matching both in other cases matches neither. Columns alike.
func TestTableIndex(t *testing.T) {
	col := func(names ...string) []warehouse.Column {
		var out []warehouse.Column
		for _, n := range names {
			out = append(out, warehouse.Column{Name: n})
		}
		return out
	}
	tables := []warehouse.Table{
		{Name: warehouse.TableName{Name: "Users"}, Columns: col("id", "Name", "name")},
		{Name: warehouse.TableName{Name: "users"}, Columns: col("id")},
		{Name: warehouse.TableName{Name: "Customers"}, Columns: col("CustomerId")},
		{Name: warehouse.TableName{Schema: "sales", Name: "Orders"}},
	}
	x := NewTableIndex(tables)
	for name, want := range map[string]string{
		"Users": "Users", "users": "users", "USERS": "", "uSers": "",
		"customers": "Customers", "Customers": "Customers", "sales.orders": "sales.Orders", "orders": "",
	} {
		got, ok := x.Find(name)
		if ok != (want != "") || (ok && got.Name.String() != want) {
			t.Errorf("Find(%q) = %q, %v; want %q", name, got.Name, ok, want)
		}
	}
	for name, want := range map[string]string{"Name": "Name", "name": "name", "NAME": "", "ID": "id", "weight": ""} {
		got, ok := FindColumn(tables[0], name)
		if ok != (want != "") || got != want && ok {
			t.Errorf("FindColumn(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}
