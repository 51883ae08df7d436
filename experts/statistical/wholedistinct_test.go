package statistical_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/mysql"
	"github.com/discover-db/discover/warehouse/postgres"
)

// TestWholeTableDistinct: on a table profiled from a sample, the distinct
// counts of high-cardinality columns come from the whole table, within the
// 2% issue 4 asks of columns with more than 100k distinct values.
// PostgreSQL builds a HyperLogLog sketch itself; MySQL counts exactly. A
// code list keeps its count either way.
func TestWholeTableDistinct(t *testing.T) {
	for _, c := range []struct {
		engine, env, driver, create, fill string
		open                              func(ctx context.Context, dsn string) (warehouse.Source, error)
		exact                             bool
	}{
		{"postgres", "DISCOVER_TEST_POSTGRES", "pgx",
			`CREATE TABLE %s (id INTEGER, code TEXT, amount NUMERIC(10,2), grp INTEGER, at TIMESTAMP)`,
			`INSERT INTO %s SELECT i, 'c' || (i %% 200000), (i %% 150000) / 100.0, i %% 40, TIMESTAMP '2024-01-01' + i * INTERVAL '1 minute' FROM generate_series(1, 300000) i`,
			func(ctx context.Context, dsn string) (warehouse.Source, error) { return postgres.Open(ctx, dsn) }, false},
		{"mysql", "DISCOVER_TEST_MYSQL", "mysql",
			`CREATE TABLE %s (id INTEGER, code VARCHAR(20), amount DECIMAL(10,2), grp INTEGER, at DATETIME)`,
			`INSERT INTO %s WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 300000)
				SELECT i, CONCAT('c', i %% 200000), (i %% 150000) / 100.0, i %% 40, TIMESTAMP '2024-01-01 00:00:00' + INTERVAL i MINUTE FROM r`,
			func(ctx context.Context, dsn string) (warehouse.Source, error) { return mysql.Open(ctx, dsn) }, true},
	} {
		t.Run(c.engine, func(t *testing.T) {
			dsn := os.Getenv(c.env)
			if dsn == "" {
				if os.Getenv("CI") == "true" {
					t.Fatalf("%s not set: .ci/run starts the servers", c.env)
				}
				t.Skipf(`%s not set; run eval "$(.ci/start-servers)" first`, c.env)
			}
			ctx := context.Background()
			src, err := c.open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			adminDSN := dsn
			if c.engine == "mysql" {
				adminDSN = mysqlDriverDSN(t, dsn)
			}
			admin, err := sql.Open(c.driver, adminDSN)
			if err != nil {
				t.Fatal(err)
			}
			defer admin.Close()
			table := fmt.Sprintf("whole_%d", time.Now().UnixNano())
			if c.engine == "mysql" {
				if _, err := admin.ExecContext(ctx, "SET SESSION max_recursive_iterations = 1000000"); err != nil {
					// MySQL names it cte_max_recursion_depth.
					if _, err := admin.ExecContext(ctx, "SET SESSION cte_max_recursion_depth = 1000000"); err != nil {
						t.Fatal(err)
					}
				}
				admin.SetMaxOpenConns(1) // the session variable holds on one connection
			}
			for _, s := range []string{fmt.Sprintf(c.create, table), fmt.Sprintf(c.fill, table)} {
				if _, err := admin.ExecContext(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			t.Cleanup(func() { admin.ExecContext(context.Background(), "DROP TABLE "+table) })
			h := serverHarness(t, src, table, experts.Options{SampleRows: 40000}) // 7.5 samples: read whole
			if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
				t.Fatal(errs)
			}
			// The histogram: bounds from the engine (PostgreSQL's
			// percentile_cont, one ranked sort on MySQL), counts from the
			// anomaly query over the same seeded sample.
			p, _ := h.profile(t, table+".amount")
			if hg := p.Histogram; hg == nil || len(hg.Bounds) != 11 || len(hg.Counts) != 10 || !hg.Estimate {
				t.Errorf("amount histogram %+v", hg)
			} else {
				var sum int64
				for i, n := range hg.Counts {
					sum += n
					if hg.Bounds[i+1] < hg.Bounds[i] || float64(n) < 0.08*float64(p.Rows) || float64(n) > 0.12*float64(p.Rows) {
						t.Errorf("amount bucket %d (%v, %v] holds %d of %d", i, hg.Bounds[i], hg.Bounds[i+1], n, p.Rows)
					}
				}
				if sum != p.Rows || hg.Bounds[0] < 0 || hg.Bounds[10] > 1500 {
					t.Errorf("amount histogram %+v counts %d values of %d sampled", hg, sum, p.Rows)
				}
			}
			for _, col := range []struct {
				name string
				want float64
			}{{"id", 300000}, {"code", 200000}, {"amount", 150000}, {"at", 300000}, {"grp", 40}} {
				p, e := h.profile(t, table+"."+col.name)
				ev := strings.Join(e.Evidence, ";")
				if p.DistinctCount == nil || !p.Sampled {
					t.Errorf("%s: distinct %v, sampled %v; evidence %q", col.name, p.DistinctCount, p.Sampled, ev)
					continue
				}
				got := float64(*p.DistinctCount)
				t.Logf("%s: %.0f distinct of %.0f on a sample of %d rows", col.name, got, col.want, p.Rows)
				tol := 0.02
				if c.exact || col.want < 1000 {
					tol = 0
				}
				if math.Abs(got-col.want) > tol*col.want {
					t.Errorf("%s: %.0f distinct, want %.0f within %.0f%%; evidence %q", col.name, got, col.want, 100*tol, ev)
				}
				if col.want < 1000 {
					continue
				}
				how := "HyperLogLog"
				if c.exact {
					how = "counted over all 300000 rows"
				}
				if p.DistinctIsEstimate == c.exact || !strings.Contains(ev, how) {
					t.Errorf("%s: distinct_is_estimate %v, evidence %q, want %q", col.name, p.DistinctIsEstimate, ev, how)
				}
			}
		})
	}
}

// mysqlDriverDSN turns the tests' mysql://user:pass@host:port/db into the
// driver's user:pass@tcp(host:port)/db.
func mysqlDriverDSN(t *testing.T, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pass, _ := u.User.Password()
	return fmt.Sprintf("%s:%s@tcp(%s)%s", u.User.Username(), pass, u.Host, u.Path)
}

// TestWholeTableDistinctByValue: PostgreSQL's sketch counts values as the
// column's type compares them, as COUNT(DISTINCT) does: an unconstrained
// numeric column holding each of 6001 numbers written at two scales (5.0
// and 5.000) has 6001 distinct values, not the 12002 texts they print as;
// an integer column is sketched by its number, not its text, and bigints
// beyond 32 bits whose halves XOR to the same (which hashint8 alone folds
// to one hash) stay distinct.
func TestWholeTableDistinctByValue(t *testing.T) {
	ctx := context.Background()
	src, admin, table := postgresTable(t, "byvalue", func(table string) []string {
		return []string{
			`CREATE TABLE ` + table + ` (n NUMERIC, k BIGINT, w BIGINT)`,
			`INSERT INTO ` + table + ` SELECT CASE WHEN i % 2 = 0 THEN round((i % 6001)::numeric, 1) ELSE round((i % 6001)::numeric, 3) END,
				i % 7001, (CAST(i AS BIGINT) << 32) | (i # 5) FROM generate_series(1, 60000) i`,
		}
	})
	var texts int
	if err := admin.QueryRowContext(ctx, `SELECT COUNT(DISTINCT CAST(n AS TEXT)) FROM `+table).Scan(&texts); err != nil || texts != 12002 {
		t.Fatalf("the fixture holds %d distinct texts of n, %v; want 12002", texts, err)
	}
	h := serverHarness(t, src, table, experts.Options{SampleRows: 8000}) // 7.5 samples: read whole
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, col := range []struct {
		name string
		want float64
	}{{"n", 6001}, {"k", 7001}, {"w", 60000}} {
		p, e := h.profile(t, table+"."+col.name)
		ev := strings.Join(e.Evidence, ";")
		if p.DistinctCount == nil || !p.Sampled || !strings.Contains(ev, "HyperLogLog") {
			t.Errorf("%s: distinct %v, sampled %v; evidence %q", col.name, p.DistinctCount, p.Sampled, ev)
			continue
		}
		if got := float64(*p.DistinctCount); math.Abs(got-col.want) > 0.02*col.want {
			t.Errorf("%s: %.0f distinct, want %.0f within 2%%; evidence %q", col.name, got, col.want, ev)
		}
	}
}

// postgresTable opens the test server (pgscratch.Server), creates a table
// named prefix_<nanoseconds> by the statements build gives for that name,
// and drops the table and closes both connections when the test ends.
func postgresTable(t *testing.T, prefix string, build func(table string) []string) (warehouse.Source, *sql.DB, string) {
	t.Helper()
	dsn := pgscratch.Server(t)
	ctx := context.Background()
	src, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	table := fmt.Sprintf("%s_%d", prefix, time.Now().UnixNano())
	t.Cleanup(func() { admin.ExecContext(context.Background(), "DROP TABLE "+table) })
	for _, s := range build(table) {
		if _, err := admin.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return src, admin, table
}

// sketchLog is a source that keeps its statements, and apart the ones that
// build a sketch.
type sketchLog struct {
	warehouse.Source
	mu    sync.Mutex
	stmts []string // the sketch statements
	all   []string
}

func (l *sketchLog) Query(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	l.mu.Lock()
	l.all = append(l.all, q)
	if strings.Contains(q, "hashint8extended") || strings.Contains(q, "hashtextextended") {
		l.stmts = append(l.stmts, q)
	}
	l.mu.Unlock()
	return l.Source.Query(ctx, q, opts)
}

// TestSketchStatementsBounded: the sketches of a table's columns each
// read the whole table, so a statement holds only as many as its bound of
// values hashed allows (at star scale 1, 19 sketches of 8.6M rows made
// one statement that outlasted the query timeout). With the bound at one
// column's rows, each column gets its own statement, and the estimates
// are those of one statement holding them all. A column none of whose
// values the sample sees only once (500 values, each about 67 times in the
// sample) gets no sketch: the sample has seen its values, and its count
// is the sample's.
func TestSketchStatementsBounded(t *testing.T) {
	src, _, table := postgresTable(t, "bounded", func(table string) []string {
		return []string{
			`CREATE TABLE ` + table + ` (a BIGINT, b BIGINT, c TEXT, g BIGINT)`,
			`INSERT INTO ` + table + ` SELECT i, i % 9001, 'v' || (i % 12001), i % 500 FROM generate_series(1, 60000) i`,
		}
	})
	distinct := func(bound int64) (map[string]int64, int) {
		defer statistical.SetSketchValuesPerStatement(bound)()
		l := &sketchLog{Source: src}
		h := serverHarness(t, l, table, experts.Options{SampleRows: 8000})
		if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
			t.Fatal(errs)
		}
		out := map[string]int64{}
		for _, c := range []string{"a", "b", "c"} {
			p, e := h.profile(t, table+"."+c)
			if p.DistinctCount == nil || !strings.Contains(strings.Join(e.Evidence, ";"), "HyperLogLog") {
				t.Fatalf("bound %d: %s: distinct %v, evidence %q", bound, c, p.DistinctCount, e.Evidence)
			}
			out[c] = *p.DistinctCount
		}
		p, e := h.profile(t, table+".g")
		if ev := strings.Join(e.Evidence, ";"); p.DistinctCount == nil || *p.DistinctCount != 500 ||
			!strings.Contains(ev, "no value is seen only once") || strings.Contains(ev, "HyperLogLog") {
			t.Errorf("bound %d: g: distinct %v, evidence %q; want the sample's 500, unsketched", bound, p.DistinctCount, ev)
		}
		for _, q := range l.stmts {
			if strings.Contains(q, `"g"`) {
				t.Errorf("bound %d: g was sketched: %.200s", bound, q)
			}
		}
		return out, len(l.stmts)
	}
	one, n1 := distinct(1 << 40)
	each, n3 := distinct(60000)
	if n1 != 1 || n3 != 3 {
		t.Errorf("sketch statements: %d with no bound, %d bounded to one column's rows; want 1 and 3", n1, n3)
	}
	if fmt.Sprint(one) != fmt.Sprint(each) {
		t.Errorf("estimates in one statement %v, in one per column %v", one, each)
	}
	for c, want := range map[string]float64{"a": 60000, "b": 9001, "c": 12001} {
		if got := float64(one[c]); math.Abs(got-want) > 0.02*want {
			t.Errorf("%s: %.0f distinct, want %.0f within 2%%", c, got, want)
		}
	}
}

// unshared is PostgreSQL's dialect without the shared sample: each branch
// draws the sample from the table again.
type unshared struct{ warehouse.Dialect }

func (d unshared) Capabilities() warehouse.Capabilities {
	c := d.Dialect.Capabilities()
	c.SharedSample = false
	return c
}

// unsharedSource is a source whose dialect is unshared.
type unsharedSource struct{ *sketchLog }

func (s unsharedSource) Dialect() warehouse.Dialect { return unshared{s.sketchLog.Dialect()} }

// TestSharedSampleSameProfiles: on PostgreSQL, a union of branches over a
// table's sample draws the seeded sample once (WITH … AS MATERIALIZED)
// instead of once per branch, and every column's profile is what it is
// with a draw per branch: the same rows, so the same frequent values,
// anomalies and figures.
func TestSharedSampleSameProfiles(t *testing.T) {
	cols := []string{"id", "status", "qty", "price", "code", "at"}
	src, _, table := postgresTable(t, "shared", func(table string) []string {
		return []string{
			`CREATE TABLE ` + table + ` (id BIGINT, status TEXT, qty INTEGER, price NUMERIC(10,2), code TEXT, at TIMESTAMP)`,
			`INSERT INTO ` + table + ` SELECT i, (ARRAY['new','paid','shipped','void'])[1 + i % 4], CASE WHEN i % 997 = 0 THEN 100000 ELSE i % 50 END,
				(i % 1000) / 10.0, 'C' || lpad((i % 3000)::text, 5, '0'), TIMESTAMP '2024-01-01' + (i % 400) * INTERVAL '1 day'
				FROM generate_series(1, 30000) i`,
		}
	})
	profiles := func(s warehouse.Source, l *sketchLog) (map[string]string, int) {
		h := serverHarness(t, s, table, experts.Options{SampleRows: 5000})
		if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
			t.Fatal(errs)
		}
		out := map[string]string{}
		for _, c := range cols {
			p, e := h.profile(t, table+"."+c)
			if !p.Sampled {
				t.Fatalf("%s is not sampled", c)
			}
			doc, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			out[c] = fmt.Sprintf("%s %q", doc, e.Evidence)
		}
		shared := 0
		for _, q := range l.all {
			if strings.Contains(q, "discover_sample") {
				shared++
			}
		}
		return out, shared
	}
	l := &sketchLog{Source: src}
	with, n := profiles(l, l)
	l2 := &sketchLog{Source: src}
	without, n2 := profiles(unsharedSource{l2}, l2)
	if n == 0 || n2 != 0 {
		t.Errorf("statements drawing the sample once: %d with the capability, %d without; want some and none", n, n2)
	}
	for _, c := range cols {
		if with[c] != without[c] {
			t.Errorf("%s: with a shared sample\n%s\nwith a draw per branch\n%s", c, with[c], without[c])
		}
	}
}

// serverHarness runs experts on one table of a server: a fresh catalog and
// an Env that sees only that table, so tests sharing a database stay apart.
func serverHarness(t *testing.T, src warehouse.Source, table string, opts experts.Options) *harness {
	t.Helper()
	ctx := context.Background()
	all, err := src.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var tables []warehouse.Table
	for _, tb := range all {
		if tb.Name.Name == table {
			tables = append(tables, tb)
		}
	}
	cat, err := catalog.Open(ctx, t.TempDir()+"/catalog.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	return &harness{env: experts.NewEnv(src, cat, "run1", 1, 1, tables, opts, new(atomic.Int64)), cat: cat}
}
