package relations

// Relationship inference (issue #5): most warehouses declare no foreign keys,
// so references are found from names and types, pruned with the profiles the
// statistical expert wrote and with samples of the values (read once per
// column), and settled by one exact inclusion query per surviving
// candidate, best named first: a target that could not beat one already
// confirmed is not checked. The exact checks so grow with the columns, not
// with their square. Names alone decide nothing: every candidate is
// checked against the data. Values alone decide only where chance would
// seldom have put them (values.go): small integers are contained in every
// surrogate key numbered from 1; or where a column holds nearly every key
// of one table, up to its last (coverage). A name the values tied to a key
// names it in the database's other tables too (learned).
//
// One acceptance threshold, AcceptScore, for every kind of candidate, and
// one shape of score: the name's strength (a column named exactly like the
// key, after its entity or another inflection of its word, a role over it,
// an abbreviation, a synonym, a person; for a composite, its weakest column; for a pair the values
// proposed, the chance model's figure or the share of the keys held instead), confirmed by inclusion in
// proportion to how many distinct values could have failed, discounted
// for orphans, for values bunched at the low end of a key's range, for a
// target unique only by profile or by a check, for a reference pointing
// the wrong way between two keys, and for a sample (Score, ScoreComposite,
// scoreByValues).
//
// This file handles single-column references; composite.go those to keys
// of several columns, values.go the pairs the values propose.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/stablehash"
	"github.com/discover-db/discover/warehouse"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/singleflight"
)

// Thresholds of the inference. They are properties of references in
// general, not of any one database.
const (
	// AcceptScore is the confidence from which a candidate is saved as a
	// relationship.
	AcceptScore = 0.6
	// sampledKeyMinRows is the smallest sample in which a column unique
	// throughout counts as a key (Column.Key): a few thousand distinct
	// rows leave little room for duplicates the table would have.
	sampledKeyMinRows = 10_000
	// sampledKeyMinShare is the share of a sampled table's rows its
	// estimated distinct count must reach for a key.
	sampledKeyMinShare = 0.97
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
	// ordinalMinValues: a run of fewer consecutive integers from a key's
	// first tells an ordinal from a reference to the first parents no
	// better than chance (a handful of rows referencing parents 1..5);
	// ordinalNameScore: a name at least this strong outweighs the shape.
	ordinalMinValues = 20
	ordinalNameScore = 0.8
	// ordinalMaxShare: the share of the key's range an ordinal's values
	// fill at most.
	ordinalMaxShare = 0.25
)

// ---------------------------------------------------------------------------
// Names

// roleLinks end a self role's name: reports_to, head_of, managed_by.
var roleLinks = map[string]bool{"to": true, "of": true, "by": true}

// gluedKey is the key suffix written glued to its stem (custkey), and
// minGluedStem the letters the stem must keep (a monkey is no key of a
// mon).
const (
	gluedKey     = "key"
	minGluedStem = 4
)

// keyName is an identifier split into what it names (stem) and how (suffix).
type keyName struct {
	tokens []string // singular, trailing numbers dropped
	stem   []string
	suffix string // class of the key suffix: id, number, code; "" when none
	// raw is the name's words glued before singulars: crsid and CrsID are
	// spelled alike, though the singular of the word crs is cr.
	raw string
	// plural: the name ends in a plural word. A plural after other words
	// (away_matches, open_invoices) counts rows or lists them; a column
	// holding one row's key is named in the singular.
	plural bool
	// canonical is canon() of the name, kept by splitKeyName; nil when
	// not computed yet.
	canonical *keyName
}

// nameMemo remembers how names split (splitKeyName, entityOf), which
// depends on the vocabulary in use: Candidates matches each column against
// many keys, and on 3,000 tables splitting the same names again took 110 s
// of a 400 s run. The values are never modified by their users.
type nameMemo struct {
	gen       uint64
	keys      sync.Map // column name → keyName
	ents      sync.Map // table name → []string
	canonEnts sync.Map // table name → []string, synonyms brought to one word
}

var memo atomic.Pointer[nameMemo]

func currentMemo() *nameMemo {
	m := memo.Load()
	if g := naming.Generation(); m == nil || m.gen != g {
		m = &nameMemo{gen: g}
		memo.Store(m)
	}
	return m
}

func splitKeyName(col string) keyName {
	m := currentMemo()
	if v, ok := m.keys.Load(col); ok {
		return v.(keyName)
	}
	k := splitKeyNameOnce(col)
	c := k.canon()
	k.canonical = &c
	m.keys.Store(col, k)
	return k
}

func splitKeyNameOnce(col string) keyName {
	toks := naming.NameTokens(col)
	// Club_ID_2, address_line1: a trailing number tells roles apart.
	for len(toks) > 1 && isDigits(toks[len(toks)-1]) {
		toks = toks[:len(toks)-1]
	}
	// custkey, vendkey: "key" glued to what it identifies, a convention of
	// decision-support schemas. Only "key": glued id or no would split
	// valid, paid and casino.
	if n := len(toks); n > 0 && len(toks[n-1]) >= len(gluedKey)+minGluedStem && strings.HasSuffix(toks[n-1], gluedKey) {
		last := toks[n-1]
		toks = append(toks[:n-1:n-1], last[:len(last)-len(gluedKey)], gluedKey)
	}
	raw := glued(toks)
	// create_uid: a word that stands for several (naming.Expand).
	if slices.ContainsFunc(toks, func(t string) bool { return naming.Expand(t) != nil }) {
		var out []string
		for _, t := range toks {
			if e := naming.Expand(t); e != nil {
				out = append(out, e...)
			} else {
				out = append(out, t)
			}
		}
		toks = out
	}
	plural := false
	for i := range toks {
		s := naming.Singular(toks[i])
		plural = s != toks[i]
		toks[i] = s
	}
	k := keyName{tokens: toks, stem: toks, raw: raw, plural: plural}
	if n := len(toks); n > 0 {
		if cls, ok := naming.KeySuffix(toks[n-1]); ok {
			k.suffix, k.stem = cls, toks[:n-1]
		} else if cls, ok := naming.KeyPrefix(toks[0]); ok && n > 1 {
			k.suffix, k.stem = cls, toks[1:] // id_customer, fk_customer, hk_customer
		}
	}
	return k
}

// entityOf is what a table's rows are, as singular words, without
// naming-convention affixes: tbl_Order_Items → order item, customer_dim →
// customer.
func entityOf(table string) []string {
	m := currentMemo()
	if v, ok := m.ents.Load(table); ok {
		return v.([]string)
	}
	e := entityOfOnce(table)
	m.ents.Store(table, e)
	return e
}

func entityOfOnce(table string) []string {
	if i := strings.LastIndex(table, "."); i >= 0 {
		table = table[i+1:]
	}
	toks := naming.NameTokens(table)
	for len(toks) > 1 && naming.TablePrefix(toks[0]) {
		toks = toks[1:]
	}
	for len(toks) > 1 && (isDigits(toks[len(toks)-1]) || naming.TableSuffix(toks[len(toks)-1])) {
		toks = toks[:len(toks)-1]
	}
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = naming.Singular(t)
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

func hasPrefixToks(s, pre []string) bool {
	return len(s) >= len(pre) && eq(s[:len(pre)], pre)
}

// trailingRole reports whether w, after an entity's words in a column's
// name, may be the role the entity plays (invoice, dest, po): no key
// suffix, no word naming a kind or a name (type, status, name), no
// number.
func trailingRole(w string) bool {
	_, isKey := naming.KeySuffix(w)
	return !isKey && !naming.Generic(w) && !naming.Lookup(w) && !isDigits(w) && len(w) >= 2
}

// roleAfterScore is the name score of an entity followed by its role
// (partner_invoice_id): below a role written before it, which more
// schemas write.
const (
	roleAfterScore = 0.6
	roleAfterRule  = "role_after"
)

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
	Rule  string // exact, entity, inflected, role, bare, contains, self_role, synonym, actor; "" when none
}

// loose reports whether the name matched only through a synonym or as a
// person, or not at all (a pair its values proposed, values.go): weaker
// than any match of the name as written.
func (m NameMatch) loose() bool {
	return m.Rule == "synonym" || m.Rule == actorRule || m.Rule == valueRule || m.Rule == coverRule || m.Rule == supertypeRule
}

// genericRule: a table named by the entity's word and a word that names
// no entity alone and may name a table of the entities (role_type,
// company_name; naming.Lookup), matched by the entity's word (role_id).
// A table of the entity's kinds is as often named so as a table of the
// entities: only a child holding most of the keys, up to the last, is
// taken for a reference (Score).
const genericRule = "generic"

// genericCover is the share of the target's keys a child matched by
// genericRule must hold.
const genericCover = 0.5

// supertypeRule: the key of a table of one kind of person (candidates,
// students) named after its own table references the key of a table of
// persons (people.person_id): a subtype of a party model, its rows some of
// the persons. The names only allow it; the values must prove it, as for a
// reference the values propose (Score).
const (
	supertypeRule  = "supertype"
	supertypeScore = 0.6
)

// personSubtype reports whether the child table's rows are one kind of
// person and the parent's persons in general.
func personSubtype(childTable, parentTable string) bool {
	ce, pe := entityOf(childTable), entityOf(parentTable)
	if len(ce) == 0 || len(pe) == 0 {
		return false
	}
	cl, pl := ce[len(ce)-1], pe[len(pe)-1]
	return cl != pl && naming.Person(cl) && !naming.PersonSupertype(cl) && naming.PersonSupertype(pl)
}

// MatchName scores how well childTable.childCol is named as a reference to
// parentTable.parentCol (a key of parentTable). It looks only at names.
// Names are compared as written, then with synonyms and abbreviations
// brought to one word (client_ref ~ customers.id, staff_id ~
// employees.emp_no) for a little less; and a column naming who did
// something (approved_by, created_by_id) may reference a table of people.
func MatchName(childTable, childCol, parentTable, parentCol string) NameMatch {
	c, k := splitKeyName(childCol), splitKeyName(parentCol)
	ent := entityOf(parentTable)
	if len(c.tokens) == 0 || len(k.tokens) == 0 || len(ent) == 0 {
		return NameMatch{}
	}
	// Names as the source spells them: "Users" and users are two tables
	// where the engine says so, and a reference between them is no self
	// reference.
	same := childTable == parentTable
	best := matchNames(c, k, ent, same, childCol == parentCol)
	// A column named after its own table (invoice_lines.invoice_line_id,
	// depot.depot_id) identifies its own rows; only an exact match to
	// another key of that name may make it a reference (a 1:1 extension).
	if best.Rule != "exact" && best.Rule != "self_role" && owns(childTable, childCol) {
		if !same && best.Score < supertypeScore && owns(parentTable, parentCol) && personSubtype(childTable, parentTable) {
			return NameMatch{supertypeScore, supertypeRule} // candidates.candidate_id ~ people.person_id
		}
		return NameMatch{}
	}
	if same {
		return best
	}
	// term_taxonomy_id in wp_term_taxonomy is its own table's key, named by
	// the words after the table's namespace, not a term in a taxonomy's role.
	if best.Rule == roleAfterRule && hasSuffixToks(entityOf(childTable), c.stem) {
		best = NameMatch{}
	}
	// Synonyms: only for a column that does not identify its own table's
	// rows under them either (clients.client_id is the clients' key, not a
	// reference to customers).
	cs, ks, es := c.canon(), k.canon(), canonEntityOf(parentTable)
	if (!eq(cs.tokens, c.tokens) || !eq(ks.tokens, k.tokens) || !eq(es, ent)) && !ownsNames(canonEntityOf(childTable), cs) {
		if m := matchNames(cs, ks, es, false, false); m.Score-synonymDiscount > best.Score {
			best = NameMatch{m.Score - synonymDiscount, "synonym"}
		}
	}
	// approved_by ~ employees.emp_no: who did it is a person; which table
	// of people, the values decide.
	if actorName(c) && naming.Acts(es[len(es)-1]) && actorScore > best.Score {
		best = NameMatch{actorScore, actorRule}
	}
	return best
}

// Scores of the looser name rules.
const (
	// synonymDiscount: a match through a synonym says a little less than
	// the same match spelled alike.
	synonymDiscount = 0.05
	// actorScore: a column naming who did something (approved_by) names
	// no table; any table of people may be its target.
	actorScore = 0.6
	actorRule  = "actor"
)

func canonWords(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		if s, ok := naming.Synonym(w); ok {
			w = s
		}
		out[i] = w
	}
	return out
}

// canon is the name with synonyms brought to one word; a name split by
// splitKeyName carries it, computed once.
func (k keyName) canon() keyName {
	if k.canonical != nil {
		return *k.canonical
	}
	return keyName{tokens: canonWords(k.tokens), stem: canonWords(k.stem), suffix: k.suffix, raw: glued(canonWords(k.tokens))}
}

// canonEntityOf is entityOf with synonyms brought to one word, kept as
// entityOf is.
func canonEntityOf(table string) []string {
	m := currentMemo()
	if v, ok := m.canonEnts.Load(table); ok {
		return v.([]string)
	}
	e := canonWords(entityOf(table))
	m.canonEnts.Store(table, e)
	return e
}

// actorName reports whether a column names a person by what they did or
// the part they play for the row: a verb and "by", with or without a key
// suffix (approved_by, signed_off_by, created_by_id), or a role as its
// last word before the suffix (manager_id, advisor, support_rep_id;
// naming.Role).
func actorName(c keyName) bool {
	if len(c.stem) == 0 {
		return false
	}
	last := c.stem[len(c.stem)-1]
	return (len(c.stem) >= 2 && last == "by") || naming.Role(last)
}

