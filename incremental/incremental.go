// Package incremental decides whether a run may take an earlier run's
// findings instead of reading the database again (issue 20's re-runs): a
// nightly job on a database that did not change should not redo an hour's
// work. A run records its basis before it reads any data (Take): the
// discover build, a hash of its settings, and each table's change signal
// from the engine (warehouse.ChangeSignaler: file sizes and times,
// PostgreSQL's row counters, MySQL's UPDATE_TIME) with the table's
// declared structure. The next run reuses the latest run (Previous) only
// when that run finished complete on the same database and every part of
// the basis is equal; otherwise it says why not, and runs in full.
package incremental

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

// Take is the basis of a run about to read tables (the run's tables,
// filtered as the run filters them): build and settings as given, and
// each table's engine signal joined with a hash of its declared structure,
// so that an ALTER the engine's counters miss still counts as a change. A
// source that gives no signals yields a basis with every table unsigned.
// A source that lists its enumerated types and routines adds a hash of
// them: a function created since the last run is a change no table shows.
func Take(ctx context.Context, src warehouse.Source, tables []warehouse.Table, build, settings string) (*catalog.RunBasis, error) {
	var signals map[string]string
	if cs, ok := src.(warehouse.ChangeSignaler); ok {
		var err error
		if signals, err = cs.ChangeSignals(ctx, tables); err != nil {
			return nil, err
		}
	}
	b := &catalog.RunBasis{Build: build, Settings: settings}
	engine := map[string]bool{}
	for _, t := range tables {
		engine[signals[t.Name.String()]] = true
	}
	var err error
	if b.Tables, err = withStructure(tables, signals); err != nil {
		return nil, err
	}
	b.Shared = len(engine) == 1 && !engine[""]
	if ol, ok := src.(warehouse.ObjectLister); ok {
		objects, err := ol.Objects(ctx)
		if err != nil {
			return nil, fmt.Errorf("change signal of the enum types and routines: %w", err)
		}
		listed, err := json.Marshal(objects)
		if err != nil {
			return nil, fmt.Errorf("change signal of the enum types and routines: %w", err)
		}
		b.Objects = hash(listed)
	}
	return b, nil
}

// withStructure joins each table's signal with a hash of its declared
// structure; a table without a signal keeps none.
func withStructure(tables []warehouse.Table, signals map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(tables))
	for _, t := range tables {
		name := t.Name.String()
		sig := signals[name]
		if sig != "" {
			structure, err := json.Marshal(t)
			if err != nil {
				return nil, fmt.Errorf("change signal of %s: %w", name, err)
			}
			sig = hash(structure) + " " + sig
		}
		out[name] = sig
	}
	return out, nil
}

// TakeContent adds to b, taken by Take over tables, each table's content
// signal (warehouse.ContentSignaler), when b's signals are one for every
// table and the source has content signals; it reports whether it did.
// It reads the tables' storage once, so a caller asks for it only on a
// re-run that cannot reuse the last run: then a change to one table
// redoes that table only (its kept results answer the statements over
// the others), and the next re-run can tell which tables changed.
func TakeContent(ctx context.Context, src warehouse.Source, tables []warehouse.Table, b *catalog.RunBasis) (bool, error) {
	cs, ok := src.(warehouse.ContentSignaler)
	if !ok || !b.Shared {
		return false, nil
	}
	signals, err := cs.ContentSignals(ctx, tables)
	if err != nil {
		return false, err
	}
	if b.Content, err = withStructure(tables, signals); err != nil {
		return false, err
	}
	return true, nil
}

