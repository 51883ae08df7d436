package duckdb

// The walk of the guard over DuckDB's parse (json_serialize_sql's JSON).
// It is typed and fail-closed: every query node, table reference,
// expression and modifier kind it accepts is listed here with the fields
// it may have, and a kind or a field it does not know is a refusal, so a
// DuckDB upgrade that adds one cannot slip past it unseen. Fields that hold
// only data (names, aliases, constants, types, sample sizes) are checked
// to hold no node at all.

import (
	"fmt"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

type obj = map[string]any

type checker struct {
	inv    *guardInventory
	probes int // placeholder IN lists of a PIVOT probe, as found in the tree
}

// scope is the chain of CTE names a relation may name, innermost first.
type scope struct {
	name string
	up   *scope
}

func (sc *scope) has(name string) bool {
	for ; sc != nil; sc = sc.up {
		if sc.name == name {
			return true
		}
	}
	return false
}

func (sc *scope) with(name string) *scope { return &scope{name: name, up: sc} }

// statements checks the one statement json_serialize_sql returned.
func (c *checker) statements(tree any) error { return c.statement(tree, nil) }

// statement is a SelectStatement: {"node": …, "named_param_map": […]}.
func (c *checker) statement(v any, sc *scope) error {
	o, err := object(v, "statement")
	if err != nil {
		return err
	}
	if err := known(o, "statement", nil, "node", "named_param_map"); err != nil {
		return err
	}
	if err := data(o["named_param_map"]); err != nil {
		return err
	}
	return c.node(o["node"], sc)
}

// node is a QueryNode.
func (c *checker) node(v any, sc *scope) error {
	o, err := object(v, "query")
	if err != nil {
		return err
	}
	kind := str(o["type"])
	switch kind {
	case "SELECT_NODE":
		if err := known(o, kind, nil, "type", "modifiers", "cte_map", "select_list", "from_table", "where_clause",
			"group_expressions", "group_sets", "aggregate_handling", "having", "sample", "qualify"); err != nil {
			return err
		}
		inner, err := c.ctes(o["cte_map"], sc)
		if err != nil {
			return err
		}
		if err := c.ref(o["from_table"], inner); err != nil {
			return err
		}
		for _, f := range []string{"select_list", "group_expressions"} {
			if err := c.exprs(o[f], inner); err != nil {
				return err
			}
		}
		for _, f := range []string{"where_clause", "having", "qualify"} {
			if err := c.optExpr(o[f], inner); err != nil {
				return err
			}
		}
		if err := data(o["group_sets"], o["aggregate_handling"], o["sample"]); err != nil {
			return err
		}
		return c.modifiers(o["modifiers"], inner)
	case "SET_OPERATION_NODE":
		if err := known(o, kind, nil, "type", "modifiers", "cte_map", "left", "right", "setop_type", "setop_all"); err != nil {
			return err
		}
		inner, err := c.ctes(o["cte_map"], sc)
		if err != nil {
			return err
		}
		for _, side := range []string{"left", "right"} {
			if err := c.node(o[side], inner); err != nil {
				return err
			}
		}
		if err := data(o["setop_type"], o["setop_all"]); err != nil {
			return err
		}
		return c.modifiers(o["modifiers"], inner)
	case "RECURSIVE_CTE_NODE":
		if err := known(o, kind, nil, "type", "modifiers", "cte_map", "cte_name", "union_all", "left", "right",
			"aliases", "key_targets"); err != nil {
			return err
		}
		inner, err := c.ctes(o["cte_map"], sc)
		if err != nil {
			return err
		}
		// The CTE names itself in its recursive part only; in the first
		// part the name is whatever it is outside (DuckDB binds it so).
		if err := c.node(o["left"], inner); err != nil {
			return err
		}
		if err := c.node(o["right"], inner.with(foldASCII(str(o["cte_name"])))); err != nil {
			return err
		}
		if err := c.exprs(o["key_targets"], inner); err != nil {
			return err
		}
		if err := data(o["cte_name"], o["union_all"], o["aliases"]); err != nil {
			return err
		}
		return c.modifiers(o["modifiers"], inner)
	}
	return unknownNode("query node", kind)
}

// ctes checks a WITH list and returns the scope of the query it heads.
// Each CTE sees those before it, not itself nor those after it: DuckDB
// binds a name there to a table, as the walk then does.
func (c *checker) ctes(v any, sc *scope) (*scope, error) {
	o, err := object(v, "WITH")
	if err != nil {
		return nil, err
	}
	if err := known(o, "WITH", nil, "map"); err != nil {
		return nil, err
	}
	entries, err := list(o["map"], "WITH")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		eo, err := object(e, "CTE")
		if err != nil {
			return nil, err
		}
		if err := known(eo, "CTE", nil, "key", "value"); err != nil {
			return nil, err
		}
		name, ok := eo["key"].(string)
		if !ok {
			return nil, unknownNode("CTE name", fmt.Sprint(eo["key"]))
		}
		cte, err := object(eo["value"], "CTE")
		if err != nil {
			return nil, err
		}
		if err := known(cte, "CTE", nil, "aliases", "query", "materialized", "key_targets"); err != nil {
			return nil, err
		}
		if err := c.statement(cte["query"], sc); err != nil {
			return nil, err
		}
		if err := c.exprs(cte["key_targets"], sc); err != nil {
			return nil, err
		}
		if err := data(cte["aliases"], cte["materialized"]); err != nil {
			return nil, err
		}
		sc = sc.with(foldASCII(name))
	}
	return sc, nil
}

