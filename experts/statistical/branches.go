package statistical

import (
	"github.com/discover-db/discover/experts"

	"context"
	"fmt"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// The follow-up queries of a table (quantiles, calendars, duplicates,
// anomaly examples) are UNION ALLs of small SELECTs, each returning rows
// (k, a, b, v, n): the column's index, what the row is (a code below), a
// bucket, a value as text and a count. One statement per table keeps the
// query count flat however many columns need a second look.
const (
	codeRanked      = 1 // b: a 0-based rank among the sorted values, v: the value there, n: how many (detail.go)
	codeMonth       = 2 // b: year*100+month, n: rows
	codeDOW         = 3 // b: 0 = Sunday … 6, n: rows
	codeHour        = 4 // b: 0 … 23, n: rows
	codeDupCount    = 5 // n: values held by more than one row
	codeDupValue    = 6 // v: a repeated value, n: its rows
	codeAbove       = 7 // v: the least value above the upper fence, n: rows above it
	codeOutlier     = 8 // v: a value outside the fences, n: its rows
	codeFutureCount = 9
	codeFuture      = 10
	codeBelow       = 11 // v: the greatest value below the lower fence, n: rows below it
	codeInsideMax   = 12 // v: the greatest value within the fences
	codeInsideMin   = 13 // v: the least value within the fences
	codeSingletons  = 14 // n: values seen exactly once (scaleup.go)
	codeSketch      = 15 // b: a HyperLogLog register value, n: registers holding it (scaleup.go)
	codeHistogram   = 16 // b: a histogram bucket, n: its values (detail.go)
	// codeExamples+i: v, n are examples of the column's i-th anomaly.
	codeExamples = 100
)

// maxExamples is how many example values an anomaly carries.
const maxExamples = 5

// maxBranches bounds one UNION ALL: an engine may refuse a compound of
// more than 500 SELECTs, and long statements parse slowly everywhere.
const maxBranches = 200

// branch is one SELECT of a follow-up query, for column col.
type branch struct {
	col int
	sql string // returns k, a, b, v, n
	// pass, when set, says the branch is aggregates of the rows of one
	// table: runBranches computes all such branches of a table in one
	// pass (runPasses) instead of a scan each, and falls back to sql,
	// column by column, when that pass fails.
	pass *passSpec
}

// passSpec is a branch as select items over from, all aggregates, and
// how their values become the branch's rows.
type passSpec struct {
	from  string
	items []string
	emit  func(vals []any, onRow func(branchRow))
}

// maxPassItems bounds the select items of one pass (engines cap a select
// list at 1,000 to 4,000 columns).
const maxPassItems = 400

type branchRow struct {
	k, a, b int
	v       string
	vOK     bool
	n       int64
}

func nullText(d warehouse.Dialect) string { return d.CastText("NULL") }

// aggBranch returns one aggregate, fn(expr), of the rows of from where
// cond holds, as text, with their count.
func aggBranch(d warehouse.Dialect, from string, k, a int, fn, expr, cond string) branch {
	return branch{col: k, sql: fmt.Sprintf("SELECT %d AS k, %d AS a, 0 AS b, %s AS v, COUNT(*) AS n FROM %s WHERE %s",
		k, a, d.CastText(fn+"("+expr+")"), from, cond),
		pass: condPass(from, k, a, d.CastText(fmt.Sprintf("%s(CASE WHEN %s THEN %s END)", fn, cond, expr)), cond)}
}

// countBranch counts the rows of from where cond holds.
func countBranch(d warehouse.Dialect, from string, k, a int, cond string) branch {
	return branch{col: k, sql: fmt.Sprintf("SELECT %d AS k, %d AS a, 0 AS b, %s AS v, COUNT(*) AS n FROM %s WHERE %s",
		k, a, nullText(d), from, cond),
		pass: condPass(from, k, a, nullText(d), cond)}
}

// condPass is the one-pass form of a branch returning value (an aggregate
// already restricted to the rows where cond holds, as text) and the count
// of those rows.
func condPass(from string, k, a int, value, cond string) *passSpec {
	return &passSpec{from: from, items: []string{value, "COUNT(CASE WHEN " + cond + " THEN 1 END)"},
		emit: func(vals []any, onRow func(branchRow)) {
			n, _ := toInt(vals[1])
			v, vOK := render(vals[0])
			onRow(branchRow{k: k, a: a, v: v, vOK: vOK, n: n})
		}}
}

// runPasses computes the pass branches of bs, one pass of each table (at
// most maxPassItems select items a statement), and returns the branches it
// could not: those of a pass that failed for a reason other than the
// budget or the clock, which runBranches then runs as they are.
func (p *profiler) runPasses(ctx context.Context, bs []branch, onRow func(branchRow)) ([]branch, error) {
	byFrom := map[string][]branch{}
	var froms []string
	for _, br := range bs {
		if _, ok := byFrom[br.pass.from]; !ok {
			froms = append(froms, br.pass.from)
		}
		byFrom[br.pass.from] = append(byFrom[br.pass.from], br)
	}
	var failed []branch
	for _, from := range froms {
		all := byFrom[from]
		for len(all) > 0 {
			n, items := 0, 0
			for n < len(all) && (n == 0 || items+len(all[n].pass.items) <= maxPassItems) {
				items += len(all[n].pass.items)
				n++
			}
			chunk := all[:n]
			all = all[n:]
			var sel []string
			for _, br := range chunk {
				for _, it := range br.pass.items {
					sel = append(sel, fmt.Sprintf("%s AS p%d", it, len(sel)))
				}
			}
			p.queries++
			res, err := p.env.Query(ctx, "SELECT "+strings.Join(sel, ", ")+" FROM "+from)
			if err == nil && (len(res.Rows) != 1 || len(res.Rows[0]) != len(sel)) {
				err = fmt.Errorf("one pass of %d aggregates gave %d rows", len(sel), len(res.Rows))
			}
			if err != nil {
				if experts.Fatal(ctx, err) {
					return nil, err
				}
				failed = append(failed, chunk...)
				continue
			}
			vals := res.Rows[0]
			for _, br := range chunk {
				m := len(br.pass.items)
				br.pass.emit(vals[:m], onRow)
				vals = vals[m:]
			}
		}
	}
	return failed, nil
}

// examplesBranch returns up to maxExamples distinct values of column q where
// cond holds, with their counts, in the order orderBy gives (positions 4
// and 5 are the value and its count).
func examplesBranch(d warehouse.Dialect, from string, k, a int, q, cond, orderBy string) branch {
	return branch{col: k, sql: fmt.Sprintf("SELECT %d AS k, %d AS a, 0 AS b, %s AS v, COUNT(*) AS n FROM %s WHERE %s GROUP BY %s ORDER BY %s %s",
		k, a, d.CastText(q), from, cond, q, orderBy, d.Limit(maxExamples))}
}

// groupBranch counts the rows of from per value of the bucket expression.
// Rows whose bucket is NULL form one more group, which runUnion drops (its
// b is not an integer): a WHERE bucket IS NOT NULL would have an engine
// parse every date twice, once for WHERE and once for GROUP BY.
func groupBranch(d warehouse.Dialect, from string, k, a int, bucket string) branch {
	return branch{col: k, sql: fmt.Sprintf("SELECT %d AS k, %d AS a, %s AS b, %s AS v, COUNT(*) AS n FROM %s GROUP BY %s",
		k, a, bucket, nullText(d), from, bucket)}
}

// unionSQL wraps each branch in a subquery, which makes ORDER BY and LIMIT
// inside a branch legal on every engine, and joins them.
func unionSQL(bs []branch) string {
	var b strings.Builder
	for i, br := range bs {
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		fmt.Fprintf(&b, "SELECT k, a, b, v, n FROM (%s) u%d", br.sql, i)
	}
	return b.String()
}

// sharedSampleName is the name a statement gives the sample its branches
// share.
const sharedSampleName = "discover_sample"

// shareSample has q draw the table's sample once for all the branches that
// read it, where the engine's row sample costs a read of the whole table
// each time (Capabilities.SharedSample) and more than one branch reads it.
// The sample is seeded, so the shared rows are the rows each branch drew.
func (p *profiler) shareSample(q string) string {
	if !p.sampled || !p.d.Capabilities().SharedSample || strings.Count(q, p.from) < 2 {
		return q
	}
	return "WITH " + sharedSampleName + " AS MATERIALIZED (SELECT * FROM " + p.from + ") " +
		strings.ReplaceAll(q, p.from, sharedSampleName+" "+warehouse.SampleAlias)
}

// runBranches runs bs in chunks. A chunk that fails for a reason other than
// the budget or the clock is retried column by column, so one column whose
// values an engine cannot cast costs only its own figures; such columns are
// returned with their errors.
func (p *profiler) runBranches(ctx context.Context, bs []branch, onRow func(branchRow)) (map[int]error, error) {
	bad := map[int]error{}
	var passes, rest []branch
	for _, br := range bs {
		if br.pass != nil {
			passes = append(passes, br)
		} else {
			rest = append(rest, br)
		}
	}
	if len(passes) > 0 {
		failed, err := p.runPasses(ctx, passes, onRow)
		if err != nil {
			return nil, err
		}
		bs = append(failed, rest...)
	}
	for len(bs) > 0 {
		n := min(len(bs), maxBranches)
		if p.scanPerBranch() {
			n = 1
		}
		chunk := bs[:n]
		bs = bs[n:]
		err := p.runUnion(ctx, chunk, onRow)
		if err == nil {
			continue
		}
		if experts.Fatal(ctx, err) {
			return nil, err
		}
		byCol := map[int][]branch{}
		var order []int
		for _, br := range chunk {
			if _, ok := byCol[br.col]; !ok {
				order = append(order, br.col)
			}
			byCol[br.col] = append(byCol[br.col], br)
		}
		if len(order) == 1 {
			bad[order[0]] = err
			continue
		}
		for _, c := range order {
			if err := p.runUnion(ctx, byCol[c], onRow); err != nil {
				if experts.Fatal(ctx, err) {
					return nil, err
				}
				bad[c] = err
			}
		}
	}
	return bad, nil
}

func (p *profiler) runUnion(ctx context.Context, bs []branch, onRow func(branchRow)) error {
	p.queries++
	res, err := p.env.Query(ctx, p.shareSample(unionSQL(bs)))
	if err != nil {
		return err
	}
	if res.Truncated {
		return fmt.Errorf("query was truncated at %d rows", len(res.Rows))
	}
	for _, r := range res.Rows {
		if len(r) < 5 {
			continue
		}
		k, ok1 := toInt(r[0])
		a, ok2 := toInt(r[1])
		b, ok3 := toInt(r[2])
		n, _ := toInt(r[4])
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		v, vOK := render(r[3])
		onRow(branchRow{k: int(k), a: int(a), b: int(b), v: v, vOK: vOK, n: n})
	}
	return nil
}
