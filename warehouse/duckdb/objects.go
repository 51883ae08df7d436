package duckdb

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.ObjectLister = (*Source)(nil)

// The user's enumerated types and macros, in the database the source
// opened: DuckDB's own are internal.
const (
	enumsSQL = `
		SELECT schema_name, type_name, labels, coalesce(comment, '')
		FROM duckdb_types()
		WHERE database_name = current_database() AND NOT internal AND logical_type = 'ENUM'`
	macrosSQL = `
		SELECT schema_name, function_name, function_type, parameters, coalesce(comment, '')
		FROM duckdb_functions()
		WHERE database_name = current_database() AND NOT internal AND function_type IN ('macro', 'table_macro')`
)

// Objects lists the enumerated types (CREATE TYPE … AS ENUM) and the
// macros (CREATE MACRO, CREATE FUNCTION) of the database, one catalog
// query each. A macro's parameters are names only (DuckDB types them when
// it is called); a table macro returns TABLE, a scalar one nothing said.
func (s *Source) Objects(ctx context.Context) (warehouse.Objects, error) {
	var out warehouse.Objects
	if s.files {
		return out, nil // a folder of data files declares nothing
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return out, fmt.Errorf("duckdb: list enum types and macros: %w", ctxErr(ctx, err))
	}
	defer conn.Close()
	if out.Enums, err = enums(ctx, conn); err != nil {
		return warehouse.Objects{}, fmt.Errorf("duckdb: list enum types: %w", ctxErr(ctx, err))
	}
	err = each(ctx, conn, macrosSQL, func(r *sql.Rows) error {
		var schema, kind string
		var params []any
		var m warehouse.Routine
		if err := r.Scan(&schema, &m.Name.Name, &kind, &params, &m.Comment); err != nil {
			return err
		}
		m.Name = tableName(key{schema, m.Name.Name})
		m.Kind, m.Language, m.Arguments = "macro", "SQL", strings.Join(strs(params), ", ")
		if kind == "table_macro" {
			m.Returns = "TABLE"
		}
		out.Routines = append(out.Routines, m)
		return nil
	})
	if err != nil {
		return warehouse.Objects{}, fmt.Errorf("duckdb: list macros: %w", ctxErr(ctx, err))
	}
	slices.SortFunc(out.Routines, func(a, b warehouse.Routine) int { return compareNames(a.Name, b.Name) })
	return out, nil
}

// enums are the database's enumerated types, sorted by name.
func enums(ctx context.Context, conn *sql.Conn) ([]warehouse.Enum, error) {
	var out []warehouse.Enum
	err := each(ctx, conn, enumsSQL, func(r *sql.Rows) error {
		var schema string
		var labels []any
		var e warehouse.Enum
		if err := r.Scan(&schema, &e.Name.Name, &labels, &e.Comment); err != nil {
			return err
		}
		e.Name, e.Labels = tableName(key{schema, e.Name.Name}), strs(labels)
		out = append(out, e)
		return nil
	})
	slices.SortFunc(out, func(a, b warehouse.Enum) int { return compareNames(a.Name, b.Name) })
	return out, err
}

// compareNames orders names as Tables orders tables: main's first, then
// case-insensitively.
func compareNames(a, b warehouse.TableName) int {
	if c := strings.Compare(a.Schema, b.Schema); c != 0 {
		return c
	}
	if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// enumColumns sets Column.Enum on the columns whose type is a declared
// enumerated type. DuckDB writes such a column's type as its labels
// (ENUM('sad', 'ok')), not its name, so a column is matched to the one
// type with those labels in that order; an ENUM written in the column
// itself, or labels two types share, match none.
func enumColumns(list []warehouse.Enum, tables map[key]*warehouse.Table) {
	byType := map[string][]string{}
	for _, e := range list {
		quoted := make([]string, len(e.Labels))
		for i, l := range e.Labels {
			quoted[i] = "'" + strings.ReplaceAll(l, "'", "''") + "'"
		}
		typ := "ENUM(" + strings.Join(quoted, ", ") + ")"
		byType[typ] = append(byType[typ], e.Name.String())
	}
	for _, t := range tables {
		for i, c := range t.Columns {
			typ := c.Type
			for strings.HasSuffix(typ, "[]") { // a list of the type
				typ = strings.TrimSuffix(typ, "[]")
			}
			names := byType[typ]
			if len(names) == 1 {
				t.Columns[i].Enum = names[0]
			}
		}
	}
}
