package mysql

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// These tests are internal to the package, to build the sample's
// statement for any number of draws (sampleKeys).

func mysqlDialect(t *testing.T) Dialect {
	t.Helper()
	return Dialect{}
}

// Issue 9 on MySQL and MariaDB: a base table whose primary key is one
// integer column is sized and sampled by that key. These tests check the
// statements' text; warehouse/mysql runs them on the test server.

// TestMySQLIntKeys: the key is the primary key when it is one column of
// an integer type, signed or not, as information_schema spells it; any
// other key, a composite one, none, or a view gives no integer key.
func TestMySQLIntKeys(t *testing.T) {
	d := mysqlDialect(t)
	table := func(kind string, pk []string, cols ...string) warehouse.Table {
		tab := warehouse.Table{Name: warehouse.TableName{Name: "t"}, Kind: kind, PrimaryKey: pk}
		for _, c := range cols {
			n, typ, _ := strings.Cut(c, " ")
			tab.Columns = append(tab.Columns, warehouse.Column{Name: n, Type: typ})
		}
		return tab
	}
	for _, typ := range []string{"int(11)", "int(10) unsigned", "int unsigned", "bigint(20)", "bigint(20) unsigned",
		"BIGINT UNSIGNED ZEROFILL", "tinyint(1)", "tinyint(3) unsigned", "smallint(6)", "mediumint(8) unsigned", "integer"} {
		keys := d.IntKeys(table("table", []string{"id"}, "name varchar(20)", "id "+typ))
		if len(keys) != 1 || keys[0].Name != "`id`" || keys[0].Column != "id" || keys[0].Rowid() || keys[0].String() != "integer key id" {
			t.Errorf("%s: keys %+v, want integer key id", typ, keys)
		}
	}
	for _, c := range []struct {
		what string
		tab  warehouse.Table
	}{
		{"varchar key", table("table", []string{"id"}, "id varchar(20)")},
		{"decimal key", table("table", []string{"id"}, "id decimal(10,0)")},
		{"bit key", table("table", []string{"id"}, "id bit(8)")},
		{"year key", table("table", []string{"id"}, "id year(4)")},
		{"point key", table("table", []string{"id"}, "id point")},
		{"double key", table("table", []string{"id"}, "id double")},
		{"composite key", table("table", []string{"a", "b"}, "a int(11)", "b int(11)")},
		{"no key", table("table", nil, "a int(11)")},
		{"key not among the columns", table("table", []string{"id"}, "a int(11)")},
		{"view", table("view", []string{"id"}, "id int(11)")},
	} {
		if keys := d.IntKeys(c.tab); len(keys) != 0 {
			t.Errorf("%s: keys %+v, want none", c.what, keys)
		}
	}
	// A name that needs quoting is quoted as MySQL quotes it.
	keys := d.IntKeys(table("table", []string{"my`id"}, "my`id bigint"))
	if len(keys) != 1 || keys[0].Name != "`my``id`" {
		t.Errorf("keys %+v, want `my``id`", keys)
	}
}

// TestMySQLKeyBounds: the least and greatest key, each a subquery MySQL
// answers from an end of the index; the guard takes it.
func TestMySQLKeyBounds(t *testing.T) {
	d := mysqlDialect(t)
	k := warehouse.IntKey{Name: "`id`", Column: "id"}
	q, ok := d.KeyBounds(warehouse.TableName{Name: "big"}, k)
	want := "SELECT (SELECT MIN(t.`id`) FROM `big` AS t) AS lo, (SELECT MAX(t.`id`) FROM `big` AS t) AS hi"
	if !ok || q != want {
		t.Errorf("KeyBounds = %q, %v; want %q", q, ok, want)
	}
	if err := Grammar.Check(q); err != nil {
		t.Errorf("guard refuses %s: %v", q, err)
	}
	// MySQL has no rowid.
	if q, ok := warehouse.RowidBounds(d, warehouse.TableName{Name: "big"}, "rowid"); ok {
		t.Errorf("RowidBounds on mysql: %s", q)
	}
}

