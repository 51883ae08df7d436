package statistical

import (
	"context"
	"fmt"
	"strings"

	"github.com/discover-db/discover/catalog"
)

// Reusable lists the tables, among tables, whose profile run prev
// finished without a doubt: a table_stats entry of this expert's, and no
// uncertainty of this expert's about the table (a profile given up,
// retried on a smaller sample, or missing a figure). A re-run on the same
// build and settings takes those profiles instead of reading the tables
// again when the tables did not change (catalog.AdoptTables, package
// incremental); every other table is profiled anew, so that a run whose
// profile timed out meets its own timeout, as a full run would.
func Reusable(ctx context.Context, cat *catalog.Catalog, prev string, tables []string) ([]string, error) {
	done, err := cat.Briefs(ctx, catalog.Filter{Kind: catalog.KindTableStats, RunID: prev, Expert: Name})
	if err != nil {
		return nil, fmt.Errorf("reusable profiles of run %s: %w", prev, err)
	}
	doubts, err := cat.Briefs(ctx, catalog.Filter{Kind: catalog.KindUncertainty, RunID: prev, Expert: Name})
	if err != nil {
		return nil, fmt.Errorf("reusable profiles of run %s: %w", prev, err)
	}
	profiled := make(map[string]bool, len(done))
	for _, b := range done {
		profiled[b.Key] = true
	}
	var out []string
	for _, t := range tables {
		if !profiled[t] || doubted(t, doubts) {
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

// doubted reports whether one of the uncertainties is about table's
// profile.
func doubted(table string, doubts []catalog.Brief) bool {
	for _, b := range doubts {
		if b.Key == FailedKey(table) || b.Key == RetriedKey(table) || b.Key == gapKey(table) || strings.HasPrefix(b.Key, gapKey(table+".")) {
			return true
		}
	}
	return false
}
