package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	msqlite "modernc.org/sqlite"

	"github.com/discover-db/discover/internal/guardcorpus"
	"github.com/discover-db/discover/warehouse"
)

// FuzzSQLiteGuard: every statement the guard accepts, prepared again on a
// connection of the test's own through the driver (not the guard's C-level
// connection), with a recording authorizer written here, does only what
// the lists allow; its compiled program (EXPLAIN) calls only listed
// functions, opens for reading only b-trees of the database's tables, and
// writes none; and run on a writable copy of the file it changes nothing.
// The seeds are both corpora.
//
//	go test ./warehouse/sqlite -run '^$' -fuzz FuzzSQLiteGuard -fuzztime 5m
func FuzzSQLiteGuard(f *testing.F) {
	for _, name := range []string{"hostile.sql", "harmless.sql"} {
		for _, e := range guardcorpus.Read(f, name) {
			f.Add(strings.ReplaceAll(e.SQL, "$DIR", "x"))
		}
	}
	path := build(f, "fuzz.db", guardFixture...)
	want, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	ref := newReference(f, s, path)
	f.Fuzz(func(t *testing.T, q string) {
		if s.Guard(ctx, q) != nil {
			return
		}
		if !ref.authorized(t, q) {
			// A column that does not resolve: left to grounding, and
			// never run.
			if _, err := s.Query(ctx, q, warehouse.QueryOptions{}); err == nil {
				t.Fatalf("Query ran %q, which does not compile", q)
			}
			return
		}
		ref.program(t, q)
		dir := t.TempDir()
		scratch := filepath.Join(dir, "scratch.db")
		if err := os.WriteFile(scratch, want, 0o600); err != nil {
			t.Fatal(err)
		}
		runWritable(t, scratch, q)
		if got, err := os.ReadFile(scratch); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("the guard accepted %q and it changed the database file (%v)", q, err)
		}
		if names := listDir(t, dir); len(names) != 1 {
			t.Fatalf("the guard accepted %q and it left %v beside the database", q, names)
		}
	})
}

// reference is the test's own account of what the fixture lets a
// statement read.
type reference struct {
	conn   *sql.Conn
	log    []authArgs
	tables map[string]bool   // listed tables and views, shadow tables, folded
	roots  map[int64]string  // b-tree root page → table (an index's table)
	views  map[string]string // view → the one relation outside the listing it reads
	real   map[string]bool   // every name in the schema
}

