package warehouse

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// ChangeSignaler is implemented by sources that can tell, without reading
// a table's rows, whether the table may have changed since an earlier
// look: a re-run reuses what an earlier run found when every signal is
// the same (package incremental). A signal must change whenever a table's
// rows may have changed; it may also change when they did not (a
// statistics reset, a file touched), which only costs a re-run its reuse.
type ChangeSignaler interface {
	// ChangeSignals returns a text for each of tables (as Tables listed
	// them; the caller has the listing, so it is not made again), keyed
	// by TableName.String(); it may hold others. A table missing from the
	// map, or with an empty text, is one the engine cannot vouch for: a
	// run that reads it is never reused.
	ChangeSignals(ctx context.Context, tables []Table) (map[string]string, error)
}

// ContentSignaler is implemented by sources whose change signals are one
// signal for many tables (a database file: a write to one table is a
// change of every table) but which can tell the tables apart by reading
// how each is stored: a digest of each table's pages. That reads the
// storage once, so it is asked for only on a re-run (package incremental),
// where it lets one changed table be redone and the others be taken from
// the last run.
type ContentSignaler interface {
	// ContentSignals returns a text for each of tables that changes
	// whenever the table's rows may have changed, and not when another
	// table's did; keyed as ChangeSignals'. A table missing from the map,
	// or with an empty text, is one the engine cannot vouch for.
	ContentSignals(ctx context.Context, tables []Table) (map[string]string, error)
}

// FileSignal describes files by size and modification time (to the
// nanosecond the file system keeps), the way a build tool decides a file
// is unchanged; a missing file is written as such, so a WAL file that
// appears or goes away changes the signal. extra bytes (a SQLite header's
// change counter) are appended in hex.
func FileSignal(paths []string, extra ...[]byte) (string, error) {
	var b strings.Builder
	for _, p := range paths {
		fi, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(&b, "%s:absent;", p)
		case err != nil:
			return "", fmt.Errorf("change signal of %s: %w", p, err)
		default:
			fmt.Fprintf(&b, "%s:%d:%d;", p, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	for _, x := range extra {
		fmt.Fprintf(&b, "%x;", x)
	}
	return b.String(), nil
}
