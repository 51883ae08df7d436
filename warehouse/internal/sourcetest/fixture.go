package sourcetest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// Class is the kind of a fixture column's type, as every engine has one.
type Class string

// The classes the fixture uses. Each engine spells them its own way
// (Spelling.Types) and reports them its own way (classPattern).
const (
	Int       Class = "int"
	Text      Class = "text"
	Decimal   Class = "decimal" // two decimals, precision 10
	Date      Class = "date"
	Timestamp Class = "timestamp" // without a time zone
	Blob      Class = "blob"
	Double    Class = "double"
	Bool      Class = "bool"
)

// Classes lists every class, for a Spelling to cover.
var Classes = []Class{Int, Text, Decimal, Date, Timestamp, Blob, Double, Bool}

// classPattern is what Tables may report as the declared type of a column
// of each class, on any engine (information_schema spellings, MariaDB's
// display widths, Trino's precisions).
var classPattern = map[Class]*regexp.Regexp{
	Int:       regexp.MustCompile(`(?i)^(integer|int|int4|int8|bigint|int\(\d+\))$`),
	Text:      regexp.MustCompile(`(?i)^(text|string|varchar|varchar\(\d+\)|character varying(\(\d+\))?)$`),
	Decimal:   regexp.MustCompile(`(?i)^(decimal|numeric)\(10, ?2\)$`),
	Date:      regexp.MustCompile(`(?i)^date$`),
	Timestamp: regexp.MustCompile(`(?i)^(timestamp|timestamp\(\d\)|timestamp without time zone|datetime)$`),
	Blob:      regexp.MustCompile(`(?i)^(blob|bytea|varbinary|longblob|binary)$`),
	Double:    regexp.MustCompile(`(?i)^(double|double precision|float8|real)$`),
	Bool:      regexp.MustCompile(`(?i)^(boolean|bool|tinyint\(1\))$`),
}

// Column is one column of a fixture table.
type Column struct {
	Name    string
	Class   Class
	NotNull bool
}

// Table is one table or view of the fixture, with the values its rows hold
// as Query returns them on an engine with no switch set (see Harness).
type Table struct {
	Name        string
	Kind        string // "table" or "view"
	Columns     []Column
	PrimaryKey  []string
	Uniques     [][]string
	ForeignKeys []warehouse.ForeignKey
	View        string // the view's SELECT, in SQL every engine reads (names quoted by Spelling.Quote)
	Rows        [][]any
}

// Fixture is the database every engine's conformance test builds, in the
// order Tables must list it (sorted by name): names that need quoting (a
// space, a reserved word, a double quote), a composite primary key and a
// composite foreign key, a unique constraint, a view, NULLs, and one
// column of every class with values that cross the drivers' conversions
// (a UTF-8 text, a blob with a zero and a 0xff byte, an exact decimal).
var Fixture = []Table{
	{
		Name: "big orders", Kind: "view",
		Columns: []Column{{Name: "id", Class: Int}, {Name: "email", Class: Text}},
		View:    `SELECT o.id, c.email FROM orders AS o JOIN customer AS c ON c.id = o.customer_id`,
		Rows:    [][]any{{int64(10), "a@x.org"}, {int64(11), "b@x.org"}},
	},
	{
		Name: "customer", Kind: "table",
		Columns:    []Column{{"id", Int, true}, {"email", Text, true}, {"name", Text, false}},
		PrimaryKey: []string{"id"},
		Uniques:    [][]string{{"email"}},
		Rows: [][]any{
			{int64(1), "a@x.org", "Ann"},
			{int64(2), "b@x.org", "Bob"},
			{int64(3), "c@x.org", nil},
		},
	},
	{
		Name: "order items", Kind: "table",
		Columns:    []Column{{"order_id", Int, true}, {"line", Int, true}, {"sku", Text, false}, {"qty", Int, false}},
		PrimaryKey: []string{"order_id", "line"},
		Rows: [][]any{
			{int64(10), int64(1), "S1", int64(2)},
			{int64(10), int64(2), "S2", int64(1)},
			{int64(11), int64(1), "S1", int64(5)},
		},
	},
	{
		Name: "orders", Kind: "table",
		Columns: []Column{
			{"id", Int, true}, {"customer_id", Int, false}, {"amount", Decimal, false}, {"placed", Date, false},
			{"paid", Timestamp, false}, {"photo", Blob, false}, {"memo", Text, false}, {"score", Double, false},
			{"ok", Bool, false},
		},
		PrimaryKey: []string{"id"},
		ForeignKeys: []warehouse.ForeignKey{{
			Columns: []string{"customer_id"}, RefTable: warehouse.TableName{Name: "customer"}, RefColumns: []string{"id"},
		}},
		Rows: [][]any{
			{int64(10), int64(1), "12.50", "2024-01-31", "2024-01-31 10:11:12", []byte{0x00, 0xff, 0x10}, "héllo", 2.5, true},
			{int64(11), int64(2), "5.25", "2024-02-01", nil, nil, "plain", nil, false},
		},
	},
	{
		Name: `say "hi"`, Kind: "table",
		Columns:    []Column{{"k", Text, true}, {"v", Int, false}},
		PrimaryKey: []string{"k"},
		Rows:       [][]any{{"x", int64(1)}},
	},
	{
		Name: "select", Kind: "table",
		Columns: []Column{{"from", Text, false}, {"where", Int, false}},
		Uniques: [][]string{{"from", "where"}},
		Rows:    [][]any{{"a", int64(1)}, {"b", int64(2)}},
	},
	{
		Name: "shipment_line", Kind: "table",
		Columns: []Column{{"ship_id", Int, false}, {"order_id", Int, false}, {"line", Int, false}},
		ForeignKeys: []warehouse.ForeignKey{{
			Columns: []string{"order_id", "line"}, RefTable: warehouse.TableName{Name: "order items"},
			RefColumns: []string{"order_id", "line"},
		}},
		Rows: [][]any{{int64(1), int64(10), int64(1)}, {int64(1), int64(10), int64(2)}},
	},
}

