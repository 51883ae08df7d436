package report

import (
	"strings"
	"testing"
)

// The model's semantic reading (its domain, its rules) and its
// collaboration notes are insights marked as the model's: report.json
// lists them with their marking and evidence, the experts' domain stays
// the report's domain with the model's shown beside it in Markdown, and
// the deterministic summary never leads with them.
func TestModelKinds(t *testing.T) {
	const reading = "The model's reading, not checked against the data: "
	const written = "written by model openai m-1 (prompt semantics/v1); not checked against the data"
	plain := Build(realistic(t))
	in := realistic(t)
	in.Entries = append(in.Entries,
		entry(t, "insight", "llm:domain", map[string]any{"kind": "model_domain", "tables": []string{}, "columns": []string{},
			"description": reading + "the domain is online retail. " + hostile}, 0.2, "llm", written),
		entry(t, "insight", "llm:rule:abc", map[string]any{"kind": "model_rule", "tables": []string{"orders"}, "columns": []string{"orders.shipped_at"},
			"description": reading + "An order's ship date is never before its order date."}, 0.2, "llm", written),
	)
	r := Build(in)
	if err := Validate(jsonOf(t, r)); err != nil {
		t.Fatal(err)
	}
	if r.Domain.Label == nil || plain.Domain.Label == nil || *r.Domain.Label != *plain.Domain.Label || r.Summary != plain.Summary {
		t.Fatalf("the model's reading changed the report's domain or summary: %v %q", r.Domain.Label, r.Summary)
	}
	kinds := map[string]Insight{}
	for _, i := range r.Insights {
		kinds[i.Kind] = i
	}
	for _, k := range []string{"model_domain", "model_rule"} {
		if i, ok := kinds[k]; !ok || !strings.HasPrefix(i.Description, reading) || len(i.Evidence) != 1 || i.Evidence[0] != written {
			t.Errorf("report.json %s: %+v", k, i)
		}
	}
	md := string(mdOf(t, r))
	dom := md[strings.Index(md, "## Business domain"):]
	dom = dom[:strings.Index(dom, "## Insights and patterns")]
	if !strings.Contains(dom, *plain.Domain.Label) ||
		!strings.Contains(dom, "**The model's domain.** The model's reading, not checked against the data: the domain is online retail. \\<script\\>") ||
		!strings.Contains(dom, "*("+written+")*") {
		t.Errorf("Markdown domain section:\n%s", dom)
	}
	// HTML: the same line under the experts' domain, escaped.
	var hb strings.Builder
	if err := WriteHTML(&hb, r); err != nil {
		t.Fatal(err)
	}
	page := hb.String()
	hdom := page[strings.Index(page, `id="business-domain"`):]
	hdom = hdom[:strings.Index(hdom, `id="insights-and-patterns"`)]
	if !strings.Contains(hdom, "<b>The model's domain.</b> The model&#39;s reading, not checked against the data: the domain is online retail.") ||
		strings.Contains(hdom, "<script>") || !strings.Contains(hdom, "prompt semantics/v1") {
		t.Errorf("HTML domain section:\n%s", hdom)
	}
	if !strings.Contains(md, reading+"An order's ship date is never before its order date. *(model rule, confidence 20%)*") {
		t.Errorf("Markdown does not list the model's rule marked as its reading:\n%s", md)
	}
	// Alone, a model's rule is still not the summary's key finding.
	only := Build(Input{Run: in.Run, Entries: in.Entries[len(in.Entries)-1:]})
	if strings.Contains(only.Summary, "ship date") {
		t.Errorf("the summary leads with the model's rule: %q", only.Summary)
	}
}
