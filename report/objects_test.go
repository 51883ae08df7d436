package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
)

// withObjects is realistic's run on a database that declares an enumerated
// type (held by shipments.status), a hostile one and routines (issue 22:
// tbls's Enums and "Stored procedures and functions"), comments on its
// trigger, and its view materialized.
func withObjects(t *testing.T) Input {
	t.Helper()
	in := realistic(t)
	for i, e := range in.Entries {
		if e.Kind == catalog.KindTable && e.Key == "active_shipments" {
			var doc map[string]any
			if err := json.Unmarshal(e.Document, &doc); err != nil {
				t.Fatal(err)
			}
			doc["materialized"] = true
			in.Entries[i] = entry(t, e.Kind, e.Key, doc, e.Confidence, e.Expert, e.Evidence...)
		}
		if e.Kind != catalog.KindTable || e.Key != "shipments" {
			continue
		}
		var doc map[string]any
		if err := json.Unmarshal(e.Document, &doc); err != nil {
			t.Fatal(err)
		}
		for _, c := range doc["columns"].([]any) {
			if c := c.(map[string]any); c["name"] == "status" {
				c["enum"] = "shipment_status"
			}
			if c := c.(map[string]any); c["name"] == "cost" {
				c["on_update"] = "current_timestamp()" // implausible, but a MySQL ON UPDATE all the same
			}
		}
		for _, tr := range doc["triggers"].([]any) {
			tr.(map[string]any)["comment"] = "keeps <last_update>"
		}
		in.Entries[i] = entry(t, e.Kind, e.Key, doc, e.Confidence, e.Expert, e.Evidence...)
	}
	in.Entries = append(in.Entries, entry(t, catalog.KindObjects, "objects", catalog.ObjectsDoc{
		Enums: []catalog.EnumDoc{
			{Name: "shipment_status", Labels: []string{"new", "in_transit", "delivered"}, Comment: "where a shipment is"},
			{Name: "odd", Labels: []string{"a, b", "it's", "<b>x</b>"}},
		},
		Routines: []catalog.RoutineDoc{
			{Name: "reprice", Kind: "procedure", Arguments: "IN factor numeric", Language: "sql"},
			{Name: "shipment_cost", Kind: "function", Arguments: "id bigint, discount numeric DEFAULT 0", Returns: "numeric",
				Language: "plpgsql", Comment: "what a shipment costs"},
		},
	}, 1, "structural"))
	return in
}

