package load

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// token is one lexical unit of SQLite SQL, enough to find a view's header
// and its quoted identifiers; string literals and comments are kept whole so
// nothing inside them is mistaken for syntax.
type token struct {
	start, end int
	kind       byte // 'w' word, 'i' quoted identifier, 's' string, '#' comment, else the punctuation byte
}

func tokenize(s string) []token {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
			continue
		case c == '-' && strings.HasPrefix(s[i:], "--"):
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(s)
			}
			out = append(out, token{start, i, '#'})
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			if j := strings.Index(s[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(s)
			}
			out = append(out, token{start, i, '#'})
		case c == '\'' || c == '"' || c == '`' || c == '[':
			closer := c
			if c == '[' {
				closer = ']'
			}
			i++
			for i < len(s) {
				if s[i] == closer {
					// A doubled quote is an escaped one, except in [brackets].
					if closer != ']' && i+1 < len(s) && s[i+1] == closer {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
			k := byte('i')
			if c == '\'' {
				k = 's'
			}
			out = append(out, token{start, i, k})
		case isWordByte(c):
			for i < len(s) && isWordByte(s[i]) {
				i++
			}
			out = append(out, token{start, i, 'w'})
		default:
			i++
			out = append(out, token{start, i, c})
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// unquote returns the name an identifier token spells.
func unquote(s string) string {
	if len(s) < 2 {
		return s
	}
	switch s[0] {
	case '"', '`':
		q := s[:1]
		return strings.ReplaceAll(s[1:len(s)-1], q+q, q)
	case '[':
		return s[1 : len(s)-1]
	}
	return s
}

// splitView takes SQLite's CREATE VIEW text apart: the column list (nil
// when absent) and the SELECT after AS.
func splitView(def string) (cols []string, body string, err error) {
	toks := tokenize(def)
	var code []token
	for _, t := range toks {
		if t.kind != '#' {
			code = append(code, t)
		}
	}
	text := func(i int) string { return def[code[i].start:code[i].end] }
	word := func(i int, w string) bool {
		return i < len(code) && code[i].kind == 'w' && strings.EqualFold(text(i), w)
	}
	i := 0
	if !word(i, "CREATE") {
		return nil, "", fmt.Errorf("not a CREATE VIEW statement")
	}
	i++
	if word(i, "TEMP") || word(i, "TEMPORARY") {
		i++
	}
	if !word(i, "VIEW") {
		return nil, "", fmt.Errorf("not a CREATE VIEW statement")
	}
	i++
	if word(i, "IF") && word(i+1, "NOT") && word(i+2, "EXISTS") {
		i += 3
	}
	i++ // the name
	if i < len(code) && code[i].kind == '.' {
		i += 2 // schema.name
	}
	if i < len(code) && code[i].kind == '(' {
		for i++; i < len(code) && code[i].kind != ')'; i++ {
			if code[i].kind == 'w' || code[i].kind == 'i' {
				cols = append(cols, unquote(text(i)))
			}
		}
		i++
	}
	if !word(i, "AS") || i+1 >= len(code) {
		return nil, "", fmt.Errorf("no AS SELECT in the view's definition")
	}
	return cols, strings.TrimRight(strings.TrimSpace(def[code[i+1].start:]), ";"), nil
}

// standardQuotes rewrites `name` and [name] as "name", the one quoting
// PostgreSQL and MySQL (in ANSI_QUOTES mode) both read.
func standardQuotes(sql string) string {
	var b strings.Builder
	last := 0
	for _, t := range tokenize(sql) {
		if t.kind == 'i' && sql[t.start] != '"' {
			b.WriteString(sql[last:t.start])
			b.WriteString(quote(unquote(sql[t.start:t.end])))
			last = t.end
		}
	}
	b.WriteString(sql[last:])
	return b.String()
}

// viewStatements returns the CREATE VIEW statements to try on the target,
// in order: SQLite's SELECT as written, then translated. Each translation
// is tried only when the one before it failed, so a view that runs as
// written is kept as written. DuckDB gets one more: bare columns under
// GROUP BY wrapped in ANY_VALUE (see anyValueBareColumns).
func viewStatements(dialect string, v view) ([]string, error) {
	cols, body, err := splitView(v.sql)
	if err != nil {
		return nil, err
	}
	head := "CREATE VIEW " + quote(v.name)
	if cols != nil {
		head += " (" + quoteList(cols) + ")"
	}
	head += " AS "
	stmts := []string{head + body}
	t := standardQuotes(body)
	if t != body {
		stmts = append(stmts, head+t)
	}
	if dialect == duckdb || dialect == trino || dialect == spark {
		if a := anyValueBareColumns(t); a != t {
			stmts = append(stmts, head+a)
		}
	}
	return stmts, nil
}

// anyValueBareColumns rewrites a grouped SELECT for DuckDB and Trino, which
// refuse a selected column that is neither grouped nor aggregated. SQLite takes
// such a bare column from some row of the group, PostgreSQL accepts it
// when the group's key determines it (GROUP BY o.id, then o.status):
// each bare column of the select list becomes ANY_VALUE(column) under the
// name SQLite gives it. That is exact when the group determines the column,
// as in the demo's view; otherwise the value may come from another row of
// the group than SQLite's. Only a single SELECT is rewritten (no UNION, no
// WITH at the top), and only its select list: a bare column in HAVING or
// ORDER BY still fails, and the view is then reported.
func anyValueBareColumns(body string) string {
	var toks []token
	for _, t := range tokenize(body) {
		if t.kind != '#' {
			toks = append(toks, t)
		}
	}
	text := func(i int) string { return body[toks[i].start:toks[i].end] }
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].kind == 'w' && strings.EqualFold(text(i), w)
	}
	if !word(0, "SELECT") {
		return body
	}
	from, group, groupEnd := -1, -1, len(toks)
	depth := 0
	for i, t := range toks {
		switch t.kind {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth != 0 || t.kind != 'w' {
			continue
		}
		switch w := strings.ToUpper(text(i)); {
		case w == "UNION" || w == "INTERSECT" || w == "EXCEPT":
			return body
		case w == "FROM" && from < 0:
			from = i
		case w == "GROUP" && word(i+1, "BY") && from >= 0 && group < 0:
			group = i + 2
		case group >= 0 && i >= group && groupEnd == len(toks) &&
			(w == "HAVING" || w == "ORDER" || w == "LIMIT" || w == "WINDOW" || w == "QUALIFY"):
			groupEnd = i
		}
	}
	if from < 0 || group < 0 {
		return body
	}

	// split cuts toks[lo:hi] at its top-level commas.
	split := func(lo, hi int) [][2]int {
		var out [][2]int
		depth, start := 0, lo
		for i := lo; i < hi; i++ {
			switch toks[i].kind {
			case '(':
				depth++
			case ')':
				depth--
			case ',':
				if depth == 0 {
					out = append(out, [2]int{start, i})
					start = i + 1
				}
			}
		}
		return append(out, [2]int{start, hi})
	}
	ident := func(i int) bool {
		switch {
		case toks[i].kind == 'i':
			return true
		case toks[i].kind != 'w' || body[toks[i].start] >= '0' && body[toks[i].start] <= '9':
			return false
		}
		switch strings.ToUpper(text(i)) {
		case "NULL", "TRUE", "FALSE", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "DISTINCT", "ALL", "AS":
			return false
		}
		return true
	}
	// ref reads a column reference (a, t.a, s.t.a) at the start of r: its
	// parts, lower-cased and unquoted, and where it ends. An alias after it
	// ([AS] name) is returned as alias; anything else is no bare column.
	ref := func(r [2]int) (parts []string, end int, alias string, ok bool) {
		i := r[0]
		if i >= r[1] || !ident(i) {
			return nil, 0, "", false
		}
		parts = []string{strings.ToLower(unquote(text(i)))}
		for i+2 < r[1] && toks[i+1].kind == '.' && ident(i+2) {
			i += 2
			parts = append(parts, strings.ToLower(unquote(text(i))))
		}
		end = i + 1
		switch rest := r[1] - end; {
		case rest == 0:
		case rest == 1 && ident(end):
			alias = unquote(text(end))
		case rest == 2 && word(end, "AS") && (ident(end+1) || toks[end+1].kind == 's'):
			alias = unquote(text(end + 1))
			if toks[end+1].kind == 's' {
				alias = strings.ReplaceAll(text(end + 1)[1:len(text(end+1))-1], "''", "'")
			}
		default:
			return nil, 0, "", false
		}
		return parts, end, alias, true
	}

	var groupRefs [][]string
	var groupOrdinals []string
	for _, r := range split(group, groupEnd) {
		if parts, _, alias, ok := ref(r); ok && alias == "" {
			groupRefs = append(groupRefs, parts)
		} else if r[1] == r[0]+1 && toks[r[0]].kind == 'w' {
			groupOrdinals = append(groupOrdinals, text(r[0]))
		}
	}
	grouped := func(parts []string, alias string, pos int) bool {
		for _, g := range groupRefs {
			if g[len(g)-1] != parts[len(parts)-1] && (len(g) > 1 || !strings.EqualFold(g[0], alias)) {
				continue
			}
			// Qualifiers are compared when both sides have one.
			if len(g) == 1 || len(parts) == 1 || g[len(g)-2] == parts[len(parts)-2] {
				return true
			}
		}
		return slices.Contains(groupOrdinals, strconv.Itoa(pos))
	}

	start := 1
	for word(start, "DISTINCT") || word(start, "ALL") {
		start++
	}
	var b strings.Builder
	last := 0
	for n, r := range split(start, from) {
		parts, end, alias, ok := ref(r)
		if !ok || grouped(parts, alias, n+1) {
			continue
		}
		b.WriteString(body[last:toks[r[0]].start])
		b.WriteString("ANY_VALUE(" + body[toks[r[0]].start:toks[end-1].end] + ")")
		if alias == "" {
			b.WriteString(" AS " + quote(unquote(text(end-1))))
		}
		last = toks[end-1].end
	}
	b.WriteString(body[last:])
	return b.String()
}
