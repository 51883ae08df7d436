package main

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/report"
)

// The acceptance test of issue 6: on a database nobody tuned the product
// for, discover says what the data means, which business rules hold, and
// how to query it. The database is a mobile operator's subscriber base,
// generated here with a fixed seed:
//
//	plans             12 rows   tariff_type enum; the one side of plans → subscribers
//	subscribers     3000 rows   email (three addresses shared), msisdn (phone, unique in
//	                            practice, no constraint), subscriber_uuid (UUID, unique, no
//	                            constraint), country_code (ISO 3166 alpha-2), segment and
//	                            signup_channel (nullable, never NULL), status lifecycle:
//	                            activated_at set for active/suspended/terminated,
//	                            suspended_at only for suspended, terminated_at only for
//	                            terminated; sign-ups grow over time
//	usage_records  ~15000 rows  declared FK to subscribers with three orphans; session_uuid;
//	                            usage_type enum; roaming_country (ISO alpha-2, mostly NULL);
//	                            fewer records at weekends; two negative charges
//	support_tickets  1500 rows  undeclared reference to subscribers; status lifecycle with
//	                            resolved_at set for resolved/closed; contact_email; opened
//	                            uniformly over the week
const (
	briefSeed1, briefSeed2 = 0x7e1e_c0de_0000_0006, 0xb41e_f1a6

	briefPlans       = 12
	briefSubscribers = 3000
	briefUsage       = 15000
	briefTickets     = 1500
)

// briefTruth is what the generator wrote, for the assertions.
type briefTruth struct {
	statusRows       map[string]int // subscribers.status → rows
	ticketStatusRows map[string]int // support_tickets.status → rows
	withoutUsage     int            // subscribers with no usage record
	usageOrphans     int            // usage records whose subscriber does not exist
	emailDups        []string       // subscribers.email values held by two rows
	negativeCharges  int
	createdFirstHalf int // subscribers created in the first half of their time span
	createdLastHalf  int
	usageByWeekday   [7]int
	ticketsByWeekday [7]int
}

var (
	briefStatus    = enum{[]string{"pending", "active", "suspended", "terminated"}, []float64{0.06, 0.70, 0.08, 0.16}}
	briefSegment   = enum{[]string{"consumer", "business", "student", "senior"}, []float64{0.62, 0.2, 0.12, 0.06}}
	briefChannel   = enum{[]string{"web", "retail_store", "telesales", "partner"}, []float64{0.45, 0.3, 0.15, 0.1}}
	briefUsageType = enum{[]string{"voice", "sms", "data"}, []float64{0.35, 0.2, 0.45}}
	briefTariff    = []string{"prepaid", "postpaid", "business"}
	briefCountries = enum{[]string{"GB", "IE", "FR", "DE", "ES", "NL", "PT", "PL"}, []float64{0.55, 0.1, 0.08, 0.08, 0.07, 0.05, 0.04, 0.03}}
	briefRoaming   = []string{"FR", "ES", "IT", "US", "DE", "GR", "PT", "TR", "NL", "CH"}
	briefTicketSt  = enum{[]string{"open", "in_progress", "resolved", "closed"}, []float64{0.15, 0.10, 0.35, 0.40}}
	briefPriority  = enum{[]string{"low", "normal", "high", "urgent"}, []float64{0.3, 0.45, 0.2, 0.05}}
	briefTChannel  = enum{[]string{"phone", "chat", "email", "store"}, []float64{0.4, 0.3, 0.2, 0.1}}
	// usage per weekday, Sunday first: quieter weekends.
	briefUsageWeekday = [7]float64{0.55, 1.1, 1.1, 1.1, 1.1, 1.15, 0.75}
)

