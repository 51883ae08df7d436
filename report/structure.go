package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The declared structure beyond keys (issue 22) as the Markdown pages and
// the HTML write it: one wording for both. Every text here holds values
// from the database (a default, a comment, a check's expression); the
// callers escape it (mdText, html/template), these functions never do.

// defaultText is a column's declared default, and what MySQL sets it to
// when its row is updated ("current_timestamp(), on update
// current_timestamp()", as tbls's Extra Definition says it); "" when none.
func defaultText(c Column) string {
	var parts []string
	if c.Default != nil {
		parts = append(parts, *c.Default)
	}
	if c.OnUpdate != "" {
		parts = append(parts, "on update "+c.OnUpdate)
	}
	return strings.Join(parts, ", ")
}

// generatedText says how the engine fills a column itself: a generated
// column's expression, or how an identity column is numbered; "" otherwise.
func generatedText(c Column) string {
	switch {
	case c.Generated != "" && c.GeneratedStored:
		return "stored: " + c.Generated
	case c.Generated != "":
		return "virtual: " + c.Generated
	case c.Identity == "always":
		return "identity, always"
	case c.Identity == "by_default":
		return "identity, by default"
	case c.Identity == "auto_increment":
		return "auto increment"
	}
	return ""
}

// columnStructure says which of the optional column facts any column of t
// has, so that a table shows a column of its grid only when it says
// something.
type columnStructure struct {
	Default, Generated, Comment, UserComment bool
}

func columnStructureOf(t Table) columnStructure {
	var s columnStructure
	for _, c := range t.Columns {
		s.Default = s.Default || defaultText(c) != ""
		s.Generated = s.Generated || generatedText(c) != ""
		s.Comment = s.Comment || c.Comment != ""
		s.UserComment = s.UserComment || c.UserComment != ""
	}
	return s
}

// Any says whether some column has one of them.
func (s columnStructure) Any() bool { return s.Default || s.Generated || s.Comment || s.UserComment }

// commentFacts are a table's descriptions, the database's and the team's,
// each saying whose it is.
func commentFacts(t Table) []string {
	var out []string
	if t.Comment != "" {
		out = append(out, "Comment (database): "+t.Comment)
	}
	if t.UserComment != "" {
		out = append(out, "Description (the team's, discover.yaml): "+t.UserComment)
	}
	return out
}

// actionsText is a declared reference's referential actions, "" when the
// engine said none.
func actionsText(rel Relationship) string {
	var a []string
	if rel.OnDelete != "" {
		a = append(a, "ON DELETE "+rel.OnDelete)
	}
	if rel.OnUpdate != "" {
		a = append(a, "ON UPDATE "+rel.OnUpdate)
	}
	return strings.Join(a, ", ")
}

// constraintItems are a table's named primary key, the declared references
// it makes with their names and actions, and its checks; none when the
// engine declared nothing beyond what Keys already says.
//
// The database's comments on constraints follow the constraint they are
// on; a comment on a constraint shown nowhere else here (a unique or
// exclusion constraint) is an item of its own, by the constraint's name.
func constraintItems(t Table, out []Relationship) []string {
	var items []string
	shown := map[string]bool{}
	commented := func(name, s string) string {
		if name == "" {
			return s
		}
		shown[name] = true
		return s + commentText(t.ConstraintComments[name])
	}
	if t.PrimaryKeyName != "" && len(t.PrimaryKey) > 0 {
		items = append(items, commented(t.PrimaryKeyName, fmt.Sprintf("Primary key %s %s", t.PrimaryKeyName, columnsText(t.PrimaryKey))))
	}
	for _, rel := range out {
		if rel.Source != "declared" || rel.ConstraintName == "" && actionsText(rel) == "" {
			continue
		}
		s := "Foreign key "
		if rel.ConstraintName != "" {
			s += rel.ConstraintName + " "
		}
		s += columnsText(rel.FromColumns) + " → " + endText(rel.ToTable, rel.ToColumns)
		if a := actionsText(rel); a != "" {
			s += ", " + a
		}
		items = append(items, commented(rel.ConstraintName, s))
	}
	for _, c := range t.Checks {
		items = append(items, commented(c.Name, checkText(c)))
	}
	for _, name := range slices.Sorted(maps.Keys(t.ConstraintComments)) {
		if !shown[name] {
			items = append(items, "Constraint "+name+commentText(t.ConstraintComments[name]))
		}
	}
	return items
}

