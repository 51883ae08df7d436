package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/report"
)

// smallDB builds a database whose reference is not declared.
func smallDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "small.db")
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
	expertstest.SQLite(t, path, stmts...)
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
	addTable(t, db, `CREATE TABLE tmp_audit (id INTEGER PRIMARY KEY, shipment_id INTEGER)`)
	out := t.TempDir()
	cfg := writeConfig(t, `
format: [json]
max_iterations: 10
exclude: ["tmp_*"]
relations:
  - from: shipments.cust_ref
    to: customers.customer_key
  - from: tmp_audit.shipment_id
    to: shipments.id
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
	// A relation naming a table the database has but the run excludes is
	// no input error (see input_test.go for missing ones): the run says it
	// could not use it.
	found := false
	for _, u := range r.Uncertainties {
		if strings.Contains(u, "tmp_audit(shipment_id)") {
			found = true
		}
	}
	if !found {
		t.Fatalf("a relation to an excluded table is not reported: %v", r.Uncertainties)
	}
}

// addTable adds a table to a SQLite database file.
func addTable(t *testing.T, path, ddl string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(ddl); err != nil {
		t.Fatal(err)
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

	// Each mistake is named with the file's line (PATH:LINE:), the key and
	// what it takes.
	cases := []struct{ body, want string }{
		{"max_iteration: 3\n", `:1: unknown key "max_iteration"`},
		{"max_iterations: many\n", `:1: max_iterations: want a whole number, got "many"`},
		{"timeout: [1, 2]\n", ":1: timeout: want a duration such as 90s, 10m or 1h, got a list"},
		{"relations:\n  - form: a.b\n    to: c.d\n", `:2: relations: unknown key "form" (from, to)`},
		{"relations:\n  - from: [a.x, b.y]\n    to: [c.x, c.y]\n", ":2: relations: from: a composite reference must stay in one table (a, b)"},
		{"relations:\n  - from: a.x\n    to: [c.x, c.y]\n", ":2: relations: 1 columns reference 2"},
		{"relations:\n  - from: nodot\n    to: c.x\n", `:2: relations: from: "nodot" is not table.column`},
	}
	for _, c := range cases {
		cfg := writeConfig(t, c.body)
		res := run(t, "--db", db, "--out", t.TempDir(), "--config", cfg)
		if want := "discover: " + cfg + c.want + "\n"; res.code != 2 || res.stderr != want {
			t.Errorf("config %q: exit %d, stderr %q, want exit 2 and %q", c.body, res.code, res.stderr, want)
		}
	}
	if res := run(t, "--db", db, "--out", t.TempDir(), "--config", writeConfig(t, "{{{")); res.code != 2 ||
		!strings.Contains(res.stderr, "discover.yaml: yaml: ") {
		t.Errorf("unparsable YAML: exit %d, stderr %q", res.code, res.stderr)
	}
	if res := run(t, "--db", db, "--config", filepath.Join(t.TempDir(), "missing.yaml")); res.code != 2 {
		t.Errorf("a missing --config file: exit %d", res.code)
	}
}

// TestWrongTypeSaysWhatToGive: a value of the wrong type, in the file, in
// DISCOVER_* or on the command line, is answered with where it is (line,
// variable or flag), the key and the type in words, never with the
// parser's message.
func TestWrongTypeSaysWhatToGive(t *testing.T) {
	db := smallDB(t)
	check := func(t *testing.T, res result, want string) {
		t.Helper()
		if res.code != 2 || res.stderr != "discover: "+want+"\n" {
			t.Errorf("exit %d, stderr %q; want exit 2 and %q", res.code, res.stderr, want)
		}
		for _, parser := range []string{"strconv.", "time: invalid duration", "invalid syntax", "invalid argument"} {
			if strings.Contains(res.stderr, parser) {
				t.Errorf("the parser's message %q leaks: %s", parser, res.stderr)
			}
		}
	}
	file := []struct{ body, want string }{
		// The line is the value's: comments and other keys before it count.
		{"# settings\nformat: [json]\nmax_iterations: ten\n", `:3: max_iterations: want a whole number, got "ten"`},
		{"timeout: 10\n", `:1: timeout: want a duration such as 90s, 10m or 1h, got "10"`},
		{"query_timeout: soon\n", `:1: query_timeout: want a duration such as 90s, 10m or 1h, got "soon"`},
		{"target_confidence: high\n", `:1: target_confidence: want a number such as 0.9, got "high"`},
		{"ignore_declared_fks: maybe\n", `:1: ignore_declared_fks: want true or false, got "maybe"`},
		{"sample_rows: 99999999999999999999\n", `:1: sample_rows: want a whole number, got "99999999999999999999" (out of range)`},
		{"max_iterations:\n  - 1\n", ":2: max_iterations: want a whole number, got a list"},
		{"format:\n  md: true\n", ":2: format: want a list such as [a, b] or a,b, got a mapping (key: value lines)"},
		{"include: [[a, b]]\n", ":1: include: want a list such as [a, b] or a,b, got a list of other things than names"},
		{"max_iterations: 1\nmax_iterations: 2\n", ":2: max_iterations: given twice (first on line 1)"},
		{"- max_iterations: 1\n", ":1: want key: value lines, such as max_iterations: 10"},
	}
	for _, c := range file {
		t.Run("file "+c.body, func(t *testing.T) {
			cfg := writeConfig(t, c.body)
			check(t, run(t, "--db", db, "--out", t.TempDir(), "--config", cfg), cfg+c.want)
		})
	}
	t.Run("file value beaten by a flag", func(t *testing.T) {
		// The flag wins, but the file's mistake is still one.
		cfg := writeConfig(t, "\nmax_iterations: ten\n")
		check(t, run(t, "--db", db, "--out", t.TempDir(), "--config", cfg, "--max-iterations", "3"),
			cfg+`:2: max_iterations: want a whole number, got "ten"`)
	})

	env := []struct{ name, value, want string }{
		{"DISCOVER_MAX_ITERATIONS", "ten", `DISCOVER_MAX_ITERATIONS=ten: want a whole number, got "ten"`},
		{"DISCOVER_TIMEOUT", "5", `DISCOVER_TIMEOUT=5: want a duration such as 90s, 10m or 1h, got "5"`},
		{"DISCOVER_TARGET_COVERAGE", "most", `DISCOVER_TARGET_COVERAGE=most: want a number such as 0.9, got "most"`},
		{"DISCOVER_QUIET", "yes please", `DISCOVER_QUIET=yes please: want true or false, got "yes please"`},
	}
	for _, c := range env {
		t.Run("env "+c.name, func(t *testing.T) {
			t.Setenv(c.name, c.value)
			check(t, run(t, "--db", db, "--out", t.TempDir()), c.want)
		})
	}

	flags := []struct {
		args []string
		want string
	}{
		{[]string{"--max-iterations", "ten"}, `--max-iterations: want a whole number, got "ten"`},
		{[]string{"--timeout", "ten minutes"}, `--timeout: want a duration such as 90s, 10m or 1h, got "ten minutes"`},
		{[]string{"--target-confidence", "0,9"}, `--target-confidence: want a number such as 0.9, got "0,9"`},
		{[]string{"--quiet=maybe"}, `--quiet: want true or false, got "maybe"`},
	}
	for _, c := range flags {
		t.Run("flag "+c.args[0], func(t *testing.T) {
			check(t, run(t, append([]string{"--db", db, "--out", t.TempDir()}, c.args...)...), c.want)
		})
	}
}

// TestConfigVocabulary: discover.yaml adds a project's words to the name
// rules. orders.kunde_id references customers.id; no rule knows kunde, and
// customers are numbered 1..40, so the values alone do not tell either.
// With vocabulary: synonyms: {kunde: customer} the reference is inferred
// (by synonym), and the next run without the file is back to the embedded
// words.
func TestConfigVocabulary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kunden.db")
	stmts := []string{
		`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, kunde_id INTEGER, total REAL)`,
	}
	for i := 1; i <= 40; i++ {
		stmts = append(stmts, "INSERT INTO customers VALUES ("+itoa(i)+", 'c"+itoa(i)+"')")
	}
	for i := 1; i <= 300; i++ {
		stmts = append(stmts, "INSERT INTO orders VALUES ("+itoa(i)+", "+itoa(1+(i*7)%40)+", 9.5)")
	}
	expertstest.SQLite(t, path, stmts...)
	refs := func(args ...string) []string {
		t.Helper()
		out := t.TempDir()
		res := run(t, append([]string{"--db", path, "--out", out, "-q", "--format", "json"}, args...)...)
		if res.code != 0 {
			t.Fatalf("exit %d: %s", res.code, res.stderr)
		}
		_, r := readReport(t, out)
		var keys []string
		for _, rel := range r.Relationships {
			keys = append(keys, rel.FromTable+"."+strings.Join(rel.FromColumns, ",")+"->"+rel.ToTable+"."+strings.Join(rel.ToColumns, ",")+" "+rel.Source)
		}
		return keys
	}
	empty := writeConfig(t, "max_iterations: 10\n")
	if got := refs("--config", empty); len(got) != 0 {
		t.Fatalf("without the vocabulary: %q, want nothing (the test's premise)", got)
	}
	cfg := writeConfig(t, "vocabulary:\n  synonyms:\n    kunde: customer\n  actors: [clinician]\n")
	if got := refs("--config", cfg); strings.Join(got, " ") != "orders.kunde_id->customers.id inferred" {
		t.Errorf("with vocabulary synonyms kunde: customer: %q, want orders.kunde_id->customers.id inferred", got)
	}
	if got := refs("--config", empty); len(got) != 0 {
		t.Errorf("the next run without the vocabulary: %q: the words stayed", got)
	}

	for _, c := range []struct{ body, want string }{
		{"vocabulary: [kunde]\n", ":1: vocabulary: want synonyms:, actors:, people:, roles:, table_prefixes:, table_suffixes: or domains: under it, got a list"},
		{"vocabulary:\n  synonym:\n    kunde: customer\n", `:2: vocabulary: unknown key "synonym" (synonyms, actors, people, roles, table_prefixes, table_suffixes, domains)`},
		{"vocabulary:\n  domains: [energy]\n", ":2: vocabulary: domains: want a domain per key (energy: [turbine, substation]), got a list"},
		{"vocabulary:\n  domains:\n    energy: turbine\n", `:3: vocabulary: domains: energy: want a list of words or word: weight lines, got "turbine"`},
		{"vocabulary:\n  domains:\n    energy: {turbine: 5}\n", `:3: vocabulary: domains: energy: turbine: want a weight from 1 to 3, got "5"`},
		{"vocabulary:\n  domains:\n    energy: [turbine]\n    energy: [meter]\n", ":4: vocabulary: domains: energy given twice"},
		{"vocabulary:\n  domains:\n    wind energy: [turbine]\n", `:3: vocabulary: domains: want a domain name of letters, digits and underscores, got "wind energy"`},
		{"vocabulary:\n  roles: [reviewer]\n  roles: [auditor]\n", ":3: vocabulary: roles given twice"},
		{"vocabulary:\n  synonyms: [kunde]\n", ":2: vocabulary: synonyms: want word: word lines (kunde: customer), got a list"},
		{"vocabulary:\n  synonyms:\n    kunde_nr: customer\n", `:3: vocabulary: synonyms: want one word, got "kunde_nr"`},
		{"vocabulary:\n  actors: clinician\n", `:2: vocabulary: actors: want a list of words, got "clinician"`},
	} {
		cfg := writeConfig(t, c.body)
		res := run(t, "--db", path, "--out", t.TempDir(), "--config", cfg)
		if want := "discover: " + cfg + c.want + "\n"; res.code != 2 || res.stderr != want {
			t.Errorf("config %q: exit %d, stderr %q, want exit 2 and %q", c.body, res.code, res.stderr, want)
		}
	}
}

// TestConfigDomains: discover.yaml's vocabulary: domains: adds a project's
// domain words to the semantic expert's lexicon, which has none for wind
// farms. The same database is of no domain without the file and of the
// project's domain with it, on the words the file gives.
func TestConfigDomains(t *testing.T) {
	path := filepath.Join(t.TempDir(), "farm.db")
	stmts := []string{
		`CREATE TABLE turbines (id INTEGER PRIMARY KEY, hub_height REAL)`,
		`CREATE TABLE nacelle_faults (id INTEGER PRIMARY KEY, turbine_id INTEGER REFERENCES turbines(id), code TEXT)`,
		`CREATE TABLE yaw_logs (id INTEGER PRIMARY KEY, turbine_id INTEGER REFERENCES turbines(id), angle REAL)`,
	}
	for i := 1; i <= 20; i++ {
		stmts = append(stmts, "INSERT INTO turbines VALUES ("+itoa(i)+", 80.5)",
			"INSERT INTO nacelle_faults VALUES ("+itoa(i)+", "+itoa(1+i%20)+", 'F"+itoa(i%3)+"')",
			"INSERT INTO yaw_logs VALUES ("+itoa(i)+", "+itoa(1+i%20)+", 12.5)")
	}
	expertstest.SQLite(t, path, stmts...)
	domain := func(args ...string) report.Domain {
		t.Helper()
		out := t.TempDir()
		res := run(t, append([]string{"--db", path, "--out", out, "-q", "--format", "json"}, args...)...)
		if res.code != 0 {
			t.Fatalf("exit %d: %s", res.code, res.stderr)
		}
		_, r := readReport(t, out)
		return r.Domain
	}
	label := func(d report.Domain) string {
		if d.Label == nil {
			return "none"
		}
		return *d.Label
	}
	if d := domain("--config", writeConfig(t, "max_iterations: 10\n")); label(d) != "unknown" {
		t.Fatalf("without the vocabulary the domain is %q (%v), want unknown (the test's premise)", label(d), d.Evidence)
	}
	cfg := writeConfig(t, "vocabulary:\n  domains:\n    wind_energy: {turbine: 3, nacelle: 3}\n    shipping: [vessel]\n")
	d := domain("--config", cfg)
	if label(d) != "wind_energy" || !strings.Contains(strings.Join(d.Evidence, "; "), "nacelle, turbine") {
		t.Errorf("with the vocabulary: domain %q, evidence %q; want wind_energy on nacelle, turbine", label(d), d.Evidence)
	}
}