// Compare says why a run whose basis is cur may not reuse a run whose
// basis was prev, in a phrase for people ("" when it may).
func Compare(prev, cur *catalog.RunBasis) string {
	switch {
	case prev == nil:
		return "the last run recorded no change signals (it was made by an older discover)"
	case prev.Build != cur.Build:
		return "discover is another build than the last run's"
	case prev.Settings != cur.Settings:
		return "the settings differ from the last run's (flags, DISCOVER_* or discover.yaml)"
	case prev.Objects != cur.Objects:
		return "the database's enumerated types or routines changed since the last run"
	}
	before, now, byContent := compared(prev, cur)
	names := slices.Sorted(maps.Keys(now))
	for _, name := range names {
		if now[name] == "" {
			return fmt.Sprintf("the engine gives no change signal for %s", name)
		}
	}
	var changed []string
	for _, name := range names {
		old, ok := before[name]
		switch {
		case !ok:
			return fmt.Sprintf("%s is new since the last run", name)
		case old != now[name]:
			changed = append(changed, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(before)) {
		if _, ok := now[name]; !ok {
			return fmt.Sprintf("%s is gone since the last run", name)
		}
	}
	switch {
	case len(changed) == 0:
		return ""
	case cur.Shared && prev.Shared && !byContent:
		return "the database file may have changed since the last run (its tables share one change signal)"
	case len(changed) == 1:
		return fmt.Sprintf("%s may have changed since the last run", changed[0])
	case len(changed) <= 5:
		return fmt.Sprintf("%d tables may have changed since the last run: %s", len(changed), strings.Join(changed, ", "))
	}
	return fmt.Sprintf("%d tables may have changed since the last run: %s, …", len(changed), strings.Join(changed[:5], ", "))
}

// compared returns the tables' signals two runs are compared on: their
// content signals where both runs took them (byContent), else the
// engine's.
func compared(prev, cur *catalog.RunBasis) (before, now map[string]string, byContent bool) {
	if prev.Content != nil && cur.Content != nil {
		return prev.Content, cur.Content, true
	}
	return prev.Tables, cur.Tables, false
}

// lastRun returns the catalog's latest run and its basis (nil when it
// recorded none), when that run was of dsn and finished; otherwise why
// not, for the user ("" and no run when the catalog has none). Call it
// before the new run is recorded, which would be the latest.
func lastRun(ctx context.Context, cat *catalog.Catalog, dsn string) (last catalog.Run, basis *catalog.RunBasis, why string, err error) {
	last, err = cat.LatestRun(ctx, false)
	if errors.Is(err, catalog.ErrNotFound) {
		return catalog.Run{}, nil, "", nil
	}
	if err != nil {
		return catalog.Run{}, nil, "", err
	}
	if last.DSN != dsn {
		return catalog.Run{}, nil, fmt.Sprintf("the last run in the catalog was of %s", last.DSN), nil
	}
	if last.FinishedAt == nil {
		return catalog.Run{}, nil, "the last run did not finish (--resume continues it)", nil
	}
	if len(last.Basis) > 0 {
		if err := json.Unmarshal(last.Basis, &basis); err != nil {
			return catalog.Run{}, nil, fmt.Sprintf("the last run's basis cannot be read: %v", err), nil
		}
	}
	return last, basis, "", nil
}

// Previous returns the run a new run on dsn with basis cur may reuse: the
// catalog's latest run, if it finished complete on the same database and
// its basis equals cur. Call it before the new run is recorded. When there
// is none, why says why, for the user ("" when the catalog has no run).
func Previous(ctx context.Context, cat *catalog.Catalog, dsn string, cur *catalog.RunBasis) (prev catalog.Run, why string, err error) {
	last, basis, why, err := lastRun(ctx, cat, dsn)
	if err != nil || why != "" || last.ID == "" {
		return catalog.Run{}, why, err
	}
	en, err := cat.Get(ctx, catalog.KindOutcome, catalog.KindOutcome)
	if errors.Is(err, catalog.ErrNotFound) {
		return catalog.Run{}, "the last run recorded no outcome", nil
	}
	if err != nil {
		return catalog.Run{}, "", err
	}
	if en.RunID != last.ID {
		return catalog.Run{}, "the last run's findings are no longer all in the catalog", nil
	}
	out, err := catalog.Outcomes.Decode(en)
	if err != nil {
		return catalog.Run{}, fmt.Sprintf("the last run's outcome cannot be read: %v", err), nil
	}
	if out.Status != catalog.OutcomeComplete {
		return catalog.Run{}, "the last run was incomplete", nil
	}
	if why := Compare(basis, cur); why != "" {
		return catalog.Run{}, why, nil
	}
	if cur.Content == nil {
		// The same signals: the last run's content signals still hold,
		// and the next run may need them.
		cur.Content = basis.Content
	}
	return last, "", nil
}

// Unchanged returns the catalog's latest run when it was of dsn, finished,
// and rests on the same build and settings as cur, with the tables whose
// signals are the same in both, compared as Compare compares them (on
// content signals where both runs have them). Where the tables share one
// signal and either run has no content signals, none are: the signal
// cannot tell them apart. A run in full takes that run's findings about
// those tables where they depend on a table alone (a table's profile).
func Unchanged(ctx context.Context, cat *catalog.Catalog, dsn string, cur *catalog.RunBasis) (catalog.Run, []string, error) {
	last, prev, why, err := lastRun(ctx, cat, dsn)
	if err != nil || why != "" || prev == nil || prev.Build != cur.Build || prev.Settings != cur.Settings {
		return catalog.Run{}, nil, err
	}
	before, now, byContent := compared(prev, cur)
	if !byContent && (prev.Shared || cur.Shared) {
		return catalog.Run{}, nil, nil
	}
	var same []string
	for _, name := range slices.Sorted(maps.Keys(now)) {
		if sig, ok := before[name]; ok && sig != "" && sig == now[name] {
			same = append(same, name)
		}
	}
	return last, same, nil
}

// Build identifies the running discover executable: a hash of its file,
// so that a rebuild from other code is another build and a rebuild from
// the same code (Go builds are reproducible) is the same one. It is read
// once per process.
func Build() (string, error) {
	buildOnce.Do(func() {
		path, err := os.Executable()
		if err != nil {
			buildErr = err
			return
		}
		f, err := os.Open(path)
		if err != nil {
			buildErr = err
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			buildErr = err
			return
		}
		buildID = hex.EncodeToString(h.Sum(nil))
	})
	if buildErr != nil {
		return "", fmt.Errorf("identify the discover executable: %w", buildErr)
	}
	return buildID, nil
}

var (
	buildOnce sync.Once
	buildID   string
	buildErr  error
)

// Settings hashes the settings that can change a finding, given as any
// value encoding/json renders the same way each time (structs, maps).
func Settings(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("hash the settings: %w", err)
	}
	return hash(b), nil
}

func hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:12])
}

