package privacy

import (
	"fmt"
	"strings"
	"testing"
)

// luhnNumber completes prefix with the digit that makes it pass the Luhn
// check.
func luhnNumber(prefix string) string {
	for d := '0'; d <= '9'; d++ {
		if s := prefix + string(d); luhn(s) {
			return s
		}
	}
	panic("no check digit")
}

// ibanOf computes the check digits of a country's BBAN.
func ibanOf(country, bban string) string {
	for c := 0; c < 100; c++ {
		s := fmt.Sprintf("%s%02d%s", country, c, bban)
		if isIBAN(s) {
			return s
		}
	}
	panic("no check digits")
}

func TestDetect(t *testing.T) {
	var cards, spaced, ibans, ips, ssns, dobs, ids, versions, orders []string
	for i := range 20 {
		cards = append(cards, luhnNumber(fmt.Sprintf("4%014d", 7919*i+13)))
		c := luhnNumber(fmt.Sprintf("5%014d", 104729*i+7))
		spaced = append(spaced, c[:4]+" "+c[4:8]+" "+c[8:12]+" "+c[12:])
		ibans = append(ibans, ibanOf("DE", fmt.Sprintf("%018d", 3700400440*int64(i+1)+532013000)))
		ips = append(ips, fmt.Sprintf("10.%d.%d.%d", i, 7*i%256, 1+i), fmt.Sprintf("2001:db8::%x", i+1))
		ssns = append(ssns, fmt.Sprintf("%03d-%02d-%04d", 100+i, 10+i, 1000+i))
		dobs = append(dobs, fmt.Sprintf("19%02d-%02d-%02d", 50+i, 1+i%12, 1+i))
		ids = append(ids, fmt.Sprintf("%08d%c", 12345678+i*7, 'A'+rune(i%26)))
		versions = append(versions, fmt.Sprintf("%d.%d.%d", 1, i, 3))
		orders = append(orders, fmt.Sprintf("%d", 100000+i))
	}
	notes := []string{}
	for i := range 100 {
		switch i {
		case 7:
			notes = append(notes, "call back on +44 20 7946 0958 before Friday")
		case 40:
			notes = append(notes, "customer asked to write to jane.doe@example.org instead")
		default:
			notes = append(notes, fmt.Sprintf("delivered on time, box %d was a little damaged", i))
		}
	}
	// Notes from a few templates, 150 of them: two mention two customers'
	// addresses (1.3%, below textShare), two spell a card number as cards
	// print it; the same contact address twice (spelled in two cases), and
	// two phone numbers, prove nothing of their own.
	templated := func(extra map[int]string) []string {
		var out []string
		for i := range 150 {
			if v, ok := extra[i]; ok {
				out = append(out, v)
			} else {
				out = append(out, fmt.Sprintf("Parcel %d left with the neighbour, as agreed.", i%40))
			}
		}
		return out
	}
	twoAddresses := templated(map[int]string{12: "Send the invoice to m.kowalski@example.net, thanks.", 99: "New private address: anna_berg77@example.org"})
	twoCards := templated(map[int]string{5: "Refund to card " + spaced[3] + " approved.", 80: "Charged " + spaced[9][:4] + "-" + spaced[9][5:9] + "-" + spaced[9][10:14] + "-" + spaced[9][15:] + " twice"})
	oneContact := templated(map[int]string{1: "Customer wrote to support@example.com.", 120: "Forwarded to Support@Example.com"})
	twoPhones := templated(map[int]string{3: "call back on +44 20 7946 0958", 70: "mobile (030) 1234 5678"})
	addresses := []string{"Calle Santa Ana, 3, 50781 Zaragoza", "Avda. de Alcalá, 114, 7º A, 46236 Valencia", "Calle Real, 25, 5º dcha., 41173 Sevilla",
		"Avenida del Carmen, 64, 7º A, 07144 Palma", "Plaza Mayor, 9, 28012 Madrid", "Calle Luna, 18, 2º B, 08001 Barcelona"}
	for _, c := range []struct {
		name    string
		col     Column
		want    string // "" = none
		minConf float64
	}{
		{"two customers' e-mail addresses in notes", Column{Words: []string{"bemerkung"}, SemanticType: "free_text", SemanticConfidence: 0.75, Values: twoAddresses}, FreeText, 0.7},
		{"two card numbers in groups in notes", Column{Words: []string{"comment"}, SemanticType: "free_text", SemanticConfidence: 0.75, Values: twoCards}, FreeText, 0.7},
		{"addresses the semantic expert read as prose", Column{Words: []string{"destino"}, SemanticType: "free_text", SemanticConfidence: 0.75, Values: addresses}, PostalAddress, 0.8},
		{"cards", Column{Words: []string{"numero"}, Values: cards}, PaymentCard, 0.9},
		{"spaced cards", Column{Words: []string{"kaart"}, Values: spaced}, PaymentCard, 0.9},
		{"ibans in any name", Column{Words: []string{"konto"}, Values: ibans}, IBAN, 0.9},
		{"ips", Column{Words: []string{"remote", "addr"}, Values: ips}, IPAddress, 0.9},
		{"ips unnamed", Column{Words: []string{"origin"}, Values: ips}, IPAddress, 0.7},
		{"ips the semantic expert took for phones", Column{Words: []string{"hostname"}, SemanticType: "phone", SemanticConfidence: 0.93, Values: ips}, IPAddress, 0.7},
		{"ssn shape", Column{Words: []string{"nummer"}, Values: ssns}, NationalID, 0.8},
		{"ssn the semantic expert took for phones", Column{Words: []string{"ssn"}, SemanticType: "phone", SemanticConfidence: 0.9, Values: ssns}, NationalID, 0.8},
		{"named national id", Column{Words: []string{"dni"}, Values: ids}, NationalID, 0.8},
		{"german date of birth", Column{Words: []string{"geburtsdatum"}, SemanticType: "date", SemanticConfidence: 0.9, Values: dobs}, DateOfBirth, 0.9},
		{"date of birth phrase", Column{Words: []string{"date", "of", "birth"}, SemanticType: "date", SemanticConfidence: 0.9, Values: dobs}, DateOfBirth, 0.9},
		{"email by the semantic type", Column{Words: []string{"correo"}, SemanticType: "email", SemanticConfidence: 0.95}, Email, 0.95},
		{"person name", Column{Words: []string{"nombre"}, SemanticType: "person_name", SemanticConfidence: 0.8}, PersonName, 0.8},
		{"notes with a phone and an e-mail", Column{Words: []string{"note"}, SemanticType: "free_text", SemanticConfidence: 0.7, Values: notes}, FreeText, 0.7},
		{"card named, values masked", Column{Words: []string{"card", "number"}, Values: []string{"****1111", "****2222"}}, PaymentCard, 0.6},
		// not personal
		{"a birth date's column without the name", Column{Words: []string{"shipped"}, SemanticType: "date", SemanticConfidence: 0.9, Values: dobs}, "", 0},
		{"national id name over amounts", Column{Words: []string{"tin"}, Values: []string{"1.5", "2.25", "3", "4.75", "5.5"}}, "", 0},
		{"order numbers", Column{Words: []string{"order", "no"}, Values: orders}, "", 0},
		{"versions", Column{Words: []string{"version"}, Values: versions}, "", 0},
		{"few cards prove nothing", Column{Words: []string{"code"}, Values: cards[:3]}, "", 0},
		{"plain notes", Column{Words: []string{"note"}, SemanticType: "free_text", SemanticConfidence: 0.7, Values: notes[:5]}, "", 0},
		{"one contact address in notes", Column{Words: []string{"comment"}, SemanticType: "free_text", SemanticConfidence: 0.75, Values: oneContact}, "", 0},
		{"two phone numbers in 150 notes", Column{Words: []string{"comment"}, SemanticType: "free_text", SemanticConfidence: 0.75, Values: twoPhones}, "", 0},
	} {
		f, ok := Detect(c.col)
		if got := map[bool]string{true: f.Category}[ok]; got != c.want {
			t.Errorf("%s: %q (%v), want %q", c.name, got, f.Evidence, c.want)
			continue
		}
		if ok && (f.Confidence < c.minConf || f.Confidence > 1 || len(f.Evidence) == 0) {
			t.Errorf("%s: confidence %.2f, evidence %q", c.name, f.Confidence, f.Evidence)
		}
		// Evidence gives counts, never a value.
		for _, v := range c.col.Values {
			if ok && strings.Contains(strings.Join(f.Evidence, " "), v) {
				t.Errorf("%s: evidence %q holds the value %q", c.name, f.Evidence, v)
			}
		}
	}
}

