package semantic

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts/valueclass"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/privacy"
	"github.com/discover-db/discover/warehouse"
)

// Semantic types (CONTRACT.md), plus label and address, which this expert adds.
const (
	TypeIdentifier  = "identifier"
	TypeForeignKey  = "foreign_key"
	TypeEnum        = "enum"
	TypeBoolean     = "boolean"
	TypeEmail       = "email"
	TypePhone       = "phone"
	TypeURL         = "url"
	TypeUUID        = "uuid"
	TypeCountry     = "country"
	TypeCurrency    = "currency"
	TypePostalCode  = "postal_code"
	TypePersonName  = "person_name"
	TypeDate        = "date"
	TypeTimestamp   = "timestamp"
	TypeMeasure     = "numeric_measure"
	TypeFreeText    = "free_text"
	TypeJSON        = "json"
	TypeBinary      = "binary"
	TypeLabel       = "label"   // a short name or title of the row's thing
	TypeAddress     = "address" // a street address line
	TypeUnknown     = "unknown"
	valueMatchRatio = 0.9 // share of sampled values a pattern must match
)

const (
	// enumMaxDistinct and enumMaxRatio bound what counts as a code list.
	enumMaxDistinct = 50
	enumMaxRatio    = 0.2
	enumMinRows     = 10
	// freeTextMinAvgLen is the mean length from which text reads as prose.
	freeTextMinAvgLen = 40
)

// Name hints, on tokens of the column name.
var (
	hintEmail    = set("email", "mail")
	hintURL      = set("url", "uri", "website", "link", "homepage", "href", "web")
	hintPhone    = set("phone", "tel", "telephone", "mobile", "cell", "cellphone", "fax", "extension")
	hintUUID     = set("uuid", "guid")
	hintCountry  = set("country", "nation", "nationality", "ctry", "cntry", "citizenship")
	hintCurrency = set("currency", "ccy", "curr")
	hintPostal   = set("zip", "zipcode", "postal", "postcode", "postalcode")
	hintDate     = set("date", "day", "dob", "birthday", "birthdate")
	hintTime     = set("time", "timestamp", "datetime", "ts", "at")
	hintJSON     = set("json", "payload", "metadata", "attributes", "props", "properties", "config", "settings", "extra")
	hintBoolLead = set("is", "has", "can", "should", "was", "allow", "allows", "enable", "use")
	hintBool     = set("flag", "active", "enabled", "disabled", "deleted", "verified", "visible", "approved",
		"published", "archived", "locked", "blocked", "confirmed", "paid", "default", "bool", "boolean",
		"discontinued", "hidden", "required", "optional", "completed", "cancelled", "canceled", "refunded")
	hintText = set("description", "desc", "comment", "comments", "note", "notes", "body", "text", "message",
		"bio", "summary", "review", "remarks", "remark", "content", "details", "abstract", "feedback", "memo")
	hintEnum = set("status", "type", "category", "kind", "state", "level", "gender", "sex", "class", "mode",
		"tier", "stage", "priority", "role", "grade", "rank", "phase", "method", "channel", "format", "rating")
	hintMeasure = set("amount", "price", "total", "cost", "qty", "quantity", "count", "weight", "height",
		"length", "width", "depth", "size", "duration", "milliseconds", "ms", "seconds", "minutes", "hours",
		"bytes", "score", "rate", "balance", "salary", "age", "distance", "value", "fee", "tax", "discount",
		"revenue", "profit", "budget", "percent", "pct", "ratio", "avg", "sum", "capacity", "volume", "speed",
		"temperature", "population", "area", "freight", "income", "points", "wage", "charge", "km", "kg")
	hintLabel   = set("name", "title", "label", "caption", "headline", "heading", "subject", "nickname")
	hintAddress = set("address", "street", "addr", "address1", "address2")
	hintCode    = set("code", "sku", "isbn", "ean", "upc", "number", "no", "num", "ref", "reference")
	// hintPersonName are words that make a column a person's name on their own.
	hintPersonName = set("firstname", "lastname", "fullname", "surname", "forename", "fname", "lname",
		"givenname", "familyname", "middlename", "maidenname")
	// nameQualifiers combine with "name" into a person's name: first_name.
	nameQualifiers = set("first", "last", "full", "given", "family", "middle", "maiden", "sur", "nick", "fore")
)

