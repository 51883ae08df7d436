--# The database the guard corpora are written against: guard_test.go builds it, and so
--# does cmd/discover's test of the untrusted doors. Entries are statements, separated by a
--# line that is exactly ----.
----
CREATE TABLE customer (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT)
----
CREATE INDEX cust_name ON customer (lower(name), name DESC)
----
CREATE UNIQUE INDEX cust_name_u ON customer (name) WHERE name IS NOT NULL
----
CREATE TABLE "order items" (order_id INTEGER NOT NULL, line INTEGER NOT NULL, sku TEXT, qty INTEGER,
		PRIMARY KEY (order_id, line))
----
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES CUSTOMER,
		placed DATE, paid DATETIME, photo BLOB, memo TEXT)
----
CREATE TABLE shipment_line (ship_id INTEGER, order_id INTEGER, line INTEGER,
		FOREIGN KEY (order_id, line) REFERENCES "order items" (order_id, line))
----
CREATE TABLE line_ref (a INTEGER, b INTEGER, c TEXT REFERENCES ghost,
		FOREIGN KEY (a, b) REFERENCES "ORDER ITEMS")
----
CREATE TABLE "select" ("from" TEXT, "where" INTEGER, UNIQUE ("from", "where"))
----
CREATE UNIQUE INDEX "sel where" ON "select" ("where")
----
CREATE TABLE "naïve" ("clé" TEXT PRIMARY KEY, valeur REAL) WITHOUT ROWID
----
CREATE TABLE "say ""hi""" (k TEXT PRIMARY KEY, v)
----
CREATE TABLE gen (a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL, c INTEGER AS (a + 1) STORED)
----
CREATE VIRTUAL TABLE docs USING fts5(body)
----
CREATE VIEW "big orders" AS SELECT o.id, c.email FROM orders AS o JOIN customer AS c ON c.id = o.customer_id
----
CREATE VIEW broken AS SELECT * FROM ghost
----
CREATE VIEW "mysql view" AS SELECT group_concat(DISTINCT a, ';') FROM gen
----
INSERT INTO customer VALUES (1, 'a@x.org', 'Ann'), (2, 'b@x.org', 'Bob'), (3, 'c@x.org', NULL)
----
INSERT INTO "order items" VALUES (10, 1, 'S1', 2), (10, 2, 'S2', 1), (11, 1, 'S1', 5)
----
INSERT INTO orders VALUES (10, 1, '2024-01-31', '2024-01-31 10:11:12', x'00ff10', CAST('héllo' AS BLOB)),
		(11, 2, '2024-02-01', '2024-02-01T08:00:00', NULL, 'plain')
----
INSERT INTO "select" VALUES ('a', 1), ('b', 2)
----
INSERT INTO "naïve" VALUES ('k', 1.5)
----
INSERT INTO "say ""hi""" VALUES ('x', 1)
----
INSERT INTO gen (a) VALUES (1), (2)
----
INSERT INTO docs VALUES ('hello world')
----
CREATE TABLE events (id INTEGER PRIMARY KEY, kind TEXT, payload TEXT, at TEXT)
----
INSERT INTO events VALUES (1, 'click', '{"user": "ann", "n": 2, "tags": ["a", "b"]}', '2024-01-31 10:00:00'),
		(2, 'view', '{"user": "bob", "n": 1, "tags": []}', '2024-02-01')
----
CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, boss_id INTEGER REFERENCES emp, salary REAL, dept TEXT)
----
INSERT INTO emp VALUES (1, 'Ada', NULL, 100, 'x'), (2, 'Bo', 1, 80, 'x'), (3, 'Cy', 2, 60, 'y')
----
CREATE TABLE seq (id INTEGER PRIMARY KEY AUTOINCREMENT, v)
----
INSERT INTO seq (v) VALUES (1)
----
CREATE VIEW schema_view AS SELECT name, upper(sql) AS s FROM sqlite_schema
----
CREATE VIEW evil_fn AS SELECT load_extension('x') AS x
----
CREATE VIEW evil_pages AS SELECT * FROM sqlite_dbpage
----
ANALYZE