func TestChecksums(t *testing.T) {
	// Published examples: a Visa test number, Germany's and Britain's IBAN examples.
	for _, s := range []string{"4111111111111111", "4111 1111 1111 1111"} {
		if !isCardNumber(s) {
			t.Errorf("%s: not a card number", s)
		}
	}
	for _, s := range []string{"4111111111111112", "1111111111111111", "411111111111"} {
		if isCardNumber(s) {
			t.Errorf("%s: a card number", s)
		}
	}
	for _, s := range []string{"DE89370400440532013000", "GB82 WEST 1234 5698 7654 32"} {
		if !isIBAN(s) {
			t.Errorf("%s: not an IBAN", s)
		}
	}
	if isIBAN("DE89370400440532013001") {
		t.Error("a wrong check digit passed")
	}
	for s, want := range map[string]bool{"123-45-6789": true, "666-12-3456": false, "123-00-4567": false, "123456789": false} {
		if isSSN(s) != want {
			t.Errorf("isSSN(%s) = %v", s, !want)
		}
	}
}

// TestNationalIDs: each national number's check, on valid numbers written
// as people write them, and on the same numbers with one digit changed.
func TestNationalIDs(t *testing.T) {
	for _, c := range []struct {
		valid func(string) bool
		good  []string
		bad   []string
	}{
		{isDNI, []string{"12345678Z", "12345678-z", "X1234567L", "Y0000000Z"}, []string{"12345678A", "X1234567M", "1234567Z"}},
		{isBSN, []string{"111222333", "123456782", "1112.22.333"}, []string{"111222334", "123456789", "000000000"}},
		{isCPF, []string{"529.982.247-25", "52998224725", "111.444.777-35"}, []string{"529.982.247-26", "11111111111", "111.444.777-53"}},
		{isNIR, []string{"1 84 12 76 451 089 46", "184127645108946", "2 69 05 2A 012 345 64"}, []string{"184127645108947", "384127645108946"}},
		{isPersonnummer, []string{"811218-9876", "19811218-9876", "670919-9530"}, []string{"811218-9877", "811318-9876", "8112189876x"}},
		{isPESEL, []string{"44051401359", "02070803628"}, []string{"44051401358", "44151401359"}},
		{isHetu, []string{"131052-308T", "010594Y9032"}, []string{"131052-308U", "311352-308T"}},
		// Published examples: the Federal Central Tax Office's, the German
		// pension insurers', the Agenzia delle Entrate's Mario Rossi, the
		// NHS's, and those of python-stdnum's and national-id's documentation.
		{isSteuerID, []string{"86095742719", "36 574 261 809", "47036892816"}, []string{"86095742718", "06095742719", "11111111111", "12345678903"}},
		{isRVNR, []string{"10010490A443", "10 010490 A 443"}, []string{"10010490A444", "10013390A443", "100104901443"}},
		{isCodiceFiscale, []string{"RSSMRA85T10A562S", "rssmra85t10a562s"}, []string{"RSSMRA85T10A562T", "RSSMRA85X10A562S", "RSSMRA85T10A56"}},
		{isFodselsnummer, []string{"01065100394"}, []string{"01065100395", "01135100394"}},
		{isBelgianNN, []string{"85.07.30-033.28", "85073003328"}, []string{"85073003329", "85173003328"}},
		{isNHS, []string{"943 476 5919", "9434765919"}, []string{"9434765918", "1111111111"}},
		{isRUT, []string{"12.345.678-5", "12345678-5"}, []string{"12.345.678-4", "123456785"}},
		{isNINO, []string{"AB123456C", "AB 12 34 56 C"}, []string{"QQ123456C", "GB123456A", "AB123456E", "AB12345C"}},
		{isCPR, []string{"010203-1234", "311299-9999"}, []string{"320203-1234", "0102031234", "010203/1234"}},
	} {
		for _, v := range c.good {
			if !c.valid(v) {
				t.Errorf("%q: not valid", v)
			}
		}
		for _, v := range c.bad {
			if c.valid(v) {
				t.Errorf("%q: valid", v)
			}
		}
	}
	// Found by the values, whatever the column is called.
	f, ok := Detect(Column{Words: []string{"kennung"}, Values: []string{"111222333", "123456782", "111222333", "123456782", "1112.22.333"}})
	if !ok || f.Category != NationalID {
		t.Errorf("a column of BSNs: %+v, %v", f, ok)
	}
	// A column of several countries' numbers, each valid by its own check.
	mixed := many(20, "12345678Z", "111222333", "529.982.247-25", "123-45-6789", "RSSMRA85T10A562S", "943 476 5919")
	if f, ok := Detect(Column{Words: []string{"document"}, Values: mixed}); !ok || f.Category != NationalID || !strings.Contains(f.Evidence[0], "6 kinds") {
		t.Errorf("a column of several countries' numbers: %+v, %v", f, ok)
	}
	if f, ok := Detect(Column{Words: []string{"document"}, Values: mixed[:6]}); ok {
		t.Errorf("six mixed numbers prove nothing: %+v", f)
	}
	// Nine-digit order numbers are not BSNs: about one in eleven passes.
	var orders []string
	for i := 0; i < 40; i++ {
		orders = append(orders, fmt.Sprintf("%09d", 100000000+i*7919))
	}
	if f, ok := Detect(Column{Words: []string{"order", "no"}, Values: orders}); ok {
		t.Errorf("order numbers: %+v", f)
	}
	// Nor are numbers of 10 to 12 digits any of the others, nor codes of
	// letters and digits the letter-bearing ones.
	for _, format := range []string{"%010d", "%011d", "%012d", "AB%06dE", "X%08d", "%08d-3"} {
		var vals []string
		for i := 0; i < 40; i++ {
			vals = append(vals, fmt.Sprintf(format, 31000000+int64(i)*104729))
		}
		if f, ok := Detect(Column{Words: []string{"ref"}, Values: vals}); ok {
			t.Errorf("%s: %+v", format, f)
		}
	}
}

