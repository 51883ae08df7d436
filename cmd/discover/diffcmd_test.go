package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/report"
)

// discovered runs a real discovery of smallDB (a fraction of a second) and
// returns its report.json and catalog.
func discovered(t *testing.T) (reportJSON, catalogDB string) {
	t.Helper()
	dir := t.TempDir()
	res := run(t, "--db", smallDB(t), "--out", dir, "--format", "json", "--max-iterations", "10", "-q")
	if res.code != 0 {
		t.Fatalf("discovery for diff: exit %d: %s", res.code, res.stderr)
	}
	return filepath.Join(dir, "report.json"), filepath.Join(dir, "catalog.db")
}

// editReport writes a copy of the report at src after edit changes its
// decoded JSON, as a user's hand or a later run would.
func editReport(t *testing.T, src string, edit func(doc map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Validate(out); err != nil {
		t.Fatalf("edited report does not validate: %v", err)
	}
	p := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func jsonTable(t *testing.T, doc map[string]any, name string) map[string]any {
	t.Helper()
	for _, tb := range doc["tables"].([]any) {
		if m := tb.(map[string]any); m["name"] == name {
			return m
		}
	}
	t.Fatalf("no table %s", name)
	return nil
}

func TestDiffIdenticalReports(t *testing.T) {
	rep, _ := discovered(t)
	res := run(t, "diff", rep, rep)
	if res.code != 0 || res.stdout != "no drift\n" || res.stderr != "" {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", res.code, res.stdout, res.stderr)
	}
}

func TestDiffColumnAdded(t *testing.T) {
	rep, _ := discovered(t)
	added := editReport(t, rep, func(doc map[string]any) {
		tb := jsonTable(t, doc, "shipments")
		tb["columns"] = append(tb["columns"].([]any), map[string]any{
			"name": "carrier", "data_type": "TEXT", "nullable": true,
			"null_fraction": nil, "distinct_count": nil, "distinct_is_estimate": false,
			"min": nil, "max": nil, "mean": nil, "stddev": nil, "top_values": []any{},
			"semantic_type": nil, "semantic_confidence": nil, "anomalies": []any{},
		})
	})
	res := run(t, "diff", rep, added)
	if res.code != exitDrift || !strings.Contains(res.stdout, "shipments.carrier") ||
		!strings.HasPrefix(res.stdout, "drift: 1 change\n") || !strings.Contains(res.stdout, "\nschema:\n  + column shipments.carrier added") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr %q", res.code, res.stdout, res.stderr)
	}
	t.Logf("column added:\n%s", res.stdout)

	// Removed the other way round; and gating on stats alone lets it pass.
	res = run(t, "diff", added, rep)
	if res.code != exitDrift || !strings.Contains(res.stdout, "- column shipments.carrier removed") {
		t.Fatalf("reversed: exit %d\n%s", res.code, res.stdout)
	}
	res = run(t, "diff", "--fail-on", "stats", rep, added)
	if res.code != 0 || !strings.Contains(res.stdout, "schema (informational):") {
		t.Fatalf("--fail-on stats: exit %d\n%s", res.code, res.stdout)
	}

	res = run(t, "diff", "--json", rep, added)
	var out struct {
		Drift   bool            `json:"drift"`
		Changes []report.Change `json:"changes"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil || res.code != exitDrift || !out.Drift ||
		len(out.Changes) != 1 || out.Changes[0].Object != "shipments.carrier" || out.Changes[0].Kind != "added" ||
		out.Changes[0].Category != "schema" || !out.Changes[0].Failing {
		t.Fatalf("--json: exit %d, %v\n%s", res.code, err, res.stdout)
	}
}

func TestDiffFailOnSchemaIgnoresRowGrowth(t *testing.T) {
	rep, _ := discovered(t)
	grown := editReport(t, rep, func(doc map[string]any) {
		tb := jsonTable(t, doc, "customers")
		tb["row_count"] = tb["row_count"].(float64) * 2
	})
	res := run(t, "diff", "--fail-on", "schema", rep, grown)
	want := "no drift (1 informational change)\n\nstats (informational):\n  ~ customers row count 30 -> 60 (+100.0%)\n"
	if res.code != 0 || res.stdout != want {
		t.Fatalf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr %q", res.code, res.stdout, want, res.stderr)
	}
	// By default row growth is drift; a higher threshold or none lets it pass.
	if res = run(t, "diff", rep, grown); res.code != exitDrift {
		t.Fatalf("default --fail-on: exit %d\n%s", res.code, res.stdout)
	}
	if res = run(t, "diff", "--rows-threshold", "1.5", rep, grown); res.code != 0 || res.stdout != "no drift\n" {
		t.Fatalf("--rows-threshold 1.5: exit %d\n%s", res.code, res.stdout)
	}
	if res = run(t, "diff", "--fail-on", "none", "--json", rep, grown); res.code != 0 || !strings.Contains(res.stdout, `"drift": false`) {
		t.Fatalf("--fail-on none: exit %d\n%s", res.code, res.stdout)
	}
}

func TestDiffCatalogInputs(t *testing.T) {
	rep, cat := discovered(t)
	for _, args := range [][]string{{cat, rep}, {rep, cat}, {cat, cat}} {
		res := run(t, append([]string{"diff"}, args...)...)
		if res.code != 0 || res.stdout != "no drift\n" {
			t.Fatalf("diff %v: exit %d\nstdout:\n%s\nstderr %q", args, res.code, res.stdout, res.stderr)
		}
	}
}

func TestDiffBadInput(t *testing.T) {
	rep, _ := discovered(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	notReport := write("other.json", `{"schema_version": 1}`)
	text := write("notes.txt", "hello\n")
	foreign := smallDB(t) // a SQLite database, but not a catalog
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"missing", []string{"diff", rep, filepath.Join(dir, "nope.json")}, "nope.json: no such file"},
		{"not a report", []string{"diff", notReport, rep}, "other.json is not a valid report.json"},
		{"text", []string{"diff", rep, text}, "notes.txt is not a valid report.json"},
		{"directory", []string{"diff", dir, rep}, "is a directory"},
		{"not a catalog", []string{"diff", foreign, rep}, "not a discover catalog"},
		{"one argument", []string{"diff", rep}, "two arguments"},
		{"bad fail-on", []string{"diff", "--fail-on", "rows", rep, rep}, `"rows"`},
		{"none and more", []string{"diff", "--fail-on", "none,schema", rep, rep}, "none cannot"},
		{"negative threshold", []string{"diff", "--rows-threshold", "-1", rep, rep}, "--rows-threshold"},
		{"unknown flag", []string{"diff", "--frobnicate", rep, rep}, "frobnicate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, c.args...)
			if res.code != exitUsage || !strings.Contains(res.stderr, c.want) || strings.Count(res.stderr, "\n") != 1 || res.stdout != "" {
				t.Fatalf("exit %d, want 2 and one line with %q\nstderr %q\nstdout %q", res.code, c.want, res.stderr, res.stdout)
			}
		})
	}
	// Diffing must not turn a foreign database into a catalog.
	if b, _ := os.ReadFile(foreign); strings.Contains(string(b), "schema_version") {
		t.Fatal("diff wrote into a database that is not a catalog")
	}
}
