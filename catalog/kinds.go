package catalog

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"sync"
)

// Kind is a kind of entry whose documents are of type D. Every kind is
// declared once, with its document type, by Define: the built-in kinds
// below, an expert's own kinds in the expert's package. Saving through a
// Kind is checked by the compiler; saving through NewEntry with a kind's
// name is checked when the entry is built.
type Kind[D any] struct{ name string }

// Name is the kind's name as entries and filters carry it.
func (k Kind[D]) Name() string { return k.name }

// Saver stores a finding: experts.Env, bound to the expert that writes.
type Saver interface {
	Save(ctx context.Context, e Entry) error
}

// Save builds an entry of this kind from doc and hands it to s with its
// confidence, evidence and tags.
func (k Kind[D]) Save(ctx context.Context, s Saver, key string, doc D, confidence float64, evidence []string, tags ...string) error {
	en, err := NewEntry(k.name, key, doc)
	if err != nil {
		return err
	}
	en.Confidence = confidence
	en.Evidence = evidence
	en.Tags = tags
	return s.Save(ctx, en)
}

// Decode reads an entry of this kind into its document type. For a kind
// whose type is an interface (Progress, Hypotheses) decode into the
// concrete type with Entry.Decode instead.
func (k Kind[D]) Decode(e Entry) (D, error) {
	var d D
	if e.Kind != k.name {
		return d, fmt.Errorf("decode %s %s as %s", e.Kind, e.Key, k.name)
	}
	if err := e.Decode(&d); err != nil {
		return d, fmt.Errorf("decode %s %s: %w", e.Kind, e.Key, err)
	}
	return d, nil
}

// kinds maps every declared kind's name to its document type.
var kinds = struct {
	sync.RWMutex
	types map[string]reflect.Type
}{types: map[string]reflect.Type{}}

// Define declares a kind and its document type. A name declared twice is a
// programming error and panics at start-up, whichever package declared it
// first: two experts cannot write different documents under one kind.
func Define[D any](name string) Kind[D] {
	t := reflect.TypeFor[D]()
	kinds.Lock()
	defer kinds.Unlock()
	if old, ok := kinds.types[name]; ok {
		panic(fmt.Sprintf("catalog: kind %q declared twice (%v and %v)", name, old, t))
	}
	kinds.types[name] = t
	return Kind[D]{name: name}
}

// Kinds lists the names of every declared kind, sorted.
func Kinds() []string {
	kinds.RLock()
	defer kinds.RUnlock()
	out := make([]string, 0, len(kinds.types))
	for k := range kinds.types {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkDoc refuses a document whose type is not its kind's, and a kind
// nobody declared.
func checkDoc(kind string, doc any) error {
	kinds.RLock()
	want, ok := kinds.types[kind]
	kinds.RUnlock()
	if !ok {
		return fmt.Errorf("catalog: kind %q is not declared (catalog.Define)", kind)
	}
	got := reflect.TypeOf(doc)
	for got != nil && got.Kind() == reflect.Pointer {
		got = got.Elem()
	}
	switch {
	case got == nil:
		return fmt.Errorf("catalog: nil document for kind %q", kind)
	case got == want, want.Kind() == reflect.Interface && got.Implements(want),
		want.Kind() == reflect.Interface && reflect.PointerTo(got).Implements(want):
		return nil
	}
	return fmt.Errorf("catalog: a %v is not a %s document (%v)", got, kind, want)
}

// Entry kinds. The key of each kind is documented beside it; keys are unique
// per kind within a catalog (the newest run's finding replaces an older one).
const (
	KindTable          = "table"          // key: table name (TableDoc)
	KindProfile        = "profile"        // key: table.column (ProfileDoc)
	KindSemantic       = "semantic"       // key: table.column (SemanticDoc)
	KindEntity         = "entity"         // key: table name (EntityDoc)
	KindRelationship   = "relationship"   // key: from_table(cols)->to_table(cols) (RelationshipDoc)
	KindPattern        = "pattern"        // key: kind:tables (PatternDoc)
	KindInsight        = "insight"        // key: expert-chosen stable id (InsightDoc)
	KindHypothesis     = "hypothesis"     // key: hypothesis id (HypothesisDoc)
	KindRecommendation = "recommendation" // key: expert-chosen stable id (RecommendationDoc)
	KindUncertainty    = "uncertainty"    // key: expert-chosen stable id (UncertaintyDoc)
	KindDomain         = "domain"         // key: "domain" (DomainDoc)
	KindTableStats     = "table_stats"    // key: table name (TableStatsDoc)
	KindProgress       = "progress"       // key: expert:step; an expert's bookkeeping (ProgressDoc)
	KindConnection     = "connection"     // key: "connection"; what the connection's role could do (ConnectionDoc)
	KindOutcome        = "outcome"        // key: "outcome"; whether the run saw everything (OutcomeDoc)
	KindNarrative      = "narrative"      // key: "llm:narrative"; a model-written summary (NarrativeDoc)
	KindPrivacy        = "privacy"        // key: "privacy"; whether personal values were masked (PrivacyDoc)
	KindObjects        = "objects"        // key: "objects"; the database's enumerated types and routines (ObjectsDoc)
)

// The built-in kinds, typed. An expert that needs a kind of its own
// declares it in its package with Define.
var (
	Tables          = Define[TableDoc](KindTable)
	Profiles        = Define[ProfileDoc](KindProfile)
	Semantics       = Define[SemanticDoc](KindSemantic)
	Entities        = Define[EntityDoc](KindEntity)
	Relationships   = Define[RelationshipDoc](KindRelationship)
	Patterns        = Define[PatternDoc](KindPattern)
	Insights        = Define[InsightRecord](KindInsight)
	Hypotheses      = Define[HypothesisRecord](KindHypothesis)
	Recommendations = Define[RecommendationDoc](KindRecommendation)
	Uncertainties   = Define[UncertaintyDoc](KindUncertainty)
	Domains         = Define[DomainDoc](KindDomain)
	TableStats      = Define[TableStatsDoc](KindTableStats)
	Progress        = Define[ProgressRecord](KindProgress)
	Connections     = Define[ConnectionDoc](KindConnection)
	Outcomes        = Define[OutcomeDoc](KindOutcome)
	Narratives      = Define[NarrativeDoc](KindNarrative)
	Privacies       = Define[PrivacyDoc](KindPrivacy)
	Objects         = Define[ObjectsDoc](KindObjects)
)

// ProgressRecord is a progress document: a ProgressDoc, or an expert's
// own bookkeeping that embeds one (its figures beside the step).
type ProgressRecord interface{ progress() ProgressDoc }

func (p ProgressDoc) progress() ProgressDoc { return p }

// InsightRecord is an insight: an InsightDoc, or one that embeds it with
// more beside it (a model's note lists the findings it cites).
type InsightRecord interface{ insight() InsightDoc }

func (i InsightDoc) insight() InsightDoc { return i }

// HypothesisRecord is a ledger entry: a HypothesisDoc, or one that embeds
// it with what the test measured beside it.
type HypothesisRecord interface{ hypothesis() HypothesisDoc }

func (h HypothesisDoc) hypothesis() HypothesisDoc { return h }

// NarrativeDoc is a model's summary, with who wrote it and from what. It
// is prose, not a finding: the report shows it marked as the model's and
// keeps the deterministic summary beside it.
type NarrativeDoc struct {
	Text     string `json:"text"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Prompt   string `json:"prompt"`   // prompt id and version: narrative/v1
	Findings int    `json:"findings"` // findings the prompt carried
	Omitted  int    `json:"omitted"`  // findings left out by compaction
}
