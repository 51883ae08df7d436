package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/stablehash"
	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.ChangeSignaler = (*Source)(nil)

// ChangeSignals reads information_schema.TABLES: a table's UPDATE_TIME (the
// last change InnoDB and MyISAM saw), CREATE_TIME (changed by TRUNCATE and
// rebuilds), DATA_LENGTH and AUTO_INCREMENT. InnoDB keeps UPDATE_TIME in
// memory only: after a restart it is NULL until the table changes again,
// and a table with a NULL UPDATE_TIME has no signal (its run is redone).
// The times are to the second, so a table changed in the last second has
// none either: a second change within that second would leave them as
// they are.
// MySQL 8 caches these figures for a day; the session asks for fresh ones
// (information_schema_stats_expiry = 0). A view's signal is its definition and every table's.
//
// It reads every table of the database, whatever tables holds: a view's
// signal needs every table's.
func (s *Source) ChangeSignals(ctx context.Context, _ []warehouse.Table) (map[string]string, error) {
	type obj struct {
		name, kind string
		sig, def   sql.NullString
	}
	var objs []obj
	err := s.readOnly(ctx, noLimits, func(ss *session) error {
		objs = objs[:0]
		// MariaDB has no such variable and keeps no cache (error 1193).
		if _, err := ss.tx.ExecContext(ctx, "SET SESSION information_schema_stats_expiry = 0"); err != nil && !strings.Contains(err.Error(), "1193") {
			return err
		}
		rows, err := ss.tx.QueryContext(ctx, `
			SELECT TABLE_NAME, TABLE_TYPE,
			       CASE WHEN UPDATE_TIME IS NOT NULL
			             AND GREATEST(UPDATE_TIME, COALESCE(CREATE_TIME, UPDATE_TIME)) < NOW() - INTERVAL 1 SECOND
			            THEN CONCAT_WS(':', UPDATE_TIME, CREATE_TIME, DATA_LENGTH, COALESCE(AUTO_INCREMENT, '-')) END,
			       (SELECT v.VIEW_DEFINITION FROM information_schema.VIEWS v
			        WHERE v.TABLE_SCHEMA = t.TABLE_SCHEMA AND v.TABLE_NAME = t.TABLE_NAME)
			FROM information_schema.TABLES t
			WHERE t.TABLE_SCHEMA = ? AND TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED', 'VIEW')`, ss.s.name)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var o obj
			if err := rows.Scan(&o.name, &o.kind, &o.sig, &o.def); err != nil {
				return err
			}
			objs = append(objs, o)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("mysql: change signals: %w", ctxErr(ctx, err))
	}
	out := make(map[string]string, len(objs))
	var all []string
	unknown := false
	for _, o := range objs {
		if o.kind == "VIEW" {
			continue
		}
		out[o.name] = o.sig.String
		all = append(all, o.name+"="+o.sig.String)
		unknown = unknown || !o.sig.Valid
	}
	slices.Sort(all)
	for _, o := range objs {
		if o.kind != "VIEW" {
			continue
		}
		out[o.name] = ""
		if !unknown {
			out[o.name] = fmt.Sprintf("view %016x over tables %016x", stablehash.Hash64(o.def.String), stablehash.Hash64(strings.Join(all, "\n")))
		}
	}
	return out, nil
}
