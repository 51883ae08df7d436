package advice

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/valueclass"
	"github.com/discover-db/discover/internal/textcut"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/privacy"
	"github.com/discover-db/discover/warehouse"
)

const (
	// recsStep marks the recommendations as done for the run. It keeps the
	// spelling it had when the query expert advised, so that a catalog of
	// an earlier run resumes without advising again.
	recsStep = "query:recommendations"
	// indexMinRows is the table size below which an index buys nothing.
	indexMinRows = experts.IndexMinRows
	// largeRows is the size from which a table is explored on a sample and
	// its time column deserves an index.
	largeRows = 100_000
	// partitionRows is the size from which a time-ordered table is worth
	// partitioning.
	partitionRows = 1_000_000
	// runMaxRows bounds the tables whose example queries are run, not only
	// explained.
	runMaxRows = 1_000_000
	// sampleTarget is the sample size advised for a large table.
	sampleTarget = 10_000
	// maxJoins and maxExamples bound the advice of those kinds.
	maxJoins    = 3
	maxExamples = 2
	// TagValidated marks a recommendation whose SQL was validated
	// (report.TagValidated).
	TagValidated = "validated"
)

// facts is what the recommendations are derived from.
type facts struct {
	env      *experts.Env
	d        warehouse.Dialect
	tables   []warehouse.Table
	byName   map[string]warehouse.Table // lower-case name → table
	rows     map[string]int64           // table → rows, -1 when unknown
	pk       map[string][]string        // table → declared or inferred key
	profiles map[string]map[string]catalog.ProfileDoc
	// pii is the personal data each column holds (table.column →
	// category), by the semantic expert; its values are written masked.
	pii     map[string]string
	rels    []catalog.RelationshipDoc
	relKeys []string
	maxKids map[string]int64 // relationship key → most children of one parent, measured
	// scopes say which tables are far larger than --sample-rows: their
	// advice is validated without reading them whole (issue 9).
	scopes map[string]experts.Scope
}

// huge reports whether a table is far larger than --sample-rows.
func (f *facts) huge(table string) bool { return f.scopes[table].Sampled }

func gather(ctx context.Context, env *experts.Env) (*facts, error) {
	f := &facts{env: env, d: env.Dialect(), rows: map[string]int64{},
		pk: map[string][]string{}, profiles: map[string]map[string]catalog.ProfileDoc{}, maxKids: map[string]int64{}, pii: map[string]string{},
		scopes: map[string]experts.Scope{}}
	for _, t := range env.Tables {
		name := t.Name.String()
		s, err := env.Scope(ctx, t)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) {
				return nil, err
			}
			// A table whose size cannot be had in time (a slow view) gets
			// no advice; one table never costs the others theirs.
			continue
		}
		f.tables = append(f.tables, t)
		f.scopes[name] = s
		f.rows[name] = -1
		f.pk[name] = t.PrimaryKey
		f.profiles[name] = map[string]catalog.ProfileDoc{}
	}
	f.byName = tableIndex(f.tables)
	docs, err := env.RunEntries(ctx, catalog.KindTable)
	if err != nil {
		return nil, err
	}
	for _, e := range docs {
		var doc catalog.TableDoc
		if e.Decode(&doc) != nil {
			continue
		}
		if doc.RowCount != nil {
			f.rows[e.Key] = *doc.RowCount
		}
		if len(f.pk[e.Key]) == 0 {
			f.pk[e.Key] = doc.PrimaryKey
		}
	}
	profiles, err := env.RunEntries(ctx, catalog.KindProfile)
	if err != nil {
		return nil, err
	}
	for _, e := range profiles {
		var p catalog.ProfileDoc
		if e.Decode(&p) != nil || p.Provisional || f.profiles[p.Table] == nil {
			continue
		}
		f.profiles[p.Table][p.Column] = p
		if f.rows[p.Table] < 0 && !p.Sampled {
			f.rows[p.Table] = p.Rows
		}
	}
	rels, err := env.RunEntries(ctx, catalog.KindRelationship)
	if err != nil {
		return nil, err
	}
	for _, e := range rels {
		var r catalog.RelationshipDoc
		if e.Decode(&r) == nil {
			f.rels = append(f.rels, r)
			f.relKeys = append(f.relKeys, e.Key)
		}
	}
	hyps, err := env.RunEntries(ctx, catalog.KindHypothesis)
	if err != nil {
		return nil, err
	}
	for _, e := range hyps {
		var h catalog.HypothesisDoc
		if e.Decode(&h) != nil || !strings.HasPrefix(h.ID, "card-") || h.Status == "inconclusive" {
			continue
		}
		// The figures are in the evidence of the cardinality test; the
		// maximum is what the join advice needs.
		for _, ev := range e.Evidence {
			if i := strings.LastIndex(ev, "at most "); i >= 0 {
				if n, err := strconv.ParseInt(strings.ReplaceAll(ev[i+len("at most "):], ",", ""), 10, 64); err == nil {
					f.maxKids[strings.TrimPrefix(h.Subject, experts.CardinalitySubject)] = n
				}
			}
		}
	}
	return f, nil
}

