package warehouse

// The SQL guard: the second line of defence after the read-only connection.
//
// It does not parse SQL. It tokenizes the statement the way the engine's own
// lexer would (strings, quoted identifiers, comments and dollar quotes are
// opaque), then applies a few statement-level rules to the bare words:
//
//   - exactly one statement (one trailing ";" is fine);
//   - the statement is on an allow-list (SELECT, WITH … SELECT, VALUES, …);
//   - nothing inside it can write: no DML keyword (data-modifying CTEs), no
//     INTO, no locking clause, no call to a function on the deny-list.
//
// When in doubt it refuses: a false refusal costs one query, a false
// acceptance could cost the user's database.

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// TokenKind classifies a Token.
type TokenKind int

const (
	TokenWord        TokenKind = iota + 1 // a keyword or an unquoted identifier
	TokenQuotedIdent                      // "x", `x` (MySQL, SQLite, DuckDB), [x] (SQLite)
	TokenString                           // 'x', E'x', $$x$$, and "x" in MySQL
	TokenNumber                           // 42, 1.5e3, 0x1F
	TokenPunct                            // operators and punctuation: ( ) , ; . = :: …
	TokenParam                            // $1, ?, ?1, :name, @name, @@name
)

func (k TokenKind) String() string {
	switch k {
	case TokenWord:
		return "Word"
	case TokenQuotedIdent:
		return "QuotedIdent"
	case TokenString:
		return "String"
	case TokenNumber:
		return "Number"
	case TokenPunct:
		return "Punct"
	case TokenParam:
		return "Param"
	}
	return fmt.Sprintf("TokenKind(%d)", int(k))
}

// Token is one lexical token of a SQL statement. Comments and whitespace
// produce no token.
type Token struct {
	Kind TokenKind
	Text string // exactly as written, quotes included: sql[Pos:Pos+len(Text)] == Text
	Pos  int    // byte offset in the input
}

// Ident returns the identifier a Word or QuotedIdent names, quotes removed
// and doubled quotes undone; "" for other kinds. Case is left as written.
func (t Token) Ident() string {
	switch t.Kind {
	case TokenWord:
		return t.Text
	case TokenQuotedIdent:
		if len(t.Text) < 2 {
			return t.Text
		}
		body := t.Text[1 : len(t.Text)-1]
		switch t.Text[0] {
		case '"':
			return strings.ReplaceAll(body, `""`, `"`)
		case '`':
			return strings.ReplaceAll(body, "``", "`")
		}
		return body // [brackets] have no escape
	}
	return ""
}

// IsPunct reports whether t is the punctuation s.
func (t Token) IsPunct(s string) bool { return t.Kind == TokenPunct && t.Text == s }

// IsWord reports whether t is the bare word kw, in any case.
func (t Token) IsWord(kw string) bool { return t.Kind == TokenWord && strings.EqualFold(t.Text, kw) }

// IsIdent reports whether t can name an object: a bare word or a quoted
// identifier.
func (t Token) IsIdent() bool { return t.Kind == TokenWord || t.Kind == TokenQuotedIdent }

// Grammar is what the guard knows of one engine's SQL: how its lexer reads
// text, which read-only statements it offers beyond SELECT, WITH and VALUES,
// and which of its functions must not be called. Each engine package
// declares its own (warehouse/<engine>/grammar.go) and its Dialect returns
// it, so that this file knows no engine by name.
//
// A nil *Grammar stands for an engine nobody named: Tokenize reads every
// quoting form that does not clash with another engine's operators, and
// Check refuses what any registered grammar refuses (RegisterGrammars).
type Grammar struct {
	BackslashEscapes    bool // 'it\'s' (MySQL)
	DoubleQuotedStrings bool // "x" is a string, not an identifier (MySQL without ANSI_QUOTES)
	Backticks           bool // `x` identifiers
	Brackets            bool // [x] identifiers (SQLite)
	HashComments        bool // # to end of line (MySQL)
	DashNeedsSpace      bool // "--" is a comment only when followed by a space or control character (MySQL)
	NestedComments      bool // /* /* */ */ (PostgreSQL, DuckDB)
	ExecutableComments  bool // the engine runs the inside of /*! … */ (MySQL)
	DollarQuotes        bool // $$x$$, $tag$x$tag$
	EscapeStrings       bool // E'x\n'
	ColonParams         bool // :name
	AtParams            bool // @name (and MySQL @@name)
	DollarNameParams    bool // $name (SQLite)

	// SettingsVary: a server setting flips backslash escapes in '…' (MySQL
	// NO_BACKSLASH_ESCAPES, PostgreSQL standard_conforming_strings) and may
	// make "…" an identifier (MySQL ANSI_QUOTES). The guard cannot see the
	// setting, so the statement must split into the same tokens either way.
	SettingsVary bool

	Table     bool // TABLE t
	Show      bool // SHOW …
	Describe  bool // DESCRIBE t, DESC t (and MySQL EXPLAIN t)
	FromFirst bool // FROM t SELECT … (DuckDB)
	Summarize bool // SUMMARIZE t (DuckDB)
	// Pragma allows the read forms of PRAGMA; nil refuses every PRAGMA.
	Pragma *PragmaRules

	// Dangerous are refused when called (see DangerousFunction).
	Dangerous []DangerousFunction
}

