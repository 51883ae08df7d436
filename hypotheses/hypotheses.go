// Package hypotheses turns a claim about the data into a guarded SELECT, runs
// it, and judges the result: confirmed, refuted or inconclusive, with the
// figures behind the verdict as evidence.
package hypotheses

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

// Statuses of a hypothesis (CONTRACT.md).
const (
	Confirmed    = "confirmed"
	Refuted      = "refuted"
	Inconclusive = "inconclusive"
	Proposed     = "proposed"
)

// Querier runs one guarded statement; experts.Env satisfies it.
type Querier interface {
	Query(ctx context.Context, sql string) (*warehouse.Result, error)
}

// Hypothesis is a claim with the query that tests it. Judge reads the
// query's first result row (column name → value) and returns the verdict;
// JudgeRows, when set, reads every row instead (a GROUP BY test).
type Hypothesis struct {
	ID        string
	Statement string
	Subject   string // the entry key the claim is about
	SQL       string
	// Expected is the outcome that confirms the claim, in words: "0 rows
	// with terminated_at set outside status 'terminated'".
	Expected string
	// Prior is how sure the proposer was before the test, in [0,1]; 0 is
	// unknown.
	Prior     float64
	Judge     func(row Row) Verdict
	JudgeRows func(rows []Row) Verdict
	// Sample, when the test reads a sample of a table rather than all of
	// it (a table far larger than --sample-rows, issue 9), says which:
	// "on a sample of 10,000 rows of events (about 4,000,000 rows; …)".
	// It is added to the evidence, and a verdict no row settles
	// (Verdict.Observed) is discounted by SampleDiscount.
	Sample string
}

// SampleDiscount scales the confidence of a verdict drawn from a sample
// that no row it saw settles: a rule never broken in a sample is weaker
// than one never broken in the table.
const SampleDiscount = 0.9

// Discount is c scaled by SampleDiscount, to two decimals.
func Discount(c float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(c*SampleDiscount, 'f', 2, 64), 64)
	return v
}

// Record is a hypothesis as the catalog keeps it: catalog.HypothesisDoc's
// fields, plus what was expected and how sure the proposer was before the
// test. Readers that know only HypothesisDoc decode it unchanged.
type Record struct {
	catalog.HypothesisDoc
	Expected         string   `json:"expected,omitempty"`
	ConfidenceBefore *float64 `json:"confidence_before,omitempty"`
}

// Verdict is the judged outcome of a test.
type Verdict struct {
	Status     string
	Confidence float64
	Evidence   []string
	// Observed: the verdict rests on rows the test saw (a NULL, an orphan,
	// a pair out of order, a parent with two children), which a sample
	// shows as surely as the table: its confidence is not discounted.
	Observed bool
}

// Row is one result row by column name.
type Row map[string]any

// Int reads an integer-valued figure; NULL reads as 0 and false.
func (r Row) Int(name string) (int64, bool) {
	switch v := r[name].(type) {
	case int64:
		return v, true
	case int:
		return int64(v), true
	case float64:
		return int64(v), true
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	case []byte:
		n, err := strconv.ParseInt(string(v), 10, 64)
		return n, err == nil
	}
	return 0, false
}

// Outcome is a tested hypothesis, ready to be saved.
type Outcome struct {
	Doc     catalog.HypothesisDoc
	Verdict Verdict
	Row     Row   // the figures the judge saw; nil when the test did not run
	Rows    []Row // every row the test returned; nil when it did not run
	// Sample is the hypothesis' Sample: the test read a sample.
	Sample string

	expected string
	prior    float64
}

// Record is the outcome as the catalog keeps it.
func (o Outcome) Record() Record {
	r := Record{HypothesisDoc: o.Doc, Expected: o.expected}
	if o.prior > 0 {
		p := o.prior
		r.ConfidenceBefore = &p
	}
	return r
}

// Save records the outcome in the ledger under its id, with the verdict's
// confidence and evidence; tags add to the status, which is always one.
// s is the environment of the expert that tested it.
func Save(ctx context.Context, s catalog.Saver, o Outcome, tags ...string) error {
	ev := append([]string{}, o.Verdict.Evidence...)
	if o.Sample != "" && !slices.Contains(ev, "tested "+o.Sample) {
		ev = append(ev, "tested "+o.Sample)
	}
	return catalog.Hypotheses.Save(ctx, s, o.Doc.ID, o.Record(), o.Verdict.Confidence, ev,
		append(tags, o.Doc.Status)...)
}

// ID derives a stable id from the parts that identify a claim, so the same
// claim tested in a resumed run or a later run keeps its id.
func ID(prefix string, parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return prefix + "-" + hex.EncodeToString(h[:])[:10]
}

// Test runs the hypothesis' query and judges it. A query error is returned
// (the caller decides whether to record the claim as inconclusive).
func Test(ctx context.Context, q Querier, h Hypothesis) (Outcome, error) {
	res, err := q.Query(ctx, h.SQL)
	if err != nil {
		return Outcome{}, fmt.Errorf("hypothesis %s: %w", h.ID, err)
	}
	return judge(h, res), nil
}

