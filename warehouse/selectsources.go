package warehouse

import "strings"

// ColumnOrigin is the table column a result column's values are read
// from, as the engine reports it (PostgreSQL's row description names each
// column's table and attribute); zero when the engine does not say or the
// column is computed.
type ColumnOrigin struct {
	Table  TableName
	Column string
}

// ResultSources says, for each column of a result of query, the table
// columns its values come from, as "table.column" in lower case (the
// table's bare name): the engine's own word where it gives one for a
// column (Result.Origins), otherwise what the query's select list reads, followed
// through table aliases, subqueries in FROM and common table expressions
// (SELECT last_name AS x FROM people p gives x people.last_name; an
// expression gives every column it reads). A column the text does not
// trace (a star's, or a query the reading does not follow) has none.
func ResultSources(g *Grammar, query string, res *Result) [][]string {
	out := textSources(g, query, res.Columns)
	for i, o := range res.Origins {
		if i < len(out) && o.Column != "" {
			out[i] = []string{strings.ToLower(o.Table.Name + "." + o.Column)}
		}
	}
	return out
}

// textSources reads the sources of a result's columns from the query's
// select list.
func textSources(g *Grammar, query string, columns []string) [][]string {
	out := make([][]string, len(columns))
	toks, err := g.Tokenize(query)
	if err != nil {
		return out
	}
	p := &selectParser{toks: toks}
	b := p.query(map[string]*selectBlock{})
	if b == nil {
		return out
	}
	star := false
	for _, it := range b.items {
		star = star || it.star
	}
	for i, col := range columns {
		switch {
		case !star && len(b.items) == len(columns):
			out[i] = b.items[i].sources
		default:
			for _, it := range b.items {
				if !it.star && it.name != "" && strings.EqualFold(it.name, col) {
					out[i] = it.sources
					break
				}
			}
		}
	}
	return out
}

// selectBlock is one SELECT: its output columns, each with the table
// columns it reads.
type selectBlock struct {
	items []selectItem
}

type selectItem struct {
	name    string   // the output column's name: its alias, or the column it reads
	sources []string // "table.column", lower case
	star    bool     // * or t.*
}

func (b *selectBlock) lookup(name string) []string {
	for _, it := range b.items {
		if strings.EqualFold(it.name, name) {
			return it.sources
		}
	}
	return nil
}

// fromSource is a table reference of a FROM clause: a table, or a
// subquery or common table expression read as a block.
type fromSource struct {
	alias string
	table string // bare name, lower case; "" for a block
	block *selectBlock
}

type selectParser struct {
	toks []Token
	i    int
}

func (p *selectParser) peek() (Token, bool) {
	if p.i < len(p.toks) {
		return p.toks[p.i], true
	}
	return Token{}, false
}

// skipGroup moves past the parenthesized group that starts at p.i and
// returns the tokens inside it.
func (p *selectParser) skipGroup() []Token {
	start, depth := p.i, 0
	for ; p.i < len(p.toks); p.i++ {
		switch {
		case p.toks[p.i].IsPunct("("):
			depth++
		case p.toks[p.i].IsPunct(")"):
			if depth--; depth == 0 {
				p.i++
				return p.toks[start+1 : p.i-1]
			}
		}
	}
	return nil
}

// query reads [WITH …] SELECT … [UNION …], with the common table
// expressions of outer queries in ctes; nil when it is no such query.
func (p *selectParser) query(ctes map[string]*selectBlock) *selectBlock {
	if t, ok := p.peek(); ok && t.IsWord("WITH") {
		inner := map[string]*selectBlock{}
		for k, v := range ctes {
			inner[k] = v
		}
		ctes = inner
		p.i++
		if t, ok := p.peek(); ok && t.IsWord("RECURSIVE") {
			p.i++
		}
		for {
			t, ok := p.peek()
			if !ok || !t.IsIdent() {
				return nil
			}
			name := strings.ToLower(t.Ident())
			p.i++
			var names []string
			if t, ok := p.peek(); ok && t.IsPunct("(") {
				for _, c := range p.skipGroup() {
					if c.IsIdent() {
						names = append(names, c.Ident())
					}
				}
			}
			for {
				t, ok := p.peek()
				if !ok {
					return nil
				}
				if t.IsPunct("(") {
					break
				}
				p.i++ // AS, [NOT] MATERIALIZED
			}
			sub := &selectParser{toks: p.skipGroup()}
			b := sub.query(ctes)
			if b != nil && len(names) == len(b.items) {
				for i := range names {
					b.items[i].name = names[i]
				}
			}
			if b != nil {
				ctes[name] = b
			}
			if t, ok := p.peek(); ok && t.IsPunct(",") {
				p.i++
				continue
			}
			break
		}
	}
	b := p.selectBlock(ctes)
	for b != nil {
		t, ok := p.peek()
		if !ok || !(t.IsWord("UNION") || t.IsWord("EXCEPT") || t.IsWord("INTERSECT") || t.IsWord("MINUS")) {
			break
		}
		p.i++
		if t, ok := p.peek(); ok && (t.IsWord("ALL") || t.IsWord("DISTINCT")) {
			p.i++
		}
		next := p.selectBlock(ctes)
		if next == nil || len(next.items) != len(b.items) {
			break
		}
		for i := range b.items {
			b.items[i].sources = append(b.items[i].sources, next.items[i].sources...)
		}
	}
	return b
}

