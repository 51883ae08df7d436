package report

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/discover-db/discover/catalog"
)

// The declared structure beyond keys in a diff (issue 22): a changed
// default, comment, generated expression or identity, check, trigger,
// view definition, index (its key, uniqueness or predicate), primary key
// name, a declared reference's name or actions, or an enumerated type or
// a routine added, removed or changed is schema drift. The
// team's descriptions (discover.yaml comments:) are no change of the
// database: they are CategoryDescriptions, not drift unless --fail-on
// names it.
//
// Reports written before discover recorded this structure have none of it,
// and a database whose every table gains a default would read as drift
// against them; so the structure is compared only when the old report
// records some (structureRecorded). A database that declared none of it
// and gains its first piece is then seen from the next diff on.

// structureRecorded says whether a report holds any of the structure a
// report of this version records: an index, a default, a comment, a
// check, a trigger, a view definition, a referential action.
func structureRecorded(r *Report) bool {
	for _, t := range r.Tables {
		if len(t.Indexes) > 0 || t.Comment != "" || t.PrimaryKeyName != "" || t.Definition != "" || len(t.Checks) > 0 || len(t.Triggers) > 0 {
			return true
		}
		for _, c := range t.Columns {
			if c.Default != nil || c.Comment != "" || c.Generated != "" || c.Identity != "" {
				return true
			}
		}
	}
	for _, rel := range r.Relationships {
		if rel.OnDelete != "" || rel.OnUpdate != "" || rel.ConstraintName != "" {
			return true
		}
	}
	return false
}

// changed adds a change of one text of an object's structure, when it
// differs: what names the text ("default", "comment"), none what an empty
// one is called.
func (d *differ) changed(category, obj, what, old, new string) {
	if old == new {
		return
	}
	show := func(s string) string {
		if s == "" {
			return "none"
		}
		return fmt.Sprintf("%q", s)
	}
	d.add(category, obj, ChangeChanged, old, new, "%s %s changed from %s to %s", obj, what, show(old), show(new))
}

// tableStructure compares a table's declared structure beyond keys.
func (d *differ) tableStructure(o, n Table) {
	d.changed(CategoryDescriptions, o.Name, "description (discover.yaml)", o.UserComment, n.UserComment)
	if !d.structure {
		return
	}
	d.changed(CategorySchema, o.Name, "comment", o.Comment, n.Comment)
	d.changed(CategorySchema, o.Name, "primary key name", o.PrimaryKeyName, n.PrimaryKeyName)
	d.changed(CategorySchema, o.Name, "view definition", o.Definition, n.Definition)
	// A table's CREATE statement is not compared: each change in it is
	// already one of the changes above and below (a column, a default, a
	// key), which would otherwise be reported twice.

	checkKey := func(c Check) string { return cmp.Or(c.Name, c.Expression) }
	named(d, o.Name, "check", byName(o.Checks, checkKey), byName(n.Checks, checkKey), func(c Check) string {
		return c.Expression
	})
	named(d, o.Name, "trigger", byName(o.Triggers, func(t Trigger) string { return t.Name }),
		byName(n.Triggers, func(t Trigger) string { return t.Name }), func(t Trigger) string {
			s := t.Timing + " " + strings.Join(t.Events, " OR ") + ": " + t.Definition
			if t.Comment != "" {
				s += " (comment: " + t.Comment + ")"
			}
			return s
		})
	named(d, o.Name, "index", byName(o.Indexes, func(x Index) string { return x.Name }),
		byName(n.Indexes, func(x Index) string { return x.Name }), func(x Index) string {
			return indexKeyText(x) + commentText(x.Comment)
		})
	for _, name := range slices.Sorted(maps.Keys(mergeKeys(o.ConstraintComments, n.ConstraintComments))) {
		d.changed(CategorySchema, o.Name, "constraint "+name+" comment", o.ConstraintComments[name], n.ConstraintComments[name])
	}
}

