package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/discover-db/discover/warehouse"
)

// structure fills in what a table declares beyond its keys: defaults,
// identity and generated columns, comments, checks, triggers, a view's
// query and the relations it reads, and the enumerated types of columns. Each is one catalog query for every
// relation at once, run under a savepoint: a role refused one of these
// catalogs, or a server too old to have a column asked for, leaves those
// fields empty instead of failing the discovery.
func structure(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	for _, part := range []struct {
		what string
		fill func(context.Context, pgx.Tx, map[uint32]*warehouse.Table) error
	}{
		{"column details", columnDetails},
		{"checks", checks},
		{"triggers", triggers},
		{"comments", comments},
		{"trigger comments", triggerComments},
		{"index and constraint comments", indexConstraintComments},
		{"view definitions", viewDefinitions},
		{"view reads", viewReads},
		{"enum columns", enumColumns},
	} {
		if err := optional(ctx, tx, part.what, func(sp pgx.Tx) error { return part.fill(ctx, sp, byOID) }); err != nil {
			return err
		}
	}
	return nil
}

// optional runs fn under a savepoint, so that a refusal rolls back only
// fn's statement and the transaction goes on. fn reads all its rows before
// it fills anything in, so a refusal leaves nothing half-filled.
func optional(ctx context.Context, tx pgx.Tx, what string, fn func(pgx.Tx) error) error {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return fmt.Errorf("introspect %s: %w", what, err)
	}
	if err := fn(sp); err != nil {
		_ = sp.Rollback(ctx)
		if refused(err) {
			return nil
		}
		return fmt.Errorf("introspect %s: %w", what, err)
	}
	if err := sp.Commit(ctx); err != nil {
		return fmt.Errorf("introspect %s: %w", what, err)
	}
	return nil
}

// refused reports an error that says the role may not read a catalog
// (insufficient_privilege) or that the server lacks what was asked for
// (undefined_table, undefined_column, undefined_function).
func refused(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	switch pgErr.Code {
	case "42501", "42P01", "42703", "42883":
		return true
	}
	return false
}

// columnOf is the column of t called name, or nil.
func columnOf(t *warehouse.Table, name string) *warehouse.Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// identities maps pg_attribute.attidentity to Column.Identity.
var identities = map[string]string{"a": "always", "d": "by_default"}

// columnDetails fills in defaults and identity and generated columns. A generated column's expression is kept in pg_attrdef
// like a default: it is its Generated, and it has no Default. A serial
// column is an ordinary column whose default calls nextval, and keeps it.
// Expressions are pretty-printed, as psql shows them.
func columnDetails(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	rows, err := tx.Query(ctx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT a.attrelid, a.attname, a.attidentity::text, a.attgenerated::text,
		       pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)
		FROM pg_catalog.pg_attribute a
		JOIN rel ON rel.oid = a.attrelid
		LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		WHERE a.attnum > 0 AND NOT a.attisdropped
		  AND (d.oid IS NOT NULL OR a.attidentity <> '' OR a.attgenerated <> '')`)
	if err != nil {
		return err
	}
	type detail struct {
		rel              uint32
		name, ident, gen string
		expr, comment    *string
	}
	var list []detail
	var d detail
	if _, err := pgx.ForEachRow(rows, []any{&d.rel, &d.name, &d.ident, &d.gen, &d.expr}, func() error {
		list = append(list, d)
		return nil
	}); err != nil {
		return err
	}
	for _, d := range list {
		t := byOID[d.rel]
		if t == nil {
			continue
		}
		c := columnOf(t, d.name)
		if c == nil {
			continue
		}
		c.Identity = identities[d.ident]
		switch {
		case d.expr == nil:
		case d.gen != "":
			c.Generated = *d.expr
			c.GeneratedStored = d.gen == "s" // the only kind before PostgreSQL 18's virtual
		default:
			c.Default = d.expr
		}
	}
	return nil
}

// checks fills in CHECK constraints by name, each as its pretty-printed
// condition (pg_get_constraintdef without its "CHECK (…)" around it).
// PostgreSQL keeps NOT NULL apart (before 18) or as contype 'n': never a check.
func checks(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	rows, err := tx.Query(ctx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT con.conrelid, con.conname, pg_catalog.pg_get_expr(con.conbin, con.conrelid, true)
		FROM pg_catalog.pg_constraint con
		JOIN rel ON rel.oid = con.conrelid
		WHERE con.contype = 'c'
		ORDER BY con.conrelid, con.conname`)
	if err != nil {
		return err
	}
	type check struct {
		rel uint32
		c   warehouse.Check
	}
	var list []check
	var c check
	if _, err := pgx.ForEachRow(rows, []any{&c.rel, &c.c.Name, &c.c.Expression}, func() error {
		list = append(list, c)
		return nil
	}); err != nil {
		return err
	}
	for _, c := range list {
		if t := byOID[c.rel]; t != nil {
			t.Checks = append(t.Checks, c.c)
		}
	}
	return nil
}