var briefDDL = []string{
	`CREATE TABLE plans (plan_id INTEGER PRIMARY KEY, plan_name TEXT NOT NULL, tariff_type TEXT NOT NULL,
		monthly_fee REAL NOT NULL, data_allowance_gb INTEGER, launched_on DATE)`,
	`CREATE TABLE subscribers (subscriber_id INTEGER PRIMARY KEY, subscriber_uuid TEXT NOT NULL,
		full_name TEXT NOT NULL, email TEXT, msisdn TEXT NOT NULL, country_code TEXT NOT NULL, segment TEXT,
		signup_channel TEXT, status TEXT NOT NULL, plan_id INTEGER NOT NULL REFERENCES plans(plan_id),
		created_at TIMESTAMP NOT NULL, activated_at TIMESTAMP, suspended_at TIMESTAMP, terminated_at TIMESTAMP)`,
	`CREATE TABLE usage_records (record_id INTEGER PRIMARY KEY,
		subscriber_id INTEGER NOT NULL REFERENCES subscribers(subscriber_id), session_uuid TEXT NOT NULL,
		usage_type TEXT NOT NULL, started_at TIMESTAMP NOT NULL, duration_seconds INTEGER, data_mb REAL,
		roaming_country TEXT, charge_amount REAL NOT NULL)`,
	`CREATE TABLE support_tickets (ticket_id INTEGER PRIMARY KEY, subscriber_id INTEGER NOT NULL,
		opened_at TIMESTAMP NOT NULL, channel TEXT NOT NULL, priority TEXT NOT NULL, status TEXT NOT NULL,
		resolved_at TIMESTAMP, contact_email TEXT)`,
}

func uuidFrom(r *rand.Rand) string {
	return fmt.Sprintf("%08x-%04x-4%03x-%x%03x-%012x", r.Uint32(), r.IntN(1<<16), r.IntN(1<<12),
		8+r.IntN(4), r.IntN(1<<12), r.Uint64()&(1<<48-1))
}

