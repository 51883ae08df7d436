// Package model is the model's expert: with a language model configured
// (orchestrator.Orchestrator.Model) it proposes hypotheses and tests them
// through llm.Controller, describes the tables, reads the database's
// domain and business rules, connects the other experts' findings, and
// writes the report's narrative. Everything it writes is recorded under
// expert Name ("llm") and tagged Tag, worded as the model's, never as a
// finding the data settled.
//
// It reads from the catalog, this run's entries only: the inventory
// (Env.Tables); profile, semantic, entity, table_stats, domain and
// relationship entries for its prompts; the hypothesis ledger, so as not to
// propose what is already there; pattern, insight, hypothesis and
// uncertainty entries (and the catalog's full-text search) to pick the
// findings a narrative or a collaboration note is given; the run's
// options and loop state, to tell when the run is ending; and its own
// progress entries, so each step runs once per run.
//
// It writes: hypothesis entries (the ledger, through hypotheses.Save);
// insight entries of kinds model_note, model_domain (InsightDomain),
// model_rule (InsightRule) and model_collaboration (InsightCollaboration,
// a CollabDoc); the narrative (catalog.Narratives, key llm:narrative);
// uncertainty entries for a step that failed, SQL the connection may not
// run, refused proposals and names it could not ground; and its own kinds,
// declared here: llm_call (each model request) and refusal (each query the
// controller refused); and progress entries llm:hypotheses, llm:notes,
// llm:semantics, llm:collaboration and llm:narrative.
package model

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/internal/textcut"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/prompts"
	"github.com/discover-db/discover/warehouse"
)

// Catalog kinds the model's expert adds. The report ignores them; they are
// the audit trail (discover catalog kind llm_call).
const (
	KindLLMCall = "llm_call" // key: llm:call:NNNNN (llm.Call: prompt id and version, outcome, tokens)
	KindRefusal = "refusal"  // key: refusal:HASH (RefusalDoc)
)

var (
	llmCalls = catalog.Define[llm.Call](KindLLMCall)
	refusals = catalog.Define[RefusalDoc](KindRefusal)
)

// Name is the name model work is recorded under: the expert of
// model-proposed hypotheses and notes, and of the progress events.
const Name = "llm"

// Tag marks every catalog entry whose content a model proposed.
const Tag = "model-proposed"

// RefusalDoc is a model-proposed query the controller did not accept.
type RefusalDoc struct {
	llm.Refusal
	Prompt    string `json:"prompt"`    // the prompt id that produced the proposal
	Statement string `json:"statement"` // the hypothesis it was to test
}

// Model work is bounded per run: a handful of hypotheses, each with at
// most paths formulations (New), and a schema summary of about this many
// tokens (context compaction: tables beyond it are left out and counted).
const (
	maxModelHypotheses = 5
	schemaTokenBudget  = 6000
)

// Expert joins the experts when a model is configured. It plans its
// steps once the inventory and profiles are in (phase 2), each once per
// run; a step that fails leaves an uncertainty and the deterministic
// findings as they are.
type Expert struct {
	client *llm.Client
	paths  int
	// door runs the model's SQL: the connection's privileges are checked
	// and results bounded in bytes (nil: a door on the source, allowing no
	// privileged connection).
	door *warehouse.Door

	// synthesisSeen is the first iteration this expert planned in phase 4
	// (everything covered and tested); the narrative waits one round more,
	// for the follow-ups that round runs. Plan is called from the loop's
	// goroutine only, so it needs no lock.
	synthesisSeen int
}

// New returns the expert of client's model. paths is how many SQL
// formulations it asks for per hypothesis, voted on (1 = no voting);
// door runs the model's SQL (nil: a door on the run's source that admits
// no privileged connection).
func New(client *llm.Client, paths int, door *warehouse.Door) *Expert {
	return &Expert{client: client, paths: max(paths, 1), door: door}
}

func (m *Expert) Name() string { return Name }

