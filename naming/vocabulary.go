package naming

import (
	_ "embed"
	"strings"
)

// The vocabulary the name rules share, as data: synonyms.txt, actors.txt,
// people.txt, affixes.txt, roles.txt, selfroles.txt, generic.txt,
// keysuffixes.txt, supertypes.txt and expansions.txt.
var (
	//go:embed synonyms.txt
	synonymsText string
	//go:embed actors.txt
	actorsText string
	//go:embed affixes.txt
	affixesText string
	//go:embed people.txt
	peopleText string
	//go:embed roles.txt
	rolesText string
	//go:embed selfroles.txt
	selfRolesText string
	//go:embed generic.txt
	genericText string
	//go:embed keysuffixes.txt
	keySuffixesText string
	//go:embed supertypes.txt
	supertypesText string
	//go:embed expansions.txt
	expansionsText string

	synonyms    = pairs(synonymsText)
	actors      = words(actorsText)
	affixes     = pairs(affixesText)
	extensions  = marked(affixesText, "extension")
	people      = words(peopleText)
	roles       = words(rolesText)
	selfRoles   = words(selfRolesText)
	generic     = words(genericText)
	lookups     = marked(genericText, "lookup")
	keySuffixes = pairs(keySuffixesText)
	keyBefore   = marked(keySuffixesText, "before")
	supertypes  = words(supertypesText)
	expansions  = expansionLines(expansionsText)
)

func expansionLines(text string) map[string][]string {
	m := map[string][]string{}
	for _, f := range DataLines(text) {
		if len(f) > 1 {
			m[f[0]] = f[1:]
		}
	}
	return m
}

// Expand returns the words w stands for (uid: user id), or nil.
func Expand(w string) []string { return expansions[w] }

// PersonSupertype reports whether entity, the last word of a table's
// entity, generalizes the people of a schema (person, party): a table of
// one kind of person may take its keys as its own.
func PersonSupertype(entity string) bool { return supertypes[entity] }

// KeySuffix reports whether w, the last word of a column's name, marks it
// as an identifier (id, key, no, code), and which kind of identifier.
func KeySuffix(w string) (kind string, ok bool) {
	kind, ok = keySuffixes[w]
	return kind, ok
}

// KeyPrefix reports whether w, the first word of a column's name, marks it
// as an identifier of what the words after it name (id_customer,
// hk_customer), and which kind of identifier.
func KeyPrefix(w string) (kind string, ok bool) {
	if !keyBefore[w] {
		return "", false
	}
	return KeySuffix(w)
}

// Role reports whether w, the last word of a column's name before its key
// suffix, names a person by the part they play for the row (manager,
// advisor, reviewer): the column holds a key of a table of people who act.
func Role(w string) bool {
	if e := extension.Load(); e != nil && e.roles[w] {
		return true
	}
	return roles[w]
}

// SelfRole reports whether w, the first word of a column's name, names
// another row of the column's own table (parent, manager, next).
func SelfRole(w string) bool { return selfRoles[w] }

// Generic reports whether w names no entity on its own (type, status,
// code): a table named after it with another word is named by that word.
func Generic(w string) bool { return generic[w] }

// Lookup reports whether w, a generic word (Generic), may end the name of
// a table whose rows are the entity the words before it name: role_type,
// company_name.
func Lookup(w string) bool { return lookups[w] }

// Person reports whether w, a word of a table's or a column's name, names
// people (customer, student, patient): what a name column of theirs is a
// person's name.
func Person(w string) bool {
	if e := extension.Load(); e != nil && e.people[w] {
		return true
	}
	return people[w]
}

// TablePrefix reports whether w, the first word of a table's name, is a
// naming convention rather than a word of the entity (tbl_, dim_, stg_).
func TablePrefix(w string) bool {
	if e := extension.Load(); e != nil && e.prefixes[w] {
		return true
	}
	return affixes[w] == "prefix" || affixes[w] == "both"
}

// Extension reports whether table's name carries a naming-convention
// word that marks it as an extension of the table of the same entity
// (sat_customer of hub_customer).
func Extension(table string) bool {
	toks := NameTokens(table)
	if len(toks) < 2 {
		return false
	}
	return (extensions[toks[0]] && TablePrefix(toks[0])) || (extensions[toks[len(toks)-1]] && TableSuffix(toks[len(toks)-1]))
}

// TableSuffix reports whether w, the last word of a table's name, is a
// naming convention rather than a word of the entity (_dim, _fact, _v).
func TableSuffix(w string) bool {
	if e := extension.Load(); e != nil && e.suffixes[w] {
		return true
	}
	return affixes[w] == "suffix" || affixes[w] == "both"
}

// Synonym is the one word a schema's word for an entity, or its
// abbreviation, is brought to (client and cust → customer).
func Synonym(w string) (string, bool) {
	if e := extension.Load(); e != nil {
		if s, ok := e.synonyms[w]; ok {
			return s, true
		}
	}
	s, ok := synonyms[w]
	return s, ok
}

// Acts reports whether an entity's rows are people who act (user,
// employee): what a column naming who did something may point at.
func Acts(entity string) bool {
	if e := extension.Load(); e != nil && e.actors[entity] {
		return true
	}
	return actors[entity]
}

// DataLines are a data file's lines split in fields, without comments
// (lines whose first field starts with #) and blank lines: how every
// vocabulary file, the experts' own included, is read.
func DataLines(text string) [][]string {
	var out [][]string
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			out = append(out, f)
		}
	}
	return out
}

// marked reads the words of a vocabulary file whose line ends in mark
// after the word and its fields: "sat prefix extension", "type lookup",
// "hk id before".
func marked(text, mark string) map[string]bool {
	m := map[string]bool{}
	for _, f := range DataLines(text) {
		if len(f) >= 2 && f[len(f)-1] == mark {
			m[f[0]] = true
		}
	}
	return m
}

func pairs(text string) map[string]string {
	m := map[string]string{}
	for _, f := range DataLines(text) {
		if len(f) >= 2 {
			m[f[0]] = f[1]
		}
	}
	return m
}

func words(text string) map[string]bool {
	m := map[string]bool{}
	for _, f := range DataLines(text) {
		m[f[0]] = true
	}
	return m
}
