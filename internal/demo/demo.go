// Package demo builds the demo database that discover explores when it is
// given no database of its own: a small but realistic e-commerce shop in
// SQLite, generated deterministically so that tests elsewhere can assert that
// discover finds what was planted. `discover --demo` builds it (cmd/discover),
// the tests of cmd/discover and the experts read it, and internal/load copies
// it into the other engines.
//
// The shop: a three-level category tree, products with suppliers (a bridge
// table), customers with addresses, two years of orders (2023-01-01 to
// 2024-12-31) with items, payments, shipments, reviews, and per-warehouse
// inventory. About 155,000 rows in 12 tables and one view.
//
// Realities planted for discover to find (all listed in Facts):
//
//   - Declared foreign keys, and undeclared references that the data fully
//     respects, so relationship inference has something to infer.
//   - One undeclared reference with orphans: two reviews by customers that
//     were deleted (reviews.customer_id → customers.id).
//   - A self-reference (categories.parent_category_id) forming a 3-level
//     hierarchy, and a bridge table (product_suppliers) with a composite key.
//   - customers.email looks unique but one value belongs to two customers
//     (the same person signed up twice); no UNIQUE constraint stops it.
//   - A few payments whose amount is 100 times the order total (cents written
//     into a dollars column): far above every other amount.
//   - NULL-heavy columns (products.weight_grams, reviews.body,
//     addresses.line2, orders.coupon_code) and sparsely NULL ones
//     (customers.phone, shipments.delivered_at).
//   - Enumerations (orders.status, orders.channel, payments.method,
//     shipments.carrier, addresses.kind), phones in one E.164 format, ISO-2
//     country codes skewed towards a few countries, carrier-specific tracking
//     number formats.
//   - Seasonality: November and December carry far more orders, Saturday the
//     fewest; Black Friday and Cyber Monday spike.
//   - Skew: a few customers place many orders, many place none; product
//     popularity is heavy-tailed; ratings lean to 5.
//   - Lifecycle consistency as of the snapshot 2024-12-31 23:59:59: payments
//     exist exactly for paid, shipped, delivered and refunded orders;
//     shipments exactly for shipped, delivered and refunded ones, with
//     delivered_at set (and after shipped_at) for delivered and refunded.
//   - Money in NUMERIC columns, so SQLite stores whole amounts as integers and
//     the rest as reals: the type mix a profiler sees in real SQLite shops.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Version names the generator's output. Bump it whenever the generated
// content changes, so that caches built by Ensure are rebuilt.
const Version = 1

// Ref is a column that points at another table's key.
type Ref struct {
	Table, Column       string
	RefTable, RefColumn string
}

// Column names one column of one table.
type Column struct {
	Table, Column string
}

// Orphans are values of a reference with no matching key.
type Orphans struct {
	Ref    Ref
	Values []int64 // each appears exactly once
}

// NullHeavy is a column with at least MinNullFraction of its rows NULL.
type NullHeavy struct {
	Column
	MinNullFraction float64
}

// Enum is a text column that only takes these values.
type Enum struct {
	Column
	Values []string
}

