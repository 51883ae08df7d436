package relations

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/stablehash"
)

// Unit tests of the pruning that keeps relationship inference linear
// (issue 5): value sketches and the upper bound that settles targets.

func sketchOf(t *testing.T, values ...any) *sketch {
	t.Helper()
	byHash := map[uint64]sketchValue{}
	for _, v := range values {
		s, num, isNum, ok := canonical(v)
		if !ok {
			t.Fatalf("%v (%T) cannot be sketched", v, v)
		}
		h := stablehash.Hash64(s)
		byHash[h] = sketchValue{h, num, isNum}
	}
	return newSketch(byHash)
}

func TestCanonical(t *testing.T) {
	same := [][]any{
		{int64(5), 5.0, "5", " 5 ", "5.0", "05", int32(5), uint8(5), float32(5), 5, uint64(5)},
		{"ABC-1", "abc-1", "abc-1  "},
		{1.5, "1.5", " 1.50"},
		{int64(1) << 60, float64(int64(1) << 60)},
	}
	for _, group := range same {
		first, _, _, _ := canonical(group[0])
		for _, v := range group[1:] {
			if s, _, _, ok := canonical(v); !ok || s != first {
				t.Errorf("canonical(%#v) = %q, canonical(%#v) = %q: an engine may hold them equal", v, s, group[0], first)
			}
		}
	}
	for _, pair := range [][2]any{{"a b", "ab"}, {int64(5), "5a"}, {"x", "y"}, {1.5, int64(1)}} {
		a, _, _, _ := canonical(pair[0])
		b, _, _, _ := canonical(pair[1])
		if a == b {
			t.Errorf("%#v and %#v merged as %q", pair[0], pair[1], a)
		}
	}
	for _, v := range []any{time.Now(), []byte("x"), true, nil} {
		if _, _, _, ok := canonical(v); ok {
			t.Errorf("%T sketched: a type the engines may compare otherwise", v)
		}
	}
	if _, n, isNum, _ := canonical(" 42 "); !isNum || n != 42 {
		t.Errorf("' 42 ' is %v, %v", n, isNum)
	}
}

func TestBinomialCDF(t *testing.T) {
	if got := binomialCDF(0, 5, 0.8); math.Abs(got-math.Pow(0.2, 5)) > 1e-12 {
		t.Errorf("P(X<=0 | 5, 0.8) = %v, want %v", got, math.Pow(0.2, 5))
	}
	if got := binomialCDF(10, 10, 0.8); math.Abs(got-1) > 1e-9 {
		t.Errorf("P(X<=n) = %v", got)
	}
	// P(X <= 7 | 10, 0.8) = 1 - P(8) - P(9) - P(10)
	p8, p9, p10 := 45*math.Pow(0.8, 8)*0.04, 10*math.Pow(0.8, 9)*0.2, math.Pow(0.8, 10)
	if got := binomialCDF(7, 10, 0.8); math.Abs(got-(1-p8-p9-p10)) > 1e-9 {
		t.Errorf("P(X<=7 | 10, 0.8) = %v, want %v", got, 1-p8-p9-p10)
	}
}

func TestSamplePrunes(t *testing.T) {
	for _, c := range []struct {
		found, known int
		complete     bool
		prune        bool
	}{
		{7, 10, true, true},    // every value seen: 70% < 80%
		{8, 10, true, false},   // exactly 80%
		{0, 5, false, true},    // 0.2^5 = 0.00032
		{0, 4, false, false},   // 0.0016: too few values to tell
		{20, 30, false, false}, // 67% of a sample: could be 80% of the column
		{10, 30, false, true},
		{0, 0, false, false},
	} {
		if got := samplePrunes(c.found, c.known, c.complete); got != c.prune {
			t.Errorf("samplePrunes(%d, %d, %v) = %v", c.found, c.known, c.complete, got)
		}
	}
}

func intsFrom(lo, hi, step int) []any {
	var out []any
	for v := lo; v <= hi; v += step {
		out = append(out, int64(v))
	}
	return out
}

func keyCand(parentProfile *catalog.ProfileDoc) Candidate {
	return Candidate{Child: Column{Table: "c", Name: "k_id"}, Parent: Column{Table: "k", Name: "id", Profile: parentProfile, Declared: true, PK: true}}
}

func intProfile(lo, hi int, distinct int64) *catalog.ProfileDoc {
	min, max, mean := fmtInt(lo), fmtInt(hi), float64(lo+hi)/2
	return &catalog.ProfileDoc{Rows: distinct, DistinctCount: &distinct, Min: &min, Max: &max, Mean: &mean}
}

func fmtInt(v int) string { return canonicalNumber(float64(v)) }

