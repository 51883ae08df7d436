package mysql

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"github.com/discover-db/discover/warehouse/internal/sourcetest"
	"slices"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// structureFixture declares every kind of structure beyond keys that
// MariaDB has. It has no partial or expression indexes, and a trigger
// fires on one event: the BEFORE INSERT OR UPDATE trigger is two.
var structureFixture = []string{
	`CREATE TABLE customer (
		id int AUTO_INCREMENT PRIMARY KEY,
		name varchar(20) NOT NULL DEFAULT 'new' COMMENT 'the "name"\nas it''s written',
		credit int DEFAULT 0 CHECK (credit >= 0),
		created timestamp NULL DEFAULT current_timestamp(),
		note varchar(20) DEFAULT NULL,
		quoted varchar(20) DEFAULT 'it''s \\ NULL',
		word varchar(20) DEFAULT 'NULL',
		email varchar(50),
		touched timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),
		CONSTRAINT credit_cap CHECK (credit < 1000),
		CHECK (length(name) > 1)
	) COMMENT 'People who ''buy'',\non two lines'`,
	`CREATE TABLE product (
		id int,
		price decimal(10,2) NOT NULL,
		gross decimal(10,2) AS (price * 1.2) STORED,
		half decimal(10,2) AS (price / 2) VIRTUAL,
		attrs json,
		PRIMARY KEY (id) COMMENT 'one row per product')`,
	`CREATE TABLE orders (
		id bigint PRIMARY KEY,
		customer_id int,
		product_id int,
		placed date,
		FOREIGN KEY (customer_id) REFERENCES customer (id) ON DELETE CASCADE ON UPDATE SET NULL,
		CONSTRAINT orders_product_fk FOREIGN KEY (product_id) REFERENCES product (id))`,
	// A row, so that SHOW CREATE TABLE writes customer's AUTO_INCREMENT=2,
	// a counter that is no structure and is left out.
	`INSERT INTO customer (name) VALUES ('ab')`,
	`CREATE INDEX orders_placed ON orders (placed) COMMENT 'orders by the day they were placed'`,
	`CREATE TRIGGER orders_touch BEFORE INSERT ON orders FOR EACH ROW SET NEW.placed = coalesce(NEW.placed, current_date)`,
	`CREATE TRIGGER orders_retouch BEFORE UPDATE ON orders FOR EACH ROW SET NEW.placed = coalesce(NEW.placed, OLD.placed)`,
	`CREATE VIEW order_lines AS SELECT o.id, c.name, p.price
		FROM orders o JOIN customer c ON c.id = o.customer_id JOIN product p ON p.id = o.product_id`,
	`CREATE VIEW big_order_lines AS SELECT id, name FROM order_lines WHERE price > 100`,
	`CREATE FUNCTION order_total(order_id bigint, discount decimal(10,2)) RETURNS decimal(10,2) DETERMINISTIC
		COMMENT 'what an order costs' RETURN 100 - discount`,
	`CREATE PROCEDURE reprice(IN factor decimal(10,2), OUT n int) SELECT count(*) INTO n FROM product WHERE price * factor > 0`,
	`CREATE PROCEDURE order_total() SELECT 1`,
}

func ptr(s string) *string { return &s }

