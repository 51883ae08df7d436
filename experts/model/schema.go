package model

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/internal/textcut"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/privacy"
	"github.com/discover-db/discover/prompts"
	"github.com/discover-db/discover/warehouse"
)

// promptSchema describes the tables for a prompt from the inventory and
// what the experts found so far, within about budget tokens: tables are
// added in name order until the budget is reached and the rest counted
// as omitted. Values are clipped: they are data, and a long one is more
// likely noise (or an injection attempt) than help.
func promptSchema(ctx context.Context, env *experts.Env, budget int) (prompts.Schema, error) {
	profiles, err := experts.DecodeAll[catalog.ProfileDoc](ctx, env, catalog.KindProfile)
	if err != nil {
		return prompts.Schema{}, err
	}
	semantics, err := experts.DecodeAll[catalog.SemanticDoc](ctx, env, catalog.KindSemantic)
	if err != nil {
		return prompts.Schema{}, err
	}
	entities, err := experts.DecodeAll[catalog.EntityDoc](ctx, env, catalog.KindEntity)
	if err != nil {
		return prompts.Schema{}, err
	}
	s := prompts.Schema{Dialect: env.Dialect().Name()}
	used := 0
	tables := append([]warehouse.Table{}, env.Tables...)
	sort.Slice(tables, func(i, j int) bool { return tables[i].Name.String() < tables[j].Name.String() })
	for _, t := range tables {
		name := t.Name.String()
		pt := prompts.Table{Name: name, Kind: t.Kind, PrimaryKey: t.PrimaryKey, Columns: []prompts.Column{}}
		if e, ok := entities[name]; ok {
			pt.Entity = e.Doc.Type
		}
		pt.References = DeclaredReferences(t)
		for _, c := range t.Columns {
			key := name + "." + c.Name
			var prof *catalog.ProfileDoc
			if p, ok := profiles[key]; ok {
				prof = &p.Doc
				if pt.Rows == nil && !p.Doc.Sampled {
					r := p.Doc.Rows
					pt.Rows = &r
				}
			}
			sem := semantics[key].Doc
			pt.Columns = append(pt.Columns, PromptColumn(c, prof, sem.SemanticType, sem.PII, env.Options.LLMAllowPII))
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

// DeclaredReferences renders a table's declared foreign keys for a
// prompt: "col -> table(col)". The ask command's prompts use it too.
func DeclaredReferences(t warehouse.Table) []string {
	var out []string
	for _, fk := range t.ForeignKeys {
		out = append(out, fmt.Sprintf("%s -> %s(%s)", strings.Join(fk.Columns, ", "), fk.RefTable, strings.Join(fk.RefColumns, ", ")))
	}
	return out
}

// PromptColumn describes a column for a prompt with what is known of it:
// its profile (nil when none) and semantic type. Frequent values are data:
// at most five, each clipped, since a long one is more likely noise (or an
// injection attempt) than help. A column that holds personal data (pii,
// the semantic expert's finding; or, before it, what privacy.Detect makes
// of the name, the type and those values) gets its name and statistics
// only, unless allowPII (--llm-allow-pii): its values would go to whoever
// runs the model.
func PromptColumn(c warehouse.Column, p *catalog.ProfileDoc, semantic string, pii *catalog.PIIDoc, allowPII bool) prompts.Column {
	pc := prompts.Column{Name: c.Name, Type: c.Type, Semantic: semantic}
	if p != nil {
		pc.NullFraction, pc.Distinct = p.NullFraction, p.DistinctCount
		if !allowPII {
			if cat := personal(c, p, semantic, pii); cat != "" {
				pc.Personal = cat
				return pc
			}
		}
		for i, v := range p.TopValues {
			if i == 5 {
				break
			}
			pc.Examples = append(pc.Examples, textcut.Bytes(v.Value, 40))
		}
	}
	return pc
}

// personal is the kind of personal data a column holds, "" for none known.
func personal(c warehouse.Column, p *catalog.ProfileDoc, semantic string, pii *catalog.PIIDoc) string {
	if pii != nil {
		return pii.Category
	}
	vals := p.Values()
	conf := 0.0
	if semantic != "" {
		conf = 0.8
	}
	if f, ok := privacy.Detect(privacy.Column{Words: naming.Words(c.Name), SemanticType: semantic, SemanticConfidence: conf, Values: vals}); ok {
		return f.Category
	}
	return ""
}

// TablesIn picks the tables a repair prompt shows: the hypothesis' table
// and those the query names, so the prompt stays small.
func TablesIn(s prompts.Schema, table, sql string) []prompts.Table {
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
