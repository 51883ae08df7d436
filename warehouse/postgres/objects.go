package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.ObjectLister = (*Source)(nil)

// userSchema selects the namespaces n of the database's own objects, as
// relFromAll does for relations.
const userSchema = `n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
	  AND n.nspname !~ '^pg_(toast_)?temp_'`

// notExtension keeps out what an extension created (pgcrypto's digest,
// citext's functions, an extension's enum), listed by CREATE EXTENSION and
// not by the database's users: the object oid of class catalog is
// an extension member when pg_depend says so (deptype 'e').
func notExtension(oid, catalog string) string {
	return `NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend dep
		WHERE dep.classid = '` + catalog + `'::pg_catalog.regclass AND dep.objid = ` + oid + ` AND dep.deptype = 'e')`
}

// typeSchema is how a report names the schema of the type t in namespace
// n: "" for public when the bare name resolves to that very type on the
// session's search path (as reportSchema for a relation).
func typeSchema(t, n string) string {
	return `CASE WHEN ` + n + `.nspname = 'public' AND coalesce(pg_catalog.to_regtype(pg_catalog.quote_ident(` + t + `.typname))::oid = ` + t + `.oid, false)
		THEN '' ELSE ` + n + `.nspname::text END`
}

// Objects lists the enumerated types and the routines of the database's
// own schemas, those of extensions left out. Each part is one catalog
// query under a savepoint (optional): a role refused pg_proc still gets
// the enums, one refused pg_description everything but the comments, and
// a server before 11 (no pg_proc.prokind) the enums only.
func (s *Source) Objects(ctx context.Context) (warehouse.Objects, error) {
	var out warehouse.Objects
	err := s.readOnlyTx(ctx, "ISOLATION LEVEL REPEATABLE READ READ ONLY", DefaultTimeout, func(tx pgx.Tx) error {
		out = warehouse.Objects{} // afresh when a dropped connection is retried
		var enumOIDs, routineOIDs []uint32
		if err := optional(ctx, tx, "enum types", func(sp pgx.Tx) (err error) {
			out.Enums, enumOIDs, err = enums(ctx, sp)
			return err
		}); err != nil {
			return err
		}
		if err := optional(ctx, tx, "routines", func(sp pgx.Tx) (err error) {
			out.Routines, routineOIDs, err = routines(ctx, sp)
			return err
		}); err != nil {
			return err
		}
		return optional(ctx, tx, "comments on types and routines", func(sp pgx.Tx) error {
			texts, err := objectComments(ctx, sp)
			if err != nil {
				return err
			}
			for i, oid := range enumOIDs {
				out.Enums[i].Comment = texts[oid]
			}
			for i, oid := range routineOIDs {
				out.Routines[i].Comment = texts[oid]
			}
			return nil
		})
	})
	if err != nil {
		return warehouse.Objects{}, fmt.Errorf("postgres: list enum types and routines: %w", err)
	}
	return out, nil
}

// objectComments are the comments on types and routines, by oid (the two
// catalogs' oids never collide: oids are unique across the database's
// catalogs).
func objectComments(ctx context.Context, tx pgx.Tx) (map[uint32]string, error) {
	rows, err := tx.Query(ctx, `
		SELECT ds.objoid, ds.description FROM pg_catalog.pg_description ds
		WHERE ds.classoid IN ('pg_catalog.pg_type'::pg_catalog.regclass, 'pg_catalog.pg_proc'::pg_catalog.regclass)
		  AND ds.objsubid = 0`)
	if err != nil {
		return nil, err
	}
	out := map[uint32]string{}
	var oid uint32
	var text string
	_, err = pgx.ForEachRow(rows, []any{&oid, &text}, func() error {
		out[oid] = text
		return nil
	})
	return out, err
}

