package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/discover-db/discover/internal/textcut"
	"github.com/discover-db/discover/prompts"
)

// Budget bounds a run's model use. Zero fields take the defaults below.
type Budget struct {
	MaxCalls     int64         // requests sent, retries included (default 40)
	MaxTokens    int64         // prompt and answer tokens (default 200,000)
	CallTimeout  time.Duration // per request (default 60s)
	Retries      int           // further attempts on 429/5xx (default 2; negative: none)
	Backoff      time.Duration // wait before the first retry, doubled each time (default 500ms)
	MaxFailures  int           // failed asks in a row before the Client stops asking (default 3)
	AnswerTokens int           // cap on one answer (default 2,000)
	// ConversationTokens bounds the messages of one request (as
	// EstimateTokens counts them, default 8,000): beyond it, the older turns
	// of a repair conversation are replaced by one summary. The default
	// leaves room for a prompt whose schema block fills its own 6,000-token
	// budget plus one answer and its repair.
	ConversationTokens int
}

func (b Budget) withDefaults() Budget {
	if b.MaxCalls <= 0 {
		b.MaxCalls = 40
	}
	if b.MaxTokens <= 0 {
		b.MaxTokens = 200_000
	}
	if b.CallTimeout <= 0 {
		b.CallTimeout = 60 * time.Second
	}
	switch {
	case b.Retries == 0:
		b.Retries = 2
	case b.Retries < 0:
		b.Retries = 0
	}
	if b.Backoff <= 0 {
		b.Backoff = 500 * time.Millisecond
	}
	if b.MaxFailures <= 0 {
		b.MaxFailures = 3
	}
	if b.AnswerTokens <= 0 {
		b.AnswerTokens = 2000
	}
	if b.ConversationTokens <= 0 {
		b.ConversationTokens = 8000
	}
	return b
}

// Validator is a decoded answer that can say whether it is usable. The
// error names the field at fault: it is sent back to the model verbatim in
// the repair request.
type Validator interface {
	Validate() error
}

// Call is one request to the model, as the catalog records it. The prompt
// id carries the template's version.
type Call struct {
	Seq       int64  `json:"seq"`
	Prompt    string `json:"prompt"` // "hypotheses/v1"
	Tool      string `json:"tool"`
	Attempt   int    `json:"attempt"` // 1, then 2… for retries of the same request
	Outcome   string `json:"outcome"` // ok | invalid | http_error | timeout | error
	Error     string `json:"error,omitempty"`
	Tokens    int    `json:"tokens"`
	Estimated bool   `json:"tokens_estimated,omitempty"` // the server reported no usage
	ElapsedMS int64  `json:"elapsed_ms"`
	// Summarized counts the earlier messages of the conversation that one
	// summary message stood in for, to keep the request within
	// Budget.ConversationTokens.
	Summarized int `json:"summarized,omitempty"`
}

// Client asks one model for structured answers within a budget. It is safe
// for concurrent use.
type Client struct {
	p      Provider
	cfg    Config
	budget Budget
	redact Redactor
	sleep  func(context.Context, time.Duration) error

	mu       sync.Mutex
	calls    int64
	tokens   int64
	failures int    // failed asks in a row
	lastFail string // the last failure, redacted: what ErrUnavailable stands for
	records  []Call
}

// NewClient wraps a provider. cfg.Key is kept only to scrub it from errors.
func NewClient(p Provider, cfg Config, b Budget) *Client {
	return &Client{p: p, cfg: Config{Provider: cfg.Provider, Model: cfg.Model, BaseURL: cfg.BaseURL},
		budget: b.withDefaults(), redact: Redactor{cfg.Key}, sleep: sleepCtx}
}

// Provider names the provider ("openai").
func (c *Client) Provider() string { return c.cfg.Provider }

// Model names the model.
func (c *Client) Model() string { return c.cfg.Model }

// Budget is the budget in force, defaults filled in.
func (c *Client) Budget() Budget { return c.budget }

// Usage is the requests sent and tokens spent so far.
func (c *Client) Usage() (calls, tokens int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls, c.tokens
}

// TakeCalls returns the requests made since the last TakeCalls, for the
// caller to record.
func (c *Client) TakeCalls() []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.records
	c.records = nil
	return out
}

