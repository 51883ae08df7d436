// Package warehouse is the database under discovery: the small Source
// interface every engine implements, the SQL guard, identifier quoting and
// the DSN helpers. Engines live in subfolders (sqlite, postgres, …).
package warehouse

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// TableName addresses a table or view. Schema is empty for engines without
// schemas and for the default search path (SQLite "main", PostgreSQL "public").
type TableName struct {
	Schema string `json:"schema,omitempty"`
	Name   string `json:"name"`
}

// String renders the name as SQL would address it on the default search
// path: a bare name, else schema.table (CONTRACT.md).
func (t TableName) String() string {
	if t.Schema == "" {
		return t.Name
	}
	return t.Schema + "." + t.Name
}

// Column is a declared column.
type Column struct {
	Name     string `json:"name"`
	Type     string `json:"type"` // declared type, as written ("" when SQLite has none)
	Nullable bool   `json:"nullable"`
	Position int    `json:"position"` // 1-based
}

// ForeignKey is a declared foreign key, possibly composite.
type ForeignKey struct {
	Name       string    `json:"name,omitempty"`
	Columns    []string  `json:"columns"`
	RefTable   TableName `json:"ref_table"`
	RefColumns []string  `json:"ref_columns"` // resolved to the parent's primary key when the declaration omits them
}

// Index is a declared index (unique constraints appear both here and in Table.Uniques).
type Index struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
	Unique  bool     `json:"unique"`
}

// Table is a table or view with its declared structure.
type Table struct {
	Name        TableName    `json:"name"`
	Kind        string       `json:"kind"` // "table" or "view"
	Columns     []Column     `json:"columns"`
	PrimaryKey  []string     `json:"primary_key"`
	ForeignKeys []ForeignKey `json:"foreign_keys"`
	Uniques     [][]string   `json:"uniques"` // unique constraints and unique indexes, PK excluded
	Indexes     []Index      `json:"indexes"`
}

// QueryOptions bound one query.
type QueryOptions struct {
	Timeout time.Duration // 0 = the source's default
	MaxRows int           // 0 = the source's default; further rows are dropped and Result.Truncated set
	// MaxValueBytes and MaxResultBytes cut long values and drop the rows
	// past a total (BoundBytes, Result.BytesTruncated); 0 = no cut. Door
	// sets them for SQL discover did not write.
	MaxValueBytes, MaxResultBytes int
}

// Result is what a guarded query returned. Values are Go values as the
// driver produced them, with []byte converted to string for text columns.
type Result struct {
	Columns   []string `json:"columns"`
	Rows      [][]any  `json:"rows"`
	Truncated bool     `json:"truncated"`
	// BytesTruncated: a value or the whole result was cut to a byte bound
	// (Door, BoundBytes); cut values end in "… [cut: N bytes]".
	BytesTruncated bool `json:"bytes_truncated,omitempty"`
	Elapsed        time.Duration
}

// Source is a database under discovery, opened read-only.
//
// Query returns ErrRejected (wrapped) when the guard refuses the statement,
// and a wrapped context.DeadlineExceeded when the per-query timeout fires.
type Source interface {
	// Dialect is the engine's SQL dialect and capabilities; its Name
	// ("sqlite", "postgres", "mysql", "duckdb", "trino") is for messages
	// and reports, its Grammar for the guard.
	Dialect() Dialect
	// Database is a short human name for the database (file stem, db name).
	Database() string
	// Tables lists tables and views (sorted by name) with declared structure.
	Tables(ctx context.Context) ([]Table, error)
	// RowCount counts the rows of a table exactly.
	RowCount(ctx context.Context, t TableName) (int64, error)
	// Query runs one guarded read-only statement.
	Query(ctx context.Context, sql string, opts QueryOptions) (*Result, error)
	// QuoteIdent quotes one identifier for this dialect.
	QuoteIdent(name string) string
	// QuoteTable quotes a (possibly schema-qualified) table name.
	QuoteTable(t TableName) string
	Close() error
}

