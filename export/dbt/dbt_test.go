package dbt

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/report"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func ptr[T any](v T) *T { return &v }

// col is a column whose profile counted every one of rows rows.
func col(name, typ string, nullable bool, rows int64, nulls float64, distinct int64) report.Column {
	return report.Column{Name: name, DataType: typ, Nullable: nullable, NullFraction: ptr(nulls),
		DistinctCount: ptr(distinct), ProfileRows: rows, TopValues: []report.ValueCount{}}
}

func semantic(c report.Column, typ string, values ...report.ValueCount) report.Column {
	c.SemanticType, c.SemanticConfidence = ptr(typ), ptr(0.9)
	c.TopValues = values
	return c
}

func vc(v string, n int64) report.ValueCount { return report.ValueCount{Value: v, Count: n} }

// invented is a report that holds each case the tests are decided on,
// under names a database may well have: capitals, spaces, quotes, Jinja.
func invented() *report.Report {
	declared := "declared"
	inferred := "inferred"
	r := &report.Report{
		Database: report.Database{Dialect: "postgres", Name: "shop"},
		Run:      report.Run{ID: "run-1"},
		Privacy:  &report.Privacy{ValuesMasked: true, Columns: 1},
	}
	orders := report.Table{Name: "orders", Kind: "table", RowCount: ptr(int64(100)), PrimaryKey: []string{"id"},
		PrimaryKeySource: &declared, Comment: "Orders {{ as the shop keeps them }}", UserComment: "One row per order.",
		Entity: &report.Entity{Type: "Order", Description: "One row per order (discover)."},
		Columns: []report.Column{
			col("id", "integer", false, 100, 0, 100),
			semantic(col("Status", "character varying(20)", true, 100, 0.1, 3), "enum",
				vc("paid", 50), vc("won't ship", 30), vc("new", 10)),
			col("customer_id", "integer", true, 100, 0, 40),
			semantic(col("priority", "integer", true, 100, 0, 2), "enum", vc("1", 60), vc("2", 40)),
			semantic(col("channel", "text", false, 100, 0, 3), "enum", vc("web", 60), vc("app", 30)), // one value not listed
			semantic(col("email", "text", false, 100, 0, 2), "enum", vc("a***@b***.com", 60), vc("c***@d***.com", 40)),
			semantic(col("code", "text", false, 100, 0, 100), "identifier"),
			col("note", "text", true, 100, 0, 7),
			col("customer_code", "text", false, 100, 0, 40),
			semantic(col("paid", "boolean", false, 100, 0, 2), "boolean", vc("true", 70), vc("false", 30)),
			semantic(col("tag", "text", false, 100, 0, 2), "enum", vc("{{ x }}", 70), vc("y", 30)),
		},
	}
	orders.Columns[2].Comment = "Who ordered."
	orders.Columns[5].PII = &report.PII{Category: "email"}
	orders.Columns[7].Default = ptr("'n/a'::text")
	customers := report.Table{Name: "Sales Ops.Customer List", Kind: "table", RowCount: ptr(int64(40)), PrimaryKey: []string{"id"},
		PrimaryKeySource: &inferred, Columns: []report.Column{
			col("id", "integer", true, 40, 0, 40),
			col("name", "text", true, 40, 0, 40),
		}}
	// A table larger than the sample: its figures are the sample's.
	events := report.Table{Name: "events", Kind: "table", RowCount: ptr(int64(1_000_000)), Columns: []report.Column{
		col("id", "bigint", false, 10_000, 0, 10_000),
		semantic(col("kind", "text", true, 10_000, 0, 2), "enum", vc("a", 6000), vc("b", 4000)),
		col("order_id", "integer", true, 10_000, 0, 90),
	}}
	events.Columns[0].ProfileSampled = true
	events.Columns[1].ProfileSampled = true
	events.Columns[2].ProfileSampled = true
	// A row count that is an estimate makes no figure whole.
	logs := report.Table{Name: "logs", Kind: "table", RowCount: ptr(int64(500)), RowCountIsEstimate: true, Columns: []report.Column{
		col("level", "text", true, 500, 0, 2),
	}}
	legs := report.Table{Name: "legs", Kind: "table", RowCount: ptr(int64(10)), PrimaryKey: []string{"order_id", "leg_no"},
		PrimaryKeySource: &declared, Columns: []report.Column{
			col("order_id", "integer", false, 10, 0, 5),
			col("leg_no", "integer", false, 10, 0, 2),
		}}
	hostile := report.Table{Name: `say "hi"`, Kind: "table", RowCount: ptr(int64(1)), Columns: []report.Column{col("x", "integer", false, 1, 0, 1)}}
	unread := report.Table{Name: "secret", Kind: "table", Columns: []report.Column{}, Unread: &report.Unread{What: "table", Reason: "permission denied"}}
	r.Tables = []report.Table{customers, events, hostile, legs, logs, orders, unread}
	r.Relationships = []report.Relationship{
		{FromTable: "events", FromColumns: []string{"order_id"}, ToTable: "orders", ToColumns: []string{"id"}, Source: "inferred",
			Confidence: 0.8, OrphanFraction: ptr(0.0),
			Evidence: []string{"checked: 0 of 10000 non-NULL references have no parent (on a sample of 10,000 rows of events) (hypothesis ref-aaaaaaaaaa)"}},
		{FromTable: "legs", FromColumns: []string{"order_id", "leg_no"}, ToTable: "legs", ToColumns: []string{"order_id", "leg_no"},
			Source: "declared", Confidence: 1, OrphanFraction: ptr(0.0), Evidence: []string{"declared"}},
		{FromTable: "orders", FromColumns: []string{"customer_id"}, ToTable: "Sales Ops.Customer List", ToColumns: []string{"id"},
			Source: "inferred", Confidence: 0.94, OrphanFraction: ptr(0.0),
			Evidence: []string{"name (entity)", "checked: 0 of 100 non-NULL references have no parent (hypothesis ref-bbbbbbbbbb)"}},
		{FromTable: "orders", FromColumns: []string{"customer_code"}, ToTable: "Sales Ops.Customer List", ToColumns: []string{"id"},
			Source: "inferred", Confidence: 0.9, OrphanFraction: ptr(0.0),
			Evidence: []string{"checked: 0 of 100 non-NULL references have no parent (hypothesis ref-dddddddddd)"}},
		{FromTable: "orders", FromColumns: []string{"note"}, ToTable: "Sales Ops.Customer List", ToColumns: []string{"name"},
			Source: "inferred", Confidence: 0.5, OrphanFraction: ptr(0.02),
			Evidence: []string{"checked: 2 of 100 non-NULL references have no parent (hypothesis ref-cccccccccc)"}},
	}
	r.Hypotheses = []report.Hypothesis{
		{ID: hypotheses.ID("rule", "unique", "Sales Ops.Customer List", "name"), Status: "confirmed",
			Statement: "Sales Ops.Customer List.name is unique in practice.", Evidence: []string{"40 non-NULL values, 40 distinct"}},
		// Tested on every row, though the profile read a sample.
		{ID: hypotheses.ID("rule", "never_null", "events", "order_id"), Status: "confirmed",
			Statement: "events.order_id is never NULL, though the schema allows NULL.", Evidence: []string{"1,000,000 rows, 1,000,000 non-NULL"}},
		// Tested on the sample: no test.
		{ID: hypotheses.ID("rule", "unique", "events", "order_id"), Status: "confirmed",
			Statement: "events.order_id is unique in practice.", Evidence: []string{"90 non-NULL values, 90 distinct", "tested on a sample of 10,000 rows of events"}},
		{ID: hypotheses.ID("rule", "never_null", "orders", "customer_id"), Status: "confirmed",
			Statement: "orders.customer_id is never NULL, though the schema allows NULL.", Evidence: []string{"100 rows, 100 non-NULL"}},
	}
	return r
}

