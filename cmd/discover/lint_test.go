package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/lint"
)

// lintDB builds a shop whose orders reference customers by a declared
// foreign key with no index under it, and whose invoices reference orders
// by a column nobody declared (indexed, all of its values orders' keys).
// With clean, the foreign key has its index and the invoices are gone.
func lintDB(t *testing.T, clean bool) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	series := func(n int) string {
		return "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + itoa(n) + ") "
	}
	stmts := []string{
		`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers (id), total REAL NOT NULL)`,
		series(200) + `INSERT INTO customers SELECT i, 'c' || i FROM n`,
		series(500) + `INSERT INTO orders SELECT i, 1 + (i * 7) % 200, i * 1.5 FROM n`,
	}
	if clean {
		stmts = append(stmts, `CREATE INDEX orders_customer ON orders (customer_id)`)
	} else {
		stmts = append(stmts,
			`CREATE TABLE invoices (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, amount REAL NOT NULL)`,
			`CREATE INDEX invoices_order ON invoices (order_id)`,
			series(400)+`INSERT INTO invoices SELECT i, 1 + (i * 13) % 500, i * 2.0 FROM n`)
	}
	expertstest.SQLite(t, path, stmts...)
	return path
}

// lintJSON is the part of lint --json the tests read.
type lintJSON struct {
	Database   string           `json:"database"`
	Complete   bool             `json:"complete"`
	Violations []lint.Violation `json:"violations"`
	Counts     lint.Counts      `json:"counts"`
}

func decodeLint(t *testing.T, out string) lintJSON {
	t.Helper()
	var doc lintJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("lint --json: %v\n%s", err, out)
	}
	return doc
}

