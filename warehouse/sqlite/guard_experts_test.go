package sqlite

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// TestGuardExpertSQL: what discover's own experts send must pass. The
// committed sample (testdata/guard/experts.jsonl, one JSON string a line)
// was drawn from every statement the experts sent in a full test run, on
// the tables of many tests; DISCOVER_EXPERT_SQL names such a file to check
// all of it. Each statement gets a file of its own with the tables and
// columns it names (synthesize), so that it compiles and the guard sees
// every function and clause in it, not only a missing table.
func TestGuardExpertSQL(t *testing.T) {
	file := filepath.Join("testdata", "guard", "experts.jsonl")
	if f := os.Getenv("DISCOVER_EXPERT_SQL"); f != "" {
		file = f
	}
	stmts := readJSONLines(t, file)
	if len(stmts) < 200 {
		t.Fatalf("%d statements in %s, want a sample of at least 200", len(stmts), file)
	}
	dir := t.TempDir()
	ctx := context.Background()
	checked := 0
	for i, q := range stmts {
		path := filepath.Join(dir, fmt.Sprintf("s%d.db", i))
		if err := synthesize(path, q); err != nil {
			t.Errorf("no schema makes %q compile: %v", short(q), err)
			continue
		}
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Guard(ctx, q); err != nil {
			t.Errorf("guard refused an expert's statement: %q: %v", short(q), err)
		} else {
			checked++
		}
		s.Close()
		os.Remove(path)
	}
	t.Logf("%d of %d expert statements passed the guard, each on tables made for it", checked, len(stmts))
}

func readJSONLines(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var q string
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	noTable  = regexp.MustCompile(`no such table: (.+) \(1\)$`)
	noColumn = regexp.MustCompile(`no such column: (.+) \(1\)$`)
	ambig    = regexp.MustCompile(`ambiguous column name: (.+) \(1\)$`)
)

// synthesize writes at path the tables stmt needs to compile: one for each
// name SQLite reports missing, and each missing column on the first such
// table where the statement then finds it (a qualified one on the table of
// that name, if there is one). It prepares stmt on a plain in-memory
// connection until it compiles; nothing is run.
func synthesize(path, stmt string) error {
	mem, err := sql.Open("sqlite", "file:"+filepath.Base(path)+"?mode=memory")
	if err != nil {
		return err
	}
	defer mem.Close()
	mem.SetMaxOpenConns(1)
	type table struct {
		name string
		cols []string
	}
	var tabs []*table
	has := func(tb *table, c string) bool {
		for _, x := range tb.cols {
			if foldASCII(x) == foldASCII(c) {
				return true
			}
		}
		return false
	}
	drop := func(tb *table, c string) {
		for i, x := range tb.cols {
			if foldASCII(x) == foldASCII(c) {
				tb.cols = append(tb.cols[:i], tb.cols[i+1:]...)
				return
			}
		}
	}
	ddl := func() []string {
		var out []string
		for _, tb := range tabs {
			cols := []string{QuoteIdent("synth_")}
			for _, c := range tb.cols {
				cols = append(cols, QuoteIdent(c))
			}
			out = append(out, "CREATE TABLE "+QuoteIdent(tb.name)+" ("+strings.Join(cols, ", ")+")")
		}
		return out
	}
	next := map[string]int{}      // column reference → next table to try
	placed := map[string]*table{} // column reference → table it was put on last
	seeded := false
	for round := 0; round < 400; round++ {
		for _, tb := range tabs {
			if _, err := mem.Exec("DROP TABLE IF EXISTS " + QuoteIdent(tb.name)); err != nil {
				return err
			}
		}
		for _, d := range ddl() {
			if _, err := mem.Exec(d); err != nil {
				return fmt.Errorf("%s: %w", d, err)
			}
		}
		st, err := mem.Prepare(stmt)
		if err == nil {
			st.Close()
			return writeSchema(path, ddl())
		}
		msg := err.Error()
		if m := noTable.FindStringSubmatch(msg); m != nil {
			name := strings.TrimPrefix(m[1], "main.")
			if strings.Contains(name, ".") {
				return fmt.Errorf("names another database: %s", msg)
			}
			tabs = append(tabs, &table{name: name})
			continue
		}
		ref := ""
		if m := noColumn.FindStringSubmatch(msg); m != nil {
			ref = m[1]
		} else if m := ambig.FindStringSubmatch(msg); m != nil {
			// Put on one table too many: take it off the last one.
			for k, tb := range placed {
				if strings.HasSuffix(k, m[1]) && has(tb, m[1]) {
					drop(tb, m[1])
					delete(placed, k)
					break
				}
			}
			continue
		} else if strings.Contains(msg, "misuse of aggregate") && !seeded && len(tabs) > 0 {
			// An alias resolved where the real run had a column of that
			// name: give the first table every quoted name of the
			// statement that no table has yet.
			seeded = true
			toks, _ := Grammar.Tokenize(stmt)
			for _, tk := range toks {
				if c := tk.Ident(); tk.Kind == warehouse.TokenQuotedIdent && !slices.ContainsFunc(tabs, func(tb *table) bool { return has(tb, c) }) {
					tabs[0].cols = append(tabs[0].cols, c)
				}
			}
			continue
		} else {
			return fmt.Errorf("%s", msg)
		}
		col := ref
		qual := ""
		if i := strings.LastIndexByte(ref, '.'); i >= 0 {
			qual, col = ref[:i], ref[i+1:]
		}
		if tb := placed[ref]; tb != nil {
			drop(tb, col) // the last try did not help
		}
		var target *table
		for _, tb := range tabs {
			if qual != "" && foldASCII(tb.name) == foldASCII(qual) && !has(tb, col) {
				target = tb
			}
		}
		for i := next[ref]; target == nil && i < len(tabs); i++ {
			next[ref] = i + 1
			if !has(tabs[i], col) {
				target = tabs[i]
			}
		}
		if target == nil {
			return fmt.Errorf("no table takes column %s: %s", ref, msg)
		}
		target.cols = append(target.cols, col)
		placed[ref] = target
	}
	return fmt.Errorf("gave up")
}

func writeSchema(path string, ddl []string) error {
	if len(ddl) == 0 {
		ddl = []string{"CREATE TABLE synth_ (x)"}
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, d := range ddl {
		if _, err := db.Exec(d); err != nil {
			return err
		}
	}
	return db.Close()
}
