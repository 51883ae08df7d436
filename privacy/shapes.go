package privacy

import (
	"embed"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/discover-db/discover/experts/valueclass"
)

// The lexicons a column's values are read against, whatever its name or
// language: persons' given and family names of many countries, the words
// of street addresses, the words that mark a firm's name, and the particles
// of names (lexicon/, each file saying where its words come from).
//
//go:embed lexicon/*.txt
var lexiconFiles embed.FS

var (
	// The two large lexicons are read when first asked for, not when a
	// program that imports the package starts.
	personNames                           = sync.OnceValue(func() map[string]bool { return wordSet("lexicon/person_names.txt", true) })
	placeNames                            = sync.OnceValue(func() map[string]bool { return lineSet("lexicon/place_names.txt") })
	nameParticles                         = wordSet("lexicon/name_particles.txt", false)
	orgWords                              = wordSet("lexicon/org_words.txt", false)
	streetWords, streetEndings, unitWords = func() (map[string]bool, []string, map[string]bool) {
		street, unit := map[string]bool{}, map[string]bool{}
		var endings []string
		for _, line := range lines("lexicon/street_words.txt") {
			kind, words, ok := strings.Cut(line, ":")
			if !ok {
				panic("privacy/lexicon/street_words.txt: no kind in " + line)
			}
			for _, w := range strings.Fields(words) {
				switch strings.TrimSpace(kind) {
				case "street":
					street[strings.TrimSuffix(w, ".")] = true
				case "ending":
					endings = append(endings, w)
				case "unit":
					unit[w] = true
				default:
					panic("privacy/lexicon/street_words.txt: unknown kind " + kind)
				}
			}
		}
		return street, endings, unit
	}()
)

// lines are a lexicon file's lines that are neither empty nor comments.
func lines(name string) []string {
	b, err := lexiconFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// wordSet reads a lexicon file's words; folded adds each word without its
// accents too (josé and jose), as values are often written without them.
func wordSet(name string, folded bool) map[string]bool {
	m := map[string]bool{}
	for _, l := range lines(name) {
		for _, w := range strings.Fields(l) {
			m[w] = true
			if folded {
				m[fold(w)] = true
			}
		}
	}
	return m
}

// lineSet reads a lexicon file whose lines are names of several words
// (San Diego), each line whole and without its accents too.
func lineSet(name string) map[string]bool {
	m := map[string]bool{}
	for _, l := range lines(name) {
		m[l] = true
		m[fold(l)] = true
	}
	return m
}

// fold drops the accents of s's letters (é → e, ü → u).
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

// valueWords splits a value into its words: runs between spaces and commas.
func valueWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == ';' })
}

// nameWord reports whether w can be a word of a person's name as people
// write one: letters, with hyphens and apostrophes inside (Jean-Luc,
// O'Neil) or a dot after an initial (J.), starting with a capital.
func nameWord(w string) bool {
	rs := []rune(strings.TrimLeft(w, "'’"))
	if len(rs) == 0 || len(rs) > 30 || !unicode.IsUpper(rs[0]) {
		return false
	}
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r):
		case (r == '-' || r == '\'' || r == '’') && i > 0 && i < len(rs)-1:
		case r == '.' && i == len(rs)-1:
		default:
			return false
		}
	}
	return true
}

// knownName reports whether a word of a value is in the lexicon of given
// and family names, whole or, hyphenated, by one of its parts.
func knownName(w string) bool {
	w = strings.ToLower(strings.TrimRight(w, "."))
	if nameParticles[w] || len([]rune(w)) < 2 {
		return false
	}
	names := personNames()
	if names[w] || names[fold(w)] {
		return true
	}
	if strings.Contains(w, "-") {
		for _, p := range strings.Split(w, "-") {
			if names[p] || names[fold(p)] {
				return true
			}
		}
	}
	return false
}

// nameShape reads a value as a person's name: one to four words written as
// names are (particles aside: van der, de la), none a firm's word (GmbH,
// e Hijos, & Sons). It returns the name words and how many of them the
// lexicon knows; ok is false for a value of another shape.
func nameShape(s string) (words, known int, ok bool) {
	for _, w := range valueWords(strings.TrimSpace(s)) {
		lw := strings.ToLower(strings.Trim(w, "."))
		if orgWords[lw] || orgWords[strings.ReplaceAll(lw, ".", "")] {
			return 0, 0, false
		}
		if nameParticles[lw] {
			continue
		}
		if !nameWord(w) {
			return 0, 0, false
		}
		words++
		if knownName(w) {
			known++
		}
	}
	return words, known, words >= 1 && words <= 4
}

// Shares of a column's values the person-name rule asks for: nine in ten
// written as names, and most of them holding a name the lexicon knows, with
// most of their words known; city, product, company and category names
// are written as names too, but few of their words are persons' names.
const (
	nameShapeShare = 0.9
	nameValueShare = 0.7
	nameWordShare  = 0.6
)

// personNameByValues finds a column of persons' names, or parts of them,
// by its values alone: written as names, and holding given and family
// names of the lexicon (lexicon/person_names.txt), in any language.
func personNameByValues(vals []string) (Finding, bool) {
	n := len(vals)
	if n < minValues {
		return Finding{}, false
	}
	shaped, attested, words, known := 0, 0, 0, 0
	distinct := map[string]bool{}
	for _, v := range vals {
		w, k, ok := nameShape(v)
		if !ok {
			continue
		}
		shaped++
		words += w
		known += k
		if k > 0 {
			attested++
			distinct[strings.ToLower(strings.TrimSpace(v))] = true
		}
	}
	if float64(shaped) < nameShapeShare*float64(n) || float64(attested) < nameValueShare*float64(n) ||
		float64(known) < nameWordShare*float64(words) || len(distinct) < minValues {
		return Finding{}, false
	}
	// Many places bear persons' names (Victoria, Lincoln, Bologna): a
	// column most of whose names are towns' is of places.
	places, towns := 0, placeNames()
	for v := range distinct {
		if towns[v] || towns[fold(v)] {
			places++
		}
	}
	if 2*places >= len(distinct) {
		return Finding{}, false
	}
	wordShare := float64(known) / float64(words)
	conf := round(0.5 + 0.45*wordShare*float64(attested)/float64(n))
	return Finding{PersonName, conf, []string{
		fmt.Sprintf("%d of %d sampled values are written as persons' names (1 to 4 capitalised words)", shaped, n),
		fmt.Sprintf("%d of them hold a given or family name of the embedded list (%d of %d words, %d distinct values)", attested, known, words, len(distinct)),
	}}, true
}

