package trino

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	trinodrv "github.com/trinodb/trino-go-client/trino"

	"github.com/discover-db/discover/warehouse"
)

// session runs statements on one pinned connection, each inside a READ ONLY
// transaction. Statements share a transaction until one fails: Trino aborts
// the transaction on the first failure and refuses everything after it, so
// the next statement begins a new one.
type session struct {
	db       *sql.DB
	readOnly bool
	conn     *sql.Conn
	tx       *sql.Tx
}

func newSession(db *sql.DB, readOnly bool) *session {
	return &session{db: db, readOnly: readOnly}
}

func (ss *session) begin(ctx context.Context) error {
	if ss.conn == nil {
		conn, err := ss.db.Conn(ctx)
		if err != nil {
			return err
		}
		ss.conn = conn
	}
	if ss.readOnly && ss.tx == nil {
		// The client sends START TRANSACTION READ ONLY; the transaction ID
		// it gets back rides on every later request of this connection.
		tx, err := ss.conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return &txError{err}
		}
		ss.tx = tx
	}
	return nil
}

// txError is a failed START TRANSACTION READ ONLY.
type txError struct{ err error }

func (e *txError) Error() string { return "start read-only transaction: " + describe(e.err).Error() }
func (e *txError) Unwrap() error { return e.err }

// endTx rolls back: nothing was written, and a failed transaction accepts
// nothing else. Its error is of no use (the transaction may already be gone
// with a cancelled context), so it is dropped.
func (ss *session) endTx() {
	if ss.tx != nil {
		_ = ss.tx.Rollback()
		ss.tx = nil
	}
}

func (ss *session) close() {
	ss.endTx()
	if ss.conn != nil {
		ss.conn.Close()
		ss.conn = nil
	}
}

// do runs q and hands its rows to fn. An error from fn or from reading ends
// the transaction. A failed close after fn succeeded is dropped: it can only
// come from cancelling the rest of a result fn chose not to read.
func (ss *session) do(ctx context.Context, q string, fn func(*sql.Rows) error) error {
	if err := ss.begin(ctx); err != nil {
		return err
	}
	var rows *sql.Rows
	var err error
	if ss.tx != nil {
		rows, err = ss.tx.QueryContext(ctx, q, sessionArgs(ctx)...)
	} else {
		rows, err = ss.conn.QueryContext(ctx, q, sessionArgs(ctx)...)
	}
	if err == nil {
		err = fn(rows)
		_ = rows.Close()
		if err == nil {
			err = rows.Err()
		}
	}
	if err != nil {
		ss.endTx()
	}
	return err
}

// scalar runs a query returning one row of one or more values.
func (ss *session) scalar(ctx context.Context, q string, dest ...any) error {
	return ss.do(ctx, q, func(rows *sql.Rows) error {
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return err
			}
			return sql.ErrNoRows
		}
		return rows.Scan(dest...)
	})
}

// sessionHeader is the client's way to send session properties with one
// statement: a named argument whose name is a header passes as that header.
const sessionHeader = "X-Trino-Session"

// sessionArgs carries query_max_run_time from ctx's deadline. It is rounded
// up to whole seconds and given one more, so the client's own deadline (and
// its DELETE, which ends the query at once) comes first; the server's limit
// is there for the client that dies before it can cancel.
func sessionArgs(ctx context.Context) []any {
	deadline, ok := ctx.Deadline()
	if !ok {
		return nil
	}
	return []any{sql.Named(sessionHeader, "query_max_run_time="+maxRunTime(time.Until(deadline)))}
}

func maxRunTime(d time.Duration) string {
	secs := int64(math.Ceil(d.Seconds()))
	return strconv.FormatInt(max(secs, 0)+1, 10) + "s"
}

// RowCount counts the rows of t exactly. The statement is built here from
// quoted identifiers, not taken from a user, so it skips the SQL guard (whose
// job is user SQL); the read-only transaction still applies.
func (s *Source) RowCount(ctx context.Context, t warehouse.TableName) (int64, error) {
	ss := newSession(s.db, s.readOnly)
	defer ss.close()
	var n int64
	if err := ss.scalar(ctx, "SELECT count(*) FROM "+s.QuoteTable(t), &n); err != nil {
		return 0, fmt.Errorf("trino: count rows of %s: %w", t, ctxErr(ctx, describe(err)))
	}
	return n, nil
}

