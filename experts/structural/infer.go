package structural

// Relationship inference (issue #5): most warehouses declare no foreign keys,
// so references are found from names and types, pruned with the profiles the
// statistical expert wrote, and settled by one exact inclusion query per
// surviving candidate. Names alone decide nothing and values alone decide
// nothing: small integers are contained in every surrogate key, so a
// candidate needs a name that points at the target and values that agree.
//
// This slice handles single-column references only; composite keys are left
// for the next one.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/warehouse"
)

// Thresholds of the inference. They are properties of references in
// general, not of any one database.
const (
	// AcceptScore is the confidence from which a candidate is saved as a
	// relationship.
	AcceptScore = 0.6
	// MaxOrphanRows is the share of child rows without a parent that a
	// dirty real-world key may have and still count as a reference.
	MaxOrphanRows = 0.1
	// minDistinctInclusion is the share of the child's distinct values that
	// must be found in the parent key.
	minDistinctInclusion = 0.8
	// ledgerNameScore: refuted candidates whose name signal is at least this
	// strong are recorded in the hypothesis ledger; weaker ones are noise.
	ledgerNameScore = 0.7
	// ambiguityMargin: a second target this close to the best is reported
	// as an uncertainty rather than silently dropped.
	ambiguityMargin = 0.03
)

// ---------------------------------------------------------------------------
// Names

