package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
)

// withNarrative is the realistic run plus a model-written summary whose
// text tries to break out of every format it is shown in.
func withNarrative(t *testing.T) Input {
	in := realistic(t)
	in.Entries = append(in.Entries, entry(t, catalog.KindNarrative, "llm:narrative", map[string]any{
		"text":     "A shop. " + hostile + " </blockquote></figure><h2>Fake</h2> | ## not a heading",
		"provider": "openai", "model": "m-1", "prompt": "narrative/v1", "findings": 3, "omitted": 0,
	}, 0, "llm", "written by model openai m-1"))
	return in
}

// The narrative is an optional field: reports without it are unchanged and
// still valid, reports with it validate, and it is marked as the model's
// in all three formats with its text escaped as data.
func TestNarrative(t *testing.T) {
	plain := Build(realistic(t))
	r := Build(withNarrative(t))
	if plain.Narrative != nil {
		t.Fatalf("a narrative without a narrative entry: %+v", plain.Narrative)
	}
	n := r.Narrative
	if n == nil || n.WrittenBy != "model" || n.Checked || n.Prompt != "narrative/v1" ||
		n.Note != "Written by the model (openai m-1), not checked against the data." {
		t.Fatalf("narrative %+v", n)
	}
	if r.Summary != plain.Summary {
		t.Errorf("the deterministic summary changed with a narrative:\n%s\n%s", r.Summary, plain.Summary)
	}

	doc := jsonOf(t, r)
	if err := Validate(doc); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	var m map[string]json.RawMessage
	json.Unmarshal(jsonOf(t, plain), &m)
	if _, ok := m["narrative"]; ok {
		t.Error("report.json without a model gained a narrative field")
	}
	// Every other field of report.json is the same with the narrative.
	var withN map[string]json.RawMessage
	json.Unmarshal(doc, &withN)
	delete(withN, "narrative")
	for k, v := range m {
		if !bytes.Equal(v, withN[k]) {
			t.Errorf("report.json field %s differs once a narrative is added", k)
		}
	}
	// The schema holds the narrative to its marking.
	for _, bad := range []string{`"checked_against_data": false`, `"written_by": "model"`} {
		forged := bytes.Replace(doc, []byte(bad), []byte(strings.Replace(strings.Replace(bad, "false", "true", 1), `"model"`, `"data"`, 1)), 1)
		if err := Validate(forged); err == nil {
			t.Errorf("schema accepts a narrative with %s changed", bad)
		}
	}

	md := string(mdOf(t, r))
	if !strings.Contains(md, "**Narrative.** Written by the model (openai m-1), not checked against the data.\n\n> A shop. \\<script\\>") {
		t.Errorf("Markdown narrative not marked or not escaped:\n%s", md[:min(len(md), 2500)])
	}
	if strings.Contains(md, "\n## not a heading") || strings.Contains(md, "<script>") {
		t.Error("the narrative's text became Markdown structure")
	}
	if strings.Index(md, "**Narrative.**") > strings.Index(md, "## Run") {
		t.Error("the narrative is not in the summary section")
	}

	page := string(htmlOf(t, r))
	if n, own := strings.Count(page, "<script"), strings.Count(htmlSource, "<script"); n != own {
		t.Fatalf("the narrative reached the page as a <script> element")
	}
	for _, want := range []string{
		"<figcaption class=\"muted\"><b>Narrative.</b> Written by the model (openai m-1), not checked against the data.</figcaption>",
		"A shop. &lt;script&gt;alert(1)&lt;/script&gt; &lt;/blockquote&gt;&lt;/figure&gt;&lt;h2&gt;Fake&lt;/h2&gt;",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, "<h2>Fake</h2>") || strings.Count(page, "</figure>") != 1 {
		t.Error("the narrative's text broke out of its quote")
	}
	if !strings.Contains(string(htmlOf(t, plain)), `<p class="summary">`) || strings.Contains(string(htmlOf(t, plain)), "narrative") {
		t.Error("a page without a narrative shows one")
	}
}
