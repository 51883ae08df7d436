package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts/model"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/privacy"
	"github.com/discover-db/discover/prompts"
	"github.com/discover-db/discover/warehouse"
)

// AskRowCap is the row cap of an answer's query. A list question is told
// to return at most 50 rows; a result reaching this cap is what a join
// without its key produces, and the controller says so to the model.
const AskRowCap = 1000

// askSchemaBudget bounds the schema a question's prompt carries, in
// estimated tokens; the tables the question names come first.
const askSchemaBudget = 6000

// AskOptions is one question to answer.
type AskOptions struct {
	Question     string
	Paths        int           // independent answers to vote on (1 = off)
	QueryTimeout time.Duration // per query against the database
	// Run is a finished discovery of this database whose findings describe
	// it in the prompt; empty for the schema alone.
	Run string
	// AllowPrivileged runs the model's SQL even when the connection's role
	// could do more than read (--allow-privileged).
	AllowPrivileged bool
	// AllowPII lets the values of personal-data columns into the prompt
	// (--llm-allow-pii); otherwise their names and statistics only.
	AllowPII bool
	// ShowPII returns the result's values of personal-data columns as they
	// are (--show-pii); otherwise they are masked (privacy.MaskRows).
	ShowPII bool
}

// AskResult is a question's answer: the accepted query and its result,
// what the controller checked, and the model's words marked as such.
type AskResult struct {
	Question    string            `json:"question"`
	SQL         string            `json:"sql"`
	Columns     []string          `json:"columns"`
	Rows        [][]any           `json:"rows"`
	RowCount    int               `json:"row_count"` // rows the query returned (up to the row cap)
	Truncated   bool              `json:"truncated"` // more rows than shown
	Explanation string            `json:"explanation"`
	Checks      []string          `json:"checks"`   // what the controller verified, and the vote
	Warnings    []string          `json:"warnings"` // e.g. an empty result the model kept
	Refusals    []llm.Refusal     `json:"refusals"` // proposals refused on the way
	Context     string            `json:"context"`  // where the prompt's description came from
	LLM         catalog.LLMUsage  `json:"llm"`
	Prompts     map[string]string `json:"prompts"` // prompt ids used (name/version)
}

// ErrNoAnswer: no query the model proposed passed the controller.
var ErrNoAnswer = errors.New("no query passed the controller")

