package warehouse

import (
	"slices"
	"strings"
)

// NameRules are how an engine resolves the names a statement writes: what
// the model's SQL is checked against before it runs (llm's Ground), so that
// a name is refused exactly when the engine would not find it. The zero
// value compares every name in any case, with no default schema, pseudo
// column or known table function.
type NameRules struct {
	// Compare is how a written name and a catalog name compare.
	Compare NameCompare
	// ExactTableFirst: a table name finds the table spelled exactly so
	// first, and a table in another case only when it is the only one
	// (MySQL with lower_case_table_names = 0, Linux's default, where table
	// names are file names but columns compare in any case).
	ExactTableFirst bool
	// DefaultSchema is the schema a bare table name is read from, whose
	// tables the catalog lists bare: main.orders is orders.
	DefaultSchema string
	// PseudoColumns are the lower-case names every table answers to
	// without a column of that name (SQLite's rowid), in any case.
	PseudoColumns []string
	// TableFunctions are the output columns of the table-valued functions
	// analysts use, by lower-case function name. A function absent here
	// defines nothing: its columns are whatever its alias names.
	TableFunctions map[string][]string
	// TableNameArgs are the table functions (keys of TableFunctions) whose
	// string argument must name a table of the database
	// (pragma_table_info('orders')): a wrong name yields no rows, not an
	// error, which the model would read as an answer.
	TableNameArgs map[string]bool
	// AliasNamesLoneColumn: a table function whose one column is named
	// after the function names that column after the function's alias
	// instead (PostgreSQL's generate_series(1, 3) AS g has column g).
	AliasNamesLoneColumn bool
	// QuotedMissReadsAsString: a double-quoted name that names nothing is
	// taken for a string literal (SQLite's leniency), so a miss means the
	// model wrote text in double quotes, and is refused saying so.
	QuotedMissReadsAsString bool
}

// NameCompare is how an engine compares names.
type NameCompare int

const (
	// CompareAnyCase: every name compares in any case, quoted or not.
	CompareAnyCase NameCompare = iota
	// CompareFoldUnquoted: an unquoted name folds to lower case (ASCII
	// letters only, as PostgreSQL's server does), a quoted one is kept as
	// written, and the result must equal the catalog name exactly: "Users"
	// and users are two tables.
	CompareFoldUnquoted
)

// IsPseudoColumn reports whether name is one of r's PseudoColumns.
func (r NameRules) IsPseudoColumn(name string) bool {
	return len(r.PseudoColumns) > 0 && slices.Contains(r.PseudoColumns, strings.ToLower(name))
}
