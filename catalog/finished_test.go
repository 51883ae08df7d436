package catalog

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestLatestFinishedRun(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t)
	if _, err := c.LatestFinishedRun(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("on an empty catalog: %v", err)
	}
	t0 := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	fin := t0.Add(time.Minute)
	for _, r := range []Run{
		{ID: "old", StartedAt: t0, FinishedAt: &fin},
		{ID: "done", StartedAt: t0.Add(time.Hour)},
		{ID: "killed", StartedAt: t0.Add(2 * time.Hour)},
	} {
		if err := c.StartRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		if r.FinishedAt != nil {
			if err := c.UpdateRun(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if r, err := c.LatestFinishedRun(ctx); err != nil || r.ID != "old" {
		t.Fatalf("got %s, %v; want old, the only finished run", r.ID, err)
	}
	done := t0.Add(90 * time.Minute)
	if err := c.UpdateRun(ctx, Run{ID: "done", StartedAt: t0.Add(time.Hour), FinishedAt: &done}); err != nil {
		t.Fatal(err)
	}
	// The newer run still unfinished is passed over.
	if r, err := c.LatestFinishedRun(ctx); err != nil || r.ID != "done" {
		t.Fatalf("got %s, %v; want done", r.ID, err)
	}
}
