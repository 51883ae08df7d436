package load

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/discover-db/discover/internal/demo"
)

var (
	demoDir  string
	demoOnce sync.Once
	demoPath string
	demoErr  error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "load-test-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	demoDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sharedDemo builds the demo once for both dialects: it only ever is read.
func sharedDemo(t *testing.T) string {
	t.Helper()
	demoOnce.Do(func() {
		start := time.Now()
		demoPath, demoErr = demo.Ensure(context.Background(), demoDir)
		t.Logf("demo built in %v", time.Since(start).Round(time.Millisecond))
	})
	if demoErr != nil {
		t.Fatalf("demo.Ensure: %v", demoErr)
	}
	return demoPath
}

var envs = map[string]string{postgres: "DISCOVER_TEST_POSTGRES", mysql: "DISCOVER_TEST_MYSQL"}

// server returns the admin DSN of dialect's test server; CI must have them.
func server(t *testing.T, dialect string) string {
	t.Helper()
	dsn := os.Getenv(envs[dialect])
	if dsn == "" {
		msg := fmt.Sprintf("%s is not set; start the test servers with: eval \"$(.ci/start-servers)\"", envs[dialect])
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dsn
}

// freshDatabase creates a database only this test uses, dropped at cleanup,
// and opens it.
func freshDatabase(t *testing.T, dialect, prefix string) (string, *sql.DB) {
	t.Helper()
	admin := server(t, dialect)
	name := fmt.Sprintf("%s_%s_%d", prefix, dialect, time.Now().UnixNano())
	dsn, drop, err := CreateDatabase(t.Context(), dialect, admin, name)
	if err != nil {
		t.Fatal(err)
	}
	var db *sql.DB
	t.Cleanup(func() {
		if db != nil {
			db.Close()
		}
		if err := drop(); err != nil {
			t.Error(err)
		}
	})
	if dialect == postgres {
		db, err = sql.Open("pgx", dsn)
	} else {
		db, err = openMySQL(dsn)
	}
	if err != nil {
		t.Fatal(err)
	}
	return dsn, db
}

func openSource(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := openSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestCopyDemo(t *testing.T) {
	for _, dialect := range []string{postgres, mysql} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			server(t, dialect)
			path := sharedDemo(t)
			startExpectations(path)
			dsn, db := freshDatabase(t, dialect, "load_demo")
			ctx := t.Context()

			start := time.Now()
			if err := Copy(ctx, path, dialect, dsn); err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)

			want := awaitExpectations(t)
			t.Logf("%s: copied %d tables, %d rows in %v (SQLite checksums took %v alongside)",
				dialect, len(demo.Facts.Tables), want.rows, took.Round(time.Millisecond), want.took.Round(time.Millisecond))
			checkDemo(t, want, db, dialect)
		})
	}
}

// expectations are what SQLite says of the demo, computed once for both
// dialects and while they copy: under -race the SQLite scans take seconds.
type expectations struct {
	rows      int
	notNull   map[string]bool       // table.column → declared NOT NULL or in the key
	columns   map[string][][]string // table → name and declared type of each column
	checksums map[string][]float64
	took      time.Duration
}

var (
	expectOnce sync.Once
	expectDone = make(chan struct{})
	expected   expectations
	expectErr  error
)

func startExpectations(path string) {
	expectOnce.Do(func() {
		go func() {
			defer close(expectDone)
			start := time.Now()
			expected, expectErr = computeExpectations(path)
			expected.took = time.Since(start)
		}()
	})
}

func awaitExpectations(t *testing.T) expectations {
	t.Helper()
	<-expectDone
	if expectErr != nil {
		t.Fatalf("SQLite expectations: %v", expectErr)
	}
	return expected
}

func computeExpectations(path string) (expectations, error) {
	e := expectations{notNull: map[string]bool{}, columns: map[string][][]string{}, checksums: map[string][]float64{}}
	src, err := openSQLite(path)
	if err != nil {
		return e, err
	}
	defer src.Close()
	for _, table := range demo.Facts.Tables {
		rows, err := rowsOf(src, `SELECT name, "notnull" OR pk > 0 FROM pragma_table_info(?)`, table)
		if err != nil {
			return e, err
		}
		for _, r := range rows {
			e.notNull[table+"."+r[0]] = r[1] == "1"
		}
	}
	for _, table := range append(slices.Clone(demo.Facts.Tables), demo.Facts.Views...) {
		if e.columns[table], err = rowsOf(src, "SELECT name, type FROM pragma_table_info(?) ORDER BY cid", table); err != nil {
			return e, err
		}
		if e.checksums[table], err = floatsOf(src, checksumQuery(e.columns[table], "sqlite", table)); err != nil {
			return e, err
		}
		if slices.Contains(demo.Facts.Tables, table) {
			e.rows += int(e.checksums[table][0])
		}
	}
	return e, nil
}

