// Package report renders a run's catalog as report.json (schema_version 1,
// docs/CONTRACT.md), Markdown and HTML.
//
// Build is a pure function of plain data (the run and its entries), so every
// rendering is testable without a database; FromCatalog only loads that data.
package report

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/discover-db/discover/catalog"
)

// SchemaVersion is the report.json version this package writes.
const SchemaVersion = 1

// Report is report.json. Field order and names follow docs/CONTRACT.md; no
// field is ever omitted: unknown values are null and empty lists are [].
//
// Where CONTRACT is silent, schema.json pins these choices:
//   - run.finished_at and run.stop_reason are null while a run is unfinished;
//   - domain is {"label": null, "confidence": 0, "evidence": []} when unknown;
//   - table.entity is null when no expert named the rows;
//   - primary_key_source is null exactly when primary_key is [];
//   - semantic_type and semantic_confidence are null together;
//   - relationship.cardinality is null when it was not measured;
//   - a hypothesis stored without a status is "proposed";
//   - run.llm.provider is "none" when neither the run nor the options name one;
//   - narrative, the one optional field, is left out when no model wrote one,
//     so a run without a model gives the same report.json as before it existed.
type Report struct {
	SchemaVersion int        `json:"schema_version"`
	Database      Database   `json:"database"`
	Run           Run        `json:"run"`
	Summary       string     `json:"summary"`
	Outcome       *Outcome   `json:"outcome,omitempty"`
	Narrative     *Narrative `json:"narrative,omitempty"`
	Privacy       *Privacy   `json:"privacy,omitempty"`
	Domain        Domain     `json:"domain"`
	Tables        []Table    `json:"tables"`
	// Enums and Routines are what the database declares beside its tables
	// (issue 22), optional in schema_version 1: absent where the engine
	// lists none or declares none.
	Enums           []Enum           `json:"enums,omitempty"`
	Routines        []Routine        `json:"routines,omitempty"`
	Relationships   []Relationship   `json:"relationships"`
	Patterns        []Pattern        `json:"patterns"`
	Insights        []Insight        `json:"insights"`
	Hypotheses      []Hypothesis     `json:"hypotheses"`
	Recommendations []Recommendation `json:"recommendations"`
	Uncertainties   []string         `json:"uncertainties"`
}

// Privacy says what the run did with the values of the columns that hold
// personal data: masked them (in the catalog, so in every report) or left
// them as they are (--show-pii). Optional: absent in a catalog written
// before discover masked values.
type Privacy struct {
	ValuesMasked bool `json:"values_masked"`
	Columns      int  `json:"columns"` // columns that hold personal data
}

// Outcome says whether the run saw everything it set out to: "complete",
// or "incomplete" with what it could not see (a table or view not read, a
// table or column not profiled, a planned test given up) and why. Optional:
// absent in a catalog written before discover recorded it.
type Outcome struct {
	Status string   `json:"status"` // complete | incomplete
	Tables int      `json:"tables"` // tables and views the run set out to read
	Unseen []Unseen `json:"unseen"`
}

// Unseen is one thing the run could not see. What is "table" (not read at
// all), "profile" (read, but not profiled), "column" (one column not
// profiled) or "test" (a planned test or task given up).
type Unseen struct {
	What  string `json:"what"`
	Table string `json:"table,omitempty"`
	Kind  string `json:"kind,omitempty"` // table | view, when known
	// Foreign marks a foreign table, whose rows another server or a file
	// holds.
	Foreign bool   `json:"foreign,omitempty"`
	Column  string `json:"column,omitempty"`
	Task    string `json:"task,omitempty"`
	Reason  string `json:"reason"`
}

// Narrative is the executive summary a model wrote from the run's findings.
// It stands beside Summary (the deterministic one), never replaces it, and
// is always shown with Note: nothing in it was checked against the data.
type Narrative struct {
	Text      string `json:"text"`
	WrittenBy string `json:"written_by"` // always "model"
	Provider  string `json:"provider"`
	Model     string `json:"model"`
	Prompt    string `json:"prompt"`               // the prompt id and version
	Checked   bool   `json:"checked_against_data"` // always false
	Note      string `json:"note"`
}

// Database names the database under discovery.
type Database struct {
	Dialect string `json:"dialect"`
	Name    string `json:"name"`
	DSN     string `json:"dsn"`
	// Connection says what the connection's role could do beyond reading.
	// Optional: absent in a catalog written before discover checked it.
	Connection *Connection `json:"connection,omitempty"`
}

// Connection is what the engine reported of the connection's role at the
// start of the run, and what became of untrusted SQL because of it.
type Connection struct {
	Role string `json:"role,omitempty"`
	// Checked is false when the engine has no roles (SQLite, DuckDB,
	// Trino) or the check failed.
	Checked    bool     `json:"checked"`
	Privileged bool     `json:"privileged"`
	Privileges []string `json:"privileges"`
	// UntrustedSQL: "allowed", "allowed (--allow-privileged)", "refused"
	// (a privileged connection) or "none" (no model in the run).
	UntrustedSQL string `json:"untrusted_sql"`
}

