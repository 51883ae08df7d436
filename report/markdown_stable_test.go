package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
)

// Two runs on unchanged data differ in their id, times, iteration and
// query counts and model usage, and in nothing report.md or tables/ show:
// both are rewritten byte for byte, and those figures stay in report.json.
func TestMarkdownIsTheSameForAnotherRun(t *testing.T) {
	first, second := realistic(t), realistic(t)
	for _, in := range []*Input{&first, &second} {
		in.Run.State = state(t, catalog.LoopState{Iteration: 7, Phase: 4, Confidence: 0.96, Coverage: 1, Queries: 212,
			LLM: catalog.LLMUsage{Provider: "openai", Model: "gpt-test", Calls: 3, Tokens: 4100}})
	}
	started := time.Date(2025, 4, 2, 23, 59, 0, 0, time.UTC)
	finished := started.Add(17 * time.Minute)
	second.Run.ID, second.Run.StartedAt, second.Run.FinishedAt = "run-2", started, &finished
	second.Run.State = state(t, catalog.LoopState{Iteration: 9, Phase: 4, Confidence: 0.96, Coverage: 1, Queries: 480,
		LLM: catalog.LLMUsage{Provider: "openai", Model: "gpt-test", Calls: 5, Tokens: 9300}})
	a, b := Build(first), Build(second)
	if a.Run.Queries == b.Run.Queries || a.Run.ID == b.Run.ID || !strings.Contains(a.Summary, "212 queries") {
		t.Fatalf("the two runs do not differ as they should: %+v %+v", a.Run, b.Run)
	}

	mdA, mdB := mdOf(t, a), mdOf(t, b)
	if !bytes.Equal(mdA, mdB) {
		t.Errorf("report.md differs between two runs on unchanged data:\n%s\n---\n%s", mdA, mdB)
	}
	docsA, docsB := allDocs(t, a), allDocs(t, b)
	for i := range docsA {
		if docsA[i].Name != docsB[i].Name || !bytes.Equal(docsA[i].Body, docsB[i].Body) {
			t.Errorf("tables/%s differs between two runs on unchanged data", docsA[i].Name)
		}
	}
	for _, bad := range []string{"run-1", "2025-03-01", "10:00", "10:04", "212", "7 iterations", "Iterations", "Queries:", "3 calls", "4,100"} {
		if bytes.Contains(mdA, []byte(bad)) {
			t.Errorf("report.md holds %q, which changes from run to run", bad)
		}
	}
	// What the data and the settings decide is still there.
	for _, want := range []string{
		"- Stop reason: confidence\n- Confidence: 96%\n- Coverage: 100%\n- LLM: openai gpt-test\n",
		"The run stopped because overall confidence reached its target, with confidence 96% and coverage 100%.\n",
	} {
		if !bytes.Contains(mdA, []byte(want)) {
			t.Errorf("report.md lacks %q:\n%s", want, mdA)
		}
	}
}

// The summary's last sentence is told again without the counts; an
// unfinished run says so.
func TestStableSummary(t *testing.T) {
	r := Build(emptyInput())
	if got, want := stableSummary(r), "The run has not finished; so far, confidence 0% and coverage 0%."; !strings.HasSuffix(got, want) || strings.Contains(got, "iterations") {
		t.Errorf("stableSummary = %q, want it to end %q", got, want)
	}
	r.Run.FinishedAt, r.Run.StopReason = ptr("2025-03-01T09:10:00Z"), ptr("max_iterations")
	r.Run.Iterations, r.Run.Queries = 12, 345
	r.Summary = Summarize(r)
	if got, want := stableSummary(r), "The run stopped at its iteration limit, with confidence 0% and coverage 0%."; !strings.HasSuffix(got, want) || strings.Contains(got, "345") {
		t.Errorf("stableSummary = %q, want it to end %q", got, want)
	}
}

// An unread table keeps its section and page, which say why; an unread
// view, which has no section in report.md, says it in its Structure line.
func TestMarkdownMarksUnreadTables(t *testing.T) {
	r := Build(realistic(t))
	r.Tables[0].Unread = &Unread{What: "table", Reason: "database disk image is malformed (11)"}
	r.Tables[1].Unread = &Unread{What: "profile", Reason: "query timed out"}
	md := string(mdOf(t, r))
	docs := docsByName(t, r)
	files := docNames(r.Tables)
	for i, want := range []string{"- Could not be read: database disk image is malformed (11)\n", "- Not profiled: query timed out\n"} {
		name := r.Tables[i].Name
		if r.Tables[i].Kind == "view" {
			line := "- " + mdText(name) + " (view): 1,200 rows; " + mdText(lowerFirst(strings.TrimSuffix(strings.TrimPrefix(want, "- "), "\n"))) + "\n"
			if !strings.Contains(md, line) {
				t.Errorf("report.md: the view %s is not marked %q in its Structure line", name, want)
			}
		} else if !strings.Contains(md, "#### "+mdText(name)+"\n\n"+want) {
			t.Errorf("report.md: %s is not marked %q", name, want)
		}
		if !strings.Contains(docs[files[name]], want) {
			t.Errorf("tables/%s is not marked %q", files[name], want)
		}
	}
	for _, want := range []string{"| view (not read) |", "| table (not profiled) |"} {
		if !strings.Contains(docs[DocsIndex], want) {
			t.Errorf("the index lacks %q:\n%s", want, docs[DocsIndex])
		}
	}
}
