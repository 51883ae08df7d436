package demo

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// The schema mixes declared and undeclared references on purpose; see Facts.
// Indexes are created after loading because building them once is cheaper
// than maintaining them row by row.
const schema = `
CREATE TABLE categories (
	id INTEGER PRIMARY KEY,
	parent_category_id INTEGER REFERENCES categories(id),
	name TEXT NOT NULL,
	slug TEXT NOT NULL
);
CREATE TABLE suppliers (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	country_code TEXT NOT NULL,
	contact_email TEXT,
	created_at TEXT NOT NULL
);
CREATE TABLE products (
	id INTEGER PRIMARY KEY,
	category_id INTEGER NOT NULL REFERENCES categories(id),
	sku TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL,
	price NUMERIC(10,2) NOT NULL,
	weight_grams INTEGER,
	is_active INTEGER NOT NULL DEFAULT 1,
	created_at TEXT NOT NULL
);
CREATE TABLE product_suppliers (
	product_id INTEGER NOT NULL REFERENCES products(id),
	supplier_id INTEGER NOT NULL REFERENCES suppliers(id),
	cost_price REAL NOT NULL,
	lead_time_days INTEGER NOT NULL,
	is_preferred INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (product_id, supplier_id)
);
CREATE TABLE customers (
	id INTEGER PRIMARY KEY,
	first_name TEXT NOT NULL,
	last_name TEXT NOT NULL,
	email TEXT NOT NULL,
	phone TEXT,
	country_code TEXT NOT NULL,
	marketing_opt_in INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL
);
CREATE TABLE addresses (
	id INTEGER PRIMARY KEY,
	customer_id INTEGER NOT NULL,
	kind TEXT NOT NULL,
	line1 TEXT NOT NULL,
	line2 TEXT,
	city TEXT NOT NULL,
	postal_code TEXT NOT NULL,
	country_code TEXT NOT NULL,
	is_default INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE orders (
	id INTEGER PRIMARY KEY,
	customer_id INTEGER NOT NULL REFERENCES customers(id),
	shipping_address_id INTEGER,
	status TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded')),
	channel TEXT NOT NULL,
	coupon_code TEXT,
	ordered_at TEXT NOT NULL
);
CREATE TABLE order_items (
	id INTEGER PRIMARY KEY,
	order_id INTEGER NOT NULL REFERENCES orders(id),
	product_id INTEGER NOT NULL REFERENCES products(id),
	quantity INTEGER NOT NULL CHECK (quantity > 0),
	unit_price NUMERIC(10,2) NOT NULL
);
CREATE TABLE payments (
	id INTEGER PRIMARY KEY,
	order_id INTEGER NOT NULL,
	method TEXT NOT NULL,
	amount NUMERIC(12,2) NOT NULL,
	provider_ref TEXT NOT NULL,
	paid_at TEXT NOT NULL
);
CREATE TABLE shipments (
	id INTEGER PRIMARY KEY,
	order_id INTEGER NOT NULL,
	carrier TEXT NOT NULL,
	tracking_number TEXT NOT NULL,
	shipped_at TEXT NOT NULL,
	delivered_at TEXT
);
CREATE TABLE reviews (
	id INTEGER PRIMARY KEY,
	product_id INTEGER NOT NULL,
	customer_id INTEGER NOT NULL,
	rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
	title TEXT,
	body TEXT,
	created_at TEXT NOT NULL
);
CREATE TABLE inventory (
	product_id INTEGER NOT NULL,
	warehouse_code TEXT NOT NULL,
	quantity_on_hand INTEGER NOT NULL,
	reorder_level INTEGER NOT NULL,
	updated_at TEXT NOT NULL,
	PRIMARY KEY (product_id, warehouse_code)
);
CREATE VIEW order_totals AS
SELECT o.id AS order_id,
	o.customer_id,
	o.status,
	o.ordered_at,
	COUNT(oi.id) AS item_count,
	ROUND(SUM(oi.quantity * oi.unit_price), 2) AS total
FROM orders o
JOIN order_items oi ON oi.order_id = o.id
GROUP BY o.id;
`

const indexes = `
CREATE INDEX idx_customers_email ON customers(email);
CREATE INDEX idx_orders_customer_id ON orders(customer_id);
CREATE INDEX idx_orders_ordered_at ON orders(ordered_at);
CREATE INDEX idx_order_items_order_id ON order_items(order_id);
`

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullStamp(t int64) any {
	if t == 0 {
		return nil
	}
	return stamp(t)
}

func money(cents int64) float64 { return float64(cents) / 100 }

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

type loader struct {
	ctx context.Context
	tx  *sql.Tx
}

// batch is how many rows go into one INSERT: one statement per row spends
// most of its time in per-statement overhead, which the race detector
// magnifies many times over.
const batch = 64

func (l loader) load(table, columns string, nargs, n int, row func(i int) []any) error {
	prepare := func(rows int) (*sql.Stmt, error) {
		tuple := "(?" + strings.Repeat(",?", nargs-1) + ")"
		q := "INSERT INTO " + table + " (" + columns + ") VALUES " + tuple + strings.Repeat(","+tuple, rows-1)
		stmt, err := l.tx.PrepareContext(l.ctx, q)
		if err != nil {
			return nil, fmt.Errorf("demo: prepare %s: %w", table, err)
		}
		return stmt, nil
	}
	full, err := prepare(batch)
	if err != nil {
		return err
	}
	defer full.Close()
	// The driver starts a watcher goroutine per statement for a cancellable
	// context; checking ctx once per batch is just as responsive.
	bg := context.WithoutCancel(l.ctx)
	args := make([]any, 0, batch*nargs)
	for start := 0; start < n; start += batch {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		end := min(start+batch, n)
		args = args[:0]
		for i := start; i < end; i++ {
			args = append(args, row(i)...)
		}
		stmt := full
		if end-start < batch {
			if stmt, err = prepare(end - start); err != nil {
				return err
			}
			defer stmt.Close()
		}
		if _, err := stmt.ExecContext(bg, args...); err != nil {
			return fmt.Errorf("demo: insert into %s: %w", table, err)
		}
	}
	return nil
}

