--# Reads an analyst or an agent writes on Trino; every one must pass the
--# guard (tables of the fake coordinator's catalog hive: sales.orders,
--# sales.customers, sales.order_totals, hr.employees).
SELECT 1
----
SELECT * FROM sales.orders
----
SELECT order_id, amount FROM sales.orders WHERE status = 'paid' ORDER BY amount DESC LIMIT 10
----
SELECT * FROM "sales"."orders"
----
SELECT * FROM hive.sales.orders
----
SELECT * FROM "hive"."sales"."orders" o
----
TABLE sales.orders
----
VALUES (1, 'a'), (2, 'b')
----
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v (n, s)
----
SELECT * FROM (VALUES (1, 'a')) v (n, s)
----
SELECT count(*), count(DISTINCT customer_id), min(amount), max(amount), avg(amount), sum(amount) FROM sales.orders
----
SELECT status, count(*) AS n FROM sales.orders GROUP BY status ORDER BY n DESC
----
SELECT status, count(*) FROM sales.orders GROUP BY 1 HAVING count(*) > 1
----
SELECT c.name, sum(o.amount) FROM sales.orders o JOIN sales.customers c ON c.customer_id = o.customer_id GROUP BY c.name
----
SELECT * FROM sales.orders o LEFT JOIN sales.customers c USING (customer_id)
----
SELECT * FROM sales.orders o FULL OUTER JOIN sales.customers c ON (o.customer_id = c.customer_id)
----
SELECT * FROM sales.orders CROSS JOIN sales.customers
----
SELECT * FROM sales.orders NATURAL JOIN sales.customers
----
WITH big AS (SELECT * FROM sales.orders WHERE amount > 10) SELECT count(*) FROM big
----
WITH t (a, b) AS (SELECT 1, 2) SELECT a + b FROM t
----
WITH a AS (SELECT 1 AS x), b (y) AS (SELECT x FROM a) SELECT * FROM b
----
WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n) FROM r
----
SELECT customer_id FROM sales.orders UNION SELECT customer_id FROM sales.customers
----
SELECT customer_id FROM sales.orders UNION ALL (SELECT customer_id FROM sales.customers)
----
SELECT customer_id FROM sales.orders INTERSECT SELECT customer_id FROM sales.customers
----
SELECT customer_id FROM sales.orders EXCEPT SELECT customer_id FROM sales.customers
----
(SELECT 1) UNION (SELECT 2)
----
SELECT * FROM sales.orders WHERE customer_id IN (SELECT customer_id FROM sales.customers)
----
SELECT * FROM sales.orders WHERE customer_id = ANY (SELECT customer_id FROM sales.customers)
----
SELECT * FROM sales.orders WHERE amount > ALL (SELECT amount FROM sales.orders WHERE status = 'void')
----
SELECT * FROM sales.customers c WHERE EXISTS (SELECT 1 FROM sales.orders o WHERE o.customer_id = c.customer_id)
----
SELECT * FROM sales.customers c WHERE NOT EXISTS (SELECT 1 FROM sales.orders o WHERE o.customer_id = c.customer_id)
----
SELECT * FROM sales.orders WHERE NOT (amount > 10 AND status = 'paid')
----
SELECT * FROM sales.orders WHERE amount BETWEEN 1 AND 10 AND status LIKE 'p%' ESCAPE '\'
----
SELECT * FROM sales.orders WHERE status IS DISTINCT FROM 'void' AND tags IS NOT NULL
----
SELECT order_id, row_number() OVER (PARTITION BY customer_id ORDER BY ordered_on) FROM sales.orders
----
SELECT order_id, rank() OVER (ORDER BY amount DESC), dense_rank() OVER (ORDER BY amount), percent_rank() OVER (ORDER BY amount), cume_dist() OVER (ORDER BY amount), ntile(4) OVER (ORDER BY amount) FROM sales.orders
----
SELECT order_id, lag(amount) OVER w, lead(amount, 1, 0) OVER w, first_value(amount) OVER w, last_value(amount) OVER w, nth_value(amount, 2) OVER w FROM sales.orders WINDOW w AS (PARTITION BY customer_id ORDER BY ordered_on)
----
SELECT order_id, sum(amount) OVER (ORDER BY ordered_on ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM sales.orders
----
SELECT order_id, avg(amount) OVER (ORDER BY ordered_on RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM sales.orders
----
SELECT count(*) FILTER (WHERE status = 'paid'), sum(amount) FILTER (WHERE amount > 5) FROM sales.orders
----
SELECT count(*) FILTER (WHERE status = 'paid') OVER (PARTITION BY customer_id) FROM sales.orders
----
SELECT listagg(status, ',') WITHIN GROUP (ORDER BY status) FROM sales.orders
----
SELECT array_agg(status ORDER BY ordered_on), map_agg(order_id, amount), histogram(status) FROM sales.orders
----
SELECT approx_distinct(customer_id), approx_distinct(customer_id, 0.01), approx_percentile(amount, 0.5), approx_percentile(amount, ARRAY[0.25, 0.5, 0.75]) FROM sales.orders
----
SELECT approx_most_frequent(3, status, 100), cardinality(approx_set(customer_id)), cardinality(approx_set(customer_id)) AS n FROM sales.orders
----
SELECT value_at_quantile(tdigest_agg(amount), 0.9), values_at_quantiles(qdigest_agg(amount), ARRAY[0.5, 0.9]) FROM sales.orders
----
SELECT stddev(amount), stddev_pop(amount), variance(amount), var_samp(amount), kurtosis(amount), skewness(amount), corr(amount, order_id), covar_pop(amount, order_id), regr_slope(amount, order_id), geometric_mean(amount) FROM sales.orders
----
SELECT bool_and(amount > 0), bool_or(amount > 100), every(amount > 0), count_if(amount > 10), arbitrary(status), any_value(status), max_by(status, amount), min_by(status, amount), checksum(status) FROM sales.orders
----
SELECT status, customer_id, count(*) FROM sales.orders GROUP BY GROUPING SETS ((status), (customer_id), ())
----
SELECT status, customer_id, count(*), grouping(status, customer_id) FROM sales.orders GROUP BY CUBE (status, customer_id)
----
SELECT status, count(*) FROM sales.orders GROUP BY ROLLUP (status)
----
SELECT CASE WHEN amount > 10 THEN 'big' WHEN amount > 5 THEN 'mid' ELSE 'small' END FROM sales.orders
----
SELECT CASE status WHEN 'paid' THEN 1 ELSE 0 END FROM sales.orders
----
SELECT if(amount > 10, 'big', 'small'), coalesce(status, 'none'), nullif(status, ''), greatest(1, 2), least(1, 2), try(amount / 0) FROM sales.orders
----
SELECT CAST(amount AS varchar), TRY_CAST(status AS integer), CAST(amount AS decimal(18, 4)), CAST(order_id AS varchar(20)), CAST('2024-01-02' AS date) FROM sales.orders
----
SELECT CAST(ROW(1, 'a') AS ROW(x bigint, y varchar)), CAST(ARRAY[1, 2] AS ARRAY(decimal(10, 2))), CAST(MAP(ARRAY['a'], ARRAY[1]) AS MAP(varchar, bigint))
----
SELECT TRY_CAST(ordered_on AS timestamp(3) with time zone), CAST(NULL AS ARRAY(ROW(a decimal(10, 2), b varchar(5)))) FROM sales.orders
----
SELECT upper(status), lower(status), length(status), substr(status, 1, 2), substring(status FROM 1 FOR 2), trim(status), ltrim(status), rtrim(status), lpad(status, 10, '*'), rpad(status, 10, ' '), reverse(status) FROM sales.orders
----
SELECT trim(BOTH 'x' FROM status), position('a' IN status), strpos(status, 'a'), replace(status, 'a', 'b'), split(status, 'a'), split_part(status, 'a', 1), concat(status, '-', status), status || '!', concat_ws(',', status, status), starts_with(status, 'p') FROM sales.orders
----
SELECT regexp_like(status, '^p'), regexp_extract(status, '(a+)', 1), regexp_extract_all(status, 'a'), regexp_replace(status, 'a', 'b'), regexp_split(status, 'a'), regexp_count(status, 'a'), regexp_position(status, 'a') FROM sales.orders
----
SELECT levenshtein_distance(status, 'paid'), hamming_distance(status, reverse(status)), soundex(status), chr(65), codepoint('A'), normalize(status, NFKC), to_utf8(status), from_utf8(to_utf8(status)), format('%s-%d', status, 1), translate(status, 'a', 'b'), luhn_check('79927398713') FROM sales.orders
----
SELECT md5(to_utf8(status)), sha256(to_utf8(status)), sha1(to_utf8(status)), xxhash64(to_utf8(status)), crc32(to_utf8(status)), to_hex(md5(to_utf8(status))), to_base64(to_utf8(status)), from_base64('QQ=='), murmur3(to_utf8(status)), hmac_sha256(to_utf8(status), to_utf8('k')) FROM sales.orders
----
SELECT abs(-1), ceil(1.5), floor(1.5), round(2.567, 2), truncate(2.5), sqrt(16), cbrt(27), power(2, 10), exp(1), ln(10), log10(100), log2(8), log(2, 8), sign(-3), mod(7, 3), pi(), e(), degrees(1), radians(90), width_bucket(5, 0, 10, 5), is_nan(nan()), is_infinite(infinity()), is_finite(1.0)
----
SELECT sin(1), cos(1), tan(1), asin(0.5), acos(0.5), atan(1), atan2(1, 2), sinh(1), cosh(1), tanh(1), bitwise_and(5, 3), bitwise_or(5, 3), bitwise_xor(5, 3), bitwise_not(5), bit_count(7, 64), from_base('ff', 16), to_base(255, 16), normal_cdf(0, 1, 0.5), beta_cdf(2, 3, 0.5)
----
SELECT rand() < 2, random() < 2, uuid() IS NOT NULL
----
SELECT date_trunc('month', ordered_on), date_add('day', 1, ordered_on), date_diff('day', ordered_on, current_date), year(ordered_on), month(ordered_on), day(ordered_on), day_of_week(ordered_on), day_of_year(ordered_on), quarter(ordered_on), week(ordered_on), last_day_of_month(ordered_on) FROM sales.orders
----
SELECT EXTRACT(YEAR FROM ordered_on), EXTRACT(DOW FROM ordered_on), date_format(ordered_on, '%Y-%m-%d'), format_datetime(CAST(ordered_on AS timestamp), 'yyyy-MM'), date_parse('2024-01-02', '%Y-%m-%d'), parse_datetime('2024-01-02', 'yyyy-MM-dd'), from_iso8601_date('2024-01-02'), to_iso8601(ordered_on) FROM sales.orders
----
SELECT from_unixtime(1700000000), to_unixtime(current_timestamp), now(), current_timestamp, current_timestamp(3), localtimestamp, localtimestamp(3), current_date, current_time, current_timezone(), human_readable_seconds(3600), parse_duration('1h'), to_milliseconds(INTERVAL '1' HOUR)
----
SELECT ordered_on + INTERVAL '1' DAY, current_timestamp AT TIME ZONE 'UTC', with_timezone(TIMESTAMP '2024-01-02 03:04:05', 'Europe/Oslo'), at_timezone(current_timestamp, 'UTC'), hour(current_timestamp), minute(current_timestamp), second(current_timestamp), millisecond(current_timestamp), timezone_hour(current_timestamp) FROM sales.orders
----
SELECT DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05', TIME '03:04:05', INTERVAL '2' HOUR, DECIMAL '1.5', REAL '1.5', DOUBLE '1.5', X'41', U&'\0041', JSON '{"a": 1}'
----
SELECT cardinality(tags), element_at(tags, 1), contains(tags, 'x'), array_distinct(tags), array_join(tags, ','), array_sort(tags), array_max(tags), array_min(tags), array_position(tags, 'x'), array_remove(tags, 'x'), slice(tags, 1, 2), reverse(tags), flatten(ARRAY[tags]), arrays_overlap(tags, ARRAY['x']) FROM sales.orders
----
SELECT transform(tags, t -> upper(t)), filter(tags, t -> t <> 'x'), reduce(ARRAY[1, 2, 3], 0, (s, x) -> s + x, s -> s), any_match(tags, t -> t = 'x'), all_match(tags, t -> t <> ''), none_match(tags, t -> t IS NULL), zip_with(ARRAY[1], ARRAY[2], (a, b) -> a + b), array_sort(tags, (a, b) -> IF(a < b, -1, 1)) FROM sales.orders
----
SELECT ARRAY[1, 2, 3], ARRAY[1, 2][1], sequence(1, 5), repeat('x', 3), combinations(ARRAY[1, 2, 3], 2), ngrams(ARRAY['a', 'b', 'c'], 2), zip(ARRAY[1], ARRAY['a']), shuffle(ARRAY[1, 2]), trim_array(ARRAY[1, 2, 3], 1), array_union(ARRAY[1], ARRAY[2]), array_intersect(ARRAY[1], ARRAY[1]), array_except(ARRAY[1, 2], ARRAY[1]), contains_sequence(ARRAY[1, 2], ARRAY[1])
----
SELECT MAP(ARRAY['a', 'b'], ARRAY[1, 2]), map_keys(MAP(ARRAY['a'], ARRAY[1])), map_values(MAP(ARRAY['a'], ARRAY[1])), map_entries(MAP(ARRAY['a'], ARRAY[1])), map_from_entries(ARRAY[ROW('a', 1)]), map_concat(MAP(ARRAY['a'], ARRAY[1]), MAP(ARRAY['b'], ARRAY[2])), element_at(MAP(ARRAY['a'], ARRAY[1]), 'a'), MAP(ARRAY['a'], ARRAY[1])['a']
----
SELECT map_filter(MAP(ARRAY['a'], ARRAY[1]), (k, v) -> v > 0), transform_keys(MAP(ARRAY['a'], ARRAY[1]), (k, v) -> upper(k)), transform_values(MAP(ARRAY['a'], ARRAY[1]), (k, v) -> v * 2), map_zip_with(MAP(ARRAY['a'], ARRAY[1]), MAP(ARRAY['a'], ARRAY[2]), (k, v1, v2) -> v1 + v2), multimap_from_entries(ARRAY[ROW('a', 1)])
----
SELECT ROW(1, 'a'), ROW(1, 'a')[1], CAST(ROW(1) AS ROW(x bigint)).x
----
SELECT json_extract(j, '$.a'), json_extract_scalar(j, '$.a'), json_array_length(json_parse('[1, 2]')), json_array_get(json_parse('[1, 2]'), 0), json_array_contains(json_parse('[1]'), 1), json_format(json_parse('{}')), json_size(json_parse('{"a": [1]}'), '$.a'), is_json_scalar(json_parse('1')) FROM (VALUES JSON '{"a": 1}') AS t (j)
----
SELECT json_exists(j, 'lax $.a'), json_value(j, 'lax $.a' RETURNING varchar(10)), json_value(j, 'lax $.a' RETURNING decimal(10, 2) DEFAULT CAST(0 AS decimal(10, 2)) ON EMPTY), json_query(j, 'lax $.a' WITH ARRAY WRAPPER), json_array(1, 2), json_object(KEY 'a' VALUE 1) FROM (VALUES '{"a": 1}') AS t (j)
----
SELECT url_extract_host('https://example.com/a?b=1'), url_extract_parameter('https://example.com/a?b=1', 'b'), url_extract_path('https://example.com/a'), url_encode('a b'), url_decode('a%20b')
----
SELECT o.order_id, t.tag FROM sales.orders o CROSS JOIN UNNEST(o.tags) AS t (tag)
----
SELECT o.order_id, t.tag, t.n FROM sales.orders o CROSS JOIN UNNEST(o.tags) WITH ORDINALITY AS t (tag, n)
----
SELECT * FROM UNNEST(ARRAY[1, 2, 3]) AS u (x)
----
SELECT * FROM sales.orders o, LATERAL (SELECT count(*) AS n FROM sales.customers c WHERE c.customer_id = o.customer_id) x
----
SELECT * FROM sales.orders TABLESAMPLE BERNOULLI (10)
----
SELECT * FROM sales.orders o TABLESAMPLE SYSTEM (5.5)
----
SELECT * FROM sales.orders ORDER BY amount DESC NULLS LAST OFFSET 2 ROWS FETCH FIRST 5 ROWS ONLY
----
SELECT DISTINCT status FROM sales.orders
----
SELECT status FROM sales.orders ORDER BY status LIMIT 3
----
SELECT (SELECT max(amount) FROM sales.orders) AS top, (1 + 2) * 3
----
SELECT 'TABLE(system.query(query => ''DROP TABLE x''))' AS s, 'raw_query(1)', 'system.runtime.queries'
----
SELECT 1 -- TABLE(system.query(query => 'x')) in a comment
----
SELECT /* CALL system.runtime.kill_query('x') */ 1
----
SELECT "select", "from" FROM (SELECT 1 AS "select", 2 AS "from") t
----
SELECT order_id AS "table", amount AS "query" FROM sales.orders
----
SELECT "table".order_id FROM sales.orders AS "table"
----
SELECT 'Ærøskøbing ✓' AS "städte", length('日本語')
----
SELECT count(*) n FROM sales.orders ORDER BY n
----
SELECT typeof(amount), version() FROM sales.orders
----
SELECT current_user, current_catalog, current_schema
----
SELECT * FROM information_schema.columns WHERE table_schema = 'sales'
----
SELECT table_name FROM hive.information_schema.tables WHERE table_schema = 'sales'
----
SELECT * FROM information_schema.schemata
----
SHOW TABLES
----
SHOW TABLES FROM sales
----
SHOW TABLES FROM hive.sales LIKE 'ord%'
----
SHOW SCHEMAS
----
SHOW SCHEMAS FROM hive
----
SHOW CATALOGS
----
SHOW COLUMNS FROM sales.orders
----
SHOW COLUMNS FROM hive.sales.orders
----
SHOW CREATE TABLE sales.orders
----
SHOW CREATE VIEW sales.order_totals
----
SHOW STATS FOR sales.orders
----
SHOW STATS FOR (SELECT * FROM sales.orders WHERE amount > 1)
----
SHOW FUNCTIONS LIKE 'approx%'
----
DESCRIBE sales.orders
----
DESC hive.sales.orders
----
EXPLAIN SELECT * FROM sales.orders
----
EXPLAIN (TYPE DISTRIBUTED) SELECT * FROM sales.orders
----
EXPLAIN (FORMAT JSON) SELECT count(*) FROM sales.orders
----
EXPLAIN (TYPE IO, FORMAT JSON) SELECT * FROM sales.orders
----
EXPLAIN ANALYZE SELECT count(*) FROM sales.orders
----
EXPLAIN ANALYZE VERBOSE SELECT status, count(*) FROM sales.orders GROUP BY status
----
SELECT
  order_id,
  amount
FROM
  sales.orders
WHERE
  amount > 0
----
SELECT 1;
----
SELECT order_id FROM sales.orders WHERE ordered_on >= DATE '2024-01-01' AND ordered_on < DATE '2024-02-01'
----
SELECT CAST("c" AS VARCHAR), TRY_CAST("c" AS DOUBLE), length("c"), COUNT(CASE WHEN TRIM("c") = '' THEN 1 END), approx_distinct("c", 0.0040625), approx_percentile(TRY_CAST("c" AS DOUBLE), 0.5), EXTRACT(YEAR FROM TRY_CAST("c" AS TIMESTAMP)), date_format(TRY_CAST("c" AS TIMESTAMP), '%Y-%m-%d') FROM "hive"."sales"."orders" s TABLESAMPLE BERNOULLI (3.33333)
----
SELECT COUNT(*) FROM (SELECT * FROM (SELECT * FROM "hive"."sales"."orders") o WHERE rand() < 0.0333333) s
----
SELECT rn, v, cnt FROM (SELECT "c" AS v, ROW_NUMBER() OVER (ORDER BY "c") - 1 AS rn, COUNT(*) OVER () AS cnt FROM "hive"."sales"."orders" WHERE "c" IS NOT NULL) rk WHERE rn BETWEEN 0.25 * (cnt - 1) - 1 AND 0.25 * (cnt - 1) + 1
----
SELECT "orders$partitions".* FROM sales."orders$partitions"
----
SELECT system_id FROM sales.orders AS o (system_id, a, b, c, d, e)
----
SELECT count(*) FROM sales.orders WHERE status IN ('paid', 'open') AND customer_id NOT IN (1, 2)
----
SELECT order_id FROM sales.orders WHERE amount > (SELECT avg(amount) FROM sales.orders)
----
--# merge of HyperLogLog sketches: MERGE is a statement keyword only before INTO
SELECT cardinality(merge(s)) FROM (SELECT approx_set(customer_id) AS s FROM sales.orders GROUP BY status) t
