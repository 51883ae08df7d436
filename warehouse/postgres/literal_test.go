package postgres

import (
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/literaltest"
)

// hostileValues are values a column may hold that a literal must carry
// whole: backslashes, which every session reads as ordinary characters
// (standard_conforming_strings is pinned on) but the lexical guard cannot
// know that of, quotes, and backslashes before quotes. PostgreSQL's text
// holds no NUL, so none is here.
var hostileValues = []string{
	`C:\temp\`, `ab\'`, `\`, `\\`, `'`, `''`, `it's`, `\'; SELECT 1 --`, `\''; SELECT 1 --`,
	"line one\nline two", "cr\rlf\r\n", "tab\there", `\n\t\u0041\%\_\0\Z\b\x41\101`, `\\'\\''`,
	"ctrl-z\x1a", "bell\a", `%_*?`, `50% off_sale`, `$$ dollar $tag$`, `E'x'`,
	"Zürich — 東京 🙂", `"double" and ` + "`back`", `/* not a comment */ -- nor this`,
	"", " ",
}

// TestServerLiteralRoundTrip: the dialect's literal of each hostile value
// passes the lexical guard and the server-grammar guard of Admit, and
// comes back from the server as exactly the value, as one column (a
// literal that ended early would leave the rest of it as SQL), and inside
// a larger statement too.
func TestServerLiteralRoundTrip(t *testing.T) {
	t.Parallel()
	s := open(t, newDB(t).dsn)
	d := s.Dialect()
	literaltest.Each(t, s, hostileValues, true)
	// All of them at once, compared on the server, and FoldedIn over them.
	var lits, folded []string
	for _, v := range hostileValues {
		lits = append(lits, d.Literal(v))
		folded = append(folded, strings.ToLower(strings.Trim(v, " "))) // PostgreSQL's TRIM drops spaces only
	}
	q := "SELECT count(*) AS n, count(CASE WHEN " + d.FoldedIn("v", folded) + " THEN 1 END) AS folded FROM unnest(ARRAY[" +
		strings.Join(lits, ", ") + "]) AS x(v) WHERE v IN (" + strings.Join(lits, ", ") + ")"
	literaltest.AllAtOnce(t, s, q, len(hostileValues), true)
}
