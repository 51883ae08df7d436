package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/discover-db/discover/catalog"
)

//go:embed templates/report.html.tmpl
var htmlSource string

// html/template escapes by context, which matters here: table names, top
// values and descriptions are untrusted data from the database under
// discovery, and the report is opened in a browser.
var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":          percent,
	"pctp":         func(f *float64) string { return percent(*f) },
	"nullPct":      nullPct,
	"rows":         rowsText,
	"distinct":     distinctText,
	"opt":          optText,
	"num":          numText,
	"yesNo":        yesNo,
	"semantic":     semanticText,
	"pk":           primaryKeyText,
	"cols":         columnsText,
	"ref":          endText,
	"card":         cardinalityText,
	"top":          func(vs []ValueCount) string { return topValuesText(vs, 5) },
	"stop":         stopText,
	"llm":          llmText,
	"join":         strings.Join,
	"lower":        strings.ToLower,
	"short":        func(s string) string { return truncate(s, cellLimit) },
	"thousands":    catalog.Thousands,
	"thousandsInt": func(n int) string { return catalog.Thousands(int64(n)) },
	"count":        func(n int64, one, many string) string { return plural64(n, one, many) },
	"kind":         kindText,
	"inc":          func(i int) int { return i + 1 },
	"structure":    structureLine,
}).Parse(htmlSource))

type htmlView struct {
	*Report
	Title   string
	Tables  []htmlTable // shadows Report.Tables with what the page needs
	Ranked  []Insight   // the key insights, in rank order
	Quality []qualityItem
}

type htmlTable struct {
	Table
	ID       string
	Outgoing []Relationship
	Incoming []Relationship
}

// WriteHTML writes r as one self-contained page: inline CSS, no scripts, no
// external assets, so it can be mailed or archived as a single file.
func WriteHTML(w io.Writer, r *Report) error {
	v := htmlView{Report: r, Title: title(r), Ranked: rankedInsights(r.Insights), Quality: qualityItems(r)}
	for i, t := range r.Tables {
		out, in := tableRefs(r.Relationships, t.Name)
		// Ids by position, not by name: names may hold any character and two
		// names may differ only in case.
		v.Tables = append(v.Tables, htmlTable{Table: t, ID: fmt.Sprintf("table-%d", i+1), Outgoing: out, Incoming: in})
	}
	// Render into a buffer so a template error never leaves half a page.
	var buf bytes.Buffer
	if err := htmlTemplate.Execute(&buf, v); err != nil {
		return fmt.Errorf("report: cannot render html: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("report: cannot write html: %w", err)
	}
	return nil
}
