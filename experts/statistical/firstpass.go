package statistical

import (
	"context"
	"fmt"
	"math"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

const (
	// firstPassConfidence marks a profile built from the planner's
	// statistics: estimates as of the last ANALYZE, not measurements.
	firstPassConfidence = 0.6
	// firstPassEvidence is the evidence of every provisional profile.
	firstPassEvidence = "pg_stats estimate (planner statistics, last ANALYZE)"
)

// firstPasses plans, in the first iteration, a "first pass T" task for each
// table of todo that is too big to profile exactly (more rows than
// Options.SampleRows), has no profile in this run yet, and whose source
// keeps planner statistics (warehouse.ColumnStatser). The task saves
// provisional profiles from those statistics, with no KindTableStats entry,
// so the table's real profile task, planned from the next Plan on, still
// runs and replaces them with measured figures. Each table gets at most one
// first pass, and never in the same plan as its profile task, so the two
// never race to save the same entries.
//
// The size is the structural expert's row count when it has recorded one;
// in the first iteration it usually has not, and the source's own cheap
// estimate (warehouse.RowEstimator) stands in.
func (x *Expert) firstPasses(ctx context.Context, env *experts.Env, todo []warehouse.Table,
	sizes map[string]int64) (map[string]experts.Task, error) {
	if !env.CanColumnStats() || env.Iteration != 1 || env.Options.SampleRows <= 0 || len(todo) == 0 {
		return nil, nil
	}
	profiles, err := env.RunKeys(ctx, catalog.KindProfile)
	if err != nil {
		return nil, err
	}
	tasks := map[string]experts.Task{}
	for _, t := range todo {
		name := t.Name.String()
		if t.Kind == "view" || x.firstPassed(name) || hasProfile(profiles, name, t) {
			continue
		}
		rows, known := sizes[name]
		if !known {
			n, _, ok, err := env.EstimateRows(ctx, t.Name)
			if !ok {
				continue
			}
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				continue // the real profile finds its own size
			}
			rows = n
		}
		if rows <= env.Options.SampleRows {
			continue
		}
		x.markFirstPass(name)
		tasks[name] = experts.Task{
			Expert: Name,
			Name:   "first pass " + name,
			Run: func(ctx context.Context) error {
				return firstPass(ctx, env, t, rows)
			},
		}
	}
	return tasks, nil
}

func (x *Expert) firstPassed(table string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.first[table]
}

func (x *Expert) markFirstPass(table string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.first == nil {
		x.first = map[string]bool{}
	}
	x.first[table] = true
}

// hasProfile reports whether any column of t has a profile in keys.
func hasProfile(keys map[string]bool, name string, t warehouse.Table) bool {
	for _, c := range t.Columns {
		if keys[name+"."+c.Name] {
			return true
		}
	}
	return false
}

// firstPass saves provisional profiles of t's columns from the planner's
// statistics; rows is the table's estimated size. A table never analyzed
// has none, and gets no provisional profile.
func firstPass(ctx context.Context, env *experts.Env, t warehouse.Table, rows int64) error {
	name := t.Name.String()
	cols, _, err := env.ColumnStats(ctx, t.Name)
	if err != nil {
		return fmt.Errorf("first pass %s: %w", name, err)
	}
	byName := make(map[string]warehouse.ColumnStat, len(cols))
	for _, c := range cols {
		byName[c.Column] = c
	}
	for _, c := range t.Columns {
		st, ok := byName[c.Name]
		if !ok {
			continue
		}
		doc := provisionalProfile(name, rows, st)
		if err := catalog.Profiles.Save(ctx, env, name+"."+c.Name, doc,
			firstPassConfidence, []string{firstPassEvidence}, name); err != nil {
			return fmt.Errorf("first pass %s: %w", name, err)
		}
	}
	return nil
}

// provisionalProfile is a profile built from one column's planner
// statistics: every figure is an estimate, and it says so.
func provisionalProfile(table string, rows int64, st warehouse.ColumnStat) catalog.ProfileDoc {
	doc := catalog.ProfileDoc{
		Table:              table,
		Column:             st.Column,
		Rows:               rows,
		Sampled:            true,
		NullFraction:       st.NullFraction,
		DistinctCount:      st.Distinct,
		DistinctIsEstimate: true,
		Provisional:        true,
		TopValues:          []catalog.ValueCount{},
		Anomalies:          []catalog.Anomaly{},
	}
	for _, v := range st.TopValues {
		doc.TopValues = append(doc.TopValues, catalog.ValueCount{Value: v.Value,
			Count: int64(math.Round(v.Fraction * float64(rows))), Fraction: v.Fraction})
	}
	return doc
}
