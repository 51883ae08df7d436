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

// TestInferCompositeByValues: an invented chain of shops, every key led
// by the shop, whose references to keys of several columns carry names
// nothing could read as the key's:
//   - invoice(shop, bill_to) and invoice(shop, ship_to) → customer(shop,
//     cust_no): two roles of one key, customer numbers written as seven
//     zero-padded digits ('0300001'), each role found apart;
//   - return_line(shop, src_order, src_line) → order_line(shop, order_no,
//     line_no): the return's own line numbers (10, 20, 30) are order lines'
//     too, so (shop, src_order, line_no) holds as well; the columns written
//     side by side are the reference.
//
// Not inferred: van(shop, home_bay) → depot(shop, depot_code), bays
// numbered 100, 200, … as depots are (codes of one scheme, not a
// reference), and return_line(shop, src_order) → orders(shop, order_no),
// which the reference to order_line says through order_line → orders.
// An invoice's and a return's shop, named after its table, are surer than
// the references their values propose, and keep their own.
func TestInferCompositeByValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shops.db")
	stmts := []string{
		`CREATE TABLE shop (shop INTEGER PRIMARY KEY, city TEXT)`,
		`CREATE TABLE customer (shop INTEGER NOT NULL, cust_no VARCHAR(7) NOT NULL, name TEXT, PRIMARY KEY (shop, cust_no))`,
		`CREATE TABLE invoice (shop INTEGER NOT NULL, invoice_no INTEGER NOT NULL, bill_to VARCHAR(7), ship_to VARCHAR(7), total REAL, PRIMARY KEY (shop, invoice_no))`,
		`CREATE TABLE orders (shop INTEGER NOT NULL, order_no INTEGER NOT NULL, placed TEXT, PRIMARY KEY (shop, order_no))`,
		`CREATE TABLE order_line (shop INTEGER NOT NULL, order_no INTEGER NOT NULL, line_no INTEGER NOT NULL, sku TEXT, qty INTEGER, PRIMARY KEY (shop, order_no, line_no))`,
		`CREATE TABLE return_line (shop INTEGER NOT NULL, return_no INTEGER NOT NULL, line_no INTEGER NOT NULL, reason TEXT, src_order INTEGER, src_line INTEGER, qty INTEGER,
			PRIMARY KEY (shop, return_no, line_no))`,
		`CREATE TABLE depot (shop INTEGER NOT NULL, depot_code INTEGER NOT NULL, label TEXT, PRIMARY KEY (shop, depot_code))`,
		`CREATE TABLE van (van_id INTEGER PRIMARY KEY, shop INTEGER, home_bay INTEGER, plate TEXT)`,
	}
	for s := 1; s <= 3; s++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO shop VALUES (%d, 'c%d')`, s, s))
		for c := 1; c <= 120; c++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO customer VALUES (%d, '%07d', 'n%d')`, s, 300000+c, c))
		}
		for d := 1; d <= 8; d++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO depot VALUES (%d, %d, 'd%d')`, s, 100*d, d))
		}
	}
	for i := 1; i <= 400; i++ {
		s := 1 + i%3
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO invoice VALUES (%d, %d, '%07d', '%07d', %d.5)`, s, i, 300001+(i*7)%120, 300001+(i*13)%110, i))
	}
	for i := 1; i <= 300; i++ {
		s, o := 1+i%3, 70000+3*i
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO orders VALUES (%d, %d, '2026-0%d-01')`, s, o, 1+i%9))
		for l := 1; l <= 1+i%4; l++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO order_line VALUES (%d, %d, %d, 'k%d', %d)`, s, o, 10*l, (i+l)%50, 1+l))
		}
	}
	// Returns of the orders with at least two lines: each returns the
	// order's lines from the first, numbered 10, 20 as the order's are.
	for i, r := 1, 0; i <= 300; i++ {
		if i%4 == 0 || i%5 == 0 {
			continue
		}
		r++
		s, o := 1+i%3, 70000+3*i
		for l := 1; l <= i%4; l++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO return_line VALUES (%d, %d, %d, 'r%d', %d, %d, 1)`, s, 90000+r, 10*l, l, o, 10*(1+i%4-l+1)-10))
		}
	}
	for v := 1; v <= 60; v++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO van VALUES (%d, %d, %d, 'p%d')`, v, 1+v%3, 100*(1+v%6), v))
	}
	expertstest.SQLite(t, path, stmts...)

	cat := runInference(t, path)
	keys, byKey := inferredKeys(t, cat)
	want := []string{
		"customer(shop)->shop(shop)",
		"depot(shop)->shop(shop)",
		"invoice(shop)->shop(shop)",
		"invoice(shop,bill_to)->customer(shop,cust_no)",
		"invoice(shop,ship_to)->customer(shop,cust_no)",
		"order_line(shop,order_no)->orders(shop,order_no)",
		"orders(shop)->shop(shop)",
		"return_line(shop)->shop(shop)",
		"return_line(shop,src_order,src_line)->order_line(shop,order_no,line_no)",
		"van(shop)->shop(shop)",
	}
	wantKeys(t, keys, want)
	e := byKey["return_line(shop,src_order,src_line)->order_line(shop,order_no,line_no)"]
	ev := strings.Join(e.Evidence, "; ")
	for _, s := range []string{"names (exact, values, values)", "proposed by its values: all 360 distinct tuples are keys of order_line", "checked: 0 of"} {
		if !strings.Contains(ev, s) {
			t.Errorf("evidence lacks %q: %s", s, ev)
		}
	}
	if e.Confidence < relations.AcceptScore || e.Confidence > 0.9 {
		t.Errorf("confidence %.2f: want at least %.2f, at most 0.9 (the values alone)", e.Confidence, relations.AcceptScore)
	}

	// The narrower reference the wider says again, in the ledger only.
	ctx := context.Background()
	h, err := cat.Get(ctx, catalog.KindHypothesis, hypotheses.ID("ref", "return_line(shop,src_order)->orders(shop,order_no)"))
	if err != nil {
		t.Fatalf("no ledger entry for return_line(shop, src_order) → orders: %v", err)
	}
	var hd catalog.HypothesisDoc
	if err := h.Decode(&hd); err != nil {
		t.Fatal(err)
	}
	if hd.Status != hypotheses.Confirmed {
		t.Errorf("return_line(shop, src_order) → orders: %s, want confirmed", hd.Status)
	}

	p, err := cat.Get(ctx, catalog.KindProgress, experts.ReferencesInferred.Key())
	if err != nil {
		t.Fatal(err)
	}
	var st relations.InferStats
	if err := p.Decode(&st); err != nil {
		t.Fatal(err)
	}
	// bill_to, ship_to; src_order with src_line or line_no, to
	// order_line, and with the quantity (1 throughout, within the shops'
	// numbers) for the shop; src_order to orders. Not the van's bays.
	if st.CompositeValueCandidates != 6 {
		t.Errorf("%d candidates proposed by values, want 6", st.CompositeValueCandidates)
	}
}

