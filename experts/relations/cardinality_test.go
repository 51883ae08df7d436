package relations_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/cardinality"
	"github.com/discover-db/discover/experts/query"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// TestCardinalityFromTheCheck: the inclusion check of an accepted
// reference counts the child's rows per value found in the parent, so the
// relations expert records the reference's cardinality from it, and the
// query expert plans no second statement over the same tables for it.
// The figures must be the ones the query expert's own measure gives:
// parents without children, orphans (kept out of the counts), NULLs, one
// parent with many children, and a composite reference.
func TestCardinalityFromTheCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "card.db")
	stmts := []string{
		`CREATE TABLE member (id INTEGER PRIMARY KEY, joined TEXT)`,
		`CREATE TABLE booking (id INTEGER PRIMARY KEY, member_id INTEGER, seats INTEGER)`,
		`CREATE TABLE fare (route_id INTEGER NOT NULL, class_code INTEGER NOT NULL, price REAL, PRIMARY KEY (route_id, class_code))`,
		`CREATE TABLE ticket (id INTEGER PRIMARY KEY, route_id INTEGER, class_code INTEGER)`,
	}
	for i := 1; i <= 150; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO member VALUES (%d, '2026-02-%02d')`, i, 1+i%28))
	}
	for i := 1; i <= 900; i++ {
		var m string
		switch {
		case i%50 == 0:
			m = "NULL"
		case i%97 == 0:
			m = fmt.Sprint(1000 + i) // an orphan
		case i%3 == 0:
			m = "7" // member 7 books often
		default:
			m = fmt.Sprint(1 + (i*11)%120) // members 121..150 book nothing
		}
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO booking VALUES (%d, %s, %d)`, i, m, 1+i%4))
	}
	for r := 1; r <= 40; r++ {
		for c := 1; c <= 3; c++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO fare VALUES (%d, %d, %d.5)`, r, c, r*c))
		}
	}
	for i := 1; i <= 700; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO ticket VALUES (%d, %d, %d)`, i, 1+(i*7)%35, 1+i%3))
	}
	expertstest.SQLite(t, path, stmts...)
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cat := expertstest.Catalog(t)
	tables := expertstest.Tables(t, src)
	var q atomic.Int64
	opts := experts.Options{SampleRows: 1_000_000, IgnoreDeclaredFKs: true}
	for it := 1; it <= 3; it++ {
		expertstest.RunTasks(t, ctx, experts.NewEnv(src, cat, "r", it, 1, tables, opts, &q), structural.New(), statistical.New())
	}
	env := experts.NewEnv(src, cat, "r", 4, 1, tables, opts, &q)
	expertstest.RunTasks(t, ctx, env, relations.New())
	rels, err := cat.List(ctx, catalog.Filter{Kind: catalog.KindRelationship, RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range rels {
		keys = append(keys, e.Key)
	}
	slices.Sort(keys)
	if want := "booking(member_id)->member(id) ticket(route_id,class_code)->fare(route_id,class_code)"; strings.Join(keys, " ") != want {
		t.Fatalf("relationships %q, want %s", keys, want)
	}
	byName := map[string]experts.Scope{}
	for _, tb := range tables {
		s, err := env.Scope(ctx, tb)
		if err != nil {
			t.Fatal(err)
		}
		byName[tb.Name.String()] = s
	}
	for _, e := range rels {
		var r catalog.RelationshipDoc
		if err := e.Decode(&r); err != nil {
			t.Fatal(err)
		}
		got, err := cat.Get(ctx, catalog.KindHypothesis, cardinality.ID(e.Key))
		if err != nil {
			t.Fatalf("%s: no cardinality recorded: %v", e.Key, err)
		}
		if got.Expert != relations.Name {
			t.Errorf("%s: cardinality recorded by %s, want %s", e.Key, got.Expert, relations.Name)
		}
		// What the query expert's own statement measures.
		h, ok := cardinality.Hypothesis(env.Dialect(), r, byName[r.FromTable], byName[r.ToTable])
		if !ok {
			t.Fatalf("%s: no cardinality test", e.Key)
		}
		own, err := hypotheses.Test(ctx, env, h)
		if err != nil {
			t.Fatal(err)
		}
		var doc catalog.HypothesisDoc
		if err := got.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		if doc.Status != own.Doc.Status || doc.Status != hypotheses.Confirmed {
			t.Errorf("%s: status %s, the query expert's measure says %s (want confirmed)", e.Key, doc.Status, own.Doc.Status)
		}
		figures := slices.DeleteFunc(slices.Clone(got.Evidence), func(s string) bool { return strings.HasPrefix(s, "measured by the inclusion check") })
		if strings.Join(figures, "; ") != strings.Join(own.Verdict.Evidence, "; ") {
			t.Errorf("%s: figures\n%q\nthe query expert's measure\n%q", e.Key, figures, own.Verdict.Evidence)
		}
		ins, err := cat.Get(ctx, catalog.KindInsight, "relationship:"+e.Key)
		if err != nil {
			t.Fatalf("%s: no sentence: %v", e.Key, err)
		}
		var id catalog.InsightDoc
		if err := ins.Decode(&id); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s (%s)", e.Key, id.Description, strings.Join(got.Evidence, "; "))
	}
	// member 7's bookings: the 300 rows of every third but the 6 NULL and
	// the 3 orphaned. The other rows reach the 80 members of 1..120 whose
	// id is not 1 more than a multiple of 3: 69 of 150 have none.
	if ins, err := cat.Get(ctx, catalog.KindInsight, "relationship:booking(member_id)->member(id)"); err != nil {
		t.Fatal(err)
	} else if doc := string(ins.Document); !strings.Contains(doc, "at most 291") || !strings.Contains(doc, "46% of members have none") {
		t.Errorf("booking's sentence: %s", doc)
	}
	tasks, err := query.New().Plan(ctx, env.For(query.Name))
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range tasks {
		if strings.HasPrefix(tk.Name, "measure ") || strings.HasPrefix(tk.Name, "test ") {
			t.Errorf("the query expert plans %q: the relations expert has tested and measured it", tk.Name)
		}
	}
}
