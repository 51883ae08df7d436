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
// The data is meant to be as awkward as a real warehouse's: day keys are
// Julian day numbers (2415022 is 1900-01-02) and clock keys seconds from
// 0, so not every key starts at 1; goods, shops, contact centres and net
// sites and pages keep two versions of most business keys (valid_from,
// valid_to), so their _id is no key; 2 to 4% of a fact's references and
// of some measures are NULL; profit can be negative. A reference holds
// only existing keys where it is not NULL.
//
// Values are computed from the row number x by multiplicative hashing
// modulo a prime (x × m mod 4294967291, with a different m for every use),
// so the same scale gives the same content and columns do not follow one
// another the way x mod n and x mod 2n would. The products stay within 64
// bits up to x of about 2×10⁹, so up to scale 200.
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
	Name string
	Rows int64
	DDL  string
	fill string // INSERT … SELECT over c(x), x from 1 to Rows
}

// Ref is one reference of the schema, as a foreign key would declare it:
// ChildCols of Child hold values of ParentCols, a key of Parent.
type Ref struct {
	Child      string
	ChildCols  []string
	Parent     string
	ParentCols []string
}

// prime is the modulus of the hashing: below 2³², so that x × m fits in
// 64 bits for every row number x of a supported scale.
const prime = 4294967291

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
	composite []Ref
}

// gen hands out hashing multipliers, a new one for every use, in the
// order the tables are built: the order is fixed, so the content is too.
type gen struct{ salt uint64 }

// h is a hash of v, uniform over [0, prime).
func (g *gen) h(v string) string {
	g.salt++
	// A multiplier in [2³¹, prime) from a Fibonacci hash of the salt: large
	// ones, so that the first rows are as mixed as the rest.
	m := 1<<31 + (g.salt*0x9E3779B97F4A7C15>>33)%(prime-1<<31)
	return fmt.Sprintf("(%s * %d %% %d)", v, m, prime)
}

