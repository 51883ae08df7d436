package duckdb

import "github.com/discover-db/discover/warehouse"

// The allow-lists of the DuckDB guard (guard.go): the built-in functions an
// untrusted statement may call, the table functions it may read from, and
// the metadata views it may read. Every name here is a DuckDB built-in
// that computes its result from its arguments and the rows it is given,
// and nothing else: none reads or writes a file, the network, the
// environment, a setting, a variable, a sequence or the catalog; none
// runs SQL given as text; none sleeps, logs or changes session state.
//
// Left out on purpose (refused wherever they appear): read_csv*, read_json*,
// read_parquet, parquet_*, read_text, read_blob, read_duckdb, glob,
// sniff_csv (files); getenv, current_setting, getvariable, which_secret
// (environment, settings, variables, secrets); query, query_table,
// json_serialize_sql, json_serialize_plan, json_deserialize_sql,
// json_execute_serialized_sql (SQL given as text); nextval, currval
// (sequences); setseed, sleep_ms, pg_sleep, write_log, error (session
// state, stalls, the log); checkpoint, force_checkpoint and the pragma_*,
// duckdb_* and *_logging/*_profiling table functions (server state, the
// whole catalog); current_query*, current_connection_id,
// current_transaction_id, txid_current; internal and geometry/variant
// helpers nobody writes by hand.
//
// The lists are matched on the name as DuckDB resolves it: ASCII case
// folded, built-ins only (a macro the database defines is refused even
// when its name is on a list, since it would shadow the built-in).

// allowedAggregates are aggregate and window functions.
var allowedAggregates = warehouse.WordSet(
	"any_value", "approx_count_distinct", "approx_quantile", "approx_top_k", "arbitrary",
	"arg_max", "arg_max_null", "arg_max_nulls_last", "arg_min", "arg_min_null", "arg_min_nulls_last",
	"argmax", "argmin", "array_agg", "avg", "bit_and", "bit_or", "bit_xor", "bitstring_agg",
	"bool_and", "bool_or", "corr", "count", "count_if", "count_star", "countif", "covar_pop", "covar_samp",
	"entropy", "favg", "first", "fsum", "geomean", "geometric_mean", "group_concat",
	"histogram", "histogram_exact", "kahan_sum", "kurtosis", "kurtosis_pop", "last", "list", "listagg",
	"mad", "max", "max_by", "mean", "median", "min", "min_by", "mode", "product",
	"quantile", "quantile_cont", "quantile_disc", "regr_avgx", "regr_avgy", "regr_count", "regr_intercept",
	"regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy", "reservoir_quantile", "sem", "skewness",
	"stddev", "stddev_pop", "stddev_samp", "string_agg", "sum", "sum_no_overflow", "sumkahan",
	"var_pop", "var_samp", "variance", "wavg", "weighted_avg",
	"json_group_array", "json_group_object", "json_group_structure",
	// window functions
	"cume_dist", "dense_rank", "fill", "first_value", "lag", "last_value", "lead", "nth_value", "ntile",
	"percent_rank", "rank", "rank_dense", "row_number",
)

