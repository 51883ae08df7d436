package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/report"
)

// The HTML report as a reader meets it: opened offline in a real browser
// (Debian's chromium, headless). In CI chromium must be there (.ci/run
// installs it); elsewhere the test skips without it.

func chromiumPath(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is required in CI for the HTML report test (.ci/run installs it)")
	}
	t.Skip("chromium not installed (apt-get install chromium)")
	return ""
}

// chromiumRun loads url in headless chromium with every network name
// unresolvable, so a page that fetched anything would fail to, and returns
// stdout and the browser's log (where console messages and uncaught errors
// go).
func chromiumRun(t testing.TB, bin, url string, args ...string) (stdout, log string, took time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
		"--host-resolver-rules=MAP * ~NOTFOUND",
		"--user-data-dir=" + t.TempDir(),
		"--enable-logging=stderr", "--v=0",
		// Scripts run, then the page settles before the dump or screenshot.
		"--virtual-time-budget=5000",
	}
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), url)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, errb.String())
	}
	return out.String(), errb.String(), time.Since(start)
}

// consoleProblems lists the log lines that report a console message or a
// script error. The page logs nothing when all is well.
func consoleProblems(log string) []string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "CONSOLE") || strings.Contains(line, "Uncaught") ||
			strings.Contains(line, "net::ERR_") {
			out = append(out, line)
		}
	}
	return out
}

var externalRef = regexp.MustCompile(`(?i)(?:\s(?:src|href|xlink:href|action|poster)\s*=\s*["']?\s*(?:[a-z][a-z0-9+.-]*:|//)|@import|<link\b|<iframe\b|<object\b|<embed\b|url\(\s*["']?\s*(?:[a-z]+:|//))`)