// TestShared runs one query that tests several hypotheses (each column of
// a table's aggregate answering a different claim) and judges each on the
// same result. Every hypothesis' SQL must be that query. A query error is
// returned, for the caller to record the claims as Failed.
func TestShared(ctx context.Context, q Querier, hs []Hypothesis) ([]Outcome, error) {
	if len(hs) == 0 {
		return nil, nil
	}
	for _, h := range hs[1:] {
		if h.SQL != hs[0].SQL {
			return nil, fmt.Errorf("hypothesis %s: not the shared query of %s", h.ID, hs[0].ID)
		}
	}
	res, err := q.Query(ctx, hs[0].SQL)
	if err != nil {
		return nil, fmt.Errorf("hypothesis %s: %w", hs[0].ID, err)
	}
	out := make([]Outcome, len(hs))
	for i, h := range hs {
		out[i] = judge(h, res)
	}
	return out, nil
}

// Rows are a result's rows by lower-cased column name.
func Rows(res *warehouse.Result) []Row {
	rows := make([]Row, len(res.Rows))
	for j := range res.Rows {
		rows[j] = rowOf(res, j)
	}
	return rows
}

// FirstRow is a result's first row by lower-cased column name, empty when
// it has none: what a query of figures (counts, sums) returns.
func FirstRow(res *warehouse.Result) Row {
	if len(res.Rows) == 0 {
		return Row{}
	}
	return rowOf(res, 0)
}

func rowOf(res *warehouse.Result, j int) Row {
	row := Row{}
	for i, c := range res.Columns {
		if i < len(res.Rows[j]) {
			row[strings.ToLower(c)] = res.Rows[j][i]
		}
	}
	return row
}

func judge(h Hypothesis, res *warehouse.Result) Outcome {
	return judgeRows(h, Rows(res))
}

// Judged is h judged on a row of figures another statement measured (the
// same figures h's query would return, counted on the way by a query run
// for another claim), as Test would judge its own query's result: h.SQL
// should name that statement.
func Judged(h Hypothesis, row Row) Outcome {
	return judgeRows(h, []Row{row})
}

func judgeRows(h Hypothesis, rows []Row) Outcome {
	row := Row{}
	if len(rows) > 0 {
		row = rows[0]
	}
	v := Verdict{Status: Inconclusive, Confidence: 0.3, Evidence: []string{"the test query returned no row"}}
	switch {
	case h.JudgeRows != nil:
		v = h.JudgeRows(rows)
	case len(rows) > 0 && h.Judge != nil:
		v = h.Judge(row)
	}
	if h.Sample != "" && v.Status != Inconclusive && !v.Observed {
		v.Confidence = Discount(v.Confidence)
	}
	return Outcome{
		Doc:      catalog.HypothesisDoc{ID: h.ID, Statement: h.Statement, Status: v.Status, TestSQL: h.SQL, Subject: h.Subject},
		Verdict:  v,
		Row:      row,
		Rows:     rows,
		Sample:   h.Sample,
		expected: h.Expected,
		prior:    h.Prior,
	}
}

// Failed records a hypothesis whose test could not run as inconclusive, with
// the error as its evidence, so the ledger shows what was tried.
func Failed(h Hypothesis, err error) Outcome {
	o := inconclusive(h, "test failed: "+err.Error())
	o.Sample = h.Sample
	return o
}

// Untested records a hypothesis whose test was not run, and why (it would
// read a table far larger than the sample whole), as inconclusive: the
// ledger shows the claim and the reason rather than nothing.
func Untested(h Hypothesis, why string) Outcome {
	return inconclusive(h, "not tested: "+why)
}

// inconclusive is h's outcome with no figures from the data: a low
// confidence and one line of evidence saying why.
func inconclusive(h Hypothesis, evidence string) Outcome {
	return Outcome{
		Doc:      catalog.HypothesisDoc{ID: h.ID, Statement: h.Statement, Status: Inconclusive, TestSQL: h.SQL, Subject: h.Subject},
		Verdict:  Verdict{Status: Inconclusive, Confidence: 0.2, Evidence: []string{evidence}},
		expected: h.Expected,
		prior:    h.Prior,
	}
}

// Float reads a figure as a float64; NULL reads as 0 and false.
func (r Row) Float(name string) (float64, bool) {
	switch v := r[name].(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	case int:
		return float64(v), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return f, err == nil
	case []byte:
		f, err := strconv.ParseFloat(strings.TrimSpace(string(v)), 64)
		return f, err == nil
	}
	return 0, false
}

// Text reads a value as text; NULL reads as "" and false.
func (r Row) Text(name string) (string, bool) {
	switch v := r[name].(type) {
	case nil:
		return "", false
	case string:
		return v, true
	case []byte:
		return string(v), true
	default:
		return fmt.Sprint(v), true
	}
}
