package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/discover-db/discover/report"
)

// The acceptance test of issue 5 ("Done when"): on a database nobody tuned
// the inference for, discover run with a user's default flags infers the
// references nobody declared with precision and recall of at least 0.9,
// leaves the coincidences alone and names the structural patterns. The
// database is an airline's warehouse, generated here with a fixed seed. It
// declares no foreign key at all, and four of its tables no primary key:
//
//	regions               18   sub-dimension of airports
//	airports             150   iata declared UNIQUE; region_id
//	aircraft              60   the fleet in service (retired ones deleted)
//	employees          1,500   no declared key: emp_no; reports_to (self), base_airport_id
//	flights           ~3,650   origin_airport_id and destination_airport (two roles, one parent), aircraft_id
//	crew_assignments ~16,000   bridge, no declared key: (flight_id, emp_no) and a duty
//	loyalty_tiers          5
//	customers          8,000   tier (a bare name) → loyalty_tiers
//	customer_preferences ~2,700 one-to-one extension of customers, no declared key
//	fare_classes          12
//	sales_channels         6
//	dates                730   calendar dimension keyed 20220101 … 20231231
//	ticket_sales      20,000   fact, no declared key: flight, client_ref (a synonym of customer),
//	                           fare class, channel, date; measures. customers → loyalty_tiers
//	                           makes it a snowflake
//	fuel_suppliers         8
//	fuel_uplifts      ~2,900   fact of a plain star: aircraft, supplier, date; measures
//	maintenance_events 3,000   aircraft_id with 2% orphans (retired aircraft), airport_code →
//	                           airports.iata (text, not the surrogate key), approved_by → employees
//
// A star whose dimension is normalized is named a snowflake (and not a star
// as well), so the plain star is a second fact table, fuel_uplifts.
//
// Decoys: integer columns whose values sit inside some key's range (seats
// 1..9, floor 1..12, gate 1..48, runways 1..4, years, months, weekdays) and
// reference nothing; two of them are counts named after flights
// (customers.num_flights, loyalty_tiers.min_flights), which the name rules
// do propose as references, so their values have to refute them. And
// flights.operated_by, a codeshare operator's name, is named the way
// approved_by names who signed.
//
// About 60,000 rows: ~3 s; under the race detector, which slows the pure-Go
// SQLite ~10x, ~35 s on two busy cores, so unlike the planted clinic (293k
// rows) it is not skipped there.

const (
	relSeed1, relSeed2 = 0x5ca1_ab1e_a1e5_0005, 0x0f11_9475

	relRegions   = 18
	relAirports  = 150
	relAircraft  = 60
	relRetired   = 8 // aircraft ids relAircraft+1 … relAircraft+relRetired, deleted but still in maintenance history
	relEmployees = 1_500
	relEmpBase   = 10_000 // emp_no = relEmpBase + 1 …
	relCustomers = 8_000
	relSales     = 20_000
	relMaint     = 3_000
	relOrphans   = 0.02 // planted share of maintenance rows naming a retired aircraft
)

// relEdge is one true reference of the airline warehouse.
type relEdge struct{ from, fromCol, to, toCol string }

func (e relEdge) key() string {
	return strings.ToLower(e.from + "." + e.fromCol + "->" + e.to + "." + e.toCol)
}

func relKey(r report.Relationship) string {
	return strings.ToLower(r.FromTable + "." + strings.Join(r.FromColumns, ",") + "->" + r.ToTable + "." + strings.Join(r.ToColumns, ","))
}

// relTruth is the ground truth: every reference the generator wrote.
var relTruth = []relEdge{
	{"airports", "region_id", "regions", "region_id"},
	{"employees", "reports_to", "employees", "emp_no"},
	{"employees", "base_airport_id", "airports", "airport_id"},
	{"flights", "origin_airport_id", "airports", "airport_id"},
	{"flights", "destination_airport", "airports", "airport_id"},
	{"flights", "aircraft_id", "aircraft", "aircraft_id"},
	{"crew_assignments", "flight_id", "flights", "flight_id"},
	{"crew_assignments", "emp_no", "employees", "emp_no"},
	{"customers", "tier", "loyalty_tiers", "tier_id"},
	{"customer_preferences", "customer_id", "customers", "customer_id"},
	{"ticket_sales", "flight_id", "flights", "flight_id"},
	{"ticket_sales", "client_ref", "customers", "customer_id"},
	{"ticket_sales", "fare_class_id", "fare_classes", "fare_class_id"},
	{"ticket_sales", "channel_id", "sales_channels", "channel_id"},
	{"ticket_sales", "date_key", "dates", "date_key"},
	{"fuel_uplifts", "aircraft_id", "aircraft", "aircraft_id"},
	{"fuel_uplifts", "supplier_id", "fuel_suppliers", "supplier_id"},
	{"fuel_uplifts", "date_key", "dates", "date_key"},
	{"maintenance_events", "aircraft_id", "aircraft", "aircraft_id"},
	{"maintenance_events", "airport_code", "airports", "iata"},
	{"maintenance_events", "approved_by", "employees", "emp_no"},
}

