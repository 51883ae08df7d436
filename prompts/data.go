package prompts

// The data the templates render. Everything here reaches the model as JSON
// inside a <data> block: identifiers and values are quoted strings, never
// part of the instructions.

// Schema is the database as a prompt shows it, already compacted to the
// caller's token budget (Omitted says how many tables were left out).
type Schema struct {
	Dialect string  `json:"dialect"`
	Tables  []Table `json:"tables"`
	Omitted int     `json:"tables_omitted,omitempty"`
}

// Table is one table or view with what the experts found about it.
type Table struct {
	Name       string   `json:"name"`
	Kind       string   `json:"kind"`
	Rows       *int64   `json:"rows,omitempty"`
	PrimaryKey []string `json:"primary_key,omitempty"`
	References []string `json:"references,omitempty"` // "col -> table(col)"
	Entity     string   `json:"entity,omitempty"`
	Columns    []Column `json:"columns"`
}

// Column is one column with its profile, as far as it is known.
type Column struct {
	Name         string   `json:"name"`
	Type         string   `json:"type,omitempty"`
	Semantic     string   `json:"semantic_type,omitempty"`
	NullFraction *float64 `json:"null_fraction,omitempty"`
	Distinct     *int64   `json:"distinct,omitempty"`
	Examples     []string `json:"frequent_values,omitempty"`
	// Personal is the kind of personal data the column holds, when its
	// values are withheld from the prompt for that reason.
	Personal string `json:"personal_data_values_withheld,omitempty"`
}

// Hypotheses asks for claims about the data, each with one test query.
// Further formulations of a test (--llm-paths) are asked for one call at a
// time with Formulate, so that they are independent of this answer.
type Hypotheses struct {
	Schema Schema
	Max    int      // at most this many hypotheses
	Known  []string // statements already in the ledger, not to repeat
}

// Formulate asks for one test query for a statement, given only the
// statement and the tables it concerns: never another formulation of the
// same test, so that the queries voted on are independent samples.
type Formulate struct {
	Dialect   string  `json:"dialect"`
	Statement string  `json:"statement"`
	Table     string  `json:"table"`
	Tables    []Table `json:"tables"`
}

// Repair asks again after an answer that could not be used.
type Repair struct {
	Tool    string
	Problem string
}

// SQLFix asks for a corrected test query after the controller refused or
// questioned one.
type SQLFix struct {
	Dialect   string
	Statement string
	SQL       string
	Problem   string
	Tables    []Table // the tables the statement is about, or all when unknown
}

// Notes asks for a short description of what each table holds.
type Notes struct {
	Schema Schema
}

// Narrative asks for the report's executive summary, written from what the
// run found. Facts are the counts a reader wants first; Findings the most
// relevant findings that fit the caller's token budget, whole (Omitted says
// how many were left out). Everything is data: findings quote database
// values and other experts' prose.
type Narrative struct {
	Facts    NarrativeFacts `json:"facts"`
	Findings []Finding      `json:"findings"`
	Omitted  int            `json:"findings_omitted,omitempty"`
}

// NarrativeFacts are the run's headline figures, counted from the catalog.
type NarrativeFacts struct {
	Dialect          string         `json:"dialect"`
	Database         string         `json:"database"`
	Tables           int            `json:"tables"`
	Views            int            `json:"views,omitempty"`
	Rows             int64          `json:"rows,omitempty"`
	Relationships    int            `json:"relationships"`
	Domain           string         `json:"domain,omitempty"`
	DomainConfidence float64        `json:"domain_confidence,omitempty"`
	Hypotheses       map[string]int `json:"hypotheses,omitempty"` // by status
	Insights         int            `json:"insights"`
	Patterns         int            `json:"patterns"`
	Uncertainties    int            `json:"uncertainties"`
}

// Finding is one catalog entry as a prompt shows it.
type Finding struct {
	Kind       string  `json:"kind"`
	Text       string  `json:"text"`
	Confidence float64 `json:"confidence"`
}
