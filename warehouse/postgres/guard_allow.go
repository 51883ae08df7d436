package postgres

// The lists behind the guard (guard.go). Each is an allow-list: a name that
// is not here is refused, so a function, type or node kind PostgreSQL or an
// extension adds later is refused until someone decides it is harmless.
//
// What may never be on a list: anything that executes a string as SQL
// (query_to_xml, ts_stat, ts_rewrite, dblink, crosstab, xpath_table …),
// opens a connection, reads or writes files (pg_read_file, lo_*, pg_ls_*),
// touches sessions, locks, sequences, settings or server state
// (pg_terminate_backend, pg_advisory_*, nextval, set_config,
// current_setting, pg_stat_reset*, txid_current, pg_logical_emit_message,
// brin_summarize_*, pg_backup_*, replication slots), sleeps, or dumps a
// whole database (database_to_xml). XML as a whole stays off: its parser
// (libxml2) is a large surface for what analysts rarely need.

import (
	"strings"
)

// nameSet turns space-separated lists into a set.
func nameSet(lists ...string) map[string]bool {
	set := map[string]bool{}
	for _, l := range lists {
		for _, n := range strings.Fields(l) {
			set[n] = true
		}
	}
	return set
}

// allowedFunctions are the pg_catalog functions a statement may call:
// side-effect free, reading nothing but their arguments (and, for now(),
// random() and the like, the clock or a random generator). They are
// matched by name, unqualified or qualified with pg_catalog; every overload
// of a name is harmless.
var allowedFunctions = nameSet(
	// Aggregates, ordered-set and hypothetical-set aggregates included.
	`count sum avg min max array_agg string_agg bool_and bool_or every
	 bit_and bit_or bit_xor json_agg jsonb_agg json_object_agg jsonb_object_agg
	 json_agg_strict jsonb_agg_strict json_object_agg_strict jsonb_object_agg_strict
	 json_object_agg_unique jsonb_object_agg_unique
	 json_object_agg_unique_strict jsonb_object_agg_unique_strict
	 range_agg range_intersect_agg any_value
	 mode percentile_cont percentile_disc`,
	// Statistics.
	`corr covar_pop covar_samp regr_avgx regr_avgy regr_count regr_intercept
	 regr_r2 regr_slope regr_sxx regr_sxy regr_syy stddev stddev_pop
	 stddev_samp variance var_pop var_samp`,
	// Window functions (rank and its kin are hypothetical-set aggregates too).
	`row_number rank dense_rank percent_rank cume_dist ntile lag lead
	 first_value last_value nth_value`,
	// Mathematics. random() is volatile, but only draws a number; setseed,
	// which changes the session's generator, is left out.
	`abs cbrt ceil ceiling degrees div exp factorial floor gcd lcm ln log
	 log10 min_scale mod pi power radians round scale sign sqrt trim_scale
	 trunc width_bucket random random_normal erf erfc
	 acos acosd asin asind atan atand atan2 atan2d cos cosd cot cotd sin sind
	 tan tand sinh cosh tanh asinh acosh atanh`,
	// Strings and bytes.
	`ascii bit_length btrim char_length character_length chr concat concat_ws
	 format initcap left length lower lpad ltrim md5 normalize is_normalized
	 octet_length overlay parse_ident position quote_ident quote_literal
	 quote_nullable regexp_count regexp_instr regexp_like regexp_match
	 regexp_matches regexp_replace regexp_split_to_array regexp_split_to_table
	 regexp_substr repeat replace reverse right rpad rtrim split_part
	 starts_with string_to_array string_to_table strpos substr substring
	 to_ascii to_hex to_bin to_oct translate unistr upper
	 encode decode convert convert_from convert_to
	 get_bit get_byte set_bit set_byte bit_count
	 like_escape similar_to_escape similar_escape pg_collation_for`,
	// Hashes.
	`sha224 sha256 sha384 sha512 hashtext hashtextextended hashint4
	 hashint4extended hashint8 hashint8extended hashfloat8 hashfloat8extended
	 hash_numeric hash_numeric_extended`,
	// Dates and times. now() and its kin are also reachable as CURRENT_DATE,
	// CURRENT_TIMESTAMP… (SQLValueFunction nodes).
	`age clock_timestamp date_add date_bin date_part date_subtract date_trunc
	 extract isfinite justify_days justify_hours justify_interval make_date
	 make_interval make_time make_timestamp make_timestamptz now
	 statement_timestamp timeofday transaction_timestamp to_char to_date
	 to_number to_timestamp timezone overlaps`,
	// Function-style casts to types of allowedTypes: date(ts), text(n)…
	`bool int2 int4 int8 float4 float8 numeric text varchar bpchar date time
	 timetz timestamp timestamptz interval`,
	// Conditionals that are functions (COALESCE, NULLIF, GREATEST and LEAST
	// are nodes of their own).
	`num_nulls num_nonnulls`,
	// Arrays and series; the set-returning ones may be used in FROM.
	`array_append array_cat array_dims array_fill array_length array_lower
	 array_ndims array_position array_positions array_prepend array_remove
	 array_replace array_to_string array_upper cardinality trim_array
	 array_sample array_shuffle unnest generate_series generate_subscripts`,
	// JSON and jsonb, jsonpath included.
	`to_json to_jsonb row_to_json array_to_json json_build_array
	 jsonb_build_array json_build_object jsonb_build_object json_object
	 jsonb_object json_array_length jsonb_array_length json_each jsonb_each
	 json_each_text jsonb_each_text json_array_elements jsonb_array_elements
	 json_array_elements_text jsonb_array_elements_text json_extract_path
	 jsonb_extract_path json_extract_path_text jsonb_extract_path_text
	 json_object_keys jsonb_object_keys json_populate_record
	 jsonb_populate_record json_populate_recordset jsonb_populate_recordset
	 jsonb_populate_record_valid json_to_record jsonb_to_record
	 json_to_recordset jsonb_to_recordset json_strip_nulls jsonb_strip_nulls
	 json_typeof jsonb_typeof jsonb_insert jsonb_set jsonb_set_lax
	 jsonb_pretty jsonb_path_exists jsonb_path_match jsonb_path_query
	 jsonb_path_query_array jsonb_path_query_first jsonb_path_exists_tz
	 jsonb_path_match_tz jsonb_path_query_tz jsonb_path_query_array_tz
	 jsonb_path_query_first_tz`,
	// Full-text search over values (ts_stat and ts_rewrite, which run a
	// query given as text, are left out).
	`to_tsvector to_tsquery plainto_tsquery phraseto_tsquery
	 websearch_to_tsquery json_to_tsvector jsonb_to_tsvector ts_rank
	 ts_rank_cd ts_headline setweight strip numnode querytree
	 tsvector_to_array array_to_tsvector ts_delete ts_filter tsquery_phrase`,
	// Ranges and multiranges.
	`upper isempty lower_inc upper_inc lower_inf upper_inf range_merge
	 multirange int4range int8range numrange tsrange tstzrange daterange
	 int4multirange int8multirange nummultirange tsmultirange
	 tstzmultirange datemultirange`,
	// Network addresses and geometry.
	`host hostmask masklen netmask network set_masklen abbrev broadcast
	 family inet_merge inet_same_family
	 area center diameter height width npoints radius point box circle
	 polygon path lseg line`,
	// UUIDs and the little an analyst asks of the server itself: its
	// version string (also SHOW server_version), the database's name, a
	// value's type and size.
	`gen_random_uuid uuid_extract_timestamp uuid_extract_version
	 version current_database current_schema system_user
	 pg_typeof pg_column_size pg_size_pretty pg_size_bytes`,
)

