package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/report"
)

// The speed bars of the command, one benchmark each: the tests of the same
// runs assert what they find and only log how long they took, since a
// wall-clock bar measures the machine as much as the code. CI runs these
// once each (-bench '^BenchmarkBar' -benchtime 1x), with the machine to
// itself. Under the race detector, which slows the pure-Go SQLite driver
// many times over, no bar holds.

// barRun times `discover args...` and fails the benchmark when it does not
// exit 0 or takes longer than limit.
func barRun(b *testing.B, what string, limit time.Duration, args ...string) {
	b.Helper()
	start := time.Now()
	res := run(b, args...)
	took := time.Since(start)
	if res.code != 0 {
		b.Fatalf("%s: exit %d\nstderr:\n%s", what, res.code, res.stderr)
	}
	b.ReportMetric(took.Seconds(), "run-s")
	b.Logf("%s took %s", what, took.Round(time.Millisecond))
	if took > limit {
		b.Errorf("%s took %s, want under %s", what, took.Round(time.Millisecond), limit)
	}
}

func skipBarUnderRace(b *testing.B) {
	if heavy.Race {
		b.Skip("no speed bar under the race detector")
	}
}

// BenchmarkBarDemo: the README's first command, generating the demo
// database included, in under 30 s.
func BenchmarkBarDemo(b *testing.B) {
	skipBarUnderRace(b)
	for range b.N {
		barRun(b, "the demo run", 30*time.Second, "--demo", "--out", b.TempDir(), "--progress", "plain")
	}
}

// barBuilt times a discovery of a database build generates, built anew
// (and untimed) for each iteration, against limit.
func barBuilt(b *testing.B, file string, limit time.Duration, build func(tb testing.TB, path string)) {
	skipBarUnderRace(b)
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		db := filepath.Join(dir, file)
		build(b, db)
		b.StartTimer()
		barRun(b, "discover --db "+file, limit, "--db", db, "--out", filepath.Join(dir, "discovery"))
	}
}

// BenchmarkBarBriefing: the telco database of TestBriefingTelco discovered
// in under 15 s.
func BenchmarkBarBriefing(b *testing.B) {
	barBuilt(b, "netco.sqlite", 15*time.Second, func(tb testing.TB, p string) { buildTelco(tb, p) })
}

// BenchmarkBarPlanted: the clinic warehouse of TestPlantedClinicWarehouse
// (293k rows) discovered in under 60 s.
func BenchmarkBarPlanted(b *testing.B) {
	barBuilt(b, "clinic_dw.sqlite", 60*time.Second, func(tb testing.TB, p string) { buildPlantedClinic(tb, p) })
}

// BenchmarkBarRelations: the airline warehouse of
// TestRelationsAirlineWarehouse discovered in under 60 s.
func BenchmarkBarRelations(b *testing.B) {
	barBuilt(b, "airline_dw.sqlite", 60*time.Second, func(tb testing.TB, p string) { buildAirline(tb, p) })
}

// BenchmarkBarHTMLThousandTables: headless Chromium opens the report of
// 1,000 tables and 1,200 references of TestHTMLThousandTablesInChromium,
// its script run to the end, in under 60 s.
func BenchmarkBarHTMLThousandTables(b *testing.B) {
	bin := chromiumPath(b)
	var buf bytes.Buffer
	if err := report.WriteHTML(&buf, syntheticReport(1000, 1200)); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "report.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	for range b.N {
		dom, _, took := chromiumRun(b, bin, "file://"+path, "--dump-dom")
		if !scriptFinished(dom) {
			b.Fatalf("the page's script did not finish cleanly: %s", firstTag(dom))
		}
		b.ReportMetric(took.Seconds(), "open-s")
		b.Logf("chromium opened the page of %d bytes in %s", buf.Len(), took.Round(time.Millisecond))
		if took > 60*time.Second {
			b.Errorf("chromium took %s to open the page, want under 60s", took.Round(time.Millisecond))
		}
	}
}
