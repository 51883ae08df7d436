package naming

import "testing"

// The data files hold what the rules need, and nothing they would skip.
func TestVocabularyFiles(t *testing.T) {
	for name, text := range map[string]string{"synonyms.txt": synonymsText, "actors.txt": actorsText, "english.txt": english,
		"people.txt": peopleText, "affixes.txt": affixesText, "roles.txt": rolesText, "selfroles.txt": selfRolesText,
		"generic.txt": genericText, "keysuffixes.txt": keySuffixesText, "supertypes.txt": supertypesText} {
		want := map[string]int{"synonyms.txt": 2, "actors.txt": 1, "people.txt": 1, "affixes.txt": 2, "roles.txt": 1,
			"selfroles.txt": 1, "generic.txt": 1, "keysuffixes.txt": 2, "supertypes.txt": 1}[name]
		// A mark after a line's words: "before" (keysuffixes.txt),
		// "extension" (affixes.txt), "lookup" (generic.txt).
		mark := map[string]string{"keysuffixes.txt": "before", "affixes.txt": "extension", "generic.txt": "lookup"}[name]
		for _, f := range DataLines(text) {
			marked := mark != "" && len(f) == want+1 && f[want] == mark
			if (want > 0 && len(f) != want && !marked) || len(f) > 3 {
				t.Errorf("%s: line %q has %d fields", name, f, len(f))
			}
		}
		if mark == "lookup" && (!Lookup("type") || !Lookup("name") || Lookup("log") || Lookup("info") || !Generic("type")) {
			t.Errorf("Lookup(type) = %v, Lookup(name) = %v, Lookup(log) = %v, Lookup(info) = %v", Lookup("type"), Lookup("name"), Lookup("log"), Lookup("info"))
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
	if !Person("patient") || !Person("customer") || Person("order") || Person("operator") {
		t.Errorf("Person(patient) = %v, Person(customer) = %v, Person(order) = %v, Person(operator) = %v",
			Person("patient"), Person("customer"), Person("order"), Person("operator"))
	}
	if !Role("advisor") || Role("advisory") || !SelfRole("parent") || SelfRole("child") || !Generic("status") || Generic("customer") {
		t.Errorf("Role(advisor) = %v, Role(advisory) = %v, SelfRole(parent) = %v, SelfRole(child) = %v, Generic(status) = %v, Generic(customer) = %v",
			Role("advisor"), Role("advisory"), SelfRole("parent"), SelfRole("child"), Generic("status"), Generic("customer"))
	}
	for _, f := range DataLines(keySuffixesText) {
		if k, ok := KeySuffix(f[0]); !ok || (k != "id" && k != "number" && k != "code") {
			t.Errorf("keysuffixes.txt: %q is of kind %q, want id, number or code", f[0], k)
		}
	}
	if len(keySuffixes) != len(DataLines(keySuffixesText)) {
		t.Errorf("KeySuffix knows %d words, keysuffixes.txt has %d lines", len(keySuffixes), len(DataLines(keySuffixesText)))
	}
	if _, ok := KeySuffix("customer"); ok {
		t.Error("KeySuffix(customer): a word of an entity is no key suffix")
	}
	for _, f := range DataLines(affixesText) {
		if f[1] != "prefix" && f[1] != "suffix" && f[1] != "both" {
			t.Errorf("affixes.txt: %q is written %q, want prefix, suffix or both", f[0], f[1])
		}
	}
}

// TestKeyMarkers: words that mark a key after the name, and some before
// it too.
func TestKeyMarkers(t *testing.T) {
	for _, c := range []struct {
		w              string
		suffix, prefix bool
		kind           string
	}{
		{"id", true, true, "id"}, {"fk", true, true, "id"}, {"hk", true, true, "id"}, {"sk", true, true, "id"},
		{"key", true, false, "id"}, {"no", true, false, "number"}, {"code", true, false, "code"},
		{"customer", false, false, ""},
	} {
		k, ok := KeySuffix(c.w)
		if ok != c.suffix || (ok && k != c.kind) {
			t.Errorf("KeySuffix(%q) = %q, %v", c.w, k, ok)
		}
		k, ok = KeyPrefix(c.w)
		if ok != c.prefix || (ok && k != c.kind) {
			t.Errorf("KeyPrefix(%q) = %q, %v", c.w, k, ok)
		}
	}
}

// TestExtensionTables: a convention that marks a table as another's
// extension (a Data Vault satellite) only as an affix, never as the
// table's one word.
func TestExtensionTables(t *testing.T) {
	for table, want := range map[string]bool{
		"sat_customer": true, "SatCustomerOrder": true, "sat": false, "satellite_launch": false,
		"hub_customer": false, "customer": false, "customer_sat": false,
	} {
		if got := Extension(table); got != want {
			t.Errorf("Extension(%q) = %v, want %v", table, got, want)
		}
	}
	if !TablePrefix("hub") || !TablePrefix("sat") {
		t.Error("hub_ and sat_ are Data Vault's table prefixes")
	}
}

// TestTableAffixes: the naming conventions on table names, one list for
// every expert: before the entity, after it, or either.
func TestTableAffixes(t *testing.T) {
	for _, c := range []struct {
		w              string
		prefix, suffix bool
	}{
		{"tbl", true, true}, {"dim", true, true}, {"fact", true, true}, {"stg", true, false},
		{"t", true, false}, {"v", false, true}, {"view", false, true},
		{"customer", false, false}, {"order", false, false}, {"data", false, false},
	} {
		if got := TablePrefix(c.w); got != c.prefix {
			t.Errorf("TablePrefix(%q) = %v, want %v", c.w, got, c.prefix)
		}
		if got := TableSuffix(c.w); got != c.suffix {
			t.Errorf("TableSuffix(%q) = %v, want %v", c.w, got, c.suffix)
		}
	}
}

// TestUseExtendsVocabulary: a project's words are read beside the
// embedded ones, lower-case and singular, override them for the same
// word, and go with the next Use.
func TestUseExtendsVocabulary(t *testing.T) {
	t.Cleanup(func() { Use(Vocabulary{}) })
	if _, ok := Synonym("kunde"); ok || Acts("clinician") || Role("verifier") || TablePrefix("raw") || TableSuffix("hist") {
		t.Fatal("the embedded vocabulary already has the test's words")
	}
	cust, _ := Synonym("cust")
	Use(Vocabulary{Synonyms: map[string]string{"Kunde": "Customers", "cust": "custodian"}, Actors: []string{"Clinicians"}, People: []string{"Kunden"}, Roles: []string{"Verifiers"},
		Domains:       map[string]map[string]float64{"Wind_Energy": {"Turbines": 3}},
		TablePrefixes: []string{"RAW"}, TableSuffixes: []string{"hist"}})
	if s, ok := Synonym("kunde"); !ok || s != "customer" {
		t.Errorf("Synonym(kunde) = %q, %v; want customer", s, ok)
	}
	if s, _ := Synonym("cust"); s != "custodian" {
		t.Errorf("Synonym(cust) = %q: the project's word does not override the embedded %q", s, cust)
	}
	if !Person("kunden") || !Acts("clinician") || !Role("verifier") || !Role("advisor") || !Acts("employee") || !TablePrefix("raw") || !TablePrefix("tbl") || !TableSuffix("hist") || TablePrefix("hist") {
		t.Error("actors or affixes not extended")
	}
	if d := Domains(); d["wind_energy"]["turbine"] != 3 || len(d) != 1 {
		t.Errorf("Domains() = %v, want wind_energy: {turbine: 3}", d)
	}
	Use(Vocabulary{})
	if Domains() != nil {
		t.Error("Use(Vocabulary{}) kept the project's domains")
	}
	if _, ok := Synonym("kunde"); ok || Acts("clinician") || Person("kunden") || Role("verifier") || TablePrefix("raw") {
		t.Error("Use(Vocabulary{}) kept the project's words")
	}
	if s, _ := Synonym("cust"); s != cust {
		t.Errorf("Synonym(cust) = %q after the reset, want %q", s, cust)
	}
}
