package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/warehouse"
)

// askOptions are the settings of `discover ask`: the database, the model
// (the same flags as a discovery's) and how much of the answer to show.
// demoName is the database name a discovery of the demo records.
const demoName = "demo shop"

type askOptions struct {
	runOptions
	jsonOut bool
	maxRows int
}

func newAskCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &askOptions{}
	cmd := &cobra.Command{
		Use:   `ask "QUESTION" --db DSN --llm PROVIDER --llm-model NAME`,
		Short: "answer a question with verified SQL (needs an LLM)",
		Long: `ask has a language model write one SQL query that answers QUESTION, then puts
the query through the same controller as discovery's model work before anything
runs: the read-only guard, grounding (every table and column exists, joins carry
their keys), the per-query timeout and row cap, and checks of the result (no
rows, NULL explosions, row explosions). A problem goes back to the model, at
most 3 times. Only an accepted query's result is shown, with the query.

The prompt describes the database from its schema and, when a discovery's
catalog is found (--catalog, default ./discovery/catalog.db), from what that
discovery learned: profiles, semantic types, inferred relationships. With
--llm-paths N the question is asked N times independently and the answers'
results are voted on. The model's explanation is shown as its own words; it is
not checked against the data. The values of columns that hold personal data are
masked in the answer (--show-pii shows them) and kept out of the prompt
(--llm-allow-pii lets them in).`,
		Example: `  discover ask "how many orders were shipped late?" --demo --llm openai --llm-model gpt-4o-mini
  discover ask "top 5 customers by revenue" --db shop.db --llm ollama --llm-model llama3.1 --json`,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := applyEnv(cmd.Flags()); err != nil {
				return err
			}
			return runAsk(cmd.Context(), o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.db, "db", "", "the database to ask about (a DSN, as for a discovery)")
	f.BoolVar(&o.demo, "demo", false, "ask about the built-in demo shop database")
	f.StringVar(&o.catalogPath, "catalog", "", "a discovery's catalog to describe the database from (default ./discovery/catalog.db when it exists)")
	f.BoolVar(&o.jsonOut, "json", false, "print the answer as one JSON object")
	f.IntVar(&o.maxRows, "max-rows", 50, "result rows to show")
	f.DurationVar(&o.queryTimeout, "query-timeout", time.Minute, "deadline for one query against the database")
	o.addLLMFlags(f, "independent answers to ask for and vote on (1 = off)", 12, 100_000)
	addSafetyFlags(f, &o.allowPrivileged, &o.role, "the model's query")
	f.BoolVar(&o.showPII, "show-pii", false, "show the values of columns that hold personal data in the answer as they are; by default they are masked (j***@e***.com)")
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

func (o *askOptions) validate(question string) error {
	switch {
	case strings.TrimSpace(question) == "":
		return usagef("ask: the question is empty")
	case o.demo && o.db != "":
		return usagef("give either --db or --demo, not both")
	case !o.demo && o.db == "":
		return usagef("no database: give --db DSN or --demo")
	case o.llm == "" || o.llm == "none":
		return usagef("ask needs a language model: give --llm openai|ollama|anthropic and --llm-model NAME")
	case o.maxRows < 1:
		return usagef("--max-rows must be at least 1")
	case o.queryTimeout <= 0:
		return usagef("--query-timeout must be positive")
	case o.llmPaths < 1:
		return usagef("--llm-paths must be at least 1")
	}
	return o.validateLLM()
}

func runAsk(ctx context.Context, o *askOptions, question string, stdout, stderr io.Writer) error {
	if err := o.validate(question); err != nil {
		return err
	}
	d, err := openWithDiscovery(ctx, o.db, o.demo, o.catalogPath, o.role)
	if err != nil {
		return err
	}
	defer d.Close()
	client, err := newModel(&o.runOptions)
	if err != nil {
		return err
	}
	res, err := orchestrator.Ask(ctx, d.src, d.cat, client, orchestrator.AskOptions{Question: question, Paths: o.llmPaths,
		QueryTimeout: o.queryTimeout, Run: d.run, AllowPrivileged: o.allowPrivileged, AllowPII: o.llmAllowPII, ShowPII: o.showPII})
	if errors.Is(err, warehouse.ErrPrivileged) {
		return usageError{err} // the user can fix it: another role, or the flag
	}
	if err != nil {
		printRefusals(stderr, res.Refusals)
		return err
	}
	if d.note != "" {
		res.Context += " (" + d.note + ")"
	}
	if len(res.Rows) > o.maxRows {
		res.Rows, res.Truncated = res.Rows[:o.maxRows], true
	}
	if o.jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	printAnswer(stdout, res)
	return nil
}

// opened is a database opened read-only with its newest discovery in
// a catalog, when there is one: what ask and mcp work from.
type opened struct {
	src  warehouse.Source
	cat  *catalog.Catalog // nil without a discovery
	run  string
	note string // why no discovery is used
}

func openWithDiscovery(ctx context.Context, db string, isDemo bool, catalogPath, role string) (*opened, error) {
	src, _, err := openSource(ctx, db, isDemo, role)
	if err != nil {
		return nil, err
	}
	d := &opened{src: src}
	if d.cat, d.run, d.note, err = findDiscovery(ctx, catalogPath, isDemo, src); err != nil {
		src.Close()
		return nil, err
	}
	return d, nil
}

func (d *opened) Close() {
	if d.cat != nil {
		d.cat.Close()
	}
	d.src.Close()
}

// findDiscovery finds the newest discovery of this database in the catalog
// at path (default ./discovery/catalog.db), when there is one. It never
// creates a catalog: ask and mcp write nothing. note says why no
// discovery is used.
func findDiscovery(ctx context.Context, path string, isDemo bool, src warehouse.Source) (cat *catalog.Catalog, runID, note string, err error) {
	explicit := path != ""
	if !explicit {
		path = filepath.Join("discovery", "catalog.db")
	}
	if _, err := os.Stat(path); err != nil {
		if explicit {
			return nil, "", "", usagef("--catalog %s: %v", path, errors.Unwrap(err))
		}
		return nil, "", "no discovery catalog found", nil
	}
	cat, err = catalog.Open(ctx, path)
	if err != nil {
		return nil, "", "", usagef("--catalog %s: %v", path, err)
	}
	run, err := cat.LatestRun(ctx, false)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		cat.Close()
		return nil, "", "the catalog holds no discovery", nil
	case err != nil:
		cat.Close()
		return nil, "", "", err
	case run.Dialect != src.Dialect().Name() || (run.Database != src.Database() && !(isDemo && run.Database == demoName)):
		cat.Close()
		return nil, "", fmt.Sprintf("the catalog's newest discovery is of %s database %q", run.Dialect, run.Database), nil
	}
	return cat, run.ID, "", nil
}

