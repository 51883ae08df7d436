package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// diffBase is a small report with one of everything Diff compares. Each call
// returns a fresh copy, so a test can change one thing and diff.
func diffBase() *Report {
	return &Report{
		SchemaVersion: 1,
		Tables: []Table{
			{
				Name: "customers", Kind: "table", RowCount: ptr[int64](1000),
				PrimaryKey: []string{"id"}, PrimaryKeySource: ptr("declared"),
				Columns: []Column{
					{Name: "id", DataType: "INTEGER", DistinctCount: ptr[int64](1000), NullFraction: ptr(0.0)},
					{Name: "email", DataType: "TEXT", Nullable: true, NullFraction: ptr(0.10), DistinctCount: ptr[int64](900)},
					{
						Name: "status", DataType: "TEXT", NullFraction: ptr(0.0), DistinctCount: ptr[int64](2),
						SemanticType: ptr("enum"),
						TopValues:    []ValueCount{{Value: "active", Count: 800}, {Value: "closed", Count: 200}},
					},
					{
						Name: "tier", DataType: "TEXT", DistinctCount: ptr[int64](12), SemanticType: ptr("enum"),
						TopValues: []ValueCount{{Value: "gold"}, {Value: "silver"}}, // truncated list
					},
					{Name: "age", DataType: "INTEGER", Anomalies: []Anomaly{{Kind: "outlier"}}},
				},
			},
			{
				Name: "orders", Kind: "table", RowCount: ptr[int64](5000),
				PrimaryKey: []string{"id"}, PrimaryKeySource: ptr("declared"),
				Columns: []Column{
					{Name: "id", DataType: "INTEGER"},
					{Name: "customer_id", DataType: "INTEGER"},
				},
			},
			{Name: "active_customers", Kind: "view", Columns: []Column{{Name: "id", DataType: "INTEGER"}}},
		},
		Relationships: []Relationship{{
			FromTable: "orders", FromColumns: []string{"customer_id"},
			ToTable: "customers", ToColumns: []string{"id"},
			Source: "declared", Cardinality: ptr("one_to_many"),
		}},
	}
}

func table(r *Report, name string) *Table {
	for i := range r.Tables {
		if r.Tables[i].Name == name {
			return &r.Tables[i]
		}
	}
	panic("no table " + name)
}

func col(r *Report, tbl, name string) *Column {
	t := table(r, tbl)
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	panic("no column " + name)
}

// summary is one "category kind object" line per change, for comparing.
func summary(res *DiffResult) []string {
	var out []string
	for _, c := range res.Changes {
		out = append(out, c.Category+" "+c.Kind+" "+c.Object)
	}
	return out
}

func TestDiffIdentical(t *testing.T) {
	res := Diff(diffBase(), diffBase(), DefaultDiffOptions())
	if res.Drift || len(res.Changes) != 0 {
		t.Fatalf("identical reports differ: %+v", res)
	}
	var b bytes.Buffer
	res.Render(&b)
	if b.String() != "no drift\n" {
		t.Fatalf("render: %q", b.String())
	}
	b.Reset()
	res.WriteJSON(&b)
	if strings.TrimSpace(b.String()) != "{\n  \"drift\": false,\n  \"changes\": []\n}" {
		t.Fatalf("json: %s", b.String())
	}
}

