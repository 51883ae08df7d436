package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzGuardLeavesFileUnchanged proves the guard on its own, without the
// read-only connection behind it: any statement Grammar.Check accepts for
// SQLite, run on a scratch copy of a database through a read-write
// connection, leaves every byte of the file unchanged and creates no file
// beside it. The seeds are writes in every dialect's syntax; "$DIR" in a
// seed stands for the scratch folder, so that an ATTACH or VACUUM INTO the
// guard let through would show up there.
//
//	go test ./warehouse/sqlite -run '^$' -fuzz FuzzGuardLeavesFileUnchanged -fuzztime 5m
func FuzzGuardLeavesFileUnchanged(f *testing.F) {
	for _, s := range slices.Concat(writes("$DIR"), writeSeeds, readSeeds) {
		f.Add(s)
	}
	template := build(f, "template.db")
	want, err := os.ReadFile(template)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, stmt string) {
		if Grammar.Check(strings.ReplaceAll(stmt, "$DIR", "x")) != nil {
			return
		}
		dir := t.TempDir()
		stmt = strings.ReplaceAll(stmt, "$DIR", dir)
		if Grammar.Check(stmt) != nil {
			return
		}
		path := filepath.Join(dir, "scratch.db")
		if err := os.WriteFile(path, want, 0o600); err != nil {
			t.Fatal(err)
		}
		runWritable(t, path, stmt)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("the guard accepted %q and it changed the database file", stmt)
		}
		if names := listDir(t, dir); len(names) != 1 {
			t.Fatalf("the guard accepted %q and it left %v beside the database", stmt, names)
		}
	})
}

// runWritable runs stmt on a read-write connection, reading up to 1,000
// rows for at most two seconds; its error does not matter, only its effect.
func runWritable(t *testing.T, path, stmt string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, stmt)
	if err != nil {
		return
	}
	for n := 0; n < 1000 && rows.Next(); n++ {
	}
	rows.Close()
}

// readSeeds are statements the guard accepts, for the fuzzer to grow writes
// from.
var readSeeds = []string{
	`SELECT * FROM customer WHERE id = 1`,
	`WITH a AS (SELECT id FROM orders) SELECT COUNT(*) FROM a`,
	`SELECT c.name, o.id FROM customer c JOIN orders o ON o.customer_id = c.id`,
	`PRAGMA table_info(customer)`,
	`PRAGMA main.index_list("order items")`,
	`EXPLAIN QUERY PLAN SELECT * FROM docs WHERE docs MATCH 'hello'`,
	`VALUES (1), (2)`,
	`SELECT typeof(photo), length(memo) FROM orders`,
}

// writeSeeds are writes as other engines spell them, and SQLite's less
// common ones: the fuzzer mutates them towards what SQLite would run.
var writeSeeds = []string{
	`REPLACE INTO customer VALUES (1, 'a@x.org', 'Ann')`,
	`INSERT OR REPLACE INTO customer VALUES (1, 'z@x.org', 'Z')`,
	`INSERT INTO customer VALUES (1, 'a@x.org', 'A') ON CONFLICT (id) DO UPDATE SET name = 'B'`,
	`UPDATE customer SET name = 'x' RETURNING *`,
	`DELETE FROM customer RETURNING id`,
	`WITH d AS (DELETE FROM customer RETURNING *) SELECT * FROM d`,
	`SELECT * INTO copy FROM customer`,
	`CREATE TABLE t AS SELECT * FROM customer`,
	`CREATE TRIGGER tr AFTER INSERT ON customer BEGIN DELETE FROM orders; END`,
	`CREATE VIEW v AS SELECT 1`,
	`DROP VIEW "big orders"`,
	`DROP INDEX cust_name`,
	`ALTER TABLE customer RENAME TO c2`,
	`TRUNCATE TABLE customer`,
	`MERGE INTO customer USING orders ON true WHEN MATCHED THEN DELETE`,
	`COPY customer TO '$DIR/out.csv'`,
	`EXPORT DATABASE '$DIR/export'`,
	`SELECT * FROM customer INTO OUTFILE '$DIR/out.txt'`,
	`LOAD DATA INFILE '$DIR/in.txt' INTO TABLE customer`,
	`SELECT load_extension('$DIR/ext.so')`,
	`SELECT writefile('$DIR/w.txt', 'x')`,
	`SELECT lo_export(1, '$DIR/lo')`,
	`SELECT pg_write_file('$DIR/pg', 'x')`,
	`ATTACH DATABASE '$DIR/a.db' AS a; CREATE TABLE a.t (x)`,
	`ATTACH 'file:$DIR/u.db?mode=rwc' AS u`,
	`DETACH DATABASE main`,
	`VACUUM main INTO '$DIR/v.db'`,
	`PRAGMA main.user_version = 3`,
	`PRAGMA writable_schema = ON`,
	`PRAGMA wal_checkpoint(TRUNCATE)`,
	`PRAGMA optimize`,
	`PRAGMA incremental_vacuum(1)`,
	`PRAGMA schema_version = 1`,
	`BEGIN; DELETE FROM customer; COMMIT`,
	`SAVEPOINT s`,
	`SELECT 1; DELETE FROM customer`,
	`SELECT 1 /* ; */; DROP TABLE customer`,
	"SELECT 1 -- \n; DROP TABLE customer",
	`SELECT 'a'';DROP TABLE customer;--'`,
	`EXPLAIN DELETE FROM customer`,
	`EXPLAIN QUERY PLAN INSERT INTO customer VALUES (5, 'e', 'E')`,
	`VALUES (1); INSERT INTO customer VALUES (6, 'f', 'F')`,
	`INSERT INTO docs(docs) VALUES ('rebuild')`,
	`INSERT INTO docs(docs, rank) VALUES ('automerge', 8)`,
	`SELECT fts5_optimize()`,
	`ANALYZE main`,
	`REINDEX customer`,
	`CREATE TEMP VIEW tv AS SELECT 1`,
	`CALL cleanup()`,
	`GRANT ALL ON customer TO public`,
	`SET search_path = x`,
	`INSTALL httpfs`,
	`SELECT name FROM customer FOR UPDATE`,
	`LOCK TABLE customer`,
}

// TestScratchSeesWrites is the fuzz target's control: the writes the guard
// refuses would show, run the same way, as a changed file or a new one; and
// what it accepts runs (a property about statements that fail would prove
// nothing).
func TestScratchSeesWrites(t *testing.T) {
	want, err := os.ReadFile(build(t, "template.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		stmt           string
		changed, added bool
	}{
		{`DELETE FROM customer`, true, false},
		{`PRAGMA user_version = 7`, true, false},
		{`VACUUM INTO '$DIR/copy.db'`, false, true},
		{`SELECT COUNT(*) FROM customer`, false, false},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "scratch.db")
		if err := os.WriteFile(path, want, 0o600); err != nil {
			t.Fatal(err)
		}
		stmt := strings.ReplaceAll(c.stmt, "$DIR", dir)
		accepted := Grammar.Check(stmt) == nil
		if accepted != (!c.changed && !c.added) {
			t.Errorf("Check(%q) accepted %v", stmt, accepted)
		}
		runWritable(t, path, stmt)
		got, _ := os.ReadFile(path)
		if changed := !bytes.Equal(got, want); changed != c.changed {
			t.Errorf("%q changed the file: %v, want %v", stmt, changed, c.changed)
		}
		if added := len(listDir(t, dir)) > 1; added != c.added {
			t.Errorf("%q added a file: %v, want %v (%v)", stmt, added, c.added, listDir(t, dir))
		}
	}
}
