package semantic

import (
	_ "embed"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/discover-db/discover/naming"
)

// lexicon maps each business domain to the words that suggest it, weighted
// 1 (shared with other domains) to 3 (nearly proof on its own): the data
// file domains.txt. Words are singular and lower case.
var lexicon = parseLexicon(domainsText)

//go:embed domains.txt
var domainsText string

// parseLexicon reads domains.txt's lines of domain, word and weight.
func parseLexicon(text string) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, f := range naming.DataLines(text) {
		if len(f) != 3 {
			continue
		}
		w, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			continue
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]float64{}
		}
		out[f[0]][f[1]] = w
	}
	return out
}

// withProject is the lexicon with a project's domain words (discover.yaml's
// vocabulary: domains) added: a word it gives a domain takes the project's
// weight, and a domain it names that the lexicon lacks is scored too.
func withProject(lex, project map[string]map[string]float64) map[string]map[string]float64 {
	if len(project) == 0 {
		return lex
	}
	out := make(map[string]map[string]float64, len(lex)+len(project))
	for d, ws := range lex {
		out[d] = ws
	}
	for d, ws := range project {
		merged := make(map[string]float64, len(out[d])+len(ws))
		for w, weight := range out[d] {
			merged[w] = weight
		}
		for w, weight := range ws {
			merged[w] = weight
		}
		out[d] = merged
	}
	return out
}

const (
	// tableWeight makes a word in a table name count more than one in a
	// column name: tables say what the database is about.
	tableWeight = 2.0
	// domainMinScore is the least evidence for naming a domain at all.
	domainMinScore = 4.0
	// domainMinLead is how far the best domain must be ahead of the second,
	// as a share of its own score.
	domainMinLead   = 0.2
	domainMaxConfid = 0.85
)

// domainScore is one domain's score with the words that earned it.
type domainScore struct {
	Label   string
	Score   float64
	Tables  []string // matched table words
	Columns []string // matched column words
	Values  []string // matched words of the columns' frequent values
}

// domainGuess is the outcome of scoring the lexicon.
type domainGuess struct {
	Label      string
	Confidence float64
	Evidence   []string
	Scores     []domainScore // best first
}

// scoreDomains scores every domain against the words of the table names
// and the column names.
func scoreDomains(tables []string, columns []string) domainGuess {
	return scoreVocabulary(tables, columns, nil)
}

// valueWeight is what a word among a code list's values counts: the values
// of status and type columns say what the rows are about ("roaming",
// "refund"), but less surely than the names a designer chose.
const valueWeight = 0.5

// scoreVocabulary scores every domain against the words of the table names,
// the column names and the frequent values of code-list columns. Each word
// counts once per domain, at its table weight if any table name holds it,
// so that a key repeated in every table (customer_id) does not outweigh the
// tables themselves.
func scoreVocabulary(tables, columns, values []string) domainGuess {
	tw := wordSet(tables)
	cw := wordSet(columns)
	vw := wordSet(values)
	var scores []domainScore
	for label, words := range withProject(lexicon, naming.Domains()) {
		s := domainScore{Label: label}
		for w, weight := range words {
			switch {
			case tw[w]:
				s.Score += weight * tableWeight
				s.Tables = append(s.Tables, w)
			case cw[w]:
				s.Score += weight
				s.Columns = append(s.Columns, w)
			case vw[w]:
				s.Score += weight * valueWeight
				s.Values = append(s.Values, w)
			}
		}
		if s.Score > 0 {
			sort.Strings(s.Tables)
			sort.Strings(s.Columns)
			sort.Strings(s.Values)
			scores = append(scores, s)
		}
	}
	sort.Slice(scores, func(i, j int) bool {
		if scores[i].Score != scores[j].Score {
			return scores[i].Score > scores[j].Score
		}
		return scores[i].Label < scores[j].Label
	})
	g := domainGuess{Label: "unknown", Confidence: 0.1, Scores: scores}
	if len(scores) == 0 || scores[0].Score < domainMinScore {
		g.Evidence = []string{"no domain's vocabulary matched enough table or column names"}
		if len(scores) > 0 {
			g.Evidence = append(g.Evidence, scoreLine(scores[0]))
		}
		return g
	}
	best := scores[0]
	second := 0.0
	if len(scores) > 1 {
		second = scores[1].Score
	}
	lead := (best.Score - second) / best.Score
	if lead < domainMinLead {
		g.Confidence = 0.2
		g.Evidence = []string{fmt.Sprintf("no clear domain: %s (%s) and %s (%s) score alike",
			best.Label, scoreText(best.Score), scores[1].Label, scoreText(second))}
		for _, s := range scores[:min(3, len(scores))] {
			g.Evidence = append(g.Evidence, scoreLine(s))
		}
		return g
	}
	// Confidence grows with the amount of evidence and with the lead over
	// the runner-up: one matched table name never reads as certainty, and
	// neither does a close race.
	strength := math.Min(1, best.Score/20)
	g.Label = best.Label
	g.Confidence = round2(math.Min(domainMaxConfid, 0.25+0.6*strength*(0.4+0.6*lead)))
	if len(best.Tables) > 0 {
		g.Evidence = append(g.Evidence, "tables: "+strings.Join(best.Tables, ", "))
	}
	if len(best.Columns) > 0 {
		g.Evidence = append(g.Evidence, "columns: "+strings.Join(best.Columns, ", "))
	}
	if len(best.Values) > 0 {
		g.Evidence = append(g.Evidence, "values: "+strings.Join(best.Values, ", "))
	}
	line := "score " + scoreText(best.Score)
	if len(scores) == 1 {
		line += "; runner-up: none (no other domain's words matched)"
	}
	if len(scores) > 1 {
		var ups []string
		for _, s := range scores[1:min(3, len(scores))] {
			ups = append(ups, fmt.Sprintf("%s (%s: %s)", s.Label, scoreText(s.Score), strings.Join(s.words(), ", ")))
		}
		line += "; runner-up: " + strings.Join(ups, "; ")
	}
	g.Evidence = append(g.Evidence, line)
	return g
}

// words are the matched words of a score, tables first.
func (s domainScore) words() []string {
	return append(append(append([]string{}, s.Tables...), s.Columns...), s.Values...)
}

// scoreText writes a score without a needless decimal: 23, 7.5.
func scoreText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func scoreLine(s domainScore) string {
	return fmt.Sprintf("best: %s (%s; %s)", s.Label, scoreText(s.Score), strings.Join(s.words(), ", "))
}

// wordSet is the singular words of names, and each name's words joined
// (work_order → workorder) for compound lexicon entries.
func wordSet(names []string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		toks := naming.Words(n)
		for i, t := range toks {
			s := naming.Singular(t)
			m[s] = true
			toks[i] = s
		}
		if len(toks) > 1 {
			m[strings.Join(toks, "")] = true
		}
	}
	return m
}
