package load

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	duck "github.com/duckdb/duckdb-go/v2"
)

// DuckDB differs from the server targets in three ways that shape its copy:
//
//   - A foreign key is declared in CREATE TABLE or not at all (there is no
//     ALTER TABLE … ADD FOREIGN KEY), so a table must be created after the
//     tables it references, and foreign keys forming a cycle between tables
//     cannot be declared: the copy refuses them (duckKeysInOrder).
//   - Keys are checked as rows arrive, against rows already appended, and
//     cannot be switched off: tables load parents first, the rows of a
//     self-referencing table load in generations, each after the rows it
//     references (selfOrder), and rows that break a declared key (which
//     SQLite never enforced) or reference each other in a cycle fail the
//     copy, with an error that says so.
//   - Referential actions (ON DELETE CASCADE, SET NULL, SET DEFAULT) do not
//     exist: keys are declared without any, which is DuckDB's NO ACTION.
//
// Rows go in through the driver's Appender, in one transaction per table.
// Indexes are built after the rows, as on the other targets; DuckDB's ART
// indexes behind PRIMARY KEY and UNIQUE are maintained while appending.

const duckScheme = "duckdb://"

// createDuckDB is CreateDatabase for DuckDB: folder is where the file will
// be; Copy creates it.
func createDuckDB(folder, name string) (string, func() error, error) {
	if hasPrefixFold(folder, duckScheme) {
		folder = folder[len(duckScheme):]
	}
	if folder == "" {
		folder = os.TempDir()
	}
	abs, err := filepath.Abs(filepath.Join(folder, name+".duckdb"))
	if err != nil {
		return "", nil, fmt.Errorf("load: create database %s: %w", name, err)
	}
	if _, err := os.Lstat(abs); err == nil {
		return "", nil, fmt.Errorf("load: create database %s: %s already exists", name, abs)
	}
	drop := func() error {
		for _, p := range []string{abs, abs + ".wal"} {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("load: drop database %s: %w", name, err)
			}
		}
		return nil
	}
	return duckScheme + filepath.ToSlash(abs), drop, nil
}

// duckPath reads Copy's DuckDB DSN: duckdb:///abs/path, duckdb://rel/path
// or a plain path.
func duckPath(dsn string) (string, error) {
	p := dsn
	if hasPrefixFold(p, duckScheme) {
		p = p[len(duckScheme):]
	}
	if p == "" {
		return "", errors.New("duckdb DSN: no file")
	}
	abs, err := filepath.Abs(filepath.FromSlash(p))
	if err != nil {
		return "", fmt.Errorf("duckdb DSN: %w", err)
	}
	// duckdb-go reads its DSN as a URL: '?' would end the path, '#' drop
	// the settings, '%' start an escape.
	if strings.ContainsAny(abs, "?#%") {
		return "", fmt.Errorf("duckdb DSN: %s: the DuckDB driver cannot create a file whose path holds '?', '#' or '%%'", abs)
	}
	return abs, nil
}

// duckKeysInOrder checks that every table comes after the tables its
// foreign keys reference (parentsFirst only breaks cycles), since DuckDB
// declares a key only when it creates the table.
func duckKeysInOrder(tables []*table) error {
	created := map[string]bool{}
	for _, t := range tables {
		created[t.name] = true
		for _, fk := range t.fks {
			if !created[fk.parent] {
				return fmt.Errorf("table %q: foreign key (%s) → %s is part of a cycle of foreign keys between tables; "+
					"DuckDB declares a foreign key only in CREATE TABLE, after the table it references, so it cannot hold them",
					t.name, strings.Join(fk.cols, ", "), fk.parent)
			}
		}
	}
	return nil
}

// duckTarget fills a new DuckDB file over one connection.
type duckTarget struct {
	path     string
	db       *sql.DB
	conn     *sql.Conn
	finished bool // the file is complete and closed
}

