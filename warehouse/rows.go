package warehouse

import (
	"database/sql"
	"strconv"
	"strings"
)

// CapRows wraps query, a statement the engine accepts as a subquery
// (without its trailing semicolons), so that the engine itself stops at
// one row past maxRows, the row that proves there was more: an engine that
// hands over a whole result (DuckDB's driver materializes it, a plain
// PostgreSQL query streams it all) never returns from one without end.
// query goes on lines of its own, so that a trailing -- comment cannot
// swallow the closing parenthesis; the alias is one PostgreSQL before 16
// requires.
func CapRows(query string, maxRows int) string {
	return "SELECT * FROM (\n" + query + "\n) AS discover_capped LIMIT " + strconv.Itoa(maxRows+1)
}

// ReadRows reads a database/sql result into a Result, at most maxRows rows,
// converting each value with convert(value, declared type name in upper
// case). It closes rows. Engines share it so the row cap means the same
// everywhere: one row past the cap is read to prove there was more, and
// only then is Truncated set.
func ReadRows(rows *sql.Rows, maxRows int, convert func(v any, declType string) any) (*Result, error) {
	return ReadRowsWith(rows, maxRows, func(decl []string) func(col int, v any) any {
		return func(col int, v any) any { return convert(v, decl[col]) }
	}, nil)
}

// ReadRowsWith is ReadRows for engines that need more: prepare turns the
// columns' declared type names (upper case) into the per-value conversion
// once, so no type name is parsed per value; onMore, when not nil, is
// called if yet another row follows the one past the cap — the rest may be
// streaming, and the engine can stop it on the server (MySQL's KILL QUERY)
// rather than let the driver drain it. With onMore the rows are closed
// without reporting the error of closing a stream cut short.
func ReadRowsWith(rows *sql.Rows, maxRows int, prepare func(declTypes []string) func(col int, v any) any, onMore func()) (*Result, error) {
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	decl := make([]string, len(types))
	for i, t := range types {
		decl[i] = strings.ToUpper(t.DatabaseTypeName())
	}
	convert := prepare(decl)
	res := &Result{Columns: cols, Rows: [][]any{}}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if len(res.Rows) == maxRows {
			res.Truncated = true
			if onMore != nil {
				if rows.Next() {
					onMore()
				}
				rows.Close()
				return res, nil
			}
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]any, len(cols))
		for i, v := range vals {
			row[i] = convert(i, v)
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	return res, nil
}
