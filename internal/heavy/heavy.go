// Package heavy decides how much of discover's heavy tests a run does: the
// tests that build millions of rows, discover whole datasets, spawn
// processes or kill runs at many points.
//
// Three switches, each read here and nowhere else:
//
//   - Race: the race detector is compiled in (a build tag, race.go). It
//     slows the pure-Go SQLite driver ten to fifty times, so tests whose
//     cost is queries, not concurrency, skip or shrink under it.
//   - Short: `go test -short` asked to leave the heavy tests out.
//   - Long: DISCOVER_LONG_TESTS=1 asked for the long versions (a minute of
//     catalog load instead of ten seconds, ten random kill points instead of
//     two); .ci/run sets it for the catalog's load test.
//
// Reduced combines the first two for tests that shrink in either case. The
// README's `go test ./...` sets none of them and runs every test at its
// normal size.
//
// It is imported by tests only.
package heavy

import (
	"os"
	"testing"
)

// Race reports whether the binary was built with -race.
const Race = race

// LongEnv is the environment variable that asks for the long tests.
const LongEnv = "DISCOVER_LONG_TESTS"

// Short reports whether the run was started with -short. Like
// testing.Short, it may only be called once the test flags are parsed
// (inside a test, not in init).
func Short() bool { return testing.Short() }

// Reduced reports whether heavy tests should run at a reduced size: under
// -short or under the race detector.
func Reduced() bool { return Short() || Race }

// Long reports whether the long versions of tests were asked for.
func Long() bool { return os.Getenv(LongEnv) == "1" }
