--# Statements an attacker would send to Spark SQL through discover: each
--# must be refused by the guard and never reach the server. Spark has no
--# read-only transaction: the guard is the only line.
--# writes
INSERT INTO orders VALUES (99, 1, 1.00, 'x', current_timestamp())
----
--# writes
INSERT INTO TABLE orders SELECT * FROM orders
----
--# writes
INSERT OVERWRITE TABLE orders SELECT * FROM orders WHERE id < 0
----
--# writes
INSERT OVERWRITE DIRECTORY '/tmp/discover_exfil' USING parquet SELECT * FROM orders
----
--# writes
INSERT OVERWRITE LOCAL DIRECTORY '/tmp/discover_exfil' SELECT * FROM orders
----
--# writes
INSERT INTO orders REPLACE WHERE id = 1 SELECT * FROM orders WHERE id = 1
----
--# writes
UPDATE orders SET amount = 0
----
--# writes
DELETE FROM orders
----
--# writes
MERGE INTO orders t USING customers s ON t.id = s.id WHEN MATCHED THEN DELETE
----
--# writes
TRUNCATE TABLE orders
----
--# writes
CREATE TABLE stolen AS SELECT * FROM orders
----
--# writes
CREATE TABLE stolen (a INT) USING parquet
----
--# writes
CREATE TABLE stolen USING parquet LOCATION '/tmp/x' AS SELECT 1
----
--# writes
CREATE OR REPLACE TABLE orders AS SELECT 1 AS id
----
--# writes
REPLACE TABLE orders AS SELECT 1 AS id
----
--# writes
CREATE VIEW v AS SELECT 1
----
--# writes
CREATE OR REPLACE VIEW order_totals AS SELECT 1
----
--# writes
CREATE TEMPORARY VIEW v AS SELECT 1
----
--# writes
CREATE GLOBAL TEMPORARY VIEW v AS SELECT 1
----
--# writes
CREATE TEMPORARY VIEW v USING parquet OPTIONS (path '/etc')
----
--# writes
CREATE DATABASE stolen
----
--# writes
CREATE SCHEMA stolen
----
--# writes
DROP TABLE orders
----
--# writes
DROP TABLE IF EXISTS orders PURGE
----
--# writes
DROP VIEW order_totals
----
--# writes
DROP DATABASE guardfix CASCADE
----
--# writes
ALTER TABLE orders ADD COLUMNS (x INT)
----
--# writes
ALTER TABLE orders RENAME TO o2
----
--# writes
ALTER TABLE orders SET TBLPROPERTIES ('a' = 'b')
----
--# writes
ALTER TABLE events DROP PARTITION (day = '2024-01-01')
----
--# writes
ALTER TABLE events ADD PARTITION (day = '2099-01-01')
----
--# writes
ALTER VIEW order_totals AS SELECT 1
----
--# writes
COMMENT ON TABLE orders IS 'x'
----
--# writes
LOAD DATA LOCAL INPATH '/etc/passwd' INTO TABLE orders
----
--# writes
LOAD DATA INPATH '/tmp/x' OVERWRITE INTO TABLE orders
----
--# writes
MSCK REPAIR TABLE events
----
--# writes
REPAIR TABLE events
----
--# writes
ANALYZE TABLE orders COMPUTE STATISTICS
----
--# writes
ANALYZE TABLES IN guardfix COMPUTE STATISTICS
----
--# writes
CACHE TABLE orders
----
--# writes
CACHE LAZY TABLE c AS SELECT * FROM orders
----
--# writes
UNCACHE TABLE orders
----
--# writes
CLEAR CACHE
----
--# writes
REFRESH TABLE orders
----
--# writes
REFRESH '/tmp'
----
--# writes
REFRESH FUNCTION f
----
--# writes
SET spark.sql.ansi.enabled=true
----
--# writes
SET spark.sql.parser.escapedStringLiterals=true
----
--# writes
SET
----
--# writes
RESET
----
--# writes
RESET spark.sql.ansi.enabled
----
--# writes
SET TIME ZONE 'UTC'
----
--# writes
SET VAR x = 1
----
--# writes
SET VARIABLE x = 1
----
--# writes
DECLARE x INT DEFAULT 1
----
--# writes
DECLARE VARIABLE x INT
----
--# writes
DROP TEMPORARY VARIABLE x
----
--# writes
EXECUTE IMMEDIATE 'DROP TABLE orders'
----
--# writes
EXECUTE IMMEDIATE 'SELECT 1'
----
--# writes
USE guardfix
----
--# writes
USE DATABASE default
----
--# writes
USE CATALOG spark_catalog
----
--# writes
ADD JAR /tmp/evil.jar
----
--# writes
ADD JAR 'ivy://org.evil:evil:1.0'
----
--# writes
ADD FILE /tmp/x
----
--# writes
ADD ARCHIVE /tmp/x.zip
----
--# writes
LIST JAR
----
--# writes
LIST FILE
----
--# writes
CREATE FUNCTION evil AS 'org.evil.Udf' USING JAR '/tmp/evil.jar'
----
--# writes
CREATE TEMPORARY FUNCTION evil AS 'org.evil.Udf'
----
--# writes
CREATE FUNCTION f(x INT) RETURNS INT RETURN x + 1
----
--# writes
DROP FUNCTION f
----
--# writes
GRANT SELECT ON orders TO bob
----
--# writes
REVOKE SELECT ON orders FROM bob
----
--# writes
BEGIN DROP TABLE orders; END
----
--# writes
BEGIN SELECT 1; END
----
--# writes
CALL sys.evil()
----
--# writes
KILL 1
----
--# writes
OPTIMIZE orders
----
--# writes
VACUUM orders
----
--# writes
FROM orders INSERT INTO stolen SELECT *
----
--# writes
FROM orders SELECT *
----
--# writes
WITH x AS (SELECT * FROM orders) INSERT INTO orders SELECT * FROM x
----
--# writes
WITH x AS (SELECT 1) INSERT OVERWRITE TABLE orders SELECT * FROM x
----
--# writes
WITH x AS (SELECT 1) CREATE TABLE y AS SELECT * FROM x
----
--# writes
EXPLAIN INSERT INTO orders SELECT * FROM orders
----
--# writes
EXPLAIN CREATE TABLE y AS SELECT 1
----
--# writes
EXPLAIN DROP TABLE orders
----
--# two statements
SELECT 1; DROP TABLE orders
----
--# two statements
SELECT 1; SELECT 2
----
--# two statements
SELECT 1;; DROP TABLE orders
----
--# two statements
SELECT 'a'; INSERT INTO orders SELECT * FROM orders
----
--# code on the server
SELECT reflect('java.lang.Runtime', 'getRuntime')
----
--# code on the server
SELECT java_method('java.lang.System', 'exit', 1)
----
--# code on the server
SELECT try_reflect('java.lang.Thread', 'sleep', 100000L)
----
--# code on the server
SELECT REFLECT('java.lang.System', 'getenv', 'HOME')
----
--# code on the server
SELECT `reflect`('java.util.UUID', 'randomUUID')
----
--# code on the server
SELECT Java_Method('java.lang.Math', 'abs', -1)
----
--# code on the server
SELECT * FROM orders WHERE reflect('java.lang.System', 'exit', 0) IS NULL
----
--# code on the server
SELECT TRANSFORM (id) USING 'cat /etc/passwd' AS (x) FROM orders
----
--# code on the server
SELECT TRANSFORM (id, status) USING '/bin/sh -c id' FROM orders
----
--# code on the server
SELECT transform(id) USING 'sh' FROM orders
----
--# code on the server
SELECT TRANSFORM (*) ROW FORMAT DELIMITED USING 'cat' FROM orders
----
--# code on the server
SELECT MAP id USING 'cat' AS x FROM orders
----
--# code on the server
SELECT REDUCE id USING 'cat' AS x FROM orders
----
--# code on the server
FROM orders SELECT TRANSFORM (id) USING 'cat'
----
--# code on the server
SELECT x FROM (SELECT TRANSFORM (id) USING 'cat' AS (x) FROM orders) t
----
--# code on the server
SELECT from_protobuf(binary_col, 'M', '/etc/passwd') FROM orders
----
--# code on the server
SELECT to_protobuf(struct(1), 'M', '/tmp/desc') FROM orders
----
--# code on the server
SELECT * FROM read_files('/etc/passwd')
----
--# code on the server
SELECT guardfix.evil(1)
----
--# code on the server
SELECT spark_catalog.guardfix.evil(1)
----
--# code on the server
SELECT `default`.`f`(1)
----
--# code on the server
SELECT evil_udf(id) FROM orders
----
--# code on the server
SELECT xpath_string('<a/>', 'a')
----
--# code on the server
SELECT aes_decrypt(unhex('00'), '0000111122223333')
----
--# code on the server
SELECT assert_true(1 = 2)
----
--# code on the server
SELECT raise_error('boom')
----
--# code on the server
SELECT input_file_name() FROM orders
----
--# code on the server
SELECT * FROM IDENTIFIER('orders')
----
--# code on the server
SELECT * FROM IDENTIFIER('parquet.`/etc`')
----
--# code on the server
SELECT * FROM my_udtf(TABLE(orders))
----
--# files
SELECT * FROM parquet.`/tmp/discover-servers/spark/warehouse/guardfix.db/orders`
----
--# files
SELECT * FROM text.`/etc/passwd`
----
--# files
SELECT * FROM `text`.`/etc/passwd`
----
--# files
SELECT * FROM TEXT.`/etc/passwd`
----
--# files
SELECT * FROM csv.`file:///etc/passwd`
----
--# files
SELECT * FROM json.`/etc/hosts`
----
--# files
SELECT * FROM orc.`/tmp`
----
--# files
SELECT * FROM avro.`/tmp`
----
--# files
SELECT * FROM binaryFile.`/etc/passwd`
----
--# files
SELECT * FROM xml.`/tmp/x.xml`
----
--# files
SELECT * FROM delta.`/tmp/t`
----
--# files
SELECT * FROM org.apache.spark.sql.parquet.`/tmp`
----
--# files
SELECT * FROM `org.apache.spark.sql.text`.`/etc/passwd`
----
--# files
SELECT * FROM somesource.`/etc/passwd`
----
--# files
SELECT * FROM somesource.`hdfs://nn/secret`
----
--# files
SELECT * FROM somesource.`C:\\secret`
----
--# files
SELECT o.* FROM orders o JOIN text.`/etc/passwd` p ON true
----
--# files
SELECT * FROM orders WHERE id IN (SELECT length(value) FROM text.`/etc/passwd`)
----
--# files
WITH p AS (SELECT * FROM text.`/etc/passwd`) SELECT * FROM p
----
--# lexer
SELECT r'\', 1; DROP TABLE orders --'
----
--# lexer
SELECT R'\' AS x; DROP TABLE orders; --'
----
--# lexer
SELECT 'unterminated
----
--# lexer
SELECT "unterminated
----
--# lexer
SELECT `unterminated
----
--# lexer
SELECT 1 /* unterminated
----
--# lexer
SELECT 1 /* /* nested */ still open
----
--# lexer
SELECT 1 ) (
----
--# lexer
SELECT (1