// column is everything the classifier knows about one column.
type column struct {
	Table          string
	Name           string
	Type           string // declared
	Tokens         []string
	PK             bool // the table's single-column primary key
	PKInferred     bool // that key was inferred, not declared
	InPK           bool // part of a composite primary key
	DeclaredFK     bool
	Profile        *catalog.ProfileDoc // nil when profiling failed
	Sample         []string            // non-null sampled values as text
	SampleTaken    bool                // a sample was read for this column
	TableWords     []string            // words of the table's entity type, lower case
	InventoryNames map[string]bool     // singular entity words of every table: "customer", "order_item"
}

// verdict is a column's semantic type with the confidence and the reasons.
type verdict struct {
	Type       string
	Confidence float64
	Reasons    []string
	Evidence   []string
}

func (c *column) has(hints map[string]bool) bool {
	for _, t := range c.Tokens {
		if hints[t] || hints[naming.Singular(t)] {
			return true
		}
	}
	return false
}

func (c *column) last() string {
	if len(c.Tokens) == 0 {
		return ""
	}
	return c.Tokens[len(c.Tokens)-1]
}

// nonNull is the profile's count of non-null values, -1 when unknown.
func (c *column) nonNull() int64 {
	p := c.Profile
	if p == nil || p.NullFraction == nil {
		return -1
	}
	return int64(math.Round(float64(p.Rows) * (1 - *p.NullFraction)))
}

func (c *column) distinct() int64 {
	if c.Profile == nil || c.Profile.DistinctCount == nil {
		return -1
	}
	return *c.Profile.DistinctCount
}

// unique reports whether every non-null value is distinct.
func (c *column) unique() bool {
	n, d := c.nonNull(), c.distinct()
	return n > 0 && d == n
}

// numeric reports whether the column holds numbers: declared numeric, or
// untyped with numbers in it.
func (c *column) numeric() bool {
	if warehouse.NumericType(c.Type) {
		return true
	}
	u := strings.ToUpper(c.Type)
	if strings.Contains(u, "DATE") || strings.Contains(u, "TIME") || warehouse.EnumType(c.Type) {
		return false
	}
	if c.SampleTaken && len(c.Sample) > 0 {
		// Text columns holding numbers are common where types are
		// dynamic; a leading zero marks a code (00123), not a quantity.
		r, _ := ratio(c.Sample, func(s string) bool { return isNumber(s) && !leadingZero(s) })
		return r >= valueMatchRatio
	}
	if _, ok := c.profiledNumbers(); ok {
		return true
	}
	return strings.TrimSpace(u) == "" && c.Profile != nil && c.Profile.Mean != nil
}

// integral reports whether the column's values are whole numbers, judged by
// the declared type or else by the profile's range.
func (c *column) integral() bool {
	if strings.Contains(strings.ToUpper(c.Type), "INT") {
		return true
	}
	if c.Profile == nil || c.Profile.Min == nil || c.Profile.Max == nil {
		return false
	}
	_, e1 := strconv.ParseInt(*c.Profile.Min, 10, 64)
	_, e2 := strconv.ParseInt(*c.Profile.Max, 10, 64)
	return e1 == nil && e2 == nil
}

func (c *column) isBlob() bool {
	u := strings.ToUpper(c.Type)
	return strings.Contains(u, "BLOB") || strings.Contains(u, "BYTEA") || strings.Contains(u, "BINARY") ||
		strings.Contains(u, "IMAGE")
}

// idLike reports whether the name marks a key: …_id, …Id, …_fk, or "id".
func (c *column) idLike() bool {
	l := c.last()
	return l == "id" || l == "fk" || l == "uuid" || l == "guid"
}

