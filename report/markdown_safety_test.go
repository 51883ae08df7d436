package report

import (
	"bytes"
	"fmt"
	"html"
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

// hostileNames are names and values written to become Markdown: links,
// emphasis, headings, table breaks, HTML, entities, autolinks, block
// starts, code, and characters that act instead of showing.
var hostileNames = []string{
	"[x](http://evil)", "![img](http://evil/x.png)", "[ref]: http://evil", "[^1]", "<http://evil>",
	"**bold**", "*em*", "_em_", "__init__", "~~gone~~", "a*b*c",
	"# head", "head #", "===", "---", "- item", "+ item", "* item", "1. one", "2) two", "> quote", "    code",
	"|pipe|table", "a | b", "| --- |",
	"<script>alert(1)</script>", "<!-- c -->", "&lt;b&gt;", "&#x202e;", "AT&T",
	"https://evil.example/a_b", "www.evil.example", "user@evil.example", "mailto:user@evil.example", "x_@evil.example",
	"`code`", "```", "~~~", "$x^2$", `back\slash`, `trail\`,
	"line\nbreak\r\nand\rmore", "tab\there", "x\x00y", "\x1b[31mred\x1b[0m", "bell\x07", "del\x7f", "nel\u0085",
	"\u202egnp.exe", "\u2066iso\u2069", "a\u2028b\u2029c", "zero\u200bwidth", "bom\ufeff", "tag\U000e0041",
	"bad\xff\xfeutf8", "order_items", "Ünïcödé 表", "emoji 🙂",
}

func TestMdTextEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"order_items":              "order_items",
		"a__b":                     "a__b",
		"_em_":                     `\_em\_`,
		"**bold**":                 `\*\*bold\*\*`,
		"[x](http://evil)":         `\[x\](http\://evil)`,
		"# head":                   `\# head`,
		"head #":                   `head \#`,
		"a|b":                      `a\|b`,
		"<script>":                 `\<script\>`,
		"&lt;":                     `\&lt;`,
		"AT & T":                   "AT & T",
		"www.evil.example":         `www\.evil.example`,
		"user@evil.example":        "`user@evil.example`",
		"mailto:user@evil.example": "mailto:`user@evil.example`",
		"e.g. j***@e***.com":       "e.g. `j***@e***.com`",
		"M*** G*** (12), x":        "`M***` `G***` (12), x",
		"***|***":                  "`***`\\|\\*\\*\\*", // a cell's bar never inside a code span
		"**x@evil.example**":       "`**x@evil.example**`",
		"@":                        `\@`,
		"- item":                   `\- item`,
		"---":                      `\---`,
		"-5":                       "-5",
		"1. one":                   `1\. one`,
		"2) two":                   `2\) two`,
		"1.5":                      "1.5",
		"    code":                 "&#32;   code",
		"~~gone~~":                 `\~\~gone\~\~`,
		"`code`":                   "\\`code\\`",
		"$x$":                      `\$x\$`,
		`back\slash`:               `back\\slash`,
		"line\nbreak\r\n":          `line\nbreak\r\n`,
		"tab\there":                `tab\there`,
		"x\x00y":                   `x\x00y`,
		"\x1b[31m":                 `\x1b\[31m`,
		"del\x7f":                  `del\x7f`,
		"nel\u0085":                `nel\u0085`,
		"\u202egnp.exe":            `\u202egnp.exe`,
		"\u2066iso\u2069":          `\u2066iso\u2069`,
		"a\u2028b":                 `a\u2028b`,
		"zero\u200bwidth":          `zero\u200bwidth`,
		"tag\U000e0041":            `tag\U000e0041`,
		"bad\xff":                  `bad\xff`,
		"Ünïcödé 表 🙂":              "Ünïcödé 表 🙂",
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
}

// The contexts the renderers put data in; %s is the escaped data.
var mdContexts = []string{
	"%s\n",
	"- %s\n",
	"1. %s *(note)*\n",
	"#### %s\n",
	"> %s\n",
	"- **%s**: %s\n",
	"[%s](page.md)\n",
	"| A | B |\n|---|---|\n| %s | %s |\n",
}

// Each hostile name, escaped, gives the document the same nodes as a plain
// word does in every context, and reads as itself.
func TestMdTextIsInertInEveryContext(t *testing.T) {
	for _, ctx := range mdContexts {
		plain := []byte(strings.ReplaceAll(ctx, "%s", "word"))
		for _, name := range hostileNames {
			src := []byte(strings.ReplaceAll(ctx, "%s", mdText(name)))
			if got, want := mdShape(src), mdShape(plain); !slices.Equal(got, want) {
				t.Errorf("%q in %q: nodes %v, want %v\n%s", name, ctx, got, want, src)
			}
			want := strings.TrimSpace(shownText(name))
			if got := mdRendered(t, src); !strings.Contains(got, want) {
				t.Errorf("%q in %q reads %q, want it to show %q", name, ctx, got, want)
			}
			assertNoActingCharacters(t, fmt.Sprintf("%q in %q", name, ctx), src)
		}
	}
}

// A report whose every name and value is hostile parses into the same
// document as one whose names are plain words: no link, emphasis,
// heading, list, code or table column came from the data. The same holds
// for the index and every page of tables/.
func TestHostileReportIsInert(t *testing.T) {
	tables := []string{"[x](http://evil)", "# head", "|pipe|table", "**bold**", "bell\x07\u202e", "www.evil.example"}
	hostile := hostileReport(tables, func(i int) string { return hostileNames[i%len(hostileNames)] })
	plain := hostileReport([]string{"t0", "t1", "t2", "t3", "t4", "t5"}, func(i int) string { return fmt.Sprintf("name%d", i) })

	md, plainMD := mdOf(t, hostile), mdOf(t, plain)
	if got, want := mdShape(md), mdShape(plainMD); !slices.Equal(got, want) {
		t.Errorf("report.md of hostile names has other nodes than of plain ones:\n%s", firstDiff(got, want))
	}
	assertNoActingCharacters(t, "report.md", md)
	read := mdRendered(t, md)
	for _, tb := range hostile.Tables {
		if want := strings.TrimSpace(shownText(tb.Name)); !strings.Contains(read, want) {
			t.Errorf("report.md does not show the table name %q as %q", tb.Name, want)
		}
	}

	docs, plainDocs := mdDocs(t, hostile), mdDocs(t, plain)
	// The diagrams: well-formed XML, no element a name put there.
	for _, f := range allDocs(t, hostile) {
		if strings.HasSuffix(f.Name, ".svg") {
			if _, err := erd.Check(f.Body); err != nil {
				t.Errorf("tables/%s: %v", f.Name, err)
			}
			if bytes.Contains(f.Body, []byte("<script")) {
				t.Errorf("tables/%s holds a script", f.Name)
			}
		}
	}
	if len(docs) != len(plainDocs) || len(docs) != len(hostile.Tables)+1 {
		t.Fatalf("%d docs for %d tables (plain names: %d)", len(docs), len(hostile.Tables), len(plainDocs))
	}
	for i, f := range docs {
		if got, want := mdShape(f.Body), mdShape(plainDocs[i].Body); !slices.Equal(got, want) {
			t.Errorf("tables/%s has other nodes than with plain names:\n%s", f.Name, firstDiff(got, want))
		}
		assertNoActingCharacters(t, "tables/"+f.Name, f.Body)
	}
	for i, tb := range hostile.Tables {
		if want := strings.TrimSpace(shownText(tb.Name)); !strings.Contains(mdRendered(t, docs[i+1].Body), want) {
			t.Errorf("tables/%s does not show its table's name %q", docs[i+1].Name, want)
		}
	}
	assertLocalLinks(t, hostile, md, allDocs(t, hostile))

	ledger := render(t, func(b *bytes.Buffer, r *Report) error { return WriteLedger(b, r) }, hostile)
	plainLedger := render(t, func(b *bytes.Buffer, r *Report) error { return WriteLedger(b, r) }, plain)
	if got, want := mdShape(ledger), mdShape(plainLedger); !slices.Equal(got, want) {
		t.Errorf("%s of hostile names has other nodes than of plain ones:\n%s", LedgerFile, firstDiff(got, want))
	}
	assertNoActingCharacters(t, LedgerFile, ledger)
	if links := mdLinks(ledger); len(links) > 0 {
		t.Errorf("%s links to %q", LedgerFile, links)
	}
}

// Every link in report.md goes to one of its headings, and every link or
// image in tables/ to a file written there: none to anything a name spelled.
func assertLocalLinks(t *testing.T, r *Report, md []byte, docs []DocFile) {
	t.Helper()
	files := map[string]bool{}
	for _, f := range docs {
		files[f.Name] = true
	}
	for _, dest := range mdLinks(md) {
		if dest != LedgerFile && (!strings.HasPrefix(dest, "#") || strings.ContainsAny(dest, " :/")) {
			t.Errorf("report.md links to %q", dest)
		}
	}
	for _, f := range docs {
		for _, dest := range mdLinks(f.Body) {
			// An image is a diagram written beside the page, like a link.
			if !files[strings.TrimPrefix(dest, "image:")] {
				t.Errorf("tables/%s links to %q, not a file of tables/", f.Name, dest)
			}
		}
	}
}

// hostileReport is a report of the tables named, whose every other name
// and value is name(i) for a growing i: column names, types, values, the
// entity's description, keys, relationships, findings, and the declared
// structure (defaults, comments, generated expressions, checks, index
// predicates, triggers, a view's definition and what it reads).
func hostileReport(tables []string, name func(i int) string) *Report {
	n := 0
	next := func() string { n++; return name(n - 1) }
	r := &Report{
		Database: Database{Dialect: "sqlite", Name: next(), DSN: next()},
		Run:      Run{ID: "run-1", StartedAt: "2025-03-01T10:00:00Z", Confidence: 0.9, Coverage: 1, LLM: LLM{Provider: "none"}},
		Domain:   Domain{Label: ptr(next()), Confidence: 0.5, Evidence: []string{next()}},
	}
	for _, tn := range tables {
		tb := Table{Name: tn, Kind: "table", RowCount: ptr[int64](3)}
		for range 2 {
			tb.Columns = append(tb.Columns, Column{
				Name: next(), DataType: next(), Nullable: true, NullFraction: ptr(0.5), DistinctCount: ptr[int64](2),
				Min: ptr(next()), Max: ptr(next()), TopValues: []ValueCount{{Value: next(), Count: 2}, {Value: next(), Count: 1}},
				SemanticType: ptr(next()),
				Anomalies:    []Anomaly{{Kind: "rare_value", Count: 1, Description: next(), Examples: []string{next()}}},
				Default:      ptr(next()), Comment: next(), UserComment: next(), Generated: next(),
			})
		}
		tb.PrimaryKey = []string{tb.Columns[0].Name}
		tb.Entity = &Entity{Type: next(), Description: next(), Confidence: 0.5}
		tb.Indexes = []Index{{Name: next(), Columns: []string{tb.Columns[1].Name}, Unique: true, Predicate: next(), Definition: next()}}
		tb.Uniques = [][]string{{tb.Columns[1].Name}}
		tb.Comment, tb.UserComment, tb.PrimaryKeyName = next(), next(), next()
		tb.Checks = []Check{{Name: next(), Expression: next()}, {Expression: next()}}
		// A definition is shown in a fenced block, which keeps a tab as
		// the code's own (markdown.code); every other character must show.
		code := func() string { return strings.ReplaceAll(next(), "\t", " ") }
		tb.Triggers = []Trigger{{Name: next(), Timing: "AFTER", Events: []string{"INSERT", "UPDATE"}, Definition: code() + " ```` " + code()}}
		tb.Definition = "SELECT " + code() + " ``` FROM " + code()
		if len(r.Tables) > 0 {
			tb.Reads = []string{r.Tables[len(r.Tables)-1].Name}
		}
		r.Tables = append(r.Tables, tb)
	}
	for i := 1; i < len(r.Tables); i++ {
		from, to := r.Tables[i], r.Tables[i-1]
		r.Relationships = append(r.Relationships, Relationship{
			FromTable: from.Name, FromColumns: []string{from.Columns[1].Name}, ToTable: to.Name, ToColumns: []string{to.Columns[0].Name},
			Source: "declared", Confidence: 0.8, Evidence: []string{next()},
			ConstraintName: next(), OnDelete: next(), OnUpdate: next(),
		})
	}
	r.Patterns = []Pattern{{Kind: "hierarchy", Tables: []string{r.Tables[0].Name}, Description: next(), Confidence: 0.6}}
	r.Insights = []Insight{
		{Kind: "distribution", Tables: []string{r.Tables[1].Name}, Columns: []string{next()}, Description: next(), Confidence: 0.7, Evidence: []string{next()}},
		{Kind: "quality", Tables: []string{r.Tables[2].Name}, Columns: []string{next()}, Description: next(), Confidence: 0.7},
	}
	r.Hypotheses = []Hypothesis{{ID: next(), Statement: next(), Status: "confirmed", Expert: "query", Confidence: 0.9,
		Expected: ptr(next()), TestSQL: "SELECT " + next() + " ```` FROM t", Evidence: []string{next()}}}
	r.Recommendations = []Recommendation{{Kind: "index", Description: next(), SQL: "CREATE INDEX " + next(), Evidence: []string{next()}}}
	r.Uncertainties = []string{next()}
	r.Summary = Summarize(r)
	return r
}

var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))

