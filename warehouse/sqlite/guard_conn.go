package sqlite

// The guard's own connection to the database file, opened through SQLite's
// C API as modernc.org/sqlite/lib exposes it rather than through the
// database/sql driver, for three things the driver does not give: the tail
// that sqlite3_prepare_v3 leaves after the first statement (the driver runs
// every statement of a script, so the guard must know there is only one),
// sqlite3_stmt_readonly, and an authorizer that can tell a NULL argument
// from an empty string (PRAGMA user_version and PRAGMA user_version('')
// differ: the second one sets it). Statements are prepared on it and
// finalized, never stepped: nothing the caller wrote runs here.

import (
	"fmt"
	"sync"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// authArgs are the arguments SQLite hands an authorizer; null1 and null2
// say that arg1 or arg2 was NULL rather than "".
type authArgs struct {
	action       int32
	arg1, arg2   string
	null1, null2 bool
	db, inner    string // schema name; innermost trigger or view (or CTE)
}

// authFunc decides one action; it must not use the connection.
type authFunc func(authArgs) bool

// guardConn is one SQLite connection used only to prepare statements.
// Its methods are not safe for concurrent use: the Source serializes them.
type guardConn struct {
	tls  *libc.TLS
	db   uintptr
	id   uintptr
	auth authFunc // consulted by guardAuthorizer; nil denies everything
}

// guardConns maps the pArg SQLite hands the authorizer back to its
// connection: C memory cannot hold a Go pointer.
var guardConns = struct {
	sync.Mutex
	next uintptr
	m    map[uintptr]*guardConn
}{m: map[uintptr]*guardConn{}}

// guardAuthorizer is called by SQLite for every action of a statement
// being prepared on a guard connection.
func guardAuthorizer(_ *libc.TLS, id uintptr, action int32, z1, z2, z3, z4 uintptr) int32 {
	guardConns.Lock()
	g := guardConns.m[id]
	guardConns.Unlock()
	if g == nil || g.auth == nil {
		return sqlite3.SQLITE_DENY
	}
	ok := g.auth(authArgs{
		action: action,
		arg1:   libc.GoString(z1), null1: z1 == 0,
		arg2: libc.GoString(z2), null2: z2 == 0,
		db: libc.GoString(z3), inner: libc.GoString(z4),
	})
	if ok {
		return sqlite3.SQLITE_OK
	}
	return sqlite3.SQLITE_DENY
}

// guardAuthorizerPtr is guardAuthorizer as the transpiled C code calls a
// function pointer: the address of the Go function value, which for a
// top-level function is static (modernc.org/sqlite passes its own
// callbacks the same way).
var guardAuthorizerPtr = func() uintptr {
	f := guardAuthorizer
	return *(*uintptr)(unsafe.Pointer(&f))
}()

// openGuardConn opens uri read-only, with the settings of the pool's
// connections that change how a statement compiles (trusted_schema=0: a
// view or trigger may only call harmless functions) and busy_timeout, so
// that loading the schema waits out a writer as a query does.
func openGuardConn(uri string) (_ *guardConn, err error) {
	tls := libc.NewTLS()
	g := &guardConn{tls: tls}
	defer func() {
		if err != nil {
			g.close()
		}
	}()
	zName, err := libc.CString(uri)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(tls, zName)
	ppDb := libc.Xmalloc(tls, 16) // room for one pointer
	if ppDb == 0 {
		return nil, fmt.Errorf("guard connection: out of memory")
	}
	defer libc.Xfree(tls, ppDb)
	rc := sqlite3.Xsqlite3_open_v2(tls, zName, ppDb,
		sqlite3.SQLITE_OPEN_READONLY|sqlite3.SQLITE_OPEN_URI|sqlite3.SQLITE_OPEN_FULLMUTEX|sqlite3.SQLITE_OPEN_EXRESCODE, 0)
	g.db = libc.AtomicLoadPUintptr(ppDb)
	if rc != sqlite3.SQLITE_OK {
		return nil, g.err(rc)
	}
	sqlite3.Xsqlite3_busy_timeout(tls, g.db, int32(busyTimeoutMS))
	if err := g.exec("PRAGMA trusted_schema = 0; PRAGMA query_only = 1"); err != nil {
		return nil, err
	}
	guardConns.Lock()
	guardConns.next++
	g.id = guardConns.next
	guardConns.m[g.id] = g
	guardConns.Unlock()
	if rc := sqlite3.Xsqlite3_set_authorizer(tls, g.db, guardAuthorizerPtr, g.id); rc != sqlite3.SQLITE_OK {
		return nil, g.err(rc)
	}
	return g, nil
}

// exec runs the connection's own setup statements (before the authorizer
// is installed).
func (g *guardConn) exec(q string) error {
	z, err := libc.CString(q)
	if err != nil {
		return err
	}
	defer libc.Xfree(g.tls, z)
	if rc := sqlite3.Xsqlite3_exec(g.tls, g.db, z, 0, 0, 0); rc != sqlite3.SQLITE_OK {
		return g.err(rc)
	}
	return nil
}

// prepared is what preparing the start of a text gave.
type prepared struct {
	stmt     uintptr // 0 when the text held no statement, or on error
	tail     int     // byte offset of the text after the first statement
	rc       int32   // SQLite's (extended) result code
	msg      string  // SQLite's error message when rc is not SQLITE_OK
	readonly bool    // sqlite3_stmt_readonly
	explain  int32   // sqlite3_stmt_isexplain: 1 EXPLAIN, 2 EXPLAIN QUERY PLAN
}

// prepare compiles the first statement of sql under auth and reports it;
// the caller finalizes p.stmt. Nothing is stepped.
func (g *guardConn) prepare(sql string, auth authFunc) (p prepared, err error) {
	zSQL, err := libc.CString(sql)
	if err != nil {
		return p, err
	}
	defer libc.Xfree(g.tls, zSQL)
	out := libc.Xmalloc(g.tls, 16) // room for two pointers
	if out == 0 {
		return p, fmt.Errorf("guard: out of memory")
	}
	defer libc.Xfree(g.tls, out)
	ppStmt, pzTail := out, out+unsafe.Sizeof(uintptr(0))

	g.auth = auth
	p.rc = sqlite3.Xsqlite3_prepare_v3(g.tls, g.db, zSQL, int32(len(sql)+1), 0, ppStmt, pzTail)
	g.auth = nil
	if p.rc != sqlite3.SQLITE_OK {
		p.msg = libc.GoString(sqlite3.Xsqlite3_errmsg(g.tls, g.db))
		return p, nil
	}
	p.stmt = libc.AtomicLoadPUintptr(ppStmt)
	p.tail = int(libc.AtomicLoadPUintptr(pzTail) - zSQL)
	if p.stmt != 0 {
		p.readonly = sqlite3.Xsqlite3_stmt_readonly(g.tls, p.stmt) != 0
		p.explain = sqlite3.Xsqlite3_stmt_isexplain(g.tls, p.stmt)
	}
	return p, nil
}

// finalize frees a statement prepare returned.
func (g *guardConn) finalize(stmt uintptr) {
	if stmt != 0 {
		sqlite3.Xsqlite3_finalize(g.tls, stmt)
	}
}

// sqliteError is an error SQLite reported on the guard connection, with
// its result code so that code (and so retryBusy) sees a busy file as such.
type sqliteError struct {
	rc  int32
	msg string
}

func (e *sqliteError) Error() string { return fmt.Sprintf("%s (%d)", e.msg, e.rc) }

func (g *guardConn) err(rc int32) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errstr(g.tls, rc))
	if g.db != 0 {
		msg = libc.GoString(sqlite3.Xsqlite3_errmsg(g.tls, g.db))
	}
	return &sqliteError{rc: rc, msg: msg}
}

func (g *guardConn) close() {
	if g == nil {
		return
	}
	if g.id != 0 {
		guardConns.Lock()
		delete(guardConns.m, g.id)
		guardConns.Unlock()
	}
	if g.db != 0 {
		sqlite3.Xsqlite3_close_v2(g.tls, g.db)
		g.db = 0
	}
	if g.tls != nil {
		g.tls.Close()
		g.tls = nil
	}
}
