package orchestrator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/prompts"
	"github.com/discover-db/discover/warehouse"
)

// Catalog kinds the model work adds. The report ignores them; they are the
// audit trail (discover catalog kind llm_call).
const (
	KindLLMCall = "llm_call" // key: llm:call:NNNNN (llm.Call: prompt id and version, outcome, tokens)
	KindRefusal = "refusal"  // key: refusal:HASH (RefusalDoc)
)

// ModelExpert is the name model work is recorded under: the expert of
// model-proposed hypotheses and notes, and of the progress events.
const ModelExpert = "llm"

// TagModel marks every catalog entry whose content a model proposed.
const TagModel = "model-proposed"

// RefusalDoc is a model-proposed query the controller did not accept.
type RefusalDoc struct {
	llm.Refusal
	Prompt    string `json:"prompt"`    // the prompt id that produced the proposal
	Statement string `json:"statement"` // the hypothesis it was to test
}

// Model work is bounded per run: a handful of hypotheses, each with at
// most Config.LLMPaths formulations, and a schema summary of about this
// many tokens (context compaction: tables beyond it are left out and
// counted).
const (
	maxModelHypotheses = 5
	schemaTokenBudget  = 6000
)

// modelExpert joins the experts when a model is configured. It plans its
// steps once the inventory and profiles are in (phase 2), each once per
// run; a step that fails leaves an uncertainty and the deterministic
// findings as they are.
type modelExpert struct {
	client *llm.Client
	paths  int
}

func (m *modelExpert) Name() string { return ModelExpert }

func (m *modelExpert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	if env.Phase < 2 {
		return nil, nil
	}
	steps := []struct {
		key, name, what string
		run             func(context.Context, *experts.Env) error
	}{
		{"llm:hypotheses", "model hypotheses", "hypothesis generation", m.hypotheses},
		{"llm:notes", "model notes", "table descriptions", m.notes},
	}
	var tasks []experts.Task
	for _, s := range steps {
		done, err := env.Has(ctx, catalog.KindProgress, s.key)
		if err != nil {
			return nil, fmt.Errorf("llm: plan: %w", err)
		}
		if done {
			continue
		}
		s := s
		tasks = append(tasks, experts.Task{Expert: ModelExpert, Name: s.name, Run: func(ctx context.Context) error {
			err := s.run(ctx, env)
			m.saveCalls(context.WithoutCancel(ctx), env)
			if err != nil && ctx.Err() != nil {
				return err // out of time: a resumed run tries again
			}
			if err != nil {
				// The model failed; the run goes on without it, and says so.
				desc := fmt.Sprintf("Model-assisted %s (%s %s) failed, so the deterministic experts' findings stand alone: %s",
					s.what, m.client.Provider(), m.client.Model(), m.client.Redact(err.Error()))
				if err := env.SaveDoc(ctx, ModelExpert, catalog.KindUncertainty, "llm:failed:"+s.key, catalog.UncertaintyDoc{Description: desc},
					1.0, []string{m.client.Redact(err.Error())}); err != nil {
					return err
				}
			}
			return env.SaveDoc(ctx, ModelExpert, catalog.KindProgress, s.key, catalog.ProgressDoc{Step: s.key, Detail: errText(err)}, 1.0, nil)
		}})
	}
	return tasks, nil
}

func errText(err error) string {
	if err == nil {
		return "done"
	}
	return "failed"
}

// hypotheses asks the model for hypotheses with test SQL, puts every
// query through the controller, and records what passed in the ledger.
func (m *modelExpert) hypotheses(ctx context.Context, env *experts.Env) error {
	schema, err := promptSchema(ctx, env, schemaTokenBudget)
	if err != nil {
		return err
	}
	known, err := knownStatements(ctx, env)
	if err != nil {
		return err
	}
	hs, pid, err := m.client.ProposeHypotheses(ctx, prompts.Hypotheses{Schema: schema, Max: maxModelHypotheses, Paths: m.paths, Known: known})
	if err != nil {
		return err
	}
	ctl := &llm.Controller{Dialect: env.Source.Dialect(), Tables: env.Tables, Querier: env}
	var refusals []RefusalDoc
	var firstErr error
	for _, h := range hs {
		rs, err := m.test(ctx, env, ctl, schema, pid, h)
		refusals = append(refusals, rs...)
		if err != nil && ctx.Err() != nil {
			return err
		}
		if err != nil && firstErr == nil && !errors.Is(err, llm.ErrRefused) {
			firstErr = err
		}
	}
	if err := m.saveRefusals(ctx, env, refusals); err != nil {
		return err
	}
	return firstErr
}

