package naming

import "testing"

// The data files hold what the rules need, and nothing they would skip.
func TestVocabularyFiles(t *testing.T) {
	for name, text := range map[string]string{"synonyms.txt": synonymsText, "actors.txt": actorsText, "english.txt": english} {
		want := map[string]int{"synonyms.txt": 2, "actors.txt": 1}[name]
		for _, f := range lines(text) {
			if (want > 0 && len(f) != want) || len(f) > 2 {
				t.Errorf("%s: line %q has %d fields", name, f, len(f))
			}
		}
	}
	if s, ok := Synonym("cust"); !ok || s != "customer" {
		t.Errorf("Synonym(cust) = %q, %v", s, ok)
	}
	if _, ok := Synonym("customer"); ok {
		t.Error("a canonical word has no synonym of its own")
	}
	if !Acts("employee") || Acts("order") {
		t.Errorf("Acts(employee) = %v, Acts(order) = %v", Acts("employee"), Acts("order"))
	}
}
