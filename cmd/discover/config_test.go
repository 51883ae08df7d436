package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallDB builds a database whose reference is not declared.
func smallDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "small.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := []string{
		`CREATE TABLE customers (customer_key INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE shipments (id INTEGER PRIMARY KEY, cust_ref INTEGER, weight REAL)`,
	}
	for i := 1; i <= 30; i++ {
		stmts = append(stmts, "INSERT INTO customers VALUES ("+itoa(i)+", 'c"+itoa(i)+"')")
		ref := itoa(1 + i%30)
		if i == 30 {
			ref = "77" // one shipment of a customer that does not exist
		}
		stmts = append(stmts, "INSERT INTO shipments VALUES ("+itoa(i)+", "+ref+", 1.5)")
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "discover.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConfigFile(t *testing.T) {
	db := smallDB(t)
	out := t.TempDir()
	cfg := writeConfig(t, `
format: [json]
max_iterations: 10
exclude: ["tmp_*"]
relations:
  - from: shipments.cust_ref
    to: customers.customer_key
  - from: shipments.nope
    to: customers.customer_key
`)
	res := run(t, "--db", db, "--out", out, "--config", cfg, "-q")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.md")); err == nil {
		t.Fatal("format: [json] ignored")
	}
	_, r := readReport(t, out)
	if len(r.Relationships) != 1 {
		t.Fatalf("relationships %+v", r.Relationships)
	}
	rel := r.Relationships[0]
	if rel.Source != "user" || rel.FromTable != "shipments" || rel.ToTable != "customers" ||
		rel.OrphanFraction == nil || *rel.OrphanFraction != 1.0/30 {
		t.Fatalf("user relation not reported and checked: %+v (orphans %v)", rel, deref(rel.OrphanFraction))
	}
	found := false
	for _, u := range r.Uncertainties {
		if strings.Contains(u, "shipments(nope)") {
			found = true
		}
	}
	if !found {
		t.Fatalf("a relation to a missing column is not reported: %v", r.Uncertainties)
	}
}

func TestConfigPrecedenceAndErrors(t *testing.T) {
	db := smallDB(t)
	cfg := writeConfig(t, "max_iterations: 1\nformat: json\n")
	// The file applies…
	out := t.TempDir()
	if res := run(t, "--db", db, "--out", out, "--config", cfg, "-q"); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if _, r := readReport(t, out); r.Run.Iterations != 1 {
		t.Fatalf("max_iterations from the file ignored: %d", r.Run.Iterations)
	}
	// …the environment beats it, and a flag beats both.
	t.Setenv("DISCOVER_MAX_ITERATIONS", "2")
	out = t.TempDir()
	run(t, "--db", db, "--out", out, "--config", cfg, "-q")
	if _, r := readReport(t, out); r.Run.Iterations != 2 {
		t.Fatalf("DISCOVER_MAX_ITERATIONS did not beat the file: %d", r.Run.Iterations)
	}
	out = t.TempDir()
	run(t, "--db", db, "--out", out, "--config", cfg, "-q", "--max-iterations", "50")
	if _, r := readReport(t, out); r.Run.Iterations < 2 || *r.Run.StopReason == "max_iterations" {
		t.Fatalf("the flag did not beat the file and environment: %+v", r.Run)
	}

	cases := []struct{ body, want string }{
		{"max_iteration: 3\n", `unknown key "max_iteration"`},
		{"max_iterations: many\n", "max_iterations"},
		{"timeout: [1, 2]\n", "timeout"},
		{"relations:\n  - form: a.b\n    to: c.d\n", "relations"},
		{"relations:\n  - from: [a.x, b.y]\n    to: [c.x, c.y]\n", "one table"},
		{"relations:\n  - from: a.x\n    to: [c.x, c.y]\n", "1 columns reference 2"},
		{"relations:\n  - from: nodot\n    to: c.x\n", "table.column"},
		{"{{{", "discover.yaml"},
	}
	for _, c := range cases {
		res := run(t, "--db", db, "--out", t.TempDir(), "--config", writeConfig(t, c.body))
		if res.code != 2 || !strings.Contains(res.stderr, c.want) {
			t.Errorf("config %q: exit %d, stderr %q, want exit 2 naming %q", c.body, res.code, res.stderr, c.want)
		}
	}
	if res := run(t, "--db", db, "--config", filepath.Join(t.TempDir(), "missing.yaml")); res.code != 2 {
		t.Errorf("a missing --config file: exit %d", res.code)
	}
}
