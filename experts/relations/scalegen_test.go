package relations_test

// The scale database of issue 5: a generated SQLite schema of n tables with
// about ten columns each, 1.2 true references per table (600 at 500 tables)
// and no declared foreign key. The truth is kept beside it.
//
// It looks like a warehouse grown by modules: the same nouns recur under
// module prefixes (customer, sales_customer, crm_customers), so one column
// name points at several tables and only the values tell them apart. Keys
// come dense from 1, dense from an offset, sparse, or as text codes; some
// tables declare no primary key. References are named in every way the
// name rules know (customer_id, CustomerId, sales_customer_id,
// billing_customer_id, customer_no, fk_customer, bare customer) and a few
// in no way at all (owner_ref): those cannot be found from names and count
// against recall. Decoys are integers that fit inside the keys' ranges
// (quantities, counts, ratings, years), and columns named like references
// whose values are not (legacy_customer_id, customer_no from another
// system).
//
// Everything is drawn from one seeded generator: the same n gives the same
// file, byte for byte in content.

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/discover-db/discover/naming"
)

// scaleVersion changes whenever the generator does, so that cached files of
// an older generator are not reused.
const scaleVersion = 3

var scaleNouns = []string{
	"customer", "product", "order", "invoice", "supplier", "warehouse", "shipment", "vehicle", "driver", "employee",
	"department", "project", "task", "ticket", "account", "payment", "contract", "vendor", "store", "region",
	"country", "city", "branch", "campaign", "lead", "opportunity", "contact", "partner", "asset", "device",
	"sensor", "patient", "doctor", "clinic", "appointment", "prescription", "course", "student", "teacher", "classroom",
	"enrollment", "book", "author", "publisher", "library", "member", "loan", "room", "hotel", "booking",
	"guest", "flight", "airport", "airline", "passenger", "seat", "route", "carrier", "container", "vessel",
	"port", "berth", "crane", "pallet", "bin", "rack", "aisle", "zone", "site", "building",
	"floor", "desk", "meeting", "event", "venue", "performer", "album", "track", "artist", "playlist",
	"genre", "film", "actor", "studio", "episode", "channel", "subscriber", "plan", "subscription", "bill",
	"meter", "tariff", "claim", "policy", "agent", "broker", "portfolio", "fund", "trade", "instrument",
	"exchange", "currency", "budget", "ledger", "journal", "entry", "voucher", "batch", "lot", "recipe",
	"ingredient", "menu", "dish", "kitchen", "chef", "waiter", "shift", "roster", "skill", "certificate",
	"vaccine", "sample", "experiment", "lab", "gauge", "reagent", "specimen", "study", "survey", "question",
	"answer", "respondent", "panel", "quota", "forecast", "scenario", "model", "feature", "release", "repository",
}

var scaleModules = []string{"", "sales", "crm", "hr", "ops", "fin", "mkt", "erp", "web", "svc", "prj", "lab"}

// roles qualify a reference: billing_customer_id. None is a self role.
var scaleRoles = []string{"origin", "destination", "billing", "shipping", "primary", "backup", "assigned", "approved_by",
	"created_by", "source", "target", "home", "current", "preferred", "default", "last"}

// unnamed references: nothing in the name points at the target.
var scaleUnnamed = []string{"owner_ref", "link_id", "related_to", "assigned_to", "holder", "src_ref", "linked", "xref"}

type scaleKey struct {
	name     string
	text     bool
	declared bool
	ints     []int64  // integer keys, one per row
	codes    []string // text keys, one per row
}

type scaleCol struct {
	name, typ string
	value     func(r *rand.Rand, row int) any
}

type scaleTable struct {
	name, module, noun string
	rows               int
	key                scaleKey
	cols               []scaleCol
	used               map[string]bool // column names, lower-case
}

// scaleDB is a generated schema and its truth: relationship keys as
// catalog.RelationshipDoc.Key writes them.
type scaleDB struct {
	tables  []*scaleTable
	truth   []string
	unnamed int // true references named in no way the name rules know
	columns int
}

func (t *scaleTable) addCol(name, typ string, value func(r *rand.Rand, row int) any) string {
	base, i := name, 2
	for t.used[strings.ToLower(name)] {
		name = fmt.Sprintf("%s_%d", base, i)
		i++
	}
	t.used[strings.ToLower(name)] = true
	t.cols = append(t.cols, scaleCol{name, typ, value})
	return name
}

