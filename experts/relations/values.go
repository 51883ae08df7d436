package relations

// References the values propose when the names found none: ballots
// whose chair_vote holds members' ids 1001..1035, a module's convenor
// holding lecturer ids 1082..9379. A name that points nowhere
// is common (a role, an abbreviation, another language); values that all
// fall among a key's, where an integer column that is no reference would
// seldom put them, say what the name does not.
//
// How seldom is the chance model: an integer column that references
// nothing holds values spread over 0..its greatest value; the chance that
// d distinct such values all fall among the key's is the share of 0..max
// the key holds, to the power d. Keys numbered 1..n hold nearly all of
// 0..max for any small child (a quantity, a rating, a year's day), so a
// child of small integers is never proposed by its values; keys that start
// far from zero, or that are sparse, are proposed when the chance is below
// valueMaxChance, and scored by how far below (Score, rule "values").

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/warehouse"
)

const (
	// valueMaxChance: a pair is proposed by its values when the chance
	// model gives its inclusion at most this probability.
	valueMaxChance = 1e-6
	// valueMinDistinct: fewer distinct values than this prove nothing by
	// themselves, however unlikely the chance model makes them.
	valueMinDistinct = 5
	// valueMaxTargets: keys proposed by values for one column, at most.
	valueMaxTargets = 3
	// valueRule is the NameMatch rule of a pair proposed by its values.
	valueRule = "values"
)

// valueChance is the chance model's probability that d distinct integers
// of 0..cmax all fall among the key's values, held values of them.
func valueChance(d int64, cmax float64, held int64) float64 {
	if cmax < 0 || held < 0 {
		return 1
	}
	return math.Pow(math.Min(1, float64(held)/(cmax+1)), float64(d))
}

// childChance is valueChance for the child column ch: values that are all
// multiples of one step (plants 1000, 1100, 2000; item numbers 10, 20,
// 30) are drawn from the multiples of that step, and codes of one scheme
// meet by the scheme, not by chance (valueStep).
func childChance(ch Column, d int64, cmax float64, held int64) float64 {
	return steppedChance(valueStep(ch.Profile), d, cmax, held)
}

// steppedChance is childChance for a column whose values are multiples of
// step (valueStep).
func steppedChance(step float64, d int64, cmax float64, held int64) float64 {
	if step > 1 {
		space := math.Floor(cmax/step) + 1
		return valueChance(d, space-1, min(held, int64(space)))
	}
	return valueChance(d, cmax, held)
}

