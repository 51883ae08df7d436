package warehouse

// What every engine's allow-list guard shares. Each engine parses a
// statement with its own grammar (warehouse/postgres with libpg_query,
// warehouse/mysql with the TiDB parser, warehouse/sqlite with SQLite's
// authorizer at prepare time, warehouse/duckdb with json_serialize_sql,
// warehouse/trino with the lexer of this package) and accepts it only when
// every node, function and relation it names is on that engine's list.
// This file holds the parts that do not depend on a grammar: the bounds on
// what a parser is handed, the set of relations a statement may read, and
// the interface through which a caller asks for a verdict without running
// the statement.

import (
	"context"
	"fmt"
	"strings"
)

// MaxStatementBytes bounds the text of one statement. The widest statement
// discover writes itself (one aggregate over every column of a 1,000-column
// table) stays well below it; a 10 MB input is refused before any parser
// sees it.
const MaxStatementBytes = 4 << 20

// MaxNesting bounds how deeply brackets may nest in one statement, so that
// no recursive parser or tree walk can run out of stack on a crafted input
// (100,000 nested parentheses end in a refusal).
const MaxNesting = 200

// Guarder is implemented by every engine's Source: Guard returns nil when
// sql is one statement the engine's allow-list admits, else an error
// wrapping ErrRejected that names what is not allowed. Query applies the
// same check before it runs anything; Guard lets a caller (the model's
// controller, the MCP server) learn the verdict without running it.
type Guarder interface {
	Guard(ctx context.Context, sql string) error
}

// Precheck refuses what no parser should be handed: an empty statement, one
// over MaxStatementBytes, a NUL byte (some drivers stop at it, so the
// engine would run less than was checked), or brackets nested deeper than
// MaxNesting. Quotes and comments are not lexed here: a bracket inside a
// string counts too, which errs towards refusal on absurd inputs only.
func Precheck(sql string) error {
	if strings.TrimSpace(sql) == "" {
		return rejectf("empty statement")
	}
	if len(sql) > MaxStatementBytes {
		return rejectf("statement of %d bytes is longer than the %d allowed", len(sql), MaxStatementBytes)
	}
	depth := 0
	for i := 0; i < len(sql); i++ {
		switch sql[i] {
		case 0:
			return rejectf("NUL byte at offset %d", i)
		case '(', '[', '{':
			if depth++; depth > MaxNesting {
				return rejectf("brackets nested deeper than %d", MaxNesting)
			}
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// Rejectf builds a guard refusal: "guard: <reason>", wrapping ErrRejected.
// Engines use it so every refusal reads alike.
func Rejectf(format string, args ...any) error { return rejectf(format, args...) }

// Inventory is the set of relations a statement may read: the tables and
// views the source listed. Names are matched as the engine resolves them;
// fold is applied to both sides (nil for an exact match, strings.ToLower
// for an engine whose table names ignore case).
type Inventory struct {
	fold func(string) string
	rels map[TableName]bool
}

// NewInventory builds the set from tables.
func NewInventory(tables []Table, fold func(string) string) *Inventory {
	inv := &Inventory{fold: fold, rels: make(map[TableName]bool, len(tables))}
	for _, t := range tables {
		inv.rels[inv.key(t.Name.Schema, t.Name.Name)] = true
	}
	return inv
}

func (inv *Inventory) key(schema, name string) TableName {
	if inv.fold != nil {
		schema, name = inv.fold(schema), inv.fold(name)
	}
	return TableName{Schema: schema, Name: name}
}

// Has reports whether schema.name is in the inventory ("" is the source's
// default schema, as in TableName).
func (inv *Inventory) Has(schema, name string) bool {
	return inv != nil && inv.rels[inv.key(schema, name)]
}

// Len is the number of relations.
func (inv *Inventory) Len() int {
	if inv == nil {
		return 0
	}
	return len(inv.rels)
}

// NotAllowed is the refusal for a relation outside the inventory.
func NotAllowed(what string) error {
	return rejectf("%s is not a table or view of this database (only those may be read)", what)
}

// FunctionNotAllowed is the refusal for a function not on an engine's list.
func FunctionNotAllowed(name string) error {
	return fmt.Errorf("guard: function %s is not on the list of side-effect-free functions: %w", name, ErrRejected)
}
