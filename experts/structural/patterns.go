package structural

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/naming"
)

// Pattern kinds, as report.json's patterns[].kind spells them.
const (
	KindHierarchy = "hierarchy"            // the self-referencing table
	KindBridge    = "bridge_table"         // the bridge, then the tables it links
	KindStar      = "star_schema"          // the fact table, then its dimensions
	KindSnowflake = "snowflake"            // the fact, its dimensions, then the tables they reference
	KindExtension = "one_to_one_extension" // the base table, then its extensions
	KindIsolated  = "isolated_tables"      // the tables that join to no other, sorted
)

// patternsStep is the progress entry of the pass over the relationship
// graph: its coverage unit.
const patternsStep = "structural:patterns"

const (
	minStarDims     = 3   // a fact references at least this many dimensions
	extensionByKey  = 0.9 // confidence of an extension by primary key → primary key
	extensionByCard = 0.6 // of one by a one-to-one reference beside the table's own key
)

// patterns finds hierarchies, bridge tables, stars, snowflakes, one-to-one
// extensions and isolated tables among this run's relationships (whatever
// their source) and the tables' keys and columns.
func patterns(ctx context.Context, env *experts.Env) error {
	relEntries, err := env.RunEntries(ctx, catalog.KindRelationship)
	if err != nil {
		return fmt.Errorf("patterns: %w", err)
	}
	tableEntries, err := env.RunEntries(ctx, catalog.KindTable)
	if err != nil {
		return fmt.Errorf("patterns: %w", err)
	}
	tables := map[string]catalog.TableDoc{}
	for _, e := range tableEntries {
		var d catalog.TableDoc
		if err := e.Decode(&d); err != nil {
			return fmt.Errorf("patterns: decode %s: %w", e.Key, err)
		}
		tables[d.Name] = d
	}
	var rels []catalog.RelationshipDoc
	for _, e := range relEntries {
		var r catalog.RelationshipDoc
		if err := e.Decode(&r); err != nil {
			return fmt.Errorf("patterns: decode %s: %w", e.Key, err)
		}
		if e.Confidence >= 0.5 {
			rels = append(rels, r)
		}
	}
	found := Patterns(tables, rels)
	for _, p := range found {
		key := p.Doc.Kind + ":" + strings.Join(p.Doc.Tables, ",")
		if err := catalog.Patterns.Save(ctx, env, key, p.Doc, p.Confidence, p.Evidence, p.Doc.Kind); err != nil {
			return err
		}
	}
	marker := catalog.ProgressDoc{Step: "patterns", Detail: fmt.Sprintf("%d relationships examined, %d patterns", len(rels), len(found))}
	return catalog.Progress.Save(ctx, env, patternsStep, marker, 1.0, nil)
}

// Pattern is a found pattern with its confidence and evidence.
type Pattern struct {
	Doc        catalog.PatternDoc
	Confidence float64
	Evidence   []string
}

// Patterns finds structural patterns. It is pure so it can be tested on
// hand-made graphs. The result is sorted by kind, then tables, so reports
// diff cleanly whatever order the relationships came in.
func Patterns(tables map[string]catalog.TableDoc, rels []catalog.RelationshipDoc) []Pattern {
	g := newGraph(tables, rels)
	var out []Pattern
	out = append(out, g.hierarchies()...)
	out = append(out, g.bridgesAndStars()...)
	out = append(out, g.extensions()...)
	out = append(out, g.isolated()...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Doc.Kind != out[j].Doc.Kind {
			return out[i].Doc.Kind < out[j].Doc.Kind
		}
		return strings.Join(out[i].Doc.Tables, ",") < strings.Join(out[j].Doc.Tables, ",")
	})
	return out
}

// graph is the relationships around each table, each once and in the order
// of their catalog keys.
type graph struct {
	tables   map[string]catalog.TableDoc
	rels     []catalog.RelationshipDoc
	outgoing map[string][]catalog.RelationshipDoc // by from_table, self-references included
	incoming map[string]int                       // references from other tables
	names    []string                             // tables with outgoing references, sorted
}

