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

// EstimateRows sizes t without reading it whole. A table whose b-tree is
// keyed by an integer (warehouse.IntKey: the rowid of a rowid table, the
// INTEGER primary key of a WITHOUT ROWID table) is sized from its keys:
// the least and greatest (two b-tree searches) bound it, and the rows in
// 64 windows of 128 keys spread over that range give the share of keys in
// use (Dialect.RowidProbe), at most 8,192 rows read by key. A range of at
// most 8,192 keys is counted whole, and the count is exact. A table with
// no such key (a WITHOUT ROWID table keyed otherwise, or whose INTEGER key
// holds text at one end; a virtual table) or whose columns hide every
// spelling of rowid falls back to sqlite_stat1, the count of the last
// ANALYZE, an estimate; with neither, an error, and the caller counts.
// Like RowCount, the statements are built here from quoted names and skip
// the SQL guard; the authorizer applies.
func (s *Source) EstimateRows(ctx context.Context, t warehouse.TableName) (n int64, exact bool, err error) {
	stored := s.stored(t)
	err = s.retryBusy(ctx, func() error {
		return s.read(always, func(db *sql.DB) error {
			n, exact, err = estimateRows(ctx, db, t, stored)
			return err
		})
	})
	if err != nil {
		return 0, false, fmt.Errorf("sqlite: estimate rows of %s: %w", t, ctxErr(ctx, err))
	}
	return n, exact, nil
}

// stored is how the last listing found t stored (schemaNames.stored); nil
// for a table it did not list or of another schema.
func (s *Source) stored(t warehouse.TableName) *schemaObject {
	if t.Schema != "" && !strings.EqualFold(t.Schema, "main") {
		return nil
	}
	s.mu.Lock()
	names := s.names
	s.mu.Unlock()
	if names == nil {
		return nil
	}
	if o, ok := names.stored[foldASCII(t.Name)]; ok {
		return &o
	}
	return nil
}

func estimateRows(ctx context.Context, db *sql.DB, t warehouse.TableName, stored *schemaObject) (int64, bool, error) {
	n, exact, err := rowidEstimate(ctx, db, t, stored)
	if err == nil || ctx.Err() != nil {
		return n, exact, err
	}
	if n, ok, serr := stat1Rows(ctx, db, t); serr == nil && ok {
		return n, false, nil
	}
	return 0, false, err
}

// errNoRowid: the table has no integer key to size it from.
var errNoRowid = errors.New("no rowid or integer key to estimate the rows from")

// storedKeys is the dialect for a table whose storage the listing
// told (schemaNames.stored): its KeyBounds reads only the key the b-tree
// is keyed by, the rowid or a WITHOUT ROWID table's integer key, without
// the check of Dialect.KeyBounds, which asks pragma_table_list and so
// walks every table of the schema: sizing each of 10,000 tables that way
// cost a millisecond each.
type storedKeys struct {
	Dialect
	withoutRowid bool
}

func (d storedKeys) KeyBounds(t warehouse.TableName, k warehouse.IntKey) (string, bool) {
	if k.Rowid() == d.withoutRowid {
		return "", false
	}
	return keyBounds(d.QuoteTable(t), k.Name), true
}

func rowidEstimate(ctx context.Context, db *sql.DB, t warehouse.TableName, stored *schemaObject) (int64, bool, error) {
	var d warehouse.Dialect = Dialect{}
	if stored != nil {
		if stored.kind != "table" {
			return 0, false, errNoRowid // a view, a virtual table: no b-tree of its own to size
		}
		d = storedKeys{withoutRowid: stored.withoutRow}
	}
	tab := warehouse.Table{Name: t, Kind: "table"}
	rows, err := db.QueryContext(ctx, "SELECT name, type, pk FROM pragma_table_xinfo(?, ?) ORDER BY pk", t.Name, schemaName(t))
	if err != nil {
		return 0, false, err
	}
	for rows.Next() {
		var c warehouse.Column
		var pk int
		if err := rows.Scan(&c.Name, &c.Type, &pk); err != nil {
			rows.Close()
			return 0, false, err
		}
		tab.Columns = append(tab.Columns, c)
		if pk > 0 {
			tab.PrimaryKey = append(tab.PrimaryKey, c.Name)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, false, err
	}
	if len(tab.Columns) == 0 {
		return 0, false, errNoRowid
	}
	// A statement that fails is a key the table lacks (the rowid of a
	// WITHOUT ROWID table): the next key is tried.
	k, lo, hi, some, found, err := warehouse.FindIntKey(d, tab, func(q string) ([]any, error) {
		var lo, hi any
		switch err := db.QueryRowContext(ctx, q).Scan(&lo, &hi); {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			return nil, nil // no row (virtual, or not keyed so), no such column
		}
		return []any{lo, hi}, nil
	})
	switch {
	case err != nil:
		return 0, false, err
	case !found:
		return 0, false, errNoRowid
	case !some:
		return 0, true, nil // empty
	}
	q, covered, ok := Dialect{}.RowidProbe(t, k.Name, lo, hi)
	if !ok {
		return 0, false, errNoRowid // keys spread over more than 2⁴⁰
	}
	var n int64
	if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil {
		return 0, false, err
	}
	est, exact := warehouse.RowidEstimate(lo, hi, covered, n)
	return est, exact, nil
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
