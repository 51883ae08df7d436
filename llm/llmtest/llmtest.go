// Package llmtest is an OpenAI-compatible chat server for tests: it
// replays scripted answers over real HTTP, so that langchaingo's client
// and its JSON handling are exercised, and it records every request.
package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Request is a chat completion request as the server received it.
type Request struct {
	Model         string
	Messages      []Message
	Tool          string // the first offered tool's name
	ToolSchema    json.RawMessage
	ForcedTool    string // the tool_choice function name, if any
	Authorization string
	Body          string
}

// Message is one message of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Text is every message's content, joined.
func (r Request) Text() string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(m.Content)
		b.WriteByte('\n')
	}
	return b.String()
}

// Reply is a scripted answer. With Raw set, Status (default 200) and Raw
// are sent as they are; else a chat completion calling Tool with Args (or
// answering Content in text). Hang holds the answer until the client gives
// up.
type Reply struct {
	Status      int
	Raw         string
	ContentType string
	Hang        bool
	Delay       time.Duration

	Tool    string
	Args    any // marshalled to the arguments string; a string is sent as is
	Content string

	PromptTokens, CompletionTokens int
}

// Server is the scripted server.
type Server struct {
	*httptest.Server
	requestLog[Request]
	respond func(n int, req Request) Reply
}

// New starts a server answering the n-th request (from 0) with respond.
// Its base URL for clients is s.URL + "/v1". Close it when done.
func New(respond func(n int, req Request) Reply) *Server {
	s := &Server{respond: respond}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// requestLog keeps the requests a scripted server received, in order, for
// the OpenAI-compatible server and the provider servers alike.
type requestLog[R any] struct {
	mu   sync.Mutex
	reqs []R
}

// Requests returns the requests received so far.
func (l *requestLog[R]) Requests() []R {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]R(nil), l.reqs...)
}

// add keeps req and returns its number, from 0.
func (l *requestLog[R]) add(req R) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, req)
	return len(l.reqs) - 1
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var in struct {
		Model    string    `json:"model"`
		Messages []Message `json:"messages"`
		Tools    []struct {
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		ToolChoice struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tool_choice"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	req := Request{Model: in.Model, Messages: in.Messages, ForcedTool: in.ToolChoice.Function.Name,
		Authorization: r.Header.Get("Authorization"), Body: string(body)}
	if len(in.Tools) > 0 {
		req.Tool, req.ToolSchema = in.Tools[0].Function.Name, in.Tools[0].Function.Parameters
	}
	rep := s.respond(s.add(req), req)
	if !wait(r, rep) || raw(w, rep) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(Completion(in.Model, rep))
}

// Completion builds the chat completion body for a reply.
func Completion(model string, rep Reply) map[string]any {
	msg := map[string]any{"role": "assistant", "content": rep.Content}
	finish := "stop"
	if rep.Tool != "" {
		msg["content"] = nil
		msg["tool_calls"] = []any{map[string]any{"id": "call_1", "type": "function",
			"function": map[string]any{"name": rep.Tool, "arguments": argsJSON(rep)}}}
		finish = "tool_calls"
	}
	p, c := usage(rep)
	return map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
	}
}
