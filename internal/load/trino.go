package load

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"strconv"
	"strings"
	"time"

	_ "github.com/trinodb/trino-go-client/trino" // the "trino" database/sql driver
)

// Trino is a target through a catalog of its memory connector, which
// differs from the others in what it can hold and how rows arrive:
//
//   - It declares no keys, unique constraints, indexes or foreign keys, and
//     keeps no column defaults: the copy has the tables, their columns
//     (NOT NULL kept) and their rows; a discovery infers the rest.
//   - The "database" is a schema of the catalog: CreateDatabase takes
//     trino://user@host:port/catalog and gives trino://…/catalog/name.
//   - Rows go in as INSERT … SELECT from one JSON text a batch, through
//     the coordinator's HTTP protocol (the client has no bulk path).
//
// The memory connector keeps its tables in the workers' heap until they
// are dropped: drop removes every table and view, then the schema.

const trino = "trino"

// trinoInsertBytes bounds one INSERT's JSON, below the coordinator's
// query.max-length (1,000,000 characters by default): a few large
// statements load faster than many small ones, and one too large fails.
const trinoInsertBytes = 800_000

// trinoAdmin reads trino://user@host:port/catalog[/schema] into the Go
// client's DSN, plain HTTP: the test cluster has no TLS.
func trinoAdmin(dsn string) (client, catalog, schema string, err error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", "", "", fmt.Errorf("trino DSN: %w", err)
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if u.Scheme != trino || u.User == nil || u.Host == "" || parts[0] == "" || len(parts) > 2 {
		return "", "", "", fmt.Errorf("trino DSN %q: want trino://user@host:port/catalog[/schema]", dsn)
	}
	catalog = parts[0]
	if len(parts) == 2 {
		schema = parts[1]
	}
	q := url.Values{"catalog": {catalog}}
	if schema != "" {
		q.Set("schema", schema)
	}
	c := url.URL{Scheme: "http", User: url.User(u.User.Username()), Host: u.Host, RawQuery: q.Encode()}
	return c.String(), catalog, schema, nil
}

// createTrino is CreateDatabase for Trino: a schema of adminDSN's catalog.
func createTrino(ctx context.Context, adminDSN, name string) (string, func() error, error) {
	client, catalog, _, err := trinoAdmin(adminDSN)
	if err != nil {
		return "", nil, err
	}
	db, err := sql.Open(trino, client)
	if err != nil {
		return "", nil, err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+quote(catalog)+"."+quote(name)); err != nil {
		return "", nil, fmt.Errorf("load: create schema %s.%s: %w", catalog, name, err)
	}
	drop := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), dropTimeout)
		defer cancel()
		if err := dropTrinoSchema(ctx, client, catalog, name); err != nil {
			return fmt.Errorf("load: drop schema %s.%s: %w", catalog, name, err)
		}
		return nil
	}
	return strings.TrimSuffix(adminDSN, "/") + "/" + name, drop, nil
}

// DropTrinoSchema drops the schema name of adminDSN's catalog and all it
// holds, if it exists: what CreateDatabase's drop does, for a copy kept
// under a fixed name (the demo in memory.demo) that a later run replaces.
func DropTrinoSchema(ctx context.Context, adminDSN, name string) error {
	client, catalog, _, err := trinoAdmin(adminDSN)
	if err != nil {
		return err
	}
	db, err := sql.Open(trino, client)
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+quote(catalog)+".information_schema.schemata WHERE schema_name = '"+
		strings.ReplaceAll(name, "'", "''")+"'").Scan(&n); err != nil {
		return fmt.Errorf("load: drop schema %s.%s: %w", catalog, name, err)
	}
	if n == 0 {
		return nil
	}
	if err := dropTrinoSchema(ctx, client, catalog, name); err != nil {
		return fmt.Errorf("load: drop schema %s.%s: %w", catalog, name, err)
	}
	return nil
}

