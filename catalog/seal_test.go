package catalog

import (
	"crypto/rand"
	"encoding/json"
	"strings"
	"testing"
)

// TestSealedProfile: a profile sealed under a key reads back as it was in
// the process that knows the key, holds none of its values as written,
// seals the same value the same way (a save that changes nothing writes
// nothing), and stays Unreadable under a key the process does not know.
func TestSealedProfile(t *testing.T) {
	key := make([]byte, SealKeySize)
	rand.Read(key)
	s, err := NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := "anna@example.com", "zoe@example.com"
	p := ProfileDoc{Table: "t", Column: "email", Min: &lo, Max: &hi,
		TopValues: []ValueCount{{Value: lo, Count: 2}}, Anomalies: []Anomaly{{Kind: "duplicate", Examples: []string{lo}}}}
	sealed, beside := p, p
	sealed.Seal(s)
	beside.SealBeside(s, func(string) string { return "***" })
	for _, q := range []ProfileDoc{sealed, beside} {
		b, _ := json.Marshal(q)
		if strings.Contains(string(b), "example.com") {
			t.Fatalf("written: %s", b)
		}
		again, _ := json.Marshal(q)
		if string(again) != string(b) {
			t.Error("the same profile sealed twice differs")
		}
		var r ProfileDoc
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if r.Unreadable() || *r.Min != lo || *r.Max != hi || r.TopValues[0].Value != lo || r.Anomalies[0].Examples[0] != lo {
			t.Errorf("read back: %+v", r)
		}
		// Another process's key: the sealer's id unknown here.
		other := strings.ReplaceAll(string(b), "sealed:"+s.id+":", "sealed:0000000000000000:")
		var o ProfileDoc
		if err := json.Unmarshal([]byte(other), &o); err != nil {
			t.Fatal(err)
		}
		if !o.Unreadable() || strings.Contains(strings.Join(o.Values(), " "), "example.com") {
			t.Errorf("under an unknown key: %+v", o)
		}
	}
}

// TestSealedFigures (issue 21): the figures of a sealed profile that are
// values of its column (the mean, the quantiles, the histogram's bounds:
// a phone stored as an integer) are sealed with its values, read back in
// the process that sealed them, and lost with them under another key;
// DropValueFigures removes them and leaves the counts.
func TestSealedFigures(t *testing.T) {
	key := make([]byte, SealKeySize)
	rand.Read(key)
	s, err := NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, mean, spread, distinct := "3471234567", "3471860168", 3471547367.5, 182867.2, int64(80)
	p := ProfileDoc{Table: "t", Column: "telefono", Min: &lo, Max: &hi, Mean: &mean, Stddev: &spread, DistinctCount: &distinct,
		Quantiles: &Quantiles{P25: 3471392917, P50: 3471547367, P75: 3471701818, P95: 3471828488},
		Histogram: &Histogram{Bounds: []float64{3471234567, 3471547367, 3471860168}, Counts: []int64{40, 40}}}
	sealed, beside := p, p
	sealed.Seal(s)
	beside.SealBeside(s, func(string) string { return "347****567" })
	for _, q := range []ProfileDoc{sealed, beside} {
		b, _ := json.Marshal(q)
		for _, v := range []string{"347123", "347154", "347139", "347170", "347182", "347186"} {
			if strings.Contains(string(b), v) {
				t.Fatalf("written with %s: %s", v, b)
			}
		}
		var r ProfileDoc
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if r.Unreadable() || r.Mean == nil || *r.Mean != mean || r.Quantiles == nil || r.Quantiles.P50 != 3471547367 ||
			r.Histogram == nil || r.Histogram.Bounds[2] != 3471860168 || r.Histogram.Counts[1] != 40 {
			t.Errorf("read back: %+v", r)
		}
		other := strings.ReplaceAll(string(b), "sealed:"+s.id+":", "sealed:0000000000000000:")
		var o ProfileDoc
		if err := json.Unmarshal([]byte(other), &o); err != nil {
			t.Fatal(err)
		}
		if !o.Unreadable() || o.Mean != nil || o.Quantiles != nil || o.Histogram != nil {
			t.Errorf("under an unknown key: %+v", o)
		}
	}
	d := p
	d.DropValueFigures()
	if d.Mean != nil || d.Quantiles != nil || d.Histogram != nil || *d.Stddev != spread || *d.DistinctCount != 80 {
		t.Errorf("dropped: %+v", d)
	}
}