// matchNames is MatchName's rules on split names; exactName says the two
// columns are spelled alike.
func matchNames(c, k keyName, ent []string, same, exactName bool) NameMatch {
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
	case len(k.stem) > 0 && (glued(c.tokens) == glued(k.tokens) || c.raw == k.raw):
		// track.album_id ~ album.album_id: named like the target's key. The
		// same name on another table is only a reference when that table
		// does not own the name (checked by the caller through ownership).
		if !same {
			try(0.9, "exact")
		}
	case c.suffix != "" && (eq(c.stem, ent) || eq(c.stem, keyStem)):
		if !same {
			try(0.85, "entity") // permit.surveyor_id ~ surveyor.id
		}
	}
	// kunde_id ~ kunden.id, libro_id ~ libri.libri_id: the entity's word
	// in another inflection, as schemas in languages other than English
	// write a table's name in the plural and a reference in the singular.
	if c.suffix != "" && !same && (inflectedRun(c.stem, ent) || inflectedRun(c.stem, keyStem)) {
		try(0.8, "inflected")
	}
	if c.suffix != "" && len(c.stem) > len(keyStem) && hasSuffixToks(c.stem, keyStem) && !same {
		try(roleScore(keyStem), "role") // builder_company_id ~ company.company_id
	}
	if c.suffix != "" && len(c.stem) > len(ent) && hasSuffixToks(c.stem, ent) && !same {
		try(roleScore(ent), "role") // logged_by_staff_id ~ staff.staff_id
	}
	if c.suffix != "" && len(ent) > 1 && eq(c.stem, last) && !naming.Generic(last[0]) && !same {
		try(0.75, "entity") // gateway_id ~ mobile_payment_gateway.id
	}
	if c.suffix != "" && len(c.stem) >= 2 && len(ent) > len(c.stem) && hasSuffixToks(ent, c.stem) && !same {
		try(0.8, "entity") // content_type_id ~ django_content_type.id: the entity's words after a namespace
	}
	if c.suffix != "" && len(ent) > 1 && naming.Lookup(last[0]) && eq(c.stem, ent[:len(ent)-1]) && !same {
		// role_id ~ role_type.id, company_id ~ company_name.id: a word
		// that names no entity alone (type, name) after the entity's.
		// Weak: a payment_type is no table of payments. Score asks the
		// values for more (genericRule). A log, a list or the info of
		// something is never that something (naming.Lookup).
		try(0.6, genericRule)
	}
	if c.suffix != "" && len(ent) > 1 && len(c.stem) > 1 && hasSuffixToks(c.stem, last) && !naming.Generic(last[0]) && !same {
		try(0.65, "role") // billing_customer_id ~ crm_customer.id
	}
	// partner_invoice_id ~ res_partner.id, location_dest_id ~
	// stock_location.id: the entity first, then the role it plays, a
	// convention of some ORMs. The role word names no entity nor kind.
	if c.suffix != "" && !same && len(c.stem) == len(ent)+1 && hasPrefixToks(c.stem, ent) && trailingRole(c.stem[len(ent)]) {
		try(roleAfterScore, roleAfterRule)
	} else if c.suffix != "" && !same && len(ent) > 1 && len(c.stem) == 2 && c.stem[0] == last[0] && !naming.Generic(last[0]) && trailingRole(c.stem[1]) {
		try(roleAfterScore-0.05, roleAfterRule) // uom_po_id ~ uom_uom.id
	}
	if c.suffix == "" && !same && (eq(c.tokens, ent) || eq(c.tokens, k.stem)) {
		try(0.65, "bare") // fixture.squad ~ squad.squad_id
	}
	if c.suffix == "" && !same && (inflectedRun(c.tokens, ent) || inflectedRun(c.tokens, k.stem)) {
		try(0.6, "inflected") // rechnung.lieferant ~ lieferanten.id
	}
	if c.suffix == "" && !same && len(ent) > 1 && eq(c.tokens, last) && !naming.Generic(last[0]) {
		try(0.55, "bare") // broadcast.network ~ cable_network.id
	}
	// cdemo_sk ~ customer_demographics.cd_demo_sk, promo_sk ~
	// promotion.p_promo_sk: the column shortens the entity's words.
	if c.suffix != "" && len(c.stem) > 0 && !same && naming.AbbreviatesEntity(c.stem[len(c.stem)-1], ent) {
		if len(c.stem) == 1 {
			try(0.75, "abbreviation")
		} else {
			try(0.65, "abbreviation") // ship_cdemo_sk: a role over it
		}
	}
	// product_tmpl_id ~ product_template.id, categ_id ~
	// product_category.id, order_ln_id ~ order_line.id: the entity's words,
	// or its last, with words shortened (naming.Abbreviates); a role over
	// them for less (unit_pkg_id ~ package.id).
	if c.suffix != "" && !same {
		switch n := len(c.stem); {
		case shortens(c.stem, ent):
			try(0.75, "abbreviation")
		case len(ent) > 1 && shortens(c.stem, last) && !naming.Generic(last[0]):
			try(0.7, "abbreviation")
		case n > len(ent) && shortens(c.stem[n-len(ent):], ent):
			try(0.65, "abbreviation")
		}
	}
	// A word inside a longer name counts when it is what the name ends
	// with (winning_pilot) or the name is an identifier (member_in_charge_id);
	// product_quantity is a measure of a product, not a reference to one.
	if !same && len(c.tokens) > len(ent) && containsRun(c.tokens, ent) && len(glued(ent)) >= 3 &&
		(c.suffix != "" || (hasSuffixToks(c.tokens, ent) && !c.plural)) {
		try(0.5, "contains")
	}
	// userid ~ mdl_user.id, mnethostid ~ mdl_mnet_host.id, realuserid:
	// a key suffix glued to the target's words, one lowercase word. Read
	// apart only where the words before the suffix end with the target's
	// (valid, paid and casino end in id and no, and name no table val, pa
	// or casi), and scored a little below the same name written apart.
	if c.suffix == "" {
		if g, ok := unglued(c, ent); ok {
			if m := matchNames(g, k, ent, same, exactName); m.Score > 0 {
				try(m.Score-gluedPenalty, m.Rule)
			}
		}
	}
	if same && !exactName && selfRole(c, last[0]) {
		try(selfRoleScore, "self_role") // clerk.reports_to ~ clerk.clerk_id
	}
	// id_categoria_padre in categorias, kategorie_eltern_id: the table's
	// own word and one more, a role in a language no word list knows.
	// Weaker than a known role: the values must add to it.
	if same && !exactName && c.suffix != "" && len(c.stem) == 2 {
		for i, w := range c.stem {
			if other := c.stem[1-i]; (w == last[0] || naming.Inflected(w, last[0])) && other != w && !naming.Generic(other) && !naming.Lookup(other) {
				if _, isKey := naming.KeySuffix(other); !isKey {
					try(qualifiedSelfScore, selfQualifiedRule)
				}
			}
		}
	}
	// BillToCustomerID in Customers: the table's own entity after words of
	// a role (bill to), another of its rows.
	if same && !exactName && c.suffix != "" && len(c.stem) > len(ent)+1 && hasSuffixToks(c.stem, ent) {
		role := c.stem[:len(c.stem)-len(ent)]
		if !slices.ContainsFunc(role, func(w string) bool {
			_, isKey := naming.KeySuffix(w)
			return isKey || naming.Generic(w) || naming.Lookup(w) || slices.Contains(ent, w)
		}) {
			try(qualifiedSelfScore, selfQualifiedRule)
		}
	}
	return best
}

// gluedPenalty is what a name's score loses when its key suffix had to be
// read apart from the words it is glued to (unglued).
const gluedPenalty = 0.05

// unglued reads a column named as one word, a key suffix glued to the end
// of entity's words (userid, mnethostid, realuserid), as those words and
// the suffix: user + id. ok is false where the word is no such thing.
// Entity words must keep minGluedEntity letters together.
func unglued(c keyName, entity []string) (keyName, bool) {
	n := len(c.tokens)
	if n == 0 {
		return keyName{}, false
	}
	w := c.tokens[n-1]
	for j := range entity {
		e := glued(entity[j:])
		if len(e) < minGluedEntity {
			continue
		}
		for i := len(e); i < len(w); i++ {
			cls, ok := naming.KeySuffix(w[i:])
			if !ok || !strings.HasSuffix(w[:i], e) {
				continue
			}
			words := slices.Clone(c.tokens[:n-1])
			if before := w[:i-len(e)]; before != "" {
				words = append(words, before)
			}
			words = append(words, entity[j:]...)
			return keyName{tokens: append(slices.Clone(words), w[i:]), stem: words, suffix: cls, raw: c.raw}, true
		}
	}
	return keyName{}, false
}

// minGluedEntity is the fewest letters of a target's words a glued name
// must hold (userid, but no key of a "pa" in paid).
const minGluedEntity = 3

// qualifiedSelfScore is the name score of a column named after its own
// table's rows and one word no list knows (id_categoria_padre), under
// selfQualifiedRule. Candidates drops it where the two words name
// another table (order_line_id in orders).
const (
	qualifiedSelfScore = 0.6
	selfQualifiedRule  = "self_qualified"
)

// selfRoleScore is the name score of a self role.
const selfRoleScore = 0.7

// selfRole reports whether a column of a table whose rows are called
// entity is named as another row of it: a self role that names a key
// (manager_id, parent_code) or is the role itself (ReportsTo, parent);
// lead_time and head_count are measures. A role a person plays (manager,
// supervisor, head) links rows of people only: an item's manager_id names
// an employee, not an item.
func selfRole(c keyName, entity string) bool {
	if len(c.tokens) == 0 {
		return false
	}
	role, ok := naming.SelfRoleOf(c.tokens[0]) // manager, or mgr
	return ok && (!naming.Role(role) || naming.Acts(entity) || naming.Person(entity)) &&
		(c.suffix != "" || len(c.tokens) == 1 || (len(c.tokens) == 2 && roleLinks[c.tokens[1]]))
}

func glued(toks []string) string { return strings.Join(toks, "") }

// inflectedRun reports whether two runs of words are one in two
// inflections: the same words but the last, which naming.Inflected
// takes for one word (kunde, kunden).
func inflectedRun(a, b []string) bool {
	n := len(a)
	return n > 0 && n == len(b) && slices.Equal(a[:n-1], b[:n-1]) && naming.Inflected(a[n-1], b[n-1])
}

// inflectionKey indexes a word by the start inflections keep; "" for a
// word too short to inflect that way.
func inflectionKey(w string) string {
	if len(w) < 4 {
		return ""
	}
	return "i:" + w[:4]
}

// shortens reports whether words are ent's words one for one, each the
// same or shortened (naming.Abbreviates), at least one shortened.
func shortens(words, ent []string) bool {
	if len(words) == 0 || len(words) != len(ent) {
		return false
	}
	short := false
	for i, w := range words {
		switch {
		case w == ent[i]:
		case naming.Abbreviates(w, ent[i]):
			short = true
		default:
			return false
		}
	}
	return short
}

// roleScore: a role over a one-letter stem (target_u_id) says less than a
// role over a real word (supplier_company_id).
func roleScore(stem []string) float64 {
	if len(strings.Join(stem, "")) < 3 {
		return 0.6
	}
	return 0.75
}

// owns reports whether a key name is the table's own name: station owns
// station_id, so reading.station_id refers to station, not the other way
// round.
func owns(table, col string) bool {
	if naming.Extension(table) {
		return false // a satellite's key is its hub's or link's
	}
	return ownsNames(entityOf(table), splitKeyName(col))
}

func ownsNames(entity []string, k keyName) bool {
	ent := glued(entity)
	if len(k.stem) == 0 {
		return true // a bare id belongs to its table
	}
	stem := glued(k.stem)
	if stem == ent || inflectedRun(k.stem, entity) {
		return true // station_id of station, kunde_id of kunden
	}
	if sameWords(k.stem, entity) {
		return true // hk_lineitem_link of link_lineitem
	}
	// dormid, custno: a key suffix glued to the table's name.
	suf, ok := strings.CutPrefix(glued(k.tokens), ent)
	if !ok {
		return false
	}
	_, isKey := naming.KeySuffix(suf)
	return isKey
}

// sameWords reports whether a and b are the same two or more words in
// another order.
func sameWords(a, b []string) bool {
	if len(a) < 2 || len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
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
	// InKey: one of the columns of the table's declared primary key of
	// several. The declaration says its values repeat, however unique a
	// one-version load shows them (sat_customer(hk_customer, load_dts)).
	InKey bool
	// Bare is Name without the prefix every column of its table carries
	// (l_partkey in a table whose columns are all l_…): the name as names
	// are matched. "" when the table has no such prefix.
	Bare string
	// fallback: the column's profile failed, and Profile is of its table's
	// first rows (fallback.go), as is its sketch.
	fallback bool
	// TableRows is the table's size as the run knows it, when the profile
	// is of a sample and the run reads the table whole for its checks (0
	// otherwise, or unknown).
	TableRows int64
}

// named is the column's name as names are matched: without its table's
// column prefix.
func (c Column) named() string {
	if c.Bare != "" {
		return c.Bare
	}
	return c.Name
}

// ColumnPrefixes finds the tables whose columns all begin with one short
// prefix and an underscore (l_orderkey, l_partkey, l_quantity; ss_item_sk,
// ss_sold_date_sk), a convention that names a table's columns after the
// table rather than after what they hold. The prefix must be at most four
// letters, spelled by letters of the table's name in order (l for
// lineitem, ss for store_sales, dd for day_dim), and the table must have
// at least two columns, each with a name left after it. It returns the
// prefix (as the columns spell it, underscore included) by table.
func ColumnPrefixes(cols []Column) map[string]string {
	byTable := map[string][]string{}
	var order []string
	for _, c := range cols {
		if _, ok := byTable[c.Table]; !ok {
			order = append(order, c.Table)
		}
		byTable[c.Table] = append(byTable[c.Table], c.Name)
	}
	out := map[string]string{}
	for _, t := range order {
		names := byTable[t]
		if len(names) < 2 {
			continue
		}
		i := strings.IndexByte(names[0], '_')
		if i < 1 || i > 4 {
			continue
		}
		pre := strings.ToLower(names[0][:i+1])
		if !spells(strings.ToLower(t), pre[:i]) {
			continue
		}
		all := true
		for _, n := range names {
			if len(n) <= len(pre) || strings.ToLower(n[:len(pre)]) != pre {
				all = false
				break
			}
		}
		if all {
			out[t] = names[0][:i+1]
		}
	}
	return out
}

// OwnKeys returns whether a column of cols is its table's own key, so
// that a key of another table it overlaps may be a sibling's
// (SiblingKeys): declared, or, in a table that declares no primary key,
// found in the data and named as a key, after its table (purchase_sk of
// purchase) or as the only unique key-named column of it (hm_demo_sk of
// home_demographics). A reference that happens to be unique in a small
// table is not.
func OwnKeys(cols []Column) func(Column) bool {
	bare := barer(cols)
	keyNamed := map[string]int{} // a table's undeclared unique columns named as keys
	declaredKey := map[string]bool{}
	for _, c := range cols {
		if c = bare(c); !c.Declared && c.Key() && keyLikeName(c.named()) {
			keyNamed[c.Table]++
		}
		if c.PK || c.InKey {
			declaredKey[c.Table] = true
		}
	}
	return func(c Column) bool {
		c = bare(c)
		if c.Declared {
			return true
		}
		// A table that declares its primary key has said which its own is:
		// another column unique in it (a body's revision_id beside its key
		// entity_type, entity_id, …) may reference another table's.
		return !declaredKey[c.Table] && c.Key() && keyLikeName(c.named()) && (owns(c.Table, c.named()) || keyNamed[c.Table] == 1)
	}
}

// barer returns what gives a column of cols its Bare name, from the
// prefixes ColumnPrefixes finds among cols.
func barer(cols []Column) func(Column) Column {
	prefixes := ColumnPrefixes(cols)
	return func(c Column) Column {
		if p := prefixes[c.Table]; p != "" {
			c.Bare = c.Name[len(p):]
		}
		return c
	}
}

// withBareNames is a copy of cols, each with its Bare name.
func withBareNames(cols []Column) []Column {
	bare := barer(cols)
	out := make([]Column, len(cols))
	for i, c := range cols {
		out[i] = bare(c)
	}
	return out
}

