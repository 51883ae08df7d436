// Command discover explores a database nobody has explained and writes a
// report of what it found, with the evidence behind every finding.
package main

import (
	"os"
	"runtime/debug"
)

func main() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// heapLimit is the Go heap's soft limit unless GOMEMLIMIT says otherwise:
// by default the runtime lets the heap grow to twice what is live before
// it collects, so a run whose profiles hold 500 MiB would reach 1 GiB.
// Under the limit it collects sooner instead. With the statistical
// expert's budget for its largest structures (experts/statistical,
// streamBudget) and the engines' own caches bounded (SQLite's default page
// cache, DuckDB's memory_limit), it keeps a run under the 1 GiB the README
// documents. It is soft: a run that needs more gets more, collecting more
// often.
const heapLimit = 640 << 20

// softMemoryLimit sets heapLimit, unless the user set GOMEMLIMIT; Main
// calls it, so every command and the tests' child processes have it.
func softMemoryLimit() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(heapLimit)
	}
}
