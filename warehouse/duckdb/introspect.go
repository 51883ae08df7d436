package duckdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Tables lists the tables and views of the database (every schema but
// DuckDB's internal ones and temporary objects) with their declared
// structure, sorted by schema ("" for main first) and name. A view that
// fails to read is left out and reported by Skipped: in a database file,
// a view over external files cannot read them, since file access is off.
//
// The list is also what the guard lets a statement read: each call
// refreshes the guard's inventory.
func (s *Source) Tables(ctx context.Context) ([]warehouse.Table, error) {
	tables, _, err := s.introspect(ctx)
	if err != nil {
		return nil, fmt.Errorf("duckdb: tables: %w", ctxErr(ctx, err))
	}
	if err := s.refreshInventory(ctx, tables); err != nil {
		return nil, fmt.Errorf("duckdb: tables: %w", ctxErr(ctx, err))
	}
	return tables, nil
}

// Skipped lists the tables Tables leaves out and the data files of a
// folder source that no view could be made of, with the reason.
func (s *Source) Skipped(ctx context.Context) ([]warehouse.Skipped, error) {
	_, skipped, err := s.introspect(ctx)
	if err != nil {
		return nil, fmt.Errorf("duckdb: skipped: %w", ctxErr(ctx, err))
	}
	return append(slices.Clone(s.skipped), skipped...), nil
}

// key identifies a table across the catalog queries, with DuckDB's schema
// names (main not yet mapped to "").
type key struct{ schema, name string }

func tableName(k key) warehouse.TableName {
	if k.schema == "main" {
		return warehouse.TableName{Name: k.name}
	}
	return warehouse.TableName{Schema: k.schema, Name: k.name}
}

// The catalog functions list every attached database; only the one the
// source opened (the current one) is the user's. temp holds nothing of
// theirs, system holds DuckDB's own schemas.
const (
	objectsSQL = `
		SELECT schema_name, table_name, 'table', coalesce(comment, ''), coalesce(sql, '') FROM duckdb_tables()
		WHERE database_name = current_database() AND NOT internal AND NOT temporary
		UNION ALL
		SELECT schema_name, view_name, 'view', coalesce(comment, ''), coalesce(sql, '') FROM duckdb_views()
		WHERE database_name = current_database() AND NOT internal AND NOT temporary`
	columnsSQL = `
		SELECT schema_name, table_name, column_name, column_index, data_type, is_nullable,
		       column_default, coalesce(comment, '')
		FROM duckdb_columns()
		WHERE database_name = current_database() AND NOT internal
		ORDER BY schema_name, table_name, column_index`
	constraintsSQL = `
		SELECT schema_name, table_name, constraint_type, constraint_name,
		       constraint_column_names, coalesce(referenced_table, ''), referenced_column_names,
		       coalesce(expression, '')
		FROM duckdb_constraints()
		WHERE database_name = current_database()
		  AND constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY', 'CHECK')
		ORDER BY schema_name, table_name, constraint_index`
	indexesSQL = `
		SELECT schema_name, table_name, index_name, is_unique, coalesce(sql, '')
		FROM duckdb_indexes()
		WHERE database_name = current_database()`
)

func (s *Source) introspect(ctx context.Context) ([]warehouse.Table, []warehouse.Skipped, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()

	tables := map[key]*warehouse.Table{}
	var order []key
	// The statements that create each table, for its generated columns.
	creates := map[key]string{}
	err = each(ctx, conn, objectsSQL, func(r *sql.Rows) error {
		var k key
		var kind, comment, def string
		if err := r.Scan(&k.schema, &k.name, &kind, &comment, &def); err != nil {
			return err
		}
		if s.files && kind == "view" {
			kind = "table" // a data file behind a view of our own
			comment, def = "", ""
		}
		var create string
		if kind == "table" {
			create, creates[k], def = def, def, ""
		}
		tables[k] = &warehouse.Table{
			Comment:         comment,
			CreateStatement: create,
			Definition:      warehouse.ViewQuery(Grammar, def),
			Name:            tableName(k),
			Kind:            kind,
			Columns:         []warehouse.Column{},
			PrimaryKey:      []string{},
			ForeignKeys:     []warehouse.ForeignKey{},
			Uniques:         [][]string{},
			Indexes:         []warehouse.Index{},
		}
		order = append(order, k)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("list tables: %w", err)
	}

	err = each(ctx, conn, columnsSQL, func(r *sql.Rows) error {
		var k key
		var c warehouse.Column
		if err := r.Scan(&k.schema, &k.name, &c.Name, &c.Position, &c.Type, &c.Nullable, &c.Default, &c.Comment); err != nil {
			return err
		}
		if t := tables[k]; t != nil {
			// DEFAULT NULL is no default, as on every engine (MySQL cannot
			// tell the two apart).
			if s.files || c.Default != nil && strings.EqualFold(strings.TrimSpace(*c.Default), "NULL") {
				c.Default = nil
			}
			if s.files {
				c.Comment = ""
			}
			t.Columns = append(t.Columns, c)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("columns: %w", err)
	}

	err = each(ctx, conn, constraintsSQL, func(r *sql.Rows) error {
		var k key
		var typ, name, refTable, expr string
		var cols, refCols []any
		if err := r.Scan(&k.schema, &k.name, &typ, &name, &cols, &refTable, &refCols, &expr); err != nil {
			return err
		}
		t := tables[k]
		if t == nil {
			return nil
		}
		switch typ {
		case "PRIMARY KEY":
			// DuckDB keeps no constraint's name; duckdb_constraints()
			// makes one up from the table and columns, which is what
			// the key, foreign keys and checks are called here.
			t.PrimaryKey, t.PrimaryKeyName = strs(cols), name
		case "CHECK":
			t.Checks = append(t.Checks, warehouse.Check{Name: name, Expression: warehouse.Unwrap(Grammar, expr)})
		case "UNIQUE":
			t.Uniques = append(t.Uniques, strs(cols))
		case "FOREIGN KEY":
			// DuckDB keeps a foreign key inside its table's schema.
			t.ForeignKeys = append(t.ForeignKeys, warehouse.ForeignKey{
				Name:       name,
				Columns:    strs(cols),
				RefTable:   tableName(key{k.schema, refTable}),
				RefColumns: strs(refCols),
				// The only actions DuckDB has (it refuses CASCADE, SET
				// NULL and SET DEFAULT), as its information_schema says.
				OnDelete: "NO ACTION",
				OnUpdate: "NO ACTION",
			})
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("constraints: %w", err)
	}

	err = each(ctx, conn, indexesSQL, func(r *sql.Rows) error {
		var k key
		var x warehouse.Index
		var def string
		if err := r.Scan(&k.schema, &k.name, &x.Name, &x.Unique, &def); err != nil {
			return err
		}
		t := tables[k]
		if t == nil {
			return nil
		}
		cols, plain := indexTerms(def)
		x.Columns = cols
		x.Definition = strings.TrimSuffix(strings.TrimSpace(def), ";")
		t.Indexes = append(t.Indexes, x)
		if x.Unique && plain {
			t.Uniques = append(t.Uniques, cols)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("indexes: %w", err)
	}

	if !s.files {
		structure(tables, creates)
		list, err := enums(ctx, conn)
		if err != nil {
			return nil, nil, fmt.Errorf("enum types: %w", err)
		}
		enumColumns(list, tables)
	}

	var out []warehouse.Table
	var skipped []warehouse.Skipped
	for _, k := range order {
		t := tables[k]
		if t.Kind == "view" {
			// Binding, not running: LIMIT 0 reads no rows, but DuckDB
			// must open what the view reads to know its columns.
			if _, err := conn.ExecContext(ctx, "SELECT * FROM "+QuoteTable(t.Name)+" LIMIT 0"); err != nil {
				if ctx.Err() != nil {
					return nil, nil, ctx.Err()
				}
				skipped = append(skipped, warehouse.Skipped{Table: t.Name, Kind: "view", Reason: "the view does not read: " + firstLine(err.Error())})
				continue
			}
		}
		t.Uniques = uniques(t.Uniques, t.PrimaryKey)
		slices.SortFunc(t.Indexes, func(a, b warehouse.Index) int { return strings.Compare(a.Name, b.Name) })
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b warehouse.Table) int {
		if c := strings.Compare(a.Name.Schema, b.Name.Schema); c != 0 {
			return c
		}
		if c := strings.Compare(strings.ToLower(a.Name.Name), strings.ToLower(b.Name.Name)); c != 0 {
			return c
		}
		return strings.Compare(a.Name.Name, b.Name.Name)
	})
	if out == nil {
		out = []warehouse.Table{}
	}
	return out, skipped, nil
}

func each(ctx context.Context, conn *sql.Conn, q string, fn func(*sql.Rows) error) error {
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func strs(l []any) []string {
	out := make([]string, 0, len(l))
	for _, v := range l {
		s, _ := v.(string)
		out = append(out, s)
	}
	return out
}

// uniques drops the primary key's column set and duplicates (a UNIQUE
// constraint and a unique index on the same columns), sorted.
func uniques(us [][]string, pk []string) [][]string {
	out := [][]string{}
	for _, u := range us {
		if sameSet(u, pk) || slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, u) }) {
			continue
		}
		out = append(out, u)
	}
	slices.SortFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	return out
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

// indexTerms reads the key terms of a CREATE INDEX statement as DuckDB
// stores it (duckdb_indexes().sql): a term that is one identifier is a
// column, named as declared; any other is an expression, kept as written.
// plain reports that every term is a column, so a unique index on them is
// a key. duckdb_indexes().expressions is no easier to read: a list printed
// as text, some items quoted and some not.
func indexTerms(def string) (terms []string, plain bool) {
	toks, err := Grammar.Tokenize(def)
	if err != nil {
		return []string{def}, false
	}
	// The column list is the first parenthesis after ON.
	i := slices.IndexFunc(toks, func(t warehouse.Token) bool { return t.IsWord("ON") })
	for i >= 0 && i < len(toks) && !toks[i].IsPunct("(") {
		i++
	}
	if i < 0 || i >= len(toks) {
		return []string{def}, false
	}
	plain = true
	add := func(term []warehouse.Token) {
		if n := len(term); n > 1 && (term[n-1].IsWord("ASC") || term[n-1].IsWord("DESC")) {
			term = term[:n-1]
		}
		switch {
		case len(term) == 1 && (term[0].Kind == warehouse.TokenWord || term[0].Kind == warehouse.TokenQuotedIdent):
			terms = append(terms, term[0].Ident())
		case len(term) > 0:
			last := term[len(term)-1]
			terms = append(terms, def[term[0].Pos:last.Pos+len(last.Text)])
			plain = false
		}
	}
	depth, start := 0, i+1
	for j := i; j < len(toks); j++ {
		switch t := toks[j]; {
		case t.Kind != warehouse.TokenPunct:
		case t.Text == "(":
			depth++
		case t.Text == ")":
			if depth--; depth == 0 {
				add(toks[start:j])
				return terms, plain
			}
		case t.Text == "," && depth == 1:
			add(toks[start:j])
			start = j + 1
		}
	}
	return []string{def}, false
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// RowCount counts the rows of t exactly. The statement is built here from
// quoted identifiers, not taken from a user, so it skips the guard; the
// engine's lock-down still applies.
func (s *Source) RowCount(ctx context.Context, t warehouse.TableName) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM "+QuoteTable(t)).Scan(&n); err != nil {
		return 0, fmt.Errorf("duckdb: count rows of %s: %w", t, ctxErr(ctx, err))
	}
	return n, nil
}

// EstimateRows returns DuckDB's estimated_size for a table: the rows its
// row groups hold, deleted rows included, so not exact. A view has no
// estimate; the error sends the caller to RowCount.
func (s *Source) EstimateRows(ctx context.Context, t warehouse.TableName) (int64, bool, error) {
	schema := t.Schema
	if schema == "" {
		schema = "main"
	}
	var n int64
	err := s.db.QueryRowContext(ctx, `
		SELECT estimated_size FROM duckdb_tables()
		WHERE database_name = current_database() AND schema_name = ? AND table_name = ?`,
		schema, t.Name).Scan(&n)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, fmt.Errorf("duckdb: estimate rows of %s: no such table (a view has no estimate)", t)
	case err != nil:
		return 0, false, fmt.Errorf("duckdb: estimate rows of %s: %w", t, ctxErr(ctx, err))
	}
	return n, false, nil
}