// mostHeld is the greatest count of held values for which steppedChance
// stays at or below valueMaxChance (-1 when none does): the chance grows
// with the values held, so a key holding more proposes nothing. Found by
// bisection over 0..cmax+1, so that a column is compared with a thousand
// keys by their counts, not by a power each.
func mostHeld(step float64, d int64, cmax float64) int64 {
	lo, hi := int64(-1), int64(cmax)+1 // chance(lo) <= max (or lo = -1); chance(hi) > max
	if steppedChance(step, d, cmax, hi) <= valueMaxChance {
		return hi
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if steppedChance(step, d, cmax, mid) <= valueMaxChance {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// valueStep is the greatest common divisor of a column's values, when its
// profile lists every one of them among its top values and they are all
// integers; 1 otherwise.
func valueStep(p *catalog.ProfileDoc) float64 {
	if p == nil || p.Sampled || p.DistinctCount == nil || int64(len(p.TopValues)) != *p.DistinctCount {
		return 1
	}
	var g int64
	for _, v := range p.TopValues {
		n, err := strconv.ParseInt(strings.TrimSpace(v.Value), 10, 64)
		if err != nil || n < 0 {
			return 1
		}
		for n != 0 {
			g, n = n, g%n
		}
	}
	return float64(max(g, 1))
}

// keysBelow counts the key's values in 0..the child's greatest value, one
// search of the key's range, and reports whether the chance model still
// makes the inclusion unlikely: keys are seldom spread evenly (numbered
// 1..n, then with gaps), and a child of small integers inside the dense
// start of a key holds nothing the chance model would not give it. The
// count is kept on c for its score.
func keysBelow(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, c *Candidate) (bool, error) {
	_, cmax, d, ok := integerColumn(c.Child)
	if !ok {
		return false, nil
	}
	ps, err := env.Scope(ctx, tables[c.Parent.Table])
	if err != nil {
		return false, err
	}
	if ps.Sampled && !c.Parent.Declared {
		return false, nil // counting an unindexed key of a table that large would read it whole
	}
	dia := env.Dialect()
	k := "p." + dia.QuoteIdent(c.Parent.Name)
	res, err := env.Query(ctx, fmt.Sprintf("SELECT COUNT(*) AS held FROM %s p WHERE %s >= 0 AND %s <= %s", ps.Quoted(), k, k, num(cmax)))
	if err != nil {
		return false, err
	}
	held, ok := hypotheses.FirstRow(res).Int("held")
	if !ok {
		return false, nil
	}
	c.keysBelow = held
	return childChance(c.Child, d, cmax, held) <= valueMaxChance, nil
}

// valueConfidence scores a pair proposed by its values alone, with no
// orphan: from AcceptScore at valueMaxChance up to 0.9 at a chance of
// 1e-15 and below.
func valueConfidence(chance float64) float64 {
	if chance <= 0 {
		return 0.9
	}
	s := -math.Log10(chance) // ≥ 6 for a proposed pair
	return math.Min(0.9, AcceptScore+(0.9-AcceptScore)*(s-6)/9)
}

// integerColumn returns a column's least and greatest value and its
// distinct count, when its profile (of every row, or of a sample) saw
// integers only.
func integerColumn(c Column) (lo, hi float64, distinct int64, ok bool) {
	p := c.Profile
	if p == nil || p.Mean == nil || p.DistinctCount == nil || typeClass(c.Type) != "integer" || !numberRange(p) {
		return 0, 0, 0, false
	}
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(*p.Min), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(*p.Max), 64)
	if err1 != nil || err2 != nil || lo != math.Trunc(lo) || hi != math.Trunc(hi) {
		return 0, 0, 0, false
	}
	return lo, hi, *p.DistinctCount, true
}

// scoreByValues is Score for a pair the values proposed: every distinct
// value found, no orphan, or nothing; then the chance model's figure.
func scoreByValues(s Scored, incl float64) Scored {
	c, in := s.Candidate, s.Inclusion
	if typeClass(c.Child.Type) == "text" {
		if incl < 1 || in.OrphanRows > 0 || in.ChildDistinct < valueMinText {
			s.Evidence = append(s.Evidence, fmt.Sprintf("values alone propose it, and %d of %d non-NULL rows have no parent: no reference", in.OrphanRows, in.NonNull))
			return s
		}
		// Each further value found is a further coincidence avoided.
		conf := AcceptScore + (0.9-AcceptScore)*(1-math.Pow(0.5, float64(in.ChildDistinct-valueMinText+1)))
		s.Evidence = append(s.Evidence, fmt.Sprintf("proposed by its values: all %d distinct values are %s.%s's, a declared key", in.ChildDistinct, c.Parent.Table, c.Parent.Name))
		s.settle(conf)
		return s
	}
	_, cmax, _, ok := integerColumn(c.Child)
	chance := childChance(c.Child, in.ChildDistinct, cmax, c.keysBelow)
	if incl < 1 || in.OrphanRows > 0 || !ok || c.keysBelow < 0 || chance > valueMaxChance || in.ChildDistinct < valueMinDistinct {
		s.Evidence = append(s.Evidence, fmt.Sprintf("values alone propose it, and %d of %d non-NULL rows have no parent: no reference", in.OrphanRows, in.NonNull))
		return s
	}
	s.Evidence = append(s.Evidence, fmt.Sprintf("proposed by its values: %s.%s holds %d of the integers 0..%s, so %d distinct values of a column that references nothing would all be among them by chance %.2g",
		c.Parent.Table, c.Parent.Name, c.keysBelow, num(cmax), in.ChildDistinct, chance))
	conf := valueConfidence(chance)
	if !c.Parent.Declared {
		conf *= 0.95
		s.Evidence = append(s.Evidence, "target unique by profile (no declared key)")
	}
	s.settle(conf) // at most 0.9: the cap below certainty never bites
	return s
}

// valueKey is a key with an exact range of integers, as ValueCandidates
// reads it.
type valueKey struct {
	col      Column
	lo, hi   float64
	distinct int64
	// weak: an undeclared unique column of a table that declares its key
	// (a course's start date, a role's sort order). Values alone never
	// propose it, but a column that covers it covers it as well as the
	// key it might mean, so it still makes coverage ambiguous.
	weak bool
}

// valueKeys are the keys with an exact range of integers, by least value:
// a column's keys are those starting at or below its own.
func valueKeys(cols []Column) []valueKey {
	declaredKey := map[string]bool{}
	for _, c := range cols {
		if c.PK || c.InKey {
			declaredKey[c.Table] = true
		}
	}
	var keys []valueKey
	for _, c := range cols {
		if !c.Key() {
			continue
		}
		lo, hi, exact := exactRange(c.Profile)
		if !exact || c.Profile.DistinctIsEstimate || c.Profile.DistinctCount == nil || lo != math.Trunc(lo) || hi != math.Trunc(hi) || hi < lo {
			continue
		}
		keys = append(keys, valueKey{c, lo, hi, *c.Profile.DistinctCount, !c.Declared && declaredKey[c.Table]})
	}
	sort.SliceStable(keys, func(i, j int) bool { return keys[i].lo < keys[j].lo })
	return keys
}

// ValueCandidates pairs each integer column left without a reference
// (none of found, the references the names found, has it as child) with
// the keys of other tables whose exact range
// holds its values, when the chance model makes that inclusion unlikely
// for a column that references nothing. A column that is its own table's
// key is left out: linking two keys needs a name (a one-to-one extension
// is told from two tables numbered alike only by one).
func ValueCandidates(cols []Column, found []Candidate) []Candidate {
	named := map[string]bool{}
	for _, c := range found {
		named[c.Child.qualified()] = true
	}
	keys := valueKeys(cols)
	// By greatest value, for coverage: a key ending where the column does.
	byHi := map[float64][]valueKey{}
	for _, k := range keys {
		byHi[k.hi] = append(byHi[k.hi], k)
	}
	var textKeys []Column
	for _, c := range cols {
		if c.Declared && typeClass(c.Type) == "text" && c.Profile != nil && c.Profile.Min != nil && c.Profile.Max != nil &&
			c.Profile.DistinctCount != nil && !c.Profile.Sampled {
			textKeys = append(textKeys, c)
		}
	}
	var out []Candidate
	for _, ch := range cols {
		if named[ch.qualified()] || ch.Key() {
			continue
		}
		out = append(out, textProposals(ch, textKeys)...)
		lo, hi, d, ok := integerColumn(ch)
		if !ok || d < valueMinDistinct || lo < 0 {
			continue
		}
		type proposal struct {
			k      *valueKey
			chance float64
		}
		var ps []proposal
		step := valueStep(ch.Profile)
		// One more than the bisection's count, in case the power's
		// rounding is not monotone at the limit: each key within it is
		// judged by its own chance.
		most := mostHeld(step, d, hi) + 1
		for i := range keys {
			k := &keys[i]
			if k.lo > lo {
				break
			}
			if k.col.Table == ch.Table || hi > k.hi || k.weak {
				continue
			}
			// How many of 0..hi the key holds, at most: its distinct
			// values, and the integers of its range within 0..hi, as if
			// packed from its least value up. The bound never makes the
			// chance smaller than keysBelow's count will, so a pair it
			// does not propose the count would not have either.
			held := min(k.distinct, int64(math.Min(k.hi, hi)-math.Max(k.lo, 0)+1))
			if held > most {
				continue
			}
			if chance := steppedChance(step, d, hi, held); chance <= valueMaxChance {
				ps = append(ps, proposal{k, chance})
			}
		}
		// Keys numbered alike (ids from one sequence) may all hold a
		// column's values: the least likely by chance are checked, a few
		// at most, so the checks grow with the columns.
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].chance < ps[j].chance })
		for _, p := range ps[:min(len(ps), valueMaxTargets)] {
			out = append(out, Candidate{Child: ch, Parent: p.k.col, Name: NameMatch{Rule: valueRule}, keysBelow: -1})
		}
		if len(ps) == 0 {
			out = append(out, coverProposal(ch, lo, hi, d, byHi[hi])...)
		}
	}
	return out
}

