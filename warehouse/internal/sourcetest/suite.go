// Package sourcetest is the conformance suite for warehouse.Source: one set
// of checks, run by every engine's TestConformance on the same fixture
// (Fixture), so that what the experts rely on holds alike on SQLite, DuckDB
// (a file and a folder of data files), PostgreSQL, MySQL/MariaDB and Trino.
//
// An engine builds Fixture (Statements writes it in the engine's SQL),
// fills a Harness and calls Run. What only one engine does (its own types,
// its system catalogs, its read-only layers below the guard) stays in the
// engine's own tests.
//
// It is imported by tests only.
package sourcetest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
)

// Harness is what an engine gives the suite: how to open a Source on the
// fixture, a few statements in its SQL, and what it cannot do. Every switch
// is a difference the Source contract allows; none is set unless the
// engine needs it.
type Harness struct {
	// Open returns a Source on a fresh copy of the fixture, and the
	// database name the Source must give (Database). The suite closes it
	// (BarCappedEndless too, a benchmark's).
	Open func(t testing.TB) (s warehouse.Source, database string)
	// Dialect is the engine's name, as Dialect().Name() returns it.
	Dialect string
	// DefaultMaxRows is the engine's cap when QueryOptions.MaxRows is 0.
	DefaultMaxRows int

	// Series is a statement returning the integers 1 to n, in order, in
	// one column.
	Series func(n int) string
	// Slow is a statement that runs for minutes unless stopped, and that
	// the guard admits.
	Slow string
	// Endless is a statement whose result never ends, counting up from 1:
	// with MaxRows it must still return, capped, at once. Every engine has
	// one; a harness without it fails.
	Endless string
	// Writes are statements in the engine's own syntax the guard must
	// refuse, beside the suite's own (INSERT, UPDATE, DELETE, DDL, two
	// statements at once).
	Writes []string
	// AfterTimeout, when set, checks that a timed-out statement does not
	// go on running on the server.
	AfterTimeout func(t *testing.T, s warehouse.Source)
	// Unchanged, when set, checks after the Source is closed that the
	// database (its files) is as it was before Open.
	Unchanged func(t *testing.T)

	// OpenDSN opens a Source from a DSN, for BadInputs.
	OpenDSN func(ctx context.Context, dsn string) (warehouse.Source, error)
	// BadInputs are DSNs Open must refuse as warehouse.ErrBadInput.
	BadInputs []BadInput

	// TableName maps a fixture table's name to the engine's: DuckDB's
	// folder names each table after its file, made an identifier, and
	// every file is a table (a view of the fixture is a file of its rows).
	// Nil keeps the fixture's names and kinds.
	TableName func(fixture string) string
	// RenamesOnly: TableName only renames, every fixture table keeping its
	// kind (Spark's metastore holds no space in a name).
	RenamesOnly bool
	// NoKeys: the engine declares no primary, unique or foreign keys, nor
	// indexes (Trino's connectors, data files); Tables lists none.
	NoKeys bool
	// NoNotNull: every column may hold NULL as far as the engine declares
	// (data files).
	NoNotNull bool
	// BoolIsInt: BOOLEAN is an integer type (SQLite, MySQL); true reads as
	// int64(1).
	BoolIsInt bool
	// DecimalIsFloat: DECIMAL has numeric affinity (SQLite): exact
	// decimals read as float64.
	DecimalIsFloat bool
}

// BadInput is a DSN Open must refuse as bad input, with a message that
// contains Want.
type BadInput struct {
	DSN, Want string
}

