package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/llmtest"
	"github.com/discover-db/discover/prompts"
)

func names(ts []prompts.Table) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return strings.Join(out, ",")
}

// A formulation prompt shows the statement's table, the tables it
// references or that reference it, and those the statement names as
// words; nothing is picked from any query.
func TestRelevantTables(t *testing.T) {
	s := prompts.Schema{Dialect: "sqlite", Tables: []prompts.Table{
		{Name: "customers"},
		{Name: "order_items", References: []string{"order_id -> orders(id)", "product_id -> products(id)"}},
		{Name: "orders", References: []string{"customer_id -> customers(id)"}},
		{Name: "previews"},
		{Name: "products"},
		{Name: "reviews", References: []string{"product_id -> products(id)"}},
	}}
	cases := []struct{ table, statement, want string }{
		{"orders", "Every order has a customer.", "customers,order_items,orders"},
		{"Orders", "An order's total matches its items.", "customers,order_items,orders"},
		{"reviews", "Reviews of inactive products have no rating; see previews.", "previews,products,reviews"},
		{"reviews", "Every review's product_id is known.", "products,reviews"},
		{"shipments", "Shipments arrive after orders are placed.", "orders"},
		{"shipments", "Nothing here names a table.", "customers,order_items,orders,previews,products,reviews"},
	}
	for _, c := range cases {
		if got := names(llm.RelevantTables(s, c.table, c.statement)); got != c.want {
			t.Errorf("%s / %q: %s, want %s", c.table, c.statement, got, c.want)
		}
	}
}

// FormulateTest asks with the formulation prompt and its own tool, at the
// sampling temperature, and an empty query gets the one repair.
func TestFormulateTest(t *testing.T) {
	c, srv := client(t, llm.Budget{}, func(n int, req llmtest.Request) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Tool: "write_test_sql", Args: map[string]any{"sql": " "}}
		}
		return llmtest.Reply{Tool: "write_test_sql", Args: map[string]any{"sql": "SELECT COUNT(*) AS violations FROM orders WHERE status IS NULL"}}
	})
	sql, pid, err := c.FormulateTest(context.Background(), prompts.Formulate{Dialect: "sqlite", Statement: "every order has a status",
		Table: "orders", Tables: schema().Tables})
	if err != nil || pid != "formulate/v1" || !strings.Contains(sql, "status IS NULL") {
		t.Fatalf("%q %s %v", sql, pid, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Tool != "write_test_sql" || reqs[0].ForcedTool != "write_test_sql" ||
		!strings.Contains(reqs[0].Body, `"temperature":0.7`) || !strings.Contains(reqs[1].Text(), "sql: empty") {
		t.Fatalf("requests: %d; first %s", len(reqs), reqs[0].Body)
	}
	if recs := c.TakeCalls(); len(recs) != 2 || recs[0].Prompt != "formulate/v1" || recs[0].Outcome != "invalid" {
		t.Errorf("records %+v", recs)
	}
}
