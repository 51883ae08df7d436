package main

import (
	"bytes"
	"fmt"
	"github.com/discover-db/discover/report"
	"html"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/discover-db/discover/report/erd"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// markdownHostileTables are table names that are Markdown, a control
// character, names the file-name sanitizer maps alike, and a legal
// 5,000-character name; each with how a reader must see it.
var markdownHostileTables = map[string]string{
	"|pipe|table":                 "|pipe|table",
	"*star*":                      "*star*",
	"[x](http://evil)":            "[x](http://evil)",
	"# head":                      "# head",
	"bell\x07ctl":                 `bell\x07ctl`,
	"a b":                         "a b",
	"a/b":                         "a/b",
	"a_b":                         "a_b",
	strings.Repeat("long_", 1000): strings.Repeat("long_", 1000),
}

// markdownHostileValues are the values of every TEXT column: a table
// break, HTML, emphasis, a NUL, an ANSI escape and an e-mail address; each
// with how a reader must see it.
var markdownHostileValues = map[string]string{
	"a|b":                "a|b",
	"<script>x</script>": "<script>x</script>",
	"**bold**":           "**bold**",
	"x\x00y":             `x\x00y`,
	"\x1b[31mred":        `\x1b[31mred`,
	"user@evil.example":  "user@evil.example",
}

func buildMarkdownHostile(t *testing.T, path string) {
	t.Helper()
	q := func(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
	stmts := []string{
		fmt.Sprintf("CREATE TABLE %s (id INTEGER PRIMARY KEY, %s TEXT, %s TEXT)", q("# head"), q("col`tick"), q("```fence")),
		fmt.Sprintf("CREATE TABLE %s (id INTEGER PRIMARY KEY, head_id INTEGER REFERENCES %s(id), v TEXT)", q("[x](http://evil)"), q("# head")),
	}
	var plain []string
	for name := range markdownHostileTables {
		if name != "# head" && name != "[x](http://evil)" {
			plain = append(plain, name)
			stmts = append(stmts, fmt.Sprintf("CREATE TABLE %s (id INTEGER PRIMARY KEY, v TEXT)", q(name)))
		}
	}
	slices.Sort(plain)
	values := slices.Sorted(maps.Keys(markdownHostileValues))
	for i := range 60 {
		v := lit(values[i%len(values)])
		stmts = append(stmts,
			fmt.Sprintf("INSERT INTO %s VALUES (%d, %s, '`' || %s)", q("# head"), i, v, v),
			fmt.Sprintf("INSERT INTO %s VALUES (%d, %d, %s)", q("[x](http://evil)"), i, i%10, v))
		for _, name := range plain {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO %s VALUES (%d, %s)", q(name), i, v))
		}
	}
	buildFile(t, "sqlite", path, stmts)
}

// TestMarkdownStableAndSafe (issue 17): a database whose names and values
// are Markdown gives report.md and tables/ in which none of it is live,
// control characters show escaped, the 5,000-character name gets a short
// file of its own, and a second run writes the same bytes.
func TestMarkdownStableAndSafe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "markdown.db")
	buildMarkdownHostile(t, db)
	var outs [2]string
	for i := range outs {
		outs[i] = t.TempDir()
		// --show-pii: the values as they are, e-mail address included
		// (masked by default wherever it stands), are what must be inert.
		res := run(t, "--db", db, "--out", outs[i], "--format", "md,json", "-q", "--show-pii")
		if res.code != 0 && res.code != 4 {
			t.Fatalf("run %d: exit %d\n%s", i+1, res.code, res.stderr)
		}
		raw, r := readReport(t, outs[i])
		// The database reads whole: the run must say it is complete (and
		// so exit 0), whether or not this build records an outcome.
		if o, ok := raw["outcome"].(map[string]any); ok && o["status"] != "complete" {
			t.Fatalf("run %d: outcome %v on a database that reads whole", i+1, o)
		}
		if res.code != 0 {
			t.Fatalf("run %d: exit %d on a database that reads whole\n%s", i+1, res.code, res.stderr)
		}
		if len(r.Tables) != len(markdownHostileTables) {
			t.Fatalf("run %d: %d tables in the report, want %d", i+1, len(r.Tables), len(markdownHostileTables))
		}
	}

	files := markdownFiles(t, outs[0])
	pages := slices.DeleteFunc(slices.Clone(files), func(f string) bool { return !strings.HasSuffix(f, ".md") })
	assertTablePages(t, outs[0], pages)
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(outs[0], name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".svg") {
			assertInertSVG(t, name, src, files)
			continue
		}
		assertInertMarkdown(t, name, src, files)
	}
	md, _ := os.ReadFile(filepath.Join(outs[0], "report.md"))
	read := renderedText(t, md)
	for name, shown := range markdownHostileTables {
		if !strings.Contains(read, shown) {
			t.Errorf("report.md does not show the table %.40q as %.40q", name, shown)
		}
	}
	page := pageOf(t, outs[0], files, "# head")
	for v, shown := range markdownHostileValues {
		if !strings.Contains(page, shown) {
			t.Errorf("the page of \"# head\" does not show the value %q as %q", v, shown)
		}
	}
	for _, col := range []string{"col`tick", "```fence"} {
		if !strings.Contains(page, col) {
			t.Errorf("the page of \"# head\" does not show the column %q", col)
		}
	}

	// The second run into another folder: the same files, byte for byte.
	if again := markdownFiles(t, outs[1]); !slices.Equal(files, again) {
		t.Fatalf("the second run wrote other Markdown files:\n%v\n%v", files, again)
	}
	for _, name := range files {
		a, errA := os.ReadFile(filepath.Join(outs[0], name))
		b, errB := os.ReadFile(filepath.Join(outs[1], name))
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs on unchanged data", name)
		}
	}
}

