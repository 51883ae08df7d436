package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const hostile = "<script>alert(1)</script>"

func ptr[T any](v T) *T { return &v }

func entry(t *testing.T, kind, key string, doc any, conf float64, expert string, evidence ...string) catalog.Entry {
	t.Helper()
	// The stored form, not catalog.NewEntry: the report reads whatever JSON
	// a catalog holds (an older writer's, a map here for brevity).
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return catalog.Entry{Kind: kind, Key: key, Document: b, Confidence: conf, Expert: expert, Evidence: evidence, RunID: "run-1"}
}

func state(t *testing.T, st catalog.LoopState) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// realistic is a small but complete run: two tables and a view, profiles,
// meanings, relationships and one finding of every other kind.
func realistic(t *testing.T) Input {
	t.Helper()
	started := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	finished := started.Add(4*time.Minute + 30*time.Second)
	run := catalog.Run{
		ID: "run-1", DSN: "sqlite://logistics.db", Dialect: "sqlite", Database: "logistics",
		StartedAt: started, FinishedAt: &finished, StopReason: "confidence",
		State: state(t, catalog.LoopState{
			Iteration: 7, Phase: 4, Confidence: 0.96, Coverage: 1, Queries: 212,
			LLM: catalog.LLMUsage{Provider: "none"},
			Costs: &catalog.RunCosts{
				Experts: map[string]catalog.ExpertCost{"statistical": {Tasks: 6, Seconds: 3.21049}, "structural": {Tasks: 3, Failed: 1, Seconds: 0.5}, "advice": {Tasks: 1, Seconds: 0.5}},
				Slowest: []catalog.TaskCost{{Expert: "statistical", Task: "profile shipments", Seconds: 2.5004}, {Expert: "structural", Task: "inventory", Seconds: 0.4}},
			},
		}),
	}
	es := []catalog.Entry{
		entry(t, catalog.KindTable, "shipments", catalog.TableDoc{
			Name: "shipments", Kind: "table", RowCount: ptr[int64](200000),
			PrimaryKey: []string{"id"}, PrimaryKeySource: "declared",
			Columns: []catalog.ColumnDoc{
				{Name: "id", DataType: "INTEGER", Position: 1},
				{Name: "vehicle_id", DataType: "INTEGER", Position: 2, Comment: "the truck that carries it"},
				{Name: "status", DataType: "TEXT", Position: 3, Default: ptr("'new'"), UserComment: "Lifecycle: new → in_transit → delivered."},
				{Name: "cost", DataType: "REAL", Nullable: true, Position: 4},
			},
			Indexes: []catalog.IndexDoc{{Name: "idx_shipments_status", Columns: []string{"status"}, Predicate: "status <> 'delivered'",
				Definition: "CREATE INDEX idx_shipments_status ON shipments (status) WHERE status <> 'delivered'"}},
			PrimaryKeyName: "pk_shipments",
			Comment:        "Consignments, one row each.",
			UserComment:    "Written by the dispatch service.",
			Checks:         []catalog.CheckDoc{{Name: "cost_positive", Expression: "cost >= 0"}, {Expression: "status IN ('new', 'in_transit', 'delivered')"}},
			Triggers: []catalog.TriggerDoc{{Name: "shipments_touch", Timing: "AFTER", Events: []string{"UPDATE"},
				Definition: "CREATE TRIGGER shipments_touch AFTER UPDATE ON shipments BEGIN SELECT 1; END"}},
		}, 1, "structural"),
		entry(t, catalog.KindTable, "vehicles", catalog.TableDoc{
			Name: "vehicles", Kind: "table", RowCount: ptr[int64](450), RowCountIsEstimate: true,
			PrimaryKey: []string{"vehicle_id"}, PrimaryKeySource: "inferred",
			Columns: []catalog.ColumnDoc{
				{Name: "vehicle_id", DataType: "INTEGER", Position: 1, Identity: "by_default"},
				{Name: "plate", DataType: "TEXT", Position: 2},
				{Name: "plate_key", DataType: "TEXT", Position: 3, Generated: "upper(plate)", GeneratedStored: true},
			},
			Uniques: [][]string{{"plate"}},
			Indexes: []catalog.IndexDoc{{Name: "ux_vehicles_plate", Columns: []string{"plate"}, Unique: true}},
		}, 1, "structural"),
		entry(t, catalog.KindTable, "active_shipments", catalog.TableDoc{
			Name: "active_shipments", Kind: "view",
			Columns:    []catalog.ColumnDoc{{Name: "id", DataType: "INTEGER", Nullable: true, Position: 1}},
			Definition: "SELECT id\nFROM shipments\nWHERE status <> 'delivered'",
			Reads:      []string{"shipments"},
		}, 1, "structural"),
		entry(t, catalog.KindTableStats, "active_shipments", catalog.TableStatsDoc{Table: "active_shipments", Rows: 1200, Queries: 1}, 1, "statistical"),

		entry(t, catalog.KindProfile, "shipments.id", catalog.ProfileDoc{
			Table: "shipments", Column: "id", Rows: 200000, NullFraction: ptr(0.0), DistinctCount: ptr[int64](200000),
			Min: ptr("1"), Max: ptr("200000"), Mean: ptr(100000.5), Stddev: ptr(57735.2),
			TopValues: []catalog.ValueCount{},
		}, 1, "statistical"),
		entry(t, catalog.KindProfile, "shipments.status", catalog.ProfileDoc{
			Table: "shipments", Column: "status", Rows: 200000, NullFraction: ptr(0.0), DistinctCount: ptr[int64](5),
			Min: ptr(hostile), Max: ptr("returned"),
			TopValues: []catalog.ValueCount{
				{Value: "delivered", Count: 90367, Fraction: 0.45},
				{Value: "in_transit", Count: 60000, Fraction: 0.3},
				{Value: hostile, Count: 3, Fraction: 0.000015},
			},
			Anomalies: []catalog.Anomaly{{Kind: "rare_value", Description: "a value seen 3 times among 200,000 rows", Count: 3, Examples: []string{hostile}}},
		}, 0.9, "statistical"),
		entry(t, catalog.KindProfile, "shipments.cost", catalog.ProfileDoc{
			Table: "shipments", Column: "cost", Rows: 200000, Sampled: true, NullFraction: ptr(0.0125),
			DistinctCount: ptr[int64](18234), DistinctIsEstimate: true, Min: ptr("-5"), Max: ptr("1890.5"),
			Mean: ptr(142.25), Stddev: ptr(88.1),
			Histogram: &catalog.Histogram{Bounds: []float64{-5, 20, 50, 90, 140, 1890.5}, Counts: []int64{40000, 40000, 40000, 40000, 37500}, Estimate: true},
			Anomalies: []catalog.Anomaly{{Kind: "outlier", Description: "negative cost", Count: 2, Examples: []string{"-5", "-1"}}},
		}, 0.9, "statistical"),
		entry(t, catalog.KindProfile, "vehicles.plate", catalog.ProfileDoc{
			Table: "vehicles", Column: "plate", Rows: 450, NullFraction: ptr(0.0), DistinctCount: ptr[int64](450),
			Min: ptr("AB|12\nline two"), Max: ptr("ZZ-999-a-plate-number-that-is-much-longer-than-a-cell"),
		}, 0.9, "statistical"),

		entry(t, catalog.KindSemantic, "shipments.id", catalog.SemanticDoc{Table: "shipments", Column: "id", SemanticType: "identifier"}, 0.99, "semantic"),
		entry(t, catalog.KindSemantic, "shipments.vehicle_id", catalog.SemanticDoc{Table: "shipments", Column: "vehicle_id", SemanticType: "foreign_key"}, 0.95, "semantic"),
		entry(t, catalog.KindSemantic, "shipments.status", catalog.SemanticDoc{Table: "shipments", Column: "status", SemanticType: "enum"}, 0.9, "semantic"),
		entry(t, catalog.KindSemantic, "shipments.cost", catalog.SemanticDoc{Table: "shipments", Column: "cost", SemanticType: "numeric_measure"}, 0.8, "semantic"),

		entry(t, catalog.KindEntity, "shipments", catalog.EntityDoc{Table: "shipments", Type: "Shipment", Description: "one consignment moved by a vehicle"}, 0.7, "semantic"),
		entry(t, catalog.KindEntity, "vehicles", catalog.EntityDoc{Table: "vehicles", Type: "Vehicle", Description: "a truck of the fleet"}, 0.8, "semantic"),

		entry(t, catalog.KindRelationship, "shipments(vehicle_id)->vehicles(vehicle_id)", catalog.RelationshipDoc{
			FromTable: "shipments", FromColumns: []string{"vehicle_id"}, ToTable: "vehicles", ToColumns: []string{"vehicle_id"},
			Source: "declared", Cardinality: "one_to_many", OrphanFraction: ptr(0.0),
			ConstraintName: "fk_shipments_vehicle", OnDelete: "RESTRICT", OnUpdate: "CASCADE",
		}, 0.93, "structural", "declared foreign key", "0 orphans in 200,000 rows"),
		entry(t, catalog.KindRelationship, "active_shipments(id)->shipments(id)", catalog.RelationshipDoc{
			FromTable: "active_shipments", FromColumns: []string{"id"}, ToTable: "shipments", ToColumns: []string{"id"},
			Source: "inferred",
		}, 0.7, "structural", "name match; 100% inclusion"),

		entry(t, catalog.KindPattern, "star_schema:shipments,vehicles", catalog.PatternDoc{
			Kind: "star_schema", Tables: []string{"shipments", "vehicles"}, Description: "shipments is a fact table with one dimension",
		}, 0.6, "structural"),
		entry(t, catalog.KindInsight, "cost-by-status", catalog.InsightDoc{
			Kind: "distribution", Tables: []string{"shipments"}, Columns: []string{"shipments.cost", "shipments.status"},
			Description: "returned shipments cost twice the median | a pipe",
		}, 0.85, "statistical", "SELECT status, median(cost) … GROUP BY status"),
		entry(t, catalog.KindInsight, "negative-cost", catalog.InsightDoc{
			Kind: "quality", Tables: []string{"shipments"}, Columns: []string{"shipments.cost"},
			Description: "2 shipments have a negative cost",
		}, 0.95, "statistical", "SELECT count(*) FROM shipments WHERE cost < 0 → 2"),
		entry(t, catalog.KindHypothesis, "h-001", catalog.HypothesisDoc{
			ID: "h-001", Statement: "every shipment references an existing vehicle", Status: "confirmed",
			TestSQL: "SELECT count(*)\nFROM shipments s\nLEFT JOIN vehicles v USING (vehicle_id)\nWHERE v.vehicle_id IS NULL",
		}, 0.97, "query", "0 rows without a vehicle"),
		entry(t, catalog.KindHypothesis, "h-002", catalog.HypothesisDoc{
			ID: "h-002", Statement: "plates are upper case", TestSQL: "SELECT count(*) FROM vehicles WHERE plate <> upper(plate) -- ``` in a comment",
		}, 0.4, "semantic"),
		entry(t, catalog.KindRecommendation, "index-vehicle", catalog.RecommendationDoc{
			Kind: "index", Description: "joins on shipments.vehicle_id scan the table", SQL: "CREATE INDEX idx_shipments_vehicle ON shipments(vehicle_id);",
		}, 0.8, "query"),
		entry(t, catalog.KindUncertainty, "active-view-definition", catalog.UncertaintyDoc{Description: "whether active_shipments filters on status could not be read from the view"}, 0.5, "structural"),
		entry(t, catalog.KindDomain, "domain", catalog.DomainDoc{Label: "logistics"}, 0.8, "semantic", "tables shipments, vehicles", "columns plate, cost"),
	}
	return Input{Run: run, Entries: es}
}

