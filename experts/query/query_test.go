package query_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/query"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/keys"
	"github.com/discover-db/discover/warehouse/sqlite"
)

const schema = `
CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id), note TEXT);
CREATE TABLE good(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id));
CREATE TABLE empty_ref(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id));
CREATE TABLE nokey(label TEXT, code TEXT, qty INTEGER);
CREATE TABLE dupkey(code TEXT, v INTEGER);
CREATE TABLE enrolment(student_id INTEGER, course_id INTEGER, grade TEXT);
CREATE TABLE visits(patient_id INTEGER, doctor_id INTEGER, note TEXT);
CREATE TABLE a(x INT, y INT, PRIMARY KEY(x, y));
CREATE TABLE b(id INTEGER PRIMARY KEY, x INT, y INT, FOREIGN KEY(x, y) REFERENCES a(x, y));
CREATE TABLE broken(id INTEGER PRIMARY KEY, ghost_id INTEGER REFERENCES ghost(id));
`

func build(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "q.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := []string{schema}
	for i := 1; i <= 20; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO parent VALUES (%d, 'p%d')", i, i))
		stmts = append(stmts, fmt.Sprintf("INSERT INTO good VALUES (%d, %d)", i, 1+i%20))
		stmts = append(stmts, fmt.Sprintf("INSERT INTO empty_ref VALUES (%d, NULL)", i))
		stmts = append(stmts, fmt.Sprintf("INSERT INTO nokey VALUES ('l%d', 'K%03d', %d)", i%3, i, i%4))
		stmts = append(stmts, fmt.Sprintf("INSERT INTO dupkey VALUES ('D%d', %d)", i%5, i))
		stmts = append(stmts, fmt.Sprintf("INSERT INTO a VALUES (%d, %d)", i, i*10))
		stmts = append(stmts, fmt.Sprintf("INSERT INTO b VALUES (%d, %d, %d)", i, i, i*10))
		stmts = append(stmts, fmt.Sprintf("INSERT INTO broken VALUES (%d, %d)", i, i))
		// Every (student, course) pair once; visits repeat pair (1, 1).
		stmts = append(stmts, fmt.Sprintf("INSERT INTO enrolment VALUES (%d, %d, 'A')", i%4+1, (i-1)/4+1))
		patient, doctor := i%4+1, (i-1)/4+1
		if i == 20 {
			patient, doctor = 2, 1 // row 1's pair again
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO visits VALUES (%d, %d, 'v')", patient, doctor))
	}
	// child: 40 rows, 36 non-NULL references, two of them to parents that do not exist.
	for i := 1; i <= 40; i++ {
		ref := fmt.Sprint(1 + i%20)
		switch {
		case i%10 == 0:
			ref = "NULL"
		case i == 7:
			ref = "98"
		case i == 9:
			ref = "99"
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO child VALUES (%d, %s, 'n')", i, ref))
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

type harness struct {
	src *sqlite.Source
	cat *catalog.Catalog
	q   atomic.Int64
	it  int
}

// round plans and runs every expert once, as one orchestrator iteration
// would, and returns the task names.
func (h *harness) round(t *testing.T, xs ...experts.Expert) []string {
	t.Helper()
	ctx := context.Background()
	tables, err := h.src.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h.it++
	env := experts.NewEnv(h.src, h.cat, "run1", h.it, 1, tables, experts.Options{SampleRows: 1_000_000}, &h.q)
	var names []string
	for _, x := range xs {
		tasks, err := x.Plan(ctx, env.For(x.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range tasks {
			names = append(names, tk.Name)
			if err := tk.Run(ctx); err != nil {
				t.Fatalf("%s: %v", tk.Name, err)
			}
		}
	}
	return names
}

func setup(t *testing.T) *harness {
	t.Helper()
	ctx := context.Background()
	src, err := sqlite.Open(ctx, build(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	return &harness{src: src, cat: cat}
}

func get[T any](t *testing.T, cat *catalog.Catalog, kind, key string) (T, catalog.Entry) {
	t.Helper()
	var d T
	e, err := cat.Get(context.Background(), kind, key)
	if err != nil {
		t.Fatalf("%s %s: %v", kind, key, err)
	}
	if err := e.Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d, e
}

func TestQueryExpert(t *testing.T) {
	h := setup(t)
	xs := []experts.Expert{structural.New(), relations.New(), statistical.New(), query.New()}
	for i := 0; i < 6 && len(h.round(t, xs...)) > 0; i++ {
	}
	if left := h.round(t, xs...); len(left) != 0 {
		t.Fatalf("experts still busy: %v", left)
	}

	rel := func(key string) (catalog.RelationshipDoc, catalog.Entry) {
		return get[catalog.RelationshipDoc](t, h.cat, catalog.KindRelationship, key)
	}
	hyp := func(subject string) (catalog.HypothesisDoc, catalog.Entry) {
		es, err := h.cat.Kind(context.Background(), catalog.KindHypothesis, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			var d catalog.HypothesisDoc
			e.Decode(&d)
			if d.Subject == subject {
				return d, e
			}
		}
		t.Fatalf("no hypothesis about %s", subject)
		return catalog.HypothesisDoc{}, catalog.Entry{}
	}

	// Orphans: refuted, with the exact fraction and the orphan values.
	r, e := rel("child(parent_id)->parent(id)")
	if r.OrphanFraction == nil || math.Abs(*r.OrphanFraction-2.0/36) > 1e-12 || e.Confidence >= 0.9 {
		t.Fatalf("child: orphan fraction %v confidence %v", r.OrphanFraction, e.Confidence)
	}
	d, he := hyp("child(parent_id)->parent(id)")
	if d.Status != "refuted" || !strings.Contains(strings.Join(he.Evidence, ";"), "40 child rows, 36 with a non-NULL reference, 2 orphans") ||
		!strings.Contains(strings.Join(he.Evidence, ";"), "orphan values: 98, 99") {
		t.Fatalf("child hypothesis %+v %v", d, he.Evidence)
	}
	// The test really runs: the SQL is in the ledger, and it is guarded.
	if !strings.HasPrefix(d.TestSQL, "SELECT COUNT(*) AS child_rows") {
		t.Fatalf("test sql %q", d.TestSQL)
	}
	if _, err := h.cat.Get(context.Background(), catalog.KindInsight, "quality:orphans:child(parent_id)->parent(id)"); err != nil {
		t.Fatalf("no quality insight for the orphans: %v", err)
	}

	// Holds: confirmed, confidence 1, orphan fraction 0.
	r, e = rel("good(parent_id)->parent(id)")
	if r.OrphanFraction == nil || *r.OrphanFraction != 0 || e.Confidence != 1 {
		t.Fatalf("good: %v %v", r.OrphanFraction, e.Confidence)
	}
	if d, _ := hyp("good(parent_id)->parent(id)"); d.Status != "confirmed" {
		t.Fatalf("good hypothesis %+v", d)
	}
	// Composite references are tested on all their columns.
	r, e = rel("b(x,y)->a(x,y)")
	if d, _ := hyp("b(x,y)->a(x,y)"); d.Status != "confirmed" || r.OrphanFraction == nil || e.Confidence != 1 {
		t.Fatalf("composite: %+v %v", d, r.OrphanFraction)
	}
	// Nothing to check: inconclusive, no orphan figure, lower confidence.
	r, e = rel("empty_ref(parent_id)->parent(id)")
	if d, _ := hyp("empty_ref(parent_id)->parent(id)"); d.Status != "inconclusive" || r.OrphanFraction != nil || e.Confidence > 0.7 {
		t.Fatalf("empty: %+v %v %v", d, r.OrphanFraction, e.Confidence)
	}
	// A reference to a table that does not exist cannot be confirmed.
	r, e = rel("broken(ghost_id)->ghost(id)")
	if d, _ := hyp("broken(ghost_id)->ghost(id)"); d.Status != "inconclusive" || r.OrphanFraction != nil || e.Confidence > 0.3 {
		t.Fatalf("broken: %+v %v %v", d, r.OrphanFraction, e.Confidence)
	}

	// A run killed after the relationship was saved but before its
	// hypothesis (the mark of the test done) tests it again on --resume:
	// the confidence is lowered once, not once per attempt.
	for _, key := range []string{"broken(ghost_id)->ghost(id)", "empty_ref(parent_id)->parent(id)"} {
		_, before := rel(key)
		d, he := hyp(key)
		if err := h.cat.Delete(context.Background(), catalog.KindHypothesis, he.Key); err != nil {
			t.Fatal(err)
		}
		if names := h.round(t, xs...); !slices.Contains(names, "test "+key) {
			t.Fatalf("the reference was not tested again: %v", names)
		}
		_, after := rel(key)
		if again, _ := hyp(key); again.Status != d.Status || after.Confidence != before.Confidence ||
			strings.Count(strings.Join(after.Evidence, "\n"), "could not be confirmed") != 1 {
			t.Errorf("%s tested again: %s, confidence %v → %v, evidence %q", key, again.Status, before.Confidence, after.Confidence, after.Evidence)
		}
	}

	// A table without a declared key gets one inferred from the data.
	tb, te := get[catalog.TableDoc](t, h.cat, catalog.KindTable, "nokey")
	if strings.Join(tb.PrimaryKey, ",") != "code" || tb.PrimaryKeySource != "inferred" {
		t.Fatalf("nokey: key %v (%s) evidence %v", tb.PrimaryKey, tb.PrimaryKeySource, te.Evidence)
	}
	if d, _ := hyp("nokey"); d.Status != "confirmed" {
		t.Fatalf("nokey hypothesis %+v", d)
	}
	// No unique column: no key is claimed.
	if tb, _ := get[catalog.TableDoc](t, h.cat, catalog.KindTable, "dupkey"); len(tb.PrimaryKey) != 0 {
		t.Fatalf("dupkey got a key: %v", tb.PrimaryKey)
	}
	// A bridge without a declared key: its two references together.
	tb, te = get[catalog.TableDoc](t, h.cat, catalog.KindTable, "enrolment")
	if strings.Join(tb.PrimaryKey, ",") != "student_id,course_id" || tb.PrimaryKeySource != "inferred" ||
		!strings.Contains(strings.Join(te.Evidence, ";"), "20 rows, 20 and 20 non-NULL, 20 distinct pairs") {
		t.Fatalf("enrolment: key %v (%s) evidence %v", tb.PrimaryKey, tb.PrimaryKeySource, te.Evidence)
	}
	// A repeated pair: refuted, no key.
	if tb, _ := get[catalog.TableDoc](t, h.cat, catalog.KindTable, "visits"); len(tb.PrimaryKey) != 0 {
		t.Fatalf("visits got a key: %v", tb.PrimaryKey)
	}
	if d, _ := hyp("visits"); d.Status != "refuted" {
		t.Fatalf("visits hypothesis %+v", d)
	}
}

func TestKeyCandidatePrefersIDNames(t *testing.T) {
	// Exercised through the exported function with hand-made profiles.
	h := setup(t)
	tables, _ := h.src.Tables(context.Background())
	var nokey = tables[0]
	for _, tb := range tables {
		if tb.Name.Name == "nokey" {
			nokey = tb
		}
	}
	i64 := func(n int64) *int64 { return &n }
	f := func(v float64) *float64 { return &v }
	profiles := []catalog.ProfileDoc{
		{Table: "nokey", Column: "label", Rows: 20, DistinctCount: i64(20), NullFraction: f(0)},
		{Table: "nokey", Column: "code", Rows: 20, DistinctCount: i64(20), NullFraction: f(0)},
		{Table: "nokey", Column: "qty", Rows: 20, DistinctCount: i64(4), NullFraction: f(0)},
	}
	if c, ok := keys.KeyCandidate(nokey, profiles); !ok || c != "code" {
		t.Fatalf("candidate %q %v, want code (named like a key)", c, ok)
	}
	profiles[1].NullFraction = f(0.05)
	if c, ok := keys.KeyCandidate(nokey, profiles); !ok || c != "label" {
		t.Fatalf("candidate %q %v, want label once code has NULLs", c, ok)
	}
	profiles[0].Sampled = true
	if c, ok := keys.KeyCandidate(nokey, profiles); ok {
		t.Fatalf("a sampled profile proves no uniqueness, got %q", c)
	}
}

// The advice built on these figures is tested in experts/advice.
func TestCardinality(t *testing.T) {
	h := setup(t)
	xs := []experts.Expert{structural.New(), relations.New(), statistical.New(), query.New()}
	for i := 0; i < 6 && len(h.round(t, xs...)) > 0; i++ {
	}
	ctx := context.Background()
	es, err := h.cat.Kind(ctx, catalog.KindHypothesis, "")
	if err != nil {
		t.Fatal(err)
	}
	var card *catalog.Entry
	for i, e := range es {
		var d catalog.HypothesisDoc
		e.Decode(&d)
		if d.Subject == "cardinality of good(parent_id)->parent(id)" {
			card = &es[i]
		}
	}
	if card == nil {
		t.Fatal("no cardinality test of good(parent_id)->parent(id)")
	}
	var d struct {
		catalog.HypothesisDoc
		Expected         string   `json:"expected"`
		ConfidenceBefore *float64 `json:"confidence_before"`
	}
	card.Decode(&d)
	// good: 20 rows, parent 1+i%20 for i = 1..20: every parent once.
	if d.Status != "refuted" || !strings.Contains(strings.Join(card.Evidence, ";"), "20 parents, 20 with at least one of the 20 goods, 0 with none") ||
		d.Expected == "" || d.ConfidenceBefore == nil {
		t.Fatalf("good cardinality: %+v %q", d, card.Evidence)
	}
	ins, err := h.cat.Get(ctx, catalog.KindInsight, "relationship:child(parent_id)->parent(id)")
	if err != nil {
		t.Fatal(err)
	}
	var in catalog.InsightDoc
	ins.Decode(&in)
	// child: 38 references to parents 1..20 (i%20+1, minus NULLs and two orphans).
	if in.Kind != "relationship" || !strings.HasPrefix(in.Description, "A parent has many children (") {
		t.Errorf("relationship insight %+v", in)
	}
}
