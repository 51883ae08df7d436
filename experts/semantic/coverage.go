package semantic

import (
	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// Coverage: what each table's rows are, what each column means, and the
// business domain.
func (*Expert) Coverage(tables []warehouse.Table) []experts.Unit {
	var out []experts.Unit
	for _, t := range tables {
		n := t.Name.String()
		out = append(out, experts.Unit{Kind: catalog.KindEntity, Key: n, Phase: experts.PhaseMeaning, What: "meaning of " + n, Table: n})
		for _, c := range t.Columns {
			k := n + "." + c.Name
			out = append(out, experts.Unit{Kind: catalog.KindSemantic, Key: k, Phase: experts.PhaseMeaning, What: "semantic type of " + k, Table: n, Column: c.Name})
		}
	}
	if len(tables) > 0 {
		out = append(out, experts.Unit{Kind: catalog.KindDomain, Key: "domain", Phase: experts.PhaseMeaning, What: "business domain"})
	}
	return out
}
