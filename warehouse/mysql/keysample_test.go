package mysql

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// Issue 9 on the server: a table keyed by one integer column is sized and
// sampled by lookups by that key (warehouse.Dialect's IntKeys, KeyBounds,
// RowidProbe, SampleRowids), through this source's guarded query path.

// digitSeries is a FROM item of i from 0 to 10^places−1, with no CTE and
// no engine-specific table, so the fixtures build on MySQL and MariaDB.
func digitSeries(places int) string {
	digits := "(SELECT 0 AS x UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 " +
		"UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)"
	var terms, tables []string
	unit := 1
	for p := range places {
		terms = append(terms, fmt.Sprintf("%d * d%d.x", unit, p))
		tables = append(tables, fmt.Sprintf("%s d%d", digits, p))
		unit *= 10
	}
	return "(SELECT " + strings.Join(terms, " + ") + " AS i FROM " + strings.Join(tables, ", ") + ") r"
}

// keySampleFixture: keyed holds keys −20,000 … 29,999 but those divisible
// by 5 (40,000 rows; v = key mod 100 shifted to 0…99, w NULL on odd
// keys); the other tables are the keys FindIntKey must refuse or find
// empty.
func keySampleFixture(t *testing.T) (*Source, map[string]warehouse.Table) {
	t.Helper()
	admin := adminDB(t, "")
	db := createDB(t, admin, "dks_")
	q := func(s string) string { return strings.ReplaceAll(s, "$DB", QuoteIdent(db)) }
	exec(t, admin,
		q(`CREATE TABLE $DB.keyed (id INT NOT NULL PRIMARY KEY, v INT NOT NULL, w VARCHAR(5)) ENGINE=InnoDB`),
		q(`INSERT INTO $DB.keyed SELECT i - 20000, i % 100, CASE WHEN i % 2 = 0 THEN 'x' END FROM `+digitSeries(5)+
			` WHERE i < 50000 AND i % 5 <> 0`),
		q(`CREATE TABLE $DB.huge_key (id BIGINT UNSIGNED NOT NULL PRIMARY KEY)`),
		q(`INSERT INTO $DB.huge_key VALUES (1), (18446744073709551615)`),
		q(`CREATE TABLE $DB.unsigned_key (id INT UNSIGNED NOT NULL PRIMARY KEY, v INT)`),
		q(`INSERT INTO $DB.unsigned_key VALUES (5, 1), (4294967295, 2)`),
		q(`CREATE TABLE $DB.empty_key (id BIGINT NOT NULL PRIMARY KEY)`),
		q(`CREATE TABLE $DB.text_key (id VARCHAR(10) NOT NULL PRIMARY KEY)`),
		q(`INSERT INTO $DB.text_key VALUES ('a')`),
		q(`CREATE TABLE $DB.pair_key (a INT NOT NULL, b INT NOT NULL, PRIMARY KEY (a, b))`),
		q(`INSERT INTO $DB.pair_key VALUES (1, 1)`),
		q(`CREATE VIEW $DB.keyed_view AS SELECT * FROM $DB.keyed`),
		q(`ANALYZE TABLE $DB.keyed`),
	)
	src := open(t, rootDSN(t, db))
	tables, err := src.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]warehouse.Table{}
	for _, tab := range tables {
		byName[tab.Name.Name] = tab
	}
	return src, byName
}

// keyedExists says whether keyed holds key k.
func keyedExists(k int64) bool { return k >= -20000 && k <= 29999 && (k+20000)%5 != 0 }