// modifiers checks ORDER BY, LIMIT, OFFSET and DISTINCT [ON].
func (c *checker) modifiers(v any, sc *scope) error {
	mods, err := list(v, "modifiers")
	if err != nil {
		return err
	}
	for _, m := range mods {
		o, err := object(m, "modifier")
		if err != nil {
			return err
		}
		switch kind := str(o["type"]); kind {
		case "ORDER_MODIFIER":
			if err := c.order(o, sc); err != nil {
				return err
			}
		case "LIMIT_MODIFIER", "LIMIT_PERCENT_MODIFIER":
			if err := known(o, kind, nil, "type", "limit", "offset"); err != nil {
				return err
			}
			if err := c.optExpr(o["limit"], sc); err != nil {
				return err
			}
			if err := c.optExpr(o["offset"], sc); err != nil {
				return err
			}
		case "DISTINCT_MODIFIER":
			if err := known(o, kind, nil, "type", "distinct_on_targets"); err != nil {
				return err
			}
			if err := c.exprs(o["distinct_on_targets"], sc); err != nil {
				return err
			}
		default:
			return unknownNode("modifier", kind)
		}
	}
	return nil
}

// order checks an ORDER_MODIFIER: {"type", "orders": [{type, null_order, expression}]}.
func (c *checker) order(o obj, sc *scope) error {
	if err := known(o, "ORDER BY", nil, "type", "orders"); err != nil {
		return err
	}
	if str(o["type"]) != "ORDER_MODIFIER" {
		return unknownNode("ORDER BY", str(o["type"]))
	}
	return c.orderList(o["orders"], sc)
}

func (c *checker) orderList(v any, sc *scope) error {
	orders, err := list(v, "ORDER BY")
	if err != nil {
		return err
	}
	for _, e := range orders {
		eo, err := object(e, "ORDER BY")
		if err != nil {
			return err
		}
		if err := known(eo, "ORDER BY", nil, "type", "null_order", "expression"); err != nil {
			return err
		}
		if err := data(eo["type"], eo["null_order"]); err != nil {
			return err
		}
		if err := c.expr(eo["expression"], sc); err != nil {
			return err
		}
	}
	return nil
}

// refCommon are the fields every table reference has.
var refCommon = []string{"type", "alias", "sample", "query_location"}

