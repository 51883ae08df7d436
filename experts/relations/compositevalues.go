package relations

// Composite references the values propose where the names do not: a
// delivery item's predecessor (LIPS(MANDT, VGBEL, VGPOS) → VBAP(MANDT,
// VBELN, POSNR)), a billing document's payer (VBRK(MANDT, KUNRG) →
// KNA1(MANDT, KUNNR)), an order line's shipment under a role nobody
// lists. The names of such columns point nowhere a word list could know,
// so, as for one column (values.go), the values propose and the chance
// model decides what is worth an exact check.
//
// For each declared key of several columns and each other table, every
// column of the key gets options: the child's column best named after it
// (componentName), and columns whose values could be its own (a compatible
// type, a range within the key column's, no more distinct values). A
// candidate takes one option per key column, at least one of them a
// column that proposes: its values read as integers (integers, or digits
// of one fixed width, as document numbers are written), and the chance
// that as many distinct values of a column referencing nothing would all
// fall among the key column's is below valueMaxChance. Other columns
// ride along (an item number 10..60, a client constant): the exact check
// of the tuples decides for them.
//
// Several candidates of one child for one key may all hold: a delivery's
// item numbers are its order's too, so (VGBEL, POSNR) is found in the
// order items as (VGBEL, VGPOS) is. The values cannot tell them apart;
// the columns of one reference are written side by side, so the one whose
// columns sit next to each other in the child is kept, and a tie keeps
// none (selectValueComposites).

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/discover-db/discover/catalog"
)

const (
	// compositeValueOptions: columns of a child tried for one column of a
	// key by their values, besides the best named one.
	compositeValueOptions = 3
	// compositeValueCombos: candidates one child gets for one key, the
	// least likely by chance first.
	compositeValueCombos = 4
	// maxDigitWidth: digit strings wider than this do not read as float64
	// integers exactly.
	maxDigitWidth = 15
)

// integerValues is a column's values as the chance model reads them.
type integerValues struct {
	lo, hi   float64
	distinct int64
	width    int // the digits of each value, for text; 0 for integers
}

// asIntegers reads a column's profile as integers: an integer column's, or
// a text column's whose values are all as long and whose least and
// greatest are digits ('0000004971'..'0000006469': zero-padded numbers
// sort as their numbers do). A text value between two such that is not
// all digits is possible; the exact check, which needs every value in the
// key, then fails.
func asIntegers(c Column) (integerValues, bool) {
	if lo, hi, d, ok := integerColumn(c); ok {
		return integerValues{lo, hi, d, 0}, true
	}
	p := c.Profile
	if typeClass(c.Type) != "text" || p == nil || p.Min == nil || p.Max == nil || p.DistinctCount == nil || p.TextLength == nil {
		return integerValues{}, false
	}
	w := len(*p.Min)
	if w == 0 || w > maxDigitWidth || len(*p.Max) != w || p.TextLength.Min != int64(w) || p.TextLength.Max != int64(w) ||
		!isDigits(*p.Min) || !isDigits(*p.Max) {
		return integerValues{}, false
	}
	lo, err1 := strconv.ParseFloat(*p.Min, 64)
	hi, err2 := strconv.ParseFloat(*p.Max, 64)
	if err1 != nil || err2 != nil {
		return integerValues{}, false
	}
	return integerValues{lo, hi, *p.DistinctCount, w}, true
}

// componentOption is a child column that may stand for one column of a
// composite key.
type componentOption struct {
	col  Column
	name NameMatch
	// chance, for a column offered by its values, is the chance model's
	// probability of its inclusion in the key column for a column that
	// references nothing (1 when the model does not apply).
	chance   float64
	proposes bool // chance ≤ valueMaxChance, with enough distinct values
}

// valueOption reports whether ch's values could be kc's, and how likely
// their inclusion would be by chance. kc's profile must be of every row.
func valueOption(ch, kc Column, ints func(Column) (integerValues, bool)) (componentOption, bool) {
	cp, kp := ch.Profile, kc.Profile
	if typeClass(ch.Type) != typeClass(kc.Type) || cp == nil || kp == nil || kp.Sampled || kp.DistinctIsEstimate ||
		cp.DistinctCount == nil || kp.DistinctCount == nil || *cp.DistinctCount == 0 || *cp.DistinctCount > *kp.DistinctCount ||
		cp.Min == nil || cp.Max == nil || kp.Min == nil || kp.Max == nil {
		return componentOption{}, false
	}
	opt := componentOption{col: ch, name: NameMatch{Rule: valueRule}, chance: 1}
	cv, cok := ints(ch)
	kv, kok := ints(kc)
	switch {
	case cok && kok:
		if cv.width != kv.width || cv.lo < kv.lo || cv.hi > kv.hi || cv.lo < 0 {
			return componentOption{}, false
		}
		// As ValueCandidates bounds it: the key's values within 0..hi, at
		// most, so the chance is never made smaller than it is.
		held := min(kv.distinct, int64(math.Min(kv.hi, cv.hi)-math.Max(kv.lo, 0)+1))
		opt.chance = childChance(ch, cv.distinct, cv.hi, held)
		// A column that is its own table's key needs a name to reference
		// another's (ValueCandidates).
		opt.proposes = opt.chance <= valueMaxChance && cv.distinct >= valueMinDistinct && !ch.Key()
	case typeClass(ch.Type) == "text" && !cok && !kok:
		if *cp.Min < *kp.Min || *cp.Max > *kp.Max || !lengthsWithin(cp.TextLength, kp.TextLength) {
			return componentOption{}, false
		}
	default:
		return componentOption{}, false
	}
	return opt, true
}

