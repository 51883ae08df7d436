// Package star generates the SQLite database of a retail star schema for
// the speed and memory benchmark of a whole discovery: 24 tables and about
// 20M rows at scale 1, shaped like a decision-support warehouse rather
// than like issue 9's modules (package scale), so that the cost is
// measured on the kind of schema discover is run on.
//
// The tables, with their prefixes and rows at scale 1:
//
//   - six facts, growing with the scale: shop_sale (ss, 8.6M), shop_refund
//     (sr, 860k), mail_sale (ms, 2.9M), mail_refund (mr, 290k), net_sale
//     (ns, 1.4M) and stock_level (sl, 6M);
//   - ten dimensions that a bigger business has more of, growing with the
//     square root of the scale and never below a handful of rows: shopper
//     (sh, 100k), shopper_address (sa, 50k), goods (gd, 18k), mail_page
//     (mp, 12k), net_page (np, 2k), campaign (cp, 300), shop (so, 50),
//     net_site (nw, 30), contact_center (cc, 12) and depot (dp, 10);
//   - eight dimensions of a fixed size, calendars and code lists that do
//     not depend on the business: clock_dim (cd, 86,400), day_dim (dd,
//     73,049), shopper_profile (pf, 9,800), household_profile (hp, 7,200),
//     refund_cause (rc, 35), earnings_band (eb, 20), carrier_mode (cm, 20)
//     and tender (td, 8).
//
// So 20.4M rows at scale 1; at small scales the fixed dimensions dominate
// (about 0.4M rows at scale 0.01).
//
// The names follow the convention of decision-support benchmarks without
// copying one: every column carries its table's prefix, every dimension
// has an integer surrogate key <prefix>_<entity>_sk and a business key
// <prefix>_<entity>_id, and facts refer to dimensions by _sk columns that
// name a role where there is one (ms_bill_shopper_sk, ms_ship_shopper_sk)
// or abbreviate (ss_hprof_sk for household_profile). Sales have a
// composite primary key (goods, ticket or order number), and refunds refer
// to their sale by that pair. No reference is declared, since inferring
// them is what discover is measured on; Refs gives the truth.
//
// A shop ticket has 8 lines, a mail order 6 and a net order 5, each line
// other goods; a refund is one line in ten, with its sale's shopper,
// address and prices. stock_level is a weekly count of all goods in every
// depot, its primary key (day, goods, depot).
//
// The data is meant to be as awkward as a real warehouse's: day keys are
// Julian day numbers (2415022 is 1900-01-02) and clock keys seconds from
// 0, so not every key starts at 1; goods, shops, contact centres and net
// sites and pages keep two versions of most business keys (valid_from,
// valid_to), so their _id is no key; 2 to 4% of a fact's references and
// of some measures are NULL; profit can be negative. A reference holds
// only existing keys where it is not NULL.
//
// Values are computed from the row number x by hashing modulo a prime
// ((x × m + a)² mod 3037000493, with a different m and a for every use),
// so the same scale gives the same content and columns do not follow one
// another the way x mod n and x mod 2n would. The products stay within 63
// bits up to x of about 3×10⁹, so up to scale 200 (MaxScale). Facts hash
// a ticket and a line once each and draw several values from a hash.
//
// It is imported by tests only.
package star

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // the database/sql driver
)

// Version names the generator's output; bump it when the content changes,
// so that files cached by Ensure are rebuilt.
const Version = 1

// MaxScale is the largest scale whose hashing stays within 64-bit integers.
const MaxScale = 200

// Table is one generated table.
type Table struct {
	Name  string
	Rows  int64
	DDL   string
	fill  string // INSERT … SELECT over c(x), x from 1 to count
	count int64
}

// Ref is one reference of the schema, as a foreign key would declare it:
// ChildCols of Child hold values of ParentCols, a key of Parent.
type Ref struct {
	Child      string
	ChildCols  []string
	Parent     string
	ParentCols []string
}

// prime is the modulus of the hashing, the largest prime whose square
// fits in 63 bits: a hash is squared.
const prime = 3037000493

// saleDay is the day key of 1998-01-01, where five years of sales begin;
// facts' days are computed from it rather than looked up, and every day
// they reach is in day_dim (1900-01-02 to 2100-01-01).
const saleDay = 2450815

// column is one column of a table: its declaration, its value as an SQL
// expression over the names the table's source provides, and the table
// whose surrogate key it holds, if any.
type column struct {
	name, decl, expr, ref string
}

// spec is a table before rendering. from is the FROM clause the column
// expressions are evaluated over; it reads c(x).
type spec struct {
	name      string
	rows      int64
	from      string
	cols      []column
	key       []string // a composite primary key; a dimension's key is its first column
	count     int64    // the rows of c(x), when not the table's
	composite []Ref
}

// gen hands out hashing multipliers, a new one for every use, in the
// order the tables are built: the order is fixed, so the content is too.
type gen struct{ salt uint64 }

// h is a hash of v, about uniform over [0, prime): the square of v × m + a
// modulo the prime. Without the square, v × m would step through the
// residues too regularly: with m near a fraction of the prime like 1/2 or
// 2/3, v × m modulo 49 can skip 0 for thousands of v, and two columns
// modulo 7 are far from independent.
func (g *gen) h(v string) string {
	g.salt++
	// m and a from a Fibonacci hash of the salt, m large so that the first
	// rows are as mixed as the rest.
	f := g.salt * 0x9E3779B97F4A7C15
	m, a := 1<<30+(f>>33)%(prime-1<<30), (f>>7)%prime
	s := fmt.Sprintf("((%s * %d + %d) %% %d)", v, m, a, prime)
	return fmt.Sprintf("(%s * %s %% %d)", s, s, prime)
}

// pick is a key from 1 to n chosen by v.
func (g *gen) pick(v string, n int64) string {
	return fmt.Sprintf("(1 + %s %% %d)", g.h(v), n)
}

// orNull is e but for about one v in every, NULL then.
func (g *gen) orNull(v string, every int, e string) string {
	return fmt.Sprintf("CASE WHEN %s %% %d = 0 THEN NULL ELSE %s END", g.h(v), every, e)
}

// oneOf is one of the values, chosen by v.
func (g *gen) oneOf(v string, values ...string) string {
	return caseOf(g.h(v), values)
}

// nth is the value numbered i % len(values) from 0, i an SQL expression.
func nth(i string, values ...string) string {
	return caseOf(i, values)
}

func caseOf(i string, values []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CASE %s %% %d", i, len(values))
	for k, v := range values {
		fmt.Fprintf(&b, " WHEN %d THEN %s", k, quote(v))
	}
	b.WriteString(" END")
	return b.String()
}

