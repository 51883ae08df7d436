package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/discover-db/discover/internal/atomicfile"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/cmd/discover/tui"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/naming"
	// Named so because a run's model client is "model" here.
	modelexpert "github.com/discover-db/discover/experts/model"
	"github.com/discover-db/discover/experts/registry"
	"github.com/discover-db/discover/export/dbml"
	"github.com/discover-db/discover/export/dbt"
	"github.com/discover-db/discover/internal/demo"
	"github.com/discover-db/discover/llm"
	llmanthropic "github.com/discover-db/discover/llm/anthropic"
	llmollama "github.com/discover-db/discover/llm/ollama"
	llmopenai "github.com/discover-db/discover/llm/openai"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/report"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/connect"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// runOptions are a discovery's settings, filled from flags and DISCOVER_*.
type runOptions struct {
	db, out, catalogPath         string
	demo, resume, quiet, verbose bool
	formats                      []string
	maxIterations, parallel      int
	targetConfidence             float64
	targetCoverage               float64
	timeout, queryTimeout        time.Duration
	sampleRows                   int64
	maxQueries                   int64
	include, exclude             []string
	llm, llmModel, llmBaseURL    string
	llmPaths                     int
	llmMaxCalls, llmMaxTokens    int64
	llmTimeout                   time.Duration
	progress                     string
	cpuProfile, tracePath        string
	memProfile                   string
	config                       string
	relations                    []experts.UserRelation
	comments                     []experts.UserComment
	ignoreDeclaredFKs            bool
	allowPrivileged              bool
	role                         string
	allowIncomplete              bool
	showPII                      bool
	llmAllowPII                  bool
	full                         bool
	vocabulary                   any // discover.yaml's, for the settings a re-run compares
}

// Main runs the CLI with injected streams and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	softMemoryLimit()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRootCmd(stdin, stdout, stderr)
	root.SetArgs(args)
	return exitCode(stderr, root.ExecuteContext(ctx))
}

func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:   "discover --db DSN [flags]",
		Short: "Understand a database nobody has explained to you",
		Long: `discover explores a database read-only: four experts (structural, statistical,
semantic, query) work in rounds, writing what they learn into a SQLite catalog;
claims are tested with read-only SQL; the run stops when it is confident, has
covered the database, or stops learning. It writes report.md, report.json and
report.html with the evidence behind every finding.

DSN forms: a SQLite file path (shop.db) or sqlite://path;
postgres://user@host:5432/db; mysql://user:pass@host:3306/db (or @tcp(host:port));
duckdb://file.duckdb, or duckdb://folder (each Parquet/CSV/JSON file a table);
trino://user@host:8080/catalog[/schema]. The database is opened read-only.

Run again into the same --out (or --catalog), a discovery of a database in
which nothing changed since the last complete run (file times, the engine's
change counters, the schema), with the same discover and settings, takes that
run's findings in a second instead of reading the data again; stderr says
which table changed otherwise. --full redoes everything.

Values of columns that hold personal data (e-mail addresses, phone numbers,
names, addresses, card numbers, national identifiers, IBANs, IP addresses,
dates of birth) are masked in the catalog and every report once the run knows
which columns they are (j***@e***.com, +44 7*** ***123); counts, fractions,
lengths and shapes stay exact. --show-pii keeps them, and the report says so.
While a run goes on, values not yet judged are sealed in the catalog under a
key kept in the user's cache folder (discover/sealing, readable by the user
alone) and deleted when the run finishes; a killed or interrupted run keeps
its key for --resume. Each run removes the keys nothing will read again: of
catalogs that are gone, of runs that finished, and of runs not resumed for 7
days (their --resume profiles again what they had sealed), and says so.

Every flag may also be set as DISCOVER_<FLAG>, e.g. DISCOVER_MAX_ITERATIONS=10,
or in discover.yaml (keys are the long flag names with _ for -, plus
"relations" for references the data may not show). Flags beat DISCOVER_*,
which beat the file.

Exit codes: 0 complete; 4 incomplete (some table, view or column could not be
read or profiled, or a planned test was given up or not reached: the summary's
first sentences and the last line on stderr say what and why; 0 with
--allow-incomplete); 1 failed (a catalog write failed, the database stopped
answering: --resume continues); 2 bad usage or input, or another run holds the
catalog; 3 diff found drift; 130 interrupted (Ctrl+C, or q in the terminal
view: --resume continues).`,
		Example: `  discover --demo --out /tmp/shop
  discover --db shop.db --out docs/db --format md,json
  discover catalog search customers --catalog docs/db/catalog.db`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := o.settings(cmd.Flags())
			if err != nil {
				return err
			}
			// The project's words for the name rules, for this run only.
			naming.Use(set.vocabulary)
			defer naming.Use(naming.Vocabulary{})
			return runDiscovery(cmd.Context(), o, stdin, stdout, stderr)
		},
	}
	cmd.SetIn(stdin)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{flagError(err)} })

	o.addRunFlags(cmd.Flags())
	cmd.AddCommand(newVersionCmd(stdout), newCatalogCmd(stdout), newDiffCmd(stdout),
		newAskCmd(stdout, stderr),
		newMCPCmd(stdin, stdout, stderr),
		newLintCmd(stdin, stdout, stderr))
	return cmd
}