func openDuckTarget(ctx context.Context, dsn string) (*duckTarget, error) {
	path, err := duckPath(dsn)
	if err != nil {
		return nil, err
	}
	// A leftover write-ahead log would be replayed into the new file.
	for _, p := range []string{path, path + ".wal"} {
		if _, err := os.Lstat(p); err == nil {
			return nil, fmt.Errorf("%s already exists; a DuckDB copy makes a new file", p)
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	v := url.Values{}
	v.Set("autoinstall_known_extensions", "false")
	v.Set("autoload_known_extensions", "false")
	connector, err := duck.NewConnector(path+"?"+v.Encode(), nil)
	if err != nil {
		return nil, err
	}
	d := &duckTarget{path: path, db: sql.OpenDB(connector)}
	if d.conn, err = d.db.Conn(ctx); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

func (d *duckTarget) exec(ctx context.Context, stmt string) error {
	_, err := d.conn.ExecContext(ctx, stmt)
	return err
}

// finish closes the database, which is checkpointed by then, so that the
// file is whole and nothing holds it.
func (d *duckTarget) finish() error {
	err := d.conn.Close()
	if e := d.db.Close(); err == nil {
		err = e
	}
	if err != nil {
		return fmt.Errorf("close %s: %w", d.path, err)
	}
	d.finished = true
	return nil
}

// close removes the file again unless the copy finished: a half-made file
// would pass for a copy.
func (d *duckTarget) close() {
	if d.finished {
		return
	}
	if d.conn != nil {
		d.conn.Close()
	}
	d.db.Close()
	os.Remove(d.path)
	os.Remove(d.path + ".wal")
}

func duckDecimal(unscaled *big.Int, _ string) any {
	return duck.Decimal{Width: 14, Scale: 2, Value: unscaled}
}

func (d *duckTarget) load(ctx context.Context, src *sql.DB, t *table) error {
	if t.rows == 0 {
		return nil
	}
	r, err := readRows(ctx, src, t)
	if err != nil {
		return err
	}
	defer r.close()
	convert := func(out []driver.Value) error {
		for i, c := range t.cols {
			var err error
			if out[i], err = value(c, r.row[i], duckDecimal); err != nil {
				return err
			}
		}
		return nil
	}

	if err := d.exec(ctx, "BEGIN TRANSACTION"); err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			d.exec(context.Background(), "ROLLBACK")
		}
	}()

	var appended int64
	err = d.conn.Raw(func(dc any) error {
		conn, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		a, err := duck.NewAppender(conn, "", "", t.name)
		if err != nil {
			return err
		}
		appendRow := func(row []driver.Value) error {
			appended++
			return a.AppendRow(row...)
		}
		if selfReferencing(t) {
			// Every row in memory, then generation by generation: a flush
			// makes the rows so far visible to the key checks of the next.
			var rows [][]driver.Value
			for r.next() {
				row := make([]driver.Value, len(t.cols))
				if err = convert(row); err != nil {
					break
				}
				rows = append(rows, row)
			}
			if err == nil {
				err = r.Err()
			}
			var gens [][]int
			if err == nil {
				gens, err = selfOrder(t, rows)
			}
			for _, g := range gens {
				for _, i := range g {
					if err = appendRow(rows[i]); err != nil {
						break
					}
				}
				if err != nil {
					break
				}
				if err = a.FlushWithCancel(ctx); err != nil {
					break
				}
			}
		} else {
			row := make([]driver.Value, len(t.cols))
			for r.next() {
				if err = convert(row); err != nil {
					break
				}
				if err = appendRow(row); err != nil {
					break
				}
			}
			if err == nil {
				err = r.Err()
			}
		}
		if err != nil {
			a.Clear()
			a.Close()
			return err
		}
		return a.CloseWithCancel(ctx)
	})
	if err != nil {
		if strings.Contains(err.Error(), "Violates foreign key") {
			err = fmt.Errorf("%w (the rows break a foreign key SQLite declares but never enforced; DuckDB checks every key as rows arrive)", err)
		}
		return err
	}
	if appended != t.rows {
		return fmt.Errorf("copied %d rows of %d", appended, t.rows)
	}
	if err := d.exec(ctx, "COMMIT"); err != nil {
		return err
	}
	committed = true
	return nil
}

func selfReferencing(t *table) bool {
	for _, fk := range t.fks {
		if fk.parent == t.name {
			return true
		}
	}
	return false
}

// selfOrder orders the rows of a table whose foreign keys reference the
// table itself into generations: the first holds the rows that reference
// no row (a NULL in the key, which DuckDB does not check), each next one
// the rows whose references all point into earlier generations. Rows that
// reference a missing row, themselves, or each other in a cycle cannot be
// loaded into DuckDB in any order, and are an error.
func selfOrder(t *table, rows [][]driver.Value) ([][]int, error) {
	colIndex := func(names []string) []int {
		idx := make([]int, len(names))
		for i, n := range names {
			for j, c := range t.cols {
				if c.name == n {
					idx[i] = j
				}
			}
		}
		return idx
	}
	pending := make([]int, len(rows)) // references not yet loaded
	children := make([][]int, len(rows))
	for _, fk := range t.fks {
		if fk.parent != t.name {
			continue
		}
		from, to := colIndex(fk.cols), colIndex(fk.parentCols)
		keys := make(map[string]int, len(rows))
		for i, row := range rows {
			if k, ok := rowKey(row, to); ok {
				if _, dup := keys[k]; !dup {
					keys[k] = i
				}
			}
		}
		describe := func(row []driver.Value) string {
			vals := make([]string, len(from))
			for i, j := range from {
				vals[i] = fmt.Sprint(row[j])
			}
			return fmt.Sprintf("foreign key (%s) = (%s) → %s (%s)", strings.Join(fk.cols, ", "), strings.Join(vals, ", "), fk.parent, strings.Join(fk.parentCols, ", "))
		}
		for i, row := range rows {
			k, ok := rowKey(row, from)
			if !ok {
				continue // a NULL: DuckDB checks nothing
			}
			p, found := keys[k]
			switch {
			case !found:
				return nil, fmt.Errorf("%s: no such row (SQLite declares the key but never enforced it; DuckDB checks every key as rows arrive)", describe(row))
			case p == i:
				return nil, fmt.Errorf("%s: the row references itself, which DuckDB checks before the row is there, so it cannot be loaded", describe(row))
			}
			pending[i]++
			children[p] = append(children[p], i)
		}
	}

	var gens [][]int
	var next []int
	for i, n := range pending {
		if n == 0 {
			next = append(next, i)
		}
	}
	placed := 0
	for len(next) > 0 {
		gens = append(gens, next)
		placed += len(next)
		var after []int
		for _, p := range next {
			for _, c := range children[p] {
				if pending[c]--; pending[c] == 0 {
					after = append(after, c)
				}
			}
		}
		next = after
	}
	if placed < len(rows) {
		return nil, fmt.Errorf("%d rows reference each other in a cycle through the table's own foreign key; "+
			"DuckDB checks a key as each row arrives and cannot add a key after the data (no ALTER TABLE … ADD FOREIGN KEY), "+
			"so no order of the rows loads", len(rows)-placed)
	}
	return gens, nil
}

// rowKey renders the values of row at idx as a map key, ok false when one
// is NULL. Numbers of equal value render alike whatever their type, as
// DuckDB compares them.
func rowKey(row []driver.Value, idx []int) (string, bool) {
	var b strings.Builder
	for _, j := range idx {
		var s string
		switch v := row[j].(type) {
		case nil:
			return "", false
		case int64:
			s = "n" + strconv.FormatInt(v, 10)
		case float64:
			s = numberKey(v)
		case duck.Decimal:
			f, _ := new(big.Rat).SetFrac(v.Value, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(v.Scale)), nil)).Float64()
			s = numberKey(f)
		case string:
			s = "s" + v
		case []byte:
			s = "b" + string(v)
		default:
			s = fmt.Sprintf("%T%v", v, v)
		}
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	return b.String(), true
}

func numberKey(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return "n" + strconv.FormatInt(int64(f), 10)
	}
	return "n" + strconv.FormatFloat(f, 'g', -1, 64)
}

// addForeignKey does nothing: the key was declared in CREATE TABLE.
func (d *duckTarget) addForeignKey(context.Context, *table, foreignKey) error { return nil }

// tryView creates the view and reads from it in a transaction, which
// DuckDB rolls back whole, DDL included.
func (d *duckTarget) tryView(ctx context.Context, name, stmt string) error {
	tx, err := d.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, stmt); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, "SELECT * FROM "+quote(name)+" LIMIT 1")
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	return tx.Commit()
}

// analyze refreshes the statistics and checkpoints, so that the file holds
// everything and no write-ahead log is left beside it.
func (d *duckTarget) analyze(ctx context.Context, _ []*table) error {
	if err := d.exec(ctx, "ANALYZE"); err != nil {
		return err
	}
	return d.exec(ctx, "CHECKPOINT")
}
