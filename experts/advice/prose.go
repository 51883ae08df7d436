package advice

import (
	"strings"

	"github.com/discover-db/discover/experts"
)

// The advice names tables in prose as the query expert's cardinality
// sentences do (experts/query/cardinality.go): the same rules, so that a
// join's advice and the relationship's sentence say "order items" alike.

// noun renders a table name as prose, singular or plural: usage_records →
// "usage record" / "usage records", OrderDetails → "order detail".
func noun(table string, plural bool) string {
	words := experts.Words(table)
	if len(words) == 0 {
		return table
	}
	last := singular(words[len(words)-1])
	if plural {
		last = pluralOf(last)
	}
	words[len(words)-1] = last
	return strings.Join(words, " ")
}

func singular(w string) string {
	switch {
	case len(w) < 4 || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is") ||
		w == "data" || w == "news" || w == "series" || w == "media":
		return w
	case w == "people":
		return "person"
	case w == "children":
		return "child"
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

func pluralOf(w string) string {
	switch {
	case w == "person":
		return "people"
	case w == "child":
		return "children"
	case w == "data" || w == "media" || w == "news" || w == "series":
		return w
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "sh"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "x"):
		return w + "es"
	}
	return w + "s"
}

// article puts "a" or "an" before a noun, by its first letter.
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
