package experts

import (
	"fmt"
	"strings"

	"github.com/discover-db/discover/catalog"
)

// RelationshipKey is the catalog key of a relationship. It lives here, not
// in one expert, because the structural expert (declared and configured
// references) and the relations expert (inferred ones) write entries of the
// same kind: one spelling of the key makes a reference found both ways one
// entry.
func RelationshipKey(r catalog.RelationshipDoc) string {
	return fmt.Sprintf("%s(%s)->%s(%s)", r.FromTable, strings.Join(r.FromColumns, ","), r.ToTable, strings.Join(r.ToColumns, ","))
}

// CardinalitySubject prefixes the subject of the query expert's
// cardinality test of a relationship, followed by the relationship's key:
// the advice expert finds the measured figures by it.
const CardinalitySubject = "cardinality of "
