// Package hs2 is a HiveServer2 client: the Thrift TCLIService that Spark
// Thrift Server, Apache Kyuubi and Hive serve. It runs what it is given:
// warehouse/spark puts its guard in front of it, and internal/load uses it
// to fill a test server. The Thrift structs and client are
// gohive's generated package (github.com/beltran/gohive/hiveserver); the
// rest of gohive is not used: its SASL layer imports a GSSAPI binding
// that needs the Kerberos headers to build, and its cursor polls on a
// fixed interval, runs the poll without the caller's context and leaves a
// cancelled statement running. This package speaks the protocol itself:
// SASL PLAIN (or none, NOSASL) on a plain or TLS socket, one session per
// connection, statements run asynchronously and polled, cancelled on the
// server when the caller's context ends, results read column by column.

package hs2

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/beltran/gohive/hiveserver"
)

// Config says where and how to connect.
type Config struct {
	Host           string // host:port
	User, Password string
	Database       string // the session's current database
	Auth           string // AuthNone (SASL PLAIN), AuthNoSASL, AuthLDAP (SASL PLAIN)
	TLS            *tls.Config
}

// Authentication modes, as HiveServer2's hive.server2.authentication names
// them.
const (
	AuthNone   = "NONE"   // SASL PLAIN, any password
	AuthNoSASL = "NOSASL" // raw Thrift
	AuthLDAP   = "LDAP"   // SASL PLAIN, a password the server checks
)

// ConnectTimeout bounds the handshakes and the opening of a session.
const ConnectTimeout = 10 * time.Second

// SASL negotiation status bytes (Hive's TSaslTransport).
const (
	saslStart    = 1
	saslOK       = 2
	saslBad      = 3
	saslError    = 4
	saslComplete = 5
)

const (
	// fetchRows is how many rows one FetchResults asks for.
	fetchRows = 10000
	// rpcGrace is how long past the caller's deadline one call may take
	// before the socket gives up on it: the deadline is enforced by
	// polling and cancelling, the socket's only against a dead server.
	rpcGrace = 15 * time.Second
	// cleanupTimeout bounds the cancel and close sent after the caller's
	// context ended.
	cleanupTimeout = 5 * time.Second
	// maxPoll is the longest pause between two status polls.
	maxPoll = 100 * time.Millisecond
	// maxFrame bounds one Thrift frame the server sends (a result batch).
	maxFrame = 256 << 20
)

// closeGrace is how long after cancelling a statement its operation
// is closed. Spark's adaptive execution submits a stage's job from a
// thread of its own, which a cancel does not stop: a job submitted
// just after the cancel is not cancelled with it, and runs to its end
// (an escaped stage of the conformance suite's slow statement ran for
// 7 minutes). Closing the operation cancels its job group once more,
// and so a job submitted within the grace.
const closeGrace = time.Second

// ServerError is an error status the server returned: its message and
// SQLSTATE, the statement's failure in the server's own words.
type ServerError struct {
	Msg      string
	SQLState string
	Code     int32
}

func (e *ServerError) Error() string { return e.Msg }

// statusErr turns a non-success TStatus into an ServerError.
func statusErr(what string, st *hiveserver.TStatus) error {
	if st == nil {
		return fmt.Errorf("%s: the server sent no status", what)
	}
	switch st.GetStatusCode() {
	case hiveserver.TStatusCode_SUCCESS_STATUS, hiveserver.TStatusCode_SUCCESS_WITH_INFO_STATUS,
		hiveserver.TStatusCode_STILL_EXECUTING_STATUS:
		return nil
	}
	msg := strings.TrimSpace(st.GetErrorMessage())
	if msg == "" {
		msg = what + " failed: " + st.GetStatusCode().String()
	}
	return &ServerError{Msg: serverMessage(msg), SQLState: st.GetSqlState(), Code: st.GetErrorCode()}
}

// javaClass is an exception's class before its message
// (org.apache.hive.service.cli.HiveSQLException: …).
var javaClass = regexp.MustCompile(`(?:[a-z][a-z0-9_]*\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error): `)

