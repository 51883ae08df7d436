--# Reads an analyst or an agent writes on DuckDB, over the guard test's
--# tables (customer, orders, order_items, events); every one must pass the
--# guard and run, on a database file and on a CSV folder.
SELECT 1
----
SELECT * FROM customer
----
SELECT id, name FROM customer WHERE city = 'Oslo' ORDER BY name LIMIT 10
----
--# FROM-first syntax
FROM customer
----
FROM orders SELECT status, count(*) GROUP BY status
----
FROM customer SELECT name WHERE id > 1
----
--# quoted and mixed-case names resolve case-insensitively
SELECT "Name" FROM "CUSTOMER"
----
SELECT c.name FROM main.customer AS c
----
SELECT count(*), count(DISTINCT city), min(created), max(created) FROM customer
----
SELECT status, sum(amount) AS total, avg(amount), stddev_samp(amount) FROM orders GROUP BY ALL ORDER BY ALL
----
SELECT c.name, sum(o.amount) FROM customer c JOIN orders o ON o.customer_id = c.id GROUP BY c.name HAVING sum(o.amount) > 10
----
SELECT * FROM customer c LEFT JOIN orders o ON o.customer_id = c.id
----
SELECT * FROM customer c FULL OUTER JOIN orders o ON o.customer_id = c.id
----
SELECT * FROM customer c CROSS JOIN order_items
----
SELECT * FROM customer JOIN orders USING (id)
----
SELECT * FROM customer NATURAL JOIN orders
----
--# ASOF join
SELECT * FROM orders o ASOF JOIN events e ON o.id = e.id AND o.placed >= e.ts
----
--# POSITIONAL join
SELECT * FROM customer POSITIONAL JOIN orders
----
--# semi and anti joins
SELECT * FROM customer SEMI JOIN orders ON orders.customer_id = customer.id
----
SELECT * FROM customer ANTI JOIN orders ON orders.customer_id = customer.id
----
--# LATERAL
SELECT c.id, x.n FROM customer c, LATERAL (SELECT count(*) AS n FROM orders o WHERE o.customer_id = c.id) x
----
WITH big AS (SELECT * FROM orders WHERE amount > 10) SELECT count(*) FROM big
----
WITH a AS (SELECT id FROM customer), b AS (SELECT * FROM a WHERE id > 1) SELECT * FROM b
----
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT sum(n) FROM r
----
WITH x AS MATERIALIZED (SELECT * FROM orders) SELECT count(*) FROM x
----
WITH x AS NOT MATERIALIZED (SELECT * FROM orders) SELECT count(*) FROM x
----
--# a CTE named like a file is a CTE, not a file
WITH "data.csv" AS (SELECT 1 AS a) SELECT * FROM "data.csv"
----
--# a CTE may shadow a table
WITH orders AS (SELECT 1 AS id) SELECT * FROM orders
----
SELECT * FROM (WITH x AS (SELECT 2 AS v) SELECT * FROM x) sub
----
SELECT id FROM customer UNION SELECT customer_id FROM orders
----
SELECT id FROM customer UNION ALL BY NAME SELECT customer_id AS id FROM orders
----
SELECT id FROM customer INTERSECT SELECT customer_id FROM orders
----
SELECT id FROM customer EXCEPT ALL SELECT customer_id FROM orders
----
(SELECT 1 AS a) UNION (SELECT 2)
----
VALUES (1, 'a'), (2, 'b')
----
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(n, s)
----
SELECT * EXCLUDE (email) FROM customer
----
SELECT * REPLACE (upper(name) AS name) FROM customer
----
SELECT * RENAME (name AS customer_name) FROM customer
----
SELECT COLUMNS('^c') FROM customer
----
SELECT min(COLUMNS(*)) FROM orders
----
SELECT COLUMNS(c -> c LIKE '%id%') FROM orders
----
SELECT COLUMNS(*)::VARCHAR FROM customer
----
SELECT #1, #2 FROM customer
----
SELECT name, row_number() OVER (PARTITION BY city ORDER BY created) AS rn FROM customer
----
SELECT id, amount, sum(amount) OVER (ORDER BY placed ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM orders
----
SELECT id, lag(amount) OVER w, lead(amount, 2, 0) OVER w, first_value(amount) OVER w, last_value(amount IGNORE NULLS) OVER w FROM orders WINDOW w AS (PARTITION BY customer_id ORDER BY placed)
----
SELECT id, rank() OVER (ORDER BY amount DESC), dense_rank() OVER (ORDER BY amount), percent_rank() OVER (ORDER BY amount), cume_dist() OVER (ORDER BY amount), ntile(4) OVER (ORDER BY amount) FROM orders
----
SELECT id, nth_value(amount, 2) OVER (ORDER BY id RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM orders
----
SELECT id, count(*) OVER (ORDER BY placed RANGE BETWEEN INTERVAL 7 DAYS PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) FROM orders
----
--# QUALIFY
SELECT * FROM orders QUALIFY row_number() OVER (PARTITION BY customer_id ORDER BY placed DESC) = 1
----
SELECT count(*) FILTER (WHERE status = 'paid'), sum(amount) FILTER (amount > 5) FROM orders
----
SELECT string_agg(name, ', ' ORDER BY name), list(id ORDER BY id DESC), array_agg(DISTINCT city) FROM customer
----
SELECT approx_count_distinct(status), approx_quantile(amount, 0.5), quantile_cont(amount, [0.25, 0.5, 0.75]), quantile_disc(amount, 0.9), reservoir_quantile(amount, 0.5), median(amount), mode(status), mad(amount) FROM orders
----
SELECT histogram(status), entropy(status), arg_max(id, amount), arg_min(id, amount), max_by(status, amount), min_by(status, amount) FROM orders
----
SELECT corr(amount, id), covar_pop(amount, id), regr_slope(amount, id), regr_intercept(amount, id), kurtosis(amount), skewness(amount), var_pop(amount) FROM orders
----
SELECT bool_and(amount > 0), bool_or(amount > 100), bit_and(id), bit_or(id), count_if(amount > 10), any_value(status), first(status), last(status), product(qty), fsum(price), favg(price) FROM orders, order_items
----
SELECT approx_top_k(status, 3) FROM orders
----
SELECT id, CASE WHEN amount > 10 THEN 'big' WHEN amount > 5 THEN 'mid' ELSE 'small' END FROM orders
----
SELECT CASE status WHEN 'paid' THEN 1 ELSE 0 END FROM orders
----
SELECT coalesce(email, 'none'), nullif(city, ''), ifnull(email, '-'), greatest(1, 2), least(1, 2), if(id > 1, 'a', 'b') FROM customer
----
SELECT CAST(amount AS VARCHAR), TRY_CAST(status AS INTEGER), amount::DOUBLE, CAST('2024-01-01' AS DATE), '42'::INTEGER FROM orders
----
SELECT CAST(amount AS DECIMAL(18, 3)), CAST(id AS VARCHAR(10)), CAST([1, 2] AS INTEGER[]), CAST({'a': 1} AS STRUCT(a BIGINT)) FROM orders
----
SELECT upper(name), lower(name), length(name), substr(name, 1, 3), left(name, 2), right(name, 2), trim(name), ltrim(name), rtrim(name, 'x'), lpad(name, 10, '*'), rpad(name, 10, ' '), reverse(name), repeat(name, 2) FROM customer
----
SELECT replace(email, '@', ' at '), split_part(email, '@', 2), string_split(email, '@'), concat(name, '/', city), concat_ws('-', name, city), name || ' ' || city, position('a' IN name), strpos(name, 'a'), instr(name, 'a'), contains(name, 'a'), starts_with(name, 'A'), ends_with(email, '.org'), prefix(name, 'A'), suffix(name, 'n') FROM customer
----
SELECT regexp_matches(email, '^[a-z]+@'), regexp_replace(email, '@.*', ''), regexp_extract(email, '@(.*)', 1), regexp_extract_all(email, '[a-z]+'), regexp_full_match(email, '.*'), regexp_split_to_array(email, '@') FROM customer
----
SELECT name LIKE 'A%', name ILIKE 'a%', name NOT LIKE '%x%', name SIMILAR TO 'A.*', name GLOB 'A*', name ~ '^A', email LIKE '%\_%' ESCAPE '\' FROM customer
----
SELECT levenshtein(name, 'Ann'), jaro_winkler_similarity(name, 'Ann'), damerau_levenshtein(name, 'Ann'), hamming('abc', 'abd'), jaccard(name, 'Ann'), editdist3(name, 'Ann') FROM customer
----
SELECT md5(email), sha256(email), sha1(email), hash(email), hex(id), unhex('41'), to_base64(encode(name)), from_base64('QQ=='), chr(65), ascii('A'), unicode('A'), ord('A') FROM customer
----
SELECT format('{}-{}', name, city), printf('%s/%d', name, id), bar(id, 0, 10, 20), strip_accents('Oslö'), nfc_normalize(name), translate(name, 'a', 'b'), url_encode(name), url_decode('a%20b') FROM customer
----
SELECT abs(-1), ceil(1.5), floor(1.5), round(2.567, 2), trunc(2.5), sqrt(16), cbrt(27), power(2, 10), pow(2, 3), exp(1), ln(10), log(100), log10(100), log2(8), sign(-3), mod(7, 3), 7 % 3, 7 // 2, 2 ** 3, pi(), degrees(1), radians(90)
----
SELECT sin(1), cos(1), tan(1), asin(0.5), acos(0.5), atan(1), atan2(1, 2), sinh(1), cosh(1), tanh(1), factorial(5), gcd(12, 18), lcm(4, 6), isnan(1.0), isinf(1.0), isfinite(1.0), even(3), gamma(5), lgamma(5), bit_count(7), xor(1, 3), 1 << 2, 8 >> 1, 5 & 3, 5 | 3, ~5
----
SELECT random() < 2, uuid() IS NOT NULL, gen_random_uuid() IS NOT NULL
----
SELECT date_trunc('month', placed), date_part('year', placed), extract(dow FROM placed), year(placed), month(placed), day(placed), hour(placed), dayname(placed), monthname(placed), week(placed), quarter(placed), dayofweek(placed), isodow(placed), epoch(placed), last_day(placed) FROM orders
----
SELECT strftime(placed, '%Y-%m-%d'), strptime('2024-01-02', '%Y-%m-%d'), try_strptime('x', '%Y'), date_diff('day', placed, now()), datediff('hour', placed, current_timestamp), date_add(placed, INTERVAL 1 DAY), placed + INTERVAL '3 hours', age(placed::DATE), make_date(2024, 1, 2), make_timestamp(2024, 1, 2, 3, 4, 5.5), to_timestamp(1700000000), epoch_ms(placed), time_bucket(INTERVAL '1 week', placed) FROM orders
----
SELECT current_date, current_timestamp, today(), now() - INTERVAL 1 DAY, current_time, localtimestamp, get_current_timestamp(), TIMESTAMP '2024-01-02 03:04:05', DATE '2024-01-02', INTERVAL 90 MINUTE, to_days(3), to_hours(2)
----
SELECT placed AT TIME ZONE 'UTC', timezone('Europe/Oslo', placed::TIMESTAMPTZ) FROM orders
----
SELECT generate_series(1, 3), range(5), [1, 2, 3][2], [1, 2, 3][2:3], list_value(1, 2), [x * 2 FOR x IN [1, 2, 3] IF x > 1]
----
SELECT list_transform([1, 2, 3], x -> x + 1), list_filter([1, 2, 3], x -> x > 1), list_reduce([1, 2, 3], (a, b) -> a + b), list_sort([3, 1, 2]), list_distinct([1, 1, 2]), list_sum([1, 2]), list_aggregate([1, 2], 'max'), flatten([[1], [2]]), array_length([1, 2]), len([1]), list_contains([1, 2], 1), list_has_any([1], [1, 2]), to_json(list_zip([1], ['a'])), list_slice([1, 2, 3], 1, 2), list_position([1, 2], 2), list_concat([1], [2]), array_to_string([1, 2], ','), unnest([1, 2])
----
SELECT apply([1, 2], lambda x: x * 10), filter([1, 2, 3], lambda x: x % 2 = 1), reduce([1, 2, 3], lambda a, b: a * b)
----
SELECT {'a': 1, 'b': 'x'} AS s, {'a': 1}.a, struct_pack(k := 1, v := 'x'), struct_extract({'a': 1}, 'a'), to_json(row(1, 'a')), struct_insert({'a': 1}, b := 2)
----
SELECT MAP {'a': 1, 'b': 2}, map_keys(MAP {'a': 1}), map_values(MAP {'a': 1}), map_extract(MAP {'a': 1}, 'a'), element_at(MAP {'a': 1}, 'a'), map_entries(MAP {'a': 1}), map_from_entries([{'k': 'a', 'v': 1}]), cardinality(MAP {'a': 1}), MAP {'a': 1}['a']
----
SELECT union_value(n := 7), union_tag(union_value(n := 7)), 'x'::ENUM('x', 'y'), typeof(1), [1, 2]::INTEGER[2]
----
SELECT payload->>'$.a', payload->'$.b', json_extract(payload, '$.a'), json_extract_string(payload, '$.a'), json_valid(payload), json_type(payload), json_keys(payload), json_array_length(payload, '$.list'), json_object('k', 1), json_array(1, 2), to_json({'a': 1}), json_structure(payload), json_contains(payload, '1'), json_exists(payload, '$.a'), json_value(payload, '$.a') FROM events
----
SELECT json_transform(payload, '{"a": "INTEGER"}'), from_json(payload, '{"a": "VARCHAR"}'), json_group_array(kind), json_group_object(kind, id), json_pretty(payload), json_merge_patch(payload, '{}') FROM events GROUP BY payload
----
SELECT * FROM range(10)
----
SELECT * FROM range(1, 10, 2) t(n)
----
SELECT * FROM generate_series(DATE '2024-01-01', DATE '2024-01-31', INTERVAL 1 DAY)
----
SELECT * FROM unnest([1, 2, 3]) AS u(x)
----
SELECT unnest([{'a': 1}, {'a': 2}], recursive := true)
----
SELECT * FROM json_each('{"a": 1, "b": 2}')
----
--# sampling
SELECT * FROM orders USING SAMPLE 10%
----
SELECT * FROM orders USING SAMPLE 10 PERCENT (bernoulli)
----
SELECT * FROM orders USING SAMPLE reservoir(50 ROWS) REPEATABLE (42)
----
SELECT * FROM orders USING SAMPLE system(10%)
----
SELECT count(*) FROM (SELECT * FROM orders USING SAMPLE 0.5 PERCENT (system, 42)) s
----
SELECT * FROM orders TABLESAMPLE reservoir(20)
----
SELECT * FROM orders TABLESAMPLE 5%
----
--# PIVOT and UNPIVOT
PIVOT orders ON status USING sum(amount)
----
PIVOT orders ON status USING sum(amount) GROUP BY customer_id
----
PIVOT orders ON status IN ('paid', 'open') USING sum(amount) AS total, count(*) AS n GROUP BY customer_id ORDER BY customer_id LIMIT 10
----
PIVOT orders ON status, year(placed) USING count(*)
----
PIVOT (SELECT status, amount FROM orders WHERE amount > 1) ON status USING max(amount)
----
FROM orders PIVOT (sum(amount) FOR status IN ('paid', 'open'))
----
SELECT * FROM orders PIVOT (count(*) FOR status IN ('paid' AS p, 'open' AS o) GROUP BY customer_id)
----
WITH p AS (PIVOT orders ON status USING count(*)) SELECT * FROM p
----
SELECT * FROM (PIVOT orders ON status USING count(*)) p
----
UNPIVOT customer ON name, city INTO NAME field VALUE val
----
UNPIVOT orders ON COLUMNS(* EXCLUDE (id, placed, amount, customer_id)) INTO NAME k VALUE v
----
FROM customer UNPIVOT (val FOR field IN (name, city))
----
SELECT * FROM customer UNPIVOT INCLUDE NULLS (val FOR field IN (name, email))
----
--# describing tables
DESCRIBE customer
----
DESCRIBE SELECT * FROM orders
----
SHOW customer
----
SHOW TABLES
----
SHOW ALL TABLES
----
SUMMARIZE customer
----
SUMMARIZE SELECT id, amount FROM orders
----
SUMMARIZE main.orders
----
--# EXPLAIN
EXPLAIN SELECT * FROM orders WHERE id = 1
----
EXPLAIN ANALYZE SELECT count(*) FROM orders
----
EXPLAIN (FORMAT json) SELECT * FROM customer
----
EXPLAIN FROM customer
----
--# metadata in information_schema
SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_name = 'orders'
----
SELECT table_schema, table_name FROM information_schema.tables
----
SELECT * FROM information_schema.schemata
----
--# strings that look like SQL are data
SELECT 'DROP TABLE customer; COPY customer TO ''/tmp/x''' AS s
----
SELECT 'read_csv(''/etc/passwd'')', 'getenv(''HOME'')', $$ATTACH 'x'$$, $tag$ INSTALL httpfs $tag$
----
SELECT name FROM customer WHERE name = 'it''s; SELECT 1' -- a comment; DROP TABLE customer
----
SELECT /* COPY x TO 'y' */ 1 /* nested /* comment */ still */
----
SELECT E'a\nb', e'it\'s', 'x' = $$x$$
----
--# odd but legal spacing and case
select
  id
from
  Customer
where
  ID   >   0
----
SELECT 1;
----
--# keywords as quoted names
SELECT "select", "from" FROM (SELECT 1 AS "select", 2 AS "from") t
----
SELECT id AS "order", name AS "group" FROM customer ORDER BY "order"
----
--# unicode data and names
SELECT 'Ærøskøbing ✓' AS "städte", length('日本語')
----
SELECT count(*) n FROM orders ORDER BY n
----
SELECT id, EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id) FROM customer c
----
SELECT * FROM customer WHERE id IN (SELECT customer_id FROM orders) AND id NOT IN (1, 2)
----
SELECT * FROM customer WHERE id = ANY (SELECT customer_id FROM orders)
----
SELECT (SELECT max(amount) FROM orders) AS top, id BETWEEN 1 AND 3, id IS DISTINCT FROM 2, email IS NOT NULL FROM customer
----
SELECT DISTINCT ON (city) city, name FROM customer ORDER BY city, name
----
SELECT city, count(*) FROM customer GROUP BY ROLLUP (city)
----
SELECT city, name, count(*) FROM customer GROUP BY GROUPING SETS ((city), (name), ())
----
SELECT city, name, count(*), grouping(city) FROM customer GROUP BY CUBE (city, name)
----
SELECT * FROM orders ORDER BY amount DESC NULLS LAST LIMIT 5 OFFSET 2
----
SELECT * FROM orders LIMIT 10%
----
SELECT name COLLATE nocase FROM customer ORDER BY 1
----
SELECT [1, 2, 3] AS l, l[1] FROM (SELECT 1) t
----
SELECT id AS k, k + 1 AS k2 FROM customer
----
SELECT list_transform(string_split(name, ''), c -> upper(c)) FROM customer
----
SELECT version()
