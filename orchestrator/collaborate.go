package orchestrator

import (
	"context"
	"fmt"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
)

// collaborate cross-checks findings of different experts and records where
// they disagree or leave a gap, as uncertainties the report shows. It
// returns how many new or changed findings it saved.
func collaborate(ctx context.Context, env *experts.Env) (int, error) {
	before := env.NewFindings()
	profiles, err := experts.DecodeAll[catalog.ProfileDoc](ctx, env, catalog.KindProfile)
	if err != nil {
		return 0, err
	}
	semantics, err := env.RunEntries(ctx, catalog.KindSemantic)
	if err != nil {
		return 0, fmt.Errorf("collaborate: %w", err)
	}
	rels, err := experts.DecodeAll[catalog.RelationshipDoc](ctx, env, catalog.KindRelationship)
	if err != nil {
		return 0, err
	}
	hyps, err := experts.DecodeAll[catalog.HypothesisDoc](ctx, env, catalog.KindHypothesis)
	if err != nil {
		return 0, err
	}
	views := map[string]bool{}
	for _, t := range env.Tables {
		if t.Kind == "view" {
			views[t.Name.String()] = true
		}
	}
	referencing := map[string]bool{}
	for _, r := range rels {
		for _, c := range r.Doc.FromColumns {
			referencing[r.Doc.FromTable+"."+c] = true
		}
	}

	wanted := map[string]bool{}
	wantedInsight := map[string]bool{} // contradictions settled this round
	save := func(key, desc string, evidence ...string) error {
		wanted[key] = true
		return catalog.Uncertainties.Save(ctx, env.For("orchestrator"), key, catalog.UncertaintyDoc{Description: desc}, 0.8, evidence)
	}
	for _, e := range semantics {
		var s catalog.SemanticDoc
		if err := e.Decode(&s); err != nil {
			return 0, fmt.Errorf("collaborate: decode %s: %w", e.Key, err)
		}
		p, ok := profiles[e.Key]
		if !ok {
			continue
		}
		switch s.SemanticType {
		case "identifier":
			// The semantic expert calls it an identifier; the statistics must
			// agree. Exact counts settle it: values that repeat identify no
			// row, whatever the name says. Counts from a sample cannot, and
			// the doubt is left to the reader.
			if p.Doc.DistinctCount == nil || p.Doc.Rows == 0 || *p.Doc.DistinctCount >= p.Doc.Rows {
				break
			}
			figures := fmt.Sprintf("profile: %s distinct values in %s rows", catalog.Thousands(*p.Doc.DistinctCount), catalog.Thousands(p.Doc.Rows))
			if p.Doc.Sampled || p.Doc.DistinctIsEstimate {
				if err := save("conflict:identifier:"+e.Key,
					fmt.Sprintf("%s looks like an identifier, but a sample shows %s distinct values in %s rows.", e.Key,
						catalog.Thousands(*p.Doc.DistinctCount), catalog.Thousands(p.Doc.Rows)),
					"semantic: identifier", figures); err != nil {
					return 0, err
				}
				break
			}
			table, col, _ := strings.Cut(e.Key, ".")
			doc := catalog.InsightDoc{Kind: "contradiction", Tables: []string{table}, Columns: []string{e.Key},
				Description: fmt.Sprintf("The semantic expert took %s for an identifier (%s), but its %s rows hold %s distinct values: "+
					"settled by the data, %s does not identify the rows of %s.", e.Key, strings.Join(s.Reasons, "; "),
					catalog.Thousands(p.Doc.Rows), catalog.Thousands(*p.Doc.DistinctCount), col, table)}
			key := "contradiction:identifier:" + e.Key
			wantedInsight[key] = true
			if err := catalog.Insights.Save(ctx, env.For("orchestrator"), key, doc, 0.95,
				[]string{"semantic: identifier", figures}, "contradiction"); err != nil {
				return 0, err
			}
		case "foreign_key":
			// A reference by name that no relationship explains yet. A view
			// only repeats its tables' columns, so it is not asked.
			if !referencing[e.Key] && !views[s.Table] {
				if err := save("unexplained_reference:"+e.Key,
					fmt.Sprintf("%s is named like a reference, but no relationship from it is declared or confirmed.", e.Key),
					"semantic: foreign_key"); err != nil {
					return 0, err
				}
			}
		}
	}
	for _, h := range hyps {
		if h.Doc.Status == "inconclusive" {
			desc := "Could not settle: " + h.Doc.Statement
			if len(h.Entry.Evidence) > 0 {
				// The figures say why (an empty table, a column all NULL).
				desc += " The test found: " + h.Entry.Evidence[0] + "."
			}
			if err := save("inconclusive:"+h.Doc.ID, desc, h.Entry.Evidence...); err != nil {
				return 0, err
			}
		}
	}
	// What an earlier round doubted and this one settled (a reference
	// since inferred, a hypothesis since decided) leaves the report.
	removed, err := settle(ctx, env, catalog.KindUncertainty, wanted, collaborationKeys)
	if err != nil {
		return 0, err
	}
	// A contradiction that no longer stands (the semantic expert has
	// revised the type) leaves it too.
	gone, err := settle(ctx, env, catalog.KindInsight, wantedInsight, []string{"contradiction:"})
	if err != nil {
		return 0, err
	}
	return int(env.NewFindings()-before) + removed + gone, nil
}

// collaborationKeys are the prefixes of the uncertainties collaborate owns.
var collaborationKeys = []string{"conflict:identifier:", "unexplained_reference:", "inconclusive:"}

// settle deletes the run's entries of kind that collaborate wrote under one
// of prefixes and did not write again this round.
func settle(ctx context.Context, env *experts.Env, kind string, wanted map[string]bool, prefixes []string) (int, error) {
	us, err := env.RunEntries(ctx, kind)
	if err != nil {
		return 0, fmt.Errorf("collaborate: %w", err)
	}
	removed := 0
	for _, u := range us {
		if u.Expert != "orchestrator" || wanted[u.Key] {
			continue
		}
		for _, p := range prefixes {
			if strings.HasPrefix(u.Key, p) {
				if err := env.Catalog.Delete(ctx, kind, u.Key); err != nil {
					return removed, fmt.Errorf("collaborate: %w", err)
				}
				removed++
				break
			}
		}
	}
	return removed, nil
}
