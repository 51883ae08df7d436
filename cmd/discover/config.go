package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/lint"
	"github.com/discover-db/discover/naming"
)

// defaultConfig is read when --config is not given and the file exists.
const defaultConfig = "discover.yaml"

// configPath is the configuration file a run reads: --config, else
// ./discover.yaml.
func configPath(o *runOptions) string {
	if o.config != "" {
		return o.config
	}
	return defaultConfig
}

// lineError is a mistake at a line of the configuration file; applyConfig
// puts the file's path in front, as PATH:LINE: like a compiler.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("%d: %s", e.line, e.msg) }

func lineErrorf(line int, format string, a ...any) error {
	return &lineError{line: line, msg: fmt.Sprintf(format, a...)}
}

// fileSettings are the configuration file's keys that are no flags.
type fileSettings struct {
	comments   []experts.UserComment
	relations  []experts.UserRelation
	vocabulary naming.Vocabulary
	lint       lint.Config
}

// applyConfig fills every flag still unset (not on the command line, not in
// DISCOVER_*) from the configuration file, and returns the file's
// relations and vocabulary. Keys are the long flag names with _ for -; an
// unknown key or a value of the wrong type is an error naming the file's
// line, the key and what it takes.
func applyConfig(fs *pflag.FlagSet, path string, explicit bool) (fileSettings, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		return fileSettings{}, nil
	}
	if err != nil {
		return fileSettings{}, usagef("--config %s: %v", path, errors.Unwrap(err))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return fileSettings{}, usagef("%s: %v", path, err)
	}
	set, err := applyDocument(fs, &doc)
	var le *lineError
	if errors.As(err, &le) {
		return fileSettings{}, usagef("%s:%d: %s", path, le.line, le.msg)
	}
	return set, err
}

// applyDocument applies the file's keys in the order the file gives them.
func applyDocument(fs *pflag.FlagSet, doc *yaml.Node) (fileSettings, error) {
	var set fileSettings
	if len(doc.Content) == 0 {
		return set, nil // an empty file, or only comments
	}
	top := resolve(doc.Content[0])
	if top.Kind != yaml.MappingNode {
		return set, lineErrorf(top.Line, "want key: value lines, such as max_iterations: 10")
	}
	first := map[string]int{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		key, val := top.Content[i], resolve(top.Content[i+1])
		k := key.Value
		if line, dup := first[k]; dup {
			return set, lineErrorf(key.Line, "%s: given twice (first on line %d)", k, line)
		}
		first[k] = key.Line
		var err error
		switch k {
		case "comments":
			set.comments, err = parseComments(val)
		case "relations":
			set.relations, err = parseRelations(val)
		case "vocabulary":
			set.vocabulary, err = parseVocabulary(val)
		case "lint":
			set.lint, err = parseLint(val)
		default:
			err = applyKey(fs, key, val)
		}
		if err != nil {
			return set, err
		}
	}
	return set, nil
}

// defaultDomainWeight is a domain word's weight when the file lists the
// words without one: shared with few other domains.
const defaultDomainWeight = 2

