package privacy

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// nationalIDs are national identification numbers told by their published
// check digits, whatever a column is called: a column of them is found by
// its values as a card's Luhn digit finds cards. Each check passes a
// random number of the same shape by chance 1 in 10 to 1 in 100, so nine
// in ten of five values or more passing is no coincidence.
var nationalIDs = []nationalID{
	{"Spanish DNI or NIE numbers (control letter)", isDNI},
	{"Dutch BSNs (11-proof)", isBSN},
	{"Brazilian CPFs (two mod-11 check digits)", isCPF},
	{"French NIRs (mod-97 key)", isNIR},
	{"Swedish personnummer (a date and a Luhn digit)", isPersonnummer},
	{"Polish PESELs (a date and a weighted check digit)", isPESEL},
	{"Finnish henkilötunnus (a date and a mod-31 check character)", isHetu},
	{"German tax identification numbers (Steuer-IdNr, ISO 7064 MOD 11,10)", isSteuerID},
	{"German pension insurance numbers (a date, a letter and a weighted check digit)", isRVNR},
	{"Italian codici fiscali (a date and a check letter)", isCodiceFiscale},
	{"Norwegian fødselsnummer (a date and two mod-11 check digits)", isFodselsnummer},
	{"Belgian national register numbers (a date and a mod-97 check)", isBelgianNN},
	{"UK NHS numbers (a mod-11 check digit)", isNHS},
	{"Chilean RUTs (a mod-11 check digit or K)", isRUT},
	{"UK National Insurance numbers (the letters HMRC issues, six digits, A to D)", isNINO},
	{"Danish CPR numbers (a date, a dash and four digits)", isCPR},
}

// nationalID is one country's number: what it is called and its check.
type nationalID struct {
	name  string
	valid func(string) bool
}

// separators are what national numbers are written with between their
// digits; signs are the personnummer's (a + for the over-100s).
var (
	separators = strings.NewReplacer(" ", "", "-", "", ".", "", "/", "")
	signs      = strings.NewReplacer("-", "", "+", "")
)

// compact drops the separators national numbers are written with. The
// longest of them, with separators, is a NIR's 21 characters: anything
// longer is none, and is not copied.
func compact(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 24 {
		return ""
	}
	return separators.Replace(s)
}

func allDigits(s string) bool { return s != "" && digitsIn(s) == len(s) }

// isDNI: eight digits and the letter their remainder by 23 names (a DNI),
// or X, Y or Z (read as 0, 1, 2), seven digits and that letter (an NIE).
func isDNI(s string) bool {
	s = strings.ToUpper(compact(s))
	if len(s) != 9 {
		return false
	}
	num := s[:8]
	if i := strings.IndexByte("XYZ", num[0]); i >= 0 {
		num = string(rune('0'+i)) + num[1:]
	}
	if !allDigits(num) {
		return false
	}
	n := 0
	for i := 0; i < len(num); i++ {
		n = n*10 + int(num[i]-'0')
	}
	return s[8] == "TRWAGMYFPDXBNJZSQVHLCKE"[n%23]
}

// isBSN: nine digits whose weighted sum (9, 8, …, 2, and -1 for the last)
// is a multiple of 11, not zero.
func isBSN(s string) bool {
	s = compact(s)
	if len(s) != 9 || !allDigits(s) {
		return false
	}
	sum := 0
	for i := 0; i < 8; i++ {
		sum += int(s[i]-'0') * (9 - i)
	}
	sum -= int(s[8] - '0')
	return sum != 0 && sum%11 == 0
}

// isCPF: eleven digits, not all one, whose last two are the mod-11 check
// digits of those before them.
func isCPF(s string) bool {
	s = compact(s)
	if len(s) != 11 || !allDigits(s) || strings.Count(s, s[:1]) == 11 {
		return false
	}
	check := func(n int) byte {
		sum := 0
		for i := 0; i < n; i++ {
			sum += int(s[i]-'0') * (n + 1 - i)
		}
		d := 11 - sum%11
		if d >= 10 {
			d = 0
		}
		return byte('0' + d)
	}
	return s[9] == check(9) && s[10] == check(10)
}

// isNIR: a French social security number, 13 characters (sex, year,
// month, department, with 2A and 2B for Corsica, commune, order) and a key
// of 97 minus their remainder by 97.
func isNIR(s string) bool {
	s = strings.ToUpper(compact(s))
	if len(s) != 15 || (s[0] != '1' && s[0] != '2') {
		return false
	}
	body := s[:13]
	sub := int64(0)
	switch body[5:7] {
	case "2A":
		body, sub = body[:5]+"19"+body[7:], 1000000
	case "2B":
		body, sub = body[:5]+"18"+body[7:], 2000000
	}
	if !allDigits(body) || !allDigits(s[13:]) {
		return false
	}
	var n, key int64
	for i := 0; i < len(body); i++ {
		n = n*10 + int64(body[i]-'0')
	}
	n -= sub
	key = int64(s[13]-'0')*10 + int64(s[14]-'0')
	return key == 97-n%97
}

