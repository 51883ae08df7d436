package ollama_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/llmtest"
	"github.com/discover-db/discover/llm/ollama"
	"github.com/discover-db/discover/prompts"
)

func provider(t *testing.T, base string) *ollama.Provider {
	t.Helper()
	p, err := ollama.New(llm.Config{Provider: "ollama", Model: "qwen-test", BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var args = map[string]any{"hypotheses": []any{map[string]any{"statement": "every order has a status ✓", "table": "orders",
	"test_sql": "SELECT COUNT(*) AS violations FROM orders WHERE status IS NULL", "expected": "0"}}}

var request = llm.Request{Tool: llm.HypothesesTool, MaxTokens: 777, Messages: []llm.Message{
	{Role: llm.RoleSystem, Text: "You help explore a database."},
	{Role: llm.RoleUser, Text: "<data>{}</data> Propose hypotheses."},
	{Role: llm.RoleAssistant, Text: `{"hypotheses": "not a list"}`},
	{Role: llm.RoleUser, Text: "Call propose_hypotheses again."},
}}

// The request is Ollama's chat API's: JSON mode, the tool's name and
// schema in the one system prompt (first, where every chat template reads
// it), the turns in order, temperature 0 and the answer cap. The answer,
// streamed as Ollama streams by default, is read whole as the tool's
// arguments, with the token counts of its last line.
func TestRequestAndAnswer(t *testing.T) {
	for _, base := range []string{"", "/", "/api", "/api/"} {
		t.Run("base"+base, func(t *testing.T) {
			srv := llmtest.NewOllama(func(n int, req llmtest.APIRequest) llmtest.Reply {
				return llmtest.Reply{Tool: "propose_hypotheses", Args: args, PromptTokens: 512, CompletionTokens: 64}
			})
			defer srv.Close()
			resp, err := provider(t, srv.URL+base).Complete(context.Background(), request)
			if err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			r := reqs[0]
			if r.Path != "/api/chat" || r.Model != "qwen-test" || string(r.Format) != `"json"` || r.Stream != nil || r.Authorization != "" {
				t.Errorf("path %s model %s format %s stream %v auth %q", r.Path, r.Model, r.Format, r.Stream, r.Authorization)
			}
			schema, _ := json.Marshal(llm.HypothesesTool.Schema)
			roles := []string{}
			for _, m := range r.Messages {
				roles = append(roles, m.Role)
			}
			sys := r.Messages[0].Content
			if strings.Join(roles, ",") != "system,user,assistant,user" || !strings.HasPrefix(sys, "You help explore a database.\n\n") ||
				!strings.Contains(sys, "the tool propose_hypotheses") || !strings.HasSuffix(sys, "following this JSON schema: "+string(schema)) {
				t.Errorf("messages %+v", r.Messages)
			}
			if r.Temperature == nil || *r.Temperature != 0 || r.MaxTokens != 777 {
				t.Errorf("temperature %v num_predict %d", r.Temperature, r.MaxTokens)
			}
			want, _ := json.Marshal(args)
			if resp.ToolName != "propose_hypotheses" || !llmtest.JSONEqual(t, []byte(resp.Arguments), want) || resp.Text != string(want) {
				t.Errorf("response %+v", resp)
			}
			if resp.PromptTokens != 512 || resp.CompletionTokens != 64 || resp.TotalTokens != 576 {
				t.Errorf("tokens %d + %d = %d, want 512 + 64 = 576", resp.PromptTokens, resp.CompletionTokens, resp.TotalTokens)
			}
		})
	}
}

// A model in JSON mode may wrap the arguments in the call it was told not
// to make; the envelope is opened and names the tool called. An answer
// that is no JSON object is left to the Client's reading of the text.
func TestArgumentEnvelopes(t *testing.T) {
	inner, _ := json.Marshal(args)
	cases := []struct {
		content, tool, args string
	}{
		{`{"name": "propose_hypotheses", "arguments": ` + string(inner) + `}`, "propose_hypotheses", string(inner)},
		{`{"name": "describe_tables", "parameters": {"tables": []}}`, "describe_tables", `{"tables": []}`},
		{`{"propose_hypotheses": ` + string(inner) + `}`, "propose_hypotheses", string(inner)},
		{"  " + string(inner) + "\n", "propose_hypotheses", string(inner)},
		{"Sure! Here are some hypotheses.", "", ""},
		{`{"hypotheses": [`, "", ""},
	}
	for _, c := range cases {
		srv := llmtest.NewOllama(func(int, llmtest.APIRequest) llmtest.Reply { return llmtest.Reply{Content: c.content} })
		resp, err := provider(t, srv.URL).Complete(context.Background(), request)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.ToolName != c.tool || resp.Arguments != c.args || resp.Text != c.content {
			t.Errorf("%q: tool %q args %q text %q", c.content, resp.ToolName, resp.Arguments, resp.Text)
		}
	}
}

// A status other than 200 is an *llm.HTTPError with the status, also when
// the body is empty (langchaingo's client then sees no error at all) or
// not JSON; 429 and 5xx may be retried.
func TestHTTPErrors(t *testing.T) {
	cases := []struct {
		status    int
		body      string
		retryable bool
		says      string
	}{
		{500, "", true, "500"},
		{503, `{"error":"server busy, please try again"}`, true, "server busy"},
		{429, `{"error":"too many requests"}`, true, "too many requests"},
		{502, "<html><body>502 Bad Gateway</body></html>", true, "502"},
		{404, `{"error":"model \"qwen-test\" not found, try pulling it first"}`, false, "try pulling it first"},
		{400, `{"error":"invalid format"}`, false, "invalid format"},
	}
	for _, c := range cases {
		srv := llmtest.NewOllama(func(int, llmtest.APIRequest) llmtest.Reply { return llmtest.Reply{Status: c.status, Raw: c.body} })
		_, err := provider(t, srv.URL).Complete(context.Background(), request)
		srv.Close()
		var he *llm.HTTPError
		switch {
		case !errors.As(err, &he):
			t.Errorf("%d %q: %v is not an *llm.HTTPError", c.status, c.body, err)
		case he.Status != c.status || he.Retryable() != c.retryable:
			t.Errorf("%d: status %d retryable %v", c.status, he.Status, he.Retryable())
		case !strings.Contains(err.Error(), "ollama: ") || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), strconv.Itoa(c.status)):
			t.Errorf("%d: error text %q does not say %q and the status", c.status, err, c.says)
		}
	}
}

// Through the Client: a busy server is retried, the JSON-mode answer is
// decoded and validated as the tool's arguments, calls and tokens are
// counted, and a formulation is sampled above temperature 0.
func TestThroughClient(t *testing.T) {
	srv := llmtest.NewOllama(func(n int, req llmtest.APIRequest) llmtest.Reply {
		switch {
		case n == 0:
			return llmtest.Reply{Status: 503, Raw: `{"error":"server busy"}`}
		case strings.Contains(req.Messages[0].Content, "write_test_sql"):
			return llmtest.Reply{Tool: "write_test_sql", Args: map[string]any{"sql": "SELECT COUNT(*) AS violations FROM orders WHERE status = ''"},
				PromptTokens: 150, CompletionTokens: 25}
		}
		return llmtest.Reply{Tool: "propose_hypotheses", Args: args, PromptTokens: 300, CompletionTokens: 50}
	})
	defer srv.Close()
	c := llm.NewClient(provider(t, srv.URL), llm.Config{Provider: "ollama", Model: "qwen-test"}, llm.Budget{Backoff: time.Millisecond})
	s := prompts.Schema{Dialect: "sqlite", Tables: []prompts.Table{{Name: "orders", Kind: "table", Columns: []prompts.Column{{Name: "status"}}}}}
	hs, _, err := c.ProposeHypotheses(context.Background(), prompts.Hypotheses{Schema: s, Max: 3})
	if err != nil || len(hs) != 1 || hs[0].Statement != "every order has a status ✓" {
		t.Fatalf("%v %+v", err, hs)
	}
	sql, _, err := c.FormulateTest(context.Background(), prompts.Formulate{Dialect: "sqlite", Statement: hs[0].Statement, Table: "orders", Tables: s.Tables})
	if err != nil || !strings.Contains(sql, "status = ''") {
		t.Fatalf("formulation %q: %v", sql, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || *reqs[1].Temperature != 0 || *reqs[2].Temperature != llm.SampleTemperature {
		t.Fatalf("%d requests; temperatures %v %v", len(reqs), *reqs[1].Temperature, *reqs[2].Temperature)
	}
	if calls, tokens := c.Usage(); calls != 3 || tokens != 350+175 || int(tokens) != srv.Tokens() {
		t.Errorf("usage %d calls %d tokens, want 3 and %d", calls, tokens, srv.Tokens())
	}
	if recs := c.TakeCalls(); len(recs) != 3 || recs[0].Outcome != "http_error" || recs[1].Tokens != 350 || recs[1].Estimated {
		t.Errorf("records %+v", recs)
	}
}