// Reuse makes run, recorded with basis but not started, take prev's
// findings and finishes it: prev's entries become run's (Catalog.Adopt),
// and run's state is prev's figures of the loop (iterations, confidence,
// coverage, stop reason: they describe the findings) with this run's own
// query count (none), no task costs, and the reuse recorded.
func Reuse(ctx context.Context, cat *catalog.Catalog, prev, run catalog.Run, basis *catalog.RunBasis, now time.Time) (catalog.Run, error) {
	var st catalog.LoopState
	if len(prev.State) > 0 {
		if err := json.Unmarshal(prev.State, &st); err != nil {
			return run, fmt.Errorf("reuse run %s: its state: %w", prev.ID, err)
		}
	}
	n, err := cat.Adopt(ctx, prev.ID, run.ID)
	if err != nil {
		return run, err
	}
	st.Queries, st.Cached, st.Costs, st.NewInsights = 0, 0, nil, nil
	st.LLM.Calls, st.LLM.Tokens = 0, 0
	st.Failures, st.GivenUp = nil, nil
	st.Reused = &catalog.Reuse{FromRun: prev.ID, Entries: n, Tables: len(basis.Tables)}
	state, err := json.Marshal(st)
	if err != nil {
		return run, fmt.Errorf("reuse run %s: %w", prev.ID, err)
	}
	finished := now.UTC()
	run.State, run.StopReason, run.FinishedAt = state, prev.StopReason, &finished
	if err := cat.UpdateRun(ctx, run); err != nil {
		return run, err
	}
	return run, nil
}
