package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/discover-db/discover/prompts"
)

// Answer is a model's answer to a user's question: a query, which the
// Controller still has to accept, and prose that is never checked.
type Answer struct {
	SQL         string `json:"sql"`
	Explanation string `json:"explanation"`
}

// ProblemNoRows is Verify's problem with an empty result: for a question
// it may be the true answer ("none"), which ask shows with a warning.
const ProblemNoRows = "the query returned no rows"

// maxExplanation bounds the prose: a sentence or two, not an essay.
const maxExplanation = 1000

// Validate checks the answer's shape; whether the query may run is the
// Controller's decision.
func (a *Answer) Validate() error {
	switch {
	case strings.TrimSpace(a.SQL) == "" || len(a.SQL) > 4000:
		return errors.New("sql: empty or longer than 4000 characters")
	case len(a.Explanation) > maxExplanation:
		return fmt.Errorf("explanation: %d characters, at most %d allowed", len(a.Explanation), maxExplanation)
	}
	return nil
}

// AnswerTool is the tool a model calls with the query answering a question.
var AnswerTool = Tool{
	Name:        "answer_question",
	Description: "Give one read-only SQL query that answers the question, and say how.",
	Schema: object(map[string]any{
		"sql":         map[string]any{"type": "string", "description": "one read-only SELECT statement"},
		"explanation": map[string]any{"type": "string", "description": "one or two sentences: how the query answers the question"},
	}),
}

// AnswerQuestion asks for a query answering data.Question. It returns the
// answer and the prompt id (name and version) it was asked with. An
// independent answer (one of several to vote on) is sampled at
// SampleTemperature, so that it is not the same most likely answer again.
func (c *Client) AnswerQuestion(ctx context.Context, data prompts.Ask, independent bool) (Answer, string, error) {
	if independent {
		ctx = sampled(ctx)
	}
	var a Answer
	pid, err := c.askPrompt(ctx, "ask", data, AnswerTool, &a)
	if err != nil {
		return Answer{}, pid, err
	}
	a.Explanation = strings.Join(strings.Fields(a.Explanation), " ")
	return a, pid, nil
}

// ReviseAnswer asks for a corrected answer query after the Controller
// refused the last one.
func (c *Client) ReviseAnswer(ctx context.Context, data prompts.AskFix) (Answer, error) {
	var a Answer
	if _, err := c.askPrompt(ctx, "askfix", data, AnswerTool, &a); err != nil {
		return Answer{}, err
	}
	a.Explanation = strings.Join(strings.Fields(a.Explanation), " ")
	return a, nil
}