// Redact scrubs the API key from s.
func (c *Client) Redact(s string) string { return c.redact.Redact(s) }

// Ask sends prompt p, asking the model to call tool, and decodes the call's
// arguments into out (a pointer). An answer that does not decode or
// validate gets one repair request carrying the problem; a second bad
// answer is ErrInvalid. Errors are ErrBudget, ErrUnavailable, ErrInvalid or
// the provider's, wrapped with the prompt id; their text holds no key.
func (c *Client) Ask(ctx context.Context, p prompts.Prompt, tool Tool, out Validator) error {
	_, err := c.converse(ctx, p.ID(), conversation{{Message: Message{RoleSystem, p.System}, pinned: true},
		{Message: Message{RoleUser, p.User}}}, tool, out)
	return err
}

// converse asks with a whole conversation, its last turn the request, and
// keeps the Client's count of failed asks. It returns the answer as the
// model gave it, for a caller that carries the conversation on.
func (c *Client) converse(ctx context.Context, id string, cv conversation, tool Tool, out Validator) (string, error) {
	answer, err := c.ask(ctx, id, cv, tool, out)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case err == nil:
		c.failures = 0
		return answer, nil
	case errors.Is(err, ErrBudget), errors.Is(err, ErrUnavailable), ctx.Err() != nil:
		// Not the model's fault, or already counted.
	default:
		c.failures++
		c.lastFail = textcut.Bytes(c.redact.Redact(err.Error()), 300)
	}
	return "", &redactedError{msg: fmt.Sprintf("llm: %s: %s", id, c.redact.Redact(err.Error())), err: err}
}

// redactedError shows a scrubbed message but keeps the cause for
// errors.Is (ErrBudget, ErrInvalid, context.DeadlineExceeded…).
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

func (c *Client) ask(ctx context.Context, id string, cv conversation, tool Tool, out Validator) (string, error) {
	resp, err := c.complete(ctx, id, tool, cv)
	if err != nil {
		return "", err
	}
	answer, problem := decode(resp, tool, out)
	if problem == nil {
		return answer, nil
	}
	c.markLast("invalid", problem.Error())
	// One repair: show the model its answer (whole: a summary stands in
	// for it if the conversation grows too long) and what was wrong with
	// it. The request it answered is what the repair refers back to, so it
	// stays.
	rp, err := prompts.Render("repair", prompts.Repair{Tool: tool.Name, Problem: problem.Error()})
	if err != nil {
		return "", err
	}
	shown := answer
	if strings.TrimSpace(shown) == "" {
		shown = "(no answer)" // an empty turn is one some APIs refuse
	}
	cv = slices.Clone(cv)
	cv[len(cv)-1].pinned = true
	cv = append(cv, turn{Message: Message{RoleAssistant, shown}, note: &attempt{Answer: shown, Problem: problem.Error()}},
		turn{Message: Message{RoleUser, rp.System + "\n\n" + rp.User}})
	resp, err = c.complete(ctx, rp.ID(), tool, cv)
	if err != nil {
		return "", err
	}
	answer, problem = decode(resp, tool, out)
	if problem != nil {
		c.markLast("invalid", problem.Error())
		return "", fmt.Errorf("%w after one repair: %v", ErrInvalid, problem)
	}
	return answer, nil
}

