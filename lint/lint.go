// Package lint checks a discovery's report against the rules a reviewer of
// a schema expects: a primary key on every table, an index under every
// reference, references declared where the data shows them and clean where
// they are declared, NOT NULL where a column never holds NULL, comments,
// one name for one concept, no redundant index, no table apart from the rest.
//
// The rules are pure functions of a report.Report (report.FromCatalog):
// lint reads no database and no catalog, so it lints the same findings every
// renderer shows, and a test builds the report it lints. Each rule is on or
// off, has a severity, globs that exclude tables or columns, and thresholds
// (Config, from discover.yaml's lint: key).
package lint

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/discover-db/discover/report"
)

// Severity says how much a violation matters to a reviewer. Every
// violation makes `discover lint` exit 1; the severity orders and labels.
type Severity string

// The severities, most serious first.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Severities are the severities in their order, most serious first.
var Severities = []Severity{Error, Warning, Info}

// Violation is one thing a rule found: where (Table, and Columns when the
// rule is about columns), what a person reads (Message), and the figures
// behind it, so that a reviewer can weigh it without opening the report.
type Violation struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Table    string   `json:"table"`
	Columns  []string `json:"columns"`
	Message  string   `json:"message"`
	// References is the reference a reference rule is about, nil for the
	// other rules.
	References *Reference `json:"references,omitempty"`
	// Related names what else the violation involves: the index or key
	// that makes an index redundant, the other names of one concept
	// (table.column), an inferred key of a table with none declared.
	Related []string `json:"related,omitempty"`
	Figures Figures  `json:"figures"`
}

// Reference is the parent side of a reference and how it is known.
type Reference struct {
	Table   string   `json:"table"`
	Columns []string `json:"columns"`
	Source  string   `json:"source"` // declared | inferred | user
}

// Figures are the measurements a violation rests on; nil when the rule does
// not rest on it. Rows is the row count behind NullFraction (the rows the
// column's profile read) or the table's row count.
type Figures struct {
	Confidence     *float64 `json:"confidence,omitempty"`
	OrphanFraction *float64 `json:"orphan_fraction,omitempty"`
	NullFraction   *float64 `json:"null_fraction,omitempty"`
	Rows           *int64   `json:"rows,omitempty"`
	// Evidence are the report's own lines behind a reference figure (the
	// check that counted orphans).
	Evidence []string `json:"evidence,omitempty"`
}

// Param is a rule's threshold or switch, with its default.
type Param struct {
	Name    string
	Default float64
	Bool    bool // true/false rather than a number
	Integer bool // a whole number
	Min     float64
	Max     float64 // 0: no upper bound
	Doc     string
}

// Rule is one check. Check returns its violations in a stable order;
// Lint fills their rule id and severity, and drops the excluded ones.
type Rule struct {
	ID          string
	Description string // what a violation is, for a person
	Severity    Severity
	Enabled     bool // by default, on a schema nobody configured
	Params      []Param
	check       func(r *report.Report, s Settings) []Violation
}

// Settings are one rule's settings in force: its defaults with the
// configuration over them.
type Settings struct {
	Enabled  bool
	Severity Severity
	Exclude  []string
	Params   map[string]float64
}

// Param is the value of one of the rule's parameters.
func (s Settings) Param(name string) float64 { return s.Params[name] }

// RuleConfig is what the configuration says of one rule; a nil or empty
// field leaves the default.
type RuleConfig struct {
	Enabled  *bool
	Severity Severity
	Exclude  []string
	Params   map[string]float64
}

// Config is discover.yaml's lint: key. Exclude applies to every rule,
// beside each rule's own.
type Config struct {
	Exclude []string
	Rules   map[string]RuleConfig
}

// Find is the rule with id, if there is one.
func Find(id string) (Rule, bool) {
	i := slices.IndexFunc(rules, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return rules[i], true
}

// IDs are the rules' ids, for messages.
func IDs() []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.ID
	}
	return out
}

// Settings are the rule's settings under c.
func (c Config) Settings(rule Rule) Settings {
	s := Settings{Enabled: rule.Enabled, Severity: rule.Severity, Params: map[string]float64{}}
	for _, p := range rule.Params {
		s.Params[p.Name] = p.Default
	}
	s.Exclude = slices.Clone(c.Exclude)
	rc, ok := c.Rules[rule.ID]
	if !ok {
		return s
	}
	if rc.Enabled != nil {
		s.Enabled = *rc.Enabled
	}
	if rc.Severity != "" {
		s.Severity = rc.Severity
	}
	s.Exclude = append(s.Exclude, rc.Exclude...)
	for k, v := range rc.Params {
		s.Params[k] = v
	}
	return s
}

