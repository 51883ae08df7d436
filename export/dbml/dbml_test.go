package dbml

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/report"
)

var update = flag.Bool("update", false, "rewrite the golden file")

func ptr[T any](v T) *T { return &v }

// hostile is a report whose names and comments hold what DBML gives a
// meaning to: quotes of both kinds, backslashes, line breaks, backticks.
func hostile() *report.Report {
	declared, inferred := "declared", "inferred"
	oneToOne := "one_to_one"
	weird := `weird "name"\path`
	return &report.Report{
		Database: report.Database{Dialect: "postgres", Name: `shop's "db"`},
		Run:      report.Run{ID: "run-1"},
		Tables: []report.Table{
			{Name: weird, Kind: "table", PrimaryKey: []string{"id"}, PrimaryKeySource: &declared,
				UserComment: "The team's table.", Comment: "Database\ncomment",
				Uniques: [][]string{{"label"}, {"Mixed Case", "flag"}},
				Indexes: []report.Index{{Name: "ix_label", Columns: []string{"label"}}, {Name: "ix_expr", Columns: []string{"lower(label)"}}},
				Columns: []report.Column{
					{Name: "id", DataType: "integer", Default: ptr("nextval('weird_id_seq'::regclass)")},
					{Name: "Mixed Case", DataType: "character varying(20)", Nullable: true, UserComment: `it's "ours"`, Comment: `C:\temp`},
					{Name: "tick`", DataType: "", Nullable: true, Default: ptr("`x`")},
					{Name: "flag", DataType: "boolean", Default: ptr("TRUE")},
					{Name: "label", DataType: "text", Default: ptr("'it''s'"), Identity: ""},
					{Name: "amount", DataType: "numeric(10,2)", Nullable: true, Default: ptr("-1.5")},
					{Name: "state", DataType: "status", Enum: "status"},
					{Name: "states", DataType: "status[]", Nullable: true, Enum: "status"},
				}},
			{Name: "Sales Ops.Targets", Kind: "table", PrimaryKey: []string{"Region", "year"}, PrimaryKeySource: &declared,
				Entity: &report.Entity{Type: "Target", Description: "One row per target."},
				Columns: []report.Column{{Name: "Region", DataType: "text"}, {Name: "year", DataType: "integer"},
					{Name: "tier", DataType: `"Sales Ops".tier`, Enum: "Sales Ops.tier"}}},
			{Name: "legs", Kind: "table", PrimaryKey: []string{"order_id"}, PrimaryKeySource: &inferred,
				Columns: []report.Column{{Name: "order_id", DataType: "integer", Nullable: true}, {Name: "leg_no", DataType: "integer", Nullable: true}}},
			{Name: "leg_totals", Kind: "view", Columns: []report.Column{{Name: "order_id", DataType: "integer", Nullable: true}}},
			{Name: "secret", Kind: "table", Columns: []report.Column{}, Unread: &report.Unread{What: "table", Reason: "denied"}},
		},
		Enums: []report.Enum{
			{Name: "status", Labels: []string{"new", `it's "odd"`, `a\b`}},
			{Name: "Sales Ops.tier", Labels: []string{"gold"}},
			{Name: "empty", Labels: []string{}}, // PostgreSQL allows one: no DBML enum
		},
		Relationships: []report.Relationship{
			{FromTable: "legs", FromColumns: []string{"order_id", "leg_no"}, ToTable: "Sales Ops.Targets", ToColumns: []string{"year", "Region"},
				Source: "declared", Confidence: 1, OrphanFraction: ptr(0.0), ConstraintName: `fk "legs"`, OnDelete: "CASCADE", OnUpdate: "NO ACTION"},
			{FromTable: "legs", FromColumns: []string{"order_id"}, ToTable: weird, ToColumns: []string{"id"},
				Source: "inferred", Confidence: 0.94, OrphanFraction: ptr(0.0125), Cardinality: &oneToOne},
			// The same two ends the other way round: DBML refuses it.
			{FromTable: weird, FromColumns: []string{"id"}, ToTable: "legs", ToColumns: []string{"order_id"}, Source: "inferred", Confidence: 0.5},
			// An end that is not written: the unread table.
			{FromTable: "secret", FromColumns: []string{"x"}, ToTable: "legs", ToColumns: []string{"order_id"}, Source: "inferred", Confidence: 0.9},
			{FromTable: "leg_totals", FromColumns: []string{"order_id"}, ToTable: "legs", ToColumns: []string{"order_id"}, Source: "inferred", Confidence: 0.9},
		},
	}
}

func TestWriteGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, hostile()); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "schema.dbml")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("schema.dbml differs from %s (go test -update to accept):\n%s", golden, b.String())
	}
}

// parsed is what testdata/parse.js prints of a DBML file.
type parsed struct {
	Enums []struct {
		Schema, Name string
		Values       []string
	}
	Tables []struct {
		Schema, Name, Note string
		Fields             []struct {
			Name, Type, Default, Note string
			TypeSchema                string `json:"type_schema"`
			PK, Unique                bool
			NotNull                   bool `json:"not_null"`
		}
		Indexes []struct {
			Columns    []string
			Kinds      []string // "column" or "expression", each part's
			PK, Unique bool
			Name, Note string
		}
	}
	Refs []struct {
		Name, OnDelete string
		Endpoints      []struct {
			Schema, Table, Relation string
			Fields                  []string
		}
	}
}