// parseDomains reads vocabulary: domains: a domain per key, and under it
// a list of words (each of weight defaultDomainWeight) or words with
// their weights from 1 (shared with other domains) to 3 (nearly proof).
func parseDomains(n *yaml.Node, word func(string, *yaml.Node) (string, error), list func(string, *yaml.Node) ([]string, error)) (map[string]map[string]float64, error) {
	if n.Kind != yaml.MappingNode {
		return nil, lineErrorf(n.Line, "vocabulary: domains: want a domain per key (energy: [turbine, substation]), got %s", describe(n))
	}
	out := map[string]map[string]float64{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		// A domain is a label as the report prints it (real_estate), not a
		// word of names: one token of letters, digits and underscores.
		dn := resolve(n.Content[i])
		d := strings.ToLower(strings.TrimSpace(dn.Value))
		if dn.Kind != yaml.ScalarNode || d == "" || strings.Trim(d, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
			return nil, lineErrorf(dn.Line, "vocabulary: domains: want a domain name of letters, digits and underscores, got %s", describe(dn))
		}
		if out[d] != nil {
			return nil, lineErrorf(n.Content[i].Line, "vocabulary: domains: %s given twice", d)
		}
		out[d] = map[string]float64{}
		val := resolve(n.Content[i+1])
		switch val.Kind {
		case yaml.SequenceNode:
			ws, err := list("domains: "+d, val)
			if err != nil {
				return nil, err
			}
			for _, w := range ws {
				out[d][w] = defaultDomainWeight
			}
		case yaml.MappingNode:
			for j := 0; j+1 < len(val.Content); j += 2 {
				w, err := word("domains: "+d, val.Content[j])
				if err != nil {
					return nil, err
				}
				wn := resolve(val.Content[j+1])
				weight, perr := strconv.ParseFloat(wn.Value, 64)
				if wn.Kind != yaml.ScalarNode || perr != nil || weight < 1 || weight > 3 {
					return nil, lineErrorf(wn.Line, "vocabulary: domains: %s: %s: want a weight from 1 to 3, got %s", d, w, describe(wn))
				}
				out[d][w] = weight
			}
		default:
			return nil, lineErrorf(val.Line, "vocabulary: domains: %s: want a list of words or word: weight lines, got %s", d, describe(val))
		}
	}
	return out, nil
}

// parseVocabulary reads the vocabulary key: what the project adds to the
// words the name rules know (naming.Vocabulary).
//
//	vocabulary:
//	  synonyms: {kunde: customer, auftrag: order}
//	  actors: [clinician]
//	  people: [kunde]
//	  roles: [reviewer]
//	  table_prefixes: [raw, src]
//	  table_suffixes: [hist]
//	  domains:
//	    energy: [turbine, substation]   # weight 2 each
//	    legal: {docket: 3, tribunal: 2}
func parseVocabulary(n *yaml.Node) (naming.Vocabulary, error) {
	var v naming.Vocabulary
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return v, nil
	}
	if n.Kind != yaml.MappingNode {
		return v, lineErrorf(n.Line, "vocabulary: want synonyms:, actors:, people:, roles:, table_prefixes:, table_suffixes: or domains: under it, got %s", describe(n))
	}
	word := func(key string, w *yaml.Node) (string, error) {
		w = resolve(w)
		if w.Kind != yaml.ScalarNode || len(naming.NameTokens(w.Value)) != 1 {
			return "", lineErrorf(w.Line, "vocabulary: %s: want one word, got %s", key, describe(w))
		}
		return w.Value, nil
	}
	list := func(key string, n *yaml.Node) ([]string, error) {
		if n.Kind != yaml.SequenceNode {
			return nil, lineErrorf(n.Line, "vocabulary: %s: want a list of words, got %s", key, describe(n))
		}
		var out []string
		for _, e := range n.Content {
			w, err := word(key, e)
			if err != nil {
				return nil, err
			}
			out = append(out, w)
		}
		return out, nil
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], resolve(n.Content[i+1])
		if seen[key.Value] {
			return v, lineErrorf(key.Line, "vocabulary: %s given twice", key.Value)
		}
		seen[key.Value] = true
		var err error
		switch key.Value {
		case "synonyms":
			if val.Kind != yaml.MappingNode {
				return v, lineErrorf(val.Line, "vocabulary: synonyms: want word: word lines (kunde: customer), got %s", describe(val))
			}
			v.Synonyms = map[string]string{}
			for j := 0; j+1 < len(val.Content); j += 2 {
				from, err := word("synonyms", val.Content[j])
				if err != nil {
					return v, err
				}
				to, err := word("synonyms", val.Content[j+1])
				if err != nil {
					return v, err
				}
				v.Synonyms[from] = to
			}
		case "actors":
			v.Actors, err = list("actors", val)
		case "people":
			v.People, err = list("people", val)
		case "roles":
			v.Roles, err = list("roles", val)
		case "table_prefixes":
			v.TablePrefixes, err = list("table_prefixes", val)
		case "table_suffixes":
			v.TableSuffixes, err = list("table_suffixes", val)
		case "domains":
			v.Domains, err = parseDomains(val, word, list)
		default:
			err = lineErrorf(key.Line, "vocabulary: unknown key %q (synonyms, actors, people, roles, table_prefixes, table_suffixes, domains)", key.Value)
		}
		if err != nil {
			return v, err
		}
	}
	return v, nil
}

