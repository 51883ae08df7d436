package relations_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/internal/load"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/spark"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// recording is a source that keeps every statement it is sent.
type recording struct {
	warehouse.Source
	mu   sync.Mutex
	sent []string
}

func (r *recording) Query(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	r.mu.Lock()
	r.sent = append(r.sent, q)
	r.mu.Unlock()
	return r.Source.Query(ctx, q, opts)
}

// fallbackOn runs fallback.go's sample profile over every column of src's
// tables, all unprofiled, and returns the profiles by table.column and the
// statements sent.
func fallbackOn(t *testing.T, src warehouse.Source) (map[string]*catalog.ProfileDoc, []string) {
	t.Helper()
	ctx := context.Background()
	rec := &recording{Source: src}
	tables := expertstest.Tables(t, src)
	byName := map[string]warehouse.Table{}
	var cols []relations.Column
	for _, tb := range tables {
		name := tb.Name.String()
		byName[name] = tb
		for _, c := range tb.Columns {
			cols = append(cols, relations.Column{Table: name, Name: c.Name, Type: c.Type})
		}
	}
	var q atomic.Int64
	env := experts.NewEnv(rec, expertstest.Catalog(t), "r", 1, 1, tables, experts.Options{SampleRows: 1_000_000}, &q)
	if _, err := relations.FallbackProfiles(ctx, env, byName, cols); err != nil {
		t.Fatal(err)
	}
	got := map[string]*catalog.ProfileDoc{}
	for _, c := range cols {
		got[c.Table+"."+c.Name] = c.Profile
	}
	return got, rec.sent
}

// TestSparkFallbackDistinct: the sample profile of a table whose profile
// failed counts each column's distinct values in one statement; on Spark
// it asks the dialect for the exact count (size(collect_set(…))), not
// COUNT(DISTINCT), which Spark plans by expanding every row once per
// column, and its figures are SQLite's for the same rows.
func TestSparkFallbackDistinct(t *testing.T) {
	server := os.Getenv("DISCOVER_TEST_SPARK")
	if server == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DISCOVER_TEST_SPARK not set: .ci/run starts the servers")
		}
		t.Skip(`DISCOVER_TEST_SPARK not set: run eval "$(.ci/start-servers)" first`)
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "fallback.db")
	stmts := []string{
		`CREATE TABLE shipment (id INTEGER PRIMARY KEY, order_id INTEGER, carrier_code TEXT, note TEXT, gone INTEGER)`,
	}
	for i := 1; i <= 500; i++ {
		order, note := fmt.Sprint(1+(i*7)%200), fmt.Sprintf("'n%d'", i%37)
		if i%9 == 0 {
			order = "NULL"
		}
		if i%4 == 0 {
			note = "NULL"
		}
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO shipment VALUES (%d, %s, 'C%d', %s, NULL)`, i, order, i%4, note))
	}
	expertstest.SQLite(t, path, stmts...)
	lite, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	want, liteSent := fallbackOn(t, lite)

	name := fmt.Sprintf("fallback_%d", time.Now().UnixNano())
	dsn, drop, err := load.CreateDatabase(ctx, "spark", server, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { drop() })
	if err := load.Copy(ctx, path, "spark", dsn); err != nil {
		t.Fatal(err)
	}
	src, err := spark.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	got, sent := fallbackOn(t, src)

	if len(liteSent) != 1 || strings.Count(liteSent[0], "COUNT(DISTINCT") != 5 {
		t.Errorf("SQLite was sent %q, want one statement of five COUNT(DISTINCT)", liteSent)
	}
	if len(sent) != 1 {
		t.Fatalf("Spark was sent %q, want one statement", sent)
	}
	if flat := strings.ToUpper(strings.Join(strings.Fields(sent[0]), "")); strings.Contains(flat, "COUNT(DISTINCT") {
		t.Errorf("Spark was sent COUNT(DISTINCT): %s", sent[0])
	}
	if n := strings.Count(sent[0], "size(collect_set("); n != 5 {
		t.Errorf("%d of the dialect's exact counts, want 5: %s", n, sent[0])
	}
	str := func(p *string) string {
		if p == nil {
			return "-"
		}
		return *p
	}
	show := func(p *catalog.ProfileDoc) string {
		if p == nil {
			return "no profile"
		}
		return fmt.Sprintf("rows %d, distinct %d, nulls %.4f, min %s, max %s", p.Rows, *p.DistinctCount, *p.NullFraction, str(p.Min), str(p.Max))
	}
	if len(got) != len(want) {
		t.Fatalf("Spark's columns %v, SQLite's %v", got, want)
	}
	for col, w := range want {
		if g := show(got[col]); g != show(w) {
			t.Errorf("%s: on Spark %s, on SQLite %s", col, g, show(w))
		}
	}
	// The figures themselves, so that agreeing on nothing cannot pass.
	for col, w := range map[string]string{
		"shipment.id":           "rows 500, distinct 500, nulls 0.0000, min 1, max 500",
		"shipment.order_id":     "rows 500, distinct 200, nulls 0.1100, min 1, max 200",
		"shipment.carrier_code": "rows 500, distinct 4, nulls 0.0000, min C0, max C3",
		"shipment.note":         "rows 500, distinct 37, nulls 0.2500, min n0, max n9",
		"shipment.gone":         "no profile",
	} {
		if g := show(want[col]); g != w {
			t.Errorf("%s on SQLite: %s, want %s", col, g, w)
		}
	}
}
