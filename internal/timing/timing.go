// Package timing holds the switch for the wall-clock bars of the tests.
//
// A bar on elapsed time or on a ratio of two timings measures the machine
// as much as the code: on a loaded machine (two cores shared with other
// builds) it fails a correct program, so the README's `go test ./...`
// must not depend on one. Tests still measure and log their figures, and
// report a missed bar through Missed: it fails the test only with
// DISCOVER_TIMING_TESTS=1, which .ci/run sets, as CI has its machine to
// itself; elsewhere the missed bar is logged.
//
// A timeout that only stops a hung test, or a check that an operation kept
// to the bound it was given (a query timeout, a retry pause) with room to
// spare, holds on any machine and does not go through here.
//
// It is imported by tests only.
package timing

import (
	"fmt"
	"os"
	"testing"
)

// Env is the environment variable that makes missed bars fail.
const Env = "DISCOVER_TIMING_TESTS"

// Enforced reports whether a missed bar fails the test.
func Enforced() bool { return os.Getenv(Env) == "1" }

// Missed reports a wall-clock bar the test missed, with the figure in the
// message: an error where bars are enforced, a log line elsewhere.
func Missed(t testing.TB, format string, args ...any) {
	t.Helper()
	if Enforced() {
		t.Errorf(format, args...)
		return
	}
	t.Logf("%s (a wall-clock bar: it fails the test only with %s=1, as in CI)", fmt.Sprintf(format, args...), Env)
}
