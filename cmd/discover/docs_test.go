package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/report"
	"github.com/goccy/go-graphviz"
)

// docsOf lists the repository docs (index and one page per table) that
// `--format md` wrote into out/tables.
func docsOf(t *testing.T, out string) (dir string, files []string) {
	t.Helper()
	dir = filepath.Join(out, "tables")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("--format md wrote no docs folder: %v", err)
	}
	for _, e := range entries {
		files = append(files, e.Name())
	}
	return dir, files
}

// Two discoveries of the unchanged demo database give byte-identical
// Markdown docs: a scheduled job that commits them commits nothing.
func TestDocsByteIdenticalAcrossRuns(t *testing.T) {
	var dirs [2]string
	var lists [2][]string
	var reps [2]report.Report
	var outs [2]string
	for i := range dirs {
		out := t.TempDir()
		outs[i] = out
		if res := run(t, "--demo", "--out", out, "--format", "md,json", "-q"); res.code != 0 {
			t.Fatalf("run %d: exit %d\n%s", i+1, res.code, res.stderr)
		}
		_, reps[i] = readReport(t, out)
		dirs[i], lists[i] = docsOf(t, out)
	}
	if reps[0].Run.ID == reps[1].Run.ID {
		t.Fatal("the two runs share an id: not two runs")
	}
	if !slices.Equal(lists[0], lists[1]) {
		t.Fatalf("file lists differ:\n%v\n%v", lists[0], lists[1])
	}
	pages := slices.DeleteFunc(slices.Clone(lists[0]), func(n string) bool { return !strings.HasSuffix(n, ".md") })
	if len(pages) != len(reps[0].Tables)+1 {
		t.Errorf("%d pages for %d tables, want one per table and the index", len(pages), len(reps[0].Tables))
	}
	if !slices.Contains(lists[0], "schema.svg") || !slices.Contains(lists[0], "orders.svg") {
		t.Errorf("no diagrams (schema.svg, orders.svg) among %v", lists[0])
	}
	total := 0
	for _, name := range lists[0] {
		a, errA := os.ReadFile(filepath.Join(dirs[0], name))
		b, errB := os.ReadFile(filepath.Join(dirs[1], name))
		if err := errors.Join(errA, errB); err != nil {
			t.Fatal(err)
		}
		total += len(a)
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs on unchanged data:\n--- first ---\n%s\n--- second ---\n%s", name, a, b)
		}
		if strings.Contains(string(a), reps[0].Run.ID) || strings.Contains(string(a), reps[0].Run.StartedAt[:10]) {
			t.Errorf("%s holds the run's id or date", name)
		}
	}
	t.Logf("%d files, %d bytes, identical across two runs", len(lists[0]), total)

	// And diff agrees that nothing changed, from the reports or the catalogs.
	for _, name := range []string{"report.json", "catalog.db"} {
		res := run(t, "diff", filepath.Join(outs[0], name), filepath.Join(outs[1], name))
		if res.code != 0 || res.stdout != "no drift\n" {
			t.Errorf("diff of two runs' %s on unchanged data: exit %d\n%s%s", name, res.code, res.stdout, res.stderr)
		}
	}

	index, err := os.ReadFile(filepath.Join(dirs[0], report.DocsIndex))
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range reps[0].Tables {
		if !strings.Contains(string(index), "["+tb.Name+"]("+tb.Name+".md)") {
			t.Errorf("index does not link %s", tb.Name)
		}
	}
	if !strings.Contains(string(index), "![Entity-relationship diagram](schema.svg)") {
		t.Errorf("index shows no ER diagram:\n%s", index)
	}
	schema, err := os.ReadFile(filepath.Join(dirs[0], "schema.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(schema, []byte(`xlink:href="customers.md"`)) || !bytes.Contains(schema, []byte(">customers</text>")) {
		t.Errorf("schema.svg has no box for customers linking its page")
	}
}

