package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/llmtest"
	"github.com/discover-db/discover/llm/openai"
	"github.com/discover-db/discover/prompts"
)

const canary = "sk-canary-7f3e9a1c55d04b2b"

func schema() prompts.Schema {
	return prompts.Schema{Dialect: "sqlite", Tables: []prompts.Table{
		{Name: "orders", Kind: "table", Columns: []prompts.Column{{Name: "order_id"}, {Name: "status"}}},
	}}
}

// client connects the real langchaingo OpenAI client to a scripted server.
func client(t *testing.T, b llm.Budget, respond func(n int, req llmtest.Request) llmtest.Reply) (*llm.Client, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(respond)
	t.Cleanup(srv.Close)
	cfg := llm.Config{Provider: "openai", Model: "test-model", BaseURL: srv.URL + "/v1", Key: canary}
	p, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if b.Backoff == 0 {
		b.Backoff = time.Millisecond
	}
	return llm.NewClient(p, cfg, b), srv
}

var goodHypotheses = map[string]any{"hypotheses": []any{map[string]any{
	"statement": "every order has a status", "table": "orders",
	"test_sql": "SELECT COUNT(*) AS violations FROM orders WHERE status IS NULL", "expected": "0 violations"}}}

func TestAskUsesToolAndCounts(t *testing.T) {
	c, srv := client(t, llm.Budget{}, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Tool: "propose_hypotheses", Args: goodHypotheses, PromptTokens: 300, CompletionTokens: 45}
	})
	hs, pid, err := c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: schema(), Max: 3})
	if err != nil {
		t.Fatal(err)
	}
	if pid != "hypotheses/v2" || len(hs) != 1 || hs[0].Table != "orders" || !strings.Contains(hs[0].TestSQL, "status IS NULL") {
		t.Fatalf("decoded %+v (prompt %s)", hs, pid)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Tool != "propose_hypotheses" || r.ForcedTool != "propose_hypotheses" || !strings.Contains(string(r.ToolSchema), `"additionalProperties":false`) {
		t.Errorf("tool %q forced %q schema %s", r.Tool, r.ForcedTool, r.ToolSchema)
	}
	if r.Model != "test-model" || r.Authorization != "Bearer "+canary {
		t.Errorf("model %q auth %q", r.Model, r.Authorization)
	}
	if !strings.Contains(r.Text(), `"name":"orders"`) {
		t.Errorf("prompt does not name the table:\n%s", r.Text())
	}
	if calls, tokens := c.Usage(); calls != 1 || tokens != 345 {
		t.Errorf("usage %d calls %d tokens, want 1 and 345", calls, tokens)
	}
	recs := c.TakeCalls()
	if len(recs) != 1 || recs[0].Prompt != "hypotheses/v2" || recs[0].Outcome != "ok" || recs[0].Tokens != 345 || recs[0].Seq != 1 {
		t.Errorf("call records %+v", recs)
	}
	if len(c.TakeCalls()) != 0 {
		t.Error("TakeCalls returned the same records twice")
	}
}

// An invalid answer gets exactly one repair request that carries the
// validation error; a second invalid answer is ErrInvalid.
func TestAskRepairsOnce(t *testing.T) {
	bad := map[string]any{"hypotheses": []any{map[string]any{"statement": "x", "table": "no_such_table",
		"test_sql": "SELECT 1 AS violations", "expected": ""}}}
	c, srv := client(t, llm.Budget{}, func(n int, req llmtest.Request) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Tool: "propose_hypotheses", Args: bad}
		}
		return llmtest.Reply{Tool: "propose_hypotheses", Args: goodHypotheses}
	})
	hs, _, err := c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: schema(), Max: 3})
	if err != nil || len(hs) != 1 {
		t.Fatalf("after repair: %v %+v", err, hs)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Text(), `no_such_table`) || !strings.Contains(reqs[1].Text(), "is not a table of the database") {
		t.Fatalf("repair request does not carry the problem:\n%s", reqs[len(reqs)-1].Text())
	}
	recs := c.TakeCalls()
	if len(recs) != 2 || recs[0].Outcome != "invalid" || recs[1].Prompt != "repair/v1" || recs[1].Outcome != "ok" {
		t.Fatalf("records %+v", recs)
	}

	c, srv = client(t, llm.Budget{}, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Tool: "propose_hypotheses", Args: `{"hypotheses": [{"statement": "x"`} // truncated arguments
	})
	_, _, err = c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: schema(), Max: 3})
	if !errors.Is(err, llm.ErrInvalid) {
		t.Fatalf("twice invalid: %v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests, want the answer and one repair", n)
	}
}

