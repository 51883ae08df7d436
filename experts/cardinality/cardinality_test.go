package cardinality_test

import (
	"testing"

	"github.com/discover-db/discover/experts/cardinality"
	"github.com/discover-db/discover/naming"
)

func TestNounsAndSentence(t *testing.T) {
	for in, want := range map[string][2]string{
		"usage_records": {"usage record", "usage records"}, "Categories": {"category", "categories"},
		"OrderDetails": {"order detail", "order details"}, "people": {"person", "people"}, "status": {"status", "statuses"},
		"addresses": {"address", "addresses"}, "children": {"child", "children"},
	} {
		if one, many := naming.Noun(in, false), naming.Noun(in, true); one != want[0] || many != want[1] {
			t.Errorf("naming.Noun(%q) = %q, %q; want %q, %q", in, one, many, want[0], want[1])
		}
	}
	f := cardinality.Figures{Parents: 3000, WithChildren: 2761, Max: 183, Children: 14997}
	if got := f.Sentence("subscriber", "usage records", "usage record", "subscribers"); got !=
		"A subscriber has many usage records (5.4 on average among those with any, at most 183); 8% of subscribers have none." {
		t.Errorf("sentence: %s", got)
	}
	f = cardinality.Figures{Parents: 50, WithChildren: 50, Max: 1, Children: 50}
	if got := f.Sentence("order", "invoices", "invoice", "orders"); got != "An order has at most one invoice; every order has at least one." {
		t.Errorf("one-to-one sentence: %s", got)
	}
	// Under 1% without children: counted, and one is one.
	for none, want := range map[int64]string{
		1: "A city has many addresses (1.0 on average among those with any, at most 2); one city has none.",
		3: "A city has many addresses (1.0 on average among those with any, at most 2); 3 cities have none.",
	} {
		f = cardinality.Figures{Parents: 1000, WithChildren: 1000 - none, Max: 2, Children: 1003 - none}
		if got := f.Sentence("city", "addresses", "address", "cities"); got != want {
			t.Errorf("%d without children: %s", none, got)
		}
	}
}
