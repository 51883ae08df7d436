--# The tables the guard corpora are written against (guard_test.go builds them in the
--# database file and writes them as the CSV folder's files; cmd/discover's test of the
--# untrusted doors builds the same). Entries are statements, separated by a line that is
--# exactly ----. Entries from the line "--# file only" on exist in the database file only.
----
CREATE TABLE customer (id INTEGER PRIMARY KEY, name VARCHAR, email VARCHAR, city VARCHAR, created DATE)
----
INSERT INTO customer VALUES (1, 'Ann', 'ann@x.org', 'Oslo', '2024-01-02'), (2, 'Bob', 'bob@y.org', 'Bergen', '2024-02-03'),
		(3, 'Cid', NULL, 'Oslo', '2024-03-04')
----
CREATE TABLE orders (id INTEGER, customer_id INTEGER, amount DECIMAL(10,2), status VARCHAR, placed TIMESTAMP)
----
INSERT INTO orders VALUES (10, 1, 12.50, 'paid', '2024-01-05 10:00:00'), (11, 1, 5.00, 'open', '2024-01-06 11:00:00'),
		(12, 2, 20.00, 'paid', '2024-02-07 12:00:00'), (13, 3, 1.25, 'void', '2024-03-08 13:00:00')
----
CREATE TABLE order_items (order_id INTEGER, line INTEGER, sku VARCHAR, qty INTEGER, price DOUBLE)
----
INSERT INTO order_items VALUES (10, 1, 'S1', 2, 5.0), (10, 2, 'S2', 1, 2.5), (12, 1, 'S1', 4, 5.0)
----
CREATE TABLE events (id INTEGER, kind VARCHAR, payload VARCHAR, ts TIMESTAMP)
----
INSERT INTO events VALUES (1, 'click', '{"a": 1, "b": [1, 2], "list": [1, 2, 3]}', '2024-01-05 09:00:00'),
		(2, 'view', '{"a": 2, "list": []}', '2024-01-06 10:30:00')
----
--# file only: a sequence and macros a hostile statement may try to call by name
CREATE SEQUENCE seq
----
CREATE MACRO env(x) AS current_setting(x)
----
CREATE MACRO peek(p) AS TABLE SELECT * FROM read_text(p)
----
CREATE MACRO stamp() AS current_setting('temp_directory')