// mdShape is the parsed document's nodes in document order, less its text
// and code spans (which hold no syntax), each with its depth; a table row
// counts its cells, a heading its level, a list its kind.
func mdShape(src []byte) []string {
	doc := gfm.Parser().Parse(text.NewReader(src))
	var out []string
	depth := 0
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			depth--
			return ast.WalkContinue, nil
		}
		depth++
		switch n := n.(type) {
		case *ast.Text, *ast.String:
			return ast.WalkContinue, nil
		case *ast.CodeSpan:
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			out = append(out, fmt.Sprintf("%d:Heading%d", depth, n.Level))
		case *ast.List:
			out = append(out, fmt.Sprintf("%d:List(ordered %v)", depth, n.IsOrdered()))
		default:
			out = append(out, fmt.Sprintf("%d:%s", depth, n.Kind()))
		}
		return ast.WalkContinue, nil
	})
	return out
}

// mdLinks are the destinations of the document's links, images and
// autolinks.
func mdLinks(src []byte) []string {
	doc := gfm.Parser().Parse(text.NewReader(src))
	var out []string
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			out = append(out, string(n.Destination))
		case *ast.Image:
			out = append(out, "image:"+string(n.Destination))
		case *ast.AutoLink:
			out = append(out, "autolink:"+string(n.URL(src)))
		}
		return ast.WalkContinue, nil
	})
	return out
}

