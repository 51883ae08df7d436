--# plain reads
SELECT * FROM customers
----
--# plain reads
SELECT id, name FROM customers WHERE id = 1
----
--# plain reads
SELECT * FROM shop.customers LIMIT 10
----
--# plain reads
SELECT * FROM `shop`.`orders` ORDER BY id DESC LIMIT 5 OFFSET 10
----
--# plain reads
SELECT DISTINCT country FROM customers
----
--# plain reads
SELECT COUNT(*) AS n FROM orders
----
--# plain reads
SELECT COUNT(*) n FROM orders ORDER BY n
----
--# plain reads
TABLE customers
----
--# plain reads
SELECT 1
----
--# plain reads
SELECT 1 FROM dual
----
--# plain reads
SELECT * FROM customers;
----
--# plain reads
select id from customers where name is not null and id between 1 and 10
----
--# plain reads
SELECT c.* FROM customers AS c
----
--# plain reads
SELECT * FROM Users
----
--# strings, escapes and quoting
SELECT * FROM customers WHERE name = 'O\'Brien'
----
--# strings, escapes and quoting
SELECT * FROM customers WHERE name = 'O''Brien'
----
--# strings, escapes and quoting
SELECT * FROM customers WHERE name LIKE '%\_%' ESCAPE '\\'
----
--# strings, escapes and quoting
SELECT * FROM customers WHERE name LIKE '50!%' ESCAPE '!'
----
--# strings, escapes and quoting
SELECT 'a\nb', 'tab\there', 'back\\slash'
----
--# strings, escapes and quoting
SELECT "double quoted string", 'it''s'
----
--# strings, escapes and quoting
SELECT 'LOAD_FILE(''/etc/passwd'')' AS just_text
----
--# strings, escapes and quoting
SELECT 'SELECT SLEEP(1); DROP TABLE customers' AS also_text
----
--# strings, escapes and quoting
SELECT '/*! not a comment */' AS text
----
--# strings, escapes and quoting
SELECT `from`, `where` FROM `select`
----
--# strings, escapes and quoting
SELECT `order`.id FROM orders AS `order`
----
--# strings, escapes and quoting
SELECT id AS `count`, name AS `select` FROM customers
----
--# strings, escapes and quoting
SELECT * FROM `order items`
----
--# strings, escapes and quoting
SELECT _utf8mb4'naïve' COLLATE utf8mb4_bin, N'text', X'414243', 0x41, b'0101'
----
--# strings, escapes and quoting
SELECT 'naïve ☃ 日本語' AS unicode
----
--# strings, escapes and quoting
SELECT id FROM customers -- trailing comment
----
--# strings, escapes and quoting
SELECT id /* inline comment */ FROM customers # another comment
----
--# strings, escapes and quoting
SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM customers
----
--# strings, escapes and quoting
SELECT /*+ BKA(o) NO_ICP(c) */ * FROM customers c JOIN orders o ON o.customer_id = c.id
----
--# aggregates and grouping
SELECT country, COUNT(*) FROM customers GROUP BY country HAVING COUNT(*) > 1
----
--# aggregates and grouping
SELECT country, COUNT(*) FROM customers GROUP BY country WITH ROLLUP
----
--# aggregates and grouping
SELECT MIN(id), MAX(id), AVG(id), SUM(id), STDDEV(id), VARIANCE(id) FROM orders
----
--# aggregates and grouping
SELECT STDDEV_POP(amount), STDDEV_SAMP(amount), VAR_POP(amount), VAR_SAMP(amount), STD(amount) FROM orders
----
--# aggregates and grouping
SELECT BIT_AND(id), BIT_OR(id), BIT_XOR(id) FROM orders
----
--# aggregates and grouping
SELECT GROUP_CONCAT(name ORDER BY name SEPARATOR ', ') FROM customers
----
--# aggregates and grouping
SELECT GROUP_CONCAT(DISTINCT country) FROM customers
----
--# aggregates and grouping
SELECT COUNT(DISTINCT customer_id) FROM orders
----
--# aggregates and grouping
SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id ORDER BY total DESC LIMIT 10
----
--# aggregates and grouping
SELECT JSON_ARRAYAGG(id), JSON_OBJECTAGG(id, name) FROM customers
----
--# joins and subqueries
SELECT c.name, o.id FROM customers c JOIN orders o ON o.customer_id = c.id
----
--# joins and subqueries
SELECT c.name, o.id FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL
----
--# joins and subqueries
SELECT * FROM customers c RIGHT OUTER JOIN orders o USING (id)
----
--# joins and subqueries
SELECT * FROM customers NATURAL JOIN orders
----
--# joins and subqueries
SELECT * FROM customers STRAIGHT_JOIN orders
----
--# joins and subqueries
SELECT * FROM customers c CROSS JOIN products p
----
--# joins and subqueries
SELECT * FROM customers, orders WHERE orders.customer_id = customers.id
----
--# joins and subqueries
SELECT * FROM customers WHERE id IN (SELECT customer_id FROM orders)
----
--# joins and subqueries
SELECT * FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)
----
--# joins and subqueries
SELECT * FROM customers WHERE id > ALL (SELECT customer_id FROM orders)
----
--# joins and subqueries
SELECT * FROM customers WHERE id = ANY (SELECT customer_id FROM orders)
----
--# joins and subqueries
SELECT (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) AS n FROM customers c
----
--# joins and subqueries
SELECT * FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) t WHERE n > 2
----
--# joins and subqueries
SELECT * FROM customers c JOIN LATERAL (SELECT * FROM orders o WHERE o.customer_id = c.id LIMIT 1) x ON TRUE
----
--# joins and subqueries
SELECT * FROM customers USE INDEX (PRIMARY) WHERE id > 3
----
--# joins and subqueries
SELECT * FROM customers FORCE INDEX (PRIMARY) WHERE id > 3
----
--# joins and subqueries
SELECT * FROM orders IGNORE INDEX (idx) ORDER BY id
----
--# set operations
SELECT id FROM customers UNION SELECT customer_id FROM orders
----
--# set operations
SELECT id FROM customers UNION ALL SELECT customer_id FROM orders ORDER BY 1 LIMIT 5
----
--# set operations
(SELECT id FROM customers) UNION (SELECT id FROM products)
----
--# set operations
SELECT id FROM customers EXCEPT SELECT customer_id FROM orders
----
--# set operations
SELECT id FROM customers INTERSECT SELECT customer_id FROM orders
----
--# CTEs
WITH big AS (SELECT * FROM orders WHERE amount > 100) SELECT COUNT(*) FROM big
----
--# CTEs
WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM a JOIN b
----
--# CTEs
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT * FROM n
----
--# CTEs
WITH RECURSIVE tree AS (SELECT id, 0 AS depth FROM customers WHERE id = 1 UNION ALL SELECT c.id, t.depth + 1 FROM customers c JOIN tree t ON c.id = t.id + 1 WHERE t.depth < 5) SELECT * FROM tree
----
--# CTEs
WITH t AS (SELECT id FROM customers) SELECT * FROM orders WHERE customer_id IN (SELECT id FROM t)
----
--# CTEs
WITH customers AS (SELECT * FROM customers WHERE id < 5) SELECT * FROM customers
----
--# CTEs
WITH `x y` AS (SELECT 1 AS `a b`) SELECT `a b` FROM `x y`
----
--# window functions
SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM customers
----
--# window functions
SELECT id, RANK() OVER w, DENSE_RANK() OVER w FROM orders WINDOW w AS (PARTITION BY customer_id ORDER BY amount)
----
--# window functions
SELECT id, SUM(amount) OVER (PARTITION BY customer_id ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM orders
----
--# window functions
SELECT id, LAG(amount) OVER (ORDER BY id), LEAD(amount, 2, 0) OVER (ORDER BY id) FROM orders
----
--# window functions
SELECT id, FIRST_VALUE(amount) OVER w, LAST_VALUE(amount) OVER w, NTH_VALUE(amount, 2) OVER w FROM orders WINDOW w AS (ORDER BY id)
----
--# window functions
SELECT id, NTILE(4) OVER (ORDER BY amount), PERCENT_RANK() OVER (ORDER BY amount), CUME_DIST() OVER (ORDER BY amount) FROM orders
----
--# window functions
SELECT id, COUNT(*) OVER (), AVG(amount) OVER (PARTITION BY customer_id) FROM orders
----
--# window functions
SELECT * FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY id DESC) AS rn FROM orders) t WHERE rn = 1
----
--# strings and numbers
SELECT CONCAT(name, ' <', email, '>'), CONCAT_WS(',', id, name) FROM customers
----
--# strings and numbers
SELECT UPPER(name), LOWER(name), LENGTH(name), CHAR_LENGTH(name), TRIM(name), LTRIM(name), RTRIM(name) FROM customers
----
--# strings and numbers
SELECT SUBSTRING(name, 1, 3), SUBSTR(name, 2), SUBSTRING_INDEX(email, '@', -1), LEFT(name, 2), RIGHT(name, 2) FROM customers
----
--# strings and numbers
SELECT LOCATE('@', email), INSTR(email, '@'), POSITION('@' IN email), REPLACE(email, '@', ' at ') FROM customers
----
--# strings and numbers
SELECT LPAD(id, 5, '0'), RPAD(name, 10, '.'), REPEAT('-', 3), REVERSE(name), SPACE(2) FROM customers
----
--# strings and numbers
SELECT INSERT(name, 1, 1, 'X'), ELT(2, 'a', 'b'), FIELD('b', 'a', 'b'), FIND_IN_SET('b', 'a,b,c') FROM customers
----
--# strings and numbers
SELECT CONV(id, 10, 16), HEX(id), UNHEX('41'), BIN(id), OCT(id), ASCII(name), ORD(name) FROM customers
----
--# strings and numbers
SELECT SHA1(email), SHA2(email, 256), MD5(email), CRC32(email), TO_BASE64(email), FROM_BASE64('YQ==') FROM customers
----
--# strings and numbers
SELECT CAST(CONV(SUBSTRING(SHA1(CONCAT('seed:', id)), 1, 15), 16, 10) AS SIGNED) % 100 FROM customers
----
--# strings and numbers
SELECT name REGEXP '^A', REGEXP_SUBSTR(name, '[0-9]+'), REGEXP_REPLACE(name, '[aeiou]', ''), REGEXP_INSTR(name, 'a') FROM customers
----
--# strings and numbers
SELECT name RLIKE 'x', name NOT LIKE 'a%', SOUNDEX(name), STRCMP(name, 'b') FROM customers
----
--# strings and numbers
SELECT ABS(-1), CEIL(1.2), FLOOR(1.8), ROUND(1.25, 1), TRUNCATE(1.999, 2), MOD(7, 3), 7 DIV 2, 7 % 3, POWER(2, 10), SQRT(16)
----
--# strings and numbers
SELECT LN(10), LOG(10), LOG2(8), LOG10(100), EXP(1), PI(), SIN(1), COS(1), TAN(1), SIGN(-2), GREATEST(1, 2), LEAST(1, 2)
----
--# strings and numbers
SELECT RAND(42) < 0.5 AS sampled, id FROM customers
----
--# strings and numbers
SELECT * FROM customers WHERE RAND(7) < 0.1
----
--# strings and numbers
SELECT FORMAT(1234567.891, 2), CHAR(77, 121, 83, 81, 76), CHAR(65 USING latin1), QUOTE('x'), BIT_COUNT(7)
----
--# strings and numbers
SELECT 1 + 2 * 3 - 4 / 5, -id, ~id, id << 1, id >> 1, id & 1, id | 2, id ^ 3 FROM customers
----
--# dates and times
SELECT DATE_FORMAT(created_at, '%Y-%m'), COUNT(*) FROM orders GROUP BY 1
----
--# dates and times
SELECT DAYOFWEEK(created_at), DAYNAME(created_at), MONTHNAME(created_at), WEEK(created_at), QUARTER(created_at) FROM orders
----
--# dates and times
SELECT YEAR(created_at), MONTH(created_at), DAY(created_at), HOUR(created_at), MINUTE(created_at), SECOND(created_at) FROM orders
----
--# dates and times
SELECT STR_TO_DATE('01,5,2013', '%d,%m,%Y'), TIMESTAMPDIFF(DAY, '2024-01-01', NOW()), DATEDIFF(NOW(), '2024-01-01')
----
--# dates and times
SELECT DATE_ADD(created_at, INTERVAL 1 DAY), DATE_SUB(created_at, INTERVAL 2 HOUR), created_at + INTERVAL 1 MONTH FROM orders
----
--# dates and times
SELECT * FROM orders WHERE created_at >= NOW() - INTERVAL 7 DAY
----
--# dates and times
SELECT * FROM orders WHERE created_at BETWEEN '2024-01-01' AND CURDATE() + INTERVAL 1 DAY
----
--# dates and times
SELECT EXTRACT(YEAR FROM created_at), EXTRACT(YEAR_MONTH FROM created_at) FROM orders
----
--# dates and times
SELECT UNIX_TIMESTAMP(created_at), FROM_UNIXTIME(0), CONVERT_TZ(created_at, '+00:00', '+01:00') FROM orders
----
--# dates and times
SELECT CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, NOW(6), SYSDATE(), UTC_TIMESTAMP(), LOCALTIME
----
--# dates and times
SELECT LAST_DAY(created_at), MAKEDATE(2024, 32), SEC_TO_TIME(3600), TIME_TO_SEC('01:00:00'), TIMEDIFF('10:00', '09:00') FROM orders
----
--# dates and times
SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00', TIMESTAMPADD(MINUTE, 5, NOW()), ADDDATE(NOW(), 1), GET_FORMAT(DATE, 'ISO')
----
--# dates and times
SELECT YEARWEEK(created_at), WEEKDAY(created_at), WEEKOFYEAR(created_at), TO_DAYS(created_at), PERIOD_DIFF(202401, 202312) FROM orders
----
--# casts and conditionals
SELECT CAST(id AS CHAR), CAST(amount AS DOUBLE), CAST(amount AS DECIMAL(10,2)), CAST(created_at AS DATE), CAST('1' AS UNSIGNED) FROM orders
----
--# casts and conditionals
SELECT CONVERT(name USING utf8mb4), CONVERT(id, CHAR), CAST(name AS CHAR CHARACTER SET utf8mb4), BINARY name FROM customers
----
--# casts and conditionals
SELECT CASE WHEN amount > 100 THEN 'big' WHEN amount > 10 THEN 'mid' ELSE 'small' END FROM orders
----
--# casts and conditionals
SELECT CASE status WHEN 'a' THEN 1 ELSE 0 END, IF(amount > 0, 'pos', 'neg'), IFNULL(note, '-'), NULLIF(amount, 0), COALESCE(note, status, 'x') FROM orders
----
--# casts and conditionals
SELECT SUM(CASE WHEN TRIM(CAST(name AS CHAR)) = '' THEN 1 ELSE 0 END) FROM customers
----
--# casts and conditionals
SELECT ISNULL(note), note IS NULL, note IS NOT NULL, amount IS TRUE, NOT (amount > 1), amount <=> NULL FROM orders
----
--# casts and conditionals
SELECT * FROM orders WHERE status IN ('new', 'paid') AND (amount > 10 OR note IS NULL)
----
--# casts and conditionals
SELECT * FROM orders WHERE (customer_id, id) IN ((1, 2), (3, 4))
----
--# casts and conditionals
SELECT INTERVAL(5, 1, 3, 7), IF (1, 2, 3), LEFT ('abc', 1)
----
--# JSON
SELECT payload->'$.a', payload->>'$.b', JSON_EXTRACT(payload, '$.c[0]'), JSON_UNQUOTE(JSON_EXTRACT(payload, '$.d')) FROM events
----
--# JSON
SELECT JSON_OBJECT('id', id, 'name', name), JSON_ARRAY(id, name), JSON_QUOTE(name) FROM customers
----
--# JSON
SELECT JSON_KEYS(payload), JSON_LENGTH(payload), JSON_TYPE(payload), JSON_VALID(payload), JSON_DEPTH(payload) FROM events
----
--# JSON
SELECT * FROM events WHERE JSON_CONTAINS(payload, '1', '$.a') AND JSON_CONTAINS_PATH(payload, 'one', '$.b')
----
--# JSON
SELECT JSON_SEARCH(payload, 'one', 'x'), JSON_VALUE(payload, '$.a'), JSON_SET(payload, '$.a', 1), JSON_REMOVE(payload, '$.b') FROM events
----
--# JSON
SELECT JSON_MERGE_PATCH(payload, '{}'), JSON_MERGE_PRESERVE(payload, '[]'), JSON_PRETTY(payload), JSON_OVERLAPS(payload, '[1]') FROM events
----
--# EXPLAIN, DESCRIBE, SHOW and settings
EXPLAIN SELECT * FROM customers WHERE id = 1
----
--# EXPLAIN, DESCRIBE, SHOW and settings
EXPLAIN FORMAT=JSON SELECT * FROM orders
----
--# EXPLAIN, DESCRIBE, SHOW and settings
EXPLAIN SELECT c.id, COUNT(*) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id
----
--# EXPLAIN, DESCRIBE, SHOW and settings
DESCRIBE customers
----
--# EXPLAIN, DESCRIBE, SHOW and settings
DESC orders
----
--# EXPLAIN, DESCRIBE, SHOW and settings
DESCRIBE `order items`
----
--# EXPLAIN, DESCRIBE, SHOW and settings
EXPLAIN customers
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW TABLES
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW FULL TABLES
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW TABLES LIKE 'cust%'
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW COLUMNS FROM customers
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW FULL COLUMNS FROM orders
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW INDEX FROM orders
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW CREATE TABLE customers
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW VARIABLES LIKE 'sql_mode'
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW SESSION VARIABLES LIKE 'max_statement_time'
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW GLOBAL VARIABLES WHERE Variable_name = 'version'
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SHOW STATUS LIKE 'Com_select'
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SELECT @@version, @@version_comment, @@SESSION.sql_mode, @@global.time_zone, @@lower_case_table_names
----
--# EXPLAIN, DESCRIBE, SHOW and settings
SELECT VERSION(), DATABASE(), CURRENT_USER(), CONNECTION_ID(), LAST_INSERT_ID()
