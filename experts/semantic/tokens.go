package semantic

import (
	"strings"
	"unicode"

	"github.com/discover-db/discover/naming"
)

// irregular plurals and words that look plural but are not.
var irregular = map[string]string{
	"people": "person", "men": "man", "women": "woman", "children": "child", "mice": "mouse",
	"geese": "goose", "teeth": "tooth", "feet": "foot", "oxen": "ox", "criteria": "criterion",
	"phenomena": "phenomenon", "indices": "index", "matrices": "matrix", "vertices": "vertex",
	"analyses": "analysis", "diagnoses": "diagnosis", "prognoses": "prognosis", "hypotheses": "hypothesis",
	"theses": "thesis", "crises": "crisis", "syntheses": "synthesis", "parentheses": "parenthesis",
	"quizzes": "quiz", "wolves": "wolf", "halves": "half", "shelves": "shelf", "leaves": "leaf",
	"knives": "knife", "wives": "wife", "lives": "life", "calves": "calf", "thieves": "thief",
	"loaves": "loaf", "selves": "self", "heroes": "hero", "potatoes": "potato", "tomatoes": "tomato",
	"echoes": "echo", "vetoes": "veto", "torpedoes": "torpedo", "mosquitoes": "mosquito",
	"volcanoes": "volcano", "cacti": "cactus", "alumni": "alumnus", "curricula": "curriculum",
	"caches": "cache", "niches": "niche", "headaches": "headache", "avalanches": "avalanche",
	"cliches": "cliche", "movies": "movie", "cookies": "cookie", "zombies": "zombie", "rookies": "rookie",
	"pies": "pie", "ties": "tie", "lies": "lie", "dies": "die", "calories": "calorie", "selfies": "selfie",
	"smoothies": "smoothie", "goalies": "goalie", "brownies": "brownie", "genies": "genie",
	"hippies": "hippie", "aunties": "auntie", "freebies": "freebie", "sweeties": "sweetie",
	"abuses": "abuse", "excuses": "excuse", "fuses": "fuse", "muses": "muse", "refuses": "refuse",
	"reuses": "reuse", "uses": "use", "accuses": "accuse", "ruses": "ruse", "recluses": "recluse",
	"bases": "base", "databases": "database",
}

// uncountable words are their own singular.
var uncountable = set("data", "metadata", "media", "news", "series", "species", "sheep", "fish", "deer",
	"equipment", "information", "info", "inventory", "staff", "personnel", "feedback", "software",
	"hardware", "furniture", "luggage", "baggage", "mail", "music", "audio", "analytics", "logistics",
	"physics", "mathematics", "economics", "statistics", "ethics", "politics", "athletics",
	"canvas", "alias", "atlas", "gas", "bias", "christmas", "aircraft", "spacecraft", "offspring",
	"moose", "swine", "bison", "salmon", "trout", "corps", "chassis", "means", "headquarters",
	"lens", "premises", "progress", "research", "rice", "money", "traffic", "weather", "cash",
	"sms", "gps", "os", "bonus", "census", "corpus", "genus", "campus", "status", "virus", "bus",
	"address", "business", "access", "process", "class", "glass", "boss", "loss", "pass")

// Singularize returns the singular of an English noun (lower case in, lower
// case out). It covers the regular rules and the irregular words that occur
// in schemas; a word already singular is returned unchanged.
func Singularize(w string) string {
	if s, ok := irregular[w]; ok {
		return s
	}
	if uncountable[w] || len(w) < 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zzes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "uses"):
		// statuses → status, campuses → campus; houses, causes → house, cause.
		stem := w[:len(w)-2]
		if c := stem[len(stem)-3]; !strings.ContainsRune("aeiou", rune(c)) {
			return stem
		}
		return w[:len(w)-1]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"),
		strings.HasSuffix(w, "ous"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// entityType is the entity name for a table: its words with the last one
// singular, in PascalCase (order_items → OrderItem). Warehouse prefixes such
// as tbl_ or dim_ are dropped when words remain.
func entityType(table string) string {
	words := naming.Words(table)
	for len(words) > 1 && tablePrefixes[words[0]] {
		words = words[1:]
	}
	for len(words) > 1 && tableSuffixes[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return table
	}
	words[len(words)-1] = Singularize(words[len(words)-1])
	var b strings.Builder
	for _, w := range words {
		b.WriteString(title(w))
	}
	return b.String()
}

var (
	tablePrefixes = set("tbl", "tb", "dim", "fact", "fct", "stg", "vw")
	tableSuffixes = set("v", "vw", "view", "tbl")
)

func title(w string) string {
	rs := []rune(w)
	if len(rs) == 0 {
		return w
	}
	rs[0] = unicode.ToUpper(rs[0])
	return string(rs)
}

// humanize renders an entity type for prose: OrderItem → "order item".
func humanize(typ string) string {
	return strings.Join(naming.Words(typ), " ")
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