func emptyInput() Input {
	return Input{Run: catalog.Run{
		ID: "run-empty", DSN: "sqlite://empty.db", Dialect: "sqlite", Database: "empty",
		StartedAt: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC),
	}}
}

func render(t *testing.T, write func(*bytes.Buffer, *Report) error, r *Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func jsonOf(t *testing.T, r *Report) []byte {
	return render(t, func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }, r)
}

func mdOf(t *testing.T, r *Report) []byte {
	return render(t, func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r) }, r)
}

func htmlOf(t *testing.T, r *Report) []byte {
	return render(t, func(b *bytes.Buffer, r *Report) error { return WriteHTML(b, r) }, r)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; if the change is intended, run go test ./report -update\n--- got ---\n%s", path, got)
	}
}

func TestRealisticReportValidates(t *testing.T) {
	doc := jsonOf(t, Build(realistic(t)))
	if err := Validate(doc); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
}

func TestEmptyRunValidatesWithEmptyLists(t *testing.T) {
	r := Build(emptyInput())
	doc := jsonOf(t, r)
	if err := Validate(doc); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"tables", "relationships", "patterns", "insights", "hypotheses", "recommendations", "uncertainties"} {
		if string(m[k]) != "[]" {
			t.Errorf("%s = %s, want []", k, m[k])
		}
	}
	var d map[string]any
	if err := json.Unmarshal(m["domain"], &d); err != nil {
		t.Fatal(err)
	}
	if d["label"] != nil || d["confidence"] != 0.0 || len(d["evidence"].([]any)) != 0 {
		t.Errorf("unknown domain = %s", m["domain"])
	}
	var run map[string]any
	if err := json.Unmarshal(m["run"], &run); err != nil {
		t.Fatal(err)
	}
	if run["finished_at"] != nil || run["stop_reason"] != nil {
		t.Errorf("unfinished run = %s", m["run"])
	}
	if run["llm"].(map[string]any)["provider"] != "none" {
		t.Errorf("llm provider of a run without state = %v, want none", run["llm"])
	}
}

