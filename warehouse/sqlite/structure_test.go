package sqlite

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// structureSchema declares every piece of structure SQLite keeps beyond
// keys, with text written to mislead a reader that does not tokenize:
// strings holding ')', ',' and CHECK, quoted identifiers named like
// keywords, comments holding a CHECK.
var structureSchema = []string{
	`CREATE TABLE shop (
		id INTEGER CONSTRAINT pk_shop PRIMARY KEY AUTOINCREMENT,
		name TEXT NOT NULL DEFAULT 'unnamed, (really)' CHECK (length(name) > 0),
		opened DATE DEFAULT CURRENT_TIMESTAMP, -- CHECK (this is a comment)
		"CHECK" TEXT DEFAULT ('a' || 'b'),
		CONSTRAINT "name ok" CHECK (name <> 'CHECK (x)' AND name NOT IN (')', '('))
	)`,
	`CREATE TABLE orders (
		id INTEGER PRIMARY KEY,
		shop_id INTEGER NOT NULL CONSTRAINT fk_shop REFERENCES shop (id) ON DELETE CASCADE,
		status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'paid', 'shipped')),
		qty INTEGER DEFAULT -1,
		price REAL DEFAULT NULL, -- no default, as on every engine
		total REAL GENERATED ALWAYS AS (qty * price) STORED,
		label TEXT AS (upper(status) || ')') VIRTUAL,
		parent_id INTEGER,
		CHECK (qty <> 0),
		CONSTRAINT fk_parent FOREIGN KEY (parent_id) REFERENCES orders ON UPDATE SET NULL ON DELETE RESTRICT
	)`,
	`CREATE INDEX orders_open ON orders (shop_id, lower(status)) WHERE status <> 'shipped'`,
	`CREATE UNIQUE INDEX orders_label ON orders (label)`,
	`CREATE TABLE "odd ""name""" (k TEXT, v INTEGER CHECK ("v" >= 0), PRIMARY KEY (k)) WITHOUT ROWID`,
	`CREATE TABLE counter (n INTEGER, PRIMARY KEY (n AUTOINCREMENT))`,
	`CREATE TRIGGER orders_paid AFTER UPDATE OF status ON orders
		WHEN new.status = 'paid' BEGIN UPDATE shop SET name = name WHERE id = new.shop_id; END`,
	`CREATE TRIGGER orders_guard BEFORE INSERT ON orders BEGIN SELECT RAISE(ABORT, 'no ) here'); END`,
	`CREATE TRIGGER plain DELETE ON shop BEGIN DELETE FROM orders WHERE shop_id = old.id; END`,
	`CREATE VIEW open_orders (id, shop) AS SELECT o.id, s.name FROM orders AS o JOIN "shop" s ON s.id = o.shop_id WHERE o.status <> 'shipped'`,
	`CREATE VIEW busy AS SELECT shop, (SELECT count(*) FROM counter) AS n FROM main.open_orders, "odd ""name""" WHERE shop IN (SELECT name FROM shop)`,
	`CREATE TRIGGER busy_write INSTEAD OF INSERT ON busy BEGIN SELECT 1; END`,
}

