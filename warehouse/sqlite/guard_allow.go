package sqlite

import "github.com/discover-db/discover/warehouse"

// The lists of the SQLite guard. Names are as SQLite reports them to the
// authorizer: a function by the name it was registered under (lower case
// for the built-ins, whatever case the statement used), a table-valued
// function by its module's table name. Anything not listed is refused.

// allowedFunctions are SQLite's built-in functions that only compute a
// value from their arguments (or the clock, or a random source): no file,
// no connection state, no extension loading, nothing logged. Left out on
// purpose: load_extension (native code), sqlite_log (writes to the
// process's log), changes, total_changes and last_insert_rowid (another
// statement's effects on the connection), sqlite_offset (file layout),
// zeroblob (a gigabyte of nothing for the asking, and no reader's use),
// subtype (internal to JSON), fts5() (hands out the FTS5 C API), the
// geopoly, rtree and fts5 debugging functions, and every function the
// build or a program registers beyond these (readfile, writefile, edit
// and fts3_tokenizer are not in this build at all).
var allowedFunctions = warehouse.WordSet(
	// core scalar functions
	"abs", "char", "coalesce", "concat", "concat_ws", "format", "glob", "hex",
	"if", "ifnull", "iif", "instr", "length", "like", "likelihood", "likely",
	"lower", "ltrim", "max", "min", "nullif", "octet_length", "printf", "quote",
	"random", "randomblob", "replace", "round", "rtrim", "sign", "soundex",
	"substr", "substring", "trim", "typeof", "unhex", "unicode", "unistr",
	"unistr_quote", "unlikely", "upper",
	// constants of the build
	"sqlite_version", "sqlite_source_id", "sqlite_compileoption_get", "sqlite_compileoption_used",
	// date and time
	"date", "time", "datetime", "julianday", "strftime", "unixepoch", "timediff",
	"current_date", "current_time", "current_timestamp",
	// math
	"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling",
	"cos", "cosh", "degrees", "exp", "floor", "ln", "log", "log10", "log2", "mod",
	"pi", "pow", "power", "radians", "sin", "sinh", "sqrt", "tan", "tanh", "trunc",
	// aggregates (max and min above are both)
	"avg", "count", "group_concat", "string_agg", "sum", "total",
	"json_group_array", "json_group_object", "jsonb_group_array", "jsonb_group_object",
	// window functions
	"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
	"lag", "lead", "first_value", "last_value", "nth_value",
	// JSON (the -> and ->> operators are functions to the authorizer)
	"json", "jsonb", "json_array", "jsonb_array", "json_array_length",
	"json_error_position", "json_extract", "jsonb_extract", "json_insert",
	"jsonb_insert", "json_object", "jsonb_object", "json_patch", "jsonb_patch",
	"json_pretty", "json_quote", "json_remove", "jsonb_remove", "json_replace",
	"jsonb_replace", "json_set", "jsonb_set", "json_type", "json_valid",
	"json_array_insert", "jsonb_array_insert", "->", "->>",
	// full-text search over a table of the database: the MATCH operator and
	// FTS5's ranking and excerpt functions read only its index
	"match", "bm25", "highlight", "snippet",
)

// tableFunctions are the table-valued functions (eponymous virtual tables)
// a statement may read: JSON's, and the pragma functions that describe the
// schema. SQLite reports reading one as reading a table of that name.
// Others are refused like any relation outside the inventory: sqlite_dbpage
// and dbstat (raw pages, deleted content included), fts5vocab, and the
// pragma functions of settings.
var tableFunctions = warehouse.WordSet(
	"json_each", "json_tree", "jsonb_each", "jsonb_tree",
	"pragma_table_info", "pragma_table_xinfo", "pragma_table_list",
	"pragma_index_list", "pragma_index_info", "pragma_index_xinfo",
	"pragma_foreign_key_list", "pragma_collation_list", "pragma_function_list",
	"pragma_module_list", "pragma_pragma_list", "pragma_compile_options",
)

// objectPragmas are the PRAGMA statements that only read, whatever their
// argument names (a table, an index). Not integrity_check and quick_check:
// they read every b-tree of every schema, SQLite's own tables included.
var objectPragmas = warehouse.WordSet(
	"table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
	"foreign_key_list", "foreign_key_check",
)

// barePragmas only read in their bare form (PRAGMA name); with a value,
// even an empty one, they set something.
var barePragmas = warehouse.WordSet(
	"collation_list", "function_list", "module_list", "pragma_list", "compile_options",
	"database_list", "page_count", "page_size", "freelist_count", "encoding",
	"user_version", "application_id", "schema_version", "data_version",
	"auto_vacuum", "foreign_keys", "cache_size", "max_page_count",
)
