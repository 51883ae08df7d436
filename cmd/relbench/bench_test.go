package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/benchrun"
)

func TestScores(t *testing.T) {
	dbs := []DB{{Name: "a", TP: 9, FP: 1, FN: 0}, {Name: "b", TP: 1, FP: 0, FN: 9}, {Name: "empty"}}
	tot := Total(dbs)
	if tot.TP != 10 || tot.FP != 1 || tot.FN != 9 {
		t.Fatalf("total %+v", tot)
	}
	if p, r := tot.Precision(), tot.Recall(); p != 10.0/11 || r != 10.0/19 {
		t.Errorf("micro precision %v recall %v", p, r)
	}
	if e := dbs[2]; e.Precision() != 1 || e.Recall() != 1 || e.F1() != 1 {
		t.Errorf("a database with nothing to find and nothing found scores 1: %v %v %v", e.Precision(), e.Recall(), e.F1())
	}
}

// One real database end to end: the table, the overall line, and the
// exit code of the threshold mode.
func TestMainChinook(t *testing.T) {
	dir, err := findDatasets()
	if err != nil {
		t.Skip(err)
	}
	var out, errb bytes.Buffer
	code := Main([]string{"-datasets", dir, "-only", "chinook", "-v", "-min-precision", "0.9", "-min-recall", "0.8"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	for _, want := range []string{"chinook", "overall (micro)", "precision"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := Main([]string{"-datasets", dir, "-only", "chinook", "-min-recall", "1.01"}, &out, &errb); code != 1 {
		t.Errorf("an unreachable -min-recall should exit 1, got %d", code)
	}
	if code := Main([]string{"-datasets", dir, "-names", "german"}, &out, &errb); code != 2 {
		t.Errorf("an unknown -names should exit 2, got %d", code)
	}
	out.Reset()
	if code := Main([]string{"-datasets", dir, "-only", "chinook", "-names", "foreign", "-v"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "overall (micro)") {
		t.Errorf("-names foreign: exit %d, want 0:\n%s%s", code, out.String(), errb.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if (strings.Contains(line, "\tFN\t") || strings.Contains(line, "\tFP\t")) && !strings.Contains(line, " [") {
			t.Errorf("-names foreign lists a reference without its English names: %s", line)
		}
	}
	if code := Main([]string{"-datasets", dir, "-only", "no-such-database"}, &out, &errb); code != 2 {
		t.Errorf("no matching database should exit 2, got %d", code)
	}
}

// The split is fixed: a database's half depends on its name alone, and the
// names fall about evenly. The pinned names guard against a change of hash,
// which would move databases between the halves and let rules developed on
// the tuning half leak into the validation figures.
func TestHalves(t *testing.T) {
	for name, want := range map[string]string{
		"chinook": Validation, "northwind": Validation, "sakila": Tuning, "spider/academic": Validation, "spider/yelp": Validation,
	} {
		if got := HalfOf(name); got != want {
			t.Errorf("HalfOf(%q) = %s, want %s: the split moved", name, got, want)
		}
	}
	counts := map[string]int{}
	for i := range 2000 {
		counts[HalfOf(fmt.Sprintf("db_%d", i))]++
	}
	if counts[Tuning]+counts[Validation] != 2000 || counts[Tuning] < 900 || counts[Tuning] > 1100 {
		t.Errorf("halves of 2,000 names: %v; want about 1,000 each", counts)
	}
	dir, err := findDatasets()
	if err != nil {
		t.Skip(err)
	}
	man, err := benchrun.ReadTSV(dir + "/MANIFEST.tsv")
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, r := range man {
		n[HalfOf(r[0])]++
	}
	if n[Tuning] < len(man)*2/5 || n[Validation] < len(man)*2/5 {
		t.Errorf("shared/datasets halves: %v of %d", n, len(man))
	}
}
