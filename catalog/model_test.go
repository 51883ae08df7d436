package catalog

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTableDocLowerBound: a table document written before
// row_count_is_lower_bound existed loads with the flag unset, and one
// whose count is not a bound is written without it, byte for byte as
// before; a bound round-trips.
func TestTableDocLowerBound(t *testing.T) {
	old := `{"name":"t","kind":"view","row_count":12,"row_count_is_estimate":false,"primary_key":[],` +
		`"primary_key_source":"","columns":[],"uniques":[],"indexes":[]}`
	var doc TableDoc
	if err := json.Unmarshal([]byte(old), &doc); err != nil || doc.RowCount == nil || *doc.RowCount != 12 || doc.RowCountIsLowerBound {
		t.Fatalf("old document: %+v, %v", doc, err)
	}
	again, err := json.Marshal(doc)
	if err != nil || string(again) != old {
		t.Errorf("rewritten as %s (%v), want %s", again, err, old)
	}
	n := int64(100001)
	b, err := json.Marshal(TableDoc{Name: "v", Kind: "view", RowCount: &n, RowCountIsEstimate: true, RowCountIsLowerBound: true})
	if err != nil || !strings.Contains(string(b), `"row_count_is_lower_bound":true`) {
		t.Fatalf("%s, %v", b, err)
	}
	var back TableDoc
	if err := json.Unmarshal(b, &back); err != nil || !back.RowCountIsLowerBound || *back.RowCount != n {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}
