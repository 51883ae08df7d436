package orchestrator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/model"
	"github.com/discover-db/discover/internal/textcut"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/prompts"
)

// KindLLMPlan records the model's part in one round's planning (key
// llm:plan:ITERATION, PlanDoc): the order the round ran, each task's place
// in the experts' order and in the model's ranking, and the model's reasons.
// Like model.KindLLMCall it is an audit trail, not a finding: the report ignores
// it (discover catalog kind llm_plan).
const KindLLMPlan = "llm_plan"

var llmPlans = catalog.Define[PlanDoc](KindLLMPlan)

// PlanDoc is one round's planning with the model.
type PlanDoc struct {
	Iteration int           `json:"iteration"`
	Provider  string        `json:"provider"`
	Model     string        `json:"model"`
	Prompt    string        `json:"prompt"`
	Status    string        `json:"status"` // ranked | failed (the experts' order ran)
	Error     string        `json:"error,omitempty"`
	Order     []PlannedTask `json:"order"`                 // the order the round ran
	Ignored   []string      `json:"ignored_ids,omitempty"` // ids in the answer that named no task
	Calls     int64         `json:"calls"`                 // model requests the ranking took
	Tokens    int64         `json:"tokens"`
}

// PlannedTask is one task of a round, in the order it ran.
type PlannedTask struct {
	Expert        string `json:"expert"`
	Task          string `json:"task"`
	Deterministic int    `json:"deterministic_rank"`   // 1 = first in the experts' order
	Model         int    `json:"model_rank,omitempty"` // 0: the model did not rank it
	Reason        string `json:"reason,omitempty"`
}

// The model's ranking is fused with the experts' order by weighted
// reciprocal rank: a task scores planDetWeight/(planRRFK+its place in the
// experts' order) plus planModelWeight/(planRRFK+its place in the model's
// ranking), if ranked. The experts' order weighs more, so the model can
// move a task up a few places but not turn the round around.
const (
	planDetWeight   = 2.0
	planModelWeight = 1.0
	planRRFK        = 10.0
	// planMaxTasks and planMaxTables bound the prompt: tasks past the
	// first planMaxTasks keep their place after the ones shown.
	planMaxTasks  = 60
	planMaxTables = 40
	// Model planning may use at most 1/planBudgetShare of the run's model
	// calls and tokens, so it cannot starve the other steps; an ask is
	// counted as planAskCalls (the question and one repair).
	planBudgetShare = 4
	planAskCalls    = 2
)

