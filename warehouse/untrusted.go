package warehouse

// SQL that discover did not write itself — a model's hypotheses, `ask`, the
// MCP run_query tool — reaches the database through a Door. The engine's
// allow-list guard (Query) applies to it as to every statement; the Door
// adds what only untrusted SQL needs: it refuses to run on a connection
// whose role could do harm beyond reading (unless the user said so), and it
// bounds results in bytes, so that no client or prompt receives a 50 MB
// value or a whole database in one row.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// Privileges is what the connection's role could do beyond reading, as the
// engine reported it at connect.
type Privileges struct {
	// Role is the user or role the connection acts as ("" when the engine
	// has none: a SQLite or DuckDB file).
	Role string `json:"role,omitempty"`
	// Risky lists each capability beyond reading, one readable phrase each
	// ("superuser", "member of pg_read_server_files (reads server files)",
	// "extension dblink (opens connections to other databases)", "FILE
	// privilege (reads and writes server files)"). Empty: none found.
	Risky []string `json:"risky"`
	// Hint says how to connect without them (a role to create, a flag).
	Hint string `json:"hint,omitempty"`
}

// Privileged reports whether the connection could do more than read.
func (p Privileges) Privileged() bool { return len(p.Risky) > 0 }

// PrivilegeReporter is implemented by engines with roles (PostgreSQL,
// MySQL/MariaDB). Privileges is computed once, at the first call.
type PrivilegeReporter interface {
	Privileges(ctx context.Context) (Privileges, error)
}

// PrivilegesOnce keeps an engine's answer to Privileges: the roles a
// connection holds do not change while it is open, and the doors ask often.
type PrivilegesOnce struct {
	once  sync.Once
	privs Privileges
	err   error
}

// Get returns the first answer of ask.
func (o *PrivilegesOnce) Get(ask func() (Privileges, error)) (Privileges, error) {
	o.once.Do(func() { o.privs, o.err = ask() })
	return o.privs, o.err
}

// ErrPrivileged is returned (wrapped) when untrusted SQL is refused because
// the connection's role is privileged and the user did not allow it.
var ErrPrivileged = errors.New("untrusted SQL refused on a privileged connection")

// Byte bounds of an untrusted result, when the caller sets none.
const (
	DefaultMaxValueBytes  = 16 << 10  // one value
	DefaultMaxResultBytes = 256 << 10 // all values of one result together
)

// MaxUntrustedBytes bounds the text of one untrusted statement. A person
// or a model asking a question writes a few hundred bytes; parsing several
// megabytes of crafted SQL costs seconds of CPU before any verdict, which
// discover's own wide statements may spend but an untrusted caller may not.
const MaxUntrustedBytes = 64 << 10

func checkUntrustedSize(sql string) error {
	if len(sql) > MaxUntrustedBytes {
		return rejectf("statement of %d bytes is longer than the %d allowed for SQL discover did not write", len(sql), MaxUntrustedBytes)
	}
	return nil
}

// Door runs untrusted SQL. It is safe for concurrent use.
type Door struct {
	Source Source
	// AllowPrivileged runs untrusted SQL even on a privileged connection
	// (--allow-privileged): the allow-list guard alone then stands between
	// the statement and the database.
	AllowPrivileged bool
	// MaxValueBytes and MaxResultBytes bound what a result carries; 0 takes
	// the defaults above.
	MaxValueBytes, MaxResultBytes int
}

// Privileges returns the connection's privileges: none for engines without
// roles; the engine answers once per connection (PrivilegesOnce).
func (d *Door) Privileges(ctx context.Context) (Privileges, error) {
	if pr, ok := d.Source.(PrivilegeReporter); ok {
		return pr.Privileges(ctx)
	}
	return Privileges{}, nil
}

// Admit returns nil when untrusted SQL may run on this connection, else an
// error wrapping ErrPrivileged that names the privileges and says how to
// connect safely. Privileges that cannot be determined count as privileged:
// a failure to look is no proof of safety.
func (d *Door) Admit(ctx context.Context) error {
	p, err := d.Privileges(ctx)
	if err != nil {
		if d.AllowPrivileged {
			return nil
		}
		return fmt.Errorf("%w: the connection's privileges could not be checked (%v); pass --allow-privileged to run it anyway", ErrPrivileged, err)
	}
	if !p.Privileged() || d.AllowPrivileged {
		return nil
	}
	return PrivilegedError(p)
}