// test runs one hypothesis' formulations through the controller, votes
// among those accepted, and saves the verdict.
func (m *modelExpert) test(ctx context.Context, env *experts.Env, ctl *llm.Controller, schema prompts.Schema, pid string, h llm.Hypothesis) ([]RefusalDoc, error) {
	revise := func(ctx context.Context, sql, problem string) (string, error) {
		return m.client.ReviseSQL(ctx, prompts.SQLFix{Dialect: schema.Dialect, Statement: h.Statement, SQL: sql, Problem: problem,
			Tables: tablesIn(schema, h.Table, sql)})
	}
	var refusals []RefusalDoc
	var accepted []llm.Outcome
	var results []*warehouse.Result
	var lastErr error
	for _, sql := range h.TestSQL {
		out, err := ctl.Run(ctx, sql, violationsCheck, revise)
		for _, r := range out.Refusals {
			refusals = append(refusals, RefusalDoc{Refusal: r, Prompt: pid, Statement: h.Statement})
		}
		if err != nil {
			lastErr = err
			if ctx.Err() != nil {
				return refusals, err
			}
			continue
		}
		accepted = append(accepted, out)
		// Formulations agree when they count the same violations; any
		// other column ("checked") is context, not the answer.
		results = append(results, violationsOnly(out.Result))
	}
	if len(accepted) == 0 {
		return refusals, lastErr
	}
	winner, agree := llm.Vote(results)
	w := accepted[winner]
	evidence := []string{fmt.Sprintf("proposed by model %s %s (prompt %s); the test query passed the guard, grounding and result checks",
		m.client.Provider(), m.client.Model(), pid)}
	if len(h.TestSQL) > 1 {
		evidence = append(evidence, fmt.Sprintf("multi-path vote: %d of %d formulations accepted; the chosen one agrees with %d other(s)",
			len(accepted), len(h.TestSQL), agree[winner]))
	}
	hyp := hypotheses.Hypothesis{
		ID:        hypotheses.ID("llm", strings.ToLower(h.Table), h.Statement),
		Statement: h.Statement,
		Subject:   h.Table,
		SQL:       w.SQL,
		Expected:  h.Expected,
		Judge:     judgeViolations(evidence),
	}
	o, err := hypotheses.Test(ctx, verified{w.SQL, w.Result}, hyp)
	if err != nil {
		return refusals, fmt.Errorf("llm: hypothesis %q: %w", h.Statement, err)
	}
	return refusals, hypotheses.Save(ctx, env, ModelExpert, o, TagModel)
}

// verified answers the query the controller already ran and checked, so
// the ledger judges exactly that result without running it twice.
type verified struct {
	sql string
	res *warehouse.Result
}

func (v verified) Query(_ context.Context, sql string) (*warehouse.Result, error) {
	if sql != v.sql {
		return nil, fmt.Errorf("llm: %q is not the verified query", sql)
	}
	return v.res, nil
}

// violationsCheck is the test contract the prompts state: one row, with
// an integer column violations, not negative.
func violationsCheck(res *warehouse.Result) string {
	idx := -1
	for i, c := range res.Columns {
		if strings.EqualFold(c, "violations") {
			idx = i
		}
	}
	if len(res.Rows) != 1 || idx < 0 {
		return fmt.Sprintf("a test must return exactly one row with an integer column named violations; got %d row(s) and columns %v",
			len(res.Rows), res.Columns)
	}
	n, ok := hypotheses.Row{"v": res.Rows[0][idx]}.Int("v")
	if !ok || n < 0 {
		return fmt.Sprintf("violations must be a count (an integer >= 0), got %v", res.Rows[0][idx])
	}
	return ""
}

