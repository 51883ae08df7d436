// Package sqlite is the SQLite engine of the warehouse: a database file
// opened strictly read-only through modernc.org/sqlite.
//
// Read-only is enforced three times over: the file is opened with SQLite's
// mode=ro (no write reaches the main file), every connection carries
// PRAGMA query_only, and an authorizer on every connection refuses anything
// but reading (mode=ro alone still lets ATTACH and VACUUM INTO create files
// elsewhere, and query_only can be switched off by a PRAGMA). The SQL guard
// (guard.go: an allow-list SQLite's own authorizer enforces while it
// compiles the statement on a connection of the guard's, which never runs
// it) is in front of all of it for every statement Query and Stream run.
package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	msqlite "modernc.org/sqlite"

	"github.com/discover-db/discover/warehouse"
)

const (
	// DefaultTimeout bounds a Query when QueryOptions.Timeout is 0.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxRows bounds a Query when QueryOptions.MaxRows is 0.
	DefaultMaxRows = 10000
)

// busyTimeoutMS lets reads wait out a writer's commit in another process
// instead of failing at once with SQLITE_BUSY. A variable for tests.
var busyTimeoutMS = 5000

// header is the first 16 bytes of every SQLite 3 database file.
const header = "SQLite format 3\x00"

var _ warehouse.Source = (*Source)(nil)

// Source is a SQLite database file opened read-only.
type Source struct {
	path string
	abs  string
	name string

	poolMu sync.Mutex
	// db is the pool statements run on. An immutable pool (snap set) is
	// replaced as soon as the file shows a writer (see current).
	db      *sql.DB
	snap    *fileSnap
	retired []*sql.DB // pools replaced while statements may still run on them
	// onRead, when set (tests), runs after each statement on an immutable
	// pool, before the file is checked for changes.
	onRead func()
	// backoff holds the pauses before each further attempt of a statement
	// refused because another process kept the file locked for longer than
	// busy_timeout (see retryBusy); nil retries nothing.
	backoff []time.Duration
	// onRetry, when set (tests), is told of each failure that is retried.
	onRetry func(error)

	mu      sync.Mutex
	skipped []warehouse.Skipped // set by Tables; non-nil once listed
	listed  []warehouse.Table   // the latest listing, the guard's inventory
	names   *schemaNames        // and the other names of its schema
	listGen int                 // counts listings, so the guard sees a new one

	// guardMu serializes the guard (see guard.go): its connection, opened
	// on the file as the pool gconnFor sees it, and what it may read.
	guardMu     sync.Mutex
	gconn       *guardConn
	gconnFor    *sql.DB
	grel        *relations
	guardClosed bool
}

var _ warehouse.SkipReporter = (*Source)(nil)

// Open opens the SQLite file at path read-only. It never creates or changes
// the file. A missing file, a non-regular file, a file that is not a SQLite
// database and a corrupt one are reported as warehouse.ErrBadInput.
func Open(ctx context.Context, path string) (*Source, error) {
	if path == "" {
		return nil, warehouse.BadInputf("sqlite: open: empty path")
	}
	wal, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	// A WAL database opened with mode=ro still creates -wal and -shm files
	// next to it, and leaves them behind (a read-only connection cannot
	// checkpoint), or fails in a read-only folder. When neither exists the
	// file holds every committed page, so immutable=1 reads it without
	// touching the folder; when they exist, a writer may be active and the
	// WAL must be read, so the normal path is taken. immutable=1 also tells
	// SQLite that nobody writes: current watches for a writer that starts
	// later and leaves the immutable pool as soon as one shows.
	var snap *fileSnap
	if wal && !walFiles(abs) {
		f, err := snapshot(abs)
		if err != nil {
			return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
		}
		snap = &f
	}
	db, err := openDB(uri(abs, snap != nil), true)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	// The header check passes for a truncated or corrupt file; reading the
	// schema is what makes SQLite look at the pages.
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		db.Close()
		switch code(err) {
		case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
			return nil, warehouse.BadInputf("sqlite: open %s: not a usable SQLite database: %v", path, err)
		}
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	stem := filepath.Base(path)
	stem = strings.TrimSuffix(stem, filepath.Ext(stem))
	return &Source{db: db, snap: snap, path: path, abs: abs, name: stem, backoff: busyBackoff}, nil
}

