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
	cmd.PersistentFlags().StringVar(&path, "catalog", "./discovery/catalog.db", "the catalog file")
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
		Short: "full-text search over the entries (key, tags, document); JSON lines, best first",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := open(cmd)
			if err != nil {
				return err
			}
			defer c.Close()
			es, err := c.Search(cmd.Context(), strings.Join(args, " "), limit)
			if err != nil {
				return err
			}
			return writeLines(stdout, es)
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

	var prefix string
	kindCmd := &cobra.Command{
		Use:   "kind KIND",
		Short: "all entries of a kind as JSON lines, ordered by key",
		Args:  cobra.ExactArgs(1),
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
