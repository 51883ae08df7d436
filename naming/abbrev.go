package naming

import (
	"slices"
	"strings"
)

// Abbreviates reports whether tok shortens word the two ways schemas
// shorten a word: its start, at least minAbbrevStart letters (categ for
// category, cust for customer), or a contraction, a start of the word and
// then consonants only, each found further on in the word in order (tmpl
// for template, mgr for manager, dept for department, qty for quantity).
// Three letters at least, and never the word itself. Shorter starts (ca,
// cat, emp) are the beginnings other words share, and so are starts that
// stop two letters short (origin, national); a contraction's skipped
// letters make it rare enough at three.
func Abbreviates(tok, word string) bool {
	if len(tok) < minContraction || len(tok) >= len(word) || tok[0] != word[0] {
		return false
	}
	p := 0
	for p < len(tok) && tok[p] == word[p] {
		p++
	}
	if p == len(tok) {
		// A start two letters short of the word is mostly another word of
		// the same stem (origin and original, nation and national).
		return len(tok) >= minAbbrevStart && len(word)-len(tok) >= minAbbrevDropped
	}
	if strings.ContainsAny(tok[p:], "aeiou") {
		return false
	}
	j := p
	for i := p; i < len(word) && j < len(tok); i++ {
		if word[i] == tok[j] {
			j++
		}
	}
	return j == len(tok)
}

const (
	minAbbrevStart   = 4
	minAbbrevDropped = 3
	minContraction   = 3
)

// AbbreviationKeys are the index keys under which a word may be found
// from one of its abbreviations (AbbreviationKey): its first two letters,
// and its first letter with each consonant after it.
func AbbreviationKeys(word string) []string {
	if len(word) < minContraction+1 {
		return nil
	}
	keys := []string{word[:2]}
	seen := map[byte]bool{word[1]: true}
	for i := 1; i < len(word); i++ {
		if c := word[i]; !seen[c] && !strings.ContainsRune("aeiou", rune(c)) && c >= 'a' && c <= 'z' {
			seen[c] = true
			keys = append(keys, string([]byte{word[0], c}))
		}
	}
	return keys
}

// AbbreviationKey is the index key of a possible abbreviation: its first
// two letters, one of its word's AbbreviationKeys when Abbreviates holds.
func AbbreviationKey(tok string) (string, bool) {
	if len(tok) < minContraction {
		return "", false
	}
	return tok[:2], true
}

// SelfRoleOf is the self role (SelfRole) w names, spelled out or
// abbreviated (mgr for manager, prnt for parent); ok is false for none.
// Several roles one abbreviation could shorten are none.
func SelfRoleOf(w string) (role string, ok bool) {
	if selfRoles[w] {
		return w, true
	}
	for r := range selfRoles {
		if Abbreviates(w, r) {
			if ok && r != role {
				return "", false
			}
			role, ok = r, true
		}
	}
	return role, ok
}

// EntityAbbreviations are the short forms of an entity's name, its words
// singular and in order, that a key column's stem may take: the initials
// of all but the last word, then the start of the last, at least
// minEntityTail letters of it (cdemo for customer demographic, hdemo for
// household demographic); of a one-word entity, a start of at least
// minEntityStart letters that is not the whole word (cust, addr, promo).
// Shorter forms (cd, cu) are the initials every other table shares.
// Abbreviates is the other way a name is shortened: one word at a time.
func EntityAbbreviations(words []string) []string {
	if len(words) == 0 {
		return nil
	}
	last := words[len(words)-1]
	var out []string
	if len(words) == 1 {
		for j := minEntityStart; j < len(last); j++ {
			out = append(out, last[:j])
		}
		return out
	}
	var initials strings.Builder
	for _, w := range words[:len(words)-1] {
		if w == "" {
			return nil
		}
		initials.WriteByte(w[0])
	}
	for j := minEntityTail; j <= len(last); j++ {
		out = append(out, initials.String()+last[:j])
	}
	return out
}

// AbbreviatesEntity reports whether tok is one of EntityAbbreviations(words).
func AbbreviatesEntity(tok string, words []string) bool {
	return slices.Contains(EntityAbbreviations(words), tok)
}

const (
	minEntityTail  = 3
	minEntityStart = 4
)
