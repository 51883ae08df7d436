package spark

// The guard: what a statement may be on Spark SQL. Spark has no read-only
// transaction, so this is the only line between a statement and a write
// (spark.go, Caveats).
//
// No Go parser speaks Spark SQL, so the guard works on the tokens of the
// project's lexer (Grammar.Tokenize, grammar.go), in three layers:
//
//  1. warehouse.Precheck: size, NUL bytes, nesting;
//  2. Grammar.Check, the statement-level rules: one SELECT, WITH … SELECT,
//     VALUES, TABLE t, SHOW, DESCRIBE or EXPLAIN of one, nothing that
//     writes (INSERT, CACHE TABLE, SET, ADD JAR, … are not among them);
//  3. the Spark-specific rules over the tokens: every name followed by "("
//     is a call unless the "(" is the grammar's own (IN (…), OVER (…), a
//     type's parameters after AS, a CTE's or an alias's column list, …),
//     and a call must be of a side-effect-free built-in of
//     guard_allow.go, unqualified (a qualified name is a catalog's
//     function, which may be any Java code); a relation may not be a file
//     (parquet.`/path`, Spark's SQL on files, and any dotted name with a
//     path in it); no script transformation (TRANSFORM … USING 'command',
//     which runs a command on the server); no raw string (r'…', which
//     Spark reads without backslash escapes, so its end is not where the
//     lexer sees it).
//
// When unsure it refuses: a word it does not know before "(" is a call it
// does not know.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.Guarder = (*Source)(nil)

// Guard returns nil when sql is one statement the allow-list admits, else
// a refusal wrapping warehouse.ErrRejected that says what is not allowed.
// It sends nothing to the server.
func (s *Source) Guard(_ context.Context, sql string) error { return guard(sql) }

// guard is Guard without the source: the three layers over sql alone.
func guard(sql string) error {
	if err := warehouse.Precheck(sql); err != nil {
		return err
	}
	if err := Grammar.Check(sql); err != nil {
		if errors.Is(err, warehouse.ErrRejected) {
			return err
		}
		return fmt.Errorf("%w: %w", err, warehouse.ErrRejected)
	}
	toks, err := Grammar.Tokenize(sql)
	if err != nil {
		return fmt.Errorf("%w: %w", err, warehouse.ErrRejected) // Check lexed it already
	}
	if err := warehouse.Balanced(toks); err != nil {
		return err
	}
	if err := checkLexical(sql, toks); err != nil {
		return err
	}
	if err := checkRelations(toks); err != nil {
		return err
	}
	if err := checkShowCreate(toks); err != nil {
		return err
	}
	return checkCalls(toks)
}

// checkShowCreate holds SHOW CREATE to the form Spark's grammar has, SHOW
// CREATE TABLE name [AS SERDE], and nothing after it. Grammar.Check lets
// any body follow SHOW; what the guard does not know it refuses.
func checkShowCreate(toks []warehouse.Token) error {
	if !warehouse.TokenAt(toks, 0).IsWord("SHOW") || !warehouse.TokenAt(toks, 1).IsWord("CREATE") {
		return nil
	}
	if !warehouse.TokenAt(toks, 2).IsWord("TABLE") || !warehouse.TokenAt(toks, 3).IsIdent() {
		return warehouse.Rejectf("SHOW CREATE is allowed only as SHOW CREATE TABLE name")
	}
	i := 4
	for warehouse.TokenAt(toks, i).IsPunct(".") && warehouse.TokenAt(toks, i+1).IsIdent() {
		i += 2
	}
	if warehouse.TokenAt(toks, i).IsWord("AS") && warehouse.TokenAt(toks, i+1).IsWord("SERDE") {
		i += 2
	}
	if i != len(toks) {
		return warehouse.Rejectf("SHOW CREATE TABLE takes a name and nothing after it")
	}
	return nil
}