// fileSnap is what an immutable pool took the main file to be when it was
// opened: the same file (not one renamed over it), its size and its
// modification time. A writer in WAL mode changes the main file only when
// it checkpoints, and every write sets the time (to the kernel's clock
// tick, a few milliseconds: a change within the tick of the snapshot's own
// time could go unseen, but a writer checkpoints with its -wal file
// present, which current sees first).
type fileSnap struct{ fi os.FileInfo }

func snapshot(abs string) (fileSnap, error) {
	fi, err := os.Stat(abs)
	return fileSnap{fi}, err
}

// unchanged reports whether the main file is as snap found it.
func (f *fileSnap) unchanged(abs string) bool {
	now, err := os.Stat(abs)
	return err == nil && os.SameFile(now, f.fi) && now.Size() == f.fi.Size() && now.ModTime().Equal(f.fi.ModTime())
}

// walFiles reports whether a WAL database's -wal or -shm file exists: a
// connection that is not immutable has the database open, or left them.
func walFiles(abs string) bool { return exists(abs+"-wal") || exists(abs+"-shm") }

// errChanged: a statement on an immutable pool overlapped a change to the
// file, so its pages may come from before and after it.
var errChanged = errors.New("the database file was changed by another process while it was read")

// current returns the pool to run a statement on, and the snapshot an
// immutable one assumes (nil for a normal pool). A writer that opened the
// file since (its -wal and -shm exist) or changed it (size or time) ends
// the immutable pool: with the WAL files present the file is opened the
// normal way, which reads the WAL and takes SQLite's locks; without them
// (the writer checkpointed and closed) a fresh immutable pool reads the new
// state, still creating nothing beside the file. The old pool is closed
// with the Source, as statements may still run on it.
func (s *Source) current() (*sql.DB, *fileSnap, error) {
	s.poolMu.Lock()
	defer s.poolMu.Unlock()
	if s.snap == nil || !walFiles(s.abs) && s.snap.unchanged(s.abs) {
		return s.db, s.snap, nil
	}
	var snap *fileSnap
	f, err := snapshot(s.abs)
	if err != nil {
		return nil, nil, err
	}
	// Still in WAL mode (a writer may have turned it back to a rollback
	// journal, which readers share with locks and no files of their own).
	if wal, err := checkFile(s.abs); err == nil && wal && !walFiles(s.abs) {
		snap = &f
	}
	db, err := openDB(uri(s.abs, snap != nil), true)
	if err != nil {
		return nil, nil, err
	}
	// Statements may still run on the old pool: it keeps no idle
	// connection, and is closed with the Source.
	s.db.SetMaxIdleConns(0)
	s.retired = append(s.retired, s.db)
	s.db, s.snap = db, snap
	return db, snap, nil
}

// read runs fn on the current pool. When fn ran on an immutable pool and
// the file changed meanwhile, it runs again on a new pool if again says it
// may (nothing was handed over yet), else errChanged is returned.
func (s *Source) read(again func() bool, fn func(db *sql.DB) error) error {
	for attempt := 0; ; attempt++ {
		db, snap, err := s.current()
		if err != nil {
			return err
		}
		err = fn(db)
		if snap == nil {
			return err
		}
		if s.onRead != nil {
			s.onRead()
		}
		if snap.unchanged(s.abs) {
			return err
		}
		if attempt >= 3 || !again() {
			return errChanged
		}
	}
}

func always() bool { return true }

