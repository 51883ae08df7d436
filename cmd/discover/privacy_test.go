package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/internal/load"
	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/llm/llmtest"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/redact"
	"github.com/discover-db/discover/report"
)

// TestPrivacySection (issue 21, detection): a run on the demo names the
// columns that hold personal data in report.json (a pii field, its
// category, confidence and evidence) and in report.md's Privacy section;
// the columns that hold none have pii null, and the evidence gives counts,
// never a value of the column.
func TestPrivacySection(t *testing.T) {
	out := t.TempDir()
	if res := run(t, "--demo", "--out", out, "--format", "md,json", "-q", "--include", "customers", "--include", "orders"); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	raw, _ := readReport(t, out)
	want := map[string]string{
		"customers.first_name": "person_name", "customers.last_name": "person_name",
		"customers.email": "email", "customers.phone": "phone",
	}
	got := map[string]string{}
	for _, tb := range raw["tables"].([]any) {
		tm := tb.(map[string]any)
		for _, c := range tm["columns"].([]any) {
			cm := c.(map[string]any)
			key := tm["name"].(string) + "." + cm["name"].(string)
			p, present := cm["pii"]
			if !present {
				t.Fatalf("%s: no pii field", key)
			}
			if p == nil {
				continue
			}
			pm := p.(map[string]any)
			got[key] = pm["category"].(string)
			if conf := pm["confidence"].(float64); conf < 0.8 || conf > 1 {
				t.Errorf("%s: confidence %.2f", key, conf)
			}
			evidence := pm["evidence"].([]any)
			if len(evidence) == 0 {
				t.Errorf("%s: no evidence", key)
			}
			for _, tv := range cm["top_values"].([]any) {
				v := tv.(map[string]any)["value"].(string)
				for _, e := range evidence {
					if strings.Contains(e.(string), v) {
						t.Errorf("%s: evidence %q holds the value %q", key, e, v)
					}
				}
			}
		}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: pii %q, want %q", k, got[k], w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: pii %q, want none", k, got[k])
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(md)
	if i := strings.Index(section, "\n## Privacy\n"); i < 0 {
		t.Fatalf("report.md has no Privacy section")
	} else {
		section = section[i:]
	}
	if i := strings.Index(section[1:], "\n## "); i >= 0 {
		section = section[:i+1]
	}
	if !strings.Contains(section, "4 columns hold personal data") {
		t.Errorf("Privacy section:\n%s", section)
	}
	for k, w := range want {
		if !strings.Contains(section, "**"+k+"**: "+strings.ReplaceAll(w, "_", " ")) {
			t.Errorf("Privacy section lacks %s (%s):\n%s", k, w, section)
		}
	}
}