// NameTokens splits an identifier into lower-case words at underscores,
// spaces, camelCase and PascalCase boundaries and letter/digit changes:
// "SupportRepId" → support rep id, "tbl_Order_Items2" → tbl order items 2.
func NameTokens(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := rs[i-1]
			switch {
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush() // albumId
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush() // XMLParser → xml parser
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// irregular plurals a schema is likely to use.
var irregular = map[string]string{
	"people": "person", "children": "child", "men": "man", "women": "woman",
	"staff": "staff", "data": "data", "media": "media", "series": "series",
	"status": "status", "address": "address", "bus": "bus", "analysis": "analysis",
}

// Singular returns the singular of an English word, well enough for table
// names: categories → category, addresses → address, boxes → box.
func Singular(w string) string {
	if s, ok := irregular[w]; ok {
		return s
	}
	switch {
	case len(w) <= 3:
		return w
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// keySuffixes are the words that mark a column as an identifier of
// something: x_id, xId, x_fk, x_key, x_no, x_ref, x_code.
var keySuffixes = map[string]string{
	"id": "id", "key": "id", "fk": "id", "pk": "id", "sk": "id", "ref": "id", "uuid": "id", "guid": "id",
	"no": "number", "num": "number", "nr": "number", "number": "number", "code": "code", "cd": "code",
}

// tablePrefixes are naming conventions, not words of the entity.
var tablePrefixes = map[string]bool{"tbl": true, "tb": true, "t": true, "dim": true, "fact": true,
	"ref": true, "lkp": true, "lookup": true, "lu": true, "d": true, "f": true}

// selfRoles name a reference from a row to another row of its own table.
var selfRoles = map[string]bool{"parent": true, "manager": true, "boss": true, "supervisor": true,
	"reports": true, "report": true, "superior": true, "mentor": true, "predecessor": true, "successor": true,
	"previous": true, "prev": true, "next": true, "original": true, "master": true, "head": true, "lead": true}

// keyName is an identifier split into what it names (stem) and how (suffix).
type keyName struct {
	tokens []string // singular, trailing numbers dropped
	stem   []string
	suffix string // class of the key suffix: id, number, code; "" when none
}

func splitKeyName(col string) keyName {
	toks := NameTokens(col)
	// Club_ID_2, address_line1: a trailing number tells roles apart.
	for len(toks) > 1 && isDigits(toks[len(toks)-1]) {
		toks = toks[:len(toks)-1]
	}
	for i := range toks {
		toks[i] = Singular(toks[i])
	}
	k := keyName{tokens: toks, stem: toks}
	if n := len(toks); n > 0 {
		if cls, ok := keySuffixes[toks[n-1]]; ok {
			k.suffix, k.stem = cls, toks[:n-1]
		} else if cls, ok := keySuffixes[toks[0]]; ok && n > 1 && (toks[0] == "id" || toks[0] == "fk") {
			k.suffix, k.stem = cls, toks[1:] // id_customer, fk_customer
		}
	}
	return k
}

// entityOf is what a table's rows are, as singular words, without
// naming-convention prefixes: tbl_Order_Items → order item.
func entityOf(table string) []string {
	if i := strings.LastIndex(table, "."); i >= 0 {
		table = table[i+1:]
	}
	toks := NameTokens(table)
	for len(toks) > 1 && tablePrefixes[toks[0]] {
		toks = toks[1:]
	}
	for len(toks) > 1 && isDigits(toks[len(toks)-1]) {
		toks = toks[:len(toks)-1]
	}
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = Singular(t)
	}
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

func eq(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func hasSuffixToks(s, suf []string) bool {
	return len(suf) > 0 && len(s) >= len(suf) && eq(s[len(s)-len(suf):], suf)
}

// containsRun reports whether sub occurs in s as consecutive words.
func containsRun(s, sub []string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if eq(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// NameMatch is how strongly a child column's name points at a target key,
// in [0,1], with the rule that fired.
type NameMatch struct {
	Score float64
	Rule  string // exact, entity, role, bare, contains, self_role; "" when none
}

// MatchName scores how well childTable.childCol is named as a reference to
// parentTable.parentCol (a key of parentTable). It looks only at names.
func MatchName(childTable, childCol, parentTable, parentCol string) NameMatch {
	c, k := splitKeyName(childCol), splitKeyName(parentCol)
	ent := entityOf(parentTable)
	if len(c.tokens) == 0 || len(k.tokens) == 0 || len(ent) == 0 {
		return NameMatch{}
	}
	same := strings.EqualFold(childTable, parentTable)
	last := ent[len(ent)-1:]
	// A key named only "id" or "code" names nothing by itself; its table does.
	keyStem := k.stem
	if len(keyStem) == 0 {
		keyStem = ent
	}
	suffixOK := c.suffix == "" || k.suffix == "" || c.suffix == k.suffix
	best := NameMatch{}
	try := func(score float64, rule string) {
		if !suffixOK {
			score -= 0.1
		}
		if score > best.Score {
			best = NameMatch{score, rule}
		}
	}
	switch {
	case len(k.stem) > 0 && glued(c.tokens) == glued(k.tokens):
		// track.album_id ~ album.album_id: named like the target's key. The
		// same name on another table is only a reference when that table
		// does not own the name (checked by the caller through ownership).
		if !same {
			try(0.9, "exact")
		}
	case c.suffix != "" && (eq(c.stem, ent) || eq(c.stem, keyStem)):
		if !same {
			try(0.85, "entity") // bridge.architect_id ~ architect.id
		}
	}
	if c.suffix != "" && len(c.stem) > len(keyStem) && hasSuffixToks(c.stem, keyStem) && !same {
		try(roleScore(keyStem), "role") // supplier_company_id ~ company.company_id
	}
	if c.suffix != "" && len(c.stem) > len(ent) && hasSuffixToks(c.stem, ent) && !same {
		try(roleScore(ent), "role") // recorded_by_staff_id ~ staff.staff_id
	}
	if c.suffix != "" && len(ent) > 1 && eq(c.stem, last) && !generic[last[0]] && !same {
		try(0.75, "entity") // accelerator_id ~ web_client_accelerator.id
	}
	if c.suffix == "" && !same && (eq(c.tokens, ent) || eq(c.tokens, k.stem)) {
		try(0.65, "bare") // match_season.team ~ team.team_id
	}
	if c.suffix == "" && !same && len(ent) > 1 && eq(c.tokens, last) && !generic[last[0]] {
		try(0.55, "bare") // cartoon.channel ~ tv_channel.id
	}
	// A word inside a longer name counts when it is what the name ends
	// with (winning_pilot) or the name is an identifier (member_in_charge_id);
	// product_quantity is a measure of a product, not a reference to one.
	if !same && len(c.tokens) > len(ent) && containsRun(c.tokens, ent) && len(glued(ent)) >= 3 &&
		(c.suffix != "" || hasSuffixToks(c.tokens, ent)) {
		try(0.5, "contains")
	}
	if same && !strings.EqualFold(childCol, parentCol) && len(c.tokens) > 0 && selfRoles[c.tokens[0]] {
		try(0.7, "self_role") // employee.reports_to ~ employee.employee_id
	}
	// A column named after its own table (order_items.order_item_id,
	// branch.branch_id) identifies its own rows; only an exact match to
	// another key of that name may make it a reference (a 1:1 extension).
	if best.Rule != "exact" && best.Rule != "self_role" && owns(childTable, childCol) {
		return NameMatch{}
	}
	return best
}

func glued(toks []string) string { return strings.Join(toks, "") }

// generic words name no entity on their own.
var generic = map[string]bool{"type": true, "status": true, "code": true, "data": true, "info": true,
	"detail": true, "list": true, "name": true, "value": true, "item": true, "record": true, "log": true}

// roleScore: a role over a one-letter stem (target_u_id) says less than a
// role over a real word (supplier_company_id).
func roleScore(stem []string) float64 {
	if len(strings.Join(stem, "")) < 3 {
		return 0.6
	}
	return 0.75
}

// owns reports whether a key name is the table's own name: city owns
// city_id, so temperature.city_id refers to city, not the other way round.
func owns(table, col string) bool {
	k := splitKeyName(col)
	ent := glued(entityOf(table))
	if len(k.stem) == 0 {
		return true // a bare id belongs to its table
	}
	stem := glued(k.stem)
	if stem == ent {
		return true
	}
	// dormid, custno: a key suffix glued to the table's name.
	for suf := range keySuffixes {
		if glued(k.tokens) == ent+suf {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// Candidates

// Column is what inference knows of one column: its declaration and profile.
type Column struct {
	Table    string // as the catalog names tables
	Name     string
	Type     string
	Profile  *catalog.ProfileDoc // nil when not profiled
	PK       bool                // the table's declared single-column primary key
	Declared bool                // PK or a declared single-column unique constraint
}

// Key reports whether the column can be a reference's target: declared
// unique, or unique and never NULL on an exact profile with a key-like name
// (a measure that happens to be unique in a small table is no key).
func (c Column) Key() bool {
	if c.Declared {
		return true
	}
	p := c.Profile
	if p == nil || p.Sampled || p.DistinctIsEstimate || p.DistinctCount == nil || p.NullFraction == nil {
		return false
	}
	return p.Rows >= 2 && *p.DistinctCount == p.Rows && *p.NullFraction == 0
}

// Candidate is a possible reference from Child to Parent.
type Candidate struct {
	Child, Parent Column
	Name          NameMatch
}

// Key is the catalog key the relationship would have.
func (c Candidate) Key() string {
	return RelationshipKey(c.Doc())
}

// Doc is the relationship the candidate would be.
func (c Candidate) Doc() catalog.RelationshipDoc {
	return catalog.RelationshipDoc{FromTable: c.Child.Table, FromColumns: []string{c.Child.Name},
		ToTable: c.Parent.Table, ToColumns: []string{c.Parent.Name}, Source: "inferred"}
}

// Candidates pairs every column with every key it is named after. Keys
// without a declaration qualify only when their name is key-like or the
// child carries exactly the same name, and a table's declared key is
// preferred over other unique columns of it.
func Candidates(cols []Column) []Candidate {
	var keys []Column
	for _, c := range cols {
		if c.Key() {
			keys = append(keys, c)
		}
	}
	var out []Candidate
	for _, ch := range cols {
		if ch.Profile == nil {
			continue
		}
		for _, k := range keys {
			if strings.EqualFold(ch.Table, k.Table) && strings.EqualFold(ch.Name, k.Name) {
				continue // never a column to itself
			}
			m := MatchName(ch.Table, ch.Name, k.Table, k.Name)
			if m.Score == 0 {
				continue
			}
			// A column unique by chance in a small table (a name, a rank)
			// is no key: an undeclared target must be named like one.
			if !k.Declared && !keyLikeName(k.Name) && !owns(k.Table, k.Name) {
				continue
			}
			out = append(out, Candidate{Child: ch, Parent: k, Name: m})
		}
	}
	return out
}

func keyLikeName(col string) bool {
	k := splitKeyName(col)
	return k.suffix != ""
}

// Prune rejects a candidate from the profiles alone, before any query: a
// child with more distinct values than the key could hold, or value ranges
// that do not overlap, cannot be a reference. It returns why not.
func Prune(c Candidate) (bool, string) {
	cp, pp := c.Child.Profile, c.Parent.Profile
	if cp == nil {
		return false, "child not profiled"
	}
	if cp.DistinctCount != nil && *cp.DistinctCount == 0 {
		return false, "child column is empty"
	}
	if cp.NullFraction != nil && *cp.NullFraction >= 1 {
		return false, "child column is empty"
	}
	if pp == nil {
		return true, ""
	}
	if cp.DistinctCount != nil && pp.DistinctCount != nil && !cp.DistinctIsEstimate && !pp.DistinctIsEstimate {
		if float64(*cp.DistinctCount)*minDistinctInclusion > float64(*pp.DistinctCount) {
			return false, fmt.Sprintf("child has %d distinct values, the key %d", *cp.DistinctCount, *pp.DistinctCount)
		}
	}
	if cmin, cmax, pmin, pmax, ok := ranges(c); ok && (cmax < pmin || cmin > pmax) {
		return false, fmt.Sprintf("ranges %s..%s and %s..%s do not overlap", num(cmin), num(cmax), num(pmin), num(pmax))
	}
	return true, ""
}

// ranges returns both columns' numeric ranges when both profiles have them.
func ranges(c Candidate) (cmin, cmax, pmin, pmax float64, ok bool) {
	cp, pp := c.Child.Profile, c.Parent.Profile
	if cp == nil || pp == nil || cp.Min == nil || cp.Max == nil || pp.Min == nil || pp.Max == nil {
		return 0, 0, 0, 0, false
	}
	// Text that holds numbers sorts as text ("10" < "9"): only columns the
	// profiler saw as numbers have a numeric range.
	if cp.Mean == nil || pp.Mean == nil {
		return 0, 0, 0, 0, false
	}
	var errs [4]error
	cmin, errs[0] = strconv.ParseFloat(*cp.Min, 64)
	cmax, errs[1] = strconv.ParseFloat(*cp.Max, 64)
	pmin, errs[2] = strconv.ParseFloat(*pp.Min, 64)
	pmax, errs[3] = strconv.ParseFloat(*pp.Max, 64)
	for _, e := range errs {
		if e != nil {
			return 0, 0, 0, 0, false
		}
	}
	return cmin, cmax, pmin, pmax, true
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// ---------------------------------------------------------------------------
// Scoring

// Inclusion is the exact check's figures.
type Inclusion struct {
	ChildDistinct  int64 // distinct non-NULL child values
	OrphanDistinct int64 // of those, how many the key does not hold
	NonNull        int64 // child rows with a value
	OrphanRows     int64 // of those, rows without a parent
}

// Scored is a candidate with its verdict.
type Scored struct {
	Candidate
	Inclusion
	Confidence     float64
	Accept         bool
	OrphanFraction float64
	Cardinality    string
	Evidence       []string // which signals fired, with their figures
}

// Score turns a candidate and its exact check into one confidence. It starts
// from the name's strength, lets full inclusion confirm it, and discounts
// what makes inclusion cheap: few distinct child values, child values
// bunched at the low end of a surrogate key's range, a target that is only
// unique by profile, and a reference pointing the wrong way between two keys.
func Score(c Candidate, in Inclusion) Scored {
	s := Scored{Candidate: c, Inclusion: in, Cardinality: "one_to_many"}
	s.Evidence = append(s.Evidence, fmt.Sprintf("name (%s): %s.%s ~ %s.%s", c.Name.Rule, c.Child.Table, c.Child.Name, c.Parent.Table, c.Parent.Name))
	if in.NonNull == 0 || in.ChildDistinct == 0 {
		s.Evidence = append(s.Evidence, "no non-NULL value to check")
		return s
	}
	incl := 1 - float64(in.OrphanDistinct)/float64(in.ChildDistinct)
	s.OrphanFraction = float64(in.OrphanRows) / float64(in.NonNull)
	s.Evidence = append(s.Evidence, fmt.Sprintf("inclusion %.3f of %d distinct values", incl, in.ChildDistinct))
	if in.ChildDistinct == in.NonNull {
		s.Cardinality = "one_to_one"
	}
	conf := c.Name.Score
	if incl < minDistinctInclusion || s.OrphanFraction > MaxOrphanRows {
		s.Evidence = append(s.Evidence, fmt.Sprintf("%.1f%% of non-NULL rows have no parent", 100*s.OrphanFraction))
		s.Confidence = math.Round(conf*(1-s.OrphanFraction)*incl*100) / 100
		return s
	}
	// Inclusion confirms a name in proportion to how much it could have
	// failed: one distinct value proves little, dozens prove a lot.
	strength := 1 - math.Pow(0.5, float64(in.ChildDistinct))
	conf += (1 - conf) * 0.6 * strength * incl
	if s.OrphanFraction > 0 {
		conf *= 1 - 2*s.OrphanFraction
		s.Evidence = append(s.Evidence, fmt.Sprintf("orphans: %d of %d non-NULL rows (%.1f%%): a dirty key", in.OrphanRows, in.NonNull, 100*s.OrphanFraction))
	}
	if cmin, cmax, pmin, pmax, ok := ranges(c); ok {
		if cmin >= pmin && cmax <= pmax {
			s.Evidence = append(s.Evidence, fmt.Sprintf("child range %s..%s within parent %s..%s", num(cmin), num(cmax), num(pmin), num(pmax)))
		}
		// Small integers (seats 2..9) fit inside any surrogate key (1..40).
		// A real reference spreads over its parent's keys; values that all
		// sit in the low end would be a rare draw for one.
		if span := pmax - pmin + 1; span >= 10 && cmax >= pmin {
			q := math.Min(1, (cmax-pmin+1)/span)
			chance := math.Pow(q, float64(in.ChildDistinct))
			if q <= 0.5 && chance < 0.01 {
				conf *= 0.5 + 0.4*c.Name.Score
				s.Evidence = append(s.Evidence, fmt.Sprintf("coincidence: child values %s..%s fill only the low %.0f%% of parent %s..%s (chance %.2g for a reference)",
					num(cmin), num(cmax), 100*q, num(pmin), num(pmax), chance))
			}
		}
	}
	if !c.Parent.Declared {
		conf *= 0.95
		s.Evidence = append(s.Evidence, "target unique by profile (no declared key)")
	}
	// Two keys of the same name: the one whose table owns the name is the
	// parent (temperature.city_id → city.city_id, not the reverse).
	if c.Name.Rule == "exact" {
		co, po := owns(c.Child.Table, c.Child.Name), owns(c.Parent.Table, c.Parent.Name)
		switch {
		case co && !po:
			conf *= 0.6
			s.Evidence = append(s.Evidence, "the name belongs to the child's table: points the wrong way")
		case po:
			conf = math.Min(1, conf+0.02)
		}
	}
	s.Confidence = math.Round(math.Min(conf, 0.99)*100) / 100
	s.Accept = s.Confidence >= AcceptScore
	return s
}

// Select keeps one target per child column, the best scored, and returns
// pairs whose second target scored nearly as well as ambiguities. An
// accepted reference whose target is not a declared key and is itself a
// reference elsewhere is dropped: a foreign key column is a copy, not the
// key it copies.
func Select(all []Scored) (kept []Scored, ambiguous [][2]Scored) {
	children := map[string]bool{}
	for _, s := range all {
		if s.Accept {
			children[strings.ToLower(s.Child.Table+"."+s.Child.Name)] = true
		}
	}
	byChild := map[string][]Scored{}
	var order []string
	for _, s := range all {
		if !s.Accept || (!s.Parent.Declared && children[strings.ToLower(s.Parent.Table+"."+s.Parent.Name)]) {
			continue
		}
		k := strings.ToLower(s.Child.Table + "." + s.Child.Name)
		if _, ok := byChild[k]; !ok {
			order = append(order, k)
		}
		byChild[k] = append(byChild[k], s)
	}
	sort.Strings(order)
	for _, k := range order {
		ss := byChild[k]
		sort.SliceStable(ss, func(i, j int) bool {
			if ss[i].Confidence != ss[j].Confidence {
				return ss[i].Confidence > ss[j].Confidence
			}
			if ss[i].Parent.PK != ss[j].Parent.PK {
				return ss[i].Parent.PK
			}
			return ss[i].Key() < ss[j].Key()
		})
		kept = append(kept, ss[0])
		if len(ss) > 1 && ss[0].Confidence-ss[1].Confidence <= ambiguityMargin && !strings.EqualFold(ss[0].Parent.Table, ss[1].Parent.Table) {
			ambiguous = append(ambiguous, [2]Scored{ss[0], ss[1]})
		}
	}
	return dropReversed(kept), ambiguous
}

// dropReversed settles two keys that were both inferred to reference each
// other (a.x → b.x and b.x → a.x, equal value sets): the parent is the side
// with more values, then the better score; a full tie keeps both.
func dropReversed(kept []Scored) []Scored {
	idx := map[string]int{}
	for i, s := range kept {
		idx[strings.ToLower(s.Key())] = i
	}
	drop := map[int]bool{}
	for i, s := range kept {
		rev := RelationshipKey(catalog.RelationshipDoc{FromTable: s.Parent.Table, FromColumns: []string{s.Parent.Name},
			ToTable: s.Child.Table, ToColumns: []string{s.Child.Name}})
		j, ok := idx[strings.ToLower(rev)]
		if !ok || drop[i] || drop[j] {
			continue
		}
		o := kept[j]
		switch {
		case rows(s.Parent) > rows(o.Parent) || (rows(s.Parent) == rows(o.Parent) && s.Confidence > o.Confidence):
			drop[j] = true
		case rows(s.Parent) < rows(o.Parent) || s.Confidence < o.Confidence:
			drop[i] = true
		}
	}
	out := kept[:0]
	for i, s := range kept {
		if !drop[i] {
			out = append(out, s)
		}
	}
	return out
}

func rows(c Column) int64 {
	if c.Profile == nil || c.Profile.DistinctCount == nil {
		return 0
	}
	return *c.Profile.DistinctCount
}

// ---------------------------------------------------------------------------
// The task

// typeClass groups declared types whose values compare without a cast.
func typeClass(t string) string {
	u := strings.ToUpper(t)
	switch {
	case strings.Contains(u, "INT"):
		return "integer"
	case strings.Contains(u, "CHAR"), strings.Contains(u, "CLOB"), strings.Contains(u, "TEXT"), strings.Contains(u, "STRING"):
		return "text"
	case strings.Contains(u, "REAL"), strings.Contains(u, "FLOA"), strings.Contains(u, "DOUB"), strings.Contains(u, "NUM"), strings.Contains(u, "DEC"):
		return "integer" // numbers compare with numbers
	}
	return u
}

// InclusionSQL is the exact check: the child's distinct values, how many of
// them the key lacks, and the same in rows. The target is unique, so the
// LEFT JOIN does not multiply child rows. Columns whose declared types
// differ (text holding integers) are compared as text, which every engine
// can do.
func InclusionSQL(src warehouse.Source, child, parent warehouse.TableName, ccol, pcol string, cast bool) string {
	c, p := "c."+src.QuoteIdent(ccol), "p."+src.QuoteIdent(pcol)
	on := p + " = " + c
	// SQLite compares a text column with a numeric one by the numeric
	// column's affinity ('5' = 5, '1' = 1.0); a cast to text would lose
	// 1 = 1.0. Other engines refuse to compare text with numbers.
	if cast && src.Dialect() != "sqlite" {
		if d, err := warehouse.DialectFor(src.Dialect()); err == nil {
			on = d.CastText(p) + " = " + d.CastText(c)
		}
	}
	return fmt.Sprintf("SELECT COUNT(DISTINCT %[1]s) AS child_distinct, "+
		"COUNT(DISTINCT CASE WHEN %[2]s IS NULL THEN %[1]s END) AS orphan_distinct, "+
		"COUNT(%[1]s) AS non_null, "+
		"COUNT(CASE WHEN %[2]s IS NULL AND %[1]s IS NOT NULL THEN 1 END) AS orphan_rows "+
		"FROM %[3]s c LEFT JOIN %[4]s p ON %[5]s",
		c, p, src.QuoteTable(child), src.QuoteTable(parent), on)
}

// InferReady reports whether every column inference may look at has its
// profile in this run (or its table's profiling was given up), so that
// inference runs once on complete facts.
func InferReady(ctx context.Context, env *experts.Env) (bool, error) {
	profiles, err := env.RunEntries(ctx, catalog.KindProfile)
	if err != nil {
		return false, err
	}
	have := map[string]bool{}
	for _, e := range profiles {
		var p catalog.ProfileDoc
		if err := e.Decode(&p); err == nil && p.Provisional {
			continue // planner estimates: wait for the measured profile
		}
		have[e.Key] = true
	}
	for _, t := range env.Tables {
		if t.Kind != "table" {
			continue
		}
		name := t.Name.String()
		for _, c := range t.Columns {
			if have[name+"."+c.Name] {
				continue
			}
			failed, err := env.Has(ctx, catalog.KindUncertainty, "profile_failed:"+name)
			if err != nil {
				return false, err
			}
			if !failed {
				return false, nil
			}
			break
		}
	}
	return true, nil
}

// inferRelationships generates, prunes, checks and scores candidates, saves
// the accepted ones and the ledger, then looks for structural patterns over
// the whole relationship set (which it now completes).
func inferRelationships(ctx context.Context, env *experts.Env) error {
	entries, err := env.RunEntries(ctx, catalog.KindProfile)
	if err != nil {
		return fmt.Errorf("infer relationships: %w", err)
	}
	profiles := map[string]*catalog.ProfileDoc{}
	for _, e := range entries {
		var p catalog.ProfileDoc
		if err := e.Decode(&p); err != nil {
			return fmt.Errorf("infer relationships: decode %s: %w", e.Key, err)
		}
		profiles[e.Key] = &p
	}
	tables := map[string]warehouse.Table{}
	declared := map[string]bool{} // child table.column already declared as a reference
	var cols []Column
	for _, t := range env.Tables {
		if t.Kind != "table" {
			continue // a view repeats its tables' columns
		}
		name := t.Name.String()
		tables[strings.ToLower(name)] = t
		if !env.Options.IgnoreDeclaredFKs {
			for _, fk := range t.ForeignKeys {
				if len(fk.Columns) == 1 {
					declared[strings.ToLower(name+"."+fk.Columns[0])] = true
				}
			}
		}
		uniq := map[string]bool{}
		for _, u := range t.Uniques {
			if len(u) == 1 {
				uniq[strings.ToLower(u[0])] = true
			}
		}
		for _, c := range t.Columns {
			pk := len(t.PrimaryKey) == 1 && strings.EqualFold(t.PrimaryKey[0], c.Name)
			cols = append(cols, Column{Table: name, Name: c.Name, Type: c.Type, Profile: profiles[name+"."+c.Name],
				PK: pk, Declared: pk || uniq[strings.ToLower(c.Name)]})
		}
	}
	cands := Candidates(cols)
	var scored []Scored
	checked, pruned, skipped := 0, 0, 0
	for _, c := range cands {
		// A declared reference stands; inference does not repeat it (the
		// query expert tests it under the same hypothesis id).
		if declared[strings.ToLower(c.Child.Table+"."+c.Child.Name)] {
			skipped++
			continue
		}
		if ok, _ := Prune(c); !ok {
			pruned++
			continue
		}
		child, parent := tables[strings.ToLower(c.Child.Table)], tables[strings.ToLower(c.Parent.Table)]
		cast := typeClass(c.Child.Type) != typeClass(c.Parent.Type)
		sql := InclusionSQL(env.Source, child.Name, parent.Name, c.Child.Name, c.Parent.Name, cast)
		res, err := env.Query(ctx, sql)
		checked++
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) {
				return fmt.Errorf("infer relationships: %w", err)
			}
			continue // one bad pair does not stop the others
		}
		row := hypotheses.Row{}
		if len(res.Rows) > 0 {
			for i, col := range res.Columns {
				row[strings.ToLower(col)] = res.Rows[0][i]
			}
		}
		var in Inclusion
		in.ChildDistinct, _ = row.Int("child_distinct")
		in.OrphanDistinct, _ = row.Int("orphan_distinct")
		in.NonNull, _ = row.Int("non_null")
		in.OrphanRows, _ = row.Int("orphan_rows")
		s := Score(c, in)
		if cast {
			s.Evidence = append(s.Evidence, fmt.Sprintf("types differ (%s vs %s): compared as text", c.Child.Type, c.Parent.Type))
		}
		s.Evidence = append(s.Evidence, "check: "+sql)
		scored = append(scored, s)
	}
	kept, ambiguous := Select(scored)
	keptKeys := map[string]bool{}
	for _, s := range kept {
		keptKeys[s.Key()] = true
	}
	for _, s := range scored {
		switch {
		case keptKeys[s.Key()]:
			if err := saveInferred(ctx, env, s); err != nil {
				return err
			}
		case s.Name.Score >= ledgerNameScore:
			// A strong name the values refute is worth knowing; it is not a relationship.
			if err := saveLedger(ctx, env, s, false); err != nil {
				return err
			}
		}
	}
	for _, a := range ambiguous {
		doc := catalog.UncertaintyDoc{Description: fmt.Sprintf("%s.%s may reference %s.%s (confidence %.2f) or %s.%s (%.2f); the first was kept.",
			a[0].Child.Table, a[0].Child.Name, a[0].Parent.Table, a[0].Parent.Name, a[0].Confidence, a[1].Parent.Table, a[1].Parent.Name, a[1].Confidence)}
		if err := env.SaveDoc(ctx, Name, catalog.KindUncertainty, "ambiguous_reference:"+a[0].Child.Table+"."+a[0].Child.Name, doc, 0.8,
			append(append([]string{}, a[0].Evidence[:2]...), a[1].Evidence[:2]...)); err != nil {
			return err
		}
	}
	marker := catalog.ProgressDoc{Step: "infer", Detail: fmt.Sprintf("%d name candidates, %d already declared, %d pruned by profiles, %d checked exactly, %d inferred",
		len(cands), skipped, pruned, checked, len(kept))}
	if err := env.SaveDoc(ctx, Name, catalog.KindProgress, "structural:infer", marker, 1.0, nil); err != nil {
		return err
	}
	return patterns(ctx, env)
}

// refHypothesis names a check the way the query expert names its orphan
// test of the same relationship, so that it is not tested twice.
func refHypothesis(s Scored) catalog.HypothesisDoc {
	key := s.Key()
	status := hypotheses.Confirmed
	if s.OrphanRows > 0 || s.NonNull == 0 {
		status = hypotheses.Refuted
	}
	if s.NonNull == 0 {
		status = hypotheses.Inconclusive
	}
	test := ""
	for _, e := range s.Evidence {
		if strings.HasPrefix(e, "check: ") {
			test = strings.TrimPrefix(e, "check: ")
		}
	}
	return catalog.HypothesisDoc{ID: hypotheses.ID("ref", key), Subject: key, Status: status, TestSQL: test,
		Statement: fmt.Sprintf("Every non-NULL %s.%s has a matching %s.%s.", s.Child.Table, s.Child.Name, s.Parent.Table, s.Parent.Name)}
}

func signals(s Scored) []string {
	var out []string
	for _, e := range s.Evidence {
		if !strings.HasPrefix(e, "check: ") {
			out = append(out, e)
		}
	}
	return out
}

func saveLedger(ctx context.Context, env *experts.Env, s Scored, accepted bool) error {
	h := refHypothesis(s)
	ev := append(signals(s), fmt.Sprintf("%d child rows with a value, %d orphans", s.NonNull, s.OrphanRows))
	if !accepted {
		ev = append(ev, fmt.Sprintf("not a relationship: confidence %.2f below %.2f", s.Confidence, AcceptScore))
	}
	return env.SaveDoc(ctx, Name, catalog.KindHypothesis, h.ID, h, 1.0, ev, "relationship", "inferred", h.Status)
}

func saveInferred(ctx context.Context, env *experts.Env, s Scored) error {
	doc := s.Doc()
	doc.Cardinality = s.Cardinality
	f := s.OrphanFraction
	doc.OrphanFraction = &f
	key := s.Key()
	h := refHypothesis(s)
	ev := append(signals(s), fmt.Sprintf("checked: %d of %d non-NULL references have no parent (hypothesis %s)", s.OrphanRows, s.NonNull, h.ID))
	if err := env.SaveDoc(ctx, Name, catalog.KindRelationship, key, doc, s.Confidence, ev, "inferred", "tested"); err != nil {
		return err
	}
	if err := saveLedger(ctx, env, s, true); err != nil {
		return err
	}
	if s.OrphanRows == 0 {
		return nil
	}
	ins := catalog.InsightDoc{Kind: "quality", Tables: []string{doc.FromTable, doc.ToTable},
		Columns: []string{doc.FromTable + "." + s.Child.Name},
		Description: fmt.Sprintf("%d rows of %s reference a %s that does not exist (%.2f%% of non-NULL references).",
			s.OrphanRows, doc.FromTable, doc.ToTable, 100*s.OrphanFraction)}
	return env.SaveDoc(ctx, Name, catalog.KindInsight, "quality:orphans:"+key, ins, 1.0, signals(s), "quality")
}