// addRunFlags registers a discovery's flags: the main command's, and
// lint's, which runs a discovery the same way before it lints.
func (o *runOptions) addRunFlags(f *pflag.FlagSet) {
	f.StringVar(&o.db, "db", "", "the database to discover (a DSN, see above)")
	f.BoolVar(&o.demo, "demo", false, "discover the built-in demo shop database (built once in the user cache folder)")
	f.StringVar(&o.out, "out", "./discovery", "where report.md, report.json, report.html and catalog.db go")
	f.StringSliceVar(&o.formats, "format", []string{"md", "json", "html"}, "which reports to write: md (report.md, hypotheses.md, and tables/ with one page and diagram per table), json, html, dot (schema.dot), mermaid (schema.mmd), dbt (dbt/models/sources_<schema>.yml), dbml (schema.dbml)")
	f.StringVar(&o.catalogPath, "catalog", "", "the shared catalog, a SQLite file (default OUT/catalog.db)")
	f.IntVar(&o.maxIterations, "max-iterations", 50, "stop after N orchestrator iterations")
	f.Float64Var(&o.targetConfidence, "target-confidence", 0.95, "stop when overall confidence reaches F (0..1)")
	f.Float64Var(&o.targetCoverage, "target-coverage", 0.95, "stop when coverage reaches F (0..1)")
	f.DurationVar(&o.timeout, "timeout", 30*time.Minute, "deadline for the whole run (Go duration: 90s, 10m, 1h)")
	f.DurationVar(&o.queryTimeout, "query-timeout", time.Minute, "deadline for one query against the database")
	f.IntVar(&o.parallel, "parallel", 4, "experts' tasks running at once, and statements one task runs at once (the reference checks of different tables)")
	f.Int64Var(&o.sampleRows, "sample-rows", 1_000_000, "tables larger than this are profiled on a sample")
	f.Int64Var(&o.maxQueries, "max-queries", 0, "queries the run may send to the database (0 = no limit); once spent, the run stops as at its deadline and reports what it found")
	f.StringArrayVar(&o.include, "include", nil, "only tables matching this glob (repeatable; schema.table where there are schemas)")
	f.StringArrayVar(&o.exclude, "exclude", nil, "skip tables matching this glob (repeatable)")
	o.addLLMFlags(f, "SQL formulations per model-proposed hypothesis, voted on (1 = off)", 40, 200_000)
	addSafetyFlags(f, &o.allowPrivileged, &o.role, "the model's SQL")
	f.BoolVar(&o.resume, "resume", false, "continue the newest unfinished run in the catalog")
	f.BoolVar(&o.full, "full", false, "redo everything, even when the catalog's last run is of the same database and nothing it rests on changed (by default such a run's findings are reused)")
	f.StringVar(&o.progress, "progress", "auto", "progress display: tui (the terminal view; q or ctrl+c stops the run like ^C: exit 130, continue with --resume), plain (one line per event), none, auto (tui on a terminal)")
	f.StringVar(&o.config, "config", "", "configuration file (default ./discover.yaml when it exists)")
	f.BoolVar(&o.showPII, "show-pii", false, "keep the values of columns that hold personal data (e-mail addresses, phone numbers, names, card numbers, …) as they are in the catalog and the reports; by default they are masked (j***@e***.com), and the report says which")
	f.BoolVar(&o.allowIncomplete, "allow-incomplete", false, "exit 0, not 4, when the run could not read or profile everything or gave up a planned test (the report still says what it did not see)")
	f.BoolVar(&o.ignoreDeclaredFKs, "ignore-declared-fks", false, "infer relationships as if the schema declared none (benchmarks)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print only failures and the result")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "print every step and task")
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to FILE (go tool pprof -top FILE)")
	f.StringVar(&o.memProfile, "memprofile", "", "write a heap profile of the run's peak of live memory to FILE (go tool pprof -sample_index=inuse_space -top FILE)")
	f.StringVar(&o.tracePath, "trace", "", "write an execution trace of the run to FILE, where the wall-clock time goes (go tool trace FILE)")
}

