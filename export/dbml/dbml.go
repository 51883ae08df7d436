// Package dbml writes a run's report as DBML, the schema language of
// dbdiagram.io: an Enum block per enumerated type, a Table block per table and view (columns with their
// types, pk, not null, unique, default and the comments as notes; keys,
// unique constraints and indexes of several columns in an indexes block,
// expressions between backticks, each index's comment and a partial one's
// condition as its note)
// and a Ref per reference, declared or inferred, composite ones included,
// each inferred one with its confidence and orphans in a comment.
//
// Every name comes from the database and is written quoted and escaped, so
// a hostile one (a quote, a backslash, a newline) stays a name. It reads
// report.Report only (never the catalog), like every format.
package dbml

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/discover-db/discover/report"
)

// Write writes the report's tables and references as DBML.
func Write(w io.Writer, r *report.Report) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "// Written by discover from run %s. Declared references are constraints;\n", comment(r.Run.ID))
	b.WriteString("// inferred ones were found in the data, with their confidence and orphans beside them.\n\n")
	fmt.Fprintf(b, "Project %s {\n  database_type: %s\n", quoted(r.Database.Name), str(r.Database.Dialect))
	b.WriteString("  Note: 'Written by discover from what the database declares and what its data showed.'\n}\n")

	// The enumerated types, which a column of one names as its type (as
	// dbdiagram.io draws them); a type with no label is no DBML enum.
	enums := map[string]bool{}
	for _, e := range r.Enums {
		if len(e.Labels) == 0 {
			continue
		}
		enums[e.Name] = true
		fmt.Fprintf(b, "\nEnum %s {\n", tableName(e.Name))
		for _, l := range e.Labels {
			fmt.Fprintf(b, "  %s\n", quoted(l))
		}
		b.WriteString("}\n")
	}

	columns := map[string]map[string]bool{} // the tables and columns written, for the refs
	for i := range r.Tables {
		t := &r.Tables[i]
		if len(t.Columns) == 0 {
			continue // never read: a Table block needs a column
		}
		columns[t.Name] = map[string]bool{}
		for _, c := range t.Columns {
			columns[t.Name][c.Name] = true
		}
		b.WriteString("\n")
		writeTable(b, t, enums)
	}

	seen := map[string]bool{}
	first := true
	for _, rel := range r.Relationships {
		if !written(columns, rel.FromTable, rel.FromColumns) || !written(columns, rel.ToTable, rel.ToColumns) ||
			len(rel.FromColumns) != len(rel.ToColumns) {
			continue
		}
		// DBML refuses the same pair of ends twice, either way round.
		from, to := endpoint(rel.FromTable, rel.FromColumns), endpoint(rel.ToTable, rel.ToColumns)
		if seen[from+" "+to] || seen[to+" "+from] {
			continue
		}
		seen[from+" "+to] = true
		if first {
			b.WriteString("\n")
			first = false
		}
		writeRef(b, rel, from, to)
	}
	return b.Flush()
}

func written(columns map[string]map[string]bool, table string, cols []string) bool {
	if columns[table] == nil || len(cols) == 0 {
		return false
	}
	for _, c := range cols {
		if !columns[table][c] {
			return false
		}
	}
	return true
}

