package relations_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// TestInferCalendarClockAndRoles: an invented ticketing star that declares
// nothing, in the surrogate-key convention, with three traps that general
// rules must get right:
//   - a calendar dimension holds every day of five years (dt_date beside
//     its surrogate dt_date_sk): a venue's opening date or a show's
//     premiere is a date inside it by construction, which confirms
//     nothing, so those dates are no references;
//   - a dimension of the minutes of a day whose surrogate key
//     md_minute_sk and minute md_minute hold the same values 0..1439: the
//     fact's tk_sold_minute_sk names the key of its own kind (_sk);
//   - v_manager_id, a person's role, in a table of venues: a venue's
//     manager is no venue, although 1..20 sit inside the venues' keys.
func TestInferCalendarClockAndRoles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tickets.db")
	stmts := []string{
		`CREATE TABLE dates (dt_date_sk INTEGER, dt_date TEXT, dt_weekday INTEGER)`,
		`CREATE TABLE minute_dim (md_minute_sk INTEGER, md_minute INTEGER, md_hour INTEGER)`,
		`CREATE TABLE venue (v_venue_sk INTEGER, v_name TEXT, v_open_date TEXT, v_manager_id INTEGER)`,
		`CREATE TABLE show (sh_show_sk INTEGER, sh_title TEXT, sh_premiere_date TEXT)`,
		`CREATE TABLE ticket (tk_ticket_sk INTEGER, tk_sold_date_sk INTEGER, tk_sold_minute_sk INTEGER, tk_venue_sk INTEGER,
			tk_show_sk INTEGER, tk_price REAL)`,
		// 2020-01-01 .. 2024-12-30: every day, numbered from 7001.
		`WITH RECURSIVE d(n) AS (SELECT 0 UNION ALL SELECT n+1 FROM d WHERE n < 1825)
			INSERT INTO dates SELECT 7001+n, date('2020-01-01', '+' || n || ' days'), n % 7 FROM d`,
		`WITH RECURSIVE m(n) AS (SELECT 0 UNION ALL SELECT n+1 FROM m WHERE n < 1439)
			INSERT INTO minute_dim SELECT n, n, n / 60 FROM m`,
	}
	for i := 1; i <= 50; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO venue VALUES (%d, 'venue %d', date('2020-03-01', '+%d days'), %d)`, i, i, (i*37)%1500, 1+i%20))
	}
	for i := 1; i <= 80; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO show VALUES (%d, 'show %d', date('2021-01-01', '+%d days'))`, i, i, (i*53)%1000))
	}
	stmts = append(stmts, `WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t WHERE n < 4000)
		INSERT INTO ticket SELECT n, 7001 + (n*7) % 1826, (n*13) % 1440, 1 + (n*11) % 50, 1 + (n*3) % 80, 10 + n % 90 FROM t`)
	expertstest.SQLite(t, path, stmts...)
	keys, byKey := inferredKeys(t, runInference(t, path))
	wantKeys(t, keys, []string{
		"ticket(tk_show_sk)->show(sh_show_sk)",
		"ticket(tk_sold_date_sk)->dates(dt_date_sk)",
		"ticket(tk_sold_minute_sk)->minute_dim(md_minute_sk)",
		"ticket(tk_venue_sk)->venue(v_venue_sk)",
	})
	if len(keys) > 0 && byKey[keys[0]].Confidence < 0.6 {
		t.Errorf("%s: confidence %.2f", keys[0], byKey[keys[0]].Confidence)
	}
}

// TestInferToSampledDimension: a dimension larger than --sample-rows is
// profiled on a sample, in which its surrogate key is unique and never
// NULL; it is still a target (discounted), so the fact's references to it
// are found. A measure unique in the same sample (a name that is no key's)
// is not a target.
func TestInferToSampledDimension(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sampled.db")
	expertstest.SQLite(t, path,
		`CREATE TABLE buyer_profile (bp_profile_sk INTEGER, bp_score INTEGER, bp_band TEXT)`,
		`CREATE TABLE purchase (pu_purchase_sk INTEGER, pu_profile_sk INTEGER, pu_ship_profile_sk INTEGER, pu_points INTEGER)`,
		`WITH RECURSIVE p(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM p WHERE n < 40000)
			INSERT INTO buyer_profile SELECT n, 100000 + n, 'b' || (n % 9) FROM p`,
		`WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t WHERE n < 8000)
			INSERT INTO purchase SELECT n, 1 + (n*7919) % 40000, 1 + (n*104729) % 40000, 100000 + 1 + (n*31) % 40000 FROM t`,
	)
	keys, byKey := inferredKeys(t, runInferenceSampled(t, path, 15_000))
	wantKeys(t, keys, []string{
		"purchase(pu_profile_sk)->buyer_profile(bp_profile_sk)",
		"purchase(pu_ship_profile_sk)->buyer_profile(bp_profile_sk)",
	})
	for _, k := range keys {
		if c := byKey[k].Confidence; c < 0.6 || c > 0.95 {
			t.Errorf("%s: confidence %.2f, want accepted and below a declared key's", k, c)
		}
	}
}

