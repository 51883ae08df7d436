package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"
)

// Sizes are chosen so the database is big enough that sampling and sketches
// matter (over 100k rows) yet builds in about a second.
const (
	numProducts  = 1800
	numCustomers = 8000
	numOrders    = 25000
	numSuppliers = 25

	seed = 0x5eed_d15c_0de5_0001
)

const (
	regularMaxCents = 4999_99 // no order total may exceed this, so outliers stand out
	outlierCount    = 5
	outlierScale    = 100 // the planted bug: cents written into a dollars column
	outlierMinCents = 600_00
	dupEmail        = "laura.schmidt@gmail.com"
)

var (
	dupEmailCustomerIDs = []int64{1207, 5830}
	// Customers removed from the shop (think erasure requests) whose reviews
	// survived, because reviews.customer_id has no declared FK to cascade on.
	deletedCustomerIDs = []int64{3318, 6027}

	suppliersFrom = unix(2019, 3, 1)
	productsFrom  = unix(2021, 1, 15)
	customersFrom = unix(2021, 3, 1)
	ordersFrom    = unix(2023, 1, 1)
	// The moment the shop's state is frozen; every status is "as of" this.
	snapshot = unix(2025, 1, 1) - 1
)

const (
	day  = 24 * 60 * 60
	hour = 60 * 60
)

func unix(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix()
}

func stamp(t int64) string {
	return time.Unix(t, 0).UTC().Format("2006-01-02 15:04:05")
}

type weighted[T any] struct {
	v T
	w float64
}

type picker[T any] struct {
	vals []T
	cum  []float64
}

func newPicker[T any](items ...weighted[T]) picker[T] {
	p := picker[T]{}
	total := 0.0
	for _, it := range items {
		total += it.w
		p.vals = append(p.vals, it.v)
		p.cum = append(p.cum, total)
	}
	return p
}

func (p picker[T]) pick(r *rand.Rand) T {
	return p.vals[searchCum(p.cum, r)]
}

// searchCum picks an index with probability proportional to its weight.
// Drawing from (0, total] rather than [0, total) keeps zero-weight entries
// (equal neighbouring sums) from ever being chosen.
func searchCum(cum []float64, r *rand.Rand) int {
	x := (1 - r.Float64()) * cum[len(cum)-1]
	return sort.SearchFloat64s(cum, x)
}

func oneOf[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

func between(r *rand.Rand, lo, hi int64) int64 { return lo + r.Int64N(hi-lo) }

func digits(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	return string(b)
}

// pattern fills 9 with a digit and A with a capital letter, keeping the rest.
func pattern(r *rand.Rand, p string) string {
	b := []byte(p)
	for i, c := range b {
		switch c {
		case '9':
			b[i] = byte('0' + r.IntN(10))
		case 'A':
			b[i] = byte('A' + r.IntN(26))
		}
	}
	return string(b)
}

func slug(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("&", "and", "'", "", ".", "", ",", "").Replace(s)
	return strings.Join(strings.Fields(s), "-")
}

// stream gives each part of the model its own generator, so changing how one
// table is generated does not reshuffle every table after it.
func stream(part uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, part)) }

type category struct {
	id, parent int64 // parent 0 means a root
	name, slug string
	root       int
	nouns      []string
}

type product struct {
	id, categoryID int64
	sku, name      string
	cents          int64
	grams          int64 // 0 means unknown
	active         bool
	created        int64
	popularity     float64
}

type supplier struct {
	id                   int64
	name, country, email string
	created              int64
}

type productSupplier struct {
	productID, supplierID int64
	costCents             int64
	leadDays              int
	preferred             bool
}

type customer struct {
	id                        int64
	first, last, email, phone string
	country                   int
	optIn                     bool
	created                   int64
	propensity                float64
	deleted, ordered          bool
	shippingAddrIDs           []int64
	shippingAddrCountry       []string
}

type address struct {
	id, customerID                            int64
	kind, line1, line2, city, postal, country string
	isDefault                                 bool
}

type order struct {
	id, customerID, addressID int64
	status, channel, coupon   string
	country                   string
	at, paid, shipped, deliv  int64 // 0 means the event has not happened by the snapshot
	totalCents                int64
}

type orderItem struct {
	id, orderID, productID int64
	qty                    int
	unitCents              int64
}

type payment struct {
	id, orderID int64
	method, ref string
	amountCents int64
	at          int64
}

type shipment struct {
	id, orderID       int64
	carrier, tracking string
	shipped, deliv    int64
}