// Run runs the suite against h.
func Run(t *testing.T, h Harness) {
	t.Helper()
	if h.OpenDSN != nil && len(h.BadInputs) > 0 {
		t.Run("BadInput", func(t *testing.T) { checkBadInput(t, h) })
	}
	s, database := h.Open(t)
	closed := false
	t.Cleanup(func() {
		if !closed {
			s.Close()
		}
	})
	c := &suite{h: h, s: s, database: database}
	t.Run("Identity", c.identity)
	t.Run("Tables", c.tables)
	t.Run("RowCount", c.rowCount)
	t.Run("EstimateRows", c.estimateRows)
	t.Run("QueryValues", c.queryValues)
	t.Run("MaxRows", c.maxRows)
	t.Run("MaxBytes", c.maxBytes)
	t.Run("Timeout", c.timeout)
	t.Run("RejectsWrites", c.rejectsWrites)
	t.Run("Concurrent", c.concurrent)
	t.Run("Close", func(t *testing.T) {
		closed = true
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if h.Unchanged != nil {
			h.Unchanged(t)
		}
	})
}

type suite struct {
	h        Harness
	s        warehouse.Source
	database string
}

// name is fixture table ft's name on this engine.
func (c *suite) name(ft Table) warehouse.TableName {
	if c.h.TableName != nil {
		return warehouse.TableName{Name: c.h.TableName(ft.Name)}
	}
	return warehouse.TableName{Name: ft.Name}
}

func (c *suite) kind(ft Table) string {
	if c.h.TableName != nil && !c.h.RenamesOnly {
		return "table"
	}
	return ft.Kind
}

// want is ft's rows as this engine returns them.
func (c *suite) want(ft Table) [][]any {
	out := make([][]any, len(ft.Rows))
	for r, row := range ft.Rows {
		out[r] = slices.Clone(row)
		for i, v := range row {
			switch col := ft.Columns[i]; {
			case col.Class == Bool && c.h.BoolIsInt && v != nil:
				out[r][i] = int64(0)
				if v.(bool) {
					out[r][i] = int64(1)
				}
			case col.Class == Decimal && c.h.DecimalIsFloat && v != nil:
				var f float64
				fmt.Sscan(v.(string), &f)
				out[r][i] = f
			}
		}
	}
	return out
}

func (c *suite) identity(t *testing.T) {
	if d := c.s.Dialect().Name(); d != c.h.Dialect {
		t.Errorf("Dialect().Name() = %q, want %q", d, c.h.Dialect)
	}
	if d := c.s.Database(); d != c.database {
		t.Errorf("Database = %q, want %q", d, c.database)
	}
}

func (c *suite) tables(t *testing.T) {
	ctx := context.Background()
	got, err := c.s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names, want []string
	for _, tb := range got {
		names = append(names, tb.Name.String())
	}
	for _, ft := range Fixture {
		want = append(want, c.name(ft).String())
	}
	// Tables is sorted by name; a mapped name may sort elsewhere.
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("tables = %q\nwant     %q", names, want)
	}
	for _, ft := range Fixture {
		i := slices.Index(names, c.name(ft).String())
		c.table(t, got[i], ft)
	}
	if sr, ok := c.s.(warehouse.SkipReporter); ok {
		sk, err := sr.Skipped(ctx)
		if err != nil || len(sk) != 0 {
			t.Errorf("Skipped = %+v, %v; want none", sk, err)
		}
	}
}