// ErrRejected is returned (wrapped) when the SQL guard refuses a statement.
var ErrRejected = errors.New("statement rejected by the read-only guard")

// ErrDatabaseRefused is returned (wrapped) when the database's own
// read-only protection refused a statement that discover's guard had let
// through (PostgreSQL's read-only transaction, SQLSTATE 25006; MySQL's READ
// ONLY transaction; SQLite's read-only file or authorizer; DuckDB's
// read-only mode or disabled external access). It matches ErrRejected too,
// so callers that treat every refusal alike keep working, while a message
// or a stage can say whose refusal it was.
var ErrDatabaseRefused error = databaseRefusal{}

type databaseRefusal struct{}

func (databaseRefusal) Error() string {
	return "refused by the database's own read-only protection (discover's guard had let it pass)"
}

func (databaseRefusal) Is(target error) bool { return target == ErrRejected }

// ErrBadInput marks errors caused by the user's input (a missing file, a
// file that is not a database, an unknown DSN scheme): exit code 2.
var ErrBadInput = errors.New("bad input")

// BadInput is an error caused by the user's input whose message is shown
// as is — no trailing ": bad input" — while it still matches ErrBadInput.
func BadInput(msg string) error { return &badInputError{msg: msg} }

// BadInputf is BadInput with a formatted message.
func BadInputf(format string, args ...any) error {
	return &badInputError{msg: fmt.Sprintf(format, args...)}
}

type badInputError struct{ msg string }

func (e *badInputError) Error() string { return e.msg }
func (e *badInputError) Unwrap() error { return ErrBadInput }

// Skipped is a table the source saw but leaves out, with why (no SELECT
// privilege, a view that does not compile, …).
type Skipped struct {
	Table  TableName `json:"table"`
	Kind   string    `json:"kind,omitempty"` // "table" or "view", when the source knows
	Reason string    `json:"reason"`
}

// SkipReporter is implemented by sources whose Tables leaves out tables
// the user may not read; the orchestrator reports them as uncertainties.
type SkipReporter interface {
	Skipped(ctx context.Context) ([]Skipped, error)
}

// RowEstimator is implemented by sources that know a cheap row-count
// estimate (PostgreSQL reltuples, MySQL table_rows). exact is false for an
// estimate; the structural expert counts exactly below its threshold.
type RowEstimator interface {
	EstimateRows(ctx context.Context, t TableName) (n int64, exact bool, err error)
}

// ColumnStatser is implemented by sources whose planner keeps per-column
// statistics (PostgreSQL pg_stats). They cost one catalog query and no scan,
// but they are the planner's estimates as of the last ANALYZE, not
// measurements. A table never analyzed has none: an empty slice, no error.
type ColumnStatser interface {
	ColumnStats(ctx context.Context, t TableName) ([]ColumnStat, error)
}

// ColumnStat is the planner's estimate of one column's figures, as of the
// last ANALYZE. Nil pointers are figures the planner does not keep.
type ColumnStat struct {
	Column string
	// NullFraction is the estimated fraction of rows that are NULL.
	NullFraction *float64
	// Distinct is the estimated number of distinct non-null values, as an
	// absolute count: a fractional estimate (PostgreSQL's negative
	// n_distinct) is scaled by the table's estimated rows.
	Distinct *int64
	// TopValues are the most common values with their estimated fractions
	// of all rows, most common first.
	TopValues []ValueFraction
	// Histogram holds the bounds of equal-population buckets of the values
	// not among TopValues, as text.
	Histogram []string
	// Correlation is the estimated correlation between the physical row
	// order and the column's order, from -1 to 1.
	Correlation *float64
}

// ValueFraction is a frequent value and its estimated fraction of rows.
type ValueFraction struct {
	Value    string
	Fraction float64
}
