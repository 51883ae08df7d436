package llm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/discover-db/discover/prompts"
)

// The typed questions discover asks a model. Each renders a versioned
// prompt, offers one tool whose JSON schema is the answer's shape, and
// validates the decoded answer before anyone uses it.

// askPrompt renders the prompt name with data and asks it with tool,
// decoding the answer into out. It returns the prompt id (name and
// version) for the caller to record, "" when the prompt did not render.
func (c *Client) askPrompt(ctx context.Context, name string, data any, tool Tool, out Validator) (string, error) {
	p, err := prompts.Render(name, data)
	if err != nil {
		return "", fmt.Errorf("llm: %w", err)
	}
	return p.ID(), c.Ask(ctx, p, tool, out)
}

// Hypothesis is a claim a model proposes, with one test query. Further
// formulations, for a multi-path vote, come from FormulateTest. The SQL is
// not trusted: it goes through a Controller.
type Hypothesis struct {
	Statement string `json:"statement"`
	Table     string `json:"table"`
	TestSQL   string `json:"test_sql"`
	Expected  string `json:"expected"`
}

type hypothesisSet struct {
	Hypotheses []Hypothesis `json:"hypotheses"`

	max    int
	tables map[string]bool
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
		case strings.TrimSpace(h.TestSQL) == "" || len(h.TestSQL) > 4000:
			return fmt.Errorf("hypotheses[%d].test_sql: empty or longer than 4000 characters", i)
		case len(h.Expected) > 400:
			return fmt.Errorf("hypotheses[%d].expected: longer than 400 characters", i)
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
			"test_sql":  map[string]any{"type": "string", "description": "one SELECT returning one row with an integer column violations"},
			"expected":  map[string]any{"type": "string", "description": "the result that confirms the claim, in words"},
		})},
	}),
}

// ProposeHypotheses asks for at most data.Max hypotheses about the tables
// in data.Schema. It returns the prompt id with the answer.
func (c *Client) ProposeHypotheses(ctx context.Context, data prompts.Hypotheses) ([]Hypothesis, string, error) {
	set := &hypothesisSet{max: data.Max, tables: map[string]bool{}}
	for _, t := range data.Schema.Tables {
		set.tables[strings.ToLower(t.Name)] = true
	}
	pid, err := c.askPrompt(ctx, "hypotheses", data, HypothesesTool, set)
	if err != nil {
		return nil, pid, err
	}
	return set.Hypotheses, pid, nil
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

// ReviseSQL asks once for a corrected test query.
func (c *Client) ReviseSQL(ctx context.Context, data prompts.SQLFix) (string, error) {
	return c.SQLReviser(data, nil)(ctx, data.SQL, data.Problem)
}

// SQLReviser is a Reviser for a Controller's repair rounds that carries
// one conversation across them: each round renders the sqlfix prompt for
// the query and problem at hand, after the model's earlier answers and the
// rounds that refused them, so that the model sees what it already tried.
// When the conversation outgrows Budget.ConversationTokens its older turns
// are summarized (each attempt and its problem), never cut. tables picks
// the tables a round shows for its query; nil keeps base.Tables. A
// Reviser is for one proposal's rounds, called one at a time.
func (c *Client) SQLReviser(base prompts.SQLFix, tables func(sql string) []prompts.Table) Reviser {
	var cv conversation
	return func(ctx context.Context, sql, problem string) (string, error) {
		data := base
		data.SQL, data.Problem = sql, problem
		if tables != nil {
			data.Tables = tables(sql)
		}
		p, err := prompts.Render("sqlfix", data)
		if err != nil {
			return "", fmt.Errorf("llm: %w", err)
		}
		if len(cv) == 0 {
			cv = conversation{{Message: Message{RoleSystem, p.System}, pinned: true}}
		}
		// The round's prompt is whole in itself (statement, query,
		// problem, tables); a summary keeps its query and problem.
		next := append(slices.Clone(cv), turn{Message: Message{RoleUser, p.User}, note: &attempt{Answer: sql, Problem: problem}})
		var r revision
		answer, err := c.converse(ctx, p.ID(), next, ReviseTool, &r)
		if err != nil {
			return "", err
		}
		cv = append(next, turn{Message: Message{RoleAssistant, answer}})
		return r.SQL, nil
	}
}

// FormulateTool is the tool a model calls with one test query.
var FormulateTool = Tool{
	Name:        "write_test_sql",
	Description: "Give one read-only SQL query that counts the rows contradicting the statement.",
	Schema: object(map[string]any{"sql": map[string]any{"type": "string",
		"description": "one SELECT returning one row with an integer column violations"}}),
}

// FormulateTest asks for one more test query for a statement, in a call of
// its own that shows no other formulation and samples at
// SampleTemperature: the formulations of a multi-path vote are independent
// samples. It returns the query and the prompt id.
func (c *Client) FormulateTest(ctx context.Context, data prompts.Formulate) (string, string, error) {
	var r revision
	pid, err := c.askPrompt(sampled(ctx), "formulate", data, FormulateTool, &r)
	if err != nil {
		return "", pid, err
	}
	return r.SQL, pid, nil
}

// Formulation is one candidate test query of a hypothesis and the prompt
// (name and version) that wrote it.
type Formulation struct {
	SQL    string
	Prompt string
}

// RelevantTables picks the tables a formulation prompt shows for a
// statement about table: that table, the tables it references or that
// reference it, and any the statement names. It looks at no query, so a
// formulation learns nothing from another. With none found, all tables.
func RelevantTables(s prompts.Schema, table, statement string) []prompts.Table {
	lower := strings.ToLower(statement)
	main := strings.ToLower(table)
	refersTo := func(t prompts.Table, name string) bool {
		for _, r := range t.References {
			if _, target, ok := strings.Cut(r, "->"); ok {
				if ref, _, _ := strings.Cut(strings.TrimSpace(target), "("); strings.EqualFold(strings.TrimSpace(ref), name) {
					return true
				}
			}
		}
		return false
	}
	var mainTable *prompts.Table
	for i := range s.Tables {
		if strings.EqualFold(s.Tables[i].Name, table) {
			mainTable = &s.Tables[i]
		}
	}
	var out []prompts.Table
	for _, t := range s.Tables {
		name := strings.ToLower(t.Name)
		if name == main || refersTo(t, table) || (mainTable != nil && refersTo(*mainTable, t.Name)) || mentions(lower, name) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return s.Tables
	}
	return out
}

// mentions reports whether text names name as a word of its own.
func mentions(text, name string) bool {
	if name == "" {
		return false
	}
	word := func(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !word(text[j-1])) && (end == len(text) || !word(text[end])) {
			return true
		}
		i = j + 1
	}
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
	set := &noteSet{known: map[string]bool{}}
	for _, t := range data.Schema.Tables {
		set.known[strings.ToLower(t.Name)] = true
	}
	pid, err := c.askPrompt(ctx, "notes", data, NotesTool, set)
	if err != nil {
		return nil, pid, err
	}
	return set.Tables, pid, nil
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
	var a narrativeAnswer
	pid, err := c.askPrompt(ctx, "narrative", data, NarrativeTool, &a)
	if err != nil {
		return "", pid, err
	}
	return strings.Join(strings.Fields(a.Summary), " "), pid, nil
}
