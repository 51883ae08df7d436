// Package textcut shortens text for messages, prompts and tables, on a
// character boundary and marked with an ellipsis, so that a cut value is
// never mistaken for a whole one and never ends in half a character.
package textcut

import "unicode/utf8"

// Bytes shortens s to about n bytes (the ellipsis comes on top), on a
// character boundary: for what a byte budget bounds (a prompt, a log line).
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Runes shortens s to at most n characters, the ellipsis included: for
// what a width bounds (a table cell, a line of evidence).
func Runes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