// ref checks a TableRef.
func (c *checker) ref(v any, sc *scope) error {
	o, err := object(v, "table reference")
	if err != nil {
		return err
	}
	if err := data(o["alias"], o["sample"], o["query_location"]); err != nil {
		return err
	}
	kind := str(o["type"])
	switch kind {
	case "EMPTY":
		return known(o, kind, refCommon)
	case "BASE_TABLE":
		if err := known(o, kind, refCommon, "schema_name", "table_name", "column_name_alias", "catalog_name", "at_clause"); err != nil {
			return err
		}
		if o["at_clause"] != nil {
			return warehouse.Rejectf("AT (…) time travel is not allowed")
		}
		if err := data(o["column_name_alias"]); err != nil {
			return err
		}
		return c.relation(str(o["catalog_name"]), str(o["schema_name"]), str(o["table_name"]), sc)
	case "JOIN":
		if err := known(o, kind, refCommon, "left", "right", "condition", "join_type", "ref_type", "using_columns",
			"duplicate_eliminated_columns", "delim_flipped"); err != nil {
			return err
		}
		if l, err := list(o["duplicate_eliminated_columns"], kind); err != nil || len(l) != 0 {
			return unknownNode("join", "with duplicate-eliminated columns")
		}
		for _, side := range []string{"left", "right"} {
			if err := c.ref(o[side], sc); err != nil {
				return err
			}
		}
		if err := c.optExpr(o["condition"], sc); err != nil {
			return err
		}
		return data(o["join_type"], o["ref_type"], o["using_columns"], o["delim_flipped"])
	case "SUBQUERY":
		if err := known(o, kind, refCommon, "subquery", "column_name_alias"); err != nil {
			return err
		}
		if err := data(o["column_name_alias"]); err != nil {
			return err
		}
		return c.statement(o["subquery"], sc)
	case "TABLE_FUNCTION":
		if err := known(o, kind, refCommon, "function", "column_name_alias", "with_ordinality"); err != nil {
			return err
		}
		if err := data(o["column_name_alias"], o["with_ordinality"]); err != nil {
			return err
		}
		fn, err := object(o["function"], "table function")
		if err != nil {
			return err
		}
		if str(fn["class"]) != "FUNCTION" {
			return unknownNode("table function", str(fn["class"]))
		}
		return c.function(fn, sc, tableFunctionKind)
	case "EXPRESSION_LIST":
		if err := known(o, kind, refCommon, "values", "expected_names", "expected_types"); err != nil {
			return err
		}
		rows, err := list(o["values"], "VALUES")
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := c.exprs(r, sc); err != nil {
				return err
			}
		}
		return data(o["expected_names"], o["expected_types"])
	case "PIVOT":
		return c.pivot(o, sc)
	case "SHOW_REF":
		return c.show(o, sc)
	}
	return unknownNode("table reference", kind)
}

// relation checks a name in FROM: a CTE in scope (unqualified only), a
// table or view of the source, or a listed information_schema view.
// Anything else, a file name above all, is refused: DuckDB would read a
// name it does not find as a file (a replacement scan).
func (c *checker) relation(catalog, schema, name string, sc *scope) error {
	cat, sch, n := foldASCII(catalog), foldASCII(schema), foldASCII(name)
	if cat == "" && sch == "" && sc.has(n) {
		return nil
	}
	if sch == "information_schema" && (cat == "" || cat == "system") && allowedInfoSchema[n] {
		return nil
	}
	if c.inv.hasRelation(cat, sch, n) {
		return nil
	}
	return warehouse.NotAllowed(relationName(catalog, schema, name))
}

// hasRelation resolves a possibly qualified name as DuckDB does: a bare
// name and main.name in the default schema; a.b as schema a, else as
// catalog a's default schema; a.b.c as catalog, schema, name. The catalog
// must be the source's own database.
func (inv *guardInventory) hasRelation(cat, sch, n string) bool {
	switch {
	case cat != "" && cat != inv.catalog:
		return false
	case sch == "" || sch == "main":
		return inv.rels.Has("", n)
	case inv.rels.Has(sch, n):
		return true
	}
	return cat == "" && sch == inv.catalog && inv.rels.Has("", n)
}

