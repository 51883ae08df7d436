package warehouse

import (
	"errors"
	"testing"
)

// A nil Grammar stands for an engine nobody named. Until the engines'
// grammars are registered there is nothing to hold a statement to, and
// accepting it would make the guard's safety depend on an import.
func TestNilGrammarUnregisteredRefuses(t *testing.T) {
	registered.Lock()
	saved := registered.grammars
	registered.grammars = nil
	registered.Unlock()
	t.Cleanup(func() {
		registered.Lock()
		registered.grammars = saved
		registered.Unlock()
	})

	var g *Grammar
	if err := g.Check("SELECT 1"); !errors.Is(err, ErrRejected) {
		t.Errorf("nil Grammar, nothing registered: Check = %v, want a refusal", err)
	}
	if toks, err := g.Tokenize("SELECT `a`"); err != nil || len(toks) != 2 || toks[1].Kind != TokenQuotedIdent {
		t.Errorf("nil Grammar: Tokenize = %v, %v; want the generic lexer's SELECT, `a`", toks, err)
	}
}
