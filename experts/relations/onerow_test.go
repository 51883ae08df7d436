package relations_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/stablehash"
)

// TestInferNoKeyOfOneRow: an invented lake (no key declared anywhere)
// where a one-row table of the company holds who created and who last
// updated it, as every table does. In one row every set of columns is
// unique, so the pair is no key of the company's, and the other tables'
// pairs, which hold the same two people, reference no company row.
func TestInferNoKeyOfOneRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lake.db")
	stmts := []string{
		`CREATE TABLE company (company_id INTEGER, name TEXT, creator_id INTEGER, updater_id INTEGER)`,
		`CREATE TABLE depots (depot_id INTEGER, city TEXT, creator_id INTEGER, updater_id INTEGER)`,
		`CREATE TABLE trucks (truck_id INTEGER, depot_id INTEGER, plate TEXT, creator_id INTEGER, updater_id INTEGER)`,
		`INSERT INTO company VALUES (1, 'the company', 1, 2)`,
	}
	for d := 1; d <= 30; d++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO depots VALUES (%d, 'city %d', 1, 2)`, d, d))
	}
	for i := 1; i <= 300; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO trucks VALUES (%d, %d, 'P-%04d', 1, 2)`, i, 1+(i*7)%30, i))
	}
	expertstest.SQLite(t, path, stmts...)
	keys, _ := inferredKeys(t, runInference(t, path))
	for _, k := range keys {
		if strings.Contains(k, "->company(") {
			t.Errorf("a reference to the one-row company: %s (all: %q)", k, keys)
		}
	}
	wantKeys(t, keys, []string{"trucks(depot_id)->depots(depot_id)"})
}

// TestInferNoSelfIdentity: an invented warehouse dimension whose
// alternate key, the source system's number, equals its surrogate key on
// every row. Its values are all among the keys by construction: no row
// names another, and it is no hierarchy. The ledger says why. The
// managers' column, whose rows name other rows, stays a reference.
func TestInferNoSelfIdentity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dw.db")
	stmts := []string{
		`CREATE TABLE dim_agent (agent_key INTEGER PRIMARY KEY, agent_alternate_key INTEGER, parent_agent_key INTEGER, name TEXT)`,
		`CREATE TABLE fact_call (agent_key INTEGER, minutes INTEGER)`,
	}
	for a := 1; a <= 80; a++ {
		parent := "NULL"
		if a > 5 {
			parent = fmt.Sprint(1 + a%5)
		}
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO dim_agent VALUES (%d, %d, %s, 'agent %d')`, a, a, parent, a))
	}
	for i := 1; i <= 900; i++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO fact_call VALUES (%d, %d)`, 1+(i*7)%80, i%60))
	}
	expertstest.SQLite(t, path, stmts...)
	cat := runInference(t, path)
	keys, _ := inferredKeys(t, cat)
	wantKeys(t, keys, []string{"dim_agent(parent_agent_key)->dim_agent(agent_key)", "fact_call(agent_key)->dim_agent(agent_key)"})
	es, err := cat.List(context.Background(), catalog.Filter{Kind: catalog.KindHypothesis, RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range es {
		found = found || slices.ContainsFunc(e.Evidence, func(ev string) bool {
			return strings.Contains(ev, "not a relationship: on each of the 80 rows with a value, agent_alternate_key equals the row's own agent_key")
		})
	}
	if !found {
		t.Errorf("no ledger entry of the %d says why dim_agent.agent_alternate_key is no reference", len(es))
	}
}

// TestInferNoLoadPaddedComposite: an invented Data Vault loaded three
// times. Each satellite is keyed by its hub's hash key and the load time,
// and the hubs and links carry the load time that wrote them, so the pair
// (hash key, load time) of a hub or a link is found among the satellite's
// (the same load wrote both), though nothing references a version of a
// satellite row. The satellites' references to their hubs and the links'
// to the hubs stand.
func TestInferNoLoadPaddedComposite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vault.db")
	stmts := []string{
		`CREATE TABLE hub_patient (patient_hk TEXT PRIMARY KEY, patient_no INTEGER, load_date TIMESTAMP, record_source TEXT)`,
		`CREATE TABLE hub_ward (ward_hk TEXT PRIMARY KEY, ward_code TEXT, load_date TIMESTAMP, record_source TEXT)`,
		`CREATE TABLE link_stay (stay_hk TEXT PRIMARY KEY, patient_hk TEXT, ward_hk TEXT, load_date TIMESTAMP, record_source TEXT)`,
		`CREATE TABLE sat_patient (patient_hk TEXT, load_date TIMESTAMP, hash_diff TEXT, full_name TEXT, record_source TEXT,
			PRIMARY KEY (patient_hk, load_date))`,
	}
	hk := func(kind string, n int) string { return fmt.Sprintf("%032x", stablehash.Hash64(fmt.Sprint(kind, n))) }
	loads := []string{"2025-01-01 00:00:00", "2025-02-01 00:00:00", "2025-03-01 00:00:00"}
	for w := 1; w <= 12; w++ {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO hub_ward VALUES ('%s', 'W%02d', '%s', 'his')`, hk("ward", w), w, loads[0]))
	}
	for p := 1; p <= 600; p++ {
		load := loads[p%3]
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO hub_patient VALUES ('%s', %d, '%s', 'his')`, hk("patient", p), p, load))
		for v := 0; v <= p%3; v++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO sat_patient VALUES ('%s', '%s', '%s', 'patient %d v%d', 'his')`,
				hk("patient", p), loads[(p%3+v)%3], hk("diff", p*10+v), p, v))
		}
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO link_stay VALUES ('%s', '%s', '%s', '%s', 'his')`,
			hk("stay", p), hk("patient", p), hk("ward", 1+p%12), load))
	}
	expertstest.SQLite(t, path, stmts...)
	keys, _ := inferredKeys(t, runInference(t, path))
	for _, k := range keys {
		if strings.Contains(k, "->sat_patient(") {
			t.Errorf("a reference to a version of a satellite row: %s", k)
		}
	}
	for _, want := range []string{"link_stay(patient_hk)->hub_patient(patient_hk)", "link_stay(ward_hk)->hub_ward(ward_hk)",
		"sat_patient(patient_hk)->hub_patient(patient_hk)"} {
		if !slices.Contains(keys, want) {
			t.Errorf("missing %s among %q", want, keys)
		}
	}
}
