package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// Scripted servers for the two other APIs discover's adapters speak, the
// way langchaingo v0.1.14's clients call them: Anthropic's Messages API
// (POST /v1/messages, x-api-key and anthropic-version headers, tools with
// an input_schema, answers as tool_use content blocks) and Ollama's chat
// API (POST /api/chat, JSON mode, answers streamed as NDJSON unless the
// request says "stream": false). They check what the real servers check
// before answering, and answer as the real servers do.

// APIRequest is a request to a provider's own API as the server received
// it. Request.Messages starts with the system prompt (Anthropic's "system"
// field) when there is one.
type APIRequest struct {
	Request
	Path        string
	Header      http.Header
	Format      json.RawMessage // Ollama: "json" for JSON mode
	Temperature *float64        // as sent; nil when absent
	MaxTokens   int             // Anthropic max_tokens, Ollama options.num_predict
	Stream      *bool           // Ollama: absent means a streamed answer
}

// APIServer is a scripted Anthropic or Ollama server.
type APIServer struct {
	*httptest.Server
	requestLog[APIRequest]
	respond func(n int, req APIRequest) Reply
	tokens  atomic.Int64
}

// NewAnthropic starts an Anthropic Messages API server; clients take
// s.URL as the base URL (the server answers on /v1/messages). Replies
// with Tool set answer with a tool_use block (after a text block when
// Content is set too).
func NewAnthropic(respond func(n int, req APIRequest) Reply) *APIServer {
	s := &APIServer{respond: respond}
	s.Server = httptest.NewServer(http.HandlerFunc(s.anthropic))
	return s
}

// NewOllama starts an Ollama server; clients take s.URL as the base URL.
// Replies with Tool set answer with Args as the message content, as a
// model in JSON mode writes the tool's arguments.
func NewOllama(respond func(n int, req APIRequest) Reply) *APIServer {
	s := &APIServer{respond: respond}
	s.Server = httptest.NewServer(http.HandlerFunc(s.ollama))
	return s
}

// Tokens is the usage the server reported in its answers so far.
func (s *APIServer) Tokens() int { return int(s.tokens.Load()) }

// reply keeps a request and scripts its answer.
func (s *APIServer) reply(req APIRequest) Reply { return s.respond(s.add(req), req) }

// wait holds the answer for Delay or Hang; false when the client gave up.
func wait(r *http.Request, rep Reply) bool {
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return false
		}
	}
	if rep.Hang {
		<-r.Context().Done()
		return false
	}
	return true
}

