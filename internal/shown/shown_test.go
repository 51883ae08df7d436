package shown

import (
	"testing"
	"unicode/utf8"
)

// TestControls: every character that would act on what a reader sees is
// written as an escape, the rest as itself.
func TestControls(t *testing.T) {
	for in, want := range map[string]string{
		"plain naïve 顧客":          "plain naïve 顧客",
		"a\tb\nc\rd":              `a\tb\nc\rd`,
		"\x00\x1b[31m\x7f":        `\x00\x1b[31m\x7f`,
		"\u0085 C1":               `\u0085 C1`,
		"user\u202egnp.exe":       `user\u202egnp.exe`,
		"\u2066iso\u2069 \u061c":  `\u2066iso\u2069 \u061c`,
		"\u200ezero\u200b\u2060x": `\u200ezero\u200b\u2060x`,
		"\ufeffbom \u2028 \u2029": `\ufeffbom \u2028 \u2029`,
		"tag\U000E0041":           `tag\U000e0041`,
		"bad\xffutf8":             `bad\xffutf8`,
	} {
		got := Controls(in, "")
		if got != want {
			t.Errorf("Controls(%q) = %q, want %q", in, got, want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Controls(%q) is not UTF-8", in)
		}
	}
	if got := Controls("a\tb\nc\r", "\n\t"); got != "a\tb\nc\\r" {
		t.Errorf("kept \\n and \\t: %q", got)
	}
}