// FactSheet describes what the demo database contains, for tests to check
// discover's findings against. Figures marked "at least" or "at most" are
// bounds that hold by construction; exact figures are exact.
type FactSheet struct {
	Tables []string // base tables, in creation order
	Views  []string

	// Exact row counts for tables whose size is fixed by construction; the
	// others vary with the generator but total at least MinTotalRows.
	RowCounts    map[string]int
	MinTotalRows int

	PrimaryKeys   map[string][]string
	DeclaredFKs   []Ref // present in PRAGMA foreign_key_list
	UndeclaredFKs []Ref // absent from it, yet inferable from the data
	Orphans       []Orphans
	UniqueColumns []Column // declared UNIQUE
	Indexes       []string // explicit CREATE INDEX, not autoindexes

	Hierarchy      Ref // a self-reference
	HierarchyDepth int
	BridgeTable    string

	DuplicateEmail            string
	DuplicateEmailCustomerIDs []int64 // the only customers sharing an email

	// Payments with amount at least OutlierMinAmount are exactly the
	// OutlierCount planted outliers, each OutlierScale times its order's
	// total; every other amount is at most RegularMaxAmount.
	OutlierCount     int
	OutlierMinAmount float64
	RegularMaxAmount float64
	OutlierScale     int

	NullHeavy []NullHeavy
	Enums     []Enum

	PhonePattern      string // regexp every non-NULL customers.phone matches
	TopCountries      []string
	TopCountriesShare float64 // at least this share of customers live in TopCountries

	OrderDates         Column
	FirstOrder         string // orders fall on or after this date
	LastOrder          string // and before the end of this one
	Snapshot           string
	PeakMonths         []time.Month
	PeakMonthsMinShare float64 // of all orders; an even spread would be 2/12
	QuietestWeekday    time.Weekday

	// At least this share of orders comes from the top 1% of customers who
	// order at all; at least ZeroOrderCustomerShare of customers never order.
	TopCustomerShare       float64
	ZeroOrderCustomerShare float64

	ModalRating int

	StatusesWithPayment  []string
	StatusesWithShipment []string
	StatusesDelivered    []string // shipments.delivered_at is set for these
}

// Facts is the fact sheet of the database Generate writes. Its slices are
// copies, so a caller that sorts or edits them cannot change the generator.
var Facts = FactSheet{
	Tables: []string{
		"categories", "suppliers", "products", "product_suppliers", "customers", "addresses",
		"orders", "order_items", "payments", "shipments", "reviews", "inventory",
	},
	Views: []string{"order_totals"},

	RowCounts: map[string]int{
		"categories": numCategories(),
		"suppliers":  numSuppliers,
		"products":   numProducts,
		"customers":  numCustomers - len(deletedCustomerIDs),
		"orders":     numOrders,
	},
	MinTotalRows: 150_000,

	PrimaryKeys: map[string][]string{
		"categories": {"id"}, "suppliers": {"id"}, "products": {"id"},
		"product_suppliers": {"product_id", "supplier_id"},
		"customers":         {"id"}, "addresses": {"id"}, "orders": {"id"}, "order_items": {"id"},
		"payments": {"id"}, "shipments": {"id"}, "reviews": {"id"},
		"inventory": {"product_id", "warehouse_code"},
	},
	DeclaredFKs: []Ref{
		{"categories", "parent_category_id", "categories", "id"},
		{"products", "category_id", "categories", "id"},
		{"product_suppliers", "product_id", "products", "id"},
		{"product_suppliers", "supplier_id", "suppliers", "id"},
		{"orders", "customer_id", "customers", "id"},
		{"order_items", "order_id", "orders", "id"},
		{"order_items", "product_id", "products", "id"},
	},
	UndeclaredFKs: []Ref{
		{"addresses", "customer_id", "customers", "id"},
		{"orders", "shipping_address_id", "addresses", "id"},
		{"payments", "order_id", "orders", "id"},
		{"shipments", "order_id", "orders", "id"},
		{"reviews", "product_id", "products", "id"},
		{"reviews", "customer_id", "customers", "id"},
		{"inventory", "product_id", "products", "id"},
	},
	Orphans: []Orphans{
		{Ref{"reviews", "customer_id", "customers", "id"}, slices.Clone(deletedCustomerIDs)},
	},
	UniqueColumns: []Column{{"products", "sku"}},
	Indexes:       []string{"idx_customers_email", "idx_orders_customer_id", "idx_orders_ordered_at", "idx_order_items_order_id"},

	Hierarchy:      Ref{"categories", "parent_category_id", "categories", "id"},
	HierarchyDepth: 3,
	BridgeTable:    "product_suppliers",

	DuplicateEmail:            dupEmail,
	DuplicateEmailCustomerIDs: slices.Clone(dupEmailCustomerIDs),

	OutlierCount:     outlierCount,
	OutlierMinAmount: 50_000,
	RegularMaxAmount: float64(regularMaxCents) / 100,
	OutlierScale:     outlierScale,

	NullHeavy: []NullHeavy{
		{Column{"products", "weight_grams"}, 0.6},
		{Column{"reviews", "body"}, 0.6},
		{Column{"addresses", "line2"}, 0.75},
		{Column{"orders", "coupon_code"}, 0.85},
	},
	Enums: []Enum{
		{Column{"orders", "status"}, []string{"pending", "paid", "shipped", "delivered", "cancelled", "refunded"}},
		{Column{"orders", "channel"}, []string{"web", "app", "phone"}},
		{Column{"payments", "method"}, []string{"card", "paypal", "apple_pay", "bank_transfer", "gift_card", "klarna"}},
		{Column{"shipments", "carrier"}, []string{"UPS", "FedEx", "USPS", "DHL", "DPD", "Royal Mail", "Australia Post"}},
		{Column{"addresses", "kind"}, []string{"shipping", "billing"}},
		{Column{"inventory", "warehouse_code"}, slices.Clone(warehouses)},
	},

	PhonePattern:      `^\+[1-9][0-9]{9,12}$`,
	TopCountries:      []string{"US", "DE", "GB"},
	TopCountriesShare: 0.5,

	OrderDates:         Column{"orders", "ordered_at"},
	FirstOrder:         "2023-01-01",
	LastOrder:          "2024-12-31",
	Snapshot:           "2024-12-31 23:59:59",
	PeakMonths:         []time.Month{time.November, time.December},
	PeakMonthsMinShare: 0.25,
	QuietestWeekday:    time.Saturday,

	TopCustomerShare:       0.08,
	ZeroOrderCustomerShare: 0.2,

	ModalRating: 5,

	StatusesWithPayment:  []string{"paid", "shipped", "delivered", "refunded"},
	StatusesWithShipment: []string{"shipped", "delivered", "refunded"},
	StatusesDelivered:    []string{"delivered", "refunded"},
}

