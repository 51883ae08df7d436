package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/internal/benchrun"
	"github.com/discover-db/discover/report"
	"github.com/discover-db/discover/stablehash"
)

// Options of a benchmark run.
type Options struct {
	Datasets string
	Only     string
	Half     string // Tuning or Validation: only that half; "" both
	Parallel int
	Verbose  bool
	// Names is NamesAsIs, or NamesForeign: every database renamed into an
	// invented language first (foreign.go).
	Names string
	// Keep, when set, is a folder where the renamed copies stay (one
	// folder per database), to be discovered by hand.
	Keep string
}

// The halves of the datasets. Rules are developed on the tuning half only;
// the validation half says whether they hold on databases they were not
// written for, and every note reports both.
const (
	Tuning     = "tuning"
	Validation = "validation"
)

// HalfOf is the half a database belongs to, by a fixed hash of its name:
// the split never depends on which databases are present or in what
// order, so a database added later does not move the others, and no
// choice of the developer's puts a database in one half or the other.
func HalfOf(name string) string {
	if stablehash.Hash64(name)%2 == 0 {
		return Tuning
	}
	return Validation
}

// DB is one database's score.
type DB struct {
	Name                  string
	Truth, Inferred       int
	TP, FP, FN            int
	Neutral, Dirty        int      // inferred edges equal to a declared key that does not hold; of those, ORPHANS
	Conflicts             int      // false positives whose child column is declared to reference something else
	ImpliedFP, ImpliedFN  int      // not scored: inferred edges the truth says through a wider composite reference (impliedBy), and the truth's edges the inferred ones say so
	Implied               []string // those edges, marked
	FalsePos, FalseNeg    []string // relationship keys
	Elapsed               time.Duration
	Err                   string
	StopReason            string
	InferredOrphanReports []string // dirty keys found, with the orphan fraction reported
}

// Precision is TP/(TP+FP); 1 when nothing was inferred.
func (d DB) Precision() float64 {
	if d.TP+d.FP == 0 {
		return 1
	}
	return float64(d.TP) / float64(d.TP+d.FP)
}

// Recall is TP/(TP+FN); 1 when there is nothing to find.
func (d DB) Recall() float64 {
	if d.TP+d.FN == 0 {
		return 1
	}
	return float64(d.TP) / float64(d.TP+d.FN)
}

