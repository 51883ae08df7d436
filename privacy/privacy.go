// Package privacy tells which columns hold personal data, and which kind:
// e-mail addresses, phone numbers, persons' names, postal addresses,
// national identifiers, payment card numbers, IBANs, IP addresses, dates of
// birth, and free text that holds any of these. It judges a column from its
// name, the semantic expert's type and a sample of its values together, so
// that names in other languages are told by their values; its evidence
// gives counts, never a value.
package privacy

import (
	"fmt"
	"maps"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/discover-db/discover/experts/valueclass"
)

// Categories of personal data.
const (
	Email         = "email"
	Phone         = "phone"
	PersonName    = "person_name"
	PostalAddress = "postal_address"
	NationalID    = "national_id"
	PaymentCard   = "payment_card"
	IBAN          = "iban"
	IPAddress     = "ip_address"
	DateOfBirth   = "date_of_birth"
	// FreeText is text written by people that holds one of the others in
	// some of its values (a note with a phone number in it).
	FreeText = "free_text"
	// place is no category: names.txt's words for a town, region or
	// country, whose names are often persons' too (Florence, Lincoln).
	place = "place"
)

// Column is what Detect reads of a column.
type Column struct {
	// Words are the name's words, singular, lower case (naming.Words).
	Words []string
	// SemanticType is the semantic expert's type of the column, "" when
	// unknown; SemanticConfidence its confidence.
	SemanticType       string
	SemanticConfidence float64
	// Values are sampled non-NULL values as text.
	Values []string
}

// Finding is a column's kind of personal data, how sure, and why.
type Finding struct {
	Category   string
	Confidence float64
	Evidence   []string
}

// minValues is the fewest sampled values a check by values alone counts
// on; valueShare the share of them that must pass it.
const (
	minValues  = 5
	valueShare = 0.9
	// textShare is the share of a free text column's values that must hold
	// a personal value for the column to count as holding them.
	textShare = 0.02
	// textProven is how many different e-mail addresses or card numbers
	// (values that prove what they are) make a free text column personal
	// whatever their share: notes that mention a customer's address now
	// and then hold personal data. One could be the business's own
	// contact address, written into many texts.
	textProven = 2
)

