package lint

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/report"
)

// refName is how a column that references a key names what it holds: the
// concept (its head word, singular, brought to the vocabulary's word: cust
// and customers are customer) and its spelling (the head word as written
// and the key word beside it: cust_no, customer_ref). Words before the
// head qualify it (bill_customer_id, original_language_id) and are left
// out, so roles of one concept spelled alike agree.
type colName struct {
	concept, spelling string
}

// columnName reads a referencing column's name; ok is false for a name
// that plays a person's role (manager_id, reviewer: naming's roles.txt),
// which names another concept on purpose, and for a name that is only a
// key word (id).
func columnName(col string) (colName, bool) {
	words := naming.Words(col)
	for _, w := range words {
		if naming.Role(w) {
			return colName{}, false
		}
	}
	var key string
	switch {
	case len(words) > 0 && isKeyWord(words[len(words)-1], naming.KeySuffix):
		key, words = words[len(words)-1], words[:len(words)-1]
	case len(words) > 0 && isKeyWord(words[0], naming.KeyPrefix):
		key, words = words[0], words[1:]
	}
	if len(words) == 0 {
		return colName{}, false
	}
	head := words[len(words)-1]
	concept := naming.Singular(head)
	if s, ok := naming.Synonym(concept); ok {
		concept = s
	}
	spelling := head
	if key != "" {
		spelling += "_" + key
	}
	return colName{concept: concept, spelling: spelling}, true
}

func isKeyWord(w string, f func(string) (string, bool)) bool {
	_, ok := f(w)
	return ok
}

func inconsistentNaming(r *report.Report, s Settings) []Violation {
	type member struct{ spelling, column string }
	// By referenced key, then by concept.
	groups := map[string]map[string][]member{}
	parents := map[string]report.Relationship{}
	for _, rel := range r.Relationships {
		// A reference to its own table names the role another row plays
		// (parent_id, ReportsTo: selfroles.txt), never the key's concept.
		if len(rel.FromColumns) != 1 || rel.FromTable == rel.ToTable || !counts(rel, s.Param("min_confidence")) {
			continue
		}
		if excluded(s.Exclude, Violation{Table: rel.FromTable, Columns: rel.FromColumns}) {
			continue
		}
		n, ok := columnName(rel.FromColumns[0])
		if !ok {
			continue
		}
		key := refName(rel.ToTable, rel.ToColumns)
		if groups[key] == nil {
			groups[key] = map[string][]member{}
			parents[key] = rel
		}
		groups[key][n.concept] = append(groups[key][n.concept], member{n.spelling, rel.FromTable + "." + rel.FromColumns[0]})
	}
	var out []Violation
	for _, key := range slices.Sorted(maps.Keys(groups)) {
		byConcept := groups[key]
		for _, concept := range slices.Sorted(maps.Keys(byConcept)) {
			ms := byConcept[concept]
			spellings := map[string][]string{}
			for _, m := range ms {
				spellings[m.spelling] = append(spellings[m.spelling], m.column)
			}
			if len(spellings) < 2 {
				continue
			}
			var related, parts []string
			for _, sp := range slices.Sorted(maps.Keys(spellings)) {
				cols := spellings[sp]
				slices.Sort(cols)
				related = append(related, cols...)
				parts = append(parts, fmt.Sprintf("%s (%s)", sp, strings.Join(cols, ", ")))
			}
			slices.Sort(related)
			rel := parents[key]
			out = append(out, Violation{
				Table: rel.ToTable, Columns: slices.Clone(rel.ToColumns), Related: related,
				Message: fmt.Sprintf("%s is referenced under %d names for one concept: %s; one name lets a reader and a join find them all",
					key, len(spellings), strings.Join(parts, ", ")),
			})
		}
	}
	return sortViolations(out)
}