// Run describes the discovery run.
type Run struct {
	ID         string  `json:"id"`
	StartedAt  string  `json:"started_at"`
	FinishedAt *string `json:"finished_at"`
	Iterations int     `json:"iterations"`
	StopReason *string `json:"stop_reason"`
	Confidence float64 `json:"confidence"`
	Coverage   float64 `json:"coverage"`
	Queries    int64   `json:"queries"`
	// CachedQueries counts the statements answered by results an earlier
	// run kept, over tables that had not changed; Queries does not count them.
	CachedQueries int64 `json:"cached_queries,omitempty"`
	LLM           LLM   `json:"llm"`
	// Costs say where the run's time went; absent for a catalog written
	// before discover recorded them.
	Costs *Costs `json:"costs,omitempty"`
	// Reused is set when the run took an earlier run's findings because
	// nothing they rest on had changed (package incremental).
	Reused *Reused `json:"reused,omitempty"`
}

// Reused says whose findings a run took instead of reading the data again.
type Reused struct {
	FromRun string `json:"from_run"`
	// Entries is how many findings were taken; Tables how many tables'
	// change signals were found unchanged.
	Entries int64 `json:"entries"`
	Tables  int   `json:"tables"`
}

// Costs are the run's task times: each expert's, most time first, and the
// slowest task runs. An expert's seconds are its tasks' summed wall-clock
// times, which exceed the run's when tasks run side by side.
type Costs struct {
	Experts []ExpertCost `json:"experts"`
	Slowest []TaskCost   `json:"slowest_tasks"`
}

// ExpertCost is one expert's share of the run's time.
type ExpertCost struct {
	Expert  string  `json:"expert"`
	Tasks   int     `json:"tasks"`
	Failed  int     `json:"failed"`
	Seconds float64 `json:"seconds"`
}

// TaskCost is one task run's time.
type TaskCost struct {
	Expert  string  `json:"expert"`
	Task    string  `json:"task"`
	Seconds float64 `json:"seconds"`
}

// costs is the report's form of the saved costs, seconds to the
// millisecond.
func costs(c *catalog.RunCosts) *Costs {
	if c == nil {
		return nil
	}
	ms := func(s float64) float64 { return math.Round(s*1000) / 1000 }
	out := &Costs{Experts: []ExpertCost{}, Slowest: []TaskCost{}}
	for name, e := range c.Experts {
		out.Experts = append(out.Experts, ExpertCost{Expert: name, Tasks: e.Tasks, Failed: e.Failed, Seconds: ms(e.Seconds)})
	}
	slices.SortFunc(out.Experts, func(a, b ExpertCost) int {
		return cmp.Or(cmp.Compare(b.Seconds, a.Seconds), cmp.Compare(a.Expert, b.Expert))
	})
	for _, t := range c.Slowest {
		out.Slowest = append(out.Slowest, TaskCost{Expert: t.Expert, Task: t.Task, Seconds: ms(t.Seconds)})
	}
	return out
}

// LLM counts the run's model use.
type LLM struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Calls    int64  `json:"calls"`
	Tokens   int64  `json:"tokens"`
}

// Domain is the business-domain guess. An undetermined domain is
// {"label": null, "confidence": 0, "evidence": []}: the object keeps its
// shape so consumers need no special case, and confidence 0 says "no claim".
type Domain struct {
	Label      *string  `json:"label"`
	Confidence float64  `json:"confidence"`
	Evidence   []string `json:"evidence"`
}

// Table is one table or view.
type Table struct {
	Name               string `json:"name"`
	Kind               string `json:"kind"`
	RowCount           *int64 `json:"row_count"`
	RowCountIsEstimate bool   `json:"row_count_is_estimate"`
	// RowCountIsLowerBound: the count stopped before the table's end (a
	// view, or what nothing estimates, is counted only so far): the table
	// holds at least RowCount rows. Optional, absent when false.
	RowCountIsLowerBound bool     `json:"row_count_is_lower_bound,omitempty"`
	PrimaryKey           []string `json:"primary_key"`
	PrimaryKeySource     *string  `json:"primary_key_source"`
	Entity               *Entity  `json:"entity"`
	Columns              []Column `json:"columns"`
	// Unread says why the table could not be read or profiled; optional,
	// absent for a table the run saw whole.
	Unread *Unread `json:"unread,omitempty"`

	// Declared indexes (the primary key's and a UNIQUE constraint's own
	// excluded) and unique constraints and unique indexes (the primary key
	// excluded): optional in schema_version 1 (issue 22, with the rest of
	// the declared structure), absent when the table declares none.
	Indexes []Index    `json:"indexes,omitempty"`
	Uniques [][]string `json:"uniques,omitempty"`

	// The declared structure beyond keys (issue 22), optional in
	// schema_version 1, absent when the engine declares none.
	// Comment is the database's own comment; UserComment what the team
	// wrote in discover.yaml (comments:), shown as theirs beside it.
	Comment        string    `json:"comment,omitempty"`
	UserComment    string    `json:"user_comment,omitempty"`
	PrimaryKeyName string    `json:"primary_key_name,omitempty"`
	Definition     string    `json:"definition,omitempty"` // a view's query
	Reads          []string  `json:"reads,omitempty"`      // the tables and views a view reads
	Checks         []Check   `json:"checks,omitempty"`
	Triggers       []Trigger `json:"triggers,omitempty"`
	// ConstraintComments are the database's comments on the table's
	// constraints, by constraint name.
	ConstraintComments map[string]string `json:"constraint_comments,omitempty"`
	// Foreign marks a foreign table (PostgreSQL's, read through a
	// foreign-data wrapper), said "foreign table" on the pages.
	Foreign bool `json:"foreign,omitempty"`
	// CreateStatement is the statement that creates a table, as the
	// engine keeps it (SQLite, MySQL/MariaDB, DuckDB, Trino, Spark SQL); a
	// view's query is Definition.
	CreateStatement string `json:"create_statement,omitempty"`
	// Materialized marks a view whose rows are stored (PostgreSQL's
	// materialized view).
	Materialized bool `json:"materialized,omitempty"`
}