// Detect returns the kind of personal data the column holds, if any. The
// checks that prove the most come first: a checksum every value passes
// (a payment card's Luhn digit, an IBAN's mod-97) before the semantic
// type, and the name before a shape many values share by chance.
func Detect(c Column) (Finding, bool) {
	named := nameCategories(c.Words)
	vals := c.Values
	n := len(vals)
	share := func(ok func(string) bool) (int, bool) {
		k := 0
		for _, v := range vals {
			if ok(strings.TrimSpace(v)) {
				k++
			}
		}
		return k, n >= minValues && float64(k) >= valueShare*float64(n)
	}
	counted := func(k int, what string) string {
		return fmt.Sprintf("%d of %d sampled values %s", k, n, what)
	}
	if k, ok := share(isCardNumber); ok {
		return Finding{PaymentCard, 0.95, []string{counted(k, "are 13 to 19 digits that pass the Luhn check")}}, true
	}
	if k, ok := share(isIBAN); ok {
		return Finding{IBAN, 0.97, []string{counted(k, "are IBANs whose check digits hold (mod 97)")}}, true
	}
	for _, id := range nationalIDs {
		if k, ok := share(id.valid); ok {
			return Finding{NationalID, 0.9, []string{counted(k, "are valid "+id.name)}}, true
		}
	}
	// A social security number's shape, which the semantic expert may
	// take for a phone number's.
	if k, ok := share(isSSN); ok {
		return Finding{NationalID, 0.8, []string{counted(k, "are written as a US social security number (123-45-6789)")}}, true
	}
	// A column of several countries' numbers (documents of a customer base
	// across borders): each value passes one of the checks. Any of them
	// passes a number by chance more often than one does, so it takes
	// more values and two kinds at least.
	if n >= 2*minValues {
		kinds := map[string]int{}
		k, bare := 0, 0
		for _, v := range vals {
			v = strings.TrimSpace(v)
			kind := ""
			for _, id := range nationalIDs {
				if id.valid(v) {
					kind = id.name
					break
				}
			}
			if kind == "" && isSSN(v) {
				kind = "US social security numbers"
			}
			if kind == "" && isBareSSN(v) {
				bare++
				continue
			}
			if kind != "" {
				kinds[kind]++
				k++
			}
		}
		// Nine bare digits are counted as social security numbers only
		// beside numbers of two other kinds (documents of several
		// countries, where the US ones are written without dashes) or
		// under a name that says so: otherwise a column of order numbers,
		// one in eleven of which passes the BSN's 11-proof, would be two
		// kinds.
		if bare > 0 && (len(kinds) >= 2 || ssnNamed(c.Words)) {
			kinds["US social security numbers (nine digits)"] += bare
			k += bare
		}
		if len(kinds) >= 2 && float64(k) >= valueShare*float64(n) {
			names := slices.Sorted(maps.Keys(kinds))
			return Finding{NationalID, 0.85, []string{counted(k, fmt.Sprintf("are valid national identifiers of %d kinds (%s)", len(kinds), strings.Join(names, "; ")))}}, true
		}
	}
	// Social security numbers written as nine bare digits. Nine digits are
	// order numbers, account numbers and phone numbers as often, and the
	// SSA's rules (area not 000, 666 or 900-999, group not 00, serial not
	// 0000) leave nine in ten random nine-digit numbers valid and every
	// run of sequential ids below 900000000: passing them proves little,
	// and no share of values is evidence of its own. So the values must
	// all pass them and the name must say what they are (ssn, tax_id,
	// id_value).
	if ssnNamed(c.Words) {
		if k, ok := share(isBareSSN); ok && k == n {
			return Finding{NationalID, 0.8, []string{"named as a national identifier", counted(k, "are nine digits valid as US social security numbers (area, group and serial as issued)")}}, true
		}
	}
	// An address's four numbers, which the semantic expert may take for a
	// phone number's (10.0.46.103).
	if k, ok := share(isIP); ok {
		conf := 0.75 // version numbers are written 1.2.3.4 too
		if named[IPAddress] {
			conf = 0.95
		}
		return Finding{IPAddress, conf, []string{counted(k, "are IPv4 or IPv6 addresses")}}, true
	}
	semantic := func(cat string, scale float64) (Finding, bool) {
		conf := c.SemanticConfidence * scale
		return Finding{cat, round(conf), []string{fmt.Sprintf("the semantic type %s (%.0f%%)", c.SemanticType, 100*c.SemanticConfidence)}}, conf > 0
	}
	switch c.SemanticType {
	case "email":
		return semantic(Email, 1)
	case "phone":
		return semantic(Phone, 1)
	case "person_name":
		return semantic(PersonName, 1)
	case "address":
		// The semantic expert may have judged by the name alone (an
		// earlier catalog's type, or too few values to say): values that
		// are not addresses overrule it.
		if !NotPostal(vals) {
			return semantic(PostalAddress, 1)
		}
	}
	// Phone numbers the semantic expert's pattern misses: numbers written
	// without a plus or spaces among others (3471234567), under a name in
	// another language (telefono, handy) or none (dato1).
	if f, ok := phoneByValues(vals, named[Phone]); ok {
		return f, true
	}
	if named[NationalID] {
		if k, ok := share(isIdentifierShape); ok {
			return Finding{NationalID, 0.85, []string{"named as a national identifier", counted(k, "are 5 to 20 letters and digits")}}, true
		}
	}
	if named[DateOfBirth] && (c.SemanticType == "date" || c.SemanticType == "timestamp") {
		return Finding{DateOfBirth, 0.9, []string{"named as a date of birth", "the semantic type " + c.SemanticType}}, true
	}
	// Names and addresses in any language, by what their values look like,
	// in a column the semantic expert found no other meaning for (a
	// country's name, France or Jordan, is no person's). An address of
	// several parts is long text with spaces, which the semantic expert
	// reads as prose: nearly every value must read as an address
	// (addressShare), which prose does not.
	if !otherMeaning[c.SemanticType] || c.SemanticType == "free_text" {
		if f, ok := addressByValues(vals); ok {
			return f, true
		}
	}
	if !otherMeaning[c.SemanticType] {
		if f, ok := personNameByValues(vals); ok && !named[place] {
			return f, true
		}
	}
	if c.SemanticType == "postal_code" {
		return semantic(PostalAddress, 0.6) // a postal code narrows where a person lives
	}
	if named[PaymentCard] || named[IBAN] {
		// Named so, with values masked or too few to prove it.
		cat := PaymentCard
		if named[IBAN] {
			cat = IBAN
		}
		return Finding{cat, 0.6, []string{"named as " + strings.ReplaceAll(cat, "_", " ")}}, true
	}
	if c.SemanticType == "free_text" && n >= minValues {
		var kinds []string
		k := 0
		proven := map[string]bool{} // e-mail addresses and card numbers, each once however written
		for _, v := range vals {
			if kind, found, sure := personalInText(v); kind != "" {
				k++
				if !slices.Contains(kinds, kind) {
					kinds = append(kinds, kind)
				}
				if sure {
					proven[found] = true
				}
			}
		}
		if float64(k) >= textShare*float64(n) || len(proven) >= textProven {
			return Finding{FreeText, 0.7, []string{fmt.Sprintf("%d of %d sampled texts hold %s", k, n, strings.Join(kinds, " or "))}}, true
		}
	}
	return Finding{}, false
}

// otherMeaning are the semantic types of columns whose values are neither
// persons' names nor addresses, whatever they look like.
var otherMeaning = map[string]bool{"free_text": true, "country": true, "currency": true, "url": true, "uuid": true,
	"json": true, "boolean": true, "date": true, "timestamp": true, "numeric_measure": true, "binary": true}

func round(f float64) float64 { return float64(int(f*100+0.5)) / 100 }

