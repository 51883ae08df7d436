package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// schemaObject is one row of the table list, before its structure is read.
type schemaObject struct {
	name, kind  string // kind as pragma_table_list says: table, view, virtual, shadow
	withoutRow  bool
	createTable string
}

// Tables lists the tables and views of the main schema with their declared
// structure, sorted by name. Internal sqlite_* tables and the shadow tables
// behind virtual tables (FTS, R-Tree) are left out. A view that no longer
// compiles and a virtual table whose module this build lacks are left out
// too: nothing could be read from them.
func (s *Source) Tables(ctx context.Context) ([]warehouse.Table, error) {
	var out []warehouse.Table
	var skipped []warehouse.Skipped
	var names *schemaNames
	err := s.read(always, func(db *sql.DB) error {
		var err error
		out, skipped, names, err = tables(ctx, db)
		return err
	})
	if err != nil {
		if errors.Is(err, errChanged) {
			err = fmt.Errorf("sqlite: tables: %w", err)
		}
		return nil, err
	}
	s.mu.Lock()
	s.skipped = skipped
	s.listed, s.names = append([]warehouse.Table{}, out...), names
	s.listGen++ // the guard's inventory follows this listing
	s.mu.Unlock()
	return out, nil
}

func tables(ctx context.Context, db *sql.DB) ([]warehouse.Table, []warehouse.Skipped, *schemaNames, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sqlite: tables: %w", err)
	}
	defer conn.Close()
	in := &introspector{ctx: ctx, conn: conn, pk: map[string][]string{}, cols: map[string][]string{}, skipped: []warehouse.Skipped{}}

	objs, err := in.objects()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sqlite: tables: %w", err)
	}
	if in.indexSQL, err = in.indexDefinitions(); err != nil {
		return nil, nil, nil, fmt.Errorf("sqlite: tables: %w", err)
	}
	if in.triggers, err = in.triggerDefinitions(); err != nil {
		return nil, nil, nil, fmt.Errorf("sqlite: tables: %w", err)
	}
	names, err := in.schemaNames(objs)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sqlite: tables: %w", err)
	}
	in.names = map[string]string{}
	for _, o := range objs {
		in.names[foldASCII(o.name)] = o.name
	}

	var out []warehouse.Table
	for _, o := range listed(objs) {
		t, ok, err := in.table(o)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("sqlite: tables: %s: %w", o.name, ctxErr(ctx, err))
		}
		if ok {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b warehouse.Table) int {
		if c := strings.Compare(strings.ToLower(a.Name.Name), strings.ToLower(b.Name.Name)); c != 0 {
			return c
		}
		return strings.Compare(a.Name.Name, b.Name.Name)
	})
	if out == nil {
		out = []warehouse.Table{}
	}
	slices.SortFunc(in.skipped, func(a, b warehouse.Skipped) int { return strings.Compare(a.Table.Name, b.Table.Name) })
	return out, in.skipped, names, nil
}

// Skipped lists what the last Tables call left out (views that do not
// compile, virtual tables without their module), so the report can say so.
func (s *Source) Skipped(ctx context.Context) ([]warehouse.Skipped, error) {
	s.mu.Lock()
	listed := s.skipped != nil
	s.mu.Unlock()
	if !listed {
		if _, err := s.Tables(ctx); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]warehouse.Skipped{}, s.skipped...), nil
}

type introspector struct {
	ctx      context.Context
	conn     *sql.Conn
	names    map[string]string              // ASCII-folded name → name as created, for every object
	indexSQL map[string]string              // index name → CREATE INDEX text
	triggers map[string][]warehouse.Trigger // ASCII-folded table or view name → its triggers, by name
	pk       map[string][]string            // table → primary key, filled lazily for FK parents
	cols     map[string][]string            // table → column names, likewise
	skipped  []warehouse.Skipped            // objects left out, and why
}

func (in *introspector) objects() ([]schemaObject, error) {
	rows, err := in.conn.QueryContext(in.ctx, `
		SELECT l.name, l.type, l.wr, coalesce(s.sql, '')
		FROM pragma_table_list AS l
		LEFT JOIN sqlite_schema AS s ON s.name = l.name AND s.type IN ('table', 'view')
		WHERE l.schema = 'main'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var objs []schemaObject
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.name, &o.kind, &o.withoutRow, &o.createTable); err != nil {
			return nil, err
		}
		objs = append(objs, o)
	}
	return objs, rows.Err()
}

func (in *introspector) indexDefinitions() (map[string]string, error) {
	rows, err := in.conn.QueryContext(in.ctx,
		`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			return nil, err
		}
		m[name] = def
	}
	return m, rows.Err()
}

