package privacy

import (
	"fmt"
	"strings"
	"testing"
)

func TestMask(t *testing.T) {
	for _, c := range []struct{ cat, in, want string }{
		{Email, "jane.doe@example.com", "j***@e***.com"},
		{Email, "Ørjan@post.no", "Ø***@p***.no"},
		{Phone, "+44 7700 900123", "+44 7*** ***123"},
		{Phone, "(555) 010-4477", "(555) ***-*477"},
		{Phone, "0123", "****"},
		{PaymentCard, "4111 1111 1111 1111", "**** **** **** 1111"},
		{IBAN, "DE89 3704 0044 0532 0130 00", "DE** **** **** **** **** 00"},
		{NationalID, "123-45-6789", "***-**-**89"},
		{DateOfBirth, "1979-05-24", "****-**-**"},
		{IPAddress, "192.168.10.7", "192.*.*.*"},
		{PersonName, "María José García", "M*** J*** G***"},
		{PostalAddress, "221B Baker Street", "* B*** S***"},
		{FreeText, "call me at 555", "c*** m*** a*** *"},
	} {
		if got := Mask(c.cat, c.in); got != c.want {
			t.Errorf("Mask(%s, %q) = %q, want %q", c.cat, c.in, got, c.want)
		}
	}
	// A masked word is three stars whatever its length: the length does not
	// tell one surname from another.
	if Mask(PersonName, "Li") != Mask(PersonName, "Lindqvist") {
		t.Errorf("names of different lengths mask differently: %q, %q", Mask(PersonName, "Li"), Mask(PersonName, "Lindqvist"))
	}
}

func TestRedactor(t *testing.T) {
	r := NewRedactor()
	if !r.Empty() || r.Text("jane@example.com") != "jane@example.com" {
		t.Fatal("an empty redactor changed a text")
	}
	r.Add(Email, "jane@example.com")
	r.Add(PersonName, "Ann")
	r.Add(PersonName, "Jo")
	for in, want := range map[string]string{
		"jane@example.com": "j***@e***.com",
		" Jo ":             "J***",
		"top values: Ann (12), jane@example.com (3)": "top values: A*** (12), j***@e***.com (3)",
		"Annual report by Joanna":                    "Annual report by Joanna",
		"Jo and Ann":                                 "Jo and A***", // two letters: whole texts only
		"xjane@example.com":                          "xjane@example.com",
	} {
		if got := r.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	if s := r.Text("Ann, Ann and Ann."); strings.Contains(s, "Ann") {
		t.Errorf("every occurrence: %q", s)
	}
	// A value that starts with neither a letter nor a digit, and one that
	// holds another: the longer is masked as a whole.
	r.Add(Phone, "+44 7700 900123")
	r.Add(PersonName, "Ann Lee")
	for in, want := range map[string]string{
		"call +44 7700 900123 now": "call +44 7*** ***123 now",
		"by Ann Lee and Ann":       "by A*** L*** and A***",
		"x+44 7700 900123":         "x+44 7700 900123",
	} {
		if got := r.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRedactorShapes: with the shapes of e-mail addresses on, an address
// no value listed is masked too, and a masked one stays as it is.
func TestRedactorShapes(t *testing.T) {
	r := NewRedactor()
	r.AddShapes(Email)
	for in, want := range map[string]string{
		"1 value held by more than one row, e.g. laura.schmidt@gmail.com": "1 value held by more than one row, e.g. l***@g***.com",
		"e.g. l***@g***.com":    "e.g. l***@g***.com",
		"no address here @ all": "no address here @ all",
	} {
		if got := r.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMaskRows: a column named as a known personal one is masked, one whose
// values are e-mail addresses under another name too, and an e-mail inside
// another text; ids, counts and NULLs stay.
func TestMaskRows(t *testing.T) {
	cols := []string{"id", "Surname", "contact", "note", "n"}
	rows := [][]any{}
	for i, name := range []string{"Lindqvist", "Okafor", "Baptiste", "Nakamura", "Silva"} {
		rows = append(rows, []any{int64(i + 1), name, strings.ToLower(name) + "@mail.example", "write to " + strings.ToLower(name) + "@mail.example", int64(3)})
	}
	rows = append(rows, []any{int64(6), nil, nil, nil, int64(0)})
	known := map[string]string{}
	Known(known, "people", "surname", PersonName)
	Known(known, "public.people", "email", Email)
	masked := MaskRows(cols, nil, rows, known)
	if strings.Join(masked, ",") != "Surname,contact" {
		t.Errorf("masked %v, want Surname and contact", masked)
	}
	want := []any{int64(1), "L***", "l***@m***.example", "write to l***@m***.example", int64(3)}
	for j := range want {
		if rows[0][j] != want[j] {
			t.Errorf("row 0 column %s: %v (%T), want %v", cols[j], rows[0][j], rows[0][j], want[j])
		}
	}
	if rows[5][1] != nil || rows[5][4] != int64(0) {
		t.Errorf("the NULL row: %v", rows[5])
	}
}

// TestMaskRowsBySource: a column renamed in the query is masked when it
// reads a personal-data column, though its values (short codes) show
// nothing; a column read from elsewhere under a personal column's alias
// is not, unless its values say so; one the query did not trace is
// masked by its values.
func TestMaskRowsBySource(t *testing.T) {
	known := map[string]string{}
	Known(known, "public.people", "last_name", PersonName)
	cols := []string{"x", "y", "z", "who"}
	sources := [][]string{{"people.last_name"}, {"products.sku"}, nil, {"products.label"}}
	var rows [][]any
	for i := range 6 {
		rows = append(rows, []any{fmt.Sprintf("K%d", i), fmt.Sprintf("P-%d", i), []string{"Katarzyna", "Tomasz", "Agnieszka", "Piotr", "Magdalena", "Krzysztof"}[i], "Garden Hose"})
	}
	masked := MaskRows(cols, sources, rows, known)
	if strings.Join(masked, ",") != "x,z" {
		t.Errorf("masked %v, want x (by its source) and z (by its values)", masked)
	}
	if rows[0][0] != "K***" || rows[0][1] != "P-0" || rows[0][2] != "K***" || rows[0][3] != "Garden Hose" {
		t.Errorf("row 0: %v", rows[0])
	}
}
