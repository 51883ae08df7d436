package demo

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/heavy"
)

// Generating costs over a second normally and tens of seconds under -race
// (the driver is transpiled C, and checkptr checks its every pointer step),
// so all read-only checks share one database built once per test binary.
var (
	sharedDir  string
	sharedOnce sync.Once
	sharedPath string
	sharedErr  error
	sharedTook time.Duration
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "demo-test-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sharedDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func shared(t *testing.T) string {
	t.Helper()
	sharedOnce.Do(func() {
		start := time.Now()
		sharedPath, sharedErr = Ensure(context.Background(), sharedDir)
		sharedTook = time.Since(start)
	})
	if sharedErr != nil {
		t.Fatalf("Ensure: %v", sharedErr)
	}
	return sharedPath
}

func open(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func scalar[T any](t *testing.T, db *sql.DB, q string, args ...any) T {
	t.Helper()
	var v T
	if err := db.QueryRow(q, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

func column[T any](t *testing.T, db *sql.DB, q string, args ...any) []T {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func contentHashes(t *testing.T, path string) map[string]string {
	t.Helper()
	db := open(t, path)
	out := map[string]string{}
	for _, table := range append(slices.Clone(Facts.Tables), "sqlite_master") {
		rows, err := db.Query("SELECT * FROM " + table + " ORDER BY rowid")
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		h := sha256.New()
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				fmt.Fprintf(h, "%T:%v|", v, v)
			}
			h.Write([]byte{'\n'})
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		out[table] = hex.EncodeToString(h.Sum(nil))
	}
	return out
}

// skipUnderRace skips checks that only run queries: they exercise no
// concurrent code, and under -race they take most of a minute.
func skipUnderRace(t *testing.T) {
	if heavy.Race {
		t.Skip("query-only checks; the normal run covers them")
	}
}

func TestGenerationTimeAndRowCounts(t *testing.T) {
	db := open(t, shared(t))
	t.Logf("generated in %v (race detector: %v)", sharedTook.Round(time.Millisecond), heavy.Race)
	total := 0
	var counts []string
	for _, table := range Facts.Tables {
		n := scalar[int](t, db, "SELECT COUNT(*) FROM "+table)
		total += n
		counts = append(counts, fmt.Sprintf("%s=%d", table, n))
		if want, ok := Facts.RowCounts[table]; ok && n != want {
			t.Errorf("%s: %d rows, Facts say %d", table, n, want)
		}
	}
	t.Logf("rows: %s; total %d", strings.Join(counts, " "), total)
	if total < Facts.MinTotalRows || total < 100_000 {
		t.Errorf("total rows %d, want at least %d", total, Facts.MinTotalRows)
	}
}

// BenchmarkBarGeneration holds generating the demo database (what the
// README's first command waits for on a fresh clone) to well under 5 s.
// The race detector slows the transpiled driver many times over: no bar
// holds there.
func BenchmarkBarGeneration(b *testing.B) {
	if heavy.Race {
		b.Skip("no speed bar under the race detector")
	}
	for range b.N {
		dir := b.TempDir()
		start := time.Now()
		if _, err := Ensure(context.Background(), dir); err != nil {
			b.Fatalf("Ensure: %v", err)
		}
		took := time.Since(start)
		b.Logf("generated in %v", took.Round(time.Millisecond))
		if took > 5*time.Second {
			b.Errorf("generation took %v, want well under 5s", took)
		}
	}
}

func TestDeterministic(t *testing.T) {
	if heavy.Race {
		// A second database costs another half minute under -race; the
		// content is a pure function of the model, so comparing two models
		// covers what can vary, and the normal run compares two files.
		a, err := build()
		if err != nil {
			t.Fatal(err)
		}
		b, err := build()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatal("two builds of the model differ")
		}
		return
	}
	want := contentHashes(t, shared(t))
	other := filepath.Join(t.TempDir(), "again.db")
	if err := Generate(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	got := contentHashes(t, other)
	for table, h := range want {
		if got[table] != h {
			t.Errorf("%s differs between two generations", table)
		}
	}
}

func TestGenerateRefusesExistingPathAndCancellation(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "x.db")
	if err := os.WriteFile(existing, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Generate(context.Background(), existing); err == nil {
		t.Error("Generate overwrote an existing file")
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep" {
		t.Error("existing file was modified")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fresh := filepath.Join(dir, "y.db")
	if err := Generate(ctx, fresh); err == nil {
		t.Error("Generate ignored a cancelled context")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("leftovers after failed generations: %v", entries)
	}
}

func TestEnsureBuildsOnceAndReuses(t *testing.T) {
	first := shared(t)
	if filepath.Dir(first) != sharedDir || filepath.Base(first) != FileName {
		t.Errorf("Ensure returned %s, want %s in %s", first, FileName, sharedDir)
	}
	before, err := os.Stat(first)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Ensure(context.Background(), sharedDir)
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(again)
	if err != nil {
		t.Fatal(err)
	}
	if again != first || !after.ModTime().Equal(before.ModTime()) || !os.SameFile(before, after) {
		t.Errorf("second Ensure rebuilt: %s %v → %s %v", first, before.ModTime(), again, after.ModTime())
	}
	entries, _ := os.ReadDir(sharedDir)
	if len(entries) != 1 {
		t.Errorf("cache holds more than the database: %v", entries)
	}
}

func TestEnsureConcurrent(t *testing.T) {
	if heavy.Race {
		t.Skip("two concurrent builds take a minute under -race; the file-level logic has no shared memory to race on")
	}
	dir := filepath.Join(t.TempDir(), "cache")
	var wg sync.WaitGroup
	paths := make([]string, 2)
	errs := make([]error, 2)
	for i := range paths {
		wg.Go(func() { paths[i], errs[i] = Ensure(context.Background(), dir) })
	}
	wg.Wait()
	for i := range paths {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
	}
	if paths[0] != paths[1] {
		t.Errorf("concurrent Ensure returned %v", paths)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("cache holds more than the database: %v", entries)
	}
	if scalar[string](t, open(t, paths[0]), "PRAGMA integrity_check") != "ok" {
		t.Error("concurrently built database is corrupt")
	}
}

func TestIntegrity(t *testing.T) {
	db := open(t, shared(t))
	if got := scalar[string](t, db, "PRAGMA integrity_check"); got != "ok" {
		t.Errorf("integrity_check: %s", got)
	}
	if got := scalar[int](t, db, "SELECT COUNT(*) FROM pragma_foreign_key_check"); got != 0 {
		t.Errorf("%d declared foreign keys violated", got)
	}
	if got := scalar[int](t, db, "PRAGMA user_version"); got != Version {
		t.Errorf("user_version %d, want %d", got, Version)
	}
}

func TestSchemaFacts(t *testing.T) {
	db := open(t, shared(t))
	tables := column[string](t, db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
	if !slices.Equal(tables, Facts.Tables) {
		t.Errorf("tables %v, Facts say %v", tables, Facts.Tables)
	}
	views := column[string](t, db, "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
	if !slices.Equal(views, Facts.Views) {
		t.Errorf("views %v, Facts say %v", views, Facts.Views)
	}
	indexes := column[string](t, db, "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
	if want := slices.Sorted(slices.Values(Facts.Indexes)); !slices.Equal(indexes, want) {
		t.Errorf("indexes %v, Facts say %v", indexes, want)
	}

	for table, want := range Facts.PrimaryKeys {
		pk := column[string](t, db, "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", table)
		if !slices.Equal(pk, want) {
			t.Errorf("%s primary key %v, Facts say %v", table, pk, want)
		}
	}

	var declared []Ref
	for _, table := range Facts.Tables {
		rows, err := db.Query(`SELECT "table", "from", "to" FROM pragma_foreign_key_list(?)`, table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			r := Ref{Table: table}
			if err := rows.Scan(&r.RefTable, &r.Column, &r.RefColumn); err != nil {
				t.Fatal(err)
			}
			declared = append(declared, r)
		}
		rows.Close()
	}
	key := func(r Ref) string { return r.Table + "." + r.Column + "->" + r.RefTable + "." + r.RefColumn }
	var got []string
	for _, r := range declared {
		got = append(got, key(r))
	}
	slices.Sort(got)
	var want []string
	for _, r := range Facts.DeclaredFKs {
		want = append(want, key(r))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("declared FKs\n got %v\nwant %v", got, want)
	}
	for _, r := range Facts.UndeclaredFKs {
		if slices.Contains(got, key(r)) {
			t.Errorf("%s is declared but Facts say it is not", key(r))
		}
	}

	for _, c := range Facts.UniqueColumns {
		n := scalar[int](t, db, `SELECT COUNT(*) FROM pragma_index_list(?) l JOIN pragma_index_info(l.name) i
			WHERE l."unique" = 1 AND i.name = ?`, c.Table, c.Column)
		if n == 0 {
			t.Errorf("%s.%s has no UNIQUE index", c.Table, c.Column)
		}
	}
	if scalar[int](t, db, "SELECT COUNT(*) FROM pragma_index_list('customers') WHERE \"unique\" = 1") != 0 {
		t.Error("customers.email must not be declared unique: it holds a duplicate")
	}

	h := Facts.Hierarchy
	depth := scalar[int](t, db, fmt.Sprintf(`WITH RECURSIVE tree(id, depth) AS (
		SELECT %[3]s, 1 FROM %[1]s WHERE %[2]s IS NULL
		UNION ALL SELECT c.%[3]s, tree.depth + 1 FROM %[1]s c JOIN tree ON c.%[2]s = tree.id)
		SELECT MAX(depth) FROM tree`, h.Table, h.Column, h.RefColumn))
	if depth != Facts.HierarchyDepth {
		t.Errorf("hierarchy depth %d, Facts say %d", depth, Facts.HierarchyDepth)
	}
	bridgeFKs := 0
	for _, r := range Facts.DeclaredFKs {
		if r.Table == Facts.BridgeTable && slices.Contains(Facts.PrimaryKeys[r.Table], r.Column) {
			bridgeFKs++
		}
	}
	if bridgeFKs != 2 || len(Facts.PrimaryKeys[Facts.BridgeTable]) != 2 {
		t.Errorf("%s is not a bridge of two declared keys", Facts.BridgeTable)
	}
}

func TestReferences(t *testing.T) {
	skipUnderRace(t)
	db := open(t, shared(t))
	for _, r := range append(slices.Clone(Facts.DeclaredFKs), Facts.UndeclaredFKs...) {
		missing := column[int64](t, db, fmt.Sprintf(
			"SELECT c.%[2]s FROM %[1]s c WHERE c.%[2]s IS NOT NULL AND NOT EXISTS (SELECT 1 FROM %[3]s p WHERE p.%[4]s = c.%[2]s) ORDER BY 1",
			r.Table, r.Column, r.RefTable, r.RefColumn))
		var want []int64
		for _, o := range Facts.Orphans {
			if o.Ref == r {
				want = o.Values
			}
		}
		if !slices.Equal(missing, want) {
			t.Errorf("%s.%s → %s: orphans %v, Facts say %v", r.Table, r.Column, r.RefTable, missing, want)
		}
		// Inference needs most of the parent keys to be used, not just a few.
		used := scalar[float64](t, db, fmt.Sprintf("SELECT 1.0 * (SELECT COUNT(DISTINCT %[2]s) FROM %[1]s) / (SELECT COUNT(*) FROM %[3]s)", r.Table, r.Column, r.RefTable))
		if used < 0.02 {
			t.Errorf("%s.%s uses only %.3f of %s", r.Table, r.Column, used, r.RefTable)
		}
	}
}

func TestDataQualityFacts(t *testing.T) {
	skipUnderRace(t)
	db := open(t, shared(t))

	dups := column[string](t, db, "SELECT email FROM customers GROUP BY email HAVING COUNT(*) > 1")
	if !slices.Equal(dups, []string{Facts.DuplicateEmail}) {
		t.Errorf("duplicated emails %v, Facts say %q", dups, Facts.DuplicateEmail)
	}
	ids := column[int64](t, db, "SELECT id FROM customers WHERE email = ? ORDER BY id", Facts.DuplicateEmail)
	if !slices.Equal(ids, Facts.DuplicateEmailCustomerIDs) {
		t.Errorf("customers with %s: %v, Facts say %v", Facts.DuplicateEmail, ids, Facts.DuplicateEmailCustomerIDs)
	}

	if n := scalar[int](t, db, "SELECT COUNT(*) FROM payments WHERE amount >= ?", Facts.OutlierMinAmount); n != Facts.OutlierCount {
		t.Errorf("%d payments at or above %v, Facts say %d", n, Facts.OutlierMinAmount, Facts.OutlierCount)
	}
	if max := scalar[float64](t, db, "SELECT MAX(amount) FROM payments WHERE amount < ?", Facts.OutlierMinAmount); max > Facts.RegularMaxAmount {
		t.Errorf("regular payments reach %v, Facts say at most %v", max, Facts.RegularMaxAmount)
	}
	mismatched := scalar[int](t, db, `SELECT COUNT(*) FROM payments p JOIN order_totals o ON o.order_id = p.order_id
		WHERE ROUND(p.amount, 2) != ROUND(o.total * CASE WHEN p.amount >= ? THEN ? ELSE 1 END, 2)`, Facts.OutlierMinAmount, Facts.OutlierScale)
	if mismatched != 0 {
		t.Errorf("%d payments do not match their order total as documented", mismatched)
	}

	for _, c := range Facts.NullHeavy {
		frac := scalar[float64](t, db, fmt.Sprintf("SELECT AVG(%s IS NULL) FROM %s", c.Column.Column, c.Table))
		if frac < c.MinNullFraction {
			t.Errorf("%s.%s is %.2f NULL, Facts say at least %.2f", c.Table, c.Column.Column, frac, c.MinNullFraction)
		}
	}
	if frac := scalar[float64](t, db, "SELECT AVG(phone IS NULL) FROM customers"); frac < 0.05 || frac > 0.5 {
		t.Errorf("customers.phone is %.2f NULL, want some but not most", frac)
	}
	phone := regexp.MustCompile(Facts.PhonePattern)
	for _, p := range column[string](t, db, "SELECT phone FROM customers WHERE phone IS NOT NULL") {
		if !phone.MatchString(p) {
			t.Errorf("phone %q does not match %s", p, Facts.PhonePattern)
			break
		}
	}

	for _, e := range Facts.Enums {
		got := column[string](t, db, fmt.Sprintf("SELECT DISTINCT %s FROM %s ORDER BY 1", e.Column.Column, e.Table))
		if want := slices.Sorted(slices.Values(e.Values)); !slices.Equal(got, want) {
			t.Errorf("%s.%s takes %v, Facts say %v", e.Table, e.Column.Column, got, want)
		}
	}

	share := scalar[float64](t, db, fmt.Sprintf("SELECT AVG(country_code IN ('%s')) FROM customers", strings.Join(Facts.TopCountries, "','")))
	if share < Facts.TopCountriesShare {
		t.Errorf("top countries hold %.2f of customers, Facts say at least %.2f", share, Facts.TopCountriesShare)
	}

	// Every timestamp has one shape, and none is NULL where a value is due.
	stampGlob := "[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9]"
	for _, c := range []Column{
		{"suppliers", "created_at"}, {"products", "created_at"}, {"customers", "created_at"}, {"orders", "ordered_at"},
		{"payments", "paid_at"}, {"shipments", "shipped_at"}, {"shipments", "delivered_at"}, {"reviews", "created_at"}, {"inventory", "updated_at"},
	} {
		bad := scalar[int](t, db, fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE %s NOT GLOB ? OR %[2]s > ?", c.Table, c.Column), stampGlob, Facts.Snapshot)
		if bad != 0 {
			t.Errorf("%s.%s: %d values malformed or after the snapshot", c.Table, c.Column, bad)
		}
	}
}

func TestBusinessFacts(t *testing.T) {
	skipUnderRace(t)
	db := open(t, shared(t))
	first := scalar[string](t, db, "SELECT MIN(ordered_at) FROM orders")
	last := scalar[string](t, db, "SELECT MAX(ordered_at) FROM orders")
	if first[:10] < Facts.FirstOrder || last[:10] > Facts.LastOrder {
		t.Errorf("orders span %s … %s, Facts say %s … %s", first, last, Facts.FirstOrder, Facts.LastOrder)
	}

	var months []string
	for _, m := range Facts.PeakMonths {
		months = append(months, fmt.Sprintf("'%02d'", int(m)))
	}
	peak := scalar[float64](t, db, "SELECT AVG(strftime('%m', ordered_at) IN ("+strings.Join(months, ",")+")) FROM orders")
	t.Logf("share of orders in %v: %.3f (even spread %.3f)", Facts.PeakMonths, peak, float64(len(months))/12)
	if peak < Facts.PeakMonthsMinShare {
		t.Errorf("peak months hold %.3f of orders, Facts say at least %.2f", peak, Facts.PeakMonthsMinShare)
	}
	quiet := scalar[int](t, db, "SELECT CAST(strftime('%w', ordered_at) AS INTEGER) d FROM orders GROUP BY d ORDER BY COUNT(*) LIMIT 1")
	if time.Weekday(quiet) != Facts.QuietestWeekday {
		t.Errorf("quietest weekday %v, Facts say %v", time.Weekday(quiet), Facts.QuietestWeekday)
	}

	counts := column[int](t, db, "SELECT COUNT(*) c FROM orders GROUP BY customer_id ORDER BY c DESC")
	top := 0
	for _, c := range counts[:max(1, len(counts)/100)] {
		top += c
	}
	topShare := float64(top) / float64(Facts.RowCounts["orders"])
	customers := scalar[int](t, db, "SELECT COUNT(*) FROM customers")
	zero := 1 - float64(len(counts))/float64(customers)
	t.Logf("busiest customer %d orders, top 1%% place %.3f of orders, %.3f of customers never order", counts[0], topShare, zero)
	if topShare < Facts.TopCustomerShare || zero < Facts.ZeroOrderCustomerShare {
		t.Errorf("customer skew too weak: top share %.3f, zero-order share %.3f", topShare, zero)
	}

	if mode := scalar[int](t, db, "SELECT rating FROM reviews GROUP BY rating ORDER BY COUNT(*) DESC LIMIT 1"); mode != Facts.ModalRating {
		t.Errorf("modal rating %d, Facts say %d", mode, Facts.ModalRating)
	}

	in := func(xs []string) string { return "('" + strings.Join(xs, "','") + "')" }
	checks := map[string]string{
		"payment iff paid-like status": `SELECT COUNT(*) FROM orders o
			LEFT JOIN (SELECT order_id, COUNT(*) n FROM payments GROUP BY order_id) p ON p.order_id = o.id
			WHERE (o.status IN ` + in(Facts.StatusesWithPayment) + `) != (COALESCE(p.n, 0) = 1)`,
		"shipment iff shipped-like status": `SELECT COUNT(*) FROM orders o
			LEFT JOIN (SELECT order_id, COUNT(*) n FROM shipments GROUP BY order_id) s ON s.order_id = o.id
			WHERE (o.status IN ` + in(Facts.StatusesWithShipment) + `) != (COALESCE(s.n, 0) = 1)`,
		"delivered_at iff delivered": `SELECT COUNT(*) FROM shipments s JOIN orders o ON o.id = s.order_id
			WHERE (o.status IN ` + in(Facts.StatusesDelivered) + `) != (s.delivered_at IS NOT NULL)`,
		"delivered after shipped":      `SELECT COUNT(*) FROM shipments WHERE delivered_at <= shipped_at`,
		"paid after ordered":           `SELECT COUNT(*) FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.paid_at < o.ordered_at`,
		"shipped after paid":           `SELECT COUNT(*) FROM shipments s JOIN payments p ON p.order_id = s.order_id WHERE s.shipped_at < p.paid_at`,
		"customer exists before order": `SELECT COUNT(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.created_at > o.ordered_at`,
		"product listed before sold": `SELECT COUNT(*) FROM order_items i JOIN orders o ON o.id = i.order_id
			JOIN products p ON p.id = i.product_id WHERE p.created_at > o.ordered_at`,
		"ships to own address": `SELECT COUNT(*) FROM orders o JOIN addresses a ON a.id = o.shipping_address_id
			WHERE a.customer_id != o.customer_id OR a.kind != 'shipping'`,
		"every order has items":               `SELECT COUNT(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id)`,
		"one review per customer and product": `SELECT COUNT(*) FROM (SELECT 1 FROM reviews GROUP BY customer_id, product_id HAVING COUNT(*) > 1)`,
		"tracking numbers unique":             `SELECT COUNT(*) - COUNT(DISTINCT tracking_number) FROM shipments`,
	}
	for _, name := range slices.Sorted(maps.Keys(checks)) {
		if n := scalar[int](t, db, checks[name]); n != 0 {
			t.Errorf("%s: %d violations", name, n)
		}
	}
}