// Enum is an enumerated type: its labels in their declared order and the
// columns (table.column) that hold it, directly or as an array's elements.
type Enum struct {
	Name    string   `json:"name"`
	Labels  []string `json:"labels"`
	Columns []string `json:"columns"`
	Comment string   `json:"comment,omitempty"`
}

// Routine is a function, procedure, aggregate or macro the database's
// users declared: Kind function, procedure, aggregate, window or macro;
// Arguments and Returns as the engine writes them, Returns absent for a
// procedure.
type Routine struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Arguments string `json:"arguments"`
	Returns   string `json:"returns,omitempty"`
	Language  string `json:"language,omitempty"`
	Comment   string `json:"comment,omitempty"`
}

// Check is a declared CHECK constraint.
type Check struct {
	Name       string `json:"name,omitempty"`
	Expression string `json:"expression"`
}

// Trigger is a declared trigger: Timing BEFORE, AFTER or INSTEAD OF;
// Events INSERT, UPDATE, DELETE, TRUNCATE.
type Trigger struct {
	Name       string   `json:"name"`
	Timing     string   `json:"timing"`
	Events     []string `json:"events"`
	Definition string   `json:"definition"`
	Comment    string   `json:"comment,omitempty"` // the database's own
}

// Unread is why a table is shown without its structure or figures: What is
// "table" (never read) or "profile" (read, not profiled).
type Unread struct {
	What   string `json:"what"`
	Reason string `json:"reason"`
}

// verb is what could not be done to the table: "read" or "profiled".
func (u *Unread) verb() string {
	if u.What == catalog.UnseenProfile {
		return "profiled"
	}
	return "read"
}

// Index is a declared index. A key part that is an expression is its
// text; Predicate is a partial index's condition, Definition the statement
// that creates it, where the engine keeps one.
type Index struct {
	Name       string   `json:"name"`
	Columns    []string `json:"columns"`
	Unique     bool     `json:"unique"`
	Predicate  string   `json:"predicate,omitempty"`
	Definition string   `json:"definition,omitempty"`
	Comment    string   `json:"comment,omitempty"` // the database's own
}

// Entity names what a table's rows are.
type Entity struct {
	Type        string  `json:"type"`
	Description string  `json:"description"`
	Confidence  float64 `json:"confidence"`
}

// Column is one column with its profile and meaning.
type Column struct {
	Name               string       `json:"name"`
	DataType           string       `json:"data_type"`
	Nullable           bool         `json:"nullable"`
	NullFraction       *float64     `json:"null_fraction"`
	DistinctCount      *int64       `json:"distinct_count"`
	DistinctIsEstimate bool         `json:"distinct_is_estimate"`
	Min                *string      `json:"min"`
	Max                *string      `json:"max"`
	Mean               *float64     `json:"mean"`
	Stddev             *float64     `json:"stddev"`
	TopValues          []ValueCount `json:"top_values"`
	SemanticType       *string      `json:"semantic_type"`
	SemanticConfidence *float64     `json:"semantic_confidence"`
	Anomalies          []Anomaly    `json:"anomalies"`
	// Histogram is optional in schema_version 1 (added after it was
	// published, so older reports lack it); this package always writes it,
	// null for columns without numeric values.
	Histogram *Histogram `json:"histogram"`
	// PII is optional in schema_version 1 (added after it was published):
	// the personal data the column holds, null when none was found.
	PII *PII `json:"pii"`
	// The declared structure beyond the type (issue 22), optional in
	// schema_version 1, absent when not declared: the default expression,
	// the database's comment and the team's (discover.yaml), a generated
	// column's expression, and how the engine numbers an identity column
	// (always, by_default, auto_increment).
	Default         *string `json:"default,omitempty"`
	Comment         string  `json:"comment,omitempty"`
	UserComment     string  `json:"user_comment,omitempty"`
	Generated       string  `json:"generated,omitempty"`
	GeneratedStored bool    `json:"generated_stored,omitempty"`
	Identity        string  `json:"identity,omitempty"`
	// OnUpdate is what MySQL sets the column to when its row is updated
	// (ON UPDATE current_timestamp()).
	OnUpdate string `json:"on_update,omitempty"`
	// Enum names the enumerated type the column holds (Report.Enums).
	Enum string `json:"enum,omitempty"`

	// ProfileRows is how many rows the column's profile read, and
	// ProfileSampled whether its figures were counted on a sample (or the
	// planner's statistics) rather than every row: a NULL fraction of 0
	// measured on a sample proves nothing about the rest. Lint and the
	// formats that turn figures into tests (export/dbt) need to know. Not
	// (yet) part of report.json.
	ProfileRows    int64 `json:"-"`
	ProfileSampled bool  `json:"-"`
}