// settings fill the flags of fs not given from DISCOVER_* and the
// configuration file, and take the file's keys that are no flags.
func (o *runOptions) settings(fs *pflag.FlagSet) (fileSettings, error) {
	if err := applyEnv(fs); err != nil {
		return fileSettings{}, err
	}
	path, explicit := o.config, fs.Changed("config")
	if path == "" {
		path = defaultConfig
	}
	set, err := applyConfig(fs, path, explicit)
	if err != nil {
		return fileSettings{}, err
	}
	o.relations = set.relations
	o.vocabulary = set.vocabulary
	o.comments = set.comments
	return set, nil
}

// addSafetyFlags registers the flags that decide whether SQL discover did
// not write may run on a connection whose role could do more than read.
func addSafetyFlags(f *pflag.FlagSet, allow *bool, role *string, what string) {
	f.BoolVar(allow, "allow-privileged", false, "run "+what+" even when the connection's role could do more than read (superuser, file or program access, dblink, FILE/SUPER/PROCESS or write privileges); the allow-list guard alone then protects the database")
	f.StringVar(role, "role", "", "PostgreSQL: switch to this role (SET ROLE) before anything runs, e.g. a role that can only read")
}

// addLLMFlags registers the model flags, shared by a discovery and ask;
// paths says what --llm-paths multiplies, and the budgets differ.
func (o *runOptions) addLLMFlags(f *pflag.FlagSet, paths string, maxCalls, maxTokens int64) {
	f.StringVar(&o.llm, "llm", "none", "language model: none, openai (any OpenAI-compatible server), ollama, anthropic; keys come from OPENAI_API_KEY / ANTHROPIC_API_KEY only")
	f.StringVar(&o.llmModel, "llm-model", "", "model name (required with --llm)")
	f.StringVar(&o.llmBaseURL, "llm-base-url", "", "model endpoint, e.g. http://127.0.0.1:8000/v1 (default: the provider's)")
	f.IntVar(&o.llmPaths, "llm-paths", 1, paths)
	f.Int64Var(&o.llmMaxCalls, "llm-max-calls", maxCalls, "model requests, retries and repairs included")
	f.Int64Var(&o.llmMaxTokens, "llm-max-tokens", maxTokens, "model tokens (prompt and answer)")
	f.DurationVar(&o.llmTimeout, "llm-timeout", time.Minute, "deadline for one model request")
	f.BoolVar(&o.llmAllowPII, "llm-allow-pii", false, "let the values of columns that hold personal data into model prompts; by default a prompt carries their names and statistics only")
}

