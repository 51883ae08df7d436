package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/report"
)

func declared() *string { s := "declared"; return &s }

func inferredKey() *string { s := "inferred"; return &s }

func f(v float64) *float64 { return &v }

func n(v int64) *int64 { return &v }

// table is a table with a declared key (none when pk is empty) and
// columns, each NOT NULL unless named in nullable.
func table(name string, pk []string, cols ...string) report.Table {
	t := report.Table{Name: name, Kind: "table", PrimaryKey: pk, Columns: []report.Column{}, Indexes: []report.Index{}, Uniques: [][]string{}}
	if len(pk) > 0 {
		t.PrimaryKeySource = declared()
	}
	for _, c := range cols {
		t.Columns = append(t.Columns, report.Column{Name: c})
	}
	return t
}

func ref(from, fcol, to, tcol, source string, conf float64, orphans *float64) report.Relationship {
	return report.Relationship{FromTable: from, FromColumns: strings.Split(fcol, ","), ToTable: to, ToColumns: strings.Split(tcol, ","),
		Source: source, Confidence: conf, OrphanFraction: orphans}
}

// only runs one rule, with c's settings for it.
func only(t *testing.T, r *report.Report, rule string, rc RuleConfig) []Violation {
	t.Helper()
	on := true
	c := Config{Rules: map[string]RuleConfig{}}
	for _, id := range IDs() {
		off := false
		c.Rules[id] = RuleConfig{Enabled: &off}
	}
	if rc.Enabled == nil {
		rc.Enabled = &on
	}
	c.Rules[rule] = rc
	res := Lint(r, c)
	for _, v := range res.Violations {
		if v.Rule != rule {
			t.Fatalf("rule %s ran though off: %+v", v.Rule, v)
		}
	}
	return res.Violations
}

// places are the violations' tables and columns, as where-lines.
func places(vs []Violation) []string {
	out := []string{}
	for _, v := range vs {
		p := v.Table
		if len(v.Columns) > 0 {
			p += "(" + strings.Join(v.Columns, ",") + ")"
		}
		out = append(out, p)
	}
	return out
}

func wantPlaces(t *testing.T, vs []Violation, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if got := places(vs); !slices.Equal(got, want) {
		t.Fatalf("violations at %q, want %q\n%s", got, want, messages(vs))
	}
}

func messages(vs []Violation) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "  %s\n", v.Message)
	}
	return b.String()
}

func TestNoPrimaryKey(t *testing.T) {
	withKey := table("a", []string{"id"}, "id")
	noKey := table("b", nil, "x")
	inferred := table("c", []string{"code"}, "code")
	inferred.PrimaryKeySource = inferredKey()
	view := table("d", nil, "x")
	view.Kind = "view"
	unread := table("e", nil)
	unread.Unread = &report.Unread{What: "table", Reason: "no permission"}
	unique := table("f", nil, "sku")
	unique.Uniques = [][]string{{"sku"}}
	noKey.RowCount = n(12)
	r := &report.Report{Tables: []report.Table{withKey, noKey, inferred, view, unread, unique}}

	vs := only(t, r, NoPrimaryKey, RuleConfig{})
	wantPlaces(t, vs, "b", "c", "f")
	if vs[0].Message != "b declares no primary key, and the data found none" || *vs[0].Figures.Rows != 12 || vs[0].Severity != Error {
		t.Errorf("b: %+v", vs[0])
	}
	if vs[1].Message != "c declares no primary key; the data says (code) identifies its rows: declare it" || !slices.Equal(vs[1].Related, []string{"c(code)"}) {
		t.Errorf("c: %+v", vs[1])
	}
	if vs[2].Message != "f declares no primary key, only a unique constraint on (sku)" {
		t.Errorf("f: %+v", vs[2])
	}
}

