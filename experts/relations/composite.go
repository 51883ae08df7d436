package relations

// Composite references: a child whose columns together name a parent's key
// of two columns or more (bin_count(aisle, bay) → shelf_slot(aisle,
// bay); exam_sitting(student_id, module_id) → module_enrolment(student_id,
// module_id)). Each column of the key must be
// named by its own column of the child, of a type that compares with it,
// and the child's tuples must be found in the parent's: one exact check of
// the distinct tuples, as for a single column. Columns need no profile:
// the names and the check decide, so a table whose profile failed still
// has its composite references.
//
// A confirmed composite reference makes the single-column references of
// its columns that go where the parent's own columns go redundant:
// exam_sitting.student_id → students says again what exam_sitting →
// module_enrolment → students says. Those are dropped (counted as Implied).

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/valueclass"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/warehouse"
	"golang.org/x/sync/errgroup"
)

// minComponentName is how well each column of the child must be named
// after its column of the key: strong rules only (exact, entity, bare), so
// that two weak matches do not add up to a reference.
const minComponentName = 0.8

// CompositeKey is a table's declared key of two columns or more: its
// primary key or a unique constraint.
type CompositeKey struct {
	Table   string
	Columns []Column // in the key's order
	// Undeclared: no constraint says so; the columns are named as keys,
	// none unique alone, and a check must find their tuples unique
	// (UndeclaredCompositeKeys).
	Undeclared bool
}

// CompositeCandidate is a possible reference from Columns of Child to a
// composite key, column for column.
type CompositeCandidate struct {
	Child   string
	Columns []Column // the child's, in the key's order
	Parent  CompositeKey
	Names   []NameMatch // each column's match to its key column
	// ByValues: proposed by the values of some of its columns
	// (compositevalues.go), whose inclusion Chance gives for columns that
	// reference nothing; Names has rule "values" for those.
	ByValues bool
	Chance   float64
	adjacent int // pairs of the key's consecutive columns next to each other in the child
}

// Doc is the relationship the candidate would be.
func (c CompositeCandidate) Doc() catalog.RelationshipDoc {
	from, to := make([]string, len(c.Columns)), make([]string, len(c.Columns))
	for i := range c.Columns {
		from[i], to[i] = c.Columns[i].Name, c.Parent.Columns[i].Name
	}
	return catalog.RelationshipDoc{FromTable: c.Child, FromColumns: from, ToTable: c.Parent.Table, ToColumns: to, Source: "inferred"}
}

// Key is the catalog key the relationship would have.
func (c CompositeCandidate) Key() string { return c.Doc().Key() }

// nameScore is the weakest column's: a chain holds as its weakest link.
func (c CompositeCandidate) nameScore() float64 {
	s := 1.0
	for _, m := range c.Names {
		s = math.Min(s, m.Score)
	}
	return s
}

