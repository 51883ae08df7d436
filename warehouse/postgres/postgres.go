// Package postgres is the PostgreSQL engine of the warehouse: a database
// reached through pgx and used strictly read-only.
//
// Read-only is enforced by the server, twice, and by the guard in front
// (guard.go, an allow-list over the server's own parse of the statement):
// every connection starts with default_transaction_read_only=on, and every
// statement runs inside a transaction begun READ ONLY and rolled back, so a
// write that slipped past the guard still fails with SQLSTATE 25006
// (read_only_sql_transaction) and nothing is ever committed.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/discover-db/discover/warehouse"
)

const (
	// DefaultTimeout bounds a Query when QueryOptions.Timeout is 0.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxRows bounds a Query when QueryOptions.MaxRows is 0.
	DefaultMaxRows = 10000
	// DefaultConnectTimeout bounds each connection attempt when the DSN has
	// no connect_timeout: without one, a firewalled host would hang the run
	// for the kernel's TCP timeout (minutes).
	DefaultConnectTimeout = 10 * time.Second
	// lockTimeout stops a statement that queues behind another session's
	// DDL: waiting would also queue every later reader of that table
	// behind us.
	lockTimeout = 10 * time.Second
	// cancelGrace lets the server's statement_timeout fire before the
	// client gives up on the same deadline, so the connection comes back
	// clean instead of being cancelled mid-protocol.
	cancelGrace = 2 * time.Second
)

var (
	_ warehouse.Source       = (*Source)(nil)
	_ warehouse.SkipReporter = (*Source)(nil)
	_ warehouse.RowEstimator = (*Source)(nil)
)

// Source is a PostgreSQL database opened read-only. It is safe for
// concurrent use: each call takes its own pooled connection.
type Source struct {
	pool *pgxpool.Pool
	name string
	// backoff holds the pauses before each further attempt of a statement
	// that failed for a passing reason (see readOnlyTx); nil retries nothing.
	backoff []time.Duration
	// onRetry, when set (tests), is told of each failure that is retried.
	onRetry func(error)
	// catalog is what the guard knows of the database, from the last
	// Tables; nil until then (Guard lists the tables once itself).
	catalog atomic.Pointer[catalog]
	// major is the server's major version (15 for 15.4).
	major int
	// privs is the answer of Privileges, asked once.
	privs warehouse.PrivilegesOnce
}

// Open connects to the postgres:// or postgresql:// (or libpq key=value)
// DSN and checks that the database answers. A malformed DSN, a wrong
// password, an unknown database or role, and a host that cannot be reached
// are reported as warehouse.ErrBadInput, in one line without the password.
func Open(ctx context.Context, dsn string) (*Source, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, parseError(dsn, err)
	}
	cc := cfg.ConnConfig
	if cc.ConnectTimeout <= 0 {
		cc.ConnectTimeout = DefaultConnectTimeout
	}
	params := cc.RuntimeParams
	// Set at connection start, before any statement can run, so even a
	// statement outside our transactions could not write. A later startup
	// parameter overrides "options=-c …", so the DSN cannot undo it.
	setParam(params, "default_transaction_read_only", "on")
	// Values are read as text (see decode): these fix the text forms whatever
	// the server's defaults. "ISO" alone keeps the server's day/month input
	// order, so date literals in user SQL read as they always did.
	setParam(params, "DateStyle", "ISO")
	setParam(params, "bytea_output", "hex")
	setParam(params, "extra_float_digits", "3")
	// The guard parses statements as the server does with these (libpg_query
	// is fixed to them): with standard_conforming_strings off, 'a\' would
	// end a string elsewhere for the server than for the guard, and a
	// client-only encoding (SJIS, GBK …) can hide a backslash or quote
	// inside a multibyte character.
	setParam(params, "standard_conforming_strings", "on")
	setParam(params, "client_encoding", "UTF8")
	// A sequential scan starts where another scan of the same table is
	// (synchronized scans), so the first rows of a table, which a profile
	// reads under a LIMIT (a rank correlation's sample), would differ
	// from run to run, and so would a report a CI job diffs. Off, every
	// scan starts at the first page.
	setParam(params, "synchronize_seqscans", "off")
	if params["application_name"] == "" {
		params["application_name"] = "discover"
	}
	// Exec mode sends each statement on its own with the extended protocol
	// in one round trip, and leaves no prepared statement on the server
	// (nor on a pooler in front of it).
	cc.DefaultQueryExecMode = pgx.QueryExecModeExec
	// By default pgx answers a cancelled context by closing the socket,
	// which leaves the statement running on the server until it next
	// writes; a cancel request stops it there and keeps the connection.
	cc.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: cancelGrace}
	}

	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	s := &Source{pool: pool}
	// The first statement makes the pool connect; current_database() also
	// names the database when the DSN left it to the server's default. The
	// bound covers a server that accepts the connection and then stalls.
	octx, cancel := context.WithTimeout(ctx, 2*cc.ConnectTimeout)
	defer cancel()
	var version int
	err = s.readOnly(octx, cc.ConnectTimeout, func(tx pgx.Tx) error {
		return tx.QueryRow(octx, "SELECT current_database(), current_setting('server_version_num')::int").Scan(&s.name, &version)
	})
	s.major = version / 10000
	if err != nil {
		pool.Close()
		return nil, connectError(ctx, &cc.Config, err)
	}
	// From here on a dropped connection is retried; the first one above is
	// not, so that a wrong address or password fails at once.
	s.backoff = retryBackoff
	return s, nil
}

