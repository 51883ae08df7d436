package statistical

import (
	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// Coverage: each table's statistics and each column's profile.
func (*Expert) Coverage(tables []warehouse.Table) []experts.Unit {
	var out []experts.Unit
	for _, t := range tables {
		n := t.Name.String()
		out = append(out, experts.Unit{Kind: catalog.KindTableStats, Key: n, Phase: experts.PhaseInventory, What: "statistics of " + n, Table: n})
		for _, c := range t.Columns {
			k := n + "." + c.Name
			out = append(out, experts.Unit{Kind: catalog.KindProfile, Key: k, Phase: experts.PhaseInventory, What: "profile of " + k, Table: n, Column: c.Name})
		}
	}
	return out
}