// buildTelco writes the operator's database to path and returns the truth.
func buildTelco(t testing.TB, path string) *briefTruth {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, ddl := range briefDDL {
		if _, err := db.Exec(ddl); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(briefSeed1, briefSeed2))
	truth := &briefTruth{statusRows: map[string]int{}, ticketStatusRows: map[string]int{}}
	ins := func(table string, vals ...any) {
		ph := strings.TrimSuffix(strings.Repeat("?,", len(vals)), ",")
		if _, err := tx.Exec(fmt.Sprintf("INSERT INTO %s VALUES (%s)", table, ph), vals...); err != nil {
			t.Fatalf("insert into %s: %v", table, err)
		}
	}

	for i := 1; i <= briefPlans; i++ {
		tariff := briefTariff[(i-1)%3]
		var allowance any
		if i%4 != 0 {
			allowance = int64([]int{1, 5, 10, 20, 50, 100}[r.IntN(6)])
		}
		ins("plans", int64(i), fmt.Sprintf("%s %d", strings.ToUpper(tariff[:1])+tariff[1:], i), tariff,
			math.Round((5+r.Float64()*45)*100)/100, allowance,
			dateText(time.Date(2018+r.IntN(5), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)))
	}

	// subscribers: sign-ups from 2022-01-01 for 900 days, denser later
	// (density grows linearly, so the later half of the span holds ~3/4).
	from := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	span := 900 * 24 * time.Hour
	mid := from.Add(span / 2)
	snapshot := from.Add(span + 30*24*time.Hour)
	emails := make([]string, briefSubscribers+1)
	emailDupAt := map[int]int{1_201: 77, 2_202: 1_500, 2_903: 640}
	active := []int64{} // subscribers who ever activated
	for i := 1; i <= briefSubscribers; i++ {
		first, last := firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
		var email any
		switch src, dup := emailDupAt[i]; {
		case dup:
			emails[i] = emails[src]
			email = emails[i]
			truth.emailDups = append(truth.emailDups, emails[i])
		case r.Float64() < 0.9 || i == 77 || i == 1_500 || i == 640:
			emails[i] = fmt.Sprintf("%s.%s%d@%s", strings.ToLower(first), strings.ToLower(last), i, mailDomains[r.IntN(len(mailDomains))])
			email = emails[i]
		}
		created := from.Add(time.Duration(math.Sqrt(r.Float64()) * float64(span))).Truncate(time.Second)
		if created.Before(mid) {
			truth.createdFirstHalf++
		} else {
			truth.createdLastHalf++
		}
		status := briefStatus.pick(r)
		truth.statusRows[status]++
		var activated, suspended, terminated any
		if status != "pending" {
			a := created.Add(time.Duration(1+r.IntN(72)) * time.Hour)
			activated = tsText(a)
			active = append(active, int64(i))
			switch status {
			case "suspended":
				suspended = tsText(a.Add(time.Duration(r.Int64N(int64(snapshot.Sub(a))))).Truncate(time.Second))
			case "terminated":
				terminated = tsText(a.Add(time.Duration(r.Int64N(int64(snapshot.Sub(a))))).Truncate(time.Second))
			}
		}
		msisdn := fmt.Sprintf("+447700%06d", (i*7919+13)%1_000_000)
		ins("subscribers", int64(i), uuidFrom(r), first+" "+last, email, msisdn, briefCountries.pick(r),
			briefSegment.pick(r), briefChannel.pick(r), status, int64(1+r.IntN(briefPlans)), tsText(created),
			activated, suspended, terminated)
	}

	// usage_records: a year of usage by subscribers who activated, a
	// quarter of them heavy users; three records point at no subscriber.
	usageFrom := time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC)
	cum := make([]float64, 365)
	var acc float64
	for d := range cum {
		acc += briefUsageWeekday[usageFrom.AddDate(0, 0, d).Weekday()]
		cum[d] = acc
	}
	used := map[int64]bool{}
	orphanAt := map[int]int64{4_444: 900_001, 9_999: 900_002, 13_131: 900_003}
	for i := 1; i <= briefUsage; i++ {
		sub := active[int(float64(len(active))*math.Pow(r.Float64(), 1.8))]
		if v, ok := orphanAt[i]; ok {
			sub = v
			truth.usageOrphans++
		} else {
			used[sub] = true
		}
		d, _ := slices.BinarySearch(cum, r.Float64()*acc)
		day := usageFrom.AddDate(0, 0, min(d, len(cum)-1))
		truth.usageByWeekday[day.Weekday()]++
		started := day.Add(time.Duration(r.IntN(86400)) * time.Second)
		typ := briefUsageType.pick(r)
		var dur, mb, roaming any
		charge := 0.0
		switch typ {
		case "voice":
			s := int64(5 + r.ExpFloat64()*180)
			dur, charge = s, math.Round(float64(s)*0.002*100)/100
		case "sms":
			charge = 0.05
		case "data":
			m := math.Round(r.ExpFloat64()*120*10) / 10
			mb, charge = m, math.Round(m*0.004*100)/100
		}
		if r.Float64() < 0.07 {
			roaming = briefRoaming[r.IntN(len(briefRoaming))]
			charge = math.Round(charge*3*100)/100 + 0.5
		}
		if i == 5_000 || i == 11_000 {
			charge = -4.99 // refund adjustments written as usage
			truth.negativeCharges++
		}
		ins("usage_records", int64(i), sub, uuidFrom(r), typ, tsText(started), dur, mb, roaming, charge)
	}
	for i := 1; i <= briefSubscribers; i++ {
		if !used[int64(i)] {
			truth.withoutUsage++
		}
	}

	// support_tickets: opened uniformly over 2023-01-01 .. 2024-06-30.
	tFrom := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	tSpan := int64(time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC).Sub(tFrom) / time.Second)
	for i := 1; i <= briefTickets; i++ {
		opened := tFrom.Add(time.Duration(r.Int64N(tSpan)) * time.Second)
		truth.ticketsByWeekday[opened.Weekday()]++
		status := briefTicketSt.pick(r)
		truth.ticketStatusRows[status]++
		var resolved, contact any
		if status == "resolved" || status == "closed" {
			resolved = tsText(opened.Add(time.Duration(1+r.IntN(240)) * time.Hour))
		}
		sub := int64(1 + r.IntN(briefSubscribers))
		if r.Float64() < 0.7 {
			contact = fmt.Sprintf("%s.%d@%s", strings.ToLower(lastNames[r.IntN(len(lastNames))]), sub, mailDomains[r.IntN(len(mailDomains))])
		}
		ins("support_tickets", int64(i), sub, tsText(opened), briefTChannel.pick(r), briefPriority.pick(r), status, resolved, contact)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return truth
}

