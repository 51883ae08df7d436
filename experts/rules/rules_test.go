package rules

import (
	"strings"
	"testing"

	"github.com/discover-db/discover/hypotheses"
)

func rows(states ...any) []hypotheses.Row {
	var out []hypotheses.Row
	for i := 0; i+2 < len(states); i += 3 {
		out = append(out, hypotheses.Row{"state": states[i], "row_count": states[i+1], "set_1": states[i+2]})
	}
	return out
}

func TestJudgeLifecycle(t *testing.T) {
	p := lifecyclePair{ts: "delivered_at", expected: []string{"delivered"}}
	v := judgeLifecycle(rows("delivered", int64(90), int64(90), "refunded", int64(5), int64(5), "pending", int64(10), int64(0)), "set_1", "status", p)
	if v.Status != hypotheses.Confirmed || len(v.Evidence) != 2 ||
		v.Evidence[0] != "delivered_at set for every row in 'delivered' (90 rows), 'refunded' (5 rows)" ||
		v.Evidence[1] != "delivered_at set for no row in 'pending' (10 rows)" {
		t.Errorf("lifecycle: %+v", v)
	}
	// A few rows break it: refuted, and said so.
	v = judgeLifecycle(rows("delivered", int64(900), int64(900), "pending", int64(1000), int64(3)), "set_1", "status", p)
	if v.Status != hypotheses.Refuted || last(v.Evidence) != "the rule holds but for 3 rows" {
		t.Errorf("near hold: %+v", v)
	}
	// Set in some states, but not in the one it is named after.
	v = judgeLifecycle(rows("delivered", int64(9), int64(0), "shipped", int64(10), int64(10)), "set_1", "status", p)
	if v.Status != hypotheses.Refuted || !strings.Contains(last(v.Evidence), "'delivered'") {
		t.Errorf("named state without it: %+v", v)
	}
	// Set everywhere or nowhere: no state decides it.
	v = judgeLifecycle(rows("a", int64(9), int64(9), "b", int64(10), int64(10)), "set_1", "status", lifecyclePair{ts: "x"})
	if v.Status != hypotheses.Refuted {
		t.Errorf("always set: %+v", v)
	}
	// A NULL state is a state.
	v = judgeLifecycle(rows(nil, int64(4), int64(0), "done", int64(6), int64(6)), "set_1", "status", lifecyclePair{ts: "done_at"})
	if v.Status != hypotheses.Confirmed || !strings.Contains(strings.Join(v.Evidence, ";"), "'NULL' (4 rows)") {
		t.Errorf("null state: %+v", v)
	}
}

func TestJudgeWeekly(t *testing.T) {
	week := func(counts ...int64) []hypotheses.Row {
		var out []hypotheses.Row
		for d, n := range counts {
			out = append(out, hypotheses.Row{"weekday": int64(d), "row_count": n})
		}
		return out
	}
	if v := judgeWeekly(week(50, 200, 210, 190, 205, 220, 80)); v.Status != hypotheses.Confirmed ||
		!strings.Contains(v.Evidence[1], "busiest Friday, quietest Sunday") {
		t.Errorf("weekdays: %+v", v)
	}
	if v := judgeWeekly(week(200, 210, 190, 205, 198, 202, 195)); v.Status != hypotheses.Refuted {
		t.Errorf("uniform: %+v", v)
	}
	// Significant but slight, as a million rows make any wobble: no pattern.
	if v := judgeWeekly(week(140000, 145000, 146000, 144000, 147000, 150000, 141000)); v.Status != hypotheses.Refuted {
		t.Errorf("slight: %+v", v)
	}
	if v := judgeWeekly(week(3, 4, 5)); v.Status != hypotheses.Inconclusive {
		t.Errorf("too few: %+v", v)
	}
}
