package naming

import (
	"strings"
	"unicode"
)

// Words splits an identifier into lower-case words: on any character that
// is not a letter or digit, at camelCase and PascalCase boundaries (an
// acronym ends before the capital that starts the next word: "HTTPServer" →
// http, server), and between letters and digits. A last word glued to "id"
// ("customerid") is split off, since lower-case schemas write keys that way.
func Words(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			switch {
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	if n := len(words); n > 0 {
		if stem, ok := gluedID(words[n-1]); ok {
			words = append(words[:n-1], stem, "id")
		}
	}
	return words
}

// wordsEndingInID are words that end in "id" without being keys.
var wordsEndingInID = wordSet("android", "avoid", "braid", "candid", "cupid", "david", "druid", "fluid", "humid",
	"hybrid", "invalid", "liquid", "lipid", "madrid", "morbid", "orchid", "placid", "prepaid", "pyramid",
	"rabid", "rapid", "solid", "squid", "stupid", "timid", "unpaid", "valid", "vivid", "overpaid", "afraid",
	"mermaid", "postpaid", "carotid", "steroid", "tabloid", "thyroid", "asteroid", "paranoid", "celluloid")

// gluedID splits "customerid" into "customer": a word of at least five
// letters ending in "id" that is not an ordinary English word.
func gluedID(w string) (string, bool) {
	if len(w) < 5 || !strings.HasSuffix(w, "id") || wordsEndingInID[w] {
		return "", false
	}
	stem := strings.TrimSuffix(w, "id")
	for _, r := range stem {
		if !unicode.IsLetter(r) {
			return "", false
		}
	}
	return stem, true
}

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// NameTokens splits an identifier into lower-case words at underscores,
// spaces, camelCase and PascalCase boundaries and letter/digit changes:
// "SupportRepId" → support rep id, "tbl_Order_Items2" → tbl order items 2.
// Unlike Words it does not split a glued "customerid": reference inference
// (experts/relations) and the patterns' measure test (experts/structural)
// are tuned to this splitting, and relbench measures it.
func NameTokens(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := rs[i-1]
			switch {
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush() // albumId
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush() // XMLParser → xml parser
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// Noun renders a table name as prose, singular or plural: usage_records →
// "usage record" / "usage records", OrderDetails → "order detail". The query
// expert's sentences and the advice name tables alike through it.
func Noun(table string, plural bool) string {
	words := Words(table)
	if len(words) == 0 {
		return table
	}
	last := Singular(words[len(words)-1])
	if plural {
		last = pluralOf(last)
	}
	words[len(words)-1] = last
	return strings.Join(words, " ")
}

// Singular is an English word's singular, by the common rules (and
// people, children); words it cannot tell stay as they are.
func Singular(w string) string {
	switch {
	case len(w) < 4 || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is") ||
		w == "data" || w == "news" || w == "series" || w == "media":
		return w
	case w == "people":
		return "person"
	case w == "children":
		return "child"
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

func pluralOf(w string) string {
	switch {
	case w == "person":
		return "people"
	case w == "child":
		return "children"
	case w == "data" || w == "media" || w == "news" || w == "series":
		return w
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "sh"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "x"):
		return w + "es"
	}
	return w + "s"
}
