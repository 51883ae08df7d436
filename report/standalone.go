package report

import (
	"fmt"
	"io"

	"github.com/discover-db/discover/report/erd"
)

// The schema as a diagram's source, for tools of the reader's own
// (--format dot, --format mermaid): every table of the report, isolated
// ones too, with its columns as the pictures show them (up to
// columnLimit, keys and references always), and every relationship.

// WriteDOT writes the schema as Graphviz DOT (schema.dot): the same
// boxes, ports, line styles and crow's-foot ends as the report's pictures,
// without their links, which point into report.html.
func WriteDOT(w io.Writer, r *Report) error {
	dg := newDiagrams(r)
	dia := dg.diagram(diagramName(r), allTables(r), "", true, true)
	for i := range dia.Tables {
		dia.Tables[i].URL = ""
	}
	if _, err := w.Write(erd.DOT(dia)); err != nil {
		return fmt.Errorf("report: cannot write dot: %w", err)
	}
	return nil
}

// WriteMermaid writes the schema as a Mermaid erDiagram (schema.mmd),
// with the escaping the Markdown pages' diagrams had (mermaidText).
func WriteMermaid(w io.Writer, r *Report) error {
	all := func(string) bool { return true }
	if _, err := io.WriteString(w, mermaidText(r, allTables(r), all)); err != nil {
		return fmt.Errorf("report: cannot write mermaid: %w", err)
	}
	return nil
}

func allTables(r *Report) []string {
	names := make([]string, len(r.Tables))
	for i, t := range r.Tables {
		names[i] = t.Name
	}
	return names
}

func diagramName(r *Report) string {
	if r.Database.Name == "" {
		return "database"
	}
	return r.Database.Name
}
