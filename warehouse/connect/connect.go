// Package connect maps a DSN to the engine that opens it. It is the only
// place that knows every engine, so the command line and the MCP server open
// databases the same way.
package connect

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/duckdb"
	"github.com/discover-db/discover/warehouse/mysql"
	"github.com/discover-db/discover/warehouse/postgres"
	"github.com/discover-db/discover/warehouse/spark"
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

// engine is one database engine: the DSN schemes that open it, its
// dialect, and the other names the dialect goes by.
type engine struct {
	schemes []string
	dialect warehouse.Dialect
	aliases []string
	open    func(ctx context.Context, dsn string) (warehouse.Source, error)
}

// engines are every engine discover reads. A new engine is its package and
// one line here.
var engines = []engine{
	{[]string{"sqlite"}, sqlite.Dialect{}, []string{"sqlite3"}, opener(sqlite.Open)},
	{[]string{"postgres"}, postgres.Dialect{}, []string{"postgresql", "pg"}, opener(postgres.Open)},
	{[]string{"mysql"}, mysql.Dialect{}, []string{"mariadb"}, opener(mysql.Open)},
	{[]string{"duckdb"}, duckdb.Dialect{}, nil, opener(duckdb.Open)},
	{[]string{"trino", "trinos"}, trino.Dialect{}, nil, opener(trino.Open)},
	{[]string{"spark", "sparks"}, spark.Dialect{}, []string{"sparksql", "spark sql"}, opener(spark.Open)},
}

// A statement for an engine nobody named must read as one read-only
// statement to every engine: the guard checks it under every grammar.
func init() {
	for _, e := range engines {
		warehouse.RegisterGrammars(e.dialect.Grammar())
	}
}

// opener adapts an engine's Open, so that a failure returns a nil Source
// rather than a typed nil pointer inside the interface.
func opener[S warehouse.Source](open func(context.Context, string) (S, error)) func(context.Context, string) (warehouse.Source, error) {
	return func(ctx context.Context, dsn string) (warehouse.Source, error) {
		src, err := open(ctx, dsn)
		if err != nil {
			return nil, err
		}
		return src, nil
	}
}

func open(ctx context.Context, dsn string) (warehouse.Source, error) {
	scheme, rest := warehouse.Scheme(dsn)
	if scheme == "sqlite" && rest == dsn && duckdb.IsDatabaseFile(dsn) {
		// A bare path names a file, not an engine: a DuckDB file is opened
		// as one instead of failing as "not a SQLite database".
		scheme = "duckdb"
	}
	if scheme == "" {
		return nil, warehouse.BadInput("empty DSN; expected a SQLite path, sqlite://, postgres://, mysql://, duckdb://, trino:// or spark://")
	}
	for _, e := range engines {
		if slices.Contains(e.schemes, scheme) {
			return e.open(ctx, rest)
		}
	}
	return nil, warehouse.BadInputf("unknown DSN scheme %q; expected a SQLite path, sqlite://, postgres://, mysql://, duckdb://, trino:// or spark://", scheme)
}

// Dialects are the dialects of every engine, in the order Open tries them:
// the golden tests render each.
func Dialects() []warehouse.Dialect {
	ds := make([]warehouse.Dialect, len(engines))
	for i, e := range engines {
		ds[i] = e.dialect
	}
	return ds
}

// DialectFor returns the dialect of an engine by its name, as
// Dialect.Name gives it ("sqlite", "postgres", "mysql", "duckdb",
// "trino"), or another name it goes by ("sqlite3", "PostgreSQL",
// "mariadb"). An unknown name is an error wrapping ErrBadInput.
func DialectFor(name string) (warehouse.Dialect, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	var names []string
	for _, e := range engines {
		if e.dialect.Name() == name || slices.Contains(e.aliases, name) {
			return e.dialect, nil
		}
		names = append(names, e.dialect.Name())
	}
	return nil, fmt.Errorf("connect: unknown SQL dialect %q (want %s): %w", name, strings.Join(names, ", "), warehouse.ErrBadInput)
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
