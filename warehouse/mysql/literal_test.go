package mysql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/literaltest"
)

// hostileValues are values a column may hold that a literal must carry
// whole: MySQL reads a backslash in a string as an escape (\0, \n, \', \%
// kept as \%…) in the sql_mode every session is pinned to, and a NUL byte
// may be stored in a VARCHAR.
var hostileValues = []string{
	`C:\temp\`, `ab\'`, `\`, `\\`, `'`, `''`, `it's`, `\'; SELECT 1 -- `,
	"line one\nline two", "cr\rlf\r\n", "tab\there", `\n\t\u0041\%\_\0\Z\b`, `\\'\\''`,
	"nul\x00byte", "\x00", "ctrl-z\x1a", `%_*?`, `50% off_sale`,
	"Zürich — 東京 🙂", `"double" and ` + "`back`", `/* not a comment */ -- nor this # nor this`,
	"", " ", `/*! SELECT 1 */`,
	// Control characters MySQL has no escape for, which the guard refuses
	// in a statement: written in hexadecimal.
	"bell\x07", "\x01", "esc\x1b[0m", "del\x7f", "us\x1f'; SELECT 1 -- ", "form\ffeed\vtab",
}

// byteValues are no UTF-8 (a BINARY or BLOB column's bytes, latin1 read
// raw), which the guard refuses in a statement.
var byteValues = []string{"\xff\xfe", "caf\xe9", "\xc3", "ok\x00\xff'"}

// TestServerLiteralRoundTrip: the dialect's literal of each hostile value
// passes both guards (the lexical one every statement of the experts is
// checked by, and the server's grammar of Admit) and comes back from the
// server as exactly the value, as one column (a literal that ended early
// would leave the rest of it as SQL), and inside a larger statement too.
func TestServerLiteralRoundTrip(t *testing.T) {
	t.Parallel()
	db := createDB(t, adminDB(t, ""), "lit_")
	s := open(t, rootDSN(t, db))
	d := s.Dialect()
	literaltest.Each(t, s, hostileValues, true)
	// All of them at once, compared on the server (binary, so that the
	// collation's case and trailing-space folding cannot match a value
	// that came back changed), and FoldedIn over them.
	var lits, branches, folded []string
	for i, v := range hostileValues {
		lits = append(lits, "BINARY "+d.Literal(v))
		branches = append(branches, fmt.Sprintf("SELECT %d AS i, %s AS v", i, d.Literal(v)))
		folded = append(folded, strings.ToLower(strings.Trim(v, " "))) // MySQL's TRIM drops spaces only
	}
	q := "SELECT count(*) AS n, count(CASE WHEN " + d.FoldedIn("v", folded) + " THEN 1 END) AS folded FROM (" +
		strings.Join(branches, " UNION ALL ") + ") x WHERE BINARY v IN (" + strings.Join(lits, ", ") + ")"
	literaltest.AllAtOnce(t, s, q, len(hostileValues), true)

	// Bytes that are no UTF-8, apart: a binary value among the others
	// would make their union's column binary, and FoldedIn's LOWER a no-op.
	// They come back as a binary string, bytes, as a BLOB's value does.
	literaltest.EachBytes(t, s, byteValues, true)
}