// PII is a column's kind of personal data: its category (email, phone,
// person_name, postal_address, national_id, payment_card, iban,
// ip_address, date_of_birth, free_text), how sure, and why, in counts.
type PII struct {
	Category   string   `json:"category"`
	Confidence float64  `json:"confidence"`
	Evidence   []string `json:"evidence"`
}

// Histogram is a numeric column's equi-depth histogram, as the statistical
// expert measured it: Bounds are the least value, the deciles and the
// greatest value; Counts[i] the values in (Bounds[i], Bounds[i+1]], the first
// bucket including its lower bound. Counts is [] when the engine gave the
// bounds only: each bucket then holds about a tenth of the values.
type Histogram struct {
	Bounds   []float64 `json:"bounds"`
	Counts   []int64   `json:"counts"`
	Estimate bool      `json:"estimate"`
}

// ValueCount is one frequent value.
type ValueCount struct {
	Value    string  `json:"value"`
	Count    int64   `json:"count"`
	Fraction float64 `json:"fraction"`
}

// Anomaly is something odd found in a column.
type Anomaly struct {
	Kind        string   `json:"kind"`
	Description string   `json:"description"`
	Count       int64    `json:"count"`
	Examples    []string `json:"examples"`
}

// Relationship is a reference between tables.
type Relationship struct {
	FromTable      string   `json:"from_table"`
	FromColumns    []string `json:"from_columns"`
	ToTable        string   `json:"to_table"`
	ToColumns      []string `json:"to_columns"`
	Source         string   `json:"source"`
	Cardinality    *string  `json:"cardinality"`
	Confidence     float64  `json:"confidence"`
	OrphanFraction *float64 `json:"orphan_fraction"`
	Evidence       []string `json:"evidence"`
	// A declared reference's constraint name and referential actions
	// (NO ACTION, RESTRICT, CASCADE, SET NULL, SET DEFAULT), optional in
	// schema_version 1, absent where not declared or not said.
	ConstraintName string `json:"constraint_name,omitempty"`
	OnDelete       string `json:"on_delete,omitempty"`
	OnUpdate       string `json:"on_update,omitempty"`
}

// Pattern is a structural pattern.
type Pattern struct {
	Kind        string   `json:"kind"`
	Tables      []string `json:"tables"`
	Description string   `json:"description"`
	Confidence  float64  `json:"confidence"`
}

// Insight is an observation about the data.
type Insight struct {
	Kind        string   `json:"kind"`
	Tables      []string `json:"tables"`
	Columns     []string `json:"columns"`
	Description string   `json:"description"`
	Confidence  float64  `json:"confidence"`
	Evidence    []string `json:"evidence"`
}

// Hypothesis is a tested (or proposed) claim. Expected (the outcome that
// confirms it) and ConfidenceBefore (the proposer's confidence before the
// test; Confidence is the one after) are null when the proposer gave none.
type Hypothesis struct {
	ID               string   `json:"id"`
	Statement        string   `json:"statement"`
	Status           string   `json:"status"`
	Confidence       float64  `json:"confidence"`
	Expert           string   `json:"expert"`
	TestSQL          string   `json:"test_sql"`
	Evidence         []string `json:"evidence"`
	Expected         *string  `json:"expected"`
	ConfidenceBefore *float64 `json:"confidence_before"`
}

// Recommendation is advice for users of the database. Validated says the
// SQL (or the query the advice serves) passed the guard and the engine,
// by EXPLAIN or by running it with a LIMIT; Evidence says how.
type Recommendation struct {
	Kind        string   `json:"kind"`
	Description string   `json:"description"`
	SQL         string   `json:"sql"`
	Validated   bool     `json:"validated"`
	Evidence    []string `json:"evidence"`
}

// TagValidated marks a recommendation entry whose SQL was validated.
const TagValidated = "validated"

// Input is everything a report is built from.
type Input struct {
	Run     catalog.Run
	Entries []catalog.Entry // the run's entries, all kinds, any order
	Options Options
}

