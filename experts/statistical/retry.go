package statistical

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// Issue 17: a table whose profile timed out was tried once more as it was,
// timed out again and was given up, and what waits on its profiles
// (relationship inference, semantic types) never saw it: on a TPC-DS-sized
// database the two largest fact tables and their 13 foreign keys. Now a
// profile that times out is taken again at once, in the same task, on a
// sample retryFactor times smaller, down to minRetryRows rows. Retrying in
// the task is the simplest form: the task ends with a profile, which the
// experts waiting on it read in the same round like any other, and the
// orchestrator sees no failure; or it ends with the timeout when no
// smaller sample is left, and the orchestrator gives the task up as
// before. The sizes that timed out are kept in a progress entry
// (retryKey), so that the orchestrator's next attempt and a resumed run
// start below them rather than wait out the same timeouts again.

const (
	// retryFactor is how many times smaller each retry's sample is.
	retryFactor = 10
	// minRetryRows is the smallest sample a retry takes: fewer rows
	// would say too little of a table too slow to read at all.
	minRetryRows = 10_000
)

// RetriedKey is the uncertainty key recorded when a table was profiled on
// a smaller sample after its profile timed out.
func RetriedKey(table string) string { return "profile_retried:" + table }

// retryKey is the progress entry of a table whose profile timed out.
func retryKey(table string) string { return Name + ":sample_retry:" + table }

// retryDoc is that entry: the sizes that timed out and the one to try next.
type retryDoc struct {
	catalog.ProgressDoc
	// TimedOut lists the samples whose profile timed out, in the order
	// tried: the rows each asked for, 0 for the table read whole.
	TimedOut []int64 `json:"timed_out"`
	// Next is the sample the next attempt asks for; 0 when a smaller one
	// would hold fewer than minRetryRows rows.
	Next int64 `json:"next_sample_rows"`
}

// attempt is one profiling pass's sample: what it asks for, and what it
// learned of the table's size, from which a retry's size follows.
type attempt struct {
	target  int64   // the sample's rows: Options.SampleRows, or a retry's
	retried []int64 // the sizes that timed out before (retryDoc.TimedOut)
	rows    int64   // the table's rows as the sampling decision saw them
	decided bool    // rows is known: the pass got past its sizing
	whole   bool    // the pass read the table whole (rows ≤ target)
}

// retry reports whether the pass follows a timeout.
func (a *attempt) retry() bool { return len(a.retried) > 0 }

// asked is the size the pass asked for, as retryDoc.TimedOut records it.
func (a *attempt) asked() int64 {
	if a.decided && a.whole {
		return 0
	}
	return a.target
}

// smaller is the next retry's sample: a tenth of this one's, or of the
// table's rows when it was read whole and holds fewer; 0 below
// minRetryRows.
func (a *attempt) smaller() int64 {
	next := a.target / retryFactor
	if a.decided && a.whole {
		next = min(next, a.rows/retryFactor)
	}
	if next < minRetryRows {
		return 0
	}
	return next
}

// timedOut reports a statement that ran out of --query-timeout, as every
// engine package reports it (a wrapped context.DeadlineExceeded, whatever
// the engine's own error for an interrupted statement), as opposed to the
// run's own deadline or cancellation.
func timedOut(ctx context.Context, err error) bool {
	return ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded)
}

// profileRetrying profiles t, on smaller and smaller samples while the
// profile times out (see the comment at the top of the file). A table
// too small for a smaller sample (a tenth of it under minRetryRows) is not
// retried here: the orchestrator's next attempt repeats the profile.
func profileRetrying(ctx context.Context, env *experts.Env, t warehouse.Table, hint rowHint) error {
	if env.Options.SampleRows <= 0 {
		// Sampling is off: there is no smaller sample to fall back on.
		return profileTable(ctx, env, t, hint, &attempt{})
	}
	name := t.Name.String()
	st, err := loadRetry(ctx, env, name)
	if err != nil {
		return fmt.Errorf("profile %s: %w", name, err)
	}
	if len(st.TimedOut) > 0 && st.Next == 0 {
		if len(st.TimedOut) > 1 {
			// Timed out on every sample down to the smallest before this
			// attempt (the orchestrator's second, or a resumed run's):
			// trying again would wait out the same timeouts for nothing.
			return fmt.Errorf("profile %s: timed out %s; no smaller sample of at least %s rows is left: %w",
				name, triedText(st.TimedOut), catalog.Thousands(minRetryRows), context.DeadlineExceeded)
		}
		// Too small for any smaller sample: the orchestrator's retry
		// tries the profile as it was, in case the timeout passes.
		st = retryDoc{}
	}
	for {
		a := &attempt{target: env.Options.SampleRows, retried: st.TimedOut}
		if a.retry() {
			a.target = st.Next
			if err := clearGaps(ctx, env, t); err != nil {
				return fmt.Errorf("profile %s: %w", name, err)
			}
		}
		err := profileTable(ctx, env, t, hint, a)
		if err == nil || !timedOut(ctx, err) {
			return err
		}
		st.TimedOut = append(slices.Clone(st.TimedOut), a.asked())
		st.Next = a.smaller()
		st.ProgressDoc = catalog.ProgressDoc{Step: "sample_retry", Detail: err.Error()}
		if serr := saveRetry(ctx, env, name, st); serr != nil {
			return errors.Join(err, serr)
		}
		if st.Next == 0 {
			if len(st.TimedOut) == 1 {
				return err // no retry was possible: the error says it all
			}
			return fmt.Errorf("%w (timed out %s; no smaller sample of at least %s rows is left)",
				err, triedText(st.TimedOut), catalog.Thousands(minRetryRows))
		}
	}
}

