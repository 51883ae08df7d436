package dbt

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/report"
)

// plan is the report sorted into dbt's shape: schemas, their tables under
// dbt names, and the references each column's tests need.
type plan struct {
	r       *report.Report
	schemas []*schemaPlan
	tables  map[string]*tablePlan // by the report's table name
	hyps    map[string]report.Hypothesis
	refs    map[[2]string][]report.Relationship // by child table and column
	quote   func(string) string                 // a column name as the engine's SQL quotes it
}

type schemaPlan struct {
	name, source string
	tables       []*tablePlan
	skipped      []string
}

type tablePlan struct {
	t      *report.Table
	schema *schemaPlan
	name   string // dbt's name for it
}

func newPlan(r *report.Report) *plan {
	p := &plan{r: r, tables: map[string]*tablePlan{}, hyps: map[string]report.Hypothesis{},
		refs: map[[2]string][]report.Relationship{}, quote: quoter(r.Database.Dialect)}
	for _, h := range r.Hypotheses {
		p.hyps[h.ID] = h
	}
	for _, rel := range r.Relationships {
		if len(rel.FromColumns) == 1 {
			k := [2]string{rel.FromTable, rel.FromColumns[0]}
			p.refs[k] = append(p.refs[k], rel)
		}
	}
	def := defaultSchema(r)
	bySchema := map[string]*schemaPlan{}
	for i := range r.Tables {
		t := &r.Tables[i]
		schema, name := splitName(t.Name, def)
		s := bySchema[schema]
		if s == nil {
			s = &schemaPlan{name: schema}
			bySchema[schema] = s
		}
		if !keep(schema) || !keep(name) {
			s.skipped = append(s.skipped, fmt.Sprintf("%q: dbt cannot quote a name that holds a quote or a Jinja tag", t.Name))
			continue
		}
		tp := &tablePlan{t: t, schema: s}
		s.tables = append(s.tables, tp)
		p.tables[t.Name] = tp
	}
	taken := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(bySchema)) {
		s := bySchema[name]
		if len(s.tables) == 0 && len(s.skipped) == 0 {
			continue
		}
		s.source = dbtName(name, taken)
		names := map[string]bool{}
		for _, tp := range s.tables {
			tp.name = dbtName(tableOf(tp.t.Name), names)
		}
		p.schemas = append(p.schemas, s)
	}
	return p
}

func tableOf(name string) string {
	if _, t, ok := strings.Cut(name, "."); ok {
		return t
	}
	return name
}

// quoter is how the engine quotes a column name; dbt's relationships test
// puts its `field` into SQL as written.
func quoter(dialect string) func(string) string {
	if dialect == "mysql" {
		return func(s string) string { return "`" + s + "`" }
	}
	return func(s string) string { return `"` + s + `"` }
}

func (p *plan) source(s *schemaPlan, tests *[]Test) source {
	src := source{
		Name:    s.source,
		Schema:  s.name,
		Quoting: quoting{Schema: true, Identifier: true},
		Meta: metaOf{sourceMeta{GeneratedBy: "discover", Run: text(p.r.Run.ID), Dialect: p.r.Database.Dialect,
			Database: text(p.r.Database.Name), Skipped: texts(s.skipped)}},
		Tables: []sourceTable{},
	}
	for _, tp := range s.tables {
		src.Tables = append(src.Tables, p.table(tp, tests))
	}
	return src
}