// Ask has the model answer a question with one query, which passes the
// same Controller as discovery's model work (guard, grounding, timeout and
// row cap, result checks, up to 3 repairs) before its result is shown.
// cat may be nil; with opts.Run set, that discovery's findings describe
// the database. On ErrNoAnswer the result still carries the refusals.
func Ask(ctx context.Context, src warehouse.Source, cat *catalog.Catalog, client *llm.Client, opts AskOptions) (AskResult, error) {
	res := AskResult{Question: opts.Question, Context: "schema only", Prompts: map[string]string{}, Checks: []string{},
		Warnings: []string{}, Refusals: []llm.Refusal{}}
	// Refused before the model is asked anything: its SQL would not run.
	door := &warehouse.Door{Source: src, AllowPrivileged: opts.AllowPrivileged}
	if err := door.Admit(ctx); err != nil {
		return res, fmt.Errorf("ask: %w", err)
	}
	tables, err := src.Tables(ctx)
	if err != nil {
		return res, fmt.Errorf("ask: list tables: %w", err)
	}
	if len(tables) == 0 {
		return res, errors.New("ask: the database has no tables")
	}
	var k *askKnowledge
	if cat != nil && opts.Run != "" {
		if k, err = loadKnowledge(ctx, cat, opts.Run); err != nil {
			return res, err
		}
		res.Context = "schema and discovery " + opts.Run
	}
	schema := askSchema(src.Dialect().Name(), opts.Question, tables, k, askSchemaBudget, opts.AllowPII)

	ctl := &llm.Controller{Dialect: src.Dialect(), Tables: tables, Querier: askQuerier{door, opts.QueryTimeout}, Guard: door.Guard}
	type candidate struct {
		answer llm.Answer
		out    llm.Outcome
	}
	var accepted []candidate
	var emptyKept *candidate
	var lastErr error
	for path := 0; path < max(opts.Paths, 1); path++ {
		a, pid, err := client.AnswerQuestion(ctx, prompts.Ask{Question: opts.Question, Schema: schema}, path > 0)
		if pid != "" {
			res.Prompts["ask"] = pid
		}
		if err != nil {
			lastErr = err
			if ctx.Err() != nil || errors.Is(err, llm.ErrBudget) || errors.Is(err, llm.ErrUnavailable) {
				break
			}
			continue
		}
		revise := func(ctx context.Context, sql, problem string) (string, error) {
			res.Prompts["askfix"] = askfixID()
			r, err := client.ReviseAnswer(ctx, prompts.AskFix{Dialect: src.Dialect().Name(), Question: opts.Question, SQL: sql, Problem: problem,
				Tables: model.TablesIn(schema, "", sql)})
			if err != nil {
				return "", err
			}
			if r.Explanation != "" {
				a.Explanation = r.Explanation
			}
			return r.SQL, nil
		}
		out, err := ctl.Run(ctx, a.SQL, nil, revise)
		res.Refusals = append(res.Refusals, out.Refusals...)
		if err == nil {
			accepted = append(accepted, candidate{a, out})
			continue
		}
		lastErr = err
		// An empty answer may be the true one ("orders with a negative
		// total": none). The model was told it was empty and kept it; show
		// it, saying so, rather than nothing.
		if n := len(out.Refusals); n > 0 && emptyKept == nil {
			last := out.Refusals[n-1]
			if last.Stage == llm.StageVerify && last.Reason == llm.ProblemNoRows {
				if r, qerr := ctl.Querier.Query(ctx, last.SQL); qerr == nil && len(r.Rows) == 0 {
					emptyKept = &candidate{a, llm.Outcome{SQL: last.SQL, Result: r}}
				}
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	calls, tokens := client.Usage()
	res.LLM = catalog.LLMUsage{Provider: client.Provider(), Model: client.Model(), Calls: calls, Tokens: tokens}
	for i := range res.Refusals {
		res.Refusals[i].SQL = client.Redact(res.Refusals[i].SQL)
		res.Refusals[i].Reason = client.Redact(res.Refusals[i].Reason)
	}
	checked := []string{"passed the allow-list guard: one read-only statement, side-effect-free functions and this database's tables only", "grounded: every table and column exists, joins carry their keys",
		"ran within the per-query timeout and row cap"}
	var chosen candidate
	switch {
	case len(accepted) > 0:
		results := make([]*warehouse.Result, len(accepted))
		for i, c := range accepted {
			results[i] = c.out.Result
		}
		winner, agree := llm.Vote(results)
		chosen = accepted[winner]
		res.Checks = append(checked, "result checked: rows returned, no NULL or row explosion")
		if opts.Paths > 1 {
			res.Checks = append(res.Checks, fmt.Sprintf("multi-path vote: %d of %d independent answers accepted; the chosen one agrees with %d other(s)",
				len(accepted), opts.Paths, agree[winner]))
		}
	case emptyKept != nil:
		chosen = *emptyKept
		res.Checks = checked
		res.Warnings = append(res.Warnings, "the query returned no rows; the model was told so and kept it, so the answer may be \"none\" or the query may be wrong")
	default:
		if lastErr == nil {
			lastErr = errors.New("no answer")
		}
		return res, fmt.Errorf("ask: %w: %s", ErrNoAnswer, client.Redact(lastErr.Error()))
	}
	r := chosen.out.Result
	res.SQL = client.Redact(chosen.out.SQL)
	res.Explanation = client.Redact(chosen.answer.Explanation)
	res.Columns, res.Rows, res.RowCount = r.Columns, r.Rows, len(r.Rows)
	if !opts.ShowPII {
		known := map[string]string{}
		if k != nil {
			for key, p := range k.pii {
				i := strings.LastIndexByte(key, '.')
				privacy.Known(known, key[:max(i, 0)], key[i+1:], p.Category)
			}
		}
		sources := warehouse.ResultSources(src.Dialect().Grammar(), chosen.out.SQL, r)
		if masked := privacy.MaskRows(res.Columns, sources, res.Rows, known); len(masked) > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("the values of %s hold personal data and are masked (--show-pii shows them)", strings.Join(masked, ", ")))
		}
	}
	return res, nil
}

// askfixID is the repair prompt's id as the templates hold it.
func askfixID() string {
	p, err := prompts.Render("askfix", prompts.AskFix{})
	if err != nil {
		return "askfix"
	}
	return p.ID()
}

type askQuerier struct {
	door    *warehouse.Door
	timeout time.Duration
}

func (q askQuerier) Query(ctx context.Context, sql string) (*warehouse.Result, error) {
	return q.door.Query(ctx, sql, warehouse.QueryOptions{Timeout: q.timeout, MaxRows: AskRowCap})
}

// askKnowledge is what a discovery learned that helps a model write a
// query: per column its profile and semantic type, per table its entity
// and rows, and the relationships the schema does not declare.
type askKnowledge struct {
	profiles  map[string]catalog.ProfileDoc // "table.column"
	semantics map[string]string             // "table.column" → semantic type
	pii       map[string]*catalog.PIIDoc    // "table.column" → the personal data it holds
	entities  map[string]string             // table → entity type
	relations map[string][]string           // table → "col -> table(col) (inferred, confidence 0.93)"
	rows      map[string]int64              // table → rows
}

func loadKnowledge(ctx context.Context, cat *catalog.Catalog, runID string) (*askKnowledge, error) {
	k := &askKnowledge{profiles: map[string]catalog.ProfileDoc{}, semantics: map[string]string{}, pii: map[string]*catalog.PIIDoc{}, entities: map[string]string{},
		relations: map[string][]string{}, rows: map[string]int64{}}
	each := func(kind string, f func(catalog.Entry)) error {
		es, err := cat.List(ctx, catalog.Filter{Kind: kind, RunID: runID})
		if err != nil {
			return fmt.Errorf("ask: read the catalog: %w", err)
		}
		for _, e := range es {
			f(e)
		}
		return nil
	}
	err := errors.Join(
		each(catalog.KindProfile, func(e catalog.Entry) {
			var d catalog.ProfileDoc
			if e.Decode(&d) == nil {
				k.profiles[d.Table+"."+d.Column] = d
			}
		}),
		each(catalog.KindSemantic, func(e catalog.Entry) {
			var d catalog.SemanticDoc
			if e.Decode(&d) == nil {
				k.semantics[d.Table+"."+d.Column] = d.SemanticType
				if d.PII != nil {
					k.pii[d.Table+"."+d.Column] = d.PII
				}
			}
		}),
		each(catalog.KindEntity, func(e catalog.Entry) {
			var d catalog.EntityDoc
			if e.Decode(&d) == nil {
				k.entities[d.Table] = d.Type
			}
		}),
		each(catalog.KindTableStats, func(e catalog.Entry) {
			var d catalog.TableStatsDoc
			if e.Decode(&d) == nil {
				k.rows[d.Table] = d.Rows
			}
		}),
		each(catalog.KindRelationship, func(e catalog.Entry) {
			var d catalog.RelationshipDoc
			if e.Decode(&d) != nil || d.Source == "declared" {
				return // declared ones come from the schema itself
			}
			k.relations[d.FromTable] = append(k.relations[d.FromTable], fmt.Sprintf("%s -> %s(%s) (%s, confidence %.2f)",
				strings.Join(d.FromColumns, ", "), d.ToTable, strings.Join(d.ToColumns, ", "), d.Source, e.Confidence))
		}),
	)
	return k, err
}

// askSchema describes the tables for the question's prompt: the tables
// whose names (or columns' names) the question mentions first, then the
// rest by name, within budget tokens.
func askSchema(dialect, question string, tables []warehouse.Table, k *askKnowledge, budget int, allowPII bool) prompts.Schema {
	words := map[string]bool{}
	for _, w := range naming.Words(question) {
		words[stem(w)] = true
	}
	scores := map[string]int{}
	for _, t := range tables {
		s := 0
		for _, w := range naming.Words(t.Name.Name) {
			if words[stem(w)] {
				s += 3
			}
		}
		for _, c := range t.Columns {
			for _, w := range naming.Words(c.Name) {
				if words[stem(w)] {
					s++
				}
			}
		}
		scores[t.Name.String()] = s
	}
	ordered := append([]warehouse.Table(nil), tables...)
	sort.SliceStable(ordered, func(i, j int) bool {
		a, b := ordered[i].Name.String(), ordered[j].Name.String()
		if scores[a] != scores[b] {
			return scores[a] > scores[b]
		}
		return a < b
	})
	s := prompts.Schema{Dialect: dialect, Tables: []prompts.Table{}}
	used := 0
	for _, t := range ordered {
		pt := askTable(t, k, allowPII)
		b, _ := json.Marshal(pt)
		if cost := len(b)/4 + 1; used+cost > budget && len(s.Tables) > 0 {
			s.Omitted++
			continue
		} else {
			used += cost
		}
		s.Tables = append(s.Tables, pt)
	}
	return s
}

func askTable(t warehouse.Table, k *askKnowledge, allowPII bool) prompts.Table {
	name := t.Name.String()
	pt := prompts.Table{Name: name, Kind: t.Kind, PrimaryKey: t.PrimaryKey, Columns: []prompts.Column{}, References: model.DeclaredReferences(t)}
	if k != nil {
		pt.References = append(pt.References, k.relations[name]...)
		pt.Entity = k.entities[name]
		if n, ok := k.rows[name]; ok {
			pt.Rows = &n
		}
	}
	for _, c := range t.Columns {
		var prof *catalog.ProfileDoc
		var semantic string
		var pii *catalog.PIIDoc
		if k != nil {
			key := name + "." + c.Name
			if p, ok := k.profiles[key]; ok {
				prof = &p
			}
			semantic, pii = k.semantics[key], k.pii[key]
		}
		pt.Columns = append(pt.Columns, model.PromptColumn(c, prof, semantic, pii, allowPII))
	}
	return pt
}

// stem folds the plural a question uses ("orders", "categories") and
// the one a table uses onto one word: the singular every expert reads
// names with (naming.Singular).
func stem(w string) string { return naming.Singular(strings.ToLower(w)) }