// Options fill what the catalog may not know.
type Options struct {
	// LLMProvider and LLMModel are used when the run's saved state has no
	// provider or model (a run that crashed before its first save).
	LLMProvider string
	LLMModel    string
}

// FromCatalog loads run runID and its entries and builds its report.
func FromCatalog(ctx context.Context, cat *catalog.Catalog, runID string) (*Report, error) {
	run, err := cat.GetRun(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("report: cannot load run %s: %w", runID, err)
	}
	entries, err := cat.List(ctx, catalog.Filter{RunID: runID})
	if err != nil {
		return nil, fmt.Errorf("report: cannot load entries of run %s: %w", runID, err)
	}
	return Build(Input{Run: run, Entries: entries}), nil
}

// Build assembles the report from a run and its entries. It never fails:
// an entry whose document cannot be decoded is reported as an uncertainty
// rather than dropped silently, because the report is the user's only view
// of what the run found.
func Build(in Input) *Report {
	b := builder{
		profiles:  map[string]catalog.Entry{},
		semantics: map[string]catalog.Entry{},
		entities:  map[string]catalog.Entry{},
		stats:     map[string]catalog.Entry{},
		lists:     map[string][]catalog.Entry{},
	}
	b.sort(in.Entries)

	r := &Report{
		SchemaVersion: SchemaVersion,
		Database: Database{
			Dialect: in.Run.Dialect,
			Name:    in.Run.Database,
			DSN:     in.Run.DSN,
		},
		Run:             b.run(in.Run, in.Options),
		Domain:          b.domain(),
		Tables:          b.tables(),
		Relationships:   b.relationships(),
		Patterns:        b.patterns(),
		Insights:        b.insights(),
		Hypotheses:      b.hypotheses(),
		Recommendations: b.recommendations(),
	}
	r.Narrative = b.narrative()
	r.Privacy = b.privacy()
	r.Database.Connection = b.connection()
	r.Outcome = b.outcome()
	r.Tables = withUnread(r.Tables, r.Outcome)
	r.Enums, r.Routines = b.objects(r.Tables)
	// Uncertainties come last so that decode problems met above are included.
	r.Uncertainties = b.uncertaintyList()
	r.Summary = Summarize(r)
	return r
}

type builder struct {
	// Column-level and table-level findings are looked up by key while the
	// tables are assembled; every other kind is a list, kept in key order.
	profiles  map[string]catalog.Entry // by table.column
	semantics map[string]catalog.Entry // by table.column
	entities  map[string]catalog.Entry // by table
	stats     map[string]catalog.Entry // by table
	lists     map[string][]catalog.Entry
	problems  []string
}

func (b *builder) sort(entries []catalog.Entry) {
	// Sorting by kind and key first makes every later choice (which of two
	// duplicates wins, the order of lists) independent of the input order.
	es := slices.Clone(entries)
	slices.SortStableFunc(es, func(a, c catalog.Entry) int {
		return cmp.Or(cmp.Compare(a.Kind, c.Kind), cmp.Compare(a.Key, c.Key))
	})
	for _, e := range es {
		switch e.Kind {
		case catalog.KindProfile:
			b.profiles[e.Key] = e
		case catalog.KindSemantic:
			b.semantics[e.Key] = e
		case catalog.KindEntity:
			b.entities[e.Key] = e
		case catalog.KindTableStats:
			b.stats[e.Key] = e
		default:
			b.lists[e.Kind] = append(b.lists[e.Kind], e)
		}
	}
}

func (b *builder) connection() *Connection {
	for _, e := range b.lists[catalog.KindConnection] {
		var doc catalog.ConnectionDoc
		if !b.decode(e, &doc) {
			return nil
		}
		return &Connection{Role: doc.Role, Checked: doc.Checked, Privileged: doc.Privileged,
			Privileges: strs(doc.Privileges), UntrustedSQL: doc.UntrustedSQL}
	}
	return nil
}

func (b *builder) decode(e catalog.Entry, v any) bool {
	if err := e.Decode(v); err != nil {
		b.problems = append(b.problems,
			fmt.Sprintf("The catalog entry %s %q could not be read (%v), so it is missing from this report.", e.Kind, e.Key, err))
		return false
	}
	return true
}

