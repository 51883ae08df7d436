// Package structural is the expert for declared structure: tables, views,
// columns, keys, constraints, indexes, exact row counts, declared foreign
// keys, the references configured in discover.yaml, and the structural
// patterns all references form (hierarchy, bridge, star, snowflake,
// one-to-one extension, isolated tables). References nobody declared are
// the relations expert's (experts/relations).
//
// It reads the inventory (Env.Tables) and the options (configured
// relations, IgnoreDeclaredFKs); from the catalog, this run's entries only:
// its own table and progress entries and the orchestrator's record of an
// inventory it gave up, to plan; and, once milestone
// experts.ReferencesInferred is reached, every relationship entry (declared,
// configured or inferred) and the table entries, for the patterns.
//
// It writes: a table entry per table or view (saved last for each, so that
// it marks the inventory done); relationship entries with source "declared"
// (tagged "declared") and "user"; an index recommendation
// "index:<relationship>" for a declared reference no index starts with;
// uncertainties "dangling_fk:..." and "config:relation:..." for a reference
// to nothing; pattern entries; the objects entry "objects" (the database's
// enumerated types and routines, where the engine lists them); and
// progress entries structural:user_relations and structural:patterns.
package structural

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/warehouse"
)

// Name is the expert's name in the catalog and in progress events.
const Name = "structural"

// Expert is the structural expert.
type Expert struct{}

var _ experts.Expert = (*Expert)(nil)

// New returns the structural expert.
func New() *Expert { return &Expert{} }

// Name implements experts.Expert.
func (*Expert) Name() string { return Name }

// Plan inventories every table not yet recorded in this run, then, once the
// inventory is complete and the references inferred, looks for patterns
// among the relationships.
func (x *Expert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	var tasks []experts.Task
	missing := 0
	// One index of the tables for every inventory of the plan: built per
	// table, it made the inventories quadratic in the tables.
	byName := sync.OnceValue(func() naming.TableIndex { return naming.NewTableIndex(env.Tables) })
	for _, t := range env.Tables {
		t := t
		done, err := env.Has(ctx, catalog.KindTable, t.Name.String())
		if err != nil {
			return nil, fmt.Errorf("structural: plan: %w", err)
		}
		if done {
			continue
		}
		// A table the orchestrator gave up on is not waited for: the
		// patterns of every other table would wait forever.
		gaveUp, err := env.GaveUp(ctx, experts.Inventoried, t.Name.String())
		if err != nil {
			return nil, fmt.Errorf("structural: plan: %w", err)
		}
		if gaveUp {
			continue
		}
		missing++
		tasks = append(tasks, experts.Task{Expert: Name, Name: "inventory " + t.Name.String(), Table: t.Name.String(),
			Reaches: &experts.Inventoried,
			Run:     func(ctx context.Context) error { return inventory(ctx, env, t, byName()) }})
	}
	if len(env.Options.Relations) > 0 {
		done, err := env.Has(ctx, catalog.KindProgress, "structural:user_relations")
		if err != nil {
			return nil, fmt.Errorf("structural: plan: %w", err)
		}
		if !done {
			tasks = append(tasks, experts.Task{Expert: Name, Name: "configured relations",
				Run: func(ctx context.Context) error { return userRelations(ctx, env) }})
		}
	}
	// The database's enumerated types and routines: one task nothing
	// waits for, so it is planned beside the others and does not hold the
	// patterns back, even once given up.
	var side []experts.Task
	if env.CanListObjects() {
		done, err := env.Has(ctx, catalog.KindObjects, objectsKey)
		if err != nil {
			return nil, fmt.Errorf("structural: plan: %w", err)
		}
		if !done {
			side = append(side, experts.Task{Expert: Name, Name: "enum types and routines",
				Run: func(ctx context.Context) error { return objects(ctx, env) }})
		}
	}
	if missing > 0 || len(tasks) > 0 {
		return append(tasks, side...), nil
	}
	// The patterns are found over every reference, so they wait for the
	// relations expert's inference.
	inferred, err := env.Reached(ctx, experts.ReferencesInferred)
	if err != nil {
		return nil, fmt.Errorf("structural: plan: %w", err)
	}
	if !inferred {
		return side, nil
	}
	done, err := env.Has(ctx, catalog.KindProgress, patternsStep)
	if err != nil {
		return nil, fmt.Errorf("structural: plan: %w", err)
	}
	if !done {
		tasks = append(tasks, experts.Task{Expert: Name, Name: "structural patterns",
			Run: func(ctx context.Context) error { return patterns(ctx, env) }})
	}
	return append(tasks, side...), nil
}

