package orchestrator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/model"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/warehouse"
)

// ErrDatabaseLost is matched by the error of a run that stopped because the
// database stopped answering: a statement as simple as SELECT 1 failed,
// after the engine's own retries, on each try of probeBackoff. Such a
// run is left unfinished for --resume; it never ends as if it were done.
var ErrDatabaseLost = errors.New("the database stopped answering")

// probeBackoff is the pause before each further probe of a database whose
// tasks failed: with the engines' own retries (warehouse.RetryBackoff) the
// database has about 15 s to come back before the run gives up on it.
var probeBackoff = []time.Duration{time.Second, 3 * time.Second}

// reachable asks the database for SELECT 1 after a round in which tasks
// failed, to tell a table that cannot be read (the run goes on and says
// so) from a database that is gone (the run stops and says so). It returns
// nil when the database answered, or when ctx ended first.
func (o *Orchestrator) reachable(ctx context.Context, timeout time.Duration) error {
	// Not warehouse.Retry: it gives up at once when a pause would outlast
	// ctx's deadline, and a database that failed just before the run's
	// deadline is not thereby shown to be gone; waiting lets the deadline
	// end the run as such.
	var last error
	for attempt := 0; ; attempt++ {
		_, err := o.Source.Query(ctx, "SELECT 1", warehouse.QueryOptions{Timeout: timeout, MaxRows: 1})
		if err == nil || ctx.Err() != nil || errors.Is(err, warehouse.ErrRejected) {
			return nil
		}
		last = err
		if attempt >= len(probeBackoff) {
			break
		}
		t := time.NewTimer(warehouse.Jitter(probeBackoff[attempt]))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
	return fmt.Errorf("%w: SELECT 1 failed %d times over about 15 s: %v", ErrDatabaseLost, len(probeBackoff)+1, last)
}

// outcome says whether the finished run saw everything it set out to:
// every listed table and view read and profiled, every column profiled,
// every relationship tested and no task given up; and, when not, what it
// did not see and why, table by table.
func (o *Orchestrator) outcome(ctx context.Context, runID string, s catalog.LoopState, stop string) (catalog.OutcomeDoc, error) {
	doc := catalog.OutcomeDoc{Status: catalog.OutcomeComplete, Unseen: []catalog.Unseen{}}
	// What the run set out to read is what the source listed when it
	// started (a privilege revoked since does not change that).
	tables := o.tables
	entries, err := o.Catalog.List(ctx, catalog.Filter{RunID: runID})
	if err != nil {
		return doc, err
	}
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Kind+"\x00"+e.Key] = true
	}
	// Why a table's task was given up: its last error.
	gaveUp := map[string]string{}  // milestone "\x00" table → error
	onTable := map[string]string{} // table → error of the first task on it given up
	var giveUps []catalog.GivenUp
	for _, k := range slices.Sorted(maps.Keys(s.GivenUp)) {
		g := s.GivenUp[k]
		if g.Table != "" {
			if g.Milestone != "" {
				gaveUp[g.Milestone+"\x00"+g.Table] = g.Error
			}
			if _, ok := onTable[g.Table]; !ok {
				onTable[g.Table] = g.Error
			}
		}
		giveUps = append(giveUps, g)
	}
	notReached := "not reached before the run stopped (" + cmp.Or(stop, "unfinished") + ")"
	if budgetSpent(o.Config, s.Queries) {
		// The budget, not the clock, ended the run (it stops as at its
		// deadline): that is what left the rest unseen.
		notReached = experts.ErrQueryBudget.Error()
	}
	// A table's gap is explained by the give-up of the task that was to
	// reach the milestone it lacks, whichever expert's; else by that of any
	// task that read the table (one that declared no milestone).
	reason := func(table string, ms ...experts.TableMilestone) string {
		for _, m := range ms {
			if e, ok := gaveUp[m.Key()+"\x00"+table]; ok {
				return Cause(e)
			}
		}
		if e, ok := onTable[table]; ok {
			return Cause(e)
		}
		return notReached
	}
	accounted := map[string]bool{} // tables whose give-ups are already said
	add := func(u catalog.Unseen) { doc.Unseen = append(doc.Unseen, u) }

	for _, sk := range o.skipped {
		if kept, _ := Filter([]warehouse.Table{{Name: sk.Table}}, o.Config.Include, o.Config.Exclude); len(kept) == 0 {
			continue // left out by the user's filters anyway
		}
		doc.Tables++
		add(catalog.Unseen{What: catalog.UnseenTable, Table: sk.Table.String(), Kind: sk.Kind, Reason: sk.Reason})
	}
	doc.Tables += len(tables)
	for _, t := range tables {
		n := t.Name.String()
		switch {
		case !have[catalog.KindTable+"\x00"+n]:
			add(catalog.Unseen{What: catalog.UnseenTable, Table: n, Kind: t.Kind, Foreign: t.Foreign, Reason: reason(n, experts.Inventoried, experts.Profiled)})
			accounted[n] = true
			continue
		case !have[catalog.KindTableStats+"\x00"+n]:
			add(catalog.Unseen{What: catalog.UnseenProfile, Table: n, Kind: t.Kind, Foreign: t.Foreign, Reason: reason(n, experts.Profiled)})
			accounted[n] = true
			continue
		}
		for _, c := range t.Columns {
			if !have[catalog.KindProfile+"\x00"+n+"."+c.Name] {
				add(catalog.Unseen{What: catalog.UnseenColumn, Table: n, Kind: t.Kind, Column: c.Name, Reason: reason(n, experts.Profiled)})
			}
		}
	}
	for _, g := range giveUps {
		if accounted[g.Table] {
			continue // a consequence of the table's gap, said above
		}
		add(catalog.Unseen{What: catalog.UnseenTest, Table: g.Table, Task: g.Expert + ": " + g.Task, Reason: Cause(g.Error)})
	}
	// A reference to a table the run does not cover (left out by
	// --include/--exclude, or declared to a table that does not exist) is
	// not a gap in what the run set out to see.
	// So is one whose declaration names columns the table does not have.
	// Names resolve as the experts resolve them (naming.TableIndex).
	listed := naming.NewTableIndex(tables)
	has := func(table string, cols []string) bool {
		t, ok := listed.Find(table)
		if !ok {
			return false
		}
		for _, c := range cols {
			if _, ok := naming.FindColumn(t, c); !ok {
				return false
			}
		}
		return true
	}
	outside := map[string]bool{} // relationship keys
	for _, e := range entries {
		var r catalog.RelationshipDoc
		if e.Kind == catalog.KindRelationship && e.Decode(&r) == nil && (!has(r.FromTable, r.FromColumns) || !has(r.ToTable, r.ToColumns)) {
			outside[e.Key] = true
		}
	}
	aboutOutside := func(subject string) bool {
		for k := range outside {
			if strings.HasSuffix(subject, k) {
				return true
			}
		}
		return false
	}
	// A test the query expert ran whose statement failed: the claim is
	// in the ledger as inconclusive, but the data was never asked. The
	// model's own SQL failing is the model's miss, not the database's.
	for _, e := range entries {
		var h catalog.HypothesisDoc
		if e.Kind != catalog.KindHypothesis || e.Expert == model.Name || e.Decode(&h) != nil || aboutOutside(h.Subject) {
			continue
		}
		for _, ev := range e.Evidence {
			if msg, ok := strings.CutPrefix(ev, "test failed: "); ok {
				add(catalog.Unseen{What: catalog.UnseenTest, Task: "test of " + cmp.Or(h.Subject, e.Key), Reason: Cause(msg)})
				break
			}
		}
	}
	briefs := make([]catalog.Brief, len(entries))
	for i, e := range entries {
		briefs[i] = e.Brief()
	}
	tested := settled(briefs)
	for _, r := range entries {
		if r.Kind != catalog.KindRelationship || outside[r.Key] {
			continue
		}
		if _, ok := tested[r.Key]; !ok {
			add(catalog.Unseen{What: catalog.UnseenTest, Task: "test of relationship " + r.Key, Reason: notReached})
		}
	}
	if len(doc.Unseen) > 0 {
		doc.Status = catalog.OutcomeIncomplete
	}
	return doc, nil
}