// applyKey sets the flag a key names, unless the command line or DISCOVER_*
// set it already.
func applyKey(fs *pflag.FlagSet, key, val *yaml.Node) error {
	k := key.Value
	name := strings.ReplaceAll(k, "_", "-")
	fl := fs.Lookup(name)
	if fl == nil || name == "config" || name == "help" || strings.Contains(k, "-") {
		return lineErrorf(key.Line, "unknown key %q", k)
	}
	if fl.Changed {
		// Flags and DISCOVER_* override the file, but a wrong value in
		// the file is still an error: check it on a scratch flag.
		fl = newRootCmd(nil, io.Discard, io.Discard).Flags().Lookup(name)
		if err := setFromNode(fl, val); err != nil {
			return lineErrorf(val.Line, "%s: %v", k, err)
		}
		return nil
	}
	if err := setFromNode(fl, val); err != nil {
		return lineErrorf(val.Line, "%s: %v", k, err)
	}
	fl.Changed = true
	return nil
}

// resolve follows an alias (*name) to the node it stands for.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func setFromNode(fl *pflag.Flag, n *yaml.Node) error {
	want := wantType(fl.Value.Type())
	if sv, ok := fl.Value.(pflag.SliceValue); ok {
		var list []string
		switch n.Kind {
		case yaml.SequenceNode:
			if err := n.Decode(&list); err != nil {
				return fmt.Errorf("want %s, got a list of other things than names", want)
			}
		case yaml.ScalarNode:
			list = splitList(n.Value)
		default:
			return fmt.Errorf("want %s, got %s", want, nodeKind(n))
		}
		return sv.Replace(list)
	}
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("want %s, got %s", want, nodeKind(n))
	}
	if err := fl.Value.Set(n.Value); err != nil {
		return badValue(fl.Value.Type(), n.Value, err)
	}
	return nil
}

// nodeKind names a YAML value that is not a single one, for messages.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping (key: value lines)"
	default:
		return "nothing"
	}
}

// parseRelations reads the relations list: entries of from and to, each
// "table.column" or a list of them for a composite reference. Each
// relation keeps its entry's line, for the check against the database.
func parseRelations(n *yaml.Node) ([]experts.UserRelation, error) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return nil, nil // "relations:" with nothing under it
	}
	if n.Kind != yaml.SequenceNode {
		return nil, lineErrorf(n.Line, "relations: want a list of entries with from: and to:, got %s", describe(n))
	}
	var out []experts.UserRelation
	for _, e := range n.Content {
		rel, err := parseRelation(resolve(e))
		if err != nil {
			return nil, err
		}
		out = append(out, rel)
	}
	return out, nil
}

// parseComments reads comments: the team's description of a table or view
// ("orders", "sales.orders") or of a column ("orders.status"), one text per
// key. What a key names is checked against the database before the run
// (commentProblems), as a relation's tables are.
func parseComments(n *yaml.Node) ([]experts.UserComment, error) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return nil, nil // "comments:" with nothing under it
	}
	if n.Kind != yaml.MappingNode {
		return nil, lineErrorf(n.Line, `comments: want a description per table or table.column (orders: "One row per order."), got %s`, describe(n))
	}
	var out []experts.UserComment
	first := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := resolve(n.Content[i]), resolve(n.Content[i+1])
		k := strings.TrimSpace(key.Value)
		if key.Kind != yaml.ScalarNode || k == "" {
			return nil, lineErrorf(key.Line, "comments: want a table or table.column as the key, got %s", describe(key))
		}
		if line, dup := first[k]; dup {
			return nil, lineErrorf(key.Line, "comments: %s: given twice (first on line %d)", k, line)
		}
		first[k] = key.Line
		// A number or a date would be a description too, but a list or a
		// mapping is a mistake of indentation.
		text := strings.TrimSpace(val.Value)
		if val.Kind != yaml.ScalarNode || val.ShortTag() == "!!null" || text == "" {
			return nil, lineErrorf(val.Line, "comments: %s: want a description in words, got %s", k, describeValue(val))
		}
		out = append(out, experts.UserComment{Key: k, Text: text, Line: key.Line})
	}
	return out, nil
}

