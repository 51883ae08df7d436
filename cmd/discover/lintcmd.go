package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/lint"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/report"
)

// exitViolations is lint's exit code when a rule found something, as
// linters have it.
const exitViolations = exitFailed

func newLintCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := &runOptions{}
	var asJSON bool
	var failOn string
	// The discovery's flags, apart: discover.yaml and DISCOVER_* set
	// those, as for a discovery, and not lint's own.
	runFlags := pflag.NewFlagSet("discovery", pflag.ContinueOnError)
	o.addRunFlags(runFlags)
	cmd := &cobra.Command{
		Use:   "lint (--catalog PATH | --db DSN | --demo) [flags]",
		Short: "check a discovery against the rules a schema reviewer expects; exit 1 on violations",
		Long: `Lint a database's schema with what a discovery found in its structure and its data.
With --catalog PATH it lints the newest finished run of that catalog (a discovery's
OUT/catalog.db); with --db DSN (the forms discover --help lists) or --demo it runs
a discovery first, exactly as
discover does (the same flags; the catalog and the reports go to --out, and a second
lint of an unchanged database takes the last run's findings in a second), then lints it.

Rules (each on unless said, configurable under lint: in discover.yaml):

  no_primary_key        (error)   a table with no declared primary key; names the key
                                  the data found, if any
  unindexed_reference   (warning) a declared, configured or confirmed inferred reference
                                  whose child columns lead no index, primary key or
                                  unique constraint (in any order for a composite)
  undeclared_reference  (warning) a reference the data confirms (checked, confidence
                                  >= min_confidence, 0.8) that the schema does not declare
  orphaned_reference    (error)   a declared or configured reference with child values
                                  that have no parent (more than max_orphan_fraction, 0)
  nullable_never_null   (info)    a nullable column with no NULL in a table read whole
                                  (not a sample) of at least min_rows (100) rows
  missing_comment       (info)    a table or column without a comment (off by default;
                                  tables, columns, all_or_nothing)
  inconsistent_naming   (warning) columns that reference one key under different names
                                  for one concept (cust_no, customer_ref); roles
                                  (manager_id, bill_customer_id) are not
  redundant_index       (warning) an index with the columns of another index, the
                                  primary key or a unique constraint, or a non-unique
                                  index that begins another
  isolated_table        (info)    a table no reference touches, in a database that has
                                  references

discover.yaml:

  lint:
    exclude: ["tmp_*"]                       # every rule: tables, or table.column
    unindexed_reference: {enabled: true, exclude: ["audit_*", "orders.note_id"]}
    undeclared_reference: {min_confidence: 0.9, severity: error}
    missing_comment: {enabled: true, columns: false}
    isolated_table: false

Output: the violations grouped by rule, one line each, then a summary line with the
counts; --json prints {"database", "dialect", "run_id", "complete", "incomplete",
"rules": [{"id", "description", "enabled", "severity", "exclude", "params",
"violations"}], "violations": [{"rule", "severity", "table", "columns", "message",
"references", "related", "figures": {"confidence", "orphan_fraction", "null_fraction",
"rows", "evidence"}}], "counts": {"violations", "errors", "warnings", "infos",
"rules_violated", "tables"}} (docs/contract-additions.md).

A report.json is not linted: it lacks the indexes, unique constraints and sampling
the rules read; lint its catalog.

Exit codes: 0 no violation; 1 violations (with --fail-on warning, only errors and
warnings count); 2 bad usage or input (no catalog, no finished run, a bad lint:
key); 4 no violation, but the run could not read everything (the output says
what; 0 with --allow-incomplete); and a discovery's own codes with --db.`,
		Example: `  discover lint --catalog discovery/catalog.db
  discover lint --db shop.db --json | jq '.violations[] | select(.rule == "unindexed_reference")'
  discover lint --demo --out /tmp/shop`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("lint takes no arguments: give --catalog PATH (a report.json lacks the indexes lint reads; lint its catalog), or --db DSN or --demo")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := o.settings(runFlags)
			if err != nil {
				return err
			}
			min := lint.Severity(failOn)
			if !slices.Contains(lint.Severities, min) {
				return usagef("--fail-on %q: want error, warning or info", failOn)
			}
			naming.Use(set.vocabulary)
			defer naming.Use(naming.Vocabulary{})
			finish := func(rep *report.Report) error {
				return printLint(stdout, lint.Lint(rep, set.lint), asJSON, min, o.allowIncomplete)
			}
			if o.db == "" && !o.demo {
				if o.catalogPath == "" {
					return usagef("nothing to lint: give --catalog PATH (a discovery's catalog.db), or --db DSN or --demo to discover first")
				}
				rep, err := lintedReport(cmd.Context(), o.catalogPath)
				if err != nil {
					return err
				}
				return finish(rep)
			}
			return discover(cmd.Context(), o, stdin, stderr, func(ctx context.Context, cat *catalog.Catalog, run catalog.Run) error {
				rep, _, err := writeReports(ctx, cat, run.ID, o.out, o.formats)
				if err != nil {
					return err
				}
				return finish(rep)
			})
		},
	}
	cmd.SetIn(stdin)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	f := cmd.Flags()
	f.AddFlagSet(runFlags)
	f.Lookup("catalog").Usage = "the catalog to lint (its newest finished run); with --db or --demo, where the discovery writes it (default OUT/catalog.db)"
	f.BoolVar(&asJSON, "json", false, "print one JSON document (rules, violations, counts) instead of text")
	f.StringVar(&failOn, "fail-on", string(lint.Info), "exit 1 on a violation of this severity or a more serious one: error, warning, info (every violation)")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return withPrefix([]string{"error", "warning", "info"}, toComplete), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// lintedReport is the report of the newest finished run of the catalog at
