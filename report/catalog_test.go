package report

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/discover-db/discover/catalog"
)

// A report loaded from a real catalog must equal the one built from the same
// data in memory, and must not pick up another run's findings.
func TestFromCatalog(t *testing.T) {
	ctx := context.Background()
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()

	in := realistic(t)
	if err := cat.StartRun(ctx, in.Run); err != nil {
		t.Fatal(err)
	}
	for _, e := range in.Entries {
		if err := cat.Save(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	other := entry(t, catalog.KindUncertainty, "from-another-run", catalog.UncertaintyDoc{Description: "not ours"}, 0.5, "structural")
	other.RunID = "run-0"
	if err := cat.Save(ctx, other); err != nil {
		t.Fatal(err)
	}

	got, err := FromCatalog(ctx, cat, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := jsonOf(t, got), jsonOf(t, Build(in)); !bytes.Equal(g, w) {
		t.Errorf("report from the catalog differs from the one built in memory:\n%s", g)
	}

	if _, err := FromCatalog(ctx, cat, "no-such-run"); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("unknown run: err = %v, want ErrNotFound", err)
	}
}
