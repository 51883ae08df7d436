// Package rules is the expert that proposes the business rules a table's
// data may follow and tests each as a hypothesis with a guarded query:
// status lifecycles (within a table and across a reference), undeclared
// rules (unique in practice, never NULL, never negative), timestamps that
// record stages in order, growth over time and a weekly pattern.
//
// It reads from the catalog, for this run: the semantic expert's column
// types (kind semantic) and entities (kind entity), the statistical
// expert's profiles (kind profile) and the structural expert's tables
// (kind table, for an inferred primary key and the row count that decides
// whether a table is read through a sample). It writes hypotheses (the
// ledger, tagged "rule"), insights (business_rule, quality, trend) and one
// progress entry per table it has done ("rules:" and the table).
package rules

import (
	"context"
	"fmt"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/semantic"
	"github.com/discover-db/discover/warehouse"
)

// Name is the expert's name in tasks and catalog entries.
const Name = "rules"

// Expert proposes and tests business rules.
type Expert struct{}

var _ experts.Expert = (*Expert)(nil)

// New returns a rules expert.
func New() *Expert { return &Expert{} }

// Name implements experts.Expert.
func (x *Expert) Name() string { return Name }

// Pipelined implements orchestrator.Pipelined: a table is ready once its
// entity is saved (a finding, read as such), and its rules are the same
// whenever they are tested, so they start as soon as it is, in the round
// that made it ready.
func (x *Expert) Pipelined() bool { return true }

// doneKey is this expert's progress entry for a table whose rules it tested.
func doneKey(table string) string { return "rules:" + table }

// Plan returns one task per table that is ready and not done yet.
//
// Readiness: a table is ready once this run holds its entity. The semantic
// expert saves the entity after every column's type, so the types the
// rules are derived from are all there; the profiles were there before
// them. Both are findings, read as such: no other expert's progress is.
// Views are left out: a view repeats its tables' rules.
func (x *Expert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	entities, err := env.RunKeys(ctx, catalog.KindEntity)
	if err != nil {
		return nil, fmt.Errorf("rules plan: %w", err)
	}
	done, err := env.RunKeys(ctx, catalog.KindProgress)
	if err != nil {
		return nil, fmt.Errorf("rules plan: %w", err)
	}
	var ready []warehouse.Table
	for _, t := range env.Tables {
		name := t.Name.String()
		if t.Kind == "table" && entities[name] && !done[doneKey(name)] {
			ready = append(ready, t)
		}
	}
	if len(ready) == 0 {
		return nil, nil
	}
	profiles, err := env.RunEntries(ctx, catalog.KindProfile)
	if err != nil {
		return nil, fmt.Errorf("rules plan: %w", err)
	}
	complete := make(map[string]catalog.ProfileDoc, len(profiles))
	for _, e := range profiles {
		var p catalog.ProfileDoc
		if e.Decode(&p) == nil && !p.Provisional { // provisional: planner estimates, replaced soon
			complete[e.Key] = p
		}
	}
	semantics, err := env.RunEntries(ctx, catalog.KindSemantic)
	if err != nil {
		return nil, fmt.Errorf("rules plan: %w", err)
	}
	typeOf := make(map[string]string, len(semantics))
	piiOf := map[string]string{}
	for _, e := range semantics {
		var s catalog.SemanticDoc
		if e.Decode(&s) == nil {
			if s.PII != nil {
				piiOf[e.Key] = s.PII.Category
			}
			typeOf[e.Key] = s.SemanticType
		}
	}
	var tasks []experts.Task
	refs := semantic.NewReferrerIndex(semantic.VisibleTables(env)) // once: per table it was quadratic
	for _, t := range ready {
		name := t.Name.String()
		ps := map[string]*catalog.ProfileDoc{}
		types, pii := map[string]string{}, map[string]string{}
		for _, c := range t.Columns {
			key := name + "." + c.Name
			if p, ok := complete[key]; ok {
				ps[c.Name] = &p
			}
			if typ, ok := typeOf[key]; ok {
				types[c.Name] = typ
			}
			if cat, ok := piiOf[key]; ok && !env.Options.ShowPII {
				pii[c.Name] = cat
			}
		}
		tasks = append(tasks, experts.Task{
			Expert: Name,
			Name:   "rules " + name,
			Table:  name,
			Run: func(ctx context.Context) error {
				return testTable(ctx, env, t, ps, types, pii, refs)
			},
		})
	}
	return tasks, nil
}

// testTable tests the rules of t and marks the table done.
func testTable(ctx context.Context, env *experts.Env, t warehouse.Table, profiles map[string]*catalog.ProfileDoc, types, pii map[string]string, refs *semantic.ReferrerIndex) error {
	if env.Options.IgnoreDeclaredFKs {
		// As if nothing were declared, as the semantic expert saw the table.
		t.ForeignKeys = nil
	}
	name := t.Name.String()
	pk := t.PrimaryKey
	if len(pk) == 0 {
		if doc := tableDoc(ctx, env, t); doc != nil && len(doc.PrimaryKey) > 0 {
			pk = doc.PrimaryKey // the structural expert inferred it
		}
	}
	if len(profiles) > 0 {
		// A table far larger than --sample-rows is read through a bounded
		// sample by every statement (issue 9).
		scope, err := env.Scope(ctx, t)
		if err != nil {
			return fmt.Errorf("rules %s: %w", name, err)
		}
		if err := tableRules(ctx, env, t, scope, pk, profiles, types, pii, refs); err != nil {
			return fmt.Errorf("rules %s: %w", name, err)
		}
	}
	step := doneKey(name)
	if err := catalog.Progress.Save(ctx, env, step, catalog.ProgressDoc{Step: step}, 1, []string{}); err != nil {
		return fmt.Errorf("rules %s: %w", name, err)
	}
	return nil
}

// tableDoc reads the structural expert's view of t from this run, if any.
func tableDoc(ctx context.Context, env *experts.Env, t warehouse.Table) *catalog.TableDoc {
	e, err := env.Catalog.Get(ctx, catalog.KindTable, t.Name.String())
	if err != nil || e.RunID != env.RunID {
		return nil
	}
	var doc catalog.TableDoc
	if err := e.Decode(&doc); err != nil {
		return nil
	}
	return &doc
}
