package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/discover-db/discover/warehouse"
)

// relFromAll selects the relations of the database's own schemas: tables,
// partitioned tables, partitions, views, materialized views and foreign
// tables outside the system schemas. The guard lets a statement read these
// (loadCatalog).
const relFromAll = `
	FROM pg_catalog.pg_class c
	JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
	WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
	  AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
	  AND n.nspname !~ '^pg_(toast_)?temp_'`

// relFrom selects the relations a report could name: those of relFromAll
// but partitions, whose rows are read through their parent. Every catalog
// query below starts from it, so all agree on the set.
const relFrom = relFromAll + `
	  AND NOT c.relispartition`

// reportSchema is how a report names the schema of the relation c in
// namespace n: "" for public when the bare name resolves to that very
// relation on the session's search path, so that quoting it bare reads it
// and not a system catalog of the same name (public.pg_settings) or a
// namesake in the user's own schema; the schema's name otherwise.
func reportSchema(c, n string) string {
	return `CASE WHEN ` + n + `.nspname = 'public' AND coalesce(pg_catalog.to_regclass(pg_catalog.quote_ident(` + c + `.relname))::oid = ` + c + `.oid, false)
		THEN '' ELSE ` + n + `.nspname::text END`
}

// relation is one row of relFrom with what the user may do with it.
type relation struct {
	oid  uint32
	name warehouse.TableName
	kind string // pg_class.relkind
	skip string // why Tables leaves it out; "" when it can be read
}

