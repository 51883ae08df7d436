package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/discover-db/discover/cmd/discover/mcp"
)

type mcpOptions struct {
	db, catalogPath string
	demo            bool
	queryTimeout    time.Duration
	maxRows         int
	allowPrivileged bool
	role            string
	showPII         bool
}

func newMCPCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := &mcpOptions{}
	cmd := &cobra.Command{
		Use:   "mcp --db DSN",
		Short: "serve the catalog and guarded tools over MCP (stdio)",
		Long: `mcp serves one database and its discovery to an agent over the Model Context
Protocol, on standard input and output (JSON-RPC 2.0, one message per line).
Tools: list_tables, describe_table, search_catalog, get_entry (the findings of
the newest discovery of this database in --catalog, default
./discovery/catalog.db) and run_query, which runs one read-only SELECT only
after the SQL guard and grounding (existing tables and columns, joins with a
condition) accept it, with --query-timeout and a row cap; the values of
columns that hold personal data (named as the discovery's personal-data
columns are, or found so by their name and values) come back masked unless
--show-pii. The database is
opened read-only; nothing is written, the catalog included. Diagnostics go to
standard error; standard output carries the protocol only.`,
		Example: `  discover --db shop.db            # discover first, so the catalog tools have findings
  discover mcp --db shop.db        # then let an agent (an MCP client) use them`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := applyEnv(cmd.Flags()); err != nil {
				return err
			}
			return runMCP(cmd.Context(), o, stdin, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.db, "db", "", "the database to serve (a DSN, as for a discovery)")
	f.BoolVar(&o.demo, "demo", false, "serve the built-in demo shop database")
	f.StringVar(&o.catalogPath, "catalog", "", "the discovery catalog to serve (default ./discovery/catalog.db when it exists)")
	f.DurationVar(&o.queryTimeout, "query-timeout", 30*time.Second, "deadline for one run_query")
	f.IntVar(&o.maxRows, "max-rows", 200, "row cap of run_query")
	addSafetyFlags(f, &o.allowPrivileged, &o.role, "run_query")
	f.BoolVar(&o.showPII, "show-pii", false, "return the values of columns that hold personal data as they are in run_query's results; by default they are masked (j***@e***.com)")
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

func runMCP(ctx context.Context, o *mcpOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	switch {
	case o.demo && o.db != "":
		return usagef("give either --db or --demo, not both")
	case !o.demo && o.db == "":
		return usagef("no database: give --db DSN or --demo")
	case o.queryTimeout <= 0:
		return usagef("--query-timeout must be positive")
	case o.maxRows < 1:
		return usagef("--max-rows must be at least 1")
	}
	d, err := openWithDiscovery(ctx, o.db, o.demo, o.catalogPath, o.role)
	if err != nil {
		return err
	}
	defer d.Close()
	if d.cat != nil {
		fmt.Fprintf(stderr, "discover mcp: %s database %q, discovery %s; serving on stdio\n", d.src.Dialect().Name(), d.src.Database(), d.run)
	} else {
		fmt.Fprintf(stderr, "discover mcp: %s database %q, no discovery (%s); serving on stdio\n", d.src.Dialect().Name(), d.src.Database(), d.note)
	}
	s := &mcp.Server{Source: d.src, Catalog: d.cat, Run: d.run, Version: version, QueryTimeout: o.queryTimeout, MaxRows: o.maxRows,
		AllowPrivileged: o.allowPrivileged, ShowPII: o.showPII}
	if err := s.AdmitQueries(ctx); err != nil {
		// Said once at the start, where a person configuring the agent sees
		// it; run_query answers each call with the same refusal.
		fmt.Fprintf(stderr, "discover mcp: run_query is off: %v\n", err)
	}
	return s.Serve(ctx, stdin, stdout)
}
