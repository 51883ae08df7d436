package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/warehouse"
)

// wantType says in words what a flag of pflag's Value.Type() takes, so a
// wrong value is answered with what to give rather than the parser's
// message (strconv.ParseInt, time: invalid duration).
func wantType(typ string) string {
	switch typ {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count":
		return "a whole number"
	case "float32", "float64":
		return "a number such as 0.9"
	case "duration":
		return "a duration such as 90s, 10m or 1h"
	case "bool":
		return "true or false"
	case "stringSlice", "stringArray":
		return "a list such as [a, b] or a,b"
	case "string":
		return "a string"
	}
	return "a " + typ + " value"
}

// badValue is the error for a value of the wrong type: what the flag takes
// and what it got, never the parser's own words.
func badValue(typ, got string, cause error) error {
	msg := fmt.Sprintf("want %s, got %q", wantType(typ), got)
	if errors.Is(cause, strconv.ErrRange) {
		msg += " (out of range)"
	}
	return errors.New(msg)
}

// flagError rewrites pflag's "invalid argument … strconv.ParseInt: …" for a
// wrongly typed flag on the command line as badValue does for the file and
// DISCOVER_*; other flag errors stay as they are.
func flagError(err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) || iv.GetFlag() == nil {
		return err
	}
	fl := iv.GetFlag()
	return fmt.Errorf("--%s: %w", fl.Name, badValue(fl.Value.Type(), iv.GetValue(), iv.Unwrap()))
}

// checkInput refuses, before a run starts, flags and discover.yaml entries
// that name what the database does not have: an --include matching no table
// or view (the run would discover nothing, or less than asked, and say
// nothing), a relation naming a missing table or column. Every problem
// found is named in the one error.
func checkInput(ctx context.Context, src warehouse.Source, o *runOptions) error {
	if len(o.include) == 0 && len(o.exclude) == 0 && len(o.relations) == 0 && len(o.comments) == 0 {
		return nil // nothing to check: spare the extra introspection
	}
	all, err := src.Tables(ctx)
	if err != nil {
		// A database that cannot be listed is not bad input: the run
		// meets the same error and reports it as its outcome.
		return nil
	}
	// A malformed glob is bad input too (orchestrator.Filter says which).
	if _, err := orchestrator.Filter(all, nil, o.exclude); err != nil {
		return err
	}
	var problems []string
	p, err := includeProblem(all, o.include)
	if err != nil {
		return err
	}
	if p != "" {
		problems = append(problems, p)
	}
	problems = append(problems, relationProblems(all, o.relations, configPath(o))...)
	problems = append(problems, commentProblems(all, o.comments, configPath(o))...)
	if len(problems) > 0 {
		return usagef("%s", strings.Join(problems, "; "))
	}
	return nil
}

// includeProblem names the --include globs that match no table or view,
// matched one at a time exactly as the run matches them.
func includeProblem(all []warehouse.Table, include []string) (string, error) {
	var none []string
	for _, g := range include {
		kept, err := orchestrator.Filter(all, []string{g}, nil)
		if err != nil {
			return "", err
		}
		if len(kept) == 0 {
			none = append(none, g)
		}
	}
	if len(none) == 0 {
		return "", nil
	}
	quoted := make([]string, len(none))
	for i, g := range none {
		quoted[i] = strconv.Quote(g)
	}
	verb := "matches"
	if len(none) > 1 {
		verb = "match"
	}
	return fmt.Sprintf("--include %s %s no table or view (%s)", strings.Join(quoted, ", "), verb, tableExamples(all, none)), nil
}

// maxExamples bounds the names a message lists.
const maxExamples = 5

// tableExamples says how many tables and views the database has and names
// a few, those spelled most like the patterns first: a typo's table is
// then among them.
func tableExamples(all []warehouse.Table, patterns []string) string {
	if len(all) == 0 {
		return "the database has no table or view"
	}
	names := make([]string, len(all))
	for i, t := range all {
		names[i] = t.Name.String()
	}
	score := func(n string) int {
		best := 0
		for _, p := range patterns {
			best = max(best, sharedPrefix(strings.ToLower(n), strings.ToLower(p)))
		}
		return best
	}
	sort.SliceStable(names, func(i, j int) bool {
		si, sj := score(names[i]), score(names[j])
		if si != sj {
			return si > sj
		}
		return names[i] < names[j]
	})
	return fmt.Sprintf("the database has %d; e.g. %s", len(all), listSome(names))
}

func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// listSome joins the first maxExamples names, with … when there are more.
func listSome(names []string) string {
	if len(names) > maxExamples {
		return strings.Join(names[:maxExamples], ", ") + ", …"
	}
	return strings.Join(names, ", ")
}

// relationProblems names each discover.yaml relation whose table or
// columns the database does not have, with the entry's line. Names are
// resolved as the structural expert resolves them (naming.TableIndex,
// naming.FindColumn): spelled so, else the only match in another case.
func relationProblems(all []warehouse.Table, rels []experts.UserRelation, path string) []string {
	idx := naming.NewTableIndex(all)
	var out []string
	for _, r := range rels {
		at := fmt.Sprintf("%s:%d: relations", path, r.Line)
		if p := refProblem(idx, all, r.FromTable, r.FromColumns); p != "" {
			out = append(out, at+": from: "+p)
		}
		if p := refProblem(idx, all, r.ToTable, r.ToColumns); p != "" {
			out = append(out, at+": to: "+p)
		}
	}
	return out
}

// commentProblems names each discover.yaml comment whose key names no
// table, view or column of the database, with the entry's line: a
// description of nothing is a typo, refused like a relation's.
func commentProblems(all []warehouse.Table, comments []experts.UserComment, path string) []string {
	idx := naming.NewTableIndex(all)
	var out []string
	for _, c := range comments {
		if _, _, ok := structural.ResolveComment(idx, c.Key); ok {
			continue
		}
		p := fmt.Sprintf("no table, view or column %q in the database", c.Key)
		if i := strings.LastIndex(c.Key, "."); i > 0 {
			if r := refProblem(idx, all, c.Key[:i], []string{c.Key[i+1:]}); r != "" {
				p = r
			}
		}
		out = append(out, fmt.Sprintf("%s:%d: comments: %s", path, c.Line, p))
	}
	return out
}

// refProblem says what is wrong with one side of a relation, or "".
func refProblem(idx naming.TableIndex, all []warehouse.Table, table string, cols []string) string {
	t, ok := idx.Find(table)
	if !ok {
		if same := sameButCase(all, table); len(same) > 1 {
			return fmt.Sprintf("table %q is ambiguous: the database has %s, which differ only in case", table, strings.Join(same, ", "))
		}
		return fmt.Sprintf("no table %q in the database", table)
	}
	var missing []string
	for _, c := range cols {
		if _, ok := naming.FindColumn(t, c); !ok {
			missing = append(missing, strconv.Quote(c))
		}
	}
	if len(missing) == 0 {
		return ""
	}
	have := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		have[i] = c.Name
	}
	noun := "column"
	if len(missing) > 1 {
		noun = "columns"
	}
	return fmt.Sprintf("no %s %s in %s (it has: %s)", noun, strings.Join(missing, ", "), t.Name.String(), listSome(have))
}

// sameButCase lists the tables whose names equal name in another case.
func sameButCase(all []warehouse.Table, name string) []string {
	var out []string
	for _, t := range all {
		if n := t.Name.String(); strings.EqualFold(n, name) {
			out = append(out, n)
		}
	}
	return out
}
