package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/internal/sourcetest"
)

// fixtureSpelling writes the conformance fixture in PostgreSQL's SQL.
var fixtureSpelling = sourcetest.Spelling{
	Quote: QuoteIdent,
	Types: map[sourcetest.Class]string{
		sourcetest.Int: "integer", sourcetest.Text: "text", sourcetest.Decimal: "numeric(10,2)",
		sourcetest.Date: "date", sourcetest.Timestamp: "timestamp", sourcetest.Blob: "bytea",
		sourcetest.Double: "double precision", sourcetest.Bool: "boolean",
	},
	Blob: func(b []byte) string { return fmt.Sprintf(`'\x%x'::bytea`, b) },
}

func TestConformance(t *testing.T) {
	t.Parallel()
	sourcetest.Run(t, conformance())
}

// conformance is the suite's harness on the test server, for
// TestConformance and BenchmarkBarCappedEndless.
func conformance() sourcetest.Harness {
	return sourcetest.Harness{
		Open: func(t testing.TB) (warehouse.Source, string) {
			db := newDB(t, sourcetest.Statements(fixtureSpelling)...)
			return open(t, db.dsn), db.name
		},
		Dialect: "postgres", DefaultMaxRows: DefaultMaxRows,
		Series:  func(n int) string { return fmt.Sprintf(`SELECT g FROM generate_series(1, %d) g`, n) },
		Slow:    endless,
		Endless: `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT i FROM r`,
		Writes:  writes,
		// The server stopped the statements: none of ours is still running.
		AfterTimeout: func(t *testing.T, s warehouse.Source) {
			var running int
			c := connect(t, serverDSN(t))
			if err := c.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
				WHERE datname = $1 AND state = 'active' AND query LIKE '%RECURSIVE%'`, s.Database()).Scan(&running); err != nil || running != 0 {
				t.Errorf("%d statements still running (%v)", running, err)
			}
		},
	}
}
