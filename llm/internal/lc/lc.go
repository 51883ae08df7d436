// Package lc converts between llm's types and langchaingo's, for the
// provider adapters (llm/openai, llm/ollama, llm/anthropic).
package lc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tmc/langchaingo/llms"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/internal/httpstatus"
)

// Messages converts a conversation. Consecutive messages of one role are
// joined into one message: Anthropic's API wants user and assistant turns
// to alternate, and a conversation the Client summarized has the summary
// just before the request it leads to.
func Messages(msgs []llm.Message) []llms.MessageContent {
	out := make([]llms.MessageContent, 0, len(msgs))
	var last llm.Role
	for _, m := range msgs {
		role := llms.ChatMessageTypeHuman
		switch m.Role {
		case llm.RoleSystem:
			role = llms.ChatMessageTypeSystem
		case llm.RoleAssistant:
			role = llms.ChatMessageTypeAI
		}
		if n := len(out); n > 0 && m.Role == last {
			prev := out[n-1].Parts[0].(llms.TextContent)
			out[n-1] = llms.TextParts(role, prev.Text+"\n\n"+m.Text)
			continue
		}
		out = append(out, llms.TextParts(role, m.Text))
		last = m.Role
	}
	return out
}

// ToolOptions offers the tool and, where the provider takes it, forces its
// use: the answer must come as the tool's arguments.
func ToolOptions(t llm.Tool, force bool) []llms.CallOption {
	opts := []llms.CallOption{llms.WithTools([]llms.Tool{{Type: "function",
		Function: &llms.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: t.Schema}}})}
	if force {
		opts = append(opts, llms.WithToolChoice(llms.ToolChoice{Type: "function", Function: &llms.FunctionReference{Name: t.Name}}))
	}
	return opts
}

// Generate runs one call with the HTTP status watched, and converts the
// answer. A status other than 200 becomes an *llm.HTTPError carrying the
// provider's message, even when langchaingo saw no error in it (Ollama's
// client reads an empty error body as an empty answer). A redirect to
// another origin, which the client refused, is the error whatever the SDK
// made of it (see httpstatus.SameOrigin). Every error's text
// has the secrets removed: a server may echo the key it was sent.
func Generate(ctx context.Context, m llms.Model, redact llm.Redactor, msgs []llms.MessageContent, opts ...llms.CallOption) (llm.Response, error) {
	ctx, seen := httpstatus.Watch(ctx)
	resp, err := m.GenerateContent(ctx, msgs, opts...)
	if seen.Redirect != nil {
		return llm.Response{}, seen.Redirect
	}
	if status := seen.Status; httpstatus.Failed(status) {
		if err == nil {
			err = errors.New("no error message")
		}
		text := err.Error()
		if !strings.Contains(text, strconv.Itoa(status)) {
			text = fmt.Sprintf("HTTP status %d: %s", status, text)
		}
		return llm.Response{}, &llm.HTTPError{Status: status, Err: scrubbed(redact, text, err)}
	}
	if err != nil {
		return llm.Response{}, scrubbed(redact, err.Error(), err)
	}
	if resp == nil || len(resp.Choices) == 0 {
		return llm.Response{}, errors.New("empty answer")
	}
	// A provider may split one answer into several choices (Anthropic: one
	// per content block, so text before a tool call comes first): the
	// first tool call is the answer, the texts are joined, and the usage,
	// which each block repeats, is counted once.
	var out llm.Response
	var texts []string
	counted := false
	for _, c := range resp.Choices {
		if c == nil {
			continue
		}
		if c.Content != "" {
			texts = append(texts, c.Content)
		}
		for _, tc := range c.ToolCalls {
			if out.ToolName == "" && tc.FunctionCall != nil {
				out.ToolName, out.Arguments = tc.FunctionCall.Name, tc.FunctionCall.Arguments
			}
		}
		if info := c.GenerationInfo; !counted {
			out.PromptTokens = intOf(info["PromptTokens"]) + intOf(info["InputTokens"])
			out.CompletionTokens = intOf(info["CompletionTokens"]) + intOf(info["OutputTokens"])
			out.TotalTokens = intOf(info["TotalTokens"])
			if out.TotalTokens == 0 {
				out.TotalTokens = out.PromptTokens + out.CompletionTokens
			}
			counted = out.TotalTokens > 0
		}
	}
	out.Text = strings.Join(texts, "\n")
	return out, nil
}

// scrubbed is err shown as text, with the secrets removed. When the text
// differs from err's own, the cause is not kept (its text may hold a
// secret) but for a context error, which callers test with errors.Is.
func scrubbed(redact llm.Redactor, text string, err error) error {
	clean := redact.Redact(text)
	if clean == err.Error() {
		return err
	}
	e := &redactedError{msg: clean}
	for _, sentinel := range []error{context.DeadlineExceeded, context.Canceled} {
		if errors.Is(err, sentinel) {
			e.cause = sentinel
		}
	}
	return e
}

type redactedError struct {
	msg   string
	cause error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.cause }

func intOf(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case int32:
		return int(x)
	case int64:
		return int(x)
	case float64:
		return int(x)
	}
	return 0
}
