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
//
// Names are resolved as the engine resolves them, by the rules its
// Dialect declares (warehouse.NameRules; see key and lookup): where
// unquoted names fold and quoted ones keep their case, "Users" and users
// are two tables; where table names compare exactly first, another case
// is taken only when it can mean one table; elsewhere every name compares
// in any case. Without a Dialect every name compares in any case.
func (c *Controller) Ground(sql string) error {
	toks, err := c.grammar().Tokenize(sql)
	if err != nil {
		return fmt.Errorf("grounding: %w", err)
	}
	g := grounder{rules: c.nameRules(), toks: toks, used: make([]bool, len(toks)),
		exact: map[string]*warehouse.Table{}, folded: map[string][]*warehouse.Table{},
		defined: map[string]bool{}, aliases: map[string]*warehouse.Table{}, columns: map[string]bool{}}
	for i := range c.Tables {
		t := &c.Tables[i]
		n := t.Name.String()
		g.exact[n] = t
		g.folded[strings.ToLower(n)] = append(g.folded[strings.ToLower(n)], t)
	}
	g.depths()
	if err := g.collect(); err != nil {
		return err
	}
	if err := g.joins(); err != nil {
		return err
	}
	return g.names()
}

type grounder struct {
	rules   warehouse.NameRules
	toks    []warehouse.Token
	depth   []int                         // each token's parenthesis depth
	used    []bool                        // tokens already accounted for
	exact   map[string]*warehouse.Table   // the database's tables, by name as spelled
	folded  map[string][]*warehouse.Table // … by lower-case name
	defined map[string]bool               // CTE names and columns, subquery, column and output aliases (keys)
	aliases map[string]*warehouse.Table   // table alias (and bare table name) → table; nil: a CTE or subquery
	columns map[string]bool               // columns of the tables the statement reads (keys)
	// openBelow is the shallowest depth of a PIVOT whose output columns are
	// named by the data (DuckDB's PIVOT … ON col without IN): a bare name
	// outside it, at a smaller depth, may be one of them. -1: none.
	openBelow int
}

func (g *grounder) word(i int, kw string) bool {
	return i >= 0 && i < len(g.toks) && g.toks[i].Kind == warehouse.TokenWord && strings.EqualFold(g.toks[i].Text, kw)
}

func (g *grounder) punct(i int, p string) bool {
	return i >= 0 && i < len(g.toks) && g.toks[i].Kind == warehouse.TokenPunct && g.toks[i].Text == p
}

func (g *grounder) kind(i int) warehouse.TokenKind {
	if i < 0 || i >= len(g.toks) {
		return 0
	}
	return g.toks[i].Kind
}

func (g *grounder) keyword(i int) bool {
	return g.kind(i) == warehouse.TokenWord && sqlKeywords[strings.ToUpper(g.toks[i].Text)]
}

func (g *grounder) ident(i int) bool {
	k := g.kind(i)
	return k == warehouse.TokenQuotedIdent || (k == warehouse.TokenWord && !g.keyword(i))
}

// key is the identifier at i as the engine compares it: folded to lower
// case (ASCII letters only) when unquoted and kept as written when quoted,
// where the rules say so (warehouse.CompareFoldUnquoted); in any case
// otherwise.
func (g *grounder) key(i int) string {
	t := g.toks[i]
	if g.rules.Compare == warehouse.CompareFoldUnquoted {
		if t.Kind == warehouse.TokenQuotedIdent {
			return t.Ident()
		}
		return asciiLower(t.Text)
	}
	return strings.ToLower(t.Ident())
}