// relDecoys are integer columns inside some key's range that reference nothing.
var relDecoys = []string{
	"ticket_sales.seats", "employees.floor", "flights.gate", "airports.runways",
	"airports.opened_year", "aircraft.build_year", "customers.num_flights", "customers.birth_year",
	"loyalty_tiers.min_flights", "dates.year", "dates.month", "dates.day_of_week",
}

// relTextDecoys are named like references (operated_by names who flies
// the flight, as approved_by names who signed) and reference nothing.
var relTextDecoys = []string{"flights.operated_by"}

var relDDL = []string{
	`CREATE TABLE regions (region_id INTEGER PRIMARY KEY, region_name TEXT NOT NULL, continent TEXT NOT NULL)`,
	`CREATE TABLE airports (airport_id INTEGER PRIMARY KEY, iata TEXT NOT NULL UNIQUE, airport_name TEXT NOT NULL,
		city TEXT NOT NULL, region_id INTEGER NOT NULL, runways INTEGER NOT NULL, elevation_ft INTEGER,
		opened_year INTEGER)`,
	`CREATE TABLE aircraft (aircraft_id INTEGER PRIMARY KEY, registration TEXT NOT NULL, model TEXT NOT NULL,
		seat_capacity INTEGER NOT NULL, build_year INTEGER NOT NULL)`,
	`CREATE TABLE employees (emp_no INTEGER NOT NULL, full_name TEXT NOT NULL, job_title TEXT NOT NULL,
		reports_to INTEGER, base_airport_id INTEGER NOT NULL, floor INTEGER, hired_on DATE NOT NULL)`,
	`CREATE TABLE flights (flight_id INTEGER PRIMARY KEY, flight_no TEXT NOT NULL, origin_airport_id INTEGER NOT NULL,
		destination_airport INTEGER NOT NULL, aircraft_id INTEGER NOT NULL, departure_at TIMESTAMP NOT NULL,
		distance_km REAL NOT NULL, gate INTEGER, operated_by TEXT NOT NULL)`,
	`CREATE TABLE crew_assignments (flight_id INTEGER NOT NULL, emp_no INTEGER NOT NULL, duty TEXT NOT NULL)`,
	`CREATE TABLE loyalty_tiers (tier_id INTEGER PRIMARY KEY, tier_name TEXT NOT NULL, min_miles INTEGER NOT NULL,
		min_flights INTEGER NOT NULL)`,
	`CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, email TEXT, tier INTEGER NOT NULL,
		num_flights INTEGER NOT NULL, birth_year INTEGER, joined_on DATE NOT NULL)`,
	`CREATE TABLE customer_preferences (customer_id INTEGER NOT NULL, seat_preference TEXT NOT NULL, meal TEXT,
		newsletter INTEGER NOT NULL)`,
	`CREATE TABLE fare_classes (fare_class_id INTEGER PRIMARY KEY, code TEXT NOT NULL, cabin TEXT NOT NULL,
		refundable INTEGER NOT NULL)`,
	`CREATE TABLE sales_channels (channel_id INTEGER PRIMARY KEY, channel_name TEXT NOT NULL)`,
	`CREATE TABLE dates (date_key INTEGER PRIMARY KEY, full_date DATE NOT NULL, year INTEGER NOT NULL,
		month INTEGER NOT NULL, day_of_week INTEGER NOT NULL, is_holiday INTEGER NOT NULL)`,
	`CREATE TABLE ticket_sales (sale_id INTEGER NOT NULL, flight_id INTEGER NOT NULL, client_ref INTEGER NOT NULL,
		fare_class_id INTEGER NOT NULL, channel_id INTEGER NOT NULL, date_key INTEGER NOT NULL, seats INTEGER NOT NULL,
		fare_amount REAL NOT NULL, tax_amount REAL NOT NULL, miles_earned INTEGER NOT NULL)`,
	`CREATE TABLE fuel_suppliers (supplier_id INTEGER PRIMARY KEY, supplier_name TEXT NOT NULL, country TEXT NOT NULL)`,
	`CREATE TABLE fuel_uplifts (uplift_id INTEGER PRIMARY KEY, aircraft_id INTEGER NOT NULL, supplier_id INTEGER NOT NULL,
		date_key INTEGER NOT NULL, litres REAL NOT NULL, price_per_litre REAL NOT NULL, cost REAL NOT NULL)`,
	`CREATE TABLE maintenance_events (event_id INTEGER PRIMARY KEY, aircraft_id INTEGER NOT NULL,
		airport_code TEXT NOT NULL, approved_by INTEGER NOT NULL, check_type TEXT NOT NULL, labour_hours REAL NOT NULL,
		parts_cost REAL NOT NULL, performed_on DATE NOT NULL)`,
}

