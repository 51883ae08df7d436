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

// TestGuardShowCreate: the statement Tables sends for each table's CREATE
// TABLE passes the guard for any name (backticks doubled, reserved words,
// a database), while a file as the relation, a second statement, or
// anything after the name is refused.
func TestGuardShowCreate(t *testing.T) {
	s := &Source{}
	for _, name := range []warehouse.TableName{
		{Name: "orders"}, {Name: "say `hi`"}, {Name: "select"}, {Name: "order items"},
		{Schema: "guardfix", Name: "orders"}, {Name: "t;DROP TABLE x"},
	} {
		if q := s.showCreateSQL(name); guard(q) != nil {
			t.Errorf("%s refused: %v", q, guard(q))
		}
	}
	if err := guard("SHOW CREATE TABLE orders AS SERDE"); err != nil {
		t.Errorf("SHOW CREATE TABLE … AS SERDE refused: %v", err)
	}
	for _, q := range []string{
		"SHOW CREATE TABLE parquet.`/etc/passwd`",
		"SHOW CREATE TABLE text.`file:///etc/passwd`",
		"SHOW CREATE TABLE orders; DROP TABLE orders",
		"SHOW CREATE TABLE orders AS SELECT 1",
		"SHOW CREATE TABLE orders AS SERDE x",
		"SHOW CREATE VIEW order_totals",
		"SHOW CREATE TABLE IDENTIFIER('orders')",
		"SHOW CREATE",
	} {
		if err := guard(q); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("%s: guard = %v; want a refusal", q, err)
		}
	}
}