func plural(w string) string {
	switch {
	case strings.HasSuffix(w, "y") && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		return w + "es"
	}
	return w + "s"
}

func camel(words ...string) string {
	var b strings.Builder
	for _, w := range words {
		for _, part := range strings.Split(w, "_") {
			if part == "" {
				continue
			}
			rs := []rune(part)
			rs[0] = unicode.ToUpper(rs[0])
			b.WriteString(string(rs))
		}
	}
	return b.String()
}

func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "_")
}

// genScale draws the schema of n tables. Nothing is written yet.
func genScale(n int) *scaleDB {
	r := rand.New(rand.NewPCG(2026, 5))
	db := &scaleDB{}
	perms := make([][]string, len(scaleModules))
	for i := range perms {
		perms[i] = append([]string(nil), scaleNouns...)
		r.Shuffle(len(perms[i]), func(a, b int) { perms[i][a], perms[i][b] = perms[i][b], perms[i][a] })
	}
	for i := 0; i < n; i++ {
		m := i / len(scaleNouns) % len(scaleModules)
		noun := perms[m][i%len(scaleNouns)]
		word := noun
		if r.IntN(2) == 0 {
			word = plural(noun)
		}
		t := &scaleTable{module: scaleModules[m], noun: noun, name: join(scaleModules[m], word), used: map[string]bool{}}
		if i >= len(scaleNouns)*len(scaleModules) {
			t.name = fmt.Sprintf("%s_%d", t.name, i/(len(scaleNouns)*len(scaleModules)))
		}
		if r.IntN(10) == 0 {
			t.rows = 20 + r.IntN(130) // a lookup table
		} else {
			t.rows = int(math.Round(200 * math.Pow(25, r.Float64()))) // 200..5000, log-uniform
		}
		// the key: its name, whether it is declared, its values
		k := &t.key
		k.declared = r.IntN(100) < 85
		// A module's table keyed by the bare noun's key name
		// (sales_carriers.carrier_id beside carriers) would be a 1:1
		// extension of it as far as anyone can tell: module tables are
		// keyed by their own names.
		switch p := r.IntN(100); {
		case p < 45:
			k.name = "id"
		case p < 65 || (p < 80 && t.module != ""):
			k.name = join(t.module, noun, "id") // owned: sales_customer_id
		case p < 80:
			k.name = noun + "_id"
		case p < 90:
			k.name = camel(t.module, noun) + "Id"
		default:
			k.name, k.text = noun+"_code", true
		}
		if k.text {
			pfx := string([]byte{byte('A' + r.IntN(26)), byte('A' + r.IntN(26)), byte('A' + r.IntN(26))})
			start := 1 + r.IntN(1000)
			for j := 0; j < t.rows; j++ {
				k.codes = append(k.codes, fmt.Sprintf("%s-%05d", pfx, start+j))
			}
		} else {
			switch p := r.IntN(100); {
			case p < 55: // dense from 1
				for j := 0; j < t.rows; j++ {
					k.ints = append(k.ints, int64(j+1))
				}
			case p < 75: // dense from an offset
				base := []int64{1000, 10000, 100000, 500000}[r.IntN(4)]
				for j := 0; j < t.rows; j++ {
					k.ints = append(k.ints, base+int64(j+1))
				}
			default: // sparse
				seen := map[int64]bool{}
				for len(k.ints) < t.rows {
					v := 1 + r.Int64N(2_000_000)
					if !seen[v] {
						seen[v] = true
						k.ints = append(k.ints, v)
					}
				}
			}
		}
		t.used[strings.ToLower(k.name)] = true
		db.tables = append(db.tables, t)
	}
	// references: 1.2 per table, most within a module, a third to the
	// first fifth of a module's tables (the hubs everyone points at)
	byModule := map[string][]int{}
	for i, t := range db.tables {
		byModule[t.module] = append(byModule[t.module], i)
	}
	refs := int(math.Round(1.2 * float64(n)))
	for len(db.truth) < refs {
		ci := r.IntN(n)
		c := db.tables[ci]
		var pi int
		switch p := r.IntN(100); {
		case p < 3:
			pi = ci
		case p < 73:
			same := byModule[c.module]
			if r.IntN(3) == 0 {
				same = same[:max(1, len(same)/5)]
			}
			pi = same[r.IntN(len(same))]
		default:
			pi = r.IntN(n)
		}
		p := db.tables[pi]
		if pi == ci && p.key.text {
			continue
		}
		name := refName(r, c, p, pi == ci)
		if name == "" {
			continue
		}
		if unnamedRef(name) {
			db.unnamed++
		}
		// values: drawn from the parent's key, skewed, with NULLs, and a few
		// dirty references with orphans
		nullP := []float64{0, 0, 0, 0.05, 0.2}[r.IntN(5)]
		skew := []float64{1, 1.5, 2}[r.IntN(3)]
		dirty := r.IntN(20) == 0
		pk := p.key
		typ := "INTEGER"
		if pk.text {
			typ = "TEXT"
		}
		col := c.addCol(name, typ, func(r *rand.Rand, row int) any {
			if r.Float64() < nullP {
				return nil
			}
			if pi == ci && row == 0 {
				return nil // a tree has a root
			}
			size := len(pk.ints) + len(pk.codes)
			if pi == ci {
				size = row // a row points at an earlier one
			}
			j := int(float64(size) * math.Pow(r.Float64(), skew))
			if dirty && r.IntN(100) == 0 {
				if pk.text {
					return fmt.Sprintf("ZZZ-%05d", r.IntN(1000))
				}
				return int64(9_000_000 + r.IntN(1000))
			}
			if pk.text {
				return pk.codes[j]
			}
			return pk.ints[j]
		})
		db.truth = append(db.truth, fmt.Sprintf("%s(%s)->%s(%s)", c.name, col, p.name, pk.name))
	}
	// decoys up to ten columns a table
	for _, t := range db.tables {
		decoys(r, t, db.tables)
		db.columns += 1 + len(t.cols)
	}
	return db
}