// TestInferWideUndeclaredFact: a sales fact that declares nothing, wider
// than a bridge (seven key-named columns) and profiled on a sample, keyed
// by its basket number and goods; returns name both. The pair is checked
// unique, and the returns' composite reference to it is inferred (their
// goods, the sale's, are said by it), by a check that joins the fact once (a
// search per tuple in a table with no index took 16 s on SQLite). Two
// demographic dimensions numbered 1..n, keyed pd_demo_sk and hm_demo_sk
// and declared nowhere, are siblings: no reference of one to the other,
// so both keep the fact's references.
func TestInferWideUndeclaredFact(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wide.db")
	expertstest.SQLite(t, path,
		`CREATE TABLE goods (g_goods_sk INTEGER, g_name TEXT)`,
		`CREATE TABLE shop (sh_shop_sk INTEGER, sh_city TEXT)`,
		`CREATE TABLE day_dim (dd_day_sk INTEGER, dd_weekday INTEGER)`,
		`CREATE TABLE person_demo (pd_demo_sk INTEGER, pd_band TEXT)`,
		`CREATE TABLE home_demo (hm_demo_sk INTEGER, hm_size INTEGER)`,
		`CREATE TABLE order_item (oi_basket_number INTEGER, oi_goods_sk INTEGER, oi_shop_sk INTEGER, oi_day_sk INTEGER,
			oi_person_demo_sk INTEGER, oi_home_demo_sk INTEGER, oi_clerk_id INTEGER, oi_qty INTEGER)`,
		`CREATE TABLE order_return (or_basket_number INTEGER, or_goods_sk INTEGER, or_day_sk INTEGER, or_qty INTEGER)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 500) INSERT INTO goods SELECT i, 'goods ' || i FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 20) INSERT INTO shop SELECT i, 'city ' || i FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 400) INSERT INTO day_dim SELECT i, i % 7 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 3000) INSERT INTO person_demo SELECT i, 'band ' || (i % 11) FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 200) INSERT INTO home_demo SELECT i, 1 + i % 6 FROM n`,
		// 10,000 baskets of four different goods each.
		`WITH RECURSIVE b(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM b WHERE i < 10000), l(j) AS (VALUES (0), (1), (2), (3))
			INSERT INTO order_item SELECT i, 1 + (i*7 + j*101) % 500, 1 + i % 20, 1 + (i*13) % 400, 1 + (i*31 + j) % 3000,
				1 + (i*17 + j) % 200, 1001 + i % 50, 1 + j FROM b, l`,
		`INSERT INTO order_return SELECT oi_basket_number, oi_goods_sk, oi_day_sk, 1 FROM order_item WHERE oi_basket_number % 5 = 0 AND oi_qty = 2`,
	)
	cat := runInferenceSampled(t, path, 15_000)
	keys, byKey := inferredKeys(t, cat)
	wantKeys(t, keys, []string{
		"order_item(oi_day_sk)->day_dim(dd_day_sk)",
		"order_item(oi_goods_sk)->goods(g_goods_sk)",
		"order_item(oi_home_demo_sk)->home_demo(hm_demo_sk)",
		"order_item(oi_person_demo_sk)->person_demo(pd_demo_sk)",
		"order_item(oi_shop_sk)->shop(sh_shop_sk)",
		"order_return(or_basket_number,or_goods_sk)->order_item(oi_basket_number,oi_goods_sk)",
		"order_return(or_day_sk)->day_dim(dd_day_sk)",
	})
	// The return's goods are its sale's, said by the composite reference.
	wantConfirmed(t, cat, "order_return(or_goods_sk)->goods(g_goods_sk)")
	ev := strings.Join(byKey["order_return(or_basket_number,or_goods_sk)->order_item(oi_basket_number,oi_goods_sk)"].Evidence, "; ")
	if !strings.Contains(ev, "order_item's key (oi_basket_number, oi_goods_sk) declared nowhere: its tuples were checked unique") {
		t.Errorf("composite evidence: %s", ev)
	}
}

