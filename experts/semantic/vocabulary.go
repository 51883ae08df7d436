package semantic

import (
	"sort"
	"strings"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/warehouse"
)

// The vocabulary the semantic expert publishes for experts that read its
// findings (experts/rules): the semantic types are the values of
// catalog.SemanticDoc.SemanticType (the Type constants), and the words below
// are how this expert reads names. Sharing them keeps two experts from
// reading one name two ways; the findings themselves are shared through
// the catalog only.

// birthWords mark dates that belong to a person, not to an event.
var birthWords = set("birth", "birthday", "birthdate", "dob", "born")

// NamedAfter reports whether one of the words of name, or its singular,
// is in words.
func NamedAfter(name string, words map[string]bool) bool {
	return (&column{Tokens: naming.Words(name)}).has(words)
}

// NamedLikeBirthDate reports a name that dates a person (birth_date, dob),
// not an event.
func NamedLikeBirthDate(name string) bool { return NamedAfter(name, birthWords) }

// NamedLikeMeasure reports a name that says a quantity, price or amount.
func NamedLikeMeasure(name string) bool { return NamedAfter(name, hintMeasure) }

// DeclaredNumeric reports a numeric declared type.
func DeclaredNumeric(typ string) bool {
	return strings.TrimSpace(typ) != "" && (&column{Type: typ}).numeric()
}

// EntityType is the entity name for a table (order_items → OrderItem).
func EntityType(table string) string { return entityType(table) }

// Humanize renders an entity type for prose: OrderItem → "order item".
func Humanize(typ string) string { return humanize(typ) }

// VisibleTables are the tables as the run may see them: without their
// declared foreign keys when it must judge references from names and
// values alone (Options.IgnoreDeclaredFKs).
func VisibleTables(env *experts.Env) []warehouse.Table {
	if !env.Options.IgnoreDeclaredFKs {
		return env.Tables
	}
	out := make([]warehouse.Table, len(env.Tables))
	for i, t := range env.Tables {
		t.ForeignKeys = nil
		out[i] = t
	}
	return out
}

// Referrer is a table whose column refers to another table: declared, or
// named after it (order_id and orders).
type Referrer struct {
	Table  warehouse.Table
	Column string // the referring column
	Ref    string // the referenced column
}

// Referrers lists the tables that refer to t by one column: by a declared
// foreign key, or by a column named after t (order_id for orders) when t
// has a one-column key. A caller asking for many tables of one list builds
// a ReferrerIndex once instead.
func Referrers(tables []warehouse.Table, t warehouse.Table, pk []string) []Referrer {
	return NewReferrerIndex(tables).Of(t, pk)
}

// ReferrerIndex answers Referrers for the tables of one list, each
// column's name read once: asked once per table, the scan of every column
// of every table made a run quadratic in its tables.
type ReferrerIndex struct {
	declared map[warehouse.TableName][]Referrer // by the referenced table
	named    map[string][]Referrer              // by the words a column names a table with (order for order_id)
}

// NewReferrerIndex indexes tables' declared one-column references and
// their columns named like a reference (words and "id", not the table's
// own one-column key).
func NewReferrerIndex(tables []warehouse.Table) *ReferrerIndex {
	x := &ReferrerIndex{declared: map[warehouse.TableName][]Referrer{}, named: map[string][]Referrer{}}
	for _, o := range tables {
		if o.Kind != "table" {
			continue
		}
		for _, fk := range o.ForeignKeys {
			if len(fk.Columns) == 1 && len(fk.RefColumns) == 1 {
				ref := warehouse.TableName{Schema: fk.RefTable.Schema, Name: fk.RefTable.Name}
				x.declared[ref] = append(x.declared[ref], Referrer{Table: o, Column: fk.Columns[0], Ref: fk.RefColumns[0]})
			}
		}
		for _, c := range o.Columns {
			toks := naming.Words(c.Name)
			if len(toks) < 2 || toks[len(toks)-1] != "id" || (len(o.PrimaryKey) == 1 && o.PrimaryKey[0] == c.Name) {
				continue
			}
			words := make([]string, len(toks)-1)
			for i, w := range toks[:len(toks)-1] {
				words[i] = naming.Singular(w)
			}
			key := strings.Join(words, "_")
			x.named[key] = append(x.named[key], Referrer{Table: o, Column: c.Name})
		}
	}
	return x
}

// Of lists the tables that refer to t by one column, as Referrers does.
func (x *ReferrerIndex) Of(t warehouse.Table, pk []string) []Referrer {
	var out []Referrer
	seen := map[string]bool{}
	add := func(r Referrer) {
		k := r.Table.Name.String() + "." + r.Column
		if !seen[k] && r.Table.Name != t.Name {
			seen[k] = true
			out = append(out, r)
		}
	}
	for _, r := range x.declared[warehouse.TableName{Schema: t.Name.Schema, Name: t.Name.Name}] {
		add(r)
	}
	if len(pk) == 1 {
		for _, r := range x.named[strings.Join(naming.Words(entityType(t.Name.Name)), "_")] {
			r.Ref = pk[0]
			add(r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Table.Name.String()+"."+out[i].Column, out[j].Table.Name.String()+"."+out[j].Column
		return a < b
	})
	return out
}