// tableSampleMethods are the TABLESAMPLE methods of core PostgreSQL.
var tableSampleMethods = nameSet(`bernoulli system`)

// builtinOperators are the operator symbols pg_catalog defines (PostgreSQL
// 15 to 17). An operator is a function call in disguise: one spelled
// OPERATOR(schema.op) with another schema is refused, and a bare symbol
// resolves to pg_catalog's unless a column of an extension's type picks
// that extension's (see catalog.volatileOps).
var builtinOperators = nameSet(
	`!! !~ !~* !~~ !~~* # ## #- #> #>> % & && &< &<| &> * *< *<= *<> *= *>
	 *>= + - -> ->> -|- / < <-> << <<= <<| <= <> <@ <^ = > >= >> >>= >^ ? ?#
	 ?& ?- ?-| ?| ?|| @ @-@ @> @? @@ @@@ ^ ^@ | |&> |/ |>> || ||/ ~ ~* ~<=~
	 ~<~ ~= ~>=~ ~>~ ~~ ~~*`,
)

// allowedTypes are the built-in types a statement may name in a cast or a
// column definition list, under the names the parser gives them (INTEGER
// is pg_catalog.int4). A type's input function runs on the cast value:
// other types, an extension's or a domain's, could run anything, and the
// object-identifier types (regclass, regproc …) look names up in the
// catalog; xml is left out with the rest of XML.
var allowedTypes = nameSet(
	`bool int2 int4 int8 float4 float8 numeric money text varchar bpchar char
	 name bytea date time timetz timestamp timestamptz interval uuid json
	 jsonb jsonpath bit varbit inet cidr macaddr macaddr8 point line lseg box
	 path polygon circle tsvector tsquery oid tid
	 int4range int8range numrange tsrange tstzrange daterange int4multirange
	 int8multirange nummultirange tsmultirange tstzmultirange datemultirange`,
)

