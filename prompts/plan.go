package prompts

// The data of the prompts that let a model join planning, semantic
// interpretation and the experts' collaboration. Like everything in a
// prompt, it reaches the model as JSON inside a <data> block.

// Plan asks for the order in which to run one round's tasks. The model
// only ranks: the program keeps every task, whatever the answer.
type Plan struct {
	State PlanState  `json:"state"`
	Tasks []PlanTask `json:"tasks"`
	// TasksOmitted counts the round's tasks left out of the prompt; they
	// keep their place after the ones shown.
	TasksOmitted int `json:"tasks_omitted,omitempty"`
}

// PlanState is where the run stands, as the loop measured it.
type PlanState struct {
	Iteration     int         `json:"iteration"`
	Phase         int         `json:"phase"` // 1 exploration, 2 patterns, 3 hypotheses, 4 synthesis
	Coverage      float64     `json:"coverage"`
	Confidence    float64     `json:"confidence"`
	Tables        []PlanTable `json:"tables"`
	TablesOmitted int         `json:"tables_omitted,omitempty"`
}

// PlanTable is one table with its row count, when known.
type PlanTable struct {
	Name string `json:"name"`
	Rows *int64 `json:"rows,omitempty"`
}

// PlanTask is one candidate task: its id for the answer, the expert that
// planned it and its name ("profile orders").
type PlanTask struct {
	ID     string `json:"id"`
	Expert string `json:"expert"`
	Task   string `json:"task"`
}

// Semantics asks for the database's domain and its business rules in
// words. Domain is the deterministic experts' label (empty when they found
// none), shown so the model can agree or differ; Relationships are the
// references found, "orders(customer_id) -> customers(customer_id)".
type Semantics struct {
	Schema        Schema   `json:"schema"`
	Domain        string   `json:"domain,omitempty"`
	Relationships []string `json:"relationships,omitempty"`
	MaxRules      int      `json:"-"`
}

// Collab asks for notes on what different experts' findings about the
// same tables mean together. Findings are the most relevant ones within
// the caller's token budget, whole (Omitted says how many were left out).
type Collab struct {
	Tables   []string     `json:"tables"` // the most connected tables, most connected first
	Findings []KeyFinding `json:"findings"`
	Omitted  int          `json:"findings_omitted,omitempty"`
	MaxNotes int          `json:"-"`
}

// KeyFinding is a catalog entry a note can cite: Ref is "kind:key".
type KeyFinding struct {
	Ref        string  `json:"ref"`
	Expert     string  `json:"expert"`
	Table      string  `json:"table"`
	Text       string  `json:"text"`
	Confidence float64 `json:"confidence"`
}
