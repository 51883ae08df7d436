package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/discover-db/discover/prompts"
)

// The questions that let a model join the loop's planning, the semantic
// interpretation and the experts' collaboration. Like every ask, each
// answer is a typed proposal: the orchestrator grounds it in the catalog
// (task ids, table and column names, finding refs) before using any of it.

// TaskRank is one task of a model's ranking: the id the prompt gave it and
// why it should run early. Ids the prompt did not give are the caller's to
// ignore; the answer never adds or drops a task.
type TaskRank struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

type taskRanking struct {
	Ranking []TaskRank `json:"ranking"`

	max int
}

func (r *taskRanking) Validate() error {
	if len(r.Ranking) > r.max {
		return fmt.Errorf("ranking: %d entries, at most %d allowed", len(r.Ranking), r.max)
	}
	for i, t := range r.Ranking {
		switch {
		case strings.TrimSpace(t.ID) == "" || len(t.ID) > 40:
			return fmt.Errorf("ranking[%d].id: empty or longer than 40 characters", i)
		case len(t.Reason) > 300:
			return fmt.Errorf("ranking[%d].reason: longer than 300 characters", i)
		}
	}
	return nil
}

// PlanTool is the tool a model calls to rank a round's tasks.
var PlanTool = Tool{
	Name:        "rank_tasks",
	Description: "Rank the candidate tasks, most urgent first, each by its id with a short reason.",
	Schema: object(map[string]any{
		"ranking": map[string]any{"type": "array", "items": object(map[string]any{
			"id":     map[string]any{"type": "string", "description": "a task id exactly as given"},
			"reason": map[string]any{"type": "string", "description": "why it should run early, one short sentence"},
		})},
	}),
}

// RankTasks asks for the order in which to run data.Tasks. It returns the
// ranking as given (ids may be unknown or repeated: the caller fuses it with
// its own order) and the prompt id.
func (c *Client) RankTasks(ctx context.Context, data prompts.Plan) ([]TaskRank, string, error) {
	r := &taskRanking{max: 2*len(data.Tasks) + 5}
	pid, err := c.askPrompt(ctx, "plan", data, PlanTool, r)
	if err != nil {
		return nil, pid, err
	}
	return r.Ranking, pid, nil
}

// Interpretation is a model's reading of the database: its domain and the
// business rules it believes the data follows. Prose, shown as the model's;
// the names a rule gives are grounded by the caller.
type Interpretation struct {
	Domain DomainReading  `json:"domain"`
	Rules  []BusinessRule `json:"rules"`

	max int
}

// DomainReading is the business domain as a model reads it.
type DomainReading struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// BusinessRule is a rule in words with the tables and columns
// ("table.column") it concerns.
type BusinessRule struct {
	Rule    string   `json:"rule"`
	Tables  []string `json:"tables"`
	Columns []string `json:"columns"`
}

func (s *Interpretation) Validate() error {
	switch {
	case len(s.Domain.Label) > 60:
		return errors.New("domain.label: longer than 60 characters")
	case len(s.Domain.Description) > 500:
		return errors.New("domain.description: longer than 500 characters")
	case strings.TrimSpace(s.Domain.Label) == "" && strings.TrimSpace(s.Domain.Description) != "":
		return errors.New("domain.label: empty, but a description is given")
	case len(s.Rules) > s.max:
		return fmt.Errorf("rules: %d given, at most %d allowed", len(s.Rules), s.max)
	}
	for i, r := range s.Rules {
		switch {
		case strings.TrimSpace(r.Rule) == "" || len(r.Rule) > 400:
			return fmt.Errorf("rules[%d].rule: empty or longer than 400 characters", i)
		case len(r.Tables) == 0 || len(r.Tables) > 8:
			return fmt.Errorf("rules[%d].tables: %d given, want 1 to 8", i, len(r.Tables))
		case len(r.Columns) > 16:
			return fmt.Errorf("rules[%d].columns: %d given, at most 16 allowed", i, len(r.Columns))
		}
		for _, n := range append(append([]string{}, r.Tables...), r.Columns...) {
			if strings.TrimSpace(n) == "" || len(n) > 200 {
				return fmt.Errorf("rules[%d]: a table or column name is empty or longer than 200 characters", i)
			}
		}
	}
	return nil
}

// SemanticsTool is the tool a model calls with its reading of the database.
var SemanticsTool = Tool{
	Name:        "interpret_database",
	Description: "Give the business domain of the database and the business rules its data seems to follow.",
	Schema: object(map[string]any{
		"domain": object(map[string]any{
			"label":       map[string]any{"type": "string", "description": "one to four words"},
			"description": map[string]any{"type": "string", "description": "one or two sentences"},
		}),
		"rules": map[string]any{"type": "array", "items": object(map[string]any{
			"rule":    map[string]any{"type": "string", "description": "the rule, in one plain sentence"},
			"tables":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"columns": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "as table.column"},
		})},
	}),
}

// InterpretDatabase asks for the domain and at most data.MaxRules rules.
func (c *Client) InterpretDatabase(ctx context.Context, data prompts.Semantics) (Interpretation, string, error) {
	in := &Interpretation{max: max(data.MaxRules, 1)}
	pid, err := c.askPrompt(ctx, "semantics", data, SemanticsTool, in)
	if err != nil {
		return Interpretation{}, pid, err
	}
	return *in, pid, nil
}

// CollabNote says what findings of different experts mean together; it
// cites them by the refs the prompt gave ("kind:key").
type CollabNote struct {
	Findings []string `json:"findings"`
	Note     string   `json:"note"`
}

type collabSet struct {
	Notes []CollabNote `json:"notes"`

	max int
}

func (s *collabSet) Validate() error {
	if len(s.Notes) > s.max {
		return fmt.Errorf("notes: %d given, at most %d allowed", len(s.Notes), s.max)
	}
	for i, n := range s.Notes {
		switch {
		case strings.TrimSpace(n.Note) == "" || len(n.Note) > 600:
			return fmt.Errorf("notes[%d].note: empty or longer than 600 characters", i)
		case len(n.Findings) < 2 || len(n.Findings) > 8:
			return fmt.Errorf("notes[%d].findings: %d cited, want 2 to 8", i, len(n.Findings))
		}
		for j, f := range n.Findings {
			if strings.TrimSpace(f) == "" || len(f) > 400 {
				return fmt.Errorf("notes[%d].findings[%d]: empty or longer than 400 characters", i, j)
			}
		}
	}
	return nil
}

// CollabTool is the tool a model calls with its collaboration notes.
var CollabTool = Tool{
	Name:        "write_collaboration_notes",
	Description: "Give notes that connect findings of different experts, each citing the findings' refs.",
	Schema: object(map[string]any{
		"notes": map[string]any{"type": "array", "items": object(map[string]any{
			"findings": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "the refs of the findings connected"},
			"note":     map[string]any{"type": "string", "description": "what they mean together, one or two sentences"},
		})},
	}),
}

// WriteCollaboration asks for at most data.MaxNotes notes on data.Findings.
func (c *Client) WriteCollaboration(ctx context.Context, data prompts.Collab) ([]CollabNote, string, error) {
	set := &collabSet{max: max(data.MaxNotes, 1)}
	pid, err := c.askPrompt(ctx, "collab", data, CollabTool, set)
	if err != nil {
		return nil, pid, err
	}
	return set.Notes, pid, nil
}
