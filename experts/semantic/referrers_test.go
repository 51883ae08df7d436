package semantic_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/discover-db/discover/experts/semantic"
	"github.com/discover-db/discover/warehouse"
)

// TestReferrers: the tables that refer to one by one column, declared or
// named after it, from one index for the whole schema: a declared key
// first in its own right (its referenced column), a column named after the
// table (order_id for orders, plural or not) with the table's key, never
// the table itself, a view, the referrer's own key or a table of a
// composite key by name.
func TestReferrers(t *testing.T) {
	tn := func(n string) warehouse.TableName { return warehouse.TableName{Name: n} }
	col := func(names ...string) []warehouse.Column {
		var out []warehouse.Column
		for i, n := range names {
			out = append(out, warehouse.Column{Name: n, Position: i + 1})
		}
		return out
	}
	orders := warehouse.Table{Name: tn("orders"), Kind: "table", Columns: col("id", "parent_order_id"), PrimaryKey: []string{"id"}}
	lines := warehouse.Table{Name: tn("order_lines"), Kind: "table", Columns: col("line_no", "order_ref"), PrimaryKey: []string{"line_no"},
		ForeignKeys: []warehouse.ForeignKey{{Columns: []string{"order_ref"}, RefTable: tn("orders"), RefColumns: []string{"id"}}}}
	shipments := warehouse.Table{Name: tn("shipments"), Kind: "table", Columns: col("id", "order_id", "OrdersId"), PrimaryKey: []string{"id"}}
	view := warehouse.Table{Name: tn("open_orders"), Kind: "view", Columns: col("order_id")}
	ownKey := warehouse.Table{Name: tn("order_extras"), Kind: "table", Columns: col("order_id"), PrimaryKey: []string{"order_id"}}
	pairs := warehouse.Table{Name: tn("pairs"), Kind: "table", Columns: col("a", "b"), PrimaryKey: []string{"a", "b"}}
	pairRefs := warehouse.Table{Name: tn("pair_notes"), Kind: "table", Columns: col("pair_id")}
	tables := []warehouse.Table{orders, lines, shipments, view, ownKey, pairs, pairRefs}
	idx := semantic.NewReferrerIndex(tables)
	show := func(rs []semantic.Referrer) string {
		var out []string
		for _, r := range rs {
			out = append(out, fmt.Sprintf("%s.%s->%s", r.Table.Name.Name, r.Column, r.Ref))
		}
		return strings.Join(out, " ")
	}
	if got, want := show(idx.Of(orders, orders.PrimaryKey)), "order_lines.order_ref->id shipments.OrdersId->id shipments.order_id->id"; got != want {
		t.Errorf("referrers of orders: %s, want %s", got, want)
	}
	if got := show(idx.Of(pairs, pairs.PrimaryKey)); got != "" {
		t.Errorf("referrers of a table with a composite key, by name: %s, want none", got)
	}
	if got, want := show(semantic.Referrers(tables, orders, orders.PrimaryKey)), show(idx.Of(orders, orders.PrimaryKey)); got != want {
		t.Errorf("Referrers %s, the index %s", got, want)
	}
}
