package model

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/warehouse"
)

func shopTables() []warehouse.Table {
	cols := func(names ...string) []warehouse.Column {
		var out []warehouse.Column
		for i, n := range names {
			out = append(out, warehouse.Column{Name: n, Position: i + 1, Type: "TEXT"})
		}
		return out
	}
	return []warehouse.Table{
		{Name: warehouse.TableName{Name: "customers"}, Kind: "table", Columns: cols("customer_id", "name")},
		{Name: warehouse.TableName{Name: "misc"}, Kind: "table", Columns: cols("id")},
		{Name: warehouse.TableName{Name: "orders"}, Kind: "table", Columns: cols("order_id", "customer_id", "status", "ordered_at", "shipped_at")},
	}
}

// shopRig is a model expert over the shop inventory, in phase 3, with a
// catalog holding findings of several experts.
func shopRig(t *testing.T, answer func(tool string, req llm.Request) (any, error)) (*Expert, *experts.Env, *toolModel) {
	t.Helper()
	cat, run := setup(t)
	fm := &toolModel{answer: answer}
	client := llm.NewClient(fm, llm.Config{Provider: "fake", Model: "p1"}, llm.Budget{})
	src := &fakeSource{tables: shopTables()}
	var q atomic.Int64
	env := experts.NewEnv(src, cat, run.ID, 4, 3, shopTables(), experts.Options{}, &q).For(Name)
	return &Expert{client: client, paths: 1}, env, fm
}

func saveFinding(t *testing.T, env *experts.Env, expert, kind, key string, doc any, conf float64) {
	t.Helper()
	en, err := catalog.NewEntry(kind, key, doc)
	if err != nil {
		t.Fatal(err)
	}
	en.Confidence, en.Evidence = conf, []string{"test"}
	if err := env.For(expert).Save(context.Background(), en); err != nil {
		t.Fatal(err)
	}
}

