package mysql

// The lists the guard (guard.go) checks a parsed statement against. Names
// are lower case, as the TiDB parser reports them (FuncCallExpr.FnName.L,
// and AggregateFuncExpr.F and WindowFuncExpr.Name lowered).
//
// A function is on a list only when it computes its result from its
// arguments and the rows, and touches nothing else: no file, lock, sleep,
// sequence, replication position, session or server setting, and no SQL
// text run as a statement. A name on a list must also be a built-in of the
// server it is listed for: an unknown name is resolved by the server as a
// stored function of the current database (or a loadable function), whose
// body could do anything. TestGuardFunctionsAreBuiltins checks, on the
// MariaDB the tests run against, that every name of the MariaDB lists is
// one of its built-ins.

import (
	"github.com/discover-db/discover/warehouse"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// scalarFuncs are the built-in functions of both MySQL 8 and MariaDB 10.x
// that are side-effect free.
var scalarFuncs = warehouse.WordSet(
	// Arithmetic and mathematics. RAND(seed) is how discover samples.
	"abs", "acos", "asin", "atan", "atan2", "ceil", "ceiling", "conv", "cos", "cot",
	"crc32", "degrees", "exp", "floor", "ln", "log", "log10", "log2", "mod", "pi",
	"pow", "power", "radians", "rand", "round", "sign", "sin", "sqrt", "tan",
	"truncate", "bit_count",

	// Strings. INSERT(str, pos, len, new) and CHAR(n, …) reach the tree under
	// the parser's own names (see parserNames).
	"ascii", "bin", "bit_length", "char_length", "character_length", "concat",
	"concat_ws", "elt", "export_set", "field", "find_in_set", "format", "from_base64",
	"hex", "instr", "lcase", "left", "length", "locate", "lower", "lpad", "ltrim",
	"make_set", "mid", "oct", "octet_length", "ord", "position", "quote",
	"regexp_instr", "regexp_replace", "regexp_substr", "repeat", "replace",
	"reverse", "right", "rpad", "rtrim", "soundex", "space", "strcmp", "substr",
	"substring", "substring_index", "to_base64", "trim", "ucase", "unhex", "upper",
	"weight_string", "charset", "collation", "coercibility",
	// CONVERT(x USING charset); CONVERT(x, type) and CAST are FuncCastExpr.
	"convert",

	// Hashing, compression and encryption of a value.
	"md5", "sha", "sha1", "sha2", "aes_encrypt", "aes_decrypt", "compress",
	"uncompress", "uncompressed_length", "random_bytes",

	// Dates and times, including what the parser makes of INTERVAL
	// arithmetic (date_add, date_sub), EXTRACT, GET_FORMAT and the
	// CURRENT_… keywords.
	"adddate", "addtime", "convert_tz", "curdate", "current_date", "current_time",
	"current_timestamp", "curtime", "date", "date_add", "date_format", "date_sub",
	"datediff", "day", "dayname", "dayofmonth", "dayofweek", "dayofyear", "extract",
	"from_days", "from_unixtime", "get_format", "hour", "last_day", "localtime",
	"localtimestamp", "makedate", "maketime", "microsecond", "minute", "month",
	"monthname", "now", "period_add", "period_diff", "quarter", "sec_to_time",
	"second", "str_to_date", "subdate", "subtime", "sysdate", "time", "time_format",
	"time_to_sec", "timediff", "timestamp", "timestampadd", "timestampdiff",
	"to_days", "to_seconds", "unix_timestamp", "utc_date", "utc_time",
	"utc_timestamp", "week", "weekday", "weekofyear", "year", "yearweek",

	// Conditionals.
	"if", "ifnull", "nullif", "coalesce", "isnull", "greatest", "least", "interval",

	// JSON values (the -> and ->> operators are json_extract and
	// json_unquote). The json_set family returns a modified copy of its
	// argument; it writes nothing.
	"json_extract", "json_unquote", "json_contains", "json_contains_path", "json_keys",
	"json_length", "json_depth", "json_type", "json_valid", "json_quote",
	"json_object", "json_array", "json_search", "json_value", "json_overlaps",
	"json_pretty", "json_merge", "json_merge_patch", "json_merge_preserve",
	"json_set", "json_insert", "json_replace", "json_remove", "json_array_append",
	"json_array_insert",

	// Network addresses and identifiers.
	"uuid", "inet_aton", "inet_ntoa", "inet6_aton", "inet6_ntoa", "is_ipv4",
	"is_ipv6", "is_ipv4_compat", "is_ipv4_mapped",

	// Who and where the session is; nothing that changes it.
	"database", "schema", "version", "user", "current_user", "session_user",
	"system_user", "connection_id",

	// Geometry, the common part of both servers.
	"st_astext", "st_aswkt", "st_geomfromtext", "st_x", "st_y", "st_distance",
	"st_distance_sphere", "st_contains", "st_within", "st_intersects", "st_length",
	"st_area", "st_srid", "st_geometrytype", "st_asgeojson", "st_geomfromgeojson",
	"st_buffer", "st_centroid", "st_envelope", "st_equals", "st_isempty",
	"st_numpoints", "st_pointn", "st_startpoint", "st_endpoint",
	// Not POINT(x, y) and the other constructors: MariaDB reads them with
	// another number of arguments as a stored function's name.
)

// mysqlOnlyFuncs are side-effect-free built-ins of MySQL 8 that MariaDB
// lacks (so that on MariaDB the name would call a stored function).
var mysqlOnlyFuncs = warehouse.WordSet(
	"regexp_like", "format_bytes", "format_pico_time", "bin_to_uuid", "uuid_to_bin",
	"is_uuid", "json_schema_valid", "json_schema_validation_report",
	"json_storage_free", "json_storage_size",
	// a MEMBER OF (b); MariaDB has no such syntax.
	ast.JSONMemberOf,
)

// mariadbOnlyFuncs are side-effect-free built-ins of MariaDB 10.x/11.x that
// MySQL lacks.
var mariadbOnlyFuncs = warehouse.WordSet(
	"chr", "sformat", "natural_sort_key", "to_char", "add_months", "lengthb",
	"nvl", "nvl2", "json_exists", "json_query", "json_compact", "json_detailed",
	"json_loose", "json_normalize", "json_equals",
	// Dynamic columns read a blob's content.
	"column_json", "column_get", "column_exists", "column_list", "column_check",
	"column_create", "column_add", "column_delete",
)

// parserNames are names the TiDB parser gives to special syntax, which
// the server knows under another spelling: INSERT(…) and CHAR(…), and the
// DATE '…' / TIME '…' / TIMESTAMP '…' literals. A statement that spells
// one of them itself as a function name calls, on the server, a stored
// function of that name; the guard refuses it (see spelling).
var parserNames = warehouse.WordSet(
	ast.InsertFunc, ast.CharFunc, ast.DateLiteral, ast.TimeLiteral, ast.TimestampLiteral,
	ast.JSONMemberOf,
)

// argless are functions allowed only without arguments: LAST_INSERT_ID()
// reads the session's value, LAST_INSERT_ID(x) sets it.
var argless = warehouse.WordSet("last_insert_id")

// aggregateFuncs are the aggregates of both servers. The parser turns
// STD and STDDEV into stddev_pop, VARIANCE into var_pop. TiDB's own
// approx_count_distinct and approx_percentile are not MySQL built-ins.
var aggregateFuncs = warehouse.WordSet(
	"count", "sum", "avg", "min", "max", "group_concat", "bit_and", "bit_or",
	"bit_xor", "std", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop",
	"var_samp", "json_arrayagg", "json_objectagg",
)

// windowFuncs are the window functions of both servers; an aggregate with
// OVER (…) is a window function too.
var windowFuncs = warehouse.WordSet(
	"row_number", "rank", "dense_rank", "cume_dist", "percent_rank", "ntile", "lead",
	"lag", "first_value", "last_value", "nth_value",
)

// noGapNeeded are the function names the servers read as the built-in even
// with a space or a comment before "(": reserved words, which can never
// name a stored function. For every other name a gap is refused: MySQL
// and MariaDB read COUNT (…), NOW (…), SUBSTRING (…) and others (the list
// differs by server and version) as a call of a stored function of that
// name. TestGuardGapNamesAreBuiltins checks these on the server.
var noGapNeeded = warehouse.WordSet(
	"if", "left", "right", "replace", "repeat", "mod", "database", "schema", "convert",
	"current_user", "current_date", "current_time", "current_timestamp", "localtime",
	"localtimestamp", "utc_date", "utc_time", "utc_timestamp",
)

// allowedHints are the optimizer hints (/*+ … */) that only steer the plan
// or shorten the statement's run. SET_VAR (changes a setting) and
// RESOURCE_GROUP are not among them.
var allowedHints = warehouse.WordSet(
	"max_execution_time", "bka", "no_bka", "bnl", "no_bnl", "hash_join", "no_hash_join",
	"index", "no_index", "index_merge", "no_index_merge", "join_index", "no_join_index",
	"group_index", "no_group_index", "order_index", "no_order_index", "join_order",
	"join_prefix", "join_suffix", "join_fixed_order", "merge", "no_merge", "mrr",
	"no_mrr", "no_icp", "no_range_optimization", "semijoin", "no_semijoin", "subquery",
	"qb_name", "skip_scan", "no_skip_scan", "derived_condition_pushdown",
	"no_derived_condition_pushdown",
)

// allowedShows are the SHOW statements a caller may run: settings and
// counters (like SELECT @@name, they read and change nothing) and the
// structure of the database's own tables. Everything else (PROCESSLIST,
// GRANTS, ENGINE, MASTER STATUS, WARNINGS of the pooled session, other
// databases…) is refused.
var allowedShows = map[ast.ShowStmtType]string{
	ast.ShowVariables:   "VARIABLES",
	ast.ShowStatus:      "STATUS",
	ast.ShowTables:      "TABLES",
	ast.ShowColumns:     "COLUMNS",
	ast.ShowIndex:       "INDEX",
	ast.ShowCreateTable: "CREATE TABLE",
	ast.ShowCreateView:  "CREATE VIEW",
}

// systemSchemas are never readable, whatever the connected database:
// they hold accounts, sessions, other databases' structure and server
// state.
var systemSchemas = warehouse.WordSet("information_schema", "mysql", "performance_schema", "sys")

// flavourFuncs is the scalar list of one server flavour.
func flavourFuncs(mariadb bool) map[string]bool {
	if mariadb {
		return mariadbFuncs
	}
	return mysqlFuncs
}

var (
	mysqlFuncs   = union(scalarFuncs, mysqlOnlyFuncs, warehouse.WordSet(ast.InsertFunc, ast.CharFunc, ast.DateLiteral, ast.TimeLiteral, ast.TimestampLiteral), argless)
	mariadbFuncs = union(scalarFuncs, mariadbOnlyFuncs, warehouse.WordSet(ast.InsertFunc, ast.CharFunc, ast.DateLiteral, ast.TimeLiteral, ast.TimestampLiteral), argless)
)

func union(sets ...map[string]bool) map[string]bool {
	m := map[string]bool{}
	for _, s := range sets {
		for k := range s {
			m[k] = true
		}
	}
	return m
}
