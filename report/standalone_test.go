package report

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/report/erd"
	"github.com/goccy/go-graphviz"
)

func TestWriteDOTParsesAndDrawsEveryTable(t *testing.T) {
	names := append(slices.Clone(hostileNames), "schema", `a"b`, "}", "<x>")
	for _, r := range []*Report{Build(realistic(t)), shop16(), hostileReport(names, func(i int) string { return names[i%len(names)] })} {
		var b bytes.Buffer
		if err := WriteDOT(&b, r); err != nil {
			t.Fatal(err)
		}
		g, err := graphviz.ParseBytes(b.Bytes())
		if err != nil {
			t.Fatalf("%s: graphviz cannot read schema.dot: %v\n%s", r.Database.Name, err, b.String())
		}
		n := 0
		for node, err := g.FirstNode(); node != nil && err == nil; node, err = g.NextNode(node) {
			n++
		}
		if n != len(r.Tables)+1 { // and the legend
			t.Errorf("%s: %d nodes for %d tables", r.Database.Name, n, len(r.Tables))
		}
		g.Close()
		if bytes.Contains(b.Bytes(), []byte("URL=")) {
			t.Errorf("%s: schema.dot links into report.html", r.Database.Name)
		}
		svg, err := erd.Render(context.Background(), b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := erd.Check(svg); err != nil {
			t.Errorf("%s: %v", r.Database.Name, err)
		}
	}
}

func TestWriteMermaidKeepsTheEscaping(t *testing.T) {
	var b strings.Builder
	if err := WriteMermaid(&b, Build(realistic(t))); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"erDiagram\n", `"vehicles" ||--o{ "shipments" : "vehicle_id declared 93%"`, "    INTEGER vehicle_id FK\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("schema.mmd lacks %q:\n%s", want, b.String())
		}
	}
	names := append(slices.Clone(hostileNames), "one", "direction LR", "%%{init: {'theme':'dark'}}%%", "#quot;")
	r := hostileReport(names, func(i int) string { return names[i%len(names)] })
	b.Reset()
	if err := WriteMermaid(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if !slices.ContainsFunc(mermaidLines, func(re *regexp.Regexp) bool { return re.MatchString(line) }) {
			t.Errorf("a line Mermaid cannot read: %q", line)
		}
		if mermaidDirectionJS.MatchString(line) || strings.Contains(line, "%%{") || strings.Contains(line, "#quot;") {
			t.Errorf("a direction, directive or entity code: %q", line)
		}
	}
}
