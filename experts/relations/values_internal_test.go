package relations

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/discover-db/discover/catalog"
)

// valueProposalsReference is ValueCandidates' integer proposals as first
// written: every key's chance computed, a power each. ValueCandidates
// compares keys by the held count mostHeld allows instead; the two must
// propose the same keys in the same order.
func valueProposalsReference(ch Column, keys []valueKey) []string {
	lo, hi, d, ok := integerColumn(ch)
	if !ok || d < valueMinDistinct || lo < 0 {
		return nil
	}
	type proposal struct {
		key    string
		chance float64
	}
	var ps []proposal
	for _, k := range keys {
		if k.lo > lo {
			break
		}
		if k.col.Table == ch.Table || hi > k.hi || k.weak {
			continue
		}
		held := min(k.distinct, int64(math.Min(k.hi, hi)-math.Max(k.lo, 0)+1))
		if chance := childChance(ch, d, hi, held); chance <= valueMaxChance {
			ps = append(ps, proposal{k.col.qualified(), chance})
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].chance < ps[j].chance })
	var out []string
	for _, p := range ps[:min(len(ps), valueMaxTargets)] {
		out = append(out, p.key)
	}
	return out
}

func TestValueCandidatesMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	profile := func(lo, hi, distinct int64, step int64) *catalog.ProfileDoc {
		mn, mx := strconv.FormatInt(lo, 10), strconv.FormatInt(hi, 10)
		mean := float64(lo+hi) / 2
		p := &catalog.ProfileDoc{Rows: distinct * 3, DistinctCount: &distinct, Min: &mn, Max: &mx, Mean: &mean}
		if step > 1 {
			// every value listed, all multiples of step (valueStep)
			for v := lo; v <= hi && int64(len(p.TopValues)) < distinct; v += step {
				p.TopValues = append(p.TopValues, catalog.ValueCount{Value: strconv.FormatInt(v, 10), Count: 3})
			}
			n := int64(len(p.TopValues))
			p.DistinctCount = &n
		}
		return p
	}
	var cols []Column
	for i := range 400 {
		// keys: dense or with gaps, from 0, 1 or further on
		lo := []int64{0, 1, 1, 1, 100, int64(r.IntN(5000))}[r.IntN(6)]
		n := int64(1 + r.IntN(20000))
		distinct := n
		if r.IntN(3) == 0 {
			distinct = max(1, n-int64(r.IntN(int(n))))
		}
		table := fmt.Sprintf("t%03d", i)
		cols = append(cols, Column{Table: table, Name: "id", Type: "INTEGER", PK: true, Declared: true, Profile: profile(lo, lo+n-1, distinct, 1)})
		if r.IntN(4) == 0 {
			// an undeclared unique number beside the declared key: weak
			cols = append(cols, Column{Table: table, Name: "rank", Type: "INTEGER", Profile: profile(lo, lo+n-1, n, 1)})
		}
		// children: small counts, codes, spans of keys, multiples of a step
		clo := int64(r.IntN(50))
		chi := clo + int64(r.IntN(30000))
		d := int64(1 + r.IntN(int(min(chi-clo+1, 4000))))
		step := int64(1)
		if r.IntN(5) == 0 {
			step = []int64{10, 100, 1000}[r.IntN(3)]
			clo, chi = step, step*int64(1+r.IntN(50))
			d = chi / step
		}
		cols = append(cols, Column{Table: table, Name: fmt.Sprintf("c%d", i), Type: "INTEGER", Profile: profile(clo, chi, d, step)})
		if i%10 == 0 && step == 1 && d >= valueMinDistinct {
			// keys at the limit: as many values as the chance allows, and
			// one either side of it
			m := mostHeld(1, d, float64(chi))
			for _, held := range []int64{m - 1, m, m + 1} {
				if held > 0 {
					cols = append(cols, Column{Table: fmt.Sprintf("edge%03d_%d", i, held), Name: "id", Type: "INTEGER", PK: true, Declared: true, Profile: profile(0, chi+int64(r.IntN(100)), held, 1)})
				}
			}
		}
	}
	out := ValueCandidates(cols, nil)
	got := map[string][]string{}
	proposed := 0
	for _, c := range out {
		if c.Name.Rule == valueRule {
			got[c.Child.qualified()] = append(got[c.Child.qualified()], c.Parent.qualified())
			proposed++
		}
	}
	keys := valueKeys(cols) // as ValueCandidates reads and orders them
	for _, c := range cols {
		if c.Key() {
			continue
		}
		want := valueProposalsReference(c, keys)
		if !slices.Equal(got[c.qualified()], want) {
			t.Errorf("%s: proposed %q, the reference %q", c.qualified(), got[c.qualified()], want)
		}
	}
	if proposed < 50 {
		t.Fatalf("only %d keys proposed by values: the case does not exercise the proposals", proposed)
	}
	t.Logf("%d keys proposed for %d columns", proposed, len(got))
}

// TestMostHeld: the bisection's count is the last at which the chance is
// still at or below valueMaxChance.
func TestMostHeld(t *testing.T) {
	for _, tc := range []struct {
		step float64
		d    int64
		cmax float64
	}{{1, 5, 9}, {1, 9, 9}, {1, 6, 1000}, {1, 4000, 5000}, {1, 5, 1e9}, {10, 20, 1000}, {1000, 7, 50000}} {
		m := mostHeld(tc.step, tc.d, tc.cmax)
		if m >= 0 && steppedChance(tc.step, tc.d, tc.cmax, m) > valueMaxChance {
			t.Errorf("%v: the chance at %d held is above the limit", tc, m)
		}
		if steppedChance(tc.step, tc.d, tc.cmax, m+1) <= valueMaxChance {
			t.Errorf("%v: the chance at %d held, one more than mostHeld, is still within the limit", tc, m+1)
		}
	}
}
