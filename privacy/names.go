package privacy

import (
	_ "embed"
	"regexp"
	"strings"
)

//go:embed names.txt
var namesText string

// phoneInText finds a phone number written in text: a leading plus or an
// area code in parentheses, then digits with spaces, dots or dashes.
var phoneInText = regexp.MustCompile(`(?:\+\d[\d .\-]{6,}\d|\(\d{2,5}\)\s?\d[\d .\-]{4,}\d)`)

// nameWords maps a word or phrase of names.txt to its category.
var nameWords = func() map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(namesText, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cat, words, ok := strings.Cut(line, ":")
		if !ok {
			panic("privacy/names.txt: no category in " + line)
		}
		for _, w := range strings.Fields(words) {
			m[w] = strings.TrimSpace(cat)
		}
	}
	return m
}()

// nameCategories returns the categories a column's name words say, from
// single words and phrases of consecutive words (tax_id, date_of_birth).
func nameCategories(words []string) map[string]bool {
	out := map[string]bool{}
	for i := range words {
		for j := i + 1; j <= len(words) && j <= i+4; j++ {
			if cat, ok := nameWords[strings.Join(words[i:j], "_")]; ok {
				out[cat] = true
			}
		}
	}
	return out
}

// NamedPersonal reports whether a column's name words say it holds
// personal data (a phone, a national number, a card): the columns of
// numbers whose values a caller reads for Detect, where it reads no other
// numbers' (a phone or a national number stored as an integer).
func NamedPersonal(words []string) bool {
	for cat := range nameCategories(words) {
		if cat != place {
			return true
		}
	}
	return false
}
