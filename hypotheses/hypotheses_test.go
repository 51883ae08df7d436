package hypotheses

import (
	"context"
	"errors"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

type querier func(ctx context.Context, sql string) (*warehouse.Result, error)

func (q querier) Query(ctx context.Context, sql string) (*warehouse.Result, error) {
	return q(ctx, sql)
}

func judgeZero(row Row) Verdict {
	n, ok := row.Int("bad")
	if !ok {
		return Verdict{Status: Inconclusive, Confidence: 0.1}
	}
	if n == 0 {
		return Verdict{Status: Confirmed, Confidence: 1}
	}
	return Verdict{Status: Refuted, Confidence: 1}
}

func TestTest(t *testing.T) {
	h := Hypothesis{ID: ID("t", "x"), Statement: "no bad rows", Subject: "x", SQL: "SELECT 0 AS bad", Judge: judgeZero}
	cases := []struct {
		name string
		res  *warehouse.Result
		err  error
		want string
	}{
		{"confirmed", &warehouse.Result{Columns: []string{"BAD"}, Rows: [][]any{{int64(0)}}}, nil, Confirmed},
		{"refuted", &warehouse.Result{Columns: []string{"bad"}, Rows: [][]any{{int64(3)}}}, nil, Refuted},
		{"text figure", &warehouse.Result{Columns: []string{"bad"}, Rows: [][]any{{"0"}}}, nil, Confirmed},
		{"null figure", &warehouse.Result{Columns: []string{"bad"}, Rows: [][]any{{nil}}}, nil, Inconclusive},
		{"no row", &warehouse.Result{Columns: []string{"bad"}}, nil, Inconclusive},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := Test(context.Background(), querier(func(context.Context, string) (*warehouse.Result, error) { return c.res, c.err }), h)
			if err != nil {
				t.Fatal(err)
			}
			if out.Doc.Status != c.want || out.Verdict.Status != c.want || out.Doc.TestSQL != h.SQL || out.Doc.ID != h.ID || out.Doc.Subject != "x" {
				t.Fatalf("got %+v", out)
			}
		})
	}
	boom := errors.New("boom")
	_, err := Test(context.Background(), querier(func(context.Context, string) (*warehouse.Result, error) { return nil, boom }), h)
	if !errors.Is(err, boom) {
		t.Fatalf("query error not returned: %v", err)
	}
	f := Failed(h, boom)
	if f.Doc.Status != Inconclusive || len(f.Verdict.Evidence) != 1 || f.Verdict.Evidence[0] != "test failed: boom" {
		t.Fatalf("failed outcome %+v", f)
	}
}

func TestIDStable(t *testing.T) {
	a, b := ID("ref", "orders(customer_id)->customers(id)"), ID("ref", "orders(customer_id)->customers(id)")
	if a != b || len(a) != len("ref-")+10 {
		t.Fatalf("%q %q", a, b)
	}
	// Parts are separated, so moving text between parts changes the id.
	if ID("k", "ab", "c") == ID("k", "a", "bc") {
		t.Fatal("ambiguous id")
	}
}
