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
	"github.com/discover-db/discover/internal/expertstest"
)

// TestInferByValues: an invented club whose references are named like no
// key. Members are numbered from 50001, so a column whose values all fall
// among the members' numbers is one: pate (a godparent, in German), a
// role no word list knows. (referred_by_no is
// named as who did something, and found by that name.) Not proposed:
// score (1..40, all inside round.id 1..100, which holds nearly every
// integer of 0..40). Proposed by the values and refuted: rival_no,
// members' numbers with one that no member has. And a column
// named after a key is left to its name (fee_id → fee.id), never proposed
// by values too.
func TestInferByValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "club.db")
	stmts := []string{
		`CREATE TABLE member (member_no INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE round (id INTEGER PRIMARY KEY, played TEXT)`,
		`CREATE TABLE fee (id INTEGER PRIMARY KEY, amount INTEGER)`,
		`CREATE TABLE entry (entry_id INTEGER PRIMARY KEY, pate INTEGER, referred_by_no INTEGER, rival_no INTEGER, score INTEGER, fee_id INTEGER)`,
	}
	for i := 1; i <= 300; i++ {
		if i != 150 { // no member 50150
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO member VALUES (%d, 'member %d')`, 50000+i, i))
		}
	}
	for i := 1; i <= 100; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO round VALUES (%d, '2026-%02d-01')`, i, 1+i%12))
	}
	for i := 1; i <= 20; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO fee VALUES (%d, %d)`, i, 10*i))
	}
	for i := 1; i <= 1200; i++ {
		rival := 50151 + (i*29)%150
		if i == 7 {
			rival = 50150 // no member has it
		}
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO entry VALUES (%d, %d, %d, %d, %d, %d)`,
			i, 50001+(i*7)%149, 50151+(i*13)%150, rival, 1+i%40, 1+i%20))
	}
	expertstest.SQLite(t, path, stmts...)
	cat := runInference(t, path)
	ctx := context.Background()
	keys, byKey := inferredKeys(t, cat)
	want := []string{
		"entry(fee_id)->fee(id)",
		"entry(pate)->member(member_no)",
		"entry(referred_by_no)->member(member_no)",
	}
	wantKeys(t, keys, want)
	e := byKey["entry(pate)->member(member_no)"]
	ev := strings.Join(e.Evidence, "; ")
	for _, s := range []string{"name (values)", "proposed by its values: member.member_no holds 149 of the integers 0..50149", "checked: 0 of 1200"} {
		if !strings.Contains(ev, s) {
			t.Errorf("pate: evidence lacks %q: %s", s, ev)
		}
	}
	if e.Confidence < relations.AcceptScore || e.Confidence > 0.9 {
		t.Errorf("pate: confidence %.2f, want within %.2f..0.90", e.Confidence, relations.AcceptScore)
	}

	p, err := cat.Get(ctx, catalog.KindProgress, experts.ReferencesInferred.Key())
	if err != nil {
		t.Fatal(err)
	}
	var st relations.InferStats
	if err := p.Decode(&st); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", st.Detail)
	// pate and rival_no to member; score is never proposed (round.id
	// holds 40 of 0..40 by the profiles' estimate).
	if st.ValueCandidates != 2 {
		t.Errorf("%d candidates from values, want 2 (pate, rival_no)", st.ValueCandidates)
	}
	if !strings.Contains(strings.Join(p.Evidence, "; "), "2 candidates from values alone") {
		t.Errorf("evidence %q", p.Evidence)
	}
}

// intProfile is the profile of an integer column of distinct values in
// lo..hi over rows rows.
func intProfile(table, col string, rows, distinct int64, lo, hi int) *catalog.ProfileDoc {
	p := prof(table, col, rows, distinct, fmt.Sprint(lo), fmt.Sprint(hi))
	p.Mean = ptr(float64(lo+hi) / 2)
	return p
}

// intColumn is an INTEGER column with profile p, its table's declared
// primary key when pk.
func intColumn(table, name string, p *catalog.ProfileDoc, pk bool) relations.Column {
	return relations.Column{Table: table, Name: name, Type: "INTEGER", Profile: p, PK: pk, Declared: pk}
}

