// Package connect maps a DSN to the engine that opens it. It is the only
// place that knows every engine, so the command line and the MCP server open
// databases the same way.
package connect

import (
	"context"

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
func Open(ctx context.Context, dsn string) (warehouse.Source, error) {
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
