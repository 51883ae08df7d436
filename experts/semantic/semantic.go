// Package semantic is the expert that says what the data means: each
// column's semantic type (email, enum, foreign key, …), the entity each
// table's rows are, and the business domain of the whole database. It works
// from rules over names, declared types, the statistical expert's profiles
// and a small sample of values; no model is involved.
//
// It reads from the catalog, for this run: the statistical expert's
// profiles (kind profile), once a table has reached experts.Profiled, the
// structural expert's tables (kind table: an inferred key, the row count)
// and the key tests of the ledger (kind hypothesis). It writes each
// column's semantic type (kind semantic), then each table's entity (kind
// entity: the table is done, and the rules expert may start on it), the
// domain (kind domain), an uncertainty for a table whose values could not
// be sampled, and its progress entry for the domain rescored with values.
package semantic

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/keys"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/privacy"
	"github.com/discover-db/discover/warehouse"
)

// Name is the expert's name in tasks and catalog entries.
const Name = "semantic"

const (
	// sampleRows is how many rows of text columns one table's sample reads.
	sampleRows = 200
	// nameConfidence is how sure a type read from a table name is.
	nameConfidence = 0.6
)

// Expert classifies columns, names entities and guesses the domain.
type Expert struct{}

var _ experts.Expert = (*Expert)(nil)

// New returns a semantic expert.
func New() *Expert { return &Expert{} }

// Name implements experts.Expert.
func (x *Expert) Name() string { return Name }

// Plan returns one task per table whose columns are all profiled in this run
// (or whose profiling was given up) and which has no entity yet, and the
// domain task until the domain is recorded.
func (x *Expert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	profiles, err := env.RunEntries(ctx, catalog.KindProfile)
	if err != nil {
		return nil, fmt.Errorf("semantic plan: %w", err)
	}
	byKey := make(map[string]catalog.ProfileDoc, len(profiles))
	profiledIn := map[string]int{} // the iteration of a table's latest profile
	for _, e := range profiles {
		var p catalog.ProfileDoc
		if err := e.Decode(&p); err != nil || p.Provisional {
			continue // a provisional profile (planner estimates) is replaced soon
		}
		byKey[e.Key] = p
		profiledIn[p.Table] = max(profiledIn[p.Table], e.Iteration)
	}
	entities, err := env.RunKeys(ctx, catalog.KindEntity)
	if err != nil {
		return nil, fmt.Errorf("semantic plan: %w", err)
	}
	// A table the statistical expert gave up on gets no more profiles: it
	// has reached experts.Profiled all the same.
	profiled, err := env.TablesReached(ctx, experts.Profiled)
	if err != nil {
		return nil, fmt.Errorf("semantic plan: %w", err)
	}
	// The first table task of the round in which the last profiles arrive
	// also rescores the domain with the words of the code lists' values.
	refine := len(byKey) > 0
	for _, t := range env.Tables {
		if !profiled[t.Name.String()] {
			refine = false
		}
	}
	if refine {
		done, err := env.Has(ctx, catalog.KindProgress, domainValuesStep)
		if err != nil {
			return nil, fmt.Errorf("semantic plan: %w", err)
		}
		refine = !done
	}
	var tasks []experts.Task
	var shared *schemaNames // built once, when some table has a task
	for _, t := range env.Tables {
		name := t.Name.String()
		if entities[name] {
			continue
		}
		ps := make(map[string]*catalog.ProfileDoc, len(t.Columns))
		for _, c := range t.Columns {
			if p, ok := byKey[name+"."+c.Name]; ok {
				ps[c.Name] = &p
			}
		}
		// A table whose profiling was given up is classified with what
		// there is.
		if !profiled[name] {
			continue
		}
		if len(ps) == len(t.Columns) && profiledIn[name] >= env.Iteration-1 {
			pending, err := keyPending(ctx, env, t, ps)
			if err != nil {
				return nil, fmt.Errorf("semantic plan: %w", err)
			}
			if pending {
				continue
			}
		}
		withDomain := refine
		refine = false
		if shared == nil {
			shared = newSchemaNames(env)
		}
		tasks = append(tasks, experts.Task{
			Expert: Name,
			Name:   "semantics " + name,
			Table:  name,
			Run: func(ctx context.Context) error {
				// The domain first: the table's entity marks this task
				// done, so a run killed between the two would never
				// rescore the domain on --resume.
				if withDomain {
					if err := refineDomain(ctx, env); err != nil {
						return err
					}
				}
				return analyzeTable(ctx, env, t, ps, shared)
			},
		})
	}
	// The domain is scored from table and column names alone, so it need
	// not wait for the entities: it runs in the first round.
	if len(env.Tables) > 0 {
		done, err := env.Has(ctx, catalog.KindDomain, "domain")
		if err != nil {
			return nil, fmt.Errorf("semantic plan: %w", err)
		}
		if !done {
			tasks = append(tasks, experts.Task{Expert: Name, Name: "domain", Run: func(ctx context.Context) error {
				return guessDomain(ctx, env)
			}})
		}
	}
	return tasks, nil
}