// candidate is one recommendation before validation.
type candidate struct {
	key  string
	doc  catalog.RecommendationDoc
	conf float64
	why  []string // evidence from the catalog: the figures behind the advice
	// probe is the statement validated: the SQL itself, or the query an
	// index would serve.
	probe string
	// run: the probe is cheap enough to run (with a LIMIT) after EXPLAIN.
	run bool
	// runSQL, when set, is what is run in the probe's place: the probe on
	// a sample of a table far larger than --sample-rows, which the probe
	// itself would read whole; runNote says so in the evidence.
	runSQL, runNote string
	// scans names the table an index recommendation expects the probe's
	// plan to scan in full; a plan that already uses an index drops it.
	scans string
	// keep: someone else's recommendation, saved again with its
	// validation whatever the outcome.
	keep bool
	tags []string
	// table and column an index recommendation is about.
	table, column string
}

// recommend derives, validates and saves the recommendations.
func recommend(ctx context.Context, env *experts.Env) error {
	f, err := gather(ctx, env)
	if err != nil {
		return fmt.Errorf("recommendations: %w", err)
	}
	var cands []candidate
	others, err := f.othersIndexes(ctx)
	if err != nil {
		return fmt.Errorf("recommendations: %w", err)
	}
	cands = append(cands, others...)
	if !f.d.Capabilities().NoIndexes {
		cands = append(cands, f.indexes(ctx, others)...)
	}
	cands = append(cands, f.joins()...)
	sampling, err := f.sampling(ctx)
	if err != nil {
		return fmt.Errorf("recommendations: %w", err)
	}
	cands = append(cands, sampling...)
	cands = append(cands, f.partitioning()...)
	cands = append(cands, f.examples()...)
	saved := 0
	for _, c := range cands {
		ok, ev, err := f.validate(ctx, c)
		if err != nil {
			return err
		}
		if !ok && !c.keep {
			continue
		}
		tags := append([]string{c.doc.Kind}, c.tags...)
		if ok {
			tags = append(tags, TagValidated)
		}
		if err := catalog.Recommendations.Save(ctx, env, c.key, c.doc, c.conf, append(append([]string{}, c.why...), ev...), tags...); err != nil {
			return err
		}
		saved++
	}
	return catalog.Progress.Save(ctx, env, recsStep,
		catalog.ProgressDoc{Step: recsStep, Detail: fmt.Sprintf("%d of %d recommendations validated and saved", saved, len(cands))}, 1, []string{})
}

// --- validation -------------------------------------------------------------

var limitRe = regexp.MustCompile(`(?i)\bLIMIT\s+\d+\s*$`)

// validate EXPLAINs the candidate's probe and runs it with a LIMIT when it
// is cheap. ok is false when neither worked, or when an index candidate's
// plan already uses an index. Only a spent budget or a cancelled run is an
// error.
func (f *facts) validate(ctx context.Context, c candidate) (bool, []string, error) {
	var ev []string
	explained := false
	if ex, ok := f.d.(warehouse.Explainer); ok {
		res, err := f.env.Query(ctx, ex.Explain(c.probe))
		switch {
		case err == nil:
			explained = true
			plan := ex.Plan(res)
			ev = append(ev, "EXPLAIN: "+textcut.Runes(plan, 240))
			if c.scans != "" {
				switch scan := ex.PlanScan(plan, c.scans); scan {
				case warehouse.ScanIndexed:
					return false, append(ev, "the plan already uses an index"), nil
				case warehouse.ScanFull:
					ev = append(ev, fmt.Sprintf("the plan reads all of %s: %s", c.scans, c.probe))
				}
			}
		case ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget):
			return false, nil, err
		default:
			ev = append(ev, "EXPLAIN failed: "+textcut.Runes(err.Error(), 160))
		}
	}
	if !c.run {
		return explained, ev, nil
	}
	q := c.probe
	if c.runSQL != "" {
		q = c.runSQL
	}
	if !limitRe.MatchString(q) {
		q += " " + f.d.Limit(20)
	}
	out, err := f.env.Query(ctx, q)
	switch {
	case err == nil:
		// No timing: it differs between runs, and unchanged data must give
		// an unchanged report for a CI job to diff.
		ev = append(ev, fmt.Sprintf("ran with a LIMIT%s: %d rows", c.runNote, len(out.Rows)))
		return true, ev, nil
	case ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget):
		return false, nil, err
	}
	return false, append(ev, "the query failed: "+textcut.Runes(err.Error(), 160)), nil
}

