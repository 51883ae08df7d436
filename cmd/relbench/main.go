// Command relbench measures relationship inference (issue #5): it runs the
// whole discovery on every database of shared/datasets with the declared
// foreign keys ignored, and compares the inferred relationships with the
// declared ones that hold in the data (FK_CHECK.tsv, status HOLDS).
//
//	go run ./cmd/relbench [-datasets DIR] [-only NAME] [-half tuning|validation] [-names foreign] [-v] [-min-precision F -min-recall F]
//
// The databases fall into a tuning half and a validation half by a fixed
// hash of their names (HalfOf); the output gives both halves' figures.
// Develop rules with -half tuning; a figure on the tuning half alone is
// not a result.
//
// Declared keys that do not hold (ORPHANS, EMPTY, BROKEN) are neither
// rewarded nor punished: an inferred edge equal to one of them is counted
// apart ("dirty" for ORPHANS) and left out of precision.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
)

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }

// Main runs the benchmark and returns the exit code: 0, 1 when a
// -min-precision/-min-recall bound is missed or a run fails, 2 on bad usage.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("relbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	fs.StringVar(&o.Datasets, "datasets", "", "the datasets folder with MANIFEST.tsv and FK_CHECK.tsv (default: shared/datasets above the working directory)")
	fs.StringVar(&o.Only, "only", "", "only databases whose name contains this (e.g. chinook, spider/)")
	fs.StringVar(&o.Half, "half", "", "only the tuning or the validation half of the databases (default: both, each reported)")
	fs.IntVar(&o.Parallel, "parallel", 2, "databases discovered at once")
	fs.BoolVar(&o.Verbose, "v", false, "list every false positive and false negative")
	fs.StringVar(&o.Names, "names", NamesAsIs, "\"foreign\": rename every table and column into an invented language first, so that inference cannot lean on English words (the values decide)")
	fs.StringVar(&o.Keep, "keep", "", "with -names foreign: keep the renamed copies in this folder, one folder per database")
	minP := fs.Float64("min-precision", 0, "exit 1 when overall precision (of the databases run) is below this")
	minR := fs.Float64("min-recall", 0, "exit 1 when overall recall (of the databases run) is below this")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "relbench: unexpected arguments %v\n", fs.Args())
		return 2
	}
	if o.Names != NamesAsIs && o.Names != NamesForeign {
		fmt.Fprintf(stderr, "relbench: -names is %q or empty, not %q\n", NamesForeign, o.Names)
		return 2
	}
	if o.Half != "" && o.Half != Tuning && o.Half != Validation {
		fmt.Fprintf(stderr, "relbench: -half is %q or %q, not %q\n", Tuning, Validation, o.Half)
		return 2
	}
	if o.Datasets == "" {
		d, err := findDatasets()
		if err != nil {
			fmt.Fprintln(stderr, "relbench:", err)
			return 2
		}
		o.Datasets = d
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := Run(ctx, o)
	if err != nil {
		fmt.Fprintln(stderr, "relbench:", err)
		return 2
	}
	Print(stdout, res, o.Verbose)
	code := 0
	for _, d := range res {
		if d.Err != "" {
			code = 1
		}
	}
	total := Total(res)
	if total.Precision() < *minP || total.Recall() < *minR {
		fmt.Fprintf(stderr, "relbench: precision %.3f (min %.3f), recall %.3f (min %.3f)\n", total.Precision(), *minP, total.Recall(), *minR)
		code = 1
	}
	return code
}
