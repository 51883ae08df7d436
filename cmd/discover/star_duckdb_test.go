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

// BenchmarkStarParquetChange is issue 20's re-run with one table changed:
// the star as a folder of Parquet files (one a table, each with its own
// change signal), a default discovery into a fresh catalog, then a re-run
// after one table's file was written anew, for a small dimension
// (refund_cause) and then a large one that every sale references
// (shopper). Each re-run sends again only the statements that name the
// table (querycache); the others are answered by the first run's results.
// It prints each re-run's time against the first run's and its statements
// sent and answered; the bar is that a re-run takes less than the first.
//
//	DISCOVER_STAR_SCALE=1 go test ./cmd/discover -run '^$' -bench StarParquetChange -benchtime 1x -timeout 2h
func BenchmarkStarParquetChange(b *testing.B) {
	scale := starScale(b)
	lite, err := star.Ensure(context.Background(), starDir(), scale)
	if err != nil {
		b.Fatal(err)
	}
	duck, err := ensureDuckStar(lite)
	if err != nil {
		b.Fatal(err)
	}
	folder, err := ensureParquetStar(duck)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		// Links, so that rewriting a file of the copy leaves the cached one.
		work := filepath.Join(b.TempDir(), "star")
		if err := os.Mkdir(work, 0o755); err != nil {
			b.Fatal(err)
		}
		files, err := filepath.Glob(filepath.Join(folder, "*.parquet"))
		if err != nil || len(files) == 0 {
			b.Fatalf("%s: %v files, %v", folder, len(files), err)
		}
		for _, f := range files {
			if err := os.Link(f, filepath.Join(work, filepath.Base(f))); err != nil {
				b.Fatal(err)
			}
		}
		out := b.TempDir()
		first := measureIn(b, "duckdb://"+work, out, true)
		b.Logf("scale %g: first run %v, %d queries, peak %.0f MiB", scale, first.wall.Round(100*time.Millisecond), first.queries, float64(first.peakRSS)/(1<<20))
		for _, table := range []string{"refund_cause", "shopper"} {
			rewrite(b, filepath.Join(work, table+".parquet"))
			again := measureIn(b, "duckdb://"+work, out, true)
			ratio := again.wall.Seconds() / first.wall.Seconds()
			b.ReportMetric(ratio, table+"-rerun/first")
			b.Logf("%s written anew: re-run %v (%.3f× the first), %d statements sent, %d answered by kept results, peak %.0f MiB",
				table, again.wall.Round(100*time.Millisecond), ratio, again.queries, again.report.Run.CachedQueries, float64(again.peakRSS)/(1<<20))
			// The same rows in a new file: the same findings.
			if findingsOf(b, again.report) != findingsOf(b, first.report) {
				b.Errorf("%s written anew with the same rows: the re-run's findings differ from the first run's", table)
			}
			if again.report.Run.CachedQueries == 0 || ratio >= 1 {
				b.Errorf("%s changed: the re-run answered %d statements from kept results and took %.2f× the first run", table, again.report.Run.CachedQueries, ratio)
			}
		}
	}
}

// ensureParquetStar writes every table of the star's DuckDB file as a
// Parquet file in a folder beside it, once.
func ensureParquetStar(duck string) (string, error) {
	dir := strings.TrimSuffix(duck, ".duckdb") + ".parquet"
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	part := dir + ".part"
	os.RemoveAll(part)
	if err := os.Mkdir(part, 0o755); err != nil {
		return "", err
	}
	db, err := sql.Open("duckdb", duck+"?access_mode=READ_ONLY")
	if err != nil {
		return "", err
	}
	defer db.Close()
	for _, t := range star.Tables(1) {
		if _, err := db.Exec(`COPY "` + t.Name + `" TO '` + filepath.Join(part, t.Name+".parquet") + `' (FORMAT parquet)`); err != nil {
			return "", fmt.Errorf("copy %s: %w", t.Name, err)
		}
	}
	return dir, os.Rename(part, dir)
}

// rewrite writes a Parquet file anew with the same rows: a new file to
// every change signal (time, size may stay), as a nightly export makes.
func rewrite(b *testing.B, file string) {
	b.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`COPY (SELECT * FROM '` + file + `') TO '` + file + `.new' (FORMAT parquet)`); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(file+".new", file); err != nil {
		b.Fatal(err)
	}
}