type review struct {
	id, productID, customerID int64
	rating                    int
	title, body               string
	at                        int64
}

type stock struct {
	productID    int64
	warehouse    string
	qty, reorder int
	updated      int64
}

type model struct {
	categories       []category
	suppliers        []supplier
	products         []product
	productSuppliers []productSupplier
	customers        []customer
	addresses        []address
	orders           []order
	items            []orderItem
	payments         []payment
	shipments        []shipment
	reviews          []review
	inventory        []stock
}

func build() (*model, error) {
	m := &model{}
	m.genCategories()
	m.genProducts(stream(1))
	m.genSuppliers(stream(2))
	m.genCustomers(stream(3))
	m.genOrders(stream(4))
	m.genAddresses(stream(5))
	m.genFulfilment(stream(6))
	if err := m.genPayments(stream(7)); err != nil {
		return nil, err
	}
	m.genShipments(stream(8))
	m.genReviews(stream(9))
	m.genInventory(stream(10))
	return m, nil
}

func (m *model) genCategories() {
	var walk func(n catNode, parent int64, root int)
	walk = func(n catNode, parent int64, root int) {
		c := category{id: int64(len(m.categories) + 1), parent: parent, name: n.name, slug: slug(n.name), root: root, nouns: n.nouns}
		m.categories = append(m.categories, c)
		for _, ch := range n.children {
			walk(ch, c.id, root)
		}
	}
	for i, rc := range categoryTree {
		walk(rc.node, 0, i)
	}
}

func (m *model) genProducts(r *rand.Rand) {
	var leaves []category
	for _, c := range m.categories {
		if len(c.nouns) > 0 {
			leaves = append(leaves, c)
		}
	}
	// Most of the catalogue predates the order history; the rest trickles in.
	created := make([]int64, numProducts)
	for i := range created {
		if chance(r, 0.55) {
			created[i] = between(r, productsFrom, ordersFrom)
		} else {
			created[i] = between(r, ordersFrom, snapshot-30*day)
		}
	}
	slices.Sort(created)
	endings := newPicker(weighted[int64]{99, 70}, weighted[int64]{49, 12}, weighted[int64]{95, 10}, weighted[int64]{0, 8})
	for i := range numProducts {
		leaf := oneOf(r, leaves)
		rc := categoryTree[leaf.root]
		id := int64(i + 1)
		dollars := rc.medianPrice * math.Exp(0.7*r.NormFloat64())
		dollars = math.Max(2, math.Min(dollars, 1299))
		p := product{
			id:         id,
			categoryID: leaf.id,
			sku:        fmt.Sprintf("%s-%05d", rc.prefix, 10000+id*7),
			name:       oneOf(r, brands) + " " + oneOf(r, adjectives) + " " + oneOf(r, leaf.nouns) + oneOf(r, modelSuffixes),
			cents:      int64(dollars)*100 + endings.pick(r),
			active:     !chance(r, 0.06),
			created:    created[i],
			popularity: math.Exp(1.2 * r.NormFloat64()),
		}
		// Weight is only filled in for the products someone bothered to measure.
		if chance(r, 0.3) {
			p.grams = int64(rc.medianGrams*math.Exp(0.6*r.NormFloat64())/5)*5 + 5
		}
		if !p.active {
			p.popularity /= 4
		}
		m.products = append(m.products, p)
	}
}