// EstimateRows reads the row count of SHOW STATS's summary row (the one
// without a column name): what the connector keeps (Hive metastore
// statistics, Iceberg manifests), free to read but possibly stale, so not
// exact, but on the connectors that generate their tables (exactCounts). A
// table without statistics, and a view, have none; the error sends the
// caller to RowCount.
func (s *Source) EstimateRows(ctx context.Context, t warehouse.TableName) (int64, bool, error) {
	ss := newSession(s.db, s.readOnly)
	defer ss.close()
	var rowCount sql.NullFloat64
	found := false
	err := ss.do(ctx, "SHOW STATS FOR "+s.QuoteTable(t), func(rows *sql.Rows) error {
		cols, err := rows.Columns()
		if err != nil {
			return err
		}
		nameAt, countAt := indexOf(cols, "column_name"), indexOf(cols, "row_count")
		if nameAt < 0 || countAt < 0 {
			return fmt.Errorf("SHOW STATS returned columns %v", cols)
		}
		vals := make([]any, len(cols))
		for rows.Next() {
			var name sql.NullString
			var n sql.NullFloat64
			for i := range vals {
				vals[i] = new(any)
			}
			vals[nameAt], vals[countAt] = &name, &n
			if err := rows.Scan(vals...); err != nil {
				return err
			}
			if !name.Valid {
				rowCount, found = n, true
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return 0, false, fmt.Errorf("trino: estimate rows of %s: %w", t, ctxErr(ctx, describe(err)))
	case !found || !rowCount.Valid:
		return 0, false, fmt.Errorf("trino: estimate rows of %s: the connector keeps no row count", t)
	}
	return int64(math.Round(rowCount.Float64)), exactCounts[s.connector(ctx, t)], nil
}

// exactCounts are the connectors whose statistics are their tables' row
// counts: tpch and tpcds compute each table's from the scale factor, and
// generate exactly that many rows. Taken as exact, such a table is not
// counted again: a bounded count (SELECT count(*) FROM (SELECT 1 FROM t
// LIMIT n)) reads no column, and the tpch connector then builds pages of
// up to a whole split (750,000 rows of tpch.sf1.orders for LIMIT 100001),
// ten times what the LIMIT asks. The memory connector's counts are exact
// too, but a connector's figures are taken as estimates unless known.
var exactCounts = map[string]bool{"tpch": true, "tpcds": true}

// connector is the connector name of t's catalog (system.metadata.catalogs),
// read once per catalog; "" when it cannot be read (a user refused the
// system catalog, a server without the column), which makes no count exact.
func (s *Source) connector(ctx context.Context, t warehouse.TableName) string {
	catalog := s.catalog
	if i := strings.IndexByte(t.Schema, '.'); i >= 0 {
		catalog = t.Schema[:i]
	}
	s.mu.Lock()
	name, ok := s.connectors[catalog]
	s.mu.Unlock()
	if ok {
		return name
	}
	ss := newSession(s.db, s.readOnly)
	defer ss.close()
	var n sql.NullString
	err := ss.scalar(ctx, "SELECT connector_name FROM system.metadata.catalogs WHERE catalog_name = "+quoteString(catalog), &n)
	if err != nil && ctx.Err() != nil {
		return "" // not remembered: the next call, on a live context, asks again
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.connectors == nil {
		s.connectors = map[string]string{}
	}
	s.connectors[catalog] = n.String // "" after an error: asked once
	return n.String
}

func indexOf(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}

// Query runs one guarded read-only statement through warehouse.Query:
// Guard first, so nothing the allow-list refuses reaches the cluster, then
// Run. A timeout cancels the query on the cluster (the client sends DELETE
// /v1/query/{id}) and is reported as context.DeadlineExceeded.
func (s *Source) Query(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	return warehouse.Query(ctx, s, q, opts)
}

var _ warehouse.Engine = (*Source)(nil)

// Admit is the allow-list in front of Run (warehouse.Engine).
func (s *Source) Admit(ctx context.Context, q string) error { return s.Guard(ctx, q) }

// Limits are the defaults of a statement's bounds (warehouse.Engine).
func (s *Source) Limits() warehouse.Limits {
	return warehouse.Limits{Timeout: DefaultTimeout, MaxRows: DefaultMaxRows}
}

// Run runs an admitted statement in its own read-only transaction
// (warehouse.Engine).
func (s *Source) Run(ctx context.Context, q string, lim warehouse.Limits) (*warehouse.Result, error) {
	// Trino's parser refuses the final semicolon people and models write,
	// which the guard admits (it is still one statement).
	q = strings.TrimRight(strings.TrimSpace(q), "; \t\r\n")
	ss := newSession(s.db, s.readOnly)
	defer ss.close()
	res := &warehouse.Result{Columns: []string{}, Rows: [][]any{}}
	if err := ss.do(ctx, q, func(rows *sql.Rows) error { return read(rows, res, lim.MaxRows) }); err != nil {
		return nil, runErr(lim.Timeout, err)
	}
	return res, nil
}

func read(rows *sql.Rows, res *warehouse.Result, maxRows int) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	types, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	kinds := make([]string, len(types))
	for i, t := range types {
		kinds[i] = t.DatabaseTypeName()
	}
	res.Columns = cols
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if len(res.Rows) == maxRows {
			// One row past the cap proves there was more to read; closing
			// the rows cancels the rest on the cluster.
			res.Truncated = true
			return nil
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		row := make([]any, len(cols))
		for i, v := range vals {
			row[i] = convert(v, kinds[i])
		}
		res.Rows = append(res.Rows, row)
	}
	return nil
}

// runErr names what the cluster said: a statement it stopped for its
// time as context.DeadlineExceeded, a write its read-only transaction
// refused as warehouse.ErrDatabaseRefused.
func runErr(timeout time.Duration, err error) error {
	var te *trinodrv.ErrTrino
	if errors.As(err, &te) {
		switch te.ErrorName {
		case "EXCEEDED_TIME_LIMIT":
			return fmt.Errorf("timed out on the cluster after %s (%s): %w", timeout, oneLine(te.Message), context.DeadlineExceeded)
		case "READ_ONLY_VIOLATION":
			return fmt.Errorf("%w: %w", warehouse.ErrDatabaseRefused, describe(err))
		}
	}
	return describe(err)
}

// ctxErr prefers the context's error when the context ended the statement.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

// serverError is what the cluster said, without the client's quoting
// (`trino: query failed (200 OK): "USER_ERROR: …"`); the client's error
// stays reachable with errors.As.
type serverError struct {
	msg string
	err error
}

func (e *serverError) Error() string { return e.msg }
func (e *serverError) Unwrap() error { return e.err }

// describe turns the client's errors into the cluster's own words: the
// error name and message, or the HTTP status and body.
func describe(err error) error {
	var te *trinodrv.ErrTrino
	if errors.As(err, &te) {
		return &serverError{msg: te.ErrorName + ": " + oneLine(te.Message), err: err}
	}
	var qf *trinodrv.ErrQueryFailed
	if errors.As(err, &qf) && qf.StatusCode != 0 && qf.StatusCode != http.StatusOK {
		msg := fmt.Sprintf("HTTP %d %s", qf.StatusCode, http.StatusText(qf.StatusCode))
		if qf.Reason != nil {
			if body := strings.TrimSpace(oneLine(qf.Reason.Error())); body != "" {
				msg += ": " + body
			}
		}
		return &serverError{msg: msg, err: err}
	}
	return err
}

// convert turns the client's values into the plain ones Result promises.
// The client already gives int64 (every integer type), float64 (real,
// double), bool, string (varchar, char, decimal, json, uuid, intervals, …)
// and []byte (varbinary); dates and times come as time.Time and go back to
// Trino's text, and arrays, maps and rows become JSON text.
func convert(v any, kind string) any {
	switch x := v.(type) {
	case nil, int64, float64, string, bool, []byte:
		return v
	case time.Time:
		return formatTime(x, kind)
	}
	return jsonText(v)
}

// formatTime renders a date or time the way Trino writes it, with the
// fraction's trailing zeros dropped (timestamp(3) '2024-01-02 03:04:05.000'
// becomes '2024-01-02 03:04:05'). The client reads at most nine digits of
// a fraction, so picoseconds of timestamp(12) are lost.
func formatTime(t time.Time, kind string) string {
	switch kind {
	case "DATE":
		return t.Format("2006-01-02")
	case "TIME":
		return t.Format("15:04:05.999999999")
	case "TIME WITH TIME ZONE":
		return t.Format("15:04:05.999999999 -07:00")
	case "TIMESTAMP WITH TIME ZONE":
		return t.Format("2006-01-02 15:04:05.999999999") + " " + zone(t)
	}
	return t.Format("2006-01-02 15:04:05.999999999")
}

// zone names t's zone as Trino does: a region ID when the value had one,
// else its offset.
func zone(t time.Time) string {
	if name := t.Location().String(); name != "" && name != "Local" {
		return name
	}
	return t.Format("-07:00")
}

// jsonText renders a nested value as compact JSON, with HTML left alone and
// a row's fields in their declared order.
func jsonText(v any) any {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(plain(v)); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// plain prepares a nested value for encoding/json: rows become ordered
// objects, times text, and the floats JSON has no number for, strings.
func plain(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plain(e)
		}
		return out
	case trinodrv.Row:
		if !x.Valid {
			return nil
		}
		obj := make(orderedObject, x.Len())
		for i := range obj {
			obj[i] = field{x.Name(i), plain(x.Value(i))}
		}
		return obj
	case time.Time:
		return x.Format("2006-01-02 15:04:05.999999999")
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN"
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		}
	}
	return v
}

type field struct {
	name  string
	value any
}

// orderedObject is a JSON object that keeps its fields' order.
type orderedObject []field

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.name)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		var v bytes.Buffer
		enc := json.NewEncoder(&v)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(f.value); err != nil {
			return nil, err
		}
		b.Write(bytes.TrimSuffix(v.Bytes(), []byte("\n")))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