// path. Every failure is bad input (exit 2).
func lintedReport(ctx context.Context, path string) (*report.Report, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, usagef("--catalog %s: no such catalog file", path)
	case st.IsDir():
		return nil, usagef("--catalog %s: is a directory, not a catalog file", path)
	}
	cat, err := catalog.Open(ctx, path)
	if err != nil {
		return nil, usagef("--catalog %s: %v", path, err)
	}
	defer cat.Close()
	run, err := cat.LatestFinishedRun(ctx)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, usagef("--catalog %s: no finished run to lint (finish one with discover --resume, or lint with --db DSN)", path)
	}
	if err != nil {
		return nil, usagef("--catalog %s: %v", path, err)
	}
	rep, err := report.FromCatalog(ctx, cat, run.ID)
	if err != nil {
		return nil, usagef("--catalog %s: %v", path, err)
	}
	return rep, nil
}

// printLint prints the result and gives its exit code: 1 on a violation as
// serious as failOn; otherwise 0, or 4 when the run did not see everything
// (0 with --allow-incomplete), since what it did not read was not linted.
func printLint(stdout io.Writer, res *lint.Result, asJSON bool, failOn lint.Severity, allowIncomplete bool) error {
	var err error
	if asJSON {
		err = res.WriteJSON(stdout)
	} else {
		err = res.WriteText(stdout)
	}
	switch {
	case err != nil:
		return err
	case res.Fails(failOn):
		// The output says what; no stderr line, as diff on drift.
		return exitError{code: exitViolations}
	case !res.Complete:
		msg := "no failing violation in what the run read, but " + strings.TrimPrefix(strings.Join(res.Incomplete, " "), "This discovery is incomplete. ")
		msg = fmt.Sprintf("%s (the discovery is incomplete)", strings.TrimSuffix(msg, "."))
		if allowIncomplete {
			return exitError{exitOK, msg + " (--allow-incomplete: exit 0)"}
		}
		return exitError{exitIncomplete, msg}
	}
	return nil
}
