package redact

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/atomicfile"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/privacy"
	"github.com/discover-db/discover/querycache"
)

// Guard keeps the personal values of a run that masks them out of the
// catalog file from the first write, so that a run killed at any point
// (SIGKILL, a power cut) leaves none on disk, in the file or its log; a
// pass at the end (Catalog) could not, since what is overwritten stays in
// the log and free pages until then. It is the catalog's guard
// (catalog.SetGuard) for the run:
//   - a profile of a column the semantic expert has not judged yet is
//     written with its values sealed (catalog.Sealer: encrypted under the
//     run's key, which is kept outside the catalog and its folder until
//     the run finishes, loadKey);
//   - the semantic documents that judge columns are written in one
//     transaction with their columns' profiles, rewritten: values in clear
//     for a column that holds no personal data, masked for one that does
//     (with the values sealed beside the masks, so that the run's experts
//     read them as they would without the guard; Finish drops them);
//   - every other entry is written with the values of the personal-data
//     columns this process has seen, and every e-mail address, masked;
//   - kept statement results are sealed until the run's end (Finish).
type Guard struct {
	cat     *catalog.Catalog
	runID   string
	sealer  *catalog.Sealer
	keyPath string // where the run's sealing key is kept until it finishes

	mu     sync.Mutex
	judged map[string]string // table.column → its category, "" for none
	r      *privacy.Redactor // the raw values of the personal columns seen
	// final: the run is ending (Finish): a personal column's profile is
	// written with its masks alone.
	final bool
	// lost are the tables whose profiles an earlier process of the run
	// sealed under a key that is gone: they are profiled again.
	lost []string
}

var _ catalog.Guard = (*Guard)(nil)

// NewGuard returns the guard of run runID, which the catalog may hold
// already (--resume): the columns its semantic documents judged are known.
// Profiles sealed under a key that is gone (the catalog was moved to
// another machine, the cache cleared, the key removed by Sweep) cannot be
// read: they are deleted with their tables' statistics, so that the
// tables are profiled again and the run's experts read the same values as
// an uninterrupted run's. So are the profiles the killed process's last
// pass left with their masks alone (ProfileDoc.MaskedBy) when the raw
// values it kept beside the key are gone too: the run's own last pass
// needs those values to mask them wherever else the killed process wrote
// them, and reading them again is the one honest way to have them.
func NewGuard(ctx context.Context, cat *catalog.Catalog, runID string) (*Guard, error) {
	g := &Guard{cat: cat, runID: runID, judged: map[string]string{}, r: privacy.NewRedactor()}
	g.r.AddShapes(privacy.Email)
	fresh, err := g.loadKey()
	if err != nil {
		return nil, err
	}
	valuesRead := !fresh && g.loadValues()
	sems, err := cat.List(ctx, catalog.Filter{Kind: catalog.KindSemantic, RunID: runID})
	if err != nil {
		return nil, fmt.Errorf("redact: guard: %w", err)
	}
	for _, e := range sems {
		var sd catalog.SemanticDoc
		if e.Decode(&sd) == nil {
			g.judged[e.Key] = category(sd)
		}
	}
	profiles, err := cat.List(ctx, catalog.Filter{Kind: catalog.KindProfile, RunID: runID})
	if err != nil {
		return nil, fmt.Errorf("redact: guard: %w", err)
	}
	lost := map[string]bool{}
	for _, e := range profiles {
		var p catalog.ProfileDoc
		// Masks this run's killed process wrote (not those of a finished
		// run whose profile this one took over) need the values kept
		// beside the key.
		if e.Decode(&p) != nil || p.Unreadable() || (p.MaskedBy == runID && !valuesRead) {
			lost[p.Table] = true
			continue
		}
		// A personal column the killed process judged: its raw values,
		// unsealed, are what the run's last pass masks wherever else
		// they stand (a view's column, a user name equal to a first name).
		if cat := g.judged[e.Key]; cat != "" && p.MaskedBy == "" {
			for _, v := range p.Values() {
				g.r.Add(cat, v)
			}
			g.r.AddShapes(cat)
		}
	}
	for _, e := range profiles {
		var p catalog.ProfileDoc
		if json.Unmarshal(e.Document, &p) == nil && lost[p.Table] {
			if err := cat.Delete(ctx, catalog.KindProfile, e.Key); err != nil {
				return nil, fmt.Errorf("redact: guard: %w", err)
			}
		}
	}
	for t := range lost {
		if err := cat.Delete(ctx, catalog.KindTableStats, t); err != nil {
			return nil, fmt.Errorf("redact: guard: %w", err)
		}
		g.lost = append(g.lost, t)
	}
	slices.Sort(g.lost)
	return g, nil
}

