package duckdb

import (
	"context"
	"fmt"

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
