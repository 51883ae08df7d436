package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Entry is one finding in the catalog.
type Entry struct {
	ID         int64           `json:"id"`
	Kind       string          `json:"kind"`
	Key        string          `json:"key"`
	Document   json.RawMessage `json:"document"`
	Tags       []string        `json:"tags"`
	Expert     string          `json:"expert"`
	Confidence float64         `json:"confidence"`
	Evidence   []string        `json:"evidence"`
	RunID      string          `json:"run_id"`
	Iteration  int             `json:"iteration"`
	CreatedAt  time.Time       `json:"created_at"`
}

// Decode unmarshals the entry's document into v.
func (e Entry) Decode(v any) error { return json.Unmarshal(e.Document, v) }

// NewEntry builds an entry whose document is doc marshalled to JSON. A kind
// nobody declared, or a document not of its kind's type, is an error.
func NewEntry(kind, key string, doc any) (Entry, error) {
	if err := checkDoc(kind, doc); err != nil {
		return Entry{}, err
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Kind: kind, Key: key, Document: b}, nil
}

// Run is one discovery run recorded in the catalog.
type Run struct {
	ID         string          `json:"id"`
	DSN        string          `json:"dsn"` // redacted, never a password
	Dialect    string          `json:"dialect"`
	Database   string          `json:"database"`
	StartedAt  time.Time       `json:"started_at"`
	FinishedAt *time.Time      `json:"finished_at"` // nil while running or after a crash
	StopReason string          `json:"stop_reason"`
	State      json.RawMessage `json:"state"` // the orchestrator's loop state
	Options    json.RawMessage `json:"options"`
	// Basis is what the run's findings rest on (a RunBasis), taken before
	// it read any data and written once, with the run: a later run whose
	// basis is the same may reuse them (package incremental). Absent from
	// runs of catalogs written before it.
	Basis json.RawMessage `json:"basis,omitempty"`
}

// ColumnDoc is a declared column, as the structural expert saw it.
type ColumnDoc struct {
	Name     string `json:"name"`
	DataType string `json:"data_type"`
	Nullable bool   `json:"nullable"`
	Position int    `json:"position"`
	// The declared structure beyond the type (warehouse.Column), and the
	// team's description from discover.yaml (comments:); absent where
	// none, and from catalogs written before them.
	Default         *string `json:"default,omitempty"`
	Comment         string  `json:"comment,omitempty"`
	UserComment     string  `json:"user_comment,omitempty"`
	Generated       string  `json:"generated,omitempty"`
	GeneratedStored bool    `json:"generated_stored,omitempty"`
	Identity        string  `json:"identity,omitempty"`
	// OnUpdate is what MySQL sets the column to when its row is updated.
	OnUpdate string `json:"on_update,omitempty"`
	// Enum is the enumerated type the column holds, named as ObjectsDoc
	// names it (warehouse.Column.Enum).
	Enum string `json:"enum,omitempty"`
}

// ObjectsDoc is what the database declares beside its tables and views
// (KindObjects, key "objects"): its enumerated types and the routines its
// users declared (warehouse.Objects). Names are written as tables' are.
type ObjectsDoc struct {
	Enums    []EnumDoc    `json:"enums,omitempty"`
	Routines []RoutineDoc `json:"routines,omitempty"`
}

// EnumDoc is an enumerated type and its labels in their declared order.
type EnumDoc struct {
	Name    string   `json:"name"`
	Labels  []string `json:"labels"`
	Comment string   `json:"comment,omitempty"`
}

// RoutineDoc is a function, procedure, aggregate or macro: Kind is
// "function", "procedure", "aggregate", "window" or "macro"; Arguments
// and Returns as the engine writes them (Returns "" for a procedure).
type RoutineDoc struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Arguments string `json:"arguments"`
	Returns   string `json:"returns,omitempty"`
	Language  string `json:"language,omitempty"`
	Comment   string `json:"comment,omitempty"`
}

// IndexDoc is a declared index. A key part that is an expression is its
// text; Predicate is a partial index's condition, Definition the statement
// that creates it (both absent from older catalogs).
type IndexDoc struct {
	Name       string   `json:"name"`
	Columns    []string `json:"columns"`
	Unique     bool     `json:"unique"`
	Predicate  string   `json:"predicate,omitempty"`
	Definition string   `json:"definition,omitempty"`
	Comment    string   `json:"comment,omitempty"`
}

