package report

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
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
//
// The bytes are those of an encoder indenting the whole report (two
// spaces, HTML left unescaped: SQL and descriptions are full of < > &, and
// nothing embeds the file in HTML unescaped), written a list element at a
// time: the report of 10,000 tables is 150 MB, which one encoding held
// twice over (compact, then indented).
func WriteJSON(w io.Writer, r *Report) error {
	n := normalized(r)
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := writeIndented(bw, reflect.ValueOf(n)); err != nil {
		return fmt.Errorf("report: cannot write json: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: cannot write json: %w", err)
	}
	return nil
}

// writeIndented writes the struct v as an encoder with SetIndent("", "  ")
// would, each list field element by element.
func writeIndented(w *bufio.Writer, v reflect.Value) error {
	var piece, out bytes.Buffer
	enc := json.NewEncoder(&piece)
	enc.SetEscapeHTML(false)
	// value writes x at the given depth of indentation, as the encoder
	// writes a value there: its first line where the cursor is.
	value := func(x any, prefix string) error {
		piece.Reset()
		out.Reset()
		if err := enc.Encode(x); err != nil {
			return err
		}
		if err := json.Indent(&out, bytes.TrimSuffix(piece.Bytes(), []byte("\n")), prefix, "  "); err != nil {
			return err
		}
		_, err := w.Write(out.Bytes())
		return err
	}
	t := v.Type()
	w.WriteString("{")
	first := true
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		fv := v.Field(i)
		if name == "-" || !f.IsExported() || (opts == "omitempty" && emptyValue(fv)) {
			continue
		}
		if !first {
			w.WriteString(",")
		}
		first = false
		key, err := json.Marshal(name)
		if err != nil {
			return err
		}
		w.WriteString("\n  ")
		w.Write(key)
		w.WriteString(": ")
		if fv.Kind() != reflect.Slice || fv.Len() == 0 {
			if err := value(fv.Interface(), "  "); err != nil {
				return err
			}
			continue
		}
		w.WriteString("[")
		for j := range fv.Len() {
			if j > 0 {
				w.WriteString(",")
			}
			w.WriteString("\n    ")
			if err := value(fv.Index(j).Interface(), "    "); err != nil {
				return err
			}
		}
		w.WriteString("\n  ]")
	}
	_, err := w.WriteString("\n}\n")
	return err
}

// emptyValue is encoding/json's test for omitempty.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
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
