// Command piibench measures the detection of personal data (issue 21): it
// runs the whole discovery on every database a folder's MANIFEST.tsv lists
// (name, file, and held_out: "no" leaves a database out unless -all) and
// compares each column's pii category in the report with TRUTH.tsv (db,
// table, column, category or "none"), printing precision, recall and F1
// per category and overall.
//
//	python3 cmd/piibench/generate.py DIR
//	go run ./cmd/piibench -data DIR [-v]
//
// A column counts for a category when the truth or the report gives it
// that category; a column both call "none" counts for nothing. A column
// given the wrong category is a false positive of the one and a false
// negative of the other.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/internal/benchrun"
)

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }

// Main runs the benchmark: exit 0, 1 when a database could not be run, 2
// on bad usage.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("piibench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "the folder generate.py wrote: MANIFEST.tsv, TRUTH.tsv and the databases")
	verbose := fs.Bool("v", false, "list every column the report and the truth disagree on")
	all := fs.Bool("all", false, "score the databases MANIFEST.tsv marks as not held out (held_out no) too")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "piibench: -data DIR is required (python3 cmd/piibench/generate.py DIR writes one)")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	truth, err := readTruth(filepath.Join(*data, "TRUTH.tsv"))
	if err != nil {
		fmt.Fprintln(stderr, "piibench:", err)
		return 2
	}
	manifest, err := benchrun.ReadTSV(filepath.Join(*data, "MANIFEST.tsv"))
	if err != nil {
		fmt.Fprintln(stderr, "piibench:", err)
		return 2
	}
	found := map[string]string{}
	scored := map[string]bool{} // the databases scored, lower case
	code := 0
	for _, row := range manifest {
		if len(row) < 2 {
			continue
		}
		name, file := row[0], row[1]
		if len(row) > 2 && row[2] == "no" && !*all {
			continue
		}
		scored[strings.ToLower(name)] = true
		got, err := detect(ctx, filepath.Join(*data, file))
		if err != nil {
			fmt.Fprintf(stderr, "piibench: %s: %v\n", name, err)
			code = 1
			continue
		}
		for col, cat := range got {
			found[strings.ToLower(name)+"\t"+col] = cat
		}
	}
	for key := range truth {
		if _, ok := scored[key[:strings.IndexByte(key, '\t')]]; !ok {
			delete(truth, key)
		}
	}
	s := Score(truth, found)
	Print(stdout, s, *verbose)
	return code
}

// detect runs a discovery of the database at path and returns each
// column's pii category, by "table\tcolumn" in lower case.
func detect(ctx context.Context, path string) (map[string]string, error) {
	rep, _, err := benchrun.Discover(ctx, "piibench", path, experts.Options{SampleRows: 1_000_000, QueryTimeout: time.Minute})
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, t := range rep.Tables {
		for _, c := range t.Columns {
			cat := "none"
			if c.PII != nil {
				cat = c.PII.Category
			}
			out[strings.ToLower(t.Name+"\t"+c.Name)] = cat
		}
	}
	return out, nil
}

// Counts are one category's true positives, false positives and false
// negatives, with the columns of the last two.
type Counts struct {
	TP, FP, FN int
	Wrong      []string // "db table column: truth → found"
}

func (c Counts) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }
func (c Counts) Recall() float64    { return ratio(c.TP, c.TP+c.FN) }
func (c Counts) F1() float64 {
	p, r := c.Precision(), c.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// Score compares found with truth, both by "db\ttable\tcolumn" (lower
// case); a column the report lacks counts as found "none".
func Score(truth, found map[string]string) map[string]*Counts {
	out := map[string]*Counts{}
	get := func(cat string) *Counts {
		if out[cat] == nil {
			out[cat] = &Counts{}
		}
		return out[cat]
	}
	for key, want := range truth {
		got, ok := found[key]
		if !ok {
			got = "none"
		}
		switch {
		case got == want && want != "none":
			get(want).TP++
		case got != want:
			line := strings.ReplaceAll(key, "\t", " ") + ": " + want + " → " + got
			if want != "none" {
				get(want).FN++
				get(want).Wrong = append(get(want).Wrong, line)
			}
			if got != "none" {
				get(got).FP++
				get(got).Wrong = append(get(got).Wrong, line)
			}
		}
	}
	return out
}

// Print writes a line per category and the overall micro-averaged line.
func Print(w io.Writer, s map[string]*Counts, verbose bool) {
	var cats []string
	for c := range s {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	fmt.Fprintf(w, "%-16s %5s %5s %5s %9s %7s %6s\n", "category", "tp", "fp", "fn", "precision", "recall", "f1")
	var all Counts
	for _, c := range cats {
		n := s[c]
		fmt.Fprintf(w, "%-16s %5d %5d %5d %9.3f %7.3f %6.3f\n", c, n.TP, n.FP, n.FN, n.Precision(), n.Recall(), n.F1())
		all.TP, all.FP, all.FN = all.TP+n.TP, all.FP+n.FP, all.FN+n.FN
	}
	fmt.Fprintf(w, "%-16s %5d %5d %5d %9.3f %7.3f %6.3f\n", "overall (micro)", all.TP, all.FP, all.FN, all.Precision(), all.Recall(), all.F1())
	if verbose {
		seen := map[string]bool{}
		for _, c := range cats {
			for _, line := range s[c].Wrong {
				if !seen[line] {
					seen[line] = true
					fmt.Fprintln(w, line)
				}
			}
		}
	}
}

// readTruth reads TRUTH.tsv (db, table, column, category) into
// "db\ttable\tcolumn" → category, names in lower case.
func readTruth(path string) (map[string]string, error) {
	rows, err := benchrun.ReadTSV(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, r := range rows {
		if len(r) != 4 {
			return nil, fmt.Errorf("%s: a row of %d fields, want db, table, column, category", path, len(r))
		}
		out[strings.ToLower(r[0]+"\t"+r[1]+"\t"+r[2])] = r[3]
	}
	return out, nil
}
