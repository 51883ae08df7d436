// Package load copies a SQLite database (the demo, or any simple one) into
// PostgreSQL, MariaDB/MySQL, a new DuckDB file or a schema of a Trino
// memory catalog (trino.go: no keys there), so that integration tests
// can run discover on the same data in every engine and compare what it
// finds.
//
// The copy keeps what discover reports on: tables and views by name, every
// row, primary keys, UNIQUE constraints, indexes under their names, and the
// foreign keys SQLite declares, no more (references the data merely respects
// stay undeclared). Column types follow the values, not only the declared
// type, because SQLite lets a column hold anything:
//
//	SQLite                               PostgreSQL        MySQL                                       DuckDB
//	INTEGER affinity, integers only      BIGINT            BIGINT                                      BIGINT
//	REAL affinity, or reals in INTEGER   DOUBLE PRECISION  DOUBLE                                      DOUBLE
//	NUMERIC/DECIMAL, two decimals fit    NUMERIC(14,2)     DECIMAL(14,2)                               DECIMAL(14,2)
//	NUMERIC/DECIMAL otherwise            DOUBLE PRECISION  DOUBLE                                      DOUBLE
//	TEXT, or any text in the column      TEXT              TEXT; VARCHAR(255+) in a key, index or FK   VARCHAR
//	BLOB                                 BYTEA             LONGBLOB; VARBINARY(255+) in a key          BLOB
//
// Dates stored as text stay text. Other declared types of NUMERIC affinity
// (BOOLEAN, DATE holding numbers) become BIGINT or DOUBLE by their values.
//
// Every target compares text byte by byte, as SQLite does: PostgreSQL
// databases are created with the C collation, MySQL ones with
// utf8mb4_nopad_bin (or the nearest binary collation the server has);
// DuckDB does so by default.
//
// DuckDB checks foreign keys as rows arrive and declares them only in
// CREATE TABLE, so its copy differs in how it gets there (see duckdb.go):
// rows that break a declared key, or that reference each other in a
// cycle, fail the copy instead of being kept as SQLite kept them.
//
// It is imported by tests only (cmd/discover's parity and untrusted-SQL
// tests, the experts' MySQL tests, internal/pgscratch).
package load

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	mysqldrv "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

