package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/load"
)

// createSchema is a table to read the CREATE statement of, and a view,
// which has none (its query stands for it).
const createSchema = `
CREATE TABLE parcels (id INTEGER PRIMARY KEY, label TEXT NOT NULL, weight REAL);
INSERT INTO parcels VALUES (1, 'a', 1.5), (2, 'b', NULL), (3, 'c', 2.25);
CREATE VIEW heavy_parcels AS SELECT id, label FROM parcels WHERE weight > 2;
`

// TestWarehouseCreateStatements: on the real Trino cluster (its memory
// catalog) and Spark Thrift Server, a table's CREATE TABLE, as the engine's
// SHOW CREATE TABLE writes it, reaches report.json and the table's page;
// a view's page has none.
func TestWarehouseCreateStatements(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "parcels.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(createSchema); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, c := range []struct {
		dialect, env string
		want         func(name string) string
	}{
		{"trino", "DISCOVER_TEST_TRINO", func(name string) string {
			return "CREATE TABLE memory." + name + ".parcels (\n   id bigint NOT NULL,\n   label varchar NOT NULL,\n   weight double\n)"
		}},
		{"spark", "DISCOVER_TEST_SPARK", func(name string) string {
			return "CREATE TABLE spark_catalog." + name + ".parcels (\n  id BIGINT,\n  label STRING COLLATE UTF8_BINARY,\n  weight DOUBLE)\nUSING parquet"
		}},
	} {
		t.Run(c.dialect, func(t *testing.T) {
			server := serverDSN(t, c.env)
			name := fmt.Sprintf("create_%d", time.Now().UnixNano())
			dsn, drop, err := load.CreateDatabase(ctx, c.dialect, server, name)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { drop() })
			if err := load.Copy(ctx, path, c.dialect, dsn); err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			res := run(t, "--db", dsn, "--out", out, "--format", "md,json", "--progress", "none", "-q")
			if res.code != 0 {
				t.Fatalf("exit %d: %s", res.code, res.stderr)
			}
			_, r := readReport(t, out)
			want := c.want(name)
			got := map[string]string{}
			for _, tb := range r.Tables {
				got[tb.Name] = tb.CreateStatement
			}
			if got["parcels"] != want || got["heavy_parcels"] != "" {
				t.Errorf("create statements %q; want parcels' %q and none for the view", got, want)
			}
			page, err := os.ReadFile(filepath.Join(out, "tables", "parcels.md"))
			if err != nil {
				t.Fatal(err)
			}
			if block := "## Definition\n\n```sql\n" + want + "\n```\n"; !strings.Contains(string(page), block) {
				t.Errorf("parcels.md lacks\n%s\n---\n%s", block, page)
			}
			view, err := os.ReadFile(filepath.Join(out, "tables", "heavy_parcels.md"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(view), "CREATE TABLE") {
				t.Errorf("the view's page has a CREATE statement:\n%s", view)
			}
		})
	}
}