func checkDemo(t *testing.T, exp expectations, db *sql.DB, dialect string) {
	in := inspector{db: db, dialect: dialect}
	tables, views := in.tablesAndViews(t)
	if want := slices.Sorted(slices.Values(demo.Facts.Tables)); !slices.Equal(tables, want) {
		t.Errorf("tables %v, want %v", tables, want)
	}
	if want := slices.Sorted(slices.Values(demo.Facts.Views)); !slices.Equal(views, want) {
		t.Errorf("views %v, want %v", views, want)
	}

	pks := in.keys(t, "PRIMARY KEY")
	for table, want := range demo.Facts.PrimaryKeys {
		if got := pks[table]; len(got) != 1 || !slices.Equal(got[0], want) {
			t.Errorf("%s: primary key %v, want %v", table, got, want)
		}
	}
	if len(pks) != len(demo.Facts.PrimaryKeys) {
		t.Errorf("primary keys on %d tables, want %d", len(pks), len(demo.Facts.PrimaryKeys))
	}

	var uniques, wantUniques []string
	for table, keys := range in.keys(t, "UNIQUE") {
		for _, k := range keys {
			uniques = append(uniques, table+"("+strings.Join(k, ",")+")")
		}
	}
	for _, c := range demo.Facts.UniqueColumns {
		wantUniques = append(wantUniques, c.Table+"("+c.Column+")")
	}
	slices.Sort(uniques)
	slices.Sort(wantUniques)
	if !slices.Equal(uniques, wantUniques) {
		t.Errorf("unique constraints %v, want %v", uniques, wantUniques)
	}

	fks := in.foreignKeys(t)
	var want []string
	for _, r := range demo.Facts.DeclaredFKs {
		want = append(want, fmt.Sprintf("%s.%s→%s.%s", r.Table, r.Column, r.RefTable, r.RefColumn))
	}
	slices.Sort(want)
	if !slices.Equal(fks, want) {
		t.Errorf("foreign keys\n got %v\nwant %v", fks, want)
	}

	if got, want := in.indexes(t), slices.Sorted(slices.Values(demo.Facts.Indexes)); !slices.Equal(got, want) {
		t.Errorf("indexes %v, want %v", got, want)
	}

	// NOT NULL as SQLite declares it, key columns always.
	nullable := in.nullable(t)
	for key, notNull := range exp.notNull {
		if got, ok := nullable[key]; !ok {
			t.Errorf("%s missing", key)
		} else if got == notNull {
			t.Errorf("%s nullable %v, want %v", key, got, !notNull)
		}
	}

	for table, sums := range exp.checksums {
		if got := queryFloats(t, db, checksumQuery(exp.columns[table], dialect, table)); !slices.EqualFunc(got, sums, near) {
			t.Errorf("%s: checksum %v, want %v", table, got, sums)
		}
	}
}

// checksumQuery builds one query that sums up a table's content: the row
// count, and per column the non-NULL count plus the sum of numbers, or the
// total length of texts in characters. The first text column also gets its
// count of distinct values; more would cost SQLite seconds under -race.
func checksumQuery(cols [][]string, dialect, table string) string {
	length := "length"
	if dialect == mysql {
		length = "CHAR_LENGTH"
	}
	exprs := []string{"COUNT(*)"}
	distinct := false
	for _, c := range cols {
		q := quote(c[0])
		exprs = append(exprs, "COUNT("+q+")")
		switch {
		case affinity(c[1]) != "TEXT":
			exprs = append(exprs, "SUM("+q+")")
		case !distinct:
			exprs = append(exprs, "COUNT(DISTINCT "+q+")", "SUM("+length+"("+q+"))")
			distinct = true
		default:
			exprs = append(exprs, "SUM("+length+"("+q+"))")
		}
	}
	return "SELECT " + strings.Join(exprs, ", ") + " FROM " + quote(table)
}

// near compares sums of reals, which differ in the last bits between
// engines that add in different orders (and exact NUMERIC).
func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

type inspector struct {
	db      *sql.DB
	dialect string
}

func (in inspector) schema() string {
	if in.dialect == postgres {
		return "current_schema()"
	}
	return "DATABASE()"
}

func (in inspector) tablesAndViews(t *testing.T) (tables, views []string) {
	for _, r := range queryRows(t, in.db, "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = "+in.schema()+" ") {
		if r[1] == "VIEW" {
			views = append(views, r[0])
		} else {
			tables = append(tables, r[0])
		}
	}
	// Sorted here: MySQL's information_schema collation orders "_" apart.
	slices.Sort(tables)
	slices.Sort(views)
	return tables, views
}