// CompositeKeys lists the declared keys of two columns or more of tables,
// whose columns are found in cols (by table and name).
func CompositeKeys(tables []warehouse.Table, cols []Column) []CompositeKey {
	byQ := map[string]Column{}
	for _, c := range cols {
		byQ[c.qualified()] = c
	}
	var out []CompositeKey
	for _, t := range tables {
		if t.Kind != "table" {
			continue
		}
		name := t.Name.String()
		seen := map[string]bool{}
		for _, key := range append([][]string{t.PrimaryKey}, t.Uniques...) {
			if len(key) < 2 {
				continue
			}
			k := CompositeKey{Table: name}
			for _, n := range key {
				c, ok := byQ[name+"."+columnOf(t, n)]
				if !ok {
					k.Columns = nil
					break
				}
				k.Columns = append(k.Columns, c)
			}
			sig := strings.Join(key, "\x00")
			if len(k.Columns) == len(key) && !seen[sig] {
				seen[sig] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// maxUndeclaredKeyColumns bounds the key-named columns of a table whose
// pairs are tried as undeclared keys (276 pairs at most). A fact table
// names a dozen dimensions besides its own ticket or order number; only
// the pairs another table names column for column are ever checked
// (CompositeCandidates), each once.
const maxUndeclaredKeyColumns = 24

// UndeclaredCompositeKeys proposes the keys of two columns that tables
// declaring no primary key may have: every pair of their columns named as
// keys (l_itemkey, l_vendkey; order_id, line_no) of which neither is
// unique alone; then, in tables with at most maxUndeclaredTripleColumns
// such columns, every triple, which is a key only when none of its pairs
// is (inferComposites). A warehouse that declares nothing (Hive, Parquet files)
// still has them; a check of the pair's uniqueness decides
// (compositeKeyHolds) before any reference to it is checked.
func UndeclaredCompositeKeys(tables []warehouse.Table, cols []Column) []CompositeKey {
	byTable := map[string][]Column{}
	for _, c := range withBareNames(cols) {
		byTable[c.Table] = append(byTable[c.Table], c)
	}
	var out, triples []CompositeKey
	for _, t := range tables {
		if t.Kind != "table" || len(t.PrimaryKey) > 0 {
			continue
		}
		var keyish []Column
		for _, c := range byTable[t.Name.String()] {
			if keyLikeName(c.named()) && !c.Key() && (typeClass(c.Type) == "integer" || typeClass(c.Type) == "text") {
				keyish = append(keyish, c)
			}
		}
		if len(keyish) < 2 || len(keyish) > maxUndeclaredKeyColumns {
			continue
		}
		for i := range keyish {
			for j := i + 1; j < len(keyish); j++ {
				out = append(out, CompositeKey{Table: t.Name.String(), Columns: []Column{keyish[i], keyish[j]}, Undeclared: true})
			}
		}
		if len(keyish) > maxUndeclaredTripleColumns {
			continue
		}
		// Keys of three (region_no, store_no, shelf_no): after every pair,
		// so that a pair found to be a key is known before a triple that
		// holds it would be taken for one (inferComposites).
		for i := range keyish {
			for j := i + 1; j < len(keyish); j++ {
				for k := j + 1; k < len(keyish); k++ {
					triples = append(triples, CompositeKey{Table: t.Name.String(), Columns: []Column{keyish[i], keyish[j], keyish[k]}, Undeclared: true})
				}
			}
		}
	}
	return append(out, triples...)
}

// maxUndeclaredTripleColumns bounds the key-named columns of a table whose
// triples are tried as undeclared keys (56 triples at most): a key of
// three columns is a hierarchy's (region, store, shelf), in tables that
// name few other keys.
const maxUndeclaredTripleColumns = 8

// compositeKeyHolds checks that an undeclared key's tuples are unique in
// its table (and never NULL), by one query: no tuple of it twice. A table
// larger than the run reads whole is not checked, and has no such key: a
// key declared nowhere has no index, and checking references to it would
// search the whole table once per tuple.
func compositeKeyHolds(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, k CompositeKey) (bool, error) {
	scope, err := env.Scope(ctx, tables[k.Table])
	if err != nil || scope.Sampled {
		return false, err
	}
	d := env.Dialect()
	var cols, notNull []string
	for _, c := range k.Columns {
		q := d.QuoteIdent(c.Name)
		cols = append(cols, q)
		notNull = append(notNull, q+" IS NULL")
	}
	res, err := env.Query(ctx, fmt.Sprintf("SELECT COUNT(*) AS tuples, COALESCE(SUM(CASE WHEN n > 1 OR nul = 1 THEN 1 ELSE 0 END), 0) AS dup "+
		"FROM (SELECT COUNT(*) AS n, MAX(CASE WHEN %s THEN 1 ELSE 0 END) AS nul FROM %s GROUP BY %s) d",
		strings.Join(notNull, " OR "), d.QuoteTable(tables[k.Table].Name), strings.Join(cols, ", ")))
	if err != nil {
		return false, err
	}
	row := hypotheses.FirstRow(res)
	dup, ok := row.Int("dup")
	tuples, ok2 := row.Int("tuples")
	return ok && ok2 && dup == 0 && tuples >= minUndeclaredKeyRows, nil
}

// minUndeclaredKeyRows is the fewest rows in which columns found unique
// make a key: in a table of one row every set of columns is unique (a
// company's create_uid and write_uid in a table of the one company).
const minUndeclaredKeyRows = 2

// undeclaredKeyHolds checks an undeclared key once (holds caches the
// checks by keySig): its tuples unique and never NULL, and, for a key of
// three columns, none of its pairs a key already, since a key of two is
// the one references name (the third column only rides along).
func undeclaredKeyHolds(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, k CompositeKey, holds map[string]bool, st *InferStats) (bool, error) {
	ks := keySig(k.Table, k.Columns)
	if held, checked := holds[ks]; checked {
		return held, nil
	}
	if len(k.Columns) > 2 {
		for i := range k.Columns {
			sub := CompositeKey{Table: k.Table, Undeclared: true}
			for j, c := range k.Columns {
				if j != i {
					sub.Columns = append(sub.Columns, c)
				}
			}
			held, err := undeclaredKeyHolds(ctx, env, tables, sub, holds, st)
			if err != nil || held {
				holds[ks] = false
				return false, err
			}
		}
	}
	held, err := compositeKeyHolds(ctx, env, tables, k)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) {
			return false, fmt.Errorf("infer relationships: %w", err)
		}
		held = false
	}
	holds[ks] = held
	st.CompositeKeyChecks++
	return held, nil
}

// CompositeCandidates pairs each composite key with every other table
// that has, for each of the key's columns, a column of its own named after
// it (minComponentName) and of a type that compares with it, each column
// used once; where several could name a column of the key, the best named
// is taken. At least one column must be spelled like its key column (an
// index of the columns by name finds those tables), which keeps the
// pairing linear in the columns at a thousand tables.
func CompositeCandidates(keys []CompositeKey, cols []Column) []CompositeCandidate {
	bare := barer(cols)
	byTable := map[string][]Column{}
	bySpelling := map[string][]string{} // lower-case name or bare name → tables, in cols' order
	for _, c := range cols {
		c = bare(c)
		byTable[c.Table] = append(byTable[c.Table], c)
		for _, n := range []string{strings.ToLower(c.Name), strings.ToLower(c.named())} {
			if l := bySpelling[n]; len(l) == 0 || l[len(l)-1] != c.Table {
				bySpelling[n] = append(l, c.Table)
			}
		}
	}
	var out []CompositeCandidate
	for _, k := range keys {
		key := make([]Column, len(k.Columns))
		seen := map[string]bool{k.Table: true}
		var children []string
		for i, c := range k.Columns {
			key[i] = bare(c)
			for _, n := range []string{strings.ToLower(key[i].Name), strings.ToLower(key[i].named())} {
				for _, t := range bySpelling[n] {
					if !seen[t] {
						seen[t] = true
						children = append(children, t)
					}
				}
			}
		}
		for _, child := range children {
			cand := CompositeCandidate{Child: child, Parent: CompositeKey{Table: k.Table, Columns: key, Undeclared: k.Undeclared}}
			used := map[string]bool{}
			for _, kc := range key {
				best, bestM := bestNamed(byTable[child], kc, used)
				if bestM.Score < minComponentName {
					cand.Columns = nil
					break
				}
				used[best.Name] = true
				cand.Columns = append(cand.Columns, best)
				cand.Names = append(cand.Names, bestM)
			}
			if len(cand.Columns) == len(key) {
				out = append(out, cand)
			}
		}
	}
	return out
}

// bestNamed is the column of child best named after the key's column kc
// (componentName), of a type that compares with it, none of used; a zero
// NameMatch when none is named after it at all.
// Between two named alike, the one that spells the key column whole
// (l_sh_b_id, a loan's shelf's branch, for shelf.sh_b_id) is taken over
// one that spells what is left of it after its table's prefix (l_b_id,
// the loan's own branch).
func bestNamed(child []Column, kc Column, used map[string]bool) (Column, NameMatch) {
	best, bestM, bestWhole := Column{}, NameMatch{}, false
	for _, ch := range child {
		if used[ch.Name] || typeClass(ch.Type) != typeClass(kc.Type) {
			continue
		}
		m, whole := componentName(ch, kc), spellsWhole(ch, kc)
		if m.Score > bestM.Score || m.Score == bestM.Score && m.Score > 0 && whole && !bestWhole {
			best, bestM, bestWhole = ch, m, whole
		}
	}
	return best, bestM
}

// componentName scores a child column as a name of one column of a
// composite key: spelled alike is exact, and so is the child's name
// without its table's column prefix spelled as the key column
// (c_d_id → district.d_id, h_c_id → customer.c_id) or as the key column
// without its own (c_w_id → district.d_w_id), unless all that is left of
// the key column is a key word (d_id → id): every table's own key is
// spelled so, and a sibling's own key is no reference to it. Otherwise
// the single-column rules, strong ones only.
func componentName(ch, kc Column) NameMatch {
	if spellsWhole(ch, kc) || strings.EqualFold(ch.named(), kc.named()) && !bareKeyWord(kc.named()) {
		return NameMatch{Score: 1, Rule: "exact"}
	}
	m := MatchName(ch.Table, ch.named(), kc.Table, kc.named())
	if m.loose() {
		return NameMatch{}
	}
	return m
}

// spellsWhole reports whether the child column spells the key column
// whole, with or without its own table's column prefix (c_d_id for d_id).
func spellsWhole(ch, kc Column) bool {
	return strings.EqualFold(ch.Name, kc.Name) || strings.EqualFold(ch.named(), kc.Name)
}

// bareKeyWord reports whether a column's name is a key word alone (id,
// key, sk, no), naming no entity.
func bareKeyWord(name string) bool {
	k := splitKeyName(name)
	return k.suffix != "" && len(k.stem) == 0
}

// CompositeScored is a composite candidate with its verdict.
type CompositeScored struct {
	CompositeCandidate
	Verdict
}

// ScoreComposite turns a composite candidate and its exact check into one
// confidence, as Score does for one column: the weakest column's name,
// confirmed by inclusion in proportion to how many distinct tuples could
// have failed, discounted for orphans and for a sample.
func ScoreComposite(c CompositeCandidate, in Inclusion) CompositeScored {
	s := CompositeScored{CompositeCandidate: c}
	var rules []string
	for _, m := range c.Names {
		rules = append(rules, m.Rule)
	}
	d := c.Doc()
	s.Evidence = append(s.Evidence, fmt.Sprintf("names (%s): %s(%s) ~ %s(%s), the key of %s", strings.Join(rules, ", "),
		d.FromTable, strings.Join(d.FromColumns, ", "), d.ToTable, strings.Join(d.ToColumns, ", "), d.ToTable))
	incl, ok := s.measure(in, tupleWords)
	if !ok {
		return s
	}
	if c.ByValues {
		return scoreCompositeByValues(s, incl)
	}
	conf, held := s.confirm(c.nameScore(), incl, tupleWords)
	if !held {
		return s
	}
	if c.Parent.Undeclared {
		conf *= 0.95
		s.Evidence = append(s.Evidence, fmt.Sprintf("%s's key (%s) declared nowhere: its tuples were checked unique", d.ToTable, strings.Join(d.ToColumns, ", ")))
	}
	s.settle(conf)
	return s
}

// compositeInclusionSQL is the exact check of a composite candidate: the
// child's distinct tuples with every column non-NULL (a tuple with a NULL
// references nothing, as a composite foreign key is checked), how many the
// parent's key lacks, and the same in rows. A parent far larger than the
// sample is searched by its key for each tuple, not joined, so that it is
// not read whole.
func compositeInclusionSQL(d warehouse.Dialect, cs, ps experts.Scope, c CompositeCandidate) string {
	var sel, notNull, group, match []string
	for i, ch := range c.Columns {
		v := fmt.Sprintf("v%d", i+1)
		col := "c." + d.QuoteIdent(ch.Name)
		sel = append(sel, col+" AS "+v)
		notNull = append(notNull, col+" IS NOT NULL")
		group = append(group, col)
		match = append(match, "p."+d.QuoteIdent(c.Parent.Columns[i].Name)+" = g."+v)
	}
	groups := fmt.Sprintf("(SELECT %s, COUNT(*) AS n FROM %s WHERE %s GROUP BY %s) g",
		strings.Join(sel, ", "), cs.From("c"), strings.Join(notNull, " AND "), strings.Join(group, ", "))
	if !ps.Sampled {
		// A parent the run reads whole is joined, as for one column: a key
		// declared nowhere has no index to search by, and a search per
		// tuple would read the parent once for each (SQLite).
		return inclusionFigures + fmt.Sprintf("(SELECT g.n AS n, p.%s AS hit FROM %s LEFT JOIN %s ON %s) h",
			d.QuoteIdent(c.Parent.Columns[0].Name), groups, ps.From("p"), strings.Join(match, " AND "))
	}
	hit := d.Lookup(ps.Quoted(), "p", strings.Join(match, " AND "))
	return inclusionFigures + fmt.Sprintf("(SELECT g.n AS n, %s AS hit FROM %s) h", hit, groups)
}

// tooManyTuples reports whether a composite candidate cannot hold, from
// row counts alone: its child columns are the child's primary key, so each
// row is a distinct tuple, never NULL, and the child has more of them than
// the parent's key could hold at the least share of a reference found
// (minDistinctInclusion). A fact table's key against its refunds' (all
// sales in the refunds) is so refuted without a GROUP BY of millions of
// tuples. Only exact counts decide.
func tooManyTuples(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, c CompositeCandidate) (bool, error) {
	child := tables[c.Child]
	if len(child.PrimaryKey) != len(c.Columns) {
		return false, nil
	}
	for _, ch := range c.Columns {
		if !slices.ContainsFunc(child.PrimaryKey, func(k string) bool { return columnOf(child, k) == ch.Name }) {
			return false, nil
		}
	}
	cs, err := env.Scope(ctx, child)
	if err != nil || !cs.Counted() {
		return false, err
	}
	ps, err := env.Scope(ctx, tables[c.Parent.Table])
	if err != nil || !ps.Counted() {
		return false, err
	}
	return float64(cs.Rows)*minDistinctInclusion > float64(ps.Rows), nil
}

// checkComposite runs a composite candidate's exact check and scores it.
func checkComposite(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, c CompositeCandidate) (CompositeScored, error) {
	cs, err := env.Scope(ctx, tables[c.Child])
	if err != nil {
		return CompositeScored{}, err
	}
	ps, err := env.Scope(ctx, tables[c.Parent.Table])
	if err != nil {
		return CompositeScored{}, err
	}
	if lookupReadsWhole(env.Dialect(), ps) {
		// Not checked, and so not accepted.
		s := ScoreComposite(c, Inclusion{})
		s.Evidence = append(s.Evidence, fmt.Sprintf("not checked: looking its tuples up in the key on this engine would read %s (%s rows) whole", c.Parent.Table, ps.Size()))
		return s, nil
	}
	sql := compositeInclusionSQL(env.Dialect(), cs, ps, c)
	in, err := runInclusion(ctx, env, sql, cs)
	if err != nil {
		return CompositeScored{}, err
	}
	s := ScoreComposite(c, in)
	s.Evidence = append(s.Evidence, "check: "+sql)
	return s, nil
}

// inferComposites finds, checks and selects the composite references of
// the run's base tables; a set of child columns declared (or configured)
// as a reference (declaredFrom) is not inferred again.
func inferComposites(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, cols []Column, declared map[string]bool, st *InferStats) ([]CompositeScored, map[string]bool, error) {
	var bases []warehouse.Table
	for _, t := range env.Tables {
		if t.Kind == "table" {
			bases = append(bases, t)
		}
	}
	var scored []CompositeScored
	declaredKeys := CompositeKeys(bases, cols)
	keys := append(slices.Clone(declaredKeys), UndeclaredCompositeKeys(bases, cols)...)
	holds := map[string]bool{} // an undeclared key's check, by keySig
	var checks []CompositeCandidate
	cands := CompositeCandidates(keys, cols)
	byValues := CompositeValueCandidates(declaredKeys, cols)
	st.CompositeValueCandidates = len(byValues)
	for _, c := range append(cands, byValues...) {
		st.CompositeCandidates++
		if declared[declKey(c.Child, c.Doc().FromColumns)] {
			continue // declared: it stands, and the query expert tests it
		}
		if c.Parent.Undeclared {
			held, err := undeclaredKeyHolds(ctx, env, tables, c.Parent, holds, st)
			if err != nil {
				return nil, nil, err
			}
			if !held {
				continue
			}
		}
		if pruned, err := tooManyTuples(ctx, env, tables, c); err != nil {
			if ctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) {
				return nil, nil, fmt.Errorf("infer relationships: %w", err)
			}
		} else if pruned {
			st.Pruned++
			st.PrunedBy[pruneDistinct]++
			continue
		}
		checks = append(checks, c)
	}
	// The checks side by side, up to the run's --parallel, as the single
	// columns' are: on a fact table read through a sample each reads the
	// sample (6 to 30 s each at the star's scale 10, one after the other
	// before). Their results keep the candidates' order.
	results := make([]*CompositeScored, len(checks))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(env.Options.Parallel, 1))
	for i, c := range checks {
		g.Go(func() error {
			s, err := checkComposite(gctx, env, tables, c)
			if err != nil {
				if gctx.Err() != nil || errors.Is(err, experts.ErrQueryBudget) {
					return fmt.Errorf("infer relationships: %w", err)
				}
				return nil // one bad candidate does not stop the others
			}
			results[i] = &s
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	st.CompositeChecks += len(checks)
	for _, s := range results {
		if s != nil {
			scored = append(scored, *s)
		}
	}
	selectValueComposites(scored)
	kept := SelectComposite(scored)
	keptKeys := map[string]bool{}
	for _, s := range kept {
		keptKeys[s.Key()] = true
	}
	// A strong name the values refute is worth knowing, as for one column.
	for _, s := range scored {
		if !keptKeys[s.Key()] && s.nameScore() >= ledgerNameScore {
			if err := saveCompositeLedger(ctx, env, s); err != nil {
				return nil, nil, err
			}
		}
	}
	// The keys of several columns: declared, or checked and found to hold.
	keySet := map[string]bool{}
	for ks, held := range holds {
		keySet[ks] = held
	}
	for _, k := range keys {
		if !k.Undeclared {
			keySet[keySig(k.Table, k.Columns)] = true
		}
	}
	return kept, keySet, nil
}

// SelectComposite keeps the accepted composite references, one per set of
// child columns whatever their order (the best scored; on a tie, the
// parent the other parent references: the entity, not a table that merely
// holds its key), after dropping the hops through an extension
// (dropExtensionHops), and settles two keys that reference each other
// (equal tuple sets, a one-to-one of two tables keyed alike): the parent
// is the side with more distinct tuples; a tie keeps neither, since
// nothing says which table extends which.
func SelectComposite(all []CompositeScored) []CompositeScored {
	var accepted []CompositeScored
	for _, s := range all {
		if s.Accept {
			accepted = append(accepted, s)
		}
	}
	accepted = dropExtensionHops(accepted)
	references := tablePairs(accepted)
	better := func(s, b CompositeScored) bool {
		switch {
		case s.Confidence != b.Confidence:
			return s.Confidence > b.Confidence
		case references[[2]string{b.Parent.Table, s.Parent.Table}] != references[[2]string{s.Parent.Table, b.Parent.Table}]:
			return references[[2]string{b.Parent.Table, s.Parent.Table}]
		}
		return s.Key() < b.Key()
	}
	best := map[string]CompositeScored{}
	for _, s := range accepted {
		k := keySig(s.Child, s.Columns)
		if b, ok := best[k]; !ok || better(s, b) {
			best[k] = s
		}
	}
	byKey := map[string]CompositeScored{}
	for _, s := range best {
		byKey[s.Key()] = s
	}
	var out []CompositeScored
	for _, s := range byKey {
		d := s.Doc()
		if r, ok := byKey[catalog.RelationshipKey(d.ToTable, d.ToColumns, d.FromTable, d.FromColumns)]; ok {
			// r's child is s's parent: r.ChildDistinct counts the parent's tuples.
			if r.ChildDistinct <= s.ChildDistinct {
				continue // the parent is the side with more tuples; a tie keeps neither
			}
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// dropExtensionHops drops a composite reference C → A(X) where the
// columns X of A themselves reference a table B (A(X) → B, accepted), C
// references B as well through other columns, and C's columns are named
// after B's as well as after A's: a history row's (customer, district,
// warehouse) numbers found among the orders' (o_c_id, o_d_id, o_w_id),
// which are one order per customer and so unique, say that the row is
// about the customer those orders reference, not about an order. A column
// named after A rather than B (a billing profile's id beside the
// customer's, where the profile's key is its customer's) keeps its
// reference to A.
func dropExtensionHops(accepted []CompositeScored) []CompositeScored {
	refs := tablePairs(accepted)
	byChildSet := map[string][]CompositeScored{}
	for _, s := range accepted {
		k := keySig(s.Child, s.Columns)
		byChildSet[k] = append(byChildSet[k], s)
	}
	return slices.DeleteFunc(slices.Clone(accepted), func(s CompositeScored) bool {
		for _, r := range byChildSet[keySig(s.Parent.Table, s.Parent.Columns)] {
			if strings.EqualFold(r.Parent.Table, s.Child) || !refs[[2]string{s.Child, r.Parent.Table}] {
				continue
			}
			if namedAfterToo(s, r) {
				return true
			}
		}
		return false
	})
}

// tablePairs is which tables reference which among refs: child table,
// parent table.
func tablePairs(refs []CompositeScored) map[[2]string]bool {
	out := map[[2]string]bool{}
	for _, s := range refs {
		out[[2]string{s.Child, s.Parent.Table}] = true
	}
	return out
}

// namedAfterToo reports whether each child column of s (C → A) is named
// after the column of B that r (A → B) maps its column of A to at least as
// well as after that column of A.
func namedAfterToo(s, r CompositeScored) bool {
	for j, kc := range s.Parent.Columns {
		i := slices.IndexFunc(r.Columns, func(c Column) bool { return c.Name == kc.Name })
		if i < 0 || j >= len(s.Names) || componentName(s.Columns[j], r.Parent.Columns[i]).Score < s.Names[j].Score {
			return false
		}
	}
	return true
}

// dropConstantPadded drops the composite references that add, to their
// other columns, only columns holding a single value in the child: a load
// time written once on every row of a one-load warehouse pairs with
// anything. They say nothing beside what those columns already say: a
// reference of their own (link_customer.hk_customer → hub_customer beside
// link_customer(hk_customer, load_dts) → sat_customer), or their table's
// own key, declared or found (hub_customer(hk_customer, load_dts) →
// sat_customer says only that the satellite holds every customer; a
// store's shelf count, the same in every store, beside the store's key,
// names a shelf by chance). keys are the keys of several columns, by
// keySig. A composite whose other column has no reference of its own (a
// tenant's orders, every row of one tenant) stands.
//
// A load time of several loads pads alike: a time column spelled as its
// key column, of a name most tables carry (LOAD_DATE, created_at), pairs
// a hub's or a link's rows with the satellite rows the same load wrote
// (HUB_ORDER(ORDER_HK, LOAD_DATE) → SAT_ORDER_DETAILS). A reference by a
// business date (a rate's day) is named otherwise and carried by few.
func dropConstantPadded(composites []CompositeScored, kept []Scored, cols []Column, keys map[string]bool) []CompositeScored {
	pk := map[string]bool{}
	tables := map[string]bool{}
	carriers := map[string]map[string]bool{} // a column name, folded: the tables that have it
	for _, c := range cols {
		if c.PK {
			pk[c.Table+"\x00"+c.Name] = true
		}
		tables[c.Table] = true
		n := strings.ToLower(c.Name)
		if carriers[n] == nil {
			carriers[n] = map[string]bool{}
		}
		carriers[n][c.Table] = true
	}
	common := func(name string) bool {
		n := len(carriers[strings.ToLower(name)])
		return n >= minAuditTables && 2*n >= len(tables)
	}
	refd := map[string]bool{}
	for _, s := range kept {
		refd[s.Child.Table+"\x00"+s.Child.Name] = true
	}
	return slices.DeleteFunc(composites, func(c CompositeScored) bool {
		var rest []Column
		for j, ch := range c.Columns {
			constant := ch.Profile != nil && ch.Profile.DistinctCount != nil && *ch.Profile.DistinctCount == 1
			load := j < len(c.Parent.Columns) && strings.EqualFold(ch.Name, c.Parent.Columns[j].Name) && stampColumn(ch) && common(ch.Name)
			if !constant && !load {
				rest = append(rest, ch)
			}
		}
		if len(rest) == 0 || len(rest) == len(c.Columns) {
			return false
		}
		if len(rest) > 1 {
			return keys[keySig(c.Child, rest)]
		}
		k := rest[0].Table + "\x00" + rest[0].Name
		return refd[k] || pk[k]
	})
}

// minAuditTables is the fewest tables that must carry a time column's
// name for it to be read as a load's or an audit's (dropConstantPadded).
const minAuditTables = 3

// stampColumn reports whether a column holds times: declared a date or a
// time, or profiled with dates or timestamps (valueclass's) as its least
// and greatest values (a lake's text).
func stampColumn(c Column) bool {
	u := strings.ToUpper(c.Type)
	if strings.Contains(u, "DATE") || strings.Contains(u, "TIME") {
		return true
	}
	p := c.Profile
	stamp := func(v string) bool { return valueclass.IsTimestamp(v) || valueclass.IsDate(v) }
	return p != nil && p.Min != nil && p.Max != nil && stamp(strings.TrimSpace(*p.Min)) && stamp(strings.TrimSpace(*p.Max))
}

// keySig names a key of several columns whatever their order.
func keySig(table string, cols []Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	slices.Sort(names)
	return declKey(table, names)
}

// refSig is a reference's end, a table and its columns in order, as the
// keys of the map implied reads: lower-cased, since declarations may
// spell names otherwise than the columns.
func refSig(table string, cols []string) string {
	return strings.ToLower(table + "(" + strings.Join(cols, ",") + ")")
}

// implied reports whether the reference from child(from) to to (a
// refSig) is said again by a wider composite one: from are some of the
// composite's child columns, and the parent's columns in their places
// reference to (refs maps a refSig to the refSigs it references, declared
// or inferred). exam_sitting.student_id → students is said by
// exam_sitting → module_enrolment(student_id, module_id) when
// module_enrolment.student_id → students; loan(title_id, edition_no) →
// editions by loan → volumes(title_id, edition_no, volume_no) when
// volumes(title_id, edition_no) → editions. Only a wider reference
// implies a narrower one, so two never drop each other, and only one at
// least as sure (conf is the narrower one's): an order's customer, named
// so, is not dropped for a pair of its columns that the values alone put
// among a bridge's (an order's customer and ship-to address among the
// customers' addresses).
func implied(child string, from []string, to string, conf float64, composites []CompositeScored, refs map[string][]string) bool {
	for _, c := range composites {
		if !strings.EqualFold(c.Child, child) || len(c.Columns) <= len(from) || c.Confidence < conf {
			continue
		}
		var via []string
		for _, f := range from {
			for i, ch := range c.Columns {
				if strings.EqualFold(ch.Name, f) {
					via = append(via, c.Parent.Columns[i].Name)
					break
				}
			}
		}
		if len(via) != len(from) {
			continue
		}
		if slices.Contains(refs[refSig(c.Parent.Table, via)], to) {
			return true
		}
	}
	return false
}

func compositeHypothesis(s CompositeScored) catalog.HypothesisDoc {
	return ledgerHypothesis(s.Doc(), s.Inclusion, s.Evidence)
}

// joinCols writes a column list as the query expert's statements do.
func joinCols(cols []string) string {
	if len(cols) == 1 {
		return cols[0]
	}
	return "(" + strings.Join(cols, ", ") + ")"
}

// saveCompositeLedger records a composite check in the hypothesis ledger.
func saveCompositeLedger(ctx context.Context, env *experts.Env, s CompositeScored) error {
	h := compositeHypothesis(s)
	conf := 1.0
	if s.Sample != "" && h.Status == hypotheses.Confirmed {
		conf = experts.SampleDiscount // no orphan in a sample is weaker than none in the table
	}
	ev := append(s.signals(), fmt.Sprintf("%d child rows with every column non-NULL, %d orphans%s", s.NonNull, s.OrphanRows, sampleNote(s.Sample)))
	return catalog.Hypotheses.Save(ctx, env, h.ID, h, conf, ev, "relationship", "inferred", h.Status)
}

// saveComposite records an accepted composite reference: its ledger entry
// first (to the query expert it marks the reference tested), then the
// relationship.
func saveComposite(ctx context.Context, env *experts.Env, s CompositeScored) error {
	h := compositeHypothesis(s)
	sig := s.signals()
	if err := saveCompositeLedger(ctx, env, s); err != nil {
		return err
	}
	doc := s.Doc()
	doc.Cardinality = s.Cardinality
	f := s.OrphanFraction
	doc.OrphanFraction = &f
	ev := append(sig, fmt.Sprintf("checked: %d of %d references with every column non-NULL have no parent%s (hypothesis %s)",
		s.OrphanRows, s.NonNull, sampleNote(s.Sample), h.ID))
	if err := catalog.Relationships.Save(ctx, env, s.Key(), doc, s.Confidence, ev, "inferred", "tested"); err != nil {
		return err
	}
	return saveCardinality(ctx, env, doc, s.Inclusion, checkSQL(s.Evidence))
}
