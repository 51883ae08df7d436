package semantic

import (
	"reflect"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/naming"
)

func TestEntityType(t *testing.T) {
	cases := map[string]string{
		"orders": "Order", "order_items": "OrderItem", "categories": "Category", "addresses": "Address",
		"people": "Person", "statuses": "Status", "Invoice": "Invoice", "InvoiceLine": "InvoiceLine",
		"PlaylistTrack": "PlaylistTrack", "tbl_users": "User", "dim_customer": "Customer",
		"Order Details": "OrderDetail", "media_types": "MediaType", "order": "Order", "fact": "Fact",
	}
	for in, want := range cases {
		if got := entityType(in); got != want {
			t.Errorf("entityType(%q) = %q, want %q", in, got, want)
		}
	}
	if got := humanize("OrderItem"); got != "order item" {
		t.Errorf("humanize = %q", got)
	}
}

// TestMatchers covers the matchers that are semantic judgements; the value
// shapes (email, URL, date, phone, …) are tested in valueclass.
func TestMatchers(t *testing.T) {
	type tc struct {
		name  string
		match func(string) bool
		yes   []string
		no    []string
	}
	cases := []tc{
		{"postal", isPostalCode, []string{"12227-000", "H2G 1A7", "SW1A 1AA", "1010", "70174"}, []string{"abc", "x", "12345678901"}},
		{"person", isPersonName, []string{"Luís Gonçalves", "O'Neil", "Mary-Jane Smith", "Smith, John", "Ludwig van Beethoven", "JOHN SMITH", "ann lee"},
			[]string{"R2D2", "a@b.c", "", "Great Lakes Food Market", "Berglunds snabbköp", "Acme Inc.", "Around the Horn"}},
		{"currency", isCurrency, []string{"USD", "eur", "JPY"}, []string{"US", "USA", "DOLLAR"}},
	}
	for _, c := range cases {
		for _, s := range c.yes {
			if !c.match(s) {
				t.Errorf("%s: %q should match", c.name, s)
			}
		}
		for _, s := range c.no {
			if c.match(s) {
				t.Errorf("%s: %q should not match", c.name, s)
			}
		}
	}
	countries := map[string]countryKind{"US": countryAlpha2, "de": countryAlpha2, "USA": countryAlpha3,
		"Brazil": countryName, "united kingdom": countryName, "XX": notCountry, "Atlantis": notCountry}
	for in, want := range countries {
		if got := matchCountry(in); got != want {
			t.Errorf("matchCountry(%q) = %v, want %v", in, got, want)
		}
	}
	bools := map[string]bool{"0,1": true, "true,false": true, "Y,N": true, "yes,no": true, "1": true,
		"0,2": false, "a,b": false, "y,n,x": false, "T,F": true, "1,t": false}
	for in, want := range bools {
		if got := isBooleanSet(strings.Split(in, ",")); got != want {
			t.Errorf("isBooleanSet(%s) = %v, want %v", in, got, want)
		}
	}
}

// prof builds a profile of rows rows with nonNull values of which distinct differ.
func prof(rows, nonNull, distinct int64, top ...string) *catalog.ProfileDoc {
	nf := 1 - float64(nonNull)/float64(rows)
	p := &catalog.ProfileDoc{Rows: rows, NullFraction: &nf, DistinctCount: &distinct}
	for _, v := range top {
		p.TopValues = append(p.TopValues, catalog.ValueCount{Value: v})
	}
	return p
}

func repeat(vals []string, n int) []string {
	var out []string
	for len(out) < n {
		out = append(out, vals...)
	}
	return out[:n]
}

