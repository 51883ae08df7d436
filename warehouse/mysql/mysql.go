// Package mysql is the MySQL and MariaDB engine of the warehouse, through
// github.com/go-sql-driver/mysql.
//
// Read-only is enforced by the server, not only by the SQL guard. Every
// connection is switched to read-only session mode as it opens, and every
// operation runs in its own START TRANSACTION READ ONLY on a dedicated
// connection, rolled back at the end. Both are needed: a DDL statement
// commits the transaction implicitly and then runs outside it, so START
// TRANSACTION READ ONLY alone lets CREATE TABLE through (checked on MariaDB
// 10.11); the session mode refuses it. The allow-list guard (guard.go)
// runs in front of both for user-supplied SQL, and every session's sql_mode
// is pinned (pinnedSQLMode) so that the guard's parser and the server read
// a statement alike.
package mysql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	mysqldrv "github.com/go-sql-driver/mysql"

	"github.com/discover-db/discover/warehouse"
)

const (
	// DefaultTimeout bounds a Query when QueryOptions.Timeout is 0.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxRows bounds a Query when QueryOptions.MaxRows is 0.
	DefaultMaxRows = 10000
	// ConnectTimeout bounds dialling (the driver's timeout parameter, unless
	// the DSN sets one) and, separately, the handshake and first queries of
	// Open, so a port that accepts but never speaks MySQL cannot hang it.
	ConnectTimeout = 10 * time.Second
	// backstop is how long after the server's own statement limit the
	// context gives up on a query. The server's limit is the one meant to
	// fire: it leaves the connection usable and says why it stopped.
	backstop = time.Second
	// killTimeout bounds the KILL QUERY sent for an abandoned statement.
	killTimeout = 5 * time.Second
)

// Server error numbers this package acts on.
const (
	erDBAccessDenied     = 1044
	erAccessDenied       = 1045
	erBadDB              = 1049
	erTableAccessDenied  = 1142 // "SELECT command denied to user"
	erColumnAccessDenied = 1143
	erUnknownSystemVar   = 1193
	erOptionPrevents     = 1290 // the server runs with --read-only
	erViewInvalid        = 1356 // a view refers to what no longer exists
	erReadOnlyTx         = 1792 // "Cannot execute statement in a READ ONLY transaction"
	erStatementTimeout   = 1969 // MariaDB: max_statement_time exceeded
	erQueryTimeout       = 3024 // MySQL: max_execution_time exceeded
	erQueryInterrupted   = 1317 // KILL QUERY; on some servers a statement limit too

	// Failures that pass: see transient.
	erConCount          = 1040 // too many connections
	erShutdown          = 1053 // server shutdown in progress
	erUserConnections   = 1203 // max_user_connections reached
	erLockWaitTimeout   = 1205
	erDeadlock          = 1213
	erConnectionKilled  = 1927 // MariaDB: KILL CONNECTION while a statement ran
	crServerGone        = 2006 // client codes, which proxies send as server errors
	crServerLost        = 2013
	erClientIdleTimeout = 4031 // MySQL 8: disconnected after wait_timeout
)

var _ warehouse.Source = (*Source)(nil)
var _ warehouse.SkipReporter = (*Source)(nil)
var _ warehouse.RowEstimator = (*Source)(nil)

// Source is one MySQL or MariaDB database, opened read-only.
type Source struct {
	db      *sql.DB
	name    string // the DSN's database
	mariadb bool
	// limitVar is the session variable that bounds one statement's run
	// time: MariaDB's max_statement_time (seconds), MySQL's
	// max_execution_time (milliseconds), "" on servers that have neither.
	limitVar string
	// roVar is the session variable behind SET SESSION TRANSACTION READ
	// ONLY: tx_read_only (MariaDB, old MySQL) or transaction_read_only.
	roVar string
	// backoff holds the pauses before each further attempt of an operation
	// that failed for a passing reason (see readOnly); nil retries nothing.
	backoff []time.Duration
	// onRetry, when set (tests), is told of each failure that is retried.
	onRetry func(error)
	// lowerCaseTableNames is the server's lower_case_table_names: 0 when
	// table and database names are case-sensitive (`Users` and `users`
	// are two tables), 1 or 2 when the server compares them folded.
	lowerCaseTableNames int
	// guard is what Guard checks relations and functions against, set by
	// Tables; nil until the first listing.
	guardMu sync.Mutex
	guard   *guardView
	// privs is the answer of Privileges, asked once.
	privs warehouse.PrivilegesOnce
}