func hypothesesAbout(r report.Report, words ...string) []report.Hypothesis {
	var out []report.Hypothesis
	for _, h := range r.Hypotheses {
		ok := true
		for _, w := range words {
			if !strings.Contains(h.Statement, w) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, h)
		}
	}
	return out
}

func describeHypotheses(hs []report.Hypothesis) string {
	if len(hs) == 0 {
		return "none"
	}
	var b strings.Builder
	for _, h := range hs {
		fmt.Fprintf(&b, "\n  [%s] %s (evidence %q)", h.Status, h.Statement, h.Evidence)
	}
	return b.String()
}

// withStatus returns the hypotheses of hs that have the status.
func withStatus(hs []report.Hypothesis, status string) []report.Hypothesis {
	var out []report.Hypothesis
	for _, h := range hs {
		if h.Status == status {
			out = append(out, h)
		}
	}
	return out
}

// TestBriefingTelco is the acceptance test of issue 6.
func TestBriefingTelco(t *testing.T) {
	dir := t.TempDir()
	if keep := os.Getenv("DISCOVER_BRIEFING_DIR"); keep != "" {
		dir = keep // to read the database and the reports afterwards
		os.RemoveAll(filepath.Join(dir, "netco.sqlite"))
		os.RemoveAll(filepath.Join(dir, "discovery"))
	}
	db := filepath.Join(dir, "netco.sqlite")
	start := time.Now()
	truth := buildTelco(t, db)
	t.Logf("generated %s in %s", filepath.Base(db), time.Since(start).Round(time.Millisecond))

	// The plants themselves, so that a failure below is the product's.
	if len(truth.emailDups) != 3 || truth.usageOrphans != 3 || truth.negativeCharges != 2 {
		t.Fatalf("plants: %d shared emails, %d orphans, %d negative charges", len(truth.emailDups), truth.usageOrphans, truth.negativeCharges)
	}
	if float64(truth.createdLastHalf) < 2*float64(truth.createdFirstHalf) {
		t.Fatalf("growth too weak: %d sign-ups in the first half, %d in the second", truth.createdFirstHalf, truth.createdLastHalf)
	}
	if share := float64(truth.withoutUsage) / briefSubscribers; share < 0.05 || share > 0.6 {
		t.Fatalf("%d subscribers without usage (%.0f%%)", truth.withoutUsage, 100*share)
	}
	t.Logf("truth: status %v; tickets %v; %d subscribers without usage; sign-ups %d then %d; usage by weekday %v; tickets by weekday %v",
		truth.statusRows, truth.ticketStatusRows, truth.withoutUsage, truth.createdFirstHalf, truth.createdLastHalf,
		truth.usageByWeekday, truth.ticketsByWeekday)

	before := sha(t, db)
	out := filepath.Join(dir, "discovery")
	start = time.Now()
	res := run(t, "--db", db, "--out", out)
	took := time.Since(start)
	t.Logf("discover --db %s: exit %d in %s", filepath.Base(db), res.code, took.Round(time.Millisecond))
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
	t.Logf("summary: %s", r.Summary)

	t.Run("domain", func(t *testing.T) {
		if r.Domain.Label == nil || *r.Domain.Label != "telecom" {
			t.Errorf("domain %v (confidence %.2f, evidence %q), want telecom", derefS(r.Domain.Label), r.Domain.Confidence, r.Domain.Evidence)
		}
		ev := strings.Join(r.Domain.Evidence, "; ")
		if !strings.Contains(ev, "subscriber") {
			t.Errorf("domain evidence does not name the word that decided it (subscriber): %q", r.Domain.Evidence)
		}
		if !strings.Contains(ev, "runner-up") {
			t.Errorf("domain evidence names no runner-up: %q", r.Domain.Evidence)
		}
	})

	t.Run("semantic_types", func(t *testing.T) {
		want := map[string]string{
			"subscribers.email": "email", "support_tickets.contact_email": "email",
			"subscribers.msisdn":          "phone",
			"subscribers.subscriber_uuid": "uuid", "usage_records.session_uuid": "uuid",
			"subscribers.country_code": "country", "usage_records.roaming_country": "country",
			"subscribers.status": "enum", "subscribers.segment": "enum", "subscribers.signup_channel": "enum",
			"usage_records.usage_type": "enum", "support_tickets.status": "enum", "support_tickets.priority": "enum",
			"support_tickets.channel": "enum", "plans.tariff_type": "enum",
		}
		keys := make([]string, 0, len(want))
		for k := range want {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			table, col, _ := strings.Cut(k, ".")
			_, c := findColumn(r, table, col)
			if c == nil {
				t.Errorf("%s missing from the report", k)
				continue
			}
			if c.SemanticType == nil || *c.SemanticType != want[k] {
				t.Errorf("%s: semantic type %v (confidence %v), want %s", k, derefS(c.SemanticType), deref(c.SemanticConfidence), want[k])
			}
		}
		// An enum's values are all in top_values, with their counts.
		_, c := findColumn(r, "subscribers", "status")
		if c != nil {
			for v, n := range truth.statusRows {
				if !slices.ContainsFunc(c.TopValues, func(vc report.ValueCount) bool { return vc.Value == v && vc.Count == int64(n) }) {
					t.Errorf("subscribers.status: %q (%d rows) missing from top_values %v", v, n, c.TopValues)
				}
			}
		}
	})

	t.Run("hypotheses", func(t *testing.T) {
		by := map[string]int{}
		for _, h := range r.Hypotheses {
			by[h.Status]++
			if strings.TrimSpace(h.TestSQL) == "" || len(h.Evidence) == 0 {
				t.Errorf("hypothesis %s has no test SQL or no evidence: %q %q", h.ID, h.TestSQL, h.Evidence)
			}
			if !regexp.MustCompile(`(?i)^\s*(SELECT|WITH)\b`).MatchString(h.TestSQL) && h.TestSQL != "" {
				t.Errorf("hypothesis %s: test SQL is no SELECT: %q", h.ID, h.TestSQL)
			}
		}
		t.Logf("%d hypotheses: %v", len(r.Hypotheses), by)
		for _, h := range r.Hypotheses {
			t.Logf("[%s %s] %s %q", h.Status, h.Expert, h.Statement, h.Evidence)
		}
		if len(r.Hypotheses) < 10 {
			t.Errorf("%d hypotheses, want at least 10:%s", len(r.Hypotheses), describeHypotheses(r.Hypotheses))
		}
		if by["confirmed"] == 0 || by["refuted"] == 0 {
			t.Errorf("want confirmed and refuted hypotheses, got %v:%s", by, describeHypotheses(r.Hypotheses))
		}
		// Every hypothesis says what it expected and how sure it was before the test.
		for _, h := range r.Hypotheses {
			if h.Expert == "query" || h.Expert == "semantic" || h.Expert == "rules" {
				if h.Expected == nil || *h.Expected == "" || h.ConfidenceBefore == nil {
					t.Errorf("hypothesis %s (%s) lacks its expected outcome or prior confidence", h.ID, h.Statement)
				}
			}
		}
	})

	t.Run("lifecycle", func(t *testing.T) {
		for _, c := range []struct {
			table, ts, status string
			values            []string
			rows              map[string]int
		}{
			{"subscribers", "terminated_at", "status", []string{"terminated"}, truth.statusRows},
			{"subscribers", "suspended_at", "status", []string{"suspended"}, truth.statusRows},
			{"subscribers", "activated_at", "status", []string{"active", "suspended", "terminated"}, truth.statusRows},
			{"support_tickets", "resolved_at", "status", []string{"closed", "resolved"}, truth.ticketStatusRows},
		} {
			hs := hypothesesAbout(r, c.table+"."+c.ts, c.table+"."+c.status)
			ok := withStatus(hs, "confirmed")
			if len(ok) != 1 {
				t.Errorf("%s.%s: want one confirmed lifecycle hypothesis tying it to %s.%s; got:%s", c.table, c.ts, c.table, c.status, describeHypotheses(hs))
				continue
			}
			ev := strings.Join(ok[0].Evidence, "; ")
			for _, v := range c.values {
				if !strings.Contains(ev, fmt.Sprintf("'%s' (%s rows)", v, catalog.Thousands(int64(c.rows[v])))) {
					t.Errorf("%s.%s: evidence does not name status '%s' with its %d rows: %q", c.table, c.ts, v, c.rows[v], ok[0].Evidence)
				}
			}
			t.Logf("%s: %s", ok[0].Statement, ev)
		}
		// The rule is stated as a business rule among the insights.
		found := false
		for _, in := range r.Insights {
			if in.Kind == "business_rule" && slices.Contains(in.Columns, "subscribers.terminated_at") &&
				strings.Contains(in.Description, "'terminated'") {
				found = true
				t.Logf("insight: %s", in.Description)
			}
		}
		if !found {
			t.Errorf("no business_rule insight states that subscribers.terminated_at follows status 'terminated'")
		}
		// A timestamp set for every row follows no status.
		if hs := withStatus(hypothesesAbout(r, "subscribers.created_at", "subscribers.status"), "confirmed"); len(hs) > 0 {
			t.Errorf("created_at (never NULL) claimed as a lifecycle timestamp:%s", describeHypotheses(hs))
		}
	})

	t.Run("unique_in_practice", func(t *testing.T) {
		for _, col := range []string{"msisdn", "subscriber_uuid"} {
			hs := hypothesesAbout(r, "subscribers."+col, "unique")
			if len(withStatus(hs, "confirmed")) != 1 {
				t.Errorf("subscribers.%s (unique, no constraint): want a confirmed unique-in-practice hypothesis; got:%s", col, describeHypotheses(hs))
			}
		}
		hs := withStatus(hypothesesAbout(r, "subscribers.email", "unique"), "refuted")
		if len(hs) != 1 {
			t.Errorf("subscribers.email (3 addresses shared by two rows): want a refuted unique hypothesis; got:%s",
				describeHypotheses(hypothesesAbout(r, "subscribers.email")))
		} else if ev := strings.Join(hs[0].Evidence, "; "); !strings.Contains(ev, "3 values held by more than one row") {
			t.Errorf("subscribers.email: evidence does not count the 3 shared values: %q", hs[0].Evidence)
		}
	})

	t.Run("never_null", func(t *testing.T) {
		for _, col := range []string{"segment", "signup_channel"} {
			hs := hypothesesAbout(r, "subscribers."+col, "never NULL")
			if len(withStatus(hs, "confirmed")) != 1 {
				t.Errorf("subscribers.%s (nullable, never NULL): want a confirmed never-NULL hypothesis; got:%s", col, describeHypotheses(hs))
			}
		}
		// email is NULL in about a tenth of the rows: no such claim holds.
		if hs := withStatus(hypothesesAbout(r, "subscribers.email", "never NULL"), "confirmed"); len(hs) > 0 {
			t.Errorf("subscribers.email claimed never NULL:%s", describeHypotheses(hs))
		}
	})

	t.Run("value_range", func(t *testing.T) {
		hs := hypothesesAbout(r, "usage_records.charge_amount", "negative")
		ref := withStatus(hs, "refuted")
		if len(ref) != 1 || !strings.Contains(strings.Join(ref[0].Evidence, "; "), fmt.Sprintf("%d negative", truth.negativeCharges)) {
			t.Errorf("usage_records.charge_amount (2 negative charges): want a refuted never-negative hypothesis naming 2 negative values; got:%s", describeHypotheses(hs))
		}
	})

	t.Run("relationship_in_words", func(t *testing.T) {
		hs := hypothesesAbout(r, "subscribers", "usage_records", "one-to-many")
		if len(withStatus(hs, "confirmed")) != 1 {
			t.Errorf("want a confirmed one-to-many hypothesis subscribers → usage_records; got:%s", describeHypotheses(hs))
		}
		// Orphans of the declared reference refute the orphan test.
		hs = hypothesesAbout(r, "usage_records.subscriber_id", "subscribers.subscriber_id")
		if len(withStatus(hs, "refuted")) != 1 {
			t.Errorf("usage_records.subscriber_id has %d orphans: want a refuted reference hypothesis; got:%s", truth.usageOrphans, describeHypotheses(hs))
		}
		// "A subscriber has many usage records; N% of subscribers have none."
		pct := fmt.Sprintf("%d%%", int(math.Round(100*float64(truth.withoutUsage)/briefSubscribers)))
		found := false
		var all []string
		for _, in := range r.Insights {
			if in.Kind != "relationship" {
				continue
			}
			all = append(all, in.Description)
			d := strings.ToLower(in.Description)
			if strings.Contains(d, "subscriber has many usage records") && strings.Contains(d, pct+" of subscribers have none") {
				found = true
				t.Logf("insight: %s", in.Description)
			}
		}
		if !found {
			t.Errorf("no relationship insight says a subscriber has many usage records and %s have none; relationship insights: %q", pct, all)
		}
	})

	t.Run("recommendations", func(t *testing.T) {
		validated := 0
		kinds := map[string]int{}
		for _, rec := range r.Recommendations {
			if strings.TrimSpace(rec.SQL) == "" {
				t.Errorf("recommendation %s without SQL: %s", rec.Kind, rec.Description)
			}
			if rec.Validated {
				validated++
				kinds[rec.Kind]++
				if len(rec.Evidence) == 0 {
					t.Errorf("validated recommendation %s (%s) names no evidence", rec.Kind, rec.Description)
				}
			}
			t.Logf("[%s validated=%v] %s\n    %s\n    evidence %q", rec.Kind, rec.Validated, rec.Description, rec.SQL, rec.Evidence)
		}
		if validated < 3 {
			t.Errorf("%d validated recommendations, want at least 3", validated)
		}
		if len(kinds) < 2 {
			t.Errorf("validated recommendations of %d kinds %v, want at least 2", len(kinds), kinds)
		}
		// support_tickets.subscriber_id references subscribers without a
		// declared key or any index: lookups by it scan the table.
		if !slices.ContainsFunc(r.Recommendations, func(rec report.Recommendation) bool {
			return rec.Kind == "index" && rec.Validated && strings.Contains(rec.SQL, `"support_tickets"`) && strings.Contains(rec.SQL, `"subscriber_id"`)
		}) {
			t.Errorf("no validated index recommendation for support_tickets(subscriber_id)")
		}
	})

	t.Run("sections", func(t *testing.T) {
		md, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		var heads []string
		for _, line := range strings.Split(string(md), "\n") {
			if strings.HasPrefix(line, "## ") {
				heads = append(heads, strings.TrimPrefix(line, "## "))
			}
		}
		want := []string{"Summary", "Structure", "Business domain", "Insights and patterns", "Data quality", "Privacy", "Recommendations", "Uncertainties"}
		last := -1
		for _, w := range want {
			i := slices.Index(heads, w)
			if i < 0 {
				t.Errorf("report.md has no section %q; sections %q", w, heads)
				continue
			}
			if i < last {
				t.Errorf("report.md: section %q comes before %q; sections %q", w, heads[last], heads)
			}
			last = i
		}
		// The data-quality section names the planted problems.
		if i := strings.Index(string(md), "\n## Data quality"); i >= 0 {
			q := string(md[i:])
			if j := strings.Index(q[1:], "\n## "); j >= 0 {
				q = q[:j+1]
			}
			for _, s := range []string{"usage_records.charge_amount", "subscribers.email", "usage_records.subscriber_id"} {
				if !strings.Contains(q, s) {
					t.Errorf("the data-quality section does not mention %s", s)
				}
			}
		}
	})
}
