package rules

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/semantic"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/privacy"
	"github.com/discover-db/discover/warehouse"
)

// Business rules: once a table's columns are classified, the expert
// proposes the rules its data may follow and tests each with a guarded
// query, keeping every claim in the hypothesis ledger with its verdict and
// figures:
//
//   - a status lifecycle: a timestamp set for the rows in some states of a
//     code list and for none in the others (delivered_at and 'delivered');
//   - a column unique in practice, though no constraint says so;
//   - a nullable column that is never NULL;
//   - a quantity that is never negative;
//   - timestamps that record stages in order (order.go);
//   - a table that grows over time, and a timestamp with a weekly pattern.
//
// The claims about single columns share one aggregate query per table, the
// lifecycles one GROUP BY per code list; confirmed rules become insights.

const (
	// ruleMinRows is the least number of values a column claim needs:
	// below it, uniqueness and completeness prove little.
	ruleMinRows = 20
	// uniqueMinShare is the share of distinct values from which a column
	// is worth asking whether it is unique in practice.
	uniqueMinShare = 0.98
	// lifecycleMaxStates bounds the code lists tested as lifecycles.
	lifecycleMaxStates = 20
	// nearHoldShare is the share of a state's rows that may break a
	// lifecycle for the break to read as a data-quality problem rather than
	// as no rule at all.
	nearHoldShare = 0.05
	// temporalMinRows is the least number of timestamps a weekly or growth
	// claim needs.
	temporalMinRows = 140
	// growthRatio is how many times the rows of a span's earlier half its
	// later half must hold for the table to grow.
	growthRatio = 1.25
	// weeklyChi2 is the χ² (6 degrees of freedom) above which the weekdays
	// differ beyond chance (p < 0.001); weeklyRatio is how much busier the
	// busiest day must be than the quietest for the difference to matter.
	weeklyChi2  = 22.46
	weeklyRatio = 1.2
	// per-table caps, so that a wide table does not flood the ledger.
	maxNeverNull = 10
	maxUnique    = 8
	maxNonNeg    = 6
)

var (
	// statusWords name a column that holds a row's state.
	statusWords = set("status", "state", "stage", "phase", "lifecycle", "workflow", "step")
	// timeWords are the words of a timestamp's name that say "when".
	timeWords = set("at", "on", "date", "time", "ts", "timestamp", "datetime", "dt", "day", "when", "utc", "local")
	// signedWords are quantities that may well be negative.
	signedWords = set("balance", "delta", "change", "diff", "difference", "variance", "profit", "net", "margin",
		"temperature", "temp", "latitude", "lat", "longitude", "lon", "lng", "offset", "adjustment", "correction",
		"gain", "loss", "return", "pnl", "growth", "elevation", "altitude")
)

// ruler holds what the rules of one table are derived from.
type ruler struct {
	env  *experts.Env
	t    warehouse.Table
	refs *semantic.ReferrerIndex // the tables that refer to others, of the whole schema
	// scope is how the table is read: whole, or through a bounded sample
	// when it is far larger than --sample-rows (issue 9).
	scope    experts.Scope
	name     string
	d        warehouse.Dialect
	pk       []string
	profiles map[string]*catalog.ProfileDoc
	// types are the semantic expert's column types (SemanticDoc.SemanticType).
	types map[string]string
	// pii are the categories of the columns that hold personal data, whose
	// values the rules' evidence quotes masked (none with --show-pii).
	pii map[string]string
}

// tableRules proposes and tests the rules of one table. Only a spent
// budget or a cancelled run is an error: a test that fails is recorded as
// inconclusive, with the error as its evidence.
func tableRules(ctx context.Context, env *experts.Env, t warehouse.Table, scope experts.Scope, pk []string,
	profiles map[string]*catalog.ProfileDoc, types, pii map[string]string, refs *semantic.ReferrerIndex) error {
	if t.Kind != "table" || len(profiles) == 0 {
		return nil // a view repeats its tables' rules
	}
	r := &ruler{env: env, t: t, scope: scope, name: t.Name.String(), d: env.Dialect(), pk: pk, profiles: profiles, types: types, pii: pii, refs: refs}
	for _, step := range []func(context.Context) error{r.lifecycles, r.crossLifecycles, r.columnFacts, r.orderings, r.temporal} {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// fatal reports whether a test's error should stop the table's work.
func fatal(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget)
}

// testShared runs hypotheses that share one query and saves every outcome.
func (r *ruler) testShared(ctx context.Context, hs []hypotheses.Hypothesis, tag string) ([]hypotheses.Outcome, error) {
	outs, err := hypotheses.TestShared(ctx, r.env, hs)
	if err != nil {
		if fatal(ctx, err) {
			return nil, err
		}
		outs = make([]hypotheses.Outcome, len(hs))
		for i, h := range hs {
			outs[i] = hypotheses.Failed(h, err)
		}
	}
	// The outcomes of one query commit together.
	b := r.env.Batch()
	for _, o := range outs {
		if err := hypotheses.Save(ctx, b, o, "rule", tag); err != nil {
			return nil, err
		}
	}
	if err := b.Flush(ctx); err != nil {
		return nil, err
	}
	return outs, nil
}

func (r *ruler) q(col string) string { return r.d.QuoteIdent(col) }

// from is the table as the rules' statements read it: itself, or its
// bounded sample.
func (r *ruler) from() string { return r.scope.From("") }

// note is the sample a finding's figures come from, as a parenthesis to
// end its description with: "" when the table was read whole.
func (r *ruler) note() string { return sampleNote(r.scope.Evidence()) }

func sampleNote(ev string) string {
	if ev == "" {
		return ""
	}
	return " (" + ev + ")"
}

// withSample adds the sample a finding's figures come from to its evidence.
func withSample(ev []string, sample string) []string {
	if sample == "" {
		return ev
	}
	return append(ev, "tested "+sample)
}

func (r *ruler) col(name string) string { return r.name + "." + name }

// --- lifecycles ------------------------------------------------------------

// lifecyclePair is a timestamp that may follow a code list's states.
type lifecyclePair struct {
	ts       string
	expected []string // the states the timestamp is named after, if any
	// what the figure counts, for evidence: "terminated_at set" (the
	// default), "with payments rows".
	what string
}

func (p lifecyclePair) subject() string {
	if p.what != "" {
		return p.what
	}
	return p.ts + " set"
}

// lifecycleCandidates pairs each code list of the table with the nullable
// timestamps that may follow it: those named after one of its values
// (terminated_at and 'terminated'), and, for a column named like a state
// (status, stage), every timestamp that is sometimes NULL.
func (r *ruler) lifecycleCandidates() map[string][]lifecyclePair {
	var stamps []string
	for _, c := range r.t.Columns {
		v, p := r.types[c.Name], r.profiles[c.Name]
		if (v != semantic.TypeTimestamp && v != semantic.TypeDate) || p == nil || p.NullFraction == nil ||
			*p.NullFraction <= 0 || *p.NullFraction >= 1 {
			continue
		}
		stamps = append(stamps, c.Name)
	}
	out := map[string][]lifecyclePair{}
	if len(stamps) == 0 {
		return out
	}
	for _, c := range r.t.Columns {
		v, p := r.types[c.Name], r.profiles[c.Name]
		if v != semantic.TypeEnum || p == nil || p.DistinctCount == nil || *p.DistinctCount < 2 ||
			*p.DistinctCount > lifecycleMaxStates || int64(len(p.TopValues)) < *p.DistinctCount {
			continue
		}
		statusLike := false
		for _, tok := range naming.Words(c.Name) {
			statusLike = statusLike || statusWords[tok]
		}
		states := map[string][]string{} // stem → values
		for _, tv := range p.TopValues {
			for _, w := range naming.Words(tv.Value) {
				states[naming.Stem(w)] = append(states[naming.Stem(w)], tv.Value)
			}
		}
		for _, ts := range stamps {
			var expected []string
			for _, w := range naming.Words(ts) {
				if timeWords[w] {
					continue
				}
				expected = append(expected, states[naming.Stem(w)]...)
			}
			if len(expected) == 0 && !statusLike {
				continue
			}
			sort.Strings(expected)
			out[c.Name] = append(out[c.Name], lifecyclePair{ts: ts, expected: dedupe(expected)})
		}
	}
	return out
}

func dedupe(xs []string) []string {
	var out []string
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// stateCount is one state's rows and how many of them have a timestamp.
type stateCount struct {
	state    string
	rows     int64
	withTime int64
}

func quoteValues(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = "'" + v + "'"
	}
	return joinOr(q)
}

func joinOr(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

func rowsText(n int64) string {
	if n == 1 {
		return "1 row"
	}
	return catalog.Thousands(n) + " rows"
}

func stateList(cs []stateCount) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("'%s' (%s)", c.state, rowsText(c.rows))
	}
	return strings.Join(parts, ", ")
}

