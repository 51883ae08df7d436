package llm

import (
	"encoding/json"
	"fmt"
)

// Context compaction: a prompt carries what is most relevant within a token
// budget. Items are whole structures (a table, a finding); one that does not
// fit is dropped entirely, never cut, because half a JSON object or half a
// sentence reads to a model as something it is not.

// EstimateTokens is the usual four bytes a token, rounded up; it errs on the
// side of too many for the JSON and English discover sends.
func EstimateTokens(s string) int { return len(s)/4 + 1 }

// Compact keeps the items that fit within budget tokens (as EstimateTokens
// counts their JSON form), in the order given, which must be most relevant
// first. An item too large for what is left is dropped and the next ones
// are still tried, so one long item does not crowd out many short ones: a
// less relevant item is kept only where a more relevant one did not fit in
// the room left. It returns the kept items, how many were
// dropped, and the tokens used.
func Compact[T any](items []T, budget int) (kept []T, omitted, used int, err error) {
	kept = make([]T, 0, len(items))
	for _, it := range items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("llm: compact: %w", err)
		}
		cost := EstimateTokens(string(b))
		if used+cost > budget {
			omitted++
			continue
		}
		used += cost
		kept = append(kept, it)
	}
	return kept, omitted, used, nil
}