func TestTablesStructure(t *testing.T) {
	m := tableMap(t, open(t, build(t, "structure.db", structureSchema...)))
	str := func(s string) *string { return &s }
	want := map[string]warehouse.Table{
		"shop": {
			Name: warehouse.TableName{Name: "shop"}, Kind: "table",
			Columns: []warehouse.Column{
				{Name: "id", Type: "INTEGER", Position: 1, Identity: "auto_increment"},
				{Name: "name", Type: "TEXT", Position: 2, Default: str("'unnamed, (really)'")},
				{Name: "opened", Type: "DATE", Nullable: true, Position: 3, Default: str("CURRENT_TIMESTAMP")},
				{Name: "CHECK", Type: "TEXT", Nullable: true, Position: 4, Default: str("'a' || 'b'")},
			},
			PrimaryKey: []string{"id"}, PrimaryKeyName: "pk_shop",
			// The statement as written, comments included: tbls's Table Definition.
			CreateStatement: structureSchema[0],
			ForeignKeys:     []warehouse.ForeignKey{}, Uniques: [][]string{}, Indexes: []warehouse.Index{},
			Checks: []warehouse.Check{
				{Expression: "length(name) > 0"},
				{Name: "name ok", Expression: "name <> 'CHECK (x)' AND name NOT IN (')', '(')"},
			},
			Triggers: []warehouse.Trigger{{Name: "plain", Timing: "BEFORE", Events: []string{"DELETE"},
				Definition: `CREATE TRIGGER plain DELETE ON shop BEGIN DELETE FROM orders WHERE shop_id = old.id; END`}},
		},
		"orders": {
			Name: warehouse.TableName{Name: "orders"}, Kind: "table",
			Columns: []warehouse.Column{
				{Name: "id", Type: "INTEGER", Position: 1},
				{Name: "shop_id", Type: "INTEGER", Position: 2},
				{Name: "status", Type: "TEXT", Position: 3, Default: str("'new'")},
				{Name: "qty", Type: "INTEGER", Nullable: true, Position: 4, Default: str("-1")},
				{Name: "price", Type: "REAL", Nullable: true, Position: 5},
				{Name: "total", Type: "REAL", Nullable: true, Position: 6, Generated: "qty * price", GeneratedStored: true},
				{Name: "label", Type: "TEXT", Nullable: true, Position: 7, Generated: "upper(status) || ')'"},
				{Name: "parent_id", Type: "INTEGER", Nullable: true, Position: 8},
			},
			PrimaryKey: []string{"id"},
			ForeignKeys: []warehouse.ForeignKey{
				{Name: "fk_shop", Columns: []string{"shop_id"}, RefTable: warehouse.TableName{Name: "shop"}, RefColumns: []string{"id"},
					OnDelete: "CASCADE", OnUpdate: "NO ACTION"},
				{Name: "fk_parent", Columns: []string{"parent_id"}, RefTable: warehouse.TableName{Name: "orders"}, RefColumns: []string{"id"},
					OnDelete: "RESTRICT", OnUpdate: "SET NULL"},
			},
			Uniques: [][]string{{"label"}},
			Indexes: []warehouse.Index{
				{Name: "orders_label", Columns: []string{"label"}, Unique: true,
					Definition: `CREATE UNIQUE INDEX orders_label ON orders (label)`},
				{Name: "orders_open", Columns: []string{"shop_id", "lower(status)"}, Predicate: "status <> 'shipped'",
					Definition: `CREATE INDEX orders_open ON orders (shop_id, lower(status)) WHERE status <> 'shipped'`},
			},
			Checks: []warehouse.Check{
				{Expression: "status IN ('new', 'paid', 'shipped')"},
				{Expression: "qty <> 0"},
			},
			CreateStatement: structureSchema[1],
			Triggers: []warehouse.Trigger{
				{Name: "orders_guard", Timing: "BEFORE", Events: []string{"INSERT"}, Definition: structureSchema[7]},
				{Name: "orders_paid", Timing: "AFTER", Events: []string{"UPDATE"}, Definition: structureSchema[6]},
			},
		},
		`odd "name"`: {
			Name: warehouse.TableName{Name: `odd "name"`}, Kind: "table",
			Columns: []warehouse.Column{
				{Name: "k", Type: "TEXT", Position: 1},
				{Name: "v", Type: "INTEGER", Nullable: true, Position: 2},
			},
			PrimaryKey:  []string{"k"},
			ForeignKeys: []warehouse.ForeignKey{}, Uniques: [][]string{}, Indexes: []warehouse.Index{},
			Checks:          []warehouse.Check{{Expression: `"v" >= 0`}},
			CreateStatement: structureSchema[4],
		},
		"counter": {
			Name: warehouse.TableName{Name: "counter"}, Kind: "table",
			Columns:         []warehouse.Column{{Name: "n", Type: "INTEGER", Position: 1, Identity: "auto_increment"}},
			CreateStatement: structureSchema[5],
			PrimaryKey:      []string{"n"},
			ForeignKeys:     []warehouse.ForeignKey{}, Uniques: [][]string{}, Indexes: []warehouse.Index{},
		},
		"open_orders": {
			Name: warehouse.TableName{Name: "open_orders"}, Kind: "view",
			Columns: []warehouse.Column{
				{Name: "id", Type: "INTEGER", Nullable: true, Position: 1},
				{Name: "shop", Type: "TEXT", Nullable: true, Position: 2},
			},
			PrimaryKey: []string{}, ForeignKeys: []warehouse.ForeignKey{}, Uniques: [][]string{}, Indexes: []warehouse.Index{},
			Definition: `SELECT o.id, s.name FROM orders AS o JOIN "shop" s ON s.id = o.shop_id WHERE o.status <> 'shipped'`,
			Reads:      []warehouse.TableName{{Name: "orders"}, {Name: "shop"}},
		},
		"busy": {
			Name: warehouse.TableName{Name: "busy"}, Kind: "view",
			Columns: []warehouse.Column{
				{Name: "shop", Type: "TEXT", Nullable: true, Position: 1},
				{Name: "n", Type: "", Nullable: true, Position: 2},
			},
			PrimaryKey: []string{}, ForeignKeys: []warehouse.ForeignKey{}, Uniques: [][]string{}, Indexes: []warehouse.Index{},
			Definition: `SELECT shop, (SELECT count(*) FROM counter) AS n FROM main.open_orders, "odd ""name""" WHERE shop IN (SELECT name FROM shop)`,
			// shop is read by the subquery of the WHERE; the column named
			// shop in the select list is no read.
			Reads: []warehouse.TableName{{Name: "counter"}, {Name: `odd "name"`}, {Name: "open_orders"}, {Name: "shop"}},
			Triggers: []warehouse.Trigger{{Name: "busy_write", Timing: "INSTEAD OF", Events: []string{"INSERT"},
				Definition: structureSchema[11]}},
		},
	}
	for name, w := range want {
		got, ok := m[name]
		if !ok {
			t.Errorf("%s: not listed", name)
			continue
		}
		if !reflect.DeepEqual(got, w) {
			g, _ := json.MarshalIndent(got, "", "  ")
			e, _ := json.MarshalIndent(w, "", "  ")
			t.Errorf("%s =\n%s\nwant\n%s", name, g, e)
		}
	}
}

