package relations_test

import (
	"os"
	"testing"

	"github.com/discover-db/discover/internal/cachetest"
)

// TestMain gives the runs of these tests a cache folder of their own: their
// sealing keys (package redact) stay out of the user's, and one a run
// leaves behind fails the tests.
func TestMain(m *testing.M) { os.Exit(cachetest.Main(m)) }
