// Package query is the expert that tests claims against the data: every
// relationship is checked for orphans, and tables without a declared key get
// a key hypothesis built from the profiles. Each test is a guarded SELECT
// recorded in the hypothesis ledger with its verdict and figures. A round
// in which it plans no test settles experts.ClaimsTested. Index, join,
// sampling and partitioning advice is the advice expert's (experts/advice).
package query

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/keys"
	"github.com/discover-db/discover/warehouse"
)

// Name is the expert's name in the catalog and in progress events.
const Name = "query"

// Expert is the query expert.
type Expert struct{}

var _ experts.Expert = (*Expert)(nil)

// New returns the query expert.
func New() *Expert { return &Expert{} }

// Name implements experts.Expert.
func (*Expert) Name() string { return Name }

// Plan tests each relationship not yet tested in this run, and proposes a
// key for each profiled table that declares none.
func (x *Expert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	var tasks []experts.Task
	rels, err := env.RunEntries(ctx, catalog.KindRelationship)
	if err != nil {
		return nil, fmt.Errorf("query: plan: %w", err)
	}
	tables := tableIndex(env.Tables)
	for _, e := range rels {
		e := e
		var r catalog.RelationshipDoc
		if err := e.Decode(&r); err != nil {
			return nil, fmt.Errorf("query: plan: decode %s: %w", e.Key, err)
		}
		h := ReferenceHypothesis(env.Dialect(), tables, r)
		done, err := env.Has(ctx, catalog.KindHypothesis, h.ID)
		if err != nil {
			return nil, fmt.Errorf("query: plan: %w", err)
		}
		c, measurable := CardinalityHypothesis(env.Dialect(), tables, r)
		measured := !measurable
		if measurable {
			if measured, err = env.Has(ctx, catalog.KindHypothesis, c.ID); err != nil {
				return nil, fmt.Errorf("query: plan: %w", err)
			}
		}
		switch {
		case !done:
			tasks = append(tasks, experts.Task{Expert: Name, Name: "test " + e.Key,
				Run: func(ctx context.Context) error {
					if err := testReference(ctx, env, e, r, h); err != nil {
						return err
					}
					if measured {
						return nil
					}
					return measureCardinality(ctx, env, r)
				}})
		case !measured:
			// Tested by the expert that found it: how many children
			// each parent has is still to be measured.
			tasks = append(tasks, experts.Task{Expert: Name, Name: "measure " + e.Key,
				Run: func(ctx context.Context) error { return measureCardinality(ctx, env, r) }})
		}
	}
	keyTasks, err := x.planKeys(ctx, env)
	if err != nil {
		return nil, err
	}
	tasks = append(tasks, keyTasks...)
	bridgeTasks, err := planBridges(ctx, env)
	if err != nil {
		return nil, err
	}
	tasks = append(tasks, bridgeTasks...)
	if len(tasks) == 0 {
		// Settled on the tasks planned, before the orchestrator drops those
		// given up on: the advice waits for a test that keeps failing
		// until its own last round, not past it.
		if err := env.Settle(experts.ClaimsTested); err != nil {
			return nil, fmt.Errorf("query: plan: %w", err)
		}
	}
	return tasks, nil
}

// tableIndex maps each table's name, as the source spells it, to the
// table. Relationships and patterns name tables so (the structural expert
// resolves a declaration's spelling), and names differing only in case
// are two tables where the engine says so (one whose names keep their
// case: "Users" and users).
func tableIndex(ts []warehouse.Table) map[string]warehouse.Table {
	m := map[string]warehouse.Table{}
	for _, t := range ts {
		m[t.Name.String()] = t
	}
	return m
}

// ReferenceHypothesis builds the orphan test of a relationship: how many
// child rows with a non-NULL reference have no parent row.
func ReferenceHypothesis(d warehouse.Dialect, tables map[string]warehouse.Table, r catalog.RelationshipDoc) hypotheses.Hypothesis {
	child, parent := tables[r.FromTable], tables[r.ToTable]
	return referenceHypothesis(d, r, experts.Whole(d, child), experts.Whole(d, parent))
}