// relations lists every relation, readable or not. The catalog itself is
// readable by every role, so a user sees the names of tables they cannot
// SELECT from; those are reported by Skipped rather than silently dropped.
func relations(ctx context.Context, tx pgx.Tx) ([]relation, error) {
	rows, err := tx.Query(ctx, `
		SELECT c.oid, `+reportSchema("c", "n")+`, n.nspname, c.relname, c.relkind::text, c.relispopulated,
		       pg_catalog.has_schema_privilege(n.oid, 'USAGE'),
		       pg_catalog.has_table_privilege(c.oid, 'SELECT')`+relFrom)
	if err != nil {
		return nil, err
	}
	var out []relation
	var r relation
	var schema string
	var populated, usage, sel bool
	_, err = pgx.ForEachRow(rows, []any{&r.oid, &r.name.Schema, &schema, &r.name.Name, &r.kind, &populated, &usage, &sel}, func() error {
		switch {
		case !usage:
			// has_table_privilege ignores the schema; without USAGE on it,
			// every SELECT fails all the same.
			r.skip = "no USAGE privilege on schema " + schema
		case !sel:
			r.skip = "no SELECT privilege"
		case !populated:
			r.skip = "materialized view not populated (REFRESH MATERIALIZED VIEW needed)"
		default:
			r.skip = ""
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// Tables lists the tables and views the user can read, with their declared
// structure, sorted by report name. All catalog reads share one snapshot
// (REPEATABLE READ), so a table dropped meanwhile cannot come out half-described.
// It also refreshes what the guard knows of the database (Guard).
func (s *Source) Tables(ctx context.Context) ([]warehouse.Table, error) {
	var out []warehouse.Table
	var cat *catalog
	err := s.readOnlyTx(ctx, "ISOLATION LEVEL REPEATABLE READ READ ONLY", DefaultTimeout, func(tx pgx.Tx) error {
		out = nil // afresh when a dropped connection is retried
		rels, err := relations(ctx, tx)
		if err != nil {
			return err
		}
		if cat, err = loadCatalog(ctx, tx); err != nil {
			return fmt.Errorf("guard catalog: %w", err)
		}
		byOID := map[uint32]*warehouse.Table{}
		for _, r := range rels {
			if r.skip != "" {
				continue
			}
			kind := "table"
			if r.kind == "v" || r.kind == "m" {
				kind = "view"
			}
			byOID[r.oid] = &warehouse.Table{
				Name:         r.name,
				Kind:         kind,
				Materialized: r.kind == "m",
				Foreign:      r.kind == "f",
				Columns:      []warehouse.Column{},
				PrimaryKey:   []string{},
				ForeignKeys:  []warehouse.ForeignKey{},
				Uniques:      [][]string{},
				Indexes:      []warehouse.Index{},
			}
		}
		if err := columns(ctx, tx, byOID); err != nil {
			return fmt.Errorf("columns: %w", err)
		}
		if err := constraints(ctx, tx, byOID); err != nil {
			return fmt.Errorf("constraints: %w", err)
		}
		if err := indexes(ctx, tx, byOID); err != nil {
			return fmt.Errorf("indexes: %w", err)
		}
		if err := structure(ctx, tx, byOID); err != nil {
			return err
		}
		for _, t := range byOID {
			out = append(out, *t)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: tables: %w", ctxErr(ctx, err))
	}
	s.catalog.Store(cat)
	slices.SortFunc(out, func(a, b warehouse.Table) int { return compareNames(a.Name, b.Name) })
	if out == nil {
		out = []warehouse.Table{}
	}
	return out, nil
}

// compareNames orders by report name, case-insensitively first so that
// "CamelCase" sits among the c's.
func compareNames(a, b warehouse.TableName) int {
	as, bs := a.String(), b.String()
	if c := strings.Compare(strings.ToLower(as), strings.ToLower(bs)); c != 0 {
		return c
	}
	return strings.Compare(as, bs)
}

// Skipped lists the relations Tables leaves out and why: no privilege to
// read them, or a materialized view that holds no data yet.
func (s *Source) Skipped(ctx context.Context) ([]warehouse.Skipped, error) {
	var out []warehouse.Skipped
	err := s.readOnly(ctx, DefaultTimeout, func(tx pgx.Tx) error {
		out = nil // afresh when a dropped connection is retried
		rels, err := relations(ctx, tx)
		for _, r := range rels {
			if r.skip != "" {
				out = append(out, warehouse.Skipped{Table: r.name, Reason: r.skip})
			}
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: skipped tables: %w", ctxErr(ctx, err))
	}
	slices.SortFunc(out, func(a, b warehouse.Skipped) int { return compareNames(a.Table, b.Table) })
	if out == nil {
		out = []warehouse.Skipped{}
	}
	return out, nil
}

// columns fills in the columns in attnum order, skipping dropped ones, so
// Position counts the columns a SELECT * returns.
func columns(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	rows, err := tx.Query(ctx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT a.attrelid, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull
		FROM pg_catalog.pg_attribute a
		JOIN rel ON rel.oid = a.attrelid
		WHERE a.attnum > 0 AND NOT a.attisdropped
		ORDER BY a.attrelid, a.attnum`)
	if err != nil {
		return err
	}
	var rel uint32
	var c warehouse.Column
	var notNull bool
	_, err = pgx.ForEachRow(rows, []any{&rel, &c.Name, &c.Type, &notNull}, func() error {
		if t := byOID[rel]; t != nil {
			c.Nullable = !notNull
			c.Position = len(t.Columns) + 1
			t.Columns = append(t.Columns, c)
		}
		return nil
	})
	return err
}

// constraints fills in primary and foreign keys, their columns in the
// order of the constraint (which may differ from the table's). A foreign
// key that references a partitioned table is repeated by PostgreSQL once
// per partition, with conparentid pointing at the original: only the
// original is kept.
func constraints(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	rows, err := tx.Query(ctx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT con.conrelid, con.conname, con.contype::text, a.attname,
		       coalesce(`+reportSchema("fc", "fn")+`, ''), coalesce(fc.relname, ''), coalesce(fa.attname, ''),
		       con.confdeltype::text, con.confupdtype::text
		FROM pg_catalog.pg_constraint con
		JOIN rel ON rel.oid = con.conrelid
		CROSS JOIN LATERAL unnest(con.conkey, con.confkey) WITH ORDINALITY AS k(attnum, fattnum, ord)
		JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
		LEFT JOIN pg_catalog.pg_class fc ON fc.oid = con.confrelid
		LEFT JOIN pg_catalog.pg_namespace fn ON fn.oid = fc.relnamespace
		LEFT JOIN pg_catalog.pg_attribute fa ON fa.attrelid = con.confrelid AND fa.attnum = k.fattnum
		WHERE con.contype IN ('p', 'f') AND con.conparentid = 0
		ORDER BY con.conrelid, con.conname, k.ord`)
	if err != nil {
		return err
	}
	var rel uint32
	var name, typ, col, refSchema, refTable, refCol, onDelete, onUpdate string
	var last *warehouse.ForeignKey
	var lastRel uint32
	_, err = pgx.ForEachRow(rows, []any{&rel, &name, &typ, &col, &refSchema, &refTable, &refCol, &onDelete, &onUpdate}, func() error {
		t := byOID[rel]
		if t == nil {
			return nil
		}
		if typ == "p" {
			t.PrimaryKey = append(t.PrimaryKey, col)
			t.PrimaryKeyName = name
			return nil
		}
		if last == nil || lastRel != rel || last.Name != name {
			t.ForeignKeys = append(t.ForeignKeys, warehouse.ForeignKey{
				Name:       name,
				Columns:    []string{},
				RefTable:   warehouse.TableName{Schema: refSchema, Name: refTable},
				RefColumns: []string{},
				OnDelete:   fkActions[onDelete],
				OnUpdate:   fkActions[onUpdate],
			})
			last, lastRel = &t.ForeignKeys[len(t.ForeignKeys)-1], rel
		}
		last.Columns = append(last.Columns, col)
		last.RefColumns = append(last.RefColumns, refCol)
		return nil
	})
	return err
}

// fkActions maps pg_constraint.confdeltype and confupdtype to the words
// of SQL.
var fkActions = map[string]string{"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}

// indexes fills in every index with its key columns (INCLUDE columns left
// out), an expression shown as pg_get_indexdef writes it, and Uniques: the
// unique indexes a key could be made of, which excludes partial ones
// (unique only where the predicate holds), expression ones (no column is
// unique) and invalid ones (a failed CREATE INDEX CONCURRENTLY). A unique
// constraint always has such an index, so it is found this way too. A
// partial index's predicate and key expressions are pretty-printed, as
// psql shows them; its Definition is pg_get_indexdef's plain form, whose
// names are schema-qualified.
func indexes(ctx context.Context, tx pgx.Tx, byOID map[uint32]*warehouse.Table) error {
	rows, err := tx.Query(ctx, `
		WITH rel AS (SELECT c.oid`+relFrom+`)
		SELECT i.indrelid, ic.relname, i.indisunique, i.indisprimary,
		       i.indpred IS NOT NULL OR NOT i.indisvalid, i.indkey[k.pos] = 0,
		       CASE WHEN i.indkey[k.pos] = 0
		            THEN pg_catalog.pg_get_indexdef(i.indexrelid, k.pos + 1, true)
		            ELSE a.attname::text END,
		       coalesce(pg_catalog.pg_get_expr(i.indpred, i.indrelid, true), ''),
		       pg_catalog.pg_get_indexdef(i.indexrelid)
		FROM pg_catalog.pg_index i
		JOIN rel ON rel.oid = i.indrelid
		JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
		CROSS JOIN LATERAL generate_series(0, i.indnkeyatts - 1) AS k(pos)
		LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[k.pos]
		ORDER BY i.indrelid, ic.relname, k.pos`)
	if err != nil {
		return err
	}
	type index struct {
		rel                     uint32
		ix                      warehouse.Index
		primary, partial, exprs bool
	}
	var list []*index
	var rel uint32
	var name, col, pred, def string
	var unique, primary, partial, expr bool
	_, err = pgx.ForEachRow(rows, []any{&rel, &name, &unique, &primary, &partial, &expr, &col, &pred, &def}, func() error {
		if len(list) == 0 || list[len(list)-1].rel != rel || list[len(list)-1].ix.Name != name {
			list = append(list, &index{rel: rel, primary: primary, partial: partial, ix: warehouse.Index{
				Name: name, Columns: []string{}, Unique: unique, Predicate: pred, Definition: def}})
		}
		x := list[len(list)-1]
		x.ix.Columns = append(x.ix.Columns, col)
		x.exprs = x.exprs || expr
		return nil
	})
	if err != nil {
		return err
	}
	for _, x := range list {
		t := byOID[x.rel]
		if t == nil {
			continue
		}
		t.Indexes = append(t.Indexes, x.ix)
		if x.ix.Unique && !x.primary && !x.partial && !x.exprs && !sameSet(x.ix.Columns, t.PrimaryKey) &&
			!slices.ContainsFunc(t.Uniques, func(u []string) bool { return slices.Equal(u, x.ix.Columns) }) {
			t.Uniques = append(t.Uniques, x.ix.Columns)
		}
	}
	for _, t := range byOID {
		slices.SortFunc(t.Uniques, slices.Compare)
	}
	return nil
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
