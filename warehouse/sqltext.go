package warehouse

import "strings"

// Unwrap takes off one pair of parentheses around the whole of expr, as
// engines write a check's or a generated column's expression. expr comes
// back as it is when the first pair closes early ((a) AND (b)) or the
// grammar cannot read it.
func Unwrap(g *Grammar, expr string) string {
	toks, err := g.Tokenize(expr)
	if err != nil || len(toks) < 2 || !toks[0].IsPunct("(") || !toks[len(toks)-1].IsPunct(")") {
		return expr
	}
	depth := 0
	for i, t := range toks {
		switch {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			if depth--; depth == 0 && i < len(toks)-1 {
				return expr // (a) AND (b): the first pair closes early
			}
		}
	}
	last := toks[len(toks)-1]
	return strings.TrimSpace(expr[toks[0].Pos+1 : last.Pos])
}

// ViewQuery is a CREATE VIEW statement's query, as every engine reports a
// view's definition: the text after its AS (past a column list in
// parentheses, and never a quoted "AS"), without a closing semicolon; ""
// when the grammar cannot read it or there is no AS.
func ViewQuery(g *Grammar, create string) string {
	toks, err := g.Tokenize(create)
	if err != nil {
		return ""
	}
	for i := 0; i < len(toks); i++ {
		switch {
		case toks[i].IsPunct("("):
			if end := ClosingParen(toks, i); end >= 0 {
				i = end // the view's column list
			}
		case toks[i].IsWord("AS"):
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(create[toks[i].Pos+len(toks[i].Text):]), ";"))
		}
	}
	return ""
}

// ClosingParen returns the index of the ")" that closes the "(" at i, or -1.
func ClosingParen(toks []Token, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		switch {
		case toks[i].IsPunct("("):
			depth++
		case toks[i].IsPunct(")"):
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// QualifiedName renders the dotted name around toks[i] (catalog.schema.name)
// for a refusal, cut to one readable line.
func QualifiedName(toks []Token, i int) string {
	start := i
	for start >= 2 && toks[start-1].IsPunct(".") && toks[start-2].IsIdent() {
		start -= 2
	}
	end := i
	for end+2 < len(toks) && toks[end+1].IsPunct(".") && toks[end+2].IsIdent() {
		end += 2
	}
	var parts []string
	for j := start; j <= end; j += 2 {
		parts = append(parts, toks[j].Text)
	}
	return Shorten(strings.Join(parts, "."))
}

// Shorten cuts a name for a refusal, which is one readable line.
func Shorten(s string) string {
	if len(s) > 120 {
		return strings.ToValidUTF8(s[:120], "") + "…"
	}
	return s
}

// Balanced refuses unbalanced parentheses: the engine would not parse
// them, and a guard over tokens reads every "(" with its ")".
func Balanced(toks []Token) error {
	depth := 0
	for _, t := range toks {
		switch {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			if depth--; depth < 0 {
				return Rejectf("a ) at offset %d closes nothing", t.Pos)
			}
		}
	}
	if depth != 0 {
		return Rejectf("%d ( left open", depth)
	}
	return nil
}

// ColumnList refuses anything but names and commas in a column list (an
// alias's or a CTE's), where anything else would be an expression a guard
// over tokens did not check.
func ColumnList(toks []Token) error {
	for _, t := range toks {
		if !t.IsIdent() && !t.IsPunct(",") {
			return Rejectf("%s is not allowed in a column list", Shorten(t.Text))
		}
	}
	return nil
}