// lifecycles tests, for each code list, whether each of its candidate
// timestamps is set for every row in some states and for none in the
// others: one GROUP BY per code list answers all its timestamps.
func (r *ruler) lifecycles(ctx context.Context) error {
	cands := r.lifecycleCandidates()
	enums := make([]string, 0, len(cands))
	for e := range cands {
		enums = append(enums, e)
	}
	sort.Strings(enums)
	for _, e := range enums {
		pairs := cands[e]
		sel := []string{r.q(e) + " AS state", "COUNT(*) AS row_count"}
		for i, p := range pairs {
			sel = append(sel, fmt.Sprintf("COUNT(%s) AS set_%d", r.q(p.ts), i+1))
		}
		sql := fmt.Sprintf("SELECT %s FROM %s GROUP BY %s ORDER BY 2 DESC",
			strings.Join(sel, ", "), r.from(), r.q(e))
		hs := make([]hypotheses.Hypothesis, len(pairs))
		for i, p := range pairs {
			hs[i] = r.lifecycleHypothesis(e, p, sql, fmt.Sprintf("set_%d", i+1))
		}
		outs, err := r.testShared(ctx, hs, "lifecycle")
		if err != nil {
			return err
		}
		if err := r.lifecycleInsights(ctx, e, pairs, outs); err != nil {
			return err
		}
	}
	return nil
}

func (r *ruler) lifecycleHypothesis(enum string, p lifecyclePair, sql, alias string) hypotheses.Hypothesis {
	statement := fmt.Sprintf("%s is a lifecycle timestamp of %s: set for every row in some states and for none in the others",
		r.col(p.ts), r.col(enum))
	expected := fmt.Sprintf("every state of %s has %s on all its rows or on none, and at least one state of each kind", enum, p.ts)
	prior := 0.4
	if len(p.expected) > 0 {
		statement += fmt.Sprintf(" (named after %s)", quoteValues(p.expected))
		expected += fmt.Sprintf("; set for %s", quoteValues(p.expected))
		prior = 0.6
	}
	return hypotheses.Hypothesis{
		ID:        hypotheses.ID("life", r.name, enum, p.ts),
		Statement: statement + ".",
		Subject:   r.col(p.ts),
		SQL:       sql,
		Expected:  expected,
		Prior:     prior,
		Sample:    r.scope.Evidence(),
		JudgeRows: func(rows []hypotheses.Row) hypotheses.Verdict {
			return judgeLifecycle(rows, alias, enum, p)
		},
	}
}

// judgeLifecycle reads the per-state counts of one timestamp.
func judgeLifecycle(rows []hypotheses.Row, alias, enum string, p lifecyclePair) hypotheses.Verdict {
	var all, none, mixed []stateCount
	var breaks int64
	near := true
	for _, row := range rows {
		s, ok := row.Text("state")
		if !ok {
			s = "NULL"
		}
		n, _ := row.Int("row_count")
		w, _ := row.Int(alias)
		c := stateCount{state: s, rows: n, withTime: w}
		switch {
		case n == 0:
		case w == n:
			all = append(all, c)
		case w == 0:
			none = append(none, c)
		default:
			mixed = append(mixed, c)
			minority := min(w, n-w)
			breaks += minority
			if float64(minority) > nearHoldShare*float64(n) {
				near = false
			}
		}
	}
	byState := func(cs []stateCount) {
		sort.Slice(cs, func(i, j int) bool { return cs[i].state < cs[j].state })
	}
	byState(all)
	byState(none)
	byState(mixed)
	var ev []string
	if len(all) > 0 {
		ev = append(ev, fmt.Sprintf("%s for every row in %s", p.subject(), stateList(all)))
	}
	if len(none) > 0 {
		ev = append(ev, fmt.Sprintf("%s for no row in %s", p.subject(), stateList(none)))
	}
	for _, c := range mixed {
		ev = append(ev, fmt.Sprintf("%s for %s of the %s in '%s'", p.subject(), catalog.Thousands(c.withTime), rowsText(c.rows), c.state))
	}
	if len(rows) == 0 {
		return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.3, Evidence: []string{"the table has no rows"}}
	}
	missing := []string{}
	for _, v := range p.expected {
		if !containsState(all, v) {
			missing = append(missing, v)
		}
	}
	switch {
	case len(mixed) == 0 && len(all) > 0 && len(none) > 0 && len(missing) == 0:
		return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev}
	case len(mixed) > 0 && near && len(all)+len(none) > 0:
		ev = append(ev, fmt.Sprintf("the rule holds but for %s", rowsText(breaks)))
	case len(missing) > 0:
		ev = append(ev, fmt.Sprintf("not set for every row in %s, after which it is named", quoteValues(missing)))
	case len(all) == 0 || len(none) == 0:
		ev = append(ev, fmt.Sprintf("no state of %s tells the rows %s from the others", enum, p.subject()))
	}
	// A state whose rows differ breaks the rule wherever the rows were
	// read: on a sample as surely as on the table.
	return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.95, Evidence: ev, Observed: len(mixed) > 0}
}