// triggerDefinitions reads every trigger of the main schema, by the table
// or view it fires on. A trigger whose text does not read as one is left
// out rather than shown with a guessed timing.
func (in *introspector) triggerDefinitions() (map[string][]warehouse.Trigger, error) {
	rows, err := in.conn.QueryContext(in.ctx,
		`SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'trigger' AND sql IS NOT NULL ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[string][]warehouse.Trigger{}
	for rows.Next() {
		var name, table, def string
		if err := rows.Scan(&name, &table, &def); err != nil {
			return nil, err
		}
		if tr, ok := parseTrigger(name, def); ok {
			m[foldASCII(table)] = append(m[foldASCII(table)], tr)
		}
	}
	return m, rows.Err()
}

// shadowSuffixes name the tables FTS3/4/5 and R-Tree keep behind a virtual
// table. pragma_table_list marks them "shadow" only when this build has the
// module; modernc has FTS5 and R-Tree but not FTS3/4, whose shadow tables
// would otherwise show up as ordinary tables.
var shadowSuffixes = []string{
	"content", "segments", "segdir", "docsize", "stat", // FTS3/4
	"data", "idx", "config", // FTS5
	"node", "rowid", "parent", // R-Tree
}

// listed keeps the objects a user would call tables and views.
func listed(objs []schemaObject) []schemaObject {
	var virtual []string
	for _, o := range objs {
		if o.kind == "virtual" {
			virtual = append(virtual, foldASCII(o.name)+"_")
		}
	}
	isShadow := func(name string) bool {
		name = foldASCII(name)
		for _, v := range virtual {
			if rest, ok := strings.CutPrefix(name, v); ok && slices.Contains(shadowSuffixes, rest) {
				return true
			}
		}
		return false
	}
	var out []schemaObject
	for _, o := range objs {
		switch {
		case strings.HasPrefix(foldASCII(o.name), "sqlite_"):
		case o.kind == "shadow":
		case o.kind == "table" && isShadow(o.name):
		case o.kind == "table", o.kind == "view", o.kind == "virtual":
			out = append(out, o)
		}
	}
	return out
}

// column is one row of pragma_table_xinfo.
type column struct {
	name, typ   string
	notNull, pk int
	hidden      int            // 0 plain, 1 hidden (virtual tables), 2 generated virtual, 3 generated stored
	dflt        sql.NullString // the DEFAULT expression as written
}

func (in *introspector) columns(table string) ([]column, error) {
	rows, err := in.conn.QueryContext(in.ctx,
		`SELECT name, type, "notnull", pk, hidden, dflt_value FROM pragma_table_xinfo(?, 'main') ORDER BY cid`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []column
	for rows.Next() {
		var c column
		if err := rows.Scan(&c.name, &c.typ, &c.notNull, &c.pk, &c.hidden, &c.dflt); err != nil {
			return nil, err
		}
		if c.hidden == 1 {
			continue
		}
		cols = append(cols, c)
	}
	return cols, rows.Err()
}

func primaryKey(cols []column) []string {
	var pkCols []column
	for _, c := range cols {
		if c.pk > 0 {
			pkCols = append(pkCols, c)
		}
	}
	slices.SortFunc(pkCols, func(a, b column) int { return a.pk - b.pk })
	pk := make([]string, len(pkCols))
	for i, c := range pkCols {
		pk[i] = c.name
	}
	return pk
}

func (in *introspector) table(o schemaObject) (warehouse.Table, bool, error) {
	t := warehouse.Table{
		Name:        warehouse.TableName{Name: o.name},
		Kind:        "table",
		Columns:     []warehouse.Column{},
		PrimaryKey:  []string{},
		ForeignKeys: []warehouse.ForeignKey{},
		Uniques:     [][]string{},
		Indexes:     []warehouse.Index{},
	}
	if o.kind == "view" {
		t.Kind = "view"
	}
	cols, err := in.columns(o.name)
	if err != nil {
		if o.kind == "table" {
			return t, false, err
		}
		// a broken view, or a virtual table without its module
		what := "the view does not compile"
		if o.kind != "view" {
			what = "the virtual table's module is not available"
		}
		in.skipped = append(in.skipped, warehouse.Skipped{Table: t.Name, Kind: t.Kind, Reason: what + ": " + err.Error()})
		return t, false, nil
	}
	t.PrimaryKey = primaryKey(cols)
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	in.pk[o.name], in.cols[o.name] = t.PrimaryKey, names
	if o.kind == "view" {
		// pragma_table_xinfo resolves a view's columns without compiling all
		// of it; preparing (not running) the SELECT does, and catches views
		// written for another engine that fail on every read.
		stmt, err := in.conn.PrepareContext(in.ctx, "SELECT * FROM "+QuoteIdent(o.name))
		if err != nil {
			in.skipped = append(in.skipped, warehouse.Skipped{Table: t.Name, Kind: "view", Reason: "the view does not compile: " + err.Error()})
			return t, false, nil
		}
		stmt.Close()
		for i, c := range cols {
			t.Columns = append(t.Columns, warehouse.Column{Name: c.name, Type: c.typ, Nullable: true, Position: i + 1})
		}
		t.Definition = warehouse.ViewQuery(Grammar, o.createTable)
		t.Reads = viewReads(t.Definition, o.name, in.names)
		t.Triggers = in.triggers[foldASCII(o.name)]
		return t, true, nil
	}
	var ct createTable
	if o.kind == "table" {
		ct = parseCreateTable(o.createTable) // a virtual table's arguments are its module's
	}
	// The statement as SQLite keeps it, a virtual table's CREATE VIRTUAL
	// TABLE too: what tbls shows as the table's definition.
	t.CreateStatement = o.createTable

	idx, pkIndex, err := in.indexes(o.name)
	if err != nil {
		return t, false, err
	}
	// A rowid table whose one-column key got no index of its own has an
	// INTEGER PRIMARY KEY: the key is the rowid and cannot be NULL. Other
	// keys of rowid tables can hold NULL (an old SQLite quirk kept for
	// compatibility); WITHOUT ROWID keys cannot.
	keyNotNull := o.withoutRow || o.kind == "table" && len(t.PrimaryKey) == 1 && !pkIndex
	for i, c := range cols {
		col := warehouse.Column{
			Name:     c.name,
			Type:     c.typ,
			Nullable: c.notNull == 0 && !(c.pk > 0 && keyNotNull),
			Position: i + 1,
		}
		// DEFAULT NULL is no default, as on every engine (MySQL cannot
		// tell the two apart).
		if c.dflt.Valid && !strings.EqualFold(strings.TrimSpace(c.dflt.String), "NULL") {
			col.Default = &c.dflt.String
		}
		if c.hidden == 2 || c.hidden == 3 {
			col.Generated = ct.generated[foldASCII(c.name)]
			col.GeneratedStored = c.hidden == 3
		}
		// Only the AUTOINCREMENT keyword: every INTEGER PRIMARY KEY is the
		// rowid and numbered when left NULL, but only AUTOINCREMENT
		// promises never to reuse a number, the promise an identity makes.
		if ct.autoinc[foldASCII(c.name)] {
			col.Identity = "auto_increment"
		}
		t.Columns = append(t.Columns, col)
	}
	t.PrimaryKeyName = ct.pkName
	t.Checks = ct.checks
	t.Triggers = in.triggers[foldASCII(o.name)]

	for _, x := range idx {
		if x.unique && !x.partial && !slices.Contains(x.columns, exprColumn) && !sameSet(x.columns, t.PrimaryKey) {
			if !slices.ContainsFunc(t.Uniques, func(u []string) bool { return slices.Equal(u, x.columns) }) {
				t.Uniques = append(t.Uniques, x.columns)
			}
		}
		if !x.auto {
			def := in.indexSQL[x.name]
			ix := warehouse.Index{Name: x.name, Columns: x.display, Unique: x.unique, Definition: def}
			if x.partial {
				ix.Predicate = indexPredicate(def)
			}
			t.Indexes = append(t.Indexes, ix)
		}
	}
	slices.SortFunc(t.Uniques, func(a, b []string) int { return slices.Compare(a, b) })
	slices.SortFunc(t.Indexes, func(a, b warehouse.Index) int { return strings.Compare(a.Name, b.Name) })

	if t.ForeignKeys, err = in.foreignKeys(o.name, names); err != nil {
		return t, false, err
	}
	nameForeignKeys(t.ForeignKeys, ct.fks)
	return t, true, nil
}

// exprColumn stands for an expression in an index's column list when
// deciding uniqueness; an expression is no column a key could be made of.
const exprColumn = "\x00expr"

type index struct {
	name    string
	unique  bool
	partial bool
	auto    bool     // sqlite_autoindex_*: made by a UNIQUE constraint
	columns []string // key columns; exprColumn for expressions
	display []string // the same, expressions as their SQL text
}

// indexes returns the table's indexes other than the primary key's, and
// whether the primary key has an index of its own (origin "pk").
func (in *introspector) indexes(table string) ([]index, bool, error) {
	rows, err := in.conn.QueryContext(in.ctx,
		`SELECT name, "unique", origin, partial FROM pragma_index_list(?, 'main')`, table)
	if err != nil {
		return nil, false, err
	}
	var list []index
	pkIndex := false
	for rows.Next() {
		var x index
		var origin string
		if err := rows.Scan(&x.name, &x.unique, &origin, &x.partial); err != nil {
			rows.Close()
			return nil, false, err
		}
		if origin == "pk" {
			pkIndex = true
			continue
		}
		x.auto = origin == "u" || strings.HasPrefix(x.name, "sqlite_autoindex_")
		list = append(list, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	for i := range list {
		if err := in.indexColumns(&list[i]); err != nil {
			return nil, false, err
		}
	}
	return list, pkIndex, nil
}

func (in *introspector) indexColumns(x *index) error {
	rows, err := in.conn.QueryContext(in.ctx,
		`SELECT cid, name FROM pragma_index_xinfo(?, 'main') WHERE key = 1 ORDER BY seqno`, x.name)
	if err != nil {
		return err
	}
	defer rows.Close()
	terms := indexTerms(in.indexSQL[x.name])
	for i := 0; rows.Next(); i++ {
		var cid int
		var name sql.NullString
		if err := rows.Scan(&cid, &name); err != nil {
			return err
		}
		switch {
		case cid >= 0:
			x.columns = append(x.columns, name.String)
			x.display = append(x.display, name.String)
		case cid == -1:
			x.columns = append(x.columns, "rowid")
			x.display = append(x.display, "rowid")
		default:
			x.columns = append(x.columns, exprColumn)
			text := "<expr>"
			if i < len(terms) {
				text = terms[i]
			}
			x.display = append(x.display, text)
		}
	}
	if len(terms) != len(x.display) {
		// The text did not parse into one term per key column; an
		// expression's text could be the wrong one, so show none.
		for i, c := range x.columns {
			if c == exprColumn {
				x.display[i] = "<expr>"
			}
		}
	}
	return rows.Err()
}

func (in *introspector) foreignKeys(table string, childCols []string) ([]warehouse.ForeignKey, error) {
	rows, err := in.conn.QueryContext(in.ctx,
		`SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?, 'main') ORDER BY id, seq`, table)
	if err != nil {
		return nil, err
	}
	type fk struct {
		id                 int
		parent             string
		from, to           []string
		omitted            bool
		onUpdate, onDelete string
	}
	var fks []*fk
	for rows.Next() {
		var id int
		var parent, from, onUpdate, onDelete string
		var to sql.NullString
		if err := rows.Scan(&id, &parent, &from, &to, &onUpdate, &onDelete); err != nil {
			rows.Close()
			return nil, err
		}
		if len(fks) == 0 || fks[len(fks)-1].id != id {
			fks = append(fks, &fk{id: id, parent: parent, onUpdate: onUpdate, onDelete: onDelete})
		}
		f := fks[len(fks)-1]
		f.from = append(f.from, resolve(childCols, from))
		f.to = append(f.to, to.String)
		f.omitted = f.omitted || !to.Valid
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// SQLite lists a table's foreign keys last-declared first.
	slices.Reverse(fks)

	out := make([]warehouse.ForeignKey, 0, len(fks))
	for _, f := range fks {
		parent := f.parent
		if real, ok := in.names[foldASCII(parent)]; ok {
			parent = real
		}
		refCols := f.to
		if f.omitted {
			// "REFERENCES parent" without columns means the parent's key.
			pk, err := in.parentKey(parent)
			if err != nil {
				return nil, err
			}
			refCols = pk
		} else if cols, err := in.parentColumns(parent); err == nil {
			for i, c := range refCols {
				refCols[i] = resolve(cols, c)
			}
		}
		out = append(out, warehouse.ForeignKey{
			Columns:    f.from,
			RefTable:   warehouse.TableName{Name: parent},
			RefColumns: refCols,
			OnDelete:   f.onDelete,
			OnUpdate:   f.onUpdate,
		})
	}
	return out, nil
}

// nameForeignKeys gives the foreign keys the names their CONSTRAINT
// clauses give them. The pragma lists them in the text's order; when the
// text read differs (another count, other columns), no name is given
// rather than a wrong one.
func nameForeignKeys(fks []warehouse.ForeignKey, declared []textFK) {
	if len(fks) != len(declared) {
		return
	}
	for i, f := range fks {
		if !slices.EqualFunc(f.Columns, declared[i].columns, func(c, d string) bool { return foldASCII(c) == d }) {
			return
		}
	}
	for i := range fks {
		fks[i].Name = declared[i].name
	}
}

// parentKey is the primary key of a referenced table; empty when the table
// is missing or has no declared key (SQLite then rejects the FK at use).
func (in *introspector) parentKey(table string) ([]string, error) {
	if _, err := in.parentColumns(table); err != nil {
		return []string{}, nil
	}
	return in.pk[table], nil
}

func (in *introspector) parentColumns(table string) ([]string, error) {
	if cols, ok := in.cols[table]; ok {
		return cols, nil
	}
	if _, ok := in.names[foldASCII(table)]; !ok {
		return nil, fmt.Errorf("no table %q", table)
	}
	cols, err := in.columns(table)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	in.pk[table], in.cols[table] = primaryKey(cols), names
	return names, nil
}

// resolve returns the column of cols that name refers to: SQLite matches
// identifiers ASCII-case-insensitively, and a declaration may spell a
// column differently from its table.
func resolve(cols []string, name string) string {
	if slices.Contains(cols, name) {
		return name
	}
	f := foldASCII(name)
	for _, c := range cols {
		if foldASCII(c) == f {
			return c
		}
	}
	return name
}

// foldASCII lowercases ASCII letters only, as SQLite does when it compares
// identifiers ("NAÏVE" and "naïve" are two tables to SQLite).
func foldASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// indexTerms splits the column list of a CREATE INDEX statement into its
// terms, with ASC/DESC dropped, so an expression can be shown as written.
// It returns nil when the text does not have the expected shape.
func indexTerms(def string) []string {
	var terms []string
	depth, start := 0, -1
	for i := 0; i < len(def); i++ {
		switch c := def[i]; c {
		case '\'', '"', '`':
			j := i + 1
			for j < len(def) {
				if def[j] == c {
					if j+1 < len(def) && def[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			i = j
		case '[':
			if j := strings.IndexByte(def[i:], ']'); j >= 0 {
				i += j
			} else {
				return nil
			}
		case '-':
			if strings.HasPrefix(def[i:], "--") {
				j := strings.IndexByte(def[i:], '\n')
				if j < 0 {
					return nil
				}
				i += j
			}
		case '/':
			if strings.HasPrefix(def[i:], "/*") {
				j := strings.Index(def[i+2:], "*/")
				if j < 0 {
					return nil
				}
				i += j + 3
			}
		case '(':
			depth++
			if depth == 1 && start < 0 {
				start = i + 1
			}
		case ')':
			depth--
			if depth == 0 && start >= 0 {
				terms = append(terms, cleanTerm(def[start:i]))
				return terms
			}
		case ',':
			if depth == 1 && start >= 0 {
				terms = append(terms, cleanTerm(def[start:i]))
				start = i + 1
			}
		}
	}
	return nil
}

func cleanTerm(s string) string {
	s = strings.TrimSpace(s)
	u := strings.ToUpper(s)
	for _, dir := range []string{" ASC", " DESC"} {
		if strings.HasSuffix(u, dir) {
			return strings.TrimSpace(s[:len(s)-len(dir)])
		}
	}
	return s
}
