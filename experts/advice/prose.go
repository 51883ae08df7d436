package advice

import "strings"

// article puts "a" or "an" before a noun, by its first letter.
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