// loadKey reads the run's sealing key, or makes one. It is kept outside
// the catalog and its folder, in the user's cache directory (readable by
// the user alone, KeyDir), under a name derived from the catalog's path
// and the run: a killed run's catalog, copied or committed, holds only
// what nobody can read, and --resume on the same machine reads it back.
// fresh says the key was made now: whatever an earlier process of the run
// sealed is unreadable.
func (g *Guard) loadKey() (fresh bool, err error) {
	abs, err := filepath.Abs(g.cat.Path())
	if err != nil {
		return false, fmt.Errorf("redact: sealing key: %w", err)
	}
	g.keyPath = keyPath(abs, g.runID)
	if err := os.MkdirAll(filepath.Dir(g.keyPath), 0o700); err != nil {
		return false, fmt.Errorf("redact: sealing key: %w", err)
	}
	// The record first: a key is never on disk without the words that let
	// a later run tell whether anything will read it again (Sweep).
	if err := writeRecord(g.keyPath, keyRecord{Catalog: abs, Run: g.runID}); err != nil {
		return false, err
	}
	key, err := os.ReadFile(g.keyPath)
	if err == nil && len(key) == catalog.SealKeySize {
		// Its age counts from the run's last process (KeyMaxAge): a run
		// resumed now is one somebody still wants.
		now := time.Now()
		if err := os.Chtimes(g.keyPath, now, now); err != nil {
			return false, fmt.Errorf("redact: sealing key: %w", err)
		}
	} else {
		fresh = true
		key = make([]byte, catalog.SealKeySize)
		if _, err := rand.Read(key); err != nil {
			return false, fmt.Errorf("redact: sealing key: %w", err)
		}
		// Written whole before the first value is sealed with it: a run
		// killed now has sealed nothing yet.
		if err := os.WriteFile(g.keyPath, key, 0o600); err != nil {
			return false, fmt.Errorf("redact: sealing key: %w", err)
		}
	}
	g.sealer, err = catalog.NewSealer(key)
	if err != nil {
		return false, fmt.Errorf("redact: %w", err)
	}
	return fresh, nil
}

// Forget deletes the run's sealing key, with the values and the record
// beside it: the run is finished, and nothing it sealed is left in the
// catalog.
func (g *Guard) Forget() error { return removeKey(g.keyPath) }

// valuesSuffix names the file beside the key that keeps the raw values of
// the personal columns, sealed, once the profiles hold their masks alone
// (Finish).
const valuesSuffix = ".values"

// keepValues writes the personal values the guard knows, sealed, beside
// the key. Called with g.mu held.
func (g *Guard) keepValues() error {
	b, err := json.Marshal(g.r.Masks())
	if err != nil {
		return fmt.Errorf("personal values: %w", err)
	}
	// Whole or not at all, and readable by the user alone as the key is.
	if err := atomicfile.WritePrivateFile(g.keyPath+valuesSuffix, []byte(g.sealer.Seal(string(b)))); err != nil {
		return fmt.Errorf("personal values: %w", err)
	}
	return nil
}

// loadValues gives the guard the values an earlier process of the run
// kept (keepValues), when it kept any and they are still readable; it
// says whether they were.
func (g *Guard) loadValues() bool {
	b, err := os.ReadFile(g.keyPath + valuesSuffix)
	if err != nil {
		return false
	}
	plain, ok := catalog.Unseal(string(b))
	var masks map[string]string
	if ok && json.Unmarshal([]byte(plain), &masks) == nil {
		g.r.AddMasks(masks)
		return true
	}
	return false
}

