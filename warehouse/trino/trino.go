// Package trino is the Trino engine of the warehouse: one catalog of a Trino
// cluster, reached over Trino's HTTP protocol through
// github.com/trinodb/trino-go-client.
//
// Trino has no read-only switch that holds for every connector: no session
// property and no request header marks a query as read-only. What it does
// have is a read-only transaction: START TRANSACTION READ ONLY makes the
// coordinator's transaction manager refuse every connector write and every
// DDL (READ_ONLY_VIOLATION), whatever the connector. So every statement this
// engine sends runs inside such a transaction, and the SQL guard (Guard,
// guard.go: the project's lexical rules plus an allow-list of functions,
// no table functions, nothing of the system catalog) runs in front of all
// of it for user-supplied SQL. The
// DSN parameter read_only_transaction=false turns the transactions off for a
// connector that refuses explicit transactions, leaving the guard alone.
//
// Every statement also carries the session property query_max_run_time,
// taken from its deadline, so the cluster ends a query whose client vanished
// before it could send the cancel.
package trino

import (
	"context"
	"crypto/tls"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	trinodrv "github.com/trinodb/trino-go-client/trino"

	"github.com/discover-db/discover/warehouse"
)

const (
	// DefaultTimeout bounds a Query when QueryOptions.Timeout is 0.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxRows bounds a Query when QueryOptions.MaxRows is 0.
	DefaultMaxRows = 10000
	// connectTimeout bounds the TCP and TLS handshakes, and Open's first
	// statement: a coordinator that cannot answer SELECT 1 in that time is
	// as good as unreachable.
	connectTimeout = 10 * time.Second
	// defaultSource names discover in the cluster's query list and logs.
	defaultSource = "discover"
)

var _ warehouse.Source = (*Source)(nil)
var _ warehouse.SkipReporter = (*Source)(nil)
var _ warehouse.RowEstimator = (*Source)(nil)

// dialect quotes names by Trino's rules (a Schema of "catalog.schema" is
// quoted part by part).
var dialect Dialect

// Source is one catalog (optionally one schema) of a Trino cluster.
type Source struct {
	db        *sql.DB
	transport *http.Transport
	addr      string // host:port, for messages
	catalog   string
	schema    string // "" when the DSN names the catalog only
	readOnly  bool   // run each statement in a READ ONLY transaction

	mu         sync.Mutex
	skipped    []warehouse.Skipped // from the last Tables; nil until it ran
	connectors map[string]string   // catalog → connector name (connector)
}

// badInputf keeps the cluster's multi-line messages to the one line the
// command line prints.
func badInputf(format string, args ...any) error {
	return warehouse.BadInput(oneLine(fmt.Sprintf(format, args...)))
}

// Open connects to the Trino catalog dsn names and checks that it answers:
// SELECT 1 (reachable, credentials accepted), then the catalog (and schema)
// exist and the user may see them.
//
// The DSN is trino://user[:password]@host[:port]/catalog[/schema][?params]
// (plain HTTP, port 8080 by default) or trinos://… (HTTPS, port 443; also
// ?secure=true). Parameters: secure, source, SSLVerification (FULL, CA,
// NONE), SSLCertPath, accessToken, clientTags, read_only_transaction.
//
// A malformed DSN, an unreachable coordinator, rejected credentials and an
// unknown catalog or schema are reported as warehouse.ErrBadInput, in one
// line that never holds the password.
func Open(ctx context.Context, dsn string) (*Source, error) {
	c, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	conf, transport, err := c.clientConfig()
	if err != nil {
		return nil, err
	}
	s := &Source{transport: transport, addr: c.host, catalog: c.catalog, schema: c.schema, readOnly: c.readOnlyTx}

	// The client retries a refused connection for two minutes by default,
	// which suits a cluster that restarts mid-run but turns a mistyped port
	// into a long wait; the checks get a short budget of their own.
	check := *conf
	check.RequestRetryTimeout = new(connectTimeout)
	check.RequestRetryMaxAttempts = new(3)
	checkDB, err := openDB(&check)
	if err != nil {
		transport.CloseIdleConnections()
		return nil, c.scrub(fmt.Errorf("trino: open %s: %w", c.host, err))
	}
	err = s.check(ctx, checkDB)
	checkDB.Close()
	if err != nil {
		transport.CloseIdleConnections()
		return nil, c.scrub(err)
	}
	if s.db, err = openDB(conf); err != nil {
		transport.CloseIdleConnections()
		return nil, c.scrub(fmt.Errorf("trino: open %s: %w", c.host, err))
	}
	return s, nil
}