// FixtureTable returns the fixture's table called name.
func FixtureTable(name string) Table {
	for _, t := range Fixture {
		if t.Name == name {
			return t
		}
	}
	panic("sourcetest: no fixture table " + name)
}

// Spelling is how an engine writes the fixture's DDL and literals.
type Spelling struct {
	Quote func(ident string) string
	Types map[Class]string // the type to declare for each class
	// Blob writes a blob literal (x'00ff10', '\x00ff10'::bytea, …).
	Blob func(b []byte) string
	// Bool writes a boolean literal; nil writes TRUE and FALSE.
	Bool func(v bool) string
	// Timestamp writes a timestamp literal; nil writes a quoted string.
	Timestamp func(v string) string
	// Date writes a date literal; nil writes a quoted string (Trino casts
	// no string to a date on INSERT).
	Date func(v string) string
	// NoConstraints leaves out PRIMARY KEY, UNIQUE and FOREIGN KEY: the
	// engine cannot declare them (Trino's memory connector).
	NoConstraints bool
}

// Statements is the fixture as DDL and INSERTs in sp's spelling, parents
// before children, views last.
func Statements(sp Spelling) []string {
	var out []string
	order := []string{"customer", "order items", "orders", "shipment_line", "select", `say "hi"`}
	for _, name := range order {
		t := FixtureTable(name)
		var defs []string
		for _, c := range t.Columns {
			typ, ok := sp.Types[c.Class]
			if !ok {
				panic(fmt.Sprintf("sourcetest: no type for class %s", c.Class))
			}
			d := sp.Quote(c.Name) + " " + typ
			if c.NotNull {
				d += " NOT NULL"
			}
			defs = append(defs, d)
		}
		if len(t.PrimaryKey) > 0 && !sp.NoConstraints {
			defs = append(defs, "PRIMARY KEY ("+quoteAll(sp, t.PrimaryKey)+")")
		}
		for _, u := range t.Uniques {
			if !sp.NoConstraints {
				defs = append(defs, "UNIQUE ("+quoteAll(sp, u)+")")
			}
		}
		for _, fk := range t.ForeignKeys {
			if !sp.NoConstraints {
				defs = append(defs, "FOREIGN KEY ("+quoteAll(sp, fk.Columns)+") REFERENCES "+sp.Quote(fk.RefTable.Name)+
					" ("+quoteAll(sp, fk.RefColumns)+")")
			}
		}
		out = append(out, "CREATE TABLE "+sp.Quote(t.Name)+" ("+strings.Join(defs, ", ")+")")
		var rows []string
		for _, r := range t.Rows {
			var vals []string
			for i, v := range r {
				vals = append(vals, literal(sp, t.Columns[i].Class, v))
			}
			rows = append(rows, "("+strings.Join(vals, ", ")+")")
		}
		out = append(out, "INSERT INTO "+sp.Quote(t.Name)+" VALUES "+strings.Join(rows, ", "))
	}
	for _, t := range Fixture {
		if t.Kind == "view" {
			out = append(out, "CREATE VIEW "+sp.Quote(t.Name)+" AS "+t.View)
		}
	}
	return out
}

func quoteAll(sp Spelling, names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = sp.Quote(n)
	}
	return strings.Join(q, ", ")
}

func literal(sp Spelling, c Class, v any) string {
	if v == nil {
		return "NULL"
	}
	switch x := v.(type) {
	case []byte:
		return sp.Blob(x)
	case bool:
		if sp.Bool != nil {
			return sp.Bool(x)
		}
		if x {
			return "TRUE"
		}
		return "FALSE"
	case int64:
		return fmt.Sprint(x)
	case float64:
		return fmt.Sprint(x)
	case string:
		if c == Decimal {
			return x
		}
		if c == Timestamp && sp.Timestamp != nil {
			return sp.Timestamp(x)
		}
		if c == Date && sp.Date != nil {
			return sp.Date(x)
		}
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	}
	panic(fmt.Sprintf("sourcetest: no literal for %T", v))
}

// SelectSQL is the statement the suite reads a fixture table with: every
// column by its quoted name, in order, sorted by all of them.
func SelectSQL(s interface {
	QuoteIdent(string) string
	QuoteTable(warehouse.TableName) string
}, name warehouse.TableName, columns []string) string {
	q := make([]string, len(columns))
	order := make([]string, len(columns))
	for i, c := range columns {
		q[i] = s.QuoteIdent(c)
		order[i] = fmt.Sprint(i + 1)
	}
	return "SELECT " + strings.Join(q, ", ") + " FROM " + s.QuoteTable(name) + " ORDER BY " + strings.Join(order, ", ")
}

// ColumnNames lists t's column names.
func (t Table) ColumnNames() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}

// SameTables fails t unless got is want, table by table: each compared
// as its JSON, so that a difference shows as the fields that differ.
func SameTables(t *testing.T, got, want []warehouse.Table) {
	t.Helper()
	if len(got) != len(want) {
		var names []string
		for _, g := range got {
			names = append(names, g.Name.String())
		}
		t.Fatalf("tables = %q, want %d tables", names, len(want))
	}
	for i := range want {
		g, _ := json.MarshalIndent(got[i], "", "  ")
		w, _ := json.MarshalIndent(want[i], "", "  ")
		if string(g) != string(w) {
			t.Errorf("table %s:\n got %s\nwant %s", want[i].Name, g, w)
		}
	}
}
