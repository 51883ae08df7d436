package spark

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/hs2"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/internal/sourcetest"
)

// fixtureTypes are the types Spark declares for the fixture's classes.
var fixtureTypes = map[sourcetest.Class]string{
	sourcetest.Int: "BIGINT", sourcetest.Text: "STRING", sourcetest.Decimal: "DECIMAL(10,2)",
	sourcetest.Date: "DATE", sourcetest.Timestamp: "TIMESTAMP", sourcetest.Blob: "BINARY",
	sourcetest.Double: "DOUBLE", sourcetest.Bool: "BOOLEAN",
}

// fixtureSpelling writes the conformance fixture in Spark SQL; the
// session that runs it reads "…" as a name (the fixture's views quote
// so), and the views keep that setting.
var fixtureSpelling = sourcetest.Spelling{
	Quote:         dialect.QuoteIdent,
	Types:         fixtureTypes,
	Blob:          func(b []byte) string { return fmt.Sprintf("X'%x'", b) },
	Timestamp:     func(v string) string { return "TIMESTAMP '" + v + "'" },
	Date:          func(v string) string { return "DATE '" + v + "'" },
	NoConstraints: true,
}

var fixturePins = []string{
	"SET spark.sql.ansi.enabled=true",
	"SET spark.sql.ansi.doubleQuotedIdentifiers=true",
	"SET spark.sql.session.timeZone=UTC",
}

// TestConformance runs the suite every engine passes on the server: the
// fixture in a database of its own, of Parquet tables.
func TestConformance(t *testing.T) {
	sourcetest.Run(t, conformance())
}

func conformance() sourcetest.Harness {
	var admin *hs2.Conn
	var db string
	return sourcetest.Harness{
		Open: func(tb testing.TB) (warehouse.Source, string) {
			t, ok := tb.(*testing.T)
			if !ok {
				tb.Skip("the server's conformance runs as a test")
			}
			server := serverDSN(t)
			c, err := parseDSN(server)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			db = fmt.Sprintf("shop_%d", time.Now().UnixNano())
			cfg := c.Config
			cfg.Database = "default"
			if admin, err = hs2.Dial(ctx, &cfg, fixturePins); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				dctx, stop := context.WithTimeout(context.Background(), time.Minute)
				defer stop()
				_, _ = admin.Exec(dctx, "DROP DATABASE IF EXISTS "+db+" CASCADE", 0)
				admin.Close()
			})
			for _, q := range append([]string{"CREATE DATABASE " + db, "USE " + db}, sourcetest.Statements(fixtureSpelling)...) {
				for _, ft := range sourcetest.Fixture {
					q = strings.ReplaceAll(q, dialect.QuoteIdent(ft.Name), dialect.QuoteIdent(sparkName(ft.Name)))
				}
				if strings.HasPrefix(q, "CREATE TABLE") {
					q += " USING parquet"
				}
				if _, err := admin.Exec(ctx, q, 0); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			s, err := Open(context.Background(), server[:strings.LastIndex(server, "/")]+"/"+db)
			if err != nil {
				t.Fatal(err)
			}
			return s, db
		},
		Dialect: "spark", DefaultMaxRows: DefaultMaxRows,
		Series: func(n int) string {
			return fmt.Sprintf("SELECT id AS x FROM range(1, %d) ORDER BY x", n+1)
		},
		Slow:    slowStatement,
		Endless: "SELECT id + 1 AS x FROM range(0, 9223372036854775806)",
		Writes: []string{
			"CREATE TABLE `copy` AS SELECT * FROM `customer`",
			"INSERT OVERWRITE DIRECTORY '/tmp/x' USING parquet SELECT * FROM `customer`",
			"CACHE TABLE `customer`",
			"SET spark.sql.ansi.enabled=true",
			"ADD JAR /tmp/evil.jar",
		},
		// What the fixture wrote is there, and no table was added.
		Unchanged: func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := admin.Exec(ctx, "SHOW TABLES IN "+db, 1000)
			if err != nil || len(res.Rows) != len(sourcetest.Fixture) {
				t.Errorf("%d tables and views (%v), want %d", len(res.Rows), err, len(sourcetest.Fixture))
			}
			for _, ft := range sourcetest.Fixture {
				res, err := admin.Exec(ctx, "SELECT count(*) FROM "+db+"."+dialect.QuoteIdent(sparkName(ft.Name)), 1)
				if err != nil || fmt.Sprint(res.Rows) != fmt.Sprintf("[[%d]]", len(ft.Rows)) {
					t.Errorf("%s: %v (%v), want %d rows", ft.Name, res, err, len(ft.Rows))
				}
			}
		},
		OpenDSN:     func(ctx context.Context, dsn string) (warehouse.Source, error) { return Open(ctx, dsn) },
		TableName:   sparkName,
		RenamesOnly: true,
		BadInputs: []sourcetest.BadInput{
			{DSN: "spark://"},
			{DSN: "spark://alice@host:notaport/db"},
			{DSN: "spark://alice@host:99999/db"},
			{DSN: "spark://alice:hunter2@host:10000/db"},
			{DSN: "spark://alice@host:10000/db/extra"},
			{DSN: "spark://alice@host:10000/db?bogus=1"},
			{DSN: "spark://alice@host:10000/db?tls=maybe"},
			{DSN: "spark://alice@host:10000/db?auth=KERBEROS"},
			{DSN: "postgres://alice@host/db"},
		},
		// Spark declares no keys and no indexes; NOT NULL is kept in a
		// Parquet table's schema, but the catalog call says nullable.
		NoKeys: true, NoNotNull: true,
	}
}

// slowStatement runs for some 20 s on the test server (10^9 rows a
// second on its two cores), far past every timeout the tests give it, and
// ends by itself: a stage that escapes its cancel (docs/engines.md) then
// holds the server for seconds, not the hours 10^12 rows took, which
// timed out every later test in CI. Its 200 tasks of a tenth of a second
// let the fair scheduler of .ci/start-spark give the cores to the next
// statement meanwhile.
const slowStatement = "SELECT sum(id % 7) FROM range(0, 20000000000, 1, 200)"

// sparkName is a fixture table's name as Spark's Hive metastore can hold
// it: letters, digits and _ only ("order items" is order_items).
func sparkName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
}