func openDB(conf *trinodrv.Config) (*sql.DB, error) {
	conn, err := trinodrv.NewConnector(conf)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(conn), nil
}

// check runs Open's two statements. Each has a session of its own because a
// transaction lives as long as the context it began with, and only the
// first is held to connectTimeout: reading a Hive catalog's schemas may
// take the metastore longer.
func (s *Source) check(ctx context.Context, db *sql.DB) error {
	pctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	ping := newSession(db, s.readOnly)
	var one int64
	err := ping.scalar(pctx, "SELECT 1", &one)
	ping.close()
	if err != nil {
		return s.openErr(ctx, pctx, err)
	}
	// SELECT 1 touches no catalog, and Trino does not check the session's
	// catalog until a statement uses it.
	q := "SELECT count(*) FROM " + dialect.QuoteIdent(s.catalog) + ".information_schema.schemata"
	if s.schema != "" {
		q += " WHERE schema_name = " + quoteString(s.schema)
	}
	ss := newSession(db, s.readOnly)
	defer ss.close()
	var n int64
	if err := ss.scalar(ctx, q, &n); err != nil {
		return s.openErr(ctx, ctx, err)
	}
	if s.schema != "" && n == 0 {
		// A connector may answer for schemas it does not list: tpch lists
		// sf1, sf100, … but generates any sfN (sf10, the issue 23 scale
		// run) and lists its tables.
		q := "SELECT count(*) FROM " + dialect.QuoteIdent(s.catalog) + ".information_schema.tables WHERE table_schema = " + quoteString(s.schema)
		if err := ss.scalar(ctx, q, &n); err != nil {
			return s.openErr(ctx, ctx, err)
		}
	}
	if s.schema != "" && n == 0 {
		return badInputf("trino: open %s: schema %q not found in catalog %q", s.addr, s.schema, s.catalog)
	}
	return nil
}

// openErr tells the user's mistakes (exit 2) from failures of the cluster.
func (s *Source) openErr(parent, pctx context.Context, err error) error {
	prefix := "trino: open " + s.addr
	if parent.Err() != nil {
		return fmt.Errorf("%s: %w", prefix, parent.Err())
	}
	if pctx.Err() != nil {
		return badInputf("%s: no answer within %s", prefix, connectTimeout)
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return badInputf("%s: cannot connect: %s", prefix, warehouse.DialReason(op))
	}
	var cert *tls.CertificateVerificationError
	var rec tls.RecordHeaderError
	if errors.As(err, &cert) || errors.As(err, &rec) {
		return badInputf("%s: TLS handshake failed: %v", prefix, err)
	}
	var qf *trinodrv.ErrQueryFailed
	if errors.As(err, &qf) {
		switch {
		case qf.StatusCode == http.StatusUnauthorized || qf.StatusCode == http.StatusForbidden:
			return badInputf("%s: authentication failed (%d %s)", prefix, qf.StatusCode, http.StatusText(qf.StatusCode))
		case qf.StatusCode == http.StatusNotFound:
			return badInputf("%s: not a Trino coordinator (404 Not Found on /v1/statement)", prefix)
		}
	}
	var te *trinodrv.ErrTrino
	if errors.As(err, &te) {
		switch te.ErrorName {
		case "CATALOG_NOT_FOUND", "SCHEMA_NOT_FOUND", "PERMISSION_DENIED":
			return badInputf("%s: catalog %q: %s", prefix, s.catalog, te.Message)
		}
	}
	// A gateway that spreads queries over several clusters sends the
	// statements of one transaction to coordinators that never started it.
	var txe *txError
	if errors.As(err, &txe) || te != nil && te.ErrorName == "UNKNOWN_TRANSACTION" {
		return badInputf("%s: the read-only transaction failed (%v); behind a gateway that spreads queries over clusters, add ?read_only_transaction=false", prefix, describe(err))
	}
	return fmt.Errorf("%s: %w", prefix, describe(err))
}

