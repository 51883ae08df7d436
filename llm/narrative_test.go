package llm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/llmtest"
	"github.com/discover-db/discover/prompts"
)

func narrativeData() prompts.Narrative {
	return prompts.Narrative{Facts: prompts.NarrativeFacts{Dialect: "sqlite", Database: "shop", Tables: 2, Relationships: 1},
		Findings: []prompts.Finding{{Kind: "business_rule", Text: "Every shipped order has a shipping date.", Confidence: 0.9}}}
}

// The narrative comes back through the write_summary tool, its whitespace
// collapsed to one paragraph; the prompt carries the findings as data.
func TestWriteNarrative(t *testing.T) {
	c, srv := client(t, llm.Budget{}, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Tool: "write_summary", Args: map[string]any{"summary": "  A small shop.\n\nTwo tables:\tcustomers and orders. "}}
	})
	text, pid, err := c.WriteNarrative(context.Background(), narrativeData())
	if err != nil {
		t.Fatal(err)
	}
	if text != "A small shop. Two tables: customers and orders." || pid != "narrative/v1" {
		t.Fatalf("narrative %q prompt %s", text, pid)
	}
	r := srv.Requests()[0]
	if r.ForcedTool != "write_summary" || !strings.Contains(r.Text(), `"text":"Every shipped order has a shipping date."`) {
		t.Fatalf("request: forced %q\n%s", r.ForcedTool, r.Text())
	}
}

// An empty or overlong summary is refused after one repair request.
func TestWriteNarrativeInvalid(t *testing.T) {
	for name, summary := range map[string]string{"empty": "  ", "overlong": strings.Repeat("word ", 400)} {
		t.Run(name, func(t *testing.T) {
			c, srv := client(t, llm.Budget{}, func(n int, req llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Tool: "write_summary", Args: map[string]any{"summary": summary}}
			})
			_, _, err := c.WriteNarrative(context.Background(), narrativeData())
			if !errors.Is(err, llm.ErrInvalid) || !strings.Contains(err.Error(), "summary:") {
				t.Fatalf("err = %v, want ErrInvalid naming the summary", err)
			}
			if n := len(srv.Requests()); n != 2 {
				t.Fatalf("%d requests, want the ask and one repair", n)
			}
		})
	}
}

type item struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

func cost(t *testing.T, items []item) int {
	t.Helper()
	_, _, used, err := llm.Compact(items, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	return used
}

// Compaction keeps whole items, most relevant first, within the budget: the
// budget holds, no item is cut, the kept ones are the most relevant that
// fit, and a too-large item is dropped whole without crowding out the
// smaller ones after it.
func TestCompact(t *testing.T) {
	var items []item // most relevant first
	for i := 0; i < 40; i++ {
		items = append(items, item{Key: fmt.Sprintf("finding-%02d", i), Text: strings.Repeat("x", 100)})
	}
	one := cost(t, items[:1])
	for _, budget := range []int{0, one - 1, one, 5*one + 3, 17 * one, 1000 * one} {
		kept, omitted, used, err := llm.Compact(items, budget)
		if err != nil {
			t.Fatal(err)
		}
		want := min(budget/one, len(items))
		if used > budget || len(kept) != want || omitted != len(items)-want {
			t.Fatalf("budget %d: kept %d omitted %d used %d, want %d kept within budget", budget, len(kept), omitted, used, want)
		}
		for i, k := range kept {
			if k != items[i] {
				t.Fatalf("budget %d: kept[%d] = %s, want the %d-th most relevant", budget, i, k.Key, i)
			}
		}
	}

	// A long second item does not fit: it is dropped whole, the rest follow.
	mixed := append([]item{items[0], {Key: "long", Text: strings.Repeat("y", 4000)}}, items[1:5]...)
	kept, omitted, used, err := llm.Compact(mixed, 5*one)
	if err != nil {
		t.Fatal(err)
	}
	if omitted != 1 || used > 5*one || len(kept) != 5 || kept[0].Key != "finding-00" || kept[1].Key != "finding-01" {
		t.Fatalf("kept %v omitted %d used %d", kept, omitted, used)
	}
	for _, k := range kept {
		if k.Key == "long" || len(k.Text) != 100 {
			t.Fatalf("an item was kept cut or oversized: %+v", k)
		}
	}
}