// A hand-built Report with nil lists must still write [] rather than null.
func TestWriteJSONNilListsAreEmpty(t *testing.T) {
	r := &Report{SchemaVersion: 1, Run: Run{StartedAt: "2025-03-01T09:00:00Z", LLM: LLM{Provider: "none"}},
		Tables: []Table{{Name: "t", Kind: "table", Columns: []Column{{Name: "c"}}}}}
	doc := jsonOf(t, r)
	if err := Validate(doc); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	if r.Relationships != nil || r.Tables[0].PrimaryKey != nil {
		t.Error("WriteJSON changed the report it wrote")
	}
}

func TestSchemaRejectsDrift(t *testing.T) {
	valid := jsonOf(t, Build(realistic(t)))
	cases := map[string]func(m map[string]any){
		"missing top-level field": func(m map[string]any) { delete(m, "summary") },
		"extra top-level field":   func(m map[string]any) { m["version"] = 2 },
		"wrong schema_version":    func(m map[string]any) { m["schema_version"] = 2 },
		"wrong stop_reason":       func(m map[string]any) { obj(m, "run")["stop_reason"] = "finished" },
		"run confidence 1.5":      func(m map[string]any) { obj(m, "run")["confidence"] = 1.5 },
		"negative coverage":       func(m map[string]any) { obj(m, "run")["coverage"] = -0.1 },
		"bad started_at":          func(m map[string]any) { obj(m, "run")["started_at"] = "yesterday" },
		"extra llm field":         func(m map[string]any) { obj(obj(m, "run"), "llm")["cost"] = 1 },
		"missing column field":    func(m map[string]any) { delete(item(item(m, "tables", 0), "columns", 0), "min") },
		"extra column field":      func(m map[string]any) { item(item(m, "tables", 0), "columns", 0)["rank"] = 1 },
		"null_fraction 1.5":       func(m map[string]any) { item(item(m, "tables", 0), "columns", 0)["null_fraction"] = 1.5 },
		"distinct_count a string": func(m map[string]any) { item(item(m, "tables", 0), "columns", 0)["distinct_count"] = "5" },
		"wrong table kind":        func(m map[string]any) { item(m, "tables", 0)["kind"] = "index" },
		"extra table field":       func(m map[string]any) { item(m, "tables", 0)["storage"] = "heap" },
		"trigger timing unknown": func(m map[string]any) {
			item(m, "tables", 0)["triggers"] = []any{map[string]any{"name": "t", "timing": "WHENEVER", "events": []any{"INSERT"}, "definition": ""}}
		},
		"index without columns": func(m map[string]any) {
			item(m, "tables", 0)["indexes"] = []any{map[string]any{"name": "i", "unique": false}}
		},
		"referential action unknown":  func(m map[string]any) { item(m, "relationships", 0)["on_delete"] = "EXPLODE" },
		"identity unknown":            func(m map[string]any) { item(item(m, "tables", 0), "columns", 0)["identity"] = "serial" },
		"primary key source unknown":  func(m map[string]any) { item(m, "tables", 1)["primary_key_source"] = "guessed" },
		"no primary key but a source": func(m map[string]any) { item(m, "tables", 0)["primary_key_source"] = "declared" },
		"primary key without source":  func(m map[string]any) { item(m, "tables", 1)["primary_key_source"] = nil },
		"entity confidence 1.5":       func(m map[string]any) { obj(item(m, "tables", 1), "entity")["confidence"] = 1.5 },
		"relationship confidence 1.5": func(m map[string]any) { item(m, "relationships", 0)["confidence"] = 1.5 },
		"wrong relationship source":   func(m map[string]any) { item(m, "relationships", 0)["source"] = "guess" },
		"wrong cardinality":           func(m map[string]any) { item(m, "relationships", 1)["cardinality"] = "one_to_few" },
		"relationship without column": func(m map[string]any) { item(m, "relationships", 0)["from_columns"] = []any{} },
		"missing hypothesis expert":   func(m map[string]any) { delete(item(m, "hypotheses", 0), "expert") },
		"wrong hypothesis status":     func(m map[string]any) { item(m, "hypotheses", 0)["status"] = "maybe" },
		"pattern confidence 1.5":      func(m map[string]any) { item(m, "patterns", 0)["confidence"] = 1.5 },
		"insight evidence null":       func(m map[string]any) { item(m, "insights", 0)["evidence"] = nil },
		"recommendation extra field":  func(m map[string]any) { item(m, "recommendations", 0)["priority"] = 1 },
		"uncertainty not a string":    func(m map[string]any) { m["uncertainties"] = []any{1} },
		"tables null":                 func(m map[string]any) { m["tables"] = nil },
		"unknown domain with a claim": func(m map[string]any) { obj(m, "domain")["label"] = nil },
		"semantic confidence alone":   func(m map[string]any) { item(item(m, "tables", 0), "columns", 0)["semantic_confidence"] = 0.5 },
	}
	remarshal := func(mutate func(map[string]any)) []byte {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal(valid, &m); err != nil {
			t.Fatal(err)
		}
		mutate(m)
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	// Without this, a mutation could "fail" for a reason of the round trip.
	if err := Validate(remarshal(func(map[string]any) {})); err != nil {
		t.Fatalf("the unmutated document fails: %v", err)
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			if err := Validate(remarshal(mutate)); err == nil {
				t.Errorf("the schema accepted a document with %s", name)
			}
		})
	}
}

