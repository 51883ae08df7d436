package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/expertstest"
)

// TestScore: a category's false positives and negatives, a wrong category
// counted against both, and columns both call none counted for nothing.
func TestScore(t *testing.T) {
	truth := map[string]string{"d\tt\ta": "email", "d\tt\tb": "phone", "d\tt\tc": "none", "d\tt\td": "iban", "d\tt\te": "none"}
	found := map[string]string{"d\tt\ta": "email", "d\tt\tb": "none", "d\tt\tc": "phone", "d\tt\td": "payment_card"}
	s := Score(truth, found)
	for cat, want := range map[string][3]int{"email": {1, 0, 0}, "phone": {0, 1, 1}, "iban": {0, 0, 1}, "payment_card": {0, 1, 0}} {
		c := s[cat]
		if c == nil || [3]int{c.TP, c.FP, c.FN} != want {
			t.Errorf("%s: %+v, want tp fp fn %v", cat, c, want)
		}
	}
	if _, ok := s["none"]; ok {
		t.Error("none is no category")
	}
}

// TestBenchmark runs the benchmark on a small database: the e-mail column
// named in another language and the IBANs named as nothing are found, the
// order numbers are not; a database the manifest marks as not held out is
// scored with -all only.
func TestBenchmark(t *testing.T) {
	dir := t.TempDir()
	var rows []string
	for i := range 40 {
		rows = append(rows, fmt.Sprintf("(%d, 'persona%d@example.es', '%s', 'PO-%05d')", i+1, i, iban(i), 1000+i))
	}
	expertstest.SQLite(t, filepath.Join(dir, "shop.db"),
		`CREATE TABLE clientes (id INTEGER PRIMARY KEY, correo TEXT, dato1 TEXT, pedido TEXT)`,
		`INSERT INTO clientes VALUES `+strings.Join(rows, ", "))
	var dev []string
	for i := range 20 {
		dev = append(dev, fmt.Sprintf("(%d, '%s')", i+1, iban(100+i)))
	}
	expertstest.SQLite(t, filepath.Join(dir, "dev.db"),
		`CREATE TABLE kunden (id INTEGER PRIMARY KEY, konto TEXT)`,
		`INSERT INTO kunden VALUES `+strings.Join(dev, ", "))
	os.WriteFile(filepath.Join(dir, "MANIFEST.tsv"), []byte("name\tfile\theld_out\nshop\tshop.db\tyes\ndev\tdev.db\tno\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "TRUTH.tsv"), []byte("db\ttable\tcolumn\tcategory\n"+
		"shop\tclientes\tid\tnone\nshop\tclientes\tcorreo\temail\nshop\tclientes\tdato1\tiban\nshop\tclientes\tpedido\tnone\n"+
		"dev\tkunden\tid\tnone\ndev\tkunden\tkonto\tiban\n"), 0o644)
	var out, errOut bytes.Buffer
	if code := Main([]string{"-data", dir, "-v"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	for _, want := range []string{
		"email                1     0     0     1.000   1.000  1.000",
		"iban                 1     0     0     1.000   1.000  1.000",
		"overall (micro)      2     0     0     1.000   1.000  1.000",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// -all scores the database that is not held out too.
	out.Reset()
	if code := Main([]string{"-data", dir, "-all"}, &out, &errOut); code != 0 {
		t.Fatalf("-all: exit %d\n%s", code, errOut.String())
	}
	if want := "iban                 2     0     0     1.000   1.000  1.000"; !strings.Contains(out.String(), want) {
		t.Errorf("-all: output lacks %q:\n%s", want, out.String())
	}
}

// iban is a Spanish IBAN with valid check digits.
func iban(i int) string {
	bban := fmt.Sprintf("2100%04d%02d%010d", 418+i, 45, 200051332+i)
	for c := 2; c < 100; c++ {
		s := fmt.Sprintf("ES%02d%s", c, bban)
		if mod97(s[4:]+s[:4]) == 1 {
			return s
		}
	}
	panic("no check digits")
}

func mod97(s string) int {
	m := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			m = (m*10 + int(r-'0')) % 97
		default:
			m = (m*100 + int(r-'A') + 10) % 97
		}
	}
	return m
}
