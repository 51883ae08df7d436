package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/internal/sourcetest"
)

// fixtureSpelling writes the conformance fixture in SQLite's SQL.
var fixtureSpelling = sourcetest.Spelling{
	Quote: QuoteIdent,
	Types: map[sourcetest.Class]string{
		sourcetest.Int: "INTEGER", sourcetest.Text: "TEXT", sourcetest.Decimal: "DECIMAL(10,2)",
		sourcetest.Date: "DATE", sourcetest.Timestamp: "DATETIME", sourcetest.Blob: "BLOB",
		sourcetest.Double: "REAL", sourcetest.Bool: "BOOLEAN",
	},
	Blob: func(b []byte) string { return fmt.Sprintf("x'%x'", b) },
}

func TestConformance(t *testing.T) {
	sourcetest.Run(t, conformance())
}

// conformance is the suite's harness on a fresh database file, for
// TestConformance and BenchmarkBarCappedEndless.
func conformance() sourcetest.Harness {
	var path string
	var before [32]byte
	var files []string
	return sourcetest.Harness{
		Open: func(t testing.TB) (warehouse.Source, string) {
			path = build(t, "conform.db", sourcetest.Statements(fixtureSpelling)...)
			before, files = digest(t, path), listDir(t, filepath.Dir(path))
			s, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			return s, "conform"
		},
		Dialect: "sqlite", DefaultMaxRows: DefaultMaxRows,
		Series:  func(n int) string { return fmt.Sprintf(countTo, n) },
		Slow:    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
		Endless: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c",
		Writes: []string{
			`CREATE TEMP TABLE t3 (a)`,
			`CREATE INDEX i2 ON customer (name)`,
			`VACUUM`,
			`PRAGMA user_version = 7`,
			`ATTACH 'other.db' AS a2`,
		},
		Unchanged: func(t *testing.T) {
			if digest(t, path) != before {
				t.Error("the database file changed")
			}
			if got := listDir(t, filepath.Dir(path)); !slices.Equal(got, files) {
				t.Errorf("files beside the database: %v; before %v", got, files)
			}
		},
		OpenDSN: func(ctx context.Context, dsn string) (warehouse.Source, error) { return Open(ctx, dsn) },
		BadInputs: []sourcetest.BadInput{
			{DSN: "", Want: "empty path"},
			{DSN: "shop.db", Want: "no such file"},
		},
		BoolIsInt:      true,
		DecimalIsFloat: true,
	}
}