// DangerousFunction is a function the guard refuses to see called: it reads
// or writes files, runs commands or other SQL, changes server, session or
// sequence state, takes locks, or stalls the connection. A call is the name
// (schema qualifier ignored, any case, quoted or not) followed by "(".
type DangerousFunction struct {
	Name string // lower case; a trailing "*" makes it a prefix
	Why  string // shown in the refusal
}

// PragmaRules say which PRAGMA statements only read (SQLite): PRAGMA
// [schema.]name, and PRAGMA [schema.]name(arg) for the Argument pragmas.
type PragmaRules struct {
	// Denied are refused in every form, even the bare one: they act
	// (checkpoint, vacuum, optimize, free memory) or switch off a
	// protection. Any other pragma's bare form only reads.
	Denied []string
	// Argument are the pragmas whose call form names an object (or a row
	// limit) to read about. For every other pragma, PRAGMA x(v) is the same
	// as PRAGMA x = v: it writes.
	Argument []string
}

// genericLexer is the nil Grammar's lexer.
var genericLexer = &Grammar{
	Backticks: true, NestedComments: true, ExecutableComments: true,
	DollarQuotes: true, EscapeStrings: true, ColonParams: true,
}

// registered are the grammars a nil *Grammar is checked under, in the order
// they were registered.
var registered struct {
	sync.RWMutex
	grammars []*Grammar
}

// RegisterGrammars adds grammars to those a nil *Grammar's Check must pass.
// warehouse/connect, the one package that knows every engine, registers
// them all at init, so that a statement bound for an engine nobody named
// must read as one read-only statement to every engine. Before any
// registration, a nil *Grammar's Check refuses everything.
func RegisterGrammars(gs ...*Grammar) {
	registered.Lock()
	defer registered.Unlock()
	for _, g := range gs {
		if g != nil {
			registered.grammars = append(registered.grammars, g)
		}
	}
}

// Check is the SQL guard: it returns nil when sql is exactly one read-only
// statement in g, else an error wrapping ErrRejected that says why. A nil
// g must pass the rules of every registered grammar.
func (g *Grammar) Check(sql string) error {
	if g != nil {
		return g.check(sql)
	}
	registered.RLock()
	gs := registered.grammars
	registered.RUnlock()
	if len(gs) == 0 {
		return rejectf("no engine's grammar is known to check the statement against")
	}
	for _, g := range gs {
		if err := g.check(sql); err != nil {
			return err
		}
	}
	return nil
}

// Tokenize splits sql into tokens as g's lexer would, dropping whitespace
// and comments. It fails on unterminated strings, quoted identifiers,
// comments, on NUL bytes and on MySQL executable comments (/*! … */), whose
// content the engine runs but a reader would skip. A nil g gets a generic
// lexer.
func (g *Grammar) Tokenize(sql string) ([]Token, error) {
	if g == nil {
		g = genericLexer
	}
	return g.tokenize(sql)
}

func rejectf(format string, args ...any) error {
	return fmt.Errorf("guard: "+format+": %w", append(args, ErrRejected)...)
}

