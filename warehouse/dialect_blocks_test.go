package warehouse_test

import (
	"testing"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/connect"
)

// SampleBlocks samples whole blocks where the engine can (issue 9), and
// declines elsewhere and for a table within the sample; Trino, whose
// SYSTEM keeps or drops whole splits, never; DuckDB, whose
// block samples are not repeatable, not for a database file's tables
// (their rows are drawn by a seeded hash of row ids, SampleTable), and
// for a folder's data files only from 10M rows (warehouse/duckdb).
func TestSampleBlocks(t *testing.T) {
	tn := warehouse.TableName{Schema: "s1", Name: "big"}
	for _, c := range []struct {
		engine    string
		want, big string // at 4M rows, at 40M
	}{
		{"postgres", `"s1"."big" s TABLESAMPLE SYSTEM (0.25) REPEATABLE (42)`, `"s1"."big" s TABLESAMPLE SYSTEM (0.025) REPEATABLE (42)`},
		{"trino", "", ""}, // SYSTEM keeps whole splits: nothing of a table with few (warehouse/trino)
		{"duckdb", "", ""},
		{"sqlite", "", ""},
		{"mysql", "", ""},
	} {
		d, err := connect.DialectFor(c.engine)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := d.SampleBlocks(tn, 10_000, 4_000_000)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %q %v, want %q", c.engine, got, ok, c.want)
		}
		big, ok := d.SampleBlocks(tn, 10_000, 40_000_000)
		if want := c.big; big != want || ok != (want != "") {
			t.Errorf("%s at 40M rows: %q %v, want %q", c.engine, big, ok, want)
		}
		if _, ok := d.SampleBlocks(tn, 10_000, 10_000); ok {
			t.Errorf("%s: a table within the sample is sampled", c.engine)
		}
	}
}
