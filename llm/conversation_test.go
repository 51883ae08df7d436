package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// A repair conversation of three SQL rounds: each user turn restates the
// tables (large), the query and its problem.
func sqlRounds() conversation {
	tables := strings.Repeat(`{"name":"orders","columns":[{"name":"status"},{"name":"total"}]},`, 40)
	user := func(k int) turn {
		sql := fmt.Sprintf("SELECT COUNT(*) AS violations FROM orders WHERE attempt = %d /* ünïcödé */", k)
		problem := fmt.Sprintf("grounding: unknown column or table \"attempt\" (round %d)", k)
		data, _ := json.Marshal(map[string]any{"SQL": sql, "Problem": problem, "Tables": json.RawMessage("[" + strings.TrimSuffix(tables, ",") + "]")})
		return turn{Message: Message{RoleUser, "<data>\n" + string(data) + "\n</data>\nGive a corrected query."}, note: &attempt{Answer: sql, Problem: problem}}
	}
	answer := func(k int) turn {
		return turn{Message: Message{RoleAssistant, fmt.Sprintf(`{"sql":"SELECT COUNT(*) AS violations FROM orders WHERE attempt = %d /* ünïcödé */"}`, k)}}
	}
	return conversation{
		{Message: Message{RoleSystem, "You correct a read-only SQL query."}, pinned: true},
		user(0), answer(1), user(1), answer(2), user(2), answer(3), user(3),
	}
}

func tokens(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += EstimateTokens(m.Text)
	}
	return n
}

// summaryOf finds the one summary message and decodes its data block.
func summaryOf(t *testing.T, msgs []Message) (int, []attempt) {
	t.Helper()
	at := -1
	for i, m := range msgs {
		if strings.HasPrefix(m.Text, "Earlier turns of this conversation were left out") {
			if at >= 0 {
				t.Fatalf("two summaries: %d and %d", at, i)
			}
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("no summary in %d messages", len(msgs))
	}
	text := msgs[at].Text
	if msgs[at].Role != RoleUser || !utf8.ValidString(text) {
		t.Fatalf("summary role %s, valid UTF-8 %v", msgs[at].Role, utf8.ValidString(text))
	}
	i, j := strings.Index(text, "<data>\n"), strings.LastIndex(text, "\n</data>")
	var notes []attempt
	if err := json.Unmarshal([]byte(text[i+len("<data>\n"):j]), &notes); err != nil {
		t.Fatalf("the summary's data is not whole JSON: %v\n%s", err, text)
	}
	return at, notes
}

// Beyond the budget, the older turns are replaced by one summary that
// keeps every earlier attempt's problem; the system prompt and the latest
// turn go whole, every other message left is one of the originals, whole
// (never cut mid-JSON), in order, and as few turns are summarized as fit.
func TestConversationSummarized(t *testing.T) {
	cv := sqlRounds()
	full := make([]Message, len(cv))
	for i, tn := range cv {
		full[i] = tn.Message
	}
	if got, n := cv.fit(1 << 20); n != 0 || len(got) != len(full) {
		t.Fatalf("within budget: %d messages, %d summarized", len(got), n)
	}
	fullTokens := tokens(full)

	// Summarizing the first round alone is enough.
	budget := fullTokens - EstimateTokens(full[1].Text)/2
	got, n := cv.fit(budget)
	at, notes := summaryOf(t, got)
	if n != 1 || at != 1 || len(got) != len(full) || tokens(got) > budget {
		t.Fatalf("budget %d: %d summarized, summary at %d, %d messages, %d tokens", budget, n, at, len(got), tokens(got))
	}
	if len(notes) != 1 || notes[0].Problem != cv[1].note.Problem {
		t.Fatalf("notes %+v", notes)
	}

	// A budget that nothing meets: every earlier turn goes into the
	// summary, each attempt's problem stays; the system prompt and the
	// latest turn are sent whole all the same.
	got, n = cv.fit(1)
	if n != 6 || len(got) != 3 || got[0] != full[0] || got[2] != full[7] {
		t.Fatalf("%d summarized, messages %d: %+v", n, len(got), got)
	}
	// That is also what a budget just large enough for it sends: the last
	// answer (whose problem the latest turn states) does not fit beside it.
	budget = tokens(got)
	if again, n := cv.fit(budget); n != 6 || len(again) != 3 {
		t.Fatalf("budget %d: %d summarized, %d messages", budget, n, len(again))
	}
	if again, n := cv.fit(budget + EstimateTokens(full[6].Text)); n != 5 || len(again) != 4 || again[2] != full[6] {
		t.Fatalf("budget with room for the last answer: %d summarized, %d messages", n, len(again))
	}
	_, notes = summaryOf(t, got)
	if len(notes) != 3 {
		t.Fatalf("%d attempts in the summary, want rounds 0 to 2: %+v", len(notes), notes)
	}
	for k, a := range notes {
		if a.Problem != cv[1+2*k].note.Problem || !strings.HasPrefix(a.Answer, "SELECT COUNT(*) AS violations FROM orders WHERE attempt = "+fmt.Sprint(k)) {
			t.Errorf("attempt %d: %+v", k, a)
		}
	}

	// In between, kept messages are originals, whole and in order.
	for budget := tokens(full) - 1; budget > 0; budget -= 97 {
		got, _ := cv.fit(budget)
		at, _ := summaryOf(t, got)
		next := 0
		for i, m := range got {
			if i == at {
				continue
			}
			for next < len(full) && full[next] != m {
				next++
			}
			if next == len(full) {
				t.Fatalf("budget %d: message %d is not an original, whole: %q", budget, i, m.Text)
			}
		}
		if got[0] != full[0] || got[len(got)-1] != full[7] {
			t.Fatalf("budget %d: the system prompt or the latest turn was not sent whole", budget)
		}
		// An answer goes with the reply to it: no assistant message right
		// after the summary unless its reply follows.
		for i := 1; i < len(got)-1; i++ {
			if got[i].Role == RoleAssistant && got[i+1].Role != RoleUser {
				t.Fatalf("budget %d: an answer without its reply at %d", budget, i)
			}
		}
	}
}

// An attempt longer than the summary keeps is clipped on a character
// boundary; the problem is kept whole up to its own bound.
func TestConversationSummaryClips(t *testing.T) {
	long := strings.Repeat("é", 400) // 800 bytes
	cv := conversation{
		{Message: Message{RoleSystem, "system"}, pinned: true},
		{Message: Message{RoleUser, "the task " + strings.Repeat("x", 4000)}, pinned: true},
		{Message: Message{RoleAssistant, long}, note: &attempt{Answer: long, Problem: "hypotheses[0].table: \"nope\" is not a table"}},
		{Message: Message{RoleUser, "Call the tool again."}},
	}
	got, n := cv.fit(1100)
	if n != 1 || len(got) != 4 || got[1] != cv[1].Message || got[3] != cv[3].Message {
		t.Fatalf("%d summarized: %+v", n, got)
	}
	_, notes := summaryOf(t, got)
	if len(notes) != 1 || notes[0].Problem != cv[2].note.Problem || !strings.HasSuffix(notes[0].Answer, "…") ||
		len(notes[0].Answer) > summaryAnswerBytes+len("…") || !utf8.ValidString(notes[0].Answer) {
		t.Fatalf("notes %+v", notes)
	}
	// Pinned turns are never summarized, even when the budget cannot be met.
	got, n = cv.fit(10)
	if n != 1 || got[1] != cv[1].Message {
		t.Fatalf("tiny budget: %d summarized, task kept %v", n, got[1] == cv[1].Message)
	}
}
