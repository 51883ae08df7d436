package warehouse_test

import (
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse/connect"
)

// Grounding looks names up in lower case (a function's, a pseudo column's)
// and asks TableNameArgs only of known table functions: rules that break
// either would silently never match.
func TestNameRulesConsistent(t *testing.T) {
	for _, d := range connect.Dialects() {
		r := d.NameRules()
		for fn := range r.TableFunctions {
			if fn != strings.ToLower(fn) {
				t.Errorf("%s: table function %q is not lower case", d.Name(), fn)
			}
		}
		for fn := range r.TableNameArgs {
			if _, ok := r.TableFunctions[fn]; !ok {
				t.Errorf("%s: %q takes a table name but is not a known table function", d.Name(), fn)
			}
		}
		for _, p := range r.PseudoColumns {
			if p != strings.ToLower(p) {
				t.Errorf("%s: pseudo column %q is not lower case", d.Name(), p)
			}
		}
	}
}
