// Package llm is how discover talks to a language model: a narrow Provider
// interface that the langchaingo adapters in its subfolders implement
// (llm/openai, llm/ollama, llm/anthropic; only they import langchaingo), a
// Client that asks for structured output (a tool call) and decodes it into
// typed, validated Go values within budgets, and the Controller that stands
// between any SQL a model proposes and the database.
//
// The model proposes; deterministic code decides. Nothing a model returns is
// run or recorded before it has been decoded, validated, grounded in the
// schema and passed by the SQL guard.
package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Role of a message in a conversation.
type Role string

// Roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one turn of a conversation.
type Message struct {
	Role Role
	Text string
}

// Tool is the function the model is asked to call; its Schema (JSON Schema,
// an object) is what the answer's arguments must follow.
type Tool struct {
	Name        string
	Description string
	Schema      map[string]any
}

// Request is one chat completion.
type Request struct {
	Messages  []Message
	Tool      Tool
	MaxTokens int // cap on the answer; 0 = the provider's default
	// Temperature to sample at: 0, the model's most likely answer, except
	// for requests meant as independent samples (SampleTemperature).
	Temperature float64
}

// Response is a provider's answer: the tool call's arguments when the model
// called the tool, else its text (which may still hold the JSON).
type Response struct {
	Text             string
	ToolName         string
	Arguments        string
	PromptTokens     int
	CompletionTokens int
	TotalTokens      int
}

// Provider is one chat model. Complete returns an *HTTPError (wrapped) when
// the server answered with a status other than 200, so that the Client can
// retry 429 and 5xx; any other error (a timeout, an unreadable body) is not
// retried. Implementations must not put credentials in their errors.
type Provider interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// HTTPError is a provider's non-200 answer.
type HTTPError struct {
	Status int
	Err    error
}

func (e *HTTPError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("HTTP status %d", e.Status)
	}
	return e.Err.Error()
}

func (e *HTTPError) Unwrap() error { return e.Err }

// Retryable reports whether a later attempt may succeed: rate limits and
// server errors.
func (e *HTTPError) Retryable() bool { return e.Status == 429 || e.Status >= 500 }

// Errors of the Client. Each is wrapped with the prompt and the cause.
var (
	// ErrBudget: the run's model call or token budget is spent.
	ErrBudget = errors.New("model budget spent")
	// ErrUnavailable: the model failed repeatedly; the Client stopped asking.
	ErrUnavailable = errors.New("model unavailable after repeated failures")
	// ErrInvalid: the answer did not decode or validate, even after one repair.
	ErrInvalid = errors.New("model answer invalid")
)

// Config selects and reaches a provider. Key is the API key, read from
// OPENAI_API_KEY or ANTHROPIC_API_KEY by the command and nowhere else; it
// must never be logged, saved or shown.
type Config struct {
	Provider string // openai, ollama, anthropic
	Model    string
	BaseURL  string
	Key      string
}

// Redactor removes secrets from text that may be shown or saved.
type Redactor []string

// Redact replaces every secret in s.
func (r Redactor) Redact(s string) string {
	for _, sec := range r {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	return s
}
