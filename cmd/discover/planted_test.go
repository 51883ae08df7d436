package main

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/privacy"
	"github.com/discover-db/discover/report"
)

// The acceptance test of issue 4: on a database nobody tuned the product
// for, discover finds what was planted in it. The database is an outpatient
// clinic network's warehouse, generated here with a fixed seed:
//
//	sites          7 rows    dimension
//	clinicians   160 rows    dimension (site_id, no declared FK)
//	patients   25000 rows    dimension (email with planted duplicates, phone 22% NULL)
//	visits    200000 rows    the fact table, no declared FK at all
//	prescriptions ~68000     declares its FK to visits
//
// Planted in visits: NULLs at 7% (systolic_bp), 12% (weight_kg) and 31%
// (referral_source); enum-like columns of 4, 5, 6 and 12 values with uneven
// frequencies; six weights written in grams (1000× the rest) and two negative
// durations; duration_minutes and billed_amount strongly correlated, the
// other measures not; visits on weekdays (Saturday ~5%, Sunday ~1%) with a
// January (flu season) peak; a claim_number unique but for four values
// (three held by two rows, one by three). In patients, four emails are
// shared by two patients each.

const (
	plantedSeed1, plantedSeed2 = 0x0c11_1c5e_ed00_0004, 0x1550_e004

	plantedSites      = 7
	plantedClinicians = 160
	plantedPatients   = 25_000
	plantedVisits     = 200_000
)

// colTruth is what was written into one column.
type colTruth struct {
	nulls  int64
	values map[any]int64 // non-NULL value → rows
}

// tableTruth is what was written into one table.
type tableTruth struct {
	name string
	cols []string
	rows int64
	col  map[string]*colTruth
}

// plantedTruth is everything the test knows about the database it built.
type plantedTruth struct {
	tables []*tableTruth

	weightOutliers []float64 // visits.weight_kg values in grams
	negDurations   []int64   // visits.duration_minutes below zero
	claimDups      []string  // visits.claim_number values held by more than one row
	emailDups      []string  // patients.email values held by more than one row

	corrDurationBilled float64            // Pearson r of the correlated pair
	otherCorr          map[string]float64 // "a~b" → Pearson r of the pairs that should not correlate
	weekdayShare       [7]float64         // share of visits per weekday (time.Weekday order)
	monthShare         [13]float64        // share of visits per calendar month
}

func (p *plantedTruth) table(name string) *tableTruth {
	for _, t := range p.tables {
		if t.name == name {
			return t
		}
	}
	return nil
}

// loader inserts the rows of one table through a prepared statement and
// records what it wrote.
type loader struct {
	t    testing.TB
	stmt *sql.Stmt
	tt   *tableTruth
}

func newLoader(t testing.TB, tx *sql.Tx, truth *plantedTruth, table string, cols ...string) *loader {
	t.Helper()
	ph := strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",")
	stmt, err := tx.Prepare(fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(cols, ","), ph))
	if err != nil {
		t.Fatal(err)
	}
	tt := &tableTruth{name: table, cols: cols, col: map[string]*colTruth{}}
	for _, c := range cols {
		tt.col[c] = &colTruth{values: map[any]int64{}}
	}
	truth.tables = append(truth.tables, tt)
	return &loader{t: t, stmt: stmt, tt: tt}
}

func (l *loader) add(vals ...any) {
	if _, err := l.stmt.Exec(vals...); err != nil {
		l.t.Fatalf("insert into %s: %v", l.tt.name, err)
	}
	l.tt.rows++
	for i, v := range vals {
		ct := l.tt.col[l.tt.cols[i]]
		if v == nil {
			ct.nulls++
		} else {
			ct.values[v]++
		}
	}
}

// weighted picks an index with probability proportional to its weight.
func weighted(r *rand.Rand, w []float64) int {
	var sum float64
	for _, x := range w {
		sum += x
	}
	u := r.Float64() * sum
	for i, x := range w {
		if u < x {
			return i
		}
		u -= x
	}
	return len(w) - 1
}

type enum struct {
	values  []string
	weights []float64
}

func (e enum) pick(r *rand.Rand) string { return e.values[weighted(r, e.weights)] }

