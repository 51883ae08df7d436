package mysql

import "github.com/discover-db/discover/warehouse"

// Grammar is what the lexical SQL guard knows of MySQL and MariaDB:
// backslash escapes and "…" strings that sql_mode may change, # comments,
// "--" comments only before a space, executable comments, @name and
// @@name, TABLE, SHOW and DESCRIBE, and the functions that stall, burn
// CPU, read server files or take locks.
var Grammar = &warehouse.Grammar{
	BackslashEscapes: true, DoubleQuotedStrings: true, Backticks: true,
	HashComments: true, DashNeedsSpace: true, ExecutableComments: true, AtParams: true, SettingsVary: true,
	Table: true, Show: true, Describe: true,
	Dangerous: []warehouse.DangerousFunction{
		{Name: "sleep", Why: "stalls the connection"},
		{Name: "benchmark", Why: "burns CPU"},
		{Name: "load_file", Why: "reads a server file"},
		{Name: "get_lock", Why: "takes a lock"},
		{Name: "release_lock", Why: "releases a lock"},
		{Name: "release_all_locks", Why: "releases locks"},
		{Name: "master_pos_wait", Why: "stalls the connection"},
		{Name: "source_pos_wait", Why: "stalls the connection"},
		{Name: "wait_for_executed_gtid_set", Why: "stalls the connection"},
	},
}

// Grammar returns the package's Grammar.
func (Dialect) Grammar() *warehouse.Grammar { return Grammar }
