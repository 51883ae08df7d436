package connect

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/discover-db/discover/warehouse"

	_ "github.com/duckdb/duckdb-go/v2"
	_ "modernc.org/sqlite"
)

func tempDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t (a INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenSQLiteForms(t *testing.T) {
	path := tempDB(t)
	for _, dsn := range []string{path, "sqlite://" + path, "sqlite:" + path, "file:" + path, "file://" + path + "?mode=rw"} {
		src, err := Open(context.Background(), dsn)
		if err != nil {
			t.Errorf("Open(%q): %v", dsn, err)
			continue
		}
		if src.Dialect().Name() != "sqlite" || src.Database() != "shop" {
			t.Errorf("Open(%q): dialect %q, database %q", dsn, src.Dialect().Name(), src.Database())
		}
		tables, err := src.Tables(context.Background())
		if err != nil || len(tables) != 1 {
			t.Errorf("Open(%q).Tables = %v, %v", dsn, tables, err)
		}
		src.Close()
	}
}

// A bare path is a SQLite file unless the file says it is DuckDB: a user
// who names warehouse.duckdb should not be told it is not SQLite.
func TestOpenBarePathToDuckDB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE sales (id INTEGER PRIMARY KEY, amount DOUBLE)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, dsn := range []string{path, "duckdb://" + path} {
		src, err := Open(context.Background(), dsn)
		if err != nil {
			t.Fatalf("Open(%q): %v", dsn, err)
		}
		tables, err := src.Tables(context.Background())
		if src.Dialect().Name() != "duckdb" || err != nil || len(tables) != 1 || tables[0].Name.Name != "sales" {
			t.Errorf("Open(%q): dialect %q, tables %v, %v", dsn, src.Dialect().Name(), tables, err)
		}
		src.Close()
	}
	// The sqlite: forms are explicit and stay SQLite's.
	if _, err := Open(context.Background(), "sqlite://"+path); err == nil || !errors.Is(err, warehouse.ErrBadInput) {
		t.Errorf("sqlite:// of a DuckDB file: %v, want a bad-input error", err)
	}
}

func TestOpenBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.db")
	for _, c := range []struct{ dsn, msg string }{
		{"", "empty DSN; expected a SQLite path, sqlite://, postgres://, mysql://, duckdb://, trino:// or spark://"},
		{"postgres://bob:secret@127.0.0.1:1/db", "postgres: cannot reach 127.0.0.1:1: connection refused"},
		{"postgresql://127.0.0.1:1/db", "postgres: cannot reach 127.0.0.1:1: connection refused"},
		{"mysql://u:secret@tcp(127.0.0.1:1)/db", "mysql: cannot reach 127.0.0.1:1: connection refused"},
		{"duckdb://" + missing + ".duckdb", "duckdb: open " + missing + ".duckdb: no such file"},
		{"trino://u@127.0.0.1:1/c", "trino: open 127.0.0.1:1: cannot connect: connect: connection refused"},
		{"trino://u:secret@127.0.0.1:1/c", "trino: bad DSN trino://u:***@127.0.0.1:1/c: a password needs HTTPS; use trinos:// or ?secure=true"},
		{"oracle://h/db", `unknown DSN scheme "oracle"; expected a SQLite path, sqlite://, postgres://, mysql://, duckdb://, trino:// or spark://`},
		{"spark://u@127.0.0.1:1/db", "spark: open 127.0.0.1:1: cannot connect: connect: connection refused"},
		{"spark://u:secret@127.0.0.1:1/db", "spark: bad DSN spark://u:***@127.0.0.1:1/db: a password needs TLS; use sparks:// or ?tls=true (or ?cleartext_password=true to send it unencrypted)"},
		{missing, "sqlite: open " + missing + ": no such file"},
		{"sqlite://" + missing, "sqlite: open " + missing + ": no such file"},
	} {
		src, err := Open(context.Background(), c.dsn)
		if err == nil {
			src.Close()
			t.Errorf("Open(%q) succeeded", c.dsn)
			continue
		}
		if src != nil {
			t.Errorf("Open(%q) returned a non-nil Source with its error", c.dsn)
		}
		if !errors.Is(err, warehouse.ErrBadInput) || err.Error() != c.msg {
			t.Errorf("Open(%q) = %q; want ErrBadInput %q", c.dsn, err, c.msg)
		}
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Error("Open created the missing file")
	}
}