func (g *Grammar) check(sql string) error {
	toks, err := g.tokenize(sql)
	if err != nil {
		return fmt.Errorf("%w: %w", err, ErrRejected)
	}
	if g.SettingsVary {
		if err := g.sameUnderOtherSettings(sql, toks); err != nil {
			return err
		}
	}
	for i, t := range toks {
		if t.IsPunct(";") {
			if i != len(toks)-1 {
				return rejectf("only one statement is allowed")
			}
			toks = toks[:i]
			break
		}
	}
	if len(toks) == 0 {
		return rejectf("empty statement")
	}
	return g.checkStatement(toks)
}

// sameUnderOtherSettings lexes sql with backslash escapes flipped (and, for
// MySQL, "…" read as an identifier) and refuses it unless the tokens cover
// the same spans: 'it\'s' is one string to one server and a string followed
// by s' to another. A doubled quote reads the same everywhere.
func (g *Grammar) sameUnderOtherSettings(sql string, toks []Token) error {
	alt := *g
	alt.BackslashEscapes = !g.BackslashEscapes
	alt.DoubleQuotedStrings = false
	other, err := alt.tokenize(sql)
	if err == nil && len(other) == len(toks) {
		same := true
		for i := range toks {
			same = same && other[i].Pos == toks[i].Pos && other[i].Text == toks[i].Text
		}
		if same {
			return nil
		}
	}
	return rejectf(`a backslash before a quote reads differently under other server settings; write '' instead of \'`)
}

// ---------------------------------------------------------------------------
// The lexer.

type lexer struct {
	g    *Grammar
	src  string
	i    int
	toks []Token
}

func (g *Grammar) tokenize(sql string) ([]Token, error) {
	l := &lexer{g: g, src: sql}
	for l.i < len(l.src) {
		if err := l.next(); err != nil {
			return nil, err
		}
	}
	return l.toks, nil
}

func (l *lexer) emit(kind TokenKind, start int) {
	l.toks = append(l.toks, Token{Kind: kind, Text: l.src[start:l.i], Pos: start})
}

func (l *lexer) peek(off int) byte {
	if l.i+off < len(l.src) {
		return l.src[l.i+off]
	}
	return 0
}

func (l *lexer) next() error {
	g, start, c := l.g, l.i, l.src[l.i]
	switch {
	case c == 0:
		// Some drivers hand the engine a C string: it would stop reading
		// here, and we would be judging text it never sees.
		return fmt.Errorf("guard: NUL byte at offset %d", start)
	case isSpace(c):
		l.i++
	case c == '-' && l.peek(1) == '-' && (!g.DashNeedsSpace || l.peek(2) <= ' '):
		l.skipLine()
	case c == '#' && g.HashComments:
		l.skipLine()
	case c == '/' && l.peek(1) == '*':
		return l.blockComment()
	case c == '\'':
		return l.quoted(TokenString, '\'', g.BackslashEscapes)
	case c == '"' && g.DoubleQuotedStrings:
		return l.quoted(TokenString, '"', g.BackslashEscapes)
	case c == '"':
		return l.quoted(TokenQuotedIdent, '"', false)
	case c == '`' && g.Backticks:
		return l.quoted(TokenQuotedIdent, '`', false)
	case c == '[' && g.Brackets:
		end := strings.IndexByte(l.src[start+1:], ']')
		if end < 0 {
			return fmt.Errorf("guard: unterminated [identifier] at offset %d", start)
		}
		l.i = start + 1 + end + 1
		l.emit(TokenQuotedIdent, start)
	case c == '$':
		return l.dollar()
	case c == '?':
		l.i++
		for isDigit(l.peek(0)) {
			l.i++
		}
		l.emit(TokenParam, start)
	case c == ':' && g.ColonParams && isIdentStart(l.peek(1)):
		l.i++
		l.word()
		l.emit(TokenParam, start)
	case c == '@' && g.AtParams && (isIdentStart(l.peek(1)) || l.peek(1) == '@' && isIdentStart(l.peek(2))):
		l.i++
		if l.peek(0) == '@' {
			l.i++
		}
		l.word()
		l.emit(TokenParam, start)
	case isDigit(c) || c == '.' && isDigit(l.peek(1)):
		l.number()
	case isIdentStart(c):
		l.word()
		// A one-letter prefix glued to a quote is part of the literal:
		// E'…' (backslash escapes), X'…', B'…', N'…'.
		if l.peek(0) == '\'' && l.i-start == 1 {
			switch c | 0x20 {
			case 'e':
				if g.EscapeStrings {
					return l.quotedFrom(start, TokenString, '\'', true)
				}
			case 'x', 'b', 'n':
				return l.quotedFrom(start, TokenString, '\'', g.BackslashEscapes)
			}
		}
		l.emit(TokenWord, start)
	default:
		l.i += punctLen(l.src[l.i:])
		l.emit(TokenPunct, start)
	}
	return nil
}

