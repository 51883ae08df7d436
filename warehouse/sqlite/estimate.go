package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.RowEstimator = (*Source)(nil)

// dialect is SQLite's warehouse dialect, whose rowid helpers EstimateRows uses.
var dialect, _ = warehouse.DialectFor("sqlite")

// EstimateRows sizes t without reading it whole. A rowid table is sized
// from its rowids: the least and greatest (two b-tree searches) bound it,
// and the rows in 64 windows of 128 rowids spread over that range give the
// share of rowids in use (Dialect.RowidProbe), at most 8,192 rows read by
// rowid. A range of at most 8,192 rowids is counted whole, and the count is
// exact. A table without a rowid b-tree (WITHOUT ROWID, virtual) or whose
// columns hide every spelling of rowid falls back to sqlite_stat1, the
// count of the last ANALYZE, an estimate; with neither, an error, and the
// caller counts. Like RowCount, the statements are built here from quoted
// names and skip the SQL guard; the authorizer applies.
func (s *Source) EstimateRows(ctx context.Context, t warehouse.TableName) (n int64, exact bool, err error) {
	err = s.retryBusy(ctx, func() error {
		return s.read(always, func(db *sql.DB) error {
			n, exact, err = estimateRows(ctx, db, t)
			return err
		})
	})
	if err != nil {
		return 0, false, fmt.Errorf("sqlite: estimate rows of %s: %w", t, ctxErr(ctx, err))
	}
	return n, exact, nil
}

func estimateRows(ctx context.Context, db *sql.DB, t warehouse.TableName) (int64, bool, error) {
	n, exact, err := rowidEstimate(ctx, db, t)
	if err == nil || ctx.Err() != nil {
		return n, exact, err
	}
	if n, ok, serr := stat1Rows(ctx, db, t); serr == nil && ok {
		return n, false, nil
	}
	return 0, false, err
}

// errNoRowid: the table has no rowid b-tree to size it from.
var errNoRowid = errors.New("no rowid to estimate the rows from")

func rowidEstimate(ctx context.Context, db *sql.DB, t warehouse.TableName) (int64, bool, error) {
	var cols []warehouse.Column
	rows, err := db.QueryContext(ctx, "SELECT name FROM pragma_table_xinfo(?, ?)", t.Name, schemaName(t))
	if err != nil {
		return 0, false, err
	}
	for rows.Next() {
		var c warehouse.Column
		if err := rows.Scan(&c.Name); err != nil {
			rows.Close()
			return 0, false, err
		}
		cols = append(cols, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, false, err
	}
	rowid, ok := warehouse.RowidName(cols)
	if !ok || len(cols) == 0 {
		return 0, false, errNoRowid
	}
	q, _ := dialect.RowidBounds(t, rowid)
	var lo, hi sql.NullInt64
	switch err := db.QueryRowContext(ctx, q).Scan(&lo, &hi); {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, errNoRowid // a virtual table
	case err != nil && strings.Contains(err.Error(), "no such column"):
		return 0, false, errNoRowid // WITHOUT ROWID
	case err != nil:
		return 0, false, err
	case !lo.Valid:
		return 0, true, nil // empty
	}
	q, covered, ok := dialect.RowidProbe(t, rowid, lo.Int64, hi.Int64)
	if !ok {
		return 0, false, errNoRowid // rowids spread over more than 2⁴⁰
	}
	var found int64
	if err := db.QueryRowContext(ctx, q).Scan(&found); err != nil {
		return 0, false, err
	}
	n, exact := warehouse.RowidEstimate(lo.Int64, hi.Int64, covered, found)
	return n, exact, nil
}

// stat1Rows is the row count ANALYZE recorded for t: the first number of
// its sqlite_stat1 rows (the table's own, or an index's, which holds a
// row for every row of the table unless it is partial, hence the greatest).
func stat1Rows(ctx context.Context, db *sql.DB, t warehouse.TableName) (int64, bool, error) {
	stat := "sqlite_stat1"
	if t.Schema != "" {
		stat = QuoteIdent(t.Schema) + ".sqlite_stat1"
	}
	rows, err := db.QueryContext(ctx, "SELECT stat FROM "+stat+" WHERE tbl = ?", t.Name)
	if err != nil {
		return 0, false, err // no ANALYZE ever ran: no such table
	}
	defer rows.Close()
	var best int64
	found := false
	for rows.Next() {
		var st sql.NullString
		if err := rows.Scan(&st); err != nil {
			return 0, false, err
		}
		f := strings.Fields(st.String)
		if len(f) == 0 {
			continue
		}
		if n, err := strconv.ParseInt(f[0], 10, 64); err == nil && n >= 0 {
			best, found = max(best, n), true
		}
	}
	return best, found, rows.Err()
}

func schemaName(t warehouse.TableName) string {
	if t.Schema == "" {
		return "main"
	}
	return t.Schema
}
