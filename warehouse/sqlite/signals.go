package sqlite

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.ChangeSignaler = (*Source)(nil)

// ChangeSignals gives every table and view the same signal: the file's and
// its WAL's sizes and modification times, and the header's file change
// counter (offset 24, bumped by every commit in rollback-journal mode) and
// schema cookie (offset 40). SQLite keeps no time or counter per table, so
// a change anywhere in the file is a change of every table.
func (s *Source) ChangeSignals(ctx context.Context, tables []warehouse.Table) (map[string]string, error) {
	header, err := readHeader(s.abs)
	if err != nil {
		return nil, fmt.Errorf("sqlite: change signals: %w", err)
	}
	sig, err := warehouse.FileSignal([]string{s.abs, s.abs + "-wal"}, header[24:28], header[40:44])
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	out := make(map[string]string, len(tables))
	for _, t := range tables {
		out[t.Name.String()] = sig
	}
	return out, nil
}

func readHeader(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := make([]byte, 100)
	if _, err := io.ReadFull(f, h); err != nil {
		return nil, err
	}
	return h, nil
}