// nameKey is a real name (a column's, a table's) as key gives it for a
// reference that means it.
func (g *grounder) nameKey(name string) string {
	if g.rules.Compare == warehouse.CompareFoldUnquoted {
		return name
	}
	return strings.ToLower(name)
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// lookup resolves the table name at tokens parts (one, or schema and
// table) as the engine would. ambiguous is set when the name matches
// several tables in other cases and none exactly.
func (g *grounder) lookup(parts ...int) (t *warehouse.Table, ambiguous bool) {
	keys, written := make([]string, len(parts)), make([]string, len(parts))
	for j, p := range parts {
		keys[j], written[j] = g.key(p), g.toks[p].Ident()
	}
	find := func(keys, written []string) (*warehouse.Table, bool) {
		if g.rules.Compare == warehouse.CompareFoldUnquoted {
			return g.exact[strings.Join(keys, ".")], false
		}
		if g.rules.ExactTableFirst {
			if t := g.exact[strings.Join(written, ".")]; t != nil {
				return t, false
			}
		}
		ts := g.folded[strings.ToLower(strings.Join(written, "."))]
		if len(ts) == 1 {
			return ts[0], false
		}
		return nil, len(ts) > 1
	}
	t, ambiguous = find(keys, written)
	if t == nil && len(parts) == 2 && strings.EqualFold(written[0], g.rules.DefaultSchema) {
		// main.orders, public.orders: the default schema's tables are listed bare.
		t, ambiguous = find(keys[1:], written[1:])
	}
	return t, ambiguous
}

// depths records each token's parenthesis depth.
func (g *grounder) depths() {
	g.depth = make([]int, len(g.toks))
	d := 0
	for i := range g.toks {
		if g.punct(i, ")") {
			d--
		}
		g.depth[i] = d
		if g.punct(i, "(") {
			d++
		}
	}
	g.openBelow = -1
}

// define records the name at token i as defined by the statement.
func (g *grounder) define(i int) {
	g.defined[g.key(i)] = true
	g.used[i] = true
}

// columnList defines the parenthesized identifiers starting at token i
// ("(a, b)") and returns their keys and the token after the list; ok is
// false (nothing defined) when i starts no such list.
func (g *grounder) columnList(i int) (cols []int, next int, ok bool) {
	if !g.punct(i, "(") {
		return nil, i, false
	}
	for j := i + 1; j < len(g.toks); j += 2 {
		if !g.ident(j) || !(g.punct(j+1, ",") || g.punct(j+1, ")")) {
			return nil, i, false
		}
		cols = append(cols, j)
		if g.punct(j+1, ")") {
			for _, c := range cols {
				g.define(c)
			}
			return cols, j + 2, true
		}
	}
	return nil, i, false
}

// collect finds CTE names, aliases, table functions' and PIVOTs' outputs,
// and the tables read.
func (g *grounder) collect() error {
	n := len(g.toks)
	for i := 0; i < n; i++ {
		switch {
		// WITH [RECURSIVE] name [(columns)] AS [[NOT] MATERIALIZED] ( … ), …
		case g.ident(i) && (g.word(i-1, "WITH") || g.word(i-1, "RECURSIVE") || g.punct(i-1, ",")) && g.cte(i):
		// expr AS alias, table AS alias [(columns)]; CAST(x AS type) lands
		// here too, harmlessly.
		case g.word(i, "AS") && i+1 < n && (g.ident(i+1) || g.kind(i+1) == warehouse.TokenWord):
			if g.punct(i+2, "(") {
				if _, _, ok := g.columnList(i + 2); !ok {
					continue // a type with its size: VARCHAR(10)
				}
			}
			g.define(i + 1)
		}
	}
	g.implicitAliases()
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
		case g.pivotStatement(i):
			// DuckDB's PIVOT t ON … / UNPIVOT t ON …: t is read like FROM t.
			g.used[i] = true
			if err := g.pivot(i); err != nil {
				return err
			}
			ref = true
		case g.word(i, "PIVOT") || g.word(i, "UNPIVOT"):
			// FROM t PIVOT ( … ) [alias], the SQL standard's form.
			g.used[i] = true
			if g.punct(i+1, "(") {
				g.pivotClause(i)
				g.alias(g.skipParens(i+1), nil)
			}
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

// cte records the CTE whose name is at token i, with its column list, and
// reports whether one starts there.
func (g *grounder) cte(i int) bool {
	j := i + 1
	var cols []int
	if g.punct(j, "(") {
		for k := j + 1; k < len(g.toks) && g.ident(k) && (g.punct(k+1, ",") || g.punct(k+1, ")")); k += 2 {
			cols = append(cols, k)
			if g.punct(k+1, ")") {
				j = k + 2
				break
			}
		}
		if j == i+1 {
			return false
		}
	}
	if !g.word(j, "AS") {
		return false
	}
	j++
	if g.word(j, "NOT") {
		j++
	}
	if g.word(j, "MATERIALIZED") {
		j++
	}
	if !g.punct(j, "(") {
		return false
	}
	g.define(i)
	for _, c := range cols {
		g.define(c)
	}
	return true
}

// implicitAliases defines the aliases of select-list items written
// without AS (SELECT COUNT(*) n …): a name right after the end of an
// expression that ends the item.
func (g *grounder) implicitAliases() {
	inSelect := map[int]bool{}
	for i := range g.toks {
		d := g.depth[i]
		switch {
		case g.punct(i, "(") || g.punct(i, ")"):
			inSelect[d+1] = false
			continue
		case g.word(i, "SELECT"):
			inSelect[d] = true
			continue
		case g.word(i, "FROM") || g.word(i, "INTO") || (g.kind(i) == warehouse.TokenWord && clauseEnd[strings.ToUpper(g.toks[i].Text)]):
			inSelect[d] = false
			continue
		}
		if inSelect[d] && !g.used[i] && g.ident(i) && g.endsExpression(i-1) && g.endsItem(i+1) {
			g.define(i)
		}
	}
}

// endsExpression reports whether token i can be the last of an expression.
func (g *grounder) endsExpression(i int) bool {
	switch g.kind(i) {
	case warehouse.TokenNumber, warehouse.TokenString, warehouse.TokenQuotedIdent, warehouse.TokenParam:
		return true
	case warehouse.TokenPunct:
		return g.punct(i, ")") || g.punct(i, "]")
	case warehouse.TokenWord:
		switch strings.ToUpper(g.toks[i].Text) {
		case "END", "NULL", "TRUE", "FALSE", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP":
			return true
		}
		if g.keyword(i) {
			return g.punct(i-1, "::") // x::INTEGER n
		}
		return true
	}
	return false
}

// endsItem reports whether token i ends a select-list item.
func (g *grounder) endsItem(i int) bool {
	if i >= len(g.toks) || g.punct(i, ",") || g.punct(i, ")") || g.punct(i, ";") {
		return true
	}
	return g.word(i, "FROM") || g.word(i, "INTO") || (g.kind(i) == warehouse.TokenWord && clauseEnd[strings.ToUpper(g.toks[i].Text)])
}

// pivotStatement reports whether token i starts DuckDB's PIVOT or UNPIVOT
// statement (not the FROM clause's PIVOT ( … )).
func (g *grounder) pivotStatement(i int) bool {
	if !(g.word(i, "PIVOT") || g.word(i, "UNPIVOT") || g.word(i, "PIVOT_WIDER") || g.word(i, "PIVOT_LONGER")) || g.punct(i+1, "(") && !g.word(i+2, "SELECT") {
		return false
	}
	return i == 0 || g.punct(i-1, "(")
}

// pivot reads the PIVOT or UNPIVOT statement at token i. UNPIVOT … INTO
// NAME n VALUE v[, …] defines n and v; PIVOT … ON col without IN (…)
// names its outputs by the data, which leaves the bare names outside it
// open; with IN, the listed values name them.
func (g *grounder) pivot(i int) error {
	end := len(g.toks)
	for j := i + 1; j < len(g.toks); j++ {
		if g.depth[j] < g.depth[i] {
			end = j
			break
		}
	}
	unpivot := g.word(i, "UNPIVOT") || g.word(i, "PIVOT_LONGER")
	hasIn := false
	for j := i + 1; j < end; j++ {
		if g.depth[j] != g.depth[i] {
			continue
		}
		switch {
		case unpivot && g.word(j, "INTO") && g.word(j+1, "NAME") && g.ident(j+2):
			g.used[j], g.used[j+1] = true, true
			g.define(j + 2)
			if g.word(j+3, "VALUE") {
				g.used[j+3] = true
				for k := j + 4; k < end && g.ident(k); k += 2 {
					g.define(k)
					if !g.punct(k+1, ",") {
						break
					}
				}
			}
		case !unpivot && g.word(j, "IN") && g.punct(j+1, "("):
			hasIn = true
			g.pivotValues(j + 1)
		}
	}
	if !unpivot && !hasIn && (g.openBelow < 0 || g.depth[i] < g.openBelow) {
		g.openBelow = g.depth[i]
	}
	return nil
}

// pivotClause reads FROM t PIVOT ( aggregates FOR col IN (values) … ) or
// UNPIVOT ( value FOR name IN (columns) ): the values name PIVOT's
// outputs; UNPIVOT's value and name columns are defined.
func (g *grounder) pivotClause(i int) {
	end := g.skipParens(i + 1)
	d := g.depth[i] + 1
	for j := i + 2; j < end; j++ {
		if g.depth[j] != d {
			continue
		}
		if g.word(i, "UNPIVOT") {
			// [INCLUDE NULLS] value FOR name IN (columns)
			if g.word(j, "FOR") {
				for k := i + 2; k < j; k++ {
					if g.ident(k) {
						g.define(k)
					}
				}
				if g.ident(j + 1) {
					g.define(j + 1)
				}
				return
			}
			continue
		}
		if g.word(j, "IN") && g.punct(j+1, "(") {
			g.pivotValues(j + 1)
		}
	}
}

// pivotValues defines the output names of a PIVOT's IN ( … ) list at token
// i: each value ('open', or a bare name), or its alias.
func (g *grounder) pivotValues(i int) {
	end := g.skipParens(i)
	for j := i + 1; j < end-1; j++ {
		if g.depth[j] != g.depth[i]+1 {
			continue
		}
		switch {
		case g.word(j, "AS") && g.ident(j+1):
			g.used[j] = true
			g.define(j + 1)
			j++
		case g.kind(j) == warehouse.TokenString:
			g.defined[g.nameKey(stringValue(g.toks[j].Text))] = true
		}
	}
}

// stringValue is a plain single-quoted string's content.
func stringValue(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// tableRef reads the table reference starting at token i.
func (g *grounder) tableRef(i int) error {
	n := len(g.toks)
	if g.word(i, "LATERAL") || g.word(i, "ONLY") {
		g.used[i] = true
		i++
	}
	if g.punct(i, "(") { // a derived table: its alias follows the closing parenthesis
		g.alias(g.skipParens(i), nil)
		return nil
	}
	if i >= n || (g.toks[i].Kind != warehouse.TokenWord && g.toks[i].Kind != warehouse.TokenQuotedIdent) {
		return nil
	}
	if g.punct(i+1, "(") { // a table-valued function: json_each(x), pragma_table_info('t')
		fn, err := g.tableFunction(i)
		if err != nil {
			return err
		}
		g.alias(g.skipParens(i+1), fn)
		return nil
	}
	parts := []int{i}
	if g.punct(i+1, ".") && i+2 < n {
		parts = append(parts, i+2)
	}
	last := parts[len(parts)-1]
	t, ambiguous := g.lookup(parts...)
	var name string
	for _, p := range parts {
		name += "." + g.key(p)
	}
	name = name[1:]
	if t == nil && !g.defined[name] {
		written := g.toks[i].Ident()
		if len(parts) == 2 {
			written += "." + g.toks[last].Ident()
		}
		if ambiguous {
			return fmt.Errorf("no table %q in the database: table names are case-sensitive here, and it differs only in case from several (tables: %s)", written, g.tableList())
		}
		return fmt.Errorf("no table %q in the database (tables: %s)", written, g.tableList())
	}
	for j := i; j <= last; j++ {
		g.used[j] = true
	}
	if t != nil {
		g.read(t, name)
	}
	g.alias(last+1, t)
	return nil
}

// read records that the statement reads t, named name in it: its columns
// may be named bare, and its name qualifies them.
func (g *grounder) read(t *warehouse.Table, name string) {
	g.aliases[name] = t
	g.aliases[g.nameKey(t.Name.Name)] = t
	for _, c := range t.Columns {
		g.columns[g.nameKey(c.Name)] = true
	}
}

// tableFunction is the table a table-valued function at token i returns,
// when the engine's function is one whose columns are known (nil
// otherwise). A function whose argument is a table (SQLite's
// pragma_table_info('orders')) must be given one of the database's.
func (g *grounder) tableFunction(i int) (*warehouse.Table, error) {
	g.used[i] = true
	fn := strings.ToLower(g.toks[i].Text)
	cols, ok := g.rules.TableFunctions[fn]
	if !ok {
		return nil, nil
	}
	if g.rules.TableNameArgs[fn] && g.kind(i+2) == warehouse.TokenString {
		arg := stringValue(g.toks[i+2].Text)
		if ts := g.folded[strings.ToLower(arg)]; len(ts) == 0 {
			return nil, fmt.Errorf("no table %q in the database for %s (tables: %s)", arg, fn, g.tableList())
		}
	}
	t := &warehouse.Table{Name: warehouse.TableName{Name: fn}, Kind: "function"}
	for j, c := range cols {
		t.Columns = append(t.Columns, warehouse.Column{Name: c, Position: j + 1})
	}
	g.read(t, g.nameKey(fn))
	return t, nil
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

// alias records the alias at token i ("AS x" or a bare "x"), if any, with
// its column list ("x(a, b)"), which renames the columns: the alias then
// stands for a table of those columns.
func (g *grounder) alias(i int, t *warehouse.Table) {
	if g.word(i, "AS") {
		g.used[i] = true
		i++
	}
	if !g.ident(i) {
		return
	}
	g.define(i)
	if cols, _, ok := g.columnList(i + 1); ok {
		t = &warehouse.Table{Name: warehouse.TableName{Name: g.toks[i].Ident()}, Kind: "alias"}
		for j, c := range cols {
			t.Columns = append(t.Columns, warehouse.Column{Name: g.toks[c].Ident(), Position: j + 1})
		}
	} else if g.rules.AliasNamesLoneColumn && t != nil && t.Kind == "function" && len(t.Columns) == 1 && t.Columns[0].Name == t.Name.Name {
		// generate_series(1, 3) AS g: a function whose one column has no
		// name of its own names it after its alias.
		t.Columns[0].Name = g.toks[i].Ident()
	}
	g.aliases[g.key(i)] = t
}

func (g *grounder) tableList() string {
	var names []string
	for _, t := range g.exact {
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
// rows when the key is missing. A LATERAL subquery or a table function
// (json_each(o.doc), UNNEST(o.items)) is read per row of what precedes
// it, so CROSS JOIN or a comma before one is no such product.
func (g *grounder) joins() error {
	n := len(g.toks)
	for i := 0; i < n; i++ {
		if !g.word(i, "JOIN") || g.word(i-1, "NATURAL") {
			continue
		}
		if g.word(i-1, "CROSS") {
			if g.correlated(i + 1) {
				continue
			}
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
		case g.punct(i, ",") && inFrom[depth] && !g.correlated(i+1):
			commas[depth] = true
		}
	}
	if commas[0] {
		return fmt.Errorf("tables listed with commas and no WHERE condition multiply rows (row explosion): join on the key columns")
	}
	return nil
}

// correlated reports whether the table reference at token i is read per
// row of the tables before it: LATERAL ( … ), or a function call.
func (g *grounder) correlated(i int) bool {
	return g.word(i, "LATERAL") || (g.kind(i) == warehouse.TokenWord && g.punct(i+1, "("))
}

// names checks every identifier not yet accounted for.
func (g *grounder) names() error {
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
		if g.punct(i-1, "::") { // a type: x::jsonb
			continue
		}
		name := g.key(i)
		if g.punct(i+1, ".") && i+2 < n {
			tbl, isAlias := g.aliases[name]
			if !isAlias && !g.defined[name] {
				return fmt.Errorf("%q is not a table or alias of this query", t.Ident())
			}
			m := i + 2
			if k := g.kind(m); tbl != nil && (k == warehouse.TokenWord || k == warehouse.TokenQuotedIdent) &&
				!g.hasColumn(tbl, m) && !g.rules.IsPseudoColumn(g.toks[m].Ident()) {
				return fmt.Errorf("table %s has no column %q (its columns: %s)", tbl.Name, g.toks[m].Ident(), columnList(tbl))
			}
			g.used[m] = true
			continue
		}
		switch {
		case g.columns[name], g.defined[name], g.aliases[name] != nil, g.rules.IsPseudoColumn(name):
		case t.Kind == warehouse.TokenWord && sqlKeywords[strings.ToUpper(t.Text)]:
		case g.openBelow >= 0 && g.depth[i] < g.openBelow:
			// Outside a PIVOT whose outputs the data names.
		case t.Kind == warehouse.TokenQuotedIdent && strings.HasPrefix(t.Text, `"`) && g.rules.QuotedMissReadsAsString:
			return fmt.Errorf("unknown column %s (write text values in single quotes)", t.Text)
		default:
			return fmt.Errorf("unknown column or table %q", t.Ident())
		}
	}
	return nil
}

// hasColumn reports whether the name at token i is a column of t, compared
// as the engine compares it.
func (g *grounder) hasColumn(t *warehouse.Table, i int) bool {
	k := g.key(i)
	for _, c := range t.Columns {
		if g.nameKey(c.Name) == k {
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
	"PIVOT", "UNPIVOT", "PIVOT_WIDER", "PIVOT_LONGER", "FOR", "INTO", "ARRAY", "INCLUDE",
	// MySQL's select modifiers: no implicit alias follows them.
	"SQL_NO_CACHE", "SQL_CALC_FOUND_ROWS", "HIGH_PRIORITY", "STRAIGHT_JOIN", "SQL_SMALL_RESULT",
	"SQL_BIG_RESULT", "SQL_BUFFER_RESULT",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