// spells reports whether the letters of abbr appear in name in order, the
// first of them first: l in lineitem, ss in store_sales, ca in
// customer_address.
func spells(name, abbr string) bool {
	if abbr == "" || name == "" || name[0] != abbr[0] {
		return false
	}
	j := 0
	for i := 0; i < len(name) && j < len(abbr); i++ {
		if name[i] == abbr[j] {
			j++
		}
	}
	return j == len(abbr)
}

// Key reports whether the column can be a reference's target: declared
// unique, or unique and never NULL on an exact profile. On a sample, a
// column with a key-like name that is unique and never NULL across the
// whole sample is one too: a column with duplicates would show some in a
// sample of many rows (each duplicated pair is in a sample of a share f
// of the rows with chance f²), and a dimension larger than --sample-rows
// (a buyer profile of two million rows) would otherwise lose every reference
// to it. The score discounts such a target (Score).
func (c Column) Key() bool {
	if c.Declared {
		return true
	}
	if c.InKey {
		return false
	}
	p := c.Profile
	if p == nil || p.DistinctCount == nil || p.NullFraction == nil || *p.NullFraction != 0 {
		return false
	}
	if p.Sampled {
		// The profile's distinct count is then the whole table's, estimated
		// (a HyperLogLog sketch's error is about 1%).
		return c.TableRows > 0 && p.Rows >= sampledKeyMinRows && keyLikeName(c.named()) &&
			float64(*p.DistinctCount) >= sampledKeyMinShare*float64(c.TableRows)
	}
	return !p.DistinctIsEstimate && p.Rows >= 2 && *p.DistinctCount == p.Rows
}

// columnOf is t's column that name (from a declaration, which an engine
// that folds names keeps as written) means, or name when none does.
func columnOf(t warehouse.Table, name string) string {
	if c, ok := naming.FindColumn(t, name); ok {
		return c
	}
	return name
}

// qualified is table.column as the source spells them: the column's key
// in maps, never folded (where names keep their case, "Users".id and
// users.id are two).
func (c Column) qualified() string { return c.Table + "." + c.Name }

// Candidate is a possible reference from Child to Parent.
type Candidate struct {
	Child, Parent Column
	Name          NameMatch
	// keysBelow, for a pair the values proposed, is how many of the key's
	// values lie in 0..the child's greatest value (values.go); -1 unknown.
	keysBelow int64
}