// TestKeylessEngines: on engines that cannot declare keys or indexes
// (Capabilities NoKeys, NoIndexes: Trino, Spark SQL) the rules still find
// what the data says, but advise what a reviewer there can do; on every
// engine that declares keys the advice stays "declare it".
func TestKeylessEngines(t *testing.T) {
	inferred := table("orders", []string{"id"}, "id", "customer_id")
	inferred.PrimaryKeySource = inferredKey()
	none := table("events", nil, "at")
	parent := table("customers", []string{"id"}, "id")
	parent.PrimaryKeySource = inferredKey()
	build := func(dialect string) *report.Report {
		return &report.Report{Database: report.Database{Dialect: dialect},
			Tables: []report.Table{parent, none, inferred}, // sorted by name, as a report is
			Relationships: []report.Relationship{
				ref("orders", "customer_id", "customers", "id", "inferred", 0.95, f(0)),
			}}
	}
	for _, dialect := range []string{"trino", "spark"} {
		r := build(dialect)
		vs := only(t, r, NoPrimaryKey, RuleConfig{})
		wantPlaces(t, vs, "customers", "events", "orders")
		if want := "orders has no primary key, which " + dialect + " cannot declare; the data says (id) identifies its rows: document it as the key, and keep it unique where the data is written"; vs[2].Message != want {
			t.Errorf("%s: %q, want %q", dialect, vs[2].Message, want)
		}
		if want := "events has no primary key, which " + dialect + " cannot declare, and the data found none"; vs[1].Message != want {
			t.Errorf("%s: %q, want %q", dialect, vs[1].Message, want)
		}
		vs = only(t, r, UndeclaredReference, RuleConfig{})
		wantPlaces(t, vs, "orders(customer_id)")
		if want := "orders(customer_id) references customers(id): the data confirms it (confidence 0.95, 0% without a parent); " + dialect + " cannot declare foreign keys: document it, and check it where the data is written"; vs[0].Message != want {
			t.Errorf("%s: %q, want %q", dialect, vs[0].Message, want)
		}
		// Neither engine has CREATE INDEX: no reference is unindexed there.
		wantPlaces(t, only(t, r, UnindexedReference, RuleConfig{}))
	}
	for _, dialect := range []string{"sqlite", "postgres", "mysql", "duckdb", ""} {
		r := build(dialect)
		vs := only(t, r, NoPrimaryKey, RuleConfig{})
		wantPlaces(t, vs, "customers", "events", "orders")
		if want := "orders declares no primary key; the data says (id) identifies its rows: declare it"; vs[2].Message != want {
			t.Errorf("%q: %q, want %q", dialect, vs[2].Message, want)
		}
		vs = only(t, r, UndeclaredReference, RuleConfig{})
		if want := "orders(customer_id) references customers(id): the data confirms it (confidence 0.95, 0% without a parent) but the schema declares no foreign key"; len(vs) != 1 || vs[0].Message != want {
			t.Errorf("%q: %+v, want %q", dialect, vs, want)
		}
		wantPlaces(t, only(t, r, UnindexedReference, RuleConfig{}), "orders(customer_id)")
	}
}

// TestForeignTables: PostgreSQL takes no key and no index on a foreign
// table, whatever the engine: the advice is to document, and no
// reference from one is called unindexed.
func TestForeignTables(t *testing.T) {
	remote := table("remote", []string{"id"}, "id", "customer_id")
	remote.PrimaryKeySource, remote.Foreign = inferredKey(), true
	parent := table("customers", []string{"id"}, "id")
	r := &report.Report{Database: report.Database{Dialect: "postgres"}, Tables: []report.Table{parent, remote},
		Relationships: []report.Relationship{ref("remote", "customer_id", "customers", "id", "inferred", 0.95, f(0))}}
	vs := only(t, r, NoPrimaryKey, RuleConfig{})
	if want := "remote has no primary key, which a foreign table cannot declare; the data says (id) identifies its rows: document it as the key, and keep it unique where the data is written"; len(vs) != 1 || vs[0].Message != want {
		t.Errorf("%+v, want %q", vs, want)
	}
	vs = only(t, r, UndeclaredReference, RuleConfig{})
	if want := "remote(customer_id) references customers(id): the data confirms it (confidence 0.95, 0% without a parent); a foreign table cannot declare foreign keys: document it, and check it where the data is written"; len(vs) != 1 || vs[0].Message != want {
		t.Errorf("%+v, want %q", vs, want)
	}
	wantPlaces(t, only(t, r, UnindexedReference, RuleConfig{}))
}