// setParam sets a startup parameter, replacing the DSN's own spelled in
// any case: the server reads names case-insensitively, and with two
// spellings in the map which one it applies last would be left to chance.
func setParam(params map[string]string, name, value string) {
	for k := range params {
		if strings.EqualFold(k, name) {
			delete(params, k)
		}
	}
	params[name] = value
}

// parseError names what is wrong with a DSN pgx cannot parse. pgx's own
// message quotes the DSN with only a best-effort mask, so it is rebuilt from
// the redacted DSN and the bare reason.
func parseError(dsn string, err error) error {
	reason := err.Error()
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		if inner := errors.Unwrap(pe); inner != nil {
			reason = inner.Error()
		} else if i := strings.LastIndex(reason, "`: "); i >= 0 {
			reason = reason[i+3:] // after "cannot parse `<DSN, half-masked>`: "
		}
	}
	return warehouse.BadInput(fmt.Sprintf("postgres: malformed DSN %s: %s",
		warehouse.Redact(dsn), scrub(oneLine(reason), dsnPassword(dsn))))
}

// connectError turns a failed first connection into one line the user can
// act on. Every failure the user can fix is warehouse.ErrBadInput; a server
// that is starting up or out of connections is not the input's fault.
func connectError(ctx context.Context, cc *pgconn.Config, err error) error {
	addr := address(cc.Host, cc.Port)
	bad := func(format string, args ...any) error {
		return warehouse.BadInput(scrub(oneLine(fmt.Sprintf(format, args...)), cc.Password))
	}
	if ctx.Err() != nil {
		return fmt.Errorf("postgres: connect to %s: %w", addr, ctx.Err())
	}
	var pgErr *pgconn.PgError
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &pgErr):
		switch {
		case pgErr.Code == "28P01":
			return bad("postgres: authentication failed for user %s", cc.User)
		case pgErr.Code == "3D000":
			return bad("postgres: database %q does not exist", cc.Database)
		case strings.HasPrefix(pgErr.Code, "53"), pgErr.Code == "57P03":
			return fmt.Errorf("postgres: connect to %s: %s: %w", addr, pgErr.Message, err)
		}
		// 28000 (no pg_hba.conf entry, unknown role), 42501 (no CONNECT
		// privilege) and the rest: the server's message says it best.
		return bad("postgres: %s", pgErr.Message)
	case errors.As(err, &dnsErr):
		return bad("postgres: cannot resolve host %s: %s", cc.Host, dnsErr.Err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return bad("postgres: cannot reach %s: connection refused", addr)
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH),
		errors.Is(err, syscall.ENOENT), errors.Is(err, syscall.ECONNRESET):
		var errno syscall.Errno
		errors.As(err, &errno)
		return bad("postgres: cannot reach %s: %s", addr, errno.Error())
	case pgconn.Timeout(err), errors.Is(err, context.DeadlineExceeded):
		return bad("postgres: cannot reach %s: no answer within %s", addr, cc.ConnectTimeout)
	}
	// pgx says "failed to connect to `user=… database=…`: host:port (host):
	// reason", one line per address tried; the address is named already.
	msg := err.Error()
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) && errors.Unwrap(ce) != nil {
		msg = errors.Unwrap(ce).Error()
	}
	if rest, ok := strings.CutPrefix(msg, addr+" ("); ok && !strings.Contains(msg, "\n") {
		if _, reason, ok := strings.Cut(rest, "): "); ok {
			msg = reason
		}
	}
	return bad("postgres: cannot connect to %s: %s", addr, msg)
}

