package relations_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
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
	"github.com/discover-db/discover/hypotheses"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse/sqlite"
)

func TestMatchName(t *testing.T) {
	cases := []struct {
		child, col, parent, key string
		rule                    string // "" = no match
	}{
		// named like the target's key, in every spelling
		{"track", "album_id", "album", "album_id", "exact"},
		{"Invoice", "VendorId", "Vendor", "VendorId", "exact"},
		{"Invoice", "vendorID", "Vendor", "VendorId", "exact"},
		{"Enrolls", "crsid", "Course", "CrsID", "exact"},
		{"Rentals", "Kiosk_ID_2", "kiosk", "Kiosk_ID", "exact"},
		// the target's table name plus a key suffix: plural, prefixes, fk_/id_
		{"permit", "surveyor_id", "surveyor", "id", "entity"},
		{"orders", "CustomerID", "tbl_Customers", "ID", "entity"},
		// and suffixes of the same conventions
		{"sales_fact", "customer_id", "customer_dim", "id", "entity"},
		{"sales_fact", "product_key", "product_dim", "key", "entity"},
		{"orders", "region_id", "region_lkp", "id", "entity"},
		{"products", "category_id", "categories", "id", "entity"},
		{"orders", "fk_customer", "customers", "id", "entity"},
		{"orders", "id_customer", "customers", "id", "entity"},
		{"orders", "person_id", "people", "id", "entity"},
		{"invoices", "customer_no", "customers", "id", "entity"},
		{"orders", "customer_key", "dim_customer", "customer_key", "exact"},
		{"links", "gateway_id", "Mobile_payment_gateway", "id", "entity"},
		{"auth_permission", "content_type_id", "django_content_type", "id", "entity"}, // the words after an application's namespace
		{"wp_posts", "author", "wp_users", "ID", "actor"},
		// a key suffix glued to the target's words, one lowercase word
		{"lms_enrolments", "userid", "lms_user", "id", "entity"},
		{"accounts", "homesiteid", "home_site", "id", "entity"},
		{"audit_log", "realuserid", "users", "id", "role"},
		{"payments", "paid", "pa", "id", ""},     // two letters of a table's word: too short to read apart
		{"payments", "paid", "payers", "id", ""}, // no target's word before the suffix
		{"forms", "valid", "values", "id", ""},
		// roles: a qualifier before the target's name
		{"shipments", "origin_depot_id", "depots", "id", "role"},
		{"vessels", "builder_company_id", "Partner_Companies", "company_id", "role"},
		{"incident_log", "logged_by_staff_id", "Staff", "staff_id", "role"},
		{"invoices", "billing_customer_id", "crm_customers", "id", "role"}, // a module's table
		{"invoices", "billing_type_id", "order_types", "id", ""},           // a generic word names no entity
		{"employees", "manager_id", "employees", "employee_id", "self_role"},
		{"nodes", "parent_id", "nodes", "id", "self_role"},
		// the table's own word and one more, in a language no list knows
		{"categorias", "id_categoria_padre", "categorias", "id_categoria", "self_qualified"},
		{"Kategorien", "kategorie_eltern_id", "Kategorien", "kategorie_id", "self_qualified"},
		{"orders", "order_status_id", "orders", "order_id", ""},                        // a generic word: the status's kind
		{"Customers", "BillToCustomerID", "Customers", "CustomerID", "self_qualified"}, // a role of several words before the own entity
		// the entity first, then the role it plays (an ORM's convention)
		{"sale_order", "partner_invoice_id", "res_partner", "id", "role_after"},
		{"stock_move", "location_dest_id", "stock_location", "id", "role_after"},
		{"product_template", "uom_po_id", "uom_uom", "id", "role_after"},
		{"wp_term_taxonomy", "term_taxonomy_id", "wp_terms", "term_id", ""},   // its own table's key, after the namespace
		{"orders", "customer_status_id", "customers", "id", "contains"},       // a kind of status: no role after the customer, only the word inside
		{"orders", "customer_name_id", "customers", "id", "contains"},         // a name's key: likewise
		{"accounts", "bill_to_account_type_id", "accounts", "account_id", ""}, // not the entity's last: a kind of account
		{"accounts", "type_account_id", "accounts", "account_id", ""},         // a generic word names no row
		{"Clerk", "ReportsTo", "Clerk", "ClerkId", "self_role"},
		{"nodes", "parent", "nodes", "id", "self_role"},
		{"Playlist_Entries", "previous_entry_id", "Playlist_Entries", "playlist_entry_id", "self_role"},
		// synonyms and abbreviations of the target's entity, a little weaker
		{"ticket_sales", "client_ref", "customers", "customer_id", "synonym"},
		{"rentals", "customer_id", "clients", "client_id", "synonym"},
		{"audits", "staff_id", "employees", "emp_no", "synonym"},
		{"orders", "vendor", "suppliers", "id", "synonym"},
		{"payroll", "emp_no", "employees", "emp_no", "exact"},    // spelled alike: no synonym needed
		{"clients", "client_id", "customers", "customer_id", ""}, // clients' own key, whatever the synonym
		// who did something: a key of a table of people
		{"maintenance", "approved_by", "employees", "emp_no", "actor"},
		{"documents", "created_by_id", "app_users", "id", "actor"},
		{"tickets", "signed_off_by", "staff", "staff_id", "actor"},
		{"documents", "created_by", "products", "id", ""}, // products are no people
		{"documents", "by", "users", "id", ""},
		// a role the person plays for the row: a key of a table of people who act
		{"tickets", "assignee_id", "staff", "staff_no", "actor"},
		{"accounts", "account_rep_id", "employees", "id", "actor"},
		{"theses", "advisor", "faculty", "fac_no", "actor"},
		{"wards", "head", "physicians", "emp_no", "actor"},
		{"projects", "sponsor", "customers", "id", ""},   // customers are people, not people who act
		{"routes", "lead_time", "staff", "staff_no", ""}, // a measure, not a role
		{"teams", "reviewer_name", "users", "id", ""},    // a role's name, not its key
		{"vehicles", "owner_id", "users", "id", ""},      // an owner may be a company: no role
		// one kind of person's key among the persons' (a party model's subtype)
		{"patients", "patient_id", "persons", "person_id", "supertype"},
		{"applicants", "applicant_no", "parties", "party_no", "supertype"},
		{"orders", "order_id", "persons", "person_id", ""},     // orders are no people
		{"persons", "person_id", "patients", "patient_id", ""}, // the persons are no kind of patient
		{"patients", "name_id", "persons", "person_id", ""},    // not the patients' own key
		// the entity's words shortened: initials, then the start of the last
		{"visits", "pdemo_sk", "person_demographics", "demo_sk", "abbreviation"},
		{"visits", "home_pdemo_sk", "person_demographics", "demo_sk", "abbreviation"},
		{"parcels", "wareh_id", "warehouse", "id", "abbreviation"},
		{"parcels", "war_id", "warehouse", "id", ""}, // three letters of one word: too short
		{"visits", "pd_sk", "person_demographics", "demo_sk", ""},
		// words shortened one by one: a start, or a contraction (naming.Abbreviates)
		{"catalog_variants", "catalog_tmpl_id", "catalog_template", "id", "abbreviation"},
		{"stock_lines", "categ_id", "stock_category", "id", "abbreviation"},
		{"parcels", "dest_pkg_id", "package", "id", "abbreviation"}, // a role over it
		{"parcels", "pkg_id", "packages", "pkg_id", "exact"},        // spelled as the key: no abbreviation needed
		{"stock_lines", "cat_id", "stock_category", "id", ""},       // three letters of a start: too short
		{"staff", "mgr", "staff", "staff_no", "self_role"},          // a self role shortened
		{"parts", "mgr", "parts", "part_no", ""},                    // a manager links people, not parts
		// a word that stands for several (naming.Expand)
		{"invoices", "create_uid", "base_users", "id", "role"},
		// the bare entity, and the entity inside a longer name
		{"fixture", "Squad", "squad", "Squad_id", "bare"},
		{"Booking", "Cabin", "Cabin", "CabinNumber", "bare"},
		{"race", "Winning_Jockey", "jockey", "Jockey_Id", "contains"},
		// schemas in languages that inflect at the end of a word: a table
		// in the plural, a reference in the singular
		{"rechnungen", "kunde_id", "kunden", "id", "inflected"},
		{"ordini", "cliente_id", "clienti", "id", "inflected"},
		{"rechnungen", "lieferant", "lieferanten", "id", "inflected"},
		{"zahlungen", "rechnung_nr", "rechnungen", "rechnungen_nr", "inflected"},
		{"orders", "car_id", "cards", "id", ""},          // too short to tell an inflection from another word
		{"kunden", "kunde_id", "kundenkarten", "id", ""}, // the kunden's own key
		// not references
		{"vehicles", "seats", "depots", "id", ""},
		{"order_items", "product_quantity", "products", "product_id", ""},
		{"arenas", "away_matches", "matches", "match_id", ""}, // a plural counts matches
		{"ledgers", "open_invoices", "invoice", "id", ""},
		{"visits", "Invoices", "invoices", "invoice_no", "bare"}, // the table's own name holds one of its keys
		{"order_items", "order_item_id", "orders", "order_id", ""},
		{"depot", "Depot_ID", "loyalty_register_depot", "Member_ID", ""},
		{"depots", "id", "vehicles", "id", ""},
		{"employees", "name", "employees", "employee_id", ""},
		{"employees", "manager_id", "managers_log", "entry_id", ""},
		// names differing only in case are two tables (PostgreSQL's "Users"
		// and users): a reference between them is no self reference
		{"Users", "login_user_id", "users", "id", "role"},
		{"orders", "Users_id", "Users", "id", "entity"},
		// a self role's word leading a measure
		{"trades", "lead_count", "trades", "trade_id", ""},
		{"teams", "head_count", "teams", "id", ""},
		{"clinic", "Manager_name", "clinic", "Clinic_ID", ""},
		{"film", "Original_air_date", "film", "id", ""},
	}
	for _, c := range cases {
		m := relations.MatchName(c.child, c.col, c.parent, c.key)
		if m.Rule != c.rule {
			t.Errorf("%s.%s ~ %s.%s: rule %q (%.2f), want %q", c.child, c.col, c.parent, c.key, m.Rule, m.Score, c.rule)
		}
		if c.rule != "" && (m.Score < 0.5 || m.Score > 1) {
			t.Errorf("%s.%s ~ %s.%s: score %.2f out of range", c.child, c.col, c.parent, c.key, m.Score)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func prof(table, col string, rows, distinct int64, min, max string) *catalog.ProfileDoc {
	p := &catalog.ProfileDoc{Table: table, Column: col, Rows: rows, DistinctCount: ptr(distinct), NullFraction: ptr(0.0),
		Min: ptr(min), Max: ptr(max), Mean: ptr(1.0)}
	return p
}

func cand(child, col string, cp *catalog.ProfileDoc, parent, key string, pp *catalog.ProfileDoc) relations.Candidate {
	return relations.Candidate{
		Child:  relations.Column{Table: child, Name: col, Type: "INTEGER", Profile: cp},
		Parent: relations.Column{Table: parent, Name: key, Type: "INTEGER", Profile: pp, PK: true, Declared: true},
		Name:   relations.MatchName(child, col, parent, key),
	}
}

// TestSiblingKeysAreNoReference: two tables' own keys named otherwise
// (here by their tables' column prefixes) link only as a one-to-one
// extension: the name is the parent's and not the child's, or the child's
// table is named after the parent's. Two dimensions whose keys reduce to
// the same word (hd_demo_sk, cd_demo_sk) are siblings. Keys spelled alike
// are candidates both ways, the data and the tables' sizes settle them,
// unless the name is what both tables' rows are (meta_id of postmeta and
// of commentmeta).
func TestSiblingKeysAreNoReference(t *testing.T) {
	pk := func(table, name string) relations.Column {
		return relations.Column{Table: table, Name: name, Type: "INTEGER", PK: true, Declared: true}
	}
	other := func(table, name string) relations.Column {
		return relations.Column{Table: table, Name: name, Type: "TEXT"}
	}
	cols := []relations.Column{
		pk("household_demographics", "hd_demo_sk"), other("household_demographics", "hd_buy_potential"),
		pk("customer_demographics", "cd_demo_sk"), other("customer_demographics", "cd_gender"),
		pk("customer", "c_customer_sk"), other("customer", "c_name"),
		pk("customer_details", "cdt_customer_sk"), other("customer_details", "cdt_notes"),
		pk("film", "film_id"), other("film", "title"),
		pk("film_text", "film_id"), other("film_text", "body"),
		// Keys spelled alike and named after what both tables' rows are:
		// each one's own numbering.
		pk("wp_postmeta", "meta_id"), other("wp_postmeta", "meta_value"),
		pk("wp_commentmeta", "meta_id"), other("wp_commentmeta", "meta_value"),
		pk("order_meta", "meta_id"), other("order_meta", "meta_value"),
		// Spelled alike and named after neither: the data decides.
		pk("accounts", "custid"), other("accounts", "name"),
		pk("checking", "custid"), other("checking", "balance"),
	}
	var got []string
	for _, c := range relations.Candidates(cols) {
		got = append(got, c.Key())
	}
	sort.Strings(got)
	want := []string{
		"accounts(custid)->checking(custid)",
		"checking(custid)->accounts(custid)",
		"customer_details(cdt_customer_sk)->customer(c_customer_sk)",
		"film(film_id)->film_text(film_id)",
		"film_text(film_id)->film(film_id)",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("candidates %q, want %q", got, want)
	}
}

func TestScore(t *testing.T) {
	depots := prof("depots", "id", 40, 40, "1", "40")
	cases := []struct {
		name       string
		c          relations.Candidate
		in         relations.Inclusion
		accept     bool
		orphans    float64
		evidence   string
		cardinal   string
		confidence [2]float64
	}{
		{"clean reference", cand("shipments", "depot_id", prof("shipments", "depot_id", 500, 40, "1", "40"), "depots", "id", depots),
			relations.Inclusion{ChildDistinct: 40, NonNull: 500}, true, 0, "inclusion 1.000 of 40 distinct values", "one_to_many", [2]float64{0.9, 0.99}},
		{"dirty key, 98% contained", cand("shipments", "depot_id", prof("shipments", "depot_id", 100, 41, "1", "99"), "depots", "id", depots),
			relations.Inclusion{ChildDistinct: 41, OrphanDistinct: 1, NonNull: 100, OrphanRows: 2}, true, 0.02, "a dirty key", "one_to_many", [2]float64{0.7, 0.95}},
		{"decoy: seats 2..9 in depots 1..40, weak name", relations.Candidate{
			Child:  relations.Column{Table: "vehicles", Name: "depot_seats", Profile: prof("vehicles", "depot_seats", 100, 8, "2", "9")},
			Parent: relations.Column{Table: "depots", Name: "id", Profile: depots, PK: true, Declared: true},
			Name:   relations.NameMatch{Score: 0.5, Rule: "contains"}},
			relations.Inclusion{ChildDistinct: 8, NonNull: 100}, false, 0, "coincidence", "one_to_many", [2]float64{0, 0.6}},
		{"decoy: no name at all", relations.Candidate{
			Child:  relations.Column{Table: "vehicles", Name: "seats", Profile: prof("vehicles", "seats", 100, 8, "2", "9")},
			Parent: relations.Column{Table: "depots", Name: "id", Profile: depots, PK: true, Declared: true}},
			relations.Inclusion{ChildDistinct: 8, NonNull: 100}, false, 0, "coincidence", "one_to_many", [2]float64{0, 0.6}},
		// An ordinal (a chapter's page numbers 1..108, every one of them)
		// under a key numbered 1..2000, named after a table of pages of
		// another kind: the values' shape outweighs a weak name.
		{"ordinal under a weak name", relations.Candidate{
			Child:  relations.Column{Table: "chapter", Name: "page_no", Profile: prof("chapter", "page_no", 12000, 108, "1", "108")},
			Parent: relations.Column{Table: "web_page", Name: "id", Profile: prof("web_page", "id", 2000, 2000, "1", "2000"), PK: true, Declared: true},
			Name:   relations.NameMatch{Score: 0.7, Rule: "entity"}},
			relations.Inclusion{ChildDistinct: 108, NonNull: 12000, MaxChildren: 111}, false, 0, "an ordinal's values: every integer 1..108", "one_to_many", [2]float64{0, 0.6}},
		// The same values under a strong name: the first 120 of the key's
		// parents, all referenced.
		{"the first parents under a strong name", relations.Candidate{
			Child:  relations.Column{Table: "chapter", Name: "web_page_id", Profile: prof("chapter", "web_page_id", 3000, 120, "1", "120")},
			Parent: relations.Column{Table: "web_page", Name: "id", Profile: prof("web_page", "id", 5000, 5000, "1", "5000"), PK: true, Declared: true},
			Name:   relations.NameMatch{Score: 0.85, Rule: "entity"}},
			relations.Inclusion{ChildDistinct: 120, NonNull: 3000}, true, 0, "coincidence", "one_to_many", [2]float64{0.6, 0.9}},
		// A calendar key's values, far from the key's first, in its low
		// half: no ordinal.
		{"dates in the low half of a calendar", relations.Candidate{
			Child:  relations.Column{Table: "site", Name: "opened_day_sk", Profile: prof("site", "opened_day_sk", 3000, 1400, "2449315", "2450714")},
			Parent: relations.Column{Table: "day_dim", Name: "day_sk", Profile: prof("day_dim", "day_sk", 73049, 73049, "2415022", "2488070"), PK: true, Declared: true},
			Name:   relations.NameMatch{Score: 0.75, Rule: "role"}},
			relations.Inclusion{ChildDistinct: 1400, NonNull: 3000}, true, 0, "coincidence", "one_to_many", [2]float64{0.6, 0.9}},
		{"refuted: half the values missing", cand("shipments", "depot_id", prof("shipments", "depot_id", 100, 40, "1", "80"), "depots", "id", depots),
			relations.Inclusion{ChildDistinct: 40, OrphanDistinct: 20, NonNull: 100, OrphanRows: 50}, false, 0.5, "50.0% of non-NULL rows have no parent", "one_to_many", [2]float64{0, 0.5}},
		{"one to one", cand("depot_details", "depot_id", prof("depot_details", "depot_id", 40, 40, "1", "40"), "depots", "id", depots),
			relations.Inclusion{ChildDistinct: 40, NonNull: 40}, true, 0, "child range 1..40 within parent 1..40", "one_to_one", [2]float64{0.9, 0.99}},
		{"nothing to check", cand("shipments", "depot_id", prof("shipments", "depot_id", 100, 0, "1", "1"), "depots", "id", depots),
			relations.Inclusion{}, false, 0, "no non-NULL value", "one_to_many", [2]float64{0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := relations.Score(c.c, c.in)
			if s.Accept != c.accept {
				t.Errorf("accept %v (confidence %.2f), want %v; evidence %q", s.Accept, s.Confidence, c.accept, s.Evidence)
			}
			if math.Abs(s.OrphanFraction-c.orphans) > 1e-9 {
				t.Errorf("orphan fraction %v, want %v", s.OrphanFraction, c.orphans)
			}
			if s.Confidence < c.confidence[0] || s.Confidence > c.confidence[1] {
				t.Errorf("confidence %.2f outside %v", s.Confidence, c.confidence)
			}
			if s.Cardinality != c.cardinal {
				t.Errorf("cardinality %s, want %s", s.Cardinality, c.cardinal)
			}
			if !strings.Contains(strings.Join(s.Evidence, "; "), c.evidence) {
				t.Errorf("evidence %q lacks %q", s.Evidence, c.evidence)
			}
		})
	}
}

func TestPrune(t *testing.T) {
	depots := prof("depots", "id", 40, 40, "1", "40")
	if ok, why := relations.Prune(cand("s", "depot_id", prof("s", "depot_id", 900, 300, "1", "300"), "depots", "id", depots)); ok {
		t.Error("300 distinct values cannot fit in a 40-value key")
	} else if !strings.Contains(why, "distinct") {
		t.Errorf("reason %q", why)
	}
	if ok, _ := relations.Prune(cand("s", "depot_id", prof("s", "depot_id", 90, 30, "100", "130"), "depots", "id", depots)); ok {
		t.Error("ranges 100..130 and 1..40 do not overlap")
	}
	if ok, why := relations.Prune(cand("s", "depot_id", prof("s", "depot_id", 90, 30, "1", "30"), "depots", "id", depots)); !ok {
		t.Errorf("a plausible candidate was pruned: %s", why)
	}
}

func TestSelectKeepsOneTargetPerColumn(t *testing.T) {
	depots := prof("depots", "id", 40, 40, "1", "40")
	hubs := prof("hubs", "depot_id", 40, 40, "1", "40")
	a := relations.Score(cand("s", "depot_id", prof("s", "depot_id", 90, 30, "1", "40"), "depots", "id", depots), relations.Inclusion{ChildDistinct: 30, NonNull: 90})
	b := relations.Score(cand("s", "depot_id", prof("s", "depot_id", 90, 30, "1", "40"), "hubs", "depot_id", hubs), relations.Inclusion{ChildDistinct: 30, NonNull: 90})
	kept, amb := relations.Select([]relations.Scored{a, b})
	if len(kept) != 1 {
		t.Fatalf("kept %d targets for one column", len(kept))
	}
	if len(amb) != 1 {
		t.Errorf("two near-equal targets should be reported as ambiguous, got %d", len(amb))
	}
}

// TestSelectPrefersTheTighterKey: two targets named alike for a column
// (author_id: users and people both hold people who act) that both hold
// its values tie on their names; the one whose keys the values nearly fill
// is kept, whichever comes first, when drawing the values among the other's
// keys would have missed its extra keys only by chance. A few values prove
// nothing.
func TestSelectPrefersTheTighterKey(t *testing.T) {
	users := prof("users", "id", 400, 400, "1", "400")
	people := prof("people", "id", 500, 500, "1", "500")
	score := func(child *catalog.ProfileDoc, parent string, p *catalog.ProfileDoc, d int64) relations.Scored {
		return relations.Score(cand("issues", "author_id", child, parent, "id", p), relations.Inclusion{ChildDistinct: d, NonNull: 3000})
	}
	many := prof("issues", "author_id", 3000, 287, "1", "400")
	u, p := score(many, "users", users, 287), score(many, "people", people, 287)
	if !u.Accept || !p.Accept || u.Confidence != p.Confidence {
		t.Fatalf("fixture: users %.2f (accept %v), people %.2f (accept %v)", u.Confidence, u.Accept, p.Confidence, p.Accept)
	}
	for _, order := range [][]relations.Scored{{u, p}, {p, u}} {
		if kept, _ := relations.Select(order); len(kept) != 1 || kept[0].Parent.Table != "users" {
			t.Errorf("kept %v, want issues.author_id → users", kept)
		}
	}
	// Six values among 400 of 500 keys: by chance 0.26, no proof.
	few := prof("issues", "author_id", 3000, 6, "1", "400")
	u, p = score(few, "users", users, 6), score(few, "people", people, 6)
	for _, order := range [][]relations.Scored{{u, p}, {p, u}} {
		if kept, _ := relations.Select(order); len(kept) != 1 || kept[0].Parent.Table != "people" {
			t.Errorf("kept %v, want the first by name (people) when six values prove nothing", kept)
		}
	}
}

// A column named as a table is spelled references that table when it
// holds the values, however well a synonym's table scores: a schema with
// both vendors and suppliers means vendors by vendor_id.
func TestSelectPrefersNamesAsWritten(t *testing.T) {
	child := prof("hotels", "vendor_id", 300, 60, "1", "80")
	in := relations.Inclusion{ChildDistinct: 60, NonNull: 300}
	raw := relations.Score(cand("hotels", "vendor_id", child, "hr_vendors", "hr_vendor_id", prof("hr_vendors", "hr_vendor_id", 90, 90, "1", "90")), in)
	syn := relations.Score(cand("hotels", "vendor_id", child, "suppliers", "id", prof("suppliers", "id", 90, 90, "1", "90")), in)
	if raw.Name.Rule == "synonym" || syn.Name.Rule != "synonym" || !raw.Accept || !syn.Accept {
		t.Fatalf("fixture: %s %.2f (accept %v), %s %.2f (accept %v)", raw.Name.Rule, raw.Confidence, raw.Accept, syn.Name.Rule, syn.Confidence, syn.Accept)
	}
	if syn.Confidence <= raw.Confidence {
		t.Fatalf("fixture: the synonym's target should score more (%.2f) than the one spelled alike (%.2f)", syn.Confidence, raw.Confidence)
	}
	for _, order := range [][]relations.Scored{{raw, syn}, {syn, raw}} {
		kept, _ := relations.Select(order)
		if len(kept) != 1 || kept[0].Parent.Table != "hr_vendors" {
			t.Errorf("kept %v, want hotels.vendor_id → hr_vendors only", kept)
		}
	}
	// Alone, the synonym's target is kept.
	if kept, _ := relations.Select([]relations.Scored{syn}); len(kept) != 1 {
		t.Errorf("the synonym's target alone was dropped")
	}
}

// --- integration: a small database that declares no foreign keys ---

const inferSchema = `
CREATE TABLE depots(id INTEGER PRIMARY KEY, name TEXT, city TEXT);
CREATE TABLE vehicles(vehicle_id INTEGER PRIMARY KEY, plate TEXT, home_depot_id INTEGER, seats INTEGER);
CREATE TABLE shipments(id INTEGER PRIMARY KEY, origin_depot_id INTEGER, destination_depot_id INTEGER, vehicle_ref TEXT, weight REAL);
CREATE TABLE employees(employee_id INTEGER PRIMARY KEY, name TEXT, manager_id INTEGER);
CREATE TABLE depot_employees(depot_id INTEGER, employee_id INTEGER, PRIMARY KEY(depot_id, employee_id));
CREATE TABLE deliveries(id INTEGER PRIMARY KEY, depot_id INTEGER, day TEXT);
`

func buildInferDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "infer.db")
	stmts := []string{inferSchema}
	for i := 1; i <= 40; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO depots VALUES (%d, 'depot %d', 'c%d')", i, i, i%7))
	}
	for i := 1; i <= 30; i++ {
		// seats 2..9: small integers that fit inside depots.id 1..40
		stmts = append(stmts, fmt.Sprintf("INSERT INTO vehicles VALUES (%d, 'P-%03d', %d, %d)", i, i, 1+(i*7)%20, 2+i%8))
	}
	for i := 1; i <= 200; i++ {
		// vehicle_ref is text holding the integer key of vehicles
		stmts = append(stmts, fmt.Sprintf("INSERT INTO shipments VALUES (%d, %d, %d, '%d', %d.5)", i, 1+(i*3)%40, 1+(i*11)%40, 1+(i*13)%30, i))
	}
	for i := 1; i <= 25; i++ {
		mgr := "NULL"
		if i > 1 {
			mgr = fmt.Sprint(1 + (i-2)/4) // a tree under employee 1
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO employees VALUES (%d, 'e%d', %s)", i, i, mgr))
	}
	for i := 1; i <= 60; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT OR IGNORE INTO depot_employees VALUES (%d, %d)", 1+(i*17)%40, 1+(i*7)%25))
	}
	for i := 1; i <= 100; i++ {
		d := fmt.Sprint(1 + (i*9)%40)
		if i == 50 || i == 100 {
			d = "99" // two deliveries from a depot that does not exist: 98% contained
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO deliveries VALUES (%d, %s, 'd%d')", i, d, i%5))
	}
	expertstest.SQLite(t, path, stmts...)
	return path
}

func TestInferRelationships(t *testing.T) {
	ctx := context.Background()
	src, err := sqlite.Open(ctx, buildInferDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat := expertstest.Catalog(t)
	tables := expertstest.Tables(t, src)
	var q atomic.Int64
	xs := []experts.Expert{structural.New(), relations.New(), statistical.New()}
	var ran []string
	for it := 1; it <= 4; it++ {
		env := experts.NewEnv(src, cat, "run1", it, 1, tables, experts.Options{SampleRows: 1_000_000}, &q)
		for _, x := range xs {
			tasks, err := x.Plan(ctx, env.For(x.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for _, tk := range tasks {
				ran = append(ran, tk.Name)
				if err := tk.Run(ctx); err != nil {
					t.Fatalf("%s: %v", tk.Name, err)
				}
			}
		}
	}
	if n := strings.Count(strings.Join(ran, "\n"), "infer relationships"); n != 1 {
		t.Errorf("inference ran %d times: %q", n, ran)
	}

	entries, err := cat.List(ctx, catalog.Filter{Kind: catalog.KindRelationship, RunID: "run1"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]catalog.Entry{}
	var keys []string
	for _, e := range entries {
		got[e.Key] = e
		keys = append(keys, e.Key)
	}
	sort.Strings(keys)
	want := []string{
		"deliveries(depot_id)->depots(id)",
		"depot_employees(depot_id)->depots(id)",
		"depot_employees(employee_id)->employees(employee_id)",
		"employees(manager_id)->employees(employee_id)",
		"shipments(destination_depot_id)->depots(id)",
		"shipments(origin_depot_id)->depots(id)",
		"shipments(vehicle_ref)->vehicles(vehicle_id)",
		"vehicles(home_depot_id)->depots(id)",
	}
	if strings.Join(keys, "\n") != strings.Join(want, "\n") {
		t.Fatalf("inferred:\n%s\nwant:\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}
	for _, k := range keys {
		e := got[k]
		var r catalog.RelationshipDoc
		if err := e.Decode(&r); err != nil {
			t.Fatal(err)
		}
		if r.Source != "inferred" || r.OrphanFraction == nil || r.Cardinality != "one_to_many" {
			t.Errorf("%s: %+v", k, r)
		}
		if e.Confidence < relations.AcceptScore || !strings.Contains(strings.Join(e.Evidence, "; "), "inclusion") {
			t.Errorf("%s: confidence %.2f, evidence %q", k, e.Confidence, e.Evidence)
		}
		// the check is in the ledger under the query expert's id
		h, err := cat.Get(ctx, catalog.KindHypothesis, hypotheses.ID("ref", k))
		if err != nil {
			t.Errorf("%s: no hypothesis: %v", k, err)
			continue
		}
		var hd catalog.HypothesisDoc
		_ = h.Decode(&hd)
		if hd.Subject != k || hd.TestSQL == "" {
			t.Errorf("%s: hypothesis %+v", k, hd)
		}
	}
	dirtyKey := "deliveries(depot_id)->depots(id)"
	var dirty catalog.RelationshipDoc
	_ = got[dirtyKey].Decode(&dirty)
	if math.Abs(*dirty.OrphanFraction-0.02) > 1e-9 {
		t.Errorf("dirty key orphan fraction %v, want 0.02", *dirty.OrphanFraction)
	}
	if _, err := cat.Get(ctx, catalog.KindInsight, "quality:orphans:"+dirtyKey); err != nil {
		t.Errorf("no quality insight for the dirty key: %v", err)
	}
	// patterns ran over the inferred relationships
	pats, _ := cat.List(ctx, catalog.Filter{Kind: catalog.KindPattern, RunID: "run1"})
	var pk []string
	for _, p := range pats {
		pk = append(pk, p.Key)
	}
	for _, w := range []string{"hierarchy:employees", "bridge_table:depot_employees,depots,employees"} {
		if !strings.Contains(strings.Join(pk, " "), w) {
			t.Errorf("pattern %s missing from %q", w, pk)
		}
	}
	// the query expert does not test again what inference checked
	env := experts.NewEnv(src, cat, "run1", 5, 3, tables, experts.Options{SampleRows: 1_000_000}, &q)
	tasks, err := query.New().Plan(ctx, env.For(query.Name))
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range tasks {
		if strings.HasPrefix(tk.Name, "test ") && strings.Contains(tk.Name, "->") {
			t.Errorf("query expert re-tests %s", tk.Name)
		}
	}
}

// With declarations honoured, inference does not repeat a declared key, and
// with IgnoreDeclaredFKs the declared one is not saved at all.
func TestInferMergesDeclared(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "d.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{"CREATE TABLE albums(album_id INTEGER PRIMARY KEY, title TEXT)",
		"CREATE TABLE tracks(id INTEGER PRIMARY KEY, album_id INTEGER REFERENCES albums(album_id))"}
	for i := 1; i <= 20; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO albums VALUES (%d, 't')", i), fmt.Sprintf("INSERT INTO tracks VALUES (%d, %d)", i, 1+i%20))
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	for _, ignore := range []bool{false, true} {
		src, err := sqlite.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
		if err != nil {
			t.Fatal(err)
		}
		tables, _ := src.Tables(ctx)
		var q atomic.Int64
		for it := 1; it <= 3; it++ {
			env := experts.NewEnv(src, cat, "r", it, 1, tables, experts.Options{IgnoreDeclaredFKs: ignore}, &q)
			for _, x := range []experts.Expert{structural.New(), relations.New(), statistical.New()} {
				tasks, _ := x.Plan(ctx, env.For(x.Name()))
				for _, tk := range tasks {
					if err := tk.Run(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		e, err := cat.Get(ctx, catalog.KindRelationship, "tracks(album_id)->albums(album_id)")
		if err != nil {
			t.Fatalf("ignore=%v: %v", ignore, err)
		}
		want := "declared"
		if ignore {
			want = "inferred"
		}
		var r catalog.RelationshipDoc
		_ = e.Decode(&r)
		if r.Source != want {
			t.Errorf("ignore=%v: source %s, want %s", ignore, r.Source, want)
		}
		cat.Close()
		src.Close()
	}
}

// pairedAlone reports whether Candidates pairs ch with k when they are the
// only columns.
func pairedAlone(ch, k relations.Column) bool {
	for _, c := range relations.Candidates([]relations.Column{ch, k}) {
		if c.Child == ch && c.Parent == k {
			return true
		}
	}
	return false
}

// Candidates looks keys up by the words of a column's name instead of
// scoring every pair; it must find exactly the pairs MatchName scores.
func TestCandidatesMatchEveryPair(t *testing.T) {
	var cols []relations.Column
	add := func(table, col string, key bool) {
		p := prof(table, col, 10, 10, "1", "10")
		if !key {
			p.DistinctCount = ptr(int64(3)) // not unique: no key by profile
		}
		cols = append(cols, relations.Column{Table: table, Name: col, Type: "INTEGER", Profile: p, PK: key, Declared: key && len(cols)%3 != 0})
	}
	for _, n := range []string{"invoice", "vendor", "Invoice", "Vendor", "Enrolls", "Course", "Rentals", "kiosk", "permit", "surveyor",
		"orders", "tbl_Customers", "products", "categories", "customers", "people", "invoices", "dim_customer", "links",
		"Mobile_payment_gateway", "shipments", "depots", "vessels", "Partner_Companies", "incident_log", "Staff", "employees",
		"nodes", "Clerk", "fixture", "squad", "Booking", "Cabin", "race", "jockey", "vehicles", "order_items", "depot",
		"loyalty_register_depot", "managers_log", "hangar", "station", "reading", "clients", "app_users", "ticket_sales",
		"maintenance", "suppliers"} {
		add(n, "id", true)
	}
	for _, c := range [][2]string{{"invoice", "vendor_id"}, {"Invoice", "VendorId"}, {"Invoice", "vendorID"}, {"Vendor", "VendorId"}, {"Enrolls", "crsid"},
		{"Course", "CrsID"}, {"Rentals", "Kiosk_ID_2"}, {"kiosk", "Kiosk_ID"}, {"permit", "surveyor_id"}, {"orders", "CustomerID"},
		{"tbl_Customers", "ID"}, {"products", "category_id"}, {"orders", "fk_customer"}, {"orders", "id_customer"}, {"orders", "person_id"},
		{"invoices", "customer_no"}, {"orders", "customer_key"}, {"dim_customer", "customer_key"}, {"links", "gateway_id"},
		{"shipments", "origin_depot_id"}, {"vessels", "builder_company_id"}, {"Partner_Companies", "company_id"},
		{"incident_log", "logged_by_staff_id"}, {"Staff", "staff_id"}, {"employees", "manager_id"}, {"employees", "employee_id"},
		{"nodes", "parent_id"}, {"Clerk", "ReportsTo"}, {"Clerk", "ClerkId"}, {"fixture", "Squad"}, {"squad", "Squad_id"},
		{"Booking", "Cabin"}, {"Cabin", "CabinNumber"}, {"race", "Winning_Jockey"}, {"jockey", "Jockey_Id"}, {"vehicles", "seats"},
		{"order_items", "product_quantity"}, {"order_items", "order_item_id"}, {"depot", "Depot_ID"},
		{"loyalty_register_depot", "Member_ID"}, {"managers_log", "entry_id"}, {"hangar", "hangarid"}, {"reading", "station_id"},
		{"station", "station_id"}, {"orders", "member_in_charge_id"}, {"ticket_sales", "client_ref"}, {"clients", "client_id"},
		{"maintenance", "approved_by"}, {"maintenance", "signed_off_by_id"}, {"Staff", "emp_no"}, {"employees", "emp_no"},
		{"orders", "vendor"}, {"app_users", "created_by"}, {"orders", "cust_no"}} {
		add(c[0], c[1], strings.HasSuffix(strings.ToLower(c[1]), "id") && len(cols)%2 == 0)
	}
	for _, st := range genScale(120).tables {
		add(st.name, st.key.name, true)
		for i, c := range st.cols {
			add(st.name, c.name, i%5 == 4)
		}
	}
	var want []string
	ownKey := relations.OwnKeys(cols)
	for _, ch := range cols {
		for _, k := range cols {
			if !k.Key() || (strings.EqualFold(ch.Table, k.Table) && strings.EqualFold(ch.Name, k.Name)) {
				continue
			}
			m := relations.MatchName(ch.Table, ch.Name, k.Table, k.Name)
			if m.Score == 0 {
				continue
			}
			if !k.Declared && !pairedAlone(ch, k) {
				continue // the undeclared-target rule, applied by Candidates alone
			}
			if ownKey(ch) && (relations.SiblingKeys(ch, k) || m.Rule == "generic") {
				continue // and the rule of two tables' own keys
			}
			want = append(want, fmt.Sprintf("%s.%s->%s.%s %s %.2f", ch.Table, ch.Name, k.Table, k.Name, m.Rule, m.Score))
		}
	}
	var got []string
	for _, c := range relations.Candidates(cols) {
		got = append(got, fmt.Sprintf("%s.%s->%s.%s %s %.2f", c.Child.Table, c.Child.Name, c.Parent.Table, c.Parent.Name, c.Name.Rule, c.Name.Score))
	}
	if len(want) < 500 {
		t.Fatalf("only %d pairs: the fixture tests little", len(want))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Candidates found %d pairs, every pair scored %d", len(got), len(want))
		g := map[string]bool{}
		for _, s := range got {
			g[s] = true
		}
		n := 0
		for _, s := range want {
			if !g[s] {
				if n++; n < 5 {
					t.Errorf("missed %s", s)
				}
			}
		}
		w := map[string]bool{}
		for _, s := range want {
			w[s] = true
		}
		n = 0
		for _, s := range got {
			if !w[s] {
				if n++; n < 5 {
					t.Errorf("extra %s", s)
				}
			}
		}
	}
}

// runInference profiles the SQLite database at path and infers its
// relationships with the structural, relations and statistical experts,
// declared foreign keys ignored, and returns the catalog of run "r".
func runInference(t *testing.T, path string) *catalog.Catalog {
	t.Helper()
	return runInferenceSampled(t, path, 1_000_000)
}

// runInferenceSampled is runInference with tables above sampleRows rows
// profiled on a sample.
func runInferenceSampled(t *testing.T, path string, sampleRows int64) *catalog.Catalog {
	t.Helper()
	return runInferenceWith(t, path, experts.Options{SampleRows: sampleRows, IgnoreDeclaredFKs: true})
}

// runInferenceWith is runInference under opts.
func runInferenceWith(t *testing.T, path string, opts experts.Options) *catalog.Catalog {
	t.Helper()
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cat := expertstest.Catalog(t)
	tables := expertstest.Tables(t, src)
	var q atomic.Int64
	for it := 1; it <= 4; it++ {
		env := experts.NewEnv(src, cat, "r", it, 1, tables, opts, &q)
		expertstest.RunTasks(t, ctx, env, structural.New(), relations.New(), statistical.New())
	}
	return cat
}

// The run's evidence counts what inference did: candidates from names,
// candidates pruned (and by what), candidates a better target settled,
// columns sketched, exact checks. Every way of sparing a check is met once
// here at least.
func TestInferStats(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stats.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{
		"CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT)",
		"CREATE TABLE crm_customers(id INTEGER PRIMARY KEY, segment TEXT)",
		"CREATE TABLE accounts(id INTEGER PRIMARY KEY, opened TEXT)",
		"CREATE TABLE regions(region_code TEXT PRIMARY KEY, name TEXT)",
		"CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INTEGER, customer_account_id INTEGER, legacy_customer_id INTEGER, qty INTEGER)",
		"CREATE TABLE invoices(id INTEGER PRIMARY KEY, customer_id INTEGER)",
		"CREATE TABLE stores(id INTEGER PRIMARY KEY, region_code INTEGER)",
		"CREATE TABLE deliveries(id INTEGER PRIMARY KEY, account_id INTEGER)",
		"CREATE TABLE tickets(id INTEGER PRIMARY KEY, customer_id INTEGER)",
	}
	for i := 0; i < 50; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO customers VALUES (%d, 'c%d')", i+1, i),
			// crm keys 3, 13, … 493: their range covers the customers' keys, their values mostly not
			fmt.Sprintf("INSERT INTO crm_customers VALUES (%d, 's%d')", 10*i+3, i%4))
	}
	for i := 1; i <= 30; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO accounts VALUES (%d, '2024-01-%02d')", i, i%28+1))
	}
	for i := 1; i <= 12; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO regions VALUES ('R-%02d', 'r%d')", i, i))
	}
	for i := 0; i < 120; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO orders VALUES (%d, %d, %d, %d, %d)", i+1, 1+(i*7)%50, 1+(i*11)%30, 5000+i%40, 1+i%9))
	}
	for i := 0; i < 80; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO invoices VALUES (%d, %d)", i+1, 1+(i*13)%50))
	}
	for i := 0; i < 20; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO stores VALUES (%d, %d)", i+1, 1+i%12))
	}
	for i := 0; i < 60; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO deliveries VALUES (%d, %d)", i+1, 1+i),
			// tickets belong to crm customers: 3, 13, … 293, 5 of them inside the customers' keys
			fmt.Sprintf("INSERT INTO tickets VALUES (%d, %d)", i+1, 10*((i*7)%30)+3))
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()
	cat := runInference(t, path)
	ctx := context.Background()
	e, err := cat.Get(ctx, catalog.KindProgress, "structural:infer")
	if err != nil {
		t.Fatal(err)
	}
	var st relations.InferStats
	if err := e.Decode(&st); err != nil {
		t.Fatal(err)
	}
	// 14 candidates: customer_id of orders, invoices and tickets to customers
	// and crm_customers (6); customer_account_id to accounts, to customers
	// (a word of it), to crm_customers (the entity, then a role it plays,
	// as partner_invoice_id) and to deliveries.account_id (unique, so a key
	// by its profile) (4); legacy_customer_id to both customer tables (2);
	// region_code to regions and account_id to accounts (2). The accounts
	// settle customer_account_id's three others (dominated).
	want := relations.InferStats{Candidates: 14, Pruned: 5, Dominated: 5, Sketched: 5, Checks: 4, Inferred: 4,
		PrunedBy: map[string]int{
			"distinct counts":      1, // 60 delivery accounts, 30 accounts
			"ranges":               2, // legacy ids 5000.. against both customer tables
			"numbers against text": 1, // stores.region_code 1..12 against 'R-01'..
			"value samples":        1, // tickets' crm customers: 5 of 30 inside customers 1..50
		}}
	got := st
	got.ProgressDoc, got.Duration = catalog.ProgressDoc{}, ""
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stats %+v, want %+v", got, want)
	}
	if got.Candidates != got.Declared+got.Pruned+got.Dominated+got.Checks {
		t.Errorf("%d candidates are not %d declared + %d pruned + %d dominated + %d checked", got.Candidates, got.Declared, got.Pruned, got.Dominated, got.Checks)
	}
	wantEv := []string{
		"14 candidates from names",
		"0 already declared",
		"5 pruned without an exact check: 1 by distinct counts, 2 by ranges, 1 by numbers against text, 1 by value samples",
		"5 left unchecked: a confirmed target of the same column scored more than they could",
		"5 columns sketched (a sample of 256 values each at most)",
		"4 exact inclusion checks",
		"4 relationships inferred in ",
	}
	if len(e.Evidence) != len(wantEv) {
		t.Fatalf("evidence %q", e.Evidence)
	}
	for i, w := range wantEv {
		if !strings.HasPrefix(e.Evidence[i], w) || (i < len(wantEv)-1 && e.Evidence[i] != w) {
			t.Errorf("evidence %d: %q, want %q", i, e.Evidence[i], w)
		}
	}
	if !strings.Contains(st.Detail, "4 checked exactly") {
		t.Errorf("detail %q", st.Detail)
	}
	// sparing the checks changed no conclusion
	rels, _ := cat.List(ctx, catalog.Filter{Kind: catalog.KindRelationship, RunID: "r"})
	var keys []string
	for _, r := range rels {
		keys = append(keys, r.Key)
	}
	sort.Strings(keys)
	wantRels := "invoices(customer_id)->customers(id) orders(customer_account_id)->accounts(id) orders(customer_id)->customers(id) tickets(customer_id)->crm_customers(id)"
	if strings.Join(keys, " ") != wantRels {
		t.Errorf("inferred %q, want %q", keys, wantRels)
	}
}

// tablePairs writes kept references as child→parent tables, sorted.
func tablePairs(kept []relations.Scored) []string {
	var out []string
	for _, s := range kept {
		out = append(out, s.Child.Table+"→"+s.Parent.Table)
	}
	sort.Strings(out)
	return out
}

// TestSelectSettlesOneToOneByTheChain: two tables keyed alike hold the
// same values, so each key was inferred to reference the other; the key's
// name (holder_no) is neither table's. Neither has more values; a third
// table extends one of them, and that one is the entity the chain leads
// to: wallets, not wallet_limits.
func TestSelectSettlesOneToOneByTheChain(t *testing.T) {
	wallets := prof("wallets", "holder_no", 50, 50, "1", "50")
	limits := prof("wallet_limits", "holder_no", 50, 50, "1", "50")
	audits := prof("wallet_audits", "holder_no", 30, 30, "1", "50")
	in := func(d int64) relations.Inclusion { return relations.Inclusion{ChildDistinct: d, NonNull: d} }
	toWallets := relations.Score(cand("wallet_limits", "holder_no", limits, "wallets", "holder_no", wallets), in(50))
	toLimits := relations.Score(cand("wallets", "holder_no", wallets, "wallet_limits", "holder_no", limits), in(50))
	audit := relations.Score(cand("wallet_audits", "holder_no", audits, "wallets", "holder_no", wallets), in(30))
	for _, s := range []relations.Scored{toWallets, toLimits, audit} {
		if !s.Accept {
			t.Fatalf("fixture: %s not accepted (%.2f)", s.Key(), s.Confidence)
		}
	}
	if toWallets.Confidence != toLimits.Confidence {
		t.Fatalf("fixture: the two directions should score alike, %.3f and %.3f", toWallets.Confidence, toLimits.Confidence)
	}
	for _, order := range [][]relations.Scored{{toWallets, toLimits, audit}, {audit, toLimits, toWallets}} {
		kept, _ := relations.Select(order)
		got := tablePairs(kept)
		if want := []string{"wallet_audits→wallets", "wallet_limits→wallets"}; !slices.Equal(got, want) {
			t.Errorf("kept %v, want %v", got, want)
		}
	}
	// Without the third table nothing tells them apart: both are kept.
	if kept, _ := relations.Select([]relations.Scored{toWallets, toLimits}); len(kept) != 2 {
		t.Errorf("kept %d of two references nothing tells apart, want both", len(kept))
	}
}

// TestSelectFollowsTheChain: transfers.holder_no holds values both
// wallets and wallet_limits hold, and scores alike against each (the key's
// name is neither table's). wallet_limits.holder_no itself references
// wallets: it is an extension's key, a copy of the entity's, so the
// transfer references the entity, wallets.
func TestSelectFollowsTheChain(t *testing.T) {
	wallets := prof("wallets", "holder_no", 50, 50, "1", "50")
	limits := prof("wallet_limits", "holder_no", 40, 40, "1", "50")
	child := prof("transfers", "holder_no", 400, 30, "1", "50")
	in := relations.Inclusion{ChildDistinct: 30, NonNull: 400}
	toLimits := relations.Score(cand("transfers", "holder_no", child, "wallet_limits", "holder_no", limits), in)
	toWallets := relations.Score(cand("transfers", "holder_no", child, "wallets", "holder_no", wallets), in)
	extends := relations.Score(cand("wallet_limits", "holder_no", limits, "wallets", "holder_no", wallets), relations.Inclusion{ChildDistinct: 40, NonNull: 40})
	for _, s := range []relations.Scored{toLimits, toWallets, extends} {
		if !s.Accept {
			t.Fatalf("fixture: %s not accepted (%.2f)", s.Key(), s.Confidence)
		}
	}
	if toLimits.Confidence != toWallets.Confidence {
		t.Fatalf("fixture: the two targets should score alike, %.3f and %.3f", toLimits.Confidence, toWallets.Confidence)
	}
	// Without the extension's own reference nothing says which is the
	// entity, and the tie goes by name: the premise that makes the chain
	// matter.
	if kept, _ := relations.Select([]relations.Scored{toLimits, toWallets}); len(kept) != 1 || kept[0].Parent.Table != "wallet_limits" {
		t.Fatalf("fixture: without the chain kept %v, want wallet_limits by name order", kept)
	}
	for _, order := range [][]relations.Scored{{toLimits, toWallets, extends}, {extends, toWallets, toLimits}} {
		kept, _ := relations.Select(order)
		got := tablePairs(kept)
		if want := []string{"transfers→wallets", "wallet_limits→wallets"}; !slices.Equal(got, want) {
			t.Errorf("kept %v, want %v", got, want)
		}
	}
	// Two keys that hold each other's values are no chain: wallets and
	// wallets_mirror, equal sets, reference each other, and the transfer
	// keeps its first target rather than following one of the two.
	mirror := prof("wallets_mirror", "holder_no", 50, 50, "1", "50")
	toMirror := relations.Score(cand("transfers", "holder_no", child, "wallets_mirror", "holder_no", mirror), in)
	there := relations.Score(cand("wallets", "holder_no", wallets, "wallets_mirror", "holder_no", mirror), relations.Inclusion{ChildDistinct: 50, NonNull: 50})
	back := relations.Score(cand("wallets_mirror", "holder_no", mirror, "wallets", "holder_no", wallets), relations.Inclusion{ChildDistinct: 50, NonNull: 50})
	kept, _ := relations.Select([]relations.Scored{toWallets, toMirror, there, back})
	for _, s := range kept {
		if s.Child.Table == "transfers" && s.Parent.Table != "wallets" {
			t.Errorf("transfers → %s, want wallets: a key that copies its twin is no chain", s.Parent.Table)
		}
	}
}

// TestScoreSupertype: patients.patient_id among persons.person_id is a
// subtype only when the values could seldom be so by chance: persons
// numbered 5001.. by tens hold 40 of 0..5400, and 30 patients' keys all
// among them prove it; persons numbered 1..400 hold every small number,
// and 30 patients numbered 1..30 merely overlap them.
func TestScoreSupertype(t *testing.T) {
	intProf := func(table, col string, rows, distinct int64, lo, hi int) *catalog.ProfileDoc {
		p := prof(table, col, rows, distinct, fmt.Sprint(lo), fmt.Sprint(hi))
		p.Mean = ptr(float64(lo+hi) / 2)
		return p
	}
	in := relations.Inclusion{ChildDistinct: 30, NonNull: 30}
	sparse := relations.Score(cand("patients", "patient_id", intProf("patients", "patient_id", 30, 30, 5001, 5391),
		"persons", "person_id", intProf("persons", "person_id", 40, 40, 5001, 5391)), in)
	if sparse.Name.Rule != "supertype" || !sparse.Accept {
		t.Errorf("sparse keys: rule %s, accept %v (%.2f), evidence %q; want a supertype reference", sparse.Name.Rule, sparse.Accept, sparse.Confidence, sparse.Evidence)
	}
	dense := relations.Score(cand("patients", "patient_id", intProf("patients", "patient_id", 30, 30, 1, 30),
		"persons", "person_id", intProf("persons", "person_id", 400, 400, 1, 400)), in)
	if dense.Accept || !strings.Contains(strings.Join(dense.Evidence, "; "), "no proof") {
		t.Errorf("keys numbered alike: accept %v (%.2f), evidence %q; want no reference", dense.Accept, dense.Confidence, dense.Evidence)
	}
}

// TestInferOrdinalIsNoKey: a second unique number beside a table's
// declared key, not named as a key (a stage's position on a board), orders
// the rows; a task's own position, 1..5 like the stages', is no reference
// to it. The stage's key is.
func TestInferOrdinalIsNoKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.db")
	stmts := []string{
		`CREATE TABLE stage (id INTEGER PRIMARY KEY, label TEXT, position INTEGER NOT NULL UNIQUE)`,
		`CREATE TABLE task (id INTEGER PRIMARY KEY, stage_id INTEGER, title TEXT, position INTEGER)`,
	}
	for s := 1; s <= 8; s++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO stage VALUES (%d, 's%d', %d)`, s, s, 9-s))
	}
	for i := 1; i <= 200; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO task VALUES (%d, %d, 't%d', %d)`, i, 1+i%8, i, 1+i%5))
	}
	expertstest.SQLite(t, path, stmts...)
	keys, _ := inferredKeys(t, runInference(t, path))
	wantKeys(t, keys, []string{"task(stage_id)->stage(id)"})
}
