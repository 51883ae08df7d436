package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrivacySection (issue 21, detection): a run on the demo names the
// columns that hold personal data in report.json (a pii field, its
// category, confidence and evidence) and in report.md's Privacy section;
// the columns that hold none have pii null, and the evidence gives counts,
// never a value of the column.
func TestPrivacySection(t *testing.T) {
	out := t.TempDir()
	if res := run(t, "--demo", "--out", out, "--format", "md,json", "-q", "--include", "customers", "--include", "orders"); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	raw, _ := readReport(t, out)
	want := map[string]string{
		"customers.first_name": "person_name", "customers.last_name": "person_name",
		"customers.email": "email", "customers.phone": "phone",
	}
	got := map[string]string{}
	for _, tb := range raw["tables"].([]any) {
		tm := tb.(map[string]any)
		for _, c := range tm["columns"].([]any) {
			cm := c.(map[string]any)
			key := tm["name"].(string) + "." + cm["name"].(string)
			p, present := cm["pii"]
			if !present {
				t.Fatalf("%s: no pii field", key)
			}
			if p == nil {
				continue
			}
			pm := p.(map[string]any)
			got[key] = pm["category"].(string)
			if conf := pm["confidence"].(float64); conf < 0.8 || conf > 1 {
				t.Errorf("%s: confidence %.2f", key, conf)
			}
			evidence := pm["evidence"].([]any)
			if len(evidence) == 0 {
				t.Errorf("%s: no evidence", key)
			}
			for _, tv := range cm["top_values"].([]any) {
				v := tv.(map[string]any)["value"].(string)
				for _, e := range evidence {
					if strings.Contains(e.(string), v) {
						t.Errorf("%s: evidence %q holds the value %q", key, e, v)
					}
				}
			}
		}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: pii %q, want %q", k, got[k], w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: pii %q, want none", k, got[k])
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(md)
	if i := strings.Index(section, "\n## Privacy\n"); i < 0 {
		t.Fatalf("report.md has no Privacy section")
	} else {
		section = section[i:]
	}
	if i := strings.Index(section[1:], "\n## "); i >= 0 {
		section = section[:i+1]
	}
	if !strings.Contains(section, "4 columns hold personal data") {
		t.Errorf("Privacy section:\n%s", section)
	}
	for k, w := range want {
		if !strings.Contains(section, "**"+k+"**: "+strings.ReplaceAll(w, "_", " ")) {
			t.Errorf("Privacy section lacks %s (%s):\n%s", k, w, section)
		}
	}
}

// TestPrivacyMasksEveryOutput (issue 21, masking): the values of the
// demo's personal-data columns that a --show-pii run shows (least and
// greatest, top values, anomaly examples) appear nowhere in a default
// run's outputs: report.json, .md, .html, the table pages, the catalog
// file's bytes, stdout and stderr. The planted duplicate e-mail is still
// reported, masked, and the report says the values are masked.
func TestPrivacyMasksEveryOutput(t *testing.T) {
	shown, masked := t.TempDir(), t.TempDir()
	if res := run(t, "--demo", "--out", shown, "--show-pii", "-q"); res.code != 0 {
		t.Fatalf("--show-pii: exit %d\n%s", res.code, res.stderr)
	}
	res := run(t, "--demo", "--out", masked)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}

	// The raw values: those the --show-pii report shows of the personal
	// columns, five characters or more, and not also a value of another
	// column (a city that is also a surname is not a leak of the name).
	_, rep := readReport(t, shown)
	personal, other := map[string]bool{}, map[string]bool{}
	for _, tb := range rep.Tables {
		for _, c := range tb.Columns {
			vals := []string{}
			for _, v := range []*string{c.Min, c.Max} {
				if v != nil {
					vals = append(vals, *v)
				}
			}
			for _, tv := range c.TopValues {
				vals = append(vals, tv.Value)
			}
			for _, a := range c.Anomalies {
				vals = append(vals, a.Examples...)
			}
			for _, v := range vals {
				if c.PII != nil {
					personal[v] = true
				} else {
					other[v] = true
				}
			}
		}
	}
	var raw []string
	for v := range personal {
		if len(v) >= 5 && !other[v] {
			raw = append(raw, v)
		}
	}
	if len(raw) < 20 {
		t.Fatalf("only %d personal values to look for: %v", len(raw), raw)
	}
	if rep.Privacy == nil || rep.Privacy.ValuesMasked {
		t.Errorf("--show-pii: privacy %+v, want values_masked false", rep.Privacy)
	}

	files := func(dir string) map[string][]byte {
		out := map[string][]byte{}
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			out[p] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	shownFiles, maskedFiles := files(shown), files(masked)
	maskedFiles["stdout"], maskedFiles["stderr"] = []byte(res.stdout), []byte(res.stderr)
	for _, name := range []string{"report.json", "report.md", "report.html", "catalog.db"} {
		if _, ok := maskedFiles[filepath.Join(masked, name)]; !ok {
			t.Fatalf("no %s in the default run's outputs", name)
		}
	}
	for _, v := range raw {
		inShown := false
		for _, b := range shownFiles {
			if strings.Contains(string(b), v) {
				inShown = true
				break
			}
		}
		if !inShown {
			t.Errorf("%q is in no output of the --show-pii run: the search below proves nothing for it", v)
		}
		for p, b := range maskedFiles {
			if strings.Contains(string(b), v) {
				t.Errorf("%s holds the personal value %q", p, v)
			}
		}
	}

	// The findings are still there, masked.
	_, m := readReport(t, masked)
	if m.Privacy == nil || !m.Privacy.ValuesMasked || m.Privacy.Columns != 8 {
		t.Errorf("privacy %+v, want values masked, 8 columns", m.Privacy)
	}
	_, email := findColumn(m, "customers", "email")
	if email == nil {
		t.Fatal("no customers.email")
	}
	dups := anomaliesOf(email, "duplicate")
	if len(dups) != 1 || len(dups[0].Examples) == 0 || !strings.Contains(dups[0].Examples[0], "***@") {
		t.Errorf("customers.email's duplicate, masked: %s", describeAnomalies(email))
	}
	md, err := os.ReadFile(filepath.Join(masked, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "Their values are masked here and in the catalog") {
		t.Error("report.md does not say the values are masked")
	}
}