// --- indexes -------------------------------------------------------------------

// indexed reports whether some declared index of t starts with col.
func indexed(t warehouse.Table, col string) bool {
	for _, ix := range t.Indexes {
		if len(ix.Columns) > 0 && strings.EqualFold(ix.Columns[0], col) {
			return true
		}
	}
	return len(t.PrimaryKey) > 0 && strings.EqualFold(t.PrimaryKey[0], col)
}

// piiOf is the personal data table.col holds, by the semantic expert, ""
// for none or with --show-pii: read for the few columns a probe names,
// not for every column of a large catalog.
func (f *facts) piiOf(ctx context.Context, table, col string) string {
	if f.env.Options.ShowPII {
		return ""
	}
	key := table + "." + col
	if cat, ok := f.pii[key]; ok {
		return cat
	}
	var sd catalog.SemanticDoc
	if e, err := f.env.Catalog.Get(ctx, catalog.KindSemantic, key); err == nil && e.Decode(&sd) == nil && sd.PII != nil {
		f.pii[key] = sd.PII.Category
	} else {
		f.pii[key] = ""
	}
	return f.pii[key]
}

// literal is a constant of col's kind for a probe's WHERE clause: a value
// the profile saw, masked when the column holds personal data of category
// pii (the probe is a finding's evidence, and a lookup of a value nobody
// holds shows the plan as well).
func literal(d warehouse.Dialect, p catalog.ProfileDoc, typ, pii string) (string, bool) {
	var v string
	switch {
	case len(p.TopValues) > 0:
		v = p.TopValues[0].Value
	case p.Min != nil:
		v = *p.Min
	default:
		return "", false
	}
	if pii != "" {
		v = privacy.MaskOnce(pii, v)
	}
	if warehouse.NumericType(typ) {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return "", false
		}
		return v, true
	}
	return d.TypedLiteral(typ, v), true
}

func (f *facts) columnOf(t warehouse.Table, name string) (warehouse.Column, bool) {
	for _, c := range t.Columns {
		if c.Name == name {
			return c, true
		}
	}
	return warehouse.Column{}, false
}

// indexCandidate builds the advice to index t(col), probed by an equality
// (or, for a time column, a range) lookup that should read all of t now.
func (f *facts) indexCandidate(ctx context.Context, t warehouse.Table, col, kind, why string) (candidate, bool) {
	name := t.Name.String()
	pii := f.piiOf(ctx, name, col)
	c, ok := f.columnOf(t, col)
	p, okP := f.profiles[name][col]
	if !ok || !okP {
		return candidate{}, false
	}
	q := f.d.QuoteIdent(col)
	var where string
	if kind == "range" {
		// A range from a personal value (a date of birth) has no mask
		// that compares as the value does.
		if p.Max == nil || pii != "" {
			return candidate{}, false
		}
		// A literal of the column's type: Trino compares a date with no
		// string.
		where = q + " >= " + f.d.TypedLiteral(c.Type, *p.Max)
	} else {
		lit, ok := literal(f.d, p, c.Type, pii)
		if !ok {
			return candidate{}, false
		}
		where = q + " = " + lit
	}
	rows := f.rows[name]
	return candidate{
		key: fmt.Sprintf("index:%s(%s)", name, col),
		doc: catalog.RecommendationDoc{Kind: "index",
			Description: fmt.Sprintf("%s; no index starts with %s(%s), so every such lookup reads all %s rows of %s.",
				why, name, col, catalog.Thousands(rows), name),
			SQL: fmt.Sprintf("CREATE INDEX %s ON %s (%s)", f.d.QuoteIdent("idx_"+t.Name.Name+"_"+col), f.d.QuoteTable(t.Name), q)},
		conf:   0.75,
		why:    []string{fmt.Sprintf("%s rows; indexes of %s: %s", catalog.Thousands(rows), name, indexList(t))},
		probe:  fmt.Sprintf("SELECT * FROM %s WHERE %s", f.d.QuoteTable(t.Name), where),
		scans:  t.Name.Name,
		table:  name,
		column: col,
	}, true
}