// checkLexical refuses what Spark's lexer reads otherwise than the
// guard's, and script transformations.
func checkLexical(sql string, toks []warehouse.Token) error {
	for i, t := range toks {
		next := warehouse.TokenAt(toks, i+1)
		switch {
		case t.Kind == warehouse.TokenWord && (t.Text == "r" || t.Text == "R") &&
			next.Kind == warehouse.TokenString && next.Pos == t.Pos+1:
			// r'…' is Spark's raw string: no backslash escapes, so that
			// r'\' ends at its second quote, where the lexer saw an
			// escaped quote and read on.
			return warehouse.Rejectf("raw strings (r'…') are not allowed")
		case t.IsWord("USING") && next.Kind == warehouse.TokenString:
			return warehouse.Rejectf("script transformation (USING '…') is not allowed: it runs a command on the server")
		case (t.IsWord("TRANSFORM") || t.IsWord("MAP") || t.IsWord("REDUCE")) &&
			(warehouse.TokenAt(toks, i-1).IsWord("SELECT") || warehouse.TokenAt(toks, i-1).IsWord("FROM")) && !next.IsPunct("."):
			if t.IsWord("MAP") && next.IsPunct("(") {
				continue // SELECT map(k, v): the function
			}
			if t.IsWord("TRANSFORM") && next.IsPunct("(") && !usesScript(toks, i+1) {
				continue // SELECT transform(array, x -> …): the function
			}
			return warehouse.Rejectf("script transformation (SELECT %s …) is not allowed: it runs a command on the server", strings.ToUpper(t.Text))
		}
	}
	return nil
}

// usesScript reports whether the parenthesis at open is followed by USING
// (SELECT TRANSFORM (a, b) USING …) once closed.
func usesScript(toks []warehouse.Token, open int) bool {
	end := warehouse.ClosingParen(toks, open)
	return warehouse.TokenAt(toks, end+1).IsWord("USING")
}

// checkCalls applies the allow-list to every name followed by "(".
func checkCalls(toks []warehouse.Token) error {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.IsIdent() || !warehouse.TokenAt(toks, i+1).IsPunct("(") {
			continue
		}
		prev := warehouse.TokenAt(toks, i-1)
		word := ""
		if t.Kind == warehouse.TokenWord {
			word = strings.ToUpper(t.Text)
		}
		switch {
		case word == "TABLE":
			return warehouse.Rejectf("TABLE(…) arguments of table functions are not allowed")
		case word == "IDENTIFIER":
			return warehouse.Rejectf("IDENTIFIER(…) is not allowed: it names an object the guard cannot read")
		case syntaxParen(word, prev):
			continue // the grammar's own parenthesis; what it holds is scanned on
		case prev.IsPunct("."):
			return warehouse.FunctionNotAllowed(warehouse.QualifiedName(toks, i) + " (a catalog's function)")
		}
		end := warehouse.ClosingParen(toks, i+1)
		name := strings.ToLower(t.Ident())
		switch {
		case prev.IsWord("AS") && typeNames[name] || typeNames[name] && prev.IsPunct("<"), typeNames[name] && prev.IsPunct(","), typeNames[name] && prev.IsPunct(":"):
			// CAST(x AS decimal(10, 2)), array<decimal(10,2)>: a type's
			// parameters.
			if err := typeParameters(toks[i+2 : end]); err != nil {
				return err
			}
			i = end
			continue
		case prev.IsWord("AS") || prev.IsPunct(")") || prev.Kind == warehouse.TokenQuotedIdent,
			warehouse.TokenAt(toks, end+1).IsWord("AS") && warehouse.TokenAt(toks, end+2).IsPunct("("):
			// AS t (a, b), (SELECT …) t (a, b), `orders` o (a, b): an
			// alias's columns; WITH t (a, b) AS (…): a CTE's.
			if err := warehouse.ColumnList(toks[i+2 : end]); err != nil {
				return err
			}
			i = end
			continue
		}
		if !allowedFunctions[name] {
			return warehouse.FunctionNotAllowed(warehouse.Shorten(t.Ident()))
		}
	}
	return nil
}

