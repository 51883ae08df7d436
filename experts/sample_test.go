package experts_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// Scope reads a table whole up to WholeScanFactor samples, and beyond it
// through a bounded sample that says what it is: rows drawn by rowid from
// a SQLite table, the first rows of a view. The sample holds the rows
// asked for, and its FROM item takes an alias.
func TestScope(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "scope.db")
	expertstest.SQLite(t, path,
		`CREATE TABLE big (id INTEGER PRIMARY KEY, v INTEGER)`,
		`INSERT INTO big WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 5000) SELECT i, i % 7 FROM r`,
		`CREATE VIEW bigv AS SELECT id, v FROM big`)
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat := expertstest.Catalog(t)
	tables := expertstest.Tables(t, src)
	byName := map[string]warehouse.Table{}
	for _, tb := range tables {
		byName[tb.Name.Name] = tb
	}
	count := func(env *experts.Env, s experts.Scope) int64 {
		res, err := env.Query(ctx, "SELECT COUNT(*) AS n, COUNT(DISTINCT c.id) AS d FROM "+s.From("c"))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := res.Rows[0][0].(int64)
		if d, _ := res.Rows[0][1].(int64); d != n {
			t.Errorf("%d rows, %d distinct ids: a row read twice", n, d)
		}
		return n
	}
	for _, c := range []struct {
		sample  int64
		table   string
		sampled bool
		how     string
		rows    int64
	}{
		{1000, "big", false, "", 5000}, // within 10 samples: whole
		{100, "big", true, "drawn by rowid", 100},
		{100, "bigv", true, "first rows", 100},
	} {
		var q atomic.Int64
		env := experts.NewEnv(src, cat, "r1", 1, 1, tables, experts.Options{SampleRows: c.sample}, &q)
		s, err := env.Scope(ctx, byName[c.table])
		if err != nil {
			t.Fatal(err)
		}
		n := count(env, s)
		t.Logf("%s at %d: %d of %d rows, sampled %v: %q", c.table, c.sample, n, s.Rows, s.Sampled, s.Evidence())
		if s.Sampled != c.sampled || n != c.rows || !strings.Contains(s.How, c.how) {
			t.Errorf("%s at sample %d: sampled %v (%s), %d rows read; want %v (%s), %d", c.table, c.sample, s.Sampled, s.How, n, c.sampled, c.how, c.rows)
		}
		if ev := s.Evidence(); c.sampled != (ev != "") || c.sampled && !strings.Contains(ev, "on a sample of 100 rows of "+c.table) {
			t.Errorf("evidence %q", ev)
		}
		if c.sampled && s.Confidence(0.95) >= 0.95 || !c.sampled && s.Confidence(0.95) != 0.95 {
			t.Errorf("confidence %.2f from 0.95, sampled %v", s.Confidence(0.95), c.sampled)
		}
	}
}