func (p *plan) table(tp *tablePlan, tests *[]Test) sourceTable {
	t := tp.t
	desc, from, other := describe(t.UserComment, t.Comment, entityText(t.Entity))
	meta := tableMeta{Kind: t.Kind, DescriptionSource: from, DatabaseComment: text(other), RowCount: t.RowCount,
		RowCountEstimate: t.RowCountIsEstimate, RowCountLowerBound: t.RowCountIsLowerBound,
		PrimaryKey: texts(t.PrimaryKey)}
	if t.PrimaryKeySource != nil {
		meta.PrimaryKeySource = *t.PrimaryKeySource
	}
	if t.Entity != nil {
		meta.Entity = text(t.Entity.Type)
	}
	if t.Unread != nil {
		meta.Unread = text(fmt.Sprintf("not %s: %s", unreadVerb(t.Unread), t.Unread.Reason))
	}
	out := sourceTable{Name: tp.name, Description: text(desc), Columns: []sourceColumn{}}
	if tp.name != tableOf(t.Name) {
		out.Identifier = tableOf(t.Name)
	}
	if len(t.PrimaryKey) > 1 {
		meta.Notes = append(meta.Notes, fmt.Sprintf("primary key (%s), %s: dbt core has no test of a key of several columns",
			strings.Join(t.PrimaryKey, ", "), cmpStr(t.PrimaryKeySource, "declared")))
	}
	for _, rel := range p.r.Relationships {
		if rel.FromTable == t.Name && len(rel.FromColumns) > 1 {
			meta.Notes = append(meta.Notes, fmt.Sprintf("reference (%s) → %s (%s), %s, %s: dbt's relationships test takes one column",
				strings.Join(rel.FromColumns, ", "), rel.ToTable, strings.Join(rel.ToColumns, ", "), rel.Source, orphanText(rel)))
		}
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		if !keep(c.Name) {
			meta.Notes = append(meta.Notes, fmt.Sprintf("column %q left out: dbt cannot quote a name that holds a quote or a Jinja tag", c.Name))
			continue
		}
		out.Columns = append(out.Columns, p.column(tp, c, tests))
	}
	meta.Notes = texts(meta.Notes)
	out.Meta = metaOf{meta}
	return out
}

func unreadVerb(u *report.Unread) string {
	if u.What == catalog.UnseenProfile {
		return "profiled"
	}
	return "read"
}

func cmpStr(p *string, def string) string {
	if p == nil || *p == "" {
		return def
	}
	return *p
}

func orphanText(rel report.Relationship) string {
	if rel.OrphanFraction == nil {
		return "orphans not measured"
	}
	return fmt.Sprintf("%.4g%% orphans", 100**rel.OrphanFraction)
}

// describe picks the one description dbt has: the team's comment
// (discover.yaml), else the database's, else what discover made of the
// data. from says which; other is the database's comment when the team's
// was taken, so that it is not lost.
func describe(team, database, discovered string) (desc, from, other string) {
	switch {
	case team != "":
		return team, "team", database
	case database != "":
		return database, "database", ""
	case discovered != "":
		return discovered, "discover", ""
	}
	return "", "", ""
}

func entityText(e *report.Entity) string {
	if e == nil {
		return ""
	}
	return e.Description
}

