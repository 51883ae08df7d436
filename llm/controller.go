package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Querier runs one guarded statement within the run's query budget,
// per-query timeout and row cap; experts.Env satisfies it.
type Querier interface {
	Query(ctx context.Context, sql string) (*warehouse.Result, error)
}

// Stages at which the Controller refuses a proposed query.
const (
	StageGuard     = "guard"     // not exactly one read-only statement
	StageGrounding = "grounding" // names a table or column that does not exist, or joins without a key
	StageDatabase  = "database"  // the database's own read-only layer refused it (the guard had let it pass)
	StageQuery     = "query"     // the engine failed or timed out
	StageVerify    = "verify"    // ran, but the result is implausible
)

// ErrRefused is returned when a proposed query could not be made
// acceptable within the repair rounds.
var ErrRefused = errors.New("proposed query refused")

// Refusal is one proposed query the Controller did not accept, and why.
type Refusal struct {
	SQL    string `json:"sql"`
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
	Round  int    `json:"round"` // 0 for the first proposal, then each repair
}

// Reviser asks the model for a corrected query, given the problem found.
type Reviser func(ctx context.Context, sql, problem string) (string, error)

// Check verifies the shape of a result for the caller's purpose ("one row
// with a column violations"); it returns the problem, or "".
type Check func(res *warehouse.Result) string

// Controller decides whether a model's SQL may run and whether its result
// can be believed. Every proposal passes, in order: the SQL guard (one
// read-only statement), grounding (every table and column exists; joins
// carry a condition), the query path of the caller (budget, timeout, row
// cap), and result verification. A failure feeds a hint back to the model
// for at most MaxRepairs rounds.
type Controller struct {
	// Dialect is the engine's: its Grammar lexes and, without a Guard,
	// checks the statement, and its Name says how names resolve in
	// grounding. nil reads with the generic lexer and checks under every
	// engine's grammar.
	Dialect warehouse.Dialect
	Tables  []warehouse.Table
	Querier Querier
	// Guard is the engine's allow-list (warehouse.Guarder), asked before
	// grounding so a refusal names what is not allowed rather than a table
	// that does not exist; nil falls back to the lexical check of the
	// Dialect's Grammar.
	// The Querier's source applies the same guard again before it runs.
	Guard      func(ctx context.Context, sql string) error
	MaxRepairs int // default 3
}

// Outcome is an accepted query with its result, and the refusals on the
// way there.
type Outcome struct {
	SQL      string
	Result   *warehouse.Result
	Refusals []Refusal
}

// Run checks, runs and verifies sql, asking revise for a corrected query
// after each problem. It returns ErrRefused (wrapped, with the last
// reason) when no round produced an acceptable result; the Outcome's
// Refusals are filled either way.
func (c *Controller) Run(ctx context.Context, sql string, check Check, revise Reviser) (Outcome, error) {
	maxRepairs := c.MaxRepairs
	if maxRepairs <= 0 {
		maxRepairs = 3
	}
	var out Outcome
	for round := 0; ; round++ {
		stage, problem, res := c.try(ctx, sql, check)
		if problem == "" {
			out.SQL, out.Result = sql, res
			return out, nil
		}
		out.Refusals = append(out.Refusals, Refusal{SQL: sql, Stage: stage, Reason: problem, Round: round})
		if ctx.Err() != nil {
			return out, fmt.Errorf("llm: controller: %w", ctx.Err())
		}
		if revise == nil || round >= maxRepairs {
			return out, fmt.Errorf("llm: controller: %w: %s: %s", ErrRefused, stage, problem)
		}
		next, err := revise(ctx, sql, stage+": "+problem)
		if err != nil {
			return out, fmt.Errorf("llm: controller: %w: %s: %s (no revision: %v)", ErrRefused, stage, problem, err)
		}
		sql = next
	}
}

func (c *Controller) guard(ctx context.Context, sql string) error {
	if c.Guard != nil {
		return c.Guard(ctx, sql)
	}
	return c.grammar().Check(sql)
}

func (c *Controller) grammar() *warehouse.Grammar {
	if c.Dialect == nil {
		return nil
	}
	return c.Dialect.Grammar()
}

func (c *Controller) nameRules() warehouse.NameRules {
	if c.Dialect == nil {
		return warehouse.NameRules{}
	}
	return c.Dialect.NameRules()
}