func (l *lexer) skipLine() {
	if end := strings.IndexByte(l.src[l.i:], '\n'); end >= 0 {
		l.i += end + 1
	} else {
		l.i = len(l.src)
	}
}

func (l *lexer) blockComment() error {
	start := l.i
	l.i += 2
	if l.g.ExecutableComments && (l.peek(0) == '!' || l.peek(0) == 'M' && l.peek(1) == '!') {
		return fmt.Errorf("guard: executable comment /*! … */ at offset %d", start)
	}
	for depth := 1; depth > 0; {
		switch {
		case l.i+1 >= len(l.src):
			return fmt.Errorf("guard: unterminated comment at offset %d", start)
		case l.src[l.i] == '*' && l.src[l.i+1] == '/':
			depth--
			l.i += 2
		case l.g.NestedComments && l.src[l.i] == '/' && l.src[l.i+1] == '*':
			depth++
			l.i += 2
		default:
			l.i++
		}
	}
	return nil
}

func (l *lexer) quoted(kind TokenKind, q byte, backslash bool) error {
	return l.quotedFrom(l.i, kind, q, backslash)
}

// quotedFrom reads a literal whose opening quote is at l.i (a prefix, if
// any, starts at start). A doubled quote stands for itself.
func (l *lexer) quotedFrom(start int, kind TokenKind, q byte, backslash bool) error {
	for i := l.i + 1; i < len(l.src); i++ {
		switch c := l.src[i]; {
		case backslash && c == '\\':
			i++
		case c == q && i+1 < len(l.src) && l.src[i+1] == q:
			i++
		case c == q:
			l.i = i + 1
			l.emit(kind, start)
			return nil
		}
	}
	what := "string literal"
	if kind == TokenQuotedIdent {
		what = "quoted identifier"
	}
	return fmt.Errorf("guard: unterminated %s at offset %d", what, start)
}

// dollar reads a dollar-quoted string ($$…$$, $tag$…$tag$), a positional
// parameter ($1) or a SQLite $name parameter.
func (l *lexer) dollar() error {
	start := l.i
	if l.g.DollarQuotes {
		j := l.i + 1
		for j < len(l.src) && isIdentChar(l.src[j]) && l.src[j] != '$' {
			j++
		}
		if j < len(l.src) && l.src[j] == '$' && !isDigit(l.peek(1)) {
			delim := l.src[start : j+1]
			end := strings.Index(l.src[j+1:], delim)
			if end < 0 {
				return fmt.Errorf("guard: unterminated dollar-quoted string at offset %d", start)
			}
			l.i = j + 1 + end + len(delim)
			l.emit(TokenString, start)
			return nil
		}
	}
	l.i++
	switch {
	case isDigit(l.peek(0)):
		for isDigit(l.peek(0)) {
			l.i++
		}
		l.emit(TokenParam, start)
	case l.g.DollarNameParams && isIdentStart(l.peek(0)):
		l.word()
		l.emit(TokenParam, start)
	default:
		l.emit(TokenPunct, start)
	}
	return nil
}

func (l *lexer) word() {
	for l.i < len(l.src) && isIdentChar(l.src[l.i]) {
		l.i++
	}
}

func (l *lexer) number() {
	start := l.i
	if l.src[l.i] == '0' && strings.ContainsRune("xXbBoO", rune(l.peek(1))) && isIdentChar(l.peek(2)) {
		l.i += 2
		l.word()
		l.emit(TokenNumber, start)
		return
	}
	digits := func() {
		for isDigit(l.peek(0)) || l.peek(0) == '_' {
			l.i++
		}
	}
	digits()
	if l.peek(0) == '.' {
		l.i++
		digits()
	}
	if c := l.peek(0); c == 'e' || c == 'E' {
		if isDigit(l.peek(1)) || (l.peek(1) == '+' || l.peek(1) == '-') && isDigit(l.peek(2)) {
			l.i += 2
			digits()
		}
	}
	l.emit(TokenNumber, start)
}

