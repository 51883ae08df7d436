package model

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/prompts"
)

const relKey = "orders(customer_id)->customers(customer_id)"

// shopFindings are findings of three experts (and one of the model's own)
// about the shop's tables.
func shopFindings(t *testing.T, env *experts.Env) {
	nf := 0.33
	saveFinding(t, env, "statistical", catalog.KindTableStats, "orders", catalog.TableStatsDoc{Table: "orders", Rows: 200}, 1)
	saveFinding(t, env, "statistical", catalog.KindTableStats, "customers", catalog.TableStatsDoc{Table: "customers", Rows: 40}, 1)
	saveFinding(t, env, "statistical", catalog.KindTableStats, "misc", catalog.TableStatsDoc{Table: "misc", Rows: 5000}, 1)
	saveFinding(t, env, "structural", catalog.KindRelationship, relKey, catalog.RelationshipDoc{FromTable: "orders", FromColumns: []string{"customer_id"},
		ToTable: "customers", ToColumns: []string{"customer_id"}, Source: "declared", Cardinality: "one_to_many"}, 1)
	saveFinding(t, env, "statistical", catalog.KindProfile, "orders.shipped_at", catalog.ProfileDoc{Table: "orders", Column: "shipped_at", Rows: 200, NullFraction: &nf}, 0.9)
	saveFinding(t, env, "semantic", catalog.KindSemantic, "orders.status", catalog.SemanticDoc{Table: "orders", Column: "status", SemanticType: "category"}, 0.8)
	saveFinding(t, env, "semantic", catalog.KindSemantic, "orders.ordered_at", catalog.SemanticDoc{Table: "orders", Column: "ordered_at", SemanticType: "timestamp"}, 0.8)
	saveFinding(t, env, Name, catalog.KindInsight, "llm:note:orders", catalog.InsightDoc{Kind: "model_note", Tables: []string{"orders"},
		Description: "The model's reading of orders"}, 0.3)
}