// TestKeyRangeTypes: the ends come as int64, uint64 or decimal text (the
// MySQL source's BIGINT UNSIGNED beyond int64); anything else, or text
// that is not exactly an integer within int64, is no integer key.
func TestKeyRangeTypes(t *testing.T) {
	for _, c := range []struct {
		row          []any
		lo, hi       int64
		rows, wantOK bool
	}{
		{[]any{int64(3), int64(3_000_000)}, 3, 3_000_000, true, true},
		{[]any{int64(-5), int64(7)}, -5, 7, true, true},
		{[]any{uint64(0), uint64(math.MaxInt64)}, 0, math.MaxInt64, true, true},
		{[]any{"-12", "9223372036854775807"}, -12, math.MaxInt64, true, true},
		{[]any{int64(1), "42"}, 1, 42, true, true},
		{[]any{nil, nil}, 0, 0, false, true},
		{[]any{uint64(1), uint64(math.MaxInt64 + 1)}, 0, 0, false, false},
		{[]any{int64(1), "18446744073709551615"}, 0, 0, false, false},
		{[]any{int64(1), "+5"}, 0, 0, false, false},
		{[]any{int64(1), " 5"}, 0, 0, false, false},
		{[]any{int64(1), "5 "}, 0, 0, false, false},
		{[]any{int64(1), "1.5"}, 0, 0, false, false},
		{[]any{int64(1), "1e3"}, 0, 0, false, false},
		{[]any{int64(1), "0x10"}, 0, 0, false, false},
		{[]any{int64(1), "1_000"}, 0, 0, false, false},
		{[]any{int64(1), ""}, 0, 0, false, false},
		{[]any{int64(1), "three"}, 0, 0, false, false},
		{[]any{int64(1), []byte("5")}, 0, 0, false, false}, // a SQLite blob
		{[]any{int64(1), float64(5)}, 0, 0, false, false},
		{[]any{nil, int64(5)}, 0, 0, false, false},
		{[]any{int64(5)}, 0, 0, false, false},
	} {
		lo, hi, rows, ok := warehouse.KeyRange(c.row)
		if lo != c.lo || hi != c.hi || rows != c.rows || ok != c.wantOK {
			t.Errorf("warehouse.KeyRange(%#v) = %d, %d, %v, %v; want %d, %d, %v, %v", c.row, lo, hi, rows, ok, c.lo, c.hi, c.rows, c.wantOK)
		}
	}
}

// TestMySQLRowidProbe: windows of the primary key, as on SQLite, read by
// key ranges; not by a SQLite rowid spelling, which MySQL lacks.
func TestMySQLRowidProbe(t *testing.T) {
	d := mysqlDialect(t)
	big := warehouse.TableName{Name: "big"}
	q, covered, ok := d.RowidProbe(big, "`id`", 1, 3_000_000)
	if !ok || covered != 64*128 {
		t.Fatalf("RowidProbe = %v, covered %d", ok, covered)
	}
	if n := strings.Count(q, "FROM `big` AS t WHERE t.`id` BETWEEN "); n != 64 {
		t.Errorf("%d windows in %s", n, q)
	}
	if err := Grammar.Check(q); err != nil {
		t.Errorf("guard refuses the probe: %v", err)
	}
	if q, covered, ok := d.RowidProbe(big, "`id`", -5, 100); !ok || covered != 106 ||
		q != "SELECT count(*) AS n FROM `big` AS t WHERE t.`id` BETWEEN -5 AND 100" {
		t.Errorf("small span: %q, %d, %v", q, covered, ok)
	}
	if _, _, ok := d.RowidProbe(big, "rowid", 1, 3_000_000); ok {
		t.Error("a probe by rowid on mysql")
	}
}

// sampleDigits reads the draw numbers a MySQL key sample generates back
// from its text: the digit tables and the bound under which they count.
var (
	digitTableRe = regexp.MustCompile(`\(SELECT 0 AS x((?: UNION ALL SELECT \d+)*)\) d(\d+)`)
	drawBoundRe  = regexp.MustCompile(`\) g GROUP BY v\)`)
	boundRe      = regexp.MustCompile(` < (\d+)\) g GROUP BY v\)`)
)

func drawNumbers(t *testing.T, from string) []int64 {
	t.Helper()
	var places [][]int64
	for _, m := range digitTableRe.FindAllStringSubmatch(from, -1) {
		p, _ := strconv.Atoi(m[2])
		if p != len(places) {
			t.Fatalf("digit table d%d out of order in %s", p, from)
		}
		vals := []int64{0}
		for _, f := range strings.Fields(strings.ReplaceAll(m[1], "UNION ALL SELECT", "")) {
			v, _ := strconv.ParseInt(f, 10, 64)
			vals = append(vals, v)
		}
		places = append(places, vals)
	}
	m := boundRe.FindStringSubmatch(from)
	if m == nil || !drawBoundRe.MatchString(from) {
		t.Fatalf("no bound on the draws in %s", from)
	}
	bound, _ := strconv.ParseInt(m[1], 10, 64)
	nums := []int64{0}
	unit := int64(1)
	for _, vals := range places {
		var next []int64
		for _, v := range vals {
			for _, n := range nums {
				next = append(next, n+v*unit)
			}
		}
		nums, unit = next, unit*10
	}
	var out []int64
	for _, n := range nums {
		if n < bound {
			out = append(out, n)
		}
	}
	if len(nums) > 2*len(out)+10 {
		t.Errorf("%d numbers generated for %d draws", len(nums), len(out))
	}
	return out
}

