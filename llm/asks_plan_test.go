package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/llmtest"
	"github.com/discover-db/discover/prompts"
)

func planData() prompts.Plan {
	return prompts.Plan{State: prompts.PlanState{Iteration: 2, Phase: 2, Coverage: 0.5, Confidence: 0.4,
		Tables: []prompts.PlanTable{{Name: "orders"}}},
		Tasks: []prompts.PlanTask{{ID: "t1", Expert: "statistical", Task: "profile orders"}, {ID: "t2", Expert: "semantic", Task: "classify orders"}}}
}

// The ranking comes back through rank_tasks as the model gave it, unknown
// ids included (the caller ignores them); the prompt carries the task
// names and the run's state as data.
func TestRankTasks(t *testing.T) {
	c, srv := client(t, llm.Budget{}, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Tool: "rank_tasks", Args: map[string]any{"ranking": []any{
			map[string]any{"id": "t2", "reason": "semantics unblock the rules"},
			map[string]any{"id": "t9", "reason": "made up"},
		}}}
	})
	got, pid, err := c.RankTasks(context.Background(), planData())
	if err != nil {
		t.Fatal(err)
	}
	if pid != "plan/v1" || len(got) != 2 || got[0] != (llm.TaskRank{ID: "t2", Reason: "semantics unblock the rules"}) || got[1].ID != "t9" {
		t.Fatalf("ranking %+v prompt %s", got, pid)
	}
	r := srv.Requests()[0]
	if r.ForcedTool != "rank_tasks" || !strings.Contains(r.Text(), `"task":"classify orders"`) || !strings.Contains(r.Text(), `"phase":2`) {
		t.Fatalf("request: forced %q\n%s", r.ForcedTool, r.Text())
	}
	var schema struct {
		Required             []string `json:"required"`
		AdditionalProperties bool     `json:"additionalProperties"`
	}
	if err := json.Unmarshal(r.ToolSchema, &schema); err != nil || len(schema.Required) != 1 || schema.AdditionalProperties {
		t.Fatalf("tool schema not strict: %s (%v)", r.ToolSchema, err)
	}
}

// Answers that break the shape are repaired once, then refused with the
// field at fault named.
func TestModelAsksInvalid(t *testing.T) {
	sem := prompts.Semantics{Schema: schema(), MaxRules: 2}
	collab := prompts.Collab{Tables: []string{"orders"}, MaxNotes: 2,
		Findings: []prompts.KeyFinding{{Ref: "profile:orders.status", Expert: "statistical", Table: "orders", Text: "x"}}}
	rule := func(tables ...string) map[string]any {
		return map[string]any{"rule": "Every order has a status.", "tables": tables, "columns": []string{"orders.status"}}
	}
	domain := map[string]any{"label": "retail", "description": "A shop."}
	cases := []struct {
		name, tool, field string
		args              any
		ask               func(*llm.Client) error
	}{
		{"ranking without id", "rank_tasks", "ranking[0].id", map[string]any{"ranking": []any{map[string]any{"id": " ", "reason": "x"}}},
			func(c *llm.Client) error { _, _, err := c.RankTasks(context.Background(), planData()); return err }},
		{"rule without table", "interpret_database", "rules[0].tables", map[string]any{"domain": domain, "rules": []any{rule()}},
			func(c *llm.Client) error { _, _, err := c.InterpretDatabase(context.Background(), sem); return err }},
		{"too many rules", "interpret_database", "rules: 3 given", map[string]any{"domain": domain,
			"rules": []any{rule("orders"), rule("orders"), rule("orders")}},
			func(c *llm.Client) error { _, _, err := c.InterpretDatabase(context.Background(), sem); return err }},
		{"note citing one finding", "write_collaboration_notes", "notes[0].findings", map[string]any{"notes": []any{
			map[string]any{"findings": []string{"profile:orders.status"}, "note": "alone"}}},
			func(c *llm.Client) error { _, _, err := c.WriteCollaboration(context.Background(), collab); return err }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, srv := client(t, llm.Budget{}, func(n int, req llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Tool: tc.tool, Args: tc.args}
			})
			err := tc.ask(c)
			if !errors.Is(err, llm.ErrInvalid) || !strings.Contains(err.Error(), tc.field) {
				t.Fatalf("err = %v, want ErrInvalid naming %s", err, tc.field)
			}
			if n := len(srv.Requests()); n != 2 {
				t.Fatalf("%d requests, want the ask and one repair", n)
			}
		})
	}
}

// A good interpretation and good notes decode into their types; names are
// returned as given, for the caller to ground.
func TestInterpretAndCollaborate(t *testing.T) {
	c, _ := client(t, llm.Budget{}, func(n int, req llmtest.Request) llmtest.Reply {
		switch req.Tool {
		case "interpret_database":
			return llmtest.Reply{Tool: req.Tool, Args: map[string]any{"domain": map[string]any{"label": "retail", "description": "A shop."},
				"rules": []any{map[string]any{"rule": "Every order has a status.", "tables": []string{"orders", "ghosts"}, "columns": []string{"orders.status"}}}}}
		case "write_collaboration_notes":
			return llmtest.Reply{Tool: req.Tool, Args: map[string]any{"notes": []any{map[string]any{
				"findings": []string{"profile:orders.status", "semantic:orders.status"}, "note": "A category with three values."}}}}
		}
		return llmtest.Reply{Status: 400, Raw: `{}`}
	})
	in, pid, err := c.InterpretDatabase(context.Background(), prompts.Semantics{Schema: schema(), MaxRules: 3})
	if err != nil || pid != "semantics/v1" {
		t.Fatalf("%v %s", err, pid)
	}
	if in.Domain.Label != "retail" || len(in.Rules) != 1 || len(in.Rules[0].Tables) != 2 || in.Rules[0].Columns[0] != "orders.status" {
		t.Fatalf("interpretation %+v", in)
	}
	notes, pid, err := c.WriteCollaboration(context.Background(), prompts.Collab{Tables: []string{"orders"}, MaxNotes: 2})
	if err != nil || pid != "collab/v1" || len(notes) != 1 || len(notes[0].Findings) != 2 {
		t.Fatalf("notes %+v %s %v", notes, pid, err)
	}
}
