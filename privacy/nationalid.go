package privacy

import (
	"strings"
	"time"
)

// nationalIDs are national identification numbers told by their published
// check digits, whatever a column is called: a column of them is found by
// its values as a card's Luhn digit finds cards. Each check passes a
// random number of the same shape by chance 1 in 10 to 1 in 100, so nine
// in ten of five values or more passing is no coincidence.
var nationalIDs = []struct {
	name  string
	valid func(string) bool
}{
	{"Spanish DNI or NIE numbers (control letter)", isDNI},
	{"Dutch BSNs (11-proof)", isBSN},
	{"Brazilian CPFs (two mod-11 check digits)", isCPF},
	{"French NIRs (mod-97 key)", isNIR},
	{"Swedish personnummer (a date and a Luhn digit)", isPersonnummer},
	{"Polish PESELs (a date and a weighted check digit)", isPESEL},
	{"Finnish henkilötunnus (a date and a mod-31 check character)", isHetu},
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
