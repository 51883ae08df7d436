// Package spark is the Spark SQL engine of the warehouse: one database of
// a Spark SQL server reached over the HiveServer2 protocol (Thrift
// TCLIService), which Spark Thrift Server, Apache Kyuubi and Hive speak.
//
// Why HiveServer2 and not Spark Connect: it is what a user of these systems
// has. Spark Thrift Server and Kyuubi are how BI tools, JDBC and ODBC
// clients reach Spark SQL, and Hive serves the same protocol, where Spark
// Connect reaches only a Spark 3.4+ server started with its Connect plugin.
// One protocol reaching all three wins.
//
// Spark has no read-only transaction, no read-only session setting and no
// role that cannot write on a server without authorization: whatever a
// statement is, Spark runs it. The allow-list guard (guard.go) is the only
// line between a statement and a write, and the report says so
// (Caveats). Every session pins the settings that change how a statement
// reads (ANSI mode off, so that a cast that fails is NULL as in SQLite;
// backslash escapes in strings, which the guard's lexer assumes; UTC).
package spark

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/discover-db/discover/internal/hs2"
	"github.com/discover-db/discover/warehouse"
)

const (
	// DefaultTimeout bounds a Query when QueryOptions.Timeout is 0.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxRows bounds a Query when QueryOptions.MaxRows is 0.
	DefaultMaxRows = 10000
	// openTimeout bounds Open: the handshakes and the first session, which
	// a server that just started may take over 10 s to open (its metastore
	// client, Hive's session state). A server that cannot open one in that
	// time is as good as unreachable.
	openTimeout = 30 * time.Second
	// maxConns bounds the sessions open at once: each is a session on the
	// server, and discover runs a few statements side by side.
	maxConns = 8
	// defaultPort is HiveServer2's (Spark Thrift Server's); Kyuubi's is
	// 10009.
	defaultPort = "10000"
	// defaultUser is the user a server without authentication is told,
	// as beeline does.
	defaultUser = "anonymous"
)

const (
	authNone   = hs2.AuthNone
	authNoSASL = hs2.AuthNoSASL
	authLDAP   = hs2.AuthLDAP
)

// pins are the settings every session starts with (see the package doc).
var pins = []string{
	"SET spark.sql.ansi.enabled=false",
	"SET spark.sql.parser.escapedStringLiterals=false",
	"SET spark.sql.session.timeZone=UTC",
}

var (
	_ warehouse.Source    = (*Source)(nil)
	_ warehouse.Engine    = (*Source)(nil)
	_ warehouse.Cautioner = (*Source)(nil)
)

// dialect quotes names by Spark's rules.
var dialect Dialect

// Source is one database of a Spark SQL server.
type Source struct {
	cfg  *dsnConfig
	pool *pool
}

// Open connects to the Spark SQL server dsn names and checks that it
// answers: a session opens (reachable, credentials accepted) in the
// database the DSN names, which must exist.
//
// The DSN is spark://[user[:password]@]host[:port][/database][?params]
// (plain TCP, port 10000, database default) or sparks://… (TLS; also
// ?tls=true). Parameters: auth (NONE, the default: SASL PLAIN with any
// password; LDAP: SASL PLAIN with the password the server checks; NOSASL:
// no SASL at all), tls, cleartext_password (true to send a password over
// plain TCP, which PLAIN sends as it is).
//
// A malformed DSN, an unreachable server, rejected credentials and an
// unknown database are reported as warehouse.ErrBadInput, in one line
// that never holds the password.
func Open(ctx context.Context, dsn string) (*Source, error) {
	c, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	s := &Source{cfg: c, pool: &pool{cfg: c, sem: make(chan struct{}, maxConns)}}
	cctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	cn, err := hs2.Dial(cctx, &c.Config, pins)
	if err != nil {
		return nil, c.scrub(s.openErr(ctx, cctx, err))
	}
	s.pool.put(cn)
	return s, nil
}