// lengthsWithin reports whether text lengths c fall within k's, when both
// are known.
func lengthsWithin(c, k *catalog.TextLength) bool {
	return c == nil || k == nil || (c.Min >= k.Min && c.Max <= k.Max)
}

// CompositeValueCandidates proposes, for each declared key of several
// columns and each other table, the candidates in which the values
// propose at least one column (see above): a few per child and key, the
// least likely by chance first. A candidate whose every column is named
// is CompositeCandidates'.
func CompositeValueCandidates(keys []CompositeKey, cols []Column) []CompositeCandidate {
	bare := barer(cols)
	byTable := map[string][]Column{}
	var tables []string
	pos := map[string]int{} // a column's place in its table
	for _, c := range cols {
		c = bare(c)
		if _, ok := byTable[c.Table]; !ok {
			tables = append(tables, c.Table)
		}
		pos[c.qualified()] = len(byTable[c.Table])
		byTable[c.Table] = append(byTable[c.Table], c)
	}
	type read struct {
		v  integerValues
		ok bool
	}
	reads := map[string]read{}
	ints := func(c Column) (integerValues, bool) {
		r, done := reads[c.qualified()]
		if !done {
			r.v, r.ok = asIntegers(c)
			reads[c.qualified()] = r
		}
		return r.v, r.ok
	}
	var out []CompositeCandidate
	for _, k := range keys {
		if k.Undeclared {
			continue // its uniqueness is a check of its own; names only
		}
		key := CompositeKey{Table: k.Table, Columns: make([]Column, len(k.Columns))}
		for i, c := range k.Columns {
			key.Columns[i] = bare(c)
		}
		for _, child := range tables {
			if child == k.Table {
				continue
			}
			if opts := componentOptions(byTable[child], key, ints); opts != nil {
				out = append(out, valueCombos(child, key, opts, pos)...)
			}
		}
	}
	return out
}

// componentOptions lists, for each column of key, the child's columns
// that may stand for it: the best named first, then up to
// compositeValueOptions offered by their values, the least likely by
// chance first. It returns nil when no column proposes, or when a column
// of the key has no option. The values are looked at first: they are
// compared by their profiles' figures, the names only for a child where
// some column proposes.
func componentOptions(child []Column, key CompositeKey, ints func(Column) (integerValues, bool)) [][]componentOption {
	byValues := make([][]componentOption, len(key.Columns))
	proposing := false
	for i, kc := range key.Columns {
		for _, ch := range child {
			if o, ok := valueOption(ch, kc, ints); ok {
				byValues[i] = append(byValues[i], o)
				proposing = proposing || o.proposes
			}
		}
	}
	if !proposing {
		return nil
	}
	opts := make([][]componentOption, len(key.Columns))
	proposing = false
	for i, kc := range key.Columns {
		var named componentOption
		if ch, m := bestNamed(child, kc, nil); m.Score >= minComponentName {
			named = componentOption{col: ch, name: m}
		}
		if named.name.Score > 0 {
			opts[i] = append(opts[i], named)
		}
		vs := slices.DeleteFunc(byValues[i], func(o componentOption) bool { return named.name.Score > 0 && o.col.Name == named.col.Name })
		sort.SliceStable(vs, func(a, b int) bool { return vs[a].chance < vs[b].chance })
		for _, o := range vs[:min(len(vs), compositeValueOptions)] {
			opts[i] = append(opts[i], o)
			proposing = proposing || o.proposes
		}
		if len(opts[i]) == 0 {
			return nil
		}
	}
	if !proposing {
		return nil
	}
	return opts
}