func TestLintDatabase(t *testing.T) {
	dir := t.TempDir()
	res := run(t, "lint", "--db", lintDB(t, false), "--out", dir, "--progress", "none", "--format", "json")
	if res.code != 1 || res.stderr != "" {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	want := `unindexed_reference (warning, 1): a reference without an index on the child columns
  orders(customer_id) references customers(id) (declared) but no index, primary key or unique constraint of orders begins with customer_id: each delete in customers, and each join from it, reads orders whole

undeclared_reference (warning, 1): a reference the data confirms but the schema does not declare
  invoices(order_id) references orders(id): the data confirms it (confidence 0.94, 0% without a parent) but the schema declares no foreign key

off: missing_comment (turn on under lint: in discover.yaml)
2 violations of 2 of 8 rules (2 warnings) in 3 tables and views of shop
`
	if res.stdout != want {
		t.Fatalf("stdout\n%s\nwant\n%s", res.stdout, want)
	}

	// The catalog the discovery left is linted alike, and --json carries
	// the figures.
	res = run(t, "lint", "--catalog", filepath.Join(dir, "catalog.db"), "--json")
	if res.code != 1 {
		t.Fatalf("lint --catalog: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	doc := decodeLint(t, res.stdout)
	if doc.Database != "shop" || !doc.Complete || (doc.Counts != lint.Counts{Violations: 2, Warnings: 2, RulesViolated: 2, Tables: 3}) {
		t.Fatalf("lint --json: %+v", doc)
	}
	un, ud := doc.Violations[0], doc.Violations[1]
	if un.Rule != lint.UnindexedReference || un.Table != "orders" || !slices.Equal(un.Columns, []string{"customer_id"}) ||
		un.References.Table != "customers" || un.References.Source != "declared" || *un.Figures.Rows != 500 {
		t.Errorf("unindexed: %+v", un)
	}
	if ud.Rule != lint.UndeclaredReference || ud.Table != "invoices" || !slices.Equal(ud.Columns, []string{"order_id"}) ||
		*ud.Figures.Confidence != 0.94 || *ud.Figures.OrphanFraction != 0 || len(ud.Figures.Evidence) != 1 ||
		!strings.HasPrefix(ud.Figures.Evidence[0], "checked: 0 of 400 non-NULL references have no parent") {
		t.Errorf("undeclared: %+v", ud)
	}

	// Only errors fail under --fail-on error: the two warnings are printed
	// but the exit is 0.
	res = run(t, "lint", "--catalog", filepath.Join(dir, "catalog.db"), "--fail-on", "error")
	if res.code != 0 || !strings.HasSuffix(res.stdout, "2 violations of 2 of 8 rules (2 warnings) in 3 tables and views of shop\n") {
		t.Fatalf("--fail-on error: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}

	// discover.yaml turns a rule off and excludes a column.
	cfg := writeConfig(t, `
lint:
  unindexed_reference: {exclude: ["orders.customer_id"]}
  undeclared_reference: false
`)
	res = run(t, "lint", "--catalog", filepath.Join(dir, "catalog.db"), "--config", cfg)
	if res.code != 0 || !strings.HasSuffix(res.stdout, "no violations of 7 rules in 3 tables and views of shop\n") {
		t.Fatalf("configured: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

func TestLintCleanDatabase(t *testing.T) {
	res := run(t, "lint", "--db", lintDB(t, true), "--out", t.TempDir(), "--progress", "none", "--format", "json")
	want := "off: missing_comment (turn on under lint: in discover.yaml)\nno violations of 8 rules in 2 tables and views of shop\n"
	if res.code != 0 || res.stdout != want || res.stderr != "" {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
}

// TestLintIncomplete: a run that could not read a view lints what it read,
// says what it did not, and is not clean: exit 4, or 0 with
// --allow-incomplete.
func TestLintIncomplete(t *testing.T) {
	db := lintDB(t, true)
	addTable(t, db, `CREATE VIEW shouting AS SELECT LCASE(name) AS name FROM customers`)
	out := t.TempDir()
	res := run(t, "lint", "--db", db, "--out", out, "--progress", "none", "--format", "json")
	wantOut := "off: missing_comment (turn on under lint: in discover.yaml)\n" +
		"This discovery is incomplete. 1 of 3 tables and views could not be read: shouting (the view does not compile: SQL logic error: no such function: LCASE (1)). Lint saw only what the run read.\n" +
		"no violations of 8 rules in what the run read of 3 tables and views of shop (incomplete)\n"
	wantErr := "discover: no failing violation in what the run read, but 1 of 3 tables and views could not be read: shouting (the view does not compile: SQL logic error: no such function: LCASE (1)) (the discovery is incomplete)\n"
	if res.code != 4 || res.stdout != wantOut || res.stderr != wantErr {
		t.Fatalf("exit %d, want 4\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	res = run(t, "lint", "--catalog", filepath.Join(out, "catalog.db"), "--allow-incomplete", "--json")
	if doc := decodeLint(t, res.stdout); res.code != 0 || doc.Complete || !strings.HasSuffix(res.stderr, "(--allow-incomplete: exit 0)\n") {
		t.Fatalf("--allow-incomplete: exit %d, complete %v\n%s", res.code, doc.Complete, res.stderr)
	}
}

func TestLintBadInput(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "catalog.db")
	cat, err := catalog.Open(context.Background(), empty)
	if err != nil {
		t.Fatal(err)
	}
	cat.Close()
	bad := writeConfig(t, "lint:\n  unindexed_reference: {min_confidence: 2}\n")
	unknown := writeConfig(t, "lint:\n  unindexd_reference: false\n")
	for _, c := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"nothing to lint", []string{"lint"}, "discover: nothing to lint: give --catalog PATH (a discovery's catalog.db), or --db DSN or --demo to discover first\n"},
		{"missing catalog", []string{"lint", "--catalog", "/nonexistent/catalog.db"}, "discover: --catalog /nonexistent/catalog.db: no such catalog file\n"},
		{"no finished run", []string{"lint", "--catalog", empty}, "discover: --catalog " + empty + ": no finished run to lint (finish one with discover --resume, or lint with --db DSN)\n"},
		{"bad --fail-on", []string{"lint", "--catalog", empty, "--fail-on", "fatal"}, "discover: --fail-on \"fatal\": want error, warning or info\n"},
		{"report.json", []string{"lint", "report.json"}, "discover: lint takes no arguments: give --catalog PATH (a report.json lacks the indexes lint reads; lint its catalog), or --db DSN or --demo\n"},
		{"bad threshold", []string{"lint", "--catalog", empty, "--config", bad}, "discover: " + bad + ":2: lint: unindexed_reference: min_confidence: want a number from 0 to 1, got \"2\"\n"},
		{"unknown rule", []string{"lint", "--catalog", empty, "--config", unknown}, "discover: " + unknown + `:2: lint: unknown rule "unindexd_reference" (no_primary_key, unindexed_reference, undeclared_reference, orphaned_reference, nullable_never_null, missing_comment, inconsistent_naming, redundant_index, isolated_table, or exclude)` + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, c.args...)
			if res.code != 2 || res.stdout != "" || res.stderr != c.stderr {
				t.Fatalf("exit %d, want 2\nstdout %q\nstderr %q\nwant   %q", res.code, res.stdout, res.stderr, c.stderr)
			}
		})
	}
}

// TestLintConfigKeys checks the lint: key's parsing: every mistake names
// its line and key, and a discovery rejects it too (one file, one check).
func TestLintConfigKeys(t *testing.T) {
	for _, c := range []struct{ body, err string }{
		{"lint: [a]\n", `:1: lint: want a rule per key (unindexed_reference: {enabled: false}), got a list`},
		{"lint:\n  isolated_table: maybe\n", `:2: lint: isolated_table: want true, false or settings (enabled:, severity:, exclude:, min_confidence), got "maybe"`},
		{"lint:\n  redundant_index: {enable: true}\n", `:2: lint: redundant_index: unknown key "enable" (enabled, severity, exclude)`},
		{"lint:\n  no_primary_key: {severity: fatal}\n", `:2: lint: no_primary_key: severity: want error, warning or info, got "fatal"`},
		{"lint:\n  nullable_never_null: {min_rows: 2.5}\n", `:2: lint: nullable_never_null: min_rows: want a whole number of at least 1, got "2.5"`},
		{"lint:\n  missing_comment: {columns: 1}\n", `:2: lint: missing_comment: columns: want true or false, got "1"`},
		{"lint:\n  exclude: [\"[a-\"]\n", `:2: lint: exclude: "[a-" is not a glob: syntax error in pattern`},
		{"lint:\n  isolated_table: false\n  isolated_table: true\n", `:3: lint: isolated_table given twice`},
		// lint's own flags are no keys of the file, as for a discovery.
		{"json: true\n", `:1: unknown key "json"`},
		{"fail_on: warning\n", `:1: unknown key "fail_on"`},
	} {
		cfg := writeConfig(t, c.body)
		for _, args := range [][]string{{"lint", "--catalog", "x.db", "--config", cfg}, {"--db", "x.db", "--config", cfg}} {
			res := run(t, args...)
			if res.code != 2 || res.stderr != "discover: "+cfg+c.err+"\n" {
				t.Errorf("%v on %q: exit %d, stderr %q, want %q", args[0], c.body, res.code, res.stderr, "discover: "+cfg+c.err)
			}
		}
	}
}

// TestLintDatasets lints Northwind and Sakila from shared/datasets (outside
// the repository: skipped where absent). Neither declares an index on any
// foreign key column, so every reference whose columns do not lead the
// child's primary key is unindexed; Sakila's film_text references film by
// a column nobody declared.
func TestLintDatasets(t *testing.T) {
	for _, c := range []struct {
		name, file string
		code       int // sakila: two views do not compile in SQLite (exit 1 wins over 4)
		unindexed  int
		example    string
		undeclared []string
	}{
		{"northwind", "northwind/northwind.db", 1, 10, "Order Details(ProductID)", nil},
		{"sakila", "sakila/sakila.db", 1, 20, "film_actor(film_id)", []string{"film_text(film_id)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := copyDataset(t, c.file)
			res := run(t, "lint", "--db", db, "--out", t.TempDir(), "--progress", "none", "--format", "json", "--json")
			if res.code != c.code {
				t.Fatalf("exit %d, want %d\n%s", res.code, c.code, res.stderr)
			}
			doc := decodeLint(t, res.stdout)
			var unindexed, undeclared []string
			for _, v := range doc.Violations {
				place := v.Table + "(" + strings.Join(v.Columns, ", ") + ")"
				switch v.Rule {
				case lint.UnindexedReference:
					unindexed = append(unindexed, place)
				case lint.UndeclaredReference:
					undeclared = append(undeclared, place)
				}
			}
			if len(unindexed) != c.unindexed || !slices.Contains(unindexed, c.example) {
				t.Errorf("unindexed references %q, want %d with %s", unindexed, c.unindexed, c.example)
			}
			if !slices.Equal(undeclared, c.undeclared) {
				t.Errorf("undeclared references %q, want %q", undeclared, c.undeclared)
			}
		})
	}
}

// TestLintIndexesOfSQLite checks the index rules on what SQLite reports: a
// UNIQUE index is listed among the indexes and the unique constraints, a
// UNIQUE constraint's own index among the constraints only, and neither is
// redundant; an index with a constraint's columns, or one that begins
// another, is; a composite reference served by a key in another order is
// indexed.
func TestLintIndexesOfSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "items.db")
	expertstest.SQLite(t, path,
		`CREATE TABLE kinds (a INTEGER NOT NULL, b INTEGER NOT NULL, PRIMARY KEY (a, b))`,
		`CREATE TABLE items (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, sku TEXT NOT NULL, cat INTEGER NOT NULL,
			ka INTEGER NOT NULL, kb INTEGER NOT NULL, FOREIGN KEY (kb, ka) REFERENCES kinds (b, a))`,
		`CREATE TABLE kind_items (kb INTEGER NOT NULL, ka INTEGER NOT NULL, item_id INTEGER NOT NULL REFERENCES items (id),
			PRIMARY KEY (ka, kb, item_id), FOREIGN KEY (ka, kb) REFERENCES kinds (a, b))`,
		`CREATE UNIQUE INDEX items_sku ON items (sku)`,
		`CREATE INDEX items_code ON items (code)`,
		`CREATE INDEX items_cat ON items (cat)`,
		`CREATE INDEX items_cat_sku ON items (cat, sku)`,
		`CREATE INDEX items_kind ON items (ka, kb)`,
		`CREATE INDEX kind_items_item ON kind_items (item_id)`,
		`INSERT INTO kinds VALUES (1, 1), (1, 2)`,
		`INSERT INTO items VALUES (1, 'a', 's1', 1, 1, 1), (2, 'b', 's2', 1, 1, 2)`,
		`INSERT INTO kind_items VALUES (1, 1, 1), (2, 1, 2)`)
	res := run(t, "lint", "--db", path, "--out", t.TempDir(), "--progress", "none", "--format", "json", "--json")
	doc := decodeLint(t, res.stdout)
	var got []string
	for _, v := range doc.Violations {
		if v.Rule == lint.RedundantIndex || v.Rule == lint.UnindexedReference {
			got = append(got, v.Message)
		}
	}
	want := []string{
		"index items_cat on items(cat) is redundant: index items_cat_sku begins with its columns",
		"index items_code on items(code) is redundant: the unique constraint on (code) has the same columns",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("exit %d\ngot\n%s\nwant\n%s\n%s", res.code, strings.Join(got, "\n"), strings.Join(want, "\n"), res.stderr)
	}
}
