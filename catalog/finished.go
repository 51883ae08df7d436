package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
)

// LatestFinishedRun is the newest run that finished, passing over a newer
// one still running or killed: what a reader of the catalog's findings
// (discover lint) wants, since an unfinished run lacks what it had not
// reached yet. ErrNotFound when no run finished.
func (c *Catalog) LatestFinishedRun(ctx context.Context) (Run, error) {
	r, err := scanRun(c.reader.QueryRowContext(ctx, `
		SELECT `+runColumns+` FROM runs
		WHERE finished_at IS NOT NULL
		ORDER BY started_at DESC, rowid DESC
		LIMIT 1`))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return Run{}, fmt.Errorf("catalog: latest finished run: %w", err)
	}
	return r, nil
}

// RunFinished says whether the catalog file at path holds run runID, and
// whether that run finished, reading the file as it is: read-only, no
// migration, nothing created (package redact asks it of catalogs it does
// not own, to tell which sealing keys nothing will read again).
func RunFinished(ctx context.Context, path, runID string) (found, finished bool, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, false, fmt.Errorf("catalog: run %s of %s: %w", runID, path, err)
	}
	db, err := sql.Open("sqlite", dsn(abs, append([]string{"mode=ro"}, readerParams...)))
	if err != nil {
		return false, false, fmt.Errorf("catalog: run %s of %s: %w", runID, path, err)
	}
	defer db.Close()
	var at sql.NullString
	err = db.QueryRowContext(ctx, `SELECT finished_at FROM runs WHERE id = ?`, runID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("catalog: run %s of %s: %w", runID, path, openError(path, err))
	}
	return true, at.Valid, nil
}
