// Package catalog is the shared memory of a discovery: one SQLite file (WAL)
// holding findings (entries) and runs, searchable with FTS5.
//
// Semantics a caller can rely on:
//   - Save is an upsert on (kind, key): the row is updated in place, so an
//     entry keeps its ID across saves. It commits before returning.
//   - Documents are stored byte for byte as given (they must be valid JSON);
//     Get returns the same bytes, so callers may compare them with bytes.Equal.
//   - Tags and Evidence read back as non-nil slices (empty when none).
//   - Get, GetRun and LatestRun wrap ErrNotFound; the list methods return an
//     empty, non-nil slice when nothing matches, never ErrNotFound.
//   - Kind orders by key; List, Lookup and Export order by kind then key
//     (byte order); Search orders by relevance.
//   - Times are stored in UTC and read back in UTC.
package catalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotFound is returned (wrapped) by Get and Run lookups that match nothing.
var ErrNotFound = errors.New("catalog: not found")

// Filter selects entries. Empty fields match everything.
type Filter struct {
	Kind      string
	KeyPrefix string
	RunID     string
	Expert    string
}

// Catalog is an open catalog file. Safe for concurrent use: writes are
// serialized through one connection so experts never see "database is locked".
type Catalog struct {
	// writer holds exactly one connection: database/sql queues writers in Go
	// instead of letting them race for SQLite's lock, which is what turns
	// concurrent saves into SQLITE_BUSY.
	writer *sql.DB
	// reader is a pool of query_only connections; in WAL mode they read a
	// consistent snapshot without waiting for the writer.
	reader *sql.DB
	// upsert is prepared once: compiling it also compiles the FTS triggers,
	// which otherwise costs as much as the write itself.
	upsert *sql.Stmt
	// upsertChanged is upsert that leaves a row of the same run with the
	// same findings alone (SaveChanged).
	upsertChanged *sql.Stmt
	path          string
	log           logBound
	broken        atomic.Pointer[writeFailure] // the first write the storage refused

	guardMu sync.Mutex
	guard   Guard // sees every write first (SetGuard); nil: none
}

// AfterWrite, when not nil, is called after every write a catalog commits,
// from the writing goroutine, with the entry's kind and key (Save, Delete)
// or "run" and the run's id (StartRun, UpdateRun). Crash tests set it to
// kill the process right after a chosen write, so that a resumed run can be
// checked against what was on disk at that moment. It is nil in the
// discover binary; set it before any catalog is opened and leave it alone
// while one is in use.
var AfterWrite func(kind, key string)

// WriteRun is the kind AfterWrite is given for a write of a run record.
const WriteRun = "run"

func afterWrite(kind, key string) {
	if AfterWrite != nil {
		AfterWrite(kind, key)
	}
}

// timeFormat is RFC 3339 with a fixed nine-digit fraction. time.RFC3339Nano
// drops trailing zeros, which would make "…:05Z" sort after "…:05.1Z" as
// text; fixed width keeps ORDER BY started_at chronological. It still parses
// with time.RFC3339Nano.
const timeFormat = "2006-01-02T15:04:05.000000000Z07:00"

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, err
	}
	return t.UTC(), nil
}

// Durability: WAL with synchronous=NORMAL loses nothing when the process is
// killed (a commit is in the WAL, which the OS holds), only on power loss.
// busy_timeout covers the remaining contention: another process on the same
// file, and checkpoints. journal_mode is not among the parameters: it is
// persistent, so Open sets it once, after making sure the file is ours.
// busyTimeout is how long a write waits for another's lock.
const busyTimeout = 10 * time.Second

var (
	writerParams = []string{
		fmt.Sprintf("_pragma=busy_timeout(%d)", busyTimeout.Milliseconds()),
		"_pragma=synchronous(NORMAL)",
		"_pragma=foreign_keys(1)",
		fmt.Sprintf("_pragma=journal_size_limit(%d)", walTruncateTo), // walbound.go
		// Explicit transactions take the write lock at BEGIN, so a
		// read-then-write transaction cannot deadlock against another
		// process and fail with SQLITE_BUSY despite busy_timeout.
		"_txlock=immediate",
	}
	readerParams = []string{
		"_pragma=busy_timeout(10000)",
		"_pragma=foreign_keys(1)",
		"_pragma=query_only(1)",
	}
)

