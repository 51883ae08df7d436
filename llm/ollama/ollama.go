// Package ollama is the provider for a local Ollama server through
// langchaingo. langchaingo's Ollama client offers no tools, so the answer
// is asked for in JSON mode with the tool's schema in the instructions.
package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

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

// New connects to cfg.BaseURL (default http://127.0.0.1:11434).
func New(cfg llm.Config) (*Provider, error) {
	if cfg.Model == "" {
		return nil, errors.New("ollama: no model name")
	}
	opts := []lcollama.Option{lcollama.WithModel(cfg.Model), lcollama.WithFormat("json"),
		lcollama.WithHTTPClient(httpstatus.Client())}
	if cfg.BaseURL != "" {
		if _, err := url.Parse(cfg.BaseURL); err != nil {
			return nil, fmt.Errorf("ollama: base URL: %w", err)
		}
		opts = append(opts, lcollama.WithServerURL(cfg.BaseURL))
	}
	m, err := lcollama.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("ollama: %w", err)
	}
	return &Provider{model: m}, nil
}

// Complete implements llm.Provider.
func (p *Provider) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	schema, err := json.Marshal(req.Tool.Schema)
	if err != nil {
		return llm.Response{}, fmt.Errorf("ollama: tool schema: %w", err)
	}
	msgs := append([]llm.Message{}, req.Messages...)
	msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Text: fmt.Sprintf(
		"Instead of calling the tool %s, answer with exactly one JSON object, its arguments, following this JSON schema: %s",
		req.Tool.Name, schema)})
	opts := []llms.CallOption{llms.WithJSONMode(), llms.WithTemperature(0)}
	if req.MaxTokens > 0 {
		opts = append(opts, llms.WithMaxTokens(req.MaxTokens))
	}
	resp, err := lc.Generate(ctx, p.model, lc.Messages(msgs), opts...)
	if err != nil {
		return resp, fmt.Errorf("ollama: %w", err)
	}
	return resp, nil
}
