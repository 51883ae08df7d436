// Package valueclass recognises the shape of single values written as text:
// an email address, a URL, a UUID, a phone number, a date, a timestamp, a
// number, a JSON document. It judges one value at a time and knows nothing of
// column names; what a column means is the semantic expert's call. Shares
// summarises a column's values into the share of each class, which the
// statistical expert records on the column's profile.
//
// Every matcher is cheap: a byte or length test rules most values out
// before any regular expression runs, so classifying the thousand values of
// a column costs about a millisecond.
package valueclass

import (
	"encoding/json"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/discover-db/discover/catalog"
)

// The classes Shares reports.
const (
	Email     = "email"
	URL       = "url"
	UUID      = "uuid"
	Phone     = "phone"
	Date      = "date"
	Timestamp = "timestamp"
	Number    = "number"
	JSON      = "json"
)

// MinShare is the least share of a column's values a class needs to be
// reported by Shares.
const MinShare = 0.05

var (
	emailRe = regexp.MustCompile(`^[A-Za-z0-9._%+'\-]+@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$`)
	urlRe   = regexp.MustCompile(`(?i)^(?:(?:https?|ftp)://[^\s/?#]+|www\.[^\s/?#]+\.[a-z]{2,})(?:[/?#]\S*)?$`)
	uuidRe  = regexp.MustCompile(`^\{?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}?$`)
	dateRe  = regexp.MustCompile(`^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$`)
	dmyRe   = regexp.MustCompile(`^(\d{1,2})([/.\-])(\d{1,2})([/.\-])(\d{4})$`)
	tsRe    = regexp.MustCompile(`^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s?(?:Z|[+-]\d{2}(?::?\d{2})?)?$`)
	phoneRe = regexp.MustCompile(`^\+?[0-9 ().\-/]+$`)
	plainRe = regexp.MustCompile(`^-?\d+(?:\.\d+)?$`)
)

// IsEmail matches an email address: local@domain.tld.
func IsEmail(s string) bool {
	return strings.IndexByte(s, '@') > 0 && emailRe.MatchString(s)
}

// IsURL matches an http, https or ftp URL, or a host name starting www.
func IsURL(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case 'h', 'H', 'f', 'F', 'w', 'W':
		return urlRe.MatchString(s)
	}
	return false
}

// IsUUID matches a UUID in its 8-4-4-4-12 hex form, braces allowed.
func IsUUID(s string) bool {
	return len(s) >= 36 && len(s) <= 38 && uuidRe.MatchString(s)
}

// IsDate matches a date: ISO YYYY-MM-DD (one-digit month and day too, and
// slashes), or D/M/YYYY and M/D/YYYY with slashes, dots or dashes (one
// separator twice), where either order makes a valid date.
func IsDate(s string) bool {
	if !digitFirst(s) || len(s) < 8 || len(s) > 10 {
		return false
	}
	if m := dateRe.FindStringSubmatch(s); m != nil {
		return validYMD(m[1], m[2], m[3])
	}
	m := dmyRe.FindStringSubmatch(s)
	return m != nil && m[2] == m[4] && (validYMD(m[5], m[3], m[1]) || validYMD(m[5], m[1], m[3]))
}

// IsTimestamp matches an ISO timestamp, YYYY-MM-DD[ T]HH:MM[:SS[.f]][zone].
func IsTimestamp(s string) bool {
	if !digitFirst(s) || len(s) < 13 {
		return false
	}
	m := tsRe.FindStringSubmatch(s)
	if m == nil || !validYMD(m[1], m[2], m[3]) {
		return false
	}
	h, _ := strconv.Atoi(m[4])
	mi, _ := strconv.Atoi(m[5])
	sec := 0
	if m[6] != "" {
		sec, _ = strconv.Atoi(m[6])
	}
	return h <= 23 && mi <= 59 && sec <= 60
}

// IsMidnight matches a timestamp whose time of day is exactly 00:00.
func IsMidnight(s string) bool {
	if !digitFirst(s) || len(s) < 13 {
		return false
	}
	m := tsRe.FindStringSubmatch(s)
	return m != nil && m[4] == "00" && m[5] == "00" && strings.Trim(m[6], "0") == "" && strings.Trim(m[7], "0") == ""
}