var tag = regexp.MustCompile(`<[^>]*>`)

// mdRendered is the text a reader sees: the HTML goldmark renders, without
// its tags, entities decoded.
func mdRendered(t *testing.T, src []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := gfm.Convert(src, &b); err != nil {
		t.Fatal(err)
	}
	return html.UnescapeString(tag.ReplaceAllString(b.String(), ""))
}

// assertNoActingCharacters fails on bytes that would act in a terminal or
// an editor instead of showing: invalid UTF-8, control characters other
// than the line feed, and bidirectional or invisible formatting.
func assertNoActingCharacters(t *testing.T, what string, src []byte) {
	t.Helper()
	if !utf8.Valid(src) {
		t.Errorf("%s is not valid UTF-8", what)
	}
	for _, r := range string(src) {
		if (unicode.IsControl(r) && r != '\n') || unicode.Is(unicode.Bidi_Control, r) || r == 0x2028 || r == 0x2029 ||
			r == 0x200b || r == 0xfeff || (r >= 0xe0000 && r <= 0xe007f) {
			t.Errorf("%s holds the raw character %U", what, r)
			return
		}
	}
}

func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("node %d: %s, want %s (near %v)", i, got[i], want[i], want[max(0, i-3):min(len(want), i+3)])
		}
	}
	return fmt.Sprintf("%d nodes, want %d", len(got), len(want))
}