func TestUnindexedReference(t *testing.T) {
	parent := table("p", []string{"id"}, "id")
	child := table("c", []string{"id"}, "id", "by_index", "by_pk_lead", "unindexed", "partial", "by_unique", "x", "y", "weak", "unchecked", "seen")
	child.PrimaryKey = []string{"by_pk_lead", "id"}
	child.Indexes = []report.Index{
		{Name: "c_by_index", Columns: []string{"by_index", "id"}},
		{Name: "c_partial", Columns: []string{"partial"}, Predicate: "partial IS NOT NULL"},
		{Name: "c_yx", Columns: []string{"y", "x", "id"}},
	}
	child.Uniques = [][]string{{"by_unique"}}
	view := table("v", nil, "pid")
	view.Kind = "view"
	r := &report.Report{
		Tables: []report.Table{child, parent, view},
		Relationships: []report.Relationship{
			ref("c", "by_index", "p", "id", "declared", 1, f(0)),
			ref("c", "by_pk_lead", "p", "id", "declared", 1, f(0)),
			ref("c", "by_unique", "p", "id", "user", 1, f(0)),
			ref("c", "partial", "p", "id", "declared", 1, f(0)),
			ref("c", "unindexed", "p", "id", "declared", 1, nil),
			ref("c", "x,y", "p2", "a,b", "declared", 1, f(0)), // composite, index on (y, x): in any order
			ref("c", "weak", "p", "id", "inferred", 0.7, f(0)),
			ref("c", "unchecked", "p", "id", "inferred", 0.95, nil),
			ref("c", "seen", "p", "id", "inferred", 0.92, f(0.001)),
			ref("v", "pid", "p", "id", "declared", 1, f(0)), // a view has no index
		},
	}
	vs := only(t, r, UnindexedReference, RuleConfig{})
	wantPlaces(t, vs, "c(partial)", "c(seen)", "c(unindexed)")
	want := "c(seen) references p(id) (inferred, confidence 0.92) but no index, primary key or unique constraint of c begins with seen: each delete in p, and each join from it, reads c whole"
	if vs[1].Message != want || *vs[1].Figures.Confidence != 0.92 || vs[1].References.Source != "inferred" || vs[1].References.Table != "p" {
		t.Errorf("got %+v\nwant message %q", vs[1], want)
	}
	if vs[2].Figures.Confidence != nil || vs[2].References.Source != "declared" {
		t.Errorf("a declared reference carries no confidence: %+v", vs[2])
	}
	// A lower threshold lets the weaker inferred reference count.
	vs = only(t, r, UnindexedReference, RuleConfig{Params: map[string]float64{"min_confidence": 0.6}})
	wantPlaces(t, vs, "c(partial)", "c(seen)", "c(unindexed)", "c(weak)")
	// Trino's tables take no index.
	r.Database.Dialect = "trino"
	wantPlaces(t, only(t, r, UnindexedReference, RuleConfig{}))
}