// openErr tells the user's mistakes (exit 2) from failures of the server.
func (s *Source) openErr(parent, cctx context.Context, err error) error {
	prefix := "spark: open " + s.cfg.Host
	if parent.Err() != nil {
		return fmt.Errorf("%s: %w", prefix, parent.Err())
	}
	var op *net.OpError
	var ae *hs2.AuthError
	var he *hs2.ServerError
	var cert *tls.CertificateVerificationError
	var rec tls.RecordHeaderError
	switch {
	case errors.As(err, &op):
		if cctx.Err() != nil || op.Timeout() {
			return badInputf("%s: no answer within %s", prefix, openTimeout)
		}
		return badInputf("%s: cannot connect: %s", prefix, warehouse.DialReason(op))
	case cctx.Err() != nil:
		return badInputf("%s: no answer within %s", prefix, openTimeout)
	case errors.As(err, &ae):
		return badInputf("%s: %s", prefix, ae.Error())
	case errors.As(err, &cert), errors.As(err, &rec):
		return badInputf("%s: TLS handshake failed: %v", prefix, err)
	case errors.As(err, &he):
		if strings.Contains(he.Msg, "SCHEMA_NOT_FOUND") || strings.Contains(strings.ToLower(he.Msg), "not found") {
			return badInputf("%s: database %q: %s", prefix, s.cfg.Database, he.Msg)
		}
		return badInputf("%s: the server refused the session: %s", prefix, he.Msg)
	}
	return badInputf("%s: not a HiveServer2 server, or it closed the connection: %s", prefix, oneLine(err.Error()))
}

func badInputf(format string, args ...any) error {
	return warehouse.BadInput(oneLine(fmt.Sprintf(format, args...)))
}

// dsnConfig is a parsed spark:// DSN.
type dsnConfig struct {
	hs2.Config // TLS nil: plain TCP
}

// dsnParams are the query parameters a DSN may carry; anything else is
// refused rather than ignored, so that a typo does not drop TLS.
var dsnParams = map[string]bool{"auth": true, "tls": true, "cleartext_password": true}

const dsnForm = "spark://[user[:password]@]host[:port][/database]"

// parseDSN reads a spark:// or sparks:// DSN. Its errors never hold the
// password: url.Parse quotes the whole DSN in its, so only the inner
// reason is kept.
func parseDSN(dsn string) (*dsnConfig, error) {
	redacted := warehouse.Redact(dsn)
	u, err := warehouse.ParseURL(dsn)
	if err != nil {
		return nil, badInputf("spark: bad DSN %s: %s", redacted, err)
	}
	secure := false
	switch strings.ToLower(u.Scheme) {
	case "spark":
	case "sparks":
		secure = true
	default:
		return nil, badInputf("spark: bad DSN %s: want %s", redacted, dsnForm)
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return nil, badInputf("spark: bad DSN %s: no host; want %s", redacted, dsnForm)
	}
	c := &dsnConfig{hs2.Config{User: defaultUser, Database: "default", Auth: authNone}}
	hasPassword := false
	if u.User != nil {
		if name := u.User.Username(); name != "" {
			c.User = name
		}
		c.Password, hasPassword = u.User.Password()
	}
	switch path := strings.Trim(u.Path, "/"); {
	case strings.Contains(path, "/"):
		return nil, badInputf("spark: bad DSN %s: too many path segments; want %s", redacted, dsnForm)
	case path != "":
		c.Database = path
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, badInputf("spark: bad DSN %s: bad parameters", redacted)
	}
	for k := range q {
		if !dsnParams[k] {
			return nil, badInputf("spark: bad DSN %s: unknown parameter %q", redacted, k)
		}
	}
	boolParam := func(key string) (bool, error) {
		v := q.Get(key)
		if v == "" {
			return false, nil
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, badInputf("spark: bad DSN %s: %s must be true or false", redacted, key)
		}
		return b, nil
	}
	tlsParam, err := boolParam("tls")
	if err != nil {
		return nil, err
	}
	cleartext, err := boolParam("cleartext_password")
	if err != nil {
		return nil, err
	}
	// tls=false cannot downgrade sparks://: the safer reading wins.
	secure = secure || tlsParam
	switch a := strings.ToUpper(q.Get("auth")); a {
	case "", authNone:
	case authNoSASL, authLDAP:
		c.Auth = a
	default:
		return nil, badInputf("spark: bad DSN %s: auth %q; want NONE, LDAP or NOSASL", redacted, q.Get("auth"))
	}
	if c.Auth == authNoSASL && hasPassword {
		return nil, badInputf("spark: bad DSN %s: auth=NOSASL sends no password", redacted)
	}
	if c.Auth == authLDAP && !hasPassword {
		return nil, badInputf("spark: bad DSN %s: auth=LDAP needs a password", redacted)
	}
	if hasPassword && !secure && !cleartext {
		// SASL PLAIN sends the password as it is.
		return nil, badInputf("spark: bad DSN %s: a password needs TLS; use sparks:// or ?tls=true (or ?cleartext_password=true to send it unencrypted)", redacted)
	}
	port := u.Port()
	if port == "" {
		port = defaultPort
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return nil, badInputf("spark: bad DSN %s: bad port %q", redacted, port)
	}
	c.Host = net.JoinHostPort(u.Hostname(), port)
	if secure {
		c.TLS = &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12}
	}
	return c, nil
}