func (c *suite) table(t *testing.T, got warehouse.Table, ft Table) {
	t.Helper()
	name := got.Name.String()
	if got.Name != c.name(ft) {
		t.Errorf("%s: name %+v, want %+v (no schema on the default path)", name, got.Name, c.name(ft))
	}
	if got.Kind != c.kind(ft) {
		t.Errorf("%s: kind %q, want %q", name, got.Kind, c.kind(ft))
	}
	if got.Columns == nil || got.PrimaryKey == nil || got.ForeignKeys == nil || got.Uniques == nil || got.Indexes == nil {
		t.Errorf("%s: nil slices serialise as null: %+v", name, got)
	}
	if len(got.Columns) != len(ft.Columns) {
		t.Errorf("%s: columns %+v, want %d", name, got.Columns, len(ft.Columns))
		return
	}
	for i, fc := range ft.Columns {
		gc := got.Columns[i]
		if gc.Name != fc.Name || gc.Position != i+1 {
			t.Errorf("%s column %d = %q at %d, want %q at %d", name, i+1, gc.Name, gc.Position, fc.Name, i+1)
		}
		if !classPattern[fc.Class].MatchString(gc.Type) {
			t.Errorf("%s.%s: type %q is no %s type", name, fc.Name, gc.Type, fc.Class)
		}
		// A view's columns inherit whatever the engine derives; a table's
		// are as declared.
		if c.kind(ft) == "table" && ft.Kind == "table" {
			if want := !fc.NotNull || c.h.NoNotNull; gc.Nullable != want {
				t.Errorf("%s.%s: nullable %v, want %v", name, fc.Name, gc.Nullable, want)
			}
		}
	}
	if c.h.NoKeys {
		if len(got.PrimaryKey)+len(got.ForeignKeys)+len(got.Uniques)+len(got.Indexes) != 0 {
			t.Errorf("%s: keys on an engine that declares none: %+v", name, got)
		}
		return
	}
	if !slices.Equal(got.PrimaryKey, orEmpty(ft.PrimaryKey)) {
		t.Errorf("%s: primary key %q, want %q", name, got.PrimaryKey, ft.PrimaryKey)
	}
	if !slices.EqualFunc(got.Uniques, ft.Uniques, slices.Equal) {
		t.Errorf("%s: uniques %q, want %q", name, got.Uniques, ft.Uniques)
	}
	same := slices.EqualFunc(got.ForeignKeys, ft.ForeignKeys, func(a, b warehouse.ForeignKey) bool {
		return a.RefTable == b.RefTable && slices.Equal(a.Columns, b.Columns) && slices.Equal(a.RefColumns, b.RefColumns)
	})
	if !same {
		t.Errorf("%s: foreign keys %+v, want %+v", name, got.ForeignKeys, ft.ForeignKeys)
	}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (c *suite) rowCount(t *testing.T) {
	ctx := context.Background()
	for _, ft := range Fixture {
		n, err := c.s.RowCount(ctx, c.name(ft))
		if err != nil || n != int64(len(ft.Rows)) {
			t.Errorf("RowCount(%s) = %d, %v; want %d", c.name(ft), n, err, len(ft.Rows))
		}
	}
	if n, err := c.s.RowCount(ctx, warehouse.TableName{Name: "nope"}); err == nil {
		t.Errorf("RowCount of a missing table = %d, no error", n)
	}
}

func (c *suite) estimateRows(t *testing.T) {
	e, ok := c.s.(warehouse.RowEstimator)
	if !ok {
		t.Skip("the source keeps no estimates")
	}
	ctx := context.Background()
	for _, ft := range Fixture {
		name := c.name(ft)
		n, exact, err := e.EstimateRows(ctx, name)
		if c.kind(ft) == "view" || c.h.TableName != nil {
			// A view (or a file read through one) has no stored count: an
			// error sends the caller to RowCount, an estimate says it is one.
			if err == nil && exact {
				t.Errorf("EstimateRows(%s) = %d, exact, on a view", name, n)
			}
			continue
		}
		if err != nil {
			t.Errorf("EstimateRows(%s): %v", name, err)
			continue
		}
		// The fixture's tables are tiny: any honest estimate is small.
		if n < 0 || n > 100 || exact && n != int64(len(ft.Rows)) {
			t.Errorf("EstimateRows(%s) = %d (exact %v); want %d rows, or a small estimate", name, n, exact, len(ft.Rows))
		}
	}
	if n, _, err := e.EstimateRows(ctx, warehouse.TableName{Name: "nope"}); err == nil {
		t.Errorf("EstimateRows of a missing table = %d, no error", n)
	}
}

// checkData reads every fixture table and compares it with the fixture.
func (c *suite) checkData(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	for _, ft := range Fixture {
		name := c.name(ft)
		q := SelectSQL(c.s, name, ft.ColumnNames())
		res, err := c.s.Query(ctx, q, warehouse.QueryOptions{})
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if !slices.Equal(res.Columns, ft.ColumnNames()) {
			t.Errorf("%s: columns %q, want %q", name, res.Columns, ft.ColumnNames())
		}
		if res.Truncated || res.BytesTruncated || res.Elapsed <= 0 {
			t.Errorf("%s: truncated %v, bytes truncated %v, elapsed %v", name, res.Truncated, res.BytesTruncated, res.Elapsed)
		}
		want := c.want(ft)
		if len(res.Rows) != len(want) {
			t.Errorf("%s: %d rows, want %d: %v", name, len(res.Rows), len(want), res.Rows)
			continue
		}
		for r := range want {
			for i := range want[r] {
				if i >= len(res.Rows[r]) {
					t.Errorf("%s row %d: %d values", name, r+1, len(res.Rows[r]))
					break
				}
				if g, w := res.Rows[r][i], want[r][i]; !reflect.DeepEqual(g, w) {
					t.Errorf("%s row %d %s = %#v (%T), want %#v (%T)", name, r+1, ft.Columns[i].Name, g, g, w, w)
				}
			}
		}
	}
}

func (c *suite) queryValues(t *testing.T) {
	c.checkData(t)
	res, err := c.s.Query(context.Background(), "SELECT 1", warehouse.QueryOptions{})
	if err != nil || len(res.Rows) != 1 || len(res.Rows[0]) != 1 || res.Rows[0][0] != int64(1) {
		t.Errorf("SELECT 1 = %+v, %v", res, err)
	}
}

// maxBytes: the byte bounds a caller asks for (Door does, for SQL discover
// did not write) hold on every engine: long text is cut, and rows past the
// total are dropped.
func (c *suite) maxBytes(t *testing.T) {
	ctx := context.Background()
	ft := FixtureTable("customer")
	q := SelectSQL(c.s, c.name(ft), ft.ColumnNames())
	res, err := c.s.Query(ctx, q, warehouse.QueryOptions{MaxValueBytes: 3})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	want := []any{"a@x… [cut: 7 bytes]", "Ann"}
	if len(res.Rows) != 3 || !res.BytesTruncated || res.Truncated || res.Rows[0][1] != want[0] || res.Rows[0][2] != want[1] {
		t.Errorf("MaxValueBytes 3: %v, bytes truncated %v, truncated %v; want row 1 to end %q", res.Rows, res.BytesTruncated, res.Truncated, want)
	}
	// Each integer counts 8 bytes: ten of them fill 80.
	res, err = c.s.Query(ctx, c.h.Series(50), warehouse.QueryOptions{MaxResultBytes: 80})
	if err != nil {
		t.Fatalf("series: %v", err)
	}
	if len(res.Rows) != 10 || !res.Truncated || !res.BytesTruncated {
		t.Errorf("MaxResultBytes 80: %d rows, truncated %v, bytes truncated %v; want 10, true, true", len(res.Rows), res.Truncated, res.BytesTruncated)
	}
}

func (c *suite) maxRows(t *testing.T) {
	ctx := context.Background()
	d := c.h.DefaultMaxRows
	for _, tc := range []struct {
		n, max, rows int
		trunc        bool
	}{
		{100, 10, 10, true},
		{100, 99, 99, true},
		{100, 100, 100, false},
		{100, 101, 100, false},
		{d + 1, 0, d, true},
		{d, 0, d, false},
	} {
		res, err := c.s.Query(ctx, c.h.Series(tc.n), warehouse.QueryOptions{MaxRows: tc.max})
		if err != nil {
			t.Fatalf("n=%d max=%d: %v", tc.n, tc.max, err)
		}
		if len(res.Rows) != tc.rows || res.Truncated != tc.trunc {
			t.Errorf("n=%d max=%d: %d rows, truncated %v; want %d, %v", tc.n, tc.max, len(res.Rows), res.Truncated, tc.rows, tc.trunc)
		}
		for i, r := range res.Rows {
			if len(r) != 1 || r[0] != int64(i+1) {
				t.Errorf("n=%d max=%d: row %d = %#v, want %d: rows kept in order", tc.n, tc.max, i, r, i+1)
				break
			}
		}
	}
	if c.h.Endless == "" {
		t.Fatal("the harness has no Endless statement: every engine must show that its row cap stops a result without end")
	}
	// Only a cap the engine applies as it reads (or on the server) can
	// return from an endless result at all (how fast is BarCappedEndless's
	// bar; the test only logs it).
	start := time.Now()
	cappedEndless(t, c.s, c.h.Endless)
	t.Logf("a capped endless result took %s", time.Since(start).Round(time.Millisecond))
}

// cappedEndless queries endless with a cap of 5 rows and checks it gives
// them, truncated: 1 to 5, in order.
func cappedEndless(t testing.TB, s warehouse.Source, endless string) {
	t.Helper()
	res, err := s.Query(context.Background(), endless, warehouse.QueryOptions{MaxRows: 5, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("endless result: %v", err)
	}
	if len(res.Rows) != 5 || !res.Truncated {
		t.Errorf("endless result: %v, truncated %v", res.Rows, res.Truncated)
	}
	for i, r := range res.Rows {
		if len(r) != 1 || r[0] != int64(i+1) {
			t.Errorf("endless result: row %d = %#v, want %d", i, r, i+1)
		}
	}
}

// timeoutBound is how long past its timeout a stopped query may take: room
// for a loaded machine, far below the minutes Slow would run.
const timeoutBound = 3 * time.Second

func (c *suite) timeout(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	_, err := c.s.Query(ctx, c.h.Slow, warehouse.QueryOptions{Timeout: 50 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v; want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > timeoutBound {
		t.Errorf("a 50ms timeout returned after %s", d)
	}
	if msg := strings.ToLower(err.Error()); !strings.Contains(msg, "timeout") && !strings.Contains(msg, "timed out") {
		t.Errorf("err = %q; want it to say timeout", err)
	}

	// The caller's deadline, shorter than the query's own timeout.
	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start = time.Now()
	if _, err := c.s.Query(cctx, c.h.Slow, warehouse.QueryOptions{Timeout: time.Minute}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("caller's deadline: err = %v; want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > timeoutBound {
		t.Errorf("a 200ms deadline returned after %s", d)
	}

	// The interrupted statements must not poison the pool.
	for range 4 {
		if res, err := c.s.Query(ctx, "SELECT 1", warehouse.QueryOptions{}); err != nil || res.Rows[0][0] != int64(1) {
			t.Fatalf("SELECT 1 after timeouts: %+v, %v", res, err)
		}
	}
	cctx, cancel = context.WithCancel(ctx)
	cancel()
	if _, err := c.s.Query(cctx, "SELECT 1", warehouse.QueryOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: err = %v; want context.Canceled", err)
	}
	if c.h.AfterTimeout != nil {
		c.h.AfterTimeout(t, c.s)
	}
}

func (c *suite) rejectsWrites(t *testing.T) {
	ctx := context.Background()
	cust := c.s.QuoteTable(c.name(FixtureTable("customer")))
	items := c.s.QuoteTable(c.name(FixtureTable("order items")))
	writes := append([]string{
		"INSERT INTO " + cust + " VALUES (9, 'z@x.org', 'Zed')",
		"INSERT INTO " + cust + " SELECT * FROM " + cust,
		"UPDATE " + cust + " SET " + c.s.QuoteIdent("name") + " = 'x'",
		"DELETE FROM " + items,
		"CREATE TABLE t2 (a INTEGER)",
		"CREATE VIEW v2 AS SELECT 1 AS a",
		"DROP TABLE " + cust,
		"ALTER TABLE " + cust + " ADD COLUMN z INTEGER",
		"SELECT 1; DELETE FROM " + cust,
	}, c.h.Writes...)
	for _, w := range writes {
		_, err := c.s.Query(ctx, w, warehouse.QueryOptions{})
		if !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("Query(%q) = %v; want ErrRejected", w, err)
		} else if !strings.HasPrefix(err.Error(), c.h.Dialect+": query: ") {
			t.Errorf("Query(%q) = %v; want the engine's prefix", w, err)
		}
	}
	// Whatever got past the guard, the data is as it was.
	c.checkData(t)
	for _, ft := range Fixture {
		if n, err := c.s.RowCount(ctx, c.name(ft)); err != nil || n != int64(len(ft.Rows)) {
			t.Errorf("after the writes: RowCount(%s) = %d, %v; want %d", c.name(ft), n, err, len(ft.Rows))
		}
	}
	if tables, err := c.s.Tables(ctx); err != nil || len(tables) != len(Fixture) {
		t.Errorf("after the writes: %d tables, %v; want %d", len(tables), err, len(Fixture))
	}
}

// concurrent shares the Source between goroutines as the experts do; some
// cut results short or time out, which kills statements and discards
// connections under the others' feet.
func (c *suite) concurrent(t *testing.T) {
	ctx := context.Background()
	items := c.name(FixtureTable("order items"))
	cust := FixtureTable("customer")
	custSQL := SelectSQL(c.s, c.name(cust), cust.ColumnNames())
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 5 {
				if tables, err := c.s.Tables(ctx); err != nil || len(tables) != len(Fixture) {
					t.Errorf("Tables: %d, %v", len(tables), err)
				}
				if n, err := c.s.RowCount(ctx, items); err != nil || n != 3 {
					t.Errorf("RowCount(%s) = %d, %v", items, n, err)
				}
				max := i%3 + 1
				res, err := c.s.Query(ctx, custSQL, warehouse.QueryOptions{MaxRows: max})
				if err != nil || len(res.Rows) != max || res.Truncated != (max < 3) || res.Rows[max-1][0] != int64(max) {
					t.Errorf("customer, MaxRows %d: %+v, %v", max, res, err)
				}
				_, err = c.s.Query(ctx, c.h.Slow, warehouse.QueryOptions{Timeout: 10 * time.Millisecond})
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("timeout under load: %v", err)
				}
				if i%2 == 0 {
					res, err := c.s.Query(ctx, c.h.Series(100000), warehouse.QueryOptions{MaxRows: 5})
					if err != nil || len(res.Rows) != 5 || !res.Truncated {
						t.Errorf("a long result cut to 5 rows: %+v, %v", res, err)
					}
				}
			}
		})
	}
	wg.Wait()
}

