package experts

// CardinalitySubject prefixes the subject of the query expert's
// cardinality test of a relationship, followed by the relationship's key
// (catalog.RelationshipDoc.Key): the advice expert finds the measured
// figures by it.
const CardinalitySubject = "cardinality of "