// scrub removes the password from an error that may quote it, keeping it
// on one line. An error that held the password keeps only its
// classification, not its chain.
func (c *dsnConfig) scrub(err error) error {
	if err == nil || c.Password == "" || !strings.Contains(err.Error(), c.Password) {
		return err
	}
	msg := strings.ReplaceAll(oneLine(err.Error()), c.Password, "***")
	if errors.Is(err, warehouse.ErrBadInput) {
		return warehouse.BadInput(msg)
	}
	return errors.New(msg)
}

// pool keeps the open sessions. A connection a call broke is closed, not
// kept.
type pool struct {
	cfg  *dsnConfig
	sem  chan struct{}
	mu   sync.Mutex
	idle []*hs2.Conn
}

// get returns an idle session, or opens one, waiting while maxConns are
// in use.
func (p *pool) get(ctx context.Context) (*hs2.Conn, error) {
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		cn := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return cn, nil
	}
	p.mu.Unlock()
	cn, err := hs2.Dial(ctx, &p.cfg.Config, pins)
	if err != nil {
		<-p.sem
		return nil, p.cfg.scrub(fmt.Errorf("open a session: %w", err))
	}
	return cn, nil
}

// release hands cn back after get.
func (p *pool) release(cn *hs2.Conn) {
	p.put(cn)
	<-p.sem
}

// put keeps cn for the next statement, or closes it when broken.
func (p *pool) put(cn *hs2.Conn) {
	if cn.Broken() {
		cn.Close()
		return
	}
	p.mu.Lock()
	p.idle = append(p.idle, cn)
	p.mu.Unlock()
}

func (p *pool) closeAll() {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, cn := range idle {
		cn.Close()
	}
}

// do runs fn on a session of the pool.
func (s *Source) do(ctx context.Context, fn func(*hs2.Conn) error) error {
	cn, err := s.pool.get(ctx)
	if err != nil {
		return err
	}
	defer s.pool.release(cn)
	return fn(cn)
}

// Dialect implements warehouse.Source.
func (s *Source) Dialect() warehouse.Dialect { return dialect }

// Database is the database the DSN names.
func (s *Source) Database() string { return s.cfg.Database }

// QuoteIdent quotes an identifier with backticks, doubling embedded ones.
func (s *Source) QuoteIdent(name string) string { return dialect.QuoteIdent(name) }

// QuoteTable quotes `schema`.`table`, or `table` alone for the DSN's
// database, which is the session's.
func (s *Source) QuoteTable(t warehouse.TableName) string { return dialect.QuoteTable(t) }

// Close closes every session.
func (s *Source) Close() error {
	s.pool.closeAll()
	return nil
}

// Caveats: Spark has no read-only transaction (see the package doc).
func (s *Source) Caveats() []string {
	return []string{"Spark SQL has no read-only transaction: discover's allow-list guard was the only line between its statements " +
		"and a write (each statement was checked before it was sent; the server itself would have run a write)."}
}

// RowCount counts the rows of t exactly. The statement is built here from
// quoted identifiers, not taken from a user.
func (s *Source) RowCount(ctx context.Context, t warehouse.TableName) (int64, error) {
	var n int64
	err := s.do(ctx, func(cn *hs2.Conn) error {
		res, err := cn.Exec(ctx, "SELECT count(*) FROM "+s.QuoteTable(t), 1)
		if err != nil {
			return err
		}
		if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
			return fmt.Errorf("count(*) returned %d rows", len(res.Rows))
		}
		v, ok := res.Rows[0][0].(int64)
		if !ok {
			return fmt.Errorf("count(*) returned %T", res.Rows[0][0])
		}
		n = v
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("spark: count rows of %s: %w", t, ctxErr(ctx, err))
	}
	return n, nil
}

// Query runs one guarded read-only statement through warehouse.Query:
// Guard first, so nothing the allow-list refuses reaches the server, then
// Run. A timeout cancels the statement on the server.
func (s *Source) Query(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	return warehouse.Query(ctx, s, q, opts)
}

// Admit is the allow-list in front of Run (warehouse.Engine).
func (s *Source) Admit(ctx context.Context, q string) error { return s.Guard(ctx, q) }

