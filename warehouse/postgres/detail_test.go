package postgres

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestWithDetail: a wrapper's failure (SQLSTATE classes HV, 08, 58) says
// its DETAIL after its message, with anything written as a password
// setting masked and the words "password authentication failed" kept;
// other errors keep their detail out (it may quote row values); the
// PgError stays reachable for whoever asks for its code.
func TestWithDetail(t *testing.T) {
	s := &Source{}
	cases := []struct {
		code, detail, want string
	}{
		{"08001", "connection to server at \"h\", port 5432 failed: FATAL:  password authentication failed for user \"u\"\n",
			`ERROR: m: connection to server at "h", port 5432 failed: FATAL: password authentication failed for user "u" (SQLSTATE 08001)`},
		{"HV000", "host=h password=s3cr'et user=u", `ERROR: m: host=h password *** user=u (SQLSTATE HV000)`},
		{"HV00N", "options: password 'it''s s3cret' and PASSWORD = \"q\"", `ERROR: m: options: password *** and PASSWORD *** (SQLSTATE HV00N)`},
		{"58P01", "", `ERROR: m (SQLSTATE 58P01)`},
		{"23505", "Key (email)=(ann@example.com) already exists.", `ERROR: m (SQLSTATE 23505)`},
	}
	for _, c := range cases {
		pg := &pgconn.PgError{Severity: "ERROR", Code: c.code, Message: "m", Detail: c.detail}
		for _, err := range []error{pg, fmt.Errorf("count rows: %w", pg)} {
			got := s.withDetail(err)
			want := c.want
			if err != error(pg) {
				want = "count rows: " + want
			}
			var back *pgconn.PgError
			if got.Error() != want || !errors.As(got, &back) || back != pg {
				t.Errorf("withDetail(%q) = %q, want %q and the PgError", err, got, want)
			}
		}
	}
	if s.withDetail(nil) != nil {
		t.Error("withDetail(nil) is not nil")
	}
}