// Parse reads a DBML file with the real parser, @dbml/core, installed by
// .ci/run in the folder DISCOVER_TEST_DBML names: in CI a missing parser
// fails the test.
func Parse(t *testing.T, path string) parsed {
	t.Helper()
	dir := os.Getenv("DISCOVER_TEST_DBML")
	if dir == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DISCOVER_TEST_DBML not set: .ci/run installs @dbml/core and sets it")
		}
		t.Skip("DISCOVER_TEST_DBML not set: the folder @dbml/core is installed in (see .ci/run)")
	}
	_, self, _, _ := runtime.Caller(0)
	cmd := exec.Command("node", filepath.Join(filepath.Dir(self), "testdata", "parse.js"), path)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("@dbml/core refuses %s: %v\n%s", path, err, stderr.String())
	}
	var p parsed
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("parse.js: %v\n%s", err, out)
	}
	return p
}

// writeParsed writes r as DBML into a file and reads it back with
// @dbml/core (Parse); it returns what the parser read and the text.
func writeParsed(t *testing.T, r *report.Report) (parsed, *bytes.Buffer) {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "schema.dbml")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return Parse(t, path), &b
}

func TestDBMLParsesHostileNames(t *testing.T) {
	p, _ := writeParsed(t, hostile())
	var tables []string
	for _, tb := range p.Tables {
		tables = append(tables, tb.Schema+"|"+tb.Name)
	}
	slices.Sort(tables)
	if want := []string{"Sales Ops|Targets", "public|leg_totals", "public|legs", `public|weird "name"\path`}; !slices.Equal(tables, want) {
		t.Fatalf("tables %q, want %q", tables, want)
	}
	for _, tb := range p.Tables {
		if tb.Name != `weird "name"\path` {
			continue
		}
		if tb.Note != "The team's table.\nDatabase comment: Database\ncomment" {
			t.Errorf("table note %q", tb.Note)
		}
		got := map[string]string{}
		for _, f := range tb.Fields {
			got[f.Name] = f.Type + " " + f.Default + " " + f.Note
			if f.Name == "id" && (!f.PK || !f.NotNull) || f.Name == "label" && !f.Unique {
				t.Errorf("%s: pk %v, not null %v, unique %v", f.Name, f.PK, f.NotNull, f.Unique)
			}
		}
		want := map[string]string{
			"id":         "integer expression:nextval('weird_id_seq'::regclass) ",
			"Mixed Case": "character varying(20)  it's \"ours\"\nDatabase comment: C:\\temp",
			"tick`":      "unknown  default: `x`",
			"flag":       "boolean boolean:true ",
			"label":      "text string:it's ",
			"amount":     "numeric(10,2) number:-1.5 ",
			// A column of an enumerated type names its Enum block; an
			// array of one keeps its own type.
			"state":  "status  ",
			"states": "status[]  ",
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("column %q read back as %q, want %q", k, got[k], v)
			}
		}
		if len(tb.Indexes) != 3 || !tb.Indexes[0].Unique || !slices.Equal(tb.Indexes[0].Columns, []string{"Mixed Case", "flag"}) ||
			!slices.Equal(tb.Indexes[1].Columns, []string{"label"}) ||
			!slices.Equal(tb.Indexes[2].Columns, []string{"lower(label)"}) || !slices.Equal(tb.Indexes[2].Kinds, []string{"expression"}) {
			t.Errorf("indexes %+v", tb.Indexes)
		}
	}
	var enums []string
	for _, e := range p.Enums {
		enums = append(enums, fmt.Sprintf("%s|%s|%q", e.Schema, e.Name, e.Values))
	}
	slices.Sort(enums)
	if want := []string{`Sales Ops|tier|["gold"]`, `public|status|["new" "it's \"odd\"" "a\\b"]`}; !slices.Equal(enums, want) {
		t.Errorf("enums %q, want %q", enums, want)
	}
	for _, tb := range p.Tables {
		for _, f := range tb.Fields {
			if f.Name == "tier" && (f.TypeSchema != "Sales Ops" || f.Type != "tier") {
				t.Errorf("tier's type read back as %q.%q", f.TypeSchema, f.Type)
			}
		}
	}
	if len(p.Refs) != 3 {
		t.Fatalf("%d refs, want 3: %+v", len(p.Refs), p.Refs)
	}
	var composite bool
	for _, r := range p.Refs {
		if r.Name == `fk "legs"` {
			composite = r.OnDelete == "cascade" && slices.Equal(r.Endpoints[0].Fields, []string{"order_id", "leg_no"}) &&
				r.Endpoints[1].Schema == "Sales Ops" && slices.Equal(r.Endpoints[1].Fields, []string{"year", "Region"})
		}
	}
	if !composite {
		t.Errorf("the composite reference read back as %+v", p.Refs)
	}
}