// Limits are the defaults of a statement's bounds (warehouse.Engine).
func (s *Source) Limits() warehouse.Limits {
	return warehouse.Limits{Timeout: DefaultTimeout, MaxRows: DefaultMaxRows}
}

// Run runs an admitted statement (warehouse.Engine). Nothing below the
// guard stops a write: Spark has no read-only mode.
func (s *Source) Run(ctx context.Context, q string, lim warehouse.Limits) (*warehouse.Result, error) {
	q = strings.TrimRight(strings.TrimSpace(q), "; \t\r\n")
	q = bounded(q, lim.MaxRows)
	var res *hs2.Result
	err := s.do(ctx, func(cn *hs2.Conn) (err error) {
		res, err = cn.Exec(ctx, q, lim.MaxRows)
		return err
	})
	if err != nil {
		return nil, ctxErr(ctx, err)
	}
	return &warehouse.Result{Columns: res.Columns, Rows: res.Rows, Truncated: res.More}, nil
}

// Tables lists the database's tables and views with their columns, from
// the protocol's catalog operations (one GetTables, one GetColumns for the
// whole database), each view's query and each table's CREATE TABLE (one
// statement per view and per table). Spark declares no keys, indexes or
// foreign keys.
func (s *Source) Tables(ctx context.Context) ([]warehouse.Table, error) {
	db := s.cfg.Database
	var tables, cols []map[string]any
	err := s.do(ctx, func(cn *hs2.Conn) (err error) {
		if tables, err = cn.Tables(ctx, db); err != nil {
			return fmt.Errorf("list tables of %s: %w", db, err)
		}
		if cols, err = cn.Columns(ctx, db); err != nil {
			return fmt.Errorf("list columns of %s: %w", db, err)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("spark: %w", ctxErr(ctx, err))
	}
	byName := map[string]*warehouse.Table{}
	var out []*warehouse.Table
	for _, r := range tables {
		// Temporary views come with an empty schema (or global_temp's).
		if !strings.EqualFold(str(r["TABLE_SCHEM"]), db) {
			continue
		}
		name := str(r["TABLE_NAME"])
		kind := "table"
		if strings.EqualFold(str(r["TABLE_TYPE"]), "VIEW") {
			kind = "view"
		}
		t := &warehouse.Table{Name: warehouse.TableName{Name: name}, Kind: kind, Comment: str(r["REMARKS"]),
			Columns: []warehouse.Column{}, PrimaryKey: []string{}, ForeignKeys: []warehouse.ForeignKey{},
			Uniques: [][]string{}, Indexes: []warehouse.Index{}}
		byName[strings.ToLower(name)] = t
		out = append(out, t)
	}
	type col struct {
		pos int64
		c   warehouse.Column
	}
	tcols := map[*warehouse.Table][]col{}
	for _, r := range cols {
		if !strings.EqualFold(str(r["TABLE_SCHEM"]), db) {
			continue
		}
		t := byName[strings.ToLower(str(r["TABLE_NAME"]))]
		if t == nil {
			continue
		}
		nullable := true
		if n, ok := r["NULLABLE"].(int64); ok && n == 0 {
			nullable = false
		}
		pos, _ := r["ORDINAL_POSITION"].(int64)
		tcols[t] = append(tcols[t], col{pos, warehouse.Column{Name: str(r["COLUMN_NAME"]),
			Type: strings.ToUpper(str(r["TYPE_NAME"])), Nullable: nullable, Comment: str(r["REMARKS"])}})
	}
	for t, cs := range tcols {
		// Spark numbers columns from 0, Hive from 1: the order is kept, the
		// positions renumbered.
		slices.SortStableFunc(cs, func(a, b col) int { return int(a.pos - b.pos) })
		for i, c := range cs {
			c.c.Position = i + 1
			t.Columns = append(t.Columns, c.c)
		}
	}
	known := map[string]bool{}
	for name := range byName {
		known[name] = true
	}
	for _, t := range out {
		if t.Kind == "view" {
			if err := s.viewDefinition(ctx, t, known); err != nil {
				return nil, err
			}
		}
	}
	if err := s.createStatements(ctx, out); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b *warehouse.Table) int { return strings.Compare(a.Name.Name, b.Name.Name) })
	res := make([]warehouse.Table, len(out))
	for i, t := range out {
		res[i] = *t
	}
	return res, nil
}