func (b *builder) run(run catalog.Run, opts Options) Run {
	var st catalog.LoopState
	if len(run.State) > 0 && string(run.State) != "null" {
		if err := json.Unmarshal(run.State, &st); err != nil {
			b.problems = append(b.problems,
				fmt.Sprintf("The run's saved state could not be read (%v), so its iteration, confidence and coverage figures show as 0.", err))
			st = catalog.LoopState{}
		}
	}
	out := Run{
		ID:            run.ID,
		StartedAt:     timestamp(run.StartedAt),
		Iterations:    st.Iteration,
		StopReason:    nullable(run.StopReason),
		Confidence:    fraction(st.Confidence),
		Coverage:      fraction(st.Coverage),
		Queries:       st.Queries,
		CachedQueries: st.Cached,
		LLM: LLM{
			Provider: cmp.Or(st.LLM.Provider, opts.LLMProvider, "none"),
			Model:    cmp.Or(st.LLM.Model, opts.LLMModel),
			Calls:    st.LLM.Calls,
			Tokens:   st.LLM.Tokens,
		},
		Costs: costs(st.Costs),
	}
	if st.Reused != nil {
		out.Reused = &Reused{FromRun: st.Reused.FromRun, Entries: st.Reused.Entries, Tables: st.Reused.Tables}
	}
	if run.FinishedAt != nil {
		s := timestamp(*run.FinishedAt)
		out.FinishedAt = &s
	}
	return out
}

func (b *builder) domain() Domain {
	d := Domain{Evidence: []string{}}
	// Keys are unique per kind, so there is at most one; if a caller passes
	// several anyway, the first by key wins, deterministically.
	for _, e := range b.lists[catalog.KindDomain] {
		var doc catalog.DomainDoc
		if !b.decode(e, &doc) {
			continue
		}
		if doc.Label == "" {
			return d
		}
		d.Label = &doc.Label
		d.Confidence = fraction(e.Confidence)
		d.Evidence = strs(e.Evidence)
		return d
	}
	return d
}

func (b *builder) tables() []Table {
	byName := map[string]Table{}
	for _, e := range b.lists[catalog.KindTable] {
		var doc catalog.TableDoc
		if !b.decode(e, &doc) {
			continue
		}
		name := cmp.Or(doc.Name, e.Key)
		t := Table{
			Name:                 name,
			Kind:                 doc.Kind,
			RowCount:             doc.RowCount,
			RowCountIsEstimate:   doc.RowCountIsEstimate,
			RowCountIsLowerBound: doc.RowCountIsLowerBound && doc.RowCount != nil,
			PrimaryKey:           strs(doc.PrimaryKey),
			Columns:              []Column{},
			Indexes:              []Index{},
			Uniques:              [][]string{},
		}
		if t.RowCount == nil {
			t.RowCount, t.RowCountIsEstimate = b.countFromStats(name)
		}
		// A source without a key would be a claim about nothing.
		if len(t.PrimaryKey) > 0 {
			t.PrimaryKeySource = nullable(doc.PrimaryKeySource)
		}
		if e, ok := b.entities[name]; ok {
			var ed catalog.EntityDoc
			if b.decode(e, &ed) {
				t.Entity = &Entity{Type: ed.Type, Description: ed.Description, Confidence: fraction(e.Confidence)}
			}
		}
		cols := slices.Clone(doc.Columns)
		slices.SortStableFunc(cols, func(a, c catalog.ColumnDoc) int { return cmp.Compare(a.Position, c.Position) })
		for _, c := range cols {
			t.Columns = append(t.Columns, b.column(name, c))
		}
		for _, ix := range doc.Indexes {
			t.Indexes = append(t.Indexes, Index{Name: ix.Name, Columns: strs(ix.Columns), Unique: ix.Unique,
				Predicate: ix.Predicate, Definition: ix.Definition, Comment: ix.Comment})
		}
		for _, u := range doc.Uniques {
			t.Uniques = append(t.Uniques, strs(u))
		}
		t.Comment, t.UserComment = doc.Comment, doc.UserComment
		t.PrimaryKeyName, t.Definition, t.Materialized = doc.PrimaryKeyName, doc.Definition, doc.Materialized
		t.Reads = slices.Clone(doc.Reads)
		t.ConstraintComments, t.CreateStatement, t.Foreign = maps.Clone(doc.ConstraintComments), doc.CreateStatement, doc.Foreign
		for _, c := range doc.Checks {
			t.Checks = append(t.Checks, Check{Name: c.Name, Expression: c.Expression})
		}
		for _, tr := range doc.Triggers {
			t.Triggers = append(t.Triggers, Trigger{Name: tr.Name, Timing: tr.Timing, Events: strs(tr.Events), Definition: tr.Definition,
				Comment: tr.Comment})
		}
		byName[name] = t
	}
	out := make([]Table, 0, len(byName))
	for _, t := range byName {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, c Table) int { return cmp.Compare(a.Name, c.Name) })
	return out
}

// countFromStats uses the profiling pass's row count when the structural
// expert recorded none; a sampled pass counted only the sample, so it is no
// row count at all.
func (b *builder) countFromStats(table string) (*int64, bool) {
	e, ok := b.stats[table]
	if !ok {
		return nil, false
	}
	var doc catalog.TableStatsDoc
	if !b.decode(e, &doc) || doc.Sampled {
		return nil, false
	}
	n := doc.Rows
	return &n, false
}

