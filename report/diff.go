package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/discover-db/discover/catalog"
)

// Change categories. CI gates on them separately (discover diff --fail-on):
// a schema change usually breaks consumers, row growth usually does not.
const (
	CategorySchema        = "schema"
	CategoryRelationships = "relationships"
	CategoryStats         = "stats"
	// CategoryUnread holds what one of the two runs could not read: a
	// table that could not be read is a gap in that run, not a table that
	// is gone, so it is never reported as removed (or added when it can be
	// read again) and its figures are not compared. Not drift by default:
	// the run that could not read it already exited 4.
	CategoryUnread = "unread"
	// CategoryDescriptions holds the team's descriptions of tables and
	// columns (discover.yaml comments:) that changed: an edit of the
	// configuration, not of the database, so not drift by default.
	CategoryDescriptions = "descriptions"
)

// Categories lists every change category in the order changes are reported.
var Categories = []string{CategorySchema, CategoryRelationships, CategoryStats, CategoryUnread, CategoryDescriptions}

// DefaultFailOn are the categories that are drift without --fail-on.
var DefaultFailOn = []string{CategorySchema, CategoryRelationships, CategoryStats}

// Change kinds.
const (
	ChangeAdded   = "added"
	ChangeRemoved = "removed"
	ChangeChanged = "changed"
	ChangeUnread  = "unread" // could not be read by one of the two runs
)

// DiffOptions tune what counts as drift.
type DiffOptions struct {
	// RowsThreshold is the relative row-count change (0.1 = 10%) beyond which
	// a table's growth or shrinkage is reported; a change must also be at
	// least one row, so that an empty table gaining nothing is not drift.
	RowsThreshold float64
	// NullsThreshold is the absolute change of a column's NULL fraction
	// beyond which it is reported.
	NullsThreshold float64
	// DistinctThreshold is the relative change of a column's distinct count
	// beyond which it is reported.
	DistinctThreshold float64
	// FailOn names the categories whose changes are drift; changes in the
	// other categories are still listed, as informational. Nil fails on none.
	FailOn []string
}

// DefaultDiffOptions are the thresholds of `discover diff` without flags.
func DefaultDiffOptions() DiffOptions {
	return DiffOptions{
		RowsThreshold:     0.1,
		NullsThreshold:    0.05,
		DistinctThreshold: 0.1,
		FailOn:            slices.Clone(DefaultFailOn),
	}
}

// Change is one difference between two reports.
type Change struct {
	Category string `json:"category"` // schema, relationships or stats
	// Object is a table, table.column, or a relationship written as the
	// catalog keys it: child(cols)->parent(cols).
	Object  string `json:"object"`
	Kind    string `json:"kind"` // added, removed, changed or unread
	Message string `json:"message"`
	Old     string `json:"old,omitempty"`
	New     string `json:"new,omitempty"`
	// Failing is true when the change's category is one of FailOn.
	Failing bool `json:"failing"`
}

// DiffResult is every change between two reports, in a fixed order:
// category (as in Categories), then object, kind and message.
type DiffResult struct {
	// Drift is true when at least one change is Failing.
	Drift   bool     `json:"drift"`
	Changes []Change `json:"changes"`
}

// Diff compares two reports. It is a pure function: the same reports and
// options always give the same result, in the same order.
func Diff(old, new *Report, opts DiffOptions) *DiffResult {
	d := differ{opts: opts, unread: map[string]bool{}, structure: structureRecorded(old)}
	d.tables(old.Tables, new.Tables)
	d.relationships(old.Relationships, new.Relationships)
	d.objects(old, new)

	fail := map[string]bool{}
	for _, c := range opts.FailOn {
		fail[c] = true
	}
	res := &DiffResult{Changes: d.changes}
	if res.Changes == nil {
		res.Changes = []Change{}
	}
	for i := range res.Changes {
		c := &res.Changes[i]
		c.Failing = fail[c.Category]
		res.Drift = res.Drift || c.Failing
	}
	slices.SortStableFunc(res.Changes, func(a, b Change) int {
		return cmp.Or(
			cmp.Compare(slices.Index(Categories, a.Category), slices.Index(Categories, b.Category)),
			cmp.Compare(a.Object, b.Object),
			cmp.Compare(a.Kind, b.Kind),
			cmp.Compare(a.Message, b.Message),
		)
	})
	return res
}

type differ struct {
	opts    DiffOptions
	changes []Change
	unread  map[string]bool // tables one of the runs could not read
	// structure: the old report records the declared structure beyond
	// keys, so a difference in it is a change (diffstructure.go).
	structure bool
}

