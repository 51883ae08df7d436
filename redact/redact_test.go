package redact_test

import (
	"context"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/redact"
)

// TestCatalog: the values of a personal-data column are masked wherever
// the run's catalog holds them (its profile, another finding's evidence and
// document), a kept result that holds one is dropped, and a second pass
// changes nothing.
func TestCatalog(t *testing.T) {
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	save := func(kind, key string, doc any, evidence ...string) {
		t.Helper()
		e, err := catalog.NewEntry(kind, key, doc)
		if err != nil {
			t.Fatal(err)
		}
		e.RunID, e.Confidence, e.Evidence = "r", 0.9, evidence
		if err := cat.Save(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	lo, hi := "ann.lee@mail.example", "zoe.park@post.example"
	save(catalog.KindSemantic, "people.email", catalog.SemanticDoc{Table: "people", Column: "email", SemanticType: "email",
		PII: &catalog.PIIDoc{Category: "email", Confidence: 0.98}})
	save(catalog.KindProfile, "people.email", catalog.ProfileDoc{Table: "people", Column: "email", Min: &lo, Max: &hi,
		TopValues: []catalog.ValueCount{{Value: "bo.ek@mail.example", Count: 2}},
		Anomalies: []catalog.Anomaly{{Kind: "duplicate", Description: "1 value twice", Examples: []string{"bo.ek@mail.example"}}}})
	save(catalog.KindUncertainty, "dup", catalog.UncertaintyDoc{Description: "1 value held by more than one row, e.g. bo.ek@mail.example"},
		"least "+lo+", greatest "+hi)
	save(catalog.KindInsight, "names", catalog.InsightDoc{Kind: "note", Description: "no personal value here"})
	if err := cat.KeepResult(ctx, "q1", "r", []byte(`{"rows":[[["s","bo.ek@mail.example"]]]}`)); err != nil {
		t.Fatal(err)
	}
	if err := cat.KeepResult(ctx, "q2", "r", []byte(`{"rows":[[["i","42"]]]}`)); err != nil {
		t.Fatal(err)
	}

	st, err := redact.Catalog(ctx, cat, "r", false)
	if err != nil {
		t.Fatal(err)
	}
	if st.Columns != 1 || st.Values != 3 || st.Entries != 2 || st.Results != 1 {
		t.Errorf("stats %+v: want 1 column, 3 values, 2 entries rewritten (profile, uncertainty), 1 result dropped", st)
	}
	es, err := cat.List(ctx, catalog.Filter{RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		text := string(e.Document) + strings.Join(e.Evidence, " ")
		for _, v := range []string{lo, hi, "bo.ek@mail.example"} {
			if strings.Contains(text, v) {
				t.Errorf("%s %s holds %q: %s", e.Kind, e.Key, v, text)
			}
		}
	}
	p, err := cat.Get(ctx, catalog.KindProfile, "people.email")
	if err != nil {
		t.Fatal(err)
	}
	var doc catalog.ProfileDoc
	if err := p.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if *doc.Min != "a***@m***.example" || doc.TopValues[0].Value != "b***@m***.example" || doc.TopValues[0].Count != 2 {
		t.Errorf("profile: min %q, top %+v", *doc.Min, doc.TopValues)
	}
	if _, err := cat.Result(ctx, "q1"); err == nil {
		t.Error("the result holding a personal value is kept")
	}
	if _, err := cat.Result(ctx, "q2"); err != nil {
		t.Errorf("the other result: %v", err)
	}
	pv, err := cat.Get(ctx, catalog.KindPrivacy, "privacy")
	if err != nil {
		t.Fatal(err)
	}
	var pd catalog.PrivacyDoc
	if err := pv.Decode(&pd); err != nil || !pd.ValuesMasked || pd.Columns != 1 {
		t.Errorf("privacy %+v (%v)", pd, err)
	}

	again, err := redact.Catalog(ctx, cat, "r", false)
	if err != nil {
		t.Fatal(err)
	}
	if again.Entries != 0 || again.Results != 0 {
		t.Errorf("a second pass rewrote %d entries and dropped %d results", again.Entries, again.Results)
	}
}
