package mysql

import (
	"context"
	"testing"
	"time"
)

// TestChangeSignals: a table's signal moves with a write into it and not
// with another table's or a read; a table written in the last second has
// none (the server's times are to the second); a view's follows every
// table and its definition.
func TestChangeSignals(t *testing.T) {
	ctx := context.Background()
	admin := adminDB(t, "")
	name := createDB(t, admin, "sig_")
	db := adminDB(t, name)
	exec(t, db,
		`CREATE TABLE customers (id int PRIMARY KEY, name varchar(20)) ENGINE=InnoDB`,
		`CREATE TABLE orders (id int PRIMARY KEY, customer_id int) ENGINE=InnoDB`,
		`CREATE VIEW big_orders AS SELECT * FROM orders WHERE id > 10`,
		`INSERT INTO customers VALUES (1, 'a'), (2, 'b')`,
		`INSERT INTO orders VALUES (1, 1), (2, 2)`)
	src := open(t, rootDSN(t, name))
	signals := func() map[string]string {
		t.Helper()
		s, err := src.ChangeSignals(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := signals(); s["orders"] != "" || s["big_orders"] != "" {
		t.Fatalf("tables written in the last second have signals: %v", s)
	}
	time.Sleep(2100 * time.Millisecond) // UPDATE_TIME is truncated to the second
	before := signals()
	for _, n := range []string{"customers", "orders", "big_orders"} {
		if before[n] == "" {
			t.Fatalf("%s has no signal: %v", n, before)
		}
	}
	exec(t, db, `SELECT count(*) FROM orders`)
	exec(t, db, `UPDATE orders SET customer_id = 1 WHERE id = 2`)
	time.Sleep(2100 * time.Millisecond) // UPDATE_TIME is truncated to the second
	after := signals()
	if after["orders"] == before["orders"] || after["big_orders"] == before["big_orders"] {
		t.Errorf("an UPDATE of orders: its signal %q -> %q, the view's %q -> %q", before["orders"], after["orders"], before["big_orders"], after["big_orders"])
	}
	if after["customers"] != before["customers"] {
		t.Errorf("an UPDATE of orders moved customers' signal")
	}
	before = after
	exec(t, db, `CREATE OR REPLACE VIEW big_orders AS SELECT * FROM orders WHERE id > 20`)
	if after := signals(); after["big_orders"] == before["big_orders"] || after["orders"] != before["orders"] {
		t.Errorf("a view's new definition: %q -> %q", before["big_orders"], after["big_orders"])
	}
}