// complete sends one request with retries on 429/5xx, each attempt
// counted against the budget and recorded.
func (c *Client) complete(ctx context.Context, promptID string, tool Tool, cv conversation) (Response, error) {
	msgs, summarized := cv.fit(c.budget.ConversationTokens)
	req := Request{Messages: msgs, Tool: tool, MaxTokens: c.budget.AnswerTokens, Temperature: temperature(ctx)}
	wait := c.budget.Backoff
	for attempt := 1; ; attempt++ {
		seq, err := c.reserve()
		if err != nil {
			return Response{}, err
		}
		start := time.Now()
		cctx, cancel := context.WithTimeout(ctx, c.budget.CallTimeout)
		resp, err := c.p.Complete(cctx, req)
		timedOut := cctx.Err() != nil && ctx.Err() == nil
		cancel()
		rec := Call{Seq: seq, Prompt: promptID, Tool: tool.Name, Attempt: attempt, Outcome: "ok", ElapsedMS: time.Since(start).Milliseconds(),
			Summarized: summarized}
		if err == nil {
			rec.Tokens = resp.TotalTokens
			if rec.Tokens == 0 {
				rec.Tokens = estimateTokens(msgs, resp)
				rec.Estimated = true
			}
		}
		var he *HTTPError
		switch {
		case err == nil:
		case timedOut:
			err = fmt.Errorf("no answer within %s: %w", c.budget.CallTimeout, context.DeadlineExceeded)
			rec.Outcome = "timeout"
		case errors.As(err, &he):
			rec.Outcome = "http_error"
		default:
			rec.Outcome = "error"
		}
		if err != nil {
			rec.Error = c.redact.Redact(err.Error())
		}
		c.record(rec)
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil {
			return Response{}, ctx.Err()
		}
		if he == nil || !he.Retryable() || attempt > c.budget.Retries {
			if attempt > 1 {
				return Response{}, fmt.Errorf("%w (after %d attempts)", err, attempt)
			}
			return Response{}, err
		}
		if err := c.sleep(ctx, wait); err != nil {
			return Response{}, err
		}
		wait *= 2
	}
}

// reserve counts one request against the budget and numbers it, or
// refuses it.
func (c *Client) reserve() (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.failures >= c.budget.MaxFailures:
		// Name the failure behind it: the step that meets the breaker
		// first is often not the one whose calls failed.
		return 0, fmt.Errorf("%w (last: %s)", ErrUnavailable, c.lastFail)
	case c.calls >= c.budget.MaxCalls:
		return 0, fmt.Errorf("%w: %d calls", ErrBudget, c.calls)
	case c.tokens >= c.budget.MaxTokens:
		return 0, fmt.Errorf("%w: %d tokens", ErrBudget, c.tokens)
	}
	c.calls++
	return c.calls, nil
}

func (c *Client) record(rec Call) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tokens += int64(rec.Tokens)
	c.records = append(c.records, rec)
}

// markLast notes on the newest record that its answer was unusable.
func (c *Client) markLast(outcome, problem string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.records); n > 0 {
		c.records[n-1].Outcome = outcome
		c.records[n-1].Error = textcut.Bytes(c.redact.Redact(problem), 500)
	}
}

// decode reads the tool call's arguments (or, from a model that answered
// in text, the JSON object in its text) strictly into out and validates it.
// It returns the raw answer, for the repair request.
func decode(resp Response, tool Tool, out Validator) (string, error) {
	raw := resp.Arguments
	if raw == "" {
		raw = jsonIn(resp.Text)
	}
	if strings.TrimSpace(raw) == "" {
		return resp.Text, fmt.Errorf("no call of the tool %s and no JSON object in the answer", tool.Name)
	}
	if !strings.HasPrefix(strings.TrimSpace(raw), "{") {
		// "null" or a bare list would decode into nothing and pass as valid.
		return raw, errors.New("arguments are not a JSON object")
	}
	if resp.ToolName != "" && resp.ToolName != tool.Name {
		return raw, fmt.Errorf("called the tool %q; only %s is available", resp.ToolName, tool.Name)
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		return raw, fmt.Errorf("arguments do not follow the schema: %v", err)
	}
	if dec.More() {
		return raw, errors.New("arguments hold more than one JSON value")
	}
	if err := out.Validate(); err != nil {
		return raw, err
	}
	return raw, nil
}

// jsonIn finds the JSON object in a text answer, code fences and prose
// around it dropped.
func jsonIn(s string) string {
	i := strings.IndexByte(s, '{')
	j := strings.LastIndexByte(s, '}')
	if i < 0 || j < i {
		return ""
	}
	return s[i : j+1]
}

