// Package ollama is the provider for a local Ollama server through
// langchaingo. langchaingo's Ollama client offers no tools, so the answer
// is asked for in JSON mode with the tool's schema in the instructions, and
// the JSON object the model writes is taken as the tool's arguments.
package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/tmc/langchaingo/llms"
	lcollama "github.com/tmc/langchaingo/llms/ollama"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/internal/httpstatus"
	"github.com/discover-db/discover/llm/internal/lc"
)

// Provider is an Ollama model.
type Provider struct {
	model *lcollama.LLM
}

var _ llm.Provider = (*Provider)(nil)

// New connects to cfg.BaseURL (default http://127.0.0.1:11434; a trailing
// /api is dropped, langchaingo adds it).
func New(cfg llm.Config) (*Provider, error) {
	if cfg.Model == "" {
		return nil, errors.New("ollama: no model name")
	}
	opts := []lcollama.Option{lcollama.WithModel(cfg.Model), lcollama.WithFormat("json"),
		lcollama.WithHTTPClient(httpstatus.Client())}
	if cfg.BaseURL != "" {
		// Parsed here: langchaingo's option exits the process on a bad URL.
		u, err := url.Parse(cfg.BaseURL)
		if err != nil || u.Host == "" {
			return nil, errors.New("ollama: base URL: want http(s)://host[:port]")
		}
		u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/api")
		u.RawPath = ""
		opts = append(opts, lcollama.WithServerURL(u.String()))
	}
	m, err := lcollama.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("ollama: %w", err)
	}
	return &Provider{model: m}, nil
}

// Complete implements llm.Provider. The instruction to answer with the
// tool's arguments goes into the system prompt, where every chat template
// reads it; a system message after the conversation is one that some
// models' templates drop.
func (p *Provider) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	schema, err := json.Marshal(req.Tool.Schema)
	if err != nil {
		return llm.Response{}, fmt.Errorf("ollama: tool schema: %w", err)
	}
	instr := fmt.Sprintf("Instead of calling the tool %s, answer with exactly one JSON object, its arguments, following this JSON schema: %s",
		req.Tool.Name, schema)
	msgs := append([]llm.Message{}, req.Messages...)
	if len(msgs) > 0 && msgs[0].Role == llm.RoleSystem {
		msgs[0].Text += "\n\n" + instr
	} else {
		msgs = append([]llm.Message{{Role: llm.RoleSystem, Text: instr}}, msgs...)
	}
	opts := []llms.CallOption{llms.WithJSONMode(), llms.WithTemperature(req.Temperature)}
	if req.MaxTokens > 0 {
		opts = append(opts, llms.WithMaxTokens(req.MaxTokens))
	}
	resp, err := lc.Generate(ctx, p.model, nil, lc.Messages(msgs), opts...)
	if err != nil {
		return resp, fmt.Errorf("ollama: %w", err)
	}
	resp.ToolName, resp.Arguments = arguments(resp.Text, req.Tool.Name)
	return resp, nil
}

// arguments reads the JSON object of a JSON-mode answer as a call of tool.
// Some models wrap the arguments in the call they were told not to make,
// {"name": tool, "arguments": {…}} (or "parameters"), or under the tool's
// name, {tool: {…}}: that envelope is opened, and the name it gives is the
// tool called. An answer that is not one JSON object is left to the
// Client's reading of the text.
func arguments(text, tool string) (name, args string) {
	s := strings.TrimSpace(text)
	var obj map[string]json.RawMessage
	if !strings.HasPrefix(s, "{") || json.Unmarshal([]byte(s), &obj) != nil {
		return "", ""
	}
	if a := strings.TrimSpace(string(obj[tool])); len(obj) == 1 && strings.HasPrefix(a, "{") {
		return tool, a
	}
	if len(obj) == 2 {
		var called string
		if json.Unmarshal(obj["name"], &called) == nil && called != "" {
			for _, k := range []string{"arguments", "parameters"} {
				if a := strings.TrimSpace(string(obj[k])); strings.HasPrefix(a, "{") {
					return called, a
				}
			}
		}
	}
	return tool, s
}