// Open connects to the database a mysql:// DSN names, in either form of
// CONTRACT.md (mysql://user:pass@tcp(host:port)/db?… or
// mysql://user:pass@host:port/db?…; a bare driver DSN without the scheme is
// taken too). Extra query parameters go to the driver unchanged, except
// those that would weaken the read-only promise or change how values are
// returned (parseTime, multiStatements, allowAllFiles, interpolateParams),
// which are forced off. A sql_mode or character set the DSN sets is
// overridden on every connection by the pinned ones (pinnedSQLMode,
// utf8mb4), which Open checks reached the session: the guard's verdicts
// hold only for a session that reads text as its parser does.
//
// A malformed DSN, a DSN without a database, a wrong password, an
// unreachable server and a database that does not exist are reported as
// warehouse.ErrBadInput, in one line that never shows the password.
func Open(ctx context.Context, dsn string) (*Source, error) {
	cfg, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	base, err := mysqldrv.NewConnector(cfg)
	if err != nil {
		return nil, warehouse.BadInputf("mysql: malformed DSN %s: %s", warehouse.Redact(dsn), scrub(err.Error(), cfg.Passwd))
	}
	db := sql.OpenDB(roConnector{base})
	db.SetMaxIdleConns(4)
	// Idle connections are dropped before a typical server wait_timeout or
	// a proxy's idle cut would make the driver find them dead.
	db.SetConnMaxIdleTime(5 * time.Minute)

	s := &Source{db: db, name: cfg.DBName}
	octx, cancel := context.WithTimeout(ctx, connectBudget(cfg))
	defer cancel()
	if err := s.detect(octx); err != nil {
		db.Close()
		return nil, openErr(ctx, octx, cfg, err)
	}
	// From here on a dropped connection is retried; the first one above is
	// not, so that a wrong address or password fails at once.
	s.backoff = warehouse.RetryBackoff
	return s, nil
}

// connectBudget is how long Open may take: the dial timeout plus time for
// the handshake and the detection queries.
func connectBudget(cfg *mysqldrv.Config) time.Duration {
	return max(cfg.Timeout, ConnectTimeout) + 2*time.Second
}

// detect pings the server and learns its flavour and the names of the
// session variables this package sets, which differ between MariaDB and
// MySQL and between versions.
func (s *Source) detect(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return err
	}
	var version string
	if err := s.db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
		return err
	}
	s.mariadb = strings.Contains(strings.ToLower(version), "mariadb")
	limits := []string{"max_execution_time", "max_statement_time"}
	ros := []string{"transaction_read_only", "tx_read_only"}
	if s.mariadb {
		limits = []string{"max_statement_time"}
		ros = []string{"tx_read_only", "transaction_read_only"}
	}
	var err error
	if s.limitVar, err = s.firstVar(ctx, limits); err != nil {
		return err
	}
	if s.roVar, err = s.firstVar(ctx, ros); err != nil {
		return err
	}
	if s.roVar == "" {
		return fmt.Errorf("server %s has no read-only transaction mode", version)
	}
	return s.checkSession(ctx)
}

// checkSession verifies that the pinned sql_mode and character set reached
// the session (roConnector sets them on every connection) and learns how
// the server compares table names. The guard's verdicts hold only for a
// session that lexes as its parser does, so Open fails otherwise.
func (s *Source) checkSession(ctx context.Context) error {
	var mode, charset string
	err := s.db.QueryRowContext(ctx, "SELECT @@SESSION.sql_mode, @@SESSION.character_set_client, @@lower_case_table_names").
		Scan(&mode, &charset, &s.lowerCaseTableNames)
	if err != nil {
		return err
	}
	if !sameModes(mode, pinnedSQLMode) {
		return fmt.Errorf("the session's sql_mode is %q, not %q as set", mode, pinnedSQLMode)
	}
	if !strings.EqualFold(charset, "utf8mb4") {
		return fmt.Errorf("the session's character_set_client is %q, not utf8mb4 as set", charset)
	}
	return nil
}