// serverMessage is the part of a server's error a person reads: Spark
// Thrift Server sends the whole Java stack trace, each exception's class
// before its message.
func serverMessage(msg string) string {
	var keep []string
	for _, line := range strings.Split(msg, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "at ") || strings.HasPrefix(l, "Caused by:") || strings.HasPrefix(l, "... ") {
			break
		}
		keep = append(keep, line)
	}
	out := javaClass.ReplaceAllString(oneLine(strings.Join(keep, "\n")), "")
	out = strings.TrimPrefix(out, "Error running query: ")
	if out == "" {
		return oneLine(msg)
	}
	return out
}

// Conn is one TCP connection with one HiveServer2 session.
type Conn struct {
	nc      net.Conn
	trans   thrift.TTransport
	client  *hiveserver.TCLIServiceClient
	session *hiveserver.TSessionHandle
	// broken: a call failed below the protocol (the socket, a frame), so
	// the connection cannot be trusted with another statement.
	broken bool
}

// Dial connects to the server of c, authenticates and opens a session
// whose current database is c.Database, with the settings of pins.
func Dial(ctx context.Context, c *Config, pins []string) (*Conn, error) {
	d := net.Dialer{Timeout: ConnectTimeout, KeepAlive: 30 * time.Second}
	nc, err := d.DialContext(ctx, "tcp", c.Host)
	if err != nil {
		return nil, err
	}
	// The handshakes are bounded by ConnectTimeout, the session's opening
	// by ctx.
	_ = nc.SetDeadline(time.Now().Add(ConnectTimeout))
	if c.TLS != nil {
		tc := tls.Client(nc, c.TLS)
		if err := tc.HandshakeContext(ctx); err != nil {
			nc.Close()
			return nil, err
		}
		nc = tc
	}
	cn := &Conn{nc: nc}
	// A stream transport, not a TSocket: TSocket sets the connection's
	// deadlines from its own timeout before every read, undoing call's.
	sock := thrift.NewStreamTransportRW(nc)
	cfg := &thrift.TConfiguration{MaxFrameSize: maxFrame, MaxMessageSize: maxFrame}
	switch c.Auth {
	case AuthNoSASL:
		cn.trans = sock
	default:
		if err := saslPlain(nc, c.User, c.Password); err != nil {
			nc.Close()
			return nil, err
		}
		// After PLAIN, which negotiates no protection, SASL frames are
		// Thrift's frames: a 4-byte length and the bytes.
		cn.trans = thrift.NewTFramedTransportConf(sock, cfg)
	}
	cn.client = hiveserver.NewTCLIServiceClientFactory(cn.trans, thrift.NewTBinaryProtocolFactoryConf(cfg))

	req := hiveserver.NewTOpenSessionReq()
	req.ClientProtocol = hiveserver.TProtocolVersion_HIVE_CLI_SERVICE_PROTOCOL_V8
	req.Username = &c.User
	pw := c.Password
	if pw == "" {
		pw = "x" // PLAIN needs one; servers without authentication ignore it
	}
	req.Password = &pw
	req.Configuration = map[string]string{
		"use:database": c.Database,
		// A status call on a running statement waits on the server until
		// it ends or this long passes (5 s by default), and nothing on the
		// client can cut that call short: the caller's deadline would be
		// kept to the nearest few seconds. Set per session, so that a poll
		// returns within maxPoll.
		"set:hiveconf:hive.server2.long.polling.timeout": maxPoll.String(),
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = nc.SetDeadline(dl)
	}
	resp, err := cn.client.OpenSession(ctx, req)
	if err == nil {
		err = statusErr("open session", resp.GetStatus())
	}
	if err != nil {
		nc.Close()
		return nil, err
	}
	cn.session = resp.SessionHandle
	_ = nc.SetDeadline(time.Time{})
	for _, p := range pins {
		if _, err := cn.Exec(ctx, p, 0); err != nil {
			cn.Close()
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	return cn, nil
}

// saslPlain runs the SASL PLAIN negotiation of Hive's Thrift transport:
// START with the mechanism, OK with the credentials, then COMPLETE (or BAD,
// ERROR with the reason) from the server.
func saslPlain(nc net.Conn, user, password string) error {
	if password == "" {
		password = "x"
	}
	send := func(status byte, body []byte) error {
		msg := make([]byte, 5+len(body))
		msg[0] = status
		binary.BigEndian.PutUint32(msg[1:5], uint32(len(body)))
		copy(msg[5:], body)
		_, err := nc.Write(msg)
		return err
	}
	if err := send(saslStart, []byte("PLAIN")); err != nil {
		return err
	}
	if err := send(saslOK, []byte("\x00"+user+"\x00"+password)); err != nil {
		return err
	}
	var head [5]byte
	if _, err := io.ReadFull(nc, head[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errors.New("the server closed the connection during SASL authentication (it may expect auth=NOSASL, or TLS)")
		}
		return err
	}
	n := binary.BigEndian.Uint32(head[1:])
	if n > 1<<16 {
		return fmt.Errorf("SASL negotiation: the server sent %d bytes (not a HiveServer2 server?)", n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(nc, body); err != nil {
		return err
	}
	switch head[0] {
	case saslComplete:
		return nil
	case saslBad, saslError:
		return &AuthError{Msg: strings.TrimSpace(string(body))}
	}
	return fmt.Errorf("SASL negotiation: unexpected status %d (not a HiveServer2 server?)", head[0])
}

// AuthError is the server's refusal of the credentials.
type AuthError struct{ Msg string }

func (e *AuthError) Error() string {
	if e.Msg == "" {
		return "authentication failed"
	}
	return "authentication failed: " + oneLine(e.Msg)
}

// call runs one RPC with the socket's deadline after ctx's, marking the
// connection broken when the RPC fails below the protocol.
func (cn *Conn) call(ctx context.Context, fn func(context.Context) error) error {
	if dl, ok := ctx.Deadline(); ok {
		_ = cn.nc.SetDeadline(dl.Add(rpcGrace))
	} else {
		_ = cn.nc.SetDeadline(time.Time{})
	}
	err := fn(ctx)
	if err != nil {
		cn.broken = true
	}
	return err
}

// Result is what a statement returned.
type Result struct {
	Columns []string
	Types   []string // the protocol's type names (INT, STRING, DECIMAL, …)
	Rows    [][]any
	More    bool // rows were left unread past maxRows
}

// Exec runs q and reads at most maxRows rows of its result (and one more
// to tell whether there were more; maxRows ≤ 0 reads none). The statement
// runs asynchronously, its status polled, so that the end of ctx cancels
// it on the server. Its query timeout is ctx's deadline, so that the
// server stops a statement whose client vanished.
func (cn *Conn) Exec(ctx context.Context, q string, maxRows int) (*Result, error) {
	req := hiveserver.NewTExecuteStatementReq()
	req.SessionHandle = cn.session
	req.Statement = q
	req.RunAsync = true
	if dl, ok := ctx.Deadline(); ok {
		req.QueryTimeout = int64(math.Ceil(time.Until(dl).Seconds())) + 1
	}
	var resp *hiveserver.TExecuteStatementResp
	err := cn.call(ctx, func(ctx context.Context) (err error) {
		resp, err = cn.client.ExecuteStatement(ctx, req)
		return err
	})
	if err != nil {
		return nil, ctxErr(ctx, err)
	}
	if err := statusErr("execute", resp.GetStatus()); err != nil {
		return nil, err
	}
	return cn.finish(ctx, resp.OperationHandle, maxRows)
}

// finish waits for the operation op, reads its result and closes it.
func (cn *Conn) finish(ctx context.Context, op *hiveserver.TOperationHandle, maxRows int) (*Result, error) {
	if op == nil {
		return nil, errors.New("the server returned no operation")
	}
	done := false
	defer func() {
		if !done {
			cn.cancel(op)
			if ctx.Err() != nil && !cn.broken {
				time.Sleep(closeGrace)
			}
		}
		cn.closeOp(op)
	}()
	if err := cn.wait(ctx, op); err != nil {
		return nil, err
	}
	done = true
	res := &Result{Columns: []string{}, Rows: [][]any{}}
	if !op.HasResultSet {
		return res, nil
	}
	if err := cn.metadata(ctx, op, res); err != nil {
		return nil, err
	}
	if maxRows <= 0 {
		return res, nil
	}
	if err := cn.fetch(ctx, op, res, maxRows); err != nil {
		done = false
		return nil, err
	}
	return res, nil
}

// wait polls op's status until it ends, sooner at first: most of
// discover's statements take milliseconds.
func (cn *Conn) wait(ctx context.Context, op *hiveserver.TOperationHandle) error {
	pause := time.Millisecond
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for {
		req := hiveserver.NewTGetOperationStatusReq()
		req.OperationHandle = op
		var st *hiveserver.TGetOperationStatusResp
		err := cn.call(ctx, func(ctx context.Context) (err error) {
			st, err = cn.client.GetOperationStatus(ctx, req)
			return err
		})
		if err != nil {
			return ctxErr(ctx, err)
		}
		if err := statusErr("status", st.GetStatus()); err != nil {
			return err
		}
		switch st.GetOperationState() {
		case hiveserver.TOperationState_FINISHED_STATE:
			return nil
		case hiveserver.TOperationState_ERROR_STATE:
			msg := strings.TrimSpace(st.GetErrorMessage())
			if msg == "" {
				msg = "the statement failed"
			}
			return &ServerError{Msg: serverMessage(msg), SQLState: st.GetSqlState(), Code: st.GetErrorCode()}
		case hiveserver.TOperationState_TIMEDOUT_STATE:
			return fmt.Errorf("the server stopped the statement at its query timeout: %w", context.DeadlineExceeded)
		case hiveserver.TOperationState_CANCELED_STATE, hiveserver.TOperationState_CLOSED_STATE:
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return errors.New("the server cancelled the statement")
		}
		timer.Reset(pause)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		pause = min(2*pause, maxPoll)
	}
}

// cancel asks the server to stop op, on a context of its own: the
// caller's has ended.
func (cn *Conn) cancel(op *hiveserver.TOperationHandle) {
	if cn.broken {
		return
	}
	ctx, stop := context.WithTimeout(context.Background(), cleanupTimeout)
	defer stop()
	req := hiveserver.NewTCancelOperationReq()
	req.OperationHandle = op
	_ = cn.call(ctx, func(ctx context.Context) error {
		_, err := cn.client.CancelOperation(ctx, req)
		return err
	})
}

// closeOp frees op's resources on the server.
func (cn *Conn) closeOp(op *hiveserver.TOperationHandle) {
	if cn.broken {
		return
	}
	ctx, stop := context.WithTimeout(context.Background(), cleanupTimeout)
	defer stop()
	req := hiveserver.NewTCloseOperationReq()
	req.OperationHandle = op
	_ = cn.call(ctx, func(ctx context.Context) error {
		_, err := cn.client.CloseOperation(ctx, req)
		return err
	})
}

// metadata reads the result's column names and types.
func (cn *Conn) metadata(ctx context.Context, op *hiveserver.TOperationHandle, res *Result) error {
	req := hiveserver.NewTGetResultSetMetadataReq()
	req.OperationHandle = op
	var resp *hiveserver.TGetResultSetMetadataResp
	err := cn.call(ctx, func(ctx context.Context) (err error) {
		resp, err = cn.client.GetResultSetMetadata(ctx, req)
		return err
	})
	if err != nil {
		return ctxErr(ctx, err)
	}
	if err := statusErr("result metadata", resp.GetStatus()); err != nil {
		return err
	}
	if resp.Schema == nil {
		return nil
	}
	for _, c := range resp.Schema.Columns {
		res.Columns = append(res.Columns, c.ColumnName)
		typ := ""
		if c.TypeDesc != nil && len(c.TypeDesc.Types) > 0 {
			if p := c.TypeDesc.Types[0].PrimitiveEntry; p != nil {
				typ = strings.TrimSuffix(p.Type.String(), "_TYPE")
			} else {
				typ = "COMPLEX"
			}
		}
		res.Types = append(res.Types, typ)
	}
	return nil
}

// fetch reads rows of op until maxRows+1 or the end.
func (cn *Conn) fetch(ctx context.Context, op *hiveserver.TOperationHandle, res *Result, maxRows int) error {
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		want := maxRows + 1 - len(res.Rows)
		req := hiveserver.NewTFetchResultsReq()
		req.OperationHandle = op
		req.Orientation = hiveserver.TFetchOrientation_FETCH_NEXT
		req.MaxRows = int64(min(want, fetchRows))
		var resp *hiveserver.TFetchResultsResp
		err := cn.call(ctx, func(ctx context.Context) (err error) {
			resp, err = cn.client.FetchResults(ctx, req)
			return err
		})
		if err != nil {
			return ctxErr(ctx, err)
		}
		if err := statusErr("fetch", resp.GetStatus()); err != nil {
			return err
		}
		n, err := appendRows(res, resp.GetResults(), maxRows+1-len(res.Rows))
		if err != nil {
			return err
		}
		if len(res.Rows) > maxRows {
			res.Rows = res.Rows[:maxRows]
			res.More = true
			return nil
		}
		// Some servers always say there are more rows; an empty batch ends
		// the result either way.
		if n == 0 || !resp.GetHasMoreRows() && n < int(req.MaxRows) {
			return nil
		}
	}
}

// appendRows decodes a column-based row set into rows of Go values (at
// most limit of them) and returns how many rows it held.
func appendRows(res *Result, rs *hiveserver.TRowSet, limit int) (int, error) {
	if rs == nil {
		return 0, nil
	}
	if len(rs.Rows) > 0 && len(rs.Columns) == 0 {
		return 0, errors.New("the server sent a row-based result (protocol older than V6)")
	}
	if len(rs.Columns) == 0 {
		return 0, nil
	}
	if len(rs.Columns) != len(res.Columns) {
		return 0, fmt.Errorf("the server sent %d columns, its metadata %d", len(rs.Columns), len(res.Columns))
	}
	cols := make([]func(i int) any, len(rs.Columns))
	n := -1
	for j, c := range rs.Columns {
		var get func(i int) any
		var nulls []byte
		var size int
		switch {
		case c.BoolVal != nil:
			v := c.BoolVal.Values
			get, nulls, size = func(i int) any { return v[i] }, c.BoolVal.Nulls, len(v)
		case c.ByteVal != nil:
			v := c.ByteVal.Values
			get, nulls, size = func(i int) any { return int64(v[i]) }, c.ByteVal.Nulls, len(v)
		case c.I16Val != nil:
			v := c.I16Val.Values
			get, nulls, size = func(i int) any { return int64(v[i]) }, c.I16Val.Nulls, len(v)
		case c.I32Val != nil:
			v := c.I32Val.Values
			get, nulls, size = func(i int) any { return int64(v[i]) }, c.I32Val.Nulls, len(v)
		case c.I64Val != nil:
			v := c.I64Val.Values
			get, nulls, size = func(i int) any { return v[i] }, c.I64Val.Nulls, len(v)
		case c.DoubleVal != nil:
			v := c.DoubleVal.Values
			get, nulls, size = func(i int) any { return v[i] }, c.DoubleVal.Nulls, len(v)
		case c.StringVal != nil:
			v := c.StringVal.Values
			get, nulls, size = func(i int) any { return v[i] }, c.StringVal.Nulls, len(v)
		case c.BinaryVal != nil:
			v := c.BinaryVal.Values
			get, nulls, size = func(i int) any { return v[i] }, c.BinaryVal.Nulls, len(v)
		default:
			return 0, fmt.Errorf("column %q: the server sent no values", res.Columns[j])
		}
		if n >= 0 && size != n {
			return 0, fmt.Errorf("column %q: %d values, column %q %d", res.Columns[j], size, res.Columns[0], n)
		}
		n = size
		cols[j] = func(i int) any {
			if i/8 < len(nulls) && nulls[i/8]&(1<<(uint(i)%8)) != 0 {
				return nil
			}
			return get(i)
		}
	}
	for i := 0; i < n && i < limit; i++ {
		row := make([]any, len(cols))
		for j, get := range cols {
			row[j] = convert(get(i), res.Types[j])
		}
		res.Rows = append(res.Rows, row)
	}
	return n, nil
}

// convert gives the values Result promises: a DECIMAL stays text (exact),
// a FLOAT sent as a double is the float's shortest text read back, and
// dates, timestamps, intervals and nested values stay Spark's text.
func convert(v any, typ string) any {
	if f, ok := v.(float64); ok && typ == "FLOAT" {
		g, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64)
		if err == nil {
			return g
		}
	}
	return v
}

// Close ends the session and the connection.
func (cn *Conn) Close() {
	if !cn.broken && cn.session != nil {
		ctx, stop := context.WithTimeout(context.Background(), cleanupTimeout)
		req := hiveserver.NewTCloseSessionReq()
		req.SessionHandle = cn.session
		_ = cn.call(ctx, func(ctx context.Context) error {
			_, err := cn.client.CloseSession(ctx, req)
			return err
		})
		stop()
	}
	cn.nc.Close()
}

// ctxErr prefers the context's error when the context ended the call.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

// oneLine keeps a server's multi-line message to one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// Broken reports whether a call failed below the protocol, so that the
// connection is not to be used again.
func (cn *Conn) Broken() bool { return cn.broken }

// Tables runs the protocol's GetTables for the tables and views of schema
// (TABLE_SCHEM, TABLE_NAME, TABLE_TYPE, REMARKS, …), each row keyed by its
// column's name in upper case.
func (cn *Conn) Tables(ctx context.Context, schema string) ([]map[string]any, error) {
	return cn.meta(ctx, func(ctx context.Context) (*hiveserver.TOperationHandle, *hiveserver.TStatus, error) {
		req := hiveserver.NewTGetTablesReq()
		req.SessionHandle = cn.session
		s, t := hiveserver.TPatternOrIdentifier(schema), hiveserver.TPatternOrIdentifier("%")
		req.SchemaName, req.TableName = &s, &t
		resp, err := cn.client.GetTables(ctx, req)
		if err != nil {
			return nil, nil, err
		}
		return resp.OperationHandle, resp.Status, nil
	})
}

// Columns runs the protocol's GetColumns for every column of schema's
// tables and views (TABLE_NAME, COLUMN_NAME, TYPE_NAME, NULLABLE,
// ORDINAL_POSITION, REMARKS, …).
func (cn *Conn) Columns(ctx context.Context, schema string) ([]map[string]any, error) {
	return cn.meta(ctx, func(ctx context.Context) (*hiveserver.TOperationHandle, *hiveserver.TStatus, error) {
		req := hiveserver.NewTGetColumnsReq()
		req.SessionHandle = cn.session
		s, t, c := hiveserver.TPatternOrIdentifier(schema), hiveserver.TPatternOrIdentifier("%"), hiveserver.TPatternOrIdentifier("%")
		req.SchemaName, req.TableName, req.ColumnName = &s, &t, &c
		resp, err := cn.client.GetColumns(ctx, req)
		if err != nil {
			return nil, nil, err
		}
		return resp.OperationHandle, resp.Status, nil
	})
}

// meta starts a catalog operation and reads its whole result.
func (cn *Conn) meta(ctx context.Context, start func(context.Context) (*hiveserver.TOperationHandle, *hiveserver.TStatus, error)) ([]map[string]any, error) {
	var op *hiveserver.TOperationHandle
	var st *hiveserver.TStatus
	err := cn.call(ctx, func(ctx context.Context) (err error) {
		op, st, err = start(ctx)
		return err
	})
	if err != nil {
		return nil, ctxErr(ctx, err)
	}
	if err := statusErr("catalog", st); err != nil {
		return nil, err
	}
	res, err := cn.finish(ctx, op, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, 0, len(res.Rows))
	for _, r := range res.Rows {
		m := make(map[string]any, len(r))
		for i, v := range r {
			m[strings.ToUpper(res.Columns[i])] = v
		}
		out = append(out, m)
	}
	return out, nil
}
