--# Reads an analyst or an agent writes on Spark SQL; every one must pass
--# the guard and run on the test server (tables of fixture.sql in its
--# database guardfix: orders, customers, events partitioned by day, the
--# view order_totals).
SELECT 1
----
SELECT * FROM orders
----
SELECT id, amount FROM orders WHERE status = 'paid' ORDER BY amount DESC LIMIT 10
----
SELECT * FROM `orders`
----
SELECT * FROM guardfix.orders
----
SELECT * FROM `guardfix`.`orders` o
----
SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id
----
SELECT o.id, c.name FROM orders o LEFT JOIN customers c ON c.id = o.customer_id WHERE c.id IS NULL
----
SELECT * FROM orders o LEFT SEMI JOIN customers c ON c.id = o.customer_id
----
SELECT * FROM orders o LEFT ANTI JOIN customers c ON c.id = o.customer_id
----
SELECT status, count(*) AS n, sum(amount) AS total FROM orders GROUP BY status HAVING count(*) > 1
----
SELECT status, count(DISTINCT customer_id) FROM orders GROUP BY status
----
SELECT size(collect_set(status)), approx_count_distinct(customer_id, 0.01) FROM orders
----
SELECT percentile(amount, 0.5), percentile_approx(amount, 0.9, 10000), median(amount) FROM orders
----
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY amount) FROM orders
----
SELECT id, row_number() OVER (PARTITION BY customer_id ORDER BY ordered_at) AS rn FROM orders
----
SELECT id, sum(amount) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM orders
----
SELECT id, lag(amount, 1) OVER w, lead(amount) OVER w FROM orders WINDOW w AS (ORDER BY id)
----
SELECT count(*) FILTER (WHERE status = 'paid') FROM orders
----
WITH paid AS (SELECT * FROM orders WHERE status = 'paid') SELECT count(*) FROM paid
----
WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM b
----
WITH t (a, b) AS (SELECT 1, 2) SELECT a + b FROM t
----
SELECT * FROM VALUES (1, 'a'), (2, 'b') AS t(id, name)
----
VALUES (1, 'a'), (2, 'b')
----
TABLE orders
----
SHOW TABLES
----
SHOW TABLES IN guardfix
----
SHOW DATABASES
----
SHOW COLUMNS IN orders
----
SHOW PARTITIONS events
----
SHOW CREATE TABLE orders
----
SHOW TBLPROPERTIES orders
----
SHOW FUNCTIONS LIKE 'approx*'
----
DESCRIBE orders
----
DESCRIBE TABLE EXTENDED orders
----
DESC orders
----
DESCRIBE FUNCTION percentile
----
EXPLAIN SELECT * FROM orders WHERE id = 1
----
SELECT CAST(amount AS STRING), TRY_CAST(status AS DOUBLE) FROM orders
----
SELECT CAST(amount AS DECIMAL(12, 2)) FROM orders
----
SELECT CAST(id AS VARCHAR(20)) FROM orders
----
SELECT CASE WHEN amount > 100 THEN 'big' ELSE 'small' END FROM orders
----
SELECT coalesce(customer_id, 0), nvl(status, '?'), nullif(status, '') FROM orders
----
SELECT date_format(ordered_at, 'yyyy-MM-dd'), year(ordered_at), dayofweek(ordered_at) FROM orders
----
SELECT EXTRACT(YEAR FROM ordered_at), date_trunc('MONTH', ordered_at) FROM orders
----
SELECT datediff(current_date(), CAST(ordered_at AS DATE)) FROM orders
----
SELECT lower(trim(status)), upper(status), length(status), char_length(status) FROM orders
----
SELECT regexp_extract(status, '^(p)', 1), status RLIKE '^p' FROM orders
----
SELECT * FROM orders WHERE status LIKE 'p%' AND status NOT LIKE '%x'
----
SELECT * FROM orders WHERE status IN ('paid', 'shipped')
----
SELECT * FROM orders WHERE customer_id IN (SELECT id FROM customers)
----
SELECT * FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.id = o.customer_id)
----
SELECT id, CASE WHEN EXISTS (SELECT 1 FROM customers c WHERE c.id = o.customer_id) THEN 1 END FROM orders o
----
SELECT * FROM orders WHERE amount BETWEEN 10 AND 100
----
SELECT 'it''s', 'a\'b', "double quoted text", 'back\\slash'
----
SELECT 'a' || 'b', concat('a', 'b'), concat_ws('-', 'a', 'b')
----
SELECT * FROM orders TABLESAMPLE (10 PERCENT) REPEATABLE (7) s
----
SELECT * FROM orders TABLESAMPLE (50 PERCENT)
----
SELECT * FROM orders WHERE rand() < 0.5
----
SELECT explode(array(1, 2, 3))
----
SELECT * FROM range(10)
----
SELECT id FROM range(5) WHERE id > 2
----
SELECT c.id, e.x FROM customers c LATERAL VIEW explode(array(1, 2)) e AS x
----
SELECT transform(array(1, 2), x -> x + 1), filter(array(1, 2), x -> x > 1)
----
SELECT aggregate(array(1, 2, 3), 0, (acc, x) -> acc + x)
----
SELECT map('a', 1), named_struct('a', 1), struct(1, 2), array(1, 2)
----
SELECT from_json('{"a": 1}', 'a INT'), to_json(named_struct('a', 1)), get_json_object('{"a": 1}', '$.a')
----
SELECT md5('x'), sha2('x', 256), hash('x'), xxhash64('x')
----
SELECT * FROM orders ORDER BY amount DESC NULLS LAST LIMIT 5 OFFSET 1
----
SELECT status FROM orders UNION ALL SELECT name FROM customers
----
SELECT status FROM orders UNION SELECT name FROM customers
----
SELECT id FROM orders INTERSECT SELECT id FROM customers
----
SELECT id FROM orders EXCEPT SELECT id FROM customers
----
SELECT * FROM (SELECT id, amount FROM orders) t (a, b)
----
SELECT /*+ BROADCAST(c) */ o.id FROM orders o JOIN customers c ON c.id = o.customer_id
----
-- a comment
SELECT 2
----
SELECT 1 /* block /* nested */ comment */
----
SELECT 1;
----
SELECT any_value(status), first(status), last(status), max_by(id, amount), min_by(id, amount) FROM orders
----
SELECT stddev(amount), variance(amount), corr(amount, id), skewness(amount), kurtosis(amount) FROM orders
----
SELECT grouping(status), count(*) FROM orders GROUP BY ROLLUP (status)
----
SELECT status, count(*) FROM orders GROUP BY GROUPING SETS ((status), ())
----
SELECT status, customer_id, count(*) FROM orders GROUP BY CUBE (status, customer_id)
----
SELECT * FROM (SELECT status, amount FROM orders) PIVOT (sum(amount) FOR status IN ('paid', 'new'))
----
SELECT day, count(*) FROM events GROUP BY day ORDER BY day
----
SELECT * FROM events WHERE day = '2024-01-02'
----
SELECT * FROM order_totals
----
SELECT typeof(amount), version(), current_database(), current_user() FROM orders LIMIT 1
----
SELECT uuid(), monotonically_increasing_id(), spark_partition_id() FROM orders LIMIT 1
----
SELECT id <=> customer_id, id == customer_id, id != customer_id FROM orders
----
SELECT * FROM orders WHERE amount > (SELECT avg(amount) FROM orders)
----
SELECT try_divide(amount, 0), try_add(id, 1), pmod(id, 3), id DIV 2 FROM orders
----
SELECT to_date('2024-01-02'), to_timestamp('2024-01-02 03:04:05'), make_date(2024, 1, 2)
----
SELECT INTERVAL '1' DAY, current_timestamp() - INTERVAL 1 HOUR
----
SELECT DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05'
----
SELECT X'0AFF', 1L, 2S, 3Y, 1.5D, 2.5BD, 1e3
----
SELECT map(1, 2)[1], array(1, 2)[0], named_struct('a', 1).a
----
SELECT sequence(1, 5), array_sort(array(3, 1)), size(array(1))
----
SELECT stack(2, 1, 'a', 2, 'b')
----
SELECT inline(array(named_struct('a', 1)))
----
SELECT window(ordered_at, '1 day').start, count(*) FROM orders GROUP BY window(ordered_at, '1 day')