func write(ctx context.Context, path string, m *model) (err error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}()
	// Pragmas are per connection; one connection keeps them in force.
	db.SetMaxOpenConns(1)
	// The file is a scratch build renamed into place only on success, so
	// durability while building buys nothing.
	pragmas := []string{
		"PRAGMA journal_mode = OFF",
		"PRAGMA synchronous = OFF",
		"PRAGMA locking_mode = EXCLUSIVE",
		"PRAGMA cache_size = -65536", // the whole database fits: no page is written twice
		fmt.Sprintf("PRAGMA user_version = %d", Version),
	}
	for _, p := range pragmas {
		if _, err := db.ExecContext(ctx, p); err != nil {
			return fmt.Errorf("demo: %s: %w", p, err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("demo: schema: %w", err)
	}
	l := loader{ctx, tx}
	steps := []func() error{
		func() error {
			return l.load("categories", "id, parent_category_id, name, slug", 4, len(m.categories), func(i int) []any {
				c := m.categories[i]
				var parent any
				if c.parent != 0 {
					parent = c.parent
				}
				return []any{c.id, parent, c.name, c.slug}
			})
		},
		func() error {
			return l.load("suppliers", "id, name, country_code, contact_email, created_at", 5, len(m.suppliers), func(i int) []any {
				s := m.suppliers[i]
				return []any{s.id, s.name, s.country, nullable(s.email), stamp(s.created)}
			})
		},
		func() error {
			return l.load("products", "id, category_id, sku, name, price, weight_grams, is_active, created_at", 8, len(m.products), func(i int) []any {
				p := m.products[i]
				var grams any
				if p.grams != 0 {
					grams = p.grams
				}
				return []any{p.id, p.categoryID, p.sku, p.name, money(p.cents), grams, flag(p.active), stamp(p.created)}
			})
		},
		func() error {
			return l.load("product_suppliers", "product_id, supplier_id, cost_price, lead_time_days, is_preferred", 5, len(m.productSuppliers), func(i int) []any {
				ps := m.productSuppliers[i]
				return []any{ps.productID, ps.supplierID, money(ps.costCents), ps.leadDays, flag(ps.preferred)}
			})
		},
		func() error {
			live := make([]*customer, 0, len(m.customers))
			for i := range m.customers {
				if !m.customers[i].deleted {
					live = append(live, &m.customers[i])
				}
			}
			return l.load("customers", "id, first_name, last_name, email, phone, country_code, marketing_opt_in, created_at", 8, len(live), func(i int) []any {
				c := live[i]
				return []any{c.id, c.first, c.last, c.email, nullable(c.phone), countries[c.country].code, flag(c.optIn), stamp(c.created)}
			})
		},
		func() error {
			return l.load("addresses", "id, customer_id, kind, line1, line2, city, postal_code, country_code, is_default", 9, len(m.addresses), func(i int) []any {
				a := m.addresses[i]
				return []any{a.id, a.customerID, a.kind, a.line1, nullable(a.line2), a.city, a.postal, a.country, flag(a.isDefault)}
			})
		},
		func() error {
			return l.load("orders", "id, customer_id, shipping_address_id, status, channel, coupon_code, ordered_at", 7, len(m.orders), func(i int) []any {
				o := m.orders[i]
				return []any{o.id, o.customerID, o.addressID, o.status, o.channel, nullable(o.coupon), stamp(o.at)}
			})
		},
		func() error {
			return l.load("order_items", "id, order_id, product_id, quantity, unit_price", 5, len(m.items), func(i int) []any {
				it := m.items[i]
				return []any{it.id, it.orderID, it.productID, it.qty, money(it.unitCents)}
			})
		},
		func() error {
			return l.load("payments", "id, order_id, method, amount, provider_ref, paid_at", 6, len(m.payments), func(i int) []any {
				p := m.payments[i]
				return []any{p.id, p.orderID, p.method, money(p.amountCents), p.ref, stamp(p.at)}
			})
		},
		func() error {
			return l.load("shipments", "id, order_id, carrier, tracking_number, shipped_at, delivered_at", 6, len(m.shipments), func(i int) []any {
				s := m.shipments[i]
				return []any{s.id, s.orderID, s.carrier, s.tracking, stamp(s.shipped), nullStamp(s.deliv)}
			})
		},
		func() error {
			return l.load("reviews", "id, product_id, customer_id, rating, title, body, created_at", 7, len(m.reviews), func(i int) []any {
				rv := m.reviews[i]
				return []any{rv.id, rv.productID, rv.customerID, rv.rating, nullable(rv.title), nullable(rv.body), stamp(rv.at)}
			})
		},
		func() error {
			return l.load("inventory", "product_id, warehouse_code, quantity_on_hand, reorder_level, updated_at", 5, len(m.inventory), func(i int) []any {
				s := m.inventory[i]
				return []any{s.productID, s.warehouse, s.qty, s.reorder, stamp(s.updated)}
			})
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, indexes); err != nil {
		return fmt.Errorf("demo: indexes: %w", err)
	}
	return tx.Commit()
}
