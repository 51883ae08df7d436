package sqlite

import (
	"slices"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// SQLite keeps no structure beyond columns, keys and indexes in its
// pragmas: checks, generated expressions, AUTOINCREMENT, constraint names,
// a view's query and a trigger's timing live only in the CREATE text that
// sqlite_schema keeps. This file reads that text through the guard's
// lexer (Grammar.Tokenize), so that a string or a quoted identifier
// holding ')', ',' or CHECK is one token and never read as structure.
// SQLite keeps no comments: a comment in the CREATE text is the author's
// note, not a column's comment, and the lexer drops it.

// createTable is what the CREATE TABLE text declares beyond the pragmas.
type createTable struct {
	checks    []warehouse.Check
	pkName    string
	generated map[string]string // folded column name → expression
	autoinc   map[string]bool   // folded column name → declared AUTOINCREMENT
	fks       []textFK          // in declaration order, as pragma_foreign_key_list numbers them
}

// textFK is one foreign key as the text declares it.
type textFK struct {
	name    string
	columns []string // folded
}

func tokens(sql string) []warehouse.Token {
	toks, err := Grammar.Tokenize(sql)
	if err != nil {
		return nil
	}
	return toks
}

func isWord(t warehouse.Token, kw string) bool {
	return t.Kind == warehouse.TokenWord && strings.EqualFold(t.Text, kw)
}

func isPunct(t warehouse.Token, p string) bool {
	return t.Kind == warehouse.TokenPunct && t.Text == p
}

func isIdent(t warehouse.Token) bool {
	return t.Kind == warehouse.TokenWord || t.Kind == warehouse.TokenQuotedIdent
}

// closing returns the index of the ")" that closes the "(" at i, or -1.
func closing(toks []warehouse.Token, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		switch {
		case isPunct(toks[i], "("):
			depth++
		case isPunct(toks[i], ")"):
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// inside is the text between the "(" at open and the ")" at end, as written.
func inside(sql string, toks []warehouse.Token, open, end int) string {
	return strings.TrimSpace(sql[toks[open].Pos+1 : toks[end].Pos])
}

// parseCreateTable reads a CREATE TABLE statement's column definitions and
// table constraints. A statement it cannot read (CREATE TABLE … AS SELECT,
// text the lexer refuses) yields nothing rather than a guess.
func parseCreateTable(sql string) createTable {
	ct := createTable{generated: map[string]string{}, autoinc: map[string]bool{}}
	toks := tokens(sql)
	open := slices.IndexFunc(toks, func(t warehouse.Token) bool { return isPunct(t, "(") })
	if open < 0 || slices.ContainsFunc(toks[:open], func(t warehouse.Token) bool { return isWord(t, "AS") }) {
		return ct
	}
	end := closing(toks, open)
	if end < 0 {
		return ct
	}
	// Split the definitions at the commas outside parentheses.
	start, depth := open+1, 0
	for i := open + 1; i <= end; i++ {
		switch {
		case isPunct(toks[i], "("):
			depth++
		case isPunct(toks[i], ")") && i < end:
			depth--
		case depth == 0 && (isPunct(toks[i], ",") || i == end):
			if i > start {
				ct.definition(sql, toks[start:i])
			}
			start = i + 1
		}
	}
	return ct
}

// tableConstraintWords begin a table constraint rather than a column.
var tableConstraintWords = []string{"CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"}

// definition reads one column definition or table constraint.
func (ct *createTable) definition(sql string, toks []warehouse.Token) {
	column := ""
	i := 0
	if !slices.ContainsFunc(tableConstraintWords, func(w string) bool { return isWord(toks[0], w) }) {
		column = foldASCII(toks[0].Ident())
		i = 1
	}
	name := "" // the name a CONSTRAINT clause gives the next constraint
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case isWord(t, "CONSTRAINT") && i+1 < len(toks):
			name = toks[i+1].Ident()
			i++
			continue
		case isWord(t, "CHECK") && i+1 < len(toks) && isPunct(toks[i+1], "("):
			end := closing(toks, i+1)
			if end < 0 {
				return
			}
			ct.checks = append(ct.checks, warehouse.Check{Name: name, Expression: inside(sql, toks, i+1, end)})
			i = end
		case isWord(t, "AS") && i+1 < len(toks) && isPunct(toks[i+1], "(") && column != "":
			end := closing(toks, i+1)
			if end < 0 {
				return
			}
			ct.generated[column] = inside(sql, toks, i+1, end)
			i = end
		case isWord(t, "PRIMARY"):
			ct.pkName = name
			if column == "" && i+2 < len(toks) && isPunct(toks[i+2], "(") {
				// PRIMARY KEY (id AUTOINCREMENT), which SQLite also accepts
				end := closing(toks, i+2)
				if end < 0 {
					return
				}
				if end > i+3 && slices.ContainsFunc(toks[i+3:end], func(t warehouse.Token) bool { return isWord(t, "AUTOINCREMENT") }) {
					ct.autoinc[foldASCII(toks[i+3].Ident())] = true
				}
				i = end
			}
		case isWord(t, "AUTOINCREMENT") && column != "":
			ct.autoinc[column] = true
		case isWord(t, "FOREIGN") && i+2 < len(toks) && isPunct(toks[i+2], "("):
			end := closing(toks, i+2)
			if end < 0 {
				return
			}
			fk := textFK{name: name}
			for _, c := range toks[i+3 : end] {
				if isIdent(c) {
					fk.columns = append(fk.columns, foldASCII(c.Ident()))
				}
			}
			ct.fks = append(ct.fks, fk)
			i = skipReferences(toks, end+1) - 1
		case isWord(t, "REFERENCES") && column != "":
			ct.fks = append(ct.fks, textFK{name: name, columns: []string{column}})
			i = skipReferences(toks, i) - 1
		case isPunct(t, "("):
			// a type's size, a DEFAULT's expression, a COLLATE…: no structure of ours
			end := closing(toks, i)
			if end < 0 {
				return
			}
			i = end
		}
		name = ""
	}
}

// skipReferences returns the index past "REFERENCES parent(cols)" at or
// after i; the referential actions that follow are the pragma's to report.
func skipReferences(toks []warehouse.Token, i int) int {
	for i < len(toks) && !isWord(toks[i], "REFERENCES") {
		i++
	}
	i += 2
	if i < len(toks) && isPunct(toks[i], "(") {
		if end := closing(toks, i); end >= 0 {
			return end + 1
		}
		return len(toks)
	}
	return min(i, len(toks))
}

// indexPredicate is a partial index's condition: the text after the WHERE
// that follows the column list of a CREATE INDEX statement.
func indexPredicate(def string) string {
	toks := tokens(def)
	open := slices.IndexFunc(toks, func(t warehouse.Token) bool { return isPunct(t, "(") })
	if open < 0 {
		return ""
	}
	end := closing(toks, open)
	if end < 0 || end+1 >= len(toks) || !isWord(toks[end+1], "WHERE") {
		return ""
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(def[toks[end+1].Pos+len("WHERE"):]), ";"))
}

