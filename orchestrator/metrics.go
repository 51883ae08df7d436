package orchestrator

import (
	"context"
	"fmt"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// Metrics are computed from the catalog, never asserted: coverage is the
// share of work units that hold a finding of this run, confidence the mean
// confidence over all units (a missing unit counts as 0).
type Metrics struct {
	Units      int
	Covered    int
	Coverage   float64
	Confidence float64
	Phase      int
	Pending    []string // units not covered yet, for uncertainties
	// per phase: what is still missing
	missingInventory, missingMeaning, missingTests int
}

// Measure computes the metrics of a run over the inventory: the units the
// experts xs declare (experts.Coverer), and a test of every relationship
// found.
func Measure(ctx context.Context, cat *catalog.Catalog, runID string, tables []warehouse.Table, xs []experts.Expert) (Metrics, error) {
	entries, err := cat.Briefs(ctx, catalog.Filter{RunID: runID})
	if err != nil {
		return Metrics{}, fmt.Errorf("measure: %w", err)
	}
	have := map[string]float64{}
	tested := settled(entries)
	var rels []catalog.Brief
	for _, e := range entries {
		have[e.Kind+"\x00"+e.Key] = e.Confidence
		if e.Kind == catalog.KindRelationship {
			rels = append(rels, e)
		}
	}
	units := experts.CoverageOf(xs, tables)
	m := Metrics{Units: len(units) + len(rels)}
	sum := 0.0
	for _, u := range units {
		c, ok := have[u.Kind+"\x00"+u.Key]
		if !ok {
			m.Pending = append(m.Pending, u.What)
			switch u.Phase {
			case experts.PhaseInventory:
				m.missingInventory++
			default:
				m.missingMeaning++
			}
			continue
		}
		m.Covered++
		sum += c
	}
	// A relationship counts once it has been tested; its confidence is the
	// relationship's own, which the test updated.
	for _, r := range rels {
		if _, ok := tested[r.Key]; !ok {
			m.Pending = append(m.Pending, "test of relationship "+r.Key)
			m.missingTests++
			continue
		}
		m.Covered++
		sum += r.Confidence
	}
	if m.Units > 0 {
		m.Coverage = float64(m.Covered) / float64(m.Units)
		m.Confidence = sum / float64(m.Units)
	}
	switch {
	case m.missingInventory > 0:
		m.Phase = 1
	case m.missingMeaning > 0:
		m.Phase = 2
	case m.missingTests > 0:
		m.Phase = 3
	default:
		m.Phase = 4
	}
	return m, nil
}

// settled maps the subject of every hypothesis that was tested (not left
// proposed) to that hypothesis' confidence: a relationship counts as
// tested once one is about it.
func settled(entries []catalog.Brief) map[string]float64 {
	out := map[string]float64{}
	for _, e := range entries {
		if e.Kind == catalog.KindHypothesis && e.Status != "proposed" && e.Subject != "" {
			out[e.Subject] = e.Confidence
		}
	}
	return out
}
