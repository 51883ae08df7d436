package mysql

import (
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Server error numbers that mean a part of the structure cannot be read
// here: an information_schema view or column the server's version lacks,
// or a privilege the user does not hold. The fields stay empty.
const (
	erBadField     = 1054 // unknown column (GENERATION_EXPRESSION, EXPRESSION before they existed)
	erUnknownTable = 1109 // unknown table in information_schema (CHECK_CONSTRAINTS before 8.0.16 / 10.2)
	erNoSuchTable  = 1146
	erSpecificAcc  = 1227 // "Access denied; you need (at least one of) the … privilege(s)"
)

// optional runs one query for structure beyond keys and calls scan for
// each row. A server that lacks the view or column asked for, or refuses
// the user, leaves the fields empty: the discovery goes on without them.
func (in *introspector) optional(what, q string, scan func(*sql.Rows) error) error {
	rows, err := in.ss.tx.QueryContext(in.ctx, q, in.ss.s.name)
	if err != nil {
		switch serverCode(err) {
		case erBadField, erUnknownTable, erNoSuchTable, erSpecificAcc,
			erDBAccessDenied, erTableAccessDenied, erColumnAccessDenied:
			return nil
		}
		return fmt.Errorf("introspect %s of %s: %w", what, in.ss.s.name, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("introspect %s of %s: %w", what, in.ss.s.name, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("introspect %s of %s: %w", what, in.ss.s.name, err)
	}
	return rows.Close()
}

// structure reads what tables declare beyond their keys, one query per
// information_schema view for the whole database.
func (in *introspector) structure() error {
	for _, step := range []func() error{
		in.generated, in.indexExpressions, in.fkActions, in.tableComments,
		in.checks, in.triggers, in.views, in.createStatements,
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// autoIncrement is the table option SHOW CREATE TABLE adds for the next
// number AUTO_INCREMENT gives: a counter, not structure, which every insert
// moves (tbls leaves it out too).
var autoIncrement = regexp.MustCompile(` AUTO_INCREMENT=[0-9]+`)

// createStatements fills in each table's CREATE TABLE as SHOW CREATE TABLE
// writes it. information_schema has no such text, so this is one
// statement per table, unlike the rest of the structure: a statement the
// server answers from the table's definition alone, without reading rows.
// A table the user may not be shown keeps none.
func (in *introspector) createStatements() error {
	names := make([]string, 0, len(in.tables))
	for name, t := range in.tables {
		if t.Kind == "table" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		var table, create string
		err := in.ss.tx.QueryRowContext(in.ctx, "SHOW CREATE TABLE "+QuoteIdent(name)).Scan(&table, &create)
		if err != nil {
			switch serverCode(err) {
			case erSpecificAcc, erDBAccessDenied, erTableAccessDenied, erColumnAccessDenied, erNoSuchTable:
				continue
			}
			return fmt.Errorf("introspect the CREATE TABLE of %s.%s: %w", in.ss.s.name, name, err)
		}
		in.tables[name].CreateStatement = autoIncrement.ReplaceAllString(create, "")
	}
	return nil
}

// column is the column name of table, or nil when the table is not read.
func (in *introspector) column(table, name string) *warehouse.Column {
	t := in.tables[table]
	if t == nil {
		return nil
	}
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// columnDefault is COLUMN_DEFAULT as an SQL expression, the same on MySQL
// and MariaDB for the same declaration. MariaDB (10.2.7 and later) already
// writes one: strings quoted, functions called, and the word NULL for a
// nullable column without a default or with DEFAULT NULL, which MySQL does
// not tell apart either; both are no default (nil). MySQL writes a string
// bare: it is quoted here as MariaDB would quote it, unless EXTRA says the
// default is an expression (DEFAULT_GENERATED) or the column is a number.
// MySQL's CURRENT_TIMESTAMP is written current_timestamp(), as MariaDB does.
func columnDefault(mariadb bool, def sql.NullString, dataType, extra string) *string {
	if !def.Valid {
		return nil
	}
	d := def.String
	switch {
	case mariadb:
		if d == "NULL" {
			return nil
		}
	case strings.HasPrefix(strings.ToUpper(d), "CURRENT_TIMESTAMP"):
		d = "current_timestamp" + strings.TrimPrefix(d[len("CURRENT_TIMESTAMP"):], "()")
		if !strings.HasSuffix(d, ")") {
			d += "()"
		}
	case strings.Contains(strings.ToUpper(extra), "DEFAULT_GENERATED"):
	case numericTypes[strings.ToLower(dataType)]:
	case strings.ToLower(dataType) == "bit" && strings.HasPrefix(d, "b'"):
	default:
		d = "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(d) + "'"
	}
	return &d
}

// onUpdate is the expression EXTRA says a column is set to when its row is
// updated ("on update current_timestamp()" on MariaDB, "DEFAULT_GENERATED
// on update CURRENT_TIMESTAMP" on MySQL), written as MariaDB writes it, as
// columnDefault writes a default; "" for none.
func onUpdate(extra string) string {
	i := strings.Index(strings.ToLower(extra), "on update ")
	if i < 0 {
		return ""
	}
	expr := strings.TrimSpace(extra[i+len("on update "):])
	if strings.HasPrefix(strings.ToUpper(expr), "CURRENT_TIMESTAMP") {
		expr = "current_timestamp" + strings.TrimPrefix(expr[len("CURRENT_TIMESTAMP"):], "()")
		if !strings.HasSuffix(expr, ")") {
			expr += "()"
		}
	}
	return expr
}

// numericTypes are the DATA_TYPEs whose default MySQL writes as a number.
var numericTypes = map[string]bool{
	"tinyint": true, "smallint": true, "mediumint": true, "int": true, "integer": true, "bigint": true,
	"decimal": true, "numeric": true, "float": true, "double": true, "real": true, "year": true,
}

// generated reads the expressions of generated columns. EXTRA says
// STORED GENERATED (MariaDB's PERSISTENT is the same) or VIRTUAL GENERATED.
func (in *introspector) generated() error {
	return in.optional("generated columns", `
		SELECT TABLE_NAME, COLUMN_NAME, GENERATION_EXPRESSION, EXTRA
		FROM information_schema.COLUMNS
		WHERE TABLE_SCHEMA = ? AND GENERATION_EXPRESSION IS NOT NULL AND GENERATION_EXPRESSION <> ''`,
		func(r *sql.Rows) error {
			var table, name, expr, extra string
			if err := r.Scan(&table, &name, &expr, &extra); err != nil {
				return err
			}
			if c := in.column(table, name); c != nil {
				c.Generated = expr
				x := strings.ToUpper(extra)
				c.GeneratedStored = strings.Contains(x, "STORED") || strings.Contains(x, "PERSISTENT")
				c.Default = nil
			}
			return nil
		})
}

// indexExpressions writes the expression of a functional key part (MySQL
// 8.0.13 and later; MariaDB has none) in place of exprColumn.
func (in *introspector) indexExpressions() error {
	if in.ss.s.mariadb {
		return nil
	}
	return in.optional("index expressions", `
		SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, EXPRESSION
		FROM information_schema.STATISTICS
		WHERE TABLE_SCHEMA = ? AND EXPRESSION IS NOT NULL`,
		func(r *sql.Rows) error {
			var table, index, expr string
			var seq int
			if err := r.Scan(&table, &index, &seq, &expr); err != nil {
				return err
			}
			if t := in.tables[table]; t != nil {
				for i := range t.Indexes {
					if x := &t.Indexes[i]; x.Name == index && seq >= 1 && seq <= len(x.Columns) {
						x.Columns[seq-1] = expr
					}
				}
			}
			return nil
		})
}

// fkActions reads each foreign key's ON DELETE and ON UPDATE rules.
func (in *introspector) fkActions() error {
	return in.optional("foreign key actions", `
		SELECT TABLE_NAME, CONSTRAINT_NAME, DELETE_RULE, UPDATE_RULE
		FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?`,
		func(r *sql.Rows) error {
			var table, name, onDelete, onUpdate string
			if err := r.Scan(&table, &name, &onDelete, &onUpdate); err != nil {
				return err
			}
			if t := in.tables[table]; t != nil {
				for i := range t.ForeignKeys {
					if fk := &t.ForeignKeys[i]; fk.Name == name {
						fk.OnDelete, fk.OnUpdate = onDelete, onUpdate
					}
				}
			}
			return nil
		})
}

// tableComments reads TABLE_COMMENT. A view's is the word VIEW, which is
// no comment; old InnoDB versions append "InnoDB free: …" to a table's.
func (in *introspector) tableComments() error {
	return in.optional("table comments", `
		SELECT TABLE_NAME, TABLE_COMMENT FROM information_schema.TABLES
		WHERE TABLE_SCHEMA = ? AND TABLE_COMMENT <> ''`,
		func(r *sql.Rows) error {
			var table, comment string
			if err := r.Scan(&table, &comment); err != nil {
				return err
			}
			t := in.tables[table]
			if t == nil || t.Kind == "view" && comment == "VIEW" {
				return nil
			}
			if i := strings.Index(comment, "InnoDB free: "); i >= 0 {
				comment = strings.TrimRight(comment[:i], "; ")
			}
			t.Comment = comment
			return nil
		})
}

// checks reads CHECK constraints, sorted by name. MariaDB names each
// table's checks apart (a column's check is named after the column, and it
// adds json_valid checks of its JSON columns, which are declared checks all
// the same) and lists the table in CHECK_CONSTRAINTS; MySQL names them
// across the database and lists the table in TABLE_CONSTRAINTS only.
// MySQL wraps a clause in parentheses, which are taken off.
func (in *introspector) checks() error {
	q := `
		SELECT TABLE_NAME, CONSTRAINT_NAME, CHECK_CLAUSE
		FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?`
	if !in.ss.s.mariadb {
		q = `
		SELECT tc.TABLE_NAME, cc.CONSTRAINT_NAME, cc.CHECK_CLAUSE
		FROM information_schema.CHECK_CONSTRAINTS cc
		JOIN information_schema.TABLE_CONSTRAINTS tc
		  ON tc.CONSTRAINT_SCHEMA = cc.CONSTRAINT_SCHEMA AND tc.CONSTRAINT_NAME = cc.CONSTRAINT_NAME
		 AND tc.CONSTRAINT_TYPE = 'CHECK'
		WHERE cc.CONSTRAINT_SCHEMA = ?`
	}
	err := in.optional("checks", q, func(r *sql.Rows) error {
		var table string
		var c warehouse.Check
		if err := r.Scan(&table, &c.Name, &c.Expression); err != nil {
			return err
		}
		if t := in.tables[table]; t != nil {
			c.Expression = warehouse.Unwrap(Grammar, c.Expression)
			t.Checks = append(t.Checks, c)
		}
		return nil
	})
	for _, t := range in.tables {
		slices.SortFunc(t.Checks, func(a, b warehouse.Check) int { return strings.Compare(a.Name, b.Name) })
	}
	return err
}

// triggerEvents orders the events of one trigger as Trigger.Events does.
var triggerEvents = []string{"INSERT", "UPDATE", "DELETE"}

// triggers reads the triggers, sorted by name. The server keeps only a
// trigger's body; Definition is the CREATE TRIGGER that declares it, built
// from TRIGGERS' columns (without DEFINER, FOLLOWS or PRECEDES).
func (in *introspector) triggers() error {
	type trigger struct {
		table string
		t     warehouse.Trigger
		body  string
	}
	byName := map[string]*trigger{}
	err := in.optional("triggers", `
		SELECT TRIGGER_NAME, EVENT_OBJECT_TABLE, ACTION_TIMING, EVENT_MANIPULATION, ACTION_STATEMENT
		FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?`,
		func(r *sql.Rows) error {
			var name, table, timing, event, body string
			if err := r.Scan(&name, &table, &timing, &event, &body); err != nil {
				return err
			}
			tr := byName[name]
			if tr == nil {
				tr = &trigger{table: table, t: warehouse.Trigger{Name: name, Timing: strings.ToUpper(timing)}, body: body}
				byName[name] = tr
			}
			// A server whose triggers fire on several events lists one
			// row per event.
			tr.t.Events = append(tr.t.Events, strings.ToUpper(event))
			return nil
		})
	if err != nil {
		return err
	}
	for _, tr := range byName {
		t := in.tables[tr.table]
		if t == nil {
			continue
		}
		slices.SortFunc(tr.t.Events, func(a, b string) int {
			return slices.Index(triggerEvents, a) - slices.Index(triggerEvents, b)
		})
		tr.t.Definition = "CREATE TRIGGER " + QuoteIdent(tr.t.Name) + " " + tr.t.Timing + " " +
			strings.Join(tr.t.Events, " OR ") + " ON " + QuoteIdent(tr.table) + " FOR EACH ROW " + tr.body
		t.Triggers = append(t.Triggers, tr.t)
	}
	for _, t := range in.tables {
		slices.SortFunc(t.Triggers, func(a, b warehouse.Trigger) int { return strings.Compare(a.Name, b.Name) })
	}
	return nil
}

// views reads each view's query as the server keeps it, and what it reads.
// VIEW_DEFINITION is empty unless the user may SHOW VIEW (or defined the
// view): then so is Reads.
func (in *introspector) views() error {
	defs := map[string]string{}
	err := in.optional("view definitions", `
		SELECT TABLE_NAME, VIEW_DEFINITION FROM information_schema.VIEWS WHERE TABLE_SCHEMA = ?`,
		func(r *sql.Rows) error {
			var name string
			var def sql.NullString
			if err := r.Scan(&name, &def); err != nil {
				return err
			}
			if t := in.tables[name]; t != nil && def.String != "" {
				t.Definition = def.String
				defs[name] = def.String
			}
			return nil
		})
	if err != nil {
		return err
	}
	for name, def := range defs {
		in.tables[name].Reads = viewReads(def, in.ss.s.name, in.known)
	}
	return nil
}

// viewReads lists the tables and views of database db that a view's
// definition reads. The server keeps a definition in a canonical form
// where every table is named with its database (`db`.`t`) and every column
// with a table or alias only (`t`.`c`), so a two-part name starting with
// db, not followed by a third part, is a table. A table of another
// database cannot be told from a column that way, and is left out; so is
// a name that is no table or view of db the user can see (known).
func viewReads(def, db string, known map[string]bool) []warehouse.TableName {
	toks, err := Grammar.Tokenize(def)
	if err != nil {
		return nil
	}
	ident := func(i int) bool {
		return i >= 0 && i < len(toks) && (toks[i].Kind == warehouse.TokenWord || toks[i].Kind == warehouse.TokenQuotedIdent)
	}
	dot := func(i int) bool {
		return i >= 0 && i < len(toks) && toks[i].IsPunct(".")
	}
	var out []warehouse.TableName
	for i := range toks {
		if !ident(i) || toks[i].Ident() != db || dot(i-1) || !dot(i+1) || !ident(i+2) || dot(i+3) {
			continue
		}
		if name := toks[i+2].Ident(); known[name] {
			out = append(out, warehouse.TableName{Name: name})
		}
	}
	slices.SortFunc(out, func(a, b warehouse.TableName) int { return compareNames(a.Name, b.Name) })
	return slices.Compact(out)
}