// TestValueCandidatesChance: the chance model on profiles alone. A key
// numbered from 1 holds nearly all of 0..max of any child inside it; one
// numbered from 50001 holds few of 0..50300.
func TestValueCandidatesChance(t *testing.T) {
	cols := []relations.Column{
		intColumn("member", "member_no", intProfile("member", "member_no", 300, 300, 50001, 50300), true),
		intColumn("round", "id", intProfile("round", "id", 100, 100, 1, 100), true),
		intColumn("entry", "sponsor", intProfile("entry", "sponsor", 1200, 300, 50001, 50300), false),
		intColumn("entry", "score", intProfile("entry", "score", 1200, 40, 1, 40), false),
		intColumn("entry", "few", intProfile("entry", "few", 1200, 3, 50001, 50003), false),
		intColumn("entry", "negative", intProfile("entry", "negative", 1200, 30, -5, 50), false),
	}
	var got []string
	for _, c := range relations.ValueCandidates(cols, nil) {
		got = append(got, c.Key())
	}
	if strings.Join(got, " ") != "entry(sponsor)->member(member_no)" {
		t.Errorf("value candidates %q, want only entry(sponsor)->member(member_no)", got)
	}
	// A column whose name found its reference is left to it.
	named := []relations.Candidate{{Child: cols[2], Parent: cols[0]}}
	if got := relations.ValueCandidates(cols, named); len(got) != 0 {
		t.Errorf("value candidates of a named column: %v", got)
	}
}

// TestValueCandidatesDeclaredKeyTable: values alone never propose an
// undeclared unique column of a table that declares its key (a course's
// start date, which a section's modification times happen to fall on), but
// one of a table that declares none they do; and such a column still makes
// coverage ambiguous, so that a measure filling 1..n of two tables' columns
// is proposed for neither.
func TestValueCandidatesDeclaredKeyTable(t *testing.T) {
	candidates := func(cols []relations.Column) string {
		var got []string
		for _, c := range relations.ValueCandidates(cols, nil) {
			got = append(got, c.Key())
		}
		return strings.Join(got, " ")
	}
	sections := intColumn("section", "modified", intProfile("section", "modified", 2000, 300, 1_600_000_000, 1_600_900_000), false)
	start := intProfile("course", "started", 300, 300, 1_600_000_000, 1_600_900_000)
	if got := candidates([]relations.Column{intColumn("course", "id", intProfile("course", "id", 300, 300, 1, 300), true),
		intColumn("course", "started", start, false), sections}); got != "" {
		t.Errorf("a table with a declared key: value candidates %q, want none", got)
	}
	if got := candidates([]relations.Column{intColumn("course", "started", start, false), sections}); got != "section(modified)->course(started)" {
		t.Errorf("a table without a declared key: value candidates %q, want section(modified)->course(started)", got)
	}
	// Coverage: trade.qty holds 1..10000 whole, as account.sk and
	// account.number do.
	cover := []relations.Column{
		intColumn("account", "sk", intProfile("account", "sk", 10000, 10000, 1, 10000), true),
		intColumn("account", "number", intProfile("account", "number", 10000, 10000, 1, 10000), false),
		intColumn("trade", "qty", intProfile("trade", "qty", 50000, 10000, 1, 10000), false),
	}
	if got := candidates(cover); got != "" {
		t.Errorf("coverage of two columns alike: value candidates %q, want none", got)
	}
	if got := candidates([]relations.Column{cover[0], cover[2]}); got != "trade(qty)->account(sk)" {
		t.Errorf("coverage of one key: value candidates %q, want trade(qty)->account(sk)", got)
	}
}

// TestInferTextByValues: a text column named like no key whose values are
// all a lookup table's declared key: exam_result.mark → grade_scale.letter.
// Not references: band, whose values are also letters of the scale but
// only three of them (too few to tell from chance), and remark, free text
// outside the key's range of values.
func TestInferTextByValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "exams.db")
	letters := []string{"A+", "A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D", "F"}
	stmts := []string{
		`CREATE TABLE grade_scale (letter TEXT PRIMARY KEY, points REAL)`,
		`CREATE TABLE exam_result (id INTEGER PRIMARY KEY, mark TEXT, band TEXT, remark TEXT)`,
	}
	for i, l := range letters {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO grade_scale VALUES ('%s', %.1f)`, l, 4.3-0.33*float64(i)))
	}
	for i := 1; i <= 400; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO exam_result VALUES (%d, '%s', '%s', 'see file %d')`,
			i, letters[(i*7)%9], letters[i%3], i%17))
	}
	expertstest.SQLite(t, path, stmts...)
	keys, byKey := inferredKeys(t, runInference(t, path))
	wantKeys(t, keys, []string{"exam_result(mark)->grade_scale(letter)"})
	e := byKey["exam_result(mark)->grade_scale(letter)"]
	if ev := strings.Join(e.Evidence, "; "); !strings.Contains(ev, "proposed by its values: all 9 distinct values are grade_scale.letter's, a declared key") ||
		e.Confidence < relations.AcceptScore {
		t.Errorf("confidence %.2f, evidence %s", e.Confidence, ev)
	}
}