// explainOptions are the EXPLAIN options that only change what the plan
// shows (ANALYZE runs the statement, which passed the guard itself).
var explainOptions = nameSet(
	`analyze verbose costs settings buffers wal timing summary format
	 generic_plan memory serialize`,
)

// showableSettings are the settings SHOW may read: how values are written
// and compared, the server's version and limits, and the planner's knobs
// (every enable_* setting too). SHOW ALL, and settings naming files,
// directories, commands or connection strings on the server, are not.
var showableSettings = nameSet(
	`application_name array_nulls backslash_quote block_size bytea_output
	 client_encoding client_min_messages constraint_exclusion
	 cpu_index_tuple_cost cpu_operator_cost cpu_tuple_cost cursor_tuple_fraction
	 data_checksums datestyle default_statistics_target
	 default_table_access_method default_text_search_config
	 default_transaction_deferrable default_transaction_isolation
	 default_transaction_read_only effective_cache_size
	 effective_io_concurrency escape_string_warning extra_float_digits
	 from_collapse_limit geqo geqo_threshold idle_in_transaction_session_timeout
	 integer_datetimes intervalstyle is_superuser jit join_collapse_limit
	 lc_collate lc_ctype lc_messages lc_monetary lc_numeric lc_time
	 lock_timeout maintenance_work_mem max_connections max_function_args
	 max_identifier_length max_index_keys max_parallel_workers
	 max_parallel_workers_per_gather max_worker_processes parallel_setup_cost
	 parallel_tuple_cost plan_cache_mode quote_all_identifiers
	 random_page_cost search_path segment_size seq_page_cost server_encoding
	 server_version server_version_num shared_buffers
	 standard_conforming_strings statement_timeout temp_buffers timezone
	 timezone_abbreviations track_counts transaction_deferrable
	 transaction_isolation transaction_read_only transform_null_equals
	 wal_block_size work_mem`,
)

// showable reports whether SHOW may read setting (lower-cased).
func showable(setting string) bool {
	return showableSettings[setting] || strings.HasPrefix(setting, "enable_") && !strings.Contains(setting, ".")
}

// safeNodes are the parse-tree nodes that, by themselves, read nothing and
// change nothing: literals, column references, expressions, clauses. A
// node that names something (a function, operator, type, relation) or
// nests a query has its own check in guard.go and is not listed here.
var safeNodes = nameSet(
	`List String Integer Float Boolean BitString A_Const A_Star ColumnRef
	 ParamRef ResTarget Alias BoolExpr NullTest BooleanTest CaseExpr CaseWhen
	 CoalesceExpr MinMaxExpr SQLValueFunction RowExpr A_ArrayExpr A_Indices
	 A_Indirection CollateClause WindowDef GroupingSet GroupingFunc
	 RangeSubselect RangeFunction JoinExpr ColumnDef CTESearchClause
	 CTECycleClause NamedArgExpr`,
)

