package naming

import (
	"reflect"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	cases := map[string][]string{
		"customer_id":         {"customer", "id"},
		"CustomerId":          {"customer", "id"},
		"CustomerID":          {"customer", "id"},
		"customerId":          {"customer", "id"},
		"customerid":          {"customer", "id"},
		"HTTPServerURL":       {"http", "server", "url"},
		"InvoiceLine":         {"invoice", "line"},
		"address_line2":       {"address", "line", "2"},
		"first-name":          {"first", "name"},
		"Billing Postal Code": {"billing", "postal", "code"},
		"id":                  {"id"},
		"ID":                  {"id"},
		"valid":               {"valid"},
		"is_valid":            {"is", "valid"},
		"paid":                {"paid"},
		"fluid":               {"fluid"},
		"UnitPrice":           {"unit", "price"},
		"":                    nil,
		"__x__":               {"x"},
	}
	for in, want := range cases {
		if got := Words(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNameTokens(t *testing.T) {
	for in, want := range map[string]string{
		"album_id":         "album id",
		"AlbumId":          "album id",
		"albumID":          "album id",
		"SupportRepId":     "support rep id",
		"tbl_Order_Items2": "tbl order items 2",
		"XMLParser":        "xml parser",
		"Club_ID_2":        "club id 2",
		"order details":    "order details",
		// a lone letter and its digits are one code, not a letter and a number
		"store_m042":     "store m042",
		"customer_m7_id": "customer m7 id",
		"Q3Sales":        "q3 sales",
		"address_line1":  "address line 1",
	} {
		if got := strings.Join(NameTokens(in), " "); got != want {
			t.Errorf("NameTokens(%q) = %q, want %q", in, got, want)
		}
	}
}

// The singulars the relations expert needs of table names (moved with the
// singular from experts/relations).
func TestSingularOfTableNames(t *testing.T) {
	for in, want := range map[string]string{
		"categories": "category", "addresses": "address", "boxes": "box", "people": "person",
		"orders": "order", "status": "status", "staff": "staff", "id": "id", "branches": "branch", "menus": "menu",
	} {
		if got := Singular(in); got != want {
			t.Errorf("Singular(%q) = %q, want %q", in, got, want)
		}
	}
}

// The examples that three disagreeing singularizers got wrong, and the
// plurals prose needs: one inflection library serves every expert.
func TestSingularAndPlural(t *testing.T) {
	for in, want := range map[string]string{
		"statuses": "status", "species": "species", "quizzes": "quiz", "men": "man", "analyses": "analysis",
		"criteria": "criterion", "caches": "cache", "statistics": "statistics", "ids": "id", "data": "data",
		"campuses": "campus", "houses": "house", "territories": "territory", "id": "id",
	} {
		if got := Singular(in); got != want {
			t.Errorf("Singular(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"address": "addresses", "inventory": "inventories", "person": "people", "status": "statuses",
		"box": "boxes", "series": "series", "customer": "customers",
	} {
		if got := pluralOf(in); got != want {
			t.Errorf("pluralOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// The singulars the semantic expert needs of column words (moved with the
// singular from experts/semantic).
func TestSingularOfColumnWords(t *testing.T) {
	cases := map[string]string{
		"orders": "order", "categories": "category", "addresses": "address", "people": "person",
		"statuses": "status", "status": "status", "address": "address", "boxes": "box", "matches": "match",
		"dishes": "dish", "movies": "movie", "series": "series", "houses": "house", "campuses": "campus",
		"buses": "bus", "analyses": "analysis", "data": "data", "order": "order", "person": "person",
		"wolves": "wolf", "archives": "archive", "shoes": "shoe", "heroes": "hero", "children": "child",
		"news": "news", "cases": "case", "courses": "course", "employees": "employee", "items": "item",
		"class": "class", "classes": "class", "taxes": "tax", "quizzes": "quiz", "genres": "genre",
		"inventory": "inventory", "staff": "staff", "media": "media", "is": "is", "sales": "sale",
		"metrics": "metric", "analytics": "analytics", "companies": "company", "countries": "country",
	}
	for in, want := range cases {
		if got := Singular(in); got != want {
			t.Errorf("Singular(%q) = %q, want %q", in, got, want)
		}
	}
}

// Inflected: the endings of languages that inflect at the end of a word,
// on words of invented and real schemas in those languages; English
// plurals are Singular's, and near words that are no inflection stay
// apart.
func TestInflected(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"kunde", "kunden", true},            // German -n
		{"bestellung", "bestellungen", true}, // German -en
		{"lieferant", "lieferanten", true},
		{"klant", "klanten", true},   // Dutch
		{"ciudad", "ciudades", true}, // Spanish -es
		{"libro", "libri", true},     // Italian, the final vowel
		{"tabella", "tabelle", true}, // Italian
		{"fornitore", "fornitori", true},
		{"kunden", "kunde", true}, // either order
		{"kunde", "kunde", false}, // the same word is no inflection
		{"car", "card", false},    // too short to tell
		{"cart", "carts", true},
		{"product", "production", false}, // three letters more: another word
		{"journal", "journaux", false},   // a change inside the ending
		{"lager", "lagos", false},
		{"visit", "visitor", false}, // who visits: another entity
		{"play", "player", false},
		{"driver", "drivers", true},
		{"order", "ordnung", false},
		{"", "", false},
	} {
		if got := Inflected(c.a, c.b); got != c.want {
			t.Errorf("Inflected(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
