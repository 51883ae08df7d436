package catalog

import (
	"strconv"
	"strings"
)

// Thousands writes a count the way findings quote it to a reader, digits
// grouped by three: 1,234,567. Every expert and the report use it, so one
// figure reads the same wherever it appears.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// JoinAnd lists parts as a sentence does: "a", "a and b", "a, b and c".
func JoinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
