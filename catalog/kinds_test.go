package catalog

import (
	"context"
	"strings"
	"testing"
)

type recorder struct{ got []Entry }

func (r *recorder) Save(_ context.Context, e Entry) error {
	r.got = append(r.got, e)
	return nil
}

// A document saved by a kind's name is checked against the kind's type when
// the entry is built; an undeclared kind is refused; the typed path stamps
// what it is given.
func TestKindsCheckDocuments(t *testing.T) {
	if _, err := NewEntry(KindProfile, "t.c", TableDoc{Name: "t"}); err == nil || !strings.Contains(err.Error(), "not a profile document") {
		t.Fatalf("a TableDoc saved as a profile: %v", err)
	}
	if _, err := NewEntry("no_such_kind", "k", InsightDoc{}); err == nil || !strings.Contains(err.Error(), "not declared") {
		t.Fatalf("an undeclared kind: %v", err)
	}
	if _, err := NewEntry(KindProfile, "t.c", &ProfileDoc{}); err != nil {
		t.Fatalf("a pointer to the kind's type: %v", err)
	}
	// Interface kinds take the base document and what embeds it.
	type withFigures struct {
		ProgressDoc
		N int `json:"n"`
	}
	if _, err := NewEntry(KindProgress, "x:step", withFigures{ProgressDoc{Step: "step"}, 3}); err != nil {
		t.Fatalf("a ProgressDoc with figures: %v", err)
	}
	if _, err := NewEntry(KindProgress, "x:step", InsightDoc{}); err == nil {
		t.Fatal("an InsightDoc saved as progress")
	}
	var r recorder
	if err := Profiles.Save(context.Background(), &r, "t.c", ProfileDoc{Rows: 3}, 0.7, []string{"e"}, "tag"); err != nil {
		t.Fatal(err)
	}
	if len(r.got) != 1 || r.got[0].Kind != KindProfile || r.got[0].Key != "t.c" || r.got[0].Confidence != 0.7 ||
		len(r.got[0].Tags) != 1 || len(r.got[0].Evidence) != 1 {
		t.Fatalf("saved %+v", r.got)
	}
	back, err := Profiles.Decode(r.got[0])
	if err != nil || back.Rows != 3 {
		t.Fatalf("decoded %+v %v", back, err)
	}
	if _, err := Tables.Decode(r.got[0]); err == nil {
		t.Fatal("a profile decoded as a table")
	}
}

func TestDefineTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a kind declared twice did not panic")
		}
	}()
	Define[InsightDoc](KindProfile)
}