func dropTrinoSchema(ctx context.Context, client, catalog, schema string) error {
	db, err := sql.Open(trino, client)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "SELECT table_name, table_type FROM "+quote(catalog)+
		".information_schema.tables WHERE table_schema = '"+strings.ReplaceAll(schema, "'", "''")+"'")
	if err != nil {
		return err
	}
	var views, tables []string
	for rows.Next() {
		var name, kind string
		if err := rows.Scan(&name, &kind); err != nil {
			rows.Close()
			return err
		}
		full := quote(catalog) + "." + quote(schema) + "." + quote(name)
		if kind == "VIEW" {
			views = append(views, "DROP VIEW "+full)
		} else {
			tables = append(tables, "DROP TABLE "+full)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	// Views first: they read the tables.
	for _, stmt := range append(append(views, tables...), "DROP SCHEMA "+quote(catalog)+"."+quote(schema)) {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return nil
}

// trinoTarget fills a schema of a Trino catalog. Statements name tables
// bare: the client's session has the catalog and schema.
type trinoTarget struct {
	db *sql.DB
}

func openTrinoTarget(dsn string) (*trinoTarget, error) {
	client, _, schema, err := trinoAdmin(dsn)
	if err != nil {
		return nil, err
	}
	if schema == "" {
		return nil, fmt.Errorf("trino DSN %q: no schema to fill", dsn)
	}
	db, err := sql.Open(trino, client)
	if err != nil {
		return nil, err
	}
	return &trinoTarget{db: db}, nil
}

func (tt *trinoTarget) exec(ctx context.Context, stmt string) error {
	_, err := tt.db.ExecContext(ctx, stmt)
	return err
}

func (tt *trinoTarget) close() { tt.db.Close() }

// load sends t's rows as one JSON text per batch, cast to an array of
// rows and unnested: the coordinator analyses a string literal at once,
// where as many VALUES rows cost it seconds a thousand (the demo: 7 s
// against nearly 3 minutes).
func (tt *trinoTarget) load(ctx context.Context, src *sql.DB, t *table) error {
	r, err := readRows(ctx, src, t)
	if err != nil {
		return err
	}
	defer r.close()
	fields := make([]string, len(t.cols))
	exprs := make([]string, len(t.cols))
	for i, c := range t.cols {
		f := fmt.Sprintf("c%d", i)
		typ, err := columnType(trino, c)
		if err != nil {
			return err
		}
		exprs[i] = f
		switch c.kind {
		case kindBlob:
			typ, exprs[i] = "varchar", "from_hex("+f+")"
		case kindFloat:
			typ, exprs[i] = "varchar", "CAST("+f+" AS double)"
		}
		fields[i] = f + " " + typ
	}
	head := "INSERT INTO " + quote(t.name) + " (" + quoteList(columnNames(t)) + ") SELECT " + strings.Join(exprs, ", ") +
		" FROM UNNEST(CAST(json_parse('"
	tail := "') AS array(row(" + strings.Join(fields, ", ") + ")))) AS r"
	var b strings.Builder
	flush := func() error {
		if b.Len() == 0 {
			return nil
		}
		err := tt.exec(ctx, head+"["+b.String()+"]"+tail)
		b.Reset()
		return err
	}
	row := make([]any, len(t.cols))
	for r.next() {
		for i, c := range t.cols {
			if row[i], err = trinoJSONValue(c, r.row[i]); err != nil {
				return err
			}
		}
		js, err := json.Marshal(row)
		if err != nil {
			return fmt.Errorf("row of %q: %w", t.name, err)
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		// Escaped as it goes in, so that b.Len is the literal's length.
		b.WriteString(strings.ReplaceAll(string(js), "'", "''"))
		if b.Len() >= trinoInsertBytes {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	return flush()
}

// trinoJSONValue is v, as SQLite returned it for c, as the JSON value the
// load's CAST turns into c's target type: decimals as text (exact),
// doubles as text (JSON has no NaN), blobs as hex.
func trinoJSONValue(c *column, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if c.kind == kindFloat {
		switch n := v.(type) {
		case int64:
			return strconv.FormatFloat(float64(n), 'g', -1, 64), nil
		case float64:
			switch {
			case math.IsInf(n, 1):
				return "Infinity", nil
			case math.IsInf(n, -1):
				return "-Infinity", nil
			}
			return strconv.FormatFloat(n, 'g', -1, 64), nil
		}
		return nil, fmt.Errorf("column %q: unexpected %T for a float column", c.name, v)
	}
	x, err := value(c, v, func(_ *big.Int, s string) any { return s })
	if err != nil {
		return nil, err
	}
	if c.kind == kindBlob {
		return hex.EncodeToString(x.([]byte)), nil
	}
	return x, nil
}

// addForeignKey is a no-op: Trino declares no keys.
func (tt *trinoTarget) addForeignKey(context.Context, *table, foreignKey) error { return nil }

func (tt *trinoTarget) tryView(ctx context.Context, name, stmt string) error {
	if err := tt.exec(ctx, stmt); err != nil {
		return err
	}
	rows, err := tt.db.QueryContext(ctx, "SELECT * FROM "+quote(name)+" LIMIT 1")
	if err == nil {
		for rows.Next() {
		}
		rows.Close()
		err = rows.Err()
	}
	if err != nil {
		// No transaction to roll back DDL in: the view is dropped by hand.
		dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, derr := tt.db.ExecContext(dctx, "DROP VIEW "+quote(name)); derr != nil {
			return errors.Join(err, derr)
		}
	}
	return err
}

// analyze is a no-op: the memory connector keeps its tables' statistics
// up to date.
func (tt *trinoTarget) analyze(context.Context, []*table) error { return nil }
