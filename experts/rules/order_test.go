package rules_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/rules"
	"github.com/discover-db/discover/experts/semantic"
	"github.com/discover-db/discover/experts/statistical"
)

// TestOrderings: timestamps that record the stages of a row are claimed in
// the order of their earliest values and tested. placed ≤ packed ≤ shipped
// holds in every row and is one rule; shipped ≤ returned_on is broken by 3
// of 120 rows, a data-quality finding; a birth date is never a stage.
func TestOrderings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orders.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`CREATE TABLE parcels (id INTEGER PRIMARY KEY, placed TIMESTAMP, packed TIMESTAMP,
		shipped TIMESTAMP, returned_on DATE, courier_birth_date DATE)`}
	for i := 1; i <= 120; i++ {
		day := 1 + i%25
		ret := fmt.Sprintf("'2024-03-%02d'", day+3)
		if i <= 3 {
			ret = "'2024-02-01'" // before it was shipped
		}
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO parcels VALUES (%d, '2024-03-%02d 08:00:00', '2024-03-%02d 09:30:00',
			'2024-03-%02d 17:00:00', %s, '1980-01-%02d')`, i, day, day, day+1, ret, 1+i%28))
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()
	h := setup(t, path)
	st := statistical.New()
	for len(h.run(t, st)) > 0 {
	}
	for _, x := range []experts.Expert{semantic.New(), rules.New()} {
		for len(h.run(t, x)) > 0 {
		}
	}
	ctx := context.Background()
	got := map[string]string{}
	hs, err := h.cat.Kind(ctx, catalog.KindHypothesis, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range hs {
		var d catalog.HypothesisDoc
		if err := e.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(d.Statement, "never comes after") {
			got[d.Statement] = d.Status
		}
	}
	want := map[string]string{
		"In parcels, placed never comes after packed in a row that has both.":       "confirmed",
		"In parcels, packed never comes after shipped in a row that has both.":      "confirmed",
		"In parcels, shipped never comes after returned_on in a row that has both.": "refuted",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("order hypotheses:\n got %v\nwant %v", got, want)
	}
	var rule, quality catalog.InsightDoc
	for key, doc := range map[string]*catalog.InsightDoc{"business_rule:order:parcels.placed": &rule,
		"quality:order:parcels.shipped.returned_on": &quality} {
		e, err := h.cat.Get(ctx, catalog.KindInsight, key)
		if err != nil {
			t.Fatalf("insight %s: %v", key, err)
		}
		if err := e.Decode(doc); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(rule.Description, "placed ≤ packed ≤ shipped in every row") {
		t.Errorf("rule: %s", rule.Description)
	}
	if !strings.Contains(quality.Description, "120 rows have both") || !strings.Contains(quality.Description, "in 3 of them shipped is later") {
		t.Errorf("quality: %s", quality.Description)
	}
}
