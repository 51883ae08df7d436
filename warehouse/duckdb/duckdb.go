// Package duckdb is the DuckDB engine of the warehouse: a .duckdb file
// opened read-only, or a folder (or glob) of Parquet, CSV and JSON files
// exposed as views of an in-memory database (see files.go for the rules).
//
// Nothing the user's SQL does may write, and it is enforced in layers:
//
//   - the guard (guard.go) parses the statement with DuckDB's own parser
//     (json_serialize_sql, which serializes SELECT statements only) and
//     accepts one SELECT, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE, PIVOT or
//     UNPIVOT whose every node, function and relation is on its
//     allow-list: built-in side-effect-free functions, the source's own
//     tables and views (COPY, ATTACH, INSTALL, LOAD, SET, file readers
//     and file names in FROM are all refused);
//   - below it, the engine is locked down before the first user query:
//     a file is opened with access_mode=READ_ONLY, external file access is
//     off (a file source) or limited to the exposed data files (a folder
//     source, through allowed_paths), and lock_configuration stops any SET
//     from undoing that.
//
// What the last layer cannot stop: on a folder source DuckDB may still
// write to the exposed data files themselves (allowed_paths does not tell
// reading from writing), so there the guard is what keeps a COPY … TO out.
package duckdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	duck "github.com/duckdb/duckdb-go/v2"

	"github.com/discover-db/discover/warehouse"
)

const (
	// DefaultTimeout bounds a Query when QueryOptions.Timeout is 0.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxRows bounds a Query when QueryOptions.MaxRows is 0.
	DefaultMaxRows = 10000
)

// magic sits at byte 8 of every DuckDB database file.
const magic = "DUCK"

var (
	_ warehouse.Source       = (*Source)(nil)
	_ warehouse.SkipReporter = (*Source)(nil)
	_ warehouse.RowEstimator = (*Source)(nil)
)

// Source is a DuckDB database opened read-only: a database file, or an
// in-memory database whose views read data files.
type Source struct {
	db      *sql.DB
	name    string
	skipped []warehouse.Skipped // data files no view could be made of
	// files is set for a folder or glob source: its views are the data
	// files, which the user thinks of as tables, so they are reported so.
	files   bool
	release func() // gives back the spill folder
	// signalFiles are the files whose sizes and times are a table's change
	// signal (ChangeSignals): the database file and its WAL, or, for a
	// folder source, each view's data files by view name.
	signalFiles map[string][]string

	guardMu  sync.Mutex
	guardInv *guardInventory // what the guard may let a statement read; nil until the first Tables

	// alone is held shared by every statement, and exclusively by one
	// retried after DuckDB ran out of memory (Run): MemoryLimit bounds all
	// statements together, and one that failed beside others gets it whole.
	alone sync.RWMutex
}

// Open opens the DuckDB source dsn names: "duckdb://" (optional) followed by
// a database file (.duckdb, .db or any file with DuckDB's header), a folder,
// a single Parquet/CSV/JSON file, or a glob of them. It never creates or
// changes a file the user named. A missing path, a file that is not a
// DuckDB database and a folder without readable data files are reported as
// warehouse.ErrBadInput.
func Open(ctx context.Context, dsn string) (*Source, error) {
	path := dsn
	if len(path) >= len("duckdb://") && strings.EqualFold(path[:len("duckdb://")], "duckdb://") {
		path = path[len("duckdb://"):]
	}
	if path == "" {
		return nil, warehouse.BadInputf("duckdb: open: empty path")
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return openFiles(ctx, path)
	case err == nil && !fi.Mode().IsRegular():
		return nil, warehouse.BadInputf("duckdb: open %s: not a regular file", path)
	case err == nil && formatOf(path) != "":
		return openFiles(ctx, path)
	case err == nil:
		return openFile(ctx, path, fi)
	case errors.Is(err, os.ErrPermission):
		return nil, warehouse.BadInputf("duckdb: open %s: permission denied", path)
	case errors.Is(err, os.ErrNotExist) && isGlob(path):
		return openFiles(ctx, path)
	case errors.Is(err, os.ErrNotExist):
		return nil, warehouse.BadInputf("duckdb: open %s: no such file", path)
	default:
		return nil, fmt.Errorf("duckdb: open %s: %w", path, err)
	}
}