func checkText(c Check) string {
	if c.Name != "" {
		return fmt.Sprintf("Check %s: %s", c.Name, c.Expression)
	}
	return "Check: " + c.Expression
}

// indexText is one index: its name, indexKeyText and the database's
// comment on it.
func indexText(ix Index) string { return ix.Name + " " + indexKeyText(ix) + commentText(ix.Comment) }

// commentText is a database's comment as it follows what it is on:
// " (comment: …)", "" for none.
func commentText(c string) string {
	if c == "" {
		return ""
	}
	return " (comment: " + c + ")"
}

// indexKeyText is an index without its name: its key, unique, and a
// partial index's condition; the pages and discover diff word it alike.
func indexKeyText(ix Index) string {
	s := columnsText(ix.Columns)
	if ix.Unique {
		s += ", unique"
	}
	if ix.Predicate != "" {
		s += ", where " + ix.Predicate
	}
	return s
}

// triggerText is a trigger's name, when it fires and on what, and the
// database's comment on it.
func triggerText(tr Trigger) string {
	s := fmt.Sprintf("%s: %s %s", tr.Name, tr.Timing, strings.Join(tr.Events, " OR "))
	if tr.Comment != "" {
		s += " (comment: " + tr.Comment + ")"
	}
	return s
}

// columnLink is one reference seen from one of its columns: the table and
// columns at its other end, and who says so (declared, inferred, user).
type columnLink struct {
	Table   string
	Columns []string
	Source  string
}

// text is the link as words: "customers (id)", with ", inferred" or
// ", user" after a reference the schema does not declare.
func (l columnLink) text() string {
	s := endText(l.Table, l.Columns)
	if l.Source != "declared" {
		s += ", " + l.Source
	}
	return s
}

// columnLinksSep separates a column's links in one cell: not a comma,
// which a link's own columns and source use.
const columnLinksSep = "; "

// columnLinksLimit is the most links one cell of a column grid lists: a
// hub's key referenced by hundreds of tables would make a cell no one
// reads, and the page's table of relationships lists them all.
const columnLinksLimit = 10

// moreLinks is what a cell says of the links past columnLinksLimit, ""
// when there are none.
func moreLinks(ls []columnLink) string {
	if n := len(ls) - columnLinksLimit; n > 0 {
		return fmt.Sprintf("%d more (Relationships)", n)
	}
	return ""
}

// columnLinks are, for each column of table, the references that leave
// from it (parents: the tables and columns it references) and those that
// arrive at it (children: the tables and columns referencing it), in the
// report's order of relationships; tbls's Columns grid shows the same. A
// column of a composite reference has the whole reference.
func columnLinks(rels []Relationship, table string) (parents, children map[string][]columnLink) {
	parents, children = map[string][]columnLink{}, map[string][]columnLink{}
	for _, r := range rels {
		if r.FromTable == table {
			for _, c := range r.FromColumns {
				parents[c] = append(parents[c], columnLink{Table: r.ToTable, Columns: r.ToColumns, Source: r.Source})
			}
		}
		if r.ToTable == table {
			for _, c := range r.ToColumns {
				children[c] = append(children[c], columnLink{Table: r.FromTable, Columns: r.FromColumns, Source: r.Source})
			}
		}
	}
	return parents, children
}

// routineText is a routine's signature as the index lists it:
// "name(arguments) → returns".
func routineText(r Routine) string {
	s := r.Name + "(" + r.Arguments + ")"
	if r.Returns != "" {
		s += " → " + r.Returns
	}
	return s
}

// labelsText is an enumerated type's labels as SQL literals, in order:
// 'new', 'paid' (a label may hold a comma or a quote).
func labelsText(labels []string) string {
	q := make([]string, len(labels))
	for i, l := range labels {
		q[i] = "'" + strings.ReplaceAll(l, "'", "''") + "'"
	}
	return strings.Join(q, ", ")
}

// tableKindText is a table's kind as the pages and the HTML say it:
// "table", "view", "materialized view" or "foreign table".
func tableKindText(t Table) string {
	switch {
	case t.Materialized:
		return "materialized " + t.Kind
	case t.Foreign:
		return "foreign " + t.Kind
	}
	return t.Kind
}
