package textcut

import "testing"

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"a longer sentence", 8, "a longer…"},
		{"héllo", 2, "h…"}, // é is two bytes: never cut in half
		{"héllo", 3, "hé…"},
		{"", 0, ""},
	} {
		if got := Bytes(tc.s, tc.n); got != tc.want {
			t.Errorf("Bytes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestRunes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"héllo wörld", 11, "héllo wörld"},
		{"héllo wörld", 8, "héllo w…"},
		{"ééééé", 3, "éé…"},
	} {
		if got := Runes(tc.s, tc.n); got != tc.want {
			t.Errorf("Runes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