// SQL shows its control characters and keeps its lines; no run of
// backticks in it closes its fence.
func TestCodeBlockHoldsHostileSQL(t *testing.T) {
	var m markdown
	m.code("sql", "SELECT '```' ||\r\n\t'\x00\u202e' -- ````\n")
	want := "`````sql\nSELECT '```' ||\n\t'\\x00\\u202e' -- ````\n`````\n\n"
	if got := m.b.String(); got != want {
		t.Errorf("code block %q, want %q", got, want)
	}
	if shape := mdShape([]byte(want)); !slices.Equal(shape, []string{"1:Document", "2:FencedCodeBlock"}) {
		t.Errorf("the block parses as %v", shape)
	}
}

// The lines an erDiagram is made of, as Mermaid's lexer reads them: entity
// words quoted (no keyword can be read into them), labels of entities
// without '%' or '\', attribute words that are no key.
var mermaidLines = []*regexp.Regexp{
	regexp.MustCompile(`^erDiagram$`),
	regexp.MustCompile(`^  "[A-Za-z_][A-Za-z0-9_-]*"(\["[^"%\r\n\v\x08\\]+"\])?( \{)?$`),
	regexp.MustCompile(`^    [A-Za-z_][A-Za-z0-9_]* [A-Za-z_][A-Za-z0-9_]*( (PK|FK)(,(PK|FK))*)?( "[^"\n]*")?$`),
	regexp.MustCompile(`^  \}$`),
	regexp.MustCompile(`^  "[A-Za-z_][A-Za-z0-9_-]*" (\|\||\}o)(--|\.\.)(o\{|o\|) "[A-Za-z_][A-Za-z0-9_-]*" : "[^"\n]*"$`),
}

