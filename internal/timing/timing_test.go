package timing

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Missed reported.
type recorder struct {
	testing.TB
	errors, logs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

func TestMissedFailsOnlyWhereEnforced(t *testing.T) {
	for _, c := range []struct {
		env            string
		errors, logged int
	}{{"1", 1, 0}, {"", 0, 1}, {"0", 0, 1}, {"yes", 0, 1}} {
		t.Setenv(Env, c.env)
		r := &recorder{TB: t}
		Missed(r, "took %s, want under %s", "9s", "5s")
		if len(r.errors) != c.errors || len(r.logs) != c.logged {
			t.Fatalf("%s=%q: %d errors %q, %d logs %q; want %d and %d", Env, c.env, len(r.errors), r.errors, len(r.logs), r.logs, c.errors, c.logged)
		}
		// The figure is in the message either way.
		for _, m := range append(r.errors, r.logs...) {
			if !strings.HasPrefix(m, "took 9s, want under 5s") {
				t.Errorf("%s=%q: reported %q", Env, c.env, m)
			}
		}
		for _, m := range r.logs {
			if !strings.Contains(m, Env+"=1") {
				t.Errorf("the log line does not say how to enforce the bar: %q", m)
			}
		}
	}
}
