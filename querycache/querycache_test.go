package querycache

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse"
)

// TestEncodeRoundTrip: every type an engine's Result holds comes back as
// the same Go value, NaN, infinities and invalid UTF-8 included; a type
// the encoding does not carry is refused.
func TestEncodeRoundTrip(t *testing.T) {
	at := time.Date(2026, 12, 6, 5, 40, 1, 123456789, time.UTC)
	in := &warehouse.Result{Columns: []string{"a", "b"}, Truncated: true, Rows: [][]any{
		{nil, int64(-9007199254740993)},
		{1.5, math.Inf(-1)},
		{"héllo", "\xff\xfe"},
		{[]byte{0, 1, 2}, true},
		{at, at.Local()},
		{uint64(math.MaxUint64), int32(7)},
		{int(42), ""},
	}}
	b, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip:\n got %#v\nwant %#v", out, in)
	}
	nan, err := Encode(&warehouse.Result{Columns: []string{"x"}, Rows: [][]any{{math.NaN()}}})
	if err != nil {
		t.Fatal(err)
	}
	if back, err := Decode(nan); err != nil || !math.IsNaN(back.Rows[0][0].(float64)) {
		t.Fatalf("NaN: %v, %v", back, err)
	}
	if _, err := Encode(&warehouse.Result{Rows: [][]any{{struct{}{}}}}); err == nil {
		t.Fatal("a struct value was encoded")
	}
	if _, err := Encode(&warehouse.Result{Rows: [][]any{{at.In(time.FixedZone("X", 3600))}}}); err == nil {
		t.Fatal("a time in a named zone other than UTC and Local was encoded (its name would not come back)")
	}
}

func newCache(t *testing.T, cat *catalog.Catalog, run string, tables map[string]string, lookup bool) *Cache {
	t.Helper()
	return New(cat, run, nil, "shop.db", &catalog.RunBasis{Tables: tables}, lookup)
}

// TestKey: a statement's key follows the signals of the tables it names,
// and only theirs; statements naming no table, an unsigned table or the
// clock have none.
func TestKey(t *testing.T) {
	sigs := map[string]string{"orders": "o1", "customers": "c1", "sales.Items": "i1", "notes": ""}
	c := newCache(t, nil, "r", sigs, true)
	k1, ok := c.Key(`SELECT count(*) FROM "orders" o JOIN customers c ON c.id = o.customer_id`, 10)
	if !ok {
		t.Fatal("a join of two signed tables has no key")
	}
	for _, tc := range []struct {
		sql  string
		want bool
	}{
		{`SELECT 1`, false},
		{`SELECT * FROM notes`, false},
		{`SELECT max(created_at) FROM orders WHERE created_at > now()`, false},
		{`SELECT count(*) FROM orders WHERE d > date('now')`, false},
		{`SELECT CURRENT_DATE, count(*) FROM orders`, false},
		{`SELECT count(*) FROM "sales"."ITEMS"`, true},
		{`SELECT 'unknown' AS s, count(*) FROM orders`, true},
		{`SELECT count(*) FROM orders WHERE note = 'it''s`, false}, // does not lex
	} {
		if _, ok := c.Key(tc.sql, 10); ok != tc.want {
			t.Errorf("Key(%s): %v, want %v", tc.sql, ok, tc.want)
		}
	}
	if k, _ := c.Key(`SELECT count(*) FROM "orders" o JOIN customers c ON c.id = o.customer_id`, 11); k == k1 {
		t.Error("another row bound, the same key")
	}
	other := newCache(t, nil, "r", map[string]string{"orders": "o1", "customers": "c2", "sales.Items": "i1"}, true)
	if k, _ := other.Key(`SELECT count(*) FROM "orders" o JOIN customers c ON c.id = o.customer_id`, 10); k == k1 {
		t.Error("customers changed, the join's key did not")
	}
	ko, _ := c.Key(`SELECT count(*) FROM orders`, 10)
	if k, _ := other.Key(`SELECT count(*) FROM orders`, 10); k != ko {
		t.Error("customers changed, and the key of a statement over orders alone moved")
	}
}