// raw sends a scripted status and body as they are; false when the reply
// is not one.
func raw(w http.ResponseWriter, rep Reply) bool {
	if rep.Raw == "" && rep.Status == 0 {
		return false
	}
	ct := rep.ContentType
	if ct == "" {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	io.WriteString(w, rep.Raw)
	return true
}

func usage(rep Reply) (int, int) {
	if rep.PromptTokens == 0 && rep.CompletionTokens == 0 {
		return 100, 20
	}
	return rep.PromptTokens, rep.CompletionTokens
}

// argsJSON is a reply's tool arguments as JSON text.
func argsJSON(rep Reply) string {
	if s, ok := rep.Args.(string); ok {
		return s
	}
	b, err := json.Marshal(rep.Args)
	if err != nil {
		panic(fmt.Sprintf("llmtest: args: %v", err))
	}
	return string(b)
}

// JSONEqual reports whether a and b are the same JSON value, whatever
// their spacing and key order; it fails the test when either is no JSON.
func JSONEqual(t testing.TB, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(x, y)
}

// AnthropicError is the body of an Anthropic API error.
func AnthropicError(kind, message string) string {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": kind, "message": message}})
	return string(b)
}

func (s *APIServer) anthropic(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, kind, msg string) {
		raw(w, Reply{Status: status, Raw: AnthropicError(kind, msg)})
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		fail(http.StatusNotFound, "not_found_error", "Not found: "+r.Method+" "+r.URL.Path)
		return
	}
	if r.Header.Get("x-api-key") == "" {
		fail(http.StatusUnauthorized, "authentication_error", "x-api-key header is required")
		return
	}
	if r.Header.Get("anthropic-version") == "" {
		fail(http.StatusBadRequest, "invalid_request_error", "anthropic-version: header is required")
		return
	}
	body, _ := io.ReadAll(r.Body)
	var in struct {
		Model    string          `json:"model"`
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
		ToolChoice *struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"tool_choice"`
		MaxTokens   int      `json:"max_tokens"`
		Temperature *float64 `json:"temperature"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		fail(http.StatusBadRequest, "invalid_request_error", "invalid JSON body")
		return
	}
	req := APIRequest{Request: Request{Model: in.Model, Body: string(body), Authorization: r.Header.Get("Authorization")},
		Path: r.URL.Path, Header: r.Header.Clone(), Temperature: in.Temperature, MaxTokens: in.MaxTokens}
	if sys := blocksText(in.System); sys != "" {
		req.Messages = append(req.Messages, Message{Role: "system", Content: sys})
	}
	problem := ""
	switch {
	case in.Model == "":
		problem = "model: field required"
	case in.MaxTokens <= 0:
		problem = "max_tokens: field required"
	case len(in.Messages) == 0:
		problem = "messages: at least one message is required"
	case in.ToolChoice != nil && (in.ToolChoice.Type != "tool" && in.ToolChoice.Type != "auto" && in.ToolChoice.Type != "any" && in.ToolChoice.Type != "none"):
		problem = "tool_choice.type: invalid"
	}
	for i, m := range in.Messages {
		switch {
		case m.Role != "user" && m.Role != "assistant":
			problem = fmt.Sprintf("messages.%d.role: Input should be 'user' or 'assistant'", i)
		case i == 0 && m.Role != "user":
			problem = "messages: first message must use the \"user\" role"
		case i > 0 && m.Role == in.Messages[i-1].Role:
			problem = "messages: roles must alternate between \"user\" and \"assistant\""
		}
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: blocksText(m.Content)})
	}
	if len(in.Tools) > 0 {
		req.Tool, req.ToolSchema = in.Tools[0].Name, in.Tools[0].InputSchema
	}
	if in.ToolChoice != nil && in.ToolChoice.Type == "tool" {
		req.ForcedTool = in.ToolChoice.Name
	}
	if problem != "" {
		fail(http.StatusBadRequest, "invalid_request_error", problem)
		return
	}
	rep := s.reply(req)
	if !wait(r, rep) || raw(w, rep) {
		return
	}
	var content []any
	if rep.Content != "" {
		content = append(content, map[string]any{"type": "text", "text": rep.Content})
	}
	stop := "end_turn"
	if rep.Tool != "" {
		content = append(content, map[string]any{"type": "tool_use", "id": "toolu_01", "name": rep.Tool, "input": json.RawMessage(argsJSON(rep))})
		stop = "tool_use"
	}
	p, c := usage(rep)
	s.tokens.Add(int64(p + c))
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": in.Model,
		"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": map[string]int{"input_tokens": p, "output_tokens": c}})
}

// blocksText is the text of an Anthropic content: a string, or text blocks.
func blocksText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func (s *APIServer) ollama(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/api/chat" {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "404 page not found")
		return
	}
	body, _ := io.ReadAll(r.Body)
	var in struct {
		Model    string          `json:"model"`
		Messages []Message       `json:"messages"`
		Format   json.RawMessage `json:"format"`
		Stream   *bool           `json:"stream"`
		Options  struct {
			Temperature *float64 `json:"temperature"`
			NumPredict  int      `json:"num_predict"`
		} `json:"options"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		raw(w, Reply{Status: http.StatusBadRequest, Raw: `{"error":"invalid request body"}`})
		return
	}
	if in.Model == "" {
		raw(w, Reply{Status: http.StatusBadRequest, Raw: `{"error":"model is required"}`})
		return
	}
	req := APIRequest{Request: Request{Model: in.Model, Messages: in.Messages, Body: string(body), Authorization: r.Header.Get("Authorization")},
		Path: r.URL.Path, Header: r.Header.Clone(), Format: in.Format, Temperature: in.Options.Temperature,
		MaxTokens: in.Options.NumPredict, Stream: in.Stream}
	rep := s.reply(req)
	if !wait(r, rep) || raw(w, rep) {
		return
	}
	content := rep.Content
	if rep.Tool != "" {
		content = argsJSON(rep)
	}
	p, c := usage(rep)
	s.tokens.Add(int64(p + c))
	chunk := func(text string, done bool) map[string]any {
		m := map[string]any{"model": in.Model, "created_at": "2024-01-01T00:00:00Z",
			"message": map[string]any{"role": "assistant", "content": text}, "done": done}
		if done {
			m["done_reason"] = "stop"
			m["total_duration"], m["prompt_eval_count"], m["eval_count"] = 1_000_000, p, c
		}
		return m
	}
	enc := json.NewEncoder(w)
	if in.Stream != nil && !*in.Stream {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		enc.Encode(chunk(content, true))
		return
	}
	// Streamed, as Ollama answers a request that does not say otherwise:
	// the content a few bytes a line, then a last line with the counts.
	w.Header().Set("Content-Type", "application/x-ndjson")
	for len(content) > 0 {
		n := min(len(content), 16)
		for n < len(content) && !utf8.RuneStart(content[n]) {
			n++
		}
		enc.Encode(chunk(content[:n], false))
		content = content[n:]
	}
	enc.Encode(chunk("", true))
}