func TestHTMLReportInChromium(t *testing.T) {
	bin := chromiumPath(t)
	out := t.TempDir()
	if res := run(t, "--demo", "--out", out, "--format", "html,json", "-q"); res.code != 0 {
		t.Fatalf("demo: exit %d\n%s", res.code, res.stderr)
	}
	_, rep := readReport(t, out)
	path := filepath.Join(out, "report.html")
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("report.html: %d bytes for %d tables", len(page), len(rep.Tables))

	// One self-contained file: nothing it refers to lies outside it. Markers
	// refer to the page itself (url(#…)), which the pattern allows.
	if m := externalRef.FindAll(page, 5); len(m) > 0 {
		t.Errorf("report.html refers to outside resources: %q", m)
	}

	dom, log, took := chromiumRun(t, bin, "file://"+path, "--dump-dom")
	t.Logf("chromium rendered the demo report in %s", took.Round(time.Millisecond))
	if p := consoleProblems(log); len(p) > 0 {
		t.Errorf("console errors or messages:\n%s", strings.Join(p, "\n"))
	}
	// The page's own script ran to its end and its error hook saw nothing.
	if !scriptFinished(dom) {
		t.Errorf("the page's script did not finish cleanly: %s", firstTag(dom))
	}

	// Every table: in the navigation, with its own section and its columns.
	for i, tb := range rep.Tables {
		id := fmt.Sprintf("table-%d", i+1)
		for _, want := range []string{
			fmt.Sprintf(`<a href="#%s">%s</a>`, id, tb.Name),
			fmt.Sprintf(`<h4 id="%s">%s</h4>`, id, tb.Name),
		} {
			if !strings.Contains(dom, want) {
				t.Errorf("rendered page lacks %s", want)
			}
		}
		for _, c := range tb.Columns {
			if !strings.Contains(dom, "<code>"+c.Name+"</code>") {
				t.Errorf("rendered page lacks column %s.%s", tb.Name, c.Name)
			}
		}
	}

	// The diagram: one box per connected table, declared and inferred edges
	// drawn apart, confidence on them.
	er := between(dom, `<svg class="er"`, "</svg>")
	if er == "" {
		t.Fatal("rendered page has no ER diagram")
	}
	declared, inferred := 0, 0
	for _, rel := range rep.Relationships {
		if rel.Source == "declared" {
			declared++
		} else {
			inferred++
		}
	}
	if got := strings.Count(er, `class="edge er-edge er-declared"`); got != declared {
		t.Errorf("diagram draws %d declared edges, the report has %d", got, declared)
	}
	if got := strings.Count(er, `class="edge er-edge er-inferred"`); got != inferred {
		t.Errorf("diagram draws %d inferred edges, the report has %d", got, inferred)
	}
	if !regexp.MustCompile(`<text [^>]*>\d+%</text>`).MatchString(er) {
		t.Error("diagram edges carry no confidence label")
	}
	for _, name := range []string{"orders", "customers", "order_items"} {
		if !strings.Contains(er, `xlink:title="`+name+`"`) || !strings.Contains(er, ">"+name+"</text>") {
			t.Errorf("diagram lacks table %s", name)
		}
	}

	// Findings: histograms, top values, the ledger with verdicts, quality,
	// recommendations with their SQL.
	checks := map[string]string{
		"a histogram":             `<svg class="hist"`,
		"top-value bars":          `<span class="tv-bar"`,
		"a confirmed hypothesis":  `<span class="verdict confirmed">confirmed</span>`,
		"the data-quality title":  `<h2 id="data-quality">`,
		"a recommendation's SQL":  `<pre><code>SELECT`,
		"the search box":          `<input type="search" id="search"`,
		"the first insight":       htmlText(firstNonQuality(rep.Insights)),
		"the hypotheses' heading": `<h2 id="hypotheses">Hypotheses</h2>`,
	}
	for what, want := range checks {
		if want == "" || !strings.Contains(dom, want) {
			t.Errorf("rendered page lacks %s (%q)", what, want)
		}
	}

	// The search box filters the navigation and the sections (?q= fills it).
	dom, log, _ = chromiumRun(t, bin, "file://"+path+"?q=order_it", "--dump-dom")
	if p := consoleProblems(log); len(p) > 0 {
		t.Errorf("console errors with a search:\n%s", strings.Join(p, "\n"))
	}
	if !strings.Contains(dom, fmt.Sprintf(">1 of %d tables<", len(rep.Tables))) {
		t.Errorf("searching order_it: count not shown as 1 of %d", len(rep.Tables))
	}
	if !regexp.MustCompile(`<li data-search="addresses[^"]*" hidden="">`).MatchString(dom) ||
		regexp.MustCompile(`<li data-search="order_items[^"]*" hidden="">`).MatchString(dom) {
		t.Error("searching order_it did not hide addresses and keep order_items in the navigation")
	}

	// A screenshot has content: text, boxes and colour, not a blank page.
	shot := filepath.Join(t.TempDir(), "shot.png")
	_, log, _ = chromiumRun(t, bin, "file://"+path, "--hide-scrollbars", "--window-size=1280,1600", "--screenshot="+shot)
	if p := consoleProblems(log); len(p) > 0 {
		t.Errorf("console errors while taking the screenshot:\n%s", strings.Join(p, "\n"))
	}
	inked, colours := screenshotContent(t, shot)
	t.Logf("screenshot: %.1f%% of pixels not white, %d distinct colours", 100*inked, colours)
	if inked < 0.04 || colours < 64 {
		t.Errorf("screenshot looks blank: %.1f%% of pixels not white, %d colours", 100*inked, colours)
	}
}

// TestHTMLThousandTablesInChromium renders a report of 1,000 tables and
// 1,200 references: it must stay one page a browser opens quickly, with
// collapsed sections and a diagram per neighbourhood instead of one
// unreadable picture.
func TestHTMLThousandTablesInChromium(t *testing.T) {
	bin := chromiumPath(t)
	r := syntheticReport(1000, 1200)
	path := filepath.Join(t.TempDir(), "report.html")
	var buf bytes.Buffer
	start := time.Now()
	if err := report.WriteHTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	rendered := time.Since(start)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, log, took := chromiumRun(t, bin, "file://"+path, "--dump-dom")
	t.Logf("1,000 tables: %d bytes, written in %s, opened by chromium in %s", buf.Len(), rendered.Round(time.Millisecond), took.Round(time.Millisecond))
	if p := consoleProblems(log); len(p) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(p, "\n"))
	}
	if !scriptFinished(dom) {
		t.Errorf("the page's script did not finish cleanly: %s", firstTag(dom))
	}
	if strings.Contains(dom, `<details class="tbl-d" open`) {
		t.Error("1,000 table sections start expanded")
	}
	if n := strings.Count(dom, `<h4 id="table-`); n != 1000 {
		t.Errorf("%d table sections, want 1000", n)
	}
}

