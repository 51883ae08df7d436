package llm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/llmtest"
	"github.com/discover-db/discover/prompts"
)

func wideTables(n int) []prompts.Table {
	var out []prompts.Table
	for i := 0; i < n; i++ {
		t := prompts.Table{Name: fmt.Sprintf("table_%02d", i), Kind: "table"}
		for j := 0; j < 12; j++ {
			t.Columns = append(t.Columns, prompts.Column{Name: fmt.Sprintf("column_%02d", j), Type: "TEXT"})
		}
		out = append(out, t)
	}
	return out
}

// The Controller's repair rounds are one conversation: each round's
// request carries the model's earlier answers and the problems found with
// them. Beyond the conversation budget the older rounds become one summary
// that keeps each attempt's problem, and the latest round goes whole.
func TestSQLReviserConversation(t *testing.T) {
	problems := []string{"grounding: no table \"shipments\"", "guard: more than one statement", "verify: the query returned no rows"}
	sqls := []string{"SELECT COUNT(*) AS violations FROM shipments", "SELECT 1 AS violations; SELECT 2", "SELECT COUNT(*) AS violations FROM table_00 WHERE 0"}
	for _, c := range []struct {
		name   string
		budget int
	}{{"whole", 0}, {"summarized", 900}} {
		t.Run(c.name, func(t *testing.T) {
			cl, srv := client(t, llm.Budget{ConversationTokens: c.budget}, func(n int, req llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Tool: "revise_sql", Args: map[string]any{"sql": sqls[min(n+1, 2)]}}
			})
			revise := cl.SQLReviser(prompts.SQLFix{Dialect: "sqlite", Statement: "every order has a status", Tables: wideTables(3)}, nil)
			ctx := context.Background()
			for round := 0; round < 3; round++ {
				got, err := revise(ctx, sqls[round], problems[round])
				if err != nil || got != sqls[min(round+1, 2)] {
					t.Fatalf("round %d: %q, %v", round, got, err)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests", len(reqs))
			}
			last := reqs[2]
			text := last.Text()
			for _, p := range problems {
				if !strings.Contains(text, strings.ReplaceAll(p, `"`, `\"`)) {
					t.Errorf("the third round's request lost the problem %q:\n%s", p, text)
				}
			}
			recs := cl.TakeCalls()
			if len(recs) != 3 || recs[2].Prompt != "sqlfix/v1" {
				t.Fatalf("records %+v", recs)
			}
			latest := last.Messages[len(last.Messages)-1].Content
			if !strings.Contains(latest, `\"Problem\":\"verify: the query returned no rows\"`) && !strings.Contains(latest, `"Problem":"verify: the query returned no rows"`) {
				t.Errorf("the latest round is not the last message, whole:\n%s", latest)
			}
			switch c.name {
			case "whole":
				// system, then per round the request, and the answer between rounds.
				roles := []string{}
				for _, m := range last.Messages {
					roles = append(roles, m.Role)
				}
				if strings.Join(roles, ",") != "system,user,assistant,user,assistant,user" || recs[2].Summarized != 0 {
					t.Errorf("roles %v, summarized %d", roles, recs[2].Summarized)
				}
				if !strings.Contains(last.Messages[2].Content, sqls[1]) {
					t.Errorf("the model's earlier answer is not in the conversation: %q", last.Messages[2].Content)
				}
			case "summarized":
				if recs[2].Summarized == 0 || !strings.Contains(text, "Earlier turns of this conversation were left out") {
					t.Fatalf("over the budget and not summarized (%d):\n%s", recs[2].Summarized, text)
				}
				if n := strings.Count(text, `"name":"table_00"`); n != 1 {
					t.Errorf("the tables are sent %d times, want once (the latest round's)", n)
				}
				if tok := llm.EstimateTokens(text); tok > 900 {
					t.Errorf("%d tokens sent, budget 900", tok)
				}
				t.Logf("round 3: %d messages summarized, %d tokens sent", recs[2].Summarized, llm.EstimateTokens(text))
			}
		})
	}
}

// The one repair of an unusable answer refers back to the request: when
// the conversation is over the budget, the answer is summarized (its
// problem kept) and the request is sent whole, never cut.
func TestAskRepairSummarized(t *testing.T) {
	long := strings.Repeat("a claim that goes on and on ", 60)
	bad := map[string]any{"hypotheses": []any{map[string]any{"statement": long[:390], "table": "no_such_table",
		"test_sql": "SELECT 1 AS violations -- " + long, "expected": ""}}}
	c, srv := client(t, llm.Budget{ConversationTokens: 600}, func(n int, req llmtest.Request) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Tool: "propose_hypotheses", Args: bad}
		}
		return llmtest.Reply{Tool: "propose_hypotheses", Args: goodHypotheses}
	})
	s := schema()
	s.Tables = append(s.Tables, wideTables(2)...)
	if _, _, err := c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: s, Max: 3}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	first, repair := reqs[0].Text(), reqs[1].Text()
	task := reqs[0].Messages[1].Content
	if !strings.Contains(repair, task) {
		t.Error("the repair request does not carry the request it refers to, whole")
	}
	if strings.Contains(repair, long[:600]) || !strings.Contains(repair, `\"no_such_table\" is not a table of the database`) ||
		!strings.Contains(repair, "Call propose_hypotheses again") {
		t.Errorf("repair request:\n%s", repair)
	}
	if len(repair) >= len(first)+len(long) {
		t.Errorf("the repair request (%d bytes) is not shorter for the summary", len(repair))
	}
	if recs := c.TakeCalls(); len(recs) != 2 || recs[1].Summarized != 1 || recs[0].Summarized != 0 {
		t.Errorf("records %+v", recs)
	}
}
