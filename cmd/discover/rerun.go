package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/incremental"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/warehouse"
)

// findingSettings are the settings that can change a finding: a re-run
// with other ones is a run in full. The deadline, parallelism, output and
// progress flags are not among them (a complete run finds the same with
// any of them).
type findingSettings struct {
	Database         string
	SampleRows       int64
	MaxIterations    int
	TargetConfidence float64
	TargetCoverage   float64
	MaxQueries       int64
	QueryTimeout     time.Duration
	Include, Exclude []string
	LLM, LLMModel    string
	LLMBaseURL       string
	LLMPaths         int
	LLMMaxCalls      int64
	LLMMaxTokens     int64
	Relations        any
	Vocabulary       any
	// Comments are written into the run's table entries: a run whose
	// comments differ cannot take them from the last.
	Comments        []experts.UserComment `json:",omitempty"`
	IgnoreFKs       bool
	AllowPrivileged bool
	Role            string
	// ShowPII: a run that masked its personal values cannot show them to
	// a re-run that asks to see them.
	ShowPII bool
	// LLMAllowPII changes what a model is told, and so what it writes.
	LLMAllowPII bool
}

// basisOf lists the source's tables and takes the basis of a new run
// (incremental.Take) over those it will read; it returns the listing too,
// for the run, and the tables read. When the engine's signals cannot be
// read, the run goes on in full, and says so.
func basisOf(ctx context.Context, src warehouse.Source, o *runOptions, database string, stderr io.Writer) (basis *catalog.RunBasis, all, tables []warehouse.Table, err error) {
	all, err = src.Tables(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	tables, err = orchestrator.Filter(all, o.include, o.exclude)
	if err != nil {
		return nil, nil, nil, err
	}
	build, err := incremental.Build()
	if err != nil {
		// Not a reason to stop: this run is only one no later run reuses.
		if !o.quiet {
			fmt.Fprintf(stderr, "discover: %v: the next run cannot reuse this one's findings\n", err)
		}
		build = "unidentified " + newRunID()
	}
	settings, err := incremental.Settings(findingSettings{
		Database: database, SampleRows: o.sampleRows, MaxIterations: o.maxIterations,
		TargetConfidence: o.targetConfidence, TargetCoverage: o.targetCoverage, MaxQueries: o.maxQueries,
		QueryTimeout: o.queryTimeout, Include: o.include, Exclude: o.exclude,
		LLM: o.llm, LLMModel: o.llmModel, LLMBaseURL: redactURL(o.llmBaseURL), LLMPaths: o.llmPaths,
		LLMMaxCalls: o.llmMaxCalls, LLMMaxTokens: o.llmMaxTokens,
		Relations: o.relations, Vocabulary: o.vocabulary, Comments: o.comments,
		IgnoreFKs: o.ignoreDeclaredFKs, AllowPrivileged: o.allowPrivileged, Role: o.role, ShowPII: o.showPII, LLMAllowPII: o.llmAllowPII,
	})
	if err != nil {
		return nil, nil, nil, err
	}
	basis, err = incremental.Take(ctx, src, tables, build, settings)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, nil, ctx.Err()
		}
		if !o.quiet {
			fmt.Fprintf(stderr, "discover: the engine's change signals could not be read (%v): the next run cannot reuse this one's findings\n", err)
		}
		basis = &catalog.RunBasis{Build: build, Settings: settings, Tables: map[string]string{}}
		for _, t := range tables {
			basis.Tables[t.Name.String()] = ""
		}
	}
	return basis, all, tables, nil
}

