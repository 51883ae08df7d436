package relations_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/internal/expertstest"
)

// TestInferCompositeReferences: an invented warehouse whose references go
// to keys of two and three columns, none declared (inference ignores the
// declarations, as relbench does). Found from the names of each column and
// one check of the tuples:
//   - pick_task(aisle, bay) → shelf_slot(aisle, bay), a key of two columns;
//   - receipt(rc_site, rc_lot) → lot(lt_site, lt_lot), through the tables'
//     column prefixes;
//   - enrolment(term, course_no) → offering(term, course_no), and
//     grade_entry(term, course_no, student_no) → enrolment's key of three.
//
// Not inferred: returned_pick(aisle, bay), half of whose tuples no slot
// has; grade_entry(term, course_no) → offering, which grade_entry →
// enrolment → offering says already; and enrolment.term → term_cal, which
// enrolment → offering → term_cal says (both stay in the ledger,
// confirmed).
func TestInferCompositeReferences(t *testing.T) {
	path := filepath.Join(t.TempDir(), "composite.db")
	stmts := []string{
		`CREATE TABLE shelf_slot (aisle INTEGER NOT NULL, bay INTEGER NOT NULL, width_cm INTEGER, PRIMARY KEY (aisle, bay))`,
		`CREATE TABLE pick_task (task_id INTEGER PRIMARY KEY, aisle INTEGER, bay INTEGER, qty INTEGER)`,
		`CREATE TABLE returned_pick (return_id INTEGER PRIMARY KEY, aisle INTEGER, bay INTEGER)`,
		`CREATE TABLE lot (lt_site INTEGER NOT NULL, lt_lot INTEGER NOT NULL, lt_grade TEXT, PRIMARY KEY (lt_site, lt_lot))`,
		`CREATE TABLE receipt (rc_id INTEGER PRIMARY KEY, rc_site INTEGER, rc_lot INTEGER, rc_kg REAL)`,
		`CREATE TABLE term_cal (term INTEGER PRIMARY KEY, starts TEXT)`,
		`CREATE TABLE offering (term INTEGER NOT NULL, course_no INTEGER NOT NULL, room TEXT, PRIMARY KEY (term, course_no))`,
		`CREATE TABLE enrolment (term INTEGER NOT NULL, course_no INTEGER NOT NULL, student_no INTEGER NOT NULL, PRIMARY KEY (term, course_no, student_no))`,
		`CREATE TABLE grade_entry (entry_id INTEGER PRIMARY KEY, term INTEGER, course_no INTEGER, student_no INTEGER, grade TEXT)`,
	}
	for a := 1; a <= 12; a++ {
		for b := 1; b <= 20; b++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO shelf_slot VALUES (%d, %d, %d)`, a, b, 40+b))
		}
	}
	for i := 1; i <= 900; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO pick_task VALUES (%d, %d, %d, %d)`, i, 1+(i*7)%12, 1+(i*11)%20, 1+i%5))
	}
	for i := 1; i <= 80; i++ {
		// Bays 1..40 where slots have 1..20: half the returns point nowhere.
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO returned_pick VALUES (%d, %d, %d)`, i, 1+(i*5)%12, 1+(i*3)%40))
	}
	for s := 1; s <= 6; s++ {
		for l := 1; l <= 30; l++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO lot VALUES (%d, %d, 'g%d')`, s, l, l%3))
		}
	}
	for i := 1; i <= 500; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO receipt VALUES (%d, %d, %d, %d.25)`, i, 1+(i*5)%6, 1+(i*13)%30, i%40))
	}
	for term := 1; term <= 8; term++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO term_cal VALUES (%d, '202%d-09-01')`, term, term))
		for c := 1; c <= 15; c++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO offering VALUES (%d, %d, 'r%d')`, term, c, c%4))
			for s := 1; s <= 6; s++ {
				if (term+c+s)%3 != 0 { // not every offering has every student
					stmts = append(stmts, fmt.Sprintf(`INSERT INTO enrolment VALUES (%d, %d, %d)`, term, c, 100*term+s*c))
				}
			}
		}
	}
	stmts = append(stmts, `INSERT INTO grade_entry SELECT rowid, term, course_no, student_no, 'B' FROM enrolment WHERE rowid % 2 = 0`)
	expertstest.SQLite(t, path, stmts...)

	cat := runInference(t, path)
	ctx := context.Background()
	keys, _ := inferredKeys(t, cat)
	want := []string{
		"enrolment(term,course_no)->offering(term,course_no)",
		"grade_entry(term,course_no,student_no)->enrolment(term,course_no,student_no)",
		"offering(term)->term_cal(term)",
		"pick_task(aisle,bay)->shelf_slot(aisle,bay)",
		"receipt(rc_site,rc_lot)->lot(lt_site,lt_lot)",
	}
	wantKeys(t, keys, want)

	// The composite reference's document and evidence.
	e, err := cat.Get(ctx, catalog.KindRelationship, "pick_task(aisle,bay)->shelf_slot(aisle,bay)")
	if err != nil {
		t.Fatal(err)
	}
	var doc catalog.RelationshipDoc
	if err := e.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Source != "inferred" || doc.OrphanFraction == nil || *doc.OrphanFraction != 0 || doc.Cardinality != "one_to_many" || e.Confidence < relations.AcceptScore {
		t.Errorf("pick_task → shelf_slot: %+v, confidence %.2f", doc, e.Confidence)
	}
	ev := strings.Join(e.Evidence, "; ")
	for _, s := range []string{"names (exact, exact)", "inclusion 1.000 of 60 distinct tuples", "checked: 0 of 900 references"} {
		if !strings.Contains(ev, s) {
			t.Errorf("evidence lacks %q: %s", s, ev)
		}
	}

	// The ledger: the refuted composite, and the confirmed references a
	// wider one says again.
	for key, status := range map[string]string{
		"returned_pick(aisle,bay)->shelf_slot(aisle,bay)":       hypotheses.Refuted,
		"grade_entry(term,course_no)->offering(term,course_no)": hypotheses.Confirmed,
		"enrolment(term)->term_cal(term)":                       hypotheses.Confirmed,
	} {
		h, err := cat.Get(ctx, catalog.KindHypothesis, hypotheses.ID("ref", key))
		if err != nil {
			t.Errorf("no ledger entry for %s: %v", key, err)
			continue
		}
		var hd catalog.HypothesisDoc
		if err := h.Decode(&hd); err != nil {
			t.Fatal(err)
		}
		if hd.Status != status || hd.TestSQL == "" {
			t.Errorf("%s: %s (test %q), want %s", key, hd.Status, hd.TestSQL, status)
		}
	}

	// The run's evidence counts them.
	p, err := cat.Get(ctx, catalog.KindProgress, experts.ReferencesInferred.Key())
	if err != nil {
		t.Fatal(err)
	}
	var st relations.InferStats
	if err := p.Decode(&st); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", st.Detail)
	if st.CompositeChecks < 5 || st.Implied != 3 || st.Inferred != len(want) {
		t.Errorf("stats: %d composite candidates, %d checked, %d implied, %d inferred; want at least 5 checked, 3 implied (enrolment.term, grade_entry.term, grade_entry → offering), %d inferred",
			st.CompositeCandidates, st.CompositeChecks, st.Implied, st.Inferred, len(want))
	}
}

// TestSelectCompositeSettlesTwoKeys: two tables keyed alike that hold each
// other's tuples. The side with more tuples is the parent; equal sets say
// nothing of which extends which, and neither is kept. One target per
// set of child columns: the better scored.
func TestSelectCompositeSettlesTwoKeys(t *testing.T) {
	col := func(table, name string) relations.Column {
		return relations.Column{Table: table, Name: name, Type: "INTEGER"}
	}
	ref := func(child, parent string, childTuples int64, conf float64) relations.CompositeScored {
		c := relations.CompositeCandidate{Child: child,
			Columns: []relations.Column{col(child, "a"), col(child, "b")},
			Parent:  relations.CompositeKey{Table: parent, Columns: []relations.Column{col(parent, "a"), col(parent, "b")}},
			Names:   []relations.NameMatch{{Score: 1, Rule: "exact"}, {Score: 1, Rule: "exact"}}}
		return relations.CompositeScored{CompositeCandidate: c, Verdict: relations.Verdict{
			Inclusion: relations.Inclusion{ChildDistinct: childTuples, NonNull: childTuples}, Confidence: conf, Accept: true}}
	}
	keys := func(ss []relations.CompositeScored) string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Key())
		}
		return strings.Join(out, " ")
	}
	if got := keys(relations.SelectComposite([]relations.CompositeScored{ref("x", "y", 30, 0.99), ref("y", "x", 30, 0.99)})); got != "" {
		t.Errorf("equal sets: kept %q, want neither", got)
	}
	if got := keys(relations.SelectComposite([]relations.CompositeScored{ref("x", "y", 20, 0.99), ref("y", "x", 30, 0.99)})); got != "x(a,b)->y(a,b)" {
		t.Errorf("x holds fewer tuples: kept %q, want x → y", got)
	}
	if got := keys(relations.SelectComposite([]relations.CompositeScored{ref("x", "y", 20, 0.9), ref("x", "z", 20, 0.95)})); got != "x(a,b)->z(a,b)" {
		t.Errorf("two targets: kept %q, want the better scored", got)
	}
}

// TestCompositeCandidatesNeedEveryColumnNamed: a table that names only
// one column of a key, or names one with a type that does not compare,
// is no candidate; prefixes and case do not matter.
func TestCompositeCandidatesNeedEveryColumnNamed(t *testing.T) {
	c := func(table, name, typ string) relations.Column {
		return relations.Column{Table: table, Name: name, Type: typ}
	}
	cols := []relations.Column{
		c("slot", "aisle", "INTEGER"), c("slot", "bay", "INTEGER"),
		c("pick", "pk_id", "INTEGER"), c("pick", "pk_aisle", "INTEGER"), c("pick", "pk_bay", "INTEGER"),
		c("half", "aisle", "INTEGER"), c("half", "shelf", "INTEGER"),
		c("texty", "AISLE", "INTEGER"), c("texty", "BAY", "TEXT"),
	}
	keys := []relations.CompositeKey{{Table: "slot", Columns: []relations.Column{cols[0], cols[1]}}}
	var got []string
	for _, cand := range relations.CompositeCandidates(keys, cols) {
		got = append(got, cand.Key())
	}
	if strings.Join(got, " ") != "pick(pk_aisle,pk_bay)->slot(aisle,bay)" {
		t.Errorf("candidates %q, want only pick(pk_aisle,pk_bay)->slot(aisle,bay)", got)
	}
}

// TestInferUndeclaredKeys: an invented stock schema that declares nothing,
// no primary key either, in the conventions of decision-support schemas:
// table-prefixed columns and "key" glued to what it identifies
// (pd_partkey). Keys are found from the data (unique, key-named), a key of
// two columns too (part_depot's pair, checked unique), and every
// reference to them. The line's part and depot are said by its reference
// to part_depot, whose part and depot reference them, as they would be
// were part_depot's key declared: the same data gives the same
// references whatever is declared. They stay in the ledger, confirmed.
func TestInferUndeclaredKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stock.db")
	stmts := []string{
		`CREATE TABLE zone (z_zonekey INTEGER, z_name TEXT)`,
		`CREATE TABLE depot (d_depotkey INTEGER, d_zonekey INTEGER, d_city TEXT)`,
		`CREATE TABLE part (pt_partkey INTEGER, pt_name TEXT)`,
		`CREATE TABLE part_depot (pd_partkey INTEGER, pd_depotkey INTEGER, pd_stock INTEGER)`,
		`CREATE TABLE shipment (s_shipkey INTEGER, s_day TEXT)`,
		`CREATE TABLE shipment_line (sl_shipkey INTEGER, sl_partkey INTEGER, sl_depotkey INTEGER, sl_lineno INTEGER, sl_qty INTEGER)`,
	}
	for i := 1; i <= 8; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO zone VALUES (%d, 'zone %d')`, i, i))
	}
	for i := 1; i <= 40; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO depot VALUES (%d, %d, 'city %d')`, i, 1+(i*3)%8, i))
	}
	for i := 1; i <= 300; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO part VALUES (%d, 'part %d')`, i, i))
		for _, d := range []int{1 + (i*7)%40, 1 + (i*11+5)%40} { // each part in two depots
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO part_depot VALUES (%d, %d, %d)`, i, d, i%50))
		}
	}
	for s := 1; s <= 600; s++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO shipment VALUES (%d, '2026-03-%02d')`, s, 1+s%28))
		for l := 1; l <= 3; l++ {
			p := 1 + (s*13+l*7)%300
			d := 1 + (p*7)%40
			if l == 2 {
				d = 1 + (p*11+5)%40
			}
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO shipment_line VALUES (%d, %d, %d, %d, %d)`, s, p, d, l, 1+s%9))
		}
	}
	expertstest.SQLite(t, path, stmts...)
	cat := runInference(t, path)
	keys, byKey := inferredKeys(t, cat)
	wantKeys(t, keys, []string{
		"depot(d_zonekey)->zone(z_zonekey)",
		"part_depot(pd_depotkey)->depot(d_depotkey)",
		"part_depot(pd_partkey)->part(pt_partkey)",
		"shipment_line(sl_partkey,sl_depotkey)->part_depot(pd_partkey,pd_depotkey)",
		"shipment_line(sl_shipkey)->shipment(s_shipkey)",
	})
	wantConfirmed(t, cat, "shipment_line(sl_depotkey)->depot(d_depotkey)", "shipment_line(sl_partkey)->part(pt_partkey)")
	ev := strings.Join(byKey["shipment_line(sl_partkey,sl_depotkey)->part_depot(pd_partkey,pd_depotkey)"].Evidence, "; ")
	if !strings.Contains(ev, "part_depot's key (pd_partkey, pd_depotkey) declared nowhere: its tuples were checked unique") {
		t.Errorf("composite evidence: %s", ev)
	}
}

// TestCompositePrunedByCounts: sales keyed by (goods, ticket) and refunds
// keyed alike, a tenth of the sales. Each reads as a candidate of the
// other; the sales' key cannot be among the refunds' (1,000 distinct
// tuples, at most 100 there), which the row counts say without a query:
// one composite check, the refunds', is run.
func TestCompositePrunedByCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "refunds.db")
	stmts := []string{
		`CREATE TABLE sale (goods_no INTEGER NOT NULL, ticket_no INTEGER NOT NULL, qty INTEGER, PRIMARY KEY (goods_no, ticket_no))`,
		`CREATE TABLE refund (goods_no INTEGER NOT NULL, ticket_no INTEGER NOT NULL, reason TEXT, PRIMARY KEY (goods_no, ticket_no))`,
	}
	for i := 1; i <= 1000; i++ {
		// A ticket of three lines, each other goods.
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO sale VALUES (%d, %d, %d)`, 1+i%37, 1+i/3, 1+i%4))
		if i%10 == 0 {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO refund VALUES (%d, %d, 'r%d')`, 1+i%37, 1+i/3, i%3))
		}
	}
	expertstest.SQLite(t, path, stmts...)
	cat := runInference(t, path)
	keys, _ := inferredKeys(t, cat)
	wantKeys(t, keys, []string{"refund(goods_no,ticket_no)->sale(goods_no,ticket_no)"})
	p, err := cat.Get(context.Background(), catalog.KindProgress, experts.ReferencesInferred.Key())
	if err != nil {
		t.Fatal(err)
	}
	var st relations.InferStats
	if err := p.Decode(&st); err != nil {
		t.Fatal(err)
	}
	if st.CompositeCandidates != 2 || st.CompositeChecks != 1 || st.PrunedBy["distinct counts"] < 1 {
		t.Errorf("%d composite candidates, %d checked, pruned by %v: want 2, 1 checked, the other pruned by counts (%s)",
			st.CompositeCandidates, st.CompositeChecks, st.PrunedBy, st.Detail)
	}
}

// TestInferUndeclaredTripleKey: an invented retail hierarchy that
// declares nothing, keyed by numbers that repeat at each level: stores
// numbered within their region, shelves within their store. A shelf is
// (region_no, store_no, shelf_no), no pair of which is unique, and a stock
// count names all three; a store is (region_no, store_no), which shelves
// and counts name too. The triple's pairs are keys of nothing in shelf,
// so the triple is its key; in region_store the pair already is, so no
// reference to a triple there is made up. A count's store is said by its
// shelf, whose store is a store, and stays in the ledger.
func TestInferUndeclaredTripleKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stores.db")
	expertstest.SQLite(t, path,
		`CREATE TABLE region_store (region_no INTEGER, store_no INTEGER, shelf_no INTEGER, opened TEXT)`,
		`CREATE TABLE shelf (region_no INTEGER, store_no INTEGER, shelf_no INTEGER, capacity INTEGER)`,
		`CREATE TABLE stock_count (region_no INTEGER, store_no INTEGER, shelf_no INTEGER, counted_on TEXT, qty INTEGER)`,
		// 6 regions of 9 stores each, numbered 1..9 within the region; a
		// store's shelf_no here is its number of shelves.
		`WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < 6),
			s(j) AS (SELECT 1 UNION ALL SELECT j+1 FROM s WHERE j < 9)
			INSERT INTO region_store SELECT i, j, 12, date('2020-01-01', '+' || (i * 9 + j) || ' days') FROM r, s`,
		// 12 shelves in each store, numbered 1..12.
		`WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k+1 FROM n WHERE k < 12)
			INSERT INTO shelf SELECT region_no, store_no, k, 40 + (k * 7) % 30 FROM region_store, n`,
		// Counts of a third of the shelves, twice each.
		`WITH RECURSIVE d(m) AS (SELECT 0 UNION ALL SELECT m+1 FROM d WHERE m < 1)
			INSERT INTO stock_count SELECT region_no, store_no, shelf_no, date('2026-01-01', '+' || m || ' days'), capacity - m
			FROM shelf, d WHERE (region_no + store_no + shelf_no) % 3 = 0`,
	)
	cat := runInference(t, path)
	keys, _ := inferredKeys(t, cat)
	wantKeys(t, keys, []string{
		"shelf(region_no,store_no)->region_store(region_no,store_no)",
		"stock_count(region_no,store_no,shelf_no)->shelf(region_no,store_no,shelf_no)",
	})
	wantConfirmed(t, cat, "stock_count(region_no,store_no)->region_store(region_no,store_no)")
}

// wantConfirmed fails the test unless each reference is in the ledger,
// confirmed: a reference a wider one says again is not lost.
func wantConfirmed(t *testing.T, cat *catalog.Catalog, keys ...string) {
	t.Helper()
	for _, key := range keys {
		h, err := cat.Get(context.Background(), catalog.KindHypothesis, hypotheses.ID("ref", key))
		if err != nil {
			t.Errorf("no ledger entry for %s: %v", key, err)
			continue
		}
		var hd catalog.HypothesisDoc
		if err := h.Decode(&hd); err != nil {
			t.Fatal(err)
		}
		if hd.Status != hypotheses.Confirmed {
			t.Errorf("%s: %s in the ledger, want confirmed", key, hd.Status)
		}
	}
}
