package trino

import "github.com/discover-db/discover/warehouse"

// Grammar is what the lexical SQL guard knows of Trino: the ANSI lexer,
// TABLE, SHOW and DESCRIBE, and the table functions that pass SQL on. It is
// the second layer of this package's guard (guard.go).
var Grammar = &warehouse.Grammar{
	Table: true, Show: true, Describe: true,
	Dangerous: []warehouse.DangerousFunction{
		{Name: "query", Why: "runs arbitrary SQL"},
		{Name: "raw_query", Why: "passes SQL to the connector"},
	},
}

// Grammar returns the package's Grammar.
func (Dialect) Grammar() *warehouse.Grammar { return Grammar }
