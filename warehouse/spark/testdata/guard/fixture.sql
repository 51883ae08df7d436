--# The tables the corpora read, made in a database of their own (guardfix
--# in the corpora's names) on the test server by the package's tests:
--# Parquet tables and a Hive-style partitioned one (a folder day=… per
--# partition).
CREATE TABLE orders (id BIGINT NOT NULL, customer_id BIGINT, amount DECIMAL(10,2), status STRING, ordered_at TIMESTAMP) USING parquet
----
INSERT INTO orders VALUES (1, 1, 10.50, 'paid', TIMESTAMP '2024-01-01 10:00:00'), (2, 1, 120.00, 'new', TIMESTAMP '2024-01-02 11:00:00'), (3, 2, 99.99, 'paid', TIMESTAMP '2024-01-03 12:00:00'), (4, NULL, 5.00, NULL, NULL)
----
CREATE TABLE customers (id BIGINT NOT NULL, name STRING, email STRING) USING parquet COMMENT 'people who order'
----
INSERT INTO customers VALUES (1, 'Ann', 'ann@example.com'), (2, 'O''Brien', 'ob@example.com'), (3, 'back\\slash', NULL)
----
CREATE TABLE events (id BIGINT, kind STRING, day STRING) USING parquet PARTITIONED BY (day)
----
INSERT INTO events VALUES (1, 'click', '2024-01-01'), (2, 'view', '2024-01-01'), (3, 'click', '2024-01-02'), (4, 'buy', '2024-01-03'), (5, 'view', '2024-01-03')
----
CREATE VIEW order_totals AS SELECT customer_id, sum(amount) AS total FROM orders GROUP BY customer_id