// bounded wraps a query in a LIMIT of one row past maxRows. Spark Thrift
// Server collects a statement's whole result in the driver before the
// first row is fetched, so that a query of a large table, or of an
// endless range, fills the server's heap however few rows discover reads:
// under a LIMIT, Spark computes only the partitions the rows come from
// (and an ORDER BY keeps only the top rows). The newlines keep a final
// -- comment from swallowing the parenthesis.
func bounded(q string, maxRows int) string {
	toks, err := Grammar.Tokenize(q)
	if err != nil || len(toks) == 0 || maxRows <= 0 {
		return q
	}
	switch strings.ToUpper(toks[0].Text) {
	case "SELECT", "WITH", "VALUES", "(":
		return "SELECT * FROM (\n" + q + "\n) discover_bounded LIMIT " + strconv.Itoa(maxRows+1)
	}
	return q
}

// viewDefinition reads a view's query from DESCRIBE TABLE EXTENDED (its
// "View Text" row) and what it reads. A view the server cannot describe
// (its tables gone) keeps no definition; the discovery goes on.
func (s *Source) viewDefinition(ctx context.Context, t *warehouse.Table, known map[string]bool) error {
	var res *hs2.Result
	err := s.do(ctx, func(cn *hs2.Conn) (err error) {
		res, err = cn.Exec(ctx, "DESCRIBE TABLE EXTENDED "+s.QuoteTable(t.Name), 10000)
		return err
	})
	var he *hs2.ServerError
	switch {
	case err == nil:
	case ctx.Err() == nil && errors.As(err, &he):
		return nil
	default:
		return fmt.Errorf("spark: describe view %s: %w", t.Name, ctxErr(ctx, err))
	}
	for _, r := range res.Rows {
		if len(r) >= 2 && str(r[0]) == "View Text" {
			t.Definition = strings.TrimSpace(str(r[1]))
		}
	}
	if t.Definition == "" {
		return nil
	}
	refs, err := warehouse.FromNames(Grammar, t.Definition)
	if err != nil {
		return nil
	}
	for _, ref := range refs {
		name := strings.ToLower(ref[len(ref)-1])
		switch {
		case len(ref) == 1 && known[name]:
			t.Reads = append(t.Reads, warehouse.TableName{Name: name})
		case len(ref) == 2 && strings.EqualFold(ref[0], s.cfg.Database) && known[name]:
			t.Reads = append(t.Reads, warehouse.TableName{Name: name})
		}
	}
	slices.SortFunc(t.Reads, func(a, b warehouse.TableName) int { return strings.Compare(a.Name, b.Name) })
	t.Reads = slices.Compact(t.Reads)
	return nil
}

// createWorkers is how many SHOW CREATE TABLE statements run at once: each
// is a round trip to the server's catalog (no data is read), so 1,000
// tables cost 1,000 statements, spread over four sessions of the pool.
const createWorkers = 4

// showCreateSQL is the statement createStatements sends per table; the
// guard admits exactly this form (TestGuardShowCreate).
func (s *Source) showCreateSQL(t warehouse.TableName) string {
	return "SHOW CREATE TABLE " + s.QuoteTable(t)
}

// createStatements fills in each table's CREATE TABLE as SHOW CREATE TABLE
// writes it: the protocol's catalog calls and DESCRIBE have no such text.
// Views keep their query (viewDefinition). A table the server will not
// show (a Hive SerDe table it cannot render, a table dropped since the
// listing: the server's error) keeps none.
func (s *Source) createStatements(ctx context.Context, tables []*warehouse.Table) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(createWorkers)
	for _, t := range tables {
		if t.Kind != "table" {
			continue
		}
		g.Go(func() error {
			var res *hs2.Result
			err := s.do(gctx, func(cn *hs2.Conn) (err error) {
				res, err = cn.Exec(gctx, s.showCreateSQL(t.Name), 1)
				return err
			})
			var he *hs2.ServerError
			switch {
			case err == nil:
			case gctx.Err() == nil && errors.As(err, &he):
				return nil
			default:
				return fmt.Errorf("spark: the CREATE TABLE of %s: %w", t.Name, ctxErr(gctx, err))
			}
			if len(res.Rows) > 0 && len(res.Rows[0]) > 0 {
				// Spark ends the statement with a line break.
				t.CreateStatement = strings.TrimRight(str(res.Rows[0][0]), "\n ")
			}
			return nil
		})
	}
	return g.Wait()
}

func str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// ctxErr prefers the context's error when the context ended the call.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