func obj(m map[string]any, key string) map[string]any { return m[key].(map[string]any) }

func item(m map[string]any, key string, i int) map[string]any {
	return m[key].([]any)[i].(map[string]any)
}

func TestBuildAssembly(t *testing.T) {
	r := Build(realistic(t))
	var names []string
	for _, tb := range r.Tables {
		names = append(names, tb.Name)
	}
	if want := []string{"active_shipments", "shipments", "vehicles"}; !slices.Equal(names, want) {
		t.Fatalf("tables = %v, want %v", names, want)
	}
	view, ship := r.Tables[0], r.Tables[1]
	if view.Kind != "view" || view.RowCount == nil || *view.RowCount != 1200 || view.PrimaryKeySource != nil {
		t.Errorf("view = %+v: want kind view, 1200 rows from its unsampled stats, no key source", view)
	}
	if view.Entity != nil || view.Columns[0].SemanticType != nil || view.Columns[0].NullFraction != nil {
		t.Errorf("view has invented figures: %+v", view)
	}
	if ship.Entity == nil || ship.Entity.Type != "Shipment" || ship.Entity.Confidence != 0.7 {
		t.Errorf("entity = %+v", ship.Entity)
	}
	status := ship.Columns[2]
	if status.Name != "status" || *status.SemanticType != "enum" || *status.SemanticConfidence != 0.9 || len(status.TopValues) != 3 {
		t.Errorf("status column = %+v", status)
	}
	if vid := ship.Columns[1]; vid.DistinctCount != nil || vid.Min != nil || vid.TopValues == nil {
		t.Errorf("unprofiled column = %+v: want null figures and [] lists", vid)
	}
	if r.Relationships[0].FromTable != "active_shipments" || r.Relationships[0].Cardinality != nil {
		t.Errorf("relationships = %+v", r.Relationships)
	}
	if r.Hypotheses[1].Status != "proposed" || r.Hypotheses[1].Expert != "semantic" {
		t.Errorf("hypothesis without a verdict = %+v", r.Hypotheses[1])
	}
	if r.Insights[0].Kind != "distribution" || r.Insights[1].Kind != "quality" {
		t.Errorf("insights not sorted by kind: %+v", r.Insights)
	}
	if r.Domain.Label == nil || *r.Domain.Label != "logistics" || len(r.Domain.Evidence) != 2 {
		t.Errorf("domain = %+v", r.Domain)
	}
	if r.Run.Iterations != 7 || r.Run.Queries != 212 || r.Run.FinishedAt == nil || *r.Run.FinishedAt != "2025-03-01T10:04:30Z" {
		t.Errorf("run = %+v", r.Run)
	}
}

