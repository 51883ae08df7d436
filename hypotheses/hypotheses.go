// Package hypotheses turns a claim about the data into a guarded SELECT, runs
// it, and judges the result: confirmed, refuted or inconclusive, with the
// figures behind the verdict as evidence.
package hypotheses

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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
// query's single result row (column name → value) and returns the verdict.
type Hypothesis struct {
	ID        string
	Statement string
	Subject   string // the entry key the claim is about
	SQL       string
	Judge     func(row Row) Verdict
}

// Verdict is the judged outcome of a test.
type Verdict struct {
	Status     string
	Confidence float64
	Evidence   []string
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
	Row     Row // the figures the judge saw; nil when the test did not run
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
	row := Row{}
	if len(res.Rows) > 0 {
		for i, c := range res.Columns {
			row[strings.ToLower(c)] = res.Rows[0][i]
		}
	}
	v := Verdict{Status: Inconclusive, Confidence: 0.3, Evidence: []string{"the test query returned no row"}}
	if len(res.Rows) > 0 {
		v = h.Judge(row)
	}
	return Outcome{
		Doc:     catalog.HypothesisDoc{ID: h.ID, Statement: h.Statement, Status: v.Status, TestSQL: h.SQL, Subject: h.Subject},
		Verdict: v,
		Row:     row,
	}, nil
}

// Failed records a hypothesis whose test could not run as inconclusive, with
// the error as its evidence, so the ledger shows what was tried.
func Failed(h Hypothesis, err error) Outcome {
	return Outcome{
		Doc:     catalog.HypothesisDoc{ID: h.ID, Statement: h.Statement, Status: Inconclusive, TestSQL: h.SQL, Subject: h.Subject},
		Verdict: Verdict{Status: Inconclusive, Confidence: 0.2, Evidence: []string{"test failed: " + err.Error()}},
	}
}