func newGraph(tables map[string]catalog.TableDoc, rels []catalog.RelationshipDoc) *graph {
	g := &graph{tables: tables, outgoing: map[string][]catalog.RelationshipDoc{}, incoming: map[string]int{}}
	seen := map[string]bool{}
	for _, r := range rels {
		if k := r.Key(); !seen[k] {
			seen[k] = true
			g.rels = append(g.rels, r)
		}
	}
	sort.SliceStable(g.rels, func(i, j int) bool { return g.rels[i].Key() < g.rels[j].Key() })
	for _, r := range g.rels {
		if len(g.outgoing[r.FromTable]) == 0 {
			g.names = append(g.names, r.FromTable)
		}
		g.outgoing[r.FromTable] = append(g.outgoing[r.FromTable], r)
		if r.FromTable != r.ToTable {
			g.incoming[r.ToTable]++
		}
	}
	sort.Strings(g.names)
	return g
}

// isTable reports whether n is a known base table (not a view).
func (g *graph) isTable(n string) bool {
	t, ok := g.tables[n]
	return ok && t.Kind == "table"
}

// others returns n's references to other tables (self-references left out).
func (g *graph) others(n string) []catalog.RelationshipDoc {
	var out []catalog.RelationshipDoc
	for _, r := range g.outgoing[n] {
		if r.ToTable != n {
			out = append(out, r)
		}
	}
	return out
}

// relEvidence names a relationship in evidence: "declared relationship a(x) → b(id)".
func relEvidence(r catalog.RelationshipDoc) string {
	src := r.Source
	if src == "" {
		src = "known"
	}
	return fmt.Sprintf("%s relationship %s(%s) → %s(%s)", src, r.FromTable, strings.Join(r.FromColumns, ","), r.ToTable, strings.Join(r.ToColumns, ","))
}

// hierarchies are tables that reference themselves.
func (g *graph) hierarchies() []Pattern {
	var out []Pattern
	for _, n := range g.names {
		for _, r := range g.outgoing[n] {
			if r.FromTable != r.ToTable {
				continue
			}
			out = append(out, Pattern{
				Doc: catalog.PatternDoc{Kind: KindHierarchy, Tables: []string{n},
					Description: fmt.Sprintf("%s references itself through %s: rows form a tree (parent → children).", n, strings.Join(r.FromColumns, ", "))},
				Confidence: 0.9,
				Evidence:   []string{relEvidence(r)},
			})
		}
	}
	return out
}

// bridgesAndStars looks at every table that references two or more others:
// a bridge is mostly its references; a fact table references three or more
// dimensions and carries numeric measures.
func (g *graph) bridgesAndStars() []Pattern {
	var out []Pattern
	for _, n := range g.names {
		if !g.isTable(n) {
			continue
		}
		t := g.tables[n]
		refs := g.others(n)
		var parents []string
		fkCols := map[string]bool{}
		for _, r := range refs {
			parents = appendUnique(parents, r.ToTable)
			for _, c := range r.FromColumns {
				fkCols[strings.ToLower(c)] = true
			}
		}
		if len(parents) < 2 {
			continue
		}
		// A fact table whose key is made of its references (sales keyed by
		// date, store and item) is still a fact when it carries measures, so
		// the star is tried before the bridge.
		if p, ok := g.star(t, refs, parents, fkCols); ok {
			out = append(out, p)
			continue
		}
		pkOfRefs := len(t.PrimaryKey) >= 2
		for _, c := range t.PrimaryKey {
			if !fkCols[strings.ToLower(c)] {
				pkOfRefs = false
			}
		}
		other := 0
		for _, c := range t.Columns {
			if !fkCols[strings.ToLower(c.Name)] && !contains(t.PrimaryKey, c.Name) {
				other++
			}
		}
		// A surrogate-keyed table with payload columns (order lines with a
		// quantity and a price) is a fact about the pair, not a bridge; nor
		// is one whose own key other tables reference (an inventory item
		// that rentals name, a store that customers name): its rows are
		// things in their own right, not pairs.
		if !pkOfRefs && (!(len(parents) == 2 && other <= 1) || g.incoming[n] > 0) {
			continue
		}
		// A bridge pairs rows of both sides many times over: a reference
		// that is one-to-one (each parent at most once) pairs nothing.
		if slices.ContainsFunc(refs, func(r catalog.RelationshipDoc) bool { return r.Cardinality == "one_to_one" }) {
			continue
		}
		conf := 0.7
		ev := []string{fmt.Sprintf("%d references to %s; %d other columns", len(refs), strings.Join(parents, ", "), other)}
		if pkOfRefs {
			conf = 0.9
			ev = append(ev, "primary key ("+strings.Join(t.PrimaryKey, ", ")+") consists of the referencing columns")
		}
		out = append(out, Pattern{
			Doc: catalog.PatternDoc{Kind: KindBridge, Tables: append([]string{n}, parents...),
				Description: fmt.Sprintf("%s links %s (many-to-many).", n, strings.Join(parents, " and "))},
			Confidence: conf, Evidence: ev,
		})
	}
	return out
}

