package warehouse

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// ViewReads says which tables a database's views read, from their
// definitions: every table a definition names (a word or a quoted
// identifier of the engine's grammar), and, through every view it names,
// that view's. An engine reads no table a view does not name, so a
// content signal of a view (ContentSignaler) can join those of the
// tables it reads. Names match folded to lower case; one name may stand
// for several objects (one per schema), all counted.
type ViewReads struct {
	Grammar *Grammar
	Tables  map[string][]string // folded name → the tables of that name, as the caller names them
	Views   map[string][]string // folded name → the views of that name
	Defs    map[string]string   // view, as Views names it → its definition
	// Refuses, when set, reports that the token at i makes a view read
	// what no table of the database vouches for (a function reading
	// files): Reads is then not ok.
	Refuses func(toks []Token, i int) bool
}

// Reads lists the tables view reads, sorted, each once; ok is false when
// a definition it depends on cannot be tokenized, or a token is refused.
func (v ViewReads) Reads(view string) (tables []string, ok bool) {
	seen := map[string]bool{}
	var walk func(view string) bool
	walk = func(view string) bool {
		if seen[view] {
			return true
		}
		seen[view] = true
		toks, err := v.Grammar.Tokenize(v.Defs[view])
		if err != nil {
			return false
		}
		for i, t := range toks {
			if v.Refuses != nil && v.Refuses(toks, i) {
				return false
			}
			if t.Kind != TokenWord && t.Kind != TokenQuotedIdent {
				continue
			}
			w := strings.ToLower(t.Ident())
			tables = append(tables, v.Tables[w]...)
			for _, named := range v.Views[w] {
				if !walk(named) {
					return false
				}
			}
		}
		return true
	}
	if !walk(view) {
		return nil, false
	}
	slices.Sort(tables)
	return slices.Compact(tables), true
}

// JoinSignals is one signal for what reads the tables read (sorted), each
// with its signal: it changes when any of theirs does.
func JoinSignals(read []string, signal func(table string) string) string {
	h := sha256.New()
	for _, n := range read {
		fmt.Fprintf(h, "%s\x00%s\x00", n, signal(n))
	}
	return fmt.Sprintf("reads %d tables %s", len(read), hex.EncodeToString(h.Sum(nil)[:16]))
}
