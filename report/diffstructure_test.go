package report

import (
	"slices"
	"testing"
)

// structureBase is diffBase with the declared structure beyond keys.
func structureBase() *Report {
	r := diffBase()
	c := table(r, "customers")
	c.Comment, c.PrimaryKeyName = "one row per customer", "pk_customers"
	c.Checks = []Check{{Name: "age_ok", Expression: "age >= 0"}, {Expression: "status IN ('active', 'closed')"}}
	c.Triggers = []Trigger{{Name: "touch", Timing: "AFTER", Events: []string{"UPDATE"}, Definition: "CREATE TRIGGER touch …"}}
	c.Indexes = []Index{{Name: "ix_email", Columns: []string{"email"}, Predicate: "email IS NOT NULL"}}
	col(r, "customers", "status").Default = ptr("'active'")
	col(r, "customers", "email").UserComment = "where invoices go"
	table(r, "active_customers").Definition = "SELECT id FROM customers WHERE status = 'active'"
	r.Relationships[0].OnDelete, r.Relationships[0].ConstraintName = "CASCADE", "fk_orders_customer"
	r.Enums = []Enum{{Name: "status", Labels: []string{"active", "closed"}, Columns: []string{"customers.status"}},
		{Name: "tier", Labels: []string{"gold"}, Columns: []string{}}}
	r.Routines = []Routine{
		{Name: "balance", Kind: "function", Arguments: "id integer", Returns: "numeric", Language: "sql"},
		{Name: "balance", Kind: "function", Arguments: "id integer, at date", Returns: "numeric", Language: "sql"},
		{Name: "purge", Kind: "procedure", Arguments: "", Language: "plpgsql"},
	}
	return r
}

func TestDiffStructure(t *testing.T) {
	old, cur := structureBase(), structureBase()
	if res := Diff(old, cur, DefaultDiffOptions()); len(res.Changes) != 0 {
		t.Fatalf("the same structure differs: %v", summary(res))
	}
	c := table(cur, "customers")
	c.Comment = ""
	c.Checks = []Check{{Name: "age_ok", Expression: "age > 0"}, {Expression: "status IN ('active', 'closed', 'gone')"}}
	c.Triggers[0].Timing = "BEFORE"
	c.Indexes[0].Predicate = ""
	col(cur, "customers", "status").Default = ptr("'closed'")
	col(cur, "customers", "status").OnUpdate = "'touched'"
	col(cur, "customers", "email").UserComment = "where invoices and reminders go"
	col(cur, "customers", "id").Identity = "always"
	table(cur, "active_customers").Definition = "SELECT id FROM customers WHERE status <> 'closed'"
	cur.Relationships[0].OnDelete = "RESTRICT"
	c.Triggers[0].Comment = "keeps updated_at"
	cur.Enums[0].Labels = append(cur.Enums[0].Labels, "gone")
	cur.Enums = cur.Enums[:1]
	cur.Routines[0].Returns = "bigint"
	cur.Routines = append(cur.Routines[:1], cur.Routines[2], Routine{Name: "refresh", Kind: "procedure", Language: "sql"})

	res := Diff(old, cur, DefaultDiffOptions())
	var got []string
	for _, ch := range res.Changes {
		got = append(got, ch.Category+" "+ch.Kind+" "+ch.Message)
	}
	want := []string{
		`schema changed active_customers view definition changed from "SELECT id FROM customers WHERE status = 'active'" to "SELECT id FROM customers WHERE status <> 'closed'"`,
		`schema added customers check added: status IN ('active', 'closed', 'gone')`,
		`schema changed customers check age_ok changed from "age >= 0" to "age > 0"`,
		`schema changed customers comment changed from "one row per customer" to none`,
		`schema changed customers index ix_email changed from "(email), where email IS NOT NULL" to "(email)"`,
		`schema changed customers trigger touch changed from "AFTER UPDATE: CREATE TRIGGER touch …" to "BEFORE UPDATE: CREATE TRIGGER touch … (comment: keeps updated_at)"`,
		`schema removed customers check removed (was status IN ('active', 'closed'))`,
		`schema changed customers.id generated changed from none to "identity, always"`,
		`schema changed customers.status default changed from "'active'" to "'closed'"`,
		`schema changed customers.status on update changed from none to "'touched'"`,
		// What the database declares beside its tables: an enum's labels,
		// a routine's result; an overload is a routine of its own.
		`schema changed enum status changed from "'active', 'closed'" to "'active', 'closed', 'gone'"`,
		`schema removed enum tier removed (was 'gold')`,
		`schema changed function balance(id integer) changed from "returns numeric, language sql" to "returns bigint, language sql"`,
		`schema removed function balance(id integer, at date) removed (was returns numeric, language sql)`,
		`schema changed orders(customer_id)->customers(id) ON DELETE changed from "CASCADE" to "RESTRICT"`,
		`schema added procedure refresh() added: language sql`,
		`descriptions changed customers.email description (discover.yaml) changed from "where invoices go" to "where invoices and reminders go"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes:\n%s\nwant:\n%s", join(got), join(want))
	}
	for _, ch := range res.Changes {
		if ch.Failing != (ch.Category == CategorySchema) {
			t.Errorf("%s: failing %v; only schema is drift by default", ch.Message, ch.Failing)
		}
	}

	// The team's descriptions alone are no drift.
	only := structureBase()
	col(only, "customers", "email").UserComment = ""
	if res := Diff(structureBase(), only, DefaultDiffOptions()); res.Drift || len(res.Changes) != 1 || res.Changes[0].Category != CategoryDescriptions {
		t.Errorf("a description removed: drift %v, %v", res.Drift, summary(res))
	}
}

// A report written before discover recorded the structure has none of it:
// against it, a new report's defaults and checks are not drift.
func TestDiffStructureAgainstAnOlderReport(t *testing.T) {
	res := Diff(diffBase(), structureBase(), DefaultDiffOptions())
	for _, ch := range res.Changes {
		if ch.Category == CategorySchema {
			t.Errorf("structure compared with a report that records none: %s", ch.Message)
		}
	}
	if got := summary(res); res.Drift || !slices.Equal(got, []string{"descriptions changed customers.email"}) {
		t.Errorf("drift %v, changes %v, want the description added only", res.Drift, got)
	}
}

func join(lines []string) string {
	s := ""
	for _, l := range lines {
		s += "  " + l + "\n"
	}
	return s
}
