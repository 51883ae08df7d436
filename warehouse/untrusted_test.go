package warehouse

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// fakeSource answers every query with res (or err) and reports privs.
type fakeSource struct {
	Source
	res     *Result
	err     error
	privs   Privileges
	privErr error
	queried []string
}

func (f *fakeSource) Query(_ context.Context, sql string, _ QueryOptions) (*Result, error) {
	f.queried = append(f.queried, sql)
	return f.res, f.err
}

func (f *fakeSource) Privileges(context.Context) (Privileges, error) { return f.privs, f.privErr }

func TestDoorRefusesPrivilegedConnections(t *testing.T) {
	ctx := context.Background()
	super := Privileges{Role: "postgres", Risky: []string{"superuser (a)", "b", "c", "d", "e", "f"}, Hint: "Connect as a reader."}
	for _, c := range []struct {
		name    string
		privs   Privileges
		privErr error
		allow   bool
		refused bool
		says    []string
	}{
		{"reader", Privileges{Role: "r"}, nil, false, false, nil},
		{"superuser", super, nil, false, true, []string{`role "postgres"`, "superuser (a); b; c; d; and 2 more", "Connect as a reader."}},
		{"superuser allowed", super, nil, true, false, nil},
		{"unknown", Privileges{}, errors.New("permission denied for pg_roles"), false, true, []string{"could not be checked", "permission denied", "--allow-privileged"}},
		{"unknown allowed", Privileges{}, errors.New("x"), true, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := &fakeSource{res: &Result{Columns: []string{"n"}, Rows: [][]any{{int64(1)}}}, privs: c.privs, privErr: c.privErr}
			d := &Door{Source: src, AllowPrivileged: c.allow}
			_, err := d.Query(ctx, "SELECT 1", QueryOptions{})
			if c.refused != (err != nil) || c.refused && !errors.Is(err, ErrPrivileged) {
				t.Fatalf("err = %v, refused want %v", err, c.refused)
			}
			if c.refused && len(src.queried) != 0 {
				t.Errorf("a refused statement reached the source: %q", src.queried)
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("refusal %q does not say %q", err, s)
				}
			}
		})
	}
}

func TestDoorBoundsStatementSize(t *testing.T) {
	src := &fakeSource{res: &Result{}, privs: Privileges{}}
	d := &Door{Source: src}
	huge := "SELECT '" + strings.Repeat("x", MaxUntrustedBytes) + "'"
	if _, err := d.Query(context.Background(), huge, QueryOptions{}); !errors.Is(err, ErrRejected) || len(src.queried) != 0 {
		t.Errorf("a %d-byte untrusted statement: %v, reached the source %d times", len(huge), err, len(src.queried))
	}
	if err := d.Guard(context.Background(), huge); !errors.Is(err, ErrRejected) {
		t.Errorf("Guard of a huge statement: %v", err)
	}
	if _, err := d.Query(context.Background(), "SELECT 1", QueryOptions{}); err != nil {
		t.Errorf("a small one: %v", err)
	}
}

func TestBoundBytes(t *testing.T) {
	big := strings.Repeat("é", 30_000) // 60,000 bytes, two per rune
	res := &Result{Columns: []string{"a", "b"}, Rows: [][]any{{big, int64(1)}, {"short", []byte("bytes")}}}
	BoundBytes(res, 1000, 0)
	v := res.Rows[0][0].(string)
	if !res.BytesTruncated || !utf8.ValidString(v) || !strings.HasSuffix(v, "… [cut: 60000 bytes]") || len(v) > 1000+40 {
		t.Errorf("cut value: %d bytes, valid %v, ends %q", len(v), utf8.ValidString(v), v[len(v)-30:])
	}
	if res.Rows[1][0] != "short" || len(res.Rows) != 2 || res.Truncated {
		t.Errorf("the rest changed: %v, truncated %v", res.Rows[1], res.Truncated)
	}

	// A result over the total keeps the rows that fit and says it was cut.
	var rows [][]any
	for range 100 {
		rows = append(rows, []any{strings.Repeat("x", 100)})
	}
	res = &Result{Columns: []string{"a"}, Rows: rows}
	BoundBytes(res, 0, 1000)
	if len(res.Rows) != 10 || !res.Truncated || !res.BytesTruncated {
		t.Errorf("total bound: %d rows, truncated %v/%v", len(res.Rows), res.Truncated, res.BytesTruncated)
	}

	// Small results pass untouched.
	res = &Result{Columns: []string{"a"}, Rows: [][]any{{"x"}, {nil}, {3.5}}}
	BoundBytes(res, 0, 0)
	if res.BytesTruncated || res.Truncated || len(res.Rows) != 3 {
		t.Errorf("a small result was cut: %+v", res)
	}
}

func TestSanitizeError(t *testing.T) {
	secret := strings.Repeat("root:x:0:0:root:/root:/bin/bash\n", 40)
	base := errors.New(`ERROR: invalid input syntax for type integer: "` + secret + `" (SQLSTATE 22P02); column "total" of "orders"`)
	wrapped := errors.Join(ErrRejected, base)
	err := SanitizeError(wrapped)
	msg := err.Error()
	if strings.Contains(msg, "root:x:0:0") {
		t.Errorf("a long literal survived: %q", msg)
	}
	if !strings.Contains(msg, `"total"`) || !strings.Contains(msg, `"orders"`) || !strings.Contains(msg, "bytes not shown") {
		t.Errorf("names or the note are lost: %q", msg)
	}
	if !errors.Is(err, ErrRejected) || !errors.Is(err, base) {
		t.Error("the error chain is lost")
	}
	long := errors.New(strings.Repeat("word ", 500))
	if got := SanitizeError(long).Error(); len(got) > MaxErrorBytes+40 {
		t.Errorf("a long message is %d bytes", len(got))
	}
	if short := errors.New(`column "x" does not exist`); SanitizeError(short) != short {
		t.Error("a short error was rewritten")
	}
	if SanitizeError(nil) != nil {
		t.Error("nil")
	}
}

func TestPrecheck(t *testing.T) {
	for _, c := range []struct {
		sql string
		ok  bool
	}{
		{"SELECT 1", true},
		{"  ", false},
		{"SELECT '\x00'", false},
		{"SELECT " + strings.Repeat("(", MaxNesting) + "1" + strings.Repeat(")", MaxNesting), true},
		{"SELECT " + strings.Repeat("(", 100_000) + "1" + strings.Repeat(")", 100_000), false},
		{"SELECT '" + strings.Repeat("x", 10<<20) + "'", false},
	} {
		err := Precheck(c.sql)
		if (err == nil) != c.ok || err != nil && !errors.Is(err, ErrRejected) {
			t.Errorf("Precheck(%.40q…) = %v, want ok %v", c.sql, err, c.ok)
		}
	}
}