// TestMySQLSampleRowids: the sample's statement draws the numbers 0 …
// draws−1 exactly once each, hashes them with the table's seed (the same
// statement every time, another for another table), joins the table by
// its key in draw order, and passes the guard. No sample by a rowid
// spelling, nor where RowidDraws declines.
func TestMySQLSampleRowids(t *testing.T) {
	d := mysqlDialect(t)
	big := warehouse.TableName{Name: "big"}
	from, ok := d.SampleRowids(big, "`id`", 10_000, 1_000_000, 3, 3_000_000)
	if !ok {
		t.Fatal("no sample")
	}
	t.Logf("%d characters: %.600s", len(from), from)
	draws, _ := warehouse.RowidDraws(10_000, 1_000_000, 3, 3_000_000)
	for _, part := range []string{
		"(SELECT b.* FROM (SELECT MIN(n) AS i, 3 + CAST(CONV(SUBSTRING(SHA1(CONCAT('",
		":', n)), 1, 15), 16, 10) AS SIGNED) % 2999998 AS v FROM (SELECT d0.x + 10 * d1.x + 100 * d2.x + 1000 * d3.x + 10000 * d4.x AS n FROM ",
		") d JOIN `big` AS b ON b.`id` = d.v ORDER BY d.i LIMIT 10000) s",
		" < " + strconv.FormatInt(draws, 10) + ") g GROUP BY v)",
	} {
		if !strings.Contains(from, part) {
			t.Errorf("no %q in %s", part, from)
		}
	}
	if strings.Contains(from, "WITH") || strings.Contains(from, "CROSS JOIN") || strings.Contains(from, "RAND") {
		t.Errorf("a CTE, a CROSS JOIN or RAND in %s", from)
	}
	if err := Grammar.Check("SELECT COUNT(*), AVG(s.a) FROM " + from); err != nil {
		t.Errorf("guard refuses the sample: %v", err)
	}
	for _, c := range []struct{ draws int64 }{{1}, {9}, {10}, {11}, {99}, {100}, {101}, {12_421}, {draws}, {1_000_000}, {1_234_567}} {
		nums := drawNumbers(t, d.sampleKeys(big, "`id`", 10, c.draws, 1, 1_000_000))
		if int64(len(nums)) != c.draws {
			t.Errorf("%d draws: %d numbers generated", c.draws, len(nums))
			continue
		}
		seen := map[int64]bool{}
		for _, n := range nums {
			if n < 0 || n >= c.draws || seen[n] {
				t.Errorf("%d draws: number %d out of range or twice", c.draws, n)
				break
			}
			seen[n] = true
		}
	}
	again, _ := d.SampleRowids(big, "`id`", 10_000, 1_000_000, 3, 3_000_000)
	if again != from {
		t.Error("the same sample asked twice differs")
	}
	other, _ := d.SampleRowids(warehouse.TableName{Name: "other"}, "`id`", 10_000, 1_000_000, 3, 3_000_000)
	if strings.ReplaceAll(other, "`other`", "`big`") == from {
		t.Error("two tables draw the same keys: the seed ignores the name")
	}
	// A negative least key.
	if neg, ok := d.SampleRowids(big, "`id`", 100, 10_000, -20_000, -1); !ok || !strings.Contains(neg, "MIN(n) AS i, -20000 + CAST(") ||
		!strings.Contains(neg, "% 20000 AS v") {
		t.Errorf("negative keys: %v %s", ok, neg)
	}
	for _, c := range []struct {
		key                 string
		rows, total, lo, hi int64
	}{
		{"rowid", 10_000, 1_000_000, 1, 1_000_000}, // MySQL has no rowid
		{"`id`", 10_000, 10_500, 1, 10_500},        // the sample is nearly the table
		{"`id`", 10_000, 1 << 30, 1, 1 << 50},      // beyond 2⁴⁰ keys
		{"`id`", 10_000, 5_000, 1, 5_000},          // the table is within the sample
	} {
		if from, ok := d.SampleRowids(big, c.key, c.rows, c.total, c.lo, c.hi); ok {
			t.Errorf("%+v: sample %s", c, from)
		}
	}
}