// enums are the enumerated types with their labels in their sort order,
// and their oids in the same order.
func enums(ctx context.Context, tx pgx.Tx) ([]warehouse.Enum, []uint32, error) {
	rows, err := tx.Query(ctx, `
		SELECT t.oid, `+typeSchema("t", "n")+`, t.typname::text,
		       pg_catalog.array_agg(e.enumlabel::text ORDER BY e.enumsortorder)
		FROM pg_catalog.pg_type t
		JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
		JOIN pg_catalog.pg_enum e ON e.enumtypid = t.oid
		WHERE t.typtype = 'e' AND `+userSchema+` AND `+notExtension("t.oid", "pg_catalog.pg_type")+`
		GROUP BY t.oid, n.nspname, t.typname`)
	if err != nil {
		return nil, nil, err
	}
	type enum struct {
		oid uint32
		e   warehouse.Enum
	}
	var list []enum
	var e enum
	if _, err := pgx.ForEachRow(rows, []any{&e.oid, &e.e.Name.Schema, &e.e.Name.Name, &e.e.Labels}, func() error {
		list = append(list, e)
		return nil
	}); err != nil {
		return nil, nil, err
	}
	slices.SortFunc(list, func(a, b enum) int { return compareNames(a.e.Name, b.e.Name) })
	out, oids := make([]warehouse.Enum, len(list)), make([]uint32, len(list))
	for i, e := range list {
		out[i], oids[i] = e.e, e.oid
	}
	return out, oids, nil
}

// routineKinds maps pg_proc.prokind to Routine.Kind.
var routineKinds = map[string]string{"f": "function", "p": "procedure", "a": "aggregate", "w": "window"}

// routines are the functions, procedures and aggregates, with their
// arguments and result as psql's \df shows them (pg_get_function_arguments
// and pg_get_function_result), and their oids in the same order.
func routines(ctx context.Context, tx pgx.Tx) ([]warehouse.Routine, []uint32, error) {
	rows, err := tx.Query(ctx, `
		SELECT p.oid, CASE WHEN n.nspname = 'public' THEN '' ELSE n.nspname::text END, p.proname::text, p.prokind::text,
		       coalesce(pg_catalog.pg_get_function_arguments(p.oid), ''),
		       CASE WHEN p.prokind = 'p' THEN '' ELSE coalesce(pg_catalog.pg_get_function_result(p.oid), '') END,
		       l.lanname::text
		FROM pg_catalog.pg_proc p
		JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
		JOIN pg_catalog.pg_language l ON l.oid = p.prolang
		WHERE `+userSchema+` AND `+notExtension("p.oid", "pg_catalog.pg_proc"))
	if err != nil {
		return nil, nil, err
	}
	type routine struct {
		oid uint32
		r   warehouse.Routine
	}
	var list []routine
	var r routine
	var kind string
	if _, err := pgx.ForEachRow(rows, []any{&r.oid, &r.r.Name.Schema, &r.r.Name.Name, &kind, &r.r.Arguments, &r.r.Returns, &r.r.Language}, func() error {
		r.r.Kind = routineKinds[kind]
		list = append(list, r)
		return nil
	}); err != nil {
		return nil, nil, err
	}
	slices.SortFunc(list, func(a, b routine) int {
		if c := compareNames(a.r.Name, b.r.Name); c != 0 {
			return c
		}
		return strings.Compare(a.r.Arguments, b.r.Arguments)
	})
	out, oids := make([]warehouse.Routine, len(list)), make([]uint32, len(list))
	for i, r := range list {
		out[i], oids[i] = r.r, r.oid
	}
	return out, oids, nil
}

// enumColumns fills in Column.Enum: the enumerated type a column holds,
// directly or as the element of an array, named as Objects names it.
func enumColumns(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	rows, err := tx.Query(ctx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT a.attrelid, a.attname::text, `+typeSchema("t", "n")+`, t.typname::text
		FROM pg_catalog.pg_attribute a
		JOIN rel ON rel.oid = a.attrelid
		JOIN pg_catalog.pg_type at ON at.oid = a.atttypid
		JOIN pg_catalog.pg_type t ON t.oid = CASE WHEN at.typcategory = 'A' AND at.typelem <> 0 THEN at.typelem ELSE at.oid END
		JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
		WHERE a.attnum > 0 AND NOT a.attisdropped AND t.typtype = 'e'`)
	if err != nil {
		return err
	}
	type enumColumn struct {
		rel    uint32
		column string
		enum   warehouse.TableName
	}
	var list []enumColumn
	var c enumColumn
	if _, err := pgx.ForEachRow(rows, []any{&c.rel, &c.column, &c.enum.Schema, &c.enum.Name}, func() error {
		list = append(list, c)
		return nil
	}); err != nil {
		return err
	}
	for _, c := range list {
		if t := byOID[c.rel]; t != nil {
			if col := columnOf(t, c.column); col != nil {
				col.Enum = c.enum.String()
			}
		}
	}
	return nil
}
