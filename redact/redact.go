// Package redact masks, in a run's catalog, the values of the columns the
// semantic expert found to hold personal data (package privacy): wherever
// such a value appears, in the column's own profile (least, greatest and
// top values, anomaly examples) or in any other finding's document or
// evidence (a rule's example, a hypothesis's evidence), it is replaced by
// its mask. Reports, `ask` and the MCP server read the catalog, so they
// show the masks. Counts, fractions, lengths and shapes are untouched.
//
// While the run goes on, its Guard keeps the values out of the catalog
// file from the first write (a profile's values are sealed until its
// column is judged); Catalog runs once a run has found what it finds,
// before the orchestrator marks the run finished, and masks what the
// guard could not know yet when it was written.
package redact

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/privacy"
)

// Stats says what one pass of Catalog did.
type Stats struct {
	Columns int   // personal-data columns whose values were looked for
	Values  int   // distinct values masked
	Entries int   // catalog entries rewritten
	Results int64 // kept statement results dropped (they held such values)
}

// Catalog masks the personal values of run runID's findings in cat, and
// records that they are masked (a privacy entry, KindPrivacy). With show,
// it masks nothing and records that the values were left as they are.
func Catalog(ctx context.Context, cat *catalog.Catalog, runID string, show bool) (Stats, error) {
	st, err := mask(ctx, cat, runID, show)
	if err != nil {
		return st, err
	}
	e, err := catalog.NewEntry(catalog.KindPrivacy, "privacy", catalog.PrivacyDoc{ValuesMasked: !show, Columns: st.Columns})
	if err != nil {
		return st, err
	}
	e.Expert, e.RunID, e.Confidence = "redact", runID, 1
	if !show {
		e.Evidence = []string{"the values of the personal-data columns are masked wherever the catalog holds them"}
	}
	if _, err := cat.SaveChanged(ctx, e); err != nil {
		return st, fmt.Errorf("redact: %w", err)
	}
	return st, nil
}

func mask(ctx context.Context, cat *catalog.Catalog, runID string, show bool) (Stats, error) {
	var st Stats
	r, cols, err := values(ctx, cat, runID)
	if err != nil {
		return st, err
	}
	st.Columns = cols
	if show || r.Empty() {
		return st, nil
	}
	st.Values = r.Len()
	es, err := cat.List(ctx, catalog.Filter{RunID: runID})
	if err != nil {
		return st, fmt.Errorf("redact: %w", err)
	}
	pii, err := personal(ctx, cat, runID)
	if err != nil {
		return st, err
	}
	personalKeys := map[string]bool{}
	for _, sd := range pii {
		personalKeys[sd.Table+"."+sd.Column] = true
	}
	var changed []catalog.Entry
	for _, e := range es {
		doc, docChanged, err := maskJSON(e.Document, r)
		if err != nil {
			return st, fmt.Errorf("redact %s %s: %w", e.Kind, e.Key, err)
		}
		if e.Kind == catalog.KindProfile && personalKeys[e.Key] {
			var dropped bool
			if doc, dropped, err = dropValueFigures(doc); err != nil {
				return st, fmt.Errorf("redact %s %s: %w", e.Kind, e.Key, err)
			}
			docChanged = docChanged || dropped
		}
		ev := make([]string, len(e.Evidence))
		for i, s := range e.Evidence {
			ev[i] = r.Text(s)
		}
		if !docChanged && slices.Equal(ev, e.Evidence) {
			continue
		}
		e.Document, e.Evidence = doc, ev
		changed = append(changed, e)
	}
	if len(changed) > 0 {
		if _, err := cat.SaveAllChanged(ctx, changed); err != nil {
			return st, fmt.Errorf("redact: %w", err)
		}
	}
	st.Entries = len(changed)
	byCol := byTable(pii)
	st.Results, err = cat.DropResults(ctx, func(b []byte) bool { return leaks(r, byCol, string(b)) })
	if err != nil {
		return st, fmt.Errorf("redact: %w", err)
	}
	// What was overwritten must not stay in the file's free pages or in
	// the full-text index's old segments. A pass that changed nothing (a
	// re-run that took masked findings) leaves the file as it is.
	if st.Entries > 0 || st.Results > 0 {
		if err := cat.Compact(ctx); err != nil {
			return st, fmt.Errorf("redact: %w", err)
		}
	}
	return st, nil
}