// mergeKeys is a set of the keys of a and b.
func mergeKeys(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// named compares the named pieces of a table's structure (checks,
// triggers, indexes): added, removed, or changed as text says.
func named[T any](d *differ, table, what string, old, new map[string]T, text func(T) string) {
	// An unnamed check goes by its expression: not said twice.
	label := func(name string, x T) string {
		if name == text(x) {
			return what
		}
		return what + " " + name
	}
	for _, name := range slices.Sorted(maps.Keys(new)) {
		if _, ok := old[name]; !ok {
			x := new[name]
			d.add(CategorySchema, table, ChangeAdded, "", text(x), "%s %s added: %s", table, label(name, x), text(x))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(old)) {
		x := old[name]
		n, ok := new[name]
		switch {
		case !ok:
			d.add(CategorySchema, table, ChangeRemoved, text(x), "", "%s %s removed (was %s)", table, label(name, x), text(x))
		case text(x) != text(n):
			d.add(CategorySchema, table, ChangeChanged, text(x), text(n), "%s %s changed from %q to %q", table, label(name, x), text(x), text(n))
		}
	}
}

// columnStructure compares a column's declared structure beyond its type.
func (d *differ) columnStructure(obj string, o, n Column) {
	d.changed(CategoryDescriptions, obj, "description (discover.yaml)", o.UserComment, n.UserComment)
	if !d.structure {
		return
	}
	d.changed(CategorySchema, obj, "default", deref(o.Default), deref(n.Default))
	d.changed(CategorySchema, obj, "on update", o.OnUpdate, n.OnUpdate)
	d.changed(CategorySchema, obj, "comment", o.Comment, n.Comment)
	d.changed(CategorySchema, obj, "generated", generatedText(o), generatedText(n))
}

// relationshipStructure compares a declared reference's name and actions.
func (d *differ) relationshipStructure(o, n Relationship) {
	if !d.structure {
		return
	}
	k := catalog.RelationshipKey(o.FromTable, o.FromColumns, o.ToTable, o.ToColumns)
	d.changed(CategorySchema, k, "constraint name", o.ConstraintName, n.ConstraintName)
	d.changed(CategorySchema, k, "ON DELETE", o.OnDelete, n.OnDelete)
	d.changed(CategorySchema, k, "ON UPDATE", o.OnUpdate, n.OnUpdate)
}

// objects compares what the database declares beside its tables: an
// enumerated type added, removed or given other labels, a routine added,
// removed, or changed in kind, result, language or comment (an overload is
// a routine of its own, named with its arguments). Like the rest of the
// structure, only when the old report lists some: one written before
// discover listed them, or by an engine that lists none, has none.
func (d *differ) objects(old, new *Report) {
	if len(old.Enums) == 0 && len(old.Routines) == 0 {
		return
	}
	enumName := func(e Enum) string { return "enum " + e.Name }
	objectChanges(d, byName(old.Enums, enumName), byName(new.Enums, enumName), func(e Enum) string {
		s := labelsText(e.Labels)
		if e.Comment != "" {
			s += " (comment: " + e.Comment + ")"
		}
		return s
	})
	routineName := func(r Routine) string { return r.Kind + " " + r.Name + "(" + r.Arguments + ")" }
	objectChanges(d, byName(old.Routines, routineName), byName(new.Routines, routineName), func(r Routine) string {
		var parts []string
		if r.Returns != "" {
			parts = append(parts, "returns "+r.Returns)
		}
		if r.Language != "" {
			parts = append(parts, "language "+r.Language)
		}
		if r.Comment != "" {
			parts = append(parts, "comment: "+r.Comment)
		}
		return strings.Join(parts, ", ")
	})
}

// objectChanges adds the objects added to, removed from and changed
// between old and new, keyed by what names them in a message.
func objectChanges[T any](d *differ, old, new map[string]T, text func(T) string) {
	for _, name := range slices.Sorted(maps.Keys(new)) {
		if _, ok := old[name]; !ok {
			d.add(CategorySchema, name, ChangeAdded, "", text(new[name]), "%s added: %s", name, text(new[name]))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(old)) {
		n, ok := new[name]
		switch {
		case !ok:
			d.add(CategorySchema, name, ChangeRemoved, text(old[name]), "", "%s removed (was %s)", name, text(old[name]))
		case text(old[name]) != text(n):
			d.add(CategorySchema, name, ChangeChanged, text(old[name]), text(n), "%s changed from %q to %q", name, text(old[name]), text(n))
		}
	}
}
