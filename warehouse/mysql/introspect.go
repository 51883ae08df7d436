package mysql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	mysqldrv "github.com/go-sql-driver/mysql"

	"github.com/discover-db/discover/warehouse"
)

// noSelect is the reason given for a table the user may see but not read.
const noSelect = "no SELECT privilege"

// object is one table or view of the database, before its structure is read.
type object struct {
	name, kind string // kind "table" or "view"
}

// Tables lists the base tables and views of the DSN's database with their
// declared structure, sorted by name. Names are unqualified: the database is
// the connection's default namespace. Tables the user cannot read and views
// that no longer compile are left out; Skipped says which and why. The
// listing is also what Guard checks a statement's tables against.
func (s *Source) Tables(ctx context.Context) ([]warehouse.Table, error) {
	var out []warehouse.Table
	var funcs []string
	err := s.readOnly(ctx, noLimits, func(ss *session) error {
		out, funcs = nil, nil
		objs, skipped, err := ss.inventory(ctx)
		if err != nil {
			return err
		}
		if funcs, err = ss.storedFunctions(ctx); err != nil {
			return fmt.Errorf("stored functions: %w", err)
		}
		in := &introspector{ss: ss, ctx: ctx, tables: map[string]*warehouse.Table{}, known: map[string]bool{}}
		for _, sk := range skipped {
			in.known[sk.Table.Name] = true
		}
		for _, o := range objs {
			in.known[o.name] = true
			in.tables[o.name] = &warehouse.Table{
				Name:        warehouse.TableName{Name: o.name},
				Kind:        o.kind,
				Columns:     []warehouse.Column{},
				PrimaryKey:  []string{},
				ForeignKeys: []warehouse.ForeignKey{},
				Uniques:     [][]string{},
				Indexes:     []warehouse.Index{},
			}
		}
		if err := in.columns(); err != nil {
			return fmt.Errorf("columns: %w", err)
		}
		if err := in.indexes(); err != nil {
			return fmt.Errorf("indexes: %w", err)
		}
		if err := in.foreignKeys(); err != nil {
			return fmt.Errorf("foreign keys: %w", err)
		}
		if err := in.structure(); err != nil {
			return err
		}
		for _, o := range objs {
			out = append(out, *in.tables[o.name])
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("mysql: tables: %w", ctxErr(ctx, err))
	}
	slices.SortFunc(out, func(a, b warehouse.Table) int { return compareNames(a.Name.Name, b.Name.Name) })
	if out == nil {
		out = []warehouse.Table{}
	}
	s.setGuardView(out, funcs)
	return out, nil
}

// storedFunctions lists the names of the database's stored functions the
// user can see: the server calls one of them for a function name that is
// not a built-in (or not written as one), so Guard refuses those names.
func (ss *session) storedFunctions(ctx context.Context) ([]string, error) {
	rows, err := ss.tx.QueryContext(ctx, `
		SELECT ROUTINE_NAME FROM information_schema.ROUTINES
		WHERE ROUTINE_SCHEMA = ? AND ROUTINE_TYPE = 'FUNCTION'`, ss.s.name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return names, rows.Close()
}

// compareNames orders names case-insensitively, as a person scans a list,
// with the exact spelling breaking ties (table names are case-sensitive on
// most MySQL servers).
func compareNames(a, b string) int {
	if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// Skipped lists the tables and views of the database that Tables leaves
// out: those the user may see but not SELECT from, and views that fail to
// compile. Tables the user has no privilege on at all are hidden by the
// server itself and cannot be listed.
func (s *Source) Skipped(ctx context.Context) ([]warehouse.Skipped, error) {
	var skipped []warehouse.Skipped
	err := s.readOnly(ctx, noLimits, func(ss *session) error {
		var err error
		_, skipped, err = ss.inventory(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("mysql: skipped tables: %w", ctxErr(ctx, err))
	}
	slices.SortFunc(skipped, func(a, b warehouse.Skipped) int { return compareNames(a.Table.Name, b.Table.Name) })
	if skipped == nil {
		skipped = []warehouse.Skipped{}
	}
	return skipped, nil
}

// inventory lists the database's base tables and views and tries to read
// each. information_schema already hides what the user has no privilege on
// at all, but shows a table on which the user holds only, say, INSERT; and a
// view whose base table was dropped is listed as if it were fine.
// Sequences (MariaDB) are left out: they hold a generator's state, not data.
func (ss *session) inventory(ctx context.Context) (readable []object, skipped []warehouse.Skipped, err error) {
	rows, err := ss.tx.QueryContext(ctx, `
		SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES
		WHERE TABLE_SCHEMA = ? AND TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED', 'VIEW')`, ss.s.name)
	if err != nil {
		return nil, nil, err
	}
	var objs []object
	for rows.Next() {
		var o object
		if err := rows.Scan(&o.name, &o.kind); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if o.kind == "VIEW" {
			o.kind = "view"
		} else {
			o.kind = "table"
		}
		objs = append(objs, o)
	}
	if err := rows.Close(); err != nil {
		return nil, nil, err
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	for _, o := range objs {
		reason, err := ss.probe(ctx, o)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", o.name, err)
		}
		if reason != "" {
			skipped = append(skipped, warehouse.Skipped{Table: warehouse.TableName{Name: o.name}, Reason: reason})
			continue
		}
		readable = append(readable, o)
	}
	return readable, skipped, nil
}

// probe reads nothing from o (LIMIT 0 is answered without executing) and
// returns why it cannot be read, or "" when it can. An error is returned only
// when the probe could not be made at all.
func (ss *session) probe(ctx context.Context, o object) (string, error) {
	rows, err := ss.tx.QueryContext(ctx, "SELECT 1 FROM "+QuoteIdent(o.name)+" LIMIT 0")
	if err == nil {
		err = rows.Close()
	}
	if err == nil {
		return "", nil
	}
	if transient(err) {
		// A lost connection or a passing conflict says nothing of o: the
		// whole inventory is tried again.
		return "", err
	}
	switch serverCode(err) {
	case 0:
		return "", err
	case erTableAccessDenied, erColumnAccessDenied:
		return noSelect, nil
	case erViewInvalid:
		return "the view does not compile: " + serverMessage(err), nil
	}
	// Anything else the server refuses (a view whose definer was dropped, a
	// table its engine cannot open) is as unreadable, and says why.
	return "cannot be read: " + serverMessage(err), nil
}

// serverMessage is the server's own text of err, without the driver's
// "Error 1356 (HY000): " prefix.
func serverMessage(err error) string {
	var me *mysqldrv.MySQLError
	if errors.As(err, &me) {
		return me.Message
	}
	return err.Error()
}

// introspector reads the structure of the readable objects, one query per
// information_schema table for the whole database rather than one per table.
type introspector struct {
	ss     *session
	ctx    context.Context
	tables map[string]*warehouse.Table // readable objects only
	known  map[string]bool             // every table and view the user sees, readable or not
}

// columns reads the columns with their defaults, comments and
// AUTO_INCREMENT. information_schema repeats on a view's column the
// default and comment of the base column it shows; the view declares
// neither, so they are left out.
func (in *introspector) columns() error {
	rows, err := in.ss.tx.QueryContext(in.ctx, `
		SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, ORDINAL_POSITION,
			COLUMN_DEFAULT, DATA_TYPE, EXTRA, COLUMN_COMMENT
		FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?`, in.ss.s.name)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var table, nullable, dataType, extra string
		var def sql.NullString
		var c warehouse.Column
		if err := rows.Scan(&table, &c.Name, &c.Type, &nullable, &c.Position, &def, &dataType, &extra, &c.Comment); err != nil {
			return err
		}
		if t := in.tables[table]; t != nil {
			c.Nullable = nullable == "YES"
			if t.Kind == "view" {
				c.Comment = ""
			} else {
				c.Default = columnDefault(in.ss.s.mariadb, def, dataType, extra)
				c.OnUpdate = onUpdate(extra)
			}
			if strings.Contains(strings.ToLower(extra), "auto_increment") {
				c.Identity = "auto_increment"
			}
			t.Columns = append(t.Columns, c)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range in.tables {
		slices.SortFunc(t.Columns, func(a, b warehouse.Column) int { return a.Position - b.Position })
	}
	return rows.Close()
}

// exprColumn stands for an expression in a functional index (MySQL 8),
// whose COLUMN_NAME is NULL; an expression is no column a key is made of.
const exprColumn = "<expr>"

type indexPart struct {
	seq    int
	column string
}

func (in *introspector) indexes() error {
	rows, err := in.ss.tx.QueryContext(in.ctx, `
		SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME, INDEX_COMMENT
		FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ?`, in.ss.s.name)
	if err != nil {
		return err
	}
	defer rows.Close()
	type key struct{ table, index string }
	parts := map[key][]indexPart{}
	unique := map[key]bool{}
	comments := map[key]string{}
	var order []key
	for rows.Next() {
		var k key
		var nonUnique, seq int
		var col sql.NullString
		var comment string
		if err := rows.Scan(&k.table, &k.index, &nonUnique, &seq, &col, &comment); err != nil {
			return err
		}
		if in.tables[k.table] == nil {
			continue
		}
		if _, seen := parts[k]; !seen {
			order = append(order, k)
		}
		name := col.String
		if !col.Valid {
			name = exprColumn
		}
		parts[k] = append(parts[k], indexPart{seq, name})
		unique[k] = nonUnique == 0
		comments[k] = comment // each of the index's rows repeats it
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, k := range order {
		p := parts[k]
		slices.SortFunc(p, func(a, b indexPart) int { return a.seq - b.seq })
		cols := make([]string, len(p))
		for i, x := range p {
			cols[i] = x.column
		}
		t := in.tables[k.table]
		// The primary key is reported as such, not as one more index.
		// Its name is always PRIMARY, and said so, as on other engines.
		// A comment on it (PRIMARY KEY (id) COMMENT '…') is the key
		// constraint's, as on engines that comment constraints.
		if k.index == "PRIMARY" {
			t.PrimaryKey, t.PrimaryKeyName = cols, "PRIMARY"
			if comments[k] != "" {
				t.ConstraintComments = map[string]string{"PRIMARY": comments[k]}
			}
			continue
		}
		t.Indexes = append(t.Indexes, warehouse.Index{Name: k.index, Columns: cols, Unique: unique[k], Comment: comments[k]})
	}
	for _, t := range in.tables {
		for _, x := range t.Indexes {
			if !x.Unique || slices.Contains(x.Columns, exprColumn) || sameSet(x.Columns, t.PrimaryKey) {
				continue
			}
			if !slices.ContainsFunc(t.Uniques, func(u []string) bool { return slices.Equal(u, x.Columns) }) {
				t.Uniques = append(t.Uniques, x.Columns)
			}
		}
		slices.SortFunc(t.Uniques, func(a, b []string) int { return slices.Compare(a, b) })
		slices.SortFunc(t.Indexes, func(a, b warehouse.Index) int { return strings.Compare(a.Name, b.Name) })
	}
	return rows.Close()
}

// sameSet reports whether a and b hold the same columns in any order: a
// unique index on the primary key's columns says nothing the key does not.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

type fkPart struct {
	pos         int
	column, ref string
}

func (in *introspector) foreignKeys() error {
	rows, err := in.ss.tx.QueryContext(in.ctx, `
		SELECT TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION, COLUMN_NAME,
			REFERENCED_TABLE_SCHEMA, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
		FROM information_schema.KEY_COLUMN_USAGE
		WHERE TABLE_SCHEMA = ? AND REFERENCED_TABLE_NAME IS NOT NULL`, in.ss.s.name)
	if err != nil {
		return err
	}
	defer rows.Close()
	type key struct{ table, constraint string }
	parts := map[key][]fkPart{}
	refs := map[key]warehouse.TableName{}
	var order []key
	for rows.Next() {
		var k key
		var p fkPart
		var refSchema, refTable string
		if err := rows.Scan(&k.table, &k.constraint, &p.pos, &p.column, &refSchema, &refTable, &p.ref); err != nil {
			return err
		}
		if in.tables[k.table] == nil {
			continue
		}
		if _, seen := parts[k]; !seen {
			order = append(order, k)
		}
		parts[k] = append(parts[k], p)
		ref := warehouse.TableName{Name: refTable}
		// A parent in another database keeps its database, so the name
		// still resolves from this connection.
		if refSchema != in.ss.s.name {
			ref.Schema = refSchema
		}
		refs[k] = ref
	}
	if err := rows.Err(); err != nil {
		return err
	}
	slices.SortFunc(order, func(a, b key) int { return strings.Compare(a.constraint, b.constraint) })
	for _, k := range order {
		p := parts[k]
		slices.SortFunc(p, func(a, b fkPart) int { return a.pos - b.pos })
		fk := warehouse.ForeignKey{Name: k.constraint, RefTable: refs[k]}
		for _, x := range p {
			fk.Columns = append(fk.Columns, x.column)
			fk.RefColumns = append(fk.RefColumns, x.ref)
		}
		t := in.tables[k.table]
		t.ForeignKeys = append(t.ForeignKeys, fk)
	}
	return rows.Close()
}

// EstimateRows returns the server's TABLE_ROWS for t: exact for nothing
// (InnoDB samples it, and MySQL 8 caches it for a day), but free. A view has
// no estimate; the error sends the caller to RowCount.
func (s *Source) EstimateRows(ctx context.Context, t warehouse.TableName) (int64, bool, error) {
	schema := t.Schema
	if schema == "" {
		schema = s.name
	}
	var n sql.NullInt64
	err := s.readOnly(ctx, noLimits, func(ss *session) error {
		return ss.tx.QueryRowContext(ctx, `
			SELECT TABLE_ROWS FROM information_schema.TABLES
			WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?`, schema, t.Name).Scan(&n)
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, fmt.Errorf("mysql: estimate rows of %s: no such table", t)
	case err != nil:
		return 0, false, fmt.Errorf("mysql: estimate rows of %s: %w", t, ctxErr(ctx, err))
	case !n.Valid:
		return 0, false, fmt.Errorf("mysql: estimate rows of %s: the server keeps no estimate (a view?)", t)
	}
	return n.Int64, false, nil
}