var (
	relRegionNames = []string{"Nordics", "British Isles", "Iberia", "Benelux", "Alps", "Balkans", "Baltics",
		"Central Europe", "Eastern Mediterranean", "Maghreb", "Gulf", "Levant", "North America East",
		"North America West", "Caribbean", "South Asia", "East Asia", "West Africa"}
	relContinents = []string{"Europe", "Europe", "Europe", "Europe", "Europe", "Europe", "Europe", "Europe",
		"Europe", "Africa", "Asia", "Asia", "North America", "North America", "North America", "Asia", "Asia", "Africa"}
	relModels = enum{[]string{"A320neo", "A321neo", "B737-800", "E195-E2", "A330-300", "B787-9"},
		[]float64{0.3, 0.2, 0.2, 0.15, 0.08, 0.07}}
	relCapacity = map[string]int{"A320neo": 180, "A321neo": 220, "B737-800": 186, "E195-E2": 132,
		"A330-300": 290, "B787-9": 296}
	relTitles = enum{[]string{"Cabin Crew", "First Officer", "Captain", "Engineer", "Ground Agent", "Dispatcher"},
		[]float64{0.40, 0.16, 0.14, 0.12, 0.12, 0.06}}
	relSeatPref = enum{[]string{"window", "aisle", "no preference"}, []float64{0.48, 0.37, 0.15}}
	relMeal     = enum{[]string{"standard", "vegetarian", "vegan", "halal", "kosher", "gluten free"},
		[]float64{0.6, 0.16, 0.08, 0.08, 0.04, 0.04}}
	relCheck = enum{[]string{"A-check", "line check", "C-check", "engine wash", "tyre change", "cabin repair"},
		[]float64{0.22, 0.40, 0.04, 0.10, 0.14, 0.10}}
	relChannels  = []string{"website", "mobile app", "call centre", "travel agent", "airport desk", "corporate portal"}
	relChannelW  = []float64{0.42, 0.30, 0.06, 0.14, 0.03, 0.05}
	relTiers     = []string{"Blue", "Silver", "Gold", "Platinum", "Diamond"}
	relTierW     = []float64{0.70, 0.17, 0.08, 0.04, 0.01}
	relFareCodes = []string{"Y", "B", "M", "H", "K", "L", "Q", "W", "E", "J", "C", "F"}
	relSuppliers = []string{"Northfuel", "AeroPetro", "Skyjet Energy", "Polar Aviation Fuels", "Harbour Oil",
		"Meridian Jet", "Continental Uplift", "BlueFlame"}
)

// relDB is what the airline generator wrote, for the truth of the test.
type relDB struct {
	truth       *plantedTruth
	orphans     int64 // maintenance_events rows whose aircraft_id is not in aircraft
	maintRows   int64
	retiredSeen int // distinct retired aircraft ids written
}