// star reports t as the fact table of a star (or a snowflake, when its
// dimensions reference further tables) if it references three or more
// dimensions, is referenced by at most one table and has numeric measures.
// A dimension references at most one other table; a parent that references
// more is itself a fact or an entity in the middle of the graph.
func (g *graph) star(t catalog.TableDoc, refs []catalog.RelationshipDoc, parents []string, fkCols map[string]bool) (Pattern, bool) {
	n := t.Name
	if len(parents) < minStarDims || g.incoming[n] > 1 {
		return Pattern{}, false
	}
	var dims []string
	for _, p := range parents {
		if len(g.others(p)) <= 1 {
			dims = append(dims, p)
		}
	}
	if len(dims) < minStarDims {
		return Pattern{}, false
	}
	measures := measureColumns(t, fkCols)
	if len(measures) == 0 {
		return Pattern{}, false
	}
	typed := make([]string, len(measures))
	for i, c := range measures {
		typed[i] = fmt.Sprintf("%s.%s (%s)", n, c.Name, c.DataType)
	}
	ev := []string{
		fmt.Sprintf("%s has %d references to other tables and %d from them", n, len(refs), g.incoming[n]),
		"numeric measures: " + strings.Join(typed, ", "),
	}
	for _, r := range refs {
		if contains(dims, r.ToTable) {
			ev = append(ev, relEvidence(r))
		}
	}
	var outer, links []string
	for _, d := range dims {
		for _, r := range g.others(d) {
			outer = appendUnique(outer, r.ToTable)
			links = append(links, fmt.Sprintf("%s references %s", d, r.ToTable))
			ev = append(ev, relEvidence(r))
		}
	}
	p := Pattern{Confidence: 0.7, Evidence: ev}
	names := make([]string, len(measures))
	for i, c := range measures {
		names[i] = c.Name
	}
	desc := fmt.Sprintf("%s is a fact table with measures (%s) referencing %d dimensions: %s", n, strings.Join(names, ", "), len(dims), strings.Join(dims, ", "))
	if len(outer) == 0 {
		p.Doc = catalog.PatternDoc{Kind: KindStar, Tables: append([]string{n}, dims...), Description: desc + "."}
		return p, true
	}
	tables := append([]string{n}, dims...)
	for _, o := range outer {
		tables = appendUnique(tables, o)
	}
	p.Doc = catalog.PatternDoc{Kind: KindSnowflake, Tables: tables,
		Description: desc + "; dimensions are normalized (" + strings.Join(links, ", ") + ")."}
	return p, true
}