func newReference(tb testing.TB, s *Source, path string) *reference {
	ctx := context.Background()
	db, err := openDB(uri(path, false), false)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	conn, err := db.Conn(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	r := &reference{conn: conn, tables: map[string]bool{}, roots: map[int64]string{1: "sqlite_master"}, real: map[string]bool{},
		// What the fixture's views read besides listed tables.
		views: map[string]string{"schema_view": "sqlite_master"}}
	listed, err := s.Tables(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	for _, t := range listed {
		r.tables[foldASCII(t.Name.Name)] = true
	}
	rows, err := conn.QueryContext(ctx, "SELECT l.name, l.type, coalesce(s.rootpage, 0) FROM pragma_table_list l LEFT JOIN sqlite_schema s ON s.name = l.name WHERE l.schema = 'main'")
	if err != nil {
		tb.Fatal(err)
	}
	for rows.Next() {
		var name, kind string
		var root int64
		if err := rows.Scan(&name, &kind, &root); err != nil {
			tb.Fatal(err)
		}
		r.real[foldASCII(name)] = true
		if kind == "shadow" {
			r.tables[foldASCII(name)] = true
		}
	}
	rows.Close()
	rows, err = conn.QueryContext(ctx, "SELECT rootpage, tbl_name FROM sqlite_schema WHERE rootpage > 0")
	if err != nil {
		tb.Fatal(err)
	}
	for rows.Next() {
		var root int64
		var name string
		if err := rows.Scan(&root, &name); err != nil {
			tb.Fatal(err)
		}
		r.roots[root] = foldASCII(name)
	}
	rows.Close()
	err = conn.Raw(func(dc any) error {
		return dc.(msqlite.AuthorizerRegisterer).RegisterAuthorizer(func(a msqlite.AuthorizerActionCode, a1, a2, a3, a4 string) msqlite.AuthorizerReturnCode {
			r.log = append(r.log, authArgs{action: int32(a), arg1: a1, arg2: a2, db: a3, inner: a4})
			return msqlite.AuthorizerOK
		})
	})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// authorized prepares q (the driver compiles the first statement only,
// and the guard let through no other) and checks every action recorded.
// It reports false when q does not compile for a column that does not
// resolve, the one failure the guard leaves to others.
func (r *reference) authorized(t *testing.T, q string) bool {
	r.log = nil
	st, err := r.conn.PrepareContext(context.Background(), q)
	if err != nil {
		if m := err.Error(); !strings.Contains(m, "no such column: ") && !strings.Contains(m, "ambiguous column name: ") {
			t.Fatalf("the guard accepted %q, which does not compile: %v", q, err)
		}
		return false
	}
	st.Close()
	for _, a := range r.log {
		if !r.allows(a) {
			t.Errorf("the guard accepted %q, which does %+v", q, a)
		}
	}
	return true
}

func (r *reference) allows(a authArgs) bool {
	const (
		pragma    = 19
		read      = 20
		selectAct = 21
		function  = 31
		recursive = 33
	)
	switch a.action {
	case selectAct, recursive:
		return true
	case function:
		return allowedFunctions[foldASCII(a.arg2)]
	case pragma:
		n := foldASCII(a.arg1)
		return (a.db == "" || a.db == "main") && (objectPragmas[n] || barePragmas[n] && a.arg2 == "")
	case read:
		if a.db != "" && a.db != "main" {
			return false
		}
		t := foldASCII(a.arg1)
		viewRead := func() bool {
			for _, v := range r.views {
				if t == v || t == "sqlite_schema" && v == "sqlite_master" {
					return true
				}
			}
			return false
		}
		switch {
		case r.tables[t], tableFunctions[t]:
			return true
		case a.inner != "" && (r.views[foldASCII(a.inner)] == t || r.views[foldASCII(a.inner)] == "sqlite_master" && t == "sqlite_schema"):
			return true
		case a.arg2 == "" && a.db == "":
			// A FROM item none of whose columns is read: a CTE, so no
			// name of the schema.
			return !r.real[t] && !strings.HasPrefix(t, "sqlite_") && !strings.HasPrefix(t, "pragma_")
		case a.arg2 == "" && a.db == "main":
			return viewRead()
		}
	}
	return false
}

// writeOps are the opcodes of a program that changes a database file or
// the connection's schema or settings.
var writeOps = map[string]bool{
	"OpenWrite": true, "VUpdate": true, "Vacuum": true, "CreateBtree": true, "Destroy": true, "Clear": true,
	"ParseSchema": true, "SetCookie": true, "DropTable": true, "DropIndex": true, "DropTrigger": true,
	"VCreate": true, "VDestroy": true, "JournalMode": true, "Checkpoint": true, "IncrVacuum": true,
	"LoadAnalysis": true, "AutoCommit": true, "Savepoint": true, "VBegin": true,
}

var funcOps = map[string]bool{
	"Function": true, "PureFunc": true, "AggStep": true, "AggStep1": true, "AggFinal": true, "AggValue": true, "AggInverse": true,
}

var p4Func = regexp.MustCompile(`^([^()]+)\(-?\d+\)$`)

// program reads q's compiled program (when q is not itself an EXPLAIN).
func (r *reference) program(t *testing.T, q string) {
	rows, err := r.conn.QueryContext(context.Background(), "EXPLAIN "+q)
	if err != nil {
		return // an EXPLAIN already, which cannot be explained again
	}
	defer rows.Close()
	viaView := false
	for _, a := range r.log {
		if foldASCII(a.inner) == "schema_view" || a.db == "main" && a.arg2 == "" && foldASCII(a.arg1) == "sqlite_schema" {
			viaView = true
		}
	}
	for rows.Next() {
		var addr, p1, p2, p3, p5 int64
		var op string
		var p4, comment sql.NullString
		if err := rows.Scan(&addr, &op, &p1, &p2, &p3, &p4, &p5, &comment); err != nil {
			t.Fatal(err)
		}
		switch {
		case writeOps[op], op == "Transaction" && p2 != 0:
			t.Errorf("the guard accepted %q, whose program has %s at %d", q, op, addr)
		case funcOps[op]:
			m := p4Func.FindStringSubmatch(p4.String)
			if m == nil || !allowedFunctions[foldASCII(m[1])] {
				t.Errorf("the guard accepted %q, whose program calls %q", q, p4.String)
			}
		case op == "OpenRead" || op == "ReopenIdx":
			name, ok := r.roots[p2]
			switch {
			case p3 != 0:
				t.Errorf("the guard accepted %q, which opens a b-tree of database %d", q, p3)
			case !ok:
				t.Errorf("the guard accepted %q, which opens b-tree %d of no table", q, p2)
			case name == "sqlite_master" && viaView:
			case !r.tables[name]:
				t.Errorf("the guard accepted %q, which opens %s", q, name)
			}
		}
	}
}
