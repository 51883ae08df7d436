package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/report"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/connect"
)

// The rules' ids, as discover.yaml's lint: key names them.
const (
	NoPrimaryKey        = "no_primary_key"
	UnindexedReference  = "unindexed_reference"
	UndeclaredReference = "undeclared_reference"
	OrphanedReference   = "orphaned_reference"
	NullableNeverNull   = "nullable_never_null"
	MissingComment      = "missing_comment"
	InconsistentNaming  = "inconsistent_naming"
	RedundantIndex      = "redundant_index"
	IsolatedTable       = "isolated_table"
)

// defaultMinConfidence is the confidence from which an inferred reference
// counts as confirmed by the data. The relations expert accepts a
// reference from 0.6 (relations.AcceptScore); between the two it rests more
// on its name than on its values (discounted for orphans, for a sample, for
// values bunched where any key would hold them), which a reviewer should
// not be asked to declare or index.
const defaultMinConfidence = 0.8

// defaultMinRows is how many rows a table needs before a column that held
// no NULL in all of them is read as one that never does: if a column were
// NULL in 5% of rows, 100 rows would all hold a value by chance once in 170
// (0.95^100); at 10 rows, six times in ten.
const defaultMinRows = 100

func minConfidence(what string) Param {
	return Param{Name: "min_confidence", Default: defaultMinConfidence, Min: 0, Max: 1,
		Doc: "an inferred reference counts from this confidence, " + what}
}

var rules = []Rule{
	{
		ID: NoPrimaryKey, Description: "a table without a declared primary key", Severity: Error, Enabled: true,
		check: noPrimaryKey,
	},
	{
		ID: UnindexedReference, Description: "a reference without an index on the child columns", Severity: Warning, Enabled: true,
		Params: []Param{minConfidence("when confirmed by the data (declared and configured ones always count)")},
		check:  unindexedReference,
	},
	{
		ID: UndeclaredReference, Description: "a reference the data confirms but the schema does not declare", Severity: Warning, Enabled: true,
		Params: []Param{minConfidence("checked against the data")},
		check:  undeclaredReference,
	},
	{
		ID: OrphanedReference, Description: "a declared reference whose child values lack a parent", Severity: Error, Enabled: true,
		Params: []Param{{Name: "max_orphan_fraction", Default: 0, Min: 0, Max: 1,
			Doc: "the share of non-NULL child values without a parent that is still tolerated"}},
		check: orphanedReference,
	},
	{
		ID: NullableNeverNull, Description: "a nullable column that holds no NULL", Severity: Info, Enabled: true,
		Params: []Param{{Name: "min_rows", Default: defaultMinRows, Integer: true, Min: 1,
			Doc: "the rows a table needs, all of them read (not a sample), before no NULL counts"}},
		check: nullableNeverNull,
	},
	{
		ID: MissingComment, Description: "a table or column without a comment", Severity: Info, Enabled: false,
		Params: []Param{
			{Name: "tables", Default: 1, Bool: true, Doc: "check tables and views"},
			{Name: "columns", Default: 1, Bool: true, Doc: "check columns"},
			{Name: "all_or_nothing", Default: 0, Bool: true, Doc: "report only where the schema comments some tables (or columns) and not others"},
		},
		check: missingComment,
	},
	{
		ID: InconsistentNaming, Description: "one concept under different names: columns that reference one key, named apart", Severity: Warning, Enabled: true,
		Params: []Param{minConfidence("when confirmed by the data")},
		check:  inconsistentNaming,
	},
	{
		ID: RedundantIndex, Description: "an index another index, the primary key or a unique constraint makes redundant", Severity: Warning, Enabled: true,
		check: redundantIndex,
	},
	{
		ID: IsolatedTable, Description: "a table no reference touches, in a database with references", Severity: Info, Enabled: true,
		Params: []Param{minConfidence("when confirmed by the data")},
		check:  isolatedTable,
	},
}

