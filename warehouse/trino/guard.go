package trino

// The guard: what an untrusted statement may be on Trino.
//
// No Go parser speaks Trino's grammar, so the guard works on the tokens of
// the project's lexer (Grammar.Tokenize, grammar.go), in three layers:
//
//  1. warehouse.Precheck: size, NUL bytes, nesting;
//  2. Grammar.Check, the statement-level rules: one SELECT,
//     WITH … SELECT, VALUES, TABLE t, SHOW, DESCRIBE or EXPLAIN of one
//     (EXPLAIN ANALYZE only over one that passes), nothing that writes;
//  3. an allow-list over the tokens: every name followed by "(" is a call
//     unless the "(" is the grammar's own (IN (…), OVER (…), a type's
//     parameters after AS, a CTE's or an alias's column list, …), and a
//     call must be of a side-effect-free built-in of guard_allow.go,
//     unqualified. TABLE(…) is refused: Trino's table functions
//     (system.query, exclude_columns, sequence, a connector's raw query)
//     hand SQL or arguments to the connector. Relations in the system
//     catalog (the cluster's queries, nodes, tasks, sessions, and the
//     kill_query procedure's home) and in jmx are refused, as is any name
//     qualified by a "system" schema, where connectors keep procedures and
//     table functions.
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
// It sends nothing to the cluster.
func (s *Source) Guard(_ context.Context, sql string) error {
	if c := strings.ToLower(s.catalog); c == "system" || c == "jmx" {
		return warehouse.Rejectf("the session catalog %s holds the cluster's own state, not data; no statement is allowed on it", c)
	}
	return guard(sql)
}

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
	if err := checkRelations(toks); err != nil {
		return err
	}
	if err := checkShowCreate(toks); err != nil {
		return err
	}
	return checkCalls(toks)
}

// checkShowCreate holds SHOW CREATE to the one form Trino's grammar has:
// SHOW CREATE TABLE, VIEW, MATERIALIZED VIEW, SCHEMA or FUNCTION, then a
// name and nothing after it. Grammar.Check lets any body follow SHOW; a
// body here could only be a statement the cluster does not parse, but
// what the guard does not know it refuses.
func checkShowCreate(toks []warehouse.Token) error {
	if !warehouse.TokenAt(toks, 0).IsWord("SHOW") || !warehouse.TokenAt(toks, 1).IsWord("CREATE") {
		return nil
	}
	i := 2
	switch t := warehouse.TokenAt(toks, i); {
	case t.IsWord("MATERIALIZED") && warehouse.TokenAt(toks, i+1).IsWord("VIEW"):
		i += 2
	case t.IsWord("TABLE"), t.IsWord("VIEW"), t.IsWord("SCHEMA"), t.IsWord("FUNCTION"):
		i++
	default:
		return warehouse.Rejectf("SHOW CREATE is allowed only of a table, view, materialized view, schema or function")
	}
	if !warehouse.TokenAt(toks, i).IsIdent() {
		return warehouse.Rejectf("SHOW CREATE needs a name")
	}
	for i++; warehouse.TokenAt(toks, i).IsPunct(".") && warehouse.TokenAt(toks, i+1).IsIdent(); i += 2 {
	}
	if i != len(toks) {
		return warehouse.Rejectf("SHOW CREATE takes a name and nothing after it")
	}
	return nil
}

