package warehouse

import (
	"database/sql"
	"strings"
)

// ReadRows reads a database/sql result into a Result, at most maxRows rows,
// converting each value with convert(value, declared type name in upper
// case). It closes rows. Engines share it so the row cap means the same
// everywhere: one row past the cap is read to prove there was more, and
// only then is Truncated set.
func ReadRows(rows *sql.Rows, maxRows int, convert func(v any, declType string) any) (*Result, error) {
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
	res := &Result{Columns: cols, Rows: [][]any{}}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if len(res.Rows) == maxRows {
			res.Truncated = true
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]any, len(cols))
		for i, v := range vals {
			row[i] = convert(v, decl[i])
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
