package naming

import (
	"slices"
	"testing"
)

func TestAbbreviates(t *testing.T) {
	for _, c := range []struct {
		tok, word string
		want      bool
	}{
		{"tmpl", "template", true}, {"mgr", "manager", true}, {"pkg", "package", true}, {"qty", "quantity", true},
		{"categ", "category", true}, {"dept", "department", true}, {"cust", "customer", true},
		{"cat", "category", false},       // a start of three letters: every other word's
		{"category", "category", false},  // the word itself
		{"ctgy", "category", true},       // consonants in order
		{"mrg", "manager", false},        // not in order
		{"tmp", "template", true},        //
		{"tma", "template", false},       // a vowel after the first letter, and no start
		{"xmpl", "template", false},      // another first letter
		{"mg", "manager", false},         // too short
		{"cstmr", "customer", true},      //
		{"cstmrs", "customer", false},    // more letters than the word has in order
		{"templates", "template", false}, // longer
		{"prv", "previous", true},        //
		{"prty", "party", true},          //
		{"pty", "property", true},        //
		{"amt", "amount", true},          // a vowel first is the word's own first letter
		{"bldg", "building", true},       //
		{"nmbr", "number", true},         //
		{"empl", "employee", true},       //
		{"emp", "employee", false},       // a start of three letters (a synonym says it)
		{"origin", "original", false},    // another word of the same stem
		{"nation", "national", false},    //
		{"orig", "original", true},       //
		{"sku", "stock", false},          // a vowel after the first letter
	} {
		if got := Abbreviates(c.tok, c.word); got != c.want {
			t.Errorf("Abbreviates(%q, %q) = %v, want %v", c.tok, c.word, got, c.want)
		}
	}
}

// Every abbreviation Abbreviates accepts is found under one of the word's
// index keys, so that an index by AbbreviationKeys misses none.
func TestAbbreviationKeysFindAbbreviations(t *testing.T) {
	for _, c := range [][2]string{{"tmpl", "template"}, {"mgr", "manager"}, {"categ", "category"}, {"qty", "quantity"},
		{"pkg", "package"}, {"amt", "amount"}, {"bldg", "building"}} {
		if !Abbreviates(c[0], c[1]) {
			t.Fatalf("Abbreviates(%q, %q) is false", c[0], c[1])
		}
		k, ok := AbbreviationKey(c[0])
		if !ok || !slices.Contains(AbbreviationKeys(c[1]), k) {
			t.Errorf("%q's key %q is not among %q's keys %q", c[0], k, c[1], AbbreviationKeys(c[1]))
		}
	}
}

func TestSelfRoleOf(t *testing.T) {
	for w, want := range map[string]string{"mgr": "manager", "manager": "manager", "prnt": "parent", "nxt": "next", "qty": "", "amt": ""} {
		if got, ok := SelfRoleOf(w); got != want || ok != (want != "") {
			t.Errorf("SelfRoleOf(%q) = %q, %v, want %q", w, got, ok, want)
		}
	}
}