func TestDiffEachKind(t *testing.T) {
	cases := []struct {
		name string
		edit func(r *Report)
		want []string // summary lines
		msg  string   // a phrase of the first change's message
	}{
		{"table added", func(r *Report) {
			r.Tables = append(r.Tables, Table{Name: "payments", Kind: "table", Columns: []Column{{Name: "id"}}})
		}, []string{"schema added payments"}, "table payments added (1 columns)"},
		{"table removed", func(r *Report) {
			r.Tables = slices.DeleteFunc(r.Tables, func(t Table) bool { return t.Name == "active_customers" })
		}, []string{"schema removed active_customers"}, "view active_customers removed"},
		{"view became table", func(r *Report) { table(r, "active_customers").Kind = "table" },
			[]string{"schema changed active_customers"}, "from view to table"},
		{"column added", func(r *Report) {
			t := table(r, "orders")
			t.Columns = append(t.Columns, Column{Name: "total", DataType: "REAL", Nullable: true})
		}, []string{"schema added orders.total"}, "column orders.total added (REAL, nullable)"},
		{"column removed", func(r *Report) {
			t := table(r, "orders")
			t.Columns = t.Columns[:1]
		}, []string{"schema removed orders.customer_id"}, "column orders.customer_id removed"},
		{"type changed", func(r *Report) { col(r, "orders", "customer_id").DataType = "TEXT" },
			[]string{"schema changed orders.customer_id"}, "type changed from INTEGER to TEXT"},
		{"type case only", func(r *Report) { col(r, "orders", "customer_id").DataType = "integer" }, nil, ""},
		{"nullability", func(r *Report) { col(r, "orders", "customer_id").Nullable = true },
			[]string{"schema changed orders.customer_id"}, "from NOT NULL to nullable"},
		{"primary key", func(r *Report) { table(r, "orders").PrimaryKey = []string{"id", "customer_id"} },
			[]string{"schema changed orders"}, "primary key changed from (id) to (id, customer_id)"},
		{"primary key source", func(r *Report) { table(r, "orders").PrimaryKeySource = ptr("inferred") },
			[]string{"schema changed orders"}, "primary key (id) is now inferred (was declared)"},
		{"relationship removed", func(r *Report) { r.Relationships = nil },
			[]string{"relationships removed orders(customer_id)->customers(id)"}, "removed (was declared, one_to_many)"},
		{"relationship added", func(r *Report) {
			r.Relationships = append(r.Relationships, Relationship{
				FromTable: "orders", FromColumns: []string{"id"}, ToTable: "customers", ToColumns: []string{"id"}, Source: "inferred",
			})
		}, []string{"relationships added orders(id)->customers(id)"}, "added (inferred)"},
		{"relationship source", func(r *Report) { r.Relationships[0].Source = "inferred" },
			[]string{"relationships changed orders(customer_id)->customers(id)"}, "source changed from declared to inferred"},
		{"relationship cardinality", func(r *Report) { r.Relationships[0].Cardinality = ptr("one_to_one") },
			[]string{"relationships changed orders(customer_id)->customers(id)"}, "cardinality changed from one_to_many to one_to_one"},
		{"cardinality unmeasured", func(r *Report) { r.Relationships[0].Cardinality = nil }, nil, ""},
		{"rows +50%", func(r *Report) { table(r, "orders").RowCount = ptr[int64](7500) },
			[]string{"stats changed orders"}, "orders row count 5000 -> 7500 (+50.0%)"},
		{"rows +5%", func(r *Report) { table(r, "orders").RowCount = ptr[int64](5250) }, nil, ""},
		{"rows -20%", func(r *Report) { table(r, "orders").RowCount = ptr[int64](4000) },
			[]string{"stats changed orders"}, "(-20.0%)"},
		{"rows unknown", func(r *Report) { table(r, "orders").RowCount = nil }, nil, ""},
		{"nulls +0.2", func(r *Report) { col(r, "customers", "email").NullFraction = ptr(0.30) },
			[]string{"stats changed customers.email"}, "NULL fraction 0.100 -> 0.300"},
		{"nulls exactly at threshold", func(r *Report) { col(r, "customers", "email").NullFraction = ptr(0.15) }, nil, ""},
		{"distinct +20%", func(r *Report) { col(r, "customers", "email").DistinctCount = ptr[int64](1080) },
			[]string{"stats changed customers.email"}, "distinct count 900 -> 1080 (+20.0%)"},
		{"distinct +5%", func(r *Report) { col(r, "customers", "email").DistinctCount = ptr[int64](945) }, nil, ""},
		{"new enum value", func(r *Report) {
			c := col(r, "customers", "status")
			c.TopValues = append(c.TopValues, ValueCount{Value: "frozen", Count: 1})
		}, []string{"stats added customers.status"}, `customers.status new values: "frozen"`},
		{"new value in truncated list", func(r *Report) {
			c := col(r, "customers", "tier")
			c.TopValues = append(c.TopValues, ValueCount{Value: "bronze"})
		}, nil, ""},
		{"new anomaly kind", func(r *Report) {
			c := col(r, "customers", "age")
			c.Anomalies = append(c.Anomalies, Anomaly{Kind: "outlier", Description: "more"}, Anomaly{Kind: "future_date", Description: "3 dates after today"})
		}, []string{"stats added customers.age"}, "customers.age new anomaly future_date: 3 dates after today"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := diffBase()
			c.edit(n)
			res := Diff(diffBase(), n, DefaultDiffOptions())
			if got := summary(res); !slices.Equal(got, c.want) {
				t.Fatalf("changes %q, want %q\n%+v", got, c.want, res.Changes)
			}
			if res.Drift != (len(c.want) > 0) {
				t.Fatalf("drift %v with %d changes", res.Drift, len(c.want))
			}
			if len(c.want) > 0 && !strings.Contains(res.Changes[0].Message, c.msg) {
				t.Fatalf("message %q lacks %q", res.Changes[0].Message, c.msg)
			}
		})
	}
}