// checkFile refuses what is not a readable SQLite file before SQLite sees it,
// so the user gets a plain message instead of "file is not a database (26)",
// and reports whether the file is in WAL mode.
func checkFile(path string) (wal bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, warehouse.BadInputf("sqlite: open %s: no such file", path)
	case errors.Is(err, os.ErrPermission):
		return false, warehouse.BadInputf("sqlite: open %s: permission denied", path)
	case err != nil:
		return false, fmt.Errorf("sqlite: open %s: %w", path, err)
	case fi.IsDir():
		return false, warehouse.BadInputf("sqlite: open %s: is a directory, not a SQLite database", path)
	case !fi.Mode().IsRegular():
		return false, warehouse.BadInputf("sqlite: open %s: not a regular file", path)
	case fi.Size() == 0:
		return false, warehouse.BadInputf("sqlite: open %s: the file is empty, so it is not a SQLite database", path)
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return false, warehouse.BadInputf("sqlite: open %s: permission denied", path)
		}
		return false, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	defer f.Close()
	// Bytes 18 and 19 are the write and read format versions; 2 means WAL.
	var h [20]byte
	n, err := io.ReadFull(f, h[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return false, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if n < len(header) || !bytes.Equal(h[:len(header)], []byte(header)) {
		return false, warehouse.BadInputf("sqlite: open %s: the file is not a SQLite database", path)
	}
	return n == len(h) && (h[18] == 2 || h[19] == 2), nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// uri builds the read-only SQLite URI for an absolute path. Only a "file:"
// name makes modernc pass mode=ro on to SQLite (a plain name has its query
// stripped and would be opened read-write, created if missing).
func uri(abs string, immutable bool) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: file:///C:/x.db
	}
	q := "mode=ro"
	if immutable {
		q += "&immutable=1"
	}
	q += "&_pragma=busy_timeout(" + strconv.Itoa(busyTimeoutMS) + ")" +
		"&_pragma=query_only(1)" +
		// The file is untrusted: its views and triggers may only call
		// functions that are harmless whoever invokes them.
		"&_pragma=trusted_schema(0)"
	return "file://" + escapePath(p) + "?" + q
}

// escapePath percent-escapes every byte SQLite's URI parser or modernc's
// DSN splitter could take for syntax ('?', '#', '%', '&', '=', space, …);
// SQLite decodes %XX in the path.
func escapePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '/', c == '-', c == '.', c == '_', c == '~', c == ':':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// openDB opens a pool on uri. authorize installs the read-only authorizer on
// every connection; tests turn it off to prove mode=ro holds by itself.
func openDB(uri string, authorize bool) (*sql.DB, error) {
	base, err := msqlite.NewConnector(uri)
	if err != nil {
		return nil, err
	}
	if !authorize {
		return sql.OpenDB(base), nil
	}
	db := sql.OpenDB(roConnector{base})
	db.SetMaxIdleConns(4)
	return db, nil
}

// roConnector installs the authorizer on each physical connection as the
// pool opens it, so no connection is ever usable without it.
type roConnector struct{ driver.Connector }

func (c roConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	r, ok := conn.(msqlite.AuthorizerRegisterer)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("sqlite driver connection %T has no authorizer", conn)
	}
	if err := r.RegisterAuthorizer(authorize); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// authorize allows reading and nothing else. It is fail-closed: an action
// SQLite adds later is refused until it is listed here. Transactions are
// refused too, so no statement can leave a pooled connection holding a read
// lock that blocks the database's own writers.
func authorize(action msqlite.AuthorizerActionCode, arg1, arg2, _, _ string) msqlite.AuthorizerReturnCode {
	switch action {
	case msqlite.AuthSelect, msqlite.AuthRead, msqlite.AuthFunction, msqlite.AuthRecursive:
		return msqlite.AuthorizerOK
	case msqlite.AuthPragma:
		name := strings.ToLower(arg1)
		if readPragmas[name] || arg2 == "" && queryPragmas[name] {
			return msqlite.AuthorizerOK
		}
	}
	return msqlite.AuthorizerDeny
}

// readPragmas only read, whatever their argument (a table, an index, a limit).
var readPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true,
	"index_list": true, "index_info": true, "index_xinfo": true,
	"foreign_key_list": true, "foreign_key_check": true,
	"integrity_check": true, "quick_check": true,
	"database_list": true, "collation_list": true, "function_list": true,
	"module_list": true, "pragma_list": true, "compile_options": true,
}

// queryPragmas read without an argument and set something with one.
var queryPragmas = map[string]bool{
	"page_count": true, "page_size": true, "freelist_count": true,
	"encoding": true, "user_version": true, "application_id": true,
	"schema_version": true, "data_version": true, "journal_mode": true,
	"auto_vacuum": true, "foreign_keys": true, "query_only": true,
	"busy_timeout": true, "cache_size": true, "max_page_count": true,
	"trusted_schema": true,
}

// code returns the primary SQLite result code of err, or 0.
func code(err error) int {
	var e *msqlite.Error
	if errors.As(err, &e) {
		return e.Code() & 0xff
	}
	var g *sqliteError
	if errors.As(err, &g) {
		return int(g.rc) & 0xff
	}
	return 0
}

// Dialect implements warehouse.Source.
func (s *Source) Dialect() warehouse.Dialect { return Dialect{} }

// Database is the file name without its extension.
func (s *Source) Database() string { return s.name }

