package llm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

func shopTables() []warehouse.Table {
	col := func(names ...string) []warehouse.Column {
		var out []warehouse.Column
		for i, n := range names {
			out = append(out, warehouse.Column{Name: n, Position: i + 1})
		}
		return out
	}
	return []warehouse.Table{
		{Name: warehouse.TableName{Name: "customers"}, Kind: "table", Columns: col("customer_id", "name", "country")},
		{Name: warehouse.TableName{Name: "orders"}, Kind: "table", Columns: col("order_id", "customer_id", "status", "total", "shipped_at")},
		{Name: warehouse.TableName{Name: "Order Lines"}, Kind: "table", Columns: col("order_id", "qty")},
	}
}

func TestGround(t *testing.T) {
	c := &Controller{Dialect: dialectFor(t, "sqlite"), Tables: shopTables()}
	ok := []string{
		`SELECT COUNT(*) AS violations FROM orders WHERE status IS NULL`,
		`SELECT COUNT(*) AS violations FROM orders o JOIN customers c ON o.customer_id = c.customer_id WHERE c.country IS NULL`,
		`SELECT COUNT(*) AS violations FROM orders AS o LEFT JOIN customers AS c USING (customer_id) WHERE c.customer_id IS NULL`,
		`SELECT SUM(CASE WHEN shipped_at IS NULL AND status = 'delivered' THEN 1 ELSE 0 END) AS violations, COUNT(*) AS checked FROM orders`,
		`WITH t AS (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) SELECT COUNT(*) AS violations FROM t WHERE t.n < 0`,
		`SELECT COUNT(*) AS violations FROM (SELECT order_id FROM orders WHERE total < 0) AS neg`,
		`SELECT COUNT(*) AS violations FROM "Order Lines" WHERE qty <= 0`,
		`SELECT COUNT(*) AS violations FROM orders WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = orders.customer_id)`,
		`SELECT COUNT(*) AS violations FROM orders WHERE CAST(total AS INTEGER) < 0 AND lower(status) LIKE 'x%'`,
		`SELECT COUNT(*) AS violations FROM orders o, customers c WHERE o.customer_id = c.customer_id AND c.name IS NULL`,
	}
	for _, sql := range ok {
		if err := c.Ground(sql); err != nil {
			t.Errorf("refused a grounded query: %v\n%s", err, sql)
		}
	}
	bad := map[string]string{
		`SELECT COUNT(*) AS violations FROM shipments`:                                    `no table "shipments"`,
		`SELECT COUNT(*) AS violations FROM orders WHERE weight > 3`:                      `unknown column or table "weight"`,
		`SELECT COUNT(*) AS violations FROM orders o WHERE o.weight > 3`:                  `has no column "weight"`,
		`SELECT COUNT(*) AS violations FROM orders WHERE status = "shipped"`:              `single quotes`,
		`SELECT COUNT(*) AS violations FROM orders JOIN customers`:                        `without ON or USING`,
		`SELECT COUNT(*) AS violations FROM orders CROSS JOIN customers`:                  `CROSS JOIN`,
		`SELECT COUNT(*) AS violations FROM orders, customers`:                            `commas`,
		`SELECT COUNT(*) AS violations FROM orders x WHERE y.status IS NULL`:              `"y" is not a table or alias`,
		`SELECT COUNT(*) AS violations FROM sqlite_master`:                                `no table "sqlite_master"`,
		`SELECT COUNT(*) AS violations FROM orders WHERE secret_api_key_column IS NULL`:   `unknown column`,
		`SELECT COUNT(*) AS violations FROM (SELECT * FROM orders, customers) AS t`:       `commas`,
		`SELECT COUNT(*) AS violations FROM orders o JOIN customers c ON o.customer_id=1`: ``, // a condition, even a poor one, passes grounding
	}
	for sql, want := range bad {
		err := c.Ground(sql)
		if want == "" {
			if err != nil {
				t.Errorf("refused %s: %v", sql, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Ground(%s) = %v, want an error containing %q", sql, err, want)
		}
	}
}

func TestVerify(t *testing.T) {
	cases := []struct {
		res  *warehouse.Result
		want string
	}{
		{&warehouse.Result{Columns: []string{"violations"}}, "no rows"},
		{&warehouse.Result{Columns: []string{"violations"}, Rows: [][]any{{nil}}}, "NULL in every row"},
		{&warehouse.Result{Columns: []string{"a"}, Rows: [][]any{{int64(1)}}, Truncated: true}, "row cap"},
		{&warehouse.Result{Columns: []string{"violations"}, Rows: [][]any{{int64(0)}}}, ""},
	}
	many := &warehouse.Result{Columns: []string{"id", "name"}}
	for i := 0; i < 30; i++ {
		var name any
		if i == 0 {
			name = "x"
		}
		many.Rows = append(many.Rows, []any{int64(i), name})
	}
	cases = append(cases, struct {
		res  *warehouse.Result
		want string
	}{many, `"name" is NULL in 29 of 30`})
	for _, c := range cases {
		got := Verify(c.res)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("Verify = %q, want %q", got, c.want)
		}
	}
}

func TestVote(t *testing.T) {
	r := func(v ...any) *warehouse.Result {
		res := &warehouse.Result{Columns: []string{"v"}}
		for _, x := range v {
			res.Rows = append(res.Rows, []any{x})
		}
		return res
	}
	// All agree (within tolerance): the first wins.
	w, agree := Vote([]*warehouse.Result{r(int64(3)), r(3.0000001), r(float64(3))})
	if w != 0 || agree[0] != 2 {
		t.Errorf("unanimous: winner %d agree %v", w, agree)
	}
	// Two agree against one: the majority wins even when listed later.
	w, agree = Vote([]*warehouse.Result{r(int64(7)), r(int64(3)), r(int64(3))})
	if w != 1 || agree[1] != 1 || agree[0] != 0 {
		t.Errorf("majority: winner %d agree %v", w, agree)
	}
	// Row order does not matter; a failed candidate (nil) never wins.
	w, _ = Vote([]*warehouse.Result{nil, r("a", "b"), r("b", "a")})
	if w != 1 {
		t.Errorf("with a failed candidate: winner %d", w)
	}
}

type fakeQuerier struct {
	ran []string
	fn  func(sql string) (*warehouse.Result, error)
}

func (f *fakeQuerier) Query(_ context.Context, sql string) (*warehouse.Result, error) {
	f.ran = append(f.ran, sql)
	return f.fn(sql)
}

// Refused proposals never reach the database; a hint goes back for at
// most three repair rounds; then the proposal is refused for good.
func TestControllerRun(t *testing.T) {
	q := &fakeQuerier{fn: func(sql string) (*warehouse.Result, error) {
		if strings.Contains(sql, "status = 'none'") {
			return &warehouse.Result{Columns: []string{"violations"}, Rows: [][]any{{nil}}}, nil
		}
		return &warehouse.Result{Columns: []string{"violations"}, Rows: [][]any{{int64(0)}}}, nil
	}}
	c := &Controller{Dialect: dialectFor(t, "sqlite"), Tables: shopTables(), Querier: q}
	proposals := []string{
		"DROP TABLE orders",
		"SELECT 1 AS violations; DELETE FROM orders",
		"SELECT SUM(total) AS violations FROM orders WHERE status = 'none'",
		"SELECT COUNT(*) AS violations FROM orders WHERE status IS NULL",
	}
	var hints []string
	revise := func(_ context.Context, sql, problem string) (string, error) {
		hints = append(hints, problem)
		return proposals[len(hints)], nil
	}
	out, err := c.Run(context.Background(), proposals[0], nil, revise)
	if err != nil {
		t.Fatalf("Run: %v (refusals %+v)", err, out.Refusals)
	}
	if out.SQL != proposals[3] || len(out.Refusals) != 3 {
		t.Fatalf("accepted %q after %d refusals", out.SQL, len(out.Refusals))
	}
	wantStages := []string{StageGuard, StageGuard, StageVerify}
	for i, r := range out.Refusals {
		if r.Stage != wantStages[i] || r.Round != i {
			t.Errorf("refusal %d: %+v, want stage %s", i, r, wantStages[i])
		}
	}
	if !strings.Contains(hints[2], "NULL") {
		t.Errorf("verification hint %q does not name the NULL explosion", hints[2])
	}
	// Only the two guarded, grounded statements reached the querier.
	if len(q.ran) != 2 {
		t.Fatalf("ran %q", q.ran)
	}

	// A model that never gets it right is refused after 3 repairs.
	q.ran = nil
	rounds := 0
	out, err = c.Run(context.Background(), "VACUUM INTO '/tmp/stolen.db'", nil, func(context.Context, string, string) (string, error) {
		rounds++
		return "ATTACH DATABASE '/tmp/x.db' AS x", nil
	})
	if !errors.Is(err, ErrRefused) || rounds != 3 || len(out.Refusals) != 4 || len(q.ran) != 0 {
		t.Fatalf("err %v, %d repair rounds, %d refusals, ran %q", err, rounds, len(out.Refusals), q.ran)
	}
}