// multiPunct are the operators kept whole; longest first. None contains ";".
var multiPunct = []string{"->>", "<=>", "::", ":=", "<=", ">=", "<>", "!=", "||", "->", "=>", "<<", ">>", "@>", "<@", "&&"}

func punctLen(s string) int {
	for _, p := range multiPunct {
		if strings.HasPrefix(s, p) {
			return len(p)
		}
	}
	return 1
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Bytes >= 0x80 are identifier characters, as in the PostgreSQL, MySQL and
// SQLite lexers, so non-ASCII text never splits a word.
func isIdentStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }

// ---------------------------------------------------------------------------
// Statement-level rules.

// statementKeywords are the words that begin a statement in some engine.
// Everything but the read-only ones (see checkStatement) is refused; the
// list itself serves to tell "EXPLAIN DELETE …" from "DESCRIBE orders".
var statementKeywords = WordSet(
	"SELECT", "WITH", "VALUES", "TABLE", "FROM", "EXPLAIN", "DESCRIBE", "DESC", "SHOW", "PRAGMA", "SUMMARIZE",
	"INSERT", "UPDATE", "DELETE", "REPLACE", "UPSERT", "MERGE",
	"CREATE", "DROP", "ALTER", "TRUNCATE", "RENAME", "COMMENT", "GRANT", "REVOKE",
	"ATTACH", "DETACH", "VACUUM", "REINDEX", "ANALYZE", "ANALYSE", "OPTIMIZE", "REPAIR", "CHECK", "CLUSTER", "REFRESH", "CHECKPOINT",
	"COPY", "LOAD", "INSTALL", "EXPORT", "IMPORT", "CALL", "EXEC", "EXECUTE", "DO", "PREPARE", "DEALLOCATE", "HANDLER",
	"LOCK", "UNLOCK", "SET", "RESET", "USE", "DISCARD", "LISTEN", "NOTIFY", "UNLISTEN", "KILL", "FLUSH", "PIVOT", "UNPIVOT",
	"BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT", "RELEASE",
)

// writeKeywords may not appear anywhere in an allowed statement. INSERT,
// UPDATE, DELETE and MERGE can hide inside a PostgreSQL CTE; the others
// cannot nest anywhere but are cheap to refuse.
var writeKeywords = WordSet("INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE", "UPSERT",
	"CREATE", "DROP", "ALTER", "TRUNCATE", "GRANT", "REVOKE")

// functionKeywords are write keywords that are also ordinary functions when
// followed by "(": REPLACE(s, a, b), MySQL INSERT(s, pos, len, new),
// MySQL/Trino TRUNCATE(x, d), Trino merge(hll). No statement has the
// keyword directly before "(" (MERGE INTO …, TRUNCATE TABLE …).
var functionKeywords = WordSet("REPLACE", "INSERT", "TRUNCATE", "MERGE")

// explainOptions are the words EXPLAIN may take before the explained
// statement (PostgreSQL, SQLite, MySQL, DuckDB, Trino).
var explainOptions = WordSet("ANALYZE", "ANALYSE", "VERBOSE", "QUERY", "PLAN", "EXTENDED", "PARTITIONS",
	"FORMAT", "JSON", "TREE", "TRADITIONAL", "TEXT", "XML", "YAML", "GRAPHVIZ", "TYPE",
	"LOGICAL", "DISTRIBUTED", "IO", "VALIDATE")

