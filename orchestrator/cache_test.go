package orchestrator

import (
	"os"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/cachetest"
	"github.com/discover-db/discover/redact"
)

// TestMain gives the runs of these tests a cache folder of their own: their
// sealing keys (package redact) stay out of the user's, and one a run
// leaves behind fails the tests.
func TestMain(m *testing.M) { os.Exit(cachetest.Main(m)) }

// forgetKey removes the sealing key of a run the test leaves unfinished
// on purpose, which nobody will resume.
func forgetKey(t *testing.T, cat *catalog.Catalog, runID string) {
	t.Helper()
	if err := redact.RemoveKey(cat.Path(), runID); err != nil {
		t.Error(err)
	}
}
