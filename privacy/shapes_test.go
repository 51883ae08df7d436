package privacy

import (
	"strings"
	"testing"
)

// many repeats values until there are n of them, the way a sample of a
// table's rows repeats a column's values.
func many(n int, vals ...string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = vals[i%len(vals)]
	}
	return out
}

// TestNamesAndAddressesByValues: persons' names and addresses in several
// languages are found by their values under names that say nothing;
// cities, products, firms and category labels are not persons' names.
func TestNamesAndAddressesByValues(t *testing.T) {
	for _, c := range []struct {
		name string
		vals []string
		want string
	}{
		{"Polish given names", many(30, "Katarzyna", "Tomasz", "Agnieszka", "Piotr", "Małgorzata", "Krzysztof", "Magdalena", "Paweł"), PersonName},
		{"Italian surnames", many(30, "Rossi", "Bianchi", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno", "Gallo"), PersonName},
		{"Swedish full names", many(30, "Erik Johansson", "Anna Lindqvist", "Lars Nilsson", "Karin Andersson", "Johan Berg", "Maria Svensson"), PersonName},
		{"Turkish names without accents", many(30, "Mehmet Yilmaz", "Ayse Demir", "Mustafa Kaya", "Fatma Celik", "Ahmet Sahin", "Emine Yildiz"), PersonName},
		{"surname first, upper case", many(30, "NOWAK, ANNA", "KOWALSKI, JAN", "WIŚNIEWSKA, EWA", "WÓJCIK, MAREK", "KOWALCZYK, ZOFIA"), PersonName},
		{"Portuguese addresses", many(30, "Rua Augusta 120", "Avenida da Liberdade 45, 2º Esq", "Travessa do Carmo 7", "Praça do Comércio 3", "Rua das Flores 88A"), PostalAddress},
		{"Polish addresses", many(30, "ul. Długa 12/4", "al. Jerozolimskie 65", "ul. Floriańska 3", "os. Tysiąclecia 41"), PostalAddress},
		{"Swedish compound streets", many(30, "Storgatan 14", "Drottninggatan 52", "Kungsvägen 3B", "Sveavägen 101"), PostalAddress},
		{"second address lines", many(30, "Apt 4B", "Suite 210", "Unit 12", "Apt 7"), PostalAddress},
		// not personal
		{"cities", many(30, "Kraków", "Göteborg", "Porto", "Bologna", "Rotterdam", "Lyon", "Sevilla", "Leipzig", "Tampere", "Aarhus", "Graz", "Brno"), ""},
		{"product names", many(30, "Wireless Mouse", "Espresso Machine", "Cotton T-Shirt", "Garden Hose", "Desk Lamp", "Yoga Mat", "Running Shoes"), ""},
		{"firms named after families", many(30, "Schmidt & Söhne GmbH", "Rossi e Figli S.r.l.", "Johansson AB", "Martin Group", "García Hermanos S.L.", "Nowak Sp. z o.o."), ""},
		{"category labels", many(30, "Electronics", "Kitchen", "Toys", "Books", "Outdoor", "Beauty", "Sports"), ""},
		{"statuses", many(30, "Active", "Pending", "Closed", "Cancelled"), ""},
		{"towns that bear persons' names", many(30, "Lincoln", "Jackson", "Madison", "Austin", "Charlotte", "Victoria", "San Jose", "Santa Clara"), ""},
		{"few distinct names prove little", many(30, "Anna", "Peter"), ""},
		{"versions and codes", many(30, "v1.2", "A-100", "B-200", "X12"), ""},
	} {
		f, ok := Detect(Column{Words: []string{"feld"}, Values: c.vals})
		if got := map[bool]string{true: f.Category}[ok]; got != c.want {
			t.Errorf("%s: %q %v, want %q", c.name, got, f.Evidence, c.want)
			continue
		}
		if ok && (f.Confidence < 0.5 || f.Confidence > 1 || len(f.Evidence) == 0) {
			t.Errorf("%s: confidence %.2f, evidence %q", c.name, f.Confidence, f.Evidence)
		}
		for _, v := range c.vals {
			if ok && strings.Contains(strings.Join(f.Evidence, " "), v) {
				t.Errorf("%s: evidence %q holds the value %q", c.name, f.Evidence, v)
			}
		}
	}
}

func TestAddressShapes(t *testing.T) {
	for s, want := range map[string]bool{
		"Hauptstraße 5": true, "Kerkstraat 12a": true, "12 rue Victor Hugo": true, "Calle Mayor, 12, 3º B": true,
		"Via Roma 3": true, "742 Evergreen Terrace": true, "Piso 3": true,
		"Ekgränd 69A": true, "Corso Garibaldi, 96/A": true, "ul. Długa 12/4": true,
		"Hauptstraße": false, "Berlin": false, "Order 12": false, "Rue": false, "Strategy 2024": false,
	} {
		if addressShape(s) != want {
			t.Errorf("addressShape(%q) = %v", s, !want)
		}
	}
	for s, want := range map[string]bool{"12": true, "12a": true, "3º": true, "12-14": true, "7/2": true, "12bis": true,
		"123456": false, "a12": false, "12abcd": false, "": false} {
		if houseNumber(s) != want {
			t.Errorf("houseNumber(%q) = %v", s, !want)
		}
	}
}

// TestOtherMeanings: values shaped like names in a column the semantic
// expert gave another meaning (countries) are not persons' names.
func TestOtherMeanings(t *testing.T) {
	vals := many(30, "Jordan", "Chad", "Georgia", "France", "Israel", "Victoria", "Lesotho", "Cuba")
	if f, ok := Detect(Column{Words: []string{"feld"}, SemanticType: "country", SemanticConfidence: 0.9, Values: vals}); ok {
		t.Errorf("countries: %+v", f)
	}
	if f, ok := Detect(Column{Words: []string{"feld"}, Values: vals}); !ok || f.Category != PersonName {
		t.Errorf("the same values of no type: %+v, %v (want person_name: the test above proves nothing otherwise)", f, ok)
	}
}

// TestPlaceNamedColumn: a column named as a town's (citta, ort, miasto)
// holds places, though they bear surnames (Bologna, Verona, Roma); the
// same values under another name are taken for names (so the name, not
// luck, decides).
func TestPlaceNamedColumn(t *testing.T) {
	vals := many(40, "Roma", "Milano", "Napoli", "Torino", "Palermo", "Genova", "Bologna", "Firenze", "Bari", "Verona")
	for _, words := range [][]string{{"citta"}, {"ort"}, {"miasto"}, {"birth", "place"}} {
		if f, ok := Detect(Column{Words: words, Values: vals}); ok {
			t.Errorf("%v: %+v", words, f)
		}
	}
	if f, ok := Detect(Column{Words: []string{"feld"}, Values: vals}); !ok || f.Category != PersonName {
		t.Errorf("the same values unnamed: %+v, %v (want person_name: the test above proves nothing otherwise)", f, ok)
	}
}

// TestAddressNameOverruledByValues: a column named address whose values
// are IP addresses, locators, user names or e-mail addresses is no postal
// address, whatever the semantic expert's type says; street lines in many
// languages and scripts still are, with a house number or without.
func TestAddressNameOverruledByValues(t *testing.T) {
	for _, c := range []struct {
		name string
		vals []string
		want string
	}{
		{"MediaWiki content addresses", many(40, "tt:123", "tt:98765", "es:DB://cluster1/123/45", "es:DB://cluster24/7/1902"), ""},
		{"blocked IPs and user names", many(40, "192.0.2.17", "2001:db8::7", "Vandal", "Jane Doe", "198.51.100.3", "SpamBot42"), ""},
		{"URLs", many(40, "https://example.org/a", "http://example.com/x?y=1", "ftp://files.example.net/b"), ""},
		{"e-mail addresses", many(40, "ann@example.org", "bo@example.com", "cy@example.net"), ""},
		{"hashes", many(40, "3f786850e387550fdab836ed7e6dc881de23001b", "89e6c98d92887913cadf06b2adb97f26cde4849b"), ""},
		// still addresses
		{"English street lines", many(40, "1 Main St", "22 High Rd", "350 Fifth Avenue"), PostalAddress},
		{"Italian", many(40, "Via Roma, 12/A", "Corso Italia 5", "Piazza Navona 3"), PostalAddress},
		{"German", many(40, "Hauptstraße 5", "Am Markt 3", "Lindenallee 12a"), PostalAddress},
		{"lanes without numbers", many(40, "Church Lane", "Old Mill Road", "Rue de la Paix"), PostalAddress},
		{"Japanese", many(40, "東京都千代田区丸の内1-1-1", "大阪府大阪市北区梅田3-1-3"), PostalAddress},
		{"numbered lines the lexicon lacks", many(40, "Flat 3, 10 Downing", "Lot 7 Rural Route 2", "Box 12 Kinsale"), PostalAddress},
	} {
		f, ok := Detect(Column{Words: []string{"content", "address"}, SemanticType: "address", SemanticConfidence: 0.6, Values: c.vals})
		if got := map[bool]string{true: f.Category}[ok]; got != c.want {
			t.Errorf("%s: %q %v, want %q", c.name, got, f.Evidence, c.want)
		}
	}
	// Without values the semantic type stands.
	if f, ok := Detect(Column{Words: []string{"address"}, SemanticType: "address", SemanticConfidence: 0.6}); !ok || f.Category != PostalAddress {
		t.Errorf("no values: %+v %v, want %s", f, ok, PostalAddress)
	}
}