var htmlTag = regexp.MustCompile(`<html[^>]*>`)

// scriptFinished says whether the page's script ran to its last line (it
// then marks the root element) and its error hook counted no error.
func scriptFinished(dom string) bool {
	tag := htmlTag.FindString(dom)
	return strings.Contains(tag, `data-js-ready="1"`) && !strings.Contains(tag, "data-js-errors=")
}

func firstTag(dom string) string {
	if tag := htmlTag.FindString(dom); tag != "" {
		return tag
	}
	return dom[:min(len(dom), 200)]
}

func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], end)
	if j < 0 {
		return ""
	}
	return s[i : i+j+len(end)]
}

func firstNonQuality(is []report.Insight) string {
	for _, in := range is {
		if in.Kind != "quality" {
			return in.Description
		}
	}
	return ""
}

// htmlText is s as the browser serializes text content: &, < and > escaped,
// quotes left alone; a long text is cut to a prefix free of entities.
func htmlText(s string) string {
	s = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;").Replace(s)
	if len(s) > 60 {
		s = s[:60]
		if i := strings.LastIndexByte(s, '&'); i >= 0 {
			s = s[:i]
		}
	}
	return s
}

// screenshotContent returns the share of pixels that are not (near) white
// and the number of distinct colours.
func screenshotContent(t *testing.T, path string) (inked float64, colours int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	b := img.Bounds()
	seen := map[[3]uint32]bool{}
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			if r>>8 < 240 || g>>8 < 240 || bl>>8 < 240 {
				n++
			}
		}
	}
	return float64(n) / float64(b.Dx()*b.Dy()), len(seen)
}

// syntheticReport is a report of n tables of eight columns, with refs
// references spread over them (hubs included: every tenth table is
// referenced by many), numeric histograms and top values, as a large
// warehouse would give.
func syntheticReport(n, refs int) *report.Report {
	f := func(v float64) *float64 { return &v }
	s := func(v string) *string { return &v }
	r := &report.Report{SchemaVersion: 1, Summary: fmt.Sprintf("A synthetic database of %d tables.", n),
		Database: report.Database{Dialect: "sqlite", Name: "big"},
		Run:      report.Run{ID: "run-big", StartedAt: "2025-03-01T09:00:00Z", LLM: report.LLM{Provider: "none"}}}
	for i := range n {
		rows := int64(1000 + i*37)
		t := report.Table{Name: fmt.Sprintf("t%04d", i), Kind: "table", RowCount: &rows,
			PrimaryKey: []string{"id"}, PrimaryKeySource: s("declared")}
		for c := range 8 {
			d := int64(10 + c*100)
			col := report.Column{Name: fmt.Sprintf("c%d", c), DataType: "INTEGER", NullFraction: f(0.01 * float64(c)),
				DistinctCount: &d, Min: s("0"), Max: s("999"), Mean: f(500)}
			if c == 0 {
				col.Name = "id"
			}
			if c%2 == 1 {
				col.Histogram = &report.Histogram{Bounds: []float64{0, 10, 20, 40, 80, 160, 320, 640, 700, 800, 999},
					Counts: []int64{100, 100, 100, 100, 100, 100, 100, 100, 100, 100}}
			} else {
				col.TopValues = []report.ValueCount{{Value: "a", Count: 500, Fraction: 0.5}, {Value: "b", Count: 300, Fraction: 0.3}}
			}
			t.Columns = append(t.Columns, col)
		}
		r.Tables = append(r.Tables, t)
	}
	for k := range refs {
		from := (k*7 + 3) % n
		to := (k * 13) % n
		if k%3 == 0 {
			to = (k % (n / 10)) * 10 // hubs
		}
		src := "declared"
		if k%2 == 1 {
			src = "inferred"
		}
		r.Relationships = append(r.Relationships, report.Relationship{
			FromTable: r.Tables[from].Name, FromColumns: []string{fmt.Sprintf("ref%d", k)},
			ToTable: r.Tables[to].Name, ToColumns: []string{"id"}, Source: src, Confidence: 0.9})
	}
	return r
}
