package postgres

import (
	"context"
	"maps"
	"testing"
)

// TestChangeSignals: a table's signal moves with an INSERT, an UPDATE, a
// DELETE and a TRUNCATE into it (its counters as the server publishes
// them, and its file node), not with another table's writes, ANALYZE or
// reads; a partitioned table's follows its leaves; a view's follows every
// table and its definition.
func TestChangeSignals(t *testing.T) {
	ctx := context.Background()
	db := newDB(t,
		`CREATE TABLE customers (id int PRIMARY KEY, name text)`,
		`CREATE TABLE orders (id int PRIMARY KEY, customer_id int)`,
		`CREATE TABLE events (id int, at date) PARTITION BY RANGE (at)`,
		`CREATE TABLE events_2026 PARTITION OF events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01')`,
		`CREATE VIEW big_orders AS SELECT * FROM orders WHERE id > 10`,
		`INSERT INTO customers VALUES (1, 'a'), (2, 'b')`,
		`INSERT INTO orders VALUES (1, 1), (2, 2)`,
		`INSERT INTO events VALUES (1, '2026-03-01')`,
		`SELECT pg_stat_force_next_flush()`)
	src, err := Open(ctx, db.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	signals := func() map[string]string {
		t.Helper()
		s, err := src.ChangeSignals(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// write runs statements and publishes their counters at once, as the
	// server would within seconds.
	write := func(stmts ...string) {
		t.Helper()
		db.exec(t, append(stmts, `SELECT pg_stat_force_next_flush()`)...)
	}
	before := signals()
	for _, name := range []string{"customers", "orders", "events", "big_orders"} {
		if before[name] == "" {
			t.Fatalf("%s has no signal: %v", name, before)
		}
	}
	if _, ok := before["events_2026"]; ok {
		t.Fatalf("a partition has a signal of its own: %v", before)
	}
	write(`ANALYZE`, `SELECT count(*) FROM orders`)
	if after := signals(); !maps.Equal(before, after) {
		t.Fatalf("ANALYZE and a read changed signals:\n%v\n%v", before, after)
	}
	for _, stmt := range []string{
		`INSERT INTO orders VALUES (3, 1)`,
		`UPDATE orders SET customer_id = 2 WHERE id = 3`,
		`DELETE FROM orders WHERE id = 3`,
		`TRUNCATE orders`,
	} {
		write(stmt)
		after := signals()
		if after["orders"] == before["orders"] || after["big_orders"] == before["big_orders"] {
			t.Errorf("%s: orders' or the view's signal did not move", stmt)
		}
		if after["customers"] != before["customers"] || after["events"] != before["events"] {
			t.Errorf("%s: another table's signal moved", stmt)
		}
		before = after
	}
	write(`INSERT INTO events VALUES (2, '2026-04-01')`)
	after := signals()
	if after["events"] == before["events"] || after["customers"] != before["customers"] {
		t.Errorf("a write into a partition: events %q -> %q", before["events"], after["events"])
	}
	before = after
	write(`CREATE OR REPLACE VIEW big_orders AS SELECT * FROM orders WHERE id > 20`)
	if after := signals(); after["big_orders"] == before["big_orders"] || after["orders"] != before["orders"] {
		t.Errorf("a view's new definition: %q -> %q", before["big_orders"], after["big_orders"])
	}
}
