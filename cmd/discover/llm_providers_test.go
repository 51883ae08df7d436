package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/experts/model"
	"github.com/discover-db/discover/llm/llmtest"
)

// The Anthropic key stands for a real one: it must reach the Anthropic
// server's x-api-key header and nothing else.
const anthropicCanary = "sk-ant-canary-93b1d7e4f2a6c085"

// The demo hypotheses the scripted models propose: each with its own
// query, the independent formulation the second path gets, and (for the
// one whose query names a column that does not exist) the repair.
var demoHypotheses = []struct {
	statement, table, sql, formulation, repair, status string
}{
	{"Every order item has a positive quantity.", "order_items",
		"SELECT COUNT(*) AS violations FROM order_items WHERE quantity <= 0",
		"SELECT SUM(CASE WHEN quantity <= 0 THEN 1 ELSE 0 END) AS violations, COUNT(*) AS checked FROM order_items", "", "confirmed"},
	{"Every review rating is between 1 and 5.", "reviews",
		"SELECT COUNT(*) AS violations FROM reviews WHERE rating NOT BETWEEN 1 AND 5",
		"SELECT COUNT(*) AS violations FROM reviews WHERE rating < 1 OR rating > 5", "", "confirmed"},
	{"Product prices are positive.", "products",
		"SELECT COUNT(*) AS violations FROM products WHERE cost <= 0",
		"SELECT COUNT(*) AS violations FROM products WHERE NOT (price > 0)",
		"SELECT COUNT(*) AS violations FROM products WHERE price <= 0", "confirmed"},
}

var ollamaTool = regexp.MustCompile(`Instead of calling the tool (\w+), answer with exactly one JSON object`)

// toolOf reads which tool a request asks for, and its schema: Anthropic
// offers it as a tool, Ollama's adapter names it in the system prompt.
func toolOf(req llmtest.APIRequest) (string, json.RawMessage) {
	if req.Tool != "" {
		return req.Tool, req.ToolSchema
	}
	if len(req.Messages) == 0 {
		return "", nil
	}
	sys := req.Messages[0].Content
	m := ollamaTool.FindStringSubmatch(sys)
	const marker = "following this JSON schema: "
	if m == nil || !strings.Contains(sys, marker) {
		return "", nil
	}
	return m[1], json.RawMessage(sys[strings.LastIndex(sys, marker)+len(marker):])
}

// minimal is the smallest value a JSON schema allows: the answer for the
// model's other steps, which this test does not look at.
func minimal(schema any) any {
	s, _ := schema.(map[string]any)
	switch s["type"] {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for k, v := range props {
			out[k] = minimal(v)
		}
		return out
	case "array":
		return []any{}
	case "number", "integer":
		return 0
	case "boolean":
		return false
	}
	return ""
}

// scriptedModel answers every request of a run on the demo database.
func scriptedModel(t *testing.T) func(n int, req llmtest.APIRequest) llmtest.Reply {
	return func(n int, req llmtest.APIRequest) llmtest.Reply {
		tool, schema := toolOf(req)
		text := req.Text()
		switch tool {
		case "propose_hypotheses":
			var hs []any
			for _, h := range demoHypotheses {
				hs = append(hs, map[string]any{"statement": h.statement, "table": h.table, "test_sql": h.sql, "expected": "0 violations"})
			}
			return llmtest.Reply{Tool: tool, Args: map[string]any{"hypotheses": hs}, PromptTokens: 1200, CompletionTokens: 210}
		case "write_test_sql", "revise_sql":
			for _, h := range demoHypotheses {
				if !strings.Contains(text, h.statement) {
					continue
				}
				sql := h.formulation
				if tool == "revise_sql" {
					sql = h.repair
				}
				if sql != "" {
					return llmtest.Reply{Tool: tool, Args: map[string]any{"sql": sql}, PromptTokens: 400, CompletionTokens: 35}
				}
			}
			t.Errorf("%s for no known statement:\n%s", tool, text)
		case "describe_tables":
			return llmtest.Reply{Tool: tool, Args: map[string]any{"tables": []any{
				map[string]any{"table": "orders", "entity": "Order", "description": "One row per order a customer placed."}}},
				PromptTokens: 900, CompletionTokens: 60}
		case "write_summary":
			return llmtest.Reply{Tool: tool, Args: map[string]any{"summary": "A shop: customers, orders, products and their reviews."},
				PromptTokens: 700, CompletionTokens: 40}
		case "":
			t.Errorf("a request without a tool: %s", req.Body)
		default:
			var s any
			if err := json.Unmarshal(schema, &s); err != nil {
				t.Errorf("%s: schema %s: %v", tool, schema, err)
			}
			return llmtest.Reply{Tool: tool, Args: minimal(s), PromptTokens: 300, CompletionTokens: 10}
		}
		return llmtest.Reply{Status: 400, Raw: llmtest.AnthropicError("invalid_request_error", "unexpected request")}
	}
}

