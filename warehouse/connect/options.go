package connect

import (
	"context"
	"net/url"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Options change how a database is opened.
type Options struct {
	// Role is a PostgreSQL role to act as from the first statement on (the
	// server applies it at connection start, as SET ROLE would): a role that
	// can only read makes a superuser's login safe for untrusted SQL.
	// Refused for engines without it.
	Role string
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, dsn string, o Options) (warehouse.Source, error) {
	if o.Role == "" {
		return Open(ctx, dsn)
	}
	if scheme, _ := warehouse.Scheme(dsn); scheme != "postgres" {
		return nil, warehouse.BadInputf("--role is for PostgreSQL only (SET ROLE); for %s, connect as a user that can only read", orEngine(scheme))
	}
	return Open(ctx, withStartupParam(dsn, "role", o.Role))
}

func orEngine(scheme string) string {
	if scheme == "" {
		return "this database"
	}
	return scheme
}

// withStartupParam adds key=value to a PostgreSQL DSN, URL or key=value
// form; pgx sends a parameter it does not know itself to the server at
// connection start, where "role" takes effect before any statement.
func withStartupParam(dsn, key, value string) string {
	if strings.Contains(dsn, "://") {
		u, err := url.Parse(dsn)
		if err == nil {
			q := u.Query()
			q.Set(key, value)
			u.RawQuery = q.Encode()
			return u.String()
		}
	}
	quoted := "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(value) + "'"
	return strings.TrimSpace(dsn) + " " + key + "=" + quoted
}
