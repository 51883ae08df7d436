package relations_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/querycache"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// TestStreamedFiguresKept: the figures of streamed reads (sketches, the
// checks' counts) are kept with the statements they stand for, so that a
// run over tables that did not change reads nothing, and a run after one
// parent changed reads only the child columns that reference it, not the
// child table's other key columns; the relationships and ledger entries
// are those of the first run, evidence and all.
func TestStreamedFiguresKept(t *testing.T) {
	defer relations.SetStreamCheckMinRows(0)()
	path := t.TempDir() + "/clinic.db"
	expertstest.SQLite(t, path, append(append([]string{}, clinicParents...),
		`CREATE TABLE visit (id INTEGER PRIMARY KEY, patient_id INTEGER, clinic_id INTEGER, doctor_id INTEGER, amount REAL)`,
		`INSERT INTO visit WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 30000)
			SELECT i, CASE WHEN i % 4999 = 0 THEN 9001 ELSE 1 + (i * 7) % 5000 END, 1 + (i * 13) % 40, 1 + (i * 11) % 300, (i % 90) + 0.5 FROM r`,
		`CREATE TABLE invoice (id INTEGER PRIMARY KEY, patient_id INTEGER, clinic_id INTEGER, total REAL)`,
		`INSERT INTO invoice WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 20000)
			SELECT i, 1 + (i * 3) % 5000, 1 + (i * 17) % 40, i % 700 FROM r`,
	)...)
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat := expertstest.Catalog(t)
	tables := expertstest.Tables(t, src)
	// run infers in run id with the kept results of earlier runs, the
	// tables' signals being those given (patient's may differ), and
	// returns its relationships and ledger entries and the columns its
	// streamed reads read.
	run := func(id, patientSignal string) (map[string]catalog.Entry, int64) {
		t.Helper()
		basis := &catalog.RunBasis{Tables: map[string]string{}}
		for _, tb := range tables {
			basis.Tables[tb.Name.String()] = "same"
		}
		basis.Tables["patient"] = patientSignal
		cache := querycache.New(cat, id, src.Dialect().Grammar(), path, basis, true)
		var q atomic.Int64
		relations.StreamedColumns()
		for it := 1; it <= 4; it++ {
			env := experts.NewEnv(src, cat, id, it, 1, tables, experts.Options{SampleRows: 1_000_000, IgnoreDeclaredFKs: true, Parallel: 2}, &q).WithCache(cache)
			expertstest.RunTasks(t, ctx, env, structural.New(), relations.New(), statistical.New())
		}
		read := relations.StreamedColumns()
		out := map[string]catalog.Entry{}
		for _, kind := range []string{catalog.KindRelationship, catalog.KindHypothesis} {
			es, err := cat.List(ctx, catalog.Filter{Kind: kind, RunID: id, Expert: relations.Name})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				out[kind+" "+e.Key] = e
			}
		}
		return out, read
	}
	same := func(what string, a, b map[string]catalog.Entry) {
		t.Helper()
		for k, x := range a {
			y, ok := b[k]
			if !ok || x.Confidence != y.Confidence || string(x.Document) != string(y.Document) || strings.Join(x.Evidence, "\n") != strings.Join(y.Evidence, "\n") {
				t.Errorf("%s: %s differs:\n%.3f %s %q\n%.3f %s %q", what, k, x.Confidence, x.Document, x.Evidence, y.Confidence, y.Document, y.Evidence)
			}
		}
		if len(a) != len(b) {
			t.Errorf("%s: %d entries, the first run %d", what, len(b), len(a))
		}
	}

	first, read1 := run("r1", "p1")
	for _, k := range []string{"visit(patient_id)->patient(id)", "visit(clinic_id)->clinic(id)", "visit(doctor_id)->doctor(id)",
		"invoice(patient_id)->patient(id)", "invoice(clinic_id)->clinic(id)"} {
		e, ok := first[catalog.KindRelationship+" "+k]
		if !ok {
			t.Fatalf("first run: %s not inferred", k)
		}
		if !strings.Contains(strings.Join(e.Evidence, "\n"), "figures counted from one read of") {
			t.Fatalf("first run: %s was not checked from streamed reads: %q", k, e.Evidence)
		}
	}
	if read1 < 5 {
		t.Fatalf("first run: %d columns streamed", read1)
	}
	again, read2 := run("r2", "p1")
	same("nothing changed", first, again)
	if read2 != 0 {
		t.Errorf("nothing changed: %d columns streamed, want none", read2)
	}
	// patient "changed": its key is read again, and of each child table
	// the column that references it, with no other key column.
	changed, read3 := run("r3", "p2")
	same("patient changed", first, changed)
	if read3 < 2 || read3 > 3 {
		t.Errorf("patient changed: %d columns streamed, want visit's and invoice's patient_id (and patient's id)", read3)
	}
	t.Logf("columns streamed: %d, then %d, then %d", read1, read2, read3)
}