// relationName quotes a possibly qualified name for a refusal, cut short
// if long: a refusal is one readable line.
func relationName(parts ...string) string {
	var q []string
	for _, p := range parts {
		if p != "" {
			q = append(q, QuoteIdent(p))
		}
	}
	name := strings.Join(q, ".")
	if len(name) > 120 {
		name = strings.ToValidUTF8(name[:120], "") + "…"
	}
	return name
}

// pivot checks a PIVOT or UNPIVOT reference.
func (c *checker) pivot(o obj, sc *scope) error {
	if err := known(o, "PIVOT", refCommon, "source", "aggregates", "unpivot_names", "pivots", "groups",
		"column_name_alias", "include_nulls"); err != nil {
		return err
	}
	if err := c.ref(o["source"], sc); err != nil {
		return err
	}
	if err := c.exprs(o["aggregates"], sc); err != nil {
		return err
	}
	if err := data(o["unpivot_names"], o["groups"], o["column_name_alias"], o["include_nulls"]); err != nil {
		return err
	}
	pivots, err := list(o["pivots"], "PIVOT")
	if err != nil {
		return err
	}
	for _, p := range pivots {
		po, err := object(p, "PIVOT")
		if err != nil {
			return err
		}
		if err := known(po, "PIVOT column", nil, "pivot_expressions", "unpivot_names", "entries", "pivot_enum"); err != nil {
			return err
		}
		if err := c.exprs(po["pivot_expressions"], sc); err != nil {
			return err
		}
		if err := data(po["unpivot_names"], po["pivot_enum"]); err != nil {
			return err
		}
		entries, err := list(po["entries"], "PIVOT")
		if err != nil {
			return err
		}
		for _, e := range entries {
			eo, err := object(e, "PIVOT value")
			if err != nil {
				return err
			}
			if err := known(eo, "PIVOT value", nil, "values", "star_expr", "alias"); err != nil {
				return err
			}
			if err := data(eo["values"], eo["alias"]); err != nil {
				return err
			}
			if err := c.optExpr(eo["star_expr"], sc); err != nil {
				return err
			}
			if isMarker(eo["values"]) {
				c.probes++
			}
		}
	}
	return nil
}

// isMarker reports a PIVOT value list that is the probe's placeholder.
func isMarker(v any) bool {
	l, ok := v.([]any)
	if !ok || len(l) != 1 {
		return false
	}
	o, ok := l[0].(obj)
	return ok && o["value"] == pivotMarker
}

// show checks DESCRIBE, SUMMARIZE and SHOW.
func (c *checker) show(o obj, sc *scope) error {
	if err := known(o, "SHOW", refCommon, "table_name", "query", "show_type", "catalog_name", "schema_name"); err != nil {
		return err
	}
	table, catalog, schema := str(o["table_name"]), str(o["catalog_name"]), str(o["schema_name"])
	switch kind := str(o["show_type"]); kind {
	case "DESCRIBE", "SUMMARY":
		if table != "" || catalog != "" || schema != "" || o["query"] == nil {
			return unknownNode("DESCRIBE", "naming a table outside its query")
		}
		return c.node(o["query"], sc)
	case "SHOW_UNQUALIFIED":
		if o["query"] != nil || catalog != "" || schema != "" || !allowedShows[table] {
			return warehouse.Rejectf("SHOW %s is not allowed (SHOW TABLES, SHOW ALL TABLES, SHOW SCHEMAS, SHOW DATABASES and DESCRIBE are)", strings.Trim(table, `"`))
		}
		return nil
	case "SHOW_FROM":
		cat, sch := foldASCII(catalog), foldASCII(schema)
		ok := o["query"] == nil && table == "" && (cat == "" || cat == c.inv.catalog) &&
			(c.inv.schemas[sch] || cat == "" && sch == c.inv.catalog)
		if !ok {
			return warehouse.Rejectf("SHOW TABLES FROM %s is not allowed (only the database's own schemas)", relationName(catalog, schema))
		}
		return nil
	default:
		return unknownNode("SHOW", kind)
	}
}

// ---------------------------------------------------------------------------
// Expressions.

var exprCommon = []string{"class", "type", "alias", "query_location"}