func TestClassify(t *testing.T) {
	inv := map[string]bool{"customer": true, "order": true, "product": true}
	mean := 3.5
	num := prof(100, 100, 60)
	num.Mean = &mean
	long := strings.Repeat("a long sentence of prose that goes on ", 3)
	cases := []struct {
		name string
		col  column
		want string
	}{
		{"pk", column{Name: "id", Type: "INTEGER", PK: true, Profile: prof(10, 10, 10)}, TypeIdentifier},
		{"declared fk", column{Name: "cust", Type: "INTEGER", DeclaredFK: true, Profile: prof(10, 10, 3)}, TypeForeignKey},
		{"blob", column{Name: "photo", Type: "BLOB"}, TypeBinary},
		{"all null", column{Name: "x", Type: "TEXT", Profile: prof(10, 0, 0)}, TypeUnknown},
		{"bool 0/1", column{Name: "flag", Type: "INTEGER", Profile: prof(100, 100, 2, "0", "1")}, TypeBoolean},
		{"bool Y/N text", column{Name: "ok", Type: "TEXT", Profile: prof(100, 100, 2, "Y", "N"), SampleTaken: true, Sample: repeat([]string{"Y", "N"}, 100)}, TypeBoolean},
		{"bool type", column{Name: "x", Type: "BOOLEAN", Profile: prof(100, 100, 2, "true", "false")}, TypeBoolean},
		{"not bool 0/2", column{Name: "n", Type: "INTEGER", Profile: prof(100, 100, 2, "0", "2")}, TypeMeasure},
		// An enumeration's type holds NUM in its name, not numbers: one of
		// 80 labels, too many for a code list, is no quantity.
		{"enum is no measure", column{Name: "origin", Type: "enum('" + strings.Repeat("x','", 79) + "y')", Profile: prof(1000, 1000, 80)}, TypeUnknown},
		{"email", column{Name: "contact", Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"a@x.com", "b@y.org"}, 50)}, TypeEmail},
		{"email named, not emails", column{Name: "email", Tokens: []string{"email"}, Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"alpha", "beta", "gamma"}, 50)}, TypeUnknown},
		{"uuid", column{Name: "ref", Type: "TEXT", Profile: prof(5, 5, 5), SampleTaken: true, Sample: []string{"123e4567-e89b-12d3-a456-426614174000"}}, TypeUUID},
		{"timestamp", column{Name: "created", Type: "TEXT", Profile: prof(5, 5, 5), SampleTaken: true, Sample: []string{"2024-01-01 10:00:00", "2024-01-02"}}, TypeTimestamp},
		{"date", column{Name: "d", Type: "TEXT", Profile: prof(5, 5, 5), SampleTaken: true, Sample: []string{"2024-01-01", "2024-01-02"}}, TypeDate},
		{"country names", column{Name: "where", Type: "TEXT", Profile: prof(50, 50, 5), SampleTaken: true, Sample: repeat([]string{"Brazil", "Germany", "USA"}, 50)}, TypeCountry},
		{"alpha-2 unnamed is not country", column{Name: "st", Tokens: []string{"st"}, Type: "TEXT", Profile: prof(50, 50, 5), SampleTaken: true, Sample: repeat([]string{"CA", "DE", "IN"}, 50)}, TypeEnum},
		{"alpha-2 named country", column{Name: "country", Tokens: []string{"country"}, Type: "TEXT", Profile: prof(50, 50, 5), SampleTaken: true, Sample: repeat([]string{"CA", "DE", "IN"}, 50)}, TypeCountry},
		{"currency", column{Name: "cur", Type: "TEXT", Profile: prof(50, 50, 3), SampleTaken: true, Sample: repeat([]string{"USD", "EUR", "GBP"}, 50)}, TypeCurrency},
		{"json", column{Name: "attrs", Type: "TEXT", Profile: prof(5, 5, 5), SampleTaken: true, Sample: []string{`{"a":1}`, `[1]`}}, TypeJSON},
		{"phone", column{Name: "phone", Tokens: []string{"phone"}, Type: "TEXT", Profile: prof(5, 5, 5), SampleTaken: true, Sample: []string{"+1 (780) 428-9482", "5551234567"}}, TypePhone},
		{"postal", column{Name: "PostalCode", Tokens: naming.Words("PostalCode"), Type: "TEXT", Profile: prof(5, 5, 5), SampleTaken: true, Sample: []string{"12227-000", "H2G 1A7", "1010"}}, TypePostalCode},
		{"unnamed postal is not postal", column{Name: "x", Type: "TEXT", Profile: prof(5, 5, 5), SampleTaken: true, Sample: []string{"12227-000", "H2G 1A7", "1010"}}, TypeUnknown},
		{"person name", column{Name: "last_name", Tokens: naming.Words("last_name"), Type: "TEXT", Profile: prof(50, 50, 40), SampleTaken: true, Sample: repeat([]string{"Smith", "O'Neil", "García"}, 50)}, TypePersonName},
		{"name of a person table", column{Name: "name", Tokens: []string{"name"}, TableWords: []string{"employee"}, Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"Ann Lee", "Bo Chan"}, 50)}, TypePersonName},
		{"name of a product is a label", column{Name: "name", Tokens: []string{"name"}, TableWords: []string{"product"}, Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"Chai", "Chang"}, 50)}, TypeLabel},
		{"person hint but codes", column{Name: "first_name", Tokens: naming.Words("first_name"), Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"X1", "Y2"}, 50)}, TypeLabel},
		{"free text", column{Name: "body", Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{long + "1", long + "2"}, 50)}, TypeFreeText},
		// Notes from templates repeat (311 texts in 633 rows), yet are more
		// than a code list holds: prose under a name in no lexicon.
		{"templated notes", column{Name: "bemerkung", Tokens: []string{"bemerkung"}, Type: "TEXT", Profile: prof(800, 633, 311), SampleTaken: true, Sample: repeat([]string{long + "1", long + "2"}, 160)}, TypeFreeText},
		// A few long labels repeated are a code list, not prose.
		{"long labels repeated", column{Name: "tier", Tokens: []string{"tier"}, Type: "TEXT", Profile: prof(800, 800, 12), SampleTaken: true, Sample: repeat([]string{long + "1", long + "2"}, 160)}, TypeEnum},
		{"enum", column{Name: "status", Tokens: []string{"status"}, Type: "TEXT", Profile: prof(500, 500, 4), SampleTaken: true, Sample: repeat([]string{"new", "paid", "shipped", "void"}, 200)}, TypeEnum},
		{"fk by name", column{Name: "customer_id", Tokens: naming.Words("customer_id"), Type: "INTEGER", InventoryNames: inv, Profile: prof(100, 100, 30)}, TypeForeignKey},
		{"unique id is identifier", column{Name: "order_id", Tokens: naming.Words("order_id"), TableWords: []string{"order"}, Type: "INTEGER", InventoryNames: inv, Profile: prof(100, 100, 100)}, TypeIdentifier},
		{"unique id of no table is identifier", column{Name: "ticket_id", Tokens: naming.Words("ticket_id"), TableWords: []string{"sale"}, Type: "INTEGER", InventoryNames: inv, Profile: prof(100, 100, 100)}, TypeIdentifier},
		{"unique id of another table is a reference", column{Name: "order_id", Tokens: naming.Words("order_id"), TableWords: []string{"invoice"}, Type: "INTEGER", InventoryNames: inv, Profile: prof(100, 100, 100)}, TypeForeignKey},
		{"gender 0/1 is a code", column{Name: "gender", Type: "INTEGER", Profile: prof(100, 100, 2, "0", "1")}, TypeEnum},
		{"measure", column{Name: "unit_price", Tokens: naming.Words("unit_price"), Type: "REAL", Profile: num}, TypeMeasure},
		{"text numbers are measures", column{Name: "amount", Tokens: []string{"amount"}, Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"12.5", "7", "100.25"}, 50)}, TypeMeasure},
		{"zero-padded codes are not measures", column{Name: "code", Tokens: []string{"code"}, Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"0012", "0013", "0099"}, 50)}, TypeIdentifier},
		{"declared date, no sample", column{Name: "d", Type: "DATE", Profile: prof(5, 5, 5)}, TypeDate},
		{"name only email", column{Name: "email", Tokens: []string{"email"}, Type: "TEXT"}, TypeEmail},
		{"address line", column{Name: "line1", TableWords: []string{"address"}, Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"1 Main St", "2 High Rd"}, 50)}, TypeAddress},
		{"ip address", column{Name: "ip_address", Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"10.0.0.1", "10.0.0.2"}, 50)}, TypeUnknown},
		{"address", column{Name: "BillingAddress", Tokens: naming.Words("BillingAddress"), Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"1 Main St", "2 High Rd"}, 50)}, TypeAddress},
		// The word address over values that are no place (MediaWiki's
		// content and block tables): the values decide.
		{"blob addresses", column{Name: "content_address", Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"tt:123", "tt:4567", "es:DB://cluster1/123/45", "es:DB://cluster2/9/1"}, 50)}, TypeLabel},
		{"blocked ips and user names", column{Name: "ipb_address", Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"192.0.2.17", "2001:db8::7", "Vandal", "Jane Doe", "198.51.100.3", "SpamBot42"}, 50)}, TypeUnknown},
		{"address without house numbers", column{Name: "address", Tokens: []string{"address"}, Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"Church Lane", "Old Mill Road", "Rue de la Paix", "Kerkstraat"}, 50)}, TypeAddress},
		{"Japanese addresses", column{Name: "address", Tokens: []string{"address"}, Type: "TEXT", Profile: prof(50, 50, 50), SampleTaken: true, Sample: repeat([]string{"東京都千代田区丸の内1-1-1", "大阪府大阪市北区梅田3-1-3"}, 50)}, TypeAddress},
		{"few values: the name decides", column{Name: "address", Tokens: []string{"address"}, Type: "TEXT", Profile: prof(3, 3, 3), SampleTaken: true, Sample: []string{"tt:1", "tt:2", "tt:3"}}, TypeAddress},
	}
	for _, c := range cases {
		v := classified(t, c.name, c.col, c.want)
		if v.Confidence <= 0 || v.Confidence > 1 {
			t.Errorf("%s: confidence %v out of range", c.name, v.Confidence)
		}
		if len(v.Reasons) == 0 {
			t.Errorf("%s: no reasons", c.name)
		}
	}
}

