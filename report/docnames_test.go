package report

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func tablesNamed(names ...string) []Table {
	ts := make([]Table, len(names))
	for i, n := range names {
		ts[i] = Table{Name: n}
	}
	return ts
}

// A file name every file system takes: short, ASCII letters, digits, '.',
// '-' and '_', not hidden, not a device on Windows.
var safeDocName = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}\.md$`)

func assertSafeDistinct(t *testing.T, names map[string]string) {
	t.Helper()
	seen := map[string]string{}
	for table, f := range names {
		if !safeDocName.MatchString(f) || filepath.Base(f) != f {
			t.Errorf("%q -> unsafe file name %q", table, f)
		}
		low := strings.ToLower(f)
		if other, dup := seen[low]; dup || low == strings.ToLower(DocsIndex) {
			t.Errorf("%q -> %q collides (with %q or the index) on a case-insensitive file system", table, f, other)
		}
		seen[low] = table
		if windowsDevice(f) {
			t.Errorf("%q -> %q is a Windows device name", table, f)
		}
	}
}

func hashed(prefix, name string) string {
	sum := sha256.Sum256([]byte(name))
	return fmt.Sprintf("%s-%x.md", prefix, sum[:4])
}

func TestDocNameOfAVeryLongName(t *testing.T) {
	long := strings.Repeat("x", 5000)
	other := strings.Repeat("x", 4999) + "y"
	names := docNames(tablesNamed(long, other))
	assertSafeDistinct(t, names)
	if want := hashed(strings.Repeat("x", docNameLimit), long); names[long] != want {
		t.Errorf("5,000-character name -> %q, want %q", names[long], want)
	}
	if names[long] == names[other] {
		t.Errorf("two long names that differ at their end share %q", names[long])
	}
	// And the run writes it: no "file name too long".
	r := &Report{Tables: tablesNamed(long, other)}
	if _, err := WriteDocs(t.TempDir(), r); err != nil {
		t.Fatal(err)
	}
}

func TestDocNamesApartByCaseAndSanitizer(t *testing.T) {
	names := docNames(tablesNamed("Users", "USERS", "users", "a b", "a/b", "a_b", "a\x00b", "a\\b", "a:b", "orders"))
	assertSafeDistinct(t, names)
	want := map[string]string{
		"Users": hashed("Users", "Users"), "USERS": hashed("USERS", "USERS"), "users": hashed("users", "users"),
		"a b": hashed("a_b", "a b"), "a/b": hashed("a_b", "a/b"), "a_b": "a_b.md", "a\x00b": hashed("a_b", "a\x00b"),
		"a\\b": hashed("a_b", "a\\b"), "a:b": hashed("a_b", "a:b"), "orders": "orders.md",
	}
	for table, f := range want {
		if names[table] != f {
			t.Errorf("%q -> %q, want %q", table, names[table], f)
		}
	}
}

func TestDocNamesNeverLeaveTheFolder(t *testing.T) {
	hostile := []string{".", "..", "...", "../x", "../../etc/passwd", "/etc/passwd", `..\..\x`, "\x00", ".hidden", "-x", "con", "CON",
		"aux.log", "com1", "LPT9", "nul", "readme", "README", "Readme.md", "顧客", "Ünïcödé 表", "emoji 🙂", "\u202egnp.exe"}
	names := docNames(tablesNamed(hostile...))
	assertSafeDistinct(t, names)
	for _, n := range []string{"console", "compile", "readme_old"} {
		if got := docNames(tablesNamed(n))[n]; got != n+".md" {
			t.Errorf("%q -> %q, want it kept", n, got)
		}
	}
	dir := t.TempDir()
	if _, err := WriteDocs(dir, &Report{Tables: tablesNamed(hostile...)}); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(hostile)+1 {
		t.Errorf("%d files in the docs folder, want %d: one per table and the index", len(entries), len(hostile)+1)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "x.md")); !os.IsNotExist(err) {
		t.Errorf("a file was written outside the docs folder: %v", err)
	}
}

// A table's file depends on its own name: adding tables renames none of
// the others, except a table that now differs from a new one only in case.
func TestDocNamesStayWhenTablesAreAdded(t *testing.T) {
	base := []string{"orders", "a b", "Ünï", strings.Repeat("y", 300), "customers"}
	before := docNames(tablesNamed(base...))
	after := docNames(tablesNamed(append([]string{"a_b", "a-b", "aaa", "zzz", "ORDERS_2", "a/b"}, base...)...))
	for _, n := range base {
		if before[n] != after[n] {
			t.Errorf("%q moved from %q to %q when other tables were added", n, before[n], after[n])
		}
	}
	folded := docNames(tablesNamed(append([]string{"Orders"}, base...)...))
	if folded["orders"] == before["orders"] || folded["customers"] != before["customers"] {
		t.Errorf("after adding Orders: orders -> %q (was %q), customers -> %q", folded["orders"], before["orders"], folded["customers"])
	}
	assertSafeDistinct(t, folded)
}

// A table named exactly like another's hashed file still gets its own.
func TestDocNamesUniqueAgainstLiteralHashNames(t *testing.T) {
	taken := strings.TrimSuffix(hashed("a_b", "a b"), ".md")
	names := docNames(tablesNamed("a b", taken))
	assertSafeDistinct(t, names)
	if names["a b"] != taken+".md" || names[taken] != taken+"-2.md" {
		t.Errorf("names %v", names)
	}
}
