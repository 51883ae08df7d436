package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/discover-db/discover/experts"
)

// defaultConfig is read when --config is not given and the file exists.
const defaultConfig = "discover.yaml"

// fileOnlyKeys are configuration keys that are not flags.
var fileOnlyKeys = map[string]bool{"relations": true}

// applyConfig fills every flag still unset (not on the command line, not in
// DISCOVER_*) from the configuration file, and returns the file's
// relations. Keys are the long flag names with _ for -; an unknown key or a
// value of the wrong type is an error naming the key.
func applyConfig(fs *pflag.FlagSet, path string, explicit bool) ([]experts.UserRelation, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		return nil, nil
	}
	if err != nil {
		return nil, usagef("--config %s: %v", path, errors.Unwrap(err))
	}
	var doc map[string]yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rels []experts.UserRelation
	for _, k := range keys {
		node := doc[k]
		if k == "relations" {
			if rels, err = parseRelations(&node); err != nil {
				return nil, usagef("%s: relations: %v", path, err)
			}
			continue
		}
		name := strings.ReplaceAll(k, "_", "-")
		fl := fs.Lookup(name)
		if fl == nil || name == "config" || name == "help" || strings.Contains(k, "-") {
			return nil, usagef("%s: unknown key %q", path, k)
		}
		if fl.Changed {
			// Flags and DISCOVER_* override the file, but a wrong value in
			// the file is still an error: check it on a scratch flag.
			scratch := newRootCmd(nil, io.Discard, io.Discard).Flags().Lookup(name)
			if err := setFromNode(scratch, &node); err != nil {
				return nil, usagef("%s: %s: %v", path, k, err)
			}
			continue
		}
		if err := setFromNode(fl, &node); err != nil {
			return nil, usagef("%s: %s: %v", path, k, err)
		}
		fl.Changed = true
	}
	return rels, nil
}

func setFromNode(fl *pflag.Flag, n *yaml.Node) error {
	if sv, ok := fl.Value.(pflag.SliceValue); ok {
		var list []string
		switch n.Kind {
		case yaml.SequenceNode:
			if err := n.Decode(&list); err != nil {
				return fmt.Errorf("want a list of strings")
			}
		case yaml.ScalarNode:
			list = splitList(n.Value)
		default:
			return fmt.Errorf("want a list")
		}
		return sv.Replace(list)
	}
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("want a single %s value", fl.Value.Type())
	}
	return fl.Value.Set(n.Value)
}

// relationSpec is one entry of relations: from and to are "table.column"
// or lists of them for a composite reference.
type relationSpec struct {
	From yaml.Node `yaml:"from"`
	To   yaml.Node `yaml:"to"`
}

func parseRelations(n *yaml.Node) ([]experts.UserRelation, error) {
	var specs []relationSpec
	dec := func() error {
		// KnownFields: a typo such as "form:" must not be ignored.
		b, err := yaml.Marshal(n)
		if err != nil {
			return err
		}
		d := yaml.NewDecoder(strings.NewReader(string(b)))
		d.KnownFields(true)
		if err := d.Decode(&specs); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		return nil
	}
	if err := dec(); err != nil {
		return nil, err
	}
	var out []experts.UserRelation
	for i, s := range specs {
		ft, fc, err := columnRefs(&s.From)
		if err != nil {
			return nil, fmt.Errorf("entry %d: from: %v", i+1, err)
		}
		tt, tc, err := columnRefs(&s.To)
		if err != nil {
			return nil, fmt.Errorf("entry %d: to: %v", i+1, err)
		}
		if len(fc) != len(tc) {
			return nil, fmt.Errorf("entry %d: %d columns reference %d", i+1, len(fc), len(tc))
		}
		out = append(out, experts.UserRelation{FromTable: ft, FromColumns: fc, ToTable: tt, ToColumns: tc})
	}
	return out, nil
}

// columnRefs reads "table.column" or a list of them (one table).
func columnRefs(n *yaml.Node) (string, []string, error) {
	var refs []string
	switch n.Kind {
	case yaml.ScalarNode:
		refs = []string{n.Value}
	case yaml.SequenceNode:
		if err := n.Decode(&refs); err != nil {
			return "", nil, fmt.Errorf("want table.column or a list of them")
		}
	case 0:
		return "", nil, fmt.Errorf("missing")
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