var validName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,62}$`)

// dropTimeout bounds a drop: it usually runs in a test's cleanup, after the
// test's own context is gone.
const dropTimeout = time.Minute

// CreateDatabase creates the empty database name on the server adminDSN
// points at and returns a DSN for it in the same form, with a function that
// drops it again. dialect is "postgres" (postgres://… DSNs) or "mysql"
// (discover's mysql://user:password@host:port/db form). The name is limited
// to letters, digits and underscores so it needs no escaping in a URL.
//
// For dialect "duckdb", adminDSN is a folder (optionally duckdb://folder;
// "" for the system's temporary folder): nothing is created yet, since
// Copy makes the file itself. The DSN is duckdb:///folder/name.duckdb, and
// drop removes that file and its write-ahead log.
func CreateDatabase(ctx context.Context, dialect, adminDSN, name string) (dsn string, drop func() error, err error) {
	if !validName.MatchString(name) {
		return "", nil, fmt.Errorf("load: database name %q: use letters, digits and _ only", name)
	}
	if dialect == duckdb {
		return createDuckDB(adminDSN, name)
	}
	if dialect == trino {
		return createTrino(ctx, adminDSN, name)
	}
	if dialect == spark {
		return createSpark(ctx, adminDSN, name)
	}
	u, err := url.Parse(adminDSN)
	if err != nil {
		return "", nil, fmt.Errorf("load: admin DSN: %w", err)
	}
	u.Path, u.RawPath = "/"+name, ""
	dsn = u.String()

	switch dialect {
	case postgres:
		run := func(ctx context.Context, stmt string) error {
			conn, err := pgx.Connect(ctx, adminDSN)
			if err != nil {
				return err
			}
			defer conn.Close(context.Background())
			_, err = conn.Exec(ctx, stmt)
			return err
		}
		// template0 because template1's collation is fixed; C so that text
		// sorts and compares by bytes as in SQLite.
		if err := run(ctx, "CREATE DATABASE "+quote(name)+" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"); err != nil {
			return "", nil, fmt.Errorf("load: create database %s: %w", name, err)
		}
		drop = func() error {
			ctx, cancel := context.WithTimeout(context.Background(), dropTimeout)
			defer cancel()
			// FORCE ends the sessions a test left open (a pool not closed).
			if err := run(ctx, "DROP DATABASE IF EXISTS "+quote(name)+" WITH (FORCE)"); err != nil {
				return fmt.Errorf("load: drop database %s: %w", name, err)
			}
			return nil
		}
	case mysql:
		db, err := openMySQL(adminDSN)
		if err != nil {
			return "", nil, err
		}
		defer db.Close()
		coll, err := binaryCollation(ctx, db)
		if err != nil {
			return "", nil, fmt.Errorf("load: create database %s: %w", name, err)
		}
		if _, err := db.ExecContext(ctx, "CREATE DATABASE "+quote(name)+" CHARACTER SET utf8mb4 COLLATE "+coll); err != nil {
			return "", nil, fmt.Errorf("load: create database %s: %w", name, err)
		}
		drop = func() error {
			ctx, cancel := context.WithTimeout(context.Background(), dropTimeout)
			defer cancel()
			db, err := openMySQL(adminDSN)
			if err != nil {
				return err
			}
			defer db.Close()
			if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+quote(name)); err != nil {
				return fmt.Errorf("load: drop database %s: %w", name, err)
			}
			return nil
		}
	default:
		return "", nil, fmt.Errorf("load: unknown dialect %q (want postgres, mysql, duckdb or trino)", dialect)
	}
	return dsn, drop, nil
}

// binaryCollation picks the collation that compares like SQLite's BINARY:
// byte by byte, trailing spaces significant (NO PAD). MariaDB has
// utf8mb4_nopad_bin, MySQL 8 utf8mb4_0900_bin; utf8mb4_bin pads, but is
// everywhere.
func binaryCollation(ctx context.Context, db *sql.DB) (string, error) {
	for _, c := range []string{"utf8mb4_nopad_bin", "utf8mb4_0900_bin"} {
		var n int
		if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM information_schema.collations WHERE collation_name = ?", c).Scan(&n); err != nil {
			return "", err
		}
		if n > 0 {
			return c, nil
		}
	}
	return "utf8mb4_bin", nil
}

// mysqlConfig turns discover's mysql://user:password@host:port/db?params
// into the driver's configuration; params are the driver's own.
func mysqlConfig(dsn string) (*mysqldrv.Config, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("load: mysql DSN: %w", err)
	}
	if u.Scheme != "mysql" {
		return nil, fmt.Errorf("load: mysql DSN: scheme %q, want mysql://", u.Scheme)
	}
	if u.Host == "" {
		return nil, errors.New("load: mysql DSN: no host")
	}
	cfg := mysqldrv.NewConfig()
	if u.RawQuery != "" {
		if cfg, err = mysqldrv.ParseDSN("/?" + u.RawQuery); err != nil {
			return nil, fmt.Errorf("load: mysql DSN: %w", err)
		}
	}
	cfg.User = u.User.Username()
	cfg.Passwd, _ = u.User.Password()
	cfg.Net = "tcp"
	cfg.Addr = u.Host
	if u.Port() == "" {
		cfg.Addr = net.JoinHostPort(u.Hostname(), "3306")
	}
	cfg.DBName = strings.TrimPrefix(u.Path, "/")
	return cfg, nil
}

// openMySQL opens a pool whose every connection reads SQL the way SQLite
// and PostgreSQL do: "double quotes" name identifiers, || concatenates and
// backslashes are plain characters. That lets one set of DDL, and most
// views, run unchanged on all three. Foreign key checks are off because the
// loader adds keys after the data, and SQLite never checked them either.
func openMySQL(dsn string) (*sql.DB, error) {
	cfg, err := mysqlConfig(dsn)
	if err != nil {
		return nil, err
	}
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	cfg.Params["sql_mode"] = "CONCAT_WS(',', NULLIF(@@sql_mode, ''), 'ANSI_QUOTES,PIPES_AS_CONCAT,NO_BACKSLASH_ESCAPES')"
	cfg.Params["foreign_key_checks"] = "0"
	// One round trip per batch instead of prepare, execute and close.
	cfg.InterpolateParams = true
	conn, err := mysqldrv.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("load: mysql DSN: %w", err)
	}
	return sql.OpenDB(conn), nil
}

// target is a database being filled.
type target interface {
	exec(ctx context.Context, stmt string) error
	load(ctx context.Context, src *sql.DB, t *table) error
	addForeignKey(ctx context.Context, t *table, fk foreignKey) error
	// tryView creates a view and reads from it, and leaves nothing behind
	// when either fails.
	tryView(ctx context.Context, name, stmt string) error
	analyze(ctx context.Context, tables []*table) error
	close()
}

// Copy copies the SQLite database at sqlitePath into the empty database dsn
// points at (dialect "postgres", "mysql" or "duckdb", DSNs as
// CreateDatabase returns them): tables in foreign-key order with their
// keys, unique constraints and indexes, all rows, the declared foreign
// keys, the views, then fresh statistics. A view whose SQL runs on the
// target neither as written nor with its quoting standardised (nor, on
// DuckDB, with its bare grouped columns in ANY_VALUE) is an error naming
// the view.
//
// For "duckdb", dsn is duckdb:///path/file.duckdb or a plain path, of a
// file that must not exist yet: Copy creates it, checkpoints it and closes
// it, so the file is complete when Copy returns, and removes it again when
// the copy fails.
func Copy(ctx context.Context, sqlitePath, dialect, dsn string) error {
	if err := copyDB(ctx, sqlitePath, dialect, dsn); err != nil {
		return fmt.Errorf("load: %s → %s: %w", sqlitePath, dialect, err)
	}
	return nil
}

func copyDB(ctx context.Context, sqlitePath, dialect, dsn string) error {
	if dialect != postgres && dialect != mysql && dialect != duckdb && dialect != trino && dialect != spark {
		return fmt.Errorf("unknown dialect %q (want postgres, mysql, duckdb, trino or spark)", dialect)
	}
	// mode=ro opens a missing file lazily and fails on the first query with
	// a vaguer message.
	if _, err := os.Stat(sqlitePath); err != nil {
		return err
	}
	src, err := openSQLite(sqlitePath)
	if err != nil {
		return err
	}
	defer src.Close()
	s, err := readSchema(ctx, src)
	if err != nil {
		return err
	}
	// All DDL is built before the target is touched, so a column the target
	// cannot hold fails the copy before it leaves a half-made database.
	creates := make([]string, len(s.tables))
	for i, t := range s.tables {
		if creates[i], err = createTable(dialect, t); err != nil {
			return fmt.Errorf("table %q: %w", t.name, err)
		}
	}
	if dialect == duckdb {
		if err := duckKeysInOrder(s.tables); err != nil {
			return err
		}
	}

	var tgt target
	switch dialect {
	case postgres:
		tgt, err = openPostgres(ctx, dsn)
	case mysql:
		tgt, err = openMySQLTarget(ctx, dsn)
	case trino:
		tgt, err = openTrinoTarget(dsn)
	case spark:
		tgt, err = openSparkTarget(ctx, dsn)
	default:
		tgt, err = openDuckTarget(ctx, dsn)
	}
	if err != nil {
		return err
	}
	defer tgt.close()

	for i, t := range s.tables {
		if err := tgt.exec(ctx, creates[i]); err != nil {
			return fmt.Errorf("create table %q: %w", t.name, err)
		}
	}
	for _, t := range s.tables {
		if err := tgt.load(ctx, src, t); err != nil {
			return fmt.Errorf("rows of %q: %w", t.name, err)
		}
		t.buffered = nil
	}
	// Indexes and foreign keys come after the rows: building an index once
	// is cheaper than maintaining it row by row, and keys added last let
	// tables load in any order.
	for _, t := range s.tables {
		if dialect == trino || dialect == spark {
			break // Trino and Spark have no indexes
		}
		for _, x := range t.indexes {
			if err := tgt.exec(ctx, createIndex(t, x)); err != nil {
				return fmt.Errorf("index %q: %w", x.name, err)
			}
		}
	}
	for _, t := range s.tables {
		for _, fk := range t.fks {
			if err := tgt.addForeignKey(ctx, t, fk); err != nil {
				return fmt.Errorf("table %q: foreign key (%s) → %s: %w", t.name, strings.Join(fk.cols, ", "), fk.parent, err)
			}
		}
	}
	if err := createViews(ctx, dialect, tgt, s.views); err != nil {
		return err
	}
	if err := tgt.analyze(ctx, s.tables); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	if f, ok := tgt.(finisher); ok {
		return f.finish()
	}
	return nil
}

// finisher is a target with a last step that can fail, after which close
// keeps what was made: closing a DuckDB file.
type finisher interface {
	finish() error
}

// createViews creates the views, retrying those that failed while others
// succeed: SQLite keeps a view that reads another view in either order.
func createViews(ctx context.Context, dialect string, tgt target, views []view) error {
	type pending struct {
		v     view
		stmts []string
		err   error
	}
	var todo []*pending
	for _, v := range views {
		stmts, err := viewStatements(dialect, v)
		if err != nil {
			return fmt.Errorf("view %q: %w", v.name, err)
		}
		todo = append(todo, &pending{v: v, stmts: stmts})
	}
	for len(todo) > 0 {
		var left []*pending
		for _, p := range todo {
			p.err = nil
			for _, stmt := range p.stmts {
				if p.err = tgt.tryView(ctx, p.v.name, stmt); p.err == nil {
					break
				}
			}
			if p.err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				left = append(left, p)
			}
		}
		if len(left) == len(todo) {
			return fmt.Errorf("view %q does not run on the target: %w", left[0].v.name, left[0].err)
		}
		todo = left
	}
	return nil
}

// selectRows reads t's rows with no declared type attached to the columns
// (a bare column reference would let the driver turn DATE text into
// time.Time): unary + is SQLite's no-op that makes each an expression.
func selectRows(ctx context.Context, src *sql.DB, t *table) (*sql.Rows, error) {
	exprs := make([]string, len(t.cols))
	for i, c := range t.cols {
		if c.castText {
			exprs[i] = "CAST(" + quote(c.name) + " AS TEXT)"
		} else {
			exprs[i] = "+" + quote(c.name)
		}
	}
	return src.QueryContext(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+quote(t.name))
}

// rowReader yields t's rows as SQLite holds them, from the buffer profile
// filled or from a fresh read.
type rowReader struct {
	rows *sql.Rows // nil when reading the buffer
	buf  []any
	n    int // values per row
	pos  int // where the next row starts in buf
	row  []any
	ptrs []any
	err  error
}

func readRows(ctx context.Context, src *sql.DB, t *table) (*rowReader, error) {
	r := &rowReader{n: len(t.cols)}
	if t.buffered != nil || t.rows == 0 {
		r.buf = t.buffered
		return r, nil
	}
	rows, err := selectRows(ctx, src, t)
	if err != nil {
		return nil, err
	}
	r.rows = rows
	r.row = make([]any, r.n)
	r.ptrs = make([]any, r.n)
	for i := range r.row {
		r.ptrs[i] = &r.row[i]
	}
	return r, nil
}

// next moves to the next row, which r.row holds until the next call.
func (r *rowReader) next() bool {
	if r.err != nil {
		return false
	}
	if r.rows == nil {
		if r.pos+r.n > len(r.buf) {
			return false
		}
		r.row = r.buf[r.pos : r.pos+r.n]
		r.pos += r.n
		return true
	}
	if !r.rows.Next() {
		return false
	}
	r.err = r.rows.Scan(r.ptrs...)
	return r.err == nil
}

func (r *rowReader) Err() error {
	if r.err != nil || r.rows == nil {
		return r.err
	}
	return r.rows.Err()
}

func (r *rowReader) close() {
	if r.rows != nil {
		r.rows.Close()
	}
}

func columnNames(t *table) []string {
	names := make([]string, len(t.cols))
	for i, c := range t.cols {
		names[i] = c.name
	}
	return names
}

// value converts what SQLite returned for c into what the target column
// takes. decimal renders exact two-decimal values for the dialect.
func value(c *column, v any, decimal func(unscaled *big.Int, s string) any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch c.kind {
	case kindInt:
		if n, ok := v.(int64); ok {
			return n, nil
		}
	case kindFloat:
		switch n := v.(type) {
		case int64:
			return float64(n), nil
		case float64:
			return n, nil
		}
	case kindDecimal:
		var s string
		switch n := v.(type) {
		case int64:
			s = strconv.FormatInt(n, 10) + ".00"
		case float64:
			s = strconv.FormatFloat(n, 'f', 2, 64)
		default:
			return nil, fmt.Errorf("column %q: %T in a decimal column", c.name, v)
		}
		unscaled, ok := new(big.Int).SetString(strings.Replace(s, ".", "", 1), 10)
		if !ok {
			return nil, fmt.Errorf("column %q: bad decimal %q", c.name, s)
		}
		return decimal(unscaled, s), nil
	case kindText:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case kindBlob:
		if b, ok := v.([]byte); ok {
			return b, nil
		}
	}
	return nil, fmt.Errorf("column %q: unexpected %T for a %v column", c.name, v, c.kind)
}

// pgTarget fills a PostgreSQL database over one connection.
type pgTarget struct {
	conn *pgx.Conn
}

func openPostgres(ctx context.Context, dsn string) (*pgTarget, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	return &pgTarget{conn: conn}, nil
}

func (p *pgTarget) close() { p.conn.Close(context.Background()) }

func (p *pgTarget) exec(ctx context.Context, stmt string) error {
	_, err := p.conn.Exec(ctx, stmt)
	return err
}

func pgDecimal(unscaled *big.Int, _ string) any {
	return pgtype.Numeric{Int: unscaled, Exp: -2, Valid: true}
}

// rowSource streams SQLite rows into COPY, converting as it goes.
type rowSource struct {
	r   *rowReader
	t   *table
	out []any
	err error
}

func (s *rowSource) Next() bool {
	if s.err != nil || !s.r.next() {
		return false
	}
	for i, c := range s.t.cols {
		if s.out[i], s.err = value(c, s.r.row[i], pgDecimal); s.err != nil {
			return false
		}
	}
	return true
}

// Values may hand out the same slice every row: pgx encodes a row before it
// asks for the next.
func (s *rowSource) Values() ([]any, error) { return s.out, nil }

func (s *rowSource) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.r.Err()
}

func (p *pgTarget) load(ctx context.Context, src *sql.DB, t *table) error {
	r, err := readRows(ctx, src, t)
	if err != nil {
		return err
	}
	defer r.close()
	tx, err := p.conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	n, err := tx.CopyFrom(ctx, pgx.Identifier{t.name}, columnNames(t), &rowSource{r: r, t: t, out: make([]any, len(t.cols))})
	if err != nil {
		return err
	}
	if n != t.rows {
		return fmt.Errorf("copied %d rows of %d", n, t.rows)
	}
	return tx.Commit(ctx)
}

func (p *pgTarget) addForeignKey(ctx context.Context, t *table, fk foreignKey) error {
	stmt := addForeignKey(t, fk)
	err := p.exec(ctx, stmt)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" {
		// SQLite declared the key but never enforced it, and the data
		// breaks it. NOT VALID keeps the declaration without checking the
		// rows already there, which is what SQLite had.
		return p.exec(ctx, stmt+" NOT VALID")
	}
	return err
}

func (p *pgTarget) tryView(ctx context.Context, name, stmt string) error {
	tx, err := p.conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, stmt); err != nil {
		return err
	}
	rows, err := tx.Query(ctx, "SELECT * FROM "+quote(name)+" LIMIT 1")
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func (p *pgTarget) analyze(ctx context.Context, _ []*table) error {
	return p.exec(ctx, "ANALYZE")
}

// myTarget fills a MySQL or MariaDB database over one connection, so that
// the session settings openMySQL makes hold for every statement.
type myTarget struct {
	db   *sql.DB
	conn *sql.Conn
}

func openMySQLTarget(ctx context.Context, dsn string) (*myTarget, error) {
	db, err := openMySQL(dsn)
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &myTarget{db: db, conn: conn}, nil
}

func (m *myTarget) close() {
	m.conn.Close()
	m.db.Close()
}

func (m *myTarget) exec(ctx context.Context, stmt string) error {
	_, err := m.conn.ExecContext(ctx, stmt)
	return err
}

func myDecimal(_ *big.Int, s string) any { return s }

// Batches are cut at batchRows rows or batchBytes bytes of values, whichever
// comes first; the byte bound keeps a statement well below MariaDB's
// default 16 MB max_allowed_packet when rows carry long text.
const (
	batchRows  = 500
	batchBytes = 4 << 20
)

func (m *myTarget) load(ctx context.Context, src *sql.DB, t *table) error {
	r, err := readRows(ctx, src, t)
	if err != nil {
		return err
	}
	defer r.close()
	tx, err := m.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	prefix := "INSERT INTO " + quote(t.name) + " (" + quoteList(columnNames(t)) + ") VALUES "
	tuple := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(t.cols)), ", ") + ")"
	full := prefix + strings.TrimSuffix(strings.Repeat(tuple+", ", batchRows), ", ")
	args := make([]any, 0, batchRows*len(t.cols))
	n, size, copied := 0, 0, int64(0)
	flush := func() error {
		if n == 0 {
			return nil
		}
		stmt := full
		if n < batchRows {
			stmt = prefix + strings.TrimSuffix(strings.Repeat(tuple+", ", n), ", ")
		}
		if _, err := tx.ExecContext(ctx, stmt, args...); err != nil {
			return err
		}
		copied += int64(n)
		args, n, size = args[:0], 0, 0
		return nil
	}
	for r.next() {
		for i, c := range t.cols {
			v, err := value(c, r.row[i], myDecimal)
			if err != nil {
				return err
			}
			switch v := v.(type) {
			case string:
				size += len(v)
			case []byte:
				size += len(v)
			default:
				size += 8
			}
			args = append(args, v)
		}
		if n++; n == batchRows || size >= batchBytes {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	if copied != t.rows {
		return fmt.Errorf("copied %d rows of %d", copied, t.rows)
	}
	return tx.Commit()
}

func (m *myTarget) addForeignKey(ctx context.Context, t *table, fk foreignKey) error {
	return m.exec(ctx, addForeignKey(t, fk))
}

// tryView cannot lean on a transaction: MySQL commits DDL at once.
func (m *myTarget) tryView(ctx context.Context, name, stmt string) error {
	if err := m.exec(ctx, stmt); err != nil {
		return err
	}
	rows, err := m.conn.QueryContext(ctx, "SELECT * FROM "+quote(name)+" LIMIT 1")
	if err == nil {
		for rows.Next() {
		}
		rows.Close()
		err = rows.Err()
	}
	if err != nil {
		m.exec(context.Background(), "DROP VIEW IF EXISTS "+quote(name))
	}
	return err
}

// analyze runs ANALYZE TABLE, which reports failures as rows rather than
// as an error.
func (m *myTarget) analyze(ctx context.Context, tables []*table) error {
	if len(tables) == 0 {
		return nil
	}
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = quote(t.name)
	}
	rows, err := m.conn.QueryContext(ctx, "ANALYZE TABLE "+strings.Join(names, ", "))
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var table, op, msgType, msg sql.NullString
		if err := rows.Scan(&table, &op, &msgType, &msg); err != nil {
			return err
		}
		if strings.EqualFold(msgType.String, "error") {
			problems = append(problems, table.String+": "+msg.String)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if problems != nil {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}
