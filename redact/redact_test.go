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
// document), a kept result that holds one is dropped, and so is one whose
// statement read the column whatever values it holds, or that does not
// say what its statement read; a second pass changes nothing.
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
	if err := cat.KeepResult(ctx, "q2", "r", []byte(`{"c":["n"],"r":[[["i","42"]]],"w":["count","from","people","select"]}`)); err != nil {
		t.Fatal(err)
	}
	if err := cat.KeepResult(ctx, "q3", "r", []byte(`{"c":["v"],"r":[[["s","not seen"]]],"w":["email","from","people","select"]}`)); err != nil {
		t.Fatal(err)
	}
	if err := cat.KeepResult(ctx, "q4", "r", []byte(`{"c":["n"],"r":[[["i","7"]]]}`)); err != nil {
		t.Fatal(err)
	}

	st, err := redact.Catalog(ctx, cat, "r", false)
	if err != nil {
		t.Fatal(err)
	}
	if st.Columns != 1 || st.Values != 3 || st.Entries != 2 || st.Results != 3 {
		t.Errorf("stats %+v: want 1 column, 3 values, 2 entries rewritten (profile, uncertainty), 3 results dropped", st)
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
		t.Errorf("the count of the table's rows: %v", err)
	}
	if _, err := cat.Result(ctx, "q3"); err == nil {
		t.Error("the result of a statement that read the personal column is kept")
	}
	if _, err := cat.Result(ctx, "q4"); err == nil {
		t.Error("a result that does not say what its statement read is kept")
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

// TestCatalogNumbers (issue 21): a personal-data column of numbers (a
// phone stored as an integer) loses the figures that are its values (the
// mean, the quantiles, the histogram) in the end's pass, and keeps its
// counts; a column of numbers that is no one's keeps them all.
func TestCatalogNumbers(t *testing.T) {
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	save := func(kind, key string, doc any) {
		t.Helper()
		e, err := catalog.NewEntry(kind, key, doc)
		if err != nil {
			t.Fatal(err)
		}
		e.RunID, e.Confidence = "r", 0.9
		if err := cat.Save(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	profile := func(col, lo, hi string, mean float64) catalog.ProfileDoc {
		d, spread := int64(80), 1.5
		return catalog.ProfileDoc{Table: "clienti", Column: col, Min: &lo, Max: &hi, Mean: &mean, Stddev: &spread, DistinctCount: &d,
			Quantiles: &catalog.Quantiles{P25: mean - 1, P50: mean, P75: mean + 1, P95: mean + 2},
			Histogram: &catalog.Histogram{Bounds: []float64{mean - 2, mean, mean + 2}, Counts: []int64{40, 40}}}
	}
	save(catalog.KindSemantic, "clienti.telefono", catalog.SemanticDoc{Table: "clienti", Column: "telefono", SemanticType: "numeric_measure",
		PII: &catalog.PIIDoc{Category: "phone", Confidence: 0.9}})
	save(catalog.KindProfile, "clienti.telefono", profile("telefono", "3471234567", "3471860168", 3471547367))
	save(catalog.KindSemantic, "clienti.punti", catalog.SemanticDoc{Table: "clienti", Column: "punti", SemanticType: "numeric_measure"})
	save(catalog.KindProfile, "clienti.punti", profile("punti", "0", "60", 30))

	if _, err := redact.Catalog(ctx, cat, "r", false); err != nil {
		t.Fatal(err)
	}
	read := func(key string) (catalog.ProfileDoc, string) {
		t.Helper()
		e, err := cat.Get(ctx, catalog.KindProfile, key)
		if err != nil {
			t.Fatal(err)
		}
		var p catalog.ProfileDoc
		if err := e.Decode(&p); err != nil {
			t.Fatal(err)
		}
		return p, string(e.Document)
	}
	tel, doc := read("clienti.telefono")
	if tel.Mean != nil || tel.Quantiles != nil || tel.Histogram != nil || *tel.DistinctCount != 80 || *tel.Stddev != 1.5 {
		t.Errorf("clienti.telefono: %s", doc)
	}
	if strings.Contains(doc, "34712") || strings.Contains(doc, "347154") || strings.Contains(doc, "3.47") {
		t.Errorf("clienti.telefono holds a value: %s", doc)
	}
	if punti, doc := read("clienti.punti"); punti.Mean == nil || *punti.Mean != 30 || punti.Quantiles == nil || punti.Histogram == nil {
		t.Errorf("clienti.punti: %s", doc)
	}
}
