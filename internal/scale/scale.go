// Package scale generates the SQLite database of issue 9's scale
// benchmark: a warehouse of n tables holding rows in proportion to n (10M
// rows at 1,000 tables), so that the cost of a discovery can be measured
// as the database grows and compared with a straight line.
//
// The tables come in modules of ten, alike at every size, so that 300
// tables are three times 100 tables, row for row:
//
//   - one fact table (5 times the average size): a key, three declared
//     references into the module's dimensions, an amount, a quantity, a
//     status, a timestamp and a mostly empty note;
//   - three dimensions (half the average size): a key, a unique code, a
//     name, a category, a date and a flag;
//   - six detail tables (the rest): a key, a declared reference to a
//     dimension, a measure, a label, a timestamp and a flag.
//
// Every table's key is "id", numbered from 1, and a reference is named
// after the table it points at (customer_m007_id), as in most warehouses;
// so each module's names are its own, and the work of relating tables
// grows with their number, not with its square.
//
// Values are computed from the row number, so the same arguments give the
// same content.
//
// It is imported by tests only: cmd/discover's BenchmarkScale.
package scale

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the database/sql driver
)

// Version names the generator's output; bump it when the content changes,
// so that files cached by Ensure are rebuilt.
const Version = 2

// RowsPerTable is the average number of rows of a table: 10M rows at 1,000 tables.
const RowsPerTable = 10_000

// Table is one generated table.
type Table struct {
	Name string
	Rows int64
	DDL  string
	fill string // INSERT … SELECT over c(x), x from 1 to Rows
}

var (
	dims    = []string{"customer", "product", "store"}
	details = []string{"visit", "review", "return", "shipment", "ticket", "payment"}
)

// Tables lists the n tables (n rounded up to a whole module of ten) with
// rows in total about n × rowsPerTable.
func Tables(n int, rowsPerTable int64) []Table {
	var out []Table
	for m := 0; m*10 < n; m++ {
		suffix := fmt.Sprintf("_m%03d", m)
		dimRows := rowsPerTable / 2
		detailRows := (10*rowsPerTable - 5*rowsPerTable - 3*dimRows) / 6
		for _, d := range dims {
			out = append(out, Table{
				Name: d + suffix, Rows: dimRows,
				DDL: fmt.Sprintf(`CREATE TABLE %[1]s (
					id INTEGER PRIMARY KEY,
					code TEXT NOT NULL UNIQUE,
					name TEXT NOT NULL,
					category TEXT,
					created DATE,
					active INTEGER NOT NULL)`, d+suffix, d),
				fill: fmt.Sprintf(`INSERT INTO %[1]s SELECT x,
					'%[2]s-' || printf('%%06d', x),
					'%[2]s ' || x || ' ' || substr('abcdefghijklmnopqrstuvwxyz', 1 + x %% 26, 1 + x %% 7),
					CASE x %% 5 WHEN 0 THEN 'gold' WHEN 1 THEN 'silver' WHEN 2 THEN 'bronze' WHEN 3 THEN 'basic' ELSE NULL END,
					date('2020-01-01', '+' || (x * 37 %% 1500) || ' days'),
					(x %% 10) <> 0
					FROM c`, d+suffix, d),
			})
		}
		ref := func(dim int, x string) string {
			return fmt.Sprintf("1 + (%s * %d) %% %d", x, 2654435761+int64(dim)*97, dimRows)
		}
		fact := "order" + suffix
		out = append(out, Table{
			Name: fact, Rows: 5 * rowsPerTable,
			DDL: fmt.Sprintf(`CREATE TABLE %s (
				id INTEGER PRIMARY KEY,
				customer%[2]s_id INTEGER NOT NULL REFERENCES customer%[2]s(id),
				product%[2]s_id INTEGER NOT NULL REFERENCES product%[2]s(id),
				store%[2]s_id INTEGER REFERENCES store%[2]s(id),
				amount REAL NOT NULL,
				quantity INTEGER NOT NULL,
				status TEXT NOT NULL,
				placed_at TIMESTAMP NOT NULL,
				note TEXT)`, fact, suffix),
			fill: fmt.Sprintf(`INSERT INTO %s SELECT x, %s, %s, CASE WHEN x %% 50 = 0 THEN NULL ELSE %s END,
				round((x * 7919 %% 100000) / 100.0, 2),
				1 + x %% 9,
				CASE x %% 4 WHEN 0 THEN 'new' WHEN 1 THEN 'paid' WHEN 2 THEN 'shipped' ELSE 'delivered' END,
				datetime('2022-01-01', '+' || (x * 617 %% 63072000) || ' seconds'),
				CASE WHEN x %% 20 = 0 THEN 'call before delivery ' || x END
				FROM c`, fact, ref(0, "x"), ref(1, "x"), ref(2, "x")),
		})
		for i, d := range details {
			dim := dims[i%len(dims)]
			name := d + suffix
			out = append(out, Table{
				Name: name, Rows: detailRows,
				DDL: fmt.Sprintf(`CREATE TABLE %[1]s (
					id INTEGER PRIMARY KEY,
					%[3]s%[4]s_id INTEGER NOT NULL REFERENCES %[3]s%[4]s(id),
					value REAL,
					label TEXT,
					recorded_at TIMESTAMP,
					flag INTEGER)`, name, d, dim, suffix),
				fill: fmt.Sprintf(`INSERT INTO %s SELECT x, %s,
					CASE WHEN x %% 13 = 0 THEN NULL ELSE (x * 104729 %% 10000) / 10.0 END,
					'%s ' || (x %% 40),
					datetime('2023-01-01', '+' || (x * 331 %% 31536000) || ' seconds'),
					x %% 3 = 0
					FROM c`, name, ref(i%len(dims), "x"), d),
			})
		}
	}
	return out[:max(n, 0)]
}

