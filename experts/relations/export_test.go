package relations

import (
	"context"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// SetStreamCheckMinRows sets the child table size from which checks are
// streamed (streamcheck.go) until the returned function restores it.
func SetStreamCheckMinRows(n int64) (restore func()) {
	old := streamCheckMinRows
	streamCheckMinRows = n
	return func() { streamCheckMinRows = old }
}

// CheckWorkersPeak returns the most child tables checked at once since the
// last call, and starts counting again.
func CheckWorkersPeak() int64 { return checkWorkers.peak.Swap(0) }

// GroupReadsPeak returns the most child tables' streamed reads under way at
// once since the last call, and starts counting again.
func GroupReadsPeak() int64 { return groupReads.peak.Swap(0) }

// SetMaxHeldGroups sets the bound on streamed groups until the returned
// function restores it.
func SetMaxHeldGroups(n int64) (restore func()) {
	old := maxHeldGroups
	maxHeldGroups = n
	return func() { maxHeldGroups = old }
}

// StreamedColumns returns the columns streamed reads read since the last
// call (a child table's read counts each of its columns), and starts
// counting again.
func StreamedColumns() int64 { return streamedColumns.Swap(0) }

// FallbackProfiles gives cols without a profile one from their tables'
// first rows (fallback.go), and reports how many it gave.
func FallbackProfiles(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, cols []Column) (int, error) {
	return fallbackProfiles(ctx, env, tables, cols)
}
