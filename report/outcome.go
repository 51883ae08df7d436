package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/catalog"
)

func (b *builder) outcome() *Outcome {
	for _, e := range b.lists[catalog.KindOutcome] {
		var doc catalog.OutcomeDoc
		if !b.decode(e, &doc) {
			return nil
		}
		o := &Outcome{Status: doc.Status, Tables: doc.Tables, Unseen: []Unseen{}}
		for _, u := range doc.Unseen {
			o.Unseen = append(o.Unseen, Unseen{What: u.What, Table: u.Table, Kind: u.Kind, Foreign: u.Foreign, Column: u.Column, Task: u.Task, Reason: u.Reason})
		}
		return o
	}
	return nil
}

// withUnread marks the tables the run could not read or profile, and adds
// a row for each one it never read at all: a table that could not be read
// keeps its place in every format, so that a reader (and diff) sees a gap
// rather than a table that is gone.
func withUnread(tables []Table, o *Outcome) []Table {
	if o == nil {
		return tables
	}
	byName := map[string]int{}
	for i, t := range tables {
		byName[t.Name] = i
	}
	for _, u := range o.Unseen {
		if u.Table == "" || (u.What != catalog.UnseenTable && u.What != catalog.UnseenProfile) {
			continue
		}
		i, ok := byName[u.Table]
		if !ok {
			kind := u.Kind
			if kind != "view" {
				kind = "table"
			}
			tables = append(tables, Table{Name: u.Table, Kind: kind, Foreign: u.Foreign, PrimaryKey: []string{}, Columns: []Column{},
				Indexes: []Index{}, Uniques: [][]string{}})
			i = len(tables) - 1
			byName[u.Table] = i
		}
		if tables[i].Unread == nil {
			tables[i].Unread = &Unread{What: u.What, Reason: u.Reason}
		}
	}
	slices.SortFunc(tables, func(a, c Table) int { return cmp.Compare(a.Name, c.Name) })
	return tables
}

// OutcomeSentences open the summary of a run that did not see everything:
// what it could not see and why, before anything it found, so that a
// reader of the first line (a CI log, a notification) knows the report
// has gaps. A complete run has none.
func OutcomeSentences(o *Outcome) []string {
	if o == nil || o.Status != catalog.OutcomeIncomplete {
		return nil
	}
	groups := map[string][]Unseen{}
	for _, u := range o.Unseen {
		groups[u.What] = append(groups[u.What], u)
	}
	out := []string{"This discovery is incomplete."}
	if us := groups[catalog.UnseenTable]; len(us) > 0 {
		out = append(out, fmt.Sprintf("%d of %s could not be read: %s.", len(us),
			plural(o.Tables, "table or view", "tables and views"), byReason(us, func(u Unseen) string { return u.Table })))
	}
	if us := groups[catalog.UnseenProfile]; len(us) > 0 {
		out = append(out, fmt.Sprintf("%s could not be profiled: %s.", plural(len(us), "table", "tables"),
			byReason(us, func(u Unseen) string { return u.Table })))
	}
	if us := groups[catalog.UnseenColumn]; len(us) > 0 {
		out = append(out, fmt.Sprintf("%s could not be profiled: %s.", plural(len(us), "column", "columns"),
			byReason(us, func(u Unseen) string { return u.Table + "." + u.Column })))
	}
	if us := groups[catalog.UnseenTest]; len(us) > 0 {
		out = append(out, fmt.Sprintf("%s given up or not run: %s.", plural(len(us), "planned test or task was", "planned tests or tasks were"),
			byReason(us, func(u Unseen) string { return cmp.Or(u.Task, u.Table) })))
	}
	return out
}

// byReason lists names grouped by their reason, the commonest reason
// first: "Artist and Genre (database disk image is malformed (11))".
func byReason(us []Unseen, name func(Unseen) string) string {
	const show = 5
	var reasons []string
	names := map[string][]string{}
	for _, u := range us {
		if _, ok := names[u.Reason]; !ok {
			reasons = append(reasons, u.Reason)
			names[u.Reason] = nil
		}
		if n := name(u); !slices.Contains(names[u.Reason], n) {
			names[u.Reason] = append(names[u.Reason], n)
		}
	}
	slices.SortStableFunc(reasons, func(a, b string) int { return cmp.Compare(len(names[b]), len(names[a])) })
	var parts []string
	for i, r := range reasons {
		if i == 6 {
			rest := 0
			for _, r := range reasons[i:] {
				rest += len(names[r])
			}
			parts = append(parts, fmt.Sprintf("%d more for other reasons", rest))
			break
		}
		ns := names[r]
		if len(ns) > show {
			ns = append(ns[:show:show], fmt.Sprintf("%d more", len(names[r])-show))
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", catalog.JoinAnd(ns), r))
	}
	return strings.Join(parts, "; ")
}