// scopes returns how the test of a relationship reads its child and
// parent tables (issue 9): whole, or a bounded sample of one far larger
// than --sample-rows.
func scopes(ctx context.Context, env *experts.Env, r catalog.RelationshipDoc) (child, parent experts.Scope, err error) {
	c, _ := env.Table(r.FromTable)
	p, _ := env.Table(r.ToTable)
	child, parent = experts.Whole(env.Dialect(), c), experts.Whole(env.Dialect(), p)
	if c.Name.Name == "" || p.Name.Name == "" {
		return child, parent, nil
	}
	if child, err = env.Scope(ctx, c); err != nil {
		return child, parent, err
	}
	parent, err = env.Scope(ctx, p)
	return child, parent, err
}

// lookup is a correlated search of the parent for the key cond names: 1
// when a row has it, NULL when none does (Dialect.Lookup). One search of
// the parent's key per child row: the form for a parent far larger than
// the sample.
func lookup(d warehouse.Dialect, parent experts.Scope, cond string) string {
	return d.Lookup(parent.Quoted(), "p", cond)
}

// referenceHypothesis is ReferenceHypothesis reading the child through
// its scope, and looking each reference up in a parent far larger than
// the sample by key rather than reading it.
func referenceHypothesis(d warehouse.Dialect, r catalog.RelationshipDoc, cs, ps experts.Scope) hypotheses.Hypothesis {
	child, parent := cs.Table, ps.Table
	key := r.Key()
	h := hypotheses.Hypothesis{
		ID:      hypotheses.ID("ref", key),
		Subject: key,
		Statement: fmt.Sprintf("Every non-NULL %s.%s has a matching %s.%s.",
			r.FromTable, joinCols(r.FromColumns), r.ToTable, joinCols(r.ToColumns)),
		Expected: "0 orphans: no non-NULL reference without a parent row",
		Prior:    priorOf(r),
	}
	if child.Name.Name == "" || parent.Name.Name == "" || len(r.FromColumns) != len(r.ToColumns) || len(r.FromColumns) == 0 {
		// Nothing to query: the judge below never sees a row.
		return h
	}
	var notNull, match []string
	for i := range r.FromColumns {
		c := "c." + d.QuoteIdent(r.FromColumns[i])
		notNull = append(notNull, c+" IS NOT NULL")
		match = append(match, "p."+d.QuoteIdent(r.ToColumns[i])+" = "+c)
	}
	nn := strings.Join(notNull, " AND ")
	orphan := fmt.Sprintf("NOT EXISTS (SELECT 1 FROM %s p WHERE %s)", d.QuoteTable(parent.Name), strings.Join(match, " AND "))
	if ps.Sampled {
		orphan = lookup(d, ps, strings.Join(match, " AND ")) + " IS NULL"
	}
	h.SQL = fmt.Sprintf("SELECT COUNT(*) AS child_rows, "+
		"COUNT(CASE WHEN %s THEN 1 END) AS non_null, "+
		"COUNT(CASE WHEN %s AND %s THEN 1 END) AS orphans "+
		"FROM %s", nn, nn, orphan, cs.From("c"))
	h.Sample = cs.Evidence()
	h.Judge = func(row hypotheses.Row) hypotheses.Verdict {
		rows, _ := row.Int("child_rows")
		nonNull, _ := row.Int("non_null")
		orphans, _ := row.Int("orphans")
		ev := []string{fmt.Sprintf("%d child rows, %d with a non-NULL reference, %d orphans", rows, nonNull, orphans)}
		switch {
		case nonNull == 0:
			return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.5,
				Evidence: append(ev, "no non-NULL reference to check")}
		case orphans == 0:
			return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 1.0, Evidence: ev}
		default:
			return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 1.0, Evidence: ev, Observed: true}
		}
	}
	return h
}

func joinCols(cols []string) string {
	if len(cols) == 1 {
		return cols[0]
	}
	return "(" + strings.Join(cols, ", ") + ")"
}