// Key is the catalog key the relationship would have.
func (c Candidate) Key() string {
	return c.Doc().Key()
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
//
// Only keys that share a word run with the column are scored: an index of
// the keys by the words MatchName compares keeps the pairing linear in the
// columns, where scoring every column against every key would grow with
// their product.
func Candidates(cols []Column) []Candidate {
	memo.Store(nil) // what the last database's names split into is not kept
	cols = withBareNames(cols)
	hasPK := map[string]bool{}
	for _, c := range cols {
		if c.PK {
			hasPK[c.Table] = true
		}
	}
	var keys []Column
	for _, c := range cols {
		// A column unique by chance in a small table (a name, a rank) is
		// no key: an undeclared target must be named like one. Left out
		// before the index, a thousand tables' unique names are not each
		// matched against the others.
		if !c.Key() || !(c.Declared || keyLikeName(c.named()) || owns(c.Table, c.named())) {
			continue
		}
		// Nor is a second unique number beside a table's declared key,
		// unless named as one: it orders the rows (a role's sortorder, a
		// rank), and another table's column of that name orders its own.
		if !c.PK && hasPK[c.Table] && typeClass(c.Type) == "integer" && !keyLikeName(c.named()) && !owns(c.Table, c.named()) {
			continue
		}
		keys = append(keys, c)
	}
	ownKey := OwnKeys(cols)
	idx := indexKeys(keys)
	entityPrefix := EntityPrefixes(cols)
	entities := map[string]bool{}
	for _, c := range cols {
		entities[glued(entityOf(c.Table))] = true
	}
	var out []Candidate
	// A column without a profile (its table's profiling was given up) is
	// a candidate all the same: its names propose, and the exact check,
	// on a sample of a table too large to read, decides.
	for _, col := range cols {
		forms := []Column{col}
		if full, ok := asWritten(col); ok {
			forms = append(forms, full)
		}
		if short, ok := withoutEntity(col, entityPrefix[col.Table]); ok {
			forms = append(forms, short)
		}
		var found []int
		for _, f := range forms {
			found = append(found, idx.lookup(f)...)
		}
		slices.Sort(found)
		for _, i := range slices.Compact(found) {
			k := keys[i]
			if col.Table == k.Table && col.Name == k.Name {
				continue // never a column to itself
			}
			// A key is named with its prefix or without it: l_partkey
			// names p_partkey as partkey, bk_au_id names au_id as written.
			var ch Column
			var m NameMatch
			for _, f := range forms {
				fm := MatchName(f.Table, f.named(), k.Table, k.named())
				if k.Bare != "" {
					if m2 := MatchName(f.Table, f.named(), k.Table, k.Name); m2.Score > fm.Score {
						fm = m2
					}
				}
				if fm.Score > m.Score {
					ch, m = f, fm
				}
			}
			if m.Score == 0 {
				continue
			}
			if m.Rule == selfQualifiedRule && entities[glued(splitKeyName(ch.named()).stem)] {
				continue // order_line_id in orders names the order lines
			}
			// A table's own key links to another's only as a one-to-one
			// extension the names say, not through a word that names no
			// entity (orders.order_id is no order_items.order_item_id).
			if ownKey(ch) && (SiblingKeys(ch, k) || m.Rule == genericRule) {
				continue
			}
			out = append(out, Candidate{Child: ch, Parent: k, Name: m})
		}
	}
	return out
}

// minEntityPrefixed is how many of a table's columns must begin with the
// word its rows are called for that word to be a prefix convention.
const minEntityPrefixed = 3

// EntityPrefixes finds the tables whose columns begin, many of them, with
// the word the table's rows are called: post_author, post_parent,
// post_title of posts; comment_post_ID, comment_parent of comments. Unlike
// ColumnPrefixes the convention need not hold for every column (ID,
// user_id). It returns the word as the columns spell it by table.
func EntityPrefixes(cols []Column) map[string]string {
	count := map[string]int{}
	spelled := map[string]string{}
	for _, c := range cols {
		if c.Bare != "" {
			continue // a table-wide prefix comes first
		}
		if p, ok := entityPrefixOf(c.Table, c.Name); ok {
			count[c.Table]++
			spelled[c.Table] = p
		}
	}
	out := map[string]string{}
	for t, n := range count {
		if n >= minEntityPrefixed {
			out[t] = spelled[t]
		}
	}
	return out
}

// entityPrefixOf returns the start of col that spells its table's entity
// word (its last word, singular), when a word boundary follows it and
// more of the name does.
func entityPrefixOf(table, col string) (string, bool) {
	ent := entityOf(table)
	if len(ent) == 0 {
		return "", false
	}
	toks := naming.NameTokens(col)
	if len(toks) < 2 || naming.Singular(toks[0]) != ent[len(ent)-1] || len(col) <= len(toks[0]) {
		return "", false
	}
	n := len(toks[0])
	if !strings.EqualFold(col[:n], toks[0]) {
		return "", false
	}
	switch next := col[n]; {
	case next == '_':
		return col[:n+1], true
	case next >= 'A' && next <= 'Z':
		return col[:n], true
	}
	return "", false
}

// withoutEntity is the column named without its table's entity word
// (post_parent as parent, comment_post_ID as post_ID) when prefix is that
// word as the table's columns spell it and what is left still names
// something besides a key suffix (comment_ID is the comments' own key).
func withoutEntity(c Column, prefix string) (Column, bool) {
	if prefix == "" || c.Bare != "" || len(c.Name) <= len(prefix) || !strings.EqualFold(c.Name[:len(prefix)], prefix) {
		return c, false
	}
	rest := c.Name[len(prefix):]
	if len(splitKeyName(rest).stem) == 0 {
		return c, false
	}
	c.Bare = rest
	return c, true
}

// asWritten is the column named as written, without the Bare name its
// table's column prefix gives it, when that prefix is also the first word
// of the table's name: user_profile's user_id, user_name and user_email
// may be a prefix convention (id, name, email) or name a user, so both
// readings are matched. A prefix that spells the table's name without
// being a word of it (l_ of lineitem, ss_ of store_sales) is only a
// prefix.
func asWritten(c Column) (Column, bool) {
	if c.Bare == "" {
		return c, false
	}
	table := c.Table
	if i := strings.LastIndex(table, "."); i >= 0 {
		table = table[i+1:]
	}
	words := naming.NameTokens(table)
	prefix := strings.ToLower(strings.TrimSuffix(c.Name[:len(c.Name)-len(c.Bare)], "_"))
	if len(words) < 2 || words[0] != prefix {
		return c, false
	}
	c.Bare = ""
	return c, true
}

// keyIndex finds the keys a column's name can match. Every rule of
// MatchName between different tables compares the key's glued name or a
// run of the column's words with the key's entity, its stem or their last
// word, as written or with synonyms brought to one word, or matches a
// column naming who did something with the keys of tables of people;
// between a table and itself only self roles match.
type keyIndex struct {
	byWords map[string][]int // "g:" glued key name, "t:" word runs
	byTable map[string][]int // table, as spelled
	// shortened holds the words of the keys' tables by the index keys an
	// abbreviation of them may have (naming.AbbreviationKeys), each word
	// with its keys. A two-letter key is shared by every word with those
	// letters (customer_m001 … customer_m999 all under "cu"), so a column's
	// word is tested against the words (naming.Abbreviates) before their
	// keys are scored: scoring the bucket's keys grew with the square of
	// the tables where per-module or per-tenant copies share their words.
	shortened map[string]map[string][]int
}

func indexKeys(keys []Column) keyIndex {
	idx := keyIndex{byWords: map[string][]int{}, byTable: map[string][]int{}, shortened: map[string]map[string][]int{}}
	add := func(key string, i int) {
		if l := idx.byWords[key]; len(l) == 0 || l[len(l)-1] != i {
			idx.byWords[key] = append(l, i)
		}
	}
	addShortened := func(key, word string, i int) {
		words := idx.shortened[key]
		if words == nil {
			words = map[string][]int{}
			idx.shortened[key] = words
		}
		if l := words[word]; len(l) == 0 || l[len(l)-1] != i {
			words[word] = append(l, i)
		}
	}
	for i, k := range keys {
		ent := entityOf(k.Table)
		forms := []keyName{splitKeyName(k.named())}
		if k.Bare != "" {
			forms = append(forms, splitKeyName(k.Name))
		}
		// as written, then with synonyms brought to one word; without the
		// table's column prefix and with it
		type spelling struct {
			k   keyName
			ent []string
		}
		var spellings []spelling
		for _, kn := range forms {
			spellings = append(spellings, spelling{kn, ent}, spelling{kn.canon(), canonWords(ent)})
		}
		for _, n := range spellings {
			add("g:"+glued(n.k.tokens), i)
			add("g:"+n.k.raw, i)
			for j := range n.ent {
				if e := glued(n.ent[j:]); len(e) >= minGluedEntity {
					add("e:"+e, i) // userid, mnethostid, realuserid (unglued)
				}
			}
			runs := [][]string{n.ent, n.k.stem, n.ent[len(n.ent)-min(1, len(n.ent)):]}
			if len(n.ent) > 1 && naming.Lookup(n.ent[len(n.ent)-1]) {
				runs = append(runs, n.ent[:len(n.ent)-1]) // role_type, found by role_id
			}
			for _, run := range runs {
				if len(run) > 0 {
					add("t:"+strings.Join(run, " "), i)
					if ik := inflectionKey(run[len(run)-1]); ik != "" {
						add(ik, i) // kunde_id finds kunden
					}
				}
			}
		}
		for _, a := range naming.EntityAbbreviations(ent) {
			add("a:"+a, i) // cdemo_sk, promo_sk
		}
		for _, w := range ent {
			for _, a := range naming.AbbreviationKeys(w) {
				addShortened(a, w, i) // product_tmpl_id, categ_id, mgr: a word shortened (naming.Abbreviates)
			}
		}
		if ce := canonWords(ent); len(ce) > 0 && naming.Acts(ce[len(ce)-1]) {
			add("p:", i) // a table of people: the targets of approved_by
		}
		if len(ent) > 0 && naming.PersonSupertype(ent[len(ent)-1]) {
			add("s:", i) // a table of persons: the supertype of one kind of person
		}
		idx.byTable[k.Table] = append(idx.byTable[k.Table], i)
	}
	return idx
}

// lookup returns the indexes of the keys ch may be named after, ascending.
func (idx keyIndex) lookup(ch Column) []int {
	c := splitKeyName(ch.named())
	seen := map[int]bool{}
	var out []int
	take := func(l []int) {
		for _, i := range l {
			if !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	for _, n := range []keyName{c, c.canon()} {
		if len(n.stem) == 0 {
			// A name that is only a key suffix (id, code) names no other
			// table's key by its words: every table's bare id would be
			// looked up, a thousand tables' ids for each of a thousand.
			// Its own table's keys (self roles) and the supertypes' are
			// found below.
			continue
		}
		take(idx.byWords["g:"+glued(n.tokens)])
		take(idx.byWords["g:"+n.raw])
		for i := range n.tokens {
			for j := i + 1; j <= len(n.tokens); j++ {
				take(idx.byWords["t:"+strings.Join(n.tokens[i:j], " ")])
			}
		}
	}
	if c.suffix == "" && len(c.tokens) > 0 {
		// userid, realuserid: a key suffix glued to the end of a target's
		// words, which may follow other words (unglued).
		w := c.tokens[len(c.tokens)-1]
		for i := minGluedEntity; i < len(w); i++ {
			if _, ok := naming.KeySuffix(w[i:]); ok {
				for s := 0; s+minGluedEntity <= i; s++ {
					take(idx.byWords["e:"+w[s:i]])
				}
			}
		}
	}
	for _, tok := range c.tokens {
		// A word no key's table is named by may shorten one (tmpl, categ).
		if a, ok := naming.AbbreviationKey(tok); ok && len(idx.byWords["t:"+tok]) == 0 {
			for w, l := range idx.shortened[a] {
				if naming.Abbreviates(tok, w) {
					take(l)
				}
			}
		}
	}
	if len(c.stem) > 0 {
		take(idx.byWords["a:"+c.stem[len(c.stem)-1]])
		if ik := inflectionKey(c.stem[len(c.stem)-1]); ik != "" {
			take(idx.byWords[ik]) // kunde_id, lieferant: kunden, lieferanten
		}
	}
	if actorName(c) {
		take(idx.byWords["p:"])
	}
	if owns(ch.Table, ch.named()) {
		take(idx.byWords["s:"])
	}
	take(idx.byTable[ch.Table])
	sort.Ints(out)
	return out
}

// SiblingKeys reports whether two tables' own keys, ch a declared key of
// its table, are siblings rather than a one-to-one extension: keys named
// otherwise (their tables' column prefixes, say) are linked only when the
// name is the parent's and not the child's (customer_details.cust_key →
// customer.c_cust_key), or the child's table is named after the parent's
// (invoice_text → invoice).
// household_demographics.hd_demo_sk and customer_demographics.cd_demo_sk,
// both numbered 1..n, overlap by construction, not by reference.
func SiblingKeys(ch, k Column) bool {
	ce, pe := entityOf(ch.Table), entityOf(k.Table)
	extends := len(ce) > len(pe) && containsRun(ce, pe) // invoice_text of invoice
	if strings.EqualFold(ch.Name, k.Name) {
		// Spelled alike (wallets.holder_no, wallet_limits.holder_no): the
		// data, the tables' sizes and the chain decide. Unless the name is
		// what both tables' rows are called: meta_id of post_meta and of
		// comment_meta is each one's own numbering, and two numberings from
		// 1 overlap by construction.
		return headed(ch.Table, ch.named()) && headed(k.Table, k.named()) && !extends
	}
	if owns(k.Table, k.named()) && !owns(ch.Table, ch.named()) {
		return false
	}
	if personSubtype(ch.Table, k.Table) {
		return false // students' keys may be some of the people's: the values decide
	}
	return !extends
}

// headed reports whether a key is named after what its table's rows are:
// the key's words end the table's name (meta_id of postmeta, of
// comment_meta; station_id of station), glued or not.
func headed(table, col string) bool {
	k := splitKeyName(col)
	ent := entityOf(table)
	if len(k.stem) == 0 || len(ent) == 0 || naming.Extension(table) {
		return false
	}
	return strings.HasSuffix(glued(ent), glued(k.stem))
}

func keyLikeName(col string) bool {
	k := splitKeyName(col)
	return k.suffix != ""
}

// Prune rejects a candidate from the profiles alone, before any query: a
// child with more distinct values than the key could hold, value ranges
// that do not overlap, or numbers against text that starts with a letter
// cannot be a reference. It returns why not.
func Prune(c Candidate) (bool, string) {
	cls, why := prune(c)
	return cls == "", why
}

// Prune classes, as the run's evidence counts them.
const (
	pruneEmpty    = "empty"
	pruneDistinct = "distinct counts"
	pruneRange    = "ranges"
	pruneKind     = "numbers against text"
	pruneSample   = "value samples"
	pruneChance   = "the key's values near the child's"
)

// prune is Prune with the class of the reason; "" keeps the candidate.
func prune(c Candidate) (class, why string) {
	cp, pp := c.Child.Profile, c.Parent.Profile
	if cp == nil {
		return "", "" // nothing to prune by: the exact check decides
	}
	if cp.DistinctCount != nil && *cp.DistinctCount == 0 {
		return pruneEmpty, "child column is empty"
	}
	if cp.NullFraction != nil && *cp.NullFraction >= 1 {
		return pruneEmpty, "child column is empty"
	}
	if pp == nil {
		return "", ""
	}
	if pp.Sampled {
		// A key's sample holds some of its values: neither its count nor
		// its range bounds the child's.
		return "", ""
	}
	if cp.DistinctCount != nil && pp.DistinctCount != nil && !cp.DistinctIsEstimate && !pp.DistinctIsEstimate {
		if float64(*cp.DistinctCount)*minDistinctInclusion > float64(*pp.DistinctCount) {
			return pruneDistinct, fmt.Sprintf("child has %d distinct values, the key %d", *cp.DistinctCount, *pp.DistinctCount)
		}
	}
	if cmin, cmax, pmin, pmax, ok := ranges(c); ok && (cmax < pmin || cmin > pmax) {
		return pruneRange, fmt.Sprintf("ranges %s..%s and %s..%s do not overlap", num(cmin), num(cmax), num(pmin), num(pmax))
	}
	// Every collation sorts digits before letters: when one column's
	// greatest value is a number and the other's least starts with a
	// letter, no value of one can equal a value of the other (integers
	// against codes like 'X0012', whatever the comparison casts).
	switch {
	case numberRange(cp) && letterLed(pp.Min):
		return pruneKind, fmt.Sprintf("child values are numbers (%s..%s), the key's text from %q", *cp.Min, *cp.Max, *pp.Min)
	case numberRange(pp) && letterLed(cp.Min):
		return pruneKind, fmt.Sprintf("the key's values are numbers (%s..%s), the child's text from %q", *pp.Min, *pp.Max, *cp.Min)
	}
	return "", ""
}

// numberRange reports whether a column's least and greatest values are
// numbers, so that every value sorts no later than a number.
func numberRange(p *catalog.ProfileDoc) bool {
	if p.Min == nil || p.Max == nil {
		return false
	}
	_, err1 := strconv.ParseFloat(strings.TrimSpace(*p.Min), 64)
	_, err2 := strconv.ParseFloat(strings.TrimSpace(*p.Max), 64)
	return err1 == nil && err2 == nil
}

// letterLed reports whether a least value starts with a letter, so that no
// value of the column is a number.
func letterLed(min *string) bool {
	if min == nil || *min == "" {
		return false
	}
	for _, r := range *min {
		return unicode.IsLetter(r)
	}
	return false
}

// upperBound is the most confidence a candidate can reach, whatever its
// exact check finds: Score with every child value found in the key. The
// names, the profiles' ranges and distinct count and the key's declaration
// already fix everything else. Without an exact distinct count of the
// child, nothing is bounded.
func upperBound(c Candidate) float64 {
	p := c.Child.Profile
	if p == nil || p.Sampled || p.DistinctIsEstimate || p.DistinctCount == nil || *p.DistinctCount <= 0 {
		return 1
	}
	d := *p.DistinctCount
	nonNull := d
	if p.NullFraction != nil {
		nonNull = max(d, int64(math.Round(float64(p.Rows)*(1-*p.NullFraction))))
	}
	return Score(c, Inclusion{ChildDistinct: d, NonNull: nonNull}).Confidence
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
// Value sketches

// A column whose name matches several keys is read once: a bottom-k sketch
// keeps the sketchK values whose hashes are least, a uniform sample of its
// distinct values. One hash serves every column, so the samples are
// coordinated: a child value hashed below a key's threshold is in the key's
// sketch exactly when it is in the key. A sample that shows too few of the
// child's values in the key prunes the candidate before its exact check;
// each column is read at most once, so the reads grow with the columns and
// the exact checks with the columns that pass.
const (
	sketchK = 256
	// sketchMaxDistinct: a column with more distinct values is not read
	// whole; its candidates go to the exact check.
	sketchMaxDistinct = 200_000
	// sketchQueryRows: where rows cannot be streamed, the most distinct
	// values read through a query, under the engines' default row caps.
	sketchQueryRows = 10_000
	// sketchRisk: a sample prunes a candidate only when a child with
	// minDistinctInclusion of its values in the key would show so few
	// matches less often than this.
	sketchRisk = 0.001
)

type sketchValue struct {
	hash  uint64
	num   float64
	isNum bool
}

type sketch struct {
	values []sketchValue // least hashes first, at most sketchK
	has    map[uint64]bool
	tau    uint64 // every value hashed at most tau is in values: MaxUint64 when all are
	// partial: read from a sample of a table far larger than --sample-rows
	// (issue 9), which lacks some of its values: a child's values to look
	// for in a key, never a key to look values up in, and never complete.
	partial bool
}

// canonical writes a value so that values an engine holds equal are
// written alike: numbers in one form whatever their type ('5', 5, 5.0),
// text folded to lower case without trailing blanks (case-insensitive
// collations, PAD SPACE). It may also merge values an engine tells apart,
// which only makes a sample find more matches than there are: a sketch
// never prunes a candidate for a difference the engine does not see. Other
// types (times, decimals, blobs) are not sketched.
func canonical(v any) (s string, num float64, isNum, ok bool) {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10), float64(x), true, true
	case int:
		return canonical(int64(x))
	case int32:
		return canonical(int64(x))
	case int16:
		return canonical(int64(x))
	case int8:
		return canonical(int64(x))
	case uint32:
		return canonical(int64(x))
	case uint16:
		return canonical(int64(x))
	case uint8:
		return canonical(int64(x))
	case uint64:
		return strconv.FormatUint(x, 10), float64(x), true, true
	case float32:
		return canonical(float64(x))
	case float64:
		return canonicalNumber(x), x, true, true
	case string:
		t := strings.TrimSpace(x)
		if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return canonicalNumber(f), f, true, true
		}
		return strings.ToLower(strings.TrimRight(x, " ")), 0, false, true
	}
	return "", 0, false, false
}

func canonicalNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 9e18 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// sketches reads columns' sketches once each; a nil sketch is a column
// that cannot be sketched. The checks of several tables ask at once
// (checkCandidates): a column asked for while its read runs waits for it.
type sketches struct {
	env    *experts.Env
	tables map[string]warehouse.Table
	// sc, when set, holds the groups of the large child tables' integer
	// columns, counted from one read of each table's sample: a child's
	// sketch is taken from them rather than from a read of its own.
	sc     *streamChecks
	mu     sync.Mutex // done, reads
	done   map[string]*sketch
	reads  int
	flight singleflight.Group
}

func (k *sketches) get(ctx context.Context, c Column, asKey bool) (*sketch, error) {
	if asKey {
		scope, err := k.env.Scope(ctx, k.tables[c.Table])
		if err != nil {
			return nil, err
		}
		if scope.Sampled || c.fallback {
			return nil, nil // a sample of a key misses values it holds
		}
	}
	key := c.qualified()
	k.mu.Lock()
	s, ok := k.done[key]
	k.mu.Unlock()
	if ok {
		return s, nil
	}
	v, err, _ := k.flight.Do(key, func() (any, error) { return k.read(ctx, c, !asKey) })
	if err != nil {
		return nil, err
	}
	return v.(*sketch), nil
}

// store keeps a column's sketch, or nil for a column that cannot have one.
func (k *sketches) store(key string, s *sketch) *sketch {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.done[key] = s
	return s
}

// read reads a column's sketch: the distinct values of its table's sample
// (or of all its rows), a bounded number of the least hashed kept.
func (k *sketches) read(ctx context.Context, c Column, child bool) (*sketch, error) {
	key := c.qualified()
	t := k.tables[c.Table]
	scope, err := k.env.Scope(ctx, t)
	if err != nil {
		return nil, err
	}
	p := c.Profile
	limit := int64(sketchMaxDistinct)
	if !k.env.CanStream() {
		// a capped result is no sample: read only what fits under the cap
		limit = sketchQueryRows
		if m := k.env.Options.MaxRows; m > 0 && int64(m) < limit {
			limit = int64(m)
		}
	}
	if p == nil || p.DistinctCount == nil {
		return k.store(key, nil), nil
	}
	if d := *p.DistinctCount; d > limit && (!scope.Sampled || min(d, scope.Target) > limit) {
		return k.store(key, nil), nil
	}
	q := k.env.Dialect().QuoteIdent(c.Name)
	// A table far larger than the sample gives the distinct values of its
	// sample: a sample of the values weighted by their rows.
	from := scope.From("")
	if c.fallback {
		from = fmt.Sprintf("(SELECT %s FROM %s %s) fallback", q, scope.Quoted(), k.env.Dialect().Limit(fallbackRows))
	}
	sql := fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL", q, from, q)
	byHash := map[uint64]sketchValue{}
	usable := true
	add := func(v any) {
		s, num, isNum, ok := canonical(v)
		if !ok {
			usable = false
			return
		}
		h := stablehash.Hash64(s)
		byHash[h] = sketchValue{h, num, isNum}
	}
	keepKey := ""
	if k.env.CanStream() {
		// A sketch an earlier run read over the same data stands
		// (kept.go).
		res, kk, hit := k.env.Kept(ctx, keptSketch+sql)
		if hit {
			if s, ok := decodeSketch(res); ok {
				if s != nil {
					s.partial = scope.Sampled || c.fallback
				}
				return k.store(key, s), nil
			}
		}
		keepKey = kk
	}
	// A child column of a large table whose integer values the streamed
	// checks count anyway: its distinct values are those groups' (the same
	// rows of the same sample), so its table's sample is read once for
	// both, not once more per column (at the star's scale 10, ten reads of
	// 6 to 21 s each).
	var g *groups
	if child && !c.fallback {
		if g, err = k.sc.columnGroups(ctx, c, scope); err != nil {
			return nil, err
		}
	}
	if g == nil {
		k.mu.Lock()
		k.reads++
		k.mu.Unlock()
	}
	switch {
	case g != nil:
		for x := range g.counts {
			add(x)
		}
	case k.env.CanStream():
		streamedColumns.Add(1)
		err = k.env.Stream(ctx, sql, func(row []any) error {
			if len(row) > 0 && usable {
				add(row[0])
			}
			return nil
		})
	default:
		var res *warehouse.Result
		res, err = k.env.Query(ctx, sql)
		if err == nil {
			usable = !res.Truncated // a part of the values is no sample
			for _, row := range res.Rows {
				if len(row) > 0 && usable {
					add(row[0])
				}
			}
		}
	}
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) {
			return nil, err
		}
		usable = false // the exact checks will do
	}
	if !usable {
		if err == nil {
			k.env.KeepFigures(ctx, keepKey, encodeSketch(nil))
		}
		return k.store(key, nil), nil
	}
	s := newSketch(byHash)
	k.env.KeepFigures(ctx, keepKey, encodeSketch(s))
	s.partial = scope.Sampled || c.fallback
	return k.store(key, s), nil
}

// newSketch keeps the sketchK least hashed of a column's values.
func newSketch(byHash map[uint64]sketchValue) *sketch {
	vs := make([]sketchValue, 0, len(byHash))
	for _, v := range byHash {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].hash < vs[j].hash })
	s := &sketch{tau: math.MaxUint64}
	if len(vs) > sketchK {
		vs = vs[:sketchK]
		s.tau = vs[sketchK-1].hash
	}
	s.values, s.has = vs, make(map[uint64]bool, len(vs))
	for _, v := range vs {
		s.has[v.hash] = true
	}
	return s
}

// denseKey reports whether a key's profile shows every integer from its
// least to its greatest value: any number in that range is in it.
func denseKey(p *catalog.ProfileDoc) (lo, hi float64, ok bool) {
	lo, hi, exact := exactRange(p)
	if !exact || p.DistinctIsEstimate || p.DistinctCount == nil || lo != math.Trunc(lo) || hi != math.Trunc(hi) {
		return 0, 0, false
	}
	return lo, hi, float64(*p.DistinctCount) == hi-lo+1
}

// calendar reports whether a key's profile shows every day from its first
// date to its last (a date dimension's date column).
func calendar(p *catalog.ProfileDoc) (lo, hi time.Time, ok bool) {
	if p == nil || p.Sampled || p.DistinctIsEstimate || p.DistinctCount == nil {
		return lo, hi, false
	}
	if lo, hi, ok = dateRange(p); !ok {
		return lo, hi, false
	}
	return lo, hi, *p.DistinctCount == int64(hi.Sub(lo).Hours()/24)+1
}

