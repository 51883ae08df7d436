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
	open := slices.IndexFunc(toks, func(t warehouse.Token) bool { return t.IsPunct("(") })
	if open < 0 || slices.ContainsFunc(toks[:open], func(t warehouse.Token) bool { return t.IsWord("AS") }) {
		return ct
	}
	end := warehouse.ClosingParen(toks, open)
	if end < 0 {
		return ct
	}
	// Split the definitions at the commas outside parentheses.
	start, depth := open+1, 0
	for i := open + 1; i <= end; i++ {
		switch {
		case toks[i].IsPunct("("):
			depth++
		case toks[i].IsPunct(")") && i < end:
			depth--
		case depth == 0 && (toks[i].IsPunct(",") || i == end):
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
	if !slices.ContainsFunc(tableConstraintWords, func(w string) bool { return toks[0].IsWord(w) }) {
		column = foldASCII(toks[0].Ident())
		i = 1
	}
	name := "" // the name a CONSTRAINT clause gives the next constraint
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.IsWord("CONSTRAINT") && i+1 < len(toks):
			name = toks[i+1].Ident()
			i++
			continue
		case t.IsWord("CHECK") && i+1 < len(toks) && toks[i+1].IsPunct("("):
			end := warehouse.ClosingParen(toks, i+1)
			if end < 0 {
				return
			}
			ct.checks = append(ct.checks, warehouse.Check{Name: name, Expression: inside(sql, toks, i+1, end)})
			i = end
		case t.IsWord("AS") && i+1 < len(toks) && toks[i+1].IsPunct("(") && column != "":
			end := warehouse.ClosingParen(toks, i+1)
			if end < 0 {
				return
			}
			ct.generated[column] = inside(sql, toks, i+1, end)
			i = end
		case t.IsWord("PRIMARY"):
			ct.pkName = name
			if column == "" && i+2 < len(toks) && toks[i+2].IsPunct("(") {
				// PRIMARY KEY (id AUTOINCREMENT), which SQLite also accepts
				end := warehouse.ClosingParen(toks, i+2)
				if end < 0 {
					return
				}
				if end > i+3 && slices.ContainsFunc(toks[i+3:end], func(t warehouse.Token) bool { return t.IsWord("AUTOINCREMENT") }) {
					ct.autoinc[foldASCII(toks[i+3].Ident())] = true
				}
				i = end
			}
		case t.IsWord("AUTOINCREMENT") && column != "":
			ct.autoinc[column] = true
		case t.IsWord("FOREIGN") && i+2 < len(toks) && toks[i+2].IsPunct("("):
			end := warehouse.ClosingParen(toks, i+2)
			if end < 0 {
				return
			}
			fk := textFK{name: name}
			for _, c := range toks[i+3 : end] {
				if c.IsIdent() {
					fk.columns = append(fk.columns, foldASCII(c.Ident()))
				}
			}
			ct.fks = append(ct.fks, fk)
			i = skipReferences(toks, end+1) - 1
		case t.IsWord("REFERENCES") && column != "":
			ct.fks = append(ct.fks, textFK{name: name, columns: []string{column}})
			i = skipReferences(toks, i) - 1
		case t.IsPunct("("):
			// a type's size, a DEFAULT's expression, a COLLATE…: no structure of ours
			end := warehouse.ClosingParen(toks, i)
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
	for i < len(toks) && !toks[i].IsWord("REFERENCES") {
		i++
	}
	i += 2
	if i < len(toks) && toks[i].IsPunct("(") {
		if end := warehouse.ClosingParen(toks, i); end >= 0 {
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
	open := slices.IndexFunc(toks, func(t warehouse.Token) bool { return t.IsPunct("(") })
	if open < 0 {
		return ""
	}
	end := warehouse.ClosingParen(toks, open)
	if end < 0 || end+1 >= len(toks) || !toks[end+1].IsWord("WHERE") {
		return ""
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(def[toks[end+1].Pos+len("WHERE"):]), ";"))
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
	on := slices.IndexFunc(toks, func(t warehouse.Token) bool { return t.IsWord("ON") })
	if on < 0 {
		return warehouse.Trigger{}, false
	}
	tr := warehouse.Trigger{Name: name, Timing: "BEFORE", Definition: def}
	for i, t := range toks[:on] {
		switch {
		case t.IsWord("BEFORE"), t.IsWord("AFTER"):
			tr.Timing = strings.ToUpper(t.Text)
		case t.IsWord("INSTEAD") && i+1 < on && toks[i+1].IsWord("OF"):
			tr.Timing = "INSTEAD OF"
		case t.IsWord("INSERT"), t.IsWord("UPDATE"), t.IsWord("DELETE"):
			if tr.Events == nil {
				tr.Events = []string{strings.ToUpper(t.Text)}
			}
		}
	}
	return tr, tr.Events != nil
}
