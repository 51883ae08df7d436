package postgres

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

func TestParseArray(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{`{}`, `[]`},
		{`{a,b}`, `["a" "b"]`},
		{`{"a,b","say \"hi\"","back\\slash",NULL,"NULL"}`, `["a,b" "say \"hi\"" "back\\slash" <nil> "NULL"]`},
		{`{" padded ",x y}`, `[" padded " "x y"]`},
		{`{"{1,2}","{3}"}`, `["{1,2}" "{3}"]`},
		{`{{1,2},{3,"}"}}`, `["{1,2}" "{3,\"}\"}"]`},
		{`[0:1]={1,2}`, `["1" "2"]`},
	} {
		got, err := parseArray(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		var parts []string
		for _, v := range got {
			if v == nil {
				parts = append(parts, "<nil>")
			} else {
				parts = append(parts, fmt.Sprintf("%q", *v))
			}
		}
		if g := fmt.Sprint(parts); g != c.want && !(c.want == "[]" && len(got) == 0) {
			t.Errorf("%s: got %s, want %s", c.in, g, c.want)
		}
	}
	for _, bad := range []string{``, `a,b`, `{"a}`, `{a"b"c,d}x`, `{{1,2}`} {
		if _, err := parseArray(bad); err == nil {
			t.Errorf("%s: parsed", bad)
		}
	}
}

func TestColumnStats(t *testing.T) {
	db := newDB(t,
		`CREATE SCHEMA sales`,
		// 100 rows: ANALYZE reads every row of a table this small, so the
		// estimates are exact up to float4 rounding.
		`CREATE TABLE stats_t (id int, tier text, note text, label text, always_null int)`,
		`INSERT INTO stats_t SELECT i,
			CASE WHEN i <= 50 THEN 'gold' WHEN i <= 80 THEN 'silver' ELSE 'bronze' END,
			CASE WHEN i % 4 = 0 THEN NULL ELSE 'n' || (i % 5) END,
			CASE WHEN i <= 50 THEN 'a,b' WHEN i <= 80 THEN 'say "hi"' ELSE 'back\slash' END,
			NULL
			FROM generate_series(1, 100) i`,
		`ANALYZE stats_t`,
		`CREATE TABLE sales.scoped (k text)`,
		`INSERT INTO sales.scoped SELECT CASE WHEN i <= 6 THEN 'k0' ELSE 'k1' END FROM generate_series(1, 10) i`,
		`ANALYZE sales.scoped`,
		// Under autovacuum's threshold of 50 rows: never analyzed.
		`CREATE TABLE never_analyzed (x int)`,
		`INSERT INTO never_analyzed VALUES (1), (2), (3)`,
	)
	ctx := context.Background()
	s, err := Open(ctx, db.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	got, err := s.ColumnStats(ctx, warehouse.TableName{Name: "stats_t"})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]warehouse.ColumnStat{}
	var order []string
	for _, c := range got {
		by[c.Column] = c
		order = append(order, c.Column)
	}
	if fmt.Sprint(order) != "[id tier note label always_null]" {
		t.Fatalf("columns %v", order)
	}
	near := func(p *float64, want float64) bool { return p != nil && math.Abs(*p-want) < 1e-6 }
	eqInt := func(p *int64, want int64) bool { return p != nil && *p == want }
	topText := func(c warehouse.ColumnStat) string {
		var parts []string
		for _, v := range c.TopValues {
			parts = append(parts, fmt.Sprintf("%q:%.4f", v.Value, v.Fraction))
		}
		return fmt.Sprint(parts)
	}

	id := by["id"]
	// Unique: n_distinct is -1, a fraction of reltuples.
	if !near(id.NullFraction, 0) || !eqInt(id.Distinct, 100) || len(id.TopValues) != 0 || !near(id.Correlation, 1) {
		t.Errorf("id: %+v", id)
	}
	if len(id.Histogram) < 2 || id.Histogram[0] != "1" || id.Histogram[len(id.Histogram)-1] != "100" {
		t.Errorf("id histogram %v", id.Histogram)
	}
	tier := by["tier"]
	if !near(tier.NullFraction, 0) || !eqInt(tier.Distinct, 3) ||
		topText(tier) != `["gold":0.5000 "silver":0.3000 "bronze":0.2000]` {
		t.Errorf("tier: %+v top %s", tier, topText(tier))
	}
	note := by["note"]
	if !near(note.NullFraction, 0.25) || !eqInt(note.Distinct, 5) || len(note.TopValues) != 5 {
		t.Errorf("note: %+v top %s", note, topText(note))
	}
	label := by["label"]
	if !eqInt(label.Distinct, 3) || topText(label) != `["a,b":0.5000 "say \"hi\"":0.3000 "back\\slash":0.2000]` {
		t.Errorf("label: %+v top %s", label, topText(label))
	}
	an := by["always_null"]
	if !near(an.NullFraction, 1) || an.Distinct != nil || len(an.TopValues) != 0 {
		t.Errorf("always_null: %+v", an)
	}

	got, err = s.ColumnStats(ctx, warehouse.TableName{Schema: "sales", Name: "scoped"})
	if err != nil || len(got) != 1 || !eqInt(got[0].Distinct, 2) || topText(got[0]) != `["k0":0.6000 "k1":0.4000]` {
		t.Errorf("sales.scoped: %+v, %v", got, err)
	}

	got, err = s.ColumnStats(ctx, warehouse.TableName{Name: "never_analyzed"})
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("never analyzed: %#v, %v", got, err)
	}
}