// TestDBMLIndexComments: the database's comment on an index is the
// index's note, which the real parser reads back whole, quotes,
// backslashes and line breaks included; the index of the key or of a
// unique constraint, otherwise left to the columns' settings, is written
// when it has a comment to carry, and not when it has none.
func TestDBMLIndexComments(t *testing.T) {
	declared := "declared"
	hard := "it's the \"label\" index: C:\\temp\\\nsecond line\twith a tab"
	r := &report.Report{
		Database: report.Database{Dialect: "postgres", Name: "shop"},
		Tables: []report.Table{{
			Name: "parcels", Kind: "table", PrimaryKey: []string{"id"}, PrimaryKeySource: &declared,
			Uniques: [][]string{{"code"}},
			Indexes: []report.Index{
				{Name: "parcels_pkey", Columns: []string{"id"}, Unique: true, Comment: "the key's index"},
				{Name: "parcels_code_key", Columns: []string{"code"}, Unique: true},
				{Name: "ix_label", Columns: []string{"label"}, Comment: hard},
				{Name: "ix_both", Columns: []string{"label", "code"}, Comment: `'\'`},
				{Name: "ix_plain", Columns: []string{"code", "label"}},
			},
			Columns: []report.Column{{Name: "id", DataType: "integer"}, {Name: "code", DataType: "text"}, {Name: "label", DataType: "text", Nullable: true}},
		}},
	}
	p, b := writeParsed(t, r)
	if len(p.Tables) != 1 {
		t.Fatalf("tables %+v", p.Tables)
	}
	var got []string
	for _, ix := range p.Tables[0].Indexes {
		got = append(got, fmt.Sprintf("%q %s unique=%v note=%q", ix.Columns, ix.Name, ix.Unique, ix.Note))
	}
	want := []string{
		`["id"] parcels_pkey unique=true note="the key's index"`,
		fmt.Sprintf(`["label"] ix_label unique=false note=%q`, hard),
		`["label" "code"] ix_both unique=false note="'\\'"`,
		`["code" "label"] ix_plain unique=false note=""`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("indexes read back:\n%s\nwant\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), b.String())
	}
}

// Expression and partial indexes, which the file used to leave out: an
// expression between backticks, a partial index's condition in its note
// and not unique (its columns are unique only among those rows), and an
// index DBML cannot hold (an expression with a backtick, one the engine
// did not give) in the table's note by its definition.
func TestDBMLExpressionAndPartialIndexes(t *testing.T) {
	declared := "declared"
	r := &report.Report{
		Database: report.Database{Dialect: "postgres", Name: "shop"},
		Tables: []report.Table{{
			Name: "users", Kind: "table", PrimaryKey: []string{"id"}, PrimaryKeySource: &declared,
			Indexes: []report.Index{
				{Name: "users_lower_email", Columns: []string{"lower(email)"}, Unique: true, Comment: "one account per address"},
				{Name: "users_active_email", Columns: []string{"email"}, Unique: true, Predicate: "(deleted_at IS NULL)"},
				{Name: "users_org_name", Columns: []string{"org_id", "upper((name)::text)"}, Predicate: "org_id > 0"},
				{Name: "users_tick", Columns: []string{"(name || '`')"},
					Definition: "CREATE INDEX users_tick ON public.users USING btree (((name || '`'::text)))"},
				{Name: "users_unknown", Columns: []string{"<expr>"}, Unique: true},
			},
			Columns: []report.Column{{Name: "id", DataType: "integer"}, {Name: "email", DataType: "text"},
				{Name: "name", DataType: "text"}, {Name: "org_id", DataType: "integer"}, {Name: "deleted_at", DataType: "timestamp", Nullable: true}},
		}},
	}
	p, b := writeParsed(t, r)
	if len(p.Tables) != 1 {
		t.Fatalf("tables %+v", p.Tables)
	}
	// @dbml/core lists an index's expressions before its columns, so the
	// parts are compared as a set here, and their order in the file below.
	var got []string
	for _, ix := range p.Tables[0].Indexes {
		var parts []string
		for i, c := range ix.Columns {
			parts = append(parts, ix.Kinds[i]+" "+c)
		}
		slices.Sort(parts)
		got = append(got, fmt.Sprintf("%q %s unique=%v note=%q", parts, ix.Name, ix.Unique, ix.Note))
	}
	want := []string{
		`["expression lower(email)"] users_lower_email unique=true note="one account per address"`,
		`["column email"] users_active_email unique=false note="Partial: only the rows where (deleted_at IS NULL), among which it is unique."`,
		`["column org_id" "expression upper((name)::text)"] users_org_name unique=false note="Partial: only the rows where org_id > 0."`,
	}
	if line := "(\"org_id\", `upper((name)::text)`)"; !strings.Contains(b.String(), line) {
		t.Errorf("no %s in\n%s", line, b.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("indexes read back:\n%s\nwant\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), b.String())
	}
	wantNote := "Index: CREATE INDEX users_tick ON public.users USING btree (((name || '`'::text)))\n" +
		"Unique index users_unknown on (<expr>)"
	if n := p.Tables[0].Note; n != wantNote {
		t.Errorf("table note %q, want %q", n, wantNote)
	}
}
