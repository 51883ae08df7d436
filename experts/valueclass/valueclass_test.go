package valueclass

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/discover-db/discover/catalog"
)

func TestMatchers(t *testing.T) {
	phone := func(s string) bool { return IsPhone(s, false) }
	cases := []struct {
		name  string
		match func(string) bool
		yes   []string
		no    []string
	}{
		{"email", IsEmail,
			[]string{"a@b.co", "luisg@embraer.com.br", "o'neil+x@mail.example.org", "first.last@sub-domain.example.com"},
			[]string{"user@example", "a@b", "not an email", "a b@c.com", "@x.com", "x@.com", "a@b.c", "a@@b.com", ""}},
		{"url", IsURL,
			[]string{"http://x", "https://example.com", "http://x.org/a?b=1", "www.example.com", "ftp://files.example.net/x",
				"HTTPS://EXAMPLE.COM/PATH#frag", "http://localhost:8080/api"},
			[]string{"example.com", "http//x", "https://", "mailto:a@b.c", "www.example", "http://a b.com", "file:///etc/passwd", ""}},
		{"uuid", IsUUID,
			[]string{"123e4567-e89b-12d3-a456-426614174000", "{123E4567-E89B-12D3-A456-426614174000}"},
			[]string{"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400", "123e4567-e89b-12d3-a456-42661417400g", ""}},
		{"date", IsDate,
			[]string{"2024-01-31", "1999-12-01", "1950-6-12", "2024/01/31", "31/01/2024", "01/31/2024", "31.12.2020", "31-12-2020", "1-2-1985"},
			[]string{"2024-13-01", "2024-01-31 10:00", "13/13/2024", "2024-01-32", "20240131", "1.2.3", "0000-01-01", "Jan 31, 2024", "31-12/2020", "13-13-2024", ""}},
		{"timestamp", IsTimestamp,
			[]string{"2024-01-31 10:00", "2024-01-31T10:00:59", "2009-01-01 00:00:00", "2024-01-31T10:00:00.123Z", "2024-01-31 10:00:00+02:00"},
			[]string{"2024-01-31", "2024-01-31 25:00", "2024-01-31 10:60", "2024-13-31 10:00", "10:00", ""}},
		{"midnight", IsMidnight,
			[]string{"2009-01-01 00:00:00", "2009-01-01T00:00", "2009-01-01 00:00:00.000Z"},
			[]string{"2009-01-01 00:00:01", "2009-01-01", "2009-01-01 00:00:00.5", ""}},
		{"phone", phone,
			[]string{"+1 (555) 010-9999", "+55 (12) 3923-5555", "+1 (780) 428-9482", "555-123-4567", "555.123.4567", "+4930123456",
				"679-845-8645x94312", "(780)719-4206 ext. 33", "+12(6)9024410984", "030 1234567"},
			[]string{"1.5", "42", "12345", "5551234567", "2024-01-31", "2024-13-01", "31.12.2020", "24-05-1979", "2024-01-31 10:00", "1234.56", "+1 555 CALL NOW",
				"1234567890123456789", "x12", "ext 1234567", ""}},
		{"phone hinted", func(s string) bool { return IsPhone(s, true) }, []string{"5551234567", "+1 (555) 010-9999"}, []string{"123", "1.5", "2024-01-31"}},
		{"json", IsJSON,
			[]string{`{"a":1}`, `[1,2]`, ` {"x": [true]} `, `[]`, `{}`},
			[]string{`"a"`, "12", "true", "{a:1}", "[1,2", "[x]", ""}},
		{"number", IsNumber,
			[]string{"42", "3.5", "-7", "+7", ".5", "1e6", "2.5E-3", " 12 ", "0", "007"},
			[]string{"1,000", "NaN", "Inf", "-Infinity", "0x1F", "1_000", "12a", "-", ".", "e5", "1.2.3", "2024-01-31", ""}},
	}
	for _, c := range cases {
		for want, values := range map[bool][]string{true: c.yes, false: c.no} {
			for _, s := range values {
				if got := c.match(s); got != want {
					t.Errorf("%s(%q) = %v, want %v", c.name, s, got, want)
				}
			}
		}
	}
}

