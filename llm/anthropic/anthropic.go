// Package anthropic is the provider for Anthropic's models through
// langchaingo, answers asked for as a call of one tool.
package anthropic

import (
	"context"
	"errors"
	"fmt"

	"github.com/tmc/langchaingo/llms"
	lcanthropic "github.com/tmc/langchaingo/llms/anthropic"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/internal/httpstatus"
	"github.com/discover-db/discover/llm/internal/lc"
)

// Provider is an Anthropic model.
type Provider struct {
	model *lcanthropic.LLM
}

var _ llm.Provider = (*Provider)(nil)

// New connects with cfg.Key (ANTHROPIC_API_KEY) to cfg.BaseURL or
// Anthropic's API.
func New(cfg llm.Config) (*Provider, error) {
	if cfg.Model == "" {
		return nil, errors.New("anthropic: no model name")
	}
	if cfg.Key == "" {
		return nil, errors.New("anthropic: no API key (ANTHROPIC_API_KEY)")
	}
	opts := []lcanthropic.Option{lcanthropic.WithToken(cfg.Key), lcanthropic.WithModel(cfg.Model),
		lcanthropic.WithHTTPClient(httpstatus.Client())}
	if cfg.BaseURL != "" {
		opts = append(opts, lcanthropic.WithBaseURL(cfg.BaseURL))
	}
	m, err := lcanthropic.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("anthropic: %w", err)
	}
	return &Provider{model: m}, nil
}

// Complete implements llm.Provider. langchaingo's Anthropic client takes
// no tool choice, so the prompt's instruction to call the tool is what
// asks for it; an answer in text is still decoded by the Client.
func (p *Provider) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	opts := append(lc.ToolOptions(req.Tool, false), llms.WithTemperature(0))
	if req.MaxTokens > 0 {
		opts = append(opts, llms.WithMaxTokens(req.MaxTokens))
	}
	resp, err := lc.Generate(ctx, p.model, lc.Messages(req.Messages), opts...)
	if err != nil {
		return resp, fmt.Errorf("anthropic: %w", err)
	}
	return resp, nil
}