func TestEnumsAndRoutines(t *testing.T) {
	r := Build(withObjects(t))
	doc := jsonOf(t, r)
	if err := Validate(doc); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	var got struct {
		Enums    []map[string]any `json:"enums"`
		Routines []map[string]any `json:"routines"`
	}
	if err := json.Unmarshal(doc, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Enums) != 2 || len(got.Routines) != 2 {
		t.Fatalf("report.json enums %v, routines %v", got.Enums, got.Routines)
	}
	if cols := got.Enums[0]["columns"].([]any); len(cols) != 1 || cols[0] != "shipments.status" {
		t.Errorf("shipment_status held by %v, want [shipments.status]", cols)
	}
	if cols := got.Enums[1]["columns"].([]any); len(cols) != 0 {
		t.Errorf("odd held by %v, want []", cols)
	}
	if _, ok := got.Routines[0]["returns"]; ok {
		t.Errorf("a procedure has a result: %v", got.Routines[0])
	}
	if !strings.Contains(string(doc), `"enum": "shipment_status"`) {
		t.Error("report.json does not say which type shipments.status holds")
	}

	docs := docsByName(t, r)
	index := docs["README.md"]
	for _, want := range []string{
		"## Enumerated types\n\n| Type | Labels | Columns | Comment |\n|---|---|---|---|\n" +
			"| shipment_status | 'new', 'in_transit', 'delivered' | [shipments](shipments.md) (status) | where a shipment is |\n" +
			// Labels as SQL literals: a comma or a quote inside one stays in it.
			"| odd | 'a, b', 'it''s', '\\<b\\>x\\</b\\>' |  |  |\n",
		"## Routines\n\n| Routine | Kind | Arguments | Returns | Language | Comment |\n|---|---|---|---|---|---|\n" +
			"| reprice | procedure | IN factor numeric |  | sql |  |\n" +
			"| shipment_cost | function | id bigint, discount numeric DEFAULT 0 | numeric | plpgsql | what a shipment costs |\n",
	} {
		if !strings.Contains(index, want) {
			t.Errorf("README.md lacks %q:\n%s", want, index)
		}
	}
	// A materialized view says so, as tbls's MATERIALIZED VIEW.
	if want := "| [active_shipments](active_shipments.md) | materialized view |"; !strings.Contains(index, want) {
		t.Errorf("README.md lacks %q:\n%s", want, index)
	}
	if want := "- Kind: materialized view\n"; !strings.Contains(docs["active_shipments.md"], want) {
		t.Errorf("active_shipments.md lacks %q:\n%s", want, docs["active_shipments.md"])
	}
	for _, want := range []string{"| status | [TEXT](README.md#enumerated-types) | no |",
		// MySQL's ON UPDATE beside the default, as tbls's Extra Definition.
		"| cost | REAL | yes | on update current_timestamp() |",
		// A trigger's comment (COMMENT ON TRIGGER), as tbls shows it.
		"- shipments_touch: AFTER UPDATE (comment: keeps \\<last_update\\>)\n"} {
		if !strings.Contains(docs["shipments.md"], want) {
			t.Errorf("shipments.md lacks %q:\n%s", want, docs["shipments.md"])
		}
	}

	html := string(htmlOf(t, r))
	for _, want := range []string{
		`<li><a href="#enums">Enumerated types</a></li>`, `<li><a href="#routines">Routines</a></li>`,
		`<h3 id="enums">Enumerated types</h3>`,
		`<tr><td><code>shipment_status</code></td><td>&#39;new&#39;, &#39;in_transit&#39;, &#39;delivered&#39;</td><td>shipments.status</td><td class="comment">where a shipment is</td></tr>`,
		`<td>&#39;a, b&#39;, &#39;it&#39;&#39;s&#39;, &#39;&lt;b&gt;x&lt;/b&gt;&#39;</td>`,
		`<h3 id="routines">Routines</h3>`,
		`<tr><td><code>shipment_cost</code></td><td>function</td><td><code>id bigint, discount numeric DEFAULT 0</code></td><td><code>numeric</code></td><td>plpgsql</td><td class="comment">what a shipment costs</td></tr>`,
		`<td><a href="#enums" title="enumerated type shipment_status">TEXT</a></td>`,
		`shipments_touch: AFTER UPDATE (comment: keeps &lt;last_update&gt;)`,
		`<span class="muted">materialized view · `,
		`<td><code>on update current_timestamp()</code></td>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %s", want)
		}
	}
	// Without objects, no empty sections: the engines that list none
	// (SQLite) keep their pages as they were.
	plain := Build(realistic(t))
	if s := docsByName(t, plain)["README.md"]; strings.Contains(s, "Enumerated types") || strings.Contains(s, "Routines") {
		t.Errorf("README.md without objects has their sections:\n%s", s)
	}
	if s := string(htmlOf(t, plain)); strings.Contains(s, "Enumerated types") || strings.Contains(s, `id="routines"`) {
		t.Error("report.html without objects has their sections")
	}
}

// A key referenced by more tables than a cell lists shows the first
// columnLinksLimit and how many more, on the page and in the HTML; the
// page's table of relationships lists them all.
func TestColumnLinksAreCut(t *testing.T) {
	tables := map[string][]string{"hub": {"id"}}
	var refs []string
	for i := range columnLinksLimit + 3 {
		name := fmt.Sprintf("spoke_%02d", i)
		tables[name] = []string{"id", "hub_id"}
		refs = append(refs, name+".hub_id>hub.id declared")
	}
	r := schemaOf("hub", tables, refs)
	page := docsByName(t, r)["hub.md"]
	row := ""
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "| id |") {
			row = line
		}
	}
	if n := strings.Count(row, "](spoke_"); n != columnLinksLimit || !strings.Contains(row, "; 3 more (Relationships) |") {
		t.Errorf("hub.id's row links %d spokes, want %d and 3 more:\n%s", n, columnLinksLimit, row)
	}
	if n := strings.Count(page, "\n| [spoke_"); n != columnLinksLimit+3 {
		t.Errorf("the relationships table lists %d references, want %d", n, columnLinksLimit+3)
	}
	if html := string(htmlOf(t, r)); !strings.Contains(html, "; 3 more (Relationships)</td>") {
		t.Error("report.html does not cut hub.id's referrers")
	}
}

// withComments is realistic's run on a database that comments an index
// and constraints (PostgreSQL's COMMENT ON INDEX and ON CONSTRAINT, MySQL's
// index COMMENT): on the primary key, the foreign key, a check, and a
// unique constraint, which has no name of its own on the page.
func withComments(t *testing.T) Input {
	t.Helper()
	in := realistic(t)
	for i, e := range in.Entries {
		if e.Kind != catalog.KindTable || e.Key != "shipments" {
			continue
		}
		var doc map[string]any
		if err := json.Unmarshal(e.Document, &doc); err != nil {
			t.Fatal(err)
		}
		doc["indexes"].([]any)[0].(map[string]any)["comment"] = "open <shipments> only"
		doc["constraint_comments"] = map[string]any{
			"pk_shipments": "one row per consignment", "fk_shipments_vehicle": "the truck",
			"cost_positive": "no refunds here", "shipments_tracking_key": "one shipment per tracking number",
		}
		in.Entries[i] = entry(t, e.Kind, e.Key, doc, e.Confidence, e.Expert, e.Evidence...)
	}
	return in
}

// The database's comments on indexes and constraints are in report.json,
// after what they are on in the table's page and the HTML, and a changed
// one is schema drift.
func TestIndexAndConstraintComments(t *testing.T) {
	r := Build(withComments(t))
	doc := jsonOf(t, r)
	if err := Validate(doc); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	for _, want := range []string{`"comment": "open <shipments> only"`,
		`"constraint_comments": {
        "cost_positive": "no refunds here",
        "fk_shipments_vehicle": "the truck",
        "pk_shipments": "one row per consignment",
        "shipments_tracking_key": "one shipment per tracking number"
      }`} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("report.json lacks %s", want)
		}
	}
	ship := docsByName(t, r)["shipments.md"]
	for _, want := range []string{
		"## Constraints\n\n- Primary key pk_shipments (id) (comment: one row per consignment)\n" +
			"- Foreign key fk_shipments_vehicle (vehicle_id) → vehicles (vehicle_id), ON DELETE RESTRICT, ON UPDATE CASCADE (comment: the truck)\n" +
			"- Check cost_positive: cost \\>= 0 (comment: no refunds here)\n- Check: status IN ('new', 'in_transit', 'delivered')\n" +
			"- Constraint shipments_tracking_key (comment: one shipment per tracking number)\n",
		"## Indexes\n\n- idx_shipments_status (status), where status \\<\\> 'delivered' (comment: open \\<shipments\\> only)\n",
	} {
		if !strings.Contains(ship, want) {
			t.Errorf("shipments.md lacks %q:\n%s", want, ship)
		}
	}
	html := string(htmlOf(t, r))
	for _, want := range []string{
		"<li>Primary key pk_shipments (id) (comment: one row per consignment)</li>",
		"<li>Constraint shipments_tracking_key (comment: one shipment per tracking number)</li>",
		"where <code>status &lt;&gt; &#39;delivered&#39;</code> (comment: open &lt;shipments&gt; only)</li>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %s", want)
		}
	}

	cur := Build(withComments(t))
	c := table(cur, "shipments")
	c.Indexes[0].Comment = ""
	c.ConstraintComments = map[string]string{"pk_shipments": "one row per shipment", "cost_positive": "no refunds here",
		"fk_shipments_vehicle": "the truck"}
	var got []string
	for _, ch := range Diff(r, cur, DefaultDiffOptions()).Changes {
		got = append(got, ch.Category+" "+ch.Kind+" "+ch.Message)
	}
	want := []string{
		`schema changed shipments constraint pk_shipments comment changed from "one row per consignment" to "one row per shipment"`,
		`schema changed shipments constraint shipments_tracking_key comment changed from "one shipment per tracking number" to none`,
		`schema changed shipments index idx_shipments_status changed from "(status), where status <> 'delivered' (comment: open <shipments> only)" to "(status), where status <> 'delivered'"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes:\n%s\nwant:\n%s", join(got), join(want))
	}
}