// TestLookupKeepPrune: a kept result is served to the next run with the
// same signals, not to one whose table changed, nor with lookup off; a
// run's prune drops what it did not use.
func TestLookupKeepPrune(t *testing.T) {
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	sigs := map[string]string{"orders": "o1", "customers": "c1"}
	res := &warehouse.Result{Columns: []string{"n"}, Rows: [][]any{{int64(25000)}}}
	const q1, q2 = `SELECT count(*) FROM orders`, `SELECT count(*) FROM customers`
	first := newCache(t, cat, "r1", sigs, true)
	for _, q := range []string{q1, q2} {
		if _, key, hit, _ := first.Lookup(ctx, q, 100, time.Minute); hit || key == "" {
			t.Fatalf("first run: hit %v, key %q", hit, key)
		} else {
			first.Keep(ctx, key, res, nil, time.Minute)
		}
	}
	second := newCache(t, cat, "r2", map[string]string{"orders": "o1", "customers": "c2"}, true)
	got, _, hit, _ := second.Lookup(ctx, q1, 100, time.Minute)
	if !hit || !reflect.DeepEqual(got, res) {
		t.Fatalf("orders unchanged: hit %v, %v", hit, got)
	}
	if _, _, hit, _ := second.Lookup(ctx, q2, 100, time.Minute); hit {
		t.Fatal("customers changed, and its count was served")
	}
	if _, _, hit, _ := New(cat, "r3", nil, "shop.db", &catalog.RunBasis{Tables: sigs}, false).Lookup(ctx, q1, 100, time.Minute); hit {
		t.Fatal("served with lookup off")
	}
	if New(cat, "r5", nil, "shop.db", &catalog.RunBasis{Tables: sigs, Shared: true}, true) != nil {
		t.Fatal("a cache over tables that share one file's signal, which no change leaves partly valid")
	}
	if second.Hits() != 1 {
		t.Fatalf("hits %d, want 1", second.Hits())
	}
	if err := second.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	// r2 used orders' count only: customers' old count is gone.
	if _, _, hit, _ := newCache(t, cat, "r4", sigs, true).Lookup(ctx, q2, 100, time.Minute); hit {
		t.Fatal("a result the last run did not use survived its prune")
	}
	if _, _, hit, _ := newCache(t, cat, "r4", sigs, true).Lookup(ctx, q1, 100, time.Minute); !hit {
		t.Fatal("a result the last run used was pruned")
	}
}

// TestTimeoutKept: a statement's own timeout is kept and served again,
// the same error (still a context.DeadlineExceeded), to a run whose query
// timeout is no longer; a run allowed more time sends it again. Other
// failures are not kept.
func TestTimeoutKept(t *testing.T) {
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	sigs := map[string]string{"orders": "o1", "customers": "c1"}
	c := newCache(t, cat, "r1", sigs, true)
	const q, bad = `SELECT count(DISTINCT note) FROM orders`, `SELECT nope FROM customers`
	_, key, _, _ := c.Lookup(ctx, q, 10, time.Minute)
	timeout := fmt.Errorf("duckdb: query: timed out after 1m0s: %w", context.DeadlineExceeded)
	c.Keep(ctx, key, nil, timeout, time.Minute)
	_, badKey, _, _ := c.Lookup(ctx, bad, 10, time.Minute)
	c.Keep(ctx, badKey, nil, errors.New("no such column: nope"), time.Minute)

	next := newCache(t, cat, "r2", sigs, true)
	res, _, hit, err := next.Lookup(ctx, q, 10, time.Minute)
	if !hit || res != nil || !errors.Is(err, context.DeadlineExceeded) || err.Error() != timeout.Error() {
		t.Fatalf("kept timeout: hit %v, res %v, err %v", hit, res, err)
	}
	if _, _, hit, _ := next.Lookup(ctx, q, 10, 30*time.Second); !hit {
		t.Fatal("a shorter timeout was not served the timeout")
	}
	if _, _, hit, _ := next.Lookup(ctx, q, 10, 2*time.Minute); hit {
		t.Fatal("a longer timeout was served the timeout")
	}
	if _, _, hit, _ := next.Lookup(ctx, bad, 10, time.Minute); hit {
		t.Fatal("a failure other than a timeout was kept")
	}
}

