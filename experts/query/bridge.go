package query

import (
	"context"
	"fmt"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/warehouse"
)

// A bridge table (the structural expert's bridge_table pattern) links two
// tables many-to-many only if the data says so: some row of each side has
// more than one partner. A bridge whose products each have one supplier is
// a one-to-many in disguise. The claim is tested on the bridge's two
// references and, when it holds, said in plain words.

// bridgeLink is a bridge and its two references.
type bridgeLink struct {
	bridge       warehouse.Table
	left, right  catalog.RelationshipDoc
	patternKey   string
	leftNoun     string // singular of the left table
	rightNoun    string
	leftPlural   string
	rightPlural  string
	statementKey string
}

// bridgeLinks reads the run's bridge patterns and pairs each with the two
// single-column references of its bridge to the tables it links.
func bridgeLinks(ctx context.Context, env *experts.Env) ([]bridgeLink, error) {
	pats, err := env.RunEntries(ctx, catalog.KindPattern)
	if err != nil {
		return nil, err
	}
	rels, err := env.RunEntries(ctx, catalog.KindRelationship)
	if err != nil {
		return nil, err
	}
	var refs []catalog.RelationshipDoc
	for _, e := range rels {
		var r catalog.RelationshipDoc
		if err := e.Decode(&r); err == nil && len(r.FromColumns) == 1 && len(r.ToColumns) == 1 {
			refs = append(refs, r)
		}
	}
	tables := tableIndex(env.Tables)
	var out []bridgeLink
	for _, e := range pats {
		var p catalog.PatternDoc
		if err := e.Decode(&p); err != nil || p.Kind != "bridge_table" || len(p.Tables) != 3 {
			continue
		}
		bridge, ok := tables[p.Tables[0]]
		if !ok {
			continue
		}
		ref := func(to string) (catalog.RelationshipDoc, bool) {
			for _, r := range refs {
				if r.FromTable == p.Tables[0] && r.ToTable == to {
					return r, true
				}
			}
			return catalog.RelationshipDoc{}, false
		}
		l, okL := ref(p.Tables[1])
		r, okR := ref(p.Tables[2])
		if !okL || !okR || l.FromColumns[0] == r.FromColumns[0] {
			continue
		}
		out = append(out, bridgeLink{bridge: bridge, left: l, right: r, patternKey: e.Key,
			leftNoun: naming.Noun(l.ToTable, false), rightNoun: naming.Noun(r.ToTable, false),
			leftPlural: naming.Noun(l.ToTable, true), rightPlural: naming.Noun(r.ToTable, true),
			statementKey: fmt.Sprintf("%s(%s,%s)", bridge.Name.String(), l.FromColumns[0], r.FromColumns[0])})
	}
	return out, nil
}

// bridgeHypothesis claims that the bridge links its tables many-to-many.
// A bridge far larger than the sample is read through its sample (issue
// 9): a row of either side seen with two partners there has them in the
// table, but none seen so settles nothing.
func bridgeHypothesis(d warehouse.Dialect, b bridgeLink, scope experts.Scope) hypotheses.Hypothesis {
	a, c := d.QuoteIdent(b.left.FromColumns[0]), d.QuoteIdent(b.right.FromColumns[0])
	t := scope.From("")
	per := func(key, partner string) string {
		return fmt.Sprintf("SELECT MAX(n) AS m, COUNT(*) AS k FROM (SELECT %s, COUNT(DISTINCT %s) AS n FROM %s WHERE %s IS NOT NULL AND %s IS NOT NULL GROUP BY %s) g",
			key, partner, t, key, partner, key)
	}
	sql := fmt.Sprintf("SELECT l.m AS max_right_per_left, l.k AS lefts, r.m AS max_left_per_right, r.k AS rights FROM (%s) l CROSS JOIN (%s) r",
		per(a, c), per(c, a))
	return hypotheses.Hypothesis{
		ID:      hypotheses.ID("m2m", b.statementKey),
		Subject: b.patternKey,
		Statement: fmt.Sprintf("%s links %s and %s many-to-many: %s can have many %s and %s many %s.",
			b.bridge.Name.String(), b.left.ToTable, b.right.ToTable, naming.Article(b.leftNoun), b.rightPlural, naming.Article(b.rightNoun), b.leftPlural),
		SQL:      sql,
		Expected: fmt.Sprintf("some %s with more than one %s, and some %s with more than one %s", b.leftNoun, b.rightNoun, b.rightNoun, b.leftNoun),
		Prior:    0.7,
		Sample:   scope.Evidence(),
		Judge: func(row hypotheses.Row) hypotheses.Verdict {
			mr, _ := row.Int("max_right_per_left")
			nl, _ := row.Int("lefts")
			ml, _ := row.Int("max_left_per_right")
			nr, _ := row.Int("rights")
			ev := []string{fmt.Sprintf("%s %s linked, each to at most %s %s", catalog.Thousands(nl), b.leftPlural, catalog.Thousands(mr), b.rightPlural),
				fmt.Sprintf("%s %s linked, each to at most %s %s", catalog.Thousands(nr), b.rightPlural, catalog.Thousands(ml), b.leftPlural)}
			switch {
			case nl == 0 || nr == 0:
				return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.5, Evidence: ev}
			case mr > 1 && ml > 1:
				return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev, Observed: true}
			case scope.Sampled:
				return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.5,
					Evidence: append(ev, "a sample of the bridge cannot show that no row has a second partner")}
			}
			return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.95, Evidence: ev}
		},
	}
}

