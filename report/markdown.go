package report

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/discover-db/discover/internal/textcut"
)

// WriteMarkdown writes r as report.md. Every section is always present (with
// "None found." when empty) so readers and scripts can rely on its outline.
func WriteMarkdown(w io.Writer, r *Report) error {
	m := markdown{slugs: map[string]int{}}
	m.render(r)
	if _, err := io.WriteString(w, m.b.String()); err != nil {
		return fmt.Errorf("report: cannot write markdown: %w", err)
	}
	return nil
}

// outline is the report's order (issue 6): a briefing in the order a new
// analyst reads it (summary, structure, business domain, insights and
// patterns, data quality, recommendations, uncertainties), then the ledger
// of tested hypotheses the findings rest on. Level is the heading level;
// the tables' own headings come after "Tables".
var outline = []struct {
	Title string
	Level int
}{
	{"Summary", 2}, {"Run", 2}, {"Contents", 2},
	{"Structure", 2}, {"Tables", 3}, {"Relationships", 3},
	{"Business domain", 2},
	{"Insights and patterns", 2}, {"Insights", 3}, {"Patterns", 3},
	{"Data quality", 2}, {"Privacy", 2}, {"Recommendations", 2}, {"Uncertainties", 2}, {"Hypotheses", 2},
}

type markdown struct {
	b     strings.Builder
	slugs map[string]int
}

func (m *markdown) p(format string, args ...any) {
	fmt.Fprintf(&m.b, format, args...)
	m.b.WriteString("\n\n")
}

// anchor returns the id GitHub gives a heading: lower case, punctuation
// dropped, spaces as hyphens, and -1, -2… on repeats in document order.
// Headings must be registered in the order they appear for this to match.
func (m *markdown) anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	s := b.String()
	n := m.slugs[s]
	m.slugs[s] = n + 1
	if n > 0 {
		s = fmt.Sprintf("%s-%d", s, n)
	}
	return s
}

func (m *markdown) render(r *Report) {
	// Anchors are assigned up front, in document order, because the contents
	// list that links to them comes before the headings themselves.
	m.anchor(shownText(title(r)))
	id := map[string]string{}
	var tableIDs []string
	for _, s := range outline {
		id[s.Title] = m.anchor(s.Title)
		if s.Title == "Tables" {
			for _, t := range sectioned(r) {
				tableIDs = append(tableIDs, m.anchor(shownText(t.Name)))
			}
		}
	}

	m.p("# %s", mdText(title(r)))
	m.p("## Summary")
	m.p("%s", mdText(stableSummary(r)))
	if n := r.Narrative; n != nil {
		// The model's text is data: escaped like any value, quoted, and
		// introduced by who wrote it, so no one takes it for a finding.
		m.p("**Narrative.** %s", mdText(n.Note))
		m.quote(n.Text)
	}

	m.p("## Run")
	// Only what the data and the settings determine: the run's id, times,
	// iterations, query count and model usage differ between two runs on
	// unchanged data and live in report.json and report.html, so that
	// report.md, like tables/, is rewritten byte for byte.
	run := r.Run
	facts := [][2]string{
		{"Database", strings.TrimSpace(r.Database.Dialect + " " + r.Database.Name)},
		{"DSN", r.Database.DSN},
		{"Stop reason", stopText(run.StopReason)},
		{"Confidence", percent(run.Confidence)},
		{"Coverage", percent(run.Coverage)},
		{"LLM", llmName(run.LLM)},
	}
	for _, f := range facts {
		fmt.Fprintf(&m.b, "- %s: %s\n", f[0], mdText(f[1]))
	}
	m.b.WriteString("- Run id, times, iterations and queries: see report.json or report.html\n\n")

	m.p("## Contents")
	for _, s := range outline {
		if s.Title == "Run" || s.Title == "Contents" {
			continue
		}
		fmt.Fprintf(&m.b, "%s- [%s](#%s)\n", strings.Repeat("  ", s.Level-2), s.Title, id[s.Title])
		if s.Title == "Tables" {
			for i, t := range sectioned(r) {
				fmt.Fprintf(&m.b, "    - [%s](#%s)\n", mdText(t.Name), tableIDs[i])
			}
		}
	}
	m.b.WriteString("\n")

	m.p("## Structure")
	m.structure(r)
	m.p("### Tables")
	tables := sectioned(r)
	switch views := len(r.Tables) - len(tables); {
	case len(r.Tables) == 0:
		m.p("None found.")
	case views > 0:
		m.p("Each table's columns; %s described under Structure, and every table and view in full (top values, keys, indexes) on its page in tables/.",
			plural(views, "view is", "views are"))
	default:
		m.p("Each table's columns; every table in full (top values, keys, indexes) on its page in tables/.")
	}
	for _, t := range tables {
		m.table(t)
	}
	m.relationships(r.Relationships)
	m.domain(r.Domain)
	m.modelDomain(r.Insights)
	m.p("## Insights and patterns")
	m.insights(rankedInsights(r.Insights))
	m.patterns(r.Patterns)
	m.quality(qualityItems(r))
	m.privacy(privacyItems(r), privacyNote(r))
	m.recommendations(r.Recommendations)
	m.uncertainties(r.Uncertainties)
	m.hypotheses(r)
}

