package load

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// oddSchema is a small SQLite database with what the demo lacks: a quoted
// table name, types SQLite accepts but the targets do not (mixed storage
// classes, NUMERIC with three decimals, untyped columns, DATE as text,
// BOOLEAN), a blob, a composite foreign key naming no columns, a reference
// whose column differs in case, orphans under a declared key, defaults, a
// unique index with DESC, texts differing only in case and trailing space
// under a UNIQUE constraint, and views that need their quoting translated,
// one of them declared before the view it reads.
const oddSchema = `
CREATE TABLE parent (a INTEGER, b TEXT, PRIMARY KEY (a, b));
CREATE TABLE "Odd Name" (
	id INTEGER PRIMARY KEY,
	a INTEGER,
	b TEXT,
	born DATE,
	money NUMERIC(10,2),
	ratio DECIMAL(8,3),
	flag BOOLEAN DEFAULT TRUE,
	mixed INTEGER,
	anything,
	payload BLOB,
	code TEXT NOT NULL DEFAULT 'x''y' UNIQUE,
	note TEXT DEFAULT (lower('A')),
	FOREIGN KEY (a, b) REFERENCES parent
);
CREATE UNIQUE INDEX odd_money_ratio ON "Odd Name" (money, ratio DESC);
CREATE TABLE child (id INTEGER PRIMARY KEY, odd_id INTEGER REFERENCES "Odd Name" (ID) ON DELETE CASCADE);
CREATE VIEW v2 AS SELECT * FROM v1;
CREATE VIEW v1 (ident, code) AS SELECT ` + "`id`" + `, [code] FROM "Odd Name";

INSERT INTO parent VALUES (1, 'p'), (2, 'q');
INSERT INTO "Odd Name" VALUES
	(1, 1, 'p', '2024-01-31', 19.99, 1.234, 1, 5, 2.5, x'00ff', 'k1', 'n'),
	(2, 2, 'q', '2023-12-01', 5, 0.5, 0, 'five', 3, NULL, 'k2', NULL);
INSERT INTO "Odd Name" (id, code) VALUES (3, 'k2 '), (4, 'K1');
INSERT INTO child VALUES (1, 1), (2, 99);
`

func oddDatabase(t *testing.T, schema string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "odd.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(schema); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadSchemaDecidesKindsFromData(t *testing.T) {
	src := openSource(t, oddDatabase(t, oddSchema))
	s, err := readSchema(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, tb := range s.tables {
		order = append(order, tb.name)
	}
	if want := []string{"parent", "Odd Name", "child"}; !slices.Equal(order, want) {
		t.Errorf("creation order %v, want %v", order, want)
	}
	odd := s.tables[1]
	want := map[string]string{
		"id": "int keyed", "a": "int keyed", "b": "text keyed", "born": "text", "money": "decimal keyed",
		"ratio": "float keyed", "flag": "int", "mixed": "text", "anything": "float", "payload": "blob",
		"code": "text keyed", "note": "text",
	}
	for _, c := range odd.cols {
		got := c.kind.String()
		if c.keyed {
			got += " keyed"
		}
		if got != want[c.name] {
			t.Errorf("%s: %s, want %s", c.name, got, want[c.name])
		}
	}
	if c := odd.column("mixed"); !c.castText {
		t.Error("mixed: numbers among texts are not read as text")
	}
	if fk := odd.fks[0]; fk.parent != "parent" || !slices.Equal(fk.parentCols, []string{"a", "b"}) {
		t.Errorf("composite key without columns resolved to %+v", fk)
	}
	if fk := s.tables[2].fks[0]; fk.parent != "Odd Name" || !slices.Equal(fk.parentCols, []string{"id"}) {
		t.Errorf("reference to ID resolved to %+v", fk)
	}
	if !slices.EqualFunc(odd.uniques, [][]string{{"code"}}, slices.Equal) {
		t.Errorf("uniques %v", odd.uniques)
	}
	if len(odd.indexes) != 1 || odd.indexes[0].name != "odd_money_ratio" || !slices.Equal(odd.indexes[0].desc, []bool{false, true}) {
		t.Errorf("indexes %+v", odd.indexes)
	}
	if odd.buffered != nil {
		t.Error("a table with numbers read as text was buffered")
	}
	if p := s.tables[0]; len(p.buffered) != 4 {
		t.Errorf("parent buffered %d values, want 4", len(p.buffered))
	}
}

func TestCopyOddDatabase(t *testing.T) {
	for _, dialect := range []string{postgres, mysql} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			path := oddDatabase(t, oddSchema)
			dsn, db := freshDatabase(t, dialect, "load_odd")
			if err := Copy(t.Context(), path, dialect, dsn); err != nil {
				t.Fatal(err)
			}

			types := map[string]string{}
			for _, r := range queryRows(t, db, "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'Odd Name' AND table_schema = "+inspector{dialect: dialect}.schema()) {
				types[r[0]] = strings.ToLower(r[1])
			}
			want := map[string]string{
				"id": "bigint", "a": "bigint", "b": "text", "born": "text", "money": "numeric", "ratio": "double precision",
				"flag": "bigint", "mixed": "text", "anything": "double precision", "payload": "bytea", "code": "text", "note": "text",
			}
			if dialect == mysql {
				for c, typ := range map[string]string{"b": "varchar", "money": "decimal", "ratio": "double", "anything": "double", "payload": "longblob", "code": "varchar"} {
					want[c] = typ
				}
			}
			for c, typ := range want {
				if types[c] != typ {
					t.Errorf("%s is %s, want %s", c, types[c], typ)
				}
			}

			hex := "encode(payload, 'hex')"
			if dialect == mysql {
				hex = "LOWER(HEX(payload))"
			}
			got := queryRows(t, db, `SELECT id, a, b, born, money, ratio, flag, mixed, anything, `+hex+`, code, note FROM "Odd Name" ORDER BY id`)
			wantRows := [][]string{
				{"1", "1", "p", "2024-01-31", "19.99", "1.234", "1", "5", "2.5", "00ff", "k1", "n"},
				{"2", "2", "q", "2023-12-01", "5.00", "0.5", "0", "five", "3", "", "k2", ""},
				{"3", "", "", "", "", "", "1", "", "", "", "k2 ", "a"},
				{"4", "", "", "", "", "", "1", "", "", "", "K1", "a"},
			}
			if !slices.EqualFunc(got, wantRows, slices.Equal) {
				t.Errorf("rows\n got %q\nwant %q", got, wantRows)
			}

			in := inspector{db: db, dialect: dialect}
			if got, want := in.foreignKeys(t), []string{"Odd Name.a→parent.a", "Odd Name.b→parent.b", "child.odd_id→Odd Name.id"}; !slices.Equal(got, want) {
				t.Errorf("foreign keys %v, want %v", got, want)
			}
			if got := in.keys(t, "UNIQUE")["Odd Name"]; !slices.EqualFunc(got, [][]string{{"code"}, {"money", "ratio"}}, slices.Equal) &&
				!slices.EqualFunc(got, [][]string{{"code"}}, slices.Equal) {
				t.Errorf("unique constraints %v", got)
			}
			// MySQL lists a unique index among the constraints too, so ask
			// for every index.
			q := "SELECT indexname FROM pg_indexes WHERE tablename = 'Odd Name'"
			if dialect == mysql {
				q = "SELECT index_name FROM information_schema.statistics WHERE table_name = 'Odd Name' AND table_schema = DATABASE()"
			}
			if got := queryRows(t, db, q); !slices.ContainsFunc(got, func(r []string) bool { return r[0] == "odd_money_ratio" }) {
				t.Errorf("indexes %v lack odd_money_ratio", got)
			}
			if _, views := in.tablesAndViews(t); !slices.Equal(views, []string{"v1", "v2"}) {
				t.Errorf("views %v", views)
			}
			if got := queryRows(t, db, `SELECT ident, code FROM v2 ORDER BY ident`); len(got) != 4 || got[3][1] != "K1" {
				t.Errorf("v2 reads %q", got)
			}

			// Literal defaults survive; the expression default does not.
			if _, err := db.Exec(`INSERT INTO "Odd Name" (id) VALUES (10)`); err != nil {
				t.Fatal(err)
			}
			if got := queryRows(t, db, `SELECT flag, code, note FROM "Odd Name" WHERE id = 10`); !slices.Equal(got[0], []string{"1", "x'y", ""}) {
				t.Errorf("defaults %q", got[0])
			}
		})
	}
}