func (b *builder) column(table string, c catalog.ColumnDoc) Column {
	key := table + "." + c.Name // the catalog's key for a column
	col := Column{
		Name:      c.Name,
		DataType:  c.DataType,
		Nullable:  c.Nullable,
		TopValues: []ValueCount{},
		Anomalies: []Anomaly{},

		Default: c.Default, Comment: c.Comment, UserComment: c.UserComment,
		Generated: c.Generated, GeneratedStored: c.GeneratedStored, Identity: c.Identity, OnUpdate: c.OnUpdate, Enum: c.Enum,
	}
	if e, ok := b.profiles[key]; ok {
		var p catalog.ProfileDoc
		if b.decode(e, &p) {
			if p.NullFraction != nil {
				f := fraction(*p.NullFraction)
				col.NullFraction = &f
			}
			col.DistinctCount = p.DistinctCount
			col.ProfileRows, col.ProfileSampled = p.Rows, p.Sampled || p.Provisional
			col.DistinctIsEstimate = p.DistinctIsEstimate
			col.Min, col.Max = p.Min, p.Max
			col.Mean, col.Stddev = finite(p.Mean), finite(p.Stddev)
			for _, v := range p.TopValues {
				col.TopValues = append(col.TopValues, ValueCount{Value: v.Value, Count: v.Count, Fraction: fraction(v.Fraction)})
			}
			for _, a := range p.Anomalies {
				col.Anomalies = append(col.Anomalies, Anomaly{Kind: a.Kind, Description: a.Description, Count: a.Count, Examples: strs(a.Examples)})
			}
			col.Histogram = histogram(p.Histogram)
		}
	}
	if e, ok := b.semantics[key]; ok {
		var s catalog.SemanticDoc
		if b.decode(e, &s) && s.SemanticType != "" {
			col.SemanticType = &s.SemanticType
			f := fraction(e.Confidence)
			col.SemanticConfidence = &f
		}
		if s.PII != nil {
			col.PII = &PII{Category: s.PII.Category, Confidence: fraction(s.PII.Confidence), Evidence: strs(s.PII.Evidence)}
		}
	}
	return col
}

func (b *builder) relationships() []Relationship {
	out := []Relationship{}
	for _, e := range b.lists[catalog.KindRelationship] {
		var doc catalog.RelationshipDoc
		if !b.decode(e, &doc) {
			continue
		}
		rel := Relationship{
			FromTable:   doc.FromTable,
			FromColumns: strs(doc.FromColumns),
			ToTable:     doc.ToTable,
			ToColumns:   strs(doc.ToColumns),
			Source:      doc.Source,
			Cardinality: nullable(doc.Cardinality),
			Confidence:  fraction(e.Confidence),
			Evidence:    strs(e.Evidence),

			ConstraintName: doc.ConstraintName, OnDelete: doc.OnDelete, OnUpdate: doc.OnUpdate,
		}
		if doc.OrphanFraction != nil {
			f := fraction(*doc.OrphanFraction)
			rel.OrphanFraction = &f
		}
		out = append(out, rel)
	}
	slices.SortStableFunc(out, func(a, c Relationship) int {
		return cmp.Or(
			cmp.Compare(a.FromTable, c.FromTable),
			slices.Compare(a.FromColumns, c.FromColumns),
			cmp.Compare(a.ToTable, c.ToTable),
			slices.Compare(a.ToColumns, c.ToColumns),
		)
	})
	return out
}

// histogram copies a catalog histogram into the report, dropping one that
// JSON cannot carry (a NaN or infinite bound) or whose counts do not fit its
// buckets, since a renderer would draw it wrong.
func histogram(h *catalog.Histogram) *Histogram {
	if h == nil || len(h.Bounds) < 2 {
		return nil
	}
	for _, b := range h.Bounds {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return nil
		}
	}
	if len(h.Counts) != 0 && len(h.Counts) != len(h.Bounds)-1 {
		return nil
	}
	counts := slices.Clone(h.Counts)
	if counts == nil {
		counts = []int64{}
	}
	return &Histogram{Bounds: slices.Clone(h.Bounds), Counts: counts, Estimate: h.Estimate}
}

// byKindKey orders findings by their document's kind, then the entry key;
// the entries arrive sorted by key, so a stable sort on kind is enough.
func byKindKey[T any](items []T, kind func(T) string) {
	slices.SortStableFunc(items, func(a, c T) int { return cmp.Compare(kind(a), kind(c)) })
}

func (b *builder) patterns() []Pattern {
	out := []Pattern{}
	for _, e := range b.lists[catalog.KindPattern] {
		var doc catalog.PatternDoc
		if !b.decode(e, &doc) {
			continue
		}
		out = append(out, Pattern{Kind: doc.Kind, Tables: strs(doc.Tables), Description: doc.Description, Confidence: fraction(e.Confidence)})
	}
	byKindKey(out, func(p Pattern) string { return p.Kind })
	return out
}

func (b *builder) insights() []Insight {
	out := []Insight{}
	for _, e := range b.lists[catalog.KindInsight] {
		var doc catalog.InsightDoc
		if !b.decode(e, &doc) {
			continue
		}
		out = append(out, Insight{
			Kind: doc.Kind, Tables: strs(doc.Tables), Columns: strs(doc.Columns),
			Description: doc.Description, Confidence: fraction(e.Confidence), Evidence: strs(e.Evidence),
		})
	}
	byKindKey(out, func(i Insight) string { return i.Kind })
	return out
}

