package statistical_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/scancheck"
	"github.com/discover-db/discover/warehouse"
)

// passRows and passSample: tables of 30,000 rows keyed by an integer,
// profiled on samples of 10,000 drawn by a hash of the key, each pass a
// scan of the table with a filter (the star's fact tables at scale 1: 1.4M
// to 8.6M rows, one million sampled).
const (
	passRows   = 30_000
	passSample = 10_000
)

// passTable builds one table in a file of its own: wide (an id, 4 measures
// of 50 values and 19 codes of at most 20: every column counted exactly, in
// little memory) or spread (an id, 4 measures and 8 columns of 3,000 values
// each, whose exact counts take most of a small pass's memory).
func passTable(t *testing.T, table string) string {
	path := filepath.Join(t.TempDir(), table+".db")
	gen := fmt.Sprintf(`WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < %d)`, passRows)
	cols, vals := []string{"id INTEGER PRIMARY KEY"}, []string{"i"}
	for m := 1; m <= 4; m++ {
		cols = append(cols, fmt.Sprintf("amount%d REAL", m))
		vals = append(vals, fmt.Sprintf("(i * %d %% 50) * 1.5", 7+m))
	}
	switch table {
	case "wide":
		for c := 1; c <= 19; c++ {
			cols = append(cols, fmt.Sprintf("code%d TEXT", c))
			vals = append(vals, fmt.Sprintf("'c' || (i * %d %% %d)", 3+c, 2+c))
		}
	case "spread":
		for c := 1; c <= 8; c++ {
			cols = append(cols, fmt.Sprintf("ref%d INTEGER", c))
			vals = append(vals, fmt.Sprintf("i * %d %% 3000", 11+2*c))
		}
	}
	build(t, path,
		"CREATE TABLE "+table+" ("+strings.Join(cols, ", ")+")",
		"INSERT INTO "+table+" "+gen+" SELECT "+strings.Join(vals, ", ")+" FROM r")
	return path
}

// profilePasses profiles table on a fresh catalog, its streamed passes
// holding at most cells 8-byte cells, and returns its columns' profiles
// and evidence, and the passes over its sample it streamed.
func profilePasses(t *testing.T, path, table string, cells int64) (map[string]string, []string) {
	t.Helper()
	defer statistical.SetMaxStreamCells(cells)()
	rec := &scancheck.Recorder{}
	h := setup(t, path, experts.Options{SampleRows: passSample}, func(s warehouse.Source) warehouse.Source {
		rec.Source = s
		return scancheck.Streaming{Recorder: rec}
	})
	inventory(t, h)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	entries, err := h.cat.Kind(context.Background(), catalog.KindProfile, "")
	if err != nil {
		t.Fatal(err)
	}
	profiles := map[string]string{}
	for _, e := range entries {
		profiles[e.Key] = string(e.Document) + " " + strings.Join(e.Evidence, "; ")
	}
	var passes []string
	for _, s := range rec.On(`"` + table + `"`) {
		if strings.Contains(s.SQL, "FROM (SELECT k.* FROM") {
			passes = append(passes, s.SQL)
		}
	}
	return profiles, passes
}

// TestStreamOnePassPerSample: a sampled table whose columns' counts fit one
// pass's memory is read once, however many columns it has. Each pass over a
// sample drawn by a filter scans the whole table: at star scale 1 the fact
// tables of 21 and 31 columns were scanned two and three times, 15 columns
// a pass, the width that bounded the pass's memory by its worst case (every
// column keeping a hash a row); wide here is such a table (24 columns, 16
// of whose worst case fit the bound), whose columns keep a few values each.
func TestStreamOnePassPerSample(t *testing.T) {
	path := passTable(t, "wide")
	// 16 columns' hash logs of the rows a sample of 10,000 expects
	// (11,100: 10% and 100 more for chance).
	cells := int64(16 * (passSample + passSample/10 + 100))
	profiles, passes := profilePasses(t, path, "wide", cells)
	if len(profiles) != 24 {
		t.Fatalf("%d profiles, want the 24 columns of wide", len(profiles))
	}
	if len(passes) != 1 {
		t.Errorf("wide's sample was streamed %d times, want once:\n%s", len(passes), strings.Join(passes, "\n"))
	}
}

// TestStreamPassMemory: a pass keeps no more than its memory allows, and a
// column that would take more is read by the next pass, with the figures of
// one pass. spread's 8 columns of 3,000 values each take some 24,000 cells
// counted exactly, its id 80,000: 100,000 cells do not hold them all, so
// some are given up as the pass fills and read by a later one, over the
// same sample (drawn by the key's hash), and every profile is the one read
// in one pass.
func TestStreamPassMemory(t *testing.T) {
	path := passTable(t, "spread")
	one, onePasses := profilePasses(t, path, "spread", 16<<20)
	if len(onePasses) != 1 {
		t.Fatalf("spread's sample was streamed %d times with the default memory, want once", len(onePasses))
	}
	split, passes := profilePasses(t, path, "spread", 100_000)
	if len(passes) < 2 {
		t.Errorf("spread's sample was streamed %d times in 100,000 cells, want more (its columns do not fit one pass):\n%s",
			len(passes), strings.Join(passes, "\n"))
	}
	if len(split) != len(one) || len(one) != 13 {
		t.Fatalf("%d profiles split, %d in one pass: want the 13 columns of spread", len(split), len(one))
	}
	for k, want := range one {
		if got := split[k]; got != want {
			t.Errorf("%s over %d passes:\n%s\nwant, as in one:\n%s", k, len(passes), got, want)
		}
	}
}