func TestUndeclaredReference(t *testing.T) {
	r := &report.Report{Relationships: []report.Relationship{
		ref("film_text", "film_id", "film", "film_id", "inferred", 0.98, f(0)),
		ref("orders", "cust", "customers", "id", "inferred", 0.85, f(0.025)),
		ref("orders", "weak", "customers", "id", "inferred", 0.7, f(0)),
		ref("orders", "unchecked", "customers", "id", "inferred", 0.9, nil),
		ref("orders", "customer_id", "customers", "id", "declared", 1, f(0)),
		ref("orders", "user_id", "users", "id", "user", 1, f(0)),
	}}
	r.Relationships[0].Evidence = []string{"names match", "checked: 0 of 1000 non-NULL references have no parent (hypothesis h1)"}
	vs := only(t, r, UndeclaredReference, RuleConfig{})
	wantPlaces(t, vs, "film_text(film_id)", "orders(cust)")
	if want := "film_text(film_id) references film(film_id): the data confirms it (confidence 0.98, 0% without a parent) but the schema declares no foreign key"; vs[0].Message != want {
		t.Errorf("message %q, want %q", vs[0].Message, want)
	}
	if !slices.Equal(vs[0].Figures.Evidence, []string{"checked: 0 of 1000 non-NULL references have no parent (hypothesis h1)"}) ||
		*vs[0].Figures.Confidence != 0.98 || *vs[0].Figures.OrphanFraction != 0 || vs[0].Severity != Warning {
		t.Errorf("figures %+v", vs[0])
	}
	if want := "orders(cust) references customers(id): the data confirms it (confidence 0.85, 2.5% without a parent) but the schema declares no foreign key"; vs[1].Message != want {
		t.Errorf("message %q, want %q", vs[1].Message, want)
	}
	vs = only(t, r, UndeclaredReference, RuleConfig{Params: map[string]float64{"min_confidence": 0.9}})
	wantPlaces(t, vs, "film_text(film_id)")
}

func TestOrphanedReference(t *testing.T) {
	r := &report.Report{Relationships: []report.Relationship{
		ref("orders", "customer_id", "customers", "id", "declared", 0.88, f(0.02)),
		ref("orders", "shipper_id", "shippers", "id", "declared", 1, f(0)),
		ref("orders", "empty_id", "things", "id", "declared", 0.6, nil),
		ref("orders", "guess", "customers", "id", "inferred", 0.7, f(0.1)),
		ref("payments", "order_id", "orders", "id", "user", 0.45, f(0.5)),
	}}
	vs := only(t, r, OrphanedReference, RuleConfig{})
	wantPlaces(t, vs, "orders(customer_id)", "payments(order_id)")
	if want := "orders(customer_id) references customers(id) (declared), but 2% of its non-NULL values have no parent"; vs[0].Message != want || *vs[0].Figures.OrphanFraction != 0.02 {
		t.Errorf("got %+v, want message %q", vs[0], want)
	}
	if want := "payments(order_id) references orders(id) (configured in discover.yaml), but 50% of its non-NULL values have no parent"; vs[1].Message != want {
		t.Errorf("message %q, want %q", vs[1].Message, want)
	}
	vs = only(t, r, OrphanedReference, RuleConfig{Params: map[string]float64{"max_orphan_fraction": 0.05}})
	wantPlaces(t, vs, "payments(order_id)")
}

func TestNullableNeverNull(t *testing.T) {
	col := func(name string, nullable bool, nf *float64, rows int64, sampled bool) report.Column {
		return report.Column{Name: name, Nullable: nullable, NullFraction: nf, ProfileRows: rows, ProfileSampled: sampled}
	}
	t1 := table("t", []string{"id"})
	t1.Columns = []report.Column{
		col("never", true, f(0), 5000, false),
		col("sampled", true, f(0), 100_000, true),
		col("few", true, f(0), 50, false),
		col("declared", false, f(0), 500, false),
		col("some", true, f(0.1), 500, false),
		col("unknown", true, nil, 500, false),
	}
	v := table("v", nil)
	v.Kind = "view"
	v.Columns = []report.Column{col("never", true, f(0), 500, false)}
	r := &report.Report{Tables: []report.Table{t1, v}}

	vs := only(t, r, NullableNeverNull, RuleConfig{})
	wantPlaces(t, vs, "t(never)")
	if want := "t.never may be NULL but none of its 5,000 rows is: declare it NOT NULL, or say why it may be empty"; vs[0].Message != want ||
		*vs[0].Figures.NullFraction != 0 || *vs[0].Figures.Rows != 5000 || vs[0].Severity != Info {
		t.Errorf("got %+v, want message %q", vs[0], want)
	}
	vs = only(t, r, NullableNeverNull, RuleConfig{Params: map[string]float64{"min_rows": 10}})
	wantPlaces(t, vs, "t(never)", "t(few)")
}

