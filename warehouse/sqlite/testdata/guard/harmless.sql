--# plain reads, joins and aggregates
SELECT * FROM customer
----
--# plain reads, joins and aggregates
SELECT id, email FROM customer WHERE name IS NOT NULL ORDER BY id
----
--# plain reads, joins and aggregates
SELECT count(*) FROM customer
----
--# plain reads, joins and aggregates
SELECT COUNT(*) AS n FROM orders
----
--# plain reads, joins and aggregates
SELECT c.name, count(o.id) AS orders FROM customer c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY 2 DESC
----
--# plain reads, joins and aggregates
SELECT c.name, o.id FROM customer AS c JOIN orders AS o ON o.customer_id = c.id
----
--# plain reads, joins and aggregates
SELECT customer_id, sum(qty) FROM orders o JOIN "order items" i ON i.order_id = o.id GROUP BY customer_id HAVING sum(qty) > 1
----
--# plain reads, joins and aggregates
SELECT * FROM orders WHERE paid BETWEEN '2024-01-01' AND '2024-12-31'
----
--# plain reads, joins and aggregates
SELECT DISTINCT sku FROM "order items" ORDER BY sku NULLS LAST
----
--# plain reads, joins and aggregates
SELECT * FROM customer LIMIT 2 OFFSET 1
----
--# plain reads, joins and aggregates
SELECT min(id), max(id), avg(id), total(id), sum(id) FROM customer
----
--# plain reads, joins and aggregates
SELECT max(1, 2, 3), min('a', 'b')
----
--# plain reads, joins and aggregates
SELECT count(DISTINCT customer_id) FROM orders
----
--# plain reads, joins and aggregates
SELECT o.id, (SELECT count(*) FROM "order items" i WHERE i.order_id = o.id) AS lines FROM orders o
----
--# plain reads, joins and aggregates
SELECT * FROM customer WHERE id IN (SELECT customer_id FROM orders)
----
--# plain reads, joins and aggregates
SELECT * FROM customer c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)
----
--# plain reads, joins and aggregates
SELECT * FROM customer c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)
----
--# plain reads, joins and aggregates
SELECT id FROM customer UNION SELECT customer_id FROM orders
----
--# plain reads, joins and aggregates
SELECT id FROM customer INTERSECT SELECT customer_id FROM orders
----
--# plain reads, joins and aggregates
SELECT id FROM customer EXCEPT SELECT customer_id FROM orders
----
--# plain reads, joins and aggregates
SELECT id FROM customer UNION ALL SELECT id FROM orders ORDER BY 1
----
--# plain reads, joins and aggregates
VALUES (1, 'a'), (2, 'b')
----
--# plain reads, joins and aggregates
SELECT * FROM (VALUES (1), (2)) AS v
----
--# plain reads, joins and aggregates
SELECT 1
----
--# plain reads, joins and aggregates
SELECT COUNT(*) n FROM orders ORDER BY n
----
--# plain reads, joins and aggregates
SELECT (a, b) IN (SELECT a, b FROM line_ref) FROM line_ref
----
--# plain reads, joins and aggregates
SELECT * FROM customer WHERE name IS DISTINCT FROM 'Ann'
----
--# plain reads, joins and aggregates
SELECT * FROM customer WHERE (id, name) > (1, 'A')
----
--# plain reads, joins and aggregates
SELECT * FROM customer NATURAL JOIN customer
----
--# plain reads, joins and aggregates
SELECT * FROM customer c1 CROSS JOIN customer c2 LIMIT 3
----
--# plain reads, joins and aggregates
SELECT * FROM orders o FULL OUTER JOIN customer c ON c.id = o.customer_id
----
--# plain reads, joins and aggregates
SELECT * FROM orders o RIGHT JOIN customer c USING (id)
----
--# quoted names in every style SQLite has
SELECT * FROM "order items"
----
--# quoted names in every style SQLite has
SELECT * FROM [order items]
----
--# quoted names in every style SQLite has
SELECT * FROM `order items`
----
--# quoted names in every style SQLite has
SELECT "from", "where" FROM "select"
----
--# quoted names in every style SQLite has
SELECT [from] FROM [select] WHERE [where] > 1
----
--# quoted names in every style SQLite has
SELECT * FROM "naïve"
----
--# quoted names in every style SQLite has
SELECT "clé", valeur FROM naïve
----
--# quoted names in every style SQLite has
SELECT * FROM "say ""hi"""
----
--# quoted names in every style SQLite has
SELECT * FROM CUSTOMER
----
--# quoted names in every style SQLite has
SELECT * FROM Customer AS "Select"
----
--# quoted names in every style SQLite has
SELECT * FROM main.customer
----
--# quoted names in every style SQLite has
SELECT * FROM "main"."customer"
----
--# quoted names in every style SQLite has
SELECT id AS "from", name AS [order] FROM customer ORDER BY "from"
----
--# window functions
SELECT id, row_number() OVER (ORDER BY id) FROM customer
----
--# window functions
SELECT id, rank() OVER w, dense_rank() OVER w FROM customer WINDOW w AS (ORDER BY name)
----
--# window functions
SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM customer
----
--# window functions
SELECT id, lag(id) OVER (ORDER BY id), lead(id, 1, 0) OVER (ORDER BY id) FROM customer
----
--# window functions
SELECT id, first_value(name) OVER (ORDER BY id), last_value(name) OVER (ORDER BY id), nth_value(name, 2) OVER (ORDER BY id) FROM customer
----
--# window functions
SELECT id, ntile(2) OVER (ORDER BY id), percent_rank() OVER (ORDER BY id), cume_dist() OVER (ORDER BY id) FROM customer
----
--# window functions
SELECT customer_id, count(*) OVER (PARTITION BY customer_id) FROM orders
----
--# window functions
SELECT id, avg(id) OVER (ORDER BY id RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) FROM customer
----
--# window functions
SELECT id, group_concat(name, ',') OVER (ORDER BY id GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM customer
----
--# window functions
SELECT count(*) FILTER (WHERE name IS NULL) FROM customer
----
--# JSON
SELECT json_extract(payload, '$.user') FROM events
----
--# JSON
SELECT payload -> '$.user', payload ->> '$.n' FROM events
----
--# JSON
SELECT e.id, j.key, j.value FROM events e, json_each(e.payload) j
----
--# JSON
SELECT * FROM json_each('[1, 2, 3]')
----
--# JSON
SELECT key, value, type, path FROM json_tree('{"a": {"b": [1, 2]}}')
----
--# JSON
SELECT json_group_array(id), json_group_object(email, id) FROM customer
----
--# JSON
SELECT json_object('id', id, 'name', name) FROM customer
----
--# JSON
SELECT json_array(1, 'a', NULL), json_array_length('[1,2]'), json_type('{}'), json_valid('x')
----
--# JSON
SELECT json_set('{}', '$.a', 1), json_insert('{}', '$.b', 2), json_replace('{"a":1}', '$.a', 3), json_remove('{"a":1}', '$.a')
----
--# JSON
SELECT json_patch('{"a":1}', '{"b":2}'), json_quote('x'), json('[1]'), jsonb('[1]'), json_pretty('[1]')
----
--# JSON
SELECT count(*) FROM events, json_each(events.payload, '$.tags')
----
--# recursive CTEs with a bound, and plain CTEs
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT * FROM r
----
--# recursive CTEs with a bound, and plain CTEs
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100) SELECT count(*) FROM c
----
--# recursive CTEs with a bound, and plain CTEs
WITH RECURSIVE chain(id, name, depth) AS (SELECT id, name, 0 FROM emp WHERE boss_id IS NULL UNION ALL SELECT e.id, e.name, chain.depth + 1 FROM emp e JOIN chain ON e.boss_id = chain.id) SELECT * FROM chain
----
--# recursive CTEs with a bound, and plain CTEs
WITH a AS (SELECT id FROM orders) SELECT COUNT(*) FROM a
----
--# recursive CTEs with a bound, and plain CTEs
WITH a AS MATERIALIZED (SELECT * FROM customer), b AS NOT MATERIALIZED (SELECT * FROM orders) SELECT * FROM a JOIN b ON b.customer_id = a.id
----
--# recursive CTEs with a bound, and plain CTEs
WITH t(x, y) AS (VALUES (1, 2)) SELECT x + y FROM t
----
--# recursive CTEs with a bound, and plain CTEs
WITH c AS (SELECT 1) SELECT count(*) FROM c
----
--# recursive CTEs with a bound, and plain CTEs
WITH customer AS (SELECT 1 AS id) SELECT * FROM customer
----
--# recursive CTEs with a bound, and plain CTEs
WITH "big orders" AS (SELECT * FROM orders) SELECT count(*) FROM "big orders"
----
--# dates and times
SELECT strftime('%Y-%m', placed) AS month, count(*) FROM orders GROUP BY month
----
--# dates and times
SELECT date(placed, '+1 month'), time(paid), datetime(paid, 'localtime') FROM orders
----
--# dates and times
SELECT julianday(paid) - julianday(placed) FROM orders
----
--# dates and times
SELECT unixepoch(paid), unixepoch('now'), timediff(paid, placed) FROM orders
----
--# dates and times
SELECT date('now'), current_date, current_time, current_timestamp
----
--# dates and times
SELECT CAST(strftime('%w', placed) AS INTEGER) AS weekday, count(*) FROM orders GROUP BY weekday
----
--# dates and times
SELECT strftime('%Y-%m-%d', at, 'auto') FROM events
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT * FROM customer WHERE email LIKE '%\_%' ESCAPE '\'
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT * FROM customer WHERE name LIKE 'a%' ESCAPE '!'
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT * FROM customer WHERE name GLOB 'A*'
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT printf('%05d|%s|%.2f', id, name, 1.5), format('%q', name) FROM customer
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT upper(name), lower(email), length(name), octet_length(name), trim(' x '), ltrim('xxa', 'x'), rtrim('axx', 'x') FROM customer
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT substr(email, 1, instr(email, '@') - 1), substring(email, 2), replace(email, '@', ' at ') FROM customer
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT hex(name), unhex('41'), quote(name), unicode(name), char(65, 66), soundex(name) FROM customer
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT concat(name, '-', id), concat_ws(', ', name, email) FROM customer
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT name || ' <' || email || '>' FROM customer
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT * FROM customer WHERE name COLLATE NOCASE = 'ann'
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT * FROM customer ORDER BY name COLLATE RTRIM
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT group_concat(name, '; ') FROM customer
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT string_agg(name, ',' ORDER BY name) FROM customer
----
--# string functions, LIKE with ESCAPE, GLOB, printf
SELECT unistr('\u0041'), 'a' || x'42'
----
--# numbers, types, conditionals and the remaining built-ins
SELECT abs(-1), round(2.5), round(2.567, 2), sign(-3), mod(7, 3), pi(), sqrt(2), pow(2, 10), power(2, 3), exp(1), ln(10), log(100), log(2, 8), log10(1000), log2(8)
----
--# numbers, types, conditionals and the remaining built-ins
SELECT ceil(1.2), ceiling(1.2), floor(1.8), trunc(1.9), degrees(pi()), radians(180), sin(0), cos(0), tan(0), asin(0), acos(1), atan(0), atan2(1, 1), sinh(0), cosh(0), tanh(0), asinh(0), acosh(1), atanh(0)
----
--# numbers, types, conditionals and the remaining built-ins
SELECT typeof(o.photo), typeof(o.memo), CAST(o.id AS TEXT), CAST('1' AS INTEGER), CAST(1 AS REAL), CAST(c.name AS BLOB) FROM orders o, customer c
----
--# numbers, types, conditionals and the remaining built-ins
SELECT CASE WHEN qty > 1 THEN 'many' ELSE 'one' END FROM "order items"
----
--# numbers, types, conditionals and the remaining built-ins
SELECT coalesce(name, '?'), ifnull(name, '?'), nullif(name, 'Ann'), iif(id > 1, 'b', 'a'), if(id > 1, 'b') FROM customer
----
--# numbers, types, conditionals and the remaining built-ins
SELECT likely(id > 0), unlikely(id < 0), likelihood(id = 1, 0.5) FROM customer
----
--# numbers, types, conditionals and the remaining built-ins
SELECT random(), abs(random()) % 10, length(randomblob(8))
----
--# numbers, types, conditionals and the remaining built-ins
SELECT * FROM (SELECT * FROM orders WHERE (random() & 4294967295) < 2147483648) s
----
--# numbers, types, conditionals and the remaining built-ins
SELECT sqlite_version(), sqlite_source_id(), sqlite_compileoption_used('ENABLE_FTS5'), sqlite_compileoption_get(0)
----
--# numbers, types, conditionals and the remaining built-ins
SELECT 0x1F, 1e3, 1_000_000, -0.5, X'00FF', NULL, TRUE, FALSE
----
--# numbers, types, conditionals and the remaining built-ins
SELECT a, b, c FROM gen
----
--# numbers, types, conditionals and the remaining built-ins
SELECT rowid, _rowid_, oid, * FROM customer
----
--# numbers, types, conditionals and the remaining built-ins
SELECT * FROM "naïve" WHERE "clé" = 'k'
----
--# views of the database, and what they read themselves
SELECT * FROM "big orders"
----
--# views of the database, and what they read themselves
SELECT count(*) FROM "big orders"
----
--# views of the database, and what they read themselves
SELECT email FROM "big orders" WHERE id > 10
----
--# views of the database, and what they read themselves
SELECT * FROM schema_view
----
--# views of the database, and what they read themselves
SELECT count(*) FROM schema_view
----
--# full-text search on a table of the database
SELECT * FROM docs WHERE docs MATCH 'hello'
----
--# full-text search on a table of the database
SELECT highlight(docs, 0, '[', ']'), snippet(docs, 0, '<', '>', '…', 5), bm25(docs) FROM docs WHERE docs MATCH 'hello' ORDER BY rank
----
--# full-text search on a table of the database
SELECT rowid, body FROM docs WHERE body MATCH 'wor*'
----
--# the schema through SQLite's read-only PRAGMA functions and statements
SELECT * FROM pragma_table_info('customer')
----
--# the schema through SQLite's read-only PRAGMA functions and statements
SELECT name, type, pk FROM pragma_table_xinfo('gen')
----
--# the schema through SQLite's read-only PRAGMA functions and statements
SELECT * FROM pragma_index_list('customer')
----
--# the schema through SQLite's read-only PRAGMA functions and statements
SELECT * FROM pragma_index_info('cust_name')
----
--# the schema through SQLite's read-only PRAGMA functions and statements
SELECT * FROM pragma_index_xinfo('cust_name')
----
--# the schema through SQLite's read-only PRAGMA functions and statements
SELECT * FROM pragma_foreign_key_list('orders')
----
--# the schema through SQLite's read-only PRAGMA functions and statements
SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'
----
--# the schema through SQLite's read-only PRAGMA functions and statements
SELECT m.name, p.name FROM pragma_table_list m JOIN pragma_table_info(m.name) p WHERE m.schema = 'main' AND m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
----
--# the schema through SQLite's read-only PRAGMA functions and statements
SELECT * FROM pragma_function_list WHERE name LIKE 'json%'
----
--# the schema through SQLite's read-only PRAGMA functions and statements
SELECT * FROM pragma_collation_list
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA table_info(customer)
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA table_info('order items')
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA main.index_list("order items")
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA index_info(cust_name)
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA foreign_key_list("orders")
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA table_xinfo(gen)
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA table_list
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA user_version
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA page_count
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA page_size
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA encoding
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA application_id
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA schema_version
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA freelist_count
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA foreign_keys
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA foreign_key_check
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA compile_options
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA USER_VERSION
----
--# the schema through SQLite's read-only PRAGMA functions and statements
PRAGMA main.page_count
----
--# EXPLAIN of a read
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer_id = 1
----
--# EXPLAIN of a read
EXPLAIN SELECT lower(name) FROM customer
----
--# EXPLAIN of a read
EXPLAIN QUERY PLAN WITH a AS (SELECT * FROM customer) SELECT * FROM a
----
--# EXPLAIN of a read
EXPLAIN PRAGMA table_info(customer)
----
--# comments, semicolons and strings that only look like SQL
/* leading comment */ SELECT 1
----
--# comments, semicolons and strings that only look like SQL
-- hello
SELECT 1
----
--# comments, semicolons and strings that only look like SQL
SELECT 1;
----
--# comments, semicolons and strings that only look like SQL
SELECT 1;  -- trailing comment
----
--# comments, semicolons and strings that only look like SQL
SELECT 1; /* a */ ;; -- b
----
--# comments, semicolons and strings that only look like SQL
SELECT 1 /* unterminated comment runs to the end ; DELETE FROM customer
----
--# comments, semicolons and strings that only look like SQL
SELECT 1 --; DELETE FROM customer
----
--# comments, semicolons and strings that only look like SQL
SELECT 'ATTACH ''x.db'' AS x; DELETE FROM customer'
----
--# comments, semicolons and strings that only look like SQL
SELECT 'load_extension(''x'')' AS text
----
--# comments, semicolons and strings that only look like SQL
SELECT "name" FROM customer WHERE email = 'a;b'
----
--# comments, semicolons and strings that only look like SQL
SELECT 'PRAGMA query_only = 0' LIKE '%query%'
----
--# comments, semicolons and strings that only look like SQL
SELECT * FROM customer WHERE name = 'x'';DROP TABLE customer;--'
----
--# comments, semicolons and strings that only look like SQL
SELECT * FROM pragma_table_info('sqlite_master')
----
--# comments, semicolons and strings that only look like SQL
SELECT count(*) FROM customer WHERE name = 'sqlite_master'
----
--# comments, semicolons and strings that only look like SQL
PRAGMA table_info(load_extension)