// selectBlock reads SELECT items FROM refs and what follows up to the end
// of the block (a set operation or the end of the text).
func (p *selectParser) selectBlock(ctes map[string]*selectBlock) *selectBlock {
	t, ok := p.peek()
	if ok && t.IsPunct("(") {
		sub := &selectParser{toks: p.skipGroup()}
		return sub.query(ctes)
	}
	if !ok || !t.IsWord("SELECT") {
		return nil
	}
	p.i++
	if t, ok := p.peek(); ok && (t.IsWord("DISTINCT") || t.IsWord("ALL")) {
		p.i++
		if t, ok := p.peek(); ok && t.IsWord("ON") {
			p.i++
			p.skipGroup()
		}
	}
	// The select list, split at commas outside parentheses.
	var items [][]Token
	start, depth := p.i, 0
	for ; p.i < len(p.toks); p.i++ {
		t := p.toks[p.i]
		switch {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			depth--
		case depth == 0 && t.IsPunct(","):
			items = append(items, p.toks[start:p.i])
			start = p.i + 1
		case depth == 0 && t.Kind == TokenWord && (selectEnds[strings.ToUpper(t.Text)] || t.IsWord("FROM")):
			goto listDone
		}
	}
listDone:
	items = append(items, p.toks[start:p.i])
	var from []fromSource
	if t, ok := p.peek(); ok && t.IsWord("FROM") {
		p.i++
		from = p.fromClause(ctes)
	}
	// Skip to the end of this block: WHERE, GROUP BY … at depth 0.
	for depth = 0; p.i < len(p.toks); p.i++ {
		t := p.toks[p.i]
		switch {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			depth--
		case depth == 0 && (t.IsWord("UNION") || t.IsWord("EXCEPT") || t.IsWord("INTERSECT") || t.IsWord("MINUS")):
			goto blockDone
		}
	}
blockDone:
	b := &selectBlock{}
	for _, it := range items {
		b.items = append(b.items, readItem(it, from))
	}
	return b
}

// selectEnds end a select list that has no FROM.
var selectEnds = map[string]bool{"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true,
	"UNION": true, "EXCEPT": true, "INTERSECT": true, "MINUS": true, "OFFSET": true, "FETCH": true, "WINDOW": true, "QUALIFY": true}

// joinWords are the words between table references of a FROM clause.
var joinWords = map[string]bool{"JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true, "FULL": true, "OUTER": true,
	"CROSS": true, "NATURAL": true, "LATERAL": true, "STRAIGHT_JOIN": true, "SEMI": true, "ANTI": true, "ASOF": true, "POSITIONAL": true}

// fromClause reads the table references up to the end of the clause.
func (p *selectParser) fromClause(ctes map[string]*selectBlock) []fromSource {
	var out []fromSource
	expectRef := true
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		switch {
		case t.Kind == TokenWord && (fromEnds[strings.ToUpper(t.Text)] || t.IsWord("MINUS")):
			return out
		case t.IsPunct(","):
			expectRef = true
			p.i++
		case t.Kind == TokenWord && joinWords[strings.ToUpper(t.Text)]:
			expectRef = true
			p.i++
		case t.IsWord("ON") || t.IsWord("USING"):
			expectRef = false
			p.i++
		case t.IsPunct("(") && expectRef:
			inner := p.skipGroup()
			sub := &selectParser{toks: inner}
			var src fromSource
			if b := sub.query(ctes); b != nil {
				src.block = b
			} else {
				// A parenthesized join: its references count as this clause's.
				sub.i = 0
				out = append(out, sub.fromClause(ctes)...)
			}
			src.alias = p.alias()
			if src.block != nil {
				out = append(out, src)
			}
			expectRef = false
		case t.IsIdent() && expectRef:
			var parts []string
			for p.i < len(p.toks) && p.toks[p.i].IsIdent() {
				parts = append(parts, p.toks[p.i].Ident())
				p.i++
				if p.i < len(p.toks) && p.toks[p.i].IsPunct(".") {
					p.i++
					continue
				}
				break
			}
			if t, ok := p.peek(); ok && t.IsPunct("(") {
				p.skipGroup() // a table function
				p.alias()
				expectRef = false
				continue
			}
			name := strings.ToLower(parts[len(parts)-1])
			src := fromSource{table: name, alias: name}
			if b, ok := ctes[name]; ok && len(parts) == 1 {
				src = fromSource{alias: name, block: b}
			}
			if a := p.alias(); a != "" {
				src.alias = a
			}
			out = append(out, src)
			expectRef = false
		case t.IsPunct("("):
			p.skipGroup()
		default:
			p.i++
		}
	}
	return out
}