// TestRunCosts: the saved task times come out most time first, ties by
// name, to the millisecond, with the slowest runs as saved.
func TestRunCosts(t *testing.T) {
	c := Build(realistic(t)).Run.Costs
	if c == nil {
		t.Fatal("no costs")
	}
	var got []string
	for _, e := range c.Experts {
		got = append(got, fmt.Sprintf("%s %d/%d %.3f", e.Expert, e.Tasks, e.Failed, e.Seconds))
	}
	if want := "statistical 6/0 3.210, advice 1/0 0.500, structural 3/1 0.500"; strings.Join(got, ", ") != want {
		t.Errorf("experts %q, want %s", strings.Join(got, ", "), want)
	}
	if len(c.Slowest) != 2 || c.Slowest[0].Task != "profile shipments" || c.Slowest[0].Seconds != 2.5 {
		t.Errorf("slowest %+v", c.Slowest)
	}
	if Build(Input{Run: catalog.Run{ID: "old"}}).Run.Costs != nil {
		t.Error("a run saved without costs has costs")
	}
}

func TestSummary(t *testing.T) {
	got := Build(realistic(t)).Summary
	for _, want := range []string{
		`The sqlite database "logistics" has 2 tables and 1 view.`,
		"The tables hold 200,450 rows in total (some counts are estimates).",
		"The largest are shipments (200,000 rows) and vehicles (450 rows).",
		"2 relationships were found: 1 declared and 1 inferred from the data.",
		"The data looks like the logistics domain (confidence 80%).",
		"Data quality: 2 anomalies in 2 columns and 1 data-quality insight recorded.",
		"2 hypotheses: 1 confirmed and 1 proposed.",
		"The run stopped after 7 iterations because overall confidence reached its target, with confidence 96% and coverage 100% after 212 queries.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	empty := Build(emptyInput()).Summary
	for _, want := range []string{
		`No tables or views of the sqlite database "empty" are recorded in the catalog.`,
		"No relationships between tables were found.",
		"The business domain was not determined.",
		"The run has not finished: 0 iterations so far",
	} {
		if !strings.Contains(empty, want) {
			t.Errorf("empty summary lacks %q:\n%s", want, empty)
		}
	}
}

// The same catalog must give the same bytes whatever order the entries
// come back in, or diffs between runs would show noise.
func TestOutputIsDeterministic(t *testing.T) {
	in := realistic(t)
	want := [][]byte{jsonOf(t, Build(in)), mdOf(t, Build(in)), htmlOf(t, Build(in))}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		rng.Shuffle(len(in.Entries), func(i, j int) { in.Entries[i], in.Entries[j] = in.Entries[j], in.Entries[i] })
		r := Build(in)
		for i, got := range [][]byte{jsonOf(t, r), mdOf(t, r), htmlOf(t, r)} {
			if !bytes.Equal(got, want[i]) {
				t.Fatalf("output %d changed with entry order", i)
			}
		}
	}
}

