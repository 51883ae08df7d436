package duckdb

import (
	"testing"

	"github.com/discover-db/discover/internal/literaltest"
)

// TestLiteralRoundTrip: quotes, backslashes (ordinary characters in
// DuckDB's strings) and NULs, which DuckDB text may hold and no guard
// lets through raw, come back as exactly the value.
func TestLiteralRoundTrip(t *testing.T) {
	s := open(t, "duckdb://"+build(t, "lit.duckdb"))
	literaltest.Each(t, s, []string{
		`'`, `''`, `it's`, `'; SELECT 1 --`, `C:\temp\`, `\'`, "line one\nline two", "bell\a",
		"nul\x00byte", "\x00", "\x00\x00", "'\x00'", "ends\x00", "Zürich — 東京 🙂", "",
	}, true)
}
