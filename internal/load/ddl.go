package load

import (
	"fmt"
	"regexp"
	"strings"
)

const (
	postgres = "postgres"
	mysql    = "mysql"
	duckdb   = "duckdb"
)

// mysqlMaxKeyChars is the longest VARCHAR InnoDB indexes whole: 3072 bytes
// of utf8mb4, four bytes a character.
const mysqlMaxKeyChars = 768

// columnType is the target type of c.
func columnType(dialect string, c *column) (string, error) {
	switch c.kind {
	case kindInt:
		return "BIGINT", nil
	case kindFloat:
		if dialect == postgres {
			return "DOUBLE PRECISION", nil
		}
		return "DOUBLE", nil
	case kindDecimal:
		if dialect == postgres {
			return "NUMERIC(14,2)", nil
		}
		return "DECIMAL(14,2)", nil
	case kindText:
		switch dialect {
		case postgres:
			return "TEXT", nil
		case duckdb, trino:
			return "VARCHAR", nil
		case spark:
			return "STRING", nil
		}
		if c.keyed {
			if c.maxLen > mysqlMaxKeyChars {
				return "", fmt.Errorf("column %q is part of a key or index and holds %d characters, more than MySQL indexes", c.name, c.maxLen)
			}
			return fmt.Sprintf("VARCHAR(%d)", max(255, c.maxLen)), nil
		}
		switch {
		case c.maxLen*4 <= 65535:
			return "TEXT", nil
		case c.maxLen*4 <= 1<<24-1:
			return "MEDIUMTEXT", nil
		}
		return "LONGTEXT", nil
	case kindBlob:
		switch dialect {
		case postgres:
			return "BYTEA", nil
		case duckdb:
			return "BLOB", nil
		case trino:
			return "VARBINARY", nil
		case spark:
			return "BINARY", nil
		}
		if c.keyed {
			if c.maxLen > 4*mysqlMaxKeyChars {
				return "", fmt.Errorf("column %q is part of a key or index and holds %d bytes, more than MySQL indexes", c.name, c.maxLen)
			}
			return fmt.Sprintf("VARBINARY(%d)", max(255, c.maxLen)), nil
		}
		return "LONGBLOB", nil
	}
	return "", fmt.Errorf("column %q: no type for kind %v", c.name, c.kind)
}

var (
	numericLiteral = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
	integerLiteral = regexp.MustCompile(`^[+-]?[0-9]+$`)
	stringLiteral  = regexp.MustCompile(`^'([^']|'')*'$`)
)

// defaultClause carries over a literal default that means the same on the
// target; expressions (CURRENT_TIMESTAMP on a text column, function calls)
// would not, and a default changes nothing a reader of the data sees.
func defaultClause(dialect string, c *column) string {
	if !c.dflt.Valid {
		return ""
	}
	d := strings.TrimSpace(c.dflt.String)
	switch strings.ToUpper(d) {
	case "TRUE":
		d = "1"
	case "FALSE":
		d = "0"
	}
	switch c.kind {
	case kindInt:
		if integerLiteral.MatchString(d) {
			return " DEFAULT " + d
		}
	case kindFloat, kindDecimal:
		if numericLiteral.MatchString(d) {
			return " DEFAULT " + d
		}
	case kindText:
		if stringLiteral.MatchString(d) {
			if dialect == mysql && !c.keyed {
				// MySQL 8 takes defaults on TEXT only as expressions;
				// MariaDB takes both.
				return " DEFAULT (" + d + ")"
			}
			return " DEFAULT " + d
		}
	}
	return ""
}

func createTable(dialect string, t *table) (string, error) {
	var defs []string
	for _, c := range t.cols {
		typ, err := columnType(dialect, c)
		if err != nil {
			return "", err
		}
		def := quote(c.name) + " " + typ
		if c.notNull || c.pk {
			def += " NOT NULL"
		}
		if dialect == trino || dialect == spark {
			// The memory connector and Spark's Parquet tables keep no
			// defaults, nor any key.
			defs = append(defs, def)
			continue
		}
		defs = append(defs, def+defaultClause(dialect, c))
	}
	if dialect == trino {
		return "CREATE TABLE " + quote(t.name) + " (\n\t" + strings.Join(defs, ",\n\t") + "\n)", nil
	}
	if dialect == spark {
		return "CREATE TABLE " + quote(t.name) + " (\n\t" + strings.Join(defs, ",\n\t") + "\n) USING parquet", nil
	}
	if len(t.pk) > 0 {
		defs = append(defs, "PRIMARY KEY ("+quoteList(t.pk)+")")
	}
	for _, u := range t.uniques {
		// Named as PostgreSQL would name it, so both targets agree.
		defs = append(defs, "CONSTRAINT "+quote(constraintName(t.name, u, "key"))+" UNIQUE ("+quoteList(u)+")")
	}
	if dialect == duckdb {
		// DuckDB declares foreign keys only here (it has no ALTER TABLE …
		// ADD FOREIGN KEY), and has no referential actions: the key is
		// declared without them, which is DuckDB's NO ACTION.
		for _, fk := range t.fks {
			defs = append(defs, foreignKeyClause(t, fk))
		}
	}
	return "CREATE TABLE " + quote(t.name) + " (\n\t" + strings.Join(defs, ",\n\t") + "\n)", nil
}

func createIndex(t *table, x index) string {
	cols := make([]string, len(x.cols))
	for i, c := range x.cols {
		cols[i] = quote(c)
		if x.desc[i] {
			cols[i] += " DESC"
		}
	}
	unique := ""
	if x.unique {
		unique = "UNIQUE "
	}
	return "CREATE " + unique + "INDEX " + quote(x.name) + " ON " + quote(t.name) + " (" + strings.Join(cols, ", ") + ")"
}

func foreignKeyClause(t *table, fk foreignKey) string {
	return "CONSTRAINT " + quote(constraintName(t.name, fk.cols, "fkey")) +
		" FOREIGN KEY (" + quoteList(fk.cols) + ") REFERENCES " + quote(fk.parent) + " (" + quoteList(fk.parentCols) + ")"
}

func addForeignKey(t *table, fk foreignKey) string {
	s := "ALTER TABLE " + quote(t.name) + " ADD " + foreignKeyClause(t, fk)
	// NO ACTION is every engine's default; the others are carried over
	// because they are part of what was declared.
	if a := strings.ToUpper(fk.onDelete); a != "" && a != "NO ACTION" {
		s += " ON DELETE " + a
	}
	if a := strings.ToUpper(fk.onUpdate); a != "" && a != "NO ACTION" {
		s += " ON UPDATE " + a
	}
	return s
}

// constraintName follows PostgreSQL's convention (orders_customer_id_fkey),
// cut to the 63 bytes PostgreSQL keeps (MySQL keeps 64).
func constraintName(table string, cols []string, suffix string) string {
	name := table + "_" + strings.Join(cols, "_") + "_" + suffix
	if len(name) > 63 {
		name = name[:63-len(suffix)-1] + "_" + suffix
	}
	return name
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	return strings.Join(q, ", ")
}