// pick is a key from 1 to n chosen by v.
func (g *gen) pick(v string, n int64) string {
	return fmt.Sprintf("1 + %s %% %d", g.h(v), n)
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
	return Table{Name: s.name, Rows: s.rows, DDL: ddl.String(), fill: fill.String()}
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
		column{"so_opened_day_sk", tRef, g.day("x", saleDay-3000, 2500), "day_dim"},
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
		column{"cc_opened_day_sk", tRef, g.day("x", saleDay-3000, 2500), "day_dim"},
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
		column{"nw_opened_day_sk", tRef, g.day("x", saleDay-1500, 1400), "day_dim"},
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

// line is what a sale's line and its refund share: the sale's row x, its
// ticket t and line l, and the prices of the line in cents.
type line struct {
	from                                     func(inner string) string
	qty, cost, list, price, coupon, rateCent string
}

// saleLine prices the lines of a sale with lines lines to a ticket. Its
// source reads x, the sale's row, and whatever else inner passes (a
// refund's own row y): the refund recomputes its sale's line from it.
func (g *gen) saleLine(lines int) line {
	q, cost, markup, cut, coupon, rate := g.h("x"), g.h("x"), g.h("x"), g.h("x"), g.h("x"), g.h("t")
	return line{
		from: func(inner string) string {
			// The prices are computed once a row in the middle query, not
			// once for every column they appear in.
			return fmt.Sprintf(`(SELECT *, cost * mk / 100 AS list, cost * mk / 100 * cut / 100 AS price FROM (SELECT *,
		1 + %s %% 100 AS qty, 100 + %s %% 9900 AS cost, 100 + %s %% 100 AS mk, 10 + %s %% 91 AS cut,
		%s %% 10 = 0 AS cp, %s %% 10 AS rate
		FROM (SELECT *, (x - 1) / %d + 1 AS t, (x - 1) %% %[7]d AS l FROM %s) LIMIT -1 OFFSET 0) LIMIT -1 OFFSET 0)`,
				q, cost, markup, cut, coupon, rate, lines, inner)
		},
		qty: "qty", cost: "cost", list: "list", price: "price",
		coupon: "(CASE WHEN cp THEN qty * price / 5 ELSE 0 END)", rateCent: "rate",
	}
}

// goodsOf is the goods of line l of ticket t: the lines of a ticket are
// spread over the goods, all different as a sale's primary key requires.
func (g *gen) goodsOf(n int64, lines int) string {
	return fmt.Sprintf("1 + (%s %% %d + l * %d) %% %[2]d", g.h("t"), n, n/int64(lines))
}

// refundOf passes through c(x) as y, the refund's row, and x, its sale's
// row: one in every ten sales, a different one of each ten.
const refundOf = "(SELECT x AS y, 10 * (x - 1) + 1 + x * 7 % 10 AS x FROM c)"

// The shared measures of a sale: the line's price, tax and profit.
func saleMeasures(g *gen, p string, s line) []column {
	paid := fmt.Sprintf("(%s * %s - %s)", s.qty, s.price, s.coupon)
	tax := paid + " * " + s.rateCent + " / 100"
	return []column{
		{p + "_qty", tInt, g.orNull("x", 40, s.qty), ""},
		{p + "_unit_cost", tReal, money(s.cost), ""},
		{p + "_unit_list", tReal, money(s.list), ""},
		{p + "_unit_price", tReal, g.orNull("x", 42, money(s.price)), ""},
		{p + "_discount", tReal, money(s.qty + " * (" + s.list + " - " + s.price + ")"), ""},
		{p + "_coupon", tReal, g.orNull("x", 36, money(s.coupon)), ""},
		{p + "_paid", tReal, money(paid), ""},
		{p + "_tax", tReal, g.orNull("x", 44, money(tax)), ""},
		{p + "_paid_with_tax", tReal, money(paid + " + " + tax), ""},
		{p + "_profit", tReal, g.orNull("x", 46, money(paid+" - "+s.qty+" * "+s.cost)), ""},
	}
}

// refundMeasures are a refund's amounts: part of its line's quantity back.
func refundMeasures(g *gen, p string, s line) []column {
	rq := "(1 + " + g.h("y") + " % " + s.qty + ")"
	amount := "(" + rq + " * " + s.price + ")"
	fee := "(50 + " + g.h("y") + " % 950)"
	cash := "(" + amount + " * (" + g.h("y") + " % 101) / 100)"
	return []column{
		{p + "_qty", tInt, rq, ""},
		{p + "_amount", tReal, money(amount), ""},
		{p + "_tax", tReal, g.orNull("y", 40, money(amount+" * "+s.rateCent+" / 100")), ""},
		{p + "_fee", tReal, g.orNull("y", 38, money(fee)), ""},
		{p + "_refunded_cash", tReal, money(cash), ""},
		{p + "_credit", tReal, money(amount + " - " + cash), ""},
		{p + "_loss", tReal, g.orNull("y", 42, money(amount+" - "+rq+" * "+s.cost+" + "+fee)), ""},
	}
}

func shopFacts(g *gen, z sizes) []spec {
	const lines = 8
	s := g.saleLine(lines)
	goods := g.goodsOf(z.goods, lines)
	sold := g.day("t", saleDay, 1826)
	// A ticket's references, which its refund copies.
	shopper := g.orNull("t", 37, g.pick("t", z.shopper))
	profile := g.orNull("t", 41, g.pick("t", profiles))
	hprof := g.orNull("t", 31, g.pick("t", hprofs))
	addr := g.orNull("t", 39, g.pick("t", z.addr))
	shop := g.orNull("t", 45, g.pick("t", z.shop))
	sale := spec{name: "shop_sale", rows: z.shopSale, from: s.from("c"),
		cols: append([]column{
			{"ss_sold_day_sk", tRef, g.orNull("t", 43, sold), "day_dim"},
			{"ss_sold_clock_sk", tRef, g.orNull("t", 47, "28800 + "+g.h("t")+" % 50400"), "clock_dim"},
			{"ss_goods_sk", tNN, goods, "goods"},
			{"ss_shopper_sk", tRef, shopper, "shopper"},
			{"ss_profile_sk", tRef, profile, "shopper_profile"},
			{"ss_hprof_sk", tRef, hprof, "household_profile"},
			{"ss_addr_sk", tRef, addr, "shopper_address"},
			{"ss_shop_sk", tRef, shop, "shop"},
			{"ss_campaign_sk", tRef, g.orNull("x", 33, g.pick("x", z.campaign)), "campaign"},
			{"ss_tender_sk", tRef, g.orNull("t", 49, g.pick("t", tenders)), "tender"},
			{"ss_ticket_number", tNN, "t", ""},
		}, saleMeasures(g, "ss", s)...),
		key: []string{"ss_goods_sk", "ss_ticket_number"},
	}
	refund := spec{name: "shop_refund", rows: z.shopSale / 10, from: s.from(refundOf),
		cols: append([]column{
			{"sr_refund_day_sk", tRef, g.orNull("y", 43, sold+" + 1 + "+g.h("y")+" % 60"), "day_dim"},
			{"sr_refund_clock_sk", tRef, g.orNull("y", 47, "28800 + "+g.h("y")+" % 50400"), "clock_dim"},
			{"sr_goods_sk", tNN, goods, "goods"},
			{"sr_ticket_number", tNN, "t", ""},
			{"sr_shopper_sk", tRef, shopper, "shopper"},
			{"sr_profile_sk", tRef, profile, "shopper_profile"},
			{"sr_hprof_sk", tRef, hprof, "household_profile"},
			{"sr_addr_sk", tRef, addr, "shopper_address"},
			{"sr_shop_sk", tRef, shop, "shop"},
			{"sr_cause_sk", tRef, g.orNull("y", 35, g.pick("y", causes)), "refund_cause"},
		}, refundMeasures(g, "sr", s)...),
		key: []string{"sr_goods_sk", "sr_ticket_number"},
		composite: []Ref{{Child: "shop_refund", ChildCols: []string{"sr_goods_sk", "sr_ticket_number"},
			Parent: "shop_sale", ParentCols: []string{"ss_goods_sk", "ss_ticket_number"}}},
	}
	return []spec{sale, refund}
}

// channelFacts are the sales of a remote channel, ordered by mail or on
// the net and shipped, and their refunds when rp is not empty.
func channelFacts(g *gen, z sizes, channel, p, rp string, rows int64, lines int) []spec {
	s := g.saleLine(lines)
	goods := g.goodsOf(z.goods, lines)
	sold := g.day("t", saleDay, 1826)
	shipped := sold + " + 2 + " + g.h("t") + " % 90"
	// An order is shipped to its buyer but for one in four, a gift to
	// someone else.
	gift := g.h("t") + " % 4 = 0"
	billShopper, billProfile, billHprof, billAddr := g.pick("t", z.shopper), g.pick("t", profiles), g.pick("t", hprofs), g.pick("t", z.addr)
	ship := func(n int, billed, other string) string {
		return g.orNull("t", n, fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", gift, other, billed))
	}
	bill := func(n int, e string) string { return g.orNull("t", n, e) }
	refs := map[string]string{
		"bill_shopper": bill(37, billShopper), "bill_profile": bill(41, billProfile), "bill_hprof": bill(31, billHprof), "bill_addr": bill(39, billAddr),
		"ship_shopper": ship(38, billShopper, g.pick("t", z.shopper)), "ship_profile": ship(43, billProfile, g.pick("t", profiles)),
		"ship_hprof": ship(29, billHprof, g.pick("t", hprofs)), "ship_addr": ship(34, billAddr, g.pick("t", z.addr)),
		"depot": g.orNull("x", 44, g.pick("x", z.depot)),
	}
	cols := []column{
		{p + "_sold_day_sk", tRef, g.orNull("t", 43, sold), "day_dim"},
		{p + "_sold_clock_sk", tRef, g.orNull("t", 47, g.h("t")+" % 86400"), "clock_dim"},
		{p + "_ship_day_sk", tRef, g.orNull("t", 42, shipped), "day_dim"},
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
		center = g.orNull("t", 36, g.pick("t", z.center))
		page = g.orNull("x", 35, g.pick("x", z.mailPage))
		cols = append(cols,
			column{p + "_center_sk", tRef, center, "contact_center"},
			column{p + "_mail_page_sk", tRef, page, "mail_page"})
	} else {
		cols = append(cols,
			column{p + "_net_page_sk", tRef, g.orNull("x", 35, g.pick("x", z.netPage)), "net_page"},
			column{p + "_net_site_sk", tRef, g.orNull("t", 36, g.pick("t", z.netSite)), "net_site"})
	}
	cols = append(cols,
		column{p + "_ship_mode_sk", tRef, g.orNull("t", 48, g.pick("t", modes)), "carrier_mode"},
		column{p + "_depot_sk", tRef, refs["depot"], "depot"},
		column{p + "_campaign_sk", tRef, g.orNull("x", 33, g.pick("x", z.campaign)), "campaign"},
		column{p + "_tender_sk", tRef, g.orNull("t", 49, g.pick("t", tenders)), "tender"},
		column{p + "_order_number", tNN, "t", ""})
	cols = append(cols, saleMeasures(g, p, s)...)
	shipCost := "(" + s.qty + " * (50 + " + g.h("x") + " % 950))"
	cols = append(cols,
		column{p + "_ship_cost", tReal, g.orNull("x", 39, money(shipCost)), ""},
		column{p + "_paid_with_ship", tReal, money(fmt.Sprintf("%s * %s - %s + %s", s.qty, s.price, s.coupon, shipCost)), ""})
	name := channel + "_sale"
	out := []spec{{name: name, rows: rows, from: s.from("c"), cols: cols, key: []string{p + "_goods_sk", p + "_order_number"}}}
	if rp == "" {
		return out
	}
	rcols := []column{
		{rp + "_refund_day_sk", tRef, g.orNull("y", 43, shipped+" + 1 + "+g.h("y")+" % 60"), "day_dim"},
		{rp + "_refund_clock_sk", tRef, g.orNull("y", 47, g.h("y")+" % 86400"), "clock_dim"},
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
		{rp + "_ship_mode_sk", tRef, g.orNull("y", 48, g.pick("y", modes)), "carrier_mode"},
		{rp + "_depot_sk", tRef, refs["depot"], "depot"},
		{rp + "_cause_sk", tRef, g.orNull("y", 35, g.pick("y", causes)), "refund_cause"},
	}
	rcols = append(rcols, refundMeasures(g, rp, s)...)
	rcols = append(rcols, column{rp + "_ship_cost", tReal, g.orNull("y", 41, money(shipCost)), ""})
	return append(out, spec{name: channel + "_refund", rows: rows / 10, from: s.from(refundOf), cols: rcols,
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
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return fmt.Errorf("star: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range []string{`PRAGMA journal_mode = OFF`, `PRAGMA synchronous = OFF`, `PRAGMA cache_size = -524288`, `PRAGMA temp_store = MEMORY`, `BEGIN`} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("star: %s: %w", s, err)
		}
	}
	for _, t := range Tables(scale) {
		if _, err := db.ExecContext(ctx, t.DDL); err != nil {
			return fmt.Errorf("star: create %s: %w", t.Name, err)
		}
		fill := fmt.Sprintf("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %d) ", t.Rows) + t.fill
		if _, err := db.ExecContext(ctx, fill); err != nil {
			return fmt.Errorf("star: fill %s: %w", t.Name, err)
		}
	}
	if _, err := db.ExecContext(ctx, `COMMIT`); err != nil {
		return fmt.Errorf("star: commit: %w", err)
	}
	if _, err := db.ExecContext(ctx, `ANALYZE`); err != nil {
		return fmt.Errorf("star: analyze: %w", err)
	}
	return db.Close()
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