// describeValue is describe, with an empty value named as nothing.
func describeValue(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!null" || strings.TrimSpace(n.Value) == "") {
		return "nothing"
	}
	return describe(n)
}

// describe names any YAML value for a message.
func describe(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return fmt.Sprintf("%q", n.Value)
	}
	return nodeKind(n)
}

func parseRelation(e *yaml.Node) (experts.UserRelation, error) {
	if e.Kind != yaml.MappingNode {
		return experts.UserRelation{}, lineErrorf(e.Line, "relations: want an entry with from: and to:, got %s", describe(e))
	}
	var from, to *yaml.Node
	for i := 0; i+1 < len(e.Content); i += 2 {
		key, val := e.Content[i], resolve(e.Content[i+1])
		var slot **yaml.Node
		switch key.Value {
		case "from":
			slot = &from
		case "to":
			slot = &to
		default:
			// A typo such as "form:" must not be ignored.
			return experts.UserRelation{}, lineErrorf(key.Line, "relations: unknown key %q (from, to)", key.Value)
		}
		if *slot != nil {
			return experts.UserRelation{}, lineErrorf(key.Line, "relations: %s: given twice in one entry", key.Value)
		}
		*slot = val
	}
	ft, fc, err := columnRefs(from)
	if err != nil {
		return experts.UserRelation{}, lineErrorf(lineOf(from, e), "relations: from: %v", err)
	}
	tt, tc, err := columnRefs(to)
	if err != nil {
		return experts.UserRelation{}, lineErrorf(lineOf(to, e), "relations: to: %v", err)
	}
	if len(fc) != len(tc) {
		return experts.UserRelation{}, lineErrorf(e.Line, "relations: %d columns reference %d", len(fc), len(tc))
	}
	return experts.UserRelation{FromTable: ft, FromColumns: fc, ToTable: tt, ToColumns: tc, Line: e.Line}, nil
}

// lineOf is the line of a value, or of its entry when the value is missing.
func lineOf(n, entry *yaml.Node) int {
	if n == nil {
		return entry.Line
	}
	return n.Line
}

// columnRefs reads "table.column" or a list of them (one table).
func columnRefs(n *yaml.Node) (string, []string, error) {
	if n == nil {
		return "", nil, fmt.Errorf("missing")
	}
	var refs []string
	switch n.Kind {
	case yaml.ScalarNode:
		refs = []string{n.Value}
	case yaml.SequenceNode:
		if err := n.Decode(&refs); err != nil {
			return "", nil, fmt.Errorf("want table.column or a list of them")
		}
	default:
		return "", nil, fmt.Errorf("want table.column or a list of them")
	}
	if len(refs) == 0 {
		return "", nil, fmt.Errorf("empty")
	}
	var table string
	var cols []string
	for _, r := range refs {
		i := strings.LastIndex(r, ".")
		if i <= 0 || i == len(r)-1 {
			return "", nil, fmt.Errorf("%q is not table.column", r)
		}
		t, c := r[:i], r[i+1:]
		if table != "" && t != table {
			return "", nil, fmt.Errorf("a composite reference must stay in one table (%s, %s)", table, t)
		}
		table = t
		cols = append(cols, c)
	}
	return table, cols, nil
}