// buildAirline writes the airline warehouse to path.
func buildAirline(t testing.TB, path string) *relDB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, ddl := range relDDL {
		if _, err := db.Exec(ddl); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(relSeed1, relSeed2))
	out := &relDB{truth: &plantedTruth{}}
	truth := out.truth
	name := func() string {
		return firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))]
	}

	lr := newLoader(t, tx, truth, "regions", "region_id", "region_name", "continent")
	for i := 1; i <= relRegions; i++ {
		lr.add(int64(i), relRegionNames[i-1], relContinents[i-1])
	}

	// airports: three-letter codes, unique; some regions hold many airports.
	la := newLoader(t, tx, truth, "airports", "airport_id", "iata", "airport_name", "city", "region_id", "runways",
		"elevation_ft", "opened_year")
	iata := make([]string, relAirports+1)
	used := map[string]bool{}
	regionW := make([]float64, relRegions)
	for i := range regionW {
		regionW[i] = 0.3 + r.Float64()*2
	}
	for i := 1; i <= relAirports; i++ {
		for {
			c := string([]byte{byte('A' + r.IntN(26)), byte('A' + r.IntN(26)), byte('A' + r.IntN(26))})
			if !used[c] {
				used[c], iata[i] = true, c
				break
			}
		}
		city := lastNames[r.IntN(len(lastNames))] + []string{"ville", "burg", "port", "field", "haven", " City"}[r.IntN(6)]
		la.add(int64(i), iata[i], city+" International", city, int64(1+weighted(r, regionW)),
			int64(1+weighted(r, []float64{0.45, 0.35, 0.15, 0.05})), int64(r.IntN(7500)), int64(1925+r.IntN(86)))
	}
	// Hubs: where crews are based and maintenance is done.
	hubs := r.Perm(relAirports)[:12]
	for i := range hubs {
		hubs[i]++
	}
	airportW := make([]float64, relAirports+1) // flights favour the hubs
	for i := 1; i <= relAirports; i++ {
		airportW[i] = 1
		if slices.Contains(hubs, i) {
			airportW[i] = 25
		}
	}

	lc := newLoader(t, tx, truth, "aircraft", "aircraft_id", "registration", "model", "seat_capacity", "build_year")
	for i := 1; i <= relAircraft; i++ {
		m := relModels.pick(r)
		lc.add(int64(i), fmt.Sprintf("SE-R%c%c", 'A'+i/26, 'A'+i%26), m, int64(relCapacity[m]), int64(1998+r.IntN(25)))
	}

	// employees: numbered by hire date; managers were mostly hired in the
	// company's first years, so who reports to whom points mostly, not
	// always, to lower numbers.
	type emp struct {
		title string
		hired time.Time
		lead  bool
	}
	emps := make([]emp, relEmployees)
	start := time.Date(1996, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range emps {
		e := emp{title: relTitles.pick(r)}
		span := 27 * 365
		if i < 90 { // the first 90 drawn lead teams
			e.lead = true
			span = 18 * 365
		}
		e.hired = start.AddDate(0, 0, r.IntN(span))
		emps[i] = e
	}
	slices.SortStableFunc(emps, func(a, b emp) int { return a.hired.Compare(b.hired) })
	var leads, crew, engineers []int // emp_no
	for i, e := range emps {
		no := relEmpBase + 1 + i
		if e.lead {
			leads = append(leads, no)
		}
		switch e.title {
		case "Cabin Crew", "First Officer", "Captain":
			crew = append(crew, no)
		case "Engineer":
			if e.lead {
				engineers = append(engineers, no)
			}
		}
	}
	if len(engineers) < 3 || len(crew) < 500 {
		t.Fatalf("%d lead engineers, %d crew: too few", len(engineers), len(crew))
	}
	le := newLoader(t, tx, truth, "employees", "emp_no", "full_name", "job_title", "reports_to", "base_airport_id",
		"floor", "hired_on")
	ceo := leads[0]
	for i, e := range emps {
		no := relEmpBase + 1 + i
		var boss any
		switch {
		case no == ceo:
		case slices.Index(leads, no) < 8: // the board
			boss = int64(ceo)
		case e.lead:
			boss = int64(leads[r.IntN(8)])
		default:
			boss = int64(leads[8+r.IntN(len(leads)-8)])
		}
		var floor any
		if e.title != "Cabin Crew" {
			floor = int64(1 + r.IntN(12))
		}
		le.add(int64(no), name(), e.title, boss, int64(hubs[r.IntN(len(hubs))]), floor, dateText(e.hired))
	}

	// flights: four to six a day over two years, mostly from and to the hubs.
	lf := newLoader(t, tx, truth, "flights", "flight_id", "flight_no", "origin_airport_id", "destination_airport",
		"aircraft_id", "departure_at", "distance_km", "gate", "operated_by")
	lca := newLoader(t, tx, truth, "crew_assignments", "flight_id", "emp_no", "duty")
	day0 := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	const days = 730
	type flight struct {
		id  int64
		day int
	}
	var flights []flight
	var fid int64
	for d := range days {
		n := 4 + r.IntN(3)
		for range n {
			fid++
			o := weighted(r, airportW[1:]) + 1
			dst := o
			for dst == o {
				dst = weighted(r, airportW[1:]) + 1
			}
			dep := day0.AddDate(0, 0, d).Add(time.Duration(5*60+r.IntN(17*60)) * time.Minute)
			var gate any
			if r.Float64() < 0.9 {
				gate = int64(1 + r.IntN(48))
			}
			lf.add(fid, fmt.Sprintf("SK%d", 100+r.IntN(900)), int64(o), int64(dst), int64(1+r.IntN(relAircraft)),
				tsText(dep), math.Round((300+r.Float64()*4500)*10)/10, gate,
				[]string{"Skyline", "Skyline Connect", "Nordic Regional"}[weighted(r, []float64{0.8, 0.15, 0.05})])
			flights = append(flights, flight{fid, d})
			// crew: two in the cockpit, two or three in the cabin, no one twice
			onboard := map[int]bool{}
			for k, duty := range []string{"captain", "first_officer", "purser", "cabin", "cabin"} {
				if k == 4 && r.IntN(2) == 0 {
					break
				}
				var no int
				for no == 0 || onboard[no] {
					no = crew[r.IntN(len(crew))]
				}
				onboard[no] = true
				lca.add(fid, int64(no), duty)
			}
		}
	}

	lt := newLoader(t, tx, truth, "loyalty_tiers", "tier_id", "tier_name", "min_miles", "min_flights")
	for i, n := range relTiers {
		lt.add(int64(i+1), n, int64([]int{0, 25_000, 50_000, 100_000, 250_000}[i]), int64([]int{1, 10, 25, 50, 100}[i]))
	}
	lcu := newLoader(t, tx, truth, "customers", "customer_id", "full_name", "email", "tier", "num_flights",
		"birth_year", "joined_on")
	lp := newLoader(t, tx, truth, "customer_preferences", "customer_id", "seat_preference", "meal", "newsletter")
	for i := 1; i <= relCustomers; i++ {
		n := name()
		var email any
		if r.Float64() < 0.93 {
			email = fmt.Sprintf("%s%d@mail.example", strings.ToLower(strings.ReplaceAll(n, " ", ".")), i)
		}
		var birth any
		if r.Float64() < 0.8 {
			birth = int64(1940 + r.IntN(66))
		}
		tier := 1 + weighted(r, relTierW)
		lcu.add(int64(i), n, email, int64(tier), int64(1+int(59*math.Pow(r.Float64(), 3))), birth,
			dateText(time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(13*365))))
		if r.Float64() < 0.35 {
			var meal any
			if r.Float64() < 0.7 {
				meal = relMeal.pick(r)
			}
			lp.add(int64(i), relSeatPref.pick(r), meal, int64(r.IntN(2)))
		}
	}

	lfc := newLoader(t, tx, truth, "fare_classes", "fare_class_id", "code", "cabin", "refundable")
	for i, c := range relFareCodes {
		cabin := "economy"
		switch {
		case i >= 11:
			cabin = "first"
		case i >= 9:
			cabin = "business"
		case i >= 8:
			cabin = "premium economy"
		}
		refundable := int64(0)
		if i < 2 || i >= 9 {
			refundable = 1
		}
		lfc.add(int64(i+1), c, cabin, refundable)
	}
	lsc := newLoader(t, tx, truth, "sales_channels", "channel_id", "channel_name")
	for i, c := range relChannels {
		lsc.add(int64(i+1), c)
	}
	dateKey := func(d time.Time) int64 { return int64(d.Year()*10000 + int(d.Month())*100 + d.Day()) }
	ld := newLoader(t, tx, truth, "dates", "date_key", "full_date", "year", "month", "day_of_week", "is_holiday")
	for d := range days {
		day := day0.AddDate(0, 0, d)
		holiday := int64(0)
		if (day.Month() == 12 && day.Day() >= 24) || (day.Month() == 1 && day.Day() == 1) || r.Float64() < 0.01 {
			holiday = 1
		}
		ld.add(dateKey(day), dateText(day), int64(day.Year()), int64(day.Month()), int64(1+int(day.Weekday()+6)%7), holiday)
	}

	// ticket sales: booked up to 90 days ahead (not before the calendar
	// starts), a few customers fly a lot.
	ls := newLoader(t, tx, truth, "ticket_sales", "sale_id", "flight_id", "client_ref", "fare_class_id", "channel_id",
		"date_key", "seats", "fare_amount", "tax_amount", "miles_earned")
	fareW := []float64{0.14, 0.12, 0.12, 0.11, 0.1, 0.1, 0.09, 0.08, 0.06, 0.05, 0.02, 0.01}
	for i := 1; i <= relSales; i++ {
		f := flights[r.IntN(len(flights))]
		booked := max(0, f.day-r.IntN(90))
		fc := 1 + weighted(r, fareW)
		seats := 1 + weighted(r, []float64{0.62, 0.2, 0.07, 0.05, 0.02, 0.015, 0.01, 0.008, 0.007})
		fare := math.Round((60+float64(fc)*45+80*r.Float64())*float64(seats)*100) / 100
		client := 1 + int(float64(relCustomers)*math.Pow(r.Float64(), 1.4))
		ls.add(int64(500_000+i), f.id, int64(min(client, relCustomers)), int64(fc), int64(1+weighted(r, relChannelW)),
			dateKey(day0.AddDate(0, 0, booked)), int64(seats), fare, math.Round(fare*0.12*100)/100,
			int64(math.Round(fare*4)))
	}

	lfs := newLoader(t, tx, truth, "fuel_suppliers", "supplier_id", "supplier_name", "country")
	for i, s := range relSuppliers {
		lfs.add(int64(i+1), s, []string{"SE", "NO", "DK", "FI", "DE", "GB", "NL", "FR"}[i])
	}
	lu := newLoader(t, tx, truth, "fuel_uplifts", "uplift_id", "aircraft_id", "supplier_id", "date_key", "litres",
		"price_per_litre", "cost")
	var uid int64
	for d := range days {
		for range 3 + r.IntN(3) {
			uid++
			litres := math.Round((4000 + 14000*r.Float64()) * 10 / 10)
			price := math.Round((0.7+0.5*r.Float64())*1000) / 1000
			lu.add(uid, int64(1+r.IntN(relAircraft)), int64(1+weighted(r, []float64{4, 3, 2, 2, 1, 1, 1, 0.5})),
				dateKey(day0.AddDate(0, 0, d)), litres, price, math.Round(litres*price*100)/100)
		}
	}

	// maintenance: relOrphans of the rows are about aircraft retired since
	// and deleted from the fleet table.
	lm := newLoader(t, tx, truth, "maintenance_events", "event_id", "aircraft_id", "airport_code", "approved_by",
		"check_type", "labour_hours", "parts_cost", "performed_on")
	retired := map[int64]bool{}
	for i := 1; i <= relMaint; i++ {
		ac := int64(1 + r.IntN(relAircraft))
		if r.Float64() < relOrphans {
			ac = int64(relAircraft + 1 + r.IntN(relRetired))
			out.orphans++
			retired[ac] = true
		}
		lm.add(int64(i), ac, iata[hubs[r.IntN(4)]], int64(engineers[r.IntN(len(engineers))]), relCheck.pick(r),
			math.Round((1+30*math.Pow(r.Float64(), 2))*4)/4, math.Round(r.ExpFloat64()*1800*100)/100,
			dateText(day0.AddDate(0, 0, r.IntN(days))))
	}
	out.maintRows, out.retiredSeen = relMaint, len(retired)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRelationsAirlineWarehouse is the acceptance test of issue 5: on a
