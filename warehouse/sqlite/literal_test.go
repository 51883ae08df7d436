package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/discover-db/discover/internal/literaltest"
	"github.com/discover-db/discover/warehouse"
)

// hostileValues are values a column may hold that a literal must carry
// whole: quotes, and NULs, which SQLite text may hold and no guard lets
// through raw.
var hostileValues = []string{
	`'`, `''`, `it's`, `'; SELECT 1 --`, `C:\temp\`, "line one\nline two", "bell\a",
	"nul\x00byte", "\x00", "\x00\x00", "'\x00'", "ends\x00", "Zürich — 東京 🙂", "",
}

// TestLiteralRoundTrip: the dialect's literal of each value passes the
// guards and comes back as exactly the value, and finds the row that
// stores it (bound as a parameter, not written by Literal) and no other:
// a value cut at its NUL would match another or none.
func TestLiteralRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lit.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE v (i INTEGER PRIMARY KEY, t TEXT)"); err != nil {
		t.Fatal(err)
	}
	for i, v := range hostileValues {
		if _, err := db.Exec("INSERT INTO v VALUES (?, ?)", i, v); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	literaltest.Each(t, s, hostileValues, true)
	d := s.Dialect()
	for i, v := range hostileValues {
		q := "SELECT group_concat(i) AS rows FROM v WHERE t = " + d.Literal(v)
		res, err := s.Query(context.Background(), q, warehouse.QueryOptions{})
		if err != nil {
			t.Errorf("%q: %s: %v", v, q, err)
			continue
		}
		if got := fmt.Sprint(res.Rows); got != fmt.Sprintf("[[%d]]", i) {
			t.Errorf("%q: %s found rows %s; want [[%d]]", v, q, got, i)
		}
	}
}