func TestCopyNamesTheViewThatDoesNotRun(t *testing.T) {
	for _, dialect := range []string{postgres, mysql} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			path := oddDatabase(t, `
				CREATE TABLE t (x TEXT);
				INSERT INTO t VALUES ('2024-01-01');
				CREATE VIEW fine AS SELECT x FROM t;
				CREATE VIEW julian_days AS SELECT julianday(x) AS j FROM t;`)
			dsn, _ := freshDatabase(t, dialect, "load_badview")
			err := Copy(t.Context(), path, dialect, dsn)
			if err == nil || !strings.Contains(err.Error(), `view "julian_days"`) {
				t.Fatalf("Copy = %v, want an error naming view julian_days", err)
			}
			t.Logf("%v", err)
		})
	}
}

func TestMySQLConfig(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"mysql://root:discover@127.0.0.1:33069/discover_test", "root:discover@tcp(127.0.0.1:33069)/discover_test"},
		{"mysql://u:p%40ss@db.example/shop?tls=skip-verify", "u:p@ss@tcp(db.example:3306)/shop?tls=skip-verify"},
		{"mysql://u@[::1]:3307/x", "u@tcp([::1]:3307)/x"},
	} {
		cfg, err := mysqlConfig(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := cfg.FormatDSN(); got != c.want {
			t.Errorf("%s: %s, want %s", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"postgres://x@h/db", "mysql:///db", "root:pw@tcp(h:1)/db"} {
		if _, err := mysqlConfig(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestCreateDatabaseRefusesOddNames(t *testing.T) {
	for _, name := range []string{"", "a-b", "x; DROP DATABASE y", "1abc", strings.Repeat("a", 64)} {
		if _, _, err := CreateDatabase(context.Background(), postgres, "postgres://h/db", name); err == nil {
			t.Errorf("%q accepted", name)
		}
	}
}

func TestSplitView(t *testing.T) {
	for _, c := range []struct {
		def, cols, body string
	}{
		{"CREATE VIEW v AS SELECT 1", "", "SELECT 1"},
		{"create temp view if not exists main.\"v x\" (a, \"b\") as\n-- c\nselect 1, 2;", "a,b", "select 1, 2"},
		{"CREATE VIEW [v] AS /* as */ SELECT 'AS' AS x", "", "SELECT 'AS' AS x"},
	} {
		cols, body, err := splitView(c.def)
		if err != nil {
			t.Errorf("%q: %v", c.def, err)
			continue
		}
		if strings.Join(cols, ",") != c.cols || body != c.body {
			t.Errorf("%q: cols %q body %q, want %q %q", c.def, cols, body, c.cols, c.body)
		}
	}
	if got := standardQuotes("SELECT `a``b`, [c d], \"e\", '`f`' FROM t"); got != `SELECT "a`+"`"+`b", "c d", "e", '`+"`f`"+`' FROM t` {
		t.Errorf("standardQuotes: %s", got)
	}
}