func TestGolden(t *testing.T) {
	r := Build(realistic(t))
	golden(t, "report.json", jsonOf(t, r))
	golden(t, "report.md", mdOf(t, r))
	golden(t, "report.html", htmlOf(t, r))
	golden(t, "hypotheses.md", render(t, func(b *bytes.Buffer, r *Report) error { return WriteLedger(b, r) }, r))
	e := Build(emptyInput())
	golden(t, "empty.json", jsonOf(t, e))
	golden(t, "empty.md", mdOf(t, e))
	golden(t, "empty.html", htmlOf(t, e))
}

// The outline of issue 6: a briefing (summary, structure, business domain,
// insights and patterns, data quality, recommendations, uncertainties),
// then the hypothesis ledger; every section present, in that order.
func TestMarkdownAlwaysHasSections(t *testing.T) {
	want := []string{"## Summary\n", "## Run\n", "## Contents\n", "## Structure\n", "### Tables\n", "### Relationships\n",
		"## Business domain\n", "## Insights and patterns\n", "### Insights\n", "### Patterns\n", "## Data quality\n",
		"## Recommendations\n", "## Uncertainties\n", "## Hypotheses\n"}
	for name, in := range map[string]Input{"realistic": realistic(t), "empty": emptyInput()} {
		md := string(mdOf(t, Build(in)))
		at := -1
		for _, h := range want {
			i := strings.Index(md, "\n"+h)
			if i < 0 {
				t.Errorf("%s: markdown lacks heading %q", name, strings.TrimSpace(h))
				continue
			}
			if i < at {
				t.Errorf("%s: heading %q out of order", name, strings.TrimSpace(h))
			}
			at = i
		}
		if name == "empty" && strings.Count(md, "None found.") != 8 {
			t.Errorf("empty: want None found. under Tables, Relationships, Insights, Patterns, Data quality, Recommendations, Uncertainties and Hypotheses:\n%s", md)
		}
	}
}

