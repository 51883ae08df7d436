// Package connect maps a DSN to the engine that opens it. It is the only
// place that knows every engine, so the command line and the MCP server open
// databases the same way.
package connect

import (
	"context"
	"errors"
	"regexp"
	"sort"
	"strings"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/duckdb"
	"github.com/discover-db/discover/warehouse/mysql"
	"github.com/discover-db/discover/warehouse/postgres"
	"github.com/discover-db/discover/warehouse/sqlite"
	"github.com/discover-db/discover/warehouse/trino"
)

// Open opens the database dsn names, read-only (CONTRACT.md, "DSN forms").
// Input the user can fix (an empty DSN, an unknown scheme, an engine not
// supported yet, a missing or non-database file) is reported as
// warehouse.ErrBadInput, which the command line turns into exit code 2.
// No error shows a secret of the DSN (see scrub).
func Open(ctx context.Context, dsn string) (warehouse.Source, error) {
	src, err := open(ctx, dsn)
	if err != nil {
		return nil, scrub(err, warehouse.Secrets(dsn))
	}
	return src, nil
}

func open(ctx context.Context, dsn string) (warehouse.Source, error) {
	scheme, rest := warehouse.Scheme(dsn)
	switch scheme {
	case "":
		return nil, warehouse.BadInput("empty DSN; expected a SQLite path, sqlite://, postgres://, mysql://, duckdb:// or trino://")
	case "sqlite":
		src, err := sqlite.Open(ctx, rest)
		if err != nil {
			return nil, err
		}
		return src, nil
	case "mysql":
		src, err := mysql.Open(ctx, rest)
		if err != nil {
			return nil, err
		}
		return src, nil
	case "postgres":
		src, err := postgres.Open(ctx, rest)
		if err != nil {
			return nil, err
		}
		return src, nil
	case "trino", "trinos":
		src, err := trino.Open(ctx, rest)
		if err != nil {
			return nil, err
		}
		return src, nil
	case "duckdb":
		src, err := duckdb.Open(ctx, rest)
		if err != nil {
			return nil, err
		}
		return src, nil
	default:
		return nil, warehouse.BadInputf("unknown DSN scheme %q; expected a SQLite path, sqlite://, postgres://, mysql://, duckdb:// or trino://", scheme)
	}
}

// scrub takes the DSN's secrets out of an engine's error, whole and as any
// quoted fragment of one: each engine redacts the DSN it shows, but a
// parser's message may quote the text it choked on (the Go URL parser's
// `invalid port ":pass"` for a DSN missing its '@'), and an engine that
// takes the DSN for a file name shows it as given. The scrubbed error
// still matches warehouse.ErrBadInput and context errors, but no longer
// unwraps to the original, whose text holds the secret.
func scrub(err error, secrets []string) error {
	if len(secrets) == 0 {
		return err
	}
	// Longest first, so that a secret is replaced before a shorter form of
	// it (its decoded text, its quoted fragments) could split it.
	sort.Slice(secrets, func(i, j int) bool { return len(secrets[i]) > len(secrets[j]) })
	msg := err.Error()
	for _, s := range secrets {
		msg = strings.ReplaceAll(msg, s, "***")
	}
	msg = quotedText.ReplaceAllStringFunc(msg, func(q string) string {
		inner := q[1 : len(q)-1]
		for _, s := range secrets {
			if len(inner) >= 3 && strings.Contains(s, inner) {
				return q[:1] + "***" + q[len(q)-1:]
			}
		}
		return q
	})
	if msg == err.Error() {
		return err
	}
	e := &scrubbedError{msg: msg}
	for _, sentinel := range []error{warehouse.ErrBadInput, context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, sentinel) {
			e.causes = append(e.causes, sentinel)
		}
	}
	return e
}

var quotedText = regexp.MustCompile(`"[^"]*"|'[^']*'|` + "`[^`]*`")

type scrubbedError struct {
	msg    string
	causes []error
}

func (e *scrubbedError) Error() string   { return e.msg }
func (e *scrubbedError) Unwrap() []error { return e.causes }