// address names where a connection goes: host:port, or the Unix socket
// file libpq would use.
func address(host string, port uint16) string {
	if strings.HasPrefix(host, "/") {
		return fmt.Sprintf("%s/.s.PGSQL.%d", strings.TrimSuffix(host, "/"), port)
	}
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
}

// oneLine joins pgx's multi-line errors (one line per host tried).
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n\t", "; ")
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

var quoted = regexp.MustCompile(`"[^"]*"|'[^']*'`)

// scrub takes a password out of a message: whole, and as any quoted
// fragment of it (a URL parser quotes the bad "%zz" escape it tripped on,
// which may sit inside the password).
func scrub(msg, password string) string {
	if password == "" {
		return msg
	}
	msg = strings.ReplaceAll(msg, password, "***")
	return quoted.ReplaceAllStringFunc(msg, func(q string) string {
		if inner := q[1 : len(q)-1]; inner != "" && strings.Contains(password, inner) {
			return q[:1] + "***" + q[len(q)-1:]
		}
		return q
	})
}

// dsnPassword finds the password of a URL DSN without parsing it, since it
// is needed precisely when the DSN does not parse.
func dsnPassword(dsn string) string {
	_, rest, ok := strings.Cut(dsn, "://")
	if !ok {
		if m := regexp.MustCompile(`(?i)\bpassword\s*=\s*('(?:[^'\\]|\\.)*'|\S*)`).FindStringSubmatch(dsn); m != nil {
			return strings.Trim(m[1], "'")
		}
		return ""
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 && !strings.Contains(rest[i:], "@") {
		rest = rest[:i]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return ""
	}
	_, pass, _ := strings.Cut(rest[:at], ":")
	return pass
}

// Dialect implements warehouse.Source.
func (s *Source) Dialect() warehouse.Dialect { return Dialect{} }

// Database is the name of the connected database.
func (s *Source) Database() string { return s.name }

// QuoteIdent quotes an identifier with double quotes, doubling embedded ones.
func (s *Source) QuoteIdent(name string) string { return QuoteIdent(name) }

// QuoteTable quotes schema and name; public (Schema "") is left to the
// search path, as report names are.
func (s *Source) QuoteTable(t warehouse.TableName) string { return QuoteTable(t) }

// QuoteIdent quotes an identifier for PostgreSQL (Dialect.QuoteIdent).
// Quoting always, even lower-case names, keeps keywords ("select") and
// mixed case ("CamelCase") right without a keyword list.
func QuoteIdent(name string) string { return Dialect{}.QuoteIdent(name) }

// QuoteTable quotes a possibly schema-qualified table name.
func QuoteTable(t warehouse.TableName) string { return Dialect{}.QuoteTable(t) }

// Close closes every pooled connection.
func (s *Source) Close() error {
	s.pool.Close()
	return nil
}
