package query

import "testing"

func TestPlanScan(t *testing.T) {
	cases := []struct {
		dialect, plan string
		want          scanKind
	}{
		{"sqlite", "SCAN support_tickets", scanFull},
		{"sqlite", "SEARCH support_tickets USING INDEX ix_sub (subscriber_id=?)", scanIndexed},
		{"sqlite", "SCAN support_tickets USING COVERING INDEX ix_sub", scanIndexed},
		{"postgres", "Seq Scan on support_tickets (cost=0.00..35.50 rows=10 width=4)", scanFull},
		{"postgres", "Index Scan using ix_sub on support_tickets (cost=0.28..8.29 rows=1 width=4)", scanIndexed},
		{"mysql", "select_type=SIMPLE table=support_tickets type=ALL rows=1500", scanFull},
		{"mysql", "select_type=SIMPLE table=support_tickets type=ref key=ix_sub rows=2", scanIndexed},
		{"duckdb", "┌───────────┐ │ SEQ_SCAN │", scanFull},
		{"trino", "Fragment 0 [SOURCE]", scanUnknown},
	}
	for _, c := range cases {
		if got := planScan(c.dialect, c.plan, "support_tickets"); got != c.want {
			t.Errorf("%s %q: %v, want %v", c.dialect, c.plan, got, c.want)
		}
	}
}

func TestNounsAndSentence(t *testing.T) {
	for in, want := range map[string][2]string{
		"usage_records": {"usage record", "usage records"}, "Categories": {"category", "categories"},
		"OrderDetails": {"order detail", "order details"}, "people": {"person", "people"}, "status": {"status", "statuses"},
		"addresses": {"address", "addresses"}, "children": {"child", "children"},
	} {
		if one, many := noun(in, false), noun(in, true); one != want[0] || many != want[1] {
			t.Errorf("noun(%q) = %q, %q; want %q, %q", in, one, many, want[0], want[1])
		}
	}
	f := figures{parents: 3000, withChildren: 2761, max: 183, children: 14997}
	if got := f.sentence("subscriber", "usage records", "usage record", "subscribers"); got !=
		"A subscriber has many usage records (5.4 on average among those with any, at most 183); 8% of subscribers have none." {
		t.Errorf("sentence: %s", got)
	}
	f = figures{parents: 50, withChildren: 50, max: 1, children: 50}
	if got := f.sentence("order", "invoices", "invoice", "orders"); got != "An order has at most one invoice; every order has at least one." {
		t.Errorf("one-to-one sentence: %s", got)
	}
}
