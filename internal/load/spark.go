package load

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/discover-db/discover/internal/hs2"
)

// Spark is a target through a Spark SQL server's HiveServer2 protocol
// (Spark Thrift Server), and differs from the others in what it holds and
// how rows arrive:
//
//   - Tables are Parquet files (USING parquet) in the server's warehouse:
//     no keys, unique constraints, indexes, foreign keys or defaults; NOT
//     NULL is written but Spark drops it from a data source table, so
//     every column reads as nullable.
//   - The "database" is a Spark database: CreateDatabase takes
//     spark://user@host:port/db and gives spark://user@host:port/name.
//   - Rows go in as INSERT … SELECT from one JSON text a batch, exploded
//     by inline(from_json(…)): a string literal is read at once, where
//     many VALUES rows cost the parser seconds.
//   - The loader's sessions read "…" as a name (ANSI mode with
//     doubleQuotedIdentifiers), so that the shared DDL and SQLite's view
//     text run as written; a view keeps the settings it was made with.

const spark = "spark"

// sparkInsertBytes bounds one INSERT's JSON: a few large statements load
// faster than many small ones.
const sparkInsertBytes = 800_000

// sparkPins are the loader's session settings (see above).
var sparkPins = []string{
	"SET spark.sql.ansi.enabled=true",
	"SET spark.sql.ansi.doubleQuotedIdentifiers=true",
	"SET spark.sql.parser.escapedStringLiterals=false",
	"SET spark.sql.session.timeZone=UTC",
}

// sparkAdmin reads spark://[user@]host:port[/database].
func sparkAdmin(dsn string) (hs2.Config, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return hs2.Config{}, fmt.Errorf("spark DSN: %w", err)
	}
	db := strings.Trim(u.Path, "/")
	if u.Scheme != spark || u.Host == "" || strings.Contains(db, "/") || u.Port() == "" {
		return hs2.Config{}, fmt.Errorf("spark DSN %q: want spark://user@host:port[/database]", dsn)
	}
	c := hs2.Config{Host: u.Host, User: "anonymous", Database: "default", Auth: hs2.AuthNone}
	if u.User != nil && u.User.Username() != "" {
		c.User = u.User.Username()
	}
	if db != "" {
		c.Database = db
	}
	return c, nil
}

// sparkExec runs statements on one new session of the server at dsn.
func sparkExec(ctx context.Context, dsn string, stmts ...string) error {
	c, err := sparkAdmin(dsn)
	if err != nil {
		return err
	}
	cn, err := hs2.Dial(ctx, &c, sparkPins)
	if err != nil {
		return err
	}
	defer cn.Close()
	for _, s := range stmts {
		if _, err := cn.Exec(ctx, s, 0); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// createSpark is CreateDatabase for Spark: a database of the server.
func createSpark(ctx context.Context, adminDSN, name string) (string, func() error, error) {
	if err := sparkExec(ctx, adminDSN, "CREATE DATABASE "+quote(name)); err != nil {
		return "", nil, fmt.Errorf("load: create database %s: %w", name, err)
	}
	drop := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), dropTimeout)
		defer cancel()
		return DropSparkDatabase(ctx, adminDSN, name)
	}
	u, err := url.Parse(adminDSN)
	if err != nil {
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), drop, nil
}

// DropSparkDatabase drops the database name of the server at adminDSN and
// all it holds, if it exists: what CreateDatabase's drop does, for a copy
// kept under a fixed name (the demo in database demo) that a later run
// replaces.
func DropSparkDatabase(ctx context.Context, adminDSN, name string) error {
	if err := sparkExec(ctx, adminDSN, "DROP DATABASE IF EXISTS "+quote(name)+" CASCADE"); err != nil {
		return fmt.Errorf("load: drop database %s: %w", name, err)
	}
	return nil
}

// sparkTarget fills a database of a Spark SQL server. Statements name
// tables bare: the session's database is the DSN's.
type sparkTarget struct {
	cn *hs2.Conn
}

