package catalog

import (
	"strings"
	"unicode"
)

// ftsQuery turns arbitrary user text into an FTS5 query that cannot be a
// syntax error: every whitespace-separated word becomes a quoted string
// (FTS5's only escape is doubling the quote) followed by * so that a word
// also matches as a prefix ("cust" finds "customers"). Inside quotes FTS5
// runs the word through the tokenizer, so "orders.customer_id" becomes the
// phrase orders customer id. Words are ANDed. Words with no letter or digit
// would tokenize to nothing, so they are dropped; the result is "" when no
// word is left, and the caller must not run an empty query.
func ftsQuery(text string) string {
	var b strings.Builder
	for _, w := range strings.Fields(text) {
		if !strings.ContainsFunc(w, isWordRune) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(w, `"`, `""`))
		b.WriteString(`"*`)
	}
	return b.String()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) }
