package llm

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/discover-db/discover/prompts"
)

// The typed questions discover asks a model. Each renders a versioned
// prompt, offers one tool whose JSON schema is the answer's shape, and
// validates the decoded answer before anyone uses it.

// Hypothesis is a claim a model proposes, with its test queries (one per
// path, for voting). The SQL is not trusted: it goes through a Controller.
type Hypothesis struct {
	Statement string   `json:"statement"`
	Table     string   `json:"table"`
	TestSQL   []string `json:"test_sql"`
	Expected  string   `json:"expected"`
}

type hypothesisSet struct {
	Hypotheses []Hypothesis `json:"hypotheses"`

	max, paths int
	tables     map[string]bool
}

func (s *hypothesisSet) Validate() error {
	if len(s.Hypotheses) > s.max {
		return fmt.Errorf("hypotheses: %d given, at most %d allowed", len(s.Hypotheses), s.max)
	}
	for i, h := range s.Hypotheses {
		switch {
		case strings.TrimSpace(h.Statement) == "":
			return fmt.Errorf("hypotheses[%d].statement: empty", i)
		case len(h.Statement) > 400:
			return fmt.Errorf("hypotheses[%d].statement: longer than 400 characters", i)
		case !s.tables[strings.ToLower(h.Table)]:
			return fmt.Errorf("hypotheses[%d].table: %q is not a table of the database", i, h.Table)
		case len(h.TestSQL) == 0 || len(h.TestSQL) > s.paths:
			return fmt.Errorf("hypotheses[%d].test_sql: %d queries given, want 1 to %d", i, len(h.TestSQL), s.paths)
		case len(h.Expected) > 400:
			return fmt.Errorf("hypotheses[%d].expected: longer than 400 characters", i)
		}
		for j, q := range h.TestSQL {
			if strings.TrimSpace(q) == "" || len(q) > 4000 {
				return fmt.Errorf("hypotheses[%d].test_sql[%d]: empty or longer than 4000 characters", i, j)
			}
		}
	}
	return nil
}

// HypothesesTool is the tool a model calls to propose hypotheses.
var HypothesesTool = Tool{
	Name:        "propose_hypotheses",
	Description: "Propose testable hypotheses about the database, each with read-only SQL that counts the rows contradicting it.",
	Schema: object(map[string]any{
		"hypotheses": map[string]any{"type": "array", "items": object(map[string]any{
			"statement": map[string]any{"type": "string", "description": "the claim, in one sentence"},
			"table":     map[string]any{"type": "string", "description": "the table the claim is mainly about"},
			"test_sql": map[string]any{"type": "array", "items": map[string]any{"type": "string"},
				"description": "one SELECT per formulation, returning one row with an integer column violations"},
			"expected": map[string]any{"type": "string", "description": "the result that confirms the claim, in words"},
		})},
	}),
}

// ProposeHypotheses asks for at most data.Max hypotheses about the tables
// in data.Schema. It returns the prompt id with the answer.
func (c *Client) ProposeHypotheses(ctx context.Context, data prompts.Hypotheses) ([]Hypothesis, string, error) {
	p, err := prompts.Render("hypotheses", data)
	if err != nil {
		return nil, "", fmt.Errorf("llm: %w", err)
	}
	set := &hypothesisSet{max: data.Max, paths: max(data.Paths, 1), tables: map[string]bool{}}
	for _, t := range data.Schema.Tables {
		set.tables[strings.ToLower(t.Name)] = true
	}
	if err := c.Ask(ctx, p, HypothesesTool, set); err != nil {
		return nil, p.ID(), err
	}
	return set.Hypotheses, p.ID(), nil
}

type revision struct {
	SQL string `json:"sql"`
}

func (r *revision) Validate() error {
	if strings.TrimSpace(r.SQL) == "" || len(r.SQL) > 4000 {
		return errors.New("sql: empty or longer than 4000 characters")
	}
	return nil
}

// ReviseTool is the tool a model calls with a corrected query.
var ReviseTool = Tool{
	Name:        "revise_sql",
	Description: "Give the corrected read-only SQL query.",
	Schema:      object(map[string]any{"sql": map[string]any{"type": "string"}}),
}

