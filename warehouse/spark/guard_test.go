package spark

import (
	"errors"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/guardcorpus"
	"github.com/discover-db/discover/warehouse"
)

// TestGuardCorpus: every harmless statement passes the guard, every
// hostile one is refused as the guard's, with its reason.
func TestGuardCorpus(t *testing.T) {
	harmless, hostile := guardcorpus.Read(t, "harmless.sql"), guardcorpus.Read(t, "hostile.sql")
	if len(harmless) < 100 || len(hostile) < 300 {
		t.Fatalf("corpus too small: %d harmless, %d hostile", len(harmless), len(hostile))
	}
	for _, e := range harmless {
		if err := guard(e.SQL); err != nil {
			t.Errorf("harmless %s refused: %v", e, err)
		}
	}
	for _, e := range hostile {
		if err := guard(e.SQL); !errors.Is(err, warehouse.ErrRejected) || !strings.HasPrefix(err.Error(), "guard: ") {
			t.Errorf("hostile %s: guard = %v; want a refusal", e, err)
		}
	}
}

// TestGuardMessages: the refusals say what was refused.
func TestGuardMessages(t *testing.T) {
	cases := []struct{ sql, want string }{
		{"SELECT reflect('java.lang.System', 'exit', 0)", "reflect"},
		{"SELECT * FROM text.`/etc/passwd`", "reads files"},
		{"SELECT TRANSFORM (id) USING 'cat' FROM orders", "runs a command on the server"},
		{"SELECT r'a'", "raw strings"},
		{"SELECT db.f(1)", "db.f (a catalog's function)"},
		{"INSERT INTO orders SELECT * FROM orders", "guard: "},
		{"SELECT * FROM IDENTIFIER('orders')", "IDENTIFIER"},
	}
	for _, c := range cases {
		err := guard(c.sql)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.sql, err, c.want)
		}
	}
}

// TestGuardDialect: every fragment the dialect renders, in a statement as
// the experts build them, passes the guard.
func TestGuardDialect(t *testing.T) {
	d := Dialect{}
	tn := warehouse.TableName{Name: "orders"}
	var frags []string
	qs, _ := d.Quantiles("`amount`", []float64{0.25, 0.5})
	aq, _ := d.ApproxQuantiles("`amount`", []float64{0.5})
	cd, _ := d.CountDistinct("`status`", false)
	ca, _ := d.CountDistinct("`status`", true)
	frags = append(frags, qs...)
	frags = append(frags, aq...)
	frags = append(frags, cd, ca, d.CastText("`id`"), d.Numeric("`status`"), d.TextLength("`status`"),
		d.Blank("`status`"), d.FoldedIn("`status`", []string{"n/a", "it's"}))
	for _, p := range []warehouse.TimePart{warehouse.PartYear, warehouse.PartMonth, warehouse.PartDOW, warehouse.PartHour, warehouse.PartDate} {
		frags = append(frags, d.DatePart(p, "`ordered_at`"))
	}
	for _, f := range frags {
		for _, from := range []string{d.QuoteTable(tn), d.Sample(tn, 10, 1000), d.SampleFrom("`order_totals`", 10, 1000)} {
			q := "SELECT " + f + " FROM " + from
			if err := guard(q); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
	}
}