func (d *differ) add(category, object, kind, old, new, format string, a ...any) {
	d.changes = append(d.changes, Change{
		Category: category, Object: object, Kind: kind,
		Message: fmt.Sprintf(format, a...), Old: old, New: new,
	})
}

func byName[T any](items []T, name func(T) string) map[string]T {
	m := make(map[string]T, len(items))
	for _, it := range items {
		m[name(it)] = it
	}
	return m
}

func (d *differ) tables(old, new []Table) {
	oldBy := byName(old, func(t Table) string { return t.Name })
	newBy := byName(new, func(t Table) string { return t.Name })
	for _, t := range new {
		if o, ok := oldBy[t.Name]; t.Unread != nil || (ok && o.Unread != nil) {
			d.unreadTable(o, t, ok)
			continue
		}
		if _, ok := oldBy[t.Name]; !ok {
			// Its columns are not listed one by one: the table is the news.
			d.add(CategorySchema, t.Name, ChangeAdded, "", t.Kind,
				"%s %s added (%d columns)", t.Kind, t.Name, len(t.Columns))
		}
	}
	for _, o := range old {
		n, ok := newBy[o.Name]
		switch {
		case ok && (o.Unread != nil || n.Unread != nil):
			// said by unreadTable
		case !ok && o.Unread != nil:
			d.unread[o.Name] = true
			d.add(CategoryUnread, o.Name, ChangeUnread, unreadText(o.Unread), "",
				"%s %s was not read by the old run (%s) and is not in the new one", o.Kind, o.Name, o.Unread.Reason)
		case !ok:
			d.add(CategorySchema, o.Name, ChangeRemoved, o.Kind, "", "%s %s removed", o.Kind, o.Name)
		default:
			d.table(o, n)
		}
	}
}

// unreadTable says that one of the runs could not read a table (n is the
// new run's; o the old run's when had), without comparing its figures: a
// gap is not a change of the database.
func (d *differ) unreadTable(o, n Table, had bool) {
	d.unread[n.Name] = true
	switch {
	case n.Unread != nil && !had:
		d.add(CategoryUnread, n.Name, ChangeUnread, "", unreadText(n.Unread),
			"%s %s could not be %s (%s); the old run did not have it", n.Kind, n.Name, n.Unread.verb(), n.Unread.Reason)
	case n.Unread != nil:
		d.add(CategoryUnread, n.Name, ChangeUnread, unreadText(o.Unread), unreadText(n.Unread),
			"%s %s could not be %s (%s): not compared", o.Kind, n.Name, n.Unread.verb(), n.Unread.Reason)
	default:
		d.add(CategoryUnread, n.Name, ChangeUnread, unreadText(o.Unread), "read",
			"%s %s could be read again (the old run could not: %s): not compared", n.Kind, n.Name, o.Unread.Reason)
	}
}

func unreadText(u *Unread) string {
	if u == nil {
		return "read"
	}
	return "not " + u.verb() + ": " + u.Reason
}

func (d *differ) table(o, n Table) {
	if o.Kind != n.Kind {
		d.add(CategorySchema, o.Name, ChangeChanged, o.Kind, n.Kind, "%s changed from %s to %s", o.Name, o.Kind, n.Kind)
	}
	if !slices.Equal(o.PrimaryKey, n.PrimaryKey) {
		d.add(CategorySchema, o.Name, ChangeChanged, keyText(o.PrimaryKey), keyText(n.PrimaryKey),
			"%s primary key changed from %s to %s", o.Name, keyText(o.PrimaryKey), keyText(n.PrimaryKey))
	} else if len(o.PrimaryKey) > 0 && deref(o.PrimaryKeySource) != deref(n.PrimaryKeySource) {
		// A declared key that is now only inferred lost its constraint, even
		// though the data still fits it.
		d.add(CategorySchema, o.Name, ChangeChanged, deref(o.PrimaryKeySource), deref(n.PrimaryKeySource),
			"%s primary key %s is now %s (was %s)", o.Name, keyText(o.PrimaryKey),
			orUnknown(deref(n.PrimaryKeySource)), orUnknown(deref(o.PrimaryKeySource)))
	}
	if o.RowCount != nil && n.RowCount != nil {
		a, b := *o.RowCount, *n.RowCount
		if delta := b - a; absInt(delta) >= 1 && beyond(float64(delta), float64(a), d.opts.RowsThreshold) {
			d.add(CategoryStats, o.Name, ChangeChanged, fmt.Sprint(a), fmt.Sprint(b),
				"%s row count %d -> %d (%s)", o.Name, a, b, relText(delta, a))
		}
	}

	oldCols := byName(o.Columns, func(c Column) string { return c.Name })
	newCols := byName(n.Columns, func(c Column) string { return c.Name })
	for _, c := range n.Columns {
		if _, ok := oldCols[c.Name]; !ok {
			d.add(CategorySchema, o.Name+"."+c.Name, ChangeAdded, "", c.DataType,
				"column %s.%s added (%s)", o.Name, c.Name, columnText(c))
		}
	}
	for _, c := range o.Columns {
		nc, ok := newCols[c.Name]
		if !ok {
			d.add(CategorySchema, o.Name+"."+c.Name, ChangeRemoved, c.DataType, "",
				"column %s.%s removed (was %s)", o.Name, c.Name, columnText(c))
			continue
		}
		d.column(o.Name+"."+c.Name, c, nc)
		d.columnStructure(o.Name+"."+c.Name, c, nc)
	}
	d.tableStructure(o, n)
}

