package llm

import (
	"fmt"
	"sort"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Ground checks that every table and column sql names exists in the
// Controller's tables, and that every join has a condition. It reads the
// statement's tokens, not a full parse: names it cannot place (a CTE's or
// a subquery's output columns, function names, keywords) are accepted when
// the statement itself defines them, refused otherwise. The guard has
// already made sure the statement only reads.
func (c *Controller) Ground(sql string) error {
	toks, err := warehouse.Tokenize(c.Dialect, sql)
	if err != nil {
		return fmt.Errorf("grounding: %w", err)
	}
	g := grounder{toks: toks, used: make([]bool, len(toks)), tables: map[string]*warehouse.Table{},
		defined: map[string]bool{}, aliases: map[string]*warehouse.Table{}, columns: map[string]bool{}}
	for i := range c.Tables {
		t := &c.Tables[i]
		g.tables[strings.ToLower(t.Name.String())] = t
	}
	if err := g.collect(); err != nil {
		return err
	}
	if err := g.joins(); err != nil {
		return err
	}
	return g.names(c.Dialect)
}

type grounder struct {
	toks    []warehouse.Token
	used    []bool                      // tokens already accounted for
	tables  map[string]*warehouse.Table // the database's, by lower-case name
	defined map[string]bool             // CTE names, subquery and column aliases
	aliases map[string]*warehouse.Table // table alias (and bare table name) → table
	columns map[string]bool             // columns of the tables the statement reads
}

func (g *grounder) word(i int, kw string) bool {
	return i >= 0 && i < len(g.toks) && g.toks[i].Kind == warehouse.TokenWord && strings.EqualFold(g.toks[i].Text, kw)
}

func (g *grounder) punct(i int, p string) bool {
	return i >= 0 && i < len(g.toks) && g.toks[i].Kind == warehouse.TokenPunct && g.toks[i].Text == p
}

func (g *grounder) ident(i int) bool {
	if i < 0 || i >= len(g.toks) {
		return false
	}
	t := g.toks[i]
	return t.Kind == warehouse.TokenQuotedIdent || (t.Kind == warehouse.TokenWord && !sqlKeywords[strings.ToUpper(t.Text)])
}

func (g *grounder) name(i int) string { return strings.ToLower(g.toks[i].Ident()) }

// collect finds CTE names, aliases and the tables read.
func (g *grounder) collect() error {
	n := len(g.toks)
	for i := 0; i < n; i++ {
		switch {
		// WITH name AS ( … ), name AS ( … )
		case g.ident(i) && g.word(i+1, "AS") && g.punct(i+2, "(") && (g.word(i-1, "WITH") || g.word(i-1, "RECURSIVE") || g.punct(i-1, ",")):
			g.defined[g.name(i)] = true
			g.used[i] = true
		// expr AS alias; CAST(x AS type) lands here too, harmlessly
		case g.word(i, "AS") && i+1 < n && (g.ident(i+1) || g.toks[i+1].Kind == warehouse.TokenWord) && !g.punct(i+2, "("):
			g.defined[g.name(i+1)] = true
			g.used[i+1] = true
		}
	}
	inFrom := map[int]bool{}
	depth := 0
	for i := 0; i < n; i++ {
		t := g.toks[i]
		switch {
		case g.punct(i, "("):
			depth++
			continue
		case g.punct(i, ")"):
			inFrom[depth] = false
			depth--
			continue
		case t.Kind == warehouse.TokenWord && clauseEnd[strings.ToUpper(t.Text)]:
			inFrom[depth] = false
		}
		ref := false
		switch {
		case g.word(i, "FROM"):
			inFrom[depth] = true
			ref = true
		case g.word(i, "JOIN"):
			ref = true
		case g.punct(i, ",") && inFrom[depth]:
			ref = true
		}
		if !ref || i+1 >= n {
			continue
		}
		if err := g.tableRef(i + 1); err != nil {
			return err
		}
	}
	return nil
}

// tableRef reads the table reference starting at token i.
func (g *grounder) tableRef(i int) error {
	n := len(g.toks)
	if g.punct(i, "(") { // a derived table: its alias follows the closing parenthesis
		g.alias(g.skipParens(i), nil)
		return nil
	}
	if i >= n || (g.toks[i].Kind != warehouse.TokenWord && g.toks[i].Kind != warehouse.TokenQuotedIdent) {
		return nil
	}
	if g.punct(i+1, "(") { // a table-valued function: json_each(x)
		g.alias(g.skipParens(i+1), nil)
		return nil
	}
	name, last := g.name(i), i
	if g.punct(i+1, ".") && i+2 < n {
		name, last = name+"."+g.name(i+2), i+2
	}
	t, known := g.tables[name]
	if !known {
		if i != last && g.tables[g.name(last)] != nil && (name == "main."+g.name(last)) {
			t, known = g.tables[g.name(last)], true
		}
	}
	if !known && !g.defined[name] {
		return fmt.Errorf("no table %q in the database (tables: %s)", g.toks[i].Ident(), g.tableList())
	}
	for j := i; j <= last; j++ {
		g.used[j] = true
	}
	if known {
		g.aliases[name] = t
		g.aliases[strings.ToLower(t.Name.Name)] = t
		for _, c := range t.Columns {
			g.columns[strings.ToLower(c.Name)] = true
		}
	}
	g.alias(last+1, t)
	return nil
}

func (g *grounder) skipParens(i int) int {
	depth := 0
	for j := i; j < len(g.toks); j++ {
		switch {
		case g.punct(j, "("):
			depth++
		case g.punct(j, ")"):
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(g.toks)
}

// alias records the alias at token i ("AS x" or a bare "x"), if any.
func (g *grounder) alias(i int, t *warehouse.Table) {
	if g.word(i, "AS") {
		i++
	}
	if !g.ident(i) {
		return
	}
	g.used[i] = true
	g.aliases[g.name(i)] = t
	g.defined[g.name(i)] = true
}

func (g *grounder) tableList() string {
	var names []string
	for _, t := range g.tables {
		names = append(names, t.Name.String())
	}
	sort.Strings(names)
	if len(names) > 20 {
		names = append(names[:20], "…")
	}
	return strings.Join(names, ", ")
}

// joins refuses a JOIN without ON or USING (other than NATURAL), and a
// comma-separated FROM list without a WHERE at its level: both multiply
// rows when the key is missing.
func (g *grounder) joins() error {
	n := len(g.toks)
	for i := 0; i < n; i++ {
		if !g.word(i, "JOIN") || g.word(i-1, "NATURAL") {
			continue
		}
		if g.word(i-1, "CROSS") {
			return fmt.Errorf("CROSS JOIN multiplies rows: join on the key columns with ON")
		}
		depth, ok := 0, false
	scan:
		for j := i + 1; j < n; j++ {
			switch {
			case g.punct(j, "("):
				depth++
			case g.punct(j, ")"):
				if depth == 0 {
					break scan
				}
				depth--
			case depth == 0 && (g.word(j, "ON") || g.word(j, "USING")):
				ok = true
				break scan
			case depth == 0 && (g.word(j, "JOIN") || (g.toks[j].Kind == warehouse.TokenWord && clauseEnd[strings.ToUpper(g.toks[j].Text)])):
				break scan
			}
		}
		if !ok {
			return fmt.Errorf("a JOIN without ON or USING multiplies rows (row explosion): join on the key columns")
		}
	}
	// FROM a, b without WHERE at the same level.
	depth := 0
	inFrom := map[int]bool{}
	commas := map[int]bool{}
	for i := 0; i < n; i++ {
		switch {
		case g.punct(i, "("):
			depth++
		case g.punct(i, ")"):
			if commas[depth] {
				return fmt.Errorf("tables listed with commas and no WHERE condition multiply rows (row explosion): join on the key columns")
			}
			inFrom[depth], commas[depth] = false, false
			depth--
		case g.word(i, "FROM"):
			inFrom[depth] = true
		case g.word(i, "WHERE"):
			inFrom[depth], commas[depth] = false, false
		case g.toks[i].Kind == warehouse.TokenWord && clauseEnd[strings.ToUpper(g.toks[i].Text)]:
			if commas[depth] {
				return fmt.Errorf("tables listed with commas and no WHERE condition multiply rows (row explosion): join on the key columns")
			}
			inFrom[depth] = false
		case g.punct(i, ",") && inFrom[depth]:
			commas[depth] = true
		}
	}
	if commas[0] {
		return fmt.Errorf("tables listed with commas and no WHERE condition multiply rows (row explosion): join on the key columns")
	}
	return nil
}

// names checks every identifier not yet accounted for.
func (g *grounder) names(dialect string) error {
	n := len(g.toks)
	for i := 0; i < n; i++ {
		t := g.toks[i]
		if g.used[i] || (t.Kind != warehouse.TokenWord && t.Kind != warehouse.TokenQuotedIdent) {
			continue
		}
		if g.punct(i+1, "(") && t.Kind == warehouse.TokenWord { // a function
			continue
		}
		if g.punct(i-1, ".") { // the member of a qualified name, checked with its qualifier
			continue
		}
		name := g.name(i)
		if g.punct(i+1, ".") && i+2 < n {
			tbl, isAlias := g.aliases[name]
			if !isAlias && !g.defined[name] {
				return fmt.Errorf("%q is not a table or alias of this query", t.Ident())
			}
			m := g.toks[i+2]
			if tbl != nil && (m.Kind == warehouse.TokenWord || m.Kind == warehouse.TokenQuotedIdent) && !hasColumn(tbl, m.Ident()) && !pseudoColumn(dialect, m.Ident()) {
				return fmt.Errorf("table %s has no column %q (its columns: %s)", tbl.Name, m.Ident(), columnList(tbl))
			}
			g.used[i+2] = true
			continue
		}
		switch {
		case g.columns[name], g.defined[name], g.aliases[name] != nil, pseudoColumn(dialect, name):
		case t.Kind == warehouse.TokenWord && sqlKeywords[strings.ToUpper(t.Text)]:
		case t.Kind == warehouse.TokenQuotedIdent && strings.HasPrefix(t.Text, `"`) && dialect == "sqlite":
			return fmt.Errorf("unknown column %s (write text values in single quotes)", t.Text)
		default:
			return fmt.Errorf("unknown column or table %q", t.Ident())
		}
	}
	return nil
}

func hasColumn(t *warehouse.Table, name string) bool {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return true
		}
	}
	return false
}

func columnList(t *warehouse.Table) string {
	var names []string
	for _, c := range t.Columns {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}

func pseudoColumn(dialect, name string) bool {
	switch strings.ToLower(name) {
	case "rowid", "oid", "_rowid_":
		return dialect == "sqlite"
	}
	return false
}

// clauseEnd are the words that end a FROM list.
var clauseEnd = setOf("WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "EXCEPT", "INTERSECT",
	"WINDOW", "SELECT", "OFFSET", "FETCH", "QUALIFY")

// sqlKeywords are words a grounded statement may use that name no table
// or column.
var sqlKeywords = setOf(
	"SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "NULL", "IS", "IN", "EXISTS", "BETWEEN", "LIKE", "GLOB",
	"ILIKE", "SIMILAR", "REGEXP", "CASE", "WHEN", "THEN", "ELSE", "END", "AS", "ON", "USING", "JOIN", "LEFT",
	"RIGHT", "INNER", "OUTER", "FULL", "CROSS", "NATURAL", "GROUP", "BY", "ORDER", "HAVING", "LIMIT", "OFFSET",
	"UNION", "ALL", "ANY", "SOME", "INTERSECT", "EXCEPT", "DISTINCT", "ASC", "DESC", "WITH", "RECURSIVE",
	"TRUE", "FALSE", "CAST", "ESCAPE", "COLLATE", "NOCASE", "BINARY", "RTRIM", "FILTER", "OVER", "PARTITION",
	"ROWS", "RANGE", "GROUPS", "PRECEDING", "FOLLOWING", "UNBOUNDED", "CURRENT", "ROW", "NULLS", "FIRST",
	"LAST", "ISNULL", "NOTNULL", "INTERVAL", "INTEGER", "INT", "BIGINT", "SMALLINT", "REAL", "TEXT",
	"NUMERIC", "DECIMAL", "FLOAT", "DOUBLE", "PRECISION", "VARCHAR", "CHAR", "CHARACTER", "VARYING", "DATE",
	"TIME", "TIMESTAMP", "BOOLEAN", "BLOB", "WINDOW", "FETCH", "NEXT", "ONLY", "TIES", "EXCLUDE", "OTHERS",
	"QUALIFY", "LATERAL", "VALUES", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "YEAR", "MONTH",
	"DAY", "HOUR", "MINUTE", "SECOND", "EPOCH", "AT", "ZONE", "SIGNED", "UNSIGNED", "EXTRACT", "MATERIALIZED",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
