package mysql

// The token pass of the guard: one scan of the text, as the server lexes
// it in the pinned sql_mode (backslash escapes, "…" a string, `…` an
// identifier, # and "-- " comments), before the parser sees it. It finds
// what the parser's tree does not show:
//
//   - executable comments, /*! … */ and MariaDB's /*M! … */, whose
//     content the server runs (the parser drops the MariaDB form);
//   - how each name before "(" is spelled (see spelling);
//   - how deeply operators chain without brackets (see maxChain).
//
// It allocates nothing per token, so a 4 MB statement is scanned in
// milliseconds.

import (
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// spelling is how the statement spells the names it puts before "(",
// lower case.
type spelling struct {
	quoted map[string]bool // `name`(…): an identifier, never a keyword, to the server
	gap    map[string]bool // name (…) or name/**/(…)
	bare   map[string]bool // name(…)
}

// lexed is what scan found.
type lexed struct {
	spell *spelling
	// chain over-estimates the depth of the tree the parser will build:
	// per bracket level, the operators since the expression began (a comma
	// or a clause keyword ends one, except in FROM, where commas chain
	// joins), summed over the open brackets.
	chain int
}

type tokKind int

const (
	tokWord tokKind = iota + 1
	tokQuoted
	tokString
	tokPunct
)

// scanner is the state of one scan.
type scanner struct {
	out *lexed
	// The previous token, for the spelling of a name before "(".
	prevKind tokKind
	prevName string
	prevEnd  int
	// levels are the open brackets' operator counts (see lexed.chain),
	// outermost first; sum is their total.
	levels []chainLevel
	sum    int
}

type chainLevel struct {
	ops  int
	from bool
}

// scan reads q once, refusing executable comments and unterminated
// comments, strings and quoted identifiers.
func scan(q string) (*lexed, error) {
	s := &scanner{out: &lexed{spell: &spelling{quoted: map[string]bool{}, gap: map[string]bool{}, bare: map[string]bool{}}},
		levels: []chainLevel{{}}}
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case isSpace(c):
			i++
		case c == '#':
			i = lineEnd(q, i)
		case c == '-' && i+1 < len(q) && q[i+1] == '-' && (i+2 == len(q) || q[i+2] <= ' '):
			// MySQL: "--" starts a comment only before whitespace, a
			// control character or the end.
			i = lineEnd(q, i)
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			if strings.HasPrefix(q[i+2:], "!") || strings.HasPrefix(q[i+2:], "M!") {
				return nil, warehouse.Rejectf("executable comment /*! … */ at offset %d (the server runs its content)", i)
			}
			end := strings.Index(q[i+2:], "*/")
			if end < 0 {
				return nil, warehouse.Rejectf("unterminated comment at offset %d", i)
			}
			i += 2 + end + 2
		case c == '\'' || c == '"':
			end, ok := quoteEnd(q, i, c, true)
			if !ok {
				return nil, warehouse.Rejectf("unterminated string literal at offset %d", i)
			}
			s.token(tokString, "", i, end)
			i = end
		case c == '`':
			end, ok := quoteEnd(q, i, c, false)
			if !ok {
				return nil, warehouse.Rejectf("unterminated quoted identifier at offset %d", i)
			}
			s.token(tokQuoted, strings.ReplaceAll(q[i+1:end-1], "``", "`"), i, end)
			i = end
		case isWordByte(c):
			end := i
			for end < len(q) && isWordByte(q[end]) {
				end++
			}
			s.token(tokWord, q[i:end], i, end)
			i = end
		default:
			s.token(tokPunct, q[i:i+1], i, i+1)
			i++
		}
	}
	return s.out, nil
}

// token records one token: the spelling of a name before "(", and the
// chain estimate.
func (s *scanner) token(kind tokKind, text string, start, end int) {
	if kind == tokPunct && text == "(" {
		name := strings.ToLower(s.prevName)
		switch {
		case s.prevKind == tokQuoted:
			s.out.spell.quoted[name] = true
		case s.prevKind != tokWord:
		case s.prevEnd != start:
			s.out.spell.gap[name] = true
		default:
			s.out.spell.bare[name] = true
		}
	}
	s.prevKind, s.prevName, s.prevEnd = kind, text, end

	top := &s.levels[len(s.levels)-1]
	switch {
	case kind == tokPunct && text == "(":
		s.levels = append(s.levels, chainLevel{})
	case kind == tokPunct && text == ")":
		if len(s.levels) > 1 {
			s.sum -= top.ops
			s.levels = s.levels[:len(s.levels)-1]
		}
	case kind == tokPunct && text == "," && !top.from:
		s.sum -= top.ops
		top.ops = 0
	case kind == tokPunct && (text == "." || text == ";" || text == "@"):
	case kind == tokPunct:
		top.ops++
		s.sum++
	case kind == tokWord:
		w := strings.ToUpper(text)
		if clauseWords[w] {
			s.sum -= top.ops
			top.ops = 0
			top.from = w == "FROM"
		} else if chainWords[w] {
			top.ops++
			s.sum++
		}
	}
	s.out.chain = max(s.out.chain, s.sum+len(s.levels))
}

// clauseWords begin a clause: the expression before them is complete.
var clauseWords = warehouse.WordSet("SELECT", "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT",
	"UNION", "EXCEPT", "INTERSECT", "WINDOW", "WITH")

// chainWords are the keywords that nest what follows them in the tree.
var chainWords = warehouse.WordSet("AND", "OR", "XOR", "NOT", "CASE", "BETWEEN", "LIKE", "REGEXP",
	"RLIKE", "IN", "IS", "DIV", "MOD", "BINARY", "COLLATE", "INTERVAL", "JOIN", "ESCAPE",
	"MEMBER", "EXISTS", "ANY", "SOME", "ALL")

// quoteEnd returns the offset just past the literal whose opening quote q
// is at start. A doubled quote stands for itself; with backslash, a
// backslash escapes the next byte.
func quoteEnd(src string, start int, q byte, backslash bool) (int, bool) {
	for i := start + 1; i < len(src); i++ {
		switch c := src[i]; {
		case backslash && c == '\\':
			i++
		case c == q && i+1 < len(src) && src[i+1] == q:
			i++
		case c == q:
			return i + 1, true
		}
	}
	return 0, false
}

func lineEnd(src string, i int) int {
	if end := strings.IndexByte(src[i:], '\n'); end >= 0 {
		return i + end + 1
	}
	return len(src)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isWordByte: the bytes of an unquoted identifier, keyword or number to
// MySQL (a multi-byte character is part of an identifier).
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '$' || c >= 0x80
}
