package naming

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"

	"github.com/gertd/go-pluralize"
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
// "SupportRepId" → support rep id, "tbl_Order_Items2" → tbl order items 2,
// but a lone letter and its digits stay one word: "store_m042" → store m042.
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
			case unicode.IsDigit(r) && len(cur) == 1 && unicode.IsLetter(cur[0]):
				// A lone letter before digits is one code (m042, q3, v2):
				// dropping the number would leave a letter every such name
				// shares.
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

// Singular is an English word's singular (lower case in, lower case out),
// by a maintained inflection library (go-pluralize, a port of the
// pluralize package: its rules, irregular and uncountable words) with the
// words of english.txt added, so that statuses, species, analyses and
// people come out right. Words under three letters stay as they are.
func Singular(w string) string {
	if len(w) < 3 {
		return w
	}
	if s, ok := singulars.Load(w); ok {
		return s.(string)
	}
	s := inflect.Singular(w)
	singulars.Store(w, s)
	return s
}

// singulars remembers the library's answers: it tries its rules, regular
// expressions, one after the other on every call, and inference asks for
// the same few hundred words millions of times. A schema's words are
// bounded, so the map is too.
var singulars sync.Map

// pluralOf is Singular's inverse for prose: one customer, two customers.
func pluralOf(w string) string {
	if len(w) < 3 {
		return w + "s"
	}
	return inflect.Plural(w)
}

//go:embed english.txt
var english string

// inflect is the library's client with english.txt's words.
var inflect = func() *pluralize.Client {
	c := pluralize.NewClient()
	for _, f := range DataLines(english) {
		if len(f) == 1 {
			c.AddUncountableRule(f[0])
		} else {
			c.AddIrregularRule(f[1], f[0])
		}
	}
	return c
}()

// Article puts "a" or "an" before a noun, by its first letter: the
// sentences of every expert that names a table as prose.
func Article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

// minInflectedStem is how many letters two inflections of one word must
// share: shorter words (car, card, cart) differ by a letter as often as
// they inflect.
const minInflectedStem = 4

// inflections are the endings a plural adds to a word in the languages
// that inflect at the end of one (German and Dutch -e, -n, -en; Spanish,
// Portuguese and French -s, -es). Not -er and -or: in English, whose
// names schemas use most, they make a word for who does something
// (visit, visitor; play, player), another entity.
var inflections = map[string]bool{"e": true, "n": true, "en": true, "s": true, "es": true}

// Inflected reports whether two different lower-case words are one word
// in two inflections, in any language that inflects at the end of a word:
// a shared start of at least minInflectedStem letters, then an ending of
// inflections on one side (Kunde, Kunden; Bestellung, Bestellungen;
// ciudad, ciudades) or one final vowel for another (libro, libri; tabella,
// tabelle). English plurals are Singular's; this is for the names of
// schemas written in other languages, which Singular leaves as they are.
func Inflected(a, b string) bool {
	if a == b {
		return false
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	if p < minInflectedStem {
		return false
	}
	ra, rb := len(a)-p, len(b)-p
	switch {
	case ra == 0:
		return inflections[b[p:]]
	case rb == 0:
		return inflections[a[p:]]
	case ra == 1 && rb == 1:
		return isVowel(a[p]) && isVowel(b[p])
	}
	return false
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }
