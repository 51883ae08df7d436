package experts_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// TestRulesCountNumbersAmongText: on SQLite a numeric column may hold text
// and blobs beside its numbers. The rules' claim that a measure is never
// negative counts its negatives, least and greatest value among the
// numbers only, by one comparison per value (the dialect's NumbersOnly),
// not by a storage-class test and a cast per value, and the figures are
// those of the cast (Numeric) over the same rows.
func TestRulesCountNumbersAmongText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mixed.db")
	expertstest.SQLite(t, path,
		`CREATE TABLE payments (id INTEGER PRIMARY KEY, amount REAL, fee_amount NUMERIC, refund_amount REAL)`,
		`WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 3000)
			INSERT INTO payments SELECT i,
				CASE WHEN i % 500 = 0 THEN 'n/a' WHEN i % 499 = 0 THEN '' WHEN i % 700 = 0 THEN NULL ELSE 0.5 + (i * 7) % 400 END,
				CASE WHEN i % 333 = 0 THEN x'00ff' WHEN i % 250 = 0 THEN 'free' ELSE i % 40 END,
				CASE WHEN i % 97 = 0 THEN -5.25 WHEN i % 301 = 0 THEN 'none' ELSE (i * 13) % 50 END
			FROM r`,
	)
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat, run, _ := discoverN(t, src, 1_000_000)
	hs, err := cat.List(ctx, catalog.Filter{Kind: catalog.KindHypothesis, RunID: run.ID})
	if err != nil {
		t.Fatal(err)
	}
	cast := regexp.MustCompile(`CASE WHEN ("\w+") < '' THEN "\w+" END`)
	checked := map[string]string{}
	for _, e := range hs {
		var h catalog.HypothesisDoc
		if e.Decode(&h) != nil || !strings.HasPrefix(h.ID, "rule-") || claimKind(h.Statement) != "non_negative" {
			continue
		}
		if strings.Contains(h.TestSQL, "typeof(") || !cast.MatchString(h.TestSQL) {
			t.Errorf("%s: %s, want the numbers selected by one comparison", h.Subject, h.TestSQL)
			continue
		}
		// The same statement with Numeric's storage-class test and cast.
		old := cast.ReplaceAllStringFunc(h.TestSQL, func(m string) string {
			return sqlite.Dialect{}.Numeric(cast.FindStringSubmatch(m)[1])
		})
		got, err := src.Query(ctx, h.TestSQL, warehouse.QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := src.Query(ctx, old, warehouse.QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		g, w := hypotheses.FirstRow(got), hypotheses.FirstRow(want)
		for k, wv := range w {
			gf, gok := g.Float(k)
			wf, wok := w.Float(k)
			if gok != wok || gf != wf {
				t.Errorf("%s: %s = %v, by the cast %v", h.Subject, k, g[k], wv)
			}
		}
		checked[h.Subject] = h.Status
	}
	want := map[string]string{"payments.amount": "confirmed", "payments.fee_amount": "confirmed", "payments.refund_amount": "refuted"}
	if fmt.Sprint(checked) != fmt.Sprint(want) {
		t.Errorf("never-negative claims %v, want %v", checked, want)
	}
}
