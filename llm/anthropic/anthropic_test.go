package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/anthropic"
	"github.com/discover-db/discover/llm/llmtest"
	"github.com/discover-db/discover/prompts"
)

const key = "sk-ant-canary-5e1f0c9b7a"

func provider(t *testing.T, base string) *anthropic.Provider {
	t.Helper()
	p, err := anthropic.New(llm.Config{Provider: "anthropic", Model: "claude-test", BaseURL: base, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var args = map[string]any{"hypotheses": []any{map[string]any{"statement": "every order has a status", "table": "orders",
	"test_sql": "SELECT COUNT(*) AS violations FROM orders WHERE status IS NULL", "expected": "0"}}}

// The request is the Messages API's: the key in x-api-key (never in
// Authorization), the API version, the system prompt in its own field,
// user and assistant turns alternating, the tool with its schema as
// input_schema and forced by tool_choice, the answer cap and temperature
// 0. A tool_use block after a text block is the answer, and the usage is
// read once.
func TestRequestAndToolCall(t *testing.T) {
	for _, base := range []string{"", "/", "/v1", "/v1/"} {
		t.Run("base"+base, func(t *testing.T) {
			srv := llmtest.NewAnthropic(func(n int, req llmtest.APIRequest) llmtest.Reply {
				return llmtest.Reply{Content: "I will call the tool.", Tool: "propose_hypotheses", Args: args, PromptTokens: 321, CompletionTokens: 45}
			})
			defer srv.Close()
			p := provider(t, srv.URL+base)
			resp, err := p.Complete(context.Background(), llm.Request{Tool: llm.HypothesesTool, MaxTokens: 1234, Messages: []llm.Message{
				{Role: llm.RoleSystem, Text: "You help explore a database."},
				{Role: llm.RoleUser, Text: "<data>{}</data> Propose hypotheses."},
				{Role: llm.RoleAssistant, Text: `{"hypotheses": "not a list"}`},
				{Role: llm.RoleUser, Text: "Earlier turns were left out."},
				{Role: llm.RoleUser, Text: "Call propose_hypotheses again."},
			}})
			if err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			r := reqs[0]
			if r.Path != "/v1/messages" || r.Model != "claude-test" {
				t.Errorf("path %s model %s", r.Path, r.Model)
			}
			if r.Header.Get("x-api-key") != key || r.Authorization != "" || r.Header.Get("anthropic-version") != "2023-06-01" {
				t.Errorf("headers %v", r.Header)
			}
			schema, _ := json.Marshal(llm.HypothesesTool.Schema)
			if r.Tool != "propose_hypotheses" || r.ForcedTool != "propose_hypotheses" || !llmtest.JSONEqual(t, r.ToolSchema, schema) {
				t.Errorf("tool %q forced %q schema %s", r.Tool, r.ForcedTool, r.ToolSchema)
			}
			roles := []string{}
			for _, m := range r.Messages {
				roles = append(roles, m.Role)
			}
			if strings.Join(roles, ",") != "system,user,assistant,user" || r.Messages[0].Content != "You help explore a database." ||
				r.Messages[3].Content != "Earlier turns were left out.\n\nCall propose_hypotheses again." {
				t.Errorf("messages %+v", r.Messages)
			}
			if r.MaxTokens != 1234 || r.Temperature == nil || *r.Temperature != 0 {
				t.Errorf("max_tokens %d temperature %v", r.MaxTokens, r.Temperature)
			}
			want, _ := json.Marshal(args)
			if resp.ToolName != "propose_hypotheses" || !llmtest.JSONEqual(t, []byte(resp.Arguments), want) || resp.Text != "I will call the tool." {
				t.Errorf("response %+v", resp)
			}
			if resp.PromptTokens != 321 || resp.CompletionTokens != 45 || resp.TotalTokens != 366 {
				t.Errorf("tokens %d + %d = %d, want 321 + 45 = 366", resp.PromptTokens, resp.CompletionTokens, resp.TotalTokens)
			}
		})
	}
}

// A status other than 200 is an *llm.HTTPError with the status: 429 and
// 5xx (529 is Anthropic's "overloaded") may be retried, others not. The
// key is in no error's text, even when the server echoes it.
func TestHTTPErrors(t *testing.T) {
	cases := []struct {
		status    int
		body      string
		retryable bool
	}{
		{429, llmtest.AnthropicError("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"), true},
		{500, llmtest.AnthropicError("api_error", "Internal server error"), true},
		{529, llmtest.AnthropicError("overloaded_error", "Overloaded"), true},
		{502, "<html><body>502 Bad Gateway</body></html>", true},
		{400, llmtest.AnthropicError("invalid_request_error", "max_tokens: too large"), false},
		{401, llmtest.AnthropicError("authentication_error", "invalid x-api-key: "+key), false},
		{403, llmtest.AnthropicError("permission_error", "key "+key+" may not use this model"), false},
	}
	for _, c := range cases {
		srv := llmtest.NewAnthropic(func(int, llmtest.APIRequest) llmtest.Reply { return llmtest.Reply{Status: c.status, Raw: c.body} })
		_, err := provider(t, srv.URL).Complete(context.Background(), llm.Request{Tool: llm.HypothesesTool,
			Messages: []llm.Message{{Role: llm.RoleUser, Text: "hello"}}})
		srv.Close()
		var he *llm.HTTPError
		switch {
		case !errors.As(err, &he):
			t.Errorf("%d: %v is not an *llm.HTTPError", c.status, err)
		case he.Status != c.status || he.Retryable() != c.retryable:
			t.Errorf("%d: status %d retryable %v", c.status, he.Status, he.Retryable())
		case !strings.Contains(err.Error(), "anthropic: ") || !strings.Contains(err.Error(), strconv.Itoa(c.status)):
			t.Errorf("%d: error text %q does not name the provider and status", c.status, err)
		}
		if err != nil && strings.Contains(err.Error(), key) {
			t.Errorf("%d: the key is in the error: %v", c.status, err)
		}
	}
}

// Through the Client: an overloaded server is retried, the answer is
// decoded and validated, calls and tokens are counted, a formulation is
// asked for at the sampling temperature, and no record holds the key.
func TestThroughClient(t *testing.T) {
	srv := llmtest.NewAnthropic(func(n int, req llmtest.APIRequest) llmtest.Reply {
		switch {
		case n == 0:
			return llmtest.Reply{Status: 529, Raw: llmtest.AnthropicError("overloaded_error", "Overloaded "+key)}
		case req.Tool == "write_test_sql":
			return llmtest.Reply{Tool: req.Tool, Args: map[string]any{"sql": "SELECT COUNT(*) AS violations FROM orders WHERE status = ''"},
				PromptTokens: 200, CompletionTokens: 30}
		}
		return llmtest.Reply{Tool: req.Tool, Args: args, PromptTokens: 400, CompletionTokens: 60}
	})
	defer srv.Close()
	c := llm.NewClient(provider(t, srv.URL), llm.Config{Provider: "anthropic", Model: "claude-test", Key: key}, llm.Budget{Backoff: time.Millisecond})
	s := prompts.Schema{Dialect: "sqlite", Tables: []prompts.Table{{Name: "orders", Kind: "table", Columns: []prompts.Column{{Name: "status"}}}}}
	hs, pid, err := c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: s, Max: 3})
	if err != nil || len(hs) != 1 || pid != "hypotheses/v2" {
		t.Fatalf("%v %+v %s", err, hs, pid)
	}
	sql, fpid, err := c.FormulateTest(context.Background(), prompts.Formulate{Dialect: "sqlite", Statement: hs[0].Statement, Table: "orders", Tables: s.Tables})
	if err != nil || !strings.Contains(sql, "status = ''") || fpid != "formulate/v1" {
		t.Fatalf("formulation %q %s: %v", sql, fpid, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || *reqs[1].Temperature != 0 || *reqs[2].Temperature != llm.SampleTemperature {
		t.Fatalf("%d requests; temperatures %v %v", len(reqs), *reqs[1].Temperature, *reqs[2].Temperature)
	}
	if calls, tokens := c.Usage(); calls != 3 || tokens != 460+230 || int(tokens) != srv.Tokens() {
		t.Errorf("usage %d calls %d tokens, want 3 and %d", calls, tokens, srv.Tokens())
	}
	recs := c.TakeCalls()
	if len(recs) != 3 || recs[0].Outcome != "http_error" || recs[1].Attempt != 2 || recs[1].Tokens != 460 || recs[2].Prompt != "formulate/v1" {
		t.Errorf("records %+v", recs)
	}
	for _, r := range recs {
		if strings.Contains(r.Error, key) {
			t.Errorf("record holds the key: %+v", r)
		}
	}
}

func TestNew(t *testing.T) {
	if _, err := anthropic.New(llm.Config{Model: "m"}); err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("no key: %v", err)
	}
	if _, err := anthropic.New(llm.Config{Key: key}); err == nil {
		t.Error("no model accepted")
	}
	if _, err := anthropic.New(llm.Config{Model: "m", Key: key, BaseURL: "not a url"}); err == nil || strings.Contains(err.Error(), key) {
		t.Errorf("bad base URL: %v", err)
	}
}