// schemaNames is what every table's task reads of the whole schema, built
// once per plan: built per task, it made a run quadratic in its tables.
type schemaNames struct {
	inventory map[string]bool // every table's entity, its words joined by _
	referrers *ReferrerIndex
}

func newSchemaNames(env *experts.Env) *schemaNames {
	s := &schemaNames{inventory: map[string]bool{}, referrers: NewReferrerIndex(VisibleTables(env))}
	for _, o := range env.Tables {
		s.inventory[strings.Join(naming.Words(entityType(o.Name.Name)), "_")] = true
	}
	return s
}

// analyzeTable classifies every column of t, then saves its entity; the
// entity marks the table done.
func analyzeTable(ctx context.Context, env *experts.Env, t warehouse.Table, profiles map[string]*catalog.ProfileDoc, shared *schemaNames) error {
	if env.Options.IgnoreDeclaredFKs {
		// As if nothing were declared: references are judged from names
		// and values, as the relationship benchmark needs them to be.
		t.ForeignKeys = nil
	}
	name := t.Name.String()
	doc := tableDoc(ctx, env, t)
	pk, inferred := t.PrimaryKey, false
	if len(pk) == 0 && doc != nil && len(doc.PrimaryKey) > 0 {
		pk, inferred = doc.PrimaryKey, true // the structural expert inferred it
	}

	// A table far larger than --sample-rows is read through a bounded
	// sample by every statement below (issue 9).
	scope, err := env.Scope(ctx, t)
	if err != nil {
		return fmt.Errorf("semantics %s: %w", name, err)
	}
	samples, sampled, err := sampleTable(ctx, env, t, scope, profiles)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) {
			return fmt.Errorf("semantics %s: %w", name, err)
		}
		// Names and profiles still say a lot; the sample only sharpens them.
		_ = catalog.Uncertainties.Save(ctx, env, "semantic:"+name,
			catalog.UncertaintyDoc{Description: fmt.Sprintf("values of %s could not be sampled; its columns were classified from names and profiles: %v", name, err)},
			1.0, []string{err.Error()}, name)
	}

	fks := map[string]bool{}
	for _, fk := range t.ForeignKeys {
		for _, c := range fk.Columns {
			fks[c] = true
		}
	}
	inventory := shared.inventory
	tableWords := naming.Words(entityType(t.Name.Name))
	// The column types commit together, before the entity.
	batch := env.Batch()
	verdicts := map[string]verdict{}
	for _, c := range t.Columns {
		col := column{
			Table:          name,
			Name:           c.Name,
			Type:           c.Type,
			Tokens:         naming.Words(c.Name),
			PK:             len(pk) == 1 && pk[0] == c.Name,
			PKInferred:     inferred,
			InPK:           len(pk) > 1 && contains(pk, c.Name),
			DeclaredFK:     fks[c.Name],
			Profile:        profiles[c.Name],
			Sample:         samples[c.Name],
			SampleTaken:    sampled[c.Name],
			TableWords:     tableWords,
			InventoryNames: inventory,
		}
		v := classify(col)
		verdicts[c.Name] = v
		sd := catalog.SemanticDoc{Table: name, Column: c.Name, SemanticType: v.Type, Reasons: v.Reasons}
		if f, ok := privacy.Detect(privacy.Column{Words: col.Tokens, SemanticType: v.Type, SemanticConfidence: v.Confidence,
			Values: col.Sample}); ok {
			sd.PII = &catalog.PIIDoc{Category: f.Category, Confidence: f.Confidence, Evidence: f.Evidence}
		}
		if err := catalog.Semantics.Save(ctx, batch, name+"."+c.Name, sd, v.Confidence, nonNil(v.Evidence),
			name, v.Type); err != nil {
			return fmt.Errorf("semantics %s: %w", name, err)
		}
	}
	if err := batch.Flush(ctx); err != nil {
		return fmt.Errorf("semantics %s: %w", name, err)
	}

	// The entity comes last: it marks the table done, here and for the
	// rules expert, which reads the column types saved above once it exists.
	rows := rowCount(doc, profiles)
	ent, conf, ev := describeEntity(t, pk, rows, verdicts, viewUnit(shared, t, rows, profiles, verdicts))
	if more := relatedText(shared, t, pk, verdicts); more != "" {
		ent.Description += "; " + more
	}
	if err := catalog.Entities.Save(ctx, env, name, ent, conf, ev, name, ent.Type); err != nil {
		return fmt.Errorf("semantics %s: %w", name, err)
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

// rowRange is a table's row count as far as it is known.
type rowRange struct {
	n        int64
	known    bool
	estimate bool // n is the engine's estimate
	lower    bool // n is a sample's size: the table has more
}

func rowCount(doc *catalog.TableDoc, profiles map[string]*catalog.ProfileDoc) rowRange {
	if doc != nil && doc.RowCount != nil && doc.RowCountIsLowerBound {
		// A count that stopped: at least RowCount rows, more than RowCount−1.
		return rowRange{n: *doc.RowCount - 1, known: true, lower: true}
	}
	if doc != nil && doc.RowCount != nil {
		return rowRange{n: *doc.RowCount, known: true, estimate: doc.RowCountIsEstimate}
	}
	for _, p := range profiles {
		return rowRange{n: p.Rows, known: true, lower: p.Sampled}
	}
	return rowRange{}
}

// sampleColumns are the columns worth reading values of: all but numbers,
// blobs and columns with no values. Numbers under a name that says
// personal data (telefono, ssn) are read: a phone or a national number
// stored as an integer is told by its values too.
func sampleColumns(t warehouse.Table, profiles map[string]*catalog.ProfileDoc) []warehouse.Column {
	var out []warehouse.Column
	for _, c := range t.Columns {
		col := column{Type: c.Type}
		if col.isBlob() || (strings.TrimSpace(c.Type) != "" && col.numeric() && !privacy.NamedPersonal(naming.Words(c.Name))) {
			continue
		}
		if p := profiles[c.Name]; p != nil && p.NullFraction != nil && *p.NullFraction >= 1 {
			continue
		}
		out = append(out, c)
	}
	return out
}

// sampleSQL reads up to sampleRows rows with a value in any of cols, every
// value cast to text so that drivers hand back strings whatever the type.
// A table far larger than the sample is searched for them among its first
// --sample-rows rows only: columns almost always NULL would otherwise make
// the search read all of it.
func sampleSQL(d warehouse.Dialect, t warehouse.TableName, scope experts.Scope, cols []warehouse.Column) string {
	sel := make([]string, len(cols))
	where := make([]string, len(cols))
	for i, c := range cols {
		q := d.QuoteIdent(c.Name)
		sel[i] = d.CastText(q)
		where[i] = q + " IS NOT NULL"
	}
	from := d.QuoteTable(t)
	if scope.Sampled {
		from = fmt.Sprintf("(SELECT * FROM %s %s) %s", from, d.Limit(scope.Target), warehouse.SampleAlias)
	}
	return fmt.Sprintf("SELECT %s FROM %s WHERE %s %s",
		strings.Join(sel, ", "), from, strings.Join(where, " OR "), d.Limit(sampleRows))
}

// sampleTable runs the table's one sample query and returns each column's
// non-null values, and which columns were sampled.
func sampleTable(ctx context.Context, env *experts.Env, t warehouse.Table, scope experts.Scope, profiles map[string]*catalog.ProfileDoc) (map[string][]string, map[string]bool, error) {
	cols := sampleColumns(t, profiles)
	values := map[string][]string{}
	taken := map[string]bool{}
	if len(cols) == 0 {
		return values, taken, nil
	}
	res, err := env.Query(ctx, sampleSQL(env.Dialect(), t.Name, scope, cols))
	if err != nil {
		return values, taken, err
	}
	for i, c := range cols {
		taken[c.Name] = true
		for _, row := range res.Rows {
			if i >= len(row) {
				continue
			}
			switch v := row[i].(type) {
			case string:
				values[c.Name] = append(values[c.Name], v)
			case []byte:
				values[c.Name] = append(values[c.Name], string(v))
			case nil:
			default:
				values[c.Name] = append(values[c.Name], fmt.Sprint(v))
			}
		}
	}
	return values, taken, nil
}

// keyPending reports whether the key of t, a table that declares none, is
// still to be tested by the query expert (keys.KeyTest), which plans the
// test in the round its profiles are complete, the round this expert's
// table task becomes ready too. The table's description and its columns'
// types read the key (and, after them, the rules expert's rules); run
// beside the test, they would see it or not by which task finished first,
// and two runs of the same data would report differently. Plan waits one round for it (no longer: a run
// without the query expert never tests it).
func keyPending(ctx context.Context, env *experts.Env, t warehouse.Table, ps map[string]*catalog.ProfileDoc) (bool, error) {
	if t.Kind != "table" || len(t.PrimaryKey) > 0 {
		return false, nil
	}
	profiles := make([]catalog.ProfileDoc, 0, len(ps))
	for _, c := range t.Columns {
		if p := ps[c.Name]; p != nil {
			profiles = append(profiles, *p)
		}
	}
	cols, ok := keys.KeyTest(t, profiles)
	if !ok {
		return false, nil
	}
	done, err := env.Has(ctx, catalog.KindHypothesis, keys.KeyTestID(t, cols))
	return !done, err
}

// describeEntity names what one row of t is, from the table name, its key
// and, for a table keyed by two references, the tables it links. A view's
// name is a query's ("Orders Qry", "Sales by Category"), not a kind of
// thing: its rows are one per an entity only when unit names one (a
// reference unique in the view), and otherwise it is said to be a view.
func describeEntity(t warehouse.Table, pk []string, rows rowRange, verdicts map[string]verdict, unit viewRow) (catalog.EntityDoc, float64, []string) {
	name := t.Name.String()
	typ := entityType(t.Name.Name)
	ev := []string{fmt.Sprintf("type from the table name %q", t.Name.Name)}
	conf := nameConfidence

	var parts []string
	switch links := linkedTables(t, pk, verdicts); {
	case t.Kind == "view" && unit.entity != "":
		parts = append(parts, "One row per "+unit.entity+" (a view)")
		ev = append(ev, fmt.Sprintf("%s refers to a %s and is unique in the view", unit.column, unit.entity))
	case t.Kind == "view":
		parts = append(parts, "A view")
	case len(links) == 2:
		parts = append(parts, fmt.Sprintf("Links %s and %s: one row per %s–%s pair",
			humanize(links[0]), humanize(links[1]), humanize(links[0]), humanize(links[1])))
		ev = append(ev, fmt.Sprintf("primary key (%s) is two references", strings.Join(pk, ", ")))
		conf = 0.7
	default:
		parts = append(parts, "One row per "+humanize(typ))
	}
	switch {
	case !rows.known:
	case rows.estimate:
		parts = append(parts, fmt.Sprintf("about %s rows", catalog.Thousands(rows.n)))
	case rows.lower:
		parts = append(parts, fmt.Sprintf("more than %s rows", catalog.Thousands(rows.n)))
	case rows.n == 1:
		parts = append(parts, "1 row")
	default:
		parts = append(parts, fmt.Sprintf("%s rows", catalog.Thousands(rows.n)))
	}
	switch len(pk) {
	case 0:
		if t.Kind != "view" { // a view declares no key: saying so tells nothing
			parts = append(parts, "no primary key")
		}
	case 1:
		parts = append(parts, "identified by "+pk[0])
	default:
		parts = append(parts, "identified by ("+strings.Join(pk, ", ")+")")
	}
	if len(pk) > 0 {
		ev = append(ev, "primary key ("+strings.Join(pk, ", ")+")")
	}
	if rows.known {
		ev = append(ev, fmt.Sprintf("%d rows", rows.n))
	}
	return catalog.EntityDoc{Table: name, Type: typ, Description: strings.Join(parts, "; ")}, conf, ev
}

// viewRow is the entity a view's rows are one each of, and the column
// that says so.
type viewRow struct{ entity, column string }

// viewUnit finds, for a view, a column that refers to a table of the
// database (by declaration-free evidence: its type and name) and holds a
// different value in every one of the view's rows, none NULL, counted
// exactly: the view then has one row per that table's entity (Orders Qry,
// one row per order). Left empty for tables, for views whose figures are
// estimates, and when no such column exists or two name different tables.
func viewUnit(shared *schemaNames, t warehouse.Table, rows rowRange, profiles map[string]*catalog.ProfileDoc, verdicts map[string]verdict) viewRow {
	if t.Kind != "view" || !rows.known || rows.estimate || rows.lower || rows.n < 2 {
		return viewRow{}
	}
	var found viewRow
	for _, c := range t.Columns {
		p := profiles[c.Name]
		v := verdicts[c.Name]
		if p == nil || p.DistinctCount == nil || p.DistinctIsEstimate || *p.DistinctCount != rows.n ||
			p.NullFraction == nil || *p.NullFraction != 0 || (v.Type != TypeForeignKey && v.Type != TypeIdentifier) {
			continue
		}
		col := column{Name: c.Name, Tokens: naming.Words(c.Name), InventoryNames: shared.inventory}
		w, ok := col.refersToTable()
		if !ok {
			continue
		}
		entity := strings.ReplaceAll(w, "_", " ")
		if found.entity != "" && found.entity != entity {
			return viewRow{} // rows that are one per two things are neither
		}
		if found.entity == "" {
			found = viewRow{entity: entity, column: c.Name}
		}
	}
	return found
}

// describedBy are the semantic types that tell one row from another to a
// person, in the order a description names them.
var describedBy = []string{TypePersonName, TypeLabel, TypeEmail, TypePhone, TypeEnum, TypeCountry, TypeMeasure}

// relatedText completes an entity's description from its columns and
// relationships: what its rows refer to, what refers to them, the columns
// that describe a row, and the time that dates it.
func relatedText(shared *schemaNames, t warehouse.Table, pk []string, verdicts map[string]verdict) string {
	var parts []string
	var refs []string
	declared := map[string]bool{}
	for _, fk := range t.ForeignKeys {
		if len(fk.Columns) == 1 {
			declared[fk.Columns[0]] = true
			refs = append(refs, fmt.Sprintf("%s (%s)", humanize(entityType(fk.RefTable.Name)), fk.Columns[0]))
		}
	}
	for _, c := range t.Columns {
		if declared[c.Name] || verdicts[c.Name].Type != TypeForeignKey || contains(pk, c.Name) && len(pk) > 1 {
			continue
		}
		col := column{Name: c.Name, Tokens: naming.Words(c.Name), InventoryNames: shared.inventory}
		if w, ok := col.refersToTable(); ok {
			refs = append(refs, fmt.Sprintf("%s (%s)", strings.ReplaceAll(w, "_", " "), c.Name))
		}
	}
	if len(refs) > 0 {
		parts = append(parts, "refers to "+catalog.JoinAnd(refs))
	}
	var kids []string
	for _, k := range shared.referrers.Of(t, pk) {
		kids = append(kids, fmt.Sprintf("%s (%s)", k.Table.Name.String(), k.Column))
	}
	if len(kids) > 0 {
		parts = append(parts, "referred to by "+catalog.JoinAnd(kids))
	}
	var attrs []string
	for _, typ := range describedBy {
		for _, c := range t.Columns {
			if len(attrs) < 4 && verdicts[c.Name].Type == typ && !contains(pk, c.Name) {
				attrs = append(attrs, c.Name)
			}
		}
	}
	if len(attrs) > 0 {
		parts = append(parts, "described by "+catalog.JoinAnd(attrs))
	}
	for _, c := range t.Columns {
		if v := verdicts[c.Name]; v.Type == TypeTimestamp || v.Type == TypeDate {
			if !(&column{Tokens: naming.Words(c.Name)}).has(birthWords) {
				parts = append(parts, "dated by "+c.Name)
				break
			}
		}
	}
	return strings.Join(parts, "; ")
}

// linkedTables returns the entity types a two-column key refers to, when
// both its columns are references (declared or classified as such).
func linkedTables(t warehouse.Table, pk []string, verdicts map[string]verdict) []string {
	if len(pk) != 2 {
		return nil
	}
	var out []string
	for _, c := range pk {
		ref := ""
		for _, fk := range t.ForeignKeys {
			if len(fk.Columns) == 1 && fk.Columns[0] == c {
				ref = entityType(fk.RefTable.Name)
			}
		}
		if ref == "" {
			if verdicts[c].Type != TypeForeignKey {
				return nil
			}
			toks := naming.Words(c)
			if len(toks) < 2 {
				return nil
			}
			ref = entityType(strings.Join(toks[:len(toks)-1], "_"))
		}
		out = append(out, ref)
	}
	return out
}

// domainValuesStep marks the domain as rescored with the values' words.
const domainValuesStep = "semantic:domain_values"

// guessDomain scores the lexicon against every table and column name.
func guessDomain(ctx context.Context, env *experts.Env) error {
	return saveDomain(ctx, env, nil)
}

// refineDomain scores the lexicon again, now with the words of the values
// of the code-list columns the statistical expert profiled (status values,
// types, channels), and marks it done.
func refineDomain(ctx context.Context, env *experts.Env) error {
	profiles, err := env.RunEntries(ctx, catalog.KindProfile)
	if err != nil {
		return fmt.Errorf("domain: %w", err)
	}
	var values []string
	for _, e := range profiles {
		var p catalog.ProfileDoc
		if err := e.Decode(&p); err != nil || p.Provisional || p.DistinctCount == nil ||
			*p.DistinctCount > enumMaxDistinct || p.Rows < enumMinRows {
			continue
		}
		for _, tv := range p.TopValues {
			if wordy(tv.Value) {
				values = append(values, tv.Value)
			}
		}
	}
	sort.Strings(values)
	if err := saveDomain(ctx, env, values); err != nil {
		return err
	}
	return catalog.Progress.Save(ctx, env, domainValuesStep,
		catalog.ProgressDoc{Step: domainValuesStep, Detail: fmt.Sprintf("%d values", len(values))}, 1, []string{})
}

// wordy reports whether a value is a short phrase of letters (a code
// list's label), not a number, a code or prose.
func wordy(v string) bool {
	if v == "" || len(v) > 40 {
		return false
	}
	letters := 0
	for _, r := range v {
		switch {
		case unicode.IsLetter(r):
			letters++
		case r == ' ' || r == '_' || r == '-':
		default:
			return false
		}
	}
	return letters >= 2
}

func saveDomain(ctx context.Context, env *experts.Env, values []string) error {
	var tables, columns []string
	for _, t := range env.Tables {
		tables = append(tables, t.Name.Name)
		for _, c := range t.Columns {
			columns = append(columns, c.Name)
		}
	}
	sort.Strings(tables)
	g := scoreVocabulary(tables, columns, values)
	if err := catalog.Domains.Save(ctx, env, "domain", catalog.DomainDoc{Label: g.Label},
		g.Confidence, g.Evidence, g.Label); err != nil {
		return fmt.Errorf("domain: %w", err)
	}
	return nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