// testReference runs the orphan test, records it in the ledger, and folds
// the figure back into the relationship: its orphan fraction and a
// confidence that now rests on the data.
func testReference(ctx context.Context, env *experts.Env, e catalog.Entry, r catalog.RelationshipDoc, h hypotheses.Hypothesis) (err error) {
	var out hypotheses.Outcome
	var nonNull, orphans int64
	cs, ps, err := scopes(ctx, env, r)
	if err != nil {
		return err
	}
	if h.SQL != "" && (cs.Sampled || ps.Sampled) {
		id := h.ID
		h = referenceHypothesis(env.Dialect(), r, cs, ps)
		h.ID = id
	}
	if h.SQL == "" {
		out = hypotheses.Failed(h, fmt.Errorf("the referenced table or columns do not exist"))
	} else {
		var err error
		if out, err = test(ctx, env, h); err != nil {
			return err
		}
		nonNull, _ = out.Row.Int("non_null")
		orphans, _ = out.Row.Int("orphans")
	}
	if out.Doc.Status == hypotheses.Refuted && h.SQL != "" {
		if ex := orphanExamples(ctx, env, r, cs, ps); ex != "" {
			out.Verdict.Evidence = append(out.Verdict.Evidence, "orphan values: "+ex)
		}
	}
	// The hypothesis marks the reference tested (Plan looks for it), so it
	// is saved last: a run killed before it tests the reference again on
	// --resume instead of leaving the relationship without its figures.
	defer func() {
		if err == nil {
			err = hypotheses.Save(ctx, env, out, "relationship")
		}
	}()
	conf := e.Confidence
	// The evidence of the relationship as found, without an earlier test's
	// line: a test run again (after a kill, on --resume) replaces it.
	var evidence []string
	inconclusiveBefore := false
	for _, ev := range e.Evidence {
		inconclusive := strings.HasPrefix(ev, "could not be confirmed against the data")
		mine := strings.HasPrefix(ev, "checked") && strings.HasSuffix(ev, "(hypothesis "+h.ID+")") || inconclusive
		inconclusiveBefore = inconclusiveBefore || inconclusive
		if !mine {
			evidence = append(evidence, ev)
		}
	}
	// A sample's figures: the share is an estimate, and no orphan in the
	// sample is weaker than none in the table (issue 9).
	sampled := ""
	if h.Sample != "" {
		sampled = " " + h.Sample
	}
	switch out.Doc.Status {
	case hypotheses.Confirmed:
		f := 0.0
		r.OrphanFraction = &f
		conf = 1.0
		if r.Source != "declared" {
			conf = 0.95
		}
		conf = cs.Confidence(conf)
		evidence = append(evidence, fmt.Sprintf("checked%s: 0 orphans among %d non-NULL references (hypothesis %s)", sampled, nonNull, h.ID))
	case hypotheses.Refuted:
		f := float64(orphans) / float64(nonNull)
		r.OrphanFraction = &f
		conf = clamp(0.9*(1-f), 0.3, 0.9)
		evidence = append(evidence, fmt.Sprintf("checked%s: %d of %d non-NULL references have no parent (%.2f%%) (hypothesis %s)", sampled, orphans, nonNull, 100*f, h.ID))
	default:
		// Lowered once: a test run again after a kill finds the
		// relationship already lowered by its first run.
		if !inconclusiveBefore {
			conf = clamp(conf*0.7, 0.2, 0.7)
		}
		evidence = append(evidence, "could not be confirmed against the data: "+strings.Join(out.Verdict.Evidence, "; "))
	}
	tags := slices.Clone(e.Tags)
	if !slices.Contains(tags, "tested") {
		tags = append(tags, "tested")
	}
	if err := catalog.Relationships.Save(ctx, env, e.Key, r, conf, evidence, tags...); err != nil {
		return err
	}
	if out.Doc.Status == hypotheses.Refuted {
		desc := fmt.Sprintf("%d rows of %s reference a %s that does not exist (%.2f%% of non-NULL references).", orphans, r.FromTable, r.ToTable, 100*float64(orphans)/float64(nonNull))
		ev := out.Verdict.Evidence
		if h.Sample != "" {
			desc = fmt.Sprintf("%d of the %d sampled rows of %s with a reference point to a %s that does not exist (%.2f%%; %s).",
				orphans, nonNull, r.FromTable, r.ToTable, 100*float64(orphans)/float64(nonNull), h.Sample)
			ev = append(append([]string{}, ev...), "tested "+h.Sample)
		}
		ins := catalog.InsightDoc{Kind: "quality", Tables: []string{r.FromTable, r.ToTable},
			Columns: qualify(r.FromTable, r.FromColumns), Description: desc}
		return catalog.Insights.Save(ctx, env, "quality:orphans:"+e.Key, ins, 1.0, ev, "quality")
	}
	return nil
}

