package redact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/atomicfile"
)

// The sealing keys of unfinished runs (Guard) live in the user's cache
// folder, KeyDir: one file per run, named by a hash of the catalog's path
// and the run's id, 0600, deleted when the run finishes (Forget). A run
// that is killed, or stops on an error, keeps its key so that --resume
// reads back what it sealed; one that is never resumed would keep it for
// ever. Beside each key, a record (recordSuffix) says whose it is, so that
// a later run can tell which keys nothing will read again (Sweep):
//   - its catalog file is gone (deleted, or moved: a key is found by the
//     catalog's path, so a moved catalog never finds it again);
//   - its catalog no longer holds the run, or holds it finished (the
//     process died between marking the run finished and deleting the key;
//     a finished run has nothing sealed left);
//   - it has not been used for KeyMaxAge (its run started or was last
//     resumed that long ago): a killed run nobody resumed in a week.
//
// Removing a key costs a resumed run some work, never a value: what it
// sealed is unreadable to anyone, and NewGuard profiles those tables again.
// Nor does it harm a run still going on in another process, which holds
// its key in memory: a run records itself in its catalog before it makes
// its key, a finished one has no more use for it, and one that has run for
// KeyMaxAge and is then killed profiles again what it had sealed.

// KeyMaxAge is how long a sealing key of an unfinished run is kept after
// its run last ran; a later discover run removes it (Sweep).
const KeyMaxAge = 7 * 24 * time.Hour

// recordSuffix names the file beside a key that says whose it is.
const recordSuffix = ".run"

// keyRecord is what recordSuffix's file holds.
type keyRecord struct {
	Catalog string `json:"catalog"` // the catalog's absolute path
	Run     string `json:"run"`
}

// KeyDir is the folder of the sealing keys: discover/sealing in the
// user's cache folder (os.UserCacheDir, so $XDG_CACHE_HOME when set), or
// in the temporary folder when there is none.
func KeyDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "discover", "sealing")
}

// keyPath is where the sealing key of run runID of the catalog at the
// absolute path abs is kept.
func keyPath(abs, runID string) string {
	h := sha256.Sum256([]byte(abs + "\x00" + runID))
	return filepath.Join(KeyDir(), hex.EncodeToString(h[:16]))
}

// KeyPath is where the sealing key of run runID of the catalog at path is
// kept while the run is unfinished (the file may not exist).
func KeyPath(path, runID string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("redact: sealing key: %w", err)
	}
	return keyPath(abs, runID), nil
}

// RemoveKey removes the sealing key of run runID of the catalog at path,
// with the values and record beside it, as Forget does when the run
// finishes: for a run left unfinished that nobody will resume (a test's).
func RemoveKey(path, runID string) error {
	key, err := KeyPath(path, runID)
	if err != nil {
		return err
	}
	return removeKey(key)
}

// keyFiles are the files of the key at key: the values kept beside it,
// the key, then its record, in the order they are removed, so that a
// removal cut short leaves a record that names what is left.
func keyFiles(key string) []string {
	return []string{key + valuesSuffix, key, key + recordSuffix}
}

// removeKey removes the key at key and the files beside it.
func removeKey(key string) error {
	for _, p := range keyFiles(key) {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("redact: sealing key: %w", err)
		}
	}
	return nil
}

// writeRecord writes the record of the key at key, whole (a temporary
// file renamed), unless it already says as much.
func writeRecord(key string, rec keyRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("redact: sealing key record: %w", err)
	}
	path := key + recordSuffix
	if old, err := os.ReadFile(path); err == nil && string(old) == string(b) {
		return nil
	}
	if err := atomicfile.WritePrivateFile(path, b); err != nil {
		return fmt.Errorf("redact: sealing key record: %w", err)
	}
	return nil
}

// SweptKey is a sealing key Sweep looked at: one it removed (Removed,
// with Why) or the key of another unfinished run of the same catalog,
// which it kept.
type SweptKey struct {
	Path    string // the key's file
	Catalog string // the catalog it is of, "" when its record is missing (a key of an older discover)
	Run     string
	Removed bool
	Why     string // why it was removed: "its catalog is gone", …
	// Stale says it was removed for its age alone: its run might still
	// have been resumed (and will profile again what it sealed).
	Stale bool
}

// SweepOptions say what Sweep must leave alone.
type SweepOptions struct {
	// Now is the time ages are counted to; zero means time.Now().
	Now time.Time
	// Catalog and Run are the run about to start or resume: its key is
	// kept whatever its age, and the other unfinished runs of Catalog
	// (an absolute path) whose keys are kept are reported.
	Catalog, Run string
}