func (g *Grammar) checkStatement(toks []Token) error {
	first := toks[0]
	if first.IsPunct("(") { // (SELECT …) UNION (SELECT …)
		j := 0
		for j < len(toks) && toks[j].IsPunct("(") {
			j++
		}
		if j == len(toks) || !startsQuery(toks[j]) {
			return rejectf("only a query may be parenthesized")
		}
		if toks[j].IsWord("WITH") {
			if err := g.checkWith(toks[j:]); err != nil {
				return err
			}
		}
		return g.checkBody(toks)
	}
	if first.Kind != TokenWord {
		return rejectf("a statement must begin with a keyword, not %s", first.Text)
	}
	kw := strings.ToUpper(first.Text)
	switch {
	case kw == "SELECT" || kw == "VALUES",
		kw == "TABLE" && g.Table,
		kw == "FROM" && g.FromFirst:
		return g.checkBody(toks)
	case kw == "WITH":
		if err := g.checkWith(toks); err != nil {
			return err
		}
		return g.checkBody(toks)
	case kw == "SUMMARIZE" && g.Summarize && len(toks) > 1:
		return g.checkBody(toks[1:])
	case kw == "EXPLAIN" || (kw == "DESCRIBE" || kw == "DESC") && g.Describe:
		return g.checkExplain(toks)
	case kw == "SHOW" && g.Show:
		return g.checkShow(toks)
	case kw == "PRAGMA" && g.Pragma != nil:
		return g.Pragma.check(toks)
	}
	return rejectf("%s is not allowed", kw)
}

// checkWith finds the statement a WITH clause leads to: the first word
// outside parentheses that starts a query or a write (CTE bodies are
// parenthesized, and PostgreSQL's SEARCH/CYCLE clauses use neither).
func (g *Grammar) checkWith(toks []Token) error {
	depth := 0
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.IsPunct("("):
			// ") (" at the top level: the main query is parenthesized.
			if depth == 0 && toks[i-1].IsPunct(")") {
				return nil // checkBody looks inside
			}
			depth++
		case t.IsPunct(")"):
			depth--
		case depth == 0 && t.Kind == TokenWord:
			kw := strings.ToUpper(t.Text)
			switch {
			case kw == "SELECT" || kw == "VALUES", kw == "TABLE" && g.Table, kw == "FROM" && g.FromFirst:
				return nil
			case writeKeywords[kw]:
				return rejectf("WITH … %s is not allowed", kw)
			}
		}
	}
	return rejectf("WITH must lead to a SELECT")
}

// checkBody scans every token of an allowed statement for what could write:
// a DML/DDL keyword, INTO, a locking clause, a dangerous function call.
func (g *Grammar) checkBody(toks []Token) error {
	for i, t := range toks {
		prev, next := TokenAt(toks, i-1), TokenAt(toks, i+1)
		if t.IsIdent() && next.IsPunct("(") {
			if err := g.checkCall(t, prev); err != nil {
				return err
			}
		}
		// Only bare words count, and not after "." (t.delete is a column).
		if t.Kind != TokenWord || prev.IsPunct(".") {
			continue
		}
		kw := strings.ToUpper(t.Text)
		switch kw {
		case "INTO":
			return rejectf("SELECT … INTO is not allowed")
		case "FOR":
			// FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE, FOR KEY SHARE; other
			// FORs (SUBSTRING(x FROM 1 FOR 2), FOR SYSTEM_TIME) read.
			if next.IsWord("UPDATE") || next.IsWord("SHARE") || next.IsWord("NO") || next.IsWord("KEY") {
				clause := "FOR"
				for _, w := range toks[i+1 : min(i+4, len(toks))] {
					clause += " " + strings.ToUpper(w.Text)
					if w.IsWord("UPDATE") || w.IsWord("SHARE") {
						break
					}
				}
				return rejectf("locking clause %s is not allowed", clause)
			}
		case "LOCK":
			if next.IsWord("IN") && TokenAt(toks, i+2).IsWord("SHARE") && TokenAt(toks, i+3).IsWord("MODE") {
				return rejectf("locking clause LOCK IN SHARE MODE is not allowed")
			}
		}
		if writeKeywords[kw] && !(functionKeywords[kw] && next.IsPunct("(")) {
			return rejectf("%s is not allowed", kw)
		}
	}
	return nil
}

