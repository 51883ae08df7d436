package spark

import "github.com/discover-db/discover/warehouse"

// allowedFunctions are the Spark SQL built-ins a statement may call: each
// computes its result from its arguments and the rows it is given. None
// reads or writes outside the query, calls Java code the caller names, or
// changes the session. Names are matched in lower case, as Spark resolves
// them; a quoted name is matched the same. A qualified name
// (db.f(…), a catalog's function) is refused before this list is read.
//
// Left out on purpose: reflect, java_method and try_reflect (any static
// Java method), from_protobuf and to_protobuf (read a descriptor file),
// the xpath functions (an XML parser over caller-supplied documents),
// aes_encrypt and aes_decrypt, assert_true and raise_error (errors of the
// caller's making), input_file_name and input_file_block_* (the server's
// file paths), and every function a user or a catalog registered.
var allowedFunctions = warehouse.WordSet(
	// aggregates
	"any", "any_value", "approx_count_distinct", "approx_percentile", "approx_top_k", "array_agg", "avg",
	"bit_and", "bit_or", "bit_xor", "bitmap_construct_agg", "bitmap_or_agg", "bool_and", "bool_or",
	"collect_list", "collect_set", "corr", "count", "count_if", "count_min_sketch", "covar_pop",
	"covar_samp", "every", "first", "first_value", "grouping", "grouping_id", "histogram_numeric",
	"hll_sketch_agg", "hll_union_agg", "kurtosis", "last", "last_value", "listagg", "max", "max_by", "mean",
	"median", "min", "min_by", "mode", "percentile", "percentile_approx", "percentile_cont",
	"percentile_disc", "regr_avgx", "regr_avgy", "regr_count", "regr_intercept", "regr_r2", "regr_slope",
	"regr_sxx", "regr_sxy", "regr_syy", "skewness", "some", "std", "stddev", "stddev_pop", "stddev_samp",
	"string_agg", "sum", "try_avg", "try_sum", "var_pop", "var_samp", "variance",

	// window functions
	"cume_dist", "dense_rank", "lag", "lead", "nth_value", "ntile", "percent_rank", "rank", "row_number",

	// conditionals, casts, null handling
	"cast", "try_cast", "if", "iff", "ifnull", "coalesce", "nullif", "nullifzero", "nvl", "nvl2", "zeroifnull",
	"greatest", "least", "isnull", "isnotnull", "isnan", "nanvl", "typeof", "equal_null",
	"bigint", "binary", "boolean", "date", "decimal", "double", "float", "int", "smallint", "string",
	"timestamp", "tinyint",

	// math
	"abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "bin", "bround", "cbrt", "ceil",
	"ceiling", "conv", "cos", "cosh", "cot", "csc", "degrees", "div", "e", "exp", "expm1", "factorial",
	"floor", "hex", "hypot", "ln", "log", "log10", "log1p", "log2", "mod", "negative", "pi", "pmod",
	"positive", "pow", "power", "radians", "rand", "randn", "random", "rint", "round", "sec", "sign",
	"signum", "sin", "sinh", "sqrt", "tan", "tanh", "try_add", "try_divide", "try_mod", "try_multiply",
	"try_subtract", "unhex", "uniform", "width_bucket", "bit_count", "bit_get", "getbit", "shiftleft",
	"shiftright", "shiftrightunsigned",

	// strings
	"ascii", "base64", "bit_length", "btrim", "char", "char_length", "character_length", "chr", "collate",
	"collation", "concat", "concat_ws", "contains", "decode", "elt", "encode", "endswith", "find_in_set",
	"format_number", "format_string", "initcap", "instr", "is_valid_utf8", "lcase", "left", "len", "length",
	"levenshtein", "locate", "lower", "lpad", "ltrim", "luhn_check", "make_valid_utf8", "mask",
	"octet_length", "overlay", "position", "printf", "quote", "regexp", "regexp_count", "regexp_extract",
	"regexp_extract_all", "regexp_instr", "regexp_like", "regexp_replace", "regexp_substr", "repeat",
	"replace", "reverse", "right", "rlike", "rpad", "rtrim", "sentences", "soundex", "space", "split",
	"split_part", "startswith", "substr", "substring", "substring_index", "to_binary", "to_char",
	"to_number", "to_varchar", "translate", "trim", "try_to_binary", "try_to_number", "ucase", "unbase64",
	"upper", "validate_utf8", "try_validate_utf8", "parse_url", "try_parse_url", "url_decode",
	"try_url_decode", "url_encode", "randstr",

	// hashing and bits
	"crc32", "hash", "md5", "sha", "sha1", "sha2", "xxhash64", "bitmap_bit_position", "bitmap_bucket_number",
	"bitmap_count", "hll_sketch_estimate", "hll_union",

	// JSON, CSV, variants
	"from_json", "get_json_object", "json_array_length", "json_object_keys", "json_tuple", "schema_of_json",
	"to_json", "from_csv", "schema_of_csv", "to_csv", "parse_json", "try_parse_json", "is_variant_null",
	"variant_get", "try_variant_get", "schema_of_variant", "schema_of_variant_agg", "to_variant_object",

	// dates and times (reading the clock is not a side effect)
	"add_months", "convert_timezone", "curdate", "current_date", "current_timestamp", "current_timezone",
	"date_add", "date_diff", "date_format", "date_from_unix_date", "date_part", "date_sub", "date_trunc",
	"dateadd", "datediff", "datepart", "day", "dayname", "dayofmonth", "dayofweek", "dayofyear", "extract",
	"from_unixtime", "from_utc_timestamp", "hour", "last_day", "localtimestamp", "make_date",
	"make_dt_interval", "make_interval", "make_timestamp", "make_timestamp_ltz", "make_timestamp_ntz",
	"make_ym_interval", "minute", "month", "monthname", "months_between", "next_day", "now", "quarter",
	"second", "session_window", "timestamp_micros", "timestamp_millis", "timestamp_seconds", "to_date",
	"to_timestamp", "to_timestamp_ltz", "to_timestamp_ntz", "to_unix_timestamp", "to_utc_timestamp",
	"trunc", "try_make_interval", "try_make_timestamp", "try_to_timestamp", "unix_date", "unix_micros",
	"unix_millis", "unix_seconds", "unix_timestamp", "weekday", "weekofyear", "window", "window_time",
	"year", "timestampadd", "timestampdiff", "date_diff",

	// arrays, maps, structs (the lambda-taking ones evaluate only their lambda)
	"aggregate", "array", "array_append", "array_compact", "array_contains", "array_distinct",
	"array_except", "array_insert", "array_intersect", "array_join", "array_max", "array_min",
	"array_position", "array_prepend", "array_remove", "array_repeat", "array_size", "array_sort",
	"array_union", "arrays_overlap", "arrays_zip", "cardinality", "element_at", "exists", "filter",
	"flatten", "forall", "get", "map", "map_concat", "map_contains_key", "map_entries", "map_filter",
	"map_from_arrays", "map_from_entries", "map_keys", "map_values", "map_zip_with", "named_struct",
	"reduce", "sequence", "shuffle", "size", "slice", "sort_array", "str_to_map", "struct", "transform",
	"transform_keys", "transform_values", "try_element_at", "zip_with",

	// generators (in FROM, LATERAL VIEW or the select list)
	"explode", "explode_outer", "inline", "inline_outer", "posexplode", "posexplode_outer", "stack", "range",

	// identifiers and the engine
	"current_catalog", "current_database", "current_schema", "current_user", "session_user", "user",
	"monotonically_increasing_id", "spark_partition_id", "uuid", "version",
)
