package redact_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/cachetest"
	"github.com/discover-db/discover/redact"
)

// TestMain keeps the guards' keys out of the user's cache, and fails when
// a test leaves one.
func TestMain(m *testing.M) { os.Exit(cachetest.Main(m)) }

// ownCache gives t a cache folder of its own, so that it sees only the
// keys it makes.
func ownCache(t *testing.T) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
}

// startRun opens a catalog at a new path with run id recorded, finished
// when finished.
func startRun(t *testing.T, dir, id string, finished bool) *catalog.Catalog {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.Open(ctx, filepath.Join(dir, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	r := catalog.Run{ID: id, StartedAt: time.Now().UTC()}
	if err := cat.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	if finished {
		now := time.Now().UTC()
		r.FinishedAt, r.StopReason = &now, "confidence"
		if err := cat.UpdateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	return cat
}

// guardKey makes run id's guard on cat (its sealing key and record), and
// returns the key's path.
func guardKey(t *testing.T, cat *catalog.Catalog, id string) string {
	t.Helper()
	if _, err := redact.NewGuard(context.Background(), cat, id); err != nil {
		t.Fatal(err)
	}
	key, err := redact.KeyPath(cat.Path(), id)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(key)
	if err != nil {
		t.Fatalf("the guard made no key: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key mode %v, want 0600", fi.Mode().Perm())
	}
	if _, err := os.Stat(key + ".run"); err != nil {
		t.Errorf("the key has no record beside it: %v", err)
	}
	return key
}

func age(t *testing.T, d time.Duration, paths ...string) {
	t.Helper()
	at := time.Now().Add(-d)
	for _, p := range paths {
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestSweep (issue 21): a run that starts removes the sealing keys nothing
// will read again, and keeps those a --resume may still need.
func TestSweep(t *testing.T) {
	ownCache(t)
	ctx := context.Background()

	// Kept: an unfinished run of another catalog, used a day ago.
	unfinished := startRun(t, t.TempDir(), "unfinished", false)
	keepKey := guardKey(t, unfinished, "unfinished")
	age(t, 24*time.Hour, keepKey, keepKey+".run")
	// Removed: a finished run (killed before it deleted its key).
	finishedKey := guardKey(t, startRun(t, t.TempDir(), "finished", true), "finished")
	// Removed: a run whose catalog was deleted.
	goneDir := t.TempDir()
	goneCat := startRun(t, goneDir, "gone", false)
	goneKey := guardKey(t, goneCat, "gone")
	goneCat.Close()
	if err := os.RemoveAll(goneDir); err != nil {
		t.Fatal(err)
	}
	// Removed: a catalog that no longer holds the run (made anew).
	replacedCat := startRun(t, t.TempDir(), "other", false)
	replacedKey := guardKey(t, replacedCat, "replaced")
	// Removed: an unfinished run nobody resumed for longer than KeyMaxAge.
	staleCat := startRun(t, t.TempDir(), "stale", false)
	staleKey := guardKey(t, staleCat, "stale")
	age(t, redact.KeyMaxAge+time.Hour, staleKey, staleKey+".run")
	// Kept whatever its age: the run about to resume.
	currentCat := startRun(t, t.TempDir(), "current", false)
	currentKey := guardKey(t, currentCat, "current")
	age(t, redact.KeyMaxAge+time.Hour, currentKey, currentKey+".run")
	// Kept and reported: another unfinished run of the current catalog.
	if err := currentCat.StartRun(ctx, catalog.Run{ID: "sibling", StartedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	siblingKey := guardKey(t, currentCat, "sibling")
	// A key of a discover that wrote no record: kept while young, removed
	// once older than KeyMaxAge; a values file or record left without its
	// key, and a temporary file of a killed write, are removed once old.
	dir := redact.KeyDir()
	young, old := filepath.Join(dir, "00young"), filepath.Join(dir, "00old")
	orphan, temp := filepath.Join(dir, "00orphan.values"), filepath.Join(dir, ".00x.values.123")
	for _, p := range []string{young, old, orphan, temp} {
		if err := os.WriteFile(p, make([]byte, catalog.SealKeySize), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	age(t, redact.KeyMaxAge+time.Hour, old)
	age(t, 2*time.Hour, orphan, temp)

	abs, err := filepath.Abs(currentCat.Path())
	if err != nil {
		t.Fatal(err)
	}
	swept, err := redact.Sweep(ctx, redact.SweepOptions{Catalog: abs, Run: "current"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		kept bool
	}{
		{keepKey, true}, {finishedKey, false}, {goneKey, false}, {replacedKey, false}, {staleKey, false},
		{currentKey, true}, {siblingKey, true}, {young, true}, {old, false}, {orphan, false}, {temp, false},
	} {
		if exists(c.path) != c.kept {
			t.Errorf("%s: kept %v, want %v", filepath.Base(c.path), exists(c.path), c.kept)
		}
		if !c.kept && (exists(c.path+".run") || exists(c.path+".values")) {
			t.Errorf("%s: removed, but not the files beside it", filepath.Base(c.path))
		}
	}
	why := map[string]string{}
	var stale, reported []string
	for _, k := range swept {
		if !k.Removed {
			reported = append(reported, k.Run)
			continue
		}
		why[k.Path] = k.Why
		if k.Stale {
			stale = append(stale, filepath.Base(k.Path))
		}
	}
	for key, want := range map[string]string{
		finishedKey: "its run finished", goneKey: "its catalog is gone",
		replacedKey: "its catalog no longer holds its run", orphan[:len(orphan)-len(".values")]: "its key is gone",
	} {
		if why[key] != want {
			t.Errorf("%s removed because %q, want %q", filepath.Base(key), why[key], want)
		}
	}
	if want := []string{"00old", filepath.Base(staleKey)}; !slices.Equal(slices.Sorted(slices.Values(stale)), slices.Sorted(slices.Values(want))) {
		t.Errorf("removed for their age: %v, want %v", stale, want)
	}
	if !slices.Equal(reported, []string{"sibling"}) {
		t.Errorf("kept keys reported: %v, want the current catalog's other unfinished run", reported)
	}

	// What is left is the run's to remove: a finished run forgets its key.
	for _, p := range []string{keepKey, currentKey, siblingKey, young} {
		for _, f := range []string{p + ".values", p, p + ".run"} {
			os.Remove(f)
		}
	}
}

// TestForget: a finished run's guard removes its key and every file beside
// it, so that nothing of the run is left in the cache.
func TestForget(t *testing.T) {
	ownCache(t)
	ctx := context.Background()
	cat := startRun(t, t.TempDir(), "r", false)
	g, err := redact.NewGuard(ctx, cat, "r")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Finish(ctx); err != nil { // writes the values beside the key
		t.Fatal(err)
	}
	if err := g.Forget(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(redact.KeyDir()); len(left) > 0 {
		t.Errorf("%d files left in the key folder after Forget: %v", len(left), left)
	}
}

// TestResumeWithoutKey (issue 21): a run killed during its last pass, its
// sealing key removed since (Sweep, a cleared cache), is resumed without
// the raw values its last pass kept beside the key: the profiles that pass
// left with masks alone are dropped with their tables' statistics, so that
// the tables are profiled again and the resumed run's last pass knows the
// values it masks wherever else the killed process wrote them. With the
// key, they are kept.
func TestResumeWithoutKey(t *testing.T) {
	ownCache(t)
	ctx := context.Background()
	for _, keyKept := range []bool{true, false} {
		cat := startRun(t, t.TempDir(), "r", false)
		g, err := redact.NewGuard(ctx, cat, "r")
		if err != nil {
			t.Fatal(err)
		}
		cat.SetGuard(g)
		// A column the semantic expert never judged: the last pass
		// (Finish) finds it personal (card numbers, by the Luhn check)
		// and writes its masks alone.
		cards := []string{"4111111111111111", "4012888888881881", "5555555555554444", "5105105105105100",
			"378282246310005", "371449635398431", "6011111111111117", "3530111333300000"}
		p := catalog.ProfileDoc{Table: "people", Column: "card", Rows: 8, Min: &cards[6], Max: &cards[0]}
		for _, c := range cards {
			p.TopValues = append(p.TopValues, catalog.ValueCount{Value: c, Count: 1})
		}
		e, err := catalog.NewEntry(catalog.KindProfile, "people.card", p)
		if err != nil {
			t.Fatal(err)
		}
		e.RunID, e.Confidence = "r", 1
		if err := cat.Save(ctx, e); err != nil {
			t.Fatal(err)
		}
		st, err := catalog.NewEntry(catalog.KindTableStats, "people", catalog.TableStatsDoc{Table: "people"})
		if err == nil {
			st.RunID, st.Confidence = "r", 1
			err = cat.Save(ctx, st)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Finish(ctx); err != nil {
			t.Fatal(err)
		}
		cat.SetGuard(nil) // the process is killed here
		got, err := cat.Get(ctx, catalog.KindProfile, "people.card")
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(got.Document, &doc); err != nil {
			t.Fatal(err)
		}
		if doc["masked_by"] != "r" || doc["min"] == cards[6] {
			t.Fatalf("the last pass wrote %s: want the masks alone, marked masked by run r", got.Document)
		}
		// A profile of a table this run took over from a finished run
		// (incremental's adoption), masked by that run: nothing to redo.
		adopted, err := catalog.NewEntry(catalog.KindProfile, "orders.card", catalog.ProfileDoc{Table: "orders", Column: "card", Rows: 8,
			Min: &cards[6], Max: &cards[0], MaskedBy: "earlier"})
		if err != nil {
			t.Fatal(err)
		}
		adopted.RunID, adopted.Confidence = "r", 1
		if err := cat.Save(ctx, adopted); err != nil {
			t.Fatal(err)
		}
		if !keyKept {
			if err := g.Forget(); err != nil { // as Sweep removes it
				t.Fatal(err)
			}
		}

		again, err := redact.NewGuard(ctx, cat, "r")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cat.Get(ctx, catalog.KindProfile, "orders.card"); err != nil {
			t.Errorf("the profile another run masked was dropped: %v", err)
		}
		_, profErr := cat.Get(ctx, catalog.KindProfile, "people.card")
		_, statsErr := cat.Get(ctx, catalog.KindTableStats, "people")
		if keyKept {
			if len(again.Lost()) > 0 || profErr != nil || statsErr != nil {
				t.Errorf("with its key: lost %v, profile %v, table stats %v; want all kept", again.Lost(), profErr, statsErr)
			}
		} else {
			if !slices.Equal(again.Lost(), []string{"people"}) || profErr == nil || statsErr == nil {
				t.Errorf("without its key: lost %v, profile %v, table stats %v; want the table profiled again", again.Lost(), profErr, statsErr)
			}
		}
		if err := again.Forget(); err != nil {
			t.Fatal(err)
		}
	}
}