// sqlJSONNodes are the SQL/JSON syntax of PostgreSQL 16 and 17 (JSON_TABLE,
// JSON_VALUE, JSON_OBJECT(k VALUE v), IS JSON …). Harmless, but an older
// server parses the same text as calls of functions named json_value,
// json_object …, which could be anyone's: they pass only when the server
// is as new as the grammar.
var sqlJSONNodes = nameSet(
	`JsonFuncExpr JsonTable JsonTablePathSpec JsonTableColumn JsonKeyValue
	 JsonParseExpr JsonScalarExpr JsonSerializeExpr JsonObjectConstructor
	 JsonArrayConstructor JsonArrayQueryConstructor JsonAggConstructor
	 JsonObjectAgg JsonArrayAgg JsonValueExpr JsonFormat JsonReturning
	 JsonOutput JsonBehavior JsonArgument JsonIsPredicate`,
)

// grammarMajor is the PostgreSQL major version of the parser's grammar
// (pg_query_go v6 is libpg_query 17).
const grammarMajor = 17

// nodeNames says in words what a refused node is, for the nodes a user is
// most likely to have written; others are named by their node type.
var nodeNames = map[string]string{
	"InsertStmt": "INSERT", "UpdateStmt": "UPDATE", "DeleteStmt": "DELETE",
	"MergeStmt": "MERGE", "CopyStmt": "COPY", "DoStmt": "DO", "CallStmt": "CALL",
	"PrepareStmt": "PREPARE", "ExecuteStmt": "EXECUTE", "DeallocateStmt": "DEALLOCATE",
	"ListenStmt": "LISTEN", "NotifyStmt": "NOTIFY", "UnlistenStmt": "UNLISTEN",
	"VariableSetStmt": "SET", "TransactionStmt": "a transaction statement",
	"DeclareCursorStmt": "DECLARE CURSOR", "FetchStmt": "FETCH", "ClosePortalStmt": "CLOSE",
	"LockStmt": "LOCK", "VacuumStmt": "VACUUM or ANALYZE", "CreateTableAsStmt": "CREATE TABLE AS",
	"CreateStmt": "CREATE TABLE", "DropStmt": "DROP", "TruncateStmt": "TRUNCATE",
	"AlterSystemStmt": "ALTER SYSTEM", "LoadStmt": "LOAD", "CheckPointStmt": "CHECKPOINT",
	"DiscardStmt": "DISCARD", "RefreshMatViewStmt": "REFRESH MATERIALIZED VIEW",
	"CreateExtensionStmt": "CREATE EXTENSION", "CreateFunctionStmt": "CREATE FUNCTION",
	"ReindexStmt": "REINDEX", "ClusterStmt": "CLUSTER", "CommentStmt": "COMMENT",
	"GrantStmt": "GRANT", "GrantRoleStmt": "GRANT", "CreateRoleStmt": "CREATE ROLE",
	"AlterRoleStmt": "ALTER ROLE", "ViewStmt": "CREATE VIEW", "IndexStmt": "CREATE INDEX",
	"XmlExpr": "an XML function", "XmlSerialize": "XMLSERIALIZE", "RangeTableFunc": "XMLTABLE",
	"IntoClause": "SELECT INTO", "LockingClause": "a locking clause (FOR UPDATE/SHARE)",
	"MultiAssignRef": "a multiple-column assignment", "SetToDefault": "DEFAULT",
	"CurrentOfExpr": "WHERE CURRENT OF", "MergeSupportFunc": "MERGE_ACTION()",
	"AlterTableStmt": "ALTER TABLE", "CreateSchemaStmt": "CREATE SCHEMA",
	"VariableShowStmt": "SHOW", "ExplainStmt": "EXPLAIN",
}