func insightsOf(t *testing.T, env *experts.Env, kind string) []catalog.Entry {
	t.Helper()
	es, err := env.RunEntries(context.Background(), catalog.KindInsight)
	if err != nil {
		t.Fatal(err)
	}
	var out []catalog.Entry
	for _, e := range es {
		var d catalog.InsightDoc
		if e.Decode(&d) == nil && d.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// The semantic step waits for phase 3, sends the deterministic domain and
// the relationships, keeps the model's domain beside the experts' one, and
// grounds the rules: a rule naming a table or column the catalog does not
// hold is dropped, and the drop is reported.
func TestModelSemantics(t *testing.T) {
	ctx := context.Background()
	m, env, fm := shopRig(t, func(tool string, req llm.Request) (any, error) {
		if tool != llm.SemanticsTool.Name {
			return nil, fmt.Errorf("unexpected tool %s", tool)
		}
		rule := func(text string, tables, columns []string) map[string]any {
			return map[string]any{"rule": text, "tables": tables, "columns": columns}
		}
		return map[string]any{
			"domain": map[string]any{"label": "online retail", "description": "A shop taking orders from customers."},
			"rules": []any{
				rule("An order's ship date is never before its order date.", []string{"ORDERS"}, []string{"orders.shipped_at", "ordered_at"}),
				rule("Every invoice belongs to an order.", []string{"invoices", "orders"}, []string{}),
				rule("An order ships within a week.", []string{"orders"}, []string{"orders.ship_date"}),
				rule("Every order's customer has a name.", []string{"orders"}, []string{"customers.name"}),
				rule("Orders and customers share customer ids.", []string{"orders", "customers"}, []string{"customer_id"}),
			},
		}, nil
	})
	saveFinding(t, env, "semantic", catalog.KindDomain, "domain", catalog.DomainDoc{Label: "ecommerce"}, 0.7)
	saveFinding(t, env, "structural", catalog.KindRelationship, "orders(customer_id)->customers(customer_id)",
		catalog.RelationshipDoc{FromTable: "orders", FromColumns: []string{"customer_id"}, ToTable: "customers", ToColumns: []string{"customer_id"}, Source: "declared"}, 1)

	for phase, want := range map[int]bool{2: false, 3: true, 4: true} {
		env.Phase = phase
		if due, _ := m.semanticsDue(ctx, env); due != want {
			t.Errorf("semantics due in phase %d: %v", phase, due)
		}
		ts, err := m.Plan(ctx, env.For(m.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(names(ts), "model semantics") && slices.Contains(names(ts), "model collaboration"); got != want {
			t.Errorf("phase %d planned %v", phase, names(ts))
		}
	}
	env.Phase = 3

	if err := m.semantics(ctx, env); err != nil {
		t.Fatal(err)
	}
	text := fm.requests(llm.SemanticsTool.Name)[0].Messages[1].Text
	for _, s := range []string{`"domain":"ecommerce"`, `"orders(customer_id) -\u003e customers(customer_id)"`, `"name":"shipped_at"`} {
		if !strings.Contains(text, s) {
			t.Errorf("semantics prompt lacks %s:\n%s", s, text)
		}
	}
	const evidence = "written by model fake p1 (prompt semantics/v1); not checked against the data"
	domains := insightsOf(t, env, InsightDomain)
	if len(domains) != 1 {
		t.Fatalf("%d model domains", len(domains))
	}
	var dd catalog.InsightDoc
	domains[0].Decode(&dd)
	if dd.Description != "The model's reading, not checked against the data: the domain is online retail. A shop taking orders from customers." ||
		domains[0].Confidence > 0.3 || !slices.Contains(domains[0].Tags, Tag) || domains[0].Expert != Name ||
		!slices.Equal(domains[0].Evidence, []string{evidence}) {
		t.Errorf("model domain %+v %q", domains[0], dd.Description)
	}
	// The experts' domain is untouched.
	if d, err := env.Catalog.Get(ctx, catalog.KindDomain, "domain"); err != nil || !strings.Contains(string(d.Document), "ecommerce") || d.Expert != "semantic" {
		t.Errorf("deterministic domain %+v %v", d, err)
	}
	rules := insightsOf(t, env, InsightRule)
	got := map[string]catalog.InsightDoc{}
	for _, e := range rules {
		var d catalog.InsightDoc
		e.Decode(&d)
		got[strings.TrimPrefix(d.Description, modelReading)] = d
		if !strings.HasPrefix(d.Description, modelReading) || e.Confidence > 0.3 || !slices.Contains(e.Tags, Tag) ||
			!slices.Equal(e.Evidence, []string{evidence}) {
			t.Errorf("rule not marked as the model's: %+v", e)
		}
	}
	if len(got) != 2 {
		t.Fatalf("rules kept %v, want the two naming known tables and columns", got)
	}
	ship := got["An order's ship date is never before its order date."]
	if !slices.Equal(ship.Tables, []string{"orders"}) || !slices.Equal(ship.Columns, []string{"orders.shipped_at", "orders.ordered_at"}) {
		t.Errorf("ship rule grounded to %v %v", ship.Tables, ship.Columns)
	}
	// A column of another table brings its table into the rule.
	if name := got["Every order's customer has a name."]; !slices.Equal(name.Tables, []string{"orders", "customers"}) ||
		!slices.Equal(name.Columns, []string{"customers.name"}) {
		t.Errorf("name rule grounded to %v %v", name.Tables, name.Columns)
	}
	us, _ := env.RunEntries(ctx, catalog.KindUncertainty)
	if len(us) != 1 || us[0].Key != "llm:dropped:semantics" {
		t.Fatalf("uncertainties %v", us)
	}
	// A bare column two of the rule's tables have is ambiguous: dropped.
	for _, s := range []string{"invoices", "orders.ship_date", "customer_id"} {
		if !strings.Contains(string(us[0].Document), s) {
			t.Errorf("the dropped names do not include %s: %s", s, us[0].Document)
		}
	}
}

// A run that stops in phase 2, before the semantic reading and the
// collaboration notes were due, still gets them as it finishes (then the
// narrative); one that stops in phase 1 gets only the narrative.
func TestFinishRunsStepsNotYetDue(t *testing.T) {
	ctx := context.Background()
	for _, phase := range []int{1, 2} {
		m, env, fm := shopRig(t, func(tool string, req llm.Request) (any, error) {
			switch tool {
			case llm.SemanticsTool.Name:
				return map[string]any{"domain": map[string]any{"label": "retail", "description": "A shop."}, "rules": []any{}}, nil
			case llm.CollabTool.Name:
				return map[string]any{"notes": []any{}}, nil
			case llm.NarrativeTool.Name:
				return map[string]any{"summary": "A shop."}, nil
			}
			return nil, fmt.Errorf("unexpected tool %s", tool)
		})
		saveFinding(t, env, "structural", catalog.KindRelationship, "orders(customer_id)->customers(customer_id)",
			catalog.RelationshipDoc{FromTable: "orders", FromColumns: []string{"customer_id"}, ToTable: "customers", ToColumns: []string{"customer_id"}, Source: "declared"}, 1)
		saveFinding(t, env, "statistical", catalog.KindProfile, "orders.status", catalog.ProfileDoc{Table: "orders", Column: "status"}, 0.9)
		env.Phase = phase
		if err := m.Finish(ctx, env); err != nil {
			t.Fatalf("phase %d: %v", phase, err)
		}
		want := []string{"llm:narrative"}
		if phase == 2 {
			want = []string{"llm:collaboration", "llm:narrative", "llm:semantics"}
		}
		var done []string
		for _, k := range []string{"llm:semantics", "llm:collaboration", "llm:narrative"} {
			if ok, _ := env.Has(ctx, catalog.KindProgress, k); ok {
				done = append(done, k)
			}
		}
		slices.Sort(done)
		if !slices.Equal(done, want) {
			t.Errorf("phase %d: steps done at finish %v, want %v", phase, done, want)
		}
		if len(fm.requests(llm.SemanticsTool.Name)) != map[int]int{1: 0, 2: 1}[phase] {
			t.Errorf("phase %d: %d semantics requests", phase, len(fm.requests(llm.SemanticsTool.Name)))
		}
		// A second finish (a resumed run's) asks nothing again.
		before := len(fm.requests(llm.NarrativeTool.Name))
		if err := m.Finish(ctx, env); err != nil || len(fm.requests(llm.NarrativeTool.Name)) != before {
			t.Errorf("phase %d: finish again: %v, narrative asked again", phase, err)
		}
	}
}

// "Users" and users are two tables (PostgreSQL, MariaDB on Linux): a
// model's name resolves to the one spelled so, and a name in a third case
// that could mean either is unknown rather than a guess.
func TestGrounderKeepsCaseDistinctTables(t *testing.T) {
	tables := []warehouse.Table{
		{Name: warehouse.TableName{Name: "Users"}, Columns: []warehouse.Column{{Name: "id"}, {Name: "login"}}},
		{Name: warehouse.TableName{Name: "users"}, Columns: []warehouse.Column{{Name: "id"}, {Name: "Email"}}},
		{Name: warehouse.TableName{Schema: "sales", Name: "orders"}, Columns: []warehouse.Column{{Name: "user_id"}}},
	}
	g := grounder{index: naming.NewTableIndex(tables)}
	for _, c := range []struct {
		tables, columns      []string
		wantTables, wantCols []string
		unknown              []string
	}{
		{[]string{"Users"}, []string{"login"}, []string{"Users"}, []string{"Users.login"}, nil},
		{[]string{"users"}, []string{"email"}, []string{"users"}, []string{"users.Email"}, nil},
		{nil, []string{"users.id", "Users.id"}, []string{"users", "Users"}, []string{"users.id", "Users.id"}, nil},
		{[]string{"USERS"}, nil, []string{}, []string{}, []string{"USERS"}},
		{nil, []string{"SALES.ORDERS.USER_ID"}, []string{"sales.orders"}, []string{"sales.orders.user_id"}, nil},
		{[]string{"users"}, []string{"login"}, []string{"users"}, []string{}, []string{"login"}},
	} {
		ts, cs, unknown := g.ground(c.tables, c.columns)
		if !slices.Equal(ts, c.wantTables) || !slices.Equal(cs, c.wantCols) || !slices.Equal(unknown, c.unknown) {
			t.Errorf("ground(%q, %q) = %q, %q, unknown %q; want %q, %q, %q", c.tables, c.columns, ts, cs, unknown,
				c.wantTables, c.wantCols, c.unknown)
		}
	}
}