// Redactor is a Redactor of the values of run runID's personal-data
// columns the catalog holds so far: what a text built from the catalog
// during the run (a model's prompt) must not carry.
func Redactor(ctx context.Context, cat *catalog.Catalog, runID string) (*privacy.Redactor, error) {
	r, _, err := values(ctx, cat, runID)
	return r, err
}

// values collects the values of run runID's personal-data columns that
// the catalog holds: each profile's least, greatest and top values and its
// anomalies' examples; cols counts the columns.
func values(ctx context.Context, cat *catalog.Catalog, runID string) (r *privacy.Redactor, cols int, err error) {
	pii, err := personal(ctx, cat, runID)
	if err != nil {
		return nil, 0, err
	}
	r = privacy.NewRedactor()
	for _, sd := range pii {
		r.AddShapes(sd.PII.Category)
		pe, err := cat.Get(ctx, catalog.KindProfile, sd.Table+"."+sd.Column)
		if err != nil {
			continue // never profiled: no value of it was written
		}
		var p catalog.ProfileDoc
		if err := pe.Decode(&p); err != nil {
			continue
		}
		for _, v := range p.Values() {
			r.Add(sd.PII.Category, v)
		}
	}
	// While the run goes on, its profiles hold the masks of these values
	// (Guard): the raw ones are the guard's, in memory.
	if g, ok := cat.CurrentGuard().(*Guard); ok && g.runID == runID {
		r.AddFrom(g.Redactor())
	}
	return r, len(pii), nil
}

// personal lists run runID's semantic documents of the columns that hold
// personal data.
func personal(ctx context.Context, cat *catalog.Catalog, runID string) ([]catalog.SemanticDoc, error) {
	sems, err := cat.List(ctx, catalog.Filter{Kind: catalog.KindSemantic, RunID: runID})
	if err != nil {
		return nil, fmt.Errorf("redact: %w", err)
	}
	var out []catalog.SemanticDoc
	for _, e := range sems {
		var sd catalog.SemanticDoc
		if e.Decode(&sd) == nil && sd.PII != nil {
			out = append(out, sd)
		}
	}
	return out, nil
}

// maskJSON masks every string of a JSON document, keys aside; changed
// says whether any was.
func maskJSON(doc []byte, r *privacy.Redactor) ([]byte, bool, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false, err
	}
	changed := false
	var walk func(any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case string:
			if m := r.Text(t); m != t {
				changed = true
				return m
			}
		case []any:
			for i := range t {
				t[i] = walk(t[i])
			}
		case map[string]any:
			for k := range t {
				t[k] = walk(t[k])
			}
		}
		return x
	}
	v = walk(v)
	if !changed {
		return doc, false, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, false, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), true, nil
}

// Columns maps run runID's personal-data columns to their categories, by
// their names and their tables' and names (privacy.Known): what
// privacy.MaskRows masks in a query's result by the columns it reads.
func Columns(ctx context.Context, cat *catalog.Catalog, runID string) (map[string]string, error) {
	pii, err := personal(ctx, cat, runID)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, sd := range pii {
		privacy.Known(out, sd.Table, sd.Column, sd.PII.Category)
	}
	return out, nil
}

// valueFigureFields are the fields of a profile's document whose numbers
// are values of its column (catalog.ProfileDoc.DropValueFigures).
var valueFigureFields = []string{"mean", "quantiles", "histogram", "sealed_figures"}

// dropValueFigures removes from a personal-data column's profile document
// the figures that are its values: a number cannot be masked as a text
// is. The document is rewritten only when it held one.
func dropValueFigures(doc []byte) ([]byte, bool, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		return doc, false, fmt.Errorf("profile figures: %w", err)
	}
	dropped := false
	for _, f := range valueFigureFields {
		if v, ok := m[f]; ok {
			delete(m, f)
			dropped = dropped || string(v) != "null"
		}
	}
	if !dropped {
		return doc, false, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return doc, false, fmt.Errorf("profile figures: %w", err)
	}
	return b, true, nil
}