func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// id is a business key like AAAAG0000123: a letter per dimension and a number.
func id(letter, n string) string {
	return fmt.Sprintf("'AAAA%s' || printf('%%07d', %s)", letter, n)
}

// word is a made-up name from v's last three or four decimal digits.
func word(v string) string {
	syl := func(d string) string {
		return fmt.Sprintf("substr('kalominesuratovipezu', 1 + 2 * (%s %% 10), 2)", d)
	}
	return fmt.Sprintf("%s || %s || %s || CASE WHEN %[4]s >= 1000 THEN %s ELSE '' END",
		syl(v), syl(v+" / 10"), syl(v+" / 100"), v, syl(v+" / 1000"))
}

// money renders a number of cents as a REAL amount.
func money(cents string) string { return "(" + cents + ") / 100.0" }

var (
	firstNames = []string{"Ada", "Ben", "Cleo", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivan", "June",
		"Kurt", "Lena", "Milo", "Nora", "Otto", "Pia", "Quinn", "Rosa", "Sam", "Tess",
		"Uma", "Vic", "Wes", "Xena", "Yuri", "Zoe", "Abel", "Bea", "Cyril", "Dora"}
	lastNames = []string{"Abbott", "Barros", "Chen", "Dunn", "Ekberg", "Ferris", "Garza", "Holm", "Iqbal", "Jansen",
		"Kowal", "Lind", "Moreau", "Nakata", "Okafor", "Pryce", "Quist", "Rahman", "Silva", "Tran",
		"Ueda", "Varga", "Walsh", "Xu", "Yates", "Zeller", "Albers", "Brandt", "Costa", "Doyle"}
	cities = []string{"Ashford", "Brookvale", "Cedar Falls", "Dunmore", "Eastwick", "Fairview", "Glenwood", "Harlow",
		"Ironton", "Juniper", "Kingsport", "Lakeside", "Milford", "Newbury", "Oakdale", "Pinecrest",
		"Quarry Hill", "Riverton", "Springdale", "Thornbury", "Union City", "Valemont", "Westfield", "Yorkton"}
	states = []string{"AL", "AZ", "CA", "CO", "FL", "GA", "IL", "IN", "KS", "KY",
		"MI", "MN", "MO", "NC", "NY", "OH", "OR", "PA", "TX", "WA"}
	streets   = []string{"Oak", "Maple", "Cedar", "Elm", "Pine", "Hill", "Lake", "Park", "Main", "Church", "Mill", "River", "Spring", "Sunset", "Forest", "Ridge", "Valley", "Meadow", "Highland", "Willow"}
	hours     = []string{"8AM-4PM", "8AM-8PM", "9AM-9PM", "10AM-6PM", "7AM-11PM"}
	countries = []string{"United States", "Canada", "Mexico", "Germany", "France", "India", "Japan", "Brazil", "Nigeria", "Poland", "Italy", "Kenya"}
)

// sizes are the tables' rows at a scale.
type sizes struct {
	goods, shopper, addr, campaign, shop, center, mailPage, netSite, netPage, depot int64
	shopSale, mailSale, netSale, stock                                              int64
}

// The fixed sizes.
const (
	days, clocks, profiles, hprofs, bands, modes, causes, tenders = 73_049, 86_400, 9_800, 7_200, 20, 20, 35, 8
)

func sizesAt(scale float64) sizes {
	grow := func(base, least float64) int64 { return int64(math.Max(least, math.Round(base*math.Sqrt(scale)))) }
	fact := func(base float64) int64 { return int64(math.Max(100, math.Round(base*scale))) }
	return sizes{
		// goods: at least as many as the lines of the longest ticket, which
		// must all be different goods.
		goods: grow(18_000, 50), shopper: grow(100_000, 20), addr: grow(50_000, 20),
		campaign: grow(300, 5), shop: grow(50, 5), center: grow(12, 5), mailPage: grow(12_000, 10),
		netSite: grow(30, 5), netPage: grow(2_000, 10), depot: grow(10, 5),
		shopSale: fact(8_600_000), mailSale: fact(2_900_000), netSale: fact(1_400_000), stock: fact(6_000_000),
	}
}

// Tables lists the 24 tables at a scale, dimensions first.
func Tables(scale float64) []Table {
	specs := build(sizesAt(scale))
	out := make([]Table, len(specs))
	for i, s := range specs {
		out[i] = s.render()
	}
	return out
}

// Refs lists every reference of the schema: the single-column ones from an
// _sk column to a dimension's key, and the composite ones from a refund
// to its sale.
func Refs() []Ref {
	specs := build(sizesAt(1))
	keys := map[string]string{}
	for _, s := range specs {
		keys[s.name] = s.cols[0].name
	}
	var out []Ref
	for _, s := range specs {
		for _, c := range s.cols {
			if c.ref != "" {
				out = append(out, Ref{Child: s.name, ChildCols: []string{c.name}, Parent: c.ref, ParentCols: []string{keys[c.ref]}})
			}
		}
		out = append(out, s.composite...)
	}
	return out
}

func (s spec) render() Table {
	var ddl, fill strings.Builder
	fmt.Fprintf(&ddl, "CREATE TABLE %s (", s.name)
	fmt.Fprintf(&fill, "INSERT INTO %s SELECT", s.name)
	for i, c := range s.cols {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&ddl, "%s\n\t%s %s", sep, c.name, c.decl)
		fmt.Fprintf(&fill, "%s\n\t%s", sep, c.expr)
	}
	if len(s.key) > 0 {
		fmt.Fprintf(&ddl, ",\n\tPRIMARY KEY (%s)", strings.Join(s.key, ", "))
	}
	ddl.WriteString("\n)")
	fmt.Fprintf(&fill, "\nFROM %s", s.from)
	count := s.count
	if count == 0 {
		count = s.rows
	}
	return Table{Name: s.name, Rows: s.rows, DDL: ddl.String(), fill: fill.String(), count: count}
}

// The column declarations.
const (
	tSK   = "INTEGER PRIMARY KEY"
	tBK   = "TEXT NOT NULL"
	tRef  = "INTEGER"
	tInt  = "INTEGER"
	tText = "TEXT"
	tReal = "REAL"
	tDate = "DATE"
	tFlag = "CHAR(1)"
	tNN   = "INTEGER NOT NULL"
)

// scd are the valid_from and valid_to of a dimension keeping two versions
// of a business key: odd rows the old one, even rows the current one.
func scd(p string) []column {
	return []column{
		{p + "_valid_from", tDate, "CASE x % 2 WHEN 1 THEN '1995-01-01' ELSE '1999-07-01' END", ""},
		{p + "_valid_to", tDate, "CASE x % 2 WHEN 1 THEN '1999-06-30' END", ""},
	}
}

