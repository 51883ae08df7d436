package postgres

import (
	"context"
	"github.com/discover-db/discover/warehouse/internal/sourcetest"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// fixture is every shape Tables must get right, in two schemas, with names
// that need quoting. Tables stay under 50 rows so autovacuum never
// analyzes them behind a test's back.
var fixture = []string{
	`CREATE SCHEMA sales`,
	`CREATE TABLE customer (
		id int PRIMARY KEY,
		email text NOT NULL,
		name varchar(20),
		CONSTRAINT customer_email_key UNIQUE (email))`,
	// Unique, but on an expression or only where a predicate holds: no key.
	`CREATE UNIQUE INDEX customer_email_lower ON customer (lower(email))`,
	`CREATE UNIQUE INDEX customer_name_uniq_partial ON customer (name) WHERE id > 100`,
	`CREATE INDEX customer_name_partial ON customer (name) WHERE name IS NOT NULL`,
	`CREATE INDEX customer_expr ON customer (lower(name), id DESC)`,
	`CREATE TABLE "Order Items" (order_id bigint NOT NULL, line int NOT NULL, sku text, qty int,
		PRIMARY KEY (order_id, line))`,
	`CREATE TABLE sales.orders (id bigint PRIMARY KEY, customer_id int REFERENCES customer (id), placed date NOT NULL)`,
	// The constraint lists its columns in another order than either table.
	`CREATE TABLE sales.shipment_line (ship_id int, order_id bigint, line int,
		CONSTRAINT shipment_line_item_fk FOREIGN KEY (line, order_id) REFERENCES "Order Items" (line, order_id))`,
	`CREATE TABLE "select" ("from" text, "where" int, UNIQUE ("from", "where"))`,
	`CREATE UNIQUE INDEX "sel where" ON "select" ("where")`,
	`CREATE TABLE "say ""hi""" (k text PRIMARY KEY, v int)`,
	`CREATE TABLE "CamelCase" ("MixedCol" int NOT NULL, gone int, after text)`,
	`ALTER TABLE "CamelCase" DROP COLUMN gone`,
	`CREATE TABLE types (i int, b bigint, n numeric(10,2), t text, v varchar(20), ok boolean, d date,
		ts timestamptz, u uuid, j jsonb, raw bytea, arr int[], r real, f double precision)`,
	`CREATE VIEW sales.big_orders AS
		SELECT o.id, c.email FROM sales.orders o JOIN customer c ON c.id = o.customer_id`,
	`CREATE MATERIALIZED VIEW order_totals AS
		SELECT order_id, sum(qty) AS qty FROM "Order Items" GROUP BY order_id`,
	`CREATE UNIQUE INDEX order_totals_order_id ON order_totals (order_id)`,
	`CREATE MATERIALIZED VIEW sales.pending AS SELECT 1 AS one WITH NO DATA`,
	`CREATE TABLE sales.events (id int, at date NOT NULL, kind text, PRIMARY KEY (id, at)) PARTITION BY RANGE (at)`,
	`CREATE TABLE sales.events_2023 PARTITION OF sales.events FOR VALUES FROM ('2023-01-01') TO ('2024-01-01')`,
	`CREATE TABLE sales.events_2024 PARTITION OF sales.events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')`,
	// A foreign key to a partitioned table: PostgreSQL adds one hidden
	// clone per partition, which must not show.
	`CREATE TABLE sales.event_notes (event_id int, event_at date, note text,
		FOREIGN KEY (event_id, event_at) REFERENCES sales.events (id, at))`,

	`INSERT INTO customer VALUES (1, 'a@x.org', 'Ann'), (2, 'b@x.org', 'Bob'), (3, 'c@x.org', NULL)`,
	`INSERT INTO "Order Items" VALUES (10, 1, 'S1', 2), (10, 2, 'S2', 1), (11, 1, 'S1', 5)`,
	`INSERT INTO sales.orders VALUES (10, 1, '2024-01-31'), (11, 2, '2024-02-01')`,
	`INSERT INTO sales.shipment_line VALUES (1, 10, 1), (1, 10, 2)`,
	`INSERT INTO "select" VALUES ('a', 1), ('b', 2)`,
	`INSERT INTO "say ""hi""" VALUES ('x', 1)`,
	`INSERT INTO "CamelCase" VALUES (1, 'one'), (2, 'two')`,
	`INSERT INTO types VALUES
		(1, 9000000000, 12.5, 'héllo', 'v', true, '2024-01-31', '2024-01-31 10:11:12.5+02',
		 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"b": [1, 2], "a": null}', '\x00ff10', '{1,2,3}', 1.1, 2.25),
		(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
	`INSERT INTO sales.events VALUES (1, '2023-05-01', 'a'), (2, '2024-05-01', 'b'), (3, '2024-06-01', 'c')`,
	`INSERT INTO sales.event_notes VALUES (1, '2023-05-01', 'n')`,
	`REFRESH MATERIALIZED VIEW order_totals`,
}

func open(t testing.TB, dsn string) *Source {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func tn(schema, name string) warehouse.TableName {
	return warehouse.TableName{Schema: schema, Name: name}
}

func col(pos int, name, typ string, nullable bool) warehouse.Column {
	return warehouse.Column{Name: name, Type: typ, Nullable: nullable, Position: pos}
}

func table(name warehouse.TableName, kind string, cols ...warehouse.Column) warehouse.Table {
	return warehouse.Table{Name: name, Kind: kind, Columns: cols, PrimaryKey: []string{},
		ForeignKeys: []warehouse.ForeignKey{}, Uniques: [][]string{}, Indexes: []warehouse.Index{}}
}

func ix(name string, unique bool, cols ...string) warehouse.Index {
	return warehouse.Index{Name: name, Columns: cols, Unique: unique}
}

// withDef is x with its definition and, after it, the predicate of a
// partial index.
func withDef(x warehouse.Index, def string, pred ...string) warehouse.Index {
	x.Definition = def
	if len(pred) > 0 {
		x.Predicate = pred[0]
	}
	return x
}

// fkNoAction is a foreign key that declares no actions, as PostgreSQL
// reports it.
func fkNoAction(fk warehouse.ForeignKey) warehouse.ForeignKey {
	fk.OnDelete, fk.OnUpdate = "NO ACTION", "NO ACTION"
	return fk
}

func wantTables() []warehouse.Table {
	camel := table(tn("", "CamelCase"), "table", col(1, "MixedCol", "integer", false), col(2, "after", "text", true))

	customer := table(tn("", "customer"), "table",
		col(1, "id", "integer", false), col(2, "email", "text", false), col(3, "name", "character varying(20)", true))
	customer.PrimaryKey, customer.PrimaryKeyName = []string{"id"}, "customer_pkey"
	customer.Uniques = [][]string{{"email"}}
	customer.Indexes = []warehouse.Index{
		withDef(ix("customer_email_key", true, "email"),
			"CREATE UNIQUE INDEX customer_email_key ON public.customer USING btree (email)"),
		withDef(ix("customer_email_lower", true, "lower(email)"),
			"CREATE UNIQUE INDEX customer_email_lower ON public.customer USING btree (lower(email))"),
		withDef(ix("customer_expr", false, "lower(name::text)", "id"),
			"CREATE INDEX customer_expr ON public.customer USING btree (lower((name)::text), id DESC)"),
		withDef(ix("customer_name_partial", false, "name"),
			"CREATE INDEX customer_name_partial ON public.customer USING btree (name) WHERE (name IS NOT NULL)",
			"name IS NOT NULL"),
		withDef(ix("customer_name_uniq_partial", true, "name"),
			"CREATE UNIQUE INDEX customer_name_uniq_partial ON public.customer USING btree (name) WHERE (id > 100)",
			"id > 100"),
		withDef(ix("customer_pkey", true, "id"), "CREATE UNIQUE INDEX customer_pkey ON public.customer USING btree (id)"),
	}

	items := table(tn("", "Order Items"), "table",
		col(1, "order_id", "bigint", false), col(2, "line", "integer", false),
		col(3, "sku", "text", true), col(4, "qty", "integer", true))
	items.PrimaryKey, items.PrimaryKeyName = []string{"order_id", "line"}, "Order Items_pkey"
	items.Indexes = []warehouse.Index{withDef(ix("Order Items_pkey", true, "order_id", "line"),
		`CREATE UNIQUE INDEX "Order Items_pkey" ON public."Order Items" USING btree (order_id, line)`)}

	totals := table(tn("", "order_totals"), "view", col(1, "order_id", "bigint", true), col(2, "qty", "bigint", true))
	totals.Uniques = [][]string{{"order_id"}}
	totals.Indexes = []warehouse.Index{withDef(ix("order_totals_order_id", true, "order_id"),
		"CREATE UNIQUE INDEX order_totals_order_id ON public.order_totals USING btree (order_id)")}
	totals.Definition = "SELECT \"Order Items\".order_id,\n    sum(\"Order Items\".qty) AS qty\n   FROM \"Order Items\"\n  GROUP BY \"Order Items\".order_id"
	totals.Reads = []warehouse.TableName{tn("", "Order Items")}
	totals.Materialized = true

	bigOrders := table(tn("sales", "big_orders"), "view", col(1, "id", "bigint", true), col(2, "email", "text", true))
	bigOrders.Definition = "SELECT o.id,\n    c.email\n   FROM sales.orders o\n     JOIN customer c ON c.id = o.customer_id"
	bigOrders.Reads = []warehouse.TableName{tn("", "customer"), tn("sales", "orders")}

	notes := table(tn("sales", "event_notes"), "table",
		col(1, "event_id", "integer", true), col(2, "event_at", "date", true), col(3, "note", "text", true))
	notes.ForeignKeys = []warehouse.ForeignKey{fkNoAction(warehouse.ForeignKey{Name: "event_notes_event_id_event_at_fkey",
		Columns: []string{"event_id", "event_at"}, RefTable: tn("sales", "events"), RefColumns: []string{"id", "at"}})}

	events := table(tn("sales", "events"), "table",
		col(1, "id", "integer", false), col(2, "at", "date", false), col(3, "kind", "text", true))
	events.PrimaryKey, events.PrimaryKeyName = []string{"id", "at"}, "events_pkey"
	events.Indexes = []warehouse.Index{withDef(ix("events_pkey", true, "id", "at"),
		"CREATE UNIQUE INDEX events_pkey ON ONLY sales.events USING btree (id, at)")}

	orders := table(tn("sales", "orders"), "table",
		col(1, "id", "bigint", false), col(2, "customer_id", "integer", true), col(3, "placed", "date", false))
	orders.PrimaryKey, orders.PrimaryKeyName = []string{"id"}, "orders_pkey"
	orders.ForeignKeys = []warehouse.ForeignKey{fkNoAction(warehouse.ForeignKey{Name: "orders_customer_id_fkey",
		Columns: []string{"customer_id"}, RefTable: tn("", "customer"), RefColumns: []string{"id"}})}
	orders.Indexes = []warehouse.Index{withDef(ix("orders_pkey", true, "id"),
		"CREATE UNIQUE INDEX orders_pkey ON sales.orders USING btree (id)")}

	ship := table(tn("sales", "shipment_line"), "table",
		col(1, "ship_id", "integer", true), col(2, "order_id", "bigint", true), col(3, "line", "integer", true))
	ship.ForeignKeys = []warehouse.ForeignKey{fkNoAction(warehouse.ForeignKey{Name: "shipment_line_item_fk",
		Columns: []string{"line", "order_id"}, RefTable: tn("", "Order Items"), RefColumns: []string{"line", "order_id"}})}

	hi := table(tn("", `say "hi"`), "table", col(1, "k", "text", false), col(2, "v", "integer", true))
	hi.PrimaryKey, hi.PrimaryKeyName = []string{"k"}, `say "hi"_pkey`
	hi.Indexes = []warehouse.Index{withDef(ix(`say "hi"_pkey`, true, "k"),
		`CREATE UNIQUE INDEX "say ""hi""_pkey" ON public."say ""hi""" USING btree (k)`)}

	sel := table(tn("", "select"), "table", col(1, "from", "text", true), col(2, "where", "integer", true))
	sel.Uniques = [][]string{{"from", "where"}, {"where"}}
	sel.Indexes = []warehouse.Index{
		withDef(ix("sel where", true, "where"), `CREATE UNIQUE INDEX "sel where" ON public."select" USING btree ("where")`),
		withDef(ix("select_from_where_key", true, "from", "where"),
			`CREATE UNIQUE INDEX select_from_where_key ON public."select" USING btree ("from", "where")`),
	}

	types := table(tn("", "types"), "table",
		col(1, "i", "integer", true), col(2, "b", "bigint", true), col(3, "n", "numeric(10,2)", true),
		col(4, "t", "text", true), col(5, "v", "character varying(20)", true), col(6, "ok", "boolean", true),
		col(7, "d", "date", true), col(8, "ts", "timestamp with time zone", true), col(9, "u", "uuid", true),
		col(10, "j", "jsonb", true), col(11, "raw", "bytea", true), col(12, "arr", "integer[]", true),
		col(13, "r", "real", true), col(14, "f", "double precision", true))

	return []warehouse.Table{camel, customer, items, totals, bigOrders, notes, events, orders, ship, hi, sel, types}
}

func TestTables(t *testing.T) {
	t.Parallel()
	db := newDB(t, fixture...)
	s := open(t, db.dsn)
	if s.Dialect().Name() != "postgres" || s.Database() != db.name {
		t.Errorf("Dialect, Database = %q, %q; want postgres, %q", s.Dialect().Name(), s.Database(), db.name)
	}
	got, err := s.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sourcetest.SameTables(t, got, wantTables())

	skipped, err := s.Skipped(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Table != tn("sales", "pending") ||
		skipped[0].Reason != "materialized view not populated (REFRESH MATERIALIZED VIEW needed)" {
		t.Errorf("Skipped = %+v; want sales.pending, not populated", skipped)
	}
}

// An empty database has no tables, and says so with an empty list.
func TestTablesEmpty(t *testing.T) {
	t.Parallel()
	s := open(t, newDB(t).dsn)
	got, err := s.Tables(context.Background())
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("Tables = %#v, %v; want an empty list", got, err)
	}
	sk, err := s.Skipped(context.Background())
	if err != nil || sk == nil || len(sk) != 0 {
		t.Errorf("Skipped = %#v, %v; want an empty list", sk, err)
	}
}

func TestQuote(t *testing.T) {
	s := &Source{}
	for in, want := range map[string]string{
		"plain":       `"plain"`,
		"CamelCase":   `"CamelCase"`,
		"select":      `"select"`,
		`say "hi"`:    `"say ""hi"""`,
		"Order Items": `"Order Items"`,
	} {
		if got := s.QuoteIdent(in); got != want {
			t.Errorf("QuoteIdent(%q) = %s, want %s", in, got, want)
		}
	}
	if got := s.QuoteTable(tn("", "Order Items")); got != `"Order Items"` {
		t.Errorf("QuoteTable(public) = %s", got)
	}
	if got := s.QuoteTable(tn("sales", `x"y`)); got != `"sales"."x""y"` {
		t.Errorf("QuoteTable(sales) = %s", got)
	}
}

