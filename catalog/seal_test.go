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