func containsState(cs []stateCount, v string) bool {
	for _, c := range cs {
		if c.state == v {
			return true
		}
	}
	return false
}

// lifecycleInsights states the confirmed timestamps of one code list as a
// business rule, and a lifecycle broken by a few rows as a quality finding.
func (r *ruler) lifecycleInsights(ctx context.Context, enum string, pairs []lifecyclePair, outs []hypotheses.Outcome) error {
	var rules, cols, ids, ev []string
	for i, o := range outs {
		p := pairs[i]
		switch {
		case o.Doc.Status == hypotheses.Confirmed:
			set := statesWith(o.Rows, fmt.Sprintf("set_%d", i+1))
			rules = append(rules, fmt.Sprintf("%s is set only when %s is %s", p.ts, enum, quoteValues(set)))
			cols = append(cols, r.col(p.ts))
			ids = append(ids, o.Doc.ID)
			ev = append(ev, o.Verdict.Evidence...)
		case o.Doc.Status == hypotheses.Refuted && strings.HasPrefix(last(o.Verdict.Evidence), "the rule holds but for"):
			ins := catalog.InsightDoc{Kind: "quality", Tables: []string{r.name}, Columns: []string{r.col(enum), r.col(p.ts)},
				Description: fmt.Sprintf("%s follows %s except in %s: %s%s.", r.col(p.ts), r.col(enum),
					strings.TrimPrefix(last(o.Verdict.Evidence), "the rule holds but for "), strings.Join(o.Verdict.Evidence[:len(o.Verdict.Evidence)-1], "; "), r.note())}
			if err := catalog.Insights.Save(ctx, r.env, "quality:lifecycle:"+r.col(p.ts), ins, 0.9,
				withSample(append([]string{"hypothesis " + o.Doc.ID}, o.Verdict.Evidence...), r.scope.Evidence()), "quality"); err != nil {
				return err
			}
		}
	}
	if len(rules) == 0 {
		return nil
	}
	ins := catalog.InsightDoc{Kind: "business_rule", Tables: []string{r.name}, Columns: append([]string{r.col(enum)}, cols...),
		Description: fmt.Sprintf("%s is a lifecycle: %s%s.", r.col(enum), strings.Join(rules, "; "), r.note())}
	return catalog.Insights.Save(ctx, r.env, "business_rule:lifecycle:"+r.col(enum), ins, r.scope.Confidence(0.95),
		withSample(append([]string{"hypotheses " + strings.Join(ids, ", ")}, ev...), r.scope.Evidence()), "business_rule")
}

func last(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[len(xs)-1]
}

// --- claims about single columns ---------------------------------------------

// columnClaim is one claim about one column, answered by figures of the
// table's shared aggregate.
type columnClaim struct {
	kind   string // never_null | unique | non_negative
	column string
	alias  string // prefix of the claim's figures in the query
	prior  float64
}

// declaredUnique reports whether col alone is the table's key or under a
// unique constraint or index.
func (r *ruler) declaredUnique(col string) bool {
	if len(r.pk) == 1 && r.pk[0] == col || len(r.t.PrimaryKey) == 1 && r.t.PrimaryKey[0] == col {
		return true
	}
	for _, u := range r.t.Uniques {
		if len(u) == 1 && u[0] == col {
			return true
		}
	}
	for _, ix := range r.t.Indexes {
		if ix.Unique && len(ix.Columns) == 1 && ix.Columns[0] == col {
			return true
		}
	}
	return false
}

// uniqueTypes are the kinds of values a unique column of which says
// something: keys, codes, contact points, names of things.
var uniqueTypes = set(semantic.TypeIdentifier, semantic.TypeUUID, semantic.TypeEmail, semantic.TypePhone, semantic.TypeURL, semantic.TypeLabel, semantic.TypeUnknown)

func (r *ruler) claims() []columnClaim {
	var out []columnClaim
	counts := map[string]int{}
	aliases := map[string]bool{}
	alias := func(col string) string {
		var b strings.Builder
		for _, c := range strings.ToLower(col) {
			if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
				b.WriteRune(c)
			} else {
				b.WriteByte('_')
			}
		}
		a := "c_" + b.String()
		for i := 2; aliases[a]; i++ {
			a = fmt.Sprintf("c_%s_%d", b.String(), i)
		}
		aliases[a] = true
		return a
	}
	for _, c := range r.t.Columns {
		p, v := r.profiles[c.Name], r.types[c.Name]
		if p == nil || p.NullFraction == nil || p.Rows < ruleMinRows {
			continue
		}
		inKey := slices.Contains(r.pk, c.Name) || slices.Contains(r.t.PrimaryKey, c.Name)
		nonNull := float64(p.Rows) * (1 - *p.NullFraction)
		a := ""
		add := func(kind string, prior float64, limit int) {
			if counts[kind] >= limit {
				return
			}
			if a == "" {
				a = alias(c.Name)
			}
			counts[kind]++
			out = append(out, columnClaim{kind: kind, column: c.Name, alias: a, prior: prior})
		}
		if c.Nullable && !inKey && *p.NullFraction == 0 {
			add("never_null", 0.8, maxNeverNull)
		}
		// Counting distinct values of a sampled (large) table costs a sort
		// of every value: its key candidates were measured by sketches.
		if !p.Sampled && !r.declaredUnique(c.Name) && !inKey && uniqueTypes[v] && p.DistinctCount != nil && nonNull >= ruleMinRows &&
			float64(*p.DistinctCount) >= uniqueMinShare*nonNull {
			prior := 0.4
			if float64(*p.DistinctCount) >= nonNull {
				prior = 0.7
			}
			add("unique", prior, maxUnique)
		}
		if v == semantic.TypeMeasure && semantic.DeclaredNumeric(c.Type) && nonNull >= ruleMinRows {
			if semantic.NamedLikeMeasure(c.Name) && !semantic.NamedAfter(c.Name, signedWords) && p.Quantiles != nil && p.Quantiles.P25 >= 0 {
				add("non_negative", 0.6, maxNonNeg)
			}
		}
	}
	return out
}