func indexList(t warehouse.Table) string {
	var out []string
	if len(t.PrimaryKey) > 0 {
		out = append(out, "primary key ("+strings.Join(t.PrimaryKey, ", ")+")")
	}
	for _, ix := range t.Indexes {
		out = append(out, ix.Name+" ("+strings.Join(ix.Columns, ", ")+")")
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// othersIndexes are the index recommendations other experts saved without
// validating them; each is probed by a lookup on its columns.
func (f *facts) othersIndexes(ctx context.Context) ([]candidate, error) {
	recs, err := f.env.RunEntries(ctx, catalog.KindRecommendation)
	if err != nil {
		return nil, err
	}
	var out []candidate
	for _, e := range recs {
		var doc catalog.RecommendationDoc
		if e.Expert == Name || e.Decode(&doc) != nil || doc.Kind != "index" {
			continue
		}
		// Keys name the relationship the index serves: index:child(cols)->parent(cols).
		key := strings.TrimPrefix(e.Key, "index:")
		var rel *catalog.RelationshipDoc
		for i, k := range f.relKeys {
			if k == key {
				rel = &f.rels[i]
			}
		}
		if rel == nil || len(rel.FromColumns) != 1 {
			continue
		}
		t, ok := f.byName[rel.FromTable]
		if !ok {
			continue
		}
		c, ok := f.indexCandidate(ctx, t, rel.FromColumns[0], "equality", "")
		if !ok {
			continue
		}
		out = append(out, candidate{key: e.Key, doc: doc, conf: e.Confidence, why: e.Evidence, probe: c.probe,
			scans: c.scans, keep: true, tags: []string{"reviewed"}, table: c.table, column: c.column})
	}
	return out, nil
}

// keyWords end the names of columns people look rows up by.
var keyWords = map[string]bool{"code": true, "number": true, "no": true, "num": true, "ref": true, "reference": true,
	"uuid": true, "guid": true, "key": true, "sku": true, "email": true, "msisdn": true, "imei": true, "iccid": true,
	"isbn": true, "ean": true, "upc": true, "iban": true, "username": true, "login": true, "slug": true, "handle": true}

// lookupShapes are the value shapes of columns that identify a row to a
// person: an email, a UUID, a phone number.
var lookupShapes = []string{valueclass.Email, valueclass.UUID, valueclass.Phone}

func share(p catalog.ProfileDoc, class string) float64 {
	for _, vp := range p.ValuePatterns {
		if vp.Class == class {
			return vp.Share
		}
	}
	return 0
}

// indexes proposes indexes for references other experts did not cover and
// for columns rows are looked up by, on tables big enough to need them.
func (f *facts) indexes(ctx context.Context, others []candidate) []candidate {
	covered := map[string]bool{}
	for _, o := range others {
		covered[o.table+"."+o.column] = true
	}
	// References: relationship ends and columns named after another table.
	refs := map[string]map[string]string{} // table → column → referenced table
	addRef := func(table, col, to string) {
		if refs[table] == nil {
			refs[table] = map[string]string{}
		}
		if _, ok := refs[table][col]; !ok {
			refs[table][col] = to
		}
	}
	for _, r := range f.rels {
		if len(r.FromColumns) == 1 {
			addRef(r.FromTable, r.FromColumns[0], r.ToTable)
		}
	}
	// Tables by their singular words: order_items → order_item.
	singulars := map[string]string{}
	for _, t := range f.tables {
		if w := naming.Words(t.Name.Name); len(w) > 0 {
			w[len(w)-1] = naming.Singular(w[len(w)-1])
			singulars[strings.Join(w, "_")] = t.Name.String()
		}
	}
	for _, t := range f.tables {
		for _, c := range t.Columns {
			w := naming.Words(c.Name)
			if len(w) < 2 || w[len(w)-1] != "id" {
				continue
			}
			stem := w[:len(w)-1]
			for i := range stem {
				cand := append(append([]string{}, stem[i:len(stem)-1]...), naming.Singular(stem[len(stem)-1]))
				if to, ok := singulars[strings.Join(cand, "_")]; ok && to != t.Name.String() {
					addRef(t.Name.String(), c.Name, to)
					break
				}
			}
		}
	}
	var out []candidate
	for _, t := range f.tables {
		name := t.Name.String()
		if !t.Stored() || f.rows[name] < indexMinRows {
			continue
		}
		declared := map[string]bool{}
		for _, fk := range t.ForeignKeys {
			if len(fk.Columns) == 1 {
				declared[fk.Columns[0]] = true
			}
		}
		var cols []string
		for c := range refs[name] {
			cols = append(cols, c)
		}
		sort.Strings(cols)
		for _, col := range cols {
			if declared[col] || indexed(t, col) || covered[name+"."+col] {
				continue
			}
			why := fmt.Sprintf("%s.%s refers to %s and joins on it are frequent", name, col, refs[name][col])
			if c, ok := f.indexCandidate(ctx, t, col, "equality", why); ok {
				out = append(out, c)
			}
		}
		// Lookups: at most two columns unique in practice that identify a
		// row to a person.
		lookups := 0
		for _, c := range t.Columns {
			if lookups == 2 {
				break
			}
			p, ok := f.profiles[name][c.Name]
			if !ok || p.NullFraction == nil || p.DistinctCount == nil || indexed(t, c.Name) || refs[name][c.Name] != "" ||
				contains(f.pk[name], c.Name) {
				continue
			}
			nonNull := float64(p.Rows) * (1 - *p.NullFraction)
			if *p.NullFraction > 0.1 || nonNull < indexMinRows || float64(*p.DistinctCount) < 0.99*nonNull {
				continue
			}
			shaped := ""
			for _, class := range lookupShapes {
				if share(p, class) >= 0.9 {
					shaped = class
				}
			}
			w := naming.Words(c.Name)
			if shaped == "" && !keyWords[last(w)] {
				continue
			}
			what := "a key-like name"
			if shaped != "" {
				what = shaped + " values"
			}
			why := fmt.Sprintf("%s.%s (%s, %s distinct, unique in practice) is the kind of column a row is looked up by",
				name, c.Name, what, catalog.Thousands(*p.DistinctCount))
			if cand, ok := f.indexCandidate(ctx, t, c.Name, "equality", why); ok {
				out = append(out, cand)
				lookups++
			}
		}
		// Ranges on the main time column of a large table.
		if f.rows[name] >= largeRows {
			if ts, ok := f.timeColumn(t); ok && !indexed(t, ts) {
				why := fmt.Sprintf("%s is large and filtered by ranges of %s", name, ts)
				if c, ok := f.indexCandidate(ctx, t, ts, "range", why); ok {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

func last(w []string) string {
	if len(w) == 0 {
		return ""
	}
	return w[len(w)-1]
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// timeColumn is t's main time column: the most complete column whose
// values are dates or timestamps (no birth date).
func (f *facts) timeColumn(t warehouse.Table) (string, bool) {
	best, bestNull := "", 2.0
	for _, c := range t.Columns {
		p, ok := f.profiles[t.Name.String()][c.Name]
		if !ok || p.NullFraction == nil || p.Min == nil {
			continue
		}
		u := strings.ToUpper(c.Type)
		temporal := strings.Contains(u, "DATE") || strings.Contains(u, "TIME") ||
			share(p, valueclass.Timestamp)+share(p, valueclass.Date) >= 0.9 ||
			p.Max != nil && isoTime(*p.Min) && isoTime(*p.Max)
		w := naming.Words(c.Name)
		if !temporal || contains(w, "birth") || contains(w, "dob") || contains(w, "birthday") {
			continue
		}
		if *p.NullFraction < bestNull {
			best, bestNull = c.Name, *p.NullFraction
		}
	}
	return best, best != ""
}

// --- joins -----------------------------------------------------------------------

// joins advises, for the relationships of the largest child tables, which
// side to start from and which column the engine probes, with an example
// join that counts each parent's children.
func (f *facts) joins() []candidate {
	type rel struct {
		r   catalog.RelationshipDoc
		key string
	}
	var rels []rel
	seen := map[string]bool{}
	for i, r := range f.rels {
		child, okC := f.byName[r.FromTable]
		_, okP := f.byName[r.ToTable]
		if !okC || !okP || !child.Stored() || len(r.FromColumns) == 0 || len(r.FromColumns) != len(r.ToColumns) ||
			r.FromTable == r.ToTable || f.rows[r.FromTable] <= 0 || f.rows[r.ToTable] <= 0 {
			continue
		}
		pair := r.FromTable + "\x00" + r.ToTable
		if seen[pair] {
			continue
		}
		seen[pair] = true
		rels = append(rels, rel{r, f.relKeys[i]})
	}
	sort.SliceStable(rels, func(i, j int) bool { return f.rows[rels[i].r.FromTable] > f.rows[rels[j].r.FromTable] })
	var out []candidate
	for _, x := range rels {
		if len(out) == maxJoins {
			break
		}
		r := x.r
		child, parent := f.byName[r.FromTable], f.byName[r.ToTable]
		cn, pn := f.rows[r.FromTable], f.rows[r.ToTable]
		var on, prose, pcols []string
		for i := range r.FromColumns {
			on = append(on, fmt.Sprintf("c.%s = p.%s", f.d.QuoteIdent(r.FromColumns[i]), f.d.QuoteIdent(r.ToColumns[i])))
			prose = append(prose, fmt.Sprintf("%s.%s = %s.%s", r.FromTable, r.FromColumns[i], r.ToTable, r.ToColumns[i]))
			pcols = append(pcols, "p."+f.d.QuoteIdent(r.ToColumns[i]))
		}
		countAlias := f.d.QuoteIdent(strings.ReplaceAll(naming.Noun(child.Name.Name, true), " ", "_"))
		// The example counts each parent's children, written from the side
		// the advice starts from.
		sql := fmt.Sprintf("SELECT %s, COUNT(c.%s) AS %s FROM %s p LEFT JOIN %s c ON %s GROUP BY %s ORDER BY 2 DESC %s",
			strings.Join(pcols, ", "), f.d.QuoteIdent(r.FromColumns[0]), countAlias, f.d.QuoteTable(parent.Name),
			f.d.QuoteTable(child.Name), strings.Join(on, " AND "), strings.Join(pcols, ", "), f.d.Limit(10))
		if cn < pn {
			sql = fmt.Sprintf("SELECT %s, COUNT(*) AS %s FROM %s c JOIN %s p ON %s GROUP BY %s ORDER BY 2 DESC %s",
				strings.Join(pcols, ", "), countAlias, f.d.QuoteTable(child.Name), f.d.QuoteTable(parent.Name),
				strings.Join(on, " AND "), strings.Join(pcols, ", "), f.d.Limit(10))
		}
		one, many := naming.Noun(parent.Name.Name, false), naming.Noun(child.Name.Name, true)
		fk := r.FromTable + "(" + strings.Join(r.FromColumns, ", ") + ")"
		probe := "which has no index yet"
		if indexed(child, r.FromColumns[0]) {
			probe = "through its index"
		}
		var desc string
		if pn <= cn {
			desc = fmt.Sprintf("Join %s (%s rows) to %s (%s rows) on %s: start from %s, filtered first, and look up each one's %s by %s, %s",
				r.ToTable, catalog.Thousands(pn), r.FromTable, catalog.Thousands(cn), strings.Join(prose, " AND "), r.ToTable, many, fk, probe)
		} else {
			desc = fmt.Sprintf("Join %s (%s rows) to %s (%s rows) on %s: start from %s, the smaller side, and look up each row's %s by its key",
				r.FromTable, catalog.Thousands(cn), r.ToTable, catalog.Thousands(pn), strings.Join(prose, " AND "), r.FromTable, one)
		}
		if n := f.maxKids[x.key]; n > 0 {
			desc += fmt.Sprintf("; %s has up to %s %s, so aggregate %s before joining further", naming.Article(one), catalog.Thousands(n), many, r.FromTable)
		}
		out = append(out, candidate{
			key:   "join_order:" + x.key,
			doc:   catalog.RecommendationDoc{Kind: "join_order", Description: desc + ".", SQL: sql},
			conf:  0.7,
			why:   []string{fmt.Sprintf("%s: %s rows; %s: %s rows; relationship %s (%s)", r.ToTable, catalog.Thousands(pn), r.FromTable, catalog.Thousands(cn), x.key, r.Source)},
			probe: sql,
			// Its ORDER BY reads every joined row: a table far larger
			// than the sample is only EXPLAINed.
			run: cn <= runMaxRows && pn <= runMaxRows && !f.huge(r.FromTable) && !f.huge(r.ToTable),
		})
	}
	return out
}

// --- sampling and partitioning ------------------------------------------------------

func (f *facts) sampling(ctx context.Context) ([]candidate, error) {
	var out []candidate
	for _, t := range f.tables {
		name := t.Name.String()
		n := f.rows[name]
		if !t.Stored() || n < largeRows {
			continue
		}
		sql := "SELECT * FROM " + f.d.Sample(t.Name, sampleTarget, n)
		run := true
		if f.huge(name) {
			// The engine's row sample of a table this large may read all
			// of it, LIMIT or not: a random filter
			// (Capabilities.FilterSample) reads every row, and a derived
			// table around it may be computed whole. A sample of rows
			// drawn one by one is the advice and is run: drawn by an
			// integer key it reads only the rows it keeps; a seeded
			// reservoir (Capabilities.Reservoir) reads the columns whole,
			// at about a scan's cost there. Otherwise the advice is only
			// EXPLAINed.
			from, _, random, err := f.env.SampleOf(ctx, t, sampleTarget, n)
			if err != nil {
				return nil, err
			}
			if random {
				sql = "SELECT * FROM " + from
			} else {
				run = false
			}
		}
		out = append(out, candidate{
			key: "sampling:" + name,
			doc: catalog.RecommendationDoc{Kind: "sampling", SQL: sql,
				Description: fmt.Sprintf("%s has %s rows: explore it on a random sample of about %s rows (%.2g%%) before running full scans; counts and shares from the sample hold within a few percent.",
					name, catalog.Thousands(n), catalog.Thousands(sampleTarget), 100*float64(sampleTarget)/float64(n))},
			conf:  0.7,
			why:   []string{fmt.Sprintf("%s rows", catalog.Thousands(n))},
			probe: sql,
			run:   run,
		})
	}
	return out, nil
}

func (f *facts) partitioning() []candidate {
	var out []candidate
	for _, t := range f.tables {
		name := t.Name.String()
		n := f.rows[name]
		if !t.Stored() || n < partitionRows {
			continue
		}
		ts, ok := f.timeColumn(t)
		if !ok {
			continue
		}
		p := f.profiles[name][ts]
		if p.Min == nil || p.Max == nil {
			continue
		}
		lo, okLo := time.Parse("2006-01-02", firstN(*p.Min, 10))
		hi, okHi := time.Parse("2006-01-02", firstN(*p.Max, 10))
		if okLo != nil || okHi != nil || hi.Sub(lo) < 365*24*time.Hour {
			continue
		}
		q := f.d.QuoteIdent(ts)
		y, m := f.d.DatePart(warehouse.PartYear, q), f.d.DatePart(warehouse.PartMonth, q)
		sql := fmt.Sprintf("SELECT %s AS year, %s AS month, COUNT(*) AS row_count FROM %s GROUP BY 1, 2 ORDER BY 1, 2", y, m, f.d.QuoteTable(t.Name))
		months := int(hi.Sub(lo).Hours()/24/30.4) + 1
		out = append(out, candidate{
			key: "partitioning:" + name,
			doc: catalog.RecommendationDoc{Kind: "partitioning", SQL: sql,
				Description: fmt.Sprintf("%s holds %s rows over about %d months of %s (%s to %s): partition it by month of %s so that queries on recent periods read only their partitions; the query shows the rows per month.",
					name, catalog.Thousands(n), months, ts, firstN(*p.Min, 10), firstN(*p.Max, 10), ts)},
			conf:  0.6,
			why:   []string{fmt.Sprintf("%s rows; %s from %s to %s", catalog.Thousands(n), ts, *p.Min, *p.Max)},
			probe: sql,
		})
	}
	return out
}

// isoTime reports whether s reads as an ISO date or timestamp.
func isoTime(s string) bool {
	if len(s) < 10 || (len(s) > 10 && s[10] != ' ' && s[10] != 'T') {
		return false
	}
	_, err := time.Parse("2006-01-02", s[:10])
	return err == nil
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// --- example queries ------------------------------------------------------------------

// examples writes, for the main entities (the tables most referenced, then
// the largest), a query listing their latest rows with their telling
// columns, and one counting the rows per state of a status-like column.
func (f *facts) examples() []candidate {
	refs := map[string]int{}
	for _, r := range f.rels {
		if r.FromTable != r.ToTable {
			refs[r.ToTable]++
		}
	}
	var ts []warehouse.Table
	for _, t := range f.tables {
		if t.Kind == "table" && f.rows[t.Name.String()] > 0 {
			ts = append(ts, t)
		}
	}
	sort.SliceStable(ts, func(i, j int) bool {
		a, b := ts[i].Name.String(), ts[j].Name.String()
		if refs[a] != refs[b] {
			return refs[a] > refs[b]
		}
		return f.rows[a] > f.rows[b]
	})
	var out []candidate
	for _, t := range ts[:min(maxExamples, len(ts))] {
		name := t.Name.String()
		n := f.rows[name]
		cols := f.tellingColumns(t)
		if len(cols) == 0 {
			continue
		}
		quoted := make([]string, len(cols))
		for i, c := range cols {
			quoted[i] = f.d.QuoteIdent(c)
		}
		order, what := "", "rows"
		if tc, ok := f.timeColumn(t); ok {
			order, what = " ORDER BY "+f.d.QuoteIdent(tc)+" DESC", "latest rows by "+tc
		} else if pk := f.pk[name]; len(pk) > 0 {
			order = " ORDER BY " + f.d.QuoteIdent(pk[0])
		}
		sql := fmt.Sprintf("SELECT %s FROM %s%s %s", strings.Join(quoted, ", "), f.d.QuoteTable(t.Name), order, f.d.Limit(20))
		runSQL, runNote := f.onSample(t, fmt.Sprintf("SELECT %s FROM %s%s %s", strings.Join(quoted, ", "), fromMark, order, f.d.Limit(20)))
		out = append(out, candidate{
			key: "example:" + name,
			doc: catalog.RecommendationDoc{Kind: "example_query", SQL: sql,
				Description: fmt.Sprintf("Start exploring %s (%s rows, referenced by %s) with its %s and the columns that tell them apart: %s.",
					name, catalog.Thousands(n), countText(refs[name], "relationship", "relationships"), what, strings.Join(cols, ", "))},
			conf:   0.7,
			why:    []string{fmt.Sprintf("%s rows; referenced by %s", catalog.Thousands(n), countText(refs[name], "relationship", "relationships"))},
			probe:  sql,
			run:    true,
			runSQL: runSQL, runNote: runNote,
		})
		if st, ok := f.statusColumn(t); ok {
			q := f.d.QuoteIdent(st)
			sql := fmt.Sprintf("SELECT %s, COUNT(*) AS row_count FROM %s GROUP BY %s ORDER BY 2 DESC", q, f.d.QuoteTable(t.Name), q)
			runSQL, runNote := f.onSample(t, fmt.Sprintf("SELECT %s, COUNT(*) AS row_count FROM %s GROUP BY %s ORDER BY 2 DESC", q, fromMark, q))
			out = append(out, candidate{
				key: "example:" + name + ":" + st,
				doc: catalog.RecommendationDoc{Kind: "example_query", SQL: sql,
					Description: fmt.Sprintf("Count %s by %s, the state its rows are in, before filtering on it.", name, st)},
				conf:   0.7,
				why:    []string{fmt.Sprintf("%s: %s distinct values", st, distinctText(f.profiles[name][st]))},
				probe:  sql,
				run:    n <= runMaxRows || runSQL != "",
				runSQL: runSQL, runNote: runNote,
			})
		}
	}
	return out
}

// fromMark stands for the FROM item in a statement shape for onSample.
const fromMark = "\x00from\x00"

// onSample is the statement shape (fromMark its FROM item) run on a
// sample of t when t is far larger than --sample-rows, with the note that
// says so; "" when t is run whole.
func (f *facts) onSample(t warehouse.Table, shape string) (sql, note string) {
	s := f.scopes[t.Name.String()]
	if !s.Sampled {
		return "", ""
	}
	return strings.Replace(shape, fromMark, s.From(""), 1), " " + s.Evidence()
}

func distinctText(p catalog.ProfileDoc) string {
	if p.DistinctCount == nil {
		return "unknown"
	}
	return catalog.Thousands(*p.DistinctCount)
}

// tellingWords are the words of columns that tell rows apart for a person.
var tellingWords = map[string]bool{"name": true, "title": true, "label": true, "email": true, "status": true,
	"state": true, "type": true, "category": true, "kind": true, "code": true, "number": true, "stage": true,
	"segment": true, "tier": true, "level": true, "country": true, "city": true, "amount": true, "total": true,
	"price": true, "msisdn": true, "phone": true}

// tellingColumns are the key and up to six columns a person would read a
// row by: names, contact points, states and the main time, no long text.
func (f *facts) tellingColumns(t warehouse.Table) []string {
	name := t.Name.String()
	cols := append([]string{}, f.pk[name]...)
	ts, _ := f.timeColumn(t)
	for _, c := range t.Columns {
		if len(cols) >= len(f.pk[name])+6 {
			break
		}
		if contains(cols, c.Name) {
			continue
		}
		p := f.profiles[name][c.Name]
		if p.TextLength != nil && p.TextLength.Avg > 60 {
			continue
		}
		w := naming.Words(c.Name)
		telling := c.Name == ts
		for _, x := range w {
			telling = telling || tellingWords[naming.Singular(x)]
		}
		if telling {
			cols = append(cols, c.Name)
		}
	}
	if len(cols) == 0 && len(t.Columns) > 0 {
		for _, c := range t.Columns[:min(6, len(t.Columns))] {
			cols = append(cols, c.Name)
		}
	}
	return cols
}

// statusColumn is a column named like a state with a few values.
func (f *facts) statusColumn(t warehouse.Table) (string, bool) {
	for _, c := range t.Columns {
		p := f.profiles[t.Name.String()][c.Name]
		if p.DistinctCount == nil || *p.DistinctCount < 2 || *p.DistinctCount > 30 {
			continue
		}
		for _, w := range naming.Words(c.Name) {
			if w == "status" || w == "state" || w == "stage" || w == "phase" {
				return c.Name, true
			}
		}
	}
	return "", false
}

func countText(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
