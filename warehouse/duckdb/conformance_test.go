package duckdb

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/internal/sourcetest"
)

// fixtureSpelling writes the conformance fixture in DuckDB's SQL.
var fixtureSpelling = sourcetest.Spelling{
	Quote: QuoteIdent,
	Types: map[sourcetest.Class]string{
		sourcetest.Int: "INTEGER", sourcetest.Text: "VARCHAR", sourcetest.Decimal: "DECIMAL(10,2)",
		sourcetest.Date: "DATE", sourcetest.Timestamp: "TIMESTAMP", sourcetest.Blob: "BLOB",
		sourcetest.Double: "DOUBLE", sourcetest.Bool: "BOOLEAN",
	},
	Blob: func(b []byte) string {
		var s strings.Builder
		for _, c := range b {
			fmt.Fprintf(&s, `\x%02X`, c)
		}
		return "'" + s.String() + "'::BLOB"
	},
}

// harness is what a DuckDB file and a DuckDB folder share.
func harness() sourcetest.Harness {
	return sourcetest.Harness{
		DefaultMaxRows: DefaultMaxRows,
		Dialect:        "duckdb",
		Series:         func(n int) string { return fmt.Sprintf("SELECT range + 1 AS x FROM range(%d)", n) },
		Endless:        "SELECT range + 1 AS x FROM range(1000000000000000)",
		Slow:           "SELECT count(*) FROM range(1000000000) AS a, range(1000000000) AS b WHERE a.range + b.range = 7",
		Writes: []string{
			`CREATE TEMP TABLE t3 (a INTEGER)`,
			`CREATE INDEX i2 ON customer (name)`,
			`CHECKPOINT`,
			`ATTACH 'other.duckdb' AS a2`,
			`COPY customer TO 'out.csv'`,
			`SET enable_external_access = true`,
			`CREATE SEQUENCE s1`,
		},
		OpenDSN: func(ctx context.Context, dsn string) (warehouse.Source, error) { return Open(ctx, dsn) },
	}
}

// digests reads every file in dir.
func digests(t testing.TB, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	for _, f := range listDir(t, dir) {
		out[f] = digest(t, filepath.Join(dir, f))
	}
	return out
}

func TestConformance(t *testing.T) {
	sourcetest.Run(t, conformanceFile())
}

// conformanceFile is the suite's harness on a DuckDB file, for
// TestConformance and BenchmarkBarCappedEndless.
func conformanceFile() sourcetest.Harness {
	var dir string
	var before map[string][32]byte
	h := harness()
	h.Open = func(t testing.TB) (warehouse.Source, string) {
		dir = t.TempDir()
		path := filepath.Join(dir, "conform.duckdb")
		exec(t, path, sourcetest.Statements(fixtureSpelling)...)
		before = digests(t, dir)
		return open(t, "duckdb://"+path), "conform"
	}
	h.Unchanged = func(t *testing.T) {
		if after := digests(t, dir); !maps.Equal(after, before) {
			t.Errorf("the database folder changed: %d files, before %d", len(after), len(before))
		}
	}
	h.BadInputs = []sourcetest.BadInput{
		{DSN: "duckdb://", Want: "empty path"},
		{DSN: "duckdb://x.duckdb", Want: "no such file"},
	}
	return h
}

// TestConformanceFolder runs the suite on a folder of data files: the
// fixture's tables written as Parquet and CSV, one file each.
func TestConformanceFolder(t *testing.T) {
	sourcetest.Run(t, conformanceFolder())
}

// conformanceFolder is the suite's harness on a folder of data files, for
// TestConformanceFolder and BenchmarkBarCappedEndless.
func conformanceFolder() sourcetest.Harness {
	var dir string
	var before map[string][32]byte
	h := harness()
	h.Open = func(t testing.TB) (warehouse.Source, string) {
		dir = filepath.Join(t.TempDir(), "conform_lake")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		stmts := sourcetest.Statements(fixtureSpelling)
		for _, ft := range sourcetest.Fixture {
			// A CSV file holds text and numbers; the rest goes to Parquet.
			file, format := filepath.Join(dir, ft.Name+".parquet"), " (FORMAT parquet)"
			if ft.Name == "select" || ft.Name == `say "hi"` {
				file, format = filepath.Join(dir, ft.Name+".csv"), " (HEADER)"
			}
			stmts = append(stmts, "COPY "+QuoteIdent(ft.Name)+" TO "+quoteString(file)+format)
		}
		exec(t, "", stmts...)
		before = digests(t, dir)
		return open(t, "duckdb://"+dir), "conform_lake"
	}
	h.TableName = sanitize
	h.NoKeys, h.NoNotNull = true, true
	h.Unchanged = func(t *testing.T) {
		if after := digests(t, dir); !maps.Equal(after, before) {
			t.Errorf("the data files changed: %v, before %v", slices.Sorted(maps.Keys(after)), slices.Sorted(maps.Keys(before)))
		}
	}
	return h
}