// The text readers on their own, with input that is not what they expect:
// no guess is made where the text does not read.
func TestStructureTextOddities(t *testing.T) {
	for _, c := range []struct{ def, want string }{
		{`CREATE INDEX i ON t (a)`, ""},
		{`CREATE INDEX i ON t (a) WHERE a > 0;`, "a > 0"},
		{`CREATE INDEX i ON t (a) WHERE "where" = ') WHERE x'`, `"where" = ') WHERE x'`},
		{`CREATE INDEX i ON t ('unterminated`, ""},
	} {
		if got := indexPredicate(c.def); got != c.want {
			t.Errorf("indexPredicate(%q) = %q, want %q", c.def, got, c.want)
		}
	}
	for _, c := range []struct{ def, want string }{
		{`CREATE VIEW v AS SELECT 1`, "SELECT 1"},
		{`CREATE VIEW IF NOT EXISTS "as" (a, "AS") AS SELECT 'AS' AS a, 2`, `SELECT 'AS' AS a, 2`},
		{`CREATE VIEW v AS`, ""},
	} {
		if got := warehouse.ViewQuery(Grammar, c.def); got != c.want {
			t.Errorf("viewQuery(%q) = %q, want %q", c.def, got, c.want)
		}
	}
	// CREATE TABLE … AS SELECT declares no constraint, whatever the query says.
	if ct := parseCreateTable(`CREATE TABLE t AS SELECT 1 AS a, (SELECT 2) AS b`); len(ct.checks) != 0 || len(ct.generated) != 0 {
		t.Errorf("CREATE TABLE AS = %+v, want nothing", ct)
	}
	if ct := parseCreateTable(`CREATE TABLE t (a CHECK (a > 'x`); len(ct.checks) != 0 {
		t.Errorf("unterminated text = %+v, want nothing", ct)
	}
	if _, ok := parseTrigger("x", `CREATE TRIGGER x`); ok {
		t.Error("a trigger text without ON read as a trigger")
	}
}