// dataVault is an invented hospital warehouse in Data Vault 2.0's
// convention (hash keys in text, suffixed _hk; hubs, links, satellites),
// loaded once, so that every satellite holds one row per key and a load
// time equal on every row. keys declares each table's primary key (a
// satellite's is its key and the load time), as a warehouse that keeps
// them would. Traps:
//   - each satellite's key holds exactly its hub's or link's keys, and
//     is unique: the convention (sat_) says which table extends which;
//   - sat_patient_ward and lnk_patient_ward are named by the same words;
//   - lnk_patient_gp holds one row per patient, so its patient_hk is
//     unique too, and is named after the patients, not after the link;
//   - with keys declared, the load time pads every reference to a
//     satellite's key of two columns.
func dataVault(t *testing.T, keys bool) string {
	t.Helper()
	pk := func(cols string) string {
		if !keys {
			return ""
		}
		return ", PRIMARY KEY (" + cols + ")"
	}
	// hk is a hash-like key of entity e's n-th business key.
	hk := func(e, n string) string {
		return fmt.Sprintf(`printf('%%08x%%08x', ((%s) * 2654435761 + %s) %% 4294967291, ((%s) * 40503 + 7 * %s) %% 4294967291)`, n, e, n, e)
	}
	path := filepath.Join(t.TempDir(), "vault.db")
	stmts := []string{
		`CREATE TABLE hub_patient (patient_hk TEXT, patient_no INTEGER, load_date TEXT, rec_src TEXT` + pk("patient_hk") + `)`,
		`CREATE TABLE hub_ward (ward_hk TEXT, ward_code TEXT, load_date TEXT, rec_src TEXT` + pk("ward_hk") + `)`,
		`CREATE TABLE hub_physician (physician_hk TEXT, staff_no INTEGER, load_date TEXT, rec_src TEXT` + pk("physician_hk") + `)`,
		`CREATE TABLE lnk_patient_ward (patient_ward_hk TEXT, patient_hk TEXT, ward_hk TEXT, load_date TEXT, rec_src TEXT` + pk("patient_ward_hk") + `)`,
		`CREATE TABLE lnk_patient_gp (patient_gp_hk TEXT, patient_hk TEXT, physician_hk TEXT, load_date TEXT, rec_src TEXT` + pk("patient_gp_hk") + `)`,
		`CREATE TABLE sat_patient (patient_hk TEXT, load_date TEXT, full_name TEXT, birth_year INTEGER, hash_diff TEXT` + pk("patient_hk, load_date") + `)`,
		`CREATE TABLE sat_ward (ward_hk TEXT, load_date TEXT, beds INTEGER, floor INTEGER` + pk("ward_hk, load_date") + `)`,
		`CREATE TABLE sat_patient_ward (patient_ward_hk TEXT, load_date TEXT, admitted TEXT, nights INTEGER` + pk("patient_ward_hk, load_date") + `)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 400)
			INSERT INTO hub_patient SELECT ` + hk("1", "i") + `, 50000 + i, '2026-01-05 02:00:00', 'pas' FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 14)
			INSERT INTO hub_ward SELECT ` + hk("2", "i") + `, 'W' || i, '2026-01-05 02:00:00', 'pas' FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 60)
			INSERT INTO hub_physician SELECT ` + hk("3", "i") + `, 900 + i, '2026-01-05 02:00:00', 'hr' FROM n`,
		// Stays: patient 1 + i % 400 on ward 1 + i % 14, the i-th stay.
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 1200)
			INSERT INTO lnk_patient_ward SELECT ` + hk("4", "i") + `, ` + hk("1", "1 + i % 400") + `, ` + hk("2", "1 + (i * 5) % 14") + `, '2026-01-05 02:00:00', 'pas' FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 400)
			INSERT INTO lnk_patient_gp SELECT ` + hk("5", "i") + `, ` + hk("1", "i") + `, ` + hk("3", "1 + (i * 7) % 60") + `, '2026-01-05 02:00:00', 'gp' FROM n`,
		`INSERT INTO sat_patient SELECT patient_hk, load_date, 'patient ' || patient_no, 1930 + patient_no % 80, substr(patient_hk, 3) FROM hub_patient`,
		`INSERT INTO sat_ward SELECT ward_hk, load_date, 10 + length(ward_code) * 3, length(ward_code) FROM hub_ward`,
		`INSERT INTO sat_patient_ward SELECT patient_ward_hk, load_date, date('2025-01-01', '+' || (rowid % 300) || ' days'), 1 + rowid % 9 FROM lnk_patient_ward`,
	}
	expertstest.SQLite(t, path, stmts...)
	return path
}

// TestInferDataVault: every link's and satellite's reference of the
// invented vault, and nothing else, with keys declared or not.
func TestInferDataVault(t *testing.T) {
	want := []string{
		"lnk_patient_gp(patient_hk)->hub_patient(patient_hk)",
		"lnk_patient_gp(physician_hk)->hub_physician(physician_hk)",
		"lnk_patient_ward(patient_hk)->hub_patient(patient_hk)",
		"lnk_patient_ward(ward_hk)->hub_ward(ward_hk)",
		"sat_patient(patient_hk)->hub_patient(patient_hk)",
		"sat_patient_ward(patient_ward_hk)->lnk_patient_ward(patient_ward_hk)",
		"sat_ward(ward_hk)->hub_ward(ward_hk)",
	}
	for _, keys := range []bool{false, true} {
		t.Run(fmt.Sprintf("keys=%v", keys), func(t *testing.T) {
			cat := runInference(t, dataVault(t, keys))
			got, _ := inferredKeys(t, cat)
			wantKeys(t, got, want)
			if keys {
				return
			}
			// The reverse of a kept reference scored above the bar; its
			// ledger entry says why it is no relationship, truthfully.
			key := catalog.RelationshipKey("lnk_patient_ward", []string{"patient_ward_hk"}, "sat_patient_ward", []string{"patient_ward_hk"})
			h, err := cat.Get(context.Background(), catalog.KindHypothesis, hypotheses.ID("ref", key))
			if err != nil {
				t.Fatal(err)
			}
			why := h.Evidence[len(h.Evidence)-1]
			if !strings.Contains(why, "not kept") || !strings.Contains(why, "sat_patient_ward.patient_ward_hk is the one that references the other") {
				t.Errorf("%s: last evidence %q", key, why)
			}
		})
	}
}

// firstRowsSource is a SQLite source whose dialect says, as Trino's does,
// that its only sample of a large table is its first rows
// (Capabilities.LimitSample).
type firstRowsSource struct{ *sqlite.Source }

type firstRowsDialect struct{ sqlite.Dialect }

func (firstRowsDialect) Capabilities() warehouse.Capabilities {
	c := sqlite.Dialect{}.Capabilities()
	c.LimitSample = true
	return c
}

func (firstRowsSource) Dialect() warehouse.Dialect { return firstRowsDialect{} }

// TestInferNoLookupIntoFirstRows: on an engine whose only sample is a
// table's first rows, a parent read through a sample is not searched by
// its key, which that engine plans as a join reading it whole: the
// reference to it is left unchecked, saying why, and not accepted.
func TestInferNoLookupIntoFirstRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "firstrows.db")
	expertstest.SQLite(t, path,
		`CREATE TABLE account (account_id INTEGER PRIMARY KEY, opened TEXT)`,
		`CREATE TABLE payment (payment_id INTEGER PRIMARY KEY, account_id INTEGER, amount REAL)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 3000) INSERT INTO account SELECT i, '2026-01-01' FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 200) INSERT INTO payment SELECT i, 1 + (i * 7) % 3000, i * 1.5 FROM n`,
	)
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	s := firstRowsSource{src}
	cat := expertstest.Catalog(t)
	tables := expertstest.Tables(t, s)
	var q atomic.Int64
	for it := 1; it <= 4; it++ {
		env := experts.NewEnv(s, cat, "r", it, 1, tables, experts.Options{SampleRows: 100, IgnoreDeclaredFKs: true}, &q)
		expertstest.RunTasks(t, ctx, env, structural.New(), relations.New(), statistical.New())
	}
	keys, _ := inferredKeys(t, cat)
	if len(keys) != 0 {
		t.Errorf("inferred %q: want nothing checked against the sampled account table", keys)
	}
	h, err := cat.Get(ctx, catalog.KindHypothesis, hypotheses.ID("ref", "payment(account_id)->account(account_id)"))
	if err != nil {
		t.Fatalf("no ledger entry for payment → account: %v", err)
	}
	if ev := strings.Join(h.Evidence, "; "); !strings.Contains(ev, "not checked: looking its values up in the key on this engine would read account") {
		t.Errorf("payment → account evidence: %s", ev)
	}
}