func (p *plan) column(tp *tablePlan, c *report.Column, tests *[]Test) sourceColumn {
	var discovered string
	if c.SemanticType != nil {
		discovered = fmt.Sprintf("Semantic type %s (discover, confidence %.2f).", *c.SemanticType, deref(c.SemanticConfidence))
	}
	desc, from, other := describe(c.UserComment, c.Comment, discovered)
	meta := columnMeta{DescriptionSource: from, DatabaseComment: text(other), SemanticConfidence: c.SemanticConfidence,
		NullFraction: c.NullFraction, DistinctCount: c.DistinctCount, DistinctIsEstimate: c.DistinctIsEstimate,
		ProfileSampled: c.ProfileSampled}
	if c.SemanticType != nil {
		meta.SemanticType = *c.SemanticType
	}
	if c.PII != nil {
		meta.PII = c.PII.Category
	}
	if c.Default != nil {
		d := text(*c.Default)
		meta.Default = &d
	}
	out := sourceColumn{Name: c.Name, Quote: true, DataType: c.DataType, Description: text(desc), Meta: metaOf{meta}}
	add := func(kind string, args any, m testMeta) {
		m.Evidence = texts(m.Evidence)
		out.DataTests = append(out.DataTests, map[string]testBody{kind: {Arguments: args, Config: testConfig{metaOf{m}}}})
		*tests = append(*tests, Test{Kind: kind, Source: tp.schema.source, Table: tp.name, Column: c.Name})
	}
	t := tp.t
	if t.Unread != nil {
		return out
	}
	if m, ok := p.notNull(t, c); ok {
		add(NotNull, nil, m)
	}
	if m, ok := p.unique(t, c); ok {
		add(Unique, nil, m)
	}
	for _, rel := range p.refs[[2]string{t.Name, c.Name}] {
		if args, m, ok := p.relationship(c, rel); ok {
			add(Relationships, args, m)
		}
	}
	if args, m, ok := p.acceptedValues(t, c); ok {
		add(AcceptedValues, args, m)
	}
	return out
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

// wholeRows is the table's row count when it was counted, not estimated,
// and the run read the table.
func wholeRows(t *report.Table) (int64, bool) {
	if t.Unread != nil || t.RowCount == nil || t.RowCountIsEstimate || t.RowCountIsLowerBound {
		return 0, false
	}
	return *t.RowCount, true
}

// exactProfile is the column's rows and NULLs when its profile counted
// every row of the table: not a sample, not the planner's statistics, and
// on as many rows as the table's exact count.
func exactProfile(t *report.Table, c *report.Column) (rows, nulls int64, ok bool) {
	rows, ok = wholeRows(t)
	if !ok || c.ProfileSampled || c.ProfileRows != rows || c.NullFraction == nil {
		return 0, 0, false
	}
	return rows, int64(math.Round(*c.NullFraction * float64(rows))), true
}

// ruleHypothesis is the rules expert's confirmed claim of this kind about
// the column, when its test read the whole table (a test of a sample says
// "tested on a sample" in its evidence).
func (p *plan) ruleHypothesis(kind, table, column string) (report.Hypothesis, bool) {
	h, ok := p.hyps[hypotheses.ID("rule", kind, table, column)]
	if !ok || h.Status != "confirmed" {
		return h, false
	}
	for _, e := range h.Evidence {
		if strings.HasPrefix(e, "tested ") || strings.Contains(e, "sample") {
			return h, false
		}
	}
	return h, true
}

func (p *plan) notNull(t *report.Table, c *report.Column) (testMeta, bool) {
	if t.Kind == "table" && !c.Nullable {
		return testMeta{Basis: "declared", Evidence: []string{"declared NOT NULL"}}, true
	}
	h, confirmed := p.ruleHypothesis("never_null", t.Name, c.Name)
	rows, nulls, ok := exactProfile(t, c)
	if !ok || rows == 0 || nulls != 0 {
		// The profile read a sample, but a test query counted every row.
		return checkedBy(h), confirmed
	}
	m := testMeta{Basis: "measured", Evidence: []string{fmt.Sprintf("0 NULL among %s rows, counted over the whole table", catalog.Thousands(rows))}}
	if confirmed {
		m.Hypothesis = h.ID
		m.Evidence = append(m.Evidence, h.Statement)
	}
	return m, true
}

// checkedBy is the evidence of a test that a confirmed hypothesis, whose
// query read the whole table, stands on.
func checkedBy(h report.Hypothesis) testMeta {
	return testMeta{Basis: "checked", Evidence: append([]string{h.Statement}, h.Evidence...), Hypothesis: h.ID}
}

func (p *plan) unique(t *report.Table, c *report.Column) (testMeta, bool) {
	declaredPK := len(t.PrimaryKey) == 1 && t.PrimaryKey[0] == c.Name && cmpStr(t.PrimaryKeySource, "") == "declared"
	if declaredPK {
		return testMeta{Basis: "declared", Evidence: []string{"declared PRIMARY KEY"}}, true
	}
	for _, u := range t.Uniques {
		if len(u) == 1 && u[0] == c.Name {
			return testMeta{Basis: "declared", Evidence: []string{"declared UNIQUE"}}, true
		}
	}
	// A key the data confirmed: the inferred key, a claim of uniqueness the
	// rules expert confirmed, or an identifier, each only when the exact
	// profile counts as many distinct values as non-NULL rows. Only for
	// integers, text and UUIDs: a profile counts distinct values as texts,
	// and 1.0 and 1.00, or 0 and -0, are two texts but one value to the
	// engine's GROUP BY.
	h, confirmed := p.ruleHypothesis("unique", t.Name, c.Name)
	rows, nulls, ok := exactProfile(t, c)
	if !ok || c.DistinctCount == nil || c.DistinctIsEstimate || rows-nulls <= 0 || *c.DistinctCount != rows-nulls {
		// The rules expert's COUNT(DISTINCT) over every row is the
		// engine's own equality, as dbt's GROUP BY is.
		return checkedBy(h), confirmed
	}
	if f := family(c.DataType); f != "integer" && f != "text" && f != "uuid" {
		return checkedBy(h), confirmed
	}
	m := testMeta{Basis: "measured", Evidence: []string{fmt.Sprintf("%s distinct values among %s non-NULL rows, counted over the whole table",
		catalog.Thousands(*c.DistinctCount), catalog.Thousands(rows-nulls))}}
	switch {
	case len(t.PrimaryKey) == 1 && t.PrimaryKey[0] == c.Name:
		m.Evidence = append(m.Evidence, "the table's key, inferred from the data")
	case confirmed:
		m.Hypothesis = h.ID
		m.Evidence = append(m.Evidence, h.Statement)
	case c.SemanticType != nil && *c.SemanticType == "identifier":
		m.Evidence = append(m.Evidence, "an identifier (semantic type)")
	default:
		return testMeta{}, false
	}
	return m, true
}

// exactCheck is a reference's check that counted every row and found no
// orphan: "checked: 0 orphans among N non-NULL references" (the query
// expert) or "checked: 0 of N non-NULL references have no parent" (the
// relations expert); a check of a sample names the sample.
var exactCheck = regexp.MustCompile(`^checked: 0 (orphans among|of) [0-9]+ non-NULL references`)

func (p *plan) relationship(c *report.Column, rel report.Relationship) (any, testMeta, bool) {
	if rel.OrphanFraction == nil || *rel.OrphanFraction != 0 || len(rel.ToColumns) != 1 {
		return nil, testMeta{}, false
	}
	check := ""
	for _, e := range rel.Evidence {
		if exactCheck.MatchString(e) && !strings.Contains(e, "sample") {
			check = e
		}
	}
	parent, ok := p.tables[rel.ToTable]
	if check == "" || !ok || parent.t.Unread != nil {
		return nil, testMeta{}, false
	}
	var pc *report.Column
	for i := range parent.t.Columns {
		if parent.t.Columns[i].Name == rel.ToColumns[0] {
			pc = &parent.t.Columns[i]
		}
	}
	// The test compares the two columns as they are: values of different
	// kinds (text and numbers) that the check compared as texts would make
	// it fail on an engine that does not cast.
	if pc == nil || !keep(pc.Name) || family(c.DataType) == "" || family(c.DataType) != family(pc.DataType) {
		return nil, testMeta{}, false
	}
	args := relationshipArgs{
		To:    fmt.Sprintf("source('%s', '%s')", parent.schema.source, parent.name),
		Field: p.quote(pc.Name),
	}
	m := testMeta{Basis: "checked", Evidence: append([]string{fmt.Sprintf("%s reference, confidence %.2f", rel.Source, rel.Confidence)}, rel.Evidence...)}
	if id := hypothesisOf(check); id != "" {
		m.Hypothesis = id
	}
	return args, m, true
}

var hypothesisRef = regexp.MustCompile(`\(hypothesis ([a-z]+-[0-9a-f]+)\)$`)

func hypothesisOf(evidence string) string {
	if m := hypothesisRef.FindStringSubmatch(evidence); m != nil {
		return m[1]
	}
	return ""
}

// codeTypes are the semantic types whose values are a list of codes.
var codeTypes = []string{"enum", "boolean", "country", "currency"}

// maxValueRunes is the length past which a profile clips a value
// (experts/statistical): a longer one is not the value.
const maxValueRunes = 200

func (p *plan) acceptedValues(t *report.Table, c *report.Column) (any, testMeta, bool) {
	if c.SemanticType == nil || !slices.Contains(codeTypes, *c.SemanticType) || c.PII != nil {
		return nil, testMeta{}, false
	}
	rows, nulls, ok := exactProfile(t, c)
	n := len(c.TopValues)
	if !ok || c.DistinctCount == nil || c.DistinctIsEstimate || n == 0 || int64(n) != *c.DistinctCount {
		return nil, testMeta{}, false
	}
	fam := family(c.DataType)
	if fam != "text" && fam != "integer" && fam != "boolean" {
		return nil, testMeta{}, false
	}
	masked := p.r.Privacy != nil && p.r.Privacy.ValuesMasked
	var sum int64
	values := make([]string, 0, n)
	var counts []string
	for _, v := range c.TopValues {
		sum += v.Count
		if utf8.RuneCountInString(v.Value) > maxValueRunes || hasJinja(v.Value) || masked && strings.Contains(v.Value, "*") {
			return nil, testMeta{}, false
		}
		switch fam {
		case "text":
			// dbt writes each value between quotes as it is: a quote
			// inside is doubled here, as SQL reads it.
			values = append(values, strings.ReplaceAll(v.Value, "'", "''"))
		case "integer":
			if !integerText.MatchString(v.Value) {
				return nil, testMeta{}, false
			}
			values = append(values, v.Value)
		case "boolean":
			if v.Value != "true" && v.Value != "false" {
				return nil, testMeta{}, false
			}
			values = append(values, v.Value)
		}
		counts = append(counts, fmt.Sprintf("%s: %s", v.Value, catalog.Thousands(v.Count)))
	}
	// Every non-NULL row holds one of the values listed.
	if sum != rows-nulls {
		return nil, testMeta{}, false
	}
	m := testMeta{Basis: "measured", Evidence: []string{
		fmt.Sprintf("%d distinct values in all %s non-NULL rows, counted over the whole table (semantic type %s)",
			n, catalog.Thousands(sum), *c.SemanticType),
		strings.Join(counts, ", "),
	}}
	return acceptedArgs{Values: values, Quote: fam == "text"}, m, true
}

var integerText = regexp.MustCompile(`^-?[0-9]+$`)

var (
	integerTypes = []string{"tinyint", "smallint", "mediumint", "int", "integer", "bigint", "hugeint",
		"int1", "int2", "int4", "int8", "serial", "smallserial", "bigserial", "serial4", "serial8",
		"utinyint", "usmallint", "uinteger", "ubigint", "uhugeint"}
	textTypes = []string{"text", "varchar", "char", "character", "character varying", "bpchar", "string",
		"nvarchar", "nchar", "tinytext", "mediumtext", "longtext"}
	params = regexp.MustCompile(`\s*\([^)]*\)`)
)

// family is the kind of a declared type the tests can compare: integer,
// text, uuid, boolean, or "" for any other.
func family(dataType string) string {
	t := strings.ToLower(strings.TrimSpace(params.ReplaceAllString(dataType, "")))
	t = strings.TrimSpace(strings.TrimSuffix(t, " unsigned"))
	switch {
	case slices.Contains(integerTypes, t):
		return "integer"
	case slices.Contains(textTypes, t):
		return "text"
	case t == "uuid":
		return "uuid"
	case t == "boolean" || t == "bool":
		return "boolean"
	}
	return ""
}