// rankTasks is the plan step's model hook: with a model, and more tasks
// than run at once (only then does the order matter), it asks the model to
// rank the round's tasks, at most once per iteration and within its share
// of the model budget, and returns the tasks in the fused order. The model
// only reorders: every task is returned, once. When there is no model, or
// the ask fails, the tasks come back in the experts' order; a failure is
// recorded once per run as an uncertainty.
func (o *Orchestrator) rankTasks(ctx context.Context, env *experts.Env, m Metrics, tasks []experts.Task, parallel int) []experts.Task {
	if o.Model == nil || len(tasks) <= parallel || ctx.Err() != nil {
		return tasks
	}
	key := fmt.Sprintf("llm:plan:%d", env.Iteration)
	if done, err := env.Has(ctx, KindLLMPlan, key); err != nil || done {
		return tasks
	}
	calls, tokens, err := planSpent(ctx, env)
	if err != nil {
		return tasks
	}
	b := o.Model.Budget()
	if calls+planAskCalls > b.MaxCalls/planBudgetShare || tokens >= b.MaxTokens/planBudgetShare {
		return tasks // planning's share is spent: the experts' order stands
	}
	data, err := planData(ctx, env, m, tasks)
	if err != nil {
		return tasks
	}
	ids := make([]string, len(tasks))
	for i := range data.Tasks {
		ids[i] = data.Tasks[i].ID
	}
	c0, t0 := o.Model.Usage()
	ranking, pid, askErr := o.Model.RankTasks(ctx, data)
	c1, t1 := o.Model.Usage()
	// Recorded without Env.Save: the audit trail is not a finding, and must
	// not count as one toward the stop criteria.
	actx := context.WithoutCancel(ctx)
	for _, c := range o.Model.TakeCalls() {
		o.saveAudit(actx, env, model.KindLLMCall, fmt.Sprintf("llm:call:%05d", c.Seq), c, []string{c.Outcome}, c.Prompt)
	}
	if askErr != nil && ctx.Err() != nil {
		return tasks // out of time: the deadline, not the model, is at fault
	}
	doc := PlanDoc{Iteration: env.Iteration, Provider: o.Model.Provider(), Model: o.Model.Model(), Prompt: pid,
		Calls: c1 - c0, Tokens: t1 - t0}
	order := make([]int, len(tasks))
	for i := range order {
		order[i] = i
	}
	modelRank, reasons := make([]int, len(tasks)), make([]string, len(tasks))
	if askErr != nil {
		doc.Status, doc.Error = "failed", textcut.Bytes(o.Model.Redact(askErr.Error()), 500)
		o.planFailed(actx, env, askErr)
	} else {
		doc.Status = "ranked"
		order, modelRank, reasons, doc.Ignored = fuse(ids, ranking)
	}
	out := make([]experts.Task, 0, len(tasks))
	for _, i := range order {
		t := tasks[i]
		out = append(out, t)
		doc.Order = append(doc.Order, PlannedTask{Expert: t.Expert, Task: t.Name, Deterministic: i + 1, Model: modelRank[i],
			Reason: textcut.Bytes(o.Model.Redact(reasons[i]), 300)})
	}
	evidence := []string{fmt.Sprintf("ranked by model %s %s (prompt %s); fused with the experts' order by weighted reciprocal rank (experts %g, model %g)",
		doc.Provider, doc.Model, pid, planDetWeight, planModelWeight)}
	if askErr != nil {
		evidence = []string{"the model's ranking failed; the experts' order ran: " + doc.Error}
	}
	o.saveAudit(actx, env, KindLLMPlan, key, doc, evidence, model.Tag, doc.Status)
	if askErr == nil {
		ranked := 0
		for _, r := range modelRank {
			if r > 0 {
				ranked++
			}
		}
		o.emit(Event{Kind: EventStep, Step: "plan", Iteration: env.Iteration, Phase: env.Phase, Tasks: len(out),
			Message: fmt.Sprintf("model ranked %d of %d tasks", ranked, len(tasks))})
	}
	return out
}

// fuse orders tasks by weighted reciprocal-rank fusion of the experts'
// order (ids[i] names task i, in that order; "" for a task the model was
// not shown) and the model's ranking. Ids that name no task are ignored and
// returned; a repeated id keeps its first place. Ties keep the experts'
// order. With the weights above, the model can move a task a few places
// up, mostly in the tail of the round, but a full reversal of a round of up
// to six tasks leaves it as the experts ordered it. It returns the order (a permutation of the task indexes), each
// task's place in the model's ranking (0 when unranked) and its reason.
func fuse(ids []string, ranking []llm.TaskRank) (order, modelRank []int, reasons, ignored []string) {
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		if id != "" {
			index[id] = i
		}
	}
	modelRank, reasons = make([]int, len(ids)), make([]string, len(ids))
	r := 0
	for _, tr := range ranking {
		i, ok := index[strings.TrimSpace(tr.ID)]
		if !ok {
			ignored = append(ignored, textcut.Bytes(tr.ID, 40))
			continue
		}
		if modelRank[i] != 0 {
			continue
		}
		r++
		modelRank[i], reasons[i] = r, strings.TrimSpace(tr.Reason)
	}
	// Tasks the model left out follow its ranked ones, in the experts'
	// order: a ranking of one task is read as that task first, the rest as
	// they were, so it cannot lift the task over more than a full ranking
	// would.
	implied := r
	score := make([]float64, len(ids))
	order = make([]int, len(ids))
	for i := range ids {
		order[i] = i
		mr := modelRank[i]
		if mr == 0 {
			implied++
			mr = implied
		}
		score[i] = planDetWeight/(planRRFK+float64(i+1)) + planModelWeight/(planRRFK+float64(mr))
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(score[b], score[a]), cmp.Compare(a, b)) })
	return order, modelRank, reasons, ignored
}