func checkBadInput(t *testing.T, h Harness) {
	for _, bi := range h.BadInputs {
		s, err := h.OpenDSN(context.Background(), bi.DSN)
		shown := warehouse.Redact(bi.DSN)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", shown)
			continue
		}
		msg := err.Error()
		if !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(msg, bi.Want) {
			t.Errorf("Open(%q) = %v; want ErrBadInput mentioning %q", shown, err, bi.Want)
		}
		if !strings.HasPrefix(msg, h.Dialect+": ") || strings.Contains(msg, "\n") {
			t.Errorf("Open(%q) = %q; want one line with the engine's prefix", shown, msg)
		}
		if pw := password(bi.DSN); pw != "" && strings.Contains(msg, pw) {
			t.Errorf("Open(%q) = %q shows the password", shown, msg)
		}
	}
}

// userinfo is the user:password part of a URL-form DSN, found without a
// URL parser: the DSNs that must fail include unparsable ones.
var userinfo = regexp.MustCompile(`^[a-z]+://[^:/@]*:([^@/]*)@`)

// password is the password a URL-form DSN holds, if any.
func password(dsn string) string {
	m := userinfo.FindStringSubmatch(dsn)
	if m == nil {
		return ""
	}
	if pw, err := url.PathUnescape(m[1]); err == nil {
		return pw
	}
	return m[1]
}