// Lost are the tables an earlier process of the run had profiled whose
// values are unreadable now (its sealing key is gone): this run profiles
// them again.
func (g *Guard) Lost() []string { return slices.Clone(g.lost) }

func category(sd catalog.SemanticDoc) string {
	if sd.PII == nil {
		return ""
	}
	return sd.PII.Category
}

// Redactor is a Redactor of the raw values of the personal columns this
// process has seen (and every e-mail address): what the end's pass masks,
// now that the profiles hold their masks.
func (g *Guard) Redactor() *privacy.Redactor {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := privacy.NewRedactor() // a copy: Text indexes lazily, and the guard's changes
	r.AddFrom(g.r)
	return r
}

// Entries returns es as they may be written, with the profiles of the
// columns judged by semantic documents among es added.
func (g *Guard) Entries(ctx context.Context, es []catalog.Entry) ([]catalog.Entry, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]catalog.Entry, len(es), len(es)+4)
	copy(out, es)
	// The judgements first: the profiles and findings of this very batch
	// are written as they say.
	var judgedNow []string
	inBatch := map[string]bool{}
	for _, e := range out {
		if e.RunID != g.runID {
			continue
		}
		switch e.Kind {
		case catalog.KindSemantic:
			var sd catalog.SemanticDoc
			if err := e.Decode(&sd); err != nil {
				return nil, fmt.Errorf("redact: semantic %s: %w", e.Key, err)
			}
			g.judged[e.Key] = category(sd)
			judgedNow = append(judgedNow, e.Key)
		case catalog.KindProfile:
			inBatch[e.Key] = true
		}
	}
	for _, key := range judgedNow {
		if inBatch[key] {
			continue
		}
		pe, err := g.cat.Get(ctx, catalog.KindProfile, key)
		if err != nil || pe.RunID != g.runID {
			continue // not profiled (yet) in this run: nothing of it is written
		}
		out = append(out, pe)
		inBatch[key] = true
	}
	// Profiles before the other findings, whose values they add.
	for i, e := range out {
		if e.RunID != g.runID || e.Kind != catalog.KindProfile {
			continue
		}
		doc, err := g.profile(e)
		if err != nil {
			return nil, err
		}
		out[i].Document = doc
	}
	for i, e := range out {
		if e.RunID != g.runID || e.Kind == catalog.KindProfile {
			continue
		}
		doc, _, err := maskJSON(e.Document, g.r)
		if err != nil {
			return nil, fmt.Errorf("redact %s %s: %w", e.Kind, e.Key, err)
		}
		out[i].Document = doc
		ev := make([]string, len(e.Evidence))
		for j, s := range e.Evidence {
			ev[j] = g.r.Text(s)
		}
		out[i].Evidence = ev
	}
	return out, nil
}

// profile returns the document a profile entry is written with: sealed
// while its column is not judged, masked when it is judged personal.
func (g *Guard) profile(e catalog.Entry) ([]byte, error) {
	var p catalog.ProfileDoc
	if err := e.Decode(&p); err != nil {
		return nil, fmt.Errorf("redact: profile %s: %w", e.Key, err)
	}
	if p.Unreadable() {
		return e.Document, nil // another process's: written as it is
	}
	cat, judged := g.judged[e.Key]
	switch {
	case !judged:
		p.Seal(g.sealer)
	case cat != "":
		for _, v := range p.Values() {
			g.r.Add(cat, v)
		}
		g.r.AddShapes(cat)
		mask := func(v string) string { return privacy.MaskOnce(cat, v) }
		if g.final {
			p.MapValues(mask)
			p.DropValueFigures()
			p.MaskedBy = g.runID
		} else {
			p.SealBeside(g.sealer, mask)
		}
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("redact: profile %s: %w", e.Key, err)
	}
	return b, nil
}

// byTable maps each table (its bare name, folded to lower case) of the
// personal-data columns sds judge to those columns (folded too).
func byTable(sds []catalog.SemanticDoc) map[string][]string {
	out := map[string][]string{}
	for _, sd := range sds {
		t := strings.ToLower(sd.Table[strings.LastIndexByte(sd.Table, '.')+1:])
		out[t] = append(out[t], strings.ToLower(sd.Column))
	}
	return out
}

