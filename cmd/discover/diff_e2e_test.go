package main

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/report"
)

// The drift a CI job gates on, made by changing a real database between
// two real discoveries rather than by editing a report.

// changedCopy copies the database at src and applies stmts to the copy.
func changedCopy(t *testing.T, src string, stmts ...string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "changed.db")
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", dst)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return dst
}

func discoverDB(t *testing.T, db string) (reportJSON, catalogDB string) {
	t.Helper()
	dir := t.TempDir()
	res := run(t, "--db", db, "--out", dir, "--format", "json", "--max-iterations", "10", "-q")
	if res.code != 0 {
		t.Fatalf("discovery of %s: exit %d: %s", db, res.code, res.stderr)
	}
	return filepath.Join(dir, "report.json"), filepath.Join(dir, "catalog.db")
}

func TestDiffAfterRealSchemaChange(t *testing.T) {
	db := smallDB(t)
	before, beforeCat := discoverDB(t, db)

	// Unchanged data, a second discovery: no drift.
	again, againCat := discoverDB(t, db)
	for _, pair := range [][2]string{{before, again}, {beforeCat, againCat}} {
		if res := run(t, "diff", pair[0], pair[1]); res.code != 0 || res.stdout != "no drift\n" {
			t.Fatalf("two discoveries of an unchanged database: exit %d\n%s%s", res.code, res.stdout, res.stderr)
		}
	}

	// A column added: exit 3, the column named, as a schema change.
	added := changedCopy(t, db, `ALTER TABLE shipments ADD COLUMN carrier TEXT`, `UPDATE shipments SET carrier = 'DHL'`)
	after, afterCat := discoverDB(t, added)
	res := run(t, "diff", before, after)
	if res.code != exitDrift || !strings.Contains(res.stdout, "\nschema:\n  + column shipments.carrier added (TEXT, nullable)") {
		t.Fatalf("column added: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	t.Logf("diff after ALTER TABLE ADD COLUMN:\n%s", res.stdout)
	res = run(t, "diff", "--json", beforeCat, afterCat)
	var out report.DiffResult
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil || res.code != exitDrift || !out.Drift {
		t.Fatalf("--json on catalogs: exit %d, %v\n%s", res.code, err, res.stdout)
	}
	found := false
	for _, c := range out.Changes {
		if c.Object == "shipments.carrier" && c.Kind == report.ChangeAdded && c.Category == report.CategorySchema && c.Failing {
			found = true
		}
	}
	if !found {
		t.Errorf("--json does not report shipments.carrier added as a failing schema change:\n%s", res.stdout)
	}
}

func TestDiffFailOnSchemaPassesRealRowGrowth(t *testing.T) {
	db := smallDB(t)
	before, _ := discoverDB(t, db)
	var stmts []string
	for i := 31; i <= 60; i++ {
		stmts = append(stmts, "INSERT INTO customers VALUES ("+itoa(i)+", 'c"+itoa(i)+"')")
	}
	grown, _ := discoverDB(t, changedCopy(t, db, stmts...))

	res := run(t, "diff", "--fail-on", "schema", before, grown)
	if res.code != 0 || !strings.HasPrefix(res.stdout, "no drift (") || !strings.Contains(res.stdout, "stats (informational):") ||
		!strings.Contains(res.stdout, "customers row count 30 -> 60 (+100.0%)") {
		t.Fatalf("--fail-on schema with row growth: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if res := run(t, "diff", before, grown); res.code != exitDrift || !strings.HasPrefix(res.stdout, "drift: ") {
		t.Fatalf("row growth under the default --fail-on: exit %d\n%s", res.code, res.stdout)
	}
}