func writeTable(b *bufio.Writer, t *report.Table, enums map[string]bool) {
	fmt.Fprintf(b, "Table %s {\n", tableName(t.Name))
	declaredPK := t.PrimaryKeySource != nil && *t.PrimaryKeySource == "declared"
	for _, c := range t.Columns {
		var set []string
		if declaredPK && len(t.PrimaryKey) == 1 && t.PrimaryKey[0] == c.Name {
			set = append(set, "pk")
		}
		if t.Kind == "table" && !c.Nullable {
			set = append(set, "not null")
		}
		if slices.ContainsFunc(t.Uniques, func(u []string) bool { return len(u) == 1 && u[0] == c.Name }) {
			set = append(set, "unique")
		}
		var notes []string
		if c.Default != nil {
			if d, ok := defaultValue(*c.Default); ok {
				set = append(set, "default: "+d)
			} else {
				notes = append(notes, "default: "+*c.Default)
			}
		}
		if c.Identity != "" {
			notes = append(notes, "identity: "+c.Identity)
		}
		if c.Generated != "" {
			notes = append(notes, "generated: "+c.Generated)
		}
		if n := note(c.UserComment, c.Comment, "", notes); n != "" {
			set = append(set, "note: "+str(n))
		}
		typ := typeName(c.DataType)
		if enums[c.Enum] && !strings.HasSuffix(c.DataType, "]") {
			typ = tableName(c.Enum) // the Enum block above; an array of one stays its own type
		}
		fmt.Fprintf(b, "  %s %s", quoted(c.Name), typ)
		if len(set) > 0 {
			fmt.Fprintf(b, " [%s]", strings.Join(set, ", "))
		}
		b.WriteString("\n")
	}

	var indexes []string
	if declaredPK && len(t.PrimaryKey) > 1 {
		indexes = append(indexes, fmt.Sprintf("(%s) [pk]", names(t.PrimaryKey)))
	}
	for _, u := range t.Uniques {
		if len(u) > 1 {
			indexes = append(indexes, fmt.Sprintf("(%s) [unique]", names(u)))
		}
	}
	var unheld []string
	for _, ix := range t.Indexes {
		switch s, ok := index(t, ix); {
		case !ok:
			unheld = append(unheld, unwritten(ix))
		case s != "":
			indexes = append(indexes, s)
		}
	}
	if len(indexes) > 0 {
		b.WriteString("\n  indexes {\n")
		for _, s := range indexes {
			fmt.Fprintf(b, "    %s\n", s)
		}
		b.WriteString("  }\n")
	}

	var notes []string
	if t.Kind == "view" {
		notes = append(notes, "A view.")
	}
	if !declaredPK && len(t.PrimaryKey) > 0 {
		notes = append(notes, fmt.Sprintf("Key (%s) inferred from the data; none is declared.", strings.Join(t.PrimaryKey, ", ")))
	}
	notes = append(notes, unheld...)
	var entity string
	if t.Entity != nil {
		entity = t.Entity.Description
	}
	if n := note(t.UserComment, t.Comment, entity, notes); n != "" {
		fmt.Fprintf(b, "\n  Note: %s\n", str(n))
	}
	b.WriteString("}\n")
}

// index is a declared index as DBML writes it: a key part that is one of
// the table's columns by its name, an expression (the engine's SQL, as it
// stands in Columns) between backticks. DBML has no condition on an
// index: a partial one says its condition in its note, and is not written
// unique, which would say its columns unique in every row. line is ""
// when nothing needs writing; ok is false when DBML cannot hold the index
// (an expression whose text holds a backtick or a line break, or that the
// engine did not give), which the table's note then carries.
func index(t *report.Table, ix report.Index) (line string, ok bool) {
	if len(ix.Columns) == 0 {
		return "", false
	}
	parts := make([]string, len(ix.Columns))
	for i, c := range ix.Columns {
		switch {
		case slices.ContainsFunc(t.Columns, func(col report.Column) bool { return col.Name == c }):
			parts[i] = quoted(c)
		case c == "<expr>" || strings.ContainsAny(c, "`\r\n") || strings.TrimSpace(c) == "":
			return "", false
		default:
			parts[i] = "`" + c + "`"
		}
	}
	// The declared key and single-column unique constraints are said on
	// the columns already; their index is written only to carry its
	// comment, which the column's settings have no place for.
	covered := ix.Predicate == "" && (slices.Equal(ix.Columns, t.PrimaryKey) ||
		ix.Unique && slices.ContainsFunc(t.Uniques, func(u []string) bool { return slices.Equal(u, ix.Columns) }))
	if covered && ix.Comment == "" {
		return "", true
	}
	set := []string{}
	if ix.Unique && ix.Predicate == "" {
		set = append(set, "unique")
	}
	if ix.Name != "" {
		set = append(set, "name: "+str(ix.Name))
	}
	var notes []string
	if ix.Predicate != "" {
		scope := "Partial: only the rows where " + ix.Predicate
		if ix.Unique {
			scope += ", among which it is unique"
		}
		notes = append(notes, scope+".")
	}
	if ix.Comment != "" {
		notes = append(notes, ix.Comment)
	}
	if len(notes) > 0 {
		set = append(set, "note: "+str(strings.Join(notes, "\n")))
	}
	cols := strings.Join(parts, ", ")
	if len(parts) > 1 {
		cols = "(" + cols + ")"
	}
	if len(set) == 0 {
		return cols, true
	}
	return fmt.Sprintf("%s [%s]", cols, strings.Join(set, ", ")), true
}