// smallTable is the row count under which uniqueness proves little.
const smallTable = 20

// ownTable reports whether an entity word names the column's own table
// (transaction_id in financial_transactions).
func (c *column) ownTable(word string) bool {
	own := strings.Join(c.TableWords, "_")
	return word != "" && (own == word || strings.HasSuffix(own, "_"+word))
}

// refersToTable reports whether the words before "id" name a table of the
// inventory (customer_id and a customers table).
func (c *column) refersToTable() (string, bool) {
	if len(c.Tokens) < 2 {
		return "", false
	}
	words := make([]string, len(c.Tokens)-1)
	for i, t := range c.Tokens[:len(c.Tokens)-1] {
		words[i] = naming.Singular(t)
	}
	for i := range words {
		// Longest suffix first: order_item_id before item_id.
		w := strings.Join(words[i:], "_")
		if c.InventoryNames[w] {
			return w, true
		}
	}
	return "", false
}

// ratio is the share of values matching and the count matched.
func ratio(values []string, match func(string) bool) (float64, int) {
	if len(values) == 0 {
		return 0, 0
	}
	n := 0
	for _, v := range values {
		if match(v) {
			n++
		}
	}
	return float64(n) / float64(len(values)), n
}

// valueConfidence turns a pattern's match ratio over n sampled values into a
// confidence: a full match over 50 values or more gives 0.95, fewer values
// give less, down to 0.75 for a handful; a name that agrees adds 0.03.
func valueConfidence(r float64, n int, named bool) float64 {
	c := r * (0.75 + 0.2*math.Min(1, float64(n)/50))
	if named {
		c += 0.03
	}
	return round2(math.Min(c, 0.98))
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func percent(r float64) string { return strconv.Itoa(int(math.Round(r*100))) + "%" }

// pattern is one value shape the classifier looks for in samples.
type pattern struct {
	typ   string
	label string // for evidence: "the email pattern"
	hint  map[string]bool
	match func(c *column) func(string) bool
	// class is the valueclass class that shows the same shape on a
	// profile, "" for none; looks says so in evidence: "look like …".
	class string
	looks string
}

func always(f func(string) bool) func(*column) func(string) bool {
	return func(*column) func(string) bool { return f }
}

// patterns in order of precedence: the more specific shapes first, so that
// a UUID is not taken for anything else and a date is never a phone.
var patterns = []pattern{
	{TypeUUID, "the UUID pattern", hintUUID, always(isUUID), valueclass.UUID, "look like UUIDs"},
	{TypeEmail, "the email pattern", hintEmail, always(isEmail), valueclass.Email, "look like email addresses"},
	{TypeURL, "the URL pattern", hintURL, always(isURL), valueclass.URL, "look like URLs"},
	{TypeJSON, "JSON objects or arrays", hintJSON, always(isJSON), valueclass.JSON, "are JSON objects or arrays"},
	{TypeTimestamp, "an ISO date or timestamp", hintTime, always(func(s string) bool { return isTimestamp(s) || isDate(s) }),
		valueclass.Timestamp, "look like dates or timestamps"},
	{TypeDate, "the ISO date pattern", hintDate, always(isDate), valueclass.Date, "look like dates"},
	{TypePhone, "the phone pattern", hintPhone, func(c *column) func(string) bool {
		hinted := c.has(hintPhone)
		return func(s string) bool { return isPhone(s, hinted) }
	}, valueclass.Phone, "look like phone numbers"},
	{typ: TypeCountry, label: "ISO 3166 codes or country names", hint: hintCountry, match: func(c *column) func(string) bool {
		// Two-letter codes collide with other code lists (US states), so
		// they count only in a column named like a country.
		hinted := c.has(hintCountry)
		return func(s string) bool {
			k := matchCountry(s)
			return k == countryAlpha3 || k == countryName || (k == countryAlpha2 && hinted)
		}
	}},
	{typ: TypeCurrency, label: "ISO 4217 currency codes", hint: hintCurrency, match: always(isCurrency)},
	{typ: TypePostalCode, label: "the postal code pattern", hint: hintPostal, match: func(c *column) func(string) bool {
		if !c.has(hintPostal) {
			return func(string) bool { return false }
		}
		return isPostalCode
	}},
}

// classify decides a column's semantic type. Value evidence outranks the
// name: a pattern counts when at least 90% of the sampled values match it,
// and a name that promises a pattern the values do not show is overruled.
func classify(c column) verdict {
	if c.isBlob() {
		return verdict{Type: TypeBinary, Confidence: 0.9, Reasons: []string{"declared type " + c.Type + " holds binary data"}}
	}
	if c.Profile != nil && (c.Profile.Rows == 0 || c.nonNull() == 0) {
		return c.withoutValues()
	}
	if c.PK {
		src, conf := "declared", 0.95
		if c.PKInferred {
			src, conf = "inferred", 0.85
		}
		return verdict{Type: TypeIdentifier, Confidence: conf, Reasons: []string{"the table's " + src + " primary key"}}
	}
	if c.DeclaredFK {
		return verdict{Type: TypeForeignKey, Confidence: 0.95, Reasons: []string{"declared foreign key"}}
	}
	if v, ok := c.boolean(); ok {
		return v
	}

	var notes []string // name hints the values contradicted
	if c.SampleTaken && len(c.Sample) > 0 {
		n := len(c.Sample)
		for _, p := range patterns {
			r, _ := ratio(c.Sample, p.match(&c))
			named := c.has(p.hint)
			if r >= valueMatchRatio {
				typ := p.typ
				if typ == TypeTimestamp {
					// Dates and timestamps share one test so that a column
					// mixing both still counts. A time part makes it a
					// timestamp, unless every time is midnight: then the
					// column holds dates in a timestamp's clothes.
					if rt, _ := ratio(c.Sample, isTimestamp); rt == 0 {
						typ = TypeDate
					} else if rm, _ := ratio(c.Sample, func(s string) bool { return isDate(s) || isMidnight(s) }); rm == 1 && n >= 5 {
						typ = TypeDate
						reasons := []string{fmt.Sprintf("%s of %d sampled values match %s", percent(r), n, p.label), "every time of day is midnight"}
						return verdict{Type: typ, Confidence: valueConfidence(r, n, c.has(hintDate)), Reasons: reasons, Evidence: reasons[:1]}
					}
				}
				if typ == TypeCountry || typ == TypeCurrency {
					typ = c.countryOrCurrency(typ)
				}
				ev := fmt.Sprintf("%s of %d sampled values match %s", percent(r), n, p.label)
				reasons := []string{ev}
				if named {
					reasons = append(reasons, "the name agrees ("+c.Name+")")
				}
				return verdict{Type: typ, Confidence: valueConfidence(r, n, named), Reasons: reasons, Evidence: []string{ev}}
			}
			if named && p.typ != TypeTimestamp && p.typ != TypeDate {
				notes = append(notes, fmt.Sprintf("named like %s but only %s of %d sampled values match %s",
					p.typ, percent(r), n, p.label))
			}
		}
	} else if v, ok := c.byProfilePatterns(); ok {
		return v
	}
	v := c.byShape()
	v.Reasons = append(v.Reasons, notes...)
	if len(notes) > 0 {
		v.Evidence = append(v.Evidence, notes...)
	}
	return v
}

// shareSlack absorbs the rounding of the profile's shares, which are added.
const shareSlack = 1e-6

// profileShare is the share of the profile's classified values in a
// valueclass class and how many values were classified; 0, 0 when the
// profile records no such class.
func (c *column) profileShare(class string) (float64, int64) {
	if c.Profile == nil {
		return 0, 0
	}
	for _, vp := range c.Profile.ValuePatterns {
		if vp.Class == class {
			return vp.Share, vp.Sample
		}
	}
	return 0, 0
}

// byProfilePatterns classifies a column none of whose values were sampled
// (the sample query failed, or its rows held none) from the value patterns
// the statistical expert recorded on the profile, with the threshold and
// precedence of the sampled values' patterns.
func (c *column) byProfilePatterns() (verdict, bool) {
	if c.Profile == nil || len(c.Profile.ValuePatterns) == 0 {
		return verdict{}, false
	}
	for _, p := range patterns {
		if p.class == "" {
			continue
		}
		r, n := c.profileShare(p.class)
		if p.typ == TypeTimestamp {
			if r == 0 {
				continue // dates alone: the date pattern says so
			}
			// As on a sample, a column mixing dates and timestamps counts.
			rd, _ := c.profileShare(valueclass.Date)
			r = math.Min(1, r+rd)
		}
		if r+shareSlack < valueMatchRatio {
			continue
		}
		named := c.has(p.hint)
		ev := fmt.Sprintf("%s of %s profiled values %s", percent(r), catalog.Thousands(n), p.looks)
		reasons := []string{ev}
		if named {
			reasons = append(reasons, "the name agrees ("+c.Name+")")
		}
		return verdict{Type: p.typ, Confidence: valueConfidence(r, int(n), named), Reasons: reasons, Evidence: []string{ev}}, true
	}
	return verdict{}, false
}

// profiledNumbers is the evidence that a column none of whose values were
// sampled holds numbers written as text, from the profile's value patterns.
func (c *column) profiledNumbers() (string, bool) {
	if c.SampleTaken && len(c.Sample) > 0 {
		return "", false
	}
	r, n := c.profileShare(valueclass.Number)
	if r+shareSlack < valueMatchRatio {
		return "", false
	}
	return fmt.Sprintf("%s of %s profiled values are numbers written as text", percent(r), catalog.Thousands(n)), true
}

// withoutValues classifies a column that holds no values (all NULL, or an
// empty table) from its key role, name and declared type alone, and says so
// in a lower confidence.
func (c column) withoutValues() verdict {
	why := "the column holds no values"
	ev := fmt.Sprintf("null_fraction=1 over %d rows", c.Profile.Rows)
	if c.Profile.Rows == 0 {
		why, ev = "the table is empty", "COUNT(*)=0"
	}
	c.Profile, c.Sample, c.SampleTaken = nil, nil, false
	v := classify(c)
	if v.Type != TypeIdentifier && v.Type != TypeForeignKey {
		v.Confidence = math.Min(v.Confidence, 0.5)
	}
	if v.Type == TypeUnknown {
		v.Confidence = 0.2
		v.Reasons = nil
	}
	v.Reasons = append(v.Reasons, why)
	v.Evidence = append(v.Evidence, ev)
	return v
}

// countryOrCurrency settles a column whose three-letter codes are both
// country and currency codes (MKD, CHE): the name decides, else the list
// that matches more values.
func (c *column) countryOrCurrency(typ string) string {
	switch {
	case c.has(hintCurrency):
		return TypeCurrency
	case c.has(hintCountry):
		return TypeCountry
	}
	rc, _ := ratio(c.Sample, func(s string) bool { k := matchCountry(s); return k == countryAlpha3 || k == countryName })
	ru, _ := ratio(c.Sample, isCurrency)
	if ru > rc {
		return TypeCurrency
	}
	if rc > ru {
		return TypeCountry
	}
	return typ
}

// boolean recognises two-valued columns: a boolean declared type, or
// distinct values that form a boolean pair (0/1, true/false, Y/N, …).
func (c *column) boolean() (verdict, bool) {
	u := strings.ToUpper(c.Type)
	if strings.HasPrefix(u, "BOOL") || u == "BIT" {
		return verdict{Type: TypeBoolean, Confidence: 0.95, Reasons: []string{"declared type " + c.Type}}, true
	}
	d := c.distinct()
	if d < 1 || d > 2 || c.Profile == nil || int64(len(c.Profile.TopValues)) != d {
		return verdict{}, false
	}
	named := c.has(hintBool) || (len(c.Tokens) > 1 && hintBoolLead[c.Tokens[0]])
	if d == 1 && !named {
		return verdict{}, false // a constant, not evidence of a flag
	}
	if !named && c.has(hintEnum) {
		return verdict{}, false // gender coded 0/1 is a code list, not a flag
	}
	values := make([]string, len(c.Profile.TopValues))
	for i, tv := range c.Profile.TopValues {
		values[i] = tv.Value
	}
	if !isBooleanSet(values) {
		return verdict{}, false
	}
	ev := fmt.Sprintf("distinct values {%s}", strings.Join(values, ", "))
	conf := 0.85
	switch {
	case d == 1:
		conf = 0.7 // one value seen: the name carries it
	case named:
		conf = 0.95
	}
	return verdict{Type: TypeBoolean, Confidence: conf, Reasons: []string{ev + " form a boolean pair"}, Evidence: []string{ev}}, true
}

// byShape classifies a column no value pattern claimed, from its name, its
// declared type and its profile.
func (c *column) byShape() verdict {
	numeric := c.numeric()
	if c.idLike() {
		other, named := c.refersToTable()
		named = named && !c.ownTable(other)
		if c.unique() && (c.integral() || !numeric) && !named {
			ev := fmt.Sprintf("COUNT(DISTINCT)=%d equals the non-null count", c.distinct())
			conf := 0.7
			if c.nonNull() < smallTable {
				conf = 0.55 // a handful of rows is unique by chance
			}
			return verdict{Type: TypeIdentifier, Confidence: conf,
				Reasons: []string{"unique column named like a key (" + c.Name + ")", ev}, Evidence: []string{ev}}
		}
		if len(c.Tokens) > 1 {
			conf := 0.6
			reasons := []string{"named like a reference (" + c.Name + ") and not the table's key"}
			if t, ok := c.refersToTable(); ok {
				conf = 0.7
				reasons = append(reasons, "the name points at table "+t)
			}
			return verdict{Type: TypeForeignKey, Confidence: conf, Reasons: reasons}
		}
	}
	if c.InPK && len(c.Tokens) > 1 {
		if _, ok := c.refersToTable(); ok {
			return verdict{Type: TypeForeignKey, Confidence: 0.6, Reasons: []string{"part of a composite key, named after another table"}}
		}
	}
	if numeric {
		switch {
		case c.has(hintPostal):
			return verdict{Type: TypePostalCode, Confidence: 0.6, Reasons: []string{"numbers in a column named like a postal code (" + c.Name + ")"}}
		case c.has(hintPhone):
			return verdict{Type: TypePhone, Confidence: 0.6, Reasons: []string{"numbers in a column named like a phone (" + c.Name + ")"}}
		}
		if c.has(hintEnum) && c.lowCardinality(0.5) {
			return c.enumVerdict(0.6)
		}
		conf := 0.75
		reasons := []string{"numeric values"}
		if c.Profile != nil && c.Profile.Mean != nil {
			reasons = []string{fmt.Sprintf("numeric values, mean %s", strconv.FormatFloat(*c.Profile.Mean, 'g', 6, 64))}
		}
		if c.has(hintMeasure) {
			conf = 0.85
			reasons = append(reasons, "the name reads as a quantity ("+c.Name+")")
		}
		if ev, ok := c.profiledNumbers(); ok {
			reasons = append(reasons, ev)
			return verdict{Type: TypeMeasure, Confidence: conf, Reasons: reasons, Evidence: []string{ev}}
		}
		return verdict{Type: TypeMeasure, Confidence: conf, Reasons: reasons}
	}
	if v, ok := c.declaredTemporal(); ok {
		return v
	}
	if v, ok := c.nameOnly(); ok {
		return v
	}
	if v, ok := c.personName(); ok {
		return v
	}
	if c.addressLike() {
		return verdict{Type: TypeAddress, Confidence: 0.6, Reasons: []string{"named like an address (" + c.Name + ")"}}
	}
	if c.has(hintLabel) && !c.has(hintText) && (c.distinctShare() >= 0.5 || c.distinct() > enumMaxDistinct || c.distinct() < 0) {
		return verdict{Type: TypeLabel, Confidence: 0.6, Reasons: []string{"short text named like a name or title (" + c.Name + ")"}}
	}
	avg := avgLen(c.Sample)
	if c.SampleTaken && len(c.Sample) > 0 {
		// Prose may repeat (notes written from a few templates, a remark
		// copied to many rows): more distinct texts than a code list
		// holds make it prose all the same.
		if avg >= freeTextMinAvgLen && (c.distinctShare() >= 0.5 || c.distinct() > enumMaxDistinct) && spaced(c.Sample) {
			ev := fmt.Sprintf("mean length %.0f characters over %d sampled values", avg, len(c.Sample))
			return verdict{Type: TypeFreeText, Confidence: 0.75, Reasons: []string{ev}, Evidence: []string{ev}}
		}
		if c.has(hintText) && avg >= 20 && spaced(c.Sample) {
			ev := fmt.Sprintf("mean length %.0f characters over %d sampled values", avg, len(c.Sample))
			return verdict{Type: TypeFreeText, Confidence: 0.7, Reasons: []string{ev, "named like text (" + c.Name + ")"}, Evidence: []string{ev}}
		}
	}
	if c.lowCardinality(enumMaxRatio) {
		return c.enumVerdict(0)
	}
	if c.has(hintEnum) && c.lowCardinality(0.5) {
		return c.enumVerdict(0)
	}
	if c.has(hintCode) && c.unique() {
		return verdict{Type: TypeIdentifier, Confidence: 0.55, Reasons: []string{"unique values in a column named like a code (" + c.Name + ")"}}
	}
	if c.has(hintLabel) && (c.distinctShare() >= 0.5 || c.distinct() > enumMaxDistinct || c.distinct() < 0) {
		return verdict{Type: TypeLabel, Confidence: 0.6, Reasons: []string{"short text named like a name or title (" + c.Name + ")"}}
	}
	if c.has(hintText) && c.distinctShare() >= 0.5 {
		// A short "description" names its row's thing (RegionDescription).
		return verdict{Type: TypeLabel, Confidence: 0.55, Reasons: []string{"short distinct text named like a description (" + c.Name + ")"}}
	}
	return verdict{Type: TypeUnknown, Confidence: 0.3, Reasons: []string{"no rule matched"}}
}

// addressLike reports a street address column: named address or street
// (not an email, IP or MAC address), or a numbered line (line1) in a table
// of addresses.
func (c *column) addressLike() bool {
	if c.has(hintEmail) || c.has(set("ip", "mac", "web")) {
		return false
	}
	// Values that are IP addresses, locators or user names say which
	// address the name means (ipb_address, content_address).
	if c.SampleTaken && privacy.NotPostal(c.Sample) {
		return false
	}
	if c.has(hintAddress) {
		return true
	}
	if !anyOf(c.TableWords, hintAddress) {
		return false
	}
	for i, t := range c.Tokens {
		if t == "line" && (i+1 == len(c.Tokens) || isNumber(c.Tokens[i+1])) {
			return true
		}
	}
	return false
}

// distinctShare is distinct values over non-null values, -1 when unknown.
func (c *column) distinctShare() float64 {
	n, d := c.nonNull(), c.distinct()
	if n <= 0 || d < 0 {
		return -1
	}
	return float64(d) / float64(n)
}

// lowCardinality reports a code list: at least two values, at most
// enumMaxDistinct, few next to the rows.
func (c *column) lowCardinality(maxRatio float64) bool {
	n, d := c.nonNull(), c.distinct()
	return n >= enumMinRows && d >= 2 && d <= enumMaxDistinct && float64(d)/float64(n) <= maxRatio
}

func (c *column) enumVerdict(floor float64) verdict {
	n, d := c.nonNull(), c.distinct()
	r := float64(d) / float64(n)
	conf := 0.6 + 0.3*math.Max(0, 1-r/enumMaxRatio)
	if c.has(hintEnum) {
		conf += 0.05
	}
	conf = round2(math.Max(floor, math.Min(conf, 0.9)))
	ev := fmt.Sprintf("%d distinct values over %d non-null rows", d, n)
	return verdict{Type: TypeEnum, Confidence: conf, Reasons: []string{ev}, Evidence: []string{ev}}
}

// declaredTemporal uses a DATE/TIME declared type when no sample could tell.
func (c *column) declaredTemporal() (verdict, bool) {
	if c.SampleTaken && len(c.Sample) > 0 {
		return verdict{}, false // the values were checked and did not match
	}
	u := strings.ToUpper(c.Type)
	switch {
	case strings.Contains(u, "TIMESTAMP") || strings.Contains(u, "DATETIME"):
		return verdict{Type: TypeTimestamp, Confidence: 0.6, Reasons: []string{"declared type " + c.Type}}, true
	case strings.Contains(u, "DATE"):
		return verdict{Type: TypeDate, Confidence: 0.6, Reasons: []string{"declared type " + c.Type}}, true
	}
	return verdict{}, false
}

// nameOnly falls back on the name when no values could be read.
func (c *column) nameOnly() (verdict, bool) {
	if c.SampleTaken {
		return verdict{}, false
	}
	for _, p := range patterns {
		if c.has(p.hint) && p.typ != TypeTimestamp {
			return verdict{Type: p.typ, Confidence: 0.5, Reasons: []string{"name only (" + c.Name + "); no values sampled"}}, true
		}
	}
	return verdict{}, false
}

// personName needs both a name that says person and values that look like
// names.
func (c *column) personName() (verdict, bool) {
	conf := 0.0
	var why string
	switch {
	case c.has(hintPersonName):
		conf, why = 0.85, "named like a person's name ("+c.Name+")"
	case c.last() == "name" && len(c.Tokens) >= 2 && nameQualifiers[c.Tokens[len(c.Tokens)-2]]:
		conf, why = 0.85, "named like a person's name ("+c.Name+")"
	case c.last() == "name" && len(c.Tokens) >= 2 && naming.Person(naming.Singular(c.Tokens[len(c.Tokens)-2])):
		conf, why = 0.65, "the name of a person-like thing ("+c.Name+")"
	case len(c.Tokens) == 1 && c.last() == "name" && slices.ContainsFunc(c.TableWords, naming.Person):
		conf, why = 0.6, "the name column of a table of people ("+c.Table+")"
	default:
		return verdict{}, false
	}
	if !c.SampleTaken || len(c.Sample) == 0 {
		return verdict{Type: TypePersonName, Confidence: 0.5, Reasons: []string{why, "no values sampled"}}, true
	}
	r, _ := ratio(c.Sample, isPersonName)
	if r < valueMatchRatio {
		return verdict{}, false
	}
	ev := fmt.Sprintf("%s of %d sampled values look like names", percent(r), len(c.Sample))
	return verdict{Type: TypePersonName, Confidence: round2(conf * r), Reasons: []string{why, ev}, Evidence: []string{ev}}, true
}

// spaced reports whether most values hold several words, as prose does and
// hashes, tokens and codes do not.
func spaced(values []string) bool {
	r, _ := ratio(values, func(s string) bool { return strings.Contains(strings.TrimSpace(s), " ") })
	return r >= 0.5
}

func anyOf(words []string, in map[string]bool) bool {
	for _, w := range words {
		if in[w] {
			return true
		}
	}
	return false
}

func avgLen(values []string) float64 {
	if len(values) == 0 {
		return 0
	}
	n := 0
	for _, v := range values {
		n += len([]rune(v))
	}
	return float64(n) / float64(len(values))
}
