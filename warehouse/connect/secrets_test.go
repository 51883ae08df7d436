package connect

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
)

// mark is in every password below: no error may contain it.
const mark = "PW9x"

// secretDSNs are DSNs in every form discover reads, with passwords that
// hold the characters each form treats specially, pointing at a closed
// port, a host that does not resolve, or malformed so that the parser
// fails: each open fails, and its error must not show the password.
func secretDSNs(t *testing.T) []string {
	missing := filepath.Join(t.TempDir(), "nope")
	return []string{
		// PostgreSQL URLs.
		"postgres://me:s3cret-" + mark + "@127.0.0.1:1/x",
		"postgresql://me:s3cret-" + mark + "@nohost.invalid/x",
		"postgres://me:p%40ss-" + mark + "@127.0.0.1:1/x",
		"postgres://me:s3%zz-" + mark + "@127.0.0.1:1/x",
		"postgres://me:p@ss/w:rd-" + mark + "@127.0.0.1:1/x",
		"postgres://me:s3cret-" + mark + "/x",
		"postgres://127.0.0.1:1/x?password=s3cret-" + mark,
		"postgres://127.0.0.1:1/x?sslpassword=s3cret-" + mark + "&sslmode=disable",
		// PostgreSQL keyword/value strings.
		"host=127.0.0.1 port=1 user=me password=s3cret-" + mark + " dbname=x",
		"host=127.0.0.1 port=1 user=me password='s3 cret-" + mark + "' dbname=x",
		`host=127.0.0.1 port=1 user=me password='it\'s-` + mark + `' dbname=x`,
		"host=127.0.0.1 port=1 user=me password = s3cret-" + mark + " dbname=x",
		"host=127.0.0.1 port=1 password=a;b,c)d-" + mark + " dbname=x",
		`host=127.0.0.1 port=1 password=a\ b-` + mark + ` dbname=x`,
		"host=nohost.invalid user=me password=s3cret-" + mark + " dbname=x",
		"host=127.0.0.1 port=1 password='unterminated-" + mark,
		"host=127.0.0.1 port=notaport password=s3cret-" + mark,
		"password=s3cret-" + mark + " host=127.0.0.1 port=1",
		// MySQL, both forms, and the '@' missing.
		"mysql://root:s3cret-" + mark + "@127.0.0.1:1/db",
		"mysql://root:s3cret-" + mark + "@tcp(127.0.0.1:1)/db",
		"mysql://root:s3cret-" + mark + "/db",
		"mysql://root:s3cret-" + mark,
		"mysql://root:se/cret-" + mark + "/db",
		"mysql://root:se?cret-" + mark + "/db",
		"mysql://user:pa:ss-" + mark + "@tcp(127.0.0.1:1)/db",
		"mysql://user:pa@ss-" + mark + "@tcp(127.0.0.1:1)/db",
		"mysql://user:pa/ss-" + mark + "@tcp(127.0.0.1:1)/db",
		"mysql://user:pa/ss-" + mark + "@127.0.0.1:1/db",
		"mysql://user:pa?ss-" + mark + "@127.0.0.1:1/db",
		"mysql://user:pa%zz-" + mark + "@127.0.0.1:1/db",
		"mysql://root:s3cret-" + mark + "@tcp(nohost.invalid)/db",
		"mysql://root:s3cret-" + mark + "@127.0.0.1:1/db?tls=bogus",
		"mysql://root:s3cret-" + mark + "@127.0.0.1:1",
		"root:s3cret-" + mark + "@tcp(127.0.0.1:1)/db",
		// Trino.
		"trinos://me:s3cret-" + mark + "@127.0.0.1:1/c",
		"trinos://me:s3cret-" + mark + "@nohost.invalid/c",
		"trino://me:s3cret-" + mark + "@127.0.0.1:1/c?secure=true",
		"trino://me:s3cret-" + mark + "@127.0.0.1:1/c",
		"trinos://me:s3cret-" + mark + "/c",
		"trinos://me:s3%zz-" + mark + "@127.0.0.1:1/c",
		"trino://me@127.0.0.1:1/c?access_token=tok-" + mark,
		// Others.
		"duckdb://" + missing + ".duckdb?s3_secret_access_key=AKIA-" + mark,
		"oracle://me:s3cret-" + mark + "@h/db",
	}
}

func openCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// No error of Open shows a DSN's password, whatever the form, and Redact
// masks each DSN: both say the DSN in messages and reports.
func TestOpenErrorsHideThePassword(t *testing.T) {
	for _, dsn := range secretDSNs(t) {
		if r := warehouse.Redact(dsn); strings.Contains(r, mark) {
			t.Errorf("Redact(%q) = %q", dsn, r)
		}
		src, err := Open(openCtx(t), dsn)
		if err == nil {
			src.Close()
			t.Errorf("Open(%q) succeeded", dsn)
			continue
		}
		if strings.Contains(err.Error(), mark) {
			t.Errorf("Open(%q): %v", dsn, err)
		}
	}
}

// A wrong password (and an unknown role) against the real servers, where
// CI starts them: the server's refusal does not carry the password.
func TestAuthFailureHidesThePassword(t *testing.T) {
	var dsns []string
	if pg := os.Getenv("DISCOVER_TEST_POSTGRES"); pg != "" {
		u, err := url.Parse(pg)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.UserPassword("no_such_role", "wrong-"+mark)
		dsns = append(dsns, u.String(), "host="+u.Hostname()+" port="+u.Port()+" user=no_such_role password='wrong "+mark+"' dbname=x")
	}
	if my := os.Getenv("DISCOVER_TEST_MYSQL"); my != "" {
		u, err := url.Parse(my)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.UserPassword(u.User.Username(), "wrong-"+mark)
		dsns = append(dsns, u.String())
	}
	if len(dsns) == 0 {
		t.Skip("DISCOVER_TEST_POSTGRES and DISCOVER_TEST_MYSQL not set")
	}
	for _, dsn := range dsns {
		src, err := Open(openCtx(t), dsn)
		if err == nil {
			src.Close()
			t.Errorf("Open(%q) succeeded", warehouse.Redact(dsn))
			continue
		}
		t.Logf("%s: %v", warehouse.Redact(dsn), err)
		if !errors.Is(err, warehouse.ErrBadInput) || strings.Contains(err.Error(), mark) {
			t.Errorf("Open(%q): %v", warehouse.Redact(dsn), err)
		}
	}
}

// scrub masks each secret, longest first, and a quoted fragment of one;
// the result still matches ErrBadInput but no longer unwraps to the text
// that held the secret. An error without a secret is returned as it is.
func TestScrub(t *testing.T) {
	orig := warehouse.BadInput(`bad DSN: invalid port ":p@ss-word" after host; near 'ss-wo'; s3cr`)
	err := scrub(orig, []string{"s3cr", "p@ss-word"})
	want := `bad DSN: invalid port ":***" after host; near '***'; ***`
	if err.Error() != want || !errors.Is(err, warehouse.ErrBadInput) || errors.Unwrap(err) != nil {
		t.Errorf("scrub = %q (bad input %v); want %q", err, errors.Is(err, warehouse.ErrBadInput), want)
	}
	var inner interface{ Unwrap() []error }
	if errors.As(err, &inner) {
		for _, c := range inner.Unwrap() {
			if strings.Contains(c.Error(), "p@ss") {
				t.Errorf("cause %v keeps the secret", c)
			}
		}
	}
	clean := errors.New("connection refused")
	if scrub(clean, []string{"s3cret"}) != clean {
		t.Error("an error without a secret was replaced")
	}
	ctxErr := scrub(errors.Join(context.DeadlineExceeded, errors.New("pw s3cret")), []string{"s3cret"})
	if !errors.Is(ctxErr, context.DeadlineExceeded) || errors.Is(ctxErr, warehouse.ErrBadInput) {
		t.Errorf("scrub lost the context error or added bad input: %v", ctxErr)
	}
}