// viewQuery is a CREATE VIEW statement's query: the text after its AS, so
// that a view's definition reads as every engine reports it.
func viewQuery(def string) string {
	toks := tokens(def)
	for i := 0; i < len(toks); i++ {
		switch {
		case isPunct(toks[i], "("):
			// the view's column list
			if end := closing(toks, i); end >= 0 {
				i = end
			}
		case isWord(toks[i], "AS"):
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(def[toks[i].Pos+len("AS"):]), ";"))
		}
	}
	return ""
}

// viewReads lists the tables and views a view's query reads: the names
// its FROM clauses and joins name (warehouse.FromNames, at any depth of
// subqueries) that are objects of the database — not a common table
// expression's own name, nor another schema's than main and temp. names
// maps an ASCII-folded name to the object's name as created.
func viewReads(query, self string, names map[string]string) []warehouse.TableName {
	from, err := warehouse.FromNames(Grammar, query)
	if err != nil {
		return nil // a query the grammar cannot read names nothing surely
	}
	var reads []string
	for _, parts := range from {
		if len(parts) == 2 {
			if schema := foldASCII(parts[0]); schema != "main" && schema != "temp" {
				continue
			}
		} else if len(parts) != 1 {
			continue
		}
		if name, ok := names[foldASCII(parts[len(parts)-1])]; ok && name != self {
			reads = append(reads, name)
		}
	}
	slices.Sort(reads)
	reads = slices.Compact(reads)
	out := make([]warehouse.TableName, len(reads))
	for i, r := range reads {
		out[i] = warehouse.TableName{Name: r}
	}
	return out
}

// parseTrigger reads a CREATE TRIGGER statement's timing and event.
// SQLite fires a trigger that names no timing BEFORE; one trigger has one
// event.
func parseTrigger(name, def string) (warehouse.Trigger, bool) {
	toks := tokens(def)
	on := slices.IndexFunc(toks, func(t warehouse.Token) bool { return isWord(t, "ON") })
	if on < 0 {
		return warehouse.Trigger{}, false
	}
	tr := warehouse.Trigger{Name: name, Timing: "BEFORE", Definition: def}
	for i, t := range toks[:on] {
		switch {
		case isWord(t, "BEFORE"), isWord(t, "AFTER"):
			tr.Timing = strings.ToUpper(t.Text)
		case isWord(t, "INSTEAD") && i+1 < on && isWord(toks[i+1], "OF"):
			tr.Timing = "INSTEAD OF"
		case isWord(t, "INSERT"), isWord(t, "UPDATE"), isWord(t, "DELETE"):
			if tr.Events == nil {
				tr.Events = []string{strings.ToUpper(t.Text)}
			}
		}
	}
	return tr, tr.Events != nil
}
