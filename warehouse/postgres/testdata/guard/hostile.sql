--# Hostile statements: every one must be refused by the PostgreSQL guard.
--# Entries are separated by a line that is exactly ----; lines starting with
--# "--# " at the top of an entry say what it tries. Tables named here are
--# those guardFixture (guard_test.go) creates.
----
--# reads a server file
SELECT pg_read_file('/etc/passwd')
----
--# reads a server file relative to the data directory
SELECT pg_read_file('PG_VERSION')
----
--# reads a server file with offset and length
SELECT pg_read_file('postgresql.conf', 0, 200)
----
--# reads a binary server file
SELECT pg_read_binary_file('global/pg_control')
----
--# lists the data directory
SELECT pg_ls_dir('.')
----
--# lists the log directory
SELECT pg_ls_logdir()
----
--# lists the WAL directory
SELECT pg_ls_waldir()
----
--# lists temporary files
SELECT pg_ls_tmpdir()
----
--# lists the archive status directory
SELECT pg_ls_archive_statusdir()
----
--# stats a server file
SELECT pg_stat_file('PG_VERSION')
----
--# imports a server file as a large object
SELECT lo_import('/etc/passwd')
----
--# exports a large object to a server file
SELECT lo_export(1, '/tmp/discover_pwned')
----
--# creates a large object
SELECT lo_from_bytea(0, 'x')
----
--# creates an empty large object
SELECT lo_create(0)
----
--# reads a large object
SELECT lo_get(1)
----
--# deletes a large object
SELECT lo_unlink(1)
----
--# writes a file through adminpack
SELECT pg_file_write('pwned.txt', 'x', false)
----
--# renames a file through adminpack
SELECT pg_file_rename('postgresql.conf', 'x')
----
--# deletes a file through adminpack
SELECT pg_file_unlink('postmaster.opts')
----
--# writes a WAL message outside any transaction's control
SELECT pg_logical_emit_message(false, 'discover', 'pwned')
----
--# writes a transactional WAL message
SELECT pg_logical_emit_message(true, 'discover', 'pwned')
----
--# summarizes BRIN ranges (writes the index)
SELECT brin_summarize_new_values('orders_placed_brin')
----
--# summarizes one BRIN range
SELECT brin_summarize_range('orders_placed_brin', 0)
----
--# desummarizes a BRIN range
SELECT brin_desummarize_range('orders_placed_brin', 0)
----
--# flushes a GIN pending list
SELECT gin_clean_pending_list('docs_tsv_gin')
----
--# starts a backup
SELECT pg_backup_start('discover')
----
--# stops a backup
SELECT pg_backup_stop()
----
--# starts a backup, old name
SELECT pg_start_backup('discover')
----
--# creates a restore point in WAL
SELECT pg_create_restore_point('discover')
----
--# switches WAL
SELECT pg_switch_wal()
----
--# creates a physical replication slot (WAL kept forever)
SELECT pg_create_physical_replication_slot('discover_slot', true)
----
--# creates a logical replication slot
SELECT pg_create_logical_replication_slot('discover_slot', 'test_decoding')
----
--# drops a replication slot
SELECT pg_drop_replication_slot('some_slot')
----
--# advances a replication slot
SELECT pg_replication_slot_advance('some_slot', '0/0')
----
--# creates a replication origin
SELECT pg_replication_origin_create('discover')
----
--# reads changes from a slot
SELECT pg_logical_slot_get_changes('some_slot', NULL, NULL)
----
--# takes a session advisory lock that outlives the transaction
SELECT pg_advisory_lock(4242)
----
--# takes a shared session advisory lock
SELECT pg_advisory_lock_shared(4242)
----
--# tries a session advisory lock
SELECT pg_try_advisory_lock(4242)
----
--# takes a transaction advisory lock
SELECT pg_advisory_xact_lock(4242)
----
--# releases every advisory lock of the session
SELECT pg_advisory_unlock_all()
----
--# terminates another backend
SELECT pg_terminate_backend(12345)
----
--# cancels another backend
SELECT pg_cancel_backend(12345)
----
--# reloads the server configuration
SELECT pg_reload_conf()
----
--# rotates the server log
SELECT pg_rotate_logfile()
----
--# promotes a standby
SELECT pg_promote()
----
--# resets the database's statistics
SELECT pg_stat_reset()
----
--# resets shared statistics
SELECT pg_stat_reset_shared('bgwriter')
----
--# resets the archiver statistics
SELECT pg_stat_reset_shared('archiver')
----
--# resets a table's statistics
SELECT pg_stat_reset_single_table_counters(1259)
----
--# resets SLRU statistics
SELECT pg_stat_reset_slru(NULL)
----
--# resets pg_stat_statements
SELECT pg_stat_statements_reset()
----
--# switches read-only off for the session
SELECT set_config('default_transaction_read_only', 'off', false)
----
--# changes the search path
SELECT set_config('search_path', 'evil, pg_catalog', false)
----
--# turns standard_conforming_strings off to change how strings lex
SELECT set_config('standard_conforming_strings', 'off', false)
----
--# reads a setting naming a server file
SELECT current_setting('hba_file')
----
--# reads the data directory
SELECT current_setting('data_directory')
----
--# advances a sequence
SELECT nextval('orders_id_seq')
----
--# reads a sequence's session value
SELECT currval('orders_id_seq')
----
--# sets a sequence
SELECT setval('orders_id_seq', 1)
----
--# reads the session's last sequence value
SELECT lastval()
----
--# sleeps
SELECT pg_sleep(10)
----
--# sleeps for an interval
SELECT pg_sleep_for('1 minute')
----
--# sleeps until a time
SELECT pg_sleep_until(now() + interval '1 minute')
----
--# sends a notification
SELECT pg_notify('discover', 'pwned')
----
--# assigns a transaction id
SELECT txid_current()
----
--# assigns a transaction id, new name
SELECT pg_current_xact_id()
----
--# exports a snapshot
SELECT pg_export_snapshot()
----
--# reseeds the session's random generator
SELECT setseed(0.5)
----
--# imports collations (writes the catalog)
SELECT pg_import_system_collations('pg_catalog')
----
--# reads a relation's size on disk
SELECT pg_relation_size('customers')
----
--# reads the database's size
SELECT pg_database_size(current_database())
----
--# reads a table's size
SELECT pg_table_size('customers')
----
--# reads other sessions' activity
SELECT pg_stat_get_activity(NULL)
----
--# reads the backend pid
SELECT pg_backend_pid()
----
--# reads the server address
SELECT inet_server_addr()
----
--# reads the current log file's name
SELECT pg_current_logfile()
----
--# reads a function's source
SELECT pg_get_functiondef('pg_catalog.now'::regproc)
----
--# reads privileges from the catalog
SELECT has_table_privilege('pg_authid', 'SELECT')
----
--# opens a second, writable connection through dblink
SELECT dblink('dbname=discover_test', 'SELECT 1')
----
--# runs a write through a dblink connection
SELECT dblink_exec('dbname=discover_test', 'CREATE TABLE pwned (a int)')
----
--# connects dblink
SELECT dblink_connect('c', 'dbname=discover_test')
----
--# sends an async dblink query
SELECT dblink_send_query('c', 'SELECT pg_sleep(60)')
----
--# runs a query given as text through XML export
SELECT query_to_xml('SELECT pg_read_file(''/etc/passwd'')', true, false, '')
----
--# runs a query given as text through XML schema export
SELECT query_to_xmlschema('SELECT 1', true, false, '')
----
--# runs a query given as text through XML export with schema
SELECT query_to_xml_and_xmlschema('SELECT 1', true, false, '')
----
--# dumps a table as XML
SELECT table_to_xml('customers', true, false, '')
----
--# dumps a cursor as XML
SELECT cursor_to_xml('c', 10, true, false, '')
----
--# dumps the whole database as XML in one row
SELECT database_to_xml(true, false, '')
----
--# dumps the whole database's XML schema
SELECT database_to_xmlschema(true, false, '')
----
--# dumps a schema as XML
SELECT schema_to_xml('public', true, false, '')
----
--# runs a query given as text through text-search statistics
SELECT ts_stat('SELECT to_tsvector(pg_read_file(''/etc/passwd''))')
----
--# runs a query given as text through ts_rewrite
SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, ''b''::tsquery')
----
--# evaluates XPath over XML
SELECT xpath('/a/text()', '<a>x</a>')
----
--# checks XPath existence
SELECT xpath_exists('/a', '<a/>')
----
--# runs a query given as text through tablefunc's crosstab
SELECT crosstab('SELECT pg_read_file(''/etc/passwd''), 1, 2')
----
--# runs a query given as text through tablefunc's connectby
SELECT connectby('customers', 'id', 'id', '1', 0)
----
--# runs SQL built from text through xml2's xpath_table
SELECT xpath_table('id', 'body', 'docs', '/a', 'true')
----
--# reads a raw page through pageinspect
SELECT get_raw_page('customers', 0)
----
--# reads heap tuples through pageinspect
SELECT heap_page_items(get_raw_page('customers', 0))
----
--# reads a page header through pageinspect
SELECT page_header(get_raw_page('customers', 0))
----
--# calls a volatile namesake of an allowed function
SELECT trim_scale(8.41)
----
--# calls the owner's volatile function
SELECT audit(c) FROM customers c
----
--# pg_read_file, Unicode-escaped identifier
SELECT U&"\0070\0067\005f\0072\0065\0061\0064\005f\0066\0069\006c\0065"('/etc/passwd')
----
--# pg_read_file, qualified with pg_catalog
SELECT pg_catalog.pg_read_file('/etc/passwd')
----
--# pg_read_file, quoted identifier
SELECT "pg_read_file"('/etc/passwd')
----
--# pg_read_file, upper case (folds to the same name)
SELECT PG_READ_FILE('/etc/passwd')
----
--# pg_read_file, Unicode escape with UESCAPE
SELECT U&"!0070g_read_file" UESCAPE '!'('/etc/passwd')
----
--# pg_read_file, in FROM as a table function
SELECT * FROM pg_read_file('/etc/passwd') AS x
----
--# pg_read_file, in a subquery
SELECT (SELECT pg_read_file('/etc/passwd'))
----
--# pg_read_file, in a CTE
WITH x AS (SELECT pg_read_file('/etc/passwd') AS v) SELECT * FROM x
----
--# pg_read_file, in WHERE
SELECT id FROM customers WHERE pg_read_file('/etc/passwd') IS NOT NULL
----
--# pg_read_file, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT pg_read_file('/etc/passwd')
----
--# pg_read_file, inside an allowed function
SELECT coalesce(pg_read_file('/etc/passwd')::text, '')
----
--# pg_read_file, with comments between the name and its arguments
SELECT pg_read_file/* hidden */ ('/etc/passwd')
----
--# pg_create_physical_replication_slot, Unicode-escaped identifier
SELECT U&"\0070\0067\005f\0063\0072\0065\0061\0074\0065\005f\0070\0068\0079\0073\0069\0063\0061\006c\005f\0072\0065\0070\006c\0069\0063\0061\0074\0069\006f\006e\005f\0073\006c\006f\0074"('discover_slot', true)
----
--# pg_create_physical_replication_slot, qualified with pg_catalog
SELECT pg_catalog.pg_create_physical_replication_slot('discover_slot', true)
----
--# pg_create_physical_replication_slot, quoted identifier
SELECT "pg_create_physical_replication_slot"('discover_slot', true)
----
--# pg_create_physical_replication_slot, upper case (folds to the same name)
SELECT PG_CREATE_PHYSICAL_REPLICATION_SLOT('discover_slot', true)
----
--# pg_create_physical_replication_slot, Unicode escape with UESCAPE
SELECT U&"!0070g_create_physical_replication_slot" UESCAPE '!'('discover_slot', true)
----
--# pg_create_physical_replication_slot, in FROM as a table function
SELECT * FROM pg_create_physical_replication_slot('discover_slot', true) AS x
----
--# pg_create_physical_replication_slot, in a subquery
SELECT (SELECT pg_create_physical_replication_slot('discover_slot', true))
----
--# pg_create_physical_replication_slot, in a CTE
WITH x AS (SELECT pg_create_physical_replication_slot('discover_slot', true) AS v) SELECT * FROM x
----
--# pg_create_physical_replication_slot, in WHERE
SELECT id FROM customers WHERE pg_create_physical_replication_slot('discover_slot', true) IS NOT NULL
----
--# pg_create_physical_replication_slot, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT pg_create_physical_replication_slot('discover_slot', true)
----
--# pg_create_physical_replication_slot, inside an allowed function
SELECT coalesce(pg_create_physical_replication_slot('discover_slot', true)::text, '')
----
--# pg_create_physical_replication_slot, with comments between the name and its arguments
SELECT pg_create_physical_replication_slot/* hidden */ ('discover_slot', true)
----
--# pg_stat_reset, Unicode-escaped identifier
SELECT U&"\0070\0067\005f\0073\0074\0061\0074\005f\0072\0065\0073\0065\0074"()
----
--# pg_stat_reset, qualified with pg_catalog
SELECT pg_catalog.pg_stat_reset()
----
--# pg_stat_reset, quoted identifier
SELECT "pg_stat_reset"()
----
--# pg_stat_reset, upper case (folds to the same name)
SELECT PG_STAT_RESET()
----
--# pg_stat_reset, Unicode escape with UESCAPE
SELECT U&"!0070g_stat_reset" UESCAPE '!'()
----
--# pg_stat_reset, in FROM as a table function
SELECT * FROM pg_stat_reset() AS x
----
--# pg_stat_reset, in a subquery
SELECT (SELECT pg_stat_reset())
----
--# pg_stat_reset, in a CTE
WITH x AS (SELECT pg_stat_reset() AS v) SELECT * FROM x
----
--# pg_stat_reset, in WHERE
SELECT id FROM customers WHERE pg_stat_reset() IS NOT NULL
----
--# pg_stat_reset, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT pg_stat_reset()
----
--# pg_stat_reset, inside an allowed function
SELECT coalesce(pg_stat_reset()::text, '')
----
--# pg_stat_reset, with comments between the name and its arguments
SELECT pg_stat_reset/* hidden */ ()
----
--# pg_advisory_lock, Unicode-escaped identifier
SELECT U&"\0070\0067\005f\0061\0064\0076\0069\0073\006f\0072\0079\005f\006c\006f\0063\006b"(4242)
----
--# pg_advisory_lock, qualified with pg_catalog
SELECT pg_catalog.pg_advisory_lock(4242)
----
--# pg_advisory_lock, quoted identifier
SELECT "pg_advisory_lock"(4242)
----
--# pg_advisory_lock, upper case (folds to the same name)
SELECT PG_ADVISORY_LOCK(4242)
----
--# pg_advisory_lock, Unicode escape with UESCAPE
SELECT U&"!0070g_advisory_lock" UESCAPE '!'(4242)
----
--# pg_advisory_lock, in FROM as a table function
SELECT * FROM pg_advisory_lock(4242) AS x
----
--# pg_advisory_lock, in a subquery
SELECT (SELECT pg_advisory_lock(4242))
----
--# pg_advisory_lock, in a CTE
WITH x AS (SELECT pg_advisory_lock(4242) AS v) SELECT * FROM x
----
--# pg_advisory_lock, in WHERE
SELECT id FROM customers WHERE pg_advisory_lock(4242) IS NOT NULL
----
--# pg_advisory_lock, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT pg_advisory_lock(4242)
----
--# pg_advisory_lock, inside an allowed function
SELECT coalesce(pg_advisory_lock(4242)::text, '')
----
--# pg_advisory_lock, with comments between the name and its arguments
SELECT pg_advisory_lock/* hidden */ (4242)
----
--# pg_terminate_backend, Unicode-escaped identifier
SELECT U&"\0070\0067\005f\0074\0065\0072\006d\0069\006e\0061\0074\0065\005f\0062\0061\0063\006b\0065\006e\0064"(12345)
----
--# pg_terminate_backend, qualified with pg_catalog
SELECT pg_catalog.pg_terminate_backend(12345)
----
--# pg_terminate_backend, quoted identifier
SELECT "pg_terminate_backend"(12345)
----
--# pg_terminate_backend, upper case (folds to the same name)
SELECT PG_TERMINATE_BACKEND(12345)
----
--# pg_terminate_backend, Unicode escape with UESCAPE
SELECT U&"!0070g_terminate_backend" UESCAPE '!'(12345)
----
--# pg_terminate_backend, in FROM as a table function
SELECT * FROM pg_terminate_backend(12345) AS x
----
--# pg_terminate_backend, in a subquery
SELECT (SELECT pg_terminate_backend(12345))
----
--# pg_terminate_backend, in a CTE
WITH x AS (SELECT pg_terminate_backend(12345) AS v) SELECT * FROM x
----
--# pg_terminate_backend, in WHERE
SELECT id FROM customers WHERE pg_terminate_backend(12345) IS NOT NULL
----
--# pg_terminate_backend, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT pg_terminate_backend(12345)
----
--# pg_terminate_backend, inside an allowed function
SELECT coalesce(pg_terminate_backend(12345)::text, '')
----
--# pg_terminate_backend, with comments between the name and its arguments
SELECT pg_terminate_backend/* hidden */ (12345)
----
--# pg_logical_emit_message, Unicode-escaped identifier
SELECT U&"\0070\0067\005f\006c\006f\0067\0069\0063\0061\006c\005f\0065\006d\0069\0074\005f\006d\0065\0073\0073\0061\0067\0065"(false, 'p', 'x')
----
--# pg_logical_emit_message, qualified with pg_catalog
SELECT pg_catalog.pg_logical_emit_message(false, 'p', 'x')
----
--# pg_logical_emit_message, quoted identifier
SELECT "pg_logical_emit_message"(false, 'p', 'x')
----
--# pg_logical_emit_message, upper case (folds to the same name)
SELECT PG_LOGICAL_EMIT_MESSAGE(false, 'p', 'x')
----
--# pg_logical_emit_message, Unicode escape with UESCAPE
SELECT U&"!0070g_logical_emit_message" UESCAPE '!'(false, 'p', 'x')
----
--# pg_logical_emit_message, in FROM as a table function
SELECT * FROM pg_logical_emit_message(false, 'p', 'x') AS x
----
--# pg_logical_emit_message, in a subquery
SELECT (SELECT pg_logical_emit_message(false, 'p', 'x'))
----
--# pg_logical_emit_message, in a CTE
WITH x AS (SELECT pg_logical_emit_message(false, 'p', 'x') AS v) SELECT * FROM x
----
--# pg_logical_emit_message, in WHERE
SELECT id FROM customers WHERE pg_logical_emit_message(false, 'p', 'x') IS NOT NULL
----
--# pg_logical_emit_message, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT pg_logical_emit_message(false, 'p', 'x')
----
--# pg_logical_emit_message, inside an allowed function
SELECT coalesce(pg_logical_emit_message(false, 'p', 'x')::text, '')
----
--# pg_logical_emit_message, with comments between the name and its arguments
SELECT pg_logical_emit_message/* hidden */ (false, 'p', 'x')
----
--# set_config, Unicode-escaped identifier
SELECT U&"\0073\0065\0074\005f\0063\006f\006e\0066\0069\0067"('default_transaction_read_only', 'off', false)
----
--# set_config, qualified with pg_catalog
SELECT pg_catalog.set_config('default_transaction_read_only', 'off', false)
----
--# set_config, quoted identifier
SELECT "set_config"('default_transaction_read_only', 'off', false)
----
--# set_config, upper case (folds to the same name)
SELECT SET_CONFIG('default_transaction_read_only', 'off', false)
----
--# set_config, Unicode escape with UESCAPE
SELECT U&"!0073et_config" UESCAPE '!'('default_transaction_read_only', 'off', false)
----
--# set_config, in FROM as a table function
SELECT * FROM set_config('default_transaction_read_only', 'off', false) AS x
----
--# set_config, in a subquery
SELECT (SELECT set_config('default_transaction_read_only', 'off', false))
----
--# set_config, in a CTE
WITH x AS (SELECT set_config('default_transaction_read_only', 'off', false) AS v) SELECT * FROM x
----
--# set_config, in WHERE
SELECT id FROM customers WHERE set_config('default_transaction_read_only', 'off', false) IS NOT NULL
----
--# set_config, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT set_config('default_transaction_read_only', 'off', false)
----
--# set_config, inside an allowed function
SELECT coalesce(set_config('default_transaction_read_only', 'off', false)::text, '')
----
--# set_config, with comments between the name and its arguments
SELECT set_config/* hidden */ ('default_transaction_read_only', 'off', false)
----
--# pg_ls_dir, Unicode-escaped identifier
SELECT U&"\0070\0067\005f\006c\0073\005f\0064\0069\0072"('.')
----
--# pg_ls_dir, qualified with pg_catalog
SELECT pg_catalog.pg_ls_dir('.')
----
--# pg_ls_dir, quoted identifier
SELECT "pg_ls_dir"('.')
----
--# pg_ls_dir, upper case (folds to the same name)
SELECT PG_LS_DIR('.')
----
--# pg_ls_dir, Unicode escape with UESCAPE
SELECT U&"!0070g_ls_dir" UESCAPE '!'('.')
----
--# pg_ls_dir, in FROM as a table function
SELECT * FROM pg_ls_dir('.') AS x
----
--# pg_ls_dir, in a subquery
SELECT (SELECT pg_ls_dir('.'))
----
--# pg_ls_dir, in a CTE
WITH x AS (SELECT pg_ls_dir('.') AS v) SELECT * FROM x
----
--# pg_ls_dir, in WHERE
SELECT id FROM customers WHERE pg_ls_dir('.') IS NOT NULL
----
--# pg_ls_dir, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT pg_ls_dir('.')
----
--# pg_ls_dir, inside an allowed function
SELECT coalesce(pg_ls_dir('.')::text, '')
----
--# pg_ls_dir, with comments between the name and its arguments
SELECT pg_ls_dir/* hidden */ ('.')
----
--# dblink_exec, Unicode-escaped identifier
SELECT U&"\0064\0062\006c\0069\006e\006b\005f\0065\0078\0065\0063"('dbname=discover_test', 'DROP TABLE customers')
----
--# dblink_exec, qualified with pg_catalog
SELECT pg_catalog.dblink_exec('dbname=discover_test', 'DROP TABLE customers')
----
--# dblink_exec, quoted identifier
SELECT "dblink_exec"('dbname=discover_test', 'DROP TABLE customers')
----
--# dblink_exec, upper case (folds to the same name)
SELECT DBLINK_EXEC('dbname=discover_test', 'DROP TABLE customers')
----
--# dblink_exec, Unicode escape with UESCAPE
SELECT U&"!0064blink_exec" UESCAPE '!'('dbname=discover_test', 'DROP TABLE customers')
----
--# dblink_exec, in FROM as a table function
SELECT * FROM dblink_exec('dbname=discover_test', 'DROP TABLE customers') AS x
----
--# dblink_exec, in a subquery
SELECT (SELECT dblink_exec('dbname=discover_test', 'DROP TABLE customers'))
----
--# dblink_exec, in a CTE
WITH x AS (SELECT dblink_exec('dbname=discover_test', 'DROP TABLE customers') AS v) SELECT * FROM x
----
--# dblink_exec, in WHERE
SELECT id FROM customers WHERE dblink_exec('dbname=discover_test', 'DROP TABLE customers') IS NOT NULL
----
--# dblink_exec, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT dblink_exec('dbname=discover_test', 'DROP TABLE customers')
----
--# dblink_exec, inside an allowed function
SELECT coalesce(dblink_exec('dbname=discover_test', 'DROP TABLE customers')::text, '')
----
--# dblink_exec, with comments between the name and its arguments
SELECT dblink_exec/* hidden */ ('dbname=discover_test', 'DROP TABLE customers')
----
--# query_to_xml, Unicode-escaped identifier
SELECT U&"\0071\0075\0065\0072\0079\005f\0074\006f\005f\0078\006d\006c"('SELECT 1', true, false, '')
----
--# query_to_xml, qualified with pg_catalog
SELECT pg_catalog.query_to_xml('SELECT 1', true, false, '')
----
--# query_to_xml, quoted identifier
SELECT "query_to_xml"('SELECT 1', true, false, '')
----
--# query_to_xml, upper case (folds to the same name)
SELECT QUERY_TO_XML('SELECT 1', true, false, '')
----
--# query_to_xml, Unicode escape with UESCAPE
SELECT U&"!0071uery_to_xml" UESCAPE '!'('SELECT 1', true, false, '')
----
--# query_to_xml, in FROM as a table function
SELECT * FROM query_to_xml('SELECT 1', true, false, '') AS x
----
--# query_to_xml, in a subquery
SELECT (SELECT query_to_xml('SELECT 1', true, false, ''))
----
--# query_to_xml, in a CTE
WITH x AS (SELECT query_to_xml('SELECT 1', true, false, '') AS v) SELECT * FROM x
----
--# query_to_xml, in WHERE
SELECT id FROM customers WHERE query_to_xml('SELECT 1', true, false, '') IS NOT NULL
----
--# query_to_xml, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT query_to_xml('SELECT 1', true, false, '')
----
--# query_to_xml, inside an allowed function
SELECT coalesce(query_to_xml('SELECT 1', true, false, '')::text, '')
----
--# query_to_xml, with comments between the name and its arguments
SELECT query_to_xml/* hidden */ ('SELECT 1', true, false, '')
----
--# lo_import, Unicode-escaped identifier
SELECT U&"\006c\006f\005f\0069\006d\0070\006f\0072\0074"('/etc/passwd')
----
--# lo_import, qualified with pg_catalog
SELECT pg_catalog.lo_import('/etc/passwd')
----
--# lo_import, quoted identifier
SELECT "lo_import"('/etc/passwd')
----
--# lo_import, upper case (folds to the same name)
SELECT LO_IMPORT('/etc/passwd')
----
--# lo_import, Unicode escape with UESCAPE
SELECT U&"!006co_import" UESCAPE '!'('/etc/passwd')
----
--# lo_import, in FROM as a table function
SELECT * FROM lo_import('/etc/passwd') AS x
----
--# lo_import, in a subquery
SELECT (SELECT lo_import('/etc/passwd'))
----
--# lo_import, in a CTE
WITH x AS (SELECT lo_import('/etc/passwd') AS v) SELECT * FROM x
----
--# lo_import, in WHERE
SELECT id FROM customers WHERE lo_import('/etc/passwd') IS NOT NULL
----
--# lo_import, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT lo_import('/etc/passwd')
----
--# lo_import, inside an allowed function
SELECT coalesce(lo_import('/etc/passwd')::text, '')
----
--# lo_import, with comments between the name and its arguments
SELECT lo_import/* hidden */ ('/etc/passwd')
----
--# nextval, Unicode-escaped identifier
SELECT U&"\006e\0065\0078\0074\0076\0061\006c"('s')
----
--# nextval, qualified with pg_catalog
SELECT pg_catalog.nextval('s')
----
--# nextval, quoted identifier
SELECT "nextval"('s')
----
--# nextval, upper case (folds to the same name)
SELECT NEXTVAL('s')
----
--# nextval, Unicode escape with UESCAPE
SELECT U&"!006eextval" UESCAPE '!'('s')
----
--# nextval, in FROM as a table function
SELECT * FROM nextval('s') AS x
----
--# nextval, in a subquery
SELECT (SELECT nextval('s'))
----
--# nextval, in a CTE
WITH x AS (SELECT nextval('s') AS v) SELECT * FROM x
----
--# nextval, in WHERE
SELECT id FROM customers WHERE nextval('s') IS NOT NULL
----
--# nextval, under EXPLAIN ANALYZE (which runs it)
EXPLAIN ANALYZE SELECT nextval('s')
----
--# nextval, inside an allowed function
SELECT coalesce(nextval('s')::text, '')
----
--# nextval, with comments between the name and its arguments
SELECT nextval/* hidden */ ('s')
----
--# Unicode escape with a six-digit escape
SELECT U&"\+000070g_ls_dir"('.')
----
--# Unicode escape in the middle of the name
SELECT U&"pg_\0073leep"(10)
----
--# schema and name quoted apart
SELECT "pg_catalog"."pg_read_file"('/etc/passwd')
----
--# schema and name with comments around the dot
SELECT pg_catalog/**/./**/pg_read_file('/etc/passwd')
----
--# schema escaped, name plain
SELECT U&"\0070g_catalog".pg_read_file('/etc/passwd')
----
--# in ORDER BY
SELECT id FROM customers ORDER BY pg_sleep(1)
----
--# in GROUP BY
SELECT count(*) FROM customers GROUP BY pg_backend_pid()
----
--# in HAVING
SELECT count(*) FROM customers HAVING pg_advisory_lock(1) IS NULL
----
--# in a CASE branch
SELECT CASE WHEN id > 0 THEN pg_read_file('/etc/passwd') END FROM customers
----
--# in a window function's argument
SELECT first_value(pg_read_file('/etc/passwd')) OVER () FROM customers
----
--# in a FILTER clause
SELECT count(*) FILTER (WHERE pg_sleep(1) IS NULL) FROM customers
----
--# in VALUES
VALUES (pg_read_file('/etc/passwd'))
----
--# in LIMIT
SELECT * FROM customers LIMIT (SELECT length(pg_read_file('/etc/passwd')))
----
--# in a LATERAL subquery
SELECT * FROM customers c, LATERAL (SELECT pg_ls_dir('.')) x
----
--# in a JOIN condition
SELECT * FROM customers a JOIN orders b ON pg_advisory_lock(b.id) IS NULL
----
--# in ROWS FROM
SELECT * FROM ROWS FROM (generate_series(1, 2), pg_ls_dir('.')) AS r(a, b)
----
--# in a recursive CTE's recursive term
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE pg_sleep(1) IS NULL) SELECT * FROM r
----
--# in a set operation's second arm
SELECT 1 UNION ALL SELECT length(pg_read_file('/etc/passwd'))
----
--# in a DISTINCT ON
SELECT DISTINCT ON (pg_backend_pid()) id FROM customers
----
--# in a column definition list's function
SELECT * FROM dblink('dbname=discover_test', 'SELECT 1') AS t(a int)
----
--# as an aggregate's ORDER BY
SELECT string_agg(name, ',' ORDER BY pg_sleep(0.1)) FROM customers
----
--# inside ARRAY()
SELECT ARRAY(SELECT pg_ls_dir('.'))
----
--# inside EXISTS
SELECT EXISTS (SELECT pg_terminate_backend(pid) FROM generate_series(1, 2) pid)
----
--# look-alike letters (Cyrillic i)
SELECT pg_read_fіle('/etc/passwd')
----
--# function-call syntax for a lock through attribute notation
SELECT c.audit FROM customers c
----
--# attribute notation on a parenthesized row
SELECT (c).audit FROM customers c
----
--# attribute notation on a row constructor
SELECT (ROW(1, 'a', 'b', 'c', now(), NULL::text[], NULL::jsonb, 1.0)::customers).audit
----
--# INSERT
INSERT INTO customers (id, name) VALUES (99, 'x')
----
--# INSERT … SELECT
INSERT INTO orders SELECT * FROM orders
----
--# UPDATE
UPDATE customers SET name = 'x'
----
--# DELETE
DELETE FROM orders
----
--# MERGE
MERGE INTO customers c USING orders o ON o.customer_id = c.id WHEN MATCHED THEN DELETE
----
--# TRUNCATE
TRUNCATE orders
----
--# COPY to the client
COPY customers TO STDOUT
----
--# COPY to a server file
COPY customers TO '/tmp/discover_pwned.csv'
----
--# COPY from a server file
COPY customers FROM '/etc/passwd'
----
--# COPY to a program on the server
COPY (SELECT 1) TO PROGRAM 'id > /tmp/discover_pwned'
----
--# COPY from a program on the server
COPY customers FROM PROGRAM 'cat /etc/passwd'
----
--# SELECT INTO creates a table
SELECT * INTO pwned FROM customers
----
--# SELECT INTO TEMP
SELECT 1 AS a INTO TEMP pwned
----
--# SELECT INTO UNLOGGED
SELECT 1 AS a INTO UNLOGGED TABLE pwned
----
--# SELECT INTO in a UNION
SELECT 1 INTO pwned UNION SELECT 2
----
--# CREATE TABLE AS
CREATE TABLE pwned AS SELECT * FROM customers
----
--# CREATE TEMP TABLE
CREATE TEMP TABLE pwned (a int)
----
--# CREATE MATERIALIZED VIEW
CREATE MATERIALIZED VIEW pwned AS SELECT 1
----
--# FOR UPDATE
SELECT * FROM customers FOR UPDATE
----
--# FOR NO KEY UPDATE
SELECT * FROM customers FOR NO KEY UPDATE
----
--# FOR SHARE
SELECT * FROM customers FOR SHARE
----
--# FOR KEY SHARE
SELECT * FROM customers FOR KEY SHARE
----
--# FOR UPDATE SKIP LOCKED
SELECT * FROM customers FOR UPDATE SKIP LOCKED
----
--# FOR UPDATE NOWAIT of one table
SELECT * FROM customers c JOIN orders o ON o.customer_id = c.id FOR UPDATE OF c NOWAIT
----
--# FOR UPDATE in a subquery
SELECT * FROM (SELECT * FROM customers FOR UPDATE) x
----
--# FOR UPDATE in a CTE
WITH x AS (SELECT * FROM customers FOR UPDATE) SELECT * FROM x
----
--# FOR SHARE in a scalar subquery
SELECT (SELECT id FROM customers LIMIT 1 FOR SHARE)
----
--# data-modifying CTE: DELETE
WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d
----
--# data-modifying CTE: UPDATE
WITH u AS (UPDATE customers SET name = 'x' RETURNING id) SELECT count(*) FROM u
----
--# data-modifying CTE: INSERT
WITH i AS (INSERT INTO customers (id, name) VALUES (99, 'x') RETURNING id) SELECT * FROM i
----
--# data-modifying CTE nested in a subquery
SELECT * FROM (WITH d AS (DELETE FROM orders RETURNING id) SELECT id FROM d) x
----
--# data-modifying CTE second in the list
WITH a AS (SELECT 1), d AS (DELETE FROM orders RETURNING id) SELECT * FROM a
----
--# DO block
DO $$BEGIN PERFORM pg_sleep(1); END$$
----
--# DO block with a tagged dollar quote
DO $body$ BEGIN EXECUTE 'DROP TABLE customers'; END $body$
----
--# CALL
CALL some_procedure()
----
--# PREPARE
PREPARE p AS SELECT pg_sleep(1)
----
--# EXECUTE
EXECUTE p
----
--# DEALLOCATE
DEALLOCATE ALL
----
--# LISTEN
LISTEN discover
----
--# NOTIFY
NOTIFY discover, 'pwned'
----
--# UNLISTEN
UNLISTEN *
----
--# SET read-only off
SET default_transaction_read_only = off
----
--# SET the transaction read-write
SET TRANSACTION READ WRITE
----
--# SET LOCAL
SET LOCAL statement_timeout = 0
----
--# SET standard_conforming_strings off (changes lexing)
SET standard_conforming_strings = off
----
--# SET search_path
SET search_path = evil, pg_catalog
----
--# SET ROLE
SET ROLE postgres
----
--# SET SESSION AUTHORIZATION
SET SESSION AUTHORIZATION postgres
----
--# RESET ALL
RESET ALL
----
--# BEGIN READ WRITE
BEGIN READ WRITE
----
--# START TRANSACTION
START TRANSACTION READ WRITE
----
--# COMMIT
COMMIT
----
--# ROLLBACK
ROLLBACK
----
--# SAVEPOINT
SAVEPOINT s
----
--# DECLARE a cursor
DECLARE c CURSOR FOR SELECT * FROM customers
----
--# FETCH
FETCH ALL FROM c
----
--# CLOSE
CLOSE c
----
--# LOCK
LOCK TABLE customers IN ACCESS EXCLUSIVE MODE
----
--# VACUUM
VACUUM customers
----
--# ANALYZE
ANALYZE customers
----
--# CLUSTER
CLUSTER customers USING customers_pkey
----
--# REINDEX
REINDEX TABLE customers
----
--# CHECKPOINT
CHECKPOINT
----
--# LOAD a shared library
LOAD '/tmp/evil.so'
----
--# DISCARD
DISCARD ALL
----
--# REFRESH MATERIALIZED VIEW
REFRESH MATERIALIZED VIEW order_totals
----
--# CREATE EXTENSION
CREATE EXTENSION IF NOT EXISTS plpython3u
----
--# CREATE FUNCTION
CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1'
----
--# ALTER SYSTEM
ALTER SYSTEM SET archive_command = 'id'
----
--# DROP TABLE
DROP TABLE customers
----
--# GRANT
GRANT ALL ON customers TO PUBLIC
----
--# COMMENT ON
COMMENT ON TABLE customers IS 'pwned'
----
--# ALTER ROLE
ALTER ROLE postgres PASSWORD 'x'
----
--# CREATE ROLE
CREATE ROLE pwned SUPERUSER LOGIN
----
--# CREATE SERVER
CREATE SERVER s FOREIGN DATA WRAPPER dblink_fdw
----
--# IMPORT FOREIGN SCHEMA
IMPORT FOREIGN SCHEMA public FROM SERVER s INTO public
----
--# SECURITY LABEL
SECURITY LABEL ON TABLE customers IS 'x'
----
--# EXPLAIN ANALYZE of a DELETE (runs it)
EXPLAIN ANALYZE DELETE FROM orders
----
--# EXPLAIN ANALYZE of an INSERT
EXPLAIN (ANALYZE) INSERT INTO customers (id, name) VALUES (99, 'x')
----
--# EXPLAIN ANALYZE of CREATE TABLE AS
EXPLAIN ANALYZE CREATE TABLE pwned AS SELECT 1
----
--# EXPLAIN ANALYZE of EXECUTE
EXPLAIN ANALYZE EXECUTE p
----
--# EXPLAIN of SELECT INTO
EXPLAIN ANALYZE SELECT 1 INTO pwned
----
--# EXPLAIN of a locking SELECT
EXPLAIN ANALYZE SELECT * FROM customers FOR UPDATE
----
--# EXPLAIN with an unknown option
EXPLAIN (PWNED) SELECT 1
----
--# EXPLAIN of EXPLAIN
EXPLAIN EXPLAIN SELECT 1
----
--# two statements
SELECT 1; SELECT 2
----
--# a read, then a write
SELECT 1; DELETE FROM orders
----
--# a read, then a lock
SELECT 1; SELECT pg_advisory_lock(1)
----
--# SHOW ALL (every setting, file paths too)
SHOW ALL
----
--# SHOW a setting naming a server directory
SHOW data_directory
----
--# SHOW the hba file's path
SHOW hba_file
----
--# SHOW the config file's path
SHOW config_file
----
--# SHOW the archive command
SHOW archive_command
----
--# SHOW the SSL key file
SHOW ssl_key_file
----
--# SHOW the primary's connection string
SHOW primary_conninfo
----
--# SHOW a custom setting
SHOW discover.secret
----
--# empty statement
;
----
--# only a comment
-- nothing here
----
--# reads the system catalog pg_authid (unqualified: pg_catalog comes first)
SELECT * FROM pg_authid
----
--# reads the system catalog pg_shadow (unqualified: pg_catalog comes first)
SELECT * FROM pg_shadow
----
--# reads the system catalog pg_user (unqualified: pg_catalog comes first)
SELECT * FROM pg_user
----
--# reads the system catalog pg_roles (unqualified: pg_catalog comes first)
SELECT * FROM pg_roles
----
--# reads the system catalog pg_stat_activity (unqualified: pg_catalog comes first)
SELECT * FROM pg_stat_activity
----
--# reads the system catalog pg_settings (unqualified: pg_catalog comes first)
SELECT * FROM pg_settings
----
--# reads the system catalog pg_file_settings (unqualified: pg_catalog comes first)
SELECT * FROM pg_file_settings
----
--# reads the system catalog pg_hba_file_rules (unqualified: pg_catalog comes first)
SELECT * FROM pg_hba_file_rules
----
--# reads the system catalog pg_ident_file_mappings (unqualified: pg_catalog comes first)
SELECT * FROM pg_ident_file_mappings
----
--# reads the system catalog pg_class (unqualified: pg_catalog comes first)
SELECT * FROM pg_class
----
--# reads the system catalog pg_proc (unqualified: pg_catalog comes first)
SELECT * FROM pg_proc
----
--# reads the system catalog pg_largeobject (unqualified: pg_catalog comes first)
SELECT * FROM pg_largeobject
----
--# reads the system catalog pg_statistic (unqualified: pg_catalog comes first)
SELECT * FROM pg_statistic
----
--# reads the system catalog pg_stats (unqualified: pg_catalog comes first)
SELECT * FROM pg_stats
----
--# reads the system catalog pg_user_mappings (unqualified: pg_catalog comes first)
SELECT * FROM pg_user_mappings
----
--# reads the system catalog pg_user_mapping (unqualified: pg_catalog comes first)
SELECT * FROM pg_user_mapping
----
--# reads the system catalog pg_replication_slots (unqualified: pg_catalog comes first)
SELECT * FROM pg_replication_slots
----
--# reads the system catalog pg_stat_replication (unqualified: pg_catalog comes first)
SELECT * FROM pg_stat_replication
----
--# reads the system catalog pg_locks (unqualified: pg_catalog comes first)
SELECT * FROM pg_locks
----
--# reads the system catalog pg_prepared_xacts (unqualified: pg_catalog comes first)
SELECT * FROM pg_prepared_xacts
----
--# reads the system catalog pg_config (unqualified: pg_catalog comes first)
SELECT * FROM pg_config
----
--# reads the system catalog pg_available_extensions (unqualified: pg_catalog comes first)
SELECT * FROM pg_available_extensions
----
--# reads the system catalog pg_database (unqualified: pg_catalog comes first)
SELECT * FROM pg_database
----
--# reads the system catalog pg_db_role_setting (unqualified: pg_catalog comes first)
SELECT * FROM pg_db_role_setting
----
--# reads the system catalog pg_stat_statements (unqualified: pg_catalog comes first)
SELECT * FROM pg_stat_statements
----
--# reads the system catalog pg_foreign_server (unqualified: pg_catalog comes first)
SELECT * FROM pg_foreign_server
----
--# reads the system catalog pg_subscription (unqualified: pg_catalog comes first)
SELECT * FROM pg_subscription
----
--# reads the system catalog pg_stat_ssl (unqualified: pg_catalog comes first)
SELECT * FROM pg_stat_ssl
----
--# reads the system catalog pg_backend_memory_contexts (unqualified: pg_catalog comes first)
SELECT * FROM pg_backend_memory_contexts
----
--# reads the system catalog pg_shmem_allocations (unqualified: pg_catalog comes first)
SELECT * FROM pg_shmem_allocations
----
--# pg_authid qualified
SELECT * FROM pg_catalog.pg_authid
----
--# pg_authid Unicode-escaped
SELECT * FROM U&"\0070\0067\005f\0061\0075\0074\0068\0069\0064"
----
--# pg_authid quoted
SELECT * FROM "pg_catalog"."pg_authid"
----
--# pg_authid with TABLE
TABLE pg_authid
----
--# pg_authid joined to an inventory table
SELECT * FROM customers JOIN pg_authid ON true
----
--# pg_authid in a scalar subquery
SELECT (SELECT count(*) FROM pg_authid)
----
--# pg_shadow qualified
SELECT * FROM pg_catalog.pg_shadow
----
--# pg_shadow Unicode-escaped
SELECT * FROM U&"\0070\0067\005f\0073\0068\0061\0064\006f\0077"
----
--# pg_shadow quoted
SELECT * FROM "pg_catalog"."pg_shadow"
----
--# pg_shadow with TABLE
TABLE pg_shadow
----
--# pg_shadow joined to an inventory table
SELECT * FROM customers JOIN pg_shadow ON true
----
--# pg_shadow in a scalar subquery
SELECT (SELECT count(*) FROM pg_shadow)
----
--# pg_settings qualified
SELECT * FROM pg_catalog.pg_settings
----
--# pg_settings Unicode-escaped
SELECT * FROM U&"\0070\0067\005f\0073\0065\0074\0074\0069\006e\0067\0073"
----
--# pg_settings quoted
SELECT * FROM "pg_catalog"."pg_settings"
----
--# pg_settings with TABLE
TABLE pg_settings
----
--# pg_settings joined to an inventory table
SELECT * FROM customers JOIN pg_settings ON true
----
--# pg_settings in a scalar subquery
SELECT (SELECT count(*) FROM pg_settings)
----
--# pg_stat_activity qualified
SELECT * FROM pg_catalog.pg_stat_activity
----
--# pg_stat_activity Unicode-escaped
SELECT * FROM U&"\0070\0067\005f\0073\0074\0061\0074\005f\0061\0063\0074\0069\0076\0069\0074\0079"
----
--# pg_stat_activity quoted
SELECT * FROM "pg_catalog"."pg_stat_activity"
----
--# pg_stat_activity with TABLE
TABLE pg_stat_activity
----
--# pg_stat_activity joined to an inventory table
SELECT * FROM customers JOIN pg_stat_activity ON true
----
--# pg_stat_activity in a scalar subquery
SELECT (SELECT count(*) FROM pg_stat_activity)
----
--# pg_class qualified
SELECT * FROM pg_catalog.pg_class
----
--# pg_class Unicode-escaped
SELECT * FROM U&"\0070\0067\005f\0063\006c\0061\0073\0073"
----
--# pg_class quoted
SELECT * FROM "pg_catalog"."pg_class"
----
--# pg_class with TABLE
TABLE pg_class
----
--# pg_class joined to an inventory table
SELECT * FROM customers JOIN pg_class ON true
----
--# pg_class in a scalar subquery
SELECT (SELECT count(*) FROM pg_class)
----
--# information_schema view
SELECT * FROM information_schema.tables
----
--# information_schema columns
SELECT * FROM information_schema.columns
----
--# information_schema role grants
SELECT * FROM information_schema.applicable_roles
----
--# a TOAST table
SELECT * FROM pg_toast.pg_toast_1262
----
--# a temporary schema
SELECT * FROM pg_temp.customers
----
--# a database-qualified name
SELECT * FROM discover_test.public.customers
----
--# a relation that does not exist
SELECT * FROM no_such_table
----
--# a schema that is not in the inventory
SELECT * FROM evil.customers
----
--# the wrong case of a case-sensitive table
SELECT * FROM "CUSTOMERS"
----
--# a table in public shadowed by pg_catalog, unqualified
SELECT * FROM pg_settings WHERE name = 'x'
----
--# the catalog through a sample
SELECT * FROM pg_authid TABLESAMPLE SYSTEM (100)
----
--# the catalog in a LATERAL join
SELECT * FROM customers c, LATERAL (SELECT rolpassword FROM pg_authid) a
----
--# the catalog in an IN subquery
SELECT * FROM customers WHERE name IN (SELECT rolname FROM pg_roles)
----
--# the catalog in EXISTS
SELECT EXISTS (SELECT 1 FROM pg_shadow WHERE passwd IS NOT NULL)
----
--# the catalog under EXPLAIN ANALYZE
EXPLAIN ANALYZE SELECT * FROM pg_authid
----
--# a CTE over a catalog
WITH a AS (SELECT * FROM pg_authid) SELECT * FROM a
----
--# a CTE named like the catalog it reads
WITH pg_authid AS (SELECT * FROM pg_authid) SELECT * FROM pg_authid
----
--# a non-recursive CTE cannot see a later sibling
WITH a AS (SELECT * FROM pg_roles), pg_roles AS (SELECT 1) SELECT * FROM a
----
--# a non-recursive CTE cannot see itself
WITH pg_user AS (SELECT * FROM pg_user) SELECT 1
----
--# a CTE name does not leak out of its subquery
SELECT * FROM (WITH pg_roles AS (SELECT 1) SELECT * FROM pg_roles) x, pg_roles
----
--# a CTE of one arm of a UNION is not visible in the other
(WITH pg_shadow AS (SELECT 1) SELECT * FROM pg_shadow) UNION ALL SELECT 1 FROM pg_shadow
----
--# a CTE of a scalar subquery is not visible in the next one
SELECT (WITH pg_user AS (SELECT 1 AS x) SELECT x FROM pg_user), (SELECT usename FROM pg_user LIMIT 1)
----
--# a CTE does not qualify: public.x is a table
WITH pg_authid AS (SELECT 1) SELECT * FROM pg_catalog.pg_authid
----
--# a CTE of an EXISTS subquery is not visible outside
SELECT 1 WHERE EXISTS (WITH pg_roles AS (SELECT 1) SELECT * FROM pg_roles) AND EXISTS (SELECT * FROM pg_roles)
----
--# a later CTE reads the catalog
WITH x AS (SELECT 1), y AS (SELECT * FROM pg_authid, x) SELECT * FROM y
----
--# a CTE in a CTE does not leak to its siblings
WITH a AS (WITH pg_user AS (SELECT 1) SELECT * FROM pg_user), b AS (SELECT * FROM pg_user) SELECT * FROM b
----
--# recursive CTE reading a catalog in its base term
WITH RECURSIVE r AS (SELECT rolname FROM pg_authid UNION ALL SELECT rolname FROM r) SELECT * FROM r LIMIT 1
----
--# an operator of another schema
SELECT 1 OPERATOR(public.+) 2
----
--# an operator of an unknown schema
SELECT 1 OPERATOR(evil.===) 2
----
--# an operator of a user schema in WHERE
SELECT * FROM orders WHERE amount OPERATOR(sales.>) 0
----
--# an operator of another schema in ORDER BY … USING
SELECT * FROM orders ORDER BY amount USING OPERATOR(public.<)
----
--# an operator of another schema in ANY
SELECT 1 OPERATOR(public.=) ANY (ARRAY[1])
----
--# an operator of another schema with a subquery
SELECT 1 WHERE 1 OPERATOR(public.=) ANY (SELECT 1)
----
--# a database-qualified operator
SELECT 1 OPERATOR(db.pg_catalog.+) 2
----
--# an operator symbol no built-in defines
SELECT 1 <=> 2
----
--# a built-in symbol with a volatile namesake outside pg_catalog
SELECT 1 ## 2
----
--# a cast to regclass
SELECT 'x'::regclass
----
--# a cast to regproc
SELECT 'x'::regproc
----
--# a cast to regprocedure
SELECT 'x'::regprocedure
----
--# a cast to regtype
SELECT 'x'::regtype
----
--# a cast to regrole
SELECT 'x'::regrole
----
--# a cast to regnamespace
SELECT 'x'::regnamespace
----
--# a cast to regoper
SELECT 'x'::regoper
----
--# a cast to regoperator
SELECT 'x'::regoperator
----
--# a cast to regconfig
SELECT 'x'::regconfig
----
--# a cast to regdictionary
SELECT 'x'::regdictionary
----
--# a cast to regcollation
SELECT 'x'::regcollation
----
--# a cast to xml
SELECT 'x'::xml
----
--# a cast to xid
SELECT 'x'::xid
----
--# a cast to xid8
SELECT 'x'::xid8
----
--# a cast to cid
SELECT 'x'::cid
----
--# a cast to pg_lsn
SELECT 'x'::pg_lsn
----
--# a cast to cstring
SELECT 'x'::cstring
----
--# a cast to txid_snapshot
SELECT 'x'::txid_snapshot
----
--# a cast to pg_snapshot
SELECT 'x'::pg_snapshot
----
--# a cast to record
SELECT 'x'::record
----
--# a cast to anyelement
SELECT 'x'::anyelement
----
--# a cast to internal
SELECT 'x'::internal
----
--# a cast to void
SELECT 'x'::void
----
--# a cast to trigger
SELECT 'x'::trigger
----
--# a cast to hstore
SELECT 'x'::hstore
----
--# a cast to citext
SELECT 'x'::citext
----
--# a cast to lo
SELECT 'x'::lo
----
--# a cast to public.mytype
SELECT 'x'::public.mytype
----
--# a cast to customers
SELECT 'x'::customers
----
--# a cast to "Users"
SELECT 'x'::"Users"
----
--# a cast to pg_catalog.regclass
SELECT 'x'::pg_catalog.regclass
----
--# a cast to pg_catalog.xml
SELECT 'x'::pg_catalog.xml
----
--# a cast to evil.text
SELECT 'x'::evil.text
----
--# a cast to pg_node_tree
SELECT 'x'::pg_node_tree
----
--# a cast to aclitem
SELECT 'x'::aclitem
----
--# a cast to _int4
SELECT 'x'::_int4
----
--# a cast to unknown
SELECT 'x'::unknown
----
--# a cast to pg_ndistinct
SELECT 'x'::pg_ndistinct
----
--# a cast to tsm_handler
SELECT 'x'::tsm_handler
----
--# CAST syntax to regclass
SELECT CAST('pg_authid' AS regclass)
----
--# an array of regclass
SELECT ARRAY['pg_authid']::regclass[]
----
--# a typed literal of regproc
SELECT regproc 'pg_read_file'
----
--# a typed literal of xml
SELECT xml '<a/>'
----
--# a column definition list with regclass
SELECT * FROM jsonb_to_record('{}') AS r(a regclass)
----
--# a column definition list with xml
SELECT * FROM jsonb_to_record('{}') AS r(a xml)
----
--# a cast in WHERE to oid lookup
SELECT * FROM customers WHERE id = 'pg_authid'::regclass::oid::int
----
--# a cast of a subquery to regclass
SELECT (SELECT 'pg_class')::regclass
----
--# XMLPARSE
SELECT xmlparse(document '<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>')
----
--# XMLELEMENT
SELECT xmlelement(name a, 'x')
----
--# XMLFOREST
SELECT xmlforest(id, name) FROM customers
----
--# XMLSERIALIZE
SELECT xmlserialize(content '<a/>' AS text)
----
--# XMLTABLE
SELECT * FROM XMLTABLE('/a' PASSING '<a/>' COLUMNS x text PATH '.')
----
--# XMLAGG
SELECT xmlagg(xmlelement(name a)) FROM customers
----
--# IS DOCUMENT
SELECT '<a/>' IS DOCUMENT
----
--# xmlexists
SELECT xmlexists('/a' PASSING BY VALUE '<a/>')
----
--# TABLESAMPLE with an extension's method
SELECT * FROM customers TABLESAMPLE system_rows(10)
----
--# TABLESAMPLE with a qualified method of another schema
SELECT * FROM customers TABLESAMPLE public.bernoulli(10)
----
--# TABLESAMPLE system_time
SELECT * FROM customers TABLESAMPLE system_time(1000)
----
--# a backslash ends a standard string, so the call is live
SELECT 'a\' , pg_sleep(10) --'
----
--# an escape string ends, then a call
SELECT E'\'', pg_sleep(10)
----
--# an escape string with an octal quote
SELECT E'\047', pg_read_file('/etc/passwd')
----
--# a dollar quote ends, then a second statement
SELECT $$x$$; SELECT pg_read_file('/etc/passwd')
----
--# a tagged dollar quote containing $$
SELECT $a$ $$ $a$, pg_sleep(10)
----
--# a dollar quote inside a string
SELECT '$$', pg_sleep(10), '$$'
----
--# a nested comment hides one call but not the next
/* /* nested */ SELECT pg_sleep(1) */ SELECT pg_sleep(2)
----
--# a line comment ends at the newline
SELECT 1 -- comment
, pg_sleep(10)
----
--# a comment between the function name and its bracket
SELECT pg_sleep --
(10)
----
--# a quote inside a comment
SELECT /* ' */ pg_read_file('/etc/passwd') /* ' */
----
--# a double quote opened in a comment
SELECT /* " */ pg_ls_dir('.')
----
--# a string that looks like a comment start
SELECT '/*', pg_sleep(10), '*/'
----
--# U& string with UESCAPE, then a call
SELECT U&'d!0061t' UESCAPE '!', pg_sleep(10)
----
--# U& string whose escape looks like a quote
SELECT U&'\0027', pg_read_file('/etc/passwd')
----
--# an identifier with an escaped quote, then a call
SELECT 1 AS "a""b", pg_sleep(10)
----
--# a semicolon inside a comment does not end the statement
SELECT 1 /* ; */, pg_sleep(10)
----
--# a second statement after a trailing comment
SELECT 1; -- done
DELETE FROM orders
----
--# a second statement after a dollar quote with a semicolon
SELECT $x$;$x$; DROP TABLE customers
----
--# an escape string with a backslash-quote and a call
SELECT E'it\'s', pg_sleep(1)
----
--# a bit string then a call
SELECT B'101', X'1F', pg_sleep(1)
----
--# a positional parameter next to a call
SELECT $1, pg_sleep(1)
----
--# a NUL-free control character before the call
SELECT 1,pg_sleep(1)
----
--# a tab and form feed around the call
SELECT	1,pg_sleep(1)
----
--# 300 nested brackets
SELECT ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
----
--# 1,500 chained additions (a tree 1,500 deep without a bracket)
SELECT 1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1
----
--# 1,200 chained casts
SELECT 1::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int::int
----
--# 1,100 chained NOTs
SELECT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT NOT true
----
--# 1,100 chained IS NULL
SELECT 1 IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL IS NULL
----
--# 1,100 chained string concatenations
SELECT 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a' || 'a'
----
--# 1,100 chained COLLATE clauses
SELECT 'a' COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C" COLLATE "C"
----
--# 1,100 chained UNIONs
SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1 UNION SELECT 1
----
--# 1,100 chained JOINs
SELECT 1 FROM customers c0 JOIN customers c1 ON true JOIN customers c2 ON true JOIN customers c3 ON true JOIN customers c4 ON true JOIN customers c5 ON true JOIN customers c6 ON true JOIN customers c7 ON true JOIN customers c8 ON true JOIN customers c9 ON true JOIN customers c10 ON true JOIN customers c11 ON true JOIN customers c12 ON true JOIN customers c13 ON true JOIN customers c14 ON true JOIN customers c15 ON true JOIN customers c16 ON true JOIN customers c17 ON true JOIN customers c18 ON true JOIN customers c19 ON true JOIN customers c20 ON true JOIN customers c21 ON true JOIN customers c22 ON true JOIN customers c23 ON true JOIN customers c24 ON true JOIN customers c25 ON true JOIN customers c26 ON true JOIN customers c27 ON true JOIN customers c28 ON true JOIN customers c29 ON true JOIN customers c30 ON true JOIN customers c31 ON true JOIN customers c32 ON true JOIN customers c33 ON true JOIN customers c34 ON true JOIN customers c35 ON true JOIN customers c36 ON true JOIN customers c37 ON true JOIN customers c38 ON true JOIN customers c39 ON true JOIN customers c40 ON true JOIN customers c41 ON true JOIN customers c42 ON true JOIN customers c43 ON true JOIN customers c44 ON true JOIN customers c45 ON true JOIN customers c46 ON true JOIN customers c47 ON true JOIN customers c48 ON true JOIN customers c49 ON true JOIN customers c50 ON true JOIN customers c51 ON true JOIN customers c52 ON true JOIN customers c53 ON true JOIN customers c54 ON true JOIN customers c55 ON true JOIN customers c56 ON true JOIN customers c57 ON true JOIN customers c58 ON true JOIN customers c59 ON true JOIN customers c60 ON true JOIN customers c61 ON true JOIN customers c62 ON true JOIN customers c63 ON true JOIN customers c64 ON true JOIN customers c65 ON true JOIN customers c66 ON true JOIN customers c67 ON true JOIN customers c68 ON true JOIN customers c69 ON true JOIN customers c70 ON true JOIN customers c71 ON true JOIN customers c72 ON true JOIN customers c73 ON true JOIN customers c74 ON true JOIN customers c75 ON true JOIN customers c76 ON true JOIN customers c77 ON true JOIN customers c78 ON true JOIN customers c79 ON true JOIN customers c80 ON true JOIN customers c81 ON true JOIN customers c82 ON true JOIN customers c83 ON true JOIN customers c84 ON true JOIN customers c85 ON true JOIN customers c86 ON true JOIN customers c87 ON true JOIN customers c88 ON true JOIN customers c89 ON true JOIN customers c90 ON true JOIN customers c91 ON true JOIN customers c92 ON true JOIN customers c93 ON true JOIN customers c94 ON true JOIN customers c95 ON true JOIN customers c96 ON true JOIN customers c97 ON true JOIN customers c98 ON true JOIN customers c99 ON true JOIN customers c100 ON true JOIN customers c101 ON true JOIN customers c102 ON true JOIN customers c103 ON true JOIN customers c104 ON true JOIN customers c105 ON true JOIN customers c106 ON true JOIN customers c107 ON true JOIN customers c108 ON true JOIN customers c109 ON true JOIN customers c110 ON true JOIN customers c111 ON true JOIN customers c112 ON true JOIN customers c113 ON true JOIN customers c114 ON true JOIN customers c115 ON true JOIN customers c116 ON true JOIN customers c117 ON true JOIN customers c118 ON true JOIN customers c119 ON true JOIN customers c120 ON true JOIN customers c121 ON true JOIN customers c122 ON true JOIN customers c123 ON true JOIN customers c124 ON true JOIN customers c125 ON true JOIN customers c126 ON true JOIN customers c127 ON true JOIN customers c128 ON true JOIN customers c129 ON true JOIN customers c130 ON true JOIN customers c131 ON true JOIN customers c132 ON true JOIN customers c133 ON true JOIN customers c134 ON true JOIN customers c135 ON true JOIN customers c136 ON true JOIN customers c137 ON true JOIN customers c138 ON true JOIN customers c139 ON true JOIN customers c140 ON true JOIN customers c141 ON true JOIN customers c142 ON true JOIN customers c143 ON true JOIN customers c144 ON true JOIN customers c145 ON true JOIN customers c146 ON true JOIN customers c147 ON true JOIN customers c148 ON true JOIN customers c149 ON true JOIN customers c150 ON true JOIN customers c151 ON true JOIN customers c152 ON true JOIN customers c153 ON true JOIN customers c154 ON true JOIN customers c155 ON true JOIN customers c156 ON true JOIN customers c157 ON true JOIN customers c158 ON true JOIN customers c159 ON true JOIN customers c160 ON true JOIN customers c161 ON true JOIN customers c162 ON true JOIN customers c163 ON true JOIN customers c164 ON true JOIN customers c165 ON true JOIN customers c166 ON true JOIN customers c167 ON true JOIN customers c168 ON true JOIN customers c169 ON true JOIN customers c170 ON true JOIN customers c171 ON true JOIN customers c172 ON true JOIN customers c173 ON true JOIN customers c174 ON true JOIN customers c175 ON true JOIN customers c176 ON true JOIN customers c177 ON true JOIN customers c178 ON true JOIN customers c179 ON true JOIN customers c180 ON true JOIN customers c181 ON true JOIN customers c182 ON true JOIN customers c183 ON true JOIN customers c184 ON true JOIN customers c185 ON true JOIN customers c186 ON true JOIN customers c187 ON true JOIN customers c188 ON true JOIN customers c189 ON true JOIN customers c190 ON true JOIN customers c191 ON true JOIN customers c192 ON true JOIN customers c193 ON true JOIN customers c194 ON true JOIN customers c195 ON true JOIN customers c196 ON true JOIN customers c197 ON true JOIN customers c198 ON true JOIN customers c199 ON true JOIN customers c200 ON true JOIN customers c201 ON true JOIN customers c202 ON true JOIN customers c203 ON true JOIN customers c204 ON true JOIN customers c205 ON true JOIN customers c206 ON true JOIN customers c207 ON true JOIN customers c208 ON true JOIN customers c209 ON true JOIN customers c210 ON true JOIN customers c211 ON true JOIN customers c212 ON true JOIN customers c213 ON true JOIN customers c214 ON true JOIN customers c215 ON true JOIN customers c216 ON true JOIN customers c217 ON true JOIN customers c218 ON true JOIN customers c219 ON true JOIN customers c220 ON true JOIN customers c221 ON true JOIN customers c222 ON true JOIN customers c223 ON true JOIN customers c224 ON true JOIN customers c225 ON true JOIN customers c226 ON true JOIN customers c227 ON true JOIN customers c228 ON true JOIN customers c229 ON true JOIN customers c230 ON true JOIN customers c231 ON true JOIN customers c232 ON true JOIN customers c233 ON true JOIN customers c234 ON true JOIN customers c235 ON true JOIN customers c236 ON true JOIN customers c237 ON true JOIN customers c238 ON true JOIN customers c239 ON true JOIN customers c240 ON true JOIN customers c241 ON true JOIN customers c242 ON true JOIN customers c243 ON true JOIN customers c244 ON true JOIN customers c245 ON true JOIN customers c246 ON true JOIN customers c247 ON true JOIN customers c248 ON true JOIN customers c249 ON true JOIN customers c250 ON true JOIN customers c251 ON true JOIN customers c252 ON true JOIN customers c253 ON true JOIN customers c254 ON true JOIN customers c255 ON true JOIN customers c256 ON true JOIN customers c257 ON true JOIN customers c258 ON true JOIN customers c259 ON true JOIN customers c260 ON true JOIN customers c261 ON true JOIN customers c262 ON true JOIN customers c263 ON true JOIN customers c264 ON true JOIN customers c265 ON true JOIN customers c266 ON true JOIN customers c267 ON true JOIN customers c268 ON true JOIN customers c269 ON true JOIN customers c270 ON true JOIN customers c271 ON true JOIN customers c272 ON true JOIN customers c273 ON true JOIN customers c274 ON true JOIN customers c275 ON true JOIN customers c276 ON true JOIN customers c277 ON true JOIN customers c278 ON true JOIN customers c279 ON true JOIN customers c280 ON true JOIN customers c281 ON true JOIN customers c282 ON true JOIN customers c283 ON true JOIN customers c284 ON true JOIN customers c285 ON true JOIN customers c286 ON true JOIN customers c287 ON true JOIN customers c288 ON true JOIN customers c289 ON true JOIN customers c290 ON true JOIN customers c291 ON true JOIN customers c292 ON true JOIN customers c293 ON true JOIN customers c294 ON true JOIN customers c295 ON true JOIN customers c296 ON true JOIN customers c297 ON true JOIN customers c298 ON true JOIN customers c299 ON true JOIN customers c300 ON true JOIN customers c301 ON true JOIN customers c302 ON true JOIN customers c303 ON true JOIN customers c304 ON true JOIN customers c305 ON true JOIN customers c306 ON true JOIN customers c307 ON true JOIN customers c308 ON true JOIN customers c309 ON true JOIN customers c310 ON true JOIN customers c311 ON true JOIN customers c312 ON true JOIN customers c313 ON true JOIN customers c314 ON true JOIN customers c315 ON true JOIN customers c316 ON true JOIN customers c317 ON true JOIN customers c318 ON true JOIN customers c319 ON true JOIN customers c320 ON true JOIN customers c321 ON true JOIN customers c322 ON true JOIN customers c323 ON true JOIN customers c324 ON true JOIN customers c325 ON true JOIN customers c326 ON true JOIN customers c327 ON true JOIN customers c328 ON true JOIN customers c329 ON true JOIN customers c330 ON true JOIN customers c331 ON true JOIN customers c332 ON true JOIN customers c333 ON true JOIN customers c334 ON true JOIN customers c335 ON true JOIN customers c336 ON true JOIN customers c337 ON true JOIN customers c338 ON true JOIN customers c339 ON true JOIN customers c340 ON true JOIN customers c341 ON true JOIN customers c342 ON true JOIN customers c343 ON true JOIN customers c344 ON true JOIN customers c345 ON true JOIN customers c346 ON true JOIN customers c347 ON true JOIN customers c348 ON true JOIN customers c349 ON true JOIN customers c350 ON true JOIN customers c351 ON true JOIN customers c352 ON true JOIN customers c353 ON true JOIN customers c354 ON true JOIN customers c355 ON true JOIN customers c356 ON true JOIN customers c357 ON true JOIN customers c358 ON true JOIN customers c359 ON true JOIN customers c360 ON true JOIN customers c361 ON true JOIN customers c362 ON true JOIN customers c363 ON true JOIN customers c364 ON true JOIN customers c365 ON true JOIN customers c366 ON true JOIN customers c367 ON true JOIN customers c368 ON true JOIN customers c369 ON true JOIN customers c370 ON true JOIN customers c371 ON true JOIN customers c372 ON true JOIN customers c373 ON true JOIN customers c374 ON true JOIN customers c375 ON true JOIN customers c376 ON true JOIN customers c377 ON true JOIN customers c378 ON true JOIN customers c379 ON true JOIN customers c380 ON true JOIN customers c381 ON true JOIN customers c382 ON true JOIN customers c383 ON true JOIN customers c384 ON true JOIN customers c385 ON true JOIN customers c386 ON true JOIN customers c387 ON true JOIN customers c388 ON true JOIN customers c389 ON true JOIN customers c390 ON true JOIN customers c391 ON true JOIN customers c392 ON true JOIN customers c393 ON true JOIN customers c394 ON true JOIN customers c395 ON true JOIN customers c396 ON true JOIN customers c397 ON true JOIN customers c398 ON true JOIN customers c399 ON true JOIN customers c400 ON true JOIN customers c401 ON true JOIN customers c402 ON true JOIN customers c403 ON true JOIN customers c404 ON true JOIN customers c405 ON true JOIN customers c406 ON true JOIN customers c407 ON true JOIN customers c408 ON true JOIN customers c409 ON true JOIN customers c410 ON true JOIN customers c411 ON true JOIN customers c412 ON true JOIN customers c413 ON true JOIN customers c414 ON true JOIN customers c415 ON true JOIN customers c416 ON true JOIN customers c417 ON true JOIN customers c418 ON true JOIN customers c419 ON true JOIN customers c420 ON true JOIN customers c421 ON true JOIN customers c422 ON true JOIN customers c423 ON true JOIN customers c424 ON true JOIN customers c425 ON true JOIN customers c426 ON true JOIN customers c427 ON true JOIN customers c428 ON true JOIN customers c429 ON true JOIN customers c430 ON true JOIN customers c431 ON true JOIN customers c432 ON true JOIN customers c433 ON true JOIN customers c434 ON true JOIN customers c435 ON true JOIN customers c436 ON true JOIN customers c437 ON true JOIN customers c438 ON true JOIN customers c439 ON true JOIN customers c440 ON true JOIN customers c441 ON true JOIN customers c442 ON true JOIN customers c443 ON true JOIN customers c444 ON true JOIN customers c445 ON true JOIN customers c446 ON true JOIN customers c447 ON true JOIN customers c448 ON true JOIN customers c449 ON true JOIN customers c450 ON true JOIN customers c451 ON true JOIN customers c452 ON true JOIN customers c453 ON true JOIN customers c454 ON true JOIN customers c455 ON true JOIN customers c456 ON true JOIN customers c457 ON true JOIN customers c458 ON true JOIN customers c459 ON true JOIN customers c460 ON true JOIN customers c461 ON true JOIN customers c462 ON true JOIN customers c463 ON true JOIN customers c464 ON true JOIN customers c465 ON true JOIN customers c466 ON true JOIN customers c467 ON true JOIN customers c468 ON true JOIN customers c469 ON true JOIN customers c470 ON true JOIN customers c471 ON true JOIN customers c472 ON true JOIN customers c473 ON true JOIN customers c474 ON true JOIN customers c475 ON true JOIN customers c476 ON true JOIN customers c477 ON true JOIN customers c478 ON true JOIN customers c479 ON true JOIN customers c480 ON true JOIN customers c481 ON true JOIN customers c482 ON true JOIN customers c483 ON true JOIN customers c484 ON true JOIN customers c485 ON true JOIN customers c486 ON true JOIN customers c487 ON true JOIN customers c488 ON true JOIN customers c489 ON true JOIN customers c490 ON true JOIN customers c491 ON true JOIN customers c492 ON true JOIN customers c493 ON true JOIN customers c494 ON true JOIN customers c495 ON true JOIN customers c496 ON true JOIN customers c497 ON true JOIN customers c498 ON true JOIN customers c499 ON true JOIN customers c500 ON true JOIN customers c501 ON true JOIN customers c502 ON true JOIN customers c503 ON true JOIN customers c504 ON true JOIN customers c505 ON true JOIN customers c506 ON true JOIN customers c507 ON true JOIN customers c508 ON true JOIN customers c509 ON true JOIN customers c510 ON true JOIN customers c511 ON true JOIN customers c512 ON true JOIN customers c513 ON true JOIN customers c514 ON true JOIN customers c515 ON true JOIN customers c516 ON true JOIN customers c517 ON true JOIN customers c518 ON true JOIN customers c519 ON true JOIN customers c520 ON true JOIN customers c521 ON true JOIN customers c522 ON true JOIN customers c523 ON true JOIN customers c524 ON true JOIN customers c525 ON true JOIN customers c526 ON true JOIN customers c527 ON true JOIN customers c528 ON true JOIN customers c529 ON true JOIN customers c530 ON true JOIN customers c531 ON true JOIN customers c532 ON true JOIN customers c533 ON true JOIN customers c534 ON true JOIN customers c535 ON true JOIN customers c536 ON true JOIN customers c537 ON true JOIN customers c538 ON true JOIN customers c539 ON true JOIN customers c540 ON true JOIN customers c541 ON true JOIN customers c542 ON true JOIN customers c543 ON true JOIN customers c544 ON true JOIN customers c545 ON true JOIN customers c546 ON true JOIN customers c547 ON true JOIN customers c548 ON true JOIN customers c549 ON true JOIN customers c550 ON true JOIN customers c551 ON true JOIN customers c552 ON true JOIN customers c553 ON true JOIN customers c554 ON true JOIN customers c555 ON true JOIN customers c556 ON true JOIN customers c557 ON true JOIN customers c558 ON true JOIN customers c559 ON true JOIN customers c560 ON true JOIN customers c561 ON true JOIN customers c562 ON true JOIN customers c563 ON true JOIN customers c564 ON true JOIN customers c565 ON true JOIN customers c566 ON true JOIN customers c567 ON true JOIN customers c568 ON true JOIN customers c569 ON true JOIN customers c570 ON true JOIN customers c571 ON true JOIN customers c572 ON true JOIN customers c573 ON true JOIN customers c574 ON true JOIN customers c575 ON true JOIN customers c576 ON true JOIN customers c577 ON true JOIN customers c578 ON true JOIN customers c579 ON true JOIN customers c580 ON true JOIN customers c581 ON true JOIN customers c582 ON true JOIN customers c583 ON true JOIN customers c584 ON true JOIN customers c585 ON true JOIN customers c586 ON true JOIN customers c587 ON true JOIN customers c588 ON true JOIN customers c589 ON true JOIN customers c590 ON true JOIN customers c591 ON true JOIN customers c592 ON true JOIN customers c593 ON true JOIN customers c594 ON true JOIN customers c595 ON true JOIN customers c596 ON true JOIN customers c597 ON true JOIN customers c598 ON true JOIN customers c599 ON true JOIN customers c600 ON true JOIN customers c601 ON true JOIN customers c602 ON true JOIN customers c603 ON true JOIN customers c604 ON true JOIN customers c605 ON true JOIN customers c606 ON true JOIN customers c607 ON true JOIN customers c608 ON true JOIN customers c609 ON true JOIN customers c610 ON true JOIN customers c611 ON true JOIN customers c612 ON true JOIN customers c613 ON true JOIN customers c614 ON true JOIN customers c615 ON true JOIN customers c616 ON true JOIN customers c617 ON true JOIN customers c618 ON true JOIN customers c619 ON true JOIN customers c620 ON true JOIN customers c621 ON true JOIN customers c622 ON true JOIN customers c623 ON true JOIN customers c624 ON true JOIN customers c625 ON true JOIN customers c626 ON true JOIN customers c627 ON true JOIN customers c628 ON true JOIN customers c629 ON true JOIN customers c630 ON true JOIN customers c631 ON true JOIN customers c632 ON true JOIN customers c633 ON true JOIN customers c634 ON true JOIN customers c635 ON true JOIN customers c636 ON true JOIN customers c637 ON true JOIN customers c638 ON true JOIN customers c639 ON true JOIN customers c640 ON true JOIN customers c641 ON true JOIN customers c642 ON true JOIN customers c643 ON true JOIN customers c644 ON true JOIN customers c645 ON true JOIN customers c646 ON true JOIN customers c647 ON true JOIN customers c648 ON true JOIN customers c649 ON true JOIN customers c650 ON true JOIN customers c651 ON true JOIN customers c652 ON true JOIN customers c653 ON true JOIN customers c654 ON true JOIN customers c655 ON true JOIN customers c656 ON true JOIN customers c657 ON true JOIN customers c658 ON true JOIN customers c659 ON true JOIN customers c660 ON true JOIN customers c661 ON true JOIN customers c662 ON true JOIN customers c663 ON true JOIN customers c664 ON true JOIN customers c665 ON true JOIN customers c666 ON true JOIN customers c667 ON true JOIN customers c668 ON true JOIN customers c669 ON true JOIN customers c670 ON true JOIN customers c671 ON true JOIN customers c672 ON true JOIN customers c673 ON true JOIN customers c674 ON true JOIN customers c675 ON true JOIN customers c676 ON true JOIN customers c677 ON true JOIN customers c678 ON true JOIN customers c679 ON true JOIN customers c680 ON true JOIN customers c681 ON true JOIN customers c682 ON true JOIN customers c683 ON true JOIN customers c684 ON true JOIN customers c685 ON true JOIN customers c686 ON true JOIN customers c687 ON true JOIN customers c688 ON true JOIN customers c689 ON true JOIN customers c690 ON true JOIN customers c691 ON true JOIN customers c692 ON true JOIN customers c693 ON true JOIN customers c694 ON true JOIN customers c695 ON true JOIN customers c696 ON true JOIN customers c697 ON true JOIN customers c698 ON true JOIN customers c699 ON true JOIN customers c700 ON true JOIN customers c701 ON true JOIN customers c702 ON true JOIN customers c703 ON true JOIN customers c704 ON true JOIN customers c705 ON true JOIN customers c706 ON true JOIN customers c707 ON true JOIN customers c708 ON true JOIN customers c709 ON true JOIN customers c710 ON true JOIN customers c711 ON true JOIN customers c712 ON true JOIN customers c713 ON true JOIN customers c714 ON true JOIN customers c715 ON true JOIN customers c716 ON true JOIN customers c717 ON true JOIN customers c718 ON true JOIN customers c719 ON true JOIN customers c720 ON true JOIN customers c721 ON true JOIN customers c722 ON true JOIN customers c723 ON true JOIN customers c724 ON true JOIN customers c725 ON true JOIN customers c726 ON true JOIN customers c727 ON true JOIN customers c728 ON true JOIN customers c729 ON true JOIN customers c730 ON true JOIN customers c731 ON true JOIN customers c732 ON true JOIN customers c733 ON true JOIN customers c734 ON true JOIN customers c735 ON true JOIN customers c736 ON true JOIN customers c737 ON true JOIN customers c738 ON true JOIN customers c739 ON true JOIN customers c740 ON true JOIN customers c741 ON true JOIN customers c742 ON true JOIN customers c743 ON true JOIN customers c744 ON true JOIN customers c745 ON true JOIN customers c746 ON true JOIN customers c747 ON true JOIN customers c748 ON true JOIN customers c749 ON true JOIN customers c750 ON true JOIN customers c751 ON true JOIN customers c752 ON true JOIN customers c753 ON true JOIN customers c754 ON true JOIN customers c755 ON true JOIN customers c756 ON true JOIN customers c757 ON true JOIN customers c758 ON true JOIN customers c759 ON true JOIN customers c760 ON true JOIN customers c761 ON true JOIN customers c762 ON true JOIN customers c763 ON true JOIN customers c764 ON true JOIN customers c765 ON true JOIN customers c766 ON true JOIN customers c767 ON true JOIN customers c768 ON true JOIN customers c769 ON true JOIN customers c770 ON true JOIN customers c771 ON true JOIN customers c772 ON true JOIN customers c773 ON true JOIN customers c774 ON true JOIN customers c775 ON true JOIN customers c776 ON true JOIN customers c777 ON true JOIN customers c778 ON true JOIN customers c779 ON true JOIN customers c780 ON true JOIN customers c781 ON true JOIN customers c782 ON true JOIN customers c783 ON true JOIN customers c784 ON true JOIN customers c785 ON true JOIN customers c786 ON true JOIN customers c787 ON true JOIN customers c788 ON true JOIN customers c789 ON true JOIN customers c790 ON true JOIN customers c791 ON true JOIN customers c792 ON true JOIN customers c793 ON true JOIN customers c794 ON true JOIN customers c795 ON true JOIN customers c796 ON true JOIN customers c797 ON true JOIN customers c798 ON true JOIN customers c799 ON true JOIN customers c800 ON true JOIN customers c801 ON true JOIN customers c802 ON true JOIN customers c803 ON true JOIN customers c804 ON true JOIN customers c805 ON true JOIN customers c806 ON true JOIN customers c807 ON true JOIN customers c808 ON true JOIN customers c809 ON true JOIN customers c810 ON true JOIN customers c811 ON true JOIN customers c812 ON true JOIN customers c813 ON true JOIN customers c814 ON true JOIN customers c815 ON true JOIN customers c816 ON true JOIN customers c817 ON true JOIN customers c818 ON true JOIN customers c819 ON true JOIN customers c820 ON true JOIN customers c821 ON true JOIN customers c822 ON true JOIN customers c823 ON true JOIN customers c824 ON true JOIN customers c825 ON true JOIN customers c826 ON true JOIN customers c827 ON true JOIN customers c828 ON true JOIN customers c829 ON true JOIN customers c830 ON true JOIN customers c831 ON true JOIN customers c832 ON true JOIN customers c833 ON true JOIN customers c834 ON true JOIN customers c835 ON true JOIN customers c836 ON true JOIN customers c837 ON true JOIN customers c838 ON true JOIN customers c839 ON true JOIN customers c840 ON true JOIN customers c841 ON true JOIN customers c842 ON true JOIN customers c843 ON true JOIN customers c844 ON true JOIN customers c845 ON true JOIN customers c846 ON true JOIN customers c847 ON true JOIN customers c848 ON true JOIN customers c849 ON true JOIN customers c850 ON true JOIN customers c851 ON true JOIN customers c852 ON true JOIN customers c853 ON true JOIN customers c854 ON true JOIN customers c855 ON true JOIN customers c856 ON true JOIN customers c857 ON true JOIN customers c858 ON true JOIN customers c859 ON true JOIN customers c860 ON true JOIN customers c861 ON true JOIN customers c862 ON true JOIN customers c863 ON true JOIN customers c864 ON true JOIN customers c865 ON true JOIN customers c866 ON true JOIN customers c867 ON true JOIN customers c868 ON true JOIN customers c869 ON true JOIN customers c870 ON true JOIN customers c871 ON true JOIN customers c872 ON true JOIN customers c873 ON true JOIN customers c874 ON true JOIN customers c875 ON true JOIN customers c876 ON true JOIN customers c877 ON true JOIN customers c878 ON true JOIN customers c879 ON true JOIN customers c880 ON true JOIN customers c881 ON true JOIN customers c882 ON true JOIN customers c883 ON true JOIN customers c884 ON true JOIN customers c885 ON true JOIN customers c886 ON true JOIN customers c887 ON true JOIN customers c888 ON true JOIN customers c889 ON true JOIN customers c890 ON true JOIN customers c891 ON true JOIN customers c892 ON true JOIN customers c893 ON true JOIN customers c894 ON true JOIN customers c895 ON true JOIN customers c896 ON true JOIN customers c897 ON true JOIN customers c898 ON true JOIN customers c899 ON true JOIN customers c900 ON true JOIN customers c901 ON true JOIN customers c902 ON true JOIN customers c903 ON true JOIN customers c904 ON true JOIN customers c905 ON true JOIN customers c906 ON true JOIN customers c907 ON true JOIN customers c908 ON true JOIN customers c909 ON true JOIN customers c910 ON true JOIN customers c911 ON true JOIN customers c912 ON true JOIN customers c913 ON true JOIN customers c914 ON true JOIN customers c915 ON true JOIN customers c916 ON true JOIN customers c917 ON true JOIN customers c918 ON true JOIN customers c919 ON true JOIN customers c920 ON true JOIN customers c921 ON true JOIN customers c922 ON true JOIN customers c923 ON true JOIN customers c924 ON true JOIN customers c925 ON true JOIN customers c926 ON true JOIN customers c927 ON true JOIN customers c928 ON true JOIN customers c929 ON true JOIN customers c930 ON true JOIN customers c931 ON true JOIN customers c932 ON true JOIN customers c933 ON true JOIN customers c934 ON true JOIN customers c935 ON true JOIN customers c936 ON true JOIN customers c937 ON true JOIN customers c938 ON true JOIN customers c939 ON true JOIN customers c940 ON true JOIN customers c941 ON true JOIN customers c942 ON true JOIN customers c943 ON true JOIN customers c944 ON true JOIN customers c945 ON true JOIN customers c946 ON true JOIN customers c947 ON true JOIN customers c948 ON true JOIN customers c949 ON true JOIN customers c950 ON true JOIN customers c951 ON true JOIN customers c952 ON true JOIN customers c953 ON true JOIN customers c954 ON true JOIN customers c955 ON true JOIN customers c956 ON true JOIN customers c957 ON true JOIN customers c958 ON true JOIN customers c959 ON true JOIN customers c960 ON true JOIN customers c961 ON true JOIN customers c962 ON true JOIN customers c963 ON true JOIN customers c964 ON true JOIN customers c965 ON true JOIN customers c966 ON true JOIN customers c967 ON true JOIN customers c968 ON true JOIN customers c969 ON true JOIN customers c970 ON true JOIN customers c971 ON true JOIN customers c972 ON true JOIN customers c973 ON true JOIN customers c974 ON true JOIN customers c975 ON true JOIN customers c976 ON true JOIN customers c977 ON true JOIN customers c978 ON true JOIN customers c979 ON true JOIN customers c980 ON true JOIN customers c981 ON true JOIN customers c982 ON true JOIN customers c983 ON true JOIN customers c984 ON true JOIN customers c985 ON true JOIN customers c986 ON true JOIN customers c987 ON true JOIN customers c988 ON true JOIN customers c989 ON true JOIN customers c990 ON true JOIN customers c991 ON true JOIN customers c992 ON true JOIN customers c993 ON true JOIN customers c994 ON true JOIN customers c995 ON true JOIN customers c996 ON true JOIN customers c997 ON true JOIN customers c998 ON true JOIN customers c999 ON true JOIN customers c1000 ON true JOIN customers c1001 ON true JOIN customers c1002 ON true JOIN customers c1003 ON true JOIN customers c1004 ON true JOIN customers c1005 ON true JOIN customers c1006 ON true JOIN customers c1007 ON true JOIN customers c1008 ON true JOIN customers c1009 ON true JOIN customers c1010 ON true JOIN customers c1011 ON true JOIN customers c1012 ON true JOIN customers c1013 ON true JOIN customers c1014 ON true JOIN customers c1015 ON true JOIN customers c1016 ON true JOIN customers c1017 ON true JOIN customers c1018 ON true JOIN customers c1019 ON true JOIN customers c1020 ON true JOIN customers c1021 ON true JOIN customers c1022 ON true JOIN customers c1023 ON true JOIN customers c1024 ON true JOIN customers c1025 ON true JOIN customers c1026 ON true JOIN customers c1027 ON true JOIN customers c1028 ON true JOIN customers c1029 ON true JOIN customers c1030 ON true JOIN customers c1031 ON true JOIN customers c1032 ON true JOIN customers c1033 ON true JOIN customers c1034 ON true JOIN customers c1035 ON true JOIN customers c1036 ON true JOIN customers c1037 ON true JOIN customers c1038 ON true JOIN customers c1039 ON true JOIN customers c1040 ON true JOIN customers c1041 ON true JOIN customers c1042 ON true JOIN customers c1043 ON true JOIN customers c1044 ON true JOIN customers c1045 ON true JOIN customers c1046 ON true JOIN customers c1047 ON true JOIN customers c1048 ON true JOIN customers c1049 ON true JOIN customers c1050 ON true JOIN customers c1051 ON true JOIN customers c1052 ON true JOIN customers c1053 ON true JOIN customers c1054 ON true JOIN customers c1055 ON true JOIN customers c1056 ON true JOIN customers c1057 ON true JOIN customers c1058 ON true JOIN customers c1059 ON true JOIN customers c1060 ON true JOIN customers c1061 ON true JOIN customers c1062 ON true JOIN customers c1063 ON true JOIN customers c1064 ON true JOIN customers c1065 ON true JOIN customers c1066 ON true JOIN customers c1067 ON true JOIN customers c1068 ON true JOIN customers c1069 ON true JOIN customers c1070 ON true JOIN customers c1071 ON true JOIN customers c1072 ON true JOIN customers c1073 ON true JOIN customers c1074 ON true JOIN customers c1075 ON true JOIN customers c1076 ON true JOIN customers c1077 ON true JOIN customers c1078 ON true JOIN customers c1079 ON true JOIN customers c1080 ON true JOIN customers c1081 ON true JOIN customers c1082 ON true JOIN customers c1083 ON true JOIN customers c1084 ON true JOIN customers c1085 ON true JOIN customers c1086 ON true JOIN customers c1087 ON true JOIN customers c1088 ON true JOIN customers c1089 ON true JOIN customers c1090 ON true JOIN customers c1091 ON true JOIN customers c1092 ON true JOIN customers c1093 ON true JOIN customers c1094 ON true JOIN customers c1095 ON true JOIN customers c1096 ON true JOIN customers c1097 ON true JOIN customers c1098 ON true JOIN customers c1099 ON true JOIN customers c1100 ON true
----
--# 1,100 nested CASE expressions
SELECT CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN CASE WHEN true THEN 1 END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END END
----
--# nested subqueries deeper than allowed
SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT 1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
----
--# unbalanced brackets
SELECT ((1)