// PrivilegedError is the refusal for a privileged connection.
func PrivilegedError(p Privileges) error {
	who := "the connection"
	if p.Role != "" {
		who = fmt.Sprintf("the connection's role %q", p.Role)
	}
	// The gravest come first; a superuser's long list would bury the advice.
	const show = 4
	list := strings.Join(p.Risky[:min(show, len(p.Risky))], "; ")
	if len(p.Risky) > show {
		list += fmt.Sprintf("; and %d more", len(p.Risky)-show)
	}
	msg := fmt.Sprintf("%s can do more than read: %s", who, list)
	if p.Hint != "" {
		msg += ". " + p.Hint
	}
	return fmt.Errorf("%w: %s", ErrPrivileged, msg)
}

// Query admits the connection and runs sql through the source's guarded
// Query, asking it to bound the result in bytes (warehouse.Query does).
func (d *Door) Query(ctx context.Context, sql string, opts QueryOptions) (*Result, error) {
	if err := d.Admit(ctx); err != nil {
		return nil, err
	}
	if err := checkUntrustedSize(sql); err != nil {
		return nil, err
	}
	opts.MaxValueBytes = cmp.Or(d.MaxValueBytes, DefaultMaxValueBytes)
	opts.MaxResultBytes = cmp.Or(d.MaxResultBytes, DefaultMaxResultBytes)
	opts.Origins = true
	res, err := d.Source.Query(ctx, sql, opts)
	if err != nil {
		return nil, SanitizeError(err)
	}
	return res, nil
}

// Guard asks the source's allow-list for a verdict on sql without running
// it; a source without one (a test's stand-in) gets the lexical Check of
// its dialect's grammar.
func (d *Door) Guard(ctx context.Context, sql string) error {
	if err := checkUntrustedSize(sql); err != nil {
		return err
	}
	if g, ok := d.Source.(Guarder); ok {
		return g.Guard(ctx, sql)
	}
	return d.Source.Dialect().Grammar().Check(sql)
}

// BoundBytes cuts res down to at most maxValue bytes per value and maxTotal
// bytes over all values (0 takes the defaults), in place. A cut value ends
// in "… [cut: N bytes]", rows past the total are dropped, and
// res.BytesTruncated says so. Text is cut on a UTF-8 boundary.
func BoundBytes(res *Result, maxValue, maxTotal int) {
	if res == nil {
		return
	}
	if maxValue <= 0 {
		maxValue = DefaultMaxValueBytes
	}
	if maxTotal <= 0 {
		maxTotal = DefaultMaxResultBytes
	}
	total := 0
	for i, row := range res.Rows {
		for j, v := range row {
			s, isText := v.(string)
			if !isText {
				if b, ok := v.([]byte); ok {
					s, isText = string(b), true
				}
			}
			if !isText {
				total += 8
				continue
			}
			if len(s) > maxValue {
				row[j] = cutText(s, maxValue)
				res.BytesTruncated = true
				s = row[j].(string)
			}
			total += len(s)
		}
		if total > maxTotal {
			res.Rows = res.Rows[:i]
			res.Truncated, res.BytesTruncated = true, true
			return
		}
	}
}

func cutText(s string, n int) string {
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… [cut: %d bytes]", len(s))
}

// MaxErrorBytes bounds an error message handed back to an untrusted caller.
const MaxErrorBytes = 600

// SanitizeError shortens an engine's error for an untrusted caller: a
// quoted literal longer than a name would be (an engine quoting a value it
// could not read, a file's content) is replaced by its length, and the
// message is cut to MaxErrorBytes. Errors keep their chain (errors.Is).
func SanitizeError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	clean := stripLongQuotes(msg, 64)
	if len(clean) > MaxErrorBytes {
		clean = cutText(clean, MaxErrorBytes)
	}
	if clean == msg {
		return err
	}
	return &sanitized{msg: clean, err: err}
}

type sanitized struct {
	msg string
	err error
}

func (e *sanitized) Error() string { return e.msg }
func (e *sanitized) Unwrap() error { return e.err }

// stripLongQuotes replaces each '…' or "…" span longer than n bytes with a
// note of its length. An unterminated quote runs to the end of the text.
func stripLongQuotes(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		q := s[i]
		if q != '\'' && q != '"' {
			b.WriteByte(q)
			i++
			continue
		}
		end := strings.IndexByte(s[i+1:], q)
		if end < 0 {
			end = len(s) - i - 1
		}
		span := s[i+1 : i+1+end]
		if len(span) > n {
			fmt.Fprintf(&b, "%c[%d bytes not shown]%c", q, len(span), q)
		} else {
			b.WriteByte(q)
			b.WriteString(span)
			b.WriteByte(q)
		}
		i += end + 2
	}
	return b.String()
}
