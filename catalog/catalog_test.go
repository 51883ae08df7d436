package catalog

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/heavy"
)

func openTest(t *testing.T) (*Catalog, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "catalog.db")
	c, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, path
}

func mustSave(t *testing.T, c *Catalog, e Entry) {
	t.Helper()
	if err := c.Save(context.Background(), e); err != nil {
		t.Fatal(err)
	}
}

func keys(es []Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Kind+"/"+e.Key)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	// Whitespace and key order must survive: callers compare bytes.
	doc := json.RawMessage("{\"z\": 1,  \"a\": [1, 2],\n \"html\": \"<b>&</b>\", \"u\": \"\\u00e9\"}")
	at := time.Date(2024, 3, 1, 12, 30, 45, 123456789, time.FixedZone("X", 3600))
	in := Entry{
		ID:         999, // ignored
		Kind:       KindProfile,
		Key:        "orders.customer_id",
		Document:   doc,
		Tags:       []string{"fk", "id"},
		Expert:     "statistical",
		Confidence: 0.75,
		Evidence:   []string{"SELECT count(*) FROM orders", "12 nulls"},
		RunID:      "run-1",
		Iteration:  3,
		CreatedAt:  at,
	}
	mustSave(t, c, in)
	got, err := c.Get(ctx, in.Kind, in.Key)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID <= 0 {
		t.Errorf("ID = %d", got.ID)
	}
	if !bytes.Equal(got.Document, doc) {
		t.Errorf("document = %s, want %s", got.Document, doc)
	}
	if !got.CreatedAt.Equal(at) || got.CreatedAt.Location() != time.UTC {
		t.Errorf("created_at = %v, want %v in UTC", got.CreatedAt, at)
	}
	want := in
	want.ID, want.Document, want.CreatedAt = got.ID, got.Document, got.CreatedAt
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}

	// Nil slices and zero time.
	before := time.Now()
	mustSave(t, c, Entry{Kind: KindTable, Key: "orders", Document: json.RawMessage(`{}`)})
	got, err = c.Get(ctx, KindTable, "orders")
	if err != nil {
		t.Fatal(err)
	}
	if got.Tags == nil || len(got.Tags) != 0 || got.Evidence == nil || len(got.Evidence) != 0 {
		t.Errorf("tags %#v evidence %#v, want empty non-nil", got.Tags, got.Evidence)
	}
	if got.CreatedAt.Before(before.Add(-time.Second)) || got.CreatedAt.After(time.Now().Add(time.Second)) {
		t.Errorf("created_at = %v, want about now", got.CreatedAt)
	}

	_, err = c.Get(ctx, KindTable, "nope")
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("Get absent: %v, want ErrNotFound", err)
	}
}

func TestUpsertReplaces(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	mustSave(t, c, Entry{Kind: KindTable, Key: "t", Document: json.RawMessage(`{"v":1}`), Tags: []string{"old"}, Confidence: 0.1, RunID: "r1"})
	first, _ := c.Get(ctx, KindTable, "t")
	mustSave(t, c, Entry{Kind: KindTable, Key: "t", Document: json.RawMessage(`{"v":2}`), Confidence: 0.9, RunID: "r2", Iteration: 2})
	got, err := c.Get(ctx, KindTable, "t")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != first.ID {
		t.Errorf("id changed %d -> %d", first.ID, got.ID)
	}
	if string(got.Document) != `{"v":2}` || got.Confidence != 0.9 || got.RunID != "r2" || got.Iteration != 2 || len(got.Tags) != 0 {
		t.Errorf("not replaced: %+v", got)
	}
	all, _ := c.List(ctx, Filter{})
	if len(all) != 1 {
		t.Errorf("%d rows, want 1", len(all))
	}
	// The FTS index follows the update: the old tag is gone.
	if es, _ := c.Search(ctx, "old", 0); len(es) != 0 {
		t.Errorf("search old tag found %v", keys(es))
	}
	if es, _ := c.Search(ctx, "v", 0); len(es) != 1 {
		t.Errorf("search v found %v", keys(es))
	}
}