// objectsKey is the key of the run's one objects entry.
const objectsKey = "objects"

// objects records the database's enumerated types and routines.
func objects(ctx context.Context, env *experts.Env) error {
	objs, _, err := env.Objects(ctx)
	if err != nil {
		return fmt.Errorf("list enum types and routines: %w", err)
	}
	doc := catalog.ObjectsDoc{}
	for _, e := range objs.Enums {
		doc.Enums = append(doc.Enums, catalog.EnumDoc{Name: e.Name.String(), Labels: nonNil(e.Labels), Comment: e.Comment})
	}
	for _, r := range objs.Routines {
		doc.Routines = append(doc.Routines, catalog.RoutineDoc{Name: r.Name.String(), Kind: r.Kind, Arguments: r.Arguments,
			Returns: r.Returns, Language: r.Language, Comment: r.Comment})
	}
	return catalog.Objects.Save(ctx, env, objectsKey, doc, 1.0, []string{fmt.Sprintf("declared in %s's catalog: %d enumerated types, %d routines",
		env.Dialect().Name(), len(doc.Enums), len(doc.Routines))})
}

// inventory records one table, its declared foreign keys and the indexes
// they lack.
func inventory(ctx context.Context, env *experts.Env, t warehouse.Table, byName naming.TableIndex) error {
	name := t.Name.String()
	doc := TableDoc(t)
	withUserComments(&doc, t, env.Options.Comments, byName)
	n, exact, lower, ev, err := rowCount(ctx, env, t)
	if err != nil {
		return fmt.Errorf("inventory %s: count rows: %w", name, err)
	}
	doc.RowCount = &n
	doc.RowCountIsEstimate = !exact
	doc.RowCountIsLowerBound = lower
	conf := 1.0
	if !exact {
		conf = 0.8
	}
	fks := t.ForeignKeys
	if env.Options.IgnoreDeclaredFKs {
		fks = nil // benchmarks: relationships are inferred, not read
	}
	for _, fk := range fks {
		// The real spelling, whatever case the declaration used (an
		// engine that folds names keeps it as written), but never another
		// table's: where names keep their case "Users" and users are two.
		parent, _ := byName.Find(fk.RefTable.String())
		if len(fk.RefColumns) == 0 {
			// REFERENCES ghost: no columns named, and no table whose key
			// they would be. Not a relationship anyone can follow or check.
			doc := catalog.UncertaintyDoc{Description: fmt.Sprintf(
				"%s(%s) is declared to reference %s, which does not exist and whose columns the declaration does not name.",
				name, strings.Join(fk.Columns, ", "), fk.RefTable.String())}
			if err := catalog.Uncertainties.Save(ctx, env, "dangling_fk:"+name+"("+strings.Join(fk.Columns, ",")+")", doc, 1.0,
				[]string{fmt.Sprintf("declared: FOREIGN KEY (%s) REFERENCES %s", strings.Join(fk.Columns, ", "), fk.RefTable.String())}); err != nil {
				return err
			}
			continue
		}
		rel := catalog.RelationshipDoc{
			FromTable: name, FromColumns: fk.Columns,
			ToTable: fk.RefTable.String(), ToColumns: fk.RefColumns,
			Source: "declared", Cardinality: Cardinality(t, fk.Columns),
			ConstraintName: fk.Name, OnDelete: fk.OnDelete, OnUpdate: fk.OnUpdate,
		}
		if parent.Name.Name != "" {
			rel.ToTable = parent.Name.String()
		}
		evidence := []string{fmt.Sprintf("declared: FOREIGN KEY (%s) REFERENCES %s (%s)",
			strings.Join(fk.Columns, ", "), fk.RefTable.String(), strings.Join(fk.RefColumns, ", "))}
		conf := 0.9 // declared, not yet confirmed against the data
		if parent.Name.Name == "" {
			evidence = append(evidence, "the referenced table does not exist")
			conf = 0.3
		}
		if err := catalog.Relationships.Save(ctx, env, rel.Key(), rel, conf, evidence, "declared"); err != nil {
			return err
		}
		// Advice only where it can matter: an empty or small table is read
		// in a few pages, index or not; an engine with no indexes has none
		// to add.
		if t.Stored() && n >= experts.IndexMinRows && !indexed(t, fk.Columns) && !env.Dialect().Capabilities().NoIndexes {
			rec := catalog.RecommendationDoc{
				Kind: "index",
				Description: fmt.Sprintf("%s(%s) references %s but no index starts with it; joins and parent deletes scan %s.",
					name, strings.Join(fk.Columns, ", "), rel.ToTable, name),
				SQL: fmt.Sprintf("CREATE INDEX %s ON %s (%s)",
					env.Dialect().QuoteIdent("idx_"+t.Name.Name+"_"+strings.Join(fk.Columns, "_")),
					env.Dialect().QuoteTable(t.Name), quoteList(env.Dialect(), fk.Columns)),
			}
			if err := catalog.Recommendations.Save(ctx, env, "index:"+rel.Key(), rec, 0.8,
				[]string{"no declared index on " + name + "(" + strings.Join(fk.Columns, ", ") + ")"}); err != nil {
				return err
			}
		}
	}
	// The table entry marks the inventory done, so it is saved last: a run
	// killed before it redoes the table on --resume, rather than skipping
	// it with its declared references lost.
	return catalog.Tables.Save(ctx, env, name, doc, conf, ev, t.Kind)
}