// columnFacts tests the table's single-column claims with one aggregate.
// On a sample the profile read too, the claims its figures settle are
// judged on them (profiledFacts): the aggregate would count the same rows
// again, and a sample of a table far larger than the page cache costs a
// lookup per row each time it is read.
func (r *ruler) columnFacts(ctx context.Context) error {
	claims := r.claims()
	if len(claims) == 0 {
		return nil
	}
	settled, rows := r.profiledFacts(ctx, claims)
	var judged []columnClaim
	var outs []hypotheses.Outcome
	var left []columnClaim
	b := r.env.Batch()
	for i, c := range claims {
		if settled == nil || settled[i] == nil {
			left = append(left, c)
			continue
		}
		h := r.claimHypothesis(c, profiledNote+r.factsSQL([]columnClaim{c}))
		o := hypotheses.Judged(h, settled[i])
		o.Verdict.Evidence = append(o.Verdict.Evidence, fmt.Sprintf("counted by the profile of %s, which read the same %s rows", r.name, catalog.Thousands(rows)))
		if err := hypotheses.Save(ctx, b, o, "rule", "column"); err != nil {
			return err
		}
		judged, outs = append(judged, c), append(outs, o)
	}
	if err := b.Flush(ctx); err != nil {
		return err
	}
	if len(left) > 0 {
		sql := r.factsSQL(left)
		hs := make([]hypotheses.Hypothesis, len(left))
		for i, c := range left {
			hs[i] = r.claimHypothesis(c, sql)
		}
		tested, err := r.testShared(ctx, hs, "column")
		if err != nil {
			return err
		}
		// A unique claim that failed names the values held twice.
		for i, o := range tested {
			if left[i].kind != "unique" || o.Doc.Status != hypotheses.Refuted {
				continue
			}
			if ev, err := r.duplicates(ctx, left[i].column); err != nil {
				if fatal(ctx, err) {
					return err
				}
			} else {
				o.Verdict.Evidence = append(o.Verdict.Evidence, ev...)
				if err := hypotheses.Save(ctx, r.env, o, "rule", "column"); err != nil {
					return err
				}
			}
		}
		judged, outs = append(judged, left...), append(outs, tested...)
	}
	return r.columnInsight(ctx, judged, outs)
}

// profiledNote marks a claim's statement as not run: its figures are the
// profile's, of the same rows.
const profiledNote = "/* counted by the profile of the same sample */ "

// profiledFacts returns, for each claim the profile's figures settle, the
// row its statement would return (nil for the others), and the sample's
// rows; nothing when the table is read whole or the profile read another
// sample. A count the profile gives exactly (no NULL, no value below 0
// among numbers) settles a claim; a count of negatives it does not know
// does not.
func (r *ruler) profiledFacts(ctx context.Context, claims []columnClaim) ([]hypotheses.Row, int64) {
	if !r.scope.Sampled {
		return nil, 0
	}
	e, err := r.env.Catalog.Get(ctx, catalog.KindTableStats, r.name)
	if err != nil || e.RunID != r.env.RunID {
		return nil, 0
	}
	var st catalog.TableStatsDoc
	if e.Decode(&st) != nil || st.Sample == "" || st.Sample != r.scope.ID() {
		return nil, 0
	}
	out := make([]hypotheses.Row, len(claims))
	found := false
	for i, c := range claims {
		p := r.profiles[c.column]
		if p == nil || !p.Sampled || p.Rows != st.Rows || p.NullFraction == nil {
			continue
		}
		nonNull := int64(math.Round(float64(p.Rows) * (1 - *p.NullFraction)))
		row := hypotheses.Row{"row_count": p.Rows, c.alias + "_non_null": nonNull}
		switch c.kind {
		case "never_null":
		case "non_negative":
			lo, okLo := profileNumber(p.Min)
			hi, okHi := profileNumber(p.Max)
			if !okLo || !okHi || p.Mean == nil || lo < 0 {
				continue
			}
			row[c.alias+"_negative"], row[c.alias+"_min"], row[c.alias+"_max"] = int64(0), lo, hi
		default:
			continue // a distinct count of the sample is not the profile's
		}
		out[i], found = row, true
	}
	if !found {
		return nil, 0
	}
	return out, st.Rows
}

// profileNumber reads a profile's least or greatest value as a number.
func profileNumber(s *string) (float64, bool) {
	if s == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(*s, 64)
	return f, err == nil
}

// numbersOnly is a dialect of dynamic types that selects a column's
// numbers more cheaply than Numeric's cast: the claims want their count,
// least and greatest, which the cast does not change.
type numbersOnly interface {
	NumbersOnly(expr string) string
}

// factsSQL is the aggregate that counts claims' figures.
func (r *ruler) factsSQL(claims []columnClaim) string {
	sel := []string{"COUNT(*) AS row_count"}
	seen := map[string]bool{}
	for _, c := range claims {
		q := r.q(c.column)
		if !seen[c.alias] {
			sel = append(sel, fmt.Sprintf("COUNT(%s) AS %s_non_null", q, c.alias))
			seen[c.alias] = true
		}
		switch c.kind {
		case "unique":
			// The dialect's exact count: COUNT(DISTINCT) everywhere but on
			// Spark, which expands every row once per COUNT(DISTINCT) of a
			// statement, and this one holds one per unique claim.
			dc, _ := r.d.CountDistinct(q, false)
			sel = append(sel, fmt.Sprintf("%s AS %s_distinct", dc, c.alias))
		case "non_negative":
			num := q
			if r.d.Capabilities().DynamicTypes {
				// Text in a numeric column compares above every number.
				num = r.d.Numeric(q)
				if n, ok := r.d.(numbersOnly); ok {
					num = n.NumbersOnly(q)
				}
			}
			sel = append(sel, fmt.Sprintf("COUNT(CASE WHEN %s < 0 THEN 1 END) AS %s_negative", num, c.alias),
				fmt.Sprintf("MIN(%s) AS %s_min", num, c.alias), fmt.Sprintf("MAX(%s) AS %s_max", num, c.alias))
		}
	}
	return fmt.Sprintf("SELECT %s FROM %s", strings.Join(sel, ", "), r.from())
}

