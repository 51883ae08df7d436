package statistical

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

func TestTokens(t *testing.T) {
	for in, want := range map[string]string{
		"UnitPrice": "[unit price]", "unit_price": "[unit price]", "customerID": "[customer id]",
		"HTTPCode": "[http code]", "zip code": "[zip code]", "page": "[page]",
		// the tokenizer every expert shares: a trailing number tells
		// columns apart and is dropped; inner ones split words
		"Address2": "[address]", "zip_5": "[zip]", "line1_addr": "[line 1 addr]", "2": "[2]",
	} {
		if got := fmt.Sprint(tokens(in)); got != want {
			t.Errorf("tokens(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestNameRules(t *testing.T) {
	check := func(name string, f func(string) bool, want bool) {
		t.Helper()
		if f(name) != want {
			t.Errorf("%q: got %v, want %v", name, !want, want)
		}
	}
	for _, n := range []string{"email", "contact_email", "sku", "product_code", "natural_key", "EmailAddress"} {
		check(n, uniqueByName, true)
	}
	for _, n := range []string{"postal_code", "country_code", "CurrencyCode", "coupon_code", "name", "status"} {
		check(n, uniqueByName, false)
	}
	// The key markers are naming's: a surrogate key (ss_item_sk), a hash
	// key (customer_hk), and a marker written first (id_cliente).
	for _, n := range []string{"id", "customer_id", "CustomerId", "order_no", "product_code", "ss_item_sk", "customer_hk", "id_cliente", "country_cd"} {
		check(n, keyLike, true)
	}
	for _, n := range []string{"amount", "idle_seconds", "video", "skill", "_", "%", ""} {
		check(n, keyLike, false)
	}
	for _, n := range []string{"UnitPrice", "quantity", "qty_on_hand", "amount", "Freight", "Milliseconds"} {
		check(n, nonNegativeByName, true)
	}
	for _, n := range []string{"balance", "discount", "delta", "temperature"} {
		check(n, nonNegativeByName, false)
	}
	check("age", ageByName, true)
	check("page", ageByName, false)
	check("usage", ageByName, false)
	check("due_date", futureByName, true)
	check("created_at", futureByName, false)
}

func TestFences(t *testing.T) {
	p := &profiler{}
	col := func(min string, q ...float64) *colStats {
		n, d := int64(1000), int64(500)
		return &colStats{spec: colSpec{Measure: true}, numeric: &n, distinct: &d, min: &min, quant: q}
	}
	// Right-skewed and positive, as amounts are: log scale.
	f := p.outlierFences(col("2", 50, 111, 221, 476))
	if f == nil || !f.log || f.hi < 19000 || f.hi > 19200 {
		t.Errorf("skewed: %+v", f)
	}
	// Symmetric and positive, as ids or scores are: linear, or the small
	// values would be cut by the lower fence.
	f = p.outlierFences(col("1", 250, 500, 750, 950))
	if f == nil || f.log || f.lo != -1250 || f.hi != 2250 {
		t.Errorf("symmetric: %+v", f)
	}
	if f := p.outlierFences(col("1", 1, 1, 1, 3)); f != nil {
		t.Errorf("no spread, no fences: %+v", f)
	}
	// The next step of a discrete scale is not apart; a value a hundred
	// times the rest is.
	lin := &fences{q1: 2.99, q3: 4.99}
	if lin.apart(11.99, 10.99) || !lin.apart(20, 10.99) {
		t.Error("linear gap")
	}
	lg := &fences{q1: 50, q3: 221, log: true}
	if lg.apart(2500, 2360) || !lg.apart(60602, 2360) {
		t.Error("log gap")
	}
}

func TestCalendarRules(t *testing.T) {
	day := func(s string) time.Time { d, _ := parseDate(s); return d }
	// A 14-month span: months seen twice are averaged, not summed, so no
	// peak appears.
	months := map[int]int64{}
	for ym := 202301; ym <= 202402; ym = nextMonth(ym) {
		months[ym] = 100
	}
	if d, _, ok := seasonality(months, day("2023-01-01"), day("2024-02-29"), true); ok {
		t.Errorf("flat calendar: %s", d)
	}
	months[202312] = 300 // 300 of 1,400 in an average year
	d, ev, ok := seasonality(months, day("2023-01-01"), day("2024-02-29"), true)
	if !ok || d != "December holds 21% of rows (2.6× the monthly mean)" || !strings.Contains(ev, "14 complete months") {
		t.Errorf("peak: %q %q", d, ev)
	}
	// Gaps inside the span are not seasons.
	months[205001] = 1
	if d, _, ok := seasonality(months, day("2023-01-01"), day("2050-01-31"), true); ok {
		t.Errorf("gappy calendar: %s", d)
	}
	// Five weeks and two days: Monday and Tuesday occur six times, the
	// others five; the same rows per occurrence is a flat week.
	var dow [7]int64
	for d := range 7 {
		dow[d] = 500
	}
	dow[time.Monday], dow[time.Tuesday] = 600, 600
	if d, _, ok := weekdays(dow, day("2024-01-01"), day("2024-02-06")); ok {
		t.Errorf("flat week: %s", d)
	}
	dow[time.Saturday] = 300
	if d, _, ok := weekdays(dow, day("2024-01-01"), day("2024-02-06")); !ok || !strings.HasPrefix(d, "Saturday is the quietest day (") {
		t.Errorf("quiet Saturday: %q", d)
	}
	dow[time.Saturday] = 0
	if d, _, _ := weekdays(dow, day("2024-01-01"), day("2024-02-06")); d != "no rows fall on Saturday" {
		t.Errorf("empty Saturday: %q", d)
	}
	// A working week over four whole weeks: 1,000 rows a weekday (Monday
	// 1,200), 60 on Saturday, 12 on Sunday: 98.6% Monday–Friday.
	week := [7]int64{12, 1200, 1000, 1000, 1000, 1000, 60}
	d, _, ok = weekdays(week, day("2024-01-01"), day("2024-01-28"))
	if want := "Monday–Friday hold 99% of rows (Saturday 1.1%, Sunday 0.2%), Monday the busiest day"; !ok || d != want {
		t.Errorf("working week: %q, want %q", d, want)
	}
}

func TestHourRules(t *testing.T) {
	// Office hours: rows from 08:00 to 18:00 only, most at 10:00.
	var hour [24]int64
	var total int64
	for h := 8; h < 18; h++ {
		hour[h] = 100
		total += 100
	}
	hour[10] += 100
	total += 100
	d, _, ok := hours(hour, total)
	if want := "the busiest hour is 10:00–11:00 (18.2%); no rows between 18:00 and 08:00"; !ok || d != want {
		t.Errorf("office hours: %q, want %q", d, want)
	}
	// Two empty hours are not a stretch worth naming.
	for h := range 24 {
		hour[h] = 100
	}
	hour[3], hour[4], hour[12] = 0, 0, 400
	if from, to, ok := quietStretch(hour); ok {
		t.Errorf("two empty hours named as a stretch: %d..%d", from, to)
	}
	if d, _, _ := hours(hour, 2600); !strings.Contains(d, "the quietest 03:00–04:00 (0.0%)") {
		t.Errorf("short gap: %q", d)
	}
}

// TestCastText holds castText to what SQLite 3.54 returned for
// SELECT CAST(x AS TEXT). Values that need 17 digits are written correctly
// rounded here, while SQLite's own conversion may differ in the last digit
// (it wrote 1/3 as 0.33333333333333332): such values are left out.
func TestCastText(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{0.0, "0.0"}, {math.Copysign(0, -1), "0.0"}, {0.1, "0.1"},
		{1e20, "1.0e+20"}, {123456789.123, "123456789.123"}, {1e-7, "1.0e-07"}, {2.5, "2.5"},
		{100.0, "100.0"}, {1e15, "1000000000000000.0"}, {1e16, "10000000000000000.0"},
		{1e17, "1.0e+17"}, {1.5e16, "15000000000000000.0"}, {1e-4, "0.0001"}, {1e-5, "1.0e-05"},
		{0.00012345, "0.00012345"}, {1.4285714285714285e+17, "1.4285714285714285e+17"},
		{2.0 / 3 * 1e-3, "0.00066666666666666664"}, {-1234.5e-9, "-1.2345e-06"}, {1e300, "1.0e+300"},
		{1.0 / 7, "0.14285714285714285"},
		{0.30000000000000004, "0.30000000000000004"}, {int64(42), "42"}, {"x", "x"},
	} {
		if got := castText(c.in); got != c.want {
			t.Errorf("castText(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTrendAndGaps(t *testing.T) {
	day := func(s string) time.Time { d, _ := parseDate(s); return d }
	// Two years growing from 100 to 330 rows a month, 10 more each month.
	months := map[int]int64{}
	i := 0
	for ym := 202201; ym <= 202312; ym = nextMonth(ym) {
		months[ym] = int64(100 + 10*i)
		i++
	}
	d, ev, ok := trend(months, day("2022-01-01"), day("2023-12-31"), true)
	if !ok || d != "rows per month grew from about 100 to 330 over 24 months" || !strings.Contains(ev, "R²=1.00") {
		t.Errorf("growth: %q %q", d, ev)
	}
	// The same counts backwards fall.
	back := map[int]int64{}
	i = 0
	for ym := 202201; ym <= 202312; ym = nextMonth(ym) {
		back[ym] = int64(330 - 10*i)
		i++
	}
	if d, _, ok := trend(back, day("2022-01-01"), day("2023-12-31"), true); !ok || d != "rows per month fell from about 330 to 100 over 24 months" {
		t.Errorf("decline: %q", d)
	}
	// Flat with noise: no trend.
	flat := map[int]int64{}
	for ym := 202201; ym <= 202312; ym = nextMonth(ym) {
		flat[ym] = 200 + int64(ym%7)
	}
	if d, _, ok := trend(flat, day("2022-01-01"), day("2023-12-31"), true); ok {
		t.Errorf("flat calendar has a trend: %q", d)
	}
	// A feed that stopped for three months, then a single empty month.
	flat[202305], flat[202306], flat[202307], flat[202310] = 0, 0, 0, 0
	if d, ev, ok := gaps(flat, day("2022-01-01"), day("2023-12-31"), true); !ok ||
		d != "no rows in 2023-05 to 2023-07 and 2023-10" || !strings.HasPrefix(ev, "4 of 24 complete months without rows") {
		t.Errorf("gaps: %q %q", d, ev)
	}
	// Sparse data (a few rows a month) has empty months by chance.
	sparse := map[int]int64{}
	for ym := 202201; ym <= 202312; ym = nextMonth(ym) {
		sparse[ym] = int64(ym % 3)
	}
	if d, _, ok := gaps(sparse, day("2022-01-01"), day("2023-12-31"), true); ok {
		t.Errorf("sparse calendar has gaps: %q", d)
	}
}
