package privacy

import (
	"fmt"
	"testing"
)

// TestPhonesOfOtherCountries: phone numbers written as their country
// writes them, a share of them bare digits without a country code, are
// found under a name in another language or under none; runs of digits
// that are ids, amounts, order numbers, postal codes or dates are not,
// whatever the name.
func TestPhonesOfOtherCountries(t *testing.T) {
	var italian, bareItalian, ids, amounts, thousands, zips, zip4, dates, isoDates, orders []string
	for i := range 40 {
		mobile := fmt.Sprintf("34%d%07d", 7+i%3, 1234567+7919*i)
		fixed := fmt.Sprintf("06%08d", 12345678+104729*i)
		switch i % 4 {
		case 0:
			italian = append(italian, mobile)
		case 1:
			italian = append(italian, fixed[:2]+" "+fixed[2:6]+" "+fixed[6:])
		case 2:
			italian = append(italian, "+39 "+mobile[:3]+" "+mobile[3:6]+" "+mobile[6:])
		default:
			italian = append(italian, mobile[:3]+" "+mobile[3:6]+" "+mobile[6:])
		}
		bareItalian = append(bareItalian, mobile)
		ids = append(ids, fmt.Sprintf("%d", 3471234567+i))
		amounts = append(amounts, fmt.Sprintf("%d.%02d", 1234567+31*i, i))
		thousands = append(thousands, fmt.Sprintf("1.%03d.%03d", 100+i, 7*i))
		zips = append(zips, fmt.Sprintf("%05d", 10100+37*i))
		zip4 = append(zip4, fmt.Sprintf("%05d-%04d", 10100+37*i, 1000+i))
		dates = append(dates, fmt.Sprintf("2024%02d%02d", 1+i%12, 1+i%28))
		isoDates = append(isoDates, fmt.Sprintf("2024-%02d-%02d", 1+i%12, 1+i%28))
		orders = append(orders, fmt.Sprintf("%d", 100000+i))
	}
	for _, c := range []struct {
		name  string
		words []string
		vals  []string
		want  string
	}{
		{"Italian numbers under telefono", []string{"telefono"}, italian, Phone},
		{"Italian numbers under a generic name", []string{"dato1"}, italian, Phone},
		{"bare Italian mobiles under telefono", []string{"telefono"}, bareItalian, Phone},
		{"German numbers under handy", []string{"handy"}, many(20, "0151 23456789", "+49 170 1234567", "01761234567", "030 1234567", "0171 7654321", "+49 30 98765432"), Phone},
		// A Spanish shop's customers, some Mexican: the numbers with a
		// country code say which plans the others are read by.
		{"Spanish and Mexican numbers under telefono", []string{"telefono"}, many(40, "933555070", "958 20 89 28", "+52 81 7505 6725", "+34 642 991 531",
			"33 7309 3488", "640 075 876", "+52 55 5358 4093", "81 6913 9138", "683743667", "+34958134258"), Phone},
		// not phones
		{"bare Italian mobiles under a generic name", []string{"dato1"}, bareItalian, ""},
		{"integer ids", []string{"numero"}, ids, ""},
		{"amounts under a phone name", []string{"telefono"}, amounts, ""},
		{"amounts", []string{"importo"}, amounts, ""},
		{"thousands", []string{"totale"}, thousands, ""},
		{"postal codes", []string{"cap"}, zips, ""},
		{"ZIP+4 codes", []string{"zip"}, zip4, ""},
		{"ZIP+4 codes under a generic name", []string{"dato2"}, zip4, ""},
		{"dates written as digits", []string{"dato3"}, dates, ""},
		{"ISO dates under a phone name", []string{"tel"}, isoDates, ""},
		{"order numbers", []string{"ordine"}, orders, ""},
		{"one number repeated", []string{"telefono"}, many(20, "347 123 4567"), ""},
	} {
		f, ok := Detect(Column{Words: c.words, Values: c.vals})
		if got := map[bool]string{true: f.Category}[ok]; got != c.want {
			t.Errorf("%s: %q %v, want %q", c.name, got, f.Evidence, c.want)
			continue
		}
		if ok && (f.Confidence < 0.8 || len(f.Evidence) == 0) {
			t.Errorf("%s: confidence %.2f, evidence %q", c.name, f.Confidence, f.Evidence)
		}
	}
}
