package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// assertNoRun checks that a refused run left nothing in --out: no catalog
// (so no run was started in it) and no report.
func assertNoRun(t *testing.T, out string) {
	t.Helper()
	for _, f := range []string{"catalog.db", "report.json", "report.md", "report.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s written by a run refused for bad input", f)
		}
	}
}

// demoTables opens what a message says of the demo database: its 13
// tables and views, then a few names, those spelled most like the
// pattern first, then by name.
const demoTables = "the database has 13; e.g. "

func TestIncludeMatchingNothing(t *testing.T) {
	out := t.TempDir()
	res := run(t, "--demo", "--out", out, "-q", "--include", "ordrs*")
	want := `discover: --include "ordrs*" matches no table or view (` + demoTables +
		"order_items, order_totals, orders, addresses, categories, …)\n"
	if res.code != 2 || res.stderr != want {
		t.Fatalf("exit %d, stderr %q; want exit 2 and %q", res.code, res.stderr, want)
	}
	assertNoRun(t, out)

	// Each include that matches nothing is named, in one error; one that
	// matches (case-insensitively, as the run matches) is not.
	out = t.TempDir()
	res = run(t, "--demo", "--out", out, "-q", "--include", "ordrs*", "--include", "ORDERS", "--include", "custmers")
	want = `discover: --include "ordrs*", "custmers" match no table or view (` + demoTables +
		"customers, order_items, order_totals, orders, categories, …)\n"
	if res.code != 2 || res.stderr != want {
		t.Fatalf("exit %d, stderr %q; want exit 2 and %q", res.code, res.stderr, want)
	}
	assertNoRun(t, out)

	// --resume checks the same before it looks for a run to continue.
	out = t.TempDir()
	res = run(t, "--demo", "--out", out, "-q", "--resume", "--include", "nothing_here")
	want = `discover: --include "nothing_here" matches no table or view (` + demoTables +
		"addresses, categories, customers, inventory, order_items, …)\n"
	if res.code != 2 || res.stderr != want {
		t.Fatalf("--resume: exit %d, stderr %q; want exit 2 and %q", res.code, res.stderr, want)
	}

	// A malformed --exclude is refused before the run too.
	out = t.TempDir()
	res = run(t, "--demo", "--out", out, "-q", "--exclude", "[")
	if res.code != 2 || !strings.Contains(res.stderr, `bad table glob "["`) {
		t.Fatalf("bad --exclude glob: exit %d, stderr %q", res.code, res.stderr)
	}
	assertNoRun(t, out)
}

// TestIncludeMatchingRuns: includes that match (a glob, a name in another
// case) run on what they match, and an exclude that matches nothing is no
// error. (Tables that reference one left out are not chosen: a test of a
// reference to an excluded table is given up, an incomplete run.)
func TestIncludeMatchingRuns(t *testing.T) {
	out := t.TempDir()
	res := run(t, "--demo", "--out", out, "-q", "--format", "json", "--include", "cust*", "--include", "ADDRESSES", "--exclude", "no_such_*")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	_, r := readReport(t, out)
	var names []string
	for _, tb := range r.Tables {
		names = append(names, tb.Name)
	}
	if got := strings.Join(names, ","); got != "addresses,customers" {
		t.Fatalf("tables %s, want addresses,customers", got)
	}
}

func TestRelationsNamingMissing(t *testing.T) {
	db := smallDB(t)
	cases := []struct{ name, body, want string }{
		{"table", `# references the schema does not declare
relations:
  - from: shipments.cust_ref
    to: customers.customer_key
  - from: shipmnts.cust_ref
    to: customers.customer_key
`, `:5: relations: from: no table "shipmnts" in the database`},
		{"column", `relations:

  - from: shipments.cust_rf
    to: customers.customer_key
`, `:3: relations: from: no column "cust_rf" in shipments (it has: id, cust_ref, weight)`},
		{"composite", `relations:
  - from: [shipments.id, shipments.cust_ref]
    to: [customers.key, customers.nme]
`, `:2: relations: to: no columns "key", "nme" in customers (it has: customer_key, name)`},
		// Every bad entry is named, each with its line.
		{"several", `max_iterations: 5
relations:
  - from: shipments.cust_ref
    to: clients.id
  - from: shipments.customer
    to: customers.customer_key
`, `:3: relations: to: no table "clients" in the database; CFG:5: relations: from: no column "customer" in shipments (it has: id, cust_ref, weight)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := writeConfig(t, c.body)
			out := t.TempDir()
			res := run(t, "--db", db, "--out", out, "-q", "--config", cfg)
			want := "discover: " + cfg + strings.ReplaceAll(c.want, "CFG", cfg) + "\n"
			if res.code != 2 || res.stderr != want {
				t.Fatalf("exit %d, stderr %q; want exit 2 and %q", res.code, res.stderr, want)
			}
			assertNoRun(t, out)
		})
	}
}

// TestRelationsInOtherCase: a name that matches only in another case is
// the structural expert's match too, so it is no error and the relation is
// recorded under the database's spelling.
func TestRelationsInOtherCase(t *testing.T) {
	db := smallDB(t)
	out := t.TempDir()
	cfg := writeConfig(t, "format: json\nrelations:\n  - from: SHIPMENTS.Cust_Ref\n    to: Customers.CUSTOMER_KEY\n")
	res := run(t, "--db", db, "--out", out, "-q", "--config", cfg)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	_, r := readReport(t, out)
	if len(r.Relationships) != 1 {
		t.Fatalf("relationships %+v", r.Relationships)
	}
	rel := r.Relationships[0]
	if rel.Source != "user" || rel.FromTable != "shipments" || strings.Join(rel.FromColumns, ",") != "cust_ref" ||
		rel.ToTable != "customers" || strings.Join(rel.ToColumns, ",") != "customer_key" {
		t.Fatalf("relation in another case: %+v", rel)
	}
}

// TestRelationProblemsAmbiguousCase: where the engine keeps case (two
// tables differing only in it, as PostgreSQL allows), a name matching both
// in another case cannot be resolved, and the message says why rather than
// that the table is missing; the one spelled so is found.
func TestRelationProblemsAmbiguousCase(t *testing.T) {
	cols := []warehouse.Column{{Name: "id"}, {Name: "Total"}}
	all := []warehouse.Table{
		{Name: warehouse.TableName{Name: "Orders"}, Kind: "table", Columns: cols},
		{Name: warehouse.TableName{Name: "ORDERS"}, Kind: "table", Columns: cols},
		{Name: warehouse.TableName{Schema: "sales", Name: "items"}, Kind: "table", Columns: []warehouse.Column{{Name: "order_id"}}},
	}
	rels := []experts.UserRelation{
		{FromTable: "sales.items", FromColumns: []string{"ORDER_ID"}, ToTable: "Orders", ToColumns: []string{"ID"}, Line: 4},
		{FromTable: "sales.items", FromColumns: []string{"order_id"}, ToTable: "orders", ToColumns: []string{"id"}, Line: 9},
		{FromTable: "items", FromColumns: []string{"order_id"}, ToTable: "ORDERS", ToColumns: []string{"total"}, Line: 12},
	}
	got := relationProblems(all, rels, "d.yaml")
	want := []string{
		`d.yaml:9: relations: to: table "orders" is ambiguous: the database has Orders, ORDERS, which differ only in case`,
		`d.yaml:12: relations: from: no table "items" in the database`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
