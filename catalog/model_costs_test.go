package catalog

import "testing"

// TestRunCostsAdd: sums per expert, failures counted, and the slowest
// runs kept in order and capped at SlowestTasks.
func TestRunCostsAdd(t *testing.T) {
	var c RunCosts
	for i := 0; i < 30; i++ {
		c.Add("e", "t", float64(i%17), i%5 == 0)
	}
	c.Add("f", "big", 100, false)
	e := c.Experts["e"]
	if e.Tasks != 30 || e.Failed != 6 || c.Experts["f"].Tasks != 1 {
		t.Errorf("experts %+v", c.Experts)
	}
	sum := 0.0
	for i := 0; i < 30; i++ {
		sum += float64(i % 17)
	}
	if e.Seconds != sum {
		t.Errorf("e took %v s, want %v", e.Seconds, sum)
	}
	if len(c.Slowest) != SlowestTasks || c.Slowest[0].Task != "big" || c.Slowest[1].Seconds != 16 || c.Slowest[SlowestTasks-1].Seconds != 10 {
		t.Errorf("slowest %+v", c.Slowest)
	}
	for i := 1; i < len(c.Slowest); i++ {
		if c.Slowest[i].Seconds > c.Slowest[i-1].Seconds {
			t.Errorf("slowest out of order: %+v", c.Slowest)
		}
	}
}
