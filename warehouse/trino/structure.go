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

// structure reads the table comments and the view definitions of the
// catalog, one statement each, and what each view reads. A statement the
// cluster refuses as the user's error (no access to the system catalog, a
// connector that does not list views) leaves those fields empty.
func (s *Source) structure(ctx context.Context, ss *session, tables map[object]*warehouse.Table, known map[object]bool) error {
	err := s.optional(ctx, ss, "table comments", s.tableCommentsSQL(), func(rows *sql.Rows) error {
		for rows.Next() {
			var schema, table, comment string
			if err := rows.Scan(&schema, &table, &comment); err != nil {
				return err
			}
			if t := tables[object{schema, table, ""}]; t != nil {
				t.Comment = comment
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.optional(ctx, ss, "view definitions", s.viewsSQL(), func(rows *sql.Rows) error {
		for rows.Next() {
			var schema, view string
			var def sql.NullString
			if err := rows.Scan(&schema, &view, &def); err != nil {
				return err
			}
			if t := tables[object{schema, view, ""}]; t != nil && def.String != "" {
				t.Definition = def.String
				t.Reads = s.viewReads(schema, def.String, known)
			}
		}
		return nil
	})
}

// optional runs q as ss.do does; a refusal that is the user's (Trino's
// USER_ERROR: PERMISSION_DENIED, TABLE_NOT_FOUND, NOT_SUPPORTED) is no
// error. The failed statement ends the session's transaction, and the next
// statement starts another.
func (s *Source) optional(ctx context.Context, ss *session, what, q string, fn func(*sql.Rows) error) error {
	err := ss.do(ctx, q, fn)
	var te *trinodrv.ErrTrino
	switch {
	case err == nil:
		return nil
	case ctx.Err() == nil && errors.As(err, &te) && te.ErrorType == "USER_ERROR":
		return nil
	}
	return fmt.Errorf("introspect %s of %s: %w", what, s.catalog, describe(err))
}

func (s *Source) tableCommentsSQL() string {
	return "SELECT schema_name, table_name, comment FROM system.metadata.table_comments WHERE catalog_name = " +
		quoteString(s.catalog) + " AND " + s.schemaFilterOn("schema_name") +
		" AND comment IS NOT NULL ORDER BY schema_name, table_name"
}

func (s *Source) viewsSQL() string {
	return "SELECT table_schema, table_name, view_definition FROM " + dialect.QuoteIdent(s.catalog) +
		".information_schema.views WHERE " + s.schemaFilter() + " ORDER BY table_schema, table_name"
}

// viewReads lists the tables and views of the catalog that a view of
// schema reads, as Tables names them. A view keeps its query as written:
// a bare name is taken to be in the view's schema (the session's when it
// was created, which Trino does not say) and kept if it is a table or view
// there (not a common table expression); a name with its schema is kept
// even outside the schema the DSN names; a name of another catalog is
// left out.
func (s *Source) viewReads(schema, def string, known map[object]bool) []warehouse.TableName {
	refs, err := warehouse.FromNames(Grammar, def)
	if err != nil {
		return nil
	}
	var out []warehouse.TableName
	for _, ref := range refs {
		// Trino folds unquoted names to lower case, and so names them.
		for i := range ref {
			ref[i] = strings.ToLower(ref[i])
		}
		o := object{schema: schema, name: ref[len(ref)-1]}
		switch len(ref) {
		case 2:
			o.schema = ref[0]
		case 3:
			if ref[0] != strings.ToLower(s.catalog) {
				continue
			}
			o.schema = ref[1]
		}
		if len(ref) > 1 || known[o] {
			out = append(out, s.tableName(o.schema, o.name))
		}
	}
	slices.SortFunc(out, compareNames)
	return slices.Compact(out)
}

// createWorkers is how many sessions at most read the CREATE statements
// at once, and createPerWorker how many tables one session takes before
// another is opened: a statement costs the coordinator's planning round
// trip (about 60 ms), so 1,000 tables take a minute on one session and
// about 15 s on four, while a few tables are read on one session, in
// order, without the cost of more transactions.
const (
	createWorkers   = 4
	createPerWorker = 16
)

// showCreateSQL is the one statement createStatements sends per table;
// the guard admits exactly this form (TestGuardShowCreate).
func (s *Source) showCreateSQL(t warehouse.TableName) string {
	return "SHOW CREATE TABLE " + s.QuoteTable(t)
}

// createStatements fills in each table's CREATE TABLE as SHOW CREATE TABLE
// writes it. Trino keeps no such text in information_schema or
// system.metadata, so this is one statement per table (views keep their
// query, read in bulk by structure). The statements are spread over up to
// createWorkers sessions: ss, and others each in its own read-only
// transaction. A table
// the cluster will not show (the user's error: no privilege, a connector
// that cannot, a table dropped since the inventory) keeps none; any other
// failure fails Tables, as structure's do.
func (s *Source) createStatements(ctx context.Context, ss *session, objs []object, tables map[object]*warehouse.Table) error {
	var todo []*warehouse.Table
	for _, o := range objs {
		if o.kind == "table" {
			todo = append(todo, tables[object{o.schema, o.name, ""}])
		}
	}
	if len(todo) == 0 {
		return nil
	}
	workers := min(createWorkers, (len(todo)+createPerWorker-1)/createPerWorker)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan *warehouse.Table)
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			ss := ss
			if w > 0 {
				ss = newSession(s.db, s.readOnly)
				defer ss.close()
			}
			for t := range next {
				if err := s.createStatement(ctx, ss, t); err != nil {
					cancel()
					errs <- err
					for range next { // let the feeder finish
					}
					return
				}
			}
			errs <- nil
		}()
	}
feed:
	for _, t := range todo {
		select {
		case next <- t:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	var first error
	for range workers {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	return first
}

// createStatement reads one table's CREATE TABLE into t.
func (s *Source) createStatement(ctx context.Context, ss *session, t *warehouse.Table) error {
	var create string
	err := ss.scalar(ctx, s.showCreateSQL(t.Name), &create)
	var te *trinodrv.ErrTrino
	switch {
	case err == nil:
		t.CreateStatement = create
		return nil
	case ctx.Err() == nil && errors.As(err, &te) && te.ErrorType == "USER_ERROR":
		return nil
	}
	return fmt.Errorf("introspect the CREATE TABLE of %s: %w", t.Name, describe(err))
}