// The real CLI, as a process of its own, with --llm anthropic and --llm
// ollama against a scripted server for each API and the demo database:
// the run completes, the model's hypotheses are tested with two
// independent formulations each, run.llm counts every request and the
// tokens the server reported, and the Anthropic key reaches the Anthropic
// server's header and nothing else: no request to Ollama, no output file,
// neither stdout nor stderr.
func TestLLMProviders(t *testing.T) {
	for _, c := range []struct {
		provider, model string
		start           func(func(int, llmtest.APIRequest) llmtest.Reply) *llmtest.APIServer
	}{
		{"anthropic", "claude-scripted", llmtest.NewAnthropic},
		{"ollama", "llama-scripted", llmtest.NewOllama},
	} {
		t.Run(c.provider, func(t *testing.T) {
			srv := c.start(scriptedModel(t))
			defer srv.Close()
			out := t.TempDir()
			// The demo's tables the scripted answers name, and no more: the
			// adapters are under test here, not the experts (under -race on
			// a loaded machine the whole demo outran the deadline).
			cmd := exec.Command(os.Args[0], "--demo", "--out", out, "--progress", "plain", "--timeout", "300s",
				"--include", "orders", "--include", "order_items", "--include", "products", "--include", "reviews",
				"--llm", c.provider, "--llm-model", c.model, "--llm-base-url", srv.URL, "--llm-paths", "2", "--llm-timeout", "20s")
			cmd.Env = append(os.Environ(), "DISCOVER_TEST_AS_CLI=1", "ANTHROPIC_API_KEY="+anthropicCanary)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			reqs := srv.Requests()
			tools := map[string]int{}
			for _, r := range reqs {
				tool, _ := toolOf(r)
				tools[tool]++
				switch c.provider {
				case "anthropic":
					if r.Header.Get("x-api-key") != anthropicCanary || r.ForcedTool != r.Tool || r.Path != "/v1/messages" {
						t.Errorf("request to %s with key %v, tool %q forced %q", r.Path, r.Header.Get("x-api-key") == anthropicCanary, r.Tool, r.ForcedTool)
					}
				case "ollama":
					if string(r.Format) != `"json"` || r.Path != "/api/chat" {
						t.Errorf("request to %s in format %s", r.Path, r.Format)
					}
					for k, v := range r.Header {
						if strings.Contains(strings.Join(v, " "), "sk-ant") {
							t.Errorf("the Anthropic key went to Ollama in %s", k)
						}
					}
				}
				if strings.Contains(r.Body, anthropicCanary) {
					t.Errorf("the key is in a request body")
				}
			}
			if tools["propose_hypotheses"] != 1 || tools["write_test_sql"] != 3 || tools["revise_sql"] != 1 ||
				tools["describe_tables"] != 1 || tools["write_summary"] != 1 {
				t.Errorf("requests by tool %v: want 1 hypotheses call, 3 formulations (one per hypothesis), 1 repair, 1 notes, 1 narrative", tools)
			}

			_, r := readReport(t, out)
			l := r.Run.LLM
			if l.Provider != c.provider || l.Model != c.model || l.Calls != int64(len(reqs)) || l.Tokens != int64(srv.Tokens()) || l.Tokens == 0 {
				t.Errorf("run.llm = %+v, want %s %s, %d calls and the %d tokens the server reported", l, c.provider, c.model, len(reqs), srv.Tokens())
			}
			byStatement := map[string]int{}
			for i, h := range r.Hypotheses {
				if h.Expert == model.Name {
					byStatement[h.Statement] = i
				}
			}
			for _, want := range demoHypotheses {
				i, ok := byStatement[want.statement]
				if !ok {
					t.Errorf("%q is not in the report", want.statement)
					continue
				}
				h := r.Hypotheses[i]
				if h.Status != want.status || !slices.Contains(h.Evidence, "multi-path vote: 2 of 2 formulations accepted; the chosen one agrees with 1 other(s)") ||
					!slices.ContainsFunc(h.Evidence, func(e string) bool {
						return strings.HasPrefix(e, "proposed by model "+c.provider+" "+c.model+" (prompt hypotheses/v2)")
					}) {
					t.Errorf("%q: %s, evidence %q", want.statement, h.Status, h.Evidence)
				}
			}
			t.Logf("%s: %d requests by tool %v; run.llm %+v", c.provider, len(reqs), tools, l)
			if r.Narrative == nil || r.Narrative.Prompt != "narrative/v1" {
				t.Errorf("narrative %+v", r.Narrative)
			}
			assertNoCanary(t, anthropicCanary, stdout.String()+stderr.String(), out)
		})
	}
}

// assertNoCanary looks for the key (or a part of it) in the output
// streams and in every file under the dirs (reports and the catalog's
// bytes), whatever their format.
func assertNoCanary(t *testing.T, canary, output string, dirs ...string) {
	t.Helper()
	if strings.Contains(output, canary) {
		t.Error("the API key appears in the command's output")
	}
	for _, d := range dirs {
		filepath.Walk(d, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(b, []byte(canary)) {
				t.Errorf("the API key appears in %s", p)
			}
			return nil
		})
	}
}