func violationsOnly(res *warehouse.Result) *warehouse.Result {
	for i, c := range res.Columns {
		if strings.EqualFold(c, "violations") {
			return &warehouse.Result{Columns: []string{c}, Rows: [][]any{{res.Rows[0][i]}}}
		}
	}
	return res
}

func judgeViolations(provenance []string) func(hypotheses.Row) hypotheses.Verdict {
	return func(row hypotheses.Row) hypotheses.Verdict {
		n, _ := row.Int("violations")
		figure := fmt.Sprintf("violations = %d", n)
		if checked, ok := row.Int("checked"); ok {
			figure += fmt.Sprintf(" of %d rows checked", checked)
		}
		ev := append([]string{figure}, provenance...)
		if n == 0 {
			return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.8, Evidence: ev}
		}
		return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.8, Evidence: ev}
	}
}

// notes asks for a description of each table: prose, saved as insights of
// kind model_note and worded as the model's reading, never as a finding.
func (m *modelExpert) notes(ctx context.Context, env *experts.Env) error {
	schema, err := promptSchema(ctx, env, schemaTokenBudget)
	if err != nil {
		return err
	}
	notes, pid, err := m.client.DescribeTables(ctx, prompts.Notes{Schema: schema})
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, t := range env.Tables {
		names[strings.ToLower(t.Name.String())] = t.Name.String()
	}
	for _, n := range notes {
		table := names[strings.ToLower(n.Table)]
		desc := "The model's reading, not checked against the data: " + strings.TrimSpace(n.Description)
		if e := strings.TrimSpace(n.Entity); e != "" {
			desc += fmt.Sprintf(" (entity: %s)", e)
		}
		doc := catalog.InsightDoc{Kind: "model_note", Tables: []string{table}, Columns: []string{}, Description: m.client.Redact(desc)}
		if err := env.SaveDoc(ctx, ModelExpert, catalog.KindInsight, "llm:note:"+table, doc, 0.3,
			[]string{fmt.Sprintf("written by model %s %s (prompt %s)", m.client.Provider(), m.client.Model(), pid)}, TagModel); err != nil {
			return err
		}
	}
	return nil
}

// saveRefusals records each refused proposal with its reason, and one
// uncertainty that sums them up for the report.
func (m *modelExpert) saveRefusals(ctx context.Context, env *experts.Env, rs []RefusalDoc) error {
	if len(rs) == 0 {
		return nil
	}
	stages := map[string]int{}
	for _, r := range rs {
		r.SQL = clip(m.client.Redact(r.SQL), 2000)
		r.Reason = m.client.Redact(r.Reason)
		r.Statement = clip(m.client.Redact(r.Statement), 400)
		stages[r.Stage]++
		h := sha256.Sum256([]byte(r.Stage + "\x00" + r.SQL + "\x00" + r.Statement))
		if err := env.SaveDoc(ctx, ModelExpert, KindRefusal, "refusal:"+hex.EncodeToString(h[:])[:12], r, 1.0,
			[]string{r.Stage + ": " + clip(r.Reason, 300)}, TagModel, r.Stage); err != nil {
			return err
		}
	}
	var parts []string
	for _, s := range []string{llm.StageGuard, llm.StageGrounding, llm.StageQuery, llm.StageVerify} {
		if stages[s] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", s, stages[s]))
		}
	}
	desc := fmt.Sprintf("The controller refused %d model-proposed queries (%s); they are listed as catalog entries of kind %q with the reasons.",
		len(rs), strings.Join(parts, ", "), KindRefusal)
	return env.SaveDoc(ctx, ModelExpert, catalog.KindUncertainty, "llm:refusals", catalog.UncertaintyDoc{Description: desc}, 1.0,
		[]string{fmt.Sprintf("%d refusals", len(rs))})
}