// startNew records a new run with its basis, and returns it with the
// source's listing the basis was taken over; unless --full,
// when the catalog's last run may be reused, the new run takes its
// findings and is returned finished. Otherwise, when there was a last run,
// one line on stderr says why it is not reused.
func startNew(ctx context.Context, cat *catalog.Catalog, o *runOptions, src warehouse.Source, run catalog.Run, stderr io.Writer) (catalog.Run, []warehouse.Table, error) {
	basis, listed, tables, err := basisOf(ctx, src, o, run.Database, stderr)
	if err != nil {
		return run, listed, fmt.Errorf("start run: %w", err)
	}
	prev, why, err := incremental.Previous(ctx, cat, run.DSN, basis)
	if err != nil {
		return run, listed, fmt.Errorf("start run: %w", err)
	}
	rerun := prev.ID != "" || why != "" // the catalog holds an earlier run
	if o.full {
		prev, why = catalog.Run{}, ""
	}
	if prev.ID == "" && rerun && basis.Content == nil {
		// A re-run that reads the data: where the tables share one
		// signal (a database file), their content signals tell which
		// changed, so that kept results serve the others, now or next
		// time; and they may show that none did.
		took, err := incremental.TakeContent(ctx, src, tables, basis)
		switch {
		case err != nil && ctx.Err() != nil:
			return run, listed, fmt.Errorf("start run: %w", ctx.Err())
		case err != nil:
			if !o.quiet {
				fmt.Fprintf(stderr, "discover: the tables' content signals could not be read (%v): this run redoes every table\n", err)
			}
		case took && !o.full:
			if prev, why, err = incremental.Previous(ctx, cat, run.DSN, basis); err != nil {
				return run, listed, fmt.Errorf("start run: %w", err)
			}
		}
	}
	// The last run, and the tables whose signals are the same as its:
	// read before this run is recorded, which would be the latest.
	var last catalog.Run
	var same []string
	if prev.ID == "" && rerun && !o.full {
		if last, same, err = incremental.Unchanged(ctx, cat, run.DSN, basis); err != nil {
			return run, listed, fmt.Errorf("start run: %w", err)
		}
	}
	if run.Basis, err = json.Marshal(basis); err != nil {
		return run, listed, fmt.Errorf("start run: %w", err)
	}
	if err := cat.StartRun(ctx, run); err != nil {
		return run, listed, fmt.Errorf("start run: %w", err)
	}
	if prev.ID == "" {
		if why != "" && !o.quiet {
			fmt.Fprintf(stderr, "discover: running in full: %s\n", why)
		}
		if len(same) > 0 {
			if err := adoptProfiles(ctx, cat, last, run, same, o, stderr); err != nil {
				return run, listed, fmt.Errorf("start run: %w", err)
			}
		}
		return run, listed, nil
	}
	run, err = incremental.Reuse(ctx, cat, prev, run, basis, time.Now())
	if err != nil {
		return run, listed, fmt.Errorf("reuse run %s: %w", prev.ID, err)
	}
	if !o.quiet {
		fmt.Fprintf(stderr, "discover: nothing changed since run %s (discover's build, the settings and %d tables' change signals are the same): its findings are this run's; --full redoes them\n",
			prev.ID, len(basis.Tables))
	}
	return run, listed, nil
}

// adoptProfiles gives run, a run in full after some tables changed, the
// last run's profiles of the tables that did not (same, from
// incremental.Unchanged), where that profile finished without a doubt
// (statistical.Reusable): a profile depends on its table alone, and
// reading a large table again to profile it is most of a re-run's time.
// Every other finding is made anew, its statements over unchanged tables
// answered by kept results.
func adoptProfiles(ctx context.Context, cat *catalog.Catalog, last, run catalog.Run, same []string, o *runOptions, stderr io.Writer) error {
	reusable, err := statistical.Reusable(ctx, cat, last.ID, same)
	if err != nil {
		return err
	}
	n, err := cat.AdoptTables(ctx, last.ID, run.ID, statistical.Name, reusable)
	if err != nil {
		return err
	}
	if n > 0 && !o.quiet {
		fmt.Fprintf(stderr, "discover: the profiles of %d unchanged tables are taken from run %s\n", len(reusable), last.ID)
	}
	return nil
}