func TestDiffThresholdsAndFailOn(t *testing.T) {
	n := diffBase()
	table(n, "orders").RowCount = ptr[int64](5250) // +5%
	opts := DefaultDiffOptions()
	opts.RowsThreshold = 0.01
	if got := summary(Diff(diffBase(), n, opts)); !slices.Equal(got, []string{"stats changed orders"}) {
		t.Fatalf("with a 1%% threshold: %q", got)
	}

	// An empty table is drift the moment it gets a row; one that stays
	// empty is not.
	o := diffBase()
	table(o, "orders").RowCount = ptr[int64](0)
	n = diffBase()
	table(n, "orders").RowCount = ptr[int64](1)
	if got := summary(Diff(o, n, DefaultDiffOptions())); len(got) != 1 {
		t.Fatalf("0 -> 1 rows: %q", got)
	}
	if got := summary(Diff(o, o, DefaultDiffOptions())); len(got) != 0 {
		t.Fatalf("0 -> 0 rows: %q", got)
	}

	// A free-text column's frequent values come and go; only enum-like
	// columns have a closed set of values to gain.
	o = diffBase()
	col(o, "customers", "status").SemanticType = ptr("free_text")
	n = diffBase()
	col(n, "customers", "status").SemanticType = ptr("free_text")
	col(n, "customers", "status").TopValues = append(col(n, "customers", "status").TopValues, ValueCount{Value: "frozen"})
	if got := summary(Diff(o, n, DefaultDiffOptions())); len(got) != 0 {
		t.Fatalf("new value of a free-text column: %q", got)
	}

	// Gating on schema only: row growth is reported but is not drift.
	n = diffBase()
	table(n, "orders").RowCount = ptr[int64](7500)
	opts = DefaultDiffOptions()
	opts.FailOn = []string{CategorySchema}
	res := Diff(diffBase(), n, opts)
	if res.Drift || len(res.Changes) != 1 || res.Changes[0].Failing {
		t.Fatalf("--fail-on schema with row growth: %+v", res)
	}
	var b bytes.Buffer
	res.Render(&b)
	want := "no drift (1 informational change)\n\nstats (informational):\n  ~ orders row count 5000 -> 7500 (+50.0%)\n"
	if b.String() != want {
		t.Fatalf("render:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestDiffOrderAndRender(t *testing.T) {
	n := diffBase()
	table(n, "orders").RowCount = ptr[int64](9000)
	table(n, "orders").Columns = append(table(n, "orders").Columns, Column{Name: "total", DataType: "REAL"})
	n.Tables = slices.DeleteFunc(n.Tables, func(t Table) bool { return t.Name == "active_customers" })
	n.Relationships[0].Source = "inferred"
	col(n, "customers", "email").NullFraction = ptr(0.5)
	// Reversed input order must not change the output order.
	slices.Reverse(n.Tables)
	res := Diff(diffBase(), n, DefaultDiffOptions())
	want := []string{
		"schema removed active_customers",
		"schema added orders.total",
		"relationships changed orders(customer_id)->customers(id)",
		"stats changed customers.email",
		"stats changed orders",
	}
	if got := summary(res); !slices.Equal(got, want) {
		t.Fatalf("order %q\nwant  %q", got, want)
	}
	var b bytes.Buffer
	res.Render(&b)
	wantText := `drift: 5 changes

schema:
  - view active_customers removed
  + column orders.total added (REAL, NOT NULL)

relationships:
  ~ relationship orders(customer_id)->customers(id) source changed from declared to inferred

stats:
  ~ customers.email NULL fraction 0.100 -> 0.500
  ~ orders row count 5000 -> 9000 (+80.0%)
`
	if b.String() != wantText {
		t.Fatalf("render:\n%s\nwant:\n%s", b.String(), wantText)
	}
	b.Reset()
	if err := res.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back DiffResult
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || !back.Drift || len(back.Changes) != 5 ||
		back.Changes[1] != (Change{Category: "schema", Object: "orders.total", Kind: "added",
			Message: "column orders.total added (REAL, NOT NULL)", New: "REAL", Failing: true}) {
		t.Fatalf("json round trip: %v %+v\n%s", err, back, b.String())
	}
	if !strings.Contains(b.String(), `"object": "orders(customer_id)->customers(id)"`) {
		t.Fatalf("json escapes the relationship key:\n%s", b.String())
	}
}