// isPersonnummer: a Swedish personal identity number, a date (YYMMDD or
// YYYYMMDD; a coordination number adds 60 to the day), a separator or
// none, three digits and a Luhn digit over the last ten.
func isPersonnummer(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) > 13 {
		return false
	}
	d := signs.Replace(s)
	if len(d) == 12 {
		d = d[2:]
	}
	if len(d) != 10 || !allDigits(d) || len(s) < 10 {
		return false
	}
	day := int(d[4]-'0')*10 + int(d[5]-'0')
	if day > 60 {
		day -= 60
	}
	if _, err := time.Parse("060102", d[:4]+string(rune('0'+day/10))+string(rune('0'+day%10))); err != nil {
		return false
	}
	return luhn(d)
}

// isPESEL: eleven digits, a date (the century in the month: +80 for the
// 1800s, +20 for the 2000s, …) and a check digit of the others weighted
// 1, 3, 7, 9.
func isPESEL(s string) bool {
	s = compact(s)
	if len(s) != 11 || !allDigits(s) {
		return false
	}
	month := int(s[2]-'0')*10 + int(s[3]-'0')
	if month%20 < 1 || month%20 > 12 {
		return false
	}
	day := int(s[4]-'0')*10 + int(s[5]-'0')
	if day < 1 || day > 31 {
		return false
	}
	weights := []int{1, 3, 7, 9, 1, 3, 7, 9, 1, 3}
	sum := 0
	for i, w := range weights {
		sum += int(s[i]-'0') * w
	}
	return int(s[10]-'0') == (10-sum%10)%10
}

// isHetu: a Finnish personal identity code, DDMMYY, a century sign (+, -,
// A to F, U to Y), three digits and the character the nine digits'
// remainder by 31 names.
func isHetu(s string) bool {
	s = strings.ToUpper(strings.TrimSpace(s))
	if len(s) != 11 || !strings.ContainsRune("+-ABCDEFUVWXY", rune(s[6])) {
		return false
	}
	digits := s[:6] + s[7:10]
	if !allDigits(digits) {
		return false
	}
	if _, err := time.Parse("020106", s[:6]); err != nil {
		return false
	}
	n := 0
	for i := 0; i < len(digits); i++ {
		n = n*10 + int(digits[i]-'0')
	}
	return s[10] == "0123456789ABCDEFHJKLMNPRSTUVWXY"[n%31]
}

// isSteuerID: a German tax identification number, eleven digits not
// starting with 0, whose first ten hold one digit twice or three times and
// the others at most once, and whose last is their ISO 7064 MOD 11,10
// check digit.
func isSteuerID(s string) bool {
	s = compact(s)
	if len(s) != 11 || !allDigits(s) || s[0] == '0' {
		return false
	}
	var counts [10]int
	for i := 0; i < 10; i++ {
		counts[s[i]-'0']++
	}
	repeated := 0
	for _, n := range counts {
		switch {
		case n == 2 || n == 3:
			repeated++
		case n > 3:
			return false
		}
	}
	if repeated != 1 {
		return false
	}
	return int(s[10]-'0') == mod1110(s[:10])
}

// mod1110 is the ISO 7064 MOD 11,10 check digit of digits.
func mod1110(digits string) int {
	p := 10
	for i := 0; i < len(digits); i++ {
		sum := (int(digits[i]-'0') + p) % 10
		if sum == 0 {
			sum = 10
		}
		p = 2 * sum % 11
	}
	if c := 11 - p; c != 10 {
		return c
	}
	return 0
}

// isRVNR: a German pension insurance number (Rentenversicherungsnummer):
// an area number, the birth date DDMMYY, the birth name's initial, a
// serial and a check digit: the letter written as its place in the
// alphabet, the twelve digits weighted 2 1 2 5 7 1 2 1 2 1 2 1, the sum of
// the products' digit sums modulo 10.
func isRVNR(s string) bool {
	s = strings.ToUpper(compact(s))
	if len(s) != 12 || !allDigits(s[:8]) || !isLetter(s[8]) || !allDigits(s[9:]) {
		return false
	}
	if _, err := time.Parse("020106", s[2:8]); err != nil {
		return false
	}
	pos := int(s[8]-'A') + 1
	digits := s[:8] + string(rune('0'+pos/10)) + string(rune('0'+pos%10)) + s[9:11]
	sum := 0
	for i, w := range []int{2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1} {
		p := int(digits[i]-'0') * w
		sum += p/10 + p%10
	}
	return int(s[11]-'0') == sum%10
}