// unwritten is an index DBML cannot hold, as the table's note says it:
// the engine's statement when it keeps one.
func unwritten(ix report.Index) string {
	if ix.Definition != "" {
		return "Index: " + ix.Definition
	}
	kind := "Index"
	if ix.Unique {
		kind = "Unique index"
	}
	s := fmt.Sprintf("%s %s on (%s)", kind, ix.Name, strings.Join(ix.Columns, ", "))
	if ix.Predicate != "" {
		s += " where " + ix.Predicate
	}
	return s
}

func writeRef(b *bufio.Writer, rel report.Relationship, from, to string) {
	op := ">"
	if rel.Cardinality != nil && *rel.Cardinality == "one_to_one" {
		op = "-"
	}
	b.WriteString("Ref")
	if rel.ConstraintName != "" {
		b.WriteString(" " + quoted(rel.ConstraintName))
	}
	fmt.Fprintf(b, ": %s %s %s", from, op, to)
	var set []string
	if a := action(rel.OnDelete); a != "" {
		set = append(set, "delete: "+a)
	}
	if a := action(rel.OnUpdate); a != "" {
		set = append(set, "update: "+a)
	}
	if len(set) > 0 {
		fmt.Fprintf(b, " [%s]", strings.Join(set, ", "))
	}
	switch {
	case rel.Source == "declared":
		b.WriteString(" // declared")
	default:
		fmt.Fprintf(b, " // %s, confidence %.2f", comment(rel.Source), rel.Confidence)
	}
	if rel.OrphanFraction != nil {
		fmt.Fprintf(b, ", %.4g%% orphans", 100**rel.OrphanFraction)
	}
	b.WriteString("\n")
}

// action is a referential action as DBML spells it, "" for one it has no
// word for.
func action(a string) string {
	switch s := strings.ToLower(a); s {
	case "cascade", "restrict", "set null", "set default", "no action":
		return s
	}
	return ""
}

func endpoint(table string, cols []string) string {
	if len(cols) == 1 {
		return tableName(table) + "." + quoted(cols[0])
	}
	return tableName(table) + ".(" + names(cols) + ")"
}

func names(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoted(c)
	}
	return strings.Join(q, ", ")
}

// tableName: the report's bare names are in the default schema, which
// DBML calls public; others are schema.table (docs/CONTRACT.md).
func tableName(name string) string {
	if s, t, ok := strings.Cut(name, "."); ok {
		return quoted(s) + "." + quoted(t)
	}
	return quoted(name)
}

var plainType = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func typeName(t string) string {
	if t == "" {
		return "unknown" // SQLite lets a column declare none
	}
	if plainType.MatchString(t) {
		return t
	}
	return quoted(t)
}

var (
	number    = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
	sqlString = regexp.MustCompile(`^'((?:[^']|'')*)'$`)
)

// defaultValue is a declared default as DBML writes it: a number, a
// string, true, false or null as such, any other expression between
// backticks; ok is false for an expression DBML cannot hold (a backtick or
// a line break inside), which goes into the note instead.
func defaultValue(d string) (string, bool) {
	d = strings.TrimSpace(d)
	switch {
	case number.MatchString(d):
		return d, true
	case strings.EqualFold(d, "true") || strings.EqualFold(d, "false") || strings.EqualFold(d, "null"):
		return strings.ToLower(d), true
	}
	if m := sqlString.FindStringSubmatch(d); m != nil {
		return str(strings.ReplaceAll(m[1], "''", "'")), true
	}
	if strings.ContainsAny(d, "`\r\n") || d == "" {
		return "", false
	}
	return "`" + d + "`", true
}

// note is the one note DBML has: the team's comment and the database's
// (both when both are given), else what discover made of the data, then
// the facts the settings cannot say.
func note(team, database, discovered string, facts []string) string {
	var parts []string
	switch {
	case team != "" && database != "":
		parts = append(parts, team, "Database comment: "+database)
	case team != "" || database != "":
		parts = append(parts, team+database)
	case discovered != "":
		parts = append(parts, discovered)
	}
	return strings.Join(append(parts, facts...), "\n")
}

var escapes = strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`, "\t", `\t`)

// quoted is a name between double quotes, escaped.
func quoted(s string) string {
	return `"` + strings.ReplaceAll(escapes.Replace(s), `"`, `\"`) + `"`
}

// str is a string between single quotes, escaped.
func str(s string) string {
	return `'` + strings.ReplaceAll(escapes.Replace(s), `'`, `\'`) + `'`
}

// comment keeps a // comment on its line.
func comment(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}
