package report

import (
	"bytes"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func docsByName(t *testing.T, r *Report) map[string]string {
	t.Helper()
	out := map[string]string{}
	docs, err := Docs(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range docs {
		if _, dup := out[f.Name]; dup {
			t.Fatalf("two files named %s", f.Name)
		}
		out[f.Name] = string(f.Body)
	}
	return out
}

// allDocs is Docs(r), failing the test on an error.
func allDocs(t *testing.T, r *Report) []DocFile {
	t.Helper()
	docs, err := Docs(r)
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// mdDocs is the Markdown pages of Docs(r), in its order.
func mdDocs(t *testing.T, r *Report) []DocFile {
	t.Helper()
	return slices.DeleteFunc(allDocs(t, r), func(f DocFile) bool { return !strings.HasSuffix(f.Name, ".md") })
}

func TestDocsIndexAndOneFilePerTable(t *testing.T) {
	docs := docsByName(t, Build(realistic(t)))
	var names []string
	for n := range docs {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := []string{"README.md", "active_shipments.md", "active_shipments.svg", "schema.svg", "shipments.md", "shipments.svg", "vehicles.md", "vehicles.svg"}; !slices.Equal(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	for name, body := range docs {
		if !strings.HasPrefix(body, docsMarker+"\n") {
			t.Errorf("%s does not start with the generated-file marker", name)
		}
		// Nothing that changes from run to run: run id, times, query counts.
		for _, bad := range []string{"run-1", "2025-03-01", "10:00", "212", "Queries", "Iterations"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s holds run-dependent text %q", name, bad)
			}
		}
		if strings.Contains(body, hostile) {
			t.Errorf("%s carries a raw <script> tag", name)
		}
	}
	index := docs["README.md"]
	for _, want := range []string{
		"| [shipments](shipments.md) | table | 200,000 | 4 | id (declared) | Shipment |",
		// The tables' comments, as tbls's index lists them (issue 22).
		"| Table | Kind | Rows | Columns | Primary key | Entity | Comment (database) | Description (team) |\n|---|---|---|---|---|---|---|---|\n",
		"| Shipment | Consignments, one row each. | Written by the dispatch service. |\n",
		"![Entity-relationship diagram](schema.svg)",
		"solid declared, dashed inferred from the data, dotted given by the user",
		"| [shipments](shipments.md) (vehicle_id) | [vehicles](vehicles.md) (vehicle_id) | declared | one-to-many | 93% | 0.0% |",
		"| star_schema | shipments, vehicles |",
	} {
		if !strings.Contains(index, want) {
			t.Errorf("index lacks %q:\n%s", want, index)
		}
	}
	ship := docs["shipments.md"]
	for _, want := range []string{
		"# shipments\n", "[All tables](README.md)",
		"| status | TEXT | no | 'new' |  |  | 0.0% | 5 | \\<script\\>alert(1)\\</script\\> | returned | — | delivered (90,367)",
		"![Relationships of this table](shipments.svg)",
		"## Indexes\n\n- idx_shipments_status (status), where status \\<\\> 'delivered'\n",
		// The statement that creates it says what the key does not (the
		// access method, operator classes), as tbls shows it.
		"```sql\nCREATE INDEX idx_shipments_status ON shipments (status) WHERE status <> 'delivered';\n```\n",
		"- Comment (database): Consignments, one row each.\n- Description (the team's, discover.yaml): Written by the dispatch service.\n",
		"| Column | Type | Nullable | Default | References | Referenced by | Null % | Distinct | Min | Max | Mean | Top values | Semantic type | Comment (database) | Description (team) |\n",
		// Each column's references and referrers, linked, as tbls's
		// Parents and Children (issue 22); a reference the schema does not
		// declare says who found it.
		"| id | INTEGER | no |  |  | [active_shipments](active_shipments.md) (id), inferred | 0.0% | 200,000 |",
		"| vehicle_id | INTEGER | no |  | [vehicles](vehicles.md) (vehicle_id) |  | — | — | — | — | — | — | foreign_key (95%) | the truck that carries it |  |\n",
		"## Constraints\n\n- Primary key pk_shipments (id)\n" +
			"- Foreign key fk_shipments_vehicle (vehicle_id) → vehicles (vehicle_id), ON DELETE RESTRICT, ON UPDATE CASCADE\n" +
			"- Check cost_positive: cost \\>= 0\n- Check: status IN ('new', 'in_transit', 'delivered')\n",
		"## Triggers\n\n- shipments_touch: AFTER UPDATE\n\n```sql\nCREATE TRIGGER shipments_touch AFTER UPDATE ON shipments BEGIN SELECT 1; END\n```\n",
		"- cost: outlier, 2 rows: negative cost (e.g. -5, -1)",
	} {
		if !strings.Contains(ship, want) {
			t.Errorf("shipments.md lacks %q:\n%s", want, ship)
		}
	}
	view := docs["active_shipments.md"]
	if want := "## Definition\n\n```sql\nSELECT id\nFROM shipments\nWHERE status <> 'delivered'\n```\n\nReads: [shipments](shipments.md)\n"; !strings.Contains(view, want) {
		t.Errorf("active_shipments.md lacks %q:\n%s", want, view)
	}
	if want := "| vehicle_id | INTEGER | no | identity, by default |"; !strings.Contains(docs["vehicles.md"], want) {
		t.Errorf("vehicles.md lacks %q:\n%s", want, docs["vehicles.md"])
	}
	if want := "| plate_key | TEXT | no | stored: upper(plate) |"; !strings.Contains(docs["vehicles.md"], want) {
		t.Errorf("vehicles.md lacks %q:\n%s", want, docs["vehicles.md"])
	}
}

// Docs must not depend on the order entries come back from the catalog:
// re-runs on unchanged data have to rewrite the same bytes.
func TestDocsAreDeterministic(t *testing.T) {
	in := realistic(t)
	want, err := Docs(Build(in))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5 {
		rng.Shuffle(len(in.Entries), func(i, j int) { in.Entries[i], in.Entries[j] = in.Entries[j], in.Entries[i] })
		got, err := Docs(Build(in))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d files, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i].Name != want[i].Name || !bytes.Equal(got[i].Body, want[i].Body) {
				t.Fatalf("%s changed with entry order", got[i].Name)
			}
		}
	}
}

func TestDocNamesAreSafeAndUnique(t *testing.T) {
	var tables []Table
	for _, n := range []string{"README", "Orders", "a/b", "a_b", "orders", "../etc", "sales.orders", "ünï", "Schema"} {
		tables = append(tables, Table{Name: n})
	}
	names := docNames(tables)
	seen := map[string]bool{}
	for table, f := range names {
		low := strings.ToLower(f)
		if seen[low] || low == "readme.md" || low == "schema.md" {
			t.Errorf("%s -> %s collides", table, f)
		}
		seen[low] = true
		if strings.ContainsAny(f, `/\`) || strings.HasPrefix(f, ".") || filepath.Base(f) != f {
			t.Errorf("%s -> unsafe file name %q", table, f)
		}
	}
	// A name kept whole keeps its file; one that lost characters, or
	// differs from another only in case, or would be the index, is told
	// apart by a hash of the whole name (no longer by -2 in table order,
	// which renamed a table's page when another was added before it).
	want := map[string]string{
		"README": "README-2b7814d3.md", "Orders": "Orders-b7e8acdd.md", "a/b": "a_b-c14cddc0.md", "a_b": "a_b.md",
		"orders": "orders-1c168adb.md", "../etc": "_etc-f7f9121f.md", "sales.orders": "sales.orders.md", "ünï": "_n_-e975a529.md",
		"Schema": "Schema-07b091a3.md",
	}
	if !maps.Equal(names, want) {
		t.Errorf("names %v\nwant  %v", names, want)
	}
}

func TestWriteDocsRemovesOnlyItsStaleFiles(t *testing.T) {
	dir := t.TempDir()
	r := Build(realistic(t))
	if _, err := WriteDocs(dir, r); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(mine, []byte("# my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The view is dropped: its page must go, the person's notes stay.
	r.Tables = slices.DeleteFunc(r.Tables, func(t Table) bool { return t.Name == "active_shipments" })
	written, err := WriteDocs(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 6 {
		t.Errorf("wrote %v", written)
	}
	for _, stale := range []string{"active_shipments.md", "active_shipments.svg"} {
		if _, err := os.Stat(filepath.Join(dir, stale)); !os.IsNotExist(err) {
			t.Errorf("stale %s kept: %v", stale, err)
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a file discover did not write was removed: %v", err)
	}
	st, err := os.Stat(filepath.Join(dir, "shipments.md"))
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("shipments.md: %v %v", st, err)
	}
}

func TestMermaidNamesAndLabels(t *testing.T) {
	if got := mermaidWord("2nd table.x"); got != "_2nd_table_x" {
		t.Errorf("mermaidWord = %q", got)
	}
	if got := mermaidLabel("a \"quoted\"\nname <b>"); strings.ContainsAny(got, "\"\n<>") {
		t.Errorf("mermaidLabel = %q", got)
	}
	r := &Report{Tables: []Table{{Name: "my table", Columns: []Column{{Name: "the id"}}}, {Name: "my-table"}},
		Relationships: []Relationship{{FromTable: "my-table", FromColumns: []string{"x"}, ToTable: "my table", ToColumns: []string{"the id"}, Source: "declared", Confidence: 1}}}
	var m markdown
	m.mermaid(r, []string{"my table", "my-table"}, "my table")
	got := m.b.String()
	for _, want := range []string{`"my_table"["my table"] {`, `ANY the_id "the id"`, `"my_table" ||--o{ "my-table" : "x declared 100%"`} {
		if !strings.Contains(got, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, got)
		}
	}
}
