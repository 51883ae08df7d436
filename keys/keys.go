// Package keys picks the key a table that declares none is tested for.
//
// A table that declares no primary key gets one inferred from its exact
// profiles: the query expert tests the column (or pair of columns) chosen
// here, and records it as the table's key when the data agrees. Other
// experts that describe a table by its key wait for that test (KeyTest,
// KeyTestID): a description written before it, or after it, would differ
// between two runs of the same data, by which task finished first.
//
// It is machinery the experts share, not an expert: the query expert plans
// the test from it, and the semantic expert waits for the same test by its
// ID.
package keys

import (
	"sort"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/warehouse"
)

// KeyTest is the column, or the pair of columns, the query expert tests as
// the key of t, a table that declares none, from its profiles; false when
// there is none to test.
func KeyTest(t warehouse.Table, profiles []catalog.ProfileDoc) ([]string, bool) {
	if col, ok := KeyCandidate(t, profiles); ok {
		return []string{col}, true
	}
	return pairCandidate(t, profiles)
}

// KeyTestID is the ledger ID of the test that cols identify the rows of
// t: saved once the test has run, whatever its verdict.
func KeyTestID(t warehouse.Table, cols []string) string {
	return hypotheses.ID("key", t.Name.String(), strings.Join(cols, ","))
}

// KeyCandidate picks the column most likely to be a table's key from its
// profiles: unique and never NULL on an exact profile, preferring names
// that say "id" and earlier positions.
func KeyCandidate(t warehouse.Table, profiles []catalog.ProfileDoc) (string, bool) {
	type cand struct {
		name  string
		score int
	}
	var cands []cand
	pos := map[string]int{}
	for _, c := range t.Columns {
		pos[c.Name] = c.Position
	}
	for _, p := range profiles {
		if p.Sampled || p.Rows < 2 || p.DistinctCount == nil || p.NullFraction == nil {
			continue
		}
		if *p.DistinctCount != p.Rows || *p.NullFraction != 0 {
			continue
		}
		score := 100 - pos[p.Column]
		l := strings.ToLower(p.Column)
		tn := strings.ToLower(t.Name.Name)
		// A column that is unique by chance (a measure in a small table) is
		// no key: ask for a key-like name, or the first column.
		if !keyLike(p.Column) && pos[p.Column] != 1 {
			continue
		}
		switch {
		case l == "id":
			score += 1000
		case strings.HasSuffix(l, "_id") || strings.HasSuffix(p.Column, "Id") || strings.HasSuffix(p.Column, "ID"):
			if strings.HasPrefix(l, strings.TrimSuffix(tn, "s")) {
				score += 800
			} else {
				score += 300
			}
		case strings.HasSuffix(l, "code") || strings.HasSuffix(l, "key") || strings.HasSuffix(l, "no") || strings.HasSuffix(l, "number"):
			score += 200
		}
		cands = append(cands, cand{p.Column, score})
	}
	if len(cands) == 0 {
		return "", false
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].name < cands[j].name
	})
	return cands[0].name, true
}

func keyLike(col string) bool {
	l := strings.ToLower(col)
	for _, suf := range []string{"id", "code", "key", "no", "num", "number", "uuid", "guid"} {
		if l == suf || strings.HasSuffix(l, "_"+suf) {
			return true
		}
	}
	return strings.HasSuffix(col, "Id") || strings.HasSuffix(col, "ID") || strings.HasSuffix(col, "Code") || strings.HasSuffix(col, "Key")
}

// pairCandidate picks two columns that may together identify a table's
// rows when no single column does: a bridge table's two references. Both
// must be named like keys, never NULL on an exact profile, and have
// distinct counts whose product reaches the rows; the first two such
// columns in table order are taken.
func pairCandidate(t warehouse.Table, profiles []catalog.ProfileDoc) ([]string, bool) {
	byCol := map[string]catalog.ProfileDoc{}
	for _, p := range profiles {
		byCol[p.Column] = p
	}
	var pair []string
	var product float64 = 1
	var rows int64
	for _, c := range t.Columns {
		p, ok := byCol[c.Name]
		if !ok || p.Sampled || p.Rows < 2 || p.DistinctCount == nil || p.NullFraction == nil ||
			*p.NullFraction != 0 || !keyLike(c.Name) {
			continue
		}
		pair = append(pair, c.Name)
		product *= float64(*p.DistinctCount)
		rows = p.Rows
		if len(pair) == 2 {
			break
		}
	}
	if len(pair) != 2 || product < float64(rows) {
		return nil, false
	}
	return pair, true
}
