package redact

import (
	"encoding/json"
	"testing"
)

// TestReadsPersonal: a kept result is taken to read a personal column
// when its statement names the column's table and the column (case
// aside), or the table and *; not for another table's column of the same
// name, nor for the table's other columns or count(*). A result without
// its statement's words is taken to read one whenever there is one.
func TestReadsPersonal(t *testing.T) {
	personal := map[string][]string{"pacjenci": {"adres", "pesel"}, "staff": {"name"}}
	kept := func(words ...string) []byte {
		b, err := json.Marshal(map[string]any{"c": []string{"v"}, "r": [][][2]string{}, "w": words})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		b    []byte
		want bool
	}{
		{kept("adres", "by", "count", "from", "group", "pacjenci", "select"), true},
		{kept("*", "from", "limit", "pacjenci", "select"), true},
		{kept("count", "from", "pacjenci", "select"), false},
		{kept("from", "miasto", "pacjenci", "select"), false},
		{kept("adres", "from", "fornitori", "select"), false},
		{kept("*", "from", "fornitori", "select"), false},
		{kept("from", "name", "select", "staff"), true},
		{[]byte(`{"timeout":"1m0s","error":"slow","c":null,"r":null}`), false},
		{[]byte(`{"c":["v"],"r":[]}`), true},
	} {
		if got := readsPersonal(tc.b, personal); got != tc.want {
			t.Errorf("readsPersonal(%s) = %v, want %v", tc.b, got, tc.want)
		}
	}
	if readsPersonal([]byte(`{"c":["v"],"r":[]}`), nil) {
		t.Error("a result read a personal column in a run that has none")
	}
}
