package model

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/internal/textcut"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/prompts"
)

// Insight kinds of the model's semantic interpretation. Both are prose,
// worded and tagged as the model's reading; the deterministic domain
// (catalog.KindDomain) stays the report's domain.
const (
	InsightDomain = "model_domain" // key: llm:domain
	InsightRule   = "model_rule"   // key: llm:rule:HASH
)

// modelReading introduces every description the model wrote, as the
// model's notes are introduced.
const modelReading = "The model's reading, not checked against the data: "

// The semantic interpretation is bounded: a handful of rules, from a
// schema of the usual size, at the confidence of unchecked prose.
const (
	maxModelRules        = 8
	modelProseConfidence = 0.2
)

// semanticsDue waits for phase 3: by then the inventory, the profiles, the
// semantic types, the relationships and the deterministic domain are in,
// and the prompt can carry them.
func (m *Expert) semanticsDue(_ context.Context, env *experts.Env) (bool, error) {
	return env.Phase >= 3, nil
}

// semantics asks for the database's domain and business rules in words,
// grounds the rules' names in the inventory (a rule naming a table or
// column the catalog does not hold is dropped) and saves what is left as
// the model's reading.
func (m *Expert) semantics(ctx context.Context, env *experts.Env) error {
	schema, err := promptSchema(ctx, env, schemaTokenBudget)
	if err != nil {
		return err
	}
	data := prompts.Semantics{Schema: schema, MaxRules: maxModelRules}
	domain, err := experts.DecodeAll[catalog.DomainDoc](ctx, env, catalog.KindDomain)
	if err != nil {
		return err
	}
	if d, ok := domain["domain"]; ok {
		data.Domain = textcut.Bytes(d.Doc.Label, 60)
	}
	rels, err := experts.DecodeAll[catalog.RelationshipDoc](ctx, env, catalog.KindRelationship)
	if err != nil {
		return err
	}
	for _, r := range rels {
		data.Relationships = append(data.Relationships, relText(r.Doc))
	}
	sort.Strings(data.Relationships)
	if len(data.Relationships) > 60 {
		data.Relationships = data.Relationships[:60]
	}
	in, pid, err := m.client.InterpretDatabase(ctx, data)
	if err != nil {
		return err
	}
	evidence := []string{fmt.Sprintf("written by model %s %s (prompt %s); not checked against the data", m.client.Provider(), m.client.Model(), pid)}
	if label := strings.TrimSpace(in.Domain.Label); label != "" {
		desc := fmt.Sprintf("%sthe domain is %s.", modelReading, label)
		if d := strings.TrimSpace(in.Domain.Description); d != "" {
			desc += " " + d
		}
		doc := catalog.InsightDoc{Kind: InsightDomain, Tables: []string{}, Columns: []string{}, Description: m.client.Redact(desc)}
		if err := catalog.Insights.Save(ctx, env, "llm:domain", doc, modelProseConfidence, evidence, Tag); err != nil {
			return err
		}
	}
	g := newGrounder(env)
	var dropped []string
	seen := map[string]bool{}
	for _, r := range in.Rules {
		tables, columns, unknown := g.ground(r.Tables, r.Columns)
		if len(unknown) > 0 {
			dropped = append(dropped, unknown...)
			continue
		}
		text := strings.Join(strings.Fields(r.Rule), " ")
		h := sha256.Sum256([]byte(strings.ToLower(text)))
		key := "llm:rule:" + hex.EncodeToString(h[:])[:12]
		if seen[key] {
			continue
		}
		seen[key] = true
		doc := catalog.InsightDoc{Kind: InsightRule, Tables: tables, Columns: columns, Description: m.client.Redact(modelReading + text)}
		if err := catalog.Insights.Save(ctx, env, key, doc, modelProseConfidence, evidence, Tag); err != nil {
			return err
		}
	}
	if len(dropped) == 0 {
		return nil
	}
	desc := fmt.Sprintf("The model's business rules named %s that the catalog does not hold (%s); the rules naming them were dropped.",
		plural(len(dropped), "table or column", "tables or columns"), textcut.Bytes(m.client.Redact(strings.Join(dropped, ", ")), 300))
	return catalog.Uncertainties.Save(ctx, env, "llm:dropped:semantics", catalog.UncertaintyDoc{Description: desc}, 1.0,
		evidence, Tag)
}

func relText(r catalog.RelationshipDoc) string {
	return fmt.Sprintf("%s(%s) -> %s(%s)", r.FromTable, strings.Join(r.FromColumns, ", "), r.ToTable, strings.Join(r.ToColumns, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// grounder maps the names a model gives to the inventory's: a name spelled
// as a table is that table, another case only when it can mean one table
// (naming.TableIndex): "Users" and users are two tables.
type grounder struct {
	index naming.TableIndex
}

func newGrounder(env *experts.Env) grounder {
	return grounder{index: naming.NewTableIndex(env.Tables)}
}

// column resolves "table.column" (the table's name may itself hold a dot:
// schema.table), or "" when it names no column of a known table.
func (g grounder) column(name string) (table, full string) {
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		if t, ok := g.index.Find(name[:i]); ok {
			if c, ok := naming.FindColumn(t, name[i+1:]); ok {
				return t.Name.String(), t.Name.String() + "." + c
			}
		}
	}
	return "", ""
}

// ground returns the canonical tables and columns a rule names, or the
// names it does not know. A column is "table.column", or a bare column name
// that exactly one of the rule's tables has; a column's table joins the
// tables.
func (g grounder) ground(tables, columns []string) (ts, cs, unknown []string) {
	ts, cs = []string{}, []string{}
	has := map[string]bool{}
	addTable := func(t string) {
		if !has[t] {
			has[t] = true
			ts = append(ts, t)
		}
	}
	for _, t := range tables {
		found, ok := g.index.Find(strings.TrimSpace(t))
		if !ok {
			unknown = append(unknown, strings.TrimSpace(t))
			continue
		}
		addTable(found.Name.String())
	}
	for _, c := range columns {
		c = strings.TrimSpace(c)
		if table, full := g.column(c); full != "" {
			addTable(table)
			if !slices.Contains(cs, full) {
				cs = append(cs, full)
			}
			continue
		}
		var match []string
		for _, tn := range ts {
			t, _ := g.index.Find(tn)
			if col, ok := naming.FindColumn(t, c); ok {
				match = append(match, tn+"."+col)
			}
		}
		if len(match) != 1 {
			unknown = append(unknown, c)
			continue
		}
		if !slices.Contains(cs, match[0]) {
			cs = append(cs, match[0])
		}
	}
	return ts, cs, unknown
}
