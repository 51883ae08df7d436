package naming

import "strings"

// Stem reduces a word to what its inflections and derivations share, so
// that a state and the timestamp named after it meet: terminated,
// terminate and termination → termin; cancelled, canceled → cancel;
// shipped, shipment → ship; delivered, delivery → deliver. It is no
// Porter or Snowball stemmer on purpose: those keep the -ment and -y that
// tell shipment from shipped and delivery from delivered, which is what a
// lifecycle's names must not.
func Stem(w string) string {
	w = strings.ToLower(w)
	for _, suf := range []string{"ations", "ation", "ated", "ate", "ions", "ion", "ment", "ings", "ing", "ed", "al", "es", "e", "s", "y"} {
		if len(w)-len(suf) >= 3 && strings.HasSuffix(w, suf) {
			w = w[:len(w)-len(suf)]
			break
		}
	}
	if n := len(w); n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiou", rune(w[n-1])) {
		w = w[:n-1] // shipp → ship, cancell → cancel
	}
	return w
}