// TestPrivacyMasksEveryOutput (issue 21, masking): the values of the
// demo's personal-data columns that a --show-pii run shows (least and
// greatest, top values, anomaly examples) appear nowhere in a default
// run's outputs: report.json, .md, .html, the table pages, the catalog
// file's bytes, stdout and stderr. The planted duplicate e-mail is still
// reported, masked, and the report says the values are masked.
func TestPrivacyMasksEveryOutput(t *testing.T) {
	masked, _ := masksEveryOutput(t, "--demo")

	// The findings are still there, masked.
	_, m := readReport(t, masked)
	if m.Privacy == nil || !m.Privacy.ValuesMasked || m.Privacy.Columns != 8 {
		t.Errorf("privacy %+v, want values masked, 8 columns", m.Privacy)
	}
	_, email := findColumn(m, "customers", "email")
	if email == nil {
		t.Fatal("no customers.email")
	}
	dups := anomaliesOf(email, "duplicate")
	if len(dups) != 1 || len(dups[0].Examples) == 0 || !strings.Contains(dups[0].Examples[0], "***@") {
		t.Errorf("customers.email's duplicate, masked: %s", describeAnomalies(email))
	}
	md, err := os.ReadFile(filepath.Join(masked, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "Their values are masked here and in the catalog") {
		t.Error("report.md does not say the values are masked")
	}
}

// masksEveryOutput runs a discovery of the database db names twice, with
// --show-pii and by default, and fails for every value of a personal-data
// column that the first shows (personalValues) and any output of the
// second holds: report.json, .md, .html, the table pages, the catalog
// file's bytes, stdout and stderr. It returns the default run's folder
// and result.
func masksEveryOutput(t *testing.T, db ...string) (string, result) {
	t.Helper()
	shown, masked := t.TempDir(), t.TempDir()
	if res := run(t, append(db, "--out", shown, "--show-pii", "-q")...); res.code != 0 {
		t.Fatalf("--show-pii: exit %d\n%s", res.code, res.stderr)
	}
	res := run(t, append(db, "--out", masked)...)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}

	raw, rep := personalValues(t, shown)
	if rep.Privacy == nil || rep.Privacy.ValuesMasked {
		t.Errorf("--show-pii: privacy %+v, want values_masked false", rep.Privacy)
	}

	files := func(dir string) map[string][]byte {
		out := map[string][]byte{}
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			out[p] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	shownFiles, maskedFiles := files(shown), files(masked)
	maskedFiles["stdout"], maskedFiles["stderr"] = []byte(res.stdout), []byte(res.stderr)
	for _, name := range []string{"report.json", "report.md", "report.html", "catalog.db"} {
		if _, ok := maskedFiles[filepath.Join(masked, name)]; !ok {
			t.Fatalf("no %s in the default run's outputs", name)
		}
	}
	for _, v := range raw {
		inShown := false
		for _, b := range shownFiles {
			if strings.Contains(string(b), v) {
				inShown = true
				break
			}
		}
		if !inShown {
			t.Errorf("%q is in no output of the --show-pii run: the search below proves nothing for it", v)
		}
		for p, b := range maskedFiles {
			if strings.Contains(string(b), v) {
				t.Errorf("%s holds the personal value %q", p, v)
			}
		}
	}
	return masked, res
}

// personalValues are the values a --show-pii run's report (in dir) shows of
// its personal-data columns (least and greatest, top values, anomaly
// examples), five characters or more, and not also a value of another
// column (a city that is also a surname is not a leak of the name); at
// least 20 of them.
func personalValues(t *testing.T, dir string) ([]string, report.Report) {
	t.Helper()
	_, rep := readReport(t, dir)
	personal, other := map[string]bool{}, map[string]bool{}
	for _, tb := range rep.Tables {
		for _, c := range tb.Columns {
			vals := []string{}
			for _, v := range []*string{c.Min, c.Max} {
				if v != nil {
					vals = append(vals, *v)
				}
			}
			for _, tv := range c.TopValues {
				vals = append(vals, tv.Value)
			}
			for _, a := range c.Anomalies {
				vals = append(vals, a.Examples...)
			}
			// A column of numbers has them in its figures too: the mean
			// (the value of a column of one) and the histogram's bounds.
			var figures []float64
			if c.Mean != nil {
				figures = append(figures, *c.Mean)
			}
			if c.Histogram != nil {
				figures = append(figures, c.Histogram.Bounds...)
			}
			for _, f := range figures {
				vals = append(vals, strconv.FormatFloat(f, 'f', -1, 64))
			}
			for _, v := range vals {
				if c.PII != nil {
					personal[v] = true
				} else {
					other[v] = true
				}
			}
		}
	}
	var raw []string
	for v := range personal {
		if len(v) >= 5 && !other[v] {
			raw = append(raw, v)
		}
	}
	sort.Strings(raw)
	if len(raw) < 20 {
		t.Fatalf("only %d personal values to look for: %v", len(raw), raw)
	}
	return raw, rep
}

// TestPrivacyMasksNumbersOfPersonalColumns (issue 21): a personal-data
// column stored as numbers (phones in INTEGER columns) has its values in
// its figures as well as in its least and greatest: the mean, the
// quantiles and the histogram's bounds. None of them reaches an output of
// a default run, the catalog's profile included; the counts stay.
func TestPrivacyMasksNumbersOfPersonalColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clienti.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`CREATE TABLE clienti (id INTEGER PRIMARY KEY, telefono INTEGER NOT NULL, cellulare INTEGER, punti INTEGER NOT NULL)`}
	for i := range 80 {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO clienti VALUES (%d, %d, %d, %d)`,
			i+1, 3471234567+int64(i)*7919, 3201234567+int64(i)*104729, i%7))
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	masked, _ := masksEveryOutput(t, "--db", path)
	_, rep := readReport(t, masked)
	_, phone := findColumn(rep, "clienti", "telefono")
	if phone == nil || phone.PII == nil || phone.PII.Category != "phone" {
		t.Fatalf("clienti.telefono: %+v, want a phone column", phone)
	}
	if phone.Mean != nil || phone.Histogram != nil || phone.DistinctCount == nil || *phone.DistinctCount != 80 ||
		phone.NullFraction == nil || *phone.NullFraction != 0 {
		t.Errorf("clienti.telefono: mean %v, histogram %v, distinct %v, null fraction %v; want no mean nor histogram, 80 distinct, none null",
			phone.Mean, phone.Histogram, phone.DistinctCount, phone.NullFraction)
	}
	// A column of numbers that are no one's keeps its figures.
	if _, punti := findColumn(rep, "clienti", "punti"); punti == nil || punti.Mean == nil || punti.Histogram == nil {
		t.Errorf("clienti.punti: %+v, want its mean and histogram", punti)
	}
	// The catalog's profile holds no quantile, the one figure the report
	// does not show.
	cat, err := sql.Open("sqlite", filepath.Join(masked, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	var doc string
	if err := cat.QueryRow(`SELECT document FROM entries WHERE kind = 'profile' AND key = 'clienti.telefono'`).Scan(&doc); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{`"quantiles"`, `"histogram"`, `"sealed_figures"`, `"mean":3`} {
		if strings.Contains(doc, f) {
			t.Errorf("the catalog's profile of clienti.telefono holds %s: %s", f, doc)
		}
	}
}

// TestPrivacyKeepsValuesOutOfPrompts (issue 21): a discovery of the demo
// with a model sends it none of the values of the personal-data columns
// (their names and statistics only), unless --llm-allow-pii, and then some.
func TestPrivacyKeepsValuesOutOfPrompts(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", llmCanary)
	shown := t.TempDir()
	if res := run(t, "--demo", "--out", shown, "--show-pii", "-q"); res.code != 0 {
		t.Fatalf("--show-pii: exit %d\n%s", res.code, res.stderr)
	}
	raw, _ := personalValues(t, shown)
	prompts := func(extra ...string) string {
		srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Reply {
			if rep, ok := quietJoins(req); ok {
				return rep
			}
			return llmtest.Reply{Status: 500, Raw: "no answer"}
		})
		defer srv.Close()
		args := append([]string{"--demo", "--out", t.TempDir(), "-q", "--llm", "openai", "--llm-model", "scripted-1",
			"--llm-base-url", srv.URL + "/v1"}, extra...)
		if res := run(t, args...); res.code != 0 && res.code != 4 {
			t.Fatalf("%v: exit %d\n%s", extra, res.code, res.stderr)
		}
		var b strings.Builder
		for _, r := range srv.Requests() {
			b.WriteString(r.Text())
		}
		if b.Len() == 0 {
			t.Fatalf("%v: the model was asked nothing", extra)
		}
		return b.String()
	}
	withheld := prompts()
	for _, v := range raw {
		if strings.Contains(withheld, v) {
			t.Errorf("a prompt holds the personal value %q", v)
		}
	}
	if !strings.Contains(withheld, `"personal_data_values_withheld":"email"`) {
		t.Error("no prompt says that the e-mail addresses were withheld")
	}
	allowed := prompts("--llm-allow-pii")
	n := 0
	for _, v := range raw {
		if strings.Contains(allowed, v) {
			n++
		}
	}
	if n == 0 {
		t.Error("--llm-allow-pii: no personal value reached a prompt: the check above proves nothing")
	}
}

// TestPrivacyMasksQueryResults (issue 21): the MCP server's run_query
// masks the values of the result columns that hold personal data: named as
// the discovery's personal-data columns are (first_name), found so by
// their values under another name (an alias of the e-mail address), or
// read from one under another name though the values show nothing (the
// last name's first two letters: the query's select list names the
// column); it names them in masked_columns, and counts and other columns stay as they
// are. With --show-pii, the values come back as they are.
func TestPrivacyMasksQueryResults(t *testing.T) {
	out := t.TempDir()
	if res := run(t, "--demo", "--out", out, "--progress", "none", "--format", "json"); res.code != 0 {
		t.Fatalf("discovery: exit %d\n%s", res.code, res.stderr)
	}
	cat := filepath.Join(out, "catalog.db")
	const q = "SELECT c.id, c.first_name, c.email AS contact, substr(c.last_name, 1, 2) AS k, c.country_code FROM customers AS c ORDER BY c.id LIMIT 20"
	query := func(extra ...string) (columns []string, rows [][]any, masked []string) {
		resp, res := mcpSession(t, append([]string{"--demo", "--catalog", cat}, extra...),
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`,
			call(2, "run_query", map[string]any{"sql": q}))
		if res.code != 0 {
			t.Fatalf("mcp %v: exit %d\n%s", extra, res.code, res.stderr)
		}
		text, isErr := toolText(t, resp["2"])
		if isErr {
			t.Fatalf("run_query %v: %s", extra, text)
		}
		var r struct {
			Columns []string `json:"columns"`
			Rows    [][]any  `json:"rows"`
			Masked  []string `json:"masked_columns"`
		}
		if err := json.Unmarshal([]byte(text), &r); err != nil {
			t.Fatalf("%v: %s", err, text)
		}
		return r.Columns, r.Rows, r.Masked
	}
	cols, shown, none := query("--show-pii")
	if len(none) != 0 || len(shown) != 20 {
		t.Fatalf("--show-pii: masked %v, %d rows", none, len(shown))
	}
	_, rows, masked := query()
	if strings.Join(masked, ",") != "first_name,contact,k" {
		t.Errorf("masked columns %v, want first_name, contact (the e-mail by its values) and k (by the column it reads)", masked)
	}
	for i := range rows {
		for j, c := range cols {
			raw, got := fmt.Sprint(shown[i][j]), fmt.Sprint(rows[i][j])
			switch c {
			case "id", "country_code":
				if got != raw {
					t.Errorf("row %d %s: %q, want %q as it is", i, c, got, raw)
				}
			default:
				if got == raw || !strings.Contains(got, "***") {
					t.Errorf("row %d %s: %q for %q, want it masked", i, c, got, raw)
				}
			}
		}
	}
}

