package trino

import (
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/internal/sourcetest"
)

// fixtureTypes are the types information_schema gives the fixture's
// classes on a Trino catalog.
var fixtureTypes = map[sourcetest.Class]string{
	sourcetest.Int: "integer", sourcetest.Text: "varchar", sourcetest.Decimal: "decimal(10,2)",
	sourcetest.Date: "date", sourcetest.Timestamp: "timestamp(3)", sourcetest.Blob: "varbinary",
	sourcetest.Double: "double", sourcetest.Bool: "boolean",
}

// seriesSQL counts 1 to n. A cluster refuses a sequence of more than
// 10,000 entries, so longer series cross two of them.
func seriesSQL(n int) string {
	return fmt.Sprintf("SELECT a * 10000 + b AS x FROM UNNEST(sequence(0, %d)) AS s(a) CROSS JOIN UNNEST(sequence(1, 10000)) AS t(b) "+
		"WHERE a * 10000 + b <= %d ORDER BY x", (n-1)/10000, n)
}

// slowSQL would run for hours on a cluster; the fake holds it RUNNING until
// it is cancelled.
const slowSQL = `SELECT count(*) FROM UNNEST(sequence(1, 10000)) AS a(x) CROSS JOIN UNNEST(sequence(1, 10000)) AS b(y)
	CROSS JOIN UNNEST(sequence(1, 10000)) AS c(z)`

// endlessSQL never ends on a cluster (sequence stops at 10,000 entries,
// but a cross join of them does not, in any useful time); the fake sends
// page after page of it. A cluster walks the last table of a cross join
// fastest (a here), so the rows come counting up from 1.
const endlessSQL = `SELECT c.x * 100000000 + b.x * 10000 + a.x - 100010000 AS x FROM UNNEST(sequence(1, 10000)) AS c(x)
	CROSS JOIN UNNEST(sequence(1, 10000)) AS b(x) CROSS JOIN UNNEST(sequence(1, 10000)) AS a(x)`

// wire is a fixture value as a coordinator sends it.
func wire(c sourcetest.Class, v any) any {
	switch x := v.(type) {
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case string:
		if c == sourcetest.Timestamp {
			return x + ".000"
		}
	}
	return v
}

// conformanceFake is a coordinator whose catalog hive holds the fixture
// in schema shop: its tables for introspection, and the answers to the
// statements the suite reads them with.
func conformanceFake(t testing.TB) *fakeCoordinator {
	f := newFakeCoordinator(t)
	f.schemas = []string{"information_schema", "shop"}
	f.tables = nil
	quoter := &Source{}
	for _, ft := range sourcetest.Fixture {
		kind := "BASE TABLE"
		if ft.Kind == "view" {
			kind = "VIEW"
		}
		tb := &fakeTable{schema: "shop", name: ft.Name, kind: kind, count: int64(len(ft.Rows))}
		if ft.Kind == "table" {
			tb.statsRows = ptrFloat(float64(len(ft.Rows)))
		}
		var cols []fakeCol
		for _, c := range ft.Columns {
			cols = append(cols, fakeCol{name: c.Name, typ: fixtureTypes[c.Class], notNull: c.NotNull})
		}
		tb.cols = cols
		f.tables = append(f.tables, tb)
		res := fakeResult{cols: cols}
		for _, r := range ft.Rows {
			vals := make([]any, len(r))
			for i, v := range r {
				vals[i] = wire(ft.Columns[i].Class, v)
			}
			res.rows = append(res.rows, jsonRow(vals...))
		}
		f.fixtures[normalize(sourcetest.SelectSQL(quoter, warehouse.TableName{Name: ft.Name}, ft.ColumnNames()))] = res
	}
	f.fixtures[normalize(slowSQL)] = fakeResult{hang: true}
	f.fixtures[normalize(endlessSQL)] = fakeResult{cols: []fakeCol{{name: "x", typ: "bigint"}}, endless: true}
	return f
}

func TestConformance(t *testing.T) {
	sourcetest.Run(t, conformance())
}