// Bits of pg_trigger.tgtype (catalog/pg_trigger.h).
const (
	tgBefore   = 1 << 1
	tgInsert   = 1 << 2
	tgDelete   = 1 << 3
	tgUpdate   = 1 << 4
	tgTruncate = 1 << 5
	tgInstead  = 1 << 6
)

// triggers fills in the triggers users declared, by name; internal ones
// (those enforcing foreign keys) are not theirs.
func triggers(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	rows, err := tx.Query(ctx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT t.tgrelid, t.tgname, t.tgtype::int, pg_catalog.pg_get_triggerdef(t.oid)
		FROM pg_catalog.pg_trigger t
		JOIN rel ON rel.oid = t.tgrelid
		WHERE NOT t.tgisinternal
		ORDER BY t.tgrelid, t.tgname`)
	if err != nil {
		return err
	}
	type trigger struct {
		rel uint32
		t   warehouse.Trigger
	}
	var list []trigger
	var tr trigger
	var typ int32
	if _, err := pgx.ForEachRow(rows, []any{&tr.rel, &tr.t.Name, &typ, &tr.t.Definition}, func() error {
		tr.t.Timing, tr.t.Events = triggerType(typ)
		list = append(list, tr)
		return nil
	}); err != nil {
		return err
	}
	for _, tr := range list {
		if t := byOID[tr.rel]; t != nil {
			t.Triggers = append(t.Triggers, tr.t)
		}
	}
	return nil
}

// triggerType decodes tgtype into a timing and the events, in the order
// Trigger.Events keeps.
func triggerType(typ int32) (timing string, events []string) {
	switch {
	case typ&tgInstead != 0:
		timing = "INSTEAD OF"
	case typ&tgBefore != 0:
		timing = "BEFORE"
	default:
		timing = "AFTER"
	}
	for _, e := range []struct {
		bit  int32
		name string
	}{{tgInsert, "INSERT"}, {tgUpdate, "UPDATE"}, {tgDelete, "DELETE"}, {tgTruncate, "TRUNCATE"}} {
		if typ&e.bit != 0 {
			events = append(events, e.name)
		}
	}
	return timing, events
}

// comments fills in the comments on tables, views and their columns.
func comments(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	list, err := relComments(ctx, tx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT ds.objoid, '', coalesce(a.attname::text, ''), ds.description
		FROM pg_catalog.pg_description ds
		JOIN rel ON rel.oid = ds.objoid
		LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = ds.objoid AND a.attnum = ds.objsubid AND ds.objsubid > 0
		WHERE ds.classoid = 'pg_catalog.pg_class'::pg_catalog.regclass`)
	if err != nil {
		return err
	}
	for _, c := range list {
		t := byOID[c.rel]
		switch {
		case t == nil:
		case c.name == "":
			t.Comment = c.text
		default:
			if col := columnOf(t, c.name); col != nil {
				col.Comment = c.text
			}
		}
	}
	return nil
}

// relComment is a comment on a relation or on a part of it named name (a
// column, a trigger, an index, a constraint: kind says which where one
// query reads several).
type relComment struct {
	rel              uint32
	kind, name, text string
}

// relComments reads the comments query returns, as (relation's oid, kind,
// name, comment) rows.
func relComments(ctx context.Context, tx pgx.Tx, query string) ([]relComment, error) {
	rows, err := tx.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	var list []relComment
	var c relComment
	if _, err := pgx.ForEachRow(rows, []any{&c.rel, &c.kind, &c.name, &c.text}, func() error {
		list = append(list, c)
		return nil
	}); err != nil {
		return nil, err
	}
	return list, nil
}

