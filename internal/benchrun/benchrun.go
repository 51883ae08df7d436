// Package benchrun is what the benchmark commands (relbench, piibench)
// share: a whole discovery of a database file in process, into a catalog
// in a temporary folder, and the tab-separated files their datasets
// describe themselves in.
package benchrun

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/registry"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/report"
	"github.com/discover-db/discover/warehouse/connect"
)

// Discover runs every expert over the database at path, as a default
// discovery with opts, under the run id id, and returns its report and the
// run's stop reason (also when the run failed).
func Discover(ctx context.Context, id, path string, opts experts.Options) (*report.Report, string, error) {
	dir, err := os.MkdirTemp("", id+"-*")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(dir)
	src, err := connect.Open(ctx, path)
	if err != nil {
		return nil, "", err
	}
	defer src.Close()
	cat, err := catalog.Open(ctx, filepath.Join(dir, "catalog.db"))
	if err != nil {
		return nil, "", err
	}
	defer cat.Close()
	run := catalog.Run{ID: id, DSN: path, Dialect: src.Dialect().Name(), Database: src.Database(), StartedAt: time.Now().UTC()}
	if err := cat.StartRun(ctx, run); err != nil {
		return nil, "", err
	}
	orc := &orchestrator.Orchestrator{
		Source:  src,
		Catalog: cat,
		Experts: registry.New(),
		Config: orchestrator.Config{
			MaxIterations: 50, TargetConfidence: 0.95, TargetCoverage: 0.95, Parallel: 2,
			Options: opts,
		},
	}
	run, err = orc.Run(ctx, run)
	if err != nil {
		return nil, run.StopReason, err
	}
	rep, err := report.FromCatalog(context.WithoutCancel(ctx), cat, run.ID)
	if err != nil {
		return nil, run.StopReason, err
	}
	return rep, run.StopReason, nil
}

// ReadTSV reads a tab-separated file without its header line; a file
// without even a header is an error.
func ReadTSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	return rows[1:], nil
}
