package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every flag of every command is named in the contract: the shared
// CONTRACT.md when it can be found, or docs/contract-additions.md, which
// is the project's own list of what it added. A flag added without a
// word there fails here.
func TestContractAdditionsListEveryFlag(t *testing.T) {
	add, err := os.ReadFile(filepath.Join("..", "..", "docs", "contract-additions.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs := string(add)
	for dir, _ := os.Getwd(); ; dir = filepath.Dir(dir) {
		if b, err := os.ReadFile(filepath.Join(dir, "shared", "docs", "CONTRACT.md")); err == nil {
			docs += string(b)
			break
		}
		if filepath.Dir(dir) == dir {
			break // not found: the additions alone must then name every flag
		}
	}
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("--[a-z][a-z-]*").FindAllString(docs, -1) {
		named[m] = true
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			if !named["--"+f.Name] {
				t.Errorf("%q: flag --%s is in neither CONTRACT.md nor docs/contract-additions.md", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRootCmd(strings.NewReader(""), os.Stdout, os.Stderr)
	root.InitDefaultHelpCmd()
	walk(root)
	if len(named) < 20 {
		t.Fatalf("only %d flags named in the docs: the pages were not read", len(named))
	}
}