func (d *differ) column(obj string, o, n Column) {
	// Declared types differ in case between dialects and tools ("text" vs
	// "TEXT") without meaning anything different.
	if !strings.EqualFold(strings.TrimSpace(o.DataType), strings.TrimSpace(n.DataType)) {
		d.add(CategorySchema, obj, ChangeChanged, o.DataType, n.DataType,
			"%s type changed from %s to %s", obj, orUnknown(o.DataType), orUnknown(n.DataType))
	}
	if o.Nullable != n.Nullable {
		d.add(CategorySchema, obj, ChangeChanged, nullText(o.Nullable), nullText(n.Nullable),
			"%s changed from %s to %s", obj, nullText(o.Nullable), nullText(n.Nullable))
	}

	// Statistics are compared only where both runs measured them: a figure
	// that one run did not compute is not a change in the data.
	if o.NullFraction != nil && n.NullFraction != nil {
		a, b := *o.NullFraction, *n.NullFraction
		// The epsilon keeps 0.10 -> 0.15 (0.05000000000000002 in floating
		// point) from crossing a 0.05 threshold it only meets.
		if math.Abs(b-a) > d.opts.NullsThreshold+1e-9 {
			d.add(CategoryStats, obj, ChangeChanged, fmtFrac(a), fmtFrac(b),
				"%s NULL fraction %s -> %s", obj, fmtFrac(a), fmtFrac(b))
		}
	}
	if o.DistinctCount != nil && n.DistinctCount != nil {
		a, b := *o.DistinctCount, *n.DistinctCount
		if delta := b - a; absInt(delta) >= 1 && beyond(float64(delta), float64(a), d.opts.DistinctThreshold) {
			d.add(CategoryStats, obj, ChangeChanged, fmt.Sprint(a), fmt.Sprint(b),
				"%s distinct count %d -> %d (%s)", obj, a, b, relText(delta, a))
		}
	}
	if vals := newEnumValues(o, n); len(vals) > 0 {
		quoted := make([]string, len(vals))
		for i, v := range vals {
			quoted[i] = fmt.Sprintf("%q", v)
		}
		d.add(CategoryStats, obj, ChangeAdded, "", strings.Join(vals, ", "),
			"%s new values: %s", obj, strings.Join(quoted, ", "))
	}
	seen := map[string]bool{}
	for _, a := range o.Anomalies {
		seen[a.Kind] = true
	}
	for _, a := range n.Anomalies {
		if seen[a.Kind] {
			continue
		}
		seen[a.Kind] = true // one change per kind, even if listed twice
		msg := fmt.Sprintf("%s new anomaly %s", obj, a.Kind)
		if a.Description != "" {
			msg += ": " + a.Description
		}
		d.add(CategoryStats, obj, ChangeAdded, "", a.Kind, "%s", msg)
	}
}

// newEnumValues lists, sorted, the frequent values of an enum-like column
// that the old report did not have. Only a complete old list (every distinct
// value in it) can prove a value new; otherwise the value may merely have
// been below the cut.
func newEnumValues(o, n Column) []string {
	if !enumLike(o) && !enumLike(n) {
		return nil
	}
	if o.DistinctCount == nil || int64(len(o.TopValues)) < *o.DistinctCount {
		return nil
	}
	had := map[string]bool{}
	for _, v := range o.TopValues {
		had[v.Value] = true
	}
	var out []string
	for _, v := range n.TopValues {
		if !had[v.Value] {
			had[v.Value] = true
			out = append(out, v.Value)
		}
	}
	slices.Sort(out)
	return out
}

