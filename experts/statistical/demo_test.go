package statistical_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/demo"
	"github.com/discover-db/discover/internal/heavy"
)

// TestDemo checks that the planted facts of the demo database are found,
// and that nothing else is flagged: the demo's other columns are clean.
func TestDemo(t *testing.T) {
	if heavy.Race {
		// The race detector slows pure-Go SQLite tenfold; the fixture tests
		// cover the same code under -race.
		t.Skip("the demo's 155,000 rows are checked without -race")
	}
	ctx := context.Background()
	path, err := demo.Ensure(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := setup(t, path, experts.Options{SampleRows: 1_000_000}, nil)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	f := demo.Facts

	var got []string
	entries, _ := h.env.RunEntries(ctx, catalog.KindProfile)
	for _, e := range entries {
		var p catalog.ProfileDoc
		e.Decode(&p)
		for _, a := range p.Anomalies {
			got = append(got, e.Key+":"+a.Kind)
		}
	}
	if fmt.Sprint(got) != "[customers.email:duplicate payments.amount:outlier]" {
		t.Errorf("anomalies: %v", got)
	}
	p, _ := h.profile(t, "payments.amount")
	if a := p.Anomalies[0]; a.Count != int64(f.OutlierCount) || len(a.Examples) != f.OutlierCount {
		t.Errorf("payment outliers: %+v", a)
	} else {
		for _, ex := range a.Examples {
			if v, err := strconv.ParseFloat(ex, 64); err != nil || v < f.OutlierMinAmount {
				t.Errorf("outlier example %q is under %v", ex, f.OutlierMinAmount)
			}
		}
	}
	if q := p.Quantiles; q == nil || q.Estimate || !(q.P25 < q.P50 && q.P50 < q.P75 && q.P75 < q.P95 && q.P95 <= f.RegularMaxAmount) {
		t.Errorf("payments.amount quantiles %+v", q)
	}
	p, _ = h.profile(t, "customers.email")
	if a := p.Anomalies[0]; a.Count != 1 || fmt.Sprint(a.Examples) != "["+f.DuplicateEmail+"]" ||
		!strings.Contains(a.Description, fmt.Sprintf("held by %d rows", len(f.DuplicateEmailCustomerIDs))) {
		t.Errorf("duplicate email: %+v", a)
	}

	col := f.OrderDates.Table + "." + f.OrderDates.Column
	e, err := h.cat.Get(ctx, catalog.KindInsight, "temporal:"+col)
	if err != nil {
		t.Fatal(err)
	}
	var in catalog.InsightDoc
	e.Decode(&in)
	var share int
	if _, err := fmt.Sscanf(in.Description, col+": November and December hold %d%% of rows", &share); err != nil ||
		float64(share)/100 < f.PeakMonthsMinShare {
		t.Errorf("seasonality of %s: %q", col, in.Description)
	}
	if quiet := fmt.Sprintf("%s is the quietest day", f.QuietestWeekday); !strings.Contains(in.Description, quiet) {
		t.Errorf("%q does not say %q", in.Description, quiet)
	}
	if in.Kind != "temporal" || e.Confidence != 1 || len(e.Evidence) < 3 {
		t.Errorf("insight %+v evidence %q", in, e.Evidence)
	}
}