// measureBridge tests a bridge and, when it links many-to-many, says so.
func measureBridge(ctx context.Context, env *experts.Env, b bridgeLink, h hypotheses.Hypothesis) error {
	scope, err := env.Scope(ctx, b.bridge)
	if err != nil {
		return err
	}
	if scope.Sampled {
		h = bridgeHypothesis(env.Dialect(), b, scope)
	}
	out, err := test(ctx, env, h)
	if err != nil {
		return err
	}
	// The hypothesis marks the bridge measured (planBridges looks for it):
	// saved after the sentence, so a kill in between measures it again.
	save := func() error { return hypotheses.Save(ctx, env, out, "relationship", "cardinality") }
	if out.Doc.Status != hypotheses.Confirmed {
		return save()
	}
	mr, _ := out.Row.Int("max_right_per_left")
	ml, _ := out.Row.Int("max_left_per_right")
	ins := catalog.InsightDoc{Kind: "relationship", Tables: []string{b.left.ToTable, b.bridge.Name.String(), b.right.ToTable},
		Columns: []string{b.bridge.Name.String() + "." + b.left.FromColumns[0], b.bridge.Name.String() + "." + b.right.FromColumns[0]},
		Description: fmt.Sprintf("Through %s, %s has many %s (at most %s) and %s many %s (at most %s): many-to-many.",
			b.bridge.Name.String(), naming.Article(b.leftNoun), b.rightPlural, catalog.Thousands(mr),
			naming.Article(b.rightNoun), b.leftPlural, catalog.Thousands(ml))}
	ev := append([]string{"hypothesis " + h.ID}, out.Verdict.Evidence...)
	if scope.Sampled {
		ins.Description = strings.TrimSuffix(ins.Description, ".") + " (" + scope.Evidence() + ")."
		ev = append(ev, "tested "+scope.Evidence())
	}
	if err := catalog.Insights.Save(ctx, env, "relationship:m2m:"+b.statementKey, ins, 0.95,
		ev, "relationship"); err != nil {
		return err
	}
	return save()
}

// planBridges plans a test for each bridge not yet tested in this run.
func planBridges(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	bs, err := bridgeLinks(ctx, env)
	if err != nil {
		return nil, fmt.Errorf("query: plan bridges: %w", err)
	}
	var tasks []experts.Task
	for _, b := range bs {
		h := bridgeHypothesis(env.Dialect(), b, experts.Whole(env.Dialect(), b.bridge))
		done, err := env.Has(ctx, catalog.KindHypothesis, h.ID)
		if err != nil {
			return nil, fmt.Errorf("query: plan bridges: %w", err)
		}
		if !done {
			tasks = append(tasks, experts.Task{Expert: Name, Name: "measure bridge " + b.statementKey,
				Run: func(ctx context.Context) error { return measureBridge(ctx, env, b, h) }})
		}
	}
	return tasks, nil
}