func orphanExamples(ctx context.Context, env *experts.Env, r catalog.RelationshipDoc, cs, ps experts.Scope) string {
	var sel, notNull, match []string
	for i := range r.FromColumns {
		c := "c." + env.Dialect().QuoteIdent(r.FromColumns[i])
		sel = append(sel, c)
		notNull = append(notNull, c+" IS NOT NULL")
		match = append(match, "p."+env.Dialect().QuoteIdent(r.ToColumns[i])+" = "+c)
	}
	orphan := fmt.Sprintf("NOT EXISTS (SELECT 1 FROM %s p WHERE %s)", ps.Quoted(), strings.Join(match, " AND "))
	if ps.Sampled {
		orphan = lookup(env.Dialect(), ps, strings.Join(match, " AND ")) + " IS NULL"
	}
	sql := fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s AND %s ORDER BY 1 LIMIT 5",
		strings.Join(sel, ", "), cs.From("c"), strings.Join(notNull, " AND "), orphan)
	res, err := env.Query(ctx, sql)
	if err != nil {
		return ""
	}
	var vals []string
	for _, row := range res.Rows {
		var parts []string
		for _, v := range row {
			parts = append(parts, fmt.Sprint(v))
		}
		vals = append(vals, strings.Join(parts, "/"))
	}
	return strings.Join(vals, ", ")
}

func qualify(table string, cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = table + "." + c
	}
	return out
}

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// planKeys proposes a primary key for each base table that declares none,
// once its columns are profiled: the best column whose profile shows no NULL
// and as many distinct values as rows.
func (x *Expert) planKeys(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	profiles, err := env.RunEntries(ctx, catalog.KindProfile)
	if err != nil {
		return nil, fmt.Errorf("query: plan keys: %w", err)
	}
	byTable := map[string][]catalog.ProfileDoc{}
	for _, e := range profiles {
		var p catalog.ProfileDoc
		if err := e.Decode(&p); err != nil {
			return nil, fmt.Errorf("query: plan keys: decode %s: %w", e.Key, err)
		}
		byTable[p.Table] = append(byTable[p.Table], p)
	}
	// A key found is written into the table's document, which the
	// structural expert writes first: a test before it would be
	// overwritten. Profiles taken from the last run (a re-run after other
	// tables changed) are there before any task of the run.
	described, err := env.RunKeys(ctx, catalog.KindTable)
	if err != nil {
		return nil, fmt.Errorf("query: plan keys: %w", err)
	}
	var tasks []experts.Task
	for _, t := range env.Tables {
		t := t
		name := t.Name.String()
		if t.Kind != "table" || len(t.PrimaryKey) > 0 || len(byTable[name]) < len(t.Columns) || !described[name] {
			continue
		}
		cols, ok := keys.KeyTest(t, byTable[name])
		if !ok {
			continue
		}
		h := KeyHypothesis(env.Dialect(), t, cols[0])
		if len(cols) == 2 {
			h = PairKeyHypothesis(env.Dialect(), t, cols)
		}
		done, err := env.Has(ctx, catalog.KindHypothesis, h.ID)
		if err != nil {
			return nil, fmt.Errorf("query: plan keys: %w", err)
		}
		if done {
			continue
		}
		tasks = append(tasks, experts.Task{Expert: Name, Name: "test key " + name + "(" + strings.Join(cols, ", ") + ")",
			Run: func(ctx context.Context) error { return testKey(ctx, env, t, cols, h) }})
	}
	return tasks, nil
}