var (
	enumVisitType = enum{[]string{"checkup", "follow_up", "urgent", "vaccination", "telehealth", "procedure"},
		[]float64{0.38, 0.24, 0.16, 0.11, 0.08, 0.03}}
	enumDepartment = enum{[]string{"General Practice", "Pediatrics", "Cardiology", "Dermatology", "Orthopedics",
		"Gynecology", "Psychiatry", "Ophthalmology", "ENT", "Neurology", "Oncology", "Endocrinology"},
		[]float64{0.30, 0.14, 0.09, 0.08, 0.08, 0.07, 0.06, 0.05, 0.04, 0.04, 0.03, 0.02}}
	enumPayer    = enum{[]string{"public", "private", "self-pay", "employer"}, []float64{0.46, 0.33, 0.15, 0.06}}
	enumReferral = enum{[]string{"self", "gp_referral", "emergency", "specialist", "online"},
		[]float64{0.45, 0.30, 0.12, 0.09, 0.04}}
	enumSex       = enum{[]string{"F", "M", "X"}, []float64{0.51, 0.475, 0.015}}
	enumSpecialty = enum{[]string{"family medicine", "pediatrics", "internal medicine", "cardiology", "dermatology",
		"orthopedics", "psychiatry", "neurology", "oncology"}, []float64{0.30, 0.16, 0.14, 0.09, 0.08, 0.08, 0.07, 0.05, 0.03}}
	enumRoute = enum{[]string{"oral", "topical", "inhaled", "injection", "intravenous"},
		[]float64{0.78, 0.09, 0.06, 0.05, 0.02}}

	// The enum-like columns whose every value must be in top_values.
	plantedEnums = map[string]enum{
		"visits.visit_type": enumVisitType, "visits.department": enumDepartment, "visits.payer": enumPayer,
		"visits.referral_source": enumReferral, "patients.sex": enumSex, "clinicians.specialty": enumSpecialty,
		"prescriptions.route": enumRoute,
	}
	// The columns with NULLs planted at a rate, and the rate.
	plantedNulls = map[string]float64{"visits.systolic_bp": 0.07, "visits.weight_kg": 0.12,
		"visits.referral_source": 0.31, "patients.phone": 0.22, "patients.email": 0.05}

	// Visits per weekday (Sunday first) and per calendar month, relative.
	weekdayWeight = [7]float64{0.05, 1.15, 1.05, 1.0, 1.0, 0.9, 0.25}
	monthWeight   = [13]float64{0, 2.2, 1.3, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.2}
	hourWeight    = []float64{8: 0.9, 9: 1.4, 10: 1.5, 11: 1.3, 12: 0.7, 13: 0.9, 14: 1.2, 15: 1.2, 16: 1.0, 17: 0.6}
)

var plantedDDL = []string{
	`CREATE TABLE sites (site_id INTEGER PRIMARY KEY, site_name TEXT NOT NULL, city TEXT NOT NULL, opened_on DATE)`,
	`CREATE TABLE clinicians (clinician_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, specialty TEXT NOT NULL,
		site_id INTEGER NOT NULL, hired_on DATE)`,
	`CREATE TABLE patients (patient_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, email TEXT, phone TEXT,
		sex TEXT NOT NULL, birth_date DATE, postal_code TEXT, registered_at TIMESTAMP)`,
	`CREATE TABLE visits (visit_id INTEGER PRIMARY KEY, patient_id INTEGER NOT NULL, clinician_id INTEGER NOT NULL,
		site_id INTEGER NOT NULL, visited_at TIMESTAMP NOT NULL, visit_type TEXT NOT NULL, department TEXT NOT NULL,
		payer TEXT NOT NULL, referral_source TEXT, claim_number TEXT NOT NULL, duration_minutes INTEGER NOT NULL,
		billed_amount REAL NOT NULL, systolic_bp INTEGER, weight_kg REAL)`,
	`CREATE TABLE prescriptions (prescription_id INTEGER PRIMARY KEY,
		visit_id INTEGER NOT NULL REFERENCES visits(visit_id), drug_name TEXT NOT NULL, dose_mg REAL NOT NULL,
		route TEXT NOT NULL, refills INTEGER NOT NULL, prescribed_at TIMESTAMP NOT NULL)`,
}

