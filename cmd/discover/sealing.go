package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/redact"
)

// sweepKeys removes, as a run starts, the sealing keys that no run will
// read again (redact.Sweep: a catalog that is gone, a run that finished or
// is no longer in its catalog, a run that has not run for
// redact.KeyMaxAge), and tells the user what matters of it: a key removed
// from a run that could still be resumed (its resume profiles again what
// it sealed), and the keys it keeps of this catalog's other unfinished
// runs. A killed run cannot say that it leaves its key behind; the next
// run can. A sweep that fails is said, never fatal: the run's own key is
// elsewhere.
func sweepKeys(ctx context.Context, o *runOptions, run catalog.Run, stderr io.Writer) {
	abs, err := filepath.Abs(o.catalogPath)
	if err != nil {
		abs = o.catalogPath
	}
	current := run.ID
	if run.FinishedAt != nil {
		// --resume of a run killed after it was marked finished, before
		// it deleted its key: nothing sealed is left for the key to open.
		current = ""
	}
	swept, err := redact.Sweep(ctx, redact.SweepOptions{Catalog: abs, Run: current})
	if o.quiet {
		return
	}
	if err != nil {
		fmt.Fprintf(stderr, "discover: %v\n", err)
	}
	removed := 0
	for _, k := range swept {
		switch {
		case !k.Removed:
			fmt.Fprintf(stderr, "discover: the catalog %s also holds the unfinished run %s (killed or interrupted): its sealing key stays in %s until that run finishes, %s at most (--resume continues the newest unfinished run)\n",
				o.catalogPath, k.Run, redact.KeyDir(), days(redact.KeyMaxAge))
		case k.Stale && k.Catalog != "":
			fmt.Fprintf(stderr, "discover: removed the sealing key of the unfinished run %s of %s (%s): what it sealed is unreadable now, and --resume of it profiles those tables again\n",
				k.Run, k.Catalog, k.Why)
		case o.verbose:
			fmt.Fprintf(stderr, "discover: removed the sealing key %s (%s)\n", k.Path, k.Why)
		default:
			removed++
		}
	}
	if removed > 0 {
		keys := "sealing keys"
		if removed == 1 {
			keys = "sealing key"
		}
		fmt.Fprintf(stderr, "discover: removed %d %s of runs nothing will resume from %s (-v says which)\n", removed, keys, redact.KeyDir())
	}
}

// keptKeyNote is what a run left unfinished says of its sealing key: where
// it stays, and for how long a resume can read what it sealed.
func keptKeyNote(o *runOptions) string {
	if o.showPII {
		return "" // nothing sealed, no key
	}
	return fmt.Sprintf("; its sealing key stays in %s until then, %s at most", redact.KeyDir(), days(redact.KeyMaxAge))
}

func days(d time.Duration) string {
	return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
}