// isCodiceFiscale: an Italian fiscal code, six letters of the names, the
// year, a month letter, the day (plus 40 for women), a place code and a
// check letter over the fifteen before it (digits of the date may be
// written as letters, L for 0 to V for 9, where two persons share one).
func isCodiceFiscale(s string) bool {
	s = strings.ToUpper(strings.TrimSpace(s))
	if len(s) != 16 {
		return false
	}
	for i := 0; i < 16; i++ {
		c := s[i]
		switch i {
		case 0, 1, 2, 3, 4, 5, 11, 15:
			if !isLetter(c) {
				return false
			}
		case 8:
			if !strings.ContainsRune("ABCDEHLMPRST", rune(c)) {
				return false
			}
		default:
			if !isDigit(c) && !strings.ContainsRune("LMNPQRSTUV", rune(c)) {
				return false
			}
		}
	}
	odd := []int{1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23}
	sum := 0
	for i := 0; i < 15; i++ {
		v := int(s[i] - 'A')
		if isDigit(s[i]) {
			v = int(s[i] - '0')
		}
		if i%2 == 0 {
			sum += odd[v]
		} else {
			sum += v
		}
	}
	return s[15] == byte('A'+sum%26)
}

// isFodselsnummer: a Norwegian national identity number, DDMMYY (a
// D-number adds 40 to the day), three digits and two mod-11 check digits.
func isFodselsnummer(s string) bool {
	s = compact(s)
	if len(s) != 11 || !allDigits(s) {
		return false
	}
	day := int(s[0]-'0')*10 + int(s[1]-'0')
	if day > 40 {
		day -= 40
	}
	if _, err := time.Parse("020106", fmt.Sprintf("%02d", day)+s[2:6]); err != nil {
		return false
	}
	check := func(weights []int) int {
		sum := 0
		for i, w := range weights {
			sum += int(s[i]-'0') * w
		}
		c := 11 - sum%11
		if c == 11 {
			c = 0
		}
		return c
	}
	k1 := check([]int{3, 7, 6, 1, 8, 9, 4, 5, 2})
	k2 := check([]int{5, 4, 3, 2, 7, 6, 5, 4, 3, 2})
	return k1 < 10 && k2 < 10 && int(s[9]-'0') == k1 && int(s[10]-'0') == k2
}

// isBelgianNN: a Belgian national register number, YYMMDD, three digits
// and 97 minus the nine digits' remainder by 97 (with a 2 before them for
// those born from 2000).
func isBelgianNN(s string) bool {
	s = compact(s)
	if len(s) != 11 || !allDigits(s) {
		return false
	}
	month := int(s[2]-'0')*10 + int(s[3]-'0')
	if month > 12 {
		return false
	}
	n, _ := strconv.ParseInt(s[:9], 10, 64)
	key, _ := strconv.Atoi(s[9:])
	return key == int(97-n%97) || key == int(97-(2000000000+n)%97)
}

// isNHS: a UK NHS number, ten digits whose last is 11 minus the weighted
// sum (10 down to 2) of the others modulo 11, never 10.
func isNHS(s string) bool {
	s = compact(s)
	if len(s) != 10 || !allDigits(s) || strings.Count(s, s[:1]) == 10 {
		return false
	}
	sum := 0
	for i := 0; i < 9; i++ {
		sum += int(s[i]-'0') * (10 - i)
	}
	c := 11 - sum%11
	if c == 11 {
		c = 0
	}
	return c != 10 && int(s[9]-'0') == c
}

// isRUT: a Chilean RUT or RUN, 7 or 8 digits (dots between thousands), a
// dash and the mod-11 check digit or K. The dash is asked for: bare, the
// digits are any number's.
func isRUT(s string) bool {
	s = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), ".", ""))
	body, dv, ok := strings.Cut(s, "-")
	if !ok || len(dv) != 1 || len(body) < 7 || len(body) > 8 || !allDigits(body) {
		return false
	}
	sum, w := 0, 2
	for i := len(body) - 1; i >= 0; i-- {
		sum += int(body[i]-'0') * w
		if w++; w > 7 {
			w = 2
		}
	}
	want := "0123456789K"[(11-sum%11)%11]
	return dv[0] == want
}

// isNINO: a UK National Insurance number, two letters of those HMRC
// issues, six digits and A, B, C or D; it has no check digit, so the
// prefixes HMRC never issues are what tells it from another code.
func isNINO(s string) bool {
	s = strings.ToUpper(compact(s))
	if len(s) != 9 || !isLetter(s[0]) || !isLetter(s[1]) || !allDigits(s[2:8]) || !strings.ContainsRune("ABCD", rune(s[8])) {
		return false
	}
	if strings.ContainsRune("DFIQUV", rune(s[0])) || strings.ContainsRune("DFIOQUV", rune(s[1])) {
		return false
	}
	switch s[:2] {
	case "BG", "GB", "KN", "NK", "NT", "TN", "ZZ":
		return false
	}
	return true
}

// isCPR: a Danish CPR number, DDMMYY-SSSS, the date a real one (the check
// digit was given up in 2007, so the date and the dash are the shape).
func isCPR(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) != 11 || s[6] != '-' || !allDigits(s[:6]) || !allDigits(s[7:]) {
		return false
	}
	_, err := time.Parse("020106", s[:6])
	return err == nil
}