// TestClasses checks which classes each value falls in: the classes Shares
// counts, where a number is a quantity written as text.
func TestClasses(t *testing.T) {
	cases := map[string][]string{
		"42":                                   {Number},
		"3.5":                                  {Number},
		"1.5":                                  {Number},
		"-0.25":                                {Number},
		"007":                                  nil, // a zero-padded code
		"5551234567":                           {Number},
		"+4930123456":                          {Phone},
		"+1 (555) 010-9999":                    {Phone},
		"2024-01-31":                           {Date},
		"2024-13-01":                           nil,
		"31.12.2020":                           {Date},
		"2024-01-31T10:00:00Z":                 {Timestamp},
		"a@b.co":                               {Email},
		"user@example":                         nil,
		"http://x":                             {URL},
		"123e4567-e89b-12d3-a456-426614174000": {UUID},
		`{"a":1}`:                              {JSON},
		"[1,2]":                                {JSON},
		"hello world":                          nil,
	}
	for in, want := range cases {
		var got []string
		for _, c := range classes {
			if c.match(in) {
				got = append(got, c.name)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q is in %v, want %v", in, got, want)
		}
	}
}

func TestShares(t *testing.T) {
	values := []string{"a@x.com", "b@y.org", "42", "3.5", "2024-01-31", "hello", "", "  ", "https://example.com", `{"a":1}`, "zero weight"}
	counts := []int64{50, 30, 8, 2, 4, 3, 100, 7, 2, 1, 0}
	// Non-empty weight: 50+30+8+2+4+3+2+1 = 100.
	got := Shares(values, counts)
	want := []catalog.ValuePattern{
		{Class: Email, Share: 0.8, Sample: 100},
		{Class: Number, Share: 0.1, Sample: 100},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Shares = %+v, want %+v", got, want)
	}

	// Without counts each value counts once; equal shares sort by class.
	got = Shares([]string{"a@x.com", " 2024-01-31 ", "12", "hello", "https://x.org", "{}", "[1]", "2024-01-31 10:00", "x", "y"}, nil)
	want = []catalog.ValuePattern{
		{Class: JSON, Share: 0.2, Sample: 10},
		{Class: Date, Share: 0.1, Sample: 10},
		{Class: Email, Share: 0.1, Sample: 10},
		{Class: Number, Share: 0.1, Sample: 10},
		{Class: Timestamp, Share: 0.1, Sample: 10},
		{Class: URL, Share: 0.1, Sample: 10},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Shares = %+v, want %+v", got, want)
	}

	// Shares are rounded; a class under 5% is left out.
	vals := make([]string, 0, 1000)
	for i := 0; i < 1000; i++ {
		switch {
		case i < 943:
			vals = append(vals, fmt.Sprintf("user%d@example.com", i))
		case i < 987:
			vals = append(vals, "+1 (555) 010-"+strconv.Itoa(1000+i))
		default:
			vals = append(vals, "n/a")
		}
	}
	got = Shares(vals, nil)
	want = []catalog.ValuePattern{{Class: Email, Share: 0.943, Sample: 1000}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Shares = %+v, want %+v", got, want)
	}

	for _, in := range [][]string{nil, {}, {"", " "}, {"hello", "world"}} {
		if got := Shares(in, nil); got != nil {
			t.Errorf("Shares(%q) = %+v, want nil", in, got)
		}
	}
	// Counts shorter than values: the rest count once.
	if got := Shares([]string{"1", "a@b.co"}, []int64{3}); !reflect.DeepEqual(got, []catalog.ValuePattern{
		{Class: Number, Share: 0.75, Sample: 4}, {Class: Email, Share: 0.25, Sample: 4}}) {
		t.Errorf("short counts: %+v", got)
	}
}

// BenchmarkShares classifies a thousand mixed values, the most the
// statistical expert hands over for one column.
func BenchmarkShares(b *testing.B) {
	mix := []string{"a@x.com", "https://example.com/a", "123e4567-e89b-12d3-a456-426614174000", "+1 (555) 010-9999",
		"2024-01-31", "2024-01-31 10:00:00", "42.5", `{"a":[1,2]}`, "Some free text, a little longer than a word", "ABC-123"}
	vals := make([]string, 1000)
	for i := range vals {
		vals[i] = mix[i%len(mix)]
	}
	b.ReportAllocs()
	for b.Loop() {
		Shares(vals, nil)
	}
}
