package trino

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/literaltest"
	"github.com/discover-db/discover/warehouse"
)

// TestClusterTypedLiterals: the advice expert's probe of a column (rows
// from its greatest value on, and rows equal to it, as its index advice
// writes them) EXPLAINs and runs on the cluster for date, timestamp (with
// and without a zone) and time columns, with the greatest value read back
// through the Source as the profile reads it: each finds the one row that
// holds it. A string literal there is a TYPE_MISMATCH.
func TestClusterTypedLiterals(t *testing.T) {
	addr := clusterAddr(t)
	ctx := context.Background()
	schema := fmt.Sprintf("lit_%d", time.Now().UnixNano())
	admin := clusterAdmin(t, "memory", "")
	if err := execAll(ctx, admin, "CREATE SCHEMA memory."+schema,
		"CREATE TABLE memory."+schema+".events AS SELECT * FROM (VALUES "+
			"(DATE '2020-01-01', TIMESTAMP '2020-01-01 10:00:00.125', TIMESTAMP '2020-01-01 10:00:00 UTC', TIME '09:00:00', 'a'), "+
			"(DATE '2021-06-30', TIMESTAMP '2021-06-30 23:59:59.5', TIMESTAMP '2021-06-30 23:59:59.5 Europe/Paris', TIME '23:59:59.5', 'it''s')"+
			") AS t(d, ts, tz, tm, s)"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		execAll(context.Background(), admin, "DROP TABLE IF EXISTS memory."+schema+".events", "DROP SCHEMA IF EXISTS memory."+schema)
	})
	s, err := Open(ctx, "trino://admin@"+addr+"/memory/"+schema)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 {
		t.Fatalf("tables %v", tables)
	}
	d := s.Dialect()
	ex := d.(warehouse.Explainer)
	from := d.QuoteTable(tables[0].Name)
	for _, c := range tables[0].Columns {
		q := d.QuoteIdent(c.Name)
		res, err := s.Query(ctx, "SELECT MAX("+q+") FROM "+from, warehouse.QueryOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		max, _ := res.Rows[0][0].(string)
		lit := d.TypedLiteral(c.Type, max)
		for _, probe := range []string{
			"SELECT * FROM " + from + " WHERE " + q + " >= " + lit,
			"SELECT * FROM " + from + " WHERE " + q + " = " + lit,
		} {
			if _, err := s.Query(ctx, ex.Explain(probe), warehouse.QueryOptions{}); err != nil {
				t.Errorf("%s (%s): EXPLAIN %s: %v", c.Name, c.Type, probe, err)
				continue
			}
			res, err := s.Query(ctx, probe, warehouse.QueryOptions{})
			if err != nil || len(res.Rows) != 1 {
				t.Errorf("%s (%s): %s: %v rows, %v; want the one row holding %q", c.Name, c.Type, probe, res, err, max)
			}
		}
		if strings.HasPrefix(c.Type, "varchar") && lit != `'it''s'` {
			t.Errorf("%s (%s): literal %s, want a string literal", c.Name, c.Type, lit)
		}
	}
}

// TestClusterLiteralRoundTrip: quotes, backslashes (ordinary characters in
// Trino's strings) and NULs, which a varchar may hold and no guard lets
// through raw, come back from the cluster as exactly the value.
func TestClusterLiteralRoundTrip(t *testing.T) {
	s, err := Open(context.Background(), "trino://admin@"+clusterAddr(t)+"/memory")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	literaltest.Each(t, s, []string{
		`'`, `''`, `it's`, `'; SELECT 1 --`, `C:\temp\`, `\'`, "line one\nline two", "bell\a",
		"nul\x00byte", "\x00", "\x00\x00", "'\x00'", "ends\x00", "Zürich — 東京 🙂", "",
	}, true)
}
