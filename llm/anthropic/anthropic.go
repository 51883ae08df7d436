// Package anthropic is the provider for Anthropic's models through
// langchaingo, answers asked for as a forced call of one tool.
package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/tmc/langchaingo/llms"
	lcanthropic "github.com/tmc/langchaingo/llms/anthropic"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/internal/httpstatus"
	"github.com/discover-db/discover/llm/internal/lc"
)

// Provider is an Anthropic model.
type Provider struct {
	model  *lcanthropic.LLM
	redact llm.Redactor
}

var _ llm.Provider = (*Provider)(nil)

// New connects with cfg.Key (ANTHROPIC_API_KEY) to cfg.BaseURL or
// Anthropic's API. The base URL is what comes before /v1/messages, as in
// Anthropic's own clients (https://api.anthropic.com); one that already
// ends in /v1 is taken as it is.
func New(cfg llm.Config) (*Provider, error) {
	if cfg.Model == "" {
		return nil, errors.New("anthropic: no model name")
	}
	if cfg.Key == "" {
		return nil, errors.New("anthropic: no API key (ANTHROPIC_API_KEY)")
	}
	// Every option is given explicitly so that langchaingo's own reading of
	// ANTHROPIC_API_KEY cannot stand in for the user's settings.
	opts := []lcanthropic.Option{lcanthropic.WithToken(cfg.Key), lcanthropic.WithModel(cfg.Model),
		lcanthropic.WithHTTPClient(httpstatus.ClientOver(forceTool{}))}
	if cfg.BaseURL != "" {
		base, err := apiBase(cfg.BaseURL)
		if err != nil {
			return nil, err
		}
		opts = append(opts, lcanthropic.WithBaseURL(base))
	}
	m, err := lcanthropic.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("anthropic: %w", err)
	}
	return &Provider{model: m, redact: llm.Redactor{cfg.Key}}, nil
}

// apiBase is the base URL langchaingo wants: the one /messages is appended
// to.
func apiBase(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", errors.New("anthropic: base URL: want http(s)://host[:port][/path]")
	}
	p := strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(p, "/v1") {
		p += "/v1"
	}
	u.Path, u.RawPath = p, ""
	return u.String(), nil
}

// Complete implements llm.Provider.
func (p *Provider) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	opts := append(lc.ToolOptions(req.Tool, false), llms.WithTemperature(req.Temperature))
	if req.MaxTokens > 0 {
		opts = append(opts, llms.WithMaxTokens(req.MaxTokens))
	}
	ctx = context.WithValue(ctx, toolKey{}, req.Tool.Name)
	resp, err := lc.Generate(ctx, p.model, p.redact, lc.Messages(req.Messages), opts...)
	if err != nil {
		return resp, fmt.Errorf("anthropic: %w", err)
	}
	return resp, nil
}

type toolKey struct{}

// forceTool adds the tool_choice that makes the model answer with a call
// of the request's tool (and nothing before it): langchaingo's Anthropic
// client offers tools but has no tool choice. It rewrites only a request
// body that is a JSON object offering tools, made under a Complete.
type forceTool struct{}

func (forceTool) RoundTrip(r *http.Request) (*http.Response, error) {
	name, _ := r.Context().Value(toolKey{}).(string)
	if name == "" || r.Body == nil || r.Method != http.MethodPost {
		return http.DefaultTransport.RoundTrip(r)
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	var payload map[string]json.RawMessage
	if json.Unmarshal(body, &payload) == nil && payload["tools"] != nil {
		choice, _ := json.Marshal(map[string]string{"type": "tool", "name": name})
		payload["tool_choice"] = choice
		if b, err := json.Marshal(payload); err == nil {
			body = b
		}
	}
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	r2.ContentLength = int64(len(body))
	return http.DefaultTransport.RoundTrip(r2)
}