// read reports whether the run saw the table's structure: a table it could
// not read at all is in the report by name only, and every rule would
// find what is merely unknown.
func read(t report.Table) bool { return t.Unread == nil || t.Unread.What != catalog.UnseenTable }

func isTable(t report.Table) bool { return t.Kind != "view" && read(t) }

func tableMap(r *report.Report) map[string]report.Table {
	m := make(map[string]report.Table, len(r.Tables))
	for _, t := range r.Tables {
		m[t.Name] = t
	}
	return m
}

// counts reports whether a reference is known well enough for a rule to
// build on: declared in the schema or configured by the team, or inferred
// and confirmed by the data. An inferred reference is confirmed when its
// child values were checked against the parent (the relations expert
// measures its orphans before it accepts it, so an orphan fraction says
// the check ran) and its confidence, which that check set, reaches min.
func counts(rel report.Relationship, min float64) bool {
	if rel.Source != "inferred" {
		return true
	}
	return confirmed(rel, min)
}

func confirmed(rel report.Relationship, min float64) bool {
	return rel.OrphanFraction != nil && rel.Confidence >= min
}

func refName(table string, cols []string) string {
	return fmt.Sprintf("%s(%s)", table, strings.Join(cols, ", "))
}

func target(rel report.Relationship) *Reference {
	return &Reference{Table: rel.ToTable, Columns: slices.Clone(rel.ToColumns), Source: rel.Source}
}

