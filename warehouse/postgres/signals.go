package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/discover-db/discover/stablehash"
	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.ChangeSignaler = (*Source)(nil)

// ChangeSignals reads, in one snapshot of the system catalogs, each
// table's (and materialized view's) file node, size in bytes and the
// cumulative statistics' counts of rows inserted, updated and deleted
// (pg_stat_all_tables), over a partitioned table's leaves, with the time
// the database's statistics were last reset. TRUNCATE and rewrites change
// the file node; every INSERT, UPDATE and DELETE moves a counter. A view's
// signal is its definition with every table's, since it may read any of
// them. A table without statistics (track_counts off) has no signal.
//
// The server publishes a backend's counters when its transaction ends, at
// most once a second, and an idle backend's within about 10 s (60 s when
// the statistics are contended): a change committed in the last minute
// before a run may not be seen yet. ANALYZE and VACUUM move none of these.
//
// It reads every relation of the database, whatever tables holds: a view's
// signal needs every table's.
func (s *Source) ChangeSignals(ctx context.Context, _ []warehouse.Table) (map[string]string, error) {
	type rel struct {
		name      warehouse.TableName
		kind, def string
		sig       string
		known     bool
	}
	var rels []rel
	var reset string
	err := s.readOnlyTx(ctx, "ISOLATION LEVEL REPEATABLE READ READ ONLY", DefaultTimeout, func(tx pgx.Tx) error {
		rels = rels[:0]
		if err := tx.QueryRow(ctx, `SELECT coalesce(stats_reset::text, 'never') FROM pg_catalog.pg_stat_database
			WHERE datname = pg_catalog.current_database()`).Scan(&reset); err != nil {
			return err
		}
		const leaves = `FROM pg_catalog.pg_class l LEFT JOIN pg_catalog.pg_stat_all_tables st ON st.relid = l.oid
			WHERE c.relkind IN ('r', 'm') AND l.oid = c.oid
			   OR c.relkind = 'p' AND l.oid IN (SELECT relid FROM pg_catalog.pg_partition_tree(c.oid) WHERE isleaf)`
		rows, err := tx.Query(ctx, `
			SELECT `+reportSchema("c", "n")+`, c.relname, c.relkind::text,
			       CASE WHEN c.relkind = 'v' THEN coalesce(pg_catalog.pg_get_viewdef(c.oid), '') ELSE '' END,
			       coalesce((SELECT string_agg(concat_ws(':', l.relfilenode, pg_catalog.pg_relation_size(l.oid),
			                    st.n_tup_ins, st.n_tup_upd, st.n_tup_del), ',' ORDER BY l.oid) `+leaves+`), ''),
			       coalesce((SELECT bool_and(st.relid IS NOT NULL) `+leaves+`), true)
			`+relFrom)
		if err != nil {
			return err
		}
		var r rel
		_, err = pgx.ForEachRow(rows, []any{&r.name.Schema, &r.name.Name, &r.kind, &r.def, &r.sig, &r.known}, func() error {
			rels = append(rels, r)
			return nil
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: change signals: %w", err)
	}
	out := make(map[string]string, len(rels))
	var all []string
	for _, r := range rels {
		if r.kind == "v" {
			continue
		}
		sig := ""
		if r.known {
			sig = "stats reset " + reset + ";" + r.sig
		}
		out[r.name.String()] = sig
		all = append(all, r.name.String()+"="+sig)
	}
	slices.Sort(all)
	tablesSig := fmt.Sprintf("%016x", stablehash.Hash64(strings.Join(all, "\n")))
	for _, r := range rels {
		if r.kind != "v" {
			continue
		}
		sig := fmt.Sprintf("view %016x over tables %s", stablehash.Hash64(r.def), tablesSig)
		if slices.ContainsFunc(all, func(s string) bool { return strings.HasSuffix(s, "=") }) {
			sig = "" // it may read a table that has no signal
		}
		out[r.name.String()] = sig
	}
	return out, nil
}