func (m *Expert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	if env.Phase < 2 {
		return nil, nil
	}
	steps := []struct {
		key, name, what string
		run             func(context.Context, *experts.Env) error
		due             func(context.Context, *experts.Env) (bool, error) // nil: as soon as phase 2 starts
	}{
		{"llm:hypotheses", "model hypotheses", "hypothesis generation", m.hypotheses, nil},
		{"llm:notes", "model notes", "table descriptions", m.notes, nil},
		{"llm:semantics", "model semantics", "semantic interpretation", m.semantics, m.semanticsDue},
		{"llm:collaboration", "model collaboration", "collaboration notes", m.collaborate, m.collaborationDue},
		{"llm:narrative", "model narrative", "report narrative", m.narrative, m.narrativeDue},
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
		if s.due != nil {
			due, err := s.due(ctx, env)
			if err != nil {
				return nil, fmt.Errorf("llm: plan %s: %w", s.name, err)
			}
			if !due {
				continue
			}
		}
		s := s
		tasks = append(tasks, experts.Task{Expert: Name, Name: s.name, Run: func(ctx context.Context) error {
			return m.runStep(ctx, env, s.key, s.what, s.run)
		}})
	}
	return tasks, nil
}

// runStep runs one model step and records its outcome: the step as done,
// or, when the model failed, an uncertainty saying the deterministic
// findings stand alone.
func (m *Expert) runStep(ctx context.Context, env *experts.Env, key, what string, run func(context.Context, *experts.Env) error) error {
	err := run(ctx, env)
	m.saveCalls(context.WithoutCancel(ctx), env)
	if err != nil && ctx.Err() != nil {
		return err // out of time: a resumed run tries again
	}
	if err != nil {
		// The model failed; the run goes on without it, and says so.
		desc := fmt.Sprintf("Model-assisted %s (%s %s) failed, so the deterministic experts' findings stand alone: %s",
			what, m.client.Provider(), m.client.Model(), m.client.Redact(err.Error()))
		if err := catalog.Uncertainties.Save(ctx, env, "llm:failed:"+key, catalog.UncertaintyDoc{Description: desc},
			1.0, []string{m.client.Redact(err.Error())}); err != nil {
			return err
		}
	}
	return catalog.Progress.Save(ctx, env, key, catalog.ProgressDoc{Step: key, Detail: errText(err)}, 1.0, nil)
}

// Finish runs the steps that wait for a later phase when the run ends
// before they were due (a stop by consensus, the iteration cap, or the
// rounds after the targets ran out): the semantic reading and the
// collaboration notes from what the experts found by then, then the
// narrative, so that every run with a model that finishes in time gets
// them, or says why not. Before phase 2 there is nothing to read.
func (m *Expert) Finish(ctx context.Context, env *experts.Env) error {
	steps := []struct {
		key, what string
		run       func(context.Context, *experts.Env) error
	}{
		{"llm:semantics", "semantic interpretation", m.semantics},
		{"llm:collaboration", "collaboration notes", m.collaborate},
		{"llm:narrative", "report narrative", m.narrative},
	}
	if env.Phase < 2 {
		steps = steps[2:]
	}
	var errs []error
	for _, s := range steps {
		done, err := env.Has(ctx, catalog.KindProgress, s.key)
		if err != nil {
			return err
		}
		if !done {
			errs = append(errs, m.runStep(ctx, env, s.key, s.what, s.run))
		}
	}
	return errors.Join(errs...)
}

func errText(err error) string {
	if err == nil {
		return "done"
	}
	return "failed"
}

