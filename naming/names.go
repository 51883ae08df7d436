package naming

import (
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Names that differ only in case can be two tables (on a source whose
// quoted names keep their case, or whose table names follow a
// case-sensitive file system) or two columns of one table (on a source
// whose quoted column names keep their case). Names that come from the
// source's own listing are therefore compared exactly. A name written
// elsewhere — a foreign key declared in another case (which a source that
// folds names accepts), discover.yaml, a model's answer — is resolved
// exactly when a name is spelled so, else in another case only when that
// is the one name it can mean.

// TableIndex finds the source's tables by name (TableName.String()).
type TableIndex struct {
	exact  map[string]warehouse.Table
	folded map[string][]warehouse.Table
}

// NewTableIndex indexes tables.
func NewTableIndex(tables []warehouse.Table) TableIndex {
	x := TableIndex{exact: map[string]warehouse.Table{}, folded: map[string][]warehouse.Table{}}
	for _, t := range tables {
		n := t.Name.String()
		x.exact[n] = t
		x.folded[strings.ToLower(n)] = append(x.folded[strings.ToLower(n)], t)
	}
	return x
}

// Find is the table name means: the one spelled so, else the only one
// whose name equals it in another case. Two tables equal to it in other
// cases, and none spelled so, is no match: which one was meant cannot be
// told.
func (x TableIndex) Find(name string) (warehouse.Table, bool) {
	if t, ok := x.exact[name]; ok {
		return t, true
	}
	if ts := x.folded[strings.ToLower(name)]; len(ts) == 1 {
		return ts[0], true
	}
	return warehouse.Table{}, false
}

// FindColumn is the column of t that name means, by the same rule as
// TableIndex.Find.
func FindColumn(t warehouse.Table, name string) (string, bool) {
	found, n := "", 0
	for _, c := range t.Columns {
		if c.Name == name {
			return c.Name, true
		}
		if strings.EqualFold(c.Name, name) {
			found, n = c.Name, n+1
		}
	}
	return found, n == 1
}