const (
	// coverRule is the NameMatch rule of a pair proposed because the
	// child holds nearly every key of the target, up to its last.
	coverRule = "coverage"
	// coverMinValues: keys numbered 1..n are held by chance by any column
	// of small integers; a few hundred values, ending on the key's last,
	// are a reference's.
	coverMinValues = 200
	// coverShare: the share of the target's keys the child must hold.
	coverShare = 0.8
)

// coverProposal proposes the one key of another table that a column with
// no name for it holds nearly all of, ending on the same greatest value
// (cast.movie_id holding all 50,060 keys of title.id 1..50,060). Keys numbered
// 1..n are held by chance by small integers, which the chance model
// cannot tell from a reference; a child spanning one key exactly and
// filling it is a reference to that key. Two keys that qualify alike
// (tables numbered to the same n) propose nothing: the values cannot say
// which.
//
// keys are those ending on hi.
func coverProposal(ch Column, lo, hi float64, d int64, keys []valueKey) []Candidate {
	if d < coverMinValues {
		return nil
	}
	var only *valueKey
	for i := range keys {
		k := &keys[i]
		if k.col.Table == ch.Table || k.hi != hi || k.lo > lo || k.distinct < coverMinValues || float64(d) < coverShare*float64(k.distinct) {
			continue
		}
		if only != nil {
			return nil // a second key qualifies alike
		}
		only = k
	}
	if only == nil || only.weak {
		return nil
	}
	return []Candidate{{Child: ch, Parent: only.col, Name: NameMatch{Rule: coverRule}, keysBelow: -1}}
}

