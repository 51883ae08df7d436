package load

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// kind is what a column becomes on the target, decided from its SQLite
// affinity and from the values it actually holds: SQLite lets any column
// hold any value, the targets do not.
type kind int

const (
	kindInt kind = iota
	kindFloat
	kindDecimal // exact with two decimals: NUMERIC(14,2) / DECIMAL(14,2)
	kindText
	kindBlob
)

func (k kind) String() string {
	return [...]string{"int", "float", "decimal", "text", "blob"}[k]
}

type column struct {
	name, decl string
	notNull    bool
	dflt       sql.NullString // the default's SQL text, as SQLite keeps it
	pk         bool

	kind  kind
	keyed bool // in a key, index or foreign key: MySQL cannot index TEXT
	// castText reads the column through CAST(… AS TEXT): it holds numbers
	// next to text, and SQLite's own rendering of them is the faithful one.
	castText bool
	maxLen   int64 // longest text in characters, or blob in bytes
}

type foreignKey struct {
	cols, parentCols   []string
	parent             string
	onDelete, onUpdate string
}

type index struct {
	name   string
	unique bool
	cols   []string
	desc   []bool
}

type table struct {
	name    string
	cols    []*column
	pk      []string
	uniques [][]string // UNIQUE constraints of CREATE TABLE
	indexes []index    // CREATE [UNIQUE] INDEX, kept under their names
	fks     []foreignKey
	rows    int64
	// buffered holds the rows profile read, row after row, when they fit
	// in bufferBudget: loading them then needs no second read of SQLite,
	// which is most of the copy's time (and far more under -race).
	buffered []any
}

func (t *table) column(name string) *column {
	for _, c := range t.cols {
		if strings.EqualFold(c.name, name) {
			return c
		}
	}
	return nil
}

type view struct {
	name, sql string
}

type schema struct {
	tables []*table // parents before children
	views  []view   // in creation order
}

