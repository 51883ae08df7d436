package sqlite

import "github.com/discover-db/discover/warehouse"

// Grammar is what the lexical SQL guard knows of SQLite: backtick and
// [bracket] identifiers, :name, @name and $name parameters, the PRAGMA
// forms that only read, and the functions that load native code or touch
// files.
var Grammar = &warehouse.Grammar{
	Backticks: true, Brackets: true,
	ColonParams: true, AtParams: true, DollarNameParams: true,
	Pragma: &warehouse.PragmaRules{
		Denied: []string{
			"writable_schema", "query_only", "journal_mode", "locking_mode",
			"wal_checkpoint", "wal_autocheckpoint", "optimize", "incremental_vacuum", "shrink_memory",
			"case_sensitive_like", "trusted_schema", "temp_store_directory", "data_store_directory",
			"parser_trace", "vdbe_trace", "vdbe_listing", "vdbe_debug", "vdbe_addoptrace",
		},
		Argument: []string{
			"table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
			"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check",
		},
	},
	Dangerous: []warehouse.DangerousFunction{
		{Name: "load_extension", Why: "loads native code"},
		{Name: "readfile", Why: "reads a file"},
		{Name: "writefile", Why: "writes a file"},
		{Name: "edit", Why: "runs an editor"},
		{Name: "fts3_tokenizer", Why: "can register native code"},
	},
}

// Grammar returns the package's Grammar.
func (Dialect) Grammar() *warehouse.Grammar { return Grammar }
