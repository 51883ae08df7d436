// Package literaltest checks on a real server that a dialect's literals
// carry hostile values whole: each comes back as exactly the value, alone
// and among the others. The engines' round-trip tests (MySQL, PostgreSQL,
// Spark) share it; each keeps its own values and its own statement for
// all of them at once, which differ by engine.
//
// It is imported by tests only.
package literaltest

import (
	"context"
	"fmt"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// Each sends `SELECT <literal> AS v, 1 AS one` for every value and wants
// the value back, as one column (a literal that ended early would leave
// the rest of it as SQL). lexical: the dialect's lexical guard is asked
// too (engines whose guard is a lexer; Spark's is its Query).
func Each(t *testing.T, s warehouse.Source, values []string, lexical bool) {
	t.Helper()
	each(t, s, values, lexical, "the value", func(v string, got any) bool { return got == v })
}

// EachBytes is Each for values that are no UTF-8, which come back as a
// binary string: their bytes.
func EachBytes(t *testing.T, s warehouse.Source, values []string, lexical bool) {
	t.Helper()
	each(t, s, values, lexical, "its bytes", func(v string, got any) bool {
		b, ok := got.([]byte)
		return ok && string(b) == v
	})
}

// each checks the dialect's Literal of every value, its TypedLiteral for a
// text column (the same literal, on every engine), and that its FoldedIn
// over the value passes the guards: the two quote values too, and an
// engine that writes its own Literal must have them use it.
func each(t *testing.T, s warehouse.Source, values []string, lexical bool, want string, same func(v string, got any) bool) {
	t.Helper()
	d := s.Dialect()
	run := func(v, q string) (*warehouse.Result, bool) {
		t.Helper()
		if lexical {
			if err := d.Grammar().Check(q); err != nil {
				t.Errorf("%q: the lexical guard refused %s: %v", v, q, err)
			}
		}
		res, err := s.Query(context.Background(), q, warehouse.QueryOptions{})
		if err != nil {
			t.Errorf("%q: %s: %v", v, q, err)
			return nil, false
		}
		return res, true
	}
	for _, v := range values {
		for _, lit := range []string{d.Literal(v), d.TypedLiteral("varchar", v)} {
			q := "SELECT " + lit + " AS v, 1 AS one"
			res, ok := run(v, q)
			if ok && (len(res.Columns) != 2 || len(res.Rows) != 1 || len(res.Rows[0]) != 2 || !same(v, res.Rows[0][0])) {
				t.Errorf("%q: %s gave columns %q, rows %#v; want %s and 1", v, q, res.Columns, res.Rows, want)
			}
		}
		run(v, "SELECT count(*) AS n FROM (SELECT 1 AS one) x WHERE "+d.FoldedIn(d.Literal("x"), []string{v}))
	}
}

// AllAtOnce runs q, which counts n values that each match themselves (n)
// and FoldedIn's matches among them (folded), and wants both to be n.
func AllAtOnce(t *testing.T, s warehouse.Source, q string, n int, lexical bool) {
	t.Helper()
	if lexical {
		if err := s.Dialect().Grammar().Check(q); err != nil {
			t.Errorf("the lexical guard refused %s: %v", q, err)
		}
	}
	res, err := s.Query(context.Background(), q, warehouse.QueryOptions{})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if got := fmt.Sprint(res.Rows); got != fmt.Sprint([][]any{{int64(n), int64(n)}}) {
		t.Errorf("%d values matched themselves, %s", n, got)
	}
}