func TestBuildTests(t *testing.T) {
	p, err := Build(invented())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tc := range p.Tests {
		got = append(got, fmt.Sprintf("%s %s.%s.%s", tc.Kind, tc.Source, tc.Table, tc.Column))
	}
	want := []string{
		// The team's key, inferred and confirmed by the exact profile; a
		// name a confirmed claim says is unique.
		"not_null sales_ops.customer_list.id",
		"unique sales_ops.customer_list.id",
		"not_null sales_ops.customer_list.name",
		"unique sales_ops.customer_list.name",
		// Only what is declared: the sample's figures make no test, and the
		// sampled check of events.order_id no reference.
		"not_null public.events.id",
		"not_null public.events.order_id", // a confirmed claim tested on every row
		"not_null public.legs.order_id",
		"not_null public.legs.leg_no",
		"not_null public.orders.id",
		"unique public.orders.id",
		"accepted_values public.orders.Status",
		"not_null public.orders.customer_id",
		"relationships public.orders.customer_id",
		"not_null public.orders.priority",
		"accepted_values public.orders.priority",
		"not_null public.orders.channel", // but no accepted_values: the values listed hold 90 of 100 rows
		"not_null public.orders.email",   // but no accepted_values: personal data, masked
		"not_null public.orders.code",
		"unique public.orders.code",
		"not_null public.orders.note",          // but no unique (7 distinct) and no reference (2% orphans)
		"not_null public.orders.customer_code", // but no reference: text to integers
		"not_null public.orders.paid",
		"accepted_values public.orders.paid",
		"not_null public.orders.tag", // but no accepted_values: a value dbt would render as Jinja
	}
	if !slices.Equal(got, want) {
		t.Errorf("tests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var files []string
	for _, f := range p.Files {
		files = append(files, f.Name+" "+f.Schema)
	}
	if want := []string{"sources_sales_ops.yml Sales Ops", "sources_public.yml public"}; !slices.Equal(files, want) {
		t.Errorf("files %q, want %q", files, want)
	}
}

// TestBuildGolden pins the whole output: names, quoting, descriptions and
// their source, the escaping of Jinja, each test's evidence.
func TestBuildGolden(t *testing.T) {
	p, err := Build(invented())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Files {
		golden := filepath.Join("testdata", f.Name)
		if *update {
			if err := os.WriteFile(golden, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(want) != string(f.Data) {
			t.Errorf("%s differs from %s (go test -update to accept):\n%s", f.Name, golden, f.Data)
		}
	}
}

func TestWriteRemovesOnlyItsStaleFiles(t *testing.T) {
	dir := t.TempDir()
	models := filepath.Join(dir, "models")
	if err := os.MkdirAll(models, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(models, "sources_gone.yml")
	theirs := filepath.Join(models, "sources_theirs.yml")
	os.WriteFile(stale, []byte(Header+"version: 2\n"), 0o644)
	os.WriteFile(theirs, []byte("version: 2\n"), 0o644)
	paths, err := Write(dir, invented())
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 {
		t.Errorf("wrote %q", paths)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale file of a schema gone is still there (%v)", err)
	}
	if _, err := os.Stat(theirs); err != nil {
		t.Errorf("a file discover did not write was removed: %v", err)
	}
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"plain {x} }}":  "plain {x} }}",
		"a {{ b }} c":   "a {{ '{{' }} b }} c",
		"{% if %}{#c#}": "{{ '{%' }} if %}{{ '{#' }}c#}",
		"{{{":           "{{ '{{' }}{",
	} {
		if got := text(in); got != want {
			t.Errorf("text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFamily(t *testing.T) {
	for in, want := range map[string]string{
		"integer": "integer", "BIGINT": "integer", "int(11) unsigned": "integer", "character varying(20)": "text",
		"VARCHAR": "text", "text": "text", "uuid": "uuid", "BOOLEAN": "boolean", "numeric(10,2)": "", "integer[]": "",
		"interval": "", "": "",
	} {
		if got := family(in); got != want {
			t.Errorf("family(%q) = %q, want %q", in, got, want)
		}
	}
}
