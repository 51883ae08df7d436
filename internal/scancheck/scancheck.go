// Package scancheck holds what the tests of sampling on large SQLite tables
// share to prove that no statement read a table whole: a Recorder that
// keeps every statement a discovery sends, a replay of one statement on a
// cold page cache that counts the pages it reads (Cold), and the full-table
// scans of its query plan (Scans, ScansOf). A statement reads a table
// whole when its plan scans it and it reads about as many pages as a full
// scan does: a plan alone cannot tell a scan that stops early (LIMIT), the
// page count alone cannot tell which table was read.
//
// It is imported by tests only.
package scancheck

import (
	"context"
	"database/sql"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	msqlite "modernc.org/sqlite"

	"github.com/discover-db/discover/warehouse"
)

// Read is what SQLite did for one statement run on a connection of its own
// (an empty page cache): its query plan, the pages it read and its time.
type Read struct {
	Plan  []string
	Pages int
	Took  time.Duration
}

// Cold runs q on a fresh read-only connection to the SQLite file at path,
// reading every row, after reading its plan with EXPLAIN QUERY PLAN. An
// EXPLAIN (the query expert validating its advice) has no plan of its own:
// it is run as it is, and reads the schema only.
func Cold(t testing.TB, path, q string) Read {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var r Read
	if !strings.HasPrefix(strings.ToUpper(q), "EXPLAIN") {
		rows, err := conn.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			r.Plan = append(r.Plan, detail)
		}
		rows.Close()
	}
	// The page cache misses of this connection: every page it reads, as
	// its cache starts empty.
	misses := func(reset bool) (n int) {
		if err := conn.Raw(func(dc any) error {
			var err error
			n, _, err = dc.(msqlite.DBStatus).Status(msqlite.DBStatusCacheMiss, reset)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	misses(true)
	t0 := time.Now()
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	r.Took = time.Since(t0)
	r.Pages = misses(false)
	return r
}

// Scans lists what a plan reads row by row, each line after its "SCAN ":
// SCAN x where x is no subquery, CTE or virtual table of the statement
// (a CO-ROUTINE or MATERIALIZE of it), nor a constant row. A SEARCH, by
// key or index range, reads only what it finds and is not listed.
func Scans(plan []string) []string {
	derived := map[string]bool{}
	for _, line := range plan {
		for _, p := range []string{"CO-ROUTINE ", "MATERIALIZE "} {
			if name, ok := strings.CutPrefix(line, p); ok {
				derived[name] = true
			}
		}
	}
	var out []string
	for _, line := range plan {
		rest, ok := strings.CutPrefix(line, "SCAN ")
		if !ok || rest == "CONSTANT ROW" || strings.Contains(rest, "VIRTUAL TABLE") || strings.HasPrefix(rest, "(") {
			continue
		}
		name, _, _ := strings.Cut(rest, " ")
		if !derived[name] {
			out = append(out, rest)
		}
	}
	return out
}

// notAliases are the words that may follow a table's name in a statement
// without naming it again.
var notAliases = map[string]bool{
	"WHERE": true, "GROUP": true, "ORDER": true, "LIMIT": true, "ON": true, "JOIN": true, "LEFT": true,
	"INNER": true, "CROSS": true, "UNION": true, "INDEXED": true, "USING": true,
}

// ScansOf lists the lines of Scans(plan) that read table row by row, under
// its name or an alias q gives it ("table" c, "table" AS c; q quotes the
// table's name in double quotes): the scan of another table of a join
// does not count against this one.
func ScansOf(q, table string, plan []string) []string {
	names := map[string]bool{table: true}
	aliasRe := regexp.MustCompile(`(?i)"` + regexp.QuoteMeta(table) + `"(?:\s+AS)?\s+([a-z_][a-z0-9_]*)`)
	for _, m := range aliasRe.FindAllStringSubmatch(q, -1) {
		if !notAliases[strings.ToUpper(m[1])] {
			names[m[1]] = true
		}
	}
	var out []string
	for _, line := range Scans(plan) {
		name, _, _ := strings.Cut(line, " ")
		if names[name] {
			out = append(out, line)
		}
	}
	return out
}

// Statement is one statement a Recorder saw, with the time its source
// took to run it.
type Statement struct {
	SQL  string
	Took time.Duration
}

// Recorder wraps a source and records every statement run through it with
// its duration, and the tables whose exact row count (RowCount, a full
// scan on SQLite) was asked for. It keeps the source's row estimate and
// skipped tables, which the experts and the orchestrator look for. It does
// not stream: an expert takes its SQL path through it, and its streaming
// path through Streaming.
type Recorder struct {
	warehouse.Source

	mu     sync.Mutex
	stmts  []Statement
	counts []string
	spent  time.Duration
}

func (r *Recorder) keep(q string, d time.Duration) {
	r.mu.Lock()
	r.stmts = append(r.stmts, Statement{q, d})
	r.spent += d
	r.mu.Unlock()
}

func (r *Recorder) Query(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	t0 := time.Now()
	defer func() { r.keep(q, time.Since(t0)) }()
	return r.Source.Query(ctx, q, opts)
}

func (r *Recorder) RowCount(ctx context.Context, t warehouse.TableName) (int64, error) {
	t0 := time.Now()
	defer func() {
		r.mu.Lock()
		r.counts = append(r.counts, t.String())
		r.spent += time.Since(t0)
		r.mu.Unlock()
	}()
	return r.Source.RowCount(ctx, t)
}

func (r *Recorder) EstimateRows(ctx context.Context, t warehouse.TableName) (int64, bool, error) {
	t0 := time.Now()
	defer func() {
		r.mu.Lock()
		r.spent += time.Since(t0)
		r.mu.Unlock()
	}()
	return r.Source.(warehouse.RowEstimator).EstimateRows(ctx, t)
}

func (r *Recorder) Skipped(ctx context.Context) ([]warehouse.Skipped, error) {
	if sr, ok := r.Source.(warehouse.SkipReporter); ok {
		return sr.Skipped(ctx)
	}
	return nil, nil
}

// Statements returns the statements recorded so far, in the order they
// ended.
func (r *Recorder) Statements() []Statement {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Statement(nil), r.stmts...)
}

// SQL returns the text of the statements recorded so far.
func (r *Recorder) SQL() []string {
	var out []string
	for _, s := range r.Statements() {
		out = append(out, s.SQL)
	}
	return out
}

// On returns the recorded statements whose text holds table, as the
// statements quote it (`"events"`).
func (r *Recorder) On(table string) []Statement {
	var out []Statement
	for _, s := range r.Statements() {
		if strings.Contains(s.SQL, table) {
			out = append(out, s)
		}
	}
	return out
}

// Counts returns the tables whose exact row count was asked for.
func (r *Recorder) Counts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.counts...)
}

// Spent is the time the source took over every statement, row count and
// row estimate recorded.
func (r *Recorder) Spent() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.spent
}

// Streaming is a Recorder that streams rows, as the SQLite source does
// (experts.Streamer), recording the statements streamed too.
type Streaming struct{ *Recorder }

func (r Streaming) Stream(ctx context.Context, q string, opts warehouse.QueryOptions, fn func(row []any) error) error {
	t0 := time.Now()
	defer func() { r.keep(q, time.Since(t0)) }()
	return r.Source.(interface {
		Stream(ctx context.Context, q string, opts warehouse.QueryOptions, fn func(row []any) error) error
	}).Stream(ctx, q, opts, fn)
}