func openSparkTarget(ctx context.Context, dsn string) (*sparkTarget, error) {
	c, err := sparkAdmin(dsn)
	if err != nil {
		return nil, err
	}
	if c.Database == "default" {
		return nil, fmt.Errorf("spark DSN %q: no database to fill", dsn)
	}
	cn, err := hs2.Dial(ctx, &c, sparkPins)
	if err != nil {
		return nil, err
	}
	return &sparkTarget{cn: cn}, nil
}

func (st *sparkTarget) exec(ctx context.Context, stmt string) error {
	_, err := st.cn.Exec(ctx, stmt, 0)
	return err
}

func (st *sparkTarget) close() { st.cn.Close() }

// sparkString is s as a Spark string literal: Spark reads backslash
// escapes in '…', and JSON text is full of backslashes.
func sparkString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// load sends t's rows as one JSON text per batch, of arrays of strings
// and integers that the SELECT casts to the columns' types: decimals and
// doubles travel as text (exact; JSON has no infinity), blobs as hex.
func (st *sparkTarget) load(ctx context.Context, src *sql.DB, t *table) error {
	r, err := readRows(ctx, src, t)
	if err != nil {
		return err
	}
	defer r.close()
	fields := make([]string, len(t.cols))
	exprs := make([]string, len(t.cols))
	for i, c := range t.cols {
		f := fmt.Sprintf("c%d", i)
		typ, err := columnType(spark, c)
		if err != nil {
			return err
		}
		switch c.kind {
		case kindInt:
			fields[i], exprs[i] = f+": BIGINT", f
		case kindText:
			fields[i], exprs[i] = f+": STRING", f
		case kindBlob:
			fields[i], exprs[i] = f+": STRING", "unhex("+f+")"
		default:
			fields[i], exprs[i] = f+": STRING", "CAST("+f+" AS "+typ+")"
		}
	}
	head := "INSERT INTO " + quote(t.name) + " (" + quoteList(columnNames(t)) + ") SELECT " + strings.Join(exprs, ", ") +
		" FROM (SELECT inline(from_json("
	tail := ", 'array<struct<" + strings.Join(fields, ", ") + ">>')))"
	var b strings.Builder
	flush := func() error {
		if b.Len() == 0 {
			return nil
		}
		err := st.exec(ctx, head+sparkString("["+b.String()+"]")+tail)
		b.Reset()
		return err
	}
	row := make([]any, len(t.cols))
	for r.next() {
		for i, c := range t.cols {
			// Trino's JSON values are Spark's: text for decimals, doubles
			// and blobs (hex), numbers for integers.
			if row[i], err = trinoJSONValue(c, r.row[i]); err != nil {
				return err
			}
		}
		// An object per row: from_json reads a struct from an object's
		// fields, not from an array's positions.
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		for i, v := range row {
			js, err := json.Marshal(v)
			if err != nil {
				return fmt.Errorf("row of %q: %w", t.name, err)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"c%d":`, i)
			b.Write(js)
		}
		b.WriteByte('}')
		if b.Len() >= sparkInsertBytes {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	return flush()
}

// addForeignKey is a no-op: Spark declares no keys.
func (st *sparkTarget) addForeignKey(context.Context, *table, foreignKey) error { return nil }

func (st *sparkTarget) tryView(ctx context.Context, name, stmt string) error {
	if err := st.exec(ctx, stmt); err != nil {
		return err
	}
	_, err := st.cn.Exec(ctx, "SELECT * FROM "+quote(name)+" LIMIT 1", 1)
	if err != nil {
		dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if derr := st.exec(dctx, "DROP VIEW "+quote(name)); derr != nil {
			return errors.Join(err, derr)
		}
	}
	return err
}

// analyze is a no-op: discover reads no statistics on Spark.
func (st *sparkTarget) analyze(context.Context, []*table) error { return nil }