func digitFirst(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

func validYMD(y, m, d string) bool {
	mo, _ := strconv.Atoi(m)
	da, _ := strconv.Atoi(d)
	return y != "0000" && mo >= 1 && mo <= 12 && da >= 1 && da <= 31
}

// IsPhone matches a phone number: digits with + ( ) - . / and spaces, 7 to
// 15 digits, and maybe an extension (555-0100 x12). A bare number (5551234567)
// also fits that shape, so it only counts when the caller knows the column is
// named like a phone (hinted). Dates and timestamps are never phones, nor are
// values shaped like a date that is not one (2024-13-01).
func IsPhone(s string, hinted bool) bool {
	if s == "" || !phoneByte(s[0]) {
		return false // what the extension leaves begins as s does
	}
	s = stripExtension(s)
	digits := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			digits++
		}
	}
	if digits < 7 || digits > 15 || !phoneRe.MatchString(s) {
		return false
	}
	if !hinted && plainRe.MatchString(s) {
		return false
	}
	// Dates are never phones, nor is what has a date's shape but is not
	// one (2024-13-01): a bad date, not a phone number. A timestamp's colon
	// has already failed phoneRe.
	return len(s) < 8 || len(s) > 10 || !dateRe.MatchString(s) && !dmyRe.MatchString(s)
}

// extMarks are what stands before a phone number's extension: 555-0100 x12,
// ext. 12, extension 12, #12 (any case).
var extMarks = []string{"x", "ext", "ext.", "extension", "#"}

// stripExtension removes an extension, 1 to 6 digits after a mark, from the
// end of s, and the spaces around the mark.
func stripExtension(s string) string {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if n := len(s) - i; n < 1 || n > 6 {
		return s
	}
	rest := strings.TrimRight(s[:i], " \t\n\f\r")
	for _, m := range extMarks {
		if len(rest) >= len(m) && strings.EqualFold(rest[len(rest)-len(m):], m) {
			return strings.TrimRight(rest[:len(rest)-len(m)], " \t\n\f\r")
		}
	}
	return s
}

func phoneByte(b byte) bool {
	return b >= '0' && b <= '9' || strings.IndexByte("+ ().-/", b) >= 0
}

// IsJSON matches a JSON object or array; scalars are JSON too, but a column
// of them is better described by its scalar type.
func IsJSON(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return false
	}
	return json.Valid([]byte(s))
}

// IsNumber matches a number in decimal notation, surrounding spaces
// allowed: 42, -3.5, .5, 1e6. NaN, Inf and hexadecimal do not count.
func IsNumber(s string) bool {
	s = strings.TrimSpace(s)
	digit := false
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b >= '0' && b <= '9':
			digit = true
		case b == '-' || b == '+':
			if i > 0 && s[i-1] != 'e' && s[i-1] != 'E' {
				return false // 2024-01-31
			}
		case b == '.' || b == 'e' || b == 'E':
		default:
			return false
		}
	}
	if !digit {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// LeadingZero reports a number written with a leading zero (00123), as codes
// are and quantities are not; 0 and 0.5 have none.
func LeadingZero(s string) bool {
	s = strings.TrimLeft(strings.TrimSpace(s), "+-")
	return len(s) > 1 && s[0] == '0' && s[1] != '.'
}

// isQuantity is the number class: a number written as text that is neither
// a zero-padded code nor a phone number.
func isQuantity(s string) bool {
	return IsNumber(s) && !LeadingZero(s) && !IsPhone(s, false)
}

// classes in the order Shares tests them.
var classes = []struct {
	name  string
	match func(string) bool
}{
	{Email, IsEmail},
	{URL, IsURL},
	{UUID, IsUUID},
	{Phone, func(s string) bool { return IsPhone(s, false) }},
	{Date, IsDate},
	{Timestamp, IsTimestamp},
	{Number, isQuantity},
	{JSON, IsJSON},
}

// Shares classifies a column's values: for each class, the share of the
// non-empty values (after trimming spaces) that match it, each value
// weighted by counts[i] (counts nil, or shorter than values: 1 each; a
// weight below 1 leaves the value out). A value may match several classes
// (a timestamp is never a date, a number never a phone or a date: the
// classes are built so that this is rare). Classes under MinShare are left
// out; the rest are sorted by share, greatest first, then by class name.
// Shares are rounded to four decimals; Sample is the weighted count of
// non-empty values. Nil when there are none or no class reaches MinShare.
func Shares(values []string, counts []int64) []catalog.ValuePattern {
	var total int64
	hits := make([]int64, len(classes))
	for i, v := range values {
		w := int64(1)
		if i < len(counts) {
			w = counts[i]
		}
		v = strings.TrimSpace(v)
		if w < 1 || v == "" {
			continue
		}
		total += w
		for k, c := range classes {
			if c.match(v) {
				hits[k] += w
			}
		}
	}
	if total == 0 {
		return nil
	}
	var out []catalog.ValuePattern
	for k, c := range classes {
		share := float64(hits[k]) / float64(total)
		if hits[k] == 0 || share < MinShare {
			continue
		}
		out = append(out, catalog.ValuePattern{Class: c.name, Share: math.Round(share*1e4) / 1e4, Sample: total})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Share != out[j].Share {
			return out[i].Share > out[j].Share
		}
		return out[i].Class < out[j].Class
	})
	return out
}