// conformance is the suite's harness on a fake coordinator, for
// TestConformance and BenchmarkBarCappedEndless.
func conformance() sourcetest.Harness {
	var f *fakeCoordinator
	return sourcetest.Harness{
		Open: func(t testing.TB) (warehouse.Source, string) {
			f = conformanceFake(t).start()
			return openFake(t, f, "/hive/shop"), "hive.shop"
		},
		Dialect: "trino", DefaultMaxRows: DefaultMaxRows,
		Series:  seriesSQL,
		Slow:    slowSQL,
		Endless: endlessSQL,
		Writes: []string{
			`CREATE TABLE "copy" AS SELECT * FROM "customer"`,
			`CALL system.sync_partition_metadata('shop', 'customer', 'FULL')`,
			`START TRANSACTION READ WRITE`,
		},
		// The fake is the cluster: every statement it received ran in a
		// READ ONLY transaction, and none of them writes.
		Unchanged: func(t *testing.T) {
			f.assertReadOnly(t)
			for _, q := range f.statements() {
				// SHOW CREATE TABLE reads a table's DDL; the name after it
				// is still scanned.
				u := strings.TrimPrefix(strings.ToUpper(q), "SHOW CREATE TABLE ")
				for _, w := range []string{"INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "CALL"} {
					if strings.Contains(u, w) {
						t.Errorf("the cluster received %q", q)
					}
				}
			}
		},
		OpenDSN: func(ctx context.Context, dsn string) (warehouse.Source, error) { return Open(ctx, dsn) },
		BadInputs: []sourcetest.BadInput{
			{DSN: "trino://"},
			{DSN: "trino://host:8080/hive"},
			{DSN: "trino://alice@host:8080"},
			{DSN: "trino://alice@host:8080/"},
			{DSN: "trino://alice@host:notaport/hive"},
			{DSN: "trino://alice@host:99999/hive"},
			{DSN: "trino://alice:hunter2@host:8080/hive"},
			{DSN: "trino://alice@host:8080/hive/sales/extra"},
			{DSN: "trino://alice@host:8080/hive?bogus=1"},
			{DSN: "trino://alice@host:8080/hive?secure=maybe"},
			{DSN: "trino://alice@host:8080/hive?SSLVerification=NONE"},
			{DSN: "trinos://alice:hunter2@host:8080/hive?SSLVerification=SOMETIMES"},
			{DSN: "trinos://alice:hunter2@host:8080/hive?SSLCertPath=/no/such/cert.pem"},
			{DSN: "trinos://alice:hunter2@host:notaport/hive"},
			{DSN: "postgres://alice@host/hive"},
		},
		// Trino's connectors declare no keys and no indexes.
		NoKeys: true,
	}
}

// fixtureSpelling writes the conformance fixture in Trino's SQL, for the
// cluster's memory connector.
var fixtureSpelling = sourcetest.Spelling{
	Quote:         dialect.QuoteIdent,
	Types:         fixtureTypes,
	Blob:          func(b []byte) string { return fmt.Sprintf("X'%x'", b) },
	Timestamp:     func(v string) string { return "TIMESTAMP '" + v + "'" },
	Date:          func(v string) string { return "DATE '" + v + "'" },
	NoConstraints: true,
}

// TestConformanceCluster runs the suite on the cluster: the fixture in a
// schema of its own of the memory catalog, read as alice.
func TestConformanceCluster(t *testing.T) {
	sourcetest.Run(t, conformanceCluster())
}

func conformanceCluster() sourcetest.Harness {
	h := conformance()
	var admin *sql.DB
	var schema string
	h.Open = func(t testing.TB) (warehouse.Source, string) {
		addr := clusterAddr(t)
		schema = fmt.Sprintf("shop_%d", time.Now().UnixNano())
		ctx := context.Background()
		if err := execAll(ctx, clusterAdmin(t, "memory", ""), "CREATE SCHEMA memory."+schema); err != nil {
			t.Fatal(err)
		}
		admin = clusterAdmin(t, "memory", schema)
		t.Cleanup(func() { dropSchema(t, admin, schema) })
		if err := execAll(ctx, admin, sourcetest.Statements(fixtureSpelling)...); err != nil {
			t.Fatal(err)
		}
		return target{addr: addr}.open(t, "/memory/"+schema), "memory." + schema
	}
	// Every timed-out statement ended on the cluster: none of alice's
	// slow ones is still queued or running.
	h.AfterTimeout = func(t *testing.T, s warehouse.Source) {
		var live map[string]string
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			live = map[string]string{}
			for id, state := range clusterQueries(t, "AS c(z)") {
				if !strings.HasPrefix(state, "FINISHED") && !strings.HasPrefix(state, "FAILED") {
					live[id] = state
				}
			}
			if len(live) == 0 {
				return
			}
		}
		t.Errorf("timed-out statements still live on the cluster: %v", live)
	}
	// The tables hold what the fixture wrote, and no table was added.
	h.Unchanged = func(t *testing.T) {
		ctx := context.Background()
		var n int64
		if err := admin.QueryRowContext(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_schema = "+quoteString(schema)).Scan(&n); err != nil || n != int64(len(sourcetest.Fixture)) {
			t.Errorf("%d tables and views (%v), want %d", n, err, len(sourcetest.Fixture))
		}
		for _, ft := range sourcetest.Fixture {
			if err := admin.QueryRowContext(ctx, "SELECT count(*) FROM "+dialect.QuoteIdent(ft.Name)).Scan(&n); err != nil || n != int64(len(ft.Rows)) {
				t.Errorf("%s: %d rows (%v), want %d", ft.Name, n, err, len(ft.Rows))
			}
		}
	}
	return h
}