// TestInferCompositeKeepsSurerColumns: an invented ledger of accounts and
// their sites (account_site keyed by both, a bridge), whose invoices name
// their account and the site they deliver to, always one of the account's
// sites, so the values put (account_id, deliver_site_id) among the
// bridge's pairs, and the bridge's site is a site. The pair says the
// invoice's account and site again, through the bridge: the site, named
// by a role, less surely than the pair, goes to the ledger; the account,
// named after its table, is surer than the pair and is not dropped for it.
func TestInferCompositeKeepsSurerColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	stmts := []string{
		`CREATE TABLE account (account_id INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE site (site_id INTEGER PRIMARY KEY, city TEXT)`,
		`CREATE TABLE account_site (account_id INTEGER NOT NULL, site_id INTEGER NOT NULL, kind TEXT, PRIMARY KEY (account_id, site_id))`,
		`CREATE TABLE invoice (invoice_id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, deliver_site_id INTEGER, total REAL)`,
	}
	site := func(i int) int { return 9 + (i*37)%1097 } // 300 sites among 9..1105
	for i := 1; i <= 300; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO site VALUES (%d, 'city %d')`, site(i), i%40))
	}
	for a := 1; a <= 200; a++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO account VALUES (%d, 'account %d')`, 1000+a*13, a))
		for j := 0; j < 2; j++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO account_site VALUES (%d, %d, '%s')`, 1000+a*13, site(1+(a*7+j*151)%300), []string{"main", "shipping"}[j]))
		}
	}
	for i := 1; i <= 900; i++ {
		a := 1 + (i*11)%200
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO invoice VALUES (%d, %d, %d, %d.5)`, i, 1000+a*13, site(1+(a*7+(i%2)*151)%300), i))
	}
	expertstest.SQLite(t, path, stmts...)
	cat := runInference(t, path)
	keys, byKey := inferredKeys(t, cat)
	pair := byKey["invoice(account_id,deliver_site_id)->account_site(account_id,site_id)"]
	account := byKey["invoice(account_id)->account(account_id)"]
	if pair.Key == "" || account.Key == "" {
		t.Fatalf("inferred:\n%s\nwant the pair and the invoice's account", strings.Join(keys, "\n"))
	}
	if account.Confidence <= pair.Confidence {
		t.Errorf("the account at %.2f, the pair at %.2f: want the account surer", account.Confidence, pair.Confidence)
	}
	for _, want := range []string{"account_site(account_id)->account(account_id)", "account_site(site_id)->site(site_id)"} {
		if _, ok := byKey[want]; !ok {
			t.Errorf("%s not inferred; inferred:\n%s", want, strings.Join(keys, "\n"))
		}
	}
	wantConfirmed(t, cat, "invoice(deliver_site_id)->site(site_id)")
}
