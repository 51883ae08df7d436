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
----
--# writes, in lower case
insert into orders values (99, 1, 1.00, 'x', current_timestamp())
----
--# writes, after a comment
/* a comment */ INSERT INTO orders VALUES (99, 1, 1.00, 'x', current_timestamp())
----
--# writes, in lower case
insert into table orders select * from orders
----
--# writes, after a comment
/* a comment */ INSERT INTO TABLE orders SELECT * FROM orders
----
--# writes, in lower case
insert overwrite table orders select * from orders where id < 0
----
--# writes, after a comment
/* a comment */ INSERT OVERWRITE TABLE orders SELECT * FROM orders WHERE id < 0
----
--# writes, in lower case
insert overwrite directory '/tmp/discover_exfil' using parquet select * from orders
----
--# writes, after a comment
/* a comment */ INSERT OVERWRITE DIRECTORY '/tmp/discover_exfil' USING parquet SELECT * FROM orders
----
--# writes, in lower case
insert overwrite local directory '/tmp/discover_exfil' select * from orders
----
--# writes, after a comment
/* a comment */ INSERT OVERWRITE LOCAL DIRECTORY '/tmp/discover_exfil' SELECT * FROM orders
----
--# writes, in lower case
insert into orders replace where id = 1 select * from orders where id = 1
----
--# writes, after a comment
/* a comment */ INSERT INTO orders REPLACE WHERE id = 1 SELECT * FROM orders WHERE id = 1
----
--# writes, in lower case
update orders set amount = 0
----
--# writes, after a comment
/* a comment */ UPDATE orders SET amount = 0
----
--# writes, in lower case
delete from orders
----
--# writes, after a comment
/* a comment */ DELETE FROM orders
----
--# writes, in lower case
merge into orders t using customers s on t.id = s.id when matched then delete
----
--# writes, after a comment
/* a comment */ MERGE INTO orders t USING customers s ON t.id = s.id WHEN MATCHED THEN DELETE
----
--# writes, in lower case
truncate table orders
----
--# writes, after a comment
/* a comment */ TRUNCATE TABLE orders
----
--# writes, in lower case
create table stolen as select * from orders
----
--# writes, after a comment
/* a comment */ CREATE TABLE stolen AS SELECT * FROM orders
----
--# writes, in lower case
create table stolen (a int) using parquet
----
--# writes, after a comment
/* a comment */ CREATE TABLE stolen (a INT) USING parquet
----
--# writes, in lower case
create table stolen using parquet location '/tmp/x' as select 1
----
--# writes, after a comment
/* a comment */ CREATE TABLE stolen USING parquet LOCATION '/tmp/x' AS SELECT 1
----
--# writes, in lower case
create or replace table orders as select 1 as id
----
--# writes, after a comment
/* a comment */ CREATE OR REPLACE TABLE orders AS SELECT 1 AS id
----
--# writes, in lower case
replace table orders as select 1 as id
----
--# writes, after a comment
/* a comment */ REPLACE TABLE orders AS SELECT 1 AS id
----
--# writes, in lower case
create view v as select 1
----
--# writes, after a comment
/* a comment */ CREATE VIEW v AS SELECT 1
----
--# writes, in lower case
create or replace view order_totals as select 1
----
--# writes, after a comment
/* a comment */ CREATE OR REPLACE VIEW order_totals AS SELECT 1
----
--# writes, in lower case
create temporary view v as select 1
----
--# writes, after a comment
/* a comment */ CREATE TEMPORARY VIEW v AS SELECT 1
----
--# writes, in lower case
create global temporary view v as select 1
----
--# writes, after a comment
/* a comment */ CREATE GLOBAL TEMPORARY VIEW v AS SELECT 1
----
--# writes, in lower case
create temporary view v using parquet options (path '/etc')
----
--# writes, after a comment
/* a comment */ CREATE TEMPORARY VIEW v USING parquet OPTIONS (path '/etc')
----
--# writes, in lower case
create database stolen
----
--# writes, after a comment
/* a comment */ CREATE DATABASE stolen
----
--# writes, in lower case
create schema stolen
----
--# writes, after a comment
/* a comment */ CREATE SCHEMA stolen
----
--# writes, in lower case
drop table orders
----
--# writes, after a comment
/* a comment */ DROP TABLE orders
----
--# writes, in lower case
drop table if exists orders purge
----
--# writes, after a comment
/* a comment */ DROP TABLE IF EXISTS orders PURGE
----
--# writes, in lower case
drop view order_totals
----
--# writes, after a comment
/* a comment */ DROP VIEW order_totals
----
--# writes, in lower case
drop database guardfix cascade
----
--# writes, after a comment
/* a comment */ DROP DATABASE guardfix CASCADE
----
--# writes, in lower case
alter table orders add columns (x int)
----
--# writes, after a comment
/* a comment */ ALTER TABLE orders ADD COLUMNS (x INT)
----
--# writes, in lower case
alter table orders rename to o2
----
--# writes, after a comment
/* a comment */ ALTER TABLE orders RENAME TO o2
----
--# writes, in lower case
alter table orders set tblproperties ('a' = 'b')
----
--# writes, after a comment
/* a comment */ ALTER TABLE orders SET TBLPROPERTIES ('a' = 'b')
----
--# writes, in lower case
alter table events drop partition (day = '2024-01-01')
----
--# writes, after a comment
/* a comment */ ALTER TABLE events DROP PARTITION (day = '2024-01-01')
----
--# writes, in lower case
alter table events add partition (day = '2099-01-01')
----
--# writes, after a comment
/* a comment */ ALTER TABLE events ADD PARTITION (day = '2099-01-01')
----
--# writes, in lower case
alter view order_totals as select 1
----
--# writes, after a comment
/* a comment */ ALTER VIEW order_totals AS SELECT 1
----
--# writes, in lower case
comment on table orders is 'x'
----
--# writes, after a comment
/* a comment */ COMMENT ON TABLE orders IS 'x'
----
--# writes, in lower case
load data local inpath '/etc/passwd' into table orders
----
--# writes, after a comment
/* a comment */ LOAD DATA LOCAL INPATH '/etc/passwd' INTO TABLE orders
----
--# writes, in lower case
load data inpath '/tmp/x' overwrite into table orders
----
--# writes, after a comment
/* a comment */ LOAD DATA INPATH '/tmp/x' OVERWRITE INTO TABLE orders
----
--# writes, in lower case
msck repair table events
----
--# writes, after a comment
/* a comment */ MSCK REPAIR TABLE events
----
--# writes, in lower case
repair table events
----
--# writes, after a comment
/* a comment */ REPAIR TABLE events
----
--# writes, in lower case
analyze table orders compute statistics
----
--# writes, after a comment
/* a comment */ ANALYZE TABLE orders COMPUTE STATISTICS
----
--# writes, in lower case
analyze tables in guardfix compute statistics
----
--# writes, after a comment
/* a comment */ ANALYZE TABLES IN guardfix COMPUTE STATISTICS
----
--# writes, in lower case
cache table orders
----
--# writes, after a comment
/* a comment */ CACHE TABLE orders
----
--# writes, in lower case
cache lazy table c as select * from orders
----
--# writes, after a comment
/* a comment */ CACHE LAZY TABLE c AS SELECT * FROM orders
----
--# writes, in lower case
uncache table orders
----
--# writes, after a comment
/* a comment */ UNCACHE TABLE orders
----
--# writes, in lower case
clear cache
----
--# writes, after a comment
/* a comment */ CLEAR CACHE
----
--# writes, in lower case
refresh table orders
----
--# writes, after a comment
/* a comment */ REFRESH TABLE orders
----
--# writes, in lower case
refresh '/tmp'
----
--# writes, after a comment
/* a comment */ REFRESH '/tmp'
----
--# writes, in lower case
refresh function f
----
--# writes, after a comment
/* a comment */ REFRESH FUNCTION f
----
--# writes, in lower case
set spark.sql.ansi.enabled=true
----
--# writes, after a comment
/* a comment */ SET spark.sql.ansi.enabled=true
----
--# writes, in lower case
set spark.sql.parser.escapedstringliterals=true
----
--# writes, after a comment
/* a comment */ SET spark.sql.parser.escapedStringLiterals=true
----
--# writes, in lower case
set
----
--# writes, after a comment
/* a comment */ SET
----
--# writes, in lower case
reset
----
--# writes, after a comment
/* a comment */ RESET
----
--# writes, in lower case
reset spark.sql.ansi.enabled
----
--# writes, after a comment
/* a comment */ RESET spark.sql.ansi.enabled
----
--# writes, in lower case
set time zone 'utc'
----
--# writes, after a comment
/* a comment */ SET TIME ZONE 'UTC'
----
--# writes, in lower case
set var x = 1
----
--# writes, after a comment
/* a comment */ SET VAR x = 1
----
--# writes, in lower case
set variable x = 1
----
--# writes, after a comment
/* a comment */ SET VARIABLE x = 1
----
--# writes, in lower case
declare x int default 1
----
--# writes, after a comment
/* a comment */ DECLARE x INT DEFAULT 1
----
--# writes, in lower case
declare variable x int
----
--# writes, after a comment
/* a comment */ DECLARE VARIABLE x INT
----
--# writes, in lower case
drop temporary variable x
----
--# writes, after a comment
/* a comment */ DROP TEMPORARY VARIABLE x
----
--# writes, in lower case
execute immediate 'drop table orders'
----
--# writes, after a comment
/* a comment */ EXECUTE IMMEDIATE 'DROP TABLE orders'
----
--# writes, in lower case
execute immediate 'select 1'
----
--# writes, after a comment
/* a comment */ EXECUTE IMMEDIATE 'SELECT 1'
----
--# writes, in lower case
use guardfix
----
--# writes, after a comment
/* a comment */ USE guardfix
----
--# writes, in lower case
use database default
----
--# writes, after a comment
/* a comment */ USE DATABASE default
----
--# writes, in lower case
use catalog spark_catalog
----
--# writes, after a comment
/* a comment */ USE CATALOG spark_catalog
----
--# writes, in lower case
add jar /tmp/evil.jar
----
--# writes, after a comment
/* a comment */ ADD JAR /tmp/evil.jar
----
--# writes, in lower case
add jar 'ivy://org.evil:evil:1.0'
----
--# writes, after a comment
/* a comment */ ADD JAR 'ivy://org.evil:evil:1.0'
----
--# writes, in lower case
add file /tmp/x
----
--# writes, after a comment
/* a comment */ ADD FILE /tmp/x
----
--# writes, in lower case
add archive /tmp/x.zip
----
--# writes, after a comment
/* a comment */ ADD ARCHIVE /tmp/x.zip
----
--# writes, in lower case
list jar
----
--# writes, after a comment
/* a comment */ LIST JAR
----
--# writes, in lower case
list file
----
--# writes, after a comment
/* a comment */ LIST FILE
----
--# writes, in lower case
create function evil as 'org.evil.udf' using jar '/tmp/evil.jar'
----
--# writes, after a comment
/* a comment */ CREATE FUNCTION evil AS 'org.evil.Udf' USING JAR '/tmp/evil.jar'
----
--# writes, in lower case
create temporary function evil as 'org.evil.udf'
----
--# writes, after a comment
/* a comment */ CREATE TEMPORARY FUNCTION evil AS 'org.evil.Udf'
----
--# writes, in lower case
create function f(x int) returns int return x + 1
----
--# writes, after a comment
/* a comment */ CREATE FUNCTION f(x INT) RETURNS INT RETURN x + 1
----
--# writes, in lower case
drop function f
----
--# writes, after a comment
/* a comment */ DROP FUNCTION f
----
--# writes, in lower case
grant select on orders to bob
----
--# writes, after a comment
/* a comment */ GRANT SELECT ON orders TO bob
----
--# writes, in lower case
revoke select on orders from bob
----
--# writes, after a comment
/* a comment */ REVOKE SELECT ON orders FROM bob
----
--# writes, in lower case
begin drop table orders; end
----
--# writes, after a comment
/* a comment */ BEGIN DROP TABLE orders; END
----
--# writes, in lower case
begin select 1; end
----
--# writes, after a comment
/* a comment */ BEGIN SELECT 1; END
----
--# writes, in lower case
call sys.evil()
----
--# writes, after a comment
/* a comment */ CALL sys.evil()
----
--# writes, in lower case
kill 1
----
--# writes, after a comment
/* a comment */ KILL 1
----
--# writes, in lower case
optimize orders
----
--# writes, after a comment
/* a comment */ OPTIMIZE orders
----
--# writes, in lower case
vacuum orders
----
--# writes, after a comment
/* a comment */ VACUUM orders
----
--# writes, in lower case
from orders insert into stolen select *
----
--# writes, after a comment
/* a comment */ FROM orders INSERT INTO stolen SELECT *
----
--# writes, in lower case
from orders select *
----
--# writes, after a comment
/* a comment */ FROM orders SELECT *
----
--# writes, in lower case
with x as (select * from orders) insert into orders select * from x
----
--# writes, after a comment
/* a comment */ WITH x AS (SELECT * FROM orders) INSERT INTO orders SELECT * FROM x
----
--# writes, in lower case
with x as (select 1) insert overwrite table orders select * from x
----
--# writes, after a comment
/* a comment */ WITH x AS (SELECT 1) INSERT OVERWRITE TABLE orders SELECT * FROM x
----
--# writes, in lower case
with x as (select 1) create table y as select * from x
----
--# writes, after a comment
/* a comment */ WITH x AS (SELECT 1) CREATE TABLE y AS SELECT * FROM x
----
--# writes, in lower case
explain insert into orders select * from orders
----
--# writes, after a comment
/* a comment */ EXPLAIN INSERT INTO orders SELECT * FROM orders
----
--# writes, in lower case
explain create table y as select 1
----
--# writes, after a comment
/* a comment */ EXPLAIN CREATE TABLE y AS SELECT 1
----
--# writes, in lower case
explain drop table orders
----
--# writes, after a comment
/* a comment */ EXPLAIN DROP TABLE orders
----
--# code on the server, in lower case
select reflect('java.lang.runtime', 'getruntime')
----
--# code on the server, after a comment
/* a comment */ SELECT reflect('java.lang.Runtime', 'getRuntime')
----
--# code on the server, in lower case
select java_method('java.lang.system', 'exit', 1)
----
--# code on the server, after a comment
/* a comment */ SELECT java_method('java.lang.System', 'exit', 1)
----
--# code on the server, in lower case
select try_reflect('java.lang.thread', 'sleep', 100000l)
----
--# code on the server, after a comment
/* a comment */ SELECT try_reflect('java.lang.Thread', 'sleep', 100000L)
----
--# code on the server, in lower case
select reflect('java.lang.system', 'getenv', 'home')
----
--# code on the server, after a comment
/* a comment */ SELECT REFLECT('java.lang.System', 'getenv', 'HOME')
----
--# code on the server, in lower case
select `reflect`('java.util.uuid', 'randomuuid')
----
--# code on the server, after a comment
/* a comment */ SELECT `reflect`('java.util.UUID', 'randomUUID')
----
--# code on the server, in lower case
select java_method('java.lang.math', 'abs', -1)
----
--# code on the server, after a comment
/* a comment */ SELECT Java_Method('java.lang.Math', 'abs', -1)
----
--# code on the server, in lower case
select * from orders where reflect('java.lang.system', 'exit', 0) is null
----
--# code on the server, after a comment
/* a comment */ SELECT * FROM orders WHERE reflect('java.lang.System', 'exit', 0) IS NULL
----
--# code on the server, in lower case
select transform (id) using 'cat /etc/passwd' as (x) from orders
----
--# code on the server, after a comment
/* a comment */ SELECT TRANSFORM (id) USING 'cat /etc/passwd' AS (x) FROM orders
----
--# code on the server, in lower case
select transform (id, status) using '/bin/sh -c id' from orders
----
--# code on the server, after a comment
/* a comment */ SELECT TRANSFORM (id, status) USING '/bin/sh -c id' FROM orders
----
--# code on the server, in lower case
select transform(id) using 'sh' from orders
----
--# code on the server, after a comment
/* a comment */ SELECT transform(id) USING 'sh' FROM orders
----
--# code on the server, in lower case
select transform (*) row format delimited using 'cat' from orders
----
--# code on the server, after a comment
/* a comment */ SELECT TRANSFORM (*) ROW FORMAT DELIMITED USING 'cat' FROM orders
----
--# code on the server, in lower case
select map id using 'cat' as x from orders
----
--# code on the server, after a comment
/* a comment */ SELECT MAP id USING 'cat' AS x FROM orders
----
--# code on the server, in lower case
select reduce id using 'cat' as x from orders
----
--# code on the server, after a comment
/* a comment */ SELECT REDUCE id USING 'cat' AS x FROM orders
----
--# code on the server, in lower case
from orders select transform (id) using 'cat'
----
--# code on the server, after a comment
/* a comment */ FROM orders SELECT TRANSFORM (id) USING 'cat'
----
--# code on the server, in lower case
select x from (select transform (id) using 'cat' as (x) from orders) t
----
--# code on the server, after a comment
/* a comment */ SELECT x FROM (SELECT TRANSFORM (id) USING 'cat' AS (x) FROM orders) t
----
--# code on the server, in lower case
select from_protobuf(binary_col, 'm', '/etc/passwd') from orders
----
--# code on the server, after a comment
/* a comment */ SELECT from_protobuf(binary_col, 'M', '/etc/passwd') FROM orders
----
--# code on the server, in lower case
select to_protobuf(struct(1), 'm', '/tmp/desc') from orders
----
--# code on the server, after a comment
/* a comment */ SELECT to_protobuf(struct(1), 'M', '/tmp/desc') FROM orders
----
--# code on the server, in lower case
select * from read_files('/etc/passwd')
----
--# code on the server, after a comment
/* a comment */ SELECT * FROM read_files('/etc/passwd')
----
--# code on the server, in lower case
select guardfix.evil(1)
----
--# code on the server, after a comment
/* a comment */ SELECT guardfix.evil(1)
----
--# code on the server, in lower case
select spark_catalog.guardfix.evil(1)
----
--# code on the server, after a comment
/* a comment */ SELECT spark_catalog.guardfix.evil(1)
----
--# code on the server, in lower case
select `default`.`f`(1)
----
--# code on the server, after a comment
/* a comment */ SELECT `default`.`f`(1)
----
--# code on the server, in lower case
select evil_udf(id) from orders
----
--# code on the server, after a comment
/* a comment */ SELECT evil_udf(id) FROM orders
----
--# code on the server, in lower case
select xpath_string('<a/>', 'a')
----
--# code on the server, after a comment
/* a comment */ SELECT xpath_string('<a/>', 'a')
----
--# code on the server, in lower case
select aes_decrypt(unhex('00'), '0000111122223333')
----
--# code on the server, after a comment
/* a comment */ SELECT aes_decrypt(unhex('00'), '0000111122223333')
----
--# code on the server, in lower case
select assert_true(1 = 2)
----
--# code on the server, after a comment
/* a comment */ SELECT assert_true(1 = 2)
----
--# code on the server, in lower case
select raise_error('boom')
----
--# code on the server, after a comment
/* a comment */ SELECT raise_error('boom')
----
--# code on the server, in lower case
select input_file_name() from orders
----
--# code on the server, after a comment
/* a comment */ SELECT input_file_name() FROM orders
----
--# code on the server, in lower case
select * from identifier('orders')
----
--# code on the server, after a comment
/* a comment */ SELECT * FROM IDENTIFIER('orders')
----
--# code on the server, in lower case
select * from identifier('parquet.`/etc`')
----
--# code on the server, after a comment
/* a comment */ SELECT * FROM IDENTIFIER('parquet.`/etc`')
----
--# code on the server, in lower case
select * from my_udtf(table(orders))
----
--# code on the server, after a comment
/* a comment */ SELECT * FROM my_udtf(TABLE(orders))
----
--# files, in lower case
select * from parquet.`/tmp/discover-servers/spark/warehouse/guardfix.db/orders`
----
--# files, after a comment
/* a comment */ SELECT * FROM parquet.`/tmp/discover-servers/spark/warehouse/guardfix.db/orders`
----
--# files, in lower case
select * from text.`/etc/passwd`
----
--# files, after a comment
/* a comment */ SELECT * FROM text.`/etc/passwd`
----
--# files, in lower case
select * from `text`.`/etc/passwd`
----
--# files, after a comment
/* a comment */ SELECT * FROM `text`.`/etc/passwd`
----
--# files, in lower case
select * from text.`/etc/passwd`
----
--# files, after a comment
/* a comment */ SELECT * FROM TEXT.`/etc/passwd`
----
--# files, in lower case
select * from csv.`file:///etc/passwd`
----
--# files, after a comment
/* a comment */ SELECT * FROM csv.`file:///etc/passwd`
----
--# files, in lower case
select * from json.`/etc/hosts`
----
--# files, after a comment
/* a comment */ SELECT * FROM json.`/etc/hosts`
----
--# files, in lower case
select * from orc.`/tmp`
----
--# files, after a comment
/* a comment */ SELECT * FROM orc.`/tmp`
----
--# files, in lower case
select * from avro.`/tmp`
----
--# files, after a comment
/* a comment */ SELECT * FROM avro.`/tmp`
----
--# files, in lower case
select * from binaryfile.`/etc/passwd`
----
--# files, after a comment
/* a comment */ SELECT * FROM binaryFile.`/etc/passwd`
----
--# files, in lower case
select * from xml.`/tmp/x.xml`
----
--# files, after a comment
/* a comment */ SELECT * FROM xml.`/tmp/x.xml`
----
--# files, in lower case
select * from delta.`/tmp/t`
----
--# files, after a comment
/* a comment */ SELECT * FROM delta.`/tmp/t`
----
--# files, in lower case
select * from org.apache.spark.sql.parquet.`/tmp`
----
--# files, after a comment
/* a comment */ SELECT * FROM org.apache.spark.sql.parquet.`/tmp`
----
--# files, in lower case
select * from `org.apache.spark.sql.text`.`/etc/passwd`
----
--# files, after a comment
/* a comment */ SELECT * FROM `org.apache.spark.sql.text`.`/etc/passwd`
----
--# files, in lower case
select * from somesource.`/etc/passwd`
----
--# files, after a comment
/* a comment */ SELECT * FROM somesource.`/etc/passwd`
----
--# files, in lower case
select * from somesource.`hdfs://nn/secret`
----
--# files, after a comment
/* a comment */ SELECT * FROM somesource.`hdfs://nn/secret`
----
--# files, in lower case
select * from somesource.`c:\\secret`
----
--# files, after a comment
/* a comment */ SELECT * FROM somesource.`C:\\secret`
----
--# files, in lower case
select o.* from orders o join text.`/etc/passwd` p on true
----
--# files, after a comment
/* a comment */ SELECT o.* FROM orders o JOIN text.`/etc/passwd` p ON true
----
--# files, in lower case
select * from orders where id in (select length(value) from text.`/etc/passwd`)
----
--# files, after a comment
/* a comment */ SELECT * FROM orders WHERE id IN (SELECT length(value) FROM text.`/etc/passwd`)
----
--# files, in lower case
with p as (select * from text.`/etc/passwd`) select * from p
----
--# files, after a comment
/* a comment */ WITH p AS (SELECT * FROM text.`/etc/passwd`) SELECT * FROM p