// openSQLite opens path read-only: the loader must never change its source.
func openSQLite(path string) (*sql.DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, c := range []byte(filepath.ToSlash(abs)) {
		// SQLite decodes %XX in a URI path; escaping everything else keeps
		// '?', '#' and '%' in file names from being read as URI syntax.
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("/-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return sql.Open("sqlite", "file://"+b.String()+"?mode=ro&_pragma=query_only(1)")
}

// readSchema reads the tables and views of db and decides every column's
// kind from its data.
func readSchema(ctx context.Context, db *sql.DB) (*schema, error) {
	rows, err := db.QueryContext(ctx, `
		SELECT type, name, coalesce(sql, '') FROM sqlite_schema
		WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
		ORDER BY rowid`)
	if err != nil {
		return nil, err
	}
	var s schema
	var names []string
	for rows.Next() {
		var typ, name, def string
		if err := rows.Scan(&typ, &name, &def); err != nil {
			rows.Close()
			return nil, err
		}
		switch {
		case typ == "view":
			s.views = append(s.views, view{name: name, sql: def})
		case hasPrefixFold(strings.TrimSpace(def), "CREATE VIRTUAL"):
			rows.Close()
			return nil, fmt.Errorf("table %q: virtual tables are not supported", name)
		default:
			names = append(names, name)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, name := range names {
		t, err := readTable(ctx, db, name)
		if err != nil {
			return nil, fmt.Errorf("table %q: %w", name, err)
		}
		s.tables = append(s.tables, t)
	}
	if err := resolveForeignKeys(s.tables); err != nil {
		return nil, err
	}
	for _, t := range s.tables {
		if err := profile(ctx, db, t); err != nil {
			return nil, fmt.Errorf("table %q: %w", t.name, err)
		}
	}
	s.tables = parentsFirst(s.tables)
	return &s, nil
}

func readTable(ctx context.Context, db *sql.DB, name string) (*table, error) {
	t := &table{name: name}
	rows, err := db.QueryContext(ctx,
		`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid`, name)
	if err != nil {
		return nil, err
	}
	var pkPos []int
	for rows.Next() {
		c := &column{}
		var pk int
		if err := rows.Scan(&c.name, &c.decl, &c.notNull, &c.dflt, &pk); err != nil {
			rows.Close()
			return nil, err
		}
		c.pk = pk > 0
		if c.pk {
			pkPos = append(pkPos, pk)
			t.pk = append(t.pk, c.name)
		}
		t.cols = append(t.cols, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// pragma_table_info numbers key columns by their place in the key, which
	// can differ from their place in the table.
	order := make([]int, len(t.pk))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return pkPos[a] - pkPos[b] })
	pk := make([]string, len(t.pk))
	for i, j := range order {
		pk[i] = t.pk[j]
	}
	t.pk = pk

	if err := readIndexes(ctx, db, t); err != nil {
		return nil, err
	}
	if err := readForeignKeys(ctx, db, t); err != nil {
		return nil, err
	}
	return t, nil
}

func readIndexes(ctx context.Context, db *sql.DB, t *table) error {
	rows, err := db.QueryContext(ctx,
		`SELECT name, "unique", origin, partial FROM pragma_index_list(?) ORDER BY seq DESC`, t.name)
	if err != nil {
		return err
	}
	type entry struct {
		name, origin    string
		unique, partial bool
	}
	var list []entry
	for rows.Next() {
		var e entry
		if err := rows.Scan(&e.name, &e.unique, &e.origin, &e.partial); err != nil {
			rows.Close()
			return err
		}
		list = append(list, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, e := range list {
		if e.origin == "pk" {
			continue // the primary key is declared as such
		}
		if e.partial {
			return fmt.Errorf("index %q: partial indexes are not supported", e.name)
		}
		x := index{name: e.name, unique: e.unique}
		cols, err := db.QueryContext(ctx,
			`SELECT cid, coalesce(name, ''), "desc" FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno`, e.name)
		if err != nil {
			return err
		}
		for cols.Next() {
			var cid int
			var name string
			var desc bool
			if err := cols.Scan(&cid, &name, &desc); err != nil {
				cols.Close()
				return err
			}
			if cid < 0 {
				cols.Close()
				return fmt.Errorf("index %q: indexes on expressions or the rowid are not supported", e.name)
			}
			x.cols = append(x.cols, name)
			x.desc = append(x.desc, desc)
		}
		cols.Close()
		if err := cols.Err(); err != nil {
			return err
		}
		if e.origin == "u" {
			if !slices.Equal(x.cols, t.pk) && !slices.ContainsFunc(t.uniques, func(u []string) bool { return slices.Equal(u, x.cols) }) {
				t.uniques = append(t.uniques, x.cols)
			}
			continue
		}
		t.indexes = append(t.indexes, x)
	}
	// Sorted so that the target's constraint names come out the same on
	// every run.
	slices.SortFunc(t.uniques, slices.Compare)
	return nil
}

func readForeignKeys(ctx context.Context, db *sql.DB, t *table) error {
	rows, err := db.QueryContext(ctx,
		`SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id DESC, seq`, t.name)
	if err != nil {
		return err
	}
	defer rows.Close()
	last := -1
	for rows.Next() {
		var id int
		var parent, from, onUpdate, onDelete string
		var to sql.NullString
		if err := rows.Scan(&id, &parent, &from, &to, &onUpdate, &onDelete); err != nil {
			return err
		}
		if id != last {
			t.fks = append(t.fks, foreignKey{parent: parent, onDelete: onDelete, onUpdate: onUpdate})
			last = id
		}
		fk := &t.fks[len(t.fks)-1]
		fk.cols = append(fk.cols, from)
		// An empty "to" stands for "REFERENCES parent" without columns: the
		// parent's key, filled in by resolveForeignKeys.
		fk.parentCols = append(fk.parentCols, to.String)
	}
	return rows.Err()
}

// resolveForeignKeys spells every name in a foreign key the way its table
// declares it: SQLite matches names case-insensitively, the targets (with
// quoted names) do not.
func resolveForeignKeys(tables []*table) error {
	byName := map[string]*table{}
	for _, t := range tables {
		byName[strings.ToLower(t.name)] = t
	}
	for _, t := range tables {
		for i := range t.fks {
			fk := &t.fks[i]
			p, ok := byName[strings.ToLower(fk.parent)]
			if !ok {
				return fmt.Errorf("table %q: foreign key references missing table %q", t.name, fk.parent)
			}
			fk.parent = p.name
			for j, c := range fk.cols {
				col := t.column(c)
				if col == nil {
					return fmt.Errorf("table %q: foreign key on missing column %q", t.name, c)
				}
				fk.cols[j] = col.name
			}
			if slices.Contains(fk.parentCols, "") {
				if len(p.pk) != len(fk.cols) {
					return fmt.Errorf("table %q: foreign key (%s) does not match the key of %q", t.name, strings.Join(fk.cols, ", "), p.name)
				}
				fk.parentCols = slices.Clone(p.pk)
			}
			for j, c := range fk.parentCols {
				col := p.column(c)
				if col == nil {
					return fmt.Errorf("table %q: foreign key references missing column %s.%s", t.name, p.name, c)
				}
				fk.parentCols[j] = col.name
				col.keyed = true
			}
		}
	}
	return nil
}

// affinity is SQLite's column affinity of a declared type (the rules of
// section 3.1 of https://www.sqlite.org/datatype3.html).
func affinity(decl string) string {
	d := strings.ToUpper(decl)
	switch {
	case strings.Contains(d, "INT"):
		return "INTEGER"
	case strings.Contains(d, "CHAR"), strings.Contains(d, "CLOB"), strings.Contains(d, "TEXT"):
		return "TEXT"
	case strings.Contains(d, "BLOB"), d == "":
		return "BLOB"
	case strings.Contains(d, "REAL"), strings.Contains(d, "FLOA"), strings.Contains(d, "DOUB"):
		return "REAL"
	}
	return "NUMERIC"
}

// decimalLimit bounds what NUMERIC(14,2) holds: twelve digits before the point.
const decimalLimit = 1e12

// stats is what one column holds, by SQLite storage class.
type stats struct {
	ints, reals, texts, blobs int64
	unfit                     int64 // numbers NUMERIC(14,2) cannot hold exactly
	maxLen                    int64
}

func (s *stats) add(v any) {
	switch v := v.(type) {
	case int64:
		s.ints++
		if v >= decimalLimit || v <= -decimalLimit {
			s.unfit++
		}
	case float64:
		s.reals++
		// A real fits two decimals when printing it with two and reading
		// that back gives the same double: the decimal then reads back as
		// exactly the value SQLite holds.
		if r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 2, 64), 64); err != nil || r != v || math.Abs(v) >= decimalLimit {
			s.unfit++
		}
	case string:
		s.texts++
		s.maxLen = max(s.maxLen, int64(utf8.RuneCountInString(v)))
	case []byte:
		s.blobs++
		s.maxLen = max(s.maxLen, int64(len(v)))
	}
}

// profile counts rows and what each column holds, then decides the
// column's kind. It reads the rows in Go rather than aggregating in SQLite:
// a dozen typeof() sums per column cost SQLite ten times a plain read.
func profile(ctx context.Context, db *sql.DB, t *table) error {
	for _, c := range t.pk {
		t.column(c).keyed = true
	}
	for _, u := range t.uniques {
		for _, c := range u {
			t.column(c).keyed = true
		}
	}
	for _, x := range t.indexes {
		for _, c := range x.cols {
			t.column(c).keyed = true
		}
	}
	for _, fk := range t.fks {
		for _, c := range fk.cols {
			t.column(c).keyed = true
		}
	}

	rows, err := selectRows(ctx, db, t)
	if err != nil {
		return err
	}
	defer rows.Close()
	st := make([]stats, len(t.cols))
	raw := make([]any, len(t.cols))
	ptrs := make([]any, len(t.cols))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	var buf []any
	size, keep := 0, true
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		t.rows++
		for i, v := range raw {
			st[i].add(v)
			if keep {
				size += valueSize(v)
			}
		}
		if keep {
			buf = append(buf, raw...)
			if keep = size <= bufferBudget; !keep {
				buf = nil
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}

	for i, c := range t.cols {
		s := st[i]
		c.maxLen = s.maxLen
		aff := affinity(c.decl)
		switch {
		case s.blobs > 0:
			if s.ints+s.reals+s.texts > 0 {
				return fmt.Errorf("column %q mixes blobs with other values", c.name)
			}
			c.kind = kindBlob
		case s.texts > 0, aff == "TEXT":
			c.kind = kindText
			c.castText = s.ints+s.reals > 0
			if c.castText {
				// Numbers print as at most 24 characters, which the text
				// length above did not see.
				c.maxLen = max(c.maxLen, 24)
			}
		case aff == "NUMERIC" && isDecimalType(c.decl) && s.unfit == 0:
			c.kind = kindDecimal
		case s.reals > 0, aff == "REAL", aff == "NUMERIC" && isDecimalType(c.decl):
			c.kind = kindFloat
		case s.ints > 0, aff == "INTEGER", aff == "NUMERIC":
			c.kind = kindInt
		default:
			c.kind = kindText // no type and only NULLs: text takes anything later
		}
	}
	// A column read as CAST(… AS TEXT) needs SQLite's rendering of its
	// numbers, which the raw values do not carry.
	if keep && !slices.ContainsFunc(t.cols, func(c *column) bool { return c.castText }) {
		t.buffered = buf
	}
	return nil
}

// bufferBudget bounds the memory one table's buffered rows may take.
const bufferBudget = 256 << 20

// valueSize estimates the memory a value takes in the buffer.
func valueSize(v any) int {
	switch v := v.(type) {
	case string:
		return 32 + len(v)
	case []byte:
		return 40 + len(v)
	}
	return 24
}

// isDecimalType tells money-like NUMERIC columns from the other types of
// NUMERIC affinity (BOOLEAN, DATE, …) that hold integers or text.
func isDecimalType(decl string) bool {
	d := strings.ToUpper(decl)
	return strings.Contains(d, "NUM") || strings.Contains(d, "DEC") || strings.Contains(d, "MONEY")
}

// parentsFirst orders tables so that each comes after the tables its
// foreign keys reference, keeping SQLite's order otherwise. Self-references
// are no constraint; a cycle is broken where it is found (the keys are
// added after the data, so any order loads).
func parentsFirst(tables []*table) []*table {
	done := map[*table]bool{}
	visiting := map[*table]bool{}
	byName := map[string]*table{}
	for _, t := range tables {
		byName[t.name] = t
	}
	out := make([]*table, 0, len(tables))
	var visit func(t *table)
	visit = func(t *table) {
		if done[t] || visiting[t] {
			return
		}
		visiting[t] = true
		for _, fk := range t.fks {
			if p := byName[fk.parent]; p != t {
				visit(p)
			}
		}
		visiting[t] = false
		done[t] = true
		out = append(out, t)
	}
	for _, t := range tables {
		visit(t)
	}
	return out
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// quote quotes an identifier for SQLite, PostgreSQL and for MySQL in
// ANSI_QUOTES mode alike.
func quote(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