// measureColumns are t's columns that could be summed or averaged: a numeric
// declared type, not part of the primary key, not a reference, and not named
// like an identifier, a flag or a point in time.
func measureColumns(t catalog.TableDoc, fkCols map[string]bool) []catalog.ColumnDoc {
	var out []catalog.ColumnDoc
	for _, c := range t.Columns {
		if !numericType(c.DataType) || fkCols[strings.ToLower(c.Name)] || contains(t.PrimaryKey, c.Name) || notMeasureName(c.Name) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// numericBase are the numeric type names of the supported engines, without
// precision or width digits (INT4, FLOAT8, Int64, DECIMAL(10,2) …).
var numericBase = map[string]bool{
	"INT": true, "INTEGER": true, "BIGINT": true, "SMALLINT": true, "TINYINT": true, "MEDIUMINT": true,
	"HUGEINT": true, "UHUGEINT": true, "UBIGINT": true, "UINTEGER": true, "USMALLINT": true, "UTINYINT": true, "UINT": true,
	"NUMERIC": true, "DECIMAL": true, "DEC": true, "NUMBER": true, "FIXED": true,
	"REAL": true, "FLOAT": true, "DOUBLE": true, "MONEY": true, "SMALLMONEY": true,
}

// numericType reports whether a declared type holds numbers to measure with.
// TINYINT(1) is a boolean where an engine has no boolean type; SERIAL
// types are keys.
func numericType(t string) bool {
	u := strings.ToUpper(strings.TrimSpace(t))
	if strings.HasPrefix(strings.ReplaceAll(u, " ", ""), "TINYINT(1)") {
		return false
	}
	if i := strings.IndexAny(u, "( "); i >= 0 {
		u = u[:i]
	}
	return numericBase[strings.TrimRight(u, "0123456789")]
}

// Name words that make a numeric column something other than a measure.
var (
	// Product and postal codes, beside the key markers (naming.KeySuffix).
	codeWords = map[string]bool{"code": true, "sku": true, "ean": true, "upc": true, "isbn": true, "zip": true}
	flagFirst = map[string]bool{"is": true, "has": true, "can": true, "flag": true}
	timeLast  = map[string]bool{"at": true, "on": true, "date": true, "time": true, "timestamp": true, "ts": true,
		"epoch": true, "year": true, "month": true, "day": true, "week": true, "quarter": true}
)

// notMeasureName reports whether a column's name says identifier (customer_id,
// date_key, zip_code, order_no), flag (is_active) or time (created_at, year).
func notMeasureName(name string) bool {
	toks := naming.NameTokens(name)
	if len(toks) == 0 {
		return true
	}
	for _, w := range toks {
		// An identifier's marker anywhere (customer_id, ss_item_sk,
		// hk_customer, id_cliente), or a code.
		if kind, ok := naming.KeySuffix(w); (ok && kind == "id") || codeWords[w] {
			return true
		}
	}
	last := toks[len(toks)-1]
	if _, ok := naming.KeySuffix(last); ok && len(toks) > 1 {
		return true // order_no, line_nr, country_cd
	}
	return flagFirst[toks[0]] || toks[len(toks)-1] == "flag" || timeLast[last]
}

// extensionLink is one table extending a base one to one.
type extensionLink struct {
	ext        string
	rel        catalog.RelationshipDoc
	byKey      bool // the extension's whole primary key references the base's
	confidence float64
}

// extensions are tables whose rows add columns to another table's rows one
// to one: their whole primary key references the base's primary key
// (employee_details.employee_id → employees.id), or the reference is known to
// be one-to-one (declared unique, or unique in the data). One pattern per base.
func (g *graph) extensions() []Pattern {
	byBase := map[string]map[string]extensionLink{}
	for _, r := range g.rels {
		if r.FromTable == r.ToTable || !g.isTable(r.FromTable) || !g.isTable(r.ToTable) {
			continue
		}
		from, to := g.tables[r.FromTable], g.tables[r.ToTable]
		l := extensionLink{ext: r.FromTable, rel: r}
		switch {
		case sameSet(r.FromColumns, from.PrimaryKey) && sameSet(r.ToColumns, to.PrimaryKey):
			l.byKey, l.confidence = true, extensionByKey
		case r.Cardinality == "one_to_one":
			l.confidence = extensionByCard
		default:
			continue
		}
		if byBase[r.ToTable] == nil {
			byBase[r.ToTable] = map[string]extensionLink{}
		}
		if old, ok := byBase[r.ToTable][l.ext]; !ok || l.confidence > old.confidence {
			byBase[r.ToTable][l.ext] = l
		}
	}
	bases := make([]string, 0, len(byBase))
	for b := range byBase {
		bases = append(bases, b)
	}
	sort.Strings(bases)
	var out []Pattern
	for _, b := range bases {
		exts := make([]string, 0, len(byBase[b]))
		for e := range byBase[b] {
			exts = append(exts, e)
		}
		sort.Strings(exts)
		p := Pattern{Confidence: 1}
		var sentences []string
		for _, e := range exts {
			l := byBase[b][e]
			p.Confidence = min(p.Confidence, l.confidence)
			p.Evidence = append(p.Evidence, relEvidence(l.rel))
			from := strings.Join(l.rel.FromColumns, ", ")
			to := qualified(b, l.rel.ToColumns)
			if l.byKey {
				p.Evidence = append(p.Evidence, fmt.Sprintf("primary key of %s (%s) is the reference to the primary key of %s", e, from, b))
				sentences = append(sentences, fmt.Sprintf("%s extends %s one to one: its primary key %s references %s, so a row of %s has at most one row in %s.", e, b, from, to, b, e))
				continue
			}
			own := "no primary key"
			if pk := g.tables[e].PrimaryKey; len(pk) > 0 {
				own = "its own primary key (" + strings.Join(pk, ", ") + ")"
			}
			p.Evidence = append(p.Evidence, fmt.Sprintf("%s relationship cardinality one_to_one: %s(%s) is unique; %s has %s", l.rel.Source, e, from, e, own))
			sentences = append(sentences, fmt.Sprintf("%s may extend %s one to one: %s is unique and references %s, so a row of %s has at most one row in %s.", e, b, qualified(e, l.rel.FromColumns), to, b, e))
		}
		p.Doc = catalog.PatternDoc{Kind: KindExtension, Tables: append([]string{b}, exts...), Description: strings.Join(sentences, " ")}
		out = append(out, p)
	}
	return out
}

// qualified writes columns as table.column, joined by ", ".
func qualified(table string, cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = table + "." + c
	}
	return strings.Join(q, ", ")
}

// isolated lists the tables (not views) that no relationship joins to another
// table or view: nothing references them and they reference nothing but
// themselves. A database of one table says nothing.
func (g *graph) isolated() []Pattern {
	var all, alone []string
	joined := map[string]bool{}
	for _, r := range g.rels {
		if r.FromTable != r.ToTable {
			joined[r.FromTable], joined[r.ToTable] = true, true
		}
	}
	for n := range g.tables {
		if !g.isTable(n) {
			continue
		}
		all = append(all, n)
		if !joined[n] {
			alone = append(alone, n)
		}
	}
	if len(alone) == 0 || len(all) < 2 {
		return nil
	}
	sort.Strings(alone)
	verb := "have"
	if len(alone) == 1 {
		verb = "has"
	}
	desc := fmt.Sprintf("%d of %d tables %s no relationship with any other table: %s.", len(alone), len(all), verb, strings.Join(alone, ", "))
	ev := []string{fmt.Sprintf("%d relationships (declared, user and inferred) examined; none joins %s to another table", len(g.rels), strings.Join(alone, ", "))}
	var selfRef []string
	for _, n := range alone {
		if len(g.outgoing[n]) > 0 {
			selfRef = append(selfRef, n)
		}
	}
	switch len(selfRef) {
	case 0:
	case 1:
		desc += " " + selfRef[0] + " references only itself."
	default:
		desc += " " + strings.Join(selfRef, ", ") + " reference only themselves."
	}
	return []Pattern{{
		Doc:        catalog.PatternDoc{Kind: KindIsolated, Tables: alone, Description: desc},
		Confidence: 0.7,
		Evidence:   ev,
	}}
}

func appendUnique(s []string, v string) []string {
	if contains(s, v) {
		return s
	}
	return append(s, v)
}

// contains compares names as the source spells them: tables "Users" and
// users are two on an engine whose names keep their case, and a primary
// key's columns come from the same listing as the table's.
func contains(s []string, v string) bool {
	return slices.Contains(s, v)
}
