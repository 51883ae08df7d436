package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/report"
)

// fsizeEnv makes a CLI child (DISCOVER_TEST_AS_CLI=1) run under a
// file-size limit of that many bytes (RLIMIT_FSIZE), as `ulimit -f` does:
// a write past it fails with EFBIG, like a disk that is full.
const fsizeEnv = "DISCOVER_TEST_FSIZE"

func init() {
	if os.Getenv("DISCOVER_TEST_AS_CLI") != "1" {
		return
	}
	n, err := strconv.ParseUint(os.Getenv(fsizeEnv), 10, 64)
	if err != nil || n == 0 {
		return
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		panic(err)
	}
}

// damageTables overwrites the root pages of the named tables of a SQLite
// file with garbage, as a bad disk sector or a torn copy does: the schema
// still lists them, reading them fails with "database disk image is
// malformed".
func damageTables(t *testing.T, path string, tables ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var pageSize int64
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	var pages []int64
	for _, name := range tables {
		var root int64
		if err := db.QueryRow(`SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = ?`, name).Scan(&root); err != nil {
			t.Fatalf("root page of %s: %v", name, err)
		}
		pages = append(pages, root)
	}
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	garbage := []byte(strings.Repeat("\xde\xad\xbe\xef", int(pageSize)/4))
	for _, p := range pages {
		if _, err := f.WriteAt(garbage, (p-1)*pageSize); err != nil {
			t.Fatal(err)
		}
	}
}

