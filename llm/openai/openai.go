// Package openai is the provider for OpenAI and any OpenAI-compatible
// server (vLLM, llama.cpp, LM Studio, …) through langchaingo. Answers are
// asked for as a forced call of one tool, whose arguments follow the
// tool's JSON schema.
package openai

import (
	"context"
	"errors"
	"fmt"

	"github.com/tmc/langchaingo/llms"
	lcopenai "github.com/tmc/langchaingo/llms/openai"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/internal/httpstatus"
	"github.com/discover-db/discover/llm/internal/lc"
)

// Provider is an OpenAI-compatible chat model.
type Provider struct {
	model  *lcopenai.LLM
	redact llm.Redactor
}

var _ llm.Provider = (*Provider)(nil)

// New connects to cfg.BaseURL (default api.openai.com) with cfg.Key. A
// local server usually needs no key; langchaingo insists on one, so a
// placeholder is sent then.
func New(cfg llm.Config) (*Provider, error) {
	if cfg.Model == "" {
		return nil, errors.New("openai: no model name")
	}
	key := cfg.Key
	if key == "" {
		if cfg.BaseURL == "" {
			return nil, errors.New("openai: no API key (OPENAI_API_KEY) for api.openai.com")
		}
		key = "no-key"
	}
	// Every option is given explicitly so that langchaingo's own reading of
	// OPENAI_* variables cannot override the user's flags.
	opts := []lcopenai.Option{lcopenai.WithToken(key), lcopenai.WithModel(cfg.Model),
		lcopenai.WithHTTPClient(httpstatus.Client())}
	if cfg.BaseURL != "" {
		opts = append(opts, lcopenai.WithBaseURL(cfg.BaseURL))
	} else {
		opts = append(opts, lcopenai.WithBaseURL("https://api.openai.com/v1"))
	}
	m, err := lcopenai.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	return &Provider{model: m, redact: llm.Redactor{cfg.Key}}, nil
}

// Complete implements llm.Provider.
func (p *Provider) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	opts := append(lc.ToolOptions(req.Tool, true), llms.WithTemperature(req.Temperature))
	if req.MaxTokens > 0 {
		opts = append(opts, llms.WithMaxTokens(req.MaxTokens))
	}
	resp, err := lc.Generate(ctx, p.model, p.redact, lc.Messages(req.Messages), opts...)
	if err != nil {
		return resp, fmt.Errorf("openai: %w", err)
	}
	return resp, nil
}