// mermaidDirectionJS is Mermaid's rule that takes any line holding
// "direction LR" (JavaScript's \s holds every Unicode space).
var mermaidDirectionJS = regexp.MustCompile(`(?i)direction[\s\p{Zs}\x{feff}]+(tb|bt|rl|lr)`)

func TestMermaidHoldsHostileNames(t *testing.T) {
	names := append(slices.Clone(hostileNames), "one", "many", "to", "u", "class", "erDiagram", "pk", "FK", "uk-x",
		"direction LR", "sort direction\u00a0tb", "100%", "%%{init: {'theme':'dark'}}%%", "#quot;", strings.Repeat("w", 5000))
	r := hostileReport(names, func(i int) string { return names[i%len(names)] })
	for _, focus := range []string{"", r.Tables[0].Name, r.Tables[len(r.Tables)-1].Name} {
		var all []string
		for _, tb := range r.Tables {
			all = append(all, tb.Name)
		}
		var m markdown
		m.mermaid(r, all, focus)
		lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(m.b.String(), "```mermaid\n"), "\n```\n\n"), "\n")
		entities := 0
		for _, line := range lines {
			if !slices.ContainsFunc(mermaidLines, func(re *regexp.Regexp) bool { return re.MatchString(line) }) {
				t.Errorf("a line Mermaid cannot read: %q", line)
			}
			if mermaidDirectionJS.MatchString(line) {
				t.Errorf("a line Mermaid takes for a direction: %q", line)
			}
			if strings.Contains(line, "%%{") || strings.Contains(line, "#quot;") {
				t.Errorf("a directive or entity code: %q", line)
			}
			if strings.HasPrefix(line, "  \"") && !strings.Contains(line, " : ") {
				entities++
			}
			if low := strings.ToLower(line); strings.HasPrefix(line, "    ") &&
				slices.ContainsFunc(strings.Fields(low)[:2], func(w string) bool { return w == "pk" || w == "fk" || w == "uk" }) {
				t.Errorf("an attribute word Mermaid reads as a key: %q", line)
			}
		}
		if entities != len(r.Tables) {
			t.Errorf("%d entities drawn for %d tables", entities, len(r.Tables))
		}
	}
}

// The declared structure of a report whose every value is hostile
// (hostileReport) is on the table pages as itself: a check, the database's
// and the team's comments, a trigger's definition in its code block; and
// on the HTML page no value becomes an element.
func TestHostileStructureIsShown(t *testing.T) {
	tables := []string{"[x](http://evil)", "# head", "|pipe|table"}
	hostile := hostileReport(tables, func(i int) string { return hostileNames[i%len(hostileNames)] })
	docs := allDocs(t, hostile)

	// The declared structure is on the pages, as itself: a check, a
	// trigger's definition (in a code block), the team's comment.
	first := mdRendered(t, docs[1].Body)
	for _, v := range []string{hostile.Tables[0].Checks[0].Expression, hostile.Tables[0].Columns[0].UserComment, hostile.Tables[0].Comment} {
		if want := strings.TrimSpace(shownText(v)); !strings.Contains(first, want) {
			t.Errorf("tables/%s does not show %q as %q", docs[1].Name, v, want)
		}
	}
	if !strings.Contains(string(docs[1].Body), showControls(hostile.Tables[0].Triggers[0].Definition)) {
		t.Errorf("tables/%s lacks the trigger's definition %q", docs[1].Name, hostile.Tables[0].Triggers[0].Definition)
	}

	// The HTML page: no value from the database becomes an element.
	var page bytes.Buffer
	if err := WriteHTML(&page, hostile); err != nil {
		t.Fatal(err)
	}
	if n, own := strings.Count(page.String(), "<script"), strings.Count(htmlSource, "<script"); n != own {
		t.Errorf("a value reached the page as a <script> element: %d script tags, the template has %d", n, own)
	}
	if strings.Contains(page.String(), "http://evil") && strings.Contains(page.String(), `href="http://evil`) {
		t.Error("a value became a link on the page")
	}
}