// TestInferNamesTheDataTeaches: an invented record archive whose
// references are not named after their targets, numbered 1..n as every
// key is, so that no chance model tells them from small integers:
//   - track_listing.disc_id holds every album's id 1..2500, ending on the
//     last, and nothing else does (coverage);
//   - artist_id names artist_name, a table named by its entity's word and
//     "name", which names no entity alone; it holds every key;
//   - review.disc_id and sample_credit.disc_id hold a few albums only:
//     the name the values tied to album.id elsewhere names it here too,
//     and source_disc_id as a role over it;
//   - warehouse_bin.stock_id and stock_log: a log of stock movements is
//     no table of stock, whatever its keys hold;
//   - ledger_entry.payment_id names payment_type as artist_id names
//     artist_name, but holds 15 of its 30 kinds, not up to the last: a
//     table of payments' kinds is not one of payments, and the values
//     do not say otherwise.
func TestInferNamesTheDataTeaches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "archive.db")
	expertstest.SQLite(t, path,
		`CREATE TABLE album (id INTEGER, title TEXT, released INTEGER)`,
		`CREATE TABLE artist_name (id INTEGER, name TEXT)`,
		`CREATE TABLE track_listing (id INTEGER, disc_id INTEGER, artist_id INTEGER, position INTEGER)`,
		`CREATE TABLE review (id INTEGER, disc_id INTEGER, stars INTEGER)`,
		`CREATE TABLE sample_credit (id INTEGER, disc_id INTEGER, source_disc_id INTEGER)`,
		`CREATE TABLE stock_log (id INTEGER, moved INTEGER)`,
		`CREATE TABLE warehouse_bin (id INTEGER, stock_id INTEGER, shelf TEXT)`,
		`CREATE TABLE payment_type (id INTEGER, label TEXT)`,
		`CREATE TABLE ledger_entry (id INTEGER, payment_id INTEGER, amount REAL)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 30)
			INSERT INTO payment_type SELECT i, 'kind ' || i FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 500)
			INSERT INTO ledger_entry SELECT i, 3 + i % 15, i * 1.5 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 2500)
			INSERT INTO album SELECT i, 'album ' || i, 1960 + i % 60 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 900)
			INSERT INTO artist_name SELECT i, 'artist ' || i FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 10000)
			INSERT INTO track_listing SELECT i, 1 + (i * 7) % 2500, 1 + (i * 13) % 900, 1 + i % 14 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 400)
			INSERT INTO review SELECT i, 1 + (i * 37) % 2500, 1 + i % 5 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 150)
			INSERT INTO sample_credit SELECT i, 1 + (i * 53) % 2500, 1 + (i * 101) % 2500 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 6000)
			INSERT INTO stock_log SELECT i, i % 40 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 300)
			INSERT INTO warehouse_bin SELECT i, i, 'S' || (i % 12) FROM n`,
	)
	keys, byKey := inferredKeys(t, runInference(t, path))
	wantKeys(t, keys, []string{
		"review(disc_id)->album(id)",
		"sample_credit(disc_id)->album(id)",
		"sample_credit(source_disc_id)->album(id)",
		"track_listing(artist_id)->artist_name(id)",
		"track_listing(disc_id)->album(id)",
	})
	if e, ok := byKey["track_listing(disc_id)->album(id)"]; ok && !strings.Contains(strings.Join(e.Evidence, "\n"), "proposed by its values: it holds 2500 of album.id's 2500 keys") {
		t.Errorf("track_listing.disc_id's evidence: %q", e.Evidence)
	}
}

// TestValueCandidatesSteps: a column whose values are all multiples of one
// step (bays 100, 200, … 600) is drawn from those multiples, not from every
// integer up to its greatest: depots coded 100..2000 in steps of 100 may
// hold all seven multiples of 100 in 0..600, so finding the six there is
// no coincidence, where six values spread over 0..600 would be found
// among 20 depots' codes by a chance of (20/601)^6. The same bays with one
// of them 101 are proposed.
func TestValueCandidatesSteps(t *testing.T) {
	depot := intColumn("depot", "code", intProfile("depot", "code", 20, 20, 100, 2000), true)
	bays := func(vals ...int) relations.Column {
		p := intProfile("van", "home_bay", 60, int64(len(vals)), vals[0], vals[len(vals)-1])
		for _, v := range vals {
			p.TopValues = append(p.TopValues, catalog.ValueCount{Value: fmt.Sprint(v), Count: 10})
		}
		return intColumn("van", "home_bay", p, false)
	}
	keys := func(cols ...relations.Column) string {
		var got []string
		for _, c := range relations.ValueCandidates(cols, nil) {
			got = append(got, c.Key())
		}
		return strings.Join(got, " ")
	}
	if got := keys(depot, bays(100, 200, 300, 400, 500, 600)); got != "" {
		t.Errorf("bays in steps of 100: value candidates %q, want none", got)
	}
	if got := keys(depot, bays(101, 200, 300, 400, 500, 600)); got != "van(home_bay)->depot(code)" {
		t.Errorf("bays without a step: value candidates %q, want van(home_bay)->depot(code)", got)
	}
}