// TestBareSSN (issue 21): US social security numbers written as nine bare
// digits are found under a name that says what they are (id_value beside
// other countries' documents, or alone), and nine-digit order numbers,
// phone numbers and account numbers, valid as SSNs as most nine-digit
// numbers are, are not, whatever their column's other values.
func TestBareSSN(t *testing.T) {
	var bare, mixed, orders, randomOrders, phones []string
	for i := range 40 {
		// Areas 001-899 as issued since 2011, leading zeros kept.
		ssn := fmt.Sprintf("%03d%02d%04d", 1+i*22, 1+i*2, 1+i*241)
		bare = append(bare, ssn)
		switch i % 4 {
		case 0, 1:
			mixed = append(mixed, ssn)
		case 2:
			mixed = append(mixed, fmt.Sprintf("%03d-%02d-%04d", 100+i, 10+i, 1000+i))
		case 3:
			mixed = append(mixed, cpfOf(fmt.Sprintf("%09d", 123456000+i*37)))
		}
		orders = append(orders, fmt.Sprintf("%d", 100000001+i))
		randomOrders = append(randomOrders, fmt.Sprintf("%d", 100000000+(i*7919*104729)%800000000))
		phones = append(phones, fmt.Sprintf("6%08d", 12345678+i*1013))
	}
	for _, c := range []struct {
		name string
		col  Column
		want string
	}{
		{"kyc id_value, several countries", Column{Words: []string{"id", "value"}, Values: mixed}, NationalID},
		{"id_value, bare SSNs alone", Column{Words: []string{"id", "value"}, Values: bare}, NationalID},
		{"ssn, bare", Column{Words: []string{"ssn"}, Values: bare}, NationalID},
		{"bare SSNs under no such name", Column{Words: []string{"reference"}, Values: bare}, ""},
		{"sequential order numbers", Column{Words: []string{"order", "number"}, Values: orders}, ""},
		{"scattered order numbers", Column{Words: []string{"order", "no"}, Values: randomOrders}, ""},
		{"order numbers under no name", Column{Words: []string{"dato1"}, Values: randomOrders}, ""},
		// Spanish mobiles under a Spanish name: phones, not SSNs.
		{"nine-digit phone numbers", Column{Words: []string{"movil"}, Values: phones}, Phone},
	} {
		f, ok := Detect(c.col)
		got := ""
		if ok {
			got = f.Category
		}
		if got != c.want {
			t.Errorf("%s: %q %v, want %q", c.name, got, f.Evidence, c.want)
		}
	}
}

// cpfOf completes nine digits with a CPF's two check digits.
func cpfOf(nine string) string {
	for d := 0; d < 100; d++ {
		if s := fmt.Sprintf("%s%02d", nine, d); isCPF(s) {
			return s
		}
	}
	panic("no check digits")
}