// openFile opens a DuckDB database file read-only.
func openFile(ctx context.Context, path string, fi os.FileInfo) (*Source, error) {
	if err := checkHeader(path, fi); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("duckdb: open %s: %w", path, err)
	}
	// DuckDB shares one instance per file inside a process (its instance
	// cache sees through symlinks), and the settings below are the
	// instance's: the spill folder must outlive every Source on the file.
	key := abs
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		key = real
	}
	sp, err := acquireSpill(key)
	if err != nil {
		return nil, fmt.Errorf("duckdb: open %s: %w", path, err)
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	fail := func(err error) (*Source, error) {
		sp.release()
		return nil, err
	}

	dbPath, err := driverPath(abs, sp.dir)
	if err != nil {
		return fail(fmt.Errorf("duckdb: open %s: %w", path, err))
	}
	conn, err := duck.NewConnector(dbPath+"?"+baseConfig(true), nil)
	if err != nil {
		return fail(openErr(path, err))
	}
	db := sql.OpenDB(settling{conn})
	db.SetMaxIdleConns(4)
	if err := lockDown(ctx, db, sp.dir, false, nil); err != nil {
		db.Close()
		return fail(fmt.Errorf("duckdb: open %s: %w", path, err))
	}
	if err := verify(ctx, db, true); err != nil {
		db.Close()
		return fail(fmt.Errorf("duckdb: open %s: %w", path, err))
	}
	stem := filepath.Base(path)
	stem = strings.TrimSuffix(stem, filepath.Ext(stem))
	return &Source{db: db, name: stem, release: sp.release, signalFiles: map[string][]string{"": {abs, abs + ".wal"}}}, nil
}

// checkHeader refuses what is not a DuckDB file before DuckDB sees it, so
// the user gets a plain message and DuckDB never tries to make sense of
// (or, with another configuration, initialise) a foreign file.
func checkHeader(path string, fi os.FileInfo) error {
	if fi.Size() == 0 {
		return warehouse.BadInputf("duckdb: open %s: the file is empty, so it is not a DuckDB database", path)
	}
	h, complete, err := readHeader(path)
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return warehouse.BadInputf("duckdb: open %s: permission denied", path)
		}
		return fmt.Errorf("duckdb: open %s: %w", path, err)
	}
	switch {
	case complete && string(h[8:12]) == magic:
	case complete && string(h[:12]) == "SQLite forma":
		return warehouse.BadInputf("duckdb: open %s: the file is a SQLite database, not DuckDB (use sqlite://)", path)
	default:
		return warehouse.BadInputf("duckdb: open %s: the file is not a DuckDB database", path)
	}
	return nil
}

// IsDatabaseFile reports whether path is a regular file that begins as a
// DuckDB database does, so that a bare path to one is read as DuckDB.
func IsDatabaseFile(path string) bool {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	h, complete, err := readHeader(path)
	return err == nil && complete && string(h[8:12]) == magic
}

// readHeader reads the first bytes of a file, where DuckDB and SQLite say
// what they are; complete is false for a shorter file.
func readHeader(path string) (h [12]byte, complete bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return h, false, err
	}
	defer f.Close()
	switch _, err := io.ReadFull(f, h[:]); {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return h, false, nil
	case err != nil:
		return h, false, err
	}
	return h, true, nil
}

// driverPath returns a name for abs that the driver reads as a plain path.
// duckdb-go parses its DSN as a URL: a '#' would swallow the query (and
// with it access_mode=READ_ONLY), a bad %-escape fails the parse and '?'
// ends the path. Such a file is opened through a symlink in dir instead.
func driverPath(abs, dir string) (string, error) {
	if !strings.ContainsAny(abs, "?#%") {
		return abs, nil
	}
	link := filepath.Join(dir, "db.duckdb")
	if _, err := os.Lstat(link); err == nil {
		return link, nil // a second Source on the same file
	}
	if err := os.Symlink(abs, link); err != nil {
		return "", fmt.Errorf("the path holds '?', '#' or '%%', which the DuckDB driver cannot take, and a symlink to it failed: %w", err)
	}
	return link, nil
}

// baseConfig is the connector configuration of every source. Extensions
// are never fetched or loaded on demand: Parquet, JSON and ICU are built
// into the driver, and anything else would be code chosen by a query.
func baseConfig(readOnly bool) string {
	v := url.Values{}
	if readOnly {
		v.Set("access_mode", "READ_ONLY")
	}
	v.Set("autoinstall_known_extensions", "false")
	v.Set("autoload_known_extensions", "false")
	v.Set("allow_community_extensions", "false")
	return v.Encode()
}

// openErr classifies a failure to open a file that has DuckDB's header.
func openErr(path string, err error) error {
	msg := err.Error()
	if strings.Contains(msg, "Could not set lock") || strings.Contains(msg, "Conflicting lock") {
		return fmt.Errorf("duckdb: open %s: the file is locked by another process, which may be writing to it: %w", path, err)
	}
	return warehouse.BadInputf("duckdb: open %s: not a usable DuckDB database: %v", path, err)
}