// estimateTokens is the usual four characters a token, for servers that
// report no usage: the token budget must bound them too.
func estimateTokens(msgs []Message, resp Response) int {
	n := len(resp.Text) + len(resp.Arguments)
	for _, m := range msgs {
		n += len(m.Text)
	}
	return n/4 + 1
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// A conversation is a request's messages with what each is for, so that
// one that outgrows Budget.ConversationTokens is summarized whole turns at
// a time rather than cut: half a JSON object or half a query reads to a
// model as something it is not.
type conversation []turn

// turn is one message of a conversation.
type turn struct {
	Message
	// pinned turns are always sent whole: the system prompt, and the
	// request a repair refers back to.
	pinned bool
	// note is the attempt this message shows, as a summary keeps it; nil
	// when the message adds nothing a later one does not restate.
	note *attempt
}

// attempt is an earlier answer and the problem found with it.
type attempt struct {
	Answer  string `json:"attempt"`
	Problem string `json:"problem"`
}

// How much of an attempt a summary keeps: the start of the answer, which
// identifies it, and the problem, which is what the model must not repeat.
const (
	summaryAnswerBytes  = 300
	summaryProblemBytes = 600
)

// fit returns the messages to send and how many of them a summary stands
// in for. Within budget tokens the conversation goes as it is. Beyond it,
// the oldest turns that are neither pinned nor the latest (a model's answer
// together with the reply to it, whole turns only) are replaced by one
// user message listing each attempt they held and its problem, as few
// turns as bring the request within budget, or all of them when none do.
func (cv conversation) fit(budget int) ([]Message, int) {
	msgs := make([]Message, len(cv))
	total := 0
	for i, t := range cv {
		msgs[i] = t.Message
		total += EstimateTokens(t.Text)
	}
	if total <= budget || len(cv) < 2 {
		return msgs, 0
	}
	// The summarizable turns, grouped so that an answer and the reply to it
	// go together.
	var groups [][]int
	var open []int
	for i, t := range cv[:len(cv)-1] {
		if t.pinned {
			continue
		}
		open = append(open, i)
		if t.Role == RoleUser {
			groups = append(groups, open)
			open = nil
		}
	}
	if len(open) > 0 {
		groups = append(groups, open)
	}
	var out []Message
	var n int
	for g := 1; g <= len(groups); g++ {
		out, n = cv.summarize(groups[:g])
		used := 0
		for _, m := range out {
			used += EstimateTokens(m.Text)
		}
		if used <= budget {
			break
		}
	}
	if n == 0 {
		return msgs, 0
	}
	return out, n
}

// summarize replaces the turns of groups by one summary message where the
// first of them was.
func (cv conversation) summarize(groups [][]int) ([]Message, int) {
	gone := map[int]bool{}
	var notes []attempt
	first := -1
	for _, g := range groups {
		for _, i := range g {
			gone[i] = true
			if first < 0 {
				first = i
			}
			if a := cv[i].note; a != nil {
				notes = append(notes, attempt{Answer: textcut.Bytes(a.Answer, summaryAnswerBytes), Problem: textcut.Bytes(a.Problem, summaryProblemBytes)})
			}
		}
	}
	if first < 0 {
		return nil, 0
	}
	if notes == nil {
		notes = []attempt{}
	}
	// encoding/json escapes <, > and &: an attempt cannot close the data
	// block.
	b, _ := json.Marshal(notes)
	summary := Message{RoleUser, "Earlier turns of this conversation were left out to keep it short. " +
		"Each earlier attempt (clipped) and the problem found with it, oldest first, as data:\n<data>\n" + string(b) + "\n</data>"}
	out := make([]Message, 0, len(cv)-len(gone)+1)
	for i, t := range cv {
		switch {
		case i == first:
			out = append(out, summary)
		case !gone[i]:
			out = append(out, t.Message)
		}
	}
	return out, len(gone)
}

// SampleTemperature is the temperature an independent sample is asked at:
// a formulation of a test meant to be voted on against others must not be
// the same most likely answer each time.
const SampleTemperature = 0.7

type temperatureKey struct{}

// sampled marks the requests made under ctx as independent samples.
func sampled(ctx context.Context) context.Context {
	return context.WithValue(ctx, temperatureKey{}, SampleTemperature)
}

// temperature is the temperature of the requests made under ctx: 0, the
// model's most likely answer, unless the Client asked for an independent
// sample.
func temperature(ctx context.Context) float64 {
	t, _ := ctx.Value(temperatureKey{}).(float64)
	return t
}
