// Package shown writes text from the database so that a reader sees every
// character rather than having some act on what they see: the one spelling
// of control and invisible characters shared by the Markdown pages
// (report) and the ER diagrams (report/erd), so that a name reads the same
// in both and neither lets a bidirectional override or a zero-width
// character through.
package shown

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape gives the escape a reader sees for the character at s[i] if it
// would otherwise act instead of show: C0 and C1 controls and DEL (\t, \n
// and \r by name), bidirectional formatting (U+061C, U+200E/F,
// U+202A–202E, U+2066–2069: "Trojan source" reordering), line and
// paragraph separators, zero-width and invisible characters, Unicode tags
// (which hide ASCII text from readers but not from a model), and a byte
// that is not UTF-8. ok is false for any other character, which shows as
// itself.
func Escape(s string, i int) (escape string, ok bool) {
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf(`\x%02x`, s[i]), true
	case r == '\t':
		return `\t`, true
	case r == '\n':
		return `\n`, true
	case r == '\r':
		return `\r`, true
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r), true
	case r >= 0x80 && r <= 0x9f, unicode.Is(unicode.Bidi_Control, r), r == 0x2028, r == 0x2029,
		r == 0x200b, r >= 0x2060 && r <= 0x2064, r == 0xfeff:
		return fmt.Sprintf(`\u%04x`, r), true
	case r >= 0xe0000 && r <= 0xe007f:
		return fmt.Sprintf(`\U%08x`, r), true
	}
	return "", false
}

// Controls is s with every character Escape escapes written as its
// escape, except those in keep (a code block keeps its own line breaks
// and tabs). The result is valid UTF-8.
func Controls(s, keep string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		if v, ok := Escape(s, i); ok && !strings.Contains(keep, s[i:i+size]) {
			b.WriteString(v)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