// TestKeySampleOnServer: FindIntKey finds keyed's key and range by two
// index-end reads, with the values as the source returns them; the other
// tables have no integer key to go by (or no rows). The probe sizes keyed
// within a few percent by key ranges. The sample holds the rows asked
// for, exactly those the seeded draws name (computed here from SHA1: the
// server's arithmetic is exact), the same in every statement, and is read
// by primary-key lookups only.
func TestKeySampleOnServer(t *testing.T) {
	src, tables := keySampleFixture(t)
	ctx := context.Background()
	d := src.Dialect()
	query := func(q string) *warehouse.Result {
		t.Helper()
		res, err := src.Query(ctx, q, warehouse.QueryOptions{MaxRows: 100_000})
		if err != nil {
			t.Fatalf("%.300s: %v", q, err)
		}
		return res
	}
	var stmts []string
	find := func(name string) (warehouse.IntKey, int64, int64, bool, bool) {
		t.Helper()
		k, lo, hi, rows, found, err := warehouse.FindIntKey(d, tables[name], func(q string) ([]any, error) {
			stmts = append(stmts, q)
			res := query(q)
			t.Logf("%s: %s -> %#v", name, q, res.Rows)
			if len(res.Rows) != 1 {
				return nil, nil
			}
			return res.Rows[0], nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return k, lo, hi, rows, found
	}

	k, lo, hi, rows, found := find("keyed")
	if !found || !rows || k.Name != "`id`" || lo != -19999 || hi != 29999 {
		t.Fatalf("keyed: key %+v %d..%d (rows %v, found %v), want `id` -19999..29999", k, lo, hi, rows, found)
	}
	if plan := explain(t, src, stmts[len(stmts)-1]); !strings.Contains(plan, "Select tables optimized away") {
		t.Errorf("the bounds read more than the ends of the key:\n%s", plan)
	}
	if k, lo, hi, rows, found := find("unsigned_key"); !found || !rows || k.Column != "id" || lo != 5 || hi != 4294967295 {
		t.Errorf("unsigned_key: key %+v %d..%d (rows %v, found %v), want id 5..4294967295", k, lo, hi, rows, found)
	}
	if k, _, _, rows, found := find("empty_key"); !found || rows || k.Column != "id" {
		t.Errorf("empty_key: key %+v (rows %v, found %v), want id with no rows", k, rows, found)
	}
	for _, name := range []string{"huge_key", "text_key", "pair_key", "keyed_view"} {
		if k, lo, hi, _, found := find(name); found {
			t.Errorf("%s: integer key %+v %d..%d, want none", name, k, lo, hi)
		}
	}

	// The probe: 64 windows of 128 keys, 4 in 5 in use.
	q, covered, ok := d.RowidProbe(tables["keyed"].Name, k.Name, lo, hi)
	if !ok {
		t.Fatal("no probe")
	}
	res := query(q)
	n, isInt := res.Rows[0][0].(int64)
	est, exact := warehouse.RowidEstimate(lo, hi, covered, n)
	t.Logf("probe: %d of %d keys in use: estimate %d rows, true 40,000 (%.2f%%)", n, covered, est, 100*(float64(est)/40000-1))
	if !isInt || exact || math.Abs(float64(est)/40000-1) > 0.05 {
		t.Errorf("probe: %v (%T), estimate %d (exact %v), want 40,000 within 5%%", res.Rows[0][0], res.Rows[0][0], est, exact)
	}
	if plan := explain(t, src, q); regexp.MustCompile(`(?m)\tt\t(ALL|index)\t`).MatchString(plan) ||
		!strings.Contains(plan, "\tt\trange\tPRIMARY\tPRIMARY\t") {
		t.Errorf("the probe scans:\n%s", plan)
	}

	// The sample.
	const want = 2000
	from, ok := d.SampleRowids(tables["keyed"].Name, k.Name, want, 40_000, lo, hi)
	if !ok {
		t.Fatal("no sample")
	}
	ids := func() []int64 {
		t.Helper()
		var out []int64
		for _, r := range query("SELECT s.id FROM " + from).Rows {
			out = append(out, r[0].(int64))
		}
		return out
	}
	got := ids()
	expect := expectedDraws(t, from, lo, hi, 40_000, want, keyedExists)
	if !slices.Equal(got, expect) {
		same := 0
		for _, g := range got {
			if slices.Contains(expect, g) {
				same++
			}
		}
		t.Errorf("sample of %d keys, %d of them among the %d the draws name; first %v, want %v", len(got), same, len(expect),
			got[:min(5, len(got))], expect[:min(5, len(expect))])
	}
	if again := ids(); !slices.Equal(again, got) {
		t.Error("a second statement drew other rows")
	}
	res = query("SELECT COUNT(*), COUNT(DISTINCT s.id), AVG(s.v), AVG(s.w IS NULL), MIN(s.id), MAX(s.id) FROM " + from)
	t.Logf("sample: %v (table: 40,000 distinct, mean v 49.5, NULL w 0.5, keys -19999..29999)", res.Rows[0])
	if plan := explain(t, src, "SELECT COUNT(*) FROM "+from); !regexp.MustCompile(`(?m)^\d+\tDERIVED\tb\teq_ref\tPRIMARY\tPRIMARY\t`).MatchString(plan) ||
		regexp.MustCompile(`(?m)\tb\t(ALL|index|range)\t`).MatchString(plan) {
		t.Errorf("the sample does not read keyed by primary-key lookups only:\n%s", plan)
	}
}

// expectedDraws is what a MySQL key sample holds, computed as its
// statement does: the numbers 0 … draws−1 hashed with the seed its text
// holds to keys lo + first 60 bits of SHA1 mod span, the first draw of each
// key kept, the keys that exist kept in draw order, rows of them.
func expectedDraws(t *testing.T, from string, lo, hi, total, rows int64, exists func(int64) bool) []int64 {
	t.Helper()
	m := regexp.MustCompile(`CONCAT\('(\d+):', n\)`).FindStringSubmatch(from)
	draws, ok := warehouse.RowidDraws(rows, total, lo, hi)
	if m == nil || !ok {
		t.Fatalf("no seed or no draws in %s", from)
	}
	span := uint64(hi - lo + 1)
	seen := map[int64]bool{}
	var out []int64
	for n := int64(0); n < draws && int64(len(out)) < rows; n++ {
		sum := sha1.Sum([]byte(m[1] + ":" + strconv.FormatInt(n, 10)))
		h, err := strconv.ParseUint(hex.EncodeToString(sum[:])[:15], 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		k := lo + int64(h%span)
		if seen[k] {
			continue
		}
		seen[k] = true
		if exists(k) {
			out = append(out, k)
		}
	}
	return out
}

// explain is the server's tabular plan of q, one line per row.
func explain(t *testing.T, src *Source, q string) string {
	t.Helper()
	res, err := src.Query(context.Background(), "EXPLAIN "+q, warehouse.QueryOptions{})
	if err != nil {
		t.Fatalf("EXPLAIN %.300s: %v", q, err)
	}
	var b strings.Builder
	for _, r := range res.Rows {
		cells := make([]string, len(r))
		for i, v := range r {
			if v == nil {
				cells[i] = "NULL"
			} else {
				cells[i] = fmt.Sprint(v)
			}
		}
		b.WriteString(strings.Join(cells, "\t") + "\n")
	}
	return b.String()
}