// checkedEvidence are the report's lines of a reference's check against
// the data: the counts behind its orphan fraction.
func checkedEvidence(rel report.Relationship) []string {
	var out []string
	for _, e := range rel.Evidence {
		if strings.HasPrefix(e, "checked") {
			out = append(out, e)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func noPrimaryKey(r *report.Report, _ Settings) []Violation {
	var out []Violation
	for _, t := range r.Tables {
		if !isTable(t) {
			continue
		}
		if declaredKey(t) != nil {
			continue
		}
		v := Violation{Table: t.Name, Figures: Figures{Rows: t.RowCount}}
		noKeys := cannotDeclare(r, t)
		switch {
		case len(t.PrimaryKey) > 0 && noKeys != "":
			// Nothing can be declared: the advice is what a reviewer can do.
			v.Message = fmt.Sprintf("%s has no primary key, which %s cannot declare; the data says (%s) identifies its rows: document it as the key, and keep it unique where the data is written",
				t.Name, noKeys, strings.Join(t.PrimaryKey, ", "))
			v.Related = []string{refName(t.Name, t.PrimaryKey)}
		case len(t.PrimaryKey) > 0:
			v.Message = fmt.Sprintf("%s declares no primary key; the data says (%s) identifies its rows: declare it", t.Name, strings.Join(t.PrimaryKey, ", "))
			v.Related = []string{refName(t.Name, t.PrimaryKey)}
		case len(t.Uniques) > 0:
			v.Message = fmt.Sprintf("%s declares no primary key, only a unique constraint on (%s)", t.Name, strings.Join(t.Uniques[0], ", "))
			v.Related = []string{refName(t.Name, t.Uniques[0])}
		case noKeys != "":
			v.Message = fmt.Sprintf("%s has no primary key, which %s cannot declare, and the data found none", t.Name, noKeys)
		default:
			v.Message = fmt.Sprintf("%s declares no primary key, and the data found none", t.Name)
		}
		out = append(out, v)
	}
	return out
}

// leads reports whether the first len(cols) columns of key are cols, in
// any order: such an index serves a lookup of cols.
func leads(key, cols []string) bool {
	if len(key) < len(cols) {
		return false
	}
	head := slices.Clone(key[:len(cols)])
	want := slices.Clone(cols)
	slices.Sort(head)
	slices.Sort(want)
	return slices.Equal(head, want)
}

// indexed reports whether an index, the primary key or a unique
// constraint of t leads with cols. A partial index serves only the rows
// its predicate keeps, so it does not count.
func indexed(t report.Table, cols []string) bool {
	if pk := declaredKey(t); pk != nil && leads(pk, cols) {
		return true
	}
	for _, ix := range t.Indexes {
		if ix.Predicate == "" && leads(ix.Columns, cols) {
			return true
		}
	}
	return slices.ContainsFunc(t.Uniques, func(u []string) bool { return leads(u, cols) })
}

// declaredKey is t's declared primary key, nil when it declares none: a
// key the data found (source inferred) has no index behind it.
func declaredKey(t report.Table) []string {
	if len(t.PrimaryKey) == 0 || (t.PrimaryKeySource != nil && *t.PrimaryKeySource != "declared") {
		return nil
	}
	return t.PrimaryKey
}

// cannotDeclare names what cannot declare t's keys, primary or foreign:
// its engine (Trino, Spark SQL: Capabilities.NoKeys), or "a foreign
// table" (PostgreSQL takes no key on one); "" where they can be declared.
func cannotDeclare(r *report.Report, t report.Table) string {
	switch {
	case engineOf(r).NoKeys:
		return r.Database.Dialect
	case t.Foreign:
		return "a foreign table"
	}
	return ""
}

// engineOf is what the report's engine can declare, from its dialect's
// Capabilities (the one table of engines, connect); an engine the build
// does not know, or a report without one, is taken to declare keys and
// indexes, as most do.
func engineOf(r *report.Report) warehouse.Capabilities {
	d, err := connect.DialectFor(r.Database.Dialect)
	if err != nil {
		return warehouse.Capabilities{}
	}
	return d.Capabilities()
}

func unindexedReference(r *report.Report, s Settings) []Violation {
	// An index a reviewer cannot create (Trino and Spark SQL read tables
	// their connectors or files lay out) is no finding.
	if engineOf(r).NoIndexes {
		return nil
	}
	tables := tableMap(r)
	var out []Violation
	for _, rel := range r.Relationships {
		child, ok := tables[rel.FromTable]
		// A foreign table takes no index either: its rows are elsewhere.
		if !ok || !isTable(child) || child.Foreign || !counts(rel, s.Param("min_confidence")) || indexed(child, rel.FromColumns) {
			continue
		}
		v := Violation{Table: rel.FromTable, Columns: slices.Clone(rel.FromColumns), References: target(rel),
			Figures: Figures{Rows: child.RowCount}}
		how := rel.Source
		if rel.Source == "inferred" {
			how = fmt.Sprintf("inferred, confidence %.2f", rel.Confidence)
			v.Figures.Confidence = ptr(rel.Confidence)
		}
		v.Message = fmt.Sprintf("%s references %s (%s) but no index, primary key or unique constraint of %s begins with %s: each delete in %s, and each join from it, reads %s whole",
			refName(rel.FromTable, rel.FromColumns), refName(rel.ToTable, rel.ToColumns), how, rel.FromTable, strings.Join(rel.FromColumns, ", "), rel.ToTable, rel.FromTable)
		out = append(out, v)
	}
	return sortViolations(out)
}

func undeclaredReference(r *report.Report, s Settings) []Violation {
	tables := tableMap(r)
	var out []Violation
	for _, rel := range r.Relationships {
		if rel.Source != "inferred" || !confirmed(rel, s.Param("min_confidence")) {
			continue
		}
		msg := fmt.Sprintf("%s references %s: the data confirms it (confidence %.2f, %s without a parent) but the schema declares no foreign key",
			refName(rel.FromTable, rel.FromColumns), refName(rel.ToTable, rel.ToColumns), rel.Confidence, percent(*rel.OrphanFraction))
		if noKeys := cannotDeclare(r, tables[rel.FromTable]); noKeys != "" {
			// No schema there can declare one: the reference is worth
			// documenting and checking where the data is written instead.
			msg = fmt.Sprintf("%s references %s: the data confirms it (confidence %.2f, %s without a parent); %s cannot declare foreign keys: document it, and check it where the data is written",
				refName(rel.FromTable, rel.FromColumns), refName(rel.ToTable, rel.ToColumns), rel.Confidence, percent(*rel.OrphanFraction), noKeys)
		}
		out = append(out, Violation{
			Table: rel.FromTable, Columns: slices.Clone(rel.FromColumns), References: target(rel),
			Message: msg,
			Figures: Figures{Confidence: ptr(rel.Confidence), OrphanFraction: rel.OrphanFraction, Evidence: checkedEvidence(rel)},
		})
	}
	return sortViolations(out)
}

func orphanedReference(r *report.Report, s Settings) []Violation {
	var out []Violation
	for _, rel := range r.Relationships {
		if rel.Source == "inferred" || rel.OrphanFraction == nil || *rel.OrphanFraction <= s.Param("max_orphan_fraction") {
			continue
		}
		what := "declared"
		if rel.Source == "user" {
			what = "configured in discover.yaml"
		}
		out = append(out, Violation{
			Table: rel.FromTable, Columns: slices.Clone(rel.FromColumns), References: target(rel),
			Message: fmt.Sprintf("%s references %s (%s), but %s of its non-NULL values have no parent",
				refName(rel.FromTable, rel.FromColumns), refName(rel.ToTable, rel.ToColumns), what, percent(*rel.OrphanFraction)),
			Figures: Figures{Confidence: ptr(rel.Confidence), OrphanFraction: rel.OrphanFraction, Evidence: checkedEvidence(rel)},
		})
	}
	return sortViolations(out)
}

// percent writes a fraction as a percentage a person reads: 0%, 2.5%,
// 0.01%, never a small share rounded to 0.
func percent(f float64) string {
	switch {
	case f == 0:
		return "0%"
	case f < 0.0001:
		return "<0.01%"
	}
	s := fmt.Sprintf("%.2f", 100*f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%"
}

func nullableNeverNull(r *report.Report, s Settings) []Violation {
	min := int64(s.Param("min_rows"))
	var out []Violation
	for _, t := range r.Tables {
		if !isTable(t) {
			continue
		}
		for _, c := range t.Columns {
			// A sample holding no NULL says nothing of the rows it left out.
			if !c.Nullable || c.NullFraction == nil || *c.NullFraction != 0 || c.ProfileSampled || c.ProfileRows < min {
				continue
			}
			out = append(out, Violation{
				Table: t.Name, Columns: []string{c.Name},
				Message: fmt.Sprintf("%s.%s may be NULL but none of its %s rows is: declare it NOT NULL, or say why it may be empty",
					t.Name, c.Name, catalog.Thousands(c.ProfileRows)),
				Figures: Figures{NullFraction: ptr(0.0), Rows: ptr(c.ProfileRows)},
			})
		}
	}
	return out
}

func missingComment(r *report.Report, s Settings) []Violation {
	commented := func(c, user string) bool { return c != "" || user != "" }
	// With all_or_nothing, a schema that comments no table (or no column)
	// is left alone: the rule asks for the convention the team follows
	// elsewhere, not for one it never took up.
	anyTable, anyColumn := s.Param("all_or_nothing") == 0, s.Param("all_or_nothing") == 0
	for _, t := range r.Tables {
		anyTable = anyTable || commented(t.Comment, t.UserComment)
		for _, c := range t.Columns {
			anyColumn = anyColumn || commented(c.Comment, c.UserComment)
		}
	}
	var out []Violation
	for _, t := range r.Tables {
		if !read(t) {
			continue
		}
		if s.Param("tables") != 0 && anyTable && !commented(t.Comment, t.UserComment) {
			out = append(out, Violation{Table: t.Name, Message: fmt.Sprintf("%s %s has no comment", t.Kind, t.Name)})
		}
		if s.Param("columns") == 0 || !anyColumn {
			continue
		}
		for _, c := range t.Columns {
			if !commented(c.Comment, c.UserComment) {
				out = append(out, Violation{Table: t.Name, Columns: []string{c.Name}, Message: fmt.Sprintf("column %s.%s has no comment", t.Name, c.Name)})
			}
		}
	}
	return out
}

// access is a way into a table's rows by leading columns: an index, the
// primary key or a unique constraint.
type access struct {
	name      string
	columns   []string
	unique    bool
	predicate string
	index     bool // a declared index (not the key or a constraint)
}

func redundantIndex(r *report.Report, _ Settings) []Violation {
	var out []Violation
	for _, t := range r.Tables {
		if !isTable(t) {
			continue
		}
		var others []access
		if pk := declaredKey(t); pk != nil {
			others = append(others, access{name: "the primary key", columns: pk, unique: true})
		}
		for _, u := range t.Uniques {
			others = append(others, access{name: "the unique constraint on (" + strings.Join(u, ", ") + ")", columns: u, unique: true})
		}
		for _, ix := range t.Indexes {
			others = append(others, access{name: "index " + ix.Name, columns: ix.Columns, unique: ix.Unique, predicate: ix.Predicate, index: true})
		}
		for _, ix := range t.Indexes {
			if by, same := redundantBy(ix, others); by != "" {
				how := "begins with its columns"
				if same {
					how = "has the same columns"
				}
				out = append(out, Violation{
					Table: t.Name, Columns: slices.Clone(ix.Columns), Related: []string{by},
					Message: fmt.Sprintf("index %s on %s(%s) is redundant: %s %s", ix.Name, t.Name, strings.Join(ix.Columns, ", "), by, how),
				})
			}
		}
	}
	return out
}

// redundantBy names what makes index ix redundant, and whether it has the
// very same columns. An index is redundant when another way into the
// table with the same predicate has the same columns (of two indexes alike,
// the later by name goes, and one that is not unique before one that is),
// or, when it is not unique, begins with its columns. A unique index with
// the columns of the primary key or a unique constraint is that key's own
// index (PostgreSQL lists it; SQLite lists a UNIQUE index among the
// constraints too). Columns compare in order: an index on (b, a) serves
// what one on (a) does only for equality on both.
func redundantBy(ix report.Index, others []access) (string, bool) {
	me := "index " + ix.Name
	for _, o := range others {
		if (o.index && o.name == me) || o.predicate != ix.Predicate {
			continue
		}
		if slices.Equal(o.columns, ix.Columns) {
			switch {
			case !o.index && !ix.Unique:
				return o.name, true
			case o.index && o.unique != ix.Unique && !ix.Unique:
				return o.name, true
			case o.index && o.unique == ix.Unique && o.name < me:
				return o.name, true
			}
			continue
		}
		if !ix.Unique && len(o.columns) > len(ix.Columns) && slices.Equal(o.columns[:len(ix.Columns)], ix.Columns) {
			return o.name, false
		}
	}
	return "", false
}

func isolatedTable(r *report.Report, s Settings) []Violation {
	touched := map[string]bool{}
	for _, rel := range r.Relationships {
		if counts(rel, s.Param("min_confidence")) {
			touched[rel.FromTable], touched[rel.ToTable] = true, true
		}
	}
	if len(touched) == 0 {
		return nil // a database without references has no table apart from the rest
	}
	var out []Violation
	for _, t := range r.Tables {
		if !isTable(t) || touched[t.Name] {
			continue
		}
		out = append(out, Violation{Table: t.Name, Figures: Figures{Rows: t.RowCount},
			Message: fmt.Sprintf("%s references nothing and nothing references it: a reference nobody declared, or a table nothing uses", t.Name)})
	}
	return out
}
