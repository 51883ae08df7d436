package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of report.json v1.
func Schema() []byte { return bytes.Clone(schemaJSON) }

// WriteJSON writes r as indented report.json. Struct fields encode in
// declaration order and Build sorts every list, so the same report always
// gives the same bytes.
func WriteJSON(w io.Writer, r *Report) error {
	n := normalized(r)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// SQL and descriptions are full of < > &; \u003c escapes would only make
	// the file harder to read, and nothing embeds it in HTML unescaped.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&n); err != nil {
		return fmt.Errorf("report: cannot write json: %w", err)
	}
	return nil
}

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://discover-db.github.io/discover/report.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
})

// Validate checks a report.json document against Schema.
func Validate(doc []byte) error {
	sch, err := compiled()
	if err != nil {
		return fmt.Errorf("report: schema does not compile: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("report: not json: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("report: invalid report.json: %w", err)
	}
	return nil
}

// normalized returns a copy of r with every nil list made empty, so that a
// Report built by hand (not by Build) still writes [] rather than null.
// It copies rather than mutates: writing a report must not change it.
func normalized(r *Report) Report {
	n := *r
	n.Domain.Evidence = strs(n.Domain.Evidence)
	n.Tables = cloneMap(n.Tables, func(t Table) Table {
		t.PrimaryKey = strs(t.PrimaryKey)
		t.Columns = cloneMap(t.Columns, func(c Column) Column {
			c.TopValues = cloneMap(c.TopValues, func(v ValueCount) ValueCount { return v })
			c.Anomalies = cloneMap(c.Anomalies, func(a Anomaly) Anomaly {
				a.Examples = strs(a.Examples)
				return a
			})
			if c.Histogram != nil {
				h := *c.Histogram
				if h.Counts == nil {
					h.Counts = []int64{}
				}
				c.Histogram = &h
			}
			return c
		})
		return t
	})
	n.Relationships = cloneMap(n.Relationships, func(r Relationship) Relationship {
		r.FromColumns, r.ToColumns, r.Evidence = strs(r.FromColumns), strs(r.ToColumns), strs(r.Evidence)
		return r
	})
	n.Patterns = cloneMap(n.Patterns, func(p Pattern) Pattern {
		p.Tables = strs(p.Tables)
		return p
	})
	n.Insights = cloneMap(n.Insights, func(i Insight) Insight {
		i.Tables, i.Columns, i.Evidence = strs(i.Tables), strs(i.Columns), strs(i.Evidence)
		return i
	})
	n.Hypotheses = cloneMap(n.Hypotheses, func(h Hypothesis) Hypothesis {
		h.Evidence = strs(h.Evidence)
		return h
	})
	n.Recommendations = cloneMap(n.Recommendations, func(r Recommendation) Recommendation {
		r.Evidence = strs(r.Evidence)
		return r
	})
	n.Uncertainties = strs(n.Uncertainties)
	return n
}

func cloneMap[T any](in []T, f func(T) T) []T {
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