// allowedScalars are scalar functions and operators (an operator is a
// function to DuckDB's parser: a + b is the function "+").
var allowedScalars = warehouse.WordSet(
	// operators
	"+", "-", "*", "/", "//", "%", "**", "^", "@", "&", "|", "~", "<<", ">>", "||", "!__postfix",
	"~~", "!~~", "~~*", "!~~*", "~~~", "!~~~", "^@", "@>", "<@", "&&", "<->", "<=>", "->>",
	"add", "subtract", "multiply", "divide", "mod", "xor", "fdiv", "fmod",

	// conditionals
	"if", "nullif", "greatest", "least",

	// math
	"abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "bit_count", "cbrt", "ceil", "ceiling",
	"cos", "cosh", "cot", "degrees", "even", "exp", "factorial", "floor", "gamma", "gcd",
	"greatest_common_divisor", "isfinite", "isinf", "isnan", "lcm", "least_common_multiple", "lgamma", "ln",
	"log", "log10", "log2", "nextafter", "pi", "pow", "power", "radians", "round", "round_even",
	"roundbankers", "sign", "signbit", "sin", "sinh", "sqrt", "tan", "tanh", "trunc", "equi_width_bins",
	"is_histogram_other_bin", "random", "bin", "unbin", "to_base", "bit_length", "bit_position", "get_bit",
	"set_bit", "bitstring",

	// strings
	"ascii", "bar", "char_length", "character_length", "chr", "concat", "concat_ws", "contains",
	"damerau_levenshtein", "editdist3", "ends_with", "format", "format_bytes", "formatreadabledecimalsize",
	"formatreadablesize", "hamming", "ilike_escape", "instr", "jaccard", "jaro_similarity",
	"jaro_winkler_similarity", "lcase", "left", "left_grapheme", "len", "length", "length_grapheme",
	"levenshtein", "like_escape", "lower", "lpad", "ltrim", "md5", "md5_number", "md5_number_lower",
	"md5_number_upper", "mismatches", "nfc_normalize", "not_ilike_escape", "not_like_escape",
	"octet_length", "ord", "parse_dirname", "parse_dirpath", "parse_filename", "parse_path",
	"parse_formatted_bytes", "position", "prefix", "printf", "repeat", "replace", "reverse", "right",
	"right_grapheme", "rpad", "rtrim", "sha1", "sha256", "hash", "split", "split_part", "starts_with",
	"str_split", "str_split_regex", "string_split", "string_split_regex", "string_to_array",
	"strip_accents", "strlen", "strpos", "substr", "substring", "substring_grapheme", "suffix",
	"translate", "trim", "ucase", "unicode", "upper", "url_decode", "url_encode",
	"regexp_escape", "regexp_extract", "regexp_extract_all", "regexp_full_match", "regexp_matches",
	"regexp_replace", "regexp_split_to_array", "regexp_split_to_table",

	// binary, encodings
	"base64", "decode", "encode", "from_base64", "from_binary", "from_hex", "hex", "to_base64",
	"to_binary", "to_hex", "unhex",

	// dates and times (reading the clock is not a side effect)
	"age", "ago", "century", "current_date", "current_localtime", "current_localtimestamp", "date_add",
	"date_diff", "date_part", "date_sub", "date_trunc", "datediff", "datepart", "datesub", "datetrunc",
	"day", "dayname", "dayofmonth", "dayofweek", "dayofyear", "days_in_month", "decade", "epoch",
	"epoch_ms", "epoch_ns", "epoch_us", "era", "get_current_time", "get_current_timestamp", "hour",
	"isodow", "isoyear", "julian", "last_day", "make_date", "make_time", "make_timestamp",
	"make_timestamp_ms", "make_timestamp_ns", "make_timestamptz", "microsecond", "millennium",
	"millisecond", "minute", "month", "monthname", "nanosecond", "normalized_interval", "now", "quarter",
	"second", "strftime", "strptime", "time_bucket", "timezone", "timezone_hour", "timezone_minute",
	"to_centuries", "to_days", "to_decades", "to_hours", "to_microseconds", "to_millennia",
	"to_milliseconds", "to_minutes", "to_months", "to_quarters", "to_seconds", "to_timestamp", "to_weeks",
	"to_years", "today", "transaction_timestamp", "try_strptime", "week", "weekday", "weekofyear", "year",
	"yearweek",

	// lists and arrays (the lambda-taking ones evaluate only their lambda)
	"aggregate", "apply", "array_aggr", "array_aggregate", "array_append", "array_apply", "array_cat",
	"array_concat", "array_contains", "array_cosine_distance", "array_cosine_similarity",
	"array_cross_product", "array_distance", "array_distinct", "array_dot_product", "array_extract",
	"array_filter", "array_grade_up", "array_has", "array_has_all", "array_has_any", "array_indexof",
	"array_inner_product", "array_intersect", "array_length", "array_negative_dot_product",
	"array_negative_inner_product", "array_pop_back", "array_pop_front", "array_position",
	"array_prepend", "array_push_back", "array_push_front", "array_reduce", "array_resize",
	"array_reverse", "array_reverse_sort", "array_select", "array_slice", "array_sort", "array_to_json",
	"array_to_string", "array_to_string_comma_default", "array_transform", "array_unique",
	"array_value", "array_where", "array_zip", "cardinality", "filter", "flatten", "generate_series",
	"generate_subscripts", "grade_up", "list_aggr", "list_aggregate", "list_any_value", "list_append",
	"list_apply", "list_approx_count_distinct", "list_avg", "list_bit_and", "list_bit_or",
	"list_bit_xor", "list_bool_and", "list_bool_or", "list_cat", "list_concat", "list_contains",
	"list_cosine_distance", "list_cosine_similarity", "list_count", "list_distance", "list_distinct",
	"list_dot_product", "list_element", "list_entropy", "list_extract", "list_filter", "list_first",
	"list_grade_up", "list_has", "list_has_all", "list_has_any", "list_histogram", "list_indexof",
	"list_inner_product", "list_intersect", "list_kurtosis", "list_kurtosis_pop", "list_last",
	"list_mad", "list_max", "list_median", "list_min", "list_mode", "list_negative_dot_product",
	"list_negative_inner_product", "list_pack", "list_position", "list_prepend", "list_product",
	"list_reduce", "list_resize", "list_reverse", "list_reverse_sort", "list_select", "list_sem",
	"list_skewness", "list_slice", "list_sort", "list_stddev_pop", "list_stddev_samp",
	"list_string_agg", "list_sum", "list_transform", "list_unique", "list_value", "list_var_pop",
	"list_var_samp", "list_where", "list_zip", "range", "reduce", "unnest",

	// structs, maps, unions
	"element_at", "map", "map_concat", "map_contains", "map_contains_entry", "map_contains_value",
	"map_entries", "map_extract", "map_extract_value", "map_from_entries", "map_keys", "map_values",
	"row", "struct_concat", "struct_contains", "struct_extract", "struct_extract_at", "struct_has",
	"struct_indexof", "struct_insert", "struct_keys", "struct_pack", "struct_position", "struct_update",
	"struct_values", "union_extract", "union_tag", "union_value",

	// enums and types
	"enum_code", "enum_first", "enum_last", "enum_range", "enum_range_boundary", "typeof",

	// JSON
	"from_json", "from_json_strict", "json", "json_array", "json_array_length", "json_contains",
	"json_exists", "json_extract", "json_extract_path", "json_extract_path_text", "json_extract_string",
	"json_keys", "json_merge_patch", "json_object", "json_pretty", "json_quote", "json_structure",
	"json_transform", "json_transform_strict", "json_type", "json_valid", "json_value", "row_to_json",
	"to_json",

	// identifiers, constants of the session
	"gen_random_uuid", "uuid", "uuidv4", "uuidv7", "uuid_extract_timestamp", "uuid_extract_version",
	"current_catalog", "current_database", "current_schema", "current_schemas", "version",
	// SQL's value functions: DuckDB binds the bare words current_user, user,
	// session_user and current_role to these; each returns 'duckdb'.
	"current_user", "user", "session_user", "current_role",
)

// allowedTableFunctions are the table functions a FROM may call: they
// generate rows from their arguments and read nothing else.
var allowedTableFunctions = warehouse.WordSet("range", "generate_series", "unnest", "json_each", "json_tree")

// allowedInfoSchema are the information_schema views a statement may read:
// read-only metadata of the tables the source lists (the views view is
// left out: its definitions name the data files of a folder source).
var allowedInfoSchema = warehouse.WordSet(
	"schemata", "tables", "columns", "table_constraints", "key_column_usage", "referential_constraints",
	"constraint_column_usage", "constraint_table_usage", "check_constraints", "character_sets",
)

// allowedShows are the SHOW forms that name no table: SHOW TABLES, SHOW ALL
// TABLES, SHOW SCHEMAS, SHOW DATABASES (names only), as the parser spells
// them in a SHOW_REF's table_name.
var allowedShows = warehouse.WordSet(`"tables"`, "__show_tables_expanded", `"schemas"`, `"databases"`)
