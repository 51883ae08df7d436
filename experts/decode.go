package experts

import (
	"context"
	"fmt"

	"github.com/discover-db/discover/catalog"
)

// Decoded is an entry with its document read into T.
type Decoded[T any] struct {
	Entry catalog.Entry
	Doc   T
}

// DecodeAll reads this run's entries of kind into T, by key. One that does
// not decode is an error: the catalog holds what its kind declares
// (catalog.Define), so a mismatch is a bug, not data.
func DecodeAll[T any](ctx context.Context, env *Env, kind string) (map[string]Decoded[T], error) {
	entries, err := env.RunEntries(ctx, kind)
	if err != nil {
		return nil, fmt.Errorf("read %s entries: %w", kind, err)
	}
	out := make(map[string]Decoded[T], len(entries))
	for _, e := range entries {
		var d T
		if err := e.Decode(&d); err != nil {
			return nil, fmt.Errorf("decode %s %s: %w", kind, e.Key, err)
		}
		out[e.Key] = Decoded[T]{e, d}
	}
	return out, nil
}
