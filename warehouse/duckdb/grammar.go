package duckdb

import "github.com/discover-db/discover/warehouse"

// Grammar is what the lexical SQL guard knows of DuckDB: backticks, nested
// comments, dollar quotes, E'…' strings, :name parameters, SHOW, DESCRIBE,
// FROM-first queries and SUMMARIZE, and the functions that read the
// environment, run commands or other SQL, or move a sequence (read_text,
// read_blob, read_csv… only read and are fine).
var Grammar = &warehouse.Grammar{
	Backticks: true, NestedComments: true, DollarQuotes: true, EscapeStrings: true,
	ColonParams: true, Show: true, Describe: true, FromFirst: true, Summarize: true,
	Dangerous: []warehouse.DangerousFunction{
		{Name: "nextval", Why: "advances a sequence"},
		{Name: "setval", Why: "sets a sequence"},
		{Name: "getenv", Why: "reads the environment"},
		{Name: "system", Why: "runs a command"},
		{Name: "query", Why: "runs arbitrary SQL"},
	},
}

// Grammar returns the package's Grammar.
func (Dialect) Grammar() *warehouse.Grammar { return Grammar }
