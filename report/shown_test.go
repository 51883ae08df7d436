package report

import (
	"strings"
	"testing"
)

// TestValuesShownVisibly: an empty string and spaces at a value's ends are
// seen (issue 22: "(e.g. )"); an example the description already quotes
// is not repeated; a column whose most frequent value is seen once has no
// top values to list.
func TestValuesShownVisibly(t *testing.T) {
	for in, want := range map[string]string{"": `""`, " x": `" x"`, "x\t": `"x\t"`, "a b": "a b", "0": "0"} {
		if got := shownValue(in); got != want {
			t.Errorf("shownValue(%q) = %s, want %s", in, got, want)
		}
	}
	for _, c := range []struct {
		a    Anomaly
		want string
	}{
		{Anomaly{Kind: "empty_string", Description: "empty strings", Examples: []string{"", " "}}, ` (e.g. "", " ")`},
		{Anomaly{Kind: "constant", Description: `all 69 non-null values are "0"`, Examples: []string{"0"}}, ""},
		{Anomaly{Kind: "outlier", Description: "negative cost", Examples: []string{"-5", "-1"}}, " (e.g. -5, -1)"},
		{Anomaly{Kind: "outlier", Description: "none shown"}, ""},
	} {
		if got := examplesText(c.a); got != c.want {
			t.Errorf("examplesText(%+v) = %q, want %q", c.a, got, c.want)
		}
	}
	if got := topValuesText([]ValueCount{{Value: "a", Count: 1}, {Value: "b", Count: 1}}, 5); got != "each value once" {
		t.Errorf("unique column's top values: %q", got)
	}
	if got := topValuesText([]ValueCount{{Value: "", Count: 7}, {Value: "b", Count: 1}}, 5); got != `"" (7), b (1)` {
		t.Errorf("top values with an empty string: %q", got)
	}

	// End to end: a column's empty minimum is seen in report.md's grid.
	r := Build(realistic(t))
	empty := ""
	r.Tables[1].Columns[0].Min = &empty
	if md := string(mdOf(t, r)); !strings.Contains(md, "| "+mdText(`""`)+" |") {
		t.Error(`report.md does not show an empty minimum as ""`)
	}
}
