package trino

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	trinodrv "github.com/trinodb/trino-go-client/trino"

	"github.com/discover-db/discover/warehouse"
)

// noSelect starts the reason given for a table the user may see but not read.
const noSelect = "no SELECT privilege"

// object is one table or view of the catalog, before its columns are read.
type object struct {
	schema, name, kind string // kind "table" or "view"
}

// Tables lists the tables and views of the DSN's catalog (every schema but
// information_schema), or of its schema when the DSN names one, with their
// columns, sorted by name. Names carry their schema when the DSN names the
// catalog only (sales.orders) and are bare when it names a schema.
//
// Trino exposes no primary, foreign or unique keys, no indexes, checks or
// triggers for most connectors, so those are left empty. Comments, column
// defaults (where the connector has them) and view definitions are read
// with one statement each for the whole catalog; each table's CREATE TABLE
// with one statement per table (createStatements). Tables the user may see
// but not read are left out; Skipped says which.
func (s *Source) Tables(ctx context.Context) ([]warehouse.Table, error) {
	ss := newSession(s.db, s.readOnly)
	defer ss.close()
	objs, skipped, err := s.inventory(ctx, ss)
	if err != nil {
		return nil, fmt.Errorf("trino: tables: %w", ctxErr(ctx, err))
	}
	tables := make(map[object]*warehouse.Table, len(objs))
	for _, o := range objs {
		tables[object{o.schema, o.name, ""}] = &warehouse.Table{
			Name:        s.tableName(o.schema, o.name),
			Kind:        o.kind,
			Columns:     []warehouse.Column{},
			PrimaryKey:  []string{},
			ForeignKeys: []warehouse.ForeignKey{},
			Uniques:     [][]string{},
			Indexes:     []warehouse.Index{},
		}
	}
	err = ss.do(ctx, s.columnsSQL(), func(rows *sql.Rows) error {
		for rows.Next() {
			var schema, table, name, typ, nullable string
			var pos int64
			var def, comment sql.NullString
			if err := rows.Scan(&schema, &table, &name, &typ, &nullable, &pos, &def, &comment); err != nil {
				return err
			}
			t, ok := tables[object{schema, table, ""}]
			if !ok {
				continue // skipped, or created since the inventory
			}
			c := warehouse.Column{
				Name: name, Type: typ, Nullable: !strings.EqualFold(nullable, "NO"), Position: int(pos),
				Comment: comment.String,
			}
			if def.Valid {
				c.Default = &def.String
			}
			t.Columns = append(t.Columns, c)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("trino: tables: columns: %w", ctxErr(ctx, describe(err)))
	}
	known := map[object]bool{}
	for _, o := range objs {
		known[object{o.schema, o.name, ""}] = true
	}
	for _, sk := range skipped {
		schema := sk.Table.Schema
		if schema == "" {
			schema = s.schema
		}
		known[object{schema, sk.Table.Name, ""}] = true
	}
	if err := s.structure(ctx, ss, tables, known); err != nil {
		return nil, fmt.Errorf("trino: tables: %w", ctxErr(ctx, err))
	}
	if err := s.createStatements(ctx, ss, objs, tables); err != nil {
		return nil, fmt.Errorf("trino: tables: %w", ctxErr(ctx, err))
	}
	out := make([]warehouse.Table, 0, len(objs))
	for _, o := range objs {
		out = append(out, *tables[object{o.schema, o.name, ""}])
	}
	slices.SortFunc(out, func(a, b warehouse.Table) int { return compareNames(a.Name, b.Name) })
	s.mu.Lock()
	s.skipped = skipped
	s.mu.Unlock()
	return out, nil
}

// Skipped lists the tables and views Tables leaves out and why: those the
// user may see in information_schema but not SELECT from, and views that no
// longer analyze. Tables the user has no privilege on at all are hidden by
// Trino itself. The list of the last Tables call is reused, since it takes
// one statement per table.
func (s *Source) Skipped(ctx context.Context) ([]warehouse.Skipped, error) {
	s.mu.Lock()
	skipped := s.skipped
	s.mu.Unlock()
	if skipped == nil {
		ss := newSession(s.db, s.readOnly)
		defer ss.close()
		var err error
		if _, skipped, err = s.inventory(ctx, ss); err != nil {
			return nil, fmt.Errorf("trino: skipped tables: %w", ctxErr(ctx, err))
		}
		s.mu.Lock()
		s.skipped = skipped
		s.mu.Unlock()
	}
	return slices.Clone(skipped), nil
}

// inventory lists the catalog's tables and views and probes each.
func (s *Source) inventory(ctx context.Context, ss *session) (readable []object, skipped []warehouse.Skipped, err error) {
	var objs []object
	err = ss.do(ctx, s.tablesSQL(), func(rows *sql.Rows) error {
		for rows.Next() {
			var o object
			if err := rows.Scan(&o.schema, &o.name, &o.kind); err != nil {
				return err
			}
			if o.kind == "VIEW" {
				o.kind = "view"
			} else {
				o.kind = "table"
			}
			objs = append(objs, o)
		}
		return nil
	})
	if err != nil {
		return nil, nil, describe(err)
	}
	skipped = []warehouse.Skipped{}
	for _, o := range objs {
		name := s.tableName(o.schema, o.name)
		reason, err := s.probe(ctx, ss, name)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		if reason != "" {
			skipped = append(skipped, warehouse.Skipped{Table: name, Reason: reason})
			continue
		}
		readable = append(readable, o)
	}
	slices.SortFunc(skipped, func(a, b warehouse.Skipped) int { return compareNames(a.Table, b.Table) })
	return readable, skipped, nil
}

// probe reads nothing from t (Trino plans LIMIT 0 to an empty result, after
// the access checks of analysis) and returns why t cannot be read, or ""
// when it can. An error is returned only when the probe could not be made.
func (s *Source) probe(ctx context.Context, ss *session, t warehouse.TableName) (string, error) {
	err := ss.do(ctx, "SELECT 1 FROM "+s.QuoteTable(t)+" LIMIT 0", func(*sql.Rows) error { return nil })
	if err == nil {
		return "", nil
	}
	var te *trinodrv.ErrTrino
	if ctx.Err() != nil || !errors.As(err, &te) {
		return "", err
	}
	switch {
	case te.ErrorName == "PERMISSION_DENIED":
		return noSelect + ": " + oneLine(te.Message), nil
	case te.ErrorType == "USER_ERROR" || te.ErrorType == "EXTERNAL":
		// A view over a dropped table or column, a table whose metadata the
		// connector cannot read: as unreadable, and the cluster says why.
		// INTERNAL_ERROR and INSUFFICIENT_RESOURCES speak of the cluster,
		// not of the table, and end the listing.
		return "cannot be read: " + te.ErrorName + ": " + oneLine(te.Message), nil
	}
	return "", describe(err)
}

// tableName addresses a table of schema: bare in the DSN's schema, which is
// the session's, else schema-qualified.
func (s *Source) tableName(schema, name string) warehouse.TableName {
	if s.schema != "" && schema == s.schema {
		return warehouse.TableName{Name: name}
	}
	return warehouse.TableName{Schema: schema, Name: name}
}

// schemaFilter keeps the DSN's schema, or every schema but the catalog's
// own information_schema.
func (s *Source) schemaFilter() string { return s.schemaFilterOn("table_schema") }

// schemaFilterOn is schemaFilter on the column that names the schema.
func (s *Source) schemaFilterOn(column string) string {
	if s.schema != "" {
		return column + " = " + quoteString(s.schema)
	}
	return column + " <> 'information_schema'"
}

func (s *Source) tablesSQL() string {
	return "SELECT table_schema, table_name, table_type FROM " + dialect.QuoteIdent(s.catalog) +
		".information_schema.tables WHERE " + s.schemaFilter() + " ORDER BY table_schema, table_name"
}

func (s *Source) columnsSQL() string {
	return "SELECT table_schema, table_name, column_name, data_type, is_nullable, ordinal_position, column_default, comment FROM " +
		dialect.QuoteIdent(s.catalog) + ".information_schema.columns WHERE " + s.schemaFilter() +
		" ORDER BY table_schema, table_name, ordinal_position"
}

// compareNames orders names case-insensitively, as a person scans a list,
// schema first, with the exact spelling breaking ties.
func compareNames(a, b warehouse.TableName) int {
	if c := strings.Compare(strings.ToLower(a.Schema), strings.ToLower(b.Schema)); c != 0 {
		return c
	}
	if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
		return c
	}
	return strings.Compare(a.String(), b.String())
}