// structure writes one line per table: what its rows are and how many.
func (m *markdown) structure(r *Report) {
	if len(r.Tables) == 0 {
		m.p("No tables or views are recorded.")
		return
	}
	for _, t := range r.Tables {
		fmt.Fprintf(&m.b, "- %s\n", mdText(structureLine(t)))
	}
	m.b.WriteString("\n")
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	if len(r) > 1 && unicode.IsUpper(r[1]) {
		return s // an acronym
	}
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

func (m *markdown) domain(d Domain) {
	m.p("## Business domain")
	if d.Label == nil {
		m.p("Not determined.")
		return
	}
	m.p("%s (confidence %s)", mdText(*d.Label), percent(d.Confidence))
	m.evidence(d.Evidence)
}

// modelDomain shows the model's reading of the domain (an insight of kind
// model_domain) beside the experts' domain, never instead of it: marked
// as the model's and escaped like any data.
func (m *markdown) modelDomain(is []Insight) {
	if in := modelDomain(is); in != nil {
		m.p("**The model's domain.** %s *(%s)*", mdText(in.Description), mdText(strings.Join(in.Evidence, "; ")))
	}
}

func (m *markdown) evidence(ev []string) {
	if len(ev) == 0 {
		return
	}
	m.b.WriteString("Evidence:\n\n")
	m.list(ev)
}

func (m *markdown) list(items []string) {
	for _, s := range items {
		fmt.Fprintf(&m.b, "- %s\n", mdText(s))
	}
	m.b.WriteString("\n")
}

// labelled writes "**label:** none." or the label followed by a list.
// labelled writes a labelled list, and nothing when it is empty: a table's
// facts above already say it has no key, and "none" under each heading of
// every table was a third of a page.
func (m *markdown) labelled(label string, items []string) {
	if len(items) == 0 {
		return
	}
	m.p("**%s:**", label)
	m.list(items)
}

// sectioned are the tables report.md gives a section of their own: the
// base tables. A view's columns repeat those of the tables it reads; it is
// a line under Structure here and a page in tables/ (issue 22: report.md
// reads in minutes).
func sectioned(r *Report) []Table {
	var out []Table
	for _, t := range r.Tables {
		if t.Kind != "view" {
			out = append(out, t)
		}
	}
	return out
}

// table writes a table's section of report.md: its size and key, its
// columns, its indexes and unique constraints. What its rows are is its
// line under Structure, and its references are under Relationships: each
// said once.
func (m *markdown) table(t Table) {
	m.p("#### %s", mdText(t.Name))
	facts := []string{fmt.Sprintf("Rows: %s; primary key: %s", rowsText(t), primaryKeyText(t))}
	if u := unreadFact(t); u != "" {
		facts = append([]string{u}, facts...)
	}
	// One line at most of the declared structure: report.md stays short,
	// the table's page in tables/ has the rest.
	if c := commentFacts(t); len(c) > 0 {
		facts = append(facts, strings.Join(c, " — "))
	}
	m.list(facts)

	if len(t.Columns) == 0 {
		m.p("No columns recorded.")
	} else {
		rows := make([][]string, len(t.Columns))
		for i, c := range t.Columns {
			rows[i] = []string{
				c.Name, c.DataType, yesNo(c.Nullable), nullPct(c.NullFraction), distinctText(c),
				textcut.Runes(optText(c.Min), cellLimit), textcut.Runes(optText(c.Max), cellLimit), semanticText(c),
			}
		}
		m.grid([]string{"Column", "Type", "Nullable", "Null %", "Distinct", "Min", "Max", "Semantic type"}, rows)
	}

	var idx []string
	for _, ix := range t.Indexes {
		idx = append(idx, indexText(ix))
	}
	m.labelled("Indexes", idx)

	var uniq []string
	for _, u := range t.Uniques {
		uniq = append(uniq, columnsText(u))
	}
	m.labelled("Unique constraints", uniq)
}

func (m *markdown) grid(header []string, rows [][]string) {
	escaped := make([][]string, len(rows))
	for i, row := range rows {
		escaped[i] = make([]string, len(row))
		for j, c := range row {
			escaped[i][j] = mdText(c)
		}
	}
	m.rawGrid(header, escaped)
}

// rawGrid is grid for cells already escaped, where some hold links.
func (m *markdown) rawGrid(header []string, rows [][]string) {
	m.b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	m.b.WriteString(strings.Repeat("---|", len(header)))
	m.b.WriteString("\n")
	for _, row := range rows {
		m.b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	m.b.WriteString("\n")
}

func (m *markdown) relationships(rels []Relationship) {
	m.p("### Relationships")
	if len(rels) == 0 {
		m.p("None found.")
		return
	}
	rows := make([][]string, len(rels))
	for i, r := range rels {
		orphans := unknown
		if r.OrphanFraction != nil {
			orphans = nullPct(r.OrphanFraction)
		}
		rows[i] = []string{
			endText(r.FromTable, r.FromColumns), endText(r.ToTable, r.ToColumns), r.Source,
			cardinalityText(r.Cardinality), percent(r.Confidence), orphans, strings.Join(r.Evidence, "; "),
		}
	}
	m.grid([]string{"From", "To", "Source", "Cardinality", "Confidence", "Orphans", "Evidence"}, rows)
}

func (m *markdown) patterns(ps []Pattern) {
	m.p("### Patterns")
	if len(ps) == 0 {
		m.p("None found.")
		return
	}
	rows := make([][]string, len(ps))
	for i, p := range ps {
		rows[i] = []string{p.Kind, strings.Join(p.Tables, ", "), p.Description, percent(p.Confidence)}
	}
	m.grid([]string{"Kind", "Tables", "Description", "Confidence"}, rows)
}

// insights lists the insights in rank order, each with its evidence.
func (m *markdown) insights(is []Insight) {
	m.p("### Insights")
	if len(is) == 0 {
		m.p("None found.")
		return
	}
	for i, in := range is {
		fmt.Fprintf(&m.b, "%d. %s *(%s, confidence %s)*\n", i+1, mdText(in.Description), mdText(kindText(in.Kind)), percent(in.Confidence))
		if len(in.Columns) > 0 {
			fmt.Fprintf(&m.b, "   - Columns: %s\n", mdText(strings.Join(in.Columns, ", ")))
		}
		if len(in.Evidence) > 0 {
			fmt.Fprintf(&m.b, "   - Evidence: %s\n", mdText(strings.Join(in.Evidence, "; ")))
		}
	}
	m.b.WriteString("\n")
}

// privacy lists the columns that hold personal data.
func (m *markdown) privacy(items []listItem, note string) {
	m.p("## Privacy")
	if len(items) == 0 {
		m.p("No column was found to hold personal data.")
		return
	}
	m.p("%s personal data:", plural(len(items), "column holds", "columns hold"))
	for _, it := range items {
		fmt.Fprintf(&m.b, "- **%s**: %s\n", mdText(it.Subject), mdText(it.Text))
	}
	m.b.WriteString("\n")
	if note != "" {
		m.p("%s", mdText(note))
	}
}

// quality lists what is wrong with the data: the columns' anomalies and
// the data-quality insights.
func (m *markdown) quality(items []listItem) {
	m.p("## Data quality")
	if len(items) == 0 {
		m.p("None found.")
		return
	}
	for _, q := range items {
		fmt.Fprintf(&m.b, "- **%s**: %s\n", mdText(q.Subject), mdText(q.Text))
	}
	m.b.WriteString("\n")
}

// hypotheses summarizes the ledger in report.md: the counts, and the
// claims the data did not bear out, one line each; every claim with its
// query and figures is on the ledger's own page (LedgerFile), where a
// reader who wants the proof goes (issue 22: the ledger had been half of
// report.md).
func (m *markdown) hypotheses(r *Report) {
	m.p("## Hypotheses")
	if len(r.Hypotheses) == 0 {
		m.p("None found.")
		return
	}
	m.p("%s Each claim, the query that tested it and the figures it returned: [%s](%s).",
		mdText(hypothesisSentence(r)), LedgerFile, LedgerFile)
	var open []string
	for _, h := range r.Hypotheses {
		if h.Status == "refuted" || h.Status == "inconclusive" {
			open = append(open, fmt.Sprintf("%s (%s): %s", h.ID, h.Status, h.Statement))
		}
	}
	if len(open) > 0 {
		m.p("Not borne out by the data:")
		m.list(open)
	}
}

// LedgerFile is the hypothesis ledger's page, beside report.md.
const LedgerFile = "hypotheses.md"

// WriteLedger writes the ledger of hypotheses (LedgerFile): every claim
// tested against the data, with its query and the figures it returned. Like
// report.md it holds only what the data and the settings determine, so two
// runs on unchanged data write it byte for byte.
func WriteLedger(w io.Writer, r *Report) error {
	m := markdown{slugs: map[string]int{}}
	m.p("# Hypotheses: %s", mdText(r.Database.Name))
	if len(r.Hypotheses) == 0 {
		m.p("None found.")
	} else {
		m.p("%s", mdText(hypothesisSentence(r)))
		m.p("The claims tested against the data, each with the query that tested it and the figures it returned.")
	}
	for _, h := range r.Hypotheses {
		m.p("**%s**: %s", mdText(h.ID), mdText(h.Statement))
		by := ""
		if h.Expert != "" {
			by = ", proposed by the " + mdText(h.Expert) + " expert"
		}
		conf := "confidence " + percent(h.Confidence)
		if h.ConfidenceBefore != nil {
			conf = fmt.Sprintf("confidence %s before the test, %s after", percent(*h.ConfidenceBefore), percent(h.Confidence))
		}
		m.p("Status: %s, %s%s.", mdText(h.Status), conf, by)
		if h.Expected != nil {
			m.p("Expected: %s.", mdText(strings.TrimSuffix(*h.Expected, ".")))
		}
		if h.TestSQL != "" {
			m.code("sql", h.TestSQL)
		}
		m.evidence(h.Evidence)
	}
	if _, err := io.WriteString(w, m.b.String()); err != nil {
		return fmt.Errorf("report: cannot write the ledger: %w", err)
	}
	return nil
}

func (m *markdown) recommendations(rs []Recommendation) {
	m.p("## Recommendations")
	if len(rs) == 0 {
		m.p("None found.")
		return
	}
	for _, r := range rs {
		v := ""
		if r.Validated {
			v = " (validated)"
		}
		m.p("**%s**%s: %s", mdText(r.Kind), v, mdText(r.Description))
		if r.SQL != "" {
			m.code("sql", r.SQL)
		}
		m.evidence(r.Evidence)
	}
}

func (m *markdown) uncertainties(us []string) {
	m.p("## Uncertainties")
	if len(us) == 0 {
		m.p("None found.")
		return
	}
	m.list(us)
}

// code writes a fenced block whose fence is longer than any run of
// backticks in the content, so SQL can never close it early; its control
// characters are shown escaped, as in the rest of the report.
func (m *markdown) code(lang, s string) {
	s = showControls(strings.TrimRight(s, "\n"))
	f := fence(s)
	m.p("%s%s\n%s\n%s", f, lang, s, f)
}

// quote writes text as a block quote, one paragraph per line of it.
func (m *markdown) quote(text string) {
	var paras []string
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.TrimSpace(line) != "" {
			paras = append(paras, "> "+mdText(strings.TrimSpace(line)))
		}
	}
	if len(paras) > 0 {
		m.p("%s", strings.Join(paras, "\n>\n"))
	}
}

// stableSummary is the summary without the counts that differ between two
// runs on unchanged data (iterations and queries): the last sentence, the
// run's, is told again with its stop reason, confidence and coverage only.
func stableSummary(r *Report) string {
	last := runSentence(r)
	if !strings.HasSuffix(r.Summary, last) {
		return r.Summary
	}
	run := r.Run
	figures := fmt.Sprintf("confidence %s and coverage %s", percent(run.Confidence), percent(run.Coverage))
	var stable string
	switch {
	case run.FinishedAt == nil:
		stable = fmt.Sprintf("The run has not finished; so far, %s.", figures)
	case run.StopReason == nil:
		stable = fmt.Sprintf("The run finished with %s.", figures)
	default:
		why, ok := stopPhrases[*run.StopReason]
		if !ok {
			why = fmt.Sprintf("(stop reason %q)", *run.StopReason)
		}
		stable = fmt.Sprintf("The run stopped %s, with %s.", why, figures)
	}
	return strings.TrimSuffix(r.Summary, last) + stable
}

// unreadFact says why a table is shown without its structure or figures,
// or is empty for a table the run saw whole.
func unreadFact(t Table) string {
	switch {
	case t.Unread == nil:
		return ""
	case t.Unread.What == "profile":
		return "Not profiled: " + t.Unread.Reason
	default:
		return "Could not be read: " + t.Unread.Reason
	}
}

// llmName is the model that took part, without its calls and tokens.
func llmName(l LLM) string {
	if l.Provider == "none" || l.Model == "" {
		return l.Provider
	}
	return l.Provider + " " + l.Model
}
