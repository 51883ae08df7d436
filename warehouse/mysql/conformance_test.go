package mysql

import (
	"fmt"
	"testing"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/internal/sourcetest"
)

// fixtureSpelling writes the conformance fixture in MySQL's SQL.
var fixtureSpelling = sourcetest.Spelling{
	Quote: QuoteIdent,
	Types: map[sourcetest.Class]string{
		// A key or unique column needs a bounded length.
		sourcetest.Int: "INT", sourcetest.Text: "VARCHAR(100)", sourcetest.Decimal: "DECIMAL(10,2)",
		sourcetest.Date: "DATE", sourcetest.Timestamp: "DATETIME", sourcetest.Blob: "BLOB",
		sourcetest.Double: "DOUBLE", sourcetest.Bool: "BOOLEAN",
	},
	Blob: func(b []byte) string { return fmt.Sprintf("x'%x'", b) },
}

// series counts from 1 to n with cross joins of digits: MySQL stops a
// recursive CTE at cte_max_recursion_depth (1000).
func series(n int) string {
	return digits + fmt.Sprintf(`SELECT n FROM (SELECT a.x + 10 * b.x + 100 * c.x + 1000 * e.x + 10000 * f.x + 1 AS n
		FROM d a, d b, d c, d e, d f) AS s WHERE n <= %d ORDER BY n`, n)
}

func TestConformance(t *testing.T) {
	t.Parallel()
	sourcetest.Run(t, conformance(t))
}

// conformance is the suite's harness on the test server, for
// TestConformance and BenchmarkBarCappedEndless.
func conformance(t testing.TB) sourcetest.Harness {
	admin := adminDB(t, "")
	var db string
	return sourcetest.Harness{
		Open: func(t testing.TB) (warehouse.Source, string) {
			db = createDB(t, admin, "dt_")
			exec(t, adminDB(t, db), sourcetest.Statements(fixtureSpelling)...)
			return open(t, rootDSN(t, db)), db
		},
		Dialect: "mysql", DefaultMaxRows: DefaultMaxRows,
		Series: series,
		Slow:   digits + `SELECT COUNT(*) FROM d a, d b, d c, d e, d f, d g, d h, d i, d j, d k`,
		// Ten billion rows, streamed as the join produces them: with the
		// join buffer, the first table's digit turns fastest.
		Endless: digits + `SELECT 1 + a.x + 10 * b.x + 100 * c.x + 1000 * e.x + 10000 * f.x + 100000 * g.x + 1000000 * h.x
			+ 10000000 * i.x + 100000000 * j.x + 1000000000 * k.x AS n FROM d a, d b, d c, d e, d f, d g, d h, d i, d j, d k`,
		Writes: []string{
			"SELECT SLEEP(5)",
			"SELECT BENCHMARK(100000000, MD5('x'))",
			"SELECT * FROM customer FOR UPDATE",
			"SELECT * FROM customer INTO OUTFILE '/tmp/x'",
			"SET SESSION TRANSACTION READ WRITE",
			"SELECT 1 /*! ; DELETE FROM customer */",
		},
		AfterTimeout: func(t *testing.T, s warehouse.Source) { waitIdle(t, admin, db, "after the timeouts") },
		BoolIsInt:    true,
	}
}