// leaks says whether a kept result, s, could hold a personal value: one
// the Redactor r knows, or any, its statement having read a personal
// column of cols (readsPersonal). Such a result is dropped, not masked:
// a re-run reuses it as the database's answer.
func leaks(r *privacy.Redactor, cols map[string][]string, s string) bool {
	return r.Text(s) != s || readsPersonal([]byte(s), cols)
}

// readsPersonal says whether the statement whose result b keeps could
// read a personal-data column: it names the column's table and the
// column, or the table and * . The values it returned cannot be told
// personal by the Redactor alone, which knows only the values the run's
// profiles hold (a column of unique addresses lists none), and none at
// all of a column whose profile the run took over masked from an earlier
// run. A result that does not say its statement's words (an earlier
// build's) is taken to read them when there is any personal column.
func readsPersonal(b []byte, personal map[string][]string) bool {
	if len(personal) == 0 {
		return false
	}
	words, ok := querycache.Reads(b)
	if !ok {
		return true
	}
	for t, cols := range personal {
		if _, found := slices.BinarySearch(words, t); !found {
			continue
		}
		if _, star := slices.BinarySearch(words, "*"); star {
			return true
		}
		for _, c := range cols {
			if _, found := slices.BinarySearch(words, c); found {
				return true
			}
		}
	}
	return false
}

// Result seals a kept statement result until the run's end (Finish).
func (g *Guard) Result(b []byte) []byte { return []byte(g.sealer.Seal(string(b))) }

// Finish writes what the guard held back, at the run's end: the profiles
// of columns the semantic expert never judged (a table it gave up on), in
// clear or masked as privacy.Detect judges them from their names and
// values, and the kept results, in clear, less those that hold a personal
// value this process has seen. The guard stays the catalog's until the
// run's last pass (Catalog) is done.
func (g *Guard) Finish(ctx context.Context) error {
	profiles, err := g.cat.List(ctx, catalog.Filter{Kind: catalog.KindProfile, RunID: g.runID})
	if err != nil {
		return fmt.Errorf("redact: finish: %w", err)
	}
	g.mu.Lock()
	var late []catalog.Entry
	for _, e := range profiles {
		if !strings.Contains(string(e.Document), `"sealed`) {
			continue
		}
		var p catalog.ProfileDoc
		if e.Decode(&p) != nil || p.Unreadable() {
			continue
		}
		if _, ok := g.judged[e.Key]; !ok {
			cat := ""
			if f, ok := privacy.Detect(privacy.Column{Words: naming.Words(p.Column), Values: p.Values()}); ok {
				cat = f.Category
			}
			g.judged[e.Key] = cat
		}
		if cat := g.judged[e.Key]; cat != "" {
			for _, v := range p.Values() {
				g.r.Add(cat, v)
			}
			g.r.AddShapes(cat)
		}
		late = append(late, e)
	}
	// The profiles below keep their masks alone from now on: the raw
	// values the run's last pass masks wherever else they stand are kept,
	// sealed, beside the key, for a process that resumes a run killed
	// during that pass (NewGuard).
	err = g.keepValues()
	g.final = true
	g.mu.Unlock()
	if err != nil {
		return fmt.Errorf("redact: finish: %w", err)
	}
	if len(late) > 0 {
		if _, err := g.cat.SaveAllChanged(ctx, late); err != nil {
			return fmt.Errorf("redact: finish: %w", err)
		}
	}
	r := g.Redactor()
	// The run's personal columns, those it took over from an earlier run
	// included.
	pii, err := personal(ctx, g.cat, g.runID)
	if err != nil {
		return fmt.Errorf("redact: finish: %w", err)
	}
	cols := byTable(pii)
	if _, err := g.cat.RewriteResults(ctx, func(b []byte) []byte {
		s, ok := catalog.Unseal(string(b))
		if !ok {
			if strings.HasPrefix(string(b), "sealed:") {
				return nil // a killed process's: nobody can read it
			}
			s = string(b)
		}
		if leaks(r, cols, s) {
			return nil
		}
		return []byte(s)
	}); err != nil {
		return fmt.Errorf("redact: finish: %w", err)
	}
	return nil
}
