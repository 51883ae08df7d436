package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/discover-db/discover/catalog"
)

func newCatalogCmd(stdout io.Writer) *cobra.Command {
	var path string
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "read a discovery's catalog: search, get, kind",
		Long: `Read the shared catalog a discovery wrote (OUT/catalog.db). Entries have a kind
(table, profile, semantic, entity, relationship, pattern, insight, hypothesis,
recommendation, uncertainty, domain, table_stats) and a key (a table name,
table.column, or the relationship child(cols)->parent(cols)).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	var asJSON bool
	cmd.PersistentFlags().StringVar(&path, "catalog", "./discovery/catalog.db", "the catalog file")
	// JSON is what get and kind print per CONTRACT; --json is accepted by all
	// three so a script can ask for it uniformly, and it switches search
	// from its one-line-per-entry text to JSON lines.
	cmd.PersistentFlags().BoolVar(&asJSON, "json", false, "print JSON lines (get and kind always print JSON)")
	_ = cmd.MarkPersistentFlagFilename("catalog", "db")
	open := func(cmd *cobra.Command) (*catalog.Catalog, error) {
		if err := applyEnv(cmd.Flags()); err != nil {
			return nil, err
		}
		st, err := os.Stat(path)
		if err != nil || st.IsDir() {
			return nil, usagef("--catalog %s: no such catalog file", path)
		}
		c, err := catalog.Open(cmd.Context(), path)
		if err != nil {
			return nil, usagef("--catalog %s: %v", path, err)
		}
		return c, nil
	}

	var limit int
	search := &cobra.Command{
		Use:   "search TEXT",
		Short: "full-text search over the entries (key, tags, document), best first: one line each, or JSON lines with --json",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := open(cmd)
			if err != nil {
				return err
			}
			defer c.Close()
			es, err := c.Search(cmd.Context(), strings.Join(args, " "), limit)
			if err != nil {
				return fmt.Errorf("catalog search: %w", err)
			}
			if asJSON {
				return writeLines(stdout, es)
			}
			return writeSummaries(stdout, es)
		},
	}
	search.Flags().IntVar(&limit, "limit", 20, "at most N entries")

	var kind string
	get := &cobra.Command{
		Use:   "get KEY",
		Short: "one entry as JSON (add --kind when several kinds share the key)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := open(cmd)
			if err != nil {
				return err
			}
			defer c.Close()
			var es []catalog.Entry
			if kind != "" {
				e, err := c.Get(cmd.Context(), kind, args[0])
				if err != nil {
					return usagef("no %s entry with key %q", kind, args[0])
				}
				es = []catalog.Entry{e}
			} else if es, err = c.Lookup(cmd.Context(), args[0]); err != nil {
				return err
			}
			switch len(es) {
			case 0:
				return usagef("no entry with key %q", args[0])
			case 1:
				enc := json.NewEncoder(stdout)
				enc.SetEscapeHTML(false) // keys hold "->"
				enc.SetIndent("", "  ")
				return enc.Encode(es[0])
			}
			var kinds []string
			for _, e := range es {
				kinds = append(kinds, e.Kind)
			}
			return usagef("%d entries have key %q (kinds %s): add --kind", len(es), args[0], strings.Join(kinds, ", "))
		},
	}
	get.Flags().StringVar(&kind, "kind", "", "the entry's kind")
	_ = get.RegisterFlagCompletionFunc("kind", func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return withPrefix(entryKinds, toComplete), cobra.ShellCompDirectiveNoFileComp
	})

	var prefix string
	kindCmd := &cobra.Command{
		Use:   "kind KIND",
		Short: "all entries of a kind as JSON lines, ordered by key",
		Args:  cobra.ExactArgs(1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return withPrefix(entryKinds, toComplete), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := open(cmd)
			if err != nil {
				return err
			}
			defer c.Close()
			es, err := c.Kind(cmd.Context(), args[0], prefix)
			if err != nil {
				return err
			}
			return writeLines(stdout, es)
		},
	}
	kindCmd.Flags().StringVar(&prefix, "prefix", "", "only keys starting with this")

	cmd.AddCommand(search, get, kindCmd)
	return cmd
}

// entryKinds are the kinds of entry a catalog holds, offered by shell
// completion: every kind declared in this binary (catalog.Define), which
// are the ones discover writes; the catalog accepts any kind.
var entryKinds = catalog.Kinds()

// withPrefix keeps the candidates that complete prefix: cobra leaves the
// filtering of a completion function's answer to the function.
func withPrefix(words []string, prefix string) []string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, prefix) {
			out = append(out, w)
		}
	}
	return out
}

// writeSummaries prints one line per entry for a person: kind, key,
// confidence and the expert that wrote it, tab-separated so that cut and
// awk still work.
func writeSummaries(w io.Writer, es []catalog.Entry) error {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s\t%s\t%.0f%%\t%s\n", e.Kind, e.Key, 100*e.Confidence, e.Expert)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

func writeLines(w io.Writer, es []catalog.Entry) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // keys hold "->"
	for _, e := range es {
		if err := enc.Encode(e); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
	return nil
}

func newDiffCmd(stdout io.Writer) *cobra.Command {
	return newDiffCmdReal(stdout)
}
