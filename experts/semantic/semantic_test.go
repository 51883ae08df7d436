package semantic_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/semantic"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/warehouse/sqlite"

	_ "modernc.org/sqlite"
)

// fixture holds a column of every semantic type the expert knows.
func fixture(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := []string{
		`CREATE TABLE customers (
			id INTEGER PRIMARY KEY, first_name TEXT, LastName TEXT, email TEXT, backup_email TEXT,
			homepage TEXT, phone TEXT, country TEXT, signup_date TEXT, last_login TEXT, is_active INTEGER,
			external_ref TEXT, prefs TEXT, bio TEXT, tier TEXT, note TEXT, zip TEXT, balance REAL,
			avatar BLOB, mystery TEXT)`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, amount REAL, status TEXT,
			created_at TEXT, currency TEXT)`,
		`CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL)`,
		`CREATE TABLE order_items (order_id INTEGER REFERENCES orders(id), product_id INTEGER,
			quantity INTEGER, PRIMARY KEY (order_id, product_id))`,
		`CREATE TABLE categories (id INTEGER PRIMARY KEY, title TEXT)`,
		`CREATE TABLE people (person_id INTEGER PRIMARY KEY, name TEXT)`,
	}
	firsts := []string{"Ann", "Bob", "Chloé", "Dmitri", "Eve", "Farid", "Grace", "Hiro"}
	lasts := []string{"Smith", "O'Neil", "García", "Nakamura", "Okafor", "Müller-Lüdenscheidt", "Lee"}
	countries := []string{"Brazil", "Germany", "United States", "Japan", "Canada"}
	tiers := []string{"gold", "silver", "bronze"}
	words := []string{"alpha", "beta", "gamma", "delta"}
	for i := 1; i <= 60; i++ {
		note := "NULL"
		if i%5 == 0 {
			note = "'call back'"
		}
		bio := fmt.Sprintf("Customer number %d has been with us for a long while and likes long walks and jazz.", i)
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO customers VALUES (%d, '%s', '%s', 'user%d@example.com', '%s %d',
			'https://example.com/u/%d', '+1 (555) 010-%04d', '%s', '2023-%02d-%02d', '2024-01-%02d %02d:%02d:00', %d,
			'%08x-0000-4000-8000-%012x', '{"theme":"dark","n":%d}', '%s', '%s', %s, '%05d', %d.0, x'00ff', '%s')`,
			i, firsts[i%len(firsts)], strings.ReplaceAll(lasts[i%len(lasts)], "'", "''"), i, words[i%4], i,
			i, i, countries[i%len(countries)], i%12+1, i%28+1, i%28+1, i%24, i%60, i%2,
			i, i, i, bio, tiers[i%3], note, 10000+i*7, i*10, fmt.Sprintf("k%dz%d", i*37%101, i)))
	}
	statuses := []string{"new", "paid", "shipped", "void"}
	currencies := []string{"USD", "EUR", "GBP"}
	for i := 1; i <= 200; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO orders VALUES (%d, %d, %d.25, '%s', '2024-02-%02dT%02d:30:00Z', '%s')`,
			i, i%60+1, i, statuses[i%4], i%28+1, i%24, currencies[i%3]))
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO order_items VALUES (%d, %d, %d)`, i, i%15+1, i%4+1))
	}
	for i := 1; i <= 15; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO products VALUES (%d, 'Product %d', %d.99)`, i, i, i))
	}
	for i := 1; i <= 25; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO people VALUES (%d, '%s %s')`, i, firsts[i%8],
			strings.ReplaceAll(lasts[i%7], "'", "''")))
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

type harness struct {
	env *experts.Env
	cat *catalog.Catalog
}

func setup(t *testing.T, path string) *harness {
	t.Helper()
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	tables, err := src.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	env := experts.NewEnv(src, cat, "run1", 1, 1, tables, experts.Options{SampleRows: 1_000_000}, new(atomic.Int64))
	return &harness{env: env, cat: cat}
}