func unnamedRef(name string) bool {
	for _, u := range scaleUnnamed {
		if strings.HasPrefix(name, u) {
			return true
		}
	}
	return false
}

// refName names a reference from c to p the way schemas do.
func refName(r *rand.Rand, c, p *scaleTable, self bool) string {
	if self {
		// A manager is a person: a table of rooms or invoices has no row
		// managing another; its links are structural (a predecessor).
		manager := "manager_id"
		if !naming.Acts(p.noun) && !naming.Person(p.noun) {
			manager = "predecessor_id"
		}
		return []string{"parent_id", manager, "parent_" + p.noun + "_id", "previous_id", "master_id"}[r.IntN(5)]
	}
	n, m := p.noun, p.module
	if p.key.text {
		if r.IntN(10) < 7 {
			return n + "_code"
		}
		return join(scaleRoles[r.IntN(len(scaleRoles))], n, "code")
	}
	switch q := r.IntN(100); {
	case q < 40:
		return n + "_id"
	case q < 55:
		return join(m, n, "id")
	case q < 65:
		if r.IntN(2) == 0 {
			return camel(n) + "Id"
		}
		return camel(m, n) + "ID"
	case q < 80:
		return join(scaleRoles[r.IntN(len(scaleRoles))], n, "id")
	case q < 88:
		return []string{n + "_key", n + "_no", n + "_ref", "fk_" + n, "id_" + n}[r.IntN(5)]
	case q < 95:
		return n
	default:
		return scaleUnnamed[r.IntN(len(scaleUnnamed))]
	}
}

