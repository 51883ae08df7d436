package relations_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/internal/expertstest"
)

// A prefix is the table's only when every column carries it and the table's
// name spells it.
func TestColumnPrefixes(t *testing.T) {
	var cols []relations.Column
	add := func(table string, names ...string) {
		for _, n := range names {
			cols = append(cols, relations.Column{Table: table, Name: n})
		}
	}
	add("customer", "c_id", "c_name", "c_city")
	add("store_sales", "SS_ITEM_SK", "SS_QTY")       // the case as written is kept
	add("order_lines", "order_id", "order_qty")      // a word, not an abbreviation
	add("vendor", "x_id", "x_name")                  // not the table's letters
	add("item", "i_id", "name")                      // not every column
	add("note", "n_text")                            // one column tells nothing
	add("warehouse_zone", "wz_id", "wz_", "wz_code") // a column with nothing after it
	got := relations.ColumnPrefixes(cols)
	want := map[string]string{"customer": "c_", "store_sales": "SS_"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("prefixes %v, want %v", got, want)
	}
}

// An invented schema whose columns all carry their table's prefix, keys
// included (bk_editionkey → ed_editionkey names the key under another
// prefix, bk_au_id → au_id as written), and a star whose surrogate keys do
// too: the references are found from the names without the prefixes, and
// confirmed by the data.
func TestInferTableWidePrefixes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prefixed.db")
	stmts := []string{
		`CREATE TABLE author (au_id INTEGER PRIMARY KEY, au_name TEXT NOT NULL)`,
		`CREATE TABLE shelf (sh_id INTEGER PRIMARY KEY, sh_label TEXT)`,
		`CREATE TABLE edition (ed_editionkey INTEGER PRIMARY KEY, ed_year INTEGER)`,
		`CREATE TABLE book (bk_id INTEGER PRIMARY KEY, bk_title TEXT, bk_au_id INTEGER REFERENCES author(au_id), bk_sh_id INTEGER REFERENCES shelf(sh_id),
			bk_editionkey INTEGER REFERENCES edition(ed_editionkey))`,
		`CREATE TABLE member (mb_id INTEGER PRIMARY KEY, mb_name TEXT)`,
		`CREATE TABLE visit_day_dim (vd_day_sk INTEGER PRIMARY KEY, vd_date TEXT, vd_weekday TEXT)`,
		`CREATE TABLE fact_loan (fl_loan_sk INTEGER PRIMARY KEY, fl_bk_id INTEGER REFERENCES book(bk_id),
			fl_mb_id INTEGER REFERENCES member(mb_id), fl_day_sk INTEGER REFERENCES visit_day_dim(vd_day_sk), fl_fee REAL)`,
	}
	for i := 1; i <= 40; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO author VALUES (%d, 'author %d')`, i, i))
	}
	for i := 1; i <= 12; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO shelf VALUES (%d, 'shelf %d')`, i, i))
	}
	for i := 1; i <= 60; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO edition VALUES (%d, %d)`, i, 1950+i))
	}
	for i := 1; i <= 300; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO book VALUES (%d, 'title %d', %d, %d, %d)`, i, i, 1+(i*7)%40, 1+(i*5)%12, 1+(i*3)%60))
	}
	for i := 1; i <= 150; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO member VALUES (%d, 'member %d')`, i, i))
	}
	for i := 1; i <= 365; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO visit_day_dim VALUES (%d, date('2025-01-01', '+%d days'), 'd%d')`, i, i-1, i%7))
	}
	for i := 1; i <= 2000; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO fact_loan VALUES (%d, %d, %d, %d, %d.5)`, i, 1+(i*13)%300, 1+(i*11)%150, 1+(i*17)%365, i%9))
	}
	expertstest.SQLite(t, path, stmts...)
	keys, _ := inferredKeys(t, runInference(t, path))
	want := []string{
		"book(bk_au_id)->author(au_id)",
		"book(bk_editionkey)->edition(ed_editionkey)",
		"book(bk_sh_id)->shelf(sh_id)",
		"fact_loan(fl_bk_id)->book(bk_id)",
		"fact_loan(fl_day_sk)->visit_day_dim(vd_day_sk)",
		"fact_loan(fl_mb_id)->member(mb_id)",
	}
	wantKeys(t, keys, want)
}

// inferredKeys are the keys of run "r"'s relationships, sorted, and the
// entries by key.
func inferredKeys(t *testing.T, cat *catalog.Catalog) ([]string, map[string]catalog.Entry) {
	t.Helper()
	es, err := cat.List(context.Background(), catalog.Filter{Kind: catalog.KindRelationship, RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	byKey := map[string]catalog.Entry{}
	for _, e := range es {
		keys = append(keys, e.Key)
		byKey[e.Key] = e
	}
	sort.Strings(keys)
	return keys, byKey
}

// wantKeys fails the test unless got are want.
func wantKeys(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("inferred:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestInferAbbreviatedDimensions: an invented clinic star whose fact
// table names two dimensions by abbreviations of their multi-word names
// (cv_pdemo_sk for person_demographics, cv_hhdemo_sk for
// household_health_demographics, with a role: cv_home_hhdemo_sk) and one
// by the start of its name (cv_facil_sk for facility). The two
// demographics dimensions are both numbered 1..n, keyed pd_demo_sk and
// hh_demo_sk: siblings, not a reference of one to the other.
func TestInferAbbreviatedDimensions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clinic.db")
	stmts := []string{
		`CREATE TABLE person_demographics (pd_demo_sk INTEGER PRIMARY KEY, pd_age_band TEXT)`,
		`CREATE TABLE household_health_demographics (hh_demo_sk INTEGER PRIMARY KEY, hh_size INTEGER)`,
		`CREATE TABLE facility (f_facility_sk INTEGER PRIMARY KEY, f_name TEXT)`,
		`CREATE TABLE clinic_visit (cv_visit_sk INTEGER PRIMARY KEY, cv_pdemo_sk INTEGER, cv_hhdemo_sk INTEGER, cv_home_hhdemo_sk INTEGER,
			cv_facil_sk INTEGER, cv_minutes INTEGER)`,
	}
	for i := 1; i <= 120; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO person_demographics VALUES (%d, 'band %d')`, i, i%7))
	}
	for i := 1; i <= 60; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO household_health_demographics VALUES (%d, %d)`, i, 1+i%6))
	}
	for i := 1; i <= 25; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO facility VALUES (%d, 'facility %d')`, i, i))
	}
	for i := 1; i <= 3000; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO clinic_visit VALUES (%d, %d, %d, %d, %d, %d)`,
			i, 1+(i*7)%120, 1+(i*11)%60, 1+(i*13)%60, 1+(i*3)%25, 5+i%55))
	}
	expertstest.SQLite(t, path, stmts...)
	keys, _ := inferredKeys(t, runInference(t, path))
	wantKeys(t, keys, []string{
		"clinic_visit(cv_facil_sk)->facility(f_facility_sk)",
		"clinic_visit(cv_hhdemo_sk)->household_health_demographics(hh_demo_sk)",
		"clinic_visit(cv_home_hhdemo_sk)->household_health_demographics(hh_demo_sk)",
		"clinic_visit(cv_pdemo_sk)->person_demographics(pd_demo_sk)",
	})
}

// TestInferInflectedAndWordPrefixes: an invented schema in German and
// Italian, whose tables are named in the plural and whose references in
// the singular (rechnungen.kunde_id → kunden, rechnungen.lieferant →
// lieferanten, righe.ordine_id → ordini), which English singulars leave
// apart; and a table whose columns all begin with a word of its name
// (user_profile: user_id, user_bio, user_since), which is no prefix
// convention that would read user_id as the profile's own id. kunden's
// key kunde_id is its own (a kunde is one of the kunden): no reference of
// kunden to rechnungen, whose kunde_id holds some of the same values.
func TestInferInflectedAndWordPrefixes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "inflected.db")
	stmts := []string{
		`CREATE TABLE kunden (kunde_id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`CREATE TABLE lieferanten (id INTEGER PRIMARY KEY, firma TEXT NOT NULL)`,
		`CREATE TABLE rechnungen (rechnung_nr INTEGER PRIMARY KEY, kunde_id INTEGER NOT NULL, lieferant INTEGER, betrag REAL)`,
		`CREATE TABLE clienti (id INTEGER PRIMARY KEY, nome TEXT)`,
		`CREATE TABLE ordini (id INTEGER PRIMARY KEY, cliente_id INTEGER NOT NULL, data TEXT)`,
		`CREATE TABLE righe (id INTEGER PRIMARY KEY, ordine_id INTEGER NOT NULL, quantita INTEGER)`,
		`CREATE TABLE users (id INTEGER PRIMARY KEY, login TEXT NOT NULL)`,
		`CREATE TABLE user_profile (user_id INTEGER NOT NULL, user_bio TEXT, user_since TEXT)`,
	}
	for i := 1; i <= 80; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO kunden VALUES (%d, 'kunde %d')`, i, i),
			fmt.Sprintf(`INSERT INTO clienti VALUES (%d, 'cliente %d')`, i, i),
			fmt.Sprintf(`INSERT INTO users VALUES (%d, 'user%d')`, i, i))
	}
	for i := 1; i <= 25; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO lieferanten VALUES (%d, 'firma %d')`, i, i))
	}
	for i := 1; i <= 400; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO rechnungen VALUES (%d, %d, %d, %d.25)`, i, 1+(i*7)%80, 1+(i*3)%25, i%50),
			fmt.Sprintf(`INSERT INTO ordini VALUES (%d, %d, '2026-01-%02d')`, i, 1+(i*11)%80, 1+i%28))
	}
	for i := 1; i <= 1200; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO righe VALUES (%d, %d, %d)`, i, 1+(i*13)%400, 1+i%5))
	}
	for i := 1; i <= 60; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO user_profile VALUES (%d, 'bio %d', '2025-01-01')`, 1+(i*17)%80, i))
	}
	expertstest.SQLite(t, path, stmts...)
	keys, _ := inferredKeys(t, runInference(t, path))
	want := []string{
		"ordini(cliente_id)->clienti(id)",
		"rechnungen(kunde_id)->kunden(kunde_id)",
		"rechnungen(lieferant)->lieferanten(id)",
		"righe(ordine_id)->ordini(id)",
		"user_profile(user_id)->users(id)",
	}
	wantKeys(t, keys, want)
}

// TestInferPrefixedCompositeKeys: an invented lending library that
// declares nothing, every column carrying its table's prefix and keys
// numbered within their parent (branches 1..3, members and shelves 1..n in
// each branch), so that its references are composite: a member is
// (m_b_id, m_id), and a loan names it (l_b_id, l_m_id), its own prefix
// before the member's column. A member's card is one per member, so the
// cards' (ca_b_id, ca_m_id) is unique too and holds every loan's member:
// the loans reference the member the cards reference, not a card. A
// member's own number is no shelf's (m_id and sh_id are both 1..n within
// a branch): a table's own key word is no name of another table's. A
// loan's shelf is the shelf's branch and number (l_sh_b_id, l_sh_id), not
// the loan's own branch beside the shelf's number, though every branch
// has a shelf of each number. The loans' branches are said by their
// member and shelf, and so not again.
func TestInferPrefixedCompositeKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "library.db")
	stmts := []string{
		`CREATE TABLE branch (b_id INTEGER, b_city TEXT)`,
		`CREATE TABLE member (m_id INTEGER, m_b_id INTEGER, m_name TEXT)`,
		`CREATE TABLE shelf (sh_id INTEGER, sh_b_id INTEGER, sh_topic TEXT)`,
		`CREATE TABLE card (ca_b_id INTEGER, ca_m_id INTEGER, ca_issued TEXT)`,
		`CREATE TABLE loan (l_id INTEGER, l_b_id INTEGER, l_m_id INTEGER, l_sh_b_id INTEGER, l_sh_id INTEGER, l_days INTEGER)`,
	}
	for b := 1; b <= 3; b++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO branch VALUES (%d, 'city %d')`, b, b))
		for m := 1; m <= 60; m++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO member VALUES (%d, %d, 'member %d-%d')`, m, b, b, m),
				fmt.Sprintf(`INSERT INTO card VALUES (%d, %d, '2026-01-%02d')`, b, m, 1+m%28))
		}
		for s := 1; s <= 25; s++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO shelf VALUES (%d, %d, 'topic %d')`, s, b, s%7))
		}
	}
	for l := 1; l <= 400; l++ {
		b := 1 + l%3
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO loan VALUES (%d, %d, %d, %d, %d, %d)`, l, b, 1+(l*7)%60, 1+(l*5)%3, 1+(l*11)%25, 7+l%21))
	}
	expertstest.SQLite(t, path, stmts...)
	keys, _ := inferredKeys(t, runInference(t, path))
	wantKeys(t, keys, []string{
		"card(ca_m_id,ca_b_id)->member(m_id,m_b_id)",
		"loan(l_m_id,l_b_id)->member(m_id,m_b_id)",
		"loan(l_sh_id,l_sh_b_id)->shelf(sh_id,sh_b_id)",
		"member(m_b_id)->branch(b_id)",
		"shelf(sh_b_id)->branch(b_id)",
	})
}
