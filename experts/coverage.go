package experts

import (
	"slices"

	"github.com/discover-db/discover/warehouse"
)

// Unit is one thing a complete discovery knows: it is covered once this
// run holds an entry of Kind and Key. Each expert declares the units that
// are its work (Coverer), so a new expert's kinds count toward coverage
// without the orchestrator knowing them.
type Unit struct {
	Kind, Key string
	Phase     int    // PhaseInventory or PhaseMeaning: which part of the work is missing while it is
	What      string // for people: "profile of orders.total"
	// Table and Column place the unit in the inventory (Column empty for a
	// table's unit, both empty for the database's), so that what is
	// pending reads table by table.
	Table, Column string
}

// The phases a unit belongs to. Testing relationships (phase 3) is
// counted by the orchestrator from the relationships found, not declared.
const (
	PhaseInventory = 1 // structure, statistics, profiles
	PhaseMeaning   = 2 // what tables and columns mean, the domain, patterns
)

// Coverer is an expert whose work counts toward coverage.
type Coverer interface {
	Coverage(tables []warehouse.Table) []Unit
}

// CoverageOf collects the units of every expert that declares some, in
// the inventory's order: table by table (the table's own units, then its
// columns'), then the database's, each in the experts' order.
func CoverageOf(xs []Expert, tables []warehouse.Table) []Unit {
	type placed struct {
		u              Unit
		table, column  int
		expert, within int
	}
	tpos := map[string]int{}
	cpos := map[string]int{}
	for i, t := range tables {
		n := t.Name.String()
		tpos[n] = i
		for j, c := range t.Columns {
			cpos[n+"\x00"+c.Name] = j
		}
	}
	var all []placed
	for xi, x := range xs {
		c, ok := x.(Coverer)
		if !ok {
			continue
		}
		for wi, u := range c.Coverage(tables) {
			p := placed{u: u, table: len(tables), column: -1, expert: xi, within: wi}
			if i, ok := tpos[u.Table]; ok && u.Table != "" {
				p.table = i
				if j, ok := cpos[u.Table+"\x00"+u.Column]; ok && u.Column != "" {
					p.column = j
				}
			}
			all = append(all, p)
		}
	}
	slices.SortStableFunc(all, func(a, b placed) int {
		for _, d := range [...]int{a.table - b.table, a.column - b.column, a.expert - b.expert, a.within - b.within} {
			if d != 0 {
				return d
			}
		}
		return 0
	})
	out := make([]Unit, len(all))
	for i, p := range all {
		out[i] = p.u
	}
	return out
}
