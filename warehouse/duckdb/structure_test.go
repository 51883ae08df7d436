package duckdb

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/internal/sourcetest"
)

// structureFixture declares every kind of structure beyond keys DuckDB
// has. It has no identity columns (a sequence's nextval is the default),
// no stored generated columns, no foreign key actions but NO ACTION, no
// partial indexes and no triggers.
var structureFixture = []string{
	`CREATE SEQUENCE customer_ids`,
	`CREATE SCHEMA shop`,
	`CREATE TYPE order_status AS ENUM ('new', 'paid', 'it''s shipped')`,
	`COMMENT ON TYPE order_status IS 'where an order is'`,
	`CREATE TYPE shop.size AS ENUM ('S', 'M', 'L')`,
	// Labels that two types share name neither (DuckDB writes a column's
	// type as its labels), nor does an ENUM written in the column.
	`CREATE TYPE shop.twin_a AS ENUM ('x', 'y')`,
	`CREATE TYPE shop.twin_b AS ENUM ('x', 'y')`,
	`CREATE MACRO add_tax(price, rate := 0.2) AS price * (1 + rate)`,
	`COMMENT ON MACRO add_tax IS 'gross from net'`,
	`CREATE TABLE customer (
		id int DEFAULT nextval('customer_ids') PRIMARY KEY,
		name varchar NOT NULL DEFAULT 'new',
		credit int DEFAULT 0,
		created timestamptz DEFAULT now(),
		email varchar DEFAULT NULL,
		CONSTRAINT credit_positive CHECK (credit >= 0),
		CHECK (length(name) > 1))`,
	`COMMENT ON TABLE customer IS 'People who ''buy'',
on two lines'`,
	`COMMENT ON COLUMN customer.name IS 'the "name"
as written'`,
	`CREATE TABLE shop.product (
		id int PRIMARY KEY,
		price decimal(10,2) NOT NULL,
		gross decimal(10,2) GENERATED ALWAYS AS (price * 1.2) VIRTUAL,
		sizes shop.size[],
		twin shop.twin_a,
		own ENUM('u', 'v'))`,
	`CREATE TABLE orders (
		id bigint PRIMARY KEY,
		customer_id int REFERENCES customer (id),
		placed date,
		status order_status)`,
	`CREATE INDEX customer_lower_email ON customer (lower(email), id)`,
	`CREATE VIEW order_lines AS SELECT o.id, c.name, p.price
		FROM orders o JOIN customer c ON c.id = o.customer_id, shop.product p WHERE p.id = o.id`,
	`CREATE VIEW big_order_lines AS SELECT id, name FROM order_lines WHERE price > 100`,
	`COMMENT ON VIEW big_order_lines IS 'orders over 100'`,
	`CREATE MACRO shop.recent(n) AS TABLE SELECT * FROM orders LIMIT n`,
}

func ptr(s string) *string { return &s }

func col(pos int, name, typ string, nullable bool) warehouse.Column {
	return warehouse.Column{Name: name, Type: typ, Nullable: nullable, Position: pos}
}