// The collaboration step shows the model the findings of different
// experts about the most connected tables (never its own notes), and keeps
// only notes whose cited findings all exist and come from two experts or
// more; the notes are the model's, low in confidence, with the cited keys
// as evidence.
func TestModelCollaboration(t *testing.T) {
	ctx := context.Background()
	note := func(text string, refs ...string) map[string]any {
		return map[string]any{"note": text, "findings": refs}
	}
	m, env, fm := shopRig(t, func(tool string, req llm.Request) (any, error) {
		if tool != llm.CollabTool.Name {
			return nil, fmt.Errorf("unexpected tool %s", tool)
		}
		return map[string]any{"notes": []any{
			note("Orders reference customers, and a third of them have not shipped yet.", "relationship:"+relKey, "profile:orders.shipped_at"),
			note("A ghost column.", "relationship:"+relKey, "profile:orders.ghost"),
			note("One expert alone.", "semantic:orders.status", "semantic:orders.ordered_at"),
			note("Citing the model's own note.", "insight:llm:note:orders", "profile:orders.shipped_at"),
			note("Not a kind.", "secret:orders", "profile:orders.shipped_at"),
		}}, nil
	})
	if due, _ := m.collaborationDue(ctx, env); !due {
		t.Fatal("collaboration not due in phase 3")
	}
	// With nothing in the catalog there is nothing to connect: no call.
	if err := m.collaborate(ctx, env); err != nil || len(fm.reqs) != 0 {
		t.Fatalf("asked with no findings: %d requests, %v", len(fm.reqs), err)
	}
	shopFindings(t, env)
	if err := m.collaborate(ctx, env); err != nil {
		t.Fatal(err)
	}
	text := fm.requests(llm.CollabTool.Name)[0].Messages[1].Text
	// The most connected tables first; misc (no relationship) after, though larger.
	if !strings.Contains(text, `"tables":["orders","customers","misc"]`) {
		t.Errorf("tables not by connection:\n%s", text)
	}
	for _, s := range []string{`"ref":"profile:orders.shipped_at"`, `"ref":"semantic:orders.status"`, `"expert":"structural"`} {
		if !strings.Contains(text, s) {
			t.Errorf("collaboration prompt lacks %s", s)
		}
	}
	if strings.Contains(text, "llm:note:orders") {
		t.Error("the model's own note was given back to it as a finding")
	}
	notes := insightsOf(t, env, InsightCollaboration)
	if len(notes) != 1 {
		t.Fatalf("%d notes kept, want the one citing existing findings of two experts", len(notes))
	}
	var d CollabDoc
	if err := notes[0].Decode(&d); err != nil {
		t.Fatal(err)
	}
	cites := []string{"profile:orders.shipped_at", "relationship:" + relKey}
	if !slices.Equal(d.Cites, cites) || !slices.Equal(d.Tables, []string{"customers", "orders"}) ||
		d.Description != modelReading+"Orders reference customers, and a third of them have not shipped yet." ||
		notes[0].Confidence > 0.3 || !slices.Contains(notes[0].Tags, Tag) || notes[0].Expert != Name {
		t.Errorf("note %+v %+v", notes[0], d)
	}
	if len(notes[0].Evidence) != 2 || notes[0].Evidence[1] != "connects "+strings.Join(cites, ", ") ||
		!strings.Contains(notes[0].Evidence[0], "prompt collab/v1") {
		t.Errorf("evidence %q", notes[0].Evidence)
	}
	// Every cited key exists in the catalog.
	for _, ref := range d.Cites {
		kind, key, _ := strings.Cut(ref, ":")
		if _, err := env.Catalog.Get(ctx, kind, key); err != nil {
			t.Errorf("cited %s: %v", ref, err)
		}
	}
	us, _ := env.RunEntries(ctx, catalog.KindUncertainty)
	if len(us) != 1 || !strings.Contains(string(us[0].Document), "4 notes were dropped") || !strings.Contains(string(us[0].Document), "profile:orders.ghost") {
		t.Fatalf("uncertainties %v", us)
	}
}

// The prompt's findings are whole and within the token budget; findings
// of one expert only make no prompt.
func TestCollabDataBudget(t *testing.T) {
	ctx := context.Background()
	_, env, _ := shopRig(t, nil)
	saveFinding(t, env, "semantic", catalog.KindSemantic, "orders.status", catalog.SemanticDoc{Table: "orders", Column: "status", SemanticType: "category"}, 0.8)
	saveFinding(t, env, "semantic", catalog.KindSemantic, "orders.ordered_at", catalog.SemanticDoc{Table: "orders", Column: "ordered_at", SemanticType: "timestamp"}, 0.8)
	one, err := collabData(ctx, env, 1<<20)
	if err != nil || len(one.Findings) != 0 {
		t.Fatalf("one expert's findings made a prompt: %+v %v", one.Findings, err)
	}
	shopFindings(t, env)
	all, err := collabData(ctx, env, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Findings) != 4 || all.Omitted != 0 {
		t.Fatalf("unbounded: %d findings %d omitted: %+v", len(all.Findings), all.Omitted, all.Findings)
	}
	_, _, used, _ := llm.Compact(all.Findings, 1<<20)
	budget := used * 3 / 4
	some, err := collabData(ctx, env, budget)
	if err != nil {
		t.Fatal(err)
	}
	_, _, got, _ := llm.Compact(some.Findings, 1<<20)
	if got > budget || some.Omitted == 0 || len(some.Findings)+some.Omitted != 4 || len(some.Findings) == 0 {
		t.Fatalf("budget %d: %d findings (%d tokens), %d omitted", budget, len(some.Findings), got, some.Omitted)
	}
	for _, f := range some.Findings {
		if !slices.ContainsFunc(all.Findings, func(a prompts.KeyFinding) bool { return a == f }) {
			t.Errorf("finding %+v was cut", f)
		}
	}
}