// tempGrace is how old a temporary file of the key folder (a values file
// or record being written, left by a process killed in the middle) must
// be before Sweep removes it: such a file lives milliseconds in a live
// process.
const tempGrace = time.Hour

// Sweep removes the sealing keys, and the values and records beside them,
// that no run will read again (see the comment above KeyMaxAge), and
// returns what it removed, and the keys it kept of the other unfinished
// runs of opts.Catalog. A key it cannot judge (its catalog cannot be read)
// is kept until KeyMaxAge. A missing folder is no error.
func Sweep(ctx context.Context, opts SweepOptions) ([]SweptKey, error) {
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	dir := KeyDir()
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("redact: sweep sealing keys: %w", err)
	}
	// The keys by their base name, with the newest time of their files.
	type key struct {
		files   map[string]bool // suffixes present: "", valuesSuffix, recordSuffix
		touched time.Time
	}
	keys := map[string]*key{}
	var errs []error
	for _, de := range ents {
		name := de.Name()
		fi, err := de.Info()
		if err != nil {
			continue // removed meanwhile
		}
		if strings.HasPrefix(name, ".") {
			// A temporary file (keepValues, writeRecord) of a process
			// killed before its rename: sealed values nobody reads.
			if now.Sub(fi.ModTime()) > tempGrace {
				if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
					errs = append(errs, err)
				}
			}
			continue
		}
		base, suffix := name, ""
		for _, s := range []string{valuesSuffix, recordSuffix} {
			if b, ok := strings.CutSuffix(name, s); ok {
				base, suffix = b, s
			}
		}
		k := keys[base]
		if k == nil {
			k = &key{files: map[string]bool{}}
			keys[base] = k
		}
		k.files[suffix] = true
		if fi.ModTime().After(k.touched) {
			k.touched = fi.ModTime()
		}
	}
	names := make([]string, 0, len(keys))
	for n := range keys {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []SweptKey
	for _, n := range names {
		k, path := keys[n], filepath.Join(dir, n)
		sk := SweptKey{Path: path}
		if b, err := os.ReadFile(path + recordSuffix); err == nil {
			var rec keyRecord
			if json.Unmarshal(b, &rec) == nil {
				sk.Catalog, sk.Run = rec.Catalog, rec.Run
			}
		}
		if sk.Catalog == opts.Catalog && sk.Run == opts.Run && sk.Run != "" {
			continue // the run about to go on: its key is what it reads
		}
		sk.Why, sk.Stale = whyRemove(ctx, sk, k.files[""], now.Sub(k.touched))
		if sk.Why == "" {
			if sk.Catalog == opts.Catalog && sk.Catalog != "" {
				out = append(out, sk) // kept: the user is told of it
			}
			continue
		}
		if err := removeKey(path); err != nil {
			errs = append(errs, err)
			continue
		}
		sk.Removed = true
		out = append(out, sk)
	}
	if err := errors.Join(errs...); err != nil {
		return out, fmt.Errorf("redact: sweep sealing keys: %w", err)
	}
	return out, nil
}

// whyRemove says why the key sk (whose key file exists when hasKey, and
// whose files were last touched age ago) is to be removed, or "" to keep
// it; stale when for its age alone.
func whyRemove(ctx context.Context, sk SweptKey, hasKey bool, age time.Duration) (why string, stale bool) {
	old := fmt.Sprintf("its run has not run for %d days", int(age/(24*time.Hour)))
	switch {
	case !hasKey:
		if age > tempGrace {
			// A record or values left without their key (a removal cut
			// short): nothing can open the values.
			return "its key is gone", false
		}
		return "", false // a key being made this instant: the record comes first
	case sk.Catalog == "":
		// A key of a discover that wrote no records: its run cannot be
		// told, so only its age decides.
		if age > KeyMaxAge {
			return old, true
		}
		return "", false
	}
	if _, err := os.Stat(sk.Catalog); errors.Is(err, fs.ErrNotExist) {
		return "its catalog is gone", false
	}
	found, finished, err := catalog.RunFinished(ctx, sk.Catalog, sk.Run)
	switch {
	case err == nil && !found:
		return "its catalog no longer holds its run", false
	case err == nil && finished:
		return "its run finished", false
	case age > KeyMaxAge:
		return old, true
	}
	return "", false
}