// dateRange is a column's least and greatest value when both are dates
// (a day, or midnight of one).
func dateRange(p *catalog.ProfileDoc) (lo, hi time.Time, ok bool) {
	if p == nil || p.Min == nil || p.Max == nil {
		return lo, hi, false
	}
	day := func(v string) (time.Time, bool) {
		v = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(v), "T00:00:00Z"), " 00:00:00")
		t, err := time.Parse(time.DateOnly, v)
		return t, err == nil
	}
	lo, ok1 := day(*p.Min)
	hi, ok2 := day(*p.Max)
	return lo, hi, ok1 && ok2 && !hi.Before(lo)
}

// exactRange is a numeric column's least and greatest value, when every
// value is a number and the profile saw every row.
func exactRange(p *catalog.ProfileDoc) (lo, hi float64, ok bool) {
	if p == nil || p.Sampled || p.Mean == nil || !numberRange(p) {
		return 0, 0, false
	}
	lo, _ = strconv.ParseFloat(strings.TrimSpace(*p.Min), 64)
	hi, _ = strconv.ParseFloat(strings.TrimSpace(*p.Max), 64)
	return lo, hi, true
}

// sampleMatches counts, of the child's sampled values whose membership in
// the key is known, how many the key holds. A value outside the key's
// exact range is not in it; one inside is looked up in the key's sketch
// when there is one (only values hashed below its threshold are counted,
// which keeps the sample uniform) and otherwise counted as found. Complete
// says the sample is every child value.
func sampleMatches(c Candidate, cs, ps *sketch) (found, known int, complete bool) {
	lo, hi, ranged := exactRange(c.Parent.Profile)
	tau := uint64(math.MaxUint64)
	if ps != nil {
		tau = ps.tau
	}
	for _, v := range cs.values {
		if v.hash > tau {
			break
		}
		known++
		switch {
		case ranged && v.isNum && (v.num < lo || v.num > hi):
		case ps != nil:
			if ps.has[v.hash] {
				found++
			}
		default:
			found++ // not known to be missing
		}
	}
	return found, known, !cs.partial && cs.tau == math.MaxUint64 && tau == math.MaxUint64
}

// samplePrunes reports whether so few sampled values were found that the
// child cannot have minDistinctInclusion of its values in the key: surely
// when the sample is every value, else with less than sketchRisk of being
// wrong (binomial tail; the sample is drawn without replacement, whose
// tail is thinner).
func samplePrunes(found, known int, complete bool) bool {
	if known == 0 {
		return false
	}
	if complete {
		return float64(found) < minDistinctInclusion*float64(known)
	}
	return binomialCDF(found, known, minDistinctInclusion) < sketchRisk
}

// binomialCDF is P(X <= k) for X ~ Binomial(n, p).
func binomialCDF(k, n int, p float64) float64 {
	sum := 0.0
	for i := 0; i <= k && i <= n; i++ {
		lg, _ := math.Lgamma(float64(n + 1))
		l1, _ := math.Lgamma(float64(i + 1))
		l2, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lg - l1 - l2 + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
	}
	return sum
}

// ---------------------------------------------------------------------------
// Scoring

// Inclusion is the exact check's figures.
type Inclusion struct {
	ChildDistinct  int64 // distinct non-NULL child values
	OrphanDistinct int64 // of those, how many the key does not hold
	NonNull        int64 // child rows with a value
	OrphanRows     int64 // of those, rows without a parent
	MaxChildren    int64 // the most rows holding one value the parent has
	// Sample names the sample of the child the figures come from, when it
	// is far larger than --sample-rows (issue 9): "" for the whole child.
	Sample string
}

// Scored is a candidate with its verdict.
type Scored struct {
	Candidate
	Verdict
}

// Verdict is what an exact check and the score make of a candidate, of
// one column (Scored) or several (CompositeScored).
type Verdict struct {
	Inclusion
	Confidence     float64
	Accept         bool
	OrphanFraction float64
	Cardinality    string
	Evidence       []string // which signals fired, with their figures
}

// checkWords name what a check counted, in its evidence: a column's
// values, or a composite's tuples.
type checkWords struct {
	empty      string // nothing to check
	distinct   string // what inclusion is a share of
	checked    string // the rows a refutation counts
	orphanRows string // the rows the orphans are of
}

var (
	valueWords = checkWords{"no non-NULL value to check", "distinct values", "non-NULL rows", "non-NULL rows"}
	tupleWords = checkWords{"no row with every column non-NULL to check", "distinct tuples", "rows with every column non-NULL", "rows"}
)

// measure records an exact check's figures: the share of child rows
// without a parent, one-to-one when every child row holds its own value,
// and the evidence of inclusion. It returns the share of the child's
// distinct values the key holds; ok is false when there was nothing to
// check.
func (v *Verdict) measure(in Inclusion, w checkWords) (incl float64, ok bool) {
	v.Inclusion, v.Cardinality = in, "one_to_many"
	if in.NonNull == 0 || in.ChildDistinct == 0 {
		v.Evidence = append(v.Evidence, w.empty)
		return 0, false
	}
	incl = 1 - float64(in.OrphanDistinct)/float64(in.ChildDistinct)
	v.OrphanFraction = float64(in.OrphanRows) / float64(in.NonNull)
	v.Evidence = append(v.Evidence, fmt.Sprintf("inclusion %.3f of %d %s", incl, in.ChildDistinct, w.distinct))
	if in.Sample != "" {
		// A sample's values are distinct more often than the table's: it
		// shows no one-to-one, and what it does show is an estimate.
		v.Evidence = append(v.Evidence, "checked "+in.Sample)
	} else if in.ChildDistinct == in.NonNull {
		v.Cardinality = "one_to_one"
	}
	return incl, true
}

// confirm weighs a name of strength name with the check measure read: too
// few values found or too many rows without a parent refute it (the
// confidence left is set, and held is false); otherwise inclusion confirms
// the name in proportion to how much it could have failed, discounted for
// orphans.
func (v *Verdict) confirm(name, incl float64, w checkWords) (conf float64, held bool) {
	if incl < minDistinctInclusion || v.OrphanFraction > MaxOrphanRows {
		v.Evidence = append(v.Evidence, fmt.Sprintf("%.1f%% of %s have no parent", 100*v.OrphanFraction, w.checked))
		v.Confidence = math.Round(name*(1-v.OrphanFraction)*incl*100) / 100
		return v.Confidence, false
	}
	// One distinct value proves little, dozens prove a lot.
	strength := 1 - math.Pow(0.5, float64(v.ChildDistinct))
	conf = name + (1-name)*0.6*strength*incl
	if v.OrphanFraction > 0 {
		conf *= 1 - 2*v.OrphanFraction
		v.Evidence = append(v.Evidence, fmt.Sprintf("orphans: %d of %d %s (%.1f%%): a dirty key", v.OrphanRows, v.NonNull, w.orphanRows, 100*v.OrphanFraction))
	}
	return conf, true
}

// settle discounts a check on a sample (no orphan in a sample is weaker
// than none in the table), keeps the confidence below certainty and
// decides acceptance.
func (v *Verdict) settle(conf float64) {
	if v.Sample != "" {
		conf *= experts.SampleDiscount
	}
	v.Confidence = math.Round(math.Min(conf, 0.99)*100) / 100
	v.Accept = v.Confidence >= AcceptScore
}

// Score turns a candidate and its exact check into one confidence. It starts
// from the name's strength, lets full inclusion confirm it, and discounts
// what makes inclusion cheap: few distinct child values, child values
// bunched at the low end of a surrogate key's range, a target that is only
// unique by profile, and a reference pointing the wrong way between two keys.
func Score(c Candidate, in Inclusion) Scored {
	s := Scored{Candidate: c}
	s.Evidence = append(s.Evidence, fmt.Sprintf("name (%s): %s.%s ~ %s.%s", c.Name.Rule, c.Child.Table, c.Child.Name, c.Parent.Table, c.Parent.Name))
	if c.Name.Rule != valueRule && c.Name.Rule != coverRule {
		var none string
		if in, none = noneValue(c, in); none != "" {
			s.Evidence = append(s.Evidence, none)
		}
	}
	incl, ok := s.measure(in, valueWords)
	if !ok {
		return s
	}
	switch c.Name.Rule {
	case valueRule:
		return scoreByValues(s, incl)
	case coverRule:
		return scoreByCoverage(s, incl)
	}
	conf, held := s.confirm(c.Name.Score, incl, valueWords)
	if !held {
		return s
	}
	if c.Name.Rule == supertypeRule && !supertypeProven(&s) {
		return s
	}
	if c.Name.Rule == genericRule {
		_, cmax, _, _, rok := ranges(c)
		_, pmax, pd, pok := integerColumn(c.Parent)
		if !rok || !pok || cmax != pmax || float64(in.ChildDistinct) < genericCover*float64(pd) {
			s.Evidence = append(s.Evidence, fmt.Sprintf("named only by the words before the last of %s's name, which names no entity alone, and holding %d of its %d keys, or not up to its last: no reference",
				c.Parent.Table, in.ChildDistinct, pd))
			return s
		}
		s.Evidence = append(s.Evidence, fmt.Sprintf("holds %d of %s's %d keys, up to its last", in.ChildDistinct, c.Parent.Table, pd))
	}
	if lo, hi, ok := calendar(c.Parent.Profile); ok {
		if clo, chi, ok := dateRange(c.Child.Profile); ok && !clo.Before(lo) && !chi.After(hi) {
			// A calendar holds every day from its first to its last: any
			// date in that span is in it, so finding the child's dates
			// there could not have failed and confirms nothing.
			conf = c.Name.Score
			s.Evidence = append(s.Evidence, fmt.Sprintf("no evidence in the values: %s holds every day %s..%s, so any date in between is found",
				c.Parent.qualified(), lo.Format(time.DateOnly), hi.Format(time.DateOnly)))
		}
	}
	if cmin, cmax, pmin, pmax, ok := ranges(c); ok {
		if cmin >= pmin && cmax <= pmax {
			s.Evidence = append(s.Evidence, fmt.Sprintf("child range %s..%s within parent %s..%s", num(cmin), num(cmax), num(pmin), num(pmax)))
		}
		// Small integers (seats 2..9) fit inside any surrogate key (1..40).
		// A real reference spreads over its parent's keys; values that all
		// sit in the low end would be a rare draw for one.
		// Not for a column naming who did something (approved_by,
		// LastEditedBy): the people who act (the staff, the
		// administrators) are a few of a table of people, and the first
		// entered, before the customers and contacts that follow them.
		if span := pmax - pmin + 1; span >= 10 && cmax >= pmin && c.Name.Rule != actorRule {
			q := math.Min(1, (cmax-pmin+1)/span)
			chance := math.Pow(q, float64(in.ChildDistinct))
			if q <= 0.5 && chance < 0.01 {
				conf *= 0.5 + 0.4*c.Name.Score
				s.Evidence = append(s.Evidence, fmt.Sprintf("coincidence: child values %s..%s fill only the low %.0f%% of parent %s..%s (chance %.2g for a reference)",
					num(cmin), num(cmax), 100*q, num(pmin), num(pmax), chance))
				// A column named as a number (page_number, manager_num,
				// line_no) against a key named as an identifier, holding
				// every integer from the key's first on in the low quarter
				// of its range: what an ordinal holds (page numbers, a
				// manager's number 1..100), and what a reference holds only
				// if it points at exactly the first parents. Only a strong
				// name says it is one. (A login_user_id of 1..40 among
				// users 1..200, or a vehicle's home depot 1..20 of depots
				// 1..40, may well be the first of them: named as ids.)
				// A table's own key numbered from the same first value
				// as the target's, every number up to its last, inside
				// the lower part of the target's: two tables each
				// numbering its rows from 1 (a vocabulary's vid 1..3 and
				// a revision's vid 1..1376), siblings, not a one-to-one
				// extension, unless the name is the target's alone
				// (film_text.film_id of film).
				if ownNumbering(c) && cmin == pmin && float64(in.ChildDistinct) == cmax-cmin+1 {
					s.Evidence = append(s.Evidence, fmt.Sprintf("two numberings: %s and %s each number their rows from %s, and the child's end early: not a one-to-one extension",
						c.Child.qualified(), c.Parent.qualified(), num(pmin)))
					s.Confidence = math.Round(math.Min(conf, AcceptScore/2)*100) / 100
					return s
				}
				if cmin == pmin && float64(in.ChildDistinct) == cmax-cmin+1 && q <= ordinalMaxShare &&
					in.ChildDistinct >= ordinalMinValues && c.Name.Score < ordinalNameScore && namedAsNumber(c) {
					conf *= 0.8
					s.Evidence = append(s.Evidence, fmt.Sprintf("an ordinal's values: every integer %s..%s, from the key's first", num(cmin), num(cmax)))
				}
			}
		}
	}
	if !c.Parent.Declared {
		conf *= 0.95
		s.Evidence = append(s.Evidence, "target unique by profile (no declared key)")
		if p := c.Parent.Profile; p != nil && p.Sampled {
			conf *= 0.95
			s.Evidence = append(s.Evidence, fmt.Sprintf("target unique in a sample of %d rows, not known for the whole table", p.Rows))
		}
	}
	// Two keys of the same name: the one whose table owns the name is the
	// parent (reading.station_id → station.station_id, not the reverse).
	if c.Name.Rule == "exact" {
		co, po := owns(c.Child.Table, c.Child.named()), owns(c.Parent.Table, c.Parent.named())
		switch {
		case co && !po:
			conf *= 0.6
			s.Evidence = append(s.Evidence, "the name belongs to the child's table: points the wrong way")
		case po:
			conf = math.Min(1, conf+0.02)
		}
	}
	s.settle(conf)
	return s
}

// noneValue reads a child's 0 (or -1) as "no parent" when it is the only
// value the key does not hold and below the key's least value: a column
// declared NOT NULL DEFAULT 0 (post_parent, a comment's user_id for a
// guest) says "none" so. The figures are returned without its rows, as
// if they were NULL, and the evidence says so; "" when the child has no
// such value. Only names propose such references: values never do.
func noneValue(c Candidate, in Inclusion) (Inclusion, string) {
	cp, pp := c.Child.Profile, c.Parent.Profile
	if in.OrphanDistinct != 1 || in.ChildDistinct < 2 || in.OrphanRows >= in.NonNull || pp == nil || pp.Sampled {
		return in, ""
	}
	cmin, _, pmin, _, ok := ranges(c)
	if !ok || (cmin != 0 && cmin != -1) || pmin <= cmin {
		return in, ""
	}
	none := num(cmin)
	if in.Sample != "" {
		// The profile's least value may be missing from the check's sample,
		// whose one orphan would then be another: only a frequent value is
		// surely in both.
		if !slices.ContainsFunc(cp.TopValues, func(tv catalog.ValueCount) bool { return tv.Value == none }) {
			return in, ""
		}
	}
	rows := "rows"
	if in.OrphanRows == 1 {
		rows = "row"
	}
	ev := fmt.Sprintf("%s in %s %s read as none: the one value %s does not hold, below its least %s",
		none, catalog.Thousands(in.OrphanRows), rows, c.Parent.qualified(), num(pmin))
	in.ChildDistinct--
	in.NonNull -= in.OrphanRows
	in.OrphanDistinct, in.OrphanRows = 0, 0
	return in, ev
}