func wantStructure(db string) []warehouse.Table {
	bigLines := table("big_order_lines", "view", cols("id bigint(20)", "name varchar(20)"))
	bigLines.Definition = "select `order_lines`.`id` AS `id`,`order_lines`.`name` AS `name` from `" + db +
		"`.`order_lines` where `order_lines`.`price` > 100"
	bigLines.Reads = []warehouse.TableName{{Name: "order_lines"}}

	customer := table("customer", "table", cols("id int(11)", "name varchar(20)", "credit int(11) null",
		"created timestamp null", "note varchar(20) null", "quoted varchar(20) null", "word varchar(20) null",
		"email varchar(50) null", "touched timestamp"))
	customer.Columns[0].Identity = "auto_increment"
	customer.Columns[1].Default = ptr("'new'")
	customer.Columns[1].Comment = "the \"name\"\nas it's written"
	customer.Columns[2].Default = ptr("0")
	customer.Columns[3].Default = ptr("current_timestamp()")
	customer.Columns[5].Default = ptr(`'it''s \\ NULL'`)
	customer.Columns[6].Default = ptr("'NULL'") // the string, not DEFAULT NULL
	customer.Columns[8].Default, customer.Columns[8].OnUpdate = ptr("current_timestamp()"), "current_timestamp()"
	customer.PrimaryKey, customer.PrimaryKeyName = []string{"id"}, "PRIMARY"
	customer.Comment = "People who 'buy',\non two lines"
	// As SHOW CREATE TABLE writes it, without AUTO_INCREMENT=2.
	customer.CreateStatement = "CREATE TABLE `customer` (\n  `id` int(11) NOT NULL AUTO_INCREMENT,\n  `name` varchar(20) NOT NULL DEFAULT 'new' COMMENT 'the \"name\"\\nas it''s written',\n  `credit` int(11) DEFAULT 0 CHECK (`credit` >= 0),\n  `created` timestamp NULL DEFAULT current_timestamp(),\n  `note` varchar(20) DEFAULT NULL,\n  `quoted` varchar(20) DEFAULT 'it''s \\\\ NULL',\n  `word` varchar(20) DEFAULT 'NULL',\n  `email` varchar(50) DEFAULT NULL,\n  `touched` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),\n  PRIMARY KEY (`id`),\n  CONSTRAINT `credit_cap` CHECK (`credit` < 1000),\n  CONSTRAINT `CONSTRAINT_1` CHECK (octet_length(`name`) > 1)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='People who ''buy'',\\non two lines'"
	customer.Checks = []warehouse.Check{
		{Name: "CONSTRAINT_1", Expression: "octet_length(`name`) > 1"},
		{Name: "credit", Expression: "`credit` >= 0"}, // a column's check, named after it
		{Name: "credit_cap", Expression: "`credit` < 1000"},
	}

	lines := table("order_lines", "view", cols("id bigint(20)", "name varchar(20)", "price decimal(10,2)"))
	lines.Definition = "select `o`.`id` AS `id`,`c`.`name` AS `name`,`p`.`price` AS `price` from ((`" + db +
		"`.`orders` `o` join `" + db + "`.`customer` `c` on(`c`.`id` = `o`.`customer_id`)) join `" + db +
		"`.`product` `p` on(`p`.`id` = `o`.`product_id`))"
	lines.Reads = []warehouse.TableName{{Name: "customer"}, {Name: "orders"}, {Name: "product"}}

	orders := table("orders", "table", cols("id bigint(20)", "customer_id int(11) null", "product_id int(11) null", "placed date null"))
	orders.PrimaryKey, orders.PrimaryKeyName = []string{"id"}, "PRIMARY"
	orders.CreateStatement = "CREATE TABLE `orders` (\n  `id` bigint(20) NOT NULL,\n  `customer_id` int(11) DEFAULT NULL,\n  `product_id` int(11) DEFAULT NULL,\n  `placed` date DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  KEY `customer_id` (`customer_id`),\n  KEY `orders_product_fk` (`product_id`),\n  KEY `orders_placed` (`placed`) COMMENT 'orders by the day they were placed',\n  CONSTRAINT `orders_ibfk_1` FOREIGN KEY (`customer_id`) REFERENCES `customer` (`id`) ON DELETE CASCADE ON UPDATE SET NULL,\n  CONSTRAINT `orders_product_fk` FOREIGN KEY (`product_id`) REFERENCES `product` (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	orders.ForeignKeys = []warehouse.ForeignKey{
		{Name: "orders_ibfk_1", Columns: []string{"customer_id"}, RefTable: warehouse.TableName{Name: "customer"},
			RefColumns: []string{"id"}, OnDelete: "CASCADE", OnUpdate: "SET NULL"},
		// InnoDB's NO ACTION is RESTRICT, and MariaDB says so.
		{Name: "orders_product_fk", Columns: []string{"product_id"}, RefTable: warehouse.TableName{Name: "product"},
			RefColumns: []string{"id"}, OnDelete: "RESTRICT", OnUpdate: "RESTRICT"},
	}
	orders.Indexes = []warehouse.Index{
		{Name: "customer_id", Columns: []string{"customer_id"}},
		{Name: "orders_placed", Columns: []string{"placed"}, Comment: "orders by the day they were placed"},
		{Name: "orders_product_fk", Columns: []string{"product_id"}},
	}
	orders.Triggers = []warehouse.Trigger{
		{Name: "orders_retouch", Timing: "BEFORE", Events: []string{"UPDATE"},
			Definition: "CREATE TRIGGER `orders_retouch` BEFORE UPDATE ON `orders` FOR EACH ROW SET NEW.placed = coalesce(NEW.placed, OLD.placed)"},
		{Name: "orders_touch", Timing: "BEFORE", Events: []string{"INSERT"},
			Definition: "CREATE TRIGGER `orders_touch` BEFORE INSERT ON `orders` FOR EACH ROW SET NEW.placed = coalesce(NEW.placed, current_date)"},
	}

	product := table("product", "table", cols("id int(11)", "price decimal(10,2)", "gross decimal(10,2) null",
		"half decimal(10,2) null", "attrs longtext null"))
	product.Columns[2].Generated, product.Columns[2].GeneratedStored = "`price` * 1.2", true
	product.Columns[3].Generated = "`price` / 2"
	product.PrimaryKey, product.PrimaryKeyName = []string{"id"}, "PRIMARY"
	product.ConstraintComments = map[string]string{"PRIMARY": "one row per product"}
	product.CreateStatement = "CREATE TABLE `product` (\n  `id` int(11) NOT NULL,\n  `price` decimal(10,2) NOT NULL,\n  `gross` decimal(10,2) GENERATED ALWAYS AS (`price` * 1.2) STORED,\n  `half` decimal(10,2) GENERATED ALWAYS AS (`price` / 2) VIRTUAL,\n  `attrs` longtext DEFAULT NULL CHECK (json_valid(`attrs`)),\n  PRIMARY KEY (`id`) COMMENT 'one row per product'\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	// MariaDB's JSON is longtext with a check it adds itself: declared all the same.
	product.Checks = []warehouse.Check{{Name: "attrs", Expression: "json_valid(`attrs`)"}}

	return []warehouse.Table{bigLines, customer, lines, orders, product}
}