// SaveChanged writes only what differs from the same run's entry: the same
// document, confidence and evidence of the same run leaves the row as it
// was (its iteration and expert too); any of the four differing replaces it.
func TestSaveChanged(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	base := Entry{Kind: KindTable, Key: "t", Document: json.RawMessage(`{"v":1}`), Confidence: 0.5,
		Evidence: []string{"a"}, RunID: "r1", Expert: "x", Iteration: 1}
	save := func(e Entry) bool {
		t.Helper()
		changed, err := c.SaveChanged(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		return changed
	}
	if !save(base) {
		t.Fatal("a new entry: changed = false")
	}
	same := base
	same.Iteration, same.Expert = 2, "y"
	if save(same) {
		t.Error("the same findings again: changed = true")
	}
	if got, _ := c.Get(ctx, KindTable, "t"); got.Iteration != 1 || got.Expert != "x" {
		t.Errorf("an unchanged save rewrote the row: iteration %d, expert %q", got.Iteration, got.Expert)
	}
	for _, d := range []struct {
		what string
		edit func(*Entry)
	}{
		{"document", func(e *Entry) { e.Document = json.RawMessage(`{"v":2}`) }},
		{"confidence", func(e *Entry) { e.Confidence = 0.6 }},
		{"evidence", func(e *Entry) { e.Evidence = []string{"a", "b"} }},
		{"run", func(e *Entry) { e.RunID = "r2" }},
	} {
		e, err := c.Get(ctx, KindTable, "t")
		if err != nil {
			t.Fatal(err)
		}
		e.Iteration = 7
		d.edit(&e)
		if !save(e) {
			t.Errorf("another %s: changed = false", d.what)
		}
		if got, _ := c.Get(ctx, KindTable, "t"); got.Iteration != 7 {
			t.Errorf("another %s: iteration %d, want 7 (not written)", d.what, got.Iteration)
		}
	}
	if _, err := c.SaveChanged(ctx, Entry{Kind: KindTable, Key: "bad", Document: json.RawMessage(`{`)}); err == nil {
		t.Error("invalid JSON saved")
	}
}

// Briefs reads in SQL what Entry.Brief decodes in Go, for the entries
// List gives under the same filter.
func TestBriefs(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	mustSave(t, c, Entry{Kind: KindHypothesis, Key: "h1", Document: json.RawMessage(`{"status":"confirmed","subject":"a(x)->b(y)","statement":"s"}`), Confidence: 0.8, RunID: "r1", Expert: "rules"})
	mustSave(t, c, Entry{Kind: KindHypothesis, Key: "h2", Document: json.RawMessage(`{"status":"proposed"}`), Confidence: 0.3, RunID: "r1", Expert: "query"})
	mustSave(t, c, Entry{Kind: KindTable, Key: "t", Document: json.RawMessage(`{"status":"not a hypothesis","subject":"x"}`), Confidence: 1, RunID: "r1", Expert: "structural"})
	mustSave(t, c, Entry{Kind: KindTable, Key: "u", Document: json.RawMessage(`{}`), Confidence: 1, RunID: "r2", Expert: "structural"})
	got, err := c.Briefs(ctx, Filter{RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Brief{
		{Kind: KindHypothesis, Key: "h1", Expert: "rules", Confidence: 0.8, Status: "confirmed", Subject: "a(x)->b(y)"},
		{Kind: KindHypothesis, Key: "h2", Expert: "query", Confidence: 0.3, Status: "proposed"},
		{Kind: KindTable, Key: "t", Expert: "structural", Confidence: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Briefs = %+v\nwant %+v", got, want)
	}
	es, err := c.List(ctx, Filter{RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range es {
		if b := e.Brief(); i >= len(got) || b != got[i] {
			t.Errorf("Entry.Brief() = %+v, Briefs gave %+v", b, got)
		}
	}
}

func TestSaveRejects(t *testing.T) {
	c, _ := openTest(t)
	doc := json.RawMessage(`{}`)
	for name, e := range map[string]Entry{
		"empty kind":     {Key: "k", Document: doc},
		"empty key":      {Kind: "k", Document: doc},
		"confidence >1":  {Kind: "k", Key: "k", Document: doc, Confidence: 1.5},
		"confidence <0":  {Kind: "k", Key: "k", Document: doc, Confidence: -0.1},
		"confidence NaN": {Kind: "k", Key: "k", Document: doc, Confidence: math.NaN()},
		"nil document":   {Kind: "k", Key: "k"},
		"bad JSON":       {Kind: "k", Key: "k", Document: json.RawMessage(`{`)},
	} {
		err := c.Save(context.Background(), e)
		if err == nil || !strings.HasPrefix(err.Error(), "catalog: save ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	for _, conf := range []float64{0, 1} {
		mustSave(t, c, Entry{Kind: "k", Key: "k", Document: doc, Confidence: conf})
	}
}

func TestKindListLookup(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	doc := json.RawMessage(`{}`)
	for _, e := range []Entry{
		{Kind: KindProfile, Key: "orders.id", Expert: "statistical", RunID: "r1"},
		{Kind: KindProfile, Key: "orders.customer_id", Expert: "statistical", RunID: "r2"},
		{Kind: KindProfile, Key: "order_items.qty", Expert: "statistical", RunID: "r1"},
		{Kind: KindProfile, Key: "orders%x", Expert: "statistical", RunID: "r1"},
		{Kind: KindSemantic, Key: "orders.id", Expert: "semantic", RunID: "r1"},
		{Kind: KindTable, Key: "orders", Expert: "structural", RunID: "r1"},
		{Kind: KindTable, Key: "Orders", Expert: "structural", RunID: "r1"},
	} {
		e.Document = doc
		mustSave(t, c, e)
	}
	check := func(name string, es []Entry, err error, want ...string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := keys(es); !reflect.DeepEqual(got, append([]string{}, want...)) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	es, err := c.Kind(ctx, KindProfile, "orders.")
	check("Kind orders.", es, err, "profile/orders.customer_id", "profile/orders.id")
	es, err = c.Kind(ctx, KindProfile, "order_")
	check("Kind order_ (literal underscore)", es, err, "profile/order_items.qty")
	es, err = c.Kind(ctx, KindProfile, "orders%")
	check("Kind orders% (literal percent)", es, err, "profile/orders%x")
	es, err = c.Kind(ctx, KindTable, "o")
	check("Kind case-sensitive", es, err, "table/orders")
	es, err = c.Kind(ctx, KindEntity, "")
	check("Kind none", es, err)
	if es == nil {
		t.Error("Kind none returned nil slice")
	}
	es, err = c.List(ctx, Filter{RunID: "r1", KeyPrefix: "orders"})
	check("List r1 orders", es, err, "profile/orders%x", "profile/orders.id", "semantic/orders.id", "table/orders")
	es, err = c.List(ctx, Filter{Expert: "structural"})
	check("List structural", es, err, "table/Orders", "table/orders")
	es, err = c.Lookup(ctx, "orders.id")
	check("Lookup", es, err, "profile/orders.id", "semantic/orders.id")
}

func TestSearch(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	for _, e := range []Entry{
		{Kind: KindTable, Key: "customers", Document: json.RawMessage(`{"name":"customers"}`), Tags: []string{"dimension"}},
		{Kind: KindProfile, Key: "orders.customer_id", Document: json.RawMessage(`{"table":"orders","column":"customer_id"}`), Tags: []string{"fk"}},
		{Kind: KindInsight, Key: "i1", Document: json.RawMessage(`{"description":"Revenue is seasonal, peaking in décembre"}`)},
		{Kind: KindSemantic, Key: "users.email", Document: json.RawMessage(`{"semantic_type":"e-mail"}`)},
	} {
		mustSave(t, c, e)
	}
	find := func(q string) []string {
		t.Helper()
		es, err := c.Search(ctx, q, 10)
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		if es == nil {
			t.Fatalf("Search(%q) returned nil", q)
		}
		return keys(es)
	}
	for q, want := range map[string]string{
		"customers":          "table/customers",
		"dimension":          "table/customers",
		"seasonal":           "insight/i1",
		"SEASON":             "insight/i1",
		"decembre":           "insight/i1",
		"orders.customer_id": "profile/orders.customer_id",
		"e-mail":             "semantic/users.email",
		"revenue peaking":    "insight/i1",
	} {
		got := find(q)
		if len(got) != 1 || got[0] != want {
			t.Errorf("Search(%q) = %v, want [%s]", q, got, want)
		}
	}
	// Prefix: "cust" reaches both; the key hit ranks first.
	if got := find("cust"); len(got) != 2 || got[0] != "table/customers" {
		t.Errorf("Search(cust) = %v", got)
	}
	if got, _ := c.Search(ctx, "cust", 1); len(got) != 1 {
		t.Errorf("limit 1 gave %d", len(got))
	}
	for _, q := range []string{`"`, `""`, `AND OR`, `NOT`, `*`, `orders.customer_id"`, ``, `   `, `(`, `a:b`,
		`NEAR(a b)`, `^x`, `-`, `"unterminated`, `customers AND`, `{key}: x`, "\x00", `' OR 1=1 --`} {
		if _, err := c.Search(ctx, q, 5); err != nil {
			t.Errorf("Search(%q): %v", q, err)
		}
	}
	if got := find("nothingmatchesthis"); len(got) != 0 {
		t.Errorf("no match gave %v", got)
	}
}

func TestConcurrentSaves(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	const workers, each = 8, 200
	var wg sync.WaitGroup
	errs := make(chan error, workers*2)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				key := fmt.Sprintf("w%d.k%03d", w, i)
				doc := json.RawMessage(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i))
				if err := c.Save(ctx, Entry{Kind: KindProfile, Key: key, Document: doc, Expert: fmt.Sprint(w), Confidence: 0.5}); err != nil {
					errs <- err
					return
				}
				// Readers run alongside the writers and must not be blocked either.
				if i%20 == 0 {
					if _, err := c.Get(ctx, KindProfile, key); err != nil {
						errs <- err
						return
					}
					if _, err := c.Search(ctx, key, 5); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	all, err := c.List(ctx, Filter{Kind: KindProfile})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != workers*each {
		t.Errorf("%d rows, want %d", len(all), workers*each)
	}
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	c, path := openTest(t)
	mustSave(t, c, Entry{Kind: "k", Key: "k", Document: json.RawMessage(`1`)})
	versions := func(db *sql.DB) []int {
		t.Helper()
		rows, err := db.Query(`SELECT version FROM schema_version ORDER BY version`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var vs []int
		for rows.Next() {
			var v int
			rows.Scan(&v)
			vs = append(vs, v)
		}
		return vs
	}
	want := []int{}
	for v := 1; v <= SchemaVersion(); v++ {
		want = append(want, v)
	}
	if SchemaVersion() < 1 {
		t.Fatal("no migrations embedded")
	}
	if got := versions(c.reader); !reflect.DeepEqual(got, want) {
		t.Errorf("versions %v, want %v", got, want)
	}
	var mode string
	c.reader.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal_mode = %s", mode)
	}
	c.Close()

	for range 2 {
		c2, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if got := versions(c2.reader); !reflect.DeepEqual(got, want) {
			t.Errorf("after reopen versions %v, want %v", got, want)
		}
		if _, err := c2.Get(ctx, "k", "k"); err != nil {
			t.Error(err)
		}
		c2.Close()
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	c, path := openTest(t)
	next := SchemaVersion() + 1
	if _, err := c.writer.Exec(`INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'future.sql', '')`, next); err != nil {
		t.Fatal(err)
	}
	c.Close()
	_, err := Open(ctx, path)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("Open newer catalog: %v", err)
	}
	t.Log(err)
}

func TestOpenNotADatabase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	text := strings.Repeat("this is a text file, not a database\n", 200)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path)
	if err == nil || !strings.Contains(err.Error(), "not a SQLite") {
		t.Fatalf("Open text file: %v", err)
	}
	t.Log(err)
	if b, _ := os.ReadFile(path); string(b) != text {
		t.Error("text file was modified")
	}
	// Someone else's SQLite database is left alone.
	other := filepath.Join(dir, "warehouse.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err = Open(context.Background(), other); err == nil || !strings.Contains(err.Error(), "not a discover catalog") {
		t.Errorf("Open foreign database: %v", err)
	}
	db, _ = sql.Open("sqlite", other)
	var mode string
	db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	db.Close()
	if mode != "delete" {
		t.Errorf("foreign database journal_mode changed to %s", mode)
	}
	if _, err := Open(context.Background(), dir); err == nil {
		t.Error("Open directory succeeded")
	}
	if _, err := Open(context.Background(), filepath.Join(dir, "missing", "c.db")); err == nil {
		t.Error("Open in missing directory succeeded")
	}
	// Characters with a meaning in SQLite URIs are plain in a path.
	odd := filepath.Join(dir, "a?b#c%20d.db")
	c, err := Open(context.Background(), odd)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if _, err := os.Stat(odd); err != nil {
		t.Error(err)
	}
}

func TestRuns(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	if _, err := c.LatestRun(ctx, false); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestRun on empty: %v", err)
	}
	t0 := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	r1 := Run{ID: "r1", DSN: "postgres://u@h/db", Dialect: "postgres", Database: "db", StartedAt: t0,
		Options: json.RawMessage(`{"max_iterations": 5}`)}
	if err := c.StartRun(ctx, r1); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetRun(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r1) {
		t.Errorf("got  %+v\nwant %+v", got, r1)
	}
	if got.FinishedAt != nil || got.State != nil {
		t.Errorf("FinishedAt %v State %s, want nil", got.FinishedAt, got.State)
	}
	if err := c.StartRun(ctx, r1); err == nil {
		t.Error("duplicate run id accepted")
	}

	// r2 starts half a second later: a fixed-width time sorts it after r1.
	r2 := Run{ID: "r2", StartedAt: t0.Add(500 * time.Millisecond)}
	if err := c.StartRun(ctx, r2); err != nil {
		t.Fatal(err)
	}
	if r, _ := c.LatestRun(ctx, false); r.ID != "r2" {
		t.Errorf("LatestRun = %s, want r2", r.ID)
	}
	fin := t0.Add(time.Hour)
	r2.FinishedAt, r2.StopReason, r2.State = &fin, "confidence", json.RawMessage(`{"iteration": 4}`)
	if err := c.UpdateRun(ctx, r2); err != nil {
		t.Fatal(err)
	}
	got, _ = c.GetRun(ctx, "r2")
	if got.FinishedAt == nil || !got.FinishedAt.Equal(fin) || got.StopReason != "confidence" || string(got.State) != `{"iteration": 4}` {
		t.Errorf("after update %+v", got)
	}
	if r, _ := c.LatestRun(ctx, false); r.ID != "r2" {
		t.Errorf("LatestRun = %s, want r2", r.ID)
	}
	if r, _ := c.LatestRun(ctx, true); r.ID != "r1" {
		t.Errorf("LatestRun unfinished = %s, want r1", r.ID)
	}
	if _, err := c.GetRun(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetRun absent: %v", err)
	}
	if err := c.UpdateRun(ctx, Run{ID: "nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("UpdateRun absent: %v", err)
	}
	if err := c.StartRun(ctx, Run{}); err == nil {
		t.Error("empty run id accepted")
	}
	if err := c.StartRun(ctx, Run{ID: "r3", State: json.RawMessage(`{`)}); err == nil {
		t.Error("invalid state JSON accepted")
	}
}

func TestExport(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	mustSave(t, c, Entry{Kind: KindTable, Key: "b", Document: json.RawMessage("{\"x\":\n \"<&>\"}"), RunID: "r1"})
	mustSave(t, c, Entry{Kind: KindTable, Key: "a", Document: json.RawMessage(`[1]`), RunID: "r2"})
	mustSave(t, c, Entry{Kind: KindDomain, Key: "domain", Document: json.RawMessage(`{"label":"retail"}`), RunID: "r1"})
	var buf bytes.Buffer
	if err := c.Export(ctx, &buf, ""); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), buf.String())
	}
	var got []string
	for _, l := range lines {
		var e Entry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		got = append(got, e.Kind+"/"+e.Key)
	}
	if want := []string{"domain/domain", "table/a", "table/b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if !strings.Contains(lines[2], `"document":{"x":"<&>"}`) || !strings.Contains(lines[2], `"tags":[]`) {
		t.Errorf("line: %s", lines[2])
	}
	buf.Reset()
	if err := c.Export(ctx, &buf, "r1"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Errorf("run r1 exported %d lines", n)
	}
}

const helperEnv = "DISCOVER_CATALOG_HELPER_PATH"

// TestHelperWriter is the child process of TestKillDurability, not a test.
func TestHelperWriter(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("helper process for TestKillDurability")
	}
	ctx := context.Background()
	c, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for i := range 100000 {
		key := fmt.Sprintf("k%06d", i)
		doc := json.RawMessage(fmt.Sprintf(`{"i":%d,"pad":%q}`, i, strings.Repeat("x", 500)))
		if err := c.Save(ctx, Entry{Kind: KindProfile, Key: key, Document: doc, Tags: []string{"t"}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		// Printed only after Save returned: the parent may hold us to it.
		fmt.Println(key)
	}
	// Wait for the kill; stdin closes if the parent dies first.
	bufio.NewReader(os.Stdin).ReadByte()
	os.Exit(0)
}

func TestKillDurability(t *testing.T) {
	if heavy.Short() {
		t.Skip("spawns a child process")
	}
	path := filepath.Join(t.TempDir(), "catalog.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	// Kill while the child is still writing, mid-save more often than not.
	const k = 300
	var printed []string
	sc := bufio.NewScanner(out)
	for len(printed) < k && sc.Scan() {
		printed = append(printed, sc.Text())
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if len(printed) < k {
		t.Fatalf("child printed %d keys before exiting, want %d", len(printed), k)
	}

	ctx := context.Background()
	c, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var check string
	if err := c.reader.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	// The FTS index must agree with its content table after recovery.
	if _, err := c.writer.Exec(`INSERT INTO entries_fts (entries_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Fatalf("fts integrity-check: %v", err)
	}
	for _, key := range printed {
		if _, err := c.Get(ctx, KindProfile, key); err != nil {
			t.Fatalf("printed %s but after kill: %v", key, err)
		}
	}
	all, _ := c.List(ctx, Filter{})
	t.Logf("printed %d, stored %d", len(printed), len(all))
}

func TestDelete(t *testing.T) {
	ctx := context.Background()
	c, err := Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	e := Entry{Kind: KindUncertainty, Key: "u1", Document: []byte(`{"description":"unsettled zebra"}`), Confidence: 1}
	if err := c.Save(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, KindUncertainty, "u1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, KindUncertainty, "u1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted entry still there: %v", err)
	}
	if es, err := c.Search(ctx, "zebra", 10); err != nil || len(es) != 0 {
		t.Fatalf("deleted entry still searchable: %v %v", es, err)
	}
	if err := c.Delete(ctx, KindUncertainty, "u1"); err != nil {
		t.Fatalf("deleting again: %v", err)
	}
}

func TestPrefixEnd(t *testing.T) {
	for _, c := range []struct {
		p, want string
		ok      bool
	}{
		{"orders.", "orders/", true},
		{"a\xff", "b", true},
		{"é", "\xc3\xaa", true},
		{"\xff\xff", "", false},
	} {
		got, ok := prefixEnd(c.p)
		if got != c.want || ok != c.ok {
			t.Errorf("prefixEnd(%q) = %q, %v; want %q, %v", c.p, got, ok, c.want, c.ok)
		}
	}
}

// A key prefix is searched in the (kind, key) index, not compared with
// every entry of the kind: rules list one table's profiles per table.
func TestKeyPrefixSearchesTheIndex(t *testing.T) {
	c, _ := openTest(t)
	where, args := Filter{Kind: KindProfile, RunID: "r1", KeyPrefix: "orders."}.where()
	rows, err := c.reader.Query(`EXPLAIN QUERY PLAN SELECT e.key FROM entries e WHERE `+where, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	joined := strings.Join(plan, "; ")
	if !strings.Contains(joined, "key>?") {
		t.Errorf("plan %q searches no key range", joined)
	}
}

// SaveAllChanged writes several entries in one transaction: what changed
// is written and said so, an invalid entry writes none of them.
func TestSaveAllChanged(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	doc := json.RawMessage(`{"v":1}`)
	mustSave(t, c, Entry{Kind: KindProfile, Key: "t.a", Document: doc, Confidence: 0.5, RunID: "r1"})
	changed, err := c.SaveAllChanged(ctx, []Entry{
		{Kind: KindProfile, Key: "t.a", Document: doc, Confidence: 0.5, RunID: "r1"}, // as saved
		{Kind: KindProfile, Key: "t.b", Document: doc, Confidence: 0.5, RunID: "r1"},
		{Kind: KindProfile, Key: "t.a", Document: json.RawMessage(`{"v":2}`), Confidence: 0.5, RunID: "r1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(changed, []bool{false, true, true}) {
		t.Errorf("changed = %v, want [false true true]", changed)
	}
	if got, _ := c.Get(ctx, KindProfile, "t.a"); string(got.Document) != `{"v":2}` {
		t.Errorf("t.a = %s, want the batch's last document", got.Document)
	}
	_, err = c.SaveAllChanged(ctx, []Entry{
		{Kind: KindProfile, Key: "t.c", Document: doc, RunID: "r1"},
		{Kind: KindProfile, Key: "t.d", Document: json.RawMessage(`{`), RunID: "r1"},
	})
	if err == nil {
		t.Fatal("a batch with invalid JSON saved")
	}
	if _, err := c.Get(ctx, KindProfile, "t.c"); !errors.Is(err, ErrNotFound) {
		t.Errorf("t.c of the refused batch: %v, want ErrNotFound", err)
	}
	if es, _ := c.List(ctx, Filter{Kind: KindProfile}); len(es) != 2 {
		t.Errorf("%d profiles, want 2 (t.a, t.b)", len(es))
	}
}