// lockDown applies the settings that stand between a query and the disk,
// then locks the configuration so no statement can change them back. The
// spill folder must be set first: with external access off, DuckDB would
// spill next to the database file instead.
//
// paths, for a folder source, are the only files DuckDB may open; nil
// means none at all. A file's instance may have been locked down already
// by another Source on the same file (DuckDB shares it); a fresh in-memory
// instance never has.
func lockDown(ctx context.Context, db *sql.DB, spill string, inMemory bool, paths []string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var locked bool
	if err := conn.QueryRowContext(ctx, "SELECT current_setting('lock_configuration')").Scan(&locked); err != nil {
		return err
	}
	if locked && !inMemory {
		return nil // another Source on this file did it; verify checks
	}
	stmts := []string{"SET GLOBAL temp_directory = " + quoteString(spill),
		"SET GLOBAL memory_limit = " + quoteString(MemoryLimit),
		// What a finished task allocated goes back to the system rather
		// than staying in DuckDB's allocator, outside the memory limit.
		"SET GLOBAL allocator_flush_threshold = " + quoteString(allocatorFlush),
		"SET GLOBAL allocator_background_threads = true"}
	if len(paths) > 0 {
		quoted := make([]string, len(paths))
		for i, p := range paths {
			quoted[i] = quoteString(p)
		}
		stmts = append(stmts, "SET GLOBAL allowed_paths = ["+strings.Join(quoted, ", ")+"]")
	}
	stmts = append(stmts,
		"SET GLOBAL enable_external_access = false",
		"SET GLOBAL lock_configuration = true")
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("lock down: %s: %w", s, err)
		}
	}
	return nil
}

// verify checks, on a fresh connection, that the lock-down holds: it is
// what every later query relies on, so a setting that silently did not
// apply must stop the open, not a query later.
func verify(ctx context.Context, db *sql.DB, readOnly bool) error {
	var external, locked, ro bool
	err := db.QueryRowContext(ctx, `
		SELECT current_setting('enable_external_access'), current_setting('lock_configuration'),
		       (SELECT readonly FROM duckdb_databases() WHERE database_name = current_database())`).
		Scan(&external, &locked, &ro)
	switch {
	case err != nil:
		return fmt.Errorf("verify settings: %w", err)
	case external || !locked:
		return errors.New("verify settings: external access is not off or the configuration is not locked")
	case readOnly && !ro:
		return errors.New("verify settings: the database is not read-only")
	}
	return nil
}

// MemoryLimit bounds DuckDB's own memory (its buffer pool and operators'
// state), which is not Go's and which it would otherwise set to 80% of
// the machine's: a discovery's statements spill to the private spill
// folder beyond it. With discover's own heap limit (cmd/discover) it keeps
// a run under the 1 GiB the README documents.
//
// A statement that runs out of memory beside others is run again alone
// (Run), so the limit is what one statement may use, not a share of it.
// Measured on a 201M-row star schema (14 GB of DuckDB) on 2 cores: 512MB
// peaked at 0.92 to 1.13 GiB of the process; 320MB with allocatorFlush at
// 0.66 to 0.70 GiB, every column profiled.
const MemoryLimit = "320MB"

// allocatorFlush: DuckDB's allocator keeps up to its threshold (128 MiB by
// default) per thread after a task; at this size RSS follows the memory
// limit.
const allocatorFlush = "16MB"

// spill is a private folder DuckDB may spill to, shared by the Sources
// on one database file.
type spill struct {
	mu   sync.Mutex // held while a Source on the file opens
	dir  string
	key  string
	refs int
}

var (
	spillMu sync.Mutex
	spills  = map[string]*spill{}
)

// acquireSpill returns the spill folder for key ("" for a private one),
// creating it on first use.
func acquireSpill(key string) (*spill, error) {
	spillMu.Lock()
	defer spillMu.Unlock()
	if sp, ok := spills[key]; ok && key != "" {
		sp.refs++
		return sp, nil
	}
	dir, err := os.MkdirTemp("", "discover-duckdb-")
	if err != nil {
		return nil, err
	}
	sp := &spill{dir: dir, key: key, refs: 1}
	if key != "" {
		spills[key] = sp
	}
	return sp, nil
}

func (sp *spill) release() {
	spillMu.Lock()
	defer spillMu.Unlock()
	sp.refs--
	if sp.refs > 0 {
		return
	}
	if sp.key != "" {
		delete(spills, sp.key)
	}
	os.RemoveAll(sp.dir)
}

// Dialect implements warehouse.Source.
func (s *Source) Dialect() warehouse.Dialect { return Dialect{files: s.files} }

// Database is the file's stem, or the folder's name for a folder source.
func (s *Source) Database() string { return s.name }

// QuoteIdent quotes an identifier as the Dialect does.
func (s *Source) QuoteIdent(name string) string { return QuoteIdent(name) }

// QuoteTable quotes schema and name; the main schema (Schema "") is left out.
func (s *Source) QuoteTable(t warehouse.TableName) string { return QuoteTable(t) }

// QuoteIdent quotes an identifier for DuckDB (Dialect.QuoteIdent).
func QuoteIdent(name string) string { return Dialect{}.QuoteIdent(name) }

// QuoteTable quotes a table name for DuckDB; Schema "" is the main schema.
func QuoteTable(t warehouse.TableName) string { return Dialect{}.QuoteTable(t) }

// quoteString writes s as a SQL string literal. DuckDB's '…' strings take
// no backslash escapes, so doubling the quote is all there is to it.
func quoteString(s string) string { return warehouse.Literal(s) }

// Close closes the database and gives back the spill folder.
func (s *Source) Close() error {
	err := s.db.Close()
	if s.release != nil {
		s.release()
		s.release = nil
	}
	return err
}