func TestMissingComment(t *testing.T) {
	a := table("a", []string{"id"}, "id", "name", "note")
	a.Comment = "the a's"
	a.Columns[0].Comment = "key"
	a.Columns[1].UserComment = "what people call it"
	b := table("b", []string{"id"}, "id")
	b.UserComment = "the team's words"
	c := table("c", nil, "x")
	c.Kind = "view"
	r := &report.Report{Tables: []report.Table{a, b, c}}

	if vs := Lint(r, Config{}).Violations; slices.ContainsFunc(vs, func(v Violation) bool { return v.Rule == MissingComment }) {
		t.Fatalf("missing_comment is off by default, found %v", places(vs))
	}
	vs := only(t, r, MissingComment, RuleConfig{})
	wantPlaces(t, vs, "a(note)", "b(id)", "c", "c(x)")
	if vs[2].Message != "view c has no comment" || vs[3].Message != "column c.x has no comment" {
		t.Errorf("messages:\n%s", messages(vs))
	}
	vs = only(t, r, MissingComment, RuleConfig{Params: map[string]float64{"columns": 0}})
	wantPlaces(t, vs, "c")
	vs = only(t, r, MissingComment, RuleConfig{Params: map[string]float64{"tables": 0}, Exclude: []string{"*.id"}})
	wantPlaces(t, vs, "a(note)", "c(x)")
	// all_or_nothing asks only for the convention the schema follows
	// somewhere: columns are commented here, tables are not.
	for i := range r.Tables {
		r.Tables[i].Comment, r.Tables[i].UserComment = "", ""
	}
	vs = only(t, r, MissingComment, RuleConfig{Params: map[string]float64{"all_or_nothing": 1}})
	wantPlaces(t, vs, "a(note)", "b(id)", "c(x)")
	r.Tables[0].Columns[0].Comment, r.Tables[0].Columns[1].UserComment = "", ""
	wantPlaces(t, only(t, r, MissingComment, RuleConfig{Params: map[string]float64{"all_or_nothing": 1}}))
}

func TestInconsistentNaming(t *testing.T) {
	r := &report.Report{Relationships: []report.Relationship{
		ref("orders", "cust_no", "customers", "id", "declared", 1, f(0)),
		ref("invoices", "customer_ref", "customers", "id", "inferred", 0.93, f(0)),
		ref("payments", "CustomerID", "customers", "id", "declared", 1, f(0)),
		ref("refunds", "customer_id", "customers", "id", "declared", 1, f(0)),
		// Roles of one concept spelled alike, and roles by their words.
		ref("shipments", "bill_customer_id", "customers", "id", "declared", 1, f(0)),
		ref("shipments", "ship_customer_id", "customers", "id", "declared", 1, f(0)),
		ref("employees", "manager_id", "employees", "id", "declared", 1, f(0)),
		ref("orders", "employee_id", "employees", "id", "declared", 1, f(0)),
		ref("employees", "ReportsTo", "employees", "id", "declared", 1, f(0)),
		ref("tasks", "assignee", "employees", "id", "declared", 1, f(0)),
		ref("tasks", "parent_id", "tasks", "id", "declared", 1, f(0)),
		ref("tasks", "task_id", "tasks", "id", "declared", 1, f(0)),
		// A weak inference does not count.
		ref("notes", "cust", "customers", "id", "inferred", 0.65, f(0)),
	}}
	vs := only(t, r, InconsistentNaming, RuleConfig{})
	wantPlaces(t, vs, "customers(id)")
	want := "customers(id) is referenced under 3 names for one concept: cust_no (orders.cust_no), customer_id (payments.CustomerID, refunds.customer_id, shipments.bill_customer_id, shipments.ship_customer_id), customer_ref (invoices.customer_ref); one name lets a reader and a join find them all"
	if vs[0].Message != want {
		t.Errorf("message\n%q\nwant\n%q", vs[0].Message, want)
	}
	if want := []string{"invoices.customer_ref", "orders.cust_no", "payments.CustomerID", "refunds.customer_id", "shipments.bill_customer_id", "shipments.ship_customer_id"}; !slices.Equal(vs[0].Related, want) {
		t.Errorf("related %q, want %q", vs[0].Related, want)
	}
	// Excluding a child column takes it out of the comparison.
	vs = only(t, r, InconsistentNaming, RuleConfig{Exclude: []string{"orders.cust_no", "invoices.*"}})
	wantPlaces(t, vs)
	vs = only(t, r, InconsistentNaming, RuleConfig{Exclude: []string{"orders.cust_no"}})
	if len(vs) != 1 || !strings.Contains(vs[0].Message, "under 2 names") {
		t.Fatalf("got %v", messages(vs))
	}
}