// place is a city, a state, its zip code and its time zone.
func (g *gen) place(p string) []column {
	return []column{
		{p + "_city", tText, g.oneOf("x", cities...), ""},
		{p + "_state", tText, nth("st", states...), ""},
		{p + "_zip", tText, fmt.Sprintf("printf('%%05d', 10000 + st * 4000 + %s %% 4000)", g.h("x")), ""},
		{p + "_gmt_offset", tReal, "-5.0 - st % 4", ""},
	}
}

// withState adds the state number st to c(x).
func (g *gen) withState() string {
	return fmt.Sprintf("(SELECT x, %s %% %d AS st FROM c)", g.h("x"), len(states))
}

func (g *gen) person(v string) string {
	return g.oneOf(v, firstNames...) + " || ' ' || " + g.oneOf(v, lastNames...)
}

func (g *gen) yn(v string) string { return g.oneOf(v, "Y", "N") }

func (g *gen) day(v string, from, span int64) string {
	return fmt.Sprintf("%d + %s %% %d", from, g.h(v), span)
}

func build(z sizes) []spec {
	g := &gen{}
	var out []spec

	out = append(out, spec{name: "day_dim", rows: days, from: "(SELECT x, 2415021 + x AS k, date(2415021 + x) AS d FROM c)", cols: []column{
		{"dd_day_sk", tSK, "k", ""},
		{"dd_day_id", tBK, id("D", "x"), ""},
		{"dd_date", tDate + " NOT NULL", "d", ""},
		{"dd_year", tInt, "CAST(substr(d, 1, 4) AS INTEGER)", ""},
		{"dd_month", tInt, "CAST(substr(d, 6, 2) AS INTEGER)", ""},
		{"dd_dom", tInt, "CAST(substr(d, 9, 2) AS INTEGER)", ""},
		{"dd_quarter", tText, "substr(d, 1, 4) || 'Q' || ((CAST(substr(d, 6, 2) AS INTEGER) + 2) / 3)", ""},
		{"dd_week_seq", tInt, "(x + 1) / 7 + 1", ""},
		// A Julian day number plus one, modulo 7, is 0 on Sundays.
		{"dd_weekday", tText, nth("(k + 1)", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"), ""},
		{"dd_weekend", tFlag, "CASE WHEN (k + 1) % 7 IN (0, 6) THEN 'Y' ELSE 'N' END", ""},
		{"dd_holiday", tFlag, "CASE WHEN substr(d, 6) IN ('01-01', '05-01', '07-04', '11-11', '12-25', '12-26') THEN 'Y' ELSE 'N' END", ""},
		{"dd_fiscal_year", tInt, "CAST(substr(d, 1, 4) AS INTEGER) + (substr(d, 6, 2) >= '07')", ""},
	}})

	out = append(out, spec{name: "clock_dim", rows: clocks, from: "(SELECT x, x - 1 AS s FROM c)", cols: []column{
		{"cd_clock_sk", tSK, "s", ""},
		{"cd_clock_id", tBK, id("C", "x"), ""},
		{"cd_hour", tInt, "s / 3600", ""},
		{"cd_minute", tInt, "s / 60 % 60", ""},
		{"cd_second", tInt, "s % 60", ""},
		{"cd_am_pm", tText, "CASE WHEN s < 43200 THEN 'AM' ELSE 'PM' END", ""},
		{"cd_shift", tText, nth("(s / 28800)", "night", "early", "late"), ""},
		{"cd_meal", tText, "CASE WHEN s / 3600 BETWEEN 6 AND 8 THEN 'breakfast' WHEN s / 3600 BETWEEN 11 AND 13 THEN 'lunch' WHEN s / 3600 BETWEEN 17 AND 19 THEN 'dinner' END", ""},
	}})

	out = append(out, spec{name: "goods", rows: z.goods, from: "(SELECT x, (x + 1) / 2 AS n, 100 + " + g.h("x") + " % 9900 AS lp FROM c)", cols: append(append([]column{
		{"gd_goods_sk", tSK, "x", ""},
		{"gd_goods_id", tBK, id("G", "n"), ""}},
		scd("gd")...),
		column{"gd_name", tText, word("n"), ""},
		column{"gd_brand", tText, g.oneOf("n", "Norvik", "Halden", "Brisa", "Corvo", "Tamsin", "Oriel", "Kestrel", "Lumen", "Pavo", "Quill") + " || ' ' || " + g.pick("n", 20), ""},
		column{"gd_category", tText, g.orNull("n", 60, g.oneOf("n", "Apparel", "Books", "Electronics", "Garden", "Grocery", "Health", "Home", "Music", "Sports", "Toys")), ""},
		column{"gd_class", tText, g.oneOf("n", "basic", "premium", "value", "deluxe", "classic", "compact", "family", "outdoor", "travel", "kids", "pro", "eco", "seasonal", "imported", "local", "bulk"), ""},
		column{"gd_colour", tText, g.oneOf("x", "red", "blue", "green", "black", "white", "grey", "navy", "olive", "maroon", "teal", "beige", "ivory", "coral", "plum", "khaki", "amber", "lime", "tan", "rose", "slate"), ""},
		column{"gd_size", tText, g.oneOf("n", "S", "M", "L", "XL", "XXL", "one size"), ""},
		column{"gd_unit", tText, g.oneOf("n", "each", "box", "pack", "dozen", "kg", "pair", "case", "bundle"), ""},
		column{"gd_list_price", tReal, money("lp"), ""},
		column{"gd_cost", tReal, g.orNull("x", 40, money("lp * (40 + "+g.h("x")+" % 50) / 100")), ""},
		column{"gd_manager_num", tInt, g.pick("n", 100), ""},
		column{"gd_maker_num", tInt, g.orNull("n", 45, g.pick("n", 1000)), ""},
	)})

	out = append(out, spec{name: "shopper", rows: z.shopper, from: "c", cols: []column{
		{"sh_shopper_sk", tSK, "x", ""},
		{"sh_shopper_id", tBK, id("S", "x"), ""},
		{"sh_addr_sk", tRef, g.pick("x", z.addr), "shopper_address"},
		{"sh_profile_sk", tRef, g.orNull("x", 33, g.pick("x", profiles)), "shopper_profile"},
		{"sh_hprof_sk", tRef, g.orNull("x", 29, g.pick("x", hprofs)), "household_profile"},
		{"sh_first_sale_day_sk", tRef, g.orNull("x", 31, g.day("x", saleDay-1000, 2800)), "day_dim"},
		{"sh_first_visit_day_sk", tRef, g.orNull("x", 37, g.day("x", saleDay-1000, 2800)), "day_dim"},
		{"sh_salutation", tText, g.orNull("x", 30, g.oneOf("x", "Mr.", "Mrs.", "Ms.", "Dr.", "Miss", "Sir")), ""},
		{"sh_first_name", tText, g.orNull("x", 50, g.oneOf("x", firstNames...)), ""},
		{"sh_last_name", tText, g.orNull("x", 50, g.oneOf("x", lastNames...)), ""},
		{"sh_preferred", tFlag, g.orNull("x", 35, g.yn("x")), ""},
		{"sh_birth_year", tInt, g.orNull("x", 34, "1930 + "+g.h("x")+" % 70"), ""},
		{"sh_birth_country", tText, g.orNull("x", 28, g.oneOf("x", countries...)), ""},
		{"sh_email", tText, g.orNull("x", 27, "'user' || x || '@example.' || "+nth("x", "org", "net", "com")), ""},
	}})

	out = append(out, spec{name: "shopper_address", rows: z.addr, from: g.withState(), cols: append([]column{
		{"sa_addr_sk", tSK, "x", ""},
		{"sa_addr_id", tBK, id("A", "x"), ""},
		{"sa_street_num", tText, "CAST(" + g.pick("x", 999) + " AS TEXT)", ""},
		{"sa_street_name", tText, g.oneOf("x", streets...) + " || ' ' || " + g.oneOf("x", streets...), ""},
		{"sa_street_type", tText, g.oneOf("x", "Street", "Avenue", "Road", "Lane", "Court", "Way", "Drive", "Boulevard"), ""},
		{"sa_suite", tText, "CASE WHEN " + g.h("x") + " % 4 = 0 THEN 'Suite ' || (" + g.h("x") + " % 50 * 10) END", ""}},
		append(g.place("sa"),
			column{"sa_country", tText, "'United States'", ""},
			column{"sa_kind", tText, g.orNull("x", 32, g.oneOf("x", "house", "condo", "apartment")), ""})...,
	)})

	out = append(out, spec{name: "shopper_profile", rows: profiles, from: "(SELECT x, x - 1 AS v FROM c)", cols: []column{
		{"pf_profile_sk", tSK, "x", ""},
		{"pf_profile_id", tBK, id("P", "x"), ""},
		{"pf_gender", tText, nth("v", "M", "F"), ""},
		{"pf_marital", tText, nth("(v / 2)", "M", "S", "D", "W", "U"), ""},
		{"pf_education", tText, nth("(v / 10)", "primary", "secondary", "some college", "associate", "bachelor", "master", "doctorate"), ""},
		{"pf_purchase_band", tInt, "1000 * (1 + v / 70 % 5)", ""},
		{"pf_credit", tText, nth("(v / 350)", "good", "fair", "poor", "unknown"), ""},
		{"pf_dependents", tInt, "v / 1400 % 7", ""},
	}})

	out = append(out, spec{name: "household_profile", rows: hprofs, from: "(SELECT x, x - 1 AS v FROM c)", cols: []column{
		{"hp_hprof_sk", tSK, "x", ""},
		{"hp_hprof_id", tBK, id("H", "x"), ""},
		{"hp_band_sk", tRef, fmt.Sprintf("1 + v %% %d", bands), "earnings_band"},
		{"hp_buy_potential", tText, nth("(v / 20)", "0-500", "501-1000", "1001-5000", "5001-10000", "over 10000", "unknown"), ""},
		{"hp_dependents", tInt, "v / 120 % 10", ""},
		{"hp_vehicles", tInt, "v / 1200 % 6", ""},
	}})

	out = append(out, spec{name: "earnings_band", rows: bands, from: "c", cols: []column{
		{"eb_band_sk", tSK, "x", ""},
		{"eb_band_id", tBK, id("E", "x"), ""},
		{"eb_lower", tInt, "(x - 1) * 10000", ""},
		{"eb_upper", tInt, "x * 10000 - 1", ""},
	}})

	campaignStart := g.day("x", saleDay-30, 1826)
	out = append(out, spec{name: "campaign", rows: z.campaign, from: "c", cols: []column{
		{"cp_campaign_sk", tSK, "x", ""},
		{"cp_campaign_id", tBK, id("M", "x"), ""},
		{"cp_start_day_sk", tRef, g.orNull("x", 30, campaignStart), "day_dim"},
		{"cp_end_day_sk", tRef, g.orNull("x", 30, campaignStart+" + 30 + "+g.h("x")+" % 60"), "day_dim"},
		{"cp_goods_sk", tRef, g.orNull("x", 30, g.pick("x", z.goods)), "goods"},
		{"cp_name", tText, word("x"), ""},
		{"cp_cost", tReal, money("100000 + " + g.h("x") + " % 9900000"), ""},
		{"cp_response_target", tInt, "1", ""},
		{"cp_by_mail", tFlag, g.yn("x"), ""},
		{"cp_by_email", tFlag, g.yn("x"), ""},
		{"cp_by_tv", tFlag, g.yn("x"), ""},
		{"cp_by_radio", tFlag, g.yn("x"), ""},
		{"cp_by_press", tFlag, g.yn("x"), ""},
		{"cp_by_event", tFlag, g.yn("x"), ""},
		{"cp_discount_active", tFlag, g.yn("x"), ""},
		{"cp_purpose", tText, g.orNull("x", 25, g.oneOf("x", "awareness", "clearance", "launch", "loyalty", "seasonal")), ""},
	}})

	out = append(out, spec{name: "shop", rows: z.shop, from: g.withState(), cols: append(append(append([]column{
		{"so_shop_sk", tSK, "x", ""},
		{"so_shop_id", tBK, id("O", "(x + 1) / 2"), ""}},
		scd("so")...),
		column{"so_opened_day_sk", tRef, g.day("((x + 1) / 2)", saleDay-3000, 2500), "day_dim"},
		column{"so_name", tText, word("((x + 1) / 2)"), ""},
		column{"so_staff", tInt, "200 + " + g.h("x") + " % 100", ""},
		column{"so_floor_space", tInt, g.orNull("x", 30, "5000000 + "+g.h("x")+" % 5000000"), ""},
		column{"so_hours", tText, g.oneOf("x", hours...), ""},
		column{"so_manager", tText, g.person("x"), ""},
		column{"so_market_id", tInt, g.pick("x", 10), ""},
		column{"so_tax_rate", tReal, money(g.h("x") + " % 12"), ""}),
		g.place("so")...,
	)})

	out = append(out, spec{name: "contact_center", rows: z.center, from: g.withState(), cols: append(append(append([]column{
		{"cc_center_sk", tSK, "x", ""},
		{"cc_center_id", tBK, id("T", "(x + 1) / 2"), ""}},
		scd("cc")...),
		column{"cc_opened_day_sk", tRef, g.day("((x + 1) / 2)", saleDay-3000, 2500), "day_dim"},
		column{"cc_name", tText, nth("((x + 1) / 2)", "North Midwest", "Mid Atlantic", "Pacific Northwest", "California", "Gulf Coast", "Mountain", "New England", "Great Lakes") + " || ' ' || ((x + 1) / 16 + 1)", ""},
		column{"cc_class", tText, g.oneOf("x", "small", "medium", "large"), ""},
		column{"cc_staff", tInt, "50 + " + g.h("x") + " % 1000", ""},
		column{"cc_sq_ft", tInt, "10000 + " + g.h("x") + " % 90000", ""},
		column{"cc_hours", tText, g.oneOf("x", hours...), ""},
		column{"cc_manager", tText, g.person("x"), ""},
		column{"cc_tax_rate", tReal, money(g.h("x") + " % 12"), ""}),
		g.place("cc")...,
	)})

	mailStart := g.day("x", saleDay-60, 1826)
	out = append(out, spec{name: "mail_page", rows: z.mailPage, from: "c", cols: []column{
		{"mp_mail_page_sk", tSK, "x", ""},
		{"mp_mail_page_id", tBK, id("L", "x"), ""},
		{"mp_start_day_sk", tRef, g.orNull("x", 30, mailStart), "day_dim"},
		{"mp_end_day_sk", tRef, g.orNull("x", 30, mailStart+" + 90 + "+g.h("x")+" % 90"), "day_dim"},
		{"mp_department", tText, g.oneOf("x", "Apparel", "Books", "Electronics", "Garden", "Home", "Sports"), ""},
		{"mp_catalog_number", tInt, "1 + (x - 1) / 108", ""},
		{"mp_page_number", tInt, "1 + (x - 1) % 108", ""},
		{"mp_description", tText, g.orNull("x", 30, "'page of ' || "+word("x")), ""},
		{"mp_kind", tText, g.oneOf("x", "monthly", "quarterly", "bi-annual"), ""},
	}})

	out = append(out, spec{name: "net_site", rows: z.netSite, from: g.withState(), cols: append(append(append([]column{
		{"nw_net_site_sk", tSK, "x", ""},
		{"nw_net_site_id", tBK, id("W", "(x + 1) / 2"), ""}},
		scd("nw")...),
		column{"nw_name", tText, "'site_' || ((x + 1) / 2)", ""},
		column{"nw_opened_day_sk", tRef, g.day("((x + 1) / 2)", saleDay-1500, 1400), "day_dim"},
		column{"nw_class", tText, g.oneOf("x", "shop", "outlet", "marketplace"), ""},
		column{"nw_manager", tText, g.person("x"), ""},
		column{"nw_market_id", tInt, g.pick("x", 6), ""},
		column{"nw_company", tText, g.oneOf("x", "Arlo", "Bexley", "Cask", "Dovetail", "Ember", "Fenwick"), ""},
		column{"nw_tax_rate", tReal, money(g.h("x") + " % 12"), ""}),
		g.place("nw")...,
	)})

	out = append(out, spec{name: "net_page", rows: z.netPage, from: "c", cols: append(append([]column{
		{"np_net_page_sk", tSK, "x", ""},
		{"np_net_page_id", tBK, id("N", "(x + 1) / 2"), ""}},
		scd("np")...),
		column{"np_created_day_sk", tRef, g.day("x", saleDay-1500, 1400), "day_dim"},
		column{"np_access_day_sk", tRef, g.orNull("x", 30, g.day("x", saleDay, 1826)), "day_dim"},
		column{"np_autogen", tFlag, "CASE WHEN x % 3 = 0 THEN 'Y' ELSE 'N' END", ""},
		// Only generated pages belong to a shopper, as in real sites.
		column{"np_shopper_sk", tRef, "CASE WHEN x % 3 = 0 THEN " + g.pick("x", z.shopper) + " END", "shopper"},
		column{"np_url", tText, "'https://www.example.com/p/' || x", ""},
		column{"np_kind", tText, g.oneOf("x", "welcome", "order", "feedback", "general", "ad", "protected", "dynamic"), ""},
		column{"np_char_count", tInt, "100 + " + g.h("x") + " % 8000", ""},
		column{"np_link_count", tInt, "2 + " + g.h("x") + " % 24", ""},
		column{"np_image_count", tInt, "1 + " + g.h("x") + " % 7", ""},
	)})

	out = append(out, spec{name: "depot", rows: z.depot, from: g.withState(), cols: append([]column{
		{"dp_depot_sk", tSK, "x", ""},
		{"dp_depot_id", tBK, id("R", "x"), ""},
		{"dp_name", tText, "'Depot ' || " + word("x"), ""},
		{"dp_sq_ft", tInt, g.orNull("x", 8, "50000 + "+g.h("x")+" % 950000"), ""},
		{"dp_street", tText, g.pick("x", 999) + " || ' ' || " + g.oneOf("x", streets...) + " || ' Road'", ""}},
		g.place("dp")...,
	)})

	out = append(out, spec{name: "carrier_mode", rows: modes, from: "c", cols: []column{
		{"cm_mode_sk", tSK, "x", ""},
		{"cm_mode_id", tBK, id("K", "x"), ""},
		{"cm_kind", tText, nth("x", "regular", "express", "overnight", "two day", "next day", "economy"), ""},
		{"cm_code", tText, nth("(x / 6)", "air", "road", "sea", "rail"), ""},
		{"cm_carrier", tText, nth("x", "Alder", "Brightway", "Crane", "Dash", "Eagle", "Fleet", "Glide", "Harbor", "Ionic", "Jet",
			"Keel", "Lark", "Meridian", "Nimbus", "Orbit", "Pace", "Quick", "Relay", "Swift", "Transit"), ""},
		{"cm_contract", tText, "printf('%08x', " + g.h("x") + ")", ""},
	}})

	out = append(out, spec{name: "refund_cause", rows: causes, from: "c", cols: []column{
		{"rc_cause_sk", tSK, "x", ""},
		{"rc_cause_id", tBK, id("Q", "x"), ""},
		{"rc_description", tText, nth("(x - 1)", "did not fit", "wrong colour", "arrived damaged", "not as described", "changed mind",
			"found cheaper", "late delivery", "gift not wanted", "duplicate order", "defective", "missing parts", "other") +
			" || CASE WHEN x > 12 THEN ' #' || ((x - 1) / 12 + 1) ELSE '' END", ""},
	}})

	out = append(out, spec{name: "tender", rows: tenders, from: "c", cols: []column{
		{"td_tender_sk", tSK, "x", ""},
		{"td_tender_id", tBK, id("Y", "x"), ""},
		{"td_kind", tText, nth("(x - 1)", "cash", "debit card", "credit card", "gift card", "voucher", "shop credit", "mobile wallet", "cheque"), ""},
	}})

	out = append(out, shopFacts(g, z)...)
	out = append(out, channelFacts(g, z, "mail", "ms", "mr", z.mailSale, 6)...)
	out = append(out, channelFacts(g, z, "net", "ns", "", z.netSale, 5)...)

	out = append(out, spec{name: "stock_level", rows: z.stock,
		// Depot fastest, then goods, then week: rows come in the order of
		// the primary key, so its index is appended to, not updated at random.
		from: fmt.Sprintf("(SELECT x, 1 + (x - 1) %% %[1]d AS dp, 1 + (x - 1) / %[1]d %% %[2]d AS gd, (x - 1) / %[3]d AS w FROM c)", z.depot, z.goods, z.depot*z.goods),
		cols: []column{
			{"sl_day_sk", tNN, fmt.Sprintf("%d + 7 * w", saleDay), "day_dim"},
			{"sl_goods_sk", tNN, "gd", "goods"},
			{"sl_depot_sk", tNN, "dp", "depot"},
			{"sl_on_hand", tInt, g.orNull("x", 33, g.h("x")+" % 1001"), ""},
		},
		key: []string{"sl_day_sk", "sl_goods_sk", "sl_depot_sk"},
	})
	return out
}

// draws are the hash columns of a layer of a fact's source, hashes of v,
// and the values drawn from them: a hash, computed once a row, gives
// several independent digits (h % n, h / n % m, …) as long as their
// product stays far below the prime. Facts are most of the rows, and a
// hash for every value would be most of their generation's time.
type draws struct {
	g       *gen
	v, name string
	cols    []string
	div     int64
}

func (g *gen) draws(v, name string) *draws { return &draws{g: g, v: v, name: name} }

// digit is a value from 0 to n-1.
func (d *draws) digit(n int64) string {
	if len(d.cols) == 0 || d.div*n > prime/1000 {
		d.cols = append(d.cols, fmt.Sprintf("%s AS %s%d", d.g.h(d.v), d.name, len(d.cols)))
		d.div = 1
	}
	col := fmt.Sprintf("%s%d", d.name, len(d.cols)-1)
	e := fmt.Sprintf("(%s / %d %% %d)", col, d.div, n)
	if d.div == 1 {
		e = fmt.Sprintf("(%s %% %d)", col, n)
	}
	d.div *= n
	return e
}

// pick is a key from 1 to n.
func (d *draws) pick(n int64) string { return "(1 + " + d.digit(n) + ")" }

// orNull is e but for about one row in every, NULL then.
func (d *draws) orNull(every int64, e string) string {
	return fmt.Sprintf("CASE WHEN %s = 0 THEN NULL ELSE %s END", d.digit(every), e)
}

// layer adds cols to the columns of from in a subquery SQLite does not
// flatten into the next (LIMIT -1 OFFSET 0), so that they are computed
// once a row and not once for every use.
func layer(from string, cols ...string) string {
	var s []string
	for _, c := range cols {
		if c != "" {
			s = append(s, c)
		}
	}
	if len(s) == 0 {
		return from
	}
	return fmt.Sprintf("(SELECT *, %s FROM %s LIMIT -1 OFFSET 0)", strings.Join(s, ", "), from)
}

func (d *draws) list() string { return strings.Join(d.cols, ", ") }

// sale is what the lines of a sale and their refunds share: the hashes of
// a ticket t (or order) and of a line x, and the line's prices in cents,
// which a refund recomputes from the sale's row x.
type sale struct {
	lines  int
	t, x   *draws
	qty    string // named columns of the source: qty, cost, list, price, cp, rate
	coupon string
}

func (g *gen) sale(lines int) *sale {
	s := &sale{lines: lines, t: g.draws("t", "ht"), x: g.draws("x", "hx")}
	qty, cost, markup, cut, coupon, rate := s.x.digit(100), s.x.digit(9900), s.x.digit(150), s.x.digit(51), s.x.digit(10), s.t.digit(10)
	list := fmt.Sprintf("(100 + %s) * (100 + %s) / 100", cost, markup)
	s.qty = fmt.Sprintf("1 + %s AS qty, 100 + %s AS cost, %s AS list, %s * (50 + %s) / 100 AS price, %s = 0 AS cp, %s AS rate",
		qty, cost, list, list, cut, coupon, rate)
	s.coupon = "(CASE WHEN cp THEN qty * price / 5 ELSE 0 END)"
	return s
}

// source is the FROM clause over rows holding t, l and x (and a refund's
// y): the hashes, then the prices in cents.
func (s *sale) source(rows string, own *draws) string {
	return layer(layer(rows, s.x.list(), own.list()), s.qty)
}

// ofSale is the source of the sale of rows lines: c(x) numbers the
// tickets, each joined to its lines, so that a ticket's hashes are
// computed once and not once a line.
func (s *sale) ofSale(rows int64) string {
	var lines []string
	for l := range s.lines {
		lines = append(lines, fmt.Sprintf("SELECT %d AS l", l))
	}
	x := fmt.Sprintf("(t - 1) * %d + l + 1", s.lines)
	tickets := layer("(SELECT x AS t FROM c)", s.t.list())
	return s.source(fmt.Sprintf("(SELECT *, %s AS x FROM %s CROSS JOIN (%s) WHERE %[1]s <= %[4]d)",
		x, tickets, strings.Join(lines, " UNION ALL "), rows), &draws{})
}

// tickets is the number of tickets of a sale of rows lines.
func (s *sale) tickets(rows int64) int64 { return (rows + int64(s.lines) - 1) / int64(s.lines) }

// refundOf passes through c(x) as y, the refund's row, and x, its sale's
// row: one in every ten sales, a different one of each ten.
const refundOf = "(SELECT x AS y, 10 * (x - 1) + 1 + x * 7 % 10 AS x FROM c)"

// ofRefund is the source of the refunds of the sale, own the hashes of
// the refund's row y.
func (s *sale) ofRefund(own *draws) string {
	rows := fmt.Sprintf("(SELECT y, x, (x - 1) / %d + 1 AS t, (x - 1) %% %[1]d AS l FROM %s)", s.lines, refundOf)
	return s.source(layer(rows, s.t.list()), own)
}

// goods is the goods of line l of ticket t: the lines of a ticket are
// spread over the goods, all different as a sale's primary key requires.
func (s *sale) goods(n int64) string {
	return fmt.Sprintf("1 + (%s + l * %d) %% %d", s.t.digit(n), n/int64(s.lines), n)
}

// measures are the line's price, tax and profit.
func (s *sale) measures(p string) []column {
	paid := fmt.Sprintf("(qty * price - %s)", s.coupon)
	tax := paid + " * rate / 100"
	return []column{
		{p + "_qty", tInt, s.x.orNull(40, "qty"), ""},
		{p + "_unit_cost", tReal, money("cost"), ""},
		{p + "_unit_list", tReal, money("list"), ""},
		{p + "_unit_price", tReal, s.x.orNull(42, money("price")), ""},
		{p + "_discount", tReal, money("qty * (list - price)"), ""},
		{p + "_coupon", tReal, s.x.orNull(36, money(s.coupon)), ""},
		{p + "_paid", tReal, money(paid), ""},
		{p + "_tax", tReal, s.x.orNull(44, money(tax)), ""},
		{p + "_paid_with_tax", tReal, money(paid + " + " + tax), ""},
		{p + "_profit", tReal, s.x.orNull(46, money(paid+" - qty * cost")), ""},
	}
}

// refundMeasures are a refund's amounts: part of its line's quantity back.
func refundMeasures(y *draws, p string) []column {
	rq := "(1 + " + y.digit(1<<20) + " % qty)"
	amount := "(" + rq + " * price)"
	fee := "(50 + " + y.digit(950) + ")"
	cash := "(" + amount + " * " + y.digit(101) + " / 100)"
	return []column{
		{p + "_qty", tInt, rq, ""},
		{p + "_amount", tReal, money(amount), ""},
		{p + "_tax", tReal, y.orNull(40, money(amount+" * rate / 100")), ""},
		{p + "_fee", tReal, y.orNull(38, money(fee)), ""},
		{p + "_refunded_cash", tReal, money(cash), ""},
		{p + "_credit", tReal, money(amount + " - " + cash), ""},
		{p + "_loss", tReal, y.orNull(42, money(amount+" - "+rq+" * cost + "+fee)), ""},
	}
}

func shopFacts(g *gen, z sizes) []spec {
	s := g.sale(8)
	t, x := s.t, s.x
	goods := s.goods(z.goods)
	sold := fmt.Sprintf("%d + %s", saleDay, t.digit(1826))
	// A ticket's references, which its refund copies.
	shopper := t.orNull(37, t.pick(z.shopper))
	profile := t.orNull(41, t.pick(profiles))
	hprof := t.orNull(31, t.pick(hprofs))
	addr := t.orNull(39, t.pick(z.addr))
	shop := t.orNull(45, t.pick(z.shop))
	saleCols := append([]column{
		{"ss_sold_day_sk", tRef, t.orNull(43, sold), "day_dim"},
		{"ss_sold_clock_sk", tRef, t.orNull(47, "28800 + "+t.digit(50400)), "clock_dim"},
		{"ss_goods_sk", tNN, goods, "goods"},
		{"ss_shopper_sk", tRef, shopper, "shopper"},
		{"ss_profile_sk", tRef, profile, "shopper_profile"},
		{"ss_hprof_sk", tRef, hprof, "household_profile"},
		{"ss_addr_sk", tRef, addr, "shopper_address"},
		{"ss_shop_sk", tRef, shop, "shop"},
		{"ss_campaign_sk", tRef, x.orNull(33, x.pick(z.campaign)), "campaign"},
		{"ss_tender_sk", tRef, t.orNull(49, t.pick(tenders)), "tender"},
		{"ss_ticket_number", tNN, "t", ""},
	}, s.measures("ss")...)
	y := g.draws("y", "hy")
	refundCols := append([]column{
		{"sr_refund_day_sk", tRef, y.orNull(43, sold+" + 1 + "+y.digit(60)), "day_dim"},
		{"sr_refund_clock_sk", tRef, y.orNull(47, "28800 + "+y.digit(50400)), "clock_dim"},
		{"sr_goods_sk", tNN, goods, "goods"},
		{"sr_ticket_number", tNN, "t", ""},
		{"sr_shopper_sk", tRef, shopper, "shopper"},
		{"sr_profile_sk", tRef, profile, "shopper_profile"},
		{"sr_hprof_sk", tRef, hprof, "household_profile"},
		{"sr_addr_sk", tRef, addr, "shopper_address"},
		{"sr_shop_sk", tRef, shop, "shop"},
		{"sr_cause_sk", tRef, y.orNull(35, y.pick(causes)), "refund_cause"},
	}, refundMeasures(y, "sr")...)
	// The sources last: they list the hashes the columns drew.
	return []spec{
		{name: "shop_sale", rows: z.shopSale, count: s.tickets(z.shopSale), from: s.ofSale(z.shopSale), cols: saleCols,
			key: []string{"ss_goods_sk", "ss_ticket_number"}},
		{name: "shop_refund", rows: z.shopSale / 10, from: s.ofRefund(y), cols: refundCols,
			key: []string{"sr_goods_sk", "sr_ticket_number"},
			composite: []Ref{{Child: "shop_refund", ChildCols: []string{"sr_goods_sk", "sr_ticket_number"},
				Parent: "shop_sale", ParentCols: []string{"ss_goods_sk", "ss_ticket_number"}}}},
	}
}

// channelFacts are the sales of a remote channel, ordered by mail or on
// the net and shipped, and their refunds when rp is not empty.
func channelFacts(g *gen, z sizes, channel, p, rp string, rows int64, lines int) []spec {
	s := g.sale(lines)
	t, x := s.t, s.x
	goods := s.goods(z.goods)
	sold := fmt.Sprintf("%d + %s", saleDay, t.digit(1826))
	shipped := sold + " + 2 + " + t.digit(90)
	// An order is shipped to its buyer but for one in four, a gift to
	// someone else.
	gift := t.digit(4) + " = 0"
	ship := func(every int64, billed, other string) string {
		return t.orNull(every, fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", gift, other, billed))
	}
	shopper, profile, hprof, addr := t.pick(z.shopper), t.pick(profiles), t.pick(hprofs), t.pick(z.addr)
	refs := map[string]string{
		"bill_shopper": t.orNull(37, shopper), "bill_profile": t.orNull(41, profile), "bill_hprof": t.orNull(31, hprof), "bill_addr": t.orNull(39, addr),
		"ship_shopper": ship(38, shopper, t.pick(z.shopper)), "ship_profile": ship(43, profile, t.pick(profiles)),
		"ship_hprof": ship(29, hprof, t.pick(hprofs)), "ship_addr": ship(34, addr, t.pick(z.addr)),
		"depot": x.orNull(44, x.pick(z.depot)),
	}
	cols := []column{
		{p + "_sold_day_sk", tRef, t.orNull(43, sold), "day_dim"},
		{p + "_sold_clock_sk", tRef, t.orNull(47, t.digit(86400)), "clock_dim"},
		{p + "_ship_day_sk", tRef, t.orNull(42, shipped), "day_dim"},
		{p + "_goods_sk", tNN, goods, "goods"},
	}
	for _, r := range []string{"bill", "ship"} {
		cols = append(cols,
			column{p + "_" + r + "_shopper_sk", tRef, refs[r+"_shopper"], "shopper"},
			column{p + "_" + r + "_profile_sk", tRef, refs[r+"_profile"], "shopper_profile"},
			column{p + "_" + r + "_hprof_sk", tRef, refs[r+"_hprof"], "household_profile"},
			column{p + "_" + r + "_addr_sk", tRef, refs[r+"_addr"], "shopper_address"})
	}
	var page, center string
	if channel == "mail" {
		center = t.orNull(36, t.pick(z.center))
		page = x.orNull(35, x.pick(z.mailPage))
		cols = append(cols,
			column{p + "_center_sk", tRef, center, "contact_center"},
			column{p + "_mail_page_sk", tRef, page, "mail_page"})
	} else {
		cols = append(cols,
			column{p + "_net_page_sk", tRef, x.orNull(35, x.pick(z.netPage)), "net_page"},
			column{p + "_net_site_sk", tRef, t.orNull(36, t.pick(z.netSite)), "net_site"})
	}
	cols = append(cols,
		column{p + "_ship_mode_sk", tRef, t.orNull(48, t.pick(modes)), "carrier_mode"},
		column{p + "_depot_sk", tRef, refs["depot"], "depot"},
		column{p + "_campaign_sk", tRef, x.orNull(33, x.pick(z.campaign)), "campaign"},
		column{p + "_tender_sk", tRef, t.orNull(49, t.pick(tenders)), "tender"},
		column{p + "_order_number", tNN, "t", ""})
	cols = append(cols, s.measures(p)...)
	shipCost := "(qty * (50 + " + x.digit(950) + "))"
	cols = append(cols,
		column{p + "_ship_cost", tReal, x.orNull(39, money(shipCost)), ""},
		column{p + "_paid_with_ship", tReal, money(fmt.Sprintf("qty * price - %s + %s", s.coupon, shipCost)), ""})
	name := channel + "_sale"
	var rcols []column
	y := g.draws("y", "hy")
	if rp != "" {
		rcols = []column{
			{rp + "_refund_day_sk", tRef, y.orNull(43, shipped+" + 1 + "+y.digit(60)), "day_dim"},
			{rp + "_refund_clock_sk", tRef, y.orNull(47, y.digit(86400)), "clock_dim"},
			{rp + "_goods_sk", tNN, goods, "goods"},
			{rp + "_order_number", tNN, "t", ""},
			// The refund goes to whoever paid; the goods come back from
			// whoever received them.
			{rp + "_refunded_shopper_sk", tRef, refs["bill_shopper"], "shopper"},
			{rp + "_refunded_addr_sk", tRef, refs["bill_addr"], "shopper_address"},
			{rp + "_return_shopper_sk", tRef, refs["ship_shopper"], "shopper"},
			{rp + "_return_addr_sk", tRef, refs["ship_addr"], "shopper_address"},
			{rp + "_center_sk", tRef, center, "contact_center"},
			{rp + "_mail_page_sk", tRef, page, "mail_page"},
			{rp + "_ship_mode_sk", tRef, y.orNull(48, y.pick(modes)), "carrier_mode"},
			{rp + "_depot_sk", tRef, refs["depot"], "depot"},
			{rp + "_cause_sk", tRef, y.orNull(35, y.pick(causes)), "refund_cause"},
		}
		rcols = append(rcols, refundMeasures(y, rp)...)
		rcols = append(rcols, column{rp + "_ship_cost", tReal, y.orNull(41, money(shipCost)), ""})
	}
	// The sources last: they list the hashes the columns drew.
	out := []spec{{name: name, rows: rows, count: s.tickets(rows), from: s.ofSale(rows), cols: cols,
		key: []string{p + "_goods_sk", p + "_order_number"}}}
	if rp == "" {
		return out
	}
	return append(out, spec{name: channel + "_refund", rows: rows / 10, from: s.ofRefund(y), cols: rcols,
		key: []string{rp + "_goods_sk", rp + "_order_number"},
		composite: []Ref{{Child: channel + "_refund", ChildCols: []string{rp + "_goods_sk", rp + "_order_number"},
			Parent: name, ParentCols: []string{p + "_goods_sk", p + "_order_number"}}},
	})
}

// Generate writes the database at scale to path, replacing nothing: the
// file must not exist.
func Generate(ctx context.Context, path string, scale float64) error {
	if !(scale > 0 && scale <= MaxScale) {
		return fmt.Errorf("star: scale %v is not in (0, %d]", scale, MaxScale)
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("star: %s exists", path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("star: %w", err)
	}
	db, err := open(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	// One transaction: with no journal, a commit a table would only cost.
	if _, err := db.ExecContext(ctx, `BEGIN`); err != nil {
		return fmt.Errorf("star: begin: %w", err)
	}
	for _, t := range Tables(scale) {
		if _, err := db.ExecContext(ctx, t.DDL); err != nil {
			return fmt.Errorf("star: create %s: %w", t.Name, err)
		}
		q := fmt.Sprintf("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %d) ", t.count) + t.fill
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("star: fill %s: %w", t.Name, err)
		}
	}
	for _, s := range []string{`COMMIT`, `ANALYZE`} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("star: %s: %w", strings.ToLower(s), err)
		}
	}
	return db.Close()
}

// open opens a database for writing it fast: no journal and no syncing,
// since a failed generation is thrown away, not recovered.
func open(ctx context.Context, path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, fmt.Errorf("star: %w", err)
	}
	// One connection: the pragmas are the connection's.
	db.SetMaxOpenConns(1)
	for _, s := range []string{`PRAGMA journal_mode = OFF`, `PRAGMA synchronous = OFF`, `PRAGMA cache_size = -524288`, `PRAGMA temp_store = MEMORY`} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			db.Close()
			return nil, fmt.Errorf("star: %s: %w", s, err)
		}
	}
	return db, nil
}

// Ensure returns the path of the database at scale in dir, generating it
// first when it is not there (into a temporary file, renamed when
// complete, so an interrupted generation leaves nothing to be mistaken
// for a finished one).
func Ensure(ctx context.Context, dir string, scale float64) (string, error) {
	path := filepath.Join(dir, fmt.Sprintf("star-v%d-s%s.db", Version, strconv.FormatFloat(scale, 'g', -1, 64)))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("star: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("star: %w", err)
	}
	tmp := path + ".partial"
	os.Remove(tmp)
	if err := Generate(ctx, tmp, scale); err != nil {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("star: %w", err)
	}
	return path, nil
}
