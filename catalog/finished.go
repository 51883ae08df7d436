package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