// CheckDoc is a declared CHECK constraint; Name is "" where the engine
// names none.
type CheckDoc struct {
	Name       string `json:"name,omitempty"`
	Expression string `json:"expression"`
}

// TriggerDoc is a declared trigger: Timing BEFORE, AFTER or INSTEAD OF,
// Events among INSERT, UPDATE, DELETE, TRUNCATE.
type TriggerDoc struct {
	Name       string   `json:"name"`
	Timing     string   `json:"timing"`
	Events     []string `json:"events"`
	Definition string   `json:"definition"`
	Comment    string   `json:"comment,omitempty"`
}

// TableDoc is a table's declared structure (KindTable).
type TableDoc struct {
	Name               string `json:"name"` // as in report.json: bare or schema.table
	Kind               string `json:"kind"` // table | view
	RowCount           *int64 `json:"row_count"`
	RowCountIsEstimate bool   `json:"row_count_is_estimate"`
	// RowCountIsLowerBound: the count stopped before the table's end (a
	// view, or a table nothing could estimate, larger than ten samples):
	// the table holds at least RowCount rows, more than RowCount−1, how
	// many more is not known. RowCountIsEstimate is set with it. Absent
	// from catalogs written before it, which recorded no such count.
	RowCountIsLowerBound bool        `json:"row_count_is_lower_bound,omitempty"`
	PrimaryKey           []string    `json:"primary_key"`
	PrimaryKeySource     string      `json:"primary_key_source"` // declared | inferred | "" when none
	Columns              []ColumnDoc `json:"columns"`
	Uniques              [][]string  `json:"uniques"`
	Indexes              []IndexDoc  `json:"indexes"`
	// The declared structure beyond keys (warehouse.Table), and the team's
	// description from discover.yaml (comments:); absent where none, and
	// from catalogs written before them. Reads names tables as Name does.
	PrimaryKeyName string       `json:"primary_key_name,omitempty"`
	Comment        string       `json:"comment,omitempty"`
	UserComment    string       `json:"user_comment,omitempty"`
	Definition     string       `json:"definition,omitempty"`
	Reads          []string     `json:"reads,omitempty"`
	Checks         []CheckDoc   `json:"checks,omitempty"`
	Triggers       []TriggerDoc `json:"triggers,omitempty"`
	Materialized   bool         `json:"materialized,omitempty"`
	// ConstraintComments are the database's comments on constraints, by
	// constraint name (warehouse.Table.ConstraintComments).
	ConstraintComments map[string]string `json:"constraint_comments,omitempty"`
	// CreateStatement is the statement that creates a table
	// (warehouse.Table.CreateStatement).
	CreateStatement string `json:"create_statement,omitempty"`
	// Foreign marks a foreign table (warehouse.Table.Foreign).
	Foreign bool `json:"foreign,omitempty"`
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

// ProfileDoc is a column's statistics (KindProfile). Nil pointers are unknown.
type ProfileDoc struct {
	Table              string       `json:"table"`
	Column             string       `json:"column"`
	Rows               int64        `json:"rows"` // rows the profile was computed on
	Sampled            bool         `json:"sampled"`
	NullFraction       *float64     `json:"null_fraction"`
	DistinctCount      *int64       `json:"distinct_count"`
	DistinctIsEstimate bool         `json:"distinct_is_estimate"`
	Min                *string      `json:"min"`
	Max                *string      `json:"max"`
	Mean               *float64     `json:"mean"`
	Stddev             *float64     `json:"stddev"`
	TopValues          []ValueCount `json:"top_values"`
	Anomalies          []Anomaly    `json:"anomalies"`
	// Provisional marks a profile taken from the engine's own statistics
	// (pg_stats) before anything was measured; experts that decide once
	// (semantic types, relationship inference) wait for the measured one.
	Provisional bool `json:"provisional,omitempty"`
	// Quantiles of the numeric values, nil for columns that hold none.
	Quantiles *Quantiles `json:"quantiles,omitempty"`
	// TextLength of the text values in characters, nil for non-text columns.
	TextLength *TextLength `json:"text_length,omitempty"`
	// Histogram of the numeric values, nil when none was computed.
	Histogram *Histogram `json:"histogram,omitempty"`
	// ValuePatterns are the shapes of a text column's values (email, URL,
	// UUID, phone, date, timestamp, number, JSON) with the share of values
	// of each. The statistical expert fills it from the values it saw: all
	// values of a column with few distinct values, a sample otherwise.
	ValuePatterns []ValuePattern `json:"value_patterns,omitempty"`
	// Sealed says the values it quotes (Values) are sealed (Seal): written
	// before anyone knew whether the column is personal, during a run that
	// masks personal values. SealedValues are those values sealed, in the
	// order of Values, beside their masks: a personal column's profile
	// while its run goes on. Decoding gives the values back in the
	// process that sealed them (package redact's Guard), so that the run's
	// experts read what they read without it; the run's end drops them.
	Sealed       bool     `json:"sealed,omitempty"`
	SealedValues []string `json:"sealed_values,omitempty"`
	// SealedFigures are the figures of a sealed profile that are values
	// of the column, or move with one (Mean, Quantiles, Histogram: a
	// national number stored as an integer is its own least, median and
	// histogram bound), sealed as one JSON document, their fields left
	// nil in the file. Decoding gives them back in the process that
	// sealed them, as it does the values.
	SealedFigures string `json:"sealed_figures,omitempty"`
	// MaskedBy is the run whose last pass (package redact's Guard.Finish)
	// wrote the values it quotes as their masks, keeping the raw ones
	// beside the run's sealing key until the run finishes: a process that
	// resumes that run without the key knows it must read the column
	// again. A run, not a flag: a later run that takes this profile over
	// (incremental's adoption of unchanged tables) has nothing to redo.
	MaskedBy string `json:"masked_by,omitempty"`
}

// Values are the column's values the profile quotes: its least and
// greatest, its top values and its anomalies' examples (what masking a
// personal-data column's values has to find).
func (p ProfileDoc) Values() []string {
	var out []string
	for _, v := range []*string{p.Min, p.Max} {
		if v != nil {
			out = append(out, *v)
		}
	}
	for _, tv := range p.TopValues {
		out = append(out, tv.Value)
	}
	for _, a := range p.Anomalies {
		out = append(out, a.Examples...)
	}
	return out
}

// ValuePattern is the share of a column's classified values that have one
// shape (experts/valueclass). Sample is how many values were classified,
// each counted as often as it occurs.
type ValuePattern struct {
	Class  string  `json:"class"`
	Share  float64 `json:"share"`
	Sample int64   `json:"sample"`
}

// Histogram is an equi-depth histogram: Bounds are the least value, the
// deciles and the greatest value (len(Counts)+1 of them), and Counts[i] the
// values in (Bounds[i], Bounds[i+1]], the first bucket including its lower
// bound. Ties make buckets uneven; a bucket between equal bounds is empty.
// Counts is empty when the engine gave the bounds only (its percentile
// function): each bucket then holds about a tenth of the values.
type Histogram struct {
	Bounds   []float64 `json:"bounds"`
	Counts   []int64   `json:"counts"`
	Estimate bool      `json:"estimate"` // from a sample or a sketch
}

// Quantiles are points of a numeric column's distribution. Estimate is true
// when they come from a sample or a sketch (Trino's t-digest) rather than an
// exact sort of every value.
type Quantiles struct {
	P25      float64 `json:"p25"`
	P50      float64 `json:"p50"`
	P75      float64 `json:"p75"`
	P95      float64 `json:"p95"`
	Estimate bool    `json:"estimate"`
}

// TextLength summarizes the lengths of a text column's non-null values.
type TextLength struct {
	Min int64   `json:"min"`
	Avg float64 `json:"avg"`
	Max int64   `json:"max"`
}

// TableStatsDoc records a table's profiling pass (KindTableStats).
type TableStatsDoc struct {
	Table    string `json:"table"`
	Rows     int64  `json:"rows"`
	Sampled  bool   `json:"sampled"`
	Queries  int    `json:"queries"`
	Duration string `json:"duration"`
	// KeyCandidates are the columns that identify rows: declared keys and
	// columns unique in practice, with how complete and unique they are.
	KeyCandidates []KeyCandidate `json:"key_candidates,omitempty"`
	// Sample names the sample a sampled profile read (experts.SampleID of
	// its FROM item): another expert that reads the table through the
	// same sample sees the same rows, and may take the profile's figures
	// for what it would count again.
	Sample string `json:"sample,omitempty"`
}

// KeyCandidate is one column that could identify a table's rows.
// Completeness is the share of rows with a value, uniqueness the share of
// those values that are distinct; a true key has 1 and 1.
type KeyCandidate struct {
	Column       string  `json:"column"`
	Declared     bool    `json:"declared"` // a declared primary key or unique constraint
	Completeness float64 `json:"completeness"`
	Uniqueness   float64 `json:"uniqueness"`
	Estimate     bool    `json:"estimate"` // from a sample or a sketch
}

// SemanticDoc is a column's meaning (KindSemantic).
type SemanticDoc struct {
	Table        string   `json:"table"`
	Column       string   `json:"column"`
	SemanticType string   `json:"semantic_type"`
	Reasons      []string `json:"reasons"`
	// PII is the personal data the column holds (package privacy), nil
	// when none was found.
	PII *PIIDoc `json:"pii,omitempty"`
}

// PrivacyDoc says what a finished run did with the values of its
// personal-data columns (KindPrivacy, package redact): masked them in the
// catalog (and so in every report), or left them as they are because the
// user asked to see them (--show-pii).
//
// It says what the catalog holds, not what one pass did: a re-run that
// takes an earlier run's findings, masked already, records the same.
type PrivacyDoc struct {
	ValuesMasked bool `json:"values_masked"`
	Columns      int  `json:"columns"` // personal-data columns
}

// PIIDoc is a column's kind of personal data (privacy.Detect): its
// category, how sure, and why, in counts, never a value.
type PIIDoc struct {
	Category   string   `json:"category"`
	Confidence float64  `json:"confidence"`
	Evidence   []string `json:"evidence"`
}

// EntityDoc names what a table's rows are (KindEntity).
type EntityDoc struct {
	Table       string `json:"table"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

// RelationshipDoc is a reference between tables (KindRelationship).
type RelationshipDoc struct {
	FromTable      string   `json:"from_table"`
	FromColumns    []string `json:"from_columns"`
	ToTable        string   `json:"to_table"`
	ToColumns      []string `json:"to_columns"`
	Source         string   `json:"source"`      // declared | inferred | user
	Cardinality    string   `json:"cardinality"` // one_to_one | one_to_many | many_to_many
	OrphanFraction *float64 `json:"orphan_fraction"`
	// A declared reference's constraint name and referential actions, as
	// the engine says them; absent otherwise, and from older catalogs.
	ConstraintName string `json:"constraint_name,omitempty"`
	OnDelete       string `json:"on_delete,omitempty"`
	OnUpdate       string `json:"on_update,omitempty"`
}

// Key is the relationship's catalog key, from its columns alone: a
// reference declared, configured and inferred is one entry, and the report,
// its diff and the hypotheses about it name it the same way.
func (r RelationshipDoc) Key() string {
	return RelationshipKey(r.FromTable, r.FromColumns, r.ToTable, r.ToColumns)
}

// RelationshipKey is RelationshipDoc.Key for a reference held in another
// type (the report's).
func RelationshipKey(fromTable string, fromColumns []string, toTable string, toColumns []string) string {
	return fmt.Sprintf("%s(%s)->%s(%s)", fromTable, strings.Join(fromColumns, ","), toTable, strings.Join(toColumns, ","))
}

// PatternDoc is a structural pattern (KindPattern).
type PatternDoc struct {
	Kind        string   `json:"kind"`
	Tables      []string `json:"tables"`
	Description string   `json:"description"`
}

// InsightDoc is an observation about the data (KindInsight).
type InsightDoc struct {
	Kind        string   `json:"kind"`
	Tables      []string `json:"tables"`
	Columns     []string `json:"columns"`
	Description string   `json:"description"`
}

// HypothesisDoc is a tested (or proposed) claim (KindHypothesis).
type HypothesisDoc struct {
	ID        string `json:"id"`
	Statement string `json:"statement"`
	Status    string `json:"status"` // confirmed | refuted | inconclusive | proposed
	TestSQL   string `json:"test_sql"`
	Subject   string `json:"subject"` // the finding it is about (an entry key), if any
}

// RecommendationDoc is advice for users of the database (KindRecommendation).
type RecommendationDoc struct {
	Kind        string `json:"kind"`
	Description string `json:"description"`
	SQL         string `json:"sql"`
}

// UncertaintyDoc is something the run could not settle (KindUncertainty).
type UncertaintyDoc struct {
	Description string `json:"description"`
}

// ConnectionDoc is what the connection's role could do beyond reading, as
// the engine reported it at the start of the run (KindConnection), and
// what became of untrusted SQL (the model's) because of it.
type ConnectionDoc struct {
	Role string `json:"role,omitempty"`
	// Checked is false when the engine has no roles (SQLite, DuckDB, Trino)
	// or the check failed (Error says why).
	Checked    bool     `json:"checked"`
	Error      string   `json:"error,omitempty"`
	Privileged bool     `json:"privileged"`
	Privileges []string `json:"privileges"`
	// UntrustedSQL is "allowed", "allowed (--allow-privileged)", "refused"
	// (a privileged connection), or "none" (no model in the run).
	UntrustedSQL string `json:"untrusted_sql"`
}

// DomainDoc is the business domain guess (KindDomain).
type DomainDoc struct {
	Label string `json:"label"`
}

// LLMUsage counts a run's model use.
type LLMUsage struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Calls    int64  `json:"calls"`
	Tokens   int64  `json:"tokens"`
}

// LoopState is the orchestrator's state, saved in Run.State every iteration.
type LoopState struct {
	Iteration  int     `json:"iteration"`
	Phase      int     `json:"phase"` // 1 exploration, 2 patterns, 3 hypotheses, 4 synthesis
	Confidence float64 `json:"confidence"`
	Coverage   float64 `json:"coverage"`
	Queries    int64   `json:"queries"`
	// Cached counts the statements answered from results kept by an
	// earlier run over tables that did not change (querycache), which
	// Queries does not count.
	Cached        int64          `json:"cached_queries,omitempty"`
	Contributions map[string]int `json:"contributions"` // findings per expert
	NewInsights   []int          `json:"new_insights"`  // per iteration, in order
	Satisfied     []string       `json:"satisfied"`     // experts with nothing left to do
	LLM           LLMUsage       `json:"llm"`
	// Failures counts the failed attempts of each task (expert "/" task),
	// so that a resumed run neither retries a task it gave up on nor gives
	// a failing one fresh attempts. Absent from catalogs written before it.
	Failures map[string]int `json:"failures,omitempty"`
	// GivenUp holds the tasks given up on (expert "/" task), with the table
	// each read and its last error: the run's outcome names them.
	GivenUp map[string]GivenUp `json:"given_up,omitempty"`
	// Costs say where the run's time went: each expert's tasks, and the
	// slowest tasks. Absent from catalogs written before it.
	Costs *RunCosts `json:"costs,omitempty"`
	// Reused is set on a run that took an earlier run's findings instead of
	// reading the database again.
	Reused *Reuse `json:"reused,omitempty"`
}

// RunBasis is what a run's findings depend on: the discover build, the
// settings, and each table's change signal (warehouse.ChangeSignaler)
// with its declared structure.
type RunBasis struct {
	// Build identifies the discover executable (a hash of its file).
	Build string `json:"build"`
	// Settings is a hash of every option and configuration entry that can
	// change a finding.
	Settings string `json:"settings"`
	// Tables holds each table's and view's signal by name; "" where the
	// engine cannot vouch for one.
	Tables map[string]string `json:"tables"`
	// Shared is set when every table has the same engine signal (a
	// database file's): a change anywhere is a change of every table.
	Shared bool `json:"shared,omitempty"`
	// Content holds each table's content signal (warehouse.ContentSignaler:
	// a digest of its pages), joined with its structure as Tables' are,
	// where the engine's signal is Shared and the run was a re-run, which
	// must tell the changed tables from the others. When a run and the
	// one before it both have it, they are compared on it instead of Tables,
	// and kept results are keyed by it.
	Content map[string]string `json:"content,omitempty"`
	// Objects is a hash of the database's enumerated types and routines
	// (warehouse.ObjectLister), where the source lists them: findings too,
	// which no table's signal covers.
	Objects string `json:"objects,omitempty"`
}

// Reuse says which run's findings a run took, and why it could.
type Reuse struct {
	FromRun string `json:"from_run"`
	// Entries is how many findings were taken.
	Entries int64 `json:"entries"`
	// Tables is how many tables' signals were compared.
	Tables int `json:"tables"`
}

// RunCosts are a run's task times, over every round (a resumed run's
// included).
type RunCosts struct {
	Experts map[string]ExpertCost `json:"experts"`
	// Slowest are the slowest task runs, slowest first, at most
	// SlowestTasks of them.
	Slowest []TaskCost `json:"slowest"`
}

// SlowestTasks is how many task runs RunCosts.Slowest keeps.
const SlowestTasks = 10

// ExpertCost is the time one expert's tasks took: their sum, which exceeds
// the run's wall-clock time when tasks run side by side.
type ExpertCost struct {
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

// Add records a task run of el seconds, failed or not.
func (c *RunCosts) Add(expert, task string, seconds float64, failed bool) {
	if c.Experts == nil {
		c.Experts = map[string]ExpertCost{}
	}
	e := c.Experts[expert]
	e.Tasks++
	if failed {
		e.Failed++
	}
	e.Seconds += seconds
	c.Experts[expert] = e
	i := len(c.Slowest)
	for i > 0 && c.Slowest[i-1].Seconds < seconds {
		i--
	}
	if i < SlowestTasks {
		c.Slowest = append(c.Slowest[:i], append([]TaskCost{{expert, task, seconds}}, c.Slowest[i:]...)...)
		if len(c.Slowest) > SlowestTasks {
			c.Slowest = c.Slowest[:SlowestTasks]
		}
	}
}

// GivenUp is a task the run stopped trying after repeated failures.
type GivenUp struct {
	Expert string `json:"expert"`
	Task   string `json:"task"`
	Table  string `json:"table,omitempty"`
	Error  string `json:"error"`
	// Milestone is the table milestone the task was to reach for Table
	// (experts.TableMilestone's Key), which now counts as given up.
	Milestone string `json:"milestone,omitempty"`
}

// Outcome statuses (OutcomeDoc.Status, report.json's outcome.status).
const (
	OutcomeComplete   = "complete"
	OutcomeIncomplete = "incomplete"
)

// OutcomeDoc is whether a finished run saw everything it set out to
// (KindOutcome): complete, or incomplete with what it could not see.
type OutcomeDoc struct {
	Status string   `json:"status"`
	Unseen []Unseen `json:"unseen"`
	// Tables is how many tables and views the run set out to read
	// (listed, filtered, and those the source left out).
	Tables int `json:"tables"`
}

// What a run could not see (Unseen.What).
const (
	UnseenTable   = "table"   // never read: no structure, no profile
	UnseenProfile = "profile" // read, but its statistics could not be taken
	UnseenColumn  = "column"  // one column could not be profiled
	UnseenTest    = "test"    // a planned test or task given up
)

// Unseen is one thing the run could not see, and why.
type Unseen struct {
	What  string `json:"what"`
	Table string `json:"table,omitempty"`
	Kind  string `json:"kind,omitempty"` // table | view, when known
	// Foreign marks a foreign table (warehouse.Table.Foreign): what holds
	// its rows, another server or a file, is the likelier cause.
	Foreign bool   `json:"foreign,omitempty"`
	Column  string `json:"column,omitempty"`
	Task    string `json:"task,omitempty"`
	Reason  string `json:"reason"`
}

// ProgressDoc marks a step an expert finished, so a resumed run skips it.
type ProgressDoc struct {
	Step   string `json:"step"`
	Detail string `json:"detail"`
}