// RuleResult is one rule as it ran: its settings and how many violations
// it found (0 when it was off).
type RuleResult struct {
	ID          string         `json:"id"`
	Description string         `json:"description"`
	Enabled     bool           `json:"enabled"`
	Severity    Severity       `json:"severity"`
	Exclude     []string       `json:"exclude"`
	Params      map[string]any `json:"params"` // a number, or true/false for a switch
	Violations  int            `json:"violations"`
}

// Counts sum the violations.
type Counts struct {
	Violations int `json:"violations"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	// RulesViolated is how many rules found at least one violation.
	RulesViolated int `json:"rules_violated"`
	Tables        int `json:"tables"` // tables and views linted
}

// Result is a lint of one report: the document `discover lint --json`
// prints (docs/contract-additions.md).
type Result struct {
	Database string `json:"database"`
	Dialect  string `json:"dialect"`
	RunID    string `json:"run_id"`
	// Complete is false when the run could not see everything: what it did
	// not read was not linted, so no violation is no proof of a clean
	// schema. Incomplete says what, in the report's own sentences.
	Complete   bool         `json:"complete"`
	Incomplete []string     `json:"incomplete"`
	Rules      []RuleResult `json:"rules"`
	Violations []Violation  `json:"violations"`
	Counts     Counts       `json:"counts"`
}

// Lint runs every enabled rule over r under c.
func Lint(r *report.Report, c Config) *Result {
	res := &Result{
		Database: r.Database.Name, Dialect: r.Database.Dialect, RunID: r.Run.ID,
		Complete: true, Incomplete: []string{}, Rules: []RuleResult{}, Violations: []Violation{},
	}
	if r.Outcome != nil && r.Outcome.Status != "complete" {
		res.Complete = false
		res.Incomplete = report.OutcomeSentences(r.Outcome)
	}
	for _, rule := range rules {
		s := c.Settings(rule)
		rr := RuleResult{ID: rule.ID, Description: rule.Description, Enabled: s.Enabled, Severity: s.Severity,
			Exclude: nonNil(s.Exclude), Params: map[string]any{}}
		for _, p := range rule.Params {
			rr.Params[p.Name] = s.Params[p.Name]
			if p.Bool {
				rr.Params[p.Name] = s.Params[p.Name] != 0
			}
		}
		if s.Enabled {
			for _, v := range rule.check(r, s) {
				if excluded(s.Exclude, v) {
					continue
				}
				v.Rule, v.Severity = rule.ID, s.Severity
				v.Columns = nonNil(v.Columns)
				res.Violations = append(res.Violations, v)
				rr.Violations++
				res.Counts.Violations++
				switch s.Severity {
				case Error:
					res.Counts.Errors++
				case Warning:
					res.Counts.Warnings++
				default:
					res.Counts.Infos++
				}
			}
			if rr.Violations > 0 {
				res.Counts.RulesViolated++
			}
		}
		res.Rules = append(res.Rules, rr)
	}
	res.Counts.Tables = len(r.Tables)
	return res
}

// Fails reports whether a violation is at least as serious as min: what
// makes discover lint exit 1 under --fail-on min.
func (res *Result) Fails(min Severity) bool {
	limit := slices.Index(Severities, min)
	return slices.ContainsFunc(res.Violations, func(v Violation) bool {
		return slices.Index(Severities, v.Severity) <= limit
	})
}

// excluded reports whether a glob matches the violation's table, or
// table.column for one of its columns. A glob that does not parse matches
// nothing; the configuration checks globs before they get here.
func excluded(globs []string, v Violation) bool {
	for _, g := range globs {
		if match(g, v.Table) {
			return true
		}
		for _, c := range v.Columns {
			if match(g, v.Table+"."+c) {
				return true
			}
		}
	}
	return false
}

// match compares names as the database folds them where it folds them
// alike everywhere that matters here: case does not tell two tables apart
// in a glob a person writes (Orders, orders).
func match(glob, name string) bool {
	ok, err := path.Match(strings.ToLower(glob), strings.ToLower(name))
	return err == nil && ok
}

// ValidGlob reports why glob cannot be an exclude pattern, or nil.
func ValidGlob(glob string) error {
	if strings.TrimSpace(glob) == "" {
		return fmt.Errorf("an empty pattern")
	}
	if _, err := path.Match(glob, ""); err != nil {
		return fmt.Errorf("%q is not a glob: %v", glob, err)
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// sortViolations orders a rule's violations by table, then columns, so that
// two lints of the same report print the same lines.
func sortViolations(vs []Violation) []Violation {
	slices.SortStableFunc(vs, func(a, b Violation) int {
		return cmp.Or(cmp.Compare(a.Table, b.Table), slices.Compare(a.Columns, b.Columns))
	})
	return vs
}