func TestTablesStructure(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "structure.duckdb")
	exec(t, path, structureFixture...)
	got, err := open(t, path).Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}

	bigLines := tbl("", "big_order_lines", "view")
	bigLines.Columns = []warehouse.Column{col(1, "id", "BIGINT", true), col(2, "name", "VARCHAR", true)}
	bigLines.Comment = "orders over 100"
	bigLines.Definition = `SELECT id, "name" FROM order_lines WHERE (price > 100)`
	bigLines.Reads = []warehouse.TableName{{Name: "order_lines"}}

	customer := tbl("", "customer", "table")
	customer.Columns = []warehouse.Column{col(1, "id", "INTEGER", false), col(2, "name", "VARCHAR", false),
		col(3, "credit", "INTEGER", true), col(4, "created", "TIMESTAMP WITH TIME ZONE", true), col(5, "email", "VARCHAR", true)}
	customer.Columns[0].Default = ptr("nextval('customer_ids')")
	customer.Columns[1].Default = ptr("'new'")
	customer.Columns[1].Comment = "the \"name\"\nas written"
	customer.Columns[2].Default = ptr("0")
	customer.Columns[3].Default = ptr("now()")
	customer.PrimaryKey, customer.PrimaryKeyName = []string{"id"}, "customer_id_pkey"
	customer.Comment = "People who 'buy',\non two lines"
	// The CREATE TABLE DuckDB writes back, not the one the fixture sent.
	customer.CreateStatement = `CREATE TABLE customer(id INTEGER DEFAULT(nextval('customer_ids')) PRIMARY KEY, "name" VARCHAR DEFAULT('new') NOT NULL, credit INTEGER DEFAULT(0), created TIMESTAMP WITH TIME ZONE DEFAULT(now()), email VARCHAR DEFAULT(NULL), CHECK((credit >= 0)), CHECK((length("name") > 1)));`
	customer.Indexes = []warehouse.Index{{Name: "customer_lower_email", Columns: []string{"(lower(email))", "id"},
		Definition: "CREATE INDEX customer_lower_email ON customer((lower(email)), id)"}}
	// DuckDB keeps no check's name: credit_positive is lost, and both
	// are named by duckdb_constraints() after their table and column.
	customer.Checks = []warehouse.Check{
		{Name: "customer_credit_check", Expression: "credit >= 0"},
		{Name: "customer_name_check", Expression: `length("name") > 1`},
	}

	lines := tbl("", "order_lines", "view")
	lines.Columns = []warehouse.Column{col(1, "id", "BIGINT", true), col(2, "name", "VARCHAR", true), col(3, "price", "DECIMAL(10,2)", true)}
	lines.Definition = `SELECT o.id, c."name", p.price FROM orders AS o INNER JOIN customer AS c ON ((c.id = o.customer_id)) , shop.product AS p WHERE (p.id = o.id)`
	lines.Reads = []warehouse.TableName{{Name: "customer"}, {Name: "orders"}, {Schema: "shop", Name: "product"}}

	orders := tbl("", "orders", "table")
	orders.Columns = []warehouse.Column{col(1, "id", "BIGINT", false), col(2, "customer_id", "INTEGER", true), col(3, "placed", "DATE", true),
		col(4, "status", "ENUM('new', 'paid', 'it''s shipped')", true)}
	orders.Columns[3].Enum = "order_status"
	orders.PrimaryKey, orders.PrimaryKeyName = []string{"id"}, "orders_id_pkey"
	orders.CreateStatement = `CREATE TABLE orders(id BIGINT PRIMARY KEY, customer_id INTEGER, placed DATE, status ENUM('new', 'paid', 'it''s shipped'), FOREIGN KEY (customer_id) REFERENCES customer(id));`
	orders.ForeignKeys = []warehouse.ForeignKey{{Name: "orders_customer_id_id_fkey", Columns: []string{"customer_id"},
		RefTable: warehouse.TableName{Name: "customer"}, RefColumns: []string{"id"}, OnDelete: "NO ACTION", OnUpdate: "NO ACTION"}}

	product := tbl("shop", "product", "table")
	product.Columns = []warehouse.Column{col(1, "id", "INTEGER", false), col(2, "price", "DECIMAL(10,2)", false), col(3, "gross", "DECIMAL(10,2)", true),
		col(4, "sizes", "ENUM('S', 'M', 'L')[]", true), col(5, "twin", "ENUM('x', 'y')", true), col(6, "own", "ENUM('u', 'v')", true)}
	product.Columns[3].Enum = "shop.size"
	product.Columns[2].Generated = "price * 1.2"
	product.PrimaryKey, product.PrimaryKeyName = []string{"id"}, "product_id_pkey"
	product.CreateStatement = `CREATE TABLE shop.product(id INTEGER PRIMARY KEY, price DECIMAL(10,2) NOT NULL, gross DECIMAL(10,2) GENERATED ALWAYS AS((price * 1.2)), sizes ENUM('S', 'M', 'L')[], twin ENUM('x', 'y'), own ENUM('u', 'v'));`

	sourcetest.SameTables(t, got, []warehouse.Table{bigLines, customer, lines, orders, product})
}

// Objects lists the enumerated types, labels in order, and the macros, a
// table macro returning TABLE.
func TestObjects(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "structure.duckdb")
	exec(t, path, structureFixture...)
	got, err := open(t, path).Objects(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := warehouse.Objects{
		Enums: []warehouse.Enum{
			{Name: warehouse.TableName{Name: "order_status"}, Labels: []string{"new", "paid", "it's shipped"}, Comment: "where an order is"},
			{Name: warehouse.TableName{Schema: "shop", Name: "size"}, Labels: []string{"S", "M", "L"}},
			{Name: warehouse.TableName{Schema: "shop", Name: "twin_a"}, Labels: []string{"x", "y"}},
			{Name: warehouse.TableName{Schema: "shop", Name: "twin_b"}, Labels: []string{"x", "y"}},
		},
		Routines: []warehouse.Routine{
			{Name: warehouse.TableName{Name: "add_tax"}, Kind: "macro", Arguments: "price, rate", Language: "SQL", Comment: "gross from net"},
			{Name: warehouse.TableName{Schema: "shop", Name: "recent"}, Kind: "macro", Arguments: "n", Returns: "TABLE", Language: "SQL"},
		},
	}
	g, _ := json.MarshalIndent(got, "", "  ")
	w, _ := json.MarshalIndent(want, "", "  ")
	if string(g) != string(w) {
		t.Errorf("objects:\n got %s\nwant %s", g, w)
	}
}