// syntaxWords are reserved words (and EXPLAIN) that Spark's grammar may put
// before "(" and that are not functions.
var syntaxWords = warehouse.WordSet(
	"AND", "AS", "BETWEEN", "BY", "CASE", "CUBE", "DISTINCT", "ELSE", "ESCAPE", "EXCEPT", "EXISTS", "EXPLAIN",
	"FOR", "FROM", "HAVING", "IN", "INTERSECT", "IS", "JOIN", "LIKE", "ILIKE", "RLIKE", "REGEXP", "NOT", "ON", "OR",
	"ROLLUP", "SELECT", "THEN", "UNION", "USING", "VALUES", "WHEN", "WHERE", "WITH", "LATERAL", "MINUS",
	"PIVOT", "UNPIVOT", "TABLESAMPLE", "REPEATABLE", "WINDOW", "LIMIT", "OFFSET",
)

// syntaxParen reports whether word before "(" is grammar, not a call.
func syntaxParen(word string, prev warehouse.Token) bool {
	if word == "" {
		return false // a quoted name before "(" is always a call
	}
	if syntaxWords[word] {
		return true
	}
	switch word {
	case "OVER", "FILTER": // count(*) FILTER (WHERE …) OVER (…)
		return prev.IsPunct(")")
	case "GROUP": // percentile_cont(0.5) WITHIN GROUP (ORDER BY …)
		return prev.IsWord("WITHIN")
	case "SETS": // GROUPING SETS (…)
		return prev.IsWord("GROUPING")
	case "ALL", "ANY", "SOME": // x = ANY (SELECT …), UNION ALL (SELECT …)
		return prev.Kind == warehouse.TokenPunct && comparisons[prev.Text] ||
			prev.IsWord("UNION") || prev.IsWord("INTERSECT") || prev.IsWord("EXCEPT") || prev.IsWord("LIKE")
	}
	return false
}

var comparisons = warehouse.WordSet("=", "==", "<>", "!=", "<", ">", "<=", ">=", "<=>")

// typeNames are Spark's types that take parameters in parentheses.
var typeNames = warehouse.WordSet("decimal", "dec", "numeric", "varchar", "char", "character")

// typeParameters refuses anything in a type's parameters but numbers and
// commas.
func typeParameters(toks []warehouse.Token) error {
	for _, t := range toks {
		if t.Kind != warehouse.TokenNumber && !t.IsPunct(",") {
			return warehouse.Rejectf("%s is not allowed in a type's parameters", warehouse.Shorten(t.Text))
		}
	}
	return nil
}

// fileFormats are the data sources Spark reads a path with when one
// qualifies it (format.`path`, spark.sql.runSQLOnFiles): the built-in
// ones and the common table formats. Any other source is refused by the
// path rule, unless its path has no '/', ':' or '\'.
var fileFormats = warehouse.WordSet("parquet", "orc", "json", "csv", "text", "avro", "binaryfile", "xml", "delta", "iceberg",
	"hudi", "jdbc", "image", "libsvm", "kafka", "hive", "noop", "console", "memory", "rate", "socket",
	"org", "com") // org.apache.spark.sql.parquet.`path`: a source named by its class

// checkRelations refuses a dotted name that reads a file: qualified by a
// data source's name, or with a path ('/', ':' or '\') in a quoted part.
func checkRelations(toks []warehouse.Token) error {
	for i, t := range toks {
		if !t.IsIdent() {
			continue
		}
		dotted := warehouse.TokenAt(toks, i-1).IsPunct(".") || warehouse.TokenAt(toks, i+1).IsPunct(".")
		if !dotted {
			continue
		}
		if warehouse.TokenAt(toks, i+1).IsPunct(".") && warehouse.TokenAt(toks, i+2).IsIdent() && fileFormats[strings.ToLower(t.Ident())] {
			return warehouse.Rejectf("%s is not allowed: a name qualified by a data source (%s) reads files", warehouse.QualifiedName(toks, i), t.Ident())
		}
		if t.Kind == warehouse.TokenQuotedIdent && strings.ContainsAny(t.Ident(), "/:\\") {
			return warehouse.Rejectf("%s is not allowed: a name with a path in it reads files", warehouse.QualifiedName(toks, i))
		}
	}
	return nil
}
