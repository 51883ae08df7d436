package model

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/internal/textcut"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/prompts"
	"github.com/discover-db/discover/redact"
)

// InsightCollaboration is a model's note on what findings of
// different experts mean together (key llm:collab:HASH). Its document is
// CollabDoc; its evidence names the findings it cites.
const InsightCollaboration = "model_collaboration"

// CollabDoc is an InsightDoc that also lists the findings a note cites,
// each as "kind:key".
type CollabDoc struct {
	catalog.InsightDoc
	Cites []string `json:"cites"`
}

// The collaboration step looks at the most connected tables only, within
// a token budget, and writes a few notes at the confidence of unchecked
// prose (at most 0.3, as the issue asks of every model note).
const (
	collabTables      = 5
	collabTokenBudget = 3000
	maxCollabNotes    = 5
	collabConfidence  = 0.25
)

// collabKinds are the kinds of findings a collaboration note may connect.
var collabKinds = []string{catalog.KindEntity, catalog.KindRelationship, catalog.KindPattern, catalog.KindInsight,
	catalog.KindHypothesis, catalog.KindSemantic, catalog.KindProfile}

// collaborationDue waits, like the semantic interpretation, for phase 3:
// relationships, profiles and semantic types are in.
func (m *Expert) collaborationDue(_ context.Context, env *experts.Env) (bool, error) {
	return env.Phase >= 3, nil
}

// collaborate gives the model the findings of different experts about the
// most connected tables and saves its notes on what they mean together.
// A note is kept only when every finding it cites exists in this run's
// catalog and they come from at least two experts.
func (m *Expert) collaborate(ctx context.Context, env *experts.Env) error {
	data, err := collabData(ctx, env, collabTokenBudget)
	if err != nil {
		return err
	}
	if len(data.Findings) < 2 {
		return nil // nothing to connect: no question worth a call
	}
	notes, pid, err := m.client.WriteCollaboration(ctx, data)
	if err != nil {
		return err
	}
	written := fmt.Sprintf("written by model %s %s (prompt %s); not checked against the data", m.client.Provider(), m.client.Model(), pid)
	var dropped []string
	droppedNotes := 0
	for _, n := range notes {
		cites, tables, ok, err := groundCites(ctx, env, n)
		if err != nil {
			return err
		}
		if !ok {
			droppedNotes++
			dropped = append(dropped, n.Findings...)
			continue
		}
		text := strings.Join(strings.Fields(n.Note), " ")
		h := sha256.Sum256([]byte(strings.Join(cites, "\x00") + "\x00" + strings.ToLower(text)))
		doc := CollabDoc{InsightDoc: catalog.InsightDoc{Kind: InsightCollaboration, Tables: tables, Columns: []string{},
			Description: m.client.Redact(modelReading + text)}, Cites: cites}
		if err := catalog.Insights.Save(ctx, env, "llm:collab:"+hex.EncodeToString(h[:])[:12], doc, collabConfidence,
			[]string{written, "connects " + strings.Join(cites, ", ")}, Tag); err != nil {
			return err
		}
	}
	if droppedNotes == 0 {
		return nil
	}
	desc := fmt.Sprintf("The model's collaboration notes cited findings that are not in the catalog, or findings of one expert only; %s dropped (cited: %s).",
		plural(droppedNotes, "note was", "notes were"), textcut.Bytes(m.client.Redact(strings.Join(dropped, ", ")), 300))
	return catalog.Uncertainties.Save(ctx, env, "llm:dropped:collaboration", catalog.UncertaintyDoc{Description: desc}, 1.0,
		[]string{written}, Tag)
}

// groundCites checks a note's citations against this run's catalog: each
// ref "kind:key" must name an entry of a kind a note may cite, not the
// model's own, and the entries must come from at least two experts. It
// returns the refs (deduplicated, sorted) and the tables they concern.
func groundCites(ctx context.Context, env *experts.Env, n llm.CollabNote) (cites, tables []string, ok bool, err error) {
	experts := map[string]bool{}
	tables = []string{}
	for _, ref := range n.Findings {
		ref = strings.TrimSpace(ref)
		if slices.Contains(cites, ref) {
			continue // cited twice
		}
		kind, key, found := strings.Cut(ref, ":")
		if !found || !slices.Contains(collabKinds, kind) {
			return nil, nil, false, nil
		}
		e, gerr := env.Catalog.Get(ctx, kind, key)
		if errors.Is(gerr, catalog.ErrNotFound) {
			return nil, nil, false, nil
		}
		if gerr != nil {
			return nil, nil, false, fmt.Errorf("llm: collaboration: %w", gerr)
		}
		if e.RunID != env.RunID || e.Expert == Name {
			return nil, nil, false, nil
		}
		experts[e.Expert] = true
		cites = append(cites, ref)
		for _, t := range entryTables(e) {
			if !slices.Contains(tables, t) {
				tables = append(tables, t)
			}
		}
	}
	if len(cites) < 2 || len(experts) < 2 {
		return nil, nil, false, nil
	}
	slices.Sort(cites)
	slices.Sort(tables)
	return cites, tables, true, nil
}