// A table's CREATE statement (SQLite's, MySQL's SHOW CREATE TABLE,
// DuckDB's) is in report.json and folded on its page and in the HTML, its
// text as the engine keeps it (a fence inside it does not end the block);
// diff does not compare it, since what changes in it is reported apart.
func TestCreateStatement(t *testing.T) {
	const create = "CREATE TABLE shipments (\n  id INTEGER PRIMARY KEY, -- ```\n  cost REAL CHECK (cost >= 0)\n)"
	in := realistic(t)
	for i, e := range in.Entries {
		if e.Kind != catalog.KindTable || e.Key != "shipments" {
			continue
		}
		var doc map[string]any
		if err := json.Unmarshal(e.Document, &doc); err != nil {
			t.Fatal(err)
		}
		doc["create_statement"] = create
		in.Entries[i] = entry(t, e.Kind, e.Key, doc, e.Confidence, e.Expert, e.Evidence...)
	}
	r := Build(in)
	doc := jsonOf(t, r)
	if err := Validate(doc); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	if want, _ := json.Marshal(create); !strings.Contains(string(doc), `"create_statement": `+strings.ReplaceAll(string(want), `\u003e`, ">")) {
		t.Errorf("report.json lacks the create statement:\n%s", doc)
	}
	docs := docsByName(t, r)
	if want := "## Definition\n\n````sql\n" + create + "\n````\n"; !strings.Contains(docs["shipments.md"], want) {
		t.Errorf("shipments.md lacks %q:\n%s", want, docs["shipments.md"])
	}
	if strings.Contains(docs["active_shipments.md"], "CREATE TABLE") {
		t.Error("a view's page has a CREATE statement")
	}
	if want := "<details class=\"list\"><summary>CREATE statement</summary><pre><code>CREATE TABLE shipments (\n  id INTEGER PRIMARY KEY, -- ```\n  cost REAL CHECK (cost &gt;= 0)\n)</code></pre></details>"; !strings.Contains(string(htmlOf(t, r)), want) {
		t.Errorf("report.html lacks %s", want)
	}
	cur := Build(in)
	table(cur, "shipments").CreateStatement = "CREATE TABLE shipments (id INTEGER PRIMARY KEY)"
	if res := Diff(r, cur, DefaultDiffOptions()); len(res.Changes) != 0 {
		t.Errorf("a changed CREATE statement alone is a change: %v", summary(res))
	}
}