// exactCountFactor: tables whose estimated size exceeds this many times the
// sample size are not counted exactly; a full count of a billion-row table
// costs more than the rest of the discovery. The experts' one bound of
// whole reads: the others take a count that stopped here as a lower bound.
const exactCountFactor = experts.WholeScanFactor

// rowCount counts a table's rows exactly, unless the source has a cheap
// estimate that says the table is too big to count. A view, and what
// nothing can estimate (a virtual table, a table with no integer key and
// no statistics), is counted only up to exactCountFactor
// samples plus one (Env.CountUpTo): a view over a 100M-row table is not
// evaluated whole, and its count is a lower bound (lower), marked an
// estimate too, with evidence saying where the count stopped. A view's
// estimate (an EXPLAIN's) is not taken: it is the planner's guess,
// and a guess too low would have the view counted whole.
func rowCount(ctx context.Context, env *experts.Env, t warehouse.Table) (n int64, exact, lower bool, ev []string, err error) {
	estimated := false
	// A foreign table's estimate is the wrapper's guess, as a view's is.
	if env.Options.SampleRows > 0 && t.Stored() {
		n, exact, ok, err := env.EstimateRows(ctx, t.Name)
		if err == nil && ok && (exact || n > exactCountFactor*env.Options.SampleRows) {
			what := "estimate"
			if exact {
				what = "exact, from the catalog"
			}
			return n, exact, false, []string{fmt.Sprintf("row count %d (%s of %s)", n, what, env.Dialect().Name())}, nil
		}
		estimated = err == nil && ok
	}
	count := fmt.Sprintf("SELECT count(*) FROM %s", env.Dialect().QuoteTable(t.Name))
	if !estimated && env.Options.SampleRows > 0 {
		limit := experts.CountLimit(env.Dialect(), env.Options.SampleRows)
		n, more, err := env.CountUpTo(ctx, t.Name, limit)
		if err != nil {
			return 0, false, false, nil, err
		}
		if more {
			return n, false, true, []string{fmt.Sprintf("more than %s rows: the count stopped at %s (count(*) over the first %s rows of %s)",
				catalog.Thousands(limit), catalog.Thousands(n), catalog.Thousands(n), env.Dialect().QuoteTable(t.Name))}, nil
		}
		return n, true, false, []string{fmt.Sprintf("%s = %d", count, n)}, nil
	}
	n, err = env.RowCount(ctx, t.Name)
	if err != nil {
		return 0, false, false, nil, err
	}
	return n, true, false, []string{fmt.Sprintf("%s = %d", count, n)}, nil
}

