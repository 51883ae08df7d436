package load

import (
	"fmt"
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
// written is kept as written.
func viewStatements(v view) ([]string, error) {
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
	if t := standardQuotes(body); t != body {
		stmts = append(stmts, head+t)
	}
	return stmts, nil
}