// The catalog commands a docs job (or a person) reads the catalog with:
// text for people from search, JSON for scripts from all three (--json).
func TestCatalogCommandsJSON(t *testing.T) {
	_, cat := discoverDB(t, smallDB(t))

	text := run(t, "catalog", "search", "shipments", "--catalog", cat, "--limit", "5")
	js := run(t, "catalog", "search", "shipments", "--catalog", cat, "--limit", "5", "--json")
	if text.code != 0 || js.code != 0 {
		t.Fatalf("search: exit %d / %d\n%s%s", text.code, js.code, text.stderr, js.stderr)
	}
	lines := strings.Split(strings.TrimSpace(text.stdout), "\n")
	jlines := strings.Split(strings.TrimSpace(js.stdout), "\n")
	if len(lines) == 0 || len(lines) != len(jlines) {
		t.Fatalf("search: %d text lines, %d JSON lines\n%s\n%s", len(lines), len(jlines), text.stdout, js.stdout)
	}
	for i, l := range jlines {
		var e catalog.Entry
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.Kind == "" || e.Key == "" {
			t.Fatalf("search --json line %d is not an entry: %v\n%s", i+1, err, l)
		}
		// The same entries, in the same order, one line each.
		if f := strings.Split(lines[i], "\t"); len(f) != 4 || f[0] != e.Kind || f[1] != e.Key || !strings.HasSuffix(f[2], "%") {
			t.Errorf("search line %d %q does not match %s %s", i+1, lines[i], e.Kind, e.Key)
		}
	}

	get := run(t, "catalog", "get", "shipments", "--kind", "table", "--catalog", cat, "--json")
	var e catalog.Entry
	if get.code != 0 || json.Unmarshal([]byte(get.stdout), &e) != nil || e.Kind != "table" || e.Key != "shipments" {
		t.Fatalf("get --json: exit %d\n%s%s", get.code, get.stdout, get.stderr)
	}
	plain := run(t, "catalog", "kind", "profile", "--catalog", cat)
	kj := run(t, "catalog", "kind", "profile", "--catalog", cat, "--json")
	if kj.code != 0 || kj.stdout != plain.stdout || strings.Count(kj.stdout, "\n") != 5 {
		t.Fatalf("kind --json: exit %d, %d lines (want 5 profiles, as without --json)\n%s", kj.code, strings.Count(kj.stdout, "\n"), kj.stderr)
	}
	if res := run(t, "catalog", "search", "shipments", "--catalog", filepath.Join(t.TempDir(), "none.db"), "--json"); res.code != exitUsage {
		t.Errorf("search of a missing catalog: exit %d, want %d", res.code, exitUsage)
	}
}

// --format dot,mermaid writes the schema's diagram sources beside the
// reports: DOT Graphviz reads, an erDiagram Mermaid reads.
func TestFormatDotAndMermaid(t *testing.T) {
	out := t.TempDir()
	if res := run(t, "--db", smallDB(t), "--out", out, "--format", "dot,mermaid,json", "--max-iterations", "10", "-q"); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	_, rep := readReport(t, out)
	dot, err := os.ReadFile(filepath.Join(out, "schema.dot"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := graphviz.ParseBytes(dot)
	if err != nil {
		t.Fatalf("graphviz cannot read schema.dot: %v\n%s", err, dot)
	}
	g.Close()
	mmd, err := os.ReadFile(filepath.Join(out, "schema.mmd"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(mmd), "erDiagram\n") {
		t.Errorf("schema.mmd is no erDiagram:\n%s", mmd)
	}
	for _, tb := range rep.Tables {
		if !strings.Contains(string(dot), "<b>"+tb.Name+"</b>") || !strings.Contains(string(mmd), `"`+tb.Name+`"`) {
			t.Errorf("table %s missing from schema.dot or schema.mmd", tb.Name)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "report.md")); !os.IsNotExist(err) {
		t.Errorf("report.md written without md in --format: %v", err)
	}
	if res := run(t, "--db", smallDB(t), "--out", t.TempDir(), "--format", "svg"); res.code != 2 || !strings.Contains(res.stderr, "md, json, html, dot, mermaid") {
		t.Errorf("--format svg: exit %d\n%s", res.code, res.stderr)
	}
}
