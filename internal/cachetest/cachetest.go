// Package cachetest gives a package's tests a cache folder of their own
// (XDG_CACHE_HOME, which os.UserCacheDir reads, and so do the discover
// processes the tests start), so that the runs they make leave nothing in
// the user's, and fails the tests when a run left a sealing key in it
// (package redact: a key is deleted when its run finishes, and a test
// that leaves a run unfinished on purpose removes its key itself).
package cachetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Main runs m with XDG_CACHE_HOME set to a new temporary folder, and
// returns m's exit code, or 1 when the tests left a sealing key (or the
// values or record beside one) in the folder's discover/sealing; the
// folder is removed either way. A TestMain calls os.Exit(cachetest.Main(m)).
func Main(m *testing.M) int {
	dir, err := os.MkdirTemp("", "discover-test-cache-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "cachetest: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Setenv("XDG_CACHE_HOME", dir); err != nil {
		fmt.Fprintf(os.Stderr, "cachetest: %v\n", err)
		return 1
	}
	code := m.Run()
	if left := Left(dir); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the tests left %d files in the sealing key folder %s (a run that finished keeps no key; a test that leaves a run unfinished removes its key):\n%s\n",
			len(left), filepath.Join(dir, "discover", "sealing"), strings.Join(left, "\n"))
		if code == 0 {
			code = 1
		}
	}
	return code
}

// Left lists the files in the sealing key folder of the cache folder
// dir, each with what its record says when it is one (the catalog and the
// run: a test's temporary folder names the test).
func Left(dir string) []string {
	sealing := filepath.Join(dir, "discover", "sealing")
	ents, _ := os.ReadDir(sealing)
	var out []string
	for _, e := range ents {
		line := "  " + e.Name()
		if strings.HasSuffix(e.Name(), ".run") {
			if b, err := os.ReadFile(filepath.Join(sealing, e.Name())); err == nil {
				line += " " + string(b)
			}
		}
		out = append(out, line)
	}
	return out
}
