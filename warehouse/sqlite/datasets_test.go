package sqlite

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/warehouse"
)

// datasets finds shared/datasets by walking up from the test's directory
// (it sits beside the repository: ../shared/datasets from the root).
func datasets(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		d := filepath.Join(dir, "shared", "datasets")
		if fi, err := os.Stat(filepath.Join(d, "FK_CHECK.tsv")); err == nil && fi.Mode().IsRegular() {
			return d
		}
		if filepath.Dir(dir) == dir {
			t.Skipf("shared/datasets/FK_CHECK.tsv is not in %s or any folder above it; the dataset tests need the public databases (see shared/datasets/README.md)", wd)
		}
	}
}

// readTSV reads a header-first TSV into one map per row.
func readTSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var head []string
	var rows []map[string]string
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if head == nil {
			head = fields
			continue
		}
		row := map[string]string{}
		for i, h := range head {
			if i < len(fields) {
				row[h] = fields[i]
			}
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// fkKey renders a foreign key as FK_CHECK.tsv writes it: child, fcols,
// parent, tcols, composite columns comma-separated.
func fkKey(child string, fk warehouse.ForeignKey) string {
	return strings.Join([]string{child, strings.Join(fk.Columns, ","), fk.RefTable.Name, strings.Join(fk.RefColumns, ",")}, "\t")
}

func checkKey(r map[string]string) string {
	return strings.Join([]string{r["child"], r["fcols"], r["parent"], r["tcols"]}, "\t")
}

// TestDatasetFKs checks Tables against the foreign keys the authors of three
// real databases declared: every one returned, exactly, and nothing else;
// table and row counts against the manifest; every view readable; the file
// unchanged.
func TestDatasetFKs(t *testing.T) {
	root := datasets(t)
	checks := readTSV(t, filepath.Join(root, "FK_CHECK.tsv"))
	manifest := map[string]map[string]string{}
	for _, m := range readTSV(t, filepath.Join(root, "MANIFEST.tsv")) {
		manifest[m["name"]] = m
	}
	for _, name := range []string{"chinook", "northwind", "sakila"} {
		t.Run(name, func(t *testing.T) {
			m := manifest[name]
			if m == nil {
				t.Fatalf("%s is not in MANIFEST.tsv", name)
			}
			path := filepath.Join(root, m["path"])
			before := digest(t, path)
			s := open(t, path)
			ctx := context.Background()
			tables, err := s.Tables(ctx)
			if err != nil {
				t.Fatal(err)
			}

			got := map[string]bool{}
			var nTables int
			var rows int64
			for _, tb := range tables {
				for _, fk := range tb.ForeignKeys {
					got[fkKey(tb.Name.Name, fk)] = true
				}
				switch tb.Kind {
				case "table":
					nTables++
					n, err := s.RowCount(ctx, tb.Name)
					if err != nil {
						t.Error(err)
					}
					rows += n
				case "view":
					res, err := s.Query(ctx, "SELECT * FROM "+s.QuoteTable(tb.Name), warehouse.QueryOptions{MaxRows: 3})
					if err != nil {
						t.Errorf("view %s: %v", tb.Name, err)
					} else if len(res.Columns) != len(tb.Columns) {
						t.Errorf("view %s: %d columns, Tables said %d", tb.Name, len(res.Columns), len(tb.Columns))
					}
				}
			}
			var want []string
			for _, c := range checks {
				if c["name"] == name {
					want = append(want, checkKey(c))
				}
			}
			for _, w := range want {
				if !got[w] {
					t.Errorf("declared FK missing: %q", w)
				}
			}
			for g := range got {
				if !slices.Contains(want, g) {
					t.Errorf("FK not declared in FK_CHECK.tsv: %q", g)
				}
			}
			if declared, _ := strconv.Atoi(m["declared_fks"]); len(want) != declared || len(got) != declared {
				t.Errorf("FKs: %d returned, %d in FK_CHECK.tsv, %d declared in MANIFEST.tsv", len(got), len(want), declared)
			}
			if want, _ := strconv.Atoi(m["tables"]); nTables != want {
				t.Errorf("%d tables; MANIFEST.tsv says %d", nTables, want)
			}
			if want, _ := strconv.ParseInt(m["rows"], 10, 64); rows != want {
				t.Errorf("%d rows; MANIFEST.tsv says %d", rows, want)
			}
			s.Close()
			if digest(t, path) != before {
				t.Fatalf("%s changed", path)
			}
			t.Logf("%s: %d tables, %d rows, %d FKs match FK_CHECK.tsv", name, nTables, rows, len(want))
		})
	}
}

// TestSpiderFKs runs the same check over the 150 Spider databases, whose
// declarations are messier (parent names in another case, columns omitted,
// composite keys). Names are compared ASCII-case-insensitively: Tables
// resolves them to the spelling of the table itself.
func TestSpiderFKs(t *testing.T) {
	if heavy.Short() {
		t.Skip("-short")
	}
	root := datasets(t)
	want := map[string][]string{}
	for _, c := range readTSV(t, filepath.Join(root, "FK_CHECK.tsv")) {
		if strings.HasPrefix(c["name"], "spider/") {
			want[c["name"]] = append(want[c["name"]], foldASCII(checkKey(c)))
		}
	}
	var dbs, fks int
	for _, m := range readTSV(t, filepath.Join(root, "MANIFEST.tsv")) {
		if !strings.HasPrefix(m["name"], "spider/") {
			continue
		}
		path := filepath.Join(root, m["path"])
		s, err := Open(context.Background(), path)
		if err != nil {
			t.Errorf("%s: %v", m["name"], err)
			continue
		}
		tables, err := s.Tables(context.Background())
		s.Close()
		if err != nil {
			t.Errorf("%s: %v", m["name"], err)
			continue
		}
		got := map[string]bool{}
		for _, tb := range tables {
			for _, fk := range tb.ForeignKeys {
				got[foldASCII(fkKey(tb.Name.Name, fk))] = true
			}
		}
		for _, w := range want[m["name"]] {
			if !got[w] {
				t.Errorf("%s: declared FK missing: %q", m["name"], w)
			}
			fks++
		}
		dbs++
	}
	t.Logf("%d Spider databases, %d declared FKs found", dbs, fks)
}