// scoreByCoverage is Score for a pair proposed by coverage: every value
// found, still holding the share of the target's keys the proposal saw,
// or nothing.
func scoreByCoverage(s Scored, incl float64) Scored {
	c, in := s.Candidate, s.Inclusion
	_, _, pd, ok := integerColumn(c.Parent)
	if !ok || pd == 0 || incl < 1 || in.OrphanRows > 0 {
		s.Evidence = append(s.Evidence, fmt.Sprintf("values alone propose it, and %d of %d non-NULL rows have no parent: no reference", in.OrphanRows, in.NonNull))
		return s
	}
	if in.ChildDistinct < coverMinValues || float64(in.ChildDistinct) < coverShare*float64(pd) {
		s.Evidence = append(s.Evidence, fmt.Sprintf("values alone propose it, and it holds only %d of %s.%s's %d keys: no reference",
			in.ChildDistinct, c.Parent.Table, c.Parent.Name, pd))
		return s
	}
	share := float64(in.ChildDistinct) / float64(pd)
	s.Evidence = append(s.Evidence, fmt.Sprintf("proposed by its values: it holds %d of %s.%s's %d keys (%.0f%%), up to its last, and nothing else",
		in.ChildDistinct, c.Parent.Table, c.Parent.Name, pd, 100*math.Min(1, share)))
	conf := 0.7 + 0.15*math.Min(1, (share-coverShare)/(1-coverShare))
	if !c.Parent.Declared {
		conf *= 0.95
		s.Evidence = append(s.Evidence, "target unique by profile (no declared key)")
	}
	s.settle(conf)
	return s
}

// valueMinText: a text column is proposed by its values when it holds at
// least this many distinct ones, each at least two characters long on the
// whole (codes of one letter are shared by chance).
const valueMinText = 4

// textProposals pairs a text column named like no key with the declared
// text keys of other tables whose range of values holds its own and that
// have at least as many values: a column of grades, genres or codes that
// copies a lookup table's key (exam_result.band ~ band_scale's
// band_letter). The exact check must then find every value.
func textProposals(ch Column, keys []Column) []Candidate {
	p := ch.Profile
	if typeClass(ch.Type) != "text" || p == nil || p.Min == nil || p.Max == nil || p.DistinctCount == nil ||
		*p.DistinctCount < valueMinText || len(*p.Min) < 1 || len(*p.Max) < 2 {
		return nil
	}
	var out []Candidate
	for _, k := range keys {
		kp := k.Profile
		if k.Table == ch.Table || *kp.DistinctCount < *p.DistinctCount || *p.Min < *kp.Min || *p.Max > *kp.Max {
			continue
		}
		out = append(out, Candidate{Child: ch, Parent: k, Name: NameMatch{Rule: valueRule}, keysBelow: -1})
		if len(out) == valueMaxTargets {
			break
		}
	}
	return out
}

// learnedRule is the NameMatch rule of a pair proposed because the values
// tied the column's name to that key elsewhere in the database.
const learnedRule = "learned"

// learnedActorScore is the name score of a column spelled as one that the
// values confirmed as naming a table of people elsewhere: above the actor
// rule's own, which had to leave the table open.
const learnedActorScore = 0.8