func dsn(path string, params []string) string {
	// The driver hands "file:" names to SQLite as URIs, where these three
	// characters mean something; escape them so any path works.
	esc := strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path)
	return "file:" + esc + "?" + strings.Join(params, "&")
}

// Open opens (creating if needed) the catalog at path and applies migrations.
// A catalog written by a newer build (a higher schema version) is refused.
func Open(ctx context.Context, path string) (*Catalog, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		// Two pools must see the same database, so only a plain file works.
		return nil, fmt.Errorf("catalog: open %q: need a file path", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("catalog: open %s: %w", path, err)
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("catalog: open %s: is a directory", path)
	}

	w, err := sql.Open("sqlite", dsn(abs, writerParams))
	if err != nil {
		return nil, openError(path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	// The first statements read the header, which is where a file that is
	// not a database is noticed.
	for _, step := range []func(context.Context, *sql.DB) error{initVersionTable, enableWAL, migrate} {
		if err := step(ctx, w); err != nil {
			w.Close()
			return nil, openError(path, err)
		}
	}

	r, err := sql.Open("sqlite", dsn(abs, readerParams))
	if err != nil {
		w.Close()
		return nil, openError(path, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	if err := r.PingContext(ctx); err != nil {
		r.Close()
		w.Close()
		return nil, openError(path, err)
	}
	upsert, err := w.PrepareContext(ctx, upsertSQL)
	if err != nil {
		r.Close()
		w.Close()
		return nil, openError(path, err)
	}
	upsertChanged, err := w.PrepareContext(ctx, upsertChangedSQL)
	if err != nil {
		upsert.Close()
		r.Close()
		w.Close()
		return nil, openError(path, err)
	}
	c := &Catalog{writer: w, reader: r, upsert: upsert, upsertChanged: upsertChanged, path: path}
	c.log.wal = abs + "-wal"
	return c, nil
}

func enableWAL(ctx context.Context, db *sql.DB) error {
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode = WAL`).Scan(&mode); err != nil {
		return fmt.Errorf("set WAL: %w", err)
	}
	// SQLite answers with the mode in force rather than failing, e.g. on a
	// file system without shared memory.
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("set WAL: journal mode is %s", mode)
	}
	return nil
}

func openError(path string, err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_NOTADB {
		return fmt.Errorf("catalog: open %s: not a SQLite catalog file: %w", path, err)
	}
	return fmt.Errorf("catalog: open %s: %w", path, err)
}

// Close closes the catalog. Saves already returned are on disk either way.
func (c *Catalog) Close() error {
	return errors.Join(c.upsert.Close(), c.upsertChanged.Close(), c.reader.Close(), c.writer.Close())
}

func validJSONList(xs []string) (string, error) {
	if xs == nil {
		return "[]", nil
	}
	b, err := json.Marshal(xs)
	return string(b), err
}

func validate(e Entry) error {
	switch {
	case e.Kind == "":
		return errors.New("empty kind")
	case e.Key == "":
		return errors.New("empty key")
	case math.IsNaN(e.Confidence) || e.Confidence < 0 || e.Confidence > 1:
		return fmt.Errorf("confidence %v outside [0, 1]", e.Confidence)
	case len(e.Document) == 0:
		return errors.New("empty document")
	case !json.Valid(e.Document):
		return errors.New("document is not valid JSON")
	}
	return nil
}

// Save inserts or replaces the entry with the same (kind, key). It commits
// before returning, so a killed process keeps every saved finding.
// CreatedAt is set when zero. Tags and Evidence nil are stored as empty.
//
// The row is updated in place, so its ID survives replacement; e.ID is
// ignored. The document must be valid JSON and is stored byte for byte.
// Empty kind or key, or a confidence outside [0, 1], is an error: clamping
// would hide the bug that produced it.
func (c *Catalog) Save(ctx context.Context, e Entry) error {
	if err := c.WriteErr(); err != nil {
		return fmt.Errorf("catalog: save %s %s: %w", e.Kind, e.Key, err)
	}
	if c.CurrentGuard() != nil {
		_, err := c.SaveAllChanged(ctx, []Entry{e})
		return err
	}
	if err := c.afterFailure(ctx, c.save(ctx, e)); err != nil {
		return fmt.Errorf("catalog: save %s %s: %w", e.Kind, e.Key, err)
	}
	afterWrite(e.Kind, e.Key)
	return nil
}

// SaveChanged is Save, except that an entry already saved by the same run
// with the same document, confidence and evidence is left as it is (its
// expert, tags, iteration and time too): changed says whether anything was
// written. It is one statement where reading the entry first and comparing
// was two, and a save that changes nothing writes no page: on a catalog of
// thousands of tables the read before every save cost a quarter of what
// the saves did.
func (c *Catalog) SaveChanged(ctx context.Context, e Entry) (changed bool, err error) {
	if err := c.WriteErr(); err != nil {
		return false, fmt.Errorf("catalog: save %s %s: %w", e.Kind, e.Key, err)
	}
	if c.CurrentGuard() != nil {
		changed, err := c.SaveAllChanged(ctx, []Entry{e})
		return len(changed) > 0 && changed[0], err
	}
	n, err := c.saveWith(ctx, c.upsertChanged, e)
	if err := c.afterFailure(ctx, err); err != nil {
		return false, fmt.Errorf("catalog: save %s %s: %w", e.Kind, e.Key, err)
	}
	if n == 0 {
		return false, nil
	}
	afterWrite(e.Kind, e.Key)
	return true, nil
}

// SaveAllChanged is SaveChanged for several entries in one transaction:
// all are written or none. Each commit flushes the full-text index and
// writes its pages to the WAL, which made the saves of a run of thousands
// of tables, one commit per entry, a fifth of its CPU; the results of one
// step saved together commit once. changed[i] is SaveChanged's answer for
// es[i]. An invalid entry fails the whole call before anything is written.
func (c *Catalog) SaveAllChanged(ctx context.Context, es []Entry) (changed []bool, err error) {
	if len(es) == 0 {
		return nil, nil
	}
	if err := c.WriteErr(); err != nil {
		return nil, fmt.Errorf("catalog: save %d entries: %w", len(es), err)
	}
	asked := len(es)
	if es, err = c.guarded(ctx, es); err != nil {
		return nil, fmt.Errorf("catalog: save %d entries: %w", asked, err)
	}
	args := make([][]any, len(es))
	for i, e := range es {
		if args[i], err = entryArgs(e); err != nil {
			return nil, fmt.Errorf("catalog: save %s %s: %w", e.Kind, e.Key, err)
		}
	}
	changed, err = c.saveAll(ctx, es, args)
	if err := c.afterFailure(ctx, err); err != nil {
		return nil, fmt.Errorf("catalog: save %d entries (%s %s, …): %w", len(es), es[0].Kind, es[0].Key, err)
	}
	for i, e := range es {
		if changed[i] {
			afterWrite(e.Kind, e.Key)
		}
	}
	// What the guard added is not the caller's: changed answers for es.
	return changed[:asked], nil
}

// saveAll runs upsertChanged with each entry's args in one transaction.
func (c *Catalog) saveAll(ctx context.Context, es []Entry, args [][]any) ([]bool, error) {
	tx, err := c.writer.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback() // after Commit, a no-op
	stmt := tx.StmtContext(ctx, c.upsertChanged)
	changed := make([]bool, len(es))
	for i, e := range es {
		n, err := execUpsert(ctx, stmt, args[i])
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", e.Kind, e.Key, err)
		}
		changed[i] = n > 0
	}
	return changed, tx.Commit()
}

func (c *Catalog) save(ctx context.Context, e Entry) error {
	_, err := c.saveWith(ctx, c.upsert, e)
	return err
}

// saveWith runs one of the upserts for e and returns the rows it changed.
func (c *Catalog) saveWith(ctx context.Context, stmt *sql.Stmt, e Entry) (int64, error) {
	args, err := entryArgs(e)
	if err != nil {
		return 0, err
	}
	return execUpsert(ctx, stmt, args)
}

// entryArgs checks e and returns the upserts' arguments for it.
func entryArgs(e Entry) ([]any, error) {
	if err := validate(e); err != nil {
		return nil, err
	}
	tags, err := validJSONList(e.Tags)
	if err != nil {
		return nil, err
	}
	evidence, err := validJSONList(e.Evidence)
	if err != nil {
		return nil, err
	}
	created := e.CreatedAt
	if created.IsZero() {
		created = time.Now()
	}
	// The document is bound as a string so SQLite stores TEXT (FTS5 and the
	// JSON functions want text), with the caller's bytes unchanged.
	return []any{e.Kind, e.Key, string(e.Document), tags, e.Expert, e.Confidence, evidence,
		e.RunID, e.Iteration, formatTime(created)}, nil
}

// execUpsert runs an upsert and returns the rows it changed.
func execUpsert(ctx context.Context, stmt *sql.Stmt, args []any) (int64, error) {
	res, err := stmt.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Delete removes the entry of this kind and key, if any: a finding that a
// later iteration showed to be settled (an uncertainty resolved) must not
// linger in the report. Deleting what is not there is not an error.
func (c *Catalog) Delete(ctx context.Context, kind, key string) error {
	if _, err := c.write(ctx, `DELETE FROM entries WHERE kind = ? AND key = ?`, kind, key); err != nil {
		return fmt.Errorf("catalog: delete %s %s: %w", kind, key, err)
	}
	afterWrite(kind, key)
	return nil
}

// upsertSQL updates in place on conflict (rather than INSERT OR REPLACE,
// which deletes and reinserts) so the id, and the FTS rowid, stay stable.
const upsertSQL = `
	INSERT INTO entries (kind, key, document, tags, expert, confidence, evidence, run_id, iteration, created_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (kind, key) DO UPDATE SET
		document   = excluded.document,
		tags       = excluded.tags,
		expert     = excluded.expert,
		confidence = excluded.confidence,
		evidence   = excluded.evidence,
		run_id     = excluded.run_id,
		iteration  = excluded.iteration,
		created_at = excluded.created_at`

// upsertChangedSQL is upsertSQL whose update is skipped when the row holds
// the same run's same findings: SQLite then counts no change.
const upsertChangedSQL = upsertSQL + `
	WHERE NOT (entries.run_id IS excluded.run_id AND entries.document IS excluded.document
		AND entries.confidence IS excluded.confidence AND entries.evidence IS excluded.evidence)`

const entryColumns = `e.id, e.kind, e.key, e.document, e.tags, e.expert, e.confidence, e.evidence, e.run_id, e.iteration, e.created_at`

type scanner interface{ Scan(dest ...any) error }

func scanEntry(s scanner) (Entry, error) {
	var (
		e                       Entry
		doc, tags, ev, creation string
	)
	if err := s.Scan(&e.ID, &e.Kind, &e.Key, &doc, &tags, &e.Expert, &e.Confidence, &ev,
		&e.RunID, &e.Iteration, &creation); err != nil {
		return Entry{}, err
	}
	e.Document = json.RawMessage(doc)
	e.Tags, e.Evidence = []string{}, []string{}
	if err := json.Unmarshal([]byte(tags), &e.Tags); err != nil {
		return Entry{}, fmt.Errorf("entry %d tags: %w", e.ID, err)
	}
	if err := json.Unmarshal([]byte(ev), &e.Evidence); err != nil {
		return Entry{}, fmt.Errorf("entry %d evidence: %w", e.ID, err)
	}
	t, err := parseTime(creation)
	if err != nil {
		return Entry{}, fmt.Errorf("entry %d created_at: %w", e.ID, err)
	}
	e.CreatedAt = t
	return e, nil
}

func (c *Catalog) queryEntries(ctx context.Context, query string, args ...any) ([]Entry, error) {
	rows, err := c.reader.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Entry{}
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Get returns the entry of this kind and key, or ErrNotFound.
func (c *Catalog) Get(ctx context.Context, kind, key string) (Entry, error) {
	row := c.reader.QueryRowContext(ctx, `SELECT `+entryColumns+` FROM entries e WHERE e.kind = ? AND e.key = ?`, kind, key)
	e, err := scanEntry(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Entry{}, fmt.Errorf("catalog: get %s %s: %w", kind, key, ErrNotFound)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("catalog: get %s %s: %w", kind, key, err)
	}
	return e, nil
}

// Lookup returns the entries of any kind whose key is exactly key (the CLI's
// `catalog get KEY`, where the user may not know the kind). Ordered by kind;
// empty, not ErrNotFound, when there is none.
func (c *Catalog) Lookup(ctx context.Context, key string) ([]Entry, error) {
	es, err := c.queryEntries(ctx, `SELECT `+entryColumns+` FROM entries e WHERE e.key = ? ORDER BY e.kind`, key)
	if err != nil {
		return nil, fmt.Errorf("catalog: lookup %s: %w", key, err)
	}
	return es, nil
}

// Kind returns the entries of a kind whose key starts with prefix, ordered by key.
// The prefix is matched literally and case-sensitively (no LIKE wildcards).
func (c *Catalog) Kind(ctx context.Context, kind, prefix string) ([]Entry, error) {
	es, err := c.list(ctx, Filter{Kind: kind, KeyPrefix: prefix})
	if err != nil {
		return nil, fmt.Errorf("catalog: kind %s %q: %w", kind, prefix, err)
	}
	return es, nil
}

// where builds the filter's condition. KeyPrefix is compared with substr, not
// LIKE, so that '%' and '_' in keys are literal and case matters.
func (f Filter) where() (string, []any) {
	conds := []string{"1 = 1"}
	var args []any
	if f.Kind != "" {
		conds = append(conds, "e.kind = ?")
		args = append(args, f.Kind)
	}
	if f.KeyPrefix != "" {
		conds = append(conds, "substr(e.key, 1, length(?)) = ?")
		args = append(args, f.KeyPrefix, f.KeyPrefix)
		// The same condition as a range of keys, which the (kind, key)
		// index can search: substr alone read every entry of the kind,
		// for each table's prefix.
		if end, ok := prefixEnd(f.KeyPrefix); ok {
			conds = append(conds, "e.key >= ? AND e.key < ?")
			args = append(args, f.KeyPrefix, end)
		}
	}
	if f.RunID != "" {
		conds = append(conds, "e.run_id = ?")
		args = append(args, f.RunID)
	}
	if f.Expert != "" {
		conds = append(conds, "e.expert = ?")
		args = append(args, f.Expert)
	}
	return strings.Join(conds, " AND "), args
}

// prefixEnd is the least string above every string that starts with p, in
// byte order (SQLite's BINARY collation): p with its last byte below 0xff
// incremented and what follows it dropped. A prefix of 0xff bytes alone
// has none.
func prefixEnd(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

// List returns entries matching f, ordered by kind then key.
func (c *Catalog) List(ctx context.Context, f Filter) ([]Entry, error) {
	es, err := c.list(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("catalog: list: %w", err)
	}
	return es, nil
}

// Brief is what the orchestrator's bookkeeping reads of an entry: no
// document, but a hypothesis' status and subject.
type Brief struct {
	Kind, Key, Expert string
	Confidence        float64
	// Status and Subject are a hypothesis document's, "" for other kinds.
	Status, Subject string
}

// Brief is the entry's brief, as Briefs reads it.
func (e Entry) Brief() Brief {
	b := Brief{Kind: e.Kind, Key: e.Key, Expert: e.Expert, Confidence: e.Confidence}
	if e.Kind == KindHypothesis {
		var h struct{ Status, Subject string }
		if json.Unmarshal(e.Document, &h) == nil {
			b.Status, b.Subject = h.Status, h.Subject
		}
	}
	return b
}

// Briefs returns the briefs of the entries matching f, ordered by kind then
// key. Counting and measuring a run of thousands of tables every round by
// List read and decoded every document (hundreds of megabytes) to look at
// a confidence.
func (c *Catalog) Briefs(ctx context.Context, f Filter) ([]Brief, error) {
	where, args := f.where()
	rows, err := c.reader.QueryContext(ctx, `SELECT e.kind, e.key, e.expert, e.confidence,
			CASE WHEN e.kind = '`+KindHypothesis+`' THEN coalesce(json_extract(e.document, '$.status'), '') ELSE '' END,
			CASE WHEN e.kind = '`+KindHypothesis+`' THEN coalesce(json_extract(e.document, '$.subject'), '') ELSE '' END
		FROM entries e WHERE `+where+` ORDER BY e.kind, e.key`, args...)
	if err != nil {
		return nil, fmt.Errorf("catalog: briefs: %w", err)
	}
	defer rows.Close()
	var out []Brief
	for rows.Next() {
		var b Brief
		if err := rows.Scan(&b.Kind, &b.Key, &b.Expert, &b.Confidence, &b.Status, &b.Subject); err != nil {
			return nil, fmt.Errorf("catalog: briefs: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("catalog: briefs: %w", err)
	}
	return out, nil
}

func (c *Catalog) list(ctx context.Context, f Filter) ([]Entry, error) {
	where, args := f.where()
	return c.queryEntries(ctx, `SELECT `+entryColumns+` FROM entries e WHERE `+where+` ORDER BY e.kind, e.key`, args...)
}

// Search runs a full-text query over key, tags and document; best matches first.
//
// text is user input, never FTS5 syntax: each whitespace-separated word is
// quoted and matched as a prefix ("cust" finds customers, orders.customer_id
// finds the phrase orders customer id), and all words must match. Operators
// (AND, OR, NOT, *, quotes) are plain words. Ranking is bm25 with a key hit
// weighing most, then tags, then the document. limit <= 0 means no limit.
// Text with no searchable word returns an empty slice.
func (c *Catalog) Search(ctx context.Context, text string, limit int) ([]Entry, error) {
	q := ftsQuery(text)
	if q == "" {
		return []Entry{}, nil
	}
	if limit <= 0 {
		limit = -1
	}
	es, err := c.queryEntries(ctx, `
		SELECT `+entryColumns+`
		FROM (
			SELECT rowid AS id, bm25(entries_fts, 10.0, 5.0, 1.0) AS score
			FROM entries_fts WHERE entries_fts MATCH ?
		) m JOIN entries e ON e.id = m.id
		ORDER BY m.score, e.kind, e.key
		LIMIT ?`, q, limit)
	if err != nil {
		return nil, fmt.Errorf("catalog: search %q: %w", text, err)
	}
	return es, nil
}

// Export writes every entry (or those of runID when not empty) as JSON lines.
// Each line is an Entry in its JSON form, ordered by kind then key; the
// document is embedded as JSON (compacted onto the line, HTML not escaped).
func (c *Catalog) Export(ctx context.Context, w io.Writer, runID string) error {
	if err := c.export(ctx, w, runID); err != nil {
		return fmt.Errorf("catalog: export: %w", err)
	}
	return nil
}

func (c *Catalog) export(ctx context.Context, w io.Writer, runID string) error {
	where, args := Filter{RunID: runID}.where()
	rows, err := c.reader.QueryContext(ctx, `SELECT `+entryColumns+` FROM entries e WHERE `+where+` ORDER BY e.kind, e.key`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return err
		}
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

func nullJSON(m json.RawMessage) (any, error) {
	if m == nil {
		return nil, nil
	}
	if !json.Valid(m) {
		return nil, errors.New("not valid JSON")
	}
	return string(m), nil
}

func nullTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return formatTime(*t)
}

// StartRun records a new run. StartedAt is set to now when zero; an ID
// already recorded is an error. State and Options, when not nil, must be
// valid JSON and are kept byte for byte (nil reads back as nil).
func (c *Catalog) StartRun(ctx context.Context, r Run) error {
	err := c.WriteErr()
	if err == nil {
		err = c.afterFailure(ctx, c.startRun(ctx, r))
	}
	if err != nil {
		return fmt.Errorf("catalog: start run %s: %w", r.ID, err)
	}
	afterWrite(WriteRun, r.ID)
	return nil
}

func (c *Catalog) startRun(ctx context.Context, r Run) error {
	if r.ID == "" {
		return errors.New("empty id")
	}
	state, err := nullJSON(r.State)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	options, err := nullJSON(r.Options)
	if err != nil {
		return fmt.Errorf("options: %w", err)
	}
	basis, err := nullJSON(r.Basis)
	if err != nil {
		return fmt.Errorf("basis: %w", err)
	}
	started := r.StartedAt
	if started.IsZero() {
		started = time.Now()
	}
	tx, err := c.writer.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO runs (id, dsn, dialect, database, started_at, finished_at, stop_reason, state, options)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.DSN, r.Dialect, r.Database, formatTime(started), nullTime(r.FinishedAt), r.StopReason, state, options); err != nil {
		return err
	}
	if basis != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO run_bases (run_id, basis) VALUES (?, ?)`, r.ID, basis); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// UpdateRun saves a run's state, stop reason and finish time.
// Those three fields are written as given (a nil FinishedAt clears it); the
// others are left alone. An unknown run is ErrNotFound.
func (c *Catalog) UpdateRun(ctx context.Context, r Run) error {
	err := c.WriteErr()
	if err == nil {
		err = c.afterFailure(ctx, c.updateRun(ctx, r))
	}
	if err != nil {
		return fmt.Errorf("catalog: update run %s: %w", r.ID, err)
	}
	afterWrite(WriteRun, r.ID)
	return nil
}

// Adopt moves every entry of run from to run to, in one transaction, and
// returns how many: a re-run on unchanged data takes an earlier run's
// findings as its own (package incremental). Entries are unique by kind
// and key, so the earlier run's report can no longer be built afterwards,
// as with any run whose entries a later run rewrote.
func (c *Catalog) Adopt(ctx context.Context, from, to string) (int64, error) {
	if from == "" || to == "" || from == to {
		return 0, fmt.Errorf("catalog: adopt: runs %q and %q", from, to)
	}
	n, err := c.write(ctx, `UPDATE entries SET run_id = ? WHERE run_id = ?`, to, from)
	if err != nil {
		return 0, fmt.Errorf("catalog: adopt the entries of run %s: %w", from, err)
	}
	afterWrite(WriteRun, to)
	return n, nil
}

// AdoptTables moves the entries of run from that expert wrote about one of
// tables (the last of an entry's tags names its table, as the experts
// whose findings are per table tag them) to run to, in one statement, and
// returns how many: a re-run takes an earlier run's findings about the
// tables that did not change (package incremental decides which).
func (c *Catalog) AdoptTables(ctx context.Context, from, to, expert string, tables []string) (int64, error) {
	if from == "" || to == "" || from == to || expert == "" {
		return 0, fmt.Errorf("catalog: adopt tables: runs %q and %q, expert %q", from, to, expert)
	}
	if len(tables) == 0 {
		return 0, nil
	}
	names, err := json.Marshal(tables)
	if err != nil {
		return 0, fmt.Errorf("catalog: adopt tables: %w", err)
	}
	n, err := c.write(ctx, `UPDATE entries SET run_id = ? WHERE run_id = ? AND expert = ?
		AND json_extract(tags, '$[#-1]') IN (SELECT value FROM json_each(?))`, to, from, expert, string(names))
	if err != nil {
		return 0, fmt.Errorf("catalog: adopt %s's entries of %d tables from run %s: %w", expert, len(tables), from, err)
	}
	afterWrite(WriteRun, to)
	return n, nil
}

// Result returns the kept result of the statement key names
// (KeepResult), or ErrNotFound.
func (c *Catalog) Result(ctx context.Context, key string) ([]byte, error) {
	var b []byte
	err := c.reader.QueryRowContext(ctx, `SELECT result FROM results WHERE key = ?`, key).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: result %s: %w", key, err)
	}
	if strings.HasPrefix(string(b), sealPrefix) {
		// Sealed by a run still going on (Guard.Result): this process's
		// reads it; another's, killed, is as good as not kept.
		s, ok := Unseal(string(b))
		if !ok {
			return nil, ErrNotFound
		}
		b = []byte(s)
	}
	return b, nil
}

// KeepResult keeps a statement's result under key for run runID; a nil
// result only marks a kept one as used by runID.
func (c *Catalog) KeepResult(ctx context.Context, key, runID string, result []byte) error {
	var err error
	if result == nil {
		_, err = c.write(ctx, `UPDATE results SET run_id = ? WHERE key = ?`, runID, key)
	} else {
		if g := c.CurrentGuard(); g != nil {
			result = g.Result(result)
		}
		_, err = c.write(ctx, `INSERT INTO results (key, run_id, result) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET run_id = excluded.run_id, result = excluded.result`, key, runID, string(result))
	}
	if err != nil {
		return fmt.Errorf("catalog: keep result %s: %w", key, err)
	}
	return nil
}

// PruneResults drops the kept results run runID did not use, and returns
// how many: a finished run sent or served every statement the next run on
// the same data will.
func (c *Catalog) PruneResults(ctx context.Context, runID string) (int64, error) {
	n, err := c.write(ctx, `DELETE FROM results WHERE run_id <> ?`, runID)
	if err != nil {
		return 0, fmt.Errorf("catalog: prune results: %w", err)
	}
	return n, nil
}

// DropResults drops the kept results drop says to, and returns how many.
func (c *Catalog) DropResults(ctx context.Context, drop func(result []byte) bool) (int64, error) {
	return c.RewriteResults(ctx, func(b []byte) []byte {
		if drop(b) {
			return nil
		}
		return b
	})
}

// Compact rewrites the file so that nothing overwritten or deleted stays
// in it: the full-text index's old segments are merged away, the log is
// checkpointed and the free pages dropped. Masking personal values (package
// redact) needs it; it reads and writes the whole file.
func (c *Catalog) Compact(ctx context.Context) error {
	for _, stmt := range []string{
		`INSERT INTO entries_fts (entries_fts) VALUES ('optimize')`,
		`VACUUM`,
		`PRAGMA wal_checkpoint(TRUNCATE)`,
	} {
		if _, err := c.write(ctx, stmt); err != nil {
			return fmt.Errorf("catalog: compact: %s: %w", stmt, err)
		}
	}
	return nil
}

// write runs one statement on the writer and returns the rows it changed:
// refused after a lost write, and a failure of the storage kept for every
// write after it (WriteErr).
func (c *Catalog) write(ctx context.Context, stmt string, args ...any) (int64, error) {
	if err := c.WriteErr(); err != nil {
		return 0, err
	}
	res, err := c.writer.ExecContext(ctx, stmt, args...)
	var n int64
	if err == nil {
		n, err = res.RowsAffected()
	}
	return n, c.afterFailure(ctx, err)
}

func (c *Catalog) updateRun(ctx context.Context, r Run) error {
	state, err := nullJSON(r.State)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	res, err := c.writer.ExecContext(ctx, `UPDATE runs SET state = ?, stop_reason = ?, finished_at = ? WHERE id = ?`,
		state, r.StopReason, nullTime(r.FinishedAt), r.ID)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

const runColumns = `id, dsn, dialect, database, started_at, finished_at, stop_reason, state, options,
	(SELECT b.basis FROM run_bases b WHERE b.run_id = runs.id)`

func scanRun(s scanner) (Run, error) {
	var (
		r                     Run
		started               string
		finished, st, options sql.NullString
		basis                 sql.NullString
	)
	if err := s.Scan(&r.ID, &r.DSN, &r.Dialect, &r.Database, &started, &finished, &r.StopReason, &st, &options, &basis); err != nil {
		return Run{}, err
	}
	t, err := parseTime(started)
	if err != nil {
		return Run{}, fmt.Errorf("started_at: %w", err)
	}
	r.StartedAt = t
	if finished.Valid {
		t, err := parseTime(finished.String)
		if err != nil {
			return Run{}, fmt.Errorf("finished_at: %w", err)
		}
		r.FinishedAt = &t
	}
	if st.Valid {
		r.State = json.RawMessage(st.String)
	}
	if basis.Valid {
		r.Basis = json.RawMessage(basis.String)
	}
	if options.Valid {
		r.Options = json.RawMessage(options.String)
	}
	return r, nil
}

// GetRun returns one run by id, or ErrNotFound.
func (c *Catalog) GetRun(ctx context.Context, id string) (Run, error) {
	r, err := scanRun(c.reader.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return Run{}, fmt.Errorf("catalog: get run %s: %w", id, err)
	}
	return r, nil
}

// LatestRun returns the newest run; unfinished restricts to runs with no FinishedAt.
// Newest is by StartedAt (ties: the later recorded); none is ErrNotFound.
func (c *Catalog) LatestRun(ctx context.Context, unfinished bool) (Run, error) {
	r, err := scanRun(c.reader.QueryRowContext(ctx, `
		SELECT `+runColumns+` FROM runs
		WHERE NOT ? OR finished_at IS NULL
		ORDER BY started_at DESC, rowid DESC
		LIMIT 1`, unfinished))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return Run{}, fmt.Errorf("catalog: latest run: %w", err)
	}
	return r, nil
}
