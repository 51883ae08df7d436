package warehouse

import "strings"

// NumericType reports whether a declared type holds numbers, by the words
// SQLite's affinity rules read in any engine's type names (INT, REAL,
// NUMERIC, DECIMAL, FLOAT, DOUBLE and their spellings: INT4, BIGINT,
// NUMBER(10,2), DOUBLE PRECISION). Types that merely contain those
// letters are not: INTERVAL and POINT hold INT, and an ENUM or a SET
// holds NUM though its labels are text (MySQL's enum('G','PG'), DuckDB's
// ENUM('a')); only the name before the parentheses is read, so a label
// (enum('PRINT')) says nothing either. An empty type is no number here:
// callers on engines with dynamic types decide that for themselves.
func NumericType(t string) bool {
	u := typeName(t)
	if EnumType(t) || strings.Contains(u, "INTERVAL") || strings.Contains(u, "POINT") {
		return false
	}
	for _, s := range []string{"INT", "REAL", "NUM", "DEC", "FLOA", "DOUB"} {
		if strings.Contains(u, s) {
			return true
		}
	}
	return false
}

// EnumType reports whether a declared type is an enumeration or a set of
// labels (MySQL's enum('G','PG') and set('a','b'), DuckDB's ENUM('a')),
// whose values are text.
func EnumType(t string) bool {
	u := typeName(t)
	return u == "ENUM" || u == "SET"
}

// typeName is a declared type's name in upper case, without its
// parameters: NUMERIC(10,2) → NUMERIC.
func typeName(t string) string {
	u := strings.ToUpper(strings.TrimSpace(t))
	if before, _, ok := strings.Cut(u, "("); ok {
		u = strings.TrimSpace(before)
	}
	return u
}