// keys returns the columns of each constraint of the given type, by table.
func (in inspector) keys(t *testing.T, constraintType string) map[string][][]string {
	rows := queryRows(t, in.db, `
		SELECT tc.table_name, tc.constraint_name, k.column_name
		FROM information_schema.table_constraints tc
		JOIN information_schema.key_column_usage k
		  ON k.constraint_schema = tc.constraint_schema AND k.constraint_name = tc.constraint_name AND k.table_name = tc.table_name
		WHERE tc.constraint_type = '`+constraintType+`' AND tc.table_schema = `+in.schema()+`
		ORDER BY tc.table_name, tc.constraint_name, k.ordinal_position`)
	out := map[string][][]string{}
	last := ""
	for _, r := range rows {
		if r[0]+"."+r[1] != last {
			out[r[0]] = append(out[r[0]], nil)
			last = r[0] + "." + r[1]
		}
		keys := out[r[0]]
		keys[len(keys)-1] = append(keys[len(keys)-1], r[2])
	}
	return out
}

func (in inspector) foreignKeys(t *testing.T) []string {
	q := `SELECT table_name, column_name, referenced_table_name, referenced_column_name
		FROM information_schema.key_column_usage
		WHERE table_schema = DATABASE() AND referenced_table_name IS NOT NULL`
	if in.dialect == postgres {
		q = `SELECT (SELECT relname FROM pg_class WHERE oid = c.conrelid), a.attname,
				(SELECT relname FROM pg_class WHERE oid = c.confrelid), af.attname
			FROM pg_constraint c
			CROSS JOIN unnest(c.conkey, c.confkey) AS k(col, fcol)
			JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col
			JOIN pg_attribute af ON af.attrelid = c.confrelid AND af.attnum = k.fcol
			WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`
	}
	var out []string
	for _, r := range queryRows(t, in.db, q) {
		out = append(out, fmt.Sprintf("%s.%s→%s.%s", r[0], r[1], r[2], r[3]))
	}
	slices.Sort(out)
	return out
}

// indexes lists the indexes a user created, leaving out those behind
// constraints (and, on MySQL, the ones InnoDB adds for foreign keys, named
// after them).
func (in inspector) indexes(t *testing.T) []string {
	q := `SELECT DISTINCT s.index_name FROM information_schema.statistics s
		WHERE s.table_schema = DATABASE() AND s.index_name NOT IN (
			SELECT constraint_name FROM information_schema.table_constraints tc
			WHERE tc.table_schema = DATABASE() AND tc.table_name = s.table_name)
`
	if in.dialect == postgres {
		q = `SELECT i.indexname FROM pg_indexes i
			WHERE i.schemaname = current_schema() AND NOT EXISTS (
				SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.connamespace = current_schema()::regnamespace)
`
	}
	var out []string
	for _, r := range queryRows(t, in.db, q) {
		out = append(out, r[0])
	}
	slices.Sort(out)
	return out
}

func (in inspector) nullable(t *testing.T) map[string]bool {
	out := map[string]bool{}
	for _, r := range queryRows(t, in.db, "SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = "+in.schema()) {
		out[r[0]+"."+r[1]] = r[2] == "YES"
	}
	return out
}

func queryRows(t *testing.T, db *sql.DB, q string, args ...any) [][]string {
	t.Helper()
	rows, err := rowsOf(db, q, args...)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func queryFloats(t *testing.T, db *sql.DB, q string) []float64 {
	t.Helper()
	vals, err := floatsOf(db, q)
	if err != nil {
		t.Fatal(err)
	}
	return vals
}

// rowsOf returns every row of q as text, NULL as "".
func rowsOf(db *sql.DB, q string, args ...any) ([][]string, error) {
	rows, err := db.QueryContext(context.Background(), q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = v.String
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	return out, nil
}

// floatsOf returns the one row of q as numbers, NULL as 0.
func floatsOf(db *sql.DB, q string) ([]float64, error) {
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	vals := make([]sql.NullFloat64, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if !rows.Next() {
		return nil, fmt.Errorf("%s: no row (%v)", q, rows.Err())
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = v.Float64
	}
	return out, nil
}

// A Trino "database" is a schema of a catalog: the admin DSN names the
// catalog, the copy's DSN the schema too, and both become the Go client's
// plain-HTTP DSN with the session's catalog and schema.
func TestTrinoAdminDSN(t *testing.T) {
	for dsn, want := range map[string][3]string{
		"trino://admin@127.0.0.1:48080/memory":       {"http://admin@127.0.0.1:48080?catalog=memory", "memory", ""},
		"trino://admin@127.0.0.1:48080/memory/demo/": {"http://admin@127.0.0.1:48080?catalog=memory&schema=demo", "memory", "demo"},
	} {
		client, catalog, schema, err := trinoAdmin(dsn)
		if err != nil || [3]string{client, catalog, schema} != want {
			t.Errorf("trinoAdmin(%q) = %q, %q, %q, %v; want %q", dsn, client, catalog, schema, err, want)
		}
	}
	for _, dsn := range []string{"trino://127.0.0.1:48080/memory", "trino://admin@127.0.0.1:48080/", "postgres://admin@h/db", "trino://a@h/c/s/x"} {
		if _, _, _, err := trinoAdmin(dsn); err == nil {
			t.Errorf("trinoAdmin(%q) accepted", dsn)
		}
	}
}
