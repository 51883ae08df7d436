package spark

import "github.com/discover-db/discover/warehouse"

// Grammar is what the lexical SQL guard knows of Spark SQL: strings in '…'
// and "…" (a double-quoted text is a string unless ANSI mode's
// doubleQuotedIdentifiers is on, which no session of this engine turns
// on), backslash escapes in both, backticked names, nested /* */ comments,
// and the read-only statements TABLE, SHOW and DESCRIBE. It is the second
// layer of this package's guard (guard.go).
//
// The Dangerous functions reach outside the query: reflect, java_method
// and try_reflect call any static Java method on the server;
// from_protobuf and to_protobuf read a descriptor file the caller names;
// read_files (Databricks) reads files.
var Grammar = &warehouse.Grammar{
	BackslashEscapes: true, DoubleQuotedStrings: true, Backticks: true, NestedComments: true,
	Table: true, Show: true, Describe: true,
	Dangerous: []warehouse.DangerousFunction{
		{Name: "reflect", Why: "calls a Java method on the server"},
		{Name: "java_method", Why: "calls a Java method on the server"},
		{Name: "try_reflect", Why: "calls a Java method on the server"},
		{Name: "from_protobuf", Why: "reads a descriptor file on the server"},
		{Name: "to_protobuf", Why: "reads a descriptor file on the server"},
		{Name: "read_files", Why: "reads files"},
	},
}

// Grammar returns the package's Grammar.
func (Dialect) Grammar() *warehouse.Grammar { return Grammar }