// TestFiguresKeyedByBuild: figures discover counted itself in place of a
// statement are served to a run of the same build over the same tables,
// not to another build's (which may count them otherwise), nor as the
// statement's own result.
func TestFiguresKeyedByBuild(t *testing.T) {
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	sigs := map[string]string{"orders": "o1"}
	cache := func(run, build string) *Cache {
		return New(cat, run, nil, "shop.db", &catalog.RunBasis{Build: build, Tables: sigs}, true)
	}
	const what = `/* streamed check */ SELECT count(*) FROM orders`
	figures := &warehouse.Result{Columns: []string{"n"}, Rows: [][]any{{int64(7)}}}
	_, key, hit, _ := cache("r1", "b1").LookupFigures(ctx, what)
	if hit || key == "" {
		t.Fatalf("first run: hit %v, key %q", hit, key)
	}
	cache("r1", "b1").Keep(ctx, key, figures, nil, 0)
	if got, _, hit, _ := cache("r2", "b1").LookupFigures(ctx, what); !hit || !reflect.DeepEqual(got, figures) {
		t.Fatalf("the same build: hit %v, %v", hit, got)
	}
	if _, _, hit, _ := cache("r3", "b2").LookupFigures(ctx, what); hit {
		t.Fatal("another build was served the figures")
	}
	if _, _, hit, _ := cache("r4", "b1").Lookup(ctx, what, 0, 0); hit {
		t.Fatal("the figures were served as the statement's result")
	}
}

// TestReads: a kept result says the words of its statement (folded, and *
// for a statement that selects every column, count(*) aside), so that a
// result can be told to read a column; a kept timeout reads nothing, and
// a result without words (an earlier build's) says so.
func TestReads(t *testing.T) {
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	c := newCache(t, cat, "r1", map[string]string{"people": "p1", "orders": "o1"}, true)
	res := &warehouse.Result{Columns: []string{"v"}, Rows: [][]any{{"x"}}}
	for _, tc := range []struct {
		sql  string
		want []string
	}{
		{`SELECT "Address" AS v, count(*) AS n FROM people GROUP BY 1 HAVING count(*) > 1`, []string{"address", "as", "by", "count", "from", "group", "having", "n", "people", "select", "v"}},
		{`SELECT p.* FROM "people" p LIMIT 3`, []string{"*", "from", "limit", "p", "people", "select"}},
		{`SELECT count( * ) FROM orders`, []string{"count", "from", "orders", "select"}},
		{`SELECT amount * 2 FROM orders`, []string{"*", "amount", "from", "orders", "select"}},
	} {
		_, key, hit, _ := c.Lookup(ctx, tc.sql, 10, time.Minute)
		if hit || key == "" {
			t.Fatalf("%s: hit %v, key %q", tc.sql, hit, key)
		}
		c.Keep(ctx, key, res, nil, time.Minute)
		b, err := cat.Result(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := Reads(b); !ok || !slices.Equal(got, tc.want) {
			t.Errorf("Reads of %s: %q, %v; want %q", tc.sql, got, ok, tc.want)
		}
		if back, err := Decode(b); err != nil || !reflect.DeepEqual(back, res) {
			t.Errorf("%s: decoded %v, %v", tc.sql, back, err)
		}
	}
	_, key, _, _ := c.Lookup(ctx, `SELECT max(total) FROM orders`, 10, time.Minute)
	c.Keep(ctx, key, nil, fmt.Errorf("slow: %w", context.DeadlineExceeded), time.Minute)
	b, err := cat.Result(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := Reads(b); !ok || got != nil {
		t.Errorf("a kept timeout reads %q, %v; want nothing, ok", got, ok)
	}
	old, err := Encode(res)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := Reads(old); ok {
		t.Errorf("a result without its statement's words reads %q, ok", got)
	}
}
