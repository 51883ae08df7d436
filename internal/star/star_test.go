package star

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testScale is small enough for a second's generation, large enough that
// every fact has a thousand rows or more but the smallest.
const testScale = 0.002

// One generation, checked for everything the benchmark relies on: the
// tables and their rows, the names, the references, the NULLs, the cache
// and the same content on a second generation.
func TestStar(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, err := Ensure(ctx, dir, testScale)
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Ensure(ctx, dir, testScale)
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(again)
	if err != nil {
		t.Fatal(err)
	}
	// A regeneration renames a new file over the old one: another inode
	// and a later modification time.
	if again != path || !os.SameFile(before, after) || !before.ModTime().Equal(after.ModTime()) {
		t.Fatalf("Ensure regenerated %s: %s, %v then %v", path, again, before.ModTime(), after.ModTime())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.partial")); len(left) > 0 {
		t.Errorf("Ensure left %v", left)
	}
	db := openRO(t, path)

	t.Run("tables", func(t *testing.T) {
		tables := Tables(testScale)
		if len(tables) != 24 {
			t.Fatalf("Tables lists %d", len(tables))
		}
		var names []string
		rows, err := db.Query(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var n string
			rows.Scan(&n)
			names = append(names, n)
		}
		rows.Close()
		var want []string
		for _, tb := range tables {
			want = append(want, tb.Name)
		}
		slices.Sort(want)
		if got, w := strings.Join(names, " "), strings.Join(want, " "); got != w {
			t.Fatalf("tables %s, want %s", got, w)
		}
		for _, tb := range tables {
			if n := count(t, db, `SELECT count(*) FROM `+tb.Name); n != tb.Rows {
				t.Errorf("%s: %d rows, want %d", tb.Name, n, tb.Rows)
			}
		}
	})

	t.Run("names", func(t *testing.T) {
		prefixes := map[string]string{}
		for _, tb := range Tables(testScale) {
			cols := columns(t, db, tb.Name)
			prefix, _, _ := strings.Cut(cols[0].name, "_")
			if other, ok := prefixes[prefix]; ok {
				t.Errorf("%s and %s share the prefix %s", other, tb.Name, prefix)
			}
			prefixes[prefix] = tb.Name
			for _, c := range cols {
				if !strings.HasPrefix(c.name, prefix+"_") {
					t.Errorf("%s.%s lacks the prefix %s_", tb.Name, c.name, prefix)
				}
			}
			if !isFact(tb.Name) {
				// A dimension: its surrogate key first, then its business key.
				entity, ok := strings.CutSuffix(strings.TrimPrefix(cols[0].name, prefix+"_"), "_sk")
				if !ok || cols[0].typ != "INTEGER" || cols[0].pk != 1 {
					t.Errorf("%s: its first column %s is no integer primary key <prefix>_<entity>_sk", tb.Name, cols[0].name)
				}
				if cols[1].name != prefix+"_"+entity+"_id" || cols[1].typ != "TEXT" {
					t.Errorf("%s: its second column %s %s is no business key %s_%s_id", tb.Name, cols[1].name, cols[1].typ, prefix, entity)
				}
			}
		}
		if len(prefixes) != 24 {
			t.Errorf("%d prefixes", len(prefixes))
		}
	})

	t.Run("refs", func(t *testing.T) {
		refs := Refs()
		referred := map[string]bool{}
		composite := 0
		for _, r := range refs {
			if len(r.ChildCols) != len(r.ParentCols) || len(r.ChildCols) == 0 {
				t.Fatalf("%+v", r)
			}
			if len(r.ChildCols) > 1 {
				composite++
			} else {
				referred[r.Child+"."+r.ChildCols[0]] = true
			}
			name := fmt.Sprintf("%s(%s) → %s(%s)", r.Child, strings.Join(r.ChildCols, ", "), r.Parent, strings.Join(r.ParentCols, ", "))
			var held, orphans []string
			for i, c := range r.ChildCols {
				held = append(held, "c."+c+" IS NOT NULL")
				orphans = append(orphans, fmt.Sprintf("p.%s = c.%s", r.ParentCols[i], c))
			}
			where := strings.Join(held, " AND ")
			if n := count(t, db, fmt.Sprintf(`SELECT count(*) FROM %s c WHERE %s`, r.Child, where)); n == 0 {
				t.Errorf("%s: no value", name)
			}
			if n := count(t, db, fmt.Sprintf(`SELECT count(*) FROM %s c WHERE %s AND NOT EXISTS (SELECT 1 FROM %s p WHERE %s)`,
				r.Child, where, r.Parent, strings.Join(orphans, " AND "))); n != 0 {
				t.Errorf("%s: %d orphans", name, n)
			}
			key := strings.Join(r.ParentCols, ", ")
			if n := count(t, db, fmt.Sprintf(`SELECT count(*) FROM (SELECT 1 FROM %s GROUP BY %s HAVING count(*) > 1 OR %s IS NULL)`,
				r.Parent, key, r.ParentCols[0])); n != 0 {
				t.Errorf("%s: %s is no key of %s", name, key, r.Parent)
			}
		}
		if composite != 2 {
			t.Errorf("%d composite references, want the 2 from refunds to sales", composite)
		}
		// Every _sk column but a dimension's own key is a reference: Refs
		// misses none.
		for _, tb := range Tables(testScale) {
			for i, c := range columns(t, db, tb.Name) {
				if strings.HasSuffix(c.name, "_sk") && !(i == 0 && !isFact(tb.Name)) && !referred[tb.Name+"."+c.name] {
					t.Errorf("%s.%s is in no Ref", tb.Name, c.name)
				}
			}
		}
	})

	t.Run("nulls", func(t *testing.T) {
		for _, r := range Refs() {
			if !isFact(r.Child) || len(r.ChildCols) > 1 {
				continue
			}
			c := r.ChildCols[0]
			if columnOf(t, db, r.Child, c).notNull {
				continue
			}
			all := count(t, db, `SELECT count(*) FROM `+r.Child)
			null := count(t, db, fmt.Sprintf(`SELECT count(*) FROM %s WHERE %s IS NULL`, r.Child, c))
			if f := float64(null) / float64(all); f < 0.01 || f > 0.06 {
				t.Errorf("%s.%s: %.1f%% NULL, want 2 to 4%%", r.Child, c, 100*f)
			}
		}
	})

	t.Run("types", func(t *testing.T) {
		// An integer expression that overflows 64 bits becomes a REAL in
		// SQLite, silently: every value must be of its column's type, and
		// no column all NULL.
		want := map[string]string{"INTEGER": "integer", "REAL": "real", "TEXT": "text", "DATE": "text", "CHAR(1)": "text"}
		for _, tb := range Tables(testScale) {
			for _, c := range columns(t, db, tb.Name) {
				typ, ok := want[c.typ]
				if !ok {
					t.Fatalf("%s.%s is %s", tb.Name, c.name, c.typ)
				}
				if n := count(t, db, fmt.Sprintf(`SELECT count(*) FROM %s WHERE typeof(%s) NOT IN ('null', '%s')`, tb.Name, c.name, typ)); n != 0 {
					t.Errorf("%s.%s: %d values not %s", tb.Name, c.name, n, typ)
				}
				if n := count(t, db, fmt.Sprintf(`SELECT count(%s) FROM %s`, c.name, tb.Name)); n == 0 {
					t.Errorf("%s.%s is all NULL", tb.Name, c.name)
				}
			}
		}
	})

	t.Run("measures", func(t *testing.T) {
		// Some lines are sold at a loss, most are not.
		loss := count(t, db, `SELECT count(*) FROM shop_sale WHERE ss_profit < 0`)
		if all := count(t, db, `SELECT count(*) FROM shop_sale`); loss == 0 || loss > all/2 {
			t.Errorf("%d lines of %d at a loss", loss, all)
		}
		// A refund takes back no more than was sold, and its sale's price.
		for _, q := range []string{
			`SELECT count(*) FROM shop_refund JOIN shop_sale ON ss_goods_sk = sr_goods_sk AND ss_ticket_number = sr_ticket_number
				WHERE sr_qty > ss_qty OR abs(sr_amount - sr_qty * ss_unit_price) > 0.005 OR sr_shopper_sk IS NOT ss_shopper_sk`,
			`SELECT count(*) FROM mail_refund JOIN mail_sale ON ms_goods_sk = mr_goods_sk AND ms_order_number = mr_order_number
				WHERE mr_qty > ms_qty OR mr_refunded_shopper_sk IS NOT ms_bill_shopper_sk OR mr_return_addr_sk IS NOT ms_ship_addr_sk
				OR mr_refund_day_sk <= ms_ship_day_sk`,
			`SELECT count(*) FROM mail_sale WHERE ms_ship_day_sk <= ms_sold_day_sk`,
			`SELECT count(*) FROM shop_sale WHERE abs(ss_paid_with_tax - ss_paid - ss_tax) > 0.005`,
		} {
			if n := count(t, db, q); n != 0 {
				t.Errorf("%d rows of %s", n, q)
			}
		}
		// Gifts: some orders go to someone else than who paid.
		if n := count(t, db, `SELECT count(*) FROM net_sale WHERE ns_ship_shopper_sk <> ns_bill_shopper_sk`); n == 0 {
			t.Error("every net order is shipped to its buyer")
		}
		var first, last string
		if err := db.QueryRow(`SELECT min(dd_date), max(dd_date) FROM day_dim`).Scan(&first, &last); err != nil || first != "1900-01-02" || last != "2100-01-01" {
			t.Errorf("day_dim from %s to %s, %v", first, last, err)
		}
		if n := count(t, db, `SELECT count(*) FROM day_dim WHERE dd_day_sk = 2451545 AND dd_date = '2000-01-01' AND dd_weekday = 'Saturday' AND dd_weekend = 'Y'`); n != 1 {
			t.Error("day 2451545 is not Saturday 2000-01-01")
		}
	})

	t.Run("again", func(t *testing.T) {
		other := filepath.Join(t.TempDir(), "b.db")
		if err := Generate(ctx, other, testScale); err != nil {
			t.Fatal(err)
		}
		a, b := digests(t, db), digests(t, openRO(t, other))
		for name := range a {
			if a[name] != b[name] {
				t.Errorf("%s differs on a second generation", name)
			}
		}
		if len(a) != 24 {
			t.Errorf("%d tables digested", len(a))
		}
	})
}

