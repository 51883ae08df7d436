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
// name, or a declared reference's name or actions is schema drift. The
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

	checkKey := func(c Check) string { return cmp.Or(c.Name, c.Expression) }
	named(d, o.Name, "check", byName(o.Checks, checkKey), byName(n.Checks, checkKey), func(c Check) string {
		return c.Expression
	})
	named(d, o.Name, "trigger", byName(o.Triggers, func(t Trigger) string { return t.Name }),
		byName(n.Triggers, func(t Trigger) string { return t.Name }), func(t Trigger) string {
			return t.Timing + " " + strings.Join(t.Events, " OR ") + ": " + t.Definition
		})
	named(d, o.Name, "index", byName(o.Indexes, func(x Index) string { return x.Name }),
		byName(n.Indexes, func(x Index) string { return x.Name }), indexKeyText)
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
