package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteText prints the violations grouped by rule, one line each (where,
// then what), then the rules that are off, what the run did not see, and
// a summary line with the counts.
func (res *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	var off []string
	for _, rr := range res.Rules {
		if !rr.Enabled {
			off = append(off, rr.ID)
			continue
		}
		if rr.Violations == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s (%s, %d): %s\n", rr.ID, rr.Severity, rr.Violations, rr.Description)
		for _, v := range res.Violations {
			if v.Rule == rr.ID {
				// Each message begins with its place.
				fmt.Fprintf(&b, "  %s\n", v.Message)
			}
		}
		b.WriteString("\n")
	}
	if len(off) > 0 {
		fmt.Fprintf(&b, "off: %s (turn on under lint: in discover.yaml)\n", strings.Join(off, ", "))
	}
	if !res.Complete {
		fmt.Fprintf(&b, "%s Lint saw only what the run read.\n", strings.Join(res.Incomplete, " "))
	}
	b.WriteString(res.summary() + "\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write lint: %w", err)
	}
	return nil
}

func (res *Result) summary() string {
	c := res.Counts
	on := 0
	for _, rr := range res.Rules {
		if rr.Enabled {
			on++
		}
	}
	subject := fmt.Sprintf("%s of %s", plural(c.Tables, "table or view", "tables and views"), res.Database)
	if c.Violations == 0 {
		if !res.Complete {
			return fmt.Sprintf("no violations of %s in what the run read of %s (incomplete)", plural(on, "rule", "rules"), subject)
		}
		return fmt.Sprintf("no violations of %s in %s", plural(on, "rule", "rules"), subject)
	}
	var sev []string
	for _, s := range []struct {
		n           int
		one, plural string
	}{{c.Errors, "error", "errors"}, {c.Warnings, "warning", "warnings"}, {c.Infos, "info", "infos"}} {
		if s.n > 0 {
			sev = append(sev, plural(s.n, s.one, s.plural))
		}
	}
	out := fmt.Sprintf("%s of %d of %s (%s) in %s", plural(c.Violations, "violation", "violations"), c.RulesViolated,
		plural(on, "rule", "rules"), strings.Join(sev, ", "), subject)
	if !res.Complete {
		out += " (incomplete)"
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// WriteJSON prints the result as one JSON document, indented.
func (res *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		return fmt.Errorf("write lint: %w", err)
	}
	return nil
}