// collabData picks the most connected tables (most relationships, then
// most rows) and the findings of every expert but the model about them,
// ordered by relevance to those tables (byRelevance) and compacted to
// budget tokens.
func collabData(ctx context.Context, env *experts.Env, budget int) (prompts.Collab, error) {
	rels, err := experts.DecodeAll[catalog.RelationshipDoc](ctx, env, catalog.KindRelationship)
	if err != nil {
		return prompts.Collab{}, err
	}
	stats, err := experts.DecodeAll[catalog.TableStatsDoc](ctx, env, catalog.KindTableStats)
	if err != nil {
		return prompts.Collab{}, err
	}
	degree := map[string]int{}
	for _, r := range rels {
		degree[r.Doc.FromTable]++
		if r.Doc.ToTable != r.Doc.FromTable {
			degree[r.Doc.ToTable]++
		}
	}
	var names []string
	for _, t := range env.Tables {
		names = append(names, t.Name.String())
	}
	slices.SortStableFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(degree[b], degree[a]), cmp.Compare(stats[b].Doc.Rows, stats[a].Doc.Rows), cmp.Compare(a, b))
	})
	if len(names) > collabTables {
		names = names[:collabTables]
	}
	top := map[string]bool{}
	for _, n := range names {
		top[n] = true
	}
	var candidates []catalog.Entry
	tableOf := map[int64]string{}
	for _, kind := range collabKinds {
		es, err := env.RunEntries(ctx, kind)
		if err != nil {
			return prompts.Collab{}, fmt.Errorf("llm: collaboration: %w", err)
		}
		for _, e := range es {
			if e.Expert == Name || !collabWorthy(e) {
				continue
			}
			for _, t := range entryTables(e) {
				if top[t] {
					candidates = append(candidates, e)
					tableOf[e.ID] = t
					break
				}
			}
		}
	}
	ranked, err := byRelevance(ctx, env.Catalog, env.RunID, candidates, names)
	if err != nil {
		return prompts.Collab{}, err
	}
	// The values of personal-data columns the findings quote stay out of
	// the prompt (--llm-allow-pii lets them in).
	mask := func(s string) string { return s }
	if !env.Options.LLMAllowPII {
		r, err := redact.Redactor(ctx, env.Catalog, env.RunID)
		if err != nil {
			return prompts.Collab{}, err
		}
		mask = r.Text
	}
	items := make([]prompts.KeyFinding, 0, len(ranked))
	for _, e := range ranked {
		items = append(items, prompts.KeyFinding{Ref: e.Kind + ":" + e.Key, Expert: e.Expert, Table: tableOf[e.ID],
			Text: textcut.Bytes(mask(collabText(e)), 300), Confidence: math.Round(e.Confidence*100) / 100})
	}
	kept, omitted, _, err := llm.Compact(items, budget)
	if err != nil {
		return prompts.Collab{}, err
	}
	// Notes connect different experts' findings: one expert alone leaves
	// nothing to connect.
	by := map[string]bool{}
	for _, f := range kept {
		by[f.Expert] = true
	}
	if len(by) < 2 {
		kept, omitted = nil, len(items)
	}
	return prompts.Collab{Tables: names, Findings: kept, Omitted: omitted, MaxNotes: maxCollabNotes}, nil
}

// collabWorthy leaves out what says nothing to connect: hypotheses not
// decided.
func collabWorthy(e catalog.Entry) bool {
	if e.Kind != catalog.KindHypothesis {
		return true
	}
	var d catalog.HypothesisDoc
	return e.Decode(&d) == nil && (d.Status == "confirmed" || d.Status == "refuted")
}

// entryTables are the tables a finding is about.
func entryTables(e catalog.Entry) []string {
	var d struct {
		Table     string   `json:"table"`
		Tables    []string `json:"tables"`
		FromTable string   `json:"from_table"`
		ToTable   string   `json:"to_table"`
		Subject   string   `json:"subject"`
	}
	if e.Decode(&d) != nil {
		return nil
	}
	var out []string
	for _, t := range append([]string{d.Table, d.FromTable, d.ToTable}, d.Tables...) {
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if e.Kind == catalog.KindHypothesis && d.Subject != "" {
		// A subject is a table, a table.column, or a relationship's key
		// "from(cols)->to(cols)".
		for _, part := range strings.Split(d.Subject, "->") {
			t, _, _ := strings.Cut(part, "(")
			if t != "" && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// collabText renders a finding in one line for the collaboration prompt.
func collabText(e catalog.Entry) string {
	switch e.Kind {
	case catalog.KindEntity:
		var d catalog.EntityDoc
		_ = e.Decode(&d)
		return strings.TrimSpace(fmt.Sprintf("rows of %s are %s. %s", d.Table, d.Type, d.Description))
	case catalog.KindRelationship:
		var d catalog.RelationshipDoc
		_ = e.Decode(&d)
		s := relText(d) + ", " + d.Source
		if d.Cardinality != "" {
			s += ", " + d.Cardinality
		}
		if d.OrphanFraction != nil {
			s += fmt.Sprintf(", %.1f%% orphans", *d.OrphanFraction*100)
		}
		return s
	case catalog.KindSemantic:
		var d catalog.SemanticDoc
		_ = e.Decode(&d)
		s := fmt.Sprintf("%s.%s is of semantic type %s", d.Table, d.Column, d.SemanticType)
		if len(d.Reasons) > 0 {
			s += " (" + strings.Join(d.Reasons, "; ") + ")"
		}
		return s
	case catalog.KindProfile:
		var d catalog.ProfileDoc
		_ = e.Decode(&d)
		s := fmt.Sprintf("%s.%s: %d rows", d.Table, d.Column, d.Rows)
		if d.NullFraction != nil {
			s += fmt.Sprintf(", %.1f%% null", *d.NullFraction*100)
		}
		if d.DistinctCount != nil {
			s += fmt.Sprintf(", %d distinct", *d.DistinctCount)
		}
		if d.Min != nil && d.Max != nil {
			s += fmt.Sprintf(", from %s to %s", textcut.Bytes(*d.Min, 30), textcut.Bytes(*d.Max, 30))
		}
		for _, a := range d.Anomalies {
			s += fmt.Sprintf("; %s: %s", a.Kind, a.Description)
		}
		return s
	}
	f := findingOf(e)
	return f.Kind + ": " + f.Text
}