// dsnConfig is a parsed trino:// DSN.
type dsnConfig struct {
	user, password  string
	hasPassword     bool
	host            string // host:port
	secure          bool
	catalog, schema string
	source          string
	sslVerification string
	sslCertPath     string
	accessToken     string
	clientTags      string
	readOnlyTx      bool
}

// dsnParams are the query parameters a DSN may carry; anything else is
// refused rather than ignored, so a typo does not silently drop TLS checks.
var dsnParams = map[string]bool{
	"secure": true, "source": true, "SSLVerification": true, "SSLCertPath": true,
	"accessToken": true, "clientTags": true, "read_only_transaction": true,
}

const dsnForm = "trino://user[:password]@host[:port]/catalog[/schema]"

// parseDSN reads a trino:// or trinos:// DSN. Its errors never hold the
// password: url.Parse quotes the whole DSN in its, so only the inner reason
// is kept.
func parseDSN(dsn string) (*dsnConfig, error) {
	redacted := warehouse.Redact(dsn)
	u, err := warehouse.ParseURL(dsn)
	if err != nil {
		return nil, badInputf("trino: bad DSN %s: %s", redacted, err)
	}
	c := &dsnConfig{readOnlyTx: true, source: defaultSource}
	switch strings.ToLower(u.Scheme) {
	case "trino":
	case "trinos":
		c.secure = true
	default:
		return nil, badInputf("trino: bad DSN %s: want %s", redacted, dsnForm)
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return nil, badInputf("trino: bad DSN %s: no host; want %s", redacted, dsnForm)
	}
	if u.User == nil || u.User.Username() == "" {
		return nil, badInputf("trino: bad DSN %s: no user (Trino needs one even without authentication); want %s", redacted, dsnForm)
	}
	c.user = u.User.Username()
	c.password, c.hasPassword = u.User.Password()

	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	switch {
	case len(parts) > 2:
		return nil, badInputf("trino: bad DSN %s: too many path segments; want %s", redacted, dsnForm)
	case parts[0] == "":
		return nil, badInputf("trino: bad DSN %s: no catalog; want %s", redacted, dsnForm)
	}
	c.catalog = parts[0]
	if len(parts) == 2 {
		if parts[1] == "" {
			return nil, badInputf("trino: bad DSN %s: empty schema; want %s", redacted, dsnForm)
		}
		c.schema = parts[1]
	}

	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, badInputf("trino: bad DSN %s: bad parameters", redacted)
	}
	for k := range q {
		if !dsnParams[k] {
			return nil, badInputf("trino: bad DSN %s: unknown parameter %q", redacted, k)
		}
	}
	boolParam := func(key string, def bool) (bool, error) {
		v := q.Get(key)
		if v == "" {
			return def, nil
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, badInputf("trino: bad DSN %s: %s must be true or false", redacted, key)
		}
		return b, nil
	}
	secure, err := boolParam("secure", false)
	if err != nil {
		return nil, err
	}
	// secure=false cannot downgrade trinos://: the safer reading wins.
	c.secure = c.secure || secure
	if c.readOnlyTx, err = boolParam("read_only_transaction", true); err != nil {
		return nil, err
	}
	if v := q.Get("source"); v != "" {
		c.source = v
	}
	c.sslVerification = q.Get("SSLVerification")
	c.sslCertPath = q.Get("SSLCertPath")
	c.accessToken = q.Get("accessToken")
	c.clientTags = q.Get("clientTags")

	port := u.Port()
	if port == "" {
		port = "8080"
		if c.secure {
			port = "443"
		}
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return nil, badInputf("trino: bad DSN %s: bad port %q", redacted, port)
	}
	c.host = net.JoinHostPort(u.Hostname(), port)

	if c.hasPassword && !c.secure {
		// The client refuses it too: Basic credentials in clear text.
		return nil, badInputf("trino: bad DSN %s: a password needs HTTPS; use trinos:// or ?secure=true", redacted)
	}
	if !c.secure && (c.sslVerification != "" || c.sslCertPath != "") {
		return nil, badInputf("trino: bad DSN %s: SSLVerification and SSLCertPath need HTTPS; use trinos:// or ?secure=true", redacted)
	}
	return c, nil
}

