package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/discover-db/discover/lint"
)

// parseLint reads discover.yaml's lint: key, the rules of discover lint:
//
//	lint:
//	  exclude: ["tmp_*"]                 # every rule
//	  unindexed_reference: {enabled: true, exclude: ["audit_*", "orders.note_id"]}
//	  undeclared_reference: {min_confidence: 0.9}
//	  missing_comment: {enabled: true, severity: warning}
//	  isolated_table: false              # shorthand for enabled: false
//
// A rule takes enabled, severity (error, warning, info), exclude (globs of
// tables, or table.column) and its own thresholds (lint.Rule.Params); an
// unknown rule or key, or a value of the wrong type, is an error at its
// line.
func parseLint(n *yaml.Node) (lint.Config, error) {
	var c lint.Config
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return c, nil
	}
	if n.Kind != yaml.MappingNode {
		return c, lineErrorf(n.Line, "lint: want a rule per key (unindexed_reference: {enabled: false}), got %s", describe(n))
	}
	c.Rules = map[string]lint.RuleConfig{}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], resolve(n.Content[i+1])
		if seen[key.Value] {
			return c, lineErrorf(key.Line, "lint: %s given twice", key.Value)
		}
		seen[key.Value] = true
		if key.Value == "exclude" {
			ex, err := lintGlobs("lint: exclude", val)
			if err != nil {
				return c, err
			}
			c.Exclude = ex
			continue
		}
		rule, ok := lint.Find(key.Value)
		if !ok {
			return c, lineErrorf(key.Line, "lint: unknown rule %q (%s, or exclude)", key.Value, strings.Join(lint.IDs(), ", "))
		}
		rc, err := parseLintRule(rule, val)
		if err != nil {
			return c, err
		}
		c.Rules[rule.ID] = rc
	}
	return c, nil
}

func parseLintRule(rule lint.Rule, n *yaml.Node) (lint.RuleConfig, error) {
	var rc lint.RuleConfig
	where := "lint: " + rule.ID
	if n.Kind == yaml.ScalarNode {
		b, err := yamlBool(n)
		if err != nil {
			return rc, lineErrorf(n.Line, "%s: want true, false or settings (enabled:, severity:, exclude:%s), got %s", where, paramList(rule), describe(n))
		}
		rc.Enabled = &b
		return rc, nil
	}
	if n.Kind != yaml.MappingNode {
		return rc, lineErrorf(n.Line, "%s: want true, false or settings (enabled:, severity:, exclude:%s), got %s", where, paramList(rule), describe(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], resolve(n.Content[i+1])
		k := key.Value
		if seen[k] {
			return rc, lineErrorf(key.Line, "%s: %s given twice", where, k)
		}
		seen[k] = true
		switch k {
		case "enabled":
			b, err := yamlBool(val)
			if err != nil {
				return rc, lineErrorf(val.Line, "%s: enabled: want true or false, got %s", where, describe(val))
			}
			rc.Enabled = &b
		case "severity":
			s := lint.Severity(strings.ToLower(val.Value))
			if val.Kind != yaml.ScalarNode || !slices.Contains(lint.Severities, s) {
				return rc, lineErrorf(val.Line, "%s: severity: want error, warning or info, got %s", where, describe(val))
			}
			rc.Severity = s
		case "exclude":
			ex, err := lintGlobs(where+": exclude", val)
			if err != nil {
				return rc, err
			}
			rc.Exclude = ex
		default:
			i := slices.IndexFunc(rule.Params, func(p lint.Param) bool { return p.Name == k })
			if i < 0 {
				return rc, lineErrorf(key.Line, "%s: unknown key %q (enabled, severity, exclude%s)", where, k, paramList(rule))
			}
			v, err := paramValue(rule.Params[i], val)
			if err != nil {
				return rc, lineErrorf(val.Line, "%s: %s: %v", where, k, err)
			}
			if rc.Params == nil {
				rc.Params = map[string]float64{}
			}
			rc.Params[k] = v
		}
	}
	return rc, nil
}

// paramList names a rule's own keys after the common ones, for messages.
func paramList(rule lint.Rule) string {
	var b strings.Builder
	for _, p := range rule.Params {
		b.WriteString(", " + p.Name)
	}
	return b.String()
}

// paramValue reads a threshold or a switch within its bounds.
func paramValue(p lint.Param, n *yaml.Node) (float64, error) {
	if p.Bool {
		b, err := yamlBool(n)
		if err != nil {
			return 0, fmt.Errorf("want true or false, got %s", describe(n))
		}
		if b {
			return 1, nil
		}
		return 0, nil
	}
	want := "a number"
	if p.Integer {
		want = "a whole number"
	}
	if p.Max > 0 {
		want += fmt.Sprintf(" from %v to %v", p.Min, p.Max)
	} else {
		want += fmt.Sprintf(" of at least %v", p.Min)
	}
	if n.Kind != yaml.ScalarNode {
		return 0, fmt.Errorf("want %s, got %s", want, describe(n))
	}
	v, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < p.Min || (p.Max > 0 && v > p.Max) || (p.Integer && v != math.Trunc(v)) {
		return 0, fmt.Errorf("want %s, got %s", want, describe(n))
	}
	return v, nil
}

// yamlBool reads a YAML boolean, and only one: "yes" is a string here.
func yamlBool(n *yaml.Node) (bool, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, fmt.Errorf("not a boolean")
	}
	return strconv.ParseBool(n.Value)
}

// lintGlobs reads a list of exclude globs (or one).
func lintGlobs(where string, n *yaml.Node) ([]string, error) {
	var list []string
	switch n.Kind {
	case yaml.ScalarNode:
		list = []string{n.Value}
	case yaml.SequenceNode:
		for _, e := range n.Content {
			e = resolve(e)
			if e.Kind != yaml.ScalarNode {
				return nil, lineErrorf(e.Line, "%s: want globs of tables or table.column, got %s", where, describe(e))
			}
			list = append(list, e.Value)
		}
	default:
		return nil, lineErrorf(n.Line, "%s: want a list of globs of tables or table.column, got %s", where, describe(n))
	}
	for _, g := range list {
		if err := lint.ValidGlob(g); err != nil {
			return nil, lineErrorf(n.Line, "%s: %v", where, err)
		}
	}
	return list, nil
}