// Generate replaces nothing and accepts only the scales it can generate.
func TestGenerateRefuses(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x.db")
	if err := os.WriteFile(path, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Generate(ctx, path, testScale); err == nil {
		t.Error("Generate wrote over an existing file")
	}
	if b, _ := os.ReadFile(path); string(b) != "mine" {
		t.Errorf("the existing file holds %q", b)
	}
	for _, s := range []float64{0, -1, math.NaN(), math.Inf(1), MaxScale * 2} {
		if err := Generate(ctx, filepath.Join(t.TempDir(), "y.db"), s); err == nil {
			t.Errorf("scale %v accepted", s)
		}
	}
}

// The sizes the benchmark is described by: about 20M rows at scale 1, the
// facts most of them; a handful of rows at least in every table at any scale.
func TestSizes(t *testing.T) {
	var all, facts int64
	for _, tb := range Tables(1) {
		all += tb.Rows
		if isFact(tb.Name) {
			facts += tb.Rows
		}
	}
	if all < 19_000_000 || all > 21_000_000 || facts < all*95/100 {
		t.Errorf("%d rows at scale 1, %d in facts", all, facts)
	}
	for _, s := range []float64{1e-9, 0.01, 10} {
		for _, tb := range Tables(s) {
			if tb.Rows < 5 {
				t.Errorf("scale %v: %s has %d rows", s, tb.Name, tb.Rows)
			}
		}
	}
}

func isFact(name string) bool {
	return strings.HasSuffix(name, "_sale") || strings.HasSuffix(name, "_refund") || name == "stock_level"
}

func openRO(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func count(t *testing.T, db *sql.DB, q string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

type col struct {
	name, typ string
	notNull   bool
	pk        int
}

func columns(t *testing.T, db *sql.DB, table string) []col {
	t.Helper()
	rows, err := db.Query(`SELECT name, type, "notnull", pk FROM pragma_table_info(?)`, table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []col
	for rows.Next() {
		var c col
		if err := rows.Scan(&c.name, &c.typ, &c.notNull, &c.pk); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatalf("%s has no columns", table)
	}
	return out
}

func columnOf(t *testing.T, db *sql.DB, table, name string) col {
	t.Helper()
	for _, c := range columns(t, db, table) {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("%s has no column %s", table, name)
	return col{}
}

// digests hashes every row of every table, in the order of its rowid.
func digests(t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, tb := range Tables(testScale) {
		rows, err := db.Query(`SELECT * FROM ` + tb.Name + ` ORDER BY rowid`)
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
			fmt.Fprintln(h, vals...)
		}
		rows.Close()
		out[tb.Name] = fmt.Sprintf("%x", h.Sum(nil))
	}
	return out
}