func TestMarkdownEscapesCells(t *testing.T) {
	md := string(mdOf(t, Build(realistic(t))))
	if !strings.Contains(md, `| plate | TEXT | no | 0.0% | 450 | AB\|12\nline two |`) {
		t.Errorf("pipe and newline not escaped in a cell:\n%s", md)
	}
	if strings.Contains(md, hostile) {
		t.Error("markdown carries a raw <script> tag")
	}
	ledger := string(render(t, func(b *bytes.Buffer, r *Report) error { return WriteLedger(b, r) }, Build(realistic(t))))
	if !strings.Contains(ledger, "````sql\nSELECT count(*) FROM vehicles WHERE plate <> upper(plate) -- ``` in a comment\n````") {
		t.Errorf("SQL holding ``` needs a longer fence:\n%s", ledger)
	}
}

func TestHTMLEscapesDataValues(t *testing.T) {
	page := string(htmlOf(t, Build(realistic(t))))
	// The page's own scripts (the template's) are the only ones allowed.
	if n, own := strings.Count(page, "<script"), strings.Count(htmlSource, "<script"); n != own {
		t.Fatalf("a data value reached the page as a <script> element: %d script tags, the template has %d", n, own)
	}
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the hostile top value is missing from the page instead of escaped")
	}
	for _, want := range []string{`<a href="#table-2">shipments</a>`, `<h4 id="table-2">shipments</h4>`, `<h2 id="uncertainties">`, "<style>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Error("the page refers to an external resource")
	}
}

