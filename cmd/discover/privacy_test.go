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
