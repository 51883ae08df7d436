package warehouse_test

import (
	"testing"

	"github.com/discover-db/discover/warehouse"
)

func TestNumericType(t *testing.T) {
	for _, typ := range []string{"INTEGER", "int4", "BIGINT", "NUMERIC(10,2)", "decimal", "DOUBLE PRECISION", "REAL", "FLOAT8", "NUMBER(10)",
		"TINYINT(1)", "HUGEINT", "UBIGINT", " smallint "} {
		if !warehouse.NumericType(typ) {
			t.Errorf("%q: not numeric, want numeric", typ)
		}
	}
	for _, typ := range []string{"", "TEXT", "VARCHAR(20)", "DATETIME", "BLOB", "INTERVAL", "interval day to second", "POINT", "BOOLEAN", "date",
		"enum('G','PG','PG-13','R','NC-17')", "ENUM('new', 'paid')", "enum('PRINT','DOUBLE')", "set('a','b')", "ENUM"} {
		if warehouse.NumericType(typ) {
			t.Errorf("%q: numeric, want not", typ)
		}
	}
}

func TestEnumType(t *testing.T) {
	for typ, want := range map[string]bool{"enum('G','PG')": true, "ENUM('a')": true, "set('a','b')": true, " Enum ": true,
		"TEXT": false, "VARCHAR(5)": false, "SETTING": false, "enumeration": false} {
		if got := warehouse.EnumType(typ); got != want {
			t.Errorf("%q: %v, want %v", typ, got, want)
		}
	}
}