// digitsOf returns s's digits where s is digits with spaces or dashes
// between them, else "".
func digitsOf(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			b.WriteByte(c)
		case c == ' ' || c == '-':
		default:
			return ""
		}
	}
	return b.String()
}

// isCardNumber: 13 to 19 digits, spaced or not, passing the Luhn check,
// not all one digit.
func isCardNumber(s string) bool {
	d := digitsOf(s)
	if len(d) < 13 || len(d) > 19 || strings.Count(d, d[:1]) == len(d) {
		return false
	}
	return luhn(d)
}

func luhn(d string) bool {
	sum := 0
	double := false
	for i := len(d) - 1; i >= 0; i-- {
		x := int(d[i] - '0')
		if double {
			if x *= 2; x > 9 {
				x -= 9
			}
		}
		sum += x
		double = !double
	}
	return sum%10 == 0
}

// isIBAN: a country code, two check digits and up to 30 letters and
// digits (spaces allowed), whose mod-97 is 1 (ISO 13616).
func isIBAN(s string) bool {
	s = strings.ToUpper(strings.ReplaceAll(s, " ", ""))
	if len(s) < 15 || len(s) > 34 || !isLetter(s[0]) || !isLetter(s[1]) || !isDigit(s[2]) || !isDigit(s[3]) {
		return false
	}
	rest := s[4:] + s[:4]
	m := 0
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case isDigit(c):
			m = (m*10 + int(c-'0')) % 97
		case isLetter(c):
			m = (m*100 + int(c-'A') + 10) % 97
		default:
			return false
		}
	}
	return m == 1
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// isIdentifierShape: 5 to 20 letters and digits (spaces, dashes, dots and
// slashes between), at least half of them digits.
func isIdentifierShape(s string) bool {
	digits, alnum := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c):
			digits++
			alnum++
		case isLetter(c) || c >= 'a' && c <= 'z':
			alnum++
		case c == ' ' || c == '-' || c == '.' || c == '/':
		default:
			return false
		}
	}
	return alnum >= 5 && alnum <= 20 && 2*digits >= alnum
}

// isSSN: 123-45-6789, with the numbers the US never issues left out.
func isSSN(s string) bool {
	if len(s) != 11 || s[3] != '-' || s[6] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 3 && i != 6 && !isDigit(c) {
			return false
		}
	}
	return s[:3] != "000" && s[:3] != "666" && s[0] != '9' && s[4:6] != "00" && s[7:] != "0000"
}

// isBareSSN: nine digits valid as a US social security number (isSSN's
// rules).
func isBareSSN(s string) bool {
	if len(s) != 9 || !allDigits(s) {
		return false
	}
	return isSSN(s[:3] + "-" + s[3:5] + "-" + s[5:])
}

// ssnNamed says whether a column's name says it holds national numbers:
// a word of names.txt's national_id, or the generic names of a document's
// number (id_value, id_number, document_number), which nine bare digits
// under them do not make an order number.
func ssnNamed(words []string) bool {
	if nameCategories(words)[NationalID] {
		return true
	}
	name := "_" + strings.Join(words, "_") + "_"
	for _, w := range []string{"_id_value_", "_id_number_", "_document_number_", "_document_no_"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// isIP: an IPv4 address in dotted decimal or an IPv6 address.
func isIP(s string) bool {
	if strings.Count(s, ".") != 3 && !strings.Contains(s, ":") {
		return false
	}
	_, err := netip.ParseAddr(s)
	return err == nil
}

// personalInText names the kind of personal value a text holds: an
// e-mail address, a payment card number (its digits together or in the
// groups cards print them in) or a phone number written as one (a plus
// or parentheses, 8 digits or more). found is the value (an address in
// lower case, a card number's digits, a phone number as written); sure
// says it proves itself (an e-mail address's form, a card number's
// check digit), where a phone number's shape is shared by other numbers.
func personalInText(s string) (kind, found string, sure bool) {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\n' || r == '\t' }) {
		w = strings.Trim(w, ".:()[]<>\"'")
		switch {
		case strings.Contains(w, "@") && valueclass.IsEmail(w):
			return "an e-mail address", strings.ToLower(w), true
		case isCardNumber(w):
			return "a payment card number", digitsOf(w), true
		}
	}
	for _, m := range groupedCard.FindAllString(s, -1) {
		if isCardNumber(m) {
			return "a payment card number", digitsOf(m), true
		}
	}
	for _, m := range phoneInText.FindAllString(s, -1) {
		if d := digitsIn(m); d >= 8 && d <= 15 {
			return "a phone number", m, false
		}
	}
	return "", "", false
}

// groupedCard matches a card number as cards print it, in groups of four
// digits (a fifth of three on 19-digit cards) or of 4, 6 and 5 (American
// Express), spaced or dashed.
var groupedCard = regexp.MustCompile(`\b(?:\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{4}(?:[ -]\d{3})?|\d{4}[ -]\d{6}[ -]\d{5})\b`)

func digitsIn(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			n++
		}
	}
	return n
}