func (m *model) genSuppliers(r *rand.Rand) {
	for i, name := range supplierNames[:numSuppliers] {
		s := supplier{id: int64(i + 1), name: name, country: supplierCountries[i], created: between(r, suppliersFrom, productsFrom)}
		if !chance(r, 0.12) {
			words := strings.Fields(name)
			s.email = "sales@" + slug(words[0]+" "+words[1]) + ".example.com"
		}
		m.suppliers = append(m.suppliers, s)
	}
	counts := newPicker(weighted[int]{1, 55}, weighted[int]{2, 35}, weighted[int]{3, 10})
	for _, p := range m.products {
		n := counts.pick(r)
		ids := make([]int64, 0, n)
		for len(ids) < n {
			id := int64(1 + r.IntN(numSuppliers))
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		pref := r.IntN(n)
		for j, sid := range ids {
			m.productSuppliers = append(m.productSuppliers, productSupplier{
				productID:  p.id,
				supplierID: sid,
				costCents:  int64(float64(p.cents) * (0.35 + 0.3*r.Float64())),
				leadDays:   3 + r.IntN(43),
				preferred:  j == pref,
			})
		}
	}
}

func (m *model) genCustomers(r *rand.Rand) {
	created := make([]int64, numCustomers)
	span := float64(snapshot - ordersFrom)
	for i := range created {
		if chance(r, 0.2) {
			created[i] = between(r, customersFrom, ordersFrom)
		} else {
			// Density grows linearly over the two years: the shop is growing.
			created[i] = ordersFrom + int64(span*math.Sqrt(r.Float64()))
		}
	}
	slices.Sort(created)

	var cw []weighted[int]
	for i, c := range countries {
		cw = append(cw, weighted[int]{i, c.weight})
	}
	countryPick := newPicker(cw...)
	var dw []weighted[string]
	dw = append(dw, emailDomains...)
	domainPick := newPicker(dw...)

	seen := map[string]bool{dupEmail: true}
	for i := range numCustomers {
		id := int64(i + 1)
		c := customer{
			id:      id,
			first:   oneOf(r, firstNames),
			last:    oneOf(r, lastNames),
			country: countryPick.pick(r),
			optIn:   chance(r, 0.38),
			created: created[i],
		}
		if slices.Contains(dupEmailCustomerIDs, id) {
			c.first, c.last, c.email, c.country = "Laura", "Schmidt", dupEmail, 1
		} else {
			c.email = emailFor(r, c.first, c.last, domainPick.pick(r), seen)
		}
		if !chance(r, 0.22) {
			co := countries[c.country]
			c.phone = "+" + co.callingCode + fmt.Sprint(1+r.IntN(9)) + digits(r, co.phoneDigits-1)
		}
		// A heavy tail: most buyers order a few times, a few order very often,
		// and a good share of sign-ups never order at all.
		if !chance(r, 0.28) {
			c.propensity = math.Min(math.Pow(1-r.Float64(), -1/1.3), 60)
		}
		if slices.Contains(deletedCustomerIDs, id) {
			c.deleted, c.propensity = true, 0
		}
		m.customers = append(m.customers, c)
	}
}

func emailFor(r *rand.Rand, first, last, domain string, seen map[string]bool) string {
	f := strings.ToLower(first)
	l := strings.ReplaceAll(strings.ToLower(last), " ", "")
	var local string
	switch r.IntN(4) {
	case 0:
		local = f + "." + l
	case 1:
		local = f + l
	case 2:
		local = f[:1] + "." + l
	default:
		local = f + "_" + l
	}
	e := local + "@" + domain
	for seen[e] {
		e = fmt.Sprintf("%s%d@%s", local, 1+r.IntN(999), domain)
	}
	seen[e] = true
	return e
}

func (m *model) dayWeights() []float64 {
	month := [13]float64{0, 0.85, 0.8, 0.9, 0.9, 0.95, 0.9, 0.9, 0.95, 1.0, 1.05, 1.9, 2.2}
	weekday := [7]float64{time.Sunday: 1.1, time.Monday: 1.2, time.Tuesday: 1.05, time.Wednesday: 1.0, time.Thursday: 1.0, time.Friday: 0.9, time.Saturday: 0.75}
	spikes := map[string]float64{"2023-11-24": 3, "2023-11-27": 2, "2024-11-29": 3, "2024-12-02": 2}
	ndays := int((snapshot + 1 - ordersFrom) / day)
	cum := make([]float64, ndays)
	total := 0.0
	for i := range ndays {
		d := time.Unix(ordersFrom+int64(i)*day, 0).UTC()
		w := month[d.Month()] * weekday[d.Weekday()] * (1 + 0.3*float64(i)/float64(ndays))
		if s, ok := spikes[d.Format("2006-01-02")]; ok {
			w *= s
		}
		total += w
		cum[i] = total
	}
	return cum
}

var hourWeights = []float64{0.3, 0.2, 0.15, 0.1, 0.1, 0.15, 0.3, 0.5, 0.7, 0.9, 1, 1, 1.1, 1, 0.95, 0.95, 1, 1.1, 1.25, 1.4, 1.5, 1.4, 1.0, 0.6}

func cumulative(ws []float64) []float64 {
	out := make([]float64, len(ws))
	total := 0.0
	for i, w := range ws {
		total += w
		out[i] = total
	}
	return out
}

func (m *model) genOrders(r *rand.Rand) {
	days := m.dayWeights()
	hours := cumulative(hourWeights)
	at := make([]int64, numOrders)
	for i := range at {
		at[i] = ordersFrom + int64(searchCum(days, r))*day + int64(searchCum(hours, r))*hour + r.Int64N(hour)
	}
	slices.Sort(at)

	custCreated := make([]int64, len(m.customers))
	custWeights := make([]float64, len(m.customers))
	for i, c := range m.customers {
		custCreated[i] = c.created
		custWeights[i] = c.propensity
	}
	custCum := cumulative(custWeights)
	prodCreated := make([]int64, len(m.products))
	prodWeights := make([]float64, len(m.products))
	for i, p := range m.products {
		prodCreated[i] = p.created
		prodWeights[i] = p.popularity
	}
	prodCum := cumulative(prodWeights)
	// Only someone already registered can order, and only a product already
	// listed can be bought: both slices are sorted by creation time, so the
	// eligible ones are a prefix.
	prefix := func(created []int64, t int64) int {
		return sort.Search(len(created), func(i int) bool { return created[i] > t })
	}

	channels := newPicker(weighted[string]{"web", 58}, weighted[string]{"app", 34}, weighted[string]{"phone", 8})
	nItems := newPicker(weighted[int]{1, 45}, weighted[int]{2, 28}, weighted[int]{3, 15}, weighted[int]{4, 7}, weighted[int]{5, 5})
	cheapQty := newPicker(weighted[int]{1, 72}, weighted[int]{2, 18}, weighted[int]{3, 6}, weighted[int]{4, 2}, weighted[int]{5, 1}, weighted[int]{6, 1})

	for i, t := range at {
		o := order{id: int64(i + 1), at: t, channel: channels.pick(r)}
		k := prefix(custCreated, t)
		ci := searchCum(custCum[:k], r)
		o.customerID = m.customers[ci].id
		m.customers[ci].ordered = true

		d := time.Unix(t, 0).UTC()
		switch {
		case d.Month() == time.November && d.Day() >= 20 && chance(r, 0.25):
			o.coupon = "BLACKFRIDAY"
		case d.Month() == time.December && d.Day() <= 20 && chance(r, 0.15):
			o.coupon = "XMAS15"
		case chance(r, 0.05):
			o.coupon = oneOf(r, couponCodes)
		}

		kp := prefix(prodCreated, t)
		n := nItems.pick(r)
		var items []orderItem
		for tries := 0; len(items) < n && tries < 20; tries++ {
			p := m.products[searchCum(prodCum[:kp], r)]
			if slices.ContainsFunc(items, func(it orderItem) bool { return it.productID == p.id }) {
				continue
			}
			it := orderItem{orderID: o.id, productID: p.id, qty: 1, unitCents: p.cents}
			if p.cents <= 150_00 {
				it.qty = cheapQty.pick(r)
			} else if chance(r, 0.08) {
				it.qty = 2
			}
			if chance(r, 0.12) {
				it.unitCents = p.cents * int64(100-oneOf(r, []int{10, 15, 20})) / 100
			}
			items = append(items, it)
		}
		total := func() int64 {
			s := int64(0)
			for _, it := range items {
				s += int64(it.qty) * it.unitCents
			}
			return s
		}
		for total() > regularMaxCents {
			if last := len(items) - 1; last > 0 {
				items = items[:last]
			} else {
				items[0].qty = 1
			}
		}
		o.totalCents = total()
		for _, it := range items {
			it.id = int64(len(m.items) + 1)
			m.items = append(m.items, it)
		}
		m.orders = append(m.orders, o)
	}
}

func (m *model) genAddresses(r *rand.Rand) {
	line2 := []string{"Apt %d", "Suite %d", "Unit %d", "Floor %d"}
	newAddr := func(c *customer, kind string, isDefault bool) address {
		co := countries[c.country]
		if chance(r, 0.04) {
			co = oneOf(r, countries) // shipping abroad, e.g. to family
		}
		a := address{
			id:         int64(len(m.addresses) + 1),
			customerID: c.id,
			kind:       kind,
			city:       oneOf(r, co.cities),
			postal:     pattern(r, co.postal),
			country:    co.code,
			isDefault:  isDefault,
		}
		num := 1 + r.IntN(240)
		if co.region == "eu" {
			a.line1 = fmt.Sprintf("%s %s %d", oneOf(r, streetNames), oneOf(r, streetSuffixes), num)
		} else {
			a.line1 = fmt.Sprintf("%d %s %s", num, oneOf(r, streetNames), oneOf(r, streetSuffixes))
		}
		if chance(r, 0.18) {
			a.line2 = fmt.Sprintf(oneOf(r, line2), 1+r.IntN(40))
		}
		m.addresses = append(m.addresses, a)
		if kind == "shipping" {
			c.shippingAddrIDs = append(c.shippingAddrIDs, a.id)
			c.shippingAddrCountry = append(c.shippingAddrCountry, a.country)
		}
		return a
	}
	for i := range m.customers {
		c := &m.customers[i]
		if c.deleted || (!c.ordered && !chance(r, 0.55)) {
			continue
		}
		newAddr(c, "shipping", true)
		if chance(r, 0.18) {
			newAddr(c, "shipping", false)
		}
		if chance(r, 0.25) {
			newAddr(c, "billing", false)
		}
	}
	for i := range m.orders {
		o := &m.orders[i]
		c := &m.customers[o.customerID-1]
		j := 0
		if len(c.shippingAddrIDs) > 1 && chance(r, 0.2) {
			j = 1
		}
		o.addressID, o.country = c.shippingAddrIDs[j], c.shippingAddrCountry[j]
	}
}

func regionOf(code string) string {
	for _, c := range countries {
		if c.code == code {
			return c.region
		}
	}
	return "eu"
}

// genFulfilment plays each order's life forward from ordered_at and records the
// status it has reached at the snapshot, so statuses, payments and shipments
// always agree with each other and with the clock.
func (m *model) genFulfilment(r *rand.Rand) {
	transit := map[string][2]int64{"na": {2, 6}, "eu": {1, 4}, "gb": {1, 3}, "au": {3, 9}}
	for i := range m.orders {
		o := &m.orders[i]
		abandoned := chance(r, 0.004)
		cancelled := chance(r, 0.04)
		cancelAt := o.at + between(r, 10*60, 2*day)
		paid := o.at + 5 + int64(r.ExpFloat64()*600)
		shipped := paid + between(r, 3*hour, 4*day)
		tr := transit[regionOf(o.country)]
		deliv := shipped + between(r, tr[0]*day, tr[1]*day+1)
		refunded := chance(r, 0.035)
		refundAt := deliv + between(r, 2*day, 30*day)
		switch {
		case abandoned:
			o.status = "pending"
		case cancelled && cancelAt <= snapshot:
			o.status = "cancelled"
		case cancelled || paid > snapshot:
			o.status = "pending"
		case shipped > snapshot:
			o.status, o.paid = "paid", paid
		case deliv > snapshot:
			o.status, o.paid, o.shipped = "shipped", paid, shipped
		case refunded && refundAt <= snapshot:
			o.status, o.paid, o.shipped, o.deliv = "refunded", paid, shipped, deliv
		default:
			o.status, o.paid, o.shipped, o.deliv = "delivered", paid, shipped, deliv
		}
	}
}

func (m *model) genPayments(r *rand.Rand) error {
	methods := newPicker(
		weighted[string]{"card", 58}, weighted[string]{"paypal", 22}, weighted[string]{"apple_pay", 7},
		weighted[string]{"bank_transfer", 6}, weighted[string]{"gift_card", 4}, weighted[string]{"klarna", 3},
	)
	for _, o := range m.orders {
		if o.paid == 0 {
			continue
		}
		m.payments = append(m.payments, payment{
			orderID:     o.id,
			method:      methods.pick(r),
			amountCents: o.totalCents,
			ref:         fmt.Sprintf("pi_%016x%08x", r.Uint64(), r.Uint32()),
			at:          o.paid,
		})
	}
	// Ids follow payment time, as an autoincrement key would.
	slices.SortStableFunc(m.payments, func(a, b payment) int { return cmpInt(a.at, b.at) })
	var candidates []int
	for i := range m.payments {
		m.payments[i].id = int64(i + 1)
		if c := m.payments[i].amountCents; c >= outlierMinCents && c <= regularMaxCents {
			candidates = append(candidates, i)
		}
	}
	if len(candidates) < outlierCount {
		return fmt.Errorf("demo: only %d orders large enough to plant outliers", len(candidates))
	}
	for k := range outlierCount {
		i := candidates[(2*k+1)*len(candidates)/(2*outlierCount)]
		m.payments[i].amountCents *= outlierScale
	}
	return nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (m *model) genShipments(r *rand.Rand) {
	mixes := map[string]picker[string]{
		"US": newPicker(weighted[string]{"UPS", 40}, weighted[string]{"FedEx", 25}, weighted[string]{"USPS", 35}),
		"CA": newPicker(weighted[string]{"UPS", 55}, weighted[string]{"FedEx", 45}),
		"eu": newPicker(weighted[string]{"DHL", 50}, weighted[string]{"DPD", 30}, weighted[string]{"UPS", 20}),
		"gb": newPicker(weighted[string]{"Royal Mail", 50}, weighted[string]{"DPD", 30}, weighted[string]{"DHL", 20}),
		"au": newPicker(weighted[string]{"Australia Post", 70}, weighted[string]{"DHL", 30}),
	}
	alnum := "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
	seen := map[string]bool{}
	for _, o := range m.orders {
		if o.shipped == 0 {
			continue
		}
		key := o.country
		if key != "US" && key != "CA" {
			key = regionOf(key)
		}
		carrier := mixes[key].pick(r)
		var tn string
		for tn == "" || seen[tn] {
			switch carrier {
			case "UPS":
				b := make([]byte, 6)
				for i := range b {
					b[i] = alnum[r.IntN(len(alnum))]
				}
				tn = "1Z" + string(b) + digits(r, 10)
			case "FedEx":
				tn = digits(r, 12)
			case "USPS":
				tn = "9400" + digits(r, 18)
			case "DHL":
				tn = digits(r, 10)
			case "DPD":
				tn = digits(r, 14)
			case "Royal Mail":
				tn = pattern(r, "AA999999999GB")
			default:
				tn = pattern(r, "AA999999999AU")
			}
		}
		seen[tn] = true
		m.shipments = append(m.shipments, shipment{orderID: o.id, carrier: carrier, tracking: tn, shipped: o.shipped, deliv: o.deliv})
	}
	slices.SortStableFunc(m.shipments, func(a, b shipment) int { return cmpInt(a.shipped, b.shipped) })
	for i := range m.shipments {
		m.shipments[i].id = int64(i + 1)
	}
}

func (m *model) genReviews(r *rand.Rand) {
	ratings := newPicker(weighted[int]{5, 55}, weighted[int]{4, 22}, weighted[int]{3, 9}, weighted[int]{2, 5}, weighted[int]{1, 9})
	reviewed := map[[2]int64]bool{}
	add := func(productID, customerID int64, rating int, at int64) {
		rv := review{productID: productID, customerID: customerID, rating: rating, at: at}
		if !chance(r, 0.1) {
			rv.title = oneOf(r, reviewTitles[rating])
		}
		if chance(r, 0.32) {
			rv.body = oneOf(r, reviewBodies[rating])
		}
		m.reviews = append(m.reviews, rv)
	}
	for _, it := range m.items {
		o := m.orders[it.orderID-1]
		if o.deliv == 0 {
			continue
		}
		key := [2]int64{o.customerID, it.productID}
		if reviewed[key] {
			continue
		}
		// Unhappy buyers who sent the item back review far more often.
		var rating int
		switch {
		case o.status == "refunded" && chance(r, 0.4):
			rating = 1 + r.IntN(2)
		case o.status == "delivered" && chance(r, 0.13):
			rating = ratings.pick(r)
		default:
			continue
		}
		at := o.deliv + int64(r.ExpFloat64()*5*day) + hour
		if at > snapshot {
			continue
		}
		reviewed[key] = true
		add(it.productID, o.customerID, rating, at)
	}
	for _, id := range deletedCustomerIDs {
		add(m.products[r.IntN(len(m.products))].id, id, ratings.pick(r), between(r, ordersFrom, snapshot))
	}
	slices.SortStableFunc(m.reviews, func(a, b review) int { return cmpInt(a.at, b.at) })
	for i := range m.reviews {
		m.reviews[i].id = int64(i + 1)
	}
}

func (m *model) genInventory(r *rand.Rand) {
	for _, p := range m.products {
		stocked := 0
		for wi, w := range warehouses {
			// Every active product is stocked somewhere; the last warehouse
			// takes it if none of the others did.
			if !chance(r, 0.7) && (stocked > 0 || !p.active || wi < len(warehouses)-1) {
				continue
			}
			stocked++
			s := stock{productID: p.id, warehouse: w, reorder: 5 * (1 + r.IntN(10)), updated: snapshot - r.Int64N(20*day)}
			if !chance(r, 0.08) {
				s.qty = int(math.Exp(3.5 + r.NormFloat64()))
			}
			m.inventory = append(m.inventory, s)
		}
	}
}
