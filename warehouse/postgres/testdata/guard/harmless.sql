--# Harmless reads an analyst or agent would write: every one must pass the
--# PostgreSQL guard (and run on the server, guard_e2e_test.go). Same format
--# as hostile.sql; tables are those guardFixture creates.
----
--# every row of a table
SELECT * FROM customers
----
--# a filter, an order and a limit
SELECT id, name FROM customers WHERE country = 'NL' ORDER BY id LIMIT 10
----
--# a count
SELECT count(*) FROM orders
----
--# a group by with an ordered count
SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY n DESC
----
--# a join and a sum
SELECT c.name, sum(o.amount) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name
----
--# a table whose name needs quotes
SELECT * FROM "Users"
----
--# a quoted mixed-case column
SELECT "Name" FROM "Users" WHERE id = 1
----
--# two tables whose names differ only in case
SELECT u.id, "U".id FROM users u LEFT JOIN "Users" "U" ON "U".id = u.id
----
--# public, spelled out
SELECT * FROM public.customers
----
--# a public table named like a catalog, qualified
SELECT name, setting FROM public.pg_settings
----
--# a table of another schema
SELECT * FROM sales.events
----
--# a partition
SELECT * FROM sales.metrics_2024
----
--# a partitioned table, ONLY
SELECT * FROM ONLY sales.metrics
----
--# a table and columns named like keywords
SELECT "from", "where" FROM "select"
----
--# a qualified column of a keyword-named table
SELECT "select"."from" FROM "select"
----
--# TABLE of a view
TABLE order_totals
----
--# TABLE of a quoted table
TABLE "Users"
----
--# VALUES
VALUES (1, 'a'), (2, 'b')
----
--# UNION ALL
SELECT 1 UNION ALL SELECT 2
----
--# INTERSECT of parenthesized arms
(SELECT id FROM customers) INTERSECT (SELECT customer_id FROM orders)
----
--# EXCEPT
SELECT id FROM customers EXCEPT SELECT customer_id FROM orders
----
--# UNION of case-distinct tables
SELECT id FROM "Users" UNION SELECT id FROM users
----
--# a CTE
WITH big AS (SELECT * FROM orders WHERE amount > 100) SELECT count(*) FROM big
----
--# a CTE reading an earlier one
WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM b
----
--# a recursive CTE over a hierarchy
WITH RECURSIVE tree AS (SELECT id, parent_id, 1 AS depth FROM users WHERE parent_id IS NULL UNION ALL SELECT u.id, u.parent_id, t.depth + 1 FROM users u JOIN tree t ON u.parent_id = t.id) SELECT * FROM tree
----
--# a recursive counter
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 10) SELECT sum(i) FROM r
----
--# WITH RECURSIVE lets a CTE read a later sibling
WITH RECURSIVE a AS (SELECT n FROM b), b AS (SELECT 1 AS n) SELECT * FROM a
----
--# a CTE shadows a table of the same name
WITH customers AS (SELECT 1 AS id) SELECT * FROM customers
----
--# a recursive CTE named like a catalog reads only itself
WITH RECURSIVE pg_authid(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM pg_authid WHERE n < 3) SELECT * FROM pg_authid
----
--# a CTE in scope of a nested subquery
WITH x AS (SELECT id FROM orders) SELECT * FROM customers WHERE id IN (SELECT id FROM x)
----
--# a materialized CTE
WITH x AS MATERIALIZED (SELECT * FROM orders) SELECT * FROM x
----
--# a CTE inside a subquery
SELECT * FROM (WITH y AS (SELECT 2 AS v) SELECT v FROM y) s
----
--# SEARCH DEPTH FIRST
WITH RECURSIVE t(id, p) AS (SELECT 1, 0 UNION ALL SELECT id + 1, id FROM t WHERE id < 5) SEARCH DEPTH FIRST BY id SET ord SELECT * FROM t ORDER BY ord
----
--# CYCLE detection
WITH RECURSIVE g(id, parent_id) AS (SELECT id, parent_id FROM users UNION ALL SELECT u.id, u.parent_id FROM users u JOIN g ON u.id = g.parent_id) CYCLE id SET is_cycle USING path SELECT count(*) FROM g
----
--# LIKE with a backslash ESCAPE
SELECT name FROM customers WHERE name LIKE 'a\_%' ESCAPE '\'
----
--# a backslash in a standard string
SELECT 'C:\temp\new' AS path
----
--# a backslash at the end of a standard string
SELECT 'ends with \' AS s
----
--# a backslash pattern matching a backslash
SELECT 'a\b' LIKE 'a\\b' ESCAPE '\'
----
--# an escape string
SELECT E'tab\there', E'\\' = '\'
----
--# a dollar-quoted string
SELECT $$it's$$ AS s
----
--# a tagged dollar quote containing $$
SELECT $tag$ a $$ b $tag$ AS s
----
--# a nested comment
/* nested /* comment */ still */ SELECT 1
----
--# a trailing line comment
SELECT 1 -- trailing
----
--# a trailing semicolon
SELECT 1;
----
--# SQL inside a string is data
SELECT 'SELECT pg_read_file(''/etc/passwd'')' AS just_text
----
--# a dangerous function's name as a string
SELECT length('; DROP TABLE customers; --'), 'pg_sleep(10)' AS also_text
----
--# SHOW a setting
SHOW TimeZone
----
--# SHOW the search path
SHOW search_path
----
--# SHOW the server version
SHOW server_version
----
--# SHOW the isolation level
SHOW TRANSACTION ISOLATION LEVEL
----
--# SHOW a planner switch
SHOW enable_seqscan
----
--# SHOW DateStyle
SHOW DateStyle
----
--# SHOW standard_conforming_strings
SHOW standard_conforming_strings
----
--# TABLESAMPLE BERNOULLI with REPEATABLE
SELECT * FROM orders TABLESAMPLE BERNOULLI (50) REPEATABLE (7)
----
--# TABLESAMPLE SYSTEM
SELECT count(*) FROM orders TABLESAMPLE SYSTEM (100)
----
--# EXPLAIN
EXPLAIN SELECT * FROM orders
----
--# EXPLAIN (ANALYZE)
EXPLAIN (ANALYZE) SELECT * FROM orders WHERE amount > 10
----
--# EXPLAIN with several options
EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY) SELECT count(*) FROM customers
----
--# EXPLAIN with WAL, VERBOSE and SETTINGS
EXPLAIN (ANALYZE, WAL, VERBOSE, SETTINGS) SELECT 1
----
--# EXPLAIN ANALYZE of a CTE
EXPLAIN ANALYZE WITH t AS (SELECT 1) SELECT * FROM t
----
--# EXPLAIN in YAML of a join
EXPLAIN (FORMAT YAML) SELECT * FROM customers c JOIN orders o ON o.customer_id = c.id
----
--# row_number over partitions
SELECT id, amount, row_number() OVER (PARTITION BY customer_id ORDER BY placed) FROM orders
----
--# a moving sum
SELECT id, sum(amount) OVER (ORDER BY placed ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM orders
----
--# lag and lead over a named window
SELECT id, lag(amount) OVER w, lead(amount, 2, 0) OVER w FROM orders WINDOW w AS (ORDER BY id)
----
--# ranking functions
SELECT rank() OVER (ORDER BY amount DESC), dense_rank() OVER (ORDER BY amount DESC), percent_rank() OVER (ORDER BY amount), cume_dist() OVER (ORDER BY amount), ntile(4) OVER (ORDER BY amount) FROM orders
----
--# value window functions
SELECT first_value(id) OVER w, last_value(id) OVER w, nth_value(id, 2) OVER w FROM orders WINDOW w AS (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
----
--# ordered-set aggregates
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY amount), percentile_disc(ARRAY[0.25, 0.75]) WITHIN GROUP (ORDER BY amount), mode() WITHIN GROUP (ORDER BY status) FROM orders
----
--# a hypothetical-set aggregate
SELECT rank(100) WITHIN GROUP (ORDER BY amount) FROM orders
----
--# string_agg and array_agg
SELECT string_agg(name, ', ' ORDER BY name), array_agg(DISTINCT country) FROM customers
----
--# JSON aggregates
SELECT json_agg(c), jsonb_agg(c.name), json_object_agg(id, name), jsonb_object_agg(id, email) FROM customers c
----
--# boolean aggregates
SELECT bool_and(amount > 0), bool_or(status = 'paid'), every(amount IS NOT NULL) FROM orders
----
--# FILTER
SELECT count(*) FILTER (WHERE status = 'paid') AS paid, count(*) AS n FROM orders
----
--# regression aggregates
SELECT corr(amount, id), covar_pop(amount, id), covar_samp(amount, id), regr_slope(amount, id), regr_intercept(amount, id), regr_r2(amount, id), regr_count(amount, id), regr_avgx(amount, id), regr_sxx(amount, id) FROM orders
----
--# spread aggregates
SELECT stddev(amount), stddev_pop(amount), stddev_samp(amount), variance(amount), var_pop(amount), var_samp(amount) FROM orders
----
--# bit aggregates
SELECT bit_and(id), bit_or(id), bit_xor(id) FROM orders
----
--# arithmetic functions
SELECT abs(-1), ceil(1.2), floor(1.8), round(2.567, 2), trunc(2.5), sqrt(16), cbrt(27), power(2, 10), exp(1), ln(10), log(100), log10(1000), mod(7, 3), div(7, 2), sign(-3), pi(), degrees(pi()), radians(180), gcd(12, 18), lcm(4, 6), factorial(5)
----
--# trigonometry
SELECT sin(1), cos(1), tan(1), asin(0.5), acos(0.5), atan(1), atan2(1, 1), sind(30), cosd(60), sinh(1), tanh(1)
----
--# width_bucket histogram
SELECT width_bucket(amount, 0, 1000, 10), count(*) FROM orders GROUP BY 1 ORDER BY 1
----
--# random
SELECT random() < 2, floor(random() * 10) >= 0
----
--# string functions
SELECT lower(name), upper(name), initcap(name), length(name), char_length(name), octet_length(name), left(name, 2), right(name, 2), lpad(name, 10, '*'), rpad(name, 10), ltrim('  x'), rtrim('x  '), btrim('  x  '), trim(both ' ' from name), reverse(name), repeat('ab', 3) FROM customers
----
--# substring family
SELECT substring(email FROM 1 FOR 3), substr(email, 2, 3), position('@' IN email), strpos(email, '@'), split_part(email, '@', 2), replace(email, '@', ' at '), translate(name, 'ae', 'AE'), overlay(name placing 'XX' from 1 for 2) FROM customers
----
--# format
SELECT format('%s has %s orders', c.name, count(o.id)) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.name
----
--# concatenation
SELECT concat(name, ' <', email, '>'), concat_ws(', ', name, country), name || ' ' || coalesce(email, '') FROM customers
----
--# regular expressions
SELECT regexp_replace(email, '@.*$', ''), regexp_match(email, '^([^@]+)@'), regexp_split_to_array(name, '\s+'), email ~ '^[a-z]+@', email ~* 'EXAMPLE', email !~ 'x' FROM customers
----
--# regexp_matches in FROM
SELECT * FROM regexp_matches('a1b2c3', '[0-9]', 'g') AS m
----
--# hashes
SELECT md5(email), sha256(convert_to(email, 'UTF8')), encode(sha256(email::bytea), 'hex'), to_hex(id), hashtext(email), hashtextextended(email, 0) FROM customers
----
--# encode and decode
SELECT encode(decode('68656c6c6f', 'hex'), 'escape'), encode('abc'::bytea, 'base64')
----
--# quoting helpers
SELECT quote_ident(name), quote_literal(name), quote_nullable(email), ascii(name), chr(65), starts_with(name, 'A') FROM customers
----
--# date parts
SELECT date_trunc('month', created_at), extract(year FROM created_at), date_part('dow', created_at), to_char(created_at, 'YYYY-MM-DD HH24:MI'), age(created_at), created_at::date FROM customers
----
--# the clock
SELECT now(), current_date, current_timestamp, localtimestamp, current_time, clock_timestamp() > now() - interval '1 hour', statement_timestamp(), transaction_timestamp()
----
--# date constructors and parsers
SELECT make_date(2024, 1, 31), make_timestamp(2024, 1, 31, 12, 0, 0), make_interval(days => 3), to_date('2024-01-31', 'YYYY-MM-DD'), to_timestamp(0), to_timestamp('2024', 'YYYY'), to_number('1,234.5', '9,999.9')
----
--# time zones and bins
SELECT created_at AT TIME ZONE 'UTC', date_bin('15 minutes', created_at, '2024-01-01'), justify_interval(interval '40 days'), isfinite(created_at) FROM customers
----
--# OVERLAPS
SELECT (placed, placed + 7) OVERLAPS (date '2024-01-01', date '2024-02-01') FROM orders
----
--# gaps between rows
SELECT placed - lag(placed) OVER (ORDER BY placed) AS gap FROM orders
----
--# generate_series in the select list
SELECT generate_series(1, 5)
----
--# a date series
SELECT d::date FROM generate_series('2024-01-01'::timestamp, '2024-01-07', interval '1 day') AS g(d)
----
--# unnest WITH ORDINALITY
SELECT * FROM unnest(ARRAY[1, 2, 3]) WITH ORDINALITY AS u(v, i)
----
--# unnest of a column
SELECT c.id, t FROM customers c, unnest(c.tags) AS t
----
--# jsonb_each LATERAL
SELECT c.id, x.* FROM customers c CROSS JOIN LATERAL jsonb_each(c.profile) AS x
----
--# jsonb_each_text output columns
SELECT key, value FROM customers, jsonb_each_text(profile)
----
--# jsonb_array_elements
SELECT jsonb_array_elements(profile -> 'items') FROM customers
----
--# jsonb operators
SELECT profile -> 'a', profile ->> 'b', profile #> '{c,d}', profile #>> '{c,d}', profile ? 'a', profile ?| ARRAY['a','b'], profile @> '{"a":1}' FROM customers
----
--# jsonpath
SELECT jsonb_path_query_array(profile, '$.items[*] ? (@.price > 10)'), jsonb_path_exists(profile, '$.a'), jsonb_typeof(profile), jsonb_pretty(profile) FROM customers
----
--# JSON builders
SELECT jsonb_build_object('id', id, 'name', name), json_build_array(id, name), to_jsonb(c), row_to_json(c) FROM customers c
----
--# jsonb_to_record
SELECT * FROM jsonb_to_record('{"a":1,"b":"x"}') AS r(a int, b text)
----
--# jsonb_to_recordset
SELECT * FROM jsonb_to_recordset('[{"a":1},{"a":2}]') AS r(a int)
----
--# jsonb edits
SELECT jsonb_set(profile, '{a}', '2'), profile - 'a', profile || '{"z":0}' FROM customers
----
--# array functions and operators
SELECT array_length(tags, 1), cardinality(tags), tags[1], tags[1:2], array_position(tags, 'vip'), 'vip' = ANY (tags), tags && ARRAY['a'], tags @> ARRAY['vip'], array_to_string(tags, ','), array_append(tags, 'x'), array_remove(tags, 'x') FROM customers
----
--# array constructors
SELECT string_to_array('a,b,c', ','), ARRAY[1,2] || 3, array_cat(ARRAY[1], ARRAY[2]), array_dims(ARRAY[[1,2],[3,4]]), array_upper(ARRAY[1,2,3], 1)
----
--# CASE, COALESCE, NULLIF, GREATEST, LEAST
SELECT CASE WHEN amount > 100 THEN 'big' WHEN amount > 10 THEN 'mid' ELSE 'small' END, coalesce(note, '-'), nullif(status, ''), greatest(amount, 0), least(amount, 1000) FROM orders
----
--# simple CASE
SELECT CASE status WHEN 'paid' THEN 1 ELSE 0 END FROM orders
----
--# num_nulls
SELECT num_nulls(note, status), num_nonnulls(note, status) FROM orders
----
--# casts to built-in types
SELECT amount::int, amount::text, CAST(amount AS double precision), id::bigint, '2024-01-01'::date, '1 day'::interval, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, '{"a":1}'::jsonb, '{1,2}'::int[], '192.168.0.1'::inet, 'true'::boolean, '12:30'::time, 'x'::"char", 1::numeric(10,2), 'abc'::varchar(2), 'abc'::char(5), '[1,5)'::int4range FROM orders LIMIT 1
----
--# typed literals
SELECT date '2024-01-31', timestamp '2024-01-31 10:00', interval '2 hours', time '12:00', timestamptz '2024-01-01 00:00+00'
----
--# functions qualified with pg_catalog
SELECT pg_catalog.lower(name), pg_catalog.count(*) FROM customers GROUP BY 1
----
--# an allowed function with a volatile namesake, qualified
SELECT pg_catalog.trim_scale(8.4100)
----
--# a built-in operator spelled OPERATOR(pg_catalog.+)
SELECT 1 OPERATOR(pg_catalog.+) 2
----
--# a built-in operator with a volatile namesake, qualified
SELECT point '(0,0)' OPERATOR(pg_catalog.##) lseg '[(1,1),(2,2)]'
----
--# ORDER BY … USING
SELECT id FROM orders ORDER BY amount USING >
----
--# IN a subquery
SELECT * FROM customers WHERE id IN (SELECT customer_id FROM orders WHERE status = 'paid')
----
--# EXISTS
SELECT * FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)
----
--# NOT EXISTS with an empty select list
SELECT * FROM customers c WHERE NOT EXISTS (SELECT FROM orders o WHERE o.customer_id = c.id)
----
--# a correlated scalar subquery
SELECT id, (SELECT max(amount) FROM orders o WHERE o.customer_id = c.id) FROM customers c
----
--# ARRAY of a subquery
SELECT ARRAY(SELECT id FROM orders ORDER BY id)
----
--# ALL of a subquery
SELECT * FROM orders WHERE amount > ALL (SELECT amount FROM orders WHERE status = 'refunded')
----
--# BETWEEN and NOT BETWEEN SYMMETRIC
SELECT * FROM orders WHERE amount BETWEEN 10 AND 100 AND placed NOT BETWEEN SYMMETRIC '2024-02-01' AND '2024-01-01'
----
--# IS NULL and IS NOT DISTINCT FROM
SELECT * FROM orders WHERE note IS NULL OR note IS NOT DISTINCT FROM status
----
--# IS TRUE
SELECT * FROM orders WHERE (status = 'paid') IS TRUE
----
--# DISTINCT ON
SELECT DISTINCT ON (customer_id) customer_id, id FROM orders ORDER BY customer_id, placed DESC
----
--# ROLLUP
SELECT country, status, count(*) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY ROLLUP (country, status)
----
--# CUBE and GROUPING
SELECT country, count(*), GROUPING(country) FROM customers GROUP BY CUBE (country)
----
--# GROUPING SETS
SELECT country, count(*) FROM customers GROUP BY GROUPING SETS ((country), ())
----
--# OFFSET and FETCH FIRST
SELECT * FROM orders ORDER BY placed DESC NULLS LAST OFFSET 1 FETCH FIRST 2 ROWS ONLY
----
--# FETCH FIRST WITH TIES
SELECT * FROM orders ORDER BY amount FETCH FIRST 1 ROWS WITH TIES
----
--# COLLATE
SELECT name COLLATE "C" FROM customers ORDER BY 1
----
--# quoted aliases named like keywords
SELECT count(*) AS "select", max(id) AS "from" FROM customers
----
--# an implicit alias used in ORDER BY
SELECT COUNT(*) n FROM orders ORDER BY n
----
--# a table alias with column aliases
SELECT c.* FROM customers AS c(i, nm)
----
--# VALUES in FROM
SELECT t.a FROM (VALUES (1), (2)) AS t(a)
----
--# NATURAL JOIN
SELECT * FROM customers NATURAL JOIN orders
----
--# JOIN USING
SELECT * FROM customers JOIN orders USING (id)
----
--# FULL OUTER JOIN
SELECT * FROM orders o1 FULL OUTER JOIN orders o2 ON o1.id = o2.id + 1
----
--# full-text search
SELECT to_tsvector('english', body) @@ to_tsquery('english', 'cat & dog'), ts_rank(tsv, plainto_tsquery('cat')) FROM docs
----
--# ts_headline
SELECT ts_headline('english', body, websearch_to_tsquery('english', 'cat')) FROM docs
----
--# network functions
SELECT host(ip), masklen(ip), family(ip), ip << '10.0.0.0/8'::inet FROM sales.events
----
--# range functions
SELECT lower(during), upper(during), isempty(during), during @> now() FROM sales.events
----
--# a Unicode-escaped column name
SELECT U&"\0069d" FROM customers
----
--# a Unicode-escaped string
SELECT U&'d\0061t\+000061' AS s
----
--# a Unicode-escaped table name with UESCAPE
SELECT * FROM U&"c!0075stomers" UESCAPE '!'
----
--# the server's version
SELECT version()
----
--# who and where
SELECT current_database(), current_user, session_user, current_schema
----
--# a value's type and size
SELECT pg_typeof(amount), pg_column_size(note) FROM orders
----
--# a random UUID
SELECT gen_random_uuid() IS NOT NULL
----
--# this year's orders
SELECT * FROM orders WHERE placed >= date_trunc('year', now())::date
----
--# ILIKE, NOT LIKE and SIMILAR TO
SELECT id FROM orders WHERE status ILIKE 'PA%' AND note NOT LIKE '%x%' AND status SIMILAR TO '(paid|open)'
----
--# recent events
SELECT * FROM sales.events WHERE at > now() - interval '30 days'
----
--# month-over-month change
WITH monthly AS (SELECT date_trunc('month', placed) AS m, sum(amount) AS s FROM orders GROUP BY 1) SELECT m, s, s - lag(s) OVER (ORDER BY m) AS delta FROM monthly
----
--# top customers by order count
SELECT name, (SELECT count(*) FROM orders WHERE customer_id = c.id) AS n FROM customers c ORDER BY n DESC LIMIT 5
----
--# a LATERAL subquery
SELECT o.*, c.name FROM orders o, LATERAL (SELECT name FROM customers WHERE id = o.customer_id) c
----
--# a view compared to its average
SELECT * FROM order_totals WHERE total > (SELECT avg(total) FROM order_totals)
----
--# a share of the total
SELECT id, amount, amount / sum(amount) OVER () AS share FROM orders
----
--# row comparisons
SELECT ROW(1, 'a') = ROW(1, 'a'), (1, 2) < (1, 3)
----
--# arithmetic and bit operators
SELECT 7 / 2, 7 % 2, 2 ^ 10, |/ 16, @ -5, 5 & 3, 5 | 3, 5 # 3, ~5, 1 << 4
----
--# starts-with operator
SELECT 'abc' ^@ 'a'
----
--# nested JSON access
SELECT (profile -> 'address') ->> 'city' FROM customers
----
--# epoch seconds
SELECT date_part('epoch', created_at)::bigint FROM customers
----
--# a series with a bare alias
SELECT x FROM generate_series(1, 3) x
----
--# generate_subscripts
SELECT * FROM generate_subscripts(ARRAY['a','b'], 1) AS s
----
--# ROWS FROM
SELECT * FROM ROWS FROM (generate_series(1, 2), unnest(ARRAY['a','b'])) AS r(n, s)
----
--# a count of distinct values
SELECT count(*) FROM (SELECT DISTINCT customer_id FROM orders) d
----
--# a doubly parenthesized scalar subquery
SELECT ((SELECT 1))
----
--# a date comparison
SELECT * FROM customers WHERE created_at::date = '2024-01-01'
----
--# interval arithmetic
SELECT interval '1 day' * 3, date '2024-01-01' + 1, now()::time
----
--# to_char of a number
SELECT to_char(amount, 'FM999,990.00') FROM orders
----
--# a truncated note
SELECT left(note, 10) || '…' FROM orders
----
--# padding and splitting
SELECT split_part('a.b.c', '.', 3), reverse('abc'), lpad('7', 3, '0')
----
--# string_agg DISTINCT
SELECT string_agg(DISTINCT status, '|') FROM orders
----
--# array_agg with ORDER BY and FILTER
SELECT array_agg(id ORDER BY amount DESC) FILTER (WHERE amount > 0) FROM orders
----
--# count of distinct pairs
SELECT count(DISTINCT (customer_id, status)) FROM orders
----
--# Unicode normalization
SELECT unistr('\0041'), normalize('é'), 'é' IS NFC NORMALIZED
----
--# COLLATION FOR
SELECT COLLATION FOR (name) FROM customers LIMIT 1
----
--# pg_size_pretty of a number
SELECT pg_size_pretty(12345678::bigint)
----
--# ANY of an array literal
SELECT * FROM customers WHERE name = ANY ('{Ann,Bob}')
----
--# a text key
SELECT id::text || ':' || name FROM users
----
--# a hash bucket
SELECT hashtext('x') % 10
----
--# a range of a partitioned table
SELECT * FROM sales.metrics WHERE at >= '2024-01-01'
----
--# a self-join on the hierarchy
SELECT child.name, parent.name FROM users child LEFT JOIN users parent ON parent.id = child.parent_id
----
--# a percentile per group
SELECT status, percentile_cont(0.9) WITHIN GROUP (ORDER BY amount) FROM orders GROUP BY status
----
--# a correlation matrix cell
SELECT corr(amount::float8, extract(epoch FROM placed::timestamp)) FROM orders
----
--# median by month
SELECT date_trunc('month', placed) AS m, percentile_disc(0.5) WITHIN GROUP (ORDER BY amount) FROM orders GROUP BY 1 ORDER BY 1
----
--# a cohort count
SELECT date_trunc('month', c.created_at) AS cohort, count(DISTINCT o.customer_id) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY 1
----
--# a null share per column
SELECT avg((note IS NULL)::int) AS note_nulls, avg((status IS NULL)::int) AS status_nulls FROM orders
----
--# a top-N per group
SELECT * FROM (SELECT o.*, row_number() OVER (PARTITION BY customer_id ORDER BY amount DESC) AS rn FROM orders o) t WHERE rn <= 2
