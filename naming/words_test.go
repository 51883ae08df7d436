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
	} {
		if got := strings.Join(NameTokens(in), " "); got != want {
			t.Errorf("NameTokens(%q) = %q, want %q", in, got, want)
		}
	}
}