// saveCalls records the model requests made since the last save, each
// with its prompt id (name and version), outcome and tokens.
func (m *modelExpert) saveCalls(ctx context.Context, env *experts.Env) {
	for _, c := range m.client.TakeCalls() {
		_ = env.SaveDoc(ctx, ModelExpert, KindLLMCall, fmt.Sprintf("llm:call:%05d", c.Seq), c, 1.0, []string{c.Outcome}, c.Prompt)
	}
}

func knownStatements(ctx context.Context, env *experts.Env) ([]string, error) {
	es, err := env.RunEntries(ctx, catalog.KindHypothesis)
	if err != nil {
		return nil, fmt.Errorf("llm: hypotheses so far: %w", err)
	}
	var out []string
	for _, e := range es {
		var d catalog.HypothesisDoc
		if e.Decode(&d) == nil && d.Statement != "" {
			out = append(out, clip(d.Statement, 200))
		}
		if len(out) == 20 {
			break
		}
	}
	return out, nil
}

// promptSchema describes the tables for a prompt from the inventory and
// what the experts found so far, within about budget tokens: tables are
// added in name order until the budget is reached and the rest counted
// as omitted. Values are clipped: they are data, and a long one is more
// likely noise (or an injection attempt) than help.
func promptSchema(ctx context.Context, env *experts.Env, budget int) (prompts.Schema, error) {
	profiles, err := decodeAll[catalog.ProfileDoc](ctx, env, catalog.KindProfile)
	if err != nil {
		return prompts.Schema{}, err
	}
	semantics, err := decodeAll[catalog.SemanticDoc](ctx, env, catalog.KindSemantic)
	if err != nil {
		return prompts.Schema{}, err
	}
	entities, err := decodeAll[catalog.EntityDoc](ctx, env, catalog.KindEntity)
	if err != nil {
		return prompts.Schema{}, err
	}
	s := prompts.Schema{Dialect: env.Source.Dialect()}
	used := 0
	tables := append([]warehouse.Table{}, env.Tables...)
	sort.Slice(tables, func(i, j int) bool { return tables[i].Name.String() < tables[j].Name.String() })
	for _, t := range tables {
		name := t.Name.String()
		pt := prompts.Table{Name: name, Kind: t.Kind, PrimaryKey: t.PrimaryKey, Columns: []prompts.Column{}}
		if e, ok := entities[name]; ok {
			pt.Entity = e.doc.Type
		}
		for _, fk := range t.ForeignKeys {
			pt.References = append(pt.References, fmt.Sprintf("%s -> %s(%s)", strings.Join(fk.Columns, ", "), fk.RefTable, strings.Join(fk.RefColumns, ", ")))
		}
		for _, c := range t.Columns {
			pc := prompts.Column{Name: c.Name, Type: c.Type}
			key := name + "." + c.Name
			if p, ok := profiles[key]; ok {
				if pt.Rows == nil && !p.doc.Sampled {
					r := p.doc.Rows
					pt.Rows = &r
				}
				pc.NullFraction, pc.Distinct = p.doc.NullFraction, p.doc.DistinctCount
				for i, v := range p.doc.TopValues {
					if i == 5 {
						break
					}
					pc.Examples = append(pc.Examples, clip(v.Value, 40))
				}
			}
			if sd, ok := semantics[key]; ok {
				pc.Semantic = sd.doc.SemanticType
			}
			pt.Columns = append(pt.Columns, pc)
		}
		b, err := json.Marshal(pt)
		if err != nil {
			return s, fmt.Errorf("llm: schema for prompt: %w", err)
		}
		if cost := len(b)/4 + 1; used+cost > budget && len(s.Tables) > 0 {
			s.Omitted++
			continue
		} else {
			used += cost
		}
		s.Tables = append(s.Tables, pt)
	}
	return s, nil
}

// tablesIn picks the tables a repair prompt shows: the hypothesis' table
// and those the query names, so the prompt stays small.
func tablesIn(s prompts.Schema, table, sql string) []prompts.Table {
	var out []prompts.Table
	lower := strings.ToLower(sql)
	for _, t := range s.Tables {
		if strings.EqualFold(t.Name, table) || strings.Contains(lower, strings.ToLower(t.Name)) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return s.Tables
	}
	return out
}

// clip shortens s to about n bytes, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
