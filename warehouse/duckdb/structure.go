package duckdb

import (
	"slices"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// structure fills in what the catalog functions do not say outright: the
// generated columns, from the statements that create the tables, and what
// each view reads, from its query. Checks are sorted by name.
func structure(tables map[key]*warehouse.Table, creates map[key]string) {
	for k, def := range creates {
		t := tables[k]
		for name, expr := range generatedColumns(def) {
			for i := range t.Columns {
				if c := &t.Columns[i]; c.Name == name {
					// duckdb_columns() gives a generated column's
					// expression, cast to its type, as its default:
					// it has none.
					c.Generated, c.Default = expr, nil
				}
			}
		}
	}
	// Unqualified names in a view resolve in the view's own schema
	// first, then in main.
	known := map[key]warehouse.TableName{}
	for k, t := range tables {
		known[key{strings.ToLower(k.schema), strings.ToLower(k.name)}] = t.Name
	}
	for k, t := range tables {
		slices.SortFunc(t.Checks, func(a, b warehouse.Check) int { return strings.Compare(a.Name, b.Name) })
		if t.Kind != "view" || t.Definition == "" {
			continue
		}
		refs, _ := warehouse.FromNames(Grammar, t.Definition)
		for _, ref := range refs {
			var schemas []string
			switch len(ref) {
			case 1:
				schemas = []string{k.schema, "main"}
			case 2:
				schemas = []string{ref[0]}
			case 3: // catalog.schema.table: only the current database is listed
				schemas = []string{ref[1]}
			}
			for _, sc := range schemas {
				if n, ok := known[key{strings.ToLower(sc), strings.ToLower(ref[len(ref)-1])}]; ok {
					t.Reads = append(t.Reads, n)
					break
				}
			}
		}
		slices.SortFunc(t.Reads, func(a, b warehouse.TableName) int {
			if c := strings.Compare(a.Schema, b.Schema); c != 0 {
				return c
			}
			return strings.Compare(a.Name, b.Name)
		})
		t.Reads = slices.Compact(t.Reads)
	}
}

// generatedColumns reads a CREATE TABLE statement as DuckDB keeps it
// (duckdb_tables().sql) and returns each generated column's expression:
// "name TYPE GENERATED ALWAYS AS((expr))", or "name AS (expr)". DuckDB's
// generated columns are all virtual.
func generatedColumns(create string) map[string]string {
	toks, err := Grammar.Tokenize(create)
	if err != nil {
		return nil
	}
	open := slices.IndexFunc(toks, func(t warehouse.Token) bool { return t.IsPunct("(") })
	if open < 0 {
		return nil
	}
	out := map[string]string{}
	element := func(part []warehouse.Token) {
		if len(part) < 3 || !part[0].IsIdent() {
			return
		}
		for _, w := range []string{"CONSTRAINT", "CHECK", "PRIMARY", "FOREIGN", "UNIQUE"} {
			if part[0].Kind == warehouse.TokenWord && part[0].IsWord(w) {
				return
			}
		}
		for i := 1; i+1 < len(part); i++ {
			if !part[i].IsWord("AS") || !part[i+1].IsPunct("(") {
				continue
			}
			// The expression is the parenthesis after AS, to its match.
			if end := warehouse.ClosingParen(part, i+1); end >= 0 {
				out[part[0].Ident()] = warehouse.Unwrap(Grammar, warehouse.Unwrap(Grammar, create[part[i+1].Pos:part[end].Pos+1]))
			}
			return
		}
	}
	depth, start := 0, open+1
	for j := open; j < len(toks); j++ {
		switch t := toks[j]; {
		case t.IsPunct("("):
			depth++
		case t.IsPunct(")"):
			if depth--; depth == 0 {
				element(toks[start:j])
				return out
			}
		case t.IsPunct(",") && depth == 1:
			element(toks[start:j])
			start = j + 1
		}
	}
	return out
}
