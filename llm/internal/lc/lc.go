// Package lc converts between llm's types and langchaingo's, for the
// provider adapters (llm/openai, llm/ollama, llm/anthropic).
package lc

import (
	"context"
	"fmt"

	"github.com/tmc/langchaingo/llms"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/internal/httpstatus"
)

// Messages converts a conversation.
func Messages(msgs []llm.Message) []llms.MessageContent {
	out := make([]llms.MessageContent, 0, len(msgs))
	for _, m := range msgs {
		role := llms.ChatMessageTypeHuman
		switch m.Role {
		case llm.RoleSystem:
			role = llms.ChatMessageTypeSystem
		case llm.RoleAssistant:
			role = llms.ChatMessageTypeAI
		}
		out = append(out, llms.TextParts(role, m.Text))
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
// answer. A non-200 status becomes an *llm.HTTPError carrying the
// provider's (credential-free) message.
func Generate(ctx context.Context, m llms.Model, msgs []llms.MessageContent, opts ...llms.CallOption) (llm.Response, error) {
	ctx, status := httpstatus.Watch(ctx)
	resp, err := m.GenerateContent(ctx, msgs, opts...)
	if err != nil {
		if httpstatus.Failed(*status) {
			return llm.Response{}, &llm.HTTPError{Status: *status, Err: err}
		}
		return llm.Response{}, err
	}
	if len(resp.Choices) == 0 {
		return llm.Response{}, fmt.Errorf("empty answer")
	}
	c := resp.Choices[0]
	out := llm.Response{Text: c.Content}
	if len(c.ToolCalls) > 0 && c.ToolCalls[0].FunctionCall != nil {
		out.ToolName = c.ToolCalls[0].FunctionCall.Name
		out.Arguments = c.ToolCalls[0].FunctionCall.Arguments
	}
	info := c.GenerationInfo
	out.PromptTokens = intOf(info["PromptTokens"]) + intOf(info["InputTokens"])
	out.CompletionTokens = intOf(info["CompletionTokens"]) + intOf(info["OutputTokens"])
	out.TotalTokens = intOf(info["TotalTokens"])
	if out.TotalTokens == 0 {
		out.TotalTokens = out.PromptTokens + out.CompletionTokens
	}
	return out, nil
}

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