// sameModes compares two sql_mode values as sets of flags.
func sameModes(a, b string) bool {
	flags := func(s string) []string {
		f := strings.Split(strings.ToUpper(s), ",")
		slices.Sort(f)
		return slices.Compact(f)
	}
	return slices.Equal(flags(a), flags(b))
}

// firstVar returns the first of names the server knows as a session
// variable, or "" when it knows none.
func (s *Source) firstVar(ctx context.Context, names []string) (string, error) {
	for _, name := range names {
		var v any
		err := s.db.QueryRowContext(ctx, "SELECT @@SESSION."+name).Scan(&v)
		if err == nil {
			return name, nil
		}
		if serverCode(err) != erUnknownSystemVar {
			return "", err
		}
	}
	return "", nil
}

// openErr turns what went wrong while connecting into one line for the
// user. What the user can fix (credentials, address, database name) is
// ErrBadInput; a server that is overloaded or a run that was cancelled is
// not.
func openErr(parent, octx context.Context, cfg *mysqldrv.Config, err error) error {
	where := cfg.Addr
	if cfg.Net != "tcp" {
		where = cfg.Net + "(" + cfg.Addr + ")"
	}
	switch serverCode(err) {
	case erAccessDenied:
		return warehouse.BadInputf("mysql: access denied for user '%s'", cfg.User)
	case erDBAccessDenied:
		return warehouse.BadInputf("mysql: access denied for user '%s' to database %q", cfg.User, cfg.DBName)
	case erBadDB:
		return warehouse.BadInputf("mysql: database %q does not exist", cfg.DBName)
	case 0:
	default:
		return fmt.Errorf("mysql: connect to %s: %s", where, scrub(err.Error(), cfg.Passwd))
	}
	if parent.Err() != nil {
		return fmt.Errorf("mysql: connect to %s: %w", where, parent.Err())
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return warehouse.BadInputf("mysql: cannot reach %s: %s", where, dialReason(op))
	}
	if octx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return warehouse.BadInputf("mysql: cannot reach %s: no answer within %s", where, connectBudget(cfg))
	}
	if errors.Is(err, mysqldrv.ErrInvalidConn) || errors.Is(err, mysqldrv.ErrMalformPkt) {
		return warehouse.BadInputf("mysql: cannot reach %s: the server there does not speak the MySQL protocol", where)
	}
	return fmt.Errorf("mysql: connect to %s: %s", where, scrub(err.Error(), cfg.Passwd))
}

// dialReason is the short cause of a failed dial ("connection refused",
// "no such host", "i/o timeout") without the addresses the driver repeats.
func dialReason(op *net.OpError) string {
	var dns *net.DNSError
	if errors.As(op.Err, &dns) {
		if dns.IsNotFound {
			return "no such host"
		}
		return dns.Err
	}
	var sys *os.SyscallError
	if errors.As(op.Err, &sys) {
		return sys.Err.Error()
	}
	if op.Timeout() {
		return "timed out"
	}
	return op.Err.Error()
}

// scrub removes the password from a message that might echo it.
func scrub(msg, password string) string {
	if password == "" {
		return msg
	}
	return strings.ReplaceAll(msg, password, "***")
}

// scrubAll removes every secret warehouse.Secrets finds in dsn (a password
// where the "@" is missing, its decoded forms) from msg.
func scrubAll(msg, dsn string) string {
	for _, s := range warehouse.Secrets(dsn) {
		msg = scrub(msg, s)
	}
	return msg
}