// addressShape reads a value as a postal address or a part of one: a
// street word (Calle, rue, Street, ul.) or a street's compound ending
// (Hauptstraße, Kerkstraat) beside a house number (12, 12a, 3º, 12-14),
// or a building part (Apt, Piso, Suite) with its number.
func addressShape(s string) bool {
	street, unit, number := false, false, false
	for _, w := range valueWords(strings.TrimSpace(s)) {
		lw := strings.ToLower(w)
		switch {
		case houseNumber(lw):
			number = true
		case streetWords[strings.TrimSuffix(lw, ".")]:
			street = true
		case unitWords[strings.TrimSuffix(lw, ".")]:
			unit = true
		default:
			for _, e := range streetEndings {
				// Ekgränd, Hauptstraße: the street's own name before it.
				if stem, ok := strings.CutSuffix(lw, e); ok && utf8.RuneCountInString(stem) >= 2 {
					street = true
					break
				}
			}
		}
	}
	return number && (street || unit)
}

// houseNumber: a number of up to five digits, with a letter or two after
// it (12a, 4B, 3º, 12bis) or a second number or letter (12-14, 7/2, 96/A).
func houseNumber(w string) bool {
	digits, i := 0, 0
	rs := []rune(w)
	for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' {
		digits++
		i++
	}
	if digits == 0 || digits > 5 {
		return false
	}
	rest := string(rs[i:])
	if rest == "" {
		return true
	}
	if (rest[0] == '-' || rest[0] == '/') && len(rest) > 1 && len(rest) <= 6 {
		for _, r := range rest[1:] {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return false
			}
		}
		return true
	}
	letters := 0
	for _, r := range rest {
		if !unicode.IsLetter(r) && r != 'º' && r != 'ª' && r != '°' {
			return false
		}
		letters++
	}
	return letters <= 3
}

// addressShare is the share of a column's values that must read as
// addresses: lines such as "Postfach 12" or a missing number may stand
// among them.
const addressShare = 0.8

// addressByValues finds a column of postal addresses, or of their street or
// building lines, by its values alone.
func addressByValues(vals []string) (Finding, bool) {
	n := len(vals)
	if n < minValues {
		return Finding{}, false
	}
	k := 0
	for _, v := range vals {
		if addressShape(v) {
			k++
		}
	}
	if float64(k) < addressShare*float64(n) {
		return Finding{}, false
	}
	return Finding{PostalAddress, round(0.5 + 0.4*float64(k)/float64(n)), []string{
		fmt.Sprintf("%d of %d sampled values hold a street word or a building part beside a house number", k, n),
	}}, true
}

// addressShareFloor is the share of a column's values that must read as a
// postal address, or could be one, for its name (address, addr) to count:
// below it the values say the name means another address.
const addressShareFloor = 0.5

// NotPostal reports whether a column's sampled values contradict a name
// that says postal address: fewer than half of them could be one. The word
// "address" names IP addresses (ipb_address), storage locations
// (MediaWiki's content_address: tt:123, es:DB://cluster1/123/45) and
// e-mail addresses as often as a place where people live, and a name word
// must not outweigh values that show which. Too few values say nothing.
func NotPostal(vals []string) bool {
	n, k := 0, 0
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		n++
		if mayBeAddress(v) {
			k++
		}
	}
	return n >= minValues && float64(k) < addressShareFloor*float64(n)
}

// uriLike matches a scheme or namespace before a colon and no space in the
// value (tt:123, es:DB://cluster1/123/45, mailto:x): a locator, not a place.
var uriLike = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]{0,15}:\S+$`)

// mayBeAddress reports whether a value could be a postal address or a line
// of one: not an IP address, a URL or locator, or an e-mail address; and a
// street word or building part (addressShape, Church Lane), or a number
// beside a word, in several words or in a script written without spaces
// (東京都千代田区丸の内1-1-1). A user name (Admin, Jane Doe) or a single
// token of letters and digits (a hash, a blob id, User42) is none.
func mayBeAddress(v string) bool {
	if isIP(v) || strings.Contains(v, "://") || uriLike.MatchString(v) ||
		strings.Contains(v, "@") && valueclass.IsEmail(v) {
		return false
	}
	if addressShape(v) {
		return true
	}
	words := valueWords(v)
	for _, w := range words {
		lw := strings.TrimSuffix(strings.ToLower(w), ".")
		if streetWords[lw] || unitWords[lw] {
			return true
		}
		for _, e := range streetEndings {
			if stem, ok := strings.CutSuffix(lw, e); ok && utf8.RuneCountInString(stem) >= 2 {
				return true
			}
		}
	}
	digit, letter, wide := false, false, false
	for _, r := range v {
		switch {
		case unicode.IsDigit(r):
			digit = true
		case unicode.IsLetter(r):
			letter = true
			wide = wide || r >= 0x2E80 // CJK and the scripts after it
		}
	}
	return digit && letter && (len(words) >= 2 || wide)
}
