package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/load"
	"github.com/discover-db/discover/report"
)

// backslashSchema is a table whose most frequent values hold backslashes
// and quotes, which Spark reads as escapes in a string literal.
const backslashSchema = `
CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL, kind TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
INSERT INTO files SELECT i,
	CASE WHEN i % 3 = 0 THEN 'C:\temp\' WHEN i % 5 = 0 THEN 'ab\''' WHEN i % 7 = 0 THEN '\''; --' ELSE 'D:\data\' || i END,
	CASE WHEN i % 2 = 0 THEN 'n\a' ELSE NULL END
FROM n;
`

// TestSparkBackslashValues: a Spark table whose values hold backslashes
// and quotes is discovered with the figures SQLite gives for the same
// rows, its frequent values exactly as stored.
func TestSparkBackslashValues(t *testing.T) {
	want, got := sparkBesideSQLite(t, backslashSchema, "backslash")
	compareReports(t, want, got)
	top := func(r report.Report, col string) string {
		for _, tb := range r.Tables {
			for _, c := range tb.Columns {
				if tb.Name == "files" && c.Name == col {
					var parts []string
					for _, v := range c.TopValues {
						parts = append(parts, fmt.Sprintf("%s=%d", v.Value, v.Count))
					}
					return strings.Join(parts, " ")
				}
			}
		}
		return "(no column)"
	}
	for _, col := range []string{"path", "kind"} {
		if g, w := top(got, col), top(want, col); g != w {
			t.Errorf("files.%s: top values on Spark %s, on SQLite %s", col, g, w)
		}
	}
	if g, w := top(got, "path"), `C:\temp\=20 ab\'=8`; !strings.HasPrefix(g, w) {
		t.Errorf("files.path: top values %s, want %s first", g, w)
	}
}

// sparkBesideSQLite builds schema in a SQLite file, copies it into a new
// database of the Spark server (dropped after the test) and returns the
// reports of a discovery of each.
func sparkBesideSQLite(t *testing.T, schema, prefix string) (sqlite, spark report.Report) {
	t.Helper()
	server := serverDSN(t, "DISCOVER_TEST_SPARK")
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), prefix+".db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(schema); err != nil {
		t.Fatal(err)
	}
	db.Close()
	sqlite = discoverReport(t, path)
	dsn, drop, err := load.CreateDatabase(ctx, "spark", server, fmt.Sprintf("%s_%d", prefix, time.Now().UnixNano()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { drop() })
	if err := load.Copy(ctx, path, "spark", dsn); err != nil {
		t.Fatal(err)
	}
	return sqlite, discoverReport(t, dsn)
}
