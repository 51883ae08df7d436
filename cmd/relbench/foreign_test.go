package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/naming"
)

// The invented language: one word always gives one invented word, whose
// plural is another form of it; the technical key words stay; no invented
// word means anything to discover's English rules.
func TestForeignWords(t *testing.T) {
	l := newLexicon()
	cust, custs := l.ident("customer_id"), l.ident("Customers")
	if cust != l.ident("CustomerId") || cust != l.ident("customer_ID") {
		t.Errorf("customer_id, CustomerId and customer_ID translate apart: %s %s %s", cust, l.ident("CustomerId"), l.ident("customer_ID"))
	}
	word, ok := strings.CutSuffix(cust, "_id")
	if !ok {
		t.Fatalf("customer_id → %s: the id is lost", cust)
	}
	if custs == word || !strings.HasPrefix(custs, word[:len(word)-1]) {
		t.Errorf("customers → %s, customer → %s: want the plural a form of the singular", custs, word)
	}
	if word == "customer" || strings.Contains(cust, "cust") {
		t.Errorf("customer → %s: not translated", word)
	}
	if got := l.ident("order_number"); !strings.HasSuffix(got, "_nr") {
		t.Errorf("order_number → %s, want …_nr", got)
	}
	if got := l.ident("country_code"); !strings.HasSuffix(got, "_kode") {
		t.Errorf("country_code → %s, want …_kode", got)
	}
	if split, glued := l.ident("StuID"), l.ident("stuid"); !strings.HasSuffix(split, "_id") || glued != strings.ReplaceAll(split, "_", "") {
		t.Errorf("StuID → %s, stuid → %s: want the same words, glued or not", split, glued)
	}
	if got := l.ident("address_line2"); !strings.HasSuffix(got, "_2") {
		t.Errorf("address_line2 → %s: the digit is lost", got)
	}
	// Many words, no clash and no English vocabulary.
	seen := map[string]string{}
	for _, w := range strings.Fields(`customer order item product invoice line employee manager staff person people
		address city country region store shop sale payment account transaction student course teacher
		department faculty advisor parent child category type status name date amount price quantity`) {
		inv := l.word(w)
		if other, ok := seen[inv]; ok && other != w {
			t.Errorf("%s and %s both translate to %s", w, other, inv)
		}
		seen[inv] = w
		if inEnglishVocabulary(inv) {
			t.Errorf("%s → %s, a word of discover's vocabulary", w, inv)
		}
	}
	// The plural forms: only the -s one is undone by an English singular.
	undone := 0
	for _, w := range []string{"customers", "orders", "items", "products", "invoices", "lines", "employees", "stores", "sales", "payments"} {
		inv := l.word(w)
		if naming.Singular(inv) == l.word(naming.Singular(w)) {
			undone++
		}
	}
	if undone == 0 || undone == 10 {
		t.Errorf("%d of 10 invented plurals undone by the English singular: want some, not all", undone)
	}
}

// A copy under foreign names keeps every row, the keys and unique
// constraints, and maps the truth's names onto the copy's.
func TestRenameDB(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "shop.sqlite")
	db, err := sql.Open("sqlite", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE Customers (CustomerId INTEGER PRIMARY KEY, Email TEXT UNIQUE, Name TEXT NOT NULL)`,
		`CREATE TABLE Orders (OrderId INTEGER, CustomerId INTEGER REFERENCES Customers, LineNo INTEGER, PRIMARY KEY (OrderId, LineNo))`,
		`CREATE VIEW big_orders AS SELECT * FROM Orders`,
		`INSERT INTO Customers VALUES (1, 'a@x', 'Ann'), (2, 'b@x', 'Bob')`,
		`INSERT INTO Orders VALUES (10, 1, 1), (10, 1, 2), (11, 2, 1)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()
	out := filepath.Join(dir, "out")
	r, copyDir, err := foreignCopy(ctx, src, out, "shop")
	if err != nil {
		t.Fatal(err)
	}
	if copyDir != filepath.Join(out, "shop") {
		t.Errorf("kept in %s, want %s", copyDir, filepath.Join(out, "shop"))
	}
	key, ok := r.key("Orders", "CustomerId", "Customers", "CustomerId")
	if !ok {
		t.Fatalf("the reference's names are not in the copy: %v %v", r.tables, r.cols)
	}
	if strings.Contains(key, "customer") || strings.Contains(key, "order") {
		t.Errorf("key %s still in English", key)
	}
	if back := r.englishKey(r.tables["orders"], []string{r.cols["orders"]["customerid"]}, r.tables["customers"], []string{r.cols["customers"]["customerid"]}); back != "orders(customerid)->customers(customerid)" {
		t.Errorf("back in English: %s", back)
	}
	if _, ok := r.key("big_orders", "CustomerId", "Customers", "CustomerId"); ok {
		t.Error("a view was copied")
	}
	cp, err := sql.Open("sqlite", r.path)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	var n int
	if err := cp.QueryRow(`SELECT COUNT(*) FROM "` + r.tables["orders"] + `"`).Scan(&n); err != nil || n != 3 {
		t.Errorf("orders copied: %d rows (%v), want 3", n, err)
	}
	var pk, uniq int
	if err := cp.QueryRow(`SELECT COUNT(*) FROM pragma_table_info(?) WHERE pk > 0`, r.tables["orders"]).Scan(&pk); err != nil || pk != 2 {
		t.Errorf("orders' primary key has %d columns (%v), want 2", pk, err)
	}
	if err := cp.QueryRow(`SELECT COUNT(*) FROM pragma_index_list(?) WHERE "unique" AND origin = 'u'`, r.tables["customers"]).Scan(&uniq); err != nil || uniq != 1 {
		t.Errorf("customers has %d unique constraints (%v), want 1 (the e-mail)", uniq, err)
	}
	// The same database renamed again gives the same names.
	r2, dir2, err := foreignCopy(ctx, src, "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer removeAll(dir2)
	if k2, _ := r2.key("Orders", "CustomerId", "Customers", "CustomerId"); k2 != key {
		t.Errorf("renamed twice: %s, then %s", key, k2)
	}
}

func removeAll(dir string) { _ = os.RemoveAll(dir) }
