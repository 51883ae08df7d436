package semantic

import (
	"strings"
	"testing"

	"github.com/discover-db/discover/naming"
)

// TestDomainsFile: every line of domains.txt is a domain, a singular
// lower-case word and a weight of 1 to 3; none is skipped by the parser.
func TestDomainsFile(t *testing.T) {
	n := 0
	for _, f := range naming.DataLines(domainsText) {
		n++
		if len(f) != 3 || (f[2] != "1" && f[2] != "2" && f[2] != "3") || f[1] != strings.ToLower(f[1]) {
			t.Errorf("domains.txt: %q: want domain, lower-case word, weight 1..3", f)
		}
	}
	words := 0
	for _, ws := range lexicon {
		words += len(ws)
	}
	if words != n || len(lexicon) < 20 {
		t.Errorf("%d domains, %d words parsed of %d lines", len(lexicon), words, n)
	}
	if lexicon["healthcare"]["patient"] != 3 || lexicon["ecommerce"]["order"] != 3 {
		t.Errorf("healthcare patient %v, ecommerce order %v", lexicon["healthcare"]["patient"], lexicon["ecommerce"]["order"])
	}
}