// recordOutcome saves the run's outcome for the report.
func (o *Orchestrator) recordOutcome(ctx context.Context, runID string, iteration int, doc catalog.OutcomeDoc) error {
	e, err := catalog.NewEntry(catalog.KindOutcome, "outcome", doc)
	if err != nil {
		return err
	}
	e.Expert, e.RunID, e.Iteration, e.Confidence = "orchestrator", runID, iteration, 1.0
	e.Evidence = []string{fmt.Sprintf("%d things not seen", len(doc.Unseen))}
	return o.Catalog.Save(ctx, e)
}

// Cause is the innermost part of an error message, the part a reader
// needs: "inventory Artist: count rows: sqlite: query: database disk image
// is malformed (11)" → "database disk image is malformed (11)". A last
// part of fewer than three words does not stand alone ("no such column:
// p.id (1)" keeps its first part), nor does Go's own wording of a
// timeout. Only the message's first line counts: engines follow it with
// the statement, a caret and hints ("LINE 1: …SELECT … ^"). A PostgreSQL
// server's message, after its severity ("ERROR: "), is kept whole: its
// own ": " separate what failed from why (file_fdw's `could not open file
// "/data/x.csv" for reading: No such file or directory`, postgres_fdw's
// `could not connect to server "s": connection to server at … failed: …`),
// and the first half is what names the file or server to fix.
func Cause(msg string) string {
	msg, _, _ = strings.Cut(strings.TrimSpace(msg), "\n")
	msg = strings.TrimSpace(msg)
	var c string
	if _, server, ok := strings.Cut(msg, ": ERROR: "); ok {
		c = server
	} else if server, ok := strings.CutPrefix(msg, "ERROR: "); ok {
		c = server
	} else {
		parts := strings.Split(msg, ": ")
		i := len(parts) - 1
		for i > 0 && (len(strings.Fields(strings.Join(parts[i:], " "))) < 3 || generic[parts[i]]) {
			i--
		}
		c = strings.Join(parts[i:], ": ")
	}
	// A wrapper's "(…: cause)" leaves its closing parenthesis behind.
	for strings.Count(c, ")") > strings.Count(c, "(") && strings.HasSuffix(c, ")") {
		c = c[:len(c)-1]
	}
	return c
}

// generic are Go's own words for an error, which say less than the
// part before them ("timed out after 1s: context deadline exceeded").
var generic = map[string]bool{"context deadline exceeded": true, "context canceled": true, "EOF": true, "unexpected EOF": true}