// Generate writes the database of n tables to path, replacing nothing: the
// file must not exist.
func Generate(ctx context.Context, path string, n int, rowsPerTable int64) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("scale: %s exists", path)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return fmt.Errorf("scale: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range []string{`PRAGMA journal_mode = OFF`, `PRAGMA synchronous = OFF`, `PRAGMA cache_size = -262144`, `BEGIN`} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("scale: %s: %w", s, err)
		}
	}
	for _, t := range Tables(n, rowsPerTable) {
		if _, err := db.ExecContext(ctx, t.DDL); err != nil {
			return fmt.Errorf("scale: %s: %w", t.Name, err)
		}
		fill := fmt.Sprintf("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %d) ", t.Rows) +
			strings.TrimSpace(t.fill)
		if _, err := db.ExecContext(ctx, fill); err != nil {
			return fmt.Errorf("scale: fill %s: %w", t.Name, err)
		}
	}
	if _, err := db.ExecContext(ctx, `COMMIT`); err != nil {
		return fmt.Errorf("scale: commit: %w", err)
	}
	if _, err := db.ExecContext(ctx, `ANALYZE`); err != nil {
		return fmt.Errorf("scale: analyze: %w", err)
	}
	return db.Close()
}

// Ensure returns the path of the database of n tables in dir, generating
// it first when it is not there (into a temporary file, renamed when
// complete, so an interrupted generation leaves nothing to be mistaken
// for a finished one).
func Ensure(ctx context.Context, dir string, n int, rowsPerTable int64) (string, error) {
	path := filepath.Join(dir, fmt.Sprintf("scale-v%d-%dt-%dr.db", Version, n, rowsPerTable))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("scale: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("scale: %w", err)
	}
	tmp := path + ".partial"
	os.Remove(tmp)
	if err := Generate(ctx, tmp, n, rowsPerTable); err != nil {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("scale: %w", err)
	}
	return path, nil
}