// classified classifies col, its name split into tokens unless they are
// set, and reports a type other than want.
func classified(t *testing.T, name string, col column, want string) verdict {
	t.Helper()
	if col.Tokens == nil {
		col.Tokens = naming.Words(col.Name)
	}
	v := classify(col)
	if v.Type != want {
		t.Errorf("%s: got %s (%.2f, %q), want %s", name, v.Type, v.Confidence, v.Reasons, want)
	}
	return v
}

func TestClassifyEvidenceAndConfidence(t *testing.T) {
	c := column{Name: "email", Tokens: []string{"email"}, Type: "TEXT", Profile: prof(200, 200, 200), SampleTaken: true,
		Sample: append(repeat([]string{"a@x.com"}, 194), repeat([]string{"nope"}, 6)...)}
	v := classify(c)
	if v.Type != TypeEmail || len(v.Evidence) == 0 || v.Evidence[0] != "97% of 200 sampled values match the email pattern" {
		t.Fatalf("got %+v", v)
	}
	if v.Confidence < 0.9 {
		t.Errorf("confidence %v too low for a 97%% match over 200 values", v.Confidence)
	}
	// Name alone is weak evidence.
	if v := classify(column{Name: "email", Tokens: []string{"email"}, Type: "TEXT"}); v.Confidence > 0.6 {
		t.Errorf("name-only confidence %v", v.Confidence)
	}
	// A contradicted name is reported.
	v = classify(column{Name: "email", Tokens: []string{"email"}, Type: "TEXT", Profile: prof(10, 10, 10), SampleTaken: true, Sample: repeat([]string{"x"}, 10)})
	if v.Type == TypeEmail || !strings.Contains(strings.Join(v.Reasons, ";"), "named like email but only 0%") {
		t.Errorf("contradicted name: %+v", v)
	}
}