var (
	firstNames = []string{"Amira", "Ben", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas",
		"Kaja", "Luca", "Maya", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sven", "Tara", "Umar", "Vera", "Wim", "Xenia",
		"Yusuf", "Zoe", "Aiden", "Bea", "Carlos", "Dana"}
	lastNames = []string{"Almeida", "Berg", "Castillo", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad", "Ivanova",
		"Jensen", "Kowalski", "Lindqvist", "Moreau", "Novak", "Okafor", "Petrov", "Quist", "Rossi", "Santos", "Tanaka",
		"Ueda", "Vogel", "Weber", "Xu", "Yilmaz", "Zimmer"}
	mailDomains = []string{"mail.example", "post.example", "inbox.example", "web.example"}
	drugs       = []string{"amoxicillin", "ibuprofen", "paracetamol", "metformin", "atorvastatin", "lisinopril",
		"omeprazole", "salbutamol", "sertraline", "levothyroxine", "amlodipine", "cetirizine", "prednisolone",
		"azithromycin", "hydrocortisone", "insulin glargine", "warfarin", "diclofenac", "fluticasone", "citalopram"}
	cities = []string{"Northbridge", "Eastvale", "Southport", "Westmere", "Lakeside", "Hillcrest", "Riverton"}
)

func dateText(t time.Time) string { return t.Format("2006-01-02") }
func tsText(t time.Time) string   { return t.Format("2006-01-02 15:04:05") }

