// Package guardcorpus reads the guard corpora that each engine keeps under
// testdata/guard/ (hostile.sql, harmless.sql, fixture.sql): entries
// separated by a line that is exactly "----", an entry's leading lines that
// begin with "--# " saying what it tries. The engines' guard tests and the
// command's end-to-end test of the untrusted doors read them alike.
//
// It is imported by tests only.
package guardcorpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Entry is one statement of a corpus.
type Entry struct {
	SQL     string // as written, without the comment lines; not trimmed
	Comment string // the "--# " lines, joined by "; "
	Line    int    // where the entry starts in its file, from 1
}

func (e Entry) String() string {
	if e.Comment == "" {
		return fmt.Sprintf("line %d: %.200s", e.Line, e.SQL)
	}
	return fmt.Sprintf("line %d (%s): %.200s", e.Line, e.Comment, e.SQL)
}

// Load reads the corpus at path. Entries that hold only comments or blank
// lines are dropped.
func Load(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		out      []Entry
		cur      Entry
		body     []string
		comments []string
		n        int
	)
	flush := func() {
		sql := strings.Join(body, "\n")
		if strings.TrimSpace(sql) != "" {
			cur.SQL, cur.Comment = sql, strings.Join(comments, "; ")
			out = append(out, cur)
		}
		cur, body, comments = Entry{Line: n + 1}, nil, nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	cur.Line = 1
	for sc.Scan() {
		line := sc.Text()
		n++
		switch {
		case line == "----":
			flush()
		case len(body) == 0 && strings.HasPrefix(line, "--# "):
			comments = append(comments, strings.TrimPrefix(line, "--# "))
		case len(body) == 0 && strings.TrimSpace(line) == "":
		default:
			if len(body) == 0 {
				cur.Line = n
			}
			body = append(body, line)
		}
	}
	flush()
	return out, sc.Err()
}

// SQL returns the statements of entries.
func SQL(entries []Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.SQL
	}
	return out
}

// Statements reads a file of one JSON string per line (experts.jsonl: the
// statements discover's experts sent during a test run). Blank lines are
// skipped.
func Statements(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var s string
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// Read is Load of testdata/guard/name, relative to the test's package,
// failing the test when the file cannot be read.
func Read(t testing.TB, name string) []Entry {
	t.Helper()
	entries, err := Load(filepath.Join("testdata", "guard", name))
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// MustRead is Read for a package-level variable (a fixture read before
// any test runs): it panics when the file cannot be read.
func MustRead(name string) []Entry {
	entries, err := Load(filepath.Join("testdata", "guard", name))
	if err != nil {
		panic(err)
	}
	return entries
}

// ReadStatements is Statements of testdata/guard/name, failing the test
// when the file cannot be read.
func ReadStatements(t testing.TB, name string) []string {
	t.Helper()
	out, err := Statements(filepath.Join("testdata", "guard", name))
	if err != nil {
		t.Fatal(err)
	}
	return out
}