func writableDataset(t *testing.T, rel string) string {
	t.Helper()
	db := copyDataset(t, rel)
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestDamagedSQLiteIsIncomplete (issue 17): a SQLite file with two damaged
// tables. The run goes on with the rest, and says in its exit code (4), its
// first line on stderr and its summary's first sentences that 2 of 11
// tables could not be read, and why; each keeps its row in report.json and
// its page in tables/, marked unreadable; --allow-incomplete exits 0 with
// the same words; and diff against a run on the intact file says "could not
// be read", not "removed", and finds no schema drift.
func TestDamagedSQLiteIsIncomplete(t *testing.T) {
	good := writableDataset(t, "chinook/Chinook_Sqlite.sqlite")
	bad := filepath.Join(t.TempDir(), "chinook.db")
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	damageTables(t, bad, "Artist", "Genre")

	goodOut := t.TempDir()
	res := run(t, "--db", good, "--out", goodOut, "--format", "md,json", "-q")
	if res.code != 0 {
		t.Fatalf("the intact file: exit %d\n%s", res.code, res.stderr)
	}
	_, gr := readReport(t, goodOut)
	if gr.Outcome == nil || gr.Outcome.Status != "complete" || len(gr.Outcome.Unseen) != 0 || gr.Outcome.Tables != 11 {
		t.Fatalf("the intact file's outcome: %+v", gr.Outcome)
	}

	out := t.TempDir()
	res = run(t, "--db", bad, "--out", out, "--format", "md,json", "-q")
	if res.code != exitIncomplete {
		t.Fatalf("damaged file: exit %d, want %d\n%s", res.code, exitIncomplete, res.stderr)
	}
	first := strings.SplitN(strings.TrimSpace(res.stderr[strings.Index(res.stderr, "discover: "):]), "\n", 2)[0]
	want := "discover: This discovery is incomplete. 2 of 11 tables and views could not be read: Artist and Genre (database disk image is malformed (11))."
	if !strings.HasPrefix(first, want) {
		t.Errorf("stderr's line:\n%s\nwant it to begin\n%s", first, want)
	}
	raw, r := readReport(t, out)
	if !strings.HasPrefix(r.Summary, strings.TrimPrefix(want, "discover: ")) {
		t.Errorf("summary does not open with what was not seen:\n%s", r.Summary)
	}
	if r.Outcome == nil || r.Outcome.Status != "incomplete" || r.Outcome.Tables != 11 {
		t.Fatalf("outcome: %+v", r.Outcome)
	}
	var unread []string
	for _, u := range r.Outcome.Unseen {
		if u.What == "table" {
			unread = append(unread, u.Table)
			if !strings.Contains(u.Reason, "malformed") {
				t.Errorf("%s: reason %q", u.Table, u.Reason)
			}
		}
	}
	if strings.Join(unread, ",") != "Artist,Genre" {
		t.Errorf("tables not read: %v, want Artist, Genre (outcome %+v)", unread, r.Outcome.Unseen)
	}
	if len(r.Tables) != 11 {
		t.Errorf("%d tables in report.json, want all 11", len(r.Tables))
	}
	for _, tb := range r.Tables {
		isBad := tb.Name == "Artist" || tb.Name == "Genre"
		if isBad != (tb.Unread != nil) {
			t.Errorf("table %s: unread %+v", tb.Name, tb.Unread)
		}
		if !isBad && (tb.RowCount == nil || len(tb.Columns) == 0) {
			t.Errorf("readable table %s lost its figures: %+v", tb.Name, tb)
		}
	}
	if _, ok := raw["outcome"]; !ok {
		t.Error("report.json has no outcome")
	}
	// Every table keeps its page, and the damaged ones say why.
	pages, err := filepath.Glob(filepath.Join(out, "tables", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	goodPages, _ := filepath.Glob(filepath.Join(goodOut, "tables", "*.md"))
	if len(pages) != len(goodPages) || len(pages) < 12 {
		t.Errorf("%d pages in tables/, the intact file gives %d", len(pages), len(goodPages))
	}
	for _, name := range []string{"Artist", "Genre"} {
		var page string
		for _, p := range pages {
			b, _ := os.ReadFile(p)
			if strings.HasPrefix(strings.TrimSuffix(filepath.Base(p), ".md"), name) && strings.Contains(string(b), "# "+name) {
				page = string(b)
			}
		}
		if !strings.Contains(strings.ToLower(page), "could not be read") || !strings.Contains(page, "malformed") {
			t.Errorf("the page of %s does not say it could not be read:\n%s", name, page)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(md), "This discovery is incomplete.") {
		t.Error("report.md does not say the run is incomplete")
	}

	// A job that accepts gaps.
	res = run(t, "--db", bad, "--out", t.TempDir(), "--format", "json", "-q", "--allow-incomplete")
	if res.code != 0 || !strings.Contains(res.stderr, want) {
		t.Errorf("--allow-incomplete: exit %d, stderr:\n%s", res.code, res.stderr)
	}

	// The diff says what could not be read, not that it was removed.
	res = run(t, "diff", "--json", filepath.Join(goodOut, "report.json"), filepath.Join(out, "report.json"))
	var d report.DiffResult
	if err := json.Unmarshal([]byte(res.stdout), &d); err != nil {
		t.Fatalf("diff --json: %v\n%s%s", err, res.stdout, res.stderr)
	}
	saw := map[string]bool{}
	for _, c := range d.Changes {
		mentions := strings.Contains(c.Object, "Artist") || strings.Contains(c.Object, "Genre")
		if mentions && c.Category != report.CategoryUnread {
			t.Errorf("diff reports a table that could not be read as %s %s: %s", c.Category, c.Kind, c.Message)
		}
		if c.Category == report.CategoryUnread && (c.Object == "Artist" || c.Object == "Genre") {
			saw[c.Object] = strings.Contains(c.Message, "could not be read")
		}
		if c.Kind == report.ChangeRemoved {
			t.Errorf("diff: %s", c.Message)
		}
	}
	if !saw["Artist"] || !saw["Genre"] {
		t.Errorf("diff does not say Artist and Genre could not be read: %+v", d.Changes)
	}
	text := run(t, "diff", filepath.Join(goodOut, "report.json"), filepath.Join(out, "report.json"))
	if !strings.Contains(text.stdout, "table Artist could not be read") {
		t.Errorf("diff's text:\n%s", text.stdout)
	}
	if d.Drift || text.code != 0 {
		t.Errorf("diff finds drift (exit %d) where only tables could not be read:\n%s", text.code, text.stdout)
	}
}

// limitedRun runs discover as a child process under a file-size limit.
func limitedRun(t *testing.T, limit int64, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DISCOVER_TEST_AS_CLI=1", fsizeEnv+"="+strconv.FormatInt(limit, 10))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stderr.String()
}

// TestCatalogWriteFailsThenResume (issue 17): the catalog's disk fills in
// the middle of a run (a file-size limit: writes past it fail). The run
// stops at once with exit 1 and a first line that says the catalog could
// not be written; it writes no report; what it had written is intact; and
// --resume, once there is room, finishes with a report equal to an
// uninterrupted run's.
func TestCatalogWriteFailsThenResume(t *testing.T) {
	db := writableDataset(t, "chinook/Chinook_Sqlite.sqlite")
	args := []string{"--db", db, "--format", "json", "--progress", "plain", "-v", "--parallel", "2"}
	base := t.TempDir()
	res := run(t, append(args, "--out", base)...)
	if res.code != 0 {
		t.Fatalf("uninterrupted run: exit %d\n%s", res.code, res.stderr)
	}
	want, wantRaw := reportFindings(t, base)
	fi, err := os.Stat(filepath.Join(base, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}

	out := t.TempDir()
	// Half the finished catalog's size: the run is well under way when a
	// write first goes past it.
	code, stderr := limitedRun(t, fi.Size()/2, append(args, "--out", out)...)
	if code != exitFailed {
		t.Fatalf("exit %d under a file-size limit, want %d\n%s", code, exitFailed, stderr)
	}
	last := lastLine(stderr)
	if !strings.HasPrefix(last, "discover: the catalog "+filepath.Join(out, "catalog.db")+" could not be written") ||
		!strings.Contains(last, "continue with --resume") {
		t.Errorf("last line: %s", last)
	}
	if n := strings.Count(stderr, "could not be written"); n != 1 {
		t.Errorf("%d lines say the catalog could not be written, want 1 (the run must stop at once):\n%s", n, stderr)
	}
	if strings.Count(stderr, "disk I/O error") > 3 {
		t.Errorf("the run went on after the first failed write:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.json")); !os.IsNotExist(err) {
		t.Errorf("a report was written from a catalog that lost a write (stat: %v)", err)
	}
	checkIntegrity(t, filepath.Join(out, "catalog.db"))
	ctx := context.Background()
	cat, err := catalog.Open(ctx, filepath.Join(out, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.LatestRun(ctx, true); err != nil {
		t.Errorf("no unfinished run to resume: %v", err)
	}
	cat.Close()

	res = run(t, append(args, "--out", out, "--resume")...)
	if res.code != 0 {
		t.Fatalf("--resume: exit %d\n%s", res.code, res.stderr)
	}
	got, gotRaw := reportFindings(t, out)
	if g, w := ledger(gotRaw), ledger(wantRaw); !reflect.DeepEqual(g, w) {
		t.Errorf("the resumed run's hypotheses differ from an uninterrupted run's:\n got %v\nwant %v", g, w)
	}
	if !reflect.DeepEqual(got, want) {
		gb, _ := json.MarshalIndent(got, "", " ")
		wb, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("the resumed run's findings differ from an uninterrupted run's:\n%s", firstDiff(string(wb), string(gb)))
	}
	_, r := readReport(t, out)
	if r.Outcome == nil || r.Outcome.Status != "complete" {
		t.Errorf("outcome after --resume: %+v", r.Outcome)
	}
}

// ledger is a report's hypotheses as id → status.
func ledger(raw map[string]any) map[string]string {
	out := map[string]string{}
	hs, _ := raw["hypotheses"].([]any)
	for _, h := range hs {
		m, _ := h.(map[string]any)
		out[m["id"].(string)] = m["status"].(string)
	}
	return out
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// firstDiff shows where two texts part, with a little context.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			lo := max(0, i-3)
			return "want:\n" + strings.Join(al[lo:min(len(al), i+4)], "\n") + "\ngot:\n" + strings.Join(bl[lo:min(len(bl), i+4)], "\n")
		}
	}
	return "one is a prefix of the other"
}

// TestCatalogDiskFull (issue 17): the same as a file-size limit, on a disk
// that really fills (a small tmpfs, ENOSPC): the first line says "disk
// full", and once the disk is made larger --resume finishes the run.
func TestCatalogDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	db := writableDataset(t, "chinook/Chinook_Sqlite.sqlite")
	args := []string{"--db", db, "--format", "json", "-q", "--parallel", "2"}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a 512 KiB tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	out := filepath.Join(dir, "out")
	code, stderr := limitedRun(t, 1<<40, append(args, "--out", out)...)
	if code != exitFailed {
		t.Fatalf("exit %d on a full disk, want %d\n%s", code, exitFailed, stderr)
	}
	if last := lastLine(stderr); !strings.HasPrefix(last, "discover: disk full: the catalog "+filepath.Join(out, "catalog.db")+" could not be written") {
		t.Errorf("last line: %s", last)
	}
	if b, err := exec.Command("mount", "-o", "remount,size=64m", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v: %s", err, b)
	}
	checkIntegrity(t, filepath.Join(out, "catalog.db"))
	res := run(t, append(args, "--out", out, "--resume")...)
	if res.code != 0 {
		t.Fatalf("--resume once there is room: exit %d\n%s", res.code, res.stderr)
	}
	_, r := readReport(t, out)
	if r.Outcome == nil || r.Outcome.Status != "complete" || len(r.Tables) != 11 {
		t.Errorf("after --resume: outcome %+v, %d tables", r.Outcome, len(r.Tables))
	}
}

// TestDuckDBFolderWithBadCSV (issue 17): a folder of CSV files, one of
// which does not parse. Under -q the run still says, as its last line and
// exit code (4), that orders could not be read and why; the table keeps
// its row in report.json, marked unread.
func TestDuckDBFolderWithBadCSV(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "people.csv"), []byte("id,name\n1,alice\n2,bob\n3,carol\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := "id,person_id,amount\n1,1,9.5\n2,\"2,3\n3,3,1\n4,\x00\xff\xfe,\"x\n"
	if err := os.WriteFile(filepath.Join(dir, "orders.csv"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	res := run(t, "--db", "duckdb://"+dir, "--out", out, "--format", "json", "-q")
	if res.code != exitIncomplete {
		t.Fatalf("exit %d, want %d\n%s", res.code, exitIncomplete, res.stderr)
	}
	want := "discover: This discovery is incomplete. 1 of 2 tables and views could not be read: orders (1 csv file(s) could not be read: "
	if last := lastLine(res.stderr); !strings.HasPrefix(last, want) || !strings.Contains(last, "CSV Error") {
		t.Errorf("last line:\n%s\nwant it to begin\n%s", last, want)
	}
	_, r := readReport(t, out)
	if len(r.Tables) != 2 || r.Tables[0].Name != "orders" || r.Tables[0].Unread == nil || r.Tables[1].Unread != nil {
		t.Errorf("tables: %+v", r.Tables)
	}
	if r.Tables[1].RowCount == nil || *r.Tables[1].RowCount != 3 {
		t.Errorf("people: %+v", r.Tables[1])
	}
}