// ReviseSQL asks for a corrected test query.
func (c *Client) ReviseSQL(ctx context.Context, data prompts.SQLFix) (string, error) {
	p, err := prompts.Render("sqlfix", data)
	if err != nil {
		return "", fmt.Errorf("llm: %w", err)
	}
	var r revision
	if err := c.Ask(ctx, p, ReviseTool, &r); err != nil {
		return "", err
	}
	return r.SQL, nil
}

// TableNote is a model's reading of what a table holds: prose, marked as
// the model's wherever it is shown, never a finding about the data.
type TableNote struct {
	Table       string `json:"table"`
	Entity      string `json:"entity"`
	Description string `json:"description"`
}

type noteSet struct {
	Tables []TableNote `json:"tables"`

	known map[string]bool
}

func (s *noteSet) Validate() error {
	seen := map[string]bool{}
	for i, n := range s.Tables {
		t := strings.ToLower(n.Table)
		switch {
		case !s.known[t]:
			return fmt.Errorf("tables[%d].table: %q is not a table of the database", i, n.Table)
		case seen[t]:
			return fmt.Errorf("tables[%d].table: %q described twice", i, n.Table)
		case strings.TrimSpace(n.Description) == "" || len(n.Description) > 500:
			return fmt.Errorf("tables[%d].description: empty or longer than 500 characters", i)
		case len(n.Entity) > 60:
			return fmt.Errorf("tables[%d].entity: longer than 60 characters", i)
		}
		seen[t] = true
	}
	return nil
}

// NotesTool is the tool a model calls to describe tables.
var NotesTool = Tool{
	Name:        "describe_tables",
	Description: "Describe what each table's rows stand for.",
	Schema: object(map[string]any{
		"tables": map[string]any{"type": "array", "items": object(map[string]any{
			"table":       map[string]any{"type": "string"},
			"entity":      map[string]any{"type": "string"},
			"description": map[string]any{"type": "string"},
		})},
	}),
}

// DescribeTables asks for a note on each table in data.Schema.
func (c *Client) DescribeTables(ctx context.Context, data prompts.Notes) ([]TableNote, string, error) {
	p, err := prompts.Render("notes", data)
	if err != nil {
		return nil, "", fmt.Errorf("llm: %w", err)
	}
	set := &noteSet{known: map[string]bool{}}
	for _, t := range data.Schema.Tables {
		set.known[strings.ToLower(t.Name)] = true
	}
	if err := c.Ask(ctx, p, NotesTool, set); err != nil {
		return nil, p.ID(), err
	}
	return set.Tables, p.ID(), nil
}

// object is a strict JSON-schema object: every property required, no
// others allowed (what OpenAI's strict structured output demands).
func object(props map[string]any) map[string]any {
	req := make([]string, 0, len(props))
	for k := range props {
		req = append(req, k)
	}
	sort.Strings(req)
	return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
}

// narrativeAnswer is the report's executive summary as a model wrote it:
// prose, shown marked as the model's and never taken as a finding.
type narrativeAnswer struct {
	Summary string `json:"summary"`
}

// maxNarrative bounds the summary: a paragraph, not a report.
const maxNarrative = 1500

func (a *narrativeAnswer) Validate() error {
	s := strings.TrimSpace(a.Summary)
	switch {
	case s == "":
		return errors.New("summary: empty")
	case len(s) > maxNarrative:
		return fmt.Errorf("summary: %d characters, at most %d allowed", len(s), maxNarrative)
	}
	return nil
}

// NarrativeTool is the tool a model calls with the report's summary.
var NarrativeTool = Tool{
	Name:        "write_summary",
	Description: "Give the executive summary of the report: one plain paragraph.",
	Schema:      object(map[string]any{"summary": map[string]any{"type": "string", "description": "one paragraph, three to six sentences, plain text"}}),
}

// WriteNarrative asks for the report's executive summary from the run's
// figures and findings. The text comes back with its whitespace collapsed
// to one paragraph; the caller must still treat it as untrusted prose.
func (c *Client) WriteNarrative(ctx context.Context, data prompts.Narrative) (string, string, error) {
	p, err := prompts.Render("narrative", data)
	if err != nil {
		return "", "", fmt.Errorf("llm: %w", err)
	}
	var a narrativeAnswer
	if err := c.Ask(ctx, p, NarrativeTool, &a); err != nil {
		return "", p.ID(), err
	}
	return strings.Join(strings.Fields(a.Summary), " "), p.ID(), nil
}