// narrative is the model's summary, if one was written.
func (b *builder) narrative() *Narrative {
	for _, e := range b.lists[catalog.KindNarrative] {
		var doc catalog.NarrativeDoc
		if e.Key != "llm:narrative" || !b.decode(e, &doc) || doc.Text == "" {
			continue
		}
		name := strings.TrimSpace(doc.Provider + " " + doc.Model)
		return &Narrative{Text: doc.Text, WrittenBy: "model", Provider: doc.Provider, Model: doc.Model, Prompt: doc.Prompt,
			Note: fmt.Sprintf("Written by the model (%s), not checked against the data.", name)}
	}
	return nil
}

// objects are the database's enumerated types, each with the columns of
// tables that hold it, and its routines.
func (b *builder) objects(tables []Table) ([]Enum, []Routine) {
	var enums []Enum
	var routines []Routine
	for _, e := range b.lists[catalog.KindObjects] {
		var doc catalog.ObjectsDoc
		if !b.decode(e, &doc) {
			continue
		}
		for _, en := range doc.Enums {
			enum := Enum{Name: en.Name, Labels: strs(en.Labels), Columns: []string{}, Comment: en.Comment}
			for _, t := range tables {
				for _, c := range t.Columns {
					if c.Enum == en.Name {
						enum.Columns = append(enum.Columns, t.Name+"."+c.Name)
					}
				}
			}
			enums = append(enums, enum)
		}
		for _, r := range doc.Routines {
			routines = append(routines, Routine{Name: r.Name, Kind: r.Kind, Arguments: r.Arguments, Returns: r.Returns,
				Language: r.Language, Comment: r.Comment})
		}
	}
	return enums, routines
}

func (b *builder) privacy() *Privacy {
	for _, e := range b.lists[catalog.KindPrivacy] {
		var doc catalog.PrivacyDoc
		if b.decode(e, &doc) {
			return &Privacy{ValuesMasked: doc.ValuesMasked, Columns: doc.Columns}
		}
	}
	return nil
}

func (b *builder) hypotheses() []Hypothesis {
	out := []Hypothesis{}
	for _, e := range b.lists[catalog.KindHypothesis] {
		// The hypotheses package stores HypothesisDoc's fields and two more.
		var doc struct {
			catalog.HypothesisDoc
			Expected         string   `json:"expected"`
			ConfidenceBefore *float64 `json:"confidence_before"`
		}
		if !b.decode(e, &doc) {
			continue
		}
		var before *float64
		if doc.ConfidenceBefore != nil {
			f := fraction(*doc.ConfidenceBefore)
			before = &f
		}
		out = append(out, Hypothesis{
			Expected:         nullable(doc.Expected),
			ConfidenceBefore: before,
			ID:               cmp.Or(doc.ID, e.Key),
			Statement:        doc.Statement,
			// A hypothesis without a verdict has, by definition, only been proposed.
			Status:     cmp.Or(doc.Status, "proposed"),
			Confidence: fraction(e.Confidence),
			Expert:     e.Expert,
			TestSQL:    doc.TestSQL,
			Evidence:   strs(e.Evidence),
		})
	}
	return out
}

func (b *builder) recommendations() []Recommendation {
	out := []Recommendation{}
	for _, e := range b.lists[catalog.KindRecommendation] {
		var doc catalog.RecommendationDoc
		if !b.decode(e, &doc) {
			continue
		}
		out = append(out, Recommendation{Kind: doc.Kind, Description: doc.Description, SQL: doc.SQL,
			Validated: slices.Contains(e.Tags, TagValidated), Evidence: strs(e.Evidence)})
	}
	byKindKey(out, func(r Recommendation) string { return r.Kind })
	return out
}

func (b *builder) uncertaintyList() []string {
	out := []string{}
	for _, e := range b.lists[catalog.KindUncertainty] {
		var doc catalog.UncertaintyDoc
		if !b.decode(e, &doc) || doc.Description == "" {
			continue
		}
		out = append(out, doc.Description)
	}
	return append(out, b.problems...)
}

// timestamp writes RFC3339 in UTC so that the same run renders the same
// bytes wherever the report is produced.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// fraction keeps a figure inside [0,1]; NaN (which JSON cannot carry) is 0.
func fraction(f float64) float64 {
	switch {
	case math.IsNaN(f) || f < 0:
		return 0
	case f > 1:
		return 1
	}
	return f
}

// finite drops values JSON cannot encode rather than fail the whole report.
func finite(f *float64) *float64 {
	if f == nil || math.IsNaN(*f) || math.IsInf(*f, 0) {
		return nil
	}
	return f
}

// strs returns a non-nil copy, so that JSON shows [] and the report shares
// no backing array with the caller's entries.
func strs(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}