func (r *ruler) claimHypothesis(c columnClaim, sql string) hypotheses.Hypothesis {
	col := r.col(c.column)
	h := hypotheses.Hypothesis{ID: hypotheses.ID("rule", c.kind, r.name, c.column), Subject: col, SQL: sql, Prior: c.prior,
		Sample: r.scope.Evidence()}
	nn := c.alias + "_non_null"
	switch c.kind {
	case "never_null":
		h.Statement = fmt.Sprintf("%s is never NULL, though the schema allows NULL.", col)
		h.Expected = "as many non-NULL values as rows"
		h.Judge = func(row hypotheses.Row) hypotheses.Verdict {
			n, _ := row.Int("row_count")
			v, _ := row.Int(nn)
			ev := []string{fmt.Sprintf("%s, %s non-NULL", rowsText(n), catalog.Thousands(v))}
			if n > 0 && v == n {
				return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev}
			}
			return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.95, Observed: n > v,
				Evidence: append(ev, fmt.Sprintf("%s NULL", catalog.Thousands(n-v)))}
		}
	case "unique":
		h.Statement = fmt.Sprintf("%s is unique in practice: no two rows share a value, though no constraint says so.", col)
		h.Expected = "as many distinct values as non-NULL values"
		h.Judge = func(row hypotheses.Row) hypotheses.Verdict {
			v, _ := row.Int(nn)
			d, _ := row.Int(c.alias + "_distinct")
			ev := []string{fmt.Sprintf("%s non-NULL values, %s distinct", catalog.Thousands(v), catalog.Thousands(d))}
			if v > 0 && d == v {
				return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev}
			}
			if v == 0 {
				return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.3, Evidence: ev}
			}
			return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.95, Evidence: ev, Observed: d < v}
		}
	case "non_negative":
		h.Statement = fmt.Sprintf("%s is never negative (it reads as a quantity).", col)
		h.Expected = "0 negative values"
		h.Judge = func(row hypotheses.Row) hypotheses.Verdict {
			v, _ := row.Int(nn)
			neg, _ := row.Int(c.alias + "_negative")
			lo, okLo := row.Float(c.alias + "_min")
			hi, okHi := row.Float(c.alias + "_max")
			ev := []string{fmt.Sprintf("%s negative values among %s non-NULL", catalog.Thousands(neg), catalog.Thousands(v))}
			if okLo && okHi {
				ev = append(ev, fmt.Sprintf("values range from %s to %s", number(lo), number(hi)))
			}
			switch {
			case v == 0:
				return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.3, Evidence: ev}
			case neg == 0:
				return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.95, Evidence: ev}
			}
			return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.95, Evidence: ev, Observed: true}
		}
	}
	return h
}

func number(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return catalog.Thousands(int64(f))
	}
	return fmt.Sprintf("%.4g", f)
}

// duplicates counts the values of col held by more than one row and names
// a few.
func (r *ruler) duplicates(ctx context.Context, col string) ([]string, error) {
	q := r.q(col)
	sql := fmt.Sprintf("SELECT %s AS v, COUNT(*) AS n FROM %s WHERE %s IS NOT NULL GROUP BY %s HAVING COUNT(*) > 1 ORDER BY 2 DESC, 1",
		r.d.CastText(q), r.from(), q, q)
	res, err := r.env.Query(ctx, sql)
	if err != nil {
		return nil, err
	}
	var ex []string
	for i, row := range res.Rows {
		if i >= 5 || len(row) == 0 {
			break
		}
		v := fmt.Sprint(row[0])
		if cat := r.pii[col]; cat != "" {
			// Values the profile may not list: the catalog's guard
			// would not know them.
			v = privacy.MaskOnce(cat, v)
		}
		ex = append(ex, v)
	}
	n := len(res.Rows)
	what := fmt.Sprintf("%d values held by more than one row", n)
	if n == 1 {
		what = "1 value held by more than one row"
	}
	if res.Truncated {
		what = fmt.Sprintf("at least %d values held by more than one row", n)
	}
	return []string{what + ", e.g. " + strings.Join(ex, ", ")}, nil
}

// columnInsight states the confirmed column claims of the table as one
// business rule: what the data guarantees that the schema does not.
func (r *ruler) columnInsight(ctx context.Context, claims []columnClaim, outs []hypotheses.Outcome) error {
	by := map[string][]string{}
	var cols, ids []string
	for i, o := range outs {
		c := claims[i]
		if o.Doc.Status != hypotheses.Confirmed || c.kind == "non_negative" {
			continue
		}
		by[c.kind] = append(by[c.kind], c.column)
		cols = append(cols, r.col(c.column))
		ids = append(ids, o.Doc.ID)
	}
	var parts []string
	if u := by["unique"]; len(u) > 0 {
		verb := "is"
		if len(u) > 1 {
			verb = "are"
		}
		parts = append(parts, fmt.Sprintf("%s %s unique in practice", catalog.JoinAnd(u), verb))
	}
	if nn := by["never_null"]; len(nn) > 0 {
		verb := "is"
		if len(nn) > 1 {
			verb = "are"
		}
		parts = append(parts, fmt.Sprintf("%s %s never NULL", catalog.JoinAnd(nn), verb))
	}
	if len(parts) == 0 {
		return nil
	}
	ins := catalog.InsightDoc{Kind: "business_rule", Tables: []string{r.name}, Columns: dedupeKeep(cols),
		Description: fmt.Sprintf("In %s, %s, though no constraint says so%s.", r.name, strings.Join(parts, ", and "), r.note())}
	return catalog.Insights.Save(ctx, r.env, "business_rule:undeclared:"+r.name, ins, r.scope.Confidence(0.95),
		withSample([]string{"hypotheses " + strings.Join(ids, ", ")}, r.scope.Evidence()), "business_rule")
}