// TestClassifyFromProfilePatterns checks the fallback on the value patterns
// of the profile when a column has no sampled values of its own.
func TestClassifyFromProfilePatterns(t *testing.T) {
	withPatterns := func(vps ...catalog.ValuePattern) *catalog.ProfileDoc {
		p := prof(2000, 1800, 1500)
		p.ValuePatterns = vps
		return p
	}
	vp := func(class string, share float64) catalog.ValuePattern {
		return catalog.ValuePattern{Class: class, Share: share, Sample: 1000}
	}
	cases := []struct {
		name     string
		col      column
		want     string
		evidence string // the first evidence, "" for none expected
	}{
		{"email, sample query failed", column{Name: "contact", Type: "TEXT", Profile: withPatterns(vp("email", 0.94))},
			TypeEmail, "94% of 1,000 profiled values look like email addresses"},
		{"email, sample held none", column{Name: "contact", Type: "TEXT", SampleTaken: true, Profile: withPatterns(vp("email", 0.94), vp("url", 0.06))},
			TypeEmail, "94% of 1,000 profiled values look like email addresses"},
		{"below the threshold", column{Name: "contact", Type: "TEXT", Profile: withPatterns(vp("email", 0.85))}, TypeUnknown, ""},
		{"uuid before anything", column{Name: "ref", Type: "TEXT", Profile: withPatterns(vp("uuid", 1))},
			TypeUUID, "100% of 1,000 profiled values look like UUIDs"},
		{"url", column{Name: "x", Type: "TEXT", Profile: withPatterns(vp("url", 0.9))}, TypeURL, "90% of 1,000 profiled values look like URLs"},
		{"json", column{Name: "x", Type: "TEXT", Profile: withPatterns(vp("json", 0.99))}, TypeJSON, "99% of 1,000 profiled values are JSON objects or arrays"},
		{"phone", column{Name: "x", Type: "TEXT", Profile: withPatterns(vp("phone", 0.97))}, TypePhone, "97% of 1,000 profiled values look like phone numbers"},
		{"dates", column{Name: "x", Type: "TEXT", Profile: withPatterns(vp("date", 0.97))}, TypeDate, "97% of 1,000 profiled values look like dates"},
		{"dates and timestamps", column{Name: "x", Type: "TEXT", Profile: withPatterns(vp("timestamp", 0.6), vp("date", 0.3))},
			TypeTimestamp, "90% of 1,000 profiled values look like dates or timestamps"},
		{"numbers as text", column{Name: "amount", Tokens: []string{"amount"}, Type: "TEXT", Profile: withPatterns(vp("number", 0.96))},
			TypeMeasure, "96% of 1,000 profiled values are numbers written as text"},
		{"numbers as text named like a phone", column{Name: "phone", Tokens: []string{"phone"}, Type: "TEXT", Profile: withPatterns(vp("number", 0.96))},
			TypePhone, ""},
		{"own sample wins", column{Name: "contact", Type: "TEXT", SampleTaken: true, Sample: repeat([]string{"alpha", "beta"}, 50),
			Profile: withPatterns(vp("email", 1))}, TypeUnknown, ""},
		{"own sample of numbers wins", column{Name: "amount", Tokens: []string{"amount"}, Type: "TEXT", SampleTaken: true, Sample: repeat([]string{"n/a", "none"}, 50),
			Profile: withPatterns(vp("number", 1))}, TypeUnknown, ""},
	}
	for _, c := range cases {
		v := classified(t, c.name, c.col, c.want)
		if v.Type == c.want && c.evidence != "" && (len(v.Evidence) == 0 || v.Evidence[0] != c.evidence) {
			t.Errorf("%s: evidence %q, want %q", c.name, v.Evidence, c.evidence)
		}
	}
	// The confidence is the sampled values', over the profiled count.
	v := classify(column{Name: "email", Tokens: []string{"email"}, Type: "TEXT", Profile: withPatterns(vp("email", 0.94))})
	if v.Confidence != 0.92 || !reflect.DeepEqual(v.Reasons, []string{"94% of 1,000 profiled values look like email addresses", "the name agrees (email)"}) {
		t.Errorf("named email: %+v", v)
	}
	if got := catalog.Thousands(1234567); got != "1,234,567" {
		t.Errorf("thousands = %s", got)
	}
}

