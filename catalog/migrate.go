package catalog

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in version order. Versions
// come from the file name (NNN_name.sql) and must run 1..n without gaps, so
// that "the highest recorded version" fully describes a catalog's schema.
func migrations() ([]migration, error) {
	files, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, f := range files {
		base := path.Base(f)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must be NNN_name.sql", base)
		}
		b, err := migrationFS.ReadFile(f)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", m.name, i+1)
		}
	}
	return ms, nil
}

// SchemaVersion is the newest schema this build of the catalog knows.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// migrate brings db up to the newest known schema; initVersionTable must
// have run. Each migration runs in its own immediate transaction that
// re-reads the version first, so two processes opening a fresh catalog at
// once apply each migration exactly once.
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	cur, err := currentVersion(ctx, db)
	if err != nil {
		return err
	}
	// Refuse before touching anything: an older build must not write rows a
	// newer schema may interpret differently.
	if cur > len(ms) {
		return fmt.Errorf("schema version %d is newer than this build knows (%d); use a newer discover", cur, len(ms))
	}
	for _, m := range ms[cur:] {
		if err := apply(ctx, db, m); err != nil {
			return err
		}
	}
	return nil
}

// initVersionTable creates schema_version in an empty file. A SQLite file
// that already has tables but no schema_version is someone else's database
// (say, the one under discovery passed as --catalog by mistake): refuse it
// rather than add our tables to it.
func initVersionTable(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var have, others int
	if err := tx.QueryRowContext(ctx, `SELECT
		count(*) FILTER (WHERE name = 'schema_version'),
		count(*) FILTER (WHERE name <> 'schema_version' AND name NOT LIKE 'sqlite\_%' ESCAPE '\')
		FROM sqlite_schema`).Scan(&have, &others); err != nil {
		return fmt.Errorf("read schema: %w", err)
	}
	if have > 0 {
		return nil
	}
	if others > 0 {
		return errors.New("a SQLite database that is not a discover catalog (it has tables but no schema_version)")
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE schema_version (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL
	)`); err != nil {
		return fmt.Errorf("create schema_version: %w", err)
	}
	return tx.Commit()
}

func currentVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

func apply(ctx context.Context, db *sql.DB, m migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	defer tx.Rollback()
	cur, err := currentVersion(ctx, tx)
	if err != nil {
		return err
	}
	if cur >= m.version {
		return nil // another process got here first
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, formatTime(time.Now())); err != nil {
		return fmt.Errorf("migration %s: record: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: commit: %w", m.name, err)
	}
	return nil
}