// ownNumbering reports whether the child is its table's declared key and
// both keys are named alike or after neither table alone: a key named
// after the target's table (film_text.film_id of film) may be an
// extension's.
func ownNumbering(c Candidate) bool {
	if !c.Child.Declared || c.Child.InKey {
		return false
	}
	co, po := owns(c.Child.Table, c.Child.named()), owns(c.Parent.Table, c.Parent.named())
	return co || !po
}

// namedAsNumber reports whether the child is named as a number (its key
// suffix of the number kind: no, num, number) and the target as an
// identifier of another kind (id, key, sk, code).
func namedAsNumber(c Candidate) bool {
	ck, pk := splitKeyName(c.Child.named()), splitKeyName(c.Parent.named())
	return ck.suffix == "number" && pk.suffix != "number"
}

// supertypeProven weighs a subtype's key against its supertype's by the
// chance model of values.go: people numbered 1..n hold every small key of
// any other table, so only keys that would seldom fall among the persons'
// by chance (numbered apart, or sparse) prove the subtype, and nothing
// short of every value found. The key's distinct count bounds how many of
// 0..max it holds, so the chance is never understated.
func supertypeProven(s *Scored) bool {
	c, in := s.Candidate, s.Inclusion
	_, cmax, _, ok := integerColumn(c.Child)
	pp := c.Parent.Profile
	if !ok || pp == nil || pp.DistinctCount == nil || in.OrphanRows > 0 || in.ChildDistinct < valueMinDistinct {
		s.Evidence = append(s.Evidence, "a kind of person's key beside the persons': no values that could prove it")
		return false
	}
	chance := valueChance(in.ChildDistinct, cmax, *pp.DistinctCount)
	if chance > valueMaxChance {
		s.Evidence = append(s.Evidence, fmt.Sprintf("a kind of person's key beside the persons': %d values among %d of 0..%s would be so by chance %.2g, no proof", in.ChildDistinct, *pp.DistinctCount, num(cmax), chance))
		return false
	}
	s.Evidence = append(s.Evidence, fmt.Sprintf("a kind of person's key among the persons': %d values all among %d of 0..%s, by chance %.2g", in.ChildDistinct, *pp.DistinctCount, num(cmax), chance))
	return true
}

// Select keeps one target per child column, the best scored, and returns
// pairs whose second target scored nearly as well as ambiguities. An
// accepted reference whose target is not a declared key and is itself a
// reference elsewhere is dropped: a foreign key column is a copy, not the
// key it copies. A target named only through a synonym or as a person
// counts only when no target named as written was accepted. Among the
// targets left, one whose key references another of them is an
// extension's key: the column references the entity at the chain's end.
func Select(all []Scored) (kept []Scored, ambiguous [][2]Scored) {
	var accepted []Scored
	for _, s := range all {
		if s.Accept {
			accepted = append(accepted, s)
		}
	}
	// Two keys accepted as each other's reference (a satellite and the
	// link it describes, one row each) are settled first: otherwise each
	// is a reference elsewhere, and both would be dropped below.
	accepted = dropReversed(accepted)
	children := map[string]bool{}
	for _, s := range accepted {
		children[s.Child.qualified()] = true
	}
	byChild := map[string][]Scored{}
	var order []string
	for _, s := range accepted {
		if !s.Parent.Declared && children[s.Parent.qualified()] {
			continue
		}
		k := s.Child.qualified()
		if _, ok := byChild[k]; !ok {
			order = append(order, k)
		}
		byChild[k] = append(byChild[k], s)
	}
	sort.Strings(order)
	for _, k := range order {
		ss := byChild[k]
		// vendor_id references vendors when they hold its values, whatever
		// suppliers hold: a target named as written beats one named only
		// through a synonym or as a person.
		if slices.ContainsFunc(ss, func(s Scored) bool { return !s.Name.loose() }) {
			ss = slices.DeleteFunc(ss, func(s Scored) bool { return s.Name.loose() })
		}
		sort.SliceStable(ss, func(i, j int) bool {
			if ss[i].Confidence != ss[j].Confidence {
				return ss[i].Confidence > ss[j].Confidence
			}
			if ss[i].Parent.PK != ss[j].Parent.PK {
				return ss[i].Parent.PK
			}
			// sold_minute_sk names minute_dim's minute_sk rather than its
			// minute when both hold the same values: the key of its kind.
			if a, b := suffixAgrees(ss[i].Candidate), suffixAgrees(ss[j].Candidate); a != b {
				return a
			}
			if a, b := tighter(ss[i], ss[j]), tighter(ss[j], ss[i]); a != b {
				return a
			}
			return ss[i].Key() < ss[j].Key()
		})
		// Follow the chain to the entity: a target whose key references
		// another target of this column (an extension's key, which copies
		// its entity's) gives way to that one, however they scored.
		seen := map[string]bool{ss[0].Parent.qualified(): true}
		for {
			next := -1
			for _, up := range byChild[ss[0].Parent.qualified()] {
				back := slices.ContainsFunc(byChild[up.Parent.qualified()], func(o Scored) bool { return o.Parent.qualified() == ss[0].Parent.qualified() })
				if seen[up.Parent.qualified()] || back {
					continue // two keys that hold each other's values: no chain; dropReversed settles them
				}
				if i := slices.IndexFunc(ss, func(o Scored) bool { return o.Parent.qualified() == up.Parent.qualified() }); i > 0 {
					next = i
					break
				}
			}
			if next < 0 {
				break
			}
			ss[0], ss[next] = ss[next], ss[0]
			seen[ss[0].Parent.qualified()] = true
		}
		kept = append(kept, ss[0])
		if len(ss) > 1 && ss[0].Confidence-ss[1].Confidence <= ambiguityMargin && ss[0].Parent.Table != ss[1].Parent.Table {
			ambiguous = append(ambiguous, [2]Scored{ss[0], ss[1]})
		}
	}
	return dropReversed(kept), ambiguous
}

// tighter reports whether s's target holds the column's values among so
// many fewer keys than o's that the column is unlikely to reference o's:
// its d distinct values, drawn from o's keys, would all have missed o's
// others with chance at most (keys(s)/keys(o))^d, which must be below
// valueMaxChance. Names that tie decide nothing (an issue's author_id is a
// user or a person, both people who act); users 1..400 and people 1..500
// both hold an author_id of 287 values up to 400, which 287 people drawn
// among 500 would be by chance 1e-28.
func tighter(s, o Scored) bool {
	ks, ko := rows(s.Parent), rows(o.Parent)
	d := min(s.Inclusion.ChildDistinct, o.Inclusion.ChildDistinct)
	if ks <= 0 || ko <= ks || d < valueMinDistinct || s.Inclusion.OrphanRows > 0 || o.Inclusion.OrphanRows > 0 {
		return false
	}
	return float64(d)*math.Log(float64(ks)/float64(ko)) < math.Log(valueMaxChance)
}

// suffixAgrees reports whether the child's and the target's names end in
// the same kind of key suffix (both _sk, both _id).
func suffixAgrees(c Candidate) bool {
	cs, ps := splitKeyName(c.Child.named()).suffix, splitKeyName(c.Parent.named()).suffix
	return cs != "" && cs == ps
}