// run plans and runs x's tasks once; it returns the task names.
func (h *harness) run(t *testing.T, x experts.Expert) []string {
	t.Helper()
	tasks, err := x.Plan(context.Background(), h.env.For(x.Name()))
	if err != nil {
		t.Fatal(err)
	}
	// Tasks run concurrently, as the orchestrator runs them.
	var names []string
	var wg sync.WaitGroup
	for _, task := range tasks {
		names = append(names, task.Name)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := task.Run(context.Background()); err != nil {
				t.Errorf("%s: %v", task.Name, err)
			}
		}()
	}
	wg.Wait()
	return names
}

func (h *harness) semantic(t *testing.T, key string) (catalog.SemanticDoc, catalog.Entry) {
	t.Helper()
	e, err := h.cat.Get(context.Background(), catalog.KindSemantic, key)
	if err != nil {
		t.Fatalf("semantic %s: %v", key, err)
	}
	var d catalog.SemanticDoc
	if err := e.Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d, e
}

func TestSemantic(t *testing.T) {
	h := setup(t, fixture(t))
	x := semantic.New()

	// Before the profiles exist only the domain, scored from names, can run.
	if names := h.run(t, x); len(names) != 1 || names[0] != "domain" {
		t.Fatalf("planned before profiles: %v", names)
	}
	st := statistical.New()
	for len(h.run(t, st)) > 0 {
	}
	names := h.run(t, x)
	if len(names) != 6 {
		t.Fatalf("tasks: %v", names)
	}
	if names := h.run(t, x); len(names) != 0 {
		t.Fatalf("nothing left after entities and domain: %v", names)
	}
	if names := h.run(t, x); len(names) != 0 {
		t.Fatalf("satisfied expert planned %v", names)
	}

	want := map[string]string{
		"customers.id":           "identifier",
		"customers.first_name":   "person_name",
		"customers.LastName":     "person_name",
		"customers.email":        "email",
		"customers.backup_email": "unknown", // named email, holds words
		"customers.homepage":     "url",
		"customers.phone":        "phone",
		"customers.country":      "country",
		"customers.signup_date":  "date",
		"customers.last_login":   "timestamp",
		"customers.is_active":    "boolean",
		"customers.external_ref": "uuid",
		"customers.prefs":        "json",
		"customers.bio":          "free_text",
		"customers.tier":         "enum",
		"customers.zip":          "postal_code",
		"customers.balance":      "numeric_measure",
		"customers.avatar":       "binary",
		"customers.mystery":      "unknown",
		"orders.customer_id":     "foreign_key",
		"orders.amount":          "numeric_measure",
		"orders.status":          "enum",
		"orders.created_at":      "timestamp",
		"orders.currency":        "currency",
		"order_items.order_id":   "foreign_key",
		"order_items.product_id": "foreign_key",
		"order_items.quantity":   "numeric_measure",
		"products.name":          "label",
		"people.person_id":       "identifier",
		"people.name":            "person_name",
	}
	for key, typ := range want {
		d, e := h.semantic(t, key)
		if d.SemanticType != typ {
			t.Errorf("%s: %s (%.2f, %q), want %s", key, d.SemanticType, e.Confidence, d.Reasons, typ)
		}
		if e.Expert != semantic.Name || e.Confidence <= 0 || e.Confidence > 1 || len(d.Reasons) == 0 {
			t.Errorf("%s: entry %+v", key, e)
		}
	}
	d, e := h.semantic(t, "customers.email")
	if e.Confidence < 0.9 || len(e.Evidence) == 0 || e.Evidence[0] != "100% of 60 sampled values match the email pattern" {
		t.Errorf("email evidence: %v %q", e.Confidence, e.Evidence)
	}
	d, _ = h.semantic(t, "customers.backup_email")
	if !strings.Contains(strings.Join(d.Reasons, "; "), "named like email but only 0% of 60") {
		t.Errorf("backup_email reasons: %q", d.Reasons)
	}

	entities := map[string]string{
		"customers": "Customer", "orders": "Order", "order_items": "OrderItem", "products": "Product",
		"categories": "Category", "people": "Person",
	}
	for table, typ := range entities {
		e, err := h.cat.Get(context.Background(), catalog.KindEntity, table)
		if err != nil {
			t.Fatal(err)
		}
		var d catalog.EntityDoc
		e.Decode(&d)
		if d.Type != typ || d.Table != table || d.Description == "" || e.Confidence < 0.5 || e.Confidence > 0.8 {
			t.Errorf("%s: %+v conf %v", table, d, e.Confidence)
		}
	}
	var ent catalog.EntityDoc
	e, _ = h.cat.Get(context.Background(), catalog.KindEntity, "orders")
	e.Decode(&ent)
	if ent.Description != "One row per order; 200 rows; identified by id; refers to customer (customer_id); "+
		"referred to by order_items (order_id); described by status and amount; dated by created_at" {
		t.Errorf("orders: %q", ent.Description)
	}
	e, _ = h.cat.Get(context.Background(), catalog.KindEntity, "order_items")
	e.Decode(&ent)
	if !strings.HasPrefix(ent.Description, "Links order and product") || !strings.Contains(ent.Description, "identified by (order_id, product_id)") {
		t.Errorf("order_items: %q", ent.Description)
	}
	e, _ = h.cat.Get(context.Background(), catalog.KindEntity, "categories")
	e.Decode(&ent)
	if ent.Description != "One row per category; 0 rows; identified by id; described by title" {
		t.Errorf("categories: %q", ent.Description)
	}

	e, err := h.cat.Get(context.Background(), catalog.KindDomain, "domain")
	if err != nil {
		t.Fatal(err)
	}
	var dom catalog.DomainDoc
	e.Decode(&dom)
	if dom.Label != "ecommerce" || e.Confidence <= 0.3 || e.Confidence > 0.85 || !strings.HasPrefix(e.Evidence[0], "tables: ") {
		t.Errorf("domain %q %v %q", dom.Label, e.Confidence, e.Evidence)
	}
}