// Foreign tables (relkind 'f', here file_fdw's) are listed as tables that
// are Foreign, not Stored, with their columns and comment; their row
// estimate is the wrapper's guess, never an exact count that would read
// what holds the rows (a file that is not there fails any read of it).
func TestForeignTables(t *testing.T) {
	t.Parallel()
	db := newDB(t,
		`CREATE EXTENSION file_fdw`,
		`CREATE SERVER files FOREIGN DATA WRAPPER file_fdw`,
		`CREATE FOREIGN TABLE readings (at date NOT NULL, value numeric) SERVER files
			OPTIONS (filename '/nonexistent/discover/readings.csv', format 'csv')`,
		`COMMENT ON FOREIGN TABLE readings IS 'the meter''s export'`,
		`CREATE TABLE plain (id int PRIMARY KEY)`)
	s := open(t, db.dsn)
	got, err := s.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	plain := table(tn("", "plain"), "table", col(1, "id", "integer", false))
	plain.PrimaryKey, plain.PrimaryKeyName = []string{"id"}, "plain_pkey"
	plain.Indexes = []warehouse.Index{{Name: "plain_pkey", Columns: []string{"id"}, Unique: true,
		Definition: "CREATE UNIQUE INDEX plain_pkey ON public.plain USING btree (id)"}}
	readings := table(tn("", "readings"), "table", col(1, "at", "date", false), col(2, "value", "numeric", true))
	readings.Foreign, readings.Comment = true, "the meter's export"
	sourcetest.SameTables(t, got, []warehouse.Table{plain, readings})
	if got[1].Stored() || !got[0].Stored() {
		t.Errorf("Stored: plain %v, readings %v; want true, false", got[0].Stored(), got[1].Stored())
	}
	if _, exact, err := s.EstimateRows(context.Background(), tn("", "readings")); err != nil || exact {
		t.Errorf("EstimateRows(readings) exact %v, %v; want the wrapper's estimate, no read", exact, err)
	}
	if _, err := s.RowCount(context.Background(), tn("", "readings")); err == nil {
		t.Error("counting a foreign table over a missing file succeeded")
	}
}