// valueCombos takes one option per column of the key, each child column
// once, at least one proposing: the least likely by chance first (the
// chances of the proposing columns multiplied), then those whose columns
// sit side by side; compositeValueCombos at most.
func valueCombos(child string, key CompositeKey, opts [][]componentOption, pos map[string]int) []CompositeCandidate {
	var found []CompositeCandidate
	pick := make([]componentOption, len(opts))
	var walk func(i int)
	walk = func(i int) {
		if i < len(opts) {
			for _, o := range opts[i] {
				if !slices.ContainsFunc(pick[:i], func(p componentOption) bool { return p.col.Name == o.col.Name }) {
					pick[i] = o
					walk(i + 1)
				}
			}
			return
		}
		c := CompositeCandidate{Child: child, Parent: key, ByValues: true, Chance: 1}
		proposes, named, riders := false, false, false
		for j, o := range pick {
			c.Columns = append(c.Columns, o.col)
			c.Names = append(c.Names, o.name)
			switch {
			case o.proposes:
				proposes = true
				c.Chance *= o.chance
			case o.name.Rule == valueRule:
				riders = true
			default:
				named = true
			}
			if j > 0 && abs(pos[o.col.qualified()]-pos[pick[j-1].col.qualified()]) == 1 {
				c.adjacent++
			}
		}
		// A column named after the key's anchors the others; without one,
		// every column must propose (an account's id riding with its
		// owner's is no reference to memberships(account_id, user_id)).
		if proposes && (named || !riders) {
			found = append(found, c)
		}
	}
	walk(0)
	sort.SliceStable(found, func(a, b int) bool {
		if found[a].Chance != found[b].Chance {
			return found[a].Chance < found[b].Chance
		}
		return found[a].adjacent > found[b].adjacent
	})
	return found[:min(len(found), compositeValueCombos)]
}

// chanceText writes a chance, which a product of small ones may have
// taken below what a float64 holds.
func chanceText(p float64) string {
	if p == 0 {
		return "below 1e-300"
	}
	return fmt.Sprintf("%.2g", p)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// scoreCompositeByValues is ScoreComposite for a candidate the values
// proposed: every distinct tuple found, no orphan, enough of them, or
// nothing; then the chance model's figure, as for one column.
func scoreCompositeByValues(s CompositeScored, incl float64) CompositeScored {
	in := s.Inclusion
	if incl < 1 || in.OrphanRows > 0 || in.ChildDistinct < valueMinDistinct {
		s.Evidence = append(s.Evidence, fmt.Sprintf("values alone propose it, and %d of %d distinct tuples have no parent: no reference", in.OrphanDistinct, in.ChildDistinct))
		return s
	}
	d := s.Doc()
	s.Evidence = append(s.Evidence, fmt.Sprintf("proposed by its values: all %d distinct tuples are keys of %s; columns that reference nothing would hold such values by chance %s",
		in.ChildDistinct, d.ToTable, chanceText(s.Chance)))
	s.settle(valueConfidence(s.Chance))
	return s
}

// selectValueComposites settles the accepted candidates the values
// proposed for one child and one key that share a column the values
// offered (the same reference read two ways): the one whose columns sit
// side by side the most is kept (see above), then the likelier; a tie
// keeps neither. Candidates that share only named columns are two roles
// (a billing document's payer and its sold-to party, each with the
// client). The losers are marked not accepted.
func selectValueComposites(all []CompositeScored) {
	groups := map[string][]int{}
	var order []string
	for i, s := range all {
		if !s.Accept || !s.ByValues {
			continue
		}
		g := s.Child + "\x00" + keySig(s.Parent.Table, s.Parent.Columns)
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], i)
	}
	better := func(a, b CompositeScored) bool {
		if a.adjacent != b.adjacent {
			return a.adjacent > b.adjacent
		}
		return a.Confidence > b.Confidence
	}
	for _, g := range order {
		idx := groups[g]
		lost := map[int]string{}
		for _, i := range idx {
			for _, j := range idx {
				if i == j || !shareOffered(all[i], all[j]) || better(all[i], all[j]) {
					continue
				}
				if better(all[j], all[i]) {
					lost[i] = fmt.Sprintf("%s(%s) hold keys of %s as well, and sit side by side more: that is the reference",
						all[j].Child, strings.Join(all[j].Doc().FromColumns, ", "), all[j].Parent.Table)
				} else if _, ok := lost[i]; !ok {
					lost[i] = fmt.Sprintf("%s(%s) hold keys of %s alike: the values cannot say which is the reference",
						all[j].Child, strings.Join(all[j].Doc().FromColumns, ", "), all[j].Parent.Table)
				}
			}
		}
		for i, why := range lost {
			all[i].Accept = false
			all[i].Evidence = append(all[i].Evidence, why)
		}
	}
}

// shareOffered reports whether two candidates share a column the values
// offered in either.
func shareOffered(a, b CompositeScored) bool {
	offered := map[string]bool{}
	for i, c := range a.Columns {
		if a.Names[i].Rule == valueRule {
			offered[c.Name] = true
		}
	}
	for i, c := range b.Columns {
		if offered[c.Name] || (b.Names[i].Rule == valueRule && slices.ContainsFunc(a.Columns, func(x Column) bool { return x.Name == c.Name })) {
			return true
		}
	}
	return false
}