// userRelations records the references of discover.yaml (source "user"),
// unless the schema declares the same one. A reference to a table or column
// that does not exist is an uncertainty, not a relationship.
func userRelations(ctx context.Context, env *experts.Env) error {
	byName := naming.NewTableIndex(env.Tables)
	for _, ur := range env.Options.Relations {
		desc := fmt.Sprintf("%s(%s) -> %s(%s)", ur.FromTable, strings.Join(ur.FromColumns, ", "), ur.ToTable, strings.Join(ur.ToColumns, ", "))
		child, okc := byName.Find(ur.FromTable)
		parent, okp := byName.Find(ur.ToTable)
		fromCols, okf := resolveColumns(child, ur.FromColumns)
		toCols, okt := resolveColumns(parent, ur.ToColumns)
		if !okc || !okp || !okf || !okt {
			doc := catalog.UncertaintyDoc{Description: "The configured relation " + desc + " names a table or column that is not in the database (or was excluded)."}
			if err := catalog.Uncertainties.Save(ctx, env, "config:relation:"+desc, doc, 1.0, []string{"discover.yaml relations"}); err != nil {
				return err
			}
			continue
		}
		rel := catalog.RelationshipDoc{
			FromTable: child.Name.String(), FromColumns: fromCols, ToTable: parent.Name.String(), ToColumns: toCols,
			Source: "user", Cardinality: Cardinality(child, fromCols),
		}
		declared := false
		for _, fk := range child.ForeignKeys {
			if ref, ok := byName.Find(fk.RefTable.String()); ok && ref.Name == parent.Name && sameSet(fk.Columns, fromCols) {
				declared = true
			}
		}
		if declared {
			continue // the schema says it already; the declared finding stands
		}
		if err := catalog.Relationships.Save(ctx, env, rel.Key(), rel, 0.8,
			[]string{"configured in discover.yaml: " + desc}, "user"); err != nil {
			return err
		}
	}
	return catalog.Progress.Save(ctx, env, "structural:user_relations",
		catalog.ProgressDoc{Step: "user_relations", Detail: fmt.Sprintf("%d configured", len(env.Options.Relations))}, 1.0, nil)
}

// ResolveComment finds what a discover.yaml comment's key names: a table
// or view ("orders", "sales.orders"), else a column of one, after the last
// dot ("orders.status"). Names resolve as configured relations do
// (naming.TableIndex, naming.FindColumn); ok is false when the key names
// nothing in tables.
func ResolveComment(byName naming.TableIndex, key string) (t warehouse.Table, column string, ok bool) {
	if t, ok := byName.Find(key); ok {
		return t, "", true
	}
	i := strings.LastIndex(key, ".")
	if i <= 0 || i == len(key)-1 {
		return warehouse.Table{}, "", false
	}
	t, ok = byName.Find(key[:i])
	if !ok {
		return warehouse.Table{}, "", false
	}
	column, ok = naming.FindColumn(t, key[i+1:])
	return t, column, ok
}

// withUserComments sets the team's descriptions of t and its columns
// (discover.yaml comments:) on its document, beside the database's own.
// A comment naming nothing was refused before the run (cmd/discover), or
// names a table this run left out.
func withUserComments(doc *catalog.TableDoc, t warehouse.Table, comments []experts.UserComment, byName naming.TableIndex) {
	for _, c := range comments {
		found, column, ok := ResolveComment(byName, c.Key)
		if !ok || found.Name != t.Name {
			continue
		}
		if column == "" {
			doc.UserComment = c.Text
			continue
		}
		for i := range doc.Columns {
			if doc.Columns[i].Name == column {
				doc.Columns[i].UserComment = c.Text
			}
		}
	}
}