// LearnedCandidates proposes, for each column still without an accepted
// reference, the key that the values alone tied a column of the same name
// to in another table (cast.movie_id → title.id, found by coverage, makes
// movie_link.movie_id a candidate for title.id, and linked_movie_id one as
// a role over it). A name tied to two keys teaches nothing. The exact
// check then decides, as for any name.
//
// A column named for who did something (LastEditedBy, approved_by: the
// actor rule, which names no table) teaches its whole name: where the
// values confirmed it against one table of people in some tables, the
// columns spelled alike in the others mean the same people, though their
// values alone (a lookup table every row of which one person edited) could
// not say which table.
func LearnedCandidates(cols []Column, scored []Scored) []Candidate {
	learned := map[string]Column{}
	conflict := map[string]bool{}
	has := map[string]bool{}
	actors := map[string]Column{} // by the column's whole name, folded
	actorConflict := map[string]bool{}
	for _, s := range scored {
		if !s.Accept {
			continue
		}
		has[s.Child.qualified()] = true
		if s.Name.Rule == actorRule {
			name := strings.ToLower(s.Child.named())
			if p, ok := actors[name]; ok && p.qualified() != s.Parent.qualified() {
				actorConflict[name] = true
			}
			actors[name] = s.Parent
			continue
		}
		if s.Name.Rule != coverRule && s.Name.Rule != valueRule {
			continue
		}
		k := splitKeyName(s.Child.named())
		if k.suffix == "" || len(k.stem) == 0 {
			continue
		}
		stem := strings.Join(k.stem, " ")
		if p, ok := learned[stem]; ok && p.qualified() != s.Parent.qualified() {
			conflict[stem] = true
		}
		learned[stem] = s.Parent
	}
	if len(learned) == 0 && len(actors) == 0 {
		return nil
	}
	var out []Candidate
	ownKey := OwnKeys(cols)
	for _, ch := range withBareNames(cols) {
		if has[ch.qualified()] || ownKey(ch) {
			continue
		}
		name := strings.ToLower(ch.named())
		if p, ok := actors[name]; ok && !actorConflict[name] && typeClass(p.Type) == typeClass(ch.Type) {
			// The same people in the table of people itself too (People.LastEditedBy).
			out = append(out, Candidate{Child: ch, Parent: p, Name: NameMatch{Score: learnedActorScore, Rule: learnedRule}})
			continue
		}
		k := splitKeyName(ch.named())
		if k.suffix == "" {
			continue
		}
		for i := range k.stem {
			stem := strings.Join(k.stem[i:], " ")
			p, ok := learned[stem]
			if !ok || conflict[stem] || p.Table == ch.Table || typeClass(p.Type) != typeClass(ch.Type) {
				continue
			}
			m := NameMatch{Score: 0.8, Rule: learnedRule}
			if i > 0 {
				m = NameMatch{Score: roleScore(k.stem[i:]), Rule: learnedRule} // linked_movie_id
			}
			out = append(out, Candidate{Child: ch, Parent: p, Name: m})
			break
		}
	}
	return out
}

// hierarchyRule is the NameMatch rule of a self role in a table of no key
// of its own, linked to what the table's key references.
const hierarchyRule = "hierarchy"

// HierarchyCandidates proposes, in a table with no single-column key of
// its own whose key columns reference an entity (term_hierarchy's tid →
// term.tid, its key tid and parent), each column named as another row
// (parent, parent_id, next_id) and still without an accepted reference
// against that entity's key: the table holds the entity's hierarchy
// apart from it, and a self role there names the entity's rows. The exact
// check then decides, as for any name.
func HierarchyCandidates(cols []Column, scored []Scored) []Candidate {
	ownKey := OwnKeys(cols)
	keyed := map[string]bool{}    // tables with a single-column key of their own
	declared := map[string]bool{} // tables with a declared key
	for _, c := range cols {
		if ownKey(c) { // declared (a primary key among them) or found
			keyed[c.Table] = true
		}
		if c.InKey {
			declared[c.Table] = true
		}
	}
	has := map[string]bool{}
	targets := map[string][]Column{}
	seen := map[string]bool{}
	for _, s := range scored {
		if !s.Accept {
			continue
		}
		has[s.Child.qualified()] = true
		ch := s.Child
		if keyed[ch.Table] || ch.Table == s.Parent.Table || (declared[ch.Table] && !ch.InKey) {
			continue // only what the table's key (or, undeclared, any column) references
		}
		if k := ch.Table + "\x00" + s.Parent.qualified(); !seen[k] {
			seen[k] = true
			targets[ch.Table] = append(targets[ch.Table], s.Parent)
		}
	}
	var out []Candidate
	for _, ch := range withBareNames(cols) {
		ts := targets[ch.Table]
		if len(ts) == 0 || has[ch.qualified()] {
			continue
		}
		k := splitKeyName(ch.named())
		for _, p := range ts {
			ent := entityOf(p.Table)
			if len(ent) == 0 || !selfRole(k, ent[len(ent)-1]) || typeClass(p.Type) != typeClass(ch.Type) {
				continue
			}
			out = append(out, Candidate{Child: ch, Parent: p, Name: NameMatch{Score: selfRoleScore, Rule: hierarchyRule}})
		}
	}
	return out
}
