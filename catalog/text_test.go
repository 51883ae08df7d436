package catalog

import "testing"

func TestThousandsAndJoinAnd(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", -1234567: "-1,234,567", 100000: "100,000"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
	for _, c := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"}, {[]string{"a", "b", "c"}, "a, b and c"}} {
		if got := JoinAnd(c.in); got != c.want {
			t.Errorf("JoinAnd(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