func TestColumnName(t *testing.T) {
	for _, c := range []struct {
		col, concept, spelling string
		ok                     bool
	}{
		{"customer_id", "customer", "customer_id", true},
		{"CustomerID", "customer", "customer_id", true},
		{"customerid", "customer", "customer_id", true},
		{"cust_no", "customer", "cust_no", true},
		{"customers_ref", "customer", "customers_ref", true},
		{"id_customer", "customer", "customer_id", true},
		{"original_language_id", "language", "language_id", true},
		{"customer", "customer", "customer", true},
		{"manager_staff_id", "", "", false},
		{"reviewer", "", "", false},
		{"id", "", "", false},
	} {
		got, ok := columnName(c.col)
		if ok != c.ok || got.concept != c.concept || got.spelling != c.spelling {
			t.Errorf("%s: got %+v %v, want %s %s %v", c.col, got, ok, c.concept, c.spelling, c.ok)
		}
	}
}

func TestRedundantIndex(t *testing.T) {
	tb := table("t", []string{"id"}, "id", "a", "b", "c", "d", "e", "f")
	tb.Indexes = []report.Index{
		{Name: "t_pkey", Columns: []string{"id"}, Unique: true}, // PostgreSQL's own index of the key
		{Name: "a_idx", Columns: []string{"a"}},
		{Name: "a_b_idx", Columns: []string{"a", "b"}},
		{Name: "c1", Columns: []string{"c"}},
		{Name: "c2", Columns: []string{"c"}},
		{Name: "id_idx", Columns: []string{"id"}},
		{Name: "d_uniq", Columns: []string{"d"}, Unique: true},
		{Name: "e_idx", Columns: []string{"e"}},
		{Name: "e_uniq", Columns: []string{"e"}, Unique: true},
		{Name: "f_live", Columns: []string{"f"}, Predicate: "deleted_at IS NULL"},
		{Name: "f_idx", Columns: []string{"f"}},
		{Name: "b_a_idx", Columns: []string{"b", "a"}},
	}
	tb.Uniques = [][]string{{"d"}, {"e"}}
	r := &report.Report{Tables: []report.Table{tb}}
	vs := only(t, r, RedundantIndex, RuleConfig{})
	var got []string
	for _, v := range vs {
		got = append(got, v.Message)
	}
	want := []string{
		"index a_idx on t(a) is redundant: index a_b_idx begins with its columns",
		"index c2 on t(c) is redundant: index c1 has the same columns",
		"index id_idx on t(id) is redundant: the primary key has the same columns",
		"index e_idx on t(e) is redundant: the unique constraint on (e) has the same columns",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(vs[1].Related, []string{"index c1"}) || !slices.Equal(vs[1].Columns, []string{"c"}) {
		t.Errorf("c2: %+v", vs[1])
	}
}

func TestIsolatedTable(t *testing.T) {
	a, b, c := table("a", []string{"id"}, "id"), table("b", []string{"id"}, "id", "a_id"), table("c", []string{"id"}, "id")
	v := table("v", nil, "x")
	v.Kind = "view"
	c.RowCount = n(3)
	r := &report.Report{Tables: []report.Table{a, b, c, v}, Relationships: []report.Relationship{ref("b", "a_id", "a", "id", "declared", 1, f(0))}}
	vs := only(t, r, IsolatedTable, RuleConfig{})
	wantPlaces(t, vs, "c")
	if vs[0].Message != "c references nothing and nothing references it: a reference nobody declared, or a table nothing uses" || *vs[0].Figures.Rows != 3 {
		t.Errorf("got %+v", vs[0])
	}
	// Without references at all, no table is apart from the rest; a weak
	// inference is no reference.
	r.Relationships = []report.Relationship{ref("b", "a_id", "a", "id", "inferred", 0.62, f(0))}
	wantPlaces(t, only(t, r, IsolatedTable, RuleConfig{}))
	r.Relationships = nil
	wantPlaces(t, only(t, r, IsolatedTable, RuleConfig{}))
}

func TestExclude(t *testing.T) {
	r := &report.Report{Tables: []report.Table{
		table("Audit_Trail", nil, "x"), table("audit_log", nil, "x"), table("orders", nil, "note_id", "other_id"), table("tmp_x", nil),
	}}
	vs := only(t, r, NoPrimaryKey, RuleConfig{Exclude: []string{"audit_*"}})
	wantPlaces(t, vs, "orders", "tmp_x") // globs ignore case, as a person writing them does
	// A column glob drops a column's violation, not its table's others;
	// the lint-wide exclude applies to every rule.
	for i := range r.Tables[2].Columns {
		c := &r.Tables[2].Columns[i]
		c.Nullable, c.NullFraction, c.ProfileRows = true, f(0), 1000
	}
	off := false
	cfg := Config{Exclude: []string{"tmp_*"}, Rules: map[string]RuleConfig{
		NullableNeverNull: {Exclude: []string{"orders.note_id"}},
		IsolatedTable:     {Enabled: &off},
	}}
	res := Lint(r, cfg)
	wantPlaces(t, res.Violations, "Audit_Trail", "audit_log", "orders", "orders(other_id)")
	if got := res.Rules[4]; got.ID != NullableNeverNull || !slices.Equal(got.Exclude, []string{"tmp_*", "orders.note_id"}) || got.Violations != 1 {
		t.Errorf("rule result %+v", got)
	}
}

func TestValidGlob(t *testing.T) {
	if err := ValidGlob("audit_*"); err != nil {
		t.Error(err)
	}
	if err := ValidGlob("[a-"); err == nil {
		t.Error("an unclosed class is no glob")
	}
	if err := ValidGlob(" "); err == nil {
		t.Error("a blank pattern excludes nothing a person meant")
	}
}

// lintable is a small report with one violation of each of three rules,
// for the renderers.
func lintable() *report.Report {
	customers := table("customers", []string{"id"}, "id")
	orders := table("orders", []string{"id"}, "id", "customer_id")
	orders.Columns[1].Nullable, orders.Columns[1].NullFraction, orders.Columns[1].ProfileRows = true, f(0), 830
	logs := table("logs", nil, "line")
	return &report.Report{
		Database:      report.Database{Name: "shop", Dialect: "sqlite"},
		Run:           report.Run{ID: "run-1"},
		Tables:        []report.Table{customers, logs, orders},
		Relationships: []report.Relationship{ref("orders", "customer_id", "customers", "id", "declared", 1, f(0))},
	}
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := Lint(lintable(), Config{}).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `no_primary_key (error, 1): a table without a declared primary key
  logs declares no primary key, and the data found none

unindexed_reference (warning, 1): a reference without an index on the child columns
  orders(customer_id) references customers(id) (declared) but no index, primary key or unique constraint of orders begins with customer_id: each delete in customers, and each join from it, reads orders whole

nullable_never_null (info, 1): a nullable column that holds no NULL
  orders.customer_id may be NULL but none of its 830 rows is: declare it NOT NULL, or say why it may be empty

isolated_table (info, 1): a table no reference touches, in a database with references
  logs references nothing and nothing references it: a reference nobody declared, or a table nothing uses

off: missing_comment (turn on under lint: in discover.yaml)
4 violations of 4 of 8 rules (1 error, 1 warning, 2 infos) in 3 tables and views of shop
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestIncompleteIsNotClean(t *testing.T) {
	r := lintable()
	r.Tables = r.Tables[:1]
	r.Relationships = nil
	r.Outcome = &report.Outcome{Status: "incomplete", Tables: 2, Unseen: []report.Unseen{{What: "table", Table: "secret", Reason: "permission denied"}}}
	res := Lint(r, Config{})
	if res.Complete || res.Counts.Violations != 0 {
		t.Fatalf("complete %v, %d violations", res.Complete, res.Counts.Violations)
	}
	var b bytes.Buffer
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `off: missing_comment (turn on under lint: in discover.yaml)
This discovery is incomplete. 1 of 2 tables and views could not be read: secret (permission denied). Lint saw only what the run read.
no violations of 8 rules in what the run read of 1 table or view of shop (incomplete)
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := Lint(lintable(), Config{}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Database   string `json:"database"`
		RunID      string `json:"run_id"`
		Complete   bool   `json:"complete"`
		Incomplete []any  `json:"incomplete"`
		Rules      []struct {
			ID         string         `json:"id"`
			Enabled    bool           `json:"enabled"`
			Params     map[string]any `json:"params"`
			Violations int            `json:"violations"`
		} `json:"rules"`
		Violations []map[string]any `json:"violations"`
		Counts     Counts           `json:"counts"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Database != "shop" || doc.RunID != "run-1" || !doc.Complete || doc.Incomplete == nil || len(doc.Rules) != len(IDs()) {
		t.Fatalf("header %+v", doc)
	}
	if (doc.Counts != Counts{Violations: 4, Errors: 1, Warnings: 1, Infos: 2, RulesViolated: 4, Tables: 3}) {
		t.Errorf("counts %+v", doc.Counts)
	}
	mc := doc.Rules[5]
	if mc.ID != MissingComment || mc.Enabled || mc.Params["tables"] != true || mc.Params["columns"] != true {
		t.Errorf("missing_comment %+v", mc)
	}
	v := doc.Violations[1]
	refs := v["references"].(map[string]any)
	if v["rule"] != UnindexedReference || v["table"] != "orders" || refs["table"] != "customers" || refs["source"] != "declared" {
		t.Errorf("violation %v", v)
	}
	nn := doc.Violations[2]["figures"].(map[string]any)
	if nn["null_fraction"] != 0.0 || nn["rows"] != 830.0 {
		t.Errorf("figures %v", nn)
	}
}

func TestPercent(t *testing.T) {
	for f, want := range map[float64]string{0: "0%", 0.025: "2.5%", 0.5: "50%", 0.00005: "<0.01%", 0.0001: "0.01%", 1: "100%", 0.12345: "12.35%"} {
		if got := percent(f); got != want {
			t.Errorf("percent(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestFails(t *testing.T) {
	res := Lint(lintable(), Config{Rules: map[string]RuleConfig{NoPrimaryKey: {Severity: Warning}}})
	if !res.Fails(Info) || !res.Fails(Warning) || res.Fails(Error) {
		t.Errorf("warnings and infos: fails on info %v, warning %v, error %v", res.Fails(Info), res.Fails(Warning), res.Fails(Error))
	}
}