// dropReversed settles two keys that were both inferred to reference each
// other (a.x → b.x and b.x → a.x, equal value sets): the parent is the side
// whose table a naming convention does not mark as an extension (a Data
// Vault satellite), then the side with more values, then the side the other references point at (the
// entity the chain leads to: wallet_limits and wallet_audits both extend
// wallets, so wallets is the parent of wallet_limits even when the two
// hold the same holders), then the better score, then the side whose
// table's name holds the column's words (hk_part_supplier of
// link_part_supplier, not of sat_partsupp); a full tie keeps both.
func dropReversed(kept []Scored) []Scored {
	idx := map[string]int{}
	for i, s := range kept {
		idx[s.Key()] = i
	}
	// referenced counts the references into a table, by column: the pair
	// itself is counted on both sides alike, so it decides nothing.
	referenced := map[string]int{}
	for _, s := range kept {
		referenced[s.Parent.qualified()]++
	}
	drop := map[int]bool{}
	for i, s := range kept {
		rev := catalog.RelationshipKey(s.Parent.Table, []string{s.Parent.Name}, s.Child.Table, []string{s.Child.Name})
		j, ok := idx[rev]
		if !ok || drop[i] || drop[j] {
			continue
		}
		o := kept[j]
		// loser is the reference dropped when s's parent wins.
		loser := func(sWins bool) int {
			if sWins {
				return j
			}
			return i
		}
		rs, ro := referenced[s.Parent.qualified()], referenced[o.Parent.qualified()]
		se, oe := naming.Extension(s.Parent.Table), naming.Extension(o.Parent.Table)
		switch {
		case se != oe:
			drop[loser(oe)] = true // the convention names the extension (sat_customer)
		case rows(s.Parent) != rows(o.Parent):
			drop[loser(rows(s.Parent) > rows(o.Parent))] = true
		case rs != ro:
			drop[loser(rs > ro)] = true
		case s.Confidence != o.Confidence:
			drop[loser(s.Confidence > o.Confidence)] = true
		default:
			if sn, on := namesRun(s.Parent), namesRun(o.Parent); sn != on {
				drop[loser(sn)] = true
			}
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

// namesRun reports whether a key's table's name holds the words the key
// is named by, in order.
func namesRun(c Column) bool {
	k := splitKeyName(c.named())
	return len(k.stem) > 0 && containsRun(entityOf(c.Table), k.stem)
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
	case warehouse.NumericType(t):
		return "integer" // numbers compare with numbers
	case strings.Contains(u, "CHAR"), strings.Contains(u, "CLOB"), strings.Contains(u, "TEXT"), strings.Contains(u, "STRING"),
		warehouse.EnumType(t):
		return "text" // an enumeration's labels are text
	}
	return u
}

// lookupReadsWhole reports whether searching a parent read through a
// sample by its key would read it whole: on an engine whose only sample
// is a table's first rows (Capabilities.LimitSample, Trino), which plans
// the search as a join.
func lookupReadsWhole(d warehouse.Dialect, ps experts.Scope) bool {
	return ps.Sampled && d.Capabilities().LimitSample
}

// InclusionSQL is the exact check: the child's distinct values, how many of
// them the key lacks, the same in rows, and the most rows of the child
// holding one value the key has (the most children of one parent, which
// the cardinality of the reference needs). The child is grouped by its
// value first, so the key is searched once per distinct value rather than
// once per row; the target is unique, so the LEFT JOIN does not multiply
// the groups. Columns whose declared types differ (text holding integers)
// are compared as text, which every engine can do.
func InclusionSQL(d warehouse.Dialect, child, parent warehouse.TableName, ccol, pcol string, cast bool) string {
	return inclusionSQL(d, experts.Whole(d, warehouse.Table{Name: child}), experts.Whole(d, warehouse.Table{Name: parent}), ccol, pcol, cast)
}

// inclusionSQL is InclusionSQL reading the child through its scope (a
// sample of a child far larger than --sample-rows), and looking each child
// value up in a parent far larger than the sample by its key, one search
// per value, rather than joining it: a planner may join by a hash of the
// whole parent. Such a lookup needs the key compared as it is, so a cast
// (types that differ) is not checked against so large a parent: "" then.
// Nor is any parent whose lookup would read it whole (lookupReadsWhole).
func inclusionSQL(d warehouse.Dialect, cs, ps experts.Scope, ccol, pcol string, cast bool) string {
	c, p := "c."+d.QuoteIdent(ccol), "p."+d.QuoteIdent(pcol)
	groups := fmt.Sprintf("(SELECT %[1]s AS v, COUNT(*) AS n FROM %[2]s WHERE %[1]s IS NOT NULL GROUP BY %[1]s) g", c, cs.From("c"))
	var from string
	if ps.Sampled {
		if cast && !d.Capabilities().DynamicTypes || lookupReadsWhole(d, ps) {
			return ""
		}
		from = fmt.Sprintf("(SELECT g.n AS n, %s AS hit FROM %s) h", d.Lookup(ps.Quoted(), "p", p+" = g.v"), groups)
	} else {
		// An engine of dynamic types compares a text column with a
		// numeric one by the numeric column's affinity ('5' = 5, '1' =
		// 1.0); a cast to text would lose 1 = 1.0. Other engines refuse to
		// compare text with numbers.
		on := p + " = g.v"
		if cast && !d.Capabilities().DynamicTypes {
			on = d.CastText(p) + " = " + d.CastText("g.v")
		}
		from = fmt.Sprintf("(SELECT g.n AS n, %s AS hit FROM %s LEFT JOIN %s ON %s) h", p, groups, ps.From("p"), on)
	}
	return inclusionFigures + from
}

// inclusionFigures are the figures of an inclusion check read from h, the
// child's groups (one per distinct value or tuple, with its rows n) and
// hit, NULL when the parent lacks the group's value.
const inclusionFigures = "SELECT COUNT(*) AS child_distinct, " +
	"COUNT(CASE WHEN h.hit IS NULL THEN 1 END) AS orphan_distinct, " +
	"COALESCE(SUM(h.n), 0) AS non_null, " +
	"COALESCE(SUM(CASE WHEN h.hit IS NULL THEN h.n END), 0) AS orphan_rows, " +
	"MAX(CASE WHEN h.hit IS NOT NULL THEN h.n END) AS max_children FROM "

// InferReady reports whether every table inference may look at (base
// tables: views are not profiled for it) has its profiles in this run, or
// its profiling was given up (experts.Profiled), so that inference runs
// once on complete facts.
func InferReady(ctx context.Context, env *experts.Env) (bool, error) {
	profiled, err := env.TablesReached(ctx, experts.Profiled)
	if err != nil {
		return false, err
	}
	for _, t := range env.Tables {
		if t.Kind == "table" && !profiled[t.Name.String()] {
			return false, nil
		}
	}
	return true, nil
}

// InferStats is the bookkeeping of one inference, saved as the progress
// entry of experts.ReferencesInferred (a ProgressDoc with these figures beside it, and
// the same figures as its evidence): how many candidates the names
// proposed, how many were pruned without a query or settled by a better
// target, how many exact inclusion checks ran. The exact checks are the
// inference's cost; pruning keeps them growing with the columns, not with
// their square. Candidates = Declared + Pruned + Dominated + Checks.
type InferStats struct {
	catalog.ProgressDoc
	Candidates int `json:"candidates"` // (column, key) pairs whose names match, or whose values (ValueCandidates)
	// ValueCandidates are the pairs the values proposed where the names
	// proposed none (values.go), counted in Candidates too.
	ValueCandidates int `json:"value_candidates,omitempty"`
	Declared        int `json:"declared"` // of those, columns already declared as references
	Pruned          int `json:"pruned"`   // rejected without an exact check
	// PrunedBy counts the pruned candidates by what rejected them: the
	// profiles' distinct counts, ranges, numbers against text, an empty
	// child, or a sample of the values (sketches).
	PrunedBy map[string]int `json:"pruned_by"`
	// Dominated candidates were not checked: a reference confirmed for the
	// same column scored more than they could.
	Dominated int `json:"dominated"`
	// Sketched columns were read once for a sample of their values.
	Sketched int `json:"sketched"`
	// SampleProfiled columns had no profile (it failed) and were given one
	// of their table's first rows (fallback.go).
	SampleProfiled int `json:"sample_profiled,omitempty"`
	Checks         int `json:"exact_checks"` // inclusion queries run
	Inferred       int `json:"inferred"`     // relationships saved, composite ones included
	// Composite references (composite.go): candidates to keys of two
	// columns or more, their exact checks, and the references (of one
	// column or of fewer) dropped as said again by a wider composite one.
	CompositeCandidates int `json:"composite_candidates,omitempty"`
	CompositeChecks     int `json:"composite_checks,omitempty"`
	CompositeKeyChecks  int `json:"composite_key_checks,omitempty"` // undeclared keys checked unique
	// CompositeValueCandidates: of the composite candidates, those the
	// values proposed (compositevalues.go).
	CompositeValueCandidates int    `json:"composite_value_candidates,omitempty"`
	Implied                  int    `json:"implied,omitempty"`
	Duration                 string `json:"duration"`
}

func (s InferStats) evidence() []string {
	var by []string
	for _, cls := range []string{pruneDistinct, pruneRange, pruneKind, pruneSample, pruneChance, pruneEmpty} {
		if n := s.PrunedBy[cls]; n > 0 {
			by = append(by, fmt.Sprintf("%d by %s", n, cls))
		}
	}
	pruned := fmt.Sprintf("%d pruned without an exact check", s.Pruned)
	if len(by) > 0 {
		pruned += ": " + strings.Join(by, ", ")
	}
	out := []string{
		fmt.Sprintf("%d candidates from names", s.Candidates-s.ValueCandidates),
		fmt.Sprintf("%d already declared", s.Declared),
		pruned,
		fmt.Sprintf("%d left unchecked: a confirmed target of the same column scored more than they could", s.Dominated),
		fmt.Sprintf("%d columns sketched (a sample of %d values each at most)", s.Sketched, sketchK),
	}
	if s.SampleProfiled > 0 {
		out = append(out, fmt.Sprintf("%d columns whose profile failed read through their table's first %d rows", s.SampleProfiled, fallbackRows))
	}
	out = append(out,
		fmt.Sprintf("%d exact inclusion checks", s.Checks))
	if s.ValueCandidates > 0 {
		out = slices.Insert(out, 1, fmt.Sprintf("%d candidates from values alone, for columns named like no key", s.ValueCandidates))
	}
	if s.CompositeCandidates > 0 {
		out = append(out,
			fmt.Sprintf("%d composite candidates (keys of several columns), %d checked exactly; %d undeclared keys checked unique", s.CompositeCandidates, s.CompositeChecks, s.CompositeKeyChecks),
			fmt.Sprintf("%d references dropped: a wider composite reference says them through its parent", s.Implied))
	}
	return append(out, fmt.Sprintf("%d relationships inferred in %s", s.Inferred, s.Duration))
}

// declaredFrom lists the columns, one or several, that start a reference
// the schema declares (unless the run ignores declarations) or the user
// configured, by declKey: those stand, and inference does not repeat them
// (a user's entry has source "user", which an inferred one would
// overwrite). Names are resolved as the structural expert resolves them
// when it records the references.
func declaredFrom(env *experts.Env) map[string]bool {
	declared := map[string]bool{}
	byName := naming.NewTableIndex(env.Tables)
	for _, ur := range env.Options.Relations {
		t, ok := byName.Find(ur.FromTable)
		if !ok {
			continue
		}
		var cs []string
		for _, c := range ur.FromColumns {
			if n, ok := naming.FindColumn(t, c); ok {
				cs = append(cs, n)
			}
		}
		if len(cs) == len(ur.FromColumns) {
			declared[declKey(t.Name.String(), cs)] = true
		}
	}
	if env.Options.IgnoreDeclaredFKs {
		return declared
	}
	for _, t := range env.Tables {
		if t.Kind != "table" {
			continue
		}
		for _, fk := range t.ForeignKeys {
			cs := make([]string, len(fk.Columns))
			for i, c := range fk.Columns {
				cs[i] = columnOf(t, c)
			}
			declared[declKey(t.Name.String(), cs)] = true
		}
	}
	return declared
}

// declKey names the columns a reference starts from, as the source spells
// them.
func declKey(table string, cols []string) string { return table + "(" + strings.Join(cols, ",") + ")" }

// inferRelationships generates, prunes, checks and scores candidates, saves
// the accepted ones and the ledger, and records experts.ReferencesInferred
// last: the relationship set is then complete, and the structural expert's
// patterns over it wait for that milestone.
func inferRelationships(ctx context.Context, env *experts.Env) error {
	start := time.Now()
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
	declared := declaredFrom(env)
	var cols []Column
	for _, t := range env.Tables {
		if t.Kind != "table" {
			continue // a view repeats its tables' columns
		}
		name := t.Name.String()
		tables[name] = t
		uniq := map[string]bool{}
		for _, u := range t.Uniques {
			if len(u) == 1 {
				uniq[columnOf(t, u[0])] = true
			}
		}
		var size int64
		for _, c := range t.Columns {
			if p := profiles[name+"."+c.Name]; p != nil && p.Sampled {
				// Only a table the run reads whole: a key found nowhere but
				// in a sample has no index, and a parent far larger than the
				// sample is searched once per child value.
				if sc, err := env.Scope(ctx, t); err == nil && sc.Rows > 0 && !sc.Sampled {
					size = sc.Rows
				} else if experts.Fatal(ctx, err) {
					return fmt.Errorf("infer relationships: %w", err)
				}
				break
			}
		}
		for _, c := range t.Columns {
			pk := len(t.PrimaryKey) == 1 && columnOf(t, t.PrimaryKey[0]) == c.Name
			inKey := len(t.PrimaryKey) > 1 && slices.ContainsFunc(t.PrimaryKey, func(k string) bool { return columnOf(t, k) == c.Name })
			cols = append(cols, Column{Table: name, Name: c.Name, Type: c.Type, Profile: profiles[name+"."+c.Name],
				PK: pk, Declared: pk || uniq[c.Name], InKey: inKey, TableRows: size})
		}
	}
	fallbacks, err := fallbackProfiles(ctx, env, tables, cols)
	if err != nil {
		return fmt.Errorf("infer relationships: %w", err)
	}
	cands := Candidates(cols)
	st := InferStats{Candidates: len(cands), PrunedBy: map[string]int{}, SampleProfiled: fallbacks}
	sc := newStreamChecks(env)
	sk := &sketches{env: env, tables: tables, done: map[string]*sketch{}, sc: sc}
	var scored []Scored
	isChild := map[string]bool{} // columns some candidate has as child
	for _, c := range cands {
		isChild[c.Child.qualified()] = true
	}
	// The names propose first; then, for each column left without a
	// reference, the values (values.go).
	if err := checkCandidates(ctx, env, tables, cands, declared, isChild, sk, sc, &st, &scored); err != nil {
		return err
	}
	var found []Candidate
	for _, s := range scored {
		if s.Accept {
			found = append(found, s.Candidate)
		}
	}
	byValues := ValueCandidates(cols, found)
	st.Candidates += len(byValues)
	st.ValueCandidates = len(byValues)
	if err := checkCandidates(ctx, env, tables, byValues, declared, isChild, sk, sc, &st, &scored); err != nil {
		return err
	}
	// What the values tied a name to, the database's other columns of
	// that name mean too (values.go).
	byLearned := LearnedCandidates(cols, scored)
	st.Candidates += len(byLearned)
	if err := checkCandidates(ctx, env, tables, byLearned, declared, isChild, sk, sc, &st, &scored); err != nil {
		return err
	}
	// A hierarchy kept beside its entity (a term's parent in
	// term_hierarchy(tid, parent)) names the entity's rows.
	byHierarchy := HierarchyCandidates(cols, scored)
	st.Candidates += len(byHierarchy)
	if err := checkCandidates(ctx, env, tables, byHierarchy, declared, isChild, sk, sc, &st, &scored); err != nil {
		return err
	}
	kept, ambiguous := Select(scored)
	kept, identities, err := dropIdentities(ctx, env, tables, kept)
	if err != nil {
		return fmt.Errorf("infer relationships: %w", err)
	}
	composites, compositeKeys, err := inferComposites(ctx, env, tables, cols, declared, &st)
	if err != nil {
		return err
	}
	composites = dropConstantPadded(composites, kept, cols, compositeKeys)
	// What each column or set of columns references, declared or
	// inferred: a reference that a wider composite one says again through
	// its parent is dropped (composite.go).
	refs := map[string][]string{}
	addRef := func(from, to string) { refs[from] = append(refs[from], to) }
	for _, t := range env.Tables {
		if env.Options.IgnoreDeclaredFKs {
			break
		}
		for _, fk := range t.ForeignKeys {
			if len(fk.Columns) > 0 && len(fk.Columns) == len(fk.RefColumns) {
				cs := make([]string, len(fk.Columns))
				for i, c := range fk.Columns {
					cs[i] = columnOf(t, c)
				}
				addRef(refSig(t.Name.String(), cs), refSig(fk.RefTable.String(), fk.RefColumns))
			}
		}
	}
	for _, s := range kept {
		addRef(refSig(s.Child.Table, []string{s.Child.Name}), refSig(s.Parent.Table, []string{s.Parent.Name}))
	}
	for _, c := range composites {
		d := c.Doc()
		addRef(refSig(d.FromTable, d.FromColumns), refSig(d.ToTable, d.ToColumns))
	}
	keptKeys, impliedKeys := map[string]bool{}, map[string]bool{}
	for _, s := range kept {
		if implied(s.Child.Table, []string{s.Child.Name}, refSig(s.Parent.Table, []string{s.Parent.Name}), s.Confidence, composites, refs) {
			impliedKeys[s.Key()] = true
			st.Implied++
			continue
		}
		keptKeys[s.Key()] = true
	}
	var impliedComposites []CompositeScored
	composites = slices.DeleteFunc(slices.Clone(composites), func(c CompositeScored) bool {
		d := c.Doc()
		if implied(d.FromTable, d.FromColumns, refSig(d.ToTable, d.ToColumns), c.Confidence, composites, refs) {
			st.Implied++
			impliedComposites = append(impliedComposites, c)
			return true
		}
		return false
	})
	for _, c := range impliedComposites {
		// Confirmed, and said by a wider reference: in the ledger only.
		if err := saveCompositeLedger(ctx, env, c); err != nil {
			return err
		}
	}
	for _, c := range composites {
		if err := saveComposite(ctx, env, c); err != nil {
			return err
		}
	}
	keptBy := keptIndex(kept)
	for _, s := range scored {
		switch {
		case impliedKeys[s.Key()]:
			// Confirmed, and said by a composite reference: in the ledger only.
			if err := saveLedger(ctx, env, s, ""); err != nil {
				return err
			}
		case keptKeys[s.Key()]:
			if err := saveInferred(ctx, env, s); err != nil {
				return err
			}
		case identities[s.Key()] != "":
			if err := saveLedger(ctx, env, s, identities[s.Key()]); err != nil {
				return err
			}
		case s.Name.Score >= ledgerNameScore:
			// A strong name the values refute, or a target another one
			// beat, is worth knowing; it is not a relationship.
			if err := saveLedger(ctx, env, s, notKept(s, keptBy)); err != nil {
				return err
			}
		}
	}
	for _, a := range ambiguous {
		doc := catalog.UncertaintyDoc{Description: fmt.Sprintf("%s.%s may reference %s.%s (confidence %.2f) or %s.%s (%.2f); the first was kept.",
			a[0].Child.Table, a[0].Child.Name, a[0].Parent.Table, a[0].Parent.Name, a[0].Confidence, a[1].Parent.Table, a[1].Parent.Name, a[1].Confidence)}
		if err := catalog.Uncertainties.Save(ctx, env, "ambiguous_reference:"+a[0].Child.Table+"."+a[0].Child.Name, doc, 0.8,
			append(append([]string{}, a[0].Evidence[:2]...), a[1].Evidence[:2]...)); err != nil {
			return err
		}
	}
	st.Sketched = sk.reads
	st.Inferred, st.Duration = len(keptKeys)+len(composites), time.Since(start).Round(time.Millisecond).String()
	st.ProgressDoc = catalog.ProgressDoc{Step: "infer", Detail: fmt.Sprintf("%d name candidates, %d value candidates, %d already declared, %d pruned by profiles and value samples, %d settled by a better target, %d checked exactly, %d inferred (%d columns sketched); %d composite candidates, %d checked, %d references said again by a wider composite one",
		st.Candidates-st.ValueCandidates, st.ValueCandidates, st.Declared, st.Pruned, st.Dominated, st.Checks, st.Inferred, st.Sketched, st.CompositeCandidates, st.CompositeChecks, st.Implied)}
	return catalog.Progress.Save(ctx, env, experts.ReferencesInferred.Key(), st, 1.0, st.evidence())
}

// checkCandidates prunes, checks and scores candidates, column by column,
// appending to scored and counting in st. isChild marks the columns some
// candidate of the run has as child (a target that is itself a reference
// sets no bar); declared, the columns declared as references.
func checkCandidates(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, cands []Candidate,
	declared, isChild map[string]bool, sk *sketches, sc *streamChecks, st *InferStats, scored *[]Scored) error {
	sc.plan(cands)
	// Candidates the profiles let through, by child column: each column's
	// targets are checked from the most promising down, and a target that
	// could not beat (nor tie with) a reference already confirmed for the
	// column is not checked at all.
	byChild := map[string][]Candidate{}
	var order []string
	for _, c := range cands {
		// A declared reference stands; inference does not repeat it (the
		// query expert tests it under the same hypothesis id).
		k := c.Child.qualified()
		if declared[declKey(c.Child.Table, []string{c.Child.Name})] {
			st.Declared++
			continue
		}
		if cls, _ := prune(c); cls != "" {
			st.Pruned++
			st.PrunedBy[cls]++
			continue
		}
		if _, ok := byChild[k]; !ok {
			order = append(order, k)
		}
		byChild[k] = append(byChild[k], c)
	}
	// Keys that several candidates point at are worth a sketch.
	targeted := map[string]int{}
	for _, k := range order {
		for _, c := range byChild[k] {
			targeted[c.Parent.qualified()]++
		}
	}
	// Each child table's columns are checked by one worker, in order, so
	// that its streamed read (streamChecks) serves them all; the tables are
	// checked side by side, up to the run's parallelism: on a warehouse the
	// checks read the fact tables whole, and one at a time they left all
	// but one core idle (issue 20). The results keep the candidates' order
	// whatever finishes first.
	byTable := map[string][]int{}
	var tableOrder []string
	for i, k := range order {
		t := byChild[k][0].Child.Table
		if _, ok := byTable[t]; !ok {
			tableOrder = append(tableOrder, t)
		}
		byTable[t] = append(byTable[t], i)
	}
	results := make([][]Scored, len(order))
	var mu sync.Mutex // st
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(env.Options.Parallel, 1))
	for _, t := range tableOrder {
		g.Go(func() error {
			sc.begin(t)
			defer sc.end(t)
			checkWorkers.begin()
			defer checkWorkers.end()
			local := InferStats{PrunedBy: map[string]int{}}
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				st.Dominated += local.Dominated
				st.Pruned += local.Pruned
				st.Checks += local.Checks
				for k, n := range local.PrunedBy {
					st.PrunedBy[k] += n
				}
			}()
			groups := make([][]Candidate, len(byTable[t]))
			for j, i := range byTable[t] {
				groups[j] = byChild[order[i]]
			}
			if err := sc.skipKept(gctx, env, tables, t, groups); err != nil {
				return err
			}
			for _, i := range byTable[t] {
				var err error
				if results[i], err = checkColumn(gctx, env, tables, byChild[order[i]], isChild, targeted, sk, sc, &local); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, r := range results {
		*scored = append(*scored, r...)
	}
	return nil
}

// checkWorkers counts the tables being checked at once, and the most
// there were: what the tests read to see that checks ran side by side.
var checkWorkers workerCount

type workerCount struct{ now, peak atomic.Int64 }

func (w *workerCount) begin() {
	n := w.now.Add(1)
	for p := w.peak.Load(); n > p && !w.peak.CompareAndSwap(p, n); p = w.peak.Load() {
	}
}

func (w *workerCount) end() { w.now.Add(-1) }

// checkColumn checks one child column's candidates (group), from the most
// promising target down, and returns their scores.
func checkColumn(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, group []Candidate,
	isChild map[string]bool, targeted map[string]int, sk *sketches, sc *streamChecks, st *InferStats) ([]Scored, error) {
	var scored []Scored
	ub := make(map[string]float64, len(group))
	for _, c := range group {
		ub[c.Key()] = upperBound(c)
	}
	// Targets named as written come before those named only through a
	// synonym or as a person (Select keeps the latter only when none of
	// the former holds).
	sort.SliceStable(group, func(i, j int) bool {
		a, b := group[i], group[j]
		if a.Name.loose() != b.Name.loose() {
			return b.Name.loose()
		}
		if ub[a.Key()] != ub[b.Key()] {
			return ub[a.Key()] > ub[b.Key()]
		}
		return a.Name.Score > b.Name.Score
	})
	// Select keeps the best target and reports a second one within
	// ambiguityMargin; one that cannot come that close is settled.
	settled := func(ub, bar float64) bool { return bar >= 0 && ub+0.01 < bar-ambiguityMargin }
	bar := -1.0      // the best confirmed reference of this column so far
	spelled := false // a target named as written is confirmed
	for _, c := range group {
		if settled(ub[c.Key()], bar) || (spelled && c.Name.loose()) {
			st.Dominated++
			continue
		}
		// A column named like several keys is read once, and its sample
		// spares the checks of the keys that do not hold its values.
		if len(group) > 1 {
			pruned, err := sketchPrunes(ctx, sk, c, targeted[c.Parent.qualified()] > 1)
			if err != nil {
				return nil, fmt.Errorf("infer relationships: %w", err)
			}
			if pruned {
				st.Pruned++
				st.PrunedBy[pruneSample]++
				continue
			}
		}
		if c.Name.Rule == valueRule && typeClass(c.Child.Type) == "integer" {
			held, err := keysBelow(ctx, env, tables, &c)
			if err != nil {
				if ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) {
					return nil, fmt.Errorf("infer relationships: %w", err)
				}
				continue
			}
			if !held {
				st.Pruned++
				st.PrunedBy[pruneChance]++
				continue
			}
		}
		s, err := check(ctx, env, tables, c, sc)
		st.Checks++
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) {
				return nil, fmt.Errorf("infer relationships: %w", err)
			}
			continue // one bad pair does not stop the others
		}
		scored = append(scored, s)
		// A target that is itself a reference elsewhere may be dropped by
		// Select: only a declared key, or one that is no candidate's
		// child, sets the bar.
		if s.Accept && (c.Parent.Declared || !isChild[c.Parent.qualified()]) {
			bar = max(bar, s.Confidence)
			spelled = spelled || !c.Name.loose()
		}
	}
	return scored, nil
}

// sketchPrunes tests a candidate on the child's sample: against the key's
// exact range first, then, when the key is no dense run of integers and
// several candidates point at it, against the key's own sketch.
func sketchPrunes(ctx context.Context, sk *sketches, c Candidate, shared bool) (bool, error) {
	cs, err := sk.get(ctx, c.Child, false)
	if err != nil || cs == nil {
		return false, err
	}
	if samplePrunes(sampleMatches(c, cs, nil)) {
		return true, nil
	}
	if _, _, dense := denseKey(c.Parent.Profile); dense || !shared {
		return false, nil
	}
	ps, err := sk.get(ctx, c.Parent, true)
	if err != nil || ps == nil {
		return false, err
	}
	return samplePrunes(sampleMatches(c, cs, ps)), nil
}

// check runs a candidate's exact inclusion query and scores it; sc, when
// it can, measures the query's figures from streamed reads instead
// (streamcheck.go).
func check(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, c Candidate, sc *streamChecks) (Scored, error) {
	sql, cs, ps, cast, err := checkStatement(ctx, env, tables, c)
	if err != nil {
		return Scored{}, err
	}
	if sql == "" {
		// Recorded, with why, rather than dropped: its name may be strong.
		s := Score(c, Inclusion{})
		why := fmt.Sprintf("the types differ (%s vs %s), and comparing them as text", c.Child.Type, c.Parent.Type)
		if !cast {
			why = "looking its values up in the key on this engine"
		}
		s.Evidence = append(s.Evidence, fmt.Sprintf("not checked: %s would read %s (%s rows) whole", why, c.Parent.Table, ps.Size()))
		return s, nil
	}
	// Figures a streamed check counted in an earlier run over the same
	// data stand, as a kept result of the SQL would.
	kept := sc.keptInclusion(ctx, env, c, sql, cs)
	in, streamed := kept.in, kept.hit
	if !streamed {
		if in, streamed, err = sc.inclusion(ctx, c, cs, ps); err != nil {
			return Scored{}, err
		}
		if streamed {
			env.KeepFigures(ctx, kept.key, inclusionResult(in))
		}
	}
	if !streamed {
		if in, err = runInclusion(ctx, env, sql, cs); err != nil {
			return Scored{}, err
		}
	}
	s := Score(c, in)
	if cast {
		s.Evidence = append(s.Evidence, fmt.Sprintf("types differ (%s vs %s): compared as text", c.Child.Type, c.Parent.Type))
	}
	if streamed {
		s.Evidence = append(s.Evidence, "figures counted from one read of "+c.Child.Table+"'s candidate columns and one of "+c.Parent.Table+"'s key, as the check below gives them")
	}
	s.Evidence = append(s.Evidence, "check: "+sql)
	return s, nil
}

// checkStatement is c's exact check (inclusionSQL) over the scopes of its
// tables, with those scopes and whether the values are compared as text;
// "" when the types differ and the check would read the parent whole.
func checkStatement(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, c Candidate) (sql string, cs, ps experts.Scope, cast bool, err error) {
	cast = typeClass(c.Child.Type) != typeClass(c.Parent.Type)
	if cs, err = env.Scope(ctx, tables[c.Child.Table]); err != nil {
		return "", cs, ps, cast, err
	}
	if ps, err = env.Scope(ctx, tables[c.Parent.Table]); err != nil {
		return "", cs, ps, cast, err
	}
	return inclusionSQL(env.Dialect(), cs, ps, c.Child.Name, c.Parent.Name, cast), cs, ps, cast, nil
}

// runInclusion runs an inclusion check (inclusionSQL, or
// compositeInclusionSQL) and reads its figures; cs is the child's scope,
// whose sample the figures come from.
func runInclusion(ctx context.Context, env *experts.Env, sql string, cs experts.Scope) (Inclusion, error) {
	res, err := env.Query(ctx, sql)
	if err != nil {
		return Inclusion{}, err
	}
	return inclusionOf(res, cs), nil
}

// inclusionOf reads an inclusion check's figures from its result.
func inclusionOf(res *warehouse.Result, cs experts.Scope) Inclusion {
	row := hypotheses.FirstRow(res)
	var in Inclusion
	in.ChildDistinct, _ = row.Int("child_distinct")
	in.OrphanDistinct, _ = row.Int("orphan_distinct")
	in.NonNull, _ = row.Int("non_null")
	in.OrphanRows, _ = row.Int("orphan_rows")
	in.MaxChildren, _ = row.Int("max_children")
	in.Sample = cs.Evidence()
	return in
}

// refHypothesis names a check the way the query expert names its orphan
// test of the same relationship, so that it is not tested twice.
func refHypothesis(s Scored) catalog.HypothesisDoc {
	return ledgerHypothesis(s.Doc(), s.Inclusion, s.Evidence)
}

// ledgerHypothesis is the ledger entry of an inclusion check of the
// relationship d, one column or several: the id, and the statement, the
// query expert gives its orphan test of d.
func ledgerHypothesis(d catalog.RelationshipDoc, in Inclusion, evidence []string) catalog.HypothesisDoc {
	key := d.Key()
	status := hypotheses.Confirmed
	if in.OrphanRows > 0 {
		status = hypotheses.Refuted
	}
	if in.NonNull == 0 {
		status = hypotheses.Inconclusive
	}
	test := checkSQL(evidence)
	return catalog.HypothesisDoc{ID: hypotheses.ID("ref", key), Subject: key, Status: status, TestSQL: test,
		Statement: fmt.Sprintf("Every non-NULL %s.%s has a matching %s.%s.", d.FromTable, joinCols(d.FromColumns), d.ToTable, joinCols(d.ToColumns))}
}

// sampleNote is a sample's phrase as a parenthesis: "" for none.
func sampleNote(sample string) string {
	if sample == "" {
		return ""
	}
	return " (" + sample + ")"
}

// signals is a check's evidence without the check's SQL.
func (v Verdict) signals() []string {
	var out []string
	for _, e := range v.Evidence {
		if !strings.HasPrefix(e, "check: ") {
			out = append(out, e)
		}
	}
	return out
}

// keptIndex is the kept references by their child column (one each).
func keptIndex(kept []Scored) map[string]Scored {
	m := make(map[string]Scored, len(kept))
	for _, k := range kept {
		m[k.Child.qualified()] = k
	}
	return m
}

// notKept says why a scored candidate is not among the kept references
// (keptBy, keptIndex): its score, or, when it scored enough, what Select
// kept instead.
func notKept(s Scored, keptBy map[string]Scored) string {
	if !s.Accept {
		return fmt.Sprintf("not a relationship: confidence %.2f below %.2f", s.Confidence, AcceptScore)
	}
	if k, ok := keptBy[s.Child.qualified()]; ok {
		return fmt.Sprintf("not kept (confidence %.2f): %s.%s references %s.%s instead", s.Confidence, k.Child.Table, k.Child.Name, k.Parent.Table, k.Parent.Name)
	}
	if k, ok := keptBy[s.Parent.qualified()]; ok {
		if k.Parent.qualified() == s.Child.qualified() {
			return fmt.Sprintf("not kept (confidence %.2f): the two hold the same values, and %s.%s is the one that references the other", s.Confidence, k.Child.Table, k.Child.Name)
		}
		return fmt.Sprintf("not kept (confidence %.2f): %s.%s is itself a reference, to %s.%s", s.Confidence, k.Child.Table, k.Child.Name, k.Parent.Table, k.Parent.Name)
	}
	return fmt.Sprintf("not kept (confidence %.2f): a target of the same values was preferred, or none could be chosen", s.Confidence)
}

// saveLedger records a reference check in the hypothesis ledger; why, when
// not "", is why it is no relationship.
func saveLedger(ctx context.Context, env *experts.Env, s Scored, why string) error {
	h := refHypothesis(s)
	ev := append(s.signals(), fmt.Sprintf("%d child rows with a value, %d orphans%s", s.NonNull, s.OrphanRows, sampleNote(s.Sample)))
	if why != "" {
		ev = append(ev, why)
	}
	conf := 1.0
	if s.Sample != "" && h.Status == hypotheses.Confirmed {
		conf = experts.SampleDiscount // no orphan in a sample is weaker than none in the table
	}
	return catalog.Hypotheses.Save(ctx, env, h.ID, h, conf, ev, "relationship", "inferred", h.Status)
}

func saveInferred(ctx context.Context, env *experts.Env, s Scored) error {
	doc := s.Doc()
	doc.Cardinality = s.Cardinality
	f := s.OrphanFraction
	doc.OrphanFraction = &f
	key := s.Key()
	h := refHypothesis(s)
	ev := append(s.signals(), fmt.Sprintf("checked: %d of %d non-NULL references have no parent%s (hypothesis %s)", s.OrphanRows, s.NonNull, sampleNote(s.Sample), h.ID))
	// The ledger entry first: to the query expert it marks the reference
	// tested. A run killed between the two then has no relationship
	// without its test, which the query expert would test again on
	// --resume, racing this expert's own redone inference (whose progress
	// entry is saved last) to write the relationship with other evidence.
	if err := saveLedger(ctx, env, s, ""); err != nil {
		return err
	}
	if err := catalog.Relationships.Save(ctx, env, key, doc, s.Confidence, ev, "inferred", "tested"); err != nil {
		return err
	}
	if err := saveCardinality(ctx, env, doc, s.Inclusion, checkSQL(s.Evidence)); err != nil {
		return err
	}
	if s.OrphanRows == 0 {
		return nil
	}
	desc := fmt.Sprintf("%d rows of %s reference a %s that does not exist (%.2f%% of non-NULL references).",
		s.OrphanRows, doc.FromTable, doc.ToTable, 100*s.OrphanFraction)
	if s.Sample != "" {
		desc = fmt.Sprintf("%d of the %d sampled rows of %s with a reference point to a %s that does not exist (%.2f%%; %s).",
			s.OrphanRows, s.NonNull, doc.FromTable, doc.ToTable, 100*s.OrphanFraction, s.Sample)
	}
	ins := catalog.InsightDoc{Kind: "quality", Tables: []string{doc.FromTable, doc.ToTable},
		Columns: []string{doc.FromTable + "." + s.Child.Name}, Description: desc}
	return catalog.Insights.Save(ctx, env, "quality:orphans:"+key, ins, 1.0, s.signals(), "quality")
}