// TestPrivacyMasksAskAnswers (issue 21): `discover ask` shows the result
// of a query that selects e-mail addresses masked, and says so; with
// --show-pii, as they are.
func TestPrivacyMasksAskAnswers(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Reply {
		return answer(`SELECT id, email FROM customers ORDER BY id LIMIT 5`)
	})
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", llmCanary)
	ask := func(extra ...string) orchestrator.AskResult {
		args := append([]string{"ask", "Which e-mail addresses do the first customers have?", "--demo", "--catalog", "",
			"--llm", "openai", "--llm-model", "scripted", "--llm-base-url", srv.URL + "/v1", "--json"}, extra...)
		res := run(t, args...)
		if res.code != 0 {
			t.Fatalf("ask %v: exit %d\n%s", extra, res.code, res.stderr)
		}
		var a orchestrator.AskResult
		if err := json.Unmarshal([]byte(res.stdout), &a); err != nil {
			t.Fatalf("%v: %s", err, res.stdout)
		}
		return a
	}
	shown, masked := ask("--show-pii"), ask()
	if len(shown.Rows) != 5 || len(masked.Rows) != 5 {
		t.Fatalf("rows: %d shown, %d masked", len(shown.Rows), len(masked.Rows))
	}
	for i := range shown.Rows {
		raw, got := fmt.Sprint(shown.Rows[i][1]), fmt.Sprint(masked.Rows[i][1])
		if !strings.Contains(raw, "@") || got == raw || !strings.Contains(got, "***@") {
			t.Errorf("row %d: %q shown as %q, want it masked", i, raw, got)
		}
		if fmt.Sprint(shown.Rows[i][0]) != fmt.Sprint(masked.Rows[i][0]) {
			t.Errorf("row %d: the id changed", i)
		}
	}
	if !strings.Contains(strings.Join(masked.Warnings, " "), "email hold personal data and are masked") {
		t.Errorf("warnings %v do not say the e-mail addresses are masked", masked.Warnings)
	}
}