// applyEnv fills every flag not given on the command line from DISCOVER_<FLAG>.
func applyEnv(fs *pflag.FlagSet) error {
	var err error
	fs.VisitAll(func(fl *pflag.Flag) {
		if err != nil || fl.Changed {
			return
		}
		name := "DISCOVER_" + strings.ToUpper(strings.ReplaceAll(fl.Name, "-", "_"))
		v, ok := os.LookupEnv(name)
		if !ok {
			return
		}
		if sv, isSlice := fl.Value.(pflag.SliceValue); isSlice {
			err = sv.Replace(splitList(v))
		} else {
			err = fl.Value.Set(v)
		}
		if err != nil {
			err = usagef("%s=%s: %v", name, v, badValue(fl.Value.Type(), v, err))
			return
		}
		fl.Changed = true
	})
	return err
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (o *runOptions) validate() error {
	switch {
	case o.demo && o.db != "":
		return usagef("give either --db or --demo, not both")
	case !o.demo && o.db == "":
		return usagef("no database: give --db DSN (a SQLite file, postgres://…) or --demo")
	case o.maxIterations < 1:
		return usagef("--max-iterations must be at least 1")
	case o.parallel < 1:
		return usagef("--parallel must be at least 1")
	case o.targetConfidence < 0 || o.targetConfidence > 1:
		return usagef("--target-confidence must be between 0 and 1")
	case o.targetCoverage < 0 || o.targetCoverage > 1:
		return usagef("--target-coverage must be between 0 and 1")
	case o.timeout <= 0:
		return usagef("--timeout must be positive")
	case o.queryTimeout <= 0:
		return usagef("--query-timeout must be positive")
	case o.sampleRows < 1:
		return usagef("--sample-rows must be at least 1")
	case o.maxQueries < 0:
		return usagef("--max-queries must be 0 (no limit) or more")
	case o.llmPaths < 1:
		return usagef("--llm-paths must be at least 1")
	}
	for _, f := range o.formats {
		switch f {
		case "md", "json", "html", "dot", "mermaid", "dbt", "dbml":
		default:
			return usagef("--format: unknown format %q (md, json, html, dot, mermaid, dbt, dbml)", f)
		}
	}
	switch o.progress {
	case "auto", "plain", "none", "tui":
	default:
		return usagef("--progress: unknown mode %q (auto, tui, plain, none)", o.progress)
	}
	return o.validateLLM()
}

// validateLLM checks the model flags, shared by a discovery and ask.
func (o *runOptions) validateLLM() error {
	switch o.llm {
	case "none", "":
		return nil
	case "openai":
		if os.Getenv("OPENAI_API_KEY") == "" && o.llmBaseURL == "" {
			return usagef("--llm openai: set OPENAI_API_KEY, or --llm-base-url for a server that needs no key")
		}
	case "anthropic":
		if os.Getenv("ANTHROPIC_API_KEY") == "" {
			return usagef("--llm anthropic: set ANTHROPIC_API_KEY")
		}
	case "ollama":
	default:
		return usagef("--llm: unknown provider %q (none, openai, ollama, anthropic)", o.llm)
	}
	switch {
	case o.llmModel == "":
		return usagef("--llm %s: give --llm-model NAME", o.llm)
	case o.llmMaxCalls < 1:
		return usagef("--llm-max-calls must be at least 1")
	case o.llmMaxTokens < 1:
		return usagef("--llm-max-tokens must be at least 1")
	case o.llmTimeout <= 0:
		return usagef("--llm-timeout must be positive")
	}
	if o.llmBaseURL != "" {
		if u, err := url.Parse(o.llmBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usagef("--llm-base-url %q: want http(s)://host[:port]/path", redactURL(o.llmBaseURL))
		}
	}
	return nil
}

// newModel connects the chosen provider. The key is read here, from the
// provider's variable only, and handed to the provider and to the
// client's redactor; it is never put in options, logs or the catalog.
func newModel(o *runOptions) (*llm.Client, error) {
	cfg := llm.Config{Provider: o.llm, Model: o.llmModel, BaseURL: o.llmBaseURL}
	var p llm.Provider
	var err error
	switch o.llm {
	case "none", "":
		return nil, nil
	case "openai":
		cfg.Key = os.Getenv("OPENAI_API_KEY")
		p, err = llmopenai.New(cfg)
	case "anthropic":
		cfg.Key = os.Getenv("ANTHROPIC_API_KEY")
		p, err = llmanthropic.New(cfg)
	case "ollama":
		p, err = llmollama.New(cfg)
	}
	if err != nil {
		return nil, usagef("--llm %s: %v", o.llm, llm.Redactor{cfg.Key}.Redact(err.Error()))
	}
	return llm.NewClient(p, cfg, llm.Budget{MaxCalls: o.llmMaxCalls, MaxTokens: o.llmMaxTokens, CallTimeout: o.llmTimeout}), nil
}

// redactURL drops credentials and the query from an endpoint before it is
// shown or saved.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// openSource opens the database under discovery, read-only: the DSN, or
// the demo database (built on first use), whose path it returns as dsn.
func openSource(ctx context.Context, dsn string, isDemo bool, role string) (src warehouse.Source, opened string, err error) {
	if isDemo {
		path, err := demo.Ensure(ctx, "")
		if err != nil {
			return nil, "", fmt.Errorf("build the demo database: %w", err)
		}
		dsn = path
	}
	src, err = connect.OpenWith(ctx, dsn, connect.Options{Role: role})
	return src, dsn, err
}

// prepareOut makes sure the output folder exists and is writable before any
// work starts, so a typo fails in a second, not after an hour.
func prepareOut(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usagef("--out %s: %v", dir, errors.Unwrap(err))
	}
	f, err := os.CreateTemp(dir, ".discover-write-test-*")
	if err != nil {
		return usagef("--out %s: not writable: %v", dir, errors.Unwrap(err))
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func runDiscovery(ctx context.Context, o *runOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	return discover(ctx, o, stdin, stderr, func(ctx context.Context, cat *catalog.Catalog, run catalog.Run) error {
		return printWritten(stdout, o, run, func() (*report.Report, []string, error) {
			return writeReports(ctx, cat, run.ID, o.out, o.formats)
		})
	})
}

// discover runs a discovery (or resumes one, or takes the last run's
// findings when nothing changed) into the catalog, then calls finished
// with the finished run, while the catalog is still open and locked, with
// a context the user's interrupt no longer cancels: what is left is to
// write what the run found.
func discover(ctx context.Context, o *runOptions, stdin io.Reader, stderr io.Writer, finished func(context.Context, *catalog.Catalog, catalog.Run) error) error {
	if err := o.validate(); err != nil {
		return err
	}
	if err := prepareOut(o.out); err != nil {
		return err
	}
	stopProfiles, err := startProfiles(o.cpuProfile, o.tracePath, o.memProfile)
	if err != nil {
		return err
	}
	defer stopProfiles()
	if o.catalogPath == "" {
		o.catalogPath = filepath.Join(o.out, "catalog.db")
	}
	unlock, err := lockCatalog(o)
	if err != nil {
		return err
	}
	defer unlock()
	src, dsn, err := openSource(ctx, o.db, o.demo, o.role)
	if err != nil {
		return err
	}
	defer src.Close()
	if err := checkInput(ctx, src, o); err != nil {
		return err
	}

	cat, err := catalog.Open(ctx, o.catalogPath)
	if err != nil {
		return usagef("--catalog %s: %v", o.catalogPath, err)
	}
	defer cat.Close()

	model, err := newModel(o)
	if err != nil {
		return err
	}
	run, listed, err := startOrResume(ctx, cat, o, src, dsn, stderr)
	if err != nil {
		return err
	}
	sweepKeys(ctx, o, run, stderr)
	if run.FinishedAt != nil {
		// Resumed after the run finished: only its reports are missing.
		return finished(context.WithoutCancel(ctx), cat, run)
	}

	// q or Ctrl+C in the terminal view (whose raw terminal turns ^C into a
	// key, not a signal) interrupts the run as SIGINT does: it stays
	// unfinished for --resume, and the exit code is 130.
	ctx, interrupt := context.WithCancel(ctx)
	defer interrupt()
	runCtx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	deadline, _ := runCtx.Deadline()
	names := registry.Names()
	if model != nil {
		names = append(names, modelexpert.Name)
	}
	view := tui.Options{Input: terminalInput(stdin), Output: stderr, Start: time.Now(), Deadline: deadline,
		TargetConfidence: o.targetConfidence, TargetCoverage: o.targetCoverage, MaxQueries: o.maxQueries,
		Experts: names, Stop: interrupt}
	if model != nil {
		view.MaxModelCalls = o.llmMaxCalls
	}
	events := make(chan orchestrator.Event, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		consumeProgress(ctx, o, view, events)
	}()
	orc := &orchestrator.Orchestrator{
		Source:  src,
		Catalog: cat,
		Experts: registry.New(),
		Config: orchestrator.Config{
			MaxIterations: o.maxIterations, TargetConfidence: o.targetConfidence, TargetCoverage: o.targetCoverage,
			Parallel: o.parallel, Include: o.include, Exclude: o.exclude, LLMPaths: o.llmPaths, AllowPrivileged: o.allowPrivileged, Full: o.full,
			Options: experts.Options{SampleRows: o.sampleRows, QueryTimeout: o.queryTimeout, Relations: o.relations, Comments: o.comments,
				IgnoreDeclaredFKs: o.ignoreDeclaredFKs, MaxQueries: o.maxQueries, ShowPII: o.showPII, LLMAllowPII: o.llmAllowPII},
		},
		Events: events,
		Model:  model,
		Listed: listed,
	}
	run, runErr := orc.Run(runCtx, run)
	close(events)
	<-done

	bg := context.WithoutCancel(ctx)
	if ctx.Err() != nil {
		// Interrupted by the user: leave the run unfinished so --resume continues it.
		run.FinishedAt, run.StopReason = nil, ""
		if err := cat.UpdateRun(bg, run); err != nil {
			return fmt.Errorf("record interrupted run: %w", err)
		}
		return exitError{exitSignal, fmt.Sprintf("interrupted; the catalog %s keeps what was found: continue with --resume%s", o.catalogPath, keptKeyNote(o))}
	}
	if werr := cat.WriteErr(); werr != nil {
		// The first line says what happened; no report is written from a
		// catalog that lost a write, so the last good one stays in place.
		return exitError{exitFailed, fmt.Sprintf("%v; what was written before is intact: make room, then continue with --resume%s", werr, keptKeyNote(o))}
	}
	if errors.Is(runErr, orchestrator.ErrDatabaseLost) {
		return exitError{exitFailed, fmt.Sprintf("run %s failed: %v; the catalog %s keeps what was found: continue with --resume once the database answers%s", run.ID, runErr, o.catalogPath, keptKeyNote(o))}
	}
	if runErr != nil {
		return fmt.Errorf("run %s: %w (the catalog keeps what was found: continue with --resume%s)", run.ID, runErr, keptKeyNote(o))
	}
	return finished(bg, cat, run)
}

// printWritten writes the reports and lists them, with the stop reason,
// and gives an incomplete run its exit code (4, or 0 with
// --allow-incomplete) with the summary's first sentences on stderr.
func printWritten(stdout io.Writer, o *runOptions, run catalog.Run, write func() (*report.Report, []string, error)) error {
	rep, written, err := write()
	if err != nil {
		return err
	}
	if !o.quiet {
		fmt.Fprintf(stdout, "stopped: %s\n", run.StopReason)
		for _, p := range written {
			fmt.Fprintln(stdout, p)
		}
		fmt.Fprintln(stdout, o.catalogPath)
	}
	if rep == nil || rep.Outcome == nil || rep.Outcome.Status != catalog.OutcomeIncomplete {
		return nil
	}
	msg := strings.Join(report.OutcomeSentences(rep.Outcome), " ")
	if o.allowIncomplete {
		return exitError{exitOK, msg + " (--allow-incomplete: exit 0)"}
	}
	return exitError{exitIncomplete, msg}
}

func startOrResume(ctx context.Context, cat *catalog.Catalog, o *runOptions, src warehouse.Source, dsn string, stderr io.Writer) (catalog.Run, []warehouse.Table, error) {
	redacted := warehouse.Redact(dsn)
	if o.resume {
		run, err := cat.LatestRun(ctx, true)
		if errors.Is(err, catalog.ErrNotFound) {
			// A run killed after it was recorded finished but before its
			// reports were written: --resume writes them from the catalog.
			if last, lerr := cat.LatestRun(ctx, false); lerr == nil && last.DSN == redacted && last.FinishedAt != nil {
				return last, nil, nil
			}
			return run, nil, usagef("--resume: no unfinished run in %s", o.catalogPath)
		}
		if err != nil {
			return run, nil, fmt.Errorf("--resume: %w", err)
		}
		if run.DSN != redacted {
			return run, nil, usagef("--resume: the unfinished run in %s is of %s, not %s", o.catalogPath, run.DSN, redacted)
		}
		return run, nil, nil
	}
	opts, _ := json.Marshal(map[string]any{
		"max_iterations": o.maxIterations, "target_confidence": o.targetConfidence, "target_coverage": o.targetCoverage,
		"timeout": o.timeout.String(), "parallel": o.parallel, "sample_rows": o.sampleRows, "max_queries": o.maxQueries,
		"include": o.include, "exclude": o.exclude, "llm": o.llm,
		"llm_model": o.llmModel, "llm_base_url": redactURL(o.llmBaseURL), "llm_paths": o.llmPaths,
	})
	run := catalog.Run{
		ID: newRunID(), DSN: redacted, Dialect: src.Dialect().Name(), Database: src.Database(),
		StartedAt: time.Now().UTC(), Options: opts,
	}
	if o.demo {
		run.Database = demoName
	}
	return startNew(ctx, cat, o, src, run, stderr)
}

func newRunID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b)
}