func TestSampleMatches(t *testing.T) {
	dense := intProfile(1, 100, 100)
	// inside a dense key every number is found, outside none
	cs := sketchOf(t, intsFrom(51, 150, 1)...)
	found, known, complete := sampleMatches(keyCand(dense), cs, nil)
	if found != 50 || known != 100 || !complete {
		t.Errorf("51..150 in 1..100: %d of %d (complete %v), want 50 of 100", found, known, complete)
	}
	if !samplePrunes(found, known, complete) {
		t.Error("half the values outside a dense key's range should prune")
	}
	// a sparse key: the range says nothing, the key's sketch does
	sparse := intProfile(3, 993, 100)
	keyVals := intsFrom(3, 993, 10) // 3, 13, … 993
	ps := sketchOf(t, keyVals...)
	found, known, complete = sampleMatches(keyCand(sparse), sketchOf(t, intsFrom(1, 100, 1)...), ps)
	if found != 10 || known != 100 || !complete {
		t.Errorf("1..100 in 3, 13, … 993: %d of %d, want 10 of 100", found, known)
	}
	found, known, _ = sampleMatches(keyCand(sparse), sketchOf(t, intsFrom(3, 493, 10)...), nil)
	if found != known {
		t.Errorf("without the key's sketch, values inside its range count as found: %d of %d", found, known)
	}
	// samples of large columns: only values hashed below both thresholds
	// count, and the estimate follows the true share
	r := rand.New(rand.NewPCG(5, 5))
	for trial := 0; trial < 40; trial++ {
		var key, child []any
		inKey := map[int64]bool{}
		for len(key) < 3000 {
			v := r.Int64N(1_000_000)
			if !inKey[v] {
				inKey[v] = true
				key = append(key, v)
			}
		}
		share := []float64{0, 0.3, 0.85, 1}[trial%4]
		for i := 0; i < 2000; i++ {
			if r.Float64() < share {
				child = append(child, key[r.IntN(len(key))])
			} else {
				child = append(child, 1_000_000+r.Int64N(1_000_000)) // never a key
			}
		}
		kp := intProfile(0, 2_000_000, int64(len(key)))
		found, known, complete := sampleMatches(keyCand(kp), sketchOf(t, child...), sketchOf(t, key...))
		if complete || known < 30 {
			t.Fatalf("trial %d: %d known values (complete %v): the sample is too small to test", trial, known, complete)
		}
		est := float64(found) / float64(known)
		if math.Abs(est-share) > 0.25 {
			t.Errorf("trial %d: share %.2f estimated %.2f (%d of %d)", trial, share, est, found, known)
		}
		if pruned := samplePrunes(found, known, complete); pruned != (share < 0.5) {
			t.Errorf("trial %d: share %.2f of the values in the key, pruned %v (%d of %d)", trial, share, pruned, found, known)
		}
	}
}

// upperBound must bound every score the exact check can produce, or a
// settled target could have been the best one.
func TestUpperBoundBoundsScore(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	rules := []NameMatch{{0.9, "exact"}, {0.85, "entity"}, {0.75, "role"}, {0.65, "bare"}, {0.5, "contains"}, {0.7, "self_role"}}
	for trial := 0; trial < 2000; trial++ {
		plo := r.IntN(1000)
		phi := plo + 1 + r.IntN(5000)
		pd := int64(1 + r.IntN(phi-plo+1))
		clo := plo + r.IntN(phi-plo+1)
		chi := clo + r.IntN(phi-clo+1)
		cd := int64(1 + r.IntN(min(chi-clo+1, 3000)))
		rows := cd + int64(r.IntN(5000))
		nullF := []float64{0, 0.1, 0.5}[r.IntN(3)]
		cp := intProfile(clo, chi, cd)
		cp.Rows, cp.NullFraction = rows, &nullF
		pp := intProfile(plo, phi, pd)
		c := Candidate{Child: Column{Table: "child", Name: "x_id", Profile: cp},
			Parent: Column{Table: "parent", Name: "id", Profile: pp, Declared: r.IntN(2) == 0, PK: true},
			Name:   rules[r.IntN(len(rules))]}
		ub := upperBound(c)
		nonNull := max(cd, int64(math.Round(float64(rows)*(1-nullF))))
		orphanD := int64(r.IntN(int(cd) + 1))
		in := Inclusion{ChildDistinct: cd, OrphanDistinct: orphanD, NonNull: nonNull, OrphanRows: orphanD * int64(r.IntN(3))}
		if s := Score(c, in); s.Confidence > ub {
			t.Fatalf("Score %.2f above upperBound %.2f for %+v, %+v, %+v", s.Confidence, ub, *cp, *pp, in)
		}
	}
	// without an exact distinct count nothing is bounded
	p := intProfile(1, 10, 10)
	p.DistinctIsEstimate = true
	if ub := upperBound(Candidate{Child: Column{Profile: p}, Name: NameMatch{0.5, "contains"}}); ub != 1 {
		t.Errorf("upperBound of an estimated profile = %v, want 1", ub)
	}
}