// QuoteIdent quotes an identifier with double quotes, doubling embedded ones.
func (s *Source) QuoteIdent(name string) string { return QuoteIdent(name) }

// QuoteTable quotes schema and name; the main schema (Schema "") is left out.
func (s *Source) QuoteTable(t warehouse.TableName) string { return Dialect{}.QuoteTable(t) }

// QuoteIdent quotes an identifier for SQLite (Dialect.QuoteIdent).
func QuoteIdent(name string) string { return Dialect{}.QuoteIdent(name) }

// busyBackoff is the pause before each further attempt of a statement that
// found the file locked (SQLITE_BUSY) after waiting busy_timeout: a writer
// in another process holding its lock for a long transaction. Four attempts
// in all wait out a lock of about 25 seconds.
var busyBackoff = []time.Duration{250 * time.Millisecond, time.Second, 3 * time.Second}

// retryBusy runs fn, and again after each pause of s.backoff while it fails
// with SQLITE_BUSY and ctx lasts. Only reading happens here, so running a
// statement again is harmless; any other error is returned at once.
func (s *Source) retryBusy(ctx context.Context, fn func() error) error {
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil || attempt >= len(s.backoff) || ctx.Err() != nil || code(err) != 5 { // SQLITE_BUSY
			return err
		}
		if s.onRetry != nil {
			s.onRetry(err)
		}
		d := s.backoff[attempt]
		t := time.NewTimer(d + time.Duration(rand.Int64N(int64(d)/4+1)))
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// final wraps an error retryBusy must not retry: it hides the SQLite code.
type final struct{ error }

// RowCount counts the rows of t exactly. The statement is built here from a
// quoted identifier, not taken from a user, so it skips the SQL guard (whose
// job is user SQL); the connection's authorizer still applies.
func (s *Source) RowCount(ctx context.Context, t warehouse.TableName) (int64, error) {
	var n int64
	err := s.retryBusy(ctx, func() error {
		return s.read(always, func(db *sql.DB) error {
			return db.QueryRowContext(ctx, "SELECT count(*) FROM "+s.QuoteTable(t)).Scan(&n)
		})
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: count rows of %s: %w", t, ctxErr(ctx, err))
	}
	return n, nil
}

// Query runs one guarded read-only statement through warehouse.Query.
func (s *Source) Query(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	return warehouse.Query(ctx, s, q, opts)
}

var _ warehouse.StreamEngine = (*Source)(nil)

// Limits are the defaults of a statement's bounds (warehouse.Engine).
func (s *Source) Limits() warehouse.Limits {
	return warehouse.Limits{Timeout: DefaultTimeout, MaxRows: DefaultMaxRows}
}

// Run runs an admitted statement, retried while the file is locked
// (warehouse.Engine).
func (s *Source) Run(ctx context.Context, q string, lim warehouse.Limits) (*warehouse.Result, error) {
	var res *warehouse.Result
	err := s.retryBusy(ctx, func() error {
		return s.read(always, func(db *sql.DB) (err error) {
			res, err = query(ctx, db, q, lim.MaxRows)
			return err
		})
	})
	if err != nil {
		return nil, runErr(err)
	}
	return res, nil
}

// Stream runs one guarded read-only statement through warehouse.Stream
// and hands its rows to fn one at a time, without a row cap: the caller
// bounds its own memory. The row slice is reused between calls. Values keep
// SQLite's storage classes (int64, float64, string, []byte for blobs,
// nil); text the driver parsed into a time.Time for a date-typed column is
// handed back as text. An error from fn stops the statement and is
// returned as is.
func (s *Source) Stream(ctx context.Context, q string, opts warehouse.QueryOptions, fn func(row []any) error) error {
	return warehouse.Stream(ctx, s, q, opts, fn)
}

// RunStream is Run for Stream (warehouse.StreamEngine): a statement is
// retried while the file is locked only until its first row was handed
// over, since running it again would hand that row over twice.
func (s *Source) RunStream(ctx context.Context, q string, lim warehouse.Limits, fn func(row []any) error) error {
	called := false
	err := s.retryBusy(ctx, func() error {
		err := s.read(func() bool { return !called }, func(db *sql.DB) error {
			return stream(ctx, db, q, func(row []any) error {
				called = true
				return fn(row)
			})
		})
		if err != nil && called {
			return final{err}
		}
		return err
	})
	if f, ok := err.(final); ok {
		err = f.error
	}
	if err != nil {
		return runErr(err)
	}
	return nil
}

func stream(ctx context.Context, db *sql.DB, q string, fn func(row []any) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// The driver's own rows, on the pool's connection (its authorizer and
	// pragmas apply): database/sql's locking and conversions per value cost
	// a third of a wide scan.
	return conn.Raw(func(dc any) error {
		qc, ok := dc.(driver.QueryerContext)
		if !ok {
			return errors.New("driver cannot query")
		}
		rows, err := qc.QueryContext(ctx, q, nil)
		if err != nil {
			return err
		}
		// Closed exactly once: modernc's rows finalize their statement on
		// every Close, and a second finalize crashes the process.
		err = readRaw(ctx, rows, fn)
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// checkEvery is how many rows readRaw hands over between looks at its
// context.
const checkEvery = 256

// readRaw hands the rows of a driver result to fn until ctx ends. The
// driver interrupts a statement whose context ends only until its first
// row: past it, a stream of a big table ran on for minutes beyond its
// timeout (issue 17), so the context is watched here between rows.
func readRaw(ctx context.Context, rows driver.Rows, fn func(row []any) error) error {
	var decl []string
	if ct, ok := rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		for i := range rows.Columns() {
			decl = append(decl, strings.ToUpper(ct.ColumnTypeDatabaseTypeName(i)))
		}
	}
	dest := make([]driver.Value, len(rows.Columns()))
	vals := make([]any, len(dest))
	for n := 1; ; n++ {
		if n%checkEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if err := rows.Next(dest); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		for i, v := range dest {
			if t, ok := v.(time.Time); ok && i < len(decl) {
				v = formatTime(t, decl[i])
			}
			vals[i] = v
		}
		if err := fn(vals); err != nil {
			return err
		}
	}
}

func query(ctx context.Context, db *sql.DB, q string, maxRows int) (*warehouse.Result, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	return warehouse.ReadRows(rows, maxRows, convert)
}

// runErr marks what the connection's read-only layers refused as
// warehouse.ErrDatabaseRefused. A timeout needs nothing here: modernc
// reports an interrupted statement as "interrupted (9)", which matches
// nothing, and warehouse.Query names it from its own deadline.
func runErr(err error) error {
	switch code(err) {
	case 23, 8: // SQLITE_AUTH (the authorizer), SQLITE_READONLY (mode=ro)
		return fmt.Errorf("%w: %w", warehouse.ErrDatabaseRefused, err)
	}
	return err
}

// ctxErr prefers the context's error when the context ended the statement.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

// convert turns driver values into the plain values Result promises.
//
// modernc returns TEXT stored in a column declared DATE, DATETIME or
// TIMESTAMP as time.Time, with no DSN switch to turn that off; it is turned
// back into text here, in SQLite's own format, because discovery profiles
// the stored text, not Go times. The original spelling ('T' separator, 'Z'
// suffix) cannot be recovered.
func convert(v any, decl string) any {
	switch x := v.(type) {
	case []byte:
		if !isBinaryType(decl) && utf8.Valid(x) {
			return string(x)
		}
		return x
	case time.Time:
		return formatTime(x, decl)
	case int64, float64, string, nil:
		return v
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	default:
		return fmt.Sprint(v)
	}
}

// isBinaryType reports declared types that hold bytes, not text.
func isBinaryType(decl string) bool {
	for _, s := range []string{"BLOB", "BINARY", "BYTEA", "IMAGE"} {
		if strings.Contains(decl, s) {
			return true
		}
	}
	return false
}

func formatTime(t time.Time, decl string) string {
	h, m, sec := t.Clock()
	_, off := t.Zone()
	if decl == "DATE" && h == 0 && m == 0 && sec == 0 && t.Nanosecond() == 0 && off == 0 {
		return t.Format("2006-01-02")
	}
	layout := "2006-01-02 15:04:05.999999999"
	if off != 0 {
		layout += "-07:00"
	}
	return t.Format(layout)
}

// Close closes the pool, and those current replaced, and the guard's
// connection.
func (s *Source) Close() error {
	s.closeGuard()
	s.poolMu.Lock()
	defer s.poolMu.Unlock()
	err := s.db.Close()
	for _, db := range s.retired {
		db.Close()
	}
	s.retired = nil
	return err
}