func consumeProgress(ctx context.Context, o *runOptions, view tui.Options, events <-chan orchestrator.Event) {
	stderr := view.Output
	switch {
	case o.progress == "none":
		for range events {
		}
		return
	case o.progress == "tui" || (o.progress == "auto" && !o.quiet && isTerminal(stderr)):
		if err := tui.Run(ctx, events, view); err != nil {
			fmt.Fprintf(stderr, "discover: terminal view: %v\n", err)
		}
		return
	}
	orchestrator.PlainWriter{W: stderr, Verbose: o.verbose, Quiet: o.quiet}.Consume(events)
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd()) && os.Getenv("TERM") != "dumb"
}

// terminalInput gives the view its keys only from a terminal: a pipe or a
// file on stdin is not someone at a keyboard.
func terminalInput(stdin io.Reader) io.Reader {
	if isTerminal(stdin) {
		return stdin
	}
	return nil
}

// writeReports renders the run's report in each format, each file written
// whole (temp file, then rename) so a reader never sees half a report.
func writeReports(ctx context.Context, cat *catalog.Catalog, runID, out string, formats []string) (*report.Report, []string, error) {
	rep, err := report.FromCatalog(ctx, cat, runID)
	if err != nil {
		return nil, nil, fmt.Errorf("build report: %w", err)
	}
	var written []string
	for _, f := range formats {
		if f == "dbt" {
			// A folder of dbt sources files, one per schema (export/dbt).
			paths, err := dbt.Write(filepath.Join(out, "dbt"), rep)
			written = append(written, paths...)
			if err != nil {
				return rep, written, fmt.Errorf("write dbt sources: %w", err)
			}
			continue
		}
		var name string
		var write func(io.Writer, *report.Report) error
		switch f {
		case "json":
			name, write = "report.json", report.WriteJSON
		case "md":
			name, write = "report.md", report.WriteMarkdown
		case "html":
			name, write = "report.html", report.WriteHTML
		case "dot":
			name, write = "schema.dot", report.WriteDOT
		case "mermaid":
			name, write = "schema.mmd", report.WriteMermaid
		case "dbml":
			name, write = "schema.dbml", dbml.Write
		}
		path := filepath.Join(out, name)
		if err := atomicfile.Write(path, func(w io.Writer) error { return write(w, rep) }); err != nil {
			return rep, written, fmt.Errorf("write %s: %w", path, err)
		}
		written = append(written, path)
		if f == "md" {
			// The ledger of hypotheses, on its own page beside report.md.
			ledger := filepath.Join(out, report.LedgerFile)
			if err := atomicfile.Write(ledger, func(w io.Writer) error { return report.WriteLedger(w, rep) }); err != nil {
				return rep, written, fmt.Errorf("write %s: %w", ledger, err)
			}
			written = append(written, ledger)
			// Repository docs (issue 8): an index and one page per table,
			// stable across runs on unchanged data, for a CI job to commit.
			dir := filepath.Join(out, "tables")
			if _, err := report.WriteDocs(dir, rep); err != nil {
				return rep, written, fmt.Errorf("write docs %s: %w", dir, err)
			}
			written = append(written, filepath.Join(dir, report.DocsIndex))
		}
	}
	return rep, written, nil
}

func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(stdout, "discover %s\n", version)
			return nil
		},
	}
}
