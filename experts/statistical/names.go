package statistical

import (
	"strings"
	"time"

	"github.com/discover-db/discover/naming"
)

// tokens splits a column name into lower-case words as every expert does
// (naming.NameTokens: underscores, spaces, camelCase, letters and
// digits): "UnitPrice" and "unit_price" both give [unit price]. A trailing
// number only tells columns apart (address2, zip_5), so it is dropped.
// Rules match whole words, so "page" is not "age".
func tokens(name string) []string {
	ts := naming.NameTokens(name)
	for len(ts) > 1 && strings.Trim(ts[len(ts)-1], "0123456789") == "" {
		ts = ts[:len(ts)-1]
	}
	return ts
}

func hasToken(ts []string, words ...string) bool {
	for _, t := range ts {
		for _, w := range words {
			if t == w {
				return true
			}
		}
	}
	return false
}

func lastToken(ts []string) string {
	if len(ts) == 0 {
		return ""
	}
	return ts[len(ts)-1]
}

// keyLike reports whether a column names an identifier or a code: its
// numbers label rows rather than measure anything, so spreads, outliers and
// correlations of it are noise.
func keyLike(name string) bool {
	ts := tokens(name)
	if len(ts) == 0 {
		return false // a name of symbols only ("_", "%")
	}
	if _, ok := naming.KeySuffix(lastToken(ts)); ok {
		return true // customer_id, ss_item_sk, order_no, country_code
	}
	if _, ok := naming.KeyPrefix(ts[0]); ok && len(ts) > 1 {
		return true // id_customer, hk_customer
	}
	switch lastToken(ts) {
	case "ids", "zip", "postcode", "phone", "fax":
		return true
	}
	return false
}

// uniqueByName reports whether a column's name says each row should hold its
// own value: an email address, a SKU, a login, a natural key.
func uniqueByName(name string) bool {
	ts := tokens(name)
	if hasToken(ts, "email", "mail", "sku", "username", "login", "uuid", "guid", "isbn", "ean", "upc", "gtin", "ssn", "iban", "slug") {
		return true
	}
	switch lastToken(ts) {
	case "code", "key":
		// A postal code or a currency code is shared by design.
		return !hasToken(ts, sharedCodeWords...)
	}
	return false
}

// sharedCodeWords qualify codes that many rows share.
var sharedCodeWords = []string{"postal", "post", "zip", "country", "currency", "language", "lang", "area", "region",
	"state", "province", "city", "airport", "color", "colour", "status", "type", "category", "class", "reason",
	"error", "response", "discount", "coupon", "promo", "tax", "unit", "warehouse", "dial", "phone", "iso"}

// sharedByNature reports whether a column holds names, words or places,
// which repeat by nature however rarely: a first name or a postal code seen
// twice is no duplicate.
func sharedByNature(name string) bool {
	return hasToken(tokens(name), "name", "names", "first", "last", "given", "family", "surname", "title",
		"city", "town", "street", "address", "country", "state", "description", "label", "comment", "note",
		"postal", "zip", "postcode")
}

// nonNegativeByName reports whether a column's name says a negative value
// makes no sense: a price, a quantity, an amount, a weight, a duration.
func nonNegativeByName(name string) bool {
	return hasToken(tokens(name), "price", "prices", "quantity", "quantities", "qty", "amount", "amounts",
		"cost", "costs", "fee", "fees", "total", "subtotal", "weight", "freight", "bytes", "milliseconds",
		"seconds", "duration", "stock", "units")
}

// ageByName reports whether a column holds a person's age in years.
func ageByName(name string) bool {
	ts := tokens(name)
	return lastToken(ts) == "age" || (hasToken(ts, "age") && hasToken(ts, "years"))
}

// futureByName reports whether a date column may rightly hold future
// dates: deadlines, expiries, plans.
func futureByName(name string) bool {
	return hasToken(tokens(name), "due", "expiry", "expires", "expiration", "expire", "until", "end", "ends",
		"required", "scheduled", "planned", "next", "deadline", "estimated", "expected", "eta", "valid",
		"renewal", "maturity", "effective", "to")
}

// isTextType reports whether a declared type holds strings.
func isTextType(t string) bool {
	u := strings.ToUpper(t)
	for _, s := range []string{"CHAR", "TEXT", "CLOB", "STRING", "ENUM"} {
		if strings.Contains(u, s) {
			return true
		}
	}
	return false
}

// isDateType reports whether a declared type holds dates or timestamps. A
// bare TIME is a time of day: no weekday, no month.
func isDateType(t string) bool {
	u := strings.ToUpper(t)
	return strings.Contains(u, "DATE") || strings.Contains(u, "TIMESTAMP")
}

// dateLayouts are the text forms a date held as text takes, which an
// engine without a date type reads as dates (the ISO-8601 family).
var dateLayouts = []string{
	"2006-01-02",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	time.RFC3339,
	time.RFC3339Nano,
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05.999999999Z07:00",
}

// parseDate reads an ISO-8601 date or timestamp.
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 10 {
		return time.Time{}, false
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