func enumLike(c Column) bool {
	s := deref(c.SemanticType)
	return s == "enum" || s == "boolean"
}

func (d *differ) relationships(old, new []Relationship) {
	key := func(r Relationship) string {
		return catalog.RelationshipKey(r.FromTable, r.FromColumns, r.ToTable, r.ToColumns)
	}
	oldBy := byName(old, key)
	newBy := byName(new, key)
	for _, r := range new {
		if _, ok := oldBy[key(r)]; !ok {
			if d.unread[r.FromTable] || d.unread[r.ToTable] {
				continue // found again now that its table could be read
			}
			d.add(CategoryRelationships, key(r), ChangeAdded, "", r.Source,
				"relationship %s added (%s)", key(r), relSummary(r))
		}
	}
	for _, o := range old {
		k := key(o)
		n, ok := newBy[k]
		if !ok && (d.unread[o.FromTable] || d.unread[o.ToTable]) {
			d.add(CategoryUnread, k, ChangeUnread, o.Source, "",
				"relationship %s not checked: one of its tables could not be read", k)
			continue
		}
		if !ok {
			d.add(CategoryRelationships, k, ChangeRemoved, o.Source, "",
				"relationship %s removed (was %s)", k, relSummary(o))
			continue
		}
		if o.Source != n.Source {
			d.add(CategoryRelationships, k, ChangeChanged, o.Source, n.Source,
				"relationship %s source changed from %s to %s", k, o.Source, n.Source)
		}
		// An unmeasured cardinality (null) is not a change of cardinality.
		if o.Cardinality != nil && n.Cardinality != nil && *o.Cardinality != *n.Cardinality {
			d.add(CategoryRelationships, k, ChangeChanged, *o.Cardinality, *n.Cardinality,
				"relationship %s cardinality changed from %s to %s", k, *o.Cardinality, *n.Cardinality)
		}
		d.relationshipStructure(o, n)
	}
}

// beyond reports whether delta exceeds threshold relative to base. From an
// empty base any change is beyond every threshold.
func beyond(delta, base, threshold float64) bool {
	if base == 0 {
		return delta != 0
	}
	return math.Abs(delta)/math.Abs(base) > threshold+1e-9
}

func relText(delta, base int64) string {
	if base == 0 {
		return fmt.Sprintf("%+d", delta)
	}
	return fmt.Sprintf("%+.1f%%", 100*float64(delta)/float64(base))
}

func absInt(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func keyText(cols []string) string {
	if len(cols) == 0 {
		return "none"
	}
	return "(" + strings.Join(cols, ", ") + ")"
}

func columnText(c Column) string {
	return orUnknown(c.DataType) + ", " + nullText(c.Nullable)
}

func nullText(nullable bool) string {
	if nullable {
		return "nullable"
	}
	return "NOT NULL"
}

func relSummary(r Relationship) string {
	s := r.Source
	if r.Cardinality != nil {
		s += ", " + *r.Cardinality
	}
	return s
}

func fmtFrac(f float64) string { return fmt.Sprintf("%.3f", f) }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func orUnknown(s string) string { return cmp.Or(s, "unknown") }

// Render writes the result for a human: "no drift" or a drift header, then
// every change grouped by category, non-failing categories marked
// informational so a reader sees why the exit status ignored them.
func (r *DiffResult) Render(w io.Writer) error {
	var b strings.Builder
	failing := 0
	for _, c := range r.Changes {
		if c.Failing {
			failing++
		}
	}
	switch {
	case r.Drift:
		fmt.Fprintf(&b, "drift: %s\n", plural(failing, "change", "changes"))
	case len(r.Changes) == 0:
		b.WriteString("no drift\n")
	default:
		fmt.Fprintf(&b, "no drift (%s)\n", plural(len(r.Changes), "informational change", "informational changes"))
	}
	for _, cat := range Categories {
		var in []Change
		for _, c := range r.Changes {
			if c.Category == cat {
				in = append(in, c)
			}
		}
		if len(in) == 0 {
			continue
		}
		head := cat
		if !in[0].Failing {
			head += " (informational)"
		}
		fmt.Fprintf(&b, "\n%s:\n", head)
		for _, c := range in {
			fmt.Fprintf(&b, "  %s %s\n", kindMark(c.Kind), c.Message)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the result as {"drift": bool, "changes": [...]}.
func (r *DiffResult) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // objects hold "->"
	return enc.Encode(r)
}

func kindMark(kind string) string {
	switch kind {
	case ChangeAdded:
		return "+"
	case ChangeRemoved:
		return "-"
	case ChangeUnread:
		return "?"
	}
	return "~"
}
