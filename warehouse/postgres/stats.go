package postgres

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.ColumnStatser = (*Source)(nil)

// ColumnStats returns the planner's statistics of t's columns from pg_stats,
// in column order: what the last ANALYZE estimated, read without touching
// the table. A table never analyzed has no rows there and gets an empty
// slice. The statement is ours, on system views, so it skips the guard;
// the read-only transaction still applies, as for RowCount.
//
// Values come as text: most_common_vals and histogram_bounds are anyarray,
// cast to text and parsed as array literals. A negative n_distinct is a
// fraction of the rows and is scaled by reltuples.
func (s *Source) ColumnStats(ctx context.Context, t warehouse.TableName) ([]warehouse.ColumnStat, error) {
	schema := t.Schema
	if schema == "" {
		schema = "public"
	}
	var out []warehouse.ColumnStat
	err := s.readOnly(ctx, DefaultTimeout, func(tx pgx.Tx) error {
		out = []warehouse.ColumnStat{} // afresh when a dropped connection is retried
		rows, err := tx.Query(ctx, `
			SELECT s.attname::text,
			       s.null_frac::float8,
			       s.n_distinct::float8,
			       s.most_common_vals::text,
			       s.most_common_freqs::float8[],
			       s.histogram_bounds::text,
			       s.correlation::float8,
			       c.reltuples::float8
			FROM pg_catalog.pg_stats s
			JOIN pg_catalog.pg_namespace ns ON ns.nspname = s.schemaname
			JOIN pg_catalog.pg_class c ON c.relnamespace = ns.oid AND c.relname = s.tablename
			JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attname = s.attname
			WHERE s.schemaname = $1 AND s.tablename = $2 AND NOT s.inherited
			ORDER BY a.attnum`, schema, t.Name)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				name            string
				nullFrac, nd    *float64
				mcv, hist       *string
				freqs           []float64
				corr, reltuples *float64
			)
			if err := rows.Scan(&name, &nullFrac, &nd, &mcv, &freqs, &hist, &corr, &reltuples); err != nil {
				return err
			}
			out = append(out, columnStat(name, nullFrac, nd, mcv, freqs, hist, corr, reltuples))
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: column stats of %s: %w", t, ctxErr(ctx, err))
	}
	return out, nil
}

// columnStat builds one column's figures. An array that does not parse, or
// frequencies that do not match the values, leave that figure out rather
// than failing the table: the statistics are a free extra.
func columnStat(name string, nullFrac, nd *float64, mcv *string, freqs []float64, hist *string,
	corr, reltuples *float64) warehouse.ColumnStat {
	c := warehouse.ColumnStat{Column: name, NullFraction: nullFrac, Correlation: corr,
		TopValues: []warehouse.ValueFraction{}, Histogram: []string{}}
	if nd != nil {
		switch {
		case *nd > 0:
			n := int64(math.Round(*nd))
			c.Distinct = &n
		case *nd < 0 && reltuples != nil && *reltuples > 0:
			n := int64(math.Round(-*nd * *reltuples))
			c.Distinct = &n
		}
	}
	if mcv != nil {
		vals, err := parseArray(*mcv)
		if err == nil && len(vals) == len(freqs) {
			for i, v := range vals {
				if v == nil {
					continue
				}
				c.TopValues = append(c.TopValues, warehouse.ValueFraction{Value: *v, Fraction: freqs[i]})
			}
		}
	}
	if hist != nil {
		if vals, err := parseArray(*hist); err == nil {
			for _, v := range vals {
				if v != nil {
					c.Histogram = append(c.Histogram, *v)
				}
			}
		}
	}
	return c
}

// parseArray parses a one-dimensional PostgreSQL array literal as text
// output renders it: {a,"b,c","say \"hi\"",NULL}. Quoted elements are
// unescaped; an unquoted NULL is nil; an element that is itself an array
// (a column of an array type) is kept as its literal text. A leading
// dimension decoration ([0:2]={…}) is skipped.
func parseArray(s string) ([]*string, error) {
	if strings.HasPrefix(s, "[") {
		i := strings.Index(s, "=")
		if i < 0 {
			return nil, fmt.Errorf("array literal %.40q: bad dimensions", s)
		}
		s = s[i+1:]
	}
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return nil, fmt.Errorf("array literal %.40q: no braces", s)
	}
	body := s[1 : len(s)-1]
	out := []*string{}
	if strings.TrimSpace(body) == "" {
		return out, nil
	}
	i := 0
	for {
		for i < len(body) && body[i] == ' ' {
			i++
		}
		var elem string
		isNull := false
		switch {
		case i < len(body) && body[i] == '"':
			var b strings.Builder
			i++
			closed := false
			for i < len(body) {
				ch := body[i]
				if ch == '\\' && i+1 < len(body) {
					b.WriteByte(body[i+1])
					i += 2
					continue
				}
				if ch == '"' {
					i++
					closed = true
					break
				}
				b.WriteByte(ch)
				i++
			}
			if !closed {
				return nil, fmt.Errorf("array literal %.40q: unterminated quote", s)
			}
			elem = b.String()
		case i < len(body) && body[i] == '{':
			start, depth, inQuote := i, 0, false
			for i < len(body) {
				ch := body[i]
				switch {
				case inQuote && ch == '\\':
					i++
				case ch == '"':
					inQuote = !inQuote
				case !inQuote && ch == '{':
					depth++
				case !inQuote && ch == '}':
					depth--
				}
				i++
				if depth == 0 && !inQuote {
					break
				}
			}
			if depth != 0 {
				return nil, fmt.Errorf("array literal %.40q: unbalanced braces", s)
			}
			elem = body[start:i]
		default:
			var b strings.Builder
			for i < len(body) && body[i] != ',' {
				if body[i] == '\\' && i+1 < len(body) {
					b.WriteByte(body[i+1])
					i += 2
					continue
				}
				b.WriteByte(body[i])
				i++
			}
			elem = strings.TrimRight(b.String(), " ")
			isNull = strings.EqualFold(elem, "NULL")
		}
		for i < len(body) && body[i] == ' ' {
			i++
		}
		if isNull {
			out = append(out, nil)
		} else {
			e := elem
			out = append(out, &e)
		}
		if i >= len(body) {
			return out, nil
		}
		if body[i] != ',' {
			return nil, fmt.Errorf("array literal %.40q: unexpected %q", s, body[i])
		}
		i++
	}
}
