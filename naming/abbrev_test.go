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

// Invented entities: a multi-word one by its initials and the start of its
// last word, a one-word one by a start of four letters or more.
func TestEntityAbbreviations(t *testing.T) {
	cases := []struct {
		tok   string
		words []string
		want  bool
	}{
		{"pdemo", []string{"person", "demographic"}, true},
		{"pdem", []string{"person", "demographic"}, true},
		{"pde", []string{"person", "demographic"}, false}, // the initials other tables share
		{"pdemographic", []string{"person", "demographic"}, true},
		{"wsite", []string{"web", "site"}, true},
		{"sbin", []string{"storage", "bin"}, true},
		{"vend", []string{"vendor"}, true},
		{"vendo", []string{"vendor"}, true},
		{"ven", []string{"vendor"}, false},
		{"vendor", []string{"vendor"}, false}, // the word itself is no abbreviation
		{"demo", []string{"person", "demographic"}, false},
		{"x", nil, false},
		{"abc", []string{"", "bc"}, false},
	}
	for _, c := range cases {
		if got := AbbreviatesEntity(c.tok, c.words); got != c.want {
			t.Errorf("AbbreviatesEntity(%q, %q) = %v; want %v (forms %q)", c.tok, c.words, got, c.want, EntityAbbreviations(c.words))
		}
	}
}