// hypotheses asks the model for hypotheses, each with one test query, and,
// for a multi-path vote, paths-1 more formulations of each test in
// independent calls; puts every query through the controller, and records
// what passed in the ledger. The formulation calls run 4 at a time, all
// within the client's budget: when it runs out, each hypothesis is voted
// on with the formulations it has.
func (m *Expert) hypotheses(ctx context.Context, env *experts.Env) error {
	door := m.door
	if door == nil {
		door = env.Door()
	}
	if err := door.Admit(ctx); err != nil {
		// Not one model call is spent on tests that could not run.
		desc := "The model's hypotheses were not asked for or tested: its SQL does not run on this connection. " + err.Error()
		return catalog.Uncertainties.Save(ctx, env, "llm:privileged", catalog.UncertaintyDoc{Description: desc}, 1.0,
			[]string{"untrusted SQL refused: the connection's role could do more than read"})
	}
	schema, err := promptSchema(ctx, env, schemaTokenBudget)
	if err != nil {
		return err
	}
	known, err := knownStatements(ctx, env)
	if err != nil {
		return err
	}
	hs, pid, err := m.client.ProposeHypotheses(ctx, prompts.Hypotheses{Schema: schema, Max: maxModelHypotheses, Known: known})
	if err != nil {
		return err
	}
	// paths[i][k] is hypothesis i's k-th formulation ("" when its call
	// failed, why in missed[i][k]); the hypothesis' own query is the first,
	// and the slots keep the order whatever order the calls finish in.
	paths := make([][]llm.Formulation, len(hs))
	missed := make([][]error, len(hs))
	var g errgroup.Group
	g.SetLimit(4)
	for i, h := range hs {
		paths[i] = make([]llm.Formulation, max(m.paths, 1))
		missed[i] = make([]error, len(paths[i]))
		paths[i][0] = llm.Formulation{SQL: h.TestSQL, Prompt: pid}
		for k := 1; k < len(paths[i]); k++ {
			g.Go(func() error {
				sql, fpid, err := m.client.FormulateTest(ctx, prompts.Formulate{Dialect: schema.Dialect, Statement: h.Statement,
					Table: h.Table, Tables: llm.RelevantTables(schema, h.Table, h.Statement)})
				paths[i][k], missed[i][k] = llm.Formulation{SQL: sql, Prompt: fpid}, err
				return nil
			})
		}
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	ctl := &llm.Controller{Dialect: env.Dialect(), Tables: env.Tables, Querier: untrustedQuerier{env, door}, Guard: door.Guard}
	var refusals []RefusalDoc
	var firstErr error
	for i, h := range hs {
		rs, err := m.test(ctx, env, ctl, schema, pid, h, paths[i], missed[i])
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

// test runs one hypothesis' formulations through the controller (each
// with its own repair conversation), votes among those accepted, and
// saves the verdict. paths are the formulations asked for, missed why a
// slot has none.
func (m *Expert) test(ctx context.Context, env *experts.Env, ctl *llm.Controller, schema prompts.Schema, pid string, h llm.Hypothesis,
	paths []llm.Formulation, missed []error) ([]RefusalDoc, error) {
	var refusals []RefusalDoc
	var accepted []llm.Outcome
	var from []string // the prompt of each accepted formulation
	var results []*warehouse.Result
	var lastErr, why error
	tried := 0
	for k, f := range paths {
		if f.SQL == "" {
			if why == nil {
				why = missed[k]
			}
			continue
		}
		tried++
		revise := m.client.SQLReviser(prompts.SQLFix{Dialect: schema.Dialect, Statement: h.Statement},
			func(sql string) []prompts.Table { return TablesIn(schema, h.Table, sql) })
		out, err := ctl.Run(ctx, f.SQL, violationsCheck, revise)
		for _, r := range out.Refusals {
			refusals = append(refusals, RefusalDoc{Refusal: r, Prompt: f.Prompt, Statement: h.Statement})
		}
		if err != nil {
			lastErr = err
			if ctx.Err() != nil {
				return refusals, err
			}
			continue
		}
		accepted = append(accepted, out)
		from = append(from, f.Prompt)
		// Formulations agree when they count the same violations; any
		// other column ("checked") is context, not the answer.
		results = append(results, violationsOnly(out.Result))
	}
	if len(accepted) == 0 {
		return refusals, lastErr
	}
	winner, agree := llm.Vote(results)
	w := accepted[winner]
	checked := "the test query passed the guard, grounding and result checks"
	if from[winner] != pid {
		checked = fmt.Sprintf("the chosen test query, written by prompt %s, passed the guard, grounding and result checks", from[winner])
	}
	evidence := []string{fmt.Sprintf("proposed by model %s %s (prompt %s); %s", m.client.Provider(), m.client.Model(), pid, checked)}
	if len(paths) > 1 {
		vote := fmt.Sprintf("multi-path vote: %d of %d formulations accepted; the chosen one agrees with %d other(s)",
			len(accepted), tried, agree[winner])
		if tried < len(paths) {
			vote += fmt.Sprintf("; %d of the %d independent formulations asked for did not come", len(paths)-tried, len(paths))
			if why != nil {
				vote += " (" + textcut.Bytes(m.client.Redact(why.Error()), 200) + ")"
			}
		}
		evidence = append(evidence, vote)
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
	return refusals, hypotheses.Save(ctx, env, o, Tag)
}

// untrustedQuerier runs the model's SQL through the door, within the run's
// query budget.
type untrustedQuerier struct {
	env  *experts.Env
	door *warehouse.Door
}

func (q untrustedQuerier) Query(ctx context.Context, sql string) (*warehouse.Result, error) {
	return q.env.QueryUntrusted(ctx, q.door, sql)
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
func (m *Expert) notes(ctx context.Context, env *experts.Env) error {
	schema, err := promptSchema(ctx, env, schemaTokenBudget)
	if err != nil {
		return err
	}
	notes, pid, err := m.client.DescribeTables(ctx, prompts.Notes{Schema: schema})
	if err != nil {
		return err
	}
	index := naming.NewTableIndex(env.Tables)
	for _, n := range notes {
		t, ok := index.Find(n.Table)
		if !ok {
			continue // the notes' validation named what it dropped
		}
		table := t.Name.String()
		desc := "The model's reading, not checked against the data: " + strings.TrimSpace(n.Description)
		if e := strings.TrimSpace(n.Entity); e != "" {
			desc += fmt.Sprintf(" (entity: %s)", e)
		}
		doc := catalog.InsightDoc{Kind: "model_note", Tables: []string{table}, Columns: []string{}, Description: m.client.Redact(desc)}
		if err := catalog.Insights.Save(ctx, env, "llm:note:"+table, doc, 0.3,
			[]string{fmt.Sprintf("written by model %s %s (prompt %s)", m.client.Provider(), m.client.Model(), pid)}, Tag); err != nil {
			return err
		}
	}
	return nil
}

// saveRefusals records each refused proposal with its reason, and one
// uncertainty that sums them up for the report.
func (m *Expert) saveRefusals(ctx context.Context, env *experts.Env, rs []RefusalDoc) error {
	if len(rs) == 0 {
		return nil
	}
	stages := map[string]int{}
	for _, r := range rs {
		r.SQL = textcut.Bytes(m.client.Redact(r.SQL), 2000)
		r.Reason = m.client.Redact(r.Reason)
		r.Statement = textcut.Bytes(m.client.Redact(r.Statement), 400)
		stages[r.Stage]++
		h := sha256.Sum256([]byte(r.Stage + "\x00" + r.SQL + "\x00" + r.Statement))
		if err := refusals.Save(ctx, env, "refusal:"+hex.EncodeToString(h[:])[:12], r, 1.0,
			[]string{r.Stage + ": " + textcut.Bytes(r.Reason, 300)}, Tag, r.Stage); err != nil {
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
	return catalog.Uncertainties.Save(ctx, env, "llm:refusals", catalog.UncertaintyDoc{Description: desc}, 1.0,
		[]string{fmt.Sprintf("%d refusals", len(rs))})
}

// saveCalls records the model requests made since the last save, each
// with its prompt id (name and version), outcome and tokens.
func (m *Expert) saveCalls(ctx context.Context, env *experts.Env) {
	for _, c := range m.client.TakeCalls() {
		_ = llmCalls.Save(ctx, env, fmt.Sprintf("llm:call:%05d", c.Seq), c, 1.0, []string{c.Outcome}, c.Prompt)
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
			out = append(out, textcut.Bytes(d.Statement, 200))
		}
		if len(out) == 20 {
			break
		}
	}
	return out, nil
}

// narrativeTokenBudget bounds the findings a narrative prompt carries;
// the facts and the instructions come on top (a few hundred tokens).
const narrativeTokenBudget = 2500

// narrativeDue says whether to write the narrative now: after the model's
// other steps (so their tested hypotheses count), and when the experts are
// done. The loop does not tell its experts that; what the catalog shows
// stands in for it: one round after phase 4 (everything covered and tested)
// began, which leaves that round to the experts' follow-ups, or at once
// when this round is likely the last (the iteration cap recorded with the
// run, or two rounds in a row with fewer than 2 new findings, which a third
// makes diminishing returns).
func (m *Expert) narrativeDue(ctx context.Context, env *experts.Env) (bool, error) {
	if env.Phase >= 4 && m.synthesisSeen == 0 {
		m.synthesisSeen = env.Iteration
	}
	for _, k := range []string{"llm:hypotheses", "llm:notes"} {
		done, err := env.Has(ctx, catalog.KindProgress, k)
		if err != nil || !done {
			return false, err
		}
	}
	if env.Phase >= 4 && env.Iteration > m.synthesisSeen {
		return true, nil
	}
	run, err := env.Catalog.GetRun(ctx, env.RunID)
	if err != nil {
		return false, fmt.Errorf("run %s: %w", env.RunID, err)
	}
	// Both documents are the command's and the loop's records; one that
	// does not decode only means this signal is missing.
	var opts struct {
		MaxIterations int `json:"max_iterations"`
	}
	_ = json.Unmarshal(run.Options, &opts)
	if opts.MaxIterations > 0 && env.Iteration >= opts.MaxIterations {
		return true, nil
	}
	var st catalog.LoopState
	_ = json.Unmarshal(run.State, &st)
	n := len(st.NewInsights)
	return n >= 2 && st.NewInsights[n-1] < 2 && st.NewInsights[n-2] < 2, nil
}

// narrative asks the model for the report's executive summary from the
// run's figures and its most relevant findings, and saves it as the
// model's.
func (m *Expert) narrative(ctx context.Context, env *experts.Env) error {
	data, err := narrativeData(ctx, env, narrativeTokenBudget)
	if err != nil {
		return err
	}
	text, pid, err := m.client.WriteNarrative(ctx, data)
	if err != nil {
		return err
	}
	doc := catalog.NarrativeDoc{Text: m.client.Redact(text), Provider: m.client.Provider(), Model: m.client.Model(), Prompt: pid,
		Findings: len(data.Findings), Omitted: data.Omitted}
	// Confidence 0: nothing in it was checked against the data.
	return catalog.Narratives.Save(ctx, env, "llm:narrative", doc, 0,
		[]string{fmt.Sprintf("written by model %s %s (prompt %s) from %d findings; not checked against the data",
			m.client.Provider(), m.client.Model(), pid, len(data.Findings))}, Tag)
}

// narrativeData counts the run's findings for the facts and picks the
// findings to show by relevance within budget tokens.
func narrativeData(ctx context.Context, env *experts.Env, budget int) (prompts.Narrative, error) {
	f := prompts.NarrativeFacts{Dialect: env.Dialect().Name(), Database: env.Database(), Hypotheses: map[string]int{}}
	for _, t := range env.Tables {
		if t.Kind == "view" {
			f.Views++
		} else {
			f.Tables++
		}
	}
	stats, err := experts.DecodeAll[catalog.TableStatsDoc](ctx, env, catalog.KindTableStats)
	if err != nil {
		return prompts.Narrative{}, err
	}
	for _, t := range env.Tables {
		if st, ok := stats[t.Name.String()]; ok && t.Kind != "view" {
			f.Rows += st.Doc.Rows
		}
	}
	domain, err := experts.DecodeAll[catalog.DomainDoc](ctx, env, catalog.KindDomain)
	if err != nil {
		return prompts.Narrative{}, err
	}
	if d, ok := domain["domain"]; ok && d.Doc.Label != "" {
		f.Domain, f.DomainConfidence = textcut.Bytes(d.Doc.Label, 60), d.Entry.Confidence
	}
	var candidates []catalog.Entry
	for _, kind := range []string{catalog.KindRelationship, catalog.KindPattern, catalog.KindInsight, catalog.KindHypothesis, catalog.KindUncertainty} {
		es, err := env.RunEntries(ctx, kind)
		if err != nil {
			return prompts.Narrative{}, fmt.Errorf("llm: narrative: %w", err)
		}
		for _, e := range es {
			switch kind {
			case catalog.KindRelationship:
				f.Relationships++
			case catalog.KindPattern:
				f.Patterns++
				candidates = append(candidates, e)
			case catalog.KindInsight:
				// The model's own notes are its reading, not findings: a
				// summary built on them would launder them into facts.
				if e.Expert == Name {
					continue
				}
				f.Insights++
				candidates = append(candidates, e)
			case catalog.KindHypothesis:
				var d catalog.HypothesisDoc
				if e.Decode(&d) != nil {
					continue
				}
				f.Hypotheses[cmp.Or(d.Status, "proposed")]++
				if d.Status == "confirmed" || d.Status == "refuted" {
					candidates = append(candidates, e)
				}
			case catalog.KindUncertainty:
				f.Uncertainties++
			}
		}
	}
	// The most central tables are the largest; findings about them, and
	// about the domain, are what a summary should lead with.
	tables := slices.Clone(env.Tables)
	sort.SliceStable(tables, func(i, j int) bool {
		return stats[tables[i].Name.String()].Doc.Rows > stats[tables[j].Name.String()].Doc.Rows
	})
	var terms []string
	if f.Domain != "" {
		terms = append(terms, f.Domain)
	}
	for i, t := range tables {
		if i == 8 {
			break
		}
		terms = append(terms, t.Name.String())
	}
	ranked, err := byRelevance(ctx, env.Catalog, env.RunID, candidates, terms)
	if err != nil {
		return prompts.Narrative{}, err
	}
	items := make([]prompts.Finding, 0, len(ranked))
	for _, e := range ranked {
		items = append(items, findingOf(e))
	}
	kept, omitted, _, err := llm.Compact(items, budget)
	if err != nil {
		return prompts.Narrative{}, err
	}
	return prompts.Narrative{Facts: f, Findings: kept, Omitted: omitted}, nil
}

// findingOf renders an entry for a prompt: its kind and one clipped line.
// Clipping happens here, per item, so compaction only ever drops whole
// items.
func findingOf(e catalog.Entry) prompts.Finding {
	var text, kind string
	switch e.Kind {
	case catalog.KindHypothesis:
		var d catalog.HypothesisDoc
		_ = e.Decode(&d)
		kind, text = "hypothesis_"+d.Status, d.Statement
	case catalog.KindPattern:
		var d catalog.PatternDoc
		_ = e.Decode(&d)
		kind, text = d.Kind, d.Description
	default:
		var d catalog.InsightDoc
		_ = e.Decode(&d)
		kind, text = d.Kind, d.Description
	}
	return prompts.Finding{Kind: textcut.Bytes(kind, 40), Text: textcut.Bytes(text, 300), Confidence: math.Round(e.Confidence*100) / 100}
}

// byRelevance orders candidates (entries of run runID) by how well the
// catalog's full-text search ties them to terms, the earlier terms
// weighing more: each term's hits score by reciprocal rank, summed over the
// terms. Candidates no term finds follow, by confidence. Ties keep kind
// and key order, so the same catalog always gives the same prompt.
func byRelevance(ctx context.Context, cat *catalog.Catalog, runID string, candidates []catalog.Entry, terms []string) ([]catalog.Entry, error) {
	score := make(map[int64]float64, len(candidates))
	for _, e := range candidates {
		score[e.ID] = 0
	}
	for i, term := range terms {
		// Bounded: on a large catalog the tail of a term's hits is noise.
		hits, err := cat.Search(ctx, term, 1000)
		if err != nil {
			return nil, fmt.Errorf("llm: relevance of %q: %w", term, err)
		}
		rank := 0
		weight := 1 / float64(i+1)
		for _, h := range hits {
			if h.RunID != runID {
				continue
			}
			if _, ok := score[h.ID]; ok {
				score[h.ID] += weight / float64(rank+1)
				rank++
			}
		}
	}
	out := slices.Clone(candidates)
	slices.SortStableFunc(out, func(a, b catalog.Entry) int {
		return cmp.Or(cmp.Compare(score[b.ID], score[a.ID]), cmp.Compare(b.Confidence, a.Confidence),
			cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Key, b.Key))
	})
	return out, nil
}