// TestPrivacyInManyLanguages (issue 21): on piibench's generated Italian,
// Polish, Swedish and British clinic (python3 cmd/piibench/generate.py,
// the database written after privacy's rules, so not held out), every
// column's category is the truth's, whatever language its name is in or
// however little it says (medico, numero, kundnummer, codice_dip): names
// and addresses by their values, national numbers by their checks; the
// cities, products, firms named after families and category labels hold
// none. The values of its personal-data columns reach no output of a
// default run.
func TestPrivacyInManyLanguages(t *testing.T) {
	dir := t.TempDir()
	const db = "clinica_it_pl_se"
	cmd := exec.Command("python3", filepath.Join("..", "piibench", "generate.py"), dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generate.py: %v\n%s", err, out)
	}
	truth := map[string]string{}
	b, err := os.ReadFile(filepath.Join(dir, "TRUTH.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f := strings.Split(line, "\t")
		if f[0] == db {
			truth[f[1]+"."+f[2]] = f[3]
		}
	}
	if len(truth) < 40 {
		t.Fatalf("%d columns of %s in the truth", len(truth), db)
	}
	// What the semantic expert does not tell yet, and why.
	misses := map[string]string{}
	masked, _ := masksEveryOutput(t, "--db", filepath.Join(dir, db+".db"))
	_, rep := readReport(t, masked)
	found := map[string]string{}
	for _, tb := range rep.Tables {
		for _, c := range tb.Columns {
			found[tb.Name+"."+c.Name] = "none"
			if c.PII != nil {
				found[tb.Name+"."+c.Name] = c.PII.Category
			}
		}
	}
	personal := 0
	for col, want := range truth {
		if want != "none" {
			personal++
		}
		if got := found[col]; got != want && misses[col] == "" {
			t.Errorf("%s: %q, want %q", col, got, want)
		}
	}
	if personal < 20 {
		t.Errorf("only %d personal columns in the truth", personal)
	}
}

// TestPrivacyMasksQueryResultsPostgres (issue 21): on PostgreSQL, a result
// column is masked by the table column the server says it reads, where
// the query's text cannot tell (a table alias that renames its columns)
// and three rows are too few for the values to tell either.
func TestPrivacyMasksQueryResultsPostgres(t *testing.T) {
	dsn, _, admin := pgscratch.Database(t, pgscratch.Server(t), "pii_alias")
	var rows []string
	for i := range 40 {
		rows = append(rows, fmt.Sprintf("(%d, 'person%d@mail.example', %d)", i+1, i, 10+i%7))
	}
	execAll(t, admin, []string{
		`CREATE TABLE people (id int PRIMARY KEY, email text NOT NULL, visits int NOT NULL)`,
		`INSERT INTO people VALUES ` + strings.Join(rows, ", "),
	})
	out := t.TempDir()
	if res := run(t, "--db", dsn, "--out", out, "--progress", "none", "--format", "json"); res.code != 0 {
		t.Fatalf("discovery: exit %d\n%s", res.code, res.stderr)
	}
	const q = "SELECT x, n FROM people AS p(i, x, n) ORDER BY i LIMIT 3"
	resp, res := mcpSession(t, []string{"--db", dsn, "--catalog", filepath.Join(out, "catalog.db"), "--allow-privileged"},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`,
		call(2, "run_query", map[string]any{"sql": q}))
	if res.code != 0 {
		t.Fatalf("mcp: exit %d\n%s", res.code, res.stderr)
	}
	text, isErr := toolText(t, resp["2"])
	if isErr {
		t.Fatalf("run_query: %s", text)
	}
	var r struct {
		Rows   [][]any  `json:"rows"`
		Masked []string `json:"masked_columns"`
	}
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	if strings.Join(r.Masked, ",") != "x" || len(r.Rows) != 3 {
		t.Fatalf("masked %v, %d rows: want x masked (the e-mail, by the column PostgreSQL names)", r.Masked, len(r.Rows))
	}
	for i, row := range r.Rows {
		if got := fmt.Sprint(row[0]); strings.Contains(got, fmt.Sprintf("person%d", i)) || !strings.Contains(got, "***@") {
			t.Errorf("row %d: %q, want it masked", i, got)
		}
		if fmt.Sprint(row[1]) != fmt.Sprint(10+i%7) {
			t.Errorf("row %d: visits %v, want it as it is", i, row[1])
		}
	}
}

// TestPrivacyKilledRunLeavesNoValues (issue 21): a discover process killed
// with SIGKILL at any point of a run leaves none of the values of the
// columns it finds personal in the catalog's files (the database and its
// log), and --resume finishes the run with the same personal-data
// columns. The run is piibench's clinic (python3 cmd/piibench/generate.py),
// killed right after its k-th catalog write for k spread over the whole
// run; the values looked for are every value the database holds in a
// column an uninterrupted run finds personal, six characters or more and
// no part of a value of another column (a surname inside a firm's name).
func TestPrivacyKilledRunLeavesNoValues(t *testing.T) {
	db, args := piibenchClinic(t)

	// The uninterrupted run: its writes, and which columns it finds personal.
	ref := t.TempDir()
	stop := recordWrites(t, filepath.Join(ref, "catalog.db"))
	res := run(t, args(ref)...)
	writes := len(stop())
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	pii := piiColumns(t, ref)
	raw := columnValues(t, db, pii)
	if len(pii) < 15 || len(raw) < 1000 {
		t.Fatalf("%d personal columns, %d values to look for", len(pii), len(raw))
	}
	leaks := func(when, out string) {
		t.Helper()
		files, _ := filepath.Glob(filepath.Join(out, "catalog.db*"))
		if len(files) == 0 {
			t.Fatalf("%s: no catalog files in %s", when, out)
		}
		findLeaks(t, when, files, raw)
	}
	leaks("the uninterrupted run", ref)

	const points = 10
	var mid string
	for i := 1; i <= points; i++ {
		k := int64(i * writes / (points + 1))
		out := t.TempDir()
		killedRun(t, k, args(out))
		leaks(fmt.Sprintf("killed after write %d of %d", k, writes), out)
		if i == points/2 {
			mid = out
		}
	}
	res = run(t, append(args(mid), "--resume")...)
	if res.code != 0 {
		t.Fatalf("--resume: exit %d\n%s", res.code, res.stderr)
	}
	leaks("resumed", mid)
	if got := piiColumns(t, mid); !reflect.DeepEqual(got, pii) {
		t.Errorf("the resumed run's personal columns %v, want %v", got, pii)
	}
}

// findLeaks fails t for each of the values raw that one of files holds
// (the first five named, then their number).
func findLeaks(t *testing.T, when string, files, raw []string) {
	t.Helper()
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// A value is looked for where its first word is (a quick
		// index: thousands of values over every file of every kill).
		words := map[string]bool{}
		for _, w := range strings.FieldsFunc(string(b), notAlnum) {
			words[w] = true
		}
		for _, v := range raw {
			if words[firstAlnum(v)] && strings.Contains(string(b), v) {
				if n++; n <= 5 {
					t.Errorf("%s: %s holds the personal value %q", when, filepath.Base(f), v)
				}
			}
		}
	}
	if n > 5 {
		t.Errorf("%s: %d personal values in all", when, n)
	}
}

// piiColumns maps the personal-data columns of the report in dir to their
// categories.
func piiColumns(t *testing.T, dir string) map[string]string {
	t.Helper()
	_, rep := readReport(t, dir)
	out := map[string]string{}
	for _, tb := range rep.Tables {
		for _, c := range tb.Columns {
			if c.PII != nil {
				out[tb.Name+"."+c.Name] = c.PII.Category
			}
		}
	}
	return out
}

// columnValues are the distinct values of the SQLite database's columns
// pii names, as text, six characters or more and no part of a value of
// another column.
func columnValues(t *testing.T, path string, pii map[string]string) []string {
	t.Helper()
	d, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rows, err := d.Query(`SELECT m.name, p.name FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	var cols [][2]string
	for rows.Next() {
		var tb, c string
		if err := rows.Scan(&tb, &c); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, [2]string{tb, c})
	}
	rows.Close()
	personal, other := map[string]bool{}, map[string]bool{}
	for _, tc := range cols {
		rs, err := d.Query(fmt.Sprintf(`SELECT DISTINCT CAST(%q AS TEXT) FROM %q WHERE %q IS NOT NULL`, tc[1], tc[0], tc[1]))
		if err != nil {
			t.Fatal(err)
		}
		for rs.Next() {
			var v string
			if err := rs.Scan(&v); err != nil {
				t.Fatal(err)
			}
			if _, ok := pii[tc[0]+"."+tc[1]]; ok {
				personal[v] = true
			} else {
				other[v] = true
			}
		}
		rs.Close()
	}
	// The other values by each word they hold: a value is part of another
	// only if that one holds its first word.
	byWord := map[string][]string{}
	for v := range other {
		for _, w := range strings.FieldsFunc(v, notAlnum) {
			byWord[w] = append(byWord[w], v)
		}
	}
	var out []string
values:
	for v := range personal {
		if len(v) < 6 {
			continue
		}
		for _, w := range byWord[firstAlnum(v)] {
			if strings.Contains(w, v) {
				continue values
			}
		}
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

func notAlnum(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// firstAlnum is s's first word of letters and digits.
func firstAlnum(s string) string {
	if f := strings.FieldsFunc(s, notAlnum); len(f) > 0 {
		return f[0]
	}
	return ""
}

// TestPrivacyResumeWithoutKey (issue 21): a killed run whose sealing key
// is gone when it is resumed (a later run removed it: redact.Sweep, after
// KeyMaxAge; or the user cleared the cache) finishes cleanly: --resume
// exits 0, says which tables it profiles again when the killed process had
// sealed any, leaves none of the personal values in the catalog's files or
// the report, and finds what the uninterrupted run found. The kills are
// spread over piibench's clinic run, with two in its last pass: right
// after the personal columns' profiles were written with their masks alone
// (the raw values kept beside the key only), and right before the run is
// marked finished; in between, the findings that quote a personal value
// are masked only by a pass that knows the raw values.
func TestPrivacyResumeWithoutKey(t *testing.T) {
	db, args := piibenchClinic(t)
	ref := t.TempDir()
	stop := recordWrites(t, filepath.Join(ref, "catalog.db"))
	res := run(t, args(ref)...)
	ws := stop()
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	pii := piiColumns(t, ref)
	raw := columnValues(t, db, pii)
	want, _ := reportFindings(t, ref)
	// The last pass: the outcome, then the guard's batch of the profiles
	// it writes with their masks alone (redact.Guard.Finish), then the
	// findings the run's last mask changes (redact.Catalog), the privacy
	// entry, and the run marked finished.
	total := int64(len(ws))
	outcome, masks := -1, int64(-1)
	for i, w := range ws {
		if w.kind == catalog.KindOutcome {
			outcome = i
		}
	}
	for i := outcome + 1; outcome >= 0 && i < len(ws); i++ {
		if ws[i].kind == catalog.KindProfile {
			masks = int64(i + 1)
			break
		}
	}
	if masks < 0 || masks >= total-1 {
		t.Fatalf("no profile written in the last pass (outcome at write %d of %d)", outcome+1, total)
	}
	points := []int64{total / 5, 2 * total / 5, 3 * total / 5, 4 * total / 5, masks, total - 1}
	for _, k := range points {
		t.Run(fmt.Sprintf("kill_after_write_%d", k), func(t *testing.T) {
			out := t.TempDir()
			killedRun(t, k, args(out))
			catPath := filepath.Join(out, "catalog.db")
			unreadable := sealedProfiles(t, catPath)
			if n := forgetKeys(t, catPath); n != 1 {
				t.Fatalf("%d sealing keys of the killed run in the cache, want 1", n)
			}
			res := run(t, append(args(out), "--resume")...)
			if res.code != 0 {
				t.Fatalf("--resume without the key: exit %d\n%s", res.code, res.stderr)
			}
			said := strings.Contains(res.stderr, "sealing key of the earlier attempt is gone")
			if said != (unreadable > 0) {
				t.Errorf("the killed run left %d profiles sealed or masked; --resume said it profiles tables again: %v\n%s", unreadable, said, res.stderr)
			}
			files, _ := filepath.Glob(filepath.Join(out, "catalog.db*"))
			findLeaks(t, fmt.Sprintf("resumed without its key after write %d of %d", k, total), append(files, filepath.Join(out, "report.json")), raw)
			if got := piiColumns(t, out); !reflect.DeepEqual(got, pii) {
				t.Errorf("the resumed run's personal columns %v, want %v", got, pii)
			}
			got, _ := reportFindings(t, out)
			compareFindings(t, want, got)
			if n := forgetKeys(t, catPath); n != 0 {
				t.Errorf("the finished run left %d sealing keys in the cache", n)
			}
		})
	}
}

// sealedProfiles counts the profiles in the catalog file at path that hold
// values a process sealed (sealed, sealed_values, sealed_figures) or wrote
// masked in its last pass: what a resume without the key cannot read.
func sealedProfiles(t *testing.T, path string) int {
	t.Helper()
	d, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var n int
	if err := d.QueryRow(`SELECT count(*) FROM entries WHERE kind = 'profile' AND (document LIKE '%"sealed%' OR document LIKE '%"masked_by":%')`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSealingKeysSwept (issue 21): the sealing key of a killed run stays
// for --resume, and a later run removes it once nothing will read it
// again, saying so: a run that starts names the catalog's other
// unfinished runs whose keys it keeps; it removes the key of a run whose
// catalog is gone, and the key of a run not resumed for KeyMaxAge, whose
// --resume then profiles again what it had sealed and says so.
func TestSealingKeysSwept(t *testing.T) {
	db := copyDataset(t, "chinook/Chinook_Sqlite.sqlite")
	args := func(out string) []string {
		return []string{"--db", db, "--out", out, "--format", "json", "--progress", "plain", "--parallel", "1"}
	}
	keyOf := func(out string) string {
		t.Helper()
		run, err := latestRun(filepath.Join(out, "catalog.db"))
		if err != nil {
			t.Fatal(err)
		}
		key, err := redact.KeyPath(filepath.Join(out, "catalog.db"), run)
		if err != nil {
			t.Fatal(err)
		}
		if !exists(key) {
			t.Fatalf("the killed run of %s left no key at %s", out, key)
		}
		return key
	}

	// A run killed midway, then a new run into the same folder: the
	// killed run's key is kept, and the new run says so.
	kept := t.TempDir()
	killedRun(t, 120, args(kept))
	keptKey := keyOf(kept)
	res := run(t, args(kept)...)
	if res.code != 0 {
		t.Fatalf("the run after the kill: exit %d\n%s", res.code, res.stderr)
	}
	if !exists(keptKey) || !strings.Contains(res.stderr, "also holds the unfinished run") {
		t.Errorf("a new run beside a killed one: its key kept %v, want true; stderr says so? \n%s", exists(keptKey), res.stderr)
	}

	// A killed run whose folder is deleted: the next run removes its key.
	gone := t.TempDir()
	killedRun(t, 120, args(gone))
	goneKey := keyOf(gone)
	// A killed run not resumed for longer than KeyMaxAge.
	stale := t.TempDir()
	killedRun(t, 120, args(stale))
	staleKey := keyOf(stale)
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-redact.KeyMaxAge - time.Hour)
	for _, p := range []string{staleKey, staleKey + ".run"} {
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	res = run(t, append(args(t.TempDir()), "-v")...)
	if res.code != 0 {
		t.Fatalf("a later run: exit %d\n%s", res.code, res.stderr)
	}
	if exists(goneKey) || exists(goneKey+".run") {
		t.Errorf("the key of a run whose catalog is gone was kept")
	}
	if exists(staleKey) || exists(staleKey+".run") {
		t.Errorf("the key of a run not resumed for %v was kept", redact.KeyMaxAge)
	}
	if !exists(keptKey) {
		t.Errorf("the key of a recent unfinished run was removed")
	}
	for _, want := range []string{"its catalog is gone", "removed the sealing key of the unfinished run", "has not run for 7 days"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("the later run's stderr does not say %q:\n%s", want, res.stderr)
		}
	}
	// The stale run resumes without its key: what it sealed is profiled
	// again, and it says so.
	res = run(t, append(args(stale), "--resume")...)
	if res.code != 0 {
		t.Fatalf("--resume without the key: exit %d\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stderr, "sealing key of the earlier attempt is gone") {
		t.Errorf("--resume without the key does not say it profiles tables again:\n%s", res.stderr)
	}
	if exists(staleKey) {
		t.Errorf("the resumed run finished and kept its key")
	}
}

// latestRun is the id of the newest run in the catalog file at path.
func latestRun(path string) (string, error) {
	d, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return "", err
	}
	defer d.Close()
	var id string
	err = d.QueryRow(`SELECT id FROM runs ORDER BY started_at DESC, rowid DESC LIMIT 1`).Scan(&id)
	return id, err
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

// piibenchClinic builds piibench's clinic (python3 cmd/piibench/generate.py)
// in a temporary folder, and the arguments of a plain discovery of it into
// a folder: what the privacy tests that kill and resume its run share.
func piibenchClinic(t *testing.T) (db string, args func(out string) []string) {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("python3", filepath.Join("..", "piibench", "generate.py"), dir).CombinedOutput(); err != nil {
		t.Fatalf("generate.py: %v\n%s", err, out)
	}
	db = filepath.Join(dir, "clinica_it_pl_se.db")
	return db, func(out string) []string {
		return []string{"--db", db, "--out", out, "--format", "json", "--progress", "plain", "-v", "--parallel", "1"}
	}
}

// TestPrivacyRerunLeaksNothing (issue 21): runs into a catalog that holds
// a finished run, whose sealing key is gone, take over its masked
// profiles: on the unchanged database (everything taken over), after one
// personal table changed (that table profiled again, beside profiles
// taken over), and with --full. None writes a personal value anywhere,
// and each names the same personal columns.
func TestPrivacyRerunLeaksNothing(t *testing.T) {
	db, args := piibenchClinic(t)
	out := t.TempDir()
	if res := run(t, args(out)...); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	pii := piiColumns(t, out)
	if len(pii) < 15 {
		t.Fatalf("%d personal columns in the first run", len(pii))
	}
	catPath := filepath.Join(out, "catalog.db")
	if n := forgetKeys(t, catPath); n != 0 {
		t.Fatalf("the finished run left %d sealing keys", n)
	}
	check := func(when string, extra ...string) {
		t.Helper()
		res := run(t, append(args(out), extra...)...)
		if res.code != 0 {
			t.Fatalf("%s: exit %d\n%s", when, res.code, res.stderr)
		}
		raw := columnValues(t, db, pii)
		files, _ := filepath.Glob(filepath.Join(out, "catalog.db*"))
		findLeaks(t, when, append(files, filepath.Join(out, "report.json")), raw)
		if got := piiColumns(t, out); !reflect.DeepEqual(got, pii) {
			t.Errorf("%s: personal columns %v, want %v", when, got, pii)
		}
	}
	check("re-run on the unchanged database")
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	// New people in a personal table: values no earlier run has seen.
	_, err = d.Exec(`INSERT INTO pazienti (nome, cognome, codice_fiscale, indirizzo, citta, telefono, email, data_nascita, medico, reparto)
		SELECT 'Zeffirino' || id_paziente, 'Quagliarulo' || id_paziente, codice_fiscale, 'Via Nuovissima ' || id_paziente, citta,
			telefono, 'zeffirino' || id_paziente || '@posta-nuova.it', data_nascita, medico, reparto FROM pazienti WHERE id_paziente <= 40`)
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	check("re-run after pazienti changed")
	check("re-run with --full", "--full")
}

// TestPrivacyKeptResultsPostgres (issue 21): on PostgreSQL, whose tables
// each have a change signal, a first run keeps its statements' results
// for the next; a statement that reads a personal column (the addresses
// seen twice) is not kept, whether or not the run's profiles hold its
// values: a column of unique addresses lists none, and they went into
// catalog.db in clear.
func TestPrivacyKeptResultsPostgres(t *testing.T) {
	db, _ := piibenchClinic(t)
	dsn, _, _ := pgscratch.Database(t, pgscratch.Server(t), "pii_kept")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := load.Copy(ctx, db, "postgres", dsn); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	res := run(t, "--db", dsn, "--out", out, "--format", "json", "--progress", "none", "--parallel", "1")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	pii := piiColumns(t, out)
	if len(pii) < 15 {
		t.Fatalf("%d personal columns", len(pii))
	}
	var kept int
	d, err := sql.Open("sqlite", "file:"+filepath.Join(out, "catalog.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	err = d.QueryRow(`SELECT count(*) FROM results`).Scan(&kept)
	d.Close()
	if err != nil || kept == 0 {
		t.Fatalf("%d results kept (%v): the test needs a run that keeps some", kept, err)
	}
	files, _ := filepath.Glob(filepath.Join(out, "catalog.db*"))
	findLeaks(t, "a first run on PostgreSQL", append(files, filepath.Join(out, "report.json")), columnValues(t, db, pii))
}
