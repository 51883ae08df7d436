package warehouse

import "strings"

// FromNames lists the names a query reads from, as the grammar reads it:
// each name that follows FROM or JOIN, or a comma in a FROM clause, split
// into its parts (schema.table is two). A parenthesis there is a subquery,
// read on its own, or a parenthesized join, whose names are read (Trino
// keeps a view's query so: FROM (orders o INNER JOIN customers c ON …)); a
// name followed by a parenthesis is a table function and left out. A common table expression's name comes out like a
// table's: the caller keeps only the names of tables it knows. Unlike
// ViewReads, a column or an alias that shares a table's name is no read.
func FromNames(g *Grammar, query string) ([][]string, error) {
	toks, err := g.Tokenize(query)
	if err != nil {
		return nil, err
	}
	var out [][]string
	// inFrom[d] says that the clause open at parenthesis depth d is FROM.
	inFrom := []bool{false}
	for i, t := range toks {
		d := len(inFrom) - 1
		switch {
		case t.IsPunct("("):
			group := i > 0 && startsRef(toks[i-1], inFrom[d])
			inFrom = append(inFrom, group)
			if !group || i+1 < len(toks) && subqueryStarts[strings.ToUpper(toks[i+1].Text)] && toks[i+1].Kind == TokenWord {
				continue
			}
		case t.IsPunct(")"):
			if d > 0 {
				inFrom = inFrom[:d]
			}
			continue
		case t.IsWord("FROM"):
			inFrom[d] = true
		case t.IsWord("JOIN"):
		case t.IsPunct(",") && inFrom[d]:
		case t.Kind == TokenWord && fromEnds[strings.ToUpper(t.Text)]:
			inFrom[d] = false
			continue
		default:
			continue
		}
		var parts []string
		j := i + 1
		for j < len(toks) && toks[j].IsIdent() {
			parts = append(parts, toks[j].Ident())
			j++
			if j < len(toks) && toks[j].IsPunct(".") {
				j++
				continue
			}
			break
		}
		if len(parts) > 0 && !(j < len(toks) && toks[j].IsPunct("(")) {
			out = append(out, parts)
		}
	}
	return out, nil
}

// startsRef says a table reference may follow prev in a FROM clause (or
// not, per inFrom): a parenthesis there opens a join group or a subquery.
func startsRef(prev Token, inFrom bool) bool {
	return prev.IsWord("FROM") || prev.IsWord("JOIN") || inFrom && (prev.IsPunct(",") || prev.IsPunct("("))
}

// subqueryStarts are the words that make a parenthesis in FROM a subquery.
var subqueryStarts = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true}

// fromEnds are the words that end a FROM clause at their depth.
var fromEnds = map[string]bool{
	"SELECT": true, "WHERE": true, "GROUP": true, "HAVING": true, "QUALIFY": true, "WINDOW": true,
	"ORDER": true, "LIMIT": true, "OFFSET": true, "FETCH": true, "UNION": true, "EXCEPT": true, "INTERSECT": true,
}