// decoys fills a table up to ten columns with measures, text and integer
// columns that are no references.
func decoys(r *rand.Rand, t *scaleTable, all []*scaleTable) {
	ints := func(lo, hi int) func(r *rand.Rand, row int) any {
		return func(r *rand.Rand, row int) any { return int64(lo + r.IntN(hi-lo+1)) }
	}
	other := func() string { return all[r.IntN(len(all))].noun }
	kinds := []func(){
		func() { t.addCol("quantity", "INTEGER", ints(1, 50)) },
		func() { t.addCol("rating", "INTEGER", ints(1, 5)) },
		func() { t.addCol("visit_count", "INTEGER", ints(0, 30)) },
		func() { t.addCol("score", "INTEGER", ints(0, 100)) },
		func() { t.addCol("year", "INTEGER", ints(1990, 2025)) },
		func() { t.addCol("priority", "INTEGER", ints(1, 3)) },
		func() { t.addCol(other()+"_count", "INTEGER", ints(0, 40)) },
		func() { t.addCol(other()+"_rating", "INTEGER", ints(1, 10)) },
		func() {
			t.addCol("amount", "REAL", func(r *rand.Rand, row int) any { return math.Round(r.Float64()*100000) / 100 })
		},
		func() {
			t.addCol("price", "REAL", func(r *rand.Rand, row int) any { return math.Round(r.Float64()*50000) / 100 })
		},
		func() {
			t.addCol("name", "TEXT", func(r *rand.Rand, row int) any { return fmt.Sprintf("%s %d", t.noun, r.IntN(100000)) })
		},
		func() {
			t.addCol("status", "TEXT", func(r *rand.Rand, row int) any {
				return []string{"new", "active", "closed", "on_hold"}[r.IntN(4)]
			})
		},
		func() {
			t.addCol("created_at", "TEXT", func(r *rand.Rand, row int) any {
				return fmt.Sprintf("20%02d-%02d-%02d", 15+r.IntN(10), 1+r.IntN(12), 1+r.IntN(28))
			})
		},
		func() {
			t.addCol("note", "TEXT", func(r *rand.Rand, row int) any {
				if r.IntN(3) > 0 {
					return nil
				}
				return fmt.Sprintf("note %d", r.IntN(500))
			})
		},
		// named like references, valued like something else
		func() {
			t.addCol("legacy_"+other()+"_id", "INTEGER", func(r *rand.Rand, row int) any { return 1 + r.Int64N(9_999_999) })
		},
		func() {
			t.addCol(other()+"_no", "INTEGER", func(r *rand.Rand, row int) any { return 1 + r.Int64N(99_999) })
		},
		func() {
			t.addCol("external_"+other()+"_code", "TEXT", func(r *rand.Rand, row int) any {
				return fmt.Sprintf("X%07d", r.IntN(10_000_000))
			})
		},
	}
	want := max(2, 9-len(t.cols))
	for _, i := range r.Perm(len(kinds))[:want] {
		kinds[i]()
	}
}

// write creates the database at path.
func (s *scaleDB) write(path string) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for ti, t := range s.tables {
		k := t.key
		defs := []string{}
		kt := "INTEGER"
		if k.text {
			kt = "TEXT"
		}
		if k.declared {
			defs = append(defs, fmt.Sprintf("%q %s PRIMARY KEY", k.name, kt))
		} else {
			defs = append(defs, fmt.Sprintf("%q %s NOT NULL", k.name, kt))
		}
		for _, c := range t.cols {
			defs = append(defs, fmt.Sprintf("%q %s", c.name, c.typ))
		}
		if _, err := tx.Exec(fmt.Sprintf("CREATE TABLE %q (%s)", t.name, strings.Join(defs, ", "))); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
		r := rand.New(rand.NewPCG(2026, uint64(ti)))
		const batch = 50
		width := 1 + len(t.cols)
		row1 := "(" + strings.TrimSuffix(strings.Repeat("?,", width), ",") + ")"
		var args []any
		flush := func(rows int) error {
			if rows == 0 {
				return nil
			}
			q := fmt.Sprintf("INSERT INTO %q VALUES %s", t.name, strings.TrimSuffix(strings.Repeat(row1+",", rows), ","))
			_, err := tx.Exec(q, args...)
			args = args[:0]
			return err
		}
		pending := 0
		for row := 0; row < t.rows; row++ {
			if k.text {
				args = append(args, k.codes[row])
			} else {
				args = append(args, k.ints[row])
			}
			for _, c := range t.cols {
				args = append(args, c.value(r, row))
			}
			if pending++; pending == batch {
				if err := flush(pending); err != nil {
					return fmt.Errorf("%s: %w", t.name, err)
				}
				pending = 0
			}
		}
		if err := flush(pending); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
	}
	return tx.Commit()
}

// scaleFile returns the path of the n-table database, built once and kept
// in the temporary directory across runs (building costs more than a
// discovery of the small sizes), and its schema with the truth.
func scaleFile(n int) (string, *scaleDB, error) {
	s := genScale(n)
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("discover-scale-v%d", scaleVersion))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, fmt.Sprintf("scale-%d.db", n))
	if _, err := os.Stat(path); err == nil {
		return path, s, nil
	}
	tmp := path + ".building"
	os.Remove(tmp)
	if err := s.write(tmp); err != nil {
		os.Remove(tmp)
		return "", nil, fmt.Errorf("scale database: %w", err)
	}
	return path, s, os.Rename(tmp, path)
}