func (c *Controller) try(ctx context.Context, sql string, check Check) (stage, problem string, res *warehouse.Result) {
	if strings.TrimSpace(sql) == "" {
		return StageGuard, "empty statement", nil
	}
	if err := c.guard(ctx, sql); err != nil {
		return StageGuard, err.Error(), nil
	}
	if err := c.Ground(sql); err != nil {
		return StageGrounding, err.Error(), nil
	}
	res, err := c.Querier.Query(ctx, sql)
	switch {
	case errors.Is(err, warehouse.ErrDatabaseRefused):
		return StageDatabase, err.Error(), nil
	case errors.Is(err, warehouse.ErrRejected), errors.Is(err, warehouse.ErrPrivileged):
		return StageGuard, err.Error(), nil
	case err != nil:
		return StageQuery, err.Error(), nil
	}
	if p := Verify(res); p != "" {
		return StageVerify, p, res
	}
	if check != nil {
		if p := check(res); p != "" {
			return StageVerify, p, res
		}
	}
	return "", "", res
}

// Verify looks for the signs of a wrong query in its result: no rows, a
// column NULL (nearly) everywhere, and a result that hit the row cap, as a
// join without its key does.
func Verify(res *warehouse.Result) string {
	if res == nil || len(res.Rows) == 0 {
		return "the query returned no rows"
	}
	if res.Truncated {
		return fmt.Sprintf("the result hit the row cap at %d rows (row explosion: a join without its full key multiplies rows)", len(res.Rows))
	}
	for j, col := range res.Columns {
		nulls := 0
		for _, row := range res.Rows {
			if j >= len(row) || row[j] == nil {
				nulls++
			}
		}
		switch {
		case nulls == len(res.Rows):
			return fmt.Sprintf("column %q is NULL in every row (NULL explosion: an outer join that matched nothing, or an aggregate over no rows)", col)
		case len(res.Rows) >= 20 && float64(nulls) > 0.9*float64(len(res.Rows)):
			return fmt.Sprintf("column %q is NULL in %d of %d rows (NULL explosion: check the join condition)", col, nulls, len(res.Rows))
		}
	}
	return ""
}

// Vote picks one of several candidate results for the same question
// (multi-path voting). Two results are compatible when they hold the same
// rows, values equal within a relative 1e-6. If every candidate is
// reachable from every other through compatible pairs (Floyd–Warshall on
// the compatibility graph), the first wins; else the one compatible with
// the most others, the first on a tie. agree[i] counts the candidates
// compatible with candidate i. Nil results (candidates that failed) never
// win while another exists.
func Vote(results []*warehouse.Result) (winner int, agree []int) {
	n := len(results)
	agree = make([]int, n)
	if n == 0 {
		return -1, agree
	}
	reach := make([][]bool, n)
	for i := range reach {
		reach[i] = make([]bool, n)
		reach[i][i] = results[i] != nil
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if compatible(results[i], results[j]) {
				reach[i][j], reach[j][i] = true, true
				agree[i]++
				agree[j]++
			}
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				reach[i][j] = reach[i][j] || (reach[i][k] && reach[k][j])
			}
		}
	}
	all := true
	for i := 0; i < n && all; i++ {
		for j := 0; j < n; j++ {
			all = all && reach[i][j]
		}
	}
	if all {
		return 0, agree
	}
	winner = -1
	for i, r := range results {
		if r != nil && (winner < 0 || agree[i] > agree[winner]) {
			winner = i
		}
	}
	return winner, agree
}

func compatible(a, b *warehouse.Result) bool {
	if a == nil || b == nil || len(a.Rows) != len(b.Rows) || len(a.Columns) != len(b.Columns) {
		return false
	}
	count := map[string]int{}
	for _, r := range a.Rows {
		count[rowKey(r)]++
	}
	for _, r := range b.Rows {
		k := rowKey(r)
		if count[k] == 0 {
			return false
		}
		count[k]--
	}
	return true
}

// rowKey renders a row with numbers to 7 significant digits, so values
// equal within a relative 1e-6 (as two formulations' averages are) match.
func rowKey(row []any) string {
	var b strings.Builder
	for _, v := range row {
		switch x := v.(type) {
		case nil:
			b.WriteString("\x00NULL")
		case int64:
			fmt.Fprintf(&b, "%.7g", float64(x))
		case int:
			fmt.Fprintf(&b, "%.7g", float64(x))
		case float64:
			fmt.Fprintf(&b, "%.7g", x)
		default:
			fmt.Fprintf(&b, "%v", x)
		}
		b.WriteByte('\x1f')
	}
	return b.String()
}
