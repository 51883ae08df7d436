package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/report"
)

// sqliteHeader starts every SQLite file; it tells a catalog from a report.json.
const sqliteHeader = "SQLite format 3\x00"

func newDiffCmdReal(stdout io.Writer) *cobra.Command {
	var (
		asJSON bool
		failOn []string
		thresh = report.DefaultDiffOptions()
	)
	cmd := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "compare two report.json files or catalogs; exit 3 on drift",
		Long: `Compare two discoveries of a database: each of OLD and NEW is a report.json or a
catalog.db (its newest run is used). Changes fall in five categories:

  schema         tables and views added or removed, a view that became a table,
                 columns added or removed, type, nullability and primary key changes,
                 a changed default, comment, generated or identity column, check,
                 trigger, index, view definition, or a declared reference's name
                 or ON DELETE / ON UPDATE action
  relationships  references added or removed, their source or cardinality changed
  stats          row count, NULL fraction and distinct count beyond the thresholds,
                 new values of enum and boolean columns, new kinds of anomaly
  unread         a table one of the runs could not read or profile: never reported
                 as removed or added, its figures not compared (not drift unless
                 --fail-on names it)
  descriptions   the team's descriptions (discover.yaml comments:) that changed:
                 the configuration's, not the database's (not drift unless
                 --fail-on names it)

Exit 3 when a category named by --fail-on changed; changes in the other
categories are printed as informational and do not change the exit code.`,
		Example: `  discover diff yesterday/report.json today/report.json
  discover diff --fail-on schema,relationships old/catalog.db new/catalog.db
  discover diff --json a.json b.json | jq '.changes[] | select(.failing)'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("diff needs two arguments, OLD and NEW (report.json files or catalogs), got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := applyEnv(cmd.Flags()); err != nil {
				return err
			}
			opts := thresh
			cats, err := parseFailOn(failOn)
			if err != nil {
				return err
			}
			opts.FailOn = cats
			for _, t := range []struct {
				flag string
				v    float64
			}{{"rows-threshold", opts.RowsThreshold}, {"nulls-threshold", opts.NullsThreshold}, {"distinct-threshold", opts.DistinctThreshold}} {
				if t.v < 0 || math.IsNaN(t.v) || math.IsInf(t.v, 0) {
					return usagef("--%s %v: want a number ≥ 0", t.flag, t.v)
				}
			}
			old, err := loadReport(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			cur, err := loadReport(cmd.Context(), args[1])
			if err != nil {
				return err
			}
			res := report.Diff(old, cur, opts)
			if asJSON {
				err = res.WriteJSON(stdout)
			} else {
				err = res.Render(stdout)
			}
			if err != nil {
				return err
			}
			if res.Drift {
				// The output already says what drifted; no stderr line.
				return exitError{code: exitDrift}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, `print {"drift": bool, "changes": [...]} instead of text`)
	f.StringSliceVar(&failOn, "fail-on", slices.Clone(report.DefaultFailOn),
		"categories that are drift (exit 3): schema, relationships, stats, unread, descriptions, or none")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return withPrefix(append(slices.Clone(report.Categories), "none"), toComplete), cobra.ShellCompDirectiveNoFileComp
	})
	f.Float64Var(&thresh.RowsThreshold, "rows-threshold", thresh.RowsThreshold, "relative row-count change reported as drift (0.1 = 10%)")
	f.Float64Var(&thresh.NullsThreshold, "nulls-threshold", thresh.NullsThreshold, "absolute NULL-fraction change reported as drift")
	f.Float64Var(&thresh.DistinctThreshold, "distinct-threshold", thresh.DistinctThreshold, "relative distinct-count change reported as drift")
	return cmd
}

func parseFailOn(list []string) ([]string, error) {
	var out []string
	none := false
	for _, v := range list {
		v = strings.ToLower(strings.TrimSpace(v))
		switch {
		case v == "none":
			none = true
		case slices.Contains(report.Categories, v):
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		default:
			return nil, usagef("--fail-on %q: want a list of schema, relationships, stats, unread, descriptions, or none", v)
		}
	}
	if none && len(out) > 0 {
		return nil, usagef("--fail-on: none cannot be combined with %s", strings.Join(out, ","))
	}
	if len(out) == 0 && !none {
		return nil, usagef("--fail-on is empty: name categories, or none")
	}
	return out, nil
}

// loadReport reads a report.json or the newest run of a catalog. Every
// failure is bad input (exit 2) and names the file, since with two inputs
// the user must know which one is wrong.
func loadReport(ctx context.Context, path string) (*report.Report, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, usagef("%s: no such file", path)
	case st.IsDir():
		return nil, usagef("%s: is a directory, not a report.json or catalog", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	if bytes.HasPrefix(b, []byte(sqliteHeader)) {
		return loadCatalog(ctx, path)
	}
	if err := report.Validate(b); err != nil {
		return nil, usagef("%s is not a valid report.json or catalog: %s", path, firstLine(err))
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, usagef("%s is not a valid report.json: %v", path, err)
	}
	return &r, nil
}

func loadCatalog(ctx context.Context, path string) (*report.Report, error) {
	// The file exists (loadReport checked), so Open cannot create one; it
	// also refuses a SQLite database that is not a catalog.
	cat, err := catalog.Open(ctx, path)
	if err != nil {
		return nil, usageError{err} // names the file already
	}
	defer cat.Close()
	run, err := cat.LatestRun(ctx, false)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, usagef("%s: the catalog has no runs", path)
	}
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	if run.FinishedAt == nil {
		// A partial run lacks what it had not reached yet; diffing it would
		// report those tables as removed.
		return nil, usagef("%s: its newest run %s is unfinished (finish it with --resume, or diff its report.json)", path, run.ID)
	}
	r, err := report.FromCatalog(ctx, cat, run.ID)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return r, nil
}

// firstLine keeps a schema validation error to its headline and first
// cause; the full list would swamp the one-line error.
func firstLine(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	if len(lines) > 2 {
		lines = lines[:2]
	}
	return strings.Join(lines, " ")
}
