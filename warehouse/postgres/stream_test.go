package postgres

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/internal/retrytest"
)

// TestStreamValues: streamed rows hold Run's values, but NUMERIC as a
// number (written without a fraction: int64; any other: float64; NaN stays
// text), and
// the dialect writes the numbers as the server does: ValueText as
// CAST(… AS TEXT), NumberText as MIN and MAX hand NUMERIC(p,s) over; ValueTime
// reads the wall-clock time the server wrote.
func TestStreamValues(t *testing.T) {
	t.Parallel()
	db := newDB(t, `CREATE TABLE v (f float8, n numeric(10,2), u numeric, ts timestamptz, b bytea)`,
		`INSERT INTO v VALUES (-6, 19000, 12345678901234, '2021-03-01 10:30:00+05:30', '\x00ff'),
			(1e20, 0.5, 1.50, '2021-03-01 23:59:59.5+00', NULL), (1.5e-7, -3.25, 'NaN', NULL, '\x'),
			(123456789012345, NULL, NULL, 'infinity', NULL), (0.1, 7.1, 9.99e-3, NULL, NULL), ('-0', 0, 0, NULL, NULL)`)
	s := open(t, db.dsn)
	ctx := context.Background()
	var got [][]any
	err := s.Stream(ctx, `SELECT f, n, u, ts, b, f::text, n::text, b::text FROM v`, warehouse.QueryOptions{}, func(row []any) error {
		got = append(got, append([]any(nil), row...))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{
		{-6.0, 19000.0, int64(12345678901234), "2021-03-01 05:00:00+00", []byte{0x00, 0xff}},
		{1e20, 0.5, 1.5, "2021-03-01 23:59:59.5+00", nil},
		{1.5e-7, -3.25, "NaN", nil, []byte{}},
		{123456789012345.0, nil, nil, "infinity", nil},
		{0.1, 7.1, 0.00999, nil, nil},
		{0.0, 0.0, int64(0), nil, nil},
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows streamed, want %d", len(got), len(want))
	}
	var d Dialect
	for r, row := range got {
		for c, w := range want[r] {
			if !reflect.DeepEqual(row[c], w) {
				t.Errorf("row %d column %d = %#v (%T), want %#v (%T)", r, c, row[c], row[c], w, w)
			}
		}
		// The server's own texts of the same values.
		if text, ok := d.ValueText(row[0], "double precision"); !ok || text != row[5] {
			t.Errorf("ValueText(%v) = %q, the server writes %q", row[0], text, row[5])
		}
		if row[1] != nil {
			if text, ok := d.NumberText(row[1], "numeric(10,2)"); !ok || text != row[6] {
				t.Errorf("NumberText(%v) = %q, the server writes %q", row[1], text, row[6])
			}
		}
		if b, ok := row[4].([]byte); ok {
			if text, ok := d.ValueText(b, "bytea"); !ok || text != row[7] {
				t.Errorf("ValueText(%x) = %q, the server writes %q", b, text, row[7])
			}
		}
	}
	for in, want := range map[string]string{
		"2021-03-01 10:30:00+05:30": "2021-03-01 10:30", "2021-03-01 23:59:59.5-08": "2021-03-01 23:59",
		"2021-03-01": "2021-03-01 00:00", "2021-03-01 07:00:00": "2021-03-01 07:00",
		"infinity": "", "0044-03-15 BC": "", "12:30:00": "",
	} {
		tm, ok := d.ValueTime(in)
		if g := map[bool]string{true: tm.Format("2006-01-02 15:04"), false: ""}[ok]; g != want {
			t.Errorf("ValueTime(%q) = %q, want %q", in, g, want)
		}
	}
}

// TestStreamRetriesOnlyBeforeRows: a streamed statement whose backend is
// terminated before it handed over a row runs again, as Run's do; once
// rows went to the caller it fails instead, since running it again would
// hand them over twice. An error of the caller's ends the statement and
// comes back as it is.
func TestStreamRetriesOnlyBeforeRows(t *testing.T) {
	t.Parallel()
	db := newDB(t)
	s := open(t, db.dsn)
	var r retrytest.Recorder
	s.onRetry = r.Add
	ctx := context.Background()
	unguarded := func(q string, fn func([]any) error) error {
		return s.RunStream(ctx, q, warehouse.Limits{Timeout: 30 * time.Second}, fn)
	}

	// Before the first row: pg_sleep runs before the row is sent.
	done := make(chan error, 1)
	rows := 0
	go func() {
		done <- unguarded(`SELECT 42, pg_sleep(1.5)`, func([]any) error { rows++; return nil })
	}()
	if n := terminate(t, db, `state = 'active'`); n != 1 {
		t.Fatalf("terminated %d backends", n)
	}
	if err := <-done; err != nil || rows != 1 {
		t.Fatalf("terminated before its row: %d rows, %v", rows, err)
	}
	if len(r.List()) != 1 {
		t.Fatalf("retried %d times, want once", len(r.List()))
	}

	// After rows went to the caller, while the last is a second and a
	// half away (the server sends rows as its output buffer fills: a few
	// hundred kilobytes of them come before the pause).
	rows = 0
	first := make(chan struct{})
	go func() {
		done <- unguarded(`SELECT g, repeat('x', 200), CASE WHEN g = 5000 THEN pg_sleep(1.5) END FROM generate_series(1, 5000) g`,
			func([]any) error {
				if rows++; rows == 1 {
					close(first)
				}
				return nil
			})
	}()
	<-first
	if n := terminate(t, db, `state = 'active'`); n != 1 {
		t.Fatalf("terminated %d backends", n)
	}
	if err := <-done; err == nil || rows >= 5000 || len(r.List()) != 1 {
		t.Fatalf("terminated after %d of 5,000 rows: err %v, retries %d; want an error and no retry", rows, err, len(r.List()))
	}

	stop := errors.New("enough")
	err := unguarded(`SELECT generate_series(1, 100000)`, func([]any) error { return stop })
	if !errors.Is(err, stop) || strings.Contains(err.Error(), "postgres") {
		t.Fatalf("the caller's error came back as %v", err)
	}
}
