package privacy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/nyaruka/phonenumbers"

	"github.com/discover-db/discover/experts/valueclass"
)

// Phone numbers are validated against the numbering plans of
// libphonenumber (github.com/nyaruka/phonenumbers, its Go port, kept up to
// date with Google's metadata): which lengths and leading digits each
// country gives its fixed, mobile and service numbers. A shape alone
// (digits with spaces, 7 to 15 of them) is as true of order numbers and
// amounts as of phones, and a country's plan is what tells 347 123 4567
// (an Italian mobile) from 123 4567 (nothing in Italy).

// phoneRegions are the countries a number written without its country
// code is read as: those whose schemas and customers discover meets most
// (the languages of names.txt and the lexicons). A region a column's
// numbers with a country code name is tried too.
var phoneRegions = []string{"IT", "ES", "FR", "DE", "NL", "BE", "PT", "PL", "SE", "NO", "DK", "FI", "GB", "IE",
	"AT", "CH", "US", "CA", "MX", "BR", "AR", "CL", "CO", "AU"}

// Shapes of numbers that are no phone's, though digits with separators:
// thousands grouped by dots or commas (1.234.567), a US ZIP+4 code
// (12345-6789), a decimal amount (1234567.05, one separator: a phone's
// digits grouped by dots are grouped more than once).
var (
	thousandsRe = regexp.MustCompile(`^\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{1,2})?$`)
	zip4Re      = regexp.MustCompile(`^\d{5}-\d{4}$`)
	decimalRe   = regexp.MustCompile(`^-?\d+[.,]\d+$`)
	// checkDigitLast: a document's number and its check digit
	// (31000000-3); no country ends a phone number on a group of one.
	checkDigitLast = regexp.MustCompile(`\D\d$`)
)

// phoneValues caps the values checked against the numbering plans (each
// parse takes some 20µs per region).
const phoneValues = 200

// phoneByValues finds a column of phone numbers by its values: nine in ten
// valid numbers of one country's plan, or with a country code. A number
// without its country code is ambiguous, and several plans (Austria's,
// Finland's) take most runs of digits: so a column whose values are
// mostly bare digits (ids, amounts, order numbers, dates written
// 20240131) counts only under a name that says phone in some language
// (named); otherwise at least half its values must be written as phones
// are, with a country code or with their digits grouped.
func phoneByValues(vals []string, named bool) (Finding, bool) {
	if len(vals) > phoneValues {
		vals = vals[:phoneValues]
	}
	n := len(vals)
	if n < minValues {
		return Finding{}, false
	}
	var intl, national []string
	written, shaped := 0, 0
	distinct := map[string]bool{}
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if !valueclass.IsPhone(v, true) || thousandsRe.MatchString(v) || zip4Re.MatchString(v) || decimalRe.MatchString(v) ||
			checkDigitLast.MatchString(v) {
			continue
		}
		shaped++
		distinct[v] = true
		switch {
		case strings.HasPrefix(v, "+"):
			intl = append(intl, v)
			written++
		case strings.HasPrefix(v, "00"):
			intl = append(intl, "+"+v[2:])
			written++
		default:
			national = append(national, v)
			if !allDigits(v) {
				written++
			}
		}
	}
	need := valueShare * float64(n)
	if float64(shaped) < need || len(distinct) < minValues || !named && 2*written < n {
		return Finding{}, false
	}
	// The countries the column's numbers with a country code belong to
	// (a Spanish shop's Mexican customers): a number of theirs written
	// without its code counts whichever region is read as the column's.
	intlValid := 0
	regions := slices.Clone(phoneRegions)
	var seen []string
	for _, v := range intl {
		num, err := phonenumbers.Parse(v, "ZZ")
		if err != nil || !phonenumbers.IsValidNumber(num) {
			continue
		}
		intlValid++
		if r := phonenumbers.GetRegionCodeForNumber(num); r != "" && !slices.Contains(seen, r) {
			seen = append(seen, r)
			if !slices.Contains(regions, r) {
				regions = append(regions, r)
			}
		}
	}
	slices.Sort(seen) // the evidence names them in one order
	validIn := func(v, r string) bool {
		num, err := phonenumbers.Parse(v, r)
		return err == nil && phonenumbers.IsValidNumberForRegion(num, r)
	}
	ofSeen := make([]bool, len(national))
	for i, v := range national {
		ofSeen[i] = slices.ContainsFunc(seen, func(r string) bool { return validIn(v, r) })
	}
	// The countries the column names itself are read first; another
	// region is sought only when they do not explain its numbers (a
	// column of national numbers alone).
	best, plan := intlValid, ""
	for _, ok := range ofSeen {
		if ok {
			best++
		}
	}
	if len(seen) > 0 {
		plan = strings.Join(seen, ", ")
	}
	for _, r := range regions {
		if float64(best) >= need && plan != "" {
			break
		}
		k := 0
		for i, v := range national {
			// A region that can no longer reach the best so far is left.
			if intlValid+k+len(national)-i <= best {
				break
			}
			if ofSeen[i] || validIn(v, r) {
				k++
			}
		}
		if intlValid+k > best {
			best, plan = intlValid+k, strings.Join(append(slices.Clone(seen), r), ", ")
		}
	}
	if float64(best) < need {
		return Finding{}, false
	}
	conf, why := 0.8, "are valid phone numbers"
	if named {
		conf = 0.9
	}
	if len(national) > 0 {
		why += fmt.Sprintf(" (%d written without a country code, read by the numbering plans of %s)", len(national), plan)
	}
	ev := []string{fmt.Sprintf("%d of %d sampled values %s", best, n, why)}
	if named {
		ev = append([]string{"named as a phone number"}, ev...)
	}
	return Finding{Phone, conf, ev}, true
}
