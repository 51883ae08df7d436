--# The database the guard corpora are written against: guard_e2e_test.go builds it on the
--# server (and cmd/discover's test of the untrusted doors too). Entries are statements,
--# separated by a line that is exactly ----.
----
CREATE SCHEMA sales
----
CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL, email text, country text,
created_at timestamptz NOT NULL, tags text[], profile jsonb)
----
CREATE TABLE orders (id int PRIMARY KEY, customer_id int REFERENCES customers (id), amount numeric(10,2),
status text, placed date NOT NULL, note text)
----
CREATE INDEX orders_placed_brin ON orders USING brin (placed)
----
CREATE TABLE sales.events (id int, kind text, at timestamptz, payload jsonb, ip inet, during tstzrange)
----
CREATE TABLE "Users" (id int, "Name" text)
----
CREATE TABLE users (id int PRIMARY KEY, name text, parent_id int)
----
CREATE VIEW order_totals AS SELECT customer_id, sum(amount) AS total, count(*) AS n FROM orders GROUP BY customer_id
----
--# Named like a system catalog: only public.pg_settings reads it.
CREATE TABLE public.pg_settings (name text, setting text)
----
CREATE TABLE "select" ("from" int, "where" text)
----
CREATE TABLE docs (id int, body text, tsv tsvector)
----
CREATE INDEX docs_tsv_gin ON docs USING gin (tsv) WITH (fastupdate = on)
----
CREATE TABLE sales.metrics (at date NOT NULL, v int) PARTITION BY RANGE (at)
----
CREATE TABLE sales.metrics_2024 PARTITION OF sales.metrics FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')
----
CREATE SEQUENCE orders_id_seq
----
--# The owner's volatile functions, which a statement must not reach: by
--# attribute notation (c.audit), by overloading an allowed name
--# (trim_scale(int)), or behind a built-in operator symbol (##).
CREATE FUNCTION audit(customers) RETURNS int LANGUAGE sql VOLATILE AS 'SELECT 1'
----
CREATE FUNCTION public.trim_scale(int) RETURNS int LANGUAGE sql VOLATILE AS 'SELECT 1'
----
CREATE FUNCTION public.vol_pair(int, int) RETURNS int LANGUAGE sql VOLATILE AS 'SELECT 1'
----
CREATE OPERATOR public.## (LEFTARG = int, RIGHTARG = int, FUNCTION = public.vol_pair)
----
INSERT INTO customers VALUES
(1, 'Ann', 'ann@example.com', 'NL', '2024-01-01 10:00+00', '{vip,a}',
 '{"a": 1, "b": "x", "items": [{"price": 20}, {"price": 5}], "address": {"city": "Utrecht"}, "c": {"d": "e"}}'),
(2, 'Bob', 'bob@example.com', 'DE', '2024-02-01 00:00+00', '{b}', '{"a": 2}'),
(3, 'Cy', NULL, 'NL', '2024-03-05 00:00+00', NULL, NULL)
----
INSERT INTO orders VALUES (1, 1, 120.50, 'paid', '2024-01-05', 'first'), (2, 1, 15.00, 'open', '2024-02-10', NULL),
(3, 2, 8.25, 'refunded', '2024-03-01', 'x note'), (4, 3, NULL, NULL, '2024-03-02', NULL)
----
INSERT INTO sales.events VALUES (1, 'click', '2024-01-01 00:00+00', '{}', '10.1.2.3', '[2024-01-01,2030-01-01)')
----
INSERT INTO "Users" VALUES (1, 'Upper')
----
INSERT INTO users VALUES (1, 'root', NULL), (2, 'child', 1), (3, 'leaf', 2)
----
INSERT INTO public.pg_settings VALUES ('x', 'y')
----
INSERT INTO "select" VALUES (1, 'w')
----
INSERT INTO docs VALUES (1, 'the cat and the dog', to_tsvector('english', 'the cat and the dog'))
----
INSERT INTO sales.metrics VALUES ('2024-05-01', 1)
