package statistical

import "testing"

// TestRetrySizes: a retry's sample is a tenth of the one that timed out,
// or of the table read whole when that is smaller, and none under 10,000
// rows; the sizes that timed out are named in words.
func TestRetrySizes(t *testing.T) {
	for _, c := range []struct {
		a           attempt
		asked, next int64
	}{
		{attempt{target: 1_000_000}, 1_000_000, 100_000}, // timed out before its count
		{attempt{target: 1_000_000, rows: 5_000_000, decided: true}, 1_000_000, 100_000},
		{attempt{target: 1_000_000, rows: 800_000, decided: true, whole: true}, 0, 80_000},
		{attempt{target: 1_000_000, rows: 1_000_000, decided: true, whole: true}, 0, 100_000},
		{attempt{target: 1_000_000, rows: 50_000, decided: true, whole: true}, 0, 0},
		{attempt{target: 100_000, retried: []int64{1_000_000}, rows: 100_001, decided: true}, 100_000, 10_000},
		{attempt{target: 10_000, retried: []int64{1_000_000, 100_000}, rows: 10_001, decided: true}, 10_000, 0},
		{attempt{target: 99_999}, 99_999, 0},
	} {
		if got := c.a.asked(); got != c.asked {
			t.Errorf("%+v: asked %d, want %d", c.a, got, c.asked)
		}
		if got := c.a.smaller(); got != c.next {
			t.Errorf("%+v: next sample %d, want %d", c.a, got, c.next)
		}
	}
	for _, c := range []struct {
		sizes []int64
		want  string
	}{
		{[]int64{0}, "on the whole table"},
		{[]int64{1_000_000}, "on a sample of 1,000,000 rows"},
		{[]int64{0, 100_000}, "on the whole table and on a sample of 100,000 rows"},
		{[]int64{1_000_000, 100_000, 10_000}, "on samples of 1,000,000, 100,000 and 10,000 rows"},
		{[]int64{0, 100_000, 10_000}, "on the whole table and on samples of 100,000 and 10,000 rows"},
	} {
		if got := triedText(c.sizes); got != c.want {
			t.Errorf("triedText(%v) = %q, want %q", c.sizes, got, c.want)
		}
	}
}