// buildPlantedClinic writes the clinic warehouse to path and returns the truth.
func buildPlantedClinic(t testing.TB, path string) *plantedTruth {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, ddl := range plantedDDL {
		if _, err := db.Exec(ddl); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(plantedSeed1, plantedSeed2))
	truth := &plantedTruth{otherCorr: map[string]float64{}}

	// sites
	ls := newLoader(t, tx, truth, "sites", "site_id", "site_name", "city", "opened_on")
	for i := 1; i <= plantedSites; i++ {
		ls.add(int64(i), cities[i-1]+" Health Centre", cities[i-1],
			dateText(time.Date(2005+2*i, time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)))
	}

	// clinicians
	lc := newLoader(t, tx, truth, "clinicians", "clinician_id", "full_name", "specialty", "site_id", "hired_on")
	for i := 1; i <= plantedClinicians; i++ {
		name := "Dr. " + firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))]
		hired := time.Date(2008, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(14*365))
		lc.add(int64(i), name, enumSpecialty.pick(r), int64(1+r.IntN(plantedSites)), dateText(hired))
	}

	// patients: the email is unique but for four pairs (a family sharing an
	// address, a typo merged two records).
	lp := newLoader(t, tx, truth, "patients", "patient_id", "full_name", "email", "phone", "sex", "birth_date",
		"postal_code", "registered_at")
	emails := make([]string, plantedPatients+1)
	emailDupAt := map[int]int{4_001: 17, 9_002: 2_345, 15_003: 8_800, 22_004: 12_121} // patient → whose email it reuses
	for i := 1; i <= plantedPatients; i++ {
		first, last := firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
		var email any
		if src, ok := emailDupAt[i]; ok {
			emails[i] = emails[src]
			email = emails[i]
			truth.emailDups = append(truth.emailDups, emails[i])
		} else if r.Float64() >= plantedNulls["patients.email"] || i == 17 || i == 2_345 || i == 8_800 || i == 12_121 {
			emails[i] = fmt.Sprintf("%s.%s%d@%s", strings.ToLower(first), strings.ToLower(last), i,
				mailDomains[r.IntN(len(mailDomains))])
			email = emails[i]
		}
		var phone any
		if r.Float64() >= plantedNulls["patients.phone"] {
			phone = fmt.Sprintf("+41 %02d %03d %02d %02d", 21+r.IntN(60), r.IntN(1000), r.IntN(100), r.IntN(100))
		}
		birth := time.Date(1935, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(85*365))
		reg := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.Int64N(int64(7 * 365 * 24 * time.Hour))))
		lp.add(int64(i), first+" "+last, email, phone, enumSex.pick(r), dateText(birth),
			fmt.Sprintf("%04d", 1000+r.IntN(8000)), tsText(reg.Truncate(time.Second)))
	}

	// visits: 2022-01-01 .. 2023-12-31, weighted by weekday and month.
	from := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	const days = 730
	cum := make([]float64, days)
	var acc float64
	for d := range days {
		day := from.AddDate(0, 0, d)
		acc += weekdayWeight[day.Weekday()] * monthWeight[day.Month()]
		cum[d] = acc
	}
	stamps := make([]time.Time, plantedVisits)
	for i := range stamps {
		d := sort.SearchFloat64s(cum, r.Float64()*acc)
		h := weighted(r, hourWeight)
		stamps[i] = from.AddDate(0, 0, d).Add(time.Duration(h)*time.Hour +
			time.Duration(r.IntN(60))*time.Minute + time.Duration(r.IntN(60))*time.Second)
	}
	slices.SortFunc(stamps, func(a, b time.Time) int { return a.Compare(b) })

	lv := newLoader(t, tx, truth, "visits", "visit_id", "patient_id", "clinician_id", "site_id", "visited_at",
		"visit_type", "department", "payer", "referral_source", "claim_number", "duration_minutes", "billed_amount",
		"systolic_bp", "weight_kg")
	claims := make([]string, plantedVisits+1)
	// Four claim numbers reused: three held by two rows, one by three.
	claimDupAt := map[int]int{60_001: 311, 90_002: 45_678, 120_003: 77_777, 150_004: 100_100, 180_005: 100_100}
	// Six weights typed in grams, two durations with a sign slip.
	weightOutlierAt := map[int]bool{12_345: true, 48_000: true, 77_001: true, 101_010: true, 150_150: true, 199_999: true}
	negDurationAt := map[int]int64{33_333: -20, 166_666: -5}
	var dur, bill, bp, wt []float64 // complete rows for the truth's correlations
	for i := 1; i <= plantedVisits; i++ {
		vt := weighted(r, enumVisitType.weights)
		mean, sd := []float64{25, 15, 40, 10, 15, 75}[vt], []float64{6, 4, 14, 3, 5, 20}[vt]
		minutes := int64(math.Max(3, math.Round(mean+sd*r.NormFloat64())))
		billed := math.Round((30+2.6*float64(minutes)+10*r.NormFloat64())*100) / 100
		if v, ok := negDurationAt[i]; ok {
			minutes = v
		}
		claims[i] = fmt.Sprintf("CLM-%08d", (int64(i)*7919+1_234_567)%100_000_000)
		if src, ok := claimDupAt[i]; ok {
			claims[i] = claims[src]
			if !slices.Contains(truth.claimDups, claims[i]) {
				truth.claimDups = append(truth.claimDups, claims[i])
			}
		}
		var referral, systolic, weight any
		if r.Float64() >= plantedNulls["visits.referral_source"] {
			referral = enumReferral.pick(r)
		}
		if r.Float64() >= plantedNulls["visits.systolic_bp"] {
			systolic = int64(math.Round(math.Max(85, math.Min(200, 125+14*r.NormFloat64()))))
		}
		if r.Float64() >= plantedNulls["visits.weight_kg"] || weightOutlierAt[i] {
			w := math.Round(math.Max(35, math.Min(150, 78+14*r.NormFloat64()))*10) / 10
			if weightOutlierAt[i] {
				w *= 1000
				truth.weightOutliers = append(truth.weightOutliers, w)
			}
			weight = w
		}
		if minutes < 0 {
			truth.negDurations = append(truth.negDurations, minutes)
		}
		if systolic != nil && weight != nil {
			dur = append(dur, float64(minutes))
			bill = append(bill, billed)
			bp = append(bp, float64(systolic.(int64)))
			wt = append(wt, weight.(float64))
		}
		patient := int64(1 + int(float64(plantedPatients)*math.Pow(r.Float64(), 1.6))) // some patients come often
		if patient > plantedPatients {
			patient = plantedPatients
		}
		lv.add(int64(i), patient, int64(1+r.IntN(plantedClinicians)), int64(1+weighted(r, []float64{5, 4, 3, 3, 2, 2, 1})),
			tsText(stamps[i-1]), enumVisitType.values[vt], enumDepartment.pick(r), enumPayer.pick(r), referral,
			claims[i], minutes, billed, systolic, weight)
	}
	truth.corrDurationBilled = pearson(dur, bill)
	truth.otherCorr["visits.duration_minutes~visits.systolic_bp"] = pearson(dur, bp)
	truth.otherCorr["visits.duration_minutes~visits.weight_kg"] = pearson(dur, wt)
	truth.otherCorr["visits.billed_amount~visits.systolic_bp"] = pearson(bill, bp)
	truth.otherCorr["visits.billed_amount~visits.weight_kg"] = pearson(bill, wt)
	truth.otherCorr["visits.systolic_bp~visits.weight_kg"] = pearson(bp, wt)
	for _, s := range stamps {
		truth.weekdayShare[s.Weekday()] += 1.0 / plantedVisits
		truth.monthShare[s.Month()] += 1.0 / plantedVisits
	}

	// prescriptions: 22% of visits end with one, 6% with two.
	lr := newLoader(t, tx, truth, "prescriptions", "prescription_id", "visit_id", "drug_name", "dose_mg", "route",
		"refills", "prescribed_at")
	var id int64
	for i := 1; i <= plantedVisits; i++ {
		n := 0
		switch u := r.Float64(); {
		case u < 0.22:
			n = 1
		case u < 0.28:
			n = 2
		}
		for range n {
			id++
			drug := drugs[int(float64(len(drugs))*math.Pow(r.Float64(), 2))]
			dose := []float64{5, 10, 20, 25, 50, 100, 250, 500}[r.IntN(8)]
			lr.add(id, int64(i), drug, dose, enumRoute.pick(r), int64(weighted(r, []float64{5, 3, 2, 1, 0.5, 0.3})),
				tsText(stamps[i-1].Add(time.Duration(5+r.IntN(20))*time.Minute)))
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return truth
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	return sxy / math.Sqrt(sxx*syy)
}

// sameNumber reports whether a reported example is the number v.
func sameNumber(example string, v float64) bool {
	f, err := strconv.ParseFloat(strings.TrimSpace(example), 64)
	return err == nil && math.Abs(f-v) < 1e-6*math.Max(1, math.Abs(v))
}

func findColumn(r report.Report, table, col string) (*report.Table, *report.Column) {
	for i := range r.Tables {
		if r.Tables[i].Name != table {
			continue
		}
		for j := range r.Tables[i].Columns {
			if r.Tables[i].Columns[j].Name == col {
				return &r.Tables[i], &r.Tables[i].Columns[j]
			}
		}
		return &r.Tables[i], nil
	}
	return nil, nil
}

func anomaliesOf(c *report.Column, kind string) []report.Anomaly {
	var out []report.Anomaly
	for _, a := range c.Anomalies {
		if a.Kind == kind {
			out = append(out, a)
		}
	}
	return out
}

func describeAnomalies(c *report.Column) string {
	if c == nil || len(c.Anomalies) == 0 {
		return "none"
	}
	var parts []string
	for _, a := range c.Anomalies {
		parts = append(parts, fmt.Sprintf("%s (count %d, examples %v): %s", a.Kind, a.Count, a.Examples, a.Description))
	}
	return strings.Join(parts, "; ")
}

func insightsOn(r report.Report, kind, col string) []report.Insight {
	var out []report.Insight
	for _, in := range r.Insights {
		if in.Kind == kind && slices.Contains(in.Columns, col) {
			out = append(out, in)
		}
	}
	return out
}

// TestPlantedClinicWarehouse is the acceptance test of issue 4: discover,
// run with a user's default flags on a warehouse it was never tuned for,
// reports the facts planted in it.
func TestPlantedClinicWarehouse(t *testing.T) {
	if heavy.Race {
		t.Skip("the planted warehouse (293k rows) takes ~2.5 min under the race detector, which makes the pure-Go SQLite ~10-20x slower; run without -race")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "clinic_dw.sqlite")
	start := time.Now()
	truth := buildPlantedClinic(t, db)
	t.Logf("generated %s in %s", db, time.Since(start).Round(time.Millisecond))

	// The plants themselves, so that a failure below is the product's.
	if truth.corrDurationBilled < 0.8 {
		t.Fatalf("planted correlation too weak: r = %.3f", truth.corrDurationBilled)
	}
	for k, v := range truth.otherCorr {
		if math.Abs(v) > 0.1 {
			t.Fatalf("pair %s meant to be independent has r = %.3f", k, v)
		}
	}
	var weekend = truth.weekdayShare[time.Saturday] + truth.weekdayShare[time.Sunday]
	if weekend > 0.08 {
		t.Fatalf("weekend share %.3f, meant to be small", weekend)
	}
	var monthMean float64
	for m := 1; m <= 12; m++ {
		monthMean += truth.monthShare[m] / 12
	}
	if truth.monthShare[time.January] < 1.6*monthMean {
		t.Fatalf("January share %.3f, monthly mean %.3f: peak too weak", truth.monthShare[time.January], monthMean)
	}
	for m := 2; m <= 12; m++ {
		if truth.monthShare[m] > 1.2*monthMean {
			t.Fatalf("month %d share %.3f competes with January", m, truth.monthShare[m])
		}
	}
	if len(truth.weightOutliers) != 6 || len(truth.negDurations) != 2 || len(truth.claimDups) != 4 || len(truth.emailDups) != 4 {
		t.Fatalf("plants: %d weight outliers, %d negative durations, %d duplicated claims, %d duplicated emails",
			len(truth.weightOutliers), len(truth.negDurations), len(truth.claimDups), len(truth.emailDups))
	}
	t.Logf("truth: r(duration, billed) = %.3f; weekday shares Sun..Sat %.3f; Jan share %.3f (monthly mean %.3f); weekend %.3f",
		truth.corrDurationBilled, truth.weekdayShare, truth.monthShare[1], monthMean, weekend)

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
	_, r := readReport(t, out) // validates against report/schema.json
	if r.Run.StopReason != nil {
		t.Logf("run: %d iterations, stop %s, confidence %.2f, coverage %.2f, %d queries",
			r.Run.Iterations, *r.Run.StopReason, r.Run.Confidence, r.Run.Coverage, r.Run.Queries)
	}

	t.Run("row_counts", func(t *testing.T) {
		for _, tt := range truth.tables {
			tb, _ := findColumn(r, tt.name, "")
			if tb == nil {
				t.Errorf("table %s missing from the report", tt.name)
				continue
			}
			if tb.RowCount == nil || *tb.RowCount != tt.rows || tb.RowCountIsEstimate {
				t.Errorf("%s: row_count %v (estimate %v), want exactly %d", tt.name, deref64(tb.RowCount), tb.RowCountIsEstimate, tt.rows)
			}
		}
	})

	t.Run("null_fractions", func(t *testing.T) {
		for _, tt := range truth.tables {
			for _, cn := range tt.cols {
				ct := tt.col[cn]
				want := float64(ct.nulls) / float64(tt.rows)
				_, c := findColumn(r, tt.name, cn)
				key := tt.name + "." + cn
				if c == nil {
					t.Errorf("%s missing from the report", key)
					continue
				}
				if c.NullFraction == nil || math.Abs(*c.NullFraction-want) > 0.02 {
					t.Errorf("%s: null_fraction %s, want %.4f ± 0.02", key, deref(c.NullFraction), want)
				}
				if rate, ok := plantedNulls[key]; ok {
					t.Logf("%s: planted %.0f%%, written %.4f, reported %s", key, rate*100, want, deref(c.NullFraction))
				}
			}
		}
	})

	t.Run("distinct_counts", func(t *testing.T) {
		for _, tt := range truth.tables {
			for _, cn := range tt.cols {
				want := int64(len(tt.col[cn].values))
				_, c := findColumn(r, tt.name, cn)
				key := tt.name + "." + cn
				if c == nil {
					continue // reported by null_fractions
				}
				if c.DistinctCount == nil || math.Abs(float64(*c.DistinctCount-want)) > 0.02*float64(want) {
					t.Errorf("%s: distinct_count %v (estimate %v), want %d ± 2%%", key, deref64(c.DistinctCount), c.DistinctIsEstimate, want)
				}
				if want > 100_000 {
					t.Logf("high-cardinality %s: %d distinct, reported %v", key, want, deref64(c.DistinctCount))
				}
			}
		}
	})

	t.Run("enum_top_values", func(t *testing.T) {
		keys := make([]string, 0, len(plantedEnums))
		for k := range plantedEnums {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, key := range keys {
			table, cn, _ := strings.Cut(key, ".")
			ct := truth.table(table).col[cn]
			_, c := findColumn(r, table, cn)
			if c == nil {
				t.Errorf("%s missing from the report", key)
				continue
			}
			got := map[string]int64{}
			for _, vc := range c.TopValues {
				got[vc.Value] = vc.Count
			}
			for _, v := range plantedEnums[key].values {
				want := ct.values[v]
				if want == 0 {
					t.Fatalf("%s: the generator wrote no %q", key, v)
				}
				if n, ok := got[v]; !ok {
					t.Errorf("%s (%d values): %q (%d rows) missing from top_values %v", key, len(plantedEnums[key].values), v, want, c.TopValues)
				} else if n != want {
					t.Errorf("%s: top value %q count %d, want %d", key, v, n, want)
				}
			}
		}
	})

	t.Run("outliers", func(t *testing.T) {
		_, c := findColumn(r, "visits", "weight_kg")
		if c == nil {
			t.Fatal("visits.weight_kg missing")
		}
		as := anomaliesOf(c, "outlier")
		if len(as) != 1 {
			t.Fatalf("visits.weight_kg: want one outlier anomaly for the 6 weights in grams %v; anomalies: %s", truth.weightOutliers, describeAnomalies(c))
		}
		a := as[0]
		if a.Count != int64(len(truth.weightOutliers)) {
			t.Errorf("outlier count %d, want %d", a.Count, len(truth.weightOutliers))
		}
		if len(a.Examples) == 0 {
			t.Errorf("outlier anomaly names no example values")
		}
		for _, ex := range a.Examples {
			if !slices.ContainsFunc(truth.weightOutliers, func(v float64) bool { return sameNumber(ex, v) }) {
				t.Errorf("outlier example %q is not one of the planted %v", ex, truth.weightOutliers)
			}
		}
		t.Logf("visits.weight_kg: %s", describeAnomalies(c))
	})

	t.Run("negative_value", func(t *testing.T) {
		_, c := findColumn(r, "visits", "duration_minutes")
		if c == nil {
			t.Fatal("visits.duration_minutes missing")
		}
		as := anomaliesOf(c, "negative_value")
		if len(as) != 1 {
			t.Fatalf("visits.duration_minutes: want a negative_value anomaly for %v; anomalies: %s", truth.negDurations, describeAnomalies(c))
		}
		a := as[0]
		if a.Count != int64(len(truth.negDurations)) {
			t.Errorf("negative_value count %d, want %d", a.Count, len(truth.negDurations))
		}
		for _, v := range truth.negDurations {
			if !slices.ContainsFunc(a.Examples, func(ex string) bool { return sameNumber(ex, float64(v)) }) {
				t.Errorf("negative_value examples %v lack %d", a.Examples, v)
			}
		}
		t.Logf("visits.duration_minutes: %s", describeAnomalies(c))
	})

	t.Run("correlation", func(t *testing.T) {
		found := false
		for _, in := range insightsOn(r, "correlation", "visits.duration_minutes") {
			if slices.Contains(in.Columns, "visits.billed_amount") {
				found = true
				t.Logf("%s", in.Description)
			}
		}
		if !found {
			var all []string
			for _, in := range r.Insights {
				if in.Kind == "correlation" {
					all = append(all, in.Description)
				}
			}
			t.Errorf("no correlation insight names visits.duration_minutes and visits.billed_amount (true r = %.3f); correlation insights: %q",
				truth.corrDurationBilled, all)
		}
		for pair, v := range truth.otherCorr {
			a, b, _ := strings.Cut(pair, "~")
			for _, in := range insightsOn(r, "correlation", a) {
				if slices.Contains(in.Columns, b) {
					t.Errorf("correlation reported between %s and %s, whose true r is %.3f: %s", a, b, v, in.Description)
				}
			}
		}
	})

	t.Run("temporal", func(t *testing.T) {
		ins := insightsOn(r, "temporal", "visits.visited_at")
		if len(ins) == 0 {
			t.Fatalf("no temporal insight on visits.visited_at (weekend share %.3f, January share %.3f vs monthly mean %.3f)",
				weekend, truth.monthShare[time.January], monthMean)
		}
		desc := ins[0].Description
		t.Logf("%s\nevidence: %q", desc, ins[0].Evidence)
		if !strings.Contains(desc, "January") {
			t.Errorf("temporal insight does not name January as the peak month: %s", desc)
		}
		if strings.Contains(desc, "February") || strings.Contains(desc, "December") {
			t.Errorf("temporal insight names a month that is no peak: %s", desc)
		}
		// The quietest weekday is Sunday.
		if !strings.Contains(desc, "Sunday") {
			t.Errorf("temporal insight does not name Sunday, the quietest day (%.1f%% of visits): %s",
				100*truth.weekdayShare[time.Sunday], desc)
		}
	})

	t.Run("temporal_weekend", func(t *testing.T) {
		// The pattern is that rows fall Monday to Friday: a description
		// naming one quiet day leaves out the other, which holds a quarter
		// of an ordinary day's rows.
		ins := insightsOn(r, "temporal", "visits.visited_at")
		if len(ins) == 0 {
			t.Fatal("no temporal insight on visits.visited_at")
		}
		desc := strings.ToLower(ins[0].Description)
		if !(strings.Contains(desc, "weekend") || strings.Contains(desc, "weekday") ||
			strings.Contains(desc, "saturday") && strings.Contains(desc, "sunday") ||
			strings.Contains(desc, "monday–friday") || strings.Contains(desc, "monday to friday")) {
			t.Errorf("temporal insight does not say most visits fall Monday–Friday (weekend %.1f%%: Sat %.1f%%, Sun %.1f%%): %s",
				100*weekend, 100*truth.weekdayShare[time.Saturday], 100*truth.weekdayShare[time.Sunday], ins[0].Description)
		}
	})

	t.Run("duplicates", func(t *testing.T) {
		for _, c := range []struct {
			table, col string
			dups       []string
		}{{"visits", "claim_number", truth.claimDups}, {"patients", "email", truth.emailDups}} {
			key := c.table + "." + c.col
			// The truth, from what was written: values held by more than one row.
			var want []string
			for v, n := range truth.table(c.table).col[c.col].values {
				if n > 1 {
					want = append(want, v.(string))
				}
			}
			sort.Strings(want)
			got := slices.Clone(c.dups)
			sort.Strings(got)
			if !slices.Equal(want, got) {
				t.Fatalf("%s: written duplicates %v, planted %v", key, want, got)
			}
			_, col := findColumn(r, c.table, c.col)
			if col == nil {
				t.Errorf("%s missing", key)
				continue
			}
			as := anomaliesOf(col, "duplicate")
			if len(as) != 1 {
				t.Errorf("%s: want a duplicate anomaly for %v; anomalies: %s", key, want, describeAnomalies(col))
				continue
			}
			if as[0].Count != int64(len(want)) {
				t.Errorf("%s: duplicate count %d, want %d", key, as[0].Count, len(want))
			}
			if len(as[0].Examples) == 0 {
				t.Errorf("%s: duplicate anomaly names no values", key)
			}
			// A column of personal data shows its duplicates masked (issue
			// 21): each example is a planted duplicate's mask.
			shown := want
			if col.PII != nil {
				shown = nil
				for _, v := range want {
					shown = append(shown, privacy.Mask(col.PII.Category, v))
				}
			}
			for _, ex := range as[0].Examples {
				if !slices.Contains(shown, ex) {
					t.Errorf("%s: duplicate example %q is not a planted duplicate %v (as shown: %v)", key, ex, want, shown)
				}
			}
			t.Logf("%s: %s", key, describeAnomalies(col))
		}
	})
}