// F1 is the harmonic mean of precision and recall.
func (d DB) F1() float64 {
	p, r := d.Precision(), d.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// Total sums the databases' counts: micro-averaged scores.
func Total(dbs []DB) DB {
	t := DB{Name: "overall (micro)"}
	for _, d := range dbs {
		t.Truth += d.Truth
		t.Inferred += d.Inferred
		t.TP += d.TP
		t.FP += d.FP
		t.FN += d.FN
		t.Neutral += d.Neutral
		t.Dirty += d.Dirty
		t.Conflicts += d.Conflicts
		t.ImpliedFP += d.ImpliedFP
		t.ImpliedFN += d.ImpliedFN
		t.Elapsed += d.Elapsed
	}
	return t
}

type manifestRow struct{ name, path string }

// fk is one declared foreign key of FK_CHECK.tsv.
type fk struct {
	key, status string
	child       []string // table.column of each referencing column
	// the names as FK_CHECK.tsv writes them: child table, its columns,
	// parent table, its columns (comma-separated)
	names [4]string
}

// RelKey is how relationships are compared: case-insensitively, by table and
// column names. A composite reference's column pairs are put in the child
// columns' order: a key declared nowhere has no order of its own, and
// (c_d_id, c_w_id) → (d_id, d_w_id) is the reference its schema writes
// (c_w_id, c_d_id) → (d_w_id, d_id).
func RelKey(child, fcols, parent, tcols string) string {
	f, t := strings.Split(strings.ToLower(fcols), ","), strings.Split(strings.ToLower(tcols), ",")
	if len(f) > 1 && len(f) == len(t) {
		pairs := make([][2]string, len(f))
		for i := range f {
			pairs[i] = [2]string{f[i], t[i]}
		}
		slices.SortFunc(pairs, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
		for i, p := range pairs {
			f[i], t[i] = p[0], p[1]
		}
	}
	return strings.ToLower(child) + "(" + strings.Join(f, ",") + ")->" + strings.ToLower(parent) + "(" + strings.Join(t, ",") + ")"
}

// Run discovers every selected database and scores it.
func Run(ctx context.Context, o Options) ([]DB, error) {
	man, err := benchrun.ReadTSV(filepath.Join(o.Datasets, "MANIFEST.tsv"))
	if err != nil {
		return nil, err
	}
	check, err := benchrun.ReadTSV(filepath.Join(o.Datasets, "FK_CHECK.tsv"))
	if err != nil {
		return nil, err
	}
	fks := map[string][]fk{}
	for _, r := range check {
		if len(r) < 6 {
			continue
		}
		var child []string
		for _, c := range strings.Split(r[2], ",") {
			child = append(child, strings.ToLower(r[1]+"."+c))
		}
		fks[r[0]] = append(fks[r[0]], fk{RelKey(r[1], r[2], r[3], r[4]), r[5], child, [4]string{r[1], r[2], r[3], r[4]}})
	}
	var todo []manifestRow
	for _, r := range man {
		if len(r) < 2 || (o.Only != "" && !strings.Contains(r[0], o.Only)) || (o.Half != "" && HalfOf(r[0]) != o.Half) {
			continue
		}
		todo = append(todo, manifestRow{r[0], filepath.Join(o.Datasets, r[1])})
	}
	if len(todo) == 0 {
		in := ""
		if o.Half != "" {
			in = " in the " + o.Half + " half"
		}
		return nil, fmt.Errorf("no database in %s matches %q%s", o.Datasets, o.Only, in)
	}
	if o.Parallel < 1 {
		o.Parallel = 1
	}
	out := make([]DB, len(todo))
	var wg sync.WaitGroup
	sem := make(chan struct{}, o.Parallel)
	for i, m := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i] = scoreDB(ctx, m, fks[m.name], o)
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return out, nil
}

func scoreDB(ctx context.Context, m manifestRow, declared []fk, o Options) DB {
	d := DB{Name: m.name}
	path := m.path
	// shown is how a key of the discovered database is listed.
	shown := func(child string, fcols []string, parent string, tcols []string) string {
		return RelKey(child, strings.Join(fcols, ","), parent, strings.Join(tcols, ","))
	}
	if o.Names == NamesForeign {
		r, dir, err := foreignCopy(ctx, m.path, o.Keep, m.name)
		if err != nil {
			d.Err = err.Error()
			return d
		}
		if o.Keep == "" {
			defer os.RemoveAll(dir)
		}
		path = r.path
		// The truth in the copy's names; a key whose names the copy lacks
		// (a view's) keeps its English ones and is simply not found.
		for i, f := range declared {
			if k, ok := r.key(f.names[0], f.names[1], f.names[2], f.names[3]); ok {
				f.key = k
				f.child = nil
				for _, c := range strings.Split(f.names[1], ",") {
					f.child = append(f.child, strings.ToLower(r.tables[strings.ToLower(f.names[0])]+"."+r.cols[strings.ToLower(f.names[0])][strings.ToLower(c)]))
				}
				declared[i] = f
			}
		}
		shown = func(child string, fcols []string, parent string, tcols []string) string {
			return RelKey(child, strings.Join(fcols, ","), parent, strings.Join(tcols, ",")) + " [" + r.englishKey(child, fcols, parent, tcols) + "]"
		}
	}
	start := time.Now()
	rels, stop, err := discover(ctx, path)
	d.Elapsed = time.Since(start)
	d.StopReason = stop
	if err != nil {
		d.Err = err.Error()
	}
	truth, status, referencing := map[string]bool{}, map[string]string{}, map[string]bool{}
	truthShown := map[string]string{}
	for _, f := range declared {
		truthShown[f.key] = f.key
		if o.Names == NamesForeign {
			truthShown[f.key] = f.key + " [" + RelKey(f.names[0], f.names[1], f.names[2], f.names[3]) + "]"
		}
		status[f.key] = f.status
		for _, c := range f.child {
			referencing[c] = true
		}
		if f.status == "HOLDS" {
			truth[f.key] = true
		}
	}
	d.Truth = len(truth)
	var truthRefs, gotRefs []ref
	for k := range truth {
		if r, ok := parseKey(k); ok {
			truthRefs = append(truthRefs, r)
		}
	}
	got := map[string]bool{}
	for _, r := range rels {
		if r.Source != "inferred" {
			continue
		}
		gr := newRef(r.FromTable, r.FromColumns, r.ToTable, r.ToColumns)
		gotRefs = append(gotRefs, gr)
		k := RelKey(r.FromTable, strings.Join(r.FromColumns, ","), r.ToTable, strings.Join(r.ToColumns, ","))
		got[k] = true
		d.Inferred++
		switch {
		case truth[k]:
			d.TP++
		case status[k] != "":
			d.Neutral++
			if status[k] == "ORPHANS" {
				d.Dirty++
				of := "null"
				if r.OrphanFraction != nil {
					of = fmt.Sprintf("%.3f", *r.OrphanFraction)
				}
				d.InferredOrphanReports = append(d.InferredOrphanReports, k+" orphan_fraction "+of)
			}
		case impliedBy(gr, truthRefs):
			d.ImpliedFP++
			d.Implied = append(d.Implied, "inferred, said by the truth: "+shown(r.FromTable, r.FromColumns, r.ToTable, r.ToColumns))
		default:
			d.FP++
			// An edge from a column the schema declares nothing for may be
			// a real reference its authors left out; one from a declared
			// referencing column that points elsewhere is a plain mistake.
			why := "undeclared"
			if referencing[strings.ToLower(r.FromTable+"."+strings.Join(r.FromColumns, ","))] {
				why = "conflicts with a declaration"
				d.Conflicts++
			}
			d.FalsePos = append(d.FalsePos, fmt.Sprintf("%s (%.2f, %s; %s)", shown(r.FromTable, r.FromColumns, r.ToTable, r.ToColumns), r.Confidence, why, strings.Join(head(r.Evidence, 1), "")))
		}
	}
	for k := range truth {
		if r, ok := parseKey(k); ok && !got[k] && impliedBy(r, gotRefs) {
			d.ImpliedFN++
			d.Implied = append(d.Implied, "truth, said by the inferred: "+truthShown[k])
			continue
		}
		if !got[k] {
			d.FN++
			d.FalseNeg = append(d.FalseNeg, truthShown[k])
		}
	}
	sort.Strings(d.FalsePos)
	sort.Strings(d.FalseNeg)
	sort.Strings(d.Implied)
	return d
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// discover runs the four experts over one database with its declared
// foreign keys ignored and returns the report's relationships.
func discover(ctx context.Context, path string) ([]report.Relationship, string, error) {
	rctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	rep, stop, err := benchrun.Discover(rctx, "relbench", path,
		experts.Options{SampleRows: 1_000_000, QueryTimeout: time.Minute, IgnoreDeclaredFKs: true})
	if err != nil {
		return nil, stop, err
	}
	return rep.Relationships, stop, nil
}

// Print writes one row per database and the overall micro-averaged line.
func Print(w io.Writer, dbs []DB, verbose bool) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "database\ttruth\tinferred\ttp\tfp\tfp_conflict\tfn\tdirty\timplied\tprecision\trecall\tf1\ttime\t")
	line := func(d DB) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d/%d\t%.3f\t%.3f\t%.3f\t%s\t\n", d.Name, d.Truth, d.Inferred, d.TP, d.FP, d.Conflicts, d.FN, d.Dirty,
			d.ImpliedFP, d.ImpliedFN, d.Precision(), d.Recall(), d.F1(), d.Elapsed.Round(time.Millisecond))
	}
	for _, d := range dbs {
		line(d)
	}
	line(Total(dbs))
	halves := map[string][]DB{}
	for _, d := range dbs {
		halves[HalfOf(d.Name)] = append(halves[HalfOf(d.Name)], d)
	}
	for _, h := range []string{Tuning, Validation} {
		if len(halves[h]) > 0 && len(halves[h]) < len(dbs) {
			t := Total(halves[h])
			t.Name = fmt.Sprintf("%s half (%d dbs, micro)", h, len(halves[h]))
			line(t)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "truth: declared FKs that hold (FK_CHECK.tsv HOLDS); fp_conflict: false positives from a column declared to reference something else")
	fmt.Fprintln(w, "(the other false positives come from columns the schema declares nothing for); dirty: inferred edges equal to a declared FK with orphans, not scored")
	fmt.Fprintln(w, "implied: inferred edges the truth says through a wider composite reference / truth edges the inferred ones say so, not scored")
	for _, d := range dbs {
		if d.Err != "" {
			fmt.Fprintf(w, "%s: run failed: %s\n", d.Name, d.Err)
		}
		if !verbose {
			continue
		}
		for _, k := range d.FalsePos {
			fmt.Fprintf(w, "%s\tFP\t%s\n", d.Name, k)
		}
		for _, k := range d.FalseNeg {
			fmt.Fprintf(w, "%s\tFN\t%s\n", d.Name, k)
		}
		for _, k := range d.Implied {
			fmt.Fprintf(w, "%s\tIMPLIED\t%s\n", d.Name, k)
		}
		for _, k := range d.InferredOrphanReports {
			fmt.Fprintf(w, "%s\tDIRTY\t%s\n", d.Name, k)
		}
	}
}

// findDatasets looks for shared/datasets in the working directory and above.
func findDatasets() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "shared", "datasets")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("shared/datasets not found above the working directory; give -datasets DIR")
		}
		dir = parent
	}
}
