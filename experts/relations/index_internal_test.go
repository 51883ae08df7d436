package relations

import (
	"fmt"
	"slices"
	"testing"
)

// TestLookupPerModuleCopies: a warehouse that repeats its tables per module
// or tenant (customer_m000 … customer_m099) gives every copy's words the
// same two-letter abbreviation keys. A column's lookup must find the keys
// its names can match, its own module's, not every copy's: scoring each
// copy's keys made the pairing grow with the square of the tables.
func TestLookupPerModuleCopies(t *testing.T) {
	var keys []Column
	for m := range 100 {
		for _, d := range []string{"customer", "product", "store"} {
			table := fmt.Sprintf("%s_m%03d", d, m)
			keys = append(keys,
				Column{Table: table, Name: "id", Type: "INTEGER", PK: true, Declared: true},
				Column{Table: table, Name: "code", Type: "TEXT", Declared: true})
		}
	}
	// A word shortened is still found through the same keys.
	keys = append(keys, Column{Table: "product_template", Name: "id", Type: "INTEGER", PK: true, Declared: true})
	idx := indexKeys(keys)
	tablesOf := func(c Column) []string {
		var out []string
		for _, i := range idx.lookup(c) {
			if !slices.Contains(out, keys[i].Table) {
				out = append(out, keys[i].Table)
			}
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		col  Column
		want []string
	}{
		// the module's tables, which share its word m007, not the copies'
		{Column{Table: "order_m007", Name: "customer_m007_id", Type: "INTEGER"}, []string{"customer_m007", "product_m007", "store_m007"}},
		{Column{Table: "visit_m042", Name: "store_m042_id", Type: "INTEGER"}, []string{"store_m042", "customer_m042", "product_m042"}},
		{Column{Table: "order_m007", Name: "status", Type: "TEXT"}, nil},
		{Column{Table: "order_line", Name: "product_tmpl_id", Type: "INTEGER"}, []string{"product_template"}},
	} {
		got := tablesOf(tc.col)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("%s.%s: looked up the keys of %d tables %q, want %q", tc.col.Table, tc.col.Name, len(got), got[:min(len(got), 5)], want)
		}
		if len(tc.want) > 0 {
			m := MatchName(tc.col.Table, tc.col.Name, tc.want[0], "id")
			if m.Score == 0 {
				t.Errorf("%s.%s does not match %s.id by name", tc.col.Table, tc.col.Name, tc.want[0])
			}
		}
	}
}