// warehouse that declares no foreign key, discover with a user's default
// flags infers its references (precision and recall ≥ 0.9), reports none
// of the decoys, measures the dirty reference's orphans and names the
// hierarchy, the bridge, the star and the snowflake.
func TestRelationsAirlineWarehouse(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "airline_dw.sqlite")
	start := time.Now()
	gen := buildAirline(t, db)
	var rows int64
	for _, tt := range gen.truth.tables {
		rows += tt.rows
	}
	t.Logf("generated %s (%d tables, %d rows) in %s", filepath.Base(db), len(gen.truth.tables), rows, time.Since(start).Round(time.Millisecond))

	// The plants themselves, so that a failure below is the product's.
	wantOrphans := float64(gen.orphans) / float64(gen.maintRows)
	if math.Abs(wantOrphans-relOrphans) > 0.006 || gen.retiredSeen < relRetired/2 {
		t.Fatalf("planted orphans: %d of %d rows (%.4f) over %d retired aircraft", gen.orphans, gen.maintRows, wantOrphans, gen.retiredSeen)
	}
	for _, e := range relTruth {
		child, parent := gen.truth.table(e.from).col[e.fromCol], gen.truth.table(e.to).col[e.toCol]
		var orphans int64
		for v, n := range child.values {
			if parent.values[v] == 0 {
				orphans += n
			}
		}
		for v, n := range parent.values {
			if n != 1 {
				t.Fatalf("truth %s: the target holds %v %d times", e.key(), v, n)
			}
		}
		if e.from == "maintenance_events" && e.fromCol == "aircraft_id" {
			if orphans != gen.orphans {
				t.Fatalf("truth %s: %d orphan rows, %d planted", e.key(), orphans, gen.orphans)
			}
		} else if orphans > 0 {
			t.Fatalf("truth %s: %d rows without a parent", e.key(), orphans)
		}
	}
	pairs := map[[2]any]bool{}
	ca := gen.truth.table("crew_assignments")
	if ca.rows < 10_000 {
		t.Fatalf("only %d crew assignments", ca.rows)
	}
	checkDB, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	qs, err := checkDB.Query(`SELECT flight_id, emp_no FROM crew_assignments`)
	if err != nil {
		t.Fatal(err)
	}
	for qs.Next() {
		var f, e int64
		if err := qs.Scan(&f, &e); err != nil {
			t.Fatal(err)
		}
		pairs[[2]any{f, e}] = true
	}
	qs.Close()
	checkDB.Close()
	if int64(len(pairs)) != ca.rows {
		t.Fatalf("crew_assignments: %d distinct (flight_id, emp_no) pairs in %d rows: the bridge's key is not unique", len(pairs), ca.rows)
	}
	for _, d := range relDecoys {
		table, col, _ := strings.Cut(d, ".")
		ct := gen.truth.table(table).col[col]
		lo, hi := math.Inf(1), math.Inf(-1)
		for v := range ct.values {
			var f float64
			switch x := v.(type) {
			case int64:
				f = float64(x)
			case float64:
				f = x
			}
			lo, hi = math.Min(lo, f), math.Max(hi, f)
		}
		// Every decoy lies inside the customers' keys 1..8000, most inside
		// smaller ones too: inclusion alone would call them references.
		if lo < 1 || hi > relCustomers {
			t.Fatalf("decoy %s spans %v..%v, outside customers.customer_id 1..%d", d, lo, hi, relCustomers)
		}
	}

	before := sha(t, db)
	out := filepath.Join(dir, "discovery")
	start = time.Now()
	res := run(t, "--db", db, "--out", out)
	took := time.Since(start)
	t.Logf("discover --db %s --out %s: exit %d in %s", filepath.Base(db), filepath.Base(out), res.code, took.Round(time.Millisecond))
	if res.code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", res.code, res.stderr)
	}
	if sha(t, db) != before {
		t.Error("the database file changed")
	}
	_, r := readReport(t, out)
	if r.Run.StopReason != nil {
		t.Logf("run: %d iterations, stop %s, confidence %.2f, coverage %.2f, %d queries",
			r.Run.Iterations, *r.Run.StopReason, r.Run.Confidence, r.Run.Coverage, r.Run.Queries)
	}
	if st := run(t, "catalog", "get", "structural:infer", "--catalog", filepath.Join(out, "catalog.db")); st.code == 0 {
		var e struct {
			Document struct{ Detail string } `json:"document"`
		}
		if json.Unmarshal([]byte(st.stdout), &e) == nil {
			t.Logf("inference: %s", e.Document.Detail)
		}
	}

	got := map[string]report.Relationship{}
	for _, rel := range r.Relationships {
		got[relKey(rel)] = rel
	}
	want := map[string]relEdge{}
	for _, e := range relTruth {
		want[e.key()] = e
	}

	t.Run("precision_recall", func(t *testing.T) {
		var tp int
		var misses, fps []string
		for _, e := range relTruth {
			if _, ok := got[e.key()]; ok {
				tp++
			} else {
				misses = append(misses, e.key())
			}
		}
		for k, rel := range got {
			if _, ok := want[k]; !ok {
				fps = append(fps, fmt.Sprintf("%s (confidence %.2f, %s; evidence %q)", k, rel.Confidence, rel.Source, rel.Evidence))
			}
			if rel.Source != "inferred" {
				t.Errorf("%s: source %q; the warehouse declares no foreign key", k, rel.Source)
			}
		}
		sort.Strings(misses)
		sort.Strings(fps)
		precision, recall := 0.0, float64(tp)/float64(len(relTruth))
		if len(got) > 0 {
			precision = float64(tp) / float64(len(got))
		}
		t.Logf("inferred %d relationships, %d of %d true: precision %.3f, recall %.3f", len(got), tp, len(relTruth), precision, recall)
		for _, m := range misses {
			t.Logf("missed: %s", m)
		}
		for _, f := range fps {
			t.Logf("false positive: %s", f)
		}
		if precision < 0.9 || recall < 0.9 {
			t.Errorf("precision %.3f, recall %.3f; want both ≥ 0.9\nmissed (%d):\n  %s\nfalse positives (%d):\n  %s",
				precision, recall, len(misses), strings.Join(misses, "\n  "), len(fps), strings.Join(fps, "\n  "))
		}
	})

	t.Run("decoys", func(t *testing.T) {
		for _, d := range append(slices.Clone(relDecoys), relTextDecoys...) {
			for _, rel := range r.Relationships {
				for _, side := range []struct {
					table string
					cols  []string
				}{{rel.FromTable, rel.FromColumns}, {rel.ToTable, rel.ToColumns}} {
					for _, c := range side.cols {
						if strings.EqualFold(side.table+"."+c, d) {
							t.Errorf("decoy %s reported in a relationship: %s (confidence %.2f, evidence %q)", d, relKey(rel), rel.Confidence, rel.Evidence)
						}
					}
				}
			}
		}
	})

	t.Run("dirty_reference", func(t *testing.T) {
		k := relEdge{"maintenance_events", "aircraft_id", "aircraft", "aircraft_id"}.key()
		rel, ok := got[k]
		if !ok {
			t.Fatalf("the dirty reference %s (%d of %d rows name a deleted aircraft, %.4f) was not inferred", k, gen.orphans, gen.maintRows, wantOrphans)
		}
		if rel.OrphanFraction == nil || math.Abs(*rel.OrphanFraction-wantOrphans) > 0.005 {
			t.Errorf("%s: orphan_fraction %s, want %.4f ± 0.005", k, deref(rel.OrphanFraction), wantOrphans)
		}
		t.Logf("%s: orphan_fraction %s (written %.4f), confidence %.2f", k, deref(rel.OrphanFraction), wantOrphans, rel.Confidence)
		found := false
		for _, in := range r.Insights {
			if in.Kind == "quality" && slices.Contains(in.Columns, "maintenance_events.aircraft_id") {
				found = true
				t.Logf("quality insight: %s", in.Description)
			}
		}
		if !found {
			t.Errorf("no quality insight names maintenance_events.aircraft_id, whose %d orphan rows are a data-quality finding", gen.orphans)
		}
	})

	t.Run("inferred_keys", func(t *testing.T) {
		// The targets nobody declared: a reference needs a unique key.
		for table, key := range map[string]string{"employees": "emp_no", "crew_assignments": "flight_id,emp_no",
			"customer_preferences": "customer_id", "ticket_sales": "sale_id"} {
			tb, _ := findColumn(r, table, "")
			if tb == nil {
				t.Errorf("table %s missing from the report", table)
				continue
			}
			if strings.Join(tb.PrimaryKey, ",") != key || tb.PrimaryKeySource == nil || *tb.PrimaryKeySource != "inferred" {
				t.Errorf("%s: primary key %v (%s), want (%s) inferred", table, tb.PrimaryKey, derefS(tb.PrimaryKeySource), key)
			}
		}
	})

	t.Run("cardinality", func(t *testing.T) {
		for _, c := range []struct {
			edge relEdge
			card string
		}{
			{relEdge{"flights", "origin_airport_id", "airports", "airport_id"}, "one_to_many"},
			{relEdge{"flights", "destination_airport", "airports", "airport_id"}, "one_to_many"},
			{relEdge{"crew_assignments", "emp_no", "employees", "emp_no"}, "one_to_many"},
			{relEdge{"ticket_sales", "client_ref", "customers", "customer_id"}, "one_to_many"},
			{relEdge{"customers", "tier", "loyalty_tiers", "tier_id"}, "one_to_many"},
			{relEdge{"customer_preferences", "customer_id", "customers", "customer_id"}, "one_to_one"},
		} {
			rel, ok := got[c.edge.key()]
			if !ok {
				continue // reported by precision_recall
			}
			if rel.Cardinality == nil || *rel.Cardinality != c.card {
				t.Errorf("%s: cardinality %s, want %s", c.edge.key(), derefS(rel.Cardinality), c.card)
			}
		}
	})

	t.Run("patterns", func(t *testing.T) {
		var all []string
		for _, p := range r.Patterns {
			all = append(all, p.Kind+"["+strings.Join(p.Tables, " ")+"]")
		}
		t.Logf("patterns: %s", strings.Join(all, ", "))
		find := func(kind, first string) *report.Pattern {
			for i, p := range r.Patterns {
				if p.Kind == kind && len(p.Tables) > 0 && p.Tables[0] == first {
					return &r.Patterns[i]
				}
			}
			return nil
		}
		for _, w := range []struct {
			kind, first string
			with        []string
		}{
			{"hierarchy", "employees", nil},
			{"bridge_table", "crew_assignments", []string{"flights", "employees"}},
			{"snowflake", "ticket_sales", []string{"customers", "fare_classes", "sales_channels", "dates", "loyalty_tiers"}},
			{"star_schema", "fuel_uplifts", []string{"aircraft", "fuel_suppliers", "dates"}},
			{"one_to_one_extension", "customers", []string{"customer_preferences"}},
		} {
			p := find(w.kind, w.first)
			if p == nil {
				t.Errorf("no %s pattern led by %s; patterns: %s", w.kind, w.first, strings.Join(all, ", "))
				continue
			}
			for _, tb := range w.with {
				if !slices.Contains(p.Tables, tb) {
					t.Errorf("%s pattern of %s lists %v, without %s", w.kind, w.first, p.Tables, tb)
				}
			}
		}
	})
}