func TestScoreDomains(t *testing.T) {
	cases := []struct {
		name    string
		tables  []string
		columns []string
		want    string
	}{
		{"music", []string{"Album", "Artist", "Customer", "Employee", "Genre", "Invoice", "InvoiceLine", "MediaType", "Playlist", "PlaylistTrack", "Track"},
			[]string{"AlbumId", "Title", "Composer", "Milliseconds", "UnitPrice", "Quantity"}, "music"},
		{"ecommerce", []string{"orders", "order_items", "products", "customers", "categories"},
			[]string{"order_id", "product_id", "quantity", "unit_price", "discount"}, "ecommerce"},
		{"hr", []string{"employees", "departments", "jobs", "salaries"}, []string{"hire_date", "salary", "dept_no"}, "hr"},
		{"healthcare", []string{"patients", "doctors", "appointments", "prescriptions"}, []string{"diagnosis"}, "healthcare"},
		{"education", []string{"students", "courses", "enrollments"}, []string{"grade", "semester"}, "education"},
		{"travel", []string{"flights", "airports", "airlines"}, []string{"departure_time"}, "travel"},
		{"nothing", []string{"t1", "t2"}, []string{"a", "b"}, "unknown"},
	}
	for _, c := range cases {
		g := scoreDomains(c.tables, c.columns)
		if g.Label != c.want {
			t.Errorf("%s: got %s (%.2f, %q), want %s", c.name, g.Label, g.Confidence, g.Evidence, c.want)
		}
		if g.Confidence > domainMaxConfid || g.Confidence <= 0 {
			t.Errorf("%s: confidence %v", c.name, g.Confidence)
		}
		if g.Label != "unknown" && (len(g.Evidence) == 0 || !strings.HasPrefix(g.Evidence[0], "tables: ")) {
			t.Errorf("%s: evidence %q", c.name, g.Evidence)
		}
	}
	// Two domains scoring alike give no label.
	if g := scoreDomains([]string{"patients", "students"}, nil); g.Label != "unknown" {
		t.Errorf("tie: got %s", g.Label)
	}
}