func TestUnreadableEntryBecomesUncertainty(t *testing.T) {
	in := emptyInput()
	in.Entries = []catalog.Entry{{Kind: catalog.KindPattern, Key: "broken", Document: json.RawMessage(`{"tables": 3}`)}}
	r := Build(in)
	if len(r.Patterns) != 0 || len(r.Uncertainties) != 1 || !strings.Contains(r.Uncertainties[0], `pattern "broken"`) {
		t.Errorf("patterns %v, uncertainties %q", r.Patterns, r.Uncertainties)
	}
}

func TestSchemaIsEmbedded(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatal(err)
	}
	if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", s["$schema"])
	}
}

// WriteJSON writes list elements one at a time; the bytes must be exactly
// those of an encoder indenting the whole report, on a realistic report, an
// empty one, one with an outcome and a narrative and one with HTML-like
// text (left unescaped).
func TestWriteJSONStreamsTheEncodersBytes(t *testing.T) {
	withOptional := Build(realistic(t))
	withOptional.Outcome = &Outcome{Status: "incomplete", Tables: 3, Unseen: []Unseen{{What: "table", Table: "a<b>&c", Reason: "timed out"}}}
	withOptional.Narrative = &Narrative{}
	withOptional.Uncertainties = append(withOptional.Uncertainties, "x < y && \"quoted\" \u2028 line")
	for name, r := range map[string]*Report{
		"realistic": Build(realistic(t)),
		"empty":     Build(emptyInput()),
		"optional":  withOptional,
		"by hand":   {SchemaVersion: 1, Tables: []Table{{Name: "t", Columns: []Column{{Name: "c"}}}}},
	} {
		n := normalized(r)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(&n); err != nil {
			t.Fatal(err)
		}
		if got := jsonOf(t, r); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: WriteJSON differs from the encoder's bytes:\n%s\nwant:\n%s", name, got, want.Bytes())
		}
	}
}

// TestLedgerOnItsOwnPage: report.md summarizes the ledger (the counts, the
// claims the data did not bear out, one line each, and a link), and the
// ledger page holds every claim with its query and evidence (issue 22:
// the ledger had been half of report.md).
func TestLedgerOnItsOwnPage(t *testing.T) {
	in := realistic(t)
	in.Entries = append(in.Entries,
		entry(t, catalog.KindHypothesis, "h-003", catalog.HypothesisDoc{ID: "h-003", Statement: "every shipment has a vehicle",
			Status: "refuted", TestSQL: "SELECT count(*) FROM shipments WHERE vehicle_id IS NULL"}, 0.9, "rules", "12 shipments have none"),
		entry(t, catalog.KindHypothesis, "h-004", catalog.HypothesisDoc{ID: "h-004", Statement: "costs grow",
			Status: "inconclusive", TestSQL: "SELECT 1"}, 0.5, "rules"))
	r := Build(in)
	md := string(mdOf(t, r))
	section := md[strings.Index(md, "## Hypotheses\n"):]
	want := "## Hypotheses\n\n4 hypotheses: 1 confirmed, 1 refuted, 1 inconclusive and 1 proposed. " +
		"Each claim, the query that tested it and the figures it returned: [hypotheses.md](hypotheses.md).\n\n" +
		"Not borne out by the data:\n\n- h-003 (refuted): every shipment has a vehicle\n- h-004 (inconclusive): costs grow\n\n"
	if section != want {
		t.Errorf("report.md's Hypotheses section:\n%s\nwant:\n%s", section, want)
	}
	if strings.Contains(md, "```sql\nSELECT count(*) FROM shipments WHERE vehicle_id IS NULL") {
		t.Error("report.md still holds the ledger's queries")
	}
	ledger := string(render(t, func(b *bytes.Buffer, r *Report) error { return WriteLedger(b, r) }, r))
	for _, h := range r.Hypotheses {
		if !strings.Contains(ledger, "**"+h.ID+"**: "+mdText(h.Statement)) {
			t.Errorf("the ledger lacks %s", h.ID)
		}
	}
	if !strings.Contains(ledger, "SELECT count(*) FROM shipments WHERE vehicle_id IS NULL") || !strings.Contains(ledger, "- 12 shipments have none") {
		t.Errorf("the ledger lacks a claim's query or evidence:\n%s", ledger)
	}
}