// Tables reports defaults of each kind (a string, a number, a function,
// none for DEFAULT NULL, the string 'NULL' quoted), comments with quotes
// and line breaks, AUTO_INCREMENT, stored and virtual generated columns,
// foreign key actions, named, unnamed and column checks, triggers, and
// views with their queries and what they read.
func TestTablesStructure(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := createDB(t, admin, "st_")
	exec(t, adminDB(t, db), structureFixture...)
	got, err := open(t, rootDSN(t, db)).Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sourcetest.SameTables(t, got, wantStructure(db))
}

// A user with SELECT only still gets every table: MariaDB hides the view
// definitions (SHOW VIEW), the triggers (TRIGGER) and
// REFERENTIAL_CONSTRAINTS from it, so those fields and the foreign keys'
// actions are empty, and the rest is as root sees it.
func TestTablesStructureSelectOnly(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := createDB(t, admin, "st_")
	exec(t, adminDB(t, db), structureFixture...)
	b := make([]byte, 6)
	rand.Read(b)
	user := "s_" + hex.EncodeToString(b)
	for _, host := range []string{"%", "localhost", "127.0.0.1"} {
		u := "'" + user + "'@'" + host + "'"
		exec(t, admin, "CREATE USER "+u+" IDENTIFIED BY 'x'", "GRANT SELECT ON "+QuoteIdent(db)+".* TO "+u)
		t.Cleanup(func() {
			if _, err := admin.Exec("DROP USER IF EXISTS " + u); err != nil {
				t.Errorf("drop user %s: %v", u, err)
			}
		})
	}
	got, err := open(t, dsnFor(t, db, user, "x")).Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := wantStructure(db)
	for i := range want {
		want[i].Definition, want[i].Reads, want[i].Triggers = "", nil, nil
		for j := range want[i].ForeignKeys {
			want[i].ForeignKeys[j].OnDelete, want[i].ForeignKeys[j].OnUpdate = "", ""
		}
	}
	sourcetest.SameTables(t, got, want)
}