func dedupeKeep(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// --- time ----------------------------------------------------------------------

// eventTime picks the table's main event timestamp: a timestamp or date
// (no birth date) with the fewest NULLs, the earliest column on a tie.
func (r *ruler) eventTime() (string, time.Time, time.Time, bool) {
	best, bestNull := "", 2.0
	var lo, hi time.Time
	for _, c := range r.t.Columns {
		v, p := r.types[c.Name], r.profiles[c.Name]
		if (v != semantic.TypeTimestamp && v != semantic.TypeDate) || p == nil || p.NullFraction == nil || p.Min == nil || p.Max == nil {
			continue
		}
		if semantic.NamedLikeBirthDate(c.Name) {
			continue
		}
		if float64(p.Rows)*(1-*p.NullFraction) < temporalMinRows {
			continue
		}
		a, okA := parseTime(*p.Min)
		b, okB := parseTime(*p.Max)
		if !okA || !okB || !b.After(a) {
			continue
		}
		if *p.NullFraction < bestNull {
			best, bestNull, lo, hi = c.Name, *p.NullFraction, a, b
		}
	}
	return best, lo, hi, best != ""
}

func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999",
		"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	if len(s) >= 10 {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

var weekdays = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

// temporal tests whether the table grows over time and whether its main
// timestamp follows the week.
func (r *ruler) temporal(ctx context.Context) error {
	ts, lo, hi, ok := r.eventTime()
	if !ok {
		return nil
	}
	q := r.q(ts)
	table := r.from()
	col := r.col(ts)
	// Growth and a weekly pattern are read from how the rows spread over
	// time. A table far larger than the sample is read through a sample
	// that may be no picture of that: the first rows the engine returns
	// (its oldest, perhaps), or whole blocks, whose rows come in runs of
	// neighbours (64 blocks of dates a few days apart made a uniform week
	// look 2.6× busier on Saturdays than on Thursdays).
	skip := ""
	if r.scope.Sampled && !r.scope.Random {
		skip = fmt.Sprintf("%s holds %s rows, more than this run reads whole, and its sample (%s) holds rows in runs, not drawn one by one: "+
			"how its rows spread over time cannot be read from it",
			r.name, r.scope.Size(), r.scope.How)
	}
	test := func(h hypotheses.Hypothesis) ([]hypotheses.Outcome, error) {
		if skip != "" {
			return r.untested(ctx, []hypotheses.Hypothesis{h}, skip, "temporal")
		}
		return r.testShared(ctx, []hypotheses.Hypothesis{h}, "temporal")
	}
	if hi.Sub(lo) >= 60*24*time.Hour {
		mid := lo.Add(hi.Sub(lo) / 2).Format("2006-01-02")
		day := r.d.DatePart(warehouse.PartDate, q)
		// mid is a date, but every literal goes through the dialect, which
		// alone knows how its engine reads one.
		sql := fmt.Sprintf("SELECT COUNT(CASE WHEN %s < %s THEN 1 END) AS earlier_half, COUNT(CASE WHEN %s >= %s THEN 1 END) AS later_half FROM %s",
			day, r.d.Literal(mid), day, r.d.Literal(mid), table)
		span := fmt.Sprintf("%s to %s", lo.Format("2006-01-02"), hi.Format("2006-01-02"))
		h := hypotheses.Hypothesis{
			ID:        hypotheses.ID("grow", r.name, ts),
			Statement: fmt.Sprintf("%s grows over time: more of its rows have %s in the later half of its span (%s) than in the earlier half.", r.name, ts, span),
			Subject:   r.name,
			SQL:       sql,
			Expected:  fmt.Sprintf("at least %s× as many rows from %s on as before", strconv.FormatFloat(growthRatio, 'f', -1, 64), mid),
			Prior:     0.5,
			Sample:    r.scope.Evidence(),
			Judge: func(row hypotheses.Row) hypotheses.Verdict {
				a, _ := row.Int("earlier_half")
				b, _ := row.Int("later_half")
				ev := []string{fmt.Sprintf("%s before %s, %s from then on", rowsText(a), mid, rowsText(b))}
				switch {
				case a+b < temporalMinRows:
					return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.3, Evidence: ev}
				case float64(b) >= growthRatio*float64(a):
					if a > 0 {
						ev = append(ev, fmt.Sprintf("the later half holds %.1f× the earlier", float64(b)/float64(a)))
					}
					return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.9, Evidence: ev}
				}
				return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.9, Evidence: ev}
			},
		}
		outs, err := test(h)
		if err != nil {
			return err
		}
		if o := outs[0]; o.Doc.Status == hypotheses.Confirmed {
			a, _ := o.Row.Int("earlier_half")
			b, _ := o.Row.Int("later_half")
			desc := fmt.Sprintf("%s grows over time: %s of its rows have %s from %s on, against %s before.",
				r.name, catalog.Thousands(b), ts, mid, catalog.Thousands(a))
			if a > 0 {
				desc = fmt.Sprintf("%s grows over time: %s of its rows have %s from %s on, %.1f× the %s before.",
					r.name, catalog.Thousands(b), ts, mid, float64(b)/float64(a), catalog.Thousands(a))
			}
			if r.scope.Sampled {
				desc = strings.TrimSuffix(desc, ".") + r.note() + "."
			}
			ins := catalog.InsightDoc{Kind: "trend", Tables: []string{r.name}, Columns: []string{col}, Description: desc}
			if err := catalog.Insights.Save(ctx, r.env, "trend:growth:"+col, ins, r.scope.Confidence(0.9),
				withSample(append([]string{"hypothesis " + o.Doc.ID}, o.Verdict.Evidence...), r.scope.Evidence()), "trend"); err != nil {
				return err
			}
		}
	}
	dow := r.d.DatePart(warehouse.PartDOW, q)
	sql := fmt.Sprintf("SELECT %s AS weekday, COUNT(*) AS row_count FROM %s WHERE %s IS NOT NULL GROUP BY 1 ORDER BY 1", dow, table, q)
	h := hypotheses.Hypothesis{
		ID:        hypotheses.ID("week", r.name, ts),
		Statement: fmt.Sprintf("%s has a weekly pattern: some days of the week hold clearly more rows than others.", col),
		Subject:   col,
		SQL:       sql,
		Expected:  fmt.Sprintf("weekday counts unlike a uniform spread (χ² above %.2f, 6 degrees of freedom) and the busiest day %.1f× the quietest or more", weeklyChi2, weeklyRatio),
		Prior:     0.5,
		Sample:    r.scope.Evidence(),
		JudgeRows: judgeWeekly,
	}
	_, err := test(h)
	return err
}

func judgeWeekly(rows []hypotheses.Row) hypotheses.Verdict {
	var counts [7]float64
	var total float64
	for _, row := range rows {
		d, ok := row.Int("weekday")
		n, _ := row.Int("row_count")
		if !ok || d < 0 || d > 6 {
			continue
		}
		counts[d] += float64(n)
		total += float64(n)
	}
	if total < temporalMinRows {
		return hypotheses.Verdict{Status: hypotheses.Inconclusive, Confidence: 0.3,
			Evidence: []string{fmt.Sprintf("%.0f dated rows, too few to tell", total)}}
	}
	exp := total / 7
	chi2 := 0.0
	hiDay, loDay := 0, 0
	var shares []string
	for d, n := range counts {
		chi2 += (n - exp) * (n - exp) / exp
		if n > counts[hiDay] {
			hiDay = d
		}
		if n < counts[loDay] {
			loDay = d
		}
	}
	for _, d := range []int{1, 2, 3, 4, 5, 6, 0} {
		shares = append(shares, fmt.Sprintf("%s %.1f%%", weekdays[d][:3], 100*counts[d]/total))
	}
	ratio := math.Inf(1)
	if counts[loDay] > 0 {
		ratio = counts[hiDay] / counts[loDay]
	}
	ev := []string{strings.Join(shares, ", "),
		fmt.Sprintf("busiest %s, quietest %s (%.2f× apart); χ² = %.1f against %.2f for p < 0.001", weekdays[hiDay], weekdays[loDay], ratio, chi2, weeklyChi2)}
	if chi2 > weeklyChi2 && ratio >= weeklyRatio {
		return hypotheses.Verdict{Status: hypotheses.Confirmed, Confidence: 0.9, Evidence: ev}
	}
	return hypotheses.Verdict{Status: hypotheses.Refuted, Confidence: 0.9, Evidence: ev}
}