// checkCalls applies the allow-list to every name followed by "(".
func checkCalls(toks []warehouse.Token) error {
	for i, t := range toks {
		switch {
		case t.IsPunct("`"):
			// Trino refuses backquoted names; what sits between backquotes
			// is not a name to this lexer either.
			return warehouse.Rejectf("backquotes are not allowed (Trino quotes names with \")")
		case t.IsWord("FUNCTION") && warehouse.TokenAt(toks, i+1).IsIdent() && warehouse.TokenAt(toks, i+2).IsPunct("("):
			return warehouse.Rejectf("WITH FUNCTION (an inline routine) is not allowed")
		}
	}
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
			return warehouse.Rejectf("TABLE(…) table functions are not allowed (they pass SQL and arguments to the connector)")
		case syntaxParen(word, prev):
			continue // the grammar's own parenthesis; what it holds is scanned on
		case prev.IsPunct("."):
			return warehouse.FunctionNotAllowed(warehouse.QualifiedName(toks, i) + " (a catalog's routine)")
		}
		end := warehouse.ClosingParen(toks, i+1)
		name := strings.ToLower(t.Ident())
		switch {
		case (prev.IsWord("AS") || prev.IsWord("RETURNING")) && typeNames[name]:
			// CAST(x AS decimal(10, 2)), json_value(… RETURNING varchar(9)):
			// a type's parameters, which may nest types.
			if err := typeParameters(toks[i+2 : end]); err != nil {
				return err
			}
			i = end
			continue
		case prev.IsWord("AS") || prev.IsPunct(")") || prev.Kind == warehouse.TokenQuotedIdent,
			warehouse.TokenAt(toks, end+1).IsWord("AS") && warehouse.TokenAt(toks, end+2).IsPunct("("):
			// AS t (a, b), (SELECT …) t (a, b), "orders" o (a, b): an
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

// syntaxWords are reserved words (and EXPLAIN) that Trino's grammar may
// put before "(" and that no function can be named unquoted.
var syntaxWords = warehouse.WordSet(
	"AND", "AS", "BETWEEN", "BY", "CASE", "CUBE", "DISTINCT", "ELSE", "ESCAPE", "EXCEPT", "EXISTS", "EXPLAIN",
	"FOR", "FROM", "HAVING", "IN", "INTERSECT", "IS", "JOIN", "LIKE", "NOT", "ON", "OR", "ROLLUP", "SELECT",
	"THEN", "UNION", "USING", "VALUES", "WHEN", "WHERE", "WITH", "LATERAL",
)

// syntaxParen reports whether word before "(" is grammar, not a call: a
// reserved word, or a non-reserved one in the one place it is syntax.
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
	case "GROUP": // listagg(…) WITHIN GROUP (ORDER BY …)
		return prev.IsWord("WITHIN")
	case "SETS": // GROUPING SETS (…)
		return prev.IsWord("GROUPING")
	case "BERNOULLI", "SYSTEM": // TABLESAMPLE BERNOULLI (10)
		return prev.IsWord("TABLESAMPLE")
	case "ALL", "ANY", "SOME": // x = ANY (SELECT …), UNION ALL (SELECT …)
		return prev.Kind == warehouse.TokenPunct && comparisons[prev.Text] ||
			prev.IsWord("UNION") || prev.IsWord("INTERSECT") || prev.IsWord("EXCEPT")
	}
	return false
}

var comparisons = warehouse.WordSet("=", "<>", "!=", "<", ">", "<=", ">=")

// typeNames are Trino's types that take parameters.
var typeNames = warehouse.WordSet("array", "map", "row", "decimal", "numeric", "varchar", "char", "varbinary",
	"timestamp", "time", "qdigest", "tdigest")

// typeParameters refuses anything in a type's parameters but numbers,
// field names, types and commas: there, an expression would be a call the
// guard did not check.
func typeParameters(toks []warehouse.Token) error {
	for j := 0; j < len(toks); j++ {
		t := toks[j]
		switch {
		case t.IsIdent() && warehouse.TokenAt(toks, j+1).IsPunct("("):
			if !typeNames[strings.ToLower(t.Ident())] || t.Kind != warehouse.TokenWord {
				return warehouse.Rejectf("%s(…) is not a type", warehouse.Shorten(t.Text))
			}
			j++ // its parameters are checked as these are
		case t.IsIdent(), t.Kind == warehouse.TokenNumber, t.IsPunct(","), t.IsPunct("("), t.IsPunct(")"):
		default:
			return warehouse.Rejectf("%s is not allowed in a type's parameters", warehouse.Shorten(t.Text))
		}
	}
	return nil
}

// forbiddenQualifiers are the names that may not qualify a relation or a
// routine: the system catalog (runtime.queries, runtime.nodes, the
// kill_query procedure), jmx (the JVMs' management beans), and the system
// schema of a connector (its procedures and table functions).
var forbiddenQualifiers = warehouse.WordSet("system", "jmx")

// checkRelations refuses a qualified name whose qualifier (any part but
// the last) is system or jmx: system.runtime.queries, "SYSTEM".runtime.nodes,
// hive.system.sync_partition_metadata. Case is folded, as Trino folds
// catalog and schema names.
func checkRelations(toks []warehouse.Token) error {
	for i := 0; i+2 < len(toks); i++ {
		t := toks[i]
		if !t.IsIdent() || !toks[i+1].IsPunct(".") || !toks[i+2].IsIdent() {
			continue
		}
		if forbiddenQualifiers[strings.ToLower(t.Ident())] {
			return warehouse.Rejectf("%s is not allowed (the system and jmx catalogs, and connectors' system schemas, hold the cluster's state and procedures, not data)", warehouse.QualifiedName(toks, i))
		}
	}
	return nil
}