// Objects lists the stored functions and procedures with their parameters
// (a procedure's with their modes) and a function's result type; a
// function and a procedure may share a name. A user with SELECT only sees
// none of them: the server shows a routine to whoever may run it.
func TestObjects(t *testing.T) {
	t.Parallel()
	admin := adminDB(t, "")
	db := createDB(t, admin, "st_")
	exec(t, adminDB(t, db), structureFixture...)
	got, err := open(t, rootDSN(t, db)).Objects(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []warehouse.Routine{
		{Name: warehouse.TableName{Name: "order_total"}, Kind: "function", Arguments: "order_id bigint(20), discount decimal(10,2)",
			Returns: "decimal(10,2)", Language: "SQL", Comment: "what an order costs"},
		{Name: warehouse.TableName{Name: "order_total"}, Kind: "procedure", Language: "SQL"},
		{Name: warehouse.TableName{Name: "reprice"}, Kind: "procedure", Arguments: "IN factor decimal(10,2), OUT n int(11)", Language: "SQL"},
	}
	if len(got.Enums) != 0 || !slices.Equal(got.Routines, want) {
		t.Errorf("objects:\n got %+v\nwant routines %+v", got, want)
	}

	b := make([]byte, 6)
	rand.Read(b)
	user := "o_" + hex.EncodeToString(b)
	for _, host := range []string{"%", "localhost", "127.0.0.1"} {
		u := "'" + user + "'@'" + host + "'"
		exec(t, admin, "CREATE USER "+u+" IDENTIFIED BY 'x'", "GRANT SELECT ON "+QuoteIdent(db)+".* TO "+u)
		t.Cleanup(func() {
			if _, err := admin.Exec("DROP USER IF EXISTS " + u); err != nil {
				t.Errorf("drop user %s: %v", u, err)
			}
		})
	}
	got, err = open(t, dsnFor(t, db, user, "x")).Objects(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Routines) != 0 {
		t.Errorf("a user with SELECT only sees routines %+v", got.Routines)
	}
}

// MySQL writes a default string bare, MariaDB quoted: both come out as
// MariaDB writes it. DEFAULT NULL is no default on either.
func TestColumnDefault(t *testing.T) {
	null := sql.NullString{}
	v := func(s string) sql.NullString { return sql.NullString{String: s, Valid: true} }
	for _, c := range []struct {
		mariadb         bool
		def             sql.NullString
		dataType, extra string
		want            string // "<nil>" for none
	}{
		{false, v("new"), "varchar", "", "'new'"},
		{true, v("'new'"), "varchar", "", "'new'"},
		{false, v(`it's \ NULL`), "varchar", "", `'it''s \\ NULL'`},
		{true, v(`'it''s \\ NULL'`), "varchar", "", `'it''s \\ NULL'`},
		{false, v("NULL"), "varchar", "", "'NULL'"},
		{true, v("'NULL'"), "varchar", "", "'NULL'"},
		{false, null, "varchar", "", "<nil>"},
		{true, v("NULL"), "varchar", "", "<nil>"},
		{true, null, "int", "auto_increment", "<nil>"},
		{false, v("0"), "int", "", "0"},
		{true, v("0"), "int", "", "0"},
		{false, v("1.50"), "decimal", "", "1.50"},
		{false, v("CURRENT_TIMESTAMP"), "timestamp", "DEFAULT_GENERATED", "current_timestamp()"},
		{false, v("CURRENT_TIMESTAMP(3)"), "datetime", "DEFAULT_GENERATED on update CURRENT_TIMESTAMP(3)", "current_timestamp(3)"},
		{true, v("current_timestamp()"), "timestamp", "", "current_timestamp()"},
		{false, v("rand()"), "double", "DEFAULT_GENERATED", "rand()"},
		{false, v("uuid()"), "char", "DEFAULT_GENERATED", "uuid()"},
		{false, v("b'101'"), "bit", "", "b'101'"},
	} {
		got := fmt.Sprint(columnDefault(c.mariadb, c.def, c.dataType, c.extra))
		if d := columnDefault(c.mariadb, c.def, c.dataType, c.extra); d != nil {
			got = *d
		}
		if got != c.want {
			t.Errorf("columnDefault(mariadb %v, %q, %s, %q) = %s, want %s", c.mariadb, c.def.String, c.dataType, c.extra, got, c.want)
		}
	}
}

// MySQL writes ON UPDATE in EXTRA after DEFAULT_GENERATED and in capitals,
// MariaDB alone and as a call: both come out as MariaDB writes it.
func TestOnUpdate(t *testing.T) {
	for extra, want := range map[string]string{
		"":                              "",
		"auto_increment":                "",
		"DEFAULT_GENERATED":             "",
		"on update current_timestamp()": "current_timestamp()",
		"DEFAULT_GENERATED on update CURRENT_TIMESTAMP":    "current_timestamp()",
		"DEFAULT_GENERATED on update CURRENT_TIMESTAMP(3)": "current_timestamp(3)",
		"on update current_timestamp(6)":                   "current_timestamp(6)",
	} {
		if got := onUpdate(extra); got != want {
			t.Errorf("onUpdate(%q) = %q, want %q", extra, got, want)
		}
	}
}

// A view reads the tables its canonical definition names with the
// database; a column named like a table, an alias and another database's
// table are not reads.
func TestViewReads(t *testing.T) {
	known := map[string]bool{"orders": true, "customer": true, "gone": true}
	def := "select `o`.`customer` AS `customer`,`db`.`x`.`y` AS `y` from ((`db`.`orders` `o` join `db`.`customer` `c` on(`c`.`id` = `o`.`id`))" +
		" join `other`.`orders` `p` on(1)) join `db`.`unknown` `u` where `o`.`id` in (select `db`.`orders`.`id` from `db`.`orders`)"
	got := viewReads(def, "db", known)
	want := []warehouse.TableName{{Name: "customer"}, {Name: "orders"}}
	if !slices.Equal(got, want) {
		t.Errorf("viewReads = %v, want %v", got, want)
	}
}

// unwrap takes off MySQL's parentheses around a whole check clause only.
func TestUnwrap(t *testing.T) {
	for in, want := range map[string]string{
		"(`a` > 0)":                 "`a` > 0",
		"`a` > 0":                   "`a` > 0",
		"(`a` > 0) and (`b` > 0)":   "(`a` > 0) and (`b` > 0)",
		"((`a` > 0) and (`b` > 0))": "(`a` > 0) and (`b` > 0)",
		"(`a` in (1,2))":            "`a` in (1,2)",
	} {
		if got := warehouse.Unwrap(Grammar, in); got != want {
			t.Errorf("unwrap(%s) = %s, want %s", in, got, want)
		}
	}
}