// alias reads [AS] name after a table reference, with a column list
// after it skipped; "" when there is none.
func (p *selectParser) alias() string {
	t, ok := p.peek()
	if ok && t.IsWord("AS") {
		p.i++
		t, ok = p.peek()
	}
	if !ok || !t.IsIdent() || t.Kind == TokenWord && (reservedAfterRef[strings.ToUpper(t.Text)] || joinWords[strings.ToUpper(t.Text)] || fromEnds[strings.ToUpper(t.Text)]) {
		return ""
	}
	p.i++
	if t, ok := p.peek(); ok && t.IsPunct("(") {
		p.skipGroup()
	}
	return strings.ToLower(t.Ident())
}

// reservedAfterRef are words that may follow a table reference and are no
// alias.
var reservedAfterRef = map[string]bool{"ON": true, "USING": true, "WHERE": true, "TABLESAMPLE": true, "FOR": true, "WITH": true, "MINUS": true}

// exprWords are words of an expression that name no column.
var exprWords = map[string]bool{"CASE": true, "WHEN": true, "THEN": true, "ELSE": true, "END": true, "AND": true, "OR": true,
	"NOT": true, "NULL": true, "IS": true, "IN": true, "LIKE": true, "ILIKE": true, "BETWEEN": true, "AS": true, "DISTINCT": true,
	"TRUE": true, "FALSE": true, "INTERVAL": true, "COLLATE": true, "ESCAPE": true, "OVER": true, "PARTITION": true, "BY": true,
	"ORDER": true, "ASC": true, "DESC": true, "FILTER": true, "WHERE": true, "ROWS": true, "RANGE": true, "PRECEDING": true,
	"FOLLOWING": true, "UNBOUNDED": true, "CURRENT": true, "ROW": true, "SIMILAR": true, "TO": true, "AT": true, "ZONE": true}

// readItem reads one select item: its output name and the table columns
// it reads, resolved against the FROM clause's references.
func readItem(toks []Token, from []fromSource) selectItem {
	var it selectItem
	if n := len(toks); n >= 2 && toks[n-2].IsWord("AS") && toks[n-1].IsIdent() {
		it.name, toks = toks[n-1].Ident(), toks[:n-2]
	} else if n >= 2 && toks[n-1].IsIdent() && !toks[n-2].IsPunct(".") && !toks[n-2].IsWord("AS") &&
		(toks[n-2].IsIdent() || toks[n-2].IsPunct(")") || toks[n-2].Kind == TokenString || toks[n-2].Kind == TokenNumber) &&
		!(toks[n-1].Kind == TokenWord && exprWords[strings.ToUpper(toks[n-1].Text)]) {
		it.name, toks = toks[n-1].Ident(), toks[:n-1]
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.IsPunct("*") && (i == 0 || toks[i-1].IsPunct(".")) && len(toks) <= 3 {
			it.star = true
			continue
		}
		if !t.IsIdent() || i > 0 && (toks[i-1].IsPunct(".") || toks[i-1].IsWord("AS") || toks[i-1].IsPunct("::")) {
			continue
		}
		if t.Kind == TokenWord && exprWords[strings.ToUpper(t.Text)] {
			continue
		}
		parts := []string{t.Ident()}
		j := i + 1
		for j+1 < len(toks) && toks[j].IsPunct(".") && toks[j+1].IsIdent() {
			parts = append(parts, toks[j+1].Ident())
			j += 2
		}
		if j < len(toks) && toks[j].IsPunct("(") {
			continue // a function's name
		}
		i = j - 1
		col := parts[len(parts)-1]
		if len(parts) == 1 && len(toks) == 1 && it.name == "" {
			it.name = col
		} else if len(parts) > 1 && len(toks) == len(parts)*2-1 && it.name == "" {
			it.name = col
		}
		qual := ""
		if len(parts) > 1 {
			qual = strings.ToLower(parts[len(parts)-2])
		}
		for _, src := range from {
			if qual != "" && qual != src.alias && qual != src.table {
				continue
			}
			if src.block != nil {
				it.sources = append(it.sources, src.block.lookup(col)...)
			} else {
				it.sources = append(it.sources, src.table+"."+strings.ToLower(col))
			}
		}
	}
	return it
}
