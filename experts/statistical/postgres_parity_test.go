package statistical_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse/postgres"
)

// TestPostgresStreamMatchesSQL profiles one PostgreSQL table of most
// column types twice, by reading its rows over the connection and by the
// server's aggregates, and requires the same documents from both: every
// profile field, insight and uncertainty. The table holds what the two
// could read differently: numbers the server writes in its own way (-6,
// 1e+20, 1.5e-07, NUMERIC(10,2)'s trailing zeros), -0 beside 0, more
// distinct values than the streamed count keeps exactly, blanks and
// placeholders, booleans, bytea, dates, timestamps and timestamps with a
// time zone.
func TestPostgresStreamMatchesSQL(t *testing.T) {
	src, _, table := postgresTable(t, "stat_parity", func(table string) []string {
		return []string{fmt.Sprintf(`CREATE TABLE %s (id BIGINT PRIMARY KEY, qty INTEGER, amount NUMERIC(10,2), whole NUMERIC,
			ratio DOUBLE PRECISION, label TEXT, code VARCHAR(8), flag BOOLEAN, raw BYTEA, day DATE,
			at TIMESTAMP, atz TIMESTAMPTZ)`, table),
			fmt.Sprintf(`INSERT INTO %s SELECT g,
			CASE WHEN g %% 97 = 0 THEN NULL ELSE g %% 13 - 2 END,
			CASE WHEN g %% 50 = 0 THEN 9000.00 ELSE (g %% 400) / 4.0 END,
			g * 7 %% 100003,
			CASE g %% 9 WHEN 0 THEN -6 WHEN 1 THEN 1e20 WHEN 2 THEN 1.5e-7 WHEN 3 THEN 0 WHEN 4 THEN '-0'::float8 ELSE g / 7.0 END,
			CASE WHEN g %% 10 = 0 THEN '' WHEN g %% 10 = 1 THEN 'N/A' WHEN g %% 10 = 2 THEN NULL ELSE 'label ' || (g %% 37) END,
			'C' || (g %% 5),
			g %% 3 = 0,
			CASE WHEN g %% 4 = 0 THEN NULL ELSE decode(lpad(to_hex(g %% 4093 + 16), 4, '0'), 'hex') END,
			DATE '2020-01-01' + (g %% 900),
			TIMESTAMP '2021-03-01 00:00:00' + (g %% 5000) * INTERVAL '37 minutes',
			TIMESTAMPTZ '2021-03-01 00:00:00+00' + (g %% 5000) * INTERVAL '53 minutes'
			FROM generate_series(1, 70000) g`, table)}
	})
	pg := src.(*postgres.Source)
	if _, ok := any(pg).(experts.Streamer); !ok {
		t.Fatal("the PostgreSQL source does not stream")
	}
	opts := experts.Options{SampleRows: 1_000_000}
	stream := documents(t, serverHarness(t, pg, table, opts))
	agg := documents(t, serverHarness(t, pgNoStream{Source: pg}, table, opts))
	keys := make([]string, 0, len(agg))
	for k := range agg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(stream) != len(agg) || len(agg) < 12 {
		t.Errorf("%d documents streamed, %d by the aggregates", len(stream), len(agg))
	}
	for _, k := range keys {
		if !sameJSON(stream[k], agg[k]) {
			a, _ := json.Marshal(stream[k])
			b, _ := json.Marshal(agg[k])
			t.Errorf("%s differs:\nstream %s\nsql    %s", k, a, b)
		}
	}
}