// driverForm matches the driver's "net(addr)" that follows the userinfo:
// tcp(host:3306)/db, unix(/run/mysqld.sock)/db.
var driverForm = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*\(`)

// parseDSN turns either CONTRACT form into the driver's configuration.
func parseDSN(dsn string) (*mysqldrv.Config, error) {
	rest := dsn
	if len(dsn) >= len("mysql://") && strings.EqualFold(dsn[:len("mysql://")], "mysql://") {
		rest = dsn[len("mysql://"):]
	} else if strings.Contains(dsn, "://") {
		return nil, warehouse.BadInputf("mysql: %s is not a mysql:// DSN", warehouse.Redact(dsn))
	}
	userinfo, hostpart, hasUser := splitUserinfo(rest)
	_, password, _ := strings.Cut(userinfo, ":")
	var cfg *mysqldrv.Config
	var err error
	if driverForm.MatchString(hostpart) {
		cfg, err = mysqldrv.ParseDSN(rest)
	} else {
		cfg, err = parseURL(userinfo, hostpart, hasUser)
	}
	if err != nil {
		return nil, warehouse.BadInputf("mysql: malformed DSN %s: %s", warehouse.Redact(dsn), scrubAll(scrub(err.Error(), password), dsn))
	}
	if cfg.DBName == "" {
		return nil, warehouse.BadInputf("mysql: the DSN names no database (expected mysql://user:pass@host:port/db): %s", warehouse.Redact(dsn))
	}
	// Values are converted here from the text the server sends, so that a
	// DATETIME is profiled as written, including zero dates Go cannot hold.
	cfg.ParseTime = false
	// One statement per call is what the guard promises; a second statement
	// smuggled behind the first must not reach the server.
	cfg.MultiStatements = false
	// LOAD DATA LOCAL would let the server ask for any client file.
	cfg.AllowAllFiles = false
	cfg.InterpolateParams = false
	if cfg.Timeout <= 0 {
		cfg.Timeout = ConnectTimeout
	}
	// The driver logs connection trouble to stderr, which would tear
	// through the terminal view; the same errors are returned anyway.
	cfg.Logger = &mysqldrv.NopLogger{}
	return cfg, nil
}

// splitUserinfo cuts "user:pass@rest" where warehouse.Redact does: at the
// last '@' before the query (a password may hold '@', '/', ':' or '#', a
// host may not), or at the last '@' of all when the password holds '?'.
// Splitting before any URL parsing keeps the password out of the parser's
// error messages, which quote the text they choke on.
func splitUserinfo(rest string) (userinfo, hostpart string, ok bool) {
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		q = len(rest)
	}
	at := strings.LastIndexByte(rest[:q], '@')
	if at < 0 {
		at = strings.LastIndexByte(rest, '@')
	}
	if at < 0 {
		return "", rest, false
	}
	return rest[:at], rest[at+1:], true
}

// parseURL reads host:port/db?params (the URL form, after the userinfo) and
// the userinfo, percent-decoding user, password and database.
func parseURL(userinfo, hostpart string, hasUser bool) (*mysqldrv.Config, error) {
	if strings.Contains(hostpart, "#") {
		return nil, errors.New("'#' must be written %23")
	}
	u, err := url.Parse("mysql://" + hostpart)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			return nil, ue.Err
		}
		return nil, err
	}
	// The query is handed to the driver's own parser so parameters mean the
	// same in both forms.
	cfg, err := mysqldrv.ParseDSN("/?" + u.RawQuery)
	if err != nil {
		return nil, err
	}
	db, err := url.PathUnescape(strings.TrimPrefix(u.EscapedPath(), "/"))
	if err != nil {
		return nil, fmt.Errorf("database name: %w", err)
	}
	if strings.Contains(db, "/") {
		return nil, fmt.Errorf("database name %q contains '/'", db)
	}
	cfg.DBName = db
	if hasUser {
		user, pass, _ := strings.Cut(userinfo, ":")
		cfg.User, cfg.Passwd = unescape(user), unescape(pass)
	}
	// Without a host the driver's default (127.0.0.1:3306) stands.
	host, port := u.Hostname(), u.Port()
	if host == "" && port != "" {
		host = "127.0.0.1"
	}
	if host != "" {
		if port == "" {
			port = "3306"
		}
		cfg.Net, cfg.Addr = "tcp", net.JoinHostPort(host, port)
	}
	return cfg, nil
}

// unescape percent-decodes s, or keeps it as written when it is not valid
// percent-encoding (a password "50%off" means what it says).
func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// roConnector switches each physical connection to read-only session mode
// as the pool opens it, so no statement ever runs on a writable session.
type roConnector struct{ driver.Connector }

func (c roConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	ex, ok := conn.(driver.ExecerContext)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("driver connection %T cannot execute statements", conn)
	}
	if _, err := ex.ExecContext(ctx, "SET SESSION TRANSACTION READ ONLY", nil); err != nil {
		conn.Close()
		return nil, err
	}
	// The guard parses in this mode and this character set; set after the
	// driver applied the DSN's parameters, so that neither a sql_mode=…
	// there nor the server's global default (ANSI_QUOTES…) survives.
	if _, err := ex.ExecContext(ctx, "SET SESSION sql_mode = '"+pinnedSQLMode+"', character_set_client = utf8mb4", nil); err != nil {
		conn.Close()
		return nil, err
	}
	// MariaDB stops a recursive CTE after max_recursive_iterations (1000 by
	// default) with only a warning, returning a silently incomplete result;
	// the statement timeout is the bound instead. MySQL fails loudly at its
	// own limit and has no such variable (error 1193, ignored).
	if _, err := ex.ExecContext(ctx, "SET SESSION max_recursive_iterations = 4294967295", nil); err != nil && serverCode(err) != erUnknownSystemVar {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// serverCode is the server's error number in err, or 0.
func serverCode(err error) uint16 {
	var me *mysqldrv.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// Dialect implements warehouse.Source.
func (s *Source) Dialect() warehouse.Dialect { return Dialect{} }

// Database is the name of the DSN's database.
func (s *Source) Database() string { return s.name }

// MariaDB reports whether the server is MariaDB rather than MySQL.
func (s *Source) MariaDB() bool { return s.mariadb }

// QuoteIdent quotes an identifier with backticks, doubling embedded ones.
func (s *Source) QuoteIdent(name string) string { return QuoteIdent(name) }

// QuoteTable quotes a table name; the DSN's database (Schema "") is left
// out, so the statement works wherever the connection's default is.
func (s *Source) QuoteTable(t warehouse.TableName) string { return Dialect{}.QuoteTable(t) }

// QuoteIdent quotes an identifier for MySQL and MariaDB (Dialect.QuoteIdent).
func QuoteIdent(name string) string { return Dialect{}.QuoteIdent(name) }

// limits are the session settings one operation runs under.
type limits struct {
	// timeout is the server-side statement limit; 0 leaves the server's
	// global setting. A shorter global limit, set by the database's
	// administrator, is kept in either case.
	timeout time.Duration
	rows    uint64 // sql_select_limit; math.MaxUint64 = none
}

var noLimits = limits{rows: math.MaxUint64}

// session is one dedicated connection inside its read-only transaction.
type session struct {
	s        *Source
	tx       *sql.Tx
	id       int64 // CONNECTION_ID(), for KILL QUERY
	killOnce sync.Once
	killed   atomic.Bool
	killDone chan struct{} // closed once the KILL QUERY has been answered
	// limit is the statement limit the session runs under, ours or the
	// server's global one when shorter; 0 for none.
	limit time.Duration
}

// readOnly runs fn in a read-only transaction of its own on a dedicated
// connection, under lim, and rolls it back. When ctx ends before fn does,
// the statement is killed on the server: the driver only closes its socket,
// and the server would otherwise run the statement to its end.
//
// An operation that failed because its connection was lost (KILL
// CONNECTION, a restart, wait_timeout, the network) or because of a passing
// conflict (no connection slot, a lock wait, a deadlock, another session's
// KILL QUERY) is run again on another connection after a growing pause
// (s.backoff), as long as ctx lasts: everything here only reads, so
// running it twice is harmless. A statement stopped by its own limit or by
// the end of ctx is not run again, and a retry is given only what is left
// of the first attempt's time.
func (s *Source) readOnly(ctx context.Context, lim limits, fn func(*session) error) error {
	var final bool
	first := true
	return warehouse.Retry(ctx, s.backoff, func(err error) bool { return !final && transient(err) }, s.onRetry, func() error {
		attempt := lim
		if deadline, ok := ctx.Deadline(); ok && !first && lim.timeout > 0 {
			if left := time.Until(deadline) - backstop; left > 0 && left < lim.timeout {
				attempt.timeout = left
			}
		}
		first = false
		var err error
		final, err = s.readOnlyOnce(ctx, attempt, fn)
		return err
	})
}

// readOnlyOnce is one attempt of readOnly. final reports that its failure,
// whatever it looks like, must not be retried: the statement was stopped by
// this package (the end of ctx, a result cut at its cap) or by its own
// statement limit.
func (s *Source) readOnlyOnce(ctx context.Context, lim limits, fn func(*session) error) (final bool, err error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return false, err
	}
	ss := &session{s: s, killDone: make(chan struct{})}
	discard := false
	start := time.Now()
	defer func() {
		if err != nil && !final && transient(err) {
			// Whatever broke may have left the connection half-dead.
			discard = true
		}
		if discard || ss.killed.Load() {
			// A KILL QUERY that arrives after its statement finished may
			// hit whatever the connection runs next, and a connection whose
			// rollback failed is in no known state: never reuse either.
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}()
	if err := s.prepare(ctx, conn, ss, lim); err != nil {
		return false, err
	}
	stop := context.AfterFunc(ctx, ss.kill)
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err == nil {
		ss.tx = tx
		err = fn(ss)
		// A read-only transaction has nothing to undo: a failed rollback
		// costs the connection, not the result.
		if rerr := tx.Rollback(); rerr != nil && !errors.Is(rerr, sql.ErrTxDone) {
			discard = true
		}
	}
	if !stop() {
		// The kill has started on another goroutine. Waiting for it means
		// that when an operation returns, nothing of it still runs on the
		// server (and that Close cannot cut the kill short).
		<-ss.killDone
		discard = true
	}
	final = ss.killed.Load() ||
		serverCode(err) == erQueryInterrupted && ss.limit > 0 && time.Since(start) >= ss.limit
	return final, err
}

// transient reports whether err is worth another attempt: the connection
// was lost, or the server refused for a moment. A timeout, a cancelled
// context, a permission error or bad SQL is not. Error 1317 (query
// interrupted) is, as another session's KILL QUERY; readOnly rules out the
// cases where it means a statement limit or our own kill.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	switch serverCode(err) {
	case 0:
	case erConCount, erShutdown, erUserConnections, erLockWaitTimeout, erDeadlock,
		erConnectionKilled, erQueryInterrupted, crServerGone, crServerLost, erClientIdleTimeout:
		return true
	default:
		return false
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		// The DSN's readTimeout or writeTimeout: the statement was slow,
		// and would be as slow again.
		return false
	}
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysqldrv.ErrInvalidConn) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.As(err, &netErr)
}

// prepare reads the connection's id and settings and changes those that
// differ from what this operation needs: one round trip in the common case
// where a pooled connection already has them.
func (s *Source) prepare(ctx context.Context, conn *sql.Conn, ss *session, lim limits) error {
	limitExprs := "'', ''"
	if s.limitVar != "" {
		limitExprs = "CAST(@@SESSION." + s.limitVar + " AS CHAR), CAST(@@GLOBAL." + s.limitVar + " AS CHAR)"
	}
	var ro, curLimit, globalLimit, curRows string
	err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID(), CAST(@@SESSION."+s.roVar+" AS CHAR), "+
		limitExprs+", CAST(@@SESSION.sql_select_limit AS CHAR)").Scan(&ss.id, &ro, &curLimit, &globalLimit, &curRows)
	if err != nil {
		return err
	}
	var set []string
	// Only a statement that slipped past the guard could have turned the
	// session writable; it is put back before anything else runs.
	if ro != "1" && !strings.EqualFold(ro, "ON") {
		set = append(set, "SESSION "+s.roVar+" = 1")
	}
	if s.limitVar != "" {
		cur, _ := strconv.ParseFloat(curLimit, 64)
		global, _ := strconv.ParseFloat(globalLimit, 64)
		want := s.limitValue(lim.timeout)
		if want == 0 || global > 0 && global < want {
			want = global
		}
		ss.limit = s.limitDuration(want)
		if math.Abs(want-cur) > 1e-6 {
			set = append(set, "SESSION "+s.limitVar+" = "+strconv.FormatFloat(want, 'f', -1, 64))
		}
	}
	if n, err := strconv.ParseUint(curRows, 10, 64); err != nil || n != lim.rows {
		set = append(set, "SESSION sql_select_limit = "+strconv.FormatUint(lim.rows, 10))
	}
	if len(set) == 0 {
		return nil
	}
	_, err = conn.ExecContext(ctx, "SET "+strings.Join(set, ", "))
	return err
}

// limitValue is a statement limit in the unit of the server's variable
// (milliseconds for MySQL, seconds to the microsecond for MariaDB); a limit
// below the unit is rounded up, never down to 0, which means none.
func (s *Source) limitValue(d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	if s.limitVar == "max_execution_time" {
		return float64(max(1, int64((d+time.Millisecond-1)/time.Millisecond)))
	}
	return float64(max(1, int64((d+time.Microsecond-1)/time.Microsecond))) / 1e6
}

// limitDuration turns a value of the server's statement limit variable
// back into a duration.
func (s *Source) limitDuration(v float64) time.Duration {
	if s.limitVar == "max_execution_time" {
		return time.Duration(v) * time.Millisecond
	}
	return time.Duration(v * float64(time.Second))
}

// kill stops the session's running statement from another connection.
// A user may always kill their own statements.
func (ss *session) kill() {
	ss.killOnce.Do(func() {
		defer close(ss.killDone)
		ss.killed.Store(true)
		ctx, cancel := context.WithTimeout(context.Background(), killTimeout)
		defer cancel()
		// An error means the statement already ended or the server is
		// gone; either way there is nothing left to stop.
		ss.s.db.ExecContext(ctx, "KILL QUERY "+strconv.FormatInt(ss.id, 10))
	})
}

// RowCount counts the rows of t exactly, in a read-only transaction. The
// statement is built here from a quoted identifier, so it skips the SQL
// guard (whose job is user SQL); the server's read-only mode still applies.
func (s *Source) RowCount(ctx context.Context, t warehouse.TableName) (int64, error) {
	var n int64
	err := s.readOnly(ctx, noLimits, func(ss *session) error {
		return ss.tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+s.QuoteTable(t)).Scan(&n)
	})
	if err != nil {
		return 0, fmt.Errorf("mysql: count rows of %s: %w", t, ctxErr(ctx, err))
	}
	return n, nil
}

// Query runs one guarded read-only statement through warehouse.Query:
// Guard first, then the server's read-only session and transaction.
func (s *Source) Query(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	return warehouse.Query(ctx, s, q, opts)
}

var _ warehouse.Engine = (*Source)(nil)

// Admit is the allow-list in front of Run (warehouse.Engine).
func (s *Source) Admit(ctx context.Context, q string) error { return s.Guard(ctx, q) }

// Limits are the defaults of a statement's bounds (warehouse.Engine). The
// server stops a statement at its timeout; the client's deadline comes a
// backstop later.
func (s *Source) Limits() warehouse.Limits {
	return warehouse.Limits{Timeout: DefaultTimeout, MaxRows: DefaultMaxRows, Grace: backstop}
}

// Run runs an admitted statement in the server's read-only session and
// transaction (warehouse.Engine).
func (s *Source) Run(ctx context.Context, q string, lim warehouse.Limits) (*warehouse.Result, error) {
	var res *warehouse.Result
	// The server stops returning rows one past the cap, so that a
	// truncated result does not make the driver drain the rest.
	sl := limits{timeout: lim.Timeout, rows: uint64(lim.MaxRows) + 1}
	err := s.readOnly(ctx, sl, func(ss *session) error {
		var err error
		res, err = ss.rows(ctx, q, lim.MaxRows)
		return err
	})
	if err != nil {
		return nil, runErr(ctx, lim.Timeout, err)
	}
	return res, nil
}

func (ss *session) rows(ctx context.Context, q string, maxRows int) (*warehouse.Result, error) {
	rows, err := ss.tx.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	// An explicit LIMIT overrides sql_select_limit, so rows past the cap
	// may still be streaming: stop them on the server.
	return warehouse.ReadRowsWith(rows, maxRows, func(decl []string) func(int, any) any {
		kinds := make([]kind, len(decl))
		for i, d := range decl {
			kinds[i] = kindOf(d)
		}
		return func(col int, v any) any { return convert(v, kinds[col]) }
	}, ss.kill)
}

// runErr names a statement the server stopped for its time as
// context.DeadlineExceeded (its "max_statement_time exceeded" does not
// match it by itself), and marks what the server's read-only mode refused
// as warehouse.ErrDatabaseRefused.
func runErr(ctx context.Context, timeout time.Duration, err error) error {
	switch {
	case ctx.Err() != nil:
		return err
	case isTimeout(err):
		return fmt.Errorf("timed out after %s: %w (%w)", timeout, context.DeadlineExceeded, err)
	case isReadOnlyRefusal(err):
		return fmt.Errorf("%w: %w", warehouse.ErrDatabaseRefused, err)
	}
	return err
}

func isTimeout(err error) bool {
	switch serverCode(err) {
	case erStatementTimeout, erQueryTimeout:
		return true
	}
	return false
}

func isReadOnlyRefusal(err error) bool {
	switch serverCode(err) {
	case erReadOnlyTx, erOptionPrevents:
		return true
	}
	return false
}

// ctxErr prefers the context's error when the context ended the statement.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%w)", ctx.Err(), err)
	}
	return err
}

// kind is how a column's values are turned into Result values.
type kind int

const (
	kindText kind = iota
	kindInt
	kindFloat
	kindDecimal
	kindBit
	kindTemporal
	kindBinary
	kindNull
)

// kindOf classifies the driver's DatabaseTypeName. The driver already
// names binary-collated text BLOB, BINARY or VARBINARY, and text-collated
// BLOB types TEXT, so the name alone decides.
func kindOf(typ string) kind {
	typ = strings.ToUpper(typ)
	switch typ {
	case "DECIMAL":
		return kindDecimal
	case "FLOAT", "DOUBLE":
		return kindFloat
	case "BIT":
		return kindBit
	case "DATE", "DATETIME", "TIMESTAMP", "TIME":
		return kindTemporal
	case "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "BINARY", "VARBINARY", "GEOMETRY", "VECTOR":
		return kindBinary
	case "NULL":
		return kindNull
	case "YEAR":
		return kindInt
	}
	if strings.HasSuffix(typ, "INT") {
		return kindInt
	}
	return kindText
}

// convert turns a driver value into the plain values Result promises:
// int64, float64, string, []byte or nil.
//
// The driver parses integers and floats of the text protocol itself and
// returns []byte for everything else. DECIMAL stays a string, because
// float64 would round it. Dates and times stay the text the server printed,
// because Go's time.Time cannot hold MySQL's zero dates.
func convert(v any, k kind) any {
	switch x := v.(type) {
	case nil:
		return nil
	case int64:
		return x
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		// Above int64 (BIGINT UNSIGNED): exact as text rather than rounded.
		return strconv.FormatUint(x, 10)
	case float32:
		// Through its shortest decimal form, so FLOAT 1.1 reads 1.1, not
		// 1.100000023841858.
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return f
	case float64:
		return x
	case string:
		return x
	case time.Time:
		return x.Format("2006-01-02 15:04:05.999999")
	case []byte:
		return convertBytes(x, k)
	default:
		return fmt.Sprint(v)
	}
}

func convertBytes(b []byte, k kind) any {
	switch k {
	case kindNull:
		return nil
	case kindBinary:
		return b
	case kindBit:
		// BIT(n) arrives as big-endian bytes, at most 8 of them.
		var u uint64
		for _, c := range b {
			u = u<<8 | uint64(c)
		}
		if u <= math.MaxInt64 {
			return int64(u)
		}
		return strconv.FormatUint(u, 10)
	case kindInt:
		if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return n
		}
	case kindFloat:
		if f, err := strconv.ParseFloat(string(b), 64); err == nil {
			return f
		}
	}
	if utf8.Valid(b) {
		return string(b)
	}
	return b
}

// Close closes the pool.
func (s *Source) Close() error { return s.db.Close() }