// planData is the prompt's view of the round: the run's state, the tables
// by size, and the first planMaxTasks tasks with ids t1, t2… in the
// experts' order.
func planData(ctx context.Context, env *experts.Env, m Metrics, tasks []experts.Task) (prompts.Plan, error) {
	stats, err := experts.DecodeAll[catalog.TableStatsDoc](ctx, env, catalog.KindTableStats)
	if err != nil {
		return prompts.Plan{}, err
	}
	st := prompts.PlanState{Iteration: env.Iteration, Phase: m.Phase, Tables: []prompts.PlanTable{},
		Coverage: round2(m.Coverage), Confidence: round2(m.Confidence)}
	for _, t := range env.Tables {
		pt := prompts.PlanTable{Name: t.Name.String()}
		if s, ok := stats[pt.Name]; ok {
			rows := s.Doc.Rows
			pt.Rows = &rows
		}
		st.Tables = append(st.Tables, pt)
	}
	rows := func(t prompts.PlanTable) int64 {
		if t.Rows == nil {
			return -1
		}
		return *t.Rows
	}
	slices.SortStableFunc(st.Tables, func(a, b prompts.PlanTable) int {
		return cmp.Or(cmp.Compare(rows(b), rows(a)), cmp.Compare(a.Name, b.Name))
	})
	if len(st.Tables) > planMaxTables {
		st.TablesOmitted = len(st.Tables) - planMaxTables
		st.Tables = st.Tables[:planMaxTables]
	}
	p := prompts.Plan{State: st}
	for i, t := range tasks {
		if i == planMaxTasks {
			p.TasksOmitted = len(tasks) - planMaxTasks
			break
		}
		p.Tasks = append(p.Tasks, prompts.PlanTask{ID: fmt.Sprintf("t%d", i+1), Expert: t.Expert, Task: textcut.Bytes(t.Name, 200)})
	}
	return p, nil
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }

// planSpent is what model planning has used in this run so far, from its
// records in the catalog.
func planSpent(ctx context.Context, env *experts.Env) (calls, tokens int64, err error) {
	plans, err := experts.DecodeAll[PlanDoc](ctx, env, KindLLMPlan)
	if err != nil {
		return 0, 0, err
	}
	for _, p := range plans {
		calls += p.Doc.Calls
		tokens += p.Doc.Tokens
	}
	return calls, tokens, nil
}

// planFailed says once per run that the model's planning failed and the
// experts' order ran instead.
func (o *Orchestrator) planFailed(ctx context.Context, env *experts.Env, err error) {
	const key = "llm:failed:llm:plan"
	if done, herr := env.Has(ctx, catalog.KindUncertainty, key); herr != nil || done {
		return
	}
	reason := o.Model.Redact(err.Error())
	if errors.Is(err, llm.ErrBudget) {
		reason = "the model budget was spent: " + reason
	}
	desc := fmt.Sprintf("Model-assisted task planning (%s %s) failed, so the rounds ran their tasks in the experts' own order: %s",
		o.Model.Provider(), o.Model.Model(), reason)
	_ = catalog.Uncertainties.Save(ctx, env, key, catalog.UncertaintyDoc{Description: desc}, 1.0, []string{textcut.Bytes(reason, 500)})
}

// saveAudit records an entry of the model's audit trail for this round,
// outside the round's count of new findings.
func (o *Orchestrator) saveAudit(ctx context.Context, env *experts.Env, kind, key string, doc any, evidence []string, tags ...string) {
	e, err := catalog.NewEntry(kind, key, doc)
	if err != nil {
		return
	}
	e.Expert, e.RunID, e.Iteration, e.Confidence = model.Name, env.RunID, env.Iteration, 1.0
	e.Evidence, e.Tags = evidence, tags
	_ = o.Catalog.Save(ctx, e)
}