// assertInertSVG: a diagram of tables/ is well-formed XML holding only
// Graphviz's elements (no script, no foreign object a name could make),
// its name a page's or schema.svg, its links to pages of tables/.
func assertInertSVG(t *testing.T, name string, src []byte, files []string) {
	t.Helper()
	if _, err := erd.Check(src); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	for _, bad := range []string{"<script", "<foreignObject", "<image"} {
		if bytes.Contains(src, []byte(bad)) {
			t.Errorf("%s holds %s", name, bad)
		}
	}
	if base := strings.TrimPrefix(name, "tables/"); base != "schema.svg" && !slices.Contains(files, strings.TrimSuffix(name, ".svg")+".md") {
		t.Errorf("%s is no page's diagram", name)
	}
	for _, m := range regexp.MustCompile(`xlink:href="([^"]*)"`).FindAllSubmatch(src, -1) {
		if !slices.Contains(files, "tables/"+string(m[1])) {
			t.Errorf("%s links to %q", name, m[1])
		}
	}
}

// markdownFiles are report.md and the files of tables/, relative to out.
func markdownFiles(t *testing.T, out string) []string {
	t.Helper()
	files := []string{"report.md", report.LedgerFile}
	entries, err := os.ReadDir(filepath.Join(out, "tables"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		files = append(files, "tables/"+e.Name())
	}
	return files
}

// assertTablePages: one short page per table, linked from the index, the
// long name's page named by its first 80 characters and a hash.
func assertTablePages(t *testing.T, out string, files []string) {
	t.Helper()
	pages := map[string]bool{}
	folded := map[string]bool{}
	for _, f := range files {
		base := strings.TrimPrefix(f, "tables/")
		if base == f || base == "README.md" {
			continue
		}
		pages[base] = true
		if len(base) > 100 || folded[strings.ToLower(base)] {
			t.Errorf("page file %q is too long or not unique without case", base)
		}
		folded[strings.ToLower(base)] = true
	}
	if len(pages) != len(markdownHostileTables) {
		t.Errorf("%d pages for %d tables: %v", len(pages), len(markdownHostileTables), files)
	}
	long := regexp.MustCompile(`^(long_){16}-[0-9a-f]{8}\.md$`)
	if !slices.ContainsFunc(slices.Collect(maps.Keys(pages)), long.MatchString) {
		t.Errorf("no page named by the long name's first 80 characters and a hash: %v", files)
	}
	index, err := os.ReadFile(filepath.Join(out, "tables", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, dest := range linkDestinations(index) {
		linked[dest] = true
	}
	for p := range pages {
		if !linked[p] {
			t.Errorf("the index does not link to %s", p)
		}
	}
}

// pageOf is the text a reader sees on the page whose title is the table's.
func pageOf(t *testing.T, out string, files []string, table string) string {
	t.Helper()
	for _, f := range files {
		if !strings.HasPrefix(f, "tables/") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if hs := headings(t, src); len(hs) > 0 && hs[0] == table {
			return renderedText(t, src)
		}
	}
	t.Fatalf("no page of tables/ is titled %q", table)
	return ""
}

var gfmParser = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))

// assertInertMarkdown: valid UTF-8 with no raw control, bidirectional or
// invisible characters; no raw HTML but the generated-file marker; no
// image or autolink; every link to a heading of the same file or to a file
// of tables/; and every heading one discover writes or a table's name.
func assertInertMarkdown(t *testing.T, name string, src []byte, files []string) {
	t.Helper()
	if !utf8.Valid(src) {
		t.Errorf("%s is not valid UTF-8", name)
	}
	for _, r := range string(src) {
		if (unicode.IsControl(r) && r != '\n') || unicode.Is(unicode.Bidi_Control, r) || r == 0x2028 || r == 0x2029 {
			t.Errorf("%s holds the raw character %U", name, r)
			break
		}
	}
	local := map[string]bool{}
	for _, f := range files {
		local[strings.TrimPrefix(f, "tables/")] = strings.HasPrefix(f, "tables/")
	}
	doc := gfmParser.Parser().Parse(text.NewReader(src))
	blocks := 0
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			if blocks++; blocks > 1 || !strings.HasPrefix(string(src), "<!-- Generated by discover") {
				t.Errorf("%s: an HTML block that is not the generated-file marker", name)
			}
		case *ast.Image:
			// The diagram written beside the page, nothing else.
			if dest := string(n.Destination); !strings.HasPrefix(name, "tables/") || !local[dest] || !strings.HasSuffix(dest, ".svg") {
				t.Errorf("%s: an image of %q", name, dest)
			}
		case *ast.RawHTML, *ast.AutoLink:
			t.Errorf("%s: raw HTML or an autolink: %s", name, n.Kind())
		case *ast.Link:
			dest := string(n.Destination)
			isPage := strings.HasPrefix(name, "tables/") && local[dest]
			anchor := name == "report.md" && strings.HasPrefix(dest, "#") && !strings.ContainsAny(dest, ":/ ")
			ledger := name == "report.md" && dest == report.LedgerFile
			if !isPage && !anchor && !ledger {
				t.Errorf("%s links to %q", name, dest)
			}
		}
		return ast.WalkContinue, nil
	})
	known := []string{"Summary", "Run", "Contents", "Structure", "Tables", "Relationships", "Business domain",
		"Insights and patterns", "Insights", "Patterns", "Data quality", "Privacy", "Recommendations", "Uncertainties", "Hypotheses",
		"Columns", "Definition", "Constraints", "Indexes", "Unique constraints", "Triggers", "Anomalies", "markdown"}
	for _, shown := range markdownHostileTables {
		known = append(known, shown, "Discovery report: markdown", "Hypotheses: markdown")
	}
	for _, h := range headings(t, src) {
		if !slices.Contains(known, h) {
			t.Errorf("%s: a heading %q that is neither discover's nor a table's name", name, h)
		}
	}
}

func linkDestinations(src []byte) []string {
	var out []string
	ast.Walk(gfmParser.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering {
			out = append(out, string(l.Destination))
		}
		return ast.WalkContinue, nil
	})
	return out
}

var (
	mdHTMLTag     = regexp.MustCompile(`<[^>]*>`)
	mdHTMLHeading = regexp.MustCompile(`(?s)<h[1-6][^>]*>(.*?)</h[1-6]>`)
)

// renderedText is the text a reader sees: goldmark's HTML without tags.
func renderedText(t *testing.T, src []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := gfmParser.Convert(src, &b); err != nil {
		t.Fatal(err)
	}
	return html.UnescapeString(mdHTMLTag.ReplaceAllString(b.String(), ""))
}

func headings(t *testing.T, src []byte) []string {
	t.Helper()
	var b bytes.Buffer
	if err := gfmParser.Convert(src, &b); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range mdHTMLHeading.FindAllStringSubmatch(b.String(), -1) {
		out = append(out, html.UnescapeString(mdHTMLTag.ReplaceAllString(m[1], "")))
	}
	return out
}