// clientDSN is the trino-go-client DSN for c: the server URL with the user
// (and password), catalog and schema as parameters, discover as the source,
// and UTC as the session time zone so that timestamps with a time zone and
// date functions give the same report wherever discover runs.
func (c *dsnConfig) clientDSN() string {
	u := url.URL{Scheme: "http", Host: c.host, User: url.User(c.user)}
	if c.secure {
		u.Scheme = "https"
	}
	if c.hasPassword {
		u.User = url.UserPassword(c.user, c.password)
	}
	q := url.Values{}
	q.Set("catalog", c.catalog)
	if c.schema != "" {
		q.Set("schema", c.schema)
	}
	q.Set("source", c.source)
	q.Set("timezone", "UTC")
	for k, v := range map[string]string{
		"SSLVerification": c.sslVerification, "SSLCertPath": c.sslCertPath,
		"accessToken": c.accessToken, "clientTags": c.clientTags,
	} {
		if v != "" {
			q.Set(k, v)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// clientConfig turns c into the client's Config, with an HTTP client of our
// own so that connecting is bounded (the client's default has no dial
// timeout). The client refuses its own TLS fields next to an HTTP client, so
// they are turned into the transport's TLS config and cleared.
func (c *dsnConfig) clientConfig() (*trinodrv.Config, *http.Transport, error) {
	conf, err := trinodrv.ParseDSN(c.clientDSN())
	if err != nil {
		return nil, nil, c.scrub(badInputf("trino: bad DSN: %v", err))
	}
	tlsConf, err := conf.TLSConfig()
	if err != nil {
		return nil, nil, c.scrub(badInputf("trino: bad DSN: %v", err))
	}
	conf.SSLCert, conf.SSLCertPath, conf.SSLVerification = "", "", ""
	conf.SSLClientCert, conf.SSLClientCertPath, conf.SSLClientKey, conf.SSLClientKeyPath = "", "", "", ""

	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.DialContext = (&net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}).DialContext
	transport.TLSHandshakeTimeout = connectTimeout
	transport.TLSClientConfig = tlsConf
	conf.HTTPClient = &http.Client{Transport: transport, CheckRedirect: sameOrigin}
	return conf, transport, nil
}

// sameOrigin refuses an HTTP redirect to another scheme, host or port: Go
// forwards Basic credentials to another port of the same host, and the
// client's X-Trino headers everywhere.
func sameOrigin(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("trino: stopped after 10 redirects")
	}
	if from := via[0].URL; req.URL.Scheme != from.Scheme || req.URL.Host != from.Host {
		return fmt.Errorf("trino: refused a redirect from %s://%s to %s://%s: credentials go only to the DSN's server",
			from.Scheme, from.Host, req.URL.Scheme, req.URL.Host)
	}
	return nil
}

// scrub removes the password from an error that may quote it (the client's
// own messages), keeping it on one line. An error that held the password
// keeps only its classification (bad input, cancelled, timed out), not its
// chain, whose messages would hold the password too.
func (c *dsnConfig) scrub(err error) error {
	if err == nil {
		return nil
	}
	msg := oneLine(err.Error())
	if c.password == "" || !strings.Contains(msg, c.password) {
		if msg == err.Error() {
			return err
		}
		return &scrubbed{msg: msg, err: err}
	}
	out := &scrubbed{msg: strings.ReplaceAll(msg, c.password, "***")}
	for _, sentinel := range []error{warehouse.ErrBadInput, context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, sentinel) {
			out.err = sentinel
			break
		}
	}
	return out
}

type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// Dialect implements warehouse.Source.
func (s *Source) Dialect() warehouse.Dialect { return dialect }

// Database is the catalog, or catalog.schema when the DSN names a schema.
func (s *Source) Database() string {
	if s.schema == "" {
		return s.catalog
	}
	return s.catalog + "." + s.schema
}

// QuoteIdent quotes an identifier with double quotes, doubling embedded ones.
func (s *Source) QuoteIdent(name string) string { return dialect.QuoteIdent(name) }

// QuoteTable quotes "schema"."table", or "table" alone for the DSN's schema,
// which is the session's. A Schema of "catalog.schema" reaches another
// catalog.
func (s *Source) QuoteTable(t warehouse.TableName) string { return dialect.QuoteTable(t) }

// quoteString renders a SQL string literal.
func quoteString(v string) string { return warehouse.Literal(v) }

// Close closes the pool and its idle HTTP connections.
func (s *Source) Close() error {
	err := s.db.Close()
	s.transport.CloseIdleConnections()
	return err
}