// triggerComments fills in the comments on triggers: apart from the
// triggers, so that a role refused pg_description still gets them.
func triggerComments(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	list, err := relComments(ctx, tx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT t.tgrelid, '', t.tgname::text, ds.description
		FROM pg_catalog.pg_trigger t
		JOIN rel ON rel.oid = t.tgrelid
		JOIN pg_catalog.pg_description ds ON ds.objoid = t.oid AND ds.objsubid = 0
		     AND ds.classoid = 'pg_catalog.pg_trigger'::pg_catalog.regclass
		WHERE NOT t.tgisinternal`)
	if err != nil {
		return err
	}
	for _, c := range list {
		t := byOID[c.rel]
		if t == nil {
			continue
		}
		for i := range t.Triggers {
			if t.Triggers[i].Name == c.name {
				t.Triggers[i].Comment = c.text
			}
		}
	}
	return nil
}

// indexConstraintComments fills in the comments on indexes (COMMENT ON
// INDEX) and on constraints (COMMENT ON CONSTRAINT), apart from the indexes
// and constraints themselves, as trigger comments are, so that a role
// refused pg_description still gets those. A constraint's comment is kept
// by its name whatever its kind: a unique or exclusion constraint has no
// place of its own in warehouse.Table.
func indexConstraintComments(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	list, err := relComments(ctx, tx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT i.indrelid, 'index', ic.relname::text, ds.description
		FROM pg_catalog.pg_index i
		JOIN rel ON rel.oid = i.indrelid
		JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
		JOIN pg_catalog.pg_description ds ON ds.objoid = i.indexrelid AND ds.objsubid = 0
		     AND ds.classoid = 'pg_catalog.pg_class'::pg_catalog.regclass
		UNION ALL
		SELECT con.conrelid, 'constraint', con.conname::text, ds.description
		FROM pg_catalog.pg_constraint con
		JOIN rel ON rel.oid = con.conrelid
		JOIN pg_catalog.pg_description ds ON ds.objoid = con.oid AND ds.objsubid = 0
		     AND ds.classoid = 'pg_catalog.pg_constraint'::pg_catalog.regclass`)
	if err != nil {
		return err
	}
	for _, c := range list {
		t := byOID[c.rel]
		switch {
		case t == nil:
		case c.kind == "index":
			for i := range t.Indexes {
				if t.Indexes[i].Name == c.name {
					t.Indexes[i].Comment = c.text
				}
			}
		default:
			if t.ConstraintComments == nil {
				t.ConstraintComments = map[string]string{}
			}
			t.ConstraintComments[c.name] = c.text
		}
	}
	return nil
}

// viewDefinitions fills in the query of each view and materialized view:
// pg_get_viewdef pretty-printed, as psql shows it, without its leading
// space and closing semicolon. pg_get_viewdef asks for no privilege on
// the view, unlike information_schema.views, which shows only the owner's.
func viewDefinitions(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	rows, err := tx.Query(ctx, `
		WITH rel AS (SELECT c.oid, c.relkind`+relFrom+`)
		SELECT rel.oid, pg_catalog.pg_get_viewdef(rel.oid, true)
		FROM rel WHERE rel.relkind IN ('v', 'm')`)
	if err != nil {
		return err
	}
	defs := map[uint32]string{}
	var rel uint32
	var def string
	if _, err := pgx.ForEachRow(rows, []any{&rel, &def}, func() error {
		defs[rel] = def
		return nil
	}); err != nil {
		return err
	}
	for rel, def := range defs {
		if t := byOID[rel]; t != nil {
			t.Definition = strings.TrimSuffix(strings.TrimSpace(def), ";")
		}
	}
	return nil
}

// viewReads fills in the relations each view and materialized view reads:
// those its _RETURN rule depends on, as pg_depend records them. Unlike
// information_schema.view_table_usage, which lists only the views the role
// owns, pg_depend is readable by every role. A view reading a view lists
// that view, not what it reads in turn.
func viewReads(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	rows, err := tx.Query(ctx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT DISTINCT r.ev_class, `+reportSchema("c", "n")+`, c.relname::text
		FROM pg_catalog.pg_rewrite r
		JOIN rel ON rel.oid = r.ev_class
		JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND d.objid = r.oid
		     AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.refobjid <> r.ev_class
		JOIN pg_catalog.pg_class c ON c.oid = d.refobjid
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
		WHERE r.rulename = '_RETURN' AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`)
	if err != nil {
		return err
	}
	type read struct {
		rel  uint32
		name warehouse.TableName
	}
	var list []read
	var rd read
	if _, err := pgx.ForEachRow(rows, []any{&rd.rel, &rd.name.Schema, &rd.name.Name}, func() error {
		list = append(list, rd)
		return nil
	}); err != nil {
		return err
	}
	for _, rd := range list {
		if t := byOID[rd.rel]; t != nil {
			t.Reads = append(t.Reads, rd.name)
		}
	}
	for _, t := range byOID {
		slices.SortFunc(t.Reads, compareNames)
		t.Reads = slices.Compact(t.Reads)
	}
	return nil
}
