package hypotheses

import (
	"context"
	"errors"
	"testing"

	"github.com/discover-db/discover/catalog"
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

func TestTestShared(t *testing.T) {
	const sql = "SELECT state, COUNT(*) AS n, COUNT(x) AS set_1 FROM t GROUP BY state"
	calls := 0
	q := querier(func(_ context.Context, got string) (*warehouse.Result, error) {
		calls++
		if got != sql {
			t.Fatalf("ran %q", got)
		}
		return &warehouse.Result{Columns: []string{"STATE", "N", "SET_1"},
			Rows: [][]any{{"done", int64(4), int64(4)}, {"open", int64(3), int64(0)}}}, nil
	})
	byRows := Hypothesis{ID: "a", Statement: "x follows state", SQL: sql, Expected: "all or none per state", Prior: 0.6,
		JudgeRows: func(rows []Row) Verdict {
			for _, r := range rows {
				n, _ := r.Int("n")
				s, _ := r.Int("set_1")
				if s != 0 && s != n {
					return Verdict{Status: Refuted, Confidence: 1}
				}
			}
			return Verdict{Status: Confirmed, Confidence: 0.95, Evidence: []string{"2 states"}}
		}}
	first := Hypothesis{ID: "b", SQL: sql, Judge: func(r Row) Verdict {
		if s, _ := r.Text("state"); s == "done" {
			return Verdict{Status: Confirmed, Confidence: 1}
		}
		return Verdict{Status: Refuted, Confidence: 1}
	}}
	outs, err := TestShared(context.Background(), q, []Hypothesis{byRows, first})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Fatalf("the shared query ran %d times", calls)
	}
	if outs[0].Doc.Status != Confirmed || len(outs[0].Rows) != 2 || outs[1].Doc.Status != Confirmed {
		t.Fatalf("outcomes %+v", outs)
	}
	rec := outs[0].Record()
	if rec.Expected != "all or none per state" || rec.ConfidenceBefore == nil || *rec.ConfidenceBefore != 0.6 ||
		rec.TestSQL != sql || rec.ID != "a" {
		t.Fatalf("record %+v", rec)
	}
	if outs[1].Record().ConfidenceBefore != nil {
		t.Fatal("no prior given, yet one recorded")
	}
	// Hypotheses that do not share their query are refused, not run.
	other := first
	other.SQL = "SELECT 1"
	if _, err := TestShared(context.Background(), q, []Hypothesis{byRows, other}); err == nil || calls != 1 {
		t.Fatalf("mismatched queries: err %v, %d calls", err, calls)
	}
}

type saver struct {
	kind, key string
	doc       Record
	conf      float64
	ev, tags  []string
}

func (s *saver) Save(_ context.Context, en catalog.Entry) error {
	*s = saver{kind: en.Kind, key: en.Key, conf: en.Confidence, ev: en.Evidence, tags: en.Tags}
	return en.Decode(&s.doc)
}

func TestSave(t *testing.T) {
	h := Hypothesis{ID: "k-1", Statement: "s", SQL: "SELECT 0 AS bad", Judge: judgeZero, Expected: "0 bad rows", Prior: 0.5}
	out, err := Test(context.Background(), querier(func(context.Context, string) (*warehouse.Result, error) {
		return &warehouse.Result{Columns: []string{"bad"}, Rows: [][]any{{int64(2)}}}, nil
	}), h)
	if err != nil {
		t.Fatal(err)
	}
	var s saver
	if err := Save(context.Background(), &s, out, "key"); err != nil {
		t.Fatal(err)
	}
	rec := s.doc
	if s.kind != "hypothesis" || s.key != "k-1" || rec.Status != Refuted || rec.Expected != "0 bad rows" ||
		s.ev == nil || len(s.tags) != 2 || s.tags[1] != Refuted {
		t.Fatalf("saved %+v", s)
	}
	// A failed test keeps what was expected.
	if f := Failed(h, errors.New("boom")).Record(); f.Expected != "0 bad rows" || f.Status != Inconclusive {
		t.Fatalf("failed record %+v", f)
	}
}

// A test read on a sample (issue 9) says so in its saved evidence; a
// verdict no row settles is discounted, a violation the sample shows is
// not, and neither is an inconclusive one.
func TestSampledVerdicts(t *testing.T) {
	const sample = "on a sample of 10 rows of x (about 1,000 rows; drawn by rowid)"
	observed := func(row Row) Verdict {
		v := judgeZero(row)
		v.Observed = v.Status == Refuted
		return v
	}
	for _, c := range []struct {
		name   string
		bad    any
		sample string
		status string
		conf   float64
	}{
		{"whole, confirmed", int64(0), "", Confirmed, 1},
		{"sampled, confirmed", int64(0), sample, Confirmed, SampleDiscount},
		{"sampled, violation seen", int64(2), sample, Refuted, 1},
		{"sampled, inconclusive", nil, sample, Inconclusive, 0.1},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := Hypothesis{ID: ID("t", c.name), SQL: "SELECT 0 AS bad", Judge: observed, Sample: c.sample}
			res := &warehouse.Result{Columns: []string{"bad"}, Rows: [][]any{{c.bad}}}
			out, err := Test(context.Background(), querier(func(context.Context, string) (*warehouse.Result, error) { return res, nil }), h)
			if err != nil {
				t.Fatal(err)
			}
			var got saver
			if err := Save(context.Background(), &got, out); err != nil {
				t.Fatal(err)
			}
			said := len(got.ev) > 0 && got.ev[len(got.ev)-1] == "tested "+sample
			if out.Doc.Status != c.status || got.conf != c.conf || said != (c.sample != "") {
				t.Errorf("%s at %.2f, evidence %q; want %s at %.2f, sample said %v", out.Doc.Status, got.conf, got.ev, c.status, c.conf, c.sample != "")
			}
		})
	}
}