// PairKeyHypothesis tests that two columns together identify the rows of
// a table: no NULL in either, and as many distinct pairs as rows.
func PairKeyHypothesis(d warehouse.Dialect, t warehouse.Table, cols []string) hypotheses.Hypothesis {
	name := t.Name.String()
	a, b := d.QuoteIdent(cols[0]), d.QuoteIdent(cols[1])
	from := d.QuoteTable(t.Name)
	return hypotheses.Hypothesis{
		ID:      keys.KeyTestID(t, cols),
		Subject: name,
		Statement: fmt.Sprintf("(%s, %s) identifies the rows of %s (unique together, never NULL).",
			cols[0], cols[1], name),
		Expected: "as many distinct pairs as rows, and no NULL in either column",
		Prior:    0.6,
		SQL: fmt.Sprintf("SELECT COUNT(*) AS row_count, COUNT(%s) AS non_null_a, COUNT(%s) AS non_null_b, "+
			"(SELECT COUNT(*) FROM (SELECT %s, %s FROM %s GROUP BY %s, %s) g) AS distinct_pairs FROM %s",
			a, b, a, b, from, a, b, from),
		Judge: func(row hypotheses.Row) hypotheses.Verdict {
			n, _ := row.Int("row_count")
			na, _ := row.Int("non_null_a")
			nb, _ := row.Int("non_null_b")
			d, _ := row.Int("distinct_pairs")
			ev := []string{fmt.Sprintf("%d rows, %d and %d non-NULL, %d distinct pairs", n, na, nb, d)}
			if n > 0 && na == n && nb == n && d == n {
				return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.9, Evidence: ev}
			}
			return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 1.0, Evidence: ev}
		},
	}
}

// KeyHypothesis tests that a column identifies the rows of a table.
func KeyHypothesis(d warehouse.Dialect, t warehouse.Table, col string) hypotheses.Hypothesis {
	name := t.Name.String()
	q := d.QuoteIdent(col)
	return hypotheses.Hypothesis{
		ID:        keys.KeyTestID(t, []string{col}),
		Subject:   name,
		Statement: fmt.Sprintf("%s.%s identifies the rows of %s (unique, never NULL).", name, col, name),
		Expected:  "as many distinct non-NULL values as rows",
		Prior:     0.8,
		SQL: fmt.Sprintf("SELECT COUNT(*) AS row_count, COUNT(%s) AS non_null, COUNT(DISTINCT %s) AS distinct_values FROM %s",
			q, q, d.QuoteTable(t.Name)),
		Judge: func(row hypotheses.Row) hypotheses.Verdict {
			n, _ := row.Int("row_count")
			nn, _ := row.Int("non_null")
			d, _ := row.Int("distinct_values")
			ev := []string{fmt.Sprintf("%d rows, %d non-NULL, %d distinct", n, nn, d)}
			if n > 0 && nn == n && d == n {
				return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.9, Evidence: ev}
			}
			return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 1.0, Evidence: ev}
		},
	}
}

// test runs h. A test that fails is an inconclusive outcome carrying the
// error; only a cancelled run or a spent deadline is returned as an error.
func test(ctx context.Context, env *experts.Env, h hypotheses.Hypothesis) (hypotheses.Outcome, error) {
	out, err := hypotheses.Test(ctx, env, h)
	if err != nil {
		if ctx.Err() != nil {
			return out, err
		}
		out = hypotheses.Failed(h, err)
	}
	return out, nil
}

// testKey runs the key test and, when it holds, records the key as the
// table's inferred primary key.
func testKey(ctx context.Context, env *experts.Env, t warehouse.Table, cols []string, h hypotheses.Hypothesis) error {
	out, err := test(ctx, env, h)
	if err != nil {
		return err
	}
	// The hypothesis marks the key tested (Plan looks for it): saved after
	// the table's key, so a kill in between tests it again on --resume.
	save := func() error { return hypotheses.Save(ctx, env, out, "key") }
	if out.Doc.Status != hypotheses.Confirmed {
		return save()
	}
	name := t.Name.String()
	e, err := env.Catalog.Get(ctx, catalog.KindTable, name)
	if err != nil {
		return fmt.Errorf("test key %s: %w", name, err)
	}
	var doc catalog.TableDoc
	if err := e.Decode(&doc); err != nil {
		return fmt.Errorf("test key %s: %w", name, err)
	}
	if len(doc.PrimaryKey) > 0 {
		return save()
	}
	doc.PrimaryKey = cols
	doc.PrimaryKeySource = "inferred"
	ev := append(append([]string{}, e.Evidence...), fmt.Sprintf("key %s inferred: %s (hypothesis %s)", strings.Join(cols, ", "), strings.Join(out.Verdict.Evidence, "; "), h.ID))
	if err := catalog.Tables.Save(ctx, env, name, doc, e.Confidence, ev, e.Tags...); err != nil {
		return err
	}
	return save()
}
