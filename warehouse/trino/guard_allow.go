package trino

import "github.com/discover-db/discover/warehouse"

// allowedFunctions are the Trino built-ins an untrusted statement may
// call: each computes its result from its arguments and the rows it is
// given. None reads or writes outside the query, talks to a connector,
// runs SQL given as text, or changes the session: Trino's table functions
// (system.query, raw_query, exclude_columns, sequence as a table) are
// reached through TABLE(…), which the guard refuses, and procedures
// through CALL, which the statement rules refuse. Names are matched in
// lower case, as Trino resolves them; a quoted name is matched the same.
//
// Left out on purpose: fail (raises an error of the caller's making),
// current_groups, the ML, geospatial, color and Teradata plugins' functions
// (not built in everywhere), and internal $operator$ names.
var allowedFunctions = warehouse.WordSet(
	// aggregates
	"approx_distinct", "approx_most_frequent", "approx_percentile", "approx_set", "arbitrary", "any_value",
	"array_agg", "avg", "bitwise_and_agg", "bitwise_or_agg", "bitwise_xor_agg", "bool_and", "bool_or",
	"checksum", "corr", "count", "count_if", "covar_pop", "covar_samp", "every", "geometric_mean",
	"histogram", "kurtosis", "listagg", "make_set_digest", "map_agg", "map_union", "max", "max_by",
	"merge", "merge_set_digest", "min", "min_by", "multimap_agg", "numeric_histogram", "qdigest_agg",
	"reduce_agg", "regr_intercept", "regr_slope", "skewness", "stddev", "stddev_pop", "stddev_samp",
	"sum", "tdigest_agg", "var_pop", "var_samp", "variance",

	// window functions
	"cume_dist", "dense_rank", "first_value", "lag", "last_value", "lead", "nth_value", "ntile",
	"percent_rank", "rank", "row_number",

	// conditionals, casts, grouping
	"cast", "try_cast", "try", "if", "coalesce", "nullif", "greatest", "least", "grouping", "typeof",
	"row",

	// math
	"abs", "acos", "asin", "atan", "atan2", "beta_cdf", "cbrt", "ceil", "ceiling", "cos", "cosh",
	"cosine_distance", "cosine_similarity", "degrees", "e", "exp", "floor", "from_base", "infinity",
	"inverse_beta_cdf", "inverse_normal_cdf", "is_finite", "is_infinite", "is_nan", "ln", "log", "log10",
	"log2", "mod", "nan", "normal_cdf", "pi", "pow", "power", "radians", "rand", "random", "round", "sign",
	"sin", "sinh", "sqrt", "tan", "tanh", "to_base", "truncate", "width_bucket", "wilson_interval_lower",
	"wilson_interval_upper", "bit_count", "bitwise_and", "bitwise_left_shift", "bitwise_not", "bitwise_or",
	"bitwise_right_shift", "bitwise_right_shift_arithmetic", "bitwise_xor",

	// strings
	"chr", "codepoint", "concat", "concat_ws", "format", "format_number", "from_utf8", "hamming_distance",
	"length", "levenshtein_distance", "lower", "lpad", "ltrim", "luhn_check", "normalize", "position",
	"replace", "reverse", "rpad", "rtrim", "soundex", "split", "split_part", "split_to_map",
	"split_to_multimap", "starts_with", "strpos", "substr", "substring", "to_utf8", "translate", "trim",
	"upper", "word_stem", "url_decode", "url_encode", "url_extract_fragment", "url_extract_host",
	"url_extract_parameter", "url_extract_path", "url_extract_port", "url_extract_protocol",
	"url_extract_query",
	"regexp_count", "regexp_extract", "regexp_extract_all", "regexp_like", "regexp_position",
	"regexp_replace", "regexp_split",

	// binary, hashing
	"crc32", "from_base32", "from_base64", "from_base64url", "from_big_endian_32", "from_big_endian_64",
	"from_hex", "from_ieee754_32", "from_ieee754_64", "hmac_md5", "hmac_sha1", "hmac_sha256",
	"hmac_sha512", "md5", "murmur3", "sha1", "sha256", "sha512", "spooky_hash_v2_32", "spooky_hash_v2_64",
	"to_base32", "to_base64", "to_base64url", "to_big_endian_32", "to_big_endian_64", "to_hex",
	"to_ieee754_32", "to_ieee754_64", "xxhash64",

	// JSON
	"is_json_scalar", "json_array", "json_array_contains", "json_array_get", "json_array_length",
	"json_exists", "json_extract", "json_extract_scalar", "json_format", "json_object", "json_parse",
	"json_query", "json_size", "json_value",

	// dates and times (reading the clock is not a side effect)
	"at_timezone", "current_time", "current_timestamp", "current_timezone", "date", "date_add",
	"date_diff", "date_format", "date_parse", "date_trunc", "day", "day_of_month", "day_of_week",
	"day_of_year", "dow", "doy", "extract", "format_datetime", "from_iso8601_date",
	"from_iso8601_timestamp", "from_iso8601_timestamp_nanos", "from_unixtime", "from_unixtime_nanos",
	"hour", "human_readable_seconds", "last_day_of_month", "localtime", "localtimestamp", "millisecond",
	"minute", "month", "now", "parse_datetime", "parse_duration", "quarter", "second", "timezone",
	"timezone_hour", "timezone_minute", "to_iso8601", "to_milliseconds", "to_unixtime", "week",
	"week_of_year", "with_timezone", "year", "year_of_week", "yow",

	// arrays and maps (the lambda-taking ones evaluate only their lambda)
	"all_match", "any_match", "array_distinct", "array_except", "array_histogram", "array_intersect",
	"array_join", "array_max", "array_min", "array_position", "array_remove", "array_sort", "array_union",
	"arrays_overlap", "cardinality", "combinations", "contains", "contains_sequence", "element_at",
	"filter", "flatten", "ngrams", "none_match", "reduce", "repeat", "sequence", "shuffle", "slice",
	"transform", "trim_array", "zip", "zip_with", "unnest",
	"map", "map_concat", "map_entries", "map_filter", "map_from_entries", "map_keys", "map_values",
	"map_zip_with", "multimap_from_entries", "transform_keys", "transform_values",

	// approximate-set and digest values
	"empty_approx_set", "hash_counts", "intersection_cardinality", "jaccard_index",
	"quantile_at_value", "value_at_quantile", "values_at_quantiles",

	// identifiers and the engine
	"uuid", "version",
)
