package naming

import "testing"

// TestStem: a state and the timestamp named after it meet; states that
// differ stay apart.
func TestStem(t *testing.T) {
	same := [][]string{
		{"terminated", "terminate", "termination"},
		{"cancelled", "canceled", "cancellation"},
		{"shipped", "ship", "shipment"},
		{"delivered", "delivery"},
		{"activated", "active"},
		{"approved", "approval"},
		{"completed", "completion"},
		{"hired", "hire"},
		{"closed", "close"},
	}
	for _, ws := range same {
		for _, w := range ws[1:] {
			if Stem(w) != Stem(ws[0]) {
				t.Errorf("Stem(%q) = %q, Stem(%q) = %q: want equal", w, Stem(w), ws[0], Stem(ws[0]))
			}
		}
	}
	for _, pair := range [][2]string{{"open", "opened_by"}, {"paid", "pending"}, {"active", "archived"}} {
		if Stem(pair[0]) == Stem(pair[1]) {
			t.Errorf("Stem(%q) = Stem(%q) = %q", pair[0], pair[1], Stem(pair[0]))
		}
	}
}
