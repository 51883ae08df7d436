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

// Every flag of every command is named in the contract: docs/CONTRACT.md
// (the project's copy of the shared contract, so that a fresh clone needs
// nothing beside it) or docs/contract-additions.md, the project's own list
// of what it added. A flag added without a word there fails here.
func TestContractAdditionsListEveryFlag(t *testing.T) {
	var docs string
	for _, name := range []string{"CONTRACT.md", "contract-additions.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
		if err != nil {
			t.Fatal(err)
		}
		docs += string(b)
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
