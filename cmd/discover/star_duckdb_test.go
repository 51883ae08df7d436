package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/load"
	"github.com/discover-db/discover/internal/star"
)

// BenchmarkStarDuckDB is issue 20's bar on DuckDB: a whole default
// discovery of the star schema (internal/star, copied into a DuckDB file
// by internal/load and cached beside the SQLite one) against DuckDB's own
// SUMMARIZE of every table, timed in the same run. The bars: at most
// SUMMARIZE's time, a peak resident memory under 1 GiB (DuckDB's own
// included), every table profiled, a complete run. It prints the figures
// and the references found and missed either way.
//
//	DISCOVER_STAR_SCALE=1 go test ./cmd/discover -run '^$' -bench StarDuckDB -benchtime 1x -timeout 2h
func BenchmarkStarDuckDB(b *testing.B) {
	scale := starScale(b)
	dir := starDir()
	start := time.Now()
	lite, err := star.Ensure(context.Background(), dir, scale)
	if err != nil {
		b.Fatal(err)
	}
	path, err := ensureDuckStar(lite)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("database %s ready in %s", path, time.Since(start).Round(time.Second))
	summarizeAll(b, path, scale) // the file into the OS's cache
	b.ResetTimer()
	for range b.N {
		base := summarizeAll(b, path, scale)
		starBars(b, scale, measure(b, "duckdb://"+path, true), "SUMMARIZE of every table", "run/summarize", base)
	}
}

// starScale is DISCOVER_STAR_SCALE, 1 by default.
func starScale(b *testing.B) float64 {
	scale := 1.0
	if s := os.Getenv("DISCOVER_STAR_SCALE"); s != "" {
		if _, err := fmt.Sscan(s, &scale); err != nil || scale <= 0 {
			b.Fatalf("DISCOVER_STAR_SCALE=%q: want a positive number like 1 or 0.1", s)
		}
	}
	return scale
}

// starDir is DISCOVER_BENCH_DIR, $TMPDIR/discover-star by default.
func starDir() string {
	if dir := os.Getenv("DISCOVER_BENCH_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(os.TempDir(), "discover-star")
}

// ensureDuckStar returns the DuckDB copy of the star's SQLite file lite,
// made once beside it (under another name until complete, so that an
// interrupted copy is not taken for one).
func ensureDuckStar(lite string) (string, error) {
	path := strings.TrimSuffix(lite, ".db") + ".duckdb"
	if _, err := os.Stat(path); err == nil {
		return path, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	part := path + ".part"
	os.Remove(part)
	os.Remove(part + ".wal")
	if err := load.Copy(context.Background(), lite, "duckdb", part); err != nil {
		return "", err
	}
	return path, os.Rename(part, path)
}

// summarizeAll runs DuckDB's SUMMARIZE of every table of the file at path,
// read-only: the engine's own profile of all the data, the baseline.
func summarizeAll(b *testing.B, path string, scale float64) time.Duration {
	b.Helper()
	db, err := sql.Open("duckdb", path+"?access_mode=READ_ONLY")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	for _, t := range star.Tables(scale) {
		rows, err := db.Query(`SUMMARIZE "` + t.Name + `"`)
		if err != nil {
			b.Fatalf("SUMMARIZE %s: %v", t.Name, err)
		}
		for rows.Next() {
		}
		if err := rows.Err(); err != nil {
			b.Fatalf("SUMMARIZE %s: %v", t.Name, err)
		}
		rows.Close()
	}
	return time.Since(start)
}