// 429 and 5xx are retried with backoff, each attempt counted; other
// failures are not retried.
func TestRetries(t *testing.T) {
	c, srv := client(t, llm.Budget{Retries: 2}, func(n int, req llmtest.Request) llmtest.Reply {
		switch n {
		case 0:
			return llmtest.Reply{Status: 500, Raw: `{"error":{"message":"boom"}}`}
		case 1:
			return llmtest.Reply{Status: 429, Raw: `{"error":{"message":"rate limit exceeded"}}`}
		}
		return llmtest.Reply{Tool: "propose_hypotheses", Args: goodHypotheses}
	})
	if _, _, err := c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: schema(), Max: 3}); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
	if calls, _ := c.Usage(); calls != 3 {
		t.Fatalf("%d calls counted, want 3 (retries cost)", calls)
	}
	recs := c.TakeCalls()
	if recs[0].Outcome != "http_error" || recs[1].Attempt != 2 || recs[2].Attempt != 3 {
		t.Fatalf("records %+v", recs)
	}

	// HTML with status 200: not retried, an error.
	c, srv = client(t, llm.Budget{Retries: 2}, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 200, Raw: "<html><body>Gateway</body></html>", ContentType: "text/html"}
	})
	_, _, err := c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: schema(), Max: 3})
	if err == nil || len(srv.Requests()) != 1 {
		t.Fatalf("HTML answer: err %v after %d requests", err, len(srv.Requests()))
	}
}

// A hanging server costs one per-call timeout per request; after
// MaxFailures failed asks the client stops sending.
func TestTimeoutAndBreaker(t *testing.T) {
	c, srv := client(t, llm.Budget{CallTimeout: 150 * time.Millisecond, MaxFailures: 2}, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Hang: true}
	})
	for i := 0; i < 2; i++ {
		start := time.Now()
		_, _, err := c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: schema(), Max: 3})
		if err == nil || !strings.Contains(err.Error(), "no answer within 150ms") {
			t.Fatalf("hang %d: %v", i, err)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Fatalf("hang %d took %s", i, el)
		}
	}
	_, _, err := c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: schema(), Max: 3})
	if !errors.Is(err, llm.ErrUnavailable) || len(srv.Requests()) != 2 {
		t.Fatalf("after 2 failures: %v, %d requests", err, len(srv.Requests()))
	}
}

func TestBudget(t *testing.T) {
	c, srv := client(t, llm.Budget{MaxCalls: 1}, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Tool: "propose_hypotheses", Args: goodHypotheses}
	})
	ctx := context.Background()
	if _, _, err := c.ProposeHypotheses(ctx, prompts.Hypotheses{Schema: schema(), Max: 3}); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.ProposeHypotheses(ctx, prompts.Hypotheses{Schema: schema(), Max: 3})
	if !errors.Is(err, llm.ErrBudget) || len(srv.Requests()) != 1 {
		t.Fatalf("over the call budget: %v, %d requests", err, len(srv.Requests()))
	}
	c, _ = client(t, llm.Budget{MaxTokens: 50}, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Tool: "propose_hypotheses", Args: goodHypotheses, PromptTokens: 40, CompletionTokens: 20}
	})
	c.ProposeHypotheses(ctx, prompts.Hypotheses{Schema: schema(), Max: 3})
	if _, _, err := c.ProposeHypotheses(ctx, prompts.Hypotheses{Schema: schema(), Max: 3}); err == nil || !strings.Contains(err.Error(), "tokens") {
		t.Fatalf("over the token budget: %v", err)
	}
}

// A server that echoes the key in its error must not get it into ours.
func TestKeyNeverInErrors(t *testing.T) {
	c, _ := client(t, llm.Budget{Retries: -1}, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 401, Raw: `{"error":{"message":"Incorrect API key provided: ` + canary + `"}}`}
	})
	_, _, err := c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: schema(), Max: 3})
	if err == nil || strings.Contains(err.Error(), canary) || !strings.Contains(err.Error(), "[redacted]") {
		t.Fatalf("error: %v", err)
	}
	for _, r := range c.TakeCalls() {
		if strings.Contains(r.Error, canary) {
			t.Fatalf("call record holds the key: %+v", r)
		}
	}
}
