package semantic

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/discover-db/discover/experts/valueclass"
)

// Value matchers. Each takes one non-null value as text and says whether it
// has the shape of its type; the classifier requires most sampled values to
// agree before trusting one. The shapes that are not semantic judgements
// live in valueclass, shared with the statistical expert, which records the
// share of each on a column's profile.
var (
	isEmail     = valueclass.IsEmail
	isURL       = valueclass.IsURL
	isUUID      = valueclass.IsUUID
	isDate      = valueclass.IsDate
	isTimestamp = valueclass.IsTimestamp
	isMidnight  = valueclass.IsMidnight
	isPhone     = valueclass.IsPhone // a bare number counts only when hinted by the name
	isJSON      = valueclass.IsJSON
	isNumber    = valueclass.IsNumber
	leadingZero = valueclass.LeadingZero
)

var postRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 \-]{1,9}$`)

// isPostalCode matches the shapes postal codes take around the world: 2 to
// 10 letters, digits, spaces and dashes with at least one digit. That fits
// many codes, so the classifier only uses it on columns named like one.
func isPostalCode(s string) bool {
	if !postRe.MatchString(s) {
		return false
	}
	return strings.ContainsAny(s, "0123456789")
}

// isPersonName matches a value that could be a person's name: letters with
// spaces, apostrophes, hyphens, dots and commas, at most five words. In
// mixed case every word is capitalised but for name particles (van, de), and
// no word is one that marks a company (Inc, Market), which tells the
// contact's name from the company's.
func isPersonName(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 60 {
		return false
	}
	letters, upper, lower := 0, 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letters++
			if unicode.IsUpper(r) {
				upper++
			} else if unicode.IsLower(r) {
				lower++
			}
		case r == ' ' || r == '\'' || r == '-' || r == '.' || r == ',' || r == '’':
		default:
			return false
		}
	}
	words := strings.Fields(s)
	if letters == 0 || len(words) > 5 {
		return false
	}
	mixed := upper > 0 && lower > 0
	for _, w := range words {
		lw := strings.ToLower(strings.Trim(w, ".,"))
		if companyWords[lw] {
			return false
		}
		if mixed && !nameParticles[lw] {
			r := []rune(strings.TrimLeft(w, "'’"))
			if len(r) > 0 && unicode.IsLower(r[0]) {
				return false
			}
		}
	}
	return true
}

// nameParticles are the lower-case words inside people's names.
var nameParticles = set("van", "von", "de", "da", "das", "do", "dos", "del", "della", "der", "den", "di", "du",
	"la", "le", "bin", "ibn", "al", "el", "y", "e", "ten", "ter", "af", "zu", "st")

// companyWords mark an organisation's name.
var companyWords = set("inc", "ltd", "llc", "llp", "gmbh", "corp", "corporation", "co", "company", "sa", "ag",
	"plc", "bv", "nv", "srl", "spa", "sarl", "kg", "oy", "ab", "hb", "group", "holdings", "market", "markets",
	"markt", "supermarket", "shop", "store", "stores", "restaurant", "bistro", "cafe", "café", "delicatessen",
	"delikatessen", "trading", "imports", "import", "export", "exports", "foods", "food", "hotel", "bank",
	"university", "school", "hospital", "the", "of", "and", "&", "services", "solutions", "systems",
	"industries", "international", "enterprises", "associates", "partners", "limited", "incorporated")

// isBooleanSet reports whether a column's distinct values (any case) are a
// boolean pair or a subset of one.
func isBooleanSet(values []string) bool {
	if len(values) == 0 || len(values) > 2 {
		return false
	}
	for _, pair := range booleanPairs {
		ok := true
		for _, v := range values {
			if !pair[strings.ToLower(strings.TrimSpace(v))] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

var booleanPairs = []map[string]bool{
	set("0", "1"), set("true", "false"), set("t", "f"), set("y", "n"), set("yes", "no"),
}

// countryKind says how a value matches the country list.
type countryKind int

const (
	notCountry countryKind = iota
	countryAlpha2
	countryAlpha3
	countryName
)

// matchCountry reports whether s is an ISO 3166 alpha-2 or alpha-3 code or
// an English country name.
func matchCountry(s string) countryKind {
	t := strings.TrimSpace(s)
	u := strings.ToUpper(t)
	switch {
	case len(u) == 2 && alpha2[u]:
		return countryAlpha2
	case len(u) == 3 && alpha3[u]:
		return countryAlpha3
	case countryNames[strings.ToLower(t)]:
		return countryName
	}
	return notCountry
}

// isCurrency reports whether s is an ISO 4217 code.
func isCurrency(s string) bool {
	t := strings.TrimSpace(s)
	return len(t) == 3 && currencies[strings.ToUpper(t)]
}

func fields(s string) map[string]bool { return set(strings.Fields(s)...) }

// ISO 3166-1 alpha-2, plus UK which data uses for GB.
var alpha2 = fields(`AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO
BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG
EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID
IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA
MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA
PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST
SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE
YT ZA ZM ZW UK`)

// ISO 3166-1 alpha-3.
var alpha3 = fields(`AND ARE AFG ATG AIA ALB ARM AGO ATA ARG ASM AUT AUS ABW ALA AZE BIH BRB BGD BEL BFA BGR
BHR BDI BEN BLM BMU BRN BOL BES BRA BHS BTN BVT BWA BLR BLZ CAN CCK COD CAF COG CHE CIV COK CHL CMR CHN COL
CRI CUB CPV CUW CXR CYP CZE DEU DJI DNK DMA DOM DZA ECU EST EGY ESH ERI ESP ETH FIN FJI FLK FSM FRO FRA GAB
GBR GRD GEO GUF GGY GHA GIB GRL GMB GIN GLP GNQ GRC SGS GTM GUM GNB GUY HKG HMD HND HRV HTI HUN IDN IRL ISR
IMN IND IOT IRQ IRN ISL ITA JEY JAM JOR JPN KEN KGZ KHM KIR COM KNA PRK KOR KWT CYM KAZ LAO LBN LCA LIE LKA
LBR LSO LTU LUX LVA LBY MAR MCO MDA MNE MAF MDG MHL MKD MLI MMR MNG MAC MNP MTQ MRT MSR MLT MUS MDV MWI MEX
MYS MOZ NAM NCL NER NFK NGA NIC NLD NOR NPL NRU NIU NZL OMN PAN PER PYF PNG PHL PAK POL SPM PCN PRI PSE PRT
PLW PRY QAT REU ROU SRB RUS RWA SAU SLB SYC SDN SWE SGP SHN SVN SJM SVK SLE SMR SEN SOM SUR SSD STP SLV SXM
SYR SWZ TCA TCD ATF TGO THA TJK TKL TLS TKM TUN TON TUR TTO TUV TWN TZA UKR UGA UMI USA URY UZB VAT VCT VEN
VGB VIR VNM VUT WLF WSM YEM MYT ZAF ZMB ZWE`)

// ISO 4217 active codes.
var currencies = fields(`AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL
BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB
EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS
KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR
MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP
SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED
VES VND VUV WST XAF XAG XAU XCD XDR XOF XPF XSU XUA YER ZAR ZMW ZWL`)

// English country names, with the short and older forms data often uses.
var countryNames = func() map[string]bool {
	names := []string{
		"afghanistan", "albania", "algeria", "andorra", "angola", "antigua and barbuda", "argentina",
		"armenia", "australia", "austria", "azerbaijan", "bahamas", "the bahamas", "bahrain", "bangladesh",
		"barbados", "belarus", "belgium", "belize", "benin", "bhutan", "bolivia", "bosnia and herzegovina",
		"botswana", "brazil", "brunei", "bulgaria", "burkina faso", "burundi", "cabo verde", "cape verde",
		"cambodia", "cameroon", "canada", "central african republic", "chad", "chile", "china", "colombia",
		"comoros", "congo", "dr congo", "democratic republic of the congo", "republic of the congo",
		"costa rica", "cote d'ivoire", "côte d'ivoire", "ivory coast", "croatia", "cuba", "cyprus",
		"czech republic", "czechia", "denmark", "djibouti", "dominica", "dominican republic", "ecuador",
		"egypt", "el salvador", "equatorial guinea", "eritrea", "estonia", "eswatini", "swaziland",
		"ethiopia", "fiji", "finland", "france", "gabon", "gambia", "the gambia", "georgia", "germany",
		"ghana", "greece", "grenada", "guatemala", "guinea", "guinea-bissau", "guyana", "haiti", "honduras",
		"hungary", "iceland", "india", "indonesia", "iran", "iraq", "ireland", "israel", "italy", "jamaica",
		"japan", "jordan", "kazakhstan", "kenya", "kiribati", "kosovo", "kuwait", "kyrgyzstan", "laos",
		"latvia", "lebanon", "lesotho", "liberia", "libya", "liechtenstein", "lithuania", "luxembourg",
		"madagascar", "malawi", "malaysia", "maldives", "mali", "malta", "marshall islands", "mauritania",
		"mauritius", "mexico", "micronesia", "moldova", "monaco", "mongolia", "montenegro", "morocco",
		"mozambique", "myanmar", "burma", "namibia", "nauru", "nepal", "netherlands", "the netherlands",
		"holland", "new zealand", "nicaragua", "niger", "nigeria", "north korea", "north macedonia",
		"macedonia", "norway", "oman", "pakistan", "palau", "palestine", "panama", "papua new guinea",
		"paraguay", "peru", "philippines", "poland", "portugal", "qatar", "romania", "russia",
		"russian federation", "rwanda", "saint kitts and nevis", "saint lucia",
		"saint vincent and the grenadines", "samoa", "san marino", "sao tome and principe", "saudi arabia",
		"senegal", "serbia", "seychelles", "sierra leone", "singapore", "slovakia", "slovenia",
		"solomon islands", "somalia", "south africa", "south korea", "korea", "south sudan", "spain",
		"sri lanka", "sudan", "suriname", "sweden", "switzerland", "syria", "taiwan", "tajikistan",
		"tanzania", "thailand", "timor-leste", "east timor", "togo", "tonga", "trinidad and tobago",
		"tunisia", "turkey", "türkiye", "turkmenistan", "tuvalu", "uganda", "ukraine",
		"united arab emirates", "uae", "united kingdom", "uk", "great britain", "england", "scotland",
		"wales", "northern ireland", "united states", "united states of america", "usa", "us", "uruguay",
		"uzbekistan", "vanuatu", "vatican city", "holy see", "venezuela", "vietnam", "viet nam", "yemen",
		"zambia", "zimbabwe", "hong kong", "macau", "macao", "puerto rico", "greenland", "faroe islands",
		"gibraltar", "bermuda", "cayman islands", "aruba", "curacao", "curaçao", "new caledonia",
		"french polynesia", "guam", "reunion", "réunion", "martinique", "guadeloupe", "french guiana",
	}
	return set(names...)
}()