// clearGaps removes the gaps in column profiles (gapKey) that an attempt
// which then timed out recorded (a frequent-values query timed out before
// the one that ended it, say): the retry's profiles may well have those
// figures, and it records the gaps it has itself.
func clearGaps(ctx context.Context, env *experts.Env, t warehouse.Table) error {
	for _, c := range t.Columns {
		key := gapKey(t.Name.String() + "." + c.Name)
		e, err := env.Catalog.Get(ctx, catalog.KindUncertainty, key)
		switch {
		case errors.Is(err, catalog.ErrNotFound):
			continue
		case err != nil:
			return fmt.Errorf("clear gaps: %w", err)
		case e.RunID != env.RunID || e.Expert != Name:
			continue
		}
		if err := env.Catalog.Delete(ctx, catalog.KindUncertainty, key); err != nil {
			return fmt.Errorf("clear gaps: %w", err)
		}
	}
	return nil
}

// loadRetry reads this run's retry entry of table, empty when it has none.
func loadRetry(ctx context.Context, env *experts.Env, table string) (retryDoc, error) {
	var doc retryDoc
	e, err := env.Catalog.Get(ctx, catalog.KindProgress, retryKey(table))
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		return doc, nil
	case err != nil:
		return doc, fmt.Errorf("read sample retries: %w", err)
	case e.RunID != env.RunID:
		return doc, nil // an earlier run's
	}
	if err := e.Decode(&doc); err != nil {
		return retryDoc{}, fmt.Errorf("read sample retries: %w", err)
	}
	return doc, nil
}

func saveRetry(ctx context.Context, env *experts.Env, table string, doc retryDoc) error {
	ev := []string{fmt.Sprintf("the profile of %s timed out %s", table, triedText(doc.TimedOut))}
	if err := catalog.Progress.Save(ctx, env, retryKey(table), doc, 1.0, ev, table); err != nil {
		return fmt.Errorf("profile %s: record the sample retry: %w", table, err)
	}
	return nil
}

// triedText says which attempts timed out: "on the whole table and on a
// sample of 100,000 rows", "on samples of 1,000,000 and 100,000 rows".
func triedText(sizes []int64) string {
	var parts, samples []string
	for _, n := range sizes {
		if n == 0 {
			parts = append(parts, "on the whole table")
			continue
		}
		samples = append(samples, catalog.Thousands(n))
	}
	switch len(samples) {
	case 0:
	case 1:
		parts = append(parts, "on a sample of "+samples[0]+" rows")
	default:
		parts = append(parts, "on samples of "+catalog.JoinAnd(samples)+" rows")
	}
	return strings.Join(parts, " and ")
}

// retriedUncertainty records that the profile is of a smaller sample than
// asked for, and why: the figures are a smaller sample's, and a reader
// comparing runs should know why they moved.
func (p *profiler) retriedUncertainty(ctx context.Context) error {
	desc := fmt.Sprintf("%s was profiled on a sample of %s rows after its profile timed out %s",
		p.name, catalog.Thousands(p.rows), triedText(p.attempt.retried))
	if !p.sampled {
		// The retry's count found the table smaller than the sample that
		// timed out (before it could count it): read whole, after all.
		desc = fmt.Sprintf("%s was profiled whole (%s rows) on a second try, after its profile timed out %s",
			p.name, catalog.Thousands(p.rows), triedText(p.attempt.retried))
	}
	if d := p.env.Options.QueryTimeout; d > 0 {
		desc += fmt.Sprintf(" (query timeout %s)", d)
	}
	ev := []string{fmt.Sprintf("COUNT(*)=%d on %s", p.rows, p.name)}
	if p.sampled {
		ev[0] = fmt.Sprintf("COUNT(*)=%d on %s", p.rows, p.sampleText())
	}
	if err := catalog.Uncertainties.Save(ctx, p.env, RetriedKey(p.name),
		catalog.UncertaintyDoc{Description: desc}, 1.0, ev, p.name); err != nil {
		return fmt.Errorf("profile %s: %w", p.name, err)
	}
	return nil
}