// TestWithoutProfiles checks that a table the statistical expert gave up on
// is still classified from names, so the run can finish.
func TestWithoutProfiles(t *testing.T) {
	h := setup(t, fixture(t))
	ctx := context.Background()
	for _, tb := range h.env.Tables {
		if err := catalog.Uncertainties.Save(ctx, h.env.For(statistical.Name), statistical.FailedKey(tb.Name.String()),
			catalog.UncertaintyDoc{Description: "gave up"}, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	x := semantic.New()
	if names := h.run(t, x); len(names) != 7 || names[6] != "domain" {
		t.Fatalf("tasks: %v", names)
	}
	d, _ := h.semantic(t, "customers.email")
	if d.SemanticType != "email" {
		t.Errorf("email from the sample alone: %+v", d)
	}
	d, _ = h.semantic(t, "orders.customer_id")
	if d.SemanticType != "foreign_key" {
		t.Errorf("customer_id by name: %+v", d)
	}
	if names := h.run(t, x); len(names) != 0 {
		t.Fatalf("left over: %v", names)
	}
}

// findDataset walks up from the working directory to the public test
// database shared/datasets/rel, which sits beside the repository, not in
// it: where it is absent the test is skipped, never failed.
func findDataset(t *testing.T, rel string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, "shared", "datasets", rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		if filepath.Dir(dir) == dir {
			t.Skipf("the public test database shared/datasets/%s is not in %s or any folder above it", filepath.ToSlash(rel), wd)
		}
	}
}

// TestChinook runs both experts over a real database.
func TestChinook(t *testing.T) {
	h := setup(t, findDataset(t, filepath.Join("chinook", "Chinook_Sqlite.sqlite")))
	st := statistical.New()
	for len(h.run(t, st)) > 0 {
	}
	x := semantic.New()
	for len(h.run(t, x)) > 0 {
	}
	want := map[string]string{
		"Customer.Email":         "email",
		"Customer.Phone":         "phone",
		"Customer.Country":       "country",
		"Customer.PostalCode":    "postal_code",
		"Customer.FirstName":     "person_name",
		"Customer.SupportRepId":  "foreign_key",
		"Invoice.InvoiceDate":    "date", // timestamps, every one at midnight
		"Invoice.BillingCountry": "country",
		"Invoice.Total":          "numeric_measure",
		"Invoice.InvoiceId":      "identifier",
		"Track.Milliseconds":     "numeric_measure",
		"Track.Name":             "label",
		"PlaylistTrack.TrackId":  "foreign_key",
	}
	for key, typ := range want {
		d, e := h.semantic(t, key)
		if d.SemanticType != typ {
			t.Errorf("%s: %s (%.2f, %q), want %s", key, d.SemanticType, e.Confidence, d.Reasons, typ)
		}
	}
	e, _ := h.cat.Get(context.Background(), catalog.KindEntity, "PlaylistTrack")
	var ent catalog.EntityDoc
	e.Decode(&ent)
	if !strings.HasPrefix(ent.Description, "Links playlist and track") {
		t.Errorf("PlaylistTrack: %q", ent.Description)
	}
	e, _ = h.cat.Get(context.Background(), catalog.KindDomain, "domain")
	var dom catalog.DomainDoc
	e.Decode(&dom)
	if dom.Label != "music" {
		t.Errorf("domain %q %q", dom.Label, e.Evidence)
	}
	t.Logf("domain %s %.2f %q", dom.Label, e.Confidence, e.Evidence)
}

// TestIgnoreDeclaredFKs: with --ignore-declared-fks a declared reference
// named unlike one is judged by its name and values, not by the schema.
func TestIgnoreDeclaredFKs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tasks.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{
		`CREATE TABLE people (person_id INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE tasks (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES people(person_id), title TEXT)`,
	}
	for i := 1; i <= 40; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO people VALUES (%d, 'Person %d')`, i, i),
			fmt.Sprintf(`INSERT INTO tasks VALUES (%d, %d, 'Task %d')`, i, i%7+1, i))
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	for _, ignore := range []bool{false, true} {
		h := setup(t, path)
		h.env.Options.IgnoreDeclaredFKs = ignore
		for st := statistical.New(); len(h.run(t, st)) > 0; {
		}
		h.run(t, semantic.New())
		got, _ := h.semantic(t, "tasks.owner")
		if isFK := got.SemanticType == semantic.TypeForeignKey; isFK == ignore {
			t.Errorf("ignore declared FKs %v: tasks.owner is %q", ignore, got.SemanticType)
		}
	}
}

// TestViewEntities: a view is named after its query ("Orders Qry"), not
// after what a row is. A view whose order_id differs in every row is one
// row per order; one whose rows are one per nothing the database names is
// said to be a view, and a view's missing key is not news.
func TestViewEntities(t *testing.T) {
	path := fixture(t)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{
		`CREATE VIEW order_summary AS SELECT o.id AS order_id, o.customer_id, o.amount FROM orders o`,
		`CREATE VIEW orders_by_status AS SELECT status, COUNT(*) AS n FROM orders GROUP BY status`,
		// both order and customer unique: one row per two things is neither
		`CREATE VIEW pairs AS SELECT id AS order_id, id AS customer_id FROM orders`,
	} {
		if _, err := db.Exec(v); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	h := setup(t, path)
	h.run(t, statistical.New())
	h.run(t, semantic.New())
	for view, want := range map[string]string{
		"order_summary":    "One row per order (a view); 200 rows; refers to order (order_id) and customer (customer_id); described by amount",
		"orders_by_status": "A view; 4 rows; described by n",
		"pairs":            "A view; 200 rows; refers to order (order_id) and customer (customer_id)",
	} {
		e, err := h.cat.Get(context.Background(), catalog.KindEntity, view)
		if err != nil {
			t.Fatal(err)
		}
		var ent catalog.EntityDoc
		e.Decode(&ent)
		if ent.Description != want {
			t.Errorf("%s: %q, want %q", view, ent.Description, want)
		}
	}
}