func numCategories() int {
	var count func(n catNode) int
	count = func(n catNode) int {
		c := 1
		for _, ch := range n.children {
			c += count(ch)
		}
		return c
	}
	total := 0
	for _, rc := range categoryTree {
		total += count(rc.node)
	}
	return total
}

// FileName is the demo database's name inside Ensure's cache directory.
var FileName = fmt.Sprintf("demo-v%d.db", Version)

// Generate writes a fresh demo database at path, which must not exist. The
// content is the same on every call. It builds into path+".tmp" and renames,
// so path never holds a half-built database; concurrent calls for the same
// path are not supported (Ensure is the safe way to share one).
func Generate(ctx context.Context, path string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("demo: %s already exists", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	m, err := build()
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	tmp := path + ".tmp"
	// A leftover from a crashed build is garbage; SQLite would otherwise add
	// to it.
	for _, f := range []string{tmp, tmp + "-journal"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := write(ctx, tmp, m); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// Ensure returns the path of the demo database in cacheDir, building it on
// first use. With cacheDir "" it uses the user cache directory's "discover"
// folder. Processes may call it concurrently: each builds in its own
// temporary folder and the first rename wins.
func Ensure(ctx context.Context, cacheDir string) (string, error) {
	if cacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("demo: no cache directory: %w", err)
		}
		cacheDir = filepath.Join(base, "discover")
	}
	path := filepath.Join(cacheDir, FileName)
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		return path, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(cacheDir, ".demo-build-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	built := filepath.Join(dir, FileName)
	if err := Generate(ctx, built); err != nil {
		return "", err
	}
	// Someone else finished first: their file has the same content, and
	// keeping it leaves its mtime (and any open readers) undisturbed.
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.Rename(built, path); err != nil {
		return "", err
	}
	return path, nil
}
