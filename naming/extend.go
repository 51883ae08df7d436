package naming

import (
	"strings"
	"sync/atomic"
)

// Vocabulary is what a project adds to the embedded vocabulary, from
// discover.yaml's vocabulary key: its own words for entities (a language
// other than English, a house abbreviation), its tables of people, its
// naming conventions on table names. Words are compared lower-case and
// singular, as the name rules read names.
type Vocabulary struct {
	Synonyms      map[string]string // a schema's word → the word the rules use (kunde → customer)
	Actors        []string          // entities whose rows are people who act
	People        []string          // words for people (people.txt)
	Roles         []string          // words naming a person by a role (roles.txt: reviewer)
	TablePrefixes []string          // table-name words before the entity (raw_, src_)
	TableSuffixes []string          // after it (_hist, _snapshot)
	// Domains are words that suggest a business domain, by domain, each
	// with its weight (1 shared with other domains .. 3 nearly proof), for
	// the semantic expert's guess beside its own lexicon.
	Domains map[string]map[string]float64
}

// extended is a Vocabulary in the form the lookups read.
type extended struct {
	synonyms           map[string]string
	actors, people     map[string]bool
	roles              map[string]bool
	domains            map[string]map[string]float64
	prefixes, suffixes map[string]bool
}

// extension is the vocabulary in use beside the embedded one: one run's,
// set before its experts start.
var extension atomic.Pointer[extended]

// generation counts the calls of Use, so that what is derived from the
// vocabulary and remembered (a memo of split names) can tell it changed.
var generation atomic.Uint64

// Generation is how many times Use has been called: a memo of results
// that depend on the vocabulary is stale when it changed.
func Generation() uint64 { return generation.Load() }

// Use makes v the vocabulary added to the embedded one, replacing what an
// earlier Use added; the zero Vocabulary leaves the embedded one alone.
// A project's words come first: a synonym it gives overrides the
// embedded one for the same word.
func Use(v Vocabulary) {
	defer generation.Add(1)
	if len(v.Synonyms) == 0 && len(v.Actors) == 0 && len(v.People) == 0 && len(v.Roles) == 0 && len(v.TablePrefixes) == 0 && len(v.TableSuffixes) == 0 && len(v.Domains) == 0 {
		extension.Store(nil)
		return
	}
	e := &extended{synonyms: map[string]string{}, actors: vocabularySet(v.Actors), people: vocabularySet(v.People), roles: vocabularySet(v.Roles),
		prefixes: vocabularySet(v.TablePrefixes), suffixes: vocabularySet(v.TableSuffixes)}
	for w, s := range v.Synonyms {
		e.synonyms[VocabularyWord(w)] = VocabularyWord(s)
	}
	if len(v.Domains) > 0 {
		e.domains = map[string]map[string]float64{}
		for d, ws := range v.Domains {
			d = strings.ToLower(strings.TrimSpace(d))
			if e.domains[d] == nil {
				e.domains[d] = map[string]float64{}
			}
			for w, weight := range ws {
				e.domains[d][VocabularyWord(w)] = weight
			}
		}
	}
	extension.Store(e)
}

// Domains are the domain words the project added (Vocabulary.Domains),
// lower-case and singular, by domain; nil when it added none. The caller
// must not change them.
func Domains() map[string]map[string]float64 {
	if e := extension.Load(); e != nil {
		return e.domains
	}
	return nil
}

// VocabularyWord is a word as the vocabulary compares it: lower-case and
// singular.
func VocabularyWord(w string) string { return Singular(strings.ToLower(strings.TrimSpace(w))) }

func vocabularySet(ws []string) map[string]bool {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = VocabularyWord(w)
	}
	return wordSet(out...)
}