var (
	comparisons = warehouse.WordSet("COMPARE_EQUAL", "COMPARE_NOTEQUAL", "COMPARE_LESSTHAN", "COMPARE_GREATERTHAN",
		"COMPARE_LESSTHANOREQUALTO", "COMPARE_GREATERTHANOREQUALTO", "COMPARE_DISTINCT_FROM",
		"COMPARE_NOT_DISTINCT_FROM")
	conjunctions = warehouse.WordSet("CONJUNCTION_AND", "CONJUNCTION_OR")
	// operators are the OPERATOR expressions: each computes from its
	// children alone.
	operators = warehouse.WordSet("OPERATOR_NOT", "OPERATOR_IS_NULL", "OPERATOR_IS_NOT_NULL", "OPERATOR_COALESCE",
		"OPERATOR_NULLIF", "OPERATOR_TRY", "OPERATOR_UNPACK", "COMPARE_IN", "COMPARE_NOT_IN", "ARRAY_EXTRACT",
		"ARRAY_SLICE", "STRUCT_EXTRACT", "ARRAY_CONSTRUCTOR", "GROUPING_FUNCTION")
	subqueryKinds = warehouse.WordSet("SCALAR", "EXISTS", "NOT_EXISTS", "ANY")
)

func (c *checker) exprs(v any, sc *scope) error {
	l, err := list(v, "expressions")
	if err != nil {
		return err
	}
	for _, e := range l {
		if err := c.expr(e, sc); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) optExpr(v any, sc *scope) error {
	if v == nil {
		return nil
	}
	return c.expr(v, sc)
}

// expr checks a ParsedExpression.
func (c *checker) expr(v any, sc *scope) error {
	o, err := object(v, "expression")
	if err != nil {
		return err
	}
	if err := data(o["alias"], o["query_location"]); err != nil {
		return err
	}
	class, kind := str(o["class"]), str(o["type"])
	switch class {
	case "CONSTANT":
		if err := known(o, class, exprCommon, "value"); err != nil {
			return err
		}
		return data(o["value"])
	case "COLUMN_REF":
		if err := known(o, class, exprCommon, "column_names"); err != nil {
			return err
		}
		return data(o["column_names"])
	case "PARAMETER":
		if err := known(o, class, exprCommon, "identifier"); err != nil {
			return err
		}
		return data(o["identifier"])
	case "POSITIONAL_REFERENCE":
		if err := known(o, class, exprCommon, "index"); err != nil {
			return err
		}
		return data(o["index"])
	case "BETWEEN":
		return c.fields(o, class, sc, "input", "lower", "upper")
	case "COMPARISON":
		if !comparisons[kind] {
			return unknownNode("comparison", kind)
		}
		return c.fields(o, class, sc, "left", "right")
	case "CONJUNCTION":
		if !conjunctions[kind] {
			return unknownNode("conjunction", kind)
		}
		return c.childList(o, class, sc)
	case "OPERATOR":
		if !operators[kind] {
			return unknownNode("operator", kind)
		}
		return c.childList(o, class, sc)
	case "CAST":
		if err := known(o, class, exprCommon, "child", "cast_type", "try_cast"); err != nil {
			return err
		}
		if err := data(o["cast_type"], o["try_cast"]); err != nil {
			return err
		}
		return c.expr(o["child"], sc)
	case "COLLATE":
		if err := known(o, class, exprCommon, "child", "collation"); err != nil {
			return err
		}
		if err := data(o["collation"]); err != nil {
			return err
		}
		return c.expr(o["child"], sc)
	case "CASE":
		if err := known(o, class, exprCommon, "case_checks", "else_expr"); err != nil {
			return err
		}
		checks, err := list(o["case_checks"], class)
		if err != nil {
			return err
		}
		for _, ch := range checks {
			co, err := object(ch, "WHEN")
			if err != nil {
				return err
			}
			if err := known(co, "WHEN", nil, "when_expr", "then_expr"); err != nil {
				return err
			}
			if err := c.expr(co["when_expr"], sc); err != nil {
				return err
			}
			if err := c.expr(co["then_expr"], sc); err != nil {
				return err
			}
		}
		return c.optExpr(o["else_expr"], sc)
	case "LAMBDA":
		return c.fields(o, class, sc, "lhs", "expr")
	case "FUNCTION":
		return c.function(o, sc, scalarKind)
	case "WINDOW":
		return c.window(o, sc)
	case "STAR":
		return c.star(o, sc)
	case "SUBQUERY":
		if err := known(o, class, exprCommon, "subquery_type", "subquery", "child", "comparison_type"); err != nil {
			return err
		}
		if !subqueryKinds[str(o["subquery_type"])] {
			return unknownNode("subquery", str(o["subquery_type"]))
		}
		if err := data(o["comparison_type"]); err != nil {
			return err
		}
		if err := c.optExpr(o["child"], sc); err != nil {
			return err
		}
		return c.statement(o["subquery"], sc)
	}
	return unknownNode("expression", class+"/"+kind)
}

// fields checks an expression whose named fields are each one expression.
func (c *checker) fields(o obj, class string, sc *scope, names ...string) error {
	if err := known(o, class, exprCommon, names...); err != nil {
		return err
	}
	for _, n := range names {
		if err := c.expr(o[n], sc); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) childList(o obj, class string, sc *scope) error {
	if err := known(o, class, exprCommon, "children"); err != nil {
		return err
	}
	return c.exprs(o["children"], sc)
}

// star checks *, t.*, COLUMNS(…) and their EXCLUDE/REPLACE/RENAME.
func (c *checker) star(o obj, sc *scope) error {
	if err := known(o, "STAR", exprCommon, "relation_name", "exclude_list", "replace_list", "columns", "expr",
		"qualified_exclude_list", "rename_list", "unpacked"); err != nil {
		return err
	}
	if err := data(o["relation_name"], o["exclude_list"], o["columns"], o["qualified_exclude_list"], o["rename_list"], o["unpacked"]); err != nil {
		return err
	}
	replaces, err := list(o["replace_list"], "REPLACE")
	if err != nil {
		return err
	}
	for _, r := range replaces {
		ro, err := object(r, "REPLACE")
		if err != nil {
			return err
		}
		if err := known(ro, "REPLACE", nil, "key", "value"); err != nil {
			return err
		}
		if err := data(ro["key"]); err != nil {
			return err
		}
		if err := c.expr(ro["value"], sc); err != nil {
			return err
		}
	}
	return c.optExpr(o["expr"], sc)
}

// closedSchemas hold DuckDB's compatibility and temporary functions, none
// of which is on a list.
var closedSchemas = warehouse.WordSet("pg_catalog", "information_schema", "temp")

type callKind int

const (
	scalarKind callKind = iota
	windowKind
	tableFunctionKind
)

// function checks a FUNCTION expression: a call of a built-in on the list
// for its kind, and its arguments, FILTER and ORDER BY.
func (c *checker) function(o obj, sc *scope, kind callKind) error {
	if err := known(o, "FUNCTION", exprCommon, "function_name", "schema", "catalog", "children", "filter",
		"order_bys", "distinct", "is_operator", "export_state"); err != nil {
		return err
	}
	if err := c.callable(o, kind); err != nil {
		return err
	}
	if o["export_state"] != false {
		return warehouse.Rejectf("EXPORT_STATE is not allowed")
	}
	if kind == tableFunctionKind && o["filter"] != nil {
		return unknownNode("table function", "with FILTER")
	}
	if err := data(o["distinct"], o["is_operator"]); err != nil {
		return err
	}
	if err := c.exprs(o["children"], sc); err != nil {
		return err
	}
	if err := c.optExpr(o["filter"], sc); err != nil {
		return err
	}
	ob, err := object(o["order_bys"], "ORDER BY")
	if err != nil {
		return err
	}
	return c.order(ob, sc)
}

// window checks a window function call and its OVER clause.
func (c *checker) window(o obj, sc *scope) error {
	if err := known(o, "WINDOW", exprCommon, "function_name", "schema", "catalog", "children", "partitions",
		"orders", "start", "end", "start_expr", "end_expr", "offset_expr", "default_expr", "filter_expr",
		"ignore_nulls", "distinct", "arg_orders", "exclude_clause"); err != nil {
		return err
	}
	if err := c.callable(o, windowKind); err != nil {
		return err
	}
	if err := data(o["start"], o["end"], o["ignore_nulls"], o["distinct"], o["exclude_clause"]); err != nil {
		return err
	}
	for _, f := range []string{"children", "partitions"} {
		if err := c.exprs(o[f], sc); err != nil {
			return err
		}
	}
	for _, f := range []string{"start_expr", "end_expr", "offset_expr", "default_expr", "filter_expr"} {
		if err := c.optExpr(o[f], sc); err != nil {
			return err
		}
	}
	for _, f := range []string{"orders", "arg_orders"} {
		if err := c.orderList(o[f], sc); err != nil {
			return err
		}
	}
	return nil
}

// callable checks the name a call resolves to: not a function the
// database defines (it would shadow a built-in of the same name), in no
// schema but DuckDB's own main one or a column's (x.lower() is DuckDB's
// method syntax for lower(x), and the parser cannot tell the two apart),
// and on the list for the call's kind.
func (c *checker) callable(o obj, kind callKind) error {
	name, schema, catalog := str(o["function_name"]), str(o["schema"]), str(o["catalog"])
	n := foldASCII(name)
	if c.inv.user[n] {
		return warehouse.Rejectf("function %s is defined by this database (a macro), not a DuckDB built-in; only built-ins on the list may be called", shortName(name))
	}
	s, ct := foldASCII(schema), foldASCII(catalog)
	if ct != "" && (ct != "system" || s != "main") || closedSchemas[s] {
		return warehouse.FunctionNotAllowed(relationName(catalog, schema, name))
	}
	switch kind {
	case tableFunctionKind:
		if !allowedTableFunctions[n] {
			return warehouse.Rejectf("table function %s is not on the list of side-effect-free table functions (range, generate_series, unnest, json_each, json_tree)", shortName(name))
		}
	case windowKind:
		if !allowedAggregates[n] {
			return warehouse.FunctionNotAllowed(shortName(name))
		}
	default:
		if !allowedScalars[n] && !allowedAggregates[n] {
			return warehouse.FunctionNotAllowed(shortName(name))
		}
	}
	return nil
}

// shortName is a function name for a refusal: as written when plain,
// quoted when it needs it, cut short if long.
func shortName(name string) string {
	for _, r := range name {
		if !(r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return relationName(name)
		}
	}
	if len(name) > 120 {
		return name[:120] + "…"
	}
	return name
}

// ---------------------------------------------------------------------------
// JSON helpers.

func object(v any, what string) (obj, error) {
	o, ok := v.(obj)
	if !ok {
		return nil, unknownNode(what, fmt.Sprintf("%T", v))
	}
	return o, nil
}

func list(v any, what string) ([]any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, unknownNode(what, fmt.Sprintf("%T", v))
	}
	return l, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// known refuses o if it has a field other than common and fields.
func known(o obj, what string, common []string, fields ...string) error {
	for k := range o {
		if !contains(common, k) && !contains(fields, k) {
			return warehouse.Rejectf("DuckDB's parse has a field %q in a %s, which the guard does not know", k, what)
		}
	}
	return nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// nodeKeys are the fields that make a JSON object a node of the tree
// (an expression, a query, a table reference) rather than data.
var nodeKeys = []string{"class", "node", "function_name", "table_name", "subquery", "select_list",
	"from_table", "expression", "expr", "children", "query"}

// data checks that values hold only data: scalars, and objects and lists
// of them with no node inside (a constant, a type, a sample size, names).
func data(vs ...any) error {
	for _, v := range vs {
		switch x := v.(type) {
		case obj:
			for _, k := range nodeKeys {
				if _, ok := x[k]; ok {
					return unknownNode("data field", "holding a node")
				}
			}
			for _, e := range x {
				if err := data(e); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range x {
				if err := data(e); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func unknownNode(what, kind string) error {
	return warehouse.Rejectf("DuckDB's parse holds a %s %s, which the guard does not know to be read-only", what, kind)
}