// resolveColumns maps configured column names to the table's spelling
// (naming.FindColumn).
func resolveColumns(t warehouse.Table, cols []string) ([]string, bool) {
	out := make([]string, 0, len(cols))
	for _, c := range cols {
		found, ok := naming.FindColumn(t, c)
		if !ok {
			return nil, false
		}
		out = append(out, found)
	}
	return out, len(out) > 0
}

// TableDoc converts introspected structure to the catalog's document.
func TableDoc(t warehouse.Table) catalog.TableDoc {
	doc := catalog.TableDoc{
		Name: t.Name.String(), Kind: t.Kind,
		PrimaryKey: nonNil(t.PrimaryKey),
		Uniques:    [][]string{},
		Indexes:    []catalog.IndexDoc{},
	}
	if len(t.PrimaryKey) > 0 {
		doc.PrimaryKeySource = "declared"
	}
	for _, c := range t.Columns {
		doc.Columns = append(doc.Columns, catalog.ColumnDoc{Name: c.Name, DataType: c.Type, Nullable: c.Nullable, Position: c.Position,
			Default: c.Default, Comment: c.Comment, Generated: c.Generated, GeneratedStored: c.GeneratedStored, Identity: c.Identity,
			OnUpdate: c.OnUpdate, Enum: c.Enum})
	}
	for _, u := range t.Uniques {
		doc.Uniques = append(doc.Uniques, nonNil(u))
	}
	for _, ix := range t.Indexes {
		doc.Indexes = append(doc.Indexes, catalog.IndexDoc{Name: ix.Name, Columns: nonNil(ix.Columns), Unique: ix.Unique,
			Predicate: ix.Predicate, Definition: ix.Definition, Comment: ix.Comment})
	}
	doc.ConstraintComments, doc.CreateStatement, doc.Foreign = maps.Clone(t.ConstraintComments), t.CreateStatement, t.Foreign
	doc.PrimaryKeyName, doc.Comment, doc.Definition, doc.Materialized = t.PrimaryKeyName, t.Comment, t.Definition, t.Materialized
	for _, r := range t.Reads {
		doc.Reads = append(doc.Reads, r.String())
	}
	for _, c := range t.Checks {
		doc.Checks = append(doc.Checks, catalog.CheckDoc{Name: c.Name, Expression: c.Expression})
	}
	for _, tr := range t.Triggers {
		doc.Triggers = append(doc.Triggers, catalog.TriggerDoc{Name: tr.Name, Timing: tr.Timing, Events: nonNil(tr.Events), Definition: tr.Definition,
			Comment: tr.Comment})
	}
	if doc.Columns == nil {
		doc.Columns = []catalog.ColumnDoc{}
	}
	return doc
}

// Cardinality of a reference from child columns: one_to_one when the
// child columns are declared unique (primary key or unique constraint).
func Cardinality(child warehouse.Table, cols []string) string {
	if sameSet(child.PrimaryKey, cols) {
		return "one_to_one"
	}
	for _, u := range child.Uniques {
		if sameSet(u, cols) {
			return "one_to_one"
		}
	}
	return "one_to_many"
}

// indexed reports whether some index (or the primary key) starts with cols,
// in any order, so lookups by the referencing columns can use it. A partial
// index serves only the rows its predicate keeps: a join or a parent's
// delete reading the others still scans the table, so it does not count
// (as in discover lint's unindexed_reference).
func indexed(t warehouse.Table, cols []string) bool {
	prefixOK := func(idx []string) bool {
		if len(idx) < len(cols) {
			return false
		}
		return sameSet(idx[:len(cols)], cols)
	}
	if prefixOK(t.PrimaryKey) {
		return true
	}
	for _, ix := range t.Indexes {
		if ix.Predicate == "" && prefixOK(ix.Columns) {
			return true
		}
	}
	for _, u := range t.Uniques {
		if prefixOK(u) {
			return true
		}
	}
	return false
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	m := map[string]int{}
	for _, s := range a {
		m[strings.ToLower(s)]++
	}
	for _, s := range b {
		m[strings.ToLower(s)]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

func quoteList(d warehouse.Dialect, cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = d.QuoteIdent(c)
	}
	return strings.Join(q, ", ")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
