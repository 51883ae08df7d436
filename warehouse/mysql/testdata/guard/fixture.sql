--# The database the guard corpora are written against: guard_server_test.go builds it on
--# the server, and so does cmd/discover's test of the untrusted doors. Entries are
--# statements, run in the new database, separated by a line that is exactly ----.
--# Single quotes only: the test server's global sql_mode has ANSI_QUOTES.
----
CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(50), email VARCHAR(100), country VARCHAR(20), note TEXT)
----
CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, amount DECIMAL(10,2), status VARCHAR(10), note TEXT, created_at DATETIME, KEY idx (customer_id))
----
CREATE TABLE order_items (order_id INT, line INT, product_id INT, PRIMARY KEY (order_id, line))
----
CREATE TABLE products (id INT PRIMARY KEY, name VARCHAR(50), price DECIMAL(10,2))
----
CREATE TABLE events (id INT PRIMARY KEY, payload JSON)
----
CREATE TABLE `select` (`from` VARCHAR(10), `where` INT)
----
CREATE TABLE `order items` (id INT)
----
CREATE TABLE `Users` (id INT)
----
INSERT INTO customers VALUES (1, 'Ann', 'a@x.org', 'FR', NULL), (2, 'Bob', 'b@x.org', 'DE', 'vip')
----
INSERT INTO orders VALUES (10, 1, 12.50, 'new', NULL, '2024-01-02 10:00:00'), (11, 2, 150, 'paid', 'x', '2024-02-03 11:00:00')
----
INSERT INTO events VALUES (1, '{"a": 1, "b": "x", "c": [1], "d": "y"}')
----
CREATE FUNCTION discount(x INT) RETURNS INT DETERMINISTIC RETURN x - 1
----
--# MariaDB only (skipped elsewhere).
CREATE SEQUENCE seq
