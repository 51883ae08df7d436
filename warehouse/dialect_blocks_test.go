package warehouse_test

import (
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// SampleBlocks samples whole blocks where the engine can (issue 9), and
// declines elsewhere and for a table within the sample.
func TestSampleBlocks(t *testing.T) {
	tn := warehouse.TableName{Schema: "s1", Name: "big"}
	for _, c := range []struct {
		engine string
		want   string
	}{
		{"postgres", `"s1"."big" s TABLESAMPLE SYSTEM (0.25) REPEATABLE (42)`},
		{"trino", `"s1"."big" s TABLESAMPLE SYSTEM (0.25)`},
		{"duckdb", `(SELECT * FROM "s1"."big" USING SAMPLE 0.25 PERCENT (system, 42)) s`},
		{"sqlite", ""},
		{"mysql", ""},
	} {
		d, err := warehouse.DialectFor(c.engine)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := d.SampleBlocks(tn, 10_000, 4_000_000)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %q %v, want %q", c.engine, got, ok, c.want)
		}
		if _, ok := d.SampleBlocks(tn, 10_000, 10_000); ok {
			t.Errorf("%s: a table within the sample is sampled", c.engine)
		}
	}
}
