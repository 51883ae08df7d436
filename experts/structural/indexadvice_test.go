package structural_test

import (
	"context"
	"slices"
	"testing"

	"github.com/discover-db/discover/catalog"
)

// TestIndexAdviceOnlyWhereItMatters: a declared reference with no index
// on the child is advised an index when the child holds experts.IndexMinRows
// rows or more, and not when it is small or empty, where a scan reads a
// few pages (issue 22: "advice only where it can matter").
func TestIndexAdviceOnlyWhereItMatters(t *testing.T) {
	cat := inventoried(t, sqliteFile(t,
		`CREATE TABLE parent (id INTEGER PRIMARY KEY)`,
		`INSERT INTO parent VALUES (1), (2)`,
		`CREATE TABLE big_child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id))`,
		`INSERT INTO big_child WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 1000) SELECT i, i % 2 + 1 FROM r`,
		`CREATE TABLE small_child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id))`,
		`INSERT INTO small_child SELECT id, parent_id FROM big_child WHERE id < 1000`,
		`CREATE TABLE empty_child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id))`,
		`CREATE TABLE indexed_child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id))`,
		`CREATE INDEX ix ON indexed_child (parent_id)`,
		`INSERT INTO indexed_child SELECT id, parent_id FROM big_child`,
		// A partial index serves only the rows its predicate keeps: joins
		// and parent deletes reading the others still scan the table.
		`CREATE TABLE partial_child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id))`,
		`CREATE INDEX partial_ix ON partial_child (parent_id) WHERE parent_id > 1`,
		`INSERT INTO partial_child SELECT id, parent_id FROM big_child`,
	), nil)
	ctx := context.Background()
	recs, err := cat.Kind(ctx, catalog.KindRecommendation, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range recs {
		got = append(got, e.Key)
	}
	want := []string{"index:big_child(parent_id)->parent(id)", "index:partial_child(parent_id)->parent(id)"}
	if !slices.Equal(got, want) {
		t.Errorf("index advice %q, want %q", got, want)
	}
}
