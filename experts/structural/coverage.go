package structural

import (
	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// Coverage: each table's structure, and one pass over the relationship
// graph for its patterns.
func (*Expert) Coverage(tables []warehouse.Table) []experts.Unit {
	var out []experts.Unit
	for _, t := range tables {
		n := t.Name.String()
		out = append(out, experts.Unit{Kind: catalog.KindTable, Key: n, Phase: experts.PhaseInventory, What: "structure of " + n, Table: n})
	}
	if len(tables) > 0 {
		out = append(out, experts.Unit{Kind: catalog.KindProgress, Key: patternsStep, Phase: experts.PhaseMeaning, What: "structural patterns"})
	}
	return out
}
