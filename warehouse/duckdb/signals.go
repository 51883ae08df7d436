package duckdb

import (
	"context"
	"fmt"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.ChangeSignaler = (*Source)(nil)

// ChangeSignals: a database file's tables share the signal of the file and
// its WAL (sizes and modification times: DuckDB keeps no time per table);
// a folder source's view has its own data files' signal, so a changed
// Parquet file changes only the view that reads it.
func (s *Source) ChangeSignals(ctx context.Context, tables []warehouse.Table) (map[string]string, error) {
	out := make(map[string]string, len(tables))
	for _, t := range tables {
		files, ok := s.signalFiles[t.Name.Name]
		if !s.files {
			files, ok = s.signalFiles[""]
		}
		if !ok {
			out[t.Name.String()] = "" // no files known for it: nothing to vouch with
			continue
		}
		sig, err := warehouse.FileSignal(files)
		if err != nil {
			return nil, fmt.Errorf("duckdb: %w", err)
		}
		out[t.Name.String()] = sig
	}
	return out, nil
}

var _ warehouse.ContentSignaler = (*Source)(nil)

// ContentSignals tells a database file's tables apart by their rows: each
// table's row count and the sum of its rows' hashes (DuckDB's hash of the
// row, as a struct), summed as a HUGEINT so that no two rows cancel out;
// a change to any row changes it, and a table written back as it was
// gets its old signal again. A view's signal joins the signals of the
// tables, and views, its definition names; a view that reads files (a
// read_… or …_scan function, or a quoted path after FROM or JOIN) gets
// none, as nothing in the database vouches for the files. The cost is one
// aggregate pass over every table, on all of DuckDB's threads. A folder
// source's views already have a signal each: ChangeSignals'.
func (s *Source) ContentSignals(ctx context.Context, tables []warehouse.Table) (map[string]string, error) {
	if s.files {
		return s.ChangeSignals(ctx, tables)
	}
	type object struct{ schema, name, sql string }
	var tableRows, viewRows []object
	for _, q := range []struct {
		sql string
		out *[]object
	}{
		{`SELECT schema_name, table_name, '' FROM duckdb_tables() WHERE database_name = current_database() AND NOT internal`, &tableRows},
		{`SELECT schema_name, view_name, coalesce(sql, '') FROM duckdb_views() WHERE database_name = current_database() AND NOT internal`, &viewRows},
	} {
		rows, err := s.db.QueryContext(ctx, q.sql)
		if err != nil {
			return nil, fmt.Errorf("duckdb: content signals: %w", ctxErr(ctx, err))
		}
		for rows.Next() {
			var o object
			if err := rows.Scan(&o.schema, &o.name, &o.sql); err != nil {
				rows.Close()
				return nil, fmt.Errorf("duckdb: content signals: %w", err)
			}
			*q.out = append(*q.out, o)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("duckdb: content signals: %w", ctxErr(ctx, err))
		}
	}
	qualified := func(schema, name string) string {
		if schema == "" {
			schema = "main"
		}
		return strings.ToLower(schema + "." + name)
	}
	tableSig := map[string]string{} // qualified → signal, read when asked
	objects := map[string]object{}  // qualified → table
	views := warehouse.ViewReads{Grammar: Grammar, Tables: map[string][]string{}, Views: map[string][]string{}, Defs: map[string]string{},
		Refuses: readsFiles}
	for _, o := range tableRows {
		k := qualified(o.schema, o.name)
		objects[k] = o
		views.Tables[strings.ToLower(o.name)] = append(views.Tables[strings.ToLower(o.name)], k)
	}
	for _, o := range viewRows {
		k := qualified(o.schema, o.name)
		views.Views[strings.ToLower(o.name)] = append(views.Views[strings.ToLower(o.name)], k)
		views.Defs[k] = o.sql
	}
	signal := func(k string) (string, error) {
		if sig, ok := tableSig[k]; ok {
			return sig, nil
		}
		o := objects[k]
		var n int64
		var sum any
		q := fmt.Sprintf(`SELECT count(*), coalesce(sum(hash(t)::HUGEINT), 0) FROM %s AS t`, QuoteTable(warehouse.TableName{Schema: o.schema, Name: o.name}))
		if err := s.db.QueryRowContext(ctx, q).Scan(&n, &sum); err != nil {
			if ctx.Err() != nil {
				return "", fmt.Errorf("duckdb: content signal of %s: %w", k, ctxErr(ctx, err))
			}
			tableSig[k] = "" // a type DuckDB cannot hash: nothing vouches for the table
			return "", nil
		}
		sig := fmt.Sprintf("rows %d hash %v", n, sum)
		tableSig[k] = sig
		return sig, nil
	}
	out := make(map[string]string, len(tables))
	for _, t := range tables {
		name := t.Name.String()
		k := qualified(t.Name.Schema, t.Name.Name)
		if t.Kind != "view" {
			objects[k] = object{schema: t.Name.Schema, name: t.Name.Name}
			sig, err := signal(k)
			if err != nil {
				return nil, err
			}
			out[name] = sig
			continue
		}
		read, ok := views.Reads(k)
		if _, defined := views.Defs[k]; !defined || !ok {
			out[name] = "" // nothing in the database vouches for what it reads
			continue
		}
		vouched := true
		for _, r := range read {
			sig, err := signal(r)
			if err != nil {
				return nil, err
			}
			vouched = vouched && sig != ""
		}
		if !vouched {
			out[name] = ""
			continue
		}
		out[name] = warehouse.JoinSignals(read, func(r string) string { return tableSig[r] })
	}
	return out, nil
}

// readsFiles reports that the token at i makes a view read files, which
// nothing in the database vouches for: a read_… or …_scan function, or a
// quoted path after FROM or JOIN.
func readsFiles(toks []warehouse.Token, i int) bool {
	t := toks[i]
	switch t.Kind {
	case warehouse.TokenString:
		return i > 0 && toks[i-1].Kind == warehouse.TokenWord && (strings.EqualFold(toks[i-1].Text, "from") || strings.EqualFold(toks[i-1].Text, "join"))
	case warehouse.TokenWord:
		w := strings.ToLower(t.Text)
		return strings.HasPrefix(w, "read_") || strings.HasSuffix(w, "_scan")
	}
	return false
}