// checkExplain handles EXPLAIN (and DESCRIBE/DESC, which MySQL treats as its
// synonym). EXPLAIN ANALYZE runs the statement, so the explained statement
// must itself pass.
func (g *Grammar) checkExplain(toks []Token) error {
	if g.Describe && isTableName(toks[1:]) {
		return nil // DESCRIBE orders, DESC db.orders, EXPLAIN orders (MySQL)
	}
	i := 1
options:
	for i < len(toks) {
		t := toks[i]
		switch {
		case t.Kind == TokenWord && explainOptions[strings.ToUpper(t.Text)], t.IsPunct("="):
			i++ // ANALYZE, QUERY PLAN, FORMAT=JSON
		case i == 1 && t.IsPunct("(") && !startsQuery(TokenAt(toks, i+1)):
			i = skipGroup(toks, i) // (ANALYZE, COSTS OFF), (TYPE DISTRIBUTED)
		default:
			break options
		}
	}
	if i == len(toks) {
		return rejectf("EXPLAIN needs a statement")
	}
	return g.checkStatement(toks[i:])
}

// isTableName reports whether toks read as the operand of DESCRIBE: a
// possibly qualified name, optionally followed by a column name or pattern.
func isTableName(toks []Token) bool {
	if len(toks) == 0 || !toks[0].IsIdent() ||
		toks[0].Kind == TokenWord && statementKeywords[strings.ToUpper(toks[0].Text)] {
		return false
	}
	i := 1
	for i+1 < len(toks) && toks[i].IsPunct(".") && toks[i+1].IsIdent() {
		i += 2
	}
	if i < len(toks) && (toks[i].IsIdent() || toks[i].Kind == TokenString) {
		i++
	}
	return i == len(toks)
}

// checkShow allows SHOW … ; SHOW CREATE TABLE only reads the DDL.
func (g *Grammar) checkShow(toks []Token) error {
	rest := toks[1:]
	if len(rest) > 0 && rest[0].IsWord("CREATE") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return rejectf("SHOW needs an object")
	}
	return g.checkBody(rest)
}

// check allows PRAGMA [schema.]name and PRAGMA [schema.]name(arg) as r
// says.
func (r *PragmaRules) check(toks []Token) error {
	rest := toks[1:]
	for _, t := range rest {
		if t.Kind == TokenPunct && strings.Contains(t.Text, "=") {
			return rejectf("PRAGMA assignment is not allowed")
		}
	}
	i := 0
	if len(rest) >= 2 && rest[0].IsIdent() && rest[1].IsPunct(".") {
		i = 2 // schema.
	}
	if i >= len(rest) || !rest[i].IsIdent() {
		return rejectf("malformed PRAGMA")
	}
	name := strings.ToLower(rest[i].Ident())
	i++
	if slices.Contains(r.Denied, name) {
		return rejectf("PRAGMA %s is not allowed", name)
	}
	switch len(rest) - i {
	case 0:
		return nil
	case 3:
		arg := rest[i+1]
		if rest[i].IsPunct("(") && rest[i+2].IsPunct(")") && arg.Kind != TokenPunct && arg.Kind != TokenParam {
			if !slices.Contains(r.Argument, name) {
				return rejectf("PRAGMA %s(…) sets a value", name)
			}
			return nil
		}
	}
	return rejectf("malformed PRAGMA")
}

func (g *Grammar) checkCall(name, prev Token) error {
	fn := strings.ToLower(name.Ident())
	// TABLESAMPLE SYSTEM (10), USING SAMPLE system(10%): a sampling method.
	if prev.IsWord("TABLESAMPLE") || prev.IsWord("SAMPLE") {
		return nil
	}
	for _, f := range g.Dangerous {
		if p, ok := strings.CutSuffix(f.Name, "*"); ok && strings.HasPrefix(fn, p) || fn == f.Name {
			return rejectf("function %s is not allowed (%s)", fn, f.Why)
		}
	}
	return nil
}

// startsQuery reports whether a parenthesized query can begin with t.
func startsQuery(t Token) bool {
	return t.IsWord("SELECT") || t.IsWord("VALUES") || t.IsWord("WITH") || t.IsPunct("(")
}

// TokenAt is toks[i], or the zero Token (no kind, no text) when i is
// outside toks: the guards look around a token without bounds checks.
func TokenAt(toks []Token, i int) Token {
	if i >= 0 && i < len(toks) {
		return toks[i]
	}
	return Token{}
}

// skipGroup returns the index just past the ")" matching the "(" at i.
func skipGroup(toks []Token, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		switch {
		case toks[i].IsPunct("("):
			depth++
		case toks[i].IsPunct(")"):
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return i
}

// WordSet is a set of words, for the guards' lists.
func WordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