func printAnswer(w io.Writer, res orchestrator.AskResult) {
	fmt.Fprintf(w, "Question: %s\n\n", oneLine(res.Question))
	fmt.Fprintf(w, "SQL:\n  %s\n\n", strings.ReplaceAll(strings.TrimSpace(res.SQL), "\n", "\n  "))
	fmt.Fprintf(w, "Result (%s):\n", rowsPhrase(res))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  %s\n", strings.Join(res.Columns, "\t"))
	for _, row := range res.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = cell(v)
		}
		fmt.Fprintf(tw, "  %s\n", strings.Join(cells, "\t"))
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Checked:")
	for _, c := range res.Checks {
		fmt.Fprintf(w, "  - %s\n", c)
	}
	for _, c := range res.Warnings {
		fmt.Fprintf(w, "  ! %s\n", c)
	}
	if res.Explanation != "" {
		fmt.Fprintf(w, "\nThe model's explanation (not checked against the data): %s\n", oneLine(res.Explanation))
	}
	fmt.Fprintf(w, "\n%s · model %s %s · %d call(s), %s tokens", res.Context, res.LLM.Provider, res.LLM.Model, res.LLM.Calls, catalog.Thousands(res.LLM.Tokens))
	if n := len(res.Refusals); n > 0 {
		fmt.Fprintf(w, " · %d proposal(s) refused on the way", n)
	}
	fmt.Fprintln(w)
}

func rowsPhrase(res orchestrator.AskResult) string {
	switch {
	case res.Truncated:
		return fmt.Sprintf("first %d of %d rows", len(res.Rows), res.RowCount)
	case res.RowCount == 1:
		return "1 row"
	default:
		return fmt.Sprintf("%d rows", res.RowCount)
	}
}

func printRefusals(w io.Writer, rs []llm.Refusal) {
	for _, r := range rs {
		fmt.Fprintf(w, "refused (%s): %s\n  %s\n", r.Stage, oneLine(r.Reason), oneLine(r.SQL))
	}
}

func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return fmt.Sprintf("(%d bytes)", len(x))
	case time.Time:
		return x.Format(time.RFC3339)
	}
	s := oneLine(fmt.Sprint(v))
	if len([]rune(s)) > 60 {
		s = string([]rune(s)[:59]) + "…"
	}
	return s
}
