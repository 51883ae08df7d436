package report

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/discover-db/discover/internal/shown"
)

// Escaping for the Markdown files (report.md and tables/). Names and values
// come from the database: whoever can create a table or insert a row can
// write Markdown, so everything from the data or the schema passes through
// mdText before it reaches a file. It is hand-written because no maintained
// Go library does this: goldmark and gomarkdown parse and render Markdown,
// and the escapers that come with the HTML-to-Markdown converters escape
// the emphasis characters only; none shows control characters, defuses
// GitHub's autolinks or keeps a table cell whole.

// mdText makes text from the data or the schema inert wherever the
// renderers put it: prose, list items, headings, link texts and table cells.
// Rendered, it reads as the original, except that control and invisible
// characters are shown as \xNN or \uNNNN (a NUL, an ANSI escape or a
// right-to-left override is seen, not obeyed), line breaks and tabs as \n,
// \r and \t (a value cannot end a list item or a table row), and bytes that
// are not UTF-8 as \xNN. It is applied to whole fragments, and a fragment
// may start a line: what opens a block there (a list marker, an ordered
// list's number, indentation) is escaped too.
func mdText(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); {
		if j := addressEnd(s, i); j > i {
			// GitHub joins the text around a backslash before it looks for
			// e-mail addresses, so only a code span keeps one dead.
			b.WriteString("`" + s[i:j] + "`")
			i = j
			continue
		}
		if j := maskedEnd(s, i); j > i {
			// A masked value (M***, +44 7*** ***123) reads as it is in
			// the file too, rather than as a row of escaped stars.
			b.WriteString("`" + s[i:j] + "`")
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch v, ok := shown.Escape(s, i); {
		case ok:
			b.WriteString(v)
		case r == ' ' && i == 0:
			// Leading spaces would be dropped or, four of them, start a
			// code block: the first is written as a character reference.
			b.WriteString("&#32;")
		default:
			if mdSyntax(s, i, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// mdSyntax says whether r, found at s[i], could start Markdown syntax there
// (CommonMark with GitHub's extensions) and so needs a backslash.
func mdSyntax(s string, i int, r rune) bool {
	switch r {
	case '\\', '*', '[', ']', '<', '>', '`', '~', '|', '#', '$', '@':
		// Syntax anywhere: escapes, emphasis, links and images ('!' and
		// '(' need a '[' or ']' to mean anything), HTML and block quotes,
		// code, strikethrough, table cells, headings (a closing " #" too),
		// GitHub's math, and a lone '@'.
		return true
	case '_':
		// A run of '_' between two letters or digits can neither open nor
		// close emphasis (CommonMark's flanking rules), and identifiers
		// are full of them: order_items stays order_items.
		start, end := i, i
		for start > 0 && s[start-1] == '_' {
			start--
		}
		for end < len(s) && s[end] == '_' {
			end++
		}
		return !(alnumBefore(s, start) && alnumAt(s, end))
	case '&':
		// An entity (&lt;, &#x202e;) would become the character it names.
		return i+1 < len(s) && (s[i+1] == '#' || isASCIILetter(s[i+1]))
	case ':':
		// https://… is an autolink on GitHub; https\://… is text.
		return strings.HasPrefix(s[i+1:], "//")
	case '.':
		// So is www.…; and "1. x" at a line's start is an ordered list.
		return (i >= 3 && strings.EqualFold(s[i-3:i], "www")) || orderedMarker(s, i)
	case ')':
		return orderedMarker(s, i) // "1) x"
	case '-', '+':
		// At a line's start "- x", "+ x" and "---" are list items and
		// rules; "-5" is a number.
		return i == 0 && !alnumAt(s, 1)
	}
	return false
}

// addressEnd returns the end of the run of characters an e-mail autolink
// is made of (ASCII letters and digits, '.', '+', '-', '_') that starts at
// s[i], if it holds an '@' with something beside it; otherwise i. A
// masked address's stars belong to the run (j***@e***.com is one code
// span, not stars escaped around a code span of "@e").
func addressEnd(s string, i int) int {
	in := func(c byte) bool { return addressChar(c) || c == '@' || c == '*' }
	if i > 0 && in(s[i-1]) {
		return i // not a run's start
	}
	j, at := i, false
	for j < len(s) && in(s[j]) {
		at = at || s[j] == '@'
		j++
	}
	if !at || j-i < 2 {
		return i
	}
	return j
}

// maskedEnd returns the end of the word that starts at s[i] when it holds
// three stars in a row, as every masked value does (package privacy), and
// nothing a code span would not keep inert in a table cell or a line: no
// '|', backtick, backslash or control character; otherwise i.
func maskedEnd(s string, i int) int {
	if i > 0 && s[i-1] != ' ' && s[i-1] != '(' {
		return i // not a word's start
	}
	j := i
	for j < len(s) && s[j] > ' ' && s[j] != 0x7f && s[j] != '|' && s[j] != '`' && s[j] != '\\' && s[j] != ')' && s[j] != ',' && s[j] != ';' {
		j++
	}
	if !strings.Contains(s[i:j], "***") {
		return i
	}
	return j
}

func addressChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-' || c == '_'
}

// orderedMarker says whether s[i] ends an ordered list's marker: s starts
// with one to nine digits, then s[i], then a space or nothing.
func orderedMarker(s string, i int) bool {
	if i < 1 || i > 9 || (i+1 < len(s) && s[i+1] != ' ') {
		return false
	}
	for _, c := range []byte(s[:i]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func alnumBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return i > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func alnumAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// shownText is s as a reader sees it once mdText has escaped it: controls
// shown, nothing else changed. GitHub makes a heading's anchor from it.
func shownText(s string) string { return shown.Controls(s, "") }

// showControls is shownText for fenced code, where backslash escapes are
// not read and line breaks and tabs are the code's own: those are kept
// (CRLF as LF).
func showControls(s string) string {
	return shown.Controls(strings.ReplaceAll(s, "\r\n", "\n"), "\n\t")
}

// fence returns a code fence longer than any run of backticks in s, so the
// content can never close it early.
func fence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