// --- lifecycles across a reference ---------------------------------------------

// children lists the tables that refer to r's table by one column.
func (r *ruler) children() []semantic.Referrer {
	return r.refs.Of(r.t, r.pk)
}

// crossLifecycles tests, for each state-like code list of the table, the
// rules its states set in the tables that refer to it: whether a row has
// any child rows at all (payments exist only for paid orders), and
// whether a child's timestamp named after a state is set exactly for the
// children of rows in some states (a shipment's delivered_at and its
// order's 'delivered').
func (r *ruler) crossLifecycles(ctx context.Context) error {
	var enums []string
	for _, c := range r.t.Columns {
		v, p := r.types[c.Name], r.profiles[c.Name]
		if v != semantic.TypeEnum || p == nil || p.DistinctCount == nil || *p.DistinctCount < 2 ||
			*p.DistinctCount > lifecycleMaxStates || int64(len(p.TopValues)) < *p.DistinctCount {
			continue
		}
		if semantic.NamedAfter(c.Name, statusWords) {
			enums = append(enums, c.Name)
		}
	}
	if len(enums) == 0 {
		return nil
	}
	kids := r.children()
	if len(kids) == 0 {
		return nil
	}
	// The children's profiles only: listing the run's every profile for
	// each table with a state column made this task quadratic in the
	// tables (a fifth of a 500-table run's CPU, decoding JSON).
	byKey := map[string]catalog.ProfileDoc{}
	listed := map[string]bool{}
	for _, k := range kids {
		kt := k.Table.Name.String()
		if listed[kt] {
			continue
		}
		listed[kt] = true
		profiles, err := r.env.Catalog.List(ctx, catalog.Filter{Kind: catalog.KindProfile, RunID: r.env.RunID, KeyPrefix: kt + "."})
		if err != nil {
			return err
		}
		for _, e := range profiles {
			var p catalog.ProfileDoc
			if e.Decode(&p) == nil && !p.Provisional {
				byKey[e.Key] = p
			}
		}
	}
	for _, e := range enums {
		states := map[string][]string{}
		for _, tv := range r.profiles[e].TopValues {
			for _, w := range naming.Words(tv.Value) {
				states[naming.Stem(w)] = append(states[naming.Stem(w)], tv.Value)
			}
		}
		for _, k := range kids {
			kt := k.Table.Name.String()
			fk, pk := r.q(k.Column), r.q(k.Ref)
			ks, err := r.env.Scope(ctx, k.Table)
			if err != nil {
				return err
			}
			// Existence: which rows have children, by state. A child table
			// far larger than the sample is not read for its distinct
			// references: each parent row (or sampled row) looks its
			// children up by an index on the reference, if one exists.
			sample := experts.JoinEvidence(r.scope, ks)
			untested := ""
			var sql string
			switch {
			case !ks.Sampled:
				sql = fmt.Sprintf("SELECT p.%s AS state, COUNT(*) AS row_count, COUNT(k.ref) AS set_1 FROM %s LEFT JOIN "+
					"(SELECT DISTINCT c.%s AS ref FROM %s WHERE c.%s IS NOT NULL) k ON k.ref = p.%s GROUP BY p.%s ORDER BY 2 DESC",
					r.q(e), r.scope.From("p"), fk, ks.From("c"), fk, pk, r.q(e))
			case experts.LeadsIndex(k.Table, k.Column):
				sample = r.scope.Evidence()
				sql = fmt.Sprintf("SELECT j.state AS state, COUNT(*) AS row_count, COUNT(j.ref) AS set_1 FROM "+
					"(SELECT p.%s AS state, %s AS ref FROM %s) j GROUP BY j.state ORDER BY 2 DESC",
					r.q(e), r.probe(ks.Quoted(), "c", "c."+fk+" = p."+pk), r.scope.From("p"))
			default:
				untested = fmt.Sprintf("%s holds %s rows and no index starts with %s: telling which %s rows have any would read it whole",
					kt, ks.Size(), k.Column, r.name)
			}
			one, many := semantic.Humanize(semantic.EntityType(r.t.Name.Name)), kt
			h := hypotheses.Hypothesis{
				ID: hypotheses.ID("life-has", r.name, e, kt, k.Column),
				Statement: fmt.Sprintf("%s decides which %s rows have %s rows (by %s.%s): every %s in some states has at least one, and none in the others has any.",
					r.col(e), r.name, kt, kt, k.Column, one),
				Subject:  r.col(e),
				SQL:      sql,
				Expected: fmt.Sprintf("every state of %s has %s rows for all its rows or for none, and at least one state of each kind", e, kt),
				Prior:    0.3,
				Sample:   sample,
				JudgeRows: func(rows []hypotheses.Row) hypotheses.Verdict {
					return judgeLifecycle(rows, "set_1", e, lifecyclePair{what: "with " + kt + " rows"})
				},
			}
			var outs []hypotheses.Outcome
			if untested != "" {
				outs, err = r.untested(ctx, []hypotheses.Hypothesis{h}, untested, "lifecycle")
			} else {
				outs, err = r.testShared(ctx, []hypotheses.Hypothesis{h}, "lifecycle")
			}
			if err != nil {
				return err
			}
			if o := outs[0]; o.Doc.Status == hypotheses.Confirmed {
				set := statesWith(o.Rows, "set_1")
				ins := catalog.InsightDoc{Kind: "business_rule", Tables: []string{r.name, kt}, Columns: []string{r.col(e), kt + "." + k.Column},
					Description: fmt.Sprintf("%s has %s rows only when its %s is %s, and then always%s.", capitalizeFirst(naming.Article(one)), many, e, quoteValues(set), sampleNote(sample))}
				if err := catalog.Insights.Save(ctx, r.env, "business_rule:lifecycle:"+r.col(e)+":"+kt+"."+k.Column, ins, sampledConfidence(0.95, sample),
					withSample(append([]string{"hypothesis " + o.Doc.ID}, o.Verdict.Evidence...), sample), "business_rule"); err != nil {
					return err
				}
			}
			// Timestamps of the children named after a state.
			var pairs []lifecyclePair
			for _, c := range k.Table.Columns {
				p, ok := byKey[kt+"."+c.Name]
				if !ok || p.NullFraction == nil || *p.NullFraction <= 0 || *p.NullFraction >= 1 || p.Min == nil || p.Max == nil {
					continue
				}
				if _, ok := parseTime(*p.Min); !ok {
					continue
				}
				if _, ok := parseTime(*p.Max); !ok {
					continue
				}
				var expected []string
				timed := false
				for _, w := range naming.Words(c.Name) {
					if timeWords[w] {
						timed = true
						continue
					}
					expected = append(expected, states[naming.Stem(w)]...)
				}
				if timed && len(expected) > 0 {
					sort.Strings(expected)
					pairs = append(pairs, lifecyclePair{ts: c.Name, expected: dedupe(expected)})
				}
			}
			if len(pairs) == 0 {
				continue
			}
			sample = experts.JoinEvidence(r.scope, ks)
			if ks.Sampled && r.scope.Sampled {
				// Both far larger than the sample: the children's sample
				// looks each one's parent up by its key, where a join of
				// two samples would find almost no pair.
				sample = ks.Evidence()
				sel := []string{"j.state AS state", "COUNT(*) AS row_count"}
				inner := []string{fmt.Sprintf("(SELECT p.%s FROM %s p WHERE p.%s = c.%s %s) AS state", r.q(e), r.scope.Quoted(), pk, fk, r.d.Limit(1)),
					r.probe(r.scope.Quoted(), "p", "p."+pk+" = c."+fk) + " AS found"}
				for i, p := range pairs {
					sel = append(sel, fmt.Sprintf("COUNT(j.t_%d) AS set_%d", i+1, i+1))
					inner = append(inner, fmt.Sprintf("c.%s AS t_%d", r.q(p.ts), i+1))
				}
				sql = fmt.Sprintf("SELECT %s FROM (SELECT %s FROM %s WHERE c.%s IS NOT NULL) j WHERE j.found IS NOT NULL GROUP BY j.state ORDER BY 2 DESC",
					strings.Join(sel, ", "), strings.Join(inner, ", "), ks.From("c"), fk)
			} else {
				sel := []string{"p." + r.q(e) + " AS state", "COUNT(*) AS row_count"}
				for i, p := range pairs {
					sel = append(sel, fmt.Sprintf("COUNT(c.%s) AS set_%d", r.q(p.ts), i+1))
				}
				sql = fmt.Sprintf("SELECT %s FROM %s JOIN %s ON c.%s = p.%s GROUP BY p.%s ORDER BY 2 DESC",
					strings.Join(sel, ", "), ks.From("c"), r.scope.From("p"), fk, pk, r.q(e))
			}
			hs := make([]hypotheses.Hypothesis, len(pairs))
			for i, p := range pairs {
				alias, p := fmt.Sprintf("set_%d", i+1), p
				hs[i] = hypotheses.Hypothesis{
					ID: hypotheses.ID("life-ref", r.name, e, kt, k.Column, p.ts),
					Statement: fmt.Sprintf("%s.%s is a lifecycle timestamp of %s (through %s.%s): set for every %s row whose %s is in some states and for none in the others (named after %s).",
						kt, p.ts, r.col(e), kt, k.Column, kt, one, quoteValues(p.expected)),
					Subject:  kt + "." + p.ts,
					SQL:      sql,
					Expected: fmt.Sprintf("every state of %s has %s on all its %s rows or on none; set for %s", r.col(e), p.ts, kt, quoteValues(p.expected)),
					Prior:    0.5,
					Sample:   sample,
					JudgeRows: func(rows []hypotheses.Row) hypotheses.Verdict {
						return judgeLifecycle(rows, alias, e, p)
					},
				}
			}
			outs, err = r.testShared(ctx, hs, "lifecycle")
			if err != nil {
				return err
			}
			var rules, cols, ids []string
			for i, o := range outs {
				if o.Doc.Status != hypotheses.Confirmed {
					continue
				}
				rules = append(rules, fmt.Sprintf("%s is set only when the %s's %s is %s", pairs[i].ts, one, e,
					quoteValues(statesWith(o.Rows, fmt.Sprintf("set_%d", i+1)))))
				cols = append(cols, kt+"."+pairs[i].ts)
				ids = append(ids, o.Doc.ID)
			}
			if len(rules) > 0 {
				ins := catalog.InsightDoc{Kind: "business_rule", Tables: []string{r.name, kt}, Columns: append([]string{r.col(e)}, cols...),
					Description: fmt.Sprintf("%s follows the lifecycle of %s: %s%s.", kt, r.col(e), strings.Join(rules, "; "), sampleNote(sample))}
				if err := catalog.Insights.Save(ctx, r.env, "business_rule:lifecycle:"+r.col(e)+":"+kt+"."+k.Column+":timestamps", ins, sampledConfidence(0.95, sample),
					withSample([]string{"hypotheses " + strings.Join(ids, ", ")}, sample), "business_rule"); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// probe is a correlated lookup into table (quoted) as alias that
// is 1 when some row meets cond and NULL when none does: one search of an
// index on cond's column per outer row, never a read of the whole table
// (Dialect.Lookup).
func (r *ruler) probe(table, alias, cond string) string { return r.d.Lookup(table, alias, cond) }

// sampledConfidence discounts c when sample names the sample its figures
// come from.
func sampledConfidence(c float64, sample string) float64 {
	if sample == "" {
		return c
	}
	return experts.Discount(c)
}

// untested records hypotheses left untested, and why.
func (r *ruler) untested(ctx context.Context, hs []hypotheses.Hypothesis, why, tag string) ([]hypotheses.Outcome, error) {
	outs := make([]hypotheses.Outcome, len(hs))
	b := r.env.Batch()
	for i, h := range hs {
		outs[i] = hypotheses.Untested(h, why)
		if err := hypotheses.Save(ctx, b, outs[i], "rule", tag); err != nil {
			return nil, err
		}
	}
	if err := b.Flush(ctx); err != nil {
		return nil, err
	}
	return outs, nil
}

// statesWith are the states whose rows all have the figure alias set.
func statesWith(rows []hypotheses.Row, alias string) []string {
	var set []string
	for _, row := range rows {
		n, _ := row.Int("row_count")
		w, _ := row.Int(alias)
		if n > 0 && w == n {
			s, ok := row.Text("state")
			if !ok {
				s = "NULL"
			}
			set = append(set, s)
		}
	}
	sort.Strings(set)
	return set
}

func capitalizeFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
